/*
 * check_pictures.c - the pictures of a game (ord_game_map, ord_game_chart)
 * checked as data: a turn of the Krigsspil example (map.xml, scenario.xml,
 * the demo's sheets and events) and of the battalion example are played
 * through the library, then
 *  - the map's SVG parses and holds its layers and an id per plate and unit;
 *  - every unit stands where the game says: its group's transform is one
 *    and the same linear map of its x, y in cm as the plates' centres;
 *  - the PNG librsvg renders has the terrain's colour at the centre of
 *    sample plates and the side's colour at sample units (pixel probes);
 *  - the fog of war: a unit the side must not see (a canary that moved
 *    alone, and one never named) is absent from the side's SVG and present
 *    in the referee's, and the side's map shows exactly the enemy units
 *    its report lists; an enemy unit is drawn with no path (no move made,
 *    no order from where it stood before it was met), on no map of a phase
 *    before it was met, nor in the chart's steps before, and an event not
 *    resolved meets nobody; an enemy's fire on a side's unit is labelled
 *    with the loss its report gives;
 *  - the same game gives the same bytes, SVG and PNG;
 *  - the battalion chart has a panel per unit the side may see, and each
 *    enemy unit in it with the strength the side's report gives it.
 */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cairo.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

#include "canvas.h"
#include "svg_fixture.h"

#define KS_EX ORD_SOURCE_DIR "/rulesets/krigsspil/examples/"
#define BAT_EX ORD_SOURCE_DIR "/rulesets/battalion/examples/"

static char dir[1024];
static char path[1200];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "%s/check_pictures.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/game.orderly", dir);
}

static void teardown(void)
{
	static const char *const names[] = { "game.orderly", "game.orderly-wal", "game.orderly-shm" };
	char p[1300];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		unlink(p);
	}
	rmdir(dir);
}

