/*
 * validate.c - the krigsspil module's checks of an order sheet against the
 * rules and the units' state (validate_sheet): each order line group by
 * group, as the line leaves the unit, and what a march crosses on the map;
 * events.c checks the referee's events and the execution.
 *
 * Every problem names the line and column of the order (sheets) and the
 * rule's paragraph.  The transcript lost most subsection digits, so a
 * paragraph is cited as far as the text keeps it ("13 stormmarch",
 * "4.3.4", "8.5").  Messages are English with the rules' Danish terms, as
 * the notation's own messages are (orders/ordre/README.md).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rulesets/krigsspil/ks.h"

/* ---- which arm may take which order symbol ---- */

static const struct {
	const char *code;
	const char *vaaben; /* space-separated */
	const char *symbol; /* as the player writes it, for messages */
} code_arms[] = {
	{ "march", "infanteri kavaleri artilleri", "M" },
	{ "stormmarch", "kavaleri artilleri", "SM" },
	{ "loeb", "infanteri", "L" },
	{ "angreb", "infanteri kavaleri", "A" },
	{ "forsvar", "infanteri kavaleri artilleri", "F" },
	{ "modangreb", "infanteri kavaleri", "MA" },
	{ "tilbagetog", "infanteri kavaleri artilleri", "TT" },
	{ "skydning", "infanteri kavaleri", "S" },
	{ "artilleriskydning", "artilleri", "AS" },
	{ "forsvarsskydning", "artilleri", "FS" },
	{ "indskydning", "artilleri", "IS" },
	{ "koordination", "artilleri", "KO" },
	{ "ophoer", "infanteri kavaleri artilleri", "OPH" },
	{ "afprodsning", "artilleri", "AP" },
	{ "paaprodsning", "artilleri", "PP" },
	{ "klargoering", "artilleri", "KL" },
	{ "prolongering", "artilleri", "PR" },
	{ "reparation", "artilleri", "REP" },
	{ "formation", "infanteri kavaleri artilleri", "FORM" },
	{ "drej", "infanteri kavaleri artilleri", "D" },
	{ "vending", "infanteri kavaleri artilleri", "V" },
	{ "genforsyning", "infanteri kavaleri artilleri", "GF" },
	{ "hvil", "infanteri kavaleri artilleri", "H" },
	{ "opdeling", "infanteri kavaleri", "OD" },
	{ "samling", "infanteri kavaleri", "SA" },
	{ "ammunitionsskift", "artilleri", "AM" },
	{ "stoette", "infanteri kavaleri", "ST" },
	{ "ordreaendring", "infanteri kavaleri artilleri", "ÆNDR" },
};

static const char *symbol_of(const char *code)
{
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(code_arms); i++)
		if (!strcmp(code_arms[i].code, code))
			return code_arms[i].symbol;
	return code;
}

const char *ks_code_symbol(const char *code)
{
	return symbol_of(code);
}

static int code_allowed(const char *code, const char *vaaben)
{
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(code_arms); i++)
		if (!strcmp(code_arms[i].code, code))
			return ord_words_has(code_arms[i].vaaben, vaaben);
	return 1; /* a code the notation added later: nothing known against it */
}

int ks_is_move(const char *code)
{
	return !strcmp(code, "march") || !strcmp(code, "stormmarch") || !strcmp(code, "loeb") ||
	       !strcmp(code, "tilbagetog") || !strcmp(code, "prolongering");
}

static int is_fire(const char *code)
{
	return !strcmp(code, "skydning") || !strcmp(code, "artilleriskydning") ||
	       !strcmp(code, "forsvarsskydning");
}

/* ---- sheets ---- */

double ks_pool_of(struct ord_ctx *ctx, const struct ord_unit *u, const char *ammo)
{
	if (!strcmp(ammo, "SK"))
		return ks_st_num(ctx, u, "ks_kardaesk");
	if (!strcmp(ammo, "SS"))
		return ks_st_num(ctx, u, "ks_shrapnel");
	return ks_st_num(ctx, u, "ks_fuldkugle");
}

/* Which pieces of a battery may fire the ammunition, or NULL if none. */
const char *ks_battery_can_fire(const struct ord_unit *u, const char *ammo)
{
	long guns = ord_kv_get_int(&u->attrs, "kanoner", 0);
	long how = ord_kv_get_int(&u->attrs, "haubitser", 0);
	long gh = ord_kv_get_int(&u->attrs, "kanonhaubitser", 0);
	long plain = guns - how - gh;

	if (!strcmp(ammo, "SG"))
		return how + gh > 0 ? "haubitser og kanonhaubitser" : NULL;
	if (!strcmp(ammo, "SF"))
		/* in a mixed battery the howitzers fire as the guns do (9) */
		return plain + gh > 0 ? "kanoner" : NULL;
	if (!strcmp(ammo, "SS"))
		return plain + how > 0 ? "kanoner og haubitser" : NULL;
	return "alle";
}

void ks_battery_ammo(const struct ord_unit *u, struct ord_buf *out)
{
	static const char *const types[] = { "SF", "SG", "SK", "SS" };
	size_t i;
	int n = 0;

	for (i = 0; i < ORD_ARRAY_SIZE(types); i++)
		if (ks_battery_can_fire(u, types[i]))
			ord_buf_addf(out, "%s%s", n++ ? ", " : "", types[i]);
}

/* The named plate of the game's map name is (its case aside), read as
 * the sheet reads its words (the notation's key: "Højderyggen" typed
 * "hoejderyggen" on a keyboard without ø, as the notation's ASCII forms
 * write it): the map's own name of it, or NULL (no map, or none).  The
 * sheet keeps its spelling; a battery ranged on the place holds the
 * map's (sted_kortets_navn, fire.c). */
const char *ks_map_place(struct ord_ctx *ctx, const char *name)
{
	const struct ks_map *m = ks_r(ctx)->map;
	ord_word_key key = ord_ctx_word_key(ctx);
	struct ord_buf want = ORD_BUF_INIT, k = ORD_BUF_INIT;
	const char *found = NULL;
	size_t i;

	if (!m)
		return NULL;
	for (i = 0; i < m->n && !found; i++)
		if (m->p[i].name && ord_strcaseeq(m->p[i].name, name))
			found = m->p[i].name;
	if (!found && key && ord_utf8_valid(name)) {
		key(&want, (const unsigned char *)name, (const unsigned char *)name + strlen(name));
		for (i = 0; i < m->n && !found; i++) {
			if (!m->p[i].name || !ord_utf8_valid(m->p[i].name))
				continue;
			key(&k, (const unsigned char *)m->p[i].name,
			    (const unsigned char *)m->p[i].name + strlen(m->p[i].name));
			if (!strcmp(k.buf, want.buf))
				found = m->p[i].name;
		}
	}
	ord_buf_release(&want);
	ord_buf_release(&k);
	return found;
}

/* Fire and ranging may aim at an object (a church, a wood) rather than a
 * unit.  With a map, the object must be one of its named places, so that
 * a unit's name misspelt is not read as an object nobody can find; the
 * message lists the places.  Without a map any name is taken. */
