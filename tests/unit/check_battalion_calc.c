/*
 * check_battalion_calc.c - the battalion rules through the calculator
 * (bat_calc) with fixed dice, on the built-in tables: the rules' worked
 * examples exactly, every band edge, modifier and rounding case, and the
 * errors for unknown keys and bad values.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/common.h"
#include "rulesets/battalion/calc.h"

static struct ord_rules *rules;

static void setup(void)
{
	const struct ord_resource *res = ord_resource_find("rulesets/battalion/tables.xml");
	int rc;

	ck_assert_ptr_nonnull(res);
	rc = bat_load(&rules, (const char *)res->data, res->len, "tables.xml");
	ck_assert_msg(rc == 0, "bat_load: %s", ord_error_last());
}

static void teardown(void)
{
	bat_free(rules);
	rules = NULL;
}

/* Split "k=v k=v" into a kv list. */
static void parse_args(struct ord_kv *kv, const char *args)
{
	char *copy = strdup(args), *tok, *save = NULL;

	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');
		ck_assert_ptr_nonnull(eq);
		*eq = '\0';
		ord_kv_set(kv, tok, eq + 1);
	}
	free(copy);
}

static int run(struct ord_buf *out, const char *what, const char *args, const int *dice,
	       size_t ndice, int xml)
{
	struct ord_kv kv;
	int rc;

	ord_kv_init(&kv);
	parse_args(&kv, args);
	rc = bat_calc(rules, what, &kv, dice, ndice, xml, out);
	ord_kv_release(&kv);
	return rc;
}

/* The plain output of a calculation that must succeed (static buffer). */
static const char *plain(const char *what, const char *args, const int *dice, size_t ndice)
{
	static char buf[4096];
	struct ord_buf out = ORD_BUF_INIT;
	int rc = run(&out, what, args, dice, ndice, 0);

	ck_assert_msg(rc == 0, "%s %s: %s", what, args, ord_error_last());
	ck_assert_uint_lt(out.len, sizeof(buf));
	strcpy(buf, out.buf);
	ord_buf_release(&out);
	return buf;
}

/* One <value> of the XML output of a calculation that must succeed. */
static const char *value(const char *what, const char *args, const int *dice, size_t ndice,
			 const char *name)
{
	static char buf[256];
	struct ord_buf out = ORD_BUF_INIT, pat = ORD_BUF_INIT;
	const char *p, *e;
	int rc = run(&out, what, args, dice, ndice, 1);

	ck_assert_msg(rc == 0, "%s %s: %s", what, args, ord_error_last());
	ord_buf_addf(&pat, "<value name=\"%s\">", name);
	p = strstr(out.buf, pat.buf);
	ck_assert_msg(p != NULL, "no value '%s' in %s", name, out.buf);
	p += pat.len;
	e = strchr(p, '<');
	ck_assert_ptr_nonnull(e);
	ck_assert_uint_lt((size_t)(e - p), sizeof(buf));
	memcpy(buf, p, (size_t)(e - p));
	buf[e - p] = '\0';
	ord_buf_release(&out);
	ord_buf_release(&pat);
	return buf;
}

static int ivalue(const char *what, const char *args, const int *dice, size_t ndice, const char *name)
{
	return atoi(value(what, args, dice, ndice, name));
}

/* A calculation that must fail with code, its message holding msg. */
static void fails(const char *what, const char *args, const int *dice, size_t ndice, int code,
		  const char *msg)
{
	struct ord_buf out = ORD_BUF_INIT;
	int rc = run(&out, what, args, dice, ndice, 0);

	ck_assert_msg(rc == code, "%s %s: expected %d, got %d (%s)", what, args, code, rc,
		      ord_error_last());
	ck_assert_msg(strstr(ord_error_last(), msg) != NULL, "expected '%s' in '%s'", msg,
		      ord_error_last());
	ck_assert_uint_eq(out.len, 0);
	ord_buf_release(&out);
}

#define D(...) ((const int[]){ __VA_ARGS__ }), (sizeof((const int[]){ __VA_ARGS__ }) / sizeof(int))
#define NODICE NULL, 0

/* ---- fire ------------------------------------------------------------------------ */

START_TEST(test_fire_example)
{
	const char *args = "firers=24 weapon=musket range=3 target_formation=column target_moved=yes";

	ck_assert_str_eq(plain("fire", args, NODICE),
			 "casualties 15 (24 firers × 50% = 12, +6 target in column, −3 target moved = 15): 3 trays, 3 carried\n");
	ck_assert_int_eq(ivalue("fire", args, NODICE, "casualties"), 15);
	ck_assert_int_eq(ivalue("fire", args, NODICE, "trays"), 3);
	ck_assert_int_eq(ivalue("fire", args, NODICE, "remainder"), 3);
}
END_TEST

START_TEST(test_fire_xml)
{
	struct ord_buf out = ORD_BUF_INIT;

	ck_assert_int_eq(run(&out, "fire",
			     "firers=24 weapon=musket range=3 target_formation=column target_moved=yes",
			     NODICE, 1),
			 0);
	ck_assert_str_eq(out.buf,
			 "<calc ruleset=\"battalion\" what=\"fire\">\n"
			 "  <value name=\"casualties\">15</value>\n"
			 "  <value name=\"trays\">3</value>\n"
			 "  <value name=\"remainder\">3</value>\n"
			 "  <explanation>24 firers × 50% = 12, +6 target in column, −3 target moved = 15</explanation>\n"
			 "</calc>\n");
	ord_buf_release(&out);
}
END_TEST

static int fire(const char *weapon, const char *range, int firers, const char *more)
{
	char args[512];

	snprintf(args, sizeof(args), "firers=%d weapon=%s range=%s target_formation=line %s",
		 firers, weapon, range, more ? more : "");
	return ivalue("fire", args, NODICE, "casualties");
}

START_TEST(test_fire_band_edges)
{
	ck_assert_int_eq(fire("musket", "0", 24, NULL), 12);
	ck_assert_int_eq(fire("musket", "4", 24, NULL), 12);
	ck_assert_int_eq(fire("musket", "4.0", 24, NULL), 12);
	ck_assert_int_eq(fire("musket", "4.01", 24, NULL), 6);
	ck_assert_int_eq(fire("musket", "8", 24, NULL), 6);
	ck_assert_int_eq(fire("musket", "8.01", 24, NULL), 6);
	ck_assert_int_eq(fire("musket", "12", 24, NULL), 6);
	ck_assert_int_eq(fire("musket", "12.01", 24, NULL), 0);
	ck_assert_int_eq(fire("musket", "16", 24, NULL), 0);
	ck_assert_int_eq(fire("rifle", "0", 24, NULL), 12);
	ck_assert_int_eq(fire("rifle", "4", 24, NULL), 12);
	ck_assert_int_eq(fire("rifle", "4.01", 24, NULL), 6);
	ck_assert_int_eq(fire("rifle", "12.01", 24, NULL), 6);
	ck_assert_int_eq(fire("rifle", "16", 24, NULL), 6);
	ck_assert_int_eq(fire("rifle", "16.01", 24, NULL), 0);
	/* 16: rifle hits, musket is out of range and says so */
	ck_assert_str_eq(plain("fire", "firers=24 weapon=musket range=16 target_formation=line", NODICE),
			 "casualties 0 (out of range: musket at 16 in.): 0 trays, 0 carried\n");
	ck_assert_str_eq(plain("fire", "firers=24 weapon=rifle range=16.5 target_formation=line", NODICE),
			 "casualties 0 (out of range: rifle at 16.5 in.): 0 trays, 0 carried\n");
	ck_assert_ptr_nonnull(
		strstr(plain("fire", "firers=24 weapon=rifle range=16 target_formation=line", NODICE),
		       "24 firers × 25% = 6"));
}
END_TEST