static char *slurp(const char *file)
{
	FILE *f = fopen(file, "rb");
	char *b;
	long n;

	ck_assert_msg(f != NULL, "cannot open %s", file);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	b = calloc(1, (size_t)n + 1);
	ck_assert_int_eq(fread(b, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return b;
}

static void submit_file(ord_game *g, const char *side, const char *file)
{
	struct ord_receipt r;
	struct ord_diag d;
	char *s = slurp(file);
	int rc;

	ord_diag_init(&d);
	rc = ord_game_submit(g, &r, side, s, strlen(s), &d);
	ck_assert_msg(rc == 0, "submit %s: %s", file, ord_error_last());
	ord_diag_release(&d);
	free(s);
}

/* Record an event given as one "kind k=v k=v" string. */
static void event(ord_game *g, const char *line)
{
	char buf[512], *argv[16], *kind, *save = NULL;
	struct ord_diag d;
	int argc = 0, rc;

	snprintf(buf, sizeof(buf), "%s", line);
	kind = strtok_r(buf, " ", &save);
	while (argc < 16 && (argv[argc] = strtok_r(NULL, " ", &save)) != NULL)
		argc++;
	ord_diag_init(&d);
	rc = ord_game_event(g, kind, argc, argv, NULL, &d);
	ck_assert_msg(rc == 0, "event %s: %d %s %s", line, rc, ord_error_last(),
		      d.n ? d.items[0].msg : "");
	ord_diag_release(&d);
}

/* The current phase, named: the pictures' games leave phases empty on
 * purpose (resolve --phase --empty), whatever orders wait. */
static void resolve(ord_game *g)
{
	struct ord_buf out = ORD_BUF_INIT;
	struct ord_game_status st;
	int rc;

	ck_assert_int_eq(ord_game_status(g, &st), 0);
	{
		struct ord_resolve_opts o = { .phase = st.phase, .empty = 1 };
		rc = ord_game_resolve_opts(g, &o, &out);
	}

	ck_assert_msg(rc == 0, "resolve: %s", ord_error_last());
	ord_buf_release(&out);
}

/* Turn 1 of the Krigsspil demo (examples/demo/play) up to its fire
 * (skydninger) resolved: 4 of 5 phases. */
static ord_game *krigsspil_game_fire(void)
{
	struct ord_create_opts o;
	ord_game *g = NULL;

	memset(&o, 0, sizeof(o));
	o.tables_path = KS_EX "map.xml";
	ck_assert_msg(ord_game_create(&g, path, KS_EX "scenario.xml", &o) == 0, "create: %s",
		      ord_error_last());
	submit_file(g, "danske", KS_EX "demo/turn1-danske.txt");
	submit_file(g, "allierede", KS_EX "demo/turn1-allierede.txt");
	ck_assert_int_eq(ord_game_seal(g, 0), 0);
	resolve(g);
	resolve(g);
	event(g, "flyt unit=D3 x=90 y=68");
	event(g, "formation unit=D8 formation=karre");
	event(g, "flyt unit=L2 x=90 y=88");
	event(g, "formation unit=L1 formation=angrebskolonne");
	event(g, "flyt unit=L5 x=190 y=80"); /* the canary: moved alone, named by nothing else */
	resolve(g);
	event(g, "skyd unit=D3 maal=L2 zone=II halv=yes");
	event(g, "skyd unit=L2 maal=D3 zone=II halv=yes");
	event(g, "artilleri unit=A1 maal=L2 afstand=88");
	event(g, "artilleri unit=A3 maal=L1 afstand=104");
	event(g, "artilleri unit=L9 maal=D8 afstand=104");
	resolve(g);
	return g;
}

/* Turn 1 of the Krigsspil demo, exchanged. */
static ord_game *krigsspil_game(void)
{
	ord_game *g = krigsspil_game_fire();

	resolve(g);
	ck_assert_int_eq(ord_game_exchange(g), 0);
	return g;
}

static xmlDocPtr parse(const struct ord_buf *b)
{
	xmlDocPtr doc = xmlReadMemory(b->buf, (int)b->len, "map.svg", NULL,
				      XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);

	ck_assert_msg(doc != NULL, "the SVG does not parse");
	return doc;
}

static xmlXPathObjectPtr xpath(xmlDocPtr doc, const char *expr)
{
	xmlXPathContextPtr x = xmlXPathNewContext(doc);
	xmlXPathObjectPtr o;

	xmlXPathRegisterNs(x, BAD_CAST "s", BAD_CAST "http://www.w3.org/2000/svg");
	o = xmlXPathEvalExpression(BAD_CAST expr, x);
	xmlXPathFreeContext(x);
	ck_assert_msg(o != NULL, "xpath %s", expr);
	return o;
}

static int count(xmlDocPtr doc, const char *fmt, ...)
{
	char expr[512];
	va_list ap;
	xmlXPathObjectPtr o;
	int n;

	va_start(ap, fmt);
	vsnprintf(expr, sizeof(expr), fmt, ap);
	va_end(ap);
	o = xpath(doc, expr);
	n = (int)xmlXPathCastToNumber(o);
	xmlXPathFreeObject(o);
	return n;
}

/* The translation of the group with id (both 0 when it has none). */
static void translate_of(xmlDocPtr doc, const char *id, double *x, double *y)
{
	char expr[256];
	xmlXPathObjectPtr o;
	char *s;

	snprintf(expr, sizeof(expr), "string(//s:g[@id='%s']/@transform)", id);
	o = xpath(doc, expr);
	s = (char *)xmlXPathCastToString(o);
	*x = *y = 0;
	ck_assert_msg(sscanf(s, "translate(%lf %lf)", x, y) == 2, "%s: transform '%s'", id, s);
	xmlFree(s);
	xmlXPathFreeObject(o);
}

static double attr_num(xmlDocPtr doc, const char *id, const char *attr)
{
	char expr[256];
	xmlXPathObjectPtr o;
	double v;

	snprintf(expr, sizeof(expr), "number(//s:g[@id='%s']/@%s)", id, attr);
	o = xpath(doc, expr);
	v = xmlXPathCastToNumber(o);
	xmlXPathFreeObject(o);
	return v;
}

/* ---- what a reader must be able to read: boxes of the map's texts ---- */

struct box {
	double x, y, w, h; /* canvas coordinates */
	char what[96];     /* for the failure message */
	double cx, cy;     /* a unit label's: its block's centre (0, 0: none) */
	int leader;        /* a unit label's: a line joins it to its block */
};

/* The sum of the translations of node's ancestors (and its own). */
static void origin_of(xmlNodePtr n, double *x, double *y)
{
	*x = *y = 0;
	for (; n && n->type == XML_ELEMENT_NODE; n = n->parent) {
		xmlChar *t = xmlGetProp(n, BAD_CAST "transform");
		double tx, ty;
		if (t && sscanf((const char *)t, "translate(%lf %lf)", &tx, &ty) == 2) {
			*x += tx;
			*y += ty;
		}
		xmlFree(t);
	}
}

static xmlNodePtr child_of_class(xmlNodePtr n, const char *cls)
{
	for (n = n ? n->children : NULL; n; n = n->next)
		if (n->type == XML_ELEMENT_NODE && has_class(n, cls))
			return n;
	return NULL;
}

/*
 * The boxes of the map's labels: each unit's label (its label-box), each
 * result's box, and the plates' numbers, names and heights (their text's
 * width as the canvas reckons it).  Returns how many (at most max).
 */
static size_t map_boxes(xmlDocPtr doc, struct box *b, size_t max)
{
	xmlXPathObjectPtr o;
	size_t n = 0;
	int i;

	o = xpath(doc, "//s:g[@class='unit']/s:g[@class='label']");
	for (i = 0; o->nodesetval && i < o->nodesetval->nodeNr && n < max; i++) {
		xmlNodePtr g = o->nodesetval->nodeTab[i], r = child_of_class(g, "label-box"), k;
		xmlChar *id = xmlGetProp(g->parent, BAD_CAST "id");
		double ox, oy;
		ck_assert_ptr_nonnull(r);
		origin_of(g, &ox, &oy);
		b[n].x = ox + prop_num(r, "x");
		b[n].y = oy + prop_num(r, "y");
		b[n].w = prop_num(r, "width");
		b[n].h = prop_num(r, "height");
		snprintf(b[n].what, sizeof(b[n].what), "the label of %s", (const char *)id);
		k = child_of_class(g->parent, "block");
		origin_of(k, &b[n].cx, &b[n].cy);
		b[n].leader = child_of_class(g->parent, "label-leader") != NULL;
		xmlFree(id);
		n++;
	}
	xmlXPathFreeObject(o);
	o = xpath(doc, "//s:rect[@class='result-box']");
	for (i = 0; o->nodesetval && i < o->nodesetval->nodeNr && n < max; i++) {
		xmlNodePtr r = o->nodesetval->nodeTab[i];
		xmlChar *t = xmlNodeGetContent(xmlNextElementSibling(r));
		double ox, oy;
		memset(&b[n], 0, sizeof(b[n]));
		origin_of(r->parent, &ox, &oy);
		b[n].x = ox + prop_num(r, "x");
		b[n].y = oy + prop_num(r, "y");
		b[n].w = prop_num(r, "width");
		b[n].h = prop_num(r, "height");
		snprintf(b[n].what, sizeof(b[n].what), "the result '%s'", t ? (const char *)t : "");
		xmlFree(t);
		n++;
	}
	xmlXPathFreeObject(o);
	/* the arrows' heads (which way an order, a move, a fire goes) */
	o = xpath(doc, "//s:g[@id='orders' or @id='results']//s:polygon[contains(@class, 'head')]");
	for (i = 0; o->nodesetval && i < o->nodesetval->nodeNr && n < max; i++) {
		xmlNodePtr h = o->nodesetval->nodeTab[i];
		xmlChar *pts = xmlGetProp(h, BAD_CAST "points"),
			*id = xmlGetProp(h->parent, BAD_CAST "id");
		double x0 = 1e9, y0 = 1e9, x1 = -1e9, y1 = -1e9, px, py, ox, oy;
		const char *p = (const char *)pts;
		int k;
		origin_of(h->parent, &ox, &oy);
		while (p && sscanf(p, "%lf,%lf%n", &px, &py, &k) == 2) {
			x0 = fmin(x0, ox + px), x1 = fmax(x1, ox + px);
			y0 = fmin(y0, oy + py), y1 = fmax(y1, oy + py);
			p += k;
		}
		memset(&b[n], 0, sizeof(b[n]));
		b[n].x = x0, b[n].y = y0, b[n].w = x1 - x0, b[n].h = y1 - y0;
		snprintf(b[n].what, sizeof(b[n].what), "the head of %s", (const char *)id);
		xmlFree(pts);
		xmlFree(id);
		n++;
	}
	xmlXPathFreeObject(o);
	o = xpath(doc, "//s:g[@id='labels']/s:text");
	for (i = 0; o->nodesetval && i < o->nodesetval->nodeNr && n < max; i++) {
		xmlNodePtr t = o->nodesetval->nodeTab[i];
		xmlChar *s = xmlNodeGetContent(t);
		double size = has_class(t, "plate-name") ? 11 : 10;
		double w = ord_canvas_text_width((const char *)s, size);
		memset(&b[n], 0, sizeof(b[n]));
		b[n].x = prop_num(t, "x") - w / 2;
		b[n].y = prop_num(t, "y") - size * 0.8;
		b[n].w = w;
		b[n].h = size;
		snprintf(b[n].what, sizeof(b[n].what), "the plate's text '%s'", (const char *)s);
		xmlFree(s);
		n++;
	}
	xmlXPathFreeObject(o);
	return n;
}

/* How far apart two boxes are (< 0: they overlap by that much). */
static double box_gap(const struct box *a, const struct box *b)
{
	double gx = fmax(a->x, b->x) - fmin(a->x + a->w, b->x + b->w);
	double gy = fmax(a->y, b->y) - fmin(a->y + a->h, b->y + b->h);

	return fmax(gx, gy);
}

static void map_of(ord_game *g, struct ord_buf *svg, const char *side)
{
	int rc = ord_game_map(g, svg, side, 1, NULL, "en");

	ck_assert_msg(rc == 0, "map for %s: %s", side ? side : "the referee", ord_error_last());
}

START_TEST(test_map_layers_and_ids)
{
	ord_game *g = krigsspil_game();
	struct ord_buf svg = ORD_BUF_INIT;
	static const char *const layers[] = { "terrain", "features", "labels", "orders",
					      "results", "units",    "legend" };
	xmlDocPtr doc;
	size_t i;

	map_of(g, &svg, NULL);
	doc = parse(&svg);
	for (i = 0; i < sizeof(layers) / sizeof(layers[0]); i++)
		ck_assert_msg(count(doc, "count(/s:svg/s:g[@id='%s'][@class='layer'])", layers[i]) == 1,
			      "layer %s", layers[i]);
	/* a plate for every plate of map.xml (48), named as the notation writes them */
	ck_assert_int_eq(count(doc, "count(//s:g[@id='terrain']/s:g[@class='plate'])"), 48);
	ck_assert_int_eq(count(doc, "count(//s:g[@id='plate-0305'][@data-terrain='aabent'])"), 1);
	ck_assert_int_eq(count(doc, "count(//s:g[@id='plate-0601'][@data-terrain='skov'])"), 1);
	ck_assert_int_eq(count(doc, "count(//s:g[@id='plate-m2_4'][@data-terrain='sump'])"), 1);
	ck_assert_int_eq(count(doc, "count(//s:g[@id='labels']/s:text[.='0305'])"), 1);
	/* a unit for every unit of the scenario (30), its orders, fire with results */
	ck_assert_int_eq(count(doc, "count(//s:g[@id='units']/s:g[@class='unit'])"), 30);
	ck_assert_int_eq(count(doc, "count(//s:g[@id='unit-D8'][@data-formation='karre'])"), 1);
	ck_assert_int_eq(count(doc, "count(//s:g[@id='results']/s:g[@class='skyd'])"), 2);
	ck_assert_int_eq(count(doc, "count(//s:g[@id='results']/s:g[@class='artilleri'])"), 3);
	ck_assert_int_eq(count(doc, "count(//s:g[@id='order-D3']/s:line)"), 2);
	ck_assert_int_ge(count(doc, "count(//s:g[@id='legend']//s:text)"), 30);
	ck_assert_int_eq(count(doc, "count(//s:title[contains(., 'turn 1')])"), 1);
	xmlFreeDoc(doc);
	ord_buf_release(&svg);
	ord_game_free(g);
}
END_TEST

START_TEST(test_units_where_the_game_says)
{
	ord_game *g = krigsspil_game();
	struct ord_buf svg = ORD_BUF_INIT;
	static const char *const units[] = { "D1", "D3", "D8", "K2", "A3", "L2", "L5", "L14" };
	static const double where[][2] = { { 75, 26 }, { 90, 68 }, { 135, 26 }, { 180, 0 },
					   { 65, 6 },  { 90, 88 }, { 190, 80 }, { 20, 130 } };
	double ax, ay, bx, by, s, ox, oy, px, py;
	char id[64];
	xmlDocPtr doc;
	size_t i;

	map_of(g, &svg, NULL);
	doc = parse(&svg);
	/* the linear map of cm to user units, from plates 0000 and 0700 */
	translate_of(doc, "plate-0000", &ax, &ay);
	translate_of(doc, "plate-0700", &bx, &by);
	s = (bx - ax) / 210.0;
	ck_assert(s > 1 && s < 7);
	ck_assert(fabs(by - ay) < 0.02);
	ox = ax;
	oy = ay;
	/* plate (2, 4) is centred on 30 (2 + 4/2), 25.98 x 4 cm */
	translate_of(doc, "plate-0204", &px, &py);
	ck_assert_msg(fabs(px - (ox + s * 120)) < 0.05 && fabs(py - (oy + s * 103.923)) < 0.05,
		      "plate 0204 at %g %g", px, py);
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		snprintf(id, sizeof(id), "unit-%s", units[i]);
		translate_of(doc, id, &px, &py);
		ck_assert_msg(fabs(px - (ox + s * where[i][0])) < 0.02 &&
				      fabs(py - (oy + s * where[i][1])) < 0.02,
			      "%s drawn at %g %g, expected %g %g", units[i], px, py,
			      ox + s * where[i][0], oy + s * where[i][1]);
		ck_assert(attr_num(doc, id, "data-x") == where[i][0]);
		ck_assert(attr_num(doc, id, "data-y") == where[i][1]);
	}
	xmlFreeDoc(doc);
	ord_buf_release(&svg);
	ord_game_free(g);
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

static unsigned pixel(cairo_surface_t *s, double x, double y)
{
	const unsigned char *d = cairo_image_surface_get_data(s);
	int ix = (int)lround(x), iy = (int)lround(y);
	uint32_t v;

	ck_assert(ix >= 0 && iy >= 0 && ix < cairo_image_surface_get_width(s) &&
		  iy < cairo_image_surface_get_height(s));
	memcpy(&v, d + iy * cairo_image_surface_get_stride(s) + 4 * ix, 4);
	return v & 0xFFFFFF;
}

/* Near enough to a colour (antialiasing, rounding). */
static int near(unsigned got, unsigned want)
{
	int i;

	for (i = 0; i < 24; i += 8)
		if (abs((int)((got >> i) & 0xFF) - (int)((want >> i) & 0xFF)) > 6)
			return 0;
	return 1;
}

START_TEST(test_png_pixel_probes)
{
	ord_game *g = krigsspil_game();
	struct ord_buf svg = ORD_BUF_INIT, png = ORD_BUF_INIT;
	static const struct {
		const char *plate;
		unsigned colour;
	} plates[] = { { "plate-0000", 0xf2f0dc },
		       { "plate-0602", 0x93bb7c },
		       { "plate-m2_4", 0xb5d0c4 },
		       { "plate-0001", 0xdccb98 } };
	static const struct {
		const char *unit;
		unsigned colour;
	} units[] = { { "unit-D1", 0xde5a50 },
		      { "unit-D6", 0xde5a50 },
		      { "unit-L3", 0x23407a },
		      { "unit-L7", 0x23407a } };
	struct png_read r;
	cairo_surface_t *img;
	xmlDocPtr doc;
	double x, y, bx, by;
	size_t i;

	map_of(g, &svg, NULL);
	doc = parse(&svg);
	ck_assert_int_eq(ord_svg_to_png(&png, svg.buf, svg.len, 1), 0);
	r.p = (const unsigned char *)png.buf;
	r.left = png.len;
	img = cairo_image_surface_create_from_png_stream(read_png, &r);
	ck_assert_int_eq(cairo_surface_status(img), CAIRO_STATUS_SUCCESS);
	cairo_surface_flush(img);
	for (i = 0; i < sizeof(plates) / sizeof(plates[0]); i++) {
		translate_of(doc, plates[i].plate, &x, &y);
		ck_assert_msg(near(pixel(img, x, y), plates[i].colour),
			      "%s: #%06x at its centre, expected #%06x", plates[i].plate,
			      pixel(img, x, y), plates[i].colour);
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		char expr[160];
		xmlXPathObjectPtr o;
		char *t;
		translate_of(doc, units[i].unit, &x, &y);
		/* the block inside the unit's group (moved aside if it had to be) */
		snprintf(expr, sizeof(expr),
			 "string(//s:g[@id='%s']/s:g[@class='block']/@transform)", units[i].unit);
		o = xpath(doc, expr);
		t = (char *)xmlXPathCastToString(o);
		bx = by = 0;
		sscanf(t, "translate(%lf %lf)", &bx, &by);
		xmlFree(t);
		xmlXPathFreeObject(o);
		ck_assert_msg(near(pixel(img, x + bx, y + by), units[i].colour),
			      "%s: #%06x on its block, expected #%06x", units[i].unit,
			      pixel(img, x + bx, y + by), units[i].colour);
	}
	cairo_surface_destroy(img);
	xmlFreeDoc(doc);
	ord_buf_release(&svg);
	ord_buf_release(&png);
	ord_game_free(g);
}
END_TEST

START_TEST(test_fog_canary)
{
	ord_game *g = krigsspil_game();
	struct ord_buf ref = ORD_BUF_INIT, dk = ORD_BUF_INIT, report = ORD_BUF_INIT;
	xmlDocPtr rd, dd;
	xmlXPathObjectPtr o;
	int i, nenemy = 0;

	map_of(g, &ref, NULL);
	map_of(g, &dk, "danske");
	rd = parse(&ref);
	dd = parse(&dk);
	/* L5 moved alone (its move names no Danish unit); L14 was never named */
	ck_assert_int_eq(count(rd, "count(//s:g[@id='unit-L5'])"), 1);
	ck_assert_int_eq(count(rd, "count(//s:g[@id='unit-L14'])"), 1);
	ck_assert_int_eq(count(dd, "count(//s:g[@id='unit-L5'])"), 0);
	ck_assert_int_eq(count(dd, "count(//s:g[@id='unit-L14'])"), 0);
	ck_assert_int_eq(count(dd, "count(//s:g[@id='order-L5'])"), 0);
	ck_assert_ptr_null(strstr(dk.buf, "Bremen"));
	ck_assert_ptr_null(strstr(dk.buf, "Tettenborn"));
	/* the enemy units a side's map shows are those its report lists */
	ck_assert_int_eq(ord_game_report(g, "danske", 1, 1, &report), 0);
	o = xpath(dd, "//s:g[@id='units']/s:g[@data-side='allierede']");
	ck_assert_ptr_nonnull(o->nodesetval);
	for (i = 0; i < o->nodesetval->nodeNr; i++) {
		char *id = (char *)xmlGetProp(o->nodesetval->nodeTab[i], BAD_CAST "id");
		char want[80];
		snprintf(want, sizeof(want), "<unit id=\"%s\" side=\"allierede\">", id + 5);
		ck_assert_msg(strstr(report.buf, want) != NULL,
			      "%s is on the map, not in the report", id);
		xmlFree(id);
		nenemy++;
	}
	xmlXPathFreeObject(o);
	{
		const char *p = report.buf;
		int listed = 0;
		while ((p = strstr(p, "side=\"allierede\">")) != NULL) {
			listed++;
			p++;
		}
		ck_assert_int_eq(listed, nenemy);
	}
	ck_assert_int_eq(nenemy, 3); /* L1, L2, L9: each named in a fire event with a Dane */
	/* the Danes' map and report number the events they see alike: the
	 * label result-N 'X→Y: ...' is of the event their report numbers N,
	 * X's fire, with a result of X or of Y (the report numbered the
	 * events as it listed their results, every firer's before the
	 * targets': L2's fire at D3 was 4 on the map and 6 in the report) */
	o = xpath(dd, "//s:g[@id='result-labels']/s:g[starts-with(@id, 'result-')]");
	ck_assert_ptr_nonnull(o->nodesetval);
	ck_assert_int_eq(o->nodesetval->nodeNr, 5); /* events 6 to 10, the fire */
	for (i = 0; i < o->nodesetval->nodeNr; i++) {
		xmlNodePtr n = o->nodesetval->nodeTab[i];
		char *id = (char *)xmlGetProp(n, BAD_CAST "id");
		char *label = (char *)xmlNodeGetContent(n);
		const char *l = label + strspn(label, " \n\t");
		const char *arrow = strstr(l, "→"), *colon = arrow ? strchr(arrow, ':') : NULL;
		char firer[120], target[120];
		ck_assert_msg(colon != NULL, "%s: label '%s'", id, label);
		snprintf(firer, sizeof(firer), "event=\"%s\" unit=\"%.*s\"", id + 7,
			 (int)(arrow - l), l);
		arrow += strlen("→");
		snprintf(target, sizeof(target), "event=\"%s\" unit=\"%.*s\"", id + 7,
			 (int)(colon - arrow), arrow);
		ck_assert_msg(strstr(report.buf, firer) || strstr(report.buf, target),
			      "%s ('%s') on the Danes' map: their report has no %s nor %s", id, l,
			      firer, target);
		xmlFree(id);
		xmlFree(label);
	}
	xmlXPathFreeObject(o);
	/* L9's fire at D8 (event 10): the Danes see the fire and what it did
	 * to D8 (their report lists D8's loss), labelled as on the referee's
	 * map (a result's label is drawn over every line, in a layer of its
	 * own); not L9's own result (what it fired), which no label shows */
	ck_assert_int_eq(count(rd, "count(//s:g[@id='event-10'][@class='artilleri'])"), 1);
	ck_assert_int_eq(count(rd, "count(//s:g[@id='result-labels']/s:g[@id='result-10']/s:text)"), 1);
	{
		/* the Danes' map numbers the events they see 1, 2, ... (the
		 * turn's numbers would count the allies' events they did not
		 * see): the same label, under their number of the event */
		char expr[512];
		xmlXPathObjectPtr a = xpath(rd, "string(//s:g[@id='result-10']/s:text)");
		/* a loss or a miss, as the dice fell */
		ck_assert_ptr_nonnull(strstr((const char *)a->stringval, "L9→D8: "));
		snprintf(expr, sizeof(expr),
			 "count(//s:g[@id='result-labels']/s:g[starts-with(@id, 'result-')]/s:text[. = '%s'])",
			 (const char *)a->stringval);
		ck_assert_int_eq(count(dd, expr), 1);
		xmlXPathFreeObject(a);
	}
	/* L5's move (event 5, the canary) is not the Danes' to see: their
	 * map numbers nothing 10, which would tell them of it */
	ck_assert_int_eq(count(dd, "count(//s:g[@id='event-10' or @id='result-10'])"), 0);
	/* ... and their own fire's result (A1 at L2) */
	ck_assert_int_eq(count(dd, "count(//s:g[@id='result-labels']/s:g/s:text[starts-with(., 'A1→L2')])"),
			 1);
	xmlFreeDoc(rd);
	xmlFreeDoc(dd);
	ord_buf_release(&ref);
	ord_buf_release(&dk);
	ord_buf_release(&report);
	ord_game_free(g);
}
END_TEST

/* The bearing of unit id's ordered march (its line of class order-N). */
static double order_bearing(xmlDocPtr doc, const char *id)
{
	char expr[128];
	xmlXPathObjectPtr o;
	xmlNodePtr n;
	double a;

	snprintf(expr, sizeof(expr), "//s:g[@id='order-%s']/s:line[starts-with(@class, 'order-')]", id);
	o = xpath(doc, expr);
	ck_assert_msg(o->nodesetval && o->nodesetval->nodeNr == 1, "no order line of %s", id);
	n = o->nodesetval->nodeTab[0];
	a = atan2(prop_num(n, "y2") - prop_num(n, "y1"), prop_num(n, "x2") - prop_num(n, "x1"));
	xmlXPathFreeObject(o);
	return a;
}

/* An order given only as a direction ("M ↑ ¼": towards the enemy) points
 * the same way on the referee's map and on its own side's: the bearing
 * comes from the scenario's setup, not from the units a viewer saw (it
 * differed by about 10 degrees between the referee's map and the
 * Danes').  The other side, though the sheets are exchanged, sees no
 * order of a unit it met: its line would start where the unit stood
 * before it was met (test_map_enemy_no_path). */
START_TEST(test_map_direction_alike)
{
	ord_game *g = krigsspil_game();
	static const char *const viewers[] = { NULL, "danske", "allierede" };
	xmlDocPtr doc[3];
	double l2[3], d3[3];
	size_t i;

	for (i = 0; i < 3; i++) {
		struct ord_buf svg = ORD_BUF_INIT;
		map_of(g, &svg, viewers[i]);
		doc[i] = parse(&svg);
		ord_buf_release(&svg);
	}
	l2[0] = order_bearing(doc[0], "L2"); /* M ↑ ¼: allied */
	d3[0] = order_bearing(doc[0], "D3"); /* M ↑ ½: Danish */
	d3[1] = order_bearing(doc[1], "D3");
	l2[2] = order_bearing(doc[2], "L2");
	ck_assert_msg(fabs(l2[2] - l2[0]) < 0.01,
		      "L2's order: %.3f on the allies' map, %.3f on the referee's", l2[2], l2[0]);
	ck_assert_msg(fabs(d3[1] - d3[0]) < 0.01,
		      "D3's order: %.3f on the Danes' map, %.3f on the referee's", d3[1], d3[0]);
	ck_assert_int_eq(count(doc[1], "count(//s:g[@id='order-L2'])"), 0);
	ck_assert_int_eq(count(doc[2], "count(//s:g[@id='order-D3'])"), 0);
	/* towards the enemy: the Danes set up north of the allies (y grows
	 * southwards), so the Danes' "↑" points down the map, the allies' up */
	ck_assert_msg(sin(d3[0]) > 0.9, "D3's ↑ points %.3f", d3[0]);
	ck_assert_msg(sin(l2[0]) < -0.9, "L2's ↑ points %.3f", l2[0]);
	for (i = 0; i < 3; i++)
		xmlFreeDoc(doc[i]);
	ord_game_free(g);
}
END_TEST

/* A voluntary retreat's arrow is the way it goes, as a march's is: "TT ↓"
 * goes away from the enemy (17: turned about, or facing him at half
 * speed, the unit goes back either way; the notation's example "TT ↓ ½").
 * The map drew TT turned about, its "↓" towards the enemy, beside a march
 * "M ↓" drawn away from him. */
/* The bearings of D1's TT, D2's M and L1's TT on the sealed map of a game
 * made with tables. */
static void retreat_bearings(const char *tables, double *d1, double *d2, double *l1)
{
	struct ord_create_opts o;
	struct ord_receipt r;
	struct ord_diag d;
	struct ord_buf svg = ORD_BUF_INIT;
	static const char danes[] = "D1 TT ↓ ½\nD2 M ↓ ½\n", allies[] = "L1 TT ↓ ½\n";
	ord_game *g = NULL;
	xmlDocPtr doc;

	memset(&o, 0, sizeof(o));
	o.tables_path = tables;
	ck_assert_msg(ord_game_create(&g, path, KS_EX "scenario.xml", &o) == 0, "create: %s",
		      ord_error_last());
	ord_diag_init(&d);
	ck_assert_msg(ord_game_submit(g, &r, "danske", danes, strlen(danes), &d) == 0, "submit: %s",
		      ord_error_last());
	ck_assert_msg(ord_game_submit(g, &r, "allierede", allies, strlen(allies), &d) == 0,
		      "submit: %s", ord_error_last());
	ord_diag_release(&d);
	ck_assert_int_eq(ord_game_seal(g, 0), 0);
	map_of(g, &svg, NULL);
	doc = parse(&svg);
	*d1 = order_bearing(doc, "D1");
	*d2 = order_bearing(doc, "D2");
	*l1 = order_bearing(doc, "L1");
	xmlFreeDoc(doc);
	ord_buf_release(&svg);
	ord_game_free(g);
}

START_TEST(test_map_retreat_arrow)
{
	double d1, d2, l1;

	retreat_bearings(KS_EX "map.xml", &d1, &d2, &l1);
	/* the Danes set up north of the allies (y grows southwards): the
	 * Danes' "↓" points up the map, the allies' down */
	ck_assert_msg(sin(d1) < -0.9, "D1's TT ↓ points %.3f, towards the enemy", d1);
	ck_assert_msg(fabs(d1 - d2) < 0.01, "D1's TT ↓ %.3f, D2's M ↓ %.3f", d1, d2);
	ck_assert_msg(sin(l1) > 0.9, "L1's TT ↓ points %.3f, towards the enemy", l1);
}
END_TEST

/* A game made before flyt_retning_tt_kontrol drew TT turned about, and its
 * players wrote it so (TT ↑ for away): its maps are drawn as they were. */
START_TEST(test_map_retreat_arrow_made_before)
{
	char tables[1300], *a, *b;
	FILE *f = fopen(ORD_SOURCE_DIR "/rulesets/krigsspil/skema.xml", "rb");
	static char xml[1 << 20];
	size_t n;
	double d1, d2, l1;

	ck_assert_ptr_nonnull(f);
	n = fread(xml, 1, sizeof(xml) - 1, f);
	fclose(f);
	xml[n] = '\0';
	ck_assert_ptr_nonnull(a = strstr(xml, "<param name=\"flyt_retning_tt_kontrol\""));
	ck_assert_ptr_nonnull(b = strstr(a, "/>"));
	memmove(a, b + 2, strlen(b + 2) + 1);
	snprintf(tables, sizeof(tables), "%s/before.xml", dir);
	ck_assert_ptr_nonnull(f = fopen(tables, "wb"));
	fputs(xml, f);
	fclose(f);
	retreat_bearings(tables, &d1, &d2, &l1);
	unlink(tables);
	/* turned about: the Danes' TT ↓ points down the map, at the enemy */
	ck_assert_msg(sin(d1) > 0.9, "D1's TT ↓ points %.3f, not turned about", d1);
	ck_assert_msg(sin(d2) < -0.9, "D2's M ↓ points %.3f", d2);
	ck_assert_msg(sin(l1) < -0.9, "L1's TT ↓ points %.3f, not turned about", l1);
}
END_TEST

/*
 * An enemy unit is drawn as the side's report shows it, with no path: the
 * allies' map drew a "moved" line for the Danish D3 from where it stood as
 * the turn opened (y=61) to y=68, though their report gives only where it
 * is and no Danish move; the Danes' map did the same under L2.  A side's
 * own units keep their lines.
 */
START_TEST(test_map_enemy_no_path)
{
	ord_game *g = krigsspil_game();
	struct ord_buf ref = ORD_BUF_INIT, al = ORD_BUF_INIT, dk = ORD_BUF_INIT;
	xmlDocPtr rd, ad, dd;

	map_of(g, &ref, NULL);
	map_of(g, &al, "allierede");
	map_of(g, &dk, "danske");
	rd = parse(&ref);
	ad = parse(&al);
	dd = parse(&dk);
	/* the referee sees both moves */
	ck_assert_int_eq(count(rd, "count(//s:g[@id='order-D3']/s:line[@class='moved'])"), 1);
	ck_assert_int_eq(count(rd, "count(//s:g[@id='order-L2']/s:line[@class='moved'])"), 1);
	/* the allies: D3 where it is, and no line of any Danish unit */
	ck_assert(attr_num(ad, "unit-D3", "data-y") == 68);
	ck_assert_int_eq(count(ad, "count(//s:g[@id='orders']/s:g[not(starts-with(@id, 'order-L'))])"),
			 0);
	ck_assert_int_eq(count(ad, "count(//s:g[@id='order-L2']/s:line[@class='moved'])"), 1);
	/* the Danes: L2 where it is, and no line of any allied unit */
	ck_assert(attr_num(dd, "unit-L2", "data-y") == 88);
	ck_assert_int_eq(count(dd, "count(//s:g[@id='orders']/s:g[starts-with(@id, 'order-L')])"), 0);
	ck_assert_int_eq(count(dd, "count(//s:g[@id='order-D3']/s:line[@class='moved'])"), 1);
	xmlFreeDoc(rd);
	xmlFreeDoc(ad);
	xmlFreeDoc(dd);
	ord_buf_release(&ref);
	ord_buf_release(&al);
	ord_buf_release(&dk);
	ord_game_free(g);
}
END_TEST

/*
 * A map of a phase shows the enemy units met in the phases up to it, no
 * earlier: the allies meet D3, D8, A1 and A3 in the fire (skydninger), the
 * Danes L1, L2 and L9; the maps of the turn's start and of the phases
 * before showed all of them where they stood.
 */
START_TEST(test_map_enemy_not_before_met)
{
	static const struct {
		const char *phase;
		int danes, allies; /* seen by the allies, by the Danes */
	} at[] = { { "start", 0, 0 },
		   { "reorganisering", 0, 0 },
		   { "angrebserklaering", 0, 0 },
		   { "fredelige-flytninger", 0, 0 },
		   { "skydninger", 4, 3 },
		   { "angrebshandlinger", 4, 3 } };
	ord_game *g = krigsspil_game();
	size_t i;

	for (i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		struct ord_buf al = ORD_BUF_INIT, dk = ORD_BUF_INIT;
		xmlDocPtr ad, dd;
		ck_assert_msg(ord_game_map(g, &al, "allierede", 1, at[i].phase, "en") == 0, "%s",
			      ord_error_last());
		ck_assert_int_eq(ord_game_map(g, &dk, "danske", 1, at[i].phase, "en"), 0);
		ad = parse(&al);
		dd = parse(&dk);
		ck_assert_msg(count(ad, "count(//s:g[@id='units']/s:g[@data-side='danske'])") ==
				      at[i].danes,
			      "the allies' map after %s shows %d Danish units", at[i].phase,
			      count(ad, "count(//s:g[@id='units']/s:g[@data-side='danske'])"));
		ck_assert_msg(count(dd, "count(//s:g[@id='units']/s:g[@data-side='allierede'])") ==
				      at[i].allies,
			      "the Danes' map after %s shows %d allied units", at[i].phase,
			      count(dd, "count(//s:g[@id='units']/s:g[@data-side='allierede'])"));
		if (!at[i].danes)
			ck_assert_ptr_null(strstr(al.buf, "Jægerkorps"));
		xmlFreeDoc(ad);
		xmlFreeDoc(dd);
		ord_buf_release(&al);
		ord_buf_release(&dk);
	}
	ord_game_free(g);
}
END_TEST

/* Does the side's map, chart and report hold unit id? (want: 1 or 0) */
static void side_sees(ord_game *g, const char *side, const char *id, int want)
{
	struct ord_buf map = ORD_BUF_INIT, chart = ORD_BUF_INIT, report = ORD_BUF_INIT;
	char unit[64], listed[64];
	xmlDocPtr md, cd;

	snprintf(unit, sizeof(unit), "count(//s:g[@id='unit-%s'])", id);
	snprintf(listed, sizeof(listed), "<unit id=\"%s\" ", id);
	ck_assert_msg(ord_game_map(g, &map, side, 0, NULL, "en") == 0, "%s", ord_error_last());
	ck_assert_int_eq(ord_game_chart(g, &chart, side, "en"), 0);
	ck_assert_int_eq(ord_game_report(g, side, 0, 1, &report), 0);
	md = parse(&map);
	cd = parse(&chart);
	ck_assert_msg(count(md, unit) == want, "%s on %s's map: %d", id, side, count(md, unit));
	ck_assert_msg(count(cd, unit) == want, "%s on %s's chart: %d", id, side, count(cd, unit));
	ck_assert_msg((strstr(report.buf, listed) != NULL) == want, "%s in %s's report", id, side);
	xmlFreeDoc(md);
	xmlFreeDoc(cd);
	ord_buf_release(&map);
	ord_buf_release(&chart);
	ord_buf_release(&report);
}

/*
 * An event recorded for the phase not resolved yet meets nobody: a melee
 * of K3 on L12 (overridden: no attack of K3 was declared) put K3 on the
 * allies' map and in their report at once.  Until its phase is resolved
 * nothing of it has happened at the table (and the referee may void it);
 * once it is, the allies have met K3.
 */
START_TEST(test_fog_unresolved_event)
{
	ord_game *g = krigsspil_game_fire();
	char a1[] = "angriber=K3", a2[] = "forsvarer=L12";
	char *argv[] = { a1, a2 };
	struct ord_diag d;

	ord_diag_init(&d);
	ck_assert_msg(ord_game_event(g, "naerkamp", 2, argv, "a test of the fog", &d) == 0, "%s",
		      ord_error_last());
	ord_diag_release(&d);
	side_sees(g, "allierede", "K3", 0);
	side_sees(g, "allierede", "D3", 1); /* met in the fire */
	resolve(g);
	side_sees(g, "allierede", "K3", 1);
	ord_game_free(g);
}
END_TEST

/*
 * The chart, step by step: the allies' chart drew D3, A1 and A3 from the
 * turn's start, and D8's LU from the peaceful moves (F), though they meet
 * them in the fire (S).  Each now starts at S; the side's own units and
 * the referee's chart have every step.
 */
START_TEST(test_chart_enemy_from_met)
{
	static const char *const danes[] = { "D3", "D8", "A1", "A3" };
	ord_game *g = krigsspil_game();
	struct ord_buf ref = ORD_BUF_INIT, al = ORD_BUF_INIT;
	xmlDocPtr rd, ad;
	size_t i;

	ck_assert_int_eq(ord_game_chart(g, &ref, NULL, "en"), 0);
	ck_assert_int_eq(ord_game_chart(g, &al, "allierede", "en"), 0);
	rd = parse(&ref);
	ad = parse(&al);
	/* the start and five phases */
	ck_assert_int_eq(count(rd, "count(//s:g[@id='unit-D3']/s:circle)"), 6);
	ck_assert_int_eq(count(ad, "count(//s:g[@id='unit-L2']/s:circle)"), 6);
	for (i = 0; i < sizeof(danes) / sizeof(danes[0]); i++) {
		char expr[128];
		snprintf(expr, sizeof(expr), "count(//s:g[@id='unit-%s']/s:circle)", danes[i]);
		ck_assert_msg(count(ad, expr) == 2, "%s: %d points on the allies' chart", danes[i],
			      count(ad, expr));
		snprintf(expr, sizeof(expr),
			 "count(//s:g[@id='morale-%s']/s:rect[@class!='band-unknown'])", danes[i]);
		ck_assert_msg(count(ad, expr) == 2, "%s: %d morale cells on the allies' chart",
			      danes[i], count(ad, expr));
	}
	xmlFreeDoc(rd);
	xmlFreeDoc(ad);
	ord_buf_release(&ref);
	ord_buf_release(&al);
	ord_game_free(g);
}
END_TEST

/*
 * The Krigsspil map labels an enemy's fire on a side's unit with the loss
 * its report gives (it labelled only the side's own fire): on the allies'
 * map of the fire, D3's and A1's fire at L2 and A3's at L1, as on the
 * referee's.
 */
START_TEST(test_map_fire_on_own_labelled)
{
	static const unsigned seqs[] = { 6, 8, 9 }; /* D3→L2, A1→L2, A3→L1 */
	ord_game *g = krigsspil_game();
	struct ord_buf ref = ORD_BUF_INIT, al = ORD_BUF_INIT;
	xmlDocPtr rd, ad;
	size_t i;

	ck_assert_int_eq(ord_game_map(g, &ref, NULL, 1, "skydninger", "en"), 0);
	ck_assert_int_eq(ord_game_map(g, &al, "allierede", 1, "skydninger", "en"), 0);
	rd = parse(&ref);
	ad = parse(&al);
	for (i = 0; i < sizeof(seqs) / sizeof(seqs[0]); i++) {
		char expr[512];
		xmlXPathObjectPtr a;
		snprintf(expr, sizeof(expr), "string(//s:g[@id='result-%u']/s:text)", seqs[i]);
		a = xpath(rd, expr);
		ck_assert_msg(*a->stringval, "no label of event %u on the referee's map", seqs[i]);
		/* the allies' map numbers the events they see 1, 2, ...: the
		 * label is found by its words */
		snprintf(expr, sizeof(expr), "count(//s:g[@id='result-labels']/s:g/s:text[. = '%s'])",
			 (const char *)a->stringval);
		ck_assert_msg(count(ad, expr) == 1, "event %u: '%s' is not on the allies' map",
			      seqs[i], (const char *)a->stringval);
		xmlXPathFreeObject(a);
	}
	ck_assert_int_eq(count(ad, "count(//s:text[starts-with(., 'D3→L2: ')])"), 1);
	xmlFreeDoc(rd);
	xmlFreeDoc(ad);
	ord_buf_release(&ref);
	ord_buf_release(&al);
	ord_game_free(g);
}
END_TEST

START_TEST(test_same_bytes)
{
	ord_game *g = krigsspil_game();
	struct ord_buf a = ORD_BUF_INIT, b = ORD_BUF_INIT, pa = ORD_BUF_INIT, pb = ORD_BUF_INIT;

	map_of(g, &a, "allierede");
	ord_game_free(g);
	ck_assert_int_eq(ord_game_open(&g, path), 0);
	map_of(g, &b, "allierede");
	ck_assert_uint_eq(a.len, b.len);
	ck_assert_int_eq(memcmp(a.buf, b.buf, a.len), 0);
	ck_assert_int_eq(ord_svg_to_png(&pa, a.buf, a.len, 1), 0);
	ck_assert_int_eq(ord_svg_to_png(&pb, b.buf, b.len, 1), 0);
	ck_assert_uint_eq(pa.len, pb.len);
	ck_assert_int_eq(memcmp(pa.buf, pb.buf, pa.len), 0);
	ord_buf_release(&a);
	ord_buf_release(&b);
	ord_buf_release(&pa);
	ord_buf_release(&pb);
	ord_game_free(g);
}
END_TEST

/*
 * No label of the map lies on another: units' labels, results, the plates'
 * numbers, names and heights (a unit's label hid the height '+1 F' of the
 * plate it stood on); results stand a little apart, not box against box,
 * and off the arrows' heads (D3's order ended under a result);
 * a label moved away from its block is joined to it by a line.
 */
START_TEST(test_map_labels_apart)
{
	static const char *const viewers[] = { NULL, "danske", "allierede" };
	ord_game *g = krigsspil_game();
	struct box b[256];
	size_t v, i, j, n;

	for (v = 0; v < sizeof(viewers) / sizeof(viewers[0]); v++) {
		struct ord_buf svg = ORD_BUF_INIT;
		xmlDocPtr doc;
		map_of(g, &svg, viewers[v]);
		doc = parse(&svg);
		n = map_boxes(doc, b, sizeof(b) / sizeof(b[0]));
		ck_assert_uint_gt(n, 60);
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++) {
				int results = !strncmp(b[i].what, "the result", 10) &&
					      !strncmp(b[j].what, "the result", 10);
				int hi = !strncmp(b[i].what, "the head", 8),
				    hj = !strncmp(b[j].what, "the head", 8);
				/* a head must not be under a result's label; heads
				 * may meet heads and the plates' words */
				if ((hi || hj) && strncmp(b[hi ? j : i].what, "the result", 10))
					continue;
				ck_assert_msg(box_gap(&b[i], &b[j]) >= (results ? 2 : 0),
					      "%s map: %s and %s overlap (%.1f)",
					      viewers[v] ? viewers[v] : "the referee's", b[i].what,
					      b[j].what, box_gap(&b[i], &b[j]));
			}
		for (i = 0; i < n; i++) {
			struct box c = { b[i].cx, b[i].cy, 0, 0, "", 0, 0, 0 };
			if (!b[i].cx || b[i].leader)
				continue;
			ck_assert_msg(box_gap(&b[i], &c) <= 30,
				      "%s map: %s stands %.0f away from its block, with no line to it",
				      viewers[v] ? viewers[v] : "the referee's", b[i].what,
				      box_gap(&b[i], &c));
		}
		xmlFreeDoc(doc);
		ord_buf_release(&svg);
	}
	ord_game_free(g);
}
END_TEST

START_TEST(test_map_phases_and_errors)
{
	ord_game *g = krigsspil_game();
	struct ord_buf svg = ORD_BUF_INIT;
	double x, y, x2, y2;
	xmlDocPtr doc;

	/* as the turn opened D3 stood at 90, 61; after the moves at 90, 68 */
	ck_assert_int_eq(ord_game_map(g, &svg, NULL, 1, "start", "da"), 0);
	doc = parse(&svg);
	ck_assert(attr_num(doc, "unit-D3", "data-y") == 61);
	translate_of(doc, "unit-D3", &x, &y);
	ck_assert_int_eq(count(doc, "count(//s:g[@id='results']/s:g)"), 0);
	xmlFreeDoc(doc);
	ord_buf_reset(&svg);
	ck_assert_int_eq(ord_game_map(g, &svg, NULL, 1, "fredelige-flytninger", "da"), 0);
	doc = parse(&svg);
	ck_assert(attr_num(doc, "unit-D3", "data-y") == 68);
	translate_of(doc, "unit-D3", &x2, &y2);
	ck_assert(y2 > y);
	/* no fire yet after the moves */
	ck_assert_int_eq(count(doc, "count(//s:g[@id='results']/s:g[@class='skyd'])"), 0);
	xmlFreeDoc(doc);
	ord_buf_reset(&svg);
	ck_assert_int_eq(ord_game_map(g, &svg, NULL, 1, "no-such-phase", NULL), ORD_ENOTFOUND);
	ck_assert_int_eq(ord_game_map(g, &svg, NULL, 2, "skydninger", NULL), ORD_ESTATE);
	ck_assert_int_eq(ord_game_map(g, &svg, "nobody", 1, NULL, NULL), ORD_ENOTFOUND);
	ck_assert_int_eq(ord_game_map(g, &svg, NULL, 9, NULL, NULL), ORD_ENOTFOUND);
	ord_buf_release(&svg);
	ord_game_free(g);
}
END_TEST

/* The legend's signs stand clear of their words, and the skirmish chain's
 * groups apart (squeezed to 26 units they ran into one another and the
 * line's block touched "line"). */
START_TEST(test_map_legend_signs)
{
	ord_game *g = krigsspil_game();
	struct ord_buf svg = ORD_BUF_INIT;
	xmlXPathObjectPtr o;
	xmlDocPtr doc;
	double text_x = 1e9, ox, oy;
	int i, chains = 0;

	map_of(g, &svg, NULL);
	doc = parse(&svg);
	o = xpath(doc, "//s:g[@id='legend-panel']/s:text[@class='legend-text']");
	ck_assert_int_gt(o->nodesetval ? o->nodesetval->nodeNr : 0, 30);
	for (i = 0; i < o->nodesetval->nodeNr; i++)
		text_x = fmin(text_x, prop_num(o->nodesetval->nodeTab[i], "x"));
	xmlXPathFreeObject(o);
	o = xpath(doc, "//s:g[@id='legend-panel']//s:g[@class='legend-sign']");
	ck_assert_int_eq(o->nodesetval ? o->nodesetval->nodeNr : 0, 7);
	for (i = 0; i < o->nodesetval->nodeNr; i++) {
		xmlNodePtr r, sign = o->nodesetval->nodeTab[i];
		double prev_right = -1e9;
		int n = 0, apart = 1;
		for (r = sign->children; r; r = r->next) {
			double x;
			if (r->type != XML_ELEMENT_NODE || strcmp((const char *)r->name, "rect"))
				continue;
			origin_of(r, &ox, &oy);
			x = ox + prop_num(r, "x");
			ck_assert_msg(x + prop_num(r, "width") + 4 <= text_x,
				      "a legend sign reaches %g, its words start at %g",
				      x + prop_num(r, "width"), text_x);
			if (x < prev_right)
				apart = 0;
			prev_right = x + prop_num(r, "width");
			n++;
		}
		if (n == 5) {
			chains++;
			ck_assert_msg(apart, "the skirmish chain's groups run into one another");
		}
	}
	ck_assert_int_eq(chains, 1);
	xmlXPathFreeObject(o);
	xmlFreeDoc(doc);
	ord_buf_release(&svg);
	ord_game_free(g);
}
END_TEST

/* D3 and L2 fire at each other: two lines apart, not one line with a head
 * at each end. */
START_TEST(test_map_fire_both_ways)
{
	ord_game *g = krigsspil_game();
	struct ord_buf svg = ORD_BUF_INIT;
	xmlDocPtr doc;
	double ax1, ay1, ax2, ay2, bx1, by1, bx2, by2;

	map_of(g, &svg, NULL);
	doc = parse(&svg);
	ck_assert_int_eq(count(doc, "count(//s:g[@class='skyd']/s:line)"), 2);
	{
		xmlXPathObjectPtr o = xpath(doc, "//s:g[@class='skyd']/s:line");
		xmlNodePtr l1 = o->nodesetval->nodeTab[0], l2 = o->nodesetval->nodeTab[1];
		ax1 = prop_num(l1, "x1"), ay1 = prop_num(l1, "y1");
		ax2 = prop_num(l1, "x2"), ay2 = prop_num(l1, "y2");
		bx1 = prop_num(l2, "x1"), by1 = prop_num(l2, "y1");
		bx2 = prop_num(l2, "x2"), by2 = prop_num(l2, "y2");
		xmlXPathFreeObject(o);
	}
	/* opposite directions, on parallel lines at least 5 apart: the distance
	 * of one line's start from the other line */
	{
		double len = hypot(ax2 - ax1, ay2 - ay1);
		double dist = fabs((ax2 - ax1) * (ay1 - by1) - (ay2 - ay1) * (ax1 - bx1)) / len;
		ck_assert((ax2 - ax1) * (bx2 - bx1) + (ay2 - ay1) * (by2 - by1) < 0);
		ck_assert_msg(dist >= 5, "the two fires lie %.1f apart", dist);
	}
	xmlFreeDoc(doc);
	ord_buf_release(&svg);
	ord_game_free(g);
}
END_TEST

/* Turn 2 of the Krigsspil demo after turn 1: K1's attack on L5 and the
 * melee, exchanged. */
static ord_game *krigsspil_game_turn2(void)
{
	ord_game *g = krigsspil_game();

	submit_file(g, "danske", KS_EX "demo/turn2-danske.txt");
	submit_file(g, "allierede", KS_EX "demo/turn2-allierede.txt");
	ck_assert_int_eq(ord_game_seal(g, 0), 0);
	resolve(g);
	event(g, "angreb unit=K1 maal=L5 stormmarch=yes");
	event(g, "stoette unit=K2 stoetter=K1 rolle=traefning afstand=20");
	event(g, "stoette unit=K4 stoetter=K1 rolle=nabo afstand=3");
	event(g, "reaktion unit=L5 reaktion=forsvar");
	resolve(g);
	event(g, "flyt unit=L1 x=120 y=90");
	resolve(g);
	resolve(g);
	event(g, "naerkamp angriber=K1 forsvarer=L5");
	resolve(g);
	ck_assert_int_eq(ord_game_exchange(g), 0);
	return g;
}

/* A melee's label says whose loss is whose: "K1→L5: won by K1 (K1 −6,
 * L5 −36 men)", not "(−6/−36 men)". */
START_TEST(test_map_melee_losses_named)
{
	ord_game *g = krigsspil_game_turn2();
	struct ord_buf svg = ORD_BUF_INIT;
	xmlDocPtr doc;

	ck_assert_msg(ord_game_map(g, &svg, NULL, 2, NULL, "en") == 0, "%s", ord_error_last());
	doc = parse(&svg);
	ck_assert_int_eq(count(doc, "count(//s:g[@class='result-label']/s:text[starts-with(., "
				    "'K1→L5: ')][contains(., '(K1 −')][contains(., ', L5 −')])"),
			 1);
	ck_assert_int_eq(count(doc, "count(//s:text[contains(., '/−')])"), 0);
	xmlFreeDoc(doc);
	ord_buf_release(&svg);
	ord_game_free(g);
}
END_TEST

/*
 * A crowd: a dozen units set up within a few cm of each other.  Every label
 * still finds a place of its own, joined to its block by a line when it
 * stands away (a label that found no place near was laid on the others).
 */
START_TEST(test_map_crowd)
{
	struct ord_create_opts o;
	struct ord_buf svg = ORD_BUF_INIT;
	struct box b[256];
	ord_game *g = NULL;
	xmlDocPtr doc;
	size_t i, j, n;
	char scen[1300], *xml, *p;
	FILE *f;
	int k = 0;

	/* the example's scenario, its Danes (D, K, A) in a knot around 90, 30 */
	xml = slurp(KS_EX "scenario.xml");
	snprintf(scen, sizeof(scen), "%s/crowd.xml", dir);
	f = fopen(scen, "w");
	for (p = xml; *p;) {
		char *u = strstr(p, "<unit id=\""), *x, *end;
		if (!u || (u[10] != 'D' && u[10] != 'K' && u[10] != 'A') ||
		    !(end = strstr(u, "/>")) || !(x = strstr(u, " x=\"")) || x > end) {
			size_t len = u ? (size_t)(u - p) + 10 : strlen(p);
			fwrite(p, 1, len, f);
			p += len;
			continue;
		}
		fwrite(p, 1, (size_t)(x - p), f);
		fprintf(f, " x=\"%d\" y=\"%d\"", 84 + 4 * (k % 4), 24 + 4 * (k / 4));
		k++;
		/* skip the old x= and y= */
		p = strstr(x + 4, "\"") + 1;
		p = strstr(p, "\"") + 1;
		p = strstr(p, "\"") + 1;
	}
	fclose(f);
	free(xml);
	ck_assert_int_eq(k, 16);
	memset(&o, 0, sizeof(o));
	o.tables_path = KS_EX "map.xml";
	ck_assert_msg(ord_game_create(&g, path, scen, &o) == 0, "create: %s", ord_error_last());
	ck_assert_msg(ord_game_map(g, &svg, NULL, 1, NULL, "en") == 0, "%s", ord_error_last());
	doc = parse(&svg);
	n = map_boxes(doc, b, sizeof(b) / sizeof(b[0]));
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			if (strncmp(b[i].what, "the label", 9) || strncmp(b[j].what, "the label", 9))
				continue;
			ck_assert_msg(box_gap(&b[i], &b[j]) >= 0, "%s and %s overlap (%.1f)",
				      b[i].what, b[j].what, box_gap(&b[i], &b[j]));
		}
	for (i = 0; i < n; i++) {
		struct box c = { b[i].cx, b[i].cy, 0, 0, "", 0, 0, 0 };
		if (!b[i].cx || b[i].leader)
			continue;
		ck_assert_msg(box_gap(&b[i], &c) <= 30, "%s stands away with no line", b[i].what);
	}
	/* nor a block on a label or on another block */
	{
		xmlXPathObjectPtr q = xpath(doc, "//s:g[@class='block']/s:rect");
		struct box bl[128];
		size_t nb = 0;
		for (i = 0; q->nodesetval && i < (size_t)q->nodesetval->nodeNr && nb < 128; i++) {
			xmlNodePtr r = q->nodesetval->nodeTab[i];
			xmlChar *id = xmlGetProp(r->parent->parent, BAD_CAST "id");
			double ox, oy;
			memset(&bl[nb], 0, sizeof(bl[nb]));
			origin_of(r->parent, &ox, &oy);
			bl[nb].x = ox + prop_num(r, "x");
			bl[nb].y = oy + prop_num(r, "y");
			bl[nb].w = prop_num(r, "width");
			bl[nb].h = prop_num(r, "height");
			snprintf(bl[nb].what, sizeof(bl[nb].what), "the block of %s", (const char *)id);
			xmlFree(id);
			nb++;
		}
		xmlXPathFreeObject(q);
		for (i = 0; i < nb; i++) {
			for (j = 0; j < n; j++)
				if (!strncmp(b[j].what, "the label", 9))
					ck_assert_msg(box_gap(&bl[i], &b[j]) >= 0, "%s lies on %s",
						      bl[i].what, b[j].what);
			for (j = i + 1; j < nb; j++)
				if (strcmp(bl[i].what, bl[j].what))
					ck_assert_msg(box_gap(&bl[i], &bl[j]) >= 0, "%s lies on %s",
						      bl[i].what, bl[j].what);
		}
	}
	xmlFreeDoc(doc);
	unlink(scen);
	ord_buf_release(&svg);
	ord_game_free(g);
}
END_TEST

