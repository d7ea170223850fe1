/*
 * calc.c - the battalion rules computed from the loaded tables (calc.h);
 * the calculator that offers them is calculator.c.
 *
 * Every rule number comes from rulesets/battalion/tables.xml; what stays in
 * C is the order of the steps the rule text describes (base, modifiers,
 * rounding, trays) and the checking of inputs.  The same functions serve
 * the calculator and the turn resolution, so both always agree.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rulesets/battalion/calc.h"

/* The battalion module's struct ord_rules (opaque to the core). */
struct ord_rules {
	struct bat_rules bat;
};

/* What bat_load insists on, so that a club's edited tables fail when they
 * are loaded rather than in the middle of a turn. */
static const struct ord_tables_need_table needed_tables[] = {
	{ "kinds", ORD_TABLE_CHART },
	{ "formations", ORD_TABLE_CHART },
	{ "movement", ORD_TABLE_CHART },
	{ "movement_bonus", ORD_TABLE_MODIFIERS },
	{ "terrain", ORD_TABLE_CHART },
	{ "fire", ORD_TABLE_BANDS },
	{ "fire_modifiers", ORD_TABLE_MODIFIERS },
	{ "artillery", ORD_TABLE_BANDS },
	{ "artillery_modifiers", ORD_TABLE_MODIFIERS },
	{ "morale_modifiers", ORD_TABLE_MODIFIERS },
	{ "morale", ORD_TABLE_DICE },
	{ "morale20", ORD_TABLE_DICE },
	{ "morale20_classes", ORD_TABLE_CHART },
	{ "melee_points", ORD_TABLE_CHART },
	{ "melee_die", ORD_TABLE_MODIFIERS },
	{ "melee_casualties", ORD_TABLE_MODIFIERS },
};

static const char *const needed_params[] = {
	"figures_per_tray",
	"move_fraction_parts",
	"round_up_from",
	"melee_round_up_from",
	"woods_fired_on_within",
	"woods_may_fire",
	"artillery_die",
	"morale_die",
	"melee_die",
	"winner_divisor",
	"loser_divisor",
	"tie_divisor",
};

/* Columns and labels the code reads, checked at load like the tables.
 * Not kinds' formation (D27, D28): the tables of a game made before it
 * have none, and such a game plays on as it was made, each unit in its own
 * formation and a gun's crew a line (bat_chart_formation). */
static const struct ord_tables_need_field needed_fields[] = {
	{ "kinds", "arm", 1 },
	{ "formations", "fires_as", 1 },
	{ "formations", "enfilade_as", 1 },
	{ "movement", "reg", 0 },
	{ "movement", "charge", 0 },
	{ "terrain", "reg", 0 },
	{ "terrain", "charge", 0 },
	{ "fire", "hits", 0 },
	{ "artillery", "dead", 0 },
	{ "artillery", "hit", 0 },
	{ "morale", "outcome", 1 },
	{ "morale20", "outcome", 1 },
	{ "morale20_classes", "after_rout", 1 },
	{ "melee_points", "points", 0 },
};

/* The values the code can work with (a die needs two faces, a tray a
 * figure), checked at load like the tables; the module's own parameters
 * are checked in battalion.c. */
#define WHOLE ORD_TABLES_WHOLE
#define NUM ORD_TABLES_NUM
static const struct ord_tables_range ranges[] = {
	WHOLE("figures_per_tray", 1, 1000),
	WHOLE("move_fraction_parts", 1, 100),
	NUM("round_up_from", 0.01, 1),
	NUM("melee_round_up_from", 0.01, 1),
	NUM("woods_fired_on_within", 0, INFINITY),
	WHOLE("woods_may_fire", 0, 1),
	WHOLE("artillery_die", 2, 1000),
	WHOLE("morale_die", 2, 1000),
	WHOLE("melee_die", 2, 1000),
	NUM("winner_divisor", 1, INFINITY),
	NUM("loser_divisor", 1, INFINITY),
	NUM("tie_divisor", 1, INFINITY),
	WHOLE("melee_names_units", 0, 1), /* optional: a game made before has none */
	WHOLE("melee_tie_untested", 0, 1),
	WHOLE("routed_no_melee_value", 0, 1),
	WHOLE("pursued_retreat_has_value", 0, 1),
	WHOLE("melee_both_enemies", 0, 1),
	WHOLE("melee_points_by_formation", 0, 1),
	WHOLE("horse_moved_by_sheet", 0, 1),
	WHOLE("destroyed_untested", 0, 1),
	/* the checks (table checks), optional too */
	WHOLE("retreat_orders_checked", 0, 1),
	WHOLE("same_formation_checked", 0, 1),
	WHOLE("range_checked", 0, 1),
	WHOLE("unlimber_move_checked", 0, 1),
	WHOLE("routed_moves_checked", 0, 1),
	WHOLE("charge_moves_checked", 0, 1),
	WHOLE("fire_at_charger_checked", 0, 1),
	WHOLE("sheet_state_checked", 0, 1),
	WHOLE("gun_shot_checked", 0, 1),
	WHOLE("routed_gun_checked", 0, 1),
	WHOLE("stand_firers_checked", 0, 1),
	WHOLE("screen_figures_checked", 0, 1),
	WHOLE("charge_form_checked", 0, 1),
	WHOLE("contact_move_checked", 0, 1),
	WHOLE("melee_hill_checked", 0, 1),
	WHOLE("melee_hill_whole_side", 0, 1),
	WHOLE("retreat_moves_listed", 0, 1),
	WHOLE("overridden_effect_said", 0, 1),
	WHOLE("gun_formation_said", 0, 1),
	WHOLE("charge_no_settles", 0, 1),
	WHOLE("charge_forest_declined", 0, 1),
	WHOLE("position_distance_checked", 0, 1),
	NUM("position_tolerance", 0, INFINITY),
	WHOLE("range_position_checked", 0, 1),
	NUM("range_position_tolerance", 0, INFINITY),
	{ "movement", "reg", 0, INFINITY, 0 },
	{ "movement", "charge", 0, INFINITY, 0 },
	{ "terrain", "reg", 0, INFINITY, 0 },
	{ "terrain", "charge", 0, INFINITY, 0 },
	{ "fire", "hits", 0, 100, 0 },
	{ "artillery", "dead", 0, INFINITY, 0 },
	{ "artillery", "hit", 0, 1000, 1 },
	{ "melee_points", "points", 1, INFINITY, 0 },
};
#undef WHOLE
#undef NUM