START_TEST(test_fire_modifiers)
{
	/* base 24 x 50% = 12 */
	ck_assert_int_eq(fire("musket", "3", 24, ""), 12);
	ck_assert_int_eq(ivalue("fire", "firers=24 weapon=musket range=3 target_formation=column",
				NODICE, "casualties"),
			 18);
	ck_assert_int_eq(ivalue("fire", "firers=24 weapon=musket range=3 target_formation=square",
				NODICE, "casualties"),
			 18);
	ck_assert_int_eq(ivalue("fire", "firers=24 weapon=musket range=3 target_formation=skirmish",
				NODICE, "casualties"),
			 6);
	ck_assert_int_eq(ivalue("fire", "firers=24 weapon=musket range=3 target_formation=misc",
				NODICE, "casualties"),
			 12);
	ck_assert_int_eq(fire("musket", "3", 24, "firer_light=yes"), 18);
	ck_assert_int_eq(fire("musket", "3", 24, "firer_moved=yes"), 9);
	ck_assert_int_eq(fire("musket", "3", 24, "firer_changed_formation=yes"), 9);
	ck_assert_int_eq(fire("musket", "3", 24, "target_moved=yes"), 9);
	ck_assert_int_eq(fire("musket", "3", 24, "firer_skirmish=yes"), 9);
	ck_assert_int_eq(fire("musket", "3", 24, "firer_on_hill=yes"), 15);
	ck_assert_int_eq(fire("musket", "3", 24, "target_moved=no firer_moved=no"), 12);
	/* all summed against the base: 12 + 6 - 3 - 3 - 3 - 3 = 6 */
	ck_assert_int_eq(fire("musket", "3", 24,
			      "firer_light=yes firer_moved=yes firer_changed_formation=yes target_moved=yes firer_skirmish=yes"),
			 6);
	ck_assert_str_eq(plain("fire",
			       "firers=24 weapon=musket range=3 target_formation=skirmish firer_light=yes",
			       NODICE),
			 "casualties 12 (24 firers × 50% = 12, +6 light infantry firing, −6 target in skirmish order = 12): 3 trays, 0 carried\n");
}
END_TEST

START_TEST(test_fire_enfilade_and_woods)
{
	/* an enfiladed column is hit as a line, a line as a column */
	ck_assert_int_eq(ivalue("fire",
				"firers=24 weapon=musket range=3 target_formation=column enfilade=yes",
				NODICE, "casualties"),
			 12);
	ck_assert_int_eq(ivalue("fire",
				"firers=24 weapon=musket range=3 target_formation=line enfilade=yes",
				NODICE, "casualties"),
			 18);
	ck_assert_ptr_nonnull(
		strstr(plain("fire", "firers=24 weapon=musket range=3 target_formation=line enfilade=yes",
			     NODICE),
		       "enfiladed line hit as column; 24 firers × 50% = 12, +6 target in column = 18"));
	ck_assert_int_eq(ivalue("fire",
				"firers=24 weapon=musket range=3 target_formation=square enfilade=yes",
				NODICE, "casualties"),
			 18);
	/* a target in woods only from 4 in. */
	ck_assert_int_eq(fire("musket", "4", 24, "target_in_woods=yes"), 12);
	ck_assert_int_eq(fire("musket", "4.5", 24, "target_in_woods=yes"), 0);
	ck_assert_int_eq(fire("rifle", "4.5", 24, "target_in_woods=yes"), 0);
	ck_assert_ptr_nonnull(
		strstr(plain("fire", "firers=24 weapon=rifle range=5 target_formation=line target_in_woods=yes",
			     NODICE),
		       "may be fired on only within 4 in."));
	/* units in woods do not fire */
	ck_assert_int_eq(fire("musket", "2", 24, "firer_in_woods=yes"), 0);
	ck_assert_ptr_nonnull(
		strstr(plain("fire", "firers=24 weapon=musket range=2 target_formation=line firer_in_woods=yes",
			     NODICE),
		       "units in woods do not fire"));
}
END_TEST

START_TEST(test_fire_rounding)
{
	/* 25% band (range 6): x.25 down, x.5 and x.75 up */
	ck_assert_int_eq(fire("musket", "6", 1, NULL), 0);  /* 0.25 */
	ck_assert_int_eq(fire("musket", "6", 2, NULL), 1);  /* 0.5 */
	ck_assert_int_eq(fire("musket", "6", 3, NULL), 1);  /* 0.75 */
	ck_assert_int_eq(fire("musket", "6", 5, NULL), 1);  /* 1.25 */
	ck_assert_int_eq(fire("musket", "6", 6, NULL), 2);  /* 1.5 */
	ck_assert_int_eq(fire("musket", "6", 7, NULL), 2);  /* 1.75 */
	ck_assert_int_eq(fire("musket", "6", 9, NULL), 2);  /* 2.25 */
	ck_assert_int_eq(fire("musket", "6", 10, NULL), 3); /* 2.5 */
	ck_assert_str_eq(plain("fire", "firers=7 weapon=musket range=6 target_formation=line", NODICE),
			 "casualties 2 (7 firers × 25% = 1.75 → 2): 0 trays, 2 carried\n");
	ck_assert_str_eq(plain("fire", "firers=9 weapon=musket range=6 target_formation=line", NODICE),
			 "casualties 2 (9 firers × 25% = 2.25 → 2): 0 trays, 2 carried\n");
	/* rounded once on the total: 1 + 0.5 - 0.25 = 1.25 -> 1 (2 if each part were rounded) */
	ck_assert_int_eq(fire("musket", "6", 4, "firer_light=yes target_moved=yes"), 1);
	/* a total below 0 is no casualties */
	ck_assert_int_eq(ivalue("fire",
				"firers=8 weapon=musket range=6 target_formation=skirmish firer_skirmish=yes firer_moved=yes firer_changed_formation=yes target_moved=yes",
				NODICE, "casualties"),
			 0);
}
END_TEST

START_TEST(test_fire_trays)
{
	ck_assert_int_eq(ivalue("fire", "firers=32 weapon=musket range=1 target_formation=line",
				NODICE, "trays"),
			 4);
	ck_assert_int_eq(ivalue("fire", "firers=32 weapon=musket range=1 target_formation=line",
				NODICE, "remainder"),
			 0);
	ck_assert_int_eq(ivalue("fire", "firers=6 weapon=musket range=1 target_formation=line",
				NODICE, "trays"),
			 0);
	ck_assert_int_eq(ivalue("fire", "firers=6 weapon=musket range=1 target_formation=line",
				NODICE, "remainder"),
			 3);
	ck_assert_str_eq(plain("fire", "firers=10 weapon=musket range=1 target_formation=line", NODICE),
			 "casualties 5 (10 firers × 50% = 5): 1 tray, 1 carried\n");
	/* no figure firing is no fire: the calculator's firers= is the fire
	 * event's, 1 to 10000 (it said "expected 0 or more") */
	fails("fire", "firers=0 weapon=musket range=1 target_formation=line", NODICE, ORD_EUSAGE,
	      "firers: '0' is not a whole number (expected 1 to 10000)");
}
END_TEST

/* ---- artillery ---------------------------------------------------------------------- */

static const char *art(const char *args, int die, const char *name)
{
	return value("artillery", args, D(die), name);
}

