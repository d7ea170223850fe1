/*
 * check_hieroglyph.c - the hieroglyph order notation: what a sheet parses
 * to, the canonical form it prints, and every syntax error with its exact
 * line:col.  Cases are tables so that a mistake found in a real sheet
 * becomes one more row.
 */
#include <check.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/common.h"
#include "notation.h"

extern const struct ord_notation ord_notation_hieroglyph;

#define SHEET_NOTATION ord_notation_hieroglyph
#include "sheet_fixture.h"

static void assert_tok(const struct ord_order *o, size_t i, enum ord_tok_kind kind,
		       const char *value, int num, unsigned col, unsigned group)
{
	ck_assert_uint_gt(o->ntok, i);
	ck_assert_int_eq(o->tok[i].kind, kind);
	ck_assert_str_eq(o->tok[i].value, value);
	ck_assert_int_eq(o->tok[i].num, num);
	ck_assert_uint_eq(o->tok[i].col, col);
	ck_assert_uint_eq(o->tok[i].group, group);
	ck_assert_ptr_null(o->tok[i].arg);
}

static void assert_diag(size_t i, unsigned line, unsigned col, const char *unit, const char *msg)
{
	ck_assert_uint_gt(diag.n, i);
	ck_assert_uint_eq(diag.items[i].line, line);
	ck_assert_uint_eq(diag.items[i].col, col);
	ck_assert_str_eq(diag.items[i].unit, unit);
	ck_assert_str_eq(diag.items[i].msg, msg);
	ck_assert_str_eq(diag.items[i].rule, "");
}

/* ---- the interface ----------------------------------------------------- */

START_TEST(test_registered)
{
	const struct ord_notation *n = NULL;

	ck_assert_int_eq(ord_notation_find(&n, "hieroglyph"), 0);
	ck_assert_ptr_eq(n, &ord_notation_hieroglyph);
	ck_assert_uint_eq(ord_notation_hieroglyph.version, ORD_NOTATION_VERSION);
	ck_assert_str_eq(ord_notation_hieroglyph.name, "hieroglyph");
}
END_TEST

START_TEST(test_empty_sheets)
{
	assert_clean(parse(""));
	assert_clean(parse("\n\n   \n\t\n"));
	assert_clean(parse("# nothing but comments\n  # indented\n#\n"));
	ck_assert_uint_eq(sheet.n, 0);
	assert_clean(parse_n(NULL, 0));
	ck_assert_uint_eq(sheet.n, 0);
}
END_TEST

/* ---- valid sheets ------------------------------------------------------ */

START_TEST(test_basic_order)
{
	assert_clean(parse("B1 ↑ 1/2 FCol\n"));
	ck_assert_uint_eq(sheet.n, 1);
	assert_order(0, "B1", 1, 1, 3);
	assert_tok(&sheet.orders[0], 0, ORD_TOK_DIR, "↑", 0, 4, 1);
	assert_tok(&sheet.orders[0], 1, ORD_TOK_FRAC, "1/2", 2, 6, 2);
	assert_tok(&sheet.orders[0], 2, ORD_TOK_CODE, "FCol", 0, 10, 3);
}
END_TEST

START_TEST(test_arrows)
{
	static const char *const arrows[] = { "↑", "↗", "→", "↘", "↓", "↙", "←", "↖" };
	size_t i;

	assert_clean(parse("A ↑\nB ↗\nC →\nD ↘\nE ↓\nF ↙\nG ←\nH ↖"));
	ck_assert_uint_eq(sheet.n, 8);
	for (i = 0; i < 8; i++) {
		assert_order(i, (char[]){ (char)('A' + i), 0 }, (unsigned)i + 1, 1, 1);
		assert_tok(&sheet.orders[i], 0, ORD_TOK_DIR, arrows[i], 45 * (int)i, 3, 1);
	}
}
END_TEST

START_TEST(test_ascii_directions)
{
	static const struct {
		const char *text, *value;
		int deg;
	} cases[] = {
		{ "^N", "↑", 0 },     { "^ne", "↗", 45 },     { "^E", "→", 90 },
		{ "^Se", "↘", 135 },  { "^s", "↓", 180 },     { "^SW", "↙", 225 },
		{ "^w", "←", 270 },   { "^nW", "↖", 315 },    { "^000", "↑", 0 },
		{ "^045", "↗", 45 },  { "^010", "^010", 10 }, { "^359", "^359", 359 },
		{ "^270", "←", 270 }, { "^001", "^001", 1 },
	};
	struct ord_buf b = ORD_BUF_INIT;
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(cases); i++)
		ord_buf_addf(&b, "U%zu %s\n", i, cases[i].text);
	assert_clean(parse(b.buf));
	ck_assert_uint_eq(sheet.n, ORD_ARRAY_SIZE(cases));
	for (i = 0; i < ORD_ARRAY_SIZE(cases); i++) {
		ck_assert_uint_eq(sheet.orders[i].ntok, 1);
		assert_tok(&sheet.orders[i], 0, ORD_TOK_DIR, cases[i].value, cases[i].deg,
			   i < 10 ? 4 : 5, 1);
	}
	ord_buf_release(&b);
}
END_TEST

START_TEST(test_fractions)
{
	static const struct {
		const char *text, *value;
		int quarters;
	} cases[] = {
		{ "1/4", "1/4", 1 }, { "1/2", "1/2", 2 }, { "3/4", "3/4", 3 }, { "1", "1", 4 },
		{ "4/4", "1", 4 },   { "¼", "1/4", 1 },   { "½", "1/2", 2 },   { "¾", "3/4", 3 },
	};
	struct ord_buf b = ORD_BUF_INIT;
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(cases); i++)
		ord_buf_addf(&b, "B%zu: %s\n", i, cases[i].text);
	assert_clean(parse(b.buf));
	ck_assert_uint_eq(sheet.n, ORD_ARRAY_SIZE(cases));
	for (i = 0; i < ORD_ARRAY_SIZE(cases); i++)
		assert_tok(&sheet.orders[i], 0, ORD_TOK_FRAC, cases[i].value, cases[i].quarters, 5, 1);
	ord_buf_release(&b);
}
END_TEST

