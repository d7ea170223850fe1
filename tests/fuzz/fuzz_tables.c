/*
 * fuzz_tables.c - the tables loader (src/tables.h) and what reads a
 * loaded document: every getter and lookup of every table, the printer,
 * the checks of a document a user hands in, then the battalion module's
 * own load (the tables its rules need), those checks against its own
 * tables and its calculator on a few fixed questions, as `orderly new
 * --tables FILE`, `orderly rules --tables` and `orderly calc --tables`
 * would.
 *
 * A club edits these tables by hand, so any bytes may arrive.  Checks,
 * besides ASan/UBSan: no external resource is ever loaded; a refusal is
 * ORD_EBADDATA naming the document; lookups on an accepted document return
 * 0 or ORD_ENOTFOUND, never anything else.
 */
#include <string.h>

#include "fuzz.h"
#include "fuzz_xml_common.h"
#include "tables.h"
#include "ruleset.h"

static const struct ord_ruleset *rs;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_xml_init();
	fuzz_modules();
	if (ord_ruleset_find(&rs, "battalion"))
		fuzz_fail("no battalion ruleset: %s", ord_error_last());
	return 0;
}

static void lookup_ok(int rc, const char *what, const struct ord_table *tbl)
{
	fuzz_assert(rc == 0 || rc == ORD_ENOTFOUND, "%s in table '%s' returned %d: %s", what,
		    ord_table_name(tbl), rc, ord_error_last());
}

static void walk_table(const struct ord_tables *t, const struct ord_table *tbl)
{
	static const double xs[] = { -1e300, -1, 0, 0.5, 1, 4, 4.01, 7, 12, 20, 1e300 };
	struct ord_buf b = ORD_BUF_INIT;
	const struct ord_row *row;
	const struct ord_table *same;
	size_t i, j;
	double v;

	(void)ord_table_title(tbl);
	(void)ord_table_note(tbl);
	(void)ord_table_unit(tbl);
	(void)ord_table_reconstructed(tbl);
	(void)ord_table_provisional(tbl);
	(void)ord_table_line(tbl);
	(void)ord_table_die(tbl);
	(void)ord_table_kind_name(ord_table_kind(tbl));
	lookup_ok(ord_tables_find(&same, t, ord_table_name(tbl), ord_table_kind(tbl)), "find", tbl);
	for (i = 0; i < ord_table_nkeys(tbl); i++) {
		ord_buf_reset(&b);
		ord_table_key_values(tbl, ord_table_key(tbl, i), &b);
	}
	for (i = 0; i < ord_table_nrows(tbl); i++) {
		row = ord_table_row(tbl, i);
		fuzz_assert(ord_row_table(row) == tbl, "row %zu of '%s' points elsewhere", i,
			    ord_table_name(tbl));
		(void)ord_row_line(row);
		(void)ord_row_note(row);
		(void)ord_row_reconstructed(row);
		(void)ord_row_provisional(row);
		for (j = 0; j < ord_table_ncolumns(tbl); j++) {
			const char *c = ord_table_column(tbl, j);
			if (ord_row_has_num(row, c))
				fuzz_assert(ord_row_num(row, c, &v) == 0, "has_num but no num '%s'", c);
			else
				lookup_ok(ord_row_num(row, c, &v), c, tbl);
		}
		for (j = 0; j < ord_table_nlabels(tbl); j++)
			(void)ord_row_str(row, ord_table_label(tbl, j));
		switch (ord_table_kind(tbl)) {
		case ORD_TABLE_PARAMS:
			if (ord_row_attr(row, "name"))
				lookup_ok(ord_tables_param(t, ord_row_attr(row, "name"), &v),
					  "param", tbl);
			break;
		case ORD_TABLE_MODIFIERS:
			(void)ord_row_mode(row);
			(void)ord_row_label(row);
			break;
		default: break;
		}
	}
	row = NULL;
	lookup_ok(ord_table_find(&row, tbl, NULL), "find row", tbl);
	for (i = 0; i < ORD_ARRAY_SIZE(xs); i++) {
		switch (ord_table_kind(tbl)) {
		case ORD_TABLE_BANDS:
			lookup_ok(ord_table_band(&row, tbl, NULL, xs[i]), "band", tbl);
			break;
		case ORD_TABLE_DICE:
			lookup_ok(ord_table_dice(&row, tbl, NULL, xs[i]), "dice", tbl);
			break;
		default: break;
		}
	}
	if (ord_table_kind(tbl) == ORD_TABLE_MODIFIERS) {
		struct ord_kv flags;
		ord_kv_init(&flags);
		/* every flag any row names, set: the most rows apply */
		for (i = 0; i < ord_table_nrows(tbl); i++) {
			const char *w = ord_row_attr(ord_table_row(tbl, i), "when");
			if (w && *w && !strchr(w, ' '))
				ord_kv_set(&flags, w, "3");
		}
		ord_buf_reset(&b);
		lookup_ok(ord_table_apply(&v, tbl, 12, &flags, NULL, &b), "apply", tbl);
		ord_kv_release(&flags);
	}
	ord_buf_release(&b);
}

