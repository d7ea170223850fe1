/*
 * game_export.c - `orderly export`: an exchanged turn as a signed bundle
 * (bundle.h, schema/bundle.rng): the turn's record (record.h) as the game
 * file holds it, so that `verify` checks, with no game file, what `audit`
 * checks with it.  Only an exchanged turn: before the exchange its nonces
 * and dice seed are secret.
 */
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

int ord_game_export(ord_game *g, int turn, struct ord_buf *out)
{
	struct ord_store_turn t;
	struct ord_record r;
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
	if (!err)
		err = ord_store_record_load(g->db, turn, &r);
	ord_store_end_read(g->db);
	if (err)
		return err;
	err = ord_bundle_write(out, &r, g->sk);
	ord_record_release(&r);
	if (!err && out->len > export_max) {
		err = too_large(turn, (int64_t)out->len, "it takes");
		ord_buf_release(out);
	}
	return err;
}
