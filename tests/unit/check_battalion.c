/*
 * check_battalion.c - the battalion module (rulesets/battalion/battalion.c)
 * through the fake context, with no database: every rule a sheet is
 * checked against (exact line:col and message), every check of a referee's
 * event against the sealed orders and the units' state, and a few phases
 * resolved with fixed dice.  The numbers themselves are the calculator's
 * (check_battalion_calc.c); here they only show that the glue reads them.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/common.h"
#include "core/ctx.h"
#include "rulesets/battalion/bat.h"
#include "ruleset.h"
#include "tables.h"

static const struct ord_notation *hg;

#define RULESET_NOTATION hg
#include "ruleset_fixture.h"

/* What an impossible event's refusal says of --override (check.c) */
#define NO_OVERRIDE \
	"; --override does not apply: it overrules a check of a measure or of the situation on the table, not an event that cannot happen"

static void setup_turn(int turn)
{
	int rc;

	ck_assert_int_eq(ord_ruleset_find(&rs, "battalion"), 0);
	ck_assert_int_eq(ord_notation_find(&hg, "hieroglyph"), 0);
	ck_assert_ptr_nonnull(hg);
	rc = ord_ruleset_load_tables(&rules, rs, NULL);
	ck_assert_msg(rc == 0, "tables: %s", ord_error_last());
	ctx = ord_ctx_fake_new(rs, rules, turn);
	nsheets = 0;
}

static void setup(void)
{
	setup_turn(3);
}

/* The shipped tables document in *xml, to be edited as a club's (the
 * caller frees it, or gives it to use_tables).  Read straight into the
 * caller's pointer: returned from a local of this function whose address
 * ord_read_file was given, GCC's -Wdangling-pointer (a Release build) took
 * every pointer into the text for one to that local, gone at the return. */
static void tables_xml(char **xml)
{
	size_t len;

	ck_assert_int_eq(ord_read_file(xml, &len, ORD_SOURCE_DIR "/rulesets/battalion/tables.xml",
				       1u << 20),
			 0);
}

/* Cut the parameter name out of xml (a switch a game made before it does
 * not have). */
static void cut_param(char *xml, const char *name)
{
	char pat[128], *from, *to;

	snprintf(pat, sizeof(pat), "<param name=\"%s\"", name);
	from = strstr(xml, pat);
	ck_assert_msg(from != NULL, "no %s in the tables", name);
	to = strstr(from, "/>") + 2;
	memmove(from, to, strlen(to) + 1);
}

/* Play on under the tables xml (freed), loaded as the document doc, in a
 * new context of turn 3. */
static void use_tables(char *xml, const char *doc)
{
	ord_ctx_fake_free(ctx);
	rs->free(rules);
	ck_assert_msg(rs->load(&rules, xml, strlen(xml), doc) == 0, "%s", ord_error_last());
	free(xml);
	ctx = ord_ctx_fake_new(rs, rules, 3);
}

/* A unit with scenario attributes "kind=... figures=..." and its initial
 * state, then the state keys given ("last_charge=2 formation=column"). */
static struct ord_unit *unit(const char *id, const char *side, const char *attrs, const char *state)
{
	struct ord_unit *u = ord_ctx_fake_add_unit(ctx, id, id, side);
	struct ord_diag d;

	ord_diag_init(&d);
	split_kv(&u->attrs, attrs);
	ck_assert_int_eq(rs->init_unit(rules, u, &d), 0);
	ord_diag_release(&d);
	if (state)
		split_kv(&u->state, state);
	reload(&u->attrs);
	reload(&u->state);
	return u;
}

/* The standard cast: two battalions, skirmishers, light infantry, both
 * cavalries, both guns for blue; a column, a line and hussars for red. */
static void cast(void)
{
	unit("B1", "blue", "kind=line_infantry formation=line figures=24", NULL);
	unit("B2", "blue", "kind=line_infantry formation=column figures=24 quality=elite", NULL);
	unit("S1", "blue", "kind=skirmishers formation=skirmish figures=8", NULL);
	unit("L1", "blue", "kind=light_infantry formation=column figures=24 weapon=rifle", NULL);
	unit("H1", "blue", "kind=light_cavalry formation=line figures=8 weapon=none", NULL);
	unit("K1", "blue", "kind=heavy_cavalry formation=line figures=8 weapon=none", NULL);
	unit("G1", "blue", "kind=foot_artillery formation=unlimbered figures=10 weapon=none", NULL);
	unit("HA", "blue", "kind=horse_artillery formation=limbered figures=8 weapon=none", NULL);
	unit("R1", "red", "kind=line_infantry formation=column figures=32", NULL);
	unit("R2", "red", "kind=line_infantry formation=line figures=24", NULL);
	unit("RH", "red", "kind=light_cavalry formation=line figures=8 weapon=none", NULL);
}

/* The replay takes a voided event out of its phase: out of its units'
 * lists at once, the array closed up when it is next read whole, the rest
 * in the order recorded (a removal moved every event after it and built
 * every list again: thousands of voids in a phase of thousands of events
 * were quadratic) */
static unsigned unit_seq(const char *id, size_t i)
{
	const struct ord_event *e = ord_ctx_unit_event(ctx, ord_ctx_find_unit(ctx, id), i);
	return e ? e->seq : 0;
}

START_TEST(event_removed)
{
	cast();
	event("move", "unit=B1 distance=1");
	event("move", "unit=B2 distance=1");
	event("move", "unit=B1 distance=1");
	event("move", "unit=B1 distance=2");
	ck_assert_int_eq(ord_ctx_remove_event(ctx, 3), 1);
	ck_assert_int_eq(ord_ctx_remove_event(ctx, 3), 0);
	ck_assert_int_eq(ord_ctx_remove_event(ctx, 99), 0);
	ck_assert_uint_eq(ord_ctx_unit_nevents(ctx, ord_ctx_find_unit(ctx, "B1")), 2);
	ck_assert_uint_eq(unit_seq("B1", 0), 1);
	ck_assert_uint_eq(unit_seq("B1", 1), 4);
	/* one added after it, one before it removed */
	event("move", "unit=B2 distance=2");
	ck_assert_int_eq(ord_ctx_remove_event(ctx, 1), 1);
	ck_assert_uint_eq(ord_ctx_unit_nevents(ctx, ord_ctx_find_unit(ctx, "B1")), 1);
	ck_assert_uint_eq(unit_seq("B1", 0), 4);
	ck_assert_uint_eq(unit_seq("B2", 0), 2);
	ck_assert_uint_eq(unit_seq("B2", 1), 5);
	/* read whole: closed up, in order, and the lists built again */
	ck_assert_uint_eq(ord_ctx_nevents(ctx), 3);
	ck_assert_uint_eq(ord_ctx_event(ctx, 0)->seq, 2);
	ck_assert_uint_eq(ord_ctx_event(ctx, 1)->seq, 4);
	ck_assert_uint_eq(ord_ctx_event(ctx, 2)->seq, 5);
	ck_assert_str_eq(ord_kv_get(&ord_ctx_event(ctx, 1)->kv, "distance"), "2");
	ck_assert_uint_eq(ord_ctx_unit_nevents(ctx, ord_ctx_find_unit(ctx, "B1")), 1);
	ck_assert_uint_eq(unit_seq("B1", 0), 4);
	ck_assert_uint_eq(ord_ctx_unit_nevents(ctx, ord_ctx_find_unit(ctx, "B2")), 2);
	ck_assert_int_eq(ord_ctx_remove_event(ctx, 4), 1);
	ck_assert_uint_eq(ord_ctx_unit_nevents(ctx, ord_ctx_find_unit(ctx, "B1")), 0);
}
END_TEST

/* A unit's list of the phase's events holds two in place and more in an
 * array of its own (ctx.c evl_event): past two, past four (the array
 * grown), taken out again, each unit's in the order of the events. */
START_TEST(event_lists_in_place_and_grown)
{
	unsigned i, want;

	cast();
	for (i = 1; i <= 12; i++)
		event("move", i % 3 ? "unit=B1 distance=1" : "unit=B2 distance=1");
	ck_assert_uint_eq(ord_ctx_unit_nevents(ctx, ord_ctx_find_unit(ctx, "B1")), 8);
	ck_assert_uint_eq(ord_ctx_unit_nevents(ctx, ord_ctx_find_unit(ctx, "B2")), 4);
	ck_assert_uint_eq(ord_ctx_unit_nevents(ctx, ord_ctx_find_unit(ctx, "R1")), 0);
	for (i = 0, want = 1; i < 8; i++, want += want % 3 == 2 ? 2 : 1)
		ck_assert_uint_eq(unit_seq("B1", i), want);
	ck_assert_uint_eq(unit_seq("B1", 8), 0);
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(unit_seq("B2", i), 3 * (i + 1));
	/* B1 down to one, B2 to two: in place again, in order */
	for (i = 1; i <= 11; i++)
		if (i % 3 && i != 7)
			ck_assert_int_eq(ord_ctx_remove_event(ctx, i), 1);
	ck_assert_int_eq(ord_ctx_remove_event(ctx, 3), 1);
	ck_assert_int_eq(ord_ctx_remove_event(ctx, 9), 1);
	ck_assert_uint_eq(ord_ctx_unit_nevents(ctx, ord_ctx_find_unit(ctx, "B1")), 1);
	ck_assert_uint_eq(unit_seq("B1", 0), 7);
	ck_assert_uint_eq(ord_ctx_unit_nevents(ctx, ord_ctx_find_unit(ctx, "B2")), 2);
	ck_assert_uint_eq(unit_seq("B2", 0), 6);
	ck_assert_uint_eq(unit_seq("B2", 1), 12);
	/* read whole: closed up and the lists built again */
	ck_assert_uint_eq(ord_ctx_nevents(ctx), 3);
	ck_assert_uint_eq(unit_seq("B1", 0), 7);
	ck_assert_uint_eq(unit_seq("B2", 1), 12);
	event("move", "unit=B1 distance=1");
	event("move", "unit=B1 distance=1");
	ck_assert_uint_eq(ord_ctx_unit_nevents(ctx, ord_ctx_find_unit(ctx, "B1")), 3);
	ck_assert_uint_lt(unit_seq("B1", 0), unit_seq("B1", 1));
	ck_assert_uint_lt(unit_seq("B1", 1), unit_seq("B1", 2));
}
END_TEST

/* Seal a side's sheet: attach each order to its unit. */
static void orders(const char *text)
{
	struct ord_sheet *s;
	size_t i;

	ck_assert_uint_lt(nsheets, sizeof(sheets) / sizeof(sheets[0]));
	s = &sheets[nsheets++];
	parse(s, text);
	for (i = 0; i < s->n; i++) {
		struct ord_unit *u = ord_ctx_find_unit(ctx, s->orders[i].unit);
		ck_assert_ptr_nonnull(u);
		ord_ctx_fake_set_order(ctx, u, &s->orders[i]);
	}
}

static long state(const char *id, const char *key)
{
	struct ord_unit *u = ord_ctx_find_unit(ctx, id);

	ck_assert_ptr_nonnull(u);
	return ord_kv_get_int(&u->state, key, 0);
}

static const char *state_str(const char *id, const char *key)
{
	const char *v = ord_kv_get(&ord_ctx_find_unit(ctx, id)->state, key);
	return v ? v : "";
}

/* hay is evaluated once: it may resolve a phase */
#define assert_has(hay, needle)                                                                   \
	do {                                                                                      \
		const char *hay_ = (hay);                                                         \
		ck_assert_msg(strstr(hay_, (needle)) != NULL, "expected\n  %s\nin\n%s", (needle), \
			      hay_);                                                              \
	} while (0)

/* ================================================================ sheets */

START_TEST(sheet_valid)
{
	cast();
	ck_assert_str_eq(validate("blue", "B1 ↑ 1/2 FCol\n"
					  "B2 ↑-C\n"
					  "S1 ↗ 1\n"
					  "L1 FSq\n"
					  "H1 ↖ 1 C\n"
					  "G1 Fs @R1\n"
					  "HA ↑-C-UL-Fs @R1\n"),
			 "");
}
END_TEST

START_TEST(sheet_unknown_unit)
{
	cast();
	ck_assert_str_eq(validate("blue", "B1 ↑ 1\n  X9 ↑ 1\n"),
			 "2:3: unknown unit 'X9': expected one of side blue's units: 'B1', 'B2', 'S1', 'L1', 'H1', 'K1', 'G1' or 'HA' (orders)\n");
}
END_TEST

START_TEST(sheet_other_side)
{
	cast();
	ck_assert_str_eq(validate("blue", "# blue's sheet\nR1 ↑ 1\n"),
			 "2:1: unit 'R1' belongs to side red, not blue (orders)\n");
}
END_TEST

START_TEST(sheet_two_orders)
{
	cast();
	ck_assert_str_eq(validate("blue", "B1 ↑ 1\nB2 FLn\nB1: FCol\n"),
			 "3:1: second order for unit 'B1' (its first is on line 1) "
			 "(one battalion cannot be divided nor receive 2 orders)\n");
}
END_TEST

/* A change of formation takes the turn: one a sheet line, the second
 * reported at its column */
START_TEST(sheet_two_formations)
{
	cast();
	ck_assert_str_eq(validate("blue", "B2 FLn FCol FSq\n"),
			 "1:8: unit 'B2': a second formation change 'FCol' (the first is 'FLn'): a "
			 "change takes the turn (one battalion cannot be divided nor receive 2 "
			 "orders)\n"
			 "1:13: unit 'B2': a second formation change 'FSq' (the first is 'FLn'): a "
			 "change takes the turn (one battalion cannot be divided nor receive 2 "
			 "orders)\n");
}
END_TEST

/* D26: cavalry does not fire, whatever its weapon= says */
START_TEST(cavalry_does_not_fire)
{
	cast();
	unit("B3", "blue", "kind=light_cavalry formation=line figures=4", NULL);
	ck_assert_str_eq(validate("blue", "B3 @R1\n"),
			 "1:4: unit 'B3': light_cavalry does not fire: the rules give small-arms fire "
			 "to infantry only (weapon fire: musket and rifle (D26))\n");
	/* refused as it is recorded, whatever the override (red team #7);
	 * one stored before is checked as it was */
	ck_assert_str_eq(refused("fire", "unit=B3 target=R1 range=3"),
			 "unit 'B3' is light_cavalry: the rules give small-arms fire to infantry only "
			 "(D26)" NO_OVERRIDE);
	ck_assert_str_eq(event_stored("fire", "unit=B3 target=R1 range=3"),
			 "unit 'B3' is light_cavalry: the rules give small-arms fire to infantry only "
			 "(weapon fire: musket and rifle (D26))\n");
}
END_TEST

START_TEST(sheet_code_for_kind)
{
	cast();
	ck_assert_str_eq(validate("blue", "B1 ↑ Fb\n"),
			 "1:6: unit 'B1': code 'Fb' is not for line_infantry "
			 "(only for foot_artillery horse_artillery) (order codes)\n");
	ck_assert_str_eq(validate("blue", "S1 FSq\n"),
			 "1:4: unit 'S1': code 'FSq' is not for skirmishers "
			 "(only for line_infantry light_infantry) (order codes)\n");
	ck_assert_str_eq(validate("blue", "H1 FCol\n"),
			 "1:4: unit 'H1': code 'FCol' is not for light_cavalry "
			 "(only for line_infantry light_infantry) (order codes)\n");
	/* skirmishers are always in skirmish order (D27) */
	ck_assert_str_eq(validate("blue", "S1 FLn\n"),
			 "1:4: unit 'S1': code 'FLn' is not for skirmishers "
			 "(only for line_infantry light_infantry) (order codes)\n");
	ck_assert_str_eq(validate("blue", "G1 ↑ C\n"),
			 "1:6: unit 'G1': code 'C' is not for foot_artillery (only for line_infantry "
			 "light_infantry skirmishers light_cavalry heavy_cavalry horse_artillery) (order codes)\n"
			 "1:4: gun 'G1' is unlimbered: it must limber (L, a turn) before it moves, so no "
			 "move arrow this turn (L - limber (1 turn all art.))\n");
	ck_assert_str_eq(validate("blue", "K1 UL\n"),
			 "1:4: unit 'K1': code 'UL' is not for heavy_cavalry "
			 "(only for foot_artillery horse_artillery) (order codes)\n");
}
END_TEST

START_TEST(sheet_charge_interval)
{
	cast();
	ord_kv_set_int(&ord_ctx_find_unit(ctx, "B2")->state, "last_charge", 1);
	/* turn 3: charged in 1, so the next is in 4 */
	ck_assert_str_eq(validate("blue", "B2 ↑ C\n"),
			 "1:6: unit 'B2' charged in turn 1; its next charge may be in turn 4 "
			 "(a unit may charge only once every 3 turns)\n");
	ord_kv_set_int(&ord_ctx_find_unit(ctx, "B2")->state, "last_charge", 0);
	ck_assert_str_eq(validate("blue", "B2 ↑ C\n"), "");
}
END_TEST

/* Units the rules do not let act take no orders (issue 16, item 8): a
 * destroyed one none at all, a routed one only its way back; and a
 * destroyed unit is reported as destroyed, not shaken. */
START_TEST(sheet_units_that_cannot_act)
{
	struct ord_buf b = ORD_BUF_INIT;

	cast();
	ord_kv_set_int(&ord_ctx_find_unit(ctx, "B1")->state, "figures", 0);
	split_kv(&ord_ctx_find_unit(ctx, "B2")->state, "routed=2 rout_until=5");
	ck_assert_str_eq(validate("blue", "B1 ↓ 1/2\nB2 ↓ 1\n"),
			 "1:1: unit 'B1' is destroyed (no figures left): it takes no orders (units)\n");
	ck_assert_str_eq(validate("blue", "B2 ↑ 1/2\n"),
			 "1:1: unit 'B2' is routed until turn 5: it retreats with its back to the enemy and may only be ordered back (an arrow away from the enemy), no fire, charge or formation (rout = unit retreats, backs to enemy; routed units can't fire)\n");
	ck_assert_ptr_nonnull(strstr(validate("blue", "B2 ↓ 1 Fb @R1\n"), "is routed until turn 5"));
	ck_assert_int_eq(rs->describe_unit(ctx, ord_ctx_find_unit(ctx, "B1"), "blue", &b), 0);
	ck_assert_ptr_nonnull(strstr(b.buf, "morale none: destroyed"));
	ord_buf_release(&b);
}
END_TEST

static void tables_without(const char *name);

/* "Rout, unit moves 3 turns backwards" and "L - limber (1 turn all
 * art.)": a routed gun that is unlimbered limbers first, its L the one
 * code its sheet may name, and is not moved unlimbered
 * (routed_gun_checked); a game made before refused the L and took the
 * move. */
START_TEST(routed_gun_limbers_first)
{
	cast();
	split_kv(&ord_ctx_find_unit(ctx, "G1")->state, "routed=2 rout_until=5");
	ck_assert_str_eq(validate("blue", "G1 L\n"), "");
	assert_has(validate("blue", "G1 Fs @R2\n"), "is routed until turn 5");
	assert_has(validate("blue", "G1 ↓ 1\n"), "it must limber (L, a turn) before it moves");
	ck_assert_str_eq(event("move", "unit=G1 distance=8"),
			 "gun 'G1' is routed but unlimbered: it must limber (L, a turn) before it "
			 "moves (L - limber (1 turn all art.))\n");
	orders("G1 L\n");
	ck_assert_str_eq(event("limber", "unit=G1"), "");
	tables_without("routed_gun_checked");
	cast();
	split_kv(&ord_ctx_find_unit(ctx, "G1")->state, "routed=2 rout_until=5");
	assert_has(validate("blue", "G1 L\n"), "is routed until turn 5");
	ck_assert_str_eq(event("move", "unit=G1 distance=8"), "");
}
END_TEST

/* formation_change_moves is read: 1 (our reading, D7) lets a unit move
 * while it changes formation, 0 refuses the arrow. */
START_TEST(sheet_formation_change_moves)
{
	char *xml, *at;

	tables_xml(&xml);
	cast();
	ck_assert_str_eq(validate("blue", "B1 ↑ 1/2 FCol\n"), "");
	/* a club's tables that read the rule the other way */
	at = strstr(xml, "name=\"formation_change_moves\" value=\"1\"");
	ck_assert_ptr_nonnull(at);
	at[strlen("name=\"formation_change_moves\" value=\"")] = '0';
	use_tables(xml, "tables.xml");
	cast();
	ck_assert_str_eq(validate("blue", "B1 ↑ 1/2 FCol\n"),
			 "1:4: unit 'B1': a unit changing formation (FCol) does not move in the turn: no arrow beside it (formation_change_moves)\n");
	ck_assert_str_eq(validate("blue", "B1 FCol\n"), "");
}
END_TEST

START_TEST(sheet_charge_interval_edge)
{
	teardown();
	setup_turn(4);
	cast();
	ord_kv_set_int(&ord_ctx_find_unit(ctx, "B2")->state, "last_charge", 1);
	ck_assert_str_eq(validate("blue", "B2 ↑ C\n"), "");
}
END_TEST

START_TEST(sheet_charge_and_fire)
{
	cast();
	ck_assert_str_eq(validate("blue", "HA ↑ C Fs @R1\n"),
			 "1:8: unit 'HA': a charging unit cannot fire (only horse artillery may C-UL-F) "
			 "(a charging unit can't fire)\n"
			 "1:8: gun 'HA' is limbered: it fires only unlimbered (UL) (UL - unlimber (1 turn "
			 "except for horse art.))\n");
	ck_assert_str_eq(validate("blue", "B2 ↑ C @R1\n"),
			 "1:8: unit 'B2': a charging unit cannot name a fire target "
			 "(a charging unit can't fire)\n");
	/* the exception: horse artillery charges, unlimbers and fires */
	ck_assert_str_eq(validate("blue", "HA ↑-C-UL-Fs\n"), "");
	ck_assert_str_eq(validate("blue", "HA ↑ C UL Fg @R2\n"), "");
}
END_TEST

START_TEST(sheet_charge_formation)
{
	cast();
	/* a line may not charge (the movement chart's "—") */
	ck_assert_str_eq(validate("blue", "B1 ↑ C\n"),
			 "1:6: unit 'B1' cannot charge: charge: line_infantry in line may not "
			 "charge (movement chart)\n");
	ck_assert_str_eq(validate("blue", "B2 C\n"),
			 "1:4: unit 'B2': a charge needs a direction arrow (the unit charges along it) (C)\n");
}
END_TEST

/* "FSk - means a unit wishes to form skirmish order (one turn)" and "C -
 * means the unit wishes to charge": a change takes the turn, and a charge
 * is made in the formation the unit has (D7) while its fire and melee
 * count the new one (D29), so a column charged 10" in and was fired at as
 * skirmish order; refused at the formation code (charge_form_checked).  A
 * game made before took it. */
START_TEST(sheet_charge_and_form)
{
	cast();
	ck_assert_str_eq(validate("blue", "B2 ↑ C FSk\n"),
			 "1:8: unit 'B2' charges (C): it cannot change formation (FSk) in the turn "
			 "it charges (a change takes the turn, and the charge is made in the "
			 "formation it has) (FLn, FCol, FSk, FSq (one turn); C - charge)\n");
	ck_assert_str_eq(validate("blue", "B2 FSq ↑-C\n"),
			 "1:4: unit 'B2' charges (C): it cannot change formation (FSq) in the turn "
			 "it charges (a change takes the turn, and the charge is made in the "
			 "formation it has) (FLn, FCol, FSk, FSq (one turn); C - charge)\n");
	ck_assert_str_eq(validate("blue", "B2 ↑ C\nL1 ↑ 1/2 FLn\n"), "");
}
END_TEST

START_TEST(sheet_charge_and_form_of_a_game_made_before)
{
	tables_without("charge_form_checked");
	cast();
	ck_assert_str_eq(validate("blue", "B2 ↑ C FSk\n"), "");
}
END_TEST

/* A sheet's check asks the movement chart once for each kind and
 * formation that charges (check.c charge_refusal, the first 32 kept):
 * every unit's refusal is the chart's own, for 98 units of every kind in
 * every formation (49 pairs, past what it keeps), shuffled. */
START_TEST(sheet_charges_as_the_chart)
{
	static const char *const kinds[] = { "line_infantry",  "light_infantry", "skirmishers",
					     "light_cavalry",  "heavy_cavalry",  "foot_artillery",
					     "horse_artillery" };
	static const char *const forms[] = { "line", "column",   "square",    "skirmish",
					     "misc", "limbered", "unlimbered" };
	struct ord_buf text = ORD_BUF_INIT, want = ORD_BUF_INIT;
	char ids[98][16], attrs[96], state[64];
	size_t order[98], i, k, n = 0;
	uint32_t r = 7;
	const char *got;

	for (i = 0; i < ORD_ARRAY_SIZE(kinds); i++)
		for (k = 0; k < 2 * ORD_ARRAY_SIZE(forms); k++, n++) {
			snprintf(ids[n], sizeof(ids[n]), "U%zu", n);
			snprintf(attrs, sizeof(attrs), "kind=%s figures=8 weapon=none", kinds[i]);
			snprintf(state, sizeof(state), "formation=%s", forms[k / 2]);
			unit(ids[n], "blue", attrs, state);
			order[n] = n;
		}
	for (i = n; i > 1; i--) { /* shuffled */
		r = r * 1103515245u + 12345u;
		k = (r >> 8) % i;
		n = order[i - 1];
		order[i - 1] = order[k];
		order[k] = n;
	}
	for (i = 0; i < ORD_ARRAY_SIZE(ids); i++)
		ord_buf_addf(&text, "%s ↑ C\n", ids[order[i]]);
	got = validate("blue", text.buf);
	for (i = 0; i < ORD_ARRAY_SIZE(ids); i++) {
		struct ord_unit *u = ord_ctx_find_unit(ctx, ids[order[i]]);
		struct bat_move_in mi = { bat_kind(u),
					  bat_chart_formation(ctx, u),
					  (int)bat_ip(ctx, "move_fraction_parts"),
					  1,
					  0,
					  "open",
					  NULL };
		struct bat_move_out mo;

		ord_buf_reset(&want);
		ord_buf_addf(&want, "unit '%s' cannot charge: ", u->id);
		if (bat_is_arm(ctx, u, "artillery") || !bat_move(bat_r(ctx), &mi, &mo, NULL)) {
			ck_assert_ptr_null(strstr(got, want.buf));
		} else {
			ord_buf_addf(&want, "%s (movement chart)\n", ord_error_last());
			ck_assert_msg(strstr(got, want.buf) != NULL, "%s not in %s", want.buf, got);
		}
		ord_error_clear();
	}
	ord_buf_release(&text);
	ord_buf_release(&want);
}
END_TEST

