/*
 * check_tables.c - the generic tables engine (src/tables.h) on small
 * inline documents: every lookup kind, band edges, modifiers, the checks of
 * every number at load with their line, and schema violations.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tables.h"

/* A document with one table of each kind; the line numbers matter. */
static const char doc_all[] =
	"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"                                   /* 1 */
	"<tables ruleset=\"test\" version=\"1\">\n"                                      /* 2 */
	"  <params name=\"units\" title=\"Units\">\n"                                    /* 3 */
	"    <param name=\"per_tray\" value=\"4\" unit=\"figures\"/>\n"                  /* 4 */
	"    <param name=\"half\" value=\"1/2\" reconstructed=\"yes\" note=\"lost\"/>\n" /* 5 */
	"  </params>\n"                                                                  /* 6 */
	"  <bands name=\"fire\" title=\"Fire\" unit=\"in\" keys=\"weapon\" columns=\"hits\">\n"
	"    <note>a note</note>\n"                                       /* 8 */
	"    <band weapon=\"musket\" from=\"0\" to=\"4\" hits=\"50\"/>\n" /* 9 */
	"    <band weapon=\"musket\" from=\"4\" to=\"8\" hits=\"25\"/>\n" /* 10 */
	"    <band weapon=\"musket\" from=\"8\" to=\"12\" hits=\"-\"/>\n" /* 11 */
	"    <band weapon=\"rifle\" from=\"2\" to=\"16\" hits=\"25\" provisional=\"yes\"/>\n"
	"  </bands>\n" /* 13 */
	"  <dice name=\"morale\" title=\"Morale\" die=\"6\" labels=\"outcome\" reconstructed=\"yes\">\n"
	"    <note>bands garbled</note>\n"                           /* 15 */
	"    <roll lo=\"0\" hi=\"max\" outcome=\"good\"/>\n"         /* 16 */
	"    <roll lo=\"-5\" hi=\"-1\" outcome=\"retreat\"/>\n"      /* 17 */
	"    <roll lo=\"min\" hi=\"-6\" outcome=\"rout\"/>\n"        /* 18 */
	"  </dice>\n"                                                /* 19 */
	"  <modifiers name=\"mods\" title=\"Mods\" keys=\"shot\">\n" /* 20 */
	"    <mod shot=\"*\" when=\"target_column\" mode=\"fraction\" value=\"1/2\" label=\"target in column\"/>\n"
	"    <mod shot=\"*\" when=\"target_moved\" mode=\"fraction\" value=\"-1/4\" label=\"target moved\"/>\n"
	"    <mod shot=\"grape\" when=\"square\" mode=\"sum\" value=\"4\" label=\"square\"/>\n"
	"    <mod shot=\"*\" when=\"horse\" mode=\"times\" value=\"1/2\" label=\"horse\"/>\n"
	"    <mod shot=\"*\" when=\"losses\" mode=\"per\" value=\"-1\" label=\"lost\"/>\n"
	"    <mod shot=\"*\" when=\"a b\" unless=\"c\" mode=\"sum\" value=\"10\" label=\"a and b not c\"/>\n"
	"  </modifiers>\n" /* 27 */
	"  <chart name=\"move\" title=\"Movement\" keys=\"kind formation\" columns=\"reg charge\" labels=\"arm\">\n"
	"    <row kind=\"line light\" formation=\"column\" reg=\"8\" charge=\"10\" arm=\"infantry\"/>\n"
	"    <row kind=\"line light\" formation=\"line misc\" reg=\"6\" charge=\"-\" arm=\"infantry\"/>\n"
	"    <row kind=\"hussar\" formation=\"*\" reg=\"14\" charge=\"16\" arm=\"cavalry\"/>\n"
	"  </chart>\n"
	"</tables>\n";

static struct ord_tables *load_ok(const char *xml)
{
	struct ord_tables *t = NULL;
	int rc = ord_tables_load(&t, xml, strlen(xml), "t.xml");

	ck_assert_msg(rc == 0, "load failed: %s", ord_error_last());
	ck_assert_ptr_nonnull(t);
	return t;
}

static int load_err(const char *xml)
{
	struct ord_tables *t = NULL;
	int rc = ord_tables_load(&t, xml, strlen(xml), "t.xml");

	ck_assert_ptr_null(t);
	return rc;
}

/* A one-table document around body (the table starts on line 3). */
static char *wrap(const char *body)
{
	static const char head[] = "<?xml version=\"1.0\"?>\n<tables ruleset=\"test\">\n";
	static const char tail[] = "</tables>\n";
	char *s = malloc(strlen(head) + strlen(body) + strlen(tail) + 1);

	strcpy(s, head);
	strcat(s, body);
	strcat(s, tail);
	return s;
}

static void assert_load_error(const char *body, int code, const char *msg)
{
	char *xml = wrap(body);
	int rc = load_err(xml);

	ck_assert_int_eq(rc, code);
	ck_assert_msg(strstr(ord_error_last(), msg) != NULL, "expected '%s' in '%s'", msg,
		      ord_error_last());
	free(xml);
}

static const struct ord_row *band(const struct ord_tables *t, const char *weapon, double x)
{
	const struct ord_table *tbl = ord_tables_get(t, "fire");
	const struct ord_row *row = NULL;
	struct ord_kv m;
	int rc;

	ord_kv_init(&m);
	if (weapon)
		ord_kv_set(&m, "weapon", weapon);
	rc = ord_table_band(&row, tbl, weapon ? &m : NULL, x);
	ord_kv_release(&m);
	ck_assert(rc == 0 || rc == ORD_ENOTFOUND);
	return rc ? NULL : row;
}

static double num(const struct ord_row *row, const char *name)
{
	double v = -999;

	ck_assert_int_eq(ord_row_num(row, name, &v), 0);
	return v;
}

/* ---- the document ---------------------------------------------------------- */

START_TEST(test_load_and_accessors)
{
	struct ord_tables *t = load_ok(doc_all);
	const struct ord_table *tbl;
	int rc;

	ck_assert_str_eq(ord_tables_name(t), "t.xml");
	ck_assert_str_eq(ord_tables_ruleset(t), "test");
	ck_assert_uint_eq(ord_tables_count(t), 5);
	ck_assert_str_eq(ord_table_name(ord_tables_at(t, 0)), "units");
	ck_assert_ptr_null(ord_tables_at(t, 5));
	ck_assert_ptr_null(ord_tables_get(t, "nope"));

	tbl = ord_tables_get(t, "fire");
	ck_assert_int_eq(ord_table_kind(tbl), ORD_TABLE_BANDS);
	ck_assert_str_eq(ord_table_kind_name(ord_table_kind(tbl)), "bands");
	ck_assert_str_eq(ord_table_title(tbl), "Fire");
	ck_assert_str_eq(ord_table_note(tbl), "a note");
	ck_assert_str_eq(ord_table_unit(tbl), "in");
	ck_assert_uint_eq(ord_table_line(tbl), 7);
	ck_assert_int_eq(ord_table_reconstructed(tbl), 0);
	ck_assert_uint_eq(ord_table_nkeys(tbl), 1);
	ck_assert_str_eq(ord_table_key(tbl, 0), "weapon");
	ck_assert_uint_eq(ord_table_ncolumns(tbl), 1);
	ck_assert_str_eq(ord_table_column(tbl, 0), "hits");
	ck_assert_uint_eq(ord_table_nrows(tbl), 4);
	ck_assert_uint_eq(ord_row_line(ord_table_row(tbl, 0)), 9);
	ck_assert_ptr_eq(ord_row_table(ord_table_row(tbl, 0)), tbl);
	ck_assert_int_eq(ord_row_provisional(ord_table_row(tbl, 3)), 1);
	ck_assert_int_eq(ord_row_provisional(ord_table_row(tbl, 0)), 0);

	tbl = ord_tables_get(t, "morale");
	ck_assert_int_eq(ord_table_reconstructed(tbl), 1);
	ck_assert_int_eq(ord_table_die(tbl), 6);
	ck_assert_uint_eq(ord_table_nlabels(tbl), 1);
	ck_assert_str_eq(ord_table_label(tbl, 0), "outcome");
	ck_assert_ptr_null(ord_table_unit(tbl));

	rc = ord_tables_find(&tbl, t, "fire", ORD_TABLE_BANDS);
	ck_assert_int_eq(rc, 0);
	rc = ord_tables_find(&tbl, t, "fire", ORD_TABLE_DICE);
	ck_assert_int_eq(rc, ORD_EBADDATA);
	ck_assert_ptr_nonnull(strstr(ord_error_last(), "is a bands table, expected dice"));
	rc = ord_tables_find(&tbl, t, "none", ORD_TABLE_DICE);
	ck_assert_int_eq(rc, ORD_ENOTFOUND);
	ck_assert_ptr_nonnull(strstr(ord_error_last(), "no table 'none'"));
	ord_tables_free(t);
}
END_TEST

START_TEST(test_params)
{
	struct ord_tables *t = load_ok(doc_all);
	const struct ord_row *row;
	double v = 0;

	ck_assert_int_eq(ord_tables_param(t, "per_tray", &v), 0);
	ck_assert(v == 4);
	ck_assert_int_eq(ord_tables_param(t, "half", &v), 0);
	ck_assert(v == 0.5);
	row = ord_tables_param_row(t, "half");
	ck_assert_int_eq(ord_row_reconstructed(row), 1);
	ck_assert_str_eq(ord_row_note(row), "lost");
	ck_assert_str_eq(ord_row_attr(ord_tables_param_row(t, "per_tray"), "unit"), "figures");
	ck_assert_ptr_null(ord_row_note(ord_tables_param_row(t, "per_tray")));
	ck_assert_int_eq(ord_tables_param(t, "missing", &v), ORD_ENOTFOUND);
	ck_assert_ptr_nonnull(strstr(ord_error_last(), "no parameter 'missing'"));
	ck_assert_ptr_null(ord_tables_param_row(t, "missing"));
	/* a switch: set non-zero is on; absent (tables made before it) is off */
	ck_assert_int_eq(ord_tables_switch(t, "per_tray"), 1);
	ck_assert_int_eq(ord_tables_switch(t, "half"), 1);
	ck_assert_int_eq(ord_tables_switch(t, "missing"), 0);
	ck_assert_str_eq(ord_error_last(), "");
	ord_tables_free(t);
}
END_TEST

