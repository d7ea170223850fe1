/*
 * cmd_calc.c - `orderly calc RULESET WHAT key=value... [--dice N,N,...]
 * [--tables FILE] [--xml]`: a ruleset's tables as a calculator, with no
 * game: "what does a line of 24 muskets do at 5 inches?".  Without --dice
 * the ruleset shows what each roll would give.  Without WHAT, the
 * ruleset's calculations are listed (a usage error).
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"

int cmd_calc(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct ord_buf out = ORD_BUF_INIT;
	const char *dice_spec = NULL, *tables = NULL;
	int *dice = NULL;
	size_t ndice = 0;
	int xml = 0, rc;
	const struct cli_opt opts[] = {
		{ "dice", &dice_spec, NULL },
		{ "tables", &tables, NULL },
		{ "xml", NULL, &xml },
		{ NULL, NULL, NULL },
	};

	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		goto out;
	if (argc < 2) {
		rc = cli_usage_error(cmd, "missing RULESET");
		goto out;
	}
	if (argc < 3) {
		/* the ruleset's calculator names its calculations */
		rc = ord_calc(&out, argv[1], "", 0, NULL, NULL, 0, tables, 0);
		if (rc == ORD_EUSAGE)
			rc = cli_usage_error(cmd, "%s", ord_error_last());
		else if (rc < 0)
			rc = cli_fail(rc);
		else
			rc = cli_usage_error(cmd, "missing WHAT (the calculation, e.g. fire)");
		goto out;
	}
	if ((rc = cli_check_keyvalues(cmd, argc - 3, argv + 3)) != 0)
		goto out;
	if ((rc = cli_parse_dice(cmd, dice_spec, &dice, &ndice)) != 0)
		goto out;
	rc = ord_calc(&out, argv[1], argv[2], argc - 3, argv + 3, dice, ndice, tables, xml);
	if (rc < 0) {
		rc = cli_fail(rc);
		goto out;
	}
	cli_print_buf(&out);
	rc = CLI_OK;
out:
	free(dice);
	ord_buf_release(&out);
	return rc;
}
