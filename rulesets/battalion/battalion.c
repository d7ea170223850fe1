/*
 * battalion.c - the battalion ruleset module: the English battalion/tray
 * rules with simultaneous movement (shared/rules/battalion-simultaneous.txt).
 *
 * The numbers live in tables.xml and are computed by calc.c; this file is
 * the glue to the turn cycle: the unit attributes a scenario gives, the
 * checks of a sheet, the referee's events and their checks against the
 * sealed orders, the resolution of the five phases and the unit state.
 * Every number comes from the tables (param(), calc.h); bat_module_load
 * refuses tables that lack one this file reads.
 *
 * Unit state keys (all integers unless said; a turn of 0 means never):
 *   figures, losses, trays, carried   strength: trays removed, remainder carried
 *   formation                         line column square skirmish misc limbered unlimbered
 *   class                             the d20 chart class (drops after a d20 rout)
 *   failed                            1 once the unit has failed a morale test
 *   retreat_turn                      the turn it must retreat
 *   routed, rout_until                the turn it routed, the last turn of the rout
 *   penalty_until                     the last turn of the routed -3 on tests
 *   dress_until                       the last turn it dresses its ranks (no move forward)
 *   last_charge                       turn of its last charge
 *   moved, changed, charged, contact  the turn it moved, changed formation, charged, made contact
 *   unlimbered                        turn it unlimbered (artillery)
 *   hits, silenced                    artillery hits taken; 1 when the gun is out
 *   fired_on                          turn it was hit by fire
 *   loss_turn, turn_losses            figures lost in turn loss_turn (for morale)
 *   deferred                          turn its fire-morale test waits for the melee
 *   fought, lost_melee, tied_melee    turn it fought, lost, drew a melee
 *   melee_with, melee_since           the enemy it is locked in melee with (id), since when
 * A string read from a unit's state is never kept across a write to that
 * state: the list may move its strings when it changes (core/kv.c).
 *
 * Rules decisions (where the text is silent or ambiguous; the numbers are
 * in tables.xml, these are about what applies when):
 *  D1  New people in melee (+1): in a new melee both sides are new people;
 *      in a continuing melee only a side the referee says was joined by new
 *      men (a_fresh/b_fresh=yes), as in "should new men arrive ... +1".
 *  D2  Equal melee scores: no winner; each side inflicts as a loser (the
 *      tables' tie_divisor), both test morale without the "just lost a
 *      melee" -2, and the melee continues if both hold.
 *  D3  A unit that made melee contact in the turn it was fired on skips the
 *      fire-morale test and "wouldn't check morale until after the melee":
 *      if it loses, its loser's test counts all the turn's losses; if it
 *      wins it does not test; if no melee is recorded for it, it takes the
 *      deferred test in the melee-morale phase.
 *  D4  Pursuit: cavalry whose infantry enemy fails its melee-morale test
 *      (retreat or rout) and that did not fail one itself re-fights the
 *      melee at once unless the referee records `halt`.  The cavalry is in
 *      motion (+1); nobody is fresh or charging; column, elite and square
 *      adjustments apply as in any melee; the casualties the cavalry
 *      inflicts get the tables' pursuit factor.  The re-fight only takes
 *      casualties: nobody tests morale again.
 *  D5  Routed units cannot fire and have no melee value: a melee with a
 *      routed unit is refused (the referee may override; it then fights
 *      with its figures).  In a pursuit the broken infantry re-fights with
 *      its figures, as the rule says "refight the melee".
 *  D6  Morale outcomes: a retreat is the next turn, then dress_ranks_turns
 *      of dressing ranks; a rout lasts rout_turns turns from the next one,
 *      then the unit dresses its ranks like any retreating unit.  A unit
 *      dressing its ranks may not move forward (an arrow within 90 degrees
 *      of the enemy).  The routed -3 applies to tests in the
 *      rout_penalty_turns turns after the rout, not in the turn itself.
 *      A failed test ends any melee the unit is in.
 *  D7  A unit moves at the allowance of the formation it has at the start
 *      of the turn: a formation change takes the turn.  A change may come
 *      with a move arrow (the notation's own example "^ 1/2 FCol"); when
 *      the unit fires, both -1/4s apply.  A unit whose order has no arrow
 *      may not move.
 *  D8  Guns move limbered: an unlimbered gun that moves is refused (L
 *      takes the turn).  A gun fires only unlimbered, and in the turn it
 *      unlimbered only when its kind's unlimber time is 0 turns (horse
 *      artillery).  Limbering or unlimbering a gun already so is refused.
 *  D9  "Artillery may choose any target": the choice is written on the
 *      sheet; firing at another unit than its @target differs from the
 *      orders, for guns as for battalions.  Without @target any enemy may
 *      be fired at.
 *  D10 The artillery to-hit die is rolled for every shot in range, grape
 *      too (it always hits: the roll is shown but cannot miss); a shot out
 *      of range rolls nothing and does nothing.
 *  D11 A gun's crew fired at counts as a line (no formation modifier).
 *      Units with no small arms (weapon none) cannot use the fire event.
 *  D12 Cover: a unit in woods does not fire, and a target in woods beyond
 *      woods_fired_on_within cannot be fired at; both are refused.
 *  D13 A unit charges again at the earliest charge_interval turns after its
 *      last charge (charged in 1: again in 4).
 *  D14 A melee from an earlier turn that the referee does not record again
 *      has ended (the units were separated): it is closed, with a result
 *      line, when the melee phase is resolved.
 *  D15 A unit with no figures left is destroyed: it cannot move, fire or
 *      fight; a melee event naming one is refused.
 *  D16 Whether the firer moved or changed formation is read off its sheet
 *      (an arrow, a form code) or from what it did (a move, a form event);
 *      whether the target moved, from what it did.
 *  D17 Unless the referee counts them (firers=N), a column fires with
 *      column_firers figures (its first two ranks) and every other
 *      formation with all its figures: for a square or skirmishers the
 *      referee says how many could fire.
 *  D18 An artillery hit on a gun both kills crew (the table's dead) and
 *      counts towards the gun_hits_silence hits that silence it.
 *  NEEDSWORK: the melee-morale test always uses the d6 rules; the d20
 *  chart is only reachable through `test chart=d20` in fire-morale.
 *  NEEDSWORK: the notation writes fractions in quarters; the tables'
 *  move_fraction_parts is taken to be 4.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tables.h"
#include "rulesets/battalion/calc.h"
#include "rulesets/battalion/draw.h"
#include "ruleset.h"

/* ---- declarations: phases, attributes, events ---- */

static const char *const phases[] = {
	"movement", "fire", "fire-morale", "melee", "melee-morale", NULL,
};

#define KINDS \
	"line_infantry|light_infantry|skirmishers|light_cavalry|heavy_cavalry|foot_artillery|horse_artillery"

