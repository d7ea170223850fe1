/*
 * resolve.c - the krigsspil module's phases (5.2): reorganisering,
 * erklæring af angrebshandlinger, fredelige flytninger, skydninger and
 * angrebshandlinger (ordreudstedelse is the sheets), each read from the
 * referee's events, rolled with 3d6 through ord_ctx_roll and read from the
 * Skema by calc.c: this file resolves the first three and holds what the
 * phases share; fire.c the skydninger, attack.c the angrebshandlinger and
 * the bookkeeping at the end of each turn (decimation, cavalry valeur,
 * flight and stragglers, surrender).
 *
 * Dice are asked for in the order of the events (their seq), three faces
 * a 3d6, the attacker's before the defender's; a game with fixed dice
 * takes them in that order (README "Dice").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rulesets/krigsspil/ks.h"

struct ord_unit *ks_ev_unit(struct ord_ctx *ctx, const struct ord_event *ev, const char *key)
{
	const char *v = ord_kv_get(&ev->kv, key);
	return v ? ord_ctx_find_unit(ctx, v) : NULL;
}

/* 3d6 identified by (purpose and unit, event, base .. base + 2): a roll
 * asked for again with the same identity gives the same faces. */
int ks_roll3(struct ord_ctx *ctx, int *d, const char *purpose, const struct ord_unit *u,
	     unsigned seq, unsigned base)
{
	struct ord_buf id = ORD_BUF_INIT;
	int i, err = 0;

	ord_buf_addf(&id, "%s %s", purpose, u->id);
	for (i = 0; i < KS_DICE && !err; i++)
		err = ord_ctx_roll(ctx, &d[i], (unsigned)ks_die(ks_r(ctx)), id.buf, seq,
				   base + (unsigned)i);
	ord_buf_release(&id);
	return err;
}

int ks_roll1(struct ord_ctx *ctx, int *d, const char *purpose, const struct ord_unit *u,
	     unsigned seq, unsigned index)
{
	struct ord_buf id = ORD_BUF_INIT;
	int err;

	ord_buf_addf(&id, "%s %s", purpose, u->id);
	err = ord_ctx_roll(ctx, d, (unsigned)ks_die(ks_r(ctx)), id.buf, seq, index);
	ord_buf_release(&id);
	return err;
}

static const char *moral_da(int g)
{
	return ks_moral_words(g, "da");
}

static const char *moral_en(int g)
{
	return ks_moral_words(g, "en");
}

/* What a morale result obliges the unit to do (6.5). */
static void morale_consequence(struct ks_text *t, int grade)
{
	if (grade == KS_U)
		ks_text_add(t, "; skal retirere et halvt træk", "; must retreat half a turn");
	else if (grade == KS_FU)
		ks_text_add(t, "; skal flygte et halvt træk", "; must flee half a turn");
}

void ks_apply_grade(struct ord_ctx *ctx, struct ord_unit *u, int grade, const char *why,
		    const struct ord_unit *from, struct ks_text *t)
{
	int before = ks_moral_now(ctx, u), after;

	if (grade <= KS_OR)
		return;
	ks_set_moral(ctx, u, grade, 0, why, from);
	after = ks_moral_at(ctx, u, ks_half(ctx, 1), NULL);
	if (after > before) {
		ord_buf_addf(&t->da, "; moral %s → %s (%s)", ks_moral_name(before),
			     ks_moral_name(after), moral_da(after));
		ord_buf_addf(&t->en, "; morale %s → %s (%s)", ks_moral_name(before),
			     ks_moral_name(after), moral_en(after));
		morale_consequence(t, after);
	} else {
		KS_TF(t, "; moral forbliver %s", "; morale stays %s", ks_moral_name(after));
	}
}

/* ---- stormmarch and løb bookkeeping ---- */

/* "1. angreb i storm ... gives første gang en kavaleri enhed angriber i
 * stormmarch, såfremt det samtidigt er første gang at den pågældende enhed
 * benytter stormmarch": any other use of stormmarch spends it. */
void ks_storm_spent(struct ord_ctx *ctx, struct ord_unit *u, struct ks_text *t)
{
	if (!ks_st(ctx, u, "foerste_storm"))
		return;
	ks_st_set(ctx, u, "foerste_storm", 0);
	ks_text_add(t, "; har nu benyttet stormmarch: intet 1. angreb i storm senere (Skema XV)",
		    "; it has now used stormmarch: no first charge at the gallop later (Skema XV)");
}

/* 13: "En afbrudt stormmarch kan ikke genoptages": does the unit's order
 * break its stormmarch off this turn?  It goes on only when its last
 * stormmarch group runs to the end of the turn and no move follows it
 * (a stormmarch ended in an attack is no break). */
static int storm_broken_off(struct ord_ctx *ctx, const struct ord_unit *u)
{
	const struct ord_order *o = ord_ctx_order(ctx, u);
	struct ks_group g[KS_MAX_GROUPS];
	size_t i, n = ks_groups(o, g, KS_MAX_GROUPS);
	int per = (int)ks_param(ks_r(ctx), "kvarte_pr_traek"), q = 0, end = -1, after = 0;

	for (i = 0; i < n && strcmp(g[i].code, "ordreaendring"); i++) {
		if (end >= 0 && !after && !strcmp(g[i].code, "angreb"))
			return 0; /* it ends in the attack */
		q += ks_grp_quarters(ctx, o, &g[i]);
		if (!strcmp(g[i].code, "stormmarch")) {
			end = q;
			after = 0;
		} else if (ks_is_move(g[i].code)) {
			after = 1;
		}
	}
	return end >= 0 && (after || end < (per > 0 ? per : 1));
}

static void use_stormmarch(struct ord_ctx *ctx, struct ord_unit *u, struct ks_text *t, int attack)
{
	int turn = ord_ctx_turn(ctx);
	long start = ks_st(ctx, u, "stormmarch_start"), last = ks_st(ctx, u, "stormmarch_sidst");
	/* broken off last turn: this one is a new stormmarch */
	int broken = ks_storm_broken_last(ctx, u);

	if (!attack)
		ks_storm_spent(ctx, u, t);
	if (ks_check(ks_r(ctx), "stormmarch_afbrudt_kontrol") && last != turn &&
	    storm_broken_off(ctx, u))
		ks_st_set(ctx, u, "stormmarch_afbrudt", turn);

	if (last == turn)
		return;
	if (last == turn - 1 && start && !broken) {
		long n = turn - start + 1;
		ks_st_set(ctx, u, "stormmarch_sidst", turn);
		/* a turn after the first in a row is in LU (13) */
		ks_set_moral(ctx, u, KS_LU, ks_half(ctx, 1), "stormmarch", NULL);
		ord_buf_addf(&t->da, "; %ld. træk i stormmarch: LU", n);
		if (n == 2)
			ks_text_add(t, "", "; second turn of stormmarch: LU");
		else
			ord_buf_addf(&t->en, "; turn %ld of stormmarch: LU", n);
		return;
	}
	ks_st_set(ctx, u, "stormmarch_start", turn);
	ks_st_set(ctx, u, "stormmarch_sidst", turn);
}

