/*
 * fuzz_ks_tables.c - the Krigsspil's tables as a club hands them in: a Skema
 * of its own, or a hex map with or without one (`orderly new --tables`,
 * `orderly rules --tables`, `orderly calc --tables`).  The document is
 * completed as a new game keeps it (the module's complete_tables: the
 * built-in Skema written into a map without one), loaded by the module,
 * printed, and asked the calculator's questions (fire, artillery, melee,
 * the march over the ground, explosion, decimation).
 *
 * Checks, besides ASan/UBSan: no external resource is ever loaded; a
 * refusal is ORD_EBADDATA naming the document; a completed document is
 * longer than the given one, and a map that loads still loads with the
 * Skema written in;
 * printing a loaded document succeeds; the calculator answers or refuses
 * with a usage error, never an internal one.
 */
#include <string.h>

#include "fuzz.h"
#include "fuzz_xml_common.h"
#include "ruleset.h"

static const struct ord_ruleset *rs;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (rs)
		return 0;
	fuzz_xml_init();
	fuzz_modules();
	if (ord_ruleset_find(&rs, "krigsspil"))
		fuzz_fail("no krigsspil ruleset: %s", ord_error_last());
	return 0;
}

static void refused(int rc, const char *what)
{
	fuzz_assert(rc == ORD_EBADDATA, "%s returned %d: %s", what, rc, ord_error_last());
	fuzz_assert(strstr(ord_error_last(), "fuzz.xml"),
		    "%s: message does not name the document: '%s'", what, ord_error_last());
}

static void calc(struct ord_rules *rules, const char *what, const char *args, const int *dice,
		 size_t ndice)
{
	struct ord_buf out = ORD_BUF_INIT;
	struct ord_kv kv;
	int xml, rc;

	ord_kv_init(&kv);
	if (ord_kv_parse(&kv, args))
		fuzz_fail("bad fixed arguments: %s", args);
	for (xml = 0; xml <= 1; xml++) {
		rc = rs->calc(rules, what, &kv, dice, ndice, xml, &out);
		fuzz_assert(rc == 0 || rc == ORD_EUSAGE || rc == ORD_ENOTFOUND || rc == ORD_EBADDATA,
			    "calc %s returned %d: %s", what, rc, ord_error_last());
		ord_buf_reset(&out);
	}
	ord_kv_release(&kv);
	ord_buf_release(&out);
}

static void use(struct ord_rules *rules)
{
	static const int d3[] = { 4, 3, 4 }, d6[] = { 4, 3, 4, 2, 3, 3 };
	struct ord_buf out = ORD_BUF_INIT;

	fuzz_assert(rs->print_tables(rules, NULL, &out) == 0, "print_tables failed: %s",
		    ord_error_last());
	calc(rules, "fireunits", "figurer=17\n", NULL, 0);
	calc(rules, "fire", "figurer=16\nmaal_figurer=20\nzone=I\nmaal_dyb=yes\n", d3, 3);
	calc(rules, "artillery", "kanoner=6\nammo=SK\nzone=I\nmaal_figurer=24\n", d3, 3);
	calc(rules, "melee", "a_figurer=20\nd_figurer=12\na_geledder=3\na_angrebskolonne_inf=yes\n",
	     d6, 6);
	calc(rules, "move", "art=infanteri\ngang=loeb\nstraekning=aabent:8,skov:2\n", NULL, 0);
	calc(rules, "explosion", "kaliber=6\n", d3, 3);
	calc(rules, "decimation", "figurer=20\ntab=8\n", d3, 3);
	ord_buf_release(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ord_buf whole = ORD_BUF_INIT;
	struct ord_rules *rules = NULL;
	int rc, given;

	LLVMFuzzerInitialize(NULL, NULL);
	given = rs->load(&rules, (const char *)data, size, "fuzz.xml");
	if (given == 0) {
		use(rules);
		rs->free(rules);
		rules = NULL;
	} else {
		refused(given, "load");
	}
	if (!rs->complete_tables)
		return 0;
	rc = rs->complete_tables((const char *)data, size, "fuzz.xml", &whole);
	if (rc != 0) {
		refused(rc, "complete_tables");
	} else if (whole.len) {
		fuzz_assert(whole.len > size, "a completed document is shorter than the given one");
		rc = rs->load(&rules, whole.buf, whole.len, "fuzz.xml");
		if (rc == 0) {
			use(rules);
			rs->free(rules);
		} else {
			refused(rc, "load of the completed document");
			fuzz_assert(given != 0, "the map loads, but not with the Skema written in: %s",
				    ord_error_last());
		}
	}
	ord_buf_release(&whole);
	return 0;
}
