/*
 * units.c - what the krigsspil module's files read of units and orders
 * (ks.h): attributes and state (through the core's ord_state_*), arms and
 * formations, figures, morale now and its duration (K2, K4), losses (K5),
 * the ordre notation's groups of an order line, and results in both
 * languages.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rulesets/krigsspil/ks.h"

/* ---- units ---- */

struct ks_rules *ks_r(struct ord_ctx *ctx)
{
	return ks_rules(ord_ctx_rules(ctx));
}

long ks_st(struct ord_ctx *ctx, const struct ord_unit *u, const char *key)
{
	return ord_state_int(ctx, u, key);
}

double ks_st_num(struct ord_ctx *ctx, const struct ord_unit *u, const char *key)
{
	return ord_state_num(ctx, u, key);
}

const char *ks_st_str(struct ord_ctx *ctx, const struct ord_unit *u, const char *key)
{
	return ord_state_str(ctx, u, key);
}

int ks_st_has(struct ord_ctx *ctx, const struct ord_unit *u, const char *key)
{
	return ord_state_has(ctx, u, key);
}

void ks_st_set(struct ord_ctx *ctx, struct ord_unit *u, const char *key, long v)
{
	ord_state_set_int(ctx, u, key, v);
}

void ks_st_set_num(struct ord_ctx *ctx, struct ord_unit *u, const char *key, double v)
{
	ord_state_set_num(ctx, u, key, v);
}

void ks_st_set_str(struct ord_ctx *ctx, struct ord_unit *u, const char *key, const char *v)
{
	ord_state_set_str(ctx, u, key, v);
}

const char *ks_attr(const struct ord_unit *u, const char *name)
{
	const struct ord_key_spec *k;
	const char *v = ord_kv_get(&u->attrs, name);

	if (v)
		return v;
	for (k = ord_ruleset_krigsspil.unit_attrs; k->name; k++)
		if (!strcmp(k->name, name))
			return k->def ? k->def : "";
	return "";
}

const char *ks_art(const struct ord_unit *u)
{
	const char *a = ord_kv_get(&u->attrs, "art");
	return a ? a : "";
}

const char *ks_vaaben(struct ord_ctx *ctx, const struct ord_unit *u)
{
	return ks_arm_vaaben(ks_r(ctx), ks_art(u));
}

const char *ks_arm_name(struct ord_ctx *ctx, const struct ord_unit *u)
{
	const struct ord_row *row;

	if (ks_arm(ks_r(ctx), ks_art(u), &row)) {
		ord_error_clear();
		return ks_art(u);
	}
	return ord_row_str(row, "navn");
}

const char *ks_klasse(struct ord_ctx *ctx, const struct ord_unit *u)
{
	const struct ord_row *row;

	if (ks_arm(ks_r(ctx), ks_art(u), &row)) {
		ord_error_clear();
		return "";
	}
	return ord_row_str(row, "klasse");
}

int ks_is(struct ord_ctx *ctx, const struct ord_unit *u, const char *vaaben)
{
	return !strcmp(ks_vaaben(ctx, u), vaaben);
}

const char *ks_form(struct ord_ctx *ctx, const struct ord_unit *u)
{
	const char *f = ord_state_str(ctx, u, "formation");
	return *f ? f : "linie";
}

int ks_closed(struct ord_ctx *ctx, const struct ord_unit *u, const char *formation)
{
	return ks_formation_closed(ks_r(ctx), formation ? formation : ks_form(ctx, u),
				   ks_vaaben(ctx, u));
}

int ks_cossack_closed(struct ord_ctx *ctx, const struct ord_unit *u, const char *formation)
{
	if (!formation)
		formation = ks_form(ctx, u);
	return !strcmp(ks_art(u), "kosakker") && ks_closed(ctx, u, formation) &&
	       strcmp(formation, "marchkolonne");
}

int ks_cover_at(const struct ks_rules *r, double x, double y)
{
	const struct ks_plate *p = r->map ? ks_map_at(r->map, x, y) : NULL;
	const struct ord_row *row = p ? ks_terrain_row(r, p->terrain) : NULL;
	const char *cover = row ? ord_row_str(row, "daekning") : "";

	return !strcmp(cover, "let") || !strcmp(cover, "god");
}