/* Is an attack at stormmarch long enough for Skema XV's stormmarch
 * bonuses (stormmarch, 1. angreb i storm)?  13: "For at opnå tillæg ved
 * angrebs/forsvarskastet [Skema XV] og evt. initiativfordele ved
 * benyttelse af stormmarch, skal enheden have benyttet stormmarch i mindst
 * ½ træk" (stormmarch_tillaeg_kvarte).  The time is what the unit's order
 * gives its stormmarch before the attack.  Ours: a stormmarch going on
 * from the last turn adds a quarter, the least an order gives, to the
 * first group of the line (it is not resumed once broken off, so it ran
 * to the end of that turn).  Called before use_stormmarch records this
 * turn's use; the quarters go to *quarters. */
static int storm_bonus(struct ord_ctx *ctx, const struct ord_unit *u, int *quarters)
{
	const struct ord_order *o = ord_ctx_order(ctx, u);
	struct ks_group g[KS_MAX_GROUPS];
	size_t i, n = ks_groups(o, g, KS_MAX_GROUPS);
	long last = ks_st(ctx, u, "stormmarch_sidst");
	int q = 0;

	for (i = 0; i < n && strcmp(g[i].code, "angreb"); i++) {
		if (strcmp(g[i].code, "stormmarch"))
			continue;
		q += ks_grp_quarters(ctx, o, &g[i]);
		if (i == 0 && last > 0 && last == ord_ctx_turn(ctx) - 1 &&
		    !ks_storm_broken_last(ctx, u))
			q++;
	}
	*quarters = q;
	return q >= (int)ks_param(ks_r(ctx), "stormmarch_tillaeg_kvarte");
}

/* ---- reorganisering ---- */

static int disturbed(struct ord_ctx *ctx, const struct ord_unit *u)
{
	size_t i;

	for (i = 0; i < ord_ctx_unit_nevents(ctx, u); i++) {
		const struct ord_event *e = ord_ctx_unit_event(ctx, u, i);
		if (!strcmp(e->kind, "forstyrret") && ks_ev_unit(ctx, e, "unit") == u)
			return 1;
	}
	return 0;
}

/* One turn of a resupply (6.8: "Genforsyningen tager [2] træk for en
 * infanterienhed eller batteri. Er infanterienheden et selvstændigt
 * kompagni, tager genforsyningen dog kun 1 træk"): the turns are counted
 * in a row, of the same ammunition, and the ammunition comes with the
 * last (K21). */
static void resupply(struct ord_ctx *ctx, const struct ord_event *e, struct ord_unit *u)
{
	struct ks_rules *r = ks_r(ctx);
	const char *ammo = ord_kv_get(&e->kv, "ammo");
	int turn = ord_ctx_turn(ctx), need = ks_resupply_turns(ctx, u), done;
	long sofar = ks_st(ctx, u, "genforsyning_traek");
	struct ks_text t;

	if (!ammo || !strcmp(ammo, "alle")) {
		/* the ammunition the sheet's GF names, when the event names none */
		const char *named = ks_ordered_arg(ctx, u, "genforsyning", "ammo");
		ammo = named && ks_is(ctx, u, "artilleri") ? named : "alle";
	}
	ks_text_init(&t);
	if (sofar > 0 && ks_st(ctx, u, "genforsyning_sidst") == turn - 1 &&
	    (!ks_is(ctx, u, "artilleri") || !strcmp(ks_st_str(ctx, u, "genforsyning_ammo"), ammo))) {
		done = (int)sofar + 1;
	} else {
		if (sofar > 0)
			ks_text_add(&t,
				    "genforsyningen begynder forfra: ", "the resupply starts anew: ");
		done = 1;
	}
	ks_st_set(ctx, u, "genforsyning_sidst", turn);
	KS_TF(&t, "genforsyning træk %d af %d (6.8): ", "resupply turn %d of %d (6.8): ", done, need);
	ks_text_used_param(&t, r, ks_resupply_param(ctx, u));
	if (done < need) {
		ks_st_set(ctx, u, "genforsyning_traek", done);
		if (ks_is(ctx, u, "artilleri"))
			ks_st_set_str(ctx, u, "genforsyning_ammo", ammo);
		KS_TF(&t, "ammunitionen er fremme i træk %d; enheden kan ikke skyde imens",
		      "the ammunition is in hand in turn %d; the unit cannot fire meanwhile",
		      turn + need - done);
	} else if (ks_is(ctx, u, "artilleri")) {
		long guns = ks_st(ctx, u, "kanoner") + ks_st(ctx, u, "beskadiget");
		int all = !strcmp(ammo, "alle");
		if (all || !strcmp(ammo, "SF") || !strcmp(ammo, "SG"))
			ks_st_set_num(ctx, u, "ks_fuldkugle",
				      ks_param(r, "kanon_fuldkugle_granat") * guns);
		if (all || !strcmp(ammo, "SK"))
			ks_st_set_num(ctx, u, "ks_kardaesk",
				      (ks_param(r, "kanon_kardaesk") - ks_param(r, "kanon_shrapnel")) *
					      guns);
		if (all || !strcmp(ammo, "SS"))
			ks_st_set_num(ctx, u, "ks_shrapnel", ks_param(r, "kanon_shrapnel") * guns);
		KS_TF(&t, "genforsynet (%s): fuldkugle/granat %s, kardæsk %s, shrapnel %s",
		      "resupplied (%s): roundshot/shell %s, canister %s, shrapnel %s", ammo,
		      ks_st_str(ctx, u, "ks_fuldkugle"), ks_st_str(ctx, u, "ks_kardaesk"),
		      ks_st_str(ctx, u, "ks_shrapnel"));
	} else {
		ks_st_set_num(ctx, u, "kampsatser", ks_ammo_issue(ctx, u));
		KS_TF(&t, "genforsynet: %s kampsatser", "resupplied: %s rounds",
		      ks_st_str(ctx, u, "kampsatser"));
	}
	if (done >= need) {
		ks_st_set(ctx, u, "genforsyning_traek", 0);
		ks_st_set_str(ctx, u, "genforsyning_ammo", "");
	}
	ks_result(ctx, e->seq, u, NULL, &t);
	ks_text_release(&t);
}

/*
 * A task of several turns in a row that got no turn this turn is broken
 * off and starts anew: a resupply (6.8: "træk i træk", K21), a repair
 * (9.6: "uafbrudte træk", K22).  turns, last: the state keys of the turns done
 * and of the last; what, what_str: the key of what it was on, cleared.
 */
struct task {
	const char *turns, *last, *what;
	int what_str;
	const char *da, *en; /* "... %ld of %d turns ...": done, needed */
};

static const struct task resupply_task = {
	"genforsyning_traek",
	"genforsyning_sidst",
	"genforsyning_ammo",
	1,
	"genforsyningen er afbrudt efter %ld af %d træk (6.8: træk i træk): den begynder forfra",
	"the resupply is broken off after %ld of %d turns (6.8: turns in a row): it starts anew",
};
static const struct task repair_task = {
	"reparation_traek",
	"reparation_sidst",
	"reparation_kanoner",
	0,
	"reparationen er afbrudt efter %ld af %d træk (9.6: uafbrudte træk): den begynder forfra",
	"the repair is interrupted after %ld of %d turns (9.6: uninterrupted turns): it starts anew",
};

