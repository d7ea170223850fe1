/*
 * game_export.c - `orderly export`: an exchanged turn as a signed bundle
 * (bundle.h, schema/bundle.rng): the turn's record (record.h) as the game
 * file holds it, so that `verify` checks, with no game file, what `audit`
 * checks with it.  Only an exchanged turn: before the exchange its nonces
 * and dice seed are secret.
 *
 * The bundle made is checked, before it is handed back to be written or
 * sent, by the verifier a player runs on it (ord_bundle_verify, the bytes
 * as `orderly verify` reads them, with the game's key): a game file whose
 * record of the turn was changed outside orderly (a co-referee, the
 * sqlite3 shell, a bug) would otherwise be signed by an honest referee's
 * key, and only the players' verify would say so (docs/threat-model.md,
 * attack 32).  Refused when a check fails (the failures the verifier
 * hands over, ord_verify_opts.failed); its notes and what it did not
 * check (no receipt, fixed dice) refuse nothing.
 *
 * To a file (ord_game_export_fd, the CLI's -o) the bundle is never held
 * whole: its rows are read a chunk at a time by the record's own queries
 * (ord_store_record_stream) and written as they come by the writer
 * ord_bundle_write uses (ord_bundle_writer), so the bytes are the same.
 * Its signature signs the length of the document before its bytes
 * (ord_sig_bundle_msg), which is known only at its end: the document is
 * read back from the file and signed then, each byte held to the hash of
 * what was written (a file changed under the export is not signed), and
 * the file verified in pieces as `orderly verify FILE` reads it
 * (ord_bundle_verify_file).  Its memory is the verifier's, about 1 KiB a
 * unit; held in memory, the bundle and the verifier's record beside it
 * were 3.6 KiB.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sodium.h>

#include "core/bundle.h"
#include "core/crypto.h"
#include "core/game.h"

/* The largest bundle written: ORD_BUNDLE_MAX_BYTES unless a test lowers it. */
static size_t export_max = ORD_BUNDLE_MAX_BYTES;

void ord_export_set_max_bytes(size_t n)
{
	export_max = n ? n : ORD_BUNDLE_MAX_BYTES;
}

/* A bundle larger than `orderly verify` reads would be one nobody can
 * check: refused, not written. */
static int too_large(int turn, int64_t bytes, const char *what)
{
	return ord_error_set(ORD_ELIMIT,
			     "the bundle of turn %d would be larger than 'orderly verify' reads (%zu bytes): %s %lld bytes; "
			     "no bundle is written",
			     turn, export_max, what, (long long)bytes);
}

static int not_exchanged(int turn)
{
	return ord_error_set(ORD_ESTATE,
			     "turn %d is not exchanged yet: only an exchanged turn can be exported (its sheets and dice seed are still secret)",
			     turn);
}

/* The record (ord_store_record_load) holds the log from the turn's
 * opening to the next turn's, or to the head while there is none: the
 * hash of that last entry chains every entry the bundle holds, and the
 * rows are checked against the entries, so the bundle the game writes is
 * the same while it is (Ed25519 signs the same bytes alike). */
int ord_game_export_id(ord_game *g, int turn, unsigned char id[32])
{
	struct ord_store_turn t, next;
	struct ord_digest d;
	unsigned char hash[32];
	int64_t seq;
	int err;

	if ((err = ord_game_turn(g, &t, turn)) != 0)
		return err;
	if (t.state != ORD_TURN_EXCHANGED)
		return not_exchanged(turn);
	if ((err = ord_store_begin_read(g->db)) != 0)
		return err;
	if ((err = ord_store_log_head(g->db, &seq, hash)) == 0) {
		err = ord_store_turn_read(g->db, turn + 1, &next);
		if (err == 0)
			err = ord_store_log_hash(g->db, seq = next.log_seq, hash);
		else if (err == ORD_ENOTFOUND)
			err = 0;
	}
	ord_store_end_read(g->db);
	if (err)
		return err;
	ord_error_clear();
	ord_digest_init(&d, "orderly-export-id-v1");
	ord_digest_bytes(&d, g->game_id, sizeof(g->game_id));
	ord_digest_int(&d, turn);
	ord_digest_int(&d, seq);
	ord_digest_bytes(&d, hash, sizeof(hash));
	ord_digest_final(&d, id);
	return 0;
}

