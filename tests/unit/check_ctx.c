/*
 * check_ctx.c - the module context's look-up of units (src/core/ctx.c):
 * by id, then by name in any ASCII case, with Latin letters composed, so
 * that a name from macOS or a PDF (é as e and U+0301) finds its unit; and
 * the "did you mean" of a name that finds none.  A unit's results
 * (ord_ctx_unit_result_get), by its id, as they are written, and those
 * added between a module's questions appended to the index, not made
 * again.
 */
#include <check.h>
#include <stdio.h>
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

/* A Krigsspil game's units (the ordre notation reads its words with æ ø
 * å typed ae oe aa, in any case): made= and made_core= say how a name is
 * found. */
static void ks_units_core(struct ord_ctx *k, const char *made, const char *core)
{
	const struct ord_ruleset *rs;

	ck_assert_int_eq(ord_ruleset_find(&rs, "krigsspil"), 0);
	ord_ctx_init(k, rs, NULL, 1);
	ord_ctx_set_made(k, made, core);
	ord_ctx_add_unit(k, "D3", "Slesvigske J\u00E6gerkorps", "danske", "", "");
	ord_ctx_add_unit(k, "D4", "S\u00F8ndre J\u00E6gerkorps", "danske", "", "");
	ord_ctx_add_unit(k, "D5", "J\u00E6gerkorps", "danske", "", "");
	ord_ctx_add_unit(k, "L1", "Holsteen", "allierede", "", "");
	ord_ctx_add_unit(k, "L2", "Holstein", "allierede", "", "");
	ord_ctx_add_unit(k, "L3", "H\u00F8lstein", "allierede", "", "");
	ord_ctx_index(k);
}

/* ... a game made before the core revision was logged (made_core=) */
static void ks_units(struct ord_ctx *k, const char *made)
{
	ks_units_core(k, made, NULL);
}

static const char *ks_found(struct ord_ctx *k, const char *written)
{
	const struct ord_unit *u = ord_ctx_find_unit(k, written);

	return u ? u->id : "";
}

static char *ks_hint(struct ord_ctx *k, const char *written)
{
	struct ord_buf b = ORD_BUF_INIT;

	ord_ctx_unit_hint(k, written, NULL, &b);
	return ord_buf_detach(&b, NULL);
}

/* A game made since 2026-12-07 finds a name as the notation reads its
 * words when no unit has it as written, and only when one unit's reads
 * so; a game made before finds it as written, and its hint says why. */
START_TEST(test_find_keyed)
{
	struct ord_ctx k;
	char *h;

	ks_units(&k, "2026-12-07");
	ck_assert_str_eq(ks_found(&k, "Soendre Jaegerkorps"), "D4");
	ck_assert_str_eq(ks_found(&k, "SOENDRE JAEGERKORPS"), "D4");
	ck_assert_str_eq(ks_found(&k, "S\u00D8NDRE J\u00C6GERKORPS"), "D4");
	ck_assert_str_eq(ks_found(&k, "J\u00C6GERKORPS"), "D5");
	ck_assert_str_eq(ks_found(&k, "jaegerkorps"), "D5");
	/* as written first: Holstein is L2's, never the H\u00F8lstein it reads as */
	ck_assert_str_eq(ks_found(&k, "holstein"), "L2");
	ck_assert_str_eq(ks_found(&k, "Hoelstein"), "L3");
	/* ids as written, as before */
	ck_assert_str_eq(ks_found(&k, "d4"), "");
	ck_assert_str_eq(ks_found(&k, "Sondre Jaegerkorps"), "");
	ord_ctx_release(&k);

	/* a name two units' names read as is none of them, and said so */
	ks_units(&k, "2026-12-08");
	ord_ctx_add_unit(&k, "D6", "Soendre J\u00E6gerkorps", "danske", "", "");
	ord_ctx_index(&k);
	ck_assert_str_eq(ks_found(&k, "S\u00D8NDRE JAEGERKORPS"), "");
	ck_assert_str_eq(ks_found(&k, "Soendre J\u00E6gerkorps"), "D6");
	h = ks_hint(&k, "S\u00D8NDRE JAEGERKORPS");
	ck_assert_str_eq(h, ": as the notation reads its words, 'S\u00D8NDRE JAEGERKORPS' is the "
			    "name of more than one unit, 'D4' or 'D6': write the name as the "
			    "scenario does, or the unit's id");
	free(h);
	ord_ctx_release(&k);

	/* a game made before: as written, the letters and the case said */
	ks_units(&k, NULL);
	ck_assert_str_eq(ks_found(&k, "Soendre Jaegerkorps"), "");
	ck_assert_str_eq(ks_found(&k, "J\u00C6GERKORPS"), "");
	ck_assert_str_eq(ks_found(&k, "jaegerkorps"), "");
	ck_assert_str_eq(ks_found(&k, "Hoelstein"), "");
	h = ks_hint(&k, "J\u00C6GERKORPS");
	ck_assert_str_eq(h, ": did you mean 'D5' (J\u00E6gerkorps)? (in a name \u00E6 is not read "
			    "from \u00C6, as in the notation's words, in a game made before "
			    "2026-12-07: write \u00E6, or its id 'D5')");
	free(h);
	h = ks_hint(&k, "S\u00D8NDRE Jaegerkorps");
	ck_assert_str_eq(h, ": did you mean 'D4' (S\u00F8ndre J\u00E6gerkorps)? (in a name \u00F8 is "
			    "not read from \u00D8, nor \u00E6 from ae, as in the notation's words, in "
			    "a game made before 2026-12-07: write them, or its id 'D4')");
	free(h);
	ord_ctx_release(&k);
}
END_TEST

