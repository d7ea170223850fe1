/*
 * battalion.c - the battalion ruleset module: the English battalion/tray
 * rules with simultaneous movement (shared/rules/battalion-simultaneous.txt).
 *
 * The numbers live in tables.xml and are computed by calc.c; this file is
 * the glue to the turn cycle: the unit attributes a scenario gives, the
 * checks of a sheet, the referee's events and their checks against the
 * sealed orders, the resolution of the five phases and the unit state.
 *
 * Unit state keys (all integers unless said; a turn of 0 means never):
 *   figures, losses, trays, carried   strength: trays removed, remainder carried
 *   formation                         line column square skirmish misc limbered unlimbered
 *   class                             the d20 chart class (drops after a d20 rout)
 *   failed                            1 once the unit has failed a morale test
 *   retreat_turn, dress_turn          the turn it must retreat, then dress ranks
 *   rout_until, penalty_until         last turn of the rout, of the -3 on tests
 *   last_charge                       turn of its last charge
 *   moved, changed, charged, contact  the turn it moved, changed formation, charged, made contact
 *   unlimbered                        turn it unlimbered (artillery)
 *   hits, silenced                    artillery hits taken; 1 when the gun is out
 *   loss_turn, turn_losses            figures lost in turn loss_turn (for morale)
 *   lost_melee                        turn it last lost a melee
 *   melee_with, melee_since           the enemy it is locked in melee with, since when
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tables.h"
#include "rulesets/battalion/calc.h"
#include "rulesets/ruleset.h"

/* ---- declarations: phases, attributes, events ---- */

static const char *const phases[] = {
	"movement", "fire", "fire-morale", "melee", "melee-morale", NULL,
};

#define KINDS "line_infantry|light_infantry|skirmishers|light_cavalry|heavy_cavalry|foot_artillery|horse_artillery"

static const struct ord_key_spec unit_attrs[] = {
	{"kind", ORD_KEY_ENUM, 1, KINDS, 0, 0, NULL, "the arm and type of the unit"},
	{"formation", ORD_KEY_ENUM, 0, "line|column|square|skirmish|misc|limbered|unlimbered", 0, 0,
	 "line", "formation at the start"},
	{"figures", ORD_KEY_INT, 1, NULL, 1, 10000, NULL, "figures (gunners for artillery)"},
	{"quality", ORD_KEY_ENUM, 0, "line|elite|militia", 0, 0, "line", "troop quality"},
	{"class", ORD_KEY_ENUM, 0, "A|B|C|D|E", 0, 0, "C", "morale class (optional d20 chart)"},
	{"weapon", ORD_KEY_ENUM, 0, "musket|rifle|none", 0, 0, "musket", "small arms"},
	{NULL, 0, 0, NULL, 0, 0, NULL, NULL},
};

