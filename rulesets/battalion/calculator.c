/*
 * calculator.c - the battalion module's calculator and table printer (the
 * slots `calc` and `print_tables`): `orderly calc battalion WHAT ...` runs
 * the computations of calc.c through the core's calculator driver
 * (ord_calc_run), which checks the arguments, hands out the dice and
 * writes the answer, so that the calculator and the turn's resolution
 * always agree.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rulesets/battalion/calc.h"

/* A parameter bat_load checked. */
static double calc_param(const struct bat_rules *r, const char *name)
{
	double v = 0;

	bat_param(r, name, &v);
	return v;
}

/* ---- the calculator (the core's driver, ruleset.h) ------------------------ */

#define FLAG(k)                                            \
	{                                                  \
		k, ORD_KEY_BOOL, 0, NULL, 0, 0, "no", NULL \
	}
#define WORD(k, values)                                      \
	{                                                    \
		k, ORD_KEY_WORD, 1, values, 0, 0, NULL, NULL \
	}
#define COUNT(k)                                                \
	{                                                       \
		k, ORD_KEY_INT, 1, NULL, 0, 1000000, NULL, NULL \
	}
#define INCHES(k)                                                   \
	{                                                           \
		k, ORD_KEY_NUM, 1, NULL, 0, 1000000, NULL, "inches" \
	}
#define END                                        \
	{                                          \
		NULL, 0, 0, NULL, 0, 0, NULL, NULL \
	}

static const struct ord_key_spec move_args[] = {
	WORD("kind", "kinds.kind"),
	WORD("formation", "formations.formation"),
	{ "fraction", ORD_KEY_STR, 0, NULL, 0, 0, "1", NULL },
	FLAG("charge"),
	FLAG("elite"),
	{ "terrain", ORD_KEY_WORD, 0, "terrain.terrain", 0, 0, "open", NULL },
	END,
};

static const struct ord_key_spec fire_args[] = {
	/* as the fire event's firers= */
	{ "firers", ORD_KEY_INT, 1, NULL, 1, 10000, NULL, NULL },
	WORD("weapon", "fire.weapon"),
	INCHES("range"),
	WORD("target_formation", "formations.formation"),
	FLAG("target_moved"),
	FLAG("firer_moved"),
	FLAG("firer_changed_formation"),
	FLAG("firer_light"),
	FLAG("firer_skirmish"),
	FLAG("enfilade"),
	FLAG("target_in_woods"),
	FLAG("firer_in_woods"),
	FLAG("firer_on_hill"),
	END,
};

static const struct ord_key_spec artillery_args[] = {
	WORD("shot", "artillery.shot"),
	INCHES("range"),
	{ "target_formation", ORD_KEY_WORD, 0, "formations.formation", 0, 0, "line", NULL },
	FLAG("horse_moved_unlimbered"),
	FLAG("target_in_woods"),
	FLAG("firer_in_woods"),
	FLAG("firer_on_hill"),
	END,
};

static const struct ord_key_spec morale_args[] = {
	{ "losses", ORD_KEY_INT, 0, NULL, 0, 1000000, "0", NULL },
	FLAG("elite"),
	FLAG("militia"),
	FLAG("failed_before"),
	FLAG("lost_melee"),
	FLAG("routed_recently"),
	END,
};

static const struct ord_key_spec morale20_args[] = {
	WORD("class", "morale20.class"),
	END,
};

