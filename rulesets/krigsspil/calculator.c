/*
 * calculator.c - the krigsspil module's calculator and table printer (the
 * slots `calc` and `print_tables`): `orderly calc krigsspil WHAT ...` runs
 * the computations of calc.c through the core's calculator driver
 * (ord_calc_run), with both languages of the explanation and the modifier
 * flags of the Skema's tables as arguments.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rulesets/krigsspil/calc.h"

/* ---- the calculator (the core's driver, ruleset.h) ------------------------------ */

#define NUMBER(k)                                              \
	{                                                      \
		k, ORD_KEY_INT, 1, NULL, 0, 100000, NULL, NULL \
	}
#define NUMBER_DEF(k, d)                                    \
	{                                                   \
		k, ORD_KEY_INT, 0, NULL, 0, 100000, d, NULL \
	}
#define FLAG(k)                                            \
	{                                                  \
		k, ORD_KEY_BOOL, 0, NULL, 0, 0, "no", NULL \
	}
#define ZONE                                                            \
	{                                                               \
		"zone", ORD_KEY_ENUM, 0, "I|II|III|K", 0, 0, NULL, NULL \
	}
#define AFSTAND                                                         \
	{                                                               \
		"afstand", ORD_KEY_NUM, 0, NULL, 0, 1000000, NULL, NULL \
	}
#define ZONER                                                   \
	{                                                       \
		"zoner", ORD_KEY_STR, 0, NULL, 0, 0, NULL, NULL \
	}
#define LANG                                                       \
	{                                                          \
		"lang", ORD_KEY_ENUM, 0, "da|en", 0, 0, "da", NULL \
	}
#define END                                        \
	{                                          \
		NULL, 0, 0, NULL, 0, 0, NULL, NULL \
	}

static const struct ord_key_spec fireunits_args[] = {
	NUMBER("figurer"),
	LANG,
	END,
};

static const struct ord_key_spec fire_args[] = {
	NUMBER("figurer"),
	NUMBER("maal_figurer"),
	NUMBER_DEF("beskudt_del", "0"),
	{ "vaaben", ORD_KEY_WORD, 0, "skudzoner.vaaben", 0, 0, "musket", NULL },
	ZONE,
	AFSTAND,
	ZONER,
	FLAG("halv"),
	LANG,
	END,
};

static const struct ord_key_spec artillery_args[] = {
	NUMBER("kanoner"),
	{ "kaliber", ORD_KEY_WORD, 0, "artillerizoner.kaliber", 0, 0, "6", NULL },
	{ "ammo", ORD_KEY_WORD, 0, "ammunitionstyper.ammo", 0, 0, "SF", NULL },
	ZONE,
	AFSTAND,
	ZONER,
	FLAG("halv"),
	NUMBER("maal_figurer"),
	NUMBER_DEF("beskudt_del", "0"),
	FLAG("maal_artilleri"),
	LANG,
	END,
};

#define RETRAETE(k)                                                          \
	{                                                                    \
		k, ORD_KEY_ENUM, 0, "fri|hindring|fjende", 0, 0, "fri", NULL \
	}
#define SIDE_WORD(k, values)                                 \
	{                                                    \
		k, ORD_KEY_WORD, 0, values, 0, 0, NULL, NULL \
	}

static const struct ord_key_spec melee_args[] = {
	NUMBER("a_figurer"),
	NUMBER("d_figurer"),
	{ "a_geledder", ORD_KEY_INT, 0, NULL, 1, 100, NULL, NULL },
	{ "d_geledder", ORD_KEY_INT, 0, NULL, 1, 100, NULL, NULL },
	SIDE_WORD("a_art", "arme.art"),
	SIDE_WORD("d_art", "arme.art"),
	SIDE_WORD("a_formation", "formationer.formation"),
	SIDE_WORD("d_formation", "formationer.formation"),
	{ "a_rifler", ORD_KEY_INT, 0, NULL, 0, 100, "0", NULL },
	{ "d_rifler", ORD_KEY_INT, 0, NULL, 0, 100, "0", NULL },
	{ "a_nation", ORD_KEY_STR, 0, NULL, 0, 0, NULL, NULL },
	{ "d_nation", ORD_KEY_STR, 0, NULL, 0, 0, NULL, NULL },
	RETRAETE("a_retraete"),
	RETRAETE("d_retraete"),
	FLAG("forfoelgelse"),
	LANG,
	END,
};