START_TEST(test_codes_case_insensitive)
{
	static const char *const canon[] = {
		"FLn", "FCol", "FSk", "FSq", "C", "Fb", "Fs", "Fg", "UL", "L",
	};
	size_t i;

	assert_clean(parse("b1 fln fcol FSK fsQ c FB fs fG ul l\n"
			   "B2 FLN FCOL fsk FSQ C fb FS fg UL L\n"));
	ck_assert_uint_eq(sheet.n, 2);
	/* the unit stays as written: matching it is the ruleset's business */
	assert_order(0, "b1", 1, 1, 10);
	for (i = 0; i < 10; i++) {
		ck_assert_int_eq(sheet.orders[0].tok[i].kind, ORD_TOK_CODE);
		ck_assert_str_eq(sheet.orders[0].tok[i].value, canon[i]);
		ck_assert_str_eq(sheet.orders[1].tok[i].value, canon[i]);
		ck_assert_uint_eq(sheet.orders[1].tok[i].group, i + 1);
	}
	ck_assert_ptr_eq(ord_order_code(&sheet.orders[0], "FSq"), &sheet.orders[0].tok[3]);
}
END_TEST

START_TEST(test_groups)
{
	const struct ord_order *o;

	assert_clean(parse("H1: C-UL-Fs\nB2 ↑-c 1 fcol\nA3 ↗-1/4-Fb-@B4 UL"));
	ck_assert_uint_eq(sheet.n, 3);
	o = &sheet.orders[0];
	assert_order(0, "H1", 1, 1, 3);
	assert_tok(o, 0, ORD_TOK_CODE, "C", 0, 5, 1);
	assert_tok(o, 1, ORD_TOK_CODE, "UL", 0, 7, 1);
	assert_tok(o, 2, ORD_TOK_CODE, "Fs", 0, 10, 1);
	o = &sheet.orders[1];
	assert_order(1, "B2", 2, 1, 4);
	assert_tok(o, 0, ORD_TOK_DIR, "↑", 0, 4, 1);
	assert_tok(o, 1, ORD_TOK_CODE, "C", 0, 6, 1);
	assert_tok(o, 2, ORD_TOK_FRAC, "1", 4, 8, 2);
	assert_tok(o, 3, ORD_TOK_CODE, "FCol", 0, 10, 3);
	o = &sheet.orders[2];
	assert_order(2, "A3", 3, 1, 5);
	assert_tok(o, 0, ORD_TOK_DIR, "↗", 45, 4, 1);
	assert_tok(o, 1, ORD_TOK_FRAC, "1/4", 1, 6, 1);
	assert_tok(o, 2, ORD_TOK_CODE, "Fb", 0, 10, 1);
	assert_tok(o, 3, ORD_TOK_TARGET, "B4", 0, 13, 1);
	assert_tok(o, 4, ORD_TOK_CODE, "UL", 0, 17, 2);
}
END_TEST

START_TEST(test_targets)
{
	assert_clean(parse("A1 Fb @B4\n"
			   "A2: Fs @\"Old Guard\"\n"
			   "A3: Fg-@\"2-44th Foot\" ↓\n"
			   "A4 Fb @\"  Royal Scots \"\n"
			   "A5 Fb @2/44e:C\n"));
	ck_assert_uint_eq(sheet.n, 5);
	assert_tok(&sheet.orders[0], 1, ORD_TOK_TARGET, "B4", 0, 7, 2);
	assert_tok(&sheet.orders[1], 1, ORD_TOK_TARGET, "Old Guard", 0, 8, 2);
	/* a quoted target may hold '-' without starting a new token */
	assert_order(2, "A3", 3, 1, 3);
	assert_tok(&sheet.orders[2], 1, ORD_TOK_TARGET, "2-44th Foot", 0, 8, 1);
	assert_tok(&sheet.orders[2], 2, ORD_TOK_DIR, "↓", 180, 23, 2);
	assert_tok(&sheet.orders[3], 1, ORD_TOK_TARGET, "Royal Scots", 0, 7, 2);
	/* the first ':' makes the unit "A5 Fb @2/44e"; the rest is the order */
	assert_order(4, "A5 Fb @2/44e", 5, 1, 1);
	assert_tok(&sheet.orders[4], 0, ORD_TOK_CODE, "C", 0, 14, 1);
	ck_assert_ptr_eq(ord_order_find(&sheet.orders[1], ORD_TOK_TARGET), &sheet.orders[1].tok[1]);
}
END_TEST

START_TEST(test_comments_and_blank_lines)
{
	assert_clean(parse("# 2nd Brigade, turn 4\n"
			   "\n"
			   "B1 ↑ 1/2   # advance in support\n"
			   "   \t \n"
			   "    # the guns stay\n"
			   "B2 FSq#tight\n"
			   "B3 ← #: not the unit separator\n"
			   "#B4 ↑\n"));
	ck_assert_uint_eq(sheet.n, 3);
	assert_order(0, "B1", 3, 1, 2);
	assert_order(1, "B2", 6, 1, 1);
	assert_tok(&sheet.orders[1], 0, ORD_TOK_CODE, "FSq", 0, 4, 1);
	assert_order(2, "B3", 7, 1, 1);
}
END_TEST

/* orderly's reading of a stored sheet (ord_notation_read): each order
 * canonically at its line, comments and a line that is no order dropped */
static void read_one(void *ud, unsigned line, const char *order)
{
	ord_buf_addf(ud, "%u|%s\n", line, order);
}

