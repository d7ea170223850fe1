/*
 * cmd_check.c - `orderly check SHEET|- --scenario FILE [--side SIDE]
 * [--tables FILE]` (without --side, the side whose units the sheet names):
 * a player's check of his sheet with no game file, only
 * the scenario (and the tables) he was given: the checks of submit as the
 * units stand when the game begins, orderly's reading of every order, and
 * every problem at its line.  Nothing is stored anywhere.
 */
#include <stdio.h>

#include "cli/cli.h"

int cmd_check(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct ord_buf sheet = ORD_BUF_INIT, reading = ORD_BUF_INIT;
	const char *scenario = NULL, *tables = NULL, *side = NULL;
	struct ord_diag diag;
	int rc;
	const struct cli_opt opts[] = {
		{ "scenario", &scenario, NULL },
		{ "tables", &tables, NULL },
		{ "side", &side, NULL },
		{ NULL, NULL, NULL },
	};

	ord_diag_init(&diag);
	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		goto out;
	if (argc < 2) {
		rc = cli_usage_error(cmd, "missing SHEET (a file, or - for standard input)");
		goto out;
	}
	if (argc > 2) {
		rc = cli_usage_error(cmd, "unexpected argument '%s'", argv[2]);
		goto out;
	}
	if (!scenario) {
		rc = cli_usage_error(cmd, "missing --scenario FILE");
		goto out;
	}
	if ((rc = cli_read_input(&sheet, argv[1], CLI_MAX_INPUT)) != 0)
		goto out;
	rc = ord_check_sheet_scenario(scenario, tables, side, sheet.buf, sheet.len, &diag, &reading);
	rc = cli_report_check(rc, &diag, &reading, argv[1],
			      "as the units stand when the game begins; send it to your referee");
out:
	ord_diag_release(&diag);
	ord_buf_release(&sheet);
	ord_buf_release(&reading);
	return rc;
}