int ks_in_cover(struct ord_ctx *ctx, const struct ord_unit *u, const char *flags)
{
	struct ord_kv f;
	int given;

	ord_kv_init(&f);
	ks_referee_flags(flags, &f);
	given = ord_kv_get_bool(&f, "daekning_let", 0) || ord_kv_get_bool(&f, "daekning_god", 0);
	ord_kv_release(&f);
	if (given)
		return 1;
	return ks_st_has(ctx, u, "x") &&
	       ks_cover_at(ks_r(ctx), ks_st_num(ctx, u, "x"), ks_st_num(ctx, u, "y"));
}

int ks_cossack_swarm(struct ord_ctx *ctx, const struct ord_unit *u, const char *formation)
{
	if (!formation)
		formation = ks_form(ctx, u);
	return !strcmp(ks_art(u), "kosakker") && !strncmp(formation, "svaerm", 6);
}

const char *ks_nation(const struct ord_unit *u)
{
	const char *n = ord_kv_get(&u->attrs, "nation");
	return n ? n : "ukendt";
}

int ks_british(const struct ord_unit *u)
{
	const char *n = ord_kv_get(&u->attrs, "nation");
	return n && (!strcmp(n, "britisk") || !strcmp(n, "engelsk"));
}

int ks_pieces(struct ord_ctx *ctx, const struct ord_unit *u)
{
	double per = ks_param(ks_r(ctx), "kanoner_pr_piece");
	long guns = ord_kv_get_int(&u->attrs, "kanoner", 0);

	return per > 0 ? (int)ceil(guns / per) : (int)guns;
}

double ks_ammo_issue(struct ord_ctx *ctx, const struct ord_unit *u)
{
	struct ks_rules *r = ks_r(ctx);
	double issue = ks_is(ctx, u, "infanteri") ? ks_param(r, "infanteri")
		       : ord_kv_get_bool(&u->attrs, "karabiner", 0)
			       ? ks_param(r, "kavaleri_karabiner")
			       : 0;

	/* the issue is the Skema's (7.2.1, 8.2.1): a scenario's kampsatser is
	 * what the unit has at the start, not what a resupply brings (6.8) */
	return issue;
}

int ks_battery_fires(struct ord_ctx *ctx, const struct ord_unit *u)
{
	return ks_ordered(ctx, u, "artilleriskydning") || ks_ordered(ctx, u, "forsvarsskydning") ||
	       ks_ordered(ctx, u, "indskydning");
}

long ks_repair_cap(struct ord_ctx *ctx, const struct ord_unit *u)
{
	return (long)ks_param(ks_r(ctx), "reparation_ved_skydning") * ks_pieces(ctx, u);
}

const char *ks_resupply_param(struct ord_ctx *ctx, const struct ord_unit *u)
{
	return ks_is(ctx, u, "infanteri") && ord_kv_get_bool(&u->attrs, "kompagni", 0)
		       ? "genforsyning_traek_kompagni"
		       : "genforsyning_traek";
}

int ks_resupply_turns(struct ord_ctx *ctx, const struct ord_unit *u)
{
	return (int)ks_param(ks_r(ctx), ks_resupply_param(ctx, u));
}

int ks_figures(struct ord_ctx *ctx, const struct ord_unit *u)
{
	if (ks_is(ctx, u, "artilleri")) {
		long guns = ks_st(ctx, u, "kanoner");
		double per = ks_param(ks_r(ctx), "kanoner_pr_piece");
		int pieces = per > 0 ? (int)ceil(guns / per) : (int)guns;
		return pieces * (int)ks_param(ks_r(ctx), "besaetning_figurer_pr_piece");
	}
	return (int)ks_st(ctx, u, "figurer");
}

int ks_start_figures(struct ord_ctx *ctx, const struct ord_unit *u)
{
	if (ks_is(ctx, u, "artilleri"))
		return ks_pieces(ctx, u) * (int)ks_param(ks_r(ctx), "besaetning_figurer_pr_piece");
	/* a unit merged from others: its strength at the merge (K17) */
	if (ks_st(ctx, u, "start_figurer") > 0)
		return (int)ks_st(ctx, u, "start_figurer");
	return (int)ord_kv_get_int(&u->attrs, "figurer", 0);
}

int ks_gone(struct ord_ctx *ctx, const struct ord_unit *u)
{
	return ks_st(ctx, u, "overgivet") || ks_st(ctx, u, "fjernet");
}