static void calc(struct ord_rules *rules, const char *what, const char *const *args,
		 const int *dice, size_t ndice)
{
	struct ord_buf out = ORD_BUF_INIT;
	struct ord_kv kv;
	size_t i;
	int xml;

	ord_kv_init(&kv);
	for (i = 0; args[i]; i += 2)
		ord_kv_set(&kv, args[i], args[i + 1]);
	for (xml = 0; xml <= 1; xml++) {
		int rc = rs->calc(rules, what, &kv, dice, ndice, xml, &out);
		fuzz_assert(rc == 0 || rc == ORD_EUSAGE || rc == ORD_ENOTFOUND || rc == ORD_EBADDATA,
			    "calc %s returned %d: %s", what, rc, ord_error_last());
		ord_buf_reset(&out);
	}
	ord_kv_release(&kv);
	ord_buf_release(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const fire[] = { "firers",           "24",     "weapon",
					    "musket",           "range",  "3",
					    "target_formation", "column", NULL };
	static const char *const move[] = { "kind",     "line_infantry", "formation", "column",
					    "fraction", "1/2",           NULL };
	static const char *const art[] = { "kind", "foot_artillery",   "range", "14", "shot",
					   "ball", "target_formation", "line",  NULL };
	static const char *const morale[] = { "class", "C", "losses", "6", NULL };
	static const char *const melee[] = { "a_kind", "line_infantry", "a_figures", "24",
					     "b_kind", "heavy_cavalry", "b_figures", "8",
					     NULL };
	static const int d2[] = { 3, 5 };
	struct ord_tables *t = NULL;
	struct ord_rules *rules = NULL;
	struct ord_buf out = ORD_BUF_INIT;
	size_t i;
	int rc;

	if (!rs)
		LLVMFuzzerInitialize(NULL, NULL);
	rc = ord_tables_load(&t, (const char *)data, size, "fuzz.xml");
	if (rc != 0) {
		fuzz_assert(rc == ORD_EBADDATA, "load returned %d: %s", rc, ord_error_last());
		fuzz_assert(!t, "a refused document left a handle");
		fuzz_assert(!strncmp(ord_error_last(), "fuzz.xml", 8),
			    "message does not name the document: '%s'", ord_error_last());
		return 0;
	}
	(void)ord_tables_name(t);
	(void)ord_tables_ruleset(t);
	for (i = 0; i < ord_tables_count(t); i++)
		walk_table(t, ord_tables_at(t, i));
	rc = ord_tables_print(t, NULL, &out);
	fuzz_assert(rc == 0, "printing every table returned %d: %s", rc, ord_error_last());
	/* the checks of a document a user hands in: its own names are known */
	rc = ord_tables_check_names(t, t);
	fuzz_assert(rc == 0, "a document's names unknown to itself (%d): %s", rc, ord_error_last());
	rc = ord_tables_check_rows(t, NULL);
	fuzz_assert(rc == 0 || (rc == ORD_EBADDATA && !strncmp(ord_error_last(), "fuzz.xml:", 9)),
		    "check_rows returned %d: %s", rc, ord_error_last());
	ord_tables_free(t);

	/* the battalion module over the same document */
	rc = rs->load(&rules, (const char *)data, size, "fuzz.xml");
	if (rc == 0) {
		rc = ord_ruleset_check_given(rs, rules);
		fuzz_assert(rc == 0 || (rc == ORD_EBADDATA &&
					!strncmp(ord_error_last(), "fuzz.xml:", 9)),
			    "check_given returned %d: %s", rc, ord_error_last());
		ord_buf_reset(&out);
		fuzz_assert(rs->print_tables(rules, NULL, &out) == 0, "print_tables failed: %s",
			    ord_error_last());
		calc(rules, "fire", fire, NULL, 0);
		calc(rules, "move", move, NULL, 0);
		calc(rules, "artillery", art, d2, 1);
		calc(rules, "morale", morale, d2, 1);
		calc(rules, "morale20", morale, d2, 1);
		calc(rules, "melee", melee, d2, 2);
		rs->free(rules);
	} else {
		fuzz_assert(rc == ORD_EBADDATA, "battalion load returned %d: %s", rc, ord_error_last());
	}
	ord_buf_release(&out);
	return 0;
}