/* A sheet's check answers once for each code and kind it allows (check.c
 * code_allowed_seen, the first 32 pairs kept): every order's code is
 * refused as order_codes says, for 70 units of every kind each given one
 * of the ten codes, shuffled, twice over (40 pairs allowed or not). */
START_TEST(sheet_codes_as_the_table)
{
	static const char *const kinds[] = { "line_infantry",  "light_infantry", "skirmishers",
					     "light_cavalry",  "heavy_cavalry",  "foot_artillery",
					     "horse_artillery" };
	static const char *const codes[] = { "FLn", "FCol", "FSk", "FSq", "C",
					     "Fb",  "Fs",   "Fg",  "UL",  "L" };
	const struct ord_table *t = ord_tables_get(bat_r(ctx)->tables, "order_codes");
	struct ord_buf text = ORD_BUF_INIT, want = ORD_BUF_INIT;
	char ids[70][16], attrs[96];
	size_t order[70], i, k, n = 0, round;
	uint32_t r = 3;
	const char *got;

	for (i = 0; i < ORD_ARRAY_SIZE(kinds); i++)
		for (k = 0; k < ORD_ARRAY_SIZE(codes); k++, n++) {
			snprintf(ids[n], sizeof(ids[n]), "U%zu", n);
			snprintf(attrs, sizeof(attrs), "kind=%s figures=8 weapon=none", kinds[i]);
			unit(ids[n], "blue", attrs, NULL);
			order[n] = n;
		}
	for (round = 0; round < 2; round++) {
		for (i = n; i > 1; i--) { /* shuffled */
			size_t x;
			r = r * 1103515245u + 12345u;
			k = (r >> 8) % i;
			x = order[i - 1];
			order[i - 1] = order[k];
			order[k] = x;
		}
		ord_buf_reset(&text);
		for (i = 0; i < n; i++)
			ord_buf_addf(&text, "%s %s\n", ids[order[i]],
				     codes[order[i] % ORD_ARRAY_SIZE(codes)]);
		got = validate("blue", text.buf);
		for (i = 0; i < n; i++) {
			struct ord_unit *u = ord_ctx_find_unit(ctx, ids[i]);
			const char *code = codes[i % ORD_ARRAY_SIZE(codes)];
			struct ord_kv m;
			const struct ord_row *row;
			int ok;

			ord_kv_init(&m);
			ord_kv_set(&m, "code", code);
			ord_kv_set(&m, "kind", bat_kind(u));
			ok = !ord_table_find(&row, t, &m);
			ord_kv_release(&m);
			ord_error_clear();
			ord_buf_reset(&want);
			ord_buf_addf(&want, "unit '%s': code '%s' is not for %s (only for ", u->id,
				     code, bat_kind(u));
			ck_assert_msg((strstr(got, want.buf) == NULL) == ok, "%s: %s", want.buf, got);
		}
	}
	ord_buf_release(&text);
	ord_buf_release(&want);
}
END_TEST

/* The rules keep the row of table kinds of each kind asked (battalion.c
 * kind_row, the first 16): a unit's arm and chart formation are the
 * table's, for the seven kinds, none and 20 the tables do not have, asked
 * 2,000 times in random order. */
START_TEST(kinds_as_the_table)
{
	const struct ord_table *t = ord_tables_get(bat_r(ctx)->tables, "kinds");
	struct ord_unit *us[28];
	uint32_t r = 11;
	size_t i;

	cast();
	for (i = 0; i < 7; i++) /* the cast's: every kind */
		us[i] = ord_ctx_find_unit(ctx, (const char *[]){ "B1", "S1", "L1", "H1", "K1", "G1",
								 "HA" }[i]);
	for (i = 7; i < ORD_ARRAY_SIZE(us); i++) {
		char id[16], kind[16];

		snprintf(id, sizeof(id), "X%zu", i);
		snprintf(kind, sizeof(kind), "kind=k%zu", i);
		us[i] = ord_ctx_fake_add_unit(ctx, id, id, "blue");
		if (i > 7)
			split_kv(&us[i]->attrs, kind);
		split_kv(&us[i]->state, i % 2 ? "formation=column" : "formation=unlimbered");
	}
	for (i = 0; i < 2000; i++) {
		const struct ord_unit *u;
		const struct ord_row *row;
		const char *arm = "", *own = "", *f;

		r = r * 1103515245u + 12345u;
		u = us[(r >> 8) % ORD_ARRAY_SIZE(us)];
		if (!ord_table_find1(&row, t, "kind", bat_kind(u))) {
			arm = ord_row_str(row, "arm");
			own = ord_row_str(row, "formation");
		}
		ord_error_clear();
		f = ord_state_str(ctx, u, "formation");
		ck_assert_str_eq(bat_arm(ctx, u), arm ? arm : "");
		ck_assert_str_eq(bat_chart_formation(ctx, u), own && *own && strcmp(own, "*") ? own
							      : strstr(f, "limbered") ? "line"
										      : f);
	}
	/* another game's tables keep their own rows */
	{
		char *xml, *at;
		const char *was = "kind=\"line_infantry\" arm=\"infantry\"";

		tables_xml(&xml);
		ck_assert_ptr_nonnull(at = strstr(xml, was));
		memcpy(at + strlen("kind=\"line_infantry\" arm=\""), "cavalry\" ", 9);
		ck_assert_str_eq(bat_arm(ctx, us[0]), "infantry");
		use_tables(xml, "edited.xml");
		cast();
		ck_assert_str_eq(bat_arm(ctx, ord_ctx_find_unit(ctx, "B1")), "cavalry");
		ck_assert_str_eq(bat_arm(ctx, ord_ctx_find_unit(ctx, "L1")), "infantry");
	}
}
END_TEST

START_TEST(sheet_many_problems)
{
	cast();
	/* every problem at once, each with its line and column */
	ck_assert_str_eq(validate("blue", "B1 ↑ 1\n"
					  "X9 FCol\n"
					  "R1 ↑ 1\n"
					  "B1 FSq\n"
					  "S1 ↑ FSq Fb\n"
					  "G1 Fb Fs UL L\n"
					  "B2 1/2\n"),
			 "2:1: unknown unit 'X9': expected one of side blue's units: 'B1', 'B2', 'S1', 'L1', 'H1', 'K1', 'G1' or 'HA' (orders)\n"
			 "3:1: unit 'R1' belongs to side red, not blue (orders)\n"
			 "4:1: second order for unit 'B1' (its first is on line 1) "
			 "(one battalion cannot be divided nor receive 2 orders)\n"
			 "5:6: unit 'S1': code 'FSq' is not for skirmishers "
			 "(only for line_infantry light_infantry) (order codes)\n"
			 "5:10: unit 'S1': code 'Fb' is not for skirmishers "
			 "(only for foot_artillery horse_artillery) (order codes)\n"
			 "6:4: unit 'G1': one shot per turn: the sheet orders 2 kinds of shot (artillery)\n"
			 "6:13: unit 'G1': a gun cannot both unlimber (UL) and limber (L) in one turn "
			 "(artillery)\n"
			 "7:4: unit 'B2': a fraction of the move needs a direction arrow (orders)\n");
}
END_TEST

START_TEST(sheet_target)
{
	cast();
	ck_assert_str_eq(validate("blue", "G1 Fb @B1\nB1 @Nobody\n"),
			 "1:7: unit 'G1': target 'B1' is a unit of your own side (fire)\n"
			 "2:4: unit 'B1': unknown target unit 'Nobody': expected a unit of the game: side "
			 "blue's 'B1', 'B2', 'S1', 'L1', 'H1', 'K1', 'G1' or 'HA'; side red's 'R1', 'R2' "
			 "or 'RH' (fire)\n");
	/* a near miss is named, as an unknown unit's is (a unit's name is
	 * matched whatever its case: this one's is not its id) */
	{
		struct ord_unit *f = ord_ctx_fake_add_unit(ctx, "F2", "61e Ligne", "red");
		struct ord_diag d;

		ord_diag_init(&d);
		split_kv(&f->attrs, "kind=line_infantry formation=column figures=24");
		ck_assert_int_eq(rs->init_unit(rules, f, &d), 0);
		ord_diag_release(&d);
	}
	ck_assert_str_eq(validate("blue", "B1 @f2\n"),
			 "1:4: unit 'B1': unknown target unit 'f2': did you mean 'F2' (61e Ligne)? "
			 "(fire)\n");
}
END_TEST

/* ================================================================ events */

static const char *resolve(const char *phase, const int *dice, size_t n);
START_TEST(move_fraction)
{
	cast();
	orders("B1 ↑ 1/2\nB2 ↑ 1\nL1 ↑ 3/4\nS1 ↑ 1/4\n");
	ck_assert_str_eq(event("move", "unit=B1 distance=3"), "");
	ck_assert_str_eq(event("move", "unit=S1 distance=2.5"),
			 "unit 'S1' moved 2.5\" but its order allows 2\" (skirmishers in "
			 "skirmish, move 8, × 1/4 of the move = 2 in.) (movement chart)\n");
	/* elite +1" on the column's 8" */
	ck_assert_str_eq(event("move", "unit=B2 distance=9.5"),
			 "unit 'B2' moved 9.5\" but its order allows 9\" (line_infantry in "
			 "column, move 8, +1 elite = 9 in.) (movement chart)\n");
	/* light infantry +2" on 8", three quarters of it */
	ck_assert_str_eq(event("move", "unit=L1 distance=8"),
			 "unit 'L1' moved 8\" but its order allows 7.5\" (light_infantry in "
			 "column, move 8, +2 light infantry = 10, × 3/4 of the move = 7.5 in.) (movement chart)\n");
}
END_TEST

START_TEST(move_fraction_half_line)
{
	cast();
	orders("B1 ↑ 1/2\n");
	ck_assert_str_eq(event("move", "unit=B1 distance=3.5"),
			 "unit 'B1' moved 3.5\" but its order allows 3\" (line_infantry in "
			 "line, move 6, × 1/2 of the move = 3 in.) (movement chart)\n");
}
END_TEST

START_TEST(move_terrain)
{
	cast();
	orders("B2 ↑ 1/2\nB1 ↑ 1\nH1 ↑ C\n");
	/* road doubles the move: elite column 9 × 2 = 18, half of it 9 */
	ck_assert_str_eq(event("move", "unit=B2 distance=9 terrain=road"), "");
	/* forest halves it: line 6 × 1/2 = 3 */
	ck_assert_str_eq(event("move", "unit=B1 distance=3.25 terrain=forest"),
			 "unit 'B1' moved 3.25\" but its order allows 3\" (line_infantry in "
			 "line, move 6, ×0.5 forest = 3 in.) (movement chart)\n");
	/* no charge in forest */
	ck_assert_str_eq(event("move", "unit=H1 distance=4 terrain=forest charge=yes"),
			 "unit 'H1': charge: may not charge in terrain 'forest' (movement chart)\n");
}
END_TEST

START_TEST(move_charge_bonuses)
{
	cast();
	orders("B2 ↑ C\nL1 ↑ C\nH1 ↑ C\n");
	/* an elite column charging: 10", no elite bonus */
	ck_assert_str_eq(event("move", "unit=B2 distance=11 charge=yes"),
			 "unit 'B2' moved 11\" but its order allows 10\" (line_infantry in "
			 "column, charge 10, no elite bonus when charging = 10 in.) (movement chart)\n");
	/* light infantry keeps its +2" when charging */
	ck_assert_str_eq(event("move", "unit=L1 distance=12 charge=yes"), "");
	/* no road bonus when charging: light cavalry 16" */
	ck_assert_str_eq(event("move", "unit=H1 distance=17 charge=yes terrain=road"),
			 "unit 'H1' moved 17\" but its order allows 16\" (light_cavalry in "
			 "squadron, charge 16, no road bonus when charging = 16 in.) (movement chart)\n");
}
END_TEST

START_TEST(move_unordered)
{
	cast();
	orders("B1 FSq\nB2 ↑ 1\n");
	ck_assert_str_eq(event("move", "unit=B1 distance=1"),
			 "unit 'B1' moved 1\" but its sheet orders no move "
			 "(orders may never be changed)\n");
	ck_assert_str_eq(event("move", "unit=S1 distance=0"), "");
	ck_assert_str_eq(event("move", "unit=B2 distance=4"), "");
	ck_assert_str_eq(event("move", "unit=B2 distance=4"),
			 "unit 'B2' already moved this turn (event #3) (orders)\n");
}
END_TEST

START_TEST(form_unordered)
{
	cast();
	orders("B1 ↑ 1/2\nB2 FCol\nL1 FSq\n");
	ck_assert_str_eq(event("form", "unit=B1 formation=square"),
			 "unit 'B1' formed square but its sheet orders no formation change "
			 "(orders may never be changed)\n");
	ck_assert_str_eq(event("form", "unit=B2 formation=line"),
			 "unit 'B2' formed line but its sheet orders FCol "
			 "(orders may never be changed)\n");
	ck_assert_str_eq(event("form", "unit=L1 formation=square"), "");
	ck_assert_str_eq(refused("form", "unit=H1 formation=column"),
			 "unit 'H1' is light_cavalry: only infantry changes formation" NO_OVERRIDE);
	ck_assert_str_eq(event_stored("form", "unit=H1 formation=column"),
			 "unit 'H1' is light_cavalry: only infantry changes formation (order codes)\n"
			 "unit 'H1' formed column but its sheet orders no formation change "
			 "(orders may never be changed)\n");
}
END_TEST

/* One formation change, one limbering or unlimbering a turn, as one move */
START_TEST(form_and_unlimber_once)
{
	cast();
	orders("L1 FSq\nHA UL\n");
	ck_assert_str_eq(event("form", "unit=L1 formation=square"), "");
	ck_assert_str_eq(event("form", "unit=L1 formation=square"),
			 "unit 'L1' already changed formation this turn (event #1) "
			 "(one battalion cannot be divided nor receive 2 orders)\n");
	ck_assert_str_eq(event("unlimber", "unit=HA"), "");
	ck_assert_str_eq(event("unlimber", "unit=HA"),
			 "gun 'HA' already unlimbered this turn (event #3) "
			 "(UL - unlimber (1 turn except for horse art.))\n");
}
END_TEST

START_TEST(charge_unordered)
{
	cast();
	orders("B2 ↑ 1\n");
	ck_assert_str_eq(event("move", "unit=B2 distance=8 charge=yes contact=R2"),
			 "unit 'B2' charged but its sheet orders no charge (C) (orders may never be changed)\n");
}
END_TEST

START_TEST(charge_interval)
{
	cast();
	ord_kv_set_int(&ord_ctx_find_unit(ctx, "H1")->state, "last_charge", 2);
	/* the sheet was accepted (say, by override); the charge itself is refused */
	orders("H1 ↑ C\n");
	ck_assert_str_eq(event("move", "unit=H1 distance=10 charge=yes"),
			 "unit 'H1' charged in turn 2; its next charge may be in turn 5 "
			 "(a unit may charge only once every 3 turns)\n");
}
END_TEST

START_TEST(move_guns)
{
	cast();
	orders("G1 ↑ 1 L\nHA ↑ 1/2\n");
	ck_assert_str_eq(event("move", "unit=G1 distance=4"),
			 "gun 'G1' is unlimbered: it must limber (a turn) before it moves "
			 "(L - limber (1 turn all art.))\n");
	ck_assert_str_eq(event("limber", "unit=G1"), "");
	ck_assert_str_eq(event("unlimber", "unit=G1"),
			 "gun 'G1' already limbered this turn (event #2) "
			 "(UL - unlimber (1 turn except for horse art.))\n"
			 "gun 'G1' unlimbered but its sheet has no UL (orders may never be changed)\n"
			 "gun 'G1' is already unlimbered (artillery)\n"
			 "gun 'G1' moved this turn (event #1): a foot_artillery takes the turn to "
			 "unlimber and does not move (UL - unlimber (1 turn except for horse art.))\n");
	ck_assert_str_eq(event("move", "unit=HA distance=6"), "");
	ck_assert_str_eq(refused("limber", "unit=B1"),
			 "unit 'B1' is line_infantry, not artillery: only a gun limbers" NO_OVERRIDE);
	ck_assert_str_eq(refused("unlimber", "unit=H1"),
			 "unit 'H1' is light_cavalry, not artillery: only a gun unlimbers" NO_OVERRIDE);
	ck_assert_str_eq(event_stored("limber", "unit=B1"), "unit 'B1' is not artillery (artillery)\n");
}
END_TEST

START_TEST(move_dressing_ranks)
{
	cast();
	/* retreated in turn 2, dresses its ranks in turn 3 */
	ord_kv_set_int(&ord_ctx_find_unit(ctx, "B1")->state, "retreat_turn", 2);
	ord_kv_set_int(&ord_ctx_find_unit(ctx, "B1")->state, "dress_until", 3);
	ord_kv_set_int(&ord_ctx_find_unit(ctx, "R2")->state, "retreat_turn", 2);
	ord_kv_set_int(&ord_ctx_find_unit(ctx, "R2")->state, "dress_until", 3);
	orders("B1 ↗ 1/2\nR2 ↓ 1/2\n");
	ck_assert_str_eq(event("move", "unit=B1 distance=2"),
			 "unit 'B1' dresses its ranks this turn and may not move forward "
			 "(a unit that retreats must spend one turn dressing its ranks)\n");
	ck_assert_str_eq(event("move", "unit=R2 distance=2"), "");
}
END_TEST

START_TEST(move_retreating)
{
	cast();
	/* a retreating unit moves by the rules, not by its (empty) orders */
	ord_kv_set_int(&ord_ctx_find_unit(ctx, "B1")->state, "retreat_turn", 3);
	ck_assert_str_eq(event("move", "unit=B1 distance=6"), "");
	ck_assert_str_eq(event("move", "unit=R2 distance=6 contact=R1"),
			 "unit 'R2': contact with 'R1', a unit of its own side (melee)\n"
			 "unit 'R2' moved 6\" but its sheet orders no move "
			 "(orders may never be changed)\n");
}
END_TEST

START_TEST(shot_other_than_ordered)
{
	cast();
	orders("G1 Fb @R1\nB1 @R1\n");
	ck_assert_str_eq(event("artillery", "unit=G1 target=R1 range=20 shot=shell"),
			 "gun 'G1' fired shell but its sheet orders ball (Fb) "
			 "(must fire the shot indicated in its orders)\n");
	ck_assert_str_eq(event("fire", "unit=B1 target=R2 range=3"),
			 "unit 'B1' fired at 'R2' but its sheet names '@R1' "
			 "(orders may never be changed)\n");
}
END_TEST

START_TEST(shot_not_ordered)
{
	cast();
	orders("G1 ↑ 1/2\n");
	ck_assert_str_eq(event("artillery", "unit=G1 target=R1 range=20"),
			 "gun 'G1' has no fire order (Fb, Fs or Fg) on its sheet "
			 "(must fire the shot indicated in its orders)\n");
}
END_TEST

START_TEST(shot_target_free)
{
	cast();
	/* no @target: any enemy (D9); the shot defaults to the ordered one */
	orders("G1 Fg\n");
	ck_assert_str_eq(event("artillery", "unit=G1 target=R2 range=6"), "");
	ck_assert_str_eq(event("fire", "unit=B1 target=R2 range=6"), "");
}
END_TEST

/* A gun's hill=yes counts through artillery_modifiers' firer_on_hill; in
 * tables made before it, without the row, it is refused, not taken and
 * ignored. */
START_TEST(gun_hill_needs_its_row)
{
	char *xml, *from, *to;

	cast();
	orders("G1 Fg\n");
	ck_assert_str_eq(event("artillery", "unit=G1 target=R2 range=6 hill=yes"), "");
	tables_xml(&xml);
	from = strstr(xml, "<mod shot=\"*\" when=\"firer_on_hill\"");
	ck_assert_ptr_nonnull(from);
	to = strstr(from, "/>") + 2;
	memmove(from, to, strlen(to) + 1);
	use_tables(xml, "before.xml");
	cast();
	orders("G1 Fg\n");
	ck_assert_str_eq(event("artillery", "unit=G1 target=R2 range=6 hill=yes"),
			 "gun 'G1' is given hill=yes, but this game's tables have no "
			 "artillery_modifiers row 'firer_on_hill' (tables made before rules "
			 "revision 2026-12-04.1): its hilltop would change nothing; leave hill= out "
			 "(defending a hilltop)\n");
}
END_TEST

START_TEST(fire_kinds)
{
	cast();
	/* a kind that cannot fire so, a target of its own side or itself:
	 * refused as recorded, whatever the override (red team #7) */
	ck_assert_str_eq(refused("fire", "unit=G1 target=R1 range=3"),
			 "unit 'G1' is foot_artillery: a gun's fire is the event 'artillery'" NO_OVERRIDE);
	ck_assert_str_eq(refused("artillery", "unit=B1 target=R1 range=3 shot=ball"),
			 "unit 'B1' is line_infantry, not artillery: 'artillery' is a gun's fire (a "
			 "unit's is 'fire')" NO_OVERRIDE);
	ck_assert_str_eq(refused("fire", "unit=H1 target=R1 range=3"),
			 "unit 'H1' is light_cavalry: the rules give small-arms fire to infantry only "
			 "(D26)" NO_OVERRIDE);
	ck_assert_str_eq(refused("fire", "unit=B2 target=B1 range=3"),
			 "target 'B1' is a unit of the firer's own side (blue): fire is at the "
			 "enemy" NO_OVERRIDE);
	ck_assert_str_eq(refused("fire", "unit=B2 target=B2 range=3"),
			 "unit 'B2' cannot fire at itself" NO_OVERRIDE);
	ck_assert_str_eq(refused("artillery", "unit=G1 target=B1 range=3"),
			 "target 'B1' is a unit of the firer's own side (blue): fire is at the "
			 "enemy" NO_OVERRIDE);
	/* as stored by an orderly before, the checks say what they said */
	ck_assert_str_eq(event_stored("fire", "unit=G1 target=R1 range=3"),
			 "unit 'G1' is a gun: record its fire with the event 'artillery' "
			 "(artillery)\n");
	ck_assert_str_eq(event_stored("artillery", "unit=B1 target=R1 range=3"),
			 "unit 'B1' is line_infantry, not artillery (use the event 'fire') "
			 "(artillery)\n");
	ck_assert_str_eq(event_stored("fire", "unit=H1 target=R1 range=3"),
			 "unit 'H1' is light_cavalry: the rules give small-arms fire to infantry only "
			 "(weapon fire: musket and rifle (D26))\n");
	ck_assert_str_eq(event_stored("fire", "unit=B2 target=B1 range=3"),
			 "unit 'B2': target 'B1' is a unit of its own side (fire)\n");
	ck_assert_str_eq(event("fire", "unit=R2 target=B1 range=3"), "");
	ck_assert_str_eq(event("fire", "unit=R2 target=B2 range=3"),
			 "unit 'R2' already fired this turn (event #5) "
			 "(one battalion will fire at one target)\n");
}
END_TEST

START_TEST(fire_while_charging)
{
	cast();
	orders("B2 ↑ C\nHA ↑-C-UL-Fs\n");
	ord_kv_set(&ord_ctx_find_unit(ctx, "HA")->state, "formation", "unlimbered");
	ord_kv_set_int(&ord_ctx_find_unit(ctx, "HA")->state, "unlimbered", 3);
	ck_assert_str_eq(event("fire", "unit=B2 target=R1 range=2"),
			 "unit 'B2' is charging this turn and cannot fire "
			 "(a charging unit can't fire)\n");
	/* horse artillery charges, unlimbers and fires in one turn */
	ck_assert_str_eq(event("artillery", "unit=HA target=R1 range=8"), "");
}
END_TEST

START_TEST(fire_charged_by_event)
{
	cast();
	/* an overridden charge: the unit charged, whatever its sheet said */
	ord_kv_set_int(&ord_ctx_find_unit(ctx, "B1")->state, "charged", 3);
	ck_assert_str_eq(event("fire", "unit=B1 target=R1 range=2"),
			 "unit 'B1' is charging this turn and cannot fire "
			 "(a charging unit can't fire)\n");
}
END_TEST

START_TEST(fire_in_melee)
{
	cast();
	split_kv(&ord_ctx_find_unit(ctx, "B1")->state, "melee_with=R1 melee_since=2");
	split_kv(&ord_ctx_find_unit(ctx, "B2")->state, "melee_with=R2 melee_since=3");
	ck_assert_str_eq(event("fire", "unit=B1 target=R1 range=0"),
			 "unit 'B1' is still in the melee with 'R1' from turn 2 "
			 "(troops still in melee can't fire)\n");
	/* brought into melee in this turn's movement: fires as the enemy came */
	ck_assert_str_eq(event("fire", "unit=B2 target=R2 range=0"), "");
}
END_TEST

/* The same for a gun's shot (the event artillery): "Troops engaged in
 * previous turn melee (still in it) can't fire", and "A charging unit
 * can't fire" but horse artillery's C-UL-F (a sheet's C without UL). */
START_TEST(artillery_in_melee_or_charging)
{
	cast();
	orders("G1 Fg @R1\nHA ↑-C\n");
	split_kv(&ord_ctx_find_unit(ctx, "G1")->state, "melee_with=R1 melee_since=2");
	ck_assert_str_eq(event("artillery", "unit=G1 target=R1 range=2"),
			 "unit 'G1' is still in the melee with 'R1' from turn 2 "
			 "(troops still in melee can't fire)\n");
	split_kv(&ord_ctx_find_unit(ctx, "HA")->state, "formation=unlimbered unlimbered=2");
	ck_assert_str_eq(event("artillery", "unit=HA target=R1 range=8 shot=shell"),
			 "unit 'HA' is charging this turn and cannot fire (a charging unit can't "
			 "fire)\n"
			 "gun 'HA' has no fire order (Fb, Fs or Fg) on its sheet (must fire the shot "
			 "indicated in its orders)\n");
}
END_TEST

/* D12: "nor may they fire": refused, and recorded with --override the
 * fire still does nothing, which the refusal says (overridden_effect_said,
 * 2026-12-06.10: it said only that they may not fire, and the referee
 * who overrode it believed the fire counted) */