START_TEST(test_artillery_bands)
{
	/* shell 4 dead on 1-4 / 1-2 / 1 */
	ck_assert_str_eq(art("shot=shell range=0", 4, "hit"), "yes");
	ck_assert_str_eq(art("shot=shell range=12", 4, "casualties"), "4");
	ck_assert_str_eq(art("shot=shell range=12", 5, "hit"), "no");
	ck_assert_str_eq(art("shot=shell range=12", 5, "casualties"), "0");
	ck_assert_str_eq(art("shot=shell range=12.01", 2, "hit"), "yes");
	ck_assert_str_eq(art("shot=shell range=24", 3, "hit"), "no");
	ck_assert_str_eq(art("shot=shell range=24.5", 1, "casualties"), "4");
	ck_assert_str_eq(art("shot=shell range=36", 2, "hit"), "no");
	ck_assert_str_eq(art("shot=shell range=36.01", 1, "hit"), "no");
	/* ball 2 dead on 1-5 / 1-3 / 1-2 */
	ck_assert_str_eq(art("shot=ball range=6", 5, "casualties"), "2");
	ck_assert_str_eq(art("shot=ball range=6", 6, "hit"), "no");
	ck_assert_str_eq(art("shot=ball range=18", 3, "casualties"), "2");
	ck_assert_str_eq(art("shot=ball range=18", 4, "hit"), "no");
	ck_assert_str_eq(art("shot=ball range=30", 2, "casualties"), "2");
	ck_assert_str_eq(art("shot=ball range=30", 3, "hit"), "no");
	ck_assert_str_eq(art("shot=ball range=37", 1, "hit"), "no");
	/* grape 8 dead to 12 in., always */
	ck_assert_str_eq(art("shot=grape range=0", 6, "casualties"), "8");
	ck_assert_str_eq(art("shot=grape range=12", 1, "casualties"), "8");
	ck_assert_str_eq(art("shot=grape range=12.01", 1, "hit"), "no");
	ck_assert_str_eq(art("shot=grape range=12.01", 1, "casualties"), "0");
	ck_assert_str_eq(plain("artillery", "shot=grape range=13", D(1)),
			 "hit no, casualties 0 (out of range: grape at 13 in.)\n");
	ck_assert_str_eq(plain("artillery", "shot=shell range=14", D(3)),
			 "hit no, casualties 0 (shell at 14 in.: d6 3, hits on 1–2: miss)\n");
	ck_assert_str_eq(plain("artillery", "shot=shell range=30", D(1)),
			 "hit yes, casualties 4 (shell at 30 in.: d6 1, hits on 1: hit; 4 dead)\n");
}
END_TEST

START_TEST(test_artillery_modifiers)
{
	/* +4 on a square for grape and shell, not ball */
	ck_assert_str_eq(art("shot=grape range=5 target_formation=square", 3, "casualties"), "12");
	ck_assert_str_eq(art("shot=shell range=5 target_formation=square", 3, "casualties"), "8");
	ck_assert_str_eq(art("shot=ball range=5 target_formation=square", 3, "casualties"), "2");
	ck_assert_str_eq(art("shot=shell range=5 target_formation=column", 3, "casualties"), "4");
	/* x1/2 for horse artillery that moved, unlimbered and fired */
	ck_assert_str_eq(art("shot=grape range=5 horse_moved_unlimbered=yes", 3, "casualties"), "4");
	ck_assert_str_eq(art("shot=shell range=5 horse_moved_unlimbered=yes", 3, "casualties"), "2");
	ck_assert_str_eq(art("shot=ball range=5 horse_moved_unlimbered=yes", 3, "casualties"), "1");
	ck_assert_str_eq(art("shot=grape range=5 target_formation=square horse_moved_unlimbered=yes",
			     3, "casualties"),
			 "6");
	ck_assert_str_eq(plain("artillery",
			       "shot=shell range=5 target_formation=square horse_moved_unlimbered=yes",
			       D(2)),
			 "hit yes, casualties 4 (shell at 5 in.: d6 2, hits on 1–4: hit; 4, +4 target in square = 8, ×0.5 horse artillery moved, unlimbered and fired = 4 dead)\n");
	/* a gun defending a hilltop: 1/4 more dead, rounded once */
	ck_assert_str_eq(plain("artillery", "shot=ball range=10 firer_on_hill=yes", D(1)),
			 "hit yes, casualties 3 (ball at 10 in.: d6 1, hits on 1–5: hit; 2, ×1.25 "
			 "defending a hilltop = 2.5 → 3 dead)\n");
	ck_assert_str_eq(art("shot=grape range=5 firer_on_hill=yes", 3, "casualties"), "10");
	/* a miss stays a miss */
	ck_assert_str_eq(art("shot=shell range=5 target_formation=square", 5, "casualties"), "0");
}
END_TEST

/* ---- morale -------------------------------------------------------------------------- */

static int morale_score(const char *args, int die)
{
	return ivalue("morale", args, D(die), "score");
}

START_TEST(test_morale_modifiers)
{
	/* d6 3 + 2 always + 2 never failed = 7 */
	ck_assert_int_eq(morale_score("", 3), 7);
	ck_assert_int_eq(morale_score("elite=yes", 3), 11);
	ck_assert_int_eq(morale_score("militia=yes", 3), 3);
	ck_assert_int_eq(morale_score("losses=1", 3), 6);
	ck_assert_int_eq(morale_score("losses=4", 3), 3);
	/* failed before: -3 and no +2 */
	ck_assert_int_eq(morale_score("failed_before=yes", 3), 2);
	ck_assert_int_eq(morale_score("lost_melee=yes", 3), 5);
	ck_assert_int_eq(morale_score("routed_recently=yes", 3), 4);
	ck_assert_int_eq(morale_score("", 1), 5);
	ck_assert_int_eq(morale_score("", 6), 10);
	ck_assert_str_eq(plain("morale", "losses=3 lost_melee=yes", D(4)),
			 "score 3, outcome good (d6 4, +2 always, −3 figures lost this turn (3 × −1), +2 good morale (never failed), −2 just lost a melee = 3: good)\n");
}
END_TEST

START_TEST(test_morale_bands)
{
	/* d6 1 + 2 + 2 = 5, less one per figure lost */
	ck_assert_str_eq(value("morale", "losses=5", D(1), "score"), "0");
	ck_assert_str_eq(value("morale", "losses=5", D(1), "outcome"), "good");
	ck_assert_str_eq(value("morale", "losses=6", D(1), "score"), "-1");
	ck_assert_str_eq(value("morale", "losses=6", D(1), "outcome"), "retreat");
	ck_assert_str_eq(value("morale", "losses=10", D(1), "score"), "-5");
	ck_assert_str_eq(value("morale", "losses=10", D(1), "outcome"), "retreat");
	ck_assert_str_eq(value("morale", "losses=11", D(1), "score"), "-6");
	ck_assert_str_eq(value("morale", "losses=11", D(1), "outcome"), "rout");
	ck_assert_str_eq(value("morale", "losses=40", D(1), "outcome"), "rout");
	/* EXTRACT.md's flag: the example's 15 casualties rout on every die but a 6 */
	ck_assert_str_eq(value("morale", "losses=15", D(5), "outcome"), "rout");
	ck_assert_str_eq(value("morale", "losses=15", D(6), "outcome"), "retreat");
}
END_TEST

START_TEST(test_morale20)
{
	static const struct {
		const char *cls;
		int good_max, retreat_max; /* rout above */
	} c[] = { { "A", 16, 19 }, { "B", 14, 17 }, { "C", 12, 17 }, { "D", 11, 16 }, { "E", 9, 15 } };
	static const char *const after[] = { "B", "C", "D", "E", "E" };
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char args[32];
		snprintf(args, sizeof(args), "class=%s", c[i].cls);
		ck_assert_str_eq(value("morale20", args, D(1), "outcome"), "good");
		ck_assert_str_eq(value("morale20", args, D(c[i].good_max), "outcome"), "good");
		ck_assert_str_eq(value("morale20", args, D(c[i].good_max), "class"), c[i].cls);
		ck_assert_str_eq(value("morale20", args, D(c[i].good_max + 1), "outcome"), "retreat");
		ck_assert_str_eq(value("morale20", args, D(c[i].retreat_max), "outcome"), "retreat");
		ck_assert_str_eq(value("morale20", args, D(c[i].retreat_max), "class"), c[i].cls);
		ck_assert_str_eq(value("morale20", args, D(c[i].retreat_max + 1), "outcome"), "rout");
		ck_assert_str_eq(value("morale20", args, D(20), "outcome"), "rout");
		ck_assert_str_eq(value("morale20", args, D(20), "class"), after[i]);
	}
	ck_assert_str_eq(plain("morale20", "class=B", D(18)),
			 "outcome rout, class C (class B, d20 18: rout, drops to class C)\n");
	fails("morale20", "class=B", D(21), ORD_EUSAGE, "die: 21 is not a face of a d20");
	fails("morale20", "class=B", D(0), ORD_EUSAGE, "die: 0 is not a face of a d20");
	fails("morale20", "class=F", D(3), ORD_EUSAGE,
	      "class: unknown 'F' (expected one of A B C D E)");
	fails("morale20", "", D(3), ORD_EUSAGE, "class: missing (expected one of A B C D E)");
}
END_TEST

/* ---- melee --------------------------------------------------------------------------------- */

