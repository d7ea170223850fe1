/*
 * fuzz_scenario.c - the scenario loader (src/core/scenario.h): hardened XML
 * parse, RelaxNG validation, the loader's own checks, then the unit
 * attributes and each unit's initial state by the module the scenario names
 * (battalion or krigsspil, on its built-in tables), as `orderly new` does
 * before it writes anything.
 *
 * Checks, besides ASan/UBSan: no external resource is ever loaded; a
 * refusal is ORD_EBADDATA with a message naming the document and leaves the
 * scenario empty; an accepted scenario keeps the promises of scenario.h
 * (two sides or more, a unit or more, unique ids, every unit on a side);
 * the stream the loader reads a document as gives what the tree gives,
 * the same scenario or the same refusal (ord_scenario_load_tree).
 */
#include <string.h>

#include "fuzz.h"
#include "fuzz_xml_common.h"
#include "scenario_same.h"
#include "core/argcheck.h"
#include "core/common.h"
#include "core/scenario.h"
#include "ruleset.h"

static const char *const names[] = { "battalion", "krigsspil" };
static const struct ord_ruleset *rulesets[2];
static struct ord_rules *rules[2];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	size_t i;

	(void)argc;
	(void)argv;
	if (rulesets[0])
		return 0;
	fuzz_xml_init();
	fuzz_modules();
	for (i = 0; i < ORD_ARRAY_SIZE(names); i++)
		if (ord_ruleset_find(&rulesets[i], names[i]) ||
		    ord_ruleset_load_tables(&rules[i], rulesets[i], NULL))
			fuzz_fail("cannot load the %s ruleset: %s", names[i], ord_error_last());
	return 0;
}

static void check_accepted(const struct ord_scenario *sc)
{
	size_t i, j;

	fuzz_assert(sc->title && *sc->title && sc->ruleset && sc->nmr, "scenario without title");
	fuzz_assert(!strcmp(sc->nmr, "hold") || !strcmp(sc->nmr, "repeat") || !strcmp(sc->nmr, "wait"),
		    "nmr '%s'", sc->nmr);
	fuzz_assert(sc->nsides >= 2 && sc->nunits >= 1, "%zu sides, %zu units", sc->nsides, sc->nunits);
	for (i = 0; i < sc->nsides; i++)
		for (j = i + 1; j < sc->nsides; j++)
			fuzz_assert(strcmp(sc->sides[i].id, sc->sides[j].id), "side '%s' twice",
				    sc->sides[i].id);
	for (i = 0; i < sc->nunits; i++) {
		int found = 0;

		for (j = 0; j < sc->nsides; j++)
			found |= !strcmp(sc->units[i].side, sc->sides[j].id);
		fuzz_assert(found, "unit '%s' on unknown side '%s'", sc->units[i].id,
			    sc->units[i].side);
		for (j = i + 1; j < sc->nunits; j++)
			fuzz_assert(strcmp(sc->units[i].id, sc->units[j].id), "unit '%s' twice",
				    sc->units[i].id);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct ord_ruleset *rs = NULL;
	struct ord_rules *tables = NULL;
	struct ord_scenario sc;
	struct ord_words_how words;
	size_t i;
	int rc;

	LLVMFuzzerInitialize(NULL, NULL);
	rc = ord_scenario_load(&sc, (const char *)data, size, "fuzz.xml");
	{
		struct ord_scenario tree;
		char *msg = ord_strdup(rc ? ord_error_last() : "");
		char why[256];
		int trc = ord_scenario_load_tree(&tree, (const char *)data, size, "fuzz.xml");
		fuzz_assert(trc == rc, "the stream gives %d, the tree %d (%s)", rc, trc,
			    trc ? ord_error_last() : msg);
		fuzz_assert(!rc || !strcmp(msg, ord_error_last()),
			    "the stream says '%s', the tree '%s'", msg, ord_error_last());
		fuzz_assert(rc || !scenario_differs(&sc, &tree, why, sizeof(why)),
			    "the stream and the tree read otherwise: %s", why);
		ord_scenario_release(&tree);
		free(msg); /* the tree's message, the same, is the last error */
	}
	if (rc != 0) {
		fuzz_assert(rc == ORD_EBADDATA, "load returned %d: %s", rc, ord_error_last());
		fuzz_assert(!strncmp(ord_error_last(), "fuzz.xml", 8),
			    "message does not name the document: '%s'", ord_error_last());
		fuzz_assert(sc.nsides == 0 && sc.nunits == 0 && !sc.title,
			    "a refused scenario is not left empty");
		ord_scenario_release(&sc);
		return 0;
	}
	check_accepted(&sc);
	for (i = 0; i < ORD_ARRAY_SIZE(names); i++)
		if (!strcmp(sc.ruleset, names[i])) {
			rs = rulesets[i];
			tables = rules[i];
		}
	if (!rs) { /* a ruleset orderly does not have: `new` refuses it */
		ord_scenario_release(&sc);
		return 0;
	}
	ord_words_how_of(&words, rs);
	rc = ord_scenario_check_attrs(&sc, rs->unit_attrs, &words, "fuzz.xml");
	fuzz_assert(rc == 0 || rc == ORD_EBADDATA, "check_attrs returned %d", rc);
	if (rc == 0 && rs->init_unit) {
		for (i = 0; i < sc.nunits; i++) {
			struct ord_unit u;
			struct ord_diag diag;

			fuzz_unit_of(&u, &sc.units[i]);
			ord_diag_init(&diag);
			rs->init_unit(tables, &u, &diag);
			ord_kv_release(&u.state);
			ord_diag_release(&diag);
		}
	}
	ord_scenario_release(&sc);
	return 0;
}
