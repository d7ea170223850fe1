/*
 * check_canvas.c - the drawing canvas (canvas.h): the SVG it writes is a
 * document libxml2 reads back, with the layers in the order they were
 * named, every id, escaped text, numbers without locale or "-0"; mistakes
 * in a drawing are reported; the same drawing gives the same bytes; the
 * PNG librsvg renders has the colours drawn where they were drawn.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

#include "canvas.h"

static xmlDocPtr parse(const struct ord_buf *b)
{
	xmlDocPtr doc = xmlReadMemory(b->buf, (int)b->len, "canvas.svg", NULL,
				      XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);

	ck_assert_msg(doc != NULL, "the SVG does not parse:\n%s", b->buf);
	return doc;
}

/* The string value of an XPath expression (prefix s: the SVG namespace). */
static char *xpath_str(xmlDocPtr doc, const char *expr)
{
	xmlXPathContextPtr x = xmlXPathNewContext(doc);
	xmlXPathObjectPtr o;
	char *s;

	xmlXPathRegisterNs(x, BAD_CAST "s", BAD_CAST "http://www.w3.org/2000/svg");
	o = xmlXPathEvalExpression(BAD_CAST expr, x);
	ck_assert_msg(o != NULL, "xpath %s", expr);
	s = (char *)xmlXPathCastToString(o);
	xmlXPathFreeObject(o);
	xmlXPathFreeContext(x);
	return s;
}

static double xpath_num(xmlDocPtr doc, const char *expr)
{
	xmlXPathContextPtr x = xmlXPathNewContext(doc);
	xmlXPathObjectPtr o;
	double v;

	xmlXPathRegisterNs(x, BAD_CAST "s", BAD_CAST "http://www.w3.org/2000/svg");
	o = xmlXPathEvalExpression(BAD_CAST expr, x);
	ck_assert_msg(o != NULL, "xpath %s", expr);
	v = xmlXPathCastToNumber(o);
	xmlXPathFreeObject(o);
	xmlXPathFreeContext(x);
	return v;
}

static void drawing(struct ord_canvas *cv)
{
	ord_canvas_style(cv, "green", &(struct ord_style){ .fill = "#00a000" });
	ord_canvas_style(cv, "blue", &(struct ord_style){ .fill = "#0000c0", .stroke = "#000000" });
	ord_canvas_style(cv, "t", &(struct ord_style){ .fill = "#000000", .font_size = 12 });
	ord_canvas_layer(cv, "terrain");
	ord_canvas_layer(cv, "units");
	ord_canvas_layer(cv, "terrain");
	ord_canvas_begin(cv, "plate-0000", "plate", 50, 50, 0);
	ord_canvas_hex(cv, 0, 0, 40, "green");
	ord_canvas_end(cv);
	ord_canvas_layer(cv, "units");
	ord_canvas_begin(cv, "unit-A&B", "unit", 150.5, -0.001, 0);
	ord_canvas_data(cv, "side", "<red> & \"blue\"");
	ord_canvas_rect(cv, -20, 40, 40, 20, 0, "blue");
	ord_canvas_text(cv, 0, 80, "A < B & \"C\" æøå", "t");
	ord_canvas_end(cv);
}

START_TEST(test_svg_document)
{
	struct ord_canvas *cv;
	struct ord_buf b = ORD_BUF_INIT;
	xmlDocPtr doc;
	char *s;

	ord_canvas_new(&cv, 200, 120);
	ord_canvas_title(cv, "a <title>", NULL);
	drawing(cv);
	ck_assert_int_eq(ord_canvas_svg(cv, &b), 0);
	doc = parse(&b);
	/* layers in the order first named, whatever the order of drawing */
	s = xpath_str(doc, "string(/s:svg/s:g[1]/@id)");
	ck_assert_str_eq(s, "terrain");
	xmlFree(s);
	s = xpath_str(doc, "string(/s:svg/s:g[2]/@id)");
	ck_assert_str_eq(s, "units");
	xmlFree(s);
	ck_assert_int_eq((int)xpath_num(doc, "count(/s:svg/s:g)"), 2);
	/* ids, attributes and text escaped and read back exactly */
	ck_assert_int_eq((int)xpath_num(doc, "count(//s:g[@id='unit-A&B'])"), 1);
	s = xpath_str(doc, "string(//s:g[@id='unit-A&B']/@data-side)");
	ck_assert_str_eq(s, "<red> & \"blue\"");
	xmlFree(s);
	s = xpath_str(doc, "string(//s:text)");
	ck_assert_str_eq(s, "A < B & \"C\" æøå");
	xmlFree(s);
	s = xpath_str(doc, "string(/s:svg/s:title)");
	ck_assert_str_eq(s, "a <title>");
	xmlFree(s);
	/* numbers: two decimals at most, no "-0" */
	s = xpath_str(doc, "string(//s:g[@id='unit-A&B']/@transform)");
	ck_assert_str_eq(s, "translate(150.5 0)");
	xmlFree(s);
	s = xpath_str(doc, "string(/s:svg/@viewBox)");
	ck_assert_str_eq(s, "0 0 200 120");
	xmlFree(s);
	/* the styles are CSS classes */
	ck_assert_ptr_nonnull(strstr(b.buf, ".green{fill:#00a000}"));
	/* a font size in px: a browser ignores a style sheet's length without
	 * a unit and draws the text at its own size (the web page shows SVG) */
	ck_assert_ptr_nonnull(strstr(b.buf, ".t{fill:#000000;font-size:12px}"));
	xmlFreeDoc(doc);
	ord_buf_release(&b);
	ord_canvas_free(cv);
}
END_TEST