/* ---- loading ------------------------------------------------------------ */

static int check_tables(const struct ord_tables *t)
{
	static const struct ord_tables_needs needs = {
		"battalion",
		needed_tables,
		ORD_ARRAY_SIZE(needed_tables),
		needed_params,
		ORD_ARRAY_SIZE(needed_params),
		needed_fields,
		ORD_ARRAY_SIZE(needed_fields),
	};

	/* the morale tables answer every roll (the d6's with its modifiers, the
	 * d20 chart's for each class it gives), with an outcome the rules act on */
	static const struct ord_tables_dice dice[] = { { "morale", 1 }, { "morale20", 0 } };
	static const struct ord_tables_words outcomes[] = {
		{ "morale", "outcome", "good retreat rout" },
		{ "morale20", "outcome", "good retreat rout" },
	};
	int err = ord_tables_require(t, &needs);

	if (!err)
		err = ord_tables_check_ranges(t, ranges, ORD_ARRAY_SIZE(ranges));
	if (!err)
		err = ord_tables_check_dice(t, dice, ORD_ARRAY_SIZE(dice));
	return err ? err : ord_tables_check_words(t, outcomes, ORD_ARRAY_SIZE(outcomes));
}

int bat_load(struct ord_rules **out, const char *xml, size_t len, const char *name)
{
	struct ord_rules *rules = NULL;
	struct ord_tables *t = NULL;
	int err;

	*out = NULL;
	if ((err = ord_tables_load(&t, xml, len, name)) != 0)
		goto out;
	if ((err = check_tables(t)) != 0)
		goto out;
	rules = ord_xcalloc(1, sizeof(*rules));
	rules->bat.tables = t;
	rules->bat.kinds_seen = ord_xcalloc(1, sizeof(*rules->bat.kinds_seen));
	t = NULL;
	*out = rules;
out:
	ord_tables_free(t);
	return err;
}

void bat_free(struct ord_rules *rules)
{
	size_t i;

	if (!rules)
		return;
	ord_tables_free(rules->bat.tables);
	ord_buf_release(&rules->bat.rows_whole);
	ord_buf_release(&rules->bat.formations_whole);
	for (i = 0; rules->bat.kinds_seen && i < rules->bat.kinds_seen->n; i++)
		free(rules->bat.kinds_seen->kind[i]);
	free(rules->bat.kinds_seen);
	free(rules);
}

struct bat_rules *bat_rules(struct ord_rules *rules)
{
	return rules ? &rules->bat : NULL;
}

int bat_param(const struct bat_rules *r, const char *name, double *out)
{
	return ord_tables_param(r->tables, name, out);
}

void bat_trays(const struct bat_rules *r, long losses, long *trays, long *carried)
{
	double v = 0;
	long per_tray;

	ord_tables_param(r->tables, "figures_per_tray", &v);
	per_tray = lround(v);
	if (per_tray < 1) /* never, after bat_load; no division by 0 all the same */
		per_tray = 1;
	if (losses < 0)
		losses = 0;
	*trays = losses / per_tray;
	*carried = losses % per_tray;
}

/* ---- helpers ------------------------------------------------------------- */

/* A table bat_load has checked; the lookups cannot fail. */
static const struct ord_table *table(const struct bat_rules *r, const char *name)
{
	return ord_tables_get(r->tables, name);
}

static double param(const struct bat_rules *r, const char *name)
{
	double v = 0;

	ord_tables_param(r->tables, name, &v);
	return v;
}

/* Is value one of the values of attr in the table?  ORD_EUSAGE naming key
 * and listing what is allowed otherwise. */
static int check_word(const struct bat_rules *r, const char *key, const char *value,
		      const char *tname, const char *attr)
{
	return ord_table_check_word(table(r, tname), key, value, attr);
}

static int check_die(const char *key, int die, double sides)
{
	if (die < 1 || die > (int)sides)
		return ord_error_set(ORD_EUSAGE, "%s: %d is not a face of a d%d (expected 1..%d)",
				     key, die, (int)sides, (int)sides);
	return 0;
}

/* Whole figures from a fraction: a part from up_from counts as a whole
 * figure (the rules' "1/2 = 1, 3/4 = 1"); never below 0. */