START_TEST(test_melee_example)
{
	const char *args = "a_kind=line_infantry a_figures=32 b_kind=line_infantry b_figures=24";

	ck_assert_str_eq(value("melee", args, D(3, 5), "winner"), "b");
	ck_assert_int_eq(ivalue("melee", args, D(3, 5), "score_a"), 288);
	ck_assert_int_eq(ivalue("melee", args, D(3, 5), "score_b"), 360);
	ck_assert_int_eq(ivalue("melee", args, D(3, 5), "casualties_a"), 4);
	ck_assert_int_eq(ivalue("melee", args, D(3, 5), "casualties_b"), 3);
	ck_assert_str_eq(plain("melee", args, D(3, 5)),
			 "winner b: score_a 288, score_b 360, casualties_a 4, casualties_b 3 "
			 "(A: 32 line_infantry × 3 = 96 pts × (d6 3) = 288; "
			 "B: 24 line_infantry × 3 = 72 pts × (d6 5) = 360; B wins; "
			 "B inflicts 72/6 = 12 pts / 3 = 4 figures of A; "
			 "A inflicts 96/12 = 8 pts / 3 = 2.67 → 3 figures of B)\n");
}
END_TEST

/* A game's melee names its units where the calculator has its keys' letters
 * ("A: melee with F2: A: ... A wins; A inflicts 4 figures of B" was read,
 * in a scenario of units A1..A10, as A1's win); the numbers are the same. */
START_TEST(test_melee_named)
{
	const struct bat_rules *r = bat_rules(rules);
	struct bat_melee_in in;
	struct bat_melee_out out;
	struct ord_buf why = ORD_BUF_INIT;

	memset(&in, 0, sizeof(in));
	in.a.kind = in.b.kind = "line_infantry";
	in.a.figures = 32;
	in.b.figures = 24;
	in.a.die = 3;
	in.b.die = 5;
	in.a.name = "A1";
	in.b.name = "F2";
	ck_assert_int_eq(bat_melee(r, &in, &out, &why), 0);
	ck_assert_str_eq(why.buf, "A1's 32 line_infantry × 3 = 96 pts × (d6 3) = 288; "
				  "F2's 24 line_infantry × 3 = 72 pts × (d6 5) = 360; F2 wins; "
				  "F2 inflicts 72/6 = 12 pts / 3 = 4 figures on A1; "
				  "A1 inflicts 96/12 = 8 pts / 3 = 2.67 → 3 figures on F2");
	ck_assert_int_eq(out.winner, BAT_B);
	ck_assert_int_eq(out.casualties_a, 4);
	ck_assert_int_eq(out.casualties_b, 3);
	/* two units a side: each named in the sum and in its share */
	ord_buf_reset(&why);
	in.b.figures = 24;
	in.b2.kind = "line_infantry";
	in.b2.figures = 12;
	in.b2.die = 5;
	in.b2.name = "F3";
	ck_assert_int_eq(bat_melee(r, &in, &out, &why), 0);
	ck_assert_ptr_nonnull(strstr(why.buf,
				     "; F3's 12 line_infantry × 3 = 36 pts × (d6 5) = 180; "
				     "F2 and F3 together 108 pts, 540; F2 and F3 win; "
				     "F2 and F3 inflict 108/6 = 18 pts / 3 = 6 figures on A1; "
				     "A1 inflicts 96/12 = 8 pts: F2's share 8 × 72/108 = 5.33 "
				     "pts / 3 = 1.78 → 2 figures on F2; F3's share 8 × 36/108"));
	ck_assert_ptr_null(strstr(why.buf, "A wins"));
	ck_assert_ptr_null(strstr(why.buf, " of "));
	ord_buf_release(&why);
}
END_TEST

START_TEST(test_melee_points)
{
	static const struct {
		const char *kind;
		int points;
	} k[] = { { "skirmishers", 1 },    { "foot_artillery", 1 }, { "horse_artillery", 1 },
		  { "light_infantry", 2 }, { "line_infantry", 3 },  { "light_cavalry", 5 },
		  { "heavy_cavalry", 7 } };
	size_t i;

	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		char args[128];
		snprintf(args, sizeof(args),
			 "a_kind=%s a_figures=2 b_kind=line_infantry b_figures=1", k[i].kind);
		ck_assert_int_eq(ivalue("melee", args, D(1, 1), "score_a"), 2 * k[i].points);
	}
	/* points become figures by the enemy's points per figure: A wins 432 to 56 and
	 * inflicts 72/6 = 12 pts / 7 = 1.71 -> 2 heavy cavalry; B 56/12 = 4.67 pts / 3 = 1.56 -> 2 */
	ck_assert_int_eq(ivalue("melee",
				"a_kind=line_infantry a_figures=24 b_kind=heavy_cavalry b_figures=8",
				D(6, 1), "casualties_b"),
			 2);
	ck_assert_int_eq(ivalue("melee",
				"a_kind=line_infantry a_figures=24 b_kind=heavy_cavalry b_figures=8",
				D(6, 1), "casualties_a"),
			 2);
}
END_TEST

static const char *const adjustments[] = { "column",   "motion", "fresh",
					   "charging", "elite",  "square_vs_cavalry",
					   "hill" };

START_TEST(test_melee_adjustments)
{
	const char *base = "a_kind=line_infantry a_figures=10 b_kind=line_infantry b_figures=10";
	size_t i;

	/* equal dice: a tie */
	ck_assert_str_eq(value("melee", base, D(3, 3), "winner"), "none");
	for (i = 0; i < sizeof(adjustments) / sizeof(adjustments[0]); i++) {
		char args[256];
		snprintf(args, sizeof(args), "%s a_%s=yes", base, adjustments[i]);
		ck_assert_str_eq(value("melee", args, D(3, 3), "winner"), "a");
		ck_assert_int_eq(ivalue("melee", args, D(3, 3), "score_a"), 120);
		ck_assert_int_eq(ivalue("melee", args, D(3, 3), "score_b"), 90);
		snprintf(args, sizeof(args), "%s b_%s=yes", base, adjustments[i]);
		ck_assert_str_eq(value("melee", args, D(3, 3), "winner"), "b");
		ck_assert_int_eq(ivalue("melee", args, D(3, 3), "score_b"), 120);
	}
	/* a charging column gets both the motion and the charge bonus, and all stack */
	ck_assert_int_eq(ivalue("melee",
				"a_kind=line_infantry a_figures=10 b_kind=line_infantry b_figures=10 "
				"a_column=yes a_motion=yes a_charging=yes",
				D(1, 1), "score_a"),
			 120);
	ck_assert_int_eq(ivalue("melee",
				"a_kind=line_infantry a_figures=10 b_kind=line_infantry b_figures=10 "
				"a_column=yes a_motion=yes a_fresh=yes a_charging=yes a_elite=yes a_square_vs_cavalry=yes",
				D(1, 1), "score_a"),
			 210);
	ck_assert_ptr_nonnull(
		strstr(plain("melee",
			     "a_kind=line_infantry a_figures=10 b_kind=line_infantry b_figures=10 a_column=yes a_charging=yes",
			     D(2, 5)),
		       "A: 10 line_infantry × 3 = 30 pts × (d6 2, +1 column, +1 charging = 4) = 120"));
}
END_TEST

START_TEST(test_melee_tie_and_hill)
{
	const char *base = "a_kind=line_infantry a_figures=10 b_kind=line_infantry b_figures=10";

	/* a tie [R]: each side inflicts as a loser, 30/12 = 2.5 pts / 3 = 0.83 -> 1 */
	ck_assert_int_eq(ivalue("melee", base, D(4, 4), "casualties_a"), 1);
	ck_assert_int_eq(ivalue("melee", base, D(4, 4), "casualties_b"), 1);
	ck_assert_ptr_nonnull(strstr(plain("melee", base, D(4, 4)), "a tie, no winner"));
	/* a hilltop defender gets +1 on the die and causes 1/4 more:
	 * b wins and inflicts 180/6 = 30 pts x 1.25 = 37.5 / 3 = 12.5 -> 13 (10 without) */
	ck_assert_int_eq(ivalue("melee",
				"a_kind=line_infantry a_figures=60 b_kind=line_infantry b_figures=60 b_hill=yes",
				D(3, 3), "casualties_a"),
			 13);
	ck_assert_int_eq(ivalue("melee",
				"a_kind=line_infantry a_figures=60 b_kind=line_infantry b_figures=60",
				D(3, 4), "casualties_a"),
			 10);
}
END_TEST