/* ---- bands ------------------------------------------------------------------- */

START_TEST(test_band_edges)
{
	struct ord_tables *t = load_ok(doc_all);
	const struct ord_row *row;

	/* the first band includes its lower bound */
	ck_assert(num(band(t, "musket", 0), "hits") == 50);
	ck_assert(num(band(t, "musket", 0.01), "hits") == 50);
	ck_assert(num(band(t, "musket", 4), "hits") == 50);
	ck_assert(num(band(t, "musket", 4.01), "hits") == 25);
	ck_assert(num(band(t, "musket", 8), "hits") == 25);
	row = band(t, "musket", 8.5);
	ck_assert_ptr_nonnull(row);
	ck_assert_int_eq(ord_row_has_num(row, "hits"), 0);
	ck_assert_ptr_null(band(t, "musket", 12.01));
	ck_assert_ptr_null(band(t, "musket", -0.5));
	/* another key's lowest band starts elsewhere and includes it */
	ck_assert_ptr_null(band(t, "rifle", 1.99));
	ck_assert(num(band(t, "rifle", 2), "hits") == 25);
	ck_assert(num(band(t, "rifle", 16), "hits") == 25);
	ck_assert_ptr_null(band(t, "rifle", 16.001));
	ck_assert_ptr_null(band(t, "bow", 3));
	ck_assert_ptr_nonnull(strstr(ord_error_last(), "table 'fire': no row holds 3 for weapon=bow"));
	/* with no key every row is a candidate: the first match wins */
	ck_assert(num(band(t, NULL, 3), "hits") == 50);
	ck_assert(num(band(t, "musket", 3), "from") == 0);
	ck_assert(num(band(t, "musket", 3), "to") == 4);
	ord_tables_free(t);
}
END_TEST

START_TEST(test_row_values)
{
	struct ord_tables *t = load_ok(doc_all);
	const struct ord_row *row = band(t, "musket", 10);
	double v;

	ck_assert_int_eq(ord_row_num(row, "hits", &v), ORD_ENOTFOUND);
	ck_assert_str_eq(ord_error_last(), "t.xml:11: table 'fire' row has no value for 'hits'");
	ck_assert_int_eq(ord_row_num(row, "nothing", &v), ORD_ENOTFOUND);
	ck_assert_int_eq(ord_row_num(row, "weapon", &v), ORD_EBADDATA);
	ck_assert_ptr_nonnull(strstr(ord_error_last(), "'weapon' is not a number"));
	ck_assert_str_eq(ord_row_str(row, "weapon"), "musket");
	ck_assert_str_eq(ord_row_attr(row, "hits"), "-");
	ck_assert_ptr_null(ord_row_attr(row, "nothing"));
	ord_tables_free(t);
}
END_TEST

/* ---- dice --------------------------------------------------------------------- */

static const char *dice_outcome(const struct ord_tables *t, double roll)
{
	const struct ord_row *row = NULL;

	if (ord_table_dice(&row, ord_tables_get(t, "morale"), NULL, roll))
		return NULL;
	return ord_row_str(row, "outcome");
}

START_TEST(test_dice)
{
	struct ord_tables *t = load_ok(doc_all);

	ck_assert_str_eq(dice_outcome(t, 0), "good");
	ck_assert_str_eq(dice_outcome(t, 14), "good");
	ck_assert_str_eq(dice_outcome(t, 1000), "good");
	ck_assert_str_eq(dice_outcome(t, -1), "retreat");
	ck_assert_str_eq(dice_outcome(t, -5), "retreat");
	ck_assert_str_eq(dice_outcome(t, -6), "rout");
	ck_assert_str_eq(dice_outcome(t, -100), "rout");
	/* between the bands (no row holds -5.5) */
	ck_assert_ptr_null(dice_outcome(t, -5.5));
	ord_tables_free(t);
}
END_TEST

START_TEST(test_dice_keyed)
{
	static const char body[] = "<dice name=\"d20\" title=\"d20\" die=\"20\" keys=\"class\" labels=\"outcome\">\n"
				   "  <roll class=\"A\" lo=\"1\" hi=\"16\" outcome=\"good\"/>\n"
				   "  <roll class=\"A\" lo=\"17\" hi=\"19\" outcome=\"retreat\"/>\n"
				   "  <roll class=\"A\" lo=\"20\" hi=\"20\" outcome=\"rout\"/>\n"
				   "  <roll class=\"B C\" lo=\"1\" hi=\"14\" outcome=\"good\"/>\n"
				   "  <roll class=\"B C\" lo=\"15\" hi=\"20\" outcome=\"rout\"/>\n"
				   "</dice>\n";
	char *xml = wrap(body);
	struct ord_tables *t = load_ok(xml);
	const struct ord_table *tbl = ord_tables_get(t, "d20");
	const struct ord_row *row;
	struct ord_kv m;

	ord_kv_init(&m);
	ord_kv_set(&m, "class", "A");
	ck_assert_int_eq(ord_table_dice(&row, tbl, &m, 16), 0);
	ck_assert_str_eq(ord_row_str(row, "outcome"), "good");
	ck_assert_int_eq(ord_table_dice(&row, tbl, &m, 17), 0);
	ck_assert_str_eq(ord_row_str(row, "outcome"), "retreat");
	ck_assert_int_eq(ord_table_dice(&row, tbl, &m, 20), 0);
	ck_assert_str_eq(ord_row_str(row, "outcome"), "rout");
	ck_assert_int_eq(ord_table_dice(&row, tbl, &m, 21), ORD_ENOTFOUND);
	ord_kv_set(&m, "class", "C");
	ck_assert_int_eq(ord_table_dice(&row, tbl, &m, 15), 0);
	ck_assert_str_eq(ord_row_str(row, "outcome"), "rout");
	ord_kv_set(&m, "class", "Z");
	ck_assert_int_eq(ord_table_dice(&row, tbl, &m, 5), ORD_ENOTFOUND);
	ord_kv_release(&m);
	ord_tables_free(t);
	free(xml);
}
END_TEST

/* ---- modifiers -------------------------------------------------------------------- */

static double apply(const struct ord_tables *t, double base, const char *flags, const char *shot,
		    struct ord_buf *why)
{
	struct ord_kv f, m;
	double v = -999;
	char *copy = strdup(flags), *tok, *save = NULL;

	ord_kv_init(&f);
	ord_kv_init(&m);
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');
		if (eq) {
			*eq = '\0';
			ord_kv_set(&f, tok, eq + 1);
		} else {
			ord_kv_set(&f, tok, "yes");
		}
	}
	if (shot)
		ord_kv_set(&m, "shot", shot);
	ord_buf_reset(why);
	ck_assert_int_eq(ord_table_apply(&v, ord_tables_get(t, "mods"), base, &f, shot ? &m : NULL, why),
			 0);
	ord_kv_release(&f);
	ord_kv_release(&m);
	free(copy);
	return v;
}

START_TEST(test_modifiers)
{
	struct ord_tables *t = load_ok(doc_all);
	struct ord_buf why = ORD_BUF_INIT;
	double v;

	/* fractions of the base, summed: the rules' worked example */
	v = apply(t, 12, "target_column target_moved", "ball", &why);
	ck_assert(v == 15);
	ck_assert_str_eq(why.buf, "12, +6 target in column, −3 target moved = 15");
	/* nothing applies */
	v = apply(t, 12, "", "ball", &why);
	ck_assert(v == 12);
	ck_assert_str_eq(why.buf, "12");
	/* a flag set to no does not apply */
	v = apply(t, 12, "target_column=no target_moved=yes", "ball", &why);
	ck_assert(v == 9);
	/* sum rows restricted by the match (grape only) */
	v = apply(t, 4, "square", "ball", &why);
	ck_assert(v == 4);
	v = apply(t, 4, "square", "grape", &why);
	ck_assert(v == 8);
	ck_assert_str_eq(why.buf, "4, +4 square = 8");
	/* times applies after every addition, whatever the row order */
	v = apply(t, 4, "square horse", "grape", &why);
	ck_assert(v == 4);
	ck_assert_str_eq(why.buf, "4, +4 square = 8, ×0.5 horse = 4");
	v = apply(t, 3, "horse", "ball", &why);
	ck_assert(v == 1.5);
	ck_assert_str_eq(why.buf, "3, ×0.5 horse = 1.5");
	/* per: value times the count */
	v = apply(t, 5, "losses=3", "ball", &why);
	ck_assert(v == 2);
	ck_assert_str_eq(why.buf, "5, −3 lost (3 × −1) = 2");
	v = apply(t, 5, "losses=0", "ball", &why);
	ck_assert(v == 5);
	/* when lists all, unless any */
	ck_assert(apply(t, 0, "a", "ball", &why) == 0);
	ck_assert(apply(t, 0, "a b", "ball", &why) == 10);
	ck_assert(apply(t, 0, "a b c", "ball", &why) == 0);
	/* without a match every row is a candidate, "*" or not */
	ck_assert(apply(t, 4, "square", NULL, &why) == 8);
	ord_buf_release(&why);
	ord_tables_free(t);
}
END_TEST

START_TEST(test_modifiers_unconditional)
{
	static const char body[] = "<modifiers name=\"m\" title=\"M\">\n"
				   "  <mod mode=\"sum\" value=\"2\" label=\"always\"/>\n"
				   "  <mod unless=\"failed\" mode=\"sum\" value=\"2\" label=\"never failed\"/>\n"
				   "  <mod when=\"failed\" mode=\"sum\" value=\"-3\" label=\"failed before\"/>\n"
				   "</modifiers>\n";
	char *xml = wrap(body);
	struct ord_tables *t = load_ok(xml);
	struct ord_buf why = ORD_BUF_INIT;
	struct ord_kv f;
	double v;

	ord_kv_init(&f);
	ck_assert_int_eq(ord_table_apply(&v, ord_tables_get(t, "m"), 3, NULL, NULL, &why), 0);
	ck_assert(v == 7);
	ck_assert_str_eq(why.buf, "3, +2 always, +2 never failed = 7");
	ord_kv_set(&f, "failed", "yes");
	ck_assert_int_eq(ord_table_apply(&v, ord_tables_get(t, "m"), 3, &f, NULL, NULL), 0);
	ck_assert(v == 2);
	ord_kv_release(&f);
	ord_buf_release(&why);
	ord_tables_free(t);
	free(xml);
}
END_TEST