static void task_lapsed(struct ord_ctx *ctx, struct ord_unit *u, const struct task *k, int need)
{
	long sofar = ks_st(ctx, u, k->turns);
	struct ks_text t;

	if (sofar <= 0 || ks_st(ctx, u, k->last) >= ord_ctx_turn(ctx))
		return;
	ks_text_init(&t);
	ord_buf_addf(&t.da, k->da, sofar, need);
	ord_buf_addf(&t.en, k->en, sofar, need);
	ks_st_set(ctx, u, k->turns, 0);
	if (k->what_str)
		ks_st_set_str(ctx, u, k->what, "");
	else
		ks_st_set(ctx, u, k->what, 0);
	ks_result(ctx, 0, u, NULL, &t);
	ks_text_release(&t);
}

/* One turn of a repair (9.6: "En pieces besætning kan reparere beskadiget
 * materiel i løbet af [2] uafbrudte træk. Besætningen kan, hvis piecen
 * skal skyde, foretage 1 reparation i trækket"): the guns are repaired at
 * the end of the last turn (ks_repair_end_of_turn, K22). */
static void repair(struct ord_ctx *ctx, const struct ord_event *e, struct ord_unit *u)
{
	int turn = ord_ctx_turn(ctx), need = (int)ks_param(ks_r(ctx), "reparation_traek"), done;
	long sofar = ks_st(ctx, u, "reparation_traek"), k, cap = ks_repair_cap(ctx, u);
	struct ks_text t;

	ks_text_init(&t);
	k = ord_kv_get_int(&e->kv, "kanoner", ks_st(ctx, u, "beskadiget"));
	if (ks_battery_fires(ctx, u) && k > cap) {
		k = cap;
		KS_TF(&t, "batteriet skyder: højst %g reparation pr. piece (%ld): ",
		      "the battery fires: at most %g repair a piece (%ld): ",
		      ks_param(ks_r(ctx), "reparation_ved_skydning"), cap);
	}
	if (sofar > 0 && ks_st(ctx, u, "reparation_sidst") == turn - 1) {
		done = (int)sofar + 1;
		if (k > ks_st(ctx, u, "reparation_kanoner"))
			k = ks_st(ctx, u, "reparation_kanoner"); /* the guns begun on */
	} else {
		done = 1;
	}
	ks_st_set(ctx, u, "reparation_traek", done);
	ks_st_set(ctx, u, "reparation_sidst", turn);
	ks_st_set(ctx, u, "reparation_kanoner", k);
	KS_TF(&t, "reparation træk %d af %d (9.6): %ld beskadigede kanoner; ",
	      "repair turn %d of %d (9.6): %ld damaged guns; ", done, need, k);
	if (done < need)
		KS_TF(&t, "de er klar ved slutningen af træk %d, hvis batteriet ikke angribes eller bevæger sig",
		      "serviceable at the end of turn %d if the battery is not attacked and does not move",
		      turn + need - done);
	else
		ks_text_add(&t, "de er klar ved slutningen af trækket, hvis batteriet ikke angribes eller bevæger sig",
			    "serviceable at the end of the turn if the battery is not attacked and does not move");
	ks_result(ctx, e->seq, u, NULL, &t);
	ks_text_release(&t);
}

/* 9.2: a change of ammunition ordered (AM) is under way from the first
 * turn it was ordered until the battery fires it (ks_fire_artillery);
 * with the limbers far its fire waits (events.c, check_ammo_change). */
static void ammo_change_ordered(struct ord_ctx *ctx, struct ord_unit *u)
{
	const char *am = ks_ordered_arg(ctx, u, "ammunitionsskift", "ammo");

	if (!ks_rule_ammo_change(ks_r(ctx)))
		return;
	if (!am || !strcmp(am, ks_st_str(ctx, u, "ammo_ved_kanonerne")) ||
	    !strcmp(am, ks_st_str(ctx, u, "ammo_skift")))
		return;
	ks_st_set_str(ctx, u, "ammo_skift", am);
	ks_st_set(ctx, u, "ammo_skift_fra", ord_ctx_turn(ctx));
}

/* Was an attack declared on u this turn? */
static int attack_declared_on(struct ord_ctx *ctx, const struct ord_unit *u)
{
	int turn = ord_ctx_turn(ctx);
	size_t i;

	for (i = 0; i < ord_ctx_nunits(ctx); i++) {
		struct ord_unit *a = ord_ctx_unit(ctx, i);
		if (ks_st(ctx, a, "angreb_traek") == turn &&
		    !strcmp(ks_st_str(ctx, a, "angreb_maal"), u->id))
			return 1;
	}
	return 0;
}

void ks_repair_end_of_turn(struct ord_ctx *ctx, struct ord_unit *u)
{
	int turn = ord_ctx_turn(ctx);
	long sofar = ks_st(ctx, u, "reparation_traek"), k;
	int moved, attacked;
	struct ks_text t;

	if (sofar <= 0 || ks_st(ctx, u, "reparation_sidst") != turn)
		return;
	moved = ks_st(ctx, u, "bevaeget") == turn;
	attacked = ks_st(ctx, u, "naerkamp_traek") == turn || attack_declared_on(ctx, u);
	if (!moved && !attacked && sofar < (long)ks_param(ks_r(ctx), "reparation_traek"))
		return; /* it goes on next turn */
	ks_text_init(&t);
	if (moved || attacked) {
		/* "En reparation bliver afbrudt hvis batteriet bliver angrebet eller bevæger sig" */
		ord_buf_addf(&t.da, "reparationen er afbrudt (9.6): batteriet %s",
			     attacked ? (moved ? "blev angrebet og bevægede sig" : "blev angrebet")
				      : "bevægede sig");
		ord_buf_addf(&t.en, "the repair is broken off (9.6): the battery %s",
			     attacked ? (moved ? "was attacked and moved" : "was attacked") : "moved");
	} else {
		k = ks_st(ctx, u, "reparation_kanoner");
		if (k > ks_st(ctx, u, "beskadiget"))
			k = ks_st(ctx, u, "beskadiget");
		ks_st_set(ctx, u, "beskadiget", ks_st(ctx, u, "beskadiget") - k);
		ks_st_set(ctx, u, "kanoner", ks_st(ctx, u, "kanoner") + k);
		KS_TF(&t, "reparationen er færdig efter %ld uafbrudte træk (9.6): %ld kanoner repareret, %ld kanoner",
		      "the repair is done after %ld uninterrupted turns (9.6): %ld guns repaired, %ld guns",
		      sofar, k, ks_st(ctx, u, "kanoner"));
	}
	/* broken off or done: the repair is over either way */
	ks_st_set(ctx, u, "reparation_traek", 0);
	ks_st_set(ctx, u, "reparation_kanoner", 0);
	ks_result(ctx, 0, u, NULL, &t);
	ks_text_release(&t);
}