void ks_gone_why(struct ord_ctx *ctx, const struct ord_unit *u, struct ord_buf *why, const char **rule)
{
	*rule = "17";
	if (ks_st(ctx, u, "overgivet")) {
		ord_buf_adds(why, "has surrendered");
	} else if (*ks_st_str(ctx, u, "samlet_i")) {
		*rule = "6.2";
		ord_buf_addf(why, "was merged into '%s'", ks_st_str(ctx, u, "samlet_i"));
	} else {
		ord_buf_adds(why, "is out of the game");
	}
}

const char *ks_reason(const char *why, const char *lang)
{
	static const char *const words[][2] = {
		{ "formationsændring", "change of formation" },
		{ "frontændring", "change of front" },
		{ "hindring", "obstacle" },
		{ "løb", "løb" },
		{ "stormmarch", "stormmarch" },
		{ "ild", "fire" },
		{ "nærkamp", "melee" },
		{ "fortrydelse", "cancelled attack" },
		{ "ubedækket", "unescorted" },
		{ "eksplosion", "explosion" },
		{ "forsvarsild", "defensive fire" },
		{ "start", "at the start" },
		{ "gennemmarch", "marching through" },
		{ "revet med", "carried along" },
		{ "indbrud", "within break-in distance" },
		{ "samling", "merging" },
	};
	size_t i;

	if (!why || !lang || strcmp(lang, "en"))
		return why ? why : "";
	for (i = 0; i < ORD_ARRAY_SIZE(words); i++)
		if (!strcmp(why, words[i][0]))
			return words[i][1];
	return why;
}

const char *ks_formation_name(struct ord_ctx *ctx, const struct ord_unit *u, const char *formation,
			      const char *lang)
{
	const struct ord_row *row;

	/* the unit's arm's row, else any: a formation the arm cannot form is
	 * still named as the rules spell it ("karré", not "karre") */
	if (ks_formation(ks_r(ctx), formation, ks_vaaben(ctx, u), &row) &&
	    ord_table_find1(&row, ks_table(ks_r(ctx), "formationer"), "formation", formation)) {
		ord_error_clear();
		return formation;
	}
	ord_error_clear();
	return ord_row_str(row, lang && !strcmp(lang, "en") ? "navn_en" : "navn");
}

int ks_half(struct ord_ctx *ctx, int second_half)
{
	return 2 * ord_ctx_turn(ctx) + (second_half ? 1 : 0);
}

int ks_resting(struct ord_ctx *ctx, const struct ord_unit *u)
{
	const struct ord_order *o = ord_ctx_order(ctx, u);
	struct ks_group g[KS_MAX_GROUPS];
	size_t n = ks_groups(o, g, KS_MAX_GROUPS);
	int turn = ord_ctx_turn(ctx);

	/* a unit that supported this turn has not rested (hvil_stoette_kontrol;
	 * a game made before counted a support's turn as rest) */
	return ks_find(g, n, "hvil") && ks_st(ctx, u, "naerkamp_traek") != turn &&
	       ks_st(ctx, u, "nabo_traek") != turn && ks_st(ctx, u, "skoed") != turn &&
	       ks_st(ctx, u, "bevaeget") != turn &&
	       !(ks_st(ctx, u, "stoette_traek") == turn && ks_check(ks_r(ctx), "hvil_stoette_kontrol"));
}