static int round_figures(double x, double up_from)
{
	double whole;

	if (!(x > 0))
		return 0;
	whole = floor(x);
	/* a tolerance, so that 2.5 computed as 2.4999999 still counts as 1/2 */
	if (x - whole >= up_from - 1e-9)
		whole += 1;
	return (int)whole;
}

static void add_num(struct ord_buf *b, double v)
{
	ord_tables_fmt(b, v, 1);
}

static void why_add(struct ord_buf *why, const struct ord_buf *b)
{
	if (why)
		ord_buf_add(why, b->buf, b->len);
}

/* ---- movement ---------------------------------------------------------- */

int bat_terrain_charges(const struct bat_rules *r, const char *terrain)
{
	const struct ord_row *trow;
	struct ord_kv match;
	int charges = 0;

	ord_kv_init(&match);
	ord_kv_set(&match, "terrain", terrain ? terrain : "open");
	if (ord_table_find(&trow, table(r, "terrain"), &match) == 0)
		charges = ord_row_has_num(trow, "charge");
	else
		ord_error_clear();
	ord_kv_release(&match);
	return charges;
}

int bat_move(const struct bat_rules *r, const struct bat_move_in *in, struct bat_move_out *out,
	     struct ord_buf *why)
{
	const char *terrain = in->terrain ? in->terrain : "open";
	const char *col = in->charge ? "charge" : "reg";
	struct ord_kv match, flags;
	struct ord_buf b = ORD_BUF_INIT;
	const struct ord_row *row, *trow;
	double parts = param(r, "move_fraction_parts"), base, total, factor, reg_factor;
	int err;

	ord_kv_init(&match);
	ord_kv_init(&flags);
	out->distance = 0;
	if ((err = check_word(r, "kind", in->kind, "kinds", "kind")) != 0 ||
	    (err = check_word(r, "formation", in->formation, "formations", "formation")) != 0 ||
	    (err = check_word(r, "terrain", terrain, "terrain", "terrain")) != 0)
		goto out;
	if (in->quarters < 1 || in->quarters > (int)parts) {
		err = ord_error_set(ORD_EUSAGE,
				    "fraction: %d/%d is not a fraction of the move (expected 1/%d..%d/%d)",
				    in->quarters, (int)parts, (int)parts, (int)parts, (int)parts);
		goto out;
	}
	ord_kv_set(&match, "kind", in->kind);
	ord_kv_set(&match, "formation", in->formation);
	if (ord_table_find(&row, table(r, "movement"), &match)) {
		err = ord_error_set(ORD_EUSAGE, "formation: the movement chart has no %s %s%s",
				    in->kind, in->shown ? "" : "in ",
				    in->shown ? in->shown : in->formation);
		goto out;
	}
	if (!ord_row_has_num(row, col)) {
		err = ord_error_set(ORD_EUSAGE, "charge: %s %s%s may not charge", in->kind,
				    in->shown ? "" : "in ", in->shown ? in->shown : in->formation);
		goto out;
	}
	if ((err = ord_row_num(row, col, &base)) != 0)
		goto out;
	ord_kv_set(&flags, in->kind, "yes");
	ord_kv_set(&flags, "elite", in->elite ? "yes" : "no");
	ord_kv_set(&flags, "charge", in->charge ? "yes" : "no");
	ord_buf_addf(&b, "%s %s%s, %s ", in->kind, in->shown ? "" : "in ",
		     in->shown ? in->shown : in->formation, in->charge ? "charge" : "move");
	if ((err = ord_table_apply(&total, table(r, "movement_bonus"), base, &flags, NULL, &b)) != 0)
		goto out;
	if (in->elite && in->charge)
		ord_buf_adds(&b, ", no elite bonus when charging");

	ord_kv_release(&match);
	ord_kv_init(&match);
	ord_kv_set(&match, "terrain", terrain);
	if ((err = ord_table_find(&trow, table(r, "terrain"), &match)) != 0)
		goto out;
	if (!ord_row_has_num(trow, col)) {
		err = ord_error_set(ORD_EUSAGE, "charge: may not charge in terrain '%s'", terrain);
		goto out;
	}
	if ((err = ord_row_num(trow, col, &factor)) != 0 ||
	    (err = ord_row_num(trow, "reg", &reg_factor)) != 0)
		goto out;
	if (factor != 1) {
		ord_buf_adds(&b, ", ×");
		add_num(&b, factor);
		ord_buf_addf(&b, " %s = ", terrain);
		add_num(&b, total * factor);
	} else if (in->charge && reg_factor != 1) {
		ord_buf_addf(&b, ", no %s bonus when charging", terrain);
	}
	total *= factor;
	if (in->quarters != (int)parts) {
		int n = in->quarters, d = (int)parts, g = n, h = d;
		while (h) { /* the fraction in lowest terms: 2/4 is 1/2 */
			int t = g % h;
			g = h;
			h = t;
		}
		ord_buf_addf(&b, ", × %d/%d of the move = ", n / g, d / g);
		add_num(&b, total * in->quarters / parts);
	}
	total = total * in->quarters / parts;
	/* a phrase last ("no elite bonus when charging"): say the total */
	if (b.len && (b.buf[b.len - 1] < '0' || b.buf[b.len - 1] > '9')) {
		ord_buf_adds(&b, " = ");
		add_num(&b, total);
	}
	ord_buf_adds(&b, " in.");
	out->distance = total;
	why_add(why, &b);
out:
	ord_kv_release(&match);
	ord_kv_release(&flags);
	ord_buf_release(&b);
	return err;
}