START_TEST(test_reading)
{
	struct ord_buf got = ORD_BUF_INIT;
	const char *text = "# 2nd Brigade\n"
			   "B1 ↑ 1/2   # advance\n"
			   "\n"
			   "B2 fsq\n"
			   "B3 ↑ ??\n";

	ck_assert_uint_eq(ord_notation_read(&ord_notation_hieroglyph, text, strlen(text), read_one,
					    &got),
			  2);
	ck_assert_str_eq(got.buf, "2|B1: ↑ 1/2\n4|B2: FSq\n");
	ck_assert_uint_eq(ord_notation_read(&ord_notation_hieroglyph, NULL, 0, read_one, &got), 0);
	ck_assert_str_eq(ord_error_last(), "");
	ord_buf_release(&got);
}
END_TEST

START_TEST(test_names_with_spaces)
{
	assert_clean(parse("1st Foot Guards: ↑ 1/2 FCol\n"
			   "  Royal Scots Greys  :  ↗-C 1\n"
			   "Régiment de Ligne:→ ¾\n"
			   "\tB 4 :FSk\n"));
	ck_assert_uint_eq(sheet.n, 4);
	assert_order(0, "1st Foot Guards", 1, 1, 3);
	assert_tok(&sheet.orders[0], 0, ORD_TOK_DIR, "↑", 0, 18, 1);
	assert_order(1, "Royal Scots Greys", 2, 3, 3);
	assert_tok(&sheet.orders[1], 0, ORD_TOK_DIR, "↗", 45, 25, 1);
	assert_tok(&sheet.orders[1], 1, ORD_TOK_CODE, "C", 0, 27, 1);
	/* columns count characters: é is two bytes, one column */
	assert_order(2, "Régiment de Ligne", 3, 1, 2);
	assert_tok(&sheet.orders[2], 0, ORD_TOK_DIR, "→", 90, 19, 1);
	assert_tok(&sheet.orders[2], 1, ORD_TOK_FRAC, "3/4", 3, 21, 2);
	assert_order(3, "B 4", 4, 2, 1);
	assert_tok(&sheet.orders[3], 0, ORD_TOK_CODE, "FSk", 0, 7, 1);
}
END_TEST

START_TEST(test_crlf)
{
	assert_clean(parse("# windows\r\nB1 ↑ 1\r\n\r\nB2: ↓ 1/2 # back\r\nB3 FLn\r"));
	ck_assert_uint_eq(sheet.n, 3);
	assert_order(0, "B1", 2, 1, 2);
	assert_tok(&sheet.orders[0], 1, ORD_TOK_FRAC, "1", 4, 6, 2);
	assert_order(1, "B2", 4, 1, 2);
	assert_tok(&sheet.orders[1], 1, ORD_TOK_FRAC, "1/2", 2, 7, 2);
	assert_order(2, "B3", 5, 1, 1);
	assert_tok(&sheet.orders[2], 0, ORD_TOK_CODE, "FLn", 0, 4, 1);
}
END_TEST

START_TEST(test_phone_typing)
{
	/* a byte order mark, no-break spaces, emoji arrows with their variation
	 * selector: what a phone or a word processor produces */
	assert_clean(parse("\xEF\xBB\xBF"
			   "B1\u00A0\u2B06\uFE0F\u00A0½\n"
			   "B2 \u27A1 1\n"
			   "B3 \u2197\uFE0F-C\n"
			   "B4\u3000\u2B05\uFE0E\u2009¼\n"));
	ck_assert_uint_eq(sheet.n, 4);
	assert_order(0, "B1", 1, 1, 2);
	assert_tok(&sheet.orders[0], 0, ORD_TOK_DIR, "↑", 0, 4, 1);
	assert_tok(&sheet.orders[0], 1, ORD_TOK_FRAC, "1/2", 2, 7, 2);
	assert_tok(&sheet.orders[1], 0, ORD_TOK_DIR, "→", 90, 4, 1);
	assert_tok(&sheet.orders[2], 0, ORD_TOK_DIR, "↗", 45, 4, 1);
	assert_tok(&sheet.orders[2], 1, ORD_TOK_CODE, "C", 0, 7, 1);
	assert_tok(&sheet.orders[3], 0, ORD_TOK_DIR, "←", 270, 4, 1);
	assert_tok(&sheet.orders[3], 1, ORD_TOK_FRAC, "1/4", 1, 7, 2);
}
END_TEST

START_TEST(test_curly_quotes)
{
	/* a sheet pasted from Word or a PDF: its quotes are curly, in the
	 * ways of every locale, and a name may hold ’ as an apostrophe */
	assert_clean(parse("F8: Fb @\u201CRogers\u2019 Company, Royal Artillery\u201D\n"
			   "F9 Fb @\u201CA1\u201D\n"
			   "F10 Fs @\u201E2-44th Foot\u201C ↓\n"
			   "F11 Fs @\u201EOld Guard\u201D\n"
			   "F12 Fg @\u201DOld Guard\u201D\n"
			   "F13 Fg-@\u00AB 2e L\u00E9ger \u00BB-C\n"
			   "F14 Fb @\u00BBJ\u00E6gerkorps\u00AB\n"
			   "F15 Fb @\u201CMixed\"\n"
			   "F16 Fb @\"Le \u201CGrand\u201D\"\n"
			   "F17 Fb @\u2018A1\u2019\n"));
	ck_assert_uint_eq(sheet.n, 10);
	assert_tok(&sheet.orders[0], 1, ORD_TOK_TARGET, "Rogers\u2019 Company, Royal Artillery", 0,
		   8, 2);
	assert_tok(&sheet.orders[1], 1, ORD_TOK_TARGET, "A1", 0, 7, 2);
	assert_tok(&sheet.orders[2], 1, ORD_TOK_TARGET, "2-44th Foot", 0, 8, 2);
	assert_tok(&sheet.orders[2], 2, ORD_TOK_DIR, "↓", 180, 23, 3);
	assert_tok(&sheet.orders[3], 1, ORD_TOK_TARGET, "Old Guard", 0, 8, 2);
	assert_tok(&sheet.orders[4], 1, ORD_TOK_TARGET, "Old Guard", 0, 8, 2);
	assert_order(5, "F13", 6, 1, 3);
	assert_tok(&sheet.orders[5], 1, ORD_TOK_TARGET, "2e L\u00E9ger", 0, 8, 1);
	assert_tok(&sheet.orders[5], 2, ORD_TOK_CODE, "C", 0, 22, 1);
	assert_tok(&sheet.orders[6], 1, ORD_TOK_TARGET, "J\u00E6gerkorps", 0, 8, 2);
	assert_tok(&sheet.orders[7], 1, ORD_TOK_TARGET, "Mixed", 0, 8, 2);
	/* a '"' name ends at the next '"' only, as it always has */
	assert_tok(&sheet.orders[8], 1, ORD_TOK_TARGET, "Le \u201CGrand\u201D", 0, 8, 2);
	/* single quotes open no name: ’ is an apostrophe */
	assert_tok(&sheet.orders[9], 1, ORD_TOK_TARGET, "\u2018A1\u2019", 0, 8, 2);
}
END_TEST