static const struct ord_key_spec explosion_args[] = {
	{ "kampsatser", ORD_KEY_NUM, 1, NULL, 0, 1000000, NULL, NULL },
	LANG,
	END,
};

static const struct ord_key_spec decimation_args[] = {
	NUMBER("start"),
	NUMBER("figurer"),
	/* the men lost, short of a figure, prisoners and stragglers too: the
	 * game's count under decimering_mand_kontrol (6.7) */
	NUMBER_DEF("mand_tabt", NULL),
	LANG,
	END,
};

static const struct ord_key_spec move_args[] = {
	{ "art", ORD_KEY_WORD, 1, "arme.art", 0, 0, NULL, NULL },
	{ "formation", ORD_KEY_WORD, 0, "formationer.formation", 0, 0, "linie", NULL },
	{ "gang", ORD_KEY_WORD, 0, "gangarter.gang", 0, 0, "march", NULL },
	{ "tid", ORD_KEY_ENUM, 0, "1/4|1/2|3/4|1", 0, 0, NULL, NULL },
	AFSTAND,
	{ "terraen", ORD_KEY_WORD, 0, "march_terraen.terraen", 0, 0, "aabent", NULL },
	{ "straekning", ORD_KEY_STR, 0, NULL, 0, 0, NULL, NULL },
	{ "hindringer", ORD_KEY_STR, 0, NULL, 0, 0, NULL, NULL },
	FLAG("sti"),
	{ "maade", ORD_KEY_ENUM, 0, "vending|front_mod_fjenden", 0, 0, "vending", NULL },
	{ "gennem_cm", ORD_KEY_NUM, 0, NULL, 0, 1000000, "0", NULL },
	{ "drej_cm", ORD_KEY_NUM, 0, NULL, 0, 1000000, "0", NULL },
	LANG,
	END,
};

static const char *const fire_tables[] = { "skema_x_tab_a", "skema_x_tab_b", "skema_x_moral", NULL };
static const char *const art_tables[] = { "skema_xv_tab_a", "skema_xv_tab_b", "skema_xv_moral", NULL };
static const char *const melee_tables[] = { "skema_xv_naerkamp", NULL };
static const char *const melee_prefixes[] = { "a_", "d_", NULL };

/* 3d6 named PREFIX1..PREFIX3 (--dice, or rolled by the driver). */
static int take3(struct ord_calc *c, const struct ks_rules *r, int *out, const char *prefix)
{
	int i, err;

	for (i = 0; i < KS_DICE; i++) {
		char name[16];
		snprintf(name, sizeof(name), "%s%d", prefix, i + 1);
		if ((err = ord_calc_die(c, &out[i], (unsigned)ks_die(r), name)) != 0)
			return err;
	}
	return 0;
}

static const char *zone_arg(const struct ord_kv *kv)
{
	const char *z = ord_kv_get(kv, "zone");
	return z && *z ? z : NULL;
}

/* zoner=I,II: a moving target as long in each (14, 15), as the game's
 * zoner= (skydemaal_kontrol: a Skema without it refuses it, as the game
 * made before does); instead of zone= and afstand=. */
static int calc_zones(const struct ks_rules *r, const struct ord_kv *kv, const char *allowed,
		      const char **zones, int *n)
{
	const char *z = ord_kv_get(kv, "zoner");

	*n = 0;
	if (!z || !*z)
		return 0;
	if (!ks_check(r, "skydemaal_kontrol"))
		return ord_error_set(ORD_EUSAGE,
				     "zoner: a rule of revision 2026-12-02.12; these tables have no skydemaal_kontrol");
	if (zone_arg(kv) || ord_kv_get(kv, "afstand"))
		return ord_error_set(ORD_EUSAGE, "zoner: instead of zone and afstand, not with them");
	return ks_parse_zones(z, allowed, "zoner", zones, n);
}