static const struct ord_key_spec melee_args[] = {
	WORD("a_kind", "kinds.kind"),
	COUNT("a_figures"),
	WORD("b_kind", "kinds.kind"),
	COUNT("b_figures"),
	FLAG("a_column"),
	FLAG("a_motion"),
	FLAG("a_fresh"),
	FLAG("a_charging"),
	FLAG("a_elite"),
	FLAG("a_square_vs_cavalry"),
	FLAG("a_hill"),
	FLAG("a_routed"),
	{ "a_formation", ORD_KEY_WORD, 0, "formations.formation", 0, 0, NULL, NULL },
	FLAG("b_column"),
	FLAG("b_motion"),
	FLAG("b_fresh"),
	FLAG("b_charging"),
	FLAG("b_elite"),
	FLAG("b_square_vs_cavalry"),
	FLAG("b_hill"),
	FLAG("b_routed"),
	{ "b_formation", ORD_KEY_WORD, 0, "formations.formation", 0, 0, NULL, NULL },
	{ "pursuit", ORD_KEY_ENUM, 0, "a|b|no", 0, 0, "no", NULL },
	/* a second unit a side (D20) */
	{ "a2_kind", ORD_KEY_WORD, 0, "kinds.kind", 0, 0, NULL, NULL },
	{ "a2_figures", ORD_KEY_INT, 0, NULL, 0, 1000000, NULL, NULL },
	FLAG("a2_column"),
	FLAG("a2_motion"),
	FLAG("a2_fresh"),
	FLAG("a2_charging"),
	FLAG("a2_elite"),
	FLAG("a2_square_vs_cavalry"),
	{ "a2_formation", ORD_KEY_WORD, 0, "formations.formation", 0, 0, NULL, NULL },
	{ "b2_kind", ORD_KEY_WORD, 0, "kinds.kind", 0, 0, NULL, NULL },
	{ "b2_figures", ORD_KEY_INT, 0, NULL, 0, 1000000, NULL, NULL },
	FLAG("b2_column"),
	FLAG("b2_motion"),
	FLAG("b2_fresh"),
	FLAG("b2_charging"),
	FLAG("b2_elite"),
	FLAG("b2_square_vs_cavalry"),
	{ "b2_formation", ORD_KEY_WORD, 0, "formations.formation", 0, 0, NULL, NULL },
	END,
};

static int arg_flag(struct ord_calc *c, const char *key)
{
	return ord_kv_get_bool(ord_calc_args(c), key, 0);
}

static int arg_int(struct ord_calc *c, const char *key)
{
	return (int)ord_kv_get_int(ord_calc_args(c), key, 0);
}

static const char *arg(struct ord_calc *c, const char *key)
{
	return ord_kv_get(ord_calc_args(c), key);
}