static int resolve_reorganisation(struct ord_ctx *ctx)
{
	int turn = ord_ctx_turn(ctx), h = ks_half(ctx, 0);
	size_t i;

	/* each side's "↑" for the moves' check (flyt_retning_kontrol) */
	ks_keep_enemy_bearing(ctx);
	/* each unit's enemies near enough to reach, for the moves' check of
	 * their break-in distance (indbrud_flyt_kontrol) */
	ks_keep_enemies_near(ctx);
	for (i = 0; i < ord_ctx_nevents(ctx); i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		struct ord_unit *u = ks_ev_unit(ctx, e, "unit");
		struct ks_text t;

		if (!u)
			continue;
		ks_text_init(&t);
		if (!strcmp(e->kind, "forstyrret")) {
			const char *g = ord_kv_get(&e->kv, "grund");
			KS_TF(&t, "forstyrret%s%s: reorganiseres ikke",
			      "disturbed%s%s: does not reorganise", g ? ": " : "", g ? g : "");
			ks_result(ctx, e->seq, u, NULL, &t);
		} else if (!strcmp(e->kind, "genforsyning")) {
			resupply(ctx, e, u);
		} else if (!strcmp(e->kind, "reparation")) {
			repair(ctx, e, u);
		}
		ks_text_release(&t);
	}
	for (i = 0; i < ord_ctx_nunits(ctx); i++) {
		struct ord_unit *u = ord_ctx_unit(ctx, i);
		int grade = ks_moral_parse(ks_st_str(ctx, u, "moral"));
		long til = ks_st(ctx, u, "moral_til");
		struct ks_text t;

		if (!ks_gone(ctx, u)) {
			task_lapsed(ctx, u, &resupply_task, ks_resupply_turns(ctx, u));
			ammo_change_ordered(ctx, u);
			task_lapsed(ctx, u, &repair_task, (int)ks_param(ks_r(ctx), "reparation_traek"));
		}
		if (ks_gone(ctx, u) || grade <= KS_OR)
			continue;
		ks_text_init(&t);
		if (til && til < h) {
			/* a state for half a turn or the rest of a turn is over */
			ks_st_set_str(ctx, u, "moral", "OR");
			ks_st_set(ctx, u, "moral_til", 0);
			ord_buf_addf(&t.da, "%s (%s) er ophørt", ks_moral_name(grade),
				     ks_st_str(ctx, u, "moral_grund"));
			ord_buf_addf(&t.en, "%s (%s) is over", ks_moral_name(grade),
				     ks_reason(ks_st_str(ctx, u, "moral_grund"), "en"));
			ks_st_set_str(ctx, u, "moral_grund", "");
			ks_result(ctx, 0, u, NULL, &t);
		} else if (!til && ks_st(ctx, u, "moral_traek") < turn &&
			   ks_st(ctx, u, "fu_ekstra") < turn && !disturbed(ctx, u)) {
			int steps = (int)ks_param(ks_r(ctx), "reorganisering_grader");
			int to = grade - (steps > 0 ? steps : 1);
			/* over decimering_u_pct lost: "Enheden bliver resten af
			 * slaget U, Enheden kan ikke reorganiseres" (6.7): a
			 * rout comes to U as any unit's does, and no further
			 * (decimering_u_kontrol; a game made before kept it FU
			 * for the rest of the battle) */
			int over_half = ks_st(ctx, u, "decimering") >= 2;
			if (over_half && !ks_check(ks_r(ctx), "decimering_u_kontrol"))
				to = grade;
			else if (over_half && to < KS_U)
				to = KS_U;
			if (to < KS_OR)
				to = KS_OR;
			if (to < grade) {
				int now;
				ks_st_set_str(ctx, u, "moral", ks_moral_name(to));
				ks_st_set(ctx, u, "moral_traek", turn);
				now = ks_moral_at(ctx, u, h, NULL);
				/* decimated (6.7) or cossacks in close order (8.5):
				 * the state it keeps whatever the reorganisation
				 * (ordlyd_kontrol: a game made before it said
				 * "LU → OR" all the same) */
				if (over_half) {
					KS_TF(&t, "over %g%% tab: resten af slaget U (6.7): %s → U, og kan ikke reorganiseres",
					      "over %g%% lost: U for the rest of the battle (6.7): %s → U, and cannot be reorganised",
					      ks_param(ks_r(ctx), "decimering_u_pct"),
					      ks_moral_name(grade));
				} else if (now > to && ks_check(ks_r(ctx), "ordlyd_kontrol")) {
					int dec = ks_st(ctx, u, "decimering") > 0;
					if (now == grade)
						KS_TF(&t, "reorganiseret, men forbliver %s",
						      "reorganised, but stays %s", ks_moral_name(now));
					else
						KS_TF(&t, "reorganiseret: %s → %s",
						      "reorganised: %s → %s", ks_moral_name(grade),
						      ks_moral_name(now));
					ks_text_add(&t,
						    dec ? " (decimeret, resten af slaget, 6.7)"
							: " (kosakker i sluttet formation, 8.5)",
						    dec ? " (decimated, for the rest of the battle, 6.7)"
							: " (cossacks in close order, 8.5)");
				} else {
					KS_TF(&t, "reorganiseret: %s → %s", "reorganised: %s → %s",
					      ks_moral_name(grade), ks_moral_name(to));
				}
				if (to == KS_OR)
					ks_st_set_str(ctx, u, "moral_grund", "");
				ks_text_used_param(&t, ks_r(ctx), "reorganisering_grader");
				ks_result(ctx, 0, u, NULL, &t);
			} else if (ks_st(ctx, u, "decimering") >= 2) {
				KS_TF(&t, "over %g%% tab: kan ikke reorganiseres (6.7): forbliver %s",
				      "over %g%% lost: cannot be reorganised (6.7): stays %s",
				      ks_param(ks_r(ctx), "decimering_u_pct"), ks_moral_name(grade));
				ks_result(ctx, 0, u, NULL, &t);
			}
		}
		ks_text_release(&t);
	}
	return 0;
}

/* ---- erklæring af angrebshandlinger (16.2) ---- */

static int by_unit_index(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;

	return a < b ? -1 : a > b;
}

/* A battery's neighbours declared this turn, in the order of the units,
 * kept in its state (bedaekning_naboer_kontrol): the check of its melee,
 * which sees the units it looks up and the events of its own phase, finds
 * its escort there as the melee does (ks_melee_escort). */
static void keep_neighbours(struct ord_ctx *ctx, const struct ord_unit *of)
{
	struct ord_buf ids = ORD_BUF_INIT;
	size_t *at, n = 0, i;
	struct ord_unit *b;

	if (!ks_check(ks_r(ctx), "bedaekning_kontrol") ||
	    !ks_check(ks_r(ctx), "bedaekning_naboer_kontrol") || !ks_is(ctx, of, "artilleri"))
		return;
	at = ord_xcalloc(ord_ctx_unit_nevents(ctx, of) + 1, sizeof(*at));
	for (i = 0; i < ord_ctx_unit_nevents(ctx, of); i++) {
		const struct ord_event *e = ord_ctx_unit_event(ctx, of, i);
		struct ord_unit *s;
		if (strcmp(e->kind, "stoette") || ks_ev_unit(ctx, e, "stoetter") != of ||
		    ks_impossible(ctx, e, NULL) || strcmp(ord_kv_get(&e->kv, "rolle"), "nabo") ||
		    !(s = ks_ev_unit(ctx, e, "unit")))
			continue;
		at[n++] = ord_ctx_unit_index(ctx, s);
	}
	qsort(at, n, sizeof(*at), by_unit_index);
	for (i = 0; i < n; i++)
		if (i == 0 || at[i] != at[i - 1])
			ord_words_add(&ids, " ", ord_ctx_unit(ctx, at[i])->id);
	b = ord_ctx_unit(ctx, ord_ctx_unit_index(ctx, of));
	if (ids.len || *ks_st_str(ctx, b, "bedaekning_naboer"))
		ks_st_set_str(ctx, b, "bedaekning_naboer", ids.len ? ids.buf : "");
	ord_buf_release(&ids);
	free(at);
}

