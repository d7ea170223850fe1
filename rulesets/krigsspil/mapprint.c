/*
 * mapprint.c - the krigsspil map in words and as text (calc.h): the
 * terrain under a position for the reports, and the plates printed as a
 * grid with a legend from the Skema (`orderly rules krigsspil kort`, the
 * referee's report).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rulesets/krigsspil/calc.h"

/* ---- the map as text ------------------------------------------------------------ */

const struct ord_row *ks_terrain_row(const struct ks_rules *r, const char *terrain)
{
	const struct ord_row *row = NULL;
	struct ord_kv m;

	ord_kv_init(&m);
	ord_kv_set(&m, "terraen", terrain);
	if (ord_table_find(&row, ks_table(r, "terraen"), &m))
		ord_error_clear();
	ord_kv_release(&m);
	return row;
}

static const struct ord_row *feature_row(const struct ks_rules *r, const char *type)
{
	const struct ord_row *row = NULL;
	struct ord_kv m;

	ord_kv_init(&m);
	ord_kv_set(&m, "element", type);
	if (ord_table_find(&row, ks_table(r, "hindringer"), &m))
		ord_error_clear();
	ord_kv_release(&m);
	return row;
}

static const char *row_name(const struct ord_row *row, const char *lang, const char *def)
{
	const char *s;

	if (!row)
		return def;
	s = ord_row_str(row, lang && !strcmp(lang, "en") ? "navn_en" : "navn");
	return s ? s : def;
}

void ks_map_describe(const struct ks_rules *r, double x, double y, struct ks_text *out)
{
	const struct ks_plate *p = ks_map_at(r->map, x, y);
	const struct ord_row *tr;
	size_t i;

	if (!r->map)
		return;
	if (!p) {
		int q, rr;
		ks_map_axial(r->map, x, y, &q, &rr);
		KS_TF(out, "uden for kortet (plade %d,%d)", "off the map (plate %d,%d)", q, rr);
		return;
	}
	tr = ks_terrain_row(r, p->terrain);
	ord_buf_addf(&out->da, "%s", row_name(tr, "da", p->terrain));
	ord_buf_addf(&out->en, "%s", row_name(tr, "en", p->terrain));
	KS_TF(out, ", højde %d F, plade %d,%d", ", height %d F, plate %d,%d", p->height, p->q, p->r);
	if (p->name)
		KS_TF(out, " (%s)", " (%s)", p->name);
	for (i = 0; i < p->nf; i++) {
		const struct ord_row *fr = feature_row(r, p->f[i].type);
		KS_TF(out, "%s%s", "%s%s", i ? ", " : "; ", "");
		ord_buf_adds(&out->da, row_name(fr, "da", p->f[i].type));
		ord_buf_adds(&out->en, row_name(fr, "en", p->f[i].type));
	}
}

void ks_map_print(const struct ks_rules *r, const struct ord_kv *marks, const char *lang,
		  struct ord_buf *out)
{
	const struct ks_map *m = r->map;
	int en = lang && !strcmp(lang, "en");
	int cmin = 0, cmax = 0, rmin = 0, rmax = 0, row;
	size_t i, j;

