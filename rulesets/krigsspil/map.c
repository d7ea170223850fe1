/*
 * map.c - the hex terrain map (map.h): reading the <map> document the
 * schema has checked, positions to plates, and tracing a straight move
 * over the plates to find the features and terrain edges it crosses.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rulesets/krigsspil/map.h"
#include "xml/xmlsafe.h"

static const double SQRT3 = 1.7320508075688772;

static const struct {
	const char *name, *alt;
} sides[] = {
	{ "E", "Ø" }, { "SE", "SØ" }, { "SW", "SV" }, { "W", "V" }, { "NW", "NV" }, { "NE", "NØ" },
};

const char *ks_side_name(int side)
{
	if (side == KS_SIDE_CENTRE)
		return "C";
	return side >= 0 && side < 6 ? sides[side].name : "?";
}

const char *ks_side_name_da(int side)
{
	if (side == KS_SIDE_CENTRE)
		return "C";
	return side >= 0 && side < 6 ? sides[side].alt : "?";
}

int ks_side_parse(const char *s)
{
	int i;

	if (!s)
		return -1;
	if (!strcmp(s, "C"))
		return KS_SIDE_CENTRE;
	for (i = 0; i < 6; i++)
		if (!strcmp(s, sides[i].name) || !strcmp(s, sides[i].alt))
			return i;
	return -1;
}

/* The schema allows Danish letters or their ASCII forms; keep one spelling. */
static void canonical(char *out, size_t n, const char *v)
{
	static const char *const map[][2] = {
		{ "åbent", "aabent" },
		{ "mose", "sump" },
		{ "vandløb", "vandloeb" },
		{ "feltbefæstning", "feltbefaestning" },
	};
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(map); i++)
		if (!strcmp(v, map[i][0])) {
			v = map[i][1];
			break;
		}
	snprintf(out, n, "%s", v);
}

void ks_map_free(struct ks_map *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->n; i++) {
		free(m->p[i].f);
		free(m->p[i].name);
	}
	free(m->p);
	free(m->title);
	free(m);
}

static long attr_long(xmlNodePtr n, const char *name, long def)
{
	char *v = ord_xml_attr(n, name);
	long l = def;

	if (v && ord_parse_long(v, &l))
		l = def;
	free(v);
	return l;
}

static int load_feature(struct ks_feature *f, xmlNodePtr n, const struct ord_xml_lines *lines,
			const char *name)
{
	char *type = ord_xml_attr(n, "type"), *from = ord_xml_attr(n, "from");
	char *to = ord_xml_attr(n, "to"), *width = ord_xml_attr(n, "width");
	char *obst = ord_xml_attr(n, "obstacle"), *high = ord_xml_attr(n, "high");
	int err = 0;

	memset(f, 0, sizeof(*f));
	f->line = ord_xml_start_line(lines, n);
	canonical(f->type, sizeof(f->type), type ? type : "");
	f->from = ks_side_parse(from);
	f->to = ks_side_parse(to);
	if (f->from < 0 || f->to < 0 || f->from == f->to) {
		err = ord_error_set(ORD_EBADDATA,
				    "%s:%u: feature '%s' must run between two different sides (from '%s' to '%s')",
				    name, f->line, f->type, from ? from : "", to ? to : "");
		goto out;
	}
	if (width) {
		if (strcmp(f->type, "vandloeb")) {
			err = ord_error_set(ORD_EBADDATA,
					    "%s:%u: only a stream (vandløb) has a width, not '%s'",
					    name, f->line, f->type);
			goto out;
		}
		ord_parse_num(width, &f->width);
	}
	if (obst)
		snprintf(f->obstacle, sizeof(f->obstacle), "%s", obst);
	f->high = high && !strcmp(high, "yes");
out:
	free(type);
	free(from);
	free(to);
	free(width);
	free(obst);
	free(high);
	return err;
}