/* ---- fire ---------------------------------------------------------------- */

static void set_flag(struct ord_kv *flags, const char *name, int on)
{
	ord_kv_set(flags, name, on ? "yes" : "no");
}

/* Does every declared column of a bands table have a number in row?  "-"
 * is the rules' "---": no such fire at that range. */
static int band_fires(const struct ord_table *t, const struct ord_row *row)
{
	size_t i;

	for (i = 0; i < ord_table_ncolumns(t); i++)
		if (!ord_row_has_num(row, ord_table_column(t, i)))
			return 0;
	return 1;
}

/* The band of table tname (fire, artillery) of key=value holding range, when
 * it fires (band_fires); ORD_ENOTFOUND, the error cleared, otherwise. */
static int fire_band(const struct ord_row **row, const struct bat_rules *r, const char *tname,
		     const char *key, const char *value, double range)
{
	const struct ord_table *t = table(r, tname);
	struct ord_kv match;
	int err;

	ord_kv_init(&match);
	ord_kv_set(&match, key, value);
	err = ord_table_band(row, t, &match, range);
	ord_kv_release(&match);
	if (!err && !band_fires(t, *row))
		err = ORD_ENOTFOUND;
	ord_error_clear();
	return err;
}

int bat_reach(const struct bat_rules *r, const char *tname, const char *key, const char *value,
	      double range, double *reach)
{
	const struct ord_table *t = table(r, tname);
	const struct ord_row *row;
	size_t i;
	double to;

	*reach = 0;
	for (i = 0; i < ord_table_nrows(t); i++) {
		const char *v;
		row = ord_table_row(t, i);
		v = ord_row_str(row, key);
		if (v && (ord_words_has(v, value) || ord_words_has(v, "*")) && band_fires(t, row) &&
		    !ord_row_num(row, "to", &to) && to > *reach)
			*reach = to;
	}
	ord_error_clear();
	return !fire_band(&row, r, tname, key, value, range);
}

int bat_fire(const struct bat_rules *r, const struct bat_fire_in *in, struct bat_fire_out *out,
	     struct ord_buf *why)
{
	struct ord_kv match, flags;
	struct ord_buf b = ORD_BUF_INIT;
	const struct ord_row *row;
	const char *formation = in->target_formation;
	double pct, base, total;
	double woods = param(r, "woods_fired_on_within");
	int err;

	ord_kv_init(&match);
	ord_kv_init(&flags);
	memset(out, 0, sizeof(*out));
	if ((err = check_word(r, "weapon", in->weapon, "fire", "weapon")) != 0 ||
	    (err = check_word(r, "target_formation", formation, "formations", "formation")) != 0)
		goto out;
	if (in->firers < 0) {
		err = ord_error_set(ORD_EUSAGE, "firers: %d is below 0", in->firers);
		goto out;
	}
	if (!(in->range >= 0) || !isfinite(in->range)) {
		err = ord_error_set(ORD_EUSAGE, "range: must be a distance of 0 or more inches");
		goto out;
	}
	if (in->firer_in_woods && !param(r, "woods_may_fire")) {
		ord_buf_adds(&b, "no fire: units in woods do not fire");
		goto done;
	}
	if (in->target_in_woods && in->range > woods) {
		ord_buf_adds(&b, "no fire: a target in woods may be fired on only within ");
		add_num(&b, woods);
		ord_buf_adds(&b, " in.");
		goto done;
	}
	if (in->enfilade) {
		const struct ord_row *f;
		ord_kv_set(&match, "formation", formation);
		if ((err = ord_table_find(&f, table(r, "formations"), &match)) != 0)
			goto out;
		if (strcmp(ord_row_str(f, "enfilade_as"), formation))
			ord_buf_addf(&b, "enfiladed %s hit as %s; ", formation,
				     ord_row_str(f, "enfilade_as"));
		formation = ord_row_str(f, "enfilade_as");
		ord_kv_release(&match);
		ord_kv_init(&match);
	}
	if (fire_band(&row, r, "fire", "weapon", in->weapon, in->range)) {
		ord_buf_addf(&b, "out of range: %s at ", in->weapon);
		add_num(&b, in->range);
		ord_buf_adds(&b, " in.");
		goto done;
	}
	if ((err = ord_row_num(row, "hits", &pct)) != 0)
		goto out;
	out->in_range = 1;
	base = in->firers * pct / 100;
	ord_buf_addf(&b, "%d firer%s × ", in->firers, in->firers == 1 ? "" : "s");
	add_num(&b, pct);
	ord_buf_adds(&b, "% = ");

