/*
 * fire.c - the krigsspil skydninger (14, 15): small-arms and artillery
 * fire read from the referee's events and the units' state, simultaneous
 * (K7), with the flags the module sees and those the referee gives (K10);
 * then the losses, the morale results, ranging, and limbers that explode
 * (10.2).  attack.c uses the battery's defensive canister from here.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rulesets/krigsspil/ks.h"

/* ---- skydninger (14, 15) ---- */

/* 11: "Soutien opstilles for infanteri som angrebskolonne og for kavaleri
 * som linie. Selvom soutien opstilles som disse formationer, får den ikke
 * tillæg/fradrag for disse formationer": a soutien is no deep formation
 * (soutien_formation_kontrol; a game made before counted it one) */
static int deep(const struct ks_rules *r, const char *f)
{
	if (!strcmp(f, "soutien"))
		return !ks_check(r, "soutien_formation_kontrol");
	return !strcmp(f, "angrebskolonne") || !strcmp(f, "marchkolonne") || !strcmp(f, "karre") ||
	       !strcmp(f, "bataillonsmasse");
}

/* The target's flags, common to small arms and artillery. */
void ks_target_flags(struct ord_ctx *ctx, const struct ord_unit *t, struct ord_kv *flags)
{
	struct ks_rules *r = ks_r(ctx);
	const char *f = ks_form(ctx, t);
	int grade = ks_moral_now(ctx, t);
	/* 11: "En enhed er altid i formation med mindre enheden er i FU": a
	 * target in FU is hit by no formation's modifiers, as in melee
	 * (fu_formation_skydning_kontrol; a game made before read its last
	 * formation) */
	int formed = grade != KS_FU || !ks_check(r, "fu_formation_skydning_kontrol");

	if (ks_is(ctx, t, "artilleri"))
		ord_kv_set(flags, "maal_artilleri", "yes");
	else if (formed && deep(r, f))
		ord_kv_set(flags, "maal_dyb", "yes");
	else if (formed && !strcmp(f, "hob"))
		ord_kv_set(flags, "maal_hob", "yes");
	if (formed && (!strcmp(f, "skyttekaede_taet") || !strcmp(f, "svaerm_taet")))
		ord_kv_set(flags, "maal_spredt_taet", "yes");
	if (formed && (!strcmp(f, "skyttekaede_tynd") || !strcmp(f, "svaerm_tynd")))
		ord_kv_set(flags, "maal_spredt_tynd", "yes");
	if (formed && !ks_closed(ctx, t, NULL))
		ord_kv_set(flags, "maal_spredt", "yes");
	if (ks_is(ctx, t, "kavaleri"))
		ord_kv_set(flags, "maal_kavaleri", "yes");
	if (grade == KS_LU)
		ord_kv_set(flags, "maal_lu", "yes");
	else if (grade >= KS_U)
		ord_kv_set(flags, "maal_u", "yes");
	if (ks_st(ctx, t, "skoed_helt") > 0 &&
	    ks_st(ctx, t, "skoed_helt") == ord_ctx_turn(ctx) - 1 && ks_closed(ctx, t, NULL))
		ord_kv_set(flags, "krudtroeg_maal", "yes");
	if (!ks_is(ctx, t, "artilleri"))
		ord_kv_set_int(flags, "valeur_diff",
			       ks_st(ctx, t, "valeur") - (long)ks_param(r, "valeur_norm"));
	/* cover from the map (Skema I-III) */
	if (r->map && ks_st_has(ctx, t, "x")) {
		const struct ks_plate *p = ks_map_at(r->map, ks_st_num(ctx, t, "x"),
						     ks_st_num(ctx, t, "y"));
		if (p) {
			const struct ord_row *row = ks_terrain_row(r, p->terrain);
			if (row && !strcmp(ord_row_str(row, "daekning"), "let"))
				ord_kv_set(flags, "daekning_let", "yes");
			else if (row && !strcmp(ord_row_str(row, "daekning"), "god"))
				ord_kv_set(flags, "daekning_god", "yes");
			if (row && !strcmp(ord_row_str(row, "ikkerikochet"), "ja"))
				ord_kv_set(flags, "ikkerikochet", "yes");
		}
	}
}

/* The referee's flags "a,b=2" into a kv (they override the automatic ones). */
void ks_referee_flags(const char *list, struct ord_kv *flags)
{
	const char *p = list;

	while (p && *p) {
		size_t len = strcspn(p, ",");
		char item[160];
		if (len && len < sizeof(item)) {
			char *eq;
			memcpy(item, p, len);
			item[len] = '\0';
			eq = strchr(item, '=');
			if (eq) {
				*eq = '\0';
				ord_kv_set(flags, item, eq + 1);
			} else {
				ord_kv_set(flags, item, "yes");
			}
		}
		p += len;
		if (*p == ',')
			p++;
	}
}

struct ord_unit *ks_fire_also(struct ord_ctx *ctx, const struct ord_event *e)
{
	struct ord_unit *t = ks_ev_unit(ctx, e, "maal"), *c = ks_ev_unit(ctx, e, "ogsaa");

	if (!c || !t || !ks_check(ks_r(ctx), "skydemaal_kontrol") || c == t ||
	    c == ks_ev_unit(ctx, e, "unit") || strcmp(c->side, t->side) ||
	    ks_is(ctx, c, "artilleri") || ks_is(ctx, t, "artilleri") || ks_gone(ctx, c))
		return NULL;
	return c;
}

/* Is x a unit fire e (skyd, artilleri) is at: its target, or the close
 * formation behind it fired at too (ogsaa=)? */
static int fire_at(struct ord_ctx *ctx, const struct ord_event *e, const struct ord_unit *x)
{
	return x && (ks_ev_unit(ctx, e, "maal") == x || ks_fire_also(ctx, e) == x);
}

/* Did t fire this turn at any unit that fired at it? (besvarer; a fire at
 * both, ogsaa=, is at each) */
static int answers(struct ord_ctx *ctx, const struct ord_unit *t)
{
	size_t i, j;

	/* both are events that name t: lookups, not scans of the phase */
	for (i = 0; i < ord_ctx_unit_nevents(ctx, t); i++) {
		const struct ord_event *e = ord_ctx_unit_event(ctx, t, i);
		/* a fire not carried out (umulig_kontrol) answers nobody */
		if ((strcmp(e->kind, "skyd") && strcmp(e->kind, "artilleri")) ||
		    ks_ev_unit(ctx, e, "unit") != t || ks_impossible(ctx, e, NULL))
			continue;
		for (j = 0; j < ord_ctx_unit_nevents(ctx, t); j++) {
			const struct ord_event *f = ord_ctx_unit_event(ctx, t, j);
			if ((!strcmp(f->kind, "skyd") || !strcmp(f->kind, "artilleri")) &&
			    fire_at(ctx, f, t) && !ks_impossible(ctx, f, NULL) &&
			    fire_at(ctx, e, ks_ev_unit(ctx, f, "unit")))
				return 1;
		}
	}
	return 0;
}