int ks_map_from_xml(struct ks_map **out, xmlNodePtr root, const struct ord_xml_lines *lines,
		    const char *name, double plate_cm)
{
	struct ks_map *m = ord_xcalloc(1, sizeof(*m));
	xmlNodePtr n, c;
	char *v;
	size_t i;
	int err = 0;

	*out = NULL;
	m->title = ord_xml_attr(root, "title");
	m->plate_cm = plate_cm;
	if ((v = ord_xml_attr(root, "plate")) != NULL) {
		ord_parse_num(v, &m->plate_cm);
		free(v);
	}
	for (n = ord_xml_child(root, "plate"); n; n = ord_xml_next(n->next, "plate")) {
		struct ks_plate *p;
		char *t;

		m->p = ord_xrealloc(m->p, (m->n + 1) * sizeof(*m->p));
		p = &m->p[m->n++];
		memset(p, 0, sizeof(*p));
		p->line = ord_xml_start_line(lines, n);
		p->q = (int)attr_long(n, "q", 0);
		p->r = (int)attr_long(n, "r", 0);
		p->height = (int)attr_long(n, "height", 0);
		p->name = ord_xml_attr(n, "name");
		t = ord_xml_attr(n, "terrain");
		canonical(p->terrain, sizeof(p->terrain), t ? t : "aabent");
		free(t);
		for (i = 0; i + 1 < m->n; i++)
			if (m->p[i].q == p->q && m->p[i].r == p->r) {
				err = ord_error_set(ORD_EBADDATA,
						    "%s:%u: plate (%d,%d) is given twice (first on line %u)",
						    name, p->line, p->q, p->r, m->p[i].line);
				goto out;
			}
		for (c = ord_xml_child(n, "feature"); c; c = ord_xml_next(c->next, "feature")) {
			p->f = ord_xrealloc(p->f, (p->nf + 1) * sizeof(*p->f));
			if ((err = load_feature(&p->f[p->nf], c, lines, name)) != 0)
				goto out;
			p->nf++;
		}
	}
	*out = m;
	m = NULL;
out:
	ks_map_free(m);
	return err;
}

void ks_map_centre(const struct ks_map *m, int q, int r, double *x, double *y)
{
	*x = m->plate_cm * (q + r / 2.0);
	*y = m->plate_cm * (SQRT3 / 2) * r;
}

void ks_map_axial(const struct ks_map *m, double x, double y, int *q, int *r)
{
	/* size = circumradius = P / sqrt 3; the standard pixel-to-hex with
	 * cube rounding */
	double size = m->plate_cm / SQRT3;
	double fq = (SQRT3 / 3 * x - y / 3) / size, fr = (2.0 / 3 * y) / size, fs = -fq - fr;
	double rq = round(fq), rr = round(fr), rs = round(fs);
	double dq = fabs(rq - fq), dr = fabs(rr - fr), ds = fabs(rs - fs);

	if (dq > dr && dq > ds)
		rq = -rr - rs;
	else if (dr > ds)
		rr = -rq - rs;
	*q = (int)rq;
	*r = (int)rr;
}

const struct ks_plate *ks_map_plate(const struct ks_map *m, int q, int r)
{
	size_t i;

	for (i = 0; m && i < m->n; i++)
		if (m->p[i].q == q && m->p[i].r == r)
			return &m->p[i];
	return NULL;
}

const struct ks_plate *ks_map_at(const struct ks_map *m, double x, double y)
{
	int q, r;

	if (!m)
		return NULL;
	ks_map_axial(m, x, y, &q, &r);
	return ks_map_plate(m, q, r);
}

/* The midpoint of a side (or the centre) of a plate. */
static void side_point(const struct ks_map *m, int q, int r, int side, double *x, double *y)
{
	ks_map_centre(m, q, r, x, y);
	if (side == KS_SIDE_CENTRE)
		return;
	/* side 0 faces east; each next side 60 degrees clockwise (y is south) */
	*x += m->plate_cm / 2 * cos(side * M_PI / 3);
	*y += m->plate_cm / 2 * sin(side * M_PI / 3);
}

/* Do segments ab and cd cross (touching counts)? */
static int segments_cross(double ax, double ay, double bx, double by, double cx, double cy,
			  double dx, double dy, double *t)
{
	double rx = bx - ax, ry = by - ay, sx = dx - cx, sy = dy - cy;
	double den = rx * sy - ry * sx, u;

	if (fabs(den) < 1e-12)
		return 0;
	*t = ((cx - ax) * sy - (cy - ay) * sx) / den;
	u = ((cx - ax) * ry - (cy - ay) * rx) / den;
	return *t >= -1e-9 && *t <= 1 + 1e-9 && u >= -1e-9 && u <= 1 + 1e-9;
}

struct hit {
	double t;
	struct ks_crossing c;
};

static int by_t(const void *a, const void *b)
{
	const struct hit *x = a, *y = b;

	return x->t < y->t ? -1 : x->t > y->t;
}

size_t ks_map_trace(const struct ks_map *m, double x0, double y0, double x1, double y1,
		    struct ks_crossing *out, size_t max)
{
	struct hit *hits = NULL;
	size_t nh = 0, i, j, k;
	double len = hypot(x1 - x0, y1 - y0);
	int steps, s, pq, pr;

