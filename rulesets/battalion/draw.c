/*
 * draw.c - the pictures of a battalion game (the ruleset's draw slot).
 *
 * The battalion rules keep no positions: their story is the chart, each
 * unit's figures over every phase, the figures lost in each phase, and
 * its morale (good, dressing ranks, shaken, retreating, routed) as a band
 * (the core's ord_canvas_chart).  What a side sees of an enemy unit is
 * what its report says (bat_describe_unit): of a battalion its trays, not
 * its figures, so its line is the figures of its trays, dashed; of a
 * squadron or a gun (trays are the infantry's) its exact figures, a
 * solid line.  An enemy's losses are not shown.
 *
 * When the referee records positions (x=, y= in inches on the scenario's
 * units and on move events, positions.c), `orderly map` draws the table:
 * each unit a block in its side's colour shaped by its formation, with its
 * id, strength and morale, and the fire and melee of the phases drawn.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canvas.h"
#include "rulesets/battalion/bat.h"
#include "rulesets/battalion/draw.h"

static const char *const side_fill[] = { "#2a4f8c", "#d9604f", "#4f8a3c", "#8a5aa0" };
enum band { GOOD, DRESSING, SHAKEN, RETREATING, ROUTED, DESTROYED, NBANDS };

static const struct ord_chart_band bands[NBANDS] = {
	{ "good", "#dfe8d0", "G" },   { "dressing ranks", "#f4e08a", "D" },
	{ "shaken", "#f2c230", "S" }, { "retreating", "#e07b20", "R" },
	{ "routed", "#b3141c", "X" }, { "destroyed", "#555555", "–" },
};

static long st(const struct ord_kv *s, const char *key)
{
	return ord_kv_get_int(s, key, 0);
}

/* The morale band of a state in a turn (the words of describe_unit). */
static int band_of(const struct ord_kv *s, int turn)
{
	if (st(s, "figures") <= 0)
		return DESTROYED;
	if (st(s, "routed") && st(s, "rout_until") >= turn)
		return ROUTED;
	if (st(s, "retreat_turn") == turn)
		return RETREATING;
	if (st(s, "retreat_turn") == turn + 1)
		return SHAKEN;
	if (st(s, "dress_until") >= turn)
		return DRESSING;
	return GOOD;
}

static int side_index(const struct ord_picture *w, const char *side)
{
	size_t i;

	for (i = 0; i < w->nsides; i++)
		if (!strcmp(w->sides[i], side))
			return (int)(i % ORD_ARRAY_SIZE(side_fill));
	return 0;
}

static const char *side_title(const struct ord_picture *w, const char *side)
{
	size_t i;

	for (i = 0; i < w->nsides; i++)
		if (!strcmp(w->sides[i], side))
			return w->side_titles[i];
	return side;
}

static long figures_per_tray(struct ord_ctx *ctx)
{
	double v = 0;

	if (bat_param(bat_rules(ord_ctx_rules(ctx)), "figures_per_tray", &v))
		ord_error_clear();
	return v > 0 ? (long)v : 0;
}

/* A viewer knows u's figures exactly: its own unit, and an enemy that is
 * no battalion (bat_describe_unit: a squadron's or a gun's figures stand
 * apart on the table; trays are the infantry's). */
static int exact_for(struct ord_ctx *ctx, const struct ord_unit *u, const char *viewer)
{
	return !viewer || !strcmp(viewer, u->side) || !bat_is_arm(ctx, u, "infantry");
}

/* What a viewer knows of a unit's strength at a state (its report's
 * words): its figures, or an enemy battalion's trays as figures. */
static double strength(const struct ord_kv *s, int exact, long fpt)
{
	long fig = st(s, "figures");

	if (exact || fpt <= 0)
		return (double)fig;
	return (double)(((fig + fpt - 1) / fpt) * fpt);
}

