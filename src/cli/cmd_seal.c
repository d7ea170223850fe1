/*
 * cmd_seal.c - `orderly seal GAME [--force]`: close the orders of the turn.
 * Without --force the library seals only when every side has submitted or
 * the deadline has passed; --force is the referee sealing early.
 */
#include <stdio.h>

#include "cli/cli.h"

int cmd_seal(const struct cli_cmd *cmd, int argc, char **argv)
{
	ord_game *g = NULL;
	int force = 0, rc;
	const struct cli_opt opts[] = {
		{ "force", NULL, &force },
		{ NULL, NULL, NULL },
	};

	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		return rc;
	if (argc < 2)
		return cli_usage_error(cmd, "missing GAME");
	if (argc > 2)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[2]);
	if ((rc = cli_open_game(&g, argv[1])) != 0)
		goto out;
	rc = ord_game_seal(g, force);
	if (rc < 0) {
		rc = cli_fail(rc);
		goto out;
	}
	printf("sealed %s%s\n", argv[1], force ? " (forced by the referee)" : "");
	rc = CLI_OK;
out:
	if (g)
		ord_game_free(g);
	return rc;
}