START_TEST(fire_woods)
{
	cast();
	ck_assert_str_eq(event("fire", "unit=B1 target=R1 range=3 firer_in_woods=yes"),
			 "unit 'B1': units in woods may not fire: recorded with --override, the fire "
			 "still does nothing (no fire, no die) (cover)\n");
	ck_assert_str_eq(event("fire", "unit=B2 target=R1 range=4.5 target_in_woods=yes"),
			 "unit 'B2': target 'R1' is in woods and may be fired on only within 4\" "
			 "(range 4.5\"): recorded with --override, the fire still does nothing (no "
			 "fire, no die) (cover)\n");
	ck_assert_str_eq(event("fire", "unit=L1 target=R1 range=4 target_in_woods=yes"), "");
	/* as said: overridden, neither fires */
	assert_has(resolve("fire", NULL, 0),
		   "R1: fired on by B1 (musket, 3\"): no fire: units in woods do not fire\n"
		   "R1: fired on by B2 (musket, 4.5\"): no fire: a target in woods may be fired on "
		   "only within 4 in.\n");
}
END_TEST

/* A game made before overridden_effect_said keeps the words its audit
 * compares with the checks it logged. */
START_TEST(fire_woods_of_a_game_made_before)
{
	tables_without("overridden_effect_said");
	cast();
	ord_kv_set_int(&ord_ctx_find_unit(ctx, "S1")->state, "figures", 0);
	ck_assert_str_eq(event("fire", "unit=B1 target=R1 range=3 firer_in_woods=yes"),
			 "unit 'B1': units in woods may not fire (cover)\n");
	assert_has(event("artillery", "unit=G1 target=R1 range=20 target_in_woods=yes"),
		   "unit 'G1': target 'R1' is in woods and may be fired on only within 4\" (range "
		   "20\") (cover)\n");
	assert_has(event("fire", "unit=R2 target=B1 range=2 screen=S1 screen_front=6"),
		   "the skirmishers 'S1' have no figures left: they block nothing (skirmishers");
	split_kv(&ord_ctx_find_unit(ctx, "H1")->state, "in_contact=3 contact_with=RH");
	ck_assert_str_eq(event("melee", "a=H1 b=RH a_figures=100 b_figures=8"),
			 "a_figures=100, but unit 'H1' has 8 figures (melee)\n");
}
END_TEST

/* A gun stands limbered or unlimbered, and the charts read it as a line
 * (D11): a check's words say its state, not "in line" (red team #13a,
 * gun_formation_said) */
START_TEST(gun_formation_words)
{
	cast();
	orders("HA ↑ 1/2\n");
	ck_assert_str_eq(event("move", "unit=HA distance=20"),
			 "unit 'HA' moved 20\" but its order allows 6\" (horse_artillery limbered, move "
			 "12, × 1/2 of the move = 6 in.) (movement chart)\n");
	assert_has(event("fire", "unit=R2 target=B1 range=3 screen=G1 screen_front=6"),
		   "'G1' is foot_artillery unlimbered, not skirmishers");
	assert_has(event("fire", "unit=R2 target=B1 range=3 screen=B1 screen_front=6"),
		   "'B1' is line_infantry in line, not skirmishers");
}
END_TEST

/* A game made before the switch keeps the words its audit compares */
START_TEST(gun_formation_words_of_a_game_made_before)
{
	tables_without("gun_formation_said");
	cast();
	orders("HA ↑ 1/2\n");
	ck_assert_str_eq(event("move", "unit=HA distance=20"),
			 "unit 'HA' moved 20\" but its order allows 6\" (horse_artillery in line, move "
			 "12, × 1/2 of the move = 6 in.) (movement chart)\n");
	assert_has(event("fire", "unit=R2 target=B1 range=3 screen=G1 screen_front=6"),
		   "'G1' is foot_artillery in line, not skirmishers");
}
END_TEST

/* Review finding: woods cover a unit from the guns as from muskets (D12),
 * the 4" the tables' woods_fired_on_within; an override shoots nothing. */
START_TEST(artillery_woods)
{
	static const int six[] = { 6 };

	cast();
	unit("R9", "red", "kind=foot_artillery formation=unlimbered figures=10 weapon=none", NULL);
	unit("R8", "red", "kind=foot_artillery formation=unlimbered figures=10 weapon=none", NULL);
	orders("G1 Fb @R1\nR9 Fs\nR8 Fs\n");
	ck_assert_str_eq(event("artillery", "unit=G1 target=R1 range=20 target_in_woods=yes"),
			 "unit 'G1': target 'R1' is in woods and may be fired on only within 4\" "
			 "(range 20\"): recorded with --override, the fire still does nothing (no "
			 "fire, no die) (cover)\n");
	ck_assert_str_eq(event("artillery", "unit=R9 target=B1 range=20 firer_in_woods=yes"),
			 "unit 'R9': units in woods may not fire: recorded with --override, the fire "
			 "still does nothing (no fire, no die) (cover)\n");
	ck_assert_str_eq(event("artillery", "unit=R8 target=B2 range=4 target_in_woods=yes"), "");
	/* recorded with --override, it rolls nothing and does nothing (the
	 * one die is R8's shot at B2, a miss) */
	assert_has(resolve("fire", six, 1),
		   "R1: fired on by gun G1 (ball, 20\"): no fire: a target in woods may be fired "
		   "on only within 4 in.\n");
	ck_assert_int_eq(state("R1", "figures"), 32);
	ck_assert_int_eq(state("B1", "figures"), 24);
}
END_TEST

START_TEST(fire_routed)
{
	cast();
	split_kv(&ord_ctx_find_unit(ctx, "B1")->state, "routed=2 rout_until=5");
	split_kv(&ord_ctx_find_unit(ctx, "B2")->state, "routed=1 rout_until=2");
	ck_assert_str_eq(event("fire", "unit=B1 target=R1 range=3"),
			 "unit 'B1' is routed (routed units can't fire)\n");
	/* its rout is over */
	ck_assert_str_eq(event("fire", "unit=B2 target=R1 range=3"), "");
}
END_TEST

START_TEST(fire_destroyed)
{
	cast();
	ord_kv_set_int(&ord_ctx_find_unit(ctx, "B1")->state, "figures", 0);
	ck_assert_str_eq(event("fire", "unit=B1 target=R1 range=3"),
			 "unit 'B1' has no figures left (units)\n");
}
END_TEST

START_TEST(artillery_unlimbered)
{
	cast();
	orders("G1 Fb\nHA ↑ 1/2 Fs\n");
	/* horse artillery that did not unlimber */
	ck_assert_str_eq(event("artillery", "unit=HA target=R1 range=10"),
			 "gun 'HA' has not unlimbered (UL - unlimber (1 turn except for horse art.))\n");
	/* foot artillery that unlimbered this turn */
	ord_kv_set_int(&ord_ctx_find_unit(ctx, "G1")->state, "unlimbered", 3);
	ck_assert_str_eq(event("artillery", "unit=G1 target=R1 range=10"),
			 "gun 'G1' unlimbered in turn 3 and cannot fire before turn 4 "
			 "(UL - unlimber (1 turn except for horse art.))\n");
}
END_TEST

START_TEST(artillery_unlimbered_last_turn)
{
	cast();
	orders("G1 Fb\n");
	ord_kv_set_int(&ord_ctx_find_unit(ctx, "G1")->state, "unlimbered", 2);
	ck_assert_str_eq(event("artillery", "unit=G1 target=R1 range=10"), "");
}
END_TEST

START_TEST(artillery_silenced)
{
	cast();
	orders("G1 Fb\n");
	split_kv(&ord_ctx_find_unit(ctx, "G1")->state, "hits=2 silenced=1");
	ck_assert_str_eq(event("artillery", "unit=G1 target=R1 range=10"),
			 "gun 'G1' is silenced (2 hits knock out artillery)\n");
}
END_TEST

/* "One unit of skirmishers may never cover more than one foot of ground.
 * 12\" They block the fire of units. EXAMPLE: The skirmishers absorb the
 * dark blue fire." (D21) */
START_TEST(fire_screened)
{
	cast();
	ck_assert_str_eq(event("fire", "unit=R2 target=B1 range=10 screen=S1 screen_front=14"),
			 "unit 'R2': 'S1' covers 14\" of ground: one unit of skirmishers covers at "
			 "most 12\" (one unit of skirmishers may never cover more than one foot of "
			 "ground)\n");
	assert_has(event("fire", "unit=R2 target=B1 range=2 screen=S1"), "screen_front=INCHES");
	assert_has(event("fire", "unit=R2 target=B1 range=2 screen=B2 screen_front=6"),
		   "'B2' is line_infantry in column, not skirmishers");
	assert_has(event("fire", "unit=B1 target=R2 range=2 screen=S1 screen_front=6"),
		   "a screen is the enemy's skirmishers");
}
END_TEST

/* "Artillery may fire over its own men if they are 6\" clear of them
 * (grape is exception)." (D22) */
/* "Skirmishers may fire as independent stands instead of a battalion" (D23) */
START_TEST(fire_skirmisher_stands)
{
	cast();
	ck_assert_str_eq(event("fire", "unit=S1 target=R1 range=3 firers=4"), "");
	ck_assert_str_eq(event("fire", "unit=S1 target=R2 range=6 firers=4"), "");
	assert_has(event("fire", "unit=S1 target=R2 range=6 firers=1"),
		   "the stands of 'S1' fire with 9 figures in all this turn, but it has 8");
	/* a battalion fires once */
	ck_assert_str_eq(event("fire", "unit=B1 target=R1 range=3"), "");
	assert_has(event("fire", "unit=B1 target=R2 range=3"), "unit 'B1' already fired this turn");
}
END_TEST

/* A stand's fire without firers= fires with all the unit's figures, so it
 * counts them among the stands' fire of the turn: two such fires are
 * refused, as two fires of 8 (stand_firers_checked; a game made before
 * counted the second 0 and fired the whole unit twice). */
START_TEST(fire_skirmisher_stands_default)
{
	cast();
	ck_assert_str_eq(event("fire", "unit=S1 target=R1 range=3"), "");
	assert_has(event("fire", "unit=S1 target=R1 range=3"),
		   "the stands of 'S1' fire with 16 figures in all this turn, but it has 8");
	tables_without("stand_firers_checked");
	cast();
	ck_assert_str_eq(event("fire", "unit=S1 target=R1 range=3"), "");
	ck_assert_str_eq(event("fire", "unit=S1 target=R1 range=3"), "");
}
END_TEST

/* D15: skirmishers with no figures left block nothing
 * (screen_figures_checked; a game made before gave them the fire, which
 * did nothing). */
START_TEST(fire_screen_destroyed)
{
	cast();
	ord_kv_set_int(&ord_ctx_find_unit(ctx, "S1")->state, "figures", 0);
	assert_has(event("fire", "unit=R2 target=B1 range=2 screen=S1 screen_front=6"),
		   "the skirmishers 'S1' have no figures left: they block nothing; recorded with "
		   "--override, the fire still goes to them and does nothing (record it without "
		   "screen=)");
	/* as said: overridden, B1 loses nothing */
	assert_has(resolve("fire", NULL, 0), "S1: fired on by R2 (musket, 2\")");
	ck_assert_int_eq(state("B1", "figures"), 24);
	tables_without("screen_figures_checked");
	cast();
	ord_kv_set_int(&ord_ctx_find_unit(ctx, "S1")->state, "figures", 0);
	ck_assert_str_eq(event("fire", "unit=R2 target=B1 range=2 screen=S1 screen_front=6"), "");
}
END_TEST

START_TEST(artillery_over_friends)
{
	cast();
	orders("G1 Fb\n");
	ck_assert_str_eq(event("artillery", "unit=G1 target=R1 range=20 over=B1 clearance=6"), "");
	assert_has(event("artillery", "unit=G1 target=R1 range=20 over=B1 clearance=4"),
		   "the shot passes 4\" clear of 'B1': at least 6\" is needed");
	assert_has(event("artillery", "unit=G1 target=R1 range=10 shot=grape over=B1 clearance=8"),
		   "gun 'G1' cannot fire grape over 'B1'");
	assert_has(event("artillery", "unit=G1 target=R1 range=20 over=B1"), "clearance=INCHES");
	assert_has(event("artillery", "unit=G1 target=R1 range=20 over=R2 clearance=8"),
		   "over names its own men, not 'R2'");
}
END_TEST

/* a and b locked in a melee since turn 2, going on */
static void locked(struct ord_ctx *c, const char *a, const char *b)
{
	char kv[64];

	snprintf(kv, sizeof(kv), "melee_with=%s melee_since=2", b);
	split_kv(&ord_ctx_find_unit(c, a)->state, kv);
	snprintf(kv, sizeof(kv), "melee_with=%s melee_since=2", a);
	split_kv(&ord_ctx_find_unit(c, b)->state, kv);
}

START_TEST(melee_checks)
{
	cast();
	locked(ctx, "B1", "R1");
	split_kv(&ord_ctx_find_unit(ctx, "RH")->state, "routed=2 rout_until=5");
	ck_assert_str_eq(event("melee", "a=B1 b=R1"), "");
	ck_assert_str_eq(event("melee", "a=R1 b=B1"),
			 "'R1' and 'B1' already fought this turn (event #1) (melee)\n");
	ck_assert_str_eq(event("melee", "a=B2 b=R1"),
			 "unit 'R1' is still in melee with 'B1' (melee)\n"
			 "'B2' and 'R1' made no melee contact this turn (no move with contact= "
			 "between them) and are in no melee from an earlier turn (those units in "
			 "melee)\n"
			 "'R1' fights in the melee of event #1 already this turn (B1 against R1): a unit "
			 "fights one melee a turn, its figures totalled against one die; a unit beside it "
			 "is a2= or b2= of that melee (when one tray of a battalion is meleed, the whole "
			 "thing is)\n");
	split_kv(&ord_ctx_find_unit(ctx, "H1")->state, "in_contact=3 contact_with=RH");
	/* D5: fought, RH with no value (resolve_routed_no_melee_value) */
	ck_assert_str_eq(event("melee", "a=H1 b=RH"), "");
	/* two routed units have nothing to fight with */
	split_kv(&ord_ctx_find_unit(ctx, "K1")->state,
		 "routed=2 rout_until=5 in_contact=3 contact_with=R2");
	split_kv(&ord_ctx_find_unit(ctx, "R2")->state, "routed=2 rout_until=5");
	ck_assert_str_eq(event("melee", "a=K1 b=R2"),
			 "unit 'K1' is routed (routed units have no melee value)\n"
			 "unit 'R2' is routed (routed units have no melee value)\n");
	/* (B2 fights in the refused event #3 the fixture keeps, said too) */
	assert_has(event_stored("melee", "a=B2 b=S1"), "'B2' and 'S1' are of the same side (melee)\n");
	/* refused as recorded, whatever the override (red team #7) */
	ck_assert_str_eq(refused("melee", "a=B2 b=S1"),
			 "'B2' and 'S1' are of the same side (blue): a melee is against the "
			 "enemy" NO_OVERRIDE);
	ck_assert_str_eq(refused("melee", "a=B2 b=B2"),
			 "'B2' cannot fight a melee with itself" NO_OVERRIDE);
}
END_TEST

/* No rule lets the referee excuse a unit from its morale test (D24): an
 * exempt is always refused, so it is recorded only with --override. */
START_TEST(exempt_needs_override)
{
	cast();
	split_kv(&ord_ctx_find_unit(ctx, "B1")->state, "fired_on=3 loss_turn=3 turn_losses=2");
	split_kv(&ord_ctx_find_unit(ctx, "R1")->state,
		 "fired_on=3 loss_turn=3 turn_losses=5 contact=3");
	ck_assert_str_eq(event("exempt", "unit=B1 reason=enfiladed"),
			 "unit 'B1' took 2 casualties this turn and must test: no rule exempts it "
			 "(all people who take casualties or lose in melees must check morale)\n");
	ck_assert_str_eq(event("exempt", "unit=B2 reason=lucky"),
			 "unit 'B2' took no casualties this turn: it has no test to be exempt from "
			 "(all people who take casualties or lose in melees must check morale)\n");
	ck_assert_str_eq(event("exempt", "unit=R1 reason=contact"),
			 "unit 'R1' made melee contact this turn: it tests after the melee without an "
			 "exempt (D3), which would cancel that test (since it made melee contact in "
			 "the same turn as it was fired on, it doesn't have to)\n");
}
END_TEST

/* The game's chart for every test (D19), and only the tests the rules call
 * for (D24): another is recorded only with --override. */
START_TEST(test_checks)
{
	cast();
	split_kv(&ord_ctx_find_unit(ctx, "B1")->state, "fired_on=3 loss_turn=3 turn_losses=2");
	split_kv(&ord_ctx_find_unit(ctx, "R1")->state,
		 "fired_on=3 loss_turn=3 turn_losses=5 contact=3");
	ck_assert_str_eq(event("test", "unit=B1"), "");
	ck_assert_str_eq(event("test", "unit=B1 chart=d6"),
			 "unit 'B1' already tests this turn (event #1) (morale)\n");
	ck_assert_str_eq(event("test", "unit=B2 chart=d20"),
			 "unit 'B2' tests on the d20 chart, but this game tests every unit on the d6 "
			 "(its tables' morale_chart) (a game uses one of the two morale systems (D19))\n"
			 "unit 'B2' took no casualties this turn: the rules call for no test "
			 "(all people who take casualties or lose in melees must check morale)\n");
	ck_assert_str_eq(event("test", "unit=R1"),
			 "unit 'R1' made melee contact this turn: it tests after the melee, not now "
			 "(D3) (since it made melee contact in the same turn as it was fired on, it "
			 "doesn't have to)\n");
}
END_TEST

/* "Those units in melee": units that made melee contact this turn, or
 * whose melee goes on (D25); the charge bonus against the unit charged. */
START_TEST(melee_needs_contact)
{
	cast();
	orders("R1 ↑ C\n");
	ck_assert_str_eq(event("move", "unit=R1 distance=10 charge=yes contact=B1"), "");
	resolve("movement", NULL, 0);
	ck_assert_str_eq(event("melee", "a=B2 b=R2"),
			 "'B2' and 'R2' made no melee contact this turn (no move with contact= "
			 "between them) and are in no melee from an earlier turn (those units in "
			 "melee)\n");
	/* a second unit beside a must touch an enemy of the event too (and
	 * the fixture keeps the refused event #2 of B2, so it fights there) */
	ck_assert_str_eq(event("melee", "a=B1 a2=B2 b=R1"),
			 "'B2' and 'R1' made no melee contact this turn (no move with contact= "
			 "between them) and are in no melee from an earlier turn (those units in "
			 "melee)\n"
			 "'B2' fights in the melee of event #2 already this turn (B2 against R2): a unit "
			 "fights one melee a turn, its figures totalled against one die; a unit beside it "
			 "is a2= or b2= of that melee (when one tray of a battalion is meleed, the whole "
			 "thing is)\n");
	/* either unit may have moved into the other */
	ck_assert_str_eq(event("melee", "a=B1 b=R1"),
			 "'B1' and 'R1' already fought this turn (event #3) (melee)\n");
	ck_assert_str_eq(event("melee", "a=R2 b=L1"),
			 "'R2' and 'L1' made no melee contact this turn (no move with contact= "
			 "between them) and are in no melee from an earlier turn (those units in "
			 "melee)\n"
			 "'R2' fights in the melee of event #2 already this turn (B2 against R2): a unit "
			 "fights one melee a turn, its figures totalled against one die; a unit beside it "
			 "is a2= or b2= of that melee (when one tray of a battalion is meleed, the whole "
			 "thing is)\n");
}
END_TEST

/* D25: a move's contact= is the mover's.  "Those units brought into
 * melee in the movement" are reached by the enemy's move: a unit whose
 * sheet orders no move, or that has none, stands and may be contacted,
 * not make contact (its fire morale test would wait for the melee, D3);
 * a routed or retreating unit that went 0" made none; nobody contacts a
 * destroyed unit.  The charger, and a unit ordered to move that was
 * blocked at once, make it at 0" (contact_move_checked). */
START_TEST(contact_by_the_mover)
{
	cast();
	orders("B1 FSq\nB2 @R1\nL1 ↑ 1/2\nH1 ↓ 1\n");
	orders("R1 ↑ C\nR2 ↑ 1/4\n");
	ck_assert_str_eq(event("move", "unit=B1 distance=0 contact=R1"),
			 "unit 'B1' is given contact with 'R1' on a move of 0\", but its sheet orders "
			 "it no move ('FSq'): a unit that stands may be contacted, not make contact "
			 "(expected a move arrow on its sheet, or contact=B1 on the move of the enemy "
			 "that came on) (orders may never be changed)\n");
	ck_assert_str_eq(event("move", "unit=B2 distance=0 contact=R2"),
			 "unit 'B2' is given contact with 'R2' on a move of 0\", but its sheet orders "
			 "it no move ('@R1'): a unit that stands may be contacted, not make contact "
			 "(expected a move arrow on its sheet, or contact=B2 on the move of the enemy "
			 "that came on) (orders may never be changed)\n");
	ck_assert_str_eq(event("move", "unit=S1 distance=0 contact=R2"),
			 "unit 'S1' is given contact with 'R2' on a move of 0\", but its sheet gives "
			 "it no order (it stands): a unit that stands may be contacted, not make "
			 "contact (expected a move arrow on its sheet, or contact=S1 on the move of the "
			 "enemy that came on) (orders may never be changed)\n");
	/* the charger, and a unit ordered to move that was blocked at once */
	ck_assert_str_eq(event("move", "unit=R1 distance=0 contact=B1"), "");
	ck_assert_str_eq(event("move", "unit=R2 distance=0 contact=B2"), "");
	ck_assert_str_eq(event("move", "unit=L1 distance=0 contact=R2"), "");
	/* a routed unit moves by the rules: 0" is no move into anybody */
	split_kv(&ord_ctx_find_unit(ctx, "K1")->state, "routed=2 rout_until=5");
	ck_assert_str_eq(event("move", "unit=K1 distance=0 contact=R2"),
			 "unit 'K1' is given contact with 'R2' on a move of 0\", but it is routed and "
			 "did not move: a unit makes melee contact by moving into it (record "
			 "contact=K1 on the move of the enemy that came on) (those units brought into "
			 "melee in the movement)\n");
	ord_kv_set_int(&ord_ctx_find_unit(ctx, "H1")->state, "retreat_turn", 3);
	ck_assert_str_eq(event("move", "unit=H1 distance=5 contact=RH"), "");
	/* nobody contacts a destroyed unit */
	ord_ctx_fake_free(ctx);
	ctx = ord_ctx_fake_new(rs, rules, 3);
	cast();
	ord_kv_set_int(&ord_ctx_find_unit(ctx, "R2")->state, "figures", 0);
	orders("B2 ↑ C\n");
	ck_assert_str_eq(event("move", "unit=B2 distance=6 contact=R2"),
			 "unit 'B2' is given contact with 'R2', which is destroyed (no figures left): "
			 "it fights no melee (units)\n");
}
END_TEST

/* Two units that stood fight no melee (D25): the contact refused on the
 * 0" move of either (and so not recorded), nothing makes them engaged. */
START_TEST(no_melee_of_two_that_stood)
{
	cast();
	orders("B1 FSq\nR1 @B1\n");
	ck_assert_str_ne(event("move", "unit=B1 distance=0 contact=R1"), "");
	ck_assert_str_ne(event("move", "unit=R1 distance=0 contact=B1"), "");
	/* refused: not recorded (the fixture keeps what it is given) */
	ck_assert_int_eq(ord_ctx_remove_event(ctx, 1), 1);
	ck_assert_int_eq(ord_ctx_remove_event(ctx, 2), 1);
	resolve("movement", NULL, 0);
	ck_assert_int_eq(state("B1", "in_contact"), 0);
	ck_assert_int_eq(state("R1", "contact"), 0);
	ck_assert_str_eq(event("melee", "a=R1 b=B1"),
			 "'R1' and 'B1' made no melee contact this turn (no move with contact= "
			 "between them) and are in no melee from an earlier turn (those units in "
			 "melee)\n");
}
END_TEST

START_TEST(contact_by_a_unit_that_stood_of_a_game_made_before)
{
	tables_without("contact_move_checked");
	cast();
	orders("B1 FSq\n");
	ck_assert_str_eq(event("move", "unit=B1 distance=0 contact=R1"), "");
	ck_assert_str_eq(event("move", "unit=S1 distance=0 contact=R2"), "");
}
END_TEST

/* D17: never more firers than figures, nor, in column, than its first
 * two ranks; never more figures in a melee than the unit has. */
START_TEST(fire_firers)
{
	cast();
	ck_assert_str_eq(event("fire", "unit=B1 target=R1 range=3 firers=1000"),
			 "unit 'B1' fires with 1000 figures but has 24 (it fires with 24 at most) "
			 "(units)\n");
	ck_assert_str_eq(event("fire", "unit=R1 target=B1 range=3 firers=12"),
			 "unit 'R1' is in column: its first two ranks, 8 figures, fire, not 12 "
			 "(only the first two ranks may fire)\n");
	ck_assert_str_eq(event("fire", "unit=R2 target=B2 range=3 firers=20"), "");
	/* overridden: B1 fires with what it has, R1 with the referee's count */
	assert_has(resolve("fire", NULL, 0),
		   "R1: fired on by B1 (musket, 3\"): 24 firers × 50% = 12, +6 target in column = 18\n"
		   "B1: fired on by R1 (musket, 3\"): 12 firers × 50% = 6\n");
	split_kv(&ord_ctx_find_unit(ctx, "H1")->state, "in_contact=3 contact_with=RH");
	ck_assert_str_eq(event("melee", "a=H1 b=RH a_figures=100 b_figures=8"),
			 "a_figures=100, but unit 'H1' has 8 figures: recorded with --override, it "
			 "fights with its 8 (melee)\n");
}
END_TEST

/* "When one tray of a battalion is meleed, the whole thing is, except for
 * skirmishers who vaporize by stands" (D23): fewer figures are refused but
 * for skirmishers, and taken in a game made before melee_whole_checked */