/* A Danish chart speaks Danish: its turns, the enemy's note and the legend
 * (they were English: "turn 1", "≈ estimated (enemy)"). */
START_TEST(test_chart_in_danish)
{
	ord_game *g = krigsspil_game();
	struct ord_buf da = ORD_BUF_INIT, en = ORD_BUF_INIT;
	xmlDocPtr doc;

	ck_assert_msg(ord_game_chart(g, &da, "danske", "da") == 0, "%s", ord_error_last());
	ck_assert_int_eq(ord_game_chart(g, &en, "danske", "en"), 0);
	doc = parse(&da);
	ck_assert_int_eq(count(doc, "count(//s:text[.='træk 1'])"), 2);
	ck_assert_int_ge(count(doc, "count(//s:text[.='≈ anslået (fjenden)'])"), 1);
	ck_assert_int_eq(count(doc, "count(//s:text[.='anslået (en fjende set)'])"), 1);
	ck_assert_int_eq(count(doc, "count(//s:text[starts-with(., 'turn ')])"), 0);
	ck_assert_int_eq(count(doc, "count(//s:text[contains(., 'estimated')])"), 0);
	xmlFreeDoc(doc);
	doc = parse(&en);
	ck_assert_int_eq(count(doc, "count(//s:text[.='turn 1'])"), 2);
	ck_assert_int_ge(count(doc, "count(//s:text[.='≈ estimated (enemy)'])"), 1);
	xmlFreeDoc(doc);
	ord_buf_release(&da);
	ord_buf_release(&en);
	ord_game_free(g);
}
END_TEST

