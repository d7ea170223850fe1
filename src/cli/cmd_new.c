/*
 * cmd_new.c - `orderly new GAME --scenario FILE.xml [--ruleset NAME]
 * [--tables FILE] [--fixed-dice] [--no-referee] [--key FILE]`: create a
 * game file from a scenario and say what it holds: "created GAME: RULESET,
 * N sides, M units"; on standard error, the game's public key, which
 * every player should keep to check what the game signs.  --key FILE signs with
 * the referee's own key (from `orderly keygen`), kept out of the game file.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_keys.h"

/*
 * NEEDSWORK: orderly.h has no getters for a game's ruleset, sides and
 * units, so the summary line is read back from the library's XML: the
 * value of an attribute name="..." or an element <name>...</name> (or
 * <name name="...">), and the number of <elem> elements.  The info lists
 * the ruleset and the sides; the units are counted in the referee's report
 * when the info neither lists them nor gives units="N".
 */
static int is_name_end(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '>' || c == '/';
}

static int xml_value(const char *xml, const char *name, char *out, size_t n)
{
	size_t len = strlen(name);
	const char *p, *v = NULL, *end = NULL;

	for (p = xml; (p = strstr(p, name)) != NULL; p += len) {
		if (p > xml && isspace((unsigned char)p[-1]) && p[len] == '=' &&
		    (p[len + 1] == '"' || p[len + 1] == '\'')) {
			v = p + len + 2;
			end = strchr(v, p[len + 1]);
			break;
		}
		if (p > xml && p[-1] == '<' && is_name_end(p[len])) {
			const char *gt = strchr(p, '>'), *attr;

			if (!gt)
				break;
			if (gt[-1] != '/' && gt[1] != '<') {
				v = gt + 1;
				end = strchr(v, '<');
				break;
			}
			attr = strstr(p, " name=\"");
			if (attr && attr < gt) {
				v = attr + 7;
				end = strchr(v, '"');
				break;
			}
		}
	}
	if (!v || !end)
		return 0;
	while (v < end && isspace((unsigned char)*v))
		v++;
	while (end > v && isspace((unsigned char)end[-1]))
		end--;
	if (v == end)
		return 0;
	snprintf(out, n, "%.*s", (int)(end - v), v);
	return 1;
}

/* The number of <elem> elements, or the integer value of plural. */
static long xml_count(const char *xml, const char *elem, const char *plural)
{
	size_t len = strlen(elem);
	const char *p;
	char val[32];
	long n = 0;

	if (xml_value(xml, plural, val, sizeof(val)) && val[strspn(val, "0123456789")] == '\0')
		return strtol(val, NULL, 10);
	for (p = xml; (p = strstr(p, elem)) != NULL; p += len)
		if (p > xml && p[-1] == '<' && is_name_end(p[len]))
			n++;
	return n;
}

int cmd_new(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct ord_create_opts co;
	struct ord_buf info = ORD_BUF_INIT, report = ORD_BUF_INIT;
	const char *scenario = NULL, *ruleset = NULL, *tables = NULL, *key = NULL;
	char name[128];
	long nsides, nunits;
	ord_game *g = NULL;
	struct ord_keypair kp;
	unsigned char pk[32];
	int fixed_dice = 0, no_referee = 0, rc;
	const struct cli_opt opts[] = {
		{ "scenario", &scenario, NULL },
		{ "ruleset", &ruleset, NULL },
		{ "tables", &tables, NULL },
		{ "fixed-dice", NULL, &fixed_dice },
		{ "no-referee", NULL, &no_referee },
		{ "key", &key, NULL },
		{ NULL, NULL, NULL },
	};

	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		return rc;
	if (argc < 2)
		return cli_usage_error(cmd, "missing GAME");
	if (argc > 2)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[2]);
	if (!scenario)
		return cli_usage_error(cmd, "missing --scenario FILE.xml");
	memset(&co, 0, sizeof(co)); /* fields appended later default to zero */
	co.ruleset = ruleset;
	co.tables_path = tables;
	co.fixed_dice = fixed_dice;
	co.refereeless = no_referee;
	memset(&kp, 0, sizeof(kp));
	if (key) {
		if ((rc = cli_load_key(key, &kp)) != 0)
			return rc;
		co.key = &kp;
	}
	rc = ord_game_create(&g, argv[1], scenario, &co);
	memset(&kp, 0, sizeof(kp));
	if (rc < 0) {
		rc = cli_fail(rc);
		goto out;
	}
	rc = ord_game_info(g, &info, 1);
	if (rc < 0) {
		rc = cli_fail(rc);
		goto out;
	}
	if (!xml_value(info.buf, "ruleset", name, sizeof(name)))
		snprintf(name, sizeof(name), "%s", ruleset ? ruleset : "unknown ruleset");
	nsides = xml_count(info.buf, "side", "sides");
	nunits = xml_count(info.buf, "unit", "units");
	if (!nunits && ord_game_report(g, NULL, 0, 1, &report) == 0)
		nunits = xml_count(report.buf, "unit", "units");
	/* the contract's wording, plural even for one: tests read this line */
	printf("created %s: %s, %ld sides, %ld units\n", argv[1], name, nsides, nunits);
	/* stdout keeps its one contract line; the key is a note to the
	 * referee, who passes it on (info shows it again) */
	if (ord_game_pubkey(g, pk) == 0) {
		ord_buf_reset(&report);
		ord_buf_add_hex(&report, pk, sizeof(pk));
		cli_error("the game's public key is %s: give it to every player (orderly info shows it)",
			  report.buf);
	}
	if (no_referee)
		cli_error("no referee: each side hands in a signed commitment, then opens it after the seal");
	rc = CLI_OK;
out:
	if (g)
		ord_game_free(g);
	ord_buf_release(&info);
	ord_buf_release(&report);
	return rc;
}
