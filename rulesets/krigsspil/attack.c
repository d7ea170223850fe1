/*
 * attack.c - the krigsspil angrebshandlinger (16, 17): defensive canister,
 * cancelled attacks, melees with their supports and flags, breaking off,
 * flight and surrender, the British cavalry out of control (8.4); and the
 * end of the turn: flight and stragglers, units lost, decimation (K4),
 * cavalry valeur (8.3).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rulesets/krigsspil/ks.h"

/* ---- angrebshandlinger (16, 17) ---- */

/* The supports declared this turn by the unit they support (6.6): each
 * unit's supporters in the order of the units, from one walk of the units
 * at the start of the phase, which a melee reads for its two sides and a
 * battery's escort, where each walked every unit (melees × units).  What
 * it reads of the declaration (stoette_traek, stoetter) does not change
 * in the phase. */
struct supports {
	size_t *first; /* per unit: index + 1 of the first unit supporting it, 0: none */
	size_t *next;  /* per unit: index + 1 of the next supporting the same unit */
};

static void supports_index(struct ord_ctx *ctx, struct supports *ix)
{
	size_t n = ord_ctx_nunits(ctx), i;
	int turn = ord_ctx_turn(ctx);

	ix->first = ord_xcalloc(n + 1, sizeof(*ix->first));
	ix->next = ord_xcalloc(n + 1, sizeof(*ix->next));
	/* backwards, so that each list runs in the order of the units */
	for (i = n; i-- > 0;) {
		const struct ord_unit *s = ord_ctx_unit(ctx, i);
		const char *of = ks_st_str(ctx, s, "stoetter");
		const struct ord_unit *x;
		size_t xi;
		if (ks_st(ctx, s, "stoette_traek") != turn || !*of ||
		    !(x = ord_ctx_find_unit(ctx, of)) || strcmp(x->id, of))
			continue;
		xi = ord_ctx_unit_index(ctx, x);
		ix->next[i] = ix->first[xi];
		ix->first[xi] = i + 1;
	}
}

static void supports_release(struct supports *ix)
{
	free(ix->first);
	free(ix->next);
}

/* Why s, declared a support of x (a neighbour when nabo), does not support
 * it against enemy at the moment of the attack (6.6), in *why_da and
 * *why_en (formats of the one number *num), or 0 when it does; the reasons
 * of x itself are supports_for's. */
static int support_refused(struct ord_ctx *ctx, const struct ord_unit *s, const struct ord_unit *x,
			   const struct ord_unit *enemy, int nabo, const char **why_da,
			   const char **why_en, double *num)
{
	struct ks_rules *r = ks_r(ctx);
	int turn = ord_ctx_turn(ctx);
	int x_inf = ks_is(ctx, x, "infanteri"), x_cav = ks_is(ctx, x, "kavaleri");
	double least = ks_param(r, x_inf ? "stoette_min_infanteri" : "stoette_min_kavaleri");

	*why_da = *why_en = NULL;
	*num = ks_param(r, "valeur_min");
	if (ks_moral_now(ctx, s) >= KS_U)
		*why_da = "i uorden", *why_en = "in disorder";
	else if (ks_st(ctx, s, "angreb_traek") == turn)
		*why_da = "har selv angrebsordre", *why_en = "has an attack order itself";
	else if (ks_st(ctx, s, "skoed") == turn &&
		 !(nabo && !strcmp(ks_st_str(ctx, s, "skoed_paa"), enemy->id)))
		*why_da = "har skudt i trækket", *why_en = "has fired this turn";
	else if (ks_st(ctx, s, "naerkamp_traek") == turn &&
		 !(nabo && ks_st(ctx, s, "bedaekning_traek") == turn &&
		   !strcmp(ks_st_str(ctx, s, "stoetter"), x->id)))
		/* its melee as x's escort is x's (16, bedaekning_kontrol):
		 * it escorts x at the next attack on it too */
		*why_da = "er selv i nærkamp", *why_en = "is in a melee itself";
	else if (ks_figures(ctx, s) < ks_param(r, "stoette_andel") * ks_figures(ctx, x))
		*why_da = "for lille", *why_en = "too small";
	else if (!strcmp(ks_form(ctx, s), "hob"))
		*why_da = "hob", *why_en = "a clump";
	else if (!ks_closed(ctx, s, NULL) &&
		 !(nabo && ks_check(r, "stoette_nabo_kontrol") &&
		   (ks_cossack_swarm(ctx, s, NULL) || ks_in_cover(ctx, s, NULL))))
		*why_da = "ikke i sluttet formation", *why_en = "not in close order";
	else if (ks_is(ctx, s, "kavaleri") && ks_st(ctx, s, "valeur") < (long)ks_param(r, "valeur_min"))
		*why_da = "valeur under %g", *why_en = "valeur under %g";
	/* what 6.6 asks of a support when it is declared holds at the melee
	 * too, after the fire of the turn (stoette_naerkamp_kontrol; a game
	 * made before checked it at the declaration only): "skal for en
	 * infanterienhed bestå af mindst 7 figurer, og for en kavalerienhed
	 * bestå af mindst 3 figurer"; "Infanteri kan ikke [være 2.] træfning
	 * for kavaleri. Infanteri kan kun være naboenhed for kavaleri hvis
	 * enheden er deployeret i bataillonsmasse, karré eller er i dækning" */
	else if (!ks_check(r, "stoette_naerkamp_kontrol"))
		;
	else if ((x_inf || x_cav) && ks_figures(ctx, s) < least)
		*why_da = "færre end %g figurer, 6.6", *why_en = "fewer than %g figures, 6.6",
		*num = least;
	else if (ks_is(ctx, s, "infanteri") && x_cav && !nabo)
		*why_da = "infanteri er ikke 2. træfning for kavaleri, 6.6",
		*why_en = "infantry is no second line of cavalry, 6.6";
	else if (ks_is(ctx, s, "infanteri") && x_cav &&
		 strcmp(ks_form(ctx, s), "bataillonsmasse") && strcmp(ks_form(ctx, s), "karre") &&
		 !(ks_check(r, "stoette_nabo_kontrol") && ks_in_cover(ctx, s, NULL)))
		*why_da = "infanteri er kun naboenhed for kavaleri i bataillonsmasse, karré eller dækning, 6.6",
		*why_en = "infantry is a neighbour of cavalry only in battalion mass, square or cover, 6.6";
	return *why_da != NULL;
}

/* The supports of x against enemy (ix: the phase's), as flags; xflags are
 * the referee's flags for x's side (its cover). */
static int supports_for(struct ord_ctx *ctx, const struct supports *ix, const struct ord_unit *x,
			const struct ord_unit *enemy, const char *xflags, struct ord_kv *flags,
			struct ks_text *t, const struct ord_unit *also)
{
	struct ks_rules *r = ks_r(ctx);
	int turn = ord_ctx_turn(ctx), naboer = 0, traefning = 0, refused = 0, pass;
	const char *x_da = NULL, *x_en = NULL;
	size_t k;

	/* 6.6: "Den støttede enhed skal være deployeret i sluttet formation
	 * eller spredt formation i dækning"; 11.8: "En hob kan ikke få
	 * tillæg/fradrag for støtteenheder" (stoettet_enhed_kontrol: a game
	 * made before it counted the supports of any unit) */
	if (ks_check(r, "stoettet_enhed_kontrol")) {
		if (!strcmp(ks_form(ctx, x), "hob"))
			x_da = "den støttede er en hob, 11.8",
			x_en = "the unit supported is a hob, 11.8";
		else if (!ks_closed(ctx, x, NULL) && !ks_in_cover(ctx, x, xflags) &&
			 !ks_cossack_swarm(ctx, x, NULL))
			x_da = "den støttede står i spredt formation uden dækning, 6.6",
			x_en = "the unit supported is in open order outside cover, 6.6";
	}

	/* x's supports, then those of the battery x escorts (also): its
	 * supports support the attack on it, which is fought against x (16,
	 * bedaekning_kontrol), x itself aside */
	for (pass = 0; pass < 2; pass++) {
		const struct ord_unit *of = pass ? also : x;
		if (!of)
			continue;
		for (k = ix->first[ord_ctx_unit_index(ctx, of)]; k; k = ix->next[k - 1]) {
			struct ord_unit *s = ord_ctx_unit(ctx, k - 1);
			const char *rolle = ks_st_str(ctx, s, "stoette_rolle"), *why_da = NULL,
				   *why_en = NULL;
			double num = ks_param(r, "valeur_min");
			int nabo = !strcmp(rolle, "nabo");
			if (ks_gone(ctx, s) || (pass && s == x))
				continue;
			/* 6.6: the conditions at the moment of the attack, each by
			 * the unit it was declared for */
			if (x_da)
				why_da = x_da, why_en = x_en;
			else
				support_refused(ctx, s, of, enemy, nabo, &why_da, &why_en, &num);
			if (why_da) {
				/* a reason has one number, num: valeur_min or the least figures */
				ord_buf_addf(&t->da, "%s%s støtter ikke (",
					     naboer + traefning + refused ? ", " : " ", s->id);
				ord_buf_addf(&t->da, why_da, num);
				ord_buf_addch(&t->da, ')');
				ord_buf_addf(&t->en, "%s%s does not support (",
					     naboer + traefning + refused ? ", " : " ", s->id);
				ord_buf_addf(&t->en, why_en, num);
				ord_buf_addch(&t->en, ')');
				refused++;
				continue;
			}
			ord_buf_addf(&t->da, "%s%s (%s)", naboer + traefning + refused ? ", " : " ",
				     s->id, nabo ? "naboenhed" : "2. træfning");
			ord_buf_addf(&t->en, "%s%s (%s)", naboer + traefning + refused ? ", " : " ",
				     s->id, nabo ? "neighbour" : "second line");
			if (nabo)
				naboer++;
			else
				traefning = 1;
			if (ks_is(ctx, s, "kavaleri") && nabo)
				ks_st_set(ctx, s, "nabo_traek", turn);
		}
	}
	if (traefning)
		ord_kv_set(flags, "traefning", "yes");
	if (naboer)
		ord_kv_set_int(flags, "naboer", naboer);
	return naboer + traefning + refused;
}

