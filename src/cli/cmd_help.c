/*
 * cmd_help.c - `orderly help [COMMAND]`: the list of commands, or the usage
 * line of one, both taken from the command table in main.c; `orderly help
 * event [RULESET]`: the event kinds a referee records, from the rulesets'
 * own declarations.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "ruleset.h"

/* The language `help event` gives the events' help in (--lang), NULL:
 * each ruleset's first. */
static const char *help_lang;

/* One line per key: its type, range or choices, default, meaning (an
 * event kind's, ek not NULL, in the ruleset's language: ord_event_help). */
static void describe_keys(const struct ord_ruleset *rs, const struct ord_event_kind *ek,
			  const struct ord_key_spec *keys, const char *indent, struct ord_buf *out)
{
	const struct ord_key_spec *ks;
	const char *help;

	for (ks = keys; ks && ks->name; ks++) {
		ord_buf_addf(out, "%s%-14s ", indent, ks->name);
		if (ks->type == ORD_KEY_WORD)
			ord_buf_addf(out, "a word of the rules tables (%s)",
				     ks->values ? ks->values : "");
		else
			ord_key_describe(ks, out);
		if (ks->required)
			ord_buf_adds(out, "; required");
		else if (ks->def)
			ord_buf_addf(out, "; default %s", ks->def);
		else
			ord_buf_adds(out, "; optional");
		help = ek ? ord_event_help(rs, ord_ruleset_language(rs, help_lang), ek, ks) : ks->help;
		if (help)
			ord_buf_addf(out, ": %s", help);
		ord_buf_addch(out, '\n');
	}
}

/* `orderly help event [RULESET]`: every event kind of a ruleset (every
 * ruleset when none is named), by phase, with its keys. */
static void describe_kinds(const struct ord_ruleset *rs, struct ord_buf *out)
{
	const struct ord_event_kind *ek;
	const struct ord_key_spec *ks;
	const char *help, *lang = ord_ruleset_language(rs, help_lang);
	size_t p;

	ord_buf_addf(out,
		     "Events of the %s ruleset ('orderly event GAME KIND key=value...'),\n"
		     "by the phase they belong to:\n",
		     rs->name);
	for (p = 0; rs->phases && rs->phases[p]; p++) {
		int any = 0;
		for (ek = rs->events; ek && ek->name; ek++) {
			if (strcmp(ek->phase, rs->phases[p]))
				continue;
			if (!any++)
				ord_buf_addf(out, "\nphase %s:\n", rs->phases[p]);
			ord_buf_addf(out, "  %s", ek->name);
			for (ks = ek->keys; ks->name; ks++)
				ord_buf_addf(out, " %s%s=..%s", ks->required ? "" : "[", ks->name,
					     ks->required ? "" : "]");
			help = ord_event_help(rs, lang, ek, NULL);
			ord_buf_addf(out, "\n      %s\n", help ? help : "");
			describe_keys(rs, ek, ek->keys, "      ", out);
		}
	}
}

/* `orderly help units [RULESET]`: the attributes a scenario's <unit> takes. */
static void describe_units(const struct ord_ruleset *rs, struct ord_buf *out)
{
	ord_buf_addf(out,
		     "Unit attributes of the %s ruleset (<unit id=\"..\" name=\"..\" side=\"..\" key=\"value\"...>\n"
		     "in a scenario); one not given takes its default, said here:\n",
		     rs->name);
	describe_keys(rs, NULL, rs->unit_attrs, "  ", out);
}

/* `help event` is asked for the event command as `help COMMAND` is for
 * any (the list of commands says so): its usage first, with where its
 * options are described, then the kinds it records.  Before, only the
 * kinds came, and a referee looking for --void or --file found none. */
static void event_usage(struct ord_buf *out)
{
	const struct cli_cmd *ev = cli_find_cmd("event");

	if (!ev)
		return;
	ord_buf_addf(out, "usage: orderly %s %s\n", ev->name, ev->usage);
	ord_buf_addf(out,
		     "%s; 'orderly event --help' describes its options "
		     "(--file, --override, --void)\n\n",
		     ev->summary);
}

static int help_event(const struct cli_cmd *cmd, const char *ruleset,
		      void (*describe)(const struct ord_ruleset *, struct ord_buf *))
{
	struct ord_buf out = ORD_BUF_INIT, names = ORD_BUF_INIT;
	const struct ord_ruleset *rs;
	char *list, *name, *save = NULL;

	if (ruleset) {
		if (ord_ruleset_find(&rs, ruleset) != 0) {
			cli_error("%s", ord_error_last());
			return CLI_USAGE;
		}
		if (help_lang && !ord_ruleset_language(rs, help_lang)) {
			ord_ruleset_languages(rs, &names);
			cli_error("ruleset '%s' has no help in '%s' (expected %s)", rs->name,
				  help_lang, names.buf);
			ord_buf_release(&names);
			return CLI_USAGE;
		}
		if (describe == describe_kinds)
			event_usage(&out);
		describe(rs, &out);
	} else {
		if (describe == describe_kinds)
			event_usage(&out);
		ord_ruleset_names(&names);
		list = ord_strdup(names.buf);
		for (name = strtok_r(list, ", ", &save); name; name = strtok_r(NULL, ", ", &save)) {
			if (ord_ruleset_find(&rs, name) != 0)
				continue;
			if (out.len)
				ord_buf_adds(&out, "\n");
			describe(rs, &out);
		}
		free(list);
	}
	(void)cmd;
	cli_print_buf(&out);
	ord_buf_release(&out);
	ord_buf_release(&names);
	return CLI_OK;
}

int cmd_help(const struct cli_cmd *cmd, int argc, char **argv)
{
	const struct cli_cmd *which;
	const struct cli_opt opts[] = { { "lang", &help_lang, NULL }, { NULL, NULL, NULL } };
	int rc;

	help_lang = NULL;
	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		return rc;
	if (argc >= 2 && (!strcmp(argv[1], "event") || !strcmp(argv[1], "units"))) {
		if (argc > 3)
			return cli_usage_error(cmd, "too many arguments (expected '%s [RULESET]')",
					       argv[1]);
		return help_event(cmd, argc == 3 ? argv[2] : NULL,
				  !strcmp(argv[1], "event") ? describe_kinds : describe_units);
	}
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