static const char *battery_ammo(struct ord_ctx *ctx, const struct ord_unit *u,
				const struct ord_event *e)
{
	struct ks_group g[KS_MAX_GROUPS];
	const struct ord_order *o = ord_ctx_order(ctx, u);
	size_t n = ks_groups(o, g, KS_MAX_GROUPS), i;
	const char *a = ord_kv_get(&e->kv, "ammo");

	if (a)
		return a;
	for (i = 0; i < n; i++)
		if ((!strcmp(g[i].code, "artilleriskydning") || !strcmp(g[i].code, "ammunitionsskift")) &&
		    ks_grp_arg(o, &g[i], "ammo"))
			return ks_grp_arg(o, &g[i], "ammo");
	return "SF";
}

static const char *pool_key(const char *ammo)
{
	return !strcmp(ammo, "SK")   ? "ks_kardaesk"
	       : !strcmp(ammo, "SS") ? "ks_shrapnel"
				     : "ks_fuldkugle";
}

/* The zone weapon vaaben reaches at range cm (skudzoner); NULL beyond. */
static const char *arms_zone(const struct ks_rules *r, const char *vaaben, double range)
{
	const struct ord_row *row = NULL;
	struct ord_kv m;

	ord_kv_init(&m);
	ord_kv_set(&m, "vaaben", vaaben);
	if (ord_table_band(&row, ks_table(r, "skudzoner"), &m, range)) {
		ord_error_clear();
		row = NULL;
	}
	ord_kv_release(&m);
	return row ? ord_row_str(row, "zone") : NULL;
}

/* Do muskets reach the zone given, or the range (skudzoner)?  Beyond
 * them only the rifles of a mixed unit fire (14). */
static int musket_reaches(const struct ks_rules *r, const char *zone, double range)
{
	const struct ord_table *t = ks_table(r, "skudzoner");
	size_t i;

	if (!zone)
		return arms_zone(r, "musket", range) != NULL;
	for (i = 0; i < ord_table_nrows(t); i++) {
		const struct ord_row *row = ord_table_row(t, i);
		if (!strcmp(ord_row_str(row, "vaaben"), "musket") &&
		    !strcmp(ord_row_str(row, "zone"), zone))
			return 1;
	}
	return 0;
}

/* The zone the rifles of a mixed unit fire at (14: "Dog kan enheder med
 * både musket og riffel skyde på [to] zoner"): the event's riffel_zone, or
 * the rifles' zone at riffel_afstand (their figures to the part they fire
 * at), or else the zone of the whole unit's fire. */
static const char *rifle_zone(const struct ks_rules *r, const struct ord_event *e)
{
	const char *z = ord_kv_get(&e->kv, "riffel_zone");

	if (z)
		return z;
	if (ord_kv_get(&e->kv, "riffel_afstand"))
		return arms_zone(r, "riffel", ord_kv_get_num(&e->kv, "riffel_afstand", 0));
	if (ord_kv_get(&e->kv, "zone"))
		return ord_kv_get(&e->kv, "zone");
	return arms_zone(r, "riffel", ord_kv_get_num(&e->kv, "afstand", 0));
}

/* The part of target t fired at (14: "Den skydende kan bestemme, at kun
 * en del af den beskudte enhed beskydes"), 0 for all of it.  A part larger
 * than the unit, refused when recorded (events.c) and recorded only with
 * --override, is the whole unit: never an error that stops the phase. */
static int fired_part(struct ord_ctx *ctx, const struct ord_event *e, const struct ord_unit *t)
{
	long part = ord_kv_get_int(&e->kv, "beskudt_del", 0);

	return part > ks_figures(ctx, t) ? 0 : (int)part;
}

/* 14 Skydetid: "Der kan enten skydes i et helt eller halvt træk"; the
 * sheet says which ("S @S1 ½"), as it gives a move its time.  The
 * event's halv= when given (one against the sheet is refused unless
 * overridden, events.c), else the sheet's (skydetid_kontrol: a game made
 * before it fired a whole turn unless the event said halv=yes). */
static int fire_half(struct ord_ctx *ctx, const struct ord_event *e, const struct ord_unit *u,
		     const struct ord_unit *t, const char *code)
{
	if (ord_kv_get(&e->kv, "halv") || !ks_check(ks_r(ctx), "skydetid_kontrol"))
		return ord_kv_get_bool(&e->kv, "halv", 0);
	return ks_ordered_half(ctx, u, code, t) > 0;
}

/* The zones a moving target was as long in (zoner=, 14, 15), allowed
 * those of allowed, into zones and *n (0: none given, or the Skema has
 * not the rule, skydemaal_kontrol).  An overridden list of one zone is
 * that zone (*zone); one that is no list of zones is left out. */
static void moving_zones(struct ord_ctx *ctx, const struct ord_event *e, const char *allowed,
			 const char **zones, int *n, const char **zone)
{
	*n = 0;
	if (!ord_kv_get(&e->kv, "zoner") || !ks_check(ks_r(ctx), "skydemaal_kontrol"))
		return;
	if (ks_parse_zones(ord_kv_get(&e->kv, "zoner"), allowed, "zoner", zones, n))
		ord_error_clear();
	if (*n == 1)
		*zone = zones[0];
	if (*n < 2)
		*n = 0;
}

/* "Der fjernes tab forholdsvis fra den spredte og sluttede formation"
 * (14, 15): the men of a fire at both shared by the two units' figures
 * before the fire, the open order's share rounded to the nearest man (a
 * half up) and the close formation the rest (our reading: the text says
 * "forholdsvis", not by what, nor how to round). */
static void share_losses(struct ord_ctx *ctx, struct ks_hit *h, int men, const char *rule,
			 struct ks_text *why)
{
	int fo = ks_figures(ctx, h->target), fc = ks_figures(ctx, h->also);
	int open = fo + fc > 0 ? (int)floor((double)men * fo / (fo + fc) + 0.5 + 1e-9) : 0;

	h->men = open;
	h->also_men = men - open;
	KS_TF(why,
	      "; tabet fordeles forholdsvis efter figurerne (vores læsning, %s): %s %d af %d figurer %d mand, %s %d mand",
	      "; the loss shared in proportion to the figures (our reading, %s): %s %d of %d figures %d men, %s %d men",
	      rule, h->target->id, fo, fo + fc, h->men, h->also->id, h->also_men);
}

/* A fire at both (ogsaa=) in the firer's words: "skyder på L3 og L4 bag
 * den (som på den sluttede formation, 14): ". */