START_TEST(test_melee_pursuit)
{
	/* heavy cavalry breaks infantry and re-fights at once: casualties x1.5 [R] */
	const char *args = "a_kind=heavy_cavalry a_figures=8 b_kind=line_infantry b_figures=20";
	char with[256];

	snprintf(with, sizeof(with), "%s pursuit=a", args);
	/* 56/6 = 9.33 pts / 3 = 3.11 -> 3; pursuing 14 pts / 3 = 4.67 -> 5 */
	ck_assert_int_eq(ivalue("melee", args, D(4, 2), "casualties_b"), 3);
	ck_assert_int_eq(ivalue("melee", with, D(4, 2), "casualties_b"), 5);
	/* only the pursuer's casualties grow */
	ck_assert_int_eq(ivalue("melee", args, D(4, 2), "casualties_a"),
			 ivalue("melee", with, D(4, 2), "casualties_a"));
	ck_assert_ptr_nonnull(strstr(plain("melee", with, D(4, 2)), "×1.5 pursuit (50% more) = 14 pts"));
	fails("melee", "a_kind=line_infantry a_figures=8 b_kind=line_infantry b_figures=20 pursuit=a",
	      D(4, 2), ORD_EUSAGE, "pursuit: only cavalry pursues infantry it broke");
	fails("melee", "a_kind=light_cavalry a_figures=8 b_kind=heavy_cavalry b_figures=20 pursuit=a",
	      D(4, 2), ORD_EUSAGE, "pursuit: only cavalry pursues infantry");
	fails("melee", "a_kind=light_cavalry a_figures=8 b_kind=line_infantry b_figures=20 pursuit=b",
	      D(4, 2), ORD_EUSAGE, "pursuit:");
	fails("melee", "a_kind=light_cavalry a_figures=8 b_kind=line_infantry b_figures=20 pursuit=c",
	      D(4, 2), ORD_EUSAGE, "pursuit: 'c' (expected a, b or no)");
}
END_TEST

START_TEST(test_melee_cap)
{
	/* never more casualties than figures engaged */
	ck_assert_int_eq(ivalue("melee",
				"a_kind=heavy_cavalry a_figures=40 b_kind=skirmishers b_figures=2",
				D(6, 1), "casualties_b"),
			 2);
}
END_TEST

/* "The figures involved have their values totaled, a die is rolled,
 * adjusted, and multiplied by the sum value": two units against one (D20) */
START_TEST(test_melee_two_units)
{
	const char *args = "a_kind=line_infantry a_figures=24 b_kind=line_infantry b_figures=24 "
			   "b2_kind=line_infantry b2_figures=12";

	/* B and B2: (72 + 36) x 4 = 432 against 72 x 3 = 216 */
	ck_assert_str_eq(value("melee", args, D(3, 4), "winner"), "b");
	ck_assert_int_eq(ivalue("melee", args, D(3, 4), "score_b"), 432);
	/* they inflict 108/6 = 18 pts: 6 figures of A */
	ck_assert_int_eq(ivalue("melee", args, D(3, 4), "casualties_a"), 6);
	/* A's 72/12 = 6 pts shared by points: B 4 pts -> 1, B2 2 pts -> 1 */
	ck_assert_int_eq(ivalue("melee", args, D(3, 4), "casualties_b"), 1);
	ck_assert_int_eq(ivalue("melee", args, D(3, 4), "casualties_b2"), 1);
	/* one unit a side is as before */
	ck_assert_int_eq(ivalue("melee",
				"a_kind=line_infantry a_figures=24 b_kind=line_infantry b_figures=24",
				D(3, 4), "casualties_a"),
			 4);
	fails("melee",
	      "a_kind=line_infantry a_figures=24 b_kind=line_infantry b_figures=24 b2_figures=3",
	      D(3, 4), ORD_EUSAGE, "b2_kind: missing (a second unit needs b2_kind and b2_figures)");
}
END_TEST

/* "Skirmishers, artillery 1 pt. each", read for infantry in skirmish order
 * (melee_points_by_formation: the formations' melee_points_as): a_formation=
 * gives a side's formation, its points a figure its formation's kind's;
 * miscellaneous order and the others keep the kind's own, and a skirmisher
 * is a skirmisher either way */
START_TEST(test_melee_points_by_formation)
{
	static const struct {
		const char *kind, *formation;
		int points;
	} k[] = { { "line_infantry", "skirmish", 1 }, { "light_infantry", "skirmish", 1 },
		  { "line_infantry", "line", 3 },     { "line_infantry", "column", 3 },
		  { "light_infantry", "misc", 2 },    { "skirmishers", "skirmish", 1 },
		  { "heavy_cavalry", "squadron", 7 } };
	size_t i;

	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		char args[160];
		snprintf(args, sizeof(args),
			 "a_kind=%s a_figures=2 a_formation=%s b_kind=line_infantry b_figures=1",
			 k[i].kind, k[i].formation);
		ck_assert_int_eq(ivalue("melee", args, D(1, 1), "score_a"), 2 * k[i].points);
	}
	/* the points it loses become figures at 1 a figure: 80/6 = 13.33 of them */
	ck_assert_str_eq(plain("melee",
			       "a_kind=line_infantry a_figures=24 a_formation=skirmish "
			       "b_kind=line_infantry b_figures=24 b2_kind=skirmishers b2_figures=8 "
			       "b2_formation=skirmish",
			       D(3, 5)),
			 "winner b: score_a 72, score_b 400, casualties_a 13, casualties_b 1, "
			 "casualties_b2 0 (A: 24 line_infantry in skirmish order × 1 (as skirmishers) = "
			 "24 pts × (d6 3) = 72; B: 24 line_infantry × 3 = 72 pts × (d6 5) = 360; "
			 "B2: 8 skirmishers × 1 = 8 pts × (d6 5) = 40; B and B2 together 80 pts, 400; "
			 "B and B2 win; B and B2 inflict 80/6 = 13.33 pts / 1 = 13.33 → 13 figures of A; "
			 "A inflicts 24/12 = 2 pts: B 2 × 72/80 = 1.8 pts / 3 = 0.6 → 1 figure of B; "
			 "B2 2 × 8/80 = 0.2 pts / 1 = 0.2 → 0 figures of B2)\n");
	fails("melee",
	      "a_kind=line_infantry a_figures=2 a_formation=swarm b_kind=line_infantry b_figures=1",
	      D(1, 1), ORD_EUSAGE, "a_formation");
}
END_TEST

/* ---- movement ---------------------------------------------------------------------------- */

static const char *dist(const char *args)
{
	return value("move", args, NODICE, "distance");
}

START_TEST(test_move_chart)
{
	static const struct {
		const char *kind, *formation, *reg, *charge; /* charge NULL: may not */
	} m[] = {
		{ "line_infantry", "column", "8", "10" },
		{ "line_infantry", "line", "6", NULL },
		{ "line_infantry", "misc", "6", NULL },
		{ "line_infantry", "square", "4", NULL },
		{ "line_infantry", "skirmish", "8", "8" },
		{ "light_infantry", "column", "10", "12" },
		{ "light_infantry", "line", "8", NULL },
		{ "light_infantry", "misc", "8", NULL },
		{ "light_infantry", "square", "6", NULL },
		{ "light_infantry", "skirmish", "10", "10" },
		{ "skirmishers", "skirmish", "8", "8" },
		{ "skirmishers", "line", "8", "8" },
		{ "foot_artillery", "misc", "8", NULL },
		{ "horse_artillery", "misc", "12", "14" },
		{ "light_cavalry", "line", "14", "16" },
		{ "light_cavalry", "column", "14", "16" },
		{ "heavy_cavalry", "line", "12", "14" },
		{ "heavy_cavalry", "misc", "12", "14" },
	};
	size_t i;

	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		char args[128];
		snprintf(args, sizeof(args), "kind=%s formation=%s", m[i].kind, m[i].formation);
		ck_assert_msg(!strcmp(dist(args), m[i].reg), "%s: %s", args, dist(args));
		snprintf(args, sizeof(args), "kind=%s formation=%s charge=yes", m[i].kind,
			 m[i].formation);
		if (m[i].charge)
			ck_assert_str_eq(dist(args), m[i].charge);
		else
			fails("move", args, NODICE, ORD_EUSAGE, "charge: ");
	}
	fails("move", "kind=line_infantry formation=line charge=yes", NODICE, ORD_EUSAGE,
	      "charge: line_infantry in line may not charge");
	fails("move", "kind=foot_artillery formation=misc charge=yes", NODICE, ORD_EUSAGE,
	      "charge: foot_artillery in misc may not charge");
}
END_TEST