static int calc_range(const struct ord_kv *kv, const char *zone, double *range)
{
	const char *a = ord_kv_get(kv, "afstand");

	*range = 0;
	if (zone || (ord_kv_get(kv, "zoner") && *ord_kv_get(kv, "zoner")))
		return 0;
	if (!a || !*a)
		return ord_error_set(ORD_EUSAGE, "zone: missing (give zone=I|II|III|K or afstand=CM)");
	return ord_parse_num(a, range) ? ord_error_set(ORD_EUSAGE, "afstand: not a number") : 0;
}

/* The zone a fire was read at (none out of range, not "zone ,"); of a
 * moving target the first of its zones and how many were averaged. */
static void zone_value(struct ord_calc *c, const char *zone, int averaged)
{
	if (!zone)
		return;
	ord_calc_value(c, "zone", zone);
	if (averaged > 1)
		ord_calc_value_int(c, "zones_averaged", averaged);
}

/* The end of every calculation: whether a provisional table was used, and
 * the explanation in both languages. */
static void answer(struct ord_calc *c, struct ks_text *why)
{
	ord_calc_value(c, "provisional", why->prov.len ? "yes" : "no");
	ks_text_mark(why);
	ord_calc_explain(c, "da", why->da.buf);
	ord_calc_explain(c, "en", why->en.buf);
}

/* What a shot does to the target's morale (fire and artillery alike). */
static void morale_values(struct ord_calc *c, double total, int applied,
			  const struct ks_morale_parts *parts)
{
	ord_calc_value_num(c, "morale_total", total);
	ord_calc_value(c, "morale", ks_moral_name(applied));
	ord_calc_value(c, "morale_part", ks_moral_name(parts->grade));
	ord_calc_value_int(c, "affected", parts->full);
	ord_calc_value(c, "morale_rest", ks_moral_name(parts->rest_grade));
}

static int calc_fireunits(struct ord_calc *c, struct ord_rules *rules)
{
	struct ks_text why;

	ks_text_init(&why);
	ord_calc_value_int(c, "fire_units",
			   ks_fire_units(ks_rules(rules),
					 (int)ord_kv_get_int(ord_calc_args(c), "figurer", 0), &why));
	answer(c, &why);
	ks_text_release(&why);
	return 0;
}

static int calc_decimation(struct ord_calc *c, struct ord_rules *rules)
{
	const struct ks_rules *r = ks_rules(rules);
	int s = (int)ord_kv_get_int(ord_calc_args(c), "start", 0);
	int f = (int)ord_kv_get_int(ord_calc_args(c), "figurer", 0);
	int per = (int)ks_param(r, "mand_pr_figur"), lvl;
	/* "over 25% af sin oprindelige styrke" in men, as the game counts
	 * them when the Skema says so (attack.c), given the men lost */
	int men = ord_kv_get(ord_calc_args(c), "mand_tabt") && per > 0 &&
		  ks_check(r, "decimering_mand_kontrol");
	struct ks_text why;

	if (men)
		lvl = ks_decimation_men(r, s, ord_kv_get_int(ord_calc_args(c), "mand_tabt", 0), &s, &f);
	else
		lvl = ks_decimation(r, s, f);
	ks_text_init(&why);
	ord_calc_value_int(c, "level", lvl);
	ord_calc_value(c, "morale_floor", lvl == 2 ? "U" : lvl == 1 ? "LU" : "OR");
	if (men)
		KS_TF(&why, "%d af %d mand tabt", "%d of %d men lost", s - f, s);
	else
		KS_TF(&why, "%d af %d figurer tabt", "%d of %d figures lost", s - f, s);
	if (lvl)
		KS_TF(&why, ": over %g%%: %s resten af slaget",
		      ": over %g%%: %s for the rest of the battle",
		      ks_param(r, lvl == 2 ? "decimering_u_pct" : "decimering_lu_pct"),
		      lvl == 2 ? "U" : "LU");
	answer(c, &why);
	ks_text_release(&why);
	return 0;
}

