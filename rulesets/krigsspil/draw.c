/*
 * draw.c - the pictures of a Krigsspil game (the ruleset's draw slot):
 * the map of the table after a phase, and the story chart.
 *
 * The map: the hex plates coloured by terrain with a sign of each terrain
 * drawn in it (so that a grey print still tells wood from village), height
 * as contour rings, the linear features, the plates' numbers as the ordre
 * notation writes them (0305), a scale bar; each unit as a block in its
 * side's colour shaped by its formation, with a label (the arm's sign, id,
 * strength, morale); the ordered moves, the moves made, fire and melee
 * with their results; a legend and a title.  The core has already applied
 * the fog of war: every unit and event in ctx may be drawn.
 *
 * Decisions (presentation, not rules):
 *  - Blocks are drawn at a fixed size (the rules give no frontage), so a
 *    block that would cover another is moved aside with a leader line to
 *    its true position (a dot); the unit's group is always placed at the
 *    true position (its transform), the block inside it.
 *  - An order with a direction only ("M ↑") is drawn towards the enemy:
 *    from the middle of the side's units as the scenario sets them up
 *    towards the middle of the other sides' (ord_picture.setup: the same
 *    on every viewer's map), as far as Skema V's march takes the unit in
 *    the time ordered.
 *  - A unit's move made and its ordered march start where the turn found
 *    it (the story's first step), which the core gives of the viewer's
 *    own units only: an enemy unit, seen from the phase it was met in,
 *    has neither (where it stood, and its way, are not the viewer's).
 *  - Sides get colours by their order in the scenario: a light red and a
 *    dark blue, far apart in grey too.
 *  - No text lies on another: the plates' numbers, names and heights are
 *    taken first, then the blocks, the labels (one pushed away from its
 *    block gets a thin line to it), the arrows' heads, and last the
 *    results' labels, in a layer over every line.  A fire runs 3 units to
 *    the right of the line between the units, so that two units firing at
 *    each other have two lines.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canvas.h"
#include "rulesets/krigsspil/ks.h"
#include "rulesets/krigsspil/map.h"

static const double SQRT3 = 1.7320508075688772;

#define MARGIN 20.0
#define TITLE_H 64.0
#define LEGEND_W 290.0
#define LABEL_FONT 11.5

/* ---- words ---- */

static const char *tr(const struct ord_picture *w, const char *da, const char *en)
{
	return w->lang && !strcmp(w->lang, "da") ? da : en;
}

static const struct {
	const char *key, *da, *en, *fill;
} terrains[] = {
	{ "aabent", "åbent terræn", "open ground", "#f2f0dc" },
	{ "vanskeligt", "vanskeligt terræn", "rough ground", "#dccb98" },
	{ "skov", "skov", "wood", "#93bb7c" },
	{ "plantage", "plantage", "orchard", "#c3dc9f" },
	{ "bebyggelse", "bebyggelse", "built-up", "#d2ad94" },
	{ "sump", "sump", "marsh", "#b5d0c4" },
	{ "vand", "vand", "water", "#8ebde0" },
};

/* A word of the pictures in both languages, by its key. */
struct ks_word {
	const char *key, *da, *en;
};

static const struct ks_word features[] = {
	{ "vej", "vej", "road" },
	{ "sti", "sti", "path" },
	{ "vandloeb", "vandløb", "stream" },
	{ "bro", "bro", "bridge" },
	{ "vadested", "vadested", "ford" },
	{ "mur", "mur", "wall" },
	{ "feltbefaestning", "feltbefæstning", "field works" },
};

static const struct ks_word formations[] = {
	{ "linie", "linie", "line" },
	{ "angrebskolonne", "angrebskolonne", "attack column" },
	{ "marchkolonne", "marchkolonne", "march column" },
	{ "karre", "karré", "square" },
	{ "bataillonsmasse", "bataillonsmasse", "battalion mass" },
	{ "skyttekaede_taet", "skyttekæde, sværm", "skirmish chain, swarm" },
};

static const struct ks_word phase_words[] = {
	{ "reorganisering", "reorganisering", "reorganisation" },
	{ "angrebserklaering", "angrebserklæring", "attack declarations" },
	{ "fredelige-flytninger", "fredelige flytninger", "peaceful moves" },
	{ "skydninger", "skydninger", "fire" },
	{ "angrebshandlinger", "angrebshandlinger", "attacks" },
	{ "open", "åben", "open" },
	{ "sealed", "forseglet", "sealed" },
	{ "resolved", "afgjort", "resolved" },
	{ "exchanged", "udvekslet", "exchanged" },
};

/* A phase's or a turn state's name in the picture's language. */
static const char *word(const struct ord_picture *w, const char *key)
{
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(phase_words); i++)
		if (!strcmp(phase_words[i].key, key))
			return tr(w, phase_words[i].da, phase_words[i].en);
	return key;
}

static const char *const side_fill[] = { "#de5a50", "#23407a", "#4f8a3c", "#8a5aa0" };
static const char *const morale_fill[] = { "#ffffff", "#f2c230", "#e07b20", "#b3141c" };

static int terrain_index(const char *t)
{
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(terrains); i++)
		if (!strcmp(terrains[i].key, t))
			return (int)i;
	return 0;
}

static int side_index(const struct ord_picture *w, const char *side)
{
	size_t i;

	for (i = 0; i < w->nsides; i++)
		if (!strcmp(w->sides[i], side))
			return (int)(i % ORD_ARRAY_SIZE(side_fill));
	return 0;
}

/* "0305" as the notation writes a plate, "-1,3" when it cannot. */
static void plate_label(char *out, size_t n, int q, int r)
{
	if (q >= 0 && q <= 99 && r >= 0 && r <= 99)
		snprintf(out, n, "%02d%02d", q, r);
	else
		snprintf(out, n, "%d,%d", q, r);
}

/* An id from a label: letters, digits, '-', '_' ("plate-m1_3"). */
static void make_id(char *out, size_t n, const char *prefix, const char *s)
{
	size_t k = (size_t)snprintf(out, n, "%s", prefix);

	for (; *s && k + 3 < n; s++) {
		unsigned char c = (unsigned char)*s;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '_')
			out[k++] = (char)c;
		else if (c == '-')
			out[k++] = 'm';
		else if (c == ',' || c == ' ' || c == '.')
			out[k++] = '_';
		else
			k += (size_t)snprintf(out + k, n - k, "x%02x", c);
	}
	out[k < n ? k : n - 1] = '\0';
}

/* ---- the map's frame: cm on the table to user units ---- */

struct frame {
	double s;      /* user units a cm */
	double x0, y0; /* the table's (0, 0) in user units */
	double w, h;   /* the map's size in user units */
	double r;      /* a plate's circumradius in cm */
};

static double fx(const struct frame *f, double x)
{
	return f->x0 + x * f->s;
}

static double fy(const struct frame *f, double y)
{
	return f->y0 + y * f->s;
}

