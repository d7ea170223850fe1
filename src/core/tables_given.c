/*
 * tables_given.c - the tables engine's checks of a document a user hands
 * in (tables.h, "a document a user hands in"): a club's tables for a new
 * game, or for the calculator, checked against the ruleset's own built-in
 * document: a name it does not have, a case two rows give.
 *
 * Why apart from ord_tables_load: load reads the tables a game keeps too,
 * and a game must go on opening and auditing clean however the ruleset's
 * own document changes after it was made (a parameter renamed or dropped,
 * a row found to give a case twice).  What is refused here is refused only where somebody can still correct
 * the document: before the game exists.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tables_impl.h"

/* ---- names ---------------------------------------------------------------- */

/* Every parameter name of t, space-separated, for a hint. */
static void param_names(const struct ord_tables *t, struct ord_buf *out)
{
	size_t i, j;

	for (i = 0; i < t->n; i++)
		for (j = 0; t->tables[i]->kind == ORD_TABLE_PARAMS && j < t->tables[i]->nrows; j++)
			ord_words_add(out, " ", ord_row_attr(&t->tables[i]->rows[j], "name"));
}

static void table_names(const struct ord_tables *t, struct ord_buf *out)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		ord_words_add(out, " ", t->tables[i]->name);
}

int ord_tables_check_names(const struct ord_tables *t, const struct ord_tables *own)
{
	struct ord_buf hint = ORD_BUF_INIT, names = ORD_BUF_INIT;
	size_t i, j;
	int err = 0;

	/* in the order of the document: the first name at fault is named */
	for (i = 0; i < t->n && !err; i++) {
		const struct ord_table *tbl = t->tables[i];
		const struct ord_table *o = ord_tables_get(own, tbl->name);

		if (!o) {
			ord_buf_reset(&names);
			table_names(own, &names);
			ord_words_hint(&hint, names.buf, tbl->name);
			err = ord_error_set(ORD_EBADDATA,
					    "%s:%u: unknown table '%s' (ruleset '%s' reads no table of that name)%s",
					    t->name, tbl->line, tbl->name, own->ruleset, hint.buf);
			break;
		}
		if (o->kind != tbl->kind) {
			err = ord_error_set(ORD_EBADDATA,
					    "%s:%u: table '%s' is a %s table (expected a %s table, as ruleset '%s' reads it)",
					    t->name, tbl->line, tbl->name,
					    ord_table_kind_name(tbl->kind),
					    ord_table_kind_name(o->kind), own->ruleset);
			break;
		}
		for (j = 0; tbl->kind == ORD_TABLE_PARAMS && j < tbl->nrows; j++) {
			const char *name = ord_row_attr(&tbl->rows[j], "name");

			if (ord_tables_param_row(own, name))
				continue;
			ord_buf_reset(&names);
			param_names(own, &names);
			ord_words_hint(&hint, names.buf, name);
			err = ord_error_set(ORD_EBADDATA,
					    "%s:%u: unknown parameter '%s' (ruleset '%s' reads no parameter of that name)%s",
					    t->name, tbl->rows[j].line, name, own->ruleset, hint.buf);
			break;
		}
	}
	ord_buf_release(&hint);
	ord_buf_release(&names);
	return err;
}

/* ---- rows given twice ----------------------------------------------------- */

/* A table of more rows than this is checked only for rows whose keys are
 * written alike (sorted, not pair by pair): a rules table has dozens of
 * rows, and a document of millions must not take hours to refuse. */
#define ROWS_PAIRWISE_MAX 1000

/* The words of one key of a row. */
struct key_set {
	struct name_list w; /* the words, "*" left out */
	int any;            /* "*" is one of them */
};

/* A row as the check reads it. */
struct row_case {
	const struct ord_row *row;
	size_t index;      /* in its table: the first of two is the earlier */
	struct key_set *k; /* one per key of the table */
	double lo, hi;     /* dice: lo..hi; bands: (from, to]; chart: 0 */
	char *sig;         /* the keys' words sorted (the big tables' check) */
};

static int key_set_has(const struct key_set *s, const char *w)
{
	return ord_tbl_names_has(&s->w, w);
}

/* The first word of b that a names too, or NULL. */
static const char *common_word(const struct key_set *a, const struct key_set *b)
{
	size_t i;

	for (i = 0; i < b->w.n; i++)
		if (key_set_has(a, b->w.v[i]))
			return b->w.v[i];
	return NULL;
}

