/*
 * canvas_chart.c - the story of a battle as a chart (canvas.h,
 * ord_canvas_chart): small multiples, one panel per unit, each with its
 * strength over the steps of the game (every phase of every turn) as a
 * line, what it lost in each step as bars, and its morale as a band of
 * colours with a letter in each cell (so a grey print still reads).  A
 * ruleset fills struct ord_chart from its units' states; the drawing is
 * the same for every ruleset.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canvas.h"

/* Sizes (user units) of the chart's parts. */
#define MARGIN 24.0
#define LABEL_W 190.0 /* the unit's name left of its panel */
#define STEP_W 26.0   /* one step of the story */
#define BAR_W 16.0    /* a loss bar, in the middle of its step */
#define PLOT_H 64.0   /* the strength plot of a panel */
#define BAND_H 15.0   /* the morale band under it */
#define PANEL_GAP 30.0
#define COL_GAP 36.0
#define TITLE_H 64.0
#define AXIS_H 34.0 /* turn labels above the panels of a column */

static void styles(struct ord_canvas *cv)
{
	ord_canvas_style(cv, "title",
			 &(struct ord_style){ .fill = "#1a1a1a", .font_size = 20, .bold = 1 });
	ord_canvas_style(cv, "subtitle", &(struct ord_style){ .fill = "#333333", .font_size = 13 });
	ord_canvas_style(cv, "unit-label",
			 &(struct ord_style){ .fill = "#1a1a1a", .font_size = 12.5, .bold = 1 });
	ord_canvas_style(cv, "unit-sub", &(struct ord_style){ .fill = "#444444", .font_size = 11 });
	ord_canvas_style(cv, "frame",
			 &(struct ord_style){
				 .fill = "#fbfbf8", .stroke = "#9a9a9a", .stroke_width = 0.8 });
	ord_canvas_style(cv, "turn-sep",
			 &(struct ord_style){ .stroke = "#7a7a7a", .stroke_width = 0.8, .dash = "3 3" });
	ord_canvas_style(cv, "axis-label",
			 &(struct ord_style){ .fill = "#333333", .font_size = 11, .anchor = "middle" });
	ord_canvas_style(cv, "turn-label",
			 &(struct ord_style){
				 .fill = "#1a1a1a", .font_size = 12, .bold = 1, .anchor = "middle" });
	ord_canvas_style(cv, "value",
			 &(struct ord_style){ .fill = "#1a1a1a",
					      .font_size = 10.5,
					      .anchor = "middle",
					      .halo = "#fbfbf8",
					      .halo_width = 3 });
	ord_canvas_style(cv, "lost", &(struct ord_style){ .fill = "#8c2d19", .opacity = 0.75 });
	ord_canvas_style(cv, "lost-value",
			 &(struct ord_style){ .fill = "#8c2d19",
					      .font_size = 10,
					      .bold = 1,
					      .anchor = "middle",
					      .halo = "#fbfbf8",
					      .halo_width = 3 });
	ord_canvas_style(cv, "lost-value-in",
			 &(struct ord_style){ .fill = "#ffffff",
					      .font_size = 10,
					      .bold = 1,
					      .anchor = "middle",
					      .halo = "#a9604f",
					      .halo_width = 2.5 });
	ord_canvas_style(cv, "band-mark",
			 &(struct ord_style){
				 .fill = "#1a1a1a", .font_size = 10, .bold = 1, .anchor = "middle" });
	ord_canvas_style(cv, "band-unknown",
			 &(struct ord_style){
				 .fill = "#ffffff", .stroke = "#cccccc", .stroke_width = 0.6 });
	ord_canvas_style(cv, "legend-text", &(struct ord_style){ .fill = "#1a1a1a", .font_size = 12 });
	ord_canvas_style(cv, "legend-head",
			 &(struct ord_style){ .fill = "#1a1a1a", .font_size = 12, .bold = 1 });
}

/* A class for a colour given as data ("#3060a0"): one rule per colour,
 * and per dashed or solid line. */
