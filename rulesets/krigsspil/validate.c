/*
 * validate.c - the krigsspil module's checks: an order sheet against the
 * rules and the units' state (validate_sheet), each referee event against
 * the sealed orders (check_event), and after the exchange what was done
 * against what was ordered (check_execution).
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

static int code_allowed(const char *code, const char *vaaben)
{
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(code_arms); i++)
		if (!strcmp(code_arms[i].code, code))
			return ord_words_has(code_arms[i].vaaben, vaaben);
	return 1; /* a code the notation added later: nothing known against it */
}

static int is_move(const char *code)
{
	return !strcmp(code, "march") || !strcmp(code, "stormmarch") || !strcmp(code, "loeb") ||
	       !strcmp(code, "tilbagetog") || !strcmp(code, "prolongering");
}

static int is_fire(const char *code)
{
	return !strcmp(code, "skydning") || !strcmp(code, "artilleriskydning") ||
	       !strcmp(code, "forsvarsskydning");
}

static const char *arm_name(struct ord_ctx *ctx, const struct ord_unit *u)
{
	const struct ord_row *row;

	if (ks_arm(ks_r(ctx), ks_art(u), &row)) {
		ord_error_clear();
		return ks_art(u);
	}
	return ord_row_str(row, "navn");
}

/* ---- stormmarch ---- */

int ks_stormmarch_refused(struct ord_ctx *ctx, const struct ord_unit *u, struct ord_buf *why)
{
	const struct ord_row *row;
	double every, in_row = ks_param(ks_r(ctx), "stormmarch_i_traek");
	long start = ks_st(ctx, u, "stormmarch_start"), last = ks_st(ctx, u, "stormmarch_sidst");
	int turn = ord_ctx_turn(ctx);

	if (ks_arm(ks_r(ctx), ks_art(u), &row)) {
		ord_error_clear();
		return 0;
	}
	if (ord_row_num(row, "stormmarch_hvert", &every)) {
		ord_error_clear();
		if (!strcmp(ks_art(u), "kosakker"))
			ord_buf_addf(why, "kosakker cannot stormmarch (8.5)");
		else
			ord_buf_addf(why, "%s cannot stormmarch", ord_row_str(row, "navn"));
		return 1;
	}
	if (last == turn - 1 && start) {
		/* going on with the stormmarch of last turn */
		if (turn - start + 1 > (long)in_row) {
			ord_buf_addf(why,
				     "at most %g turns in a row: it stormmarched in turns %ld to %ld",
				     in_row, start, last);
			return 1;
		}
		return 0;
	}
	if (start && turn - start < (long)every) {
		ord_buf_addf(why,
			     "%s may stormmarch only every %gth turn: its last stormmarch began in turn %ld, the next may be in turn %ld",
			     ord_row_str(row, "navn"), every, start, start + (long)every);
		return 1;
	}
	return 0;
}

/* ---- what a move crosses (13 passage af hindringer) ---- */

static const struct ord_row *chart_row(struct ord_ctx *ctx, const char *table, const char *key,
				       const char *value)
{
	const struct ord_row *row = NULL;
	struct ord_kv m;

	ord_kv_init(&m);
	ord_kv_set(&m, key, value);
	if (ord_table_find(&row, ks_table(ks_r(ctx), table), &m)) {
		ord_error_clear();
		row = NULL;
	}
	ord_kv_release(&m);
	return row;
}

static int plate_has(const struct ks_plate *p, const char *type)
{
	size_t i;

	for (i = 0; p && i < p->nf; i++)
		if (!strcmp(p->f[i].type, type))
			return 1;
	return 0;
}

/* The obstacle class of a crossing ("" when none), whether it must be
 * passed in march column (and from what width, *wider), and its name. */
static const char *crossing_class(struct ord_ctx *ctx, const struct ks_crossing *c,
				  int *march_column, double *wider, const char **name)
{
	struct ks_rules *r = ks_r(ctx);
	const struct ord_row *row;

	*march_column = 0;
	*wider = 0;
	*name = c->what;
	if (c->edge) {
		row = chart_row(ctx, "terraen", "terraen", c->what);
		if (!row)
			return "";
		*name = ord_row_str(row, "navn");
		return strcmp(ord_row_str(row, "kant"), "ingen") ? ord_row_str(row, "kant") : "";
	}
	row = chart_row(ctx, "hindringer", "element", c->f->type);
	if (row)
		*name = ord_row_str(row, "navn");
	if (!strcmp(c->f->type, "bro") || !strcmp(c->f->type, "vadested") ||
	    !strcmp(c->f->type, "vej") || !strcmp(c->f->type, "sti"))
		return ""; /* they carry the road over the stream; crossing them is nothing */
	if (!strcmp(c->f->type, "vandloeb")) {
		const struct ks_plate *p = ks_map_plate(r->map, c->q, c->r);
		if (plate_has(p, "bro"))
			return "";
		if (plate_has(p, "vadested")) {
			const struct ord_row *v = chart_row(ctx, "hindringer", "element", "vadested");
			*name = "vadested";
			return v && strcmp(ord_row_str(v, "klasse"), "ingen")
				       ? ord_row_str(v, "klasse")
				       : "";
		}
	}
	if (*c->f->obstacle)
		return strcmp(c->f->obstacle, "ingen") ? c->f->obstacle : "";
	if (c->f->high)
		return "impassabel";
	if (!strcmp(c->f->type, "vandloeb") && c->f->width > 0) {
		struct ord_kv m;
		const struct ord_row *b = NULL;
		ord_kv_init(&m);
		ord_kv_set(&m, "element", "vandloeb");
		if (ord_table_band(&b, ks_table(r, "vandloeb"), &m, c->f->width))
			ord_error_clear();
		ord_kv_release(&m);
		if (b) {
			*march_column = !strcmp(ord_row_str(b, "marchkolonne"), "ja");
			ord_row_num(b, "from", wider);
			return strcmp(ord_row_str(b, "klasse"), "ingen") ? ord_row_str(b, "klasse")
									 : "";
		}
	}
	return row && strcmp(ord_row_str(row, "klasse"), "ingen") ? ord_row_str(row, "klasse") : "";
}

struct move_ctx {
	struct ord_diag *d;
	unsigned line, col;
	const char *unit;
};

/* Check a straight move of u from (x0, y0) to (x1, y1) in `formation` with
 * morale `grade`; problems go to m->d. */
static void check_path(struct ord_ctx *ctx, const struct ord_unit *u, double x0, double y0,
		       double x1, double y1, const char *formation, int grade, int stormmarch,
		       struct move_ctx *m)
{
	struct ks_rules *r = ks_r(ctx);
	struct ks_crossing cr[64];
	size_t n, i;
	int closed = ks_closed(ctx, u, formation);
	const char *vaaben = ks_vaaben(ctx, u);