/* ---- battalion: the chart and the map ---- */

static ord_game *battalion_game(void)
{
	ord_game *g = NULL;

	ck_assert_msg(ord_game_create(&g, path, BAT_EX "scenario.xml", NULL) == 0, "create: %s",
		      ord_error_last());
	submit_file(g, "french", BAT_EX "demo/turn1-french.txt");
	submit_file(g, "allied", BAT_EX "demo/turn1-allied.txt");
	ck_assert_int_eq(ord_game_seal(g, 0), 0);
	event(g, "move unit=F1 distance=5");
	event(g, "move unit=F2 distance=4");
	resolve(g);
	event(g, "fire unit=A5 target=F1 range=11");
	event(g, "artillery unit=A9 target=F2 range=14");
	event(g, "artillery unit=F8 target=A1 range=22");
	resolve(g);
	resolve(g);
	resolve(g);
	resolve(g);
	ck_assert_int_eq(ord_game_exchange(g), 0);
	return g;
}

START_TEST(test_battalion_chart)
{
	ord_game *g = battalion_game();
	struct ord_buf ref = ORD_BUF_INIT, fr = ORD_BUF_INIT, map = ORD_BUF_INIT;
	xmlDocPtr rd, fd;

	ck_assert_msg(ord_game_chart(g, &ref, NULL, NULL) == 0, "%s", ord_error_last());
	ck_assert_int_eq(ord_game_chart(g, &fr, "french", NULL), 0);
	rd = parse(&ref);
	fd = parse(&fr);
	ck_assert_int_eq(count(rd, "count(/s:svg/s:g[@class='layer'])"), 7);
	ck_assert_int_eq(count(rd, "count(//s:g[@id='units']/s:g[@class='unit'])"), 19);
	/* the start and five phases: six points on each line */
	ck_assert_int_eq(count(rd, "count(//s:g[@id='unit-F4']/s:circle)"), 6);
	ck_assert_int_eq(count(rd, "count(//s:g[@id='morale-F4']/s:rect)"), 6);
	/* the side by its name, not its id ("As french sees it") */
	ck_assert_int_eq(count(fd, "count(//s:desc[starts-with(., 'As the Armée du Nord see it')])"),
			 1);
	ck_assert_int_eq(count(fd, "count(//s:text[starts-with(., 'As the Armée du Nord see it')])"),
			 1);
	/* French: their 9 units, and A1, A5, A9 met in fire; never A3 */
	ck_assert_int_eq(count(fd, "count(//s:g[@id='units']/s:g[@class='unit'])"), 12);
	ck_assert_int_eq(count(fd, "count(//s:g[@id='unit-A3'])"), 0);
	ck_assert_int_eq(count(rd, "count(//s:g[@id='unit-A3'])"), 1);
	ck_assert_int_eq(count(fd, "count(//s:g[@id='unit-A5'][@data-side='allied'])"), 1);
	/* an enemy's losses are not shown to the French */
	ck_assert_int_eq(count(fd, "count(//s:g[@id='lost-A1']/*)"), 0);
	/* no positions recorded: no map */
	ck_assert_int_eq(ord_game_map(g, &map, NULL, 1, NULL, NULL), ORD_ESTATE);
	xmlFreeDoc(rd);
	xmlFreeDoc(fd);
	ord_buf_release(&ref);
	ord_buf_release(&fr);
	ord_buf_release(&map);
	ord_game_free(g);
}
END_TEST