static int calc_fire(struct ord_calc *c, struct ord_rules *rules)
{
	const struct ord_kv *kv = ord_calc_args(c);
	struct ks_fire_in in;
	struct ks_fire_out res;
	struct ord_kv flags;
	struct ks_text why;
	int err;

	memset(&in, 0, sizeof(in));
	ord_kv_init(&flags);
	ks_text_init(&why);
	ord_calc_flags(c, "", &flags);
	in.figures = (int)ord_kv_get_int(kv, "figurer", 0);
	in.target_figures = (int)ord_kv_get_int(kv, "maal_figurer", 0);
	in.fired_figures = (int)ord_kv_get_int(kv, "beskudt_del", 0);
	in.vaaben = ord_kv_get(kv, "vaaben");
	in.zone = zone_arg(kv);
	in.half = ord_kv_get_bool(kv, "halv", 0);
	in.flags = &flags;
	/* a shot out of range rolls no dice, as in the game */
	if ((err = calc_zones(ks_rules(rules), kv, "I II III", in.zones, &in.nzones)) != 0 ||
	    (err = calc_range(kv, in.zone, &in.range)) != 0 ||
	    (ks_fire_reaches(ks_rules(rules), &in) &&
	     (err = take3(c, ks_rules(rules), in.dice, "d")) != 0) ||
	    (err = ks_fire(ks_rules(rules), &in, &res, &why)) != 0)
		goto out;
	ord_calc_value(c, "in_range", res.in_range ? "yes" : "no");
	zone_value(c, res.zone, res.nzones);
	ord_calc_value_int(c, "fire_units", res.fire_units);
	ord_calc_value_num(c, "loss_total", res.loss_total);
	ord_calc_value_num(c, "men_per_unit", res.men_per_unit);
	ord_calc_value_int(c, "men", res.men);
	morale_values(c, res.morale_total, res.grade_applied, &res.parts);
	answer(c, &why);
out:
	ord_kv_release(&flags);
	ks_text_release(&why);
	return err;
}

static int calc_artillery(struct ord_calc *c, struct ord_rules *rules)
{
	const struct ord_kv *kv = ord_calc_args(c);
	struct ks_artillery_in in;
	struct ks_artillery_out res;
	struct ord_kv flags;
	struct ks_text why;
	int err;

	memset(&in, 0, sizeof(in));
	ord_kv_init(&flags);
	ks_text_init(&why);
	ord_calc_flags(c, "", &flags);
	in.guns = (int)ord_kv_get_int(kv, "kanoner", 0);
	in.kaliber = ord_kv_get(kv, "kaliber");
	in.ammo = ord_kv_get(kv, "ammo");
	in.zone = zone_arg(kv);
	in.half = ord_kv_get_bool(kv, "halv", 0);
	in.target_figures = (int)ord_kv_get_int(kv, "maal_figurer", 0);
	in.fired_figures = (int)ord_kv_get_int(kv, "beskudt_del", 0);
	in.target_artillery = ord_kv_get_bool(kv, "maal_artilleri", 0);
	in.flags = &flags;
	if ((err = calc_zones(ks_rules(rules), kv, "I II III K", in.zones, &in.nzones)) != 0 ||
	    (err = calc_range(kv, in.zone, &in.range)) != 0 ||
	    (ks_artillery_reaches(ks_rules(rules), &in) &&
	     (err = take3(c, ks_rules(rules), in.dice, "d")) != 0) ||
	    (err = ks_artillery(ks_rules(rules), &in, &res, &why)) != 0)
		goto out;
	ord_calc_value(c, "in_range", res.in_range ? "yes" : "no");
	zone_value(c, res.zone, res.nzones);
	ord_calc_value_num(c, "loss_total", res.loss_total);
	ord_calc_value_num(c, "men_per_gun", res.men_per_gun);
	ord_calc_value_int(c, "men", res.men);
	ord_calc_value_int(c, "damaged", res.damaged);
	ord_calc_value_int(c, "destroyed", res.destroyed);
	ord_calc_value_int(c, "limbers", res.limbers);
	morale_values(c, res.morale_total, res.grade_applied, &res.parts);
	answer(c, &why);
out:
	ord_kv_release(&flags);
	ks_text_release(&why);
	return err;
}

