/*
 * cmd_map.c - `orderly map GAME [--turn N] [--phase NAME|start]
 * [--side SIDE | --referee] [--lang L] [-o FILE.svg|FILE.png]
 * [--scale K]`: the table as a side (or the referee) may see it after a
 * phase, drawn by the game's ruleset; SVG to standard output or FILE, PNG
 * when FILE ends in .png.
 */
#include <stdio.h>

#include "cli/cli_keys.h"
#include "cli/cli_picture.h"

int cmd_map(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct ord_buf svg = ORD_BUF_INIT;
	const char *side = NULL, *turn_s = NULL, *phase = NULL, *lang = NULL, *output = NULL;
	const char *scale = NULL;
	ord_game *g = NULL;
	int referee = 0, turn = 0, rc;
	const struct cli_opt opts[] = {
		{ "side", &side, NULL },   { "referee", NULL, &referee },
		{ "turn", &turn_s, NULL }, { "phase", &phase, NULL },
		{ "lang", &lang, NULL },   { "output", &output, NULL },
		{ "scale", &scale, NULL }, { NULL, NULL, NULL },
	};

	cli_long_option(argc, argv, "-o", "--output");
	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		return rc;
	if (argc < 2)
		return cli_usage_error(cmd, "missing GAME");
	if (argc > 2)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[2]);
	if (side && referee)
		return cli_usage_error(cmd, "--side and --referee exclude each other");
	if ((rc = cli_parse_positive(cmd, "--turn", turn_s, &turn)) != 0)
		return rc;
	if ((rc = cli_picture_args(cmd, output, scale)) != 0)
		return rc;
	if ((rc = cli_open_game_readonly(&g, argv[1])) != 0)
		goto out;
	if ((rc = ord_game_map(g, &svg, side, turn, phase, lang)) < 0) {
		rc = cli_fail(rc);
		goto out;
	}
	rc = cli_write_picture(output, &svg, scale);
out:
	if (g)
		ord_game_free(g);
	ord_buf_release(&svg);
	return rc;
}