START_TEST(melee_whole_battalion)
{
	cast();
	locked(ctx, "B1", "R1");
	ck_assert_str_eq(event("melee", "a=B1 b=R1 a_figures=8"),
			 "a_figures=8 of the 24 figures of 'B1', which is in line: it fights whole; "
			 "only skirmishers fight with the stands in contact (when one tray of a "
			 "battalion is meleed, the whole thing is, except for skirmishers who vaporize "
			 "by stands)\n");
	locked(ctx, "S1", "R2");
	ck_assert_str_eq(event("melee", "a=S1 b=R2 a_figures=4"), "");
	tables_without("melee_whole_checked");
	cast();
	locked(ctx, "B1", "R1");
	ck_assert_str_eq(event("melee", "a=B1 b=R1 a_figures=8"), "");
}
END_TEST

/* D1: "Should new men arrive on his side, his die roll would be +1": in a
 * melee that goes on, on the referee's word; nobody is new in one that
 * begins */
START_TEST(melee_fresh)
{
	static const int dice[] = { 3, 5, 3, 5 };
	unit("A", "red", "kind=line_infantry formation=line figures=32", "melee_with=B melee_since=2");
	unit("B", "blue", "kind=line_infantry formation=line figures=24", "melee_with=A melee_since=2");
	unit("C", "red", "kind=line_infantry formation=line figures=24", NULL);
	unit("D", "blue", "kind=line_infantry formation=line figures=24", NULL);
	orders("C ↑ 1/4\n"); /* into D, whom it touches: blocked at once (D25) */
	ck_assert_str_eq(event("move", "unit=C distance=0 contact=D"), "");
	resolve("movement", NULL, 0);
	ck_assert_str_eq(event("melee", "a=C b=D b_fresh=yes"),
			 "b_fresh=yes: new men arrive in a melee that goes on, and 'C' and 'D' begin "
			 "theirs this turn (should new men arrive on his side, his die roll would be "
			 "+1)\n");
	ck_assert_str_eq(event("melee", "a=A b=B a_fresh=yes"), "");
	assert_has(resolve("melee", dice, 4),
		   "B: melee with A: A's 32 line_infantry × 3 = 96 pts × (d6 3, +1 new people in "
		   "melee = 4) = 384;");
	/* the new melee: no adjustment, as in the worked example */
	assert_has(ord_ctx_fake_results(ctx), "D: melee with C: C's 24 line_infantry × 3 = 72 pts × "
					      "(d6 3) = 216; D's 24 line_infantry × 3 = 72 pts × "
					      "(d6 5, +1 new people in melee = 6) = 432;");
}
END_TEST

/* D1 with D20: the new men are the unit that arrives beside a (a2_fresh),
 * +1 on its own die, as `orderly calc` gives it; a2_fresh needs an a2 and
 * a melee that goes on */
START_TEST(melee_fresh_arrives)
{
	static const int dice[] = { 3, 3 };
	unit("A", "red", "kind=line_infantry formation=line figures=32", "melee_with=B melee_since=2");
	unit("B", "blue", "kind=line_infantry formation=line figures=24", "melee_with=A melee_since=2");
	unit("A2", "red", "kind=line_infantry formation=line figures=24", NULL);
	orders("A2 ↑ 1/2\n");
	ck_assert_str_eq(event("move", "unit=A2 distance=3 contact=B"), "");
	resolve("movement", NULL, 0);
	ck_assert_str_eq(event("melee", "a=A b=B a2=A2 a2_fresh=yes"), "");
	assert_has(resolve("melee", dice, 2),
		   "A2's 24 line_infantry × 3 = 72 pts × (d6 3, +1 in motion, +1 new people in melee "
		   "= 5) = 360");
	/* (the fixture keeps the event above: "already fought" is said too) */
	assert_has(event("melee", "a=A b=B a2_fresh=yes"),
		   "unit 'A': a2_fresh=yes names no unit: give the unit that arrives as a2= "
		   "(should new men arrive on his side, his die roll would be +1)\n");
}
END_TEST

START_TEST(halt_check)
{
	cast();
	ck_assert_str_eq(refused("halt", "unit=B1"),
			 "unit 'B1' is line_infantry: only cavalry pursues, or halts from it" NO_OVERRIDE);
	ck_assert_str_eq(event_stored("halt", "unit=B1"),
			 "only cavalry pursues; 'B1' is line_infantry (pursuit)\n");
	ck_assert_str_eq(event("halt", "unit=H1"), "");
}
END_TEST

/* ============================================================ resolution */

static const char *resolve(const char *phase, const int *dice, size_t n)
{
	int rc;

	ord_ctx_fake_set_dice(ctx, dice, n);
	rc = rs->resolve_phase(ctx, phase);
	ck_assert_msg(rc == 0, "%s: %s", phase, ord_error_last());
	return ord_ctx_fake_results(ctx);
}

START_TEST(resolve_fire_example)
{
	/* the rules' example: a line fires at a column that charged it */
	cast();
	orders("R1 ↑ C\n");
	ck_assert_str_eq(event("move", "unit=R1 distance=10 charge=yes contact=B1"), "");
	resolve("movement", NULL, 0);
	ck_assert_str_eq(event("fire", "unit=B1 target=R1 range=2"), "");
	assert_has(resolve("fire", NULL, 0),
		   "R1: fired on by B1 (musket, 2\"): 24 firers × 50% = 12, +6 target in column, "
		   "−3 target moved = 15\n"
		   "R1: loses 15 figures to fire: 17 left; in all 15 lost, 3 trays removed, 3 carried\n");
	ck_assert_int_eq(state("R1", "figures"), 17);
	ck_assert_int_eq(state("R1", "trays"), 3);
	ck_assert_int_eq(state("R1", "carried"), 3);
	/* it made contact: no test now, it tests after the melee */
	assert_has(resolve("fire-morale", NULL, 0),
		   "R1: no fire morale test now: it made melee contact this turn and tests after the melee\n");
}
END_TEST

/* A game made before (tables without destroyed_untested): a charger fire
 * destroyed is told its test waits for the melee, as then (the words of
 * now: destroyed-by-fire.case) */
START_TEST(resolve_destroyed_by_fire_of_a_game_made_before)
{
	tables_without("destroyed_untested");
	cast();
	ord_kv_set_int(&ord_ctx_find_unit(ctx, "R1")->state, "figures", 2);
	orders("R1 ↑ C\n");
	ck_assert_str_eq(event("move", "unit=R1 distance=10 charge=yes contact=B1"), "");
	resolve("movement", NULL, 0);
	ck_assert_str_eq(event("fire", "unit=B1 target=R1 range=2"), "");
	resolve("fire", NULL, 0);
	ck_assert_int_eq(state("R1", "figures"), 0);
	assert_has(resolve("fire-morale", NULL, 0),
		   "R1: no fire morale test now: it made melee contact this turn and tests after the melee\n");
	ck_assert_ptr_null(strstr(ord_ctx_fake_results(ctx), "destroyed (no figures left)"));
}
END_TEST

/* D3: "since it made melee contact in the same turn as it was fired on, it
 * doesn't have to": the charger; the line it struck tests as any unit */
START_TEST(resolve_charged_unit_tests)
{
	static const int dice[] = { 6 };
	cast();
	orders("R1 ↑ C\n");
	ck_assert_str_eq(event("move", "unit=R1 distance=10 charge=yes contact=B1"), "");
	resolve("movement", NULL, 0);
	ck_assert_str_eq(event("fire", "unit=B1 target=R1 range=2"), "");
	ck_assert_str_eq(event("fire", "unit=R2 target=B1 range=2"), "");
	resolve("fire", NULL, 0);
	ck_assert_int_eq(state("B1", "figures"), 12);
	assert_has(resolve("fire-morale", dice, 1),
		   "B1: fire morale: d6 6, +2 always, −12 figures lost this turn (12 × −1), +2 good "
		   "morale (never failed) = −2: retreat\n"
		   "R1: no fire morale test now: it made melee contact this turn and tests after the "
		   "melee\n");
}
END_TEST

START_TEST(resolve_melee_example)
{
	/* the rules' example in a continuing melee, so that no die adjustment applies */
	static const int dice[] = { 3, 5 };
	unit("A", "red", "kind=line_infantry formation=line figures=32", "melee_with=B melee_since=2");
	unit("B", "blue", "kind=line_infantry formation=line figures=24", "melee_with=A melee_since=2");
	ck_assert_str_eq(event("melee", "a=A b=B"), "");
	/* the melee once, on b= (both sides see it), its units by name, then
	 * each unit's loss as the fire phase gives it */
	assert_has(resolve("melee", dice, 2),
		   "B: melee with A: A's 32 line_infantry × 3 = 96 pts × (d6 3) = 288; "
		   "B's 24 line_infantry × 3 = 72 pts × (d6 5) = 360; B wins; "
		   "B inflicts 72/6 = 12 pts / 3 = 4 figures on A; "
		   "A inflicts 96/12 = 8 pts / 3 = 2.67 → 3 figures on B\n"
		   "A: loses 4 figures to melee: 28 left; in all 4 lost, 1 tray removed, 0 carried\n"
		   "B: loses 3 figures to melee: 21 left; in all 3 lost, 0 trays removed, 3 carried\n");
	ck_assert_ptr_null(strstr(ord_ctx_fake_results(ctx), "A: melee with B"));
	ck_assert_int_eq(state("A", "figures"), 28);
	ck_assert_int_eq(state("B", "figures"), 21);
	ck_assert_int_eq(state("A", "lost_melee"), 3);
	ck_assert_int_eq(state("B", "lost_melee"), 0);
}
END_TEST

/* "Skirmishers, artillery 1 pt. each; Light infantry 2 pts. each;
 * Infantry 3 pts. each", read for the troops in skirmish order
 * (melee_points_by_formation, formations' melee_points_as): a battalion in
 * skirmish order fights with 1 pt a figure, and the points it loses
 * become figures at 1 a figure; light infantry too, miscellaneous order
 * not.  A game made before counts each kind's own. */
START_TEST(resolve_melee_skirmish_order)
{
	static const int dice[] = { 3, 5, 4, 4 };
	unit("A", "red", "kind=line_infantry formation=line figures=24", "melee_with=B melee_since=2");
	unit("B", "blue", "kind=line_infantry formation=skirmish figures=24",
	     "melee_with=A melee_since=2");
	unit("C", "red", "kind=light_infantry formation=skirmish figures=24",
	     "melee_with=D melee_since=2");
	unit("D", "blue", "kind=light_infantry formation=misc figures=24",
	     "melee_with=C melee_since=2");
	ck_assert_str_eq(event("melee", "a=A b=B"), "");
	ck_assert_str_eq(event("melee", "a=C b=D"), "");
	assert_has(resolve("melee", dice, 4),
		   "B: melee with A: A's 24 line_infantry × 3 = 72 pts × (d6 3) = 216; "
		   "B's 24 line_infantry in skirmish order × 1 (as skirmishers) = 24 pts × (d6 5) "
		   "= 120; A wins; A inflicts 72/6 = 12 pts / 1 = 12 figures on B; "
		   "B inflicts 24/12 = 2 pts / 3 = 0.67 → 1 figure on A\n");
	assert_has(ord_ctx_fake_results(ctx),
		   "D: melee with C: C's 24 light_infantry in skirmish order × 1 (as skirmishers) = "
		   "24 pts × (d6 4) = 96; D's 24 light_infantry × 2 = 48 pts × (d6 4) = 192; D wins; "
		   "D inflicts 48/6 = 8 pts / 1 = 8 figures on C; C inflicts 24/12 = 2 pts / 2 = 1 "
		   "figure on D\n");
	ck_assert_int_eq(state("B", "figures"), 12);
	ck_assert_int_eq(state("A", "figures"), 23);
	ck_assert_int_eq(state("C", "figures"), 16);
	ck_assert_int_eq(state("D", "figures"), 23);
	ck_assert_int_eq(state("B", "lost_melee"), 3);
}
END_TEST

START_TEST(resolve_melee_skirmish_order_of_a_game_made_before)
{
	static const int dice[] = { 3, 5 };
	tables_without("melee_points_by_formation");
	unit("A", "red", "kind=line_infantry formation=line figures=24", "melee_with=B melee_since=2");
	unit("B", "blue", "kind=line_infantry formation=skirmish figures=24",
	     "melee_with=A melee_since=2");
	ck_assert_str_eq(event("melee", "a=A b=B"), "");
	assert_has(resolve("melee", dice, 2),
		   "B: melee with A: A's 24 line_infantry × 3 = 72 pts × (d6 3) = 216; "
		   "B's 24 line_infantry × 3 = 72 pts × (d6 5) = 360; B wins;");
	ck_assert_int_eq(state("A", "figures"), 20);
	ck_assert_int_eq(state("B", "figures"), 22);
}
END_TEST

START_TEST(resolve_melee_ended)
{
	unit("A", "red", "kind=line_infantry formation=line figures=32", "melee_with=B melee_since=2");
	unit("B", "blue", "kind=line_infantry formation=line figures=24", "melee_with=A melee_since=2");
	assert_has(resolve("melee", NULL, 0),
		   "A: the melee with B from turn 2 has ended (no melee recorded this turn)\n");
	ck_assert_str_eq(state_str("A", "melee_with"), "");
	ck_assert_str_eq(state_str("B", "melee_with"), "");
}
END_TEST

/* D2, D14: a melee that goes on and has no melee event this turn is named
 * in the referee's list of what is still to record, before the melee
 * phase ends it: once for the pair, and not a melee fought again, one
 * begun this turn, nor a destroyed unit's */
START_TEST(execution_names_a_melee_that_goes_on)
{
	unit("A", "red", "kind=line_infantry formation=line figures=32", "melee_with=B melee_since=2");
	unit("B", "blue", "kind=line_infantry formation=line figures=24", "melee_with=A melee_since=2");
	unit("C", "red", "kind=line_infantry formation=line figures=24", "melee_with=D melee_since=1");
	unit("D", "blue", "kind=line_infantry formation=line figures=24", "melee_with=C melee_since=1");
	unit("E", "red", "kind=line_infantry formation=line figures=0", "melee_with=F melee_since=2");
	unit("F", "blue", "kind=line_infantry formation=line figures=24", "melee_with=E melee_since=2");
	/* this turn's melee is no melee that goes on */
	unit("G", "red", "kind=line_infantry formation=line figures=24", "melee_with=H melee_since=3");
	unit("H", "blue", "kind=line_infantry formation=line figures=24", "melee_with=G melee_since=3");
	ck_assert_str_eq(execution(),
			 "unit 'A': in the melee with 'B' since turn 2, which continues, but no melee "
			 "between them is recorded this turn: resolving the melee phase without one "
			 "ends it (D14) (melee)\n"
			 "unit 'C': in the melee with 'D' since turn 1, which continues, but no melee "
			 "between them is recorded this turn: resolving the melee phase without one "
			 "ends it (D14) (melee)\n");
	ck_assert_str_eq(event("melee", "a=B b=A"), "");
	ck_assert_str_eq(execution(),
			 "unit 'C': in the melee with 'D' since turn 1, which continues, but no melee "
			 "between them is recorded this turn: resolving the melee phase without one "
			 "ends it (D14) (melee)\n");
	ck_assert_str_eq(event("melee", "a=C b=D"), "");
	ck_assert_str_eq(execution(), "");
}
END_TEST

/* D15: a unit the melee destroys is out of it; its enemy is free */
START_TEST(resolve_destroyed_in_melee)
{
	static const int dice[] = { 1, 6 };
	unit("A", "red", "kind=line_infantry formation=line figures=2", "melee_with=B melee_since=2");
	unit("B", "blue", "kind=line_infantry formation=line figures=24", "melee_with=A melee_since=2");
	ck_assert_str_eq(event("melee", "a=A b=B"), "");
	assert_has(resolve("melee", dice, 2), "A: destroyed: its melee with B ends\n"
					      "B: its enemy A is destroyed: out of the melee\n");
	ck_assert_int_eq(state("A", "figures"), 0);
	ck_assert_str_eq(state_str("A", "melee_with"), "");
	ck_assert_str_eq(state_str("B", "melee_with"), "");
	/* nobody is left to test, and nothing goes on */
	ck_assert_ptr_null(strstr(resolve("melee-morale", NULL, 0), "continues next turn"));
	assert_has(ord_ctx_fake_results(ctx), "A: no melee morale test: destroyed (no figures left)\n");
}
END_TEST

/* "Only the loser checks morale. If he survives, the melee will
 * continue": a tie has no loser, nobody tests and the melee goes on (D2) */
START_TEST(resolve_tie)
{
	static const int melee_dice[] = { 4, 4 };
	unit("A", "red", "kind=line_infantry formation=line figures=24", "melee_with=B melee_since=2");
	unit("B", "blue", "kind=line_infantry formation=line figures=24", "melee_with=A melee_since=2");
	event("melee", "a=A b=B");
	assert_has(resolve("melee", melee_dice, 2), "a tie, no winner");
	ck_assert_int_eq(state("A", "figures"), 22);
	ck_assert_int_eq(state("B", "figures"), 22);
	/* no die is rolled: the fake context has none to give */
	assert_has(resolve("melee-morale", NULL, 0),
		   "A: a tie with B: no loser, no melee morale test; the melee continues next turn\n"
		   "B: a tie with A: no loser, no melee morale test; the melee continues next turn\n");
	ck_assert_ptr_null(strstr(ord_ctx_fake_results(ctx), "melee morale:"));
	ck_assert_str_eq(state_str("A", "melee_with"), "B");
	ck_assert_str_eq(state_str("B", "melee_with"), "A");
	ck_assert_int_eq(state("A", "failed"), 0);
}
END_TEST

/* D3: a unit whose fire test waited for the melee, tied, still takes it
 * (it took casualties and did not win) */
START_TEST(resolve_tie_deferred_test)
{
	static const int melee_dice[] = { 4, 4 }, morale_dice[] = { 6 };
	unit("A", "red", "kind=line_infantry formation=line figures=24",
	     "melee_with=B melee_since=2 deferred=3 loss_turn=3 turn_losses=1");
	unit("B", "blue", "kind=line_infantry formation=line figures=24", "melee_with=A melee_since=2");
	event("melee", "a=A b=B");
	resolve("melee", melee_dice, 2);
	resolve("melee-morale", morale_dice, 1);
	assert_has(ord_ctx_fake_results(ctx), "A: melee morale: d6 6, +2 always, −3 figures lost "
					      "this turn (3 × −1), +2 good morale (never failed) = 7: "
					      "good\n");
	assert_has(ord_ctx_fake_results(ctx),
		   "B: a tie with A: no loser, no melee morale test; the melee continues next turn\n");
}
END_TEST

/* A game made before (tables without melee_tie_untested): both sides of a
 * tie test, without the -2, as then */
START_TEST(resolve_tie_of_a_game_made_before)
{
	static const int melee_dice[] = { 4, 4 }, morale_dice[] = { 6, 6 };
	tables_without("melee_tie_untested");
	unit("A", "red", "kind=line_infantry formation=line figures=24", "melee_with=B melee_since=2");
	unit("B", "blue", "kind=line_infantry formation=line figures=24", "melee_with=A melee_since=2");
	event("melee", "a=A b=B");
	assert_has(resolve("melee", melee_dice, 2), "a tie, no winner");
	ck_assert_int_eq(state("A", "figures"), 22);
	ck_assert_int_eq(state("B", "figures"), 22);
	assert_has(resolve("melee-morale", morale_dice, 2),
		   "A: melee morale: d6 6, +2 always, −2 figures lost this turn (2 × −1), "
		   "+2 good morale (never failed) = 8: good\n");
	assert_has(ord_ctx_fake_results(ctx), "A: holds: the melee with B continues next turn\n");
	assert_has(ord_ctx_fake_results(ctx), "B: holds: the melee with A continues next turn\n");
}
END_TEST

/* The pursuit of a battalion that retreated, in a game made before
 * pursued_retreat_has_value: it had no melee value, as a routed one */
START_TEST(resolve_pursuit)
{
	/* hussars break a battalion in a continuing melee and pursue it */
	static const int melee_dice[] = { 6, 1 }, morale_dice[] = { 1, 2, 3 };
	tables_without("pursued_retreat_has_value");
	unit("H", "red", "kind=light_cavalry formation=line figures=8", "melee_with=I melee_since=2");
	unit("I", "blue", "kind=line_infantry formation=line figures=12", "melee_with=H melee_since=2");
	event("melee", "a=H b=I");
	/* H: 40 pts × 6 = 240; I: 36 × 1 = 36; H inflicts 40/6 = 6.67 pts / 3 = 2.22 → 2;
	 * I inflicts 36/12 = 3 pts / 5 = 0.6 → 1 */
	resolve("melee", melee_dice, 2);
	ck_assert_int_eq(state("I", "figures"), 10);
	ck_assert_int_eq(state("H", "figures"), 7);
	/* I: d6 1 + 2 - 2 + 2 - 2 = 1 ... good; so give it a worse test */
	ck_assert_int_eq(state("I", "lost_melee"), 3);
	ord_kv_set_int(&ord_ctx_find_unit(ctx, "I")->state, "failed", 1);
	/* I: d6 1, +2, -2 lost, -3 failed before, -2 lost melee = -4: retreat;
	 * pursuit: H 7 × 5 = 35 pts × (d6 2, +1 in motion = 3) = 105;
	 * I, broken, has no melee value (D5): 0; H inflicts 35/6 = 5.83 × 3/2 =
	 * 8.75 pts / 3 = 2.92 → 3; I inflicts 0/12 = 0 */
	resolve("melee-morale", morale_dice, 3);
	assert_has(ord_ctx_fake_results(ctx), "I: melee morale: d6 1, +2 always, −2 figures lost "
					      "this turn (2 × −1), −3 failed morale before, −2 just "
					      "lost a melee = −4: retreat\n");
	assert_has(ord_ctx_fake_results(ctx), "I: breaks off the melee with H\n");
	assert_has(ord_ctx_fake_results(ctx), "I: pursued by H: H's 7 light_cavalry × 5 = 35 pts × "
					      "(d6 2, +1 in motion = 3) = 105");
	assert_has(ord_ctx_fake_results(ctx), "I: loses 3 figures to the pursuit: 7 left;");
	assert_has(ord_ctx_fake_results(ctx), "I's 10 line_infantry, broken: no melee value, 0 pts "
					      "× (d6 3) = 0; H wins;");
	assert_has(ord_ctx_fake_results(ctx), "I inflicts 0/12 = 0 pts / 5 = 0 figures on H");
	ck_assert_ptr_null(strstr(ord_ctx_fake_results(ctx), "H: loses 1 figure to the pursuit"));
	ck_assert_int_eq(state("I", "figures"), 7);
	ck_assert_int_eq(state("H", "figures"), 7);
	ck_assert_int_eq(state("I", "retreat_turn"), 4);
	ck_assert_str_eq(state_str("H", "melee_with"), "");
}
END_TEST

/* "Routed units ... have no melee value": a battalion that retreated, not
 * routed, fights the pursuit with its value (pursued_retreat_has_value) */
/* Hussars H break the battalion I, which failed before, in a continuing
 * melee (d6 6 against 1), and pursue it: I's test d6 1 gives -4, a
 * retreat; the pursuit's dice 2 and 3.  without: a switch of the tables
 * left out (a game made before), or NULL. */
static void hussars_pursue(const char *without)
{
	static const int melee_dice[] = { 6, 1 }, morale_dice[] = { 1, 2, 3 };

	if (without)
		tables_without(without);
	unit("H", "red", "kind=light_cavalry formation=line figures=8", "melee_with=I melee_since=2");
	unit("I", "blue", "kind=line_infantry formation=line figures=12", "melee_with=H melee_since=2");
	event("melee", "a=H b=I");
	resolve("melee", melee_dice, 2);
	ord_kv_set_int(&ord_ctx_find_unit(ctx, "I")->state, "failed", 1);
	resolve("melee-morale", morale_dice, 3);
}

START_TEST(resolve_pursuit_after_retreat)
{
	/* I: -4, a retreat; pursuit: H 35 pts × 3 = 105; I 10 × 3 = 30 pts ×
	 * (d6 3) = 90; H inflicts 35/6 = 5.83 × 3/2 = 8.75 pts / 3 = 2.92 → 3;
	 * I inflicts 30/12 = 2.5 pts / 5 = 0.5 */
	hussars_pursue(NULL);
	assert_has(ord_ctx_fake_results(ctx), "= −4: retreat\n");
	assert_has(ord_ctx_fake_results(ctx),
		   "I: pursued by H: H's 7 light_cavalry × 5 = 35 pts × (d6 2, +1 in motion = 3) = "
		   "105; I's 10 line_infantry × 3 = 30 pts × (d6 3) = 90; H wins; H inflicts 35/6 = "
		   "5.83, ×1.5 pursuit (50% more) = 8.75 pts / 3 = 2.92 → 3 figures on I; I inflicts "
		   "30/12 = 2.5 pts / 5 = 0.5");
	ck_assert_ptr_null(strstr(ord_ctx_fake_results(ctx), "no melee value"));
	ck_assert_int_eq(state("I", "figures"), 7);
}
END_TEST

/* A game made before (tables without routed_no_melee_value): the pursued
 * infantry fights back with its figures, as then */