/* A game that logs the core revision it was made with (made_core=) reads
 * names by that revision, not by made='s day: one of ORD_CORE_NAMES_KEYED
 * or later as the notation reads its words, one before it as written,
 * whatever its made= says; and one that logs none by made='s day, as
 * every game made before the marker is read today. */
START_TEST(test_find_keyed_by_core)
{
	static const struct {
		const char *made, *core;
		int keyed;
	} games[] = {
		{ "2026-12-07", "2026-12-07.1", 1 }, /* this orderly's, ORD_GAME_MADE_CORE */
		{ "2026-12-07", "2026-12-07.9", 1 },
		{ "2026-12-07", "2027-01-02.1", 1 },
		{ "2026-12-07", "2026-12-06.1", 0 }, /* a core before the reading */
		{ "2026-12-08", "2026-12-07.0", 0 }, /* the day later, the core before */
		{ "2026-12-07", NULL, 1 },           /* no marker: made='s day */
		{ NULL, NULL, 0 },                   /* made before made= */
	};
	struct ord_ctx k;
	size_t i;

	ck_assert_str_eq(ORD_CORE_NAMES_KEYED, "2026-12-07.1");
	for (i = 0; i < sizeof(games) / sizeof(games[0]); i++) {
		ks_units_core(&k, games[i].made, games[i].core);
		ck_assert_msg(!strcmp(ks_found(&k, "Soendre Jaegerkorps"), games[i].keyed ? "D4" : ""),
			      "made=%s made_core=%s", games[i].made ? games[i].made : "(none)",
			      games[i].core ? games[i].core : "(none)");
		ck_assert_str_eq(ks_found(&k, "S\u00F8ndre J\u00E6gerkorps"), "D4");
		ord_ctx_release(&k);
	}
}
END_TEST

/* The units of the results of u, in order, as "unit:explanation ..." */
static void unit_results(const char *id, char *out, size_t n)
{
	const struct ord_unit *u = ord_ctx_find_unit(&ctx, id);
	struct ord_result_view r;
	size_t k;

	out[0] = '\0';
	ck_assert_ptr_nonnull(u);
	for (k = 0; k < ord_ctx_unit_nresults(&ctx, u); k++) {
		ck_assert_int_eq(ord_ctx_unit_result_get(&ctx, u, k, &r), 0);
		snprintf(out + strlen(out), n - strlen(out), "%s%s:%s", k ? " " : "", r.unit,
			 r.explanation);
	}
}

START_TEST(test_unit_results)
{
	const struct ord_unit *f1 = ord_ctx_find_unit(&ctx, "F1");
	struct ord_result_view r;
	char got[256];

	ck_assert_uint_eq(ord_ctx_unit_nresults(&ctx, f1), 0);
	ord_ctx_result(&ctx, 0, "F1", NULL, "first");
	ord_ctx_result(&ctx, 0, "D2", NULL, "second");
	ord_ctx_result(&ctx, 0, "F1", NULL, "third");
	/* a result of no unit of the context, and one by a name: no unit's */
	ord_ctx_result(&ctx, 0, "X9", NULL, "fourth");
	ord_ctx_result(&ctx, 0, "1/2e L\u00E9ger", NULL, "fifth");
	unit_results("F1", got, sizeof(got));
	ck_assert_str_eq(got, "F1:first F1:third");
	unit_results("D2", got, sizeof(got));
	ck_assert_str_eq(got, "D2:second");
	unit_results("R1", got, sizeof(got));
	ck_assert_str_eq(got, "");
	/* one more result: the index made again */
	ord_ctx_result(&ctx, 0, "R1", NULL, "sixth");
	ord_ctx_result(&ctx, 0, "F1", NULL, "seventh");
	unit_results("F1", got, sizeof(got));
	ck_assert_str_eq(got, "F1:first F1:third F1:seventh");
	unit_results("R1", got, sizeof(got));
	ck_assert_str_eq(got, "R1:sixth");
	ck_assert_int_eq(ord_ctx_unit_result_get(&ctx, f1, 3, &r), ORD_ENOTFOUND);
	ord_error_clear();
}
END_TEST