static void styles(struct ord_canvas *cv)
{
	size_t i;
	char cls[64];

	ord_canvas_style(cv, "title",
			 &(struct ord_style){ .fill = "#1a1a1a", .font_size = 20, .bold = 1 });
	ord_canvas_style(cv, "subtitle", &(struct ord_style){ .fill = "#333333", .font_size = 13 });
	for (i = 0; i < ORD_ARRAY_SIZE(terrains); i++) {
		snprintf(cls, sizeof(cls), "t-%s", terrains[i].key);
		ord_canvas_style(cv, cls,
				 &(struct ord_style){ .fill = terrains[i].fill,
						      .stroke = "#8a8a7a",
						      .stroke_width = 1 });
	}
	ord_canvas_style(cv, "tree",
			 &(struct ord_style){
				 .fill = "#5f8f4a", .stroke = "#3d6630", .stroke_width = 0.8 });
	ord_canvas_style(cv, "orchard", &(struct ord_style){ .fill = "#6f9a50" });
	ord_canvas_style(cv, "house",
			 &(struct ord_style){
				 .fill = "#8a5a44", .stroke = "#4a3020", .stroke_width = 0.6 });
	ord_canvas_style(cv, "marsh",
			 &(struct ord_style){
				 .stroke = "#3f6f60", .stroke_width = 1.2, .linecap = "round" });
	ord_canvas_style(cv, "wave",
			 &(struct ord_style){ .fill = "none",
					      .stroke = "#2f6f9f",
					      .stroke_width = 1.2,
					      .linecap = "round" });
	ord_canvas_style(cv, "rough",
			 &(struct ord_style){ .fill = "none",
					      .stroke = "#7a6a40",
					      .stroke_width = 1.1,
					      .linecap = "round",
					      .linejoin = "round" });
	ord_canvas_style(cv, "contour",
			 &(struct ord_style){ .fill = "none",
					      .stroke = "#8a5a2a",
					      .stroke_width = 1.1,
					      .opacity = 0.8 });
	ord_canvas_style(cv, "contour-low",
			 &(struct ord_style){ .fill = "none",
					      .stroke = "#4a7a9a",
					      .stroke_width = 1.1,
					      .dash = "4 3" });
	ord_canvas_style(cv, "height",
			 &(struct ord_style){
				 .fill = "#6a4a20", .font_size = 10, .anchor = "middle", .italic = 1 });
	ord_canvas_style(cv, "f-vandloeb",
			 &(struct ord_style){ .fill = "none",
					      .stroke = "#2f78b8",
					      .linecap = "round",
					      .linejoin = "round" });
	ord_canvas_style(cv, "f-vej-casing",
			 &(struct ord_style){ .fill = "none",
					      .stroke = "#5a4a30",
					      .stroke_width = 6,
					      .linecap = "round",
					      .linejoin = "round" });
	ord_canvas_style(cv, "f-vej",
			 &(struct ord_style){ .fill = "none",
					      .stroke = "#f6e6b4",
					      .stroke_width = 3.5,
					      .linecap = "round",
					      .linejoin = "round" });
	ord_canvas_style(cv, "f-sti",
			 &(struct ord_style){ .fill = "none",
					      .stroke = "#6a5030",
					      .stroke_width = 1.6,
					      .dash = "5 3",
					      .linejoin = "round" });
	ord_canvas_style(cv, "f-mur",
			 &(struct ord_style){ .fill = "none",
					      .stroke = "#3a3a3a",
					      .stroke_width = 3.5,
					      .linejoin = "miter" });
	ord_canvas_style(cv, "f-mur-hoej",
			 &(struct ord_style){ .fill = "none",
					      .stroke = "#1a1a1a",
					      .stroke_width = 5.5,
					      .linejoin = "miter" });
	ord_canvas_style(cv, "f-feltbefaestning",
			 &(struct ord_style){ .fill = "none",
					      .stroke = "#7a3b1e",
					      .stroke_width = 2,
					      .linejoin = "miter" });
	ord_canvas_style(cv, "f-vadested",
			 &(struct ord_style){
				 .fill = "none", .stroke = "#e3cf8e", .stroke_width = 9, .dash = "3 2" });
	ord_canvas_style(cv, "f-bro",
			 &(struct ord_style){ .fill = "none",
					      .stroke = "#1a1a1a",
					      .stroke_width = 10,
					      .linecap = "butt" });
	ord_canvas_style(cv, "plate-label",
			 &(struct ord_style){ .fill = "#4a4a4a",
					      .font_size = 10,
					      .anchor = "middle",
					      .halo = "#ffffff",
					      .halo_width = 2.5 });
	ord_canvas_style(cv, "plate-name",
			 &(struct ord_style){ .fill = "#2a2a2a",
					      .font_size = 11,
					      .italic = 1,
					      .anchor = "middle",
					      .halo = "#ffffff",
					      .halo_width = 3 });
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
		snprintf(cls, sizeof(cls), "order-%zu", i);
		ord_canvas_style(cv, cls,
				 &(struct ord_style){ .fill = "none",
						      .stroke = side_fill[i],
						      .stroke_width = 2.5,
						      .dash = "7 4",
						      .linecap = "round" });
		snprintf(cls, sizeof(cls), "order-head-%zu", i);
		ord_canvas_style(cv, cls,
				 &(struct ord_style){ .fill = side_fill[i],
						      .stroke = "#111111",
						      .stroke_width = 0.6 });
		snprintf(cls, sizeof(cls), "attack-%zu", i);
		ord_canvas_style(cv, cls,
				 &(struct ord_style){ .fill = "none",
						      .stroke = side_fill[i],
						      .stroke_width = 4,
						      .linecap = "round" });
	}
	ord_canvas_style(cv, "hollow-outline",
			 &(struct ord_style){ .fill = "none", .stroke = "#111111", .stroke_width = 0.8 });
	ord_canvas_style(cv, "unit-gone",
			 &(struct ord_style){ .fill = "#ffffff",
					      .stroke = "#777777",
					      .stroke_width = 1.2,
					      .dash = "3 2" });
	ord_canvas_style(cv, "arm",
			 &(struct ord_style){ .fill = "none", .stroke = "#111111", .stroke_width = 1 });
	ord_canvas_style(cv, "arm-box",
			 &(struct ord_style){
				 .fill = "#ffffff", .stroke = "#111111", .stroke_width = 1 });
	ord_canvas_style(cv, "arm-dot", &(struct ord_style){ .fill = "#111111" });
	ord_canvas_style(cv, "pin", &(struct ord_style){ .fill = "#111111" });
	ord_canvas_style(cv, "leader",
			 &(struct ord_style){ .stroke = "#333333", .stroke_width = 0.8, .dash = "2 2" });
	ord_canvas_style(cv, "label-leader",
			 &(struct ord_style){ .stroke = "#444444", .stroke_width = 0.9 });
	ord_canvas_style(cv, "label-box",
			 &(struct ord_style){ .fill = "#ffffff",
					      .stroke = "#555555",
					      .stroke_width = 0.6,
					      .opacity = 0.92 });
	ord_canvas_style(cv, "label",
			 &(struct ord_style){ .fill = "#111111", .font_size = LABEL_FONT });
	ord_canvas_style(cv, "label-id",
			 &(struct ord_style){ .fill = "#111111", .font_size = LABEL_FONT, .bold = 1 });
	for (i = 0; i < 4; i++) {
		snprintf(cls, sizeof(cls), "morale-%zu", i);
		ord_canvas_style(cv, cls,
				 &(struct ord_style){ .fill = morale_fill[i],
						      .stroke = "#111111",
						      .stroke_width = 0.8 });
	}
	ord_canvas_style(cv, "morale-text",
			 &(struct ord_style){
				 .fill = "#111111", .font_size = 10, .bold = 1, .anchor = "middle" });
	ord_canvas_style(cv, "morale-text-dark",
			 &(struct ord_style){
				 .fill = "#ffffff", .font_size = 10, .bold = 1, .anchor = "middle" });
	ord_canvas_style(cv, "moved",
			 &(struct ord_style){ .fill = "none", .stroke = "#3a3a3a", .stroke_width = 1.6 });
	ord_canvas_style(cv, "moved-head", &(struct ord_style){ .fill = "#3a3a3a" });
	ord_canvas_style(cv, "fire",
			 &(struct ord_style){ .fill = "none",
					      .stroke = "#b3141c",
					      .stroke_width = 1.8,
					      .dash = "2 3",
					      .linecap = "round" });
	ord_canvas_style(cv, "fire-head", &(struct ord_style){ .fill = "#b3141c" });
	ord_canvas_style(cv, "melee",
			 &(struct ord_style){ .fill = "none",
					      .stroke = "#111111",
					      .stroke_width = 4,
					      .linecap = "round" });
	ord_canvas_style(cv, "melee-mark",
			 &(struct ord_style){
				 .fill = "#ffffff", .stroke = "#111111", .stroke_width = 1.5 });
	ord_canvas_style(cv, "result-box",
			 &(struct ord_style){
				 .fill = "#fff8e8", .stroke = "#b3141c", .stroke_width = 0.8 });
	ord_canvas_style(cv, "result", &(struct ord_style){ .fill = "#5a0a0e", .font_size = 10.5 });
	ord_canvas_style(cv, "legend-box",
			 &(struct ord_style){
				 .fill = "#fbfbf7", .stroke = "#999999", .stroke_width = 0.8 });
	ord_canvas_style(cv, "legend-head",
			 &(struct ord_style){ .fill = "#1a1a1a", .font_size = 13, .bold = 1 });
	ord_canvas_style(cv, "legend-text", &(struct ord_style){ .fill = "#1a1a1a", .font_size = 12 });
	ord_canvas_style(cv, "scale-bar", &(struct ord_style){ .fill = "#1a1a1a" });
	ord_canvas_style(cv, "scale-bar-white",
			 &(struct ord_style){
				 .fill = "#ffffff", .stroke = "#1a1a1a", .stroke_width = 1 });
	ord_canvas_style(cv, "scale-text",
			 &(struct ord_style){ .fill = "#1a1a1a", .font_size = 11, .anchor = "middle" });
}

/* ---- plates ---- */

/* The midpoint of a plate's side (or its centre), in cm. */
static void side_point(const struct ks_map *m, int q, int r, int side, double *x, double *y)
{
	ks_map_centre(m, q, r, x, y);
	if (side == KS_SIDE_CENTRE)
		return;
	*x += m->plate_cm / 2 * cos(side * M_PI / 3);
	*y += m->plate_cm / 2 * sin(side * M_PI / 3);
}