	{
		struct ord_buf tf = ORD_BUF_INIT;
		ord_buf_addf(&tf, "target_%s", formation);
		set_flag(&flags, tf.buf, 1);
		ord_buf_release(&tf);
	}
	set_flag(&flags, "target_moved", in->target_moved);
	set_flag(&flags, "firer_moved", in->firer_moved);
	set_flag(&flags, "firer_changed_formation", in->firer_changed_formation);
	set_flag(&flags, "firer_light", in->firer_light);
	set_flag(&flags, "firer_skirmish", in->firer_skirmish);
	set_flag(&flags, "firer_on_hill", in->firer_on_hill);
	if ((err = ord_table_apply(&total, table(r, "fire_modifiers"), base, &flags, NULL, &b)) != 0)
		goto out;
	out->raw = total;
	out->casualties = round_figures(total, param(r, "round_up_from"));
	if (total < 0)
		ord_buf_adds(&b, ", no fewer than 0");
	else if (total != (double)out->casualties) {
		ord_buf_adds(&b, " → ");
		add_num(&b, out->casualties);
	}
done : {
	long trays, carried;
	bat_trays(r, out->casualties, &trays, &carried);
	out->trays = (int)trays;
	out->remainder = (int)carried;
}
	why_add(why, &b);
out:
	ord_kv_release(&match);
	ord_kv_release(&flags);
	ord_buf_release(&b);
	return err;
}

/* ---- artillery ------------------------------------------------------------ */

int bat_artillery(const struct bat_rules *r, const struct bat_artillery_in *in,
		  struct bat_artillery_out *out, struct ord_buf *why)
{
	struct ord_kv match, flags;
	struct ord_buf b = ORD_BUF_INIT, tf = ORD_BUF_INIT;
	const struct ord_row *row;
	double dead, hit, total;
	int err;

	ord_kv_init(&match);
	ord_kv_init(&flags);
	memset(out, 0, sizeof(*out));
	if ((err = check_word(r, "shot", in->shot, "artillery", "shot")) != 0 ||
	    (err = check_word(r, "target_formation", in->target_formation, "formations",
			      "formation")) != 0 ||
	    (err = check_die("die", in->die, param(r, "artillery_die"))) != 0)
		goto out;
	if (!(in->range >= 0) || !isfinite(in->range)) {
		err = ord_error_set(ORD_EUSAGE, "range: must be a distance of 0 or more inches");
		goto out;
	}
	/* D12: "Units in woods may not be fired on unless they come within
	 * 4\" of the enemy, nor may they fire": guns as small arms */
	if (in->firer_in_woods && !param(r, "woods_may_fire")) {
		ord_buf_adds(&b, "no fire: units in woods do not fire");
		goto done;
	}
	if (in->target_in_woods && in->range > param(r, "woods_fired_on_within")) {
		ord_buf_adds(&b, "no fire: a target in woods may be fired on only within ");
		add_num(&b, param(r, "woods_fired_on_within"));
		ord_buf_adds(&b, " in.");
		goto done;
	}
	ord_kv_set(&match, "shot", in->shot);
	if (fire_band(&row, r, "artillery", "shot", in->shot, in->range)) {
		ord_buf_addf(&b, "out of range: %s at ", in->shot);
		add_num(&b, in->range);
		ord_buf_adds(&b, " in.");
		goto done;
	}
	if ((err = ord_row_num(row, "dead", &dead)) != 0 || (err = ord_row_num(row, "hit", &hit)) != 0)
		goto out;
	out->in_range = 1;
	out->to_hit = (int)hit;
	out->hit = in->die <= out->to_hit;
	ord_buf_addf(&b, "%s at ", in->shot);
	add_num(&b, in->range);
	ord_buf_addf(&b, " in.: d%d %d, ", (int)param(r, "artillery_die"), in->die);
	if (out->to_hit >= (int)param(r, "artillery_die"))
		ord_buf_adds(&b, "always hits");
	else if (out->to_hit <= 1)
		ord_buf_adds(&b, "hits on 1");
	else
		ord_buf_addf(&b, "hits on 1–%d", out->to_hit);
	if (!out->hit) {
		ord_buf_adds(&b, ": miss");
		goto done;
	}
	ord_buf_adds(&b, ": hit; ");
	ord_buf_addf(&tf, "target_%s", in->target_formation);
	set_flag(&flags, tf.buf, 1);
	set_flag(&flags, "horse_moved_unlimbered", in->horse_moved_unlimbered);
	set_flag(&flags, "firer_on_hill", in->firer_on_hill);
	if ((err = ord_table_apply(&total, table(r, "artillery_modifiers"), dead, &flags, &match,
				   &b)) != 0)
		goto out;
	out->casualties = round_figures(total, param(r, "round_up_from"));
	if (total != (double)out->casualties) {
		ord_buf_adds(&b, " → ");
		add_num(&b, out->casualties);
	}
	ord_buf_adds(&b, " dead");
done:
	why_add(why, &b);
out:
	ord_kv_release(&match);
	ord_kv_release(&flags);
	ord_buf_release(&b);
	ord_buf_release(&tf);
	return err;
}

/* ---- morale --------------------------------------------------------------- */

int bat_morale(const struct bat_rules *r, const struct bat_morale_in *in,
	       struct bat_morale_out *out, struct ord_buf *why)
{
	struct ord_kv flags;
	struct ord_buf b = ORD_BUF_INIT;
	const struct ord_row *row;
	double score;
	int err;