/* The engine writes another label (a translation) and, for a caller who
 * writes the base and the total itself, only the rows applied. */
START_TEST(test_modifiers_labels)
{
	static const char body[] = "<modifiers name=\"m\" title=\"M\">\n"
				   "  <mod when=\"flank\" mode=\"sum\" value=\"3\" label=\"flanke\" label_en=\"flank\"/>\n"
				   "  <mod when=\"ranks\" mode=\"per\" value=\"1\" label=\"geledder\"/>\n"
				   "  <mod when=\"half\" mode=\"times\" value=\"1/2\" label=\"halvt\" label_en=\"half\"/>\n"
				   "</modifiers>\n";
	static const struct ord_apply_text en = { "label_en", 0 }, en_rows = { "label_en", 1 };
	char *xml = wrap(body);
	struct ord_tables *t = load_ok(xml);
	struct ord_buf why = ORD_BUF_INIT;
	struct ord_kv f;
	size_t n = 99;
	double v;

	ord_kv_init(&f);
	ord_kv_set(&f, "flank", "yes");
	ord_kv_set(&f, "ranks", "2");
	ord_kv_set(&f, "half", "yes");
	ck_assert_int_eq(ord_table_apply_text(&v, &n, ord_tables_get(t, "m"), 5, &f, NULL, &en, &why),
			 0);
	ck_assert(v == 5);
	ck_assert_int_eq((int)n, 3);
	/* a row without label_en writes its label */
	ck_assert_str_eq(why.buf, "5, +3 flank, +2 geledder (2 × 1) = 10, ×0.5 half = 5");
	ord_buf_reset(&why);
	ck_assert_int_eq(ord_table_apply_text(&v, &n, ord_tables_get(t, "m"), 5, &f, NULL, &en_rows,
					      &why),
			 0);
	ck_assert_str_eq(why.buf, ", +3 flank, +2 geledder (2 × 1), ×0.5 half");
	ord_kv_release(&f);
	ord_kv_init(&f);
	ord_buf_reset(&why);
	ck_assert_int_eq(ord_table_apply_text(&v, &n, ord_tables_get(t, "m"), 5, &f, NULL, &en_rows,
					      &why),
			 0);
	ck_assert_int_eq((int)n, 0);
	ck_assert_str_eq(why.buf, "");
	ck_assert(v == 5);
	ord_kv_release(&f);
	ord_buf_release(&why);
	ord_tables_free(t);
	free(xml);
}
END_TEST

START_TEST(test_apply_wrong_kind)
{
	struct ord_tables *t = load_ok(doc_all);
	double v;

	ck_assert_int_eq(ord_table_apply(&v, ord_tables_get(t, "fire"), 3, NULL, NULL, NULL),
			 ORD_EBADDATA);
	ck_assert_ptr_nonnull(strstr(ord_error_last(), "is not a modifiers table"));
	ord_tables_free(t);
}
END_TEST

/* ---- charts and finding rows ------------------------------------------------------- */

static const struct ord_row *chart(const struct ord_tables *t, const char *kind, const char *formation)
{
	const struct ord_row *row = NULL;
	struct ord_kv m;
	int rc;

	ord_kv_init(&m);
	ord_kv_set(&m, "kind", kind);
	if (formation)
		ord_kv_set(&m, "formation", formation);
	rc = ord_table_find(&row, ord_tables_get(t, "move"), &m);
	ord_kv_release(&m);
	return rc ? NULL : row;
}

/* The index of a table's rows by the words of an attribute
 * (tables_lookup.c) finds what reading every row finds: ord_table_find1,
 * ord_table_find and ord_table_check_word held to a row-by-row reading
 * through the public accessors, on random charts of up to 150 rows (past
 * 64, and rows without the attribute, with "*", words twice, '|') and
 * random matches, words with a space or empty among them. */
static uint32_t idx_rnd_state = 2463534242u;

static uint32_t idx_rnd(uint32_t n)
{
	idx_rnd_state ^= idx_rnd_state << 13;
	idx_rnd_state ^= idx_rnd_state >> 17;
	idx_rnd_state ^= idx_rnd_state << 5;
	return idx_rnd_state % n;
}

static const char *const idx_words[] = { "x", "y", "z", "xy", "*", "w|v", "x x" };
static const char *const idx_asked[] = { "x", "y", "z", "xy", "*", "w", "v", "q", "", "x y" };
static const char *const idx_attrs[] = { "a", "b", "c", "d" };

/* A list of 1..3 words, the first of attr a non-empty. */
static void idx_list(struct ord_buf *b)
{
	size_t i, n = 1 + idx_rnd(3);

	for (i = 0; i < n; i++)
		ord_buf_addf(b, "%s%s", i ? " " : "", idx_words[idx_rnd(ORD_ARRAY_SIZE(idx_words))]);
}

static int idx_row_lets(const struct ord_row *row, const char *key, const char *value)
{
	const char *v = ord_row_attr(row, key);

	return v && (ord_words_has(v, "*") || ord_words_has(v, value));
}

START_TEST(test_index_as_rows)
{
	size_t doc, q;

	for (doc = 0; doc < 40; doc++) {
		struct ord_buf body = ORD_BUF_INIT;
		struct ord_tables *t;
		const struct ord_table *tbl;
		size_t i, nrows = 1 + idx_rnd(150);
		char *xml;

		ord_buf_adds(&body, "<chart name=\"r\" title=\"R\" keys=\"a\">\n");
		for (i = 0; i < nrows; i++) {
			ord_buf_adds(&body, "<row a=\"");
			idx_list(&body);
			ord_buf_addch(&body, '"');
			if (idx_rnd(3)) {
				ord_buf_adds(&body, " b=\"");
				idx_list(&body);
				ord_buf_addch(&body, '"');
			}
			if (!idx_rnd(4)) {
				ord_buf_adds(&body, " c=\"");
				idx_list(&body);
				ord_buf_addch(&body, '"');
			}
			ord_buf_adds(&body, "/>\n");
		}
		ord_buf_adds(&body, "</chart>\n");
		xml = wrap(body.buf);
		t = load_ok(xml);
		tbl = ord_tables_get(t, "r");
		for (q = 0; q < 300; q++) {
			const char *key = idx_attrs[idx_rnd(ORD_ARRAY_SIZE(idx_attrs))];
			const char *value = idx_asked[idx_rnd(ORD_ARRAY_SIZE(idx_asked))];
			const struct ord_row *row, *want = NULL;
			struct ord_kv m;
			size_t k, npairs = idx_rnd(4);
			int err;

			for (i = 0; i < nrows && !want; i++)
				if (idx_row_lets(ord_table_row(tbl, i), key, value))
					want = ord_table_row(tbl, i);
			err = ord_table_find1(&row, tbl, key, value);
			ck_assert_ptr_eq(row, want);
			ck_assert_int_eq(err, want ? 0 : ORD_ENOTFOUND);
			/* a match of 0..3 pairs (a key given twice keeps its last) */
			ord_kv_init(&m);
			for (k = 0; k < npairs; k++)
				ord_kv_set(&m, idx_attrs[idx_rnd(ORD_ARRAY_SIZE(idx_attrs))],
					   idx_asked[idx_rnd(ORD_ARRAY_SIZE(idx_asked))]);
			for (want = NULL, i = 0; i < nrows && !want; i++) {
				for (k = 0; k < m.n; k++)
					if (!idx_row_lets(ord_table_row(tbl, i), m.items[k].key,
							  m.items[k].value))
						break;
				if (k == m.n)
					want = ord_table_row(tbl, i);
			}
			err = ord_table_find(&row, tbl, m.n || idx_rnd(2) ? &m : NULL);
			ck_assert_ptr_eq(row, want);
			ck_assert_int_eq(err, want ? 0 : ORD_ENOTFOUND);
			ord_kv_release(&m);
			/* a word some row lists ("*" and words with a space never) */
			for (want = NULL, i = 0; i < nrows && !want; i++) {
				const char *v = ord_row_attr(ord_table_row(tbl, i), key);
				if (*value && strcmp(value, "*") && v && ord_words_has(v, value))
					want = ord_table_row(tbl, i);
			}
			err = ord_table_check_word(tbl, key, value, key);
			ck_assert_int_eq(err, want ? 0 : ORD_EUSAGE);
			ord_error_clear();
		}
		ord_tables_free(t);
		free(xml);
		ord_buf_release(&body);
	}
}
END_TEST