/* A side of the melee calculator: its figures (the first 6 ranks when its
 * art and formation are given, 16.5), ranks (its formation's unless
 * given), whether it is in U (the flag moral_u) and can retreat (17.1). */
static int melee_side_args(const struct ks_rules *r, const struct ord_kv *kv, const char *p,
			   struct ks_melee_side *s, struct ks_text *why)
{
	char k[32];
	const char *art, *form, *ret;
	int given;

	snprintf(k, sizeof(k), "%s_figurer", p);
	s->figures = (int)ord_kv_get_int(kv, k, 0);
	snprintf(k, sizeof(k), "%s_art", p);
	art = ord_kv_get(kv, k);
	snprintf(k, sizeof(k), "%s_formation", p);
	form = ord_kv_get(kv, k);
	snprintf(k, sizeof(k), "%s_geledder", p);
	given = ord_kv_get(kv, k) != NULL;
	/* without a formation a side has the line's 2 ranks unless given */
	s->ranks = (int)ord_kv_get_int(kv, k, 2);
	if ((art && !form) || (form && !art))
		return ord_error_set(ORD_EUSAGE,
				     "%s_%s: missing (the six ranks are counted from both %s_art and %s_formation)",
				     p, art ? "formation" : "art", p, p);
	if (art && form) {
		const char *vaaben = ks_arm_vaaben(r, art);
		const struct ord_row *row;
		int n = ks_rank_figures(r, form, vaaben, s->figures);
		if (ks_formation(r, form, vaaben, &row))
			return ord_error_set(ORD_EUSAGE, "%s_formation: %s", p, ord_error_last());
		if (n < s->figures) {
			KS_TF(why, "%s: kun de %g første geledder tælles (16.5): %d af %d figurer; ",
			      "%s: only the first %g ranks count (16.5): %d of %d figures; ",
			      !strcmp(p, "a") ? "a" : "d", ks_param(r, "geledder_max"), n, s->figures);
			s->figures = n;
		}
		if (!given)
			s->ranks = ks_ranks(r, form, vaaben, s->figures);
	}
	snprintf(k, sizeof(k), "%s_retraete", p);
	ret = ord_kv_get(kv, k);
	s->blocked = ret && strcmp(ret, "fri") ? ret : NULL;
	s->in_u = ord_kv_get_bool(&s->flags, "moral_u", 0);
	return 0;
}

/* A side's arm and formation from the calculator's arguments. */
static void melee_arm_args(const struct ord_kv *kv, const char *p, struct ks_melee_arm *m)
{
	char k[32];
	const char *n;

	snprintf(k, sizeof(k), "%s_art", p);
	m->art = ord_kv_get(kv, k);
	snprintf(k, sizeof(k), "%s_formation", p);
	m->formation = ord_kv_get(kv, k);
	snprintf(k, sizeof(k), "%s_nation", p);
	n = ord_kv_get(kv, k);
	m->british = n && (!strcmp(n, "britisk") || !strcmp(n, "engelsk"));
	snprintf(k, sizeof(k), "%s_rifler", p);
	m->rifler = (double)ord_kv_get_int(kv, k, 0);
}

/* A side's arm is cavalry (its <p>_art=; not known without). */
static int side_cavalry(const struct ks_rules *r, const struct ord_kv *kv, const char *p)
{
	char k[32];
	const char *art;

	snprintf(k, sizeof(k), "%s_art", p);
	art = ord_kv_get(kv, k);
	return art && !strcmp(ks_arm_vaaben(r, art), "kavaleri");
}

/* 17.3 as the game has it (events.c, attack.c): a pursuit attack is on a
 * side in FU (d_moral_fu=yes) by at least forfoelgelse_pct of its strength
 * (cavalry counted forfoelgelse_kavaleri_gange times), refused otherwise;
 * and, with forfoelgelse_kontrol, such a melee is one whether said or not.
 * beregner_forfoelgelse_kontrol: a Skema without it takes forfoelgelse= as
 * given, as the calculator did. */