/* a matches every value b does. */
static int covers(const struct key_set *a, const struct key_set *b)
{
	size_t i;

	if (a->any)
		return 1;
	if (b->any)
		return 0;
	for (i = 0; i < b->w.n; i++)
		if (!key_set_has(a, b->w.v[i]))
			return 0;
	return 1;
}

/* Do rows a (the earlier) and b select a case in common so that which is
 * read depends on their order?  When every key of both names a value in
 * common, or when a's keys take in all of b's (a "*" where b names one):
 * b is then never read.  Not when they meet only through a "*" of b's, a
 * default after the particular cases (gangarter's flugt art="*"). */
static int same_case(size_t nkeys, const struct row_case *a, const struct row_case *b)
{
	size_t k;
	int named = 1, taken = 1;

	for (k = 0; k < nkeys && (named || taken); k++) {
		named = named && common_word(&a->k[k], &b->k[k]);
		taken = taken && covers(&a->k[k], &b->k[k]);
	}
	return named || taken;
}

/* Do the rolls or ranges of a and b meet? */
static int ranges_meet(enum ord_table_kind kind, const struct row_case *a, const struct row_case *b)
{
	if (kind == ORD_TABLE_DICE) /* lo..hi, both in */
		return a->lo <= b->hi && b->lo <= a->hi;
	if (kind == ORD_TABLE_BANDS) /* (from, to] */
		return a->lo < b->hi && b->lo < a->hi;
	return 1;
}

/* "kind=line_infantry formation=column": the case a and b have in common. */
static void describe_case(struct ord_buf *out, const struct ord_table *tbl,
			  const struct row_case *a, const struct row_case *b)
{
	size_t k;

	for (k = 0; k < tbl->keys.n; k++) {
		const char *w = common_word(&a->k[k], &b->k[k]);

		if (!w)
			w = b->k[k].w.n ? b->k[k].w.v[0] : "*";
		ord_buf_addf(out, "%s%s=%s", k ? " " : "", tbl->keys.v[k], w);
	}
}