static void check_aim_object(struct ord_ctx *ctx, const struct ord_order *o,
			     const struct ks_group *g, const struct ord_token *t, struct ord_diag *d)
{
	const struct ks_map *m = ks_r(ctx)->map;
	struct ord_buf places = ORD_BUF_INIT, hint = ORD_BUF_INIT;
	size_t i, n = 0;

	if (!m || ks_map_place(ctx, t->value))
		return;
	for (i = 0; i < m->n; i++)
		if (m->p[i].name)
			ord_buf_addf(&places, "%s%s", n++ ? ", " : "", m->p[i].name);
	/* the unit a letter or two apart, as the core hints it */
	ord_ctx_unit_hint(ctx, t->value, NULL, &hint);
	ord_diag_add(d, o->line, t->col, o->unit, "4.3",
		     "'%s' for '%s' is neither a unit nor a named place of the map%s "
		     "(a unit by its id or name; a place as the map names it%s%s)",
		     t->value, symbol_of(g->code), hint.buf, n ? ": " : ", and this map names none",
		     n ? places.buf : "");
	ord_buf_release(&places);
	ord_buf_release(&hint);
}

static void check_target(struct ord_ctx *ctx, const struct ord_order *o, const struct ks_group *g,
			 const struct ord_unit *u, int own, struct ord_diag *d)
{
	const struct ord_token *t = ks_grp_tok(o, g, ORD_TOK_TARGET);
	struct ord_unit *tu;

	if (!t)
		return;
	tu = ord_ctx_find_unit(ctx, t->value);
	if (!tu) {
		/* fire and ranging may aim at an object (a church, a wood);
		 * resupply names its wagon, a split its new units */
		if (!strcmp(g->code, "indskydning") || !strcmp(g->code, "koordination") ||
		    !strcmp(g->code, "skydning") || !strcmp(g->code, "artilleriskydning")) {
			check_aim_object(ctx, o, g, t, d);
			return;
		}
		if (!strcmp(g->code, "genforsyning") || !strcmp(g->code, "opdeling"))
			return;
		{
			struct ord_buf hint = ORD_BUF_INIT;
			ord_ctx_unit_hint_any(ctx, t->value, &hint);
			ord_diag_add(d, o->line, t->col, o->unit, "4.3", "unknown unit '%s' for '%s'%s",
				     t->value, symbol_of(g->code), hint.buf);
			ord_buf_release(&hint);
		}
		return;
	}
	if (tu == u && strcmp(g->code, "samling")) {
		ord_diag_add(d, o->line, t->col, o->unit, "4.3", "'%s' names the unit itself",
			     symbol_of(g->code));
		return;
	}
	if (own && strcmp(tu->side, u->side))
		ord_diag_add(d, o->line, t->col, o->unit, "6.6",
			     "'%s' needs a unit of your own side, not '%s' of %s",
			     symbol_of(g->code), tu->id, tu->side);
	else if (!own && !strcmp(tu->side, u->side))
		ord_diag_add(d, o->line, t->col, o->unit, "4.3",
			     "target '%s' is a unit of your own side", t->value);
	else if (ks_gone(ctx, tu)) {
		struct ord_buf why = ORD_BUF_INIT;
		const char *rule;
		ks_gone_why(ctx, tu, &why, &rule);
		ord_diag_add(d, o->line, t->col, o->unit, rule, "target '%s' %s", t->value, why.buf);
		ord_buf_release(&why);
	}
}

/* The support conditions that do not depend on the attack (6.6, 8.3, 11.8);
 * open_ok: u may stand in open order (a neighbour in cover, cossacks in
 * swarm, 6.6.5, 8.5). */
void ks_check_support_unit(struct ord_ctx *ctx, const struct ord_unit *u, int open_ok,
			   const struct ord_unit *sup, const char *formation, struct ord_diag *d,
			   unsigned line, unsigned col, const char *name)
{
	struct ks_rules *r = ks_r(ctx);
	int fig = ks_figures(ctx, u), sfig = ks_figures(ctx, sup);
	int inf = ks_is(ctx, sup, "infanteri"), cav = ks_is(ctx, sup, "kavaleri");
	double share = ks_param(r, inf ? "stoette_min_infanteri" : "stoette_min_kavaleri");
	double part = ks_param(r, "stoette_andel");

	/* the figures it needs, not its own (ordlyd_kontrol: a game made
	 * before it said them so, and an overridden stoette keeps its words) */
	if (fig < part * sfig && ks_check(r, "ordlyd_kontrol"))
		ord_diag_add(d, line, col, name, "6.6 støtteenheder",
			     "a support must have at least %g times the figures of the unit it supports: %d for %s's %d, it has %d",
			     part, (int)ceil(part * sfig - 1e-9), sup->id, sfig, fig);
	else if (fig < part * sfig)
		ord_diag_add(d, line, col, name, "6.6 støtteenheder",
			     "a support must have at least %g times the figures of the unit it supports: %d for %s's %d",
			     part, fig, sup->id, sfig);
	if ((inf || cav) && fig < share)
		ord_diag_add(d, line, col, name, "6.6 støtteenheder",
			     "a support of %s must have at least %g figures, it has %d",
			     inf ? "infantry" : "cavalry", share, fig);
	if (!strcmp(formation, "hob"))
		ord_diag_add(d, line, col, name, "11.8 hob", "a hob cannot be a support");
	else if (!ks_closed(ctx, u, formation) && !open_ok)
		ord_diag_add(d, line, col, name, "6.6.5", "a support must stand in close order, not %s",
			     ks_formation_name(ctx, u, formation, "da"));
	if (ks_is(ctx, u, "kavaleri") &&
	    ks_st(ctx, u, "valeur") < (long)ks_param(ks_r(ctx), "valeur_min"))
		ord_diag_add(d, line, col, name, "8.3 tab af valeur",
			     "cavalry with valeur %ld (under %g) cannot be a support",
			     ks_st(ctx, u, "valeur"), ks_param(ks_r(ctx), "valeur_min"));
}

static const char *const trussel_ok[] = { "forsvar",          "modangreb", "tilbagetog",
					  "formation",        "drej",      "vending",
					  "forsvarsskydning", "skydning",  "artilleriskydning",
					  "ophoer",           NULL };
static const char *const rute_ok[] = { "march",        "stormmarch", "loeb",    "tilbagetog",
				       "prolongering", "drej",       "vending", NULL };
static const char *const maal_ok[] = { "skydning", "artilleriskydning", "forsvarsskydning",
				       "ophoer",   "indskydning",       NULL };

static int in_list(const char *const *l, const char *w)
{
	for (; *l; l++)
		if (!strcmp(*l, w))
			return 1;
	return 0;
}

/* The quarters of a turn (the ordre notation's unit of time). */
static int quarters_per_turn(struct ord_ctx *ctx)
{
	int per = (int)ks_param(ks_r(ctx), "kvarte_pr_traek");

	return per > 0 ? per : 1;
}

/* 4.2.5: "For let kavaleris vedkommende med henblik på angreb af
 * opdukkende lønnende mål": light cavalry's change for an emerging target
 * may march or stormmarch on it before its A, the approach being the
 * attack's (an attack at stormmarch needs its SM on the sheet). */
static int light_approach(const struct ord_unit *u, const char *code)
{
	return !strcmp(ks_art(u), "let_kavaleri") &&
	       (!strcmp(code, "march") || !strcmp(code, "stormmarch"));
}

/* 4.3.4: an order change and its reaction time. */
/* Opening or ceasing small-arms fire and artillery defensive fire need no
 * reaction time (4.3.4). */
static int no_reaction_time(const char *code)
{
	return !strcmp(code, "skydning") || !strcmp(code, "ophoer") ||
	       !strcmp(code, "forsvarsskydning");
}