int ks_moral_at(struct ord_ctx *ctx, const struct ord_unit *u, int h, struct ks_text *why)
{
	int grade = ks_moral_parse(ks_st_str(ctx, u, "moral"));
	long til = ks_st(ctx, u, "moral_til");
	long dec = ks_st(ctx, u, "decimering");
	int turn = ord_ctx_turn(ctx);

	if (grade < 0)
		grade = KS_OR;
	if (grade > KS_OR && til && til < h)
		grade = KS_OR;
	if (why && grade > KS_OR) {
		const char *g = ks_st_str(ctx, u, "moral_grund");
		ord_buf_addf(&why->da, "%s%s", g, *g ? ", " : "");
		ord_buf_addf(&why->en, "%s%s", ks_reason(g, "en"), *g ? ", " : "");
		if (til) {
			ord_buf_addf(&why->da, "til %s træk %ld",
				     til % 2 ? "slutningen af" : "midt i", til / 2);
			ord_buf_addf(&why->en, "until %s of turn %ld",
				     til % 2 ? "the end" : "the middle", til / 2);
		} else if (dec >= 2 && grade == KS_U && ks_check(ks_r(ctx), "decimering_u_kontrol")) {
			/* "kan ikke reorganiseres" (6.7): not "until reorganised" */
			ks_text_add(why, "decimeret, resten af slaget",
				    "decimated, for the rest of the battle");
		} else {
			ks_text_add(why, "til den reorganiseres", "until reorganised");
		}
	}
	/* decimation: over 25% lost LU for the rest of the battle, unless it
	 * is artillery, or in a turn it rests or won a melee that sent its
	 * enemy into FU; over 50% U, with no exception (6.7: the exceptions
	 * follow the LU rule alone).  A rest counts while the turn it is
	 * ordered lasts, as long as nothing broke it (hvil_decimering_kontrol;
	 * a game made before knew it only once the turn was over, when the
	 * next began: the exception never held in a phase) */
	if (dec) {
		int floor_grade = dec >= 2 ? KS_U : KS_LU;
		int excused = dec == 1 &&
			      (ks_is(ctx, u, "artilleri") || ks_st(ctx, u, "vandt_fu_traek") == turn ||
			       ks_st(ctx, u, "hvilede_traek") == turn ||
			       (ks_check(ks_r(ctx), "hvil_decimering_kontrol") && ks_resting(ctx, u)));
		if (!excused && floor_grade > grade) {
			grade = floor_grade;
			if (why)
				ks_text_add(why, "decimeret, resten af slaget",
					    "decimated, for the rest of the battle");
		}
	}
	/* cossacks in close order but march column are LU (8.5) */
	if (grade < KS_LU && ks_cossack_closed(ctx, u, NULL)) {
		grade = KS_LU;
		if (why)
			ks_text_add(why, "kosakker i sluttet formation", "cossacks in close order");
	}
	return grade;
}

/* British cavalry out of control (8.4) goes on fighting until it goes
 * into U or FU: the turn it stays in the melee or pursues to, or 0.  A
 * valeur under 4 ends it (8.3, "Falder en kavalerienheds valeur til under
 * 4 skal kavalerienheden afbryde kampen ... kan ikke angribe";
 * britisk_valeur_kontrol): our reading of the two rules' meeting. */
long ks_british_bound(struct ord_ctx *ctx, const struct ord_unit *u, const char **why)
{
	struct ks_rules *r = ks_r(ctx);
	long turn = ord_ctx_turn(ctx), control = ks_st(ctx, u, "britisk_kontrol_til"),
	     pursue = ks_st(ctx, u, "britisk_forfoelg_til");

	if (!ks_british(u) || strcmp(ks_vaaben(ctx, u), "kavaleri") ||
	    ks_moral_now(ctx, u) >= KS_U || (control < turn && pursue < turn))
		return 0;
	if (ks_check(r, "britisk_valeur_kontrol") &&
	    ks_st(ctx, u, "valeur") < (long)ks_param(r, "valeur_min"))
		return 0;
	*why = control >= turn ? "stays in the melee" : "pursues its beaten enemy";
	return control >= turn ? control : pursue;
}

int ks_moral_now(struct ord_ctx *ctx, const struct ord_unit *u)
{
	return ks_moral_at(ctx, u, ks_half(ctx, 0), NULL);
}

/* The lasting state beneath a passing one (moral_varig_kontrol): its
 * grade ("" for none), reason and the turn it was set. */
static void keep_under(struct ord_ctx *ctx, struct ord_unit *u, const char *grade, const char *why,
		       long turn)
{
	ks_st_set_str(ctx, u, "moral_under", grade);
	ks_st_set_str(ctx, u, "moral_under_grund", why);
	ks_st_set(ctx, u, "moral_under_traek", turn);
}

