/*
 * resolve.c - the krigsspil module's phases (5.2): reorganisering,
 * erklæring af angrebshandlinger, fredelige flytninger, skydninger and
 * angrebshandlinger (ordreudstedelse is the sheets), each read from the
 * referee's events, rolled with 3d6 through ord_ctx_roll and read from the
 * Skema by calc.c; and the bookkeeping at the end of each turn
 * (decimation, cavalry valeur, flight and stragglers, surrender).
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

/* The modifier flag a unit's share of rifles gives for a use ("skydning",
 * "naerkamp"), from the table riffel_andele; NULL when it gives none. */
static const char *rifle_flag(struct ord_ctx *ctx, const char *use, double share)
{
	const struct ord_table *t = ord_tables_get(ks_r(ctx)->tables, "riffel_andele");
	size_t i;

	for (i = 0; t && i < ord_table_nrows(t); i++) {
		const struct ord_row *row = ord_table_row(t, i);
		const char *b = ord_row_str(row, "brug");
		double from;

		if (b && !strcmp(b, use) && !ord_row_num(row, "fra", &from) && share >= from)
			return ord_row_str(row, "flag");
	}
	ord_error_clear();
	return NULL;
}

static struct ord_unit *ev_unit(struct ord_ctx *ctx, const struct ord_event *ev, const char *key)
{
	const char *v = ord_kv_get(&ev->kv, key);
	return v ? ord_ctx_find_unit(ctx, v) : NULL;
}

/* 3d6 identified by (purpose and unit, event, base .. base + 2): a roll
 * asked for again with the same identity gives the same faces. */