static void check_change(struct ord_ctx *ctx, const struct ord_order *o, const struct ks_group *g,
			 size_t n, size_t at, const struct ord_unit *u, struct ord_diag *d)
{
	const char *reason = ks_grp_arg(o, &g[at], "reason");
	unsigned col = g[at].tok->col;
	int standing = 0, fresh = 0, i, exception;
	int per = quarters_per_turn(ctx), react = (int)ks_param(ks_r(ctx), "reaktionstid_kvarte");
	struct ord_buf react_s = ORD_BUF_INIT, left_s = ORD_BUF_INIT;

	if (!reason)
		return; /* the notation refused it */
	ks_fmt_part(&react_s, (double)react / per);
	ks_fmt_part(&left_s, (double)(per - react) / per);
	for (i = 0; i < (int)at; i++)
		standing += ks_grp_quarters(ctx, o, &g[i]);
	for (i = (int)at + 1; i < (int)n; i++) {
		const char *c = g[i].code;
		fresh += ks_grp_quarters(ctx, o, &g[i]);
		if (!strcmp(reason, "trussel") && !in_list(trussel_ok, c))
			ord_diag_add(d, o->line, g[i].tok->col, o->unit, "4.2.5",
				     "a change for a threat (trussel) may only take up defence: '%s' is not a defensive disposition",
				     symbol_of(c));
		else if (!strcmp(reason, "rutekorrektion") && !in_list(rute_ok, c))
			ord_diag_add(d, o->line, g[i].tok->col, o->unit, "4.2.5",
				     "a route correction (rutekorrektion) may only change the march, not '%s'",
				     symbol_of(c));
		else if (!strcmp(reason, "maal") && !in_list(maal_ok, c) &&
			 !(!strcmp(c, "angreb") && !strcmp(ks_art(u), "let_kavaleri")) &&
			 !(light_approach(u, c) && ks_find(g + i + 1, n - (size_t)i - 1, "angreb")))
			ord_diag_add(d, o->line, g[i].tok->col, o->unit, "4.2.5",
				     !strcmp(c, "angreb")
					     ? "only light cavalry may attack an emerging target (mål); %s may only fire at it"
					     : "a change for an emerging target (mål) may only open fire on it, not '%s'",
				     !strcmp(c, "angreb") ? ks_arm_name(ctx, u) : symbol_of(c));
	}
	/* the new order starts after ½ turn of reaction time, counted from the
	 * cause; with no standing order written the cause may lie in the last
	 * turn and its time have run.  Opening or ceasing small-arms fire and
	 * artillery defensive fire need none. */
	exception = at + 1 < n && no_reaction_time(g[at + 1].code);
	/* the exception is the fire or its ceasing, not the rest of the new
	 * order behind it ("En enhed vil dog altid kunne skyde med håndvåben
	 * eller afbryde en skydning uden forsinkelse"; aendring_undtagelse_kontrol:
	 * a game made before let the whole new order through) */
	if (exception && ks_check(ks_r(ctx), "aendring_undtagelse_kontrol"))
		for (i = (int)at + 1; i < (int)n; i++)
			if (!no_reaction_time(g[i].code))
				exception = 0;
	if (standing > 0 && standing < react && !exception)
		ord_diag_add(d, o->line, col, o->unit, "4.3.4",
			     "an order change takes effect after %s turn of reaction time, but the orders before 'ÆNDR' last only %d/%d turn",
			     react_s.buf, standing, per);
	if (standing > 0 && !exception && fresh > per - react)
		ord_diag_add(d, o->line, col, o->unit, "4.3.4",
			     "after %s turn of reaction time only %s turn is left, but the new orders take %d/%d turn",
			     react_s.buf, left_s.buf, fresh, per);
	if (fresh > per)
		ord_diag_add(d, o->line, col, o->unit, "5.1",
			     "the new orders take %d/%d of a turn (at most one turn)", fresh, per);
	ord_buf_release(&react_s);
	ord_buf_release(&left_s);
}

/* ---- one order line: its groups in order, checked as the line goes ---- */

/* What is known of a unit as its order line goes: the state at the start
 * of the turn, changed by the groups checked so far. */
struct line_state {
	char formation[40];
	int unlimbered, ready;
	double x, y;
	int have_pos;
};

/* One order line being checked. */
struct line {
	struct ord_ctx *ctx;
	struct ks_rules *r;
	const struct ord_order *o;
	struct ord_unit *u;
	struct ord_diag *d;
	struct ks_group g[KS_MAX_GROUPS];
	size_t n;                /* groups */
	const char *vaaben;      /* the unit's arm */
	int turn, grade;         /* this turn, the unit's morale now */
	struct line_state ls;    /* the unit as the line leaves it so far */
	const char *ammo_used;   /* the ammunition fired so far */
	int fires, supports;     /* fire and support groups so far */
	unsigned first_fire_col; /* the first fire group's column */
	int storm_at;            /* the last stormmarch group, or -1 */
	int storm_turns;         /* front changes in stormmarch so far */
	int standing;            /* quarters of a turn ordered before ÆNDR */
	int change;              /* the ÆNDR group, or -1 */
	int coordinated;         /* the line has KO */
};

/* A problem of group i of the line (its column). */
#define GROUP_DIAG(l, i, rule, ...) \
	ord_diag_add((l)->d, (l)->o->line, (l)->g[i].tok->col, (l)->o->unit, rule, __VA_ARGS__)

/* The morale a sheet is held to.  Orders are written before the turn's
 * reorganisation (5.2.2: "1. Ordre udstedelse. 2. Reorganisering 3.
 * Erklæring af angrebshandlinger"): a unit attacks and fires in the state
 * it is reorganised to, so the sheet takes what the unit may do once it is
 * reorganised undisturbed, and the events hold it to the state it has
 * when they come (ordre_reorganisering_kontrol; a game made before held
 * the sheet to the morale of the turn before's end).  The reorganisation
 * read as resolve_reorganisation does it, its floors (decimation,
 * cossacks in close order) by ks_moral_at on the state set for the moment
 * and put back. */
static int sheet_grade(struct ord_ctx *ctx, struct ord_unit *u)
{
	struct ks_rules *r = ks_r(ctx);
	int now = ks_moral_now(ctx, u), turn = ord_ctx_turn(ctx), grade, steps, to, after;
	const char *had;
	char *saved;

	if (!ks_check(r, "ordre_reorganisering_kontrol") || now <= KS_OR || ks_st(ctx, u, "moral_til") ||
	    ks_st(ctx, u, "moral_traek") >= turn || ks_st(ctx, u, "fu_ekstra") >= turn ||
	    (ks_st(ctx, u, "decimering") >= 2 && !ks_check(r, "decimering_u_kontrol")))
		return now;
	grade = ks_moral_parse(ks_st_str(ctx, u, "moral"));
	steps = (int)ks_param(r, "reorganisering_grader");
	to = grade - (steps > 0 ? steps : 1);
	if (to < KS_OR)
		to = KS_OR;
	had = ord_kv_get(&u->state, "moral");
	saved = had ? ord_strdup(had) : NULL;
	ks_st_set_str(ctx, u, "moral", ks_moral_name(to));
	after = ks_moral_at(ctx, u, ks_half(ctx, 0), NULL);
	if (saved)
		ks_st_set_str(ctx, u, "moral", saved);
	else
		ord_kv_del(&u->state, "moral");
	free(saved);
	return after < now ? after : now;
}

