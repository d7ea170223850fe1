/*
 * cmd_audit.c - `orderly audit GAME [--turn N]`: recompute the event
 * chain, every commitment and every roll, print the findings, and exit 1
 * when anything is broken (0 when the game is clean).
 */
#include <stdio.h>

#include "cli/cli.h"

int cmd_audit(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct ord_buf out = ORD_BUF_INIT;
	const char *turn_s = NULL;
	ord_game *g = NULL;
	int turn = 0, rc;
	const struct cli_opt opts[] = {
		{ "turn", &turn_s, NULL },
		{ NULL, NULL, NULL },
	};

	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		return rc;
	if (argc < 2)
		return cli_usage_error(cmd, "missing GAME");
	if (argc > 2)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[2]);
	if ((rc = cli_parse_positive(cmd, "--turn", turn_s, &turn)) != 0)
		return rc;
	if ((rc = cli_open_game(&g, argv[1])) != 0)
		goto out;
	rc = ord_game_audit(g, turn, &out);
	if (rc == 0 || rc == ORD_ETAMPERED)
		cli_print_buf(&out);
	if (rc < 0) {
		/* the findings are on stdout; stderr says only that there were some */
		rc = cli_fail(rc);
		goto out;
	}
	rc = CLI_OK;
out:
	if (g)
		ord_game_free(g);
	ord_buf_release(&out);
	return rc;
}
