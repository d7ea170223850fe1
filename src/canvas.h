/*
 * canvas.h - the drawing canvas a ruleset draws its pictures on (the map
 * of the table, the story of a battle), and the SVG and PNG it becomes.
 *
 * A picture is a real document: the canvas keeps what is drawn as a tree
 * of SVG elements in named layers (<g id="terrain">, "features", "labels",
 * "units", "orders", "results", "legend"...), each object in a group with
 * an id of its own ("plate-0305", "unit-D1") and a transform that places
 * it; text is <text>, so it can be searched and selected.  Styles are CSS
 * classes written once in a <style> element.  The document is written with
 * libxml2's xmlTextWriter (which escapes every text and attribute) and is
 * deterministic: the same drawing gives the same bytes (numbers are
 * written with two decimals at most, in no locale).  PNG comes from
 * librsvg rendering that SVG (ord_svg_to_png).
 *
 * Coordinates are SVG user units (px at 96 dpi), x to the right, y down.
 *
 * Ownership: ord_canvas_new returns a canvas freed with ord_canvas_free;
 * every string handed to a drawing call is copied.  Drawing never fails
 * (allocation failure aborts, as everywhere in liborderly); a mistake in
 * the drawing (a group never ended, an id given twice) is reported when
 * the SVG is written.
 */
#ifndef ORD_CANVAS_H
#define ORD_CANVAS_H

#include <stddef.h>

#include "orderly.h"

struct ord_canvas;

/* A CSS class: what a shape drawn with it looks like.  Zero/NULL fields
 * are left out of the rule (SVG's defaults apply). */
struct ord_style {
	const char *fill;     /* "#c8d8a0", "none" */
	const char *stroke;   /* outline colour */
	double stroke_width;  /* user units */
	const char *dash;     /* stroke-dasharray: "6 3" */
	double opacity;       /* of fill and stroke; 0: not given (opaque) */
	double font_size;     /* text, user units */
	const char *font;     /* font-family; NULL: the canvas's (DejaVu Sans) */
	int bold;             /* 1: font-weight bold */
	int italic;           /* 1: font-style italic */
	const char *anchor;   /* text-anchor: start | middle | end */
	const char *halo;     /* text: an outline of this colour behind the letters */
	double halo_width;    /* its width (0: 3) */
	const char *linecap;  /* stroke-linecap: round | butt | square */
	const char *linejoin; /* stroke-linejoin: round | miter | bevel */
};

int ord_canvas_new(struct ord_canvas **out, double width, double height);
void ord_canvas_free(struct ord_canvas *cv);
double ord_canvas_width(const struct ord_canvas *cv);
double ord_canvas_height(const struct ord_canvas *cv);
/* Change the size (a drawing that learns its extent as it goes). */
void ord_canvas_resize(struct ord_canvas *cv, double width, double height);
/* The document's <title> and <desc> (NULL: none). */
void ord_canvas_title(struct ord_canvas *cv, const char *title, const char *desc);
/* Define (or redefine) class cls: a rule ".cls { ... }" in the <style>. */
void ord_canvas_style(struct ord_canvas *cv, const char *cls, const struct ord_style *st);

/* Draw into layer name from now on: <g id="name" class="layer">; layers
 * are written in the order they were first named, whatever the order of
 * drawing. */
void ord_canvas_layer(struct ord_canvas *cv, const char *name);
/* Open a group (id and cls may be NULL) placed at (x, y) and turned by rot
 * degrees clockwise: what is drawn until ord_canvas_end is relative to it. */
void ord_canvas_begin(struct ord_canvas *cv, const char *id, const char *cls, double x, double y,
		      double rot);
void ord_canvas_end(struct ord_canvas *cv);
/* An attribute data-KEY="value" on the open group (machine-readable facts
 * for tests and scripts: data-x="75" data-side="danske"). */
void ord_canvas_data(struct ord_canvas *cv, const char *key, const char *value);
/* A <title> in the open group: the tooltip a viewer shows over it. */
void ord_canvas_tip(struct ord_canvas *cv, const char *text);