	if (!r->map)
		return;
	n = ks_map_trace(r->map, x0, y0, x1, y1, cr, ORD_ARRAY_SIZE(cr));
	{
		const struct ks_plate *end = ks_map_at(r->map, x1, y1);
		if (end && !strcmp(end->terrain, "vand"))
			ord_diag_add(m->d, m->line, m->col, m->unit, "3.1 vand",
				     "plate %d,%d is water: no unit can stand there", end->q, end->r);
	}
	for (i = 0; i < n; i++) {
		const char *name, *cls;
		int mc, obstacle;
		double wider;
		char where[32];

		snprintf(where, sizeof(where), "plate %d,%d", cr[i].q, cr[i].r);
		cls = crossing_class(ctx, &cr[i], &mc, &wider, &name);
		if (!strcmp(cls, "impassabel")) {
			ord_diag_add(m->d, m->line, m->col, m->unit, "13 passage af hindringer",
				     "the %s on %s cannot be passed (impassable)", name, where);
			continue;
		}
		if (cr[i].edge && (!strcmp(cr[i].what, "skov") || !strcmp(cr[i].what, "sump")) &&
		    ks_map_at(r->map, x1, y1) &&
		    !strcmp(ks_map_at(r->map, x1, y1)->terrain, cr[i].what)) {
			/* 13 passage af skov, sump eller mose */
			if (closed && strcmp(formation, "marchkolonne"))
				ord_diag_add(m->d, m->line, m->col, m->unit,
					     "13 passage af skov, sump eller mose",
					     "%s on %s is passed in close order only in march column (on paths)",
					     name, where);
			else if (!closed && strcmp(vaaben, "infanteri") && strcmp(ks_art(u), "kosakker"))
				ord_diag_add(m->d, m->line, m->col, m->unit,
					     "13 passage af skov, sump eller mose",
					     "%s on %s is passed in open order only by infantry and cossacks",
					     name, where);
		}
		if (mc && strcmp(formation, "marchkolonne")) {
			struct ord_buf w = ORD_BUF_INIT;
			ks_fmt_part(&w, wider);
			ord_diag_add(m->d, m->line, m->col, m->unit, "13 passage af vandløb",
				     "the %s on %s is wider than %s cm: it must be crossed in march column",
				     name, where, w.buf);
			ord_buf_release(&w);
		}
		obstacle = *cls != '\0';
		if (!obstacle)
			continue;
		if (stormmarch)
			ord_diag_add(m->d, m->line, m->col, m->unit, "13 stormmarch",
				     "obstacles cannot be passed in stormmarch: the %s on %s is obstacle %s",
				     name, where, cls);
		if (grade == KS_U && closed)
			ord_diag_add(m->d, m->line, m->col, m->unit, "13 passage af hindringer",
				     "a close formation in U cannot pass obstacles: the %s on %s is obstacle %s",
				     name, where, cls);
		if (strcmp(cls, "I")) {
			if (!strcmp(vaaben, "kavaleri") || !strcmp(vaaben, "artilleri"))
				ord_diag_add(m->d, m->line, m->col, m->unit, "13 passage af hindringer",
					     "%s cannot pass obstacle %s: the %s on %s",
					     arm_name(ctx, u), cls, name, where);
			else if (grade == KS_U && !closed)
				ord_diag_add(m->d, m->line, m->col, m->unit, "13 passage af hindringer",
					     "an open formation in U cannot pass obstacle %s: the %s on %s",
					     cls, name, where);
			else if (grade == KS_FU)
				ord_diag_add(m->d, m->line, m->col, m->unit, "13 passage af hindringer",
					     "infantry in FU cannot pass obstacle %s: the %s on %s",
					     cls, name, where);
		} else if (grade == KS_FU && !strcmp(vaaben, "artilleri")) {
			ord_diag_add(m->d, m->line, m->col, m->unit, "13 passage af hindringer",
				     "artillery in FU cannot pass obstacles: the %s on %s", name,
				     where);
		}
	}
}

/* ---- sheets ---- */

struct line_state {
	char formation[40];
	int unlimbered, ready;
	double x, y;
	int have_pos;
};

static double pool_of(struct ord_ctx *ctx, const struct ord_unit *u, const char *ammo)
{
	if (!strcmp(ammo, "SK"))
		return ks_st_num(ctx, u, "ks_kardaesk");
	if (!strcmp(ammo, "SS"))
		return ks_st_num(ctx, u, "ks_shrapnel");
	return ks_st_num(ctx, u, "ks_fuldkugle");
}

/* Which pieces of a battery may fire the ammunition, or NULL if none. */
static const char *battery_can_fire(const struct ord_unit *u, const char *ammo)
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

static int same_unit(struct ord_ctx *ctx, const char *written, const struct ord_unit *u)
{
	return written && u && ord_ctx_find_unit(ctx, written) == u;
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
		/* fire and ranging may aim at an object (a church, a wood) */
		if (!strcmp(g->code, "indskydning") || !strcmp(g->code, "koordination") ||
		    !strcmp(g->code, "skydning") || !strcmp(g->code, "artilleriskydning") ||
		    !strcmp(g->code, "genforsyning") || !strcmp(g->code, "opdeling"))
			return;
		ord_diag_add(d, o->line, t->col, o->unit, "4.3", "unknown unit '%s' for '%s'",
			     t->value, symbol_of(g->code));
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
	else if (ks_gone(ctx, tu))
		ord_diag_add(d, o->line, t->col, o->unit, "17", "target '%s' is out of the game",
			     t->value);
}

/* The support conditions that do not depend on the attack (6.6, 8.3, 11.8). */
static void check_support_unit(struct ord_ctx *ctx, const struct ord_unit *u,
			       const struct ord_unit *sup, const char *formation,
			       struct ord_diag *d, unsigned line, unsigned col, const char *name)
{
	struct ks_rules *r = ks_r(ctx);
	int fig = ks_figures(ctx, u), sfig = ks_figures(ctx, sup);
	int inf = ks_is(ctx, sup, "infanteri"), cav = ks_is(ctx, sup, "kavaleri");
	double share = ks_param(r, inf ? "stoette_min_infanteri" : "stoette_min_kavaleri");
	double part = ks_param(r, "stoette_andel");

	if (fig < part * sfig)
		ord_diag_add(d, line, col, name, "6.6 støtteenheder",
			     "a support must have at least %g times the figures of the unit it supports: %d for %s's %d",
			     part, fig, sup->id, sfig);
	if ((inf || cav) && fig < share)
		ord_diag_add(d, line, col, name, "6.6 støtteenheder",
			     "a support of %s must have at least %g figures, it has %d",
			     inf ? "infantry" : "cavalry", share, fig);
	if (!strcmp(formation, "hob"))
		ord_diag_add(d, line, col, name, "11.8 hob", "a hob cannot be a support");
	else if (!ks_closed(ctx, u, formation))
		ord_diag_add(d, line, col, name, "6.6.5",
			     "a support must stand in close order, not %s", formation);
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

/* 4.3.4: an order change and its reaction time. */
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
			 !(!strcmp(c, "angreb") && !strcmp(ks_art(u), "let_kavaleri")))
			ord_diag_add(d, o->line, g[i].tok->col, o->unit, "4.2.5",
				     !strcmp(c, "angreb")
					     ? "only light cavalry may attack an emerging target (mål); %s may only fire at it"
					     : "a change for an emerging target (mål) may only open fire on it, not '%s'",
				     !strcmp(c, "angreb") ? arm_name(ctx, u) : symbol_of(c));
	}
	/* the new order starts after ½ turn of reaction time, counted from the
	 * cause; with no standing order written the cause may lie in the last
	 * turn and its time have run.  Opening or ceasing small-arms fire and
	 * artillery defensive fire need none. */
	exception = at + 1 < n &&
		    (!strcmp(g[at + 1].code, "skydning") || !strcmp(g[at + 1].code, "ophoer") ||
		     !strcmp(g[at + 1].code, "forsvarsskydning"));
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

static void validate_order(struct ord_ctx *ctx, const struct ord_order *o, struct ord_unit *u,
			   struct ord_diag *d)
{
	struct ks_rules *r = ks_r(ctx);
	struct ks_group g[KS_MAX_GROUPS];
	struct line_state ls;
	struct ord_buf why = ORD_BUF_INIT;
	const char *vaaben = ks_vaaben(ctx, u), *ammo_used = NULL;
	size_t n = ks_groups(o, g, KS_MAX_GROUPS), i;
	int turn = ord_ctx_turn(ctx), grade = ks_moral_now(ctx, u);
	int fires = 0, supports = 0, storm_at = -1, standing_q = 0, change = -1;
	unsigned first_fire_col = 0;
	int coordinated = ks_find(g, n, "koordination") != NULL;

	memset(&ls, 0, sizeof(ls));
	snprintf(ls.formation, sizeof(ls.formation), "%s", ks_form(ctx, u));
	ls.unlimbered = strcmp(ks_st_str(ctx, u, "prodset"), "paa") != 0;
	ls.ready = ks_st(ctx, u, "klargjort") != 0;
	ls.have_pos = ks_st_has(ctx, u, "x");
	ls.x = ks_st_num(ctx, u, "x");
	ls.y = ks_st_num(ctx, u, "y");