static void colour_class(struct ord_canvas *cv, char *out, size_t n, const char *prefix,
			 const char *colour, int line, int dashed)
{
	const char *c = colour && *colour == '#' ? colour + 1 : "777777";

	/* a dashed line's style is named apart from the solid one of its
	 * colour: a chart may draw both (an enemy's estimated and exact units) */
	snprintf(out, n, "%s-%s%s", prefix, c, line && dashed ? "-dashed" : "");
	if (line)
		ord_canvas_style(cv, out,
				 &(struct ord_style){ .fill = "none",
						      .stroke = colour ? colour : "#777777",
						      .stroke_width = 2.5,
						      .dash = dashed ? "6 4" : NULL,
						      .linejoin = "round",
						      .linecap = "round" });
	else
		ord_canvas_style(cv, out,
				 &(struct ord_style){ .fill = colour ? colour : "#777777",
						      .stroke = "#1a1a1a",
						      .stroke_width = 0.6 });
}

static double unit_max(const struct ord_chart *c, const struct ord_chart_unit *u)
{
	double m = 1;
	size_t s;

	for (s = 0; s < c->nsteps; s++) {
		if (u->strength && u->strength[s] > m)
			m = u->strength[s];
		if (u->lost && u->lost[s] > m)
			m = u->lost[s];
	}
	return m;
}

static void fmt_value(char *out, size_t n, double v)
{
	if (fabs(v - round(v)) < 0.005)
		snprintf(out, n, "%.0f", v);
	else
		snprintf(out, n, "%.1f", v);
}

/* Cut text (UTF-8) to width at font size 11, ending it with "…". */
static void cut_to_width(char *text, size_t n, double width)
{
	size_t len = strlen(text);

	while (len > 3 && ord_canvas_text_width(text, 11) > width) {
		len--;
		while (len > 0 && ((unsigned char)text[len] & 0xC0) == 0x80)
			len--;
		snprintf(text + len, n - len, "…");
	}
}

/* Does the segment (x1, y1)-(x2, y2) cross the box b (x, y, w, h)?  (Liang-Barsky) */
static int seg_hits_box(double x1, double y1, double x2, double y2, const double *b)
{
	double p[4] = { -(x2 - x1), x2 - x1, -(y2 - y1), y2 - y1 };
	double q[4] = { x1 - b[0], b[0] + b[2] - x1, y1 - b[1], b[1] + b[3] - y1 };
	double t0 = 0, t1 = 1;
	int i;

	for (i = 0; i < 4; i++) {
		double t;
		if (p[i] == 0) {
			if (q[i] < 0)
				return 0;
			continue;
		}
		t = q[i] / p[i];
		if (p[i] < 0 && t > t0)
			t0 = t;
		else if (p[i] > 0 && t < t1)
			t1 = t;
		if (t0 > t1)
			return 0;
	}
	return 1;
}

static int boxes_meet(const double *a, const double *b)
{
	return a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3];
}

/* What a panel's numbers keep off: its strength line (segments and dots),
 * its loss bars and the numbers already placed. */
struct keep_off {
	const double *pts;  /* the line's points, 2 numbers a step, STEP_W apart */
	const int *known;   /* per step: its point is drawn */
	const double *lost; /* per step: the height of its loss bar, 0 without */
	double bottom;      /* the bars' foot */
	size_t n;           /* steps */
	double (*boxes)[4]; /* the numbers placed: x, y, w, h; room for 2 a step */
	size_t nboxes;
};

/* The box of a number at font size fs whose baseline's middle is (x, y). */
static void number_box(double *b, const char *v, double fs, double x, double y)
{
	double w = ord_canvas_text_width(v, fs) * 1.1 + 2;

	b[0] = x - w / 2;
	b[1] = y - fs * 0.78 - 1;
	b[2] = w;
	b[3] = fs * 0.78 + 2;
}

/* What a number in box b would cover: 0 nothing; a point, a number
 * placed or a loss bar (but the bar of step own, a loss's number's own),
 * which it would hide, 100 each; the line, which its halo is drawn over,
 * 1 a segment, when lines is set. */