	ord_kv_init(&flags);
	out->score = 0;
	out->outcome = NULL;
	if ((err = check_die("die", in->die, param(r, "morale_die"))) != 0)
		goto out;
	if (in->losses < 0) {
		err = ord_error_set(ORD_EUSAGE, "losses: %d is below 0", in->losses);
		goto out;
	}
	ord_kv_set_int(&flags, "losses", in->losses);
	set_flag(&flags, "elite", in->elite);
	set_flag(&flags, "militia", in->militia);
	set_flag(&flags, "failed_before", in->failed_before);
	set_flag(&flags, "lost_melee", in->lost_melee);
	set_flag(&flags, "routed_recently", in->routed_recently);
	ord_buf_addf(&b, "d%d ", (int)param(r, "morale_die"));
	if ((err = ord_table_apply(&score, table(r, "morale_modifiers"), in->die, &flags, NULL, &b)) != 0)
		goto out;
	out->score = (int)lround(score);
	if ((err = ord_table_dice(&row, table(r, "morale"), NULL, out->score)) != 0)
		goto out;
	out->outcome = ord_row_str(row, "outcome");
	ord_buf_addf(&b, ": %s", out->outcome);
	why_add(why, &b);
out:
	ord_kv_release(&flags);
	ord_buf_release(&b);
	return err;
}

int bat_morale20(const struct bat_rules *r, const struct bat_morale20_in *in,
		 struct bat_morale20_out *out, struct ord_buf *why)
{
	const struct ord_table *dice = table(r, "morale20");
	struct ord_kv match;
	struct ord_buf b = ORD_BUF_INIT;
	const struct ord_row *row, *crow;
	int err;

	ord_kv_init(&match);
	out->outcome = NULL;
	out->new_class = in->cls;
	if ((err = check_word(r, "class", in->cls, "morale20", "class")) != 0 ||
	    (err = check_die("die", in->die, ord_table_die(dice))) != 0)
		goto out;
	ord_kv_set(&match, "class", in->cls);
	if ((err = ord_table_dice(&row, dice, &match, in->die)) != 0)
		goto out;
	out->outcome = ord_row_str(row, "outcome");
	ord_buf_addf(&b, "class %s, d%d %d: %s", in->cls, ord_table_die(dice), in->die, out->outcome);
	if (!strcmp(out->outcome, "rout")) {
		if ((err = ord_table_find(&crow, table(r, "morale20_classes"), &match)) != 0)
			goto out;
		out->new_class = ord_row_str(crow, "after_rout");
		if (strcmp(out->new_class, in->cls))
			ord_buf_addf(&b, ", drops to class %s", out->new_class);
		else
			ord_buf_addf(&b, ", stays class %s (no lower class)", out->new_class);
	}
	why_add(why, &b);
out:
	ord_kv_release(&match);
	ord_buf_release(&b);
	return err;
}

/* ---- melee ------------------------------------------------------------------ */

/* "A", "A2": a unit's name in the explanations. */
static void add_name(struct ord_buf *b, const char *name)
{
	for (; *name; name++)
		ord_buf_addch(b, *name >= 'a' && *name <= 'z' ? (char)(*name - 'a' + 'A') : *name);
}

struct side_calc {
	const char *name;  /* "a" or "b" */
	const char *unit;  /* its unit's id in the explanation, or NULL: "A", "B" */
	double per_figure; /* melee points per figure */
	int points;
	double die; /* adjusted */
	int score;
	const char *arm;
};

/* The kind whose melee points a figure of kind in formation counts: the
 * formation's melee_points_as in the table formations when the tables'
 * melee_points_by_formation is on ("Skirmishers ... 1 pt. each": infantry
 * in skirmish order as skirmishers, our reading), else, "*" or no such
 * label (tables of a game made before), the kind's own. */
static const char *melee_points_kind(const struct bat_rules *r, const char *kind, const char *formation)
{
	const struct ord_row *row;
	const char *as = NULL;

	if (!formation || !ord_tables_switch(r->tables, "melee_points_by_formation"))
		return kind;
	if (!ord_table_find1(&row, table(r, "formations"), "formation", formation))
		as = ord_row_str(row, "melee_points_as");
	ord_error_clear();
	return as && *as && strcmp(as, "*") ? as : kind;
}

static int melee_side(const struct bat_rules *r, const char *name, const struct bat_melee_side *s,
		      struct side_calc *c, struct ord_buf *b)
{
	struct ord_kv match, flags;
	struct ord_buf key = ORD_BUF_INIT, in = ORD_BUF_INIT;
	const struct ord_row *row;
	const char *as;
	int err;