	for (i = 0; i < n; i++) {
		const char *code = g[i].code;
		unsigned col = g[i].tok->col;

		if (!strcmp(code, "ordreaendring")) {
			change = (int)i;
			check_change(ctx, o, g, n, i, u, d);
			continue;
		}
		if (change < 0)
			standing_q += ks_grp_quarters(ctx, o, &g[i]);
		if (!code_allowed(code, vaaben)) {
			ord_diag_add(d, o->line, col, o->unit, "6.1",
				     "'%s' is not an order for %s (%s)", symbol_of(code),
				     arm_name(ctx, u), ks_art(u));
			continue;
		}
		/* targets */
		if (!strcmp(code, "angreb") || !strcmp(code, "skydning") ||
		    !strcmp(code, "artilleriskydning") || !strcmp(code, "forsvarsskydning") ||
		    !strcmp(code, "forsvar") || !strcmp(code, "modangreb") ||
		    !strcmp(code, "indskydning") || !strcmp(code, "koordination"))
			check_target(ctx, o, &g[i], u, 0, d);
		else if (!strcmp(code, "stoette") || !strcmp(code, "samling"))
			check_target(ctx, o, &g[i], u, 1, d);

		/* a broken-off stormmarch cannot be resumed (13) */
		if (!strcmp(code, "stormmarch")) {
			if (storm_at >= 0 && storm_at != (int)i - 1)
				ord_diag_add(d, o->line, col, o->unit, "13 stormmarch",
					     "a stormmarch broken off cannot be resumed (it was broken off after column %u)",
					     g[storm_at].tok->col);
			storm_at = (int)i;
		}
		if (is_move(code)) {
			int q, rr;
			if (!strcmp(vaaben, "artilleri") && strcmp(code, "prolongering") && ls.unlimbered)
				ord_diag_add(d, o->line, col, o->unit, "9.4",
					     "a battery marches limbered: 'PP' (påprodsning) first, or 'PR' (prolongering)");
			if (ks_grp_hex(o, &g[i], &q, &rr) && ls.have_pos && r->map) {
				double x1, y1, dist, reach;
				struct move_ctx m = { d, o->line, col, o->unit };
				ks_map_centre(r->map, q, rr, &x1, &y1);
				/* only as far as the march takes it in the time ordered */
				reach = ks_march_length(r, ks_art(u), ls.formation,
							!strcmp(code, "stormmarch")) *
					ks_grp_quarters(ctx, o, &g[i]) / quarters_per_turn(ctx);
				dist = hypot(x1 - ls.x, y1 - ls.y);
				if (reach > 0 && dist > reach) {
					x1 = ls.x + (x1 - ls.x) * reach / dist;
					y1 = ls.y + (y1 - ls.y) * reach / dist;
				}
				check_path(ctx, u, ls.x, ls.y, x1, y1, ls.formation, grade,
					   !strcmp(code, "stormmarch"), &m);
				ls.x = x1;
				ls.y = y1;
			} else if (ks_grp_tok(o, &g[i], ORD_TOK_DIR)) {
				ls.have_pos = 0; /* direction only: where it ends is not known */
			}
		}
		if (!strcmp(code, "stormmarch")) {
			ord_buf_reset(&why);
			if (!strcmp(ks_art(u), "kosakker") || ks_stormmarch_refused(ctx, u, &why))
				ord_diag_add(d, o->line, col, o->unit,
					     !strcmp(ks_art(u), "kosakker") ? "8.5 kosakker"
									    : "13 stormmarch",
					     "%s",
					     why.len ? why.buf : "kosakker cannot stormmarch (8.5)");
		} else if (!strcmp(code, "loeb")) {
			long last = ks_st(ctx, u, "loeb_sidst");
			double every = ks_param(r, "loeb_hvert");
			if (strcmp(ls.formation, "linie"))
				ord_diag_add(d, o->line, col, o->unit, "13 løb i linie",
					     "only infantry in line may use løb; it is in %s",
					     ls.formation);
			if (last && turn - last < (long)every)
				ord_diag_add(d, o->line, col, o->unit, "13 løb i linie",
					     "løb may be used at most every %gth turn: it ran in turn %ld, the next may be in turn %ld",
					     every, last, last + (long)every);
		} else if (!strcmp(code, "march") && !strcmp(vaaben, "artilleri") &&
			   !strcmp(ls.formation, "linie") && !ls.unlimbered &&
			   ks_st(ctx, u, "march_sidst") > 0 &&
			   ks_st(ctx, u, "march_sidst") == turn - 1 &&
			   ks_st(ctx, u, "march_i_traek") >=
				   (long)ks_param(r, "artilleri_march_i_traek")) {
			ord_diag_add(d, o->line, col, o->unit, "13 artilleri i linie",
				     "limbered artillery in line may march at most %g turns in a row (it marched in turns %ld to %d)",
				     ks_param(r, "artilleri_march_i_traek"),
				     turn - ks_st(ctx, u, "march_i_traek"), turn - 1);
		} else if (!strcmp(code, "prolongering") && ks_st(ctx, u, "prolong_sidst") > 0 &&
			   ks_st(ctx, u, "prolong_sidst") == turn - 1 &&
			   ks_param(r, "prolongering_i_traek") <= 1) {
			ord_diag_add(d, o->line, col, o->unit, "9.5 prolongering",
				     "a battery may prolonge at most %g turn in a row (it did in turn %d)",
				     ks_param(r, "prolongering_i_traek"), turn - 1);
		} else if (!strcmp(code, "angreb")) {
			if (!strcmp(ks_art(u), "kosakker") && ks_closed(ctx, u, ls.formation))
				ord_diag_add(d, o->line, col, o->unit, "8.5 kosakker",
					     "cossacks cannot attack in close order (%s)",
					     ls.formation);
			if (!strcmp(vaaben, "kavaleri") &&
			    ks_st(ctx, u, "valeur") < (long)ks_param(r, "valeur_min"))
				ord_diag_add(d, o->line, col, o->unit, "8.3 tab af valeur",
					     "cavalry with valeur %ld (under %g) cannot attack",
					     ks_st(ctx, u, "valeur"), ks_param(r, "valeur_min"));
			if (grade >= KS_U)
				ord_diag_add(d, o->line, col, o->unit, "6.3 indbrudsafstand",
					     "only units in OR or LU may move into the enemy's break-in distance; it is in %s",
					     ks_moral_name(grade));
		} else if (!strcmp(code, "skydning")) {
			double use = ks_param(r, "forbrug_skydning");
			if (!fires++)
				first_fire_col = col;
			if (!strcmp(vaaben, "kavaleri") && !ord_kv_get_bool(&u->attrs, "karabiner", 0))
				ord_diag_add(d, o->line, col, o->unit, "8.2",
					     "only cavalry with carbines fires; %s has none", u->id);
			else if (ks_st_num(ctx, u, "kampsatser") < use)
				ord_diag_add(d, o->line, col, o->unit,
					     !strcmp(vaaben, "kavaleri") ? "8.2.2" : "7.2.2",
					     "no ammunition: %s kampsatser left, a fire takes %g",
					     ks_st_str(ctx, u, "kampsatser"), use);
			if (grade == KS_FU)
				ord_diag_add(d, o->line, col, o->unit, "6.5",
					     "a unit in FU flees, it cannot fire");
		} else if (!strcmp(code, "artilleriskydning") || !strcmp(code, "forsvarsskydning")) {
			const char *ammo = !strcmp(code, "forsvarsskydning")
						   ? "SK"
						   : ks_grp_arg(o, &g[i], "ammo");
			double use = ks_param(r, coordinated ? "forbrug_koordineret"
							     : "forbrug_skydning");
			if (!fires++)
				first_fire_col = col;
			if (ammo) {
				const char *who = battery_can_fire(u, ammo);
				if (ammo_used && strcmp(ammo_used, ammo))
					ord_diag_add(d, o->line, col, o->unit, "15 ammunitionstyper",
						     "a unit fires one type of ammunition in a turn: %s and %s",
						     ammo_used, ammo);
				ammo_used = ammo;
				if (!who)
					ord_diag_add(d, o->line, col, o->unit, "15 ammunitionstyper",
						     "the battery has no pieces that fire %s", ammo);
				else if (pool_of(ctx, u, ammo) < use)
					ord_diag_add(d, o->line, col, o->unit, "9.2",
						     "no %s ammunition left (%g kampsatser, a fire takes %g a gun)",
						     ammo, pool_of(ctx, u, ammo), use);
			}
			if (!ls.unlimbered || !ls.ready)
				ord_diag_add(d, o->line, col, o->unit, "15 deltagende enheder",
					     "only unlimbered and ready pieces fire: it is %s and %s",
					     ls.unlimbered ? "unlimbered" : "limbered ('AP' first)",
					     ls.ready ? "ready" : "not ready ('KL' first)");
			if (ks_st(ctx, u, "kanoner") < 1)
				ord_diag_add(d, o->line, col, o->unit, "9.6",
					     "the battery has no serviceable gun");
		} else if (!strcmp(code, "indskydning")) {
			if (!ls.unlimbered || !ls.ready)
				ord_diag_add(d, o->line, col, o->unit, "15 indskydning",
					     "ranging needs an unlimbered, ready gun");
		} else if (!strcmp(code, "koordination")) {
			const struct ord_token *t = ks_grp_tok(o, &g[i], ORD_TOK_TARGET);
			const char *h = ks_grp_arg(o, &g[i], "hex");
			const char *aim = t ? t->value : h;
			const char *ranged = ks_st_str(ctx, u, "indskudt_paa");
			if (aim && strcmp(ranged, aim) &&
			    !(t && ord_ctx_find_unit(ctx, t->value) &&
			      ord_ctx_find_unit(ctx, ranged) == ord_ctx_find_unit(ctx, t->value)))
				ord_diag_add(d, o->line, col, o->unit, "15 koordinering",
					     "to coordinate, the battery must have ranged on '%s' (it has ranged on %s)",
					     aim, *ranged ? ranged : "nothing");
		} else if (!strcmp(code, "afprodsning")) {
			ls.unlimbered = 1;
		} else if (!strcmp(code, "paaprodsning")) {
			ls.unlimbered = 0;
			ls.ready = 0;
		} else if (!strcmp(code, "klargoering")) {
			if (!ls.unlimbered)
				ord_diag_add(d, o->line, col, o->unit, "9.4",
					     "guns are made ready unlimbered ('AP' first)");
			ls.ready = 1;
		} else if (!strcmp(code, "reparation")) {
			if (ks_st(ctx, u, "beskadiget") < 1)
				ord_diag_add(d, o->line, col, o->unit, "9.6",
					     "the battery has no damaged gun to repair");
		} else if (!strcmp(code, "formation")) {
			char f[40];
			const struct ord_row *row;
			const struct ks_plate *p = r->map && ls.have_pos
							   ? ks_map_at(r->map, ls.x, ls.y)
							   : NULL;
			int in_cover = p && (!strcmp(p->terrain, "bebyggelse") ||
					     !strcmp(p->terrain, "skov") ||
					     !strcmp(p->terrain, "plantage"));
			ks_grp_formation(o, &g[i], f, sizeof(f));
			if (ks_formation(r, f, vaaben, &row)) {
				ord_diag_add(d, o->line, col, o->unit, "11 formationer",
					     "%s cannot form %s", arm_name(ctx, u), f);
				ord_error_clear();
			} else if (!ks_closed(ctx, u, f) && !in_cover &&
				   !ord_kv_get_bool(&u->attrs, "spredt", 0) &&
				   strcmp(ks_art(u), "let_kavaleri") && strcmp(ks_art(u), "kosakker")) {
				ord_diag_add(d, o->line, col, o->unit, "11 skyttekæde/sværm",
					     "only special troops (spredt) form open order, not %s",
					     u->id);
			} else if (!strcmp(f, "hob")) {
				ord_diag_add(d, o->line, col, o->unit, "11.8 hob",
					     "a hob is not ordered: a unit falls into it");
			}
			snprintf(ls.formation, sizeof(ls.formation), "%s", f);
		} else if (!strcmp(code, "genforsyning")) {
			const char *ammo = ks_grp_arg(o, &g[i], "ammo");
			if (ammo && strcmp(vaaben, "artilleri"))
				ord_diag_add(d, o->line, col, o->unit, "6.8 genforsyning",
					     "only a battery is resupplied by ammunition type");
		} else if (!strcmp(code, "ammunitionsskift")) {
			const char *ammo = ks_grp_arg(o, &g[i], "ammo");
			if (ammo && ammo_used && strcmp(ammo, ammo_used))
				ord_diag_add(d, o->line, col, o->unit, "15 ammunitionstyper",
					     "a unit fires one type of ammunition in a turn: %s and %s",
					     ammo_used, ammo);
			if (ammo && !battery_can_fire(u, ammo))
				ord_diag_add(d, o->line, col, o->unit, "15 ammunitionstyper",
					     "the battery has no pieces that fire %s", ammo);
			if (ammo)
				ammo_used = ammo;
		} else if (!strcmp(code, "stoette")) {
			const struct ord_token *t = ks_grp_tok(o, &g[i], ORD_TOK_TARGET);
			struct ord_unit *sup = t ? ord_ctx_find_unit(ctx, t->value) : NULL;
			if (++supports > 1)
				ord_diag_add(d, o->line, col, o->unit, "6.6.5",
					     "a support supports only one unit in a turn");
			if (sup && sup != u && !strcmp(sup->side, u->side))
				check_support_unit(ctx, u, sup, ls.formation, d, o->line, col, o->unit);
		} else if (!strcmp(code, "opdeling")) {
			if (strcmp(vaaben, "infanteri") || !ord_kv_get_bool(&u->attrs, "spredt", 0))
				ord_diag_add(d, o->line, col, o->unit, "7.1",
					     "only special infantry (spredt) splits into companies");
		} else if (!strcmp(code, "samling")) {
			size_t k;
			for (k = g[i].first; k < g[i].end; k++) {
				const struct ord_unit *w;
				const char *b1, *b2;
				if (o->tok[k].kind != ORD_TOK_TARGET)
					continue;
				w = ord_ctx_find_unit(ctx, o->tok[k].value);
				if (!w || strcmp(w->side, u->side))
					continue;
				b1 = ord_kv_get(&u->attrs, "brigade");
				b2 = ord_kv_get(&w->attrs, "brigade");
				if (strcmp(ks_art(u), ks_art(w)))
					ord_diag_add(d, o->line, o->tok[k].col, o->unit, "6.2",
						     "only units of the same kind merge: %s is %s",
						     w->id, ks_art(w));
				else if ((b1 || b2) && (!b1 || !b2 || strcmp(b1, b2)) &&
					 !(change >= 0 && ks_grp_arg(o, &g[change], "reason") &&
					   !strcmp(ks_grp_arg(o, &g[change], "reason"), "instruks")))
					ord_diag_add(d, o->line, o->tok[k].col, o->unit, "6.2",
						     "units of different operative units merge only by an instruction (ÆNDR instruks)");
			}
		}
	}
	if (fires > 1)
		ord_diag_add(d, o->line, first_fire_col, o->unit, "14",
			     "a unit fires only once in a turn (\"en enhed kan kun skyde 1 gang i et træk\"): the line orders %d fires",
			     fires);
	if (fires && ks_find(g, n, "genforsyning"))
		ord_diag_add(d, o->line, first_fire_col, o->unit, "6.8 genforsyning",
			     "a unit cannot fire while it is resupplied");
	if (ks_find(g, n, "stoette") && ks_find(g, n, "angreb"))
		ord_diag_add(d, o->line, ks_find(g, n, "stoette")->tok->col, o->unit, "6.6.5",
			     "a support may not have an attack order in the turn");
	if (ks_find(g, n, "hvil")) {
		for (i = 0; i < n; i++)
			if (is_move(g[i].code) || is_fire(g[i].code) || !strcmp(g[i].code, "angreb")) {
				ord_diag_add(d, o->line, ks_find(g, n, "hvil")->tok->col, o->unit,
					     "18 hvil",
					     "a resting unit (H) does not move, fire or attack ('%s' on the same line)",
					     symbol_of(g[i].code));
				break;
			}
	}
	if (standing_q > quarters_per_turn(ctx))
		ord_diag_add(d, o->line, o->col, o->unit, "5.1",
			     "the orders take %d/%d of a turn (at most one turn)", standing_q,
			     quarters_per_turn(ctx));
	/* British cavalry out of control (8.4) goes on fighting */
	if (ks_british(u) && !strcmp(vaaben, "kavaleri") && grade < KS_U &&
	    (ks_st(ctx, u, "britisk_kontrol_til") >= turn ||
	     ks_st(ctx, u, "britisk_forfoelg_til") >= turn) &&
	    !ks_find(g, n, "angreb"))
		ord_diag_add(d, o->line, o->col, o->unit, "8.4 britisk kavaleri",
			     "British cavalry out of control until turn %ld %s: its order must be 'A' (angreb)",
			     ks_st(ctx, u, "britisk_kontrol_til") >= turn
				     ? ks_st(ctx, u, "britisk_kontrol_til")
				     : ks_st(ctx, u, "britisk_forfoelg_til"),
			     ks_st(ctx, u, "britisk_kontrol_til") >= turn
				     ? "stays in the melee"
				     : "pursues its beaten enemy");
	ord_buf_release(&why);
}