static void declare_supports(struct ord_ctx *ctx, const struct ord_unit *of, struct ks_text *t)
{
	size_t i;
	int n = 0;

	keep_neighbours(ctx, of);

	/* of's own events: the ones that name it, in the order recorded */
	for (i = 0; i < ord_ctx_unit_nevents(ctx, of); i++) {
		const struct ord_event *e = ord_ctx_unit_event(ctx, of, i);
		struct ord_unit *s;
		const char *rolle;
		struct ks_text st;
		/* a support of itself or an enemy is said once, below */
		if (strcmp(e->kind, "stoette") || ks_ev_unit(ctx, e, "stoetter") != of ||
		    ks_impossible(ctx, e, NULL))
			continue;
		s = ks_ev_unit(ctx, e, "unit");
		rolle = ord_kv_get(&e->kv, "rolle");
		ks_st_set_str(ctx, s, "stoetter", of->id);
		ks_st_set_str(ctx, s, "stoette_rolle", rolle);
		ks_st_set(ctx, s, "stoette_traek", ord_ctx_turn(ctx));
		ord_buf_addf(&t->da, "%s%s (%s)", n ? ", " : " ", s->id,
			     !strcmp(rolle, "nabo") ? "naboenhed" : "2. træfning");
		ord_buf_addf(&t->en, "%s%s (%s)", n ? ", " : " ", s->id,
			     !strcmp(rolle, "nabo") ? "neighbour" : "second line");
		n++;
		ks_text_init(&st);
		ord_buf_addf(&st.da, "%s for %s",
			     !strcmp(rolle, "nabo") ? "naboenhed" : "2. træfning", of->id);
		ord_buf_addf(&st.en, "%s for %s",
			     !strcmp(rolle, "nabo") ? "neighbour" : "second line", of->id);
		ks_result(ctx, e->seq, s, NULL, &st);
		ks_text_release(&st);
	}
}

/* The enemy reaction r names as its attacker (mod=) under
 * reaktion_kontrol, or NULL: none, or itself or its own side, which
 * umulig_mod_over_kontrol takes (a Skema with one switch and not the
 * other reads mod= as that one does). */
static struct ord_unit *enemy_mod(struct ord_ctx *ctx, const struct ord_event *r)
{
	struct ord_unit *m = ks_ev_unit(ctx, r, "unit"), *mod = ks_ev_unit(ctx, r, "mod");

	if (!ks_check(ks_r(ctx), "reaktion_kontrol") || !m || !mod || mod == m ||
	    !strcmp(mod->side, m->side))
		return NULL;
	return mod;
}

/* Whether reaction r of the attacked unit answers a's attack: a reaction
 * names its attacker (mod=) when it answers one of several, and answers
 * that one alone (16.2, reaktion_kontrol: a game made before answered
 * every attack with every reaction of its unit). */
static int answers(struct ord_ctx *ctx, const struct ord_event *r, const struct ord_unit *a)
{
	const struct ord_unit *mod = enemy_mod(ctx, r);

	return !mod || mod == a;
}

/* A reaction against an enemy that declared no attack on its unit (only
 * an override records one) answers none: not carried out, and its unit's
 * result says so (reaktion_kontrol). */
static void unanswered(struct ord_ctx *ctx, const struct ord_event *r)
{
	struct ord_unit *m = ks_ev_unit(ctx, r, "unit"), *mod = enemy_mod(ctx, r);
	struct ks_text t;
	size_t i;

	if (!mod)
		return;
	for (i = 0; i < ord_ctx_unit_nevents(ctx, m); i++) {
		const struct ord_event *e = ord_ctx_unit_event(ctx, m, i);
		if (!strcmp(e->kind, "angreb") && ks_ev_unit(ctx, e, "unit") == mod &&
		    ks_ev_unit(ctx, e, "maal") == m && !ks_impossible(ctx, e, NULL))
			return;
	}
	ks_text_init(&t);
	KS_TF(&t, "ikke udført: %s erklærede intet angreb på %s (16.2)",
	      "not carried out: %s declared no attack on %s (16.2)", mod->id, m->id);
	ks_result(ctx, r->seq, m, NULL, &t);
	ks_text_release(&t);
}

