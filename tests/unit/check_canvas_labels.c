/*
 * check_canvas_labels.c - whose label is it: a unit's label on a map
 * (ord_canvas_label_spot) stands nearer its own block than any other's,
 * or is joined to its block by a line.  On the battalion map of units in
 * a line 6" apart (84 units between centres, a label about 90 wide) each
 * label had been pushed to the nearest free place, under the next block:
 * "A1 24 good" under A2's block, "F1 13 shaken" on F5's skirmish line,
 * read by a player as F5 shaken.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

#include "canvas.h"
#include "svg_fixture.h"

static char dir[1024];
static char path[1200];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "%s/check_canvas_labels.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/game.orderly", dir);
}

static void teardown(void)
{
	static const char *const names[] = { "game.orderly", "game.orderly-wal", "game.orderly-shm",
					     "scenario.xml" };
	char p[1300];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		unlink(p);
	}
	rmdir(dir);
}

struct box {
	double x, y, w, h;
};

/* How far apart two boxes are (< 0: they overlap by that much). */
static double gap(const struct box *a, const struct box *b)
{
	double gx = fmax(a->x, b->x) - fmin(a->x + a->w, b->x + b->w);
	double gy = fmax(a->y, b->y) - fmin(a->y + a->h, b->y + b->h);

	return fmax(gx, gy);
}

static int inside(const struct box *b, double x, double y)
{
	return x >= b->x - 0.5 && x <= b->x + b->w + 0.5 && y >= b->y - 0.5 && y <= b->y + b->h + 0.5;
}

/* ---- the canvas alone ---- */

/* Five blocks 44 x 12 in a line, 84 apart, and a label 90 x 16 each. */
START_TEST(test_label_spot_line)
{
	struct ord_canvas *cv;
	struct box blk[5], lab[5];
	size_t i, j;

	ord_canvas_new(&cv, 600, 200);
	for (i = 0; i < 5; i++) {
		blk[i] = (struct box){ 40 + 84.0 * (double)i, 90, 44, 12 };
		ord_canvas_reserve_owned(cv, blk[i].x, blk[i].y, blk[i].w + 2, blk[i].h + 2,
					 (unsigned)i + 1);
	}
	for (i = 0; i < 5; i++) {
		lab[i].w = 90, lab[i].h = 16;
		ck_assert_int_eq(ord_canvas_label_spot(cv, &lab[i].x, &lab[i].y, 90, 16, (unsigned)i + 1,
						       blk[i].x, blk[i].y, blk[i].w, blk[i].h),
				 1);
		ord_canvas_reserve(cv, lab[i].x, lab[i].y, 90, 16);
	}
	for (i = 0; i < 5; i++) {
		ck_assert_msg(gap(&lab[i], &blk[i]) <= 8, "label %zu stands %g off its block", i,
			      gap(&lab[i], &blk[i]));
		for (j = 0; j < 5; j++) {
			if (j == i)
				continue;
			ck_assert_msg(gap(&lab[i], &blk[j]) >= gap(&lab[i], &blk[i]) + 6,
				      "label %zu stands %g from block %zu, %g from its own", i,
				      gap(&lab[i], &blk[j]), j, gap(&lab[i], &blk[i]));
			ck_assert_msg(gap(&lab[i], &lab[j]) >= 0, "labels %zu and %zu overlap", i, j);
		}
	}
	ord_canvas_free(cv);
}
END_TEST

/* A block hemmed in by others: no plain place, the nearest free one (0:
 * the caller draws a line); a rectangle of nobody's is no other unit's. */