/* The rule of class cls in the SVG's style sheet (".cls{...}"), or "". */
static void style_rule(const struct ord_buf *svg, const char *cls, char *out, size_t n)
{
	char want[80];
	const char *p, *e;

	snprintf(want, sizeof(want), ".%s{", cls);
	*out = '\0';
	p = strstr(svg->buf, want);
	if (!p || !(e = strchr(p, '}')))
		return;
	snprintf(out, n, "%.*s", (int)(e - p), p);
}

/*
 * A side's chart shows an enemy unit with the strength the side's report
 * gives it: a battalion as "about N trays" (N trays' figures, dashed, an
 * estimate), a gun or a squadron by its exact figures (a solid line).  The
 * French chart drew Rogers' guns (A9, 10 figures) at 12, three trays of 4,
 * though the report said 10 figures and trays are the infantry's.
 */
START_TEST(test_battalion_chart_enemy_as_reported)
{
	static const struct {
		const char *id;
		int exact;
	} enemy[] = { { "A1", 0 }, { "A5", 0 }, { "A9", 1 } };
	ord_game *g = battalion_game();
	struct ord_buf fr = ORD_BUF_INIT, report = ORD_BUF_INIT;
	xmlDocPtr fd;
	size_t i;

	ck_assert_int_eq(ord_game_chart(g, &fr, "french", NULL), 0);
	ck_assert_int_eq(ord_game_report(g, "french", 1, 0, &report), 0);
	fd = parse(&fr);
	for (i = 0; i < sizeof(enemy) / sizeof(enemy[0]); i++) {
		char expr[200], line[16], rule[200], *cls;
		const char *p;
		long reported = -1, n;
		xmlXPathObjectPtr o;
		int k;

		/* the report's words: "  A9 Rogers' ... (allied, foot_artillery): 10 figures" */
		snprintf(line, sizeof(line), "\n  %s ", enemy[i].id);
		p = strstr(report.buf, line);
		ck_assert_msg(p != NULL, "%s is not in the French report", enemy[i].id);
		p = strstr(p, "): ");
		ck_assert_ptr_nonnull(p);
		if (sscanf(p, "): about %ld tray", &n) == 1)
			reported = n * 4; /* figures_per_tray */
		else if (sscanf(p, "): %ld figure", &n) == 1)
			reported = n;
		ck_assert_msg(reported >= 0, "%s: the report says '%.40s'", enemy[i].id, p);
		ck_assert_int_eq(strncmp(p, "): about", 8) != 0, enemy[i].exact);
		/* every value on its line (the last is the end of the turn) */
		snprintf(expr, sizeof(expr), "//s:g[@id='unit-%s']/s:text[@class='value']",
			 enemy[i].id);
		o = xpath(fd, expr);
		ck_assert_msg(o->nodesetval && o->nodesetval->nodeNr > 0, "no value of %s",
			      enemy[i].id);
		for (k = 0; k < o->nodesetval->nodeNr; k++) {
			xmlChar *t = xmlNodeGetContent(o->nodesetval->nodeTab[k]);
			ck_assert_msg(atol((const char *)t) <= reported,
				      "the French chart shows %s at %s, their report %ld",
				      enemy[i].id, (const char *)t, reported);
			if (k + 1 == o->nodesetval->nodeNr)
				ck_assert_msg(atol((const char *)t) == reported,
					      "the French chart ends %s at %s, their report says %ld",
					      enemy[i].id, (const char *)t, reported);
			xmlFree(t);
		}
		xmlXPathFreeObject(o);
		/* dashed and noted as an estimate only when it is one */
		snprintf(expr, sizeof(expr), "string(//s:g[@id='unit-%s']/s:polyline/@class)",
			 enemy[i].id);
		o = xpath(fd, expr);
		cls = (char *)xmlXPathCastToString(o);
		xmlXPathFreeObject(o);
		style_rule(&fr, cls, rule, sizeof(rule));
		ck_assert_msg(*rule, "no style for %s's line (%s)", enemy[i].id, cls);
		ck_assert_msg((strstr(rule, "dasharray") == NULL) == enemy[i].exact,
			      "%s's line: %s", enemy[i].id, rule);
		xmlFree(cls);
	}
	/* the estimate's note under the battalions' names, not the gun's */
	ck_assert_int_eq(count(fd, "count(//s:text[.='≈ estimated (enemy)'])"), 2);
	xmlFreeDoc(fd);
	ord_buf_release(&fr);
	ord_buf_release(&report);
	ord_game_free(g);
}
END_TEST