static int box_cost(const struct keep_off *k, const double *b, int lines, size_t own)
{
	double first = k->n ? floor((b[0] - k->pts[0]) / STEP_W) - 1 : 0;
	size_t s = first > 0 ? (size_t)first : 0, end = s + (size_t)(b[2] / STEP_W) + 3;
	int cost = 0;

	/* the points, bars and segments the box may reach: those of its steps */
	for (; s < k->n && s < end; s++) {
		double dot[4] = { k->pts[2 * s] - 2.6, k->pts[2 * s + 1] - 2.6, 5.2, 5.2 };
		double bar[4] = { k->pts[2 * s] - BAR_W / 2, k->bottom - k->lost[s], BAR_W,
				  k->lost[s] };
		if (s != own && k->lost[s] > 0 && boxes_meet(bar, b))
			cost += 100;
		if (!k->known[s])
			continue;
		if (boxes_meet(dot, b))
			cost += 100;
		if (lines && s + 1 < k->n && k->known[s + 1] &&
		    seg_hits_box(k->pts[2 * s], k->pts[2 * s + 1], k->pts[2 * s + 2],
				 k->pts[2 * s + 3], b))
			cost += 1;
	}
	for (s = 0; s < k->nboxes; s++)
		if (boxes_meet(k->boxes[s], b))
			cost += 100;
	return cost;
}

static void keep_box(struct keep_off *k, const double *b)
{
	if (k->nboxes < 2 * k->n) {
		memcpy(k->boxes[k->nboxes], b, sizeof(k->boxes[0]));
		k->nboxes++;
	}
}

/* Where a number goes: the first place that covers nothing, in the order
 * of the candidates tried, else the one that covers least. */
struct spot {
	const char *v; /* the number */
	double fs;     /* its font size */
	size_t own;    /* the step of its bar, which it may stand on; n for none */
	double x, y;   /* its baseline's middle */
	int in;        /* in its bar (white on the bar's colour) */
	int cost;      /* box_cost there; -1 before the first tried */
};

static void try_spot(const struct keep_off *k, struct spot *best, double x, double y, int in,
		     int lines, double xmin, double xmax)
{
	double box[4];
	int cost;

	if (!best->cost)
		return;
	number_box(box, best->v, best->fs, x, y);
	if (box[0] < xmin || box[0] + box[2] > xmax)
		return;
	cost = box_cost(k, box, lines, best->own);
	if (best->cost < 0 || cost < best->cost)
		best->x = x, best->y = y, best->in = in, best->cost = cost;
}

/* Where the value of the point (x, y) goes, its box within xmin to xmax
 * and its baseline no higher than top: just over its point, the line drawn
 * under its halo as always; where that is on a loss bar (a unit fallen to
 * almost nothing has its point at the foot of the bar it lost: its value
 * stood on the bar), a point or a number, beside its point and off its
 * bar, right (the line that fell to it comes from the left) or left, a
 * little higher if need be; else higher over its point, over the bar (far
 * from its point, so the last choice).  Beside or higher, it keeps off the
 * line too where it can. */
static void value_spot(const struct keep_off *k, struct spot *best, double x, double y, double xmin,
		       double xmax, double top)
{
	double box[4], dx, dy;
	int side;

	number_box(box, best->v, best->fs, x, y);
	dx = BAR_W / 2 + box[2] / 2 + 0.5;
	try_spot(k, best, x, y - 6, 0, 0, xmin - STEP_W, xmax + STEP_W);
	for (dy = 0; dy <= 8; dy += 1)
		for (side = 0; side < 2; side++)
			try_spot(k, best, side ? x - dx : x + dx, y - 6 - dy, 0, 1, xmin, xmax);
	for (dy = 7; y - dy >= top; dy += 1)
		try_spot(k, best, x, y - dy, 0, 1, xmin - STEP_W, xmax + STEP_W);
	if (best->cost < 0)
		best->x = x, best->y = y - 6;
}

