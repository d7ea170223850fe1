/*
 * cmd_resolve.c - `orderly resolve GAME [--phase NAME] [--empty] [--dice N,N,...]
 * [--stand-in] [--lang L]`: resolve the current phase and print its
 * results; --phase NAME only checks that NAME is the current phase (a
 * script's guard: another phase is refused).  --dice is used only by a game
 * created with --fixed-dice.  --stand-in, in a game with witnessed dice,
 * lets the referee's witness chain stand in for the sides that have not
 * revealed their link for the phase (the log and the audit say so).
 * --lang prints the results in another language the ruleset writes (the
 * game keeps every one), or all of them; the default is the ruleset's own.
 * After it, a note on stderr counts the orders no event of the turn
 * carries out so far, when the ruleset's check of the execution finds any.
 * A phase with no event while sealed orders wait for an event of it, or
 * the rules owe one (the ruleset's order_events), is refused (exit 65,
 * nothing changed) unless --empty says it is meant to go empty: a resolve
 * typed twice would have skipped it for good.  --empty on a phase with
 * events changes nothing: they are resolved.  Until red-team finding 9 --phase NAME
 * said the phase goes empty as well, so a script's guard resolved one
 * unasked; such a script is now refused, told to add --empty, and its
 * game file is left as it was.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

int cmd_resolve(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct ord_buf out = ORD_BUF_INIT;
	const char *phase = NULL, *dice_spec = NULL, *lang = NULL;
	struct ord_resolve_opts o = { 0 };
	ord_game *g = NULL;
	int *dice = NULL;
	size_t ndice = 0;
	struct ord_buf note = ORD_BUF_INIT;
	size_t pending = 0;
	int stand_in = 0, empty = 0, rc;
	const struct cli_opt opts[] = {
		{ "phase", &phase, NULL },    { "empty", NULL, &empty },
		{ "dice", &dice_spec, NULL }, { "stand-in", NULL, &stand_in },
		{ "lang", &lang, NULL },      { NULL, NULL, NULL },
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
	o.phase = phase;
	o.dice = dice;
	o.ndice = ndice;
	o.stand_in = stand_in;
	o.empty = empty;
	o.lang = lang;
	o.pending = &pending;
	rc = ord_game_resolve_opts(g, &o, &out);
	if (rc < 0) {
		rc = cli_fail(rc);
		goto out;
	}

	cli_print_buf(&out);
	rc = CLI_OK;
	/* the orders left without their event: the phase is resolved all
	 * the same (an order may be rightly left undone), but said */
	if (pending && ord_game_pending_note(g, lang, pending, &note) == 0)
		cli_error("note: %s", note.buf);
	ord_error_clear();
out:
	if (g)
		ord_game_free(g);
	free(dice);
	ord_buf_release(&out);
	ord_buf_release(&note);
	return rc;
}