START_TEST(test_chart)
{
	struct ord_tables *t = load_ok(doc_all);
	const struct ord_table *tbl = ord_tables_get(t, "move");
	struct ord_buf b = ORD_BUF_INIT;
	const struct ord_row *row;
	double v;

	ck_assert(num(chart(t, "line", "column"), "reg") == 8);
	ck_assert(num(chart(t, "light", "column"), "charge") == 10);
	ck_assert(num(chart(t, "light", "misc"), "reg") == 6);
	row = chart(t, "line", "line");
	ck_assert_int_eq(ord_row_has_num(row, "charge"), 0);
	ck_assert_int_eq(ord_row_num(row, "charge", &v), ORD_ENOTFOUND);
	ck_assert_str_eq(ord_error_last(), "t.xml:30: table 'move' row has no value for 'charge'");
	/* "*" matches any value */
	ck_assert(num(chart(t, "hussar", "square"), "reg") == 14);
	ck_assert_str_eq(ord_row_str(chart(t, "hussar", "line"), "arm"), "cavalry");
	/* an attribute not in the match is free; not found names the pairs */
	ck_assert(num(chart(t, "hussar", NULL), "charge") == 16);
	ck_assert_ptr_null(chart(t, "line", "square"));
	ck_assert_ptr_nonnull(strstr(ord_error_last(),
				     "table 'move': no row matches for kind=line, formation=square"));
	/* finding by an attribute that is no key */
	{
		struct ord_kv m;
		ord_kv_init(&m);
		ord_kv_set(&m, "arm", "cavalry");
		ck_assert_int_eq(ord_table_find(&row, tbl, &m), 0);
		ck_assert_str_eq(ord_row_str(row, "kind"), "hussar");
		ck_assert_int_eq(ord_table_find(&row, tbl, NULL), 0);
		ck_assert_uint_eq(ord_row_line(row), 29);
		ord_kv_release(&m);
	}
	/* one pair, without a match list: the same rows, the same message */
	ck_assert_int_eq(ord_table_find1(&row, tbl, "arm", "cavalry"), 0);
	ck_assert_str_eq(ord_row_str(row, "kind"), "hussar");
	ck_assert_int_eq(ord_table_find1(&row, tbl, "formation", "square"), 0); /* "*" */
	ck_assert_str_eq(ord_row_str(row, "kind"), "hussar");
	ck_assert_int_eq(ord_table_find1(&row, tbl, "kind", "lite"), ORD_ENOTFOUND);
	ck_assert_ptr_null(row);
	ck_assert_ptr_nonnull(strstr(ord_error_last(), "table 'move': no row matches for kind=lite"));
	ord_table_key_values(tbl, "kind", &b);
	ck_assert_str_eq(b.buf, "line light hussar");
	ord_buf_reset(&b);
	ord_table_key_values(tbl, "formation", &b);
	ck_assert_str_eq(b.buf, "column line misc");
	ord_buf_release(&b);
	/* a word checked against them, the list only in the message */
	ck_assert_int_eq(ord_table_check_word(tbl, "kind", "light", "kind"), 0);
	ck_assert_int_eq(ord_table_check_word(tbl, "kind", "hussar", "kind"), 0);
	ck_assert_int_eq(ord_table_check_word(tbl, "target_formation", "misc", "formation"), 0);
	ck_assert_int_eq(ord_table_check_word(tbl, "kind", "lite", "kind"), ORD_EUSAGE);
	ck_assert_str_eq(ord_error_last(), "kind: unknown 'lite' (expected one of line light hussar)");
	ck_assert_int_eq(ord_table_check_word(tbl, "kind", "lin", "kind"), ORD_EUSAGE);
	/* "*" in a row matches any value, but is no value itself */
	ck_assert_int_eq(ord_table_check_word(tbl, "formation", "*", "formation"), ORD_EUSAGE);
	ck_assert_int_eq(ord_table_check_word(tbl, "formation", "square", "formation"), ORD_EUSAGE);
	ck_assert_int_eq(ord_table_check_word(tbl, "kind", "", "kind"), ORD_EUSAGE);
	ck_assert_str_eq(ord_error_last(), "kind: missing (expected one of line light hussar)");
	ck_assert_int_eq(ord_table_check_word(tbl, "kind", NULL, "kind"), ORD_EUSAGE);
	ord_tables_free(t);
}
END_TEST

/* ---- errors at load ------------------------------------------------------------------ */

START_TEST(test_missing_to)
{
	assert_load_error("<bands name=\"fire\" title=\"F\">\n"
			  "  <band from=\"0\" to=\"4\"/>\n"
			  "  <band from=\"4\"/>\n"
			  "</bands>\n",
			  ORD_EBADDATA, "t.xml:5: table 'fire' row has no 'to'");
	ck_assert_str_eq(ord_error_last(), "t.xml:5: table 'fire' row has no 'to'");
}
END_TEST

START_TEST(test_malformed_numbers)
{
	assert_load_error("<bands name=\"fire\" title=\"F\">\n"
			  "  <band from=\"0\" to=\"four\"/>\n"
			  "</bands>\n",
			  ORD_EBADDATA, "t.xml:4: table 'fire' row: 'to' is not a number: 'four'");
	assert_load_error("<bands name=\"fire\" title=\"F\">\n"
			  "  <band from=\"-\" to=\"4\"/>\n"
			  "</bands>\n",
			  ORD_EBADDATA, "t.xml:4: table 'fire' row: 'from' is not a number: '-'");
	assert_load_error("<bands name=\"fire\" title=\"F\" columns=\"hits\">\n"
			  "  <band from=\"0\" to=\"4\" hits=\"1/0\"/>\n"
			  "</bands>\n",
			  ORD_EBADDATA, "t.xml:4: table 'fire' row: 'hits' is not a number: '1/0'");
	assert_load_error("<bands name=\"fire\" title=\"F\" columns=\"hits\">\n"
			  "  <band from=\"0\" to=\"4\" hits=\"0x10\"/>\n"
			  "</bands>\n",
			  ORD_EBADDATA, "t.xml:4: table 'fire' row: 'hits' is not a number");
	assert_load_error("<bands name=\"fire\" title=\"F\" columns=\"hits\">\n"
			  "  <band from=\"0\" to=\"4\" hits=\"nan\"/>\n"
			  "</bands>\n",
			  ORD_EBADDATA, "t.xml:4:");
	assert_load_error("<bands name=\"fire\" title=\"F\" columns=\"hits\">\n"
			  "  <band from=\"0\" to=\"4\" hits=\"\"/>\n"
			  "</bands>\n",
			  ORD_EBADDATA, "t.xml:4: table 'fire' row: 'hits' is not a number");
	assert_load_error("<params name=\"p\" title=\"P\">\n"
			  "  <param name=\"x\" value=\"1\"/>\n"
			  "  <param name=\"y\" value=\"1.2.3\"/>\n"
			  "</params>\n",
			  ORD_EBADDATA, "t.xml:5: table 'p' row: 'value' is not a number: '1.2.3'");
	assert_load_error("<params name=\"p\" title=\"P\">\n"
			  "  <param name=\"x\"/>\n"
			  "</params>\n",
			  ORD_EBADDATA, "t.xml:4: table 'p' row has no 'value'");
	assert_load_error("<params name=\"p\" title=\"P\">\n"
			  "  <param value=\"3\"/>\n"
			  "</params>\n",
			  ORD_EBADDATA, "t.xml:4: table 'p' row has no 'name'");
}
END_TEST

START_TEST(test_bad_ranges)
{
	assert_load_error("<bands name=\"fire\" title=\"F\">\n"
			  "  <band from=\"4\" to=\"4\"/>\n"
			  "</bands>\n",
			  ORD_EBADDATA,
			  "t.xml:4: table 'fire' row: 'from' (4) must be below 'to' (4)");
	assert_load_error("<dice name=\"d\" title=\"D\">\n"
			  "  <roll lo=\"3\" hi=\"2\"/>\n"
			  "</dice>\n",
			  ORD_EBADDATA, "t.xml:4: table 'd' row: 'lo' (3) is above 'hi' (2)");
	assert_load_error("<dice name=\"d\" title=\"D\">\n"
			  "  <roll lo=\"1\"/>\n"
			  "</dice>\n",
			  ORD_EBADDATA, "t.xml:4: table 'd' row has no 'hi'");
	assert_load_error("<dice name=\"d\" title=\"D\">\n"
			  "  <roll lo=\"max\" hi=\"3\"/>\n"
			  "</dice>\n",
			  ORD_EBADDATA, "t.xml:4: table 'd' row: 'lo' may be min");
	assert_load_error("<dice name=\"d\" title=\"D\" die=\"1\">\n"
			  "  <roll lo=\"1\" hi=\"3\"/>\n"
			  "</dice>\n",
			  ORD_EBADDATA, "t.xml:3: table 'd' has a bad 'die' '1'");
}
END_TEST

START_TEST(test_declared_columns)
{
	assert_load_error("<chart name=\"c\" title=\"C\" keys=\"kind\" columns=\"reg charge\">\n"
			  "  <row kind=\"a\" reg=\"1\" charge=\"-\"/>\n"
			  "  <row kind=\"b\" reg=\"1\"/>\n"
			  "</chart>\n",
			  ORD_EBADDATA, "t.xml:5: table 'c' row has no 'charge'");
	assert_load_error("<chart name=\"c\" title=\"C\" keys=\"kind\" columns=\"reg\">\n"
			  "  <row reg=\"1\"/>\n"
			  "</chart>\n",
			  ORD_EBADDATA, "t.xml:4: table 'c' row has no 'kind'");
	assert_load_error("<chart name=\"c\" title=\"C\" keys=\"kind\" labels=\"arm\">\n"
			  "  <row kind=\"a\" arm=\" \"/>\n"
			  "</chart>\n",
			  ORD_EBADDATA, "t.xml:4: table 'c' row has an empty 'arm'");
}
END_TEST

START_TEST(test_modifier_rows)
{
	assert_load_error("<modifiers name=\"m\" title=\"M\">\n"
			  "  <mod value=\"1\" label=\"x\"/>\n"
			  "</modifiers>\n",
			  ORD_EBADDATA,
			  "t.xml:4: table 'm' row has no 'mode' (expected sum, fraction, per or times)");
	assert_load_error("<modifiers name=\"m\" title=\"M\">\n"
			  "  <mod mode=\"sum\" label=\"x\"/>\n"
			  "</modifiers>\n",
			  ORD_EBADDATA, "t.xml:4: table 'm' row has no 'value'");
	assert_load_error("<modifiers name=\"m\" title=\"M\">\n"
			  "  <mod mode=\"sum\" value=\"1\"/>\n"
			  "</modifiers>\n",
			  ORD_EBADDATA, "t.xml:4: table 'm' row has no 'label'");
	assert_load_error("<modifiers name=\"m\" title=\"M\">\n"
			  "  <mod mode=\"per\" when=\"a b\" value=\"1\" label=\"x\"/>\n"
			  "</modifiers>\n",
			  ORD_EBADDATA, "needs exactly one name in 'when'");
	/* the schema refuses an unknown mode */
	assert_load_error("<modifiers name=\"m\" title=\"M\">\n"
			  "  <mod mode=\"double\" value=\"1\" label=\"x\"/>\n"
			  "</modifiers>\n",
			  ORD_EBADDATA, "t.xml:4:");
}
END_TEST

START_TEST(test_reconstructed_needs_note)
{
	assert_load_error("<params name=\"p\" title=\"P\" reconstructed=\"yes\">\n"
			  "  <param name=\"x\" value=\"1\"/>\n"
			  "</params>\n",
			  ORD_EBADDATA, "t.xml:3: table 'p' is marked reconstructed but has no note");
	assert_load_error("<params name=\"p\" title=\"P\">\n"
			  "  <param name=\"x\" value=\"1\" reconstructed=\"yes\"/>\n"
			  "</params>\n",
			  ORD_EBADDATA,
			  "t.xml:4: table 'p' row is marked reconstructed but has no note");
}
END_TEST