/* The room for the refusal's findings and the game's path, said twice
 * beside them: ord_error_set keeps 2 KiB of a message, of which the rest
 * of the refusal takes at most about 460 bytes (its words, the verdict,
 * how many more). */
#define REFUSAL_ROOM 1500

/* The verifier's failures as it hands them over (ord_verify_opts.failed):
 * the verdict and the lines, copied, for the refusal. */
struct failed {
	char *verdict;
	char **lines;
	size_t n;
};

static void failed_take(void *ud, const char *verdict, const char *const *lines, size_t n)
{
	struct failed *f = ud;
	size_t i;

	f->verdict = ord_strdup(verdict);
	f->lines = ord_xcalloc(n ? n : 1, sizeof(*f->lines));
	for (i = 0; i < n; i++)
		f->lines[i] = ord_strdup(lines[i]);
	f->n = n;
}

static void failed_release(struct failed *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->lines[i]);
	free(f->lines);
	free(f->verdict);
	memset(f, 0, sizeof(*f));
}

/* The refusal of a bundle the verifier failed: the game file, the turn,
 * the verdict and each failure's line as `verify` writes them (as many as
 * the message holds, and how many more), and what to do. */
static int refuse_failed(ord_game *g, int turn, const struct failed *f)
{
	struct ord_buf lines = ORD_BUF_INIT;
	size_t i, left = 0;
	int err;

	for (i = 0; i < f->n; i++) {
		/* as `verify` indents it: "  FAILED: ..." */
		size_t n = 2 + strlen(f->lines[i]);

		if (!left && lines.len + n + 2 * strlen(g->path) < REFUSAL_ROOM)
			ord_buf_addf(&lines, "  %s\n", f->lines[i]);
		else
			left++;
	}
	if (left)
		ord_buf_addf(&lines, "  (%zu more not shown)\n", left);
	err = ord_error_set(ORD_EBADDATA,
			    "'%s': the bundle of turn %d is not written: 'orderly verify' would refuse it (%s):\n%s"
			    "the game file was changed outside orderly since the turn was played ('orderly audit %s --turn %d' shows where); "
			    "restore it from a copy made before the change; nothing was signed or written",
			    g->path, turn, f->verdict ? f->verdict : "", lines.buf ? lines.buf : "",
			    g->path, turn);
	ord_buf_release(&lines);
	return err;
}

/* The bundle made (len bytes) through the verifier, as a player runs it
 * with the game's key: 0 when every check holds, else the refusal.  From
 * bytes, or when fd is not -1, from that file as `orderly verify FILE`
 * reads it (ord_bundle_verify_file, in pieces). */
static int check_made(ord_game *g, int turn, const char *bytes, size_t len, int fd)
{
	struct ord_buf findings = ORD_BUF_INIT;
	struct ord_verify_opts vo;
	struct failed f;
	char name[64];
	int err;

	memset(&vo, 0, sizeof(vo));
	memset(&f, 0, sizeof(f));
	vo.pubkey = g->pk;
	vo.failed = failed_take;
	vo.failed_ud = &f;
	snprintf(name, sizeof(name), "the bundle of turn %d", turn);
	if (fd >= 0)
		err = ord_bundle_verify_file(fd, len, name, &vo, &findings);
	else
		err = ord_bundle_verify(bytes, len, name, &vo, &findings);
	if (err == ORD_ETAMPERED)
		err = refuse_failed(g, turn, &f);
	else if (err == ORD_EBADDATA)
		err = ord_error_set(ORD_EBADDATA,
				    "'%s': the bundle of turn %d is not written: 'orderly verify' cannot read it (%s); nothing was signed or written",
				    g->path, turn, ord_error_last());
	else if (!err)
		ord_error_clear();
	failed_release(&f);
	ord_buf_release(&findings);
	return err;
}

