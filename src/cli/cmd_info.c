/*
 * cmd_info.c - `orderly info GAME [--xml] [--lang L]`: the game's turn,
 * phase, deadline and who has submitted, as the library describes them;
 * the lines of the turn's state and the referee's next step (the orders
 * no event carries out yet) in language L, by default the ruleset's first
 * as a report's (Danish for a Krigsspil game).
 */
#include <stdio.h>

#include "cli/cli.h"

int cmd_info(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct ord_buf out = ORD_BUF_INIT;
	ord_game *g = NULL;
	const char *lang = NULL;
	int xml = 0, rc;
	const struct cli_opt opts[] = {
		{ "xml", NULL, &xml },
		{ "lang", &lang, NULL },
		{ NULL, NULL, NULL },
	};

	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		return rc;
	if (argc < 2)
		return cli_usage_error(cmd, "missing GAME");
	if (argc > 2)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[2]);
	if ((rc = cli_open_game_readonly(&g, argv[1])) != 0)
		goto out;
	rc = ord_game_info_lang(g, &out, xml, lang);
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