START_TEST(test_duplicates)
{
	assert_load_error("<params name=\"p\" title=\"P\"><param name=\"x\" value=\"1\"/></params>\n"
			  "<params name=\"p\" title=\"Q\"><param name=\"y\" value=\"1\"/></params>\n",
			  ORD_EBADDATA, "t.xml:4: table 'p' is already defined at line 3");
	assert_load_error("<params name=\"p\" title=\"P\"><param name=\"x\" value=\"1\"/></params>\n"
			  "<params name=\"q\" title=\"Q\">\n<param name=\"x\" value=\"2\"/></params>\n",
			  ORD_EBADDATA, "t.xml:5: parameter 'x' is already defined at line 3");
	assert_load_error("<params name=\"p\" title=\"P\">\n"
			  "<param name=\"x\" value=\"1\"/>\n<param name=\"x\" value=\"1\"/></params>\n",
			  ORD_EBADDATA, "t.xml:5: parameter 'x' is already defined at line 4");
	/* of several names given twice (or thrice), the first in the document
	 * to come again is named, with its first place */
	assert_load_error("<params name=\"p\" title=\"P\">\n"
			  "<param name=\"z\" value=\"1\"/>\n<param name=\"b\" value=\"1\"/>\n"
			  "<param name=\"z\" value=\"2\"/>\n<param name=\"b\" value=\"2\"/>\n"
			  "<param name=\"z\" value=\"3\"/></params>\n",
			  ORD_EBADDATA, "t.xml:6: parameter 'z' is already defined at line 4");
}
END_TEST

START_TEST(test_schema_violations)
{
	/* an unknown table kind */
	assert_load_error("<lookup name=\"x\" title=\"X\"/>\n", ORD_EBADDATA, "t.xml:3:");
	/* a table without a title */
	assert_load_error("<params name=\"p\"><param name=\"x\" value=\"1\"/></params>\n",
			  ORD_EBADDATA, "t.xml:3:");
	/* a mark that is not yes/no */
	assert_load_error("<params name=\"p\" title=\"P\" reconstructed=\"maybe\">"
			  "<note>n</note><param name=\"x\" value=\"1\"/></params>\n",
			  ORD_EBADDATA, "t.xml:3:");
	/* a table name that is no identifier */
	assert_load_error("<params name=\"Bad Name\" title=\"P\"><param name=\"x\" value=\"1\"/></params>\n",
			  ORD_EBADDATA, "t.xml:3:");
	/* an empty table */
	assert_load_error("<params name=\"p\" title=\"P\"></params>\n", ORD_EBADDATA, "t.xml:3:");
	/* a row element of another kind */
	assert_load_error("<params name=\"p\" title=\"P\"><band from=\"0\" to=\"1\"/></params>\n",
			  ORD_EBADDATA, "t.xml:3:");
	/* no tables at all, and no ruleset */
	ck_assert_int_eq(load_err("<tables ruleset=\"x\"/>"), ORD_EBADDATA);
	ck_assert_int_eq(load_err("<tables><params name=\"p\" title=\"P\"><param name=\"x\" value=\"1\"/></params></tables>"),
			 ORD_EBADDATA);
	/* not XML; a DOCTYPE */
	ck_assert_int_eq(load_err("<tables"), ORD_EBADDATA);
	ck_assert_int_eq(load_err("<!DOCTYPE tables [<!ENTITY a \"b\">]><tables ruleset=\"x\"/>"),
			 ORD_EBADDATA);
}
END_TEST

/* ---- printing and formatting ------------------------------------------------------------ */

START_TEST(test_print)
{
	struct ord_tables *t = load_ok(doc_all);
	struct ord_buf out = ORD_BUF_INIT;

	ck_assert_int_eq(ord_tables_print(t, NULL, &out), 0);
	ck_assert_ptr_nonnull(strstr(out.buf, "units — Units\n"));
	ck_assert_ptr_nonnull(strstr(out.buf, "morale — Morale [d6] [R]\n"));
	ck_assert_ptr_nonnull(strstr(out.buf, "  | bands garbled\n"));
	ck_assert_ptr_nonnull(strstr(out.buf, "half      1/2             [R] — lost\n"));
	ck_assert_ptr_nonnull(strstr(out.buf, "rifle   2–16   25    [provisional]\n"));
	ck_assert_ptr_nonnull(strstr(out.buf, "musket  8–12   —\n"));
	ck_assert_ptr_nonnull(strstr(out.buf, "−5 to −1  retreat\n"));
	ck_assert_ptr_nonnull(strstr(out.buf, "≤ −6      rout\n"));
	ck_assert_ptr_nonnull(strstr(out.buf, "≥ 0       good\n"));
	ord_buf_reset(&out);
	ck_assert_int_eq(ord_tables_print(t, "fire", &out), 0);
	ck_assert_str_eq(out.buf, "fire — Fire (in)\n"
				  "  | a note\n"
				  "  weapon  range  hits\n"
				  "  musket  0–4    50\n"
				  "  musket  4–8    25\n"
				  "  musket  8–12   —\n"
				  "  rifle   2–16   25    [provisional]\n");
	ord_buf_reset(&out);
	ck_assert_int_eq(ord_tables_print(t, "nope", &out), ORD_ENOTFOUND);
	ck_assert_str_eq(ord_error_last(),
			 "no table 'nope' in t.xml (expected one of units fire morale mods move)");
	ck_assert_uint_eq(out.len, 0);
	ord_buf_release(&out);
	ord_tables_free(t);
}
END_TEST

START_TEST(test_fmt)
{
	struct ord_buf b = ORD_BUF_INIT;

	ord_tables_fmt(&b, 15, 1);
	ck_assert_str_eq(b.buf, "15");
	ord_buf_reset(&b);
	ord_tables_fmt(&b, 8.0 / 3, 1);
	ck_assert_str_eq(b.buf, "2.67");
	ord_buf_reset(&b);
	ord_tables_fmt(&b, -3, 1);
	ck_assert_str_eq(b.buf, "−3");
	ord_buf_reset(&b);
	ord_tables_fmt(&b, -3, 0);
	ck_assert_str_eq(b.buf, "-3");
	ord_buf_reset(&b);
	ord_tables_fmt(&b, 0.5, 1);
	ck_assert_str_eq(b.buf, "0.5");
	ord_buf_reset(&b);
	ord_tables_fmt(&b, -0.001, 1);
	ck_assert_str_eq(b.buf, "0");
	/* an eighth exactly, not rounded to a number a referee would type back */
	ord_buf_reset(&b);
	ord_tables_fmt(&b, 1.125, 1);
	ck_assert_str_eq(b.buf, "1.125");
	ord_buf_reset(&b);
	ord_tables_fmt(&b, -1.0 / 8, 1);
	ck_assert_str_eq(b.buf, "−0.125");
	ord_buf_reset(&b);
	ord_tables_fmt(&b, 0.25, 1);
	ck_assert_str_eq(b.buf, "0.25");
	ord_buf_release(&b);
}
END_TEST

/* ---- the ranges a module declares ---------------------------------------------------- */

static const char d20_whole[] = "<dice name=\"d20\" title=\"d20\" die=\"20\" keys=\"class\" labels=\"outcome\">\n" /* 3 */
				"  <roll class=\"A\" lo=\"1\" hi=\"16\" outcome=\"good\"/>\n"
				"  <roll class=\"A\" lo=\"17\" hi=\"19\" outcome=\"retreat\"/>\n"
				"  <roll class=\"A\" lo=\"20\" hi=\"20\" outcome=\"rout\"/>\n"
				"  <roll class=\"B C\" lo=\"1\" hi=\"14\" outcome=\"good\"/>\n"
				"  <roll class=\"B C\" lo=\"15\" hi=\"20\" outcome=\"rout\"/>\n"
				"</dice>\n"
				"<dice name=\"morale\" title=\"Morale\" labels=\"outcome\">\n" /* 10 */
				"  <roll lo=\"0\" hi=\"max\" outcome=\"good\"/>\n"
				"  <roll lo=\"-5\" hi=\"-1\" outcome=\"retreat\"/>\n"
				"  <roll lo=\"min\" hi=\"-6\" outcome=\"rout\"/>\n" /* 13 */
				"</dice>\n";
static const struct ord_tables_dice d20_and_morale[] = { { "d20", 0 }, { "morale", 1 } };
static const struct ord_tables_words outcomes[] = {
	{ "morale", "outcome", "good retreat rout" },
	{ "d20", "outcome", "good retreat rout" },
};

/* d20_whole with from replaced by to: the dice (d20_and_morale from first,
 * n of them) or, n == 0, the outcomes are refused with msg. */
static void dice_refused(const char *from, const char *to, size_t first, size_t n, const char *msg)
{
	const char *at = strstr(d20_whole, from);
	struct ord_buf body = ORD_BUF_INIT;
	struct ord_tables *t;
	char *xml;

	ck_assert_ptr_nonnull(at);
	ord_buf_add(&body, d20_whole, (size_t)(at - d20_whole));
	ord_buf_adds(&body, to);
	ord_buf_adds(&body, at + strlen(from));
	xml = wrap(body.buf);
	t = load_ok(xml);
	if (n)
		ck_assert_int_eq(ord_tables_check_dice(t, d20_and_morale + first, n), ORD_EBADDATA);
	else
		ck_assert_int_eq(ord_tables_check_words(t, outcomes, 2), ORD_EBADDATA);
	ck_assert_str_eq(ord_error_last(), msg);
	ord_tables_free(t);
	free(xml);
	ord_buf_release(&body);
}

/* Dice tables answer every roll, for every key they answer at all; labels
 * hold only their words: checked at load, with the line. */