/* ---- shapes (cls may be NULL) ---- */

/* A pointy-topped hexagon of circumradius r centred on (cx, cy). */
void ord_canvas_hex(struct ord_canvas *cv, double cx, double cy, double r, const char *cls);
/* xy holds n points (2n numbers). */
void ord_canvas_polygon(struct ord_canvas *cv, const double *xy, size_t n, const char *cls);
void ord_canvas_polyline(struct ord_canvas *cv, const double *xy, size_t n, const char *cls);
void ord_canvas_rect(struct ord_canvas *cv, double x, double y, double w, double h, double rx,
		     const char *cls);
void ord_canvas_circle(struct ord_canvas *cv, double cx, double cy, double r, const char *cls);
void ord_canvas_line(struct ord_canvas *cv, double x1, double y1, double x2, double y2,
		     const char *cls);
/* A line from (x1, y1) to (x2, y2) ending in a filled head head long; the
 * head is drawn with class head_cls (NULL: cls). */
void ord_canvas_arrow(struct ord_canvas *cv, double x1, double y1, double x2, double y2,
		      double head, const char *cls, const char *head_cls);
/* As ord_canvas_arrow, then the head reserved (ord_canvas_reserve), so
 * that a label placed later (a result's) stays off the head, which tells
 * which way the arrow goes.  Canvas coordinates: draw it in a group at
 * the origin. */
void ord_canvas_arrow_kept(struct ord_canvas *cv, double x1, double y1, double x2, double y2,
			   double head, const char *cls, const char *head_cls);
/* Text (UTF-8) with its baseline at y. */
void ord_canvas_text(struct ord_canvas *cv, double x, double y, const char *text, const char *cls);

/* ord_canvas_text in at most max_w: a text wider than that at font_size
 * (its class's) is drawn smaller, down to 3/5 of it, and then cut short
 * with "…" (a title of a club's own length on a picture of the table's). */
void ord_canvas_text_fit(struct ord_canvas *cv, double x, double y, const char *text,
			 const char *cls, double font_size, double max_w);

/* ---- layout helpers ---- */

/* About how wide text is at font size (DejaVu Sans; for placing, not exact). */
double ord_canvas_text_width(const char *text, double font_size);
/* Mark a rectangle as taken (canvas coordinates). */
void ord_canvas_reserve(struct ord_canvas *cv, double x, double y, double w, double h);
/* ord_canvas_reserve, the rectangle marked as unit owner's (> 0: its block,
 * its position), which ord_canvas_label_spot keeps the other units'
 * labels plainly off. */
void ord_canvas_reserve_owned(struct ord_canvas *cv, double x, double y, double w, double h,
			      unsigned owner);
/*
 * Where a unit's w x h label goes so that no reader takes it for another
 * unit's: beside, under or over its block (ox, oy, ow, oh; reserved with
 * owner), on a free place within a few units of it, where every rectangle
 * another owner reserved is farther off than its own block.  Returns 1
 * with *x, *y there; else (a crowd) 0 with *x, *y at the nearest free
 * place (as ord_canvas_free_spot, within 400), where the caller joins the
 * label to its block with a line.  The place is not reserved.
 * Deterministic.
 */
int ord_canvas_label_spot(const struct ord_canvas *cv, double *x, double *y, double w, double h,
			  unsigned owner, double ox, double oy, double ow, double oh);
/* Find a place for a w x h rectangle whose top-left corner is as near as
 * possible to (*x, *y), at most max_dist away, overlapping nothing
 * reserved; on success *x, *y are moved there and 1 is returned (the place
 * is not reserved), else they are left and 0 is returned.  Deterministic. */
int ord_canvas_free_spot(const struct ord_canvas *cv, double *x, double *y, double w, double h,
			 double max_dist);