void ks_moral_under_back(struct ord_ctx *ctx, struct ord_unit *u, int h)
{
	const char *under = ks_st_str(ctx, u, "moral_under");
	long til = ks_st(ctx, u, "moral_til");
	int grade = ks_moral_parse(ks_st_str(ctx, u, "moral"));
	struct ks_text t;
	char *was;

	if (!*under || !til || til > h)
		return;
	was = ord_strdup(ks_st_str(ctx, u, "moral_grund"));
	ks_text_init(&t);
	ord_buf_addf(&t.da,
		     "%s (%s) gælder kun i selve trækket: %s (%s) igen, til den reorganiseres (16.6)",
		     ks_moral_name(grade), was, under, ks_st_str(ctx, u, "moral_under_grund"));
	ord_buf_addf(&t.en, "%s (%s) holds for the turn only: %s (%s) again, until reorganised (16.6)",
		     ks_moral_name(grade), ks_reason(was, "en"), under,
		     ks_reason(ks_st_str(ctx, u, "moral_under_grund"), "en"));
	ks_st_set_str(ctx, u, "moral", under);
	ks_st_set(ctx, u, "moral_til", 0);
	ks_st_set_str(ctx, u, "moral_grund", ks_st_str(ctx, u, "moral_under_grund"));
	ks_st_set(ctx, u, "moral_traek", ks_st(ctx, u, "moral_under_traek"));
	keep_under(ctx, u, "", "", 0);
	ks_result(ctx, 0, u, NULL, &t);
	ks_text_release(&t);
	free(was);
}

void ks_set_moral(struct ord_ctx *ctx, struct ord_unit *u, int grade, int until, const char *why,
		  const struct ord_unit *from)
{
	int cur = ks_moral_parse(ks_st_str(ctx, u, "moral"));
	long til = ks_st(ctx, u, "moral_til");
	int h = ks_half(ctx, 0);

	if (cur < 0 || (cur > KS_OR && til && til < h))
		cur = KS_OR;
	if (grade < cur) {
		/* a lasting state under a passing worse one: it stands when
		 * that ends (moral_varig_kontrol; a game made before lost it) */
		if (!until && til && ks_check(ks_r(ctx), "moral_varig_kontrol") &&
		    grade > ks_moral_parse(ks_st_str(ctx, u, "moral_under")))
			keep_under(ctx, u, ks_moral_name(grade), why ? why : "", ord_ctx_turn(ctx));
		return;
	}
	if (grade == cur && cur > KS_OR && (!til || (until && until <= til)))
		return; /* already as bad for as long */
	if (ks_check(ks_r(ctx), "moral_varig_kontrol")) {
		if (until && !til && cur > KS_OR)
			/* a passing state over a lasting one (16.6: the U of a
			 * cancelled attack over an LU until reorganised) */
			keep_under(ctx, u, ks_moral_name(cur), ks_st_str(ctx, u, "moral_grund"),
				   ks_st(ctx, u, "moral_traek"));
		else if (!until && grade >= ks_moral_parse(ks_st_str(ctx, u, "moral_under")))
			keep_under(ctx, u, "", "", 0); /* the new lasting state covers it */
	}
	ks_st_set_str(ctx, u, "moral", ks_moral_name(grade));
	ks_st_set(ctx, u, "moral_til", grade == KS_OR ? 0 : until);
	ks_st_set_str(ctx, u, "moral_grund", why ? why : "");
	ks_st_set(ctx, u, "moral_traek", ord_ctx_turn(ctx));
	/* the way its retreat by the rules goes, with the state that
	 * obliges it (flyt_retning_tvungen_kontrol) */
	if (grade >= KS_U)
		ks_keep_retreat_way(ctx, u, from);
	/* 6.5: it owes a half turn's retreat or flight in this turn, unless
	 * the state holds for the rest of the turn only (16.6) or is a
	 * merge's (K27, retraete_samme_traek_kontrol) */
	if (grade >= KS_U && !until && strcmp(why ? why : "", "samling") &&
	    ks_check(ks_r(ctx), "retraete_samme_traek_kontrol"))
		ks_st_set(ctx, u, "tvungen_traek", ord_ctx_turn(ctx));
}

void ks_take_men(struct ord_ctx *ctx, struct ord_unit *u, long men, long prisoners)
{
	struct ks_rules *r = ks_r(ctx);
	long lost, before;
	int start;

	if (men < 0)
		men = 0;
	if (prisoners < 0)
		prisoners = 0;
	if (!men && !prisoners)
		return;
	ks_st_set(ctx, u, "tab_mand", ks_st(ctx, u, "tab_mand") + men);
	ks_st_set(ctx, u, "fanger", ks_st(ctx, u, "fanger") + prisoners);
	if (prisoners)
		ks_st_set(ctx, u, "fanger_traek", ord_ctx_turn(ctx));
	if (ks_is(ctx, u, "artilleri"))
		return; /* a battery's crew does not count (1.3): materiel instead */
	start = ks_start_figures(ctx, u);
	lost = ks_st(ctx, u, "tab_mand") + ks_st(ctx, u, "fanger");
	before = ks_st(ctx, u, "figurer");
	{
		int now = ks_figures_after(r, start, lost) - (int)ks_st(ctx, u, "efternoelere");
		if (now < 0)
			now = 0;
		if (now > before)
			now = (int)before;
		ks_st_set(ctx, u, "figurer", now);
	}
	ks_hob_when_small(ctx, u);
}