START_TEST(test_move_bonuses_terrain)
{
	/* elite +1, not when charging */
	ck_assert_str_eq(dist("kind=line_infantry formation=column elite=yes"), "9");
	ck_assert_str_eq(dist("kind=line_infantry formation=column elite=yes charge=yes"), "10");
	ck_assert_str_eq(dist("kind=heavy_cavalry formation=line elite=yes"), "13");
	/* light infantry +2, also charging; with elite */
	ck_assert_str_eq(dist("kind=light_infantry formation=column elite=yes"), "11");
	ck_assert_str_eq(dist("kind=light_infantry formation=column elite=yes charge=yes"), "12");
	/* road x2, not when charging */
	ck_assert_str_eq(dist("kind=line_infantry formation=column terrain=road"), "16");
	ck_assert_str_eq(dist("kind=line_infantry formation=column terrain=road charge=yes"), "10");
	ck_assert_str_eq(dist("kind=light_infantry formation=column elite=yes terrain=road"), "22");
	ck_assert_str_eq(dist("kind=line_infantry formation=column terrain=open"), "8");
	/* forest x1/2, no charge */
	ck_assert_str_eq(dist("kind=line_infantry formation=column terrain=forest"), "4");
	ck_assert_str_eq(dist("kind=heavy_cavalry formation=line terrain=forest"), "6");
	ck_assert_str_eq(dist("kind=line_infantry formation=line elite=yes terrain=forest"), "3.5");
	fails("move", "kind=heavy_cavalry formation=line terrain=forest charge=yes", NODICE,
	      ORD_EUSAGE, "charge: may not charge in terrain 'forest'");
	fails("move", "kind=skirmishers formation=skirmish terrain=forest charge=yes", NODICE,
	      ORD_EUSAGE, "charge:");
	/* fractions */
	ck_assert_str_eq(dist("kind=line_infantry formation=column fraction=1/4"), "2");
	ck_assert_str_eq(dist("kind=line_infantry formation=column fraction=1/2"), "4");
	ck_assert_str_eq(dist("kind=light_cavalry formation=line fraction=3/4"), "10.5");
	ck_assert_str_eq(dist("kind=light_cavalry formation=line fraction=1"), "14");
	ck_assert_str_eq(dist("kind=light_cavalry formation=line fraction=2/4"), "7");
	ck_assert_str_eq(plain("move",
			       "kind=light_infantry formation=column charge=yes elite=yes terrain=road fraction=3/4",
			       NODICE),
			 "distance 9 in. (light_infantry in column, charge 10, +2 light infantry = 12, "
			 "no elite bonus when charging, no road bonus when charging, × 3/4 of the move = 9 in.)\n");
	ck_assert_str_eq(plain("move", "kind=line_infantry formation=column terrain=forest fraction=1/2",
			       NODICE),
			 "distance 2 in. (line_infantry in column, move 8, ×0.5 forest = 4, × 1/2 of the move = 2 in.)\n");
}
END_TEST

/* ---- dice and errors ----------------------------------------------------------------------- */

START_TEST(test_rolled_dice)
{
	struct ord_buf out = ORD_BUF_INIT;
	int i;

	for (i = 0; i < 20; i++) {
		int score;
		ord_buf_reset(&out);
		ck_assert_int_eq(run(&out, "morale", "", NODICE, 0), 0);
		ck_assert_ptr_nonnull(strstr(out.buf, "\ndice rolled: morale d6 = "));
		score = atoi(out.buf + strlen("score "));
		ck_assert_int_ge(score, 5);
		ck_assert_int_le(score, 10);
	}
	ord_buf_reset(&out);
	ck_assert_int_eq(run(&out, "melee",
			     "a_kind=line_infantry a_figures=2 b_kind=line_infantry b_figures=2",
			     D(3), 0),
			 0);
	ck_assert_ptr_nonnull(strstr(out.buf, "dice rolled: b d6 = "));
	ck_assert_ptr_null(strstr(out.buf, "a d6"));
	ord_buf_reset(&out);
	ck_assert_int_eq(run(&out, "artillery", "shot=ball range=3", NODICE, 1), 0);
	ck_assert_ptr_nonnull(strstr(out.buf, "<die name=\"to_hit\" sides=\"6\" rolled=\"yes\">"));
	ord_buf_reset(&out);
	ck_assert_int_eq(run(&out, "artillery", "shot=ball range=3", D(2), 1), 0);
	ck_assert_ptr_nonnull(strstr(out.buf, "<die name=\"to_hit\" sides=\"6\" rolled=\"no\">2</die>"));
	ord_buf_reset(&out);
	ck_assert_int_eq(run(&out, "morale20", "class=A", NODICE, 0), 0);
	ck_assert_ptr_nonnull(strstr(out.buf, "dice rolled: morale20 d20 = "));
	ord_buf_release(&out);
}
END_TEST