START_TEST(test_dashes)
{
	/* a word processor's en and em dashes, a PDF's hyphen and minus: each
	 * joins tokens as '-' does */
	assert_clean(parse("F9: \u2191\u2013C\u2013UL\u2013Fs @A1\n"
			   "F10 \u2196\u2014C 1\n"
			   "F11 C\u2010UL\u2011Fs\n"
			   "F12 L\u2212\u2193\u20121/2\n"
			   "F13 Fg-@\"2\u201344th\" C\n"));
	ck_assert_uint_eq(sheet.n, 5);
	assert_order(0, "F9", 1, 1, 5);
	assert_tok(&sheet.orders[0], 0, ORD_TOK_DIR, "↑", 0, 5, 1);
	assert_tok(&sheet.orders[0], 1, ORD_TOK_CODE, "C", 0, 7, 1);
	assert_tok(&sheet.orders[0], 2, ORD_TOK_CODE, "UL", 0, 9, 1);
	assert_tok(&sheet.orders[0], 3, ORD_TOK_CODE, "Fs", 0, 12, 1);
	assert_tok(&sheet.orders[0], 4, ORD_TOK_TARGET, "A1", 0, 15, 2);
	assert_tok(&sheet.orders[1], 1, ORD_TOK_CODE, "C", 0, 7, 1);
	assert_tok(&sheet.orders[2], 2, ORD_TOK_CODE, "Fs", 0, 10, 1);
	assert_tok(&sheet.orders[3], 2, ORD_TOK_FRAC, "1/2", 2, 9, 1);
	/* a quoted target keeps its dash */
	assert_tok(&sheet.orders[4], 1, ORD_TOK_TARGET, "2\u201344th", 0, 8, 1);
}
END_TEST

/* ---- canonical form ---------------------------------------------------- */

static const struct {
	const char *in;    /* one order as a player may write it */
	const char *canon; /* what format prints */
} format_cases[] = {
	{ "B1 ↑ 1/2 FCol", "B1: ↑ 1/2 FCol" },
	{ "b1 ^e 4/4 fcol", "b1: → 1 FCol" },
	{ "1st Foot Guards:↑   ½  fln", "1st Foot Guards: ↑ 1/2 FLn" },
	{ "H1 c-ul-fs", "H1: C-UL-Fs" },
	{ "H2 ^nw-c 1", "H2: ↖-C 1" },
	{ "A1 ^010 ¾ Fb @\"Old Guard\"", "A1: ^010 3/4 Fb @\"Old Guard\"" },
	{ "A2 fs-@\"2-44th\"", "A2: Fs-@\"2-44th\"" },
	{ "A3 Fb @B4", "A3: Fb @B4" },
	{ "A4 Fb @\"B5\"", "A4: Fb @B5" },
	{ "Régiment de Ligne : ^359 ¼ FSk", "Régiment de Ligne: ^359 1/4 FSk" },
	{ "B6 \u2B06\uFE0F 1 # phone", "B6: ↑ 1" },
	{ "G1 l-↓-1/2", "G1: L-↓-1/2" },
	{ "H3 c–ul—fs", "H3: C-UL-Fs" },
	/* a target with a dash is quoted, so that the dash joins nothing */
	{ "A9 Fb @\"2–44th\"", "A9: Fb @\"2–44th\"" },
	{ "A5 Fb @“Old Guard”", "A5: Fb @\"Old Guard\"" },
	{ "A6 Fb @« B7 »", "A6: Fb @B7" },
	/* a name that starts with a quote is quoted, so that it reads back */
	{ "A7 Fb @\"“B8\"", "A7: Fb @\"“B8\"" },
	{ "A8 Fb @\"«B9 x»\"", "A8: Fb @\"«B9 x»\"" },
};

START_TEST(test_format_round_trip)
{
	struct ord_buf b = ORD_BUF_INIT;
	struct ord_sheet again;
	struct ord_diag d2;
	size_t j;

	assert_clean(parse(format_cases[_i].in));
	ck_assert_uint_eq(sheet.n, 1);
	ord_notation_hieroglyph.format(&sheet.orders[0], &b);
	ck_assert_str_eq(b.buf, format_cases[_i].canon);

	/* the canonical form parses to the same order and prints the same */
	ord_sheet_init(&again);
	ord_diag_init(&d2);
	ck_assert_int_eq(ord_notation_hieroglyph.parse(&again, b.buf, b.len, &d2), 0);
	ck_assert_uint_eq(again.n, 1);
	ck_assert_str_eq(again.orders[0].unit, sheet.orders[0].unit);
	ck_assert_uint_eq(again.orders[0].ntok, sheet.orders[0].ntok);
	for (j = 0; j < again.orders[0].ntok; j++) {
		const struct ord_token *x = &again.orders[0].tok[j], *y = &sheet.orders[0].tok[j];

		ck_assert_int_eq(x->kind, y->kind);
		ck_assert_str_eq(x->value, y->value);
		ck_assert_int_eq(x->num, y->num);
		ck_assert_uint_eq(x->group, y->group);
	}
	ord_buf_reset(&b);
	ord_notation_hieroglyph.format(&again.orders[0], &b);
	ck_assert_str_eq(b.buf, format_cases[_i].canon);
	ord_buf_release(&b);
	ord_sheet_release(&again);
	ord_diag_release(&d2);
}
END_TEST