void ks_hob_when_small(struct ord_ctx *ctx, struct ord_unit *u)
{
	struct ks_rules *r = ks_r(ctx);
	const char *f = ks_form(ctx, u);
	int fig = ks_figures(ctx, u);
	struct ks_text t;

	if (!ks_check(r, "hob_kontrol") || (strcmp(f, "karre") && strcmp(f, "bataillonsmasse")) ||
	    fig < 1 || fig >= (int)ks_param(r, "hob_under"))
		return;
	ks_text_init(&t);
	ord_buf_addf(&t.da, "%s på %d figurer: under %g figurer en hob (11.8)",
		     ks_formation_name(ctx, u, f, "da"), fig, ks_param(r, "hob_under"));
	ord_buf_addf(&t.en, "%s of %d figures: under %g figures a hob (11.8)",
		     ks_formation_name(ctx, u, f, "en"), fig, ks_param(r, "hob_under"));
	ks_st_set_str(ctx, u, "formation", "hob");
	ks_result(ctx, 0, u, NULL, &t);
	ks_text_release(&t);
}

/* ---- orders: the ordre notation's groups ---- */

size_t ks_groups(const struct ord_order *o, struct ks_group *g, size_t max)
{
	size_t i, n = 0;
	int after = 0;

	for (i = 0; o && i < o->ntok; i++) {
		const struct ord_token *t = &o->tok[i];
		if (t->kind == ORD_TOK_CODE) {
			if (n && n <= max)
				g[n - 1].end = i;
			if (!strcmp(t->value, "ordreaendring"))
				after = 1;
			if (n < max) {
				g[n].code = t->value;
				g[n].tok = t;
				g[n].first = i;
				g[n].end = o->ntok;
				g[n].after_change = after && strcmp(t->value, "ordreaendring");
			}
			n++;
		}
	}
	if (n && n <= max)
		g[n - 1].end = o->ntok;
	return n < max ? n : max;
}

const char *ks_grp_arg(const struct ord_order *o, const struct ks_group *g, const char *slot)
{
	size_t i;

	for (i = g->first; i < g->end; i++)
		if (o->tok[i].kind == ORD_TOK_ARG && o->tok[i].arg && !strcmp(o->tok[i].arg, slot))
			return o->tok[i].value;
	return NULL;
}

const struct ord_token *ks_grp_tok(const struct ord_order *o, const struct ks_group *g,
				   enum ord_tok_kind kind)
{
	size_t i;

	for (i = g->first; i < g->end; i++)
		if (o->tok[i].kind == kind)
			return &o->tok[i];
	return NULL;
}

int ks_grp_quarters(struct ord_ctx *ctx, const struct ord_order *o, const struct ks_group *g)
{
	const struct ord_token *f = ks_grp_tok(o, g, ORD_TOK_FRAC);
	const struct ord_row *row;
	struct ord_kv m;
	double q = 0;

	if (f)
		return f->num;
	/* what the order lasts without a fraction: the table ordre_varighed */
	ord_kv_init(&m);
	ord_kv_set(&m, "ordre", g->code);
	if (ord_table_find(&row, ks_table(ks_r(ctx), "ordre_varighed"), &m) ||
	    ord_row_num(row, "kvarte", &q))
		q = 0;
	ord_error_clear();
	ord_kv_release(&m);
	return (int)q;
}

int ks_grp_hex(const struct ord_order *o, const struct ks_group *g, int *q, int *r)
{
	const char *h = ks_grp_arg(o, g, "hex");

	return h && sscanf(h, "%d,%d", q, r) == 2;
}

const struct ks_group *ks_find(const struct ks_group *g, size_t n, const char *code)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(g[i].code, code))
			return &g[i];
	return NULL;
}

/*
 * The formation and density of the group as the module's notation reads
 * them (its word_value, notation.h): "skyttekaede" "tynd" is
 * skyttekaede_tynd, "karre" karre.  A chain or swarm of no density is
 * dense (11, "Ved tvivlsspørgsmål regnes enheden altid at være i den
 * tætteste formation"): the notation gives an open order that states none
 * the density its table of densities marks so (ordre: skyttekaede_taet),
 * the rule stated there once, not here.  What the notation reads as none
 * of its words (no formation: "") as written.
 */
