/*
 * tables_print.c - the tables engine's output (tables.h): numbers as
 * people write them, and tables printed as aligned text with their marks
 * and notes (`orderly rules`).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/common.h"
#include "core/tables_impl.h"

/* ---- formatting ------------------------------------------------------------- */

/* exact: three decimals where those are the value exactly */
static void fmt(struct ord_buf *out, double v, int minus_sign, int exact)
{
	char tmp[64];
	size_t len;
	double m;

	if (isinf(v)) {
		ord_buf_adds(out, v < 0 ? "min" : "max");
		return;
	}
	/* what prints as 0 is 0, never "−0" */
	if (fabs(v) < 0.005)
		v = 0;
	if (v < 0 && minus_sign) {
		ord_buf_adds(out, "−");
		v = -v;
	}
	m = v * 1000;
	if (v == floor(v) && fabs(v) < 1e15) {
		ord_fmt_long(tmp, (long)v); /* what "%.0f" prints, without printf */
	} else {
		snprintf(tmp, sizeof(tmp), exact && fabs(m - nearbyint(m)) < 1e-6 ? "%.3f" : "%.2f", v);
		len = strlen(tmp);
		while (len && tmp[len - 1] == '0')
			tmp[--len] = '\0';
		if (len && tmp[len - 1] == '.')
			tmp[--len] = '\0';
	}
	ord_buf_adds(out, tmp);
}

void ord_tables_fmt(struct ord_buf *out, double v, int minus_sign)
{
	fmt(out, v, minus_sign, 1);
}

void ord_state_fmt_num(struct ord_buf *out, double v)
{
	fmt(out, v, 0, 0);
}

/* Display width of UTF-8 text: code points, not bytes. */
static size_t text_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			w++;
	return w;
}

static void add_column(struct name_list *cols, const char *name)
{
	if (ord_tbl_names_has(cols, name))
		return;
	cols->v = ord_xrealloc(cols->v, (cols->n + 1) * sizeof(*cols->v));
	cols->v[cols->n++] = ord_strdup(name);
}

/* Which columns a table shows, in order: keys, the range, the declared
 * columns and labels, then the kind's own attributes. */
static void table_columns(const struct ord_table *tbl, struct name_list *cols)
{
	size_t i;

	if (tbl->kind == ORD_TABLE_PARAMS) {
		add_column(cols, "name");
		add_column(cols, "value");
	}
	for (i = 0; i < tbl->keys.n; i++)
		add_column(cols, tbl->keys.v[i]);
	if (tbl->kind == ORD_TABLE_BANDS)
		add_column(cols, "range");
	if (tbl->kind == ORD_TABLE_DICE)
		add_column(cols, "roll");
	if (tbl->kind == ORD_TABLE_MODIFIERS) {
		add_column(cols, "value");
		add_column(cols, "mode");
		add_column(cols, "when");
		add_column(cols, "unless");
	}
	for (i = 0; i < tbl->columns.n; i++)
		add_column(cols, tbl->columns.v[i]);
	for (i = 0; i < tbl->labels.n; i++)
		add_column(cols, tbl->labels.v[i]);
	if (tbl->kind == ORD_TABLE_PARAMS) {
		add_column(cols, "unit");
		add_column(cols, "label");
	}
	if (tbl->kind == ORD_TABLE_MODIFIERS)
		add_column(cols, "label");
}

static void print_cell(struct ord_buf *b, const struct ord_row *row, const char *col)
{
	const struct ord_table *tbl = row->table;
	const struct row_attr *a;

	if (!strcmp(col, "range") && tbl->kind == ORD_TABLE_BANDS) {
		ord_tables_fmt(b, ord_tbl_row_find(row, "from")->num, 1);
		ord_buf_adds(b, "–");
		ord_tables_fmt(b, ord_tbl_row_find(row, "to")->num, 1);
		return;
	}
	if (!strcmp(col, "roll") && tbl->kind == ORD_TABLE_DICE) {
		double lo = ord_tbl_row_find(row, "lo")->num, hi = ord_tbl_row_find(row, "hi")->num;
		if (isinf(lo) && isinf(hi)) {
			ord_buf_adds(b, "any");
		} else if (isinf(lo)) {
			ord_buf_adds(b, "≤ ");
			ord_tables_fmt(b, hi, 1);
		} else if (isinf(hi)) {
			ord_buf_adds(b, "≥ ");
			ord_tables_fmt(b, lo, 1);
		} else if (lo == hi) {
			ord_tables_fmt(b, lo, 1);
		} else {
			/* "−5 to −1": a dash between negative numbers misreads */
			ord_tables_fmt(b, lo, 1);
			ord_buf_adds(b, lo < 0 ? " to " : "–");
			ord_tables_fmt(b, hi, 1);
		}
		return;
	}
	a = ord_tbl_row_find(row, col);
	if (!a)
		return;
	ord_buf_adds(b, strcmp(a->value, "-") ? a->value : "—");
}