START_TEST(test_format_built_by_hand)
{
	/* a ruleset may build orders itself: no groups, odd numbers, lowercase */
	struct ord_buf b = ORD_BUF_INIT;
	struct ord_order *o = ord_sheet_add_order(&sheet, 0, 0, "Old Guard");

	ord_order_add_token(o, ORD_TOK_DIR, "", -90, 0);
	ord_order_add_token(o, ORD_TOK_DIR, "", 405, 0);
	ord_order_add_token(o, ORD_TOK_DIR, "", 10, 0);
	ord_order_add_token(o, ORD_TOK_FRAC, "", 3, 0);
	ord_order_add_token(o, ORD_TOK_CODE, "fcol", 0, 0);
	ord_order_add_token(o, ORD_TOK_TARGET, "1st Foot", 0, 0);
	ord_order_add_token(o, ORD_TOK_ARG, "x=1", 0, 0);
	ord_notation_hieroglyph.format(o, &b);
	ck_assert_str_eq(b.buf, "Old Guard: ← ↗ ^010 3/4 FCol @\"1st Foot\" x=1");
	ord_buf_reset(&b);
	o = ord_sheet_add_order(&sheet, 0, 0, "B1");
	ord_notation_hieroglyph.format(o, &b);
	ck_assert_str_eq(b.buf, "B1:");
	ord_buf_release(&b);
}
END_TEST

/* ---- errors ------------------------------------------------------------ */

#define CODES "(expected one of FLn FCol FSk FSq C Fb Fs Fg UL L)"
#define DIRS "(expected one of ↑ ↗ → ↘ ↓ ↙ ← ↖ ^N ^NE ^E ^SE ^S ^SW ^W ^NW or ^000 to ^359)"
#define FRACS "(expected one of 1/4 1/2 3/4 1)"
#define EMPTY "(expected a direction, fraction or code on each side of '-')"

