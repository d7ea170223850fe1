/*
 * check_calcdrv.c - the calculator driver (src/core/calcdrv.c) with a
 * calculator of its own, written here as a module would write one: the
 * arguments checked by the events' key checker in the calculator's
 * wording, words read from the tables, modifier flags, dice from --dice
 * then rolled (never more than the calculation takes), and the two forms
 * of the answer.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orderly.h"
#include "ruleset.h"
#include "tables.h"

static const char doc[] = "<?xml version=\"1.0\"?>\n"
			  "<tables ruleset=\"test\">\n"
			  "  <chart name=\"kinds\" title=\"Kinds\" keys=\"kind\" columns=\"points\">\n"
			  "    <row kind=\"foot\" points=\"1\"/>\n"
			  "    <row kind=\"horse\" points=\"2\"/>\n"
			  "  </chart>\n"
			  "  <modifiers name=\"mods\" title=\"Mods\">\n"
			  "    <mod when=\"flank\" mode=\"sum\" value=\"2\" label=\"flank\"/>\n"
			  "    <mod when=\"hill\" unless=\"rain\" mode=\"sum\" value=\"1\" label=\"hill\"/>\n"
			  "  </modifiers>\n"
			  "</tables>\n";

static struct ord_tables *tables;

static const struct ord_key_spec roll_args[] = {
	{ "kind", ORD_KEY_WORD, 1, "kinds.kind", 0, 0, NULL, NULL },
	{ "count", ORD_KEY_INT, 0, NULL, 1, 6, "1", NULL },
	{ "range", ORD_KEY_NUM, 0, NULL, 0, 1000000, NULL, "cm" },
	{ "side", ORD_KEY_ENUM, 0, "a|b|no", 0, 0, "no", NULL },
	{ "lang", ORD_KEY_ENUM, 0, "xx|yy", 0, 0, "xx", NULL },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

static const char *const flag_tables[] = { "mods", NULL };
static const char *const prefixes[] = { "a_", "b_", NULL };

/* Roll `count` d6 and say what the flags and kind were. */
static int run_roll(struct ord_calc *c, struct ord_rules *rules)
{
	const struct ord_kv *a = ord_calc_args(c);
	struct ord_kv flags;
	struct ord_buf xx = ORD_BUF_INIT;
	long i, n = ord_kv_get_int(a, "count", 0);
	int err = 0, die;

	(void)rules;
	ord_kv_init(&flags);
	ord_calc_flags(c, "a_", &flags);
	for (i = 0; i < n && !err; i++) {
		char name[32];
		snprintf(name, sizeof(name), "d%ld", i + 1);
		if ((err = ord_calc_die(c, &die, 6, name)) == 0)
			ord_buf_addf(&xx, "%s%d", i ? "+" : "", die);
	}
	if (!err) {
		ord_calc_value(c, "kind", ord_kv_get(a, "kind"));
		ord_calc_value_int(c, "flags", (long)flags.n);
		ord_calc_value_num(c, "half", 0.5);
		ord_calc_explain(c, "xx", xx.buf);
		ord_calc_explain(c, "yy", "YY");
	}
	ord_kv_release(&flags);
	ord_buf_release(&xx);
	return err;
}

/* One language, a summary and a tail of its own. */
static int run_plain(struct ord_calc *c, struct ord_rules *rules)
{
	(void)rules;
	ord_calc_value(c, "v", "1");
	ord_calc_summary(c, "v is %d", 1);
	ord_calc_after(c, ": %s", "after");
	ord_calc_explain(c, "en", "because");
	return 0;
}

static const struct ord_key_spec no_args[] = { { NULL, 0, 0, NULL, 0, 0, NULL, NULL } };

static const struct ord_calculation calcs[] = {
	{ "roll", roll_args, 2, flag_tables, prefixes, run_roll },
	{ "plain", no_args, 0, NULL, NULL, run_plain },
	{ NULL, NULL, 0, NULL, NULL, NULL },
};

static const char *const rolled[] = { "xx", "rolled xx", "yy", "rolled yy", NULL };
static const struct ord_calculator calculator = { "test", calcs, "lang", rolled };

static void setup(void)
{
	ck_assert_int_eq(ord_tables_load(&tables, doc, strlen(doc), "t.xml"), 0);
}

static void teardown(void)
{
	ord_tables_free(tables);
}

/* Run what with "k=v k=v" and dice; the output or the error message. */
static int run(struct ord_buf *out, const char *what, const char *args, const int *dice,
	       size_t ndice, int xml)
{
	struct ord_kv kv;
	char *copy = strdup(args), *tok, *save = NULL;
	int err;

	ord_kv_init(&kv);
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');
		*eq = '\0';
		ord_kv_set(&kv, tok, eq + 1);
	}
	ord_buf_reset(out);
	err = ord_calc_run(&calculator, NULL, tables, what, &kv, dice, ndice, xml, out);
	if (err)
		ord_buf_adds(out, ord_error_last());
	ord_kv_release(&kv);
	free(copy);
	return err;
}