static int resolve_declarations(struct ord_ctx *ctx)
{
	int turn = ord_ctx_turn(ctx), pass;
	size_t i, j;

	/* if both sides attack, the side with the initiative declares first */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < ord_ctx_nevents(ctx); i++) {
			const struct ord_event *e = ord_ctx_event(ctx, i);
			struct ord_unit *a, *m;
			struct ks_text t;
			int storm, reacted, quarters = 0;

			if (strcmp(e->kind, "angreb") ||
			    ord_kv_get_bool(&e->kv, "initiativ", 0) != !pass)
				continue;
			/* on itself or its own side: nothing declared, no
			 * supports or reaction called up (umulig_kontrol) */
			if (ks_not_carried_out(ctx, e))
				continue;
			a = ks_ev_unit(ctx, e, "unit");
			m = ks_ev_unit(ctx, e, "maal");
			storm = ord_kv_get_bool(&e->kv, "stormmarch", 0);
			ks_text_init(&t);
			ks_st_set_str(ctx, a, "angreb_maal", m->id);
			ks_st_set(ctx, a, "angreb_traek", turn);
			ks_st_set(ctx, a, "angreb_storm", storm && storm_bonus(ctx, a, &quarters));
			/* 1. the target, 2. attackers and supports */
			KS_TF(&t, "1. angreb på %s%s", "1. attack on %s%s", m->id, "");
			if (storm) {
				ks_text_add(&t, " i stormmarch", " at stormmarch");
				if (!ks_st(ctx, a, "angreb_storm")) {
					double per = ks_param(ks_r(ctx), "kvarte_pr_traek");
					ks_text_add(&t, " (", " (");
					ks_fmt_part(&t.da, quarters / per);
					ks_fmt_part(&t.en, quarters / per);
					ks_text_add(&t, " træk, under ", " turn, less than ");
					ks_fmt_part(&t.da,
						    ks_param(ks_r(ctx), "stormmarch_tillaeg_kvarte") /
							    per);
					ks_fmt_part(&t.en,
						    ks_param(ks_r(ctx), "stormmarch_tillaeg_kvarte") /
							    per);
					ks_text_add(&t, " træk: intet tillæg for stormmarch i Skema XV (13))",
						    " turn: no stormmarch bonus in Skema XV (13))");
				}
				use_stormmarch(ctx, a, &t, 1);
			}
			if (ord_kv_get_bool(&e->kv, "loeb", 0)) {
				ks_st_set(ctx, a, "loeb_sidst", turn);
				/* its LU comes after the attack (13,
				 * loeb_angreb_kontrol; ks_resolve_attacks) */
				if (ks_check(ks_r(ctx), "loeb_angreb_kontrol"))
					ks_st_set(ctx, a, "angreb_loeb", turn);
				ks_text_add(&t, " med løb", " with løb");
			}
			if (pass == 0)
				ks_text_add(&t, " (initiativet: erklærer først)",
					    " (initiative: declares first)");
			ks_text_add(&t, "; 2. støtte:", "; 2. supports:");
			{
				size_t before = t.da.len;
				declare_supports(ctx, a, &t);
				if (t.da.len == before)
					ks_text_add(&t, " ingen", " none");
			}
			/* 3. the defender's reaction, 4. its supports */
			reacted = 0;
			for (j = 0; j < ord_ctx_unit_nevents(ctx, m); j++) {
				const struct ord_event *r = ord_ctx_unit_event(ctx, m, j);
				const char *re;
				/* against itself or its own side: said once, below */
				if (strcmp(r->kind, "reaktion") || ks_ev_unit(ctx, r, "unit") != m ||
				    ks_impossible(ctx, r, NULL) || !answers(ctx, r, a))
					continue;
				re = ord_kv_get(&r->kv, "reaktion");
				ks_st_set_str(ctx, m, "reaktion", re);
				ks_st_set(ctx, m, "reaktion_traek", turn);
				ord_buf_addf(&t.da, "; 3. %s reagerer: %s", m->id, re);
				ord_buf_addf(&t.en, "; 3. %s reacts: %s", m->id,
					     !strcmp(re, "forsvar")     ? "defence"
					     : !strcmp(re, "modangreb") ? "counterattack"
									: "retreat");
				/* open order retires without reaction time (16.3),
				 * U when it cannot reach support (6.3) */
				if (ord_kv_get(&r->kv, "naar_stoette") &&
				    !strcmp(ord_kv_get(&r->kv, "naar_stoette"), "nej")) {
					struct ks_text tm;
					ks_text_init(&tm);
					ks_text_add(&tm,
						    "retirerer fra angrebet i spredt formation og når ikke inden for støtteafstand af egen sluttet enhed eller soutien (6.3)",
						    "retires from the attack in open order and cannot reach support distance of an own close unit or soutien (6.3)");
					ks_apply_grade(ctx, m, KS_U, "indbrud", a, &tm);
					ks_result(ctx, r->seq, m, NULL, &tm);
					ks_text_release(&tm);
				}
				reacted = 1;
			}
			if (!reacted)
				KS_TF(&t, "; 3. %s erklærer ingen reaktion",
				      "; 3. %s states no reaction", m->id);
			ks_text_add(&t, "; 4. forsvarerens støtte:", "; 4. the defender's supports:");
			{
				size_t before = t.da.len;
				declare_supports(ctx, m, &t);
				if (t.da.len == before)
					ks_text_add(&t, " ingen", " none");
			}
			ks_result(ctx, e->seq, a, NULL, &t);
			ks_text_release(&t);
		}
	}
	/* the supports of itself or of an enemy, the reactions against itself
	 * or its own side (umulig_mod_over_kontrol), whatever attack they go
	 * with */
	for (i = 0; i < ord_ctx_nevents(ctx); i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		if ((!strcmp(e->kind, "stoette") || !strcmp(e->kind, "reaktion")) &&
		    !ks_not_carried_out(ctx, e) && !strcmp(e->kind, "reaktion"))
			unanswered(ctx, e);
	}
	return 0;
}

/* ---- fredelige flytninger ---- */

/* LU to the end of the half turn h, said in t. */
static void lu_until(struct ord_ctx *ctx, struct ord_unit *u, int h, const char *why, struct ks_text *t)
{
	ks_set_moral(ctx, u, KS_LU, h, why, NULL);
	if (h == ks_half(ctx, 1) + 1) {
		ord_buf_addf(&t->da, "; LU til midt i næste træk (%s)", why);
		ord_buf_addf(&t->en, "; LU until the middle of next turn (%s)", ks_reason(why, "en"));
	} else {
		ord_buf_addf(&t->da, "; LU til %s træk %d (%s)", h % 2 ? "slutningen af" : "midt i",
			     h / 2, why);
		ord_buf_addf(&t->en, "; LU until %s of turn %d (%s)",
			     h % 2 ? "the end" : "the middle", h / 2, ks_reason(why, "en"));
	}
}

/* LU during and lu_efter_halve_traek half turns after (12.1, 13), from
 * the end of the turn: the time in the turn is not known (an obstacle, a
 * march-through). */
static void lu_half_turn(struct ord_ctx *ctx, struct ord_unit *u, const char *why, struct ks_text *t)
{
	lu_until(ctx, u, ks_half(ctx, 1) + (int)ks_param(ks_r(ctx), "lu_efter_halve_traek"), why, t);
}

/* The half turn that lu_efter_halve_traek half turns after the quarter
 * end of this turn fall in (ours: morale is counted in half turns). */
static int lu_half_after(struct ord_ctx *ctx, int end)
{
	int per = (int)ks_param(ks_r(ctx), "kvarte_pr_traek");

	return ks_half(ctx, 0) +
	       (end + (int)ks_param(ks_r(ctx), "lu_efter_halve_traek") * (per / 2) + per / 2 - 1) /
		       (per / 2) -
	       1;
}

/* The quarter of the turn at which the last of u's order's groups of one
 * of the codes ends, -1 when it has none. */
static int order_end(struct ord_ctx *ctx, const struct ord_unit *u, const char *const *codes)
{
	const struct ord_order *o = ord_ctx_order(ctx, u);
	struct ks_group g[KS_MAX_GROUPS];
	size_t n = ks_groups(o, g, KS_MAX_GROUPS), i, k;
	int end = -1, q = 0;

	for (i = 0; i < n; i++) {
		q += ks_grp_quarters(ctx, o, &g[i]);
		for (k = 0; codes[k]; k++)
			if (!strcmp(g[i].code, codes[k]))
				end = q;
	}
	return end;
}

/* 12.1: "Enheder er i LU under og et halvt træk efter front eller
 * formationsændring": half a turn after the change, where the order makes
 * it (a FORM at the start of the turn leaves LU by its end, one at its end
 * to the middle of the next), not always to the middle of the next turn
 * (lu_ordretid_kontrol).  The change lasts aendring_kvarte (its time in
 * the lost Skema V; the order's time takes none, ordre_varighed); a change
 * with no group of its order (an override) is taken at the end of the
 * turn. */
static void lu_after_change(struct ord_ctx *ctx, struct ord_unit *u, const char *const *codes,
			    const char *why, struct ks_text *t)
{
	int per = (int)ks_param(ks_r(ctx), "kvarte_pr_traek"), end;

	if (!ks_check(ks_r(ctx), "lu_ordretid_kontrol")) {
		lu_half_turn(ctx, u, why, t);
		return;
	}
	end = order_end(ctx, u, codes);
	if (end >= 0)
		end += (int)ks_param(ks_r(ctx), "aendring_kvarte");
	if (end < 0 || end > per)
		end = per;
	lu_until(ctx, u, lu_half_after(ctx, end), why, t);
}