static void line_start(struct line *l, struct ord_ctx *ctx, const struct ord_order *o,
		       struct ord_unit *u, struct ord_diag *d)
{
	memset(l, 0, sizeof(*l));
	l->ctx = ctx;
	l->r = ks_r(ctx);
	l->o = o;
	l->u = u;
	l->d = d;
	l->n = ks_groups(o, l->g, KS_MAX_GROUPS);
	l->vaaben = ks_vaaben(ctx, u);
	l->turn = ord_ctx_turn(ctx);
	l->grade = sheet_grade(ctx, u);
	l->storm_at = -1;
	l->change = -1;
	l->coordinated = ks_find(l->g, l->n, "koordination") != NULL;
	snprintf(l->ls.formation, sizeof(l->ls.formation), "%s", ks_form(ctx, u));
	l->ls.unlimbered = strcmp(ks_st_str(ctx, u, "prodset"), "paa") != 0;
	l->ls.ready = ks_st(ctx, u, "klargjort") != 0;
	l->ls.have_pos = ks_st_has(ctx, u, "x");
	l->ls.x = ks_st_num(ctx, u, "x");
	l->ls.y = ks_st_num(ctx, u, "y");
}

/* The group's target: an enemy, or for a support or a merge one's own. */
static void check_group_target(struct line *l, size_t i)
{
	static const char *const at_enemy[] = {
		"angreb",           "skydning",     "artilleriskydning",
		"forsvarsskydning", "forsvar",      "modangreb",
		"indskydning",      "koordination", NULL
	};
	static const char *const at_own[] = { "stoette", "samling", NULL };

	if (in_list(at_enemy, l->g[i].code))
		check_target(l->ctx, l->o, &l->g[i], l->u, 0, l->d);
	else if (in_list(at_own, l->g[i].code))
		check_target(l->ctx, l->o, &l->g[i], l->u, 1, l->d);
}

/* "Under stormmarch kan der højst laves en frontændring, der ikke må være
 * over [20°], pr. træk" (13): a stormmarch group going on from the one
 * before it in another direction changes the front by the angle between
 * them (stormmarch_frontaendringer, stormmarch_frontaendring_grader).  A
 * group towards a plate has no direction to compare. */
static void check_storm_front(struct line *l, size_t i)
{
	const struct ord_token *a = ks_grp_tok(l->o, &l->g[i - 1], ORD_TOK_DIR),
			       *b = ks_grp_tok(l->o, &l->g[i], ORD_TOK_DIR);
	double most = 0, changes = 0;
	int deg;

	/* a club's Skema from before these values: not checked */
	if (!a || !b || a->num == b->num ||
	    ord_tables_param(l->r->tables, "stormmarch_frontaendring_grader", &most) ||
	    ord_tables_param(l->r->tables, "stormmarch_frontaendringer", &changes)) {
		ord_error_clear();
		return;
	}
	deg = abs(b->num - a->num) % 360;
	if (deg > 180)
		deg = 360 - deg;
	if (++l->storm_turns > changes)
		GROUP_DIAG(l, i, "13 stormmarch",
			   "at most %g front change(s) a turn in stormmarch; this is change %d",
			   changes, l->storm_turns);
	if (deg > most)
		GROUP_DIAG(l, i, "13 stormmarch",
			   "a front change in stormmarch is at most %g°; from %03d° to %03d° is %d°",
			   most, a->num, b->num, deg);
}

/* A move group: limbered batteries march; a march towards a plate is
 * followed as far as the march length takes it in the time ordered, and
 * what it crosses is checked (13). */
/* A plate the order names (a march's goal, a fire's or ranging's aim)
 * must be on the game's map, when there is one: a plate off it is no more
 * a place of the table than a misspelt name. */
static void check_group_hex(struct line *l, size_t i)
{
	const struct ks_map *m = l->r->map;
	size_t k;
	int q, rr, q0 = 0, q1 = 0, r0 = 0, r1 = 0;

	if (!m || !m->n || !ks_grp_hex(l->o, &l->g[i], &q, &rr) || ks_map_plate(m, q, rr))
		return;
	for (k = 0; k < m->n; k++) {
		if (!k || m->p[k].q < q0)
			q0 = m->p[k].q;
		if (!k || m->p[k].q > q1)
			q1 = m->p[k].q;
		if (!k || m->p[k].r < r0)
			r0 = m->p[k].r;
		if (!k || m->p[k].r > r1)
			r1 = m->p[k].r;
	}
	for (k = l->g[i].first; k < l->g[i].end; k++) {
		const struct ord_token *t = &l->o->tok[k];
		if (t->kind != ORD_TOK_ARG || !t->arg || strcmp(t->arg, "hex"))
			continue;
		ord_diag_add(l->d, l->o->line, t->col, l->o->unit, "3 krigsspilterrænet",
			     "plate %d,%d is not on the map '%s' (its %zu plates lie within q %d..%d, r %d..%d)",
			     q, rr, m->title ? m->title : "", m->n, q0, q1, r0, r1);
		return;
	}
}

static void check_move_group(struct line *l, size_t i)
{
	const char *code = l->g[i].code;
	struct line_state *ls = &l->ls;
	int q, rr;

	/* a broken-off stormmarch cannot be resumed (13) */
	if (!strcmp(code, "stormmarch")) {
		if (l->storm_at >= 0 && l->storm_at != (int)i - 1)
			GROUP_DIAG(l, i, "13 stormmarch",
				   "a stormmarch broken off cannot be resumed (it was broken off after column %u)",
				   l->g[l->storm_at].tok->col);
		else if (l->storm_at >= 0)
			check_storm_front(l, i);
		l->storm_at = (int)i;
	}
	if (!ks_is_move(code))
		return;
	if (!strcmp(l->vaaben, "artilleri") && strcmp(code, "prolongering") && ls->unlimbered)
		GROUP_DIAG(l, i, "9.4",
			   "a battery marches limbered: 'PP' (påprodsning) first, or 'PR' (prolongering)");
	if (ks_grp_hex(l->o, &l->g[i], &q, &rr) && ls->have_pos && l->r->map) {
		struct ks_move_check m = { l->d, l->o->line, l->g[i].tok->col, l->o->unit, 1, q, rr };
		double x1, y1, dist, reach;
		struct ks_move_in mi;
		struct ks_move_out mo;

		ks_map_centre(l->r->map, q, rr, &x1, &y1);
		/* what the gait covers (løb: the attack column's length, 13;
		 * cossacks in close order half, 8.5) in the time ordered */
		memset(&mi, 0, sizeof(mi));
		mi.art = ks_art(l->u);
		mi.formation = ls->formation;
		mi.gang = !strcmp(code, "stormmarch") ? "stormmarch"
			  : !strcmp(code, "loeb")     ? "loeb"
						      : "march";
		mi.time = (double)ks_grp_quarters(l->ctx, l->o, &l->g[i]) / quarters_per_turn(l->ctx);
		reach = ks_move(l->r, &mi, &mo, NULL) ? 0 : mo.reach;
		ord_error_clear();
		dist = hypot(x1 - ls->x, y1 - ls->y);
		if (reach > 0 && dist > reach) {
			x1 = ls->x + (x1 - ls->x) * reach / dist;
			y1 = ls->y + (y1 - ls->y) * reach / dist;
		}
		ks_check_path(l->ctx, l->u, ls->x, ls->y, x1, y1, ls->formation, l->grade,
			      !strcmp(code, "stormmarch"), &m);
		ls->x = x1;
		ls->y = y1;
	} else if (ks_grp_tok(l->o, &l->g[i], ORD_TOK_DIR)) {
		ls->have_pos = 0; /* direction only: where it ends is not known */
	}
}

