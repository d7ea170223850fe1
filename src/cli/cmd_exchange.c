/*
 * cmd_exchange.c - `orderly exchange GAME`: reveal the turn's sheets,
 * nonces and dice seed to every side, and open the next turn.
 */
#include <stdio.h>

#include "cli/cli.h"

int cmd_exchange(const struct cli_cmd *cmd, int argc, char **argv)
{
	ord_game *g = NULL;
	int rc;

	if ((rc = cli_options(cmd, &argc, argv, NULL)) != CLI_CONTINUE)
		return rc;
	if (argc < 2)
		return cli_usage_error(cmd, "missing GAME");
	if (argc > 2)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[2]);
	if ((rc = cli_open_game(&g, argv[1])) != 0)
		goto out;
	rc = ord_game_exchange(g);
	if (rc < 0) {
		rc = cli_fail(rc);
		goto out;
	}
	printf("exchanged %s: sheets and dice seed revealed, next turn open\n", argv[1]);
	rc = CLI_OK;
out:
	if (g)
		ord_game_free(g);
	return rc;
}
