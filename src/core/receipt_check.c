/*
 * receipt_check.c - a player's check of a receipt when it comes, with no
 * bundle: what the game's key signed in it, said plainly (threat model,
 * 47).  The receipt's words ("# turn T, side S, version V, commitment C")
 * were a comment nothing signed until 2026-12-07, held to the sheet only
 * by `verify BUNDLE --receipt FILE` after the exchange, when the draft a
 * referee had passed off as the correction was played; since, the game
 * signs them too, under a message of their own (ord_sig_words_msg), and
 * this check says whose sheet it is at once, or refuses the file.
 */
#include <string.h>

#include "core/crypto.h"
#include "core/ctx.h"
#include "core/verify.h"

/* Of an opening head the player kept: that the receipt is of its game
 * and, when it opens the receipt's turn, signs an entry after it. */
static void check_opening(struct ord_vout *v, const struct ord_head *h, const char *name,
			  const struct ord_head *o, const char *oname, const unsigned char pk[32])
{
	char a[33], b[33];
	int opens = ord_head_next_turn(o);

	if (!opens) {
		ord_vout_fail(v, "%s: a head at '%s', not of a turn's opening (the game's opening head, or the exchange head before the receipt's turn): nothing of the receipt is checked with it",
			      oname, o->at);
		return;
	}
	if (memcmp(o->key, pk, 32) || ord_head_check(o)) {
		ord_vout_fail(v, "%s: not a head signed by the game's key you gave", oname);
		return;
	}
	if (memcmp(o->game_id, h->game_id, 16)) {
		ord_hex(a, h->game_id, 16);
		ord_hex(b, o->game_id, 16);
		ord_vout_fail(v, "receipt %s: a receipt of game %s, but %s is of game %s: the receipt is not of your game",
			      name, a, oname, b);
		return;
	}
	if (opens != h->turn) {
		ord_vout_note(v, "%s signs the opening of turn %d, not of the receipt's turn %d: only the game is checked with it",
			      oname, opens, h->turn);
		return;
	}
	if (h->seq <= o->seq) {
		ord_vout_fail(v, "receipt %s: it signs entry %lld, which comes before turn %d's opening (entry %lld, %s): no sheet of turn %d",
			      name, (long long)h->seq, h->turn, (long long)o->seq, oname, h->turn);
		return;
	}
	ord_vout_ok(v, "receipt %s: of the game and the turn %s opens, after its opening (entry %lld)",
		    name, oname, (long long)o->seq);
}

int ord_receipt_check(const struct ord_head *h, const char *name, const unsigned char pubkey[32],
		      const unsigned char *commitment, const struct ord_head *openings,
		      const char *const *opening_names, size_t nopenings, struct ord_buf *out)
{
	struct ord_vout v = { out, "  ", "FAILED", 0, NULL };
	char hex[129], mine[65];
	int sealed = !strcmp(h->at, "sealed");
	size_t i;

	if (strcmp(h->at, "receipt") && !sealed) {
		ord_vout_fail(&v, "%s: a head at '%s', not a receipt (at: receipt or sealed)", name,
			      h->at);
		goto out;
	}
	if (memcmp(h->key, pubkey, 32)) {
		ord_hex(hex, h->key, 32);
		ord_vout_fail(&v, "receipt %s: signed by key %s, not by the game's key you gave: no receipt of the game",
			      name, hex);
		goto out;
	}
	if (ord_head_check(h)) {
		ord_vout_fail(&v, "receipt %s: its signature does not hold: the file was changed after the game signed it, or forged",
			      name);
		goto out;
	}
	for (i = 0; i < nopenings; i++)
		check_opening(&v, h, name, &openings[i],
			      opening_names ? opening_names[i] : "a head", pubkey);
	ord_hex(hex, h->commitment, 32);
	if (commitment && memcmp(commitment, h->commitment, 32)) {
		ord_hex(mine, commitment, 32);
		ord_vout_fail(&v, "receipt %s: the game signed commitment %s, but yours is %s: it %s another sheet than yours (another version, another side's, or yours with another nonce)",
			      name, hex, mine, sealed ? "sealed" : "stored");
	}
	if (h->odd_line)
		ord_vout_note(&v, "receipt %s:%u: '%s' is no line this orderly writes in a receipt, and nothing signs it",
			      name, h->odd_line, h->odd);
	if (h->words_signed == 0) {
		/* an orderly before core revision 2026-12-07.1, or the line taken out: what
		 * is signed is the turn and the commitment alone */
		if (commitment && !memcmp(commitment, h->commitment, 32))
			ord_vout_note(&v, "receipt %s: its words are not signed (no line '# words-signature: ...': an orderly before core revision 2026-12-07.1 wrote it (orderly version says its own), or the line was taken out), but the commitment it signs is yours: the game stored your sheet in turn %d (entry %lld), whatever version its words say",
				      name, h->turn, (long long)h->seq);
		else
			ord_vout_fail(&v, "receipt %s: its words are not signed (no line '# words-signature: ...': an orderly before core revision 2026-12-07.1 wrote it (orderly version says its own), or the line was taken out): the game signed only turn %d and commitment %.16s... (entry %lld), so nothing here says whose sheet or which version it is; give --commitment HEX ('orderly sign' printed it), or hold it to the bundle after the exchange",
				      name, h->turn, hex, (long long)h->seq);
	} else if (h->words == 0) {
		ord_vout_fail(&v, "receipt %s: it does not say whose sheet it is (no line '# turn T, side S, version V, commitment C', which the game signed)",
			      name);
	} else if (h->words != 1) {
		ord_vout_fail(&v, "receipt %s:%u: its words do not read as orderly writes them (one line '# turn T, side S, version V, commitment C'): they are not the ones the game signed",
			      name, h->words_line);
	} else if (h->words_signed < 0 || ord_head_words_check(h)) {
		ord_hex(mine, h->said.commitment, 32);
		ord_vout_fail(&v, "receipt %s:%u: its words, '# turn %d, side %s, version %d, commitment %.16s...', are not what the game signed (the signature of its words, line %u, %s): a receipt in words the game did not give",
			      name, h->words_line, h->said.turn, h->said.side, h->said.version,
			      mine, h->words_sig_line,
			      h->words_signed < 0 ? "does not read, or is given twice"
						  : "does not hold");
	} else if (h->said.turn != h->turn || memcmp(h->said.commitment, h->commitment, 32)) {
		ord_hex(mine, h->said.commitment, 32);
		ord_vout_fail(&v, "receipt %s: the game signed words of turn %d, commitment %.16s... over a head of turn %d, commitment %.16s...: a false statement under the game's key",
			      name, h->said.turn, mine, h->turn, hex);
	} else if (!v.failures) {
		if (sealed)
			ord_vout_ok(&v, "%s: the seal of turn %d took, for side %s, version %d of the sheet with commitment %s (entry %lld): the game's key signed these words",
				    name, h->turn, h->said.side, h->said.version, hex,
				    (long long)h->seq);
		else
			ord_vout_ok(&v, "%s: this receipt is for turn %d, side %s, version %d of the sheet with commitment %s (entry %lld): the game's key signed these words",
				    name, h->turn, h->said.side, h->said.version, hex,
				    (long long)h->seq);
	}
out:
	if (v.failures)
		ord_buf_addf(out, "%d check%s FAILED\n", v.failures, v.failures == 1 ? "" : "s");
	return v.failures ? ORD_ETAMPERED : 0;
}