START_TEST(resolve_pursuit_of_a_game_made_before)
{
	/* hussars break a battalion in a continuing melee and pursue it */
	static const int melee_dice[] = { 6, 1 }, morale_dice[] = { 1, 2, 3 };
	tables_without("routed_no_melee_value");
	unit("H", "red", "kind=light_cavalry formation=line figures=8", "melee_with=I melee_since=2");
	unit("I", "blue", "kind=line_infantry formation=line figures=12", "melee_with=H melee_since=2");
	event("melee", "a=H b=I");
	/* H: 40 pts × 6 = 240; I: 36 × 1 = 36; H inflicts 40/6 = 6.67 pts / 3 = 2.22 → 2;
	 * I inflicts 36/12 = 3 pts / 5 = 0.6 → 1 */
	resolve("melee", melee_dice, 2);
	ck_assert_int_eq(state("I", "figures"), 10);
	ck_assert_int_eq(state("H", "figures"), 7);
	/* I: d6 1 + 2 - 2 + 2 - 2 = 1 ... good; so give it a worse test */
	ck_assert_int_eq(state("I", "lost_melee"), 3);
	ord_kv_set_int(&ord_ctx_find_unit(ctx, "I")->state, "failed", 1);
	/* I: d6 1, +2, -2 lost, -3 failed before, -2 lost melee = -4: retreat;
	 * pursuit: H 7 × 5 = 35 pts × (d6 2, +1 in motion = 3) = 105;
	 * I 10 × 3 = 30 × 3 = 90; H inflicts 35/6 = 5.83 × 3/2 = 8.75 pts / 3 = 2.92 → 3;
	 * I inflicts 30/12 = 2.5 pts / 5 = 0.5 → 1 */
	resolve("melee-morale", morale_dice, 3);
	assert_has(ord_ctx_fake_results(ctx), "I: melee morale: d6 1, +2 always, −2 figures lost "
					      "this turn (2 × −1), −3 failed morale before, −2 just "
					      "lost a melee = −4: retreat\n");
	assert_has(ord_ctx_fake_results(ctx), "I: breaks off the melee with H\n");
	assert_has(ord_ctx_fake_results(ctx), "I: pursued by H: H's 7 light_cavalry × 5 = 35 pts × "
					      "(d6 2, +1 in motion = 3) = 105");
	assert_has(ord_ctx_fake_results(ctx), "I: loses 3 figures to the pursuit: 7 left;");
	assert_has(ord_ctx_fake_results(ctx), "H: loses 1 figure to the pursuit: 6 left;");
	ck_assert_int_eq(state("I", "figures"), 7);
	ck_assert_int_eq(state("H", "figures"), 6);
	ck_assert_int_eq(state("I", "retreat_turn"), 4);
	ck_assert_str_eq(state_str("H", "melee_with"), "");
}
END_TEST

/* D5: "Routed units can't fire and have no melee value": the melee is
 * fought, the routed side counts 0 points, the enemy wins and takes
 * nothing; the routed unit lost, and tests (its rout's dressing of ranks
 * kept when it retreats as well) */
START_TEST(resolve_routed_no_melee_value)
{
	static const int melee_dice[] = { 1, 6 }, morale_dice[] = { 6 };
	unit("B", "blue", "kind=line_infantry formation=line figures=24", "melee_with=R melee_since=2");
	unit("R", "red", "kind=line_infantry formation=line figures=24",
	     "melee_with=B melee_since=2 failed=1 routed=2 rout_until=5 penalty_until=7 "
	     "dress_until=6");
	ck_assert_str_eq(event("melee", "a=B b=R"), "");
	assert_has(resolve("melee", melee_dice, 2),
		   "R: melee with B: B's 24 line_infantry × 3 = 72 pts × (d6 1) = 72; R's 24 "
		   "line_infantry, broken: no melee value, 0 pts × (d6 6) = 0; B wins; B inflicts "
		   "72/6 = 12 pts / 3 = 4 figures on R; R inflicts 0/12 = 0 pts / 3 = 0 figures on B\n");
	ck_assert_int_eq(state("R", "figures"), 20);
	ck_assert_int_eq(state("B", "figures"), 24);
	ck_assert_int_eq(state("R", "lost_melee"), 3);
	ck_assert_int_eq(state("B", "lost_melee"), 0);
	/* only the loser tests: R, d6 6 + 2 - 4 - 3 failed - 3 routed - 2 = -4 */
	resolve("melee-morale", morale_dice, 1);
	assert_has(ord_ctx_fake_results(ctx), "R: melee morale: d6 6,");
	assert_has(ord_ctx_fake_results(ctx), ": retreat\n");
	ck_assert_ptr_null(strstr(ord_ctx_fake_results(ctx), "B: melee morale"));
	ck_assert_int_eq(state("R", "dress_until"), 6);
}
END_TEST

/* A game made before (tables without routed_no_melee_value) refuses the
 * melee, as then */
START_TEST(melee_routed_of_a_game_made_before)
{
	tables_without("routed_no_melee_value");
	cast();
	split_kv(&ord_ctx_find_unit(ctx, "RH")->state, "routed=2 rout_until=5");
	split_kv(&ord_ctx_find_unit(ctx, "H1")->state, "in_contact=3 contact_with=RH");
	ck_assert_str_eq(event("melee", "a=H1 b=RH"),
			 "unit 'RH' is routed (routed units have no melee value)\n");
}
END_TEST

START_TEST(resolve_halt)
{
	static const int melee_dice[] = { 6, 1 }, morale_dice[] = { 1 };
	unit("H", "red", "kind=light_cavalry formation=line figures=8", "melee_with=I melee_since=2");
	unit("I", "blue", "kind=line_infantry formation=line figures=12 quality=militia",
	     "melee_with=H melee_since=2");
	event("melee", "a=H b=I");
	resolve("melee", melee_dice, 2);
	event("halt", "unit=H");
	/* militia: d6 1 + 2 - 4 - 2 + 2 - 2 = -3: retreat, and no pursuit */
	assert_has(resolve("melee-morale", morale_dice, 1), "H: does not pursue I\n");
	ck_assert_int_eq(state("I", "figures"), 10);
}
END_TEST

START_TEST(resolve_rout_penalty)
{
	static const int dice[] = { 6, 6 };
	/* routed in turn 1: -3 on tests in turns 2..6 (not in turn 1 itself) */
	unit("A", "red", "kind=line_infantry formation=line figures=24",
	     "routed=1 rout_until=4 penalty_until=6 failed=1 fired_on=3 loss_turn=3 turn_losses=1");
	unit("B", "blue", "kind=line_infantry formation=line figures=24",
	     "routed=3 rout_until=6 penalty_until=8 failed=1 fired_on=3 loss_turn=3 turn_losses=1");
	assert_has(resolve("fire-morale", dice, 2),
		   "A: fire morale: d6 6, +2 always, −1 figures lost this turn (1 × −1), −3 failed "
		   "morale before, −3 routed recently = 1: good\n"
		   "B: fire morale: d6 6, +2 always, −1 figures lost this turn (1 × −1), −3 failed "
		   "morale before = 4: good\n");
}
END_TEST

START_TEST(resolve_morale20)
{
	static const int dice[] = { 18, 15, 14 };
	unit("A", "red", "kind=line_infantry formation=line figures=24 class=B", NULL);
	unit("B", "red", "kind=line_infantry formation=line figures=24 class=B", NULL);
	unit("C", "red", "kind=line_infantry formation=line figures=24 class=B", NULL);
	event("test", "unit=A chart=d20");
	event("test", "unit=B chart=d20");
	event("test", "unit=C chart=d20");
	assert_has(resolve("fire-morale", dice, 3),
		   "A: fire morale (d20 chart): class B, d20 18: rout, drops to class C\n"
		   "B: fire morale (d20 chart): class B, d20 15: retreat\n"
		   "C: fire morale (d20 chart): class B, d20 14: good\n");
	ck_assert_str_eq(state_str("A", "class"), "C");
	ck_assert_int_eq(state("A", "routed"), 3);
	ck_assert_int_eq(state("A", "rout_until"), 6);
	ck_assert_int_eq(state("A", "dress_until"), 7);
	/* a retreat keeps the class: the next turn back, then a turn dressing ranks */
	ck_assert_str_eq(state_str("B", "class"), "B");
	ck_assert_int_eq(state("B", "retreat_turn"), 4);
	ck_assert_int_eq(state("B", "dress_until"), 5);
	ck_assert_int_eq(state("B", "failed"), 1);
	ck_assert_str_eq(state_str("C", "class"), "B");
	ck_assert_int_eq(state("C", "failed"), 0);
}
END_TEST

static void tables_with(struct ord_buf *doc, const char *param, const char *value);

/* "OPTIONAL MORALE SHEET for 20-sided die" and "All people who take
 * casualties or lose in melees must check morale": a game that uses the
 * sheet (its tables' morale_chart) tests its melee losers on it too (D19). */
START_TEST(resolve_melee_morale_d20)
{
	static const int melee_dice[] = { 3, 5 }, morale_dice[] = { 16 };
	struct ord_buf doc = ORD_BUF_INIT;

	ord_ctx_fake_free(ctx);
	rs->free(rules);
	tables_with(&doc, "morale_chart", "1");
	ck_assert_msg(rs->load(&rules, doc.buf, doc.len, "club.xml") == 0, "%s", ord_error_last());
	ord_buf_release(&doc);
	ctx = ord_ctx_fake_new(rs, rules, 3);
	unit("A", "red", "kind=line_infantry formation=line figures=32 class=C",
	     "melee_with=B melee_since=2");
	unit("B", "blue", "kind=line_infantry formation=line figures=24 class=B",
	     "melee_with=A melee_since=2");
	ck_assert_str_eq(event("melee", "a=A b=B"), "");
	resolve("melee", melee_dice, 2);
	/* A lost: class C, d20 16 is in its retreat band 13-17 (on the d6
	 * rules a 16 is no face at all) */
	assert_has(resolve("melee-morale", morale_dice, 1),
		   "A: melee morale (d20 chart): class C, d20 16: retreat\n");
	ck_assert_int_eq(state("A", "retreat_turn"), 4);
	ck_assert_str_eq(state_str("A", "melee_with"), "");
	/* and its fire-morale tests, unless a test asks for the d6 */
	ord_kv_set_int(&ord_ctx_find_unit(ctx, "B")->state, "fired_on", 3);
	ord_kv_set_int(&ord_ctx_find_unit(ctx, "B")->state, "loss_turn", 3);
	ck_assert_int_eq(state("B", "turn_losses"), 3);
	{
		static const int d20[] = { 18 };
		assert_has(resolve("fire-morale", d20, 1),
			   "B: fire morale (d20 chart): class B, d20 18: rout, drops to class C\n");
	}
}
END_TEST

START_TEST(resolve_fire_screened)
{
	cast();
	ck_assert_str_eq(event("fire", "unit=R2 target=B1 range=2 screen=S1 screen_front=10"), "");
	/* the fire hits the skirmishers, at skirmish order's -1/2 */
	assert_has(resolve("fire", NULL, 0),
		   "S1: fired on by R2 (musket, 2\"): 24 firers × 50% = 12, −6 target in skirmish "
		   "order = 6 (the skirmishers S1 block and absorb the fire aimed at B1)\n");
	ck_assert_int_eq(state("S1", "figures"), 2);
	ck_assert_int_eq(state("B1", "figures"), 24);
}
END_TEST

/* "-1/2 if enemy is in skirmish order": a unit of skirmishers is in
 * skirmish order whatever its scenario says (D27), fired at or screening */
START_TEST(resolve_skirmishers_fired_at)
{
	const char *out;
	unit("S2", "blue", "kind=skirmishers figures=8", NULL);
	unit("S3", "blue", "kind=skirmishers formation=line figures=8", NULL);
	unit("B9", "blue", "kind=line_infantry formation=line figures=24", NULL);
	unit("R9", "red", "kind=line_infantry formation=line figures=24", NULL);
	unit("R8", "red", "kind=line_infantry formation=line figures=24", NULL);
	ck_assert_str_eq(state_str("S2", "formation"), "skirmish");
	ck_assert_str_eq(state_str("S3", "formation"), "skirmish");
	ck_assert_str_eq(event("fire", "unit=R9 target=S2 range=6"), "");
	ck_assert_str_eq(event("fire", "unit=R8 target=B9 range=6 screen=S3 screen_front=10"), "");
	out = resolve("fire", NULL, 0);
	assert_has(out, "S2: fired on by R9 (musket, 6\"): 24 firers × 25% = 6, −3 target in "
			"skirmish order = 3\n");
	assert_has(out,
		   "S3: fired on by R8 (musket, 6\"): 24 firers × 25% = 6, −3 target in "
		   "skirmish order = 3 (the skirmishers S3 block and absorb the fire aimed at B9)\n");
}
END_TEST

/* D28: cavalry has no infantry formation ("Its only restriction to
 * formation is that the men must be within an inch of each other"): no
 * "+1/2 enemy in column" when fired at, enfiladed or not, no "+1 column"
 * in melee, and a cavalry unit is never the square of "square vs. cavalry" */
START_TEST(resolve_cavalry_has_no_column)
{
	static const int dice[] = { 3, 3, 3, 3 };
	const char *out;
	unit("K2", "blue", "kind=heavy_cavalry formation=column figures=20 weapon=none",
	     "melee_with=R7 melee_since=2");
	unit("H2", "blue", "kind=light_cavalry formation=square figures=8 weapon=none",
	     "melee_with=R6 melee_since=2");
	unit("R7", "red", "kind=heavy_cavalry figures=8 weapon=none", "melee_with=K2 melee_since=2");
	unit("R6", "red", "kind=light_cavalry figures=8 weapon=none", "melee_with=H2 melee_since=2");
	unit("R5", "red", "kind=light_infantry formation=line figures=24", NULL);
	unit("R4", "red", "kind=light_infantry formation=line figures=24", NULL);
	ck_assert_str_eq(state_str("K2", "formation"), "squadron");
	/* a state written by an older orderly still counts as the squadron */
	ord_kv_set(&ord_ctx_find_unit(ctx, "K2")->state, "formation", "column");
	ord_kv_set(&ord_ctx_find_unit(ctx, "H2")->state, "formation", "square");
	ck_assert_str_eq(event("fire", "unit=R5 target=K2 range=6"), "");
	ck_assert_str_eq(event("fire", "unit=R4 target=H2 range=6 enfilade=yes firers=4"), "");
	out = resolve("fire", NULL, 0);
	assert_has(out, "K2: fired on by R5 (musket, 6\"): 24 firers × 25% = 6, +3 light infantry "
			"firing = 9\n");
	assert_has(out, "H2: fired on by R4 (musket, 6\"): 4 firers × 25% = 1, +0.5 light "
			"infantry firing = 1.5 → 2\n");
	ck_assert_str_eq(event("melee", "a=K2 b=R7"), "");
	ck_assert_str_eq(event("melee", "a=H2 b=R6"), "");
	out = resolve("melee", dice, 4);
	assert_has(out, "K2's 11 heavy_cavalry × 7 = 77 pts × (d6 3) = 231");
	assert_has(out, "H2's 6 light_cavalry × 5 = 30 pts × (d6 3) = 90");
}
END_TEST

/* "When one tray of a battalion is meleed, the whole thing is ... The
 * figures involved have their values totaled" (D20): two units against one */
START_TEST(resolve_two_on_one)
{
	static const int dice[] = { 3, 4 };
	cast();
	ck_assert_str_eq(refused("melee", "a=R2 a2=B2 b=B1"),
			 "a2 'B2' is of side blue, not a's (red): the second unit fights beside a, "
			 "against the enemy" NO_OVERRIDE);
	ck_assert_str_eq(refused("melee", "a=R2 b=B1 b2=R2"),
			 "b2 'R2' is of side red, not b's (blue): the second unit fights beside b, "
			 "against the enemy" NO_OVERRIDE);
	assert_has(event_stored("melee", "a=R2 a2=B2 b=B1"), "a2 is a second unit of R2's side");
	ord_ctx_fake_free(ctx);
	ctx = ord_ctx_fake_new(rs, rules, 3);
	cast();
	orders("R2 ↑ 1/4\nRH ↑ 1/4\n"); /* into B1, whom they touch (D25) */
	ck_assert_str_eq(event("move", "unit=R2 distance=0 contact=B1"), "");
	ck_assert_str_eq(event("move", "unit=RH distance=0 contact=B1"), "");
	resolve("movement", NULL, 0);
	ck_assert_str_eq(event("melee", "a=R2 a2=RH b=B1"), "");
	assert_has(resolve("melee", dice, 2),
		   "B1: melee with R2 and RH: R2's 24 line_infantry × 3 = 72 pts × (d6 3) = 216; "
		   "RH's 8 light_cavalry × 5 = 40 pts × (d6 3) = 120; R2 and RH together 112 pts, "
		   "336");
	assert_has(ord_ctx_fake_results(ctx), "B1 inflicts 72/12 = 6 pts: R2's share 6 × 72/112");
	ck_assert_ptr_null(strstr(ord_ctx_fake_results(ctx), "RH: melee with"));
	/* B1 lost to both: 112/6 = 18.67 pts / 3 = 6.22 -> 6; its 72/12 = 6 pts
	 * are shared by points: R2 3.86 pts -> 1, RH 2.14 pts / 5 -> 0 */
	ck_assert_int_eq(state("B1", "figures"), 18);
	ck_assert_int_eq(state("R2", "figures"), 23);
	ck_assert_int_eq(state("RH", "figures"), 8);
	ck_assert_int_eq(state("B1", "lost_melee"), 3);
	ck_assert_str_eq(state_str("RH", "melee_with"), "B1");
	ck_assert_str_eq(state_str("B1", "melee_with"), "R2");
	/* next turn, fought again by both: nobody's melee has ended */
	ord_ctx_fake_free(ctx);
	ctx = ord_ctx_fake_new(rs, rules, 4);
	cast();
	split_kv(&ord_ctx_find_unit(ctx, "R2")->state, "melee_with=B1 melee_since=3");
	split_kv(&ord_ctx_find_unit(ctx, "RH")->state, "melee_with=B1 melee_since=3");
	split_kv(&ord_ctx_find_unit(ctx, "B1")->state, "melee_with=R2 melee_since=3");
	ck_assert_str_eq(event("melee", "a=R2 a2=RH b=B1"), "");
	ck_assert_ptr_null(strstr(resolve("melee", dice, 2), "has ended"));
}
END_TEST

/* Every result so far as viewer's report shows it (bat_show_result), one
 * "unit: words" line each (the fog's choice of results is the core's). */
static const char *shown(const char *viewer)
{
	static struct ord_buf all = ORD_BUF_INIT;
	struct ord_buf b = ORD_BUF_INIT;
	size_t i;

	ord_buf_reset(&all);
	for (i = 0; i < ord_ctx_nresults(ctx); i++) {
		struct ord_result_view v;
		ck_assert_int_eq(ord_ctx_result_get(ctx, i, &v), 0);
		ord_buf_reset(&b);
		rs->show_result(ctx, &v, viewer, &b);
		ord_buf_addf(&all, "%s: %s\n", v.unit, b.len ? b.buf : v.explanation);
	}
	ord_buf_release(&b);
	return all.buf;
}

/* The fog in the results' words: a side reads an enemy battalion in trays,
 * as its report describes it, not its figures nor the points and scores
 * worked out from them; its own units and an enemy's squadrons (figures
 * standing apart on the table) as the phase wrote them; the stored
 * results, the referee's, keep every figure.  Two on one (D20). */
START_TEST(results_shown_in_trays)
{
	static const int dice[] = { 3, 4 }, dice2[] = { 6, 1 };
	const char *out;
	cast();
	orders("R2 ↑ 1/4\nRH ↑ 1/4\n"); /* into B1, whom they touch (D25) */
	ck_assert_str_eq(event("move", "unit=R2 distance=0 contact=B1"), "");
	ck_assert_str_eq(event("move", "unit=RH distance=0 contact=B1"), "");
	resolve("movement", NULL, 0);
	ck_assert_str_eq(event("melee", "a=R2 a2=RH b=B1"), "");
	resolve("melee", dice, 2);
	out = shown("blue");
	assert_has(out,
		   "B1: melee with R2 and RH: R2's about 6 trays of line_infantry (d6 3); RH's 8 "
		   "light_cavalry × 5 = 40 pts × (d6 3) = 120; B1's 24 line_infantry × 3 = 72 pts "
		   "× (d6 4) = 288; R2 and RH win; R2 and RH inflict 6 figures on B1; B1 inflicts "
		   "72/12 = 6 pts: 1 figure on R2; 0 figures on RH\n");
	ck_assert_ptr_null(strstr(out, "R2's 24"));
	ck_assert_ptr_null(strstr(out, "112"));
	out = shown("red");
	assert_has(out,
		   "B1: melee with R2 and RH: R2's 24 line_infantry × 3 = 72 pts × (d6 3) = 216; "
		   "RH's 8 light_cavalry × 5 = 40 pts × (d6 3) = 120; R2 and RH together 112 pts, "
		   "336; B1's about 6 trays of line_infantry (d6 4); R2 and RH win; R2 and RH "
		   "inflict 112/6 = 18.67 pts / 3 = 6.22 → 6 figures on B1; B1 inflicts: 1 figure "
		   "on R2; 0 figures on RH\n");
	ck_assert_ptr_null(strstr(out, "B1's 24"));
	/* the referee's words, stored, as the phase wrote them */
	assert_has(ord_ctx_fake_results(ctx), "R2's 24 line_infantry × 3 = 72 pts × (d6 3) = 216; ");
	assert_has(ord_ctx_fake_results(ctx), "B1's 24 line_infantry × 3 = 72 pts × (d6 4) = 288; ");

	/* a blow that takes all an enemy had: its "(all 2 engaged)" is its figures */
	ord_ctx_fake_free(ctx);
	ctx = ord_ctx_fake_new(rs, rules, 3);
	cast();
	ord_kv_set_int(&ord_ctx_find_unit(ctx, "R2")->state, "figures", 2);
	orders("R2 ↑ 1/4\n");
	ck_assert_str_eq(event("move", "unit=R2 distance=0 contact=B1"), "");
	resolve("movement", NULL, 0);
	ck_assert_str_eq(event("melee", "a=B1 b=R2"), "");
	resolve("melee", dice2, 2);
	assert_has(ord_ctx_fake_results(ctx), "B1 inflicts 72/6 = 12 pts / 3 = 4 (all 2 engaged) "
					      "figures on R2");
	assert_has(shown("blue"), "R2: melee with B1: B1's 24 line_infantry × 3 = 72 pts × (d6 6) = "
				  "432; R2's about 1 tray of line_infantry (d6 1); B1 wins; B1 "
				  "inflicts 72/6 = 12 pts / 3 = 4 (all engaged) figures on R2; R2 "
				  "inflicts 0 figures on B1\n");
	assert_has(shown("red"), "B1's about 6 trays of line_infantry (d6 6); R2's 2 line_infantry "
				 "× 3 = 6 pts × (d6 1) = 6; B1 wins; B1 inflicts 4 (all 2 engaged) "
				 "figures on R2; R2 inflicts 6/12 = 0.5 pts / 3 = 0.17 → 0 figures on "
				 "B1\n");
}
END_TEST

/* An enemy battalion's fire read by the side it fell on: its trays firing
 * and the modifiers by name, not its firers nor the hits worked out from
 * them; the side that fired reads its own fire as the phase wrote it. */
START_TEST(results_shown_fire)
{
	const char *out;
	cast();
	orders("R1 @B2\nR2 @B1\nB1 @R2\n");
	ck_assert_str_eq(event("fire", "unit=R1 target=B2 range=4"), "");
	ck_assert_str_eq(event("fire", "unit=R2 target=B1 range=2 screen=S1 screen_front=6"), "");
	ck_assert_str_eq(event("fire", "unit=B1 target=R2 range=3 enfilade=yes"), "");
	resolve("fire", NULL, 0);
	out = shown("blue");
	assert_has(out, "B2: fired on by R1 (musket, 4\"): about 2 trays firing × 50%, + target in "
			"column: 6 casualties\n");
	assert_has(out, "S1: fired on by R2 (musket, 2\"): about 6 trays firing × 50%, − target in "
			"skirmish order: 6 casualties (the skirmishers S1 block and absorb the fire "
			"aimed at B1)\n");
	assert_has(out, "R2: fired on by B1 (musket, 3\"): enfiladed line hit as column; 24 firers "
			"× 50% = 12, +6 target in column = 18\n");
	out = shown("red");
	assert_has(out, "B2: fired on by R1 (musket, 4\"): 8 firers × 50% = 4, +2 target in column "
			"= 6\n");
	assert_has(out, "R2: fired on by B1 (musket, 3\"): enfiladed line hit as column; about 6 "
			"trays firing × 50%, + target in column: 18 casualties\n");
	assert_has(ord_ctx_fake_results(ctx), "S1: fired on by R2 (musket, 2\"): 24 firers × 50% = "
					      "12, −6 target in skirmish order = 6 (the skirmishers");
	/* words of a shape this orderly does not know: the casualties alone,
	 * the firer by the result's by=; no fire as written */
	{
		struct ord_kv kv;
		struct ord_buf b = ORD_BUF_INIT;
		struct ord_result_view v = { .phase = "fire", .unit = "B2", .values = &kv };
		ord_kv_init(&kv);
		ord_kv_set(&kv, "by", "R1");
		ord_kv_set(&kv, "casualties", "6");
		v.explanation = "fired on by R1 (musket, 4\"): 8 shooters × 50% = 4, +2 column = 6";
		rs->show_result(ctx, &v, "blue", &b);
		ck_assert_str_eq(b.buf, "fired on by R1 (musket, 4\"): 6 casualties");
		ord_buf_reset(&b);
		rs->show_result(ctx, &v, "red", &b);
		ck_assert_uint_eq(b.len, 0);
		v.explanation = "fired on by R1 (musket, 9\"): out of range: musket at 9 in.";
		ord_kv_set(&kv, "casualties", "0");
		rs->show_result(ctx, &v, "blue", &b);
		ck_assert_uint_eq(b.len, 0);
		ord_buf_release(&b);
		ord_kv_release(&kv);
	}
}
END_TEST

/* A pursuit (D4, D5), told to each side as its own: the pursued battalion
 * in trays to the pursuer's side. */
START_TEST(results_shown_pursuit)
{
	const char *out;

	hussars_pursue("pursued_retreat_has_value"); /* the broken battalion's words */
	out = shown("red");
	assert_has(out, "H: pursues I: H's 7 light_cavalry × 5 = 35 pts × (d6 2, +1 in motion = 3) = "
			"105; I's about 3 trays of line_infantry, broken: no melee value (d6 3); H "
			"wins; H inflicts 35/6 = 5.83, ×1.5 pursuit (50% more) = 8.75 pts / 3 = 2.92 → "
			"3 figures on I; I inflicts 0 figures on H\n");
	assert_has(out, "I: melee with H: H's 8 light_cavalry × 5 = 40 pts × (d6 6) = 240; I's about "
			"3 trays of line_infantry (d6 1); H wins;");
	out = shown("blue");
	assert_has(out, "I: pursued by H: H's 7 light_cavalry × 5 = 35 pts × (d6 2, +1 in motion = "
			"3) = 105; I's 10 line_infantry, broken: no melee value, 0 pts × (d6 3) = 0;");
}
END_TEST

/* A game made before melee_names_units tells the sides as A and B, once
 * for each unit: the same fog on its letters. */