	if (!m) {
		ord_buf_adds(out, en ? "no map: the game was created without one\n"
				     : "intet kort: spillet er oprettet uden kort\n");
		return;
	}
	for (i = 0; i < m->n; i++) {
		int c = 2 * m->p[i].q + m->p[i].r;
		if (!i || c < cmin)
			cmin = c;
		if (!i || c > cmax)
			cmax = c;
		if (!i || m->p[i].r < rmin)
			rmin = m->p[i].r;
		if (!i || m->p[i].r > rmax)
			rmax = m->p[i].r;
	}
	ord_buf_addf(out, en ? "map: %s (%zu plates, " : "kort: %s (%zu plader à ",
		     m->title ? m->title : "", m->n);
	ord_tables_fmt(out, m->plate_cm, 0);
	ord_buf_adds(out, en ? " cm across; x east, y south)\n" : " cm; x mod øst, y mod syd)\n");
	for (row = rmin; row <= rmax; row++) {
		struct ord_buf line = ORD_BUF_INIT;
		ord_buf_addf(&line, "r%+4d  ", row);
		for (i = 0; i < m->n; i++) {
			const struct ks_plate *p = &m->p[i];
			const struct ord_row *tr;
			size_t col, at;
			char key[32];
			const char *tegn;
			if (p->r != row)
				continue;
			col = (size_t)(2 * p->q + p->r - cmin) * 2 + 7;
			while (line.len < col)
				ord_buf_addch(&line, ' ');
			/* a plate's cell may only be written where the line ends
			 * (cells never overlap: columns step by 4) */
			at = line.len;
			(void)at;
			tr = ks_terrain_row(r, p->terrain);
			tegn = tr ? ord_row_str(tr, "tegn") : "?";
			snprintf(key, sizeof(key), "%d,%d", p->q, p->r);
			ord_buf_addch(&line, marks && ord_kv_get(marks, key) ? '*' : ' ');
			ord_buf_adds(&line, tegn);
			if (p->height >= 0 && p->height <= 9)
				ord_buf_addch(&line, '0' + p->height);
			else
				ord_buf_addch(&line, p->height < 0 ? '-' : '+');
			if (p->nf) {
				const struct ord_row *fr = feature_row(r, p->f[0].type);
				ord_buf_adds(&line, fr ? ord_row_str(fr, "tegn") : "?");
			}
		}
		while (line.len && line.buf[line.len - 1] == ' ')
			line.buf[--line.len] = '\0';
		ord_buf_add(out, line.buf, line.len);
		ord_buf_addch(out, '\n');
		ord_buf_release(&line);
	}
	/* the legend, from the Skema */
	ord_buf_adds(out, en ? "legend:" : "tegnforklaring:");
	{
		const struct ord_table *tt = ks_table(r, "terraen"), *ht = ks_table(r, "hindringer");
		for (i = 0; i < ord_table_nrows(tt); i++)
			ord_buf_addf(out, " %s %s,", ord_row_str(ord_table_row(tt, i), "tegn"),
				     row_name(ord_table_row(tt, i), lang, ""));
		ord_buf_adds(out, en ? " digit: height in F;" : " ciffer: højde i F;");
		for (i = 0; i < ord_table_nrows(ht); i++)
			ord_buf_addf(out, " %s %s,", ord_row_str(ord_table_row(ht, i), "tegn"),
				     row_name(ord_table_row(ht, i), lang, ""));
		ord_buf_adds(out, en ? " * units\n" : " * enheder\n");
	}
	for (i = 0; i < m->n; i++) {
		const struct ks_plate *p = &m->p[i];
		if (!p->nf && !p->name)
			continue;
		ord_buf_addf(out, "  %d,%d", p->q, p->r);
		if (p->name)
			ord_buf_addf(out, " %s", p->name);
		ord_buf_adds(out, ":");
		for (j = 0; j < p->nf; j++) {
			const struct ks_feature *f = &p->f[j];
			ord_buf_addf(out, "%s %s %s-%s", j ? "," : "",
				     row_name(feature_row(r, f->type), lang, f->type),
				     en ? ks_side_name(f->from) : ks_side_name_da(f->from),
				     en ? ks_side_name(f->to) : ks_side_name_da(f->to));
			if (f->width > 0) {
				ord_buf_addch(out, ' ');
				ord_tables_fmt(out, f->width, 0);
				ord_buf_adds(out, " cm");
			}
			if (*f->obstacle)
				ord_buf_addf(out, en ? " (obstacle %s)" : " (hindring %s)",
					     f->obstacle);
			if (f->high)
				ord_buf_adds(out, en ? " (high)" : " (høj)");
		}
		ord_buf_addch(out, '\n');
	}
	for (i = 0; marks && i < marks->n; i++)
		ord_buf_addf(out, "  * %s: %s\n", marks->items[i].key, marks->items[i].value);
}