START_TEST(test_label_spot_crowd)
{
	struct ord_canvas *cv;
	double x = 0, y = 0;
	int dx, dy;
	unsigned k = 2;

	ord_canvas_new(&cv, 600, 600);
	ord_canvas_reserve_owned(cv, 280, 290, 46, 14, 1);
	for (dx = -1; dx <= 1; dx++)
		for (dy = -1; dy <= 1; dy++)
			if (dx || dy)
				ord_canvas_reserve_owned(cv, 280 + 60 * dx, 290 + 30 * dy, 46, 14, k++);
	ck_assert_int_eq(ord_canvas_label_spot(cv, &x, &y, 90, 16, 1, 280, 290, 44, 12), 0);
	ck_assert(x >= 0 && y >= 0 && x + 90 <= 600);
	ord_canvas_free(cv);
	/* the same block among rectangles of nobody's (a fire's head) */
	ord_canvas_new(&cv, 600, 600);
	ord_canvas_reserve_owned(cv, 280, 290, 46, 14, 1);
	ord_canvas_reserve(cv, 330, 285, 20, 20);
	ck_assert_int_eq(ord_canvas_label_spot(cv, &x, &y, 90, 16, 1, 280, 290, 44, 12), 1);
	ord_canvas_free(cv);
}
END_TEST

/* ---- the battalion map ---- */

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

/* A unit of a test's scenario: a line infantry battalion of 24. */
struct unit {
	const char *id, *side, *formation;
	double x, y; /* inches */
};

/*
 * The map of turn 1 (as the scenario set it up) of units; every label is its own unit's: nearer its own block
 * than any other, or joined to it by a line that starts on its block and
 * ends on its label.  Returns how many labels have a line.
 */