/* A battalion game whose referee records positions (inches). */
START_TEST(test_battalion_map)
{
	static const char scenario[] =
		"<?xml version=\"1.0\"?>\n<scenario ruleset=\"battalion\"><title>Positions</title>"
		"<nmr policy=\"hold\"/><side id=\"french\" name=\"French\"/>"
		"<side id=\"allied\" name=\"Allied\"/>"
		"<unit id=\"F1\" name=\"1/2e Léger\" side=\"french\" kind=\"line_infantry\" "
		"formation=\"column\" figures=\"24\" x=\"12\" y=\"6\"/>"
		"<unit id=\"A1\" name=\"1/28th\" side=\"allied\" kind=\"line_infantry\" "
		"figures=\"24\" x=\"12\" y=\"20\"/>"
		"<unit id=\"A2\" name=\"1/79th\" side=\"allied\" kind=\"line_infantry\" "
		"figures=\"24\" x=\"40\" y=\"40\"/></scenario>\n";
	char scen[1300];
	struct ord_buf svg = ORD_BUF_INIT, fr = ORD_BUF_INIT;
	ord_game *g = NULL;
	xmlDocPtr doc;
	FILE *f;
	double x1, y1, x2, y2;

	snprintf(scen, sizeof(scen), "%s/scenario.xml", dir);
	f = fopen(scen, "w");
	fputs(scenario, f);
	fclose(f);
	ck_assert_msg(ord_game_create(&g, path, scen, NULL) == 0, "%s", ord_error_last());
	{
		struct ord_receipt r;
		struct ord_diag d;
		ord_diag_init(&d);
		ck_assert_int_eq(ord_game_submit(g, &r, "french", "F1 ↑ 1/4\n",
						 strlen("F1 ↑ 1/4\n"), &d),
				 0);
		ck_assert_int_eq(ord_game_submit(g, &r, "allied", "A1 @F1\n", 7, &d), 0);
		ord_diag_release(&d);
	}
	ck_assert_int_eq(ord_game_seal(g, 0), 0);
	event(g, "move unit=F1 distance=2 x=12 y=8");
	resolve(g);
	/* within the musket's 12" (a fire beyond it is refused when recorded) */
	event(g, "fire unit=A1 target=F1 range=11");
	resolve(g);
	ck_assert_msg(ord_game_map(g, &svg, NULL, 1, NULL, NULL) == 0, "%s", ord_error_last());
	doc = parse(&svg);
	ck_assert(attr_num(doc, "unit-F1", "data-y") == 8);
	translate_of(doc, "unit-F1", &x1, &y1);
	translate_of(doc, "unit-A1", &x2, &y2);
	/* both at x = 12 inches */
	ck_assert(fabs(x1 - x2) < 0.01);
	ck_assert_int_eq(count(doc, "count(//s:g[@id='results']/s:g[@class='fire'])"), 1);
	/* the key says what the marks mean: a label's words, a square, a
	 * fire and its result, a melee */
	ck_assert_int_eq(count(doc, "count(//s:g[@id='legend']//s:text[. = 'unit, figures, morale'])"),
			 1);
	ck_assert_int_eq(count(doc, "count(//s:g[@id='legend']//s:text[. = 'square'])"), 1);
	ck_assert_int_eq(count(doc, "count(//s:g[@id='legend']//s:text[. = 'fire; its result boxed'])"),
			 1);
	ck_assert_int_eq(count(doc, "count(//s:g[@id='legend']//s:text[. = 'melee'])"), 1);
	xmlFreeDoc(doc);
	/* the French see A1 (it fired at them), not A2, and what its fire did */
	ck_assert_int_eq(ord_game_map(g, &fr, "french", 1, NULL, NULL), 0);
	doc = parse(&fr);
	ck_assert_int_eq(count(doc, "count(//s:g[@id='unit-A1'])"), 1);
	ck_assert_int_eq(count(doc, "count(//s:g[@id='unit-A2'])"), 0);
	ck_assert_int_eq(count(doc, "count(//s:text[starts-with(., 'A1→F1: ')])"), 1);
	xmlFreeDoc(doc);
	/* ... from the fire that met it: not on the map of the movement, nor
	 * F1 on the allies' (A1's target, but moved alone) */
	ord_buf_reset(&fr);
	ck_assert_int_eq(ord_game_map(g, &fr, "french", 1, "movement", NULL), 0);
	doc = parse(&fr);
	ck_assert_int_eq(count(doc, "count(//s:g[@data-side='allied'])"), 0);
	xmlFreeDoc(doc);
	ord_buf_reset(&fr);
	ck_assert_int_eq(ord_game_map(g, &fr, "allied", 1, "movement", NULL), 0);
	doc = parse(&fr);
	ck_assert_int_eq(count(doc, "count(//s:g[@id='unit-F1'])"), 0);
	xmlFreeDoc(doc);
	ord_buf_reset(&fr);
	ck_assert_int_eq(ord_game_map(g, &fr, "allied", 1, "fire", NULL), 0);
	doc = parse(&fr);
	ck_assert(attr_num(doc, "unit-F1", "data-y") == 8);
	xmlFreeDoc(doc);
	/* a melee recorded for a phase not resolved yet meets nobody */
	resolve(g);
	{
		char a[] = "a=F1", b[] = "b=A2";
		char *argv[] = { a, b };
		struct ord_diag d;
		ord_diag_init(&d);
		ck_assert_msg(ord_game_event(g, "melee", 2, argv, "a test of the fog", &d) == 0,
			      "%s", ord_error_last());
		ord_diag_release(&d);
	}
	side_sees(g, "french", "A2", 0);
	resolve(g);
	side_sees(g, "french", "A2", 1);
	unlink(scen);
	ord_buf_release(&svg);
	ord_buf_release(&fr);
	ord_game_free(g);
}
END_TEST