static int draw_chart(struct ord_ctx *ctx, const char *viewer, struct ord_canvas *cv,
		      const struct ord_picture *w)
{
	static const struct {
		const char *phase, *mark;
	} marks[] = { { "movement", "M" },
		      { "fire", "F" },
		      { "fire-morale", "FM" },
		      { "melee", "Me" },
		      { "melee-morale", "MM" } };
	size_t ns = ord_ctx_nsteps(ctx), nu = ord_ctx_nunits(ctx), i, s, k;
	struct ord_chart c;
	struct ord_chart_unit *cu = ord_xcalloc(nu + 1, sizeof(*cu));
	double *fig = ord_xcalloc(ns * nu + 1, sizeof(double));
	double *lost = ord_xcalloc(ns * nu + 1, sizeof(double));
	int *band = ord_xcalloc(ns * nu + 1, sizeof(int)), *turns = ord_xcalloc(ns + 1, sizeof(int));
	const char **labels = ord_xcalloc(ns + 1, sizeof(char *));
	char **names = ord_xcalloc(nu + 1, sizeof(char *));
	struct ord_buf title = ORD_BUF_INIT, sub = ORD_BUF_INIT;
	long fpt = figures_per_tray(ctx);
	int err;

	for (s = 0; s < ns; s++) {
		const char *ph;
		ord_ctx_step(ctx, s, &turns[s], &ph);
		labels[s] = "start";
		for (k = 0; k < ORD_ARRAY_SIZE(marks); k++)
			if (!strcmp(ph, marks[k].phase))
				labels[s] = marks[k].mark;
	}
	for (i = 0; i < nu; i++) {
		const struct ord_unit *u = ord_ctx_unit(ctx, i);
		int own = !viewer || !strcmp(viewer, u->side);
		int exact = exact_for(ctx, u, viewer);
		struct ord_buf nm = ORD_BUF_INIT;
		const char *kind = ord_kv_get(&u->attrs, "kind");

		ord_buf_addf(&nm, "%s, %s", u->name, kind ? kind : "");
		for (k = 0; k < nm.len; k++)
			if (nm.buf[k] == '_')
				nm.buf[k] = ' ';
		names[i] = ord_buf_detach(&nm, NULL);
		cu[i].id = u->id;
		cu[i].label = names[i];
		cu[i].side = u->side;
		cu[i].colour = side_fill[side_index(w, u->side)];
		cu[i].strength = fig + i * ns;
		cu[i].lost = lost + i * ns;
		cu[i].band = band + i * ns;
		cu[i].approximate = !exact;
		for (s = 0; s < ns; s++) {
			const struct ord_kv *sv = ord_ctx_step_state(ctx, s, u);
			if (!sv) {
				fig[i * ns + s] = -1;
				band[i * ns + s] = -1;
				continue;
			}
			fig[i * ns + s] = strength(sv, exact, fpt);
			band[i * ns + s] = band_of(sv, turns[s]);
			if (own && s && fig[i * ns + s - 1] >= 0)
				lost[i * ns + s] = fig[i * ns + s - 1] - fig[i * ns + s];
		}
	}
	ord_buf_addf(&title, "%s — the story of the battle", w->game);
	if (viewer)
		ord_buf_addf(&sub,
			     "As the %s see it (fog of war): an enemy unit only in the turns it was met, a battalion in trays",
			     side_title(w, viewer));
	else
		ord_buf_adds(&sub, "The referee's chart: every unit, every phase");
	memset(&c, 0, sizeof(c));
	c.title = title.buf;
	c.subtitle = sub.buf;
	c.nsteps = ns;
	c.step_labels = labels;
	c.step_turn = turns;
	c.step_key = "phases: M movement · F fire · FM fire morale · Me melee · MM melee morale";
	c.units = cu;
	c.nunits = nu;
	c.bands = bands;
	c.nbands = NBANDS;
	c.strength_label = "figures";
	c.lost_label = "figures lost in the phase";
	c.band_label = "morale";
	err = ord_canvas_chart(cv, &c);
	for (i = 0; i < nu; i++)
		free(names[i]);
	free(names);
	free(labels);
	free(cu);
	free(fig);
	free(lost);
	free(band);
	free(turns);
	ord_buf_release(&title);
	ord_buf_release(&sub);
	return err;
}

/* ---- the table, when positions are recorded ---- */

#define PX_PER_INCH 14.0
#define MARGIN 24.0
#define TOP 70.0
#define MIN_WIDTH 700.0 /* room for the title and the legend */