START_TEST(results_shown_unnamed)
{
	static const int dice[] = { 3, 4 };
	const char *out;
	tables_without("melee_names_units");
	cast();
	orders("R2 ↑ 1/4\nRH ↑ 1/4\n"); /* into B1, whom they touch (D25) */
	ck_assert_str_eq(event("move", "unit=R2 distance=0 contact=B1"), "");
	ck_assert_str_eq(event("move", "unit=RH distance=0 contact=B1"), "");
	resolve("movement", NULL, 0);
	ck_assert_str_eq(event("melee", "a=R2 a2=RH b=B1"), "");
	resolve("melee", dice, 2);
	out = shown("blue");
	assert_has(out, "B1: melee with R2: A: about 6 trays of line_infantry (d6 3); A2: 8 "
			"light_cavalry × 5 = 40 pts × (d6 3) = 120; B: 24 line_infantry × 3 = 72 pts "
			"× (d6 4) = 288; A and A2 win; A and A2 inflict 6 figures of B; B inflicts "
			"72/12 = 6 pts: 1 figure of A; 0 figures of A2\n");
	out = shown("red");
	assert_has(out,
		   "R2: melee with B1: A: 24 line_infantry × 3 = 72 pts × (d6 3) = 216; A2: 8 "
		   "light_cavalry × 5 = 40 pts × (d6 3) = 120; A and A2 together 112 pts, 336; B: "
		   "about 6 trays of line_infantry (d6 4); A and A2 win; A and A2 inflict 112/6 = "
		   "18.67 pts / 3 = 6.22 → 6 figures of B; B inflicts: 1 figure of A; 0 figures of "
		   "A2\n");
}
END_TEST

/* RH charges B1, and H1 moves into contact with RH. */
static void rh_charges_b1(void)
{
	cast();
	orders("RH ↑ C\nH1 ↑ 1\n");
	ck_assert_str_eq(event("move", "unit=RH distance=10 charge=yes contact=B1"), "");
	ck_assert_str_eq(event("move", "unit=H1 distance=4 contact=RH"), "");
	resolve("movement", NULL, 0);
}

/* "+1 unit is charging": against the unit its charge contacted, not
 * against another that came into contact with it (D25), in a game made
 * before one_melee_checked, where RH fought each in a melee of its own. */
START_TEST(resolve_charge_bonus_against_the_charged)
{
	static const int dice[] = { 3, 3, 3, 3 };
	const char *out;
	tables_without("one_melee_checked");
	rh_charges_b1();
	ck_assert_str_eq(event("melee", "a=RH b=H1"), "");
	ck_assert_str_eq(event("melee", "a=RH b=B1"), "");
	out = resolve("melee", dice, 4);
	assert_has(out, "H1: melee with RH: RH's 8 light_cavalry × 5 = 40 pts × (d6 3, +1 in motion "
			"= 4)");
	assert_has(out, "B1: melee with RH: RH's 7 light_cavalry × 5 = 35 pts × (d6 3, +1 in "
			"motion, +1 charging = 5)");
}
END_TEST

/* "When one tray of a battalion is meleed, the whole thing is ... The
 * figures involved have their values totaled, a die is rolled": RH fights
 * B1, which its charge contacted, and H1, which came into contact with it,
 * in one melee (b2=), its value once against one die; a melee of its own
 * with each is refused (one_melee_checked). */
START_TEST(resolve_one_melee_a_turn)
{
	static const int dice[] = { 3, 3 };
	const char *out;
	char *xml;

	rh_charges_b1();
	ck_assert_str_eq(event("melee", "a=RH b=H1"), "");
	ck_assert_str_eq(event("melee", "a=RH b=B1"),
			 "'RH' fights in the melee of event #3 already this turn (RH against H1): a "
			 "unit fights one melee a turn, its figures totalled against one die; a unit "
			 "beside it is a2= or b2= of that melee (when one tray of a battalion is "
			 "meleed, the whole thing is)\n");
	tables_xml(&xml);
	use_tables(xml, "tables.xml");
	rh_charges_b1();
	ck_assert_str_eq(event("melee", "a=RH b=B1 b2=H1"), "");
	out = resolve("melee", dice, 2);
	assert_has(out, "B1: melee with RH (H1 beside it): RH's 8 light_cavalry × 5 = 40 pts × (d6 "
			"3, +1 in motion, +1 charging = 5) = 200; B1's 24 line_infantry × 3 = 72 pts × "
			"(d6 3) = 216; H1's 8 light_cavalry × 5 = 40 pts × (d6 3, +1 in motion = 4) = "
			"160; B1 and H1 together 112 pts, 376; B1 and H1 win");
}
END_TEST

/* "+1 unit is charging" and the figures "totaled" (D20, D25): the charge's
 * bonus is against the unit it charged into whichever of the other side's
 * units the referee named first (melee_both_enemies); a game made before
 * counted the first named alone. */
START_TEST(resolve_charge_bonus_against_the_second_named)
{
	static const int dice[] = { 3, 3 };
	rh_charges_b1();
	ck_assert_str_eq(event("melee", "a=RH b=H1 b2=B1"), "");
	assert_has(resolve("melee", dice, 2), "RH's 8 light_cavalry × 5 = 40 pts × (d6 3, +1 in "
					      "motion, +1 charging = 5) = 200");
	tables_without("melee_both_enemies");
	rh_charges_b1();
	ck_assert_str_eq(event("melee", "a=RH b=H1 b2=B1"), "");
	assert_has(resolve("melee", dice, 2), "RH's 8 light_cavalry × 5 = 40 pts × (d6 3, +1 in "
					      "motion = 4) = 160");
}
END_TEST

/* "Should cavalry break an infantry force in melee, they may pursue": the
 * hussars beside the battalion that fought it pursue it, as they do when
 * named first; every unit of the winners is out of the melee it broke
 * off (melee_both_enemies); a game made before knew the first named alone. */
static void foot_and_hussars_break(void)
{
	static const int melee_dice[] = { 6, 1 }, morale_dice[] = { 1, 2, 3 };
	unit("F", "red", "kind=line_infantry formation=line figures=24", "melee_with=I melee_since=2");
	unit("H", "red", "kind=light_cavalry formation=line figures=8", "melee_with=I melee_since=2");
	unit("I", "blue", "kind=line_infantry formation=line figures=12",
	     "melee_with=F melee_since=2 failed=1");
	ck_assert_str_eq(event("melee", "a=F a2=H b=I"), "");
	resolve("melee", melee_dice, 2);
	ck_assert_int_eq(state("I", "lost_melee"), 3);
	resolve("melee-morale", morale_dice, 3);
}

START_TEST(resolve_pursuit_by_the_unit_beside)
{
	foot_and_hussars_break();
	assert_has(ord_ctx_fake_results(ctx), "I: breaks off the melee with F\n");
	assert_has(ord_ctx_fake_results(ctx), "I: pursued by H: H's ");
	ck_assert_str_eq(state_str("F", "melee_with"), "");
	ck_assert_str_eq(state_str("H", "melee_with"), "");
	tables_without("melee_both_enemies");
	foot_and_hussars_break();
	assert_has(ord_ctx_fake_results(ctx), "I: breaks off the melee with F\n");
	ck_assert_ptr_null(strstr(ord_ctx_fake_results(ctx), "pursued"));
	ck_assert_str_eq(state_str("H", "melee_with"), "I");
}
END_TEST

/* "A tray shall be removed for each 4 casualties registered on the
 * battalion": trays are the infantry's, not a squadron's or a gun's */
START_TEST(cavalry_and_guns_have_no_trays)
{
	struct ord_buf b = ORD_BUF_INIT;
	cast();
	ck_assert_str_eq(event("fire", "unit=B1 target=RH range=3 firers=4"), "");
	assert_has(resolve("fire", NULL, 0), "RH: loses 2 figures to fire: 6 left; in all 2 lost\n");
	ck_assert_int_eq(rs->describe_unit(ctx, ord_ctx_find_unit(ctx, "RH"), "red", &b), 0);
	ck_assert_str_eq(b.buf, "RH RH (red, light_cavalry): 6 figures (2 lost), squadron, morale good, "
				"class C");
	ord_buf_reset(&b);
	ck_assert_int_eq(rs->describe_unit(ctx, ord_ctx_find_unit(ctx, "RH"), "blue", &b), 0);
	ck_assert_str_eq(b.buf, "RH RH (red, light_cavalry): 6 figures, squadron, morale good");
	ord_buf_release(&b);
}
END_TEST

START_TEST(resolve_artillery_square)
{
	static const int dice[] = { 2 };
	cast();
	orders("G1 Fs @R2\n");
	ord_kv_set(&ord_ctx_find_unit(ctx, "R2")->state, "formation", "square");
	ck_assert_str_eq(event("artillery", "unit=G1 target=R2 range=10"), "");
	assert_has(resolve("fire", dice, 1),
		   "R2: fired on by gun G1 (shell, 10\"): shell at 10 in.: d6 2, hits on 1–4: hit; "
		   "4, +4 target in square = 8 dead\n");
	ck_assert_int_eq(state("R2", "figures"), 16);
}
END_TEST

/* "Should a horse art. gun move, unlimber, and fire, it causes 1/2
 * casualties": the gun moved when its sheet orders an arrow or a move
 * over 0" is recorded (D16, horse_moved_by_sheet), as a battalion's fire
 * counts "if you've moved"; a move of 0", or none recorded, fired it
 * whole.  A game made before counts the move recorded alone. */
static const char *horse_gun_fires(const char *move)
{
	static const int dice[] = { 3 };
	cast();
	orders("HA ↑ 1/2 UL Fs @R1\n");
	if (move)
		ck_assert_str_eq(event("move", move), "");
	ck_assert_str_eq(event("unlimber", "unit=HA"), "");
	resolve("movement", NULL, 0);
	ck_assert_str_eq(event("artillery", "unit=HA target=R1 range=8"), "");
	return resolve("fire", dice, 1);
}

START_TEST(resolve_horse_artillery_moved)
{
	assert_has(horse_gun_fires("unit=HA distance=6"),
		   "R1: fired on by gun HA (shell, 8\"): shell at 8 in.: d6 3, hits on 1–4: hit; 4, "
		   "×0.5 horse artillery moved, unlimbered and fired = 2 dead\n");
	ck_assert_int_eq(state("R1", "figures"), 30);
	/* blocked at 0", or its move left out: its sheet ordered it */
	ord_ctx_fake_free(ctx);
	ctx = ord_ctx_fake_new(rs, rules, 3);
	assert_has(horse_gun_fires("unit=HA distance=0"),
		   "4, ×0.5 horse artillery moved, unlimbered and fired = 2 dead\n");
	ord_ctx_fake_free(ctx);
	ctx = ord_ctx_fake_new(rs, rules, 3);
	assert_has(horse_gun_fires(NULL),
		   "4, ×0.5 horse artillery moved, unlimbered and fired = 2 dead\n");
	ck_assert_int_eq(state("R1", "figures"), 30);
}
END_TEST

START_TEST(resolve_horse_artillery_moved_of_a_game_made_before)
{
	tables_without("horse_moved_by_sheet");
	assert_has(horse_gun_fires("unit=HA distance=0"),
		   "R1: fired on by gun HA (shell, 8\"): shell at 8 in.: d6 3, hits on 1–4: hit; "
		   "4 dead\n");
	ck_assert_int_eq(state("R1", "figures"), 28);
}
END_TEST

START_TEST(resolve_artillery_out_of_range)
{
	cast();
	orders("G1 Fg @R2\n");
	/* refused when recorded (artillery_out_of_range); recorded all the
	 * same, as --override does, no die is rolled for it (D10) */
	ck_assert_str_eq(event("artillery", "unit=G1 target=R2 range=13"),
			 "gun 'G1' fired grape at 13\": out of range (grape fires to 12\" at most, "
			 "table artillery) (a shot out of range does nothing (D10))\n");
	assert_has(resolve("fire", NULL, 0),
		   "R2: fired on by gun G1 (grape, 13\"): out of range: grape at 13 in.\n");
}
END_TEST

START_TEST(resolve_gun_hits)
{
	static const int dice[] = { 1, 2 };
	cast();
	unit("RG", "red", "kind=foot_artillery formation=unlimbered figures=10 weapon=none", "hits=1");
	orders("G1 Fb @RG\n");
	ck_assert_str_eq(event("artillery", "unit=G1 target=RG range=20"), "");
	assert_has(resolve("fire", dice, 1), "RG: gun silenced: 2 artillery hits\n");
	ck_assert_int_eq(state("RG", "silenced"), 1);
}
END_TEST

START_TEST(execution_lists_what_was_not_done)
{
	cast();
	orders("B2 ↑ C\nB1 FSq\nHA ↑-C-UL-Fs\nG1 L\nL1 ↑ 1/4 @R1\nS1 ↗ 1/2 @R2\n");
	/* its move is its charge unless the referee says otherwise, which
	 * settles it: off the list (charge_no_settles) */
	ck_assert_str_eq(event("move", "unit=B2 distance=8 charge=no"),
			 "ordered to charge (C): the move of unit 'B2' is its charge, and charge=no "
			 "departs from its sheet: recorded with --override, the unit does not charge "
			 "this turn, and no later event charges for it (a unit moves once a turn) "
			 "(orders may never be changed)\n");
	/* a blocked move is recorded as 0": carried out, as is a fire */
	ck_assert_str_eq(event("move", "unit=L1 distance=0"), "");
	ck_assert_str_eq(event("fire", "unit=L1 target=R1 range=6"), "");
	/* in the units' order, each naming its line on the sheet */
	ck_assert_str_eq(execution(),
			 "2: unit 'B1': ordered to form square (FSq) but no formation change was recorded (FSq)\n"
			 "6: unit 'S1': ordered to move (↗ 1/2) but no move was recorded (↗)\n"
			 "6: unit 'S1': ordered to fire at R2 but no fire was recorded (@)\n"
			 "4: unit 'G1': ordered to limber (L) but no limbering was recorded (L)\n"
			 "3: unit 'HA': ordered to move (↑) but no move was recorded (↑)\n"
			 "3: unit 'HA': ordered to charge (C) but no charge was recorded (C)\n"
			 "3: unit 'HA': ordered to unlimber (UL) but no unlimbering was recorded (UL)\n"
			 "3: unit 'HA': ordered to fire (Fs) but no artillery fire was recorded (Fs)\n");
}
END_TEST

START_TEST(load_needs_order_codes)
{
	const struct ord_resource *res = ord_resource_find("rulesets/battalion/tables.xml");
	const char *start, *end;
	struct ord_buf doc = ORD_BUF_INIT;
	struct ord_rules *r = NULL;
	int rc;

	ck_assert_ptr_nonnull(res);
	start = strstr((const char *)res->data, "<chart name=\"order_codes\"");
	ck_assert_ptr_nonnull(start);
	end = strstr(start, "</chart>") + strlen("</chart>");
	ord_buf_add(&doc, (const char *)res->data, (size_t)(start - (const char *)res->data));
	ord_buf_adds(&doc, end);
	rc = rs->load(&r, doc.buf, doc.len, "edited.xml");
	ck_assert_int_eq(rc, ORD_EBADDATA);
	ck_assert_ptr_null(r);
	assert_has(ord_error_last(), "order_codes");
	ord_buf_release(&doc);
}
END_TEST

/* The built-in tables with one parameter's value replaced. */
static void tables_with(struct ord_buf *doc, const char *param, const char *value)
{
	const struct ord_resource *res = ord_resource_find("rulesets/battalion/tables.xml");
	struct ord_buf name = ORD_BUF_INIT;
	const char *p, *v;

	ck_assert_ptr_nonnull(res);
	ord_buf_addf(&name, "<param name=\"%s\" value=\"", param);
	p = strstr((const char *)res->data, name.buf);
	ck_assert_ptr_nonnull(p);
	v = p + name.len;
	ord_buf_add(doc, (const char *)res->data, (size_t)(v - (const char *)res->data));
	ord_buf_adds(doc, value);
	ord_buf_adds(doc, strchr(v, '"'));
	ord_buf_release(&name);
}

/* The built-in tables with the text old replaced by new (once). */
static void tables_replacing(struct ord_buf *doc, const char *old, const char *new)
{
	const struct ord_resource *res = ord_resource_find("rulesets/battalion/tables.xml");
	const char *p;

	ck_assert_ptr_nonnull(res);
	p = strstr((const char *)res->data, old);
	ck_assert_ptr_nonnull(p);
	ord_buf_add(doc, (const char *)res->data, (size_t)(p - (const char *)res->data));
	ord_buf_adds(doc, new);
	ord_buf_adds(doc, p + strlen(old));
}

/* Replace the game's rules by doc's and make a fresh cast. */
static void reload_rules(struct ord_buf *doc)
{
	ord_ctx_fake_free(ctx);
	rs->free(rules);
	ck_assert_msg(rs->load(&rules, doc->buf, doc->len, "club.xml") == 0, "%s", ord_error_last());
	ctx = ord_ctx_fake_new(rs, rules, 3);
	cast();
}

/* melee_points_as is read only with melee_points_by_formation on, and
 * then each names * or a kind of melee_points: a club's slip is refused
 * when its tables are loaded, not in a turn's melee. */
START_TEST(load_melee_points_as)
{
	struct ord_buf doc = ORD_BUF_INIT;
	struct ord_rules *r = NULL;

	tables_replacing(&doc, "melee_points_as=\"skirmishers\"", "melee_points_as=\"skirmisher\"");
	ck_assert_int_eq(rs->load(&r, doc.buf, doc.len, "club.xml"), ORD_EBADDATA);
	ck_assert_ptr_null(r);
	assert_has(ord_error_last(), ": table 'formations': melee_points_as 'skirmisher' of skirmish "
				     "is not a kind of table 'melee_points' (expected * or one of its "
				     "kinds)");
	ord_buf_reset(&doc);
	tables_replacing(&doc, "labels=\"fires_as enfilade_as melee_points_as\"",
			 "labels=\"fires_as enfilade_as\"");
	ck_assert_int_eq(rs->load(&r, doc.buf, doc.len, "club.xml"), ORD_EBADDATA);
	assert_has(ord_error_last(), ": melee_points_by_formation is on but table 'formations' has "
				     "no label 'melee_points_as'");
	ord_buf_release(&doc);
}
END_TEST

/* Finding 4 of the rules review: what the tables say is what is done.
 * woods_may_fire lets units in woods fire; the formations' fires_as says
 * whose fire counts as skirmish fire ("Miscellaneous order ... their fire
 * is treated like skirmish fire"); one number for the routed -3 (the
 * morale modifier), and no parameter that nothing reads. */
START_TEST(table_values_are_used)
{
	struct ord_buf doc = ORD_BUF_INIT;
	static const char *const unused[] = {
		"rout_penalty",    "battalion_trays", "men_per_figure",         "squadron_figures",
		"squadron_spread", "gun_crew_radius", "formation_change_turns", "line_firers",
	};
	const struct ord_resource *res = ord_resource_find("rulesets/battalion/tables.xml");
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(unused); i++) {
		char name[64];
		snprintf(name, sizeof(name), "name=\"%s\"", unused[i]);
		ck_assert_msg(strstr((const char *)res->data, name) == NULL, "%s", unused[i]);
	}
	/* misc order fires as skirmish order, from the table */
	cast();
	ord_kv_set(&ord_ctx_find_unit(ctx, "B1")->state, "formation", "misc");
	ck_assert_str_eq(event("fire", "unit=B1 target=R2 range=6"), "");
	assert_has(resolve("fire", NULL, 0), "24 firers × 25% = 6, −1.5 firer in skirmish order");
	tables_replacing(&doc, "<row formation=\"misc\" fires_as=\"skirmish\"",
			 "<row formation=\"misc\" fires_as=\"misc\"");
	reload_rules(&doc);
	ord_kv_set(&ord_ctx_find_unit(ctx, "B1")->state, "formation", "misc");
	ck_assert_str_eq(event("fire", "unit=B1 target=R2 range=6"), "");
	assert_has(resolve("fire", NULL, 0), "24 firers × 25% = 6\n");
	/* a club whose units in woods fire */
	ord_buf_reset(&doc);
	tables_with(&doc, "woods_may_fire", "1");
	reload_rules(&doc);
	ck_assert_str_eq(event("fire", "unit=B1 target=R1 range=3 firer_in_woods=yes"), "");
	ord_buf_release(&doc);
}
END_TEST

/* "The basic artillery unit is one gun with up to 12 artillerists": a
 * scenario's gun with more is refused, naming the attribute (gun_crew_max) */
START_TEST(init_unit_gun_crew)
{
	struct ord_unit *u = ord_ctx_fake_add_unit(ctx, "G9", "G9", "blue");
	struct ord_diag d;
	struct ord_buf b = ORD_BUF_INIT;

	split_kv(&u->attrs, "kind=foot_artillery figures=20 weapon=none");
	ord_diag_init(&d);
	ck_assert_int_eq(rs->init_unit(rules, u, &d), ORD_EBADDATA);
	ord_diag_format(&d, NULL, &b);
	ck_assert_str_eq(b.buf, "unit 'G9': foot_artillery is one gun with 20 artillerists: at most "
				"12 (gun_crew_max) (the basic artillery unit is one gun with up to 12 "
				"artillerists)\n");
	ord_diag_release(&d);
	ord_buf_release(&b);
	unit("G8", "blue", "kind=horse_artillery figures=12 weapon=none", NULL);
}
END_TEST

/* The rules' numbers are the tables': a club that lets units charge every
 * 4th turn sees its sheets checked, and the rule cited, so; a limber time
 * the module cannot carry out is refused at load. */
START_TEST(rule_numbers_come_from_the_tables)
{
	struct ord_buf doc = ORD_BUF_INIT;
	struct ord_rules *r = NULL;

	ord_ctx_fake_free(ctx);
	rs->free(rules);
	tables_with(&doc, "charge_interval", "4");
	ck_assert_msg(rs->load(&rules, doc.buf, doc.len, "club.xml") == 0, "%s", ord_error_last());
	ctx = ord_ctx_fake_new(rs, rules, 4);
	cast();
	ord_kv_set_int(&ord_ctx_find_unit(ctx, "B2")->state, "last_charge", 1);
	ck_assert_str_eq(validate("blue", "B2 ↑ C\n"),
			 "1:6: unit 'B2' charged in turn 1; its next charge may be in turn 5 "
			 "(a unit may charge only once every 4 turns)\n");
	ord_buf_reset(&doc);
	tables_with(&doc, "limber_turns", "2");
	ck_assert_int_eq(rs->load(&r, doc.buf, doc.len, "club.xml"), ORD_EBADDATA);
	assert_has(ord_error_last(), "limber_turns is 2");
	ord_buf_release(&doc);
}
END_TEST

/* A club's morale tables must answer every roll with an outcome the rules
 * act on: a d20 class short of a roll, a d6 band cut off, an outcome
 * misspelt are refused at load with the line, not met in a turn. */
START_TEST(morale_tables_checked_at_load)
{
	static const struct {
		const char *from, *to, *msg;
	} broken[] = {
		{ "<roll class=\"C\" lo=\"13\" hi=\"17\" outcome=\"retreat\"/>",
		  "<roll class=\"C\" lo=\"13\" hi=\"16\" outcome=\"retreat\"/>",
		  "table 'morale20' has no row for the roll 17 for class=C (a table read by one die must hold every roll)" },
		{ "<roll lo=\"0\" hi=\"max\" outcome=\"good\"/>",
		  "<roll lo=\"0\" hi=\"12\" outcome=\"good\"/>",
		  "table 'morale' has no row for the roll 13 (a table read by dice and modifiers must hold every roll)" },
		{ "<roll class=\"E\" lo=\"16\" hi=\"20\" outcome=\"rout\"/>",
		  "<roll class=\"E\" lo=\"16\" hi=\"20\" outcome=\"routed\"/>",
		  "table 'morale20' row: 'outcome' is 'routed' (expected one of good retreat rout)" },
	};
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(broken); i++) {
		struct ord_buf doc = ORD_BUF_INIT;
		struct ord_rules *r = NULL;
		tables_replacing(&doc, broken[i].from, broken[i].to);
		ck_assert_int_eq(rs->load(&r, doc.buf, doc.len, "club.xml"), ORD_EBADDATA);
		ck_assert_msg(strstr(ord_error_last(), broken[i].msg) &&
				      !strncmp(ord_error_last(), "club.xml:", 9),
			      "expected '%s', got '%s'", broken[i].msg, ord_error_last());
		ck_assert_ptr_null(r);
		ord_buf_release(&doc);
	}
}
END_TEST

/* Every state key set (so that every branch of the reports and of the
 * execution check runs): the module uses no key it does not declare (the
 * teardown's ord_state_check), and reports the values. */
START_TEST(reports_use_declared_keys)
{
	const struct ord_state_key *k;
	struct ord_buf b = ORD_BUF_INIT;
	size_t i;
	static const char *const viewers[] = { NULL, "blue", "red" };

	cast();
	for (i = 0; i < ord_ctx_nunits(ctx); i++) {
		struct ord_unit *u = ord_ctx_unit(ctx, i);
		for (k = rs->state_keys; k->name; k++)
			if (k->type == ORD_KEY_INT)
				ord_kv_set(&u->state, k->name, "1");
		ord_kv_set(&u->state, "melee_with", "R1");
		ord_kv_set(&u->state, "rout_until", "9");
		for (size_t v = 0; v < ORD_ARRAY_SIZE(viewers); v++)
			ck_assert_int_eq(rs->describe_unit(ctx, u, viewers[v], &b), 0);
	}
	ck_assert_ptr_nonnull(strstr(b.buf, "silenced"));
	ck_assert_ptr_nonnull(strstr(b.buf, "in melee with R1"));
	execution(); /* reads the states it notes on (the teardown checks them) */
	ord_buf_release(&b);
}
END_TEST

/* A scenario's unit of a kind the club's tables left out is refused when the
 * game is made (it could never move, fire or fight), naming the unit, the
 * kinds the tables have and the tables; its first state is still written,
 * as the audit replays it. */
/* init_unit under the rules with of a unit id with attrs: its problems as
 * ord_diag_format gives them ("" when none), in want; the unit, whose
 * first state is made either way (the audit replays it). */
static struct ord_unit *init_says(struct ord_rules *with, const char *id, const char *attrs,
				  const char *want)
{
	struct ord_unit *u = ord_ctx_fake_add_unit(ctx, id, id, "blue");
	struct ord_diag d;
	struct ord_buf b = ORD_BUF_INIT;
	int err;

	split_kv(&u->attrs, attrs);
	ord_diag_init(&d);
	err = rs->init_unit(with, u, &d);
	ord_diag_format(&d, NULL, &b);
	ck_assert_int_eq(err, *want ? ORD_EBADDATA : 0);
	ck_assert_str_eq(b.len ? b.buf : "", want);
	ord_diag_release(&d);
	ord_buf_release(&b);
	return u;
}