static void text_fire_at(struct ord_ctx *ctx, const struct ord_event *e, struct ks_text *why,
			 const struct ord_unit *t, const struct ord_unit *also, const char *rule)
{
	const char *named = ord_kv_get(&e->kv, "ogsaa");

	if (also)
		KS_TF(why, "skyder på %s og %s bag den (som på den sluttede formation, %s): ",
		      "fires at %s and %s behind it (as at the close formation, %s): ", t->id,
		      also->id, rule);
	else
		KS_TF(why, "skyder på %s: ", "fires at %s: ", t->id);
	/* an overridden ogsaa= no table can make the unit behind: at the
	 * target alone */
	if (!also && named && ks_check(ks_r(ctx), "skydemaal_kontrol"))
		KS_TF(why, "(ogsaa=%s ikke udført: ikke egen sluttet formation bag %s, %s) ",
		      "(ogsaa=%s not carried out: no own close formation behind %s, %s) ", named,
		      t->id, rule);
}

const char *ks_longest_arm(struct ord_ctx *ctx, const struct ord_unit *u)
{
	if (ks_is(ctx, u, "kavaleri"))
		return "karabin";
	return ord_kv_get_int(&u->attrs, "rifler", 0) > 0 ? "riffel" : "musket";
}

/* Small-arms fire e of u at t as the calculation takes it, with the flags
 * the module works out itself from the units' state (K10: the referee's
 * come on top; ks_fire_own_flags). */
static void small_arms_in(struct ord_ctx *ctx, const struct ord_event *e, struct ord_unit *u,
			  struct ord_unit *t, struct ks_fire_in *in, struct ord_kv *flags)
{
	struct ks_rules *r = ks_r(ctx);
	const char *zone = ord_kv_get(&e->kv, "zone");
	long rifler = ord_kv_get_int(&u->attrs, "rifler", 0);
	int grade = ks_moral_now(ctx, u), turn = ord_ctx_turn(ctx), k, muskets;
	/* a fire at both is reckoned as on the close formation (14) */
	struct ord_unit *also = ks_fire_also(ctx, e), *ft = also ? also : t;

	memset(in, 0, sizeof(*in));
	in->figures = (int)ord_kv_get_int(&e->kv, "figurer",
					  ks_firing_figures(r, ks_form(ctx, u), ks_vaaben(ctx, u),
							    ks_figures(ctx, u)));
	/* the two units one target for the morale (our reading, K6) */
	in->target_figures = ks_figures(ctx, t) + (also ? ks_figures(ctx, also) : 0);
	in->fired_figures = also ? 0 : fired_part(ctx, e, t);
	moving_zones(ctx, e, "I II III", in->zones, &in->nzones, &zone);
	in->zone = zone;
	in->range = ord_kv_get_num(&e->kv, "afstand", 0);
	in->half = fire_half(ctx, e, u, t, "skydning");
	in->vaaben = ks_longest_arm(ctx, u);
	/* small arms at a battery: no loss, and the words say so
	 * (haandvaaben_batteri_kontrol; a game made before gave the men and
	 * took none) */
	in->at_battery = ks_is(ctx, t, "artilleri") && ks_check(r, "haandvaaben_batteri_kontrol");
	if (ks_is(ctx, u, "kavaleri")) {
		ord_kv_set(flags, "kavaleri_skyder", "yes");
	} else if (rifler > 0 && rifler < 100) {
		/* a moving target: the muskets fire at the zones they reach */
		for (k = 0, muskets = !in->nzones && musket_reaches(r, zone, in->range);
		     k < in->nzones; k++)
			muskets |= musket_reaches(r, in->zones[k], 0);
		if (muskets)
			in->vaaben = "musket";
		else /* only the rifles reach the furthest zone */
			in->figures = (int)floor(in->figures * rifler / 100.0);
	}
	/* the rifles' share counts when the muskets fire at one zone and the
	 * rifles at the zones riffel_andele names (14, "Skydning på zone
	 * II/III"), the same whether the referee gives zones or distances;
	 * at a moving target they fire at the whole unit's zones (ours) */
	if (rifler > 0 && rifler < 100 && !strcmp(in->vaaben, "musket") && !in->nzones) {
		const char *mz = zone ? zone : arms_zone(r, "musket", in->range);
		const char *flag = ks_rifle_flag(r, "skydning", rifler, mz, rifle_zone(r, e));
		if (flag)
			ord_kv_set(flags, flag, "yes");
	}
	if (ks_st(ctx, u, "foerste_salve"))
		ord_kv_set(flags, "foerste_salve", "yes");
	if (ks_st(ctx, u, "skoed_helt") > 0 && ks_st(ctx, u, "skoed_helt") == turn - 1 &&
	    ks_closed(ctx, u, NULL))
		ord_kv_set(flags, "krudtroeg_skytte", "yes");
	if (ks_st(ctx, u, "bevaeget") == turn)
		ord_kv_set(flags, "ej_stationaer", "yes");
	if (grade == KS_LU)
		ord_kv_set(flags, "skytte_lu", "yes");
	else if (grade >= KS_U)
		ord_kv_set(flags, "skytte_u", "yes");
	ks_target_flags(ctx, ft, flags);
	if (!answers(ctx, ft))
		ord_kv_set(flags, "besvarer_ikke", "yes");
}

/* A fire's hit h at its target (h->target, h->also set) by firer u, as
 * its result: the men it took, the morale grade applied, whether it
 * reached (the small arms' and the battery's alike). */
static void fire_result(struct ord_ctx *ctx, const struct ord_event *e, struct ord_unit *u,
			struct ks_hit *h, int men, int grade, int in_range, struct ord_kv *vals,
			struct ks_text *why)
{
	h->firer = u;
	h->e = e;
	h->grade = grade;
	h->out_of_range = !in_range;
	ord_kv_set_int(vals, "men", men);
	ord_kv_set(vals, "morale", ks_moral_name(grade));
	ord_kv_set(vals, "target", h->target->id);
	if (h->also)
		ord_kv_set(vals, "also", h->also->id);
	if (!in_range)
		ord_kv_set(vals, "out_of_range", "yes");
	ks_result(ctx, e->seq, u, vals, why);
}

static int fire_small_arms(struct ord_ctx *ctx, const struct ord_event *e, struct ks_hit *h)
{
	struct ks_rules *r = ks_r(ctx);
	struct ord_unit *u = ks_ev_unit(ctx, e, "unit"), *t = ks_ev_unit(ctx, e, "maal");
	struct ks_fire_in in;
	struct ks_fire_out out;
	struct ord_kv flags, vals;
	struct ks_text why;
	int err, turn = ord_ctx_turn(ctx);

	ord_kv_init(&flags);
	ord_kv_init(&vals);
	ks_text_init(&why);
	small_arms_in(ctx, e, u, t, &in, &flags);
	ks_referee_flags(ord_kv_get(&e->kv, "flag"), &flags);
	in.flags = &flags;
	/* a shot out of range rolls no dice (it can do nothing) */
	if (ks_fire_reaches(r, &in) && (err = ks_roll3(ctx, in.dice, "skyd", u, e->seq, 0)) != 0)
		goto out;
	h->also = ks_fire_also(ctx, e);
	h->target = t;
	text_fire_at(ctx, e, &why, t, h->also, "14");
	if ((err = ks_fire(r, &in, &out, &why)) != 0)
		goto out;
	h->men = out.men;
	if (h->also && out.men)
		share_losses(ctx, h, out.men, "14", &why);
	/* ammunition, first volley, smoke; a shot out of range spends its
	 * round too (our reading, as the battery's below: "Der forbruges 1
	 * kampsats ammunition ved skydning i et helt træk, halvt træk", 7.2) */
	ks_st_set_num(ctx, u, "kampsatser",
		      ks_st_num(ctx, u, "kampsatser") - ks_param(r, "forbrug_skydning"));
	ks_st_set(ctx, u, "foerste_salve", 0);
	ks_st_set(ctx, u, "skoed", turn);
	ks_st_set_str(ctx, u, "skoed_paa", t->id);
	if (!in.half)
		ks_st_set(ctx, u, "skoed_helt", turn);
	KS_TF(&why, "; %s kampsatser tilbage", "; %s rounds left", ks_st_str(ctx, u, "kampsatser"));
	fire_result(ctx, e, u, h, out.men, out.grade_applied, out.in_range, &vals, &why);
out:
	ord_kv_release(&flags);
	ord_kv_release(&vals);
	ks_text_release(&why);
	return err;
}