/* A name that hides a character or turns the text after it backwards (a
 * game made before new refused them: threat model, attack 41) is drawn
 * with it escaped, as the report shows it, in a text, a fitted text, a
 * tip and the title; the Danish letters and signs as they are. */
START_TEST(test_hidden_characters_shown)
{
	struct ord_canvas *cv;
	struct ord_buf b = ORD_BUF_INIT;
	xmlDocPtr doc;
	char *s;

	ord_canvas_new(&cv, 400, 120);
	ord_canvas_title(cv, "Crossroads\xe2\x80\x8b (old)", NULL);
	ord_canvas_style(cv, "t", &(struct ord_style){ .fill = "#000000", .font_size = 12 });
	ord_canvas_layer(cv, "units");
	ord_canvas_begin(cv, "unit-R3", "unit", 0, 0, 0);
	ord_canvas_text(cv, 10, 20, "\xe2\x80\xaesreissariuC deR", "t");
	ord_canvas_text_fit(cv, 10, 40, "Blue\xe2\x80\x8b Hussars", "t", 12, 300);
	ord_canvas_tip(cv, "R3 \xe2\x81\xa6x");
	ord_canvas_text(cv, 10, 60, "J\xc3\xa6gerkorps \xe2\x88\x92 1", "t");
	ord_canvas_end(cv);
	ck_assert_int_eq(ord_canvas_svg(cv, &b), 0);
	doc = parse(&b);
	s = xpath_str(doc, "string(//s:text[1])");
	ck_assert_str_eq(s, "\\u202esreissariuC deR");
	xmlFree(s);
	s = xpath_str(doc, "string(//s:text[2])");
	ck_assert_str_eq(s, "Blue\\u200b Hussars");
	xmlFree(s);
	s = xpath_str(doc, "string(//s:text[3])");
	ck_assert_str_eq(s, "J\xc3\xa6gerkorps \xe2\x88\x92 1");
	xmlFree(s);
	s = xpath_str(doc, "string(//s:g/s:title)");
	ck_assert_str_eq(s, "R3 \\u2066x");
	xmlFree(s);
	s = xpath_str(doc, "string(/s:svg/s:title)");
	ck_assert_str_eq(s, "Crossroads\\u200b (old)");
	xmlFree(s);
	ck_assert_ptr_null(strstr(b.buf, "\xe2\x80\xae"));
	ck_assert_ptr_null(strstr(b.buf, "\xe2\x80\x8b"));
	xmlFreeDoc(doc);
	ord_buf_release(&b);
	ord_canvas_free(cv);
}
END_TEST

START_TEST(test_deterministic)
{
	struct ord_canvas *a, *c;
	struct ord_buf x = ORD_BUF_INIT, y = ORD_BUF_INIT;

	ord_canvas_new(&a, 200, 120);
	ord_canvas_new(&c, 200, 120);
	drawing(a);
	drawing(c);
	ck_assert_int_eq(ord_canvas_svg(a, &x), 0);
	ck_assert_int_eq(ord_canvas_svg(c, &y), 0);
	ck_assert_uint_eq(x.len, y.len);
	ck_assert_int_eq(memcmp(x.buf, y.buf, x.len), 0);
	ord_buf_release(&x);
	ord_buf_release(&y);
	ord_canvas_free(a);
	ord_canvas_free(c);
}
END_TEST

START_TEST(test_mistakes_reported)
{
	struct ord_canvas *cv;
	struct ord_buf b = ORD_BUF_INIT;

	ord_canvas_new(&cv, 10, 10);
	ord_canvas_layer(cv, "a");
	ord_canvas_begin(cv, "x", NULL, 0, 0, 0);
	ck_assert_int_eq(ord_canvas_svg(cv, &b), ORD_ERROR);
	ck_assert_ptr_nonnull(strstr(ord_error_last(), "left open"));
	ord_canvas_end(cv);
	ord_canvas_begin(cv, "x", NULL, 0, 0, 0);
	ord_canvas_end(cv);
	ck_assert_int_eq(ord_canvas_svg(cv, &b), ORD_ERROR);
	ck_assert_ptr_nonnull(strstr(ord_error_last(), "id 'x' given twice"));
	ck_assert_uint_eq(b.len, 0);
	ord_canvas_free(cv);
	ord_buf_release(&b);
}
END_TEST