/* The built-in tables without the rows cut[] (every one must be there),
 * loaded as a club's "club.xml". */
static struct ord_rules *tables_cut(const char *const *cut, size_t n)
{
	const struct ord_resource *res = ord_resource_find("rulesets/battalion/tables.xml");
	struct ord_rules *club = NULL;
	char *xml, *p;
	size_t i;

	ck_assert_ptr_nonnull(res);
	xml = strdup((const char *)res->data);
	for (i = 0; i < n; i++) {
		p = strstr(xml, cut[i]);
		ck_assert_msg(p != NULL, "not in the tables: %s", cut[i]);
		memmove(p, p + strlen(cut[i]), strlen(p + strlen(cut[i])) + 1);
	}
	ck_assert_int_eq(rs->load(&club, xml, strlen(xml), "club.xml"), 0);
	free(xml);
	return club;
}

START_TEST(init_unit_kind_not_in_tables)
{
	static const char *const cut[] = {
		"<row kind=\"heavy_cavalry\" arm=\"cavalry\" formation=\"squadron\" enfiladed=\"yes\" "
		"provisional=\"yes\" note=\"our reading (D28), as light_cavalry\"/>",
	};
	struct ord_rules *club = tables_cut(cut, ORD_ARRAY_SIZE(cut));
	struct ord_unit *u;

	u = init_says(club, "F7", "kind=heavy_cavalry formation=line figures=12 class=C weapon=none",
		      "unit 'F7': kind: unknown 'heavy_cavalry' (expected one of "
		      "line_infantry light_infantry skirmishers light_cavalry foot_artillery "
		      "horse_artillery) (table 'kinds' of club.xml)\n");
	ck_assert_str_eq(ord_kv_get(&u->state, "figures"), "12");
	/* the tables' own kinds pass; a class the d20 chart lacks does not */
	init_says(club, "F8", "kind=light_cavalry figures=12 class=Z",
		  "unit 'F8': class: unknown 'Z' (expected one of A B C D E) "
		  "(table 'morale20_classes' of club.xml)\n");
	rs->free(club);
}
END_TEST

/* D28: a scenario writes cavalry's own order, squadron, and only for
 * cavalry: a battalion has no move in it, a gun is limbered or not, and
 * skirmishers have an order of their own; a battalion's formation given
 * to cavalry (an older scenario's column) is still read as squadron */
START_TEST(init_unit_squadron)
{
	struct ord_unit *u;

	u = init_says(rules, "K5", "kind=heavy_cavalry formation=squadron figures=8 weapon=none", "");
	ck_assert_str_eq(ord_kv_get(&u->state, "formation"), "squadron");
	u = init_says(rules, "K6", "kind=light_cavalry formation=column figures=8 weapon=none", "");
	ck_assert_str_eq(ord_kv_get(&u->state, "formation"), "squadron");
	init_says(rules, "I5", "kind=line_infantry formation=squadron figures=24",
		  "unit 'I5': formation 'squadron' is not for line_infantry (expected one of line "
		  "column square skirmish misc) (tables 'formations' and 'movement' of the "
		  "built-in battalion tables)\n");
	init_says(rules, "G5", "kind=foot_artillery formation=squadron figures=8 weapon=none",
		  "unit 'G5': formation 'squadron' is not for foot_artillery (expected one of "
		  "limbered unlimbered)\n");
	init_says(rules, "S5", "kind=skirmishers formation=squadron figures=8",
		  "unit 'S5': formation 'squadron' is not for skirmishers (expected skirmish, or "
		  "one of line column square skirmish misc, each read as skirmish) (table "
		  "'kinds' of the built-in battalion tables)\n");
	init_says(rules, "K7", "kind=light_cavalry formation=limbered figures=8 weapon=none",
		  "unit 'K7': formation 'limbered' is not for light_cavalry (expected squadron, "
		  "or one of line column square skirmish misc, each read as squadron) (table "
		  "'kinds' of the built-in battalion tables)\n");
}
END_TEST

/* A club's tables without a row the phases read for a unit (the movement
 * of a formation its orders may give it, its melee points, a shot it may
 * fire) are refused when the game is made, naming the unit and the table,
 * rather than failing the turn that first reads the row; its first state
 * is still written, as the audit replays it. */
START_TEST(init_unit_rows_not_in_tables)
{
	static const char *const cut[] = {
		"<row kind=\"line_infantry light_infantry\" formation=\"square\" reg=\"4\" charge=\"-\"/>",
		"<row kind=\"heavy_cavalry\" points=\"7\"/>",
		"<band shot=\"shell\" from=\"0\" to=\"12\" dead=\"4\" hit=\"4\"/>",
		"<band shot=\"shell\" from=\"12\" to=\"24\" dead=\"4\" hit=\"2\"/>",
		"<band shot=\"shell\" from=\"24\" to=\"36\" dead=\"4\" hit=\"1\"/>",
	};
	struct ord_rules *club = tables_cut(cut, ORD_ARRAY_SIZE(cut));
	struct ord_unit *u;

	/* in line: square is a formation its orders may give it (FSq) */
	u = init_says(club, "F1", "kind=line_infantry formation=line figures=24 class=C",
		      "unit 'F1': no movement for line_infantry in square, a formation its "
		      "orders may give it (FSq) (table 'movement' of club.xml)\n");
	ck_assert_str_eq(ord_kv_get(&u->state, "formation"), "line");
	/* in square from the start */
	init_says(club, "F2", "kind=light_infantry formation=square figures=24 class=C",
		  "unit 'F2': no movement for light_infantry in square (table "
		  "'movement' of club.xml)\n");
	/* cavalry moves as a squadron, but has no melee points */
	init_says(club, "F3", "kind=heavy_cavalry figures=12 class=C weapon=none",
		  "unit 'F3': no melee points for heavy_cavalry (table 'melee_points' of "
		  "club.xml)\n");
	/* a gun whose orders may fire shell (Fs) */
	init_says(club, "F4", "kind=foot_artillery formation=limbered figures=8 class=C weapon=none",
		  "unit 'F4': no bands for shell, a shot its orders may fire (Fs) (table "
		  "'artillery' of club.xml)\n");
	/* skirmishers move in skirmish order whatever their orders: nothing
	 * they need is missing */
	init_says(club, "F5", "kind=skirmishers figures=8 class=C", "");
	/* a case found whole is whole for the next unit too; one missing a row
	 * is refused for every unit (the rules handle keeps only whole ones) */
	init_says(club, "F6", "kind=skirmishers figures=8 class=C", "");
	init_says(club, "F9", "kind=heavy_cavalry figures=12 class=C weapon=none",
		  "unit 'F9': no melee points for heavy_cavalry (table 'melee_points' of "
		  "club.xml)\n");
	rs->free(club);
}
END_TEST

/* A club's tables with a parameter the module reads by no such name (a
 * misspelling: figures_per_tray would stay 4 without a word) load, as the
 * tables a game keeps must, but are refused when a user hands them in,
 * with the line and the name meant; the built-in tables pass. */
START_TEST(given_tables_unknown_name)
{
	const struct ord_resource *res = ord_resource_find("rulesets/battalion/tables.xml");
	const char *param = "<param name=\"figures_per_tray\"";
	struct ord_rules *club = NULL;
	struct ord_buf xml = ORD_BUF_INIT;
	const char *at;

	ck_assert_int_eq(ord_ruleset_check_given(rs, rules), 0);
	ck_assert_ptr_nonnull(res);
	at = strstr((const char *)res->data, param);
	ck_assert_ptr_nonnull(at);
	ord_buf_add(&xml, (const char *)res->data, (size_t)(at - (const char *)res->data));
	ord_buf_adds(&xml, "<param name=\"figures_per_trey\" value=\"5\"/>\n    ");
	ord_buf_adds(&xml, at);
	ck_assert_int_eq(rs->load(&club, xml.buf, xml.len, "club.xml"), 0);
	ck_assert_int_eq(ord_ruleset_check_given(rs, club), ORD_EBADDATA);
	ck_assert_str_eq(ord_error_last(),
			 "club.xml:23: unknown parameter 'figures_per_trey' (ruleset 'battalion' reads no parameter of that name): did you mean 'figures_per_tray'?");
	rs->free(club);
	ord_buf_release(&xml);
}
END_TEST

/* Review finding 1: a unit retreating in the sheet's turn, or dressing
 * its ranks, is refused an arrow towards the enemy and a charge when the
 * sheet is submitted, as the event check refuses the move it would bring
 * (move_dressing_ranks); the sheet's turn is the context's, the state the
 * one the last resolved turn left. */
START_TEST(sheet_retreating_or_dressing)
{
	cast();
	/* failed its morale in turn 2: retreats in turn 3, the sheet's */
	split_kv(&ord_ctx_find_unit(ctx, "B2")->state, "failed=1 retreat_turn=3 dress_until=4");
	/* retreated in turn 2: dresses its ranks in turn 3 */
	split_kv(&ord_ctx_find_unit(ctx, "L1")->state, "failed=1 retreat_turn=2 dress_until=3");
	/* retreated in turn 1, dressed its ranks in turn 2: free again */
	split_kv(&ord_ctx_find_unit(ctx, "S1")->state, "failed=1 retreat_turn=1 dress_until=2");
	ck_assert_str_eq(validate("blue", "B2 ↑ 1/2\n"),
			 "1:4: unit 'B2' retreats this turn (it failed its morale in turn 2): it may only "
			 "be ordered back (an arrow away from the enemy), no move forward nor charge "
			 "(retreat - unit must retreat next turn)\n");
	ck_assert_str_eq(validate("blue", "B2 ↓ C\n"),
			 "1:6: unit 'B2' retreats this turn (it failed its morale in turn 2): it may only "
			 "be ordered back (an arrow away from the enemy), no move forward nor charge "
			 "(retreat - unit must retreat next turn)\n");
	ck_assert_str_eq(validate("blue", "L1 ↗-C\n"),
			 "1:4: unit 'L1' dresses its ranks until turn 3: it may not move forward nor "
			 "charge (an arrow away from the enemy, or none) (a unit that retreats must "
			 "spend one turn dressing its ranks)\n");
	/* back, sideways, standing or firing: allowed */
	ck_assert_str_eq(validate("blue", "B2 ↓ 1\nL1 ← 1/2 FLn\nS1 ↑ 1 C\n"), "");
	ck_assert_str_eq(validate("blue", "L1 @R1\n"), "");
}
END_TEST

/* Review finding 4: a formation change to the formation the unit has
 * changes nothing but would cost its fire the "changed formation"
 * modifier: refused where the code stands, with the tables' cost. */
START_TEST(sheet_same_formation)
{
	static const char fmod[] = "value=\"-1/4\" label=\"firer changed formation\"";
	char *xml, *at;

	cast();
	ck_assert_str_eq(validate("blue", "B2 FCol\n"),
			 "1:4: unit 'B2' is already in column: FCol changes nothing (a formation "
			 "change costs the unit −1/4 of its fire this turn) (order codes)\n");
	ck_assert_str_eq(validate("blue", "B1 ↑ 1/2 FLn @R1\n"),
			 "1:10: unit 'B1' is already in line: FLn changes nothing (a formation change "
			 "costs the unit −1/4 of its fire this turn) (order codes)\n");
	/* the state, not the scenario: B1 formed column last turn */
	ord_kv_set(&ord_ctx_find_unit(ctx, "B1")->state, "formation", "column");
	ck_assert_str_eq(validate("blue", "B1 FLn\nB2 FSq\nL1 ↑ 1/2 FLn\n"), "");
	/* the cost is the tables' */
	tables_xml(&xml);
	at = strstr(xml, fmod);
	ck_assert_ptr_nonnull(at);
	at[strlen("value=\"-1/")] = '3';
	use_tables(xml, "tables.xml");
	cast();
	assert_has(validate("blue", "L1 FCol\n"), "costs the unit −1/3 of its fire");
}
END_TEST

/* Review finding 5: a fire or a shot beyond what the tables give the
 * weapon or the shot is refused when recorded (resolve would say "out of
 * range"), the reach read from the tables. */
START_TEST(artillery_out_of_range)
{
	char *xml, *at;

	cast();
	unit("R9", "red", "kind=foot_artillery formation=unlimbered figures=10 weapon=none", NULL);
	orders("G1 Fg @R1\nR9 Fs\n");
	ck_assert_str_eq(event("artillery", "unit=G1 target=R1 range=14"),
			 "gun 'G1' fired grape at 14\": out of range (grape fires to 12\" at most, "
			 "table artillery) (a shot out of range does nothing (D10))\n");
	/* the band's edge is in it (0-12 holds 12) */
	ck_assert_str_eq(event("artillery", "unit=R9 target=B1 range=36"), "");
	assert_has(event("artillery", "unit=R9 target=B2 range=36.5"),
		   "shell fires to 36\" at most, table artillery");
	ck_assert_str_eq(event("fire", "unit=B1 target=R2 range=12"), "");
	ck_assert_str_eq(event("fire", "unit=B2 target=R1 range=77"),
			 "unit 'B2' fired its musket at 77\": out of range (musket fires to 12\" at "
			 "most, table fire) (a shot out of range does nothing (D10))\n");
	ck_assert_str_eq(event("fire", "unit=L1 target=R1 range=16"), "");
	assert_has(event("fire", "unit=S1 target=R2 range=16.5"), "musket fires to 12\"");
	/* the reach is the tables': a club's musket that carries to 16" */
	tables_xml(&xml);
	at = strstr(xml, "<band weapon=\"musket\" from=\"12\" to=\"16\" hits=\"-\"/>");
	ck_assert_ptr_nonnull(at);
	memcpy(strstr(at, "hits=\"-\""), "hits=\"5\"", strlen("hits=\"5\""));
	use_tables(xml, "club.xml");
	cast();
	ck_assert_str_eq(event("fire", "unit=B2 target=R1 range=16"), "");
	assert_has(event("fire", "unit=B2 target=R1 range=17"), "musket fires to 16\" at most");
}
END_TEST

/* The key of the event recorded last, as stored ("" when it has none). */
static const char *last_event_key(const char *key)
{
	const char *v = ord_kv_get(&ord_ctx_event(ctx, ord_ctx_nevents(ctx) - 1)->kv, key);
	return v ? v : "";
}

/* Load the shipped tables without the parameter name (a switch a game
 * made before it does not have), in a new context of turn 3. */
static void tables_without(const char *name)
{
	char *xml;

	tables_xml(&xml);
	cut_param(xml, name);
	use_tables(xml, "before.xml");
	ck_assert_int_eq(ord_tables_switch(rs->tables(rules), name), 0);
}

/* "UL - unlimber (1 turn except for horse art.)": a foot gun spends the
 * turn unlimbering and does not move in it; horse artillery may (C-UL-F). */
START_TEST(unlimber_takes_the_turn)
{
	cast();
	unit("G2", "blue", "kind=foot_artillery formation=limbered figures=10 weapon=none", NULL);
	unit("G3", "blue", "kind=foot_artillery formation=limbered figures=10 weapon=none", NULL);
	ck_assert_str_eq(validate("blue", "G2 ↑ 1/2 UL\n"),
			 "1:10: foot_artillery 'G2' takes the turn to unlimber: no move arrow beside "
			 "UL (only horse artillery moves and unlimbers) (UL - unlimber (1 turn except "
			 "for horse art.))\n");
	ck_assert_str_eq(validate("blue", "G2 UL\nHA ↑ 1/2 UL\n"), "");
	orders("G2 ↑ 1/2 UL\nG3 ↑ 1/2 UL\nHA ↑ 1/2 UL\n");
	ck_assert_str_eq(event("move", "unit=G2 distance=4"), "");
	ck_assert_str_eq(event("unlimber", "unit=G2"),
			 "gun 'G2' moved this turn (event #1): a foot_artillery takes the turn to "
			 "unlimber and does not move (UL - unlimber (1 turn except for horse art.))\n");
	ck_assert_str_eq(event("unlimber", "unit=G3"), "");
	ck_assert_str_eq(event("move", "unit=G3 distance=4"),
			 "gun 'G3' unlimbers this turn (event #3): a foot_artillery takes the turn to "
			 "unlimber and does not move (UL - unlimber (1 turn except for horse art.))\n");
	ck_assert_str_eq(event("unlimber", "unit=HA"), "");
	ck_assert_str_eq(event("move", "unit=HA distance=6"), "");
}
END_TEST

/* A game made before (tables without unlimber_move_checked) records both,
 * as it did. */
START_TEST(unlimber_move_of_a_game_made_before)
{
	tables_without("unlimber_move_checked");
	cast();
	unit("G2", "blue", "kind=foot_artillery formation=limbered figures=10 weapon=none", NULL);
	ck_assert_str_eq(validate("blue", "G2 ↑ 1/2 UL\n"), "");
	orders("G2 ↑ 1/2 UL\n");
	ck_assert_str_eq(event("move", "unit=G2 distance=4"), "");
	ck_assert_str_eq(event("unlimber", "unit=G2"), "");
}
END_TEST

/* D6: a routed unit "moves 3 turns backwards, backs to the enemy": its
 * sheet orders it back or not at all, and the referee's move of it is no
 * longer than the movement chart gives it (a retreating one's too). */
START_TEST(routed_moves_back)
{
	cast();
	split_kv(&ord_ctx_find_unit(ctx, "B1")->state, "failed=1 routed=2 rout_until=5");
	split_kv(&ord_ctx_find_unit(ctx, "B2")->state, "failed=1 retreat_turn=3 dress_until=4");
	assert_has(validate("blue", "B1 → 1\n"), "unit 'B1' is routed until turn 5");
	assert_has(validate("blue", "B1 ← 1/2\n"), "unit 'B1' is routed until turn 5");
	ck_assert_str_eq(validate("blue", "B1 ↓ 1\n"), "");
	ck_assert_str_eq(validate("blue", "B1 ↘ 1\n"), "");
	ck_assert_str_eq(event("move", "unit=B1 distance=40"),
			 "unit 'B1' is routed and moved 40\", but its move is 6\" (line_infantry in "
			 "line, move 6 in.) (movement chart)\n");
	ck_assert_str_eq(event("move", "unit=B2 distance=9.5"),
			 "unit 'B2' retreats and moved 9.5\", but its move is 9\" (line_infantry in "
			 "column, move 8, +1 elite = 9 in.) (movement chart)\n");
}
END_TEST

START_TEST(routed_moves_within)
{
	cast();
	split_kv(&ord_ctx_find_unit(ctx, "B1")->state, "failed=1 routed=2 rout_until=5");
	ck_assert_str_eq(event("move", "unit=B1 distance=6"), "");
}
END_TEST

/* A game made before (tables without routed_moves_checked): a sideways
 * arrow and any distance, as then. */
START_TEST(routed_moves_of_a_game_made_before)
{
	tables_without("routed_moves_checked");
	cast();
	split_kv(&ord_ctx_find_unit(ctx, "B1")->state, "failed=1 routed=2 rout_until=5");
	ck_assert_str_eq(validate("blue", "B1 → 1\n"), "");
	assert_has(validate("blue", "B1 ↑ 1\n"), "unit 'B1' is routed until turn 5");
	ck_assert_str_eq(event("move", "unit=B1 distance=40"), "");
}
END_TEST

/* Review finding: a unit ordered to charge whose move was recorded
 * without charge=yes was a plain move (its allowance, no +1 charging, no
 * charge interval) while its fire was refused as a charging unit's.  Its
 * move is its charge unless the event says charge=no, which is refused;
 * charge=yes for a unit ordered no charge stays refused. */
START_TEST(charge_ordered_is_the_move)
{
	cast();
	orders("R1 ↑ 1 C\nRH ↑ C\nR2 ↑ 1\n");
	/* the charge column's 10", not the move's 8; stored charge=yes, as
	 * the module read it (event_defaults) */
	ck_assert_str_eq(event("move", "unit=R1 distance=10 contact=B1"), "");
	ck_assert_str_eq(last_event_key("charge"), "yes");
	ck_assert_str_eq(event("move", "unit=RH distance=16 charge=no"),
			 "ordered to charge (C): the move of unit 'RH' is its charge, and charge=no "
			 "departs from its sheet: recorded with --override, the unit does not charge "
			 "this turn, and no later event charges for it (a unit moves once a turn) "
			 "(orders may never be changed)\n"
			 "unit 'RH' moved 16\" but its order allows 14\" (light_cavalry in squadron, "
			 "move 14 in.) (movement chart)\n");
	assert_has(event("move", "unit=R2 distance=6 charge=yes"),
		   "unit 'R2' charged but its sheet orders no charge (C) (orders may never be "
		   "changed)\n");
	assert_has(resolve("movement", NULL, 0), "R1: charged 10\" over open ground, into contact "
						 "with B1\n");
	ck_assert_int_eq(state("R1", "charged"), 3);
	ck_assert_int_eq(state("R1", "last_charge"), 3);
	ck_assert_int_eq(state("RH", "charged"), 0);
	/* RH's move, charge=no, settles its C (charge_no_settles) */
	ck_assert_str_eq(execution(), "");
}
END_TEST

/* What the module's check of execution lists, each item "unit kind: msg"
 * with the event kind that carries it out (ord_diag_item_kind: the web
 * page's Record link), a line each (static buffer). */
static const char *execution_kinds(void)
{
	static char out[8192];
	struct ord_buf b = ORD_BUF_INIT;
	struct ord_diag d;
	size_t i;

	ord_diag_init(&d);
	ck_assert_int_eq(rs->check_execution(ctx, &d), 0);
	for (i = 0; i < d.n; i++)
		ord_buf_addf(&b, "%s %s: %s\n", d.items[i].unit, d.items[i].kind, d.items[i].msg);
	ck_assert_uint_lt(b.len, sizeof(out));
	memcpy(out, b.buf, b.len + 1);
	ord_buf_release(&b);
	ord_diag_release(&d);
	return out;
}

/* Web finding: a charge whose move was recorded with charge=no (refused,
 * recorded with --override) stayed on the referee's list, "no charge was
 * recorded", its Record link a move form that refuses a second move.  A
 * unit moves once a turn: its move, charge or not, settles its C; before
 * it, the charge waits for a move */
START_TEST(charge_no_settles_the_charge)
{
	cast();
	orders("RH ↑ C\n");
	ck_assert_str_eq(execution_kinds(),
			 "RH move: ordered to move (↑) but no move was recorded\n"
			 "RH move: ordered to charge (C) but no charge was recorded\n");
	assert_has(event("move", "unit=RH distance=7 charge=no"),
		   "recorded with --override, the unit does not charge this turn");
	ck_assert_str_eq(execution_kinds(), "");
	/* a second move stays refused */
	assert_has(event("move", "unit=RH distance=1 charge=yes"),
		   "unit 'RH' already moved this turn (event #1)");
}
END_TEST

/* A game made before (tables without charge_no_settles) lists the charge
 * after a move of charge=no, and its refusal says nothing of the
 * override, as its audit compares */
START_TEST(charge_no_settles_of_a_game_made_before)
{
	tables_without("charge_no_settles");
	cast();
	orders("RH ↑ C\n");
	ck_assert_str_eq(event("move", "unit=RH distance=7 charge=no"),
			 "ordered to charge (C): the move of unit 'RH' is its charge, and charge=no "
			 "departs from its sheet (orders may never be changed)\n");
	ck_assert_str_eq(execution_kinds(),
			 "RH move: ordered to charge (C) but no charge was recorded\n");
}
END_TEST

/* "forest x1/2 and no charge": a charge ordered over forest is called off
 * by the rules, so its move of charge=no there is taken without an
 * override and settles the C; a charge there is still refused (in the
 * open charge=no still departs from the sheet: charge_no_settles_the_charge) */
START_TEST(charge_declined_in_forest)
{
	cast();
	orders("RH ↑ C\nR1 ↑ 1 C\n");
	assert_has(event("move", "unit=R1 distance=3 terrain=forest"),
		   "may not charge in terrain 'forest'");
	ck_assert_str_eq(event("move", "unit=RH distance=7 terrain=forest charge=no"), "");
	ck_assert_str_eq(last_event_key("charge"), "no");
	ck_assert_str_eq(execution_kinds(), "");
}
END_TEST

/* A game made before (tables without charge_forest_declined) refuses the
 * move of charge=no in forest as departing from the sheet, as its audit
 * compares */
START_TEST(charge_declined_in_forest_of_a_game_made_before)
{
	tables_without("charge_forest_declined");
	cast();
	orders("RH ↑ C\n");
	assert_has(event("move", "unit=RH distance=7 terrain=forest charge=no"),
		   "ordered to charge (C): the move of unit 'RH' is its charge, and charge=no "
		   "departs from its sheet");
}
END_TEST

/* A game made before (tables without charge_moves_checked) reads the
 * event's charge= alone, as it did. */
START_TEST(charge_ordered_of_a_game_made_before)
{
	tables_without("charge_moves_checked");
	cast();
	orders("R1 ↑ 1 C\nRH ↑ C\n");
	ck_assert_str_eq(event("move", "unit=R1 distance=8 contact=B1"), "");
	ck_assert_str_eq(last_event_key("charge"), "no");
	ck_assert_str_eq(event("move", "unit=RH distance=14 charge=no"), "");
	resolve("movement", NULL, 0);
	ck_assert_int_eq(state("R1", "charged"), 0);
	ck_assert_int_eq(state("R1", "last_charge"), 0);
}
END_TEST

/* Review finding: "Those units brought into melee in the movement get to
 * fire as the enemy came at them": a unit charged in the movement fires at
 * its charger though its sheet names another target; at anyone else its
 * sheet's target holds, and so it does for a unit that made the contact
 * itself. */
START_TEST(fire_at_the_charger)
{
	cast();
	orders("B2 @R2\nB1 @R2\nRH ↑ C\n");
	orders("R1 ↑ 1 C\n");
	ck_assert_str_eq(event("move", "unit=R1 distance=10 charge=yes contact=B2"), "");
	ck_assert_str_eq(event("move", "unit=RH distance=14 charge=yes contact=B1"), "");
	resolve("movement", NULL, 0);
	ck_assert_str_eq(event("fire", "unit=B2 target=R1 range=0"), "");
	ck_assert_str_eq(event("fire", "unit=B1 target=R1 range=3"),
			 "unit 'B1' fired at 'R1' but its sheet names '@R2' "
			 "(orders may never be changed)\n");
}
END_TEST