/* The sign of a terrain inside a plate centred on (cx, cy), radius rr. */
static void terrain_sign(struct ord_canvas *cv, const char *t, double cx, double cy, double rr)
{
	static const double spots[][2] = {
		{ -0.42, -0.2 }, { 0.05, -0.45 }, { 0.42, -0.12 }, { -0.2, 0.3 }, { 0.3, 0.35 }
	};
	double k = rr / 40;
	size_t i;

	if (!strcmp(t, "skov")) {
		for (i = 0; i < ORD_ARRAY_SIZE(spots); i++)
			ord_canvas_circle(cv, cx + spots[i][0] * rr, cy + spots[i][1] * rr, 7 * k,
					  "tree");
	} else if (!strcmp(t, "plantage")) {
		int a, b;
		for (a = -2; a <= 2; a++)
			for (b = -1; b <= 1; b++)
				ord_canvas_circle(cv, cx + a * 12 * k, cy + b * 12 * k + 4 * k,
						  2.6 * k, "orchard");
	} else if (!strcmp(t, "bebyggelse")) {
		ord_canvas_rect(cv, cx - 18 * k, cy - 14 * k, 12 * k, 9 * k, 0, "house");
		ord_canvas_rect(cv, cx + 2 * k, cy - 18 * k, 14 * k, 10 * k, 0, "house");
		ord_canvas_rect(cv, cx - 8 * k, cy + 2 * k, 10 * k, 12 * k, 0, "house");
		ord_canvas_rect(cv, cx + 10 * k, cy + 4 * k, 10 * k, 8 * k, 0, "house");
	} else if (!strcmp(t, "sump")) {
		for (i = 0; i < ORD_ARRAY_SIZE(spots); i++) {
			double x = cx + spots[i][0] * rr, y = cy + spots[i][1] * rr;
			ord_canvas_line(cv, x - 7 * k, y, x + 7 * k, y, "marsh");
			ord_canvas_line(cv, x - 4 * k, y - 4 * k, x + 4 * k, y - 4 * k, "marsh");
		}
	} else if (!strcmp(t, "vand")) {
		for (i = 0; i < 3; i++) {
			double y = cy + (double)((int)i - 1) * 10 * k, xy[10];
			int j;
			for (j = 0; j < 5; j++) {
				xy[2 * j] = cx + (j - 2) * 6 * k;
				xy[2 * j + 1] = y + (j % 2 ? -3 * k : 0);
			}
			ord_canvas_polyline(cv, xy, 5, "wave");
		}
	} else if (!strcmp(t, "vanskeligt")) {
		for (i = 0; i < ORD_ARRAY_SIZE(spots); i++) {
			double x = cx + spots[i][0] * rr, y = cy + spots[i][1] * rr;
			double xy[6] = { x - 5 * k, y + 2 * k, x, y - 4 * k, x + 5 * k, y + 2 * k };
			ord_canvas_polyline(cv, xy, 3, "rough");
		}
	}
}

static void contour(struct ord_canvas *cv, int height, double cx, double cy, double rr)
{
	int i, n = height > 0 ? height : -height;

	if (n > 4)
		n = 4;
	for (i = 1; i <= n; i++)
		ord_canvas_hex(cv, cx, cy, rr * (1 - 0.09 * i), height > 0 ? "contour" : "contour-low");
}

/* A feature's path: side -> centre -> side, in user units. */
static size_t feature_path(const struct frame *f, const struct ks_map *m, const struct ks_plate *p,
			   const struct ks_feature *ft, double shrink, double *xy)
{
	double cx, cy, x, y;
	size_t n = 0;

	ks_map_centre(m, p->q, p->r, &cx, &cy);
	side_point(m, p->q, p->r, ft->from, &x, &y);
	if (ft->from != KS_SIDE_CENTRE) {
		xy[2 * n] = fx(f, cx + (x - cx) * shrink);
		xy[2 * n + 1] = fy(f, cy + (y - cy) * shrink);
		n++;
	}
	xy[2 * n] = fx(f, cx);
	xy[2 * n + 1] = fy(f, cy);
	n++;
	side_point(m, p->q, p->r, ft->to, &x, &y);
	if (ft->to != KS_SIDE_CENTRE) {
		xy[2 * n] = fx(f, cx + (x - cx) * shrink);
		xy[2 * n + 1] = fy(f, cy + (y - cy) * shrink);
		n++;
	}
	return n;
}

/* Field works: a line of teeth along the path (facing the side's left). */
static void works(struct ord_canvas *cv, const double *xy, size_t n)
{
	double out[2 * 64];
	size_t k = 0, i;

	for (i = 0; i + 1 < n && k + 4 < ORD_ARRAY_SIZE(out) / 2; i++) {
		double x0 = xy[2 * i], y0 = xy[2 * i + 1], x1 = xy[2 * i + 2], y1 = xy[2 * i + 3];
		double len = hypot(x1 - x0, y1 - y0), ux, uy, t;
		int teeth, j;
		if (len < 1)
			continue;
		ux = (x1 - x0) / len;
		uy = (y1 - y0) / len;
		teeth = (int)(len / 9);
		if (teeth < 1)
			teeth = 1;
		for (j = 0; j < teeth && k + 3 < ORD_ARRAY_SIZE(out) / 2; j++) {
			t = len * j / teeth;
			out[2 * k] = x0 + ux * t;
			out[2 * k + 1] = y0 + uy * t;
			k++;
			out[2 * k] = x0 + ux * (t + len / teeth / 2) + uy * 5;
			out[2 * k + 1] = y0 + uy * (t + len / teeth / 2) - ux * 5;
			k++;
		}
	}
	out[2 * k] = xy[2 * (n - 1)];
	out[2 * k + 1] = xy[2 * (n - 1) + 1];
	k++;
	ord_canvas_polyline(cv, out, k, "f-feltbefaestning");
}

static void draw_plates(struct ord_canvas *cv, const struct frame *f, const struct ks_map *m)
{
	static const char *const order[] = { "vandloeb", "vadested",       "bro", "sti", "vej",
					     "mur",      "feltbefaestning" };
	double rr = f->r * f->s;
	char label[32], id[64];
	size_t i, j, o;

	ord_canvas_layer(cv, "terrain");
	for (i = 0; i < m->n; i++) {
		const struct ks_plate *p = &m->p[i];
		double cx, cy;
		char cls[40];
		ks_map_centre(m, p->q, p->r, &cx, &cy);
		plate_label(label, sizeof(label), p->q, p->r);
		make_id(id, sizeof(id), "plate-", label);
		ord_canvas_begin(cv, id, "plate", fx(f, cx), fy(f, cy), 0);
		ord_canvas_data(cv, "terrain", p->terrain);
		if (p->height) {
			char h[16];
			snprintf(h, sizeof(h), "%d", p->height);
			ord_canvas_data(cv, "height", h);
		}
		snprintf(cls, sizeof(cls), "t-%s", terrains[terrain_index(p->terrain)].key);
		ord_canvas_hex(cv, 0, 0, rr, cls);
		terrain_sign(cv, terrains[terrain_index(p->terrain)].key, 0, 0, rr);
		contour(cv, p->height, 0, 0, rr);
		ord_canvas_end(cv);
	}
	/* features, in an order that lays roads over streams and bridges */
	ord_canvas_layer(cv, "features");
	for (o = 0; o < ORD_ARRAY_SIZE(order); o++)
		for (i = 0; i < m->n; i++) {
			const struct ks_plate *p = &m->p[i];
			for (j = 0; j < p->nf; j++) {
				const struct ks_feature *ft = &p->f[j];
				double xy[6];
				size_t n;
				char cls[40];
				if (strcmp(ft->type, order[o]))
					continue;
				plate_label(label, sizeof(label), p->q, p->r);
				snprintf(id, sizeof(id), "%s-%zu", label, j);
				make_id(cls, sizeof(cls), "feature-", id);
				ord_canvas_begin(cv, cls, ft->type, 0, 0, 0);
				ord_canvas_data(cv, "plate", label);
				if (!strcmp(ft->type, "bro")) {
					n = feature_path(f, m, p, ft, 0.45, xy);
					ord_canvas_polyline(cv, xy, n, "f-bro");
				} else if (!strcmp(ft->type, "vandloeb")) {
					char style[40];
					double w = ft->width > 0 ? ft->width * f->s : 2;
					n = feature_path(f, m, p, ft, 1, xy);
					if (w < 2)
						w = 2;
					snprintf(style, sizeof(style), "f-vandloeb-%d",
						 (int)lround(w * 10));
					ord_canvas_style(cv, style,
							 &(struct ord_style){ .fill = "none",
									      .stroke = "#2f78b8",
									      .stroke_width = w,
									      .linecap = "round",
									      .linejoin = "round" });
					ord_canvas_polyline(cv, xy, n, style);
				} else if (!strcmp(ft->type, "vej")) {
					n = feature_path(f, m, p, ft, 1, xy);
					ord_canvas_polyline(cv, xy, n, "f-vej-casing");
					ord_canvas_polyline(cv, xy, n, "f-vej");
				} else if (!strcmp(ft->type, "feltbefaestning")) {
					n = feature_path(f, m, p, ft, 0.9, xy);
					works(cv, xy, n);
				} else if (!strcmp(ft->type, "mur")) {
					n = feature_path(f, m, p, ft, 0.9, xy);
					ord_canvas_polyline(cv, xy, n,
							    ft->high ? "f-mur-hoej" : "f-mur");
				} else {
					n = feature_path(f, m, p, ft,
							 !strcmp(ft->type, "vadested") ? 0.6 : 1, xy);
					snprintf(cls, sizeof(cls), "f-%s", ft->type);
					ord_canvas_polyline(cv, xy, n, cls);
				}
				ord_canvas_end(cv);
			}
		}
	/* numbers and names */
	ord_canvas_layer(cv, "labels");
	for (i = 0; i < m->n; i++) {
		const struct ks_plate *p = &m->p[i];
		double cx, cy;
		ks_map_centre(m, p->q, p->r, &cx, &cy);
		plate_label(label, sizeof(label), p->q, p->r);
		ord_canvas_text(cv, fx(f, cx), fy(f, cy) - rr * 0.62, label, "plate-label");
		/* unit labels keep off the plates' numbers and names */
		ord_canvas_reserve(cv, fx(f, cx) - ord_canvas_text_width(label, 10) / 2 - 2,
				   fy(f, cy) - rr * 0.62 - 10, ord_canvas_text_width(label, 10) + 4,
				   13);
		if (p->height) {
			char h[16];
			double hw;
			snprintf(h, sizeof(h), "%+d F", p->height);
			hw = ord_canvas_text_width(h, 10);
			ord_canvas_text(cv, fx(f, cx) + rr * 0.55, fy(f, cy) - rr * 0.2, h, "height");
			/* a unit's label beside it would hide the plate's height */
			ord_canvas_reserve(cv, fx(f, cx) + rr * 0.55 - hw / 2 - 2,
					   fy(f, cy) - rr * 0.2 - 10, hw + 4, 13);
		}
		if (p->name) {
			double nw = ord_canvas_text_width(p->name, 11);
			ord_canvas_text(cv, fx(f, cx), fy(f, cy) + rr * 0.72, p->name, "plate-name");
			ord_canvas_reserve(cv, fx(f, cx) - nw / 2 - 2, fy(f, cy) + rr * 0.72 - 10,
					   nw + 4, 14);
		}
	}
}