START_TEST(test_free_spot)
{
	struct ord_canvas *cv;
	double x = 10, y = 10;

	ord_canvas_new(&cv, 100, 100);
	ck_assert_int_eq(ord_canvas_free_spot(cv, &x, &y, 10, 10, 30), 1);
	ck_assert(x == 10 && y == 10);
	ord_canvas_reserve(cv, 5, 5, 20, 20);
	ck_assert_int_eq(ord_canvas_free_spot(cv, &x, &y, 10, 10, 40), 1);
	/* moved off the reserved rectangle */
	ck_assert(x + 10 <= 5 || x >= 25 || y + 10 <= 5 || y >= 25);
	x = 10, y = 10;
	ck_assert_int_eq(ord_canvas_free_spot(cv, &x, &y, 10, 10, 1), 0);
	ck_assert(x == 10 && y == 10);
	/* past the left, top or right edge is no free spot: it would be cut
	 * off (a result's label beside a unit at the table's edge was) */
	x = -30, y = 50;
	ck_assert_int_eq(ord_canvas_free_spot(cv, &x, &y, 40, 10, 60), 1);
	ck_assert(x >= 0 && x + 40 <= 100 && y >= 0);
	x = 80, y = -5;
	ck_assert_int_eq(ord_canvas_free_spot(cv, &x, &y, 15, 10, 60), 1);
	ck_assert(x >= 0 && x + 15 <= 100 && y >= 0);
	/* below is not an edge: the picture grows to its legend */
	x = 50, y = 95;
	ck_assert_int_eq(ord_canvas_free_spot(cv, &x, &y, 10, 10, 60), 1);
	ck_assert(x == 50 && y == 95);
	ord_canvas_free(cv);
}
END_TEST

/* A result's label whose place is past the picture's left edge (its line
 * at the edge of the table) is moved in, whole. */
START_TEST(test_result_label_inside)
{
	struct ord_canvas_label l;
	struct ord_canvas *cv;
	struct ord_buf b = ORD_BUF_INIT;
	const char *g;
	double x = -1, y = -1;

	ord_canvas_new(&cv, 400, 200);
	l.seq = 7;
	l.x = 15;
	l.y = 60;
	ord_buf_init(&l.t);
	ord_buf_adds(&l.t, "D1→L2 (escorting B1): won by D1 (D1 −5, L2 −60 men)");
	ord_canvas_result_labels(cv, &l, 1);
	ck_assert_int_eq(ord_canvas_svg(cv, &b), 0);
	g = strstr(b.buf, "id=\"result-7\"");
	ck_assert_ptr_nonnull(g);
	g = strstr(g, "translate(");
	ck_assert_ptr_nonnull(g);
	ck_assert_int_eq(sscanf(g, "translate(%lf %lf)", &x, &y), 2);
	ck_assert_msg(x >= 0 && x + ord_canvas_text_width(l.t.buf, 10.5) + 10 <= 400,
		      "the label at x = %g is cut off", x);
	ord_buf_release(&l.t);
	ord_buf_release(&b);
	ord_canvas_free(cv);
}
END_TEST

struct png_read {
	const unsigned char *p;
	size_t left;
};

static cairo_status_t read_png(void *closure, unsigned char *data, unsigned int len)
{
	struct png_read *r = closure;

	if (len > r->left)
		return CAIRO_STATUS_READ_ERROR;
	memcpy(data, r->p, len);
	r->p += len;
	r->left -= len;
	return CAIRO_STATUS_SUCCESS;
}