/*
 * A crowded battalion table: two units firing at each other and a third
 * pair beside them.  Each fire has a line of its own (A1→F1 and F1→A1 lay
 * on one line, their heads under the blocks) and a label saying whose
 * fire it was, apart from the others (they were written on top of each
 * other at the same middle: "A1 −2" over "F1 −8"); a miss says so, not
 * "−0"; no label hides a unit's true position or a fire's head.
 */
START_TEST(test_battalion_map_crowded)
{
	static const char scenario[] =
		"<?xml version=\"1.0\"?>\n<scenario ruleset=\"battalion\"><title>Crowded</title>"
		"<nmr policy=\"hold\"/><side id=\"french\" name=\"French\"/>"
		"<side id=\"allied\" name=\"Allied\"/>"
		"<unit id=\"F1\" name=\"1/2e Léger\" side=\"french\" kind=\"line_infantry\" "
		"formation=\"column\" figures=\"24\" x=\"12\" y=\"8\"/>"
		"<unit id=\"F2\" name=\"1/61e\" side=\"french\" kind=\"line_infantry\" "
		"figures=\"24\" x=\"16\" y=\"7\"/>"
		"<unit id=\"A1\" name=\"1/28th\" side=\"allied\" kind=\"line_infantry\" "
		"figures=\"24\" x=\"12\" y=\"20\"/>"
		"<unit id=\"A2\" name=\"1/79th\" side=\"allied\" kind=\"line_infantry\" "
		"figures=\"24\" x=\"16\" y=\"20\"/></scenario>\n";
	char scen[1300];
	struct ord_buf svg = ORD_BUF_INIT;
	struct ord_diag d;
	struct ord_receipt r;
	struct box lab[16], res[8];
	size_t nl = 0, nr = 0, i, j;
	xmlXPathObjectPtr o;
	ord_game *g = NULL;
	xmlDocPtr doc;
	double a1, f1, ox, oy;
	FILE *f;

	snprintf(scen, sizeof(scen), "%s/scenario.xml", dir);
	f = fopen(scen, "w");
	fputs(scenario, f);
	fclose(f);
	ck_assert_msg(ord_game_create(&g, path, scen, NULL) == 0, "%s", ord_error_last());
	ord_diag_init(&d);
	ck_assert_int_eq(ord_game_submit(g, &r, "french", "F1 ↑ 1/4\n", strlen("F1 ↑ 1/4\n"), &d), 0);
	ck_assert_int_eq(ord_game_submit(g, &r, "allied", "A1 @F1\nA2 @F2\n", 14, &d), 0);
	ord_diag_release(&d);
	ck_assert_int_eq(ord_game_seal(g, 0), 0);
	resolve(g);
	event(g, "fire unit=A1 target=F1 range=12");
	event(g, "fire unit=F1 target=A1 range=12");
	/* a miss in range (one firer: 0.25 of a figure) */
	event(g, "fire unit=A2 target=F2 range=12 firers=1");
	resolve(g);
	ck_assert_msg(ord_game_map(g, &svg, NULL, 1, NULL, NULL) == 0, "%s", ord_error_last());
	doc = parse(&svg);
	/* the table as the fire left it */
	ck_assert_int_eq(count(doc, "count(/s:svg/s:title[.='Crowded — turn 1, after fire'])"), 1);
	/* whose fire, each on a line of its own */
	ck_assert_int_eq(count(doc, "count(//s:text[starts-with(., 'A1→F1: ')])"), 1);
	ck_assert_int_eq(count(doc, "count(//s:text[starts-with(., 'F1→A1: ')])"), 1);
	ck_assert_int_eq(count(doc, "count(//s:text[starts-with(., 'A2→F2: ')])"), 1);
	ck_assert_int_eq(count(doc, "count(//s:text[contains(., '−0')])"), 0);
	a1 = count(doc, "number(//s:g[@id='results']/s:g[@class='fire'][1]/s:line/@x1)");
	f1 = count(doc, "number(//s:g[@id='results']/s:g[@class='fire'][2]/s:line/@x1)");
	ck_assert_msg(fabs(a1 - f1) >= 5, "the two fires lie on one line (%g, %g)", a1, f1);
	/* the head stands clear of the target's block: short of F1's centre */
	translate_of(doc, "unit-F1", &ox, &oy);
	ck_assert(count(doc, "number(//s:g[@id='results']/s:g[@class='fire'][1]/s:line/@y2)") > oy + 13);
	/* the labels: results apart from each other and from the units' labels */
	o = xpath(doc,
		  "//s:g[@class='result-label']/s:rect | //s:g[@class='unit']/s:rect[@class='label-box']");
	for (i = 0; o->nodesetval && i < (size_t)o->nodesetval->nodeNr; i++) {
		xmlNodePtr n = o->nodesetval->nodeTab[i];
		struct box *b = has_class(n, "result-box") ? &res[nr++] : &lab[nl++];
		memset(b, 0, sizeof(*b));
		origin_of(n, &ox, &oy);
		b->x = ox + prop_num(n, "x");
		b->y = oy + prop_num(n, "y");
		b->w = prop_num(n, "width");
		b->h = prop_num(n, "height");
		if (nr == 8 || nl == 16)
			break;
	}
	xmlXPathFreeObject(o);
	ck_assert_uint_eq(nr, 3);
	ck_assert_uint_eq(nl, 4);
	for (i = 0; i < nr; i++) {
		for (j = i + 1; j < nr; j++)
			ck_assert_msg(box_gap(&res[i], &res[j]) >= 2, "two results overlap");
		for (j = 0; j < nl; j++)
			ck_assert_msg(box_gap(&res[i], &lab[j]) >= 0, "a result on a unit's label");
	}
	/* no label on a fire's head (F1's label hid A2's fire at F2) */
	o = xpath(doc, "//s:g[@id='results']//s:polygon[@class='fire-head']");
	ck_assert_int_eq(o->nodesetval ? o->nodesetval->nodeNr : 0, 3);
	for (i = 0; i < (size_t)o->nodesetval->nodeNr; i++) {
		xmlChar *pts = xmlGetProp(o->nodesetval->nodeTab[i], BAD_CAST "points");
		struct box h = { 1e9, 1e9, 0, 0, "", 0, 0, 0 };
		double x1 = -1e9, y1 = -1e9, px, py;
		const char *p = (const char *)pts;
		int k;
		while (p && sscanf(p, "%lf,%lf%n", &px, &py, &k) == 2) {
			h.x = fmin(h.x, px), x1 = fmax(x1, px);
			h.y = fmin(h.y, py), y1 = fmax(y1, py);
			p += k;
		}
		h.w = x1 - h.x, h.h = y1 - h.y;
		xmlFree(pts);
		for (j = 0; j < nl; j++)
			ck_assert_msg(box_gap(&h, &lab[j]) >= 0, "a unit's label on a fire's head");
		for (j = 0; j < nr; j++)
			ck_assert_msg(box_gap(&h, &res[j]) >= 0, "a result on a fire's head");
	}
	xmlXPathFreeObject(o);
	/* no label on a unit's true position (the pin at its group's origin) */
	o = xpath(doc, "//s:g[@class='unit']");
	for (i = 0; o->nodesetval && i < (size_t)o->nodesetval->nodeNr; i++) {
		struct box pin;
		memset(&pin, 0, sizeof(pin));
		origin_of(o->nodesetval->nodeTab[i], &pin.x, &pin.y);
		pin.x -= 2.2, pin.y -= 2.2, pin.w = pin.h = 4.4;
		for (j = 0; j < nl; j++)
			ck_assert_msg(box_gap(&pin, &lab[j]) >= 0, "a label on a unit's position");
		for (j = 0; j < nr; j++)
			ck_assert_msg(box_gap(&pin, &res[j]) >= 0, "a result on a unit's position");
	}
	xmlXPathFreeObject(o);
	xmlFreeDoc(doc);
	unlink(scen);
	ord_buf_release(&svg);
	ord_game_free(g);
}
END_TEST