/* One error per sheet: its text, where the error is, the unit, the message. */
static const struct {
	const char *text;
	unsigned line, col;
	const char *unit, *msg;
} error_cases[] = {
	{ "B1", 1, 3, "B1", "expected a direction, fraction or code after the unit" },
	{ "B1:   # nothing yet", 1, 4, "B1", "expected a direction, fraction or code after the unit" },
	{ "\n  1st Foot", 2, 7, "1st", "unknown code 'Foot' " CODES },
	{ "1st Foot Guards:", 1, 17, "1st Foot Guards",
	  "expected a direction, fraction or code after the unit" },
	{ ": ↑ 1", 1, 1, "", "expected a unit before ':'" },
	{ "B1 ↑\n   :FLn", 2, 4, "", "expected a unit before ':'" },
	{ "B1 ↑ →", 1, 6, "B1", "second direction '→' (expected one direction per order)" },
	{ "B1 ^n-C ^090", 1, 9, "B1", "second direction '^090' (expected one direction per order)" },
	{ "B1 1/2 ½", 1, 8, "B1", "second fraction '½' (expected one fraction per order)" },
	{ "B1 1-1/4", 1, 6, "B1", "second fraction '1/4' (expected one fraction per order)" },
	{ "A1 Fb @B4 @B5", 1, 11, "A1", "second target '@B5' (expected one target per order)" },
	{ "H1 C-UL-c", 1, 9, "H1", "repeated code 'c' (expected each code once per order)" },
	{ "H1: Fs fs", 1, 8, "H1", "repeated code 'fs' (expected each code once per order)" },
	{ "A1 Fb @", 1, 7, "A1", "empty target '@' (expected a unit after '@')" },
	{ "A1 Fb @\"\"", 1, 7, "A1", "empty target '@\"\"' (expected a unit after '@')" },
	{ "A1 Fb @\"  \"-C", 1, 7, "A1", "empty target '@\"  \"' (expected a unit after '@')" },
	{ "A1 Fb @-C", 1, 7, "A1", "empty target '@' (expected a unit after '@')" },
	{ "A1 Fb @\"Old Guard", 1, 8, "A1",
	  "unterminated quote in '@\"Old Guard' (expected a closing '\"')" },
	{ "A1: Fb @\"Old # Guard\"", 1, 9, "A1",
	  "unterminated quote in '@\"Old' (expected a closing '\"')" },
	{ "A1 Fb @\"Old\"x", 1, 13, "A1",
	  "text after the closing quote in '@\"Old\"x' (expected a space or '-')" },
	{ "A1 Fb @“Old Guard", 1, 8, "A1",
	  "unterminated quote in '@“Old Guard' (expected a closing '”')" },
	{ "A1 Fb @„Old Guard", 1, 8, "A1",
	  "unterminated quote in '@„Old Guard' (expected a closing '“')" },
	{ "A1 Fb @«Old Guard”", 1, 8, "A1",
	  "unterminated quote in '@«Old Guard”' (expected a closing '»')" },
	{ "A1 Fb @“Old”x C", 1, 13, "A1",
	  "text after the closing quote in '@“Old”x' (expected a space or '-')" },
	{ "A1 Fb @“ ”", 1, 7, "A1", "empty target '@“ ”' (expected a unit after '@')" },
	{ "B1 FXy", 1, 4, "B1", "unknown code 'FXy' " CODES },
	{ "B1 ↑ 1/2 FCol Fire", 1, 15, "B1", "unknown code 'Fire' " CODES },
	{ "B1 2/3", 1, 4, "B1", "bad fraction '2/3' " FRACS },
	{ "B1 5", 1, 4, "B1", "bad fraction '5' " FRACS },
	{ "B1 0", 1, 4, "B1", "bad fraction '0' " FRACS },
	{ "B1 1/4x", 1, 4, "B1", "bad fraction '1/4x' " FRACS },
	{ "B1 ⅓", 1, 4, "B1", "bad fraction '⅓' " FRACS },
	{ "B1 ½½", 1, 4, "B1", "bad fraction '½½' " FRACS },
	{ "B1 ^45", 1, 4, "B1", "bad direction '^45' " DIRS },
	{ "B1 ^X", 1, 4, "B1", "bad direction '^X' " DIRS },
	{ "B1 ^", 1, 4, "B1", "bad direction '^' " DIRS },
	{ "B1 ^0450", 1, 4, "B1", "bad direction '^0450' " DIRS },
	{ "B1 ^NNE", 1, 4, "B1", "bad direction '^NNE' " DIRS },
	{ "B1 ↑C", 1, 4, "B1", "bad direction '↑C' " DIRS },
	{ "B1 ↑↑", 1, 4, "B1", "bad direction '↑↑' " DIRS },
	/* the distance written against the arrow: the space is hinted */
	{ "B1 ↑1/2", 1, 4, "B1",
	  "bad direction '↑1/2' " DIRS
	  ": did you mean '↑ 1/2' (a space between the arrow and the distance)?" },
	{ "B1 \u2197\uFE0F1 C", 1, 4, "B1",
	  "bad direction '\u2197\uFE0F1' " DIRS
	  ": did you mean '\u2197\uFE0F 1' (a space between the arrow and the distance)?" },
	{ "B1 ^360", 1, 4, "B1", "direction '^360' out of range (expected ^000 to ^359)" },
	{ "B1 ^999", 1, 4, "B1", "direction '^999' out of range (expected ^000 to ^359)" },
	{ "B1 C--Fs", 1, 5, "B1", "empty token in 'C--Fs' " EMPTY },
	{ "B1 -C", 1, 4, "B1", "empty token in '-C' " EMPTY },
	{ "B1 C-", 1, 5, "B1", "empty token in 'C-' " EMPTY },
	{ "B1 ↑ -", 1, 6, "B1", "empty token in '-' " EMPTY },
	{ "B1 C---", 1, 5, "B1", "empty token in 'C---' " EMPTY },
	{ "B1 C––Fs", 1, 5, "B1", "empty token in 'C––Fs' " EMPTY },
	{ "B1 ↑ —C", 1, 6, "B1", "empty token in '—C' " EMPTY },
	/* columns are characters, not bytes */
	{ "Régiment de Ligne: ↑ ↓", 1, 22, "Régiment de Ligne",
	  "second direction '↓' (expected one direction per order)" },
	{ "B1 ½ ¾", 1, 6, "B1", "second fraction '¾' (expected one fraction per order)" },
	/* a sheet must be UTF-8 text, comments too */
	{ "B1 ↑\nB2 \xFF 1", 2, 4, "", "invalid UTF-8 byte 0xff (expected UTF-8 text)" },
	{ "B1 caf\xC3", 1, 7, "", "invalid UTF-8 byte 0xc3 (expected UTF-8 text)" },
	{ "B1 caf\xC3 FLn", 1, 7, "", "invalid UTF-8 byte 0xc3 (expected UTF-8 text)" },
	{ "B1 \xC0\xAF", 1, 4, "", "invalid UTF-8 byte 0xc0 (expected UTF-8 text)" },
	{ "B1 \xE0\x80\xAF", 1, 4, "", "invalid UTF-8 byte 0xe0 (expected UTF-8 text)" },
	{ "B1 \xED\xA0\x80", 1, 4, "", "invalid UTF-8 byte 0xed (expected UTF-8 text)" },
	{ "B1 \xF4\x90\x80\x80", 1, 4, "", "invalid UTF-8 byte 0xf4 (expected UTF-8 text)" },
	{ "B1 \x80", 1, 4, "", "invalid UTF-8 byte 0x80 (expected UTF-8 text)" },
	{ "B1 ↑ # é\xE9t\xE9", 1, 9, "", "invalid UTF-8 byte 0xe9 (expected UTF-8 text)" },
	{ "B1 ↑\x01", 1, 5, "", "unexpected control character U+0001 (expected text)" },
	{ "B1 ↑\rB2 ↓", 1, 5, "", "unexpected control character U+000D (expected text)" },
	{ "B1 \x7F", 1, 4, "", "unexpected control character U+007F (expected text)" },
};

START_TEST(test_error_cases)
{
	const char *text = error_cases[_i].text;

	ck_assert_int_eq(parse(text), ORD_EBADSHEET);
	if (diag.n != 1) {
		char *t = diag_text();
		ck_abort_msg("'%s': expected one error, got:\n%s", text, t);
		free(t);
	}
	assert_diag(0, error_cases[_i].line, error_cases[_i].col, error_cases[_i].unit,
		    error_cases[_i].msg);
	ck_assert_int_eq(ord_error_code(), ORD_EBADSHEET);
	ck_assert_str_eq(ord_error_last(), "order sheet has 1 syntax error");
}
END_TEST

START_TEST(test_nul_byte)
{
	static const char text[] = "B1 ↑\nB2 F\0Ln\n";

	ck_assert_int_eq(parse_n(text, sizeof(text) - 1), ORD_EBADSHEET);
	ck_assert_uint_eq(diag.n, 1);
	assert_diag(0, 2, 5, "", "unexpected control character U+0000 (expected text)");
	ck_assert_uint_eq(sheet.n, 1);
}
END_TEST

/* The contract of notation.h: every syntax error in one pass, and every
 * line that parsed returned, so that the ruleset checks those in the same
 * pass and the player learns of every mistake at once. */