/* The colour of a pixel of a PNG as 0xRRGGBB. */
static unsigned pixel(const struct ord_buf *png, int x, int y)
{
	struct png_read r = { (const unsigned char *)png->buf, png->len };
	cairo_surface_t *s = cairo_image_surface_create_from_png_stream(read_png, &r);
	const unsigned char *d;
	uint32_t v;

	ck_assert_int_eq(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
	ck_assert_int_lt(x, cairo_image_surface_get_width(s));
	ck_assert_int_lt(y, cairo_image_surface_get_height(s));
	d = cairo_image_surface_get_data(s);
	memcpy(&v, d + y * cairo_image_surface_get_stride(s) + 4 * x, 4);
	cairo_surface_destroy(s);
	return v & 0xFFFFFF;
}

START_TEST(test_png_pixels)
{
	struct ord_canvas *cv;
	struct ord_buf svg = ORD_BUF_INIT, png = ORD_BUF_INIT, again = ORD_BUF_INIT;

	ord_canvas_new(&cv, 200, 120);
	drawing(cv);
	ck_assert_int_eq(ord_canvas_svg(cv, &svg), 0);
	ck_assert_int_eq(ord_svg_to_png(&png, svg.buf, svg.len, 2), 0);
	ck_assert_int_eq(memcmp(png.buf, "\x89PNG", 4), 0);
	/* the hexagon's centre, the rectangle, the white ground (scale 2) */
	ck_assert_uint_eq(pixel(&png, 100, 100), 0x00a000);
	ck_assert_uint_eq(pixel(&png, 300, 100), 0x0000c0);
	ck_assert_uint_eq(pixel(&png, 390, 10), 0xffffff);
	ck_assert_int_eq(ord_svg_to_png(&again, svg.buf, svg.len, 2), 0);
	ck_assert_uint_eq(png.len, again.len);
	ck_assert_int_eq(memcmp(png.buf, again.buf, png.len), 0);
	/* not an SVG */
	ord_buf_reset(&png);
	ck_assert_int_eq(ord_svg_to_png(&png, "<html/>", 7, 1), ORD_EBADDATA);
	ord_buf_release(&svg);
	ord_buf_release(&png);
	ord_buf_release(&again);
	ord_canvas_free(cv);
}
END_TEST

/* ---- the chart ---- */

/* A French unit of a test chart, of the good band only. */
static void test_unit(struct ord_chart_unit *u, const char *id, const char *label,
		      const double *strength, const double *lost, const int *band)
{
	memset(u, 0, sizeof(*u));
	u->id = id;
	u->label = label;
	u->colour = "#23407a";
	u->side = "french";
	u->strength = strength;
	u->lost = lost;
	u->band = band;
}

/* The SVG of a chart of those units over those steps, one band (good). */
static void draw_chart(struct ord_buf *svg, const struct ord_chart_unit *u, size_t nunits,
		       const char *const *labels, const int *turns, size_t nsteps)
{
	static const struct ord_chart_band b = { "good", "#dfe8d0", "G" };
	struct ord_chart c;
	struct ord_canvas *cv;

	memset(&c, 0, sizeof(c));
	c.title = "a battle";
	c.nsteps = nsteps;
	c.step_labels = labels;
	c.step_turn = turns;
	c.units = u;
	c.nunits = nunits;
	c.bands = &b;
	c.nbands = 1;
	ord_canvas_new(&cv, 100, 100);
	ck_assert_int_eq(ord_canvas_chart(cv, &c), 0);
	ck_assert_int_eq(ord_canvas_svg(cv, svg), 0);
	ord_canvas_free(cv);
}

/* A chart of one unit that falls from 24 to 13 and then to 1 (the demo's
 * F1): losses of 11 and 12, the second bar tall and the line at its foot. */
static void fallen_chart(struct ord_buf *svg, const char *const *names, size_t nnames)
{
	static const char *const steps[] = { "start", "F", "Me", "F", "Me" };
	static const int turns[] = { 0, 1, 1, 2, 2 };
	static const double strength[] = { 24, 13, 13, 1, 1 };
	static const double lost[] = { 0, 11, 0, 12, 0 };
	static const int band[] = { 0, 0, 0, 0, 0 };
	struct ord_chart_unit u[4];
	size_t i;

	ck_assert(nnames <= 4);
	for (i = 0; i < nnames; i++)
		test_unit(&u[i], i ? "F2" : "F1", names[i], strength, lost, band);
	draw_chart(svg, u, nnames, steps, turns, 5);
}

/* Does the segment (x1, y1)-(x2, y2) meet the box?  (sampled finely) */
static int crosses(double x1, double y1, double x2, double y2, double bx, double by, double bw,
		   double bh)
{
	int i;

	for (i = 0; i <= 400; i++) {
		double x = x1 + (x2 - x1) * i / 400, y = y1 + (y2 - y1) * i / 400;
		if (x > bx && x < bx + bw && y > by && y < by + bh)
			return 1;
	}
	return 0;
}

/*
 * The number of a loss stands where the strength line does not cross it
 * (the line ran through "12" at the foot of a bar when the unit fell to 1),
 * and a value stands near its point, not pushed far up over the bar: at
 * its height, beside it, where the bar it lost would be under it.
 */
START_TEST(test_chart_numbers_off_the_line)
{
	static const char *const names[] = { "1/2e Léger" };
	struct ord_buf svg = ORD_BUF_INIT;
	double pts[10], x, y, w;
	char *s, *p, expr[160];
	xmlDocPtr doc;
	int n = 0, i, k;

	fallen_chart(&svg, names, 1);
	doc = parse(&svg);
	s = xpath_str(doc, "string(//s:g[@id='unit-F1']/s:polyline/@points)");
	for (p = s; n < 5 && sscanf(p, "%lf,%lf", &pts[2 * n], &pts[2 * n + 1]) == 2; n++) {
		p = strchr(p, ' ');
		if (!p)
			break;
		p++;
	}
	xmlFree(s);
	ck_assert_int_eq(n + 1, 5);
	for (k = 1; k <= 2; k++) {
		const char *v = k == 1 ? "11" : "12";
		snprintf(expr, sizeof(expr),
			 "number(//s:text[starts-with(@class, 'lost-value')][.='%s']/@%%s)", v);
		{
			char e[200];
			snprintf(e, sizeof(e), expr, "x");
			x = xpath_num(doc, e);
			snprintf(e, sizeof(e), expr, "y");
			y = xpath_num(doc, e);
		}
		ck_assert_msg(!isnan(x) && !isnan(y), "no loss %s drawn", v);
		w = ord_canvas_text_width(v, 10);
		for (i = 0; i + 1 < 5; i++)
			ck_assert_msg(!crosses(pts[2 * i], pts[2 * i + 1], pts[2 * i + 2],
					       pts[2 * i + 3], x - w / 2, y - 7.5, w, 7.5),
				      "the line crosses the loss %s at %g,%g", v, x, y);
	}
	/* the value 1 at the fourth step: just over its point's height, beside
	 * it, right of the bar of 12 (it stood on the bar, over the point) */
	x = xpath_num(doc, "number(//s:g[@id='unit-F1']/s:text[.='1'][1]/@x)");
	y = xpath_num(doc, "number(//s:g[@id='unit-F1']/s:text[.='1'][1]/@y)");
	w = xpath_num(doc, "number(//s:g[@id='lost-F1']/s:rect[2]/@x)") +
	    xpath_num(doc, "number(//s:g[@id='lost-F1']/s:rect[2]/@width)");
	ck_assert_msg(x - ord_canvas_text_width("1", 10.5) / 2 >= w && x - pts[6] < 16 &&
			      y < pts[7] && pts[7] - y <= 8,
		      "the value 1 at %g,%g, its point at %g,%g, its bar's right edge at %g", x, y,
		      pts[6], pts[7], w);
	xmlFreeDoc(doc);
	ord_buf_release(&svg);
}
END_TEST

/* A box (x, y, w, h) of a number drawn with its baseline's middle at
 * (x, y) at font size fs: its digits' ink, from the baseline up. */
static void ink_box(double *b, const char *v, double fs, double x, double y)
{
	double w = ord_canvas_text_width(v, fs);

	b[0] = x - w / 2;
	b[1] = y - 0.72 * fs;
	b[2] = w;
	b[3] = 0.72 * fs;
}

static int ink_meets(const double *a, const double *b)
{
	return a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3];
}