/* ---- the checks of one kind of group ---- */

static void check_stormmarch(struct line *l, size_t i)
{
	struct ord_buf why = ORD_BUF_INIT;
	int cossacks = !strcmp(ks_art(l->u), "kosakker");

	if (cossacks || ks_stormmarch_refused(l->ctx, l->u, &why))
		GROUP_DIAG(l, i, cossacks ? "8.5 kosakker" : "13 stormmarch", "%s",
			   why.len ? why.buf : "kosakker cannot stormmarch");
	ord_buf_release(&why);
}

/* 13: "En enhed ... kan benytte løb i et halvt træk": the L groups of a
 * line together last at most the gait's share of a turn (gangarter's
 * andel), said at the group that goes beyond it (loeb_halvt_kontrol: a
 * game made before took two groups of ½ as a whole turn of løb). */
static void check_loeb_time(struct line *l, size_t i)
{
	int per = quarters_per_turn(l->ctx), before = 0, q;
	double length, share;
	struct ord_buf most = ORD_BUF_INIT;
	size_t k;

	if (!ks_check(l->r, "loeb_halvt_kontrol") ||
	    ks_gait(l->r, ks_art(l->u), "linie", "loeb", &length, &share, NULL)) {
		ord_error_clear();
		return;
	}
	for (k = 0; k < i; k++)
		if (!strcmp(l->g[k].code, "loeb"))
			before += ks_grp_quarters(l->ctx, l->o, &l->g[k]);
	q = before + ks_grp_quarters(l->ctx, l->o, &l->g[i]);
	if (q > share * per + 1e-9 && before <= share * per + 1e-9) {
		ks_fmt_part(&most, share);
		GROUP_DIAG(l, i, "13 løb i linie",
			   "løb lasts at most %s turn (table gangarter): the line's 'L' take %d/%d of a turn",
			   most.buf, q, per);
	}
	ord_buf_release(&most);
}

static void check_loeb(struct line *l, size_t i)
{
	long last = ks_st(l->ctx, l->u, "loeb_sidst");
	double every = ks_param(l->r, "loeb_hvert");

	if (strcmp(l->ls.formation, "linie"))
		GROUP_DIAG(l, i, "13 løb i linie", "only infantry in line may use løb; it is in %s",
			   ks_formation_name(l->ctx, l->u, l->ls.formation, "da"));
	if (last && l->turn - last < (long)every)
		GROUP_DIAG(l, i, "13 løb i linie",
			   "løb may be used at most every %gth turn: it ran in turn %ld, the next may be in turn %ld",
			   every, last, last + (long)every);
	check_loeb_time(l, i);
}

/* Limbered artillery in line marches a few turns in a row (13). */
static void check_march(struct line *l, size_t i)
{
	struct ord_ctx *ctx = l->ctx;

	if (strcmp(l->vaaben, "artilleri") || strcmp(l->ls.formation, "linie") || l->ls.unlimbered ||
	    ks_st(ctx, l->u, "march_sidst") <= 0 || ks_st(ctx, l->u, "march_sidst") != l->turn - 1 ||
	    ks_st(ctx, l->u, "march_i_traek") < (long)ks_param(l->r, "artilleri_march_i_traek"))
		return;
	GROUP_DIAG(l, i, "13 artilleri i linie",
		   "limbered artillery in line may march at most %g turns in a row (it marched in turns %ld to %d)",
		   ks_param(l->r, "artilleri_march_i_traek"),
		   l->turn - ks_st(ctx, l->u, "march_i_traek"), l->turn - 1);
}

static void check_prolongering(struct line *l, size_t i)
{
	if (ks_st(l->ctx, l->u, "prolong_sidst") > 0 &&
	    ks_st(l->ctx, l->u, "prolong_sidst") == l->turn - 1 &&
	    ks_param(l->r, "prolongering_i_traek") <= 1)
		GROUP_DIAG(l, i, "9.5 prolongering",
			   "a battery may prolonge at most %g turn in a row (it did in turn %d)",
			   ks_param(l->r, "prolongering_i_traek"), l->turn - 1);
}

/* What bars an attack, and so a counterattack (MA), which goes in as an
 * attack does (16.3, 16.4: "Hvis begge parter angriber", and the melee
 * reads it so): "Kosakker kan ikke angribe i sluttet formation" (8.1,
 * 8.5), "En kavalerienhed med en valeur under 4 kan ikke angribe" (8.3),
 * and only OR or LU goes into the enemy's break-in distance (6.3).  verb
 * is what the unit may not do ("attack"), because what follows it in the
 * words ("" or why a counterattack is held so), into what goes in. */
static void attack_bars(struct line *l, size_t i, const char *verb, const char *because,
			const char *into)
{
	if (ks_cossack_closed(l->ctx, l->u, l->ls.formation))
		GROUP_DIAG(l, i, "8.5 kosakker", "cossacks cannot %s in close order (%s)%s", verb,
			   ks_formation_name(l->ctx, l->u, l->ls.formation, "da"), because);
	if (!strcmp(l->vaaben, "kavaleri") &&
	    ks_st(l->ctx, l->u, "valeur") < (long)ks_param(l->r, "valeur_min"))
		GROUP_DIAG(l, i, "8.3 tab af valeur", "cavalry with valeur %ld (under %g) cannot %s%s",
			   ks_st(l->ctx, l->u, "valeur"), ks_param(l->r, "valeur_min"), verb, because);
	if (l->grade >= KS_U)
		GROUP_DIAG(l, i, "6.3 indbrudsafstand",
			   "only units in OR or LU may %s into the enemy's break-in distance; it is in %s",
			   into, ks_moral_name(l->grade));
}

static void check_attack(struct line *l, size_t i)
{
	attack_bars(l, i, "attack", "", "move");
}

/* A counterattack is held so in a game whose Skema says (modangreb_kontrol;
 * a game made before took any MA). */
static void check_counterattack(struct line *l, size_t i)
{
	if (ks_check(l->r, "modangreb_kontrol"))
		attack_bars(l, i, "counterattack", ": a counterattack ('MA') is an attack",
			    "counterattack");
}

/* Count the fire groups: one a turn (checked at the end of the line). */
static void count_fire(struct line *l, size_t i)
{
	if (!l->fires++)
		l->first_fire_col = l->g[i].tok->col;
}

static void check_small_arms(struct line *l, size_t i)
{
	double use = ks_param(l->r, "forbrug_skydning");

	count_fire(l, i);
	if (!strcmp(l->vaaben, "kavaleri") && !ord_kv_get_bool(&l->u->attrs, "karabiner", 0))
		GROUP_DIAG(l, i, "8.2", "only cavalry with carbines fires; %s has none", l->u->id);
	else if (ks_st_num(l->ctx, l->u, "kampsatser") < use)
		GROUP_DIAG(l, i, !strcmp(l->vaaben, "kavaleri") ? "8.2.2" : "7.2.2",
			   "no ammunition: %s kampsatser left, a fire takes %g",
			   ks_st_str(l->ctx, l->u, "kampsatser"), use);
	if (l->grade == KS_FU)
		GROUP_DIAG(l, i, "6.5", "a unit in FU flees, it cannot fire");
}

/* The ammunition a group fires or changes to: one type a turn, pieces
 * that fire it (15). */