/* The message of a case given twice: b's line, a's. */
static int given_twice(const struct ord_tables *t, const struct ord_table *tbl,
		       const struct row_case *a, const struct row_case *b)
{
	struct ord_buf what = ORD_BUF_INIT, keys = ORD_BUF_INIT;
	double lo = a->lo > b->lo ? a->lo : b->lo, hi = a->hi < b->hi ? a->hi : b->hi;
	int err;

	describe_case(&keys, tbl, a, b);
	switch (tbl->kind) {
	case ORD_TABLE_DICE:
		ord_buf_adds(&what, lo == hi ? "the roll " : "the rolls ");
		ord_tables_fmt(&what, lo, 0);
		if (lo != hi) {
			ord_buf_adds(&what, "..");
			ord_tables_fmt(&what, hi, 0);
		}
		break;
	case ORD_TABLE_BANDS:
		ord_buf_adds(&what, "the range (");
		ord_tables_fmt(&what, lo, 0);
		ord_buf_adds(&what, ", ");
		ord_tables_fmt(&what, hi, 0);
		ord_buf_adds(&what, "]");
		break;
	default: ord_buf_adds(&what, "the row"); break;
	}
	err = ord_error_set(ORD_EBADDATA,
			    "%s:%u: table '%s': %s%s%s %s given twice (first at line %u): only the first is read",
			    t->name, b->row->line, tbl->name, what.buf, keys.len ? " for " : "",
			    keys.buf, tbl->kind == ORD_TABLE_DICE && lo != hi ? "are" : "is",
			    a->row->line);
	ord_buf_release(&what);
	ord_buf_release(&keys);
	return err;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Read row i of tbl: its keys' words, its range, its signature. */
static void row_case_init(struct row_case *c, const struct ord_table *tbl, size_t i)
{
	const char *ends[2] = { NULL, NULL };
	struct ord_buf sig = ORD_BUF_INIT;
	size_t k, j;

	memset(c, 0, sizeof(*c));
	c->row = &tbl->rows[i];
	c->index = i;
	c->k = ord_xcalloc(tbl->keys.n ? tbl->keys.n : 1, sizeof(*c->k));
	for (k = 0; k < tbl->keys.n; k++) {
		struct name_list all = { NULL, 0 };
		const char *v = ord_row_attr(c->row, tbl->keys.v[k]);

		ord_tbl_names_split(&all, v ? v : "");
		if (all.n)
			qsort(all.v, all.n, sizeof(*all.v), str_cmp);
		for (j = 0; j < all.n; j++) {
			if (!strcmp(all.v[j], "*"))
				c->k[k].any = 1;
			else if (!ord_tbl_names_has(&c->k[k].w, all.v[j]))
				ord_tbl_names_split(&c->k[k].w, all.v[j]);
			if (!j || strcmp(all.v[j], all.v[j - 1]))
				ord_buf_addf(&sig, "%s ", all.v[j]);
		}
		ord_buf_addch(&sig, '\x1f');
		ord_tbl_names_free(&all);
	}
	c->sig = ord_buf_detach(&sig, NULL);
	if (tbl->kind == ORD_TABLE_DICE)
		ends[0] = "lo", ends[1] = "hi";
	else if (tbl->kind == ORD_TABLE_BANDS)
		ends[0] = "from", ends[1] = "to";
	if (ends[0]) { /* load made sure of them */
		c->lo = ord_tbl_row_find(c->row, ends[0])->num;
		c->hi = ord_tbl_row_find(c->row, ends[1])->num;
	}
}

static void row_case_release(struct row_case *c, size_t nkeys)
{
	size_t k;

	for (k = 0; k < nkeys; k++)
		ord_tbl_names_free(&c->k[k].w);
	free(c->k);
	free(c->sig);
}

/* The big tables' order: keys written alike together, by their start,
 * then as in the document. */
static int case_cmp(const void *pa, const void *pb)
{
	const struct row_case *a = *(const struct row_case *const *)pa;
	const struct row_case *b = *(const struct row_case *const *)pb;
	int c = strcmp(a->sig, b->sig);

	if (c)
		return c;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* Rows of tbl given twice: 0, or ORD_EBADDATA (its message only when
 * report: the module's own table is asked quietly). */
static int table_given_twice(const struct ord_tables *t, const struct ord_table *tbl, int report)
{
	struct row_case *c = ord_xcalloc(tbl->nrows ? tbl->nrows : 1, sizeof(*c));
	struct row_case **by = NULL;
	const struct row_case *first = NULL, *second = NULL;
	size_t i, j, nkeys = tbl->keys.n;
	int err = 0;

	for (i = 0; i < tbl->nrows; i++)
		row_case_init(&c[i], tbl, i);
	if (tbl->nrows <= ROWS_PAIRWISE_MAX) {
		for (j = 1; j < tbl->nrows && !second; j++)
			for (i = 0; i < j && !second; i++)
				if (ranges_meet(tbl->kind, &c[i], &c[j]) &&
				    same_case(nkeys, &c[i], &c[j])) {
					first = &c[i];
					second = &c[j];
				}
	} else {
		/* keys written alike, in order of their start: a row meets an
		 * earlier one of its group when it meets the one reaching
		 * furthest */
		const struct row_case *reach = NULL;

		by = ord_xcalloc(tbl->nrows, sizeof(*by));
		for (i = 0; i < tbl->nrows; i++)
			by[i] = &c[i];
		qsort(by, tbl->nrows, sizeof(*by), case_cmp);
		for (i = 0; i < tbl->nrows && !second; i++) {
			if (!i || strcmp(by[i]->sig, by[i - 1]->sig))
				reach = NULL;
			if (reach && ranges_meet(tbl->kind, reach, by[i])) {
				first = reach->index < by[i]->index ? reach : by[i];
				second = first == reach ? by[i] : reach;
			}
			if (!reach || by[i]->hi > reach->hi)
				reach = by[i];
		}
	}
	if (second)
		err = report ? given_twice(t, tbl, first, second) : ORD_EBADDATA;
	for (i = 0; i < tbl->nrows; i++)
		row_case_release(&c[i], nkeys);
	free(c);
	free(by);
	return err;
}

int ord_tables_check_rows(const struct ord_tables *t, const struct ord_tables *own)
{
	size_t i;
	int err = 0;

	for (i = 0; i < t->n && !err; i++) {
		const struct ord_table *tbl = t->tables[i];
		const struct ord_table *o = own ? ord_tables_get(own, tbl->name) : NULL;

		/* params are unique at load; modifiers all apply; a chart with
		 * no keys is read by what its rows hold, not by a case */
		if (tbl->kind == ORD_TABLE_PARAMS || tbl->kind == ORD_TABLE_MODIFIERS ||
		    (tbl->kind == ORD_TABLE_CHART && !tbl->keys.n))
			continue;
		/* rows the module's own table gives twice are its design: read
		 * in their order by the module (riffel_andele's thresholds) */
		if (o && o->kind == tbl->kind && table_given_twice(own, o, 0))
			continue;
		err = table_given_twice(t, tbl, 1);
	}
	return err;
}