START_TEST(test_one_pass)
{
	struct ord_buf b = ORD_BUF_INIT;

	ck_assert_int_eq(parse("B1 ↑ 1/2 FCol\n"
			       "B2 FXy ↑ ↓ 5/8 C-C\n"
			       "B3 ↗-C @R1\n"
			       "B4 ↑ @\n"
			       "B5 ^W 1 FLn # wheel\n"),
			 ORD_EBADSHEET);
	/* the reading goes on after an error, on its line and after it */
	ck_assert_uint_eq(diag.n, 5);
	assert_diag(0, 2, 4, "B2", "unknown code 'FXy' " CODES);
	assert_diag(1, 2, 10, "B2", "second direction '↓' (expected one direction per order)");
	assert_diag(2, 2, 12, "B2", "bad fraction '5/8' " FRACS);
	assert_diag(3, 2, 18, "B2", "repeated code 'C' (expected each code once per order)");
	assert_diag(4, 4, 6, "B4", "empty target '@' (expected a unit after '@')");
	ck_assert_str_eq(ord_error_last(), "order sheet has 5 syntax errors");
	/* the lines that parsed, whole; none of the others */
	ck_assert_uint_eq(sheet.n, 3);
	assert_order(0, "B1", 1, 1, 3);
	assert_order(1, "B3", 3, 1, 3);
	assert_tok(&sheet.orders[1], 2, ORD_TOK_TARGET, "R1", 0, 8, 2);
	assert_order(2, "B5", 5, 1, 3);
	ord_notation_hieroglyph.format(&sheet.orders[1], &b);
	ck_assert_str_eq(b.buf, "B3: ↗-C @R1");
	ord_buf_release(&b);
}
END_TEST

START_TEST(test_lines_after_the_cap)
{
	/* past the listed errors the sheet is still read to its end */
	struct ord_buf b = ORD_BUF_INIT;
	size_t i;

	for (i = 0; i < 1500; i++)
		ord_buf_adds(&b, "B1 FXy\n");
	ord_buf_adds(&b, "B2 ↑ 1/2\n");
	ck_assert_int_eq(parse_n(b.buf, b.len), ORD_EBADSHEET);
	ck_assert_uint_eq(diag.n, ORD_DIAG_MAX_LISTED);
	ck_assert_uint_eq(diag.more, 500); /* counted, not listed */
	ck_assert_uint_eq(sheet.n, 1);
	assert_order(0, "B2", 1501, 1, 2);
	ord_buf_release(&b);
}
END_TEST

START_TEST(test_every_error_reported)
{
	struct ord_buf b = ORD_BUF_INIT;

	ck_assert_int_eq(parse("# turn 5\n"
			       "B1 ↑ 1/2 FXy\n"
			       "B2 ↑ 1/2 FCol\n"
			       "1st Foot Guards: ↑ ↓ 2/3 C-C\n"
			       "B3 \xFF\n"
			       ": FLn ^400\n"
			       "B4\n"),
			 ORD_EBADSHEET);
	ck_assert_uint_eq(diag.n, 8);
	assert_diag(0, 2, 10, "B1", "unknown code 'FXy' " CODES);
	assert_diag(1, 4, 20, "1st Foot Guards",
		    "second direction '↓' (expected one direction per order)");
	assert_diag(2, 4, 22, "1st Foot Guards", "bad fraction '2/3' " FRACS);
	assert_diag(3, 4, 28, "1st Foot Guards",
		    "repeated code 'C' (expected each code once per order)");
	assert_diag(4, 5, 4, "", "invalid UTF-8 byte 0xff (expected UTF-8 text)");
	assert_diag(5, 6, 1, "", "expected a unit before ':'");
	/* the tokens of a line with no unit are still checked */
	assert_diag(6, 6, 7, "", "direction '^400' out of range (expected ^000 to ^359)");
	assert_diag(7, 7, 3, "B4", "expected a direction, fraction or code after the unit");
	/* the line that parsed is kept, so that the ruleset can check it in
	 * the same pass; the lines with errors are left out whole */
	ck_assert_uint_eq(sheet.n, 1);
	assert_order(0, "B2", 3, 1, 3);
	ck_assert_str_eq(ord_error_last(), "order sheet has 8 syntax errors");

	ord_diag_format(&diag, "french.txt", &b);
	ck_assert_str_eq(b.buf,
			 "french.txt:2:10: unit 'B1': unknown code 'FXy' " CODES "\n"
			 "french.txt:4:20: unit '1st Foot Guards': second direction '↓' "
			 "(expected one direction per order)\n"
			 "french.txt:4:22: unit '1st Foot Guards': bad fraction '2/3' " FRACS "\n"
			 "french.txt:4:28: unit '1st Foot Guards': repeated code 'C' "
			 "(expected each code once per order)\n"
			 "french.txt:5:4: invalid UTF-8 byte 0xff (expected UTF-8 text)\n"
			 "french.txt:6:1: expected a unit before ':'\n"
			 "french.txt:6:7: direction '^400' out of range (expected ^000 to ^359)\n"
			 "french.txt:7:3: unit 'B4': expected a direction, fraction or code "
			 "after the unit\n");
	ord_buf_release(&b);
}
END_TEST

/* ---- size --------------------------------------------------------------
 * Big inputs must parse correctly; how fast is for the benchmarks
 * (tests/bench), not for timed tests that fail on a loaded machine. */

START_TEST(test_big_sheet)
{
	/* about 10 MB; the bound is loose enough for a sanitizer build */
	enum { LINES = 300000 };
	struct ord_buf b = ORD_BUF_INIT;
	size_t i;

	for (i = 0; i < LINES; i++)
		ord_buf_addf(&b, "Battalion %zu: ↗-C 3/4 FCol @B%zu # go\n", i, i + 1);
	ck_assert_uint_gt(b.len, 10u * 1000 * 1000);
	assert_clean(parse_n(b.buf, b.len));
	ck_assert_uint_eq(sheet.n, LINES);
	assert_order(LINES - 1, "Battalion 299999", LINES, 1, 5);
	assert_tok(&sheet.orders[LINES - 1], 4, ORD_TOK_TARGET, "B300000", 0, 32, 4);
	ord_buf_release(&b);
}
END_TEST