static void check_ammo_type(struct line *l, size_t i, const char *ammo)
{
	if (l->ammo_used && strcmp(l->ammo_used, ammo))
		GROUP_DIAG(l, i, "15 ammunitionstyper",
			   "a unit fires one type of ammunition in a turn: %s and %s", l->ammo_used,
			   ammo);
	l->ammo_used = ammo;
	if (!ks_battery_can_fire(l->u, ammo)) {
		struct ord_buf has = ORD_BUF_INIT;
		ks_battery_ammo(l->u, &has);
		GROUP_DIAG(l, i, "15 ammunitionstyper",
			   "the battery has no pieces that fire %s (it fires %s)", ammo, has.buf);
		ord_buf_release(&has);
	}
}

static void check_battery_fire(struct line *l, size_t i)
{
	const char *ammo = !strcmp(l->g[i].code, "forsvarsskydning")
				   ? "SK"
				   : ks_grp_arg(l->o, &l->g[i], "ammo");
	double use = ks_param(l->r, l->coordinated ? "forbrug_koordineret" : "forbrug_skydning");

	count_fire(l, i);
	if (ammo) {
		check_ammo_type(l, i, ammo);
		if (ks_battery_can_fire(l->u, ammo) && ks_pool_of(l->ctx, l->u, ammo) < use)
			GROUP_DIAG(l, i, "9.2",
				   "no %s ammunition left (%g kampsatser, a fire takes %g a gun)",
				   ammo, ks_pool_of(l->ctx, l->u, ammo), use);
	}
	if (!l->ls.unlimbered || !l->ls.ready)
		GROUP_DIAG(l, i, "15 deltagende enheder",
			   "only unlimbered and ready pieces fire: it is %s and %s",
			   l->ls.unlimbered ? "unlimbered" : "limbered ('AP' first)",
			   l->ls.ready ? "ready" : "not ready ('KL' first)");
	if (ks_st(l->ctx, l->u, "kanoner") < 1)
		GROUP_DIAG(l, i, "9.6", "the battery has no serviceable gun");
	if (l->grade == KS_FU && ks_check(l->r, "artilleri_fu_kontrol"))
		GROUP_DIAG(l, i, "6.5", "a battery in FU flees, it cannot fire");
}

static void check_ranging(struct line *l, size_t i)
{
	if (!l->ls.unlimbered || !l->ls.ready)
		GROUP_DIAG(l, i, "15 indskydning", "ranging needs an unlimbered, ready gun");
	if (l->grade == KS_FU && ks_check(l->r, "artilleri_fu_kontrol"))
		GROUP_DIAG(l, i, "6.5", "a battery in FU flees, it cannot range");
}

static void check_coordination(struct line *l, size_t i)
{
	struct ord_ctx *ctx = l->ctx;
	const struct ord_token *t = ks_grp_tok(l->o, &l->g[i], ORD_TOK_TARGET);
	const char *h = ks_grp_arg(l->o, &l->g[i], "hex");
	const char *aim = t ? t->value : h;
	const char *ranged = ks_st(ctx, l->u, "indskudt_fra") > ord_ctx_turn(ctx)
				     ? "" /* still ranging (15) */
				     : ks_st_str(ctx, l->u, "indskudt_paa");

	if (aim && strcmp(ranged, aim) &&
	    !(t && ord_ctx_find_unit(ctx, t->value) &&
	      ord_ctx_find_unit(ctx, ranged) == ord_ctx_find_unit(ctx, t->value)))
		GROUP_DIAG(l, i, "15 koordinering",
			   "to coordinate, the battery must have ranged on '%s' (it has ranged on %s)",
			   aim, *ranged ? ranged : "nothing");
}

static void check_limbers(struct line *l, size_t i)
{
	const char *code = l->g[i].code;

	if (!strcmp(code, "afprodsning")) {
		l->ls.unlimbered = 1;
	} else if (!strcmp(code, "paaprodsning")) {
		l->ls.unlimbered = 0;
		l->ls.ready = 0;
	} else {
		if (!l->ls.unlimbered)
			GROUP_DIAG(l, i, "9.4", "guns are made ready unlimbered ('AP' first)");
		l->ls.ready = 1;
	}
}

static void check_repair(struct line *l, size_t i)
{
	size_t k;

	if (ks_st(l->ctx, l->u, "beskadiget") < 1) {
		GROUP_DIAG(l, i, "9.6", "the battery has no damaged gun to repair");
		return;
	}
	for (k = 0; k < l->n; k++)
		if (ks_is_move(l->g[k].code) || !strcmp(l->g[k].code, "formation") ||
		    !strcmp(l->g[k].code, "drej") || !strcmp(l->g[k].code, "vending")) {
			GROUP_DIAG(l, i, "9.6",
				   "a repair is broken off when the battery moves (\"En reparation bliver afbrudt hvis batteriet bliver angrebet eller bevæger sig\"): the line orders '%s'",
				   symbol_of(l->g[k].code));
			return;
		}
}

static void check_formation(struct line *l, size_t i)
{
	const struct ks_plate *p = l->r->map && l->ls.have_pos
					   ? ks_map_at(l->r->map, l->ls.x, l->ls.y)
					   : NULL;
	int in_cover = p && (!strcmp(p->terrain, "bebyggelse") || !strcmp(p->terrain, "skov") ||
			     !strcmp(p->terrain, "plantage"));
	const struct ord_row *row;
	char f[40];

	ks_grp_formation(l->o, &l->g[i], f, sizeof(f));
	if (ks_formation(l->r, f, l->vaaben, &row)) {
		/* the rules' spelling, as the player wrote it ("karré") */
		GROUP_DIAG(l, i, "11 formationer", "%s cannot form %s", ks_arm_name(l->ctx, l->u),
			   ks_formation_name(l->ctx, l->u, f, "da"));
		ord_error_clear();
	} else if (!ks_formation_nation_ok(row, ord_kv_get(&l->u->attrs, "nation"))) {
		/* "Kun franske enheder kan benytte angrebskolonne for kavaleri" */
		GROUP_DIAG(l, i, "11 formationer",
			   "%s of nation '%s' cannot form %s: only %s units may (table formationer)",
			   ks_arm_name(l->ctx, l->u), ks_nation(l->u),
			   ks_formation_name(l->ctx, l->u, f, "da"), ord_row_attr(row, "nationer"));
	} else if (!ks_closed(l->ctx, l->u, f) && !in_cover &&
		   !ord_kv_get_bool(&l->u->attrs, "spredt", 0) &&
		   strcmp(ks_art(l->u), "let_kavaleri") && strcmp(ks_art(l->u), "kosakker")) {
		GROUP_DIAG(l, i, "11 skyttekæde/sværm",
			   "only special troops (spredt) form open order, not %s", l->u->id);
	} else if (!strcmp(f, "hob")) {
		GROUP_DIAG(l, i, "11.8 hob", "a hob is not ordered: a unit falls into it");
	} else if (!strcmp(f, l->ls.formation) && ks_check(l->r, "formation_samme_kontrol")) {
		/* 12.1: "Enheder er i LU under og et halvt træk efter front
		 * eller formationsændring": a change to the formation the unit
		 * is in (at the start of the turn, or as the line left it)
		 * changes nothing but would cost the LU; a game made before
		 * formation_samme_kontrol took it */
		GROUP_DIAG(l, i, "12.1",
			   "unit '%s' is already in %s: 'FORM %s' changes nothing (a change of formation puts the unit in LU)",
			   l->u->id, ks_formation_name(l->ctx, l->u, f, "da"),
			   ks_formation_name(l->ctx, l->u, f, "da"));
	}
	snprintf(l->ls.formation, sizeof(l->ls.formation), "%s", f);
}

