/*
 * check_notation_template.c - the notation template (orders/template) as a
 * notation written outside orderly is used: built as the shared object
 * ord_notation_template.so, found through ORDERLY_RULESET_PATH (never built
 * in), its sheets parsed with every error at its line:col; and a module of
 * an interface version older than ORD_NOTATION_VERSION_MIN refused.  A
 * notation copied from the template starts its own suite from this one.
 */
#include <check.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "notation.h"

/* ORD_MODULE_PATH (tests/CMakeLists.txt): the template's directory, then
 * that of the test modules. */
#define TEMPLATE_SO ORD_BINARY_DIR "/modules/ord_notation_template.so"
#define DIRS "(expected one of ↑ ↗ → ↘ ↓ ↙ ← ↖ ^N ^NE ^E ^SE ^S ^SW ^W ^NW or ^000 to ^359)"
#define VERBS "(expected one of move fire hold)"

static const struct ord_notation *tpl;
static struct ord_sheet sheet;
static struct ord_diag diag;

static void setup(void)
{
	ck_assert_int_eq(setenv("ORDERLY_RULESET_PATH", ORD_MODULE_PATH, 1), 0);
	ck_assert_msg(ord_notation_find(&tpl, "template") == 0, "%s", ord_error_last());
	ord_sheet_init(&sheet);
	ord_diag_init(&diag);
}

static void teardown(void)
{
	ord_sheet_release(&sheet);
	ord_diag_release(&diag);
}

static int parse(const char *text)
{
	return tpl->parse(&sheet, text, strlen(text), &diag);
}

static void assert_diag(size_t i, unsigned line, unsigned col, const char *unit, const char *msg)
{
	ck_assert_uint_gt(diag.n, i);
	ck_assert_uint_eq(diag.items[i].line, line);
	ck_assert_uint_eq(diag.items[i].col, col);
	ck_assert_str_eq(diag.items[i].unit, unit);
	ck_assert_str_eq(diag.items[i].msg, msg);
}

static void assert_printed(size_t i, const char *text)
{
	struct ord_buf b = ORD_BUF_INIT;

	ck_assert_uint_gt(sheet.n, i);
	tpl->format(&sheet.orders[i], &b);
	ck_assert_str_eq(b.buf, text);
	ord_buf_release(&b);
}

/* ---- loading ------------------------------------------------------------ */

START_TEST(test_not_built_in)
{
	const struct ord_notation *n = NULL;

	ck_assert_int_eq(unsetenv("ORDERLY_RULESET_PATH"), 0);
	ck_assert_int_eq(ord_notation_find(&n, "template"), ORD_ENOTFOUND);
	ck_assert_ptr_null(n);
	ck_assert_ptr_nonnull(strstr(ord_error_last(), "none found in ORDERLY_RULESET_PATH"));
}
END_TEST

START_TEST(test_loaded_from_the_path)
{
	const struct ord_notation *again = NULL;

	/* setup found it; it is registered now, under its own name */
	ck_assert_ptr_nonnull(tpl);
	ck_assert_str_eq(tpl->name, "template");
	ck_assert_uint_eq(tpl->version, ORD_NOTATION_VERSION);
	ck_assert_int_eq(unsetenv("ORDERLY_RULESET_PATH"), 0);
	ck_assert_int_eq(ord_notation_find(&again, "template"), 0);
	ck_assert_ptr_eq(again, tpl);
}
END_TEST

START_TEST(test_old_module_refused)
{
	const struct ord_notation *n = NULL;

	ck_assert_int_eq(ord_notation_find(&n, "old"), ORD_EVERSION);
	ck_assert_ptr_null(n);
	ck_assert_ptr_nonnull(strstr(ord_error_last(), "ord_notation_old.so"));
	ck_assert_ptr_nonnull(strstr(ord_error_last(), "has interface version 0, older than 1"));
	/* and it stays refused: it was not registered */
	ck_assert_int_eq(ord_notation_find(&n, "old"), ORD_EVERSION);
}
END_TEST

START_TEST(test_old_host_refused)
{
	const struct ord_notation *(*init)(unsigned int);
	void *h = dlopen(TEMPLATE_SO, RTLD_NOW | RTLD_LOCAL);

	ck_assert_msg(h != NULL, "%s", dlerror());
	*(void **)&init = dlsym(h, "ord_notation_template_init");
	ck_assert_ptr_nonnull(init);
	/* the module refuses a core older than it needs, and takes this one */
	ck_assert_ptr_null(init(0));
	ck_assert_ptr_eq(init(ORD_NOTATION_VERSION), tpl);
	dlclose(h);
}
END_TEST