START_TEST(test_errors)
{
	fails("fire", "firers=24 weapon=musket range=3 target_formation=line bogus=1", NODICE,
	      ORD_EUSAGE, "fire: unknown key 'bogus' (expected firers weapon range target_formation");
	fails("fire", "firers=24 weapon=bow range=3 target_formation=line", NODICE, ORD_EUSAGE,
	      "weapon: unknown 'bow' (expected one of musket rifle)");
	fails("fire", "firers=24 weapon=musket range=3 target_formation=wedge", NODICE, ORD_EUSAGE,
	      "target_formation: unknown 'wedge' (expected one of line column square skirmish misc squadron)");
	fails("fire", "firers=24 weapon=musket range=3", NODICE, ORD_EUSAGE,
	      "target_formation: missing (expected one of line column square skirmish misc squadron)");
	fails("fire", "weapon=musket range=3 target_formation=line", NODICE, ORD_EUSAGE,
	      "firers: missing");
	fails("fire", "firers=-1 weapon=musket range=3 target_formation=line", NODICE, ORD_EUSAGE,
	      "firers: '-1' is not a whole number");
	fails("fire", "firers=2.5 weapon=musket range=3 target_formation=line", NODICE, ORD_EUSAGE,
	      "firers: '2.5' is not a whole number");
	fails("fire", "firers=24 weapon=musket range=far target_formation=line", NODICE, ORD_EUSAGE,
	      "range: 'far' is not a distance");
	fails("fire", "firers=24 weapon=musket range=-2 target_formation=line", NODICE, ORD_EUSAGE,
	      "range: '-2' is not a distance");
	fails("fire", "firers=24 weapon=musket range=3 target_formation=line target_moved=maybe",
	      NODICE, ORD_EUSAGE, "target_moved: 'maybe' is not a flag (expected yes or no)");
	fails("fire", "firers=24 weapon=musket range=3 target_formation=line", D(3), ORD_EUSAGE,
	      "dice: 1 given, fire uses 0");
	fails("move", "kind=hussars formation=line", NODICE, ORD_EUSAGE,
	      "kind: unknown 'hussars' (expected one of line_infantry light_infantry skirmishers light_cavalry heavy_cavalry foot_artillery horse_artillery)");
	fails("move", "kind=line_infantry formation=wedge", NODICE, ORD_EUSAGE,
	      "formation: unknown 'wedge'");
	fails("move", "kind=line_infantry formation=line terrain=swamp", NODICE, ORD_EUSAGE,
	      "terrain: unknown 'swamp' (expected one of open road forest)");
	fails("move", "kind=line_infantry formation=line fraction=1/3", NODICE, ORD_EUSAGE,
	      "fraction: '1/3' is not a fraction of the move (expected one of 1/4 1/2 3/4 1)");
	fails("move", "kind=line_infantry formation=line fraction=0", NODICE, ORD_EUSAGE, "fraction:");
	fails("move", "kind=line_infantry formation=line fraction=5/4", NODICE, ORD_EUSAGE,
	      "fraction:");
	fails("move", "kind=line_infantry formation=line fraction=half", NODICE, ORD_EUSAGE,
	      "fraction:");
	fails("move", "formation=line", NODICE, ORD_EUSAGE, "kind: missing (expected one of");
	fails("artillery", "shot=canister range=3", D(3), ORD_EUSAGE,
	      "shot: unknown 'canister' (expected one of grape shell ball)");
	fails("artillery", "shot=ball range=3", D(7), ORD_EUSAGE, "die: 7 is not a face of a d6");
	fails("artillery", "shot=ball range=3", D(2, 3), ORD_EUSAGE, "dice: 2 given, artillery uses 1");
	fails("morale", "losses=many", D(3), ORD_EUSAGE, "losses: 'many' is not a whole number");
	fails("morale", "courage=yes", D(3), ORD_EUSAGE, "morale: unknown key 'courage'");
	fails("morale", "", D(0), ORD_EUSAGE, "die: 0 is not a face of a d6");
	fails("melee", "a_kind=line_infantry a_figures=2 b_kind=dragoons b_figures=2", D(3, 3),
	      ORD_EUSAGE, "b_kind: unknown 'dragoons'");
	fails("melee", "a_kind=line_infantry a_figures=0 b_kind=line_infantry b_figures=2", D(3, 3),
	      ORD_EUSAGE, "a_figures: 0 (expected 1 or more figures)");
	fails("melee", "a_kind=line_infantry a_figures=2 b_kind=line_infantry b_figures=2", D(3, 9),
	      ORD_EUSAGE, "b_die: 9 is not a face of a d6");
	fails("melee",
	      "a_kind=line_infantry a_figures=2 b_kind=line_infantry b_figures=2 a_column=perhaps",
	      D(3, 3), ORD_EUSAGE, "a_column: 'perhaps' is not a flag");
	fails("melee", "a_kind=line_infantry a_figures=2 b_kind=line_infantry b_figures=2 c_column=yes",
	      D(3, 3), ORD_EUSAGE, "melee: unknown key 'c_column'");
	fails("charge", "", NODICE, ORD_EUSAGE,
	      "unknown calculation 'charge' (expected one of move fire artillery morale morale20 melee)");
}
END_TEST

/* ---- the struct API, tables and loading ---------------------------------------------------- */

START_TEST(test_struct_api)
{
	const struct bat_rules *r = bat_rules(rules);
	struct bat_fire_in in;
	struct bat_fire_out out;
	struct ord_buf why = ORD_BUF_INIT;
	double v;

	memset(&in, 0, sizeof(in));
	in.firers = 24;
	in.weapon = "musket";
	in.range = 3;
	in.target_formation = "column";
	in.target_moved = 1;
	ck_assert_int_eq(bat_fire(r, &in, &out, NULL), 0);
	ck_assert_int_eq(out.casualties, 15);
	ck_assert(out.raw == 15);
	ck_assert_int_eq(out.in_range, 1);
	ck_assert_int_eq(bat_fire(r, &in, &out, &why), 0);
	ck_assert_str_eq(why.buf, "24 firers × 50% = 12, +6 target in column, −3 target moved = 15");
	in.weapon = NULL;
	ck_assert_int_eq(bat_fire(r, &in, &out, &why), ORD_EUSAGE);
	ck_assert_ptr_nonnull(strstr(ord_error_last(), "weapon: missing"));
	ck_assert_int_eq(bat_param(r, "figures_per_tray", &v), 0);
	ck_assert(v == 4);
	ck_assert_int_eq(bat_param(r, "charge_interval", &v), 0);
	ck_assert(v == 3);
	ck_assert_int_eq(bat_param(r, "rout_turns", &v), 0);
	ck_assert(v == 3);
	ck_assert_int_eq(bat_param(r, "rout_penalty_turns", &v), 0);
	ck_assert(v == 5);
	ck_assert_int_eq(bat_param(r, "gun_hits_silence", &v), 0);
	ck_assert(v == 2);
	ck_assert_int_eq(bat_param(r, "nothing", &v), ORD_ENOTFOUND);
	{
		struct bat_move_in m = { "heavy_cavalry", "line", 4, 1, 0, NULL, NULL };
		struct bat_move_out mo;
		ck_assert_int_eq(bat_move(r, &m, &mo, NULL), 0);
		ck_assert(mo.distance == 14);
		m.quarters = 5;
		ck_assert_int_eq(bat_move(r, &m, &mo, NULL), ORD_EUSAGE);
		ck_assert_ptr_nonnull(strstr(ord_error_last(), "fraction: 5/4"));
	}
	ord_buf_release(&why);
}
END_TEST

START_TEST(test_print_tables)
{
	struct ord_buf out = ORD_BUF_INIT;

	ck_assert_int_eq(bat_print_tables(rules, NULL, &out), 0);
	ck_assert_ptr_nonnull(strstr(out.buf, "movement — Movement (in)\n"));
	ck_assert_ptr_nonnull(
		strstr(out.buf, "fire_modifiers — Fire modifiers (fractions of the base hits) [R]\n"));
	ck_assert_ptr_nonnull(strstr(out.buf, "morale — Morale outcome (d6 + modifiers) [R]\n"));
	ck_assert_ptr_nonnull(strstr(out.buf, "morale20 — Optional morale chart (d20) [d20]\n"));
	ck_assert_ptr_nonnull(strstr(out.buf, "[provisional]"));
	ord_buf_reset(&out);
	ck_assert_int_eq(bat_print_tables(rules, "artillery", &out), 0);
	ck_assert_ptr_nonnull(strstr(out.buf, "  shell  12–24  4     2\n"));
	ck_assert_ptr_nonnull(strstr(out.buf, "  grape  0–12   8     6    [R] — "));
	ck_assert_ptr_null(strstr(out.buf, "movement"));
	ord_buf_reset(&out);
	/* review findings 5 and 6: the melee hill x5/4 and the loser's sum read
	 * as melee points are readings, marked so */
	ck_assert_int_eq(bat_print_tables(rules, "melee_casualties", &out), 0);
	ck_assert_ptr_nonnull(strstr(out.buf, "defending a hilltop (+1/4)  [R] — our reading"));
	ck_assert_int_eq(bat_print_tables(rules, "melee_rules", &out), 0);
	ck_assert_ptr_nonnull(
		strstr(out.buf,
		       "the loser inflicts its points over this                  [R] — the text"));
	ord_buf_reset(&out);
	ck_assert_int_eq(bat_print_tables(rules, "cannon", &out), ORD_ENOTFOUND);
	ck_assert_ptr_nonnull(
		strstr(ord_error_last(),
		       "no table 'cannon' in tables.xml (expected one of units kinds formations"));
	ord_buf_release(&out);
}
END_TEST

/* Every [R] of EXTRACT.md A1 is marked in the tables. */
START_TEST(test_reconstructions_marked)
{
	const struct ord_tables *t = bat_rules(rules)->tables;

	ck_assert(ord_row_reconstructed(ord_tables_param_row(t, "move_fraction_parts")));
	ck_assert(ord_row_reconstructed(ord_tables_param_row(t, "formation_change_moves")));
	ck_assert(ord_row_reconstructed(ord_tables_param_row(t, "round_up_from")));
	ck_assert(ord_row_reconstructed(ord_tables_param_row(t, "melee_round_up_from")));
	ck_assert(ord_row_reconstructed(ord_tables_param_row(t, "tie_divisor")));
	ck_assert(ord_table_reconstructed(ord_tables_get(t, "fire_modifiers")));
	ck_assert(ord_table_reconstructed(ord_tables_get(t, "rounding")));
	ck_assert(ord_table_reconstructed(ord_tables_get(t, "morale")));
	ck_assert(ord_row_reconstructed(ord_table_row(ord_tables_get(t, "fire"), 2)));
	ck_assert(ord_row_reconstructed(ord_table_row(ord_tables_get(t, "melee_casualties"), 1)));
	ck_assert_ptr_nonnull(ord_table_note(ord_tables_get(t, "morale")));
}
END_TEST