	ord_kv_init(&match);
	ord_kv_init(&flags);
	c->name = name;
	c->unit = s->name;
	ord_buf_addf(&key, "%s_kind", name);
	if ((err = check_word(r, key.buf, s->kind, "kinds", "kind")) != 0)
		goto out;
	ord_buf_reset(&key);
	ord_buf_addf(&key, "%s_figures", name);
	if (s->figures < 1) {
		err = ord_error_set(ORD_EUSAGE, "%s: %d (expected 1 or more figures)", key.buf,
				    s->figures);
		goto out;
	}
	ord_buf_reset(&key);
	ord_buf_addf(&key, "%s_die", name);
	if ((err = check_die(key.buf, s->die, param(r, "melee_die"))) != 0)
		goto out;
	if (s->formation) {
		ord_buf_reset(&key);
		ord_buf_addf(&key, "%s_formation", name);
		if ((err = check_word(r, key.buf, s->formation, "formations", "formation")) != 0)
			goto out;
	}
	ord_kv_set(&match, "kind", s->kind);
	if ((err = ord_table_find(&row, table(r, "kinds"), &match)) != 0)
		goto out;
	c->arm = ord_row_str(row, "arm");
	as = melee_points_kind(r, s->kind, s->formation);
	ord_kv_set(&match, "kind", as);
	if (ord_table_find(&row, table(r, "melee_points"), &match)) {
		err = ord_error_set(ORD_EUSAGE, "%s_kind: '%s' has no melee points", name, as);
		goto out;
	}
	if ((err = ord_row_num(row, "points", &c->per_figure)) != 0)
		goto out;
	c->points = s->no_value ? 0 : (int)lround(s->figures * c->per_figure);
	/* "24 line_infantry in skirmish order", its points a skirmisher's */
	if (strcmp(as, s->kind))
		ord_buf_addf(&in, " in %s order", s->formation);
	set_flag(&flags, "column", s->column);
	set_flag(&flags, "motion", s->motion);
	set_flag(&flags, "fresh", s->fresh);
	set_flag(&flags, "charging", s->charging);
	set_flag(&flags, "elite", s->elite);
	set_flag(&flags, "square_vs_cavalry", s->square_vs_cavalry);
	set_flag(&flags, "hill", s->hill);
	if (c->unit)
		ord_buf_addf(b, "%s's", c->unit);
	else
		add_name(b, name);
	if (s->no_value) {
		ord_buf_addf(b, "%s %d %s%s, broken: no melee value, 0 pts × (d%d ", c->unit ? "" : ":",
			     s->figures, s->kind, in.len ? in.buf : "", (int)param(r, "melee_die"));
	} else {
		ord_buf_addf(b, "%s %d %s%s × ", c->unit ? "" : ":", s->figures, s->kind,
			     in.len ? in.buf : "");
		add_num(b, c->per_figure);
		if (in.len)
			ord_buf_addf(b, " (as %s)", as);
		ord_buf_addf(b, " = %d pts × (d%d ", c->points, (int)param(r, "melee_die"));
	}
	if ((err = ord_table_apply(&c->die, table(r, "melee_die"), s->die, &flags, NULL, b)) != 0)
		goto out;
	c->score = (int)lround(c->points * c->die);
	ord_buf_addf(b, ") = %d", c->score);
out:
	ord_kv_release(&match);
	ord_kv_release(&flags);
	ord_buf_release(&key);
	ord_buf_release(&in);
	return err;
}

/* A side's unit in the explanation: its id, or the side's letter. */
static void add_unit(struct ord_buf *b, const struct side_calc *c)
{
	if (c->unit)
		ord_buf_adds(b, c->unit);
	else
		add_name(b, c->name);
}

/* One side of a melee: one unit, or two fighting together (their points
 * and scores summed). */
struct team {
	struct ord_buf name;               /* "A", "A and A2"; "F2", "R2 and RH" */
	struct side_calc *u[2];            /* its units */
	const struct bat_melee_side *s[2]; /* their inputs */
	int *cas[2];                       /* where their casualties go */
	size_t n;
	int points, score;
};

/* What team `from` inflicts on team `to`, in figures of each of its units:
 * the points it removes are shared between them by their points (ours:
 * the text has one unit a side). */
static int melee_inflict(const struct bat_rules *r, const struct team *from, int pursuing,
			 double divisor, const struct team *to, struct ord_buf *b)
{
	struct ord_kv flags;
	double pts, figures, share;
	size_t i;
	int err;

	ord_kv_init(&flags);
	set_flag(&flags, "hill", from->s[0]->hill);
	set_flag(&flags, "pursuit", pursuing);
	pts = from->points / divisor;
	ord_buf_addf(b, "%s inflict%s %d/", from->name.buf, from->n > 1 ? "" : "s", from->points);
	add_num(b, divisor);
	ord_buf_adds(b, " = ");
	if ((err = ord_table_apply(&pts, table(r, "melee_casualties"), pts, &flags, NULL, b)) != 0)
		goto out;
	ord_buf_adds(b, " pts");
	for (i = 0; i < to->n; i++) {
		const struct side_calc *t = to->u[i];
		int *out = to->cas[i];
		share = to->n > 1 && to->points > 0 ? pts * t->points / to->points : pts;
		if (to->n > 1) {
			ord_buf_adds(b, i ? "; " : ": ");
			add_unit(b, t);
			ord_buf_adds(b, t->unit ? "'s share " : " "); /* not "F2 24 × ..." */
			add_num(b, pts);
			ord_buf_addf(b, " × %d/%d = ", t->points, to->points);
			add_num(b, share);
			ord_buf_adds(b, " pts");
		}
		figures = share / t->per_figure;
		ord_buf_adds(b, " / ");
		add_num(b, t->per_figure);
		ord_buf_adds(b, " = ");
		add_num(b, figures);
		*out = round_figures(figures, param(r, "melee_round_up_from"));
		if (figures != (double)*out) {
			ord_buf_adds(b, " → ");
			add_num(b, *out);
		}
		if (*out > to->s[i]->figures) {
			*out = to->s[i]->figures;
			ord_buf_addf(b, " (all %d engaged)", *out);
		}
		/* "4 figures of B" was read as B's, not as inflicted on it */
		ord_buf_addf(b, " %s %s ", *out == 1 ? "figure" : "figures", t->unit ? "on" : "of");
		add_unit(b, t);
	}
out:
	ord_kv_release(&flags);
	return err;
}