/* A module that adds a result between each unit's question: the results
 * added are appended to their units' lists, the index is not made again
 * (made again each time, a phase of 100,000 units asking so was
 * quadratic); a unit added makes it again, and a next phase's results
 * start an index of their own. */
START_TEST(test_unit_results_appended)
{
	const struct ord_unit *f1 = ord_ctx_find_unit(&ctx, "F1");
	const struct ord_unit *d2 = ord_ctx_find_unit(&ctx, "D2");
	char got[256];
	size_t i;

	ord_ctx_result(&ctx, 0, "F1", NULL, "a");
	ck_assert_uint_eq(ord_ctx_unit_nresults(&ctx, f1), 1);
	ck_assert_uint_eq(ctx.unit_results_made, 1);
	for (i = 0; i < 5; i++) {
		ord_ctx_result(&ctx, 0, i % 2 ? "D2" : "F1", NULL, "%c", (char)('b' + i));
		ck_assert_uint_eq(ord_ctx_unit_nresults(&ctx, i % 2 ? d2 : f1), i / 2 + 1 + !(i % 2));
	}
	unit_results("F1", got, sizeof(got));
	ck_assert_str_eq(got, "F1:a F1:b F1:d F1:f");
	unit_results("D2", got, sizeof(got));
	ck_assert_str_eq(got, "D2:c D2:e");
	ck_assert_uint_eq(ctx.unit_results_made, 1);
	/* a unit added, which a result named already: made again, and found */
	ord_ctx_result(&ctx, 0, "N1", NULL, "g");
	ord_ctx_fake_add_unit(&ctx, "N1", "Nouveau", "french");
	unit_results("N1", got, sizeof(got));
	ck_assert_str_eq(got, "N1:g");
	ck_assert_uint_eq(ctx.unit_results_made, 2);
	/* the next phase: no result of the last one */
	ord_ctx_next_phase(&ctx);
	ck_assert_uint_eq(ord_ctx_unit_nresults(&ctx, ord_ctx_find_unit(&ctx, "F1")), 0);
	ord_ctx_result(&ctx, 0, "F1", NULL, "h");
	unit_results("F1", got, sizeof(got));
	ck_assert_str_eq(got, "F1:h");
	unit_results("N1", got, sizeof(got));
	ck_assert_str_eq(got, "");
}
END_TEST

/* 100,000 units, a result added before each unit's question: each unit
 * sees its own, and the index is made once (not 100,000 times). */
START_TEST(test_unit_results_many)
{
	struct ord_ctx big;
	struct ord_result_view r;
	char id[16];
	size_t i, n = 100000;

	ord_ctx_init(&big, NULL, NULL, 1);
	for (i = 0; i < n; i++) {
		snprintf(id, sizeof(id), "U%zu", i);
		ord_ctx_add_unit(&big, id, id, i % 2 ? "a" : "b", NULL, NULL);
	}
	ord_ctx_index(&big);
	for (i = 0; i < n; i++) {
		const struct ord_unit *u = ord_ctx_unit(&big, i);
		ord_ctx_result(&big, 0, u->id, NULL, "r%zu", i);
		ck_assert_uint_eq(ord_ctx_unit_nresults(&big, u), 1);
		ck_assert_int_eq(ord_ctx_unit_result_get(&big, u, 0, &r), 0);
		ck_assert_str_eq(r.unit, u->id);
		ck_assert_uint_eq(strtoul(r.explanation + 1, NULL, 10), i);
	}
	ck_assert_uint_eq(big.unit_results_made, 1);
	ord_ctx_release(&big);
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
	tcase_add_test(tc, test_find_keyed);
	tcase_add_test(tc, test_find_keyed_by_core);
	tcase_add_test(tc, test_unit_results);
	tcase_add_test(tc, test_unit_results_appended);
	tcase_add_test(tc, test_unit_results_many);
	suite_add_tcase(s, tc);
	return s;
}