static int map_labels_are_own(const struct unit *units, size_t nunits)
{
	char scen[1300], msg[256];
	struct box blk[64], lab[64];
	char ids[64][16];
	int leader[64], nleaders = 0;
	double lx1[64], ly1[64], lx2[64], ly2[64];
	size_t n = 0, i, j;
	struct ord_buf svg = ORD_BUF_INIT;
	xmlXPathObjectPtr o;
	xmlDocPtr doc;
	ord_game *g = NULL;
	FILE *f;

	snprintf(scen, sizeof(scen), "%s/scenario.xml", dir);
	f = fopen(scen, "w");
	ck_assert_ptr_nonnull(f);
	fputs("<?xml version=\"1.0\"?>\n<scenario ruleset=\"battalion\"><title>Line</title>"
	      "<nmr policy=\"hold\"/><side id=\"french\" name=\"French\"/>"
	      "<side id=\"allied\" name=\"Allied\"/>",
	      f);
	for (i = 0; i < nunits; i++)
		fprintf(f,
			"<unit id=\"%s\" name=\"%s\" side=\"%s\" kind=\"line_infantry\" "
			"formation=\"%s\" figures=\"24\" x=\"%g\" y=\"%g\"/>\n",
			units[i].id, units[i].id, units[i].side, units[i].formation, units[i].x,
			units[i].y);
	fputs("</scenario>\n", f);
	fclose(f);
	ck_assert_msg(ord_game_create(&g, path, scen, NULL) == 0, "%s", ord_error_last());
	ck_assert_msg(ord_game_map(g, &svg, NULL, 1, NULL, NULL) == 0, "%s", ord_error_last());
	doc = xmlReadMemory(svg.buf, (int)svg.len, "map.svg", NULL,
			    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	ck_assert_ptr_nonnull(doc);
	o = xpath(doc, "//s:g[@class='unit']");
	for (i = 0; o->nodesetval && i < (size_t)o->nodesetval->nodeNr && n < 64; i++) {
		xmlNodePtr u = o->nodesetval->nodeTab[i], r;
		xmlChar *id = xmlGetProp(u, BAD_CAST "id"), *t = xmlGetProp(u, BAD_CAST "transform");
		double ox = 0, oy = 0;
		int got_block = 0, got_label = 0;
		ck_assert(t && sscanf((const char *)t, "translate(%lf %lf)", &ox, &oy) == 2);
		snprintf(ids[n], sizeof(ids[n]), "%s", (const char *)id + strlen("unit-"));
		leader[n] = 0;
		for (r = u->children; r; r = r->next) {
			if (r->type != XML_ELEMENT_NODE)
				continue;
			if (!strcmp((const char *)r->name, "rect")) {
				struct box *b = has_class(r, "label-box") ? &lab[n] : &blk[n];
				b->x = ox + prop_num(r, "x"), b->y = oy + prop_num(r, "y");
				b->w = prop_num(r, "width"), b->h = prop_num(r, "height");
				if (b == &lab[n])
					got_label = 1;
				else
					got_block = 1;
			} else if (!strcmp((const char *)r->name, "line") &&
				   has_class(r, "label-leader")) {
				leader[n] = 1;
				lx1[n] = ox + prop_num(r, "x1"), ly1[n] = oy + prop_num(r, "y1");
				lx2[n] = ox + prop_num(r, "x2"), ly2[n] = oy + prop_num(r, "y2");
			}
		}
		ck_assert_msg(got_block && got_label, "%s: no block or no label", ids[n]);
		xmlFree(id);
		xmlFree(t);
		n++;
	}
	xmlXPathFreeObject(o);
	for (i = 0; i < n; i++) {
		if (leader[i]) {
			nleaders++;
			ck_assert_msg(inside(&blk[i], lx1[i], ly1[i]) &&
					      inside(&lab[i], lx2[i], ly2[i]),
				      "%s: its label's line does not join its block to its label",
				      ids[i]);
			continue;
		}
		for (j = 0; j < n; j++) {
			if (j == i)
				continue;
			snprintf(msg, sizeof(msg),
				 "the label of %s stands %.1f from %s's block, %.1f from its own, with no line",
				 ids[i], gap(&lab[i], &blk[j]), ids[j], gap(&lab[i], &blk[i]));
			ck_assert_msg(gap(&lab[i], &blk[i]) < gap(&lab[i], &blk[j]), "%s", msg);
		}
	}
	xmlFreeDoc(doc);
	ord_buf_release(&svg);
	ord_game_free(g);
	return nleaders;
}

/* Two lines of battalions 6" apart, in line and in column (Quatre Bras
 * as the example sets it up: "F1 24 good" stood over the gap to F2). */
START_TEST(test_battalion_lines)
{
	static const struct unit units[] = {
		{ "A1", "allied", "line", 22, 14 },   { "A2", "allied", "line", 28, 14 },
		{ "A3", "allied", "square", 34, 13 }, { "A4", "allied", "column", 40, 14 },
		{ "A7", "allied", "line", 14, 11 },   { "F1", "french", "column", 20, 38 },
		{ "F2", "french", "column", 26, 38 }, { "F3", "french", "column", 32, 38 },
		{ "F4", "french", "column", 38, 38 },
	};

	/* room for every label beside its own block: no line needed */
	ck_assert_int_eq(map_labels_are_own(units, ORD_ARRAY_SIZE(units)), 0);
}
END_TEST

/* The French after their move at Quatre Bras: F1 in column at 20",
 * F5's skirmish line at 24", F2 at 26" an inch lower, F9 above-left. */
START_TEST(test_battalion_cluster)
{
	static const struct unit units[] = {
		{ "F1", "french", "column", 20, 33 }, { "F5", "french", "skirmish", 24, 33 },
		{ "F2", "french", "column", 26, 34 }, { "F3", "french", "column", 32, 34.5 },
		{ "F9", "french", "column", 16, 31 }, { "A1", "allied", "line", 22, 14 },
	};

	map_labels_are_own(units, ORD_ARRAY_SIZE(units));
}
END_TEST

/* A throng: two lines of battalions 2" apart, where no label finds a
 * plain place beside its block; each still its own unit's. */
START_TEST(test_battalion_throng)
{
	static const struct unit units[] = {
		{ "F1", "french", "line", 20, 20 }, { "F2", "french", "line", 22, 20 },
		{ "F3", "french", "line", 24, 20 }, { "F4", "french", "line", 20, 21 },
		{ "F5", "french", "line", 22, 21 }, { "F6", "french", "line", 24, 21 },
	};

	ck_assert_int_gt(map_labels_are_own(units, ORD_ARRAY_SIZE(units)), 0);
}
END_TEST

Suite *ord_test_suite(void)
{
	Suite *s = suite_create("canvas_labels");
	TCase *tc = tcase_create("canvas_labels");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_label_spot_line);
	tcase_add_test(tc, test_label_spot_crowd);
	tcase_add_test(tc, test_battalion_lines);
	tcase_add_test(tc, test_battalion_cluster);
	tcase_add_test(tc, test_battalion_throng);
	suite_add_tcase(s, tc);
	return s;
}
