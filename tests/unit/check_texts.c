/*
 * check_texts.c - text in several languages (src/core/texts.c): a text is
 * kept as language -> text, the module's own first; it is rendered in the
 * language asked for, the first when it has none in that language, or in
 * every language ("first [en: second]"); rulesets declare their languages.
 * The words a report is framed in, in a ruleset's language, read from its
 * data (words_resource, src/core/game_report.c): the Krigsspil's Danish
 * word for word as the builder wrote it from C, and a document with a
 * word of none, twice, or of other conversions refused at its line.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ruleset.h"
#include "core/common.h"
#include "core/report.h"

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

/* The Danish the report builder held in C (words_da) until it was moved
 * into the Krigsspil's data: the report's words in Danish, byte for byte,
 * each "english|dansk\n" as ord_report_words_check gives them. */
static const char *const words_da_before[][2] = {
	{ "%s: turn %d (%s), report for %s\n", "%s: træk %d (%s), rapport til %s\n" },
	{ "the referee", "dommeren" },
	{ "the other sides' sheets stay secret until the exchange\n",
	  "de andre siders ordresedler er hemmelige indtil udvekslingen\n" },
	{ "sheet of %s (version %d, %s), commitment ", "ordreseddel fra %s (version %d, %s), tilsagn " },
	{ "  (no orders)\n", "  (ingen ordrer)\n" },
	{ "your units:\n", "dine enheder:\n" },
	{ "units:\n", "enheder:\n" },
	{ "enemy units met this turn:\n", "fjendtlige enheder mødt i dette træk:\n" },
	{ "results for your units and of their actions:\n",
	  "resultater for dine enheder og deres handlinger:\n" },
	{ "results:\n", "resultater:\n" },
	{ "events:\n", "hændelser:\n" },
	{ "rolls:\n", "terningkast:\n" },
	{ ", automatic", ", automatisk" },
	{ "orders no event of the turn carries out so far:\n",
	  "ordrer, som ingen hændelse i trækket endnu udfører:\n" },
	{ "open", "åben" },
	{ "sealed", "forseglet" },
	{ "resolved", "afgjort" },
	{ "exchanged", "udvekslet" },
	{ "submitted", "afleveret" },
	{ "hold", "hold" },
	{ "repeat", "gentaget" },
	{ "events the referee recorded against the checks:\n",
	  "hændelser, som dommeren registrerede mod kontrollen:\n" },
	{ " (the checks said: ", " (kontrollen sagde: " },
	{ "     OVERRIDE by the referee: ", "     MOD KONTROLLEN, dommerens grund: " },
	{ " (checks said: ", " (kontrollen sagde: " },
	{ " (fixed)", " (fastsat)" },
	{ "events the referee voided (they count for nothing):\n",
	  "hændelser, som dommeren annullerede (de tæller ikke):\n" },
	{ "voided", "annulleret" },
	{ "  (#N numbers the events you see 1, 2, ... in the turn's order; the referee's report numbers every event of the turn, so his numbers differ)\n",
	  "  (#N nummererer de hændelser, du ser, 1, 2, ... i trækkets rækkefølge; dommerens rapport nummererer alle trækkets hændelser, så hans numre er andre)\n" },
};

START_TEST(report_words_krigsspil)
{
	const struct ord_ruleset *rs;
	const struct ord_resource *res;
	struct ord_buf said = ORD_BUF_INIT, want = ORD_BUF_INIT;
	size_t i;

	ck_assert_int_eq(ord_ruleset_find(&rs, "krigsspil"), 0);
	ck_assert_uint_ge(rs->version, 11);
	ck_assert_str_eq(rs->words_resource, "rulesets/krigsspil/words.xml");
	res = ord_resource_find(rs->words_resource);
	ck_assert_ptr_nonnull(res);
	ck_assert_int_eq(ord_report_words_check((const char *)res->data, res->len,
						rs->words_resource, "da", &said),
			 0);
	for (i = 0; i < sizeof(words_da_before) / sizeof(words_da_before[0]); i++)
		ord_buf_addf(&want, "%s|%s\n", words_da_before[i][0], words_da_before[i][1]);
	ck_assert_str_eq(said.buf, want.buf);
	/* in a language it does not give: English, every word */
	ord_buf_reset(&said);
	ck_assert_int_eq(ord_report_words_check((const char *)res->data, res->len,
						rs->words_resource, "sv", &said),
			 0);
	ck_assert_ptr_null(strstr(said.buf, "dommeren"));
	ck_assert_ptr_nonnull(strstr(said.buf, "the referee|\n"));
	/* battalion's reports are English */
	ck_assert_int_eq(ord_ruleset_find(&rs, "battalion"), 0);
	ck_assert_ptr_null(rs->words_resource);
	ord_buf_release(&said);
	ord_buf_release(&want);
}
END_TEST

/* a words document with one row, checked in Danish: its message, or "" */
static char *words_refused(const char *row)
{
	struct ord_buf doc = ORD_BUF_INIT;
	char *msg;

	ord_buf_addf(&doc,
		     "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		     "<tables ruleset=\"krigsspil\">\n"
		     "  <chart name=\"report_words\" title=\"ord\" labels=\"en da\">\n"
		     "    <row en=\"units:\" da=\"enheder:\"/>\n"
		     "    %s\n"
		     "  </chart>\n"
		     "</tables>\n",
		     row);
	msg = ord_strdup(ord_report_words_check(doc.buf, doc.len, "words.xml", "da", NULL)
				 ? ord_error_last()
				 : "");
	ord_buf_release(&doc);
	return msg;
}

START_TEST(report_words_refused)
{
	char *m;

	m = words_refused("<row en=\"rolls:\" da=\"terningkast:\"/>");
	ck_assert_str_eq(m, "");
	free(m);
	m = words_refused("<row en=\"your unit:\" da=\"dine enheder:\"/>");
	ck_assert_str_eq(m, "words.xml:5: 'your unit:' is none of the report's words (expected one "
			    "as orderly writes it in English, without its leading spaces and line "
			    "end: 'the referee', 'your units:', ...)");
	free(m);
	m = words_refused("<row en=\"units:\" da=\"enhederne:\"/>");
	ck_assert_str_eq(m, "words.xml:5: the word 'units:' is given twice");
	free(m);
	m = words_refused("<row en=\"%s: turn %d (%s), report for %s\" "
			  "da=\"%s: træk %s (%d), rapport til %s\"/>");
	ck_assert_str_eq(m, "words.xml:5: '%s: træk %s (%d), rapport til %s' for '%s: turn %d "
			    "(%s), report for %s' has the conversions '%s %s %d %s' (expected '%s "
			    "%d %s %s', the English's, in that order)");
	free(m);
	m = words_refused("<row en=\"sheet of %s (version %d, %s), commitment\" "
			  "da=\"ordreseddel (version %d, %s), tilsagn\"/>");
	ck_assert_ptr_nonnull(strstr(m, "has the conversions '%d %s' (expected '%s %d %s'"));
	free(m);
	/* a row without its Danish is refused by the tables engine */
	m = words_refused("<row en=\"rolls:\"/>");
	ck_assert_ptr_nonnull(strstr(m, "words.xml:5"));
	free(m);
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
	tcase_add_test(t, report_words_krigsspil);
	tcase_add_test(t, report_words_refused);
	suite_add_tcase(s, t);
	return s;
}