START_TEST(test_check_dice)
{
	static const struct ord_tables_dice wrong_kind[] = { { "fire", 0 } };
	struct ord_tables *t;
	char *xml;

	/* whole: every class's 1..20, every total of the modified table */
	t = load_ok(doc_all);
	ck_assert_int_eq(ord_tables_check_dice(t, d20_and_morale, 2), 0); /* d20: require's */
	ck_assert_int_eq(ord_tables_check_words(t, outcomes, 2), 0);
	ck_assert_int_eq(ord_tables_check_dice(t, wrong_kind, 1), ORD_EBADDATA);
	ck_assert_str_eq(ord_error_last(),
			 "t.xml:7: table 'fire' is a bands table (expected a dice table)");
	ord_tables_free(t);
	xml = wrap(d20_whole);
	t = load_ok(xml);
	ck_assert_int_eq(ord_tables_check_dice(t, d20_and_morale, 2), 0);
	ck_assert_int_eq(ord_tables_check_words(t, outcomes, 2), 0);
	ord_tables_free(t);
	free(xml);

	/* class A's 17 to 19 cut to 18: only class A is short */
	dice_refused("hi=\"19\"", "hi=\"18\"", 0, 2,
		     "t.xml:3: table 'd20' has no row for the roll 19 for class=A (a table read by one die must hold every roll)");
	/* the modified table with a gap, and stopping short of max */
	dice_refused("lo=\"-5\"", "lo=\"-4\"", 1, 1,
		     "t.xml:10: table 'morale' has no row for the roll -5 (a table read by dice and modifiers must hold every roll)");
	dice_refused("hi=\"max\"", "hi=\"900\"", 1, 1,
		     "t.xml:10: table 'morale' has no row for a roll above its last (its first row must begin at 'min' and its last end at 'max': modifiers may take a roll anywhere)");
	/* a table read by one die must say its die */
	dice_refused(" die=\"20\"", "", 0, 1,
		     "t.xml:3: table 'd20' gives no die (expected die=\"N\": it is read by one die)");
	/* a label's word that is none of the module's */
	dice_refused("outcome=\"rout\"/>\n  <roll class=\"B C\"",
		     "outcome=\"rut!\"/>\n  <roll class=\"B C\"", 0, 0,
		     "t.xml:6: table 'd20' row: 'outcome' is 'rut!' (expected one of good retreat rout)");
}
END_TEST

START_TEST(test_check_ranges)
{
	static const struct ord_tables_range ranges[] = {
		{ NULL, "die", 2, 1000, 1 },
		{ NULL, "share", 0, 1, 0 },
		{ "fire", "hits", 0, 100, 0 },
		{ NULL, "absent", 0, 1, 0 }, /* missing: ord_tables_require's to say */
	};
	static const struct ord_tables_range open_range[] = { { NULL, "die", 1, INFINITY, 1 } };
	struct ord_tables *t;
	char *xml;

	/* within: a column's "-" is no number to check */
	xml = wrap("<params name=\"p\" title=\"P\">\n"
		   "  <param name=\"die\" value=\"6\"/>\n"
		   "  <param name=\"share\" value=\"1/2\"/>\n"
		   "</params>\n"
		   "<bands name=\"fire\" title=\"F\" columns=\"hits\">\n"
		   "  <band from=\"0\" to=\"4\" hits=\"100\"/>\n"
		   "  <band from=\"4\" to=\"8\" hits=\"-\"/>\n"
		   "</bands>\n");
	t = load_ok(xml);
	ck_assert_int_eq(ord_tables_check_ranges(t, ranges, 4), 0);
	ord_tables_free(t);
	free(xml);

	/* a die of no faces, of -1, of more than an int holds, of half a face */
	xml = wrap("<params name=\"p\" title=\"P\">\n"
		   "  <param name=\"die\" value=\"0\"/>\n"
		   "</params>\n");
	t = load_ok(xml);
	ck_assert_int_eq(ord_tables_check_ranges(t, ranges, 4), ORD_EBADDATA);
	ck_assert_str_eq(ord_error_last(),
			 "t.xml:4: parameter 'die' is 0 (expected a whole number from 2 to 1000)");
	ck_assert_int_eq(ord_tables_check_ranges(t, open_range, 1), ORD_EBADDATA);
	ck_assert_str_eq(ord_error_last(),
			 "t.xml:4: parameter 'die' is 0 (expected a whole number of 1 or more)");
	ord_tables_free(t);
	free(xml);
	xml = wrap("<params name=\"p\" title=\"P\">\n"
		   "  <param name=\"die\" value=\"99999999999\"/>\n"
		   "</params>\n");
	t = load_ok(xml);
	ck_assert_int_eq(ord_tables_check_ranges(t, ranges, 4), ORD_EBADDATA);
	ck_assert_str_eq(ord_error_last(),
			 "t.xml:4: parameter 'die' is 99999999999 (expected a whole number from 2 to 1000)");
	ord_tables_free(t);
	free(xml);
	xml = wrap("<params name=\"p\" title=\"P\">\n"
		   "  <param name=\"die\" value=\"13/2\"/>\n"
		   "</params>\n");
	t = load_ok(xml);
	ck_assert_int_eq(ord_tables_check_ranges(t, ranges, 4), ORD_EBADDATA);
	ck_assert_str_eq(ord_error_last(),
			 "t.xml:4: parameter 'die' is 13/2 (expected a whole number from 2 to 1000)");
	ord_tables_free(t);
	free(xml);

	/* a share above its whole; a column's row, by its line */
	xml = wrap("<params name=\"p\" title=\"P\">\n"
		   "  <param name=\"share\" value=\"3/2\"/>\n"
		   "</params>\n");
	t = load_ok(xml);
	ck_assert_int_eq(ord_tables_check_ranges(t, ranges, 4), ORD_EBADDATA);
	ck_assert_str_eq(ord_error_last(),
			 "t.xml:4: parameter 'share' is 3/2 (expected a number from 0 to 1)");
	ord_tables_free(t);
	free(xml);
	xml = wrap("<bands name=\"fire\" title=\"F\" columns=\"hits\">\n"
		   "  <band from=\"0\" to=\"4\" hits=\"50\"/>\n"
		   "  <band from=\"4\" to=\"8\" hits=\"-5\"/>\n"
		   "</bands>\n");
	t = load_ok(xml);
	ck_assert_int_eq(ord_tables_check_ranges(t, ranges, 4), ORD_EBADDATA);
	ck_assert_str_eq(ord_error_last(),
			 "t.xml:5: table 'fire' row: 'hits' is -5 (expected a number from 0 to 100)");
	ord_tables_free(t);
	free(xml);
}
END_TEST

/* A document a user hands in: every table and parameter one of the
 * ruleset's own (doc_all here), of the same kind; names left out are for
 * the module to judge; the first name at fault in the document is named,
 * with the one it may have meant. */
static void assert_names(const char *body, int code, const char *msg)
{
	struct ord_tables *own = load_ok(doc_all), *t;
	char *xml = wrap(body);

	t = load_ok(xml); /* load itself takes any name: a game's kept tables */
	ck_assert_int_eq(ord_tables_check_names(t, own), code);
	if (msg)
		ck_assert_str_eq(ord_error_last(), msg);
	ord_tables_free(t);
	ord_tables_free(own);
	free(xml);
}

START_TEST(test_check_names)
{
	struct ord_tables *own = load_ok(doc_all);

	/* the ruleset's own document, and one that leaves tables and
	 * parameters out */
	ck_assert_int_eq(ord_tables_check_names(own, own), 0);
	ord_tables_free(own);
	assert_names("<params name=\"units\" title=\"U\"><param name=\"half\" value=\"1\"/></params>\n",
		     0, NULL);
	/* a misspelt parameter: it would be read by nothing, the built-in
	 * value in force */
	assert_names("<params name=\"units\" title=\"U\">\n"
		     "  <param name=\"per_tray\" value=\"4\"/>\n"
		     "  <param name=\"per_trey\" value=\"5\"/>\n"
		     "</params>\n",
		     ORD_EBADDATA,
		     "t.xml:5: unknown parameter 'per_trey' (ruleset 'test' reads no parameter of that name): did you mean 'per_tray'?");
	/* nothing close: no hint */
	assert_names("<params name=\"units\" title=\"U\">\n"
		     "  <param name=\"figures\" value=\"5\"/>\n"
		     "</params>\n",
		     ORD_EBADDATA,
		     "t.xml:4: unknown parameter 'figures' (ruleset 'test' reads no parameter of that name)");
	/* a table of a name the ruleset does not read, before a parameter */
	assert_names("<chart name=\"moves\" title=\"M\" keys=\"kind\">\n"
		     "  <row kind=\"line\"/>\n"
		     "</chart>\n"
		     "<params name=\"units\" title=\"U\"><param name=\"x\" value=\"1\"/></params>\n",
		     ORD_EBADDATA,
		     "t.xml:3: unknown table 'moves' (ruleset 'test' reads no table of that name): did you mean 'move'?");
	assert_names("<params name=\"unit\" title=\"U\"><param name=\"half\" value=\"1\"/></params>\n",
		     ORD_EBADDATA,
		     "t.xml:3: unknown table 'unit' (ruleset 'test' reads no table of that name): did you mean 'units'?");
	/* a known name of another kind */
	assert_names("<params name=\"move\" title=\"M\"><param name=\"half\" value=\"1\"/></params>\n",
		     ORD_EBADDATA,
		     "t.xml:3: table 'move' is a params table (expected a chart table, as ruleset 'test' reads it)");
}
END_TEST

/* check, of a document a user hands in, against own (the ruleset's
 * document, or NULL): refused with msg, or taken when msg is NULL. */
static void assert_given(int (*check)(const struct ord_tables *, const struct ord_tables *),
			 const char *body, const char *own_body, const char *msg)
{
	char *xml = wrap(body), *own_xml = own_body ? wrap(own_body) : NULL;
	struct ord_tables *t = load_ok(xml), *own = own_xml ? load_ok(own_xml) : NULL;

	/* load takes them all: a game's kept tables */
	ck_assert_int_eq(check(t, own), msg ? ORD_EBADDATA : 0);
	if (msg)
		ck_assert_str_eq(ord_error_last(), msg);
	ord_tables_free(t);
	ord_tables_free(own);
	free(xml);
	free(own_xml);
}

/* A document a user hands in: no case given by two rows, so that which
 * is read would depend on their order. */
static void assert_rows(const char *body, const char *own_body, const char *msg)
{
	assert_given(ord_tables_check_rows, body, own_body, msg);
}

