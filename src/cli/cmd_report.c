/*
 * cmd_report.c - `orderly report GAME --side SIDE|--referee [--turn N]
 * [--xml] [--lang L]`: a side's turn report (what it may see) or the
 * referee's.  --lang picks one of the languages the ruleset writes (the
 * game keeps each apart: ord_game_report_opts), or all; the default is the
 * ruleset's own (krigsspil: da).
 */
#include <stdio.h>

#include "cli/cli.h"

int cmd_report(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct ord_buf out = ORD_BUF_INIT;
	const char *side = NULL, *turn_s = NULL, *lang = NULL;
	ord_game *g = NULL;
	int referee = 0, xml = 0, turn = 0, rc;
	const struct cli_opt opts[] = {
		{ "side", &side, NULL }, { "referee", NULL, &referee }, { "turn", &turn_s, NULL },
		{ "xml", NULL, &xml },   { "lang", &lang, NULL },       { NULL, NULL, NULL },
	};

	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		return rc;
	if (argc < 2)
		return cli_usage_error(cmd, "missing GAME");
	if (argc > 2)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[2]);
	if (!side == !referee)
		return cli_usage_error(cmd, side ? "--side and --referee exclude each other"
						 : "missing --side SIDE or --referee");
	if ((rc = cli_parse_positive(cmd, "--turn", turn_s, &turn)) != 0)
		return rc;

	if ((rc = cli_open_game_readonly(&g, argv[1])) != 0)
		goto out;
	{
		struct ord_report_opts o = { .side = side, .turn = turn, .xml = xml, .lang = lang };
		rc = ord_game_report_opts(g, &o, &out);
	}
	if (rc < 0) {
		rc = cli_fail(rc);
		goto out;
	}

	cli_print_buf(&out);
	rc = CLI_OK;
out:
	if (g)
		ord_game_free(g);
	ord_buf_release(&out);
	return rc;
}
