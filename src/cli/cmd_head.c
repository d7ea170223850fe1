/*
 * cmd_head.c - `orderly head GAME --turn N --at open|seal|close|exchange
 * [--phase N] [-o FILE]`: write a signed head the game stored, again: for
 * a referee who forgot --head, lost the file, or must send it to a player
 * who joined late.  Without --turn, the latest head of that kind; a close
 * head of a phase other than the turn's last closed one with --phase.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli_keys.h"

int cmd_head(const struct cli_cmd *cmd, int argc, char **argv)
{
	const char *turn_s = NULL, *at = NULL, *out = NULL, *phase_s = NULL;
	ord_game *g = NULL;
	int turn = 0, phase = 0, rc;
	const struct cli_opt opts[] = {
		{ "turn", &turn_s, NULL }, { "phase", &phase_s, NULL }, { "at", &at, NULL },
		{ "output", &out, NULL },  { NULL, NULL, NULL },
	};

	cli_long_option(argc, argv, "-o", "--output");
	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		return rc;
	if (argc < 2)
		return cli_usage_error(cmd, "missing GAME");
	if (argc > 2)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[2]);
	if (!at)
		return cli_usage_error(cmd, "missing --at open|seal|close|exchange");
	if (strcmp(at, "open") && strcmp(at, "seal") && strcmp(at, "close") && strcmp(at, "exchange"))
		return cli_usage_error(cmd, "--at '%s' (expected open, seal, close or exchange)", at);
	if (turn_s && (rc = cli_parse_positive(cmd, "--turn", turn_s, &turn)) != 0)
		return rc;
	if (phase_s && strcmp(at, "close"))
		return cli_usage_error(cmd,
				       "--phase is for --at close (a phase's close has a head each)");
	if (phase_s && (rc = cli_parse_positive(cmd, "--phase", phase_s, &phase)) != 0)
		return rc;
	/* a turn after the first opens at the exchange before it, whose head
	 * signs its opening: the mail judge sends it as open-N.head */
	if (!strcmp(at, "open") && turn > 1)
		return cli_usage_error(cmd,
				       "--at open --turn %d: only the game's opening has a head of its own; turn %d's opening is signed by the head of turn %d's exchange (the mail's open-%d.head): give --at exchange --turn %d",
				       turn, turn, turn - 1, turn, turn - 1);
	if ((rc = cli_open_game_readonly(&g, argv[1])) != 0)
		return rc;
	rc = cli_write_head(g, turn, at, phase, out);
	if (!rc && out && strcmp(out, "-"))
		printf("signed head: %s (hand it to every side)\n", out);
	ord_game_free(g);
	return rc;
}
