/*
 * cmd_version.c - `orderly version`: the version of orderly.
 */
#include <stdio.h>

#include "cli/cli.h"

int cmd_version(const struct cli_cmd *cmd, int argc, char **argv)
{
	int rc;

	if ((rc = cli_options(cmd, &argc, argv, NULL)) != CLI_CONTINUE)
		return rc;
	if (argc > 1)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[1]);
	printf("orderly %s\n", ORD_VERSION);
	return CLI_OK;
}
