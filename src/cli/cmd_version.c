/*
 * cmd_version.c - `orderly version`: the version of orderly, the
 * revisions of the rules each phase it resolves is logged with, and where
 * its parts are (plugins.c).
 */
#include <stdio.h>

#include "cli/cli.h"
#include "core/phase.h"

int cmd_version(const struct cli_cmd *cmd, int argc, char **argv)
{
	const struct ord_ruleset *rs;
	size_t i;
	int rc;

	if ((rc = cli_options(cmd, &argc, argv, NULL)) != CLI_CONTINUE)
		return rc;
	if (argc > 1)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[1]);
	printf("orderly %s\n", ORD_VERSION);
	printf("core revision %s\n", ORD_CORE_REVISION);
	for (i = 0; (rs = ord_ruleset_at(i)) != NULL; i++) {
		const char *rev = ord_ruleset_revision(rs);
		printf("%s rules revision %s\n", rs->name, rev ? rev : "(not named)");
	}
	cli_plugins_where(stdout);
	return CLI_OK;
}