static void map_styles(struct ord_canvas *cv)
{
	size_t i;
	char cls[32];

	ord_canvas_style(cv, "title",
			 &(struct ord_style){ .fill = "#1a1a1a", .font_size = 20, .bold = 1 });
	ord_canvas_style(cv, "subtitle", &(struct ord_style){ .fill = "#333333", .font_size = 13 });
	ord_canvas_style(cv, "table",
			 &(struct ord_style){
				 .fill = "#eef0da", .stroke = "#8a8a7a", .stroke_width = 1 });
	ord_canvas_style(cv, "grid", &(struct ord_style){ .stroke = "#d4d6bc", .stroke_width = 0.8 });
	ord_canvas_style(cv, "grid-label",
			 &(struct ord_style){ .fill = "#6a6a5a", .font_size = 10, .anchor = "middle" });
	for (i = 0; i < ORD_ARRAY_SIZE(side_fill); i++) {
		snprintf(cls, sizeof(cls), "side-%zu", i);
		ord_canvas_style(cv, cls,
				 &(struct ord_style){ .fill = side_fill[i],
						      .stroke = "#111111",
						      .stroke_width = 1.2 });
		snprintf(cls, sizeof(cls), "hollow-%zu", i);
		ord_canvas_style(cv, cls,
				 &(struct ord_style){
					 .fill = "none", .stroke = side_fill[i], .stroke_width = 5 });
	}
	ord_canvas_style(cv, "pin", &(struct ord_style){ .fill = "#111111" });
	ord_canvas_style(cv, "label-leader",
			 &(struct ord_style){ .stroke = "#111111", .stroke_width = 1.2 });
	ord_canvas_style(cv, "leader",
			 &(struct ord_style){ .stroke = "#333333", .stroke_width = 0.8, .dash = "2 2" });
	ord_canvas_style(cv, "label-box",
			 &(struct ord_style){
				 .fill = "#ffffff", .stroke = "#555555", .stroke_width = 0.6 });
	ord_canvas_style(cv, "label", &(struct ord_style){ .fill = "#111111", .font_size = 11.5 });
	ord_canvas_style(cv, "fire",
			 &(struct ord_style){ .fill = "none",
					      .stroke = "#b3141c",
					      .stroke_width = 1.8,
					      .dash = "2 3" });
	ord_canvas_style(cv, "fire-head", &(struct ord_style){ .fill = "#b3141c" });
	ord_canvas_style(cv, "melee", &(struct ord_style){ .stroke = "#111111", .stroke_width = 4 });
	ord_canvas_style(cv, "result-box",
			 &(struct ord_style){
				 .fill = "#fff8e8", .stroke = "#b3141c", .stroke_width = 0.8 });
	ord_canvas_style(cv, "result", &(struct ord_style){ .fill = "#5a0a0e", .font_size = 10.5 });
	ord_canvas_style(cv, "legend-text", &(struct ord_style){ .fill = "#1a1a1a", .font_size = 12 });
}

/* What the marks mean, in a row at baseline y: a label's words, a
 * square's hollow block, a fire's line and its result's box, a melee. */
static void draw_key(struct ord_canvas *cv, double y, int fog)
{
	double x = MARGIN, w;
	const char *label = fog ? "A1 ≈24 good" : "A1 24 good";
	const char *says = fog ? "unit, figures (≈ an enemy's, seen), morale" : "unit, figures, morale";

	w = ord_canvas_text_width(label, 11.5) + 10;
	ord_canvas_rect(cv, x, y - 12, w, 16, 2, "label-box");
	ord_canvas_text(cv, x + 5, y, label, "label");
	x += w + 6;
	ord_canvas_text(cv, x, y, says, "legend-text");
	x += ord_canvas_text_width(says, 12) + 24;
	ord_canvas_rect(cv, x, y - 10, 12, 12, 0, "hollow-0");
	ord_canvas_text(cv, x + 18, y, "square", "legend-text");
	x += 18 + ord_canvas_text_width("square", 12) + 24;
	ord_canvas_arrow(cv, x, y - 4, x + 34, y - 4, 7, "fire", "fire-head");
	ord_canvas_text(cv, x + 40, y, "fire; its result boxed", "legend-text");
	x += 40 + ord_canvas_text_width("fire; its result boxed", 12) + 24;
	ord_canvas_line(cv, x, y - 4, x + 24, y - 4, "melee");
	ord_canvas_text(cv, x + 30, y, "melee", "legend-text");
}

struct spot {
	const struct ord_unit *u;
	double x, y;   /* inches */
	double bx, by; /* its block's top left corner (user units) */
	double bw, bh; /* its block's size */
};