int ks_validate_sheet(struct ord_ctx *ctx, const struct ord_sheet *sheet, struct ord_diag *d)
{
	const char *side = ord_ctx_side(ctx);
	unsigned *seen = ord_xcalloc(ord_ctx_nunits(ctx) + 1, sizeof(*seen));
	size_t i, before = d->n;

	for (i = 0; i < sheet->n; i++) {
		const struct ord_order *o = &sheet->orders[i];
		struct ord_unit *u = ord_ctx_find_unit(ctx, o->unit);
		size_t ui;

		if (!u) {
			ord_diag_add(d, o->line, o->col, o->unit, "4.3", "unknown unit '%s'", o->unit);
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
			ord_diag_add(d, o->line, o->col, o->unit, "17", "unit '%s' %s", u->id,
				     ks_st(ctx, u, "overgivet") ? "has surrendered"
								: "is out of the game");
			continue;
		}
		validate_order(ctx, o, u, d);
	}
	free(seen);
	return d->n > before ? ORD_EBADSHEET : 0;
}

/* ---- events ---- */

static struct ord_unit *ev_unit(struct ord_ctx *ctx, const struct ord_event *ev, const char *key)
{
	const char *v = ord_kv_get(&ev->kv, key);
	return v ? ord_ctx_find_unit(ctx, v) : NULL;
}