/* Does the circle (cx, cy, r) reach into box b? */
static int dot_meets(double cx, double cy, double r, const double *b)
{
	double dx = fmax(fmax(b[0] - cx, 0), cx - (b[0] + b[2]));
	double dy = fmax(fmax(b[1] - cy, 0), cy - (b[1] + b[3]));

	return dx * dx + dy * dy < r * r;
}

struct drawn {
	double box[4];
	char v[16];
};

/* Every node of an XPath expression's node set: its attribute or text. */
static size_t nodes(xmlDocPtr doc, const char *expr, const char *const *attrs, size_t nattrs,
		    double (*out)[4], char (*text)[16], size_t max)
{
	xmlXPathContextPtr x = xmlXPathNewContext(doc);
	xmlXPathObjectPtr o;
	size_t i, j, n = 0;

	xmlXPathRegisterNs(x, BAD_CAST "s", BAD_CAST "http://www.w3.org/2000/svg");
	o = xmlXPathEvalExpression(BAD_CAST expr, x);
	ck_assert_msg(o != NULL, "xpath %s", expr);
	for (i = 0; o->nodesetval && i < (size_t)o->nodesetval->nodeNr && n < max; i++, n++) {
		xmlNodePtr nd = o->nodesetval->nodeTab[i];
		for (j = 0; j < nattrs; j++) {
			xmlChar *a = xmlGetProp(nd, BAD_CAST attrs[j]);
			out[n][j] = a ? atof((const char *)a) : NAN;
			xmlFree(a);
		}
		if (text) {
			xmlChar *t = xmlNodeGetContent(nd);
			snprintf(text[n], 16, "%s", t ? (const char *)t : "");
			xmlFree(t);
		}
	}
	xmlXPathFreeObject(o);
	xmlXPathFreeContext(x);
	return n;
}
/* A chart of n units with the histories an LCG gives from seed: each
 * starts at 4 to 30, and in each step may lose a little, much, or all but
 * one or two (a unit that falls to almost nothing). */
