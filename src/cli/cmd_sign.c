/*
 * cmd_sign.c - `orderly sign --head FILE --side SIDE --key FILE
 * [--witness|--draft] [SHEET|-]` (or --game-id ID --turn N --seed-commitment HEX for --head):
 * what a player does on his own machine before he hands in a sheet.  It
 * draws the nonce, computes the commitment, which binds the turn's seed
 * commitment (so the player knows both, can later check his sheet in a
 * bundle, and no seed drawn after his sheet can pass), and signs (game id,
 * turn, side, commitment) with his secret key.  It needs no game file: the
 * signed head he was handed at the game's opening or at the last exchange
 * gives the game, the turn and its seed commitment, and is checked against
 * the game's key when --pubkey is given.  --witness (games with witnessed
 * dice) adds the top of his witness chain for the turn, from his key.
 * Prints:
 *     nonce: HEX
 *     commitment: HEX
 *     signature: HEX
 *     witness: HEX          (with --witness)
 * for `submit --nonce --signature` (with the sheet), or, in a referee-less
 * game, `submit --commitment --signature` now and `open --nonce` later.
 *
 * --draft signs a draft to be checked (a CHECK mail), not a sheet: the
 * signature is under another name (ord_draft_sign), printed as
 *     draft-signature: HEX
 * in place of "signature:", so that no submit takes it and nobody who saw
 * the CHECK can hand the draft in as the player's orders (mail judge J5).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli_keys.h"

int cmd_sign(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct ord_buf sheet = ORD_BUF_INIT, hex = ORD_BUF_INIT;
	const char *gid_s = NULL, *turn_s = NULL, *side = NULL, *key = NULL, *path = NULL;
	const char *head_s = NULL, *sc_s = NULL, *pub_s = NULL;
	struct ord_sheet_binding b;
	struct ord_signed_sheet ss;
	struct ord_keypair kp;
	int witness = 0, draft = 0, rc;
	const struct cli_opt opts[] = {
		{ "head", &head_s, NULL },  { "game-id", &gid_s, NULL },
		{ "turn", &turn_s, NULL },  { "seed-commitment", &sc_s, NULL },
		{ "side", &side, NULL },    { "key", &key, NULL },
		{ "pubkey", &pub_s, NULL }, { "witness", NULL, &witness },
		{ "draft", NULL, &draft },  { NULL, NULL, NULL },
	};

	memset(&kp, 0, sizeof(kp));
	memset(&b, 0, sizeof(b));
	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		return rc;
	if (argc > 2)
		return cli_usage_error(cmd, "unexpected argument '%s' (one sheet at a time)", argv[2]);
	if (!side)
		return cli_usage_error(cmd, "missing --side SIDE");
	if (draft && witness)
		return cli_usage_error(cmd,
				       "--draft signs a draft to be checked, which has no witness chain: leave out --witness");
	if (!key)
		return cli_usage_error(cmd,
				       "missing --key FILE (your secret key, from 'orderly keygen')");
	if (head_s && (gid_s || turn_s || sc_s))
		return cli_usage_error(cmd,
				       "--head gives the game, the turn and its seed commitment: leave out --game-id, --turn and --seed-commitment");
	if (head_s) {
		struct ord_head h;
		unsigned char pk[32];
		if ((rc = cli_load_head(head_s, &h)) != 0)
			return rc;
		if (!h.has_seed_commitment)
			return cli_usage_error(cmd,
					       "'%s' is the head of a %s: sign with the head of the game's opening or of the last exchange, which carries the seed commitment of the turn to come",
					       head_s, h.at);
		if (pub_s) {
			if ((rc = ord_pubkey_parse(pk, pub_s)) < 0)
				return rc == ORD_ENOTFOUND
					       ? cli_usage_error(cmd, "%s", ord_error_last())
					       : cli_fail(rc);
			if (memcmp(pk, h.key, 32)) {
				cli_error("'%s' is not signed by the game's key you gave: do not sign a sheet for it",
					  head_s);
				return CLI_DATAERR;
			}
		}
		if (ord_head_check(&h)) {
			cli_error("'%s': its signature does not hold", head_s);
			return CLI_DATAERR;
		}
		/* the head's comment says so, unsigned: a warning, never a check */
		if (h.fixed_dice)
			cli_error("warning: '%s' is the head of a fixed-dice game (made with 'orderly new --fixed-dice'): the referee chooses every die, none is drawn from the seed your sheet commits to, so its rolls prove nothing",
				  head_s);
		memcpy(b.game_id, h.game_id, 16);
		b.turn = ord_head_next_turn(&h);
		memcpy(b.seed_commitment, h.seed_commitment, 32);
	} else {
		if (!gid_s)
			return cli_usage_error(cmd,
					       "missing --head FILE (the signed head you were handed), or --game-id ID with --turn and --seed-commitment");
		if (!turn_s)
			return cli_usage_error(cmd, "missing --turn N");
		if (!sc_s)
			return cli_usage_error(cmd,
					       "missing --seed-commitment HEX (the turn's, as 'orderly info' or the signed head shows it)");
		if ((rc = cli_hex_option(cmd, "--game-id", gid_s, b.game_id, sizeof(b.game_id))) != 0 ||
		    (rc = cli_parse_positive(cmd, "--turn", turn_s, &b.turn)) != 0 ||
		    (rc = cli_hex_option(cmd, "--seed-commitment", sc_s, b.seed_commitment, 32)) != 0)
			return rc;
	}
	b.side = side;
	if (argc == 2)
		path = argv[1];
	if ((rc = cli_load_key(key, &kp)) != 0)
		goto out;
	if ((rc = cli_read_input(&sheet, path, CLI_MAX_INPUT)) != 0)
		goto out;
	if (draft) {
		ord_draft_sign(&ss, &b, sheet.buf, sheet.len, &kp);
	} else {
		/* the chain is of the sheet's nonce: drawn first */
		ord_nonce_draw(ss.nonce);
		if (witness)
			ord_witness_top(b.witness, &kp, b.game_id, b.turn, side, ss.nonce);
		ord_sheet_sign_nonce(&ss, &b, sheet.buf, sheet.len, &kp);
	}
	ord_buf_add_hex(&hex, ss.nonce, sizeof(ss.nonce));
	printf("nonce: %s\n", hex.buf);
	ord_buf_reset(&hex);
	ord_buf_add_hex(&hex, ss.commitment, sizeof(ss.commitment));
	printf("commitment: %s\n", hex.buf);
	ord_buf_reset(&hex);
	ord_buf_add_hex(&hex, ss.signature, sizeof(ss.signature));
	printf("%s: %s\n", draft ? "draft-signature" : "signature", hex.buf);
	if (witness) {
		ord_buf_reset(&hex);
		ord_buf_add_hex(&hex, b.witness, 32);
		printf("witness: %s\n", hex.buf);
	}
	rc = CLI_OK;
out:
	memset(&kp, 0, sizeof(kp));
	ord_buf_release(&sheet);
	ord_buf_release(&hex);
	return rc;
}