/* A side's units computed into a team named name. */
static int melee_team(const struct bat_rules *r, const char *name, const struct bat_melee_side *s1,
		      const struct bat_melee_side *s2, struct side_calc *c, int *cas1, int *cas2,
		      struct team *t, struct ord_buf *b)
{
	int err;

	memset(t, 0, sizeof(*t));
	ord_buf_init(&t->name);
	if ((err = melee_side(r, name, s1, &c[0], b)) != 0)
		return err;
	t->u[0] = &c[0];
	t->s[0] = s1;
	t->cas[0] = cas1;
	t->n = 1;
	add_unit(&t->name, &c[0]);
	if (s2 && s2->kind) {
		/* "Units on hilltops ... cause 1/4 more casualties, and if
		 * meleed, are +1 on the die": the side's hilltop gives its blow,
		 * the second unit's points in it, 1/4 more, so the unit beside
		 * the first is on it too and has its +1 (melee_hill_whole_side;
		 * tables without it, a game made before, gave it the 1/4 alone) */
		struct bat_melee_side beside = *s2;
		if (s1->hill && ord_tables_switch(r->tables, "melee_hill_whole_side"))
			beside.hill = 1;
		ord_buf_adds(b, "; ");
		if ((err = melee_side(r, !strcmp(name, "a") ? "a2" : "b2", &beside, &c[1], b)) != 0)
			return err;
		t->u[1] = &c[1];
		t->s[1] = s2;
		t->cas[1] = cas2;
		t->n = 2;
		ord_buf_adds(&t->name, " and ");
		add_unit(&t->name, &c[1]);
	}
	t->points = c[0].points + (t->n > 1 ? c[1].points : 0);
	t->score = c[0].score + (t->n > 1 ? c[1].score : 0);
	if (t->n > 1)
		ord_buf_addf(b, "; %s together %d pts, %d", t->name.buf, t->points, t->score);
	return 0;
}

int bat_melee(const struct bat_rules *r, const struct bat_melee_in *in, struct bat_melee_out *out,
	      struct ord_buf *why)
{
	struct side_calc ca[2], cb[2];
	struct team a, b;
	struct ord_buf e = ORD_BUF_INIT;
	double div_a, div_b;
	int err;

	memset(out, 0, sizeof(*out));
	memset(ca, 0, sizeof(ca));
	memset(cb, 0, sizeof(cb));
	ord_buf_init(&a.name);
	ord_buf_init(&b.name);
	if ((err = melee_team(r, "a", &in->a, &in->a2, ca, &out->casualties_a, &out->casualties_a2,
			      &a, &e)) != 0)
		goto out;
	ord_buf_adds(&e, "; ");
	if ((err = melee_team(r, "b", &in->b, &in->b2, cb, &out->casualties_b, &out->casualties_b2,
			      &b, &e)) != 0)
		goto out;
	if (in->pursuit != BAT_NONE) {
		const struct side_calc *p = in->pursuit == BAT_A ? &ca[0] : &cb[0];
		const struct side_calc *q = in->pursuit == BAT_A ? &cb[0] : &ca[0];
		if (strcmp(p->arm, "cavalry") || strcmp(q->arm, "infantry")) {
			err = ord_error_set(ORD_EUSAGE,
					    "pursuit: only cavalry pursues infantry it broke (side %s is %s, side %s is %s)",
					    p->name, p->arm, q->name, q->arm);
			goto out;
		}
	}
	out->points_a = a.points;
	out->points_b = b.points;
	out->score_a = a.score;
	out->score_b = b.score;
	if (a.score > b.score) {
		out->winner = BAT_A;
		div_a = param(r, "winner_divisor");
		div_b = param(r, "loser_divisor");
		ord_buf_addf(&e, "; %s win%s", a.name.buf, a.n > 1 ? "" : "s");
	} else if (b.score > a.score) {
		out->winner = BAT_B;
		div_a = param(r, "loser_divisor");
		div_b = param(r, "winner_divisor");
		ord_buf_addf(&e, "; %s win%s", b.name.buf, b.n > 1 ? "" : "s");
	} else {
		out->winner = BAT_NONE;
		div_a = div_b = param(r, "tie_divisor");
		ord_buf_adds(&e, "; a tie, no winner");
	}
	if (!(div_a > 0) || !(div_b > 0)) {
		err = ord_error_set(ORD_EBADDATA, "%s: melee divisors must be above 0",
				    ord_tables_name(r->tables));
		goto out;
	}
	/* the winner's blow first, as the text tells it */
	ord_buf_adds(&e, "; ");
	if (out->winner == BAT_B) {
		if ((err = melee_inflict(r, &b, in->pursuit == BAT_B, div_b, &a, &e)) != 0)
			goto out;
		ord_buf_adds(&e, "; ");
		if ((err = melee_inflict(r, &a, in->pursuit == BAT_A, div_a, &b, &e)) != 0)
			goto out;
	} else {
		if ((err = melee_inflict(r, &a, in->pursuit == BAT_A, div_a, &b, &e)) != 0)
			goto out;
		ord_buf_adds(&e, "; ");
		if ((err = melee_inflict(r, &b, in->pursuit == BAT_B, div_b, &a, &e)) != 0)
			goto out;
	}
	why_add(why, &e);
out:
	ord_buf_release(&e);
	ord_buf_release(&a.name);
	ord_buf_release(&b.name);
	return err;
}