static int load(const char *xml)
{
	struct ord_rules *r = NULL;
	int rc = bat_load(&r, xml, strlen(xml), "club.xml");

	bat_free(r);
	return rc;
}

START_TEST(test_load_errors)
{
	const struct ord_resource *res = ord_resource_find("rulesets/battalion/tables.xml");
	char *xml;
	char *p;

	ck_assert_int_eq(load("<tables ruleset=\"krigsspil\"><params name=\"p\" title=\"P\"><param name=\"x\" value=\"1\"/></params></tables>"),
			 ORD_EBADDATA);
	ck_assert_str_eq(ord_error_last(),
			 "club.xml: tables of ruleset 'krigsspil', expected 'battalion'");
	ck_assert_int_eq(load("<tables ruleset=\"battalion\"><params name=\"p\" title=\"P\"><param name=\"x\" value=\"1\"/></params></tables>"),
			 ORD_EBADDATA);
	ck_assert_ptr_nonnull(strstr(ord_error_last(), "no table 'kinds'"));
	/* a club's edit that breaks a number is refused with its line */
	xml = strdup((const char *)res->data);
	p = strstr(xml, "hits=\"50\"");
	ck_assert_ptr_nonnull(p);
	memcpy(p, "hits=\"5O\"", 9);
	ck_assert_int_eq(load(xml), ORD_EBADDATA);
	ck_assert_ptr_nonnull(strstr(ord_error_last(), "club.xml:"));
	ck_assert_ptr_nonnull(
		strstr(ord_error_last(), "table 'fire' row: 'hits' is not a number: '5O'"));
	free(xml);
	/* a table without a column the code reads */
	xml = strdup((const char *)res->data);
	p = strstr(xml, "columns=\"points\"");
	ck_assert_ptr_nonnull(p);
	memcpy(p, "columns=\"pointz\"", 16);
	while ((p = strstr(xml, " points=\"")) != NULL)
		memcpy(p, " pointz=\"", 9);
	ck_assert_int_eq(load(xml), ORD_EBADDATA);
	ck_assert_ptr_nonnull(strstr(ord_error_last(),
				     "table 'melee_points' does not declare the column 'points'"));
	free(xml);
}
END_TEST

/* Impossible values are refused at load with their line and what is
 * allowed: a die of no faces, of -1, of more than an int holds; a tray of
 * no figures (it used to be read as "0 trays, all carried").  The message
 * with its line replaced by LINE. */
static const char *load_with(const char *from, const char *to)
{
	const struct ord_resource *res = ord_resource_find("rulesets/battalion/tables.xml");
	static char msg[512];
	char *xml, *p, line[32];
	const char *q;
	unsigned n = 1;

	ck_assert_ptr_nonnull(res);
	p = strstr((const char *)res->data, from);
	ck_assert_ptr_nonnull(p);
	for (q = (const char *)res->data; q < p; q++)
		n += *q == '\n';
	xml = malloc(res->len + strlen(to) + 1);
	memcpy(xml, res->data, (size_t)(p - (const char *)res->data));
	strcpy(xml + (p - (const char *)res->data), to);
	strcat(xml, p + strlen(from));
	ck_assert_int_eq(load(xml), ORD_EBADDATA);
	snprintf(line, sizeof(line), "club.xml:%u:", n);
	ck_assert_msg(!strncmp(ord_error_last(), line, strlen(line)), "expected '%s' in '%s'", line,
		      ord_error_last());
	snprintf(msg, sizeof(msg), "club.xml:LINE:%s", ord_error_last() + strlen(line));
	free(xml);
	return msg;
}

START_TEST(test_load_ranges)
{
	ck_assert_str_eq(load_with("name=\"artillery_die\" value=\"6\"",
				   "name=\"artillery_die\" value=\"0\""),
			 "club.xml:LINE: parameter 'artillery_die' is 0 (expected a whole number from 2 to 1000)");
	ck_assert_str_eq(load_with("name=\"morale_die\" value=\"6\"", "name=\"morale_die\" value=\"-1\""),
			 "club.xml:LINE: parameter 'morale_die' is -1 (expected a whole number from 2 to 1000)");
	ck_assert_str_eq(load_with("name=\"artillery_die\" value=\"6\"",
				   "name=\"artillery_die\" value=\"99999999999\""),
			 "club.xml:LINE: parameter 'artillery_die' is 99999999999 (expected a whole number from 2 to 1000)");
	ck_assert_str_eq(load_with("name=\"figures_per_tray\" value=\"4\"",
				   "name=\"figures_per_tray\" value=\"0\""),
			 "club.xml:LINE: parameter 'figures_per_tray' is 0 (expected a whole number from 1 to 1000)");
	ck_assert_str_eq(load_with("name=\"figures_per_tray\" value=\"4\"",
				   "name=\"figures_per_tray\" value=\"-4\""),
			 "club.xml:LINE: parameter 'figures_per_tray' is -4 (expected a whole number from 1 to 1000)");
	ck_assert_str_eq(load_with("hits=\"50\"", "hits=\"150\""),
			 "club.xml:LINE: table 'fire' row: 'hits' is 150 (expected a number from 0 to 100)");
}
END_TEST

/* The calculator's trays are the game's (bat_trays, used by
 * bat_take_losses): a tray per figures_per_tray lost, the rest carried. */
START_TEST(test_trays_shared)
{
	long trays, carried;

	bat_trays(bat_rules(rules), 18, &trays, &carried);
	ck_assert_int_eq(trays, 4);
	ck_assert_int_eq(carried, 2);
	bat_trays(bat_rules(rules), 3, &trays, &carried);
	ck_assert_int_eq(trays, 0);
	ck_assert_int_eq(carried, 3);
	/* 24 firers at 2": 12, +6 column = 18: as the game would remove them */
	ck_assert_ptr_nonnull(
		strstr(plain("fire", "firers=24 weapon=musket range=2 target_formation=column", NULL, 0),
		       "= 18): 4 trays, 2 carried"));
}
END_TEST

Suite *ord_test_suite(void)
{
	Suite *s = suite_create("battalion_calc");
	TCase *tc = tcase_create("calc");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_fire_example);
	tcase_add_test(tc, test_fire_xml);
	tcase_add_test(tc, test_fire_band_edges);
	tcase_add_test(tc, test_fire_modifiers);
	tcase_add_test(tc, test_fire_enfilade_and_woods);
	tcase_add_test(tc, test_fire_rounding);
	tcase_add_test(tc, test_fire_trays);
	tcase_add_test(tc, test_artillery_bands);
	tcase_add_test(tc, test_artillery_modifiers);
	tcase_add_test(tc, test_morale_modifiers);
	tcase_add_test(tc, test_morale_bands);
	tcase_add_test(tc, test_morale20);
	tcase_add_test(tc, test_melee_example);
	tcase_add_test(tc, test_melee_named);
	tcase_add_test(tc, test_melee_points);
	tcase_add_test(tc, test_melee_adjustments);
	tcase_add_test(tc, test_melee_tie_and_hill);
	tcase_add_test(tc, test_melee_pursuit);
	tcase_add_test(tc, test_melee_cap);
	tcase_add_test(tc, test_melee_two_units);
	tcase_add_test(tc, test_melee_points_by_formation);
	tcase_add_test(tc, test_move_chart);
	tcase_add_test(tc, test_move_bonuses_terrain);
	tcase_add_test(tc, test_rolled_dice);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_struct_api);
	tcase_add_test(tc, test_print_tables);
	tcase_add_test(tc, test_reconstructions_marked);
	tcase_add_test(tc, test_load_errors);
	tcase_add_test(tc, test_load_ranges);
	tcase_add_test(tc, test_trays_shared);
	suite_add_tcase(s, tc);
	return s;
}