static void random_chart(struct ord_buf *svg, unsigned seed, size_t nunits, size_t nsteps)
{
	static char ids[8][8];
	static const char *labels[17];
	static int turns[17], band[17];
	static double strength[8][17], lost[8][17];
	struct ord_chart_unit u[8];
	size_t i, s;

	ck_assert(nunits <= 8 && nsteps <= 17);
	for (s = 0; s < nsteps; s++) {
		labels[s] = s ? "F" : "start";
		turns[s] = (int)(s + 3) / 4;
		band[s] = 0;
	}
	for (i = 0; i < nunits; i++) {
		double f;
		seed = seed * 1103515245u + 12345u;
		f = 4 + (seed >> 16) % 27;
		for (s = 0; s < nsteps; s++) {
			unsigned r;
			double l = 0;
			seed = seed * 1103515245u + 12345u;
			r = (seed >> 16) % 100;
			if (s && f > 0) {
				if (r < 15)
					l = f - (double)((seed >> 8) % 3); /* to almost nothing */
				else if (r < 40)
					l = 1 + (double)((seed >> 9) % 5);
				if (l > f)
					l = f;
				if (l < 0)
					l = 0;
			}
			f -= l;
			strength[i][s] = f;
			lost[i][s] = l;
		}
		snprintf(ids[i], sizeof(ids[i]), "U%zu", i);
		test_unit(&u[i], ids[i], ids[i], strength[i], lost[i], band);
	}
	draw_chart(svg, u, nunits, labels, turns, nsteps);
}

/*
 * What the numbers of unit id's panel stand on: a loss's number on a point
 * of the strength line, a value, another loss or the bar of another step;
 * a value on a point, another value or a loss bar (a unit fallen to almost
 * nothing had its value at the foot of the bar it lost, on the bar).  The
 * count; the first, in first.
 */
static size_t clashes(xmlDocPtr doc, const char *id, char *first, size_t nfirst)
{
	static const char *const xy[] = { "x", "y" }, *const circle[] = { "cx", "cy", "r" };
	static const char *const rect[] = { "x", "y", "width", "height" };
	double dots[32][4], val[32][4], lst[32][4], vb[32][4], lb[32][4], bars[32][4];
	char vt[32][16], lt[32][16], expr[160];
	size_t nd, nv, nl, nb, j, k, bad = 0;

	snprintf(expr, sizeof(expr), "//s:g[@id='unit-%s']/s:circle", id);
	nd = nodes(doc, expr, circle, 3, dots, NULL, 32);
	snprintf(expr, sizeof(expr), "//s:g[@id='unit-%s']/s:text", id);
	nv = nodes(doc, expr, xy, 2, val, vt, 32);
	snprintf(expr, sizeof(expr), "//s:g[@id='lost-values-%s']/s:text", id);
	nl = nodes(doc, expr, xy, 2, lst, lt, 32);
	snprintf(expr, sizeof(expr), "//s:g[@id='lost-%s']/s:rect", id);
	nb = nodes(doc, expr, rect, 4, bars, NULL, 32);
	for (j = 0; j < nv; j++)
		ink_box(vb[j], vt[j], 10.5, val[j][0], val[j][1]);
	for (j = 0; j < nl; j++)
		ink_box(lb[j], lt[j], 10, lst[j][0], lst[j][1]);
	for (j = 0; j < nl; j++) {
		const char *why = NULL;
		size_t own = 0;
		/* its own bar: the nearest (it stands in it, over it or beside it) */
		for (k = 1; k < nb; k++)
			if (fabs(bars[k][0] + bars[k][2] / 2 - lst[j][0]) <
			    fabs(bars[own][0] + bars[own][2] / 2 - lst[j][0]))
				own = k;
		for (k = 0; !why && k < nd; k++)
			if (dot_meets(dots[k][0], dots[k][1], dots[k][2], lb[j]))
				why = "a point";
		for (k = 0; !why && k < nv; k++)
			if (ink_meets(vb[k], lb[j]))
				why = "a value";
		for (k = 0; !why && k < nl; k++)
			if (k != j && ink_meets(lb[k], lb[j]))
				why = "another loss";
		for (k = 0; !why && k < nb; k++)
			if (k != own && ink_meets(bars[k], lb[j]))
				why = "the bar of another step";
		if (why && !bad++)
			snprintf(first, nfirst, "%s: the loss %s at %g,%g is on %s", id, lt[j],
				 lst[j][0], lst[j][1], why);
	}
	for (j = 0; j < nv; j++) {
		const char *why = NULL;
		for (k = 0; !why && k < nd; k++)
			if (dot_meets(dots[k][0], dots[k][1], dots[k][2], vb[j]))
				why = "a point";
		for (k = 0; !why && k < nv; k++)
			if (k != j && ink_meets(vb[k], vb[j]))
				why = "another value";
		for (k = 0; !why && k < nb; k++)
			if (ink_meets(bars[k], vb[j]))
				why = "a loss bar";
		if (why && !bad++)
			snprintf(first, nfirst, "%s: the value %s at %g,%g is on %s", id, vt[j],
				 val[j][0], val[j][1], why);
	}
	return bad;
}