static void panel(struct ord_canvas *cv, const struct ord_chart *c, const struct ord_chart_unit *u,
		  double x0, double y0)
{
	double px = x0 + LABEL_W, pw = STEP_W * (double)c->nsteps, max = unit_max(c, u);
	double scale = (PLOT_H - 14) / max, *pts = ord_xcalloc(2 * c->nsteps + 2, sizeof(double));
	double *line = ord_xcalloc(2 * c->nsteps + 2, sizeof(double));
	int *known = ord_xcalloc(c->nsteps + 1, sizeof(int));
	double *bar = ord_xcalloc(c->nsteps + 1, sizeof(double));
	char cls[64], dot[64], id[160], v[32];
	size_t s, np = 0;
	double prev = -1;
	struct keep_off k;

	/* the frame and the turns */
	ord_canvas_layer(cv, "axes");
	ord_canvas_rect(cv, px, y0, pw, PLOT_H, 0, "frame");
	for (s = 1; s < c->nsteps; s++)
		if (c->step_turn[s] != c->step_turn[s - 1])
			ord_canvas_line(cv, px + STEP_W * (double)s, y0 - 4, px + STEP_W * (double)s,
					y0 + PLOT_H + BAND_H + 4, "turn-sep");

	/* the label */
	ord_canvas_layer(cv, "labels");
	ord_canvas_text(cv, x0, y0 + 16, u->id, "unit-label");
	{
		/* the name on as many lines as the panel has room for (three,
		 * two under the enemy's note), cut (…) only on the last: one
		 * line cut to "1/28th (North Gloucestershi…" hid the regiment */
		char name[256], *p;
		int row, rows = u->approximate ? 2 : 3, printed = 0;
		snprintf(name, sizeof(name), "%s", u->label ? u->label : "");
		p = name;
		for (row = 0; row < rows && *p; row++) {
			char *end = NULL, *q;
			if (row + 1 < rows && ord_canvas_text_width(p, 11) > LABEL_W - 12)
				for (q = p + 1; *q; q++) {
					if (*q != ' ')
						continue;
					*q = '\0';
					if (ord_canvas_text_width(p, 11) <= LABEL_W - 12)
						end = q;
					*q = ' ';
				}
			if (end)
				*end = '\0';
			else
				cut_to_width(p, sizeof(name) - (size_t)(p - name), LABEL_W - 12);
			ord_canvas_text(cv, x0, y0 + 31 + 14 * printed++, p, "unit-sub");
			if (!end)
				break;
			p = end + 1;
		}
		if (u->approximate)
			ord_canvas_text(cv, x0, y0 + 31 + 14 * printed,
					c->estimate_note ? c->estimate_note : "≈ estimated (enemy)",
					"unit-sub");
	}

	/* the line's points and the bars' heights first: the numbers keep
	 * off the line and the bars */
	for (s = 0; s < c->nsteps; s++) {
		known[s] = u->strength && u->strength[s] >= 0;
		pts[2 * s] = px + STEP_W * ((double)s + 0.5);
		pts[2 * s + 1] = known[s] ? y0 + PLOT_H - u->strength[s] * scale : 0;
		bar[s] = u->lost && u->lost[s] > 0 ? u->lost[s] * scale : 0;
	}
	memset(&k, 0, sizeof(k));
	k.pts = pts;
	k.known = known;
	k.lost = bar;
	k.bottom = y0 + PLOT_H;
	k.n = c->nsteps;
	k.boxes = ord_xcalloc(2 * c->nsteps + 1, sizeof(k.boxes[0]));

	/* strength: the line over the steps where it is known */
	ord_canvas_layer(cv, "units");
	snprintf(id, sizeof(id), "unit-%s", u->id);
	ord_canvas_begin(cv, id, "unit", 0, 0, 0);
	ord_canvas_data(cv, "side", u->side ? u->side : "");
	colour_class(cv, cls, sizeof(cls), "line", u->colour, 1, u->approximate);
	colour_class(cv, dot, sizeof(dot), "dot", u->colour, 0, 0);
	for (s = 0; s <= c->nsteps; s++) {
		if (s < c->nsteps && known[s]) {
			line[2 * np] = pts[2 * s];
			line[2 * np + 1] = pts[2 * s + 1];
			np++;
			continue;
		}
		if (np > 1)
			ord_canvas_polyline(cv, line, np, cls);
		np = 0;
	}
	for (s = 0; s < c->nsteps; s++) {
		double x = pts[2 * s], y = pts[2 * s + 1], box[4];
		struct spot best = { v, 10.5, c->nsteps, x, y - 6, 0, -1 };
		int last;
		if (!known[s]) {
			prev = -1;
			continue;
		}
		ord_canvas_circle(cv, x, y, 2.6, dot);
		/* its value where it changed, and at its first and last step,
		 * just over its point, or beside it off the bar it lost
		 * (pushed over the bar, it stood far from its point; left at
		 * its point, on the bar) */
		last = s + 1 == c->nsteps || !known[s + 1];
		if (prev < 0 || fabs(prev - u->strength[s]) > 0.005 || last) {
			fmt_value(v, sizeof(v), u->strength[s]);
			value_spot(&k, &best, x, y, px, px + pw, y0 + 9);
			number_box(box, v, 10.5, best.x, best.y);
			keep_box(&k, box);
			ord_canvas_text(cv, best.x, best.y, v, "value");
		}
		prev = u->strength[s];
	}
	ord_canvas_end(cv);

	/* losses: bars from the bottom of the plot, each with its number in
	 * the bar or on it, off the strength line and its numbers (the line
	 * ran through "12" when a unit fell to 1); the numbers are drawn over
	 * the line, on a halo, where nothing else is free */
	ord_canvas_layer(cv, "results");
	snprintf(id, sizeof(id), "lost-%s", u->id);
	ord_canvas_begin(cv, id, "losses", 0, 0, 0);
	for (s = 0; u->lost && s < c->nsteps; s++) {
		if (u->lost[s] <= 0)
			continue;
		ord_canvas_rect(cv, pts[2 * s] - BAR_W / 2, y0 + PLOT_H - bar[s], BAR_W, bar[s], 0,
				"lost");
	}
	ord_canvas_end(cv);
	ord_canvas_layer(cv, "labels");
	snprintf(id, sizeof(id), "lost-values-%s", u->id);
	ord_canvas_begin(cv, id, "lost-values", 0, 0, 0);
	for (s = 0; u->lost && s < c->nsteps; s++) {
		double cx = px + STEP_W * ((double)s + 0.5), bottom = y0 + PLOT_H, box[4], ny, h, top;
		struct spot best = { v, 10, s, cx, 0, 0, -1 };
		int side;
		if (u->lost[s] <= 0)
			continue;
		h = bar[s];
		top = bottom - h;
		fmt_value(v, sizeof(v), u->lost[s]);
		/* in the bar, when it is tall and wide enough, from its top
		 * down: a unit fallen to almost nothing has its point at the
		 * bar's foot (the number stood on it there); a number wider
		 * than the bar ("147") stands over it, its white not spilt on
		 * the plot */
		number_box(box, v, 10, cx, top);
		for (ny = top + 11; h >= 13 && box[2] <= BAR_W && ny <= bottom - 3; ny += 1)
			try_spot(&k, &best, cx, ny, 1, 1, px, px + pw);
		/* just over it */
		for (ny = top - 3; ny >= top - 20 && ny >= y0 + 9; ny -= 1)
			try_spot(&k, &best, cx, ny, 0, 1, px, px + pw);
		/* beside it, on either side, nearest its top first */
		for (ny = 0; ny <= PLOT_H; ny += 1)
			for (side = 0; side < 4; side++) {
				double y = top - 3 + (side & 1 ? ny : -ny);
				if (y < y0 + 9 || y > bottom - 1)
					continue;
				try_spot(&k, &best, cx + (side < 2 ? 11 : -11), y, 0, 1, px, px + pw);
			}
		/* higher over it, up to the plot's top */
		for (ny = top - 21; ny >= y0 + 9; ny -= 1)
			try_spot(&k, &best, cx, ny, 0, 1, px, px + pw);
		if (best.cost < 0) /* no room at all: over its bar */
			best.y = top - 3;
		number_box(box, v, 10, best.x, best.y);
		keep_box(&k, box);
		ord_canvas_text(cv, best.x, best.y, v, best.in ? "lost-value-in" : "lost-value");
	}
	ord_canvas_end(cv);

	/* morale: a band of cells with the band's mark */
	ord_canvas_layer(cv, "morale");
	snprintf(id, sizeof(id), "morale-%s", u->id);
	ord_canvas_begin(cv, id, "morale", 0, 0, 0);
	for (s = 0; s < c->nsteps; s++) {
		double bx = px + STEP_W * (double)s, by = y0 + PLOT_H + 2;
		int b = u->band ? u->band[s] : -1;
		if (b < 0 || (size_t)b >= c->nbands) {
			ord_canvas_rect(cv, bx, by, STEP_W, BAND_H, 0, "band-unknown");
			continue;
		}
		snprintf(cls, sizeof(cls), "band-%d", b);
		ord_canvas_rect(cv, bx, by, STEP_W, BAND_H, 0, cls);
		if (c->bands[b].mark)
			ord_canvas_text(cv, bx + STEP_W / 2, by + BAND_H - 4, c->bands[b].mark,
					"band-mark");
	}
	ord_canvas_end(cv);
	free(pts);
	free(line);
	free(known);
	free(bar);
	free(k.boxes);
}