/* The arm and formation of unit u, for ks_melee_arm_flags. */
static void melee_arm(struct ord_ctx *ctx, const struct ord_unit *u, struct ks_melee_arm *m)
{
	m->art = ks_art(u);
	m->formation = ks_form(ctx, u);
	m->british = ks_british(u);
	m->rifler = (double)ord_kv_get_int(&u->attrs, "rifler", 0);
}

/* The flags a side brings to the melee from its unit and state: those of
 * its arm and formation by the calculator's path (calc.c), then its state. */
static void melee_flags(struct ord_ctx *ctx, struct ord_unit *x, struct ord_unit *enemy,
			int attacker, struct ord_kv *flags)
{
	struct ks_rules *r = ks_r(ctx);
	struct ks_melee_arm mx, me;
	int grade = ks_moral_now(ctx, x), turn = ord_ctx_turn(ctx);

	/* 16.4: "Hvis begge parter angriber, føres begge parters enheder
	 * frem": the unit the event names as defender attacks too when it
	 * declared an attack on its enemy, or a counter-attack, this turn,
	 * and has the attacker's bonuses (gensidigt_angreb_kontrol; a game
	 * made before gave them to angriber= alone) */
	if (!attacker && ks_check(r, "gensidigt_angreb_kontrol") &&
	    ((ks_st(ctx, x, "angreb_traek") == turn &&
	      !strcmp(ks_st_str(ctx, x, "angreb_maal"), enemy->id)) ||
	     (ks_st(ctx, x, "reaktion_traek") == turn &&
	      !strcmp(ks_st_str(ctx, x, "reaktion"), "modangreb"))))
		attacker = 1;
	melee_arm(ctx, x, &mx);
	melee_arm(ctx, enemy, &me);
	ks_melee_arm_flags(r, &mx, &me, attacker, flags);
	/* 16.5: "Angribende infanteri beholder dette tillæg selv efter et
	 * angreb, men ikke efter det er slået i U eller er blevet angrebet af
	 * kavaleri" (cavalry: "... eller hvis det vil blive regnet for
	 * holdende kavaleri"): a column that attacked keeps it defending */
	if (!attacker && ks_st(ctx, x, "angrebskolonne_beholdt") &&
	    !strcmp(mx.formation, "angrebskolonne")) {
		if (ks_is(ctx, x, "infanteri") && !ks_is(ctx, enemy, "kavaleri"))
			ord_kv_set(flags, "angrebskolonne_inf", "yes");
		else if (ks_is(ctx, x, "kavaleri"))
			ord_kv_set(flags, "angrebskolonne_kav", "yes");
	}
	/* 11: "En enhed er altid i formation med mindre enheden er i FU": a
	 * unit in FU has no formation's modifiers (fu_formation_kontrol; a
	 * game made before it kept them) */
	if (grade == KS_FU && ks_check(r, "fu_formation_kontrol")) {
		static const char *const formed[] = { "angrebskolonne_inf", "angrebskolonne_kav",
						      "engelsk_linie",      "karre_mod_kavaleri",
						      "masse_mod_kavaleri", "sluttet_mod_spredt" };
		size_t k;
		for (k = 0; k < ORD_ARRAY_SIZE(formed); k++)
			if (ord_kv_get(flags, formed[k]))
				ord_kv_set(flags, formed[k], "no");
	}
	if (grade == KS_LU)
		ord_kv_set(flags, "moral_lu", "yes");
	else if (grade == KS_U)
		ord_kv_set(flags, "moral_u", "yes");
	else if (grade == KS_FU)
		ord_kv_set(flags, "moral_fu", "yes");
	ord_kv_set_int(flags, "valeur_diff",
		       ks_st(ctx, x, "valeur") - (long)ks_param(r, "valeur_norm"));
	if (ks_is(ctx, x, "kavaleri")) {
		if (attacker && ks_st(ctx, x, "angreb_storm") && ks_st(ctx, x, "angreb_traek") == turn) {
			ord_kv_set(flags, "stormmarch", "yes");
			if (ks_st(ctx, x, "foerste_storm"))
				ord_kv_set(flags, "foerste_storm", "yes");
		} else if ((ks_st(ctx, x, "stormmarch_sidst") > 0 &&
			    ks_st(ctx, x, "stormmarch_sidst") == turn - 1) ||
			   ks_st(ctx, x, "stormmarch_flyt") == turn) {
			/* Skema XV "under 1 træk efter at en kavaleri enhed har
			 * afbrudt en stormmarch": one of last turn, or a move at
			 * stormmarch in this turn's peaceful moves, which come
			 * before the melee (stormmarch_flyt, kept under
			 * stormmarch_samme_traek_kontrol); not a charge declared
			 * at stormmarch, whose stormmarch is the melee's own */
			ord_kv_set(flags, "efter_stormmarch", "yes");
		}
	}
	if (ks_is(ctx, x, "infanteri") && ks_st(ctx, x, "foerste_salve"))
		ord_kv_set(flags, "foerste_salve", "yes");
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

int ks_british_held(struct ord_ctx *ctx, const struct ord_unit *u)
{
	struct ks_rules *r = ks_r(ctx);

	/* a valeur under 4 "skal afbryde kampen" (8.3): it is let go
	 * (britisk_valeur_kontrol) */
	return ks_check(r, "britisk_afbryd_kontrol") && ks_british(u) && ks_is(ctx, u, "kavaleri") &&
	       ks_st(ctx, u, "britisk_kontrol_til") >= ord_ctx_turn(ctx) &&
	       ks_moral_now(ctx, u) < KS_U &&
	       !(ks_check(r, "britisk_valeur_kontrol") &&
		 ks_st(ctx, u, "valeur") < (long)ks_param(r, "valeur_min"));
}

static int british_roll(struct ord_ctx *ctx, struct ord_unit *u, unsigned seq, struct ks_text *t)
{
	struct ks_rules *r = ks_r(ctx);
	int turn = ord_ctx_turn(ctx), die, err;

	if (!ks_british(u) || !ks_is(ctx, u, "kavaleri") || ks_st(ctx, u, "britisk_kontrol_til") >= turn)
		return 0;
	if ((err = ks_roll1(ctx, &die, "britisk kontrol", u, seq, 0)) != 0)
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

/* The figures of u that count, given or all: its first geledder_max ranks
 * (16.5), said in t when fewer. */
static int six_ranks(struct ord_ctx *ctx, const struct ord_unit *u, int figures, struct ks_text *t)
{
	struct ks_rules *r = ks_r(ctx);
	int n = ks_rank_figures(r, ks_form(ctx, u), ks_vaaben(ctx, u), figures);

	if (n < figures && t)
		KS_TF(t, "; %s: kun de %g første geledder tælles (16.5): %d af %d figurer",
		      "; %s: only the first %g ranks count (16.5): %d of %d figures", u->id,
		      ks_param(r, "geledder_max"), n, figures);
	return n;
}

/* A melee's morale result on unit u, beaten by `by`, named: both sides'
 * results carry the whole melee, so "; L5: morale OR → FU (rout); must
 * flee half a turn" says whose it is. */
static void melee_grade(struct ord_ctx *ctx, struct ord_unit *u, int grade,
			const struct ord_unit *by, struct ks_text *t)
{
	struct ks_text g;

	ks_text_init(&g);
	ks_apply_grade(ctx, u, grade, "nærkamp", by, &g);
	if (g.da.len > 2 && g.en.len > 2) { /* "; moral ..." */
		ord_buf_addf(&t->da, "; %s:%s", u->id, g.da.buf + 1);
		ord_buf_addf(&t->en, "; %s:%s", u->id, g.en.buf + 1);
	}
	ks_text_release(&g);
}

/* A battery that loses a melee (16.3: "som et normalt angreb mod
 * infanteri") loses men and prisoners from its crew, besaetning_figurer_pr_piece
 * figures a piece.  The text says nothing of its guns; ours: they are
 * captured when the crew is all lost or taken in this melee (the men
 * and prisoners it loses now reach its crew's), and otherwise lose
 * nothing.  Only this melee's: a battery's crew does not count down with
 * its losses (1.3), so men lost earlier in the game, to fire or in another
 * melee, do not make a later small loss an overrun. */
static void overrun(struct ord_ctx *ctx, struct ord_unit *b, long lost, struct ks_text *t)
{
	long crew = (long)ks_figures(ctx, b) * (long)ks_param(ks_r(ctx), "mand_pr_figur");

	if (!ks_is(ctx, b, "artilleri") || lost < crew)
		return;
	KS_TF(t, "; %s er overløbet: besætningen (%d figurer, %ld mand) er tabt eller taget til fange, og batteriets %ld kanoner er erobret (vores regel: 16.3 siger intet om kanonerne)",
	      "; %s is overrun: its crew (%d figures, %ld men) is lost or taken, and the battery's %ld guns are captured (our rule: 16.3 says nothing of the guns)",
	      b->id, ks_figures(ctx, b), crew, ks_st(ctx, b, "kanoner"));
	ks_st_set(ctx, b, "overgivet", 1);
}

/* What a side of a melee has left: "D1 has 20 figures".  A battery keeps no
 * figures of its own (its crew does not count down, 1.3): its guns and the
 * crew they give; one overrun, nothing. */
static void melee_left(struct ord_ctx *ctx, const struct ord_unit *u, struct ks_text *t)
{
	if (!ks_is(ctx, u, "artilleri"))
		KS_TF(t, "%s har %ld figurer", "%s has %ld figures", u->id, ks_st(ctx, u, "figurer"));
	else if (ks_st(ctx, u, "overgivet"))
		KS_TF(t, "%s har ingen kanoner eller besætning tilbage (overløbet)",
		      "%s has no guns or crew left (overrun)", u->id);
	else
		KS_TF(t, "%s har %ld kanoner (besætning på %d figurer)",
		      "%s has %ld guns (%d figures of crew)", u->id, ks_st(ctx, u, "kanoner"),
		      ks_figures(ctx, u));
}

/* Whether s, declared a support of battery f, escorts it against a (16:
 * "En bedækning skal opstilles ... som naboenhed"): a neighbour that
 * supports at the melee (stoette_kontrol, held: a game made before took
 * any neighbour declared, out of the game, routed or fighting itself). */
static int escort_holds(struct ord_ctx *ctx, const struct ord_unit *s, const struct ord_unit *f,
			const struct ord_unit *a, int held)
{
	const char *why_da, *why_en;
	double num;

	return ks_is(ctx, f, "artilleri") && ks_st(ctx, s, "stoette_traek") == ord_ctx_turn(ctx) &&
	       !strcmp(ks_st_str(ctx, s, "stoetter"), f->id) &&
	       !strcmp(ks_st_str(ctx, s, "stoette_rolle"), "nabo") &&
	       !(held && (ks_gone(ctx, s) || support_refused(ctx, s, f, a, 1, &why_da, &why_en, &num)));
}

/* The escort that fights for battery f attacked by a (16: "Angreb mod en
 * enhed med bedækning udføres som et angreb mod bedækningsenheden"): the
 * first of its escorts in the order of the units, from the phase's
 * supports (ix) or, for the check (ix NULL), from the neighbours the
 * battery keeps (bedaekning_naboer_kontrol; a game made before, from the
 * supports among its events); NULL when none holds or the Skema has no
 * bedaekning_kontrol (a game made before fought the battery, its escort
 * a neighbour).  A neighbour kept from an earlier turn holds no more:
 * escort_holds asks for this turn's support. */
struct ord_unit *ks_melee_escort(struct ord_ctx *ctx, const void *index, const struct ord_unit *a,
				 const struct ord_unit *f)
{
	const struct supports *ix = index;
	struct ord_unit *best = NULL;
	size_t k;

	if (!ks_check(ks_r(ctx), "bedaekning_kontrol") || !ks_is(ctx, f, "artilleri"))
		return NULL;
	if (ix) {
		for (k = ix->first[ord_ctx_unit_index(ctx, f)]; k; k = ix->next[k - 1])
			if (escort_holds(ctx, ord_ctx_unit(ctx, k - 1), f, a, 1))
				return ord_ctx_unit(ctx, k - 1);
		return NULL;
	}
	/* the check: the neighbours the battery keeps, in the order of the
	 * units (a partial context's own order is the order looked up, and
	 * the supports were declared in a phase before, whose events it does
	 * not see) */
	if (ks_check(ks_r(ctx), "bedaekning_naboer_kontrol")) {
		const char *p = ks_st_str(ctx, f, "bedaekning_naboer"), *w;
		struct ord_buf id = ORD_BUF_INIT;
		size_t len;

		while (!best && (w = ord_words_next(&p, &len)) != NULL) {
			struct ord_unit *s;
			ord_buf_reset(&id);
			ord_buf_add(&id, w, len);
			if ((s = ord_ctx_find_unit(ctx, id.buf)) != NULL && s != f &&
			    escort_holds(ctx, s, f, a, 1))
				best = s;
		}
		ord_buf_release(&id);
		return best;
	}
	for (k = 0; k < ord_ctx_unit_nevents(ctx, f); k++) {
		const struct ord_event *e = ord_ctx_unit_event(ctx, f, k);
		struct ord_unit *s;
		if (strcmp(e->kind, "stoette") || strcmp(ord_kv_get(&e->kv, "stoetter"), f->id) ||
		    !(s = ks_ev_unit(ctx, e, "unit")) || s == f || !escort_holds(ctx, s, f, a, 1))
			continue;
		if (!best || ord_ctx_unit_index(ctx, s) < ord_ctx_unit_index(ctx, best))
			best = s;
	}
	return best;
}

/* The flags the module works out itself for melee e of a on f (K10),
 * into af and df, before the referee's come on top, and the figures that
 * count (*fa, *ff): the first ranks (16.5), the supports, each side's arm,
 * formation and state, powder smoke (Skema XVII) and the numbers.  With
 * c, the battery f escorts (16, bedaekning_kontrol), the melee is fought
 * against f, c's figures counted in *ff, and c's supports are f's too.
 * With t (the resolve, and ix its phase's supports) it says the ranks and
 * supports in t, puts unescorted artillery into U (16) and marks a
 * cavalry neighbour (nabo_traek).
 * Without (the check, ks_melee_own_flags) it changes nothing and looks
 * at no unit but a, f and c: no supports, no neighbour of a battery
 * fought unescorted, whose flags (traefning, naboer, ubedaekket, the
 * battery's morale) are then not the state's (ks_melee_own_flag leaves
 * them out). */
static void melee_own(struct ord_ctx *ctx, const struct supports *ix, const struct ord_event *e,
		      struct ord_unit *a, struct ord_unit *f, const struct ord_unit *c,
		      struct ord_kv *af, struct ord_kv *df, int *fa, int *ff, struct ks_text *t)
{
	struct ks_rules *r = ks_r(ctx);
	int turn = ord_ctx_turn(ctx);

	*fa = (int)ord_kv_get_int(&e->kv, "a_figurer", ks_figures(ctx, a));
	*ff = (int)ord_kv_get_int(&e->kv, "d_figurer", ks_figures(ctx, f));
	/* "Kun tiraillørkæde og de 6 første geledder kan tælles med" (16.5) */
	*fa = six_ranks(ctx, a, *fa, t);
	*ff = six_ranks(ctx, f, *ff, t);
	/* 16: "idet den bedækkede enheds figurer medregnes i antallet af
	 * figurer": the battery's crew (d_figurer= is the escort's) */
	if (c) {
		int fc = ks_figures(ctx, c);
		if (t)
			KS_TF(t, "; den bedækkede %s's %d figurer medregnes (16): %d + %d = %d",
			      "; the escorted %s's %d figures count (16): %d + %d = %d", c->id, fc,
			      *ff, fc, *ff + fc);
		*ff += fc;
	}
	/* unescorted artillery becomes U when an attacker at least as strong
	 * reaches break-in distance (16); its escort stands "som naboenhed",
	 * and is one when it supports as a neighbour at the melee
	 * (stoette_kontrol: a game made before took any neighbour declared,
	 * out of the game, routed or fighting itself) */
	if (t && !c && ks_is(ctx, f, "artilleri")) {
		int escorted = 0, held = ks_check(r, "stoette_kontrol");
		size_t k;
		for (k = ix->first[ord_ctx_unit_index(ctx, f)]; k; k = ix->next[k - 1])
			if (escort_holds(ctx, ord_ctx_unit(ctx, k - 1), f, a, held))
				escorted = 1;
		if (!escorted) {
			ord_kv_set(df, "ubedaekket", "yes");
			if (*fa >= *ff && ks_moral_now(ctx, f) < KS_U) {
				ks_set_moral(ctx, f, KS_U, 0, "ubedækket", a);
				ks_text_add(t, "; ubedækket artilleri går i U",
					    "; unescorted artillery goes into U");
			}
		}
	}
	if (t) {
		ks_text_add(t, "; angriberens støtte:", "; the attacker's supports:");
		if (!supports_for(ctx, ix, a, f, ord_kv_get(&e->kv, "a_flag"), af, t, NULL))
			ks_text_add(t, " ingen", " none");
		ks_text_add(t, "; forsvarerens støtte:", "; the defender's supports:");
		if (!supports_for(ctx, ix, f, a, ord_kv_get(&e->kv, "d_flag"), df, t, c))
			ks_text_add(t, " ingen", " none");
	}
	melee_flags(ctx, a, f, 1, af);
	melee_flags(ctx, f, a, 0, df);
	/* Skema XVII, "Krudtrøg efter skydning i 1 træk": "gives kun hvis en
	 * forsvarende enhed i sluttet formation skød i hele det forrige træk.
	 * Tillæg/fradraget gælder for både forsvareren og angriberen" (the
	 * referee's krudtroeg= still overrides it, on both sides alike under
	 * naerkampflag_kontrol) */
	if (ks_st(ctx, f, "skoed_helt") > 0 && ks_st(ctx, f, "skoed_helt") == turn - 1 &&
	    ks_closed(ctx, f, NULL)) {
		ord_kv_set(af, "krudtroeg", "yes");
		ord_kv_set(df, "krudtroeg", "yes");
	}
	ks_melee_numbers(r, *fa, *ff, af);
	ks_melee_numbers(r, *ff, *fa, df);
}

void ks_melee_own_flags(struct ord_ctx *ctx, const struct ord_event *e, struct ord_kv *af,
			struct ord_kv *df)
{
	struct ord_unit *a = ks_ev_unit(ctx, e, "angriber"), *f = ks_ev_unit(ctx, e, "forsvarer");
	struct ord_unit *d = a && f ? ks_melee_escort(ctx, NULL, a, f) : NULL;
	int fa, ff;

	if (a && f)
		melee_own(ctx, NULL, e, a, d ? d : f, d ? f : NULL, af, df, &fa, &ff, NULL);
}

/* The melee's flags ks_melee_own_flags works out (skema_xv_naerkamp's
 * note): of the arm and rifles, of the rest of the state; the prefixes end
 * in '_'.  Not the supports' (traefning, naboer) nor a battery's escort
 * (ubedaekket), which need every unit, nor krudtroeg ("gives kun hvis":
 * the smoke of a defending unit is a condition, not the rule) and the
 * ones the referee judges on the table (flank, rear, halted, cover,
 * obstacles, overlap, a skirmish screen, not stationary). */
static const char *const own_melee_scenario[] = { "tung", "middel", "kosak", "rifler_", NULL };
static const char *const own_melee_state[] = { "angrebskolonne_inf",
					       "angrebskolonne_kav",
					       "engelsk_linie",
					       "karre_mod_kavaleri",
					       "masse_mod_kavaleri",
					       "kavaleri_mod_infanteri",
					       "sluttet_mod_spredt",
					       "moral_lu",
					       "moral_u",
					       "moral_fu",
					       "valeur_diff",
					       "stormmarch",
					       "foerste_storm",
					       "efter_stormmarch",
					       "foerste_salve",
					       "tidligere_angriber",
					       "tidligere_forsvarer",
					       "pct_flere",
					       "gange_",
					       NULL };

int ks_melee_own_flag(const char *flag)
{
	if (ks_flag_listed(own_melee_scenario, flag))
		return KS_OWN_SCENARIO;
	return ks_flag_listed(own_melee_state, flag) ? KS_OWN_STATE : 0;
}

static int melee(struct ord_ctx *ctx, const struct supports *ix, const struct ord_event *e)
{
	struct ks_rules *r = ks_r(ctx);
	struct ord_unit *a = ks_ev_unit(ctx, e, "angriber"), *f = ks_ev_unit(ctx, e, "forsvarer");
	struct ord_unit *c = NULL, *escort;
	struct ks_melee_in in;
	struct ks_melee_out out;
	struct ks_text t;
	struct ord_kv vals;
	int turn = ord_ctx_turn(ctx), err = 0, pursuit = ord_kv_get_bool(&e->kv, "forfoelgelse", 0);
	int fa, ff, fc = 0, held;

	memset(&in, 0, sizeof(in));
	ord_kv_init(&in.a.flags);
	ord_kv_init(&in.d.flags);
	ord_kv_init(&vals);
	ks_text_init(&t);
	if (ks_gone(ctx, a) || ks_gone(ctx, f))
		goto out;
	/* 16: "Angreb mod en enhed med bedækning udføres som et angreb mod
	 * bedækningsenheden, idet den bedækkede enheds figurer medregnes i
	 * antallet af figurer" (bedaekning_kontrol): from here f is the
	 * escort that fights, c the battery it escorts */
	if ((escort = ks_melee_escort(ctx, ix, a, f)) != NULL) {
		c = f;
		f = escort;
		fc = ks_figures(ctx, c);
	}
	/* 17.3: "Det regnes for forfølgelsesangreb hvis en enhed i FU bliver
	 * angrebet af en enhed hvis styrke er mindst [25]% af egen styrke":
	 * the rule's, not the referee's word (forfoelgelse_kontrol; a game
	 * made before it pursues only with forfoelgelse=yes) */
	if (!pursuit && ks_check(r, "forfoelgelse_kontrol") && ks_moral_now(ctx, f) == KS_FU &&
	    ks_pursuit_strong(ctx, a, f))
		pursuit = 1;
	/* 6.3: "Det er kun muligt at rykke ind over en fjendtlig enheds
	 * indbrudsafstand med enheder i OR eller LU, endvidere skal den
	 * fjendtlige enhed: være FU": a pursuit too needs an attacker in OR
	 * or LU, and one that does not go in is no attack on the unit in FU
	 * (forfoelgelse_moral_kontrol; a game made before pursued in any
	 * state, and counted the attack that did not go in) */
	held = ks_moral_now(ctx, a) >= KS_U && (!pursuit || ks_check(r, "forfoelgelse_moral_kontrol"));
	/* 17.2: a unit in FU that is attacked surrenders if it cannot flee */
	if (ks_moral_now(ctx, f) == KS_FU && !(held && ks_check(r, "forfoelgelse_moral_kontrol")))
		ks_st_set(ctx, f, "angrebet_fu_traek", turn);
	if (held) {
		KS_TF(&t, "angrebet på %s gennemføres ikke: angriberen er i %s",
		      "the attack on %s does not go in: the attacker is in %s", c ? c->id : f->id,
		      ks_moral_name(ks_moral_now(ctx, a)));
		ks_result(ctx, e->seq, a, NULL, &t);
		goto out;
	}
	if (c)
		KS_TF(&t, "nærkamp %s mod %s, bedækket af %s: føres som et angreb mod %s (16)",
		      "melee %s against %s, escorted by %s: fought as an attack on %s (16)", a->id,
		      c->id, f->id, f->id);
	else
		KS_TF(&t, "nærkamp %s mod %s", "melee %s against %s", a->id, f->id);
	if (pursuit)
		ks_text_add(&t, " (forfølgelsesangreb)", " (pursuit attack)");
	melee_own(ctx, ix, e, a, f, c, &in.a.flags, &in.d.flags, &fa, &ff, &t);
	ks_referee_flags(ord_kv_get(&e->kv, "a_flag"), &in.a.flags);
	ks_referee_flags(ord_kv_get(&e->kv, "d_flag"), &in.d.flags);
	/* halted cavalry has no attack column bonus, and keeps none (16.5) */
	if (ord_kv_get_bool(&in.a.flags, "holdende", 0))
		ord_kv_set(&in.a.flags, "angrebskolonne_kav", "no");
	if (ord_kv_get_bool(&in.d.flags, "holdende", 0))
		ord_kv_set(&in.d.flags, "angrebskolonne_kav", "no");
	in.a.figures = fa;
	in.d.figures = ff;
	in.a.ranks = (int)ord_kv_get_int(&e->kv, "a_geledder",
					 ks_ranks(r, ks_form(ctx, a), ks_vaaben(ctx, a), fa));
	in.d.ranks = (int)ord_kv_get_int(&e->kv, "d_geledder",
					 ks_ranks(r, ks_form(ctx, f), ks_vaaben(ctx, f), ff - fc));
	in.pursuit = pursuit;
	/* 17.1: a side in U that cannot retreat, as the referee sees it */
	in.a.in_u = ks_moral_now(ctx, a) == KS_U;
	in.d.in_u = ks_moral_now(ctx, f) == KS_U;
	in.a.blocked = strcmp(ord_kv_get(&e->kv, "a_retraete"), "fri")
			       ? ord_kv_get(&e->kv, "a_retraete")
			       : NULL;
	in.d.blocked = strcmp(ord_kv_get(&e->kv, "d_retraete"), "fri")
			       ? ord_kv_get(&e->kv, "d_retraete")
			       : NULL;
	if ((err = ks_roll3(ctx, in.a.dice, "naerkamp angriber", a, e->seq, 0)) != 0 ||
	    (err = ks_roll3(ctx, in.d.dice, "naerkamp forsvarer", f, e->seq, 0)) != 0)
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
			melee_grade(ctx, loser, out.grade, winner, &t);
			overrun(ctx, loser, loser == a ? out.men_a + pa : out.men_d + pd, &t);
			if (out.grade == KS_FU)
				ks_st_set(ctx, winner, "vandt_fu_traek", turn); /* 6.7: no decimation LU now */
		} else {
			melee_grade(ctx, a, out.grade, f, &t);
			melee_grade(ctx, f, out.grade, a, &t);
			/* K8: a tie goes on, so both sides (and an escorted
			 * battery, whose crew fought in it) are still engaged
			 * in it next turn unless it is broken off (15.1's
			 * defensive fire, forsvarsild_naerkamp_kontrol) */
			if (ks_check(r, "forsvarsild_naerkamp_kontrol")) {
				ks_st_set(ctx, a, "naerkamp_uafgjort", turn);
				ks_st_set(ctx, f, "naerkamp_uafgjort", turn);
				if (c)
					ks_st_set(ctx, c, "naerkamp_uafgjort", turn);
			}
		}
		/* ours: an escort beaten into U retreats and one in FU flees,
		 * and the battery stands unescorted with the attacker in
		 * break-in distance: 16's "uden bedækning, bliver U så snart
		 * en angribende enhed, som består af mindst det samme antal
		 * figurer, når indbrudsafstand"; the battery itself loses no
		 * men and no guns in the escort's melee */
		if (c && loser != a && out.grade >= KS_U) {
			KS_TF(&t, "; %s står nu ubedækket (%s er i %s)",
			      "; %s now stands unescorted (%s is in %s)", c->id, f->id,
			      ks_moral_name(ks_moral_now(ctx, f)));
			if (fa >= fc && ks_moral_now(ctx, c) < KS_U) {
				ks_set_moral(ctx, c, KS_U, 0, "ubedækket", a);
				KS_TF(&t, ": ubedækket artilleri går i U (%s har %d figurer mod %d, 16)",
				      ": unescorted artillery goes into U (%s has %d figures against %d, 16)",
				      a->id, fa, fc);
			}
		}
		ks_text_add(&t, "; ", "; ");
		melee_left(ctx, a, &t);
		ks_text_add(&t, ", ", ", ");
		melee_left(ctx, f, &t);
		if (c) {
			ks_text_add(&t, ", ", ", ");
			melee_left(ctx, c, &t);
			ord_kv_set(&vals, "bedaekning", f->id);
			ks_st_set(ctx, f, "bedaekning_traek", turn);
		}
		ord_kv_set(&vals, "winner", winner ? winner->id : "");
		ord_kv_set_int(&vals, "men_a", out.men_a);
		ord_kv_set_int(&vals, "men_d", out.men_d);
		ord_kv_set(&vals, "morale", ks_moral_name(out.grade));
	}
	/* the attack column's bonus kept after the attack (16.5): won by
	 * attacking in it, lost when beaten into U, when infantry is attacked
	 * by cavalry, or when cavalry counts as halted */
	if (ord_kv_get_bool(&in.a.flags, "angrebskolonne_inf", 0) ||
	    ord_kv_get_bool(&in.a.flags, "angrebskolonne_kav", 0))
		ks_st_set(ctx, a, "angrebskolonne_beholdt", 1);
	if ((out.winner == 1 && out.grade >= KS_U) ||
	    (ks_is(ctx, f, "infanteri") && ks_is(ctx, a, "kavaleri")) ||
	    ord_kv_get_bool(&in.d.flags, "holdende", 0))
		ks_st_set(ctx, f, "angrebskolonne_beholdt", 0);
	if ((out.winner == 2 && out.grade >= KS_U) || ord_kv_get_bool(&in.a.flags, "holdende", 0))
		ks_st_set(ctx, a, "angrebskolonne_beholdt", 0);
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
		ord_buf_addf(&t.da, "; forfulgt %ld træk i træk", n);
		ord_buf_addf(&t.en, "; pursued %ld %s in a row", n,
			     ks_nword(ks_r(ctx), n, "turn", "turns"));
	}
	/* British cavalry that beat its enemy into U or FU may pursue (8.4) */
	if (out.winner && out.grade >= KS_U) {
		struct ord_unit *w = out.winner == 1 ? a : f, *l = out.winner == 1 ? f : a;
		int die;
		if (ks_british(w) && ks_is(ctx, w, "kavaleri")) {
			if ((err = ks_roll1(ctx, &die, "britisk forfoelgelse", w, e->seq, 0)) != 0)
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
	/* both sides' reports show the whole melee, and an escorted
	 * battery's, the unit attacked */
	{
		struct ks_text copy, copy_c;
		ks_text_init(&copy);
		ks_text_init(&copy_c);
		ks_text_cat(&copy, &t);
		if (c)
			ks_text_cat(&copy_c, &t);
		ks_result(ctx, e->seq, a, &vals, &t);
		ks_result(ctx, e->seq, f, &vals, &copy);
		if (c)
			ks_result(ctx, e->seq, c, &vals, &copy_c);
		ks_text_release(&copy);
		ks_text_release(&copy_c);
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

/* A unit's strength against another's in a pursuit or a block (17):
 * figures, cavalry counted forfoelgelse_kavaleri_gange times. */
static int strength(struct ord_ctx *ctx, const struct ord_unit *u)
{
	return ks_pursuit_strength(ks_r(ctx), ks_figures(ctx, u), ks_is(ctx, u, "kavaleri"));
}

int ks_pursuit_strong(struct ord_ctx *ctx, const struct ord_unit *a, const struct ord_unit *f)
{
	return ks_pursuit_enough(ks_r(ctx), strength(ctx, a), strength(ctx, f));
}

int ks_block_effective(struct ord_ctx *ctx, const struct ord_unit *u, const struct ord_unit *b)
{
	return 100.0 * strength(ctx, b) >= ks_param(ks_r(ctx), "blokering_pct") * strength(ctx, u);
}

/* 17: a fleeing unit runs into an own unit w: in U or FU it is carried
 * along; in OR or LU a morale test as in an attack (the fleeing unit
 * attacks, no losses, no FU modifier, square and mass count against
 * infantry too), and w is carried along if it comes out U or FU. */
static int flee_into(struct ord_ctx *ctx, const struct ord_event *e, struct ord_unit *u,
		     struct ord_unit *w, struct ks_text *t)
{
	struct ks_rules *r = ks_r(ctx);
	struct ks_melee_in in;
	struct ks_melee_out out;
	struct ks_text mt, tw;
	int err = 0, carried;

	ks_text_init(&mt);
	ks_text_init(&tw);
	memset(&in, 0, sizeof(in));
	ord_kv_init(&in.a.flags);
	ord_kv_init(&in.d.flags);
	if (ks_moral_now(ctx, w) >= KS_U) {
		carried = 1;
		KS_TF(t, "; flygter ind i %s, der er i %s: den bliver FU og rives med (17)",
		      "; flees into %s, which is in %s: it goes FU and is carried along (17)",
		      w->id, ks_moral_name(ks_moral_now(ctx, w)));
	} else {
		melee_flags(ctx, u, w, 1, &in.a.flags);
		melee_flags(ctx, w, u, 0, &in.d.flags);
		ord_kv_set(&in.a.flags, "moral_fu", "no"); /* "Den flygtende får ikke tillæg/fradrag for FU" */
		/* no losses, and its words say none (fu_formation_kontrol) */
		in.test_only = ks_check(r, "fu_formation_kontrol");
		if (!strcmp(ks_form(ctx, w), "karre"))
			ord_kv_set(&in.d.flags, "karre_mod_kavaleri", "yes");
		if (!strcmp(ks_form(ctx, w), "bataillonsmasse"))
			ord_kv_set(&in.d.flags, "masse_mod_kavaleri", "yes");
		in.a.figures = ks_rank_figures(r, ks_form(ctx, u), ks_vaaben(ctx, u),
					       ks_figures(ctx, u));
		in.d.figures = ks_rank_figures(r, ks_form(ctx, w), ks_vaaben(ctx, w),
					       ks_figures(ctx, w));
		ks_melee_numbers(r, in.a.figures, in.d.figures, &in.a.flags);
		ks_melee_numbers(r, in.d.figures, in.a.figures, &in.d.flags);
		in.a.ranks = ks_ranks(r, ks_form(ctx, u), ks_vaaben(ctx, u), in.a.figures);
		in.d.ranks = ks_ranks(r, ks_form(ctx, w), ks_vaaben(ctx, w), in.d.figures);
		if ((err = ks_roll3(ctx, in.a.dice, "gennemsivning flygtende", u, e->seq, 0)) != 0 ||
		    (err = ks_roll3(ctx, in.d.dice, "gennemsivning staaende", w, e->seq, 0)) != 0 ||
		    (err = ks_melee(r, &in, &out, &mt)) != 0)
			goto out;
		/* a moral test: nobody loses men */
		carried = out.winner == 1 && out.grade >= KS_U;
		KS_TF(t, "; flygter ind i %s: moraltest som ved en angrebshandling (17): ",
		      "; flees into %s: a morale test as in an attack (17): ", w->id);
		ks_text_cat(t, &mt);
		if (carried)
			KS_TF(t, "; %s bliver %s: FU og revet med",
			      "; %s comes out %s: FU and carried along", w->id,
			      ks_moral_name(out.grade));
		else
			KS_TF(t, "; %s bliver ikke U eller FU: den flygtende siver igennem",
			      "; %s does not go U or FU: the fleeing unit seeps through", w->id);
	}
	if (carried) {
		KS_TF(&tw, "%s flygter ind i den", "%s flees into it", u->id);
		ks_apply_grade(ctx, w, KS_FU, "revet med", NULL, &tw);
		ks_keep_retreat_along(ctx, w, u); /* it flees as u does */
		ks_result(ctx, e->seq, w, NULL, &tw);
	}
out:
	ord_kv_release(&in.a.flags);
	ord_kv_release(&in.d.flags);
	ks_text_release(&mt);
	ks_text_release(&tw);
	return err;
}

/* The flight of a unit in FU (17): free, stopped by obstacles or an enemy
 * strong enough to block it, through a smaller enemy that gives way or
 * is carried along, into an own unit. */
static int flight(struct ord_ctx *ctx, const struct ord_event *e)
{
	struct ks_rules *r = ks_r(ctx);
	struct ord_unit *u = ks_ev_unit(ctx, e, "unit"), *b = ks_ev_unit(ctx, e, "af");
	struct ord_unit *w = ks_ev_unit(ctx, e, "ind_i");
	const char *how = ord_kv_get(&e->kv, "blokeret"), *viger = ord_kv_get(&e->kv, "viger");
	struct ks_text t;
	int turn = ord_ctx_turn(ctx), err = 0;

	ks_text_init(&t);
	if (!how)
		how = "nej";
	if (!strcmp(how, "hindring")) {
		ks_st_set(ctx, u, "flugt_blokeret", turn);
		ks_text_add(&t, "kan ikke flygte for hindringer (17): overgiver sig, hvis den angribes i FU",
			    "cannot flee for obstacles (17): surrenders if it is attacked in FU");
	} else if (!strcmp(how, "fjende") && b && ks_block_effective(ctx, u, b)) {
		ks_st_set(ctx, u, "flugt_blokeret", turn);
		KS_TF(&t, "blokeret af %s (styrke %d mod %d, mindst %g%%, kavaleri dobbelt): blokeringen er effektiv og den kan ikke flygte længere (17); overgiver sig, hvis den angribes i FU",
		      "blocked by %s (strength %d against %d, at least %g%%, cavalry double): the block is effective and it can flee no further (17); surrenders if it is attacked in FU",
		      b->id, strength(ctx, b), strength(ctx, u), ks_param(r, "blokering_pct"));
	} else {
		ks_text_add(&t, "flygter et halvt træk ud af indbrudsafstand",
			    "flees half a turn out of break-in distance");
		if (!strcmp(how, "fjende") && b) {
			KS_TF(&t, "; %s er mindre end %g%% af dens styrke (%d mod %d)",
			      "; %s is less than %g%% of its strength (%d against %d)", b->id,
			      ks_param(r, "blokering_pct"), strength(ctx, b), strength(ctx, u));
			if (viger && !strcmp(viger, "nej")) {
				struct ks_text tb;
				ks_text_init(&tb);
				ks_text_add(&t, " og viger ikke: den bliver FU og rives med (17)",
					    " and does not give way: it goes FU and is carried along (17)");
				KS_TF(&tb, "viger ikke for den flygtende %s",
				      "does not give way to the fleeing %s", u->id);
				ks_apply_grade(ctx, b, KS_FU, "revet med", NULL, &tb);
				ks_keep_retreat_along(ctx, b, u);
				ks_result(ctx, e->seq, b, NULL, &tb);
				ks_text_release(&tb);
			} else {
				ks_text_add(&t, " og viger til siden (17)", " and gives way (17)");
			}
		}
		if (w)
			err = flee_into(ctx, e, u, w, &t);
	}
	if (!err)
		ks_result(ctx, e->seq, u, NULL, &t);
	ks_text_release(&t);
	return err;
}

/* 6.5 "Hvis en enhed under spillet bliver U: skal den retirere et halvt
 * træk FU: skal den flygte et halvt træk i det træk den bliver påvirket"
 * (K27): the half turn owed, where the referee says it went.  A unit that
 * does not owe it now (it won the melee its event was recorded after) does
 * not move: not carried out, and its result says why. */
static void retreat(struct ord_ctx *ctx, const struct ord_event *e)
{
	struct ks_rules *r = ks_r(ctx);
	struct ord_unit *u = ks_ev_unit(ctx, e, "unit");
	int turn = ord_ctx_turn(ctx), grade = ks_moral_now(ctx, u), had = ks_st_has(ctx, u, "x");
	const char *x = ord_kv_get(&e->kv, "x"), *y = ord_kv_get(&e->kv, "y");
	double x0 = ks_st_num(ctx, u, "x"), y0 = ks_st_num(ctx, u, "y");
	struct ks_text t;

	ks_text_init(&t);
	if (ks_st(ctx, u, "tvungen_traek") != turn || grade < KS_U) {
		KS_TF(&t, "ikke udført: %s er i %s og skylder ingen retræte i trækket (6.5)",
		      "not carried out: %s is in %s and owes no retreat this turn (6.5)", u->id,
		      ks_moral_name(grade));
		ks_result(ctx, e->seq, u, NULL, &t);
		ks_text_release(&t);
		return;
	}
	ks_text_add(&t, grade >= KS_FU ? "flygter et halvt træk (6.5)" : "retirerer et halvt træk (6.5)",
		    grade >= KS_FU ? "flees half a turn (6.5)" : "retreats half a turn (6.5)");
	if (x && y) {
		double x1 = ord_kv_get_num(&e->kv, "x", 0), y1 = ord_kv_get_num(&e->kv, "y", 0);
		ks_st_set_str(ctx, u, "x", x);
		ks_st_set_str(ctx, u, "y", y);
		ks_st_set(ctx, u, "bevaeget", turn);
		if (had)
			KS_TF(&t, ": %g cm til x=%s y=%s", ": %g cm to x=%s y=%s",
			      round(hypot(x1 - x0, y1 - y0) * 10) / 10, x, y);
		else
			KS_TF(&t, ": til x=%s y=%s (den havde ingen position)",
			      ": to x=%s y=%s (it had no position)", x, y);
		if (r->map) {
			ks_text_add(&t, " (", " (");
			ks_map_describe(r, x1, y1, &t);
			ks_text_add(&t, ")", ")");
		}
	}
	ks_result(ctx, e->seq, u, NULL, &t);
	ks_text_release(&t);
}

/* The men u has lost short of a whole figure (K5: "the rest carried"). */
static long carried_men(struct ord_ctx *ctx, const struct ord_unit *u)
{
	long per = (long)ks_param(ks_r(ctx), "mand_pr_figur");

	return per > 0 ? (ks_st(ctx, u, "tab_mand") + ks_st(ctx, u, "fanger")) % per : 0;
}

/* 6.2 "Sammenlægning": w merges into u.  Infantry: "Den sammenlagtes
 * enheds valeur er gennemsnittet af de sammenlagte enheders valeur", the
 * first volley "Hvis over ¾ af den sammenlagte enhed har 1. skydning";
 * cavalry: the first charge at the gallop "Hvis alle enheder ... har 1.
 * angreb i storm"; 6.7: decimation's LU does not follow a unit merged into
 * a larger one, and if all the parts had lost over 25% its valeur is 1
 * below the average. */
static void merge(struct ord_ctx *ctx, const struct ord_event *e, struct ord_unit *u,
		  struct ord_unit *w)
{
	struct ks_rules *r = ks_r(ctx);
	struct ks_text t, tw;
	long fu = ks_st(ctx, u, "figurer"), fw = ks_st(ctx, w, "figurer"), fig = fu + fw;
	long vu = ks_st(ctx, u, "valeur"), vw = ks_st(ctx, w, "valeur");
	double avg = (vu + vw) / 2.0;
	long valeur = (long)floor(avg + 0.5);
	int both_dec = ks_st(ctx, u, "decimering") >= 1 && ks_st(ctx, w, "decimering") >= 1;
	int gu = ks_moral_now(ctx, u), gw = ks_moral_now(ctx, w);
	long cu = carried_men(ctx, u), cw = carried_men(ctx, w);

	if (ks_gone(ctx, u) || ks_gone(ctx, w))
		return;
	ks_text_init(&t);
	ks_text_init(&tw);
	KS_TF(&t, "sammenlagt med %s (6.2): %ld + %ld = %ld figurer; valeur (%ld + %ld) / 2",
	      "merged with %s (6.2): %ld + %ld = %ld figures; valeur (%ld + %ld) / 2", w->id, fu,
	      fw, fig, vu, vw);
	if (both_dec) {
		valeur -= (long)ks_param(r, "samling_decimeret_valeur");
		KS_TF(&t, " − %g (begge har mistet over %g%%, 6.7)", " − %g (both lost over %g%%, 6.7)",
		      ks_param(r, "samling_decimeret_valeur"), ks_param(r, "decimering_lu_pct"));
	}
	KS_TF(&t, " = %ld", " = %ld", valeur);
	if (ks_is(ctx, u, "infanteri")) {
		long with = (ks_st(ctx, u, "foerste_salve") ? fu : 0) +
			    (ks_st(ctx, w, "foerste_salve") ? fw : 0);
		int keeps = with > ks_param(r, "samling_salve_andel") * fig + 1e-9;
		ks_st_set(ctx, u, "foerste_salve", keeps);
		ord_buf_addf(&t.da, "; %ld af %ld figurer har 1. skydning: %s", with, fig,
			     keeps ? "den har 1. skydning" : "den har ikke 1. skydning");
		ord_buf_addf(&t.en, "; %ld of %ld figures have their first volley: %s", with, fig,
			     keeps ? "it has it" : "it has none");
	} else {
		int keeps = ks_st(ctx, u, "foerste_storm") && ks_st(ctx, w, "foerste_storm");
		ks_st_set(ctx, u, "foerste_storm", keeps);
		ord_buf_addf(&t.da, "; 1. angreb i storm: %s",
			     keeps ? "alle har det" : "ikke alle har det");
		ord_buf_addf(&t.en, "; first charge at the gallop: %s",
			     keeps ? "all have it" : "not all have it");
	}
	/* ammunition by figures, the worse morale (ours) */
	if (fig > 0)
		ks_st_set_num(ctx, u, "kampsatser",
			      (ks_st_num(ctx, u, "kampsatser") * fu +
			       ks_st_num(ctx, w, "kampsatser") * fw) /
				      fig);
	ks_st_set(ctx, u, "valeur", valeur);
	ks_st_set(ctx, u, "figurer", fig);
	/* its strength now is the merged unit's first (ours): losses from here */
	ks_st_set(ctx, u, "start_figurer", fig);
	ks_st_set(ctx, u, "tab_mand", 0);
	ks_st_set(ctx, u, "fanger", 0);
	ks_st_set(ctx, u, "efternoelere", 0);
	/* 6.2 "samles til en taktisk enhed": the merged unit has the men of
	 * both, so the men each had lost short of a whole figure (K5) are the
	 * merged unit's, and a figure goes when they make one (samling_tab_kontrol;
	 * a game made before it dropped them) */
	if (ks_check(r, "samling_tab_kontrol")) {
		long now;
		ks_take_men(ctx, u, cu + cw, 0);
		now = ks_st(ctx, u, "figurer");
		if (cu + cw) {
			KS_TF(&t, "; tab under en figur føres med: %ld + %ld = %ld mand",
			      "; losses short of a figure carried over: %ld + %ld = %ld men", cu,
			      cw, cu + cw);
			if (now < fig) {
				ord_buf_addf(&t.da, ", %ld %s mindre: %ld figurer", fig - now,
					     fig - now == 1 ? "figur" : "figurer", now);
				ord_buf_addf(&t.en, ", %ld %s fewer: %ld figures", fig - now,
					     fig - now == 1 ? "figure" : "figures", now);
			}
		}
	}
	if (ks_st(ctx, u, "decimering") < 2 && ks_st(ctx, w, "decimering") < 2)
		ks_st_set(ctx, u, "decimering", 0);
	else
		ks_st_set(ctx, u, "decimering", 2);
	if (gw > gu) {
		ks_set_moral(ctx, u, gw, 0, "samling", NULL);
		if (gw >= KS_U)
			ks_keep_retreat_along(ctx, u, w); /* w's state, w's way */
	}
	KS_TF(&t, "; moral %s", "; morale %s", ks_moral_name(ks_moral_now(ctx, u)));
	ks_st_set(ctx, w, "fjernet", 1);
	ks_st_set(ctx, w, "figurer", 0);
	ks_st_set_str(ctx, w, "samlet_i", u->id);
	KS_TF(&tw, "sammenlagt med %s (6.2)", "merged into %s (6.2)", u->id);
	ks_result(ctx, e->seq, u, NULL, &t);
	ks_result(ctx, e->seq, w, NULL, &tw);
	ks_text_release(&t);
	ks_text_release(&tw);
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
		if (art)
			ks_repair_end_of_turn(ctx, u);
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
				ord_buf_addf(&t.da,
					     "på flugt i %ld. træk: %d %s efternølere, %ld tilbage",
					     n, s, s == 1 ? "figur" : "figurer",
					     ks_st(ctx, u, "figurer"));
				ord_buf_addf(&t.en, "fleeing for the %ld%s turn: %d %s, %ld left", n,
					     n % 100 / 10 == 1 ? "th"
					     : n % 10 == 1     ? "st"
					     : n % 10 == 2     ? "nd"
					     : n % 10 == 3     ? "rd"
							       : "th",
					     s, s == 1 ? "figure straggles" : "figures straggle",
					     ks_st(ctx, u, "figurer"));
				ks_result(ctx, 0, u, NULL, &t);
				ks_text_reset(&t);
				ks_hob_when_small(ctx, u);
			}
			/* cavalry flees at stormmarch; if it may not, it is FU one turn
			 * more.  Cossacks flee "med samme marchhastighed som let
			 * kavaleri i stormmarch" (17): at its speed, not at a
			 * stormmarch of their own, which they never use (8.5) */
			if (ks_is(ctx, u, "kavaleri") && strcmp(ks_art(u), "kosakker")) {
				struct ord_buf why = ORD_BUF_INIT;
				if (ks_stormmarch_refused(ctx, u, &why)) {
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
				/* it fled at stormmarch (or as if it did) */
				if (ks_st(ctx, u, "foerste_storm")) {
					ks_text_add(&t, "flygter i stormmarch", "flees at stormmarch");
					ks_storm_spent(ctx, u, &t);
					ks_result(ctx, 0, u, NULL, &t);
					ks_text_reset(&t);
				}
				ord_buf_release(&why);
			}
		} else {
			ks_st_set(ctx, u, "flugt_traek", 0);
		}
		if (ks_st(ctx, u, "forfoelget_sidst") != turn)
			ks_st_set(ctx, u, "forfoelget_traek", 0);
		/* a stormmarch this turn with no charge made of it (a cancelled
		 * attack) has used the first one all the same */
		if (ks_st(ctx, u, "stormmarch_sidst") == turn && ks_st(ctx, u, "foerste_storm")) {
			ks_text_add(&t, "har benyttet stormmarch i trækket",
				    "used stormmarch this turn");
			ks_storm_spent(ctx, u, &t);
			ks_result(ctx, 0, u, NULL, &t);
			ks_text_reset(&t);
		}
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
		/* decimation (6.7): a battery's strength is its guns, and of the
		 * two rules only the U for over 50% lost is for it */
		{
			int start = art ? (int)ord_kv_get_int(&u->attrs, "kanoner", 0)
					: ks_start_figures(ctx, u);
			int now = art ? start - (int)ks_st(ctx, u, "oedelagt")
				      : (int)ks_st(ctx, u, "figurer");
			/* "over 25% af sin oprindelige styrke": its men, the
			 * losses short of a figure too (decimering_mand_kontrol;
			 * a game made before counted whole figures) */
			int per = (int)ks_param(r, "mand_pr_figur");
			int men = !art && per > 0 && ks_check(r, "decimering_mand_kontrol");
			int lvl;
			if (men)
				lvl = ks_decimation_men(r, start,
							ks_st(ctx, u, "tab_mand") +
								ks_st(ctx, u, "fanger") +
								ks_st(ctx, u, "efternoelere") * per,
							&start, &now);
			else
				lvl = ks_decimation(r, start, now);
			if (art && lvl < 2)
				lvl = 0;
			if (lvl > ks_st(ctx, u, "decimering")) {
				ks_st_set(ctx, u, "decimering", lvl);
				if (men)
					KS_TF(&t, "decimeret: over %g%% af den oprindelige styrke tabt (%d af %d mand): ",
					      "decimated: over %g%% of its first strength lost (%d of %d men): ",
					      ks_param(r, lvl >= 2 ? "decimering_u_pct"
								   : "decimering_lu_pct"),
					      start - now, start);
				else if (art)
					KS_TF(&t, "decimeret: over %g%% af den oprindelige styrke tabt (%d af %d kanoner ødelagt; artilleri er kun undtaget fra LU-reglen): ",
					      "decimated: over %g%% of its first strength lost (%d of %d guns destroyed; artillery is excepted from the LU rule only): ",
					      ks_param(r, "decimering_u_pct"), start - now, start);
				else
					KS_TF(&t, "decimeret: over %g%% af den oprindelige styrke tabt (%d af %d figurer): ",
					      "decimated: over %g%% of its first strength lost (%d of %d figures): ",
					      ks_param(r, lvl >= 2 ? "decimering_u_pct"
								   : "decimering_lu_pct"),
					      start - now, start);
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
			int engaged = ks_st(ctx, u, "naerkamp_traek") == turn ||
				      ks_st(ctx, u, "nabo_traek") == turn;
			int rested = ks_resting(ctx, u);
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
						ord_buf_addf(&t.da,
							     "%ld. træk i kamp: valeur falder til %ld",
							     ks_st(ctx, u, "kamp_traek"),
							     ks_st(ctx, u, "valeur"));
						ord_buf_addf(&t.en,
							     "%ld%s turn engaged: valeur falls to %ld",
							     ks_st(ctx, u, "kamp_traek"),
							     ks_ordinal_en(r, ks_st(ctx, u,
										    "kamp_traek")),
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
					ord_buf_addf(&t.da, "hvilet %ld træk: valeur stiger til %ld",
						     ks_st(ctx, u, "hvil_traek"),
						     ks_st(ctx, u, "valeur"));
					ord_buf_addf(&t.en, "rested %ld %s: valeur rises to %ld",
						     ks_st(ctx, u, "hvil_traek"),
						     ks_nword(r, ks_st(ctx, u, "hvil_traek"),
							      "turn", "turns"),
						     ks_st(ctx, u, "valeur"));
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
	/* "den U en enhed kommer i som følge af ovennævnte fortrydelser, kun
	 * gælder i selve trækket, ikke i næste" (16.6): the state it had
	 * until reorganised stands again (moral_varig_kontrol) */
	for (i = 0; i < ord_ctx_nunits(ctx); i++)
		if (!ks_gone(ctx, ord_ctx_unit(ctx, i)))
			ks_moral_under_back(ctx, ord_ctx_unit(ctx, i), h);
}

/* 16.5 "Afbrydelse af nærkamp": a melee broken off right after the roll
 * is over, so a tie of this turn that u fought (recorded before its
 * afbryd) goes on for none of its units: the two the melee names and
 * the escort it was fought against (forsvarsild_naerkamp_kontrol). */
static void broken_off(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_unit *u)
{
	int turn = ord_ctx_turn(ctx);
	size_t i;

	if (!ks_check(ks_r(ctx), "forsvarsild_naerkamp_kontrol"))
		return;
	for (i = 0; i < ord_ctx_unit_nevents(ctx, u); i++) {
		const struct ord_event *e = ord_ctx_unit_event(ctx, u, i);
		struct ord_unit *x[3];
		int k;
		if (e->seq > ev->seq || strcmp(e->kind, "naerkamp"))
			continue;
		x[0] = ks_ev_unit(ctx, e, "angriber");
		x[1] = ks_ev_unit(ctx, e, "forsvarer");
		if (x[0] != u && x[1] != u)
			continue;
		x[2] = x[0] && x[1] ? ks_melee_escort(ctx, NULL, x[0], x[1]) : NULL;
		for (k = 0; k < 3; k++)
			if (x[k] && ks_st(ctx, x[k], "naerkamp_uafgjort") == turn)
				ks_st_set(ctx, x[k], "naerkamp_uafgjort", 0);
	}
}

/* Is u's fortryd a defender's, not an attacker's (16.6)?  It declared a
 * defence this turn (reaktion=forsvar or modangreb) and no attack of its
 * own, which an attacker's fortryd cancels first (fortryd_forsvar_kontrol). */
int ks_defence_cancel(struct ord_ctx *ctx, const struct ord_unit *u)
{
	int turn = ord_ctx_turn(ctx);
	const char *re = ks_st_str(ctx, u, "reaktion");

	if (!ks_check(ks_r(ctx), "fortryd_forsvar_kontrol"))
		return 0; /* a game made before knew the attacker's alone */
	return ks_st(ctx, u, "angreb_traek") != turn && ks_st(ctx, u, "reaktion_traek") == turn &&
	       (!strcmp(re, "forsvar") || !strcmp(re, "modangreb"));
}

/* u attacked with løb this turn: LU after its attack action to the end
 * of the half turn after its løb, said when its state becomes so (not
 * over a U or FU, nor an LU that lasts longer, which ks_set_moral keeps) */
static void lu_after_attack_loeb(struct ord_ctx *ctx, struct ord_unit *u)
{
	int turn = ord_ctx_turn(ctx), h;
	long til = ks_st(ctx, u, "moral_til");
	char *was;
	struct ks_text t;

	if (ks_gone(ctx, u) || ks_st(ctx, u, "angreb_loeb") != turn ||
	    !ks_check(ks_r(ctx), "loeb_angreb_kontrol") || ks_moral_now(ctx, u) >= KS_U)
		return;
	h = ks_loeb_lu_until(ctx, u);
	was = ord_strdup(ks_st_str(ctx, u, "moral"));
	ks_set_moral(ctx, u, KS_LU, h, "løb", NULL);
	if (strcmp(was, ks_st_str(ctx, u, "moral")) || til != ks_st(ctx, u, "moral_til")) {
		ks_text_init(&t);
		ord_buf_addf(&t.da,
			     "angreb med løb: LU efter angrebshandlingen, til %s træk %d (løb; ikke under angrebshandlingen, 13)",
			     h % 2 ? "slutningen af" : "midt i", h / 2);
		ord_buf_addf(&t.en,
			     "attack with løb: LU after the attack, until %s of turn %d (løb; not during the attack, 13)",
			     h % 2 ? "the end" : "the middle", h / 2);
		ks_result(ctx, 0, u, NULL, &t);
		ks_text_release(&t);
	}
	free(was);
}

int ks_resolve_attacks(struct ord_ctx *ctx)
{
	size_t i, n = ord_ctx_nevents(ctx);
	int err = 0, pass;
	struct supports ix;

	supports_index(ctx, &ix);

	/* defensive canister comes before the attacks go in; cancelled attacks
	 * next; then the melees, breaking off and flight in the order recorded */
	for (pass = 0; pass < 3 && !err; pass++) {
		for (i = 0; i < n && !err; i++) {
			const struct ord_event *e = ord_ctx_event(ctx, i);
			struct ord_unit *u = ks_ev_unit(ctx, e, "unit");
			struct ks_text t;
			if (pass == 0 && !strcmp(e->kind, "forsvarsild")) {
				struct ks_hit h;
				if (ks_not_carried_out(ctx, e)) /* umulig_kontrol */
					continue;
				memset(&h, 0, sizeof(h));
				if ((err = ks_fire_artillery(ctx, e, &h, 1)) != 0)
					break;
				if (!h.target) /* no gun could fire: nothing happened */
					continue;
				ks_text_init(&t);
				KS_TF(&t, "forsvarsskydning fra %s", "defensive fire from %s", u->id);
				if (h.men) {
					ks_take_men(ctx, h.target, h.men, 0);
					KS_TF(&t, ": %d mand tabt", ": %d men lost", h.men);
				}
				ks_apply_grade(ctx, h.target, h.grade, "forsvarsild", u, &t);
				ks_hit_result(ctx, &h, 0, 0, &t);
				ks_text_release(&t);
			} else if (pass == 1 && !strcmp(e->kind, "fortryd") &&
				   ks_defence_cancel(ctx, u)) {
				/* "Ønsker forsvarer, efter at have erklæret forsvar, at
				 * retirere, kan enheden gøre dette efter reaktionstid.
				 * Enheden er U resten af trækket" (16.6): its
				 * declaration no longer stands */
				ks_text_init(&t);
				ks_set_moral(ctx, u, KS_U, ks_half(ctx, 1), "fortrydelse", NULL);
				ks_st_set_str(ctx, u, "reaktion", "");
				ks_text_add(&t, "fortryder forsvaret: retirerer efter reaktionstid og er U resten af trækket (kan den nås, må den tåle rygangreb)",
					    "cancels its defence: retreats after reaction time and is U for the rest of the turn (if the attacker reaches it, it may suffer an attack in the rear)");
				ks_result(ctx, e->seq, u, NULL, &t);
				ks_text_release(&t);
			} else if (pass == 1 && !strcmp(e->kind, "fortryd")) {
				/* U for the rest of this turn only (16.6) */
				ks_text_init(&t);
				ks_set_moral(ctx, u, KS_U, ks_half(ctx, 1), "fortrydelse", NULL);
				ks_st_set(ctx, u, "angreb_traek", 0);
				ks_text_add(&t, "fortryder angrebet: rykker et halvt træk frem og er U resten af trækket",
					    "cancels its attack: advances half a turn and is U for the rest of the turn");
				ks_result(ctx, e->seq, u, NULL, &t);
				ks_text_release(&t);
			} else if (pass == 2 &&
				   (!strcmp(e->kind, "naerkamp") || !strcmp(e->kind, "flugt") ||
				    !strcmp(e->kind, "samling")) &&
				   ks_not_carried_out(ctx, e)) {
				/* with itself or the wrong side, a merge of a
				 * battery or of two arms (umulig_kontrol): no
				 * dice, nothing changed but its result */
			} else if (pass == 2) {
				if (!strcmp(e->kind, "naerkamp")) {
					err = melee(ctx, &ix, e);
				} else if (!strcmp(e->kind, "afbryd") && ks_british_held(ctx, u)) {
					/* out of control by this turn's melee: the
					 * event was taken before its die */
					ks_text_init(&t);
					KS_TF(&t, "britisk kavaleri ude af kontrol til og med træk %ld: afbryder ikke nærkampen (8.4)",
					      "British cavalry out of control until turn %ld: does not break off the melee (8.4)",
					      ks_st(ctx, u, "britisk_kontrol_til"));
					ks_result(ctx, e->seq, u, NULL, &t);
					ks_text_release(&t);
				} else if (!strcmp(e->kind, "afbryd")) {
					broken_off(ctx, e, u);
					ks_text_init(&t);
					ks_text_add(&t, "afbryder nærkampen og retirerer mindst ud af indbrudsafstand",
						    "breaks off the melee and retreats at least out of break-in distance");
					ks_result(ctx, e->seq, u, NULL, &t);
					ks_text_release(&t);
				} else if (!strcmp(e->kind, "flugt")) {
					err = flight(ctx, e);
				} else if (!strcmp(e->kind, "retraete")) {
					retreat(ctx, e);
				} else if (!strcmp(e->kind, "samling")) {
					merge(ctx, e, u, ks_ev_unit(ctx, e, "med"));
				}
			}
		}
	}
	/* 17.2: "Angribes en enhed i FU skal den overgive sig hvis ... Den
	 * ikke kan flygte pga. hindringer eller fjendtlige enheder" (17.3's
	 * shorter restatement read the same: attacked, and unable to flee) */
	for (i = 0; i < ord_ctx_nunits(ctx) && !err; i++) {
		struct ord_unit *u = ord_ctx_unit(ctx, i);
		int turn = ord_ctx_turn(ctx);
		if (!ks_gone(ctx, u) && ks_st(ctx, u, "flugt_blokeret") == turn &&
		    ks_st(ctx, u, "angrebet_fu_traek") == turn)
			surrender(ctx, u, 0, "angrebet i FU og kan ikke flygte",
				  "attacked in FU and cannot flee");
	}
	/* 13: "En enhed er LU et halvt træk efter løb i linie. Hvis løb i
	 * linie benyttes for at angribe, er enheden ikke LU under
	 * angrebshandlingen": not during the attack, so the LU of its løb
	 * comes after it, for what is left of the half turn after the løb
	 * (loeb_angreb_kontrol; a game made before gave none) */
	for (i = 0; i < ord_ctx_nunits(ctx) && !err; i++)
		lu_after_attack_loeb(ctx, ord_ctx_unit(ctx, i));
	supports_release(&ix);
	if (!err)
		end_of_turn(ctx);
	return err;
}