static const struct ord_key_spec move_keys[] = {
	{"unit", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the unit that moved"},
	{"distance", ORD_KEY_NUM, 1, NULL, 0, 200, NULL, "inches measured on the table"},
	{"terrain", ORD_KEY_ENUM, 0, "open|road|forest", 0, 0, "open", "ground moved over"},
	{"charge", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "the move was a charge"},
	{"contact", ORD_KEY_UNIT, 0, NULL, 0, 0, NULL, "the enemy it made melee contact with"},
	{NULL, 0, 0, NULL, 0, 0, NULL, NULL},
};
static const struct ord_key_spec form_keys[] = {
	{"unit", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the unit"},
	{"formation", ORD_KEY_ENUM, 1, "line|column|square|skirmish", 0, 0, NULL, "the new formation"},
	{NULL, 0, 0, NULL, 0, 0, NULL, NULL},
};
static const struct ord_key_spec gun_keys[] = {
	{"unit", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the gun"},
	{NULL, 0, 0, NULL, 0, 0, NULL, NULL},
};
static const struct ord_key_spec fire_keys[] = {
	{"unit", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the firing unit"},
	{"target", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the unit fired at"},
	{"range", ORD_KEY_NUM, 1, NULL, 0, 500, NULL, "inches, middle stand to nearest enemy"},
	{"firers", ORD_KEY_INT, 0, NULL, 1, 10000, NULL, "figures that can fire (default by formation)"},
	{"enfilade", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "the target is enfiladed"},
	{"target_in_woods", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "the target is in woods"},
	{"firer_in_woods", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "the firer is in woods"},
	{"hill", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "the firer defends a hilltop"},
	{NULL, 0, 0, NULL, 0, 0, NULL, NULL},
};
static const struct ord_key_spec artillery_keys[] = {
	{"unit", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the gun"},
	{"target", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the unit fired at"},
	{"range", ORD_KEY_NUM, 1, NULL, 0, 500, NULL, "inches"},
	{"shot", ORD_KEY_ENUM, 0, "ball|shell|grape", 0, 0, NULL, "the shot fired (must be the one ordered)"},
	{NULL, 0, 0, NULL, 0, 0, NULL, NULL},
};
static const struct ord_key_spec test_keys[] = {
	{"unit", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the unit that tests its morale"},
	{"chart", ORD_KEY_ENUM, 0, "d6|d20", 0, 0, "d6", "the d6 rules or the optional d20 chart"},
	{NULL, 0, 0, NULL, 0, 0, NULL, NULL},
};
static const struct ord_key_spec exempt_keys[] = {
	{"unit", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the unit that does not test"},
	{"reason", ORD_KEY_STR, 1, NULL, 0, 0, NULL, "why (e.g. enfiladed, tests after the melee)"},
	{NULL, 0, 0, NULL, 0, 0, NULL, NULL},
};
static const struct ord_key_spec melee_keys[] = {
	{"a", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "one unit in contact"},
	{"b", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the enemy unit in contact"},
	{"a_figures", ORD_KEY_INT, 0, NULL, 0, 10000, NULL, "figures of a engaged (default: all)"},
	{"b_figures", ORD_KEY_INT, 0, NULL, 0, 10000, NULL, "figures of b engaged (default: all)"},
	{"a_fresh", ORD_KEY_BOOL, 0, NULL, 0, 0, NULL, "new men join a (default: yes in a new melee)"},
	{"b_fresh", ORD_KEY_BOOL, 0, NULL, 0, 0, NULL, "new men join b"},
	{"a_hill", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "a defends a hilltop"},
	{"b_hill", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "b defends a hilltop"},
	{NULL, 0, 0, NULL, 0, 0, NULL, NULL},
};
static const struct ord_key_spec halt_keys[] = {
	{"unit", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "cavalry that will not pursue"},
	{NULL, 0, 0, NULL, 0, 0, NULL, NULL},
};

static const struct ord_event_kind events[] = {
	{"move", "movement", move_keys, "a unit moved (distance measured on the table)"},
	{"form", "movement", form_keys, "a unit changed formation (line, column, square, skirmish)"},
	{"limber", "movement", gun_keys, "a gun limbered"},
	{"unlimber", "movement", gun_keys, "a gun unlimbered"},
	{"fire", "fire", fire_keys, "musket or rifle fire at a target"},
	{"artillery", "fire", artillery_keys, "a gun fired at a target"},
	{"test", "fire-morale", test_keys, "a morale test (automatic for every unit that took fire)"},
	{"exempt", "fire-morale", exempt_keys, "a unit that took fire but does not test now"},
	{"melee", "melee", melee_keys, "two units in contact fight"},
	{"halt", "melee-morale", halt_keys, "cavalry that breaks infantry but does not pursue"},
	{NULL, NULL, NULL, NULL},
};

/* ---- helpers ---- */

static struct bat_rules *R(struct ord_ctx *ctx)
{
	return bat_rules(ord_ctx_rules(ctx));
}

static double param(struct ord_ctx *ctx, const char *name, double def)
{
	double v;

	return bat_param(R(ctx), name, &v) ? def : v;
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

static const char *formation(const struct ord_unit *u)
{
	const char *f = ord_kv_get(&u->state, "formation");
	return f ? f : "line";
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
	return st(u, "rout_until") >= ord_ctx_turn(ctx);
}

/* The formation a form code orders, or NULL. */
static const char *form_code_formation(const char *code)
{
	static const char *const map[][2] = {
		{"FLn", "line"}, {"FCol", "column"}, {"FSk", "skirmish"}, {"FSq", "square"},
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

/* A unit's losses: trays are removed per figures_per_tray, the rest carried. */
static void take_losses(struct ord_ctx *ctx, struct ord_unit *u, int n)
{
	long fpt = (long)param(ctx, "figures_per_tray", 4);
	long figures = st(u, "figures"), losses;

	if (n > figures)
		n = (int)figures;
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

static int bat_init_unit(struct ord_rules *rules, struct ord_unit *u, struct ord_diag *diag)
{
	const char *f = ord_kv_get(&u->attrs, "formation");
	const char *k = ord_kv_get(&u->attrs, "kind");

	(void)rules;
	(void)diag;
	if (k && strstr(k, "artillery") && (!f || (strcmp(f, "limbered") && strcmp(f, "unlimbered"))))
		f = "limbered";
	ord_kv_set(&u->state, "figures", ord_kv_get(&u->attrs, "figures"));
	ord_kv_set(&u->state, "losses", "0");
	ord_kv_set(&u->state, "trays", "0");
	ord_kv_set(&u->state, "carried", "0");
	ord_kv_set(&u->state, "formation", f ? f : "line");
	ord_kv_set(&u->state, "class", ord_kv_get(&u->attrs, "class") ? ord_kv_get(&u->attrs, "class") : "C");
	ord_kv_set(&u->state, "failed", "0");
	ord_kv_set(&u->state, "last_charge", "0");
	return 0;
}

/* ---- sheet validation ---- */

/* May a unit of this kind take this code?  The table order_codes says. */
static int code_allowed(struct ord_ctx *ctx, const char *code, const char *k, struct ord_buf *who)
{
	const struct ord_table *t = ord_tables_get(R(ctx)->tables, "order_codes");
	const struct ord_row *row;
	struct ord_kv m;
	size_t i;
	int ok;

	if (!t)
		return 1;
	ord_kv_init(&m);
	ord_kv_set(&m, "code", code);
	ord_kv_set(&m, "kind", k);
	ok = !ord_table_find(&row, t, &m);
	ord_kv_release(&m);
	ord_error_clear();
	if (!ok && who) {
		for (i = 0; i < ord_table_nrows(t); i++) {
			const char *codes = ord_row_str(ord_table_row(t, i), "code");
			const char *p = codes;
			size_t n = strlen(code);
			while (p && (p = strstr(p, code)) != NULL) {
				if ((p == codes || p[-1] == ' ') && (p[n] == ' ' || !p[n])) {
					ord_buf_adds(who, ord_row_str(ord_table_row(t, i), "kind"));
					break;
				}
				p += n;
			}
		}
	}
	return ok;
}

static int bat_validate_sheet(struct ord_ctx *ctx, const struct ord_sheet *sheet,
			      struct ord_diag *diag)
{
	const char *side = ord_ctx_side(ctx);
	int turn = ord_ctx_turn(ctx);
	long interval = (long)param(ctx, "charge_interval", 3);
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
			ord_diag_add(diag, o->line, o->col, o->unit, "orders", "unknown unit '%s'", o->unit);
			continue;
		}
		if (strcmp(u->side, side)) {
			ord_diag_add(diag, o->line, o->col, o->unit, "orders",
				     "unit '%s' belongs to side %s, not %s", u->id, u->side, side);
			continue;
		}
		ui = ord_ctx_unit_index(ctx, u);
		if (seen[ui]) {
			ord_diag_add(diag, o->line, o->col, o->unit,
				     "one battalion cannot be divided nor receive 2 orders",
				     "second order for unit '%s' (its first is on line %u)", u->id, seen[ui]);
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
					     "code '%s' is not for %s (only for %s)", t->value, kind(u), who.buf);
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
			struct bat_move_in mi = {kind(u), formation(u), 4, 1, 0, "open"};
			struct bat_move_out mo;

			if (!dir)
				ord_diag_add(diag, o->line, charge->col, o->unit, "C",
					     "a charge needs a direction arrow (the unit charges along it)");
			if (last > 0 && turn - last < interval)
				ord_diag_add(diag, o->line, charge->col, o->unit,
					     "a unit may charge only once every 3 turns",
					     "unit '%s' charged in turn %ld; its next charge may be in turn %ld",
					     u->id, last, last + interval);
			if (!strstr(formation(u), "limber") && bat_move(R(ctx), &mi, &mo, NULL))
				ord_diag_add(diag, o->line, charge->col, o->unit, "movement chart",
					     "unit '%s' cannot charge: %s", u->id, ord_error_last());
			ord_error_clear();
			fire = order_fire(o);
			/* horse artillery may charge, unlimber and fire (C-UL-Fs) */
			if (fire && !(!strcmp(kind(u), "horse_artillery") && order_has(o, "UL")))
				ord_diag_add(diag, o->line, fire->col, o->unit, "a charging unit can't fire",
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
				ord_diag_add(diag, o->line, target->col, o->unit, "a charging unit can't fire",
					     "a charging unit cannot name a fire target");
		}
	}
	ord_buf_release(&who);
	free(seen);
	return diag->n ? ORD_EBADSHEET : 0;
}

/* ---- event checks ---- */

static struct ord_unit *ev_unit(struct ord_ctx *ctx, const struct ord_event *ev, const char *key)
{
	const char *v = ord_kv_get(&ev->kv, key);
	return v ? ord_ctx_find_unit(ctx, v) : NULL;
}

/* Quarters of the move ordered: the fraction, or the whole move after an arrow. */
static int ordered_quarters(const struct ord_order *o)
{
	const struct ord_token *f = o ? ord_order_find(o, ORD_TOK_FRAC) : NULL;

	if (f)
		return f->num;
	return o && ord_order_find(o, ORD_TOK_DIR) ? 4 : 0;
}

static void check_move(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_diag *d)
{
	struct ord_unit *u = ev_unit(ctx, ev, "unit");
	const struct ord_order *o = ord_ctx_order(ctx, u);
	double dist = ord_kv_get_num(&ev->kv, "distance", 0);
	int charge = ord_kv_get_bool(&ev->kv, "charge", 0);
	int turn = ord_ctx_turn(ctx);
	long interval = (long)param(ctx, "charge_interval", 3), last = st(u, "last_charge");
	struct ord_unit *c = ev_unit(ctx, ev, "contact");
	struct ord_buf why = ORD_BUF_INIT;
	size_t i;

	/* a retreating or routing unit moves by the rules, not by its orders */
	if (routed(ctx, u) || st(u, "retreat_turn") == turn)
		return;
	for (i = 0; i < ord_ctx_nevents(ctx); i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		if (e != ev && !strcmp(e->kind, "move") && ev_unit(ctx, e, "unit") == u)
			ord_diag_add(d, 0, 0, u->id, "orders", "unit '%s' already moved this turn (event #%u)",
				     u->id, e->seq);
	}
	if (c && !strcmp(c->side, u->side))
		ord_diag_add(d, 0, 0, u->id, "melee", "contact with '%s', a unit of its own side", c->id);
	if (charge && !order_has(o, "C"))
		ord_diag_add(d, 0, 0, u->id, "C", "unit '%s' charged but its sheet orders no charge (C)",
			     u->id);
	if (charge && last > 0 && turn - last < interval)
		ord_diag_add(d, 0, 0, u->id, "a unit may charge only once every 3 turns",
			     "unit '%s' charged in turn %ld", u->id, last);
	if (dist <= 0)
		goto out;
	if (!ordered_quarters(o)) {
		ord_diag_add(d, 0, 0, u->id, "orders may never be changed",
			     "unit '%s' moved %g\" but its sheet orders no move", u->id, dist);
		goto out;
	}
	{
		struct bat_move_in mi = {kind(u), formation(u), ordered_quarters(o), charge,
					 is_elite(u), ord_kv_get(&ev->kv, "terrain")};
		struct bat_move_out mo;
		if (strstr(mi.formation, "limber"))
			mi.formation = "line";
		if (bat_move(R(ctx), &mi, &mo, &why)) {
			ord_diag_add(d, 0, 0, u->id, "movement chart", "%s", ord_error_last());
		} else if (dist > mo.distance + 1e-9) {
			ord_diag_add(d, 0, 0, u->id, "movement chart",
				     "unit '%s' moved %g\" but its order allows %g\" (%s)", u->id, dist,
				     mo.distance, why.buf);
		}
	}
out:
	ord_buf_release(&why);
}

static void check_fire(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_diag *d,
		       int artillery)
{
	struct ord_unit *u = ev_unit(ctx, ev, "unit"), *t = ev_unit(ctx, ev, "target");
	const struct ord_order *o = ord_ctx_order(ctx, u);
	const struct ord_token *target = o ? ord_order_find(o, ORD_TOK_TARGET) : NULL;
	int turn = ord_ctx_turn(ctx);
	int is_art = !strcmp(arm(ctx, u), "artillery");
	size_t i;

	if (artillery && !is_art)
		ord_diag_add(d, 0, 0, u->id, "artillery", "unit '%s' is %s, not artillery (use the event 'fire')",
			     u->id, kind(u));
	if (!artillery && is_art)
		ord_diag_add(d, 0, 0, u->id, "artillery", "unit '%s' is a gun: record its fire with the event 'artillery'",
			     u->id);
	if (!strcmp(t->side, u->side))
		ord_diag_add(d, 0, 0, u->id, "fire", "target '%s' is a unit of its own side", t->id);
	for (i = 0; i < ord_ctx_nevents(ctx); i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		if (e != ev && (!strcmp(e->kind, "fire") || !strcmp(e->kind, "artillery")) &&
		    ev_unit(ctx, e, "unit") == u)
			ord_diag_add(d, 0, 0, u->id, "one battalion will fire at one target",
				     "unit '%s' already fired this turn (event #%u)", u->id, e->seq);
	}
	if (order_has(o, "C") && !(is_art && order_has(o, "UL") && !strcmp(kind(u), "horse_artillery")))
		ord_diag_add(d, 0, 0, u->id, "a charging unit can't fire",
			     "unit '%s' is charging this turn and cannot fire", u->id);
	if (ord_kv_get(&u->state, "melee_with") && *ord_kv_get(&u->state, "melee_with") &&
	    st(u, "melee_since") < turn)
		ord_diag_add(d, 0, 0, u->id, "troops still in melee can't fire",
			     "unit '%s' is still in the melee with '%s' from an earlier turn", u->id,
			     ord_kv_get(&u->state, "melee_with"));
	if (ord_kv_get_bool(&ev->kv, "firer_in_woods", 0))
		ord_diag_add(d, 0, 0, u->id, "cover", "units in woods may not fire");
	if (routed(ctx, u))
		ord_diag_add(d, 0, 0, u->id, "routed units can't fire", "unit '%s' is routed", u->id);
	if (target && ord_ctx_find_unit(ctx, target->value) != t)
		ord_diag_add(d, 0, 0, u->id, "must fire the shot indicated in its orders",
			     "unit '%s' fired at '%s' but its sheet names '@%s'", u->id, t->id, target->value);
	if (!artillery || !is_art)
		return;
	{
		const struct ord_token *f = order_fire(o);
		const char *shot = ord_kv_get(&ev->kv, "shot");
		int horse = !strcmp(kind(u), "horse_artillery");

		if (!f)
			ord_diag_add(d, 0, 0, u->id, "must fire the shot indicated in its orders",
				     "gun '%s' has no fire order (Fb, Fs or Fg) on its sheet", u->id);
		else if (shot && strcmp(shot, fire_code_shot(f->value)))
			ord_diag_add(d, 0, 0, u->id, "must fire the shot indicated in its orders",
				     "gun '%s' fired %s but its sheet orders %s (%s)", u->id, shot,
				     fire_code_shot(f->value), f->value);
		if (st(u, "silenced"))
			ord_diag_add(d, 0, 0, u->id, "2 hits knock out artillery", "gun '%s' is silenced", u->id);
		if (!strcmp(formation(u), "limbered") && !(horse && order_has(o, "UL")))
			ord_diag_add(d, 0, 0, u->id, "UL", "gun '%s' has not unlimbered", u->id);
		else if (!horse && st(u, "unlimbered") == turn)
			ord_diag_add(d, 0, 0, u->id, "UL - unlimber (1 turn except for horse art.)",
				     "foot artillery '%s' unlimbered this turn and cannot fire before the next", u->id);
	}
}

static int bat_check_event(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_diag *d)
{
	size_t before = d->n;

	if (!strcmp(ev->kind, "move")) {
		check_move(ctx, ev, d);
	} else if (!strcmp(ev->kind, "form")) {
		struct ord_unit *u = ev_unit(ctx, ev, "unit");
		const struct ord_token *f = order_form(ord_ctx_order(ctx, u));
		const char *want = ord_kv_get(&ev->kv, "formation");
		if (!f || strcmp(form_code_formation(f->value), want))
			ord_diag_add(d, 0, 0, u->id, "orders may never be changed",
				     "unit '%s' formed %s but its sheet orders %s", u->id, want,
				     f ? f->value : "no formation change");
	} else if (!strcmp(ev->kind, "limber") || !strcmp(ev->kind, "unlimber")) {
		struct ord_unit *u = ev_unit(ctx, ev, "unit");
		const char *code = !strcmp(ev->kind, "limber") ? "L" : "UL";
		if (strcmp(arm(ctx, u), "artillery"))
			ord_diag_add(d, 0, 0, u->id, "artillery", "unit '%s' is not artillery", u->id);
		else if (!order_has(ord_ctx_order(ctx, u), code))
			ord_diag_add(d, 0, 0, u->id, "orders may never be changed",
				     "gun '%s' %sed but its sheet has no %s", u->id, ev->kind, code);
	} else if (!strcmp(ev->kind, "fire") || !strcmp(ev->kind, "artillery")) {
		check_fire(ctx, ev, d, !strcmp(ev->kind, "artillery"));
	} else if (!strcmp(ev->kind, "melee")) {
		struct ord_unit *a = ev_unit(ctx, ev, "a"), *b = ev_unit(ctx, ev, "b");
		const char *wa = ord_kv_get(&a->state, "melee_with");
		const char *wb = ord_kv_get(&b->state, "melee_with");
		if (!strcmp(a->side, b->side))
			ord_diag_add(d, 0, 0, a->id, "melee", "'%s' and '%s' are of the same side", a->id, b->id);
		if (wa && *wa && strcmp(wa, b->id))
			ord_diag_add(d, 0, 0, a->id, "melee", "unit '%s' is still in melee with '%s'", a->id, wa);
		if (wb && *wb && strcmp(wb, a->id))
			ord_diag_add(d, 0, 0, b->id, "melee", "unit '%s' is still in melee with '%s'", b->id, wb);
	} else if (!strcmp(ev->kind, "halt")) {
		struct ord_unit *u = ev_unit(ctx, ev, "unit");
		if (strcmp(arm(ctx, u), "cavalry"))
			ord_diag_add(d, 0, 0, u->id, "pursuit", "only cavalry pursues; '%s' is %s", u->id, kind(u));
	}
	return d->n > before ? ORD_ECHECK : 0;
}

/* ---- resolution ---- */

static void apply_outcome(struct ord_ctx *ctx, struct ord_unit *u, const char *outcome,
			  const char *new_class)
{
	int turn = ord_ctx_turn(ctx);

	if (!strcmp(outcome, "good"))
		return;
	st_set(u, "failed", 1);
	if (!strcmp(outcome, "retreat")) {
		st_set(u, "retreat_turn", turn + 1);
		st_set(u, "dress_turn", turn + 1 + (long)param(ctx, "dress_ranks_turns", 1));
	} else {
		st_set(u, "rout_until", turn + (long)param(ctx, "rout_turns", 3));
		st_set(u, "penalty_until", turn + (long)param(ctx, "rout_penalty_turns", 5));
		if (new_class)
			ord_kv_set(&u->state, "class", new_class);
	}
}

/* One morale test (d6 rules or the d20 chart); returns the outcome. */
static int morale_test(struct ord_ctx *ctx, struct ord_unit *u, const char *chart, int lost_melee,
		       const char *purpose, const char **outcome)
{
	struct ord_buf why = ORD_BUF_INIT, id = ORD_BUF_INIT;
	struct ord_kv vals;
	int die, err;

	ord_kv_init(&vals);
	ord_buf_addf(&id, "%s %s", purpose, u->id);
	if (!strcmp(chart, "d20")) {
		struct bat_morale20_in in;
		struct bat_morale20_out out;
		if ((err = ord_ctx_roll(ctx, &die, 20, id.buf, 0, 0)) != 0)
			goto out;
		in.cls = ord_kv_get(&u->state, "class");
		in.die = die;
		if ((err = bat_morale20(R(ctx), &in, &out, &why)) != 0)
			goto out;
		apply_outcome(ctx, u, out.outcome, out.new_class);
		*outcome = out.outcome;
		ord_kv_set(&vals, "outcome", out.outcome);
		ord_kv_set_int(&vals, "die", die);
		ord_ctx_result(ctx, 0, u->id, &vals, "morale (d20 chart): %s", why.buf);
	} else {
		struct bat_morale_in in;
		struct bat_morale_out out;
		if ((err = ord_ctx_roll(ctx, &die, 6, id.buf, 0, 0)) != 0)
			goto out;
		in.die = die;
		in.losses = (int)turn_losses(ctx, u);
		in.elite = is_elite(u);
		in.militia = is_militia(u);
		in.failed_before = st(u, "failed") != 0;
		in.lost_melee = lost_melee;
		in.routed_recently = st(u, "penalty_until") >= ord_ctx_turn(ctx);
		if ((err = bat_morale(R(ctx), &in, &out, &why)) != 0)
			goto out;
		apply_outcome(ctx, u, out.outcome, NULL);
		*outcome = out.outcome;
		ord_kv_set(&vals, "outcome", out.outcome);
		ord_kv_set_int(&vals, "score", out.score);
		ord_kv_set_int(&vals, "die", die);
		ord_ctx_result(ctx, 0, u->id, &vals, "morale: %s", why.buf);
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
			if (charge) {
				st_set(u, "charged", turn);
				st_set(u, "last_charge", turn);
			}
			if (c) {
				st_set(u, "contact", turn);
				st_set(c, "contact", turn);
			}
			ord_kv_set(&vals, "distance", ord_kv_get(&e->kv, "distance"));
			ord_ctx_result(ctx, e->seq, u->id, &vals, "%s %s\" over %s ground%s%s", charge ? "charged" : "moved",
				       ord_kv_get(&e->kv, "distance"), ord_kv_get(&e->kv, "terrain"),
				       c ? ", into contact with " : "", c ? c->id : "");
		} else if (!strcmp(e->kind, "form")) {
			const char *f = ord_kv_get(&e->kv, "formation");
			ord_kv_set(&u->state, "formation", f);
			st_set(u, "changed", turn);
			ord_kv_set(&vals, "formation", f);
			ord_ctx_result(ctx, e->seq, u->id, &vals, "formed %s (the change takes the turn)", f);
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

/* The figures a unit fires with unless the referee counted them. */
static int default_firers(struct ord_ctx *ctx, const struct ord_unit *u)
{
	long fig = st(u, "figures");
	double col = param(ctx, "column_firers", 8);

	if (!strcmp(formation(u), "column") && fig > col)
		return (int)col;
	return (int)fig;
}

static int resolve_fire(struct ord_ctx *ctx)
{
	int turn = ord_ctx_turn(ctx);
	size_t i, n = ord_ctx_nevents(ctx);
	int *cas = ord_xcalloc(n + 1, sizeof(*cas));
	int *hit = ord_xcalloc(n + 1, sizeof(*hit));
	int err = 0;

	/* every unit fires with its strength before the fire: trays are
	 * removed only after both sides have fired */
	for (i = 0; i < n; i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		struct ord_unit *u = ev_unit(ctx, e, "unit"), *t = ev_unit(ctx, e, "target");
		const struct ord_order *o = ord_ctx_order(ctx, u);
		struct ord_buf why = ORD_BUF_INIT;
		struct ord_kv vals;

		ord_kv_init(&vals);
		if (!strcmp(e->kind, "fire")) {
			struct bat_fire_in in;
			struct bat_fire_out out;
			memset(&in, 0, sizeof(in));
			in.firers = (int)ord_kv_get_int(&e->kv, "firers", default_firers(ctx, u));
			in.weapon = ord_kv_get(&u->attrs, "weapon");
			if (!in.weapon || !strcmp(in.weapon, "none"))
				in.weapon = "musket";
			in.range = ord_kv_get_num(&e->kv, "range", 0);
			in.target_formation = formation(t);
			in.target_moved = st(t, "moved") == turn;
			in.firer_moved = ordered_quarters(o) > 0 || st(u, "moved") == turn;
			in.firer_changed_formation = order_form(o) != NULL || st(u, "changed") == turn;
			in.firer_light = !strcmp(kind(u), "light_infantry");
			in.firer_skirmish = !strcmp(formation(u), "skirmish") || !strcmp(formation(u), "misc") ||
					    !strcmp(kind(u), "skirmishers");
			in.enfilade = ord_kv_get_bool(&e->kv, "enfilade", 0);
			in.target_in_woods = ord_kv_get_bool(&e->kv, "target_in_woods", 0);
			in.firer_in_woods = ord_kv_get_bool(&e->kv, "firer_in_woods", 0);
			in.firer_on_hill = ord_kv_get_bool(&e->kv, "hill", 0);
			if ((err = bat_fire(R(ctx), &in, &out, &why)) != 0) {
				ord_buf_release(&why);
				ord_kv_release(&vals);
				goto out;
			}
			cas[i] = out.casualties;
			ord_kv_set_int(&vals, "casualties", out.casualties);
			ord_kv_set(&vals, "by", u->id);
			ord_ctx_result(ctx, e->seq, t->id, &vals, "fired on by %s (%s, %s\"): %s",
				       u->id, in.weapon, ord_kv_get(&e->kv, "range"), why.buf);
		} else if (!strcmp(e->kind, "artillery")) {
			struct bat_artillery_in in;
			struct bat_artillery_out out;
			const struct ord_token *f = order_fire(o);
			int die;
			memset(&in, 0, sizeof(in));
			in.shot = ord_kv_get(&e->kv, "shot");
			if (!in.shot)
				in.shot = f ? fire_code_shot(f->value) : "ball";
			in.range = ord_kv_get_num(&e->kv, "range", 0);
			in.target_formation = strstr(formation(t), "limber") ? "line" : formation(t);
			in.horse_moved_unlimbered = !strcmp(kind(u), "horse_artillery") &&
						    st(u, "moved") == turn && st(u, "unlimbered") == turn;
			if ((err = ord_ctx_roll(ctx, &die, 6, "artillery to hit", e->seq, 0)) != 0) {
				ord_buf_release(&why);
				ord_kv_release(&vals);
				goto out;
			}
			in.die = die;
			if ((err = bat_artillery(R(ctx), &in, &out, &why)) != 0) {
				ord_buf_release(&why);
				ord_kv_release(&vals);
				goto out;
			}
			cas[i] = out.casualties;
			hit[i] = out.hit && !strcmp(arm(ctx, t), "artillery");
			ord_kv_set(&vals, "hit", out.hit ? "yes" : "no");
			ord_kv_set_int(&vals, "casualties", out.casualties);
			ord_kv_set(&vals, "by", u->id);
			ord_ctx_result(ctx, e->seq, t->id, &vals, "fired on by gun %s (%s, %s\"): %s", u->id,
				       in.shot, ord_kv_get(&e->kv, "range"), why.buf);
		}
		ord_kv_release(&vals);
		ord_buf_release(&why);
	}
	for (i = 0; i < n; i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		struct ord_unit *t = ev_unit(ctx, e, "target");
		if (!t)
			continue;
		if (cas[i])
			take_losses(ctx, t, cas[i]);
		if (hit[i]) {
			st_set(t, "hits", st(t, "hits") + 1);
			if (st(t, "hits") >= (long)param(ctx, "gun_hits_silence", 2) && !st(t, "silenced")) {
				st_set(t, "silenced", 1);
				ord_ctx_result(ctx, e->seq, t->id, NULL, "gun silenced: %ld artillery hits",
					       st(t, "hits"));
			}
		}
		if (cas[i] || hit[i])
			st_set(t, "fired_on", turn);
	}
out:
	free(cas);
	free(hit);
	return err;
}

static int resolve_fire_morale(struct ord_ctx *ctx)
{
	int turn = ord_ctx_turn(ctx);
	size_t i, j, n = ord_ctx_nunits(ctx);
	int err = 0;

	for (i = 0; i < n; i++) {
		struct ord_unit *u = ord_ctx_unit(ctx, i);
		const char *chart = "d6", *outcome;
		int tested = 0, exempt = 0;

		for (j = 0; j < ord_ctx_nevents(ctx); j++) {
			const struct ord_event *e = ord_ctx_event(ctx, j);
			if (ev_unit(ctx, e, "unit") != u)
				continue;
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
		/* a unit that made melee contact this turn tests after the melee */
		if (!tested && st(u, "contact") == turn) {
			ord_ctx_result(ctx, 0, u->id, NULL,
				       "no fire morale test: it made melee contact this turn");
			continue;
		}
		if ((err = morale_test(ctx, u, chart, 0, "fire morale", &outcome)) != 0)
			return err;
	}
	return 0;
}

static void melee_side(struct ord_ctx *ctx, const struct ord_event *e, struct ord_unit *u,
		       struct ord_unit *enemy, const char *p, struct bat_melee_side *s)
{
	char key[32];
	const char *with = ord_kv_get(&u->state, "melee_with");
	int turn = ord_ctx_turn(ctx);
	int continuing = with && !strcmp(with, enemy->id) && st(u, "melee_since") < turn;

	snprintf(key, sizeof(key), "%s_figures", p);
	s->kind = kind(u);
	s->figures = (int)ord_kv_get_int(&e->kv, key, st(u, "figures"));
	if (routed(ctx, u))
		s->figures = 0; /* routed units have no melee value */
	s->column = !strcmp(formation(u), "column");
	s->motion = st(u, "moved") == turn;
	snprintf(key, sizeof(key), "%s_fresh", p);
	s->fresh = ord_kv_get_bool(&e->kv, key, !continuing);
	s->charging = st(u, "charged") == turn;
	s->elite = is_elite(u);
	s->square_vs_cavalry = !strcmp(formation(u), "square") && !strcmp(arm(ctx, enemy), "cavalry");
	snprintf(key, sizeof(key), "%s_hill", p);
	s->hill = ord_kv_get_bool(&e->kv, key, 0);
}

static int resolve_melee(struct ord_ctx *ctx)
{
	int turn = ord_ctx_turn(ctx);
	size_t i;
	int err = 0;

	for (i = 0; i < ord_ctx_nevents(ctx); i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		struct ord_unit *a = ev_unit(ctx, e, "a"), *b = ev_unit(ctx, e, "b");
		struct bat_melee_in in;
		struct bat_melee_out out;
		struct ord_buf why = ORD_BUF_INIT;
		struct ord_kv vals;
		int da, db;

		if (strcmp(e->kind, "melee"))
			continue;
		memset(&in, 0, sizeof(in));
		melee_side(ctx, e, a, b, "a", &in.a);
		melee_side(ctx, e, b, a, "b", &in.b);
		if ((err = ord_ctx_roll(ctx, &da, 6, "melee a", e->seq, 0)) != 0 ||
		    (err = ord_ctx_roll(ctx, &db, 6, "melee b", e->seq, 0)) != 0)
			return err;
		in.a.die = da;
		in.b.die = db;
		if ((err = bat_melee(R(ctx), &in, &out, &why)) != 0) {
			ord_buf_release(&why);
			return err;
		}
		take_losses(ctx, a, out.casualties_a);
		take_losses(ctx, b, out.casualties_b);
		if (!ord_kv_get(&a->state, "melee_with") || strcmp(ord_kv_get(&a->state, "melee_with"), b->id))
			st_set(a, "melee_since", turn);
		if (!ord_kv_get(&b->state, "melee_with") || strcmp(ord_kv_get(&b->state, "melee_with"), a->id))
			st_set(b, "melee_since", turn);
		ord_kv_set(&a->state, "melee_with", b->id);
		ord_kv_set(&b->state, "melee_with", a->id);
		if (out.winner == BAT_A)
			st_set(b, "lost_melee", turn);
		else if (out.winner == BAT_B)
			st_set(a, "lost_melee", turn);
		ord_kv_init(&vals);
		ord_kv_set(&vals, "winner", out.winner == BAT_A ? a->id : out.winner == BAT_B ? b->id : "");
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

static int resolve_melee_morale(struct ord_ctx *ctx)
{
	int turn = ord_ctx_turn(ctx);
	size_t i, j, n = ord_ctx_nunits(ctx);
	int err;

	for (i = 0; i < n; i++) {
		struct ord_unit *u = ord_ctx_unit(ctx, i), *w;
		const char *outcome = "good", *with;

		if (st(u, "lost_melee") != turn)
			continue;
		if ((err = morale_test(ctx, u, "d6", 1, "melee morale", &outcome)) != 0)
			return err;
		with = ord_kv_get(&u->state, "melee_with");
		w = with && *with ? ord_ctx_find_unit(ctx, with) : NULL;
		if (!strcmp(outcome, "good")) {
			ord_ctx_result(ctx, 0, u->id, NULL, "holds: the melee with %s continues next turn",
				       w ? w->id : "the enemy");
			continue;
		}
		/* broken: the melee ends */
		ord_kv_set(&u->state, "melee_with", "");
		if (!w)
			continue;
		ord_kv_set(&w->state, "melee_with", "");
		if (!strcmp(arm(ctx, w), "cavalry") && !strcmp(arm(ctx, u), "infantry")) {
			struct bat_melee_in in;
			struct bat_melee_out out;
			struct ord_buf why = ORD_BUF_INIT;
			struct ord_kv vals;
			int halted = 0, da, db;

			for (j = 0; j < ord_ctx_nevents(ctx); j++)
				if (!strcmp(ord_ctx_event(ctx, j)->kind, "halt") &&
				    ev_unit(ctx, ord_ctx_event(ctx, j), "unit") == w)
					halted = 1;
			if (halted) {
				ord_ctx_result(ctx, 0, w->id, NULL, "does not pursue %s", u->id);
				continue;
			}
			/* pursuit: the cavalry re-fights the broken infantry at once */
			memset(&in, 0, sizeof(in));
			in.a.kind = kind(w);
			in.a.figures = (int)st(w, "figures");
			in.a.motion = 1;
			in.a.elite = is_elite(w);
			in.b.kind = kind(u);
			in.b.figures = (int)st(u, "figures");
			in.pursuit = BAT_A;
			{
				struct ord_buf id = ORD_BUF_INIT;
				ord_buf_addf(&id, "pursuit %s", w->id);
				err = ord_ctx_roll(ctx, &da, 6, id.buf, 0, 0);
				ord_buf_reset(&id);
				ord_buf_addf(&id, "pursued %s", u->id);
				if (!err)
					err = ord_ctx_roll(ctx, &db, 6, id.buf, 0, 0);
				ord_buf_release(&id);
				if (err)
					return err;
			}
			in.a.die = da;
			in.b.die = db;
			if ((err = bat_melee(R(ctx), &in, &out, &why)) != 0) {
				ord_buf_release(&why);
				return err;
			}
			take_losses(ctx, w, out.casualties_a);
			take_losses(ctx, u, out.casualties_b);
			ord_kv_init(&vals);
			ord_kv_set_int(&vals, "casualties_a", out.casualties_a);
			ord_kv_set_int(&vals, "casualties_b", out.casualties_b);
			ord_ctx_result(ctx, 0, u->id, &vals, "pursued by %s: %s", w->id, why.buf);
			ord_kv_release(&vals);
			ord_buf_release(&why);
		}
	}
	return 0;
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

static int bat_check_execution(struct ord_ctx *ctx, struct ord_diag *d)
{
	size_t i, j;

	for (i = 0; i < ord_ctx_nunits(ctx); i++) {
		struct ord_unit *u = ord_ctx_unit(ctx, i);
		const struct ord_order *o = ord_ctx_order(ctx, u);
		const struct ord_token *f = order_form(o);
		int charged = 0, formed = 0;

		if (!o)
			continue;
		for (j = 0; j < ord_ctx_nevents(ctx); j++) {
			const struct ord_event *e = ord_ctx_event(ctx, j);
			if (ev_unit(ctx, e, "unit") != u)
				continue;
			if (!strcmp(e->kind, "move") && ord_kv_get_bool(&e->kv, "charge", 0))
				charged = 1;
			if (!strcmp(e->kind, "form"))
				formed = 1;
		}
		if (order_has(o, "C") && !charged && !routed(ctx, u))
			ord_diag_add(d, o->line, 0, u->id, "C", "ordered to charge (C) but no charge was recorded");
		if (f && !formed)
			ord_diag_add(d, o->line, 0, u->id, f->value,
				     "ordered to form %s (%s) but no formation change was recorded",
				     form_code_formation(f->value), f->value);
	}
	return 0;
}

/* ---- reports ---- */

static void morale_words(struct ord_ctx *ctx, const struct ord_unit *u, struct ord_buf *out)
{
	int turn = ord_ctx_turn(ctx);

	if (routed(ctx, u))
		ord_buf_addf(out, "routed (to the rear until turn %ld)", st(u, "rout_until"));
	else if (st(u, "retreat_turn") == turn)
		ord_buf_adds(out, "retreating");
	else if (st(u, "dress_turn") == turn)
		ord_buf_adds(out, "dressing ranks");
	else if (st(u, "retreat_turn") == turn + 1)
		ord_buf_adds(out, "shaken: retreats next turn");
	else
		ord_buf_adds(out, "good");
}

static int bat_describe_unit(struct ord_ctx *ctx, const struct ord_unit *u, const char *viewer,
			     struct ord_buf *out)
{
	const char *with = ord_kv_get(&u->state, "melee_with");
	long fpt = (long)param(ctx, "figures_per_tray", 4);
	long fig = st(u, "figures");

	ord_buf_addf(out, "%s %s (%s, %s): ", u->id, u->name, u->side, kind(u));
	if (!viewer || !strcmp(viewer, u->side)) {
		ord_buf_addf(out, "%ld figures (%ld lost: %ld trays removed, %ld carried), %s, morale ",
			     fig, st(u, "losses"), st(u, "trays"), st(u, "carried"), formation(u));
		morale_words(ctx, u, out);
		if (st(u, "failed"))
			ord_buf_adds(out, ", has failed before");
		ord_buf_addf(out, ", class %s", ord_kv_get(&u->state, "class") ? ord_kv_get(&u->state, "class") : "?");
		if (st(u, "last_charge"))
			ord_buf_addf(out, ", last charged in turn %ld", st(u, "last_charge"));
		if (st(u, "hits"))
			ord_buf_addf(out, ", %ld artillery hit%s%s", st(u, "hits"), st(u, "hits") == 1 ? "" : "s",
				     st(u, "silenced") ? " (silenced)" : "");
	} else {
		/* what the enemy sees on the table: trays and formation, not figures */
		ord_buf_addf(out, "about %ld tray%s, %s, morale ", fpt ? (fig + fpt - 1) / fpt : fig,
			     fpt && (fig + fpt - 1) / fpt == 1 ? "" : "s", formation(u));
		morale_words(ctx, u, out);
		if (st(u, "silenced"))
			ord_buf_adds(out, ", silenced");
	}
	if (with && *with)
		ord_buf_addf(out, ", in melee with %s", with);
	return 0;
}

const struct ord_ruleset ord_ruleset_battalion = {
	ORD_RULESET_VERSION,         /* version */
	"battalion",                 /* name */
	"hieroglyph",                /* notation */
	phases,                      /* phases */
	unit_attrs,                  /* unit_attrs */
	events,                      /* events */
	"rulesets/battalion/tables.xml", /* tables_resource */
	bat_load,                    /* load */
	bat_free,                    /* free */
	bat_init_unit,               /* init_unit */
	bat_validate_sheet,          /* validate_sheet */
	bat_check_event,             /* check_event */
	bat_resolve_phase,           /* resolve_phase */
	bat_check_execution,         /* check_execution */
	bat_describe_unit,           /* describe_unit */
	bat_calc,                    /* calc */
	bat_print_tables,            /* print_tables */
};
