/*
 * cmd_resolve.c - `orderly resolve GAME [--phase NAME] [--dice N,N,...]
 * [--stand-in]`: resolve the current phase (or check that it is the one
 * named) and print its results.  --dice is used only by a game created
 * with --fixed-dice.  --stand-in, in a game with witnessed dice, lets the
 * referee's witness chain stand in for the sides that have not revealed
 * their link for the phase (the log and the audit say so).
 * A ruleset's bilingual results are printed in Danish (cli_lang.h); the
 * report command has --lang for the other.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/cli_lang.h"

int cmd_resolve(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct ord_buf out = ORD_BUF_INIT;
	const char *phase = NULL, *dice_spec = NULL;
	ord_game *g = NULL;
	int *dice = NULL;
	size_t ndice = 0;
	int stand_in = 0, rc;
	const struct cli_opt opts[] = {
		{ "phase", &phase, NULL },
		{ "dice", &dice_spec, NULL },
		{ "stand-in", NULL, &stand_in },
		{ NULL, NULL, NULL },
	};

	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		goto out;
	if (argc < 2) {
		rc = cli_usage_error(cmd, "missing GAME");
		goto out;
	}
	if (argc > 2) {
		rc = cli_usage_error(cmd, "unexpected argument '%s'", argv[2]);
		goto out;
	}
	if ((rc = cli_parse_dice(cmd, dice_spec, &dice, &ndice)) != 0)
		goto out;
	if ((rc = cli_open_game(&g, argv[1])) != 0)
		goto out;
	rc = ord_game_resolve_opts(g, phase, dice, ndice, stand_in, &out);
	if (rc < 0) {
		rc = cli_fail(rc);
		goto out;
	}
	cli_lang_select(&out, "da");
	cli_print_buf(&out);
	rc = CLI_OK;
out:
	if (g)
		ord_game_free(g);
	free(dice);
	ord_buf_release(&out);
	return rc;
}