static int guns_for(struct ord_ctx *ctx, const struct ord_unit *u, const char *ammo)
{
	long guns = ks_st(ctx, u, "kanoner");
	long how = ord_kv_get_int(&u->attrs, "haubitser", 0) +
		   ord_kv_get_int(&u->attrs, "kanonhaubitser", 0);

	(void)ctx;
	if (!strcmp(ammo, "SG") && how < guns)
		return (int)how;
	return (int)guns;
}

int ks_fire_guns(struct ord_ctx *ctx, const struct ord_event *e, const struct ord_unit *u)
{
	const char *ammo = !strcmp(e->kind, "forsvarsild") ? "SK" : battery_ammo(ctx, u, e);

	return (int)ord_kv_get_int(&e->kv, "kanoner", guns_for(ctx, u, ammo));
}

/* "En kanon/haubits forsynes uden videre fra sit prods, såfremt det er
 * inden for 5 cm af piecens bagkant.  Er afstanden større, skal der
 * afsættes figurer til at fragte ammunitionen.  For hver 4
 * kanoner/haubits skal der afsættes 1 figur pr. 4 cm, udover de første
 * 5 cm" (9.2); ours: every 4 guns and every 4 cm begun count. */
int ks_fire_carriers(struct ord_ctx *ctx, const struct ord_event *e, const struct ord_unit *u)
{
	struct ks_rules *r = ks_r(ctx);
	double beyond = ord_kv_get_num(&e->kv, "prods_cm", 0) - ks_param(r, "prods_fri_cm");
	int guns = (int)ord_kv_get_int(&e->kv, "kanoner", guns_for(ctx, u, battery_ammo(ctx, u, e)));
	double per_guns = ks_param(r, "prods_baerer_kanoner"), per_cm = ks_param(r, "prods_baerer_cm");

	if (!ks_rule_limbers(r) || !ord_kv_get(&e->kv, "prods_cm") || beyond <= 0 || guns <= 0)
		return 0;
	return (int)(ceil(guns / per_guns - 1e-9) * ceil(beyond / per_cm - 1e-9));
}

/* The turns after its first fire at a target a battery is ranged on it
 * (indskudt_efter_traek; 1 for a Skema without it, as before). */
static long ranging_turns(const struct ks_rules *r)
{
	if (!ord_tables_param_row(r->tables, "indskudt_efter_traek"))
		return 1;
	return (long)floor(ks_param(r, "indskudt_efter_traek"));
}

int ks_ranged(struct ord_ctx *ctx, const struct ord_unit *u, const char *target)
{
	return !strcmp(ks_st_str(ctx, u, "indskudt_paa"), target) &&
	       ks_st(ctx, u, "indskudt_fra") <= ord_ctx_turn(ctx);
}

/* 15: "Indskydning tager et halvt træk": a battery whose order ranges on
 * t (IS @t) before it fires (AS ... @t) fires ranged, the ranging done
 * (indskydning_foer_skydning_kontrol; a game made before fired it
 * unranged, the ranging counted from the phase's end). */
static int ranged_first(struct ord_ctx *ctx, const struct ord_unit *u, const struct ord_unit *t)
{
	const struct ord_order *o = ord_ctx_order(ctx, u);
	struct ks_group g[KS_MAX_GROUPS];
	size_t k, n = ks_groups(o, g, KS_MAX_GROUPS);

	if (!ks_check(ks_r(ctx), "indskydning_foer_skydning_kontrol"))
		return 0;
	for (k = 0; k < n; k++) {
		const struct ord_token *tt = ks_grp_tok(o, &g[k], ORD_TOK_TARGET);
		if (!strcmp(g[k].code, "artilleriskydning"))
			return 0;
		if (!strcmp(g[k].code, "indskydning") && tt && ord_ctx_find_unit(ctx, tt->value) == t)
			return 1;
	}
	return 0;
}

/* A battery's fire e (defensive: its canister at an attacker) of u at t as
 * the calculation takes it, with the flags the module works out itself
 * (K10; ks_fire_own_flags). */
static void artillery_in(struct ord_ctx *ctx, const struct ord_event *e, struct ord_unit *u,
			 struct ord_unit *t, int defensive, struct ks_artillery_in *in,
			 struct ord_kv *flags)
{
	int grade = ks_moral_now(ctx, u);
	/* a fire at both is reckoned as on the close formation (15) */
	struct ord_unit *also = defensive ? NULL : ks_fire_also(ctx, e), *ft = also ? also : t;

	memset(in, 0, sizeof(*in));
	in->ammo = defensive ? "SK" : battery_ammo(ctx, u, e);
	in->kaliber = ks_attr(u, "kaliber");
	in->guns = (int)ord_kv_get_int(&e->kv, "kanoner", guns_for(ctx, u, in->ammo));
	in->zone = defensive ? "I" : ord_kv_get(&e->kv, "zone");
	if (!defensive)
		moving_zones(ctx, e, "I II III K", in->zones, &in->nzones, &in->zone);
	in->range = ord_kv_get_num(&e->kv, "afstand", 0);
	in->half = defensive ? ord_kv_get_bool(&e->kv, "halv", 0)
			     : fire_half(ctx, e, u, t, "artilleriskydning");
	/* the two units one target for the morale (our reading, K6) */
	in->target_figures = ks_figures(ctx, t) + (also ? ks_figures(ctx, also) : 0);
	in->fired_figures = also ? 0 : fired_part(ctx, e, t);
	in->target_artillery = ks_is(ctx, t, "artilleri");
	if (ord_kv_get_bool(&e->kv, "koordineret", 0))
		ord_kv_set(flags, "koordineret", "yes");
	if (!defensive && !ks_ranged(ctx, u, t->id) && !ranged_first(ctx, u, t))
		ord_kv_set(flags, "ikke_indskudt", "yes");
	if (grade == KS_LU)
		ord_kv_set(flags, "batteri_lu", "yes");
	else if (grade >= KS_U)
		ord_kv_set(flags, "batteri_u", "yes");
	ks_target_flags(ctx, ft, flags);
	if (ks_is(ctx, t, "artilleri") && !answers(ctx, t))
		ord_kv_set(flags, "besvarer_ikke", "yes");
}