/* ---- units ---- */

/* A block's size by formation (user units). */
static void block_size(const char *form, int art, int limbered, double *w, double *h)
{
	if (art) {
		*w = limbered ? 12 : 30;
		*h = limbered ? 28 : 14;
	} else if (!strcmp(form, "angrebskolonne") || !strcmp(form, "soutien")) {
		*w = 20;
		*h = 24;
	} else if (!strcmp(form, "marchkolonne")) {
		*w = 10;
		*h = 36;
	} else if (!strcmp(form, "karre") || !strcmp(form, "bataillonsmasse") || !strcmp(form, "hob")) {
		*w = 24;
		*h = 24;
	} else if (!strncmp(form, "skyttekaede", 11) || !strncmp(form, "svaerm", 6)) {
		*w = 48;
		*h = 8;
	} else {
		*w = 46;
		*h = 12;
	}
}

/* The block centred on (0, 0). */
static void block(struct ord_canvas *cv, const char *form, int art, int limbered, int side,
		  double w, double h)
{
	char cls[32], hol[32];

	snprintf(cls, sizeof(cls), "side-%d", side);
	snprintf(hol, sizeof(hol), "hollow-%d", side);
	if (!art && !strcmp(form, "karre")) {
		ord_canvas_rect(cv, -w / 2 + 2.5, -h / 2 + 2.5, w - 5, h - 5, 0, hol);
		ord_canvas_rect(cv, -w / 2, -h / 2, w, h, 0, "hollow-outline");
		ord_canvas_rect(cv, -w / 2 + 5, -h / 2 + 5, w - 10, h - 10, 0, "hollow-outline");
	} else if (!art && (!strncmp(form, "skyttekaede", 11) || !strncmp(form, "svaerm", 6))) {
		/* a screen: small groups with gaps, wider apart when thin */
		int thin = strstr(form, "tynd") != NULL, n = thin ? 4 : 5, i;
		double gap = (w - n * 6.0) / (n - 1);
		for (i = 0; i < n; i++)
			ord_canvas_rect(cv, -w / 2 + i * (6 + gap), -h / 2 + (i % 2 ? 1.5 : -1.5),
					6, h, 0, cls);
	} else if (!art && !strcmp(form, "hob")) {
		ord_canvas_circle(cv, 0, 0, w / 2, cls);
	} else {
		ord_canvas_rect(cv, -w / 2, -h / 2, w, h, 0, cls);
		if (art && !limbered) {
			/* a gun: barrel and wheels */
			ord_canvas_line(cv, -w / 2 + 6, 0, w / 2 - 4, 0, "arm");
			ord_canvas_circle(cv, -w / 2 + 8, 0, 3, "arm-box");
		}
	}
}

/* The arm's sign in a small frame (x, y: top left), as on a staff map. */
static void arm_sign(struct ord_canvas *cv, const char *vaaben, double x, double y, double w, double h)
{
	ord_canvas_rect(cv, x, y, w, h, 0, "arm-box");
	if (!strcmp(vaaben, "infanteri")) {
		ord_canvas_line(cv, x, y, x + w, y + h, "arm");
		ord_canvas_line(cv, x, y + h, x + w, y, "arm");
	} else if (!strcmp(vaaben, "kavaleri")) {
		ord_canvas_line(cv, x, y + h, x + w, y, "arm");
	} else {
		ord_canvas_circle(cv, x + w / 2, y + h / 2, h / 4, "arm-dot");
	}
}

struct placed {
	const struct ord_unit *u;
	double x, y;   /* true position, user units */
	double bx, by; /* the block's centre */
	int side;
};

static int unit_pos(const struct ord_kv *st, double *x, double *y)
{
	if (!st || !ord_kv_get(st, "x") || !ord_kv_get(st, "y"))
		return 0;
	*x = ord_kv_get_num(st, "x", 0);
	*y = ord_kv_get_num(st, "y", 0);
	return 1;
}

static void morale_badge(struct ord_canvas *cv, int grade, double x, double y)
{
	char cls[32];

	snprintf(cls, sizeof(cls), "morale-%d", grade);
	ord_canvas_rect(cv, x, y, 22, 13, 2, cls);
	ord_canvas_text(cv, x + 11, y + 10, ks_moral_name(grade),
			grade >= KS_FU ? "morale-text-dark" : "morale-text");
}

static void draw_units(struct ord_ctx *ctx, struct ord_canvas *cv, const struct frame *f,
		       const struct ord_picture *w, struct placed *pl, size_t *npl)
{
	size_t i, n = ord_ctx_nunits(ctx);
	char id[128], buf[64];

	*npl = 0;
	ord_canvas_layer(cv, "units");
	/* first every true position is taken, so no block hides another's dot */
	for (i = 0; i < n; i++) {
		const struct ord_unit *u = ord_ctx_unit(ctx, i);
		double x, y;
		if (!unit_pos(&u->state, &x, &y))
			continue;
		ord_canvas_reserve(cv, fx(f, x) - 3, fy(f, y) - 3, 6, 6);
	}
	for (i = 0; i < n; i++) {
		const struct ord_unit *u = ord_ctx_unit(ctx, i);
		const char *vaaben = ks_vaaben(ctx, u), *form = ks_form(ctx, u);
		int art = !strcmp(vaaben, "artilleri");
		int limbered = art && !strcmp(ks_st_str(ctx, u, "prodset"), "paa");
		int side = side_index(w, u->side), gone = ks_gone(ctx, u), grade;
		double x, y, bw, bh, bx, by, lw, lx, ly;
		struct placed *p;
		char text[96];

		if (!unit_pos(&u->state, &x, &y))
			continue;
		p = &pl[(*npl)++];
		p->u = u;
		p->x = fx(f, x);
		p->y = fy(f, y);
		p->side = side;
		block_size(form, art, limbered, &bw, &bh);
		/* the block: on the position, or the nearest free place */
		bx = p->x - bw / 2;
		by = p->y - bh / 2;
		if (!ord_canvas_free_spot(cv, &bx, &by, bw + 2, bh + 2, 60))
			ord_canvas_free_spot(cv, &bx, &by, bw + 2, bh + 2, 200);
		ord_canvas_reserve(cv, bx, by, bw + 2, bh + 2);
		p->bx = bx + bw / 2;
		p->by = by + bh / 2;

		make_id(id, sizeof(id), "unit-", u->id);
		ord_canvas_begin(cv, id, "unit", p->x, p->y, 0);
		snprintf(buf, sizeof(buf), "%s", ks_st_str(ctx, u, "x"));
		ord_canvas_data(cv, "x", buf);
		ord_canvas_data(cv, "y", ks_st_str(ctx, u, "y"));
		ord_canvas_data(cv, "side", u->side);
		ord_canvas_data(cv, "arm", vaaben);
		ord_canvas_data(cv, "formation", form);
		{
			struct ord_buf tip = ORD_BUF_INIT;
			ord_buf_addf(&tip, "%s %s (%s)", u->id, u->name, u->side);
			ord_canvas_tip(cv, tip.buf);
			ord_buf_release(&tip);
		}
		if (fabs(p->bx - p->x) > 0.5 || fabs(p->by - p->y) > 0.5)
			ord_canvas_line(cv, 0, 0, p->bx - p->x, p->by - p->y, "leader");
		ord_canvas_begin(cv, NULL, "block", p->bx - p->x, p->by - p->y, 0);
		if (gone)
			ord_canvas_rect(cv, -bw / 2, -bh / 2, bw, bh, 0, "unit-gone");
		else
			block(cv, form, art, limbered, side, bw, bh);
		ord_canvas_end(cv);
		ord_canvas_circle(cv, 0, 0, 2.2, "pin");

		/* the label: sign, id, strength, morale */
		grade = ks_moral_at(ctx, u, ks_half(ctx, 0), NULL);
		if (gone)
			snprintf(text, sizeof(text), "%s",
				 tr(w, ks_st(ctx, u, "overgivet") ? "overgivet" : "fjernet",
				    ks_st(ctx, u, "overgivet") ? "surrendered" : "removed"));
		else if (art)
			snprintf(text, sizeof(text), "%ld %s", ks_st(ctx, u, "kanoner"),
				 tr(w, "kan.", "guns"));
		else
			snprintf(text, sizeof(text), "%ld fig.", ks_st(ctx, u, "figurer"));
		lw = 16 + 4 + ord_canvas_text_width(u->id, LABEL_FONT) * 1.08 + 5 +
		     ord_canvas_text_width(text, LABEL_FONT) + 6 + (gone ? 0 : 24) + 4;
		lx = p->bx + bw / 2 + 3;
		ly = p->by - 8;
		/* in a crowd, farther off (a line joins it to its block) rather
		 * than on the others' labels */
		if (!ord_canvas_free_spot(cv, &lx, &ly, lw, 17, 90) &&
		    !ord_canvas_free_spot(cv, &lx, &ly, lw, 17, 400)) {
			lx = p->bx + bw / 2 + 3;
			ly = p->by - 8;
		}
		ord_canvas_reserve(cv, lx, ly, lw, 17);
		{
			/* a label pushed away from its block by others: a line to it,
			 * so that it is not read as a neighbour's */
			double qx = fmin(fmax(p->bx, lx), lx + lw),
			       qy = fmin(fmax(p->by, ly), ly + 17);
			double ex = fmin(fmax(qx, p->bx - bw / 2), p->bx + bw / 2);
			double ey = fmin(fmax(qy, p->by - bh / 2), p->by + bh / 2);
			if (hypot(qx - ex, qy - ey) > 6)
				ord_canvas_line(cv, ex - p->x, ey - p->y, qx - p->x, qy - p->y,
						"label-leader");
		}
		ord_canvas_begin(cv, NULL, "label", lx - p->x, ly - p->y, 0);
		ord_canvas_rect(cv, 0, 0, lw, 17, 2, "label-box");
		arm_sign(cv, vaaben, 3, 3.5, 16, 10);
		ord_canvas_text(cv, 23, 12.5, u->id, "label-id");
		ord_canvas_text(cv, 23 + ord_canvas_text_width(u->id, LABEL_FONT) * 1.08 + 5, 12.5,
				text, "label");
		if (!gone)
			morale_badge(cv, grade, lw - 26, 2);
		ord_canvas_end(cv);
		ord_canvas_end(cv);
	}
}

