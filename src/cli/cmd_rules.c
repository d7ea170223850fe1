/*
 * cmd_rules.c - `orderly rules RULESET [TABLE] [--tables FILE]`: print a
 * ruleset's tables (all of them, or the one named), from its built-in
 * tables or from FILE.
 */
#include <stdio.h>

#include "cli/cli.h"

int cmd_rules(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct ord_buf out = ORD_BUF_INIT;
	const char *tables = NULL;
	int rc;
	const struct cli_opt opts[] = {
		{ "tables", &tables, NULL },
		{ NULL, NULL, NULL },
	};

	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		return rc;
	if (argc < 2)
		return cli_usage_error(cmd, "missing RULESET");
	if (argc > 3)
		return cli_usage_error(cmd, "unexpected argument '%s' (one TABLE at a time)", argv[3]);
	rc = ord_rules_print(&out, argv[1], argc == 3 ? argv[2] : NULL, tables);
	if (rc < 0) {
		rc = cli_fail(rc);
		goto out;
	}
	cli_print_buf(&out);
	rc = CLI_OK;
out:
	ord_buf_release(&out);
	return rc;
}