static int gcd(int a, int b)
{
	while (b) {
		int t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* "1/2" (or "2/4", "0.5") in parts of the move; -1 if it is none. */
static int fraction_quarters(const char *s, int parts, int *out)
{
	double num, den = 1, v;
	const char *slash = strchr(s, '/');
	char tmp[32];

	if (strlen(s) >= sizeof(tmp))
		return -1;
	if (slash) {
		memcpy(tmp, s, (size_t)(slash - s));
		tmp[slash - s] = '\0';
		if (ord_parse_num(tmp, &num) || ord_parse_num(slash + 1, &den) || den <= 0)
			return -1;
	} else if (ord_parse_num(s, &num)) {
		return -1;
	}
	v = num / den * parts;
	if (fabs(v - lround(v)) > 1e-9 || lround(v) < 1 || lround(v) > parts)
		return -1;
	*out = (int)lround(v);
	return 0;
}

/* The fraction argument in parts of the move, or ORD_EUSAGE listing them. */
static int arg_fraction(const struct bat_rules *r, const char *key, const char *v, int *out)
{
	int parts = (int)calc_param(r, "move_fraction_parts"), i, err = 0;
	struct ord_buf allowed = ORD_BUF_INIT;

	if (!fraction_quarters(v, parts, out))
		return 0;
	for (i = 1; i <= parts; i++) {
		int g = gcd(i, parts);
		if (i == parts)
			ord_words_add(&allowed, " ", "1");
		else
			ord_buf_addf(&allowed, "%s%d/%d", allowed.len ? " " : "", i / g, parts / g);
	}
	err = ord_error_set(ORD_EUSAGE, "%s: '%s' is not a fraction of the move (expected one of %s)",
			    key, v, allowed.buf);
	ord_buf_release(&allowed);
	return err;
}

/* The explanation, in the only language of these rules. */
static int explained(struct ord_calc *c, int err, const struct ord_buf *why)
{
	if (!err)
		ord_calc_explain(c, "en", why->buf);
	return err;
}

static int calc_move(struct ord_calc *c, struct ord_rules *rules)
{
	const struct bat_rules *r = bat_rules(rules);
	struct bat_move_in in;
	struct bat_move_out res;
	struct ord_buf dist = ORD_BUF_INIT, why = ORD_BUF_INIT;
	int err;

	memset(&in, 0, sizeof(in));
	in.kind = arg(c, "kind");
	in.formation = arg(c, "formation");
	in.charge = arg_flag(c, "charge");
	in.elite = arg_flag(c, "elite");
	in.terrain = arg(c, "terrain");
	if ((err = arg_fraction(r, "fraction", arg(c, "fraction"), &in.quarters)) != 0 ||
	    (err = bat_move(r, &in, &res, &why)) != 0)
		goto out;
	ord_tables_fmt(&dist, res.distance, 0);
	ord_calc_value(c, "distance", dist.buf);
	ord_calc_summary(c, "distance %s in.", dist.buf);
out:
	err = explained(c, err, &why);
	ord_buf_release(&dist);
	ord_buf_release(&why);
	return err;
}

static int calc_fire(struct ord_calc *c, struct ord_rules *rules)
{
	struct bat_fire_in in;
	struct bat_fire_out res;
	struct ord_buf why = ORD_BUF_INIT;
	int err;

	memset(&in, 0, sizeof(in));
	in.firers = arg_int(c, "firers");
	in.weapon = arg(c, "weapon");
	in.range = ord_kv_get_num(ord_calc_args(c), "range", 0);
	in.target_formation = arg(c, "target_formation");
	in.target_moved = arg_flag(c, "target_moved");
	in.firer_moved = arg_flag(c, "firer_moved");
	in.firer_changed_formation = arg_flag(c, "firer_changed_formation");
	in.firer_light = arg_flag(c, "firer_light");
	in.firer_skirmish = arg_flag(c, "firer_skirmish");
	in.enfilade = arg_flag(c, "enfilade");
	in.target_in_woods = arg_flag(c, "target_in_woods");
	in.firer_in_woods = arg_flag(c, "firer_in_woods");
	in.firer_on_hill = arg_flag(c, "firer_on_hill");
	if ((err = bat_fire(bat_rules(rules), &in, &res, &why)) != 0)
		goto out;
	ord_calc_value_int(c, "casualties", res.casualties);
	ord_calc_value_int(c, "trays", res.trays);
	ord_calc_value_int(c, "remainder", res.remainder);
	ord_calc_summary(c, "casualties %d", res.casualties);
	ord_calc_after(c, ": %d %s, %d carried", res.trays, res.trays == 1 ? "tray" : "trays",
		       res.remainder);
out:
	err = explained(c, err, &why);
	ord_buf_release(&why);
	return err;
}

static int calc_artillery(struct ord_calc *c, struct ord_rules *rules)
{
	const struct bat_rules *r = bat_rules(rules);
	struct bat_artillery_in in;
	struct bat_artillery_out res;
	struct ord_buf why = ORD_BUF_INIT;
	int err;

	memset(&in, 0, sizeof(in));
	in.shot = arg(c, "shot");
	in.range = ord_kv_get_num(ord_calc_args(c), "range", 0);
	in.target_formation = arg(c, "target_formation");
	in.horse_moved_unlimbered = arg_flag(c, "horse_moved_unlimbered");
	in.target_in_woods = arg_flag(c, "target_in_woods");
	in.firer_in_woods = arg_flag(c, "firer_in_woods");
	in.firer_on_hill = arg_flag(c, "firer_on_hill");
	if ((err = ord_calc_die(c, &in.die, (unsigned)calc_param(r, "artillery_die"), "to_hit")) != 0 ||
	    (err = bat_artillery(r, &in, &res, &why)) != 0)
		goto out;
	ord_calc_value(c, "hit", res.hit ? "yes" : "no");
	ord_calc_value_int(c, "casualties", res.casualties);
	ord_calc_summary(c, "hit %s, casualties %d", res.hit ? "yes" : "no", res.casualties);
out:
	err = explained(c, err, &why);
	ord_buf_release(&why);
	return err;
}

static int calc_morale(struct ord_calc *c, struct ord_rules *rules)
{
	const struct bat_rules *r = bat_rules(rules);
	struct bat_morale_in in;
	struct bat_morale_out res;
	struct ord_buf why = ORD_BUF_INIT;
	int err;

	memset(&in, 0, sizeof(in));
	in.losses = arg_int(c, "losses");
	in.elite = arg_flag(c, "elite");
	in.militia = arg_flag(c, "militia");
	in.failed_before = arg_flag(c, "failed_before");
	in.lost_melee = arg_flag(c, "lost_melee");
	in.routed_recently = arg_flag(c, "routed_recently");
	if ((err = ord_calc_die(c, &in.die, (unsigned)calc_param(r, "morale_die"), "morale")) != 0 ||
	    (err = bat_morale(r, &in, &res, &why)) != 0)
		goto out;
	ord_calc_value_int(c, "score", res.score);
	ord_calc_value(c, "outcome", res.outcome);
	ord_calc_summary(c, "score %d, outcome %s", res.score, res.outcome);
out:
	err = explained(c, err, &why);
	ord_buf_release(&why);
	return err;
}

static int calc_morale20(struct ord_calc *c, struct ord_rules *rules)
{
	const struct bat_rules *r = bat_rules(rules);
	struct bat_morale20_in in;
	struct bat_morale20_out res;
	struct ord_buf why = ORD_BUF_INIT;
	int err;

	memset(&in, 0, sizeof(in));
	in.cls = arg(c, "class");
	/* bat_module_load insists on the chart's die */
	if ((err = ord_calc_die(c, &in.die,
				(unsigned)ord_table_die(ord_tables_get(r->tables, "morale20")),
				"morale20")) != 0 ||
	    (err = bat_morale20(r, &in, &res, &why)) != 0)
		goto out;
	ord_calc_value(c, "outcome", res.outcome);
	ord_calc_value(c, "class", res.new_class);
	ord_calc_summary(c, "outcome %s, class %s", res.outcome, res.new_class);
out:
	err = explained(c, err, &why);
	ord_buf_release(&why);
	return err;
}

static void melee_side_args(struct bat_melee_side *s, struct ord_calc *c, const char *side)
{
	char key[64];

#define SIDE_KEY(name) (snprintf(key, sizeof(key), "%s_%s", side, name), key)
	s->kind = arg(c, SIDE_KEY("kind"));
	s->formation = arg(c, SIDE_KEY("formation")); /* its points: melee_points_as */
	s->figures = arg_int(c, SIDE_KEY("figures"));
	s->column = arg_flag(c, SIDE_KEY("column"));
	s->motion = arg_flag(c, SIDE_KEY("motion"));
	s->fresh = arg_flag(c, SIDE_KEY("fresh"));
	s->charging = arg_flag(c, SIDE_KEY("charging"));
	s->elite = arg_flag(c, SIDE_KEY("elite"));
	s->square_vs_cavalry = arg_flag(c, SIDE_KEY("square_vs_cavalry"));
	s->hill = arg_flag(c, SIDE_KEY("hill"));
	s->no_value = arg_flag(c, SIDE_KEY("routed")); /* no melee value */
#undef SIDE_KEY
}

/* A second unit of a side (D20): its kind and figures go together. */
static int melee_second_args(struct bat_melee_side *s, struct ord_calc *c, const char *side)
{
	char kind[16], fig[16];

	snprintf(kind, sizeof(kind), "%s_kind", side);
	snprintf(fig, sizeof(fig), "%s_figures", side);
	if (!arg(c, kind) && !arg(c, fig))
		return 0;
	if (!arg(c, kind) || !arg(c, fig))
		return ord_error_set(ORD_EUSAGE, "%s: missing (a second unit needs %s and %s)",
				     arg(c, kind) ? fig : kind, kind, fig);
	melee_side_args(s, c, side);
	return 0;
}

static int calc_melee(struct ord_calc *c, struct ord_rules *rules)
{
	const struct bat_rules *r = bat_rules(rules);
	struct bat_melee_in in;
	struct bat_melee_out res;
	struct ord_buf why = ORD_BUF_INIT;
	const char *p = arg(c, "pursuit"), *winner;
	unsigned sides = (unsigned)calc_param(r, "melee_die");
	int err;

	memset(&in, 0, sizeof(in));
	melee_side_args(&in.a, c, "a");
	melee_side_args(&in.b, c, "b");
	in.pursuit = !strcmp(p, "a") ? BAT_A : !strcmp(p, "b") ? BAT_B : BAT_NONE;
	if ((err = melee_second_args(&in.a2, c, "a2")) != 0 ||
	    (err = melee_second_args(&in.b2, c, "b2")) != 0 ||
	    (err = ord_calc_die(c, &in.a.die, sides, "a")) != 0 ||
	    (err = ord_calc_die(c, &in.b.die, sides, "b")) != 0)
		goto out;
	in.a2.die = in.a.die;
	in.b2.die = in.b.die;
	if ((err = bat_melee(r, &in, &res, &why)) != 0)
		goto out;
	if (in.a2.kind)
		ord_calc_value_int(c, "casualties_a2", res.casualties_a2);
	if (in.b2.kind)
		ord_calc_value_int(c, "casualties_b2", res.casualties_b2);
	winner = res.winner == BAT_A ? "a" : res.winner == BAT_B ? "b" : "none";
	ord_calc_value(c, "winner", winner);
	ord_calc_value_int(c, "score_a", res.score_a);
	ord_calc_value_int(c, "score_b", res.score_b);
	ord_calc_value_int(c, "casualties_a", res.casualties_a);
	ord_calc_value_int(c, "casualties_b", res.casualties_b);
	{
		struct ord_buf more = ORD_BUF_INIT;
		if (in.a2.kind)
			ord_buf_addf(&more, ", casualties_a2 %d", res.casualties_a2);
		if (in.b2.kind)
			ord_buf_addf(&more, ", casualties_b2 %d", res.casualties_b2);
		ord_calc_summary(c, "winner %s: score_a %d, score_b %d, casualties_a %d, casualties_b %d%s",
				 winner, res.score_a, res.score_b, res.casualties_a,
				 res.casualties_b, more.len ? more.buf : "");
		ord_buf_release(&more);
	}
out:
	err = explained(c, err, &why);
	ord_buf_release(&why);
	return err;
}

static const struct ord_calculation calculations[] = {
	{ "move", move_args, 0, NULL, NULL, calc_move },
	{ "fire", fire_args, 0, NULL, NULL, calc_fire },
	{ "artillery", artillery_args, 1, NULL, NULL, calc_artillery },
	{ "morale", morale_args, 1, NULL, NULL, calc_morale },
	{ "morale20", morale20_args, 1, NULL, NULL, calc_morale20 },
	{ "melee", melee_args, 2, NULL, NULL, calc_melee },
	{ NULL, NULL, 0, NULL, NULL, NULL },
};

static const struct ord_calculator calculator = {
	"battalion",  /* ruleset */
	calculations, /* calcs */
	NULL,         /* lang_key: English only */
	NULL,         /* dice_rolled: "dice rolled" */
};

int bat_calc(struct ord_rules *rules, const char *what, const struct ord_kv *args, const int *dice,
	     size_t ndice, int xml, struct ord_buf *out)
{
	return ord_calc_run(&calculator, rules, bat_rules(rules)->tables, what, args, dice, ndice,
			    xml, out);
}

int bat_print_tables(struct ord_rules *rules, const char *table_name, struct ord_buf *out)
{
	return ord_tables_print(bat_rules(rules)->tables, table_name, out);
}