static void check_resupply(struct line *l, size_t i)
{
	if (ks_grp_arg(l->o, &l->g[i], "ammo") && strcmp(l->vaaben, "artilleri"))
		GROUP_DIAG(l, i, "6.8 genforsyning", "only a battery is resupplied by ammunition type");
	else if (strcmp(l->vaaben, "artilleri") && ks_ammo_issue(l->ctx, l->u) <= 0)
		GROUP_DIAG(l, i, "6.8 genforsyning", "%s carries no ammunition to resupply (%s)",
			   l->u->id,
			   strcmp(l->vaaben, "kavaleri") ? "its issue is 0 kampsatser"
							 : "cavalry without carbines, 8.2");
}

static void check_ammo_change(struct line *l, size_t i)
{
	const char *ammo = ks_grp_arg(l->o, &l->g[i], "ammo");

	if (ammo)
		check_ammo_type(l, i, ammo);
}

static void check_support(struct line *l, size_t i)
{
	const struct ord_token *t = ks_grp_tok(l->o, &l->g[i], ORD_TOK_TARGET);
	struct ord_unit *sup = t ? ord_ctx_find_unit(l->ctx, t->value) : NULL;
	/* "dog kan en spredt formation i dækning være naboenhed" (6.6.5),
	 * "Kosakker kan i sværm ... selv være naboenhed" (8.5): the sheet
	 * does not say the role, the event does (stoette rolle=) */
	int open_ok = ks_cossack_swarm(l->ctx, l->u, l->ls.formation) ||
		      (l->ls.have_pos && ks_cover_at(l->r, l->ls.x, l->ls.y));

	if (++l->supports > 1)
		GROUP_DIAG(l, i, "6.6.5", "a support supports only one unit in a turn");
	if (sup && sup != l->u && !strcmp(sup->side, l->u->side))
		ks_check_support_unit(l->ctx, l->u, open_ok, sup, l->ls.formation, l->d, l->o->line,
				      l->g[i].tok->col, l->o->unit);
}

static void check_split(struct line *l, size_t i)
{
	if (strcmp(l->vaaben, "infanteri") || !ord_kv_get_bool(&l->u->attrs, "spredt", 0))
		GROUP_DIAG(l, i, "7.1", "only special infantry (spredt) splits into companies");
}

/* Merging: units of the same kind, of one operative unit unless an
 * instruction (ÆNDR instruks) says otherwise (6.2). */
static void check_merge(struct line *l, size_t i)
{
	const struct ord_order *o = l->o;
	const char *reason = l->change >= 0 ? ks_grp_arg(o, &l->g[l->change], "reason") : NULL;
	size_t k;

	for (k = l->g[i].first; k < l->g[i].end; k++) {
		const struct ord_unit *w;
		const char *b1, *b2;

		if (o->tok[k].kind != ORD_TOK_TARGET)
			continue;
		w = ord_ctx_find_unit(l->ctx, o->tok[k].value);
		if (!w || strcmp(w->side, l->u->side))
			continue;
		b1 = ord_kv_get(&l->u->attrs, "brigade");
		b2 = ord_kv_get(&w->attrs, "brigade");
		if (strcmp(ks_art(l->u), ks_art(w)))
			ord_diag_add(l->d, o->line, o->tok[k].col, o->unit, "6.2",
				     "only units of the same kind merge: %s is %s", w->id, ks_art(w));
		else if ((b1 || b2) && (!b1 || !b2 || strcmp(b1, b2)) &&
			 !(reason && !strcmp(reason, "instruks")))
			ord_diag_add(l->d, o->line, o->tok[k].col, o->unit, "6.2",
				     "units of different operative units merge only by an instruction (ÆNDR instruks)");
	}
}

/* The check of each order group by its code (a group may have none). */
static const struct {
	const char *code;
	void (*check)(struct line *l, size_t i);
} group_checks[] = {
	{ "stormmarch", check_stormmarch },
	{ "loeb", check_loeb },
	{ "march", check_march },
	{ "prolongering", check_prolongering },
	{ "angreb", check_attack },
	{ "modangreb", check_counterattack },
	{ "skydning", check_small_arms },
	{ "artilleriskydning", check_battery_fire },
	{ "forsvarsskydning", check_battery_fire },
	{ "indskydning", check_ranging },
	{ "koordination", check_coordination },
	{ "afprodsning", check_limbers },
	{ "paaprodsning", check_limbers },
	{ "klargoering", check_limbers },
	{ "reparation", check_repair },
	{ "formation", check_formation },
	{ "genforsyning", check_resupply },
	{ "ammunitionsskift", check_ammo_change },
	{ "stoette", check_support },
	{ "opdeling", check_split },
	{ "samling", check_merge },
};

/* What concerns the whole line: one fire a turn, what a fire, a support or
 * a rest excludes, one turn of orders, the British cavalry out of control. */
static void check_line(struct line *l)
{
	struct ord_ctx *ctx = l->ctx;
	const struct ord_order *o = l->o;
	const struct ks_group *g = l->g, *rest = ks_find(g, l->n, "hvil");
	const char *bound_why = NULL;
	long bound = ks_british_bound(ctx, l->u, &bound_why);
	size_t i;

	if (l->fires > 1)
		ord_diag_add(l->d, o->line, l->first_fire_col, o->unit, "14",
			     "a unit fires only once in a turn (\"en enhed kan kun skyde 1 gang i et træk\"): the line orders %d fires",
			     l->fires);
	if (l->fires && ks_find(g, l->n, "genforsyning"))
		ord_diag_add(l->d, o->line, l->first_fire_col, o->unit, "6.8 genforsyning",
			     "a unit cannot fire while it is resupplied (\"Enheder kan ikke skyde mens der genforsynes\"; its resupply takes %d turn%s in a row)",
			     ks_resupply_turns(ctx, l->u),
			     ks_resupply_turns(ctx, l->u) == 1 ? "" : "s");
	if (ks_find(g, l->n, "stoette") && ks_find(g, l->n, "angreb"))
		ord_diag_add(l->d, o->line, ks_find(g, l->n, "stoette")->tok->col, o->unit, "6.6.5",
			     "a support may not have an attack order in the turn");
	/* a support fights beside its unit: it rests no more than the
	 * unit it supports (hvil_stoette_kontrol) */
	for (i = 0; rest && i < l->n; i++)
		if (ks_is_move(g[i].code) || is_fire(g[i].code) || !strcmp(g[i].code, "angreb") ||
		    (!strcmp(g[i].code, "stoette") && ks_check(l->r, "hvil_stoette_kontrol"))) {
			ord_diag_add(l->d, o->line, rest->tok->col, o->unit, "18 hvil",
				     "a resting unit (H) does not move, fire, attack or support ('%s' on the same line)",
				     symbol_of(g[i].code));
			break;
		}
	if (l->standing > quarters_per_turn(ctx))
		ord_diag_add(l->d, o->line, o->col, o->unit, "5.1",
			     "the orders take %d/%d of a turn (at most one turn)", l->standing,
			     quarters_per_turn(ctx));
	/* British cavalry out of control (8.4) goes on fighting */
	if (bound && !ks_find(g, l->n, "angreb"))
		ord_diag_add(l->d, o->line, o->col, o->unit, "8.4 britisk kavaleri",
			     "British cavalry out of control until turn %ld %s: its order must be 'A' (angreb)",
			     bound, bound_why);
}

