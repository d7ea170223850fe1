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
	/* info's (game.c): the commands it names stay */
	{ "%s (%d of %zu resolved)\n", "%s (%d af %zu afgjort)\n" },
	{ "seal: every side has %s\n", "seal: hver side har %s\n" },
	{ "committed", "afgivet tilsagn" },
	{ "exchange\n", "" },
	{ "the events of phase %s (%s", "hændelserne i fasen %s (%s" },
	{ ": event, or event --file), then ", ": event eller event --file), derefter " },
	{ "phase %s records no events: ", "fasen %s har ingen hændelser: " },
	{ "resolve\n", "" },
	{ "exchange: every phase of the turn is resolved\n",
	  "exchange: hver fase i trækket er afgjort\n" },
	{ "resolve; %zu unit still waits for an event of phase %s, by its sealed order or the rules (%s)%s\n",
	  "resolve; %zu enhed venter stadig på en hændelse i fasen %s, ved sin forseglede ordre eller reglerne (%s)%s\n" },
	{ "resolve; %zu units still wait for an event of phase %s, by their sealed orders or the rules (%s)%s\n",
	  "resolve; %zu enheder venter stadig på en hændelse i fasen %s, ved deres forseglede ordrer eller reglerne (%s)%s\n" },
	{ ": resolved without, it goes undone", ": afgjort uden, bliver det ikke udført" },
	{ ": with no event of the phase recorded, resolve refuses it unless --empty",
	  ": uden nogen hændelse registreret i fasen afviser resolve den, medmindre --empty" },
	{ "%zu order no event of the turn carries out so far (%s)",
	  "%zu ordre, som ingen hændelse i trækket endnu udfører (%s)" },
	{ "%zu orders no event of the turn carries out so far (%s)",
	  "%zu ordrer, som ingen hændelse i trækket endnu udfører (%s)" },
	{ "orderly report --referee lists them", "orderly report --referee viser dem" },
	{ "orderly audit lists them once the turn is exchanged",
	  "orderly audit viser dem, når trækket er udvekslet" },
	/* info's sides of an open turn and its next step then */
	{ "not submitted", "ikke afleveret" },
	{ "submitted (version %d)\n", "afleveret (version %d)\n" },
	{ "no sheet: NMR policy '%s' applied\n", "ingen ordreseddel: NMR-reglen '%s' anvendt\n" },
	{ "opened (version %d)", "åbnet (version %d)" },
	{ "committed, not opened (version %d)", "tilsagn afgivet, ikke åbnet (version %d)" },
	{ ": NMR policy applied", ": NMR-reglen anvendt" },
	{ "sheets", "ordresedlerne" },
	{ "signed commitments", "de signerede tilsagn" },
	{ " and ", " og " },
	{ "the %s of %s (%s), then seal: the NMR policy 'wait' seals no turn without them\n",
	  "%s fra %s (%s), derefter seal: NMR-reglen 'wait' forsegler intet træk uden dem\n" },
	{ "seal: the deadline has passed; from the next second the NMR policy '%s' stands in for %s (seal --force now)\n",
	  "seal: fristen er udløbet; fra næste sekund træder NMR-reglen '%s' i stedet for %s (seal --force nu)\n" },
	{ "seal: the deadline has passed; the NMR policy '%s' stands in for %s\n",
	  "seal: fristen er udløbet; NMR-reglen '%s' træder i stedet for %s\n" },
	{ "the %s of %s (%s), then seal; or seal --force now, the NMR policy '%s' standing in for %s\n",
	  "%s fra %s (%s), derefter seal; eller seal --force nu, idet NMR-reglen '%s' træder i stedet for %s\n" },
	{ "%s to open their sheets (open)\n", "%s skal åbne deres ordresedler (open)\n" },
	{ "the next turn\n", "det næste træk\n" },
	{ "           and turn %d's bundle for the players, if not yet sent: export --turn %d -o FILE\n",
	  "           og bundtet fra træk %d til spillerne, hvis det ikke er sendt: export --turn %d -o FILE\n" },
	/* the module's messages (ks_messages), by id */
	{ "ks.pending.attack", "beordret til angreb ('A'), men intet angreb (angreb) er erklæret" },
	{ "ks.pending.move", "beordret til at flytte ('%s'), men ingen flytning (flyt) er registreret" },
	{ "ks.pending.fire-at",
	  "beordret til at skyde ('%s') mod %s, men ingen skydning (%s) er registreret" },
	{ "ks.pending.fire", "beordret til at skyde ('%s'), men ingen skydning (%s) er registreret" },
	{ "ks.pending.resupply",
	  "beordret til genforsyning ('GF'), men intet træk med genforsyning (genforsyning) er registreret (en igangværende genforsyning begynder forfra)" },
	{ "ks.pending.repair",
	  "beordret til reparation ('REP'), men intet træk med reparation (reparation) er registreret (en igangværende reparation afbrydes)" },
	{ "ks.pending.form",
	  "beordret til at danne %s ('FORM'), men ingen formationsændring (formation) er registreret" },
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
	ck_assert_uint_ge(rs->version, 12);
	ck_assert_ptr_nonnull(rs->messages);
	ck_assert_int_eq(ord_report_words_check((const char *)res->data, res->len,
						rs->words_resource, "da", rs->messages, &said),
			 0);
	for (i = 0; i < sizeof(words_da_before) / sizeof(words_da_before[0]); i++)
		ord_buf_addf(&want, "%s|%s\n", words_da_before[i][0], words_da_before[i][1]);
	ck_assert_str_eq(said.buf, want.buf);
	/* in a language it does not give: English, every word */
	ord_buf_reset(&said);
	ck_assert_int_eq(ord_report_words_check((const char *)res->data, res->len,
						rs->words_resource, "sv", rs->messages, &said),
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
	msg = ord_strdup(ord_report_words_check(doc.buf, doc.len, "words.xml", "da", NULL, NULL)
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

/* a words document whose chart messages has rows, checked in Danish
 * against two messages: its message, or "" */
static const struct ord_message test_msgs[] = {
	{ "t.move", "ordered to move ('%s') but no move was recorded" },
	{ "t.fire", "ordered to fire at %s with %d guns" },
	{ NULL, NULL },
};

static char *messages_refused_of(const char *labels, const char *rows, const struct ord_message *msgs)
{
	struct ord_buf doc = ORD_BUF_INIT;
	char *msg;

	ord_buf_addf(&doc,
		     "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		     "<tables ruleset=\"krigsspil\">\n"
		     "  <chart name=\"report_words\" title=\"ord\" labels=\"en da\">\n"
		     "    <row en=\"units:\" da=\"enheder:\"/>\n"
		     "  </chart>\n"
		     "  <chart name=\"messages\" title=\"meddelelser\" labels=\"%s\">\n"
		     "    <row id=\"t.move\" en=\"ordered to move ('%%s') but no move was recorded\" "
		     "da=\"flyt ('%%s') mangler\"/>\n"
		     "%s"
		     "  </chart>\n"
		     "</tables>\n",
		     labels, rows);
	msg = ord_strdup(ord_report_words_check(doc.buf, doc.len, "words.xml", "da", msgs, NULL)
				 ? ord_error_last()
				 : "");
	ord_buf_release(&doc);
	return msg;
}

static char *messages_refused(const char *labels, const char *rows)
{
	return messages_refused_of(labels, rows, test_msgs);
}

/* A chart of messages: an unknown id, one given twice, an English that
 * is no longer the message's, conversions out of order: each refused,
 * naming the file and line. */
START_TEST(messages_refused_lines)
{
	char *m;

	m = messages_refused("id en da", "    <row id=\"t.fire\" en=\"ordered to fire at %s with "
					 "%d guns\" da=\"skyd mod %s med %d kanoner\"/>\n");
	ck_assert_str_eq(m, "");
	free(m);
	m = messages_refused("id en da", "    <row id=\"t.flee\" en=\"x\" da=\"y\"/>\n");
	ck_assert_str_eq(m, "words.xml:8: 't.flee' is none of the ruleset's messages (expected one "
			    "of its ids: t.move, t.fire)");
	free(m);
	m = messages_refused("id en da",
			     "    <row id=\"t.move\" en=\"ordered to move ('%s') but no move was "
			     "recorded\" da=\"flyt\"/>\n");
	ck_assert_str_eq(m, "words.xml:8: the message 't.move' is given twice");
	free(m);
	m = messages_refused("id en da", "    <row id=\"t.fire\" en=\"ordered to fire at %s\" "
					 "da=\"skyd mod %s\"/>\n");
	ck_assert_str_eq(m, "words.xml:8: 'ordered to fire at %s' is not the English of message "
			    "'t.fire' (expected 'ordered to fire at %s with %d guns': the message "
			    "changed since its words were written)");
	free(m);
	m = messages_refused("id en da", "    <row id=\"t.fire\" en=\"ordered to fire at %s with "
					 "%d guns\" da=\"%d kanoner skyder mod %s\"/>\n");
	ck_assert_str_eq(m, "words.xml:8: '%d kanoner skyder mod %s' for message 't.fire' has the "
			    "conversions '%d %s' (expected '%s %d', the English's, in that order)");
	free(m);
	/* a ruleset that declares none */
	m = messages_refused_of("id en da", "", NULL);
	ck_assert_str_eq(m, "words.xml:7: 't.move' is none of the ruleset's messages (expected one "
			    "of its ids: none)");
	free(m);
	m = messages_refused("en da", "");
	ck_assert_ptr_nonnull(strstr(m, "chart 'messages' has no label 'id'"));
	free(m);
}
END_TEST

/* A message with an id said in Danish: its conversions filled with what
 * filled the English's, or the words the module gave for one; English
 * when appended to, or when the words give none. */
START_TEST(diag_said_in_danish)
{
	const struct ord_ruleset *rs;
	struct ord_report_words *w = NULL;
	struct ord_diag d;
	struct ord_buf out = ORD_BUF_INIT;
	struct ord_diag_item *it;

	ck_assert_int_eq(ord_ruleset_find(&rs, "krigsspil"), 0);
	ck_assert_int_eq(ord_report_words_load(&w, rs, "da"), 0);
	ord_diag_init(&d);
	it = ord_diag_add_id(&d, 3, 5, "A1", "15", "ks.pending.fire-at",
			     "ordered to fire ('%s') at %s but no fire (%s) was recorded",
			     "skydning", "L2", "skyd");
	ck_assert_str_eq(it->msg, "ordered to fire ('skydning') at L2 but no fire (skyd) was recorded");
	ck_assert_uint_eq(it->nargs, 3);
	ord_report_diag_said(&out, w, it);
	ck_assert_str_eq(out.buf,
			 "beordret til at skyde ('skydning') mod L2, men ingen skydning (skyd) er registreret");
	ord_diag_item_arg_said(it, 1, "da", "Højderyggen");
	ord_buf_reset(&out);
	ord_report_diag_said(&out, w, it);
	ck_assert_ptr_nonnull(strstr(out.buf, "mod Højderyggen, men"));
	/* widths and numbers as the English wrote them */
	it = ord_diag_add_id(&d, 0, 0, "A1", "12", "ks.pending.form",
			     "ordered to form %s ('FORM') but no formation change (formation) was recorded",
			     "kolonne");
	ord_buf_reset(&out);
	ord_report_diag_said(&out, w, it);
	ck_assert_str_eq(out.buf, "beordret til at danne kolonne ('FORM'), men ingen "
				  "formationsændring (formation) er registreret");
	/* appended to: no longer the catalogue's, English */
	ord_diag_item_addf(it, " (and more)");
	ck_assert_ptr_null(it->id);
	ord_buf_reset(&out);
	ord_report_diag_said(&out, w, it);
	ck_assert_str_eq(out.buf, "ordered to form kolonne ('FORM') but no formation change "
				  "(formation) was recorded (and more)");
	/* an id the words do not give, and English words: as written */
	it = ord_diag_add_id(&d, 0, 0, "", "", "ks.none", "%d of %zu at %5.1f", 3, (size_t)7, 2.25);
	ck_assert_str_eq(it->msg, "3 of 7 at   2.2");
	ck_assert_uint_eq(it->nargs, 3);
	ck_assert_str_eq(it->args[2].text, "  2.2");
	ord_buf_reset(&out);
	ord_report_diag_said(&out, w, it);
	ck_assert_str_eq(out.buf, "3 of 7 at   2.2");
	ord_report_words_free(w);
	ck_assert_int_eq(ord_report_words_load(&w, rs, "en"), 0);
	ord_buf_reset(&out);
	ord_report_diag_said(&out, w, &d.items[0]);
	ck_assert_str_eq(out.buf, "ordered to fire ('skydning') at L2 but no fire (skyd) was recorded");
	ord_report_words_free(w);
	ord_diag_release(&d);
	ord_buf_release(&out);
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
	tcase_add_test(t, messages_refused_lines);
	tcase_add_test(t, diag_said_in_danish);
	suite_add_tcase(s, t);
	return s;
}
