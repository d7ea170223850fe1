/*
 * cmd_submit.c - `orderly submit GAME --side SIDE [FILE|-]`: hand a side's
 * order sheet (the exact bytes of FILE or standard input) to the library,
 * which validates and stores it, and print the receipt the player keeps to
 * check later that the sheet was not changed after it was sealed.
 */
#include <stdio.h>

#include "cli/cli.h"

int cmd_submit(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct ord_buf sheet = ORD_BUF_INIT, msgs = ORD_BUF_INIT, hex = ORD_BUF_INIT;
	struct ord_receipt receipt;
	struct ord_diag diag;
	const char *side = NULL, *path = NULL;
	ord_game *g = NULL;
	int rc;
	const struct cli_opt opts[] = {
		{ "side", &side, NULL },
		{ NULL, NULL, NULL },
	};

	ord_diag_init(&diag);
	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		goto out;
	if (argc < 2) {
		rc = cli_usage_error(cmd, "missing GAME");
		goto out;
	}
	if (!side) {
		rc = cli_usage_error(cmd, "missing --side SIDE");
		goto out;
	}
	if (argc > 3) {
		rc = cli_usage_error(cmd, "unexpected argument '%s' (one sheet at a time)", argv[3]);
		goto out;
	}
	if (argc == 3)
		path = argv[2];
	/* the game first: a wrong GAME must not wait for a sheet on the terminal */
	if ((rc = cli_open_game(&g, argv[1])) != 0)
		goto out;
	if ((rc = cli_read_input(&sheet, path, CLI_MAX_INPUT)) != 0)
		goto out;
	rc = ord_game_submit(g, &receipt, side, sheet.buf, sheet.len, &diag);
	if (rc == ORD_EBADSHEET) {
		ord_diag_format(&diag, cli_input_name(path), &msgs);
		cli_print_lines(msgs.buf, 0);
		if (diag.n)
			cli_error("sheet rejected: %zu problem(s)", diag.n);
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
	printf("receipt: turn %d side %.*s version %d\n", receipt.turn,
	       (int)sizeof(receipt.side), receipt.side, receipt.version);
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