static void print_table(const struct ord_table *tbl, struct ord_buf *out)
{
	struct name_list cols = { NULL, 0 };
	struct ord_buf cell = ORD_BUF_INIT;
	size_t *width = NULL, r, c, ncols;
	char **cells;
	int *used;

	ord_buf_addf(out, "%s — %s", tbl->name, tbl->title);
	if (tbl->unit)
		ord_buf_addf(out, " (%s)", tbl->unit);
	if (tbl->kind == ORD_TABLE_DICE && tbl->die)
		ord_buf_addf(out, " [d%d]", tbl->die);
	if (tbl->reconstructed)
		ord_buf_adds(out, " [R]");
	if (tbl->provisional)
		ord_buf_adds(out, " [provisional]");
	ord_buf_addch(out, '\n');
	if (tbl->note) {
		const char *p = tbl->note;
		/* the note's own lines, re-indented, blank ones dropped */
		while (*p) {
			size_t len = strcspn(p, "\n");
			const char *s = p, *e = p + len;
			while (s < e && (*s == ' ' || *s == '\t'))
				s++;
			while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
				e--;
			if (e > s) {
				ord_buf_adds(out, "  | ");
				ord_buf_add(out, s, (size_t)(e - s));
				ord_buf_addch(out, '\n');
			}
			p += len;
			if (*p)
				p++;
		}
	}

	table_columns(tbl, &cols);
	ncols = cols.n;
	cells = ord_xcalloc((tbl->nrows + 1) * ncols, sizeof(*cells));
	used = ord_xcalloc(ncols, sizeof(*used));
	width = ord_xcalloc(ncols, sizeof(*width));
	for (c = 0; c < ncols; c++)
		cells[c] = ord_strdup(cols.v[c]);
	for (r = 0; r < tbl->nrows; r++)
		for (c = 0; c < ncols; c++) {
			ord_buf_reset(&cell);
			print_cell(&cell, &tbl->rows[r], cols.v[c]);
			if (cell.len)
				used[c] = 1;
			cells[(r + 1) * ncols + c] = ord_strdup(cell.buf);
		}
	for (r = 0; r <= tbl->nrows; r++)
		for (c = 0; c < ncols; c++) {
			size_t w = text_width(cells[r * ncols + c]);
			if (w > width[c])
				width[c] = w;
		}
	for (r = 0; r <= tbl->nrows; r++) {
		struct ord_buf line = ORD_BUF_INIT;
		const struct ord_row *row = r ? &tbl->rows[r - 1] : NULL;

		ord_buf_adds(&line, "  ");
		for (c = 0; c < ncols; c++) {
			const char *s = cells[r * ncols + c];
			size_t w = text_width(s);
			if (!used[c])
				continue;
			ord_buf_adds(&line, s);
			while (w++ < width[c] + 2)
				ord_buf_addch(&line, ' ');
		}
		if (row && ord_row_reconstructed(row))
			ord_buf_adds(&line, "[R] ");
		if (row && ord_row_provisional(row))
			ord_buf_adds(&line, "[provisional] ");
		if (row && ord_row_note(row))
			ord_buf_addf(&line, "— %s", ord_row_note(row));
		while (line.len && line.buf[line.len - 1] == ' ')
			line.buf[--line.len] = '\0';
		ord_buf_add(out, line.buf, line.len);
		ord_buf_addch(out, '\n');
		ord_buf_release(&line);
	}

	for (r = 0; r < (tbl->nrows + 1) * ncols; r++)
		free(cells[r]);
	free(cells);
	free(used);
	free(width);
	ord_tbl_names_free(&cols);
	ord_buf_release(&cell);
}

int ord_tables_print(const struct ord_tables *t, const char *table, struct ord_buf *out)
{
	size_t i;

	if (table) {
		const struct ord_table *tbl = ord_tables_get(t, table);
		struct ord_buf names = ORD_BUF_INIT;
		int err;

		if (tbl) {
			print_table(tbl, out);
			return 0;
		}
		for (i = 0; i < t->n; i++)
			ord_words_add(&names, " ", t->tables[i]->name);
		err = ord_error_set(ORD_ENOTFOUND, "no table '%s' in %s (expected one of %s)",
				    table, t->name, names.buf);
		ord_buf_release(&names);
		return err;
	}
	for (i = 0; i < t->n; i++) {
		if (i)
			ord_buf_addch(out, '\n');
		print_table(t->tables[i], out);
	}
	return 0;
}