/* Review finding: a move that was no charge but said contact= freed the
 * unit it touched from its sheet's target, so the referee picked the
 * target with one contact= no one could check.  Only a charge (charge=,
 * or the sheet's C) brings the unit into melee "as the enemy came at
 * them"; a plain move's contact holds it to its @target. */
START_TEST(fire_at_a_mover_that_did_not_charge)
{
	cast();
	orders("B1 @R2\nB2 @R2\n");
	orders("R1 ↑ 1/4\nRH ↑ 1 C\n");
	ck_assert_str_eq(event("move", "unit=R1 distance=1 contact=B1"), "");
	/* unsaid: the sheet's C makes RH's move its charge */
	ck_assert_str_eq(event("move", "unit=RH distance=14 contact=B2"), "");
	resolve("movement", NULL, 0);
	ck_assert_str_eq(event("fire", "unit=B1 target=R1 range=0"),
			 "unit 'B1' fired at 'R1' but its sheet names '@R2' "
			 "(orders may never be changed)\n");
	ck_assert_str_eq(event("fire", "unit=B2 target=RH range=0"), "");
}
END_TEST

/* A game made before (tables without fire_at_charger_checked) holds the
 * unit to its sheet's target, as it did. */
START_TEST(fire_at_the_charger_of_a_game_made_before)
{
	tables_without("fire_at_charger_checked");
	cast();
	orders("B2 @R2\n");
	orders("R1 ↑ 1 C\n");
	ck_assert_str_eq(event("move", "unit=R1 distance=10 charge=yes contact=B2"), "");
	resolve("movement", NULL, 0);
	ck_assert_str_eq(event("fire", "unit=B2 target=R1 range=0"),
			 "unit 'B2' fired at 'R1' but its sheet names '@R2' "
			 "(orders may never be changed)\n");
}
END_TEST

/* Review finding: orders the units' state makes impossible were refused
 * only when the referee recorded them, after the seal.  Guns move
 * limbered ("L - limber (1 turn all art.)": no arrow beside L either, the
 * limbering takes the turn) and fire unlimbered, a foot gun from the turn
 * after its UL; UL or L to the state a gun has, a silenced gun's fire, a
 * fire by a unit still in melee or at a destroyed one: refused on the
 * sheet, at the token. */
START_TEST(sheet_state_makes_impossible)
{
	cast();
	unit("G2", "blue", "kind=foot_artillery formation=limbered figures=10 weapon=none", NULL);
	unit("G3", "blue", "kind=foot_artillery formation=unlimbered figures=10 weapon=none",
	     "hits=2 silenced=1");
	unit("R4", "red", "kind=foot_artillery formation=limbered figures=10 weapon=none", NULL);
	unit("R5", "red", "kind=line_infantry formation=line figures=24", NULL);
	ord_kv_set_int(&ord_ctx_find_unit(ctx, "R5")->state, "figures", 0);
	split_kv(&ord_ctx_find_unit(ctx, "B1")->state, "melee_with=R1 melee_since=2");
	/* an unlimbered gun moves no arrow, with L or without */
	ck_assert_str_eq(validate("blue", "G1 Fb @R2 ↑ 1/2\n"),
			 "1:11: gun 'G1' is unlimbered: it must limber (L, a turn) before it moves, so "
			 "no move arrow this turn (L - limber (1 turn all art.))\n");
	ck_assert_str_eq(validate("blue", "G1 L ↑ 1\n"),
			 "1:6: gun 'G1' limbers this turn, which takes the turn: no move arrow beside L "
			 "(it moves from turn 4) (L - limber (1 turn all art.))\n");
	ck_assert_str_eq(validate("blue", "G1 L\n"), "");
	/* a limbered gun fires only unlimbered, a foot gun not in the turn of
	 * its UL; horse artillery does (C-UL-F) */
	ck_assert_str_eq(validate("red", "R4 Fs @B1\n"),
			 "1:4: gun 'R4' is limbered: it fires only unlimbered (UL) (UL - unlimber (1 "
			 "turn except for horse art.))\n");
	ck_assert_str_eq(validate("blue", "G2 UL Fb\n"),
			 "1:7: foot_artillery 'G2' takes the turn to unlimber: it fires from turn 4 (UL - "
			 "unlimber (1 turn except for horse art.))\n");
	ck_assert_str_eq(validate("blue", "G2 UL\nHA ↑ UL Fs @R1\n"), "");
	/* UL or L to the state it has; no fire in the turn it limbers */
	ck_assert_str_eq(validate("blue", "G1 UL Fb\n"),
			 "1:4: gun 'G1' is already unlimbered: UL changes nothing (UL - unlimber (1 turn "
			 "except for horse art.))\n");
	ck_assert_str_eq(validate("blue", "G2 L\n"),
			 "1:4: gun 'G2' is already limbered: L changes nothing (L - limber (1 turn all "
			 "art.))\n");
	ck_assert_str_eq(validate("blue", "G1 L Fg\n"),
			 "1:6: gun 'G1' limbers this turn: it does not fire (a gun fires unlimbered) (L - "
			 "limber (1 turn all art.))\n");
	ck_assert_str_eq(validate("blue", "G3 Fs\n"),
			 "1:4: gun 'G3' is silenced: it fires no more (2 hits knock out artillery)\n");
	/* still in melee from turn 2; a destroyed target */
	ck_assert_str_eq(validate("blue", "B1 @R2\n"),
			 "1:4: unit 'B1' is still in the melee with 'R1' from turn 2: it cannot fire "
			 "(troops still in melee can't fire)\n");
	ck_assert_str_eq(validate("blue", "B2 @R5\n"),
			 "1:4: unit 'B2': target 'R5' is destroyed (no figures left) (units)\n");
	ck_assert_str_eq(validate("blue", "B2 @R2\n"), "");
}
END_TEST

/* A game made before (tables without sheet_state_checked) takes those
 * sheets, as it did; the referee's events refuse them. */
START_TEST(sheet_state_of_a_game_made_before)
{
	tables_without("sheet_state_checked");
	cast();
	unit("R4", "red", "kind=foot_artillery formation=limbered figures=10 weapon=none", NULL);
	split_kv(&ord_ctx_find_unit(ctx, "B1")->state, "melee_with=R1 melee_since=2");
	ck_assert_str_eq(validate("blue", "G1 Fb @R2 ↑ 1/2\n"), "");
	ck_assert_str_eq(validate("blue", "G1 L ↑ 1\n"), "");
	ck_assert_str_eq(validate("red", "R4 Fs @B1\n"), "");
	ck_assert_str_eq(validate("blue", "B1 @R2\nG1 UL Fb\n"), "");
}
END_TEST

/* Review finding: a move's position (x=, y=, for the map) 30" from where
 * the unit stood was recorded with distance=3.  Refused beyond the
 * distance and the tables' position_tolerance (1"), when both positions
 * are known. */
START_TEST(move_position_and_distance)
{
	cast();
	unit("P1", "red", "kind=line_infantry formation=column figures=24 x=12 y=10", NULL);
	unit("P2", "red", "kind=line_infantry formation=column figures=24 x=12 y=10", NULL);
	orders("P1 ↑ 1\nP2 ↑ 1\nR1 ↑ 1\n");
	ck_assert_str_eq(event("move", "unit=P1 distance=3 x=22 y=40"),
			 "unit 'P1' moved 3\" but from where it stood (12, 10) to (22, 40) is 31.6\" (at "
			 "most 4\" with the tables' position_tolerance of 1\") (positions (for the map) "
			 "as the distance measured)\n");
	/* within the tolerance; no position known before: nothing to compare */
	ck_assert_str_eq(event("move", "unit=P2 distance=8 x=12 y=19"), "");
	ck_assert_str_eq(event("move", "unit=R1 distance=8 x=50 y=50"), "");
}
END_TEST

/* A game made before (tables without position_distance_checked) records
 * any position, as it did; tables that switch the check on give its
 * number, or are refused when loaded. */
START_TEST(move_position_of_a_game_made_before)
{
	char *xml;
	struct ord_rules *r = NULL;

	tables_without("position_distance_checked");
	cast();
	unit("P1", "red", "kind=line_infantry formation=column figures=24 x=12 y=10", NULL);
	unit("P2", "red", "kind=line_infantry formation=column figures=24 x=12 y=10", NULL);
	orders("P1 ↑ 1\nP2 ↑ 1\n");
	ck_assert_str_eq(event("move", "unit=P1 distance=3 x=22 y=40"), "");
	/* nor does it keep the distance of a move with no position */
	ck_assert_str_eq(event("move", "unit=P2 distance=3"), "");
	resolve("movement", NULL, 0);
	ck_assert_str_eq(state_str("P2", "unplaced"), "");
	tables_xml(&xml);
	cut_param(xml, "position_tolerance");
	ck_assert_int_eq(rs->load(&r, xml, strlen(xml), "club.xml"), ORD_EBADDATA);
	ck_assert_str_eq(ord_error_last(),
			 "club.xml: position_distance_checked is on but there is no parameter "
			 "'position_tolerance' (the inches a move's position may lie beyond its "
			 "distance)");
	ord_error_clear();
	free(xml);
}
END_TEST

/* A fire's range and the map: a range that differs from the distance
 * between the firer's and the target's positions by more than the tables'
 * range_position_tolerance (6") is refused, when both are known (given,
 * and no move since without one); a screen may be what was measured to. */
START_TEST(fire_range_and_positions)
{
	cast();
	unit("P1", "blue", "kind=line_infantry formation=line figures=24 x=10 y=10", NULL);
	unit("P2", "red", "kind=line_infantry formation=line figures=24 x=10 y=20", NULL);
	unit("P3", "red", "kind=line_infantry formation=line figures=24 x=10 y=20", "unplaced=4");
	unit("P4", "blue", "kind=line_infantry formation=line figures=24 x=10 y=10", NULL);
	unit("PS", "red", "kind=skirmishers formation=skirmish figures=8 x=10 y=13", NULL);
	unit("PG", "blue",
	     "kind=foot_artillery formation=unlimbered figures=10 weapon=none x=0 y=0", NULL);
	orders("PG Fb\n");
	ck_assert_str_eq(event("fire", "unit=P1 target=P2 range=3"),
			 "unit 'P1' fired at 'P2' at range=3\" but 'P1' stands at (10, 10) and 'P2' at "
			 "(10, 20), 10.0\" apart (the range may differ by 6\", the tables' "
			 "range_position_tolerance) (positions (for the map) as the range measured)\n");
	ck_assert_str_eq(event("fire", "unit=B1 target=P2 range=3"), "");
	ck_assert_str_eq(event("fire", "unit=L1 target=P2 range=4"), "");
	/* its position is stale: it moved since without one */
	ck_assert_str_eq(event("fire", "unit=B2 target=P3 range=3"), "");
	/* the skirmishers in the way were measured to */
	ck_assert_str_eq(event("fire", "unit=P4 target=P2 range=3 screen=PS screen_front=6"), "");
	ck_assert_str_eq(event("artillery", "unit=PG target=P2 range=6"),
			 "unit 'PG' fired at 'P2' at range=6\" but 'PG' stands at (0, 0) and 'P2' at "
			 "(10, 20), 22.4\" apart (the range may differ by 6\", the tables' "
			 "range_position_tolerance) (positions (for the map) as the range measured)\n");
}
END_TEST

/* A game made before (tables without range_position_checked) records any
 * range, as it did; tables that switch the check on give its number, or
 * are refused when loaded. */
START_TEST(fire_range_positions_of_a_game_made_before)
{
	char *xml;
	struct ord_rules *r = NULL;

	tables_without("range_position_checked");
	cast();
	unit("P1", "blue", "kind=line_infantry formation=line figures=24 x=10 y=10", NULL);
	unit("P2", "red", "kind=line_infantry formation=line figures=24 x=10 y=20", NULL);
	ck_assert_str_eq(event("fire", "unit=P1 target=P2 range=3"), "");
	tables_xml(&xml);
	cut_param(xml, "range_position_tolerance");
	ck_assert_int_eq(rs->load(&r, xml, strlen(xml), "club.xml"), ORD_EBADDATA);
	ck_assert_str_eq(ord_error_last(),
			 "club.xml: range_position_checked is on but there is no parameter "
			 "'range_position_tolerance' (the inches a fire's range may differ from the "
			 "distance between the units' positions)");
	ord_error_clear();
	free(xml);
}
END_TEST

/* The tables of a game made before the checks of the table checks (no
 * parameter, or 0) let through what they let through then, so that its
 * audit replays its events and repeated sheets as they were recorded. */
START_TEST(checks_of_a_game_made_before)
{
	char *xml, *from, *to;

	tables_xml(&xml);
	from = strstr(xml, "<params name=\"checks\"");
	ck_assert_ptr_nonnull(from);
	to = strstr(from, "</params>") + strlen("</params>");
	memmove(from, to, strlen(to) + 1);
	use_tables(xml, "before.xml");
	cast();
	split_kv(&ord_ctx_find_unit(ctx, "B1")->state, "failed=1 retreat_turn=3 dress_until=4");
	ck_assert_str_eq(validate("blue", "B1 ↑ 1/2\nB2 FCol\n"), "");
	orders("G1 Fg @R1\n");
	ck_assert_str_eq(event("artillery", "unit=G1 target=R1 range=14"), "");
	ck_assert_str_eq(event("fire", "unit=B2 target=R1 range=77"), "");
}
END_TEST

/* A text key that would act on a terminal (the event's reason reaches
 * the player's verify): refused, saying which character where. */
START_TEST(text_key_control_refused)
{
	const struct ord_event_kind *ek = ord_ruleset_event_kind(rs, "exempt");
	char unit[] = "unit=B1", reason[] = "reason=x\x1b[2J", *argv[] = { unit, reason, NULL };
	struct ord_diag d;
	struct ord_kv kv;

	ck_assert_ptr_nonnull(ek);
	ord_diag_init(&d);
	ord_kv_init(&kv);
	ord_keys_check(&kv, ek->keys, 2, argv, &d);
	ck_assert_uint_eq(d.n, 1);
	ck_assert_str_eq(d.items[0].msg, "reason: 'x\\x1b[2J' holds the control or invisible "
					 "character U+001B at character 2 (expected one line of "
					 "plain text)");
	ck_assert_ptr_null(ord_kv_get(&kv, "reason"));
	ord_kv_release(&kv);
	ord_diag_release(&d);
}
END_TEST

/* "Units on hilltops ... cause 1/4 more casualties, and if meleed, are +1
 * on the die": the side's hilltop (b_hill) gives its whole blow 1/4 more,
 * the points of the unit beside the first in it, so that unit has the +1
 * on its die too (melee_hill_whole_side), and may not have moved into the
 * contact; a game made before gave it the 1/4 alone */
static void hill_two_units(void)
{
	unit("B1", "blue", "kind=line_infantry formation=line figures=24", NULL);
	unit("B2", "blue", "kind=line_infantry formation=line figures=24", NULL);
	unit("R1", "red", "kind=line_infantry formation=column figures=24", NULL);
	unit("R2", "red", "kind=line_infantry formation=column figures=24", NULL);
	orders("R1 ↑ C\nR2 ↑ C\n");
	ck_assert_str_eq(event("move", "unit=R1 distance=10 contact=B1"), "");
	ck_assert_str_eq(event("move", "unit=R2 distance=10 contact=B2"), "");
	resolve("movement", NULL, 0);
}

START_TEST(melee_hill_whole_side)
{
	static const int dice[] = { 1, 3 };
	hill_two_units();
	ck_assert_str_eq(event("melee", "a=R1 a2=R2 b=B1 b2=B2 b_hill=yes"), "");
	assert_has(resolve("melee", dice, 2),
		   "B2's 24 line_infantry × 3 = 72 pts × (d6 3, +1 defending a hilltop = 4) = 288; "
		   "B1 and B2 together 144 pts, 576");
	/* R2 beside R1 moved into the contact: its side attacks */
	assert_has(event("melee", "a=B1 b=R1 b2=R2 b_hill=yes"),
		   "b_hill=yes, but 'R2' beside 'R1' moved into contact with 'B2' this turn: it "
		   "attacks, and the hilltop's +1 and 1/4 more are its side's defenders' (expected "
		   "no hill for that side, or 'R2' out of this melee) (units on hilltops defending "
		   "against an attack from a slope)\n");
}
END_TEST

START_TEST(melee_hill_whole_side_of_a_game_made_before)
{
	static const int dice[] = { 1, 3 };
	tables_without("melee_hill_whole_side");
	hill_two_units();
	ck_assert_str_eq(event("melee", "a=R1 a2=R2 b=B1 b2=B2 b_hill=yes"), "");
	assert_has(resolve("melee", dice, 2),
		   "B2's 24 line_infantry × 3 = 72 pts × (d6 3) = 216; B1 and B2 together 144 pts, "
		   "504; R1 and R2 win");
}
END_TEST

Suite *ord_test_suite(void)
{
	Suite *s = suite_create("battalion");
	TCase *sheet = tcase_create("sheet"), *ev = tcase_create("events"),
	      *res = tcase_create("resolution");

	tcase_add_checked_fixture(sheet, setup, teardown);
	tcase_add_test(sheet, sheet_valid);
	tcase_add_test(sheet, sheet_unknown_unit);
	tcase_add_test(sheet, sheet_other_side);
	tcase_add_test(sheet, sheet_two_orders);
	tcase_add_test(sheet, sheet_code_for_kind);
	tcase_add_test(sheet, sheet_two_formations);
	tcase_add_test(sheet, cavalry_does_not_fire);
	tcase_add_test(sheet, sheet_charge_interval);
	tcase_add_test(sheet, sheet_charge_interval_edge);
	tcase_add_test(sheet, rule_numbers_come_from_the_tables);
	tcase_add_test(sheet, sheet_charge_and_fire);
	tcase_add_test(sheet, sheet_charge_formation);
	tcase_add_test(sheet, sheet_charge_and_form);
	tcase_add_test(sheet, sheet_charge_and_form_of_a_game_made_before);
	tcase_add_test(sheet, sheet_charges_as_the_chart);
	tcase_add_test(sheet, sheet_codes_as_the_table);
	tcase_add_test(sheet, kinds_as_the_table);
	tcase_add_test(sheet, sheet_many_problems);
	tcase_add_test(sheet, sheet_target);
	tcase_add_test(sheet, sheet_units_that_cannot_act);
	tcase_add_test(sheet, routed_gun_limbers_first);
	tcase_add_test(sheet, sheet_formation_change_moves);
	tcase_add_test(sheet, sheet_retreating_or_dressing);
	tcase_add_test(sheet, sheet_same_formation);
	tcase_add_test(sheet, sheet_state_makes_impossible);
	tcase_add_test(sheet, sheet_state_of_a_game_made_before);
	suite_add_tcase(s, sheet);

	tcase_add_checked_fixture(ev, setup, teardown);
	tcase_add_test(ev, event_removed);
	tcase_add_test(ev, event_lists_in_place_and_grown);
	tcase_add_test(ev, move_fraction);
	tcase_add_test(ev, move_fraction_half_line);
	tcase_add_test(ev, move_terrain);
	tcase_add_test(ev, move_charge_bonuses);
	tcase_add_test(ev, move_unordered);
	tcase_add_test(ev, form_unordered);
	tcase_add_test(ev, charge_unordered);
	tcase_add_test(ev, form_and_unlimber_once);
	tcase_add_test(ev, charge_interval);
	tcase_add_test(ev, move_guns);
	tcase_add_test(ev, move_dressing_ranks);
	tcase_add_test(ev, move_retreating);
	tcase_add_test(ev, shot_other_than_ordered);
	tcase_add_test(ev, shot_not_ordered);
	tcase_add_test(ev, shot_target_free);
	tcase_add_test(ev, gun_hill_needs_its_row);
	tcase_add_test(ev, fire_kinds);
	tcase_add_test(ev, fire_while_charging);
	tcase_add_test(ev, fire_charged_by_event);
	tcase_add_test(ev, fire_in_melee);
	tcase_add_test(ev, artillery_in_melee_or_charging);
	tcase_add_test(ev, fire_woods);
	tcase_add_test(ev, fire_woods_of_a_game_made_before);
	tcase_add_test(ev, gun_formation_words);
	tcase_add_test(ev, gun_formation_words_of_a_game_made_before);
	tcase_add_test(ev, artillery_woods);
	tcase_add_test(ev, fire_routed);
	tcase_add_test(ev, fire_destroyed);
	tcase_add_test(ev, artillery_unlimbered);
	tcase_add_test(ev, artillery_unlimbered_last_turn);
	tcase_add_test(ev, artillery_silenced);
	tcase_add_test(ev, fire_screened);
	tcase_add_test(ev, fire_skirmisher_stands);
	tcase_add_test(ev, fire_skirmisher_stands_default);
	tcase_add_test(ev, fire_screen_destroyed);
	tcase_add_test(ev, artillery_over_friends);
	tcase_add_test(ev, melee_checks);
	tcase_add_test(ev, halt_check);
	tcase_add_test(ev, exempt_needs_override);
	tcase_add_test(ev, test_checks);
	tcase_add_test(ev, melee_needs_contact);
	tcase_add_test(ev, contact_by_the_mover);
	tcase_add_test(ev, no_melee_of_two_that_stood);
	tcase_add_test(ev, contact_by_a_unit_that_stood_of_a_game_made_before);
	tcase_add_test(ev, fire_firers);
	tcase_add_test(ev, melee_fresh);
	tcase_add_test(ev, melee_fresh_arrives);
	tcase_add_test(ev, melee_whole_battalion);
	tcase_add_test(ev, artillery_out_of_range);
	tcase_add_test(ev, checks_of_a_game_made_before);
	tcase_add_test(ev, unlimber_takes_the_turn);
	tcase_add_test(ev, unlimber_move_of_a_game_made_before);
	tcase_add_test(ev, routed_moves_back);
	tcase_add_test(ev, routed_moves_within);
	tcase_add_test(ev, routed_moves_of_a_game_made_before);
	tcase_add_test(ev, charge_ordered_is_the_move);
	tcase_add_test(ev, charge_ordered_of_a_game_made_before);
	tcase_add_test(ev, charge_no_settles_the_charge);
	tcase_add_test(ev, charge_no_settles_of_a_game_made_before);
	tcase_add_test(ev, charge_declined_in_forest);
	tcase_add_test(ev, charge_declined_in_forest_of_a_game_made_before);
	tcase_add_test(ev, fire_at_the_charger);
	tcase_add_test(ev, fire_at_a_mover_that_did_not_charge);
	tcase_add_test(ev, fire_at_the_charger_of_a_game_made_before);
	tcase_add_test(ev, move_position_and_distance);
	tcase_add_test(ev, move_position_of_a_game_made_before);
	tcase_add_test(ev, fire_range_and_positions);
	tcase_add_test(ev, fire_range_positions_of_a_game_made_before);
	suite_add_tcase(s, ev);

	tcase_add_checked_fixture(res, setup, teardown);
	tcase_add_test(res, resolve_fire_example);
	tcase_add_test(res, resolve_melee_example);
	tcase_add_test(res, resolve_melee_skirmish_order);
	tcase_add_test(res, resolve_melee_skirmish_order_of_a_game_made_before);
	tcase_add_test(res, resolve_charged_unit_tests);
	tcase_add_test(res, resolve_destroyed_by_fire_of_a_game_made_before);
	tcase_add_test(res, resolve_melee_ended);
	tcase_add_test(res, execution_names_a_melee_that_goes_on);
	tcase_add_test(res, resolve_tie);
	tcase_add_test(res, resolve_tie_deferred_test);
	tcase_add_test(res, resolve_tie_of_a_game_made_before);
	tcase_add_test(res, resolve_destroyed_in_melee);
	tcase_add_test(res, resolve_pursuit);
	tcase_add_test(res, resolve_pursuit_after_retreat);
	tcase_add_test(res, resolve_pursuit_of_a_game_made_before);
	tcase_add_test(res, resolve_routed_no_melee_value);
	tcase_add_test(res, melee_routed_of_a_game_made_before);
	tcase_add_test(res, resolve_halt);
	tcase_add_test(res, resolve_rout_penalty);
	tcase_add_test(res, resolve_morale20);
	tcase_add_test(res, resolve_melee_morale_d20);
	tcase_add_test(res, resolve_fire_screened);
	tcase_add_test(res, resolve_skirmishers_fired_at);
	tcase_add_test(res, resolve_cavalry_has_no_column);
	tcase_add_test(res, resolve_two_on_one);
	tcase_add_test(res, resolve_artillery_square);
	tcase_add_test(res, resolve_horse_artillery_moved);
	tcase_add_test(res, resolve_horse_artillery_moved_of_a_game_made_before);
	tcase_add_test(res, cavalry_and_guns_have_no_trays);
	tcase_add_test(res, resolve_charge_bonus_against_the_charged);
	tcase_add_test(res, resolve_one_melee_a_turn);
	tcase_add_test(res, resolve_charge_bonus_against_the_second_named);
	tcase_add_test(res, resolve_pursuit_by_the_unit_beside);
	tcase_add_test(res, resolve_artillery_out_of_range);
	tcase_add_test(res, resolve_gun_hits);
	tcase_add_test(res, execution_lists_what_was_not_done);
	tcase_add_test(res, load_needs_order_codes);
	tcase_add_test(res, load_melee_points_as);
	tcase_add_test(res, init_unit_kind_not_in_tables);
	tcase_add_test(res, given_tables_unknown_name);
	tcase_add_test(res, init_unit_rows_not_in_tables);
	tcase_add_test(res, init_unit_gun_crew);
	tcase_add_test(res, init_unit_squadron);
	tcase_add_test(res, table_values_are_used);
	tcase_add_test(res, morale_tables_checked_at_load);
	tcase_add_test(res, reports_use_declared_keys);
	tcase_add_test(res, results_shown_in_trays);
	tcase_add_test(res, results_shown_fire);
	tcase_add_test(res, results_shown_pursuit);
	tcase_add_test(res, results_shown_unnamed);
	tcase_add_test(res, text_key_control_refused);
	tcase_add_test(res, melee_hill_whole_side);
	tcase_add_test(res, melee_hill_whole_side_of_a_game_made_before);
	suite_add_tcase(s, res);
	return s;
}
