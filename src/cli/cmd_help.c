/*
 * cmd_help.c - `orderly help [COMMAND]`: the list of commands, or the usage
 * line of one, both taken from the command table in main.c.
 */
#include <stdio.h>

#include "cli/cli.h"

int cmd_help(const struct cli_cmd *cmd, int argc, char **argv)
{
	const struct cli_cmd *which;
	int rc;

	if ((rc = cli_options(cmd, &argc, argv, NULL)) != CLI_CONTINUE)
		return rc;
	if (argc > 2)
		return cli_usage_error(cmd, "too many arguments (expected at most one COMMAND)");
	if (argc == 1) {
		cli_list_cmds(stdout);
		return CLI_OK;
	}
	which = cli_find_cmd(argv[1]);
	if (!which) {
		cli_error("unknown command '%s' (see 'orderly help')", argv[1]);
		return CLI_USAGE;
	}
	cli_print_usage(stdout, which);
	return CLI_OK;
}