/* What an export checks before it reads the record, in a read
 * transaction it leaves open when it returns 0: the turn exchanged, the
 * key at hand, the sheets not too many. */
static int export_start(ord_game *g, int turn)
{
	struct ord_store_turn t;
	int64_t sheets = 0;
	int err;

	if ((err = ord_game_turn(g, &t, turn)) != 0)
		return err;
	if (t.state != ORD_TURN_EXCHANGED)
		return not_exchanged(turn);
	if (!g->have_sk)
		return ord_error_set(ORD_EUSAGE,
				     "the key of '%s' is kept outside the game file: give it with --key FILE to sign the bundle",
				     g->path);
	if ((err = ord_store_begin_read(g->db)) != 0)
		return err;
	/* the sheets, base64 in the bundle, are what a turn can hold most of
	 * (a side's flood of versions): a bundle they alone make larger than
	 * verify reads is refused before the record is read into memory */
	if ((err = ord_store_record_sheet_bytes(g->db, turn, &sheets)) == 0 &&
	    (sheets + 2) / 3 * 4 > (int64_t)export_max)
		err = too_large(turn, (sheets + 2) / 3 * 4, "its sheets alone, in base64, take");
	if (err)
		ord_store_end_read(g->db);
	return err;
}

static int export(ord_game *g, int turn, struct ord_buf *out, int checked)
{
	struct ord_record r;
	int err;

	if ((err = export_start(g, turn)) != 0)
		return err;
	err = ord_store_record_load(g->db, turn, &r);
	ord_store_end_read(g->db);
	if (err)
		return err;
	err = ord_bundle_write(out, &r, g->sk);
	ord_record_release(&r);
	if (!err && out->len > export_max)
		err = too_large(turn, (int64_t)out->len, "it takes");
	if (!err && checked)
		err = check_made(g, turn, out->buf, out->len, -1);
	if (err)
		ord_buf_release(out);
	return err;
}

int ord_game_export(ord_game *g, int turn, struct ord_buf *out)
{
	return export(g, turn, out, 1);
}

int ord_game_export_unchecked(ord_game *g, int turn, struct ord_buf *out)
{
	return export(g, turn, out, 0);
}

/* ---- to a file, a piece at a time ---- */

/* The signature's element and the document's end: their bytes. */
#define SIG_TAIL (sizeof(ORD_BUNDLE_SIG_OPEN) - 1 + 128 + sizeof(ORD_BUNDLE_SIG_CLOSE) - 1)

struct file_out {
	int fd;
	const char *name;
	size_t len; /* the bytes before the signature, written or counted */
	/* the bytes written, hashed as they go (BLAKE2b-256), so that what
	 * is signed, read back from the file, is known to be them */
	crypto_generichash_state hash;
};

static int cannot_write(const char *name)
{
	return ord_error_set(ORD_ECANTWRITE, "cannot write '%s': %s", name, strerror(errno));
}

/* The writer's bytes into the file; past the largest bundle written only
 * counted (the refusal says how large it would have been). */
static int to_file(void *ud, const char *bytes, size_t n)
{
	struct file_out *f = ud;

	ord_store_test_pause("export");
	if (f->len + n + SIG_TAIL <= export_max) {
		if (ord_fd_write(f->fd, bytes, n, f->len) < 0)
			return cannot_write(f->name);
		crypto_generichash_update(&f->hash, (const unsigned char *)bytes, n);
	}
	f->len += n;
	return 0;
}

static int write_rows(void *ud, const struct ord_record *chunk)
{
	return ord_bundle_writer_rows(ud, chunk);
}

/* The file's bytes as they are read back: into the signed message and
 * the hash held to the one of what was written. */
struct read_back {
	struct ord_digest d;
	crypto_generichash_state again;
	size_t off; /* the bytes read back so far */
};

