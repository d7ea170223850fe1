/*
 * check_texts.c - text in several languages in a report (src/core/texts.c,
 * ord_texts_add): one language is written as it is, several are kept apart
 * so that a front-end can pick one (cli_lang.c), in the order given.
 */
#include <check.h>

#include "ruleset.h"

START_TEST(one_or_several)
{
	struct ord_buf b = ORD_BUF_INIT;
	struct ord_kv t;

	ord_kv_init(&t);
	ord_texts_add(&b, &t);
	ck_assert_str_eq(b.buf, "");
	ord_kv_set(&t, "en", "good order");
	ord_texts_add(&b, &t);
	ck_assert_str_eq(b.buf, "good order");
	ord_buf_reset(&b);
	ord_kv_release(&t);
	ord_kv_init(&t);
	ord_kv_set(&t, "da", "orden");
	ord_kv_set(&t, "en", "good order");
	ord_buf_adds(&b, "moral: ");
	ord_texts_add(&b, &t);
	ck_assert_str_eq(b.buf, "moral: ⟦da⟧orden⟦en⟧good order⟦⟧");
	ord_kv_release(&t);
	ord_buf_release(&b);
}
END_TEST

Suite *ord_test_suite(void)
{
	Suite *s = suite_create("texts");
	TCase *t = tcase_create("texts");

	tcase_add_test(t, one_or_several);
	suite_add_tcase(s, t);
	return s;
}