static const struct ord_key_spec unit_attrs[] = {
	{ "kind", ORD_KEY_ENUM, 1, KINDS, 0, 0, NULL, "the arm and type of the unit" },
	{ "formation", ORD_KEY_ENUM, 0, "line|column|square|skirmish|misc|limbered|unlimbered", 0,
	  0, "line", "formation at the start" },
	{ "figures", ORD_KEY_INT, 1, NULL, 1, 10000, NULL, "figures (gunners for artillery)" },
	{ "quality", ORD_KEY_ENUM, 0, "line|elite|militia", 0, 0, "line", "troop quality" },
	{ "class", ORD_KEY_ENUM, 0, "A|B|C|D|E", 0, 0, "C", "morale class (optional d20 chart)" },
	{ "weapon", ORD_KEY_ENUM, 0, "musket|rifle|none", 0, 0, "musket", "small arms" },
	BAT_POSITION_KEYS,
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

static const struct ord_key_spec move_keys[] = {
	{ "unit", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the unit that moved" },
	{ "distance", ORD_KEY_NUM, 1, NULL, 0, 200, NULL, "inches measured on the table" },
	{ "terrain", ORD_KEY_ENUM, 0, "open|road|forest", 0, 0, "open", "ground moved over" },
	{ "charge", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "the move was a charge" },
	{ "contact", ORD_KEY_UNIT, 0, NULL, 0, 0, NULL, "the enemy it made melee contact with" },
	BAT_POSITION_KEYS,
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};
static const struct ord_key_spec form_keys[] = {
	{ "unit", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the unit" },
	{ "formation", ORD_KEY_ENUM, 1, "line|column|square|skirmish", 0, 0, NULL, "the new formation" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};
static const struct ord_key_spec gun_keys[] = {
	{ "unit", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the gun" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};
static const struct ord_key_spec fire_keys[] = {
	{ "unit", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the firing unit" },
	{ "target", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the unit fired at" },
	{ "range", ORD_KEY_NUM, 1, NULL, 0, 500, NULL, "inches, middle stand to nearest enemy" },
	{ "firers", ORD_KEY_INT, 0, NULL, 1, 10000, NULL,
	  "figures that can fire (default by formation)" },
	{ "enfilade", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "the target is enfiladed" },
	{ "target_in_woods", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "the target is in woods" },
	{ "firer_in_woods", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "the firer is in woods" },
	{ "hill", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "the firer defends a hilltop" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};
static const struct ord_key_spec artillery_keys[] = {
	{ "unit", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the gun" },
	{ "target", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the unit fired at" },
	{ "range", ORD_KEY_NUM, 1, NULL, 0, 500, NULL, "inches" },
	{ "shot", ORD_KEY_ENUM, 0, "ball|shell|grape", 0, 0, NULL,
	  "the shot fired (must be the one ordered)" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};
static const struct ord_key_spec test_keys[] = {
	{ "unit", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the unit that tests its morale" },
	{ "chart", ORD_KEY_ENUM, 0, "d6|d20", 0, 0, "d6", "the d6 rules or the optional d20 chart" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};
static const struct ord_key_spec exempt_keys[] = {
	{ "unit", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the unit that does not test" },
	{ "reason", ORD_KEY_STR, 1, NULL, 0, 0, NULL, "why (e.g. enfiladed, tests after the melee)" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};
static const struct ord_key_spec melee_keys[] = {
	{ "a", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "one unit in contact" },
	{ "b", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the enemy unit in contact" },
	{ "a_figures", ORD_KEY_INT, 0, NULL, 1, 10000, NULL, "figures of a engaged (default: all)" },
	{ "b_figures", ORD_KEY_INT, 0, NULL, 1, 10000, NULL, "figures of b engaged (default: all)" },
	{ "a_fresh", ORD_KEY_BOOL, 0, NULL, 0, 0, NULL, "new men join a (default: yes in a new melee)" },
	{ "b_fresh", ORD_KEY_BOOL, 0, NULL, 0, 0, NULL, "new men join b" },
	{ "a_hill", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "a defends a hilltop" },
	{ "b_hill", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "b defends a hilltop" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};
static const struct ord_key_spec halt_keys[] = {
	{ "unit", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "cavalry that will not pursue" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

static const struct ord_event_kind events[] = {
	{ "move", "movement", move_keys, "a unit moved (distance measured on the table)" },
	{ "form", "movement", form_keys, "a unit changed formation (line, column, square, skirmish)" },
	{ "limber", "movement", gun_keys, "a gun limbered" },
	{ "unlimber", "movement", gun_keys, "a gun unlimbered" },
	{ "fire", "fire", fire_keys, "musket or rifle fire at a target" },
	{ "artillery", "fire", artillery_keys, "a gun fired at a target" },
	{ "test", "fire-morale", test_keys, "a morale test (automatic for every unit that took fire)" },
	{ "exempt", "fire-morale", exempt_keys, "a unit that took fire but does not test now" },
	{ "melee", "melee", melee_keys, "two units in contact fight" },
	{ "halt", "melee-morale", halt_keys, "cavalry that breaks infantry but does not pursue" },
	{ NULL, NULL, NULL, NULL },
};

/* What this file reads from the tables beyond what bat_load insists on. */
static const char *const module_params[] = {
	"figures_per_tray",      "column_firers",        "gun_hits_silence", "charge_interval",
	"unlimber_turns",        "unlimber_turns_horse", "rout_turns",       "rout_penalty_turns",
	"dress_ranks_turns",     "artillery_die",        "morale_die",       "melee_die",
	"woods_fired_on_within",
};

/* ---- helpers ---- */

static struct bat_rules *R(struct ord_ctx *ctx)
{
	return bat_rules(ord_ctx_rules(ctx));
}

/* A parameter bat_module_load has checked: the lookup cannot fail. */
static double param(struct ord_ctx *ctx, const char *name)
{
	double v = 0;

	bat_param(R(ctx), name, &v);
	return v;
}

static long iparam(struct ord_ctx *ctx, const char *name)
{
	return lround(param(ctx, name));
}

static long st(const struct ord_unit *u, const char *key)
{
	return ord_kv_get_int(&u->state, key, 0);
}

static void st_set(struct ord_unit *u, const char *key, long v)
{
	ord_kv_set_int(&u->state, key, v);
}

static const char *kind(const struct ord_unit *u)
{
	const char *k = ord_kv_get(&u->attrs, "kind");
	return k ? k : "";
}

/* The arm of a unit's kind (infantry, cavalry, artillery) from the tables. */
static const char *arm(struct ord_ctx *ctx, const struct ord_unit *u)
{
	const struct ord_table *t = ord_tables_get(R(ctx)->tables, "kinds");
	const struct ord_row *row;
	struct ord_kv m;
	const char *a = "";

	ord_kv_init(&m);
	ord_kv_set(&m, "kind", kind(u));
	if (t && !ord_table_find(&row, t, &m))
		a = ord_row_str(row, "arm");
	ord_kv_release(&m);
	ord_error_clear();
	return a ? a : "";
}

static int is_arm(struct ord_ctx *ctx, const struct ord_unit *u, const char *a)
{
	return !strcmp(arm(ctx, u), a);
}

static const char *formation(const struct ord_unit *u)
{
	const char *f = ord_kv_get(&u->state, "formation");
	return f ? f : "line";
}

/* The formation as the fire and movement charts know it: a gun, limbered
 * or not, counts as a line (D11). */
static const char *chart_formation(const struct ord_unit *u)
{
	const char *f = formation(u);
	return strstr(f, "limbered") ? "line" : f;
}

static int is_elite(const struct ord_unit *u)
{
	const char *q = ord_kv_get(&u->attrs, "quality");
	return q && !strcmp(q, "elite");
}

static int is_militia(const struct ord_unit *u)
{
	const char *q = ord_kv_get(&u->attrs, "quality");
	return q && !strcmp(q, "militia");
}

static int routed(struct ord_ctx *ctx, const struct ord_unit *u)
{
	return st(u, "routed") && st(u, "rout_until") >= ord_ctx_turn(ctx);
}

static int retreating(struct ord_ctx *ctx, const struct ord_unit *u)
{
	return st(u, "retreat_turn") == ord_ctx_turn(ctx);
}

static int dressing(struct ord_ctx *ctx, const struct ord_unit *u)
{
	return !routed(ctx, u) && !retreating(ctx, u) && st(u, "dress_until") >= ord_ctx_turn(ctx);
}

static const char *melee_with(const struct ord_unit *u)
{
	const char *w = ord_kv_get(&u->state, "melee_with");
	return w && *w ? w : NULL;
}

/* Locked in a melee that began in an earlier turn. */
static int still_in_melee(struct ord_ctx *ctx, const struct ord_unit *u)
{
	return melee_with(u) && st(u, "melee_since") < ord_ctx_turn(ctx);
}

static int is_horse_artillery(const struct ord_unit *u)
{
	return !strcmp(kind(u), "horse_artillery");
}

/* The formation a form code orders, or NULL. */
static const char *form_code_formation(const char *code)
{
	static const char *const map[][2] = {
		{ "FLn", "line" },
		{ "FCol", "column" },
		{ "FSk", "skirmish" },
		{ "FSq", "square" },
	};
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(map); i++)
		if (!strcmp(code, map[i][0]))
			return map[i][1];
	return NULL;
}

static const char *fire_code_shot(const char *code)
{
	if (!strcmp(code, "Fb"))
		return "ball";
	if (!strcmp(code, "Fs"))
		return "shell";
	if (!strcmp(code, "Fg"))
		return "grape";
	return NULL;
}

static const struct ord_token *order_form(const struct ord_order *o)
{
	size_t i;

	for (i = 0; o && i < o->ntok; i++)
		if (o->tok[i].kind == ORD_TOK_CODE && form_code_formation(o->tok[i].value))
			return &o->tok[i];
	return NULL;
}

static const struct ord_token *order_fire(const struct ord_order *o)
{
	size_t i;

	for (i = 0; o && i < o->ntok; i++)
		if (o->tok[i].kind == ORD_TOK_CODE && fire_code_shot(o->tok[i].value))
			return &o->tok[i];
	return NULL;
}

static int order_has(const struct ord_order *o, const char *code)
{
	return o && ord_order_code(o, code) != NULL;
}

/* Quarters of the move ordered: the fraction, or the whole move after an arrow. */
static int ordered_quarters(struct ord_ctx *ctx, const struct ord_order *o)
{
	const struct ord_token *f = o ? ord_order_find(o, ORD_TOK_FRAC) : NULL;

	if (f)
		return f->num;
	return o && ord_order_find(o, ORD_TOK_DIR) ? (int)iparam(ctx, "move_fraction_parts") : 0;
}

/* The order's arrow points forward: within 90 degrees of the enemy. */
static int order_forward(const struct ord_order *o)
{
	const struct ord_token *d = o ? ord_order_find(o, ORD_TOK_DIR) : NULL;

	return d && (d->num < 90 || d->num > 270);
}

static struct ord_unit *ev_unit(struct ord_ctx *ctx, const struct ord_event *ev, const char *key)
{
	const char *v = ord_kv_get(&ev->kv, key);
	return v ? ord_ctx_find_unit(ctx, v) : NULL;
}

/* A unit's losses: trays are removed per figures_per_tray, the rest carried. */
static void take_losses(struct ord_ctx *ctx, struct ord_unit *u, int n)
{
	long fpt = iparam(ctx, "figures_per_tray");
	long figures = st(u, "figures"), losses;

	if (n > figures)
		n = (int)figures;
	if (n < 0)
		n = 0;
	losses = st(u, "losses") + n;
	st_set(u, "figures", figures - n);
	st_set(u, "losses", losses);
	st_set(u, "trays", fpt > 0 ? losses / fpt : 0);
	st_set(u, "carried", fpt > 0 ? losses % fpt : 0);
	if (st(u, "loss_turn") != ord_ctx_turn(ctx)) {
		st_set(u, "loss_turn", ord_ctx_turn(ctx));
		st_set(u, "turn_losses", 0);
	}
	st_set(u, "turn_losses", st(u, "turn_losses") + n);
}

static long turn_losses(struct ord_ctx *ctx, const struct ord_unit *u)
{
	return st(u, "loss_turn") == ord_ctx_turn(ctx) ? st(u, "turn_losses") : 0;
}

/* ---- load, units ---- */

/* bat_load, then what this file reads: a club's edited tables fail when
 * they are loaded rather than in the middle of a turn. */
static int bat_module_load(struct ord_rules **out, const char *xml, size_t len, const char *name)
{
	struct ord_rules *rules = NULL;
	const struct bat_rules *r;
	const struct ord_table *t;
	double v;
	size_t i;
	int err;

	*out = NULL;
	if ((err = bat_load(&rules, xml, len, name)) != 0)
		return err;
	r = bat_rules(rules);
	for (i = 0; i < ORD_ARRAY_SIZE(module_params); i++)
		if (bat_param(r, module_params[i], &v)) {
			err = ord_error_set(ORD_EBADDATA, "%s: no parameter '%s'",
					    ord_tables_name(r->tables), module_params[i]);
			goto out;
		}
	if ((err = ord_tables_find(&t, r->tables, "order_codes", ORD_TABLE_CHART)) != 0) {
		if (err == ORD_ENOTFOUND)
			err = ORD_EBADDATA;
		goto out;
	}
	if (ord_table_die(ord_tables_get(r->tables, "morale20")) < 2) {
		err = ord_error_set(ORD_EBADDATA, "%s: table 'morale20' must say its die (die=\"20\")",
				    ord_tables_name(r->tables));
		goto out;
	}
	if (ord_table_nkeys(t) != 2 || strcmp(ord_table_key(t, 0), "code") ||
	    strcmp(ord_table_key(t, 1), "kind")) {
		err = ord_error_set(ORD_EBADDATA,
				    "%s:%u: table 'order_codes' must have the keys 'code kind'",
				    ord_tables_name(r->tables), ord_table_line(t));
		goto out;
	}
	*out = rules;
	rules = NULL;
out:
	bat_free(rules);
	return err;
}

static int bat_init_unit(struct ord_rules *rules, struct ord_unit *u, struct ord_diag *diag)
{
	const char *f = ord_kv_get(&u->attrs, "formation");
	const char *k = ord_kv_get(&u->attrs, "kind");

	(void)rules;
	(void)diag;
	if (k && strstr(k, "artillery") && (!f || (strcmp(f, "limbered") && strcmp(f, "unlimbered"))))
		f = "limbered";
	ord_kv_set(&u->state, "figures", ord_kv_get(&u->attrs, "figures"));
	bat_position_init(u);
	ord_kv_set(&u->state, "losses", "0");
	ord_kv_set(&u->state, "trays", "0");
	ord_kv_set(&u->state, "carried", "0");
	ord_kv_set(&u->state, "formation", f ? f : "line");
	ord_kv_set(&u->state, "class",
		   ord_kv_get(&u->attrs, "class") ? ord_kv_get(&u->attrs, "class") : "C");
	ord_kv_set(&u->state, "failed", "0");
	ord_kv_set(&u->state, "last_charge", "0");
	return 0;
}

/* ---- sheet validation ---- */

/* May a unit of this kind take this code?  The table order_codes says;
 * when not, `who` gets the kinds that may ("line_infantry light_infantry"). */
static int code_allowed(struct ord_ctx *ctx, const char *code, const char *k, struct ord_buf *who)
{
	const struct ord_table *t = ord_tables_get(R(ctx)->tables, "order_codes");
	const struct ord_row *row;
	struct ord_kv m;
	size_t i;
	int ok;

	ord_kv_init(&m);
	ord_kv_set(&m, "code", code);
	ord_kv_set(&m, "kind", k);
	ok = !ord_table_find(&row, t, &m);
	ord_kv_release(&m);
	ord_error_clear();
	if (ok)
		return 1;
	/* every row that lists the code adds its kinds */
	for (i = 0; i < ord_table_nrows(t); i++) {
		const struct ord_row *r = ord_table_row(t, i);
		const char *codes = ord_row_str(r, "code"), *p = codes;
		size_t n = strlen(code);

		while (p && (p = strstr(p, code)) != NULL) {
			if ((p == codes || p[-1] == ' ') && (p[n] == ' ' || !p[n])) {
				if (who->len)
					ord_buf_addch(who, ' ');
				ord_buf_adds(who, ord_row_str(r, "kind"));
				break;
			}
			p += n;
		}
	}
	if (!who->len)
		ord_buf_adds(who, "no kind");
	return 0;
}

static int bat_validate_sheet(struct ord_ctx *ctx, const struct ord_sheet *sheet, struct ord_diag *diag)
{
	const char *side = ord_ctx_side(ctx);
	int turn = ord_ctx_turn(ctx);
	long interval = iparam(ctx, "charge_interval");
	unsigned *seen = ord_xcalloc(ord_ctx_nunits(ctx) + 1, sizeof(*seen));
	struct ord_buf who = ORD_BUF_INIT;
	size_t i, j;

	for (i = 0; i < sheet->n; i++) {
		const struct ord_order *o = &sheet->orders[i];
		struct ord_unit *u = ord_ctx_find_unit(ctx, o->unit);
		const struct ord_token *dir, *frac, *fire, *target, *charge;
		int nfire = 0;
		size_t ui;

		if (!u) {
			ord_diag_add(diag, o->line, o->col, o->unit, "orders", "unknown unit '%s'",
				     o->unit);
			continue;
		}
		if (!side || strcmp(u->side, side)) {
			ord_diag_add(diag, o->line, o->col, o->unit, "orders",
				     "unit '%s' belongs to side %s, not %s", u->id, u->side,
				     side ? side : "(none)");
			continue;
		}
		ui = ord_ctx_unit_index(ctx, u);
		if (seen[ui]) {
			ord_diag_add(diag, o->line, o->col, o->unit,
				     "one battalion cannot be divided nor receive 2 orders",
				     "second order for unit '%s' (its first is on line %u)", u->id,
				     seen[ui]);
			continue;
		}
		seen[ui] = o->line;
		for (j = 0; j < o->ntok; j++) {
			const struct ord_token *t = &o->tok[j];
			if (t->kind != ORD_TOK_CODE)
				continue;
			ord_buf_reset(&who);
			if (!code_allowed(ctx, t->value, kind(u), &who))
				ord_diag_add(diag, o->line, t->col, o->unit, "order codes",
					     "code '%s' is not for %s (only for %s)", t->value,
					     kind(u), who.buf);
			if (fire_code_shot(t->value))
				nfire++;
		}
		if (nfire > 1)
			ord_diag_add(diag, o->line, order_fire(o)->col, o->unit, "artillery",
				     "one shot per turn: the sheet orders %d kinds of shot", nfire);
		if (order_has(o, "UL") && order_has(o, "L"))
			ord_diag_add(diag, o->line, ord_order_code(o, "L")->col, o->unit, "artillery",
				     "a gun cannot both unlimber (UL) and limber (L) in one turn");
		dir = ord_order_find(o, ORD_TOK_DIR);
		frac = ord_order_find(o, ORD_TOK_FRAC);
		if (frac && !dir)
			ord_diag_add(diag, o->line, frac->col, o->unit, "orders",
				     "a fraction of the move needs a direction arrow");
		charge = ord_order_code(o, "C");
		if (charge) {
			long last = st(u, "last_charge");
			struct bat_move_in mi = { kind(u), chart_formation(u), 0, 1, 0, "open" };
			struct bat_move_out mo;

			mi.quarters = (int)iparam(ctx, "move_fraction_parts");
			if (!dir)
				ord_diag_add(diag, o->line, charge->col, o->unit, "C",
					     "a charge needs a direction arrow (the unit charges along it)");
			if (last > 0 && turn - last < interval)
				ord_diag_add(diag, o->line, charge->col, o->unit,
					     "a unit may charge only once every 3 turns",
					     "unit '%s' charged in turn %ld; its next charge may be in turn %ld",
					     u->id, last, last + interval);
			/* a gun's charge is checked by order_codes (horse artillery only) */
			if (!is_arm(ctx, u, "artillery") && bat_move(R(ctx), &mi, &mo, NULL))
				ord_diag_add(diag, o->line, charge->col, o->unit, "movement chart",
					     "unit '%s' cannot charge: %s", u->id, ord_error_last());
			ord_error_clear();
			fire = order_fire(o);
			/* horse artillery may charge, unlimber and fire (C-UL-Fs) */
			if (fire && !(is_horse_artillery(u) && order_has(o, "UL")))
				ord_diag_add(diag, o->line, fire->col, o->unit,
					     "a charging unit can't fire",
					     "a charging unit cannot fire (only horse artillery may C-UL-F)");
		}
		target = ord_order_find(o, ORD_TOK_TARGET);
		if (target) {
			struct ord_unit *tu = ord_ctx_find_unit(ctx, target->value);
			if (!tu)
				ord_diag_add(diag, o->line, target->col, o->unit, "fire",
					     "unknown target unit '%s'", target->value);
			else if (!strcmp(tu->side, side))
				ord_diag_add(diag, o->line, target->col, o->unit, "fire",
					     "target '%s' is a unit of your own side", target->value);
			if (charge && !order_fire(o))
				ord_diag_add(diag, o->line, target->col, o->unit,
					     "a charging unit can't fire",
					     "a charging unit cannot name a fire target");
		}
	}
	ord_buf_release(&who);
	free(seen);
	return diag->n ? ORD_EBADSHEET : 0;
}

/* ---- event checks ---- */

static void check_move(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_diag *d)
{
	struct ord_unit *u = ev_unit(ctx, ev, "unit");
	const struct ord_order *o = ord_ctx_order(ctx, u);
	double dist = ord_kv_get_num(&ev->kv, "distance", 0);
	int charge = ord_kv_get_bool(&ev->kv, "charge", 0);
	int turn = ord_ctx_turn(ctx);
	long interval = iparam(ctx, "charge_interval"), last = st(u, "last_charge");
	struct ord_unit *c = ev_unit(ctx, ev, "contact");
	struct ord_buf why = ORD_BUF_INIT;
	size_t i;

	for (i = 0; i < ord_ctx_nevents(ctx); i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		if (e != ev && !strcmp(e->kind, "move") && ev_unit(ctx, e, "unit") == u)
			ord_diag_add(d, 0, 0, u->id, "orders",
				     "unit '%s' already moved this turn (event #%u)", u->id, e->seq);
	}
	if (c && !strcmp(c->side, u->side))
		ord_diag_add(d, 0, 0, u->id, "melee", "contact with '%s', a unit of its own side",
			     c->id);
	if (st(u, "figures") <= 0 && dist > 0)
		ord_diag_add(d, 0, 0, u->id, "units", "unit '%s' has no figures left", u->id);
	/* a retreating or routing unit moves by the rules, not by its orders */
	if (routed(ctx, u) || retreating(ctx, u)) {
		if (charge)
			ord_diag_add(d, 0, 0, u->id, "morale", "unit '%s' is %s and cannot charge",
				     u->id, routed(ctx, u) ? "routed" : "retreating");
		goto out;
	}
	if (charge && !order_has(o, "C"))
		ord_diag_add(d, 0, 0, u->id, "C",
			     "unit '%s' charged but its sheet orders no charge (C)", u->id);
	if (charge && last > 0 && turn - last < interval)
		ord_diag_add(d, 0, 0, u->id, "a unit may charge only once every 3 turns",
			     "unit '%s' charged in turn %ld; its next charge may be in turn %ld",
			     u->id, last, last + interval);
	if (dist <= 0)
		goto out;
	if (!ordered_quarters(ctx, o)) {
		ord_diag_add(d, 0, 0, u->id, "orders may never be changed",
			     "unit '%s' moved %g\" but its sheet orders no move", u->id, dist);
		goto out;
	}
	if (dressing(ctx, u) && order_forward(o))
		ord_diag_add(d, 0, 0, u->id,
			     "a unit that retreats must spend one turn dressing its ranks",
			     "unit '%s' dresses its ranks this turn and may not move forward", u->id);
	if (is_arm(ctx, u, "artillery") && !strcmp(formation(u), "unlimbered"))
		ord_diag_add(d, 0, 0, u->id, "L - limber (1 turn all art.)",
			     "gun '%s' is unlimbered: it must limber (a turn) before it moves", u->id);
	{
		struct bat_move_in mi = {
			kind(u), chart_formation(u), ordered_quarters(ctx, o),
			charge,  is_elite(u),        ord_kv_get(&ev->kv, "terrain")
		};
		struct bat_move_out mo;
		if (bat_move(R(ctx), &mi, &mo, &why)) {
			ord_diag_add(d, 0, 0, u->id, "movement chart", "%s", ord_error_last());
			ord_error_clear();
		} else if (dist > mo.distance + 1e-9) {
			ord_diag_add(d, 0, 0, u->id, "movement chart",
				     "unit '%s' moved %g\" but its order allows %g\" (%s)", u->id,
				     dist, mo.distance, why.buf);
		}
	}
out:
	ord_buf_release(&why);
}

static void check_form(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_diag *d)
{
	struct ord_unit *u = ev_unit(ctx, ev, "unit");
	const struct ord_token *f = order_form(ord_ctx_order(ctx, u));
	const char *want = ord_kv_get(&ev->kv, "formation");

	if (!is_arm(ctx, u, "infantry"))
		ord_diag_add(d, 0, 0, u->id, "order codes",
			     "unit '%s' is %s: only infantry changes formation", u->id, kind(u));
	if (!f || strcmp(form_code_formation(f->value), want))
		ord_diag_add(d, 0, 0, u->id, "orders may never be changed",
			     "unit '%s' formed %s but its sheet orders %s", u->id, want,
			     f ? f->value : "no formation change");
}

static void check_gun(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_diag *d)
{
	struct ord_unit *u = ev_unit(ctx, ev, "unit");
	int un = !strcmp(ev->kind, "unlimber");
	const char *code = un ? "UL" : "L";
	const char *state = un ? "unlimbered" : "limbered";

	if (!is_arm(ctx, u, "artillery")) {
		ord_diag_add(d, 0, 0, u->id, "artillery", "unit '%s' is not artillery", u->id);
		return;
	}
	if (!order_has(ord_ctx_order(ctx, u), code))
		ord_diag_add(d, 0, 0, u->id, "orders may never be changed",
			     "gun '%s' %sed but its sheet has no %s", u->id, ev->kind, code);
	if (!strcmp(formation(u), state))
		ord_diag_add(d, 0, 0, u->id, "artillery", "gun '%s' is already %s", u->id, state);
}

static void check_fire(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_diag *d, int artillery)
{
	struct ord_unit *u = ev_unit(ctx, ev, "unit"), *t = ev_unit(ctx, ev, "target");
	const struct ord_order *o = ord_ctx_order(ctx, u);
	const struct ord_token *target = o ? ord_order_find(o, ORD_TOK_TARGET) : NULL;
	const char *weapon = ord_kv_get(&u->attrs, "weapon");
	int turn = ord_ctx_turn(ctx);
	int is_art = is_arm(ctx, u, "artillery");
	int horse_cul = is_horse_artillery(u) && order_has(o, "UL");
	double woods = param(ctx, "woods_fired_on_within");
	size_t i;

	if (artillery && !is_art)
		ord_diag_add(d, 0, 0, u->id, "artillery",
			     "unit '%s' is %s, not artillery (use the event 'fire')", u->id, kind(u));
	if (!artillery && is_art)
		ord_diag_add(d, 0, 0, u->id, "artillery",
			     "unit '%s' is a gun: record its fire with the event 'artillery'", u->id);
	if (!artillery && !is_art && weapon && !strcmp(weapon, "none"))
		ord_diag_add(d, 0, 0, u->id, "weapon fire", "unit '%s' has no small arms", u->id);
	if (!strcmp(t->side, u->side))
		ord_diag_add(d, 0, 0, u->id, "fire", "target '%s' is a unit of its own side", t->id);
	for (i = 0; i < ord_ctx_nevents(ctx); i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		if (e != ev && (!strcmp(e->kind, "fire") || !strcmp(e->kind, "artillery")) &&
		    ev_unit(ctx, e, "unit") == u)
			ord_diag_add(d, 0, 0, u->id, "one battalion will fire at one target",
				     "unit '%s' already fired this turn (event #%u)", u->id, e->seq);
	}
	if (st(u, "figures") <= 0)
		ord_diag_add(d, 0, 0, u->id, "units", "unit '%s' has no figures left", u->id);
	if ((order_has(o, "C") || st(u, "charged") == turn) && !horse_cul)
		ord_diag_add(d, 0, 0, u->id, "a charging unit can't fire",
			     "unit '%s' is charging this turn and cannot fire", u->id);
	if (still_in_melee(ctx, u))
		ord_diag_add(d, 0, 0, u->id, "troops still in melee can't fire",
			     "unit '%s' is still in the melee with '%s' from turn %ld", u->id,
			     melee_with(u), st(u, "melee_since"));
	if (ord_kv_get_bool(&ev->kv, "firer_in_woods", 0))
		ord_diag_add(d, 0, 0, u->id, "cover", "units in woods may not fire");
	if (ord_kv_get_bool(&ev->kv, "target_in_woods", 0) && ord_kv_get_num(&ev->kv, "range", 0) > woods)
		ord_diag_add(d, 0, 0, u->id, "cover",
			     "target '%s' is in woods and may be fired on only within %g\" (range %s\")",
			     t->id, woods, ord_kv_get(&ev->kv, "range"));
	if (routed(ctx, u))
		ord_diag_add(d, 0, 0, u->id, "routed units can't fire", "unit '%s' is routed", u->id);
	if (target && ord_ctx_find_unit(ctx, target->value) != t)
		ord_diag_add(d, 0, 0, u->id, "orders may never be changed",
			     "unit '%s' fired at '%s' but its sheet names '@%s'", u->id, t->id,
			     target->value);
	if (!artillery || !is_art)
		return;
	{
		const struct ord_token *f = order_fire(o);
		const char *shot = ord_kv_get(&ev->kv, "shot");
		long ut = iparam(ctx,
				 is_horse_artillery(u) ? "unlimber_turns_horse" : "unlimber_turns");

		if (!f)
			ord_diag_add(d, 0, 0, u->id, "must fire the shot indicated in its orders",
				     "gun '%s' has no fire order (Fb, Fs or Fg) on its sheet", u->id);
		else if (shot && strcmp(shot, fire_code_shot(f->value)))
			ord_diag_add(d, 0, 0, u->id, "must fire the shot indicated in its orders",
				     "gun '%s' fired %s but its sheet orders %s (%s)", u->id, shot,
				     fire_code_shot(f->value), f->value);
		if (st(u, "silenced"))
			ord_diag_add(d, 0, 0, u->id, "2 hits knock out artillery",
				     "gun '%s' is silenced", u->id);
		if (strcmp(formation(u), "unlimbered"))
			ord_diag_add(d, 0, 0, u->id, "UL - unlimber (1 turn except for horse art.)",
				     "gun '%s' has not unlimbered", u->id);
		else if (st(u, "unlimbered") && turn - st(u, "unlimbered") < ut)
			ord_diag_add(d, 0, 0, u->id, "UL - unlimber (1 turn except for horse art.)",
				     "gun '%s' unlimbered in turn %ld and cannot fire before turn %ld",
				     u->id, st(u, "unlimbered"), st(u, "unlimbered") + ut);
	}
}

static void check_melee(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_diag *d)
{
	struct ord_unit *a = ev_unit(ctx, ev, "a"), *b = ev_unit(ctx, ev, "b");
	struct ord_unit *both[2];
	size_t i, k;

	both[0] = a;
	both[1] = b;
	if (!strcmp(a->side, b->side))
		ord_diag_add(d, 0, 0, a->id, "melee", "'%s' and '%s' are of the same side", a->id,
			     b->id);
	for (k = 0; k < 2; k++) {
		struct ord_unit *u = both[k], *e = both[1 - k];
		if (melee_with(u) && strcmp(melee_with(u), e->id))
			ord_diag_add(d, 0, 0, u->id, "melee",
				     "unit '%s' is still in melee with '%s'", u->id, melee_with(u));
		if (routed(ctx, u))
			ord_diag_add(d, 0, 0, u->id, "routed units have no melee value",
				     "unit '%s' is routed", u->id);
		if (st(u, "figures") <= 0)
			ord_diag_add(d, 0, 0, u->id, "units", "unit '%s' has no figures left", u->id);
	}
	for (i = 0; i < ord_ctx_nevents(ctx); i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		if (e != ev && !strcmp(e->kind, "melee") &&
		    ((ev_unit(ctx, e, "a") == a && ev_unit(ctx, e, "b") == b) ||
		     (ev_unit(ctx, e, "a") == b && ev_unit(ctx, e, "b") == a)))
			ord_diag_add(d, 0, 0, a->id, "melee",
				     "'%s' and '%s' already fought this turn (event #%u)", a->id,
				     b->id, e->seq);
	}
}

static int bat_check_event(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_diag *d)
{
	size_t before = d->n;

	if (!strcmp(ev->kind, "move")) {
		check_move(ctx, ev, d);
	} else if (!strcmp(ev->kind, "form")) {
		check_form(ctx, ev, d);
	} else if (!strcmp(ev->kind, "limber") || !strcmp(ev->kind, "unlimber")) {
		check_gun(ctx, ev, d);
	} else if (!strcmp(ev->kind, "fire") || !strcmp(ev->kind, "artillery")) {
		check_fire(ctx, ev, d, !strcmp(ev->kind, "artillery"));
	} else if (!strcmp(ev->kind, "melee")) {
		check_melee(ctx, ev, d);
	} else if (!strcmp(ev->kind, "halt")) {
		struct ord_unit *u = ev_unit(ctx, ev, "unit");
		if (!is_arm(ctx, u, "cavalry"))
			ord_diag_add(d, 0, 0, u->id, "pursuit", "only cavalry pursues; '%s' is %s",
				     u->id, kind(u));
	}
	return d->n > before ? ORD_ECHECK : 0;
}

/* ---- resolution ---- */

/* A unit's melee ends (it broke, or the units were separated). */
static void end_melee(struct ord_ctx *ctx, struct ord_unit *u)
{
	struct ord_unit *w = melee_with(u) ? ord_ctx_find_unit(ctx, melee_with(u)) : NULL;

	ord_kv_set(&u->state, "melee_with", "");
	if (w && melee_with(w) && !strcmp(melee_with(w), u->id))
		ord_kv_set(&w->state, "melee_with", "");
}

static void apply_outcome(struct ord_ctx *ctx, struct ord_unit *u, const char *outcome,
			  const char *new_class)
{
	int turn = ord_ctx_turn(ctx);
	long dress = iparam(ctx, "dress_ranks_turns");

	if (!strcmp(outcome, "good"))
		return;
	st_set(u, "failed", 1);
	if (!strcmp(outcome, "retreat")) {
		st_set(u, "retreat_turn", turn + 1);
		st_set(u, "dress_until", turn + 1 + dress);
	} else {
		st_set(u, "routed", turn);
		st_set(u, "rout_until", turn + iparam(ctx, "rout_turns"));
		st_set(u, "penalty_until", turn + iparam(ctx, "rout_penalty_turns"));
		st_set(u, "dress_until", st(u, "rout_until") + dress);
		if (new_class)
			ord_kv_set(&u->state, "class", new_class);
	}
}

/* One morale test (d6 rules or the d20 chart); returns the outcome. */
static int morale_test(struct ord_ctx *ctx, struct ord_unit *u, const char *chart, int lost_melee,
		       const char *purpose, const char **outcome)
{
	struct ord_buf why = ORD_BUF_INIT, id = ORD_BUF_INIT;
	int turn = ord_ctx_turn(ctx);
	struct ord_kv vals;
	int die, err;

	ord_kv_init(&vals);
	ord_buf_addf(&id, "%s %s", purpose, u->id);
	if (!strcmp(chart, "d20")) {
		const struct ord_table *t = ord_tables_get(R(ctx)->tables, "morale20");
		struct bat_morale20_in in;
		struct bat_morale20_out out;
		char cls[16];
		if ((err = ord_ctx_roll(ctx, &die, (unsigned)ord_table_die(t), id.buf, 0, 0)) != 0)
			goto out;
		/* a copy: writing the state (apply_outcome) may move its strings */
		snprintf(cls, sizeof(cls), "%s",
			 ord_kv_get(&u->state, "class") ? ord_kv_get(&u->state, "class") : "");
		in.cls = cls;
		in.die = die;
		if ((err = bat_morale20(R(ctx), &in, &out, &why)) != 0)
			goto out;
		apply_outcome(ctx, u, out.outcome, out.new_class);
		*outcome = out.outcome;
		ord_kv_set(&vals, "outcome", out.outcome);
		ord_kv_set_int(&vals, "die", die);
		ord_kv_set(&vals, "class", out.new_class);
		ord_ctx_result(ctx, 0, u->id, &vals, "%s (d20 chart): %s", purpose, why.buf);
	} else {
		struct bat_morale_in in;
		struct bat_morale_out out;
		if ((err = ord_ctx_roll(ctx, &die, (unsigned)iparam(ctx, "morale_die"), id.buf, 0,
					0)) != 0)
			goto out;
		in.die = die;
		in.losses = (int)turn_losses(ctx, u);
		in.elite = is_elite(u);
		in.militia = is_militia(u);
		in.failed_before = st(u, "failed") != 0;
		in.lost_melee = lost_melee;
		in.routed_recently = st(u, "routed") && st(u, "routed") < turn &&
				     st(u, "penalty_until") >= turn;
		if ((err = bat_morale(R(ctx), &in, &out, &why)) != 0)
			goto out;
		apply_outcome(ctx, u, out.outcome, NULL);
		*outcome = out.outcome;
		ord_kv_set(&vals, "outcome", out.outcome);
		ord_kv_set_int(&vals, "score", out.score);
		ord_kv_set_int(&vals, "die", die);
		ord_ctx_result(ctx, 0, u->id, &vals, "%s: %s", purpose, why.buf);
	}
out:
	ord_kv_release(&vals);
	ord_buf_release(&why);
	ord_buf_release(&id);
	return err;
}

static int resolve_movement(struct ord_ctx *ctx)
{
	int turn = ord_ctx_turn(ctx);
	size_t i;

	for (i = 0; i < ord_ctx_nevents(ctx); i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		struct ord_unit *u = ev_unit(ctx, e, "unit");
		struct ord_kv vals;

		ord_kv_init(&vals);
		if (!strcmp(e->kind, "move")) {
			struct ord_unit *c = ev_unit(ctx, e, "contact");
			double dist = ord_kv_get_num(&e->kv, "distance", 0);
			int charge = ord_kv_get_bool(&e->kv, "charge", 0);
			if (dist > 0)
				st_set(u, "moved", turn);
			bat_position_move(u, e);
			if (charge) {
				st_set(u, "charged", turn);
				st_set(u, "last_charge", turn);
			}
			if (c) {
				st_set(u, "contact", turn);
				st_set(c, "contact", turn);
			}
			ord_kv_set(&vals, "distance", ord_kv_get(&e->kv, "distance"));
			ord_ctx_result(ctx, e->seq, u->id, &vals, "%s %s\" over %s ground%s%s",
				       charge ? "charged" : "moved", ord_kv_get(&e->kv, "distance"),
				       ord_kv_get(&e->kv, "terrain"),
				       c ? ", into contact with " : "", c ? c->id : "");
		} else if (!strcmp(e->kind, "form")) {
			const char *f = ord_kv_get(&e->kv, "formation");
			ord_kv_set(&u->state, "formation", f);
			st_set(u, "changed", turn);
			ord_kv_set(&vals, "formation", f);
			ord_ctx_result(ctx, e->seq, u->id, &vals,
				       "formed %s (the change takes the turn)", f);
		} else if (!strcmp(e->kind, "limber") || !strcmp(e->kind, "unlimber")) {
			int un = !strcmp(e->kind, "unlimber");
			ord_kv_set(&u->state, "formation", un ? "unlimbered" : "limbered");
			if (un)
				st_set(u, "unlimbered", turn);
			ord_ctx_result(ctx, e->seq, u->id, NULL, "%s", un ? "unlimbered" : "limbered");
		}
		ord_kv_release(&vals);
	}
	return 0;
}

/* The figures a unit fires with unless the referee counted them: a column
 * its first two ranks, any other formation all of its figures. */
static int default_firers(struct ord_ctx *ctx, const struct ord_unit *u)
{
	long fig = st(u, "figures");
	long col = iparam(ctx, "column_firers");

	if (!strcmp(formation(u), "column") && fig > col)
		return (int)col;
	return (int)fig;
}

static int fire_event(struct ord_ctx *ctx, const struct ord_event *e, struct ord_unit *u,
		      struct ord_unit *t, int *cas)
{
	int turn = ord_ctx_turn(ctx);
	const struct ord_order *o = ord_ctx_order(ctx, u);
	struct ord_buf why = ORD_BUF_INIT;
	struct bat_fire_in in;
	struct bat_fire_out out;
	struct ord_kv vals;
	int err;

	ord_kv_init(&vals);
	memset(&in, 0, sizeof(in));
	in.firers = (int)ord_kv_get_int(&e->kv, "firers", default_firers(ctx, u));
	in.weapon = ord_kv_get(&u->attrs, "weapon");
	if (!in.weapon || !strcmp(in.weapon, "none"))
		in.weapon = "musket"; /* only with an override (D11) */
	in.range = ord_kv_get_num(&e->kv, "range", 0);
	in.target_formation = chart_formation(t);
	in.target_moved = st(t, "moved") == turn;
	in.firer_moved = ordered_quarters(ctx, o) > 0 || st(u, "moved") == turn;
	in.firer_changed_formation = order_form(o) != NULL || st(u, "changed") == turn;
	in.firer_light = !strcmp(kind(u), "light_infantry");
	in.firer_skirmish = !strcmp(formation(u), "skirmish") || !strcmp(formation(u), "misc") ||
			    !strcmp(kind(u), "skirmishers");
	in.enfilade = ord_kv_get_bool(&e->kv, "enfilade", 0);
	in.target_in_woods = ord_kv_get_bool(&e->kv, "target_in_woods", 0);
	in.firer_in_woods = ord_kv_get_bool(&e->kv, "firer_in_woods", 0);
	in.firer_on_hill = ord_kv_get_bool(&e->kv, "hill", 0);
	if ((err = bat_fire(R(ctx), &in, &out, &why)) != 0)
		goto out;
	*cas = out.casualties;
	ord_kv_set_int(&vals, "casualties", out.casualties);
	ord_kv_set(&vals, "by", u->id);
	ord_ctx_result(ctx, e->seq, t->id, &vals, "fired on by %s (%s, %s\"): %s", u->id, in.weapon,
		       ord_kv_get(&e->kv, "range"), why.buf);
out:
	ord_kv_release(&vals);
	ord_buf_release(&why);
	return err;
}

static int artillery_event(struct ord_ctx *ctx, const struct ord_event *e, struct ord_unit *u,
			   struct ord_unit *t, int *cas, int *hit)
{
	int turn = ord_ctx_turn(ctx);
	const struct ord_token *f = order_fire(ord_ctx_order(ctx, u));
	struct ord_buf why = ORD_BUF_INIT;
	struct bat_artillery_in in;
	struct bat_artillery_out out;
	struct ord_kv vals;
	int err;

	ord_kv_init(&vals);
	memset(&in, 0, sizeof(in));
	in.shot = ord_kv_get(&e->kv, "shot");
	if (!in.shot)
		in.shot = f ? fire_code_shot(f->value) : "ball";
	in.range = ord_kv_get_num(&e->kv, "range", 0);
	in.target_formation = chart_formation(t);
	in.horse_moved_unlimbered = is_horse_artillery(u) && st(u, "moved") == turn &&
				    st(u, "unlimbered") == turn;
	/* D10: no die for a shot out of range; a probe with the lowest face says */
	in.die = 1;
	if ((err = bat_artillery(R(ctx), &in, &out, NULL)) != 0)
		goto out;
	if (out.in_range && (err = ord_ctx_roll(ctx, &in.die, (unsigned)iparam(ctx, "artillery_die"),
						"artillery to hit", e->seq, 0)) != 0)
		goto out;
	if ((err = bat_artillery(R(ctx), &in, &out, &why)) != 0)
		goto out;
	*cas = out.casualties;
	*hit = out.hit && is_arm(ctx, t, "artillery");
	ord_kv_set(&vals, "hit", out.hit ? "yes" : "no");
	ord_kv_set_int(&vals, "casualties", out.casualties);
	ord_kv_set(&vals, "by", u->id);
	ord_ctx_result(ctx, e->seq, t->id, &vals, "fired on by gun %s (%s, %s\"): %s", u->id,
		       in.shot, ord_kv_get(&e->kv, "range"), why.buf);
out:
	ord_kv_release(&vals);
	ord_buf_release(&why);
	return err;
}

static int resolve_fire(struct ord_ctx *ctx)
{
	int turn = ord_ctx_turn(ctx);
	size_t i, n = ord_ctx_nevents(ctx), nu = ord_ctx_nunits(ctx);
	int *cas = ord_xcalloc(n + 1, sizeof(*cas));
	int *hit = ord_xcalloc(n + 1, sizeof(*hit));
	long *lost = ord_xcalloc(nu + 1, sizeof(*lost));
	int err = 0;

	/* every unit fires with its strength before the fire: trays are
	 * removed only after both sides have fired */
	for (i = 0; i < n; i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		struct ord_unit *u = ev_unit(ctx, e, "unit"), *t = ev_unit(ctx, e, "target");

		if (!strcmp(e->kind, "fire"))
			err = fire_event(ctx, e, u, t, &cas[i]);
		else if (!strcmp(e->kind, "artillery"))
			err = artillery_event(ctx, e, u, t, &cas[i], &hit[i]);
		if (err)
			goto out;
	}
	for (i = 0; i < n; i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		struct ord_unit *t = ev_unit(ctx, e, "target");
		if (!t)
			continue;
		if (cas[i]) {
			long before = st(t, "figures");
			take_losses(ctx, t, cas[i]);
			lost[ord_ctx_unit_index(ctx, t)] += before - st(t, "figures");
		}
		if (hit[i]) {
			st_set(t, "hits", st(t, "hits") + 1);
			if (st(t, "hits") >= iparam(ctx, "gun_hits_silence") && !st(t, "silenced")) {
				st_set(t, "silenced", 1);
				ord_ctx_result(ctx, e->seq, t->id, NULL,
					       "gun silenced: %ld artillery hits", st(t, "hits"));
			}
		}
		if (cas[i] || hit[i])
			st_set(t, "fired_on", turn);
	}
	for (i = 0; i < nu; i++) {
		struct ord_unit *t = ord_ctx_unit(ctx, i);
		struct ord_kv vals;
		if (!lost[i])
			continue;
		ord_kv_init(&vals);
		ord_kv_set_int(&vals, "lost", lost[i]);
		ord_kv_set_int(&vals, "figures", st(t, "figures"));
		ord_kv_set_int(&vals, "trays", st(t, "trays"));
		ord_kv_set_int(&vals, "carried", st(t, "carried"));
		ord_ctx_result(ctx, 0, t->id, &vals,
			       "loses %ld figure%s to fire: %ld left; in all %ld lost, %ld tray%s removed, %ld carried",
			       lost[i], lost[i] == 1 ? "" : "s", st(t, "figures"), st(t, "losses"),
			       st(t, "trays"), st(t, "trays") == 1 ? "" : "s", st(t, "carried"));
		ord_kv_release(&vals);
	}
out:
	free(cas);
	free(hit);
	free(lost);
	return err;
}

static int resolve_fire_morale(struct ord_ctx *ctx)
{
	int turn = ord_ctx_turn(ctx);
	size_t i, j, n = ord_ctx_nunits(ctx), ne = ord_ctx_nevents(ctx);
	/* each unit's events of the phase as a list (index + 1, 0 ends it),
	 * in the order recorded: one pass, not units x events */
	size_t *head = ord_xcalloc(n + 1, sizeof(*head)), *tail = ord_xcalloc(n + 1, sizeof(*tail));
	size_t *next = ord_xcalloc(ne + 1, sizeof(*next));
	int err = 0;

	for (j = 0; j < ne; j++) {
		struct ord_unit *u = ev_unit(ctx, ord_ctx_event(ctx, j), "unit");
		size_t k;

		if (!u)
			continue;
		k = ord_ctx_unit_index(ctx, u);
		if (tail[k])
			next[tail[k] - 1] = j + 1;
		else
			head[k] = j + 1;
		tail[k] = j + 1;
	}
	for (i = 0; i < n; i++) {
		struct ord_unit *u = ord_ctx_unit(ctx, i);
		const char *chart = "d6", *outcome = "good";
		int tested = 0, exempt = 0;

		for (j = head[i]; j; j = next[j - 1]) {
			const struct ord_event *e = ord_ctx_event(ctx, j - 1);
			if (!strcmp(e->kind, "exempt")) {
				exempt = 1;
				ord_ctx_result(ctx, e->seq, u->id, NULL, "no fire morale test now: %s",
					       ord_kv_get(&e->kv, "reason"));
			} else if (!strcmp(e->kind, "test")) {
				chart = ord_kv_get(&e->kv, "chart");
				tested = 1;
			}
		}
		if (exempt)
			continue;
		if (!tested && !(st(u, "fired_on") == turn && turn_losses(ctx, u) > 0))
			continue;
		/* D3: a unit that made melee contact this turn tests after the melee */
		if (!tested && st(u, "contact") == turn) {
			st_set(u, "deferred", turn);
			ord_ctx_result(ctx, 0, u->id, NULL,
				       "no fire morale test now: it made melee contact this turn and tests after the melee");
			continue;
		}
		if ((err = morale_test(ctx, u, chart, 0, "fire morale", &outcome)) != 0)
			goto out;
		if (strcmp(outcome, "good") && melee_with(u)) {
			ord_ctx_result(ctx, 0, u->id, NULL, "leaves the melee with %s", melee_with(u));
			end_melee(ctx, u);
		}
	}
out:
	free(head);
	free(tail);
	free(next);
	return err;
}

static void melee_side(struct ord_ctx *ctx, const struct ord_event *e, struct ord_unit *u,
		       struct ord_unit *enemy, const char *p, struct bat_melee_side *s)
{
	char key[32];
	int turn = ord_ctx_turn(ctx);
	int continuing = melee_with(u) && !strcmp(melee_with(u), enemy->id) &&
			 st(u, "melee_since") < turn;

	snprintf(key, sizeof(key), "%s_figures", p);
	s->kind = kind(u);
	s->figures = (int)ord_kv_get_int(&e->kv, key, st(u, "figures"));
	if (s->figures > st(u, "figures"))
		s->figures = (int)st(u, "figures");
	s->column = !strcmp(formation(u), "column");
	s->motion = st(u, "moved") == turn;
	snprintf(key, sizeof(key), "%s_fresh", p);
	s->fresh = ord_kv_get_bool(&e->kv, key, !continuing); /* D1 */
	s->charging = st(u, "charged") == turn;
	s->elite = is_elite(u);
	s->square_vs_cavalry = !strcmp(formation(u), "square") && is_arm(ctx, enemy, "cavalry");
	snprintf(key, sizeof(key), "%s_hill", p);
	s->hill = ord_kv_get_bool(&e->kv, key, 0);
}

/* Is there a melee event of this phase between u and w? */
static int melee_recorded(struct ord_ctx *ctx, const struct ord_unit *u, const struct ord_unit *w)
{
	size_t i;

	for (i = 0; i < ord_ctx_nevents(ctx); i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		struct ord_unit *a = ev_unit(ctx, e, "a"), *b = ev_unit(ctx, e, "b");
		if (!strcmp(e->kind, "melee") && ((a == u && b == w) || (a == w && b == u)))
			return 1;
	}
	return 0;
}

static int resolve_melee(struct ord_ctx *ctx)
{
	int turn = ord_ctx_turn(ctx);
	size_t i;
	int err = 0;

	/* D14: a melee of an earlier turn not fought again has ended */
	for (i = 0; i < ord_ctx_nunits(ctx); i++) {
		struct ord_unit *u = ord_ctx_unit(ctx, i);
		struct ord_unit *w = melee_with(u) ? ord_ctx_find_unit(ctx, melee_with(u)) : NULL;
		if (!still_in_melee(ctx, u) || (w && melee_recorded(ctx, u, w)))
			continue;
		ord_ctx_result(ctx, 0, u->id, NULL,
			       "the melee with %s from turn %ld has ended (no melee recorded this turn)",
			       melee_with(u), st(u, "melee_since"));
		end_melee(ctx, u);
	}
	for (i = 0; i < ord_ctx_nevents(ctx); i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		struct ord_unit *a = ev_unit(ctx, e, "a"), *b = ev_unit(ctx, e, "b");
		struct bat_melee_in in;
		struct bat_melee_out out;
		struct ord_buf why = ORD_BUF_INIT;
		struct ord_kv vals;
		int da, db, sides = (int)iparam(ctx, "melee_die");

		if (strcmp(e->kind, "melee"))
			continue;
		if (st(a, "figures") <= 0 || st(b, "figures") <= 0) {
			struct ord_unit *gone = st(a, "figures") <= 0 ? a : b;
			ord_ctx_result(ctx, e->seq, gone->id, NULL,
				       "no melee: '%s' has no figures left", gone->id);
			continue;
		}
		memset(&in, 0, sizeof(in));
		melee_side(ctx, e, a, b, "a", &in.a);
		melee_side(ctx, e, b, a, "b", &in.b);
		if ((err = ord_ctx_roll(ctx, &da, (unsigned)sides, "melee a", e->seq, 0)) != 0 ||
		    (err = ord_ctx_roll(ctx, &db, (unsigned)sides, "melee b", e->seq, 0)) != 0)
			return err;
		in.a.die = da;
		in.b.die = db;
		if ((err = bat_melee(R(ctx), &in, &out, &why)) != 0) {
			ord_buf_release(&why);
			return err;
		}
		take_losses(ctx, a, out.casualties_a);
		take_losses(ctx, b, out.casualties_b);
		st_set(a, "fought", turn);
		st_set(b, "fought", turn);
		if (!melee_with(a) || strcmp(melee_with(a), b->id))
			st_set(a, "melee_since", turn);
		if (!melee_with(b) || strcmp(melee_with(b), a->id))
			st_set(b, "melee_since", turn);
		ord_kv_set(&a->state, "melee_with", b->id);
		ord_kv_set(&b->state, "melee_with", a->id);
		if (out.winner == BAT_A) {
			st_set(b, "lost_melee", turn);
		} else if (out.winner == BAT_B) {
			st_set(a, "lost_melee", turn);
		} else { /* D2 */
			st_set(a, "tied_melee", turn);
			st_set(b, "tied_melee", turn);
		}
		ord_kv_init(&vals);
		ord_kv_set(&vals, "winner",
			   out.winner == BAT_A   ? a->id
			   : out.winner == BAT_B ? b->id
						 : "");
		ord_kv_set_int(&vals, "score_a", out.score_a);
		ord_kv_set_int(&vals, "score_b", out.score_b);
		ord_kv_set_int(&vals, "casualties_a", out.casualties_a);
		ord_kv_set_int(&vals, "casualties_b", out.casualties_b);
		ord_ctx_result(ctx, e->seq, a->id, &vals, "melee with %s: %s", b->id, why.buf);
		ord_ctx_result(ctx, e->seq, b->id, &vals, "melee with %s: %s", a->id, why.buf);
		ord_kv_release(&vals);
		ord_buf_release(&why);
	}
	return 0;
}

/* D4: cavalry w re-fights infantry u that it broke. */
static int pursue(struct ord_ctx *ctx, struct ord_unit *w, struct ord_unit *u)
{
	struct ord_buf why = ORD_BUF_INIT, id = ORD_BUF_INIT;
	struct bat_melee_in in;
	struct bat_melee_out out;
	struct ord_kv vals;
	unsigned sides = (unsigned)iparam(ctx, "melee_die");
	int da, db, err;

	ord_kv_init(&vals);
	memset(&in, 0, sizeof(in));
	in.a.kind = kind(w);
	in.a.figures = (int)st(w, "figures");
	in.a.column = !strcmp(formation(w), "column");
	in.a.motion = 1;
	in.a.elite = is_elite(w);
	in.b.kind = kind(u);
	in.b.figures = (int)st(u, "figures");
	in.b.column = !strcmp(formation(u), "column");
	in.b.elite = is_elite(u);
	in.b.square_vs_cavalry = !strcmp(formation(u), "square");
	in.pursuit = BAT_A;
	ord_buf_addf(&id, "pursuit %s", w->id);
	if ((err = ord_ctx_roll(ctx, &da, sides, id.buf, 0, 0)) != 0)
		goto out;
	ord_buf_reset(&id);
	ord_buf_addf(&id, "pursued %s", u->id);
	if ((err = ord_ctx_roll(ctx, &db, sides, id.buf, 0, 0)) != 0)
		goto out;
	in.a.die = da;
	in.b.die = db;
	if ((err = bat_melee(R(ctx), &in, &out, &why)) != 0)
		goto out;
	take_losses(ctx, w, out.casualties_a);
	take_losses(ctx, u, out.casualties_b);
	ord_kv_set_int(&vals, "casualties_a", out.casualties_a);
	ord_kv_set_int(&vals, "casualties_b", out.casualties_b);
	ord_ctx_result(ctx, 0, u->id, &vals, "pursued by %s: %s", w->id, why.buf);
	ord_ctx_result(ctx, 0, w->id, &vals, "pursues %s: %s", u->id, why.buf);
out:
	ord_kv_release(&vals);
	ord_buf_release(&why);
	ord_buf_release(&id);
	return err;
}

static int resolve_melee_morale(struct ord_ctx *ctx)
{
	int turn = ord_ctx_turn(ctx);
	size_t i, j, n = ord_ctx_nunits(ctx);
	const char **outcome = ord_xcalloc(n + 1, sizeof(*outcome));
	int err = 0;

	/* the tests first: a pursuer must itself have held */
	for (i = 0; i < n; i++) {
		struct ord_unit *u = ord_ctx_unit(ctx, i);
		int lost = st(u, "lost_melee") == turn, tied = st(u, "tied_melee") == turn;
		int deferred = st(u, "deferred") == turn && st(u, "fought") != turn;

		if (!lost && !tied && !deferred)
			continue;
		if ((err = morale_test(ctx, u, "d6", lost, "melee morale", &outcome[i])) != 0)
			goto out;
	}
	for (i = 0; i < n; i++) {
		struct ord_unit *u = ord_ctx_unit(ctx, i), *w;
		int halted = 0;

		if (!outcome[i] || !melee_with(u))
			continue;
		w = ord_ctx_find_unit(ctx, melee_with(u));
		if (!strcmp(outcome[i], "good")) {
			ord_ctx_result(ctx, 0, u->id, NULL,
				       "holds: the melee with %s continues next turn", melee_with(u));
			continue;
		}
		/* broken: the melee ends */
		ord_ctx_result(ctx, 0, u->id, NULL, "breaks off the melee with %s", melee_with(u));
		end_melee(ctx, u);
		if (!w || !is_arm(ctx, w, "cavalry") || !is_arm(ctx, u, "infantry"))
			continue;
		if (outcome[ord_ctx_unit_index(ctx, w)] &&
		    strcmp(outcome[ord_ctx_unit_index(ctx, w)], "good"))
			continue;
		for (j = 0; j < ord_ctx_nevents(ctx); j++)
			if (!strcmp(ord_ctx_event(ctx, j)->kind, "halt") &&
			    ev_unit(ctx, ord_ctx_event(ctx, j), "unit") == w)
				halted = 1;
		if (halted) {
			ord_ctx_result(ctx, 0, w->id, NULL, "does not pursue %s", u->id);
			continue;
		}
		if (st(u, "figures") <= 0 || st(w, "figures") <= 0)
			continue;
		if ((err = pursue(ctx, w, u)) != 0)
			goto out;
	}
out:
	free(outcome);
	return err;
}

static int bat_resolve_phase(struct ord_ctx *ctx, const char *phase)
{
	if (!strcmp(phase, "movement"))
		return resolve_movement(ctx);
	if (!strcmp(phase, "fire"))
		return resolve_fire(ctx);
	if (!strcmp(phase, "fire-morale"))
		return resolve_fire_morale(ctx);
	if (!strcmp(phase, "melee"))
		return resolve_melee(ctx);
	if (!strcmp(phase, "melee-morale"))
		return resolve_melee_morale(ctx);
	return ord_error_set(ORD_EUSAGE, "unknown phase '%s'", phase);
}

/* ---- after the exchange ---- */

/* What the events of the turn did, per unit: one pass over the events, so
 * that checking a turn stays linear in units + events. */
enum {
	DID_CHARGE = 1,
	DID_FORM = 2,
	DID_LIMBER = 4,
	DID_UNLIMBER = 8,
};

static int bat_check_execution(struct ord_ctx *ctx, struct ord_diag *d)
{
	int turn = ord_ctx_turn(ctx);
	unsigned char *did = ord_xcalloc(ord_ctx_nunits(ctx) + 1, 1);
	size_t i;

	for (i = 0; i < ord_ctx_nevents(ctx); i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		struct ord_unit *u = ev_unit(ctx, e, "unit");
		size_t k;

		if (!u)
			continue;
		k = ord_ctx_unit_index(ctx, u);
		if (!strcmp(e->kind, "move") && ord_kv_get_bool(&e->kv, "charge", 0))
			did[k] |= DID_CHARGE;
		else if (!strcmp(e->kind, "form"))
			did[k] |= DID_FORM;
		else if (!strcmp(e->kind, "limber"))
			did[k] |= DID_LIMBER;
		else if (!strcmp(e->kind, "unlimber"))
			did[k] |= DID_UNLIMBER;
	}
	for (i = 0; i < ord_ctx_nunits(ctx); i++) {
		struct ord_unit *u = ord_ctx_unit(ctx, i);
		const struct ord_order *o = ord_ctx_order(ctx, u);
		const struct ord_token *f = order_form(o);

		if (!o)
			continue;
		/* the state is the turn's end: a unit routed or retreating from
		 * an earlier turn moved by the rules, not by its orders */
		if ((st(u, "routed") && st(u, "routed") < turn && st(u, "rout_until") >= turn) ||
		    st(u, "retreat_turn") == turn)
			continue;
		if (order_has(o, "C") && !(did[i] & DID_CHARGE))
			ord_diag_add(d, o->line, 0, u->id, "C",
				     "ordered to charge (C) but no charge was recorded");
		if (f && !(did[i] & DID_FORM))
			ord_diag_add(d, o->line, 0, u->id, f->value,
				     "ordered to form %s (%s) but no formation change was recorded",
				     form_code_formation(f->value), f->value);
		if (order_has(o, "UL") && !(did[i] & DID_UNLIMBER))
			ord_diag_add(d, o->line, 0, u->id, "UL",
				     "ordered to unlimber (UL) but no unlimbering was recorded");
		if (order_has(o, "L") && !(did[i] & DID_LIMBER))
			ord_diag_add(d, o->line, 0, u->id, "L",
				     "ordered to limber (L) but no limbering was recorded");
	}
	free(did);
	return 0;
}

/* ---- reports ---- */

static void morale_words(struct ord_ctx *ctx, const struct ord_unit *u, struct ord_buf *out)
{
	int turn = ord_ctx_turn(ctx);

	if (routed(ctx, u))
		ord_buf_addf(out, "routed (to the rear until turn %ld)", st(u, "rout_until"));
	else if (retreating(ctx, u))
		ord_buf_adds(out, "retreating");
	else if (st(u, "retreat_turn") == turn + 1)
		ord_buf_adds(out, "shaken: retreats next turn");
	else if (dressing(ctx, u))
		ord_buf_addf(out, "dressing ranks (until turn %ld)", st(u, "dress_until"));
	else
		ord_buf_adds(out, "good");
}

static int bat_describe_unit(struct ord_ctx *ctx, const struct ord_unit *u, const char *viewer,
			     struct ord_buf *out)
{
	long fpt = iparam(ctx, "figures_per_tray");
	long fig = st(u, "figures");

	ord_buf_addf(out, "%s %s (%s, %s): ", u->id, u->name, u->side, kind(u));
	if (!viewer || !strcmp(viewer, u->side)) {
		ord_buf_addf(out,
			     "%ld figure%s (%ld lost: %ld tray%s removed, %ld carried), %s, morale ",
			     fig, fig == 1 ? "" : "s", st(u, "losses"), st(u, "trays"),
			     st(u, "trays") == 1 ? "" : "s", st(u, "carried"), formation(u));
		morale_words(ctx, u, out);
		if (st(u, "failed"))
			ord_buf_adds(out, ", has failed before");
		ord_buf_addf(out, ", class %s",
			     ord_kv_get(&u->state, "class") ? ord_kv_get(&u->state, "class") : "?");
		if (st(u, "last_charge"))
			ord_buf_addf(out, ", last charged in turn %ld", st(u, "last_charge"));
		if (st(u, "hits"))
			ord_buf_addf(out, ", %ld artillery hit%s%s", st(u, "hits"),
				     st(u, "hits") == 1 ? "" : "s",
				     st(u, "silenced") ? " (silenced)" : "");
	} else {
		/* what the enemy sees on the table: trays and formation, not figures */
		long trays = fpt > 0 ? (fig + fpt - 1) / fpt : fig;
		ord_buf_addf(out, "about %ld tray%s, %s, morale ", trays, trays == 1 ? "" : "s",
			     formation(u));
		morale_words(ctx, u, out);
		if (st(u, "silenced"))
			ord_buf_adds(out, ", silenced");
	}
	if (melee_with(u))
		ord_buf_addf(out, ", in melee with %s", melee_with(u));
	return 0;
}

const struct ord_ruleset ord_ruleset_battalion = {
	ORD_RULESET_VERSION,             /* version */
	"battalion",                     /* name */
	"hieroglyph",                    /* notation */
	phases,                          /* phases */
	unit_attrs,                      /* unit_attrs */
	events,                          /* events */
	"rulesets/battalion/tables.xml", /* tables_resource */
	bat_module_load,                 /* load */
	bat_free,                        /* free */
	bat_init_unit,                   /* init_unit */
	bat_validate_sheet,              /* validate_sheet */
	bat_check_event,                 /* check_event */
	bat_resolve_phase,               /* resolve_phase */
	bat_check_execution,             /* check_execution */
	bat_describe_unit,               /* describe_unit */
	bat_calc,                        /* calc */
	bat_print_tables,                /* print_tables */
	/* version 2 */
	bat_draw, /* draw */
};