/* 13: "En enhed er LU et halvt træk efter løb i linie" — after it, not
 * during it as after a change of formation (12.1: "under og et halvt træk
 * efter").  The løb ends where the order's groups up to its L end (L alone:
 * half a turn, ordre_varighed); the LU lasts lu_efter_halve_traek halves
 * from there, to the end of the half turn it falls in (ours: morale is
 * counted in half turns).  "L ↑" gives LU to the end of this turn, "M ↑ ½
 * L ↑" to the middle of the next. */
int ks_loeb_lu_until(struct ord_ctx *ctx, const struct ord_unit *u)
{
	static const char *const loeb[] = { "loeb", NULL };
	int per = (int)ks_param(ks_r(ctx), "kvarte_pr_traek"), end = order_end(ctx, u, loeb);

	if (end < 0) /* no L on the sheet (an override): the løb took the first half */
		end = per / 2;
	if (end > per)
		end = per;
	/* the half turns from the start of the turn that the LU reaches into */
	return lu_half_after(ctx, end);
}

static void lu_after_loeb(struct ord_ctx *ctx, struct ord_unit *u, struct ks_text *t)
{
	int h = ks_loeb_lu_until(ctx, u);

	ks_set_moral(ctx, u, KS_LU, h, "løb", NULL);
	ord_buf_addf(&t->da, "; LU til %s træk %d (løb)", h % 2 ? "slutningen af" : "midt i", h / 2);
	ord_buf_addf(&t->en, "; LU until %s of turn %d (%s)", h % 2 ? "the end" : "the middle",
		     h / 2, ks_reason("løb", "en"));
}

/* 6.3: "En enhed i FU, der er inden for indbrudsafstand af en fjendtlig
 * enhed i OR eller LU, skal flygte ud af indbrudsafstand.  En enhed i
 * spredt formation, der er inden for indbrudsafstand af en fjendtlig
 * sluttet formation i OR eller LU, skal mindst retirere ud af
 * indbrudsafstand.  Kan den ikke nå inden for støtteafstand af egen enhed
 * i sluttet formation eller soutien, kommer den tillige i U". */
static void break_in(struct ord_ctx *ctx, struct ord_unit *u, const struct ord_unit *e,
		     const char *reach, struct ks_text *t)
{
	if (ks_moral_now(ctx, u) == KS_FU) {
		KS_TF(t, "inden for %s' indbrudsafstand i FU: skal flygte ud af indbrudsafstand (6.3)",
		      "within the break-in distance of %s in FU: must flee out of it (6.3)", e->id);
		return;
	}
	KS_TF(t, "spredt formation inden for indbrudsafstand af %s: skal mindst retirere ud af indbrudsafstand (6.3)",
	      "open order within the break-in distance of %s: must at least retire out of it (6.3)",
	      e->id);
	if (reach && !strcmp(reach, "nej")) {
		ks_text_add(t, "; når ikke inden for støtteafstand af egen sluttet enhed eller soutien",
			    "; it cannot reach support distance of an own close unit or soutien");
		ks_apply_grade(ctx, u, KS_U, "indbrud", e, t);
	} else {
		ks_text_add(t, "; når inden for støtteafstand af egen sluttet enhed eller soutien",
			    "; it reaches support distance of an own close unit or soutien");
	}
}

static int obstacle_crossed(struct ord_ctx *ctx, double x0, double y0, double x1, double y1)
{
	struct ks_rules *r = ks_r(ctx);
	struct ks_crossing cr[64];
	size_t n, i;

	if (!r->map)
		return 0;
	n = ks_map_trace(r->map, x0, y0, x1, y1, cr, ORD_ARRAY_SIZE(cr));
	for (i = 0; i < n; i++) {
		if (cr[i].edge) {
			if (*ks_edge_class(ctx, &cr[i], NULL, NULL, NULL))
				return 1;
		} else if (!strcmp(cr[i].f->type, "vandloeb") || !strcmp(cr[i].f->type, "mur") ||
			   !strcmp(cr[i].f->type, "feltbefaestning")) {
			const struct ks_plate *p = ks_map_plate(r->map, cr[i].q, cr[i].r);
			size_t k;
			int bridged = 0;
			for (k = 0; p && k < p->nf; k++)
				if (!strcmp(p->f[k].type, "bro"))
					bridged = 1;
			if (!bridged)
				return 1;
		}
	}
	return 0;
}

static const char *const formation_codes[] = { "formation", NULL };
static const char *const front_codes[] = { "drej", "vending", NULL };