/* Lines the sheet must have: British cavalry out of control attacks (8.4),
 * and a sheet that leaves its line out does not let it off
 * (britisk_linie_kontrol).  The side's units are in the context. */
static void check_missing_lines(struct ord_ctx *ctx, const struct ord_sheet *sheet,
				const unsigned *seen, size_t nseen, struct ord_diag *d)
{
	const char *side = ord_ctx_side(ctx), *why = NULL;
	unsigned last = sheet->n ? sheet->orders[sheet->n - 1].line : 0;
	size_t i;
	long bound;

	if (!side || !ks_check(ks_r(ctx), "britisk_linie_kontrol"))
		return;
	for (i = 0; i < ord_ctx_nunits(ctx); i++) {
		struct ord_unit *u = ord_ctx_unit(ctx, i);
		/* the side's units were all in the context when seen was
		 * made; units loaded since (a battery's ranged target) are
		 * other sides' */
		if (strcmp(u->side, side) || ord_ctx_unit_index(ctx, u) >= nseen ||
		    seen[ord_ctx_unit_index(ctx, u)] || ks_gone(ctx, u) ||
		    !(bound = ks_british_bound(ctx, u, &why)))
			continue;
		ord_diag_add(d, last + 1, 1, u->id, "8.4 britisk kavaleri",
			     "British cavalry '%s' is out of control until turn %ld and %s: the sheet must give it a line, its order 'A' (angreb)",
			     u->id, bound, why);
	}
}

/* Several batteries coordinate their fire on one target ("Flere batterier
 * kan koordinere deres skydning mod samme mål", 15): a KO at a target
 * that no other battery of the sheet coordinates on is refused
 * (koordination_flere_kontrol); before, one battery alone had the +1. */
static void check_coordinated_together(struct ord_ctx *ctx, const struct ord_sheet *sheet,
				       struct ord_diag *d)
{
	struct ko {
		const struct ord_order *o;
		const char *aim;
		const struct ord_unit *target;
		unsigned col;
	} *ko = NULL;
	struct ks_group g[KS_MAX_GROUPS];
	size_t i, j, k, n = 0, alloc = 0;

	if (!ks_check(ks_r(ctx), "koordination_flere_kontrol"))
		return;
	for (i = 0; i < sheet->n; i++) {
		const struct ord_order *o = &sheet->orders[i];
		size_t ng = ks_groups(o, g, KS_MAX_GROUPS);
		for (j = 0; j < ng; j++) {
			const struct ord_token *t;
			const char *h;
			if (strcmp(g[j].code, "koordination"))
				continue;
			t = ks_grp_tok(o, &g[j], ORD_TOK_TARGET);
			h = ks_grp_arg(o, &g[j], "hex");
			if (!t && !h)
				continue; /* no target: refused at the group */
			if (n == alloc)
				ko = ord_xrealloc(ko, (alloc = alloc ? 2 * alloc : 8) * sizeof(*ko));
			ko[n].o = o;
			ko[n].aim = t ? t->value : h;
			ko[n].target = t ? ord_ctx_find_unit(ctx, t->value) : NULL;
			ko[n].col = g[j].tok->col;
			n++;
		}
	}
	for (i = 0; i < n; i++) {
		for (k = 0; k < n; k++)
			if (k != i && ko[k].o != ko[i].o &&
			    (ko[i].target ? ko[k].target == ko[i].target
					  : !ko[k].target && !strcmp(ko[k].aim, ko[i].aim)))
				break;
		if (k == n)
			ord_diag_add(d, ko[i].o->line, ko[i].col, ko[i].o->unit, "15 koordinering",
				     "several batteries coordinate their fire on one target: no other battery of the sheet coordinates on '%s' (KO @%s)",
				     ko[i].aim, ko[i].aim);
	}
	free(ko);
}

static void validate_order(struct ord_ctx *ctx, const struct ord_order *o, struct ord_unit *u,
			   struct ord_diag *d)
{
	struct line l;
	size_t i, k;

	line_start(&l, ctx, o, u, d);
	for (i = 0; i < l.n; i++) {
		const char *code = l.g[i].code;

		if (!strcmp(code, "ordreaendring")) {
			l.change = (int)i;
			check_change(ctx, o, l.g, l.n, i, u, d);
			continue;
		}
		if (l.change < 0)
			l.standing += ks_grp_quarters(ctx, o, &l.g[i]);
		if (!code_allowed(code, l.vaaben)) {
			/* the arm's name, and the kind the orders go by when
			 * it is another word (tungt kavaleri: kavaleri) */
			int same = !strcmp(ks_arm_name(ctx, u), l.vaaben);
			GROUP_DIAG(&l, i, "6.1", "'%s' is not an order for %s%s%s%s",
				   symbol_of(code), ks_arm_name(ctx, u), same ? "" : " (",
				   same ? "" : l.vaaben, same ? "" : ")");
			continue;
		}
		check_group_target(&l, i);
		check_group_hex(&l, i);
		check_move_group(&l, i);
		for (k = 0; k < ORD_ARRAY_SIZE(group_checks); k++)
			if (!strcmp(code, group_checks[k].code)) {
				group_checks[k].check(&l, i);
				break;
			}
	}
	check_line(&l);
}

int ks_validate_sheet(struct ord_ctx *ctx, const struct ord_sheet *sheet, struct ord_diag *d)
{
	const char *side = ord_ctx_side(ctx);
	size_t nseen = ord_ctx_nunits(ctx) + 1;
	unsigned *seen = ord_xcalloc(nseen, sizeof(*seen));
	size_t i, before = d->n;

	for (i = 0; i < sheet->n; i++) {
		const struct ord_order *o = &sheet->orders[i];
		struct ord_unit *u = ord_ctx_find_unit(ctx, o->unit);
		size_t ui;

		if (!u) {
			struct ord_buf hint = ORD_BUF_INIT;
			ord_ctx_unit_hint(ctx, o->unit, ord_ctx_side(ctx), &hint);
			ord_diag_add(d, o->line, o->col, o->unit, "4.3", "unknown unit '%s'%s",
				     o->unit, hint.buf);
			ord_buf_release(&hint);
			continue;
		}
		if (side && strcmp(u->side, side)) {
			ord_diag_add(d, o->line, o->col, o->unit, "4.3",
				     "unit '%s' belongs to side %s, not %s", u->id, u->side, side);
			continue;
		}
		ui = ord_ctx_unit_index(ctx, u);
		if (seen[ui]) {
			ord_diag_add(d, o->line, o->col, o->unit, "4.3",
				     "second line for unit '%s' (its first is on line %u)", u->id,
				     seen[ui]);
			continue;
		}
		seen[ui] = o->line;
		if (ks_gone(ctx, u)) {
			struct ord_buf why = ORD_BUF_INIT;
			const char *rule;
			ks_gone_why(ctx, u, &why, &rule);
			ord_diag_add(d, o->line, o->col, o->unit, rule, "unit '%s' %s", u->id, why.buf);
			ord_buf_release(&why);
			continue;
		}
		validate_order(ctx, o, u, d);
	}
	check_missing_lines(ctx, sheet, seen, nseen, d);
	check_coordinated_together(ctx, sheet, d);
	free(seen);
	return d->n > before ? ORD_EBADSHEET : 0;
}