/* A result's label, kept until every line (and unit) is drawn. */
struct ord_canvas_label {
	unsigned seq;     /* the event's: the label's id is result-SEQ */
	double x, y;      /* where it would stand: beside the middle of its line */
	struct ord_buf t; /* "A1→F1: −8 fig." */
};
/* The results' labels in a layer "result-labels" of their own, over every
 * line (a line drawn later ran through an earlier label's words), each at
 * the free spot nearest its place and kept 2 units clear of the others so
 * that two boxes never read as one (classes result-label, result-box,
 * result).  The labels' texts stay the caller's. */
void ord_canvas_result_labels(struct ord_canvas *cv, const struct ord_canvas_label *l, size_t n);

/* ---- output ---- */

/* The SVG document.  ORD_ERROR when a group was left open or an id was
 * given twice (a mistake in the drawing), naming it. */
int ord_canvas_svg(const struct ord_canvas *cv, struct ord_buf *out);
/*
 * Render an SVG document as a PNG with librsvg, at scale times its size
 * (scale <= 0: 1).  ORD_EBADDATA when librsvg cannot read the document,
 * ORD_ERROR when the picture would be over 100 megapixels or cannot be
 * encoded.
 */
int ord_svg_to_png(struct ord_buf *out, const char *svg, size_t len, double scale);

/*
 * png.c is a shared object of its own, orderly-png.so, which the orderly
 * binary loads when it first makes a PNG (src/cli/plugins.c): librsvg and
 * cairo bring some forty libraries that a process which never draws should
 * not load.  Its one entry gives the table; abi is ORD_PNG_ABI, build the
 * build's ORD_BUILD_ID (CMakeLists.txt), which the binary's must equal.
 */
#define ORD_PNG_ABI 2
struct ord_png {
	unsigned abi;
	const char *build;
	int (*svg_to_png)(struct ord_buf *out, const char *svg, size_t len, double scale);
};
const struct ord_png *ord_png_plugin(void);

/* ---- the story of a battle: a chart of strength over time ---- */

/* A unit's line in a chart (ord_canvas_chart). */
struct ord_chart_unit {
	const char *id;     /* "F1": its group gets id "unit-F1" */
	const char *label;  /* "F1 1/45th Line" */
	const char *colour; /* its side's colour */
	const char *side;   /* for data-side */
	/* per step (nsteps values each): */
	const double *strength; /* < 0: unknown at that step (not seen) */
	const double *lost;     /* lost in that step (bars), < 0 or 0: none shown */
	const int *band;        /* morale band index per step, < 0: unknown */
	int approximate;        /* 1: strength is an estimate (the enemy's, dashed) */
};
struct ord_chart_band {
	const char *name;   /* "steady" */
	const char *colour; /* its fill */
	const char *mark;   /* a letter or two drawn in the band (greyscale-safe): "S" */
};
struct ord_chart {
	const char *title;    /* first title line */
	const char *subtitle; /* second line, or NULL */
	size_t nsteps;
	const char *const *step_labels; /* per step: "1 fire", or "start" */
	const int *step_turn;           /* per step: the turn (steps of a turn are grouped) */
	const char *step_key; /* what the step labels mean ("M movement, F fire"), or NULL */
	const struct ord_chart_unit *units;
	size_t nunits;
	const struct ord_chart_band *bands;
	size_t nbands;
	const char *strength_label; /* "figures" */
	const char *lost_label;     /* "lost in the phase" */
	const char *band_label;     /* "morale" */
	/* the chart's own words in the picture's language (NULL: English) */
	const char *turn_word;      /* "turn": "turn 2" over its steps */
	const char *estimate_note;  /* under an enemy's name: "≈ estimated (enemy)" */
	const char *estimate_label; /* the legend's dashed line: "estimated (an enemy seen)" */
};
/* Draw the chart on cv, an empty canvas, resized to fit the data: one
 * panel per unit with its strength line, its losses as bars and its morale
 * as a band of colours and marks; a legend.  ORD_ESTATE with no steps. */
int ord_canvas_chart(struct ord_canvas *cv, const struct ord_chart *c);

#endif