static int read_back_piece(void *ud, const char *piece, size_t n, size_t off)
{
	struct read_back *rb = ud;

	(void)off;
	crypto_generichash_update(&rb->d.st, (const unsigned char *)piece, n);
	crypto_generichash_update(&rb->again, (const unsigned char *)piece, n);
	rb->off += n;
	return 0;
}

/* Sign the document the file holds (f->len bytes): ord_sig_bundle_msg
 * puts their length before them, so the message is made as they are read
 * back, in pieces (ord_fd_pieces), each held to the hash of what was
 * written; then the signature's element and the end appended.  A file
 * that ends early or cannot be read is said as one changed: the piece
 * reader's own words are not this refusal's. */
static int sign_file(struct file_out *f, const unsigned char sk[64])
{
	unsigned char written[32], read[32], msg[32], sig[64];
	struct read_back rb;
	struct ord_buf tail = ORD_BUF_INIT;
	int err = 0;

	crypto_generichash_final(&f->hash, written, 32);
	crypto_generichash_init(&rb.again, NULL, 0, 32);
	ord_digest_init(&rb.d, ORD_SIG_BUNDLE_TAG);
	ord_digest_int(&rb.d, (int64_t)f->len);
	rb.off = 0;
	if (ord_fd_pieces(f->fd, f->len, f->name, read_back_piece, &rb) != 0)
		ord_error_clear(); /* rb.off < f->len: said below */
	crypto_generichash_final(&rb.again, read, 32);
	ord_digest_final(&rb.d, msg);
	if (rb.off != f->len || sodium_memcmp(written, read, 32) != 0)
		return ord_error_set(ORD_ECANTWRITE,
				     "'%s' changed while the bundle was written to it (%zu of its %zu bytes read back, %s): nothing was signed",
				     f->name, rb.off, f->len,
				     rb.off != f->len ? "the rest could not be read"
						      : "not the bytes written");
	ord_sig_sign(sig, msg, sk);
	ord_buf_adds(&tail, ORD_BUNDLE_SIG_OPEN);
	ord_buf_add_hex(&tail, sig, 64);
	ord_buf_adds(&tail, ORD_BUNDLE_SIG_CLOSE);
	if (ord_fd_write(f->fd, tail.buf, tail.len, f->len) < 0)
		err = cannot_write(f->name);
	ord_buf_release(&tail);
	return err;
}

/* The writer's bytes of one pass handed on with its number. */
struct pass_out {
	int pass;
	int (*flush)(void *ud, int pass, const char *bytes, size_t n);
	void *ud;
};

static int pass_flush(void *ud, const char *bytes, size_t n)
{
	struct pass_out *p = ud;

	return p->flush(p->ud, p->pass, bytes, n);
}

int ord_game_export_passes(ord_game *g, int turn, int passes,
			   int (*flush)(void *ud, int pass, const char *bytes, size_t n), void *ud)
{
	struct ord_bundle_writer w;
	struct ord_buf piece = ORD_BUF_INIT;
	struct ord_record head;
	struct pass_out p;
	int err;

	if ((err = export_start(g, turn)) != 0)
		return err;
	p.flush = flush;
	p.ud = ud;
	/* every row read once a pass: SQLite's default cache, as an audit's
	 * pass (the game's, up to 16 MiB, would be held through the verify) */
	err = ord_store_cache_for_scan(g->db, 1);
	for (p.pass = 0; !err && p.pass < passes; p.pass++) {
		if ((err = ord_store_record_head(g->db, turn, &head)) != 0)
			break;
		err = ord_bundle_writer_begin(&w, &piece, &head, pass_flush, &p);
		/* the scenario, the largest of what the head holds, is written */
		ord_record_release(&head);
		if (!err)
			err = ord_store_record_stream(g->db, turn, write_rows, &w);
		if (!err)
			err = ord_bundle_writer_end(&w);
		ord_bundle_writer_release(&w);
		ord_buf_reset(&piece);
	}
	ord_store_end_read(g->db);
	ord_buf_release(&piece);
	if (err) {
		ord_store_cache_for_scan(g->db, 0);
		return err;
	}
	/* the pages read let go before what follows (the verify) */
	if ((err = ord_store_cache_for_scan(g->db, 0)) != 0)
		return err;
	sqlite3_db_release_memory(g->db);
	return 0;
}