START_TEST(test_check_rows)
{
	struct ord_tables *all = load_ok(doc_all);
	struct ord_buf big = ORD_BUF_INIT;
	int i;

	ck_assert_int_eq(ord_tables_check_rows(all, NULL), 0);
	ck_assert_int_eq(ord_tables_check_rows(all, all), 0);
	ord_tables_free(all);

	/* charts: the same keys; keys in common; a row an earlier "*" takes in */
	assert_rows("<chart name=\"m\" title=\"M\" keys=\"kind formation\" columns=\"reg\">\n"
		    "  <row kind=\"line\" formation=\"column\" reg=\"8\"/>\n"
		    "  <row kind=\"light\" formation=\"column\" reg=\"9\"/>\n"
		    "  <row formation=\"column\" kind=\"line\" reg=\"10\"/>\n"
		    "</chart>\n",
		    NULL,
		    "t.xml:6: table 'm': the row for kind=line formation=column is given twice (first at line 4): only the first is read");
	assert_rows("<chart name=\"m\" title=\"M\" keys=\"kind formation\" columns=\"reg\">\n"
		    "  <row kind=\"line light\" formation=\"column line\" reg=\"8\"/>\n"
		    "  <row kind=\"guard light\" formation=\"line\" reg=\"9\"/>\n"
		    "</chart>\n",
		    NULL,
		    "t.xml:5: table 'm': the row for kind=light formation=line is given twice (first at line 4): only the first is read");
	assert_rows("<chart name=\"m\" title=\"M\" keys=\"kind formation\" columns=\"reg\">\n"
		    "  <row kind=\"line\" formation=\"*\" reg=\"8\"/>\n"
		    "  <row kind=\"line\" formation=\"square\" reg=\"4\"/>\n"
		    "</chart>\n",
		    NULL,
		    "t.xml:5: table 'm': the row for kind=line formation=square is given twice (first at line 4): only the first is read");
	/* a default after the particular cases, rows of other cases, a
	 * chart read by what its rows hold (no keys): all allowed */
	assert_rows("<chart name=\"m\" title=\"M\" keys=\"kind formation\" columns=\"reg\">\n"
		    "  <row kind=\"line\" formation=\"square\" reg=\"4\"/>\n"
		    "  <row kind=\"line light\" formation=\"column\" reg=\"8\"/>\n"
		    "  <row kind=\"line\" formation=\"*\" reg=\"6\"/>\n"
		    "  <row kind=\"*\" formation=\"*\" reg=\"5\"/>\n"
		    "</chart>\n"
		    "<chart name=\"n\" title=\"N\" columns=\"fra\">\n"
		    "  <row fra=\"75\"/>\n"
		    "  <row fra=\"75\"/>\n"
		    "</chart>\n",
		    NULL, NULL);

	/* dice: rolls that meet, for keys in common */
	assert_rows("<dice name=\"d\" title=\"D\" labels=\"outcome\">\n"
		    "  <roll lo=\"0\" hi=\"max\" outcome=\"good\"/>\n"
		    "  <roll lo=\"min\" hi=\"0\" outcome=\"rout\"/>\n"
		    "</dice>\n",
		    NULL,
		    "t.xml:5: table 'd': the roll 0 is given twice (first at line 4): only the first is read");
	assert_rows("<dice name=\"d\" title=\"D\" die=\"20\" keys=\"class\" labels=\"outcome\">\n"
		    "  <roll class=\"A\" lo=\"1\" hi=\"16\" outcome=\"good\"/>\n"
		    "  <roll class=\"B\" lo=\"1\" hi=\"14\" outcome=\"good\"/>\n"
		    "  <roll class=\"B\" lo=\"15\" hi=\"20\" outcome=\"rout\"/>\n"
		    "  <roll class=\"A B\" lo=\"14\" hi=\"20\" outcome=\"rout\"/>\n"
		    "</dice>\n",
		    NULL,
		    "t.xml:7: table 'd': the rolls 14..16 for class=A are given twice (first at line 4): only the first is read");
	/* bands: ranges that meet; the next band's edge does not */
	assert_rows("<bands name=\"f\" title=\"F\" keys=\"weapon\" columns=\"hits\">\n"
		    "  <band weapon=\"musket\" from=\"0\" to=\"4\" hits=\"50\"/>\n"
		    "  <band weapon=\"musket\" from=\"4\" to=\"8\" hits=\"25\"/>\n"
		    "  <band weapon=\"rifle musket\" from=\"6\" to=\"12\" hits=\"25\"/>\n"
		    "</bands>\n",
		    NULL,
		    "t.xml:6: table 'f': the range (6, 8] for weapon=musket is given twice (first at line 5): only the first is read");

	/* rows the ruleset's own table gives twice are read in order by its
	 * module: its thresholds are not checked, its other tables are */
	assert_rows("<chart name=\"r\" title=\"R\" keys=\"brug\" columns=\"fra\">\n"
		    "  <row brug=\"skydning\" fra=\"60\"/>\n"
		    "  <row brug=\"skydning\" fra=\"20\"/>\n"
		    "</chart>\n",
		    "<chart name=\"r\" title=\"R\" keys=\"brug\" columns=\"fra\">\n"
		    "  <row brug=\"skydning\" fra=\"75\"/>\n"
		    "  <row brug=\"skydning\" fra=\"25\"/>\n"
		    "</chart>\n",
		    NULL);
	assert_rows("<chart name=\"r\" title=\"R\" keys=\"brug\" columns=\"fra\">\n"
		    "  <row brug=\"skydning\" fra=\"60\"/>\n"
		    "  <row brug=\"skydning\" fra=\"20\"/>\n"
		    "</chart>\n",
		    "<chart name=\"r\" title=\"R\" keys=\"brug\" columns=\"fra\">\n"
		    "  <row brug=\"skydning\" fra=\"75\"/>\n"
		    "</chart>\n",
		    "t.xml:5: table 'r': the row for brug=skydning is given twice (first at line 4): only the first is read");

	/* a table of thousands of rows: keys written alike, found in order of
	 * their start (the table starts on line 3, its rows on 4...) */
	ord_buf_adds(&big, "<dice name=\"d\" title=\"D\" keys=\"k\" labels=\"o\">\n");
	for (i = 0; i < 1500; i++)
		ord_buf_addf(&big, "  <roll k=\"a%d b\" lo=\"1\" hi=\"6\" o=\"x\"/>\n", i);
	ord_buf_adds(&big, "  <roll k=\"b a700\" lo=\"6\" hi=\"9\" o=\"x\"/>\n</dice>\n");
	assert_rows(big.buf, NULL,
		    "t.xml:1504: table 'd': the roll 6 for k=a700 is given twice (first at line 704): only the first is read");
	for (i = 0; i < 2; i++) {
		int j;

		ord_buf_reset(&big);
		ord_buf_adds(&big, "<chart name=\"c\" title=\"C\" keys=\"k\">\n");
		for (j = 0; j < 1500; j++)
			ord_buf_addf(&big, "  <row k=\"a%d\"/>\n", j);
		ord_buf_adds(&big, i ? "  <row k=\"a1499\"/>\n</chart>\n" : "</chart>\n");
		assert_rows(big.buf, NULL,
			    i ? "t.xml:1504: table 'c': the row for k=a1499 is given twice (first at line 1503): only the first is read"
			      : NULL);
	}
	ord_buf_release(&big);
}
END_TEST

/* A document a user hands in: the bands and rolls of each case join end
 * to end, and begin and end where the ruleset's own (own_joins here) do. */
static const char own_joins[] = "<bands name=\"f\" title=\"F\" keys=\"weapon\" columns=\"hits\">\n"
				"  <band weapon=\"musket\" from=\"0\" to=\"4\" hits=\"50\"/>\n"
				"  <band weapon=\"musket\" from=\"4\" to=\"8\" hits=\"25\"/>\n"
				"  <band weapon=\"rifle\" from=\"0\" to=\"4\" hits=\"50\"/>\n"
				"  <band weapon=\"rifle\" from=\"4\" to=\"12\" hits=\"25\"/>\n"
				"</bands>\n"
				"<dice name=\"d\" title=\"D\" die=\"20\" keys=\"class\" labels=\"outcome\">\n"
				"  <roll class=\"A\" lo=\"1\" hi=\"16\" outcome=\"good\"/>\n"
				"  <roll class=\"A\" lo=\"17\" hi=\"20\" outcome=\"rout\"/>\n"
				"  <roll class=\"B\" lo=\"1\" hi=\"14\" outcome=\"good\"/>\n"
				"  <roll class=\"B\" lo=\"15\" hi=\"20\" outcome=\"rout\"/>\n"
				"</dice>\n"
				"<dice name=\"m\" title=\"M\" labels=\"outcome\">\n"
				"  <roll lo=\"0\" hi=\"max\" outcome=\"good\"/>\n"
				"  <roll lo=\"-5\" hi=\"-1\" outcome=\"retreat\"/>\n"
				"  <roll lo=\"min\" hi=\"-6\" outcome=\"rout\"/>\n"
				"</dice>\n";

/* ... and every case's rows join end to end. */
static void assert_joins(const char *body, const char *own_body, const char *msg)
{
	assert_given(ord_tables_check_joins, body, own_body, msg);
}

