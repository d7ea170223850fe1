/*
 * check_texts.c - text in several languages (src/core/texts.c): a text is
 * kept as language -> text, the module's own first; it is rendered in the
 * language asked for, the first when it has none in that language, or in
 * every language ("first [en: second]"); rulesets declare their languages.
 */
#include <check.h>

#include "ruleset.h"

START_TEST(render_one_language)
{
	struct ord_buf b = ORD_BUF_INIT;
	struct ord_kv t;

	ord_kv_init(&t);
	/* no texts: the explanation as it is, whatever the language */
	ord_texts_render("good order", &t, "da", &b);
	ck_assert_str_eq(b.buf, "good order");
	ord_buf_reset(&b);
	ord_texts_render("good order", NULL, NULL, &b);
	ck_assert_str_eq(b.buf, "good order");
	ord_buf_reset(&b);
	/* one text: that one */
	ord_kv_set(&t, "en", "steady");
	ord_texts_render("", &t, "da", &b);
	ck_assert_str_eq(b.buf, "steady");
	ord_kv_release(&t);
	ord_buf_release(&b);
}
END_TEST

START_TEST(render_several)
{
	struct ord_buf b = ORD_BUF_INIT;
	struct ord_kv t;

	ord_kv_init(&t);
	ord_kv_set(&t, "da", "orden");
	ord_kv_set(&t, "en", "good order");
	ord_texts_render("orden", &t, "en", &b);
	ck_assert_str_eq(b.buf, "good order");
	ord_buf_reset(&b);
	ord_texts_render("orden", &t, "da", &b);
	ck_assert_str_eq(b.buf, "orden");
	ord_buf_reset(&b);
	/* a language it was not written in: the module's own */
	ord_texts_render("orden", &t, "fr", &b);
	ck_assert_str_eq(b.buf, "orden");
	ord_buf_reset(&b);
	/* every language, the first as it is and the others named */
	ord_buf_adds(&b, "moral: ");
	ord_texts_render("orden", &t, NULL, &b);
	ck_assert_str_eq(b.buf, "moral: orden [en: good order]");
	ord_kv_release(&t);
	ord_buf_release(&b);
}
END_TEST

START_TEST(ruleset_languages)
{
	const struct ord_ruleset *ks, *bat;
	struct ord_buf b = ORD_BUF_INIT;

	ck_assert_int_eq(ord_ruleset_find(&ks, "krigsspil"), 0);
	ck_assert_int_eq(ord_ruleset_find(&bat, "battalion"), 0);
	ck_assert_str_eq(ord_ruleset_language(ks, NULL), "da");
	ck_assert_str_eq(ord_ruleset_language(ks, "en"), "en");
	ck_assert_ptr_null(ord_ruleset_language(ks, "fr"));
	ck_assert_str_eq(ord_ruleset_language(bat, NULL), "en");
	ck_assert_ptr_null(ord_ruleset_language(bat, "da"));
	ord_ruleset_languages(ks, &b);
	ck_assert_str_eq(b.buf, "da, en");
	ord_buf_release(&b);
}
END_TEST

/* A module's own tests see every language of what it writes. */
START_TEST(fake_context_all_languages)
{
	const struct ord_ruleset *ks;
	struct ord_ctx *ctx;
	struct ord_buf b = ORD_BUF_INIT;
	struct ord_kv t;

	ck_assert_int_eq(ord_ruleset_find(&ks, "krigsspil"), 0);
	ctx = ord_ctx_fake_new(ks, NULL, 1);
	ck_assert_ptr_null(ord_ctx_lang(ctx));
	ord_kv_init(&t);
	ord_kv_set(&t, "da", "orden");
	ord_kv_set(&t, "en", "good order");
	ord_texts_add(ctx, &b, &t);
	ck_assert_str_eq(b.buf, "orden [en: good order]");
	ord_ctx_result_texts(ctx, 1, "u1", NULL, &t);
	ord_ctx_result(ctx, 2, "u2", NULL, "plain %d", 3);
	ck_assert_str_eq(ord_ctx_fake_results(ctx), "u1: orden [en: good order]\nu2: plain 3\n");
	ord_kv_release(&t);
	ord_buf_release(&b);
	ord_ctx_fake_free(ctx);
}
END_TEST

Suite *ord_test_suite(void)
{
	Suite *s = suite_create("texts");
	TCase *t = tcase_create("texts");

	tcase_add_test(t, render_one_language);
	tcase_add_test(t, render_several);
	tcase_add_test(t, ruleset_languages);
	tcase_add_test(t, fake_context_all_languages);
	suite_add_tcase(s, t);
	return s;
}