static int melee_pursuit(const struct ks_rules *r, const struct ord_kv *kv, struct ks_melee_in *in,
			 struct ks_text *why)
{
	int fu = ord_kv_get_bool(&in->d.flags, "moral_fu", 0);
	int a = ks_pursuit_strength(r, (int)ord_kv_get_int(kv, "a_figurer", 0),
				    side_cavalry(r, kv, "a"));
	int d = ks_pursuit_strength(r, (int)ord_kv_get_int(kv, "d_figurer", 0),
				    side_cavalry(r, kv, "d"));
	int enough = ks_pursuit_enough(r, a, d);

	if (in->pursuit && !fu)
		return ord_error_set(ORD_EUSAGE,
				     "forfoelgelse: a pursuit attack is on a unit in FU: give d_moral_fu=yes (17 forfølgelsesangreb)");
	if (in->pursuit && !enough)
		return ord_error_set(ORD_EUSAGE,
				     "forfoelgelse: a pursuit needs at least %g%% of the fleeing unit's strength (cavalry %g times): %d against %d (17 forfølgelsesangreb)",
				     ks_param(r, "forfoelgelse_pct"),
				     ks_param(r, "forfoelgelse_kavaleri_gange"), a, d);
	if (!in->pursuit && fu && enough && ks_check(r, "forfoelgelse_kontrol")) {
		in->pursuit = 1;
		KS_TF(why, "forfølgelsesangreb (17.3): %d mod %d, mindst %g%%; ",
		      "pursuit attack (17.3): %d against %d, at least %g%%; ", a, d,
		      ks_param(r, "forfoelgelse_pct"));
	}
	return 0;
}

static int calc_melee(struct ord_calc *c, struct ord_rules *rules)
{
	const struct ks_rules *r = ks_rules(rules);
	const struct ord_kv *kv = ord_calc_args(c);
	struct ks_melee_in in;
	struct ks_melee_out res;
	struct ks_text why;
	int err;

	memset(&in, 0, sizeof(in));
	ord_kv_init(&in.a.flags);
	ord_kv_init(&in.d.flags);
	ks_text_init(&why);
	ord_calc_flags(c, "a_", &in.a.flags);
	ord_calc_flags(c, "d_", &in.d.flags);
	if ((err = melee_side_args(r, kv, "a", &in.a, &why)) != 0 ||
	    (err = melee_side_args(r, kv, "d", &in.d, &why)) != 0)
		goto out;
	in.pursuit = ord_kv_get_bool(kv, "forfoelgelse", 0);
	if (ks_check(r, "beregner_forfoelgelse_kontrol") && (err = melee_pursuit(r, kv, &in, &why)) != 0)
		goto out;
	/* the modifiers of arm and formation, by the game's own path */
	if (ord_kv_get(kv, "a_art") && ord_kv_get(kv, "d_art")) {
		struct ks_melee_arm ma, md;
		melee_arm_args(kv, "a", &ma);
		melee_arm_args(kv, "d", &md);
		ks_melee_arm_flags(r, &ma, &md, 1, &in.a.flags);
		ks_melee_arm_flags(r, &md, &ma, 0, &in.d.flags);
	} else {
		ks_text_add(&why,
			    "uden a_art/a_formation og d_art/d_formation gives ingen tillæg for våbenart og formation (giv dem som flag); ",
			    "without a_art/a_formation and d_art/d_formation no modifier of arm and formation is given (give them as flags); ");
	}
	ks_text_add(&why,
		    "enhedernes tilstand (moral, valeur, stormmarch, 1. skydning, tidligere rolle) og dommerens flag gives som a_FLAG=yes/d_FLAG=yes; ",
		    "the units' state (morale, valeur, stormmarch, first volley, earlier role) and the referee's flags are given as a_FLAG=yes/d_FLAG=yes; ");
	/* the numbers flags unless given */
	if (!ord_kv_get(&in.a.flags, "pct_flere") && !ord_kv_get(&in.a.flags, "gange_2"))
		ks_melee_numbers(r, in.a.figures, in.d.figures, &in.a.flags);
	if (!ord_kv_get(&in.d.flags, "pct_flere") && !ord_kv_get(&in.d.flags, "gange_2"))
		ks_melee_numbers(r, in.d.figures, in.a.figures, &in.d.flags);
	if ((err = take3(c, r, in.a.dice, "a")) != 0 || (err = take3(c, r, in.d.dice, "d")) != 0 ||
	    (err = ks_melee(r, &in, &res, &why)) != 0)
		goto out;
	ord_calc_value(c, "winner", res.winner == 1 ? "a" : res.winner == 2 ? "d" : "none");
	ord_calc_value_num(c, "total_a", res.total_a);
	ord_calc_value_num(c, "total_d", res.total_d);
	ord_calc_value_int(c, "difference", res.difference);
	ord_calc_value_int(c, "ranks_winner", res.ranks_winner);
	ord_calc_value_int(c, "ranks_loser", res.ranks_loser);
	ord_calc_value_num(c, "weight", res.weight);
	ord_calc_value_num(c, "product", res.product);
	ord_calc_value(c, "morale", ks_moral_name(res.grade));
	ord_calc_value_int(c, "men_a", res.men_a);
	ord_calc_value_int(c, "men_d", res.men_d);
	ord_calc_value_int(c, "prisoners_a", res.prisoners_a);
	ord_calc_value_int(c, "prisoners_d", res.prisoners_d);
	answer(c, &why);
out:
	ord_kv_release(&in.a.flags);
	ord_kv_release(&in.d.flags);
	ks_text_release(&why);
	return err;
}

