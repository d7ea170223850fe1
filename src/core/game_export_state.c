/*
 * game_export_state.c - the name of a bundle made (ord_bundle_state,
 * ord_bundle_state_fd, orderly.h): a hash of its bytes.  The name of the
 * bundle the game file would give now (ord_game_export_state) is the same
 * hash of the same bytes, made as they are written, without the verifier's
 * check and without holding them (game_export.c).  The web page keeps the
 * bundles it made by it (server.c W18) and the mail judge the bundles it
 * was refused (notices.c): a game file changed in anything the bundle is
 * made from, through orderly or not (a row edited with the sqlite3 shell,
 * a copy put back), names another bundle, which is made and checked again;
 * one left as it was names the same, and nothing is made or checked
 * again.  ord_game_export_id names the bundle by the log alone, which a
 * row edited outside orderly leaves as it was.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "core/bundle.h"
#include "core/crypto.h"
#include "core/game.h"

void ord_bundle_state(const void *bytes, size_t len, unsigned char id[32])
{
	struct ord_digest d;

	ord_digest_init(&d, ORD_BUNDLE_STATE_TAG);
	ord_digest_bytes(&d, bytes, len);
	ord_digest_final(&d, id);
}

static int hash_piece(void *ud, const char *piece, size_t n, size_t off)
{
	(void)off;
	crypto_generichash_update(ud, (const unsigned char *)piece, n);
	return 0;
}

int ord_bundle_state_fd(int fd, size_t len, const char *name, unsigned char id[32])
{
	struct ord_buf what = ORD_BUF_INIT;
	struct ord_digest d;
	int err;

	ord_digest_init(&d, ORD_BUNDLE_STATE_TAG);
	ord_digest_int(&d, (int64_t)len);
	ord_buf_addf(&what, "'%s'", name);
	err = ord_fd_pieces(fd, len, what.buf, hash_piece, &d.st);
	ord_buf_release(&what);
	ord_digest_final(&d, id);
	return err;
}
