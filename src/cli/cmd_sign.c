/*
 * cmd_sign.c - `orderly sign --game-id ID --turn N --side SIDE --key FILE
 * [SHEET|-]`: what a player does on his own machine before he hands in a
 * sheet.  It draws the nonce, computes the commitment (so the player knows
 * both, and can later check his sheet in a bundle), and signs (game id,
 * turn, side, commitment) with his secret key.  It needs no game file: the
 * game id is the one `orderly info` shows.  Prints three lines:
 *     nonce: HEX
 *     commitment: HEX
 *     signature: HEX
 * for `submit --nonce --signature` (with the sheet), or, in a referee-less
 * game, `submit --commitment --signature` now and `open --nonce` later.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli_keys.h"

int cmd_sign(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct ord_buf sheet = ORD_BUF_INIT, hex = ORD_BUF_INIT;
	const char *gid_s = NULL, *turn_s = NULL, *side = NULL, *key = NULL, *path = NULL;
	struct ord_signed_sheet ss;
	struct ord_keypair kp;
	unsigned char gid[16];
	int turn = 0, rc;
	const struct cli_opt opts[] = {
		{ "game-id", &gid_s, NULL }, { "turn", &turn_s, NULL }, { "side", &side, NULL },
		{ "key", &key, NULL },       { NULL, NULL, NULL },
	};

	memset(&kp, 0, sizeof(kp));
	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		return rc;
	if (argc > 2)
		return cli_usage_error(cmd, "unexpected argument '%s' (one sheet at a time)", argv[2]);
	if (!gid_s)
		return cli_usage_error(cmd, "missing --game-id ID (the game id 'orderly info' shows)");
	if (!turn_s)
		return cli_usage_error(cmd, "missing --turn N");
	if (!side)
		return cli_usage_error(cmd, "missing --side SIDE");
	if (!key)
		return cli_usage_error(cmd,
				       "missing --key FILE (your secret key, from 'orderly keygen')");
	if ((rc = cli_hex_option(cmd, "--game-id", gid_s, gid, sizeof(gid))) != 0 ||
	    (rc = cli_parse_positive(cmd, "--turn", turn_s, &turn)) != 0)
		return rc;
	if (argc == 2)
		path = argv[1];
	if ((rc = cli_load_key(key, &kp)) != 0)
		goto out;
	if ((rc = cli_read_input(&sheet, path, CLI_MAX_INPUT)) != 0)
		goto out;
	ord_sheet_sign(&ss, gid, turn, side, sheet.buf, sheet.len, &kp);
	ord_buf_add_hex(&hex, ss.nonce, sizeof(ss.nonce));
	printf("nonce: %s\n", hex.buf);
	ord_buf_reset(&hex);
	ord_buf_add_hex(&hex, ss.commitment, sizeof(ss.commitment));
	printf("commitment: %s\n", hex.buf);
	ord_buf_reset(&hex);
	ord_buf_add_hex(&hex, ss.signature, sizeof(ss.signature));
	printf("signature: %s\n", hex.buf);
	rc = CLI_OK;
out:
	memset(&kp, 0, sizeof(kp));
	ord_buf_release(&sheet);
	ord_buf_release(&hex);
	return rc;
}
