/*
 * game_export.c - `orderly export`: an exchanged turn as a signed bundle
 * (bundle.h, schema/bundle.rng): the turn's record (record.h) as the game
 * file holds it, so that `verify` checks, with no game file, what `audit`
 * checks with it.  Only an exchanged turn: before the exchange its nonces
 * and dice seed are secret.
 */
#include "core/bundle.h"
#include "core/game.h"

int ord_game_export(ord_game *g, int turn, struct ord_buf *out)
{
	struct ord_store_turn t;
	struct ord_record r;
	int err;

	if ((err = ord_game_turn(g, &t, turn)) != 0)
		return err;
	if (t.state != ORD_TURN_EXCHANGED)
		return ord_error_set(ORD_ESTATE,
				     "turn %d is not exchanged yet: only an exchanged turn can be exported (its sheets and dice seed are still secret)",
				     turn);
	if (!g->have_sk)
		return ord_error_set(ORD_EUSAGE,
				     "the key of '%s' is kept outside the game file: give it with --key FILE to sign the bundle",
				     g->path);
	if ((err = ord_store_begin_read(g->db)) != 0)
		return err;
	err = ord_store_record_load(g->db, turn, &r);
	ord_store_end_read(g->db);
	if (err)
		return err;
	err = ord_bundle_write(out, &r, g->sk);
	ord_record_release(&r);
	return err;
}