START_TEST(test_check_joins)
{
	char *own_xml_joins = wrap(own_joins);
	struct ord_tables *own = load_ok(own_xml_joins);
	struct ord_buf big = ORD_BUF_INIT;
	int i;

	ck_assert_int_eq(ord_tables_check_joins(own, own), 0);
	ck_assert_int_eq(ord_tables_check_joins(own, NULL), 0);
	ord_tables_free(own);
	free(own_xml_joins);

	/* bands: a gap between two of a case */
	assert_joins("<bands name=\"f\" title=\"F\" keys=\"weapon\" columns=\"hits\">\n"
		     "  <band weapon=\"musket\" from=\"0\" to=\"4\" hits=\"50\"/>\n"
		     "  <band weapon=\"musket\" from=\"5\" to=\"8\" hits=\"25\"/>\n"
		     "</bands>\n",
		     own_joins,
		     "t.xml:5: table 'f': no row gives the range (4, 5] for weapon=musket (the bands before end at 4, this one begins at 5)");
	/* ... with no document to hold it to, too */
	assert_joins("<bands name=\"f\" title=\"F\" keys=\"weapon\" columns=\"hits\">\n"
		     "  <band weapon=\"musket\" from=\"0\" to=\"4\" hits=\"50\"/>\n"
		     "  <band weapon=\"musket\" from=\"5\" to=\"8\" hits=\"25\"/>\n"
		     "</bands>\n",
		     NULL,
		     "t.xml:5: table 'f': no row gives the range (4, 5] for weapon=musket (the bands before end at 4, this one begins at 5)");
	/* rows out of order, listing several words, a "*" filling a gap of
	 * each case: every case joins */
	assert_joins("<bands name=\"f\" title=\"F\" keys=\"weapon\" columns=\"hits\">\n"
		     "  <band weapon=\"rifle\" from=\"8\" to=\"12\" hits=\"25\"/>\n"
		     "  <band weapon=\"musket rifle\" from=\"0\" to=\"4\" hits=\"50\"/>\n"
		     "  <band weapon=\"musket\" from=\"6\" to=\"8\" hits=\"25\"/>\n"
		     "  <band weapon=\"*\" from=\"4\" to=\"6\" hits=\"30\"/>\n"
		     "  <band weapon=\"rifle\" from=\"6\" to=\"8\" hits=\"25\"/>\n"
		     "</bands>\n",
		     own_joins, NULL);
	/* the first band begins past the ruleset's own first */
	assert_joins("<bands name=\"f\" title=\"F\" keys=\"weapon\" columns=\"hits\">\n"
		     "  <band weapon=\"musket\" from=\"4\" to=\"8\" hits=\"25\"/>\n"
		     "  <band weapon=\"musket\" from=\"1\" to=\"4\" hits=\"50\"/>\n"
		     "</bands>\n",
		     own_joins,
		     "t.xml:5: table 'f': no row gives the range [0, 1) for weapon=musket (the first band begins at 1, the ruleset's own at 0)");
	/* the last ends short of the ruleset's own, or past it: a reach the
	 * club corrects (past it, "out of range") */
	assert_joins("<bands name=\"f\" title=\"F\" keys=\"weapon\" columns=\"hits\">\n"
		     "  <band weapon=\"rifle\" from=\"0\" to=\"4\" hits=\"50\"/>\n"
		     "  <band weapon=\"rifle\" from=\"4\" to=\"8\" hits=\"25\"/>\n"
		     "</bands>\n",
		     own_joins, NULL);
	assert_joins("<bands name=\"f\" title=\"F\" keys=\"weapon\" columns=\"hits\">\n"
		     "  <band weapon=\"musket\" from=\"0\" to=\"4\" hits=\"50\"/>\n"
		     "  <band weapon=\"musket\" from=\"4\" to=\"10\" hits=\"25\"/>\n"
		     "</bands>\n",
		     own_joins, NULL);
	/* a case the ruleset's own has not: where all its cases begin; its
	 * cases end apart, so not where it ends */
	assert_joins("<bands name=\"f\" title=\"F\" keys=\"weapon\" columns=\"hits\">\n"
		     "  <band weapon=\"carbine\" from=\"0\" to=\"5\" hits=\"50\"/>\n"
		     "</bands>\n",
		     own_joins, NULL);
	assert_joins("<bands name=\"f\" title=\"F\" keys=\"weapon\" columns=\"hits\">\n"
		     "  <band weapon=\"carbine\" from=\"1\" to=\"5\" hits=\"50\"/>\n"
		     "</bands>\n",
		     own_joins,
		     "t.xml:4: table 'f': no row gives the range [0, 1) for weapon=carbine (the first band begins at 1, the ruleset's own at 0)");
	/* the first fault in the document is named */
	assert_joins("<bands name=\"f\" title=\"F\" keys=\"weapon\" columns=\"hits\">\n"
		     "  <band weapon=\"rifle\" from=\"0\" to=\"4\" hits=\"50\"/>\n"
		     "  <band weapon=\"musket\" from=\"0\" to=\"3\" hits=\"50\"/>\n"
		     "  <band weapon=\"musket\" from=\"4\" to=\"8\" hits=\"25\"/>\n"
		     "  <band weapon=\"rifle\" from=\"5\" to=\"12\" hits=\"25\"/>\n"
		     "</bands>\n",
		     own_joins,
		     "t.xml:6: table 'f': no row gives the range (3, 4] for weapon=musket (the bands before end at 3, this one begins at 4)");

	/* dice: a roll, or rolls, no row of a case gives */
	assert_joins("<dice name=\"d\" title=\"D\" die=\"20\" keys=\"class\" labels=\"outcome\">\n"
		     "  <roll class=\"A B\" lo=\"1\" hi=\"14\" outcome=\"good\"/>\n"
		     "  <roll class=\"A\" lo=\"15\" hi=\"16\" outcome=\"good\"/>\n"
		     "  <roll class=\"A\" lo=\"19\" hi=\"20\" outcome=\"rout\"/>\n"
		     "  <roll class=\"B\" lo=\"15\" hi=\"20\" outcome=\"rout\"/>\n"
		     "</dice>\n",
		     own_joins,
		     "t.xml:6: table 'd': no row gives the rolls 17..18 for class=A (the rows before end at 16, this one begins at 19)");
	assert_joins("<dice name=\"d\" title=\"D\" die=\"20\" keys=\"class\" labels=\"outcome\">\n"
		     "  <roll class=\"A\" lo=\"1\" hi=\"16\" outcome=\"good\"/>\n"
		     "  <roll class=\"A\" lo=\"18\" hi=\"20\" outcome=\"rout\"/>\n"
		     "</dice>\n",
		     own_joins,
		     "t.xml:5: table 'd': no row gives the roll 17 for class=A (the rows before end at 16, this one begins at 18)");
	assert_joins("<dice name=\"d\" title=\"D\" die=\"20\" keys=\"class\" labels=\"outcome\">\n"
		     "  <roll class=\"B\" lo=\"1\" hi=\"14\" outcome=\"good\"/>\n"
		     "  <roll class=\"B\" lo=\"15\" hi=\"19\" outcome=\"rout\"/>\n"
		     "</dice>\n",
		     own_joins,
		     "t.xml:5: table 'd': no row gives the roll 20 for class=B (the last row ends at 19, the ruleset's own at 20)");
	/* open ends: a table read by dice and modifiers begins at min */
	assert_joins("<dice name=\"m\" title=\"M\" labels=\"outcome\">\n"
		     "  <roll lo=\"0\" hi=\"max\" outcome=\"good\"/>\n"
		     "  <roll lo=\"-5\" hi=\"-1\" outcome=\"retreat\"/>\n"
		     "  <roll lo=\"-10\" hi=\"-6\" outcome=\"rout\"/>\n"
		     "</dice>\n",
		     own_joins,
		     "t.xml:6: table 'm': no row gives the rolls min..-11 (the first row begins at -10, the ruleset's own at min)");
	assert_joins("<dice name=\"m\" title=\"M\" labels=\"outcome\">\n"
		     "  <roll lo=\"min\" hi=\"-1\" outcome=\"rout\"/>\n"
		     "  <roll lo=\"0\" hi=\"max\" outcome=\"good\"/>\n"
		     "</dice>\n",
		     own_joins, NULL);

	/* a case the ruleset's own table leaves a gap in is its module's
	 * reading: that table is not held to the check */
	assert_joins("<bands name=\"f\" title=\"F\" keys=\"weapon\" columns=\"hits\">\n"
		     "  <band weapon=\"musket\" from=\"0\" to=\"4\" hits=\"50\"/>\n"
		     "  <band weapon=\"musket\" from=\"6\" to=\"8\" hits=\"25\"/>\n"
		     "</bands>\n",
		     "<bands name=\"f\" title=\"F\" keys=\"weapon\" columns=\"hits\">\n"
		     "  <band weapon=\"musket\" from=\"0\" to=\"4\" hits=\"50\"/>\n"
		     "  <band weapon=\"musket\" from=\"5\" to=\"8\" hits=\"25\"/>\n"
		     "</bands>\n",
		     NULL);

	/* a table of thousands of rows; one of rows naming thousands of
	 * words for each of two keys (millions of cases: the first read) */
	ord_buf_adds(&big, "<bands name=\"b\" title=\"B\" keys=\"k\" columns=\"v\">\n");
	for (i = 0; i < 1500; i++)
		ord_buf_addf(&big, "  <band k=\"a%d\" from=\"0\" to=\"4\" v=\"1\"/>\n", i);
	ord_buf_adds(&big, "  <band k=\"a700\" from=\"5\" to=\"8\" v=\"1\"/>\n</bands>\n");
	assert_joins(big.buf, NULL,
		     "t.xml:1504: table 'b': no row gives the range (4, 5] for k=a700 (the bands before end at 4, this one begins at 5)");
	ord_buf_reset(&big);
	ord_buf_adds(&big, "<bands name=\"b\" title=\"B\" keys=\"k l\" columns=\"v\">\n  <band k=\"");
	for (i = 0; i < 3000; i++)
		ord_buf_addf(&big, " a%d", i);
	ord_buf_adds(&big, "\" l=\"");
	for (i = 0; i < 3000; i++)
		ord_buf_addf(&big, " b%d", i);
	ord_buf_adds(&big, "\" from=\"0\" to=\"4\" v=\"1\"/>\n</bands>\n");
	assert_joins(big.buf, NULL, NULL);
	ord_buf_release(&big);
}
END_TEST

Suite *ord_test_suite(void)
{
	Suite *s = suite_create("tables");
	TCase *tc = tcase_create("engine");

	tcase_add_test(tc, test_load_and_accessors);
	tcase_add_test(tc, test_params);
	tcase_add_test(tc, test_band_edges);
	tcase_add_test(tc, test_row_values);
	tcase_add_test(tc, test_dice);
	tcase_add_test(tc, test_dice_keyed);
	tcase_add_test(tc, test_modifiers);
	tcase_add_test(tc, test_modifiers_unconditional);
	tcase_add_test(tc, test_modifiers_labels);
	tcase_add_test(tc, test_apply_wrong_kind);
	tcase_add_test(tc, test_chart);
	tcase_add_test(tc, test_index_as_rows);
	tcase_add_test(tc, test_missing_to);
	tcase_add_test(tc, test_malformed_numbers);
	tcase_add_test(tc, test_bad_ranges);
	tcase_add_test(tc, test_declared_columns);
	tcase_add_test(tc, test_modifier_rows);
	tcase_add_test(tc, test_reconstructed_needs_note);
	tcase_add_test(tc, test_duplicates);
	tcase_add_test(tc, test_schema_violations);
	tcase_add_test(tc, test_print);
	tcase_add_test(tc, test_fmt);
	tcase_add_test(tc, test_check_ranges);
	tcase_add_test(tc, test_check_dice);
	tcase_add_test(tc, test_check_names);
	tcase_add_test(tc, test_check_rows);
	tcase_add_test(tc, test_check_joins);
	suite_add_tcase(s, tc);
	return s;
}