/*
 * A dozen battalions set up within a few inches: every label has a place
 * of its own, joined to its block by a line when it stands away, and no
 * block lies on another's label (the labels that found no place within
 * 80 units were laid on the others).
 */
START_TEST(test_battalion_map_throng)
{
	struct ord_buf xml = ORD_BUF_INIT, svg = ORD_BUF_INIT;
	struct box lab[32], blk[32];
	size_t nl = 0, nb = 0, i, j;
	xmlXPathObjectPtr o;
	ord_game *g = NULL;
	xmlDocPtr doc;
	char scen[1300];
	FILE *f;

	ord_buf_adds(&xml, "<?xml version=\"1.0\"?>\n<scenario ruleset=\"battalion\"><title>Throng"
			   "</title><nmr policy=\"hold\"/><side id=\"french\" name=\"French\"/>"
			   "<side id=\"allied\" name=\"Allied\"/>");
	for (i = 0; i < 12; i++)
		ord_buf_addf(&xml,
			     "<unit id=\"%c%zu\" name=\"n%zu\" side=\"%s\" kind=\"line_infantry\" "
			     "figures=\"24\" x=\"%zu\" y=\"%zu\"/>",
			     i % 2 ? 'A' : 'F', i, i, i % 2 ? "allied" : "french", 20 + i % 4,
			     20 + i / 4);
	ord_buf_adds(&xml, "</scenario>\n");
	snprintf(scen, sizeof(scen), "%s/scenario.xml", dir);
	f = fopen(scen, "w");
	fputs(xml.buf, f);
	fclose(f);
	ck_assert_msg(ord_game_create(&g, path, scen, NULL) == 0, "%s", ord_error_last());
	ck_assert_msg(ord_game_map(g, &svg, NULL, 1, NULL, NULL) == 0, "%s", ord_error_last());
	doc = parse(&svg);
	o = xpath(doc, "//s:g[@class='unit']");
	for (i = 0; o->nodesetval && i < (size_t)o->nodesetval->nodeNr && nl < 32; i++) {
		xmlNodePtr u = o->nodesetval->nodeTab[i], r, lb = NULL, bk = NULL;
		double ox, oy;
		origin_of(u, &ox, &oy);
		for (r = u->children; r; r = r->next)
			if (r->type == XML_ELEMENT_NODE && !strcmp((const char *)r->name, "rect")) {
				if (has_class(r, "label-box"))
					lb = r;
				else
					bk = r;
			}
		ck_assert(lb && bk);
		memset(&lab[nl], 0, sizeof(lab[nl]));
		lab[nl].x = ox + prop_num(lb, "x"), lab[nl].y = oy + prop_num(lb, "y");
		lab[nl].w = prop_num(lb, "width"), lab[nl].h = prop_num(lb, "height");
		lab[nl].leader = child_of_class(u, "label-leader") != NULL;
		memset(&blk[nb], 0, sizeof(blk[nb]));
		blk[nb].x = ox + prop_num(bk, "x"), blk[nb].y = oy + prop_num(bk, "y");
		blk[nb].w = prop_num(bk, "width"), blk[nb].h = prop_num(bk, "height");
		nl++, nb++;
	}
	xmlXPathFreeObject(o);
	ck_assert_uint_eq(nl, 12);
	for (i = 0; i < nl; i++) {
		struct box c = { blk[i].x + blk[i].w / 2, blk[i].y + blk[i].h / 2, 0, 0, "", 0, 0, 0 };
		for (j = 0; j < nl; j++) {
			if (j > i)
				ck_assert_msg(box_gap(&lab[i], &lab[j]) >= 0,
					      "labels %zu and %zu overlap", i, j);
			if (j != i)
				ck_assert_msg(box_gap(&blk[i], &lab[j]) >= 0,
					      "block %zu lies on label %zu", i, j);
		}
		ck_assert_msg(lab[i].leader || box_gap(&lab[i], &c) <= 30,
			      "label %zu stands away with no line", i);
	}
	xmlFreeDoc(doc);
	unlink(scen);
	ord_buf_release(&xml);
	ord_buf_release(&svg);
	ord_game_free(g);
}
END_TEST

Suite *ord_test_suite(void)
{
	Suite *s = suite_create("pictures");
	TCase *tc = tcase_create("pictures");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_map_layers_and_ids);
	tcase_add_test(tc, test_units_where_the_game_says);
	tcase_add_test(tc, test_png_pixel_probes);
	tcase_add_test(tc, test_fog_canary);
	tcase_add_test(tc, test_same_bytes);
	tcase_add_test(tc, test_map_direction_alike);
	tcase_add_test(tc, test_map_retreat_arrow);
	tcase_add_test(tc, test_map_retreat_arrow_made_before);
	tcase_add_test(tc, test_map_enemy_no_path);
	tcase_add_test(tc, test_map_enemy_not_before_met);
	tcase_add_test(tc, test_fog_unresolved_event);
	tcase_add_test(tc, test_chart_enemy_from_met);
	tcase_add_test(tc, test_map_fire_on_own_labelled);
	tcase_add_test(tc, test_map_phases_and_errors);
	tcase_add_test(tc, test_map_labels_apart);
	tcase_add_test(tc, test_chart_in_danish);
	tcase_add_test(tc, test_map_legend_signs);
	tcase_add_test(tc, test_map_fire_both_ways);
	tcase_add_test(tc, test_map_melee_losses_named);
	tcase_add_test(tc, test_map_crowd);
	tcase_add_test(tc, test_battalion_chart);
	tcase_add_test(tc, test_battalion_chart_enemy_as_reported);
	tcase_add_test(tc, test_battalion_map);
	tcase_add_test(tc, test_battalion_map_crowded);
	tcase_add_test(tc, test_battalion_map_throng);
	suite_add_tcase(s, tc);
	return s;
}