/* ---- orders, moves, fire, melee ---- */

static const struct placed *find_placed(const struct placed *pl, size_t n, const struct ord_unit *u)
{
	size_t i;

	for (i = 0; u && i < n; i++)
		if (pl[i].u == u)
			return &pl[i];
	return NULL;
}

/* Towards the enemy, for the side's "↑" (ks_bearing_enemy): the setup is
 * every player's, so the bearing is the same on every viewer's map, in
 * every turn, and as the check of a move reads it. */
static double enemy_bearing(const struct ord_picture *w, const struct ks_map *m, const char *side)
{
	struct ks_bearing b;
	size_t i;

	memset(&b, 0, sizeof(b));
	for (i = 0; i < w->nsetup; i++)
		ks_bearing_add(&b, side, w->setup[i].side, &w->setup[i].attrs);
	return ks_bearing_enemy(&b, m);
}

static void draw_orders(struct ord_ctx *ctx, struct ord_canvas *cv, const struct frame *f,
			const struct ord_picture *w, const struct placed *pl, size_t npl)
{
	struct ks_rules *r = ks_r(ctx);
	size_t i, last = ord_ctx_nsteps(ctx) ? ord_ctx_nsteps(ctx) - 1 : 0;
	char id[128], cls[32], head[32];

	ord_canvas_layer(cv, "orders");
	for (i = 0; i < ord_ctx_nunits(ctx); i++) {
		const struct ord_unit *u = ord_ctx_unit(ctx, i);
		const struct ord_order *o = ord_ctx_order(ctx, u);
		const struct placed *p = find_placed(pl, npl, u);
		struct ks_group g[KS_MAX_GROUPS];
		double x0, y0, x1, y1;
		size_t ng, k;
		int drawn = 0;

		if (!p || !unit_pos(ord_ctx_step_state(ctx, 0, u), &x0, &y0))
			continue;
		make_id(id, sizeof(id), "order-", u->id);
		ord_canvas_begin(cv, id, "order", 0, 0, 0);
		/* what it did: from where the turn found it to where it is */
		if (unit_pos(ord_ctx_step_state(ctx, last, u), &x1, &y1) &&
		    hypot(x1 - x0, y1 - y0) > 0.5) {
			ord_canvas_arrow_kept(cv, fx(f, x0), fy(f, y0), fx(f, x1), fy(f, y1), 9,
					      "moved", "moved-head");
			drawn = 1;
		}
		/* what it was ordered: a march towards a plate or a direction */
		ng = ks_groups(o, g, KS_MAX_GROUPS);
		snprintf(cls, sizeof(cls), "order-%d", p->side);
		snprintf(head, sizeof(head), "order-head-%d", p->side);
		for (k = 0; k < ng; k++) {
			const char *code = g[k].code;
			int q, rr, storm = !strcmp(code, "stormmarch");
			double reach, dist, tx, ty;
			const struct ord_token *dir;
			if (strcmp(code, "march") && !storm && strcmp(code, "tilbagetog") &&
			    strcmp(code, "loeb") && strcmp(code, "prolongering"))
				continue;
			{
				/* the gait's length (13, table gangarter), for the
				 * part of the turn ordered and no more than it lasts */
				const char *gang = storm                   ? "stormmarch"
						   : !strcmp(code, "loeb") ? "loeb"
									   : "march";
				double len = 0, share = 1, part = ks_grp_quarters(ctx, o, &g[k]) / 4.0;
				if (ks_gait(r, ks_art(u), ks_form(ctx, u), gang, &len, &share,
					    NULL) != 0) {
					ord_error_clear();
					len = 0;
				}
				reach = len * (part < share ? part : share);
			}
			if (ks_grp_hex(o, &g[k], &q, &rr) && r->map) {
				ks_map_centre(r->map, q, rr, &tx, &ty);
				dist = hypot(tx - x0, ty - y0);
				if (reach > 0 && dist > reach) {
					tx = x0 + (tx - x0) * reach / dist;
					ty = y0 + (ty - y0) * reach / dist;
				}
			} else if ((dir = ks_grp_tok(o, &g[k], ORD_TOK_DIR)) != NULL && reach > 0) {
				/* a retreat's arrow too is the way it goes (17,
				 * the notation's TT ↓: away from the enemy); a game
				 * made before flyt_retning_tt_kontrol drew it turned
				 * about, and its players wrote it so (TT ↑ for away) */
				double a = enemy_bearing(w, r->map, u->side) + dir->num * M_PI / 180;
				if (!strcmp(code, "tilbagetog") &&
				    !ks_check(r, "flyt_retning_tt_kontrol"))
					a += M_PI;
				tx = x0 + reach * cos(a);
				ty = y0 + reach * sin(a);
			} else {
				continue;
			}
			ord_canvas_arrow_kept(cv, fx(f, x0), fy(f, y0), fx(f, tx), fy(f, ty), 12,
					      cls, head);
			drawn = 1;
			break;
		}
		(void)drawn;
		(void)w;
		ord_canvas_end(cv);
	}
}

/* What a fire did to its target, short: "−60 men, LU", "−1 gun destroyed",
 * "out of range". */
static void short_hit(const struct ord_picture *w, const struct ord_kv *vals, struct ord_buf *out)
{
	long men = ord_kv_get_int(vals, "men", 0);
	long destroyed = ord_kv_get_int(vals, "destroyed", 0);
	long damaged = ord_kv_get_int(vals, "damaged", 0);
	const char *mor = ord_kv_get(vals, "morale");
	size_t len = out->len;

	/* a shot beyond the tables' range, as its result says, not a miss */
	if (ord_kv_get_bool(vals, "out_of_range", 0)) {
		ord_buf_adds(out, tr(w, "uden for skudvidde", "out of range"));
		return;
	}
	if (men)
		ord_buf_addf(out, "−%ld %s", men, tr(w, "mand", "men"));
	if (destroyed)
		ord_buf_addf(out, "%s−%ld %s", out->len > len ? ", " : "", destroyed,
			     destroyed == 1 ? tr(w, "kanon ødelagt", "gun destroyed")
					    : tr(w, "kanoner ødelagt", "guns destroyed"));
	if (damaged)
		ord_buf_addf(out, "%s−%ld %s", out->len > len ? ", " : "", damaged,
			     damaged == 1 ? tr(w, "kanon beskadiget", "gun damaged")
					  : tr(w, "kanoner beskadiget", "guns damaged"));
	if (out->len == len) /* a miss, not "−0 men" */
		ord_buf_adds(out, tr(w, "ingen tab", "no loss"));
	if (mor && *mor && strcmp(mor, "OR"))
		ord_buf_addf(out, ", %s", mor);
}