START_TEST(test_long_lines)
{
	/* nothing on a line has a size limit: a 1 MB name, a 1 MB target, and
	 * a word of 100k elements (every one but the first a repeated code) */
	enum { N = 1000 * 1000, E = 100000 };
	struct ord_buf b = ORD_BUF_INIT;
	size_t i;

	for (i = 0; i < N; i++)
		ord_buf_addch(&b, 'a' + (char)(i % 26));
	ord_buf_adds(&b, ": Fb @\"");
	for (i = 0; i < N; i++)
		ord_buf_adds(&b, i % 10 ? "é" : " ");
	ord_buf_adds(&b, "\" ↑\nB2 ");
	for (i = 0; i < E; i++)
		ord_buf_adds(&b, i ? "-c" : "c");
	assert_clean(ord_notation_hieroglyph.parse(&sheet, b.buf, strchr(b.buf, '\n') - b.buf + 1,
						   &diag));
	ck_assert_uint_eq(sheet.n, 1);
	ck_assert_uint_eq(strlen(sheet.orders[0].unit), N);
	ck_assert_uint_eq(sheet.orders[0].ntok, 3);
	ck_assert_uint_eq(strlen(sheet.orders[0].tok[1].value), 2 * (N - N / 10) + N / 10 - 1);
	ck_assert_uint_eq(sheet.orders[0].tok[2].col, 2 * N + 10);

	/* the first thousand errors are listed, the rest counted */
	ck_assert_int_eq(parse_n(b.buf, b.len), ORD_EBADSHEET);
	ck_assert_uint_eq(diag.n, ORD_DIAG_MAX_LISTED);
	assert_diag(999, 2, 4 + 2 * 1000, "B2",
		    "repeated code 'c' (expected each code once per order)");
	ck_assert_uint_eq(diag.more, 98999); /* counted, not listed */
	ck_assert_str_eq(ord_error_last(), "order sheet has 99999 syntax errors");
	ord_buf_release(&b);
}
END_TEST

START_TEST(test_garbage)
{
	/* 10 MB that are not a sheet at all: an error on each of 5M lines */
	struct ord_buf b = ORD_BUF_INIT;

	while (b.len < 10u * 1000 * 1000)
		ord_buf_adds(&b, "\xFF\n");
	ck_assert_int_eq(parse_n(b.buf, b.len), ORD_EBADSHEET);
	ck_assert_uint_eq(diag.n, ORD_DIAG_MAX_LISTED);
	assert_diag(999, 1000, 1, "", "invalid UTF-8 byte 0xff (expected UTF-8 text)");
	ck_assert_uint_eq(diag.more, 4999000); /* counted, not listed */
	ck_assert_uint_eq(sheet.n, 0);
	/* the reader makes room for an order a line before it reads, for
	 * the first 65,536 lines at most: 5M lines that order nothing hold
	 * no 200 MB of orders */
	ck_assert_uint_le(sheet.alloc, 65536);
	ord_buf_release(&b);
}
END_TEST

/* ---- the sample sheets ------------------------------------------------- */

START_TEST(test_examples)
{
	glob_t g;
	size_t i;

	ck_assert_int_eq(glob(ORD_SOURCE_DIR "/orders/examples/*.txt", 0, NULL, &g), 0);
	ck_assert_uint_ge(g.gl_pathc, 2);
	for (i = 0; i < g.gl_pathc; i++) {
		char *text;
		size_t len;
		int rc;

		/* the Krigsspil sheets are in the ordre notation (check_ordre.c) */
		if (strstr(g.gl_pathv[i], "/krigsspil-"))
			continue;
		ck_assert_int_eq(ord_read_file(&text, &len, g.gl_pathv[i], 1 << 20), 0);
		rc = parse_n(text, len);
		free(text);
		if (rc || diag.n) {
			char *t = diag_text();
			ck_abort_msg("%s:\n%s", g.gl_pathv[i], t);
			free(t);
		}
		ck_assert_uint_gt(sheet.n, 0);
		ord_sheet_release(&sheet);
	}
	globfree(&g);
}
END_TEST

Suite *ord_test_suite(void)
{
	Suite *s = suite_create("hieroglyph");
	TCase *tc;

	tc = tcase_create("valid");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_registered);
	tcase_add_test(tc, test_empty_sheets);
	tcase_add_test(tc, test_basic_order);
	tcase_add_test(tc, test_arrows);
	tcase_add_test(tc, test_ascii_directions);
	tcase_add_test(tc, test_fractions);
	tcase_add_test(tc, test_codes_case_insensitive);
	tcase_add_test(tc, test_groups);
	tcase_add_test(tc, test_targets);
	tcase_add_test(tc, test_comments_and_blank_lines);
	tcase_add_test(tc, test_reading);
	tcase_add_test(tc, test_names_with_spaces);
	tcase_add_test(tc, test_crlf);
	tcase_add_test(tc, test_phone_typing);
	tcase_add_test(tc, test_curly_quotes);
	tcase_add_test(tc, test_dashes);
	tcase_add_test(tc, test_examples);
	suite_add_tcase(s, tc);

	tc = tcase_create("format");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_format_round_trip, 0, ORD_ARRAY_SIZE(format_cases));
	tcase_add_test(tc, test_format_built_by_hand);
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_error_cases, 0, ORD_ARRAY_SIZE(error_cases));
	tcase_add_test(tc, test_nul_byte);
	tcase_add_test(tc, test_every_error_reported);
	tcase_add_test(tc, test_one_pass);
	tcase_add_test(tc, test_lines_after_the_cap);
	suite_add_tcase(s, tc);

	tc = tcase_create("size");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_big_sheet);
	tcase_add_test(tc, test_long_lines);
	tcase_add_test(tc, test_garbage);
	suite_add_tcase(s, tc);
	return s;
}