/* The flags the module works out itself, for each kind of fire: those
 * small_arms_in and artillery_in set from the units' state and the
 * event, and the zone's and ammunition's the calculation adds (calc.c);
 * the prefixes end in '_'.  Not the ones the referee judges on the table
 * (flank, cover, smoke, not stationary, answering). */
static const char *const own_small_arms[] = {
	"kavaleri_skyder", "foerste_salve", "skytte_lu", "skytte_u", "rifler_", "zone_", NULL
};
static const char *const own_artillery[] = {
	"koordineret", "ikke_indskudt", "batteri_lu", "batteri_u", "kaliber_", "sf", "sg", "sk",
	"ss",          "sf_",           "sg_",        "sk_",       "ss_",      NULL
};
static const char *const own_target[] = { "maal_artilleri",
					  "maal_dyb",
					  "maal_hob",
					  "maal_spredt_taet",
					  "maal_spredt_tynd",
					  "maal_spredt",
					  "maal_kavaleri",
					  "maal_lu",
					  "maal_u",
					  "valeur_diff",
					  NULL };

int ks_flag_listed(const char *const *list, const char *flag)
{
	size_t i, n;

	for (i = 0; list[i]; i++) {
		n = strlen(list[i]);
		if (list[i][n - 1] == '_' ? !strncmp(flag, list[i], n) : !strcmp(flag, list[i]))
			return 1;
	}
	return 0;
}

int ks_fire_own_flag(const char *kind, const char *flag)
{
	if (ks_flag_listed(own_target, flag))
		return 1;
	if (!strcmp(kind, "skyd"))
		return ks_flag_listed(own_small_arms, flag);
	return (!strcmp(kind, "artilleri") || !strcmp(kind, "forsvarsild")) &&
	       ks_flag_listed(own_artillery, flag);
}

void ks_fire_own_flags(struct ord_ctx *ctx, const struct ord_event *e, struct ord_kv *flags)
{
	struct ks_rules *r = ks_r(ctx);
	struct ord_unit *u = ks_ev_unit(ctx, e, "unit"), *t = ks_ev_unit(ctx, e, "maal");

	if (!u || !t)
		return;
	if (!strcmp(e->kind, "skyd")) {
		struct ks_fire_in in;
		small_arms_in(ctx, e, u, t, &in, flags);
		ks_fire_calc_flags(r, &in, flags);
	} else if (!strcmp(e->kind, "artilleri") || !strcmp(e->kind, "forsvarsild")) {
		struct ks_artillery_in in;
		artillery_in(ctx, e, u, t, !strcmp(e->kind, "forsvarsild"), &in, flags);
		ks_artillery_calc_flags(r, &in, flags);
	}
}

int ks_fire_artillery(struct ord_ctx *ctx, const struct ord_event *e, struct ks_hit *h, int defensive)
{
	struct ks_rules *r = ks_r(ctx);
	struct ord_unit *u = ks_ev_unit(ctx, e, "unit"), *t = ks_ev_unit(ctx, e, "maal");
	struct ks_artillery_in in;
	struct ks_artillery_out out;
	struct ord_kv flags, vals;
	struct ks_text why;
	const char *ammo;
	int coord = ord_kv_get_bool(&e->kv, "koordineret", 0);
	int err, turn = ord_ctx_turn(ctx);
	double use;

	ord_kv_init(&flags);
	ord_kv_init(&vals);
	ks_text_init(&why);
	artillery_in(ctx, e, u, t, defensive, &in, &flags);
	ammo = in.ammo;
	ks_referee_flags(ord_kv_get(&e->kv, "flag"), &flags);
	in.flags = &flags;
	h->also = defensive ? NULL : ks_fire_also(ctx, e);
	if (defensive)
		KS_TF(&why,
		      "forsvarsskydning med kardæsk på %s: ", "defensive canister at %s: ", t->id);
	else
		text_fire_at(ctx, e, &why, t, h->also, "15");
	/* No gun can fire it: a battery whose guns are all damaged or
	 * destroyed, shell from one with no howitzers, a unit that is no
	 * battery (each refused when recorded, events.c, so only an event
	 * recorded with --override comes here).  Never an error that stops
	 * the phase: nothing fires, so nothing happens, no dice are rolled,
	 * and no round is spent ("Der forbruges 1 kampsats ammunition ved
	 * skydning ... pr. kanon/haubits", 9.2: by the gun, and none fires) */
	if (in.guns < 1) {
		KS_TF(&why, "ingen kanon kan skyde %s: ingen virkning",
		      "no gun can fire %s: no effect", ammo);
		ks_result(ctx, e->seq, u, NULL, &why);
		err = 0;
		goto out;
	}
	/* a shot out of range rolls no dice (it can do nothing) */
	if (ks_artillery_reaches(r, &in) &&
	    (err = ks_roll3(ctx, in.dice, defensive ? "forsvarsild" : "artilleri", u, e->seq, 0)) != 0)
		goto out;
	if (!defensive && ks_ev_unit(ctx, e, "over"))
		KS_TF(&why, "over %s (15 overskydning): ", "over %s (15 overfire): ",
		      ks_ev_unit(ctx, e, "over")->id);
	else if (!defensive && ord_kv_get(&e->kv, "over_genstand"))
		ks_text_add(&why, "over terrængenstand (15 overskydning): ",
			    "over a terrain object (15 overfire): ");
	if ((err = ks_artillery(r, &in, &out, &why)) != 0)
		goto out;
	h->target = t;
	h->men = out.men;
	if (h->also && out.men)
		share_losses(ctx, h, out.men, "15", &why);
	/* "Der forbruges 1 kampsats ammunition ved skydning i et helt træk,
	 * halvt træk og ved en forsvarsskydning pr. kanon/haubits" (9.2): the
	 * rounds go with the firing, whatever it hits.  The text is silent on
	 * a salvo out of range; the one fire it spares is ranging ("Indskydning
	 * foretages med 1 kanon/haubits uden effekt og uden forbrug af
	 * ammunition", 15), so a salvo the referee had fired beyond the
	 * tables' range (event --override) spends its rounds, as any fire
	 * does, with no dice and no effect (our reading, README "Fire out of
	 * range").  So does one at a zone its ammunition is not used at
	 * ("Granat kan bruges på zone [II] og [III]", 15 Ammunitionstyper:
	 * shell fired at zone I): the pieces fired it, and it did nothing */
	use = ks_param(r, defensive ? "forbrug_forsvarsild"
			  : coord   ? "forbrug_koordineret"
				    : "forbrug_skydning");
	ks_st_set_num(ctx, u, pool_key(ammo), ks_st_num(ctx, u, pool_key(ammo)) - use * in.guns);
	if (ks_st_num(ctx, u, pool_key(ammo)) < 0)
		ks_st_set_num(ctx, u, pool_key(ammo), 0);
	ks_st_set(ctx, u, "skoed", turn);
	ks_st_set_str(ctx, u, "skoed_paa", t->id);
	/* the ammunition at the guns now; a change to it is done (9.2; a
	 * Skema without the rule keeps no such state, as games made before) */
	if (ks_rule_ammo_change(r))
		ks_st_set_str(ctx, u, "ammo_ved_kanonerne", ammo);
	if (ks_rule_ammo_change(r) && !strcmp(ks_st_str(ctx, u, "ammo_skift"), ammo)) {
		ks_st_set_str(ctx, u, "ammo_skift", "");
		ks_st_set(ctx, u, "ammo_skift_fra", 0);
	}
	if (!in.half)
		ks_st_set(ctx, u, "skoed_helt", turn);
	/* "Et batteri kan skyde uden at være indskudt, og vil i [1] træk
	 * derefter være indskudt på målet" (15): ranged on it from the turn
	 * indskudt_efter_traek after its first fire at it */
	if (!defensive && strcmp(ks_st_str(ctx, u, "indskudt_paa"), t->id)) {
		ks_st_set_str(ctx, u, "indskudt_paa", t->id);
		ks_st_set(ctx, u, "indskudt_fra", turn + ranging_turns(r));
	}
	ord_buf_addf(&why.da, "; %g kampsatser %s brugt, %s tilbage", use * in.guns, ammo,
		     ks_st_str(ctx, u, pool_key(ammo)));
	ord_buf_addf(&why.en, "; %g rounds of %s used, %s left", use * in.guns, ammo,
		     ks_st_str(ctx, u, pool_key(ammo)));
	if (ks_fire_carriers(ctx, e, u) > 0) {
		int carry = (int)ord_kv_get_int(&e->kv, "baerere", 0);
		KS_TF(&why, "; prodset står %g cm fra piecerne: %d figurer fragter ammunitionen (9.2)",
		      "; the limbers stand %g cm from the pieces: %d figures carry the ammunition (9.2)",
		      ord_kv_get_num(&e->kv, "prods_cm", 0), carry);
	}
	h->damaged = out.damaged;
	h->destroyed = out.destroyed;
	h->limbers = out.limbers;
	fire_result(ctx, e, u, h, out.men, out.grade_applied, out.in_range, &vals, &why);
out:
	ord_kv_release(&flags);
	ord_kv_release(&vals);
	ks_text_release(&why);
	return err;
}