/* The groups of a unit's order this turn. */
static size_t unit_groups(struct ord_ctx *ctx, const struct ord_unit *u, struct ks_group *g,
			  const struct ord_order **o)
{
	*o = ord_ctx_order(ctx, u);
	return ks_groups(*o, g, KS_MAX_GROUPS);
}

/* Does the order have `code` aimed at unit t (any group with that code)? */
static const struct ks_group *ordered_at(struct ord_ctx *ctx, const struct ord_unit *u,
					 const char *code, const struct ord_unit *t,
					 const struct ord_order **op, struct ks_group *g, size_t *np)
{
	const struct ord_order *o;
	size_t n = unit_groups(ctx, u, g, &o), i;
	const struct ks_group *any = NULL;

	*op = o;
	*np = n;
	for (i = 0; i < n; i++) {
		const struct ord_token *tt;
		if (strcmp(g[i].code, code))
			continue;
		any = &g[i];
		tt = ks_grp_tok(o, &g[i], ORD_TOK_TARGET);
		if (tt && same_unit(ctx, tt->value, t))
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

/* The referee's flags: "a,b,c" or "a=2,b"; each must be a flag of one of
 * the tables. */
static void check_flags(struct ord_ctx *ctx, const char *list, const char *const *tables,
			const char *key, const char *unit, struct ord_diag *d)
{
	const char *p = list;

	while (p && *p) {
		size_t len = strcspn(p, ",");
		char name[128];
		size_t nl = strcspn(p, ",=");
		int known = 0, t;

		if (nl > len)
			nl = len;
		if (nl && nl < sizeof(name)) {
			memcpy(name, p, nl);
			name[nl] = '\0';
			for (t = 0; tables[t]; t++) {
				const struct ord_table *tbl = ks_table(ks_r(ctx), tables[t]);
				size_t i;
				for (i = 0; tbl && i < ord_table_nrows(tbl); i++) {
					const char *w = ord_row_attr(ord_table_row(tbl, i), "when");
					const char *un = ord_row_attr(ord_table_row(tbl, i), "unless");
					if ((w && ord_words_has(w, name)) ||
					    (un && ord_words_has(un, name)))
						known = 1;
				}
			}
			if (!known)
				ord_diag_add(d, 0, 0, unit, "Skema",
					     "%s: unknown modifier flag '%s' (the flags are the names in the 'when' lists of %s%s%s)",
					     key, name, tables[0], tables[1] ? ", " : "",
					     tables[1] ? tables[1] : "");
		}
		p += len;
		if (*p == ',')
			p++;
	}
}

static int fired_this_turn(struct ord_ctx *ctx, const struct ord_event *ev, const struct ord_unit *u)
{
	size_t i;

	for (i = 0; i < ord_ctx_nevents(ctx); i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		if (e->seq == ev->seq)
			continue;
		if ((!strcmp(e->kind, "skyd") || !strcmp(e->kind, "artilleri") ||
		     !strcmp(e->kind, "forsvarsild")) &&
		    ev_unit(ctx, e, "unit") == u)
			return (int)e->seq;
	}
	return ks_st(ctx, u, "skoed") == ord_ctx_turn(ctx) ? -1 : 0;
}

static void check_zone(const struct ord_event *ev, const struct ord_unit *u, struct ord_diag *d)
{
	if (!ord_kv_get(&ev->kv, "zone") && !ord_kv_get(&ev->kv, "afstand"))
		ord_diag_add(d, 0, 0, u->id, "14",
			     "give the zone (zone=I|II|III) or the distance (afstand=CM)");
}

static void check_flyt(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_unit *u,
		       struct ord_diag *d)
{
	struct ks_group g[KS_MAX_GROUPS];
	const struct ord_order *o;
	size_t n = unit_groups(ctx, u, g, &o), i;
	int retreat = ord_kv_get_bool(&ev->kv, "retraete", 0);
	int storm = ord_kv_get_bool(&ev->kv, "stormmarch", 0);
	int loeb = ord_kv_get_bool(&ev->kv, "loeb", 0);
	int grade = ks_moral_now(ctx, u), moves = 0;

	for (i = 0; i < n; i++)
		if (is_move(g[i].code) || !strcmp(g[i].code, "angreb") ||
		    !strcmp(g[i].code, "modangreb"))
			moves = 1;
	if (retreat) {
		if (grade < KS_U && !ks_find(g, n, "tilbagetog"))
			ord_diag_add(d, 0, 0, u->id, "6.5",
				     "a retreat by the rules is for a unit in U or FU; '%s' is in %s and its order has no 'TT'",
				     u->id, ks_moral_name(grade));
	} else if (!moves) {
		ord_diag_add(d, 0, 0, u->id, "4.3",
			     "unit '%s' moved but its sheet orders no march (M SM L TT PR or A)",
			     u->id);
	}
	if (storm && !ks_find(g, n, "stormmarch") && !(retreat && ks_is(ctx, u, "kavaleri")))
		ord_diag_add(d, 0, 0, u->id, "4.3",
			     "unit '%s' stormmarched but its sheet orders no 'SM'", u->id);
	if (loeb && !ks_find(g, n, "loeb"))
		ord_diag_add(d, 0, 0, u->id, "4.3",
			     "unit '%s' ran (løb) but its sheet orders no 'L'", u->id);
	if (ks_st_has(ctx, u, "x")) {
		struct move_ctx m = { d, 0, 0, u->id };
		check_path(ctx, u, ks_st_num(ctx, u, "x"), ks_st_num(ctx, u, "y"),
			   ord_kv_get_num(&ev->kv, "x", 0), ord_kv_get_num(&ev->kv, "y", 0),
			   ks_form(ctx, u), grade, storm, &m);
	}
}

static void check_naerkamp(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_diag *d)
{
	static const char *const tables[] = { "skema_xv_naerkamp", NULL };
	struct ord_unit *a = ev_unit(ctx, ev, "angriber"), *f = ev_unit(ctx, ev, "forsvarer");
	int turn = ord_ctx_turn(ctx);
	int pursuit = ord_kv_get_bool(&ev->kv, "forfoelgelse", 0);
	size_t i;
	int declared = 0;

	if (!strcmp(a->side, f->side)) {
		ord_diag_add(d, 0, 0, a->id, "16", "'%s' and '%s' are of the same side", a->id, f->id);
		return;
	}
	if (ks_gone(ctx, a) || ks_gone(ctx, f))
		ord_diag_add(d, 0, 0, ks_gone(ctx, a) ? a->id : f->id, "17",
			     "'%s' is out of the game", ks_gone(ctx, a) ? a->id : f->id);
	if (ks_st(ctx, a, "angreb_traek") == turn && !strcmp(ks_st_str(ctx, a, "angreb_maal"), f->id))
		declared = 1;
	if (ks_st(ctx, a, "reaktion_traek") == turn &&
	    !strcmp(ks_st_str(ctx, a, "reaktion"), "modangreb"))
		declared = 1;
	for (i = 0; i < ord_ctx_nevents(ctx); i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		if (!strcmp(e->kind, "fortryd") && ev_unit(ctx, e, "unit") == a && e->seq < ev->seq)
			ord_diag_add(d, 0, 0, a->id, "16", "'%s' cancelled its attack (event #%u)",
				     a->id, e->seq);
	}
	if (!declared)
		ord_diag_add(d, 0, 0, a->id, "16.2 angrebserklæring",
			     "no attack of '%s' on '%s' was declared this turn (event 'angreb' in the declaration phase)",
			     a->id, f->id);
	if (pursuit) {
		double need = ks_param(ks_r(ctx), "forfoelgelse_pct");
		double cav = ks_param(ks_r(ctx), "forfoelgelse_kavaleri_gange");
		int own = (int)(ks_figures(ctx, a) * (ks_is(ctx, a, "kavaleri") ? cav : 1));
		int other = (int)(ks_figures(ctx, f) * (ks_is(ctx, f, "kavaleri") ? cav : 1));
		if (ks_moral_now(ctx, f) != KS_FU)
			ord_diag_add(d, 0, 0, f->id, "17 forfølgelsesangreb",
				     "a pursuit attack is on a unit in FU; '%s' is in %s", f->id,
				     ks_moral_name(ks_moral_now(ctx, f)));
		if (100.0 * own < need * other)
			ord_diag_add(d, 0, 0, a->id, "17 forfølgelsesangreb",
				     "a pursuit needs at least %g%% of the fleeing unit's strength (cavalry double): %d against %d",
				     need, own, other);
	}
	check_flags(ctx, ord_kv_get(&ev->kv, "a_flag"), tables, "a_flag", a->id, d);
	check_flags(ctx, ord_kv_get(&ev->kv, "d_flag"), tables, "d_flag", f->id, d);
}

int ks_check_event(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_diag *d)
{
	struct ks_rules *r = ks_r(ctx);
	struct ord_unit *u = ev_unit(ctx, ev, "unit");
	struct ks_group g[KS_MAX_GROUPS];
	const struct ord_order *o;
	size_t before = d->n, n;
	int turn = ord_ctx_turn(ctx);

	if (u && ks_gone(ctx, u)) {
		ord_diag_add(d, 0, 0, u->id, "17", "unit '%s' is out of the game", u->id);
		return ORD_ECHECK;
	}
	if (!strcmp(ev->kind, "forstyrret")) {
		/* nothing to check against the orders */
	} else if (!strcmp(ev->kind, "genforsyning")) {
		const char *ammo = ord_kv_get(&ev->kv, "ammo");
		if (!ks_ordered(ctx, u, "genforsyning"))
			ord_diag_add(d, 0, 0, u->id, "6.8 genforsyning",
				     "unit '%s' is resupplied only by an order ('GF')", u->id);
		if (ammo && strcmp(ammo, "alle") && !ks_is(ctx, u, "artilleri"))
			ord_diag_add(d, 0, 0, u->id, "6.8 genforsyning", "ammo=%s is for a battery",
				     ammo);
	} else if (!strcmp(ev->kind, "reparation")) {
		if (!ks_is(ctx, u, "artilleri") || ks_st(ctx, u, "beskadiget") < 1)
			ord_diag_add(d, 0, 0, u->id, "9.6", "unit '%s' has no damaged gun", u->id);
		else if (!ks_ordered(ctx, u, "reparation"))
			ord_diag_add(d, 0, 0, u->id, "4.3",
				     "unit '%s' repaired but its sheet orders no 'REP'", u->id);
	} else if (!strcmp(ev->kind, "angreb")) {
		struct ord_unit *t = ev_unit(ctx, ev, "maal");
		size_t k;
		if (!strcmp(t->side, u->side))
			ord_diag_add(d, 0, 0, u->id, "16.2",
				     "target '%s' is a unit of its own side", t->id);
		if (!ordered_at(ctx, u, "angreb", t, &o, g, &n))
			ord_diag_add(d, 0, 0, u->id, "4.3",
				     "unit '%s' attacks '%s' but its sheet orders no 'A @%s'",
				     u->id, t->id, t->id);
		if (!strcmp(ks_art(u), "kosakker") && ks_closed(ctx, u, NULL))
			ord_diag_add(d, 0, 0, u->id, "8.5 kosakker",
				     "cossacks cannot attack in close order (%s)", ks_form(ctx, u));
		if (ks_is(ctx, u, "kavaleri") &&
		    ks_st(ctx, u, "valeur") < (long)ks_param(r, "valeur_min"))
			ord_diag_add(d, 0, 0, u->id, "8.3 tab af valeur",
				     "cavalry with valeur %ld cannot attack", ks_st(ctx, u, "valeur"));
		if (ks_moral_now(ctx, u) >= KS_U)
			ord_diag_add(d, 0, 0, u->id, "6.3 indbrudsafstand",
				     "only units in OR or LU attack; '%s' is in %s", u->id,
				     ks_moral_name(ks_moral_now(ctx, u)));
		if (ord_kv_get_bool(&ev->kv, "stormmarch", 0) && !ks_ordered(ctx, u, "stormmarch"))
			ord_diag_add(d, 0, 0, u->id, "4.3",
				     "unit '%s' attacks in stormmarch but its sheet orders no 'SM'",
				     u->id);
		if (ord_kv_get_bool(&ev->kv, "loeb", 0) && !ks_ordered(ctx, u, "loeb"))
			ord_diag_add(d, 0, 0, u->id, "4.3",
				     "unit '%s' attacks with løb but its sheet orders no 'L'", u->id);
		for (k = 0; k < ord_ctx_nevents(ctx); k++) {
			const struct ord_event *e = ord_ctx_event(ctx, k);
			if (e->seq != ev->seq && !strcmp(e->kind, "angreb") &&
			    ev_unit(ctx, e, "unit") == u)
				ord_diag_add(d, 0, 0, u->id, "16.2",
					     "unit '%s' has declared an attack already (event #%u)",
					     u->id, e->seq);
		}
	} else if (!strcmp(ev->kind, "stoette")) {
		struct ord_unit *s = ev_unit(ctx, ev, "stoetter");
		const char *rolle = ord_kv_get(&ev->kv, "rolle");
		size_t k;
		if (s == u || strcmp(s->side, u->side)) {
			ord_diag_add(d, 0, 0, u->id, "6.6",
				     "'%s' supports a unit of its own side, not '%s'", u->id, s->id);
		} else {
			check_support_unit(ctx, u, s, ks_form(ctx, u), d, 0, 0, u->id);
			if (ks_is(ctx, u, "infanteri") && ks_is(ctx, s, "kavaleri")) {
				if (!strcmp(rolle, "traefning"))
					ord_diag_add(d, 0, 0, u->id, "6.6.5",
						     "infantry cannot be 2. træfning for cavalry");
				else if (strcmp(ks_form(ctx, u), "bataillonsmasse") &&
					 strcmp(ks_form(ctx, u), "karre"))
					ord_diag_add(d, 0, 0, u->id, "6.6.5",
						     "infantry is a neighbour of cavalry only in battalion mass, square or cover");
			}
		}
		if (ks_ordered(ctx, u, "angreb"))
			ord_diag_add(d, 0, 0, u->id, "6.6.5",
				     "a support may not have an attack order in the turn");
		for (k = 0; k < ord_ctx_nevents(ctx); k++) {
			const struct ord_event *e = ord_ctx_event(ctx, k);
			if (e->seq != ev->seq && !strcmp(e->kind, "stoette") &&
			    ev_unit(ctx, e, "unit") == u)
				ord_diag_add(d, 0, 0, u->id, "6.6.5",
					     "a support supports only one unit in a turn (event #%u)",
					     e->seq);
		}
	} else if (!strcmp(ev->kind, "reaktion")) {
		size_t k;
		int attacked = 0;
		for (k = 0; k < ord_ctx_nevents(ctx); k++) {
			const struct ord_event *e = ord_ctx_event(ctx, k);
			if (!strcmp(e->kind, "angreb") && ev_unit(ctx, e, "maal") == u)
				attacked = 1;
		}
		if (!attacked)
			ord_diag_add(d, 0, 0, u->id, "16.2",
				     "unit '%s' states a reaction but no attack on it was declared (event 'angreb' first)",
				     u->id);
		if (!strcmp(ord_kv_get(&ev->kv, "reaktion"), "modangreb") && ks_moral_now(ctx, u) >= KS_U)
			ord_diag_add(d, 0, 0, u->id, "6.3", "a unit in %s cannot counterattack",
				     ks_moral_name(ks_moral_now(ctx, u)));
	} else if (!strcmp(ev->kind, "flyt")) {
		check_flyt(ctx, ev, u, d);
	} else if (!strcmp(ev->kind, "formation")) {
		const char *want = ord_kv_get(&ev->kv, "formation");
		size_t i;
		int ok = 0;
		n = unit_groups(ctx, u, g, &o);
		for (i = 0; i < n; i++) {
			char f[40];
			if (strcmp(g[i].code, "formation"))
				continue;
			ks_grp_formation(o, &g[i], f, sizeof(f));
			if (!strcmp(f, want))
				ok = 1;
		}
		/* a unit under 10 figures in square or mass is a hob (11) */
		if (!ok &&
		    !(!strcmp(want, "hob") && ks_figures(ctx, u) < (int)ks_param(r, "hob_under")))
			ord_diag_add(d, 0, 0, u->id, "4.3",
				     "unit '%s' formed %s but its sheet orders no 'FORM %s'", u->id,
				     want, want);
	} else if (!strcmp(ev->kind, "front")) {
		if (!ks_ordered(ctx, u, "drej") && !ks_ordered(ctx, u, "vending"))
			ord_diag_add(d, 0, 0, u->id, "4.3",
				     "unit '%s' changed front but its sheet orders no 'D' or 'V'",
				     u->id);
	} else if (!strcmp(ev->kind, "prods")) {
		const char *p = ord_kv_get(&ev->kv, "prodset");
		if (!ks_is(ctx, u, "artilleri"))
			ord_diag_add(d, 0, 0, u->id, "9.4", "unit '%s' is not artillery", u->id);
		else if (!ks_ordered(ctx, u, !strcmp(p, "af") ? "afprodsning" : "paaprodsning"))
			ord_diag_add(d, 0, 0, u->id, "4.3",
				     "battery '%s' %s but its sheet orders no '%s'", u->id,
				     !strcmp(p, "af") ? "unlimbered" : "limbered",
				     !strcmp(p, "af") ? "AP" : "PP");
	} else if (!strcmp(ev->kind, "klargoering")) {
		if (!ks_is(ctx, u, "artilleri") || !ks_ordered(ctx, u, "klargoering"))
			ord_diag_add(d, 0, 0, u->id, "4.3", "unit '%s' has no 'KL' on its sheet",
				     u->id);
	} else if (!strcmp(ev->kind, "skyd")) {
		static const char *const tables[] = { "skema_x_tab_a", "skema_x_tab_b",
						      "skema_x_moral", NULL };
		struct ord_unit *t = ev_unit(ctx, ev, "maal");
		int other;
		if (!ks_is(ctx, u, "infanteri") && !ks_is(ctx, u, "kavaleri"))
			ord_diag_add(d, 0, 0, u->id, "15",
				     "unit '%s' is a battery: record its fire with 'artilleri'",
				     u->id);
		else if (ks_is(ctx, u, "kavaleri") && !ord_kv_get_bool(&u->attrs, "karabiner", 0))
			ord_diag_add(d, 0, 0, u->id, "8.2", "cavalry without carbines does not fire");
		if (!strcmp(t->side, u->side))
			ord_diag_add(d, 0, 0, u->id, "14", "target '%s' is a unit of its own side",
				     t->id);
		if (!ordered_at(ctx, u, "skydning", t, &o, g, &n))
			ord_diag_add(d, 0, 0, u->id, "4.3",
				     "unit '%s' fired at '%s' but its sheet orders no 'S @%s'",
				     u->id, t->id, t->id);
		if (ks_st_num(ctx, u, "kampsatser") < ks_param(r, "forbrug_skydning"))
			ord_diag_add(d, 0, 0, u->id, "7.2.2", "unit '%s' has no ammunition left",
				     u->id);
		if ((other = fired_this_turn(ctx, ev, u)) != 0)
			ord_diag_add(d, 0, 0, u->id, "14",
				     "a unit fires only once in a turn ('%s' fired already%s)",
				     u->id, other > 0 ? ", see the events" : "");
		if (ks_moral_now(ctx, u) == KS_FU)
			ord_diag_add(d, 0, 0, u->id, "6.5", "a unit in FU flees, it cannot fire");
		check_zone(ev, u, d);
		check_flags(ctx, ord_kv_get(&ev->kv, "flag"), tables, "flag", u->id, d);
	} else if (!strcmp(ev->kind, "artilleri")) {
		static const char *const tables[] = { "skema_xv_tab_a", "skema_xv_tab_b",
						      "skema_xv_moral", NULL };
		struct ord_unit *t = ev_unit(ctx, ev, "maal");
		const struct ks_group *fg;
		const char *ammo = ord_kv_get(&ev->kv, "ammo"), *ordered = NULL;
		if (!ks_is(ctx, u, "artilleri")) {
			ord_diag_add(d, 0, 0, u->id, "14",
				     "unit '%s' is not artillery: record its fire with 'skyd'", u->id);
			return ORD_ECHECK;
		}
		if (!strcmp(t->side, u->side))
			ord_diag_add(d, 0, 0, u->id, "15", "target '%s' is a unit of its own side",
				     t->id);
		fg = ordered_at(ctx, u, "artilleriskydning", t, &o, g, &n);
		if (!fg)
			fg = ordered_at(ctx, u, "koordination", t, &o, g, &n);
		if (!fg)
			ord_diag_add(d, 0, 0, u->id, "4.3",
				     "battery '%s' fired at '%s' but its sheet orders no 'AS ... @%s'",
				     u->id, t->id, t->id);
		else
			ordered = ks_grp_arg(o, fg, "ammo");
		if (!ordered) {
			const struct ks_group *am = ks_find(g, n, "artilleriskydning");
			if (!am)
				am = ks_find(g, n, "ammunitionsskift");
			if (am)
				ordered = ks_grp_arg(o, am, "ammo");
		}
		if (ammo && ordered && strcmp(ammo, ordered))
			ord_diag_add(d, 0, 0, u->id, "15 ammunitionstyper",
				     "battery '%s' fired %s but its sheet orders %s", u->id, ammo,
				     ordered);
		if (!ammo)
			ammo = ordered;
		if (!ammo)
			ord_diag_add(d, 0, 0, u->id, "15", "give the ammunition (ammo=SF|SG|SK|SS)");
		else if (!battery_can_fire(u, ammo))
			ord_diag_add(d, 0, 0, u->id, "15 ammunitionstyper",
				     "the battery has no pieces that fire %s", ammo);
		else if (pool_of(ctx, u, ammo) < ks_param(r, "forbrug_skydning"))
			ord_diag_add(d, 0, 0, u->id, "9.2",
				     "battery '%s' has no %s ammunition left", u->id, ammo);
		if (strcmp(ks_st_str(ctx, u, "prodset"), "af") || !ks_st(ctx, u, "klargjort"))
			ord_diag_add(d, 0, 0, u->id, "15 deltagende enheder",
				     "battery '%s' is not unlimbered and ready", u->id);
		if (ord_kv_get_int(&ev->kv, "kanoner", 0) > ks_st(ctx, u, "kanoner"))
			ord_diag_add(d, 0, 0, u->id, "9.6",
				     "battery '%s' has only %ld serviceable guns", u->id,
				     ks_st(ctx, u, "kanoner"));
		if (fired_this_turn(ctx, ev, u))
			ord_diag_add(d, 0, 0, u->id, "14",
				     "a unit fires only once in a turn ('%s' fired already)", u->id);
		if (ord_kv_get(&ev->kv, "zone") && ammo &&
		    !strcmp(ord_kv_get(&ev->kv, "zone"), "K") && strcmp(ammo, "SK"))
			ord_diag_add(d, 0, 0, u->id, "15",
				     "zone K is the canister zone: only SK is fired there");
		check_zone(ev, u, d);
		check_flags(ctx, ord_kv_get(&ev->kv, "flag"), tables, "flag", u->id, d);
	} else if (!strcmp(ev->kind, "forsvarsild")) {
		static const char *const tables[] = { "skema_xv_tab_a", "skema_xv_tab_b",
						      "skema_xv_moral", NULL };
		struct ord_unit *t = ev_unit(ctx, ev, "maal");
		size_t i;
		if (!ks_is(ctx, u, "artilleri")) {
			ord_diag_add(d, 0, 0, u->id, "15.1", "only a battery gives defensive fire");
			return ORD_ECHECK;
		}
		if (!(ks_st(ctx, t, "angreb_traek") == turn))
			ord_diag_add(d, 0, 0, u->id, "15.1 forsvarsskydning",
				     "defensive fire is at an attacking unit; '%s' declared no attack this turn",
				     t->id);
		if (ks_st_num(ctx, u, "ks_kardaesk") < ks_param(r, "forbrug_forsvarsild"))
			ord_diag_add(d, 0, 0, u->id, "15.1 forsvarsskydning",
				     "battery '%s' has no canister left", u->id);
		if (fired_this_turn(ctx, ev, u))
			ord_diag_add(d, 0, 0, u->id, "15.1 forsvarsskydning",
				     "a battery gives defensive fire only if it has not fired at other targets this turn");
		n = unit_groups(ctx, u, g, &o);
		for (i = 0; i < n; i++)
			if (!strcmp(g[i].code, "artilleriskydning") && !g[i].after_change)
				ord_diag_add(d, 0, 0, u->id, "15.1 forsvarsskydning",
					     "a battery with an order to fire at other targets gives no defensive fire");
		if (strcmp(ks_st_str(ctx, u, "prodset"), "af"))
			ord_diag_add(d, 0, 0, u->id, "15", "battery '%s' is limbered", u->id);
		check_flags(ctx, ord_kv_get(&ev->kv, "flag"), tables, "flag", u->id, d);
	} else if (!strcmp(ev->kind, "fortryd")) {
		if (ks_st(ctx, u, "angreb_traek") != turn)
			ord_diag_add(d, 0, 0, u->id, "16.6",
				     "unit '%s' declared no attack this turn", u->id);
	} else if (!strcmp(ev->kind, "naerkamp")) {
		check_naerkamp(ctx, ev, d);
	} else if (!strcmp(ev->kind, "afbryd")) {
		size_t i;
		int in_melee = 0;
		for (i = 0; i < ord_ctx_nevents(ctx); i++) {
			const struct ord_event *e = ord_ctx_event(ctx, i);
			if (!strcmp(e->kind, "naerkamp") && e->seq < ev->seq &&
			    (ev_unit(ctx, e, "angriber") == u || ev_unit(ctx, e, "forsvarer") == u))
				in_melee = 1;
		}
		if (!in_melee)
			ord_diag_add(d, 0, 0, u->id, "16.5",
				     "unit '%s' breaks off, but it fought no melee this turn", u->id);
	} else if (!strcmp(ev->kind, "flugt")) {
		size_t i;
		int may = ks_moral_now(ctx, u) == KS_FU;
		for (i = 0; i < ord_ctx_nevents(ctx); i++) {
			const struct ord_event *e = ord_ctx_event(ctx, i);
			if (!strcmp(e->kind, "naerkamp") && e->seq < ev->seq &&
			    (ev_unit(ctx, e, "angriber") == u || ev_unit(ctx, e, "forsvarer") == u))
				may = 1;
		}
		if (!may)
			ord_diag_add(d, 0, 0, u->id, "17 flugt",
				     "unit '%s' is in %s, not FU: it does not flee", u->id,
				     ks_moral_name(ks_moral_now(ctx, u)));
	}
	return d->n > before ? ORD_ECHECK : 0;
}

/* ---- after the exchange ---- */

int ks_check_execution(struct ord_ctx *ctx, struct ord_diag *d)
{
	size_t i, j;

	for (i = 0; i < ord_ctx_nunits(ctx); i++) {
		struct ord_unit *u = ord_ctx_unit(ctx, i);
		const struct ord_order *o = ord_ctx_order(ctx, u);
		struct ks_group g[KS_MAX_GROUPS];
		size_t n = ks_groups(o, g, KS_MAX_GROUPS);
		int attacked = 0, formed = 0, cancelled = 0, broke = 0;

		if (!o || ks_gone(ctx, u))
			continue;
		for (j = 0; j < ord_ctx_nevents(ctx); j++) {
			const struct ord_event *e = ord_ctx_event(ctx, j);
			const char *v = ord_kv_get(&e->kv, "unit");
			struct ord_unit *eu = v ? ord_ctx_find_unit(ctx, v) : NULL;
			if (!strcmp(e->kind, "angreb") && eu == u)
				attacked = 1;
			if (!strcmp(e->kind, "formation") && eu == u)
				formed = 1;
			if (!strcmp(e->kind, "fortryd") && eu == u)
				cancelled = 1;
		}
		/* a unit driven into U or FU does not carry out its orders (6.5) */
		broke = ks_st(ctx, u, "moral_traek") == ord_ctx_turn(ctx) &&
			ks_moral_parse(ks_st_str(ctx, u, "moral")) >= KS_U;
		for (j = 0; j < n; j++) {
			if (g[j].after_change)
				continue;
			if (!strcmp(g[j].code, "angreb") && !attacked && !cancelled && !broke)
				ord_diag_add(d, o->line, g[j].tok->col, u->id, "16.2",
					     "ordered to attack ('A') but no attack was declared");
			if (!strcmp(g[j].code, "formation") && !formed && !broke) {
				char f[40];
				ks_grp_formation(o, &g[j], f, sizeof(f));
				ord_diag_add(d, o->line, g[j].tok->col, u->id, "12",
					     "ordered to form %s ('FORM') but no formation change was recorded",
					     f);
			}
		}
	}
	return 0;
}