static int roll3(struct ord_ctx *ctx, int *d, const char *purpose, const struct ord_unit *u,
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

static int roll1(struct ord_ctx *ctx, int *d, const char *purpose, const struct ord_unit *u,
		 unsigned seq, unsigned index)
{
	struct ord_buf id = ORD_BUF_INIT;
	int err;

	ord_buf_addf(&id, "%s %s", purpose, u->id);
	err = ord_ctx_roll(ctx, d, (unsigned)ks_die(ks_r(ctx)), id.buf, seq, index);
	ord_buf_release(&id);
	return err;
}

/* A provisional parameter used: name it in the text's list. */
static void used_param(struct ord_ctx *ctx, struct ks_text *t, const char *name)
{
	const struct ord_row *row = ord_tables_param_row(ks_r(ctx)->tables, name);

	if (row && ord_row_provisional(row) && !ord_words_has(t->prov.buf, name))
		ord_words_add(&t->prov, " ", name);
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

static void apply_grade(struct ord_ctx *ctx, struct ord_unit *u, int grade, const char *why,
			struct ks_text *t)
{
	int before = ks_moral_now(ctx, u), after;

	if (grade <= KS_OR)
		return;
	ks_set_moral(ctx, u, grade, 0, why);
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

static void use_stormmarch(struct ord_ctx *ctx, struct ord_unit *u, struct ks_text *t)
{
	int turn = ord_ctx_turn(ctx);
	long start = ks_st(ctx, u, "stormmarch_start"), last = ks_st(ctx, u, "stormmarch_sidst");

	if (last == turn)
		return;
	if (last == turn - 1 && start) {
		long n = turn - start + 1;
		ks_st_set(ctx, u, "stormmarch_sidst", turn);
		/* a turn after the first in a row is in LU (13) */
		ks_set_moral(ctx, u, KS_LU, ks_half(ctx, 1), "stormmarch");
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

/* ---- reorganisering ---- */

static int disturbed(struct ord_ctx *ctx, const struct ord_unit *u)
{
	size_t i;

	for (i = 0; i < ord_ctx_nevents(ctx); i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		if (!strcmp(e->kind, "forstyrret") && ev_unit(ctx, e, "unit") == u)
			return 1;
	}
	return 0;
}

static void resupply(struct ord_ctx *ctx, const struct ord_event *e, struct ord_unit *u)
{
	struct ks_rules *r = ks_r(ctx);
	const char *ammo = ord_kv_get(&e->kv, "ammo");
	struct ks_text t;

	ks_text_init(&t);
	if (ks_is(ctx, u, "artilleri")) {
		long guns = ks_st(ctx, u, "kanoner") + ks_st(ctx, u, "beskadiget");
		int all = !ammo || !strcmp(ammo, "alle");
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
		      "resupplied (%s): roundshot/shell %s, canister %s, shrapnel %s",
		      all ? "alle" : ammo, ks_st_str(ctx, u, "ks_fuldkugle"),
		      ks_st_str(ctx, u, "ks_kardaesk"), ks_st_str(ctx, u, "ks_shrapnel"));
	} else {
		double issue = ks_is(ctx, u, "infanteri") ? ks_param(r, "infanteri")
			       : ord_kv_get_bool(&u->attrs, "karabiner", 0)
				       ? ks_param(r, "kavaleri_karabiner")
				       : 0;
		if (ord_kv_get(&u->attrs, "kampsatser"))
			issue = ord_kv_get_num(&u->attrs, "kampsatser", issue);
		ks_st_set_num(ctx, u, "kampsatser", issue);
		KS_TF(&t, "genforsynet: %s kampsatser", "resupplied: %s rounds",
		      ks_st_str(ctx, u, "kampsatser"));
	}
	ks_result(ctx, e->seq, u, NULL, &t);
	ks_text_release(&t);
}

static int resolve_reorganisation(struct ord_ctx *ctx)
{
	int turn = ord_ctx_turn(ctx), h = ks_half(ctx, 0);
	size_t i;

	for (i = 0; i < ord_ctx_nevents(ctx); i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		struct ord_unit *u = ev_unit(ctx, e, "unit");
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
			ks_st_set(ctx, u, "beskadiget", ks_st(ctx, u, "beskadiget") - 1);
			ks_st_set(ctx, u, "kanoner", ks_st(ctx, u, "kanoner") + 1);
			KS_TF(&t, "en beskadiget kanon er repareret: %ld kanoner",
			      "a damaged gun is repaired: %ld guns", ks_st(ctx, u, "kanoner"));
			ks_result(ctx, e->seq, u, NULL, &t);
		}
		ks_text_release(&t);
	}
	for (i = 0; i < ord_ctx_nunits(ctx); i++) {
		struct ord_unit *u = ord_ctx_unit(ctx, i);
		int grade = ks_moral_parse(ks_st_str(ctx, u, "moral"));
		long til = ks_st(ctx, u, "moral_til");
		struct ks_text t;

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
			if (ks_st(ctx, u, "decimering") >= 2 && to < KS_U)
				to = KS_U; /* over decimering_u_pct lost: not reorganised (6.7) */
			if (to < KS_OR)
				to = KS_OR;
			if (to < grade) {
				ks_st_set_str(ctx, u, "moral", ks_moral_name(to));
				ks_st_set(ctx, u, "moral_traek", turn);
				KS_TF(&t, "reorganiseret: %s → %s", "reorganised: %s → %s",
				      ks_moral_name(grade), ks_moral_name(to));
				if (to == KS_OR)
					ks_st_set_str(ctx, u, "moral_grund", "");
				used_param(ctx, &t, "reorganisering_grader");
				ks_result(ctx, 0, u, NULL, &t);
			} else if (ks_st(ctx, u, "decimering") >= 2) {
				KS_TF(&t, "over %g%% tab: kan ikke reorganiseres",
				      "over %g%% lost: cannot be reorganised",
				      ks_param(ks_r(ctx), "decimering_u_pct"));
				ks_result(ctx, 0, u, NULL, &t);
			}
		}
		ks_text_release(&t);
	}
	return 0;
}

/* ---- erklæring af angrebshandlinger (16.2) ---- */

static void declare_supports(struct ord_ctx *ctx, const struct ord_unit *of, struct ks_text *t)
{
	size_t i;
	int n = 0;

	for (i = 0; i < ord_ctx_nevents(ctx); i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		struct ord_unit *s;
		const char *rolle;
		struct ks_text st;
		if (strcmp(e->kind, "stoette") || ev_unit(ctx, e, "stoetter") != of)
			continue;
		s = ev_unit(ctx, e, "unit");
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
			int storm, reacted;

			if (strcmp(e->kind, "angreb") ||
			    ord_kv_get_bool(&e->kv, "initiativ", 0) != !pass)
				continue;
			a = ev_unit(ctx, e, "unit");
			m = ev_unit(ctx, e, "maal");
			storm = ord_kv_get_bool(&e->kv, "stormmarch", 0);
			ks_text_init(&t);
			ks_st_set_str(ctx, a, "angreb_maal", m->id);
			ks_st_set(ctx, a, "angreb_traek", turn);
			ks_st_set(ctx, a, "angreb_storm", storm);
			/* 1. the target, 2. attackers and supports */
			KS_TF(&t, "1. angreb på %s%s", "1. attack on %s%s", m->id, "");
			if (storm) {
				ks_text_add(&t, " i stormmarch", " at stormmarch");
				use_stormmarch(ctx, a, &t);
			}
			if (ord_kv_get_bool(&e->kv, "loeb", 0)) {
				ks_st_set(ctx, a, "loeb_sidst", turn);
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
			for (j = 0; j < ord_ctx_nevents(ctx); j++) {
				const struct ord_event *r = ord_ctx_event(ctx, j);
				const char *re;
				if (strcmp(r->kind, "reaktion") || ev_unit(ctx, r, "unit") != m)
					continue;
				re = ord_kv_get(&r->kv, "reaktion");
				ks_st_set_str(ctx, m, "reaktion", re);
				ks_st_set(ctx, m, "reaktion_traek", turn);
				ord_buf_addf(&t.da, "; 3. %s reagerer: %s", m->id, re);
				ord_buf_addf(&t.en, "; 3. %s reacts: %s", m->id,
					     !strcmp(re, "forsvar")     ? "defence"
					     : !strcmp(re, "modangreb") ? "counterattack"
									: "retreat");
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
	return 0;
}

/* ---- fredelige flytninger ---- */

/* LU during and lu_efter_halve_traek half turns after (12.1, 13). */
static void lu_half_turn(struct ord_ctx *ctx, struct ord_unit *u, const char *why, struct ks_text *t)
{
	int h = ks_half(ctx, 1) + (int)ks_param(ks_r(ctx), "lu_efter_halve_traek");

	ks_set_moral(ctx, u, KS_LU, h, why);
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
			const struct ord_row *row = NULL;
			struct ord_kv m;
			ord_kv_init(&m);
			ord_kv_set(&m, "terraen", cr[i].what);
			if (ord_table_find(&row, ks_table(r, "terraen"), &m))
				ord_error_clear();
			ord_kv_release(&m);
			if (row && strcmp(ord_row_str(row, "kant"), "ingen"))
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

static int resolve_moves(struct ord_ctx *ctx)
{
	struct ks_rules *r = ks_r(ctx);
	int turn = ord_ctx_turn(ctx);
	size_t i;

	for (i = 0; i < ord_ctx_nevents(ctx); i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		struct ord_unit *u = ev_unit(ctx, e, "unit");
		struct ks_text t;

		if (!u)
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
			KS_TF(&t, "flyttet %s%g cm til x=%s y=%s", "moved %s%g cm to x=%s y=%s",
			      ord_kv_get_bool(&e->kv, "retraete", 0) ? "(retræte/flugt) " : "",
			      had ? round(hypot(x1 - x0, y1 - y0) * 10) / 10 : 0.0,
			      ord_kv_get(&e->kv, "x"), ord_kv_get(&e->kv, "y"));
			if (r->map) {
				ks_text_add(&t, " (", " (");
				ks_map_describe(r, x1, y1, &t);
				ks_text_add(&t, ")", ")");
			}
			if (ord_kv_get_bool(&e->kv, "stormmarch", 0)) {
				ks_text_add(&t, " i stormmarch", " at stormmarch");
				use_stormmarch(ctx, u, &t);
			}
			if (ord_kv_get_bool(&e->kv, "loeb", 0)) {
				ks_st_set(ctx, u, "loeb_sidst", turn);
				ks_text_add(&t, " med løb", " with løb");
				lu_half_turn(ctx, u, "løb", &t);
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
			/* obstacles: infantry in close order, cavalry in close order
			 * and artillery are LU during and half a turn after (13) */
			if (had && obstacle_crossed(ctx, x0, y0, x1, y1) &&
			    (ks_is(ctx, u, "artilleri") || ks_closed(ctx, u, NULL)))
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
			lu_half_turn(ctx, u, "formationsændring", &t);
		} else if (!strcmp(e->kind, "front")) {
			ks_st_set(ctx, u, "bevaeget", turn);
			ks_text_add(&t, "frontændring", "change of front");
			lu_half_turn(ctx, u, "frontændring", &t);
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
	return 0;
}

/* ---- skydninger (14, 15) ---- */

static int deep(const char *f)
{
	return !strcmp(f, "angrebskolonne") || !strcmp(f, "marchkolonne") || !strcmp(f, "karre") ||
	       !strcmp(f, "bataillonsmasse") || !strcmp(f, "soutien");
}

/* The target's flags, common to small arms and artillery. */
static void target_flags(struct ord_ctx *ctx, const struct ord_unit *t, struct ord_kv *flags)
{
	struct ks_rules *r = ks_r(ctx);
	const char *f = ks_form(ctx, t);
	int grade = ks_moral_now(ctx, t);

	if (ks_is(ctx, t, "artilleri"))
		ord_kv_set(flags, "maal_artilleri", "yes");
	else if (deep(f))
		ord_kv_set(flags, "maal_dyb", "yes");
	else if (!strcmp(f, "hob"))
		ord_kv_set(flags, "maal_hob", "yes");
	if (!strcmp(f, "skyttekaede_taet") || !strcmp(f, "svaerm_taet"))
		ord_kv_set(flags, "maal_spredt_taet", "yes");
	if (!strcmp(f, "skyttekaede_tynd") || !strcmp(f, "svaerm_tynd"))
		ord_kv_set(flags, "maal_spredt_tynd", "yes");
	if (!ks_closed(ctx, t, NULL))
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
			const struct ord_row *row = NULL;
			struct ord_kv m;
			ord_kv_init(&m);
			ord_kv_set(&m, "terraen", p->terrain);
			if (ord_table_find(&row, ks_table(r, "terraen"), &m))
				ord_error_clear();
			ord_kv_release(&m);
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
static void referee_flags(const char *list, struct ord_kv *flags)
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

/* Did t fire this turn at any unit that fired at it? (besvarer) */
static int answers(struct ord_ctx *ctx, const struct ord_unit *t)
{
	size_t i, j;

	for (i = 0; i < ord_ctx_nevents(ctx); i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		if ((strcmp(e->kind, "skyd") && strcmp(e->kind, "artilleri")) ||
		    ev_unit(ctx, e, "unit") != t)
			continue;
		for (j = 0; j < ord_ctx_nevents(ctx); j++) {
			const struct ord_event *f = ord_ctx_event(ctx, j);
			if ((!strcmp(f->kind, "skyd") || !strcmp(f->kind, "artilleri")) &&
			    ev_unit(ctx, f, "maal") == t &&
			    ev_unit(ctx, f, "unit") == ev_unit(ctx, e, "maal"))
				return 1;
		}
	}
	return 0;
}

struct hit {
	struct ord_unit *target;
	const struct ord_event *e;
	int men, grade;
	int damaged, destroyed, limbers;
	struct ord_unit *firer;
};

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

static int fire_small_arms(struct ord_ctx *ctx, const struct ord_event *e, struct hit *h)
{
	struct ks_rules *r = ks_r(ctx);
	struct ord_unit *u = ev_unit(ctx, e, "unit"), *t = ev_unit(ctx, e, "maal");
	struct ks_fire_in in;
	struct ks_fire_out out;
	struct ord_kv flags, vals;
	struct ks_text why;
	const char *zone = ord_kv_get(&e->kv, "zone");
	long rifler = ord_kv_get_int(&u->attrs, "rifler", 0);
	int err, grade = ks_moral_now(ctx, u), turn = ord_ctx_turn(ctx);

	memset(&in, 0, sizeof(in));
	ord_kv_init(&flags);
	ord_kv_init(&vals);
	ks_text_init(&why);
	in.figures = (int)ord_kv_get_int(&e->kv, "figurer",
					 ks_firing_figures(r, ks_form(ctx, u), ks_vaaben(ctx, u),
							   ks_figures(ctx, u)));
	in.target_figures = (int)ord_kv_get_int(&e->kv, "maal_figurer", ks_figures(ctx, t));
	in.zone = zone;
	in.range = ord_kv_get_num(&e->kv, "afstand", 0);
	in.half = ord_kv_get_bool(&e->kv, "halv", 0);
	if (ks_is(ctx, u, "kavaleri")) {
		in.vaaben = "karabin";
		ord_kv_set(&flags, "kavaleri_skyder", "yes");
	} else if (rifler >= 100 ||
		   (rifler > 0 && ((zone && !strcmp(zone, "III")) ||
				   (!zone && in.range > ks_param(ks_r(ctx), "zone_ii_cm"))))) {
		in.vaaben = "riffel";
		if (rifler < 100) /* only the rifles reach the furthest zone */
			in.figures = (int)floor(in.figures * rifler / 100.0);
	} else {
		in.vaaben = "musket";
	}
	if (rifler > 0 && rifler < 100 && zone && !strcmp(zone, "II") &&
	    rifle_flag(ctx, "skydning", rifler))
		ord_kv_set(&flags, rifle_flag(ctx, "skydning", rifler), "yes");
	if (ks_st(ctx, u, "foerste_salve"))
		ord_kv_set(&flags, "foerste_salve", "yes");
	if (ks_st(ctx, u, "skoed_helt") > 0 && ks_st(ctx, u, "skoed_helt") == turn - 1 &&
	    ks_closed(ctx, u, NULL))
		ord_kv_set(&flags, "krudtroeg_skytte", "yes");
	if (ks_st(ctx, u, "bevaeget") == turn)
		ord_kv_set(&flags, "ej_stationaer", "yes");
	if (grade == KS_LU)
		ord_kv_set(&flags, "skytte_lu", "yes");
	else if (grade >= KS_U)
		ord_kv_set(&flags, "skytte_u", "yes");
	target_flags(ctx, t, &flags);
	if (!answers(ctx, t))
		ord_kv_set(&flags, "besvarer_ikke", "yes");
	referee_flags(ord_kv_get(&e->kv, "flag"), &flags);
	in.flags = &flags;
	if ((err = roll3(ctx, in.dice, "skyd", u, e->seq, 0)) != 0)
		goto out;
	KS_TF(&why, "skyder på %s: ", "fires at %s: ", t->id);
	if ((err = ks_fire(r, &in, &out, &why)) != 0)
		goto out;
	/* ammunition, first volley, smoke */
	ks_st_set_num(ctx, u, "kampsatser",
		      ks_st_num(ctx, u, "kampsatser") - ks_param(r, "forbrug_skydning"));
	ks_st_set(ctx, u, "foerste_salve", 0);
	ks_st_set(ctx, u, "skoed", turn);
	ks_st_set_str(ctx, u, "skoed_paa", t->id);
	if (!in.half)
		ks_st_set(ctx, u, "skoed_helt", turn);
	KS_TF(&why, "; %s kampsatser tilbage", "; %s rounds left", ks_st_str(ctx, u, "kampsatser"));
	h->target = t;
	h->firer = u;
	h->e = e;
	h->men = out.men;
	h->grade = out.grade_applied;
	ord_kv_set_int(&vals, "men", out.men);
	ord_kv_set(&vals, "morale", ks_moral_name(out.grade_applied));
	ord_kv_set(&vals, "target", t->id);
	ks_result(ctx, e->seq, u, &vals, &why);
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

static int fire_artillery(struct ord_ctx *ctx, const struct ord_event *e, struct hit *h, int defensive)
{
	struct ks_rules *r = ks_r(ctx);
	struct ord_unit *u = ev_unit(ctx, e, "unit"), *t = ev_unit(ctx, e, "maal");
	struct ks_artillery_in in;
	struct ks_artillery_out out;
	struct ord_kv flags, vals;
	struct ks_text why;
	const char *ammo = defensive ? "SK" : battery_ammo(ctx, u, e);
	int coord = ord_kv_get_bool(&e->kv, "koordineret", 0);
	int err, grade = ks_moral_now(ctx, u), turn = ord_ctx_turn(ctx);
	double use;

	memset(&in, 0, sizeof(in));
	ord_kv_init(&flags);
	ord_kv_init(&vals);
	ks_text_init(&why);
	in.ammo = ammo;
	in.kaliber = ks_attr(u, "kaliber");
	in.guns = (int)ord_kv_get_int(&e->kv, "kanoner", guns_for(ctx, u, ammo));
	in.zone = defensive ? "I" : ord_kv_get(&e->kv, "zone");
	in.range = ord_kv_get_num(&e->kv, "afstand", 0);
	in.half = ord_kv_get_bool(&e->kv, "halv", 0);
	in.target_figures = (int)ord_kv_get_int(&e->kv, "maal_figurer", ks_figures(ctx, t));
	in.target_artillery = ks_is(ctx, t, "artilleri");
	if (coord)
		ord_kv_set(&flags, "koordineret", "yes");
	if (!defensive && strcmp(ks_st_str(ctx, u, "indskudt_paa"), t->id))
		ord_kv_set(&flags, "ikke_indskudt", "yes");
	if (grade == KS_LU)
		ord_kv_set(&flags, "batteri_lu", "yes");
	else if (grade >= KS_U)
		ord_kv_set(&flags, "batteri_u", "yes");
	target_flags(ctx, t, &flags);
	if (ks_is(ctx, t, "artilleri") && !answers(ctx, t))
		ord_kv_set(&flags, "besvarer_ikke", "yes");
	referee_flags(ord_kv_get(&e->kv, "flag"), &flags);
	in.flags = &flags;
	if ((err = roll3(ctx, in.dice, defensive ? "forsvarsild" : "artilleri", u, e->seq, 0)) != 0)
		goto out;
	if (defensive)
		KS_TF(&why,
		      "forsvarsskydning med kardæsk på %s: ", "defensive canister at %s: ", t->id);
	else
		KS_TF(&why, "skyder på %s: ", "fires at %s: ", t->id);
	if ((err = ks_artillery(r, &in, &out, &why)) != 0)
		goto out;
	use = ks_param(r, defensive ? "forbrug_forsvarsild"
			  : coord   ? "forbrug_koordineret"
				    : "forbrug_skydning");
	ks_st_set_num(ctx, u, pool_key(ammo), ks_st_num(ctx, u, pool_key(ammo)) - use * in.guns);
	if (ks_st_num(ctx, u, pool_key(ammo)) < 0)
		ks_st_set_num(ctx, u, pool_key(ammo), 0);
	ks_st_set(ctx, u, "skoed", turn);
	ks_st_set_str(ctx, u, "skoed_paa", t->id);
	if (!in.half)
		ks_st_set(ctx, u, "skoed_helt", turn);
	if (!defensive)
		ks_st_set_str(ctx, u, "indskudt_paa", t->id); /* ranged from now on (15) */
	ord_buf_addf(&why.da, "; %g kampsatser %s brugt, %s tilbage", use * in.guns, ammo,
		     ks_st_str(ctx, u, pool_key(ammo)));
	ord_buf_addf(&why.en, "; %g rounds of %s used, %s left", use * in.guns, ammo,
		     ks_st_str(ctx, u, pool_key(ammo)));
	h->target = t;
	h->firer = u;
	h->e = e;
	h->men = out.men;
	h->grade = out.grade_applied;
	h->damaged = out.damaged;
	h->destroyed = out.destroyed;
	h->limbers = out.limbers;
	ord_kv_set_int(&vals, "men", out.men);
	ord_kv_set(&vals, "morale", ks_moral_name(out.grade_applied));
	ord_kv_set(&vals, "target", t->id);
	ks_result(ctx, e->seq, u, &vals, &why);
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
	if (damaged || destroyed)
		KS_TF(t, "; %d kanoner ødelagt, %d beskadiget: %ld tilbage",
		      "; %d guns destroyed, %d damaged: %ld left", destroyed, damaged, guns);
}

/* A limber destroyed by artillery fire may explode (10.2). */
static int explode(struct ord_ctx *ctx, struct ord_unit *b, unsigned seq, unsigned nth)
{
	struct ks_rules *r = ks_r(ctx);
	struct ks_text t;
	double ammo, share, zi = ks_param(r, "zone_i_cm"), zii = ks_param(r, "zone_ii_cm");
	int die, units, err, pieces = ks_pieces(ctx, b);
	size_t i;

	if (pieces < 1)
		pieces = 1;
	/* each limber carries the same share of the battery's ammunition */
	ammo = (ks_st_num(ctx, b, "ks_fuldkugle") + ks_st_num(ctx, b, "ks_kardaesk") +
		ks_st_num(ctx, b, "ks_shrapnel")) /
	       pieces;
	if ((err = roll1(ctx, &die, "eksplosion", b, seq, nth)) != 0)
		return err;
	ks_text_init(&t);
	ks_text_add(&t, "et prods er ødelagt: ", "a limber is destroyed: ");
	if ((err = ks_explosion(r, die, ammo, &share, &units, &t)) != 0)
		goto out;
	ks_st_set(ctx, b, "prods_tab", ks_st(ctx, b, "prods_tab") + 1);
	{
		/* the limber's ammunition is gone, exploded or not */
		static const char *const pools[] = { "ks_fuldkugle", "ks_kardaesk", "ks_shrapnel" };
		size_t k;
		for (k = 0; k < ORD_ARRAY_SIZE(pools); k++)
			ks_st_set_num(ctx, b, pools[k],
				      ks_st_num(ctx, b, pools[k]) * (1 - 1.0 / pieces));
	}
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
		target_flags(ctx, v, &flags);
		in.flags = &flags;
		if ((err = roll3(ctx, in.dice, "eksplosion ramt", v, seq, 3 * nth)) != 0) {
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
			target_flags(ctx, v, &flags);
			ord_kv_set(&flags, "prods", "yes");
			in.flags = &flags;
			if ((err = roll3(ctx, in.dice, "eksplosion prods", v, seq, 3 * nth)) == 0) {
				ks_text_add(&w, "; prodsene: ", "; the limbers: ");
				err = ks_artillery(r, &in, &lo, &w);
			}
			ord_kv_release(&flags);
			if (err) {
				ks_text_release(&w);
				goto out;
			}
			if (lo.limbers) {
				ks_st_set(ctx, v, "prods_tab", ks_st(ctx, v, "prods_tab") + lo.limbers);
				KS_TF(&w, "; %d prods mere tabt", "; %d more limbers lost", lo.limbers);
			}
		}
		apply_grade(ctx, v, o.grade_applied, "eksplosion", &w);
		ks_result(ctx, seq, v, NULL, &w);
		ks_text_release(&w);
	}
out:
	ks_text_release(&t);
	return err;
}

static int resolve_fire(struct ord_ctx *ctx)
{
	size_t i, n = ord_ctx_nevents(ctx);
	struct hit *hits = ord_xcalloc(n + 1, sizeof(*hits));
	int err = 0;

	/* everybody fires with the strength it had before the fire */
	for (i = 0; i < n && !err; i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		if (!strcmp(e->kind, "skyd"))
			err = fire_small_arms(ctx, e, &hits[i]);
		else if (!strcmp(e->kind, "artilleri"))
			err = fire_artillery(ctx, e, &hits[i], 0);
	}
	/* ranging with one gun for half a turn: ranged from now on (15) */
	for (i = 0; i < ord_ctx_nunits(ctx) && !err; i++) {
		struct ord_unit *u = ord_ctx_unit(ctx, i);
		const struct ord_order *o = ord_ctx_order(ctx, u);
		struct ks_group g[KS_MAX_GROUPS];
		size_t k, ng = ks_groups(o, g, KS_MAX_GROUPS);
		for (k = 0; k < ng; k++) {
			const struct ord_token *tt;
			const char *hex;
			struct ks_text t;
			if (strcmp(g[k].code, "indskydning"))
				continue;
			tt = ks_grp_tok(o, &g[k], ORD_TOK_TARGET);
			hex = ks_grp_arg(o, &g[k], "hex");
			if (tt && ord_ctx_find_unit(ctx, tt->value))
				ks_st_set_str(ctx, u, "indskudt_paa",
					      ord_ctx_find_unit(ctx, tt->value)->id);
			else
				ks_st_set_str(ctx, u, "indskudt_paa",
					      tt    ? tt->value
					      : hex ? hex
						    : "");
			ks_text_init(&t);
			KS_TF(&t, "indskudt på %s", "ranged on %s", ks_st_str(ctx, u, "indskudt_paa"));
			ks_result(ctx, 0, u, NULL, &t);
			ks_text_release(&t);
		}
	}
	/* then the losses and the morale results */
	for (i = 0; i < n && !err; i++) {
		struct hit *h = &hits[i];
		struct ks_text t;
		if (!h->target)
			continue;
		ks_text_init(&t);
		KS_TF(&t, "beskudt af %s", "fired on by %s", h->firer->id);
		if (!h->men && !h->damaged && !h->destroyed && !h->grade && !h->limbers)
			ks_text_add(&t, ": ingen virkning", ": no effect");
		if (ks_is(ctx, h->target, "artilleri")) {
			battery_losses(ctx, h->target, h->damaged, h->destroyed, &t);
		} else if (h->men) {
			ks_take_men(ctx, h->target, h->men, 0);
			KS_TF(&t, ": %d mand tabt, %ld figurer tilbage",
			      ": %d men lost, %ld figures left", h->men,
			      ks_st(ctx, h->target, "figurer"));
		}
		apply_grade(ctx, h->target, h->grade, "ild", &t);
		ks_result(ctx, h->e->seq, h->target, NULL, &t);
		ks_text_release(&t);
		{
			int k;
			for (k = 0; k < h->limbers && !err; k++)
				err = explode(ctx, h->target, h->e->seq, (unsigned)k);
		}
	}
	free(hits);
	return err;
}

/* ---- angrebshandlinger (16, 17) ---- */

static int supports_for(struct ord_ctx *ctx, const struct ord_unit *x, const struct ord_unit *enemy,
			struct ord_kv *flags, struct ks_text *t)
{
	struct ks_rules *r = ks_r(ctx);
	int turn = ord_ctx_turn(ctx), naboer = 0, traefning = 0, refused = 0;
	size_t i;

	for (i = 0; i < ord_ctx_nunits(ctx); i++) {
		struct ord_unit *s = ord_ctx_unit(ctx, i);
		const char *rolle = ks_st_str(ctx, s, "stoette_rolle"), *why_da = NULL, *why_en = NULL;
		int nabo = !strcmp(rolle, "nabo");
		if (ks_st(ctx, s, "stoette_traek") != turn ||
		    strcmp(ks_st_str(ctx, s, "stoetter"), x->id) || ks_gone(ctx, s))
			continue;
		/* 6.6: the conditions at the moment of the attack */
		if (ks_moral_now(ctx, s) >= KS_U)
			why_da = "i uorden", why_en = "in disorder";
		else if (ks_st(ctx, s, "angreb_traek") == turn)
			why_da = "har selv angrebsordre", why_en = "has an attack order itself";
		else if (ks_st(ctx, s, "skoed") == turn &&
			 !(nabo && !strcmp(ks_st_str(ctx, s, "skoed_paa"), enemy->id)))
			why_da = "har skudt i trækket", why_en = "has fired this turn";
		else if (ks_st(ctx, s, "naerkamp_traek") == turn)
			why_da = "er selv i nærkamp", why_en = "is in a melee itself";
		else if (ks_figures(ctx, s) < ks_param(r, "stoette_andel") * ks_figures(ctx, x))
			why_da = "for lille", why_en = "too small";
		else if (!strcmp(ks_form(ctx, s), "hob"))
			why_da = "hob", why_en = "a clump";
		else if (!ks_closed(ctx, s, NULL))
			why_da = "ikke i sluttet formation", why_en = "not in close order";
		else if (ks_is(ctx, s, "kavaleri") &&
			 ks_st(ctx, s, "valeur") < (long)ks_param(r, "valeur_min"))
			why_da = "valeur under %g", why_en = "valeur under %g";
		if (why_da) {
			/* the only number of the reasons is valeur_min */
			ord_buf_addf(&t->da, "%s%s støtter ikke (",
				     naboer + traefning + refused ? ", " : " ", s->id);
			ord_buf_addf(&t->da, why_da, ks_param(r, "valeur_min"));
			ord_buf_addch(&t->da, ')');
			ord_buf_addf(&t->en, "%s%s does not support (",
				     naboer + traefning + refused ? ", " : " ", s->id);
			ord_buf_addf(&t->en, why_en, ks_param(r, "valeur_min"));
			ord_buf_addch(&t->en, ')');
			refused++;
			continue;
		}
		ord_buf_addf(&t->da, "%s%s (%s)", naboer + traefning + refused ? ", " : " ", s->id,
			     nabo ? "naboenhed" : "2. træfning");
		ord_buf_addf(&t->en, "%s%s (%s)", naboer + traefning + refused ? ", " : " ", s->id,
			     nabo ? "neighbour" : "second line");
		if (nabo)
			naboer++;
		else
			traefning = 1;
		if (ks_is(ctx, s, "kavaleri") && nabo)
			ks_st_set(ctx, s, "nabo_traek", turn);
	}
	if (traefning)
		ord_kv_set(flags, "traefning", "yes");
	if (naboer)
		ord_kv_set_int(flags, "naboer", naboer);
	return naboer + traefning + refused;
}

/* The flags a side brings to the melee from its unit and state. */
static void melee_flags(struct ord_ctx *ctx, struct ord_unit *x, struct ord_unit *enemy,
			int attacker, struct ord_kv *flags)
{
	struct ks_rules *r = ks_r(ctx);
	const char *f = ks_form(ctx, x), *k = ks_klasse(ctx, x);
	int grade = ks_moral_now(ctx, x), turn = ord_ctx_turn(ctx);
	long rifler = ord_kv_get_int(&x->attrs, "rifler", 0);

	if (grade == KS_LU)
		ord_kv_set(flags, "moral_lu", "yes");
	else if (grade == KS_U)
		ord_kv_set(flags, "moral_u", "yes");
	else if (grade == KS_FU)
		ord_kv_set(flags, "moral_fu", "yes");
	ord_kv_set_int(flags, "valeur_diff",
		       ks_st(ctx, x, "valeur") - (long)ks_param(r, "valeur_norm"));
	if (ks_is(ctx, x, "kavaleri")) {
		if (!strcmp(k, "tung"))
			ord_kv_set(flags, "tung", "yes");
		else if (!strcmp(k, "middel"))
			ord_kv_set(flags, "middel", "yes");
		else if (!strcmp(k, "kosak"))
			ord_kv_set(flags, "kosak", "yes");
		if (attacker && !strcmp(f, "angrebskolonne"))
			ord_kv_set(flags, "angrebskolonne_kav", "yes");
		if (attacker && ks_st(ctx, x, "angreb_storm") && ks_st(ctx, x, "angreb_traek") == turn) {
			ord_kv_set(flags, "stormmarch", "yes");
			if (ks_st(ctx, x, "foerste_storm"))
				ord_kv_set(flags, "foerste_storm", "yes");
		} else if (ks_st(ctx, x, "stormmarch_sidst") > 0 &&
			   ks_st(ctx, x, "stormmarch_sidst") == turn - 1) {
			ord_kv_set(flags, "efter_stormmarch", "yes");
		}
		if (ks_is(ctx, enemy, "infanteri") && strcmp(ks_form(ctx, enemy), "karre") &&
		    strcmp(ks_form(ctx, enemy), "bataillonsmasse") &&
		    strcmp(ks_form(ctx, enemy), "hob"))
			ord_kv_set(flags, "kavaleri_mod_infanteri", "yes");
	}
	if (ks_is(ctx, x, "infanteri")) {
		if (attacker && !strcmp(f, "angrebskolonne") &&
		    (ks_is(ctx, enemy, "infanteri") || ks_is(ctx, enemy, "artilleri")))
			ord_kv_set(flags, "angrebskolonne_inf", "yes");
		if (ks_british(x) && !strcmp(f, "linie"))
			ord_kv_set(flags, "engelsk_linie", "yes");
		if (rifle_flag(ctx, "naerkamp", rifler))
			ord_kv_set(flags, rifle_flag(ctx, "naerkamp", rifler), "yes");
		if (ks_st(ctx, x, "foerste_salve"))
			ord_kv_set(flags, "foerste_salve", "yes");
		if (ks_is(ctx, enemy, "kavaleri") && !strcmp(f, "karre"))
			ord_kv_set(flags, "karre_mod_kavaleri", "yes");
		if (ks_is(ctx, enemy, "kavaleri") && !strcmp(f, "bataillonsmasse"))
			ord_kv_set(flags, "masse_mod_kavaleri", "yes");
	}
	/* close order attacking open order (cossacks attacked count as open, 8.5) */
	if (attacker && ks_closed(ctx, x, NULL) &&
	    (!ks_closed(ctx, enemy, NULL) || !strcmp(ks_art(enemy), "kosakker")))
		ord_kv_set(flags, "sluttet_mod_spredt", "yes");
	if (!strcmp(ks_st_str(ctx, x, "sidst_rolle"), "angriber"))
		ord_kv_set(flags, "tidligere_angriber", "yes");
	else if (!strcmp(ks_st_str(ctx, x, "sidst_rolle"), "forsvarer"))
		ord_kv_set(flags, "tidligere_forsvarer", "yes");
}

/* Surrender (17): the unit's remaining figures become prisoners. */
static void surrender(struct ord_ctx *ctx, struct ord_unit *u, unsigned seq, const char *why_da,
		      const char *why_en)
{
	struct ks_text t;
	long fig = ks_st(ctx, u, "figurer");

	ks_text_init(&t);
	ks_st_set(ctx, u, "overgivet", 1);
	if (!ks_is(ctx, u, "artilleri")) {
		ks_st_set(ctx, u, "fanger",
			  ks_st(ctx, u, "fanger") + fig * (long)ks_param(ks_r(ctx), "mand_pr_figur"));
		ks_st_set(ctx, u, "figurer", 0);
	}
	ord_buf_addf(&t.da, "overgiver sig (%s): %ld figurer i fangenskab", why_da, fig);
	ord_buf_addf(&t.en, "surrenders (%s): %ld figures taken prisoner", why_en, fig);
	ks_result(ctx, seq, u, NULL, &t);
	ks_text_release(&t);
}

static int british_roll(struct ord_ctx *ctx, struct ord_unit *u, unsigned seq, struct ks_text *t)
{
	struct ks_rules *r = ks_r(ctx);
	int turn = ord_ctx_turn(ctx), die, err;

	if (!ks_british(u) || !ks_is(ctx, u, "kavaleri") || ks_st(ctx, u, "britisk_kontrol_til") >= turn)
		return 0;
	if ((err = roll1(ctx, &die, "britisk kontrol", u, seq, 0)) != 0)
		return err;
	if (die >= (int)ks_param(r, "britisk_fra")) {
		ks_st_set(ctx, u, "britisk_kontrol_til", turn + (long)ks_param(r, "britisk_traek") - 1);
		KS_TF(t, "; britisk kavaleri 1d%d = %d: ude af kontrol, fortsætter nærkampen til og med træk %ld",
		      "; British cavalry 1d%d = %d: out of control, stays in the melee until turn %ld",
		      ks_die(r), die, ks_st(ctx, u, "britisk_kontrol_til"));
	} else {
		KS_TF(t, "; britisk kavaleri 1d%d = %d: under kontrol",
		      "; British cavalry 1d%d = %d: under control", ks_die(r), die);
	}
	return 0;
}

static int melee(struct ord_ctx *ctx, const struct ord_event *e)
{
	struct ks_rules *r = ks_r(ctx);
	struct ord_unit *a = ev_unit(ctx, e, "angriber"), *f = ev_unit(ctx, e, "forsvarer");
	struct ks_melee_in in;
	struct ks_melee_out out;
	struct ks_text t;
	struct ord_kv vals;
	int turn = ord_ctx_turn(ctx), err = 0, pursuit = ord_kv_get_bool(&e->kv, "forfoelgelse", 0);
	int fa, ff;

	memset(&in, 0, sizeof(in));
	ord_kv_init(&in.a.flags);
	ord_kv_init(&in.d.flags);
	ord_kv_init(&vals);
	ks_text_init(&t);
	if (ks_gone(ctx, a) || ks_gone(ctx, f))
		goto out;
	if (!pursuit && ks_moral_now(ctx, a) >= KS_U) {
		KS_TF(&t, "angrebet på %s gennemføres ikke: angriberen er i %s",
		      "the attack on %s does not go in: the attacker is in %s", f->id,
		      ks_moral_name(ks_moral_now(ctx, a)));
		ks_result(ctx, e->seq, a, NULL, &t);
		goto out;
	}
	fa = (int)ord_kv_get_int(&e->kv, "a_figurer", ks_figures(ctx, a));
	ff = (int)ord_kv_get_int(&e->kv, "d_figurer", ks_figures(ctx, f));
	KS_TF(&t, "nærkamp %s mod %s", "melee %s against %s", a->id, f->id);
	if (pursuit)
		ks_text_add(&t, " (forfølgelsesangreb)", " (pursuit attack)");
	/* unescorted artillery becomes U when an attacker at least as strong
	 * reaches break-in distance (16) */
	if (ks_is(ctx, f, "artilleri")) {
		int escorted = 0;
		size_t i;
		for (i = 0; i < ord_ctx_nunits(ctx); i++) {
			const struct ord_unit *s = ord_ctx_unit(ctx, i);
			if (ks_st(ctx, s, "stoette_traek") == turn &&
			    !strcmp(ks_st_str(ctx, s, "stoetter"), f->id) &&
			    !strcmp(ks_st_str(ctx, s, "stoette_rolle"), "nabo"))
				escorted = 1;
		}
		if (!escorted) {
			ord_kv_set(&in.d.flags, "ubedaekket", "yes");
			if (fa >= ff && ks_moral_now(ctx, f) < KS_U) {
				ks_set_moral(ctx, f, KS_U, 0, "ubedækket");
				ks_text_add(&t, "; ubedækket artilleri går i U",
					    "; unescorted artillery goes into U");
			}
		}
	}
	ks_text_add(&t, "; angriberens støtte:", "; the attacker's supports:");
	if (!supports_for(ctx, a, f, &in.a.flags, &t))
		ks_text_add(&t, " ingen", " none");
	ks_text_add(&t, "; forsvarerens støtte:", "; the defender's supports:");
	if (!supports_for(ctx, f, a, &in.d.flags, &t))
		ks_text_add(&t, " ingen", " none");
	melee_flags(ctx, a, f, 1, &in.a.flags);
	melee_flags(ctx, f, a, 0, &in.d.flags);
	ks_melee_numbers(r, fa, ff, &in.a.flags);
	ks_melee_numbers(r, ff, fa, &in.d.flags);
	referee_flags(ord_kv_get(&e->kv, "a_flag"), &in.a.flags);
	referee_flags(ord_kv_get(&e->kv, "d_flag"), &in.d.flags);
	in.a.figures = fa;
	in.d.figures = ff;
	in.a.ranks = (int)ord_kv_get_int(&e->kv, "a_geledder",
					 ks_ranks(r, ks_form(ctx, a), ks_vaaben(ctx, a), fa));
	in.d.ranks = (int)ord_kv_get_int(&e->kv, "d_geledder",
					 ks_ranks(r, ks_form(ctx, f), ks_vaaben(ctx, f), ff));
	in.pursuit = pursuit;
	if ((err = roll3(ctx, in.a.dice, "naerkamp angriber", a, e->seq, 0)) != 0 ||
	    (err = roll3(ctx, in.d.dice, "naerkamp forsvarer", f, e->seq, 0)) != 0)
		goto out;
	ks_text_add(&t, ": ", ": ");
	if ((err = ks_melee(r, &in, &out, &t)) != 0)
		goto out;
	/* losses and prisoners */
	{
		struct ord_unit *loser = out.winner == 1 ? f : out.winner == 2 ? a : NULL;
		struct ord_unit *winner = out.winner == 1 ? a : out.winner == 2 ? f : NULL;
		int pa = 0, pd = 0;
		if (loser && out.grade == KS_FU) {
			pa = out.prisoners_a;
			pd = out.prisoners_d;
		}
		ks_take_men(ctx, a, out.men_a, pa);
		ks_take_men(ctx, f, out.men_d, pd);
		if (loser) {
			apply_grade(ctx, loser, out.grade, "nærkamp", &t);
			if (out.grade == KS_FU)
				ks_st_set(ctx, winner, "vandt_fu_traek", turn); /* 6.7: no decimation LU now */
		} else {
			apply_grade(ctx, a, out.grade, "nærkamp", &t);
			apply_grade(ctx, f, out.grade, "nærkamp", &t);
		}
		KS_TF(&t, "; %s har %ld figurer, %s har %ld figurer",
		      "; %s has %ld figures, %s has %ld figures", a->id, ks_st(ctx, a, "figurer"),
		      f->id, ks_st(ctx, f, "figurer"));
		ord_kv_set(&vals, "winner", winner ? winner->id : "");
		ord_kv_set_int(&vals, "men_a", out.men_a);
		ord_kv_set_int(&vals, "men_d", out.men_d);
		ord_kv_set(&vals, "morale", ks_moral_name(out.grade));
	}
	/* bookkeeping: roles, first volley and storm, ammunition, melee turns */
	ks_st_set_str(ctx, a, "sidst_rolle", "angriber");
	ks_st_set_str(ctx, f, "sidst_rolle", "forsvarer");
	if (ord_kv_get(&in.a.flags, "foerste_storm"))
		ks_st_set(ctx, a, "foerste_storm", 0);
	{
		struct ord_unit *both[2] = { a, f };
		int k;
		for (k = 0; k < 2; k++) {
			struct ord_unit *x = both[k];
			if (ks_is(ctx, x, "infanteri")) {
				double use = ks_param(r, "forbrug_naerkamp_infanteri");
				ks_st_set(ctx, x, "foerste_salve", 0);
				if (ks_st_num(ctx, x, "kampsatser") >= use)
					ks_st_set_num(ctx, x, "kampsatser",
						      ks_st_num(ctx, x, "kampsatser") - use);
			}
			ks_st_set(ctx, x, "naerkamp_traek", turn);
			if ((err = british_roll(ctx, x, e->seq, &t)) != 0)
				goto out;
		}
	}
	if (pursuit) {
		long n = ks_st(ctx, f, "forfoelget_sidst") > 0 &&
					 ks_st(ctx, f, "forfoelget_sidst") == turn - 1
				 ? ks_st(ctx, f, "forfoelget_traek") + 1
				 : 1;
		ks_st_set(ctx, f, "forfoelget_traek", n);
		ks_st_set(ctx, f, "forfoelget_sidst", turn);
		KS_TF(&t, "; forfulgt %ld træk i træk", "; pursued %ld turns in a row", n);
	}
	/* British cavalry that beat its enemy into U or FU may pursue (8.4) */
	if (out.winner && out.grade >= KS_U) {
		struct ord_unit *w = out.winner == 1 ? a : f, *l = out.winner == 1 ? f : a;
		int die;
		if (ks_british(w) && ks_is(ctx, w, "kavaleri")) {
			if ((err = roll1(ctx, &die, "britisk forfoelgelse", w, e->seq, 0)) != 0)
				goto out;
			if (die >= (int)ks_param(r, "britisk_fra")) {
				ks_st_set(ctx, w, "britisk_forfoelg_til",
					  turn + (long)ks_param(r, "britisk_traek"));
				ks_st_set_str(ctx, w, "britisk_maal", l->id);
				KS_TF(&t, "; britisk kavaleri 1d%d = %d: forfølger %s til og med træk %ld",
				      "; British cavalry 1d%d = %d: pursues %s until turn %ld",
				      ks_die(r), die, l->id, ks_st(ctx, w, "britisk_forfoelg_til"));
			} else {
				KS_TF(&t, "; britisk kavaleri 1d%d = %d: forfølger ikke",
				      "; British cavalry 1d%d = %d: does not pursue", ks_die(r), die);
			}
		}
	}
	/* both sides' reports show the whole melee */
	{
		struct ks_text copy;
		ks_text_init(&copy);
		ks_text_cat(&copy, &t);
		ks_result(ctx, e->seq, a, &vals, &t);
		ks_result(ctx, e->seq, f, &vals, &copy);
		ks_text_release(&copy);
	}
	if (pursuit &&
	    ks_st(ctx, f, "forfoelget_traek") >= (long)ks_param(r, "overgivelse_forfoelgelser") &&
	    !ks_gone(ctx, f))
		surrender(ctx, f, e->seq, "forfulgt træk i træk", "pursued turn after turn");
out:
	ord_kv_release(&in.a.flags);
	ord_kv_release(&in.d.flags);
	ord_kv_release(&vals);
	ks_text_release(&t);
	return err;
}

static void end_of_turn(struct ord_ctx *ctx)
{
	struct ks_rules *r = ks_r(ctx);
	int turn = ord_ctx_turn(ctx), h = ks_half(ctx, 1);
	size_t i;

	for (i = 0; i < ord_ctx_nunits(ctx); i++) {
		struct ord_unit *u = ord_ctx_unit(ctx, i);
		struct ks_text t;
		int art = ks_is(ctx, u, "artilleri");

		if (ks_gone(ctx, u))
			continue;
		ks_text_init(&t);
		/* flight and stragglers (17) */
		if (ks_moral_at(ctx, u, h, NULL) == KS_FU) {
			long n = ks_st(ctx, u, "flugt_traek") + 1;
			ks_st_set(ctx, u, "flugt_traek", n);
			if (n > (long)ks_param(r, "efternoelere_efter_traek") &&
			    ks_st(ctx, u, "fanger_traek") != turn && !art) {
				int s = ks_stragglers(r, (int)ks_st(ctx, u, "figurer"));
				ks_st_set(ctx, u, "efternoelere", ks_st(ctx, u, "efternoelere") + s);
				ks_st_set(ctx, u, "figurer", ks_st(ctx, u, "figurer") - s);
				KS_TF(&t, "på flugt i %ld. træk: %d figurer efternølere, %ld tilbage",
				      "fleeing for the %ldth turn: %d figures straggle, %ld left",
				      n, s, ks_st(ctx, u, "figurer"));
				ks_result(ctx, 0, u, NULL, &t);
				ks_text_reset(&t);
			}
			/* cavalry flees at stormmarch; if it may not, it is FU one turn more */
			if (ks_is(ctx, u, "kavaleri")) {
				struct ord_buf why = ORD_BUF_INIT;
				/* cossacks flee at light cavalry's stormmarch speed (17) */
				if (strcmp(ks_art(u), "kosakker") &&
				    ks_stormmarch_refused(ctx, u, &why)) {
					ks_st_set(ctx, u, "fu_ekstra", turn + 1);
					KS_TF(&t, "flygter i stormmarch uden at måtte: FU også i træk %d",
					      "flees at stormmarch although it may not: FU in turn %d as well",
					      turn + 1);
					ks_result(ctx, 0, u, NULL, &t);
					ks_text_reset(&t);
				} else {
					ks_st_set(ctx, u, "stormmarch_start",
						  ks_st(ctx, u, "stormmarch_sidst") > 0 &&
								  ks_st(ctx, u, "stormmarch_sidst") ==
									  turn - 1
							  ? ks_st(ctx, u, "stormmarch_start")
							  : turn);
					ks_st_set(ctx, u, "stormmarch_sidst", turn);
				}
				ord_buf_release(&why);
			}
		} else {
			ks_st_set(ctx, u, "flugt_traek", 0);
		}
		if (ks_st(ctx, u, "forfoelget_sidst") != turn)
			ks_st_set(ctx, u, "forfoelget_traek", 0);
		/* a unit of 1 figure is lost (11.1); a battery without guns */
		if ((!art && ks_st(ctx, u, "figurer") < (long)ks_param(r, "mindste_enhed")) ||
		    (art && ks_st(ctx, u, "kanoner") < 1 && ks_st(ctx, u, "beskadiget") < 1)) {
			ks_st_set(ctx, u, "fjernet", 1);
			ks_text_add(&t, "regnes som tabt og fjernes fra spillet",
				    "counts as lost and leaves the game");
			ks_result(ctx, 0, u, NULL, &t);
			ks_text_release(&t);
			continue;
		}
		/* decimation (6.7) */
		if (!art) {
			int lvl = ks_decimation(r, ks_start_figures(ctx, u),
						(int)ks_st(ctx, u, "figurer"));
			if (lvl > ks_st(ctx, u, "decimering")) {
				ks_st_set(ctx, u, "decimering", lvl);
				KS_TF(&t, "decimeret: over %g%% af den oprindelige styrke tabt (%ld af %d figurer): ",
				      "decimated: over %g%% of its first strength lost (%ld of %d figures): ",
				      ks_param(r, lvl >= 2 ? "decimering_u_pct" : "decimering_lu_pct"),
				      ks_start_figures(ctx, u) - ks_st(ctx, u, "figurer"),
				      ks_start_figures(ctx, u));
				if (lvl >= 2)
					ks_text_add(&t, "U resten af slaget, kan ikke reorganiseres",
						    "U for the rest of the battle, cannot be reorganised");
				else
					ks_text_add(&t, "LU resten af slaget",
						    "LU for the rest of the battle");
				if (lvl == 1 && ks_st(ctx, u, "vandt_fu_traek") == turn)
					ks_text_add(&t, " (ikke i dette træk: vandt en nærkamp der sendte taberen i FU)",
						    " (not this turn: it won a melee that sent the loser into FU)");
				ks_result(ctx, 0, u, NULL, &t);
				ks_text_reset(&t);
			}
		}
		/* cavalry valeur (8.3) */
		{
			const struct ord_order *o = ord_ctx_order(ctx, u);
			struct ks_group g[KS_MAX_GROUPS];
			size_t n = ks_groups(o, g, KS_MAX_GROUPS);
			int engaged = ks_st(ctx, u, "naerkamp_traek") == turn ||
				      ks_st(ctx, u, "nabo_traek") == turn;
			int rested = ks_find(g, n, "hvil") && !engaged &&
				     ks_st(ctx, u, "skoed") != turn &&
				     ks_st(ctx, u, "bevaeget") != turn;
			long start = ord_kv_get_int(&u->attrs, "valeur",
						    (long)ks_param(r, "valeur_norm"));
			if (rested) {
				ks_st_set(ctx, u, "hvil_traek", ks_st(ctx, u, "hvil_traek") + 1);
				ks_st_set(ctx, u, "hvilede_traek", turn);
			} else {
				ks_st_set(ctx, u, "hvil_traek", 0);
			}
			if (ks_is(ctx, u, "kavaleri")) {
				if (engaged) {
					ks_st_set(ctx, u, "kamp_traek",
						  ks_st(ctx, u, "kamp_traek") + 1);
					if (ks_st(ctx, u, "kamp_traek") >
					    (long)ks_param(r, "valeur_fri_traek")) {
						ks_st_set(ctx, u, "valeur",
							  ks_st(ctx, u, "valeur") -
								  (long)ks_param(r, "valeur_tab"));
						KS_TF(&t, "%ld. træk i kamp: valeur falder til %ld",
						      "%ldth turn engaged: valeur falls to %ld",
						      ks_st(ctx, u, "kamp_traek"),
						      ks_st(ctx, u, "valeur"));
						if (ks_st(ctx, u, "valeur") <
						    (long)ks_param(r, "valeur_min"))
							KS_TF(&t, "; under %g: skal afbryde kampen, kan ikke angribe eller støtte",
							      "; under %g: must break off, cannot attack or support",
							      ks_param(r, "valeur_min"));
						ks_result(ctx, 0, u, NULL, &t);
						ks_text_reset(&t);
					}
				}
				if (rested &&
				    ks_st(ctx, u, "hvil_traek") >
					    (long)ks_param(r, "hvil_foer_genvinding") &&
				    ks_st(ctx, u, "valeur") < start) {
					long v = ks_st(ctx, u, "valeur") +
						 (long)ks_param(r, "valeur_genvinding");
					ks_st_set(ctx, u, "valeur", v < start ? v : start);
					KS_TF(&t, "hvilet %ld træk: valeur stiger til %ld",
					      "rested %ld turns: valeur rises to %ld",
					      ks_st(ctx, u, "hvil_traek"), ks_st(ctx, u, "valeur"));
					ks_result(ctx, 0, u, NULL, &t);
					ks_text_reset(&t);
				}
				if (ks_st(ctx, u, "hvil_traek") >=
				    (long)ks_param(r, "hvil_foer_genvinding"))
					ks_st_set(ctx, u, "kamp_traek", 0);
			}
		}
		ks_text_release(&t);
	}
}

static int resolve_attacks(struct ord_ctx *ctx)
{
	size_t i, n = ord_ctx_nevents(ctx);
	int err = 0, pass;

	/* defensive canister comes before the attacks go in; cancelled attacks
	 * next; then the melees, breaking off and flight in the order recorded */
	for (pass = 0; pass < 3 && !err; pass++) {
		for (i = 0; i < n && !err; i++) {
			const struct ord_event *e = ord_ctx_event(ctx, i);
			struct ord_unit *u = ev_unit(ctx, e, "unit");
			struct ks_text t;
			if (pass == 0 && !strcmp(e->kind, "forsvarsild")) {
				struct hit h;
				memset(&h, 0, sizeof(h));
				if ((err = fire_artillery(ctx, e, &h, 1)) != 0)
					break;
				ks_text_init(&t);
				KS_TF(&t, "forsvarsskydning fra %s", "defensive fire from %s", u->id);
				if (h.men) {
					ks_take_men(ctx, h.target, h.men, 0);
					KS_TF(&t, ": %d mand tabt", ": %d men lost", h.men);
				}
				apply_grade(ctx, h.target, h.grade, "forsvarsild", &t);
				ks_result(ctx, e->seq, h.target, NULL, &t);
				ks_text_release(&t);
			} else if (pass == 1 && !strcmp(e->kind, "fortryd")) {
				/* U for the rest of this turn only (16.6) */
				ks_text_init(&t);
				ks_set_moral(ctx, u, KS_U, ks_half(ctx, 1), "fortrydelse");
				ks_st_set(ctx, u, "angreb_traek", 0);
				ks_text_add(&t, "fortryder angrebet: rykker et halvt træk frem og er U resten af trækket",
					    "cancels its attack: advances half a turn and is U for the rest of the turn");
				ks_result(ctx, e->seq, u, NULL, &t);
				ks_text_release(&t);
			} else if (pass == 2) {
				if (!strcmp(e->kind, "naerkamp")) {
					err = melee(ctx, e);
				} else if (!strcmp(e->kind, "afbryd")) {
					ks_text_init(&t);
					ks_text_add(&t, "afbryder nærkampen og retirerer mindst ud af indbrudsafstand",
						    "breaks off the melee and retreats at least out of break-in distance");
					ks_result(ctx, e->seq, u, NULL, &t);
					ks_text_release(&t);
				} else if (!strcmp(e->kind, "flugt")) {
					if (ord_kv_get_bool(&e->kv, "blokeret", 0)) {
						surrender(ctx, u, e->seq, "kan ikke flygte",
							  "cannot flee");
					} else {
						ks_text_init(&t);
						ks_text_add(&t, "flygter et halvt træk ud af indbrudsafstand",
							    "flees half a turn out of break-in distance");
						ks_result(ctx, e->seq, u, NULL, &t);
						ks_text_release(&t);
					}
				}
			}
		}
	}
	if (!err)
		end_of_turn(ctx);
	return err;
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
		return resolve_fire(ctx);
	if (!strcmp(phase, "angrebshandlinger"))
		return resolve_attacks(ctx);
	return ord_error_set(ORD_EUSAGE, "unknown phase '%s'", phase);
}