/* Materiel losses to a battery: destroyed first, then damaged, of the
 * serviceable guns. */
static void battery_losses(struct ord_ctx *ctx, struct ord_unit *b, int damaged, int destroyed,
			   struct ks_text *t)
{
	long guns = ks_st(ctx, b, "kanoner");

	(void)ctx;
	if (destroyed > guns)
		destroyed = (int)guns;
	guns -= destroyed;
	if (damaged > guns)
		damaged = (int)guns;
	guns -= damaged;
	ks_st_set(ctx, b, "kanoner", guns);
	ks_st_set(ctx, b, "oedelagt", ks_st(ctx, b, "oedelagt") + destroyed);
	ks_st_set(ctx, b, "beskadiget", ks_st(ctx, b, "beskadiget") + damaged);
	if (damaged || destroyed) {
		ord_buf_addf(&t->da, "; %d %s ødelagt, %d beskadiget: %ld tilbage", destroyed,
			     destroyed == 1 ? "kanon" : "kanoner", damaged, guns);
		ord_buf_addf(&t->en, "; %d %s destroyed, %d damaged: %ld left", destroyed,
			     destroyed == 1 ? "gun" : "guns", damaged, guns);
	}
}

/* The limbers a battery has left: one to a piece ("1 piece og prods: op
 * til 4 kanoner", 1.3; kanoner_pr_piece guns a piece), less those lost. */
static long limbers_left(struct ord_ctx *ctx, const struct ord_unit *b)
{
	long left = ks_pieces(ctx, b) - ks_st(ctx, b, "prods_tab");

	return left > 0 ? left : 0;
}

static const char *const ammo_pools[] = { "ks_fuldkugle", "ks_kardaesk", "ks_shrapnel" };

/* A limber of b is lost, and its ammunition with it: "Ammunitionen er på
 * prodset" (9.2), and "Der regnes med et batteris prods har den samme
 * mængde ammunition" (10.2), so it takes its share of what is left, the
 * last limber the rest (prods_tab_kontrol).  A game made before took
 * 1/pieces of what was left, the battery's limbers counted at the start,
 * however many were lost: it kept ammunition with no limber left. */
static void lose_limber(struct ord_ctx *ctx, struct ord_unit *b, long pieces)
{
	long left = limbers_left(ctx, b);
	size_t k;

	if (ks_check(ks_r(ctx), "prods_tab_kontrol"))
		for (k = 0; k < ORD_ARRAY_SIZE(ammo_pools); k++)
			ks_st_set_num(ctx, b, ammo_pools[k],
				      left > 1 ? ks_st_num(ctx, b, ammo_pools[k]) * (left - 1) / left
					       : 0);
	else
		for (k = 0; k < ORD_ARRAY_SIZE(ammo_pools); k++)
			ks_st_set_num(ctx, b, ammo_pools[k],
				      ks_st_num(ctx, b, ammo_pools[k]) * (1 - 1.0 / pieces));
	ks_st_set(ctx, b, "prods_tab", ks_st(ctx, b, "prods_tab") + 1);
}