static int calc_explosion(struct ord_calc *c, struct ord_rules *rules)
{
	struct ks_text why;
	double share;
	int units, die, err;

	ks_text_init(&why);
	if ((err = ord_calc_die(c, &die, (unsigned)ks_die(ks_rules(rules)), "d1")) != 0 ||
	    (err = ks_explosion(ks_rules(rules), die, ord_kv_get_num(ord_calc_args(c), "kampsatser", 0),
				&share, &units, &why)) != 0)
		goto out;
	ord_calc_value_num(c, "share", share);
	ord_calc_value_int(c, "fire_units", units);
	answer(c, &why);
out:
	ks_text_release(&why);
	return err;
}

/* "1/2" and the like as a number. */
static double quarters_arg(const char *v)
{
	int a = 0, b = 1;

	if (!v)
		return -1;
	if (sscanf(v, "%d/%d", &a, &b) == 2 && b > 0)
		return (double)a / b;
	return atof(v);
}

/* "skov:10,aabent:5" into stretches (names kept in names, a copy). */
static int parse_stretches(const char *list, char *names, size_t nnames, struct ks_move_seg *seg,
			   size_t max, size_t *n)
{
	char *save = NULL, *item;

	*n = 0;
	snprintf(names, nnames, "%s", list);
	for (item = strtok_r(names, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(item, ':');
		double cm;
		if (!colon || ord_parse_num(colon + 1, &cm) || cm < 0 || *n == max)
			return ord_error_set(ORD_EUSAGE,
					     "straekning: '%s' is not TERRAIN:CM (expected e.g. skov:10,aabent:5)",
					     item);
		*colon = '\0';
		seg[*n].terrain = item;
		seg[*n].cm = cm;
		(*n)++;
	}
	return 0;
}

static int calc_move(struct ord_calc *c, struct ord_rules *rules)
{
	const struct ks_rules *r = ks_rules(rules);
	const struct ord_kv *kv = ord_calc_args(c);
	struct ks_move_in in;
	struct ks_move_out res;
	struct ks_move_seg seg[32];
	const char *obst[16];
	char names[1024], classes[256];
	struct ks_text why;
	const char *list = ord_kv_get(kv, "straekning"), *h = ord_kv_get(kv, "hindringer");
	int err = 0;

	memset(&in, 0, sizeof(in));
	ks_text_init(&why);
	in.art = ord_kv_get(kv, "art");
	in.formation = ord_kv_get(kv, "formation");
	in.gang = ord_kv_get(kv, "gang");
	in.time = quarters_arg(ord_kv_get(kv, "tid"));
	in.facing_enemy = !strcmp(ord_kv_get(kv, "maade"), "front_mod_fjenden");
	in.through_cm = ord_kv_get_num(kv, "gennem_cm", 0);
	in.wheel_cm = ord_kv_get_num(kv, "drej_cm", 0);
	/* what the game refuses on the map (ks_check_path), the same rules:
	 * obstacles by arm, formation, morale and gait, wood and marsh */
	in.passage = 1;
	in.path = ord_kv_get_bool(kv, "sti", 0);
	if (list && *list) {
		if ((err = parse_stretches(list, names, sizeof(names), seg, ORD_ARRAY_SIZE(seg),
					   &in.nseg)) != 0)
			goto out;
	} else if (ord_kv_get(kv, "afstand")) {
		seg[0].terrain = ord_kv_get(kv, "terraen");
		seg[0].cm = ord_kv_get_num(kv, "afstand", 0);
		in.nseg = 1;
	}
	in.seg = seg;
	if (h && *h) {
		char *save = NULL, *item;
		snprintf(classes, sizeof(classes), "%s", h);
		for (item = strtok_r(classes, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
			if (strcmp(item, "I") && strcmp(item, "II") && strcmp(item, "III")) {
				err = ord_error_set(ORD_EUSAGE,
						    "hindringer: unknown class '%s' (expected I, II or III, e.g. hindringer=I,II)",
						    item);
				goto out;
			}
			if (in.nobstacles < ORD_ARRAY_SIZE(obst))
				obst[in.nobstacles++] = item;
		}
	}
	in.obstacles = obst;
	if ((err = ks_move(r, &in, &res, &why)) != 0)
		goto out;
	ord_calc_value_num(c, "length", res.length);
	ord_calc_value_num(c, "time", res.time);
	ord_calc_value_num(c, "deduction", res.deduction);
	ord_calc_value_num(c, "reach", res.reach);
	if (in.nseg || in.through_cm > 0) {
		ord_calc_value_num(c, "moved", res.moved);
		ord_calc_value_num(c, "cost", res.cost);
	}
	if (in.nseg || in.through_cm > 0 || !res.passable)
		ord_calc_value(c, "allowed", res.ok ? "yes" : "no");
	answer(c, &why);
out:
	ks_text_release(&why);
	return err;
}

static const struct ord_calculation calculations[] = {
	{ "fireunits", fireunits_args, 0, NULL, NULL, calc_fireunits },
	{ "fire", fire_args, KS_DICE, fire_tables, NULL, calc_fire },
	{ "artillery", artillery_args, KS_DICE, art_tables, NULL, calc_artillery },
	{ "melee", melee_args, 2 * KS_DICE, melee_tables, melee_prefixes, calc_melee },
	{ "explosion", explosion_args, 1, NULL, NULL, calc_explosion },
	{ "decimation", decimation_args, 0, NULL, NULL, calc_decimation },
	{ "move", move_args, 0, NULL, NULL, calc_move },
	{ NULL, NULL, 0, NULL, NULL, NULL },
};

static const char *const dice_rolled[] = { "da", "terninger kastet", "en", "dice rolled", NULL };

static const struct ord_calculator calculator = {
	"krigsspil",  /* ruleset */
	calculations, /* calcs */
	"lang",       /* lang_key */
	dice_rolled,  /* dice_rolled */
};

int ks_calc(struct ord_rules *rules, const char *what, const struct ord_kv *args, const int *dice,
	    size_t ndice, int xml, struct ord_buf *out)
{
	return ord_calc_run(&calculator, rules, ks_rules(rules)->tables, what, args, dice, ndice,
			    xml, out);
}

int ks_print_tables(struct ord_rules *rules, const char *table, struct ord_buf *out)
{
	const struct ks_rules *r = ks_rules(rules);
	int err;

	if (table && (!strcmp(table, "kort") || !strcmp(table, "map"))) {
		ks_map_print(r, NULL, !strcmp(table, "map") ? "en" : "da", out);
		return 0;
	}
	err = ord_tables_print(r->tables, table, out);
	if (err == ORD_ENOTFOUND && table)
		return ord_error_set(ORD_ENOTFOUND, "%s (or kort for the map)", ord_error_last());
	return err;
}