/* The turn numbers and the step labels above a column of panels. */
static void axis(struct ord_canvas *cv, const struct ord_chart *c, double x0, double y0)
{
	double px = x0 + LABEL_W;
	size_t s, first = 0;
	char t[32];

	ord_canvas_layer(cv, "axes");
	for (s = 0; s <= c->nsteps; s++) {
		if (s < c->nsteps && c->step_turn[s] == c->step_turn[first])
			continue;
		if (c->step_turn[first] > 0)
			snprintf(t, sizeof(t), "%s %d", c->turn_word ? c->turn_word : "turn",
				 c->step_turn[first]);
		else
			snprintf(t, sizeof(t), "start");
		ord_canvas_text(cv, px + STEP_W * ((double)first + (double)s) / 2, y0 + 12, t,
				"turn-label");
		first = s;
	}
	for (s = 0; s < c->nsteps; s++)
		ord_canvas_text(cv, px + STEP_W * ((double)s + 0.5), y0 + 28, c->step_labels[s],
				"axis-label");
}

static double legend(struct ord_canvas *cv, const struct ord_chart *c, double x, double y, double width)
{
	const char *estimated = c->estimate_label ? c->estimate_label : "estimated (an enemy seen)";
	double cx = x, row = 22;
	size_t b;
	char cls[32];

	ord_canvas_layer(cv, "legend");
	ord_canvas_begin(cv, "legend-box", "legend", 0, 0, 0);
	ord_canvas_text(cv, x, y + 14, c->band_label ? c->band_label : "morale", "legend-head");
	cx = x + ord_canvas_text_width(c->band_label ? c->band_label : "morale", 12) + 14;
	for (b = 0; b < c->nbands; b++) {
		double w = 30 + ord_canvas_text_width(c->bands[b].name, 12) + 18;
		if (cx + w > x + width) {
			cx = x;
			y += row;
		}
		snprintf(cls, sizeof(cls), "band-%zu", b);
		ord_canvas_rect(cv, cx, y + 2, 24, 15, 0, cls);
		if (c->bands[b].mark)
			ord_canvas_text(cv, cx + 12, y + 13, c->bands[b].mark, "band-mark");
		ord_canvas_text(cv, cx + 30, y + 14, c->bands[b].name, "legend-text");
		cx += w;
	}
	y += row + 6;
	cx = x;
	ord_canvas_line(cv, cx, y + 9, cx + 28, y + 9, "legend-line");
	ord_canvas_text(cv, cx + 34, y + 14, c->strength_label ? c->strength_label : "strength",
			"legend-text");
	cx += 60 + ord_canvas_text_width(c->strength_label ? c->strength_label : "strength", 12);
	ord_canvas_line(cv, cx, y + 9, cx + 28, y + 9, "legend-dashed");
	ord_canvas_text(cv, cx + 34, y + 14, estimated, "legend-text");
	cx += 60 + ord_canvas_text_width(estimated, 12);
	ord_canvas_rect(cv, cx + 8, y + 1, 12, 16, 0, "lost");
	ord_canvas_text(cv, cx + 28, y + 14, c->lost_label ? c->lost_label : "lost", "legend-text");
	if (c->step_key) {
		y += row;
		ord_canvas_text(cv, x, y + 14, c->step_key, "legend-text");
	}
	ord_canvas_end(cv);
	return y + row;
}