/* A limber destroyed by artillery fire may explode (10.2). */
static int explode(struct ord_ctx *ctx, struct ord_unit *b, unsigned seq, unsigned nth)
{
	struct ks_rules *r = ks_r(ctx);
	struct ks_text t;
	double ammo, share, zi = ks_param(r, "zone_i_cm"), zii = ks_param(r, "zone_ii_cm");
	int die, units, err, pieces = ks_pieces(ctx, b);
	int capped = ks_check(r, "prods_tab_kontrol");
	size_t i;

	if (pieces < 1)
		pieces = 1;
	/* each limber carries the same share of the battery's ammunition: of
	 * the limbers it has left (prods_tab_kontrol; a game made before: of
	 * its limbers at the start) */
	ammo = (ks_st_num(ctx, b, "ks_fuldkugle") + ks_st_num(ctx, b, "ks_kardaesk") +
		ks_st_num(ctx, b, "ks_shrapnel")) /
	       (capped && limbers_left(ctx, b) > 0 ? limbers_left(ctx, b) : pieces);
	if ((err = ks_roll1(ctx, &die, "eksplosion", b, seq, nth)) != 0)
		return err;
	ks_text_init(&t);
	ks_text_add(&t, "et prods er ødelagt: ", "a limber is destroyed: ");
	if ((err = ks_explosion(r, die, ammo, &share, &units, &t)) != 0)
		goto out;
	/* the limber's ammunition is gone, exploded or not */
	lose_limber(ctx, b, pieces);
	ks_result(ctx, seq, b, NULL, &t);
	if (units < 1 || !ks_st_has(ctx, b, "x"))
		goto out;
	/* every unit within 20 cm of the limber is hit with roundshot */
	for (i = 0; i < ord_ctx_nunits(ctx); i++) {
		struct ord_unit *v = ord_ctx_unit(ctx, i);
		struct ks_artillery_in in;
		struct ks_artillery_out o;
		struct ord_kv flags;
		struct ks_text w;
		double dist;
		if (ks_gone(ctx, v) || !ks_st_has(ctx, v, "x"))
			continue;
		dist = hypot(ks_st_num(ctx, v, "x") - ks_st_num(ctx, b, "x"),
			     ks_st_num(ctx, v, "y") - ks_st_num(ctx, b, "y"));
		if (dist > zii)
			continue;
		memset(&in, 0, sizeof(in));
		ord_kv_init(&flags);
		ks_text_init(&w);
		in.guns = units;
		in.kaliber = ks_attr(b, "kaliber");
		in.ammo = "SF";
		in.zone = dist <= zi ? "I" : "II";
		in.target_figures = ks_figures(ctx, v);
		in.target_artillery = ks_is(ctx, v, "artilleri");
		ks_target_flags(ctx, v, &flags);
		in.flags = &flags;
		if ((err = ks_roll3(ctx, in.dice, "eksplosion ramt", v, seq, KS_DICE * nth)) != 0) {
			ord_kv_release(&flags);
			ks_text_release(&w);
			goto out;
		}
		KS_TF(&w, "ramt af eksplosionen (%g cm): ", "hit by the explosion (%g cm): ",
		      round(dist * 10) / 10);
		err = ks_artillery(r, &in, &o, &w);
		ord_kv_release(&flags);
		if (err) {
			ks_text_release(&w);
			goto out;
		}
		if (in.target_artillery)
			battery_losses(ctx, v, o.damaged, o.destroyed, &w);
		else
			ks_take_men(ctx, v, o.men, 0);
		if (v == b) {
			/* the battery's own limbers are rolled for apart, with the
			 * Skema's limber modifier; a limber lost so does not explode
			 * again (10.2: guns and limbers do not damage each other) */
			struct ks_artillery_out lo;
			ord_kv_init(&flags);
			ks_target_flags(ctx, v, &flags);
			ord_kv_set(&flags, "prods", "yes");
			in.flags = &flags;
			if ((err = ks_roll3(ctx, in.dice, "eksplosion prods", v, seq, KS_DICE * nth)) ==
			    0) {
				ks_text_add(&w, "; prodsene: ", "; the limbers: ");
				err = ks_artillery(r, &in, &lo, &w);
			}
			ord_kv_release(&flags);
			if (err) {
				ks_text_release(&w);
				goto out;
			}
			if (lo.limbers && capped) {
				/* at most the limbers it has left, each with its
				 * ammunition (prods_tab_kontrol) */
				long more = lo.limbers < limbers_left(ctx, v) ? lo.limbers
									      : limbers_left(ctx, v);
				long k;
				for (k = 0; k < more; k++)
					lose_limber(ctx, v, pieces);
				KS_TF(&w, "; %ld prods mere tabt", "; %ld more limbers lost", more);
				if (more < lo.limbers)
					KS_TF(&w, " (Skema XV %d, men det havde kun %ld tilbage, 1.3)",
					      " (Skema XV %d, but it had only %ld left, 1.3)",
					      lo.limbers, more);
			} else if (lo.limbers) {
				ks_st_set(ctx, v, "prods_tab", ks_st(ctx, v, "prods_tab") + lo.limbers);
				KS_TF(&w, "; %d prods mere tabt", "; %d more limbers lost", lo.limbers);
			}
		}
		ks_apply_grade(ctx, v, o.grade_applied, "eksplosion", b, &w);
		ks_result(ctx, seq, v, NULL, &w);
		ks_text_release(&w);
	}
out:
	ks_text_release(&t);
	return err;
}

/* The close formation behind the open order a fire at both hit (14,
 * 15): its share of the men, and the grade the two took. */
static void hit_behind(struct ord_ctx *ctx, const struct ks_hit *h)
{
	struct ks_hit b = *h;
	struct ks_text t;

	b.target = h->also;
	b.men = h->also_men;
	b.also = NULL;
	ks_text_init(&t);
	KS_TF(&t, "beskudt af %s (med %s foran den, 14, 15)",
	      "fired on by %s (with %s in front of it, 14, 15)", h->firer->id, h->target->id);
	if (h->out_of_range)
		ks_text_add(&t, ": uden for skudvidde", ": out of range");
	else if (!b.men && !b.grade)
		ks_text_add(&t, ": ingen virkning", ": no effect");
	if (b.men) {
		ks_take_men(ctx, b.target, b.men, 0);
		KS_TF(&t, ": %d mand tabt, %ld figurer tilbage", ": %d men lost, %ld figures left",
		      b.men, ks_st(ctx, b.target, "figurer"));
	}
	ks_apply_grade(ctx, b.target, b.grade, "ild", h->firer, &t);
	ks_hit_result(ctx, &b, 0, 0, &t);
	ks_text_release(&t);
}

/* 15: "Befinder en enhed sig mindre end 1[0] cm bag en enhed der beskydes
 * med fuldkugle, granat eller shrapnel, kan den skydende vælge at den
 * regnes med i optælling af geledder og afgørelse af moralsk påvirkning":
 * the unit behind (bag=) takes the morale effect the target took, the two
 * reckoned as one body (geledder_bag_moral_kontrol); no losses, which the
 * text gives it none of.  A bag= no table can make the one behind (the
 * target, the battery, another side, out of the game), recorded with
 * --override, is not carried out. */
static void rank_behind(struct ord_ctx *ctx, const struct ks_hit *h)
{
	struct ord_unit *b = ks_ev_unit(ctx, h->e, "bag");
	struct ks_text t;

	if (!b || !ks_check(ks_r(ctx), "geledder_bag_moral_kontrol") || b == h->target ||
	    b == h->firer || strcmp(b->side, h->target->side) || ks_gone(ctx, b) || h->out_of_range)
		return;
	ks_text_init(&t);
	KS_TF(&t, "bag %s beskudt af %s (regnet med i geledderne og den moralske påvirkning, 15)",
	      "behind %s fired on by %s (counted in its ranks and the morale effect, 15)",
	      h->target->id, h->firer->id);
	if (!h->grade)
		ks_text_add(&t, ": ingen moralsk påvirkning", ": no morale effect");
	ks_apply_grade(ctx, b, h->grade, "ild", h->firer, &t);
	ks_result(ctx, h->e->seq, b, NULL, &t);
	ks_text_release(&t);
}

void ks_hit_result(struct ord_ctx *ctx, const struct ks_hit *h, long destroyed, long damaged,
		   struct ks_text *t)
{
	struct ord_kv vals;