	if (!m || max == 0)
		return 0;
	/* linear features: a feature is the two half-lines side->centre->side */
	for (i = 0; i < m->n; i++) {
		const struct ks_plate *p = &m->p[i];
		for (j = 0; j < p->nf; j++) {
			const struct ks_feature *f = &p->f[j];
			double cx, cy, ex, ey, t;
			int ends[2] = { f->from, f->to }, hit = 0;
			double best = 2;

			ks_map_centre(m, p->q, p->r, &cx, &cy);
			for (k = 0; k < 2; k++) {
				if (ends[k] == KS_SIDE_CENTRE)
					continue;
				side_point(m, p->q, p->r, ends[k], &ex, &ey);
				if (segments_cross(x0, y0, x1, y1, cx, cy, ex, ey, &t) && t < best) {
					best = t;
					hit = 1;
				}
			}
			if (!hit)
				continue;
			hits = ord_xrealloc(hits, (nh + 1) * sizeof(*hits));
			hits[nh].t = best;
			hits[nh].c.q = p->q;
			hits[nh].c.r = p->r;
			hits[nh].c.what = f->type;
			hits[nh].c.edge = 0;
			hits[nh].c.f = f;
			hits[nh].c.to = hits[nh].c.from = NULL;
			hits[nh].c.from_q = p->q;
			hits[nh].c.from_r = p->r;
			nh++;
		}
	}
	/* terrain edges: walk the line in 1 cm steps and note each change */
	steps = (int)ceil(len);
	if (steps < 1)
		steps = 1;
	ks_map_axial(m, x0, y0, &pq, &pr);
	for (s = 1; s <= steps; s++) {
		double t = (double)s / steps;
		const struct ks_plate *a, *b;
		int q, r, aq = pq, ar = pr;

		ks_map_axial(m, x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, &q, &r);
		if (q == pq && r == pr)
			continue;
		a = ks_map_plate(m, pq, pr);
		b = ks_map_plate(m, q, r);
		pq = q;
		pr = r;
		if (!b || (a && !strcmp(a->terrain, b->terrain)))
			continue;
		hits = ord_xrealloc(hits, (nh + 1) * sizeof(*hits));
		hits[nh].t = t;
		hits[nh].c.q = q;
		hits[nh].c.r = r;
		/* the edge that matters: the terrain entered, or the one left
		 * when entering open ground */
		hits[nh].c.what = strcmp(b->terrain, "aabent") || !a ? b->terrain : a->terrain;
		hits[nh].c.edge = 1;
		hits[nh].c.f = NULL;
		hits[nh].c.to = b->terrain;
		hits[nh].c.from = a ? a->terrain : "aabent";
		hits[nh].c.from_q = aq;
		hits[nh].c.from_r = ar;
		nh++;
	}
	if (nh)
		qsort(hits, nh, sizeof(*hits), by_t);
	for (i = 0; i < nh && i < max; i++)
		out[i] = hits[i].c;
	free(hits);
	return i;
}

/* The plate under the point at t of the move from (x0, y0) to (x1, y1). */
static void axial_at(const struct ks_map *m, double x0, double y0, double x1, double y1, double t,
		     int *q, int *r)
{
	ks_map_axial(m, x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, q, r);
}

static void add_segment(const struct ks_map *m, struct ks_segment *out, size_t *n, size_t max,
			int q, int r, double cm)
{
	const struct ks_plate *p = ks_map_plate(m, q, r);

	if (cm < 1e-6)
		return;
	/* one stretch per plate, and one for plates of the same ground in a row */
	if (*n && ((out[*n - 1].q == q && out[*n - 1].r == r) ||
		   !strcmp(out[*n - 1].terrain, p ? p->terrain : "aabent") || *n == max)) {
		out[*n - 1].cm += cm;
		return;
	}
	out[*n].q = q;
	out[*n].r = r;
	out[*n].terrain = p ? p->terrain : "aabent";
	out[*n].cm = cm;
	(*n)++;
}

size_t ks_map_segments(const struct ks_map *m, double x0, double y0, double x1, double y1,
		       struct ks_segment *out, size_t max)
{
	double len = hypot(x1 - x0, y1 - y0), t0 = 0, prev = 0;
	size_t n = 0;
	int steps, s, pq, pr;

	if (!m || max == 0 || len <= 0)
		return 0;
	/* 1 cm steps; each change of plate found by halving, again from there
	 * when a step crosses a corner into a third plate */
	steps = (int)ceil(len);
	axial_at(m, x0, y0, x1, y1, 0, &pq, &pr);
	for (s = 1; s <= steps; s++) {
		double t = (double)s / steps;
		int q, r;

		axial_at(m, x0, y0, x1, y1, t, &q, &r);
		while (q != pq || r != pr) {
			double lo = prev, hi = t;
			int k;
			for (k = 0; k < 40; k++) {
				double mid = (lo + hi) / 2;
				int mq, mr;
				axial_at(m, x0, y0, x1, y1, mid, &mq, &mr);
				if (mq == pq && mr == pr)
					lo = mid;
				else
					hi = mid;
			}
			add_segment(m, out, &n, max, pq, pr, (hi - t0) * len);
			t0 = prev = hi;
			axial_at(m, x0, y0, x1, y1, hi, &pq, &pr);
		}
		prev = t;
	}
	add_segment(m, out, &n, max, pq, pr, (1 - t0) * len);
	return n;
}