int ord_canvas_chart(struct ord_canvas *cv, const struct ord_chart *c)
{
	size_t i, ncols, per_col, b, brk = 0;
	double col_w, panel_h = PLOT_H + BAND_H + PANEL_GAP, w, h, y;
	char cls[32];

	if (!c->nsteps)
		return ord_error_set(ORD_ESTATE, "chart: nothing has happened yet to draw");
	ncols = c->nunits > 8 ? 2 : 1;
	per_col = (c->nunits + ncols - 1) / ncols;
	/* two columns: break where the side changes, when that is near half */
	for (i = 1; ncols == 2 && i < c->nunits; i++)
		if (c->units[i].side && c->units[i - 1].side &&
		    strcmp(c->units[i].side, c->units[i - 1].side)) {
			size_t longer = i > c->nunits - i ? i : c->nunits - i;
			if (longer <= per_col + 3)
				per_col = longer, brk = i;
			break;
		}
	if (!per_col)
		per_col = 1;
	if (!brk)
		brk = per_col;
	col_w = LABEL_W + STEP_W * (double)c->nsteps;
	w = 2 * MARGIN + (double)ncols * col_w + (double)(ncols - 1) * COL_GAP;
	if (w < 760)
		w = 760;
	h = MARGIN + TITLE_H + AXIS_H + (double)per_col * panel_h + 90;
	ord_canvas_resize(cv, w, h);
	ord_canvas_title(cv, c->title, c->subtitle);
	styles(cv);
	ord_canvas_style(cv, "legend-line",
			 &(struct ord_style){ .stroke = "#1a1a1a", .stroke_width = 2.5 });
	ord_canvas_style(cv, "legend-dashed",
			 &(struct ord_style){ .stroke = "#1a1a1a", .stroke_width = 2.5, .dash = "6 4" });
	for (b = 0; b < c->nbands; b++) {
		snprintf(cls, sizeof(cls), "band-%zu", b);
		ord_canvas_style(cv, cls,
				 &(struct ord_style){ .fill = c->bands[b].colour,
						      .stroke = "#ffffff",
						      .stroke_width = 0.6 });
	}
	/* layers in the order they are painted */
	ord_canvas_layer(cv, "title");
	ord_canvas_layer(cv, "axes");
	ord_canvas_layer(cv, "morale");
	ord_canvas_layer(cv, "results");
	ord_canvas_layer(cv, "units");
	ord_canvas_layer(cv, "labels");
	ord_canvas_layer(cv, "legend");

	ord_canvas_layer(cv, "title");
	ord_canvas_text_fit(cv, MARGIN, MARGIN + 20, c->title, "title", 20, w - 2 * MARGIN);
	if (c->subtitle)
		ord_canvas_text_fit(cv, MARGIN, MARGIN + 42, c->subtitle, "subtitle", 13,
				    w - 2 * MARGIN);
	for (i = 0; i < ncols; i++)
		axis(cv, c, MARGIN + (double)i * (col_w + COL_GAP), MARGIN + TITLE_H);
	for (i = 0; i < c->nunits; i++) {
		size_t col = i < brk ? 0 : 1, row = i < brk ? i : i - brk;
		panel(cv, c, &c->units[i], MARGIN + (double)col * (col_w + COL_GAP),
		      MARGIN + TITLE_H + AXIS_H + 8 + (double)row * panel_h);
	}
	y = MARGIN + TITLE_H + AXIS_H + (double)per_col * panel_h;
	y = legend(cv, c, MARGIN, y, w - 2 * MARGIN);
	ord_canvas_resize(cv, w, y + MARGIN);
	return 0;
}