/* ---- two documents compared --------------------------------------------- */

static int rows_equal(const struct ord_row *a, const struct ord_row *b)
{
	size_t i;

	if (a->nattrs != b->nattrs)
		return 0;
	for (i = 0; i < a->nattrs; i++)
		if (strcmp(a->attrs[i].name, b->attrs[i].name) ||
		    strcmp(a->attrs[i].value, b->attrs[i].value))
			return 0;
	return 1;
}

static int names_equal(const struct name_list *a, const struct name_list *b)
{
	size_t i;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++)
		if (strcmp(a->v[i], b->v[i]))
			return 0;
	return 1;
}

static int tables_equal(const struct ord_table *a, const struct ord_table *b)
{
	size_t i;

	if (a->kind != b->kind || a->nrows != b->nrows || a->die != b->die ||
	    !names_equal(&a->keys, &b->keys) || !names_equal(&a->columns, &b->columns) ||
	    !names_equal(&a->labels, &b->labels))
		return 0;
	for (i = 0; i < a->nrows; i++)
		if (!rows_equal(&a->rows[i], &b->rows[i]))
			return 0;
	return 1;
}

size_t ord_tables_differ(const struct ord_tables *a, const struct ord_tables *b, struct ord_buf *out)
{
	size_t i, n = 0;

	for (i = 0; i < a->n; i++) {
		const struct ord_table *other = ord_tables_get(b, a->tables[i]->name);
		if (other && tables_equal(a->tables[i], other))
			continue;
		ord_buf_addf(out, "%s%s%s", n++ ? ", " : "", a->tables[i]->name,
			     other ? "" : " (only in the first)");
	}
	for (i = 0; i < b->n; i++)
		if (!ord_tables_get(a, b->tables[i]->name))
			ord_buf_addf(out, "%s%s (only in the second)", n++ ? ", " : "",
				     b->tables[i]->name);
	return n;
}

/* ---- the values two documents differ in --------------------------------- */

/* The attributes of a row that document it (shown by `orderly rules`,
 * read by no rule): left out of the values compared. */
static int documents_row(const char *attr)
{
	return !strcmp(attr, "note") || !strcmp(attr, "unit") || !strcmp(attr, "reconstructed") ||
	       !strcmp(attr, "provisional");
}

/* Two values as the rules read them: numbers by their value (1.0 is 1,
 * 1/2 is 0.5), words as written. */
static int values_equal(const struct row_attr *a, const struct row_attr *b)
{
	if (a->has_num && b->has_num)
		return a->num == b->num;
	return !strcmp(a->value, b->value);
}

/* The attribute values rows ra (a's) and ro (o's, at the same place)
 * differ in, each said with both values after what (the row named). */
static size_t row_values_differ(const struct ord_row *ra, const struct ord_row *ro,
				const char *what, const char *other, struct ord_buf *out, size_t n)
{
	const struct row_attr *x, *y;
	size_t i;

	for (i = 0; i < ro->nattrs; i++) {
		y = &ro->attrs[i];
		if (documents_row(y->name))
			continue;
		x = ord_tbl_row_find(ra, y->name);
		if (x && values_equal(x, y))
			continue;
		ord_buf_addf(out, "%s%s%s %s%s where %s has %s", n++ ? ", " : "", what, y->name,
			     x ? "is " : "is left out", x ? x->value : "", other, y->value);
	}
	for (i = 0; i < ra->nattrs; i++) {
		x = &ra->attrs[i];
		if (documents_row(x->name) || ord_tbl_row_find(ro, x->name))
			continue;
		ord_buf_addf(out, "%s%s%s is there (%s) where %s has none", n++ ? ", " : "", what,
			     x->name, x->value, other);
	}
	return n;
}

/* Do rows a and b give the same values (their notes and marks aside)? */
static int row_values_equal(const struct ord_row *a, const struct ord_row *b)
{
	const struct row_attr *x;
	size_t i, n = 0;

	for (i = 0; i < a->nattrs; i++) {
		if (documents_row(a->attrs[i].name))
			continue;
		x = ord_tbl_row_find(b, a->attrs[i].name);
		if (!x || !values_equal(&a->attrs[i], x))
			return 0;
		n++;
	}
	for (i = 0; i < b->nattrs; i++)
		if (!documents_row(b->attrs[i].name))
			n--;
	return n == 0;
}

/* A row's values, "shot=ball from=0 to=12 dead=6 hit=5". */
static void row_said(struct ord_buf *out, const struct ord_row *row)
{
	size_t i, k = 0;

	for (i = 0; i < row->nattrs; i++)
		if (!documents_row(row->attrs[i].name))
			ord_buf_addf(out, "%s%s=%s", k++ ? " " : "", row->attrs[i].name,
				     row->attrs[i].value);
}

