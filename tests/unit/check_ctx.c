/*
 * check_ctx.c - the module context's look-up of units (src/core/ctx.c):
 * by id, then by name in any ASCII case, with Latin letters composed, so
 * that a name from macOS or a PDF (é as e and U+0301) finds its unit; and
 * the "did you mean" of a name that finds none.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "orderly.h"
#include "ruleset.h"
#include "core/common.h"
#include "core/ctx.h"

static struct ord_ctx ctx;

static void setup(void)
{
	ord_ctx_init(&ctx, NULL, NULL, 1);
	ord_ctx_add_unit(&ctx, "F1", "1/2e L\u00E9ger", "french", "", "");
	ord_ctx_add_unit(&ctx, "\u00C51", "Sk\u00E5ne Dragoner", "danske", "", "");
	/* a scenario written on macOS: its name decomposed */
	ord_ctx_add_unit(&ctx, "D2", "Ja\u0308ger Bataillon", "danske", "", "");
	ord_ctx_add_unit(&ctx, "R1", "Rogers\u2019 Company", "british", "", "");
	ord_ctx_index(&ctx);
}

static void teardown(void)
{
	ord_ctx_release(&ctx);
}

static const char *found(const char *written)
{
	const struct ord_unit *u = ord_ctx_find_unit(&ctx, written);

	return u ? u->id : "";
}

START_TEST(test_find_as_written)
{
	ck_assert_str_eq(found("F1"), "F1");
	ck_assert_str_eq(found("1/2e L\u00E9ger"), "F1");
	ck_assert_str_eq(found("1/2E L\u00E9GER"), "F1");
	ck_assert_str_eq(found("Rogers\u2019 Company"), "R1");
	/* an id as written; a name in any ASCII case, and only ASCII */
	ck_assert_str_eq(found("f1"), "");
	ck_assert_str_eq(found("1/2E LÉGER"), "");
	ck_assert_str_eq(found("1/2e Leger"), "");
	ck_assert_str_eq(found("Rogers' Company"), "");
}
END_TEST

START_TEST(test_find_decomposed)
{
	/* é as e and U+0301, Å as A and U+030A: in names and ids */
	ck_assert_str_eq(found("1/2e Le\u0301ger"), "F1");
	ck_assert_str_eq(found("1/2E Le\u0301GER"), "F1");
	ck_assert_str_eq(found("Ska\u030Ane Dragoner"), "\u00C51");
	ck_assert_str_eq(found("A\u030A1"), "\u00C51");
	/* the unit's name decomposed, the sheet's composed, or both alike */
	ck_assert_str_eq(found("J\u00E4ger Bataillon"), "D2");
	ck_assert_str_eq(found("Ja\u0308ger Bataillon"), "D2");
	/* a mark the table does not compose is a character of its own */
	ck_assert_str_eq(found("1/2e Le\u0323ger"), "");
	ck_assert_str_eq(found("1/2e Le\u0301\u0301ger"), "");
	ck_assert_str_eq(found("1/2e Le\u0301"), "");
	/* bytes that are not UTF-8 match nothing, and do no harm */
	ck_assert_str_eq(found("1/2e L\xC3"), "");
	ck_assert_str_eq(found("\xCC"), "");
}
END_TEST

static char *hint(const char *written, const char *side)
{
	struct ord_buf b = ORD_BUF_INIT;

	ord_ctx_unit_hint(&ctx, written, side, &b);
	return ord_buf_detach(&b, NULL);
}

START_TEST(test_hint)
{
	char *h;

	/* a misspelt decomposed name is as near as the composed one */
	h = hint("1/2e Le\u0301gar", "french");
	ck_assert_str_eq(h, ": did you mean 'F1' (1/2e L\u00E9ger)?");
	free(h);
	/* a mark left apart from its letter: said, and the unit named */
	h = hint("1/2e Le\u0323ger", "french");
	ck_assert_str_eq(h, ": the accent U+0323 after 'e' is a character of its own, not part of "
			    "the letter (type the letter with its accent as one character); did you "
			    "mean 'F1' (1/2e L\u00E9ger)?");
	free(h);
	h = hint("\u0301X", NULL);
	ck_assert_str_eq(h, ": the accent U+0301 after '' is a character of its own, not part of the "
			    "letter (type the letter with its accent as one character)");
	free(h);
	h = hint("F9", "french");
	ck_assert_str_eq(h, ": did you mean 'F1' (1/2e L\u00E9ger)?");
	free(h);
}
END_TEST

Suite *ord_test_suite(void)
{
	Suite *s = suite_create("ctx");
	TCase *tc = tcase_create("units");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_find_as_written);
	tcase_add_test(tc, test_find_decomposed);
	tcase_add_test(tc, test_hint);
	suite_add_tcase(s, tc);
	return s;
}