/*
 * The numbers of a chart stand apart: a loss's number is on no point of
 * the strength line (it stood on the point of a unit fallen to almost
 * nothing), nor on a value, another loss or another step's bar, and a
 * value on no point, other value or loss bar; over many units that fall,
 * a little, much or to almost nothing.
 */
START_TEST(test_chart_numbers_apart)
{
	size_t chart, i, bad = 0, nlost_all = 0;
	char first[256] = "", one[200];

	for (chart = 0; chart < 40; chart++) {
		struct ord_buf svg = ORD_BUF_INIT;
		xmlDocPtr doc;

		random_chart(&svg, 7919u * (unsigned)chart + 1, 8, 17);
		doc = parse(&svg);
		nlost_all += (size_t)xpath_num(doc, "count(//s:text[starts-with(@class, "
						    "'lost-value')])");
		for (i = 0; i < 8; i++) {
			char id[8];
			size_t n;
			snprintf(id, sizeof(id), "U%zu", i);
			n = clashes(doc, id, one, sizeof(one));
			if (n && !bad)
				snprintf(first, sizeof(first), "chart %zu, %s", chart, one);
			bad += n;
		}
		xmlFreeDoc(doc);
		ord_buf_release(&svg);
	}
	ck_assert_msg(nlost_all > 500, "only %zu losses drawn", nlost_all);
	ck_assert_msg(!bad, "%zu numbers on others; the first: %s", bad, first);
}
END_TEST

/*
 * The demo's French battalions at Quatre Bras, three turns of five phases:
 * F1 loses 11 and then 12 of its 13 in turn 2's fire, F2 19 of its 20 and
 * its last in the melee, F3 18 of 24 and then 4.  Each value stands off
 * the bar its unit lost in that phase ("1" stood on F1's bar of 12, at its
 * foot, by its point), near its point, and no number of a panel stands on
 * another, on a point or on another step's bar.
 */
