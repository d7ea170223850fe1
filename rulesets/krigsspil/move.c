/*
 * move.c - what the krigsspil rules allow a move (13): stormmarch (how
 * often, how many turns in a row) and what a march crosses on the map
 * (obstacles by class and formation, streams, woods and marsh, water),
 * for the checks of sheets (validate.c) and of moves (events.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rulesets/krigsspil/ks.h"

/* ---- stormmarch ---- */

int ks_storm_broken_last(struct ord_ctx *ctx, const struct ord_unit *u)
{
	long last = ks_st(ctx, u, "stormmarch_sidst");

	return last > 0 && last == ord_ctx_turn(ctx) - 1 && ks_st(ctx, u, "stormmarch_afbrudt") == last;
}

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
	/* K19: a stormmarch already made this turn (it was allowed when it
	 * began: the sheet and the event were checked) allows more of it in
	 * the same turn.  Cavalry that charged at stormmarch, lost and flees
	 * in that turn flees at stormmarch without the extra turn in FU of 17
	 * ("Hvis det ikke kan benytte stormmarch pga [lost], kan det stadig
	 * flygte i stormmarch, men vil så være FU et ekstra træk"): the
	 * limits count turns ("hvert 8. træk", "træk i træk"), and the flight
	 * is part of the fight that ended the charge, not a stormmarch broken
	 * off and resumed by order. */
	if (last > 0 && last == turn)
		return 0;
	if (start && ks_storm_broken_last(ctx, u)) {
		/* broken off last turn (stormmarch_afbrudt_kontrol): a new
		 * stormmarch, if its every Nth turn has come */
		if (turn - start >= (long)every)
			return 0;
		ord_buf_addf(why,
			     "a stormmarch broken off cannot be resumed (\"En afbrudt stormmarch kan ikke genoptages\"): its stormmarch of turn %ld ended before the turn did, and a new one may begin in turn %ld",
			     last, start + (long)every);
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

/* The obstacle class of a terrain's edge (its kant in terraen; "" for
 * none), and its name. */
static const char *edge_of(struct ord_ctx *ctx, const char *terrain, const char **name)
{
	const struct ord_row *row = chart_row(ctx, "terraen", "terraen", terrain);

	*name = terrain;
	if (!row)
		return "";
	*name = ord_row_str(row, "navn");
	return strcmp(ord_row_str(row, "kant"), "ingen") ? ord_row_str(row, "kant") : "";
}

/* How bad an obstacle class is: 0 none, 1 I, 2 II, 3 III (or unknown), 4
 * impassable. */
static int class_rank(const char *cls)
{
	return !*cls                        ? 0
	       : !strcmp(cls, "I")          ? 1
	       : !strcmp(cls, "II")         ? 2
	       : !strcmp(cls, "impassabel") ? 4
					    : 3;
}

const char *ks_edge_class(struct ord_ctx *ctx, const struct ks_crossing *c, const char **name,
			  int *q, int *r)
{
	const char *to_name, *from_name, *to, *from, *dummy;

	if (!name)
		name = &dummy;
	/* a game made before hindringskant_kontrol: the terrain entered, or
	 * the one left when entering open ground, on the plate entered (an
	 * overridden move keeps its check's words) */
	if (!ks_check(ks_r(ctx), "hindringskant_kontrol") || !c->to || !c->from) {
		if (q)
			*q = c->q;
		if (r)
			*r = c->r;
		return edge_of(ctx, c->what, name);
	}
	/* "Plantagekanter er hindring" (3.2): the edge is crossed leaving the
	 * plantation as entering it, into any ground: the worse of the two
	 * sides' edges, the terrain entered when they are alike */
	to = edge_of(ctx, c->to, &to_name);
	from = edge_of(ctx, c->from, &from_name);
	if (class_rank(from) > class_rank(to)) {
		*name = from_name;
		if (q)
			*q = c->from_q;
		if (r)
			*r = c->from_r;
		return from;
	}
	*name = to_name;
	if (q)
		*q = c->q;
	if (r)
		*r = c->r;
	return to;
}

/* The obstacle class of a crossing ("" when none), whether it must be
 * passed in march column (and from what width, *wider), its name and the
 * plate it is on. */
static const char *crossing_class(struct ord_ctx *ctx, const struct ks_crossing *c, int *march_column,
				  double *wider, const char **name, int *q, int *rr)
{
	struct ks_rules *r = ks_r(ctx);
	const struct ord_row *row;

	*march_column = 0;
	*wider = 0;
	*name = c->what;
	*q = c->q;
	*rr = c->r;
	if (c->edge)
		return ks_edge_class(ctx, c, name, q, rr);
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

int ks_path_obstacle(struct ord_ctx *ctx, double x0, double y0, double x1, double y1)
{
	struct ks_rules *r = ks_r(ctx);
	struct ks_crossing cr[64];
	size_t n, i;
	int most = 0;

	if (!r->map)
		return 0;
	n = ks_map_trace(r->map, x0, y0, x1, y1, cr, ORD_ARRAY_SIZE(cr));
	for (i = 0; i < n; i++) {
		const char *name, *cls;
		int mc, k, q, rr;
		double wider;

		cls = crossing_class(ctx, &cr[i], &mc, &wider, &name, &q, &rr);
		k = class_rank(cls);
		if (k > 3) /* impassable counts as III */
			k = 3;
		if (k > most)
			most = k;
	}
	return most;
}

/* Whether a point on a wood plate is within depth cm of ground that is not
 * wood (or off the map): the wood's edge (skovkant, 13). */
static int wood_edge(const struct ks_map *map, double x, double y, double depth)
{
	int a, k;

	for (k = 1; k <= 4; k++)
		for (a = 0; a < 36; a++) {
			double d = depth * k / 4, ang = a * M_PI / 18;
			const struct ks_plate *p = ks_map_at(map, x + d * cos(ang), y + d * sin(ang));
			if (!p || strcmp(p->terrain, "skov"))
				return 1;
		}
	return 0;
}

/* 13 passage af skov, sump eller mose (skov_sti_kontrol): "Skov, sump og
 * mose kan, udenfor vej, kun passeres af: Sluttet formation: Visse enheder
 * i marchkolonne på stier.  Spredt formation: Infanteri og kosakker.
 * Flugt: Infanteri og kosakker", and "Infanteri og kosakker kan rykke ind
 * i og ud af skovkanter i både sluttet og spredt formation".  Skema V,
 * which names the "visse enheder", is lost: our reading is infantry and
 * cavalry in march column on a plate with a path (sti) or a road, and
 * artillery in march column on a road only.  The edge is the ground within
 * skovkant_cm of a wood's border; the plate a sheet marches to (m->q, m->r
 * when m->to_plate) is entered only to its edge, so it is not held against
 * close order there.  Every point of the move is looked at, every 1/2 cm,
 * and each plate refused once. */
static void check_woods(struct ord_ctx *ctx, const struct ord_unit *u, double x0, double y0, double x1,
			double y1, const char *formation, int grade, struct ks_move_check *m)
{
	struct ks_rules *r = ks_r(ctx);
	double depth = ks_param(r, "skovkant_cm"), dist = hypot(x1 - x0, y1 - y0);
	int closed = ks_closed(ctx, u, formation), column = !strcmp(formation, "marchkolonne");
	int gun = !strcmp(ks_vaaben(ctx, u), "artilleri");
	int foot = !strcmp(ks_vaaben(ctx, u), "infanteri") || !strcmp(ks_art(u), "kosakker");
	const struct ks_plate *said[16];
	size_t nsaid = 0, j;
	int steps = (int)ceil(dist / 0.5), i;

	for (i = 1; i <= steps; i++) {
		double t = (double)i / steps, x = x0 + (x1 - x0) * t, y = y0 + (y1 - y0) * t;
		const struct ks_plate *p = ks_map_at(r->map, x, y);
		const struct ord_row *row;
		const char *name;
		struct ord_buf why = ORD_BUF_INIT;
		enum ks_ground_bar bar;
		int wood, edge;

		if (!p || (strcmp(p->terrain, "skov") && strcmp(p->terrain, "sump")))
			continue;
		for (j = 0; j < nsaid && said[j] != p; j++)
			;
		if (j < nsaid)
			continue;
		row = chart_row(ctx, "terraen", "terraen", p->terrain);
		name = row ? ord_row_str(row, "navn") : p->terrain;
		wood = !strcmp(p->terrain, "skov");
		/* the edge only where it counts: wood_edge looks all round */
		edge = foot && wood && closed && grade != KS_FU &&
		       ((m->to_plate && p->q == m->q && p->r == m->r) ||
			wood_edge(r->map, x, y, depth));
		bar = ks_ground_bar(grade, closed, column, gun, foot, wood, plate_has(p, "vej"),
				    plate_has(p, "sti"), edge);
		if (bar != KS_GROUND_OK) {
			/* the calculator's words (ks_ground_bar_words), the
			 * plate named */
			struct ks_text w;
			ks_text_init(&w);
			ks_ground_bar_words(&w, r, bar, foot && wood);
			ord_buf_addf(&why, "%s on plate %d,%d is %s", name, p->q, p->r, w.en.buf);
			ks_text_release(&w);
		}
		if (why.len) {
			ord_diag_add(m->d, m->line, m->col, m->unit,
				     "13 passage af skov, sump eller mose", "%s", why.buf);
			if (nsaid < ORD_ARRAY_SIZE(said))
				said[nsaid++] = p;
		}
		ord_buf_release(&why);
	}
}

/* Check a straight move of u from (x0, y0) to (x1, y1) in `formation` with
 * morale `grade`; problems go to m->d. */
void ks_check_path(struct ord_ctx *ctx, const struct ord_unit *u, double x0, double y0, double x1,
		   double y1, const char *formation, int grade, int stormmarch,
		   struct ks_move_check *m)
{
	struct ks_rules *r = ks_r(ctx);
	struct ks_crossing cr[64];
	size_t n, i;
	int closed = ks_closed(ctx, u, formation);
	const char *vaaben = ks_vaaben(ctx, u);
	/* a game made before skov_sti_kontrol: only a move ending in a wood or
	 * marsh it entered was looked at, close order refused there but in
	 * march column, path or not */
	int woods = ks_check(r, "skov_sti_kontrol");
	const struct ord_row *arm;
	const char *arm_da = ks_art(u), *arm_en = ks_art(u);
	unsigned bit;

	if (!r->map)
		return;
	if (ks_arm(r, ks_art(u), &arm))
		ord_error_clear();
	else
		arm_da = ord_row_str(arm, "navn"), arm_en = ord_row_str(arm, "navn_en");
	if (woods)
		check_woods(ctx, u, x0, y0, x1, y1, formation, grade, m);
	n = ks_map_trace(r->map, x0, y0, x1, y1, cr, ORD_ARRAY_SIZE(cr));
	{
		const struct ks_plate *end = ks_map_at(r->map, x1, y1);
		if (end && !strcmp(end->terrain, "vand"))
			ord_diag_add(m->d, m->line, m->col, m->unit, "3.1 vand",
				     "plate %d,%d is water: no unit can stand there", end->q, end->r);
	}
	for (i = 0; i < n; i++) {
		const char *name, *cls;
		int mc, q, rr;
		unsigned bars;
		double wider;
		char where[32];

		cls = crossing_class(ctx, &cr[i], &mc, &wider, &name, &q, &rr);
		snprintf(where, sizeof(where), "plate %d,%d", q, rr);
		if (!strcmp(cls, "impassabel")) {
			ord_diag_add(m->d, m->line, m->col, m->unit, "13 passage af hindringer",
				     "the %s on %s cannot be passed (impassable)", name, where);
			continue;
		}
		if (!woods && cr[i].edge &&
		    (!strcmp(cr[i].what, "skov") || !strcmp(cr[i].what, "sump")) &&
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
		/* the calculator's rules too (ks_move's passage), in its words
		 * (ks_obstacle_bar_words), the obstacle named */
		bars = ks_obstacle_bars(vaaben, closed, grade, stormmarch, cls);
		for (bit = KS_BAR_STORM; bit <= KS_BAR_FU_GUNS; bit <<= 1) {
			/* these words name the class already */
			int named = bit == KS_BAR_ARM || bit == KS_BAR_U_OPEN || bit == KS_BAR_FU_FOOT;
			struct ks_text w;
			if (!(bars & bit))
				continue;
			ks_text_init(&w);
			ks_obstacle_bar_words(&w, bit, arm_da, arm_en, cls);
			ord_diag_add(m->d, m->line, m->col, m->unit,
				     bit == KS_BAR_STORM ? "13 stormmarch" : "13 passage af hindringer",
				     "%s: the %s on %s%s%s", w.en.buf, name, where,
				     named ? "" : " is obstacle ", named ? "" : cls);
			ks_text_release(&w);
		}
	}
}

/* ---- a recorded move against its march length (13) ---- */

/* The obstacle classes (I II III) a straight move passes on the map. */
static size_t path_obstacles(struct ord_ctx *ctx, double x0, double y0, double x1, double y1,
			     const char **classes, size_t max)
{
	struct ks_rules *r = ks_r(ctx);
	struct ks_crossing cr[64];
	size_t n, i, k = 0;

	if (!r->map)
		return 0;
	n = ks_map_trace(r->map, x0, y0, x1, y1, cr, ORD_ARRAY_SIZE(cr));
	for (i = 0; i < n && k < max; i++) {
		const char *name, *cls;
		int mc, q, rr;
		double wider;
		cls = crossing_class(ctx, &cr[i], &mc, &wider, &name, &q, &rr);
		if (!strcmp(cls, "I") || !strcmp(cls, "II") || !strcmp(cls, "III"))
			classes[k++] = cls;
	}
	return k;
}

/* The quarters of the turn the order gives the gait: its groups of that
 * kind (a march is M, TT or PR); 0 when it has none. */
static int ordered_quarters(struct ord_ctx *ctx, const struct ord_unit *u, const char *gang)
{
	const struct ord_order *o = ord_ctx_order(ctx, u);
	struct ks_group g[KS_MAX_GROUPS];
	size_t n = ks_groups(o, g, KS_MAX_GROUPS), i;
	int q = 0;

	for (i = 0; i < n; i++) {
		const char *c = g[i].code;
		if (!strcmp(gang, "march") ? (!strcmp(c, "march") || !strcmp(c, "tilbagetog") ||
					      !strcmp(c, "prolongering"))
					   : !strcmp(c, gang))
			q += ks_grp_quarters(ctx, o, &g[i]);
	}
	return q;
}

const char *ks_move_gait(struct ord_ctx *ctx, const struct ord_event *ev, const struct ord_unit *u)
{
	int grade = ks_moral_now(ctx, u);
	/* the half turn owed in the turn of a U or FU (K27) is one too */
	int retreat = ord_kv_get_bool(&ev->kv, "retraete", 0) || !strcmp(ev->kind, "retraete");

	if (retreat && grade == KS_FU)
		return "flugt";
	if (retreat && grade == KS_U)
		return "retraete";
	if (ord_kv_get_bool(&ev->kv, "loeb", 0))
		return "loeb";
	if (ord_kv_get_bool(&ev->kv, "stormmarch", 0))
		return "stormmarch";
	return "march";
}

/* Landeværn, militia or cossacks (13 gennemmarch). */
static int irregular(const struct ord_unit *u)
{
	return !strcmp(ks_art(u), "kosakker") || ord_kv_get_bool(&u->attrs, "milits", 0);
}

int ks_through(struct ord_ctx *ctx, const struct ord_unit *u, const struct ord_unit *w,
	       int *half_speed, int *lu_both, struct ord_diag *d)
{
	int turn = ord_ctx_turn(ctx), uc = ks_closed(ctx, u, NULL), wc = ks_closed(ctx, w, NULL);
	size_t before = d ? d->n : 0;

	*half_speed = *lu_both = 0;
	if (w == u || strcmp(w->side, u->side)) {
		if (d)
			ord_diag_add(d, 0, 0, u->id, "13 gennemmarch",
				     "'%s' marches through units of its own side, not '%s'", u->id,
				     w->id);
		return ORD_ECHECK;
	}
	/* "Landeværn/milits og kosakker kan ikke gennemmarchere eller
	 * gennemmarcheres af enheder i sluttet formation" (13): cossacks in
	 * their open swarm no more pass a close formation than they do in
	 * line (gennemmarch_kosak_kontrol; a game made before held it only
	 * to two close formations, below) */
	if (d && ks_check(ks_r(ctx), "gennemmarch_kosak_kontrol") && (!uc || !wc) &&
	    ((wc && irregular(u)) || (uc && irregular(w))))
		ord_diag_add(d, 0, 0, u->id, "13 gennemmarch",
			     "landeværn, militia and cossacks neither march through nor are marched "
			     "through by close order ('%s' is in close order)",
			     wc ? w->id : u->id);
	if (!uc || !wc) {
		/* open order passes and is passed when one of them stands still;
		 * two open formations pass each other freely (13) */
		if (uc != wc && ks_st(ctx, w, "bevaeget") == turn && d)
			ord_diag_add(d, 0, 0, u->id, "13 gennemmarch",
				     "open and close order pass through each other only when one of them is stationary; '%s' moved this turn",
				     w->id);
		return d && d->n > before ? ORD_ECHECK : 0;
	}
	/* a close formation through a stationary close formation (13) */
	if (d) {
		if (ks_st(ctx, w, "bevaeget") == turn)
			ord_diag_add(d, 0, 0, u->id, "13 gennemmarch",
				     "a close formation marches only through a stationary one; '%s' moved this turn",
				     w->id);
		if (ks_moral_now(ctx, w) >= KS_U)
			ord_diag_add(d, 0, 0, u->id, "13 gennemmarch",
				     "the unit marched through must be in OR or LU; '%s' is in %s",
				     w->id, ks_moral_name(ks_moral_now(ctx, w)));
		if (!ks_is(ctx, u, "artilleri") && ks_moral_now(ctx, u) >= KS_U)
			ord_diag_add(d, 0, 0, u->id, "13 gennemmarch",
				     "both units must be in OR or LU; '%s' is in %s", u->id,
				     ks_moral_name(ks_moral_now(ctx, u)));
		if (irregular(u) || irregular(w))
			ord_diag_add(d, 0, 0, u->id, "13 gennemmarch",
				     "landeværn, militia and cossacks neither march through nor are marched through by close order");
	}
	*half_speed = 1;
	*lu_both = !ks_is(ctx, u, "artilleri");
	return d && d->n > before ? ORD_ECHECK : 0;
}

const char *ks_move_formation(struct ord_ctx *ctx, const struct ord_event *ev, const struct ord_unit *u)
{
	struct ks_rules *r = ks_r(ctx);
	const struct ord_event *last = NULL;
	const char *f;
	size_t i;

	/* a game made before flyt_formation_kontrol measured every move of
	 * the phase by the formation at its start */
	if (!ks_check(r, "flyt_formation_kontrol"))
		return ks_form(ctx, u);
	for (i = 0; i < ord_ctx_unit_nevents(ctx, u); i++) {
		const struct ord_event *e = ord_ctx_unit_event(ctx, u, i);
		if (e->seq >= ev->seq || strcmp(e->kind, "formation") ||
		    (ev->phase && e->phase && strcmp(e->phase, ev->phase)) ||
		    ks_ev_unit(ctx, e, "unit") != u)
			continue;
		if (!last || e->seq > last->seq)
			last = e;
	}
	if (!last || !(f = ord_kv_get(&last->kv, "formation")))
		return ks_form(ctx, u);
	/* as resolve_moves forms it: a square or mass under hob_under
	 * figures is a hob (11.8) */
	if ((!strcmp(f, "karre") || !strcmp(f, "bataillonsmasse")) &&
	    ks_figures(ctx, u) < (int)ks_param(r, "hob_under"))
		return "hob";
	return f;
}

/* The unit's moves of ev's phase recorded before ev, in the order they
 * were recorded (at most max), when flyt_flere_kontrol is on; else none. */
static size_t earlier_moves(struct ord_ctx *ctx, const struct ord_event *ev,
			    const struct ord_unit *u, const struct ord_event **out, size_t max)
{
	size_t i, j, n = 0;

	if (!ks_check(ks_r(ctx), "flyt_flere_kontrol"))
		return 0;
	for (i = 0; i < ord_ctx_unit_nevents(ctx, u); i++) {
		const struct ord_event *e = ord_ctx_unit_event(ctx, u, i);
		/* a move not carried out (ks_impossible) moved nothing */
		if (e->seq >= ev->seq || strcmp(e->kind, "flyt") ||
		    (ev->phase && e->phase && strcmp(e->phase, ev->phase)) ||
		    ks_ev_unit(ctx, e, "unit") != u || n == max || ks_impossible(ctx, e, NULL))
			continue;
		for (j = n++; j > 0 && out[j - 1]->seq > e->seq; j--)
			out[j] = out[j - 1];
		out[j] = e;
	}
	return n;
}

void ks_move_start(struct ord_ctx *ctx, const struct ord_event *ev, const struct ord_unit *u,
		   double *x, double *y)
{
	const struct ord_event *prev[ORD_EVENTS_PER_UNIT];
	size_t n = earlier_moves(ctx, ev, u, prev, ORD_ARRAY_SIZE(prev));

	*x = n ? ord_kv_get_num(&prev[n - 1]->kv, "x", 0) : ks_st_num(ctx, u, "x");
	*y = n ? ord_kv_get_num(&prev[n - 1]->kv, "y", 0) : ks_st_num(ctx, u, "y");
}

int ks_move_event(struct ord_ctx *ctx, const struct ord_event *ev, const struct ord_unit *u,
		  struct ks_move_out *out, struct ks_text *why, struct ord_diag *d)
{
	return ks_move_event_gait(ctx, ev, u, ks_move_gait(ctx, ev, u), out, why, d);
}

int ks_move_event_gait(struct ord_ctx *ctx, const struct ord_event *ev, const struct ord_unit *u,
		       const char *gang, struct ks_move_out *out, struct ks_text *why,
		       struct ord_diag *d)
{
	struct ks_rules *r = ks_r(ctx);
	struct ks_segment sg[64];
	struct ks_move_seg seg[64];
	const char *obst[32];
	struct ks_move_in in;
	const char *tid = ord_kv_get(&ev->kv, "tid");
	struct ord_unit *w = ks_ev_unit(ctx, ev, "gennem");
	const struct ord_event *prev[ORD_EVENTS_PER_UNIT];
	size_t np = earlier_moves(ctx, ev, u, prev, ORD_ARRAY_SIZE(prev)), k;
	double x0 = ks_st_num(ctx, u, "x"), y0 = ks_st_num(ctx, u, "y");
	double x1 = ord_kv_get_num(&ev->kv, "x", 0), y1 = ord_kv_get_num(&ev->kv, "y", 0);
	double dist, share, length, px, py;
	int per = (int)ks_param(r, "kvarte_pr_traek"), q, half = 0, lu = 0, err;
	size_t n = 0, nob = 0;

	memset(&in, 0, sizeof(in));
	if (per < 1)
		per = 1;
	in.art = ks_art(u);
	/* "En enheds marchlængde er betinget af enhedens våbenart og
	 * formation" (13): the formation it moves in, after a change recorded
	 * before the move in the phase (flyt_formation_kontrol) */
	in.formation = ks_move_formation(ctx, ev, u);
	in.gang = gang;
	if ((err = ks_gait(r, in.art, in.formation, gang, &length, &share, NULL)) != 0) {
		if (d)
			ord_diag_add(d, 0, 0, u->id, "13 marchlængder", "%s", ord_error_last());
		ord_error_clear();
		return ORD_ECHECK;
	}
	/* the time: what the order gives the gait (a retreat or flight by the
	 * rules: the gait's share), or less when the referee says so */
	q = ordered_quarters(ctx, u, gang);
	in.time = !strcmp(gang, "retraete") || !strcmp(gang, "flugt") || q <= 0
			  ? share
			  : fmin(share, (double)q / per);
	if (tid) {
		int a = 0, b = 1;
		double t;
		sscanf(tid, "%d/%d", &a, &b);
		t = b > 0 ? (double)a / b : 1;
		if (t > in.time + 1e-9) {
			if (d) {
				struct ord_buf x = ORD_BUF_INIT;
				ks_fmt_part(&x, in.time);
				ord_diag_add(d, 0, 0, u->id, "13 marchlængder",
					     "tid=%s is more than the %s turn its order and gait give",
					     tid, x.buf);
				ord_buf_release(&x);
			}
			return ORD_ECHECK;
		}
		in.time = t;
	}
	in.facing_enemy = !strcmp(ord_kv_get(&ev->kv, "maade") ? ord_kv_get(&ev->kv, "maade") : "",
				  "front_mod_fjenden");
	in.wheel_cm = ord_kv_get_num(&ev->kv, "drej_cm", 0);
	ks_move_start(ctx, ev, u, &px, &py);
	dist = hypot(x1 - px, y1 - py);
	if (w && ks_through(ctx, u, w, &half, &lu, NULL) == 0 && half)
		in.through_cm = fmin(dist, ord_kv_get_num(&ev->kv, "gennem_cm", dist));
	/* the ground, plate by plate on the map (else open ground): the
	 * unit's earlier moves of the phase in this gait first, each from
	 * where the one before it ended, then this one from where the last
	 * ended (flyt_flere_kontrol: a game made before measured every move
	 * from where the unit stood at the phase's start, with the whole
	 * march length each) */
	for (k = 0; k <= np; k++) {
		const struct ord_event *e = k < np ? prev[k] : ev;
		double ex = ord_kv_get_num(&e->kv, "x", 0), ey = ord_kv_get_num(&e->kv, "y", 0);
		size_t m = 0, j;
		if (k < np && strcmp(ks_move_gait(ctx, e, u), gang)) {
			x0 = ex, y0 = ey;
			continue; /* another gait: its own march length */
		}
		px = x0, py = y0;
		if (r->map)
			m = ks_map_segments(r->map, px, py, ex, ey, sg + n, ORD_ARRAY_SIZE(sg) - n);
		else if (hypot(ex - px, ey - py) > 0 && n < ORD_ARRAY_SIZE(sg)) {
			sg[n].terrain = "aabent";
			sg[n].cm = hypot(ex - px, ey - py);
			m = 1;
		}
		for (j = n; j < n + m; j++) {
			seg[j].terrain = ord_kv_get_bool(&e->kv, "vej", 0) ? "vej" : sg[j].terrain;
			seg[j].cm = sg[j].cm;
		}
		n += m;
		nob += path_obstacles(ctx, px, py, ex, ey, obst + nob, ORD_ARRAY_SIZE(obst) - nob);
		if (k < np)
			x0 = ex, y0 = ey;
	}
	/* the ground of several moves that fills the arrays would leave the
	 * rest uncounted: refused, not measured short */
	if (np && (n == ORD_ARRAY_SIZE(sg) || nob == ORD_ARRAY_SIZE(obst))) {
		if (d)
			ord_diag_add(d, 0, 0, u->id, "13 marchlængder",
				     "unit '%s': its moves of the phase cross more plates or obstacles than one march length can be measured over (%zu); record the move as fewer moves",
				     u->id, ORD_ARRAY_SIZE(sg));
		return ORD_ECHECK;
	}
	in.seg = seg;
	in.nseg = n;
	in.obstacles = obst;
	in.nobstacles = nob;
	if ((err = ks_move(r, &in, out, why)) != 0) {
		if (d)
			ord_diag_add(d, 0, 0, u->id, "13 marchlængder", "%s", ord_error_last());
		ord_error_clear();
		return ORD_ECHECK;
	}
	return 0;
}

/* ---- the move's direction against its order's (4.3) ---- */

void ks_bearing_add(struct ks_bearing *b, const char *side, const char *unit_side,
		    const struct ord_kv *attrs)
{
	double x, y;

	if (!attrs || !ord_kv_get(attrs, "x") || !ord_kv_get(attrs, "y"))
		return;
	x = ord_kv_get_num(attrs, "x", 0);
	y = ord_kv_get_num(attrs, "y", 0);
	if (!strcmp(unit_side, side)) {
		b->own[0] += x;
		b->own[1] += y;
		b->n++;
	} else {
		b->other[0] += x;
		b->other[1] += y;
		b->no++;
	}
}

double ks_bearing_enemy(const struct ks_bearing *b, const struct ks_map *m)
{
	double ox, oy, x, y;
	size_t i;

	if (!b->n)
		return -M_PI / 2;
	if (b->no) {
		ox = b->other[0] / (double)b->no;
		oy = b->other[1] / (double)b->no;
	} else {
		/* no enemy placed: the middle of the map's plates */
		ox = oy = 0;
		for (i = 0; m && i < m->n; i++) {
			ks_map_centre(m, m->p[i].q, m->p[i].r, &x, &y);
			ox += x / (double)m->n;
			oy += y / (double)m->n;
		}
	}
	return atan2(oy - b->own[1] / (double)b->n, ox - b->own[0] / (double)b->n);
}

/* An angle in degrees folded into [0, 360). */
static double deg360(double a)
{
	a = fmod(a, 360);
	return a < 0 ? a + 360 : a;
}

/* How far apart two bearings in degrees are, 0 to 180. */
static double deg_apart(double a, double b)
{
	double d = deg360(a - b);
	return d > 180 ? 360 - d : d;
}

/* The arrow a bearing is nearest ("↑" for 0), for the messages. */
static const char *arrow_of(double deg)
{
	static const char *const arrows[] = { "↑", "↗", "→", "↘", "↓", "↙", "←", "↖" };

	return arrows[(int)floor(deg360(deg + 22.5) / 45) % 8];
}

/* ---- the way of a retreat by the rules (6.5, 17) ---- */

/* The state u was put in (its moral, until that ends), without the
 * decimation's floor: the way kept is that state's. */
static int set_grade(struct ord_ctx *ctx, const struct ord_unit *u)
{
	int g = ks_moral_parse(ks_st_str(ctx, u, "moral"));
	long til = ks_st(ctx, u, "moral_til");

	return g < 0 || (g > KS_OR && til && til < ks_half(ctx, 0)) ? KS_OR : g;
}

/* Keep the way, a bearing in degrees (x east, y south), in whole
 * hundredths as the state writes it, and the unit it is taken from. */
static void keep_way(struct ord_ctx *ctx, struct ord_unit *u, double deg, const char *from)
{
	ks_st_set_num(ctx, u, "tvungen_retning", round(deg360(deg) * 100) / 100);
	ks_st_set_str(ctx, u, "tvungen_fra", from);
}

/* No way known: the side's "↓" will be taken (written only over a way
 * kept before, so that a unit that never had one keeps no key). */
static void forget_way(struct ord_ctx *ctx, struct ord_unit *u)
{
	if (*ks_st_str(ctx, u, "tvungen_fra"))
		ks_st_set_str(ctx, u, "tvungen_fra", "");
}

void ks_keep_retreat_way(struct ord_ctx *ctx, struct ord_unit *u, const struct ord_unit *from)
{
	struct ks_rules *r = ks_r(ctx);
	double dx, dy;

	if (!ks_check(r, "flyt_retning_tvungen_kontrol"))
		return;
	if (!from || from == u || !ks_st_has(ctx, u, "x") || !ks_st_has(ctx, from, "x")) {
		forget_way(ctx, u);
		return;
	}
	/* away from where it stood when it drove u there: the bearing from
	 * it to u (a melee's units where they stood before the attack moved
	 * them, which the events do not record: the way the attack came) */
	dx = ks_st_num(ctx, u, "x") - ks_st_num(ctx, from, "x");
	dy = ks_st_num(ctx, u, "y") - ks_st_num(ctx, from, "y");
	if (hypot(dx, dy) < ks_param(r, "flyt_retning_min_cm"))
		forget_way(ctx, u); /* on top of it: no way away from it */
	else
		keep_way(ctx, u, atan2(dy, dx) * 180 / M_PI, from->id);
}

void ks_keep_retreat_along(struct ord_ctx *ctx, struct ord_unit *u, const struct ord_unit *with)
{
	if (!ks_check(ks_r(ctx), "flyt_retning_tvungen_kontrol"))
		return;
	if (*ks_st_str(ctx, with, "tvungen_fra") && set_grade(ctx, with) >= KS_U)
		keep_way(ctx, u, ks_st_num(ctx, with, "tvungen_retning"), with->id);
	else if (ks_st_has(ctx, with, "fjende_retning"))
		keep_way(ctx, u, ks_st_num(ctx, with, "fjende_retning") + 180, with->id);
	else
		forget_way(ctx, u);
}

double ks_retreat_bearing(struct ord_ctx *ctx, const struct ord_unit *u, double enemy)
{
	if (*ks_st_str(ctx, u, "tvungen_fra") && set_grade(ctx, u) >= KS_U)
		return deg360(ks_st_num(ctx, u, "tvungen_retning"));
	return deg360(enemy + 180);
}

/* 6.5 "Hvis en enhed under spillet bliver U: skal den retirere et halvt
 * træk FU: skal den flygte et halvt træk", and 17's two ways to retreat
 * ("laver en 18[0] vending og retirere", "retirere med front mod fjenden"):
 * a retreat by the rules goes away from the enemy that drove the unit
 * into U or FU, the way kept when its state was set; with no such unit
 * known (a scenario's state, a cancelled attack, the decimation), back:
 * the side's "↓".  A move of u from (sx, sy) to (x1, y1) more than
 * flyt_retning_grader from it is added to d.  enemy: the side's "↑". */
static void check_forced_way(struct ord_ctx *ctx, const struct ord_unit *u, double sx, double sy,
			     double x1, double y1, double enemy, struct ord_diag *d)
{
	struct ks_rules *r = ks_r(ctx);
	struct ord_buf way = ORD_BUF_INIT;
	double tol = ks_param(r, "flyt_retning_grader"), want, off;
	double moved = deg360(atan2(y1 - sy, x1 - sx) * 180 / M_PI - enemy);
	const char *from = ks_st_str(ctx, u, "tvungen_fra"), *why = ks_st_str(ctx, u, "moral_grund");
	int grade = ks_moral_now(ctx, u), fled = grade >= KS_FU;

	want = deg360(ks_retreat_bearing(ctx, u, enemy) - enemy);
	if (*from && set_grade(ctx, u) >= KS_U) {
		int along = !strcmp(why, "revet med") || !strcmp(why, "samling");
		ord_buf_addf(&way, along ? "the way '%s' goes (%s)" : "away from '%s' (%s)", from,
			     ks_reason(why, "en"));
	} else {
		ord_buf_addf(&way, "back, away from the enemy (no unit is known to have put it in %s)",
			     ks_moral_name(grade));
	}
	off = deg_apart(moved, want);
	if (off > tol + 1e-9)
		ord_diag_add(d, 0, 0, u->id, "17",
			     "unit '%s' in %s %s the wrong way: %s by the rules goes %s, %s (%.0f° clockwise from the enemy); the move from x=%g y=%g to x=%g y=%g goes %s (%.0f°), %.0f° off where %g° is allowed (kontroller: flyt_retning_grader)",
			     u->id, ks_moral_name(grade), fled ? "fled" : "retreated",
			     fled ? "a flight" : "a retreat", way.buf, arrow_of(want), want, sx, sy,
			     x1, y1, arrow_of(moved), moved, off, tol);
	ord_buf_release(&way);
}

void ks_check_direction(struct ord_ctx *ctx, const struct ord_event *ev, const struct ord_unit *u,
			double sx, double sy, struct ord_diag *d)
{
	struct ks_rules *r = ks_r(ctx);
	const struct ord_order *o = ord_ctx_order(ctx, u);
	struct ks_group g[KS_MAX_GROUPS];
	struct ord_buf said = ORD_BUF_INIT, order = ORD_BUF_INIT;
	double x1 = ord_kv_get_num(&ev->kv, "x", 0), y1 = ord_kv_get_num(&ev->kv, "y", 0);
	double tol = ks_param(r, "flyt_retning_grader"), enemy, moved, best = 360;
	double sum[2] = { 0, 0 };
	size_t n, k, ndir = 0;
	/* a voluntary retreat's arrow (TT) is the way it goes, away from the
	 * enemy in either way of 17 (turned about, or facing him at half
	 * speed): a game made before flyt_retning_tt_kontrol read it neither
	 * way and did not check it */
	int tt = ks_check(r, "flyt_retning_tt_kontrol");
	int retreat = ord_kv_get_bool(&ev->kv, "retraete", 0) || !strcmp(ev->kind, "retraete");
	/* the half turn owed (retraete) has its way at any length, since a
	 * short one is held to its length (retraete_laengde_kontrol): a game
	 * made before measured no way under flyt_retning_min_cm */
	double min = !strcmp(ev->kind, "retraete") && ks_check(r, "retraete_laengde_kontrol")
			     ? 1e-9
			     : ks_param(r, "flyt_retning_min_cm");

	if (!ks_check(r, "flyt_retning_kontrol") || !ks_st_has(ctx, u, "fjende_retning") ||
	    hypot(x1 - sx, y1 - sy) < min)
		return;
	/* the side's "↑", kept by the reorganisation (ks_keep_enemy_bearing):
	 * an event's check holds only the units it names, not the setup */
	enemy = ks_st_num(ctx, u, "fjende_retning");
	/* a retreat by the rules (U, FU) goes where the unit must (6.5, 17),
	 * whatever its order: away from the enemy that drove it there
	 * (flyt_retning_tvungen_kontrol; a game made before did not check
	 * it).  One in OR or LU is its order's TT, held to TT's arrows
	 * alone */
	if (retreat && ks_moral_now(ctx, u) >= KS_U) {
		if (ks_check(r, "flyt_retning_tvungen_kontrol"))
			check_forced_way(ctx, u, sx, sy, x1, y1, enemy, d);
		return;
	}
	if (!o || (retreat && !tt))
		return;
	moved = deg360(atan2(y1 - sy, x1 - sx) * 180 / M_PI - enemy);
	n = ks_groups(o, g, KS_MAX_GROUPS);
	for (k = 0; k < n; k++) {
		const struct ord_token *dir;
		double want, tx, ty;
		int q, rr;
		int is_tt = !strcmp(g[k].code, "tilbagetog");
		if (retreat ? !is_tt
			    : strcmp(g[k].code, "march") && strcmp(g[k].code, "stormmarch") &&
				      strcmp(g[k].code, "loeb") &&
				      strcmp(g[k].code, "prolongering") && !(tt && is_tt))
			continue;
		if ((dir = ks_grp_tok(o, &g[k], ORD_TOK_DIR)) != NULL) {
			double quarters = ks_grp_quarters(ctx, o, &g[k]);
			want = dir->num;
			ord_buf_addf(&order, "%s%s %s", order.len ? ", " : "",
				     ks_code_symbol(g[k].code), dir->value);
			ord_buf_addf(&said, "%s%s (%.0f°)", said.len ? " or " : "", dir->value, want);
			/* the legs together: a move may go the whole order's way */
			sum[0] += quarters * cos(want * M_PI / 180);
			sum[1] += quarters * sin(want * M_PI / 180);
		} else if (ks_grp_hex(o, &g[k], &q, &rr) && r->map) {
			ks_map_centre(r->map, q, rr, &tx, &ty);
			if (hypot(tx - sx, ty - sy) < ks_param(r, "flyt_retning_min_cm"))
				continue; /* it stands at the plate: any way is the way there */
			want = deg360(atan2(ty - sy, tx - sx) * 180 / M_PI - enemy);
			ord_buf_addf(&order, "%s%s %02d%02d", order.len ? ", " : "",
				     ks_code_symbol(g[k].code), q, rr);
			ord_buf_addf(&said, "%splate %d,%d (%.0f° from here)",
				     said.len ? " or " : "", q, rr, want);
		} else {
			continue;
		}
		ndir++;
		if (deg_apart(moved, want) < best)
			best = deg_apart(moved, want);
	}
	if (ndir > 1 && hypot(sum[0], sum[1]) > 1e-9) {
		double whole = deg360(atan2(sum[1], sum[0]) * 180 / M_PI);
		if (deg_apart(moved, whole) < best)
			best = deg_apart(moved, whole);
	}
	if (ndir && best > tol + 1e-9)
		ord_diag_add(d, 0, 0, u->id, "4.3",
			     "unit '%s' moved against its order: '%s' goes %s, the move from x=%g y=%g to x=%g y=%g goes %s (%.0f° clockwise from the enemy), %.0f° off where %g° is allowed (kontroller: flyt_retning_grader)",
			     u->id, order.buf, said.buf, sx, sy, x1, y1, arrow_of(moved), moved,
			     best, tol);
	ord_buf_release(&said);
	ord_buf_release(&order);
}

void ks_keep_enemy_bearing(struct ord_ctx *ctx)
{
	struct ks_rules *r = ks_r(ctx);
	const char *side[16];
	double deg[16];
	size_t nside = 0, i, j, k;

	if (!ks_check(r, "flyt_retning_kontrol"))
		return;
	for (i = 0; i < ord_ctx_nunits(ctx); i++) {
		struct ord_unit *u = ord_ctx_unit(ctx, i);
		struct ks_bearing b;
		double a;
		if (ks_st_has(ctx, u, "fjende_retning"))
			continue;
		for (k = 0; k < nside && strcmp(side[k], u->side); k++)
			;
		if (k < nside) {
			a = deg[k];
		} else {
			memset(&b, 0, sizeof(b));
			for (j = 0; j < ord_ctx_nunits(ctx); j++) {
				const struct ord_unit *w = ord_ctx_unit(ctx, j);
				ks_bearing_add(&b, u->side, w->side, &w->attrs);
			}
			a = ks_bearing_enemy(&b, r->map) * 180 / M_PI;
			/* whole hundredths of a degree: the state stores it as
			 * written, the same on every machine */
			a = round(a * 100) / 100;
			if (nside < ORD_ARRAY_SIZE(side)) {
				side[nside] = u->side;
				deg[nside++] = a;
			}
		}
		ks_st_set_num(ctx, u, "fjende_retning", a);
	}
}

/* ---- into an enemy's break-in distance (6.3) ---- */

/* The farthest a unit moves in a turn: the longest march length of Skema
 * V (marchlaengder, march or stormmarch), whichever arm, formation or
 * gait (a flight at stormmarch too). */
static double longest_march(const struct ks_rules *r)
{
	const struct ord_table *t = ks_table(r, "marchlaengder");
	double most = 0, v;
	size_t i;

	for (i = 0; t && i < ord_table_nrows(t); i++) {
		const struct ord_row *row = ord_table_row(t, i);
		if (!ord_row_num(row, "cm", &v) && v > most)
			most = v;
		if (!ord_row_num(row, "storm", &v) && v > most)
			most = v;
	}
	ord_error_clear();
	return most;
}

struct placed {
	double x, y;
	size_t i;
};

static int by_x(const void *a, const void *b)
{
	const struct placed *p = a, *q = b;

	return p->x < q->x ? -1 : p->x > q->x ? 1 : p->i < q->i ? -1 : p->i > q->i;
}

static int by_index(const void *a, const void *b)
{
	size_t p = *(const size_t *)a, q = *(const size_t *)b;

	return p < q ? -1 : p > q;
}

void ks_keep_enemies_near(struct ord_ctx *ctx)
{
	struct ks_rules *r = ks_r(ctx);
	size_t nu = ord_ctx_nunits(ctx), n = 0, i, j, lo = 0, k;
	struct placed *p;
	size_t *near;
	double reach;
	struct ord_buf list = ORD_BUF_INIT;

	if (!ks_check(r, "indbrud_flyt_kontrol"))
		return;
	reach = longest_march(r) + ks_param(r, "indbrudsafstand_cm");
	p = ord_xcalloc(nu + 1, sizeof(*p));
	near = ord_xcalloc(nu + 1, sizeof(*near));
	for (i = 0; i < nu; i++) {
		struct ord_unit *u = ord_ctx_unit(ctx, i);
		if (ks_gone(ctx, u) || !ks_st_has(ctx, u, "x"))
			continue;
		p[n].x = ks_st_num(ctx, u, "x");
		p[n].y = ks_st_num(ctx, u, "y");
		p[n++].i = i;
	}
	/* by x, so that each unit looks only at those within reach east and
	 * west of it, not at the whole game */
	qsort(p, n, sizeof(*p), by_x);
	for (i = 0; i < n; i++) {
		struct ord_unit *u = ord_ctx_unit(ctx, p[i].i);
		size_t nn = 0;
		while (lo < n && p[lo].x < p[i].x - reach)
			lo++;
		for (j = lo; j < n && p[j].x <= p[i].x + reach; j++) {
			const struct ord_unit *w = ord_ctx_unit(ctx, p[j].i);
			if (strcmp(w->side, u->side) && hypot(p[j].x - p[i].x, p[j].y - p[i].y) <= reach)
				near[nn++] = p[j].i;
		}
		/* in the order of the units, the same in every context */
		qsort(near, nn, sizeof(*near), by_index);
		ord_buf_reset(&list);
		for (k = 0; k < nn; k++)
			ord_buf_addf(&list, "%s%s", k ? " " : "", ord_ctx_unit(ctx, near[k])->id);
		/* written only where there is one, or over one kept before */
		if (list.len || *ks_st_str(ctx, u, "indbrud_naer"))
			ks_st_set_str(ctx, u, "indbrud_naer", list.buf ? list.buf : "");
	}
	/* a unit gone or with no position keeps no enemies */
	for (i = 0; i < nu; i++) {
		struct ord_unit *u = ord_ctx_unit(ctx, i);
		if ((ks_gone(ctx, u) || !ks_st_has(ctx, u, "x")) && *ks_st_str(ctx, u, "indbrud_naer"))
			ks_st_set_str(ctx, u, "indbrud_naer", "");
	}
	ord_buf_release(&list);
	free(p);
	free(near);
}

/* What 6.3 lets u (moving in `formation`, its nearest point to e at
 * (nx, ny)) do to enemy e's break-in distance: 0 when it may move in,
 * else 1 and why not in why. */
static int break_in_barred(struct ord_ctx *ctx, const struct ord_unit *u, const char *formation,
			   const struct ord_unit *e, double nx, double ny, struct ord_buf *why)
{
	int grade = ks_moral_now(ctx, u), eg = ks_moral_now(ctx, e), cls;
	double ex = ks_st_num(ctx, e, "x"), ey = ks_st_num(ctx, e, "y");

	if (grade >= KS_U) {
		ord_buf_addf(why, "'%s' is in %s", u->id, ks_moral_name(grade));
		return 1;
	}
	if (eg == KS_FU)
		return 0;
	if (ks_closed(ctx, e, NULL)) {
		ord_buf_addf(why, "'%s' is in %s and in close order (%s)", e->id, ks_moral_name(eg),
			     ks_formation_name(ctx, e, ks_form(ctx, e), "en"));
		return 1;
	}
	if (!ks_closed(ctx, u, formation)) {
		ord_buf_addf(why, "'%s' is in open order (%s) and '%s' moves in open order (%s)",
			     e->id, ks_formation_name(ctx, e, ks_form(ctx, e), "en"), u->id,
			     ks_formation_name(ctx, u, formation, "en"));
		return 1;
	}
	if (ks_in_cover(ctx, e, NULL)) {
		ord_buf_addf(why, "'%s' is in open order (%s) in cover", e->id,
			     ks_formation_name(ctx, e, ks_form(ctx, e), "en"));
		return 1;
	}
	if ((cls = ks_path_obstacle(ctx, nx, ny, ex, ey)) > 0) {
		ord_buf_addf(why, "'%s' is in open order (%s) behind an obstacle (class %s)", e->id,
			     ks_formation_name(ctx, e, ks_form(ctx, e), "en"),
			     cls == 1   ? "I"
			     : cls == 2 ? "II"
					: "III");
		return 1;
	}
	return 0;
}

void ks_check_break_in_move(struct ord_ctx *ctx, const struct ord_event *ev, const struct ord_unit *u,
			    double sx, double sy, const char *formation, struct ord_diag *d)
{
	struct ks_rules *r = ks_r(ctx);
	const char *list = ks_st_str(ctx, u, "indbrud_naer"), *p;
	double x1 = ord_kv_get_num(&ev->kv, "x", 0), y1 = ord_kv_get_num(&ev->kv, "y", 0);
	double dist = ks_param(r, "indbrudsafstand_cm"), dx = x1 - sx, dy = y1 - sy;
	double len2 = dx * dx + dy * dy;
	int turn = ord_ctx_turn(ctx);

	if (!ks_check(r, "indbrud_flyt_kontrol"))
		return;
	for (p = list; *p;) {
		size_t n = strcspn(p, " ");
		char id[128];
		struct ord_unit *e;
		struct ord_buf why = ORD_BUF_INIT;
		double ex, ey, t, nx, ny, start, nearest, end;

		if (n && n < sizeof(id)) {
			memcpy(id, p, n);
			id[n] = '\0';
		} else {
			id[0] = '\0';
		}
		p += n;
		p += strspn(p, " ");
		/* looked up by id: an event's check holds only the units it
		 * names, and loads this one (its state as the phase began) */
		if (!*id || !(e = ord_ctx_find_unit(ctx, id)) || ks_gone(ctx, e) ||
		    !ks_st_has(ctx, e, "x") || !strcmp(e->side, u->side))
			continue;
		/* the target of its attack: the attack goes "frem til
		 * indbrudsafstand" and is held to 6.3 as an attack (16) */
		if (ks_st(ctx, u, "angreb_traek") == turn &&
		    !strcmp(ks_st_str(ctx, u, "angreb_maal"), e->id))
			continue;
		ex = ks_st_num(ctx, e, "x");
		ey = ks_st_num(ctx, e, "y");
		/* the point of the move nearest the enemy's centre: it ends
		 * within the distance, or passes it on the way (past its
		 * centre); moving in over it is coming nearer than it stood */
		t = len2 > 0 ? ((ex - sx) * dx + (ey - sy) * dy) / len2 : 0;
		t = t < 0 ? 0 : t > 1 ? 1 : t;
		nx = sx + t * dx;
		ny = sy + t * dy;
		start = hypot(ex - sx, ey - sy);
		nearest = hypot(ex - nx, ey - ny);
		end = hypot(ex - x1, ey - y1);
		if (nearest >= dist - 1e-9 || nearest >= start - 1e-9 ||
		    !break_in_barred(ctx, u, formation, e, nx, ny, &why)) {
			ord_buf_release(&why);
			continue;
		}
		ord_diag_add(d, 0, 0, u->id, "6.3 indbrudsafstand",
			     "unit '%s' moved in over the break-in distance of '%s' (%g cm, indbrudsafstand_cm): the move from x=%g y=%g to x=%g y=%g %s %g cm from its centre; only units in OR or LU move in over an enemy's break-in distance, and only where the enemy is FU, or in open order with no obstacle or cover in front of it and the unit in close order (\"Det er kun muligt at rykke ind over en fjendtlig enheds indbrudsafstand med enheder i OR eller LU\"): %s",
			     u->id, e->id, dist, sx, sy, x1, y1, end < dist - 1e-9 ? "ends" : "passes",
			     round((end < dist - 1e-9 ? end : nearest) * 10) / 10, why.buf);
		ord_buf_release(&why);
	}
}
