/*
 * cmd_open.c - `orderly open GAME --side SIDE --nonce HEX [--witness HEX]
 * [SHEET|-]`: in a referee-less game, open a side's sealed commitment with
 * its sheet and the nonce `orderly sign` printed (and, witnessed dice, the
 * top of its witness chain `orderly sign --witness` printed).  Refused before the turn is sealed (so
 * nobody sees a sheet before every side has committed), and when the sheet
 * and nonce do not give the sealed commitment.
 */
#include <stdio.h>

#include "cli/cli_keys.h"

int cmd_open(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct ord_buf sheet = ORD_BUF_INIT, msgs = ORD_BUF_INIT, hex = ORD_BUF_INIT;
	const char *side = NULL, *nonce_s = NULL, *path = NULL, *witness_s = NULL;
	struct ord_receipt receipt;
	struct ord_diag diag;
	unsigned char nonce[32], witness[32];
	ord_game *g = NULL;
	int rc;
	const struct cli_opt opts[] = {
		{ "side", &side, NULL },
		{ "nonce", &nonce_s, NULL },
		{ "witness", &witness_s, NULL },
		{ NULL, NULL, NULL },
	};

	ord_diag_init(&diag);
	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		goto out;
	if (argc < 2) {
		rc = cli_usage_error(cmd, "missing GAME");
		goto out;
	}
	if (argc > 3) {
		rc = cli_usage_error(cmd, "unexpected argument '%s' (one sheet at a time)", argv[3]);
		goto out;
	}
	if (!side) {
		rc = cli_usage_error(cmd, "missing --side SIDE");
		goto out;
	}
	if (!nonce_s) {
		rc = cli_usage_error(cmd, "missing --nonce HEX (the nonce 'orderly sign' printed)");
		goto out;
	}
	if ((rc = cli_hex_option(cmd, "--nonce", nonce_s, nonce, sizeof(nonce))) != 0)
		goto out;
	if (witness_s &&
	    (rc = cli_hex_option(cmd, "--witness", witness_s, witness, sizeof(witness))) != 0)
		goto out;
	if (argc == 3)
		path = argv[2];
	if ((rc = cli_open_game(&g, argv[1])) != 0)
		goto out;
	if ((rc = cli_read_input(&sheet, path, CLI_MAX_INPUT)) != 0)
		goto out;
	rc = ord_game_open_sheet_witnessed(g, &receipt, side, sheet.buf, sheet.len, nonce,
					   witness_s ? witness : NULL, &diag);
	if (rc == ORD_EBADSHEET) {
		ord_diag_format(&diag, cli_input_name(path), &msgs);
		cli_print_lines(msgs.buf, 0);
		if (ord_diag_count(&diag))
			cli_error("sheet rejected: %zu problem(s)", ord_diag_count(&diag));
		else
			cli_fail(rc);
		rc = cli_exit_code(rc);
		goto out;
	}
	if (rc < 0) {
		rc = cli_fail(rc);
		goto out;
	}
	ord_buf_add_hex(&hex, receipt.commitment, sizeof(receipt.commitment));
	printf("opened: turn %d side %.*s version %d\n", receipt.turn, (int)sizeof(receipt.side),
	       receipt.side, receipt.version);
	printf("commitment: %s\n", hex.buf);
	rc = CLI_OK;
out:
	if (g)
		ord_game_free(g);
	ord_diag_release(&diag);
	ord_buf_release(&sheet);
	ord_buf_release(&msgs);
	ord_buf_release(&hex);
	return rc;
}