START_TEST(test_chart_demo_numbers_apart)
{
	static const char *const steps[] = { "start", "M",  "F",  "FM", "Me", "MM", "M",  "F",
					     "FM",    "Me", "MM", "M",  "F",  "FM", "Me", "MM" };
	static const int turns[] = { 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3 };
	static const double f1[] = { 24, 24, 13, 13, 13, 13, 13, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	static const double f1_lost[16] = { [2] = 11, [7] = 12 };
	static const double f2[] = { 24, 24, 20, 20, 20, 20, 20, 1, 0, 0, 0, 0, 0, 0, 0, 0 };
	static const double f2_lost[16] = { [2] = 4, [7] = 19, [8] = 1 };
	static const double f3[] = { 24, 24, 24, 24, 24, 24, 24, 6, 6, 2, 2, 2, 2, 2, 2, 2 };
	static const double f3_lost[16] = { [7] = 18, [9] = 4 };
	static const int band[16] = { 0 };
	static const char *const ids[] = { "F1", "F2", "F3" };
	struct ord_chart_unit u[3];
	struct ord_buf svg = ORD_BUF_INIT;
	char first[200];
	xmlDocPtr doc;
	size_t i, n;

	test_unit(&u[0], "F1", "1/2e Léger, light infantry", f1, f1_lost, band);
	test_unit(&u[1], "F2", "1/61e Ligne, line infantry", f2, f2_lost, band);
	test_unit(&u[2], "F3", "1/72e Ligne, line infantry", f3, f3_lost, band);
	draw_chart(&svg, u, 3, steps, turns, 16);
	doc = parse(&svg);
	for (i = 0; i < 3; i++) {
		n = clashes(doc, ids[i], first, sizeof(first));
		ck_assert_msg(!n, "%zu numbers on others; the first: %s", n, first);
	}
	/* F1's "1" after the fire of turn 2: within a step of its point */
	{
		double px = xpath_num(doc, "number(//s:g[@id='unit-F1']/s:circle[8]/@cx)");
		double py = xpath_num(doc, "number(//s:g[@id='unit-F1']/s:circle[8]/@cy)");
		double x = xpath_num(doc, "number(//s:g[@id='unit-F1']/s:text[.='1'][1]/@x)");
		double y = xpath_num(doc, "number(//s:g[@id='unit-F1']/s:text[.='1'][1]/@y)");
		ck_assert_msg(fabs(x - px) <= 26 && y < py && py - y <= 16,
			      "F1's value 1 at %g,%g, its point at %g,%g", x, y, px, py);
	}
	xmlFreeDoc(doc);
	ord_buf_release(&svg);
}
END_TEST

/*
 * A unit's name too long for one line is written on two, whole (it was
 * cut: "Kosakker Tettenborn 2. Sot…"), each line within the label's width;
 * only a name too long for two lines is cut.
 */
START_TEST(test_chart_long_names)
{
	static const char *const names[] = { "Kosakker Tettenborn 2. Sotnie, irregular cavalry",
					     "1/2e Léger" };
	struct ord_buf svg = ORD_BUF_INIT;
	xmlDocPtr doc;
	char *a, *b;

	fallen_chart(&svg, names, 2);
	doc = parse(&svg);
	ck_assert_int_eq(xpath_num(doc, "count(//s:text[@class='unit-sub'])"), 3);
	a = xpath_str(doc, "string(//s:text[@class='unit-sub'][1])");
	b = xpath_str(doc, "string(//s:text[@class='unit-sub'][2])");
	{
		char whole[200];
		snprintf(whole, sizeof(whole), "%s %s", a, b);
		ck_assert_str_eq(whole, names[0]);
	}
	ck_assert(ord_canvas_text_width(a, 11) <= 178);
	ck_assert(ord_canvas_text_width(b, 11) <= 178);
	ck_assert_double_eq(xpath_num(doc, "number(//s:text[@class='unit-sub'][2]/@y)") -
				    xpath_num(doc, "number(//s:text[@class='unit-sub'][1]/@y)"),
			    14);
	xmlFree(a);
	xmlFree(b);
	xmlFreeDoc(doc);
	ord_buf_release(&svg);
}
END_TEST

/* A title too wide for its picture is drawn smaller, and cut short with
 * "…" only below 3/5 of its size; one that fits is left as it is. */
START_TEST(test_text_fit)
{
	static const char *const longer = "The Ridge at Hougoumont Farm (club night) — turn 1, after movement";
	struct ord_canvas *cv;
	struct ord_buf b = ORD_BUF_INIT;
	xmlDocPtr doc;
	char *s;
	double fs;

	ord_canvas_new(&cv, 700, 200);
	ord_canvas_text_fit(cv, 10, 30, "short", "title", 20, 680);
	ord_canvas_text_fit(cv, 10, 60, longer, "title", 20, 680);
	ord_canvas_text_fit(cv, 10, 90, longer, "title", 20, 300);
	ck_assert_int_eq(ord_canvas_svg(cv, &b), 0);
	doc = parse(&b);
	/* fits: no size of its own, every letter */
	s = xpath_str(doc, "string(//s:text[1]/@style)");
	ck_assert_str_eq(s, "");
	xmlFree(s);
	/* smaller, whole, within the width */
	s = xpath_str(doc, "string(//s:text[2])");
	ck_assert_str_eq(s, longer);
	xmlFree(s);
	s = xpath_str(doc, "string(//s:text[2]/@style)");
	ck_assert(sscanf(s, "font-size:%lfpx", &fs) == 1);
	ck_assert(fs < 20 && fs >= 12);
	ck_assert(ord_canvas_text_width(longer, fs) <= 680);
	xmlFree(s);
	/* too long for 3/5 of the size: cut short on a whole letter */
	s = xpath_str(doc, "string(//s:text[3])");
	ck_assert(strlen(s) < strlen(longer));
	ck_assert(!strcmp(s + strlen(s) - strlen("…"), "…"));
	ck_assert(ord_canvas_text_width(s, 12) <= 300);
	xmlFree(s);
	s = xpath_str(doc, "string(//s:text[3]/@style)");
	ck_assert_str_eq(s, "font-size:12.0px");
	xmlFree(s);
	xmlFreeDoc(doc);
	ord_buf_release(&b);
	ord_canvas_free(cv);
}
END_TEST

Suite *ord_test_suite(void)
{
	Suite *s = suite_create("canvas");
	TCase *tc = tcase_create("canvas");

	tcase_add_test(tc, test_svg_document);
	tcase_add_test(tc, test_hidden_characters_shown);
	tcase_add_test(tc, test_deterministic);
	tcase_add_test(tc, test_mistakes_reported);
	tcase_add_test(tc, test_free_spot);
	tcase_add_test(tc, test_result_label_inside);
	tcase_add_test(tc, test_png_pixels);
	tcase_add_test(tc, test_chart_numbers_off_the_line);
	tcase_add_test(tc, test_chart_long_names);
	tcase_add_test(tc, test_chart_numbers_apart);
	tcase_add_test(tc, test_chart_demo_numbers_apart);
	tcase_add_test(tc, test_text_fit);
	suite_add_tcase(s, tc);
	return s;
}