/* The result of an event for its firer or attacker, short: "−60 men, LU". */
static int short_result(struct ord_ctx *ctx, const struct ord_picture *w, unsigned seq,
			const char *kind, const char *a_id, const char *b_id, struct ord_buf *out)
{
	size_t i;
	struct ord_result_view v;

	/* a fire: the target's result says what it did (a battery's guns
	 * too), wherever the viewer sees it: his own fire's, and an enemy's
	 * fire on his own unit (his report lists that loss), not the firer's
	 * result of it (its ammunition), which the core keeps from him */
	if (strcmp(kind, "naerkamp")) {
		for (i = 0; i < ord_ctx_nresults(ctx); i++) {
			if (ord_ctx_result_get(ctx, i, &v) || v.event_seq != seq ||
			    !ord_kv_get(v.values, "firer"))
				continue;
			short_hit(w, v.values, out);
			return 1;
		}
	}
	/* a game resolved before the target's result had values: the firer's */
	for (i = 0; i < ord_ctx_nresults(ctx); i++) {
		if (ord_ctx_result_get(ctx, i, &v) || v.event_seq != seq)
			continue;
		if (!strcmp(kind, "naerkamp")) {
			const char *winner = ord_kv_get(v.values, "winner");
			if (!ord_kv_get(v.values, "men_a"))
				continue;
			if (winner && *winner)
				ord_buf_addf(out, "%s %s", tr(w, "vinder:", "won by"), winner);
			else
				ord_buf_adds(out, tr(w, "uafgjort", "drawn"));
			/* each side's loss by its unit: "(−6/−36 men)" left the
			 * reader to guess whose was whose */
			ord_buf_addf(out, " (%s −%ld, %s −%ld %s)", a_id,
				     ord_kv_get_int(v.values, "men_a", 0), b_id,
				     ord_kv_get_int(v.values, "men_d", 0), tr(w, "mand", "men"));
			return 1;
		}
		if (ord_kv_get(v.values, "men") && !ord_kv_get(v.values, "firer")) {
			short_hit(w, v.values, out);
			return 1;
		}
	}
	return 0;
}

/* The escort that fought melee seq for the battery attacked (16,
 * bedaekning_kontrol: its results name it, bedaekning=), NULL when none. */
static struct ord_unit *melee_escort(struct ord_ctx *ctx, unsigned seq)
{
	struct ord_result_view v;
	const char *id;
	size_t i;

	for (i = 0; i < ord_ctx_nresults(ctx); i++)
		if (!ord_ctx_result_get(ctx, i, &v) && v.event_seq == seq &&
		    (id = ord_kv_get(v.values, "bedaekning")) != NULL)
			return ord_ctx_find_unit(ctx, id);
	return NULL;
}

static void draw_events(struct ord_ctx *ctx, struct ord_canvas *cv, const struct ord_picture *w,
			const struct placed *pl, size_t npl)
{
	size_t i, nrt = 0;
	char id[64];
	struct ord_canvas_label *rt = ord_xcalloc(ord_ctx_nevents(ctx) + 1, sizeof(*rt));

	ord_canvas_layer(cv, "results");
	for (i = 0; i < ord_ctx_nevents(ctx); i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		const char *a_key = "unit", *b_key = "maal";
		const struct placed *a, *b, *escort, *escorted = NULL;
		int fire = 0, melee = 0, attack = 0;
		double mx, my;

		if (!strcmp(e->kind, "skyd") || !strcmp(e->kind, "artilleri") ||
		    !strcmp(e->kind, "forsvarsild"))
			fire = 1;
		else if (!strcmp(e->kind, "naerkamp"))
			melee = 1, a_key = "angriber", b_key = "forsvarer";
		else if (!strcmp(e->kind, "angreb"))
			attack = 1;
		else
			continue;
		a = find_placed(pl, npl, ord_ctx_find_unit(ctx, ord_kv_get(&e->kv, a_key)));
		b = find_placed(pl, npl, ord_ctx_find_unit(ctx, ord_kv_get(&e->kv, b_key)));
		if (!a || !b)
			continue;
		/* a melee fought against a battery's escort is drawn to the
		 * escort, the unit that fought and whose losses it says */
		if (melee && (escort = find_placed(pl, npl, melee_escort(ctx, e->seq))) != NULL) {
			escorted = b;
			b = escort;
		}
		snprintf(id, sizeof(id), "event-%u", e->seq);
		ord_canvas_begin(cv, id, e->kind, 0, 0, 0);
		ord_canvas_data(cv, "phase", e->phase);
		if (fire) {
			/* 3 units to the right of the line between the units: two
			 * units firing at each other (D3, L2) have two lines, not
			 * one with a head at each end */
			double len = hypot(b->y - a->y, b->x - a->x), cut, ox = 0, oy = 0;
			cut = len > 24 ? 10 / len : 0;
			if (len > 0) {
				ox = -(b->y - a->y) / len * 3;
				oy = (b->x - a->x) / len * 3;
			}
			ord_canvas_arrow_kept(cv, a->x + ox, a->y + oy, b->x - (b->x - a->x) * cut + ox,
					      b->y - (b->y - a->y) * cut + oy, 9, "fire", "fire-head");
		} else if (attack) {
			char cls[32];
			snprintf(cls, sizeof(cls), "attack-%d", a->side);
			ord_canvas_arrow_kept(cv, a->x, a->y, b->x, b->y, 14, cls, "moved-head");
		} else {
			ord_canvas_line(cv, a->x, a->y, b->x, b->y, "melee");
		}
		mx = (a->x + b->x) / 2;
		my = (a->y + b->y) / 2;
		if (melee) {
			ord_canvas_circle(cv, mx, my, 8, "melee-mark");
			ord_canvas_line(cv, mx - 4.5, my - 4.5, mx + 4.5, my + 4.5, "arm");
			ord_canvas_line(cv, mx - 4.5, my + 4.5, mx + 4.5, my - 4.5, "arm");
		}
		if (fire || melee) {
			struct ord_buf lab = ORD_BUF_INIT;
			if (short_result(ctx, w, e->seq, e->kind, a->u->id, b->u->id, &lab)) {
				/* whose fire: the label may stand away from its line */
				struct ord_canvas_label *r = &rt[nrt++];
				ord_buf_init(&r->t);
				ord_buf_addf(&r->t, "%s→%s", a->u->id, b->u->id);
				if (escorted)
					ord_buf_addf(&r->t, " (%s %s)",
						     tr(w, "bedækker", "escorting"), escorted->u->id);
				ord_buf_addf(&r->t, ": %s", lab.buf);
				r->seq = e->seq;
				r->x = mx;
				r->y = my + 14;
			}
			ord_buf_release(&lab);
		}
		ord_canvas_end(cv);
	}
	ord_canvas_result_labels(cv, rt, nrt);
	for (i = 0; i < nrt; i++)
		ord_buf_release(&rt[i].t);
	free(rt);
}

/* ---- legend, title, scale ---- */

static double legend_row(struct ord_canvas *cv, double x, double y, const char *text)
{
	/* clear of the widest sign (a block 40 wide from x + 6) */
	ord_canvas_text(cv, x + 52, y + 13, text, "legend-text");
	return y + 21;
}