void ks_grp_formation(const struct ord_order *o, const struct ks_group *g, char *out, size_t n)
{
	const char *f = ks_grp_arg(o, g, "formation"), *d = ks_grp_arg(o, g, "density");
	const struct ord_notation *nt = NULL;
	struct ord_buf w = ORD_BUF_INIT, v = ORD_BUF_INIT;

	ord_buf_addf(&w, "%s%s%s", f ? f : "", d ? "_" : "", d ? d : "");
	if (ord_notation_find(&nt, ord_ruleset_krigsspil.notation) != 0)
		ord_error_clear();
	if (nt && ORD_NOTATION_HAS(nt, 3) && nt->word_value && nt->word_value(&v, w.buf))
		snprintf(out, n, "%s", v.buf);
	else
		snprintf(out, n, "%s", w.buf);
	ord_buf_release(&v);
	ord_buf_release(&w);
}

int ks_ordered(struct ord_ctx *ctx, const struct ord_unit *u, const char *code)
{
	const struct ord_order *o = ord_ctx_order(ctx, u);
	struct ks_group g[KS_MAX_GROUPS];
	size_t n = ks_groups(o, g, KS_MAX_GROUPS);

	return ks_find(g, n, code) != NULL;
}

const char *ks_ordered_arg(struct ord_ctx *ctx, const struct ord_unit *u, const char *code,
			   const char *slot)
{
	const struct ord_order *o = ord_ctx_order(ctx, u);
	struct ks_group g[KS_MAX_GROUPS];
	size_t n = ks_groups(o, g, KS_MAX_GROUPS);
	const struct ks_group *k = ks_find(g, n, code);

	return k ? ks_grp_arg(o, k, slot) : NULL;
}

const struct ks_group *ks_ordered_at(struct ord_ctx *ctx, const struct ord_unit *u,
				     const char *code, const struct ord_unit *t,
				     const struct ord_order **op, struct ks_group *g, size_t *np)
{
	const struct ord_order *o = ord_ctx_order(ctx, u);
	size_t n = ks_groups(o, g, KS_MAX_GROUPS), i;
	const struct ks_group *any = NULL;

	*op = o;
	*np = n;
	for (i = 0; i < n; i++) {
		const struct ord_token *tt;
		if (strcmp(g[i].code, code))
			continue;
		any = &g[i];
		tt = ks_grp_tok(o, &g[i], ORD_TOK_TARGET);
		if (tt && t && ord_ctx_find_unit(ctx, tt->value) == t)
			return &g[i];
		if (!tt && t && ks_st_has(ctx, t, "x") && ks_r(ctx)->map) {
			int q, rr, tq, tr;
			if (ks_grp_hex(o, &g[i], &q, &rr)) {
				ks_map_axial(ks_r(ctx)->map, ks_st_num(ctx, t, "x"),
					     ks_st_num(ctx, t, "y"), &tq, &tr);
				if (q == tq && rr == tr)
					return &g[i];
			}
		}
	}
	return any && !t ? any : NULL;
}

int ks_ordered_half(struct ord_ctx *ctx, const struct ord_unit *u, const char *code,
		    const struct ord_unit *t)
{
	struct ks_group g[KS_MAX_GROUPS];
	const struct ord_order *o;
	size_t n;
	const struct ks_group *f = ks_ordered_at(ctx, u, code, t, &o, g, &n);
	int q;

	/* a fire at another target than the sheet's (recorded with
	 * --override): the time of the sheet's fire */
	if (!f)
		f = ks_find(g, n, code);
	if (!f || (q = ks_grp_quarters(ctx, o, f)) <= 0)
		return -1;
	return q < (int)ks_param(ks_r(ctx), "kvarte_pr_traek");
}

void ks_result(struct ord_ctx *ctx, unsigned seq, const struct ord_unit *u,
	       const struct ord_kv *vals, struct ks_text *t)
{
	struct ord_kv texts;

	ks_text_mark(t);
	ord_kv_init(&texts);
	ks_text_langs(t, &texts);
	ord_ctx_result_texts(ctx, seq, u ? u->id : "", vals, &texts);
	ord_kv_release(&texts);
}
