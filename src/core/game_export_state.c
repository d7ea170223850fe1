/*
 * game_export_state.c - what names a turn's bundle as the game file would
 * give it now (ord_game_export_state, orderly.h): a hash of the bundle's
 * bytes, made as ord_game_export makes them, without the verifier's check.
 * The web page keeps the bundles it made by it (server.c W18) and the mail
 * judge the bundles it was refused (notices.c): a game file changed in
 * anything the bundle is made from, through orderly or not (a row edited
 * with the sqlite3 shell, a copy put back), names another bundle, which is
 * made and checked again; one left as it was names the same, and nothing
 * is made or checked again.  ord_game_export_id names the bundle by the
 * log alone, which a row edited outside orderly leaves as it was.
 */
#include "core/bundle.h"
#include "core/crypto.h"
#include "core/game.h"

void ord_bundle_state(const void *bytes, size_t len, unsigned char id[32])
{
	struct ord_digest d;

	ord_digest_init(&d, "orderly-bundle-state-v1");
	ord_digest_bytes(&d, bytes, len);
	ord_digest_final(&d, id);
}

int ord_game_export_state(ord_game *g, int turn, unsigned char id[32])
{
	struct ord_buf b = ORD_BUF_INIT;
	int err;

	/* the same record makes the same bytes (Ed25519 signs alike) */
	if ((err = ord_game_export_unchecked(g, turn, &b)) == 0)
		ord_bundle_state(b.buf, b.len, id);
	ord_buf_release(&b);
	return err;
}
