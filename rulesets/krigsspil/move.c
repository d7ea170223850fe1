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

/* The obstacle class of a crossing ("" when none), whether it must be
 * passed in march column (and from what width, *wider), and its name. */
static const char *crossing_class(struct ord_ctx *ctx, const struct ks_crossing *c,
				  int *march_column, double *wider, const char **name)
{
	struct ks_rules *r = ks_r(ctx);
	const struct ord_row *row;

	*march_column = 0;
	*wider = 0;
	*name = c->what;
	if (c->edge) {
		row = chart_row(ctx, "terraen", "terraen", c->what);
		if (!row)
			return "";
		*name = ord_row_str(row, "navn");
		return strcmp(ord_row_str(row, "kant"), "ingen") ? ord_row_str(row, "kant") : "";
	}
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

	if (!r->map)
		return;
	n = ks_map_trace(r->map, x0, y0, x1, y1, cr, ORD_ARRAY_SIZE(cr));
	{
		const struct ks_plate *end = ks_map_at(r->map, x1, y1);
		if (end && !strcmp(end->terrain, "vand"))
			ord_diag_add(m->d, m->line, m->col, m->unit, "3.1 vand",
				     "plate %d,%d is water: no unit can stand there", end->q, end->r);
	}
	for (i = 0; i < n; i++) {
		const char *name, *cls;
		int mc, obstacle;
		double wider;
		char where[32];

		snprintf(where, sizeof(where), "plate %d,%d", cr[i].q, cr[i].r);
		cls = crossing_class(ctx, &cr[i], &mc, &wider, &name);
		if (!strcmp(cls, "impassabel")) {
			ord_diag_add(m->d, m->line, m->col, m->unit, "13 passage af hindringer",
				     "the %s on %s cannot be passed (impassable)", name, where);
			continue;
		}
		if (cr[i].edge && (!strcmp(cr[i].what, "skov") || !strcmp(cr[i].what, "sump")) &&
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
		obstacle = *cls != '\0';
		if (!obstacle)
			continue;
		if (stormmarch)
			ord_diag_add(m->d, m->line, m->col, m->unit, "13 stormmarch",
				     "obstacles cannot be passed in stormmarch: the %s on %s is obstacle %s",
				     name, where, cls);
		if (grade == KS_U && closed)
			ord_diag_add(m->d, m->line, m->col, m->unit, "13 passage af hindringer",
				     "a close formation in U cannot pass obstacles: the %s on %s is obstacle %s",
				     name, where, cls);
		if (strcmp(cls, "I")) {
			if (!strcmp(vaaben, "kavaleri") || !strcmp(vaaben, "artilleri"))
				ord_diag_add(m->d, m->line, m->col, m->unit, "13 passage af hindringer",
					     "%s cannot pass obstacle %s: the %s on %s",
					     ks_arm_name(ctx, u), cls, name, where);
			else if (grade == KS_U && !closed)
				ord_diag_add(m->d, m->line, m->col, m->unit, "13 passage af hindringer",
					     "an open formation in U cannot pass obstacle %s: the %s on %s",
					     cls, name, where);
			else if (grade == KS_FU)
				ord_diag_add(m->d, m->line, m->col, m->unit, "13 passage af hindringer",
					     "infantry in FU cannot pass obstacle %s: the %s on %s",
					     cls, name, where);
		} else if (grade == KS_FU && !strcmp(vaaben, "artilleri")) {
			ord_diag_add(m->d, m->line, m->col, m->unit, "13 passage af hindringer",
				     "artillery in FU cannot pass obstacles: the %s on %s", name,
				     where);
		}
	}
}