/* Tables whose rows cannot be paired by their place (not as many, or
 * laid out otherwise): each row of ta no row of to gives the same values
 * as (each matched once), and each row of to left, said whole, so that a
 * row added, or a column renamed, cannot hide a number changed. */
static size_t rows_unmatched(const struct ord_table *ta, const struct ord_table *to,
			     const char *other, struct ord_buf *out, size_t n)
{
	unsigned char *used = ord_xcalloc(to->nrows + 1, 1);
	size_t i, j;

	for (i = 0; i < ta->nrows; i++) {
		for (j = 0; j < to->nrows; j++)
			if (!used[j] && row_values_equal(&ta->rows[i], &to->rows[j]))
				break;
		if (j < to->nrows) {
			used[j] = 1;
			continue;
		}
		ord_buf_addf(out, "%s%s row %zu (line %u), which %s has not: ", n++ ? ", " : "",
			     ta->name, i + 1, ta->rows[i].line, other);
		row_said(out, &ta->rows[i]);
	}
	for (j = 0; j < to->nrows; j++) {
		if (used[j])
			continue;
		ord_buf_addf(out, "%s%s's row %zu of %s, which it has not: ", n++ ? ", " : "",
			     to->name, j + 1, other);
		row_said(out, &to->rows[j]);
	}
	free(used);
	return n;
}

size_t ord_tables_values_differ(const struct ord_tables *a, const struct ord_tables *o,
				const char *other, struct ord_buf *params, struct ord_buf *rows)
{
	struct ord_buf what = ORD_BUF_INIT;
	size_t i, j, np = 0, nr = 0, before;

	/* the parameters by name, wherever a document keeps them, in the
	 * order of o's */
	for (i = 0; i < o->n; i++) {
		const struct ord_table *to = o->tables[i];
		if (to->kind != ORD_TABLE_PARAMS)
			continue;
		for (j = 0; j < to->nrows; j++) {
			const struct ord_row *ro = &to->rows[j], *ra;
			const struct row_attr *vo = ord_tbl_row_find(ro, "value"), *va;
			const char *name = ord_row_attr(ro, "name");
			if (!name || !vo)
				continue;
			ra = ord_tables_param_row(a, name);
			va = ra ? ord_tbl_row_find(ra, "value") : NULL;
			if (va && values_equal(va, vo))
				continue;
			ord_buf_addf(params, "%s%s %s%s where %s has %s", np++ ? ", " : "", name,
				     va ? "is " : "is left out", va ? va->value : "", other,
				     vo->value);
		}
	}
	for (i = 0; i < a->n; i++) {
		const struct ord_table *ta = a->tables[i];
		if (ta->kind != ORD_TABLE_PARAMS)
			continue;
		for (j = 0; j < ta->nrows; j++) {
			const char *name = ord_row_attr(&ta->rows[j], "name");
			if (name && !ord_tables_param_row(o, name))
				ord_buf_addf(params, "%s%s is there where %s has none",
					     np++ ? ", " : "", name, other);
		}
	}
	/* every other table's rows by their place in it */
	for (i = 0; i < o->n; i++) {
		const struct ord_table *to = o->tables[i], *ta = ord_tables_get(a, to->name);
		if (to->kind == ORD_TABLE_PARAMS || !ta || tables_equal(ta, to))
			continue;
		if (ta->kind != to->kind || ta->die != to->die ||
		    !names_equal(&ta->keys, &to->keys) || !names_equal(&ta->columns, &to->columns) ||
		    !names_equal(&ta->labels, &to->labels)) {
			ord_buf_addf(rows,
				     "%s%s is laid out otherwise (its kind, die, keys, columns or labels)",
				     nr++ ? ", " : "", to->name);
			nr = rows_unmatched(ta, to, other, rows, nr);
			continue;
		}
		if (ta->nrows != to->nrows) {
			ord_buf_addf(rows, "%s%s has %zu rows where %s has %zu", nr++ ? ", " : "",
				     to->name, ta->nrows, other, to->nrows);
			nr = rows_unmatched(ta, to, other, rows, nr);
			continue;
		}
		before = nr;
		for (j = 0; j < to->nrows; j++) {
			ord_buf_reset(&what);
			ord_buf_addf(&what, "%s row %zu (line %u): ", to->name, j + 1,
				     ta->rows[j].line);
			nr = row_values_differ(&ta->rows[j], &to->rows[j], what.buf, other, rows, nr);
		}
		if (nr == before)
			ord_buf_addf(rows,
				     "%s%s differs in its notes, marks or the order of its attributes only",
				     nr++ ? ", " : "", to->name);
	}
	ord_buf_release(&what);
	return np + nr;
}