/* ---- sheets ------------------------------------------------------------- */

START_TEST(test_sheet)
{
	const struct ord_order *o;

	ck_assert_int_eq(parse("# turn 3\n"
			       "B1: move ↑ 1/2      # advance\n"
			       "A1 FIRE @\"Old Guard\"\n"
			       "B2: Hold\n"
			       "B3 move ^NE ½\n"),
			 0);
	ck_assert_uint_eq(diag.n, 0);
	ck_assert_uint_eq(sheet.n, 4);
	o = &sheet.orders[0];
	ck_assert_str_eq(o->unit, "B1");
	ck_assert_uint_eq(o->line, 2);
	ck_assert_uint_eq(o->ntok, 3);
	ck_assert_int_eq(o->tok[0].kind, ORD_TOK_CODE);
	ck_assert_str_eq(o->tok[0].value, "move");
	ck_assert_uint_eq(o->tok[0].col, 5);
	ck_assert_int_eq(o->tok[1].kind, ORD_TOK_DIR);
	ck_assert_int_eq(o->tok[1].num, 0);
	ck_assert_uint_eq(o->tok[1].col, 10);
	ck_assert_int_eq(o->tok[2].kind, ORD_TOK_FRAC);
	ck_assert_int_eq(o->tok[2].num, 2);
	ck_assert_uint_eq(o->tok[2].col, 12);
	ck_assert_str_eq(sheet.orders[1].tok[1].value, "Old Guard");
	assert_printed(0, "B1: move ↑ 1/2");
	assert_printed(1, "A1: fire @\"Old Guard\"");
	assert_printed(2, "B2: hold");
	assert_printed(3, "B3: move ↗ 1/2");
}
END_TEST

START_TEST(test_every_error_in_one_pass)
{
	ck_assert_int_eq(parse("B1: move 1/2\n"
			       "B2: fire ↑\n"
			       "B3: ↑ move\n"
			       "B4: move ^400\n"
			       "B5: jump\n"
			       "B6:\n"
			       "A2: fire @B1 hold\n"
			       "B7: move ← 3/4 ¾\n"
			       "C1 move ^045 1\n"
			       "B8: move → 2/3\n"
			       "B9: hold\n"),
			 ORD_EBADSHEET);
	ck_assert_uint_eq(diag.n, 10);
	assert_diag(0, 1, 5, "B1", "'move' needs a direction " DIRS);
	assert_diag(1, 2, 10, "B2", "unexpected direction '↑' after 'fire' (expected a target)");
	assert_diag(2, 2, 5, "B2", "'fire' needs a target (expected @UNIT)");
	assert_diag(3, 3, 5, "B3", "direction '↑' before the verb " VERBS);
	assert_diag(4, 4, 10, "B4", "direction '^400' out of range (expected ^000 to ^359)");
	assert_diag(5, 5, 5, "B5", "unknown word 'jump' " VERBS);
	assert_diag(6, 6, 4, "B6", "expected a verb after the unit (one of move fire hold)");
	assert_diag(7, 7, 14, "A2", "second verb 'hold' (expected one verb per order)");
	assert_diag(8, 8, 16, "B7", "second fraction '¾' (expected one per order)");
	assert_diag(9, 10, 12, "B8", "bad fraction '2/3' (expected one of 1/4 1/2 3/4 1)");
	ck_assert_str_eq(ord_error_last(), "order sheet has 10 syntax errors");
	/* the lines that parsed, for the ruleset to check in the same pass */
	ck_assert_uint_eq(sheet.n, 2);
	ck_assert_uint_eq(sheet.orders[0].line, 9);
	assert_printed(0, "C1: move ↗ 1");
	ck_assert_uint_eq(sheet.orders[1].line, 11);
	assert_printed(1, "B9: hold");
}
END_TEST

Suite *ord_test_suite(void)
{
	Suite *s = suite_create("notation_template");
	TCase *tc;

	/* before anything loads it */
	tc = tcase_create("built in");
	tcase_add_test(tc, test_not_built_in);
	suite_add_tcase(s, tc);

	tc = tcase_create("loading");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_loaded_from_the_path);
	tcase_add_test(tc, test_old_module_refused);
	tcase_add_test(tc, test_old_host_refused);
	suite_add_tcase(s, tc);

	tc = tcase_create("sheets");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_sheet);
	tcase_add_test(tc, test_every_error_in_one_pass);
	suite_add_tcase(s, tc);
	return s;
}