static int draw_map(struct ord_ctx *ctx, const char *viewer, struct ord_canvas *cv,
		    const struct ord_picture *w)
{
	size_t nu = ord_ctx_nunits(ctx), i, n = 0;
	struct spot *sp = ord_xcalloc(nu + 1, sizeof(*sp));
	double maxx = 0, maxy = 0, width, height, gx;
	struct ord_buf title = ORD_BUF_INIT, sub = ORD_BUF_INIT;
	long fpt = figures_per_tray(ctx);
	char id[96], text[96], cls[32];
	struct ord_canvas_label *rt = ord_xcalloc(ord_ctx_nevents(ctx) + 1, sizeof(*rt));
	size_t nrt = 0;

	for (i = 0; i < nu; i++) {
		const struct ord_unit *u = ord_ctx_unit(ctx, i);
		if (!ord_kv_get(&u->state, "x") || !ord_kv_get(&u->state, "y"))
			continue;
		sp[n].u = u;
		sp[n].x = ord_kv_get_num(&u->state, "x", 0);
		sp[n].y = ord_kv_get_num(&u->state, "y", 0);
		maxx = fmax(maxx, sp[n].x);
		maxy = fmax(maxy, sp[n].y);
		n++;
	}
	if (!n) {
		free(sp);
		free(rt);
		return ord_error_set(ORD_ESTATE,
				     "no unit of this game has a position: give x= and y= (inches) in the scenario or on move events, or draw 'orderly chart'");
	}
	maxx = ceil((maxx + 6) / 12) * 12;
	maxy = ceil((maxy + 6) / 12) * 12;
	width = fmax(2 * MARGIN + maxx * PX_PER_INCH, MIN_WIDTH);
	height = TOP + maxy * PX_PER_INCH + 84; /* the sides, and the key */
	ord_canvas_resize(cv, width, height);
	/* the table after the phase ("turn 1, fire" read as the fire being
	 * drawn, not what it left), in words: "fire-morale" as "fire morale" */
	ord_buf_addf(&title, "%s — turn %d, ", w->game, w->turn);
	if (*w->phase) {
		const char *p;
		ord_buf_adds(&title, "after ");
		for (p = w->phase; *p; p++)
			ord_buf_addf(&title, "%c", *p == '-' ? ' ' : *p);
	} else {
		ord_buf_adds(&title, "as the turn opened");
	}
	if (viewer)
		ord_buf_addf(&sub, "As the %s see it (fog of war)", side_title(w, viewer));
	else
		ord_buf_adds(&sub, "The referee's map");
	ord_buf_adds(&sub, " · 1 square = 12 inches");
	ord_canvas_title(cv, title.buf, sub.buf);
	map_styles(cv);
	ord_canvas_layer(cv, "title");
	ord_canvas_layer(cv, "terrain");
	ord_canvas_layer(cv, "labels");
	ord_canvas_layer(cv, "results");
	ord_canvas_layer(cv, "units");
	ord_canvas_layer(cv, "result-labels");
	ord_canvas_layer(cv, "legend");
	ord_canvas_layer(cv, "title");
	ord_canvas_text_fit(cv, MARGIN, 30, title.buf, "title", 20, width - 2 * MARGIN);
	ord_canvas_text_fit(cv, MARGIN, 52, sub.buf, "subtitle", 13, width - 2 * MARGIN);
	ord_canvas_layer(cv, "terrain");
	ord_canvas_rect(cv, MARGIN, TOP, maxx * PX_PER_INCH, maxy * PX_PER_INCH, 0, "table");
	ord_canvas_layer(cv, "labels");
	for (gx = 12; gx < maxx; gx += 12) {
		ord_canvas_line(cv, MARGIN + gx * PX_PER_INCH, TOP, MARGIN + gx * PX_PER_INCH,
				TOP + maxy * PX_PER_INCH, "grid");
		snprintf(text, sizeof(text), "%.0f\"", gx);
		ord_canvas_text(cv, MARGIN + gx * PX_PER_INCH, TOP + maxy * PX_PER_INCH + 14, text,
				"grid-label");
	}
	for (gx = 12; gx < maxy; gx += 12)
		ord_canvas_line(cv, MARGIN, TOP + gx * PX_PER_INCH, MARGIN + maxx * PX_PER_INCH,
				TOP + gx * PX_PER_INCH, "grid");

	/* the blocks first, each on its position or the nearest free place;
	 * then the fire's heads and every true position are taken, so that
	 * no label hides them (a label lay on the dot of a block moved
	 * aside, another on the head of a fire) */
	for (i = 0; i < n; i++) {
		const char *form = ord_kv_get(&sp[i].u->state, "formation");
		double px = MARGIN + sp[i].x * PX_PER_INCH, py = TOP + sp[i].y * PX_PER_INCH;
		sp[i].bw = 44, sp[i].bh = 12;
		if (!form)
			form = "line";
		if (!strcmp(form, "column") || !strcmp(form, "limbered"))
			sp[i].bw = 18, sp[i].bh = 26;
		else if (!strcmp(form, "square"))
			sp[i].bw = 24, sp[i].bh = 24;
		else if (!strcmp(form, "skirmish") || !strcmp(form, "misc"))
			sp[i].bw = 48, sp[i].bh = 6;
		else if (!strcmp(form, "unlimbered"))
			sp[i].bw = 28, sp[i].bh = 12;
		sp[i].bx = px - sp[i].bw / 2;
		sp[i].by = py - sp[i].bh / 2;
		if (!ord_canvas_free_spot(cv, &sp[i].bx, &sp[i].by, sp[i].bw + 2, sp[i].bh + 2, 60))
			ord_canvas_free_spot(cv, &sp[i].bx, &sp[i].by, sp[i].bw + 2, sp[i].bh + 2, 200);
		ord_canvas_reserve_owned(cv, sp[i].bx, sp[i].by, sp[i].bw + 2, sp[i].bh + 2,
					 (unsigned)i + 1);
	}
	/* fire and melee of the phases drawn: a fire line runs 3 units to the
	 * right of the line between the units, so that two units firing at
	 * each other have two lines, and stops short of its target so that
	 * its head is not hidden under the target's block */
	ord_canvas_layer(cv, "results");
	for (i = 0; i < ord_ctx_nevents(ctx); i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		const char *ak = "unit", *bk = "target";
		const struct ord_unit *a, *b;
		const struct spot *pa = NULL, *pb = NULL;
		double x1, y1, x2, y2, len, ux, uy;
		size_t k;
		int melee = !strcmp(e->kind, "melee");
		if (melee)
			ak = "a", bk = "b";
		else if (strcmp(e->kind, "fire") && strcmp(e->kind, "artillery"))
			continue;
		a = ord_ctx_find_unit(ctx, ord_kv_get(&e->kv, ak) ? ord_kv_get(&e->kv, ak) : "");
		b = ord_ctx_find_unit(ctx, ord_kv_get(&e->kv, bk) ? ord_kv_get(&e->kv, bk) : "");
		for (k = 0; k < n; k++) {
			if (sp[k].u == a)
				pa = &sp[k];
			if (sp[k].u == b)
				pb = &sp[k];
		}
		if (!pa || !pb)
			continue;
		x1 = MARGIN + pa->x * PX_PER_INCH;
		y1 = TOP + pa->y * PX_PER_INCH;
		x2 = MARGIN + pb->x * PX_PER_INCH;
		y2 = TOP + pb->y * PX_PER_INCH;
		len = hypot(x2 - x1, y2 - y1);
		ux = len > 0 ? (x2 - x1) / len : 0;
		uy = len > 0 ? (y2 - y1) / len : 0;
		snprintf(id, sizeof(id), "event-%u", e->seq);
		ord_canvas_begin(cv, id, e->kind, 0, 0, 0);
		if (melee) {
			ord_canvas_line(cv, x1, y1, x2, y2, "melee");
		} else {
			double cut = len > 40 ? 14 : 0;
			x1 -= uy * 3;
			y1 += ux * 3;
			x2 -= uy * 3 + ux * cut;
			y2 += ux * 3 - uy * cut;
			ord_canvas_arrow_kept(cv, x1, y1, x2, y2, 9, "fire", "fire-head");
		}
		ord_canvas_end(cv);
		for (k = 0; k < ord_ctx_nresults(ctx); k++) {
			struct ord_result_view v;
			struct ord_canvas_label *r;
			long lost;
			if (ord_ctx_result_get(ctx, k, &v) || v.event_seq != e->seq ||
			    !ord_kv_get(v.values, "casualties"))
				continue;
			lost = ord_kv_get_int(v.values, "casualties", 0);
			r = &rt[nrt++];
			ord_buf_init(&r->t);
			/* whose fire at whom: "A1 −2" on top of "F1 −8" at the
			 * middle of one line did not say, nor could be read */
			ord_buf_addf(&r->t, "%s→%s: ", a->id, b->id);
			if (lost)
				ord_buf_addf(&r->t, "−%ld fig.", lost);
			else /* a miss, not "−0" */
				ord_buf_adds(&r->t, "no loss");
			r->seq = e->seq;
			r->x = (x1 + x2) / 2 - uy * 12;
			r->y = (y1 + y2) / 2 + ux * 12;
			break;
		}
	}

	ord_canvas_layer(cv, "units");
	for (i = 0; i < n; i++)
		ord_canvas_reserve_owned(cv, MARGIN + sp[i].x * PX_PER_INCH - 3,
					 TOP + sp[i].y * PX_PER_INCH - 3, 6, 6, (unsigned)i + 1);
	for (i = 0; i < n; i++) {
		const struct ord_unit *u = sp[i].u;
		const char *form = ord_kv_get(&u->state, "formation");
		int exact = exact_for(ctx, u, viewer), side = side_index(w, u->side);
		double px = MARGIN + sp[i].x * PX_PER_INCH, py = TOP + sp[i].y * PX_PER_INCH;
		double bw = sp[i].bw, bh = sp[i].bh, bx = sp[i].bx, by = sp[i].by, lw;
		snprintf(id, sizeof(id), "unit-%s", u->id);
		ord_canvas_begin(cv, id, "unit", px, py, 0);
		ord_canvas_data(cv, "x", ord_kv_get(&u->state, "x"));
		ord_canvas_data(cv, "y", ord_kv_get(&u->state, "y"));
		ord_canvas_data(cv, "side", u->side);
		ord_canvas_tip(cv, u->name);
		if (fabs(bx + bw / 2 - px) > 0.5 || fabs(by + bh / 2 - py) > 0.5)
			ord_canvas_line(cv, 0, 0, bx + bw / 2 - px, by + bh / 2 - py, "leader");
		snprintf(cls, sizeof(cls),
			 form && !strcmp(form, "square") ? "hollow-%d" : "side-%d", side);
		ord_canvas_rect(cv, bx - px, by - py, bw, bh, 0, cls);
		ord_canvas_circle(cv, 0, 0, 2.2, "pin");
		snprintf(text, sizeof(text), "%s %s%.0f %s", u->id, exact ? "" : "≈",
			 strength(&u->state, exact, fpt), bands[band_of(&u->state, w->turn)].name);
		lw = ord_canvas_text_width(text, 11.5) + 10;
		{
			double lx, ly, qx, qy;
			/* beside its own block, nearer it than any other's: in a
			 * line 6" apart the labels (90 units) are wider than the
			 * gaps (84), and one pushed off to the nearest free place
			 * stood under the next block ("A1 24 good" under A2's,
			 * "F1 13 shaken" on F5's), read as that unit's; else, in a
			 * crowd, a line from the label to its block's pin */
			int plain = ord_canvas_label_spot(cv, &lx, &ly, lw, 16, (unsigned)i + 1, bx,
							  by, bw, bh);
			ord_canvas_reserve(cv, lx, ly, lw, 16);
			if (!plain) {
				qx = fmin(fmax(bx + bw / 2, lx), lx + lw);
				qy = fmin(fmax(by + bh / 2, ly), ly + 16);
				ord_canvas_line(cv, bx + bw / 2 - px, by + bh / 2 - py, qx - px,
						qy - py, "label-leader");
			}
			ord_canvas_rect(cv, lx - px, ly - py, lw, 16, 2, "label-box");
			ord_canvas_text(cv, lx - px + 5, ly - py + 12, text, "label");
		}
		ord_canvas_end(cv);
	}
	/* the results' labels: over every line, off the units and their labels */
	ord_canvas_result_labels(cv, rt, nrt);
	for (i = 0; i < nrt; i++)
		ord_buf_release(&rt[i].t);
	free(rt);
	ord_canvas_layer(cv, "legend");
	for (i = 0; i < w->nsides; i++) {
		snprintf(cls, sizeof(cls), "side-%zu", i % ORD_ARRAY_SIZE(side_fill));
		ord_canvas_rect(cv, MARGIN + 220 * (double)i, height - 54, 22, 11, 0, cls);
		ord_canvas_text(cv, MARGIN + 220 * (double)i + 28, height - 44, w->side_titles[i],
				"legend-text");
	}
	draw_key(cv, height - 22, viewer != NULL);
	free(sp);
	ord_buf_release(&title);
	ord_buf_release(&sub);
	return 0;
}

int bat_draw(struct ord_ctx *ctx, const char *viewer, struct ord_canvas *cv,
	     const struct ord_picture *what)
{
	if (!strcmp(what->kind, "chart"))
		return draw_chart(ctx, viewer, cv, what);
	if (!strcmp(what->kind, "map"))
		return draw_map(ctx, viewer, cv, what);
	return ord_error_set(ORD_ENOTFOUND, "ruleset 'battalion' draws no '%s'", what->kind);
}