static void draw_legend(struct ord_ctx *ctx, struct ord_canvas *cv, const struct ord_picture *w,
			double x, double y, double *bottom)
{
	double y0 = y, k;
	size_t i;
	char cls[40];

	(void)ctx;
	ord_canvas_layer(cv, "legend");
	ord_canvas_begin(cv, "legend-panel", "legend", 0, 0, 0);

	ord_canvas_text(cv, x + 10, y + 18, tr(w, "Sider", "Sides"), "legend-head");
	y += 26;
	for (i = 0; i < w->nsides; i++) {
		snprintf(cls, sizeof(cls), "side-%zu", i % ORD_ARRAY_SIZE(side_fill));
		ord_canvas_rect(cv, x + 12, y + 3, 24, 11, 0, cls);
		y = legend_row(cv, x, y, w->side_titles[i]);
	}
	y += 6;
	ord_canvas_text(cv, x + 10, y + 14, tr(w, "Terræn", "Terrain"), "legend-head");
	y += 22;
	for (i = 0; i < ORD_ARRAY_SIZE(terrains); i++) {
		snprintf(cls, sizeof(cls), "t-%s", terrains[i].key);
		ord_canvas_hex(cv, x + 24, y + 9, 10.5, cls);
		terrain_sign(cv, terrains[i].key, x + 24, y + 9, 12);
		y = legend_row(cv, x, y, tr(w, terrains[i].da, terrains[i].en));
	}
	ord_canvas_hex(cv, x + 24, y + 9, 10.5, "t-aabent");
	contour(cv, 2, x + 24, y + 9, 10.5);
	y = legend_row(cv, x, y, tr(w, "højde: kurver (F)", "height: contours (F)"));
	y += 6;
	for (i = 0; i < ORD_ARRAY_SIZE(features); i++) {
		double xy[4] = { x + 12, y + 9, x + 36, y + 9 };
		if (!strcmp(features[i].key, "vej")) {
			ord_canvas_polyline(cv, xy, 2, "f-vej-casing");
			ord_canvas_polyline(cv, xy, 2, "f-vej");
		} else if (!strcmp(features[i].key, "vandloeb")) {
			ord_canvas_style(cv, "f-vandloeb-legend",
					 &(struct ord_style){ .stroke = "#2f78b8", .stroke_width = 5 });
			ord_canvas_polyline(cv, xy, 2, "f-vandloeb-legend");
		} else if (!strcmp(features[i].key, "feltbefaestning")) {
			works(cv, xy, 2);
		} else if (!strcmp(features[i].key, "vadested")) {
			ord_canvas_polyline(cv, xy, 2, "f-vandloeb-legend");
			xy[0] = x + 20;
			xy[2] = x + 28;
			ord_canvas_polyline(cv, xy, 2, "f-vadested");
		} else if (!strcmp(features[i].key, "bro")) {
			ord_canvas_polyline(cv, xy, 2, "f-vandloeb-legend");
			xy[0] = x + 18;
			xy[2] = x + 30;
			ord_canvas_polyline(cv, xy, 2, "f-bro");
		} else {
			snprintf(cls, sizeof(cls), "f-%s", features[i].key);
			ord_canvas_polyline(cv, xy, 2, cls);
		}
		y = legend_row(cv, x, y, tr(w, features[i].da, features[i].en));
	}
	y += 6;
	ord_canvas_text(cv, x + 10, y + 14, tr(w, "Våben", "Arms"), "legend-head");
	y += 22;
	arm_sign(cv, "infanteri", x + 16, y + 3, 16, 10);
	y = legend_row(cv, x, y, tr(w, "infanteri", "infantry"));
	arm_sign(cv, "kavaleri", x + 16, y + 3, 16, 10);
	y = legend_row(cv, x, y, tr(w, "kavaleri", "cavalry"));
	arm_sign(cv, "artilleri", x + 16, y + 3, 16, 10);
	y = legend_row(cv, x, y, tr(w, "artilleri", "artillery"));
	y += 6;
	ord_canvas_text(cv, x + 10, y + 14, tr(w, "Formationer", "Formations"), "legend-head");
	y += 22;
	for (i = 0; i < ORD_ARRAY_SIZE(formations); i++) {
		double bw, bh;
		block_size(formations[i].key, 0, 0, &bw, &bh);
		k = bh > 18 ? 18 / bh : 1;
		/* as wide as 40: a skirmish chain squeezed to 26 ran its
		 * groups into one another and its line into the word */
		ord_canvas_begin(cv, NULL, "legend-sign", x + 26, y + 9 + (bh * k > 14 ? 4 : 0), 0);
		block(cv, formations[i].key, 0, 0, 0, bw * fmin(k, 40 / bw), bh * k);
		ord_canvas_end(cv);
		y = legend_row(cv, x, y + (bh * k > 14 ? 8 : 0),
			       tr(w, formations[i].da, formations[i].en));
	}
	ord_canvas_begin(cv, NULL, "legend-sign", x + 26, y + 9, 0);
	block(cv, "linie", 1, 0, 0, 30, 14);
	ord_canvas_end(cv);
	y = legend_row(cv, x, y, tr(w, "batteri, afprodset", "battery, unlimbered"));
	y += 6;
	ord_canvas_text(cv, x + 10, y + 14, tr(w, "Moral", "Morale"), "legend-head");
	y += 22;
	for (i = 0; i < 4; i++) {
		morale_badge(cv, (int)i, x + 12, y + 2);
		y = legend_row(cv, x, y, ks_moral_words((int)i, w->lang));
	}
	y += 6;
	ord_canvas_text(cv, x + 10, y + 14, tr(w, "Ordrer og hændelser", "Orders and events"),
			"legend-head");
	y += 22;
	ord_canvas_arrow(cv, x + 12, y + 9, x + 36, y + 9, 9, "order-0", "order-head-0");
	y = legend_row(cv, x, y, tr(w, "beordret march", "ordered march"));
	ord_canvas_arrow(cv, x + 12, y + 9, x + 36, y + 9, 9, "moved", "moved-head");
	y = legend_row(cv, x, y, tr(w, "flytning udført", "move made"));
	ord_canvas_arrow(cv, x + 12, y + 9, x + 36, y + 9, 12, "attack-0", "moved-head");
	y = legend_row(cv, x, y, tr(w, "angreb erklæret", "attack declared"));
	ord_canvas_arrow(cv, x + 12, y + 9, x + 36, y + 9, 9, "fire", "fire-head");
	y = legend_row(cv, x, y, tr(w, "ild, med resultat", "fire, with its result"));
	ord_canvas_line(cv, x + 12, y + 9, x + 36, y + 9, "melee");
	ord_canvas_circle(cv, x + 24, y + 9, 6, "melee-mark");
	y = legend_row(cv, x, y, tr(w, "nærkamp", "melee"));
	ord_canvas_circle(cv, x + 24, y + 9, 2.2, "pin");
	ord_canvas_line(cv, x + 24, y + 9, x + 36, y + 2, "leader");
	y = legend_row(cv, x, y, tr(w, "sand position (blok flyttet)", "true position (block moved)"));
	ord_canvas_end(cv);

	/* the ground under it all: a layer painted before the legend's */
	ord_canvas_layer(cv, "legend-ground");
	ord_canvas_rect(cv, x, y0, LEGEND_W, y - y0 + 8, 4, "legend-box");
	*bottom = y + 8;
}

static void draw_scale(struct ord_canvas *cv, const struct frame *f, const struct ord_picture *w,
		       double x, double y)
{
	double step = 10 * f->s;
	char t[64];
	int i;

	ord_canvas_layer(cv, "legend");
	ord_canvas_begin(cv, "scale", "scale", x, y, 0);
	for (i = 0; i < 6; i++)
		ord_canvas_rect(cv, i * step, 0, step, 6, 0, i % 2 ? "scale-bar-white" : "scale-bar");
	for (i = 0; i <= 6; i++) {
		snprintf(t, sizeof(t), "%d", i * 10);
		ord_canvas_text(cv, i * step, 19, t, "scale-text");
	}
	ord_canvas_text(cv, 6 * step + 18, 6, "cm", "legend-text");
	snprintf(t, sizeof(t), "%s",
		 tr(w, "(1 cm = 10 m; en plade er 30 cm)", "(1 cm = 10 m; a plate is 30 cm)"));
	ord_canvas_text(cv, 6 * step + 44, 6, t, "legend-text");
	ord_canvas_end(cv);
}