static int to_file_pass(void *ud, int pass, const char *bytes, size_t n)
{
	(void)pass;
	return to_file(ud, bytes, n);
}

int ord_game_export_fd(ord_game *g, int turn, int fd, const char *name, size_t *len)
{
	struct file_out f;
	int err;

	*len = 0;
	memset(&f, 0, sizeof(f));
	f.fd = fd;
	f.name = name;
	crypto_generichash_init(&f.hash, NULL, 0, 32);
	if ((err = ord_game_export_passes(g, turn, 1, to_file_pass, &f)) != 0)
		return err;
	if (f.len + SIG_TAIL > export_max)
		return too_large(turn, (int64_t)(f.len + SIG_TAIL), "it takes");
	if ((err = sign_file(&f, g->sk)) != 0)
		return err;
	*len = f.len + SIG_TAIL;
	if (fsync(fd) < 0)
		return cannot_write(name);
	return check_made(g, turn, NULL, *len, fd);
}

/* ---- the bundle's state, its bytes hashed as they are made ---- */

/* Two passes: the document's length, then its bytes.  Both hashes put
 * the length first (ord_sig_bundle_msg signs it, ord_bundle_state names
 * by it), and it is known only at the document's end. */
struct state_out {
	int turn;
	size_t len; /* the document's bytes, counted in the first pass */
	int primed; /* the length put first in both hashes */
	struct ord_digest sig, state;
};

static int state_prime(struct state_out *s)
{
	if (s->primed)
		return 0;
	s->primed = 1;
	if (s->len + SIG_TAIL > export_max)
		return too_large(s->turn, (int64_t)(s->len + SIG_TAIL), "it takes");
	ord_digest_int(&s->sig, (int64_t)s->len);
	ord_digest_int(&s->state, (int64_t)(s->len + SIG_TAIL));
	return 0;
}

static int to_state(void *ud, int pass, const char *bytes, size_t n)
{
	struct state_out *s = ud;
	int err;

	if (pass == 0) {
		s->len += n;
		return 0;
	}
	if ((err = state_prime(s)) != 0)
		return err;
	crypto_generichash_update(&s->sig.st, (const unsigned char *)bytes, n);
	crypto_generichash_update(&s->state.st, (const unsigned char *)bytes, n);
	return 0;
}

int ord_game_export_state(ord_game *g, int turn, unsigned char id[32])
{
	struct ord_buf tail = ORD_BUF_INIT;
	struct state_out s;
	unsigned char msg[32], sig[64];
	int err;

	memset(&s, 0, sizeof(s));
	s.turn = turn;
	ord_digest_init(&s.sig, ORD_SIG_BUNDLE_TAG);
	ord_digest_init(&s.state, ORD_BUNDLE_STATE_TAG);
	/* both passes in one read transaction: the same rows */
	if ((err = ord_game_export_passes(g, turn, 2, to_state, &s)) != 0 ||
	    (err = state_prime(&s)) != 0)
		return err;
	ord_digest_final(&s.sig, msg);
	ord_sig_sign(sig, msg, g->sk);
	ord_buf_adds(&tail, ORD_BUNDLE_SIG_OPEN);
	ord_buf_add_hex(&tail, sig, 64);
	ord_buf_adds(&tail, ORD_BUNDLE_SIG_CLOSE);
	crypto_generichash_update(&s.state.st, (const unsigned char *)tail.buf, tail.len);
	ord_digest_final(&s.state, id);
	ord_buf_release(&tail);
	ord_error_clear();
	return 0;
}