START_TEST(answers_as_text_and_xml)
{
	static const int d[] = { 3, 5 };
	struct ord_buf out = ORD_BUF_INIT;

	ck_assert_int_eq(run(&out, "roll", "kind=horse count=2 a_flank=yes a_hill=1", d, 2, 0), 0);
	ck_assert_str_eq(out.buf, "kind horse, flags 2, half 0.5 (3+5)\n");
	ck_assert_int_eq(run(&out, "roll", "kind=horse count=2 lang=yy", d, 2, 0), 0);
	ck_assert_str_eq(out.buf, "kind horse, flags 0, half 0.5 (YY)\n");
	ck_assert_int_eq(run(&out, "roll", "kind=foot count=2", d, 2, 1), 0);
	ck_assert_str_eq(out.buf, "<calc ruleset=\"test\" what=\"roll\">\n"
				  "  <value name=\"kind\">foot</value>\n"
				  "  <value name=\"flags\">0</value>\n"
				  "  <value name=\"half\">0.5</value>\n"
				  "  <die name=\"d1\" sides=\"6\" rolled=\"no\">3</die>\n"
				  "  <die name=\"d2\" sides=\"6\" rolled=\"no\">5</die>\n"
				  "  <explanation lang=\"xx\">3+5</explanation>\n"
				  "  <explanation lang=\"yy\">YY</explanation>\n"
				  "</calc>\n");
	/* one language: no lang attribute; a summary and a tail of its own */
	ck_assert_int_eq(run(&out, "plain", "", NULL, 0, 0), 0);
	ck_assert_str_eq(out.buf, "v is 1 (because): after\n");
	ck_assert_int_eq(run(&out, "plain", "", NULL, 0, 1), 0);
	ck_assert_ptr_nonnull(strstr(out.buf, "  <explanation>because</explanation>\n</calc>\n"));
	ord_buf_release(&out);
}
END_TEST

START_TEST(dice_given_then_rolled)
{
	static const int d[] = { 4 };
	struct ord_buf out = ORD_BUF_INIT;
	int seen[7] = { 0 }, i, face;

	/* the first die given, the second rolled and said so, in the language asked */
	ck_assert_int_eq(run(&out, "roll", "kind=foot count=2 lang=yy", d, 1, 0), 0);
	ck_assert_ptr_nonnull(strstr(out.buf, "\nrolled yy: d2 d6 = "));
	ck_assert_int_eq(run(&out, "roll", "kind=foot count=2", d, 1, 1), 0);
	ck_assert_ptr_nonnull(strstr(out.buf, "<die name=\"d1\" sides=\"6\" rolled=\"no\">4</die>"));
	ck_assert_ptr_nonnull(strstr(out.buf, "<die name=\"d2\" sides=\"6\" rolled=\"yes\">"));
	/* rolled dice are faces of the die, every face comes up */
	for (i = 0; i < 200; i++) {
		ck_assert_int_eq(run(&out, "roll", "kind=foot count=1", NULL, 0, 1), 0);
		face = atoi(strstr(out.buf, "rolled=\"yes\">") + strlen("rolled=\"yes\">"));
		ck_assert(face >= 1 && face <= 6);
		seen[face]++;
	}
	for (i = 1; i <= 6; i++)
		ck_assert_int_gt(seen[i], 0);
	/* more dice than the calculation takes */
	ck_assert_int_eq(run(&out, "roll", "kind=foot", (const int[]){ 1, 2, 3 }, 3, 0), ORD_EUSAGE);
	ck_assert_str_eq(out.buf, "dice: 3 given, roll uses 2");
	ord_buf_release(&out);
}
END_TEST

START_TEST(arguments_in_the_calculators_words)
{
	struct ord_buf out = ORD_BUF_INIT;

#define FAILS(what, args, msg)                                                   \
	do {                                                                     \
		ck_assert_int_eq(run(&out, what, args, NULL, 0, 0), ORD_EUSAGE); \
		ck_assert_str_eq(out.buf, msg);                                  \
	} while (0)
	FAILS("nosuch", "", "unknown calculation 'nosuch' (expected one of roll plain)");
	FAILS("roll", "", "kind: missing (expected one of foot horse)");
	FAILS("roll", "kind=camel", "kind: unknown 'camel' (expected one of foot horse)");
	FAILS("roll", "kind=foot count=7", "count: '7' is not a whole number (expected 1 to 6)");
	FAILS("roll", "kind=foot range=far", "range: 'far' is not a distance (expected cm, 0 or more)");
	FAILS("roll", "kind=foot side=c", "side: 'c' (expected a, b or no)");
	FAILS("roll", "kind=foot a_flank=maybe",
	      "a_flank: 'maybe' is not a flag (expected yes, no or a number)");
	FAILS("roll", "kind=foot c_flank=yes",
	      "roll: unknown key 'c_flank' (expected kind count range side lang, or a modifier "
	      "flag: a_flank a_hill a_rain b_flank b_hill b_rain)");
	FAILS("plain", "x=1", "plain: unknown key 'x' (expected )");
	/* a flag of the tables without its prefix is no key */
	FAILS("roll", "kind=foot flank=yes",
	      "roll: unknown key 'flank' (expected kind count range side lang, or a modifier "
	      "flag: a_flank a_hill a_rain b_flank b_hill b_rain)");
#undef FAILS
	ord_buf_release(&out);
}
END_TEST

Suite *ord_test_suite(void)
{
	Suite *s = suite_create("calcdrv");
	TCase *t = tcase_create("driver");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_test(t, answers_as_text_and_xml);
	tcase_add_test(t, dice_given_then_rolled);
	tcase_add_test(t, arguments_in_the_calculators_words);
	suite_add_tcase(s, t);
	return s;
}