static int resolve_moves(struct ord_ctx *ctx)
{
	struct ks_rules *r = ks_r(ctx);
	int turn = ord_ctx_turn(ctx);
	size_t i, ne = ord_ctx_nevents(ctx);
	struct ks_text *march = ord_xcalloc(ne + 1, sizeof(*march));

	/* every move's march length as its event was checked: against the
	 * state at the start of the phase, but for the formation it moves in,
	 * which a formation event recorded before it in the phase gives
	 * (ks_move_formation, flyt_formation_kontrol) (13) */
	for (i = 0; i < ne; i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		struct ord_unit *u = ks_ev_unit(ctx, e, "unit");
		struct ks_move_out mo;

		ks_text_init(&march[i]);
		if (!u || strcmp(e->kind, "flyt") || !ks_st_has(ctx, u, "x"))
			continue;
		if (ks_move_event(ctx, e, u, &mo, &march[i], NULL))
			ks_text_reset(&march[i]);
	}
	for (i = 0; i < ne; i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		struct ord_unit *u = ks_ev_unit(ctx, e, "unit");
		struct ks_text t;

		if (!u)
			continue;
		/* through itself or an enemy, within its own or an own unit's
		 * break-in distance (umulig_kontrol) */
		if ((!strcmp(e->kind, "flyt") || !strcmp(e->kind, "indbrud")) &&
		    ks_not_carried_out(ctx, e))
			continue;
		ks_text_init(&t);
		if (!strcmp(e->kind, "flyt")) {
			double x0 = ks_st_num(ctx, u, "x"), y0 = ks_st_num(ctx, u, "y");
			double x1 = ord_kv_get_num(&e->kv, "x", 0),
			       y1 = ord_kv_get_num(&e->kv, "y", 0);
			int had = ks_st_has(ctx, u, "x");
			ks_st_set_str(ctx, u, "x", ord_kv_get(&e->kv, "x"));
			ks_st_set_str(ctx, u, "y", ord_kv_get(&e->kv, "y"));
			ks_st_set(ctx, u, "bevaeget", turn);
			if (!had && ks_check(r, "ordlyd_kontrol"))
				/* no distance from no position (a game made
				 * before ordlyd_kontrol said 0 cm) */
				KS_TF(&t, "flyttet %stil x=%s y=%s (den havde ingen position)",
				      "moved %sto x=%s y=%s (it had no position)",
				      ord_kv_get_bool(&e->kv, "retraete", 0) ? "(retræte/flugt) " : "",
				      ord_kv_get(&e->kv, "x"), ord_kv_get(&e->kv, "y"));
			else
				KS_TF(&t, "flyttet %s%g cm til x=%s y=%s", "moved %s%g cm to x=%s y=%s",
				      ord_kv_get_bool(&e->kv, "retraete", 0) ? "(retræte/flugt) " : "",
				      had ? round(hypot(x1 - x0, y1 - y0) * 10) / 10 : 0.0,
				      ord_kv_get(&e->kv, "x"), ord_kv_get(&e->kv, "y"));
			if (r->map) {
				ks_text_add(&t, " (", " (");
				ks_map_describe(r, x1, y1, &t);
				ks_text_add(&t, ")", ")");
			}
			if (march[i].da.len) {
				ks_text_add(&t, "; marchlængde (13): ", "; march length (13): ");
				ks_text_cat(&t, &march[i]);
			}
			if (ks_ev_unit(ctx, e, "gennem")) {
				struct ord_unit *w = ks_ev_unit(ctx, e, "gennem");
				int half, lu;
				ks_through(ctx, u, w, &half, &lu, NULL);
				KS_TF(&t, "; gennemmarcherer %s", "; marches through %s", w->id);
				if (half)
					lu_half_turn(ctx, u, "gennemmarch", &t);
				/* "Under gennemmarch kan en stationær enhed ikke
				 * skyde": its fire this turn is no whole turn
				 * (gennemmarch_skydning_kontrol) */
				if (ks_check(r, "gennemmarch_skydning_kontrol")) {
					ks_st_set(ctx, w, "gennemmarcheret_traek", turn);
					ks_st_set_str(ctx, w, "gennemmarcheret_af", u->id);
				}
				if (lu) {
					struct ks_text tw;
					ks_text_init(&tw);
					KS_TF(&tw, "gennemmarcheret af %s", "marched through by %s",
					      u->id);
					lu_half_turn(ctx, w, "gennemmarch", &tw);
					ks_result(ctx, e->seq, w, NULL, &tw);
					ks_text_release(&tw);
				}
			}
			if (ord_kv_get_bool(&e->kv, "stormmarch", 0)) {
				ks_text_add(&t, " i stormmarch", " at stormmarch");
				use_stormmarch(ctx, u, &t, 0);
				/* a melee later in the turn is "under 1 træk efter"
				 * it (Skema XV; stormmarch_samme_traek_kontrol: a
				 * game made before it kept no such turn) */
				if (ks_check(r, "stormmarch_samme_traek_kontrol"))
					ks_st_set(ctx, u, "stormmarch_flyt", turn);
			}
			if (ord_kv_get_bool(&e->kv, "loeb", 0)) {
				ks_st_set(ctx, u, "loeb_sidst", turn);
				ks_text_add(&t, " med løb", " with løb");
				lu_after_loeb(ctx, u, &t);
			}
			if (ks_ordered(ctx, u, "prolongering"))
				ks_st_set(ctx, u, "prolong_sidst", turn);
			if (ks_is(ctx, u, "artilleri") && !strcmp(ks_st_str(ctx, u, "prodset"), "paa") &&
			    !strcmp(ks_form(ctx, u), "linie")) {
				ks_st_set(ctx, u, "march_i_traek",
					  ks_st(ctx, u, "march_sidst") > 0 &&
							  ks_st(ctx, u, "march_sidst") == turn - 1
						  ? ks_st(ctx, u, "march_i_traek") + 1
						  : 1);
				ks_st_set(ctx, u, "march_sidst", turn);
			}
			/* obstacles: "Under og i et halvt træk efter passage af
			 * hindring [II] og [III] er infanteri i sluttet formation i
			 * LU", cavalry in close order and artillery after any (13;
			 * hindring_klasse_kontrol: a game made before it took any
			 * obstacle for infantry too) */
			if (had && obstacle_crossed(ctx, x0, y0, x1, y1) &&
			    (ks_is(ctx, u, "artilleri") || ks_closed(ctx, u, NULL)) &&
			    (!ks_is(ctx, u, "infanteri") || !ks_check(r, "hindring_klasse_kontrol") ||
			     ks_path_obstacle(ctx, x0, y0, x1, y1) >=
				     ks_param(r, "hindring_lu_klasse_infanteri")))
				lu_half_turn(ctx, u, "hindring", &t);
		} else if (!strcmp(e->kind, "formation")) {
			const char *f = ord_kv_get(&e->kv, "formation");
			char fb[40];
			snprintf(fb, sizeof(fb), "%s", f);
			if ((!strcmp(f, "karre") || !strcmp(f, "bataillonsmasse")) &&
			    ks_figures(ctx, u) < (int)ks_param(r, "hob_under"))
				snprintf(fb, sizeof(fb), "hob");
			ks_st_set_str(ctx, u, "formation", fb);
			ks_st_set(ctx, u, "bevaeget", turn);
			ord_buf_addf(&t.da, "formerer %s", ks_formation_name(ctx, u, fb, "da"));
			ord_buf_addf(&t.en, "forms %s", ks_formation_name(ctx, u, fb, "en"));
			if (strcmp(fb, f))
				KS_TF(&t, " (under %g figurer: hob, 11.8)",
				      " (under %g figures: a hob, 11.8)", ks_param(r, "hob_under"));
			lu_after_change(ctx, u, formation_codes, "formationsændring", &t);
		} else if (!strcmp(e->kind, "indbrud")) {
			break_in(ctx, u, ks_ev_unit(ctx, e, "fjende"),
				 ord_kv_get(&e->kv, "naar_stoette"), &t);
		} else if (!strcmp(e->kind, "front")) {
			ks_st_set(ctx, u, "bevaeget", turn);
			ks_text_add(&t, "frontændring", "change of front");
			lu_after_change(ctx, u, front_codes, "frontændring", &t);
		} else if (!strcmp(e->kind, "prods")) {
			const char *p = ord_kv_get(&e->kv, "prodset");
			ks_st_set_str(ctx, u, "prodset", p);
			if (!strcmp(p, "paa"))
				ks_st_set(ctx, u, "klargjort", 0);
			ks_text_add(&t, !strcmp(p, "af") ? "afprodset" : "påprodset",
				    !strcmp(p, "af") ? "unlimbered" : "limbered");
		} else if (!strcmp(e->kind, "klargoering")) {
			ks_st_set(ctx, u, "klargjort", 1);
			ks_text_add(&t, "klargjort", "made ready");
		} else {
			ks_text_release(&t);
			continue;
		}
		ks_result(ctx, e->seq, u, NULL, &t);
		ks_text_release(&t);
	}
	for (i = 0; i < ne; i++)
		ks_text_release(&march[i]);
	free(march);
	return 0;
}

int ks_resolve_phase(struct ord_ctx *ctx, const char *phase)
{
	if (!strcmp(phase, "reorganisering"))
		return resolve_reorganisation(ctx);
	if (!strcmp(phase, "angrebserklaering"))
		return resolve_declarations(ctx);
	if (!strcmp(phase, "fredelige-flytninger"))
		return resolve_moves(ctx);
	if (!strcmp(phase, "skydninger"))
		return ks_resolve_fire(ctx);
	if (!strcmp(phase, "angrebshandlinger"))
		return ks_resolve_attacks(ctx);
	return ord_error_set(ORD_EUSAGE, "unknown phase '%s'", phase);
}