static int draw_map(struct ord_ctx *ctx, const char *viewer, struct ord_canvas *cv,
		    const struct ord_picture *w)
{
	struct ks_rules *r = ks_r(ctx);
	const struct ks_map *m = r->map;
	struct frame f;
	double minx = 1e18, miny = 1e18, maxx = -1e18, maxy = -1e18, x, y, width, legend_bottom;
	struct placed *pl = NULL;
	size_t i, npl = 0;
	struct ord_buf title = ORD_BUF_INIT, sub = ORD_BUF_INIT;

	/* the extent: every plate, and every unit (units may stand off the map) */
	memset(&f, 0, sizeof(f));
	f.r = (m ? m->plate_cm : ks_param(r, "plade_cm")) / SQRT3;
	for (i = 0; m && i < m->n; i++) {
		ks_map_centre(m, m->p[i].q, m->p[i].r, &x, &y);
		minx = fmin(minx, x - f.r * SQRT3 / 2);
		maxx = fmax(maxx, x + f.r * SQRT3 / 2);
		miny = fmin(miny, y - f.r);
		maxy = fmax(maxy, y + f.r);
	}
	for (i = 0; i < ord_ctx_nunits(ctx); i++)
		if (unit_pos(&ord_ctx_unit(ctx, i)->state, &x, &y)) {
			minx = fmin(minx, x - 5);
			maxx = fmax(maxx, x + 5);
			miny = fmin(miny, y - 5);
			maxy = fmax(maxy, y + 5);
		}
	if (minx > maxx)
		return ord_error_set(ORD_ESTATE,
				     "nothing to map: the game has no map and no unit has a position (x=, y=)");
	/* about 1100 user units across, 2 to 6 a cm */
	f.s = 1100 / (maxx - minx);
	f.s = fmax(2, fmin(6, f.s));
	/* a few units close together: the table widened about them to the
	 * scale's width (60 cm and its words, draw_scale), so that the
	 * scale, the units' labels and the results stand clear of the legend */
	if ((maxx - minx) * f.s < 60 * f.s + 300) {
		double grow = (60 + 300 / f.s - (maxx - minx)) / 2;
		minx -= grow;
		maxx += grow;
	}
	f.x0 = MARGIN + 10 - minx * f.s;
	f.y0 = MARGIN + TITLE_H - miny * f.s;
	f.w = (maxx - minx) * f.s;
	f.h = (maxy - miny) * f.s;
	width = MARGIN + 10 + f.w + 40 + LEGEND_W + MARGIN;
	ord_canvas_resize(cv, width, MARGIN + TITLE_H + f.h + 60 + MARGIN);

	/* the title */
	ord_buf_addf(&title, "%s — %s %d", w->game, tr(w, "træk", "turn"), w->turn);
	if (*w->phase)
		ord_buf_addf(&title, ", %s %s", tr(w, "efter", "after"), word(w, w->phase));
	else
		ord_buf_addf(&title, ", %s", tr(w, "ved trækkets start", "as the turn opened"));
	if (viewer) {
		size_t k;
		const char *t = viewer;
		for (k = 0; k < w->nsides; k++)
			if (!strcmp(w->sides[k], viewer))
				t = w->side_titles[k];
		ord_buf_addf(&sub, "%s %s", tr(w, "Som", "As"), t);
		ord_buf_adds(&sub, tr(w, " ser det (krigens tåge)", " sees it (fog of war)"));
	} else {
		ord_buf_adds(&sub, tr(w, "Dommerens kort: alt", "The referee's map: everything"));
	}
	ord_buf_addf(&sub, " · %s %s", tr(w, "trækket er", "the turn is"), word(w, w->turn_state));
	ord_canvas_title(cv, title.buf, sub.buf);
	styles(cv);

	/* the layers, in the order they are painted */
	ord_canvas_layer(cv, "title");
	ord_canvas_layer(cv, "terrain");
	ord_canvas_layer(cv, "features");
	ord_canvas_layer(cv, "labels");
	ord_canvas_layer(cv, "orders");
	ord_canvas_layer(cv, "results");
	ord_canvas_layer(cv, "result-labels");
	ord_canvas_layer(cv, "units");
	ord_canvas_layer(cv, "legend-ground");
	ord_canvas_layer(cv, "legend");

	ord_canvas_layer(cv, "title");
	ord_canvas_text_fit(cv, MARGIN, MARGIN + 22, title.buf, "title", 20, width - 2 * MARGIN);
	ord_canvas_text_fit(cv, MARGIN, MARGIN + 44, sub.buf, "subtitle", 13, width - 2 * MARGIN);
	if (m)
		draw_plates(cv, &f, m);
	/* units first (their places), then what joins them */
	pl = ord_xcalloc(ord_ctx_nunits(ctx) + 1, sizeof(*pl));
	draw_units(ctx, cv, &f, w, pl, &npl);
	draw_orders(ctx, cv, &f, w, pl, npl);
	draw_events(ctx, cv, w, pl, npl);
	draw_legend(ctx, cv, w, MARGIN + 10 + f.w + 40, MARGIN + TITLE_H, &legend_bottom);
	draw_scale(cv, &f, w, MARGIN + 10, MARGIN + TITLE_H + f.h + 22);
	ord_canvas_resize(cv, width, fmax(MARGIN + TITLE_H + f.h + 50, legend_bottom) + MARGIN);
	free(pl);
	ord_buf_release(&title);
	ord_buf_release(&sub);
	return 0;
}

/* ---- the chart: figures (guns) and morale over every phase ---- */

static int ks_draw_chart(struct ord_ctx *ctx, const char *viewer, struct ord_canvas *cv,
			 const struct ord_picture *w)
{
	static const char *const short_da[] = { "R", "E", "F", "S", "A" };
	size_t ns = ord_ctx_nsteps(ctx), nu = ord_ctx_nunits(ctx), i, s;
	struct ord_chart c;
	struct ord_chart_unit *cu = ord_xcalloc(nu + 1, sizeof(*cu));
	struct ord_chart_band bands[4];
	double *strength = ord_xcalloc(ns * nu + 1, sizeof(double));
	double *lost = ord_xcalloc(ns * nu + 1, sizeof(double));
	int *band = ord_xcalloc(ns * nu + 1, sizeof(int)), *turns = ord_xcalloc(ns + 1, sizeof(int));
	char **labels = ord_xcalloc(ns + 1, sizeof(char *));
	char **names = ord_xcalloc(nu + 1, sizeof(char *));
	struct ord_buf title = ORD_BUF_INIT, sub = ORD_BUF_INIT;
	int err;

	for (i = 0; i < 4; i++) {
		bands[i].name = ks_moral_words((int)i, w->lang);
		bands[i].colour = i ? morale_fill[i] : "#dfe8d0";
		bands[i].mark = ks_moral_name((int)i);
	}
	for (s = 0; s < ns; s++) {
		static const char *const phase_names[] = { "reorganisering", "angrebserklaering",
							   "fredelige-flytninger", "skydninger",
							   "angrebshandlinger" };
		const char *ph, *lab = "start";
		size_t k;
		ord_ctx_step(ctx, s, &turns[s], &ph);
		for (k = 0; k < ORD_ARRAY_SIZE(phase_names); k++)
			if (!strcmp(ph, phase_names[k]))
				lab = short_da[k];
		labels[s] = ord_strdup(lab);
	}
	for (i = 0; i < nu; i++) {
		const struct ord_unit *u = ord_ctx_unit(ctx, i);
		int art = ks_is(ctx, u, "artilleri");
		struct ord_buf nm = ORD_BUF_INIT;
		/* the strength is guns for a battery, figures for the rest (the legend) */
		ord_buf_adds(&nm, u->name);
		names[i] = ord_buf_detach(&nm, NULL);
		cu[i].id = u->id;
		cu[i].label = names[i];
		cu[i].side = u->side;
		cu[i].colour = side_fill[side_index(w, u->side)];
		cu[i].strength = strength + i * ns;
		cu[i].lost = lost + i * ns;
		cu[i].band = band + i * ns;
		cu[i].approximate = viewer && strcmp(viewer, u->side);
		for (s = 0; s < ns; s++) {
			const struct ord_kv *st = ord_ctx_step_state(ctx, s, u);
			struct ord_unit tmp = *u;
			if (!st) {
				strength[i * ns + s] = -1;
				band[i * ns + s] = -1;
				continue;
			}
			tmp.state = *st;
			strength[i * ns + s] = (double)ord_kv_get_int(st,
								      art ? "kanoner" : "figurer", 0);
			band[i * ns + s] = ks_gone(ctx, &tmp)
						   ? -1
						   : ks_moral_at(ctx, &tmp, 2 * turns[s], NULL);
			if (s && strength[i * ns + s - 1] >= 0 && !cu[i].approximate)
				lost[i * ns + s] = strength[i * ns + s - 1] - strength[i * ns + s];
		}
	}
	ord_buf_addf(&title, "%s — %s", w->game, tr(w, "slagets forløb", "the story of the battle"));
	if (viewer) {
		size_t k;
		const char *t = viewer;
		for (k = 0; k < w->nsides; k++)
			if (!strcmp(w->sides[k], viewer))
				t = w->side_titles[k];
		ord_buf_addf(&sub, "%s %s %s", tr(w, "Som", "As"), t,
			     tr(w, "ser det (krigens tåge)", "sees it (fog of war)"));
	} else
		ord_buf_adds(&sub, tr(w, "Dommerens: alt", "The referee's: everything"));
	memset(&c, 0, sizeof(c));
	c.title = title.buf;
	c.subtitle = sub.buf;
	c.nsteps = ns;
	c.step_labels = (const char *const *)labels;
	c.step_turn = turns;
	c.step_key = tr(w, "R reorganisering · E angrebserklæring · F fredelige flytninger · S skydninger · A angrebshandlinger",
			"R reorganisation · E attacks declared · F peaceful moves · S fire · A attacks");
	c.units = cu;
	c.nunits = nu;
	c.bands = bands;
	c.nbands = 4;
	c.strength_label = tr(w, "figurer / kanoner", "figures / guns");
	c.lost_label = tr(w, "tabt i fasen", "lost in the phase");
	c.band_label = tr(w, "moral", "morale");
	c.turn_word = tr(w, "træk", "turn");
	c.estimate_note = tr(w, "≈ anslået (fjenden)", "≈ estimated (enemy)");
	c.estimate_label = tr(w, "anslået (en fjende set)", "estimated (an enemy seen)");
	err = ord_canvas_chart(cv, &c);
	for (s = 0; s < ns; s++)
		free(labels[s]);
	for (i = 0; i < nu; i++)
		free(names[i]);
	free(labels);
	free(names);
	free(cu);
	free(strength);
	free(lost);
	free(band);
	free(turns);
	ord_buf_release(&title);
	ord_buf_release(&sub);
	return err;
}

int ks_draw(struct ord_ctx *ctx, const char *viewer, struct ord_canvas *cv,
	    const struct ord_picture *what)
{
	if (!strcmp(what->kind, "map"))
		return draw_map(ctx, viewer, cv, what);
	if (!strcmp(what->kind, "chart"))
		return ks_draw_chart(ctx, viewer, cv, what);
	return ord_error_set(ORD_ENOTFOUND, "ruleset 'krigsspil' draws no '%s'", what->kind);
}