	/* what the fire did, on the target's own result: its side sees it,
	 * and the firer's side through the firer (the fog of war), so a
	 * picture labels the fire from it on either side's map */
	ord_kv_init(&vals);
	ord_kv_set(&vals, "firer", h->firer->id);
	ord_kv_set_int(&vals, "men", h->men);
	if (ks_is(ctx, h->target, "artilleri")) {
		ord_kv_set_int(&vals, "destroyed", destroyed);
		ord_kv_set_int(&vals, "damaged", damaged);
	}
	ord_kv_set(&vals, "morale", ks_moral_name(h->grade));
	if (h->out_of_range) /* the map labels it so, not "no loss" */
		ord_kv_set(&vals, "out_of_range", "yes");
	ks_result(ctx, h->e->seq, h->target, &vals, t);
	ord_kv_release(&vals);
}

int ks_resolve_fire(struct ord_ctx *ctx)
{
	size_t i, n = ord_ctx_nevents(ctx);
	struct ks_hit *hits = ord_xcalloc(n + 1, sizeof(*hits));
	int err = 0;

	/* everybody fires with the strength it had before the fire */
	for (i = 0; i < n && !err; i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		/* at itself or its own side: no dice, no round, no hit */
		if ((!strcmp(e->kind, "skyd") || !strcmp(e->kind, "artilleri")) &&
		    ks_not_carried_out(ctx, e))
			continue;
		if (!strcmp(e->kind, "skyd"))
			err = fire_small_arms(ctx, e, &hits[i]);
		else if (!strcmp(e->kind, "artilleri"))
			err = ks_fire_artillery(ctx, e, &hits[i], 0);
	}
	/* ranging with one gun for half a turn: ranged from now on (15) */
	for (i = 0; i < ord_ctx_nunits(ctx) && !err; i++) {
		struct ord_unit *u = ord_ctx_unit(ctx, i);
		const struct ord_order *o = ord_ctx_order(ctx, u);
		struct ks_group g[KS_MAX_GROUPS];
		size_t k, ng = ks_groups(o, g, KS_MAX_GROUPS);
		for (k = 0; k < ng; k++) {
			const struct ord_token *tt;
			const char *hex, *place;
			struct ks_text t;
			if (strcmp(g[k].code, "indskydning"))
				continue;
			tt = ks_grp_tok(o, &g[k], ORD_TOK_TARGET);
			hex = ks_grp_arg(o, &g[k], "hex");
			/* a place as the map spells it (IS @Hoejderyggen:
			 * Højderyggen), in a game whose Skema says so
			 * (sted_kortets_navn, 2026-12-07.2); a game made
			 * before keeps the sheet's spelling */
			if (tt && ord_ctx_find_unit(ctx, tt->value))
				ks_st_set_str(ctx, u, "indskudt_paa",
					      ord_ctx_find_unit(ctx, tt->value)->id);
			else if (tt && ks_check(ks_r(ctx), "sted_kortets_navn") &&
				 (place = ks_map_place(ctx, tt->value)) != NULL)
				ks_st_set_str(ctx, u, "indskudt_paa", place);
			else
				ks_st_set_str(ctx, u, "indskudt_paa",
					      tt    ? tt->value
					      : hex ? hex
						    : "");
			ks_text_init(&t);
			ks_st_set(ctx, u, "indskudt_fra", 0);
			KS_TF(&t, "indskudt på %s", "ranged on %s", ks_st_str(ctx, u, "indskudt_paa"));
			ks_result(ctx, 0, u, NULL, &t);
			ks_text_release(&t);
		}
	}
	/* then the losses and the morale results */
	for (i = 0; i < n && !err; i++) {
		struct ks_hit *h = &hits[i];
		struct ks_text t;
		long lost;
		if (!h->target)
			continue;
		long destroyed0 = ks_st(ctx, h->target, "oedelagt");
		long damaged0 = ks_st(ctx, h->target, "beskadiget");
		/* the Skema's limbers are of the pieces firing; a battery loses
		 * at most those it has left (prods_tab_kontrol; a game made
		 * before lost them all, and rolled for each) */
		lost = h->limbers;
		if (lost && ks_check(ks_r(ctx), "prods_tab_kontrol") &&
		    lost > limbers_left(ctx, h->target))
			lost = limbers_left(ctx, h->target);
		ks_text_init(&t);
		KS_TF(&t, "beskudt af %s", "fired on by %s", h->firer->id);
		if (h->also)
			KS_TF(&t, " (med %s bag den, 14, 15)", " (with %s behind it, 14, 15)",
			      h->also->id);
		if (h->out_of_range)
			ks_text_add(&t, ": uden for skudvidde", ": out of range");
		else if (!strcmp(h->e->kind, "skyd") && ks_is(ctx, h->target, "artilleri") &&
			 ks_check(ks_r(ctx), "haandvaaben_batteri_kontrol"))
			ks_text_add(&t, ": intet tab ved håndvåbenild (vores læsning, 1.3, 15)",
				    ": no loss to small arms (our reading, 1.3, 15)");
		else if (!h->men && !h->damaged && !h->destroyed && !h->grade && !h->limbers)
			ks_text_add(&t, ": ingen virkning", ": no effect");
		if (ks_is(ctx, h->target, "artilleri")) {
			battery_losses(ctx, h->target, h->damaged, h->destroyed, &t);
			if (lost < h->limbers) {
				ord_buf_addf(&t.da,
					     "; %ld prods ødelagt (Skema XV %d, men det har kun %ld tilbage, 1.3)",
					     lost, h->limbers, lost);
				ord_buf_addf(&t.en,
					     "; %ld limber%s destroyed (Skema XV %d, but it has only %ld left, 1.3)",
					     lost, lost == 1 ? "" : "s", h->limbers, lost);
			}
		} else if (h->men) {
			ks_take_men(ctx, h->target, h->men, 0);
			KS_TF(&t, ": %d mand tabt, %ld figurer tilbage",
			      ": %d men lost, %ld figures left", h->men,
			      ks_st(ctx, h->target, "figurer"));
		}
		ks_apply_grade(ctx, h->target, h->grade, "ild", h->firer, &t);
		ks_hit_result(ctx, h, ks_st(ctx, h->target, "oedelagt") - destroyed0,
			      ks_st(ctx, h->target, "beskadiget") - damaged0, &t);
		ks_text_release(&t);
		if (h->also)
			hit_behind(ctx, h);
		rank_behind(ctx, h);
		{
			/* one roll a limber lost; none for a limber an explosion
			 * took before (prods_tab_kontrol) */
			int k;
			for (k = 0; k < lost && !err; k++) {
				if (ks_check(ks_r(ctx), "prods_tab_kontrol") &&
				    limbers_left(ctx, h->target) <= 0)
					break;
				err = explode(ctx, h->target, h->e->seq, (unsigned)k);
			}
		}
	}
	free(hits);
	return err;
}
