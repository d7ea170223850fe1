/*
 * tables_given.c - the tables engine's checks of a document a user hands
 * in (tables.h, "a document a user hands in"): a club's tables for a new
 * game, or for the calculator, checked against the ruleset's own built-in
 * document: a name it does not have, a case two rows give, a range or
 * roll of a case no row gives.
 *
 * Why apart from ord_tables_load: load reads the tables a game keeps too,
 * and a game must go on opening and auditing clean however the ruleset's
 * own document changes after it was made (a parameter renamed or dropped,
 * a row found to give a case twice).  What is refused here is refused only where somebody can still correct
 * the document: before the game exists.
 */
#include <math.h>
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

/* ---- a case no row gives -------------------------------------------------- */

/* The rows a table's check of its joins may read, over all its cases: past
 * it the cases left are not checked, so that a document of millions of
 * rows, or of rows listing hundreds of words for each of several keys,
 * is still refused or taken in seconds. */
#define JOINS_WORK_MAX 4000000

/* Where a case's rows begin and end, and the first place between that no
 * row gives. */
struct case_span {
	double lo, hi;                       /* the first row's start; the furthest end */
	const struct row_case *first, *last; /* the rows beginning at lo, ending at hi */
	const struct row_case *after;        /* the row beginning past a gap, or NULL */
	double gap_lo, gap_hi;               /* the ends of the rows either side of it */
};

/* A table's cases, one word of each key ("*" for a key no row names a
 * word of), as they are walked. */
struct joins {
	const struct ord_tables *t;
	const struct ord_table *tbl;
	struct row_case *c;  /* tbl's rows */
	const char ***words; /* per key: the words its rows name, sorted */
	size_t *nwords;      /* per key: how many */
	const char **pick;   /* per key: the case's word; NULL: "*" */
	size_t work;         /* rows read so far */
	/* the built-in table's pass: what its cases hold */
	int builtin;          /* 1: this is it */
	int own_gap;          /* a case of it has a gap: its design */
	size_t ncases;        /* its cases walked */
	double lo, hi;        /* where they begin and end, when alike */
	int lo_same, hi_same; /* 1 while every case begins (ends) alike */
	/* the user's table's pass */
	const struct ord_table *own; /* the built-in table, or NULL */
	const struct joins *own_all; /* its pass */
	unsigned line;               /* the fault found first in the document */
	struct ord_buf msg;          /* its message */
};

static int word_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int case_by_start(const void *pa, const void *pb)
{
	const struct row_case *a = *(const struct row_case *const *)pa;
	const struct row_case *b = *(const struct row_case *const *)pb;

	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* Does a roll or range begin past where the rows before reach? */
static int joins_gap(enum ord_table_kind kind, double reach, double lo)
{
	return kind == ORD_TABLE_DICE ? lo > reach + 1 : lo > reach;
}

/* The span of rows r[0..n), sorted by their start. */
static void case_span_of(struct case_span *s, enum ord_table_kind kind,
			 const struct row_case *const *r, size_t n)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	s->first = s->last = r[0];
	s->lo = r[0]->lo;
	s->hi = r[0]->hi;
	for (i = 1; i < n; i++) {
		if (!s->after && joins_gap(kind, s->hi, r[i]->lo)) {
			s->after = r[i];
			s->gap_lo = s->hi;
			s->gap_hi = r[i]->lo;
		}
		if (r[i]->hi > s->hi) {
			s->hi = r[i]->hi;
			s->last = r[i];
		}
	}
}

/* A number as the rows write it: min and max for the open ends. */
static void add_end(struct ord_buf *out, double v)
{
	if (isinf(v))
		ord_buf_adds(out, v < 0 ? "min" : "max");
	else
		ord_tables_fmt(out, v, 0);
}

/* What no row gives, lo to hi: dice, the rolls lo..hi; bands, (lo, hi],
 * or [lo, hi) before the first band, whose start it holds. */
static void add_missing(struct ord_buf *out, enum ord_table_kind kind, double lo, double hi,
			int before_first)
{
	ord_buf_adds(out, "no row gives ");
	if (kind == ORD_TABLE_DICE) {
		ord_buf_adds(out, lo == hi ? "the roll " : "the rolls ");
		add_end(out, lo);
		if (lo != hi) {
			ord_buf_adds(out, "..");
			add_end(out, hi);
		}
		return;
	}
	ord_buf_adds(out, before_first ? "the range [" : "the range (");
	add_end(out, lo);
	ord_buf_adds(out, ", ");
	add_end(out, hi);
	ord_buf_adds(out, before_first ? ")" : "]");
}

/* " for weapon=musket": the case walked. */
static void add_case(struct ord_buf *out, const struct joins *j)
{
	size_t k;

	for (k = 0; k < j->tbl->keys.n; k++)
		ord_buf_addf(out, "%s%s=%s", k ? " " : " for ", j->tbl->keys.v[k],
			     j->pick[k] ? j->pick[k] : "*");
}

/* Keep the fault at line when it comes before the one kept: its message,
 * "what" no row gives and why. */
static void joins_fault(struct joins *j, unsigned line, const char *what, const char *why)
{
	struct ord_buf where = ORD_BUF_INIT;

	if (j->line && j->line <= line)
		return;
	j->line = line;
	add_case(&where, j);
	ord_buf_reset(&j->msg);
	ord_buf_addf(&j->msg, "%s:%u: table '%s': %s%s%s", j->t->name, line, j->tbl->name, what,
		     where.buf, why);
	ord_buf_release(&where);
}

/* The rows of the built-in table for the case j walks: their span, or 0
 * when none gives it. */
static int own_span(struct case_span *s, struct joins *j)
{
	const struct ord_table *o = j->own;
	struct row_case *c = ord_xcalloc(o->nrows ? o->nrows : 1, sizeof(*c));
	const struct row_case **r = ord_xcalloc(o->nrows ? o->nrows : 1, sizeof(*r));
	size_t i, k, n = 0;

	for (i = 0; i < o->nrows; i++) {
		int all = 1;

		for (k = 0; k < j->tbl->keys.n && all; k++) {
			const struct row_attr *a = ord_tbl_row_find(&o->rows[i], j->tbl->keys.v[k]);

			all = a && (ord_words_has(a->value, "*") ||
				    (j->pick[k] && ord_words_has(a->value, j->pick[k])));
		}
		if (!all)
			continue;
		c[n].row = &o->rows[i];
		c[n].index = i;
		c[n].lo = ord_tbl_row_find(&o->rows[i], o->kind == ORD_TABLE_DICE ? "lo" : "from")->num;
		c[n].hi = ord_tbl_row_find(&o->rows[i], o->kind == ORD_TABLE_DICE ? "hi" : "to")->num;
		r[n] = &c[n];
		n++;
	}
	j->work += o->nrows * (j->tbl->keys.n + 1);
	if (n) {
		qsort(r, n, sizeof(*r), case_by_start);
		case_span_of(s, o->kind, r, n);
	}
	free(r);
	free(c);
	return n > 0;
}

/* A case whose first (first 1) or last row ends at have where the
 * built-in table's ends at want, said at line: what no row gives when it
 * falls short, else where it reaches past. */
static void wrong_end(struct joins *j, int first, double have, double want, unsigned line)
{
	enum ord_table_kind kind = j->tbl->kind;
	int dice = kind == ORD_TABLE_DICE;
	int shy = first ? have > want : have < want;
	struct ord_buf what = ORD_BUF_INIT, why = ORD_BUF_INIT;

	if (shy) {
		if (first)
			add_missing(&what, kind, want, dice ? have - 1 : have, 1);
		else
			add_missing(&what, kind, dice ? have + 1 : have, want, 0);
		ord_buf_addf(&why, " (the %s %s %s at ", first ? "first" : "last",
			     dice ? "row" : "band", first ? "begins" : "ends");
		add_end(&why, have);
		ord_buf_adds(&why, ", the ruleset's own at ");
		add_end(&why, want);
		ord_buf_adds(&why, ")");
	} else {
		ord_buf_addf(&what, "the %s", dice ? "rows" : "bands");
		ord_buf_addf(&why, " %s at ", first ? "begin" : "end");
		add_end(&why, have);
		ord_buf_adds(&why, " (expected ");
		add_end(&why, want);
		ord_buf_addf(&why, ", where the ruleset's own %s)", first ? "begin" : "end");
	}
	joins_fault(j, line, what.buf, why.buf);
	ord_buf_release(&what);
	ord_buf_release(&why);
}

/* One case, given by rows r[0..n): a gap between them, or ends other than
 * the built-in table's for it (or, for a case it has not, than the ends
 * all its cases share). */
static void joins_case(struct joins *j, const struct row_case **r, size_t n)
{
	enum ord_table_kind kind = j->tbl->kind;
	const char *rows = kind == ORD_TABLE_DICE ? "rows" : "bands";
	struct ord_buf what = ORD_BUF_INIT, why = ORD_BUF_INIT;
	struct case_span s, o;
	double lo = 0, hi = 0;
	int has_lo = 0, has_hi = 0;

	qsort(r, n, sizeof(*r), case_by_start);
	case_span_of(&s, kind, r, n);
	if (j->builtin) { /* the built-in table's own pass */
		j->own_gap = j->own_gap || s.after;
		j->lo_same = !j->ncases || (j->lo_same && s.lo == j->lo);
		j->hi_same = !j->ncases || (j->hi_same && s.hi == j->hi);
		j->lo = s.lo;
		j->hi = s.hi;
		j->ncases++;
		return;
	}
	if (s.after) {
		if (kind == ORD_TABLE_DICE)
			add_missing(&what, kind, s.gap_lo + 1, s.gap_hi - 1, 0);
		else
			add_missing(&what, kind, s.gap_lo, s.gap_hi, 0);
		ord_buf_addf(&why, " (the %s before end at ", rows);
		add_end(&why, s.gap_lo);
		ord_buf_adds(&why, ", this one begins at ");
		add_end(&why, s.gap_hi);
		ord_buf_adds(&why, ")");
		joins_fault(j, s.after->row->line, what.buf, why.buf);
	}
	if (j->own && own_span(&o, j)) {
		lo = o.lo, hi = o.hi, has_lo = has_hi = 1;
	} else if (j->own && j->own_all->ncases) {
		lo = j->own_all->lo, has_lo = j->own_all->lo_same;
		hi = j->own_all->hi, has_hi = j->own_all->hi_same;
	}
	if (has_lo && s.lo != lo)
		wrong_end(j, 1, s.lo, lo, s.first->row->line);
	/* bands end where the club says (a musket's reach corrected either
	 * way: "out of range" past it); a die's rows end where its faces do */
	if (has_hi && s.hi != hi && kind == ORD_TABLE_DICE)
		wrong_end(j, 0, s.hi, hi, s.last->row->line);
	ord_buf_release(&what);
	ord_buf_release(&why);
}

static size_t word_at(const struct joins *j, size_t k, const char *w)
{
	const char **p = bsearch(&w, j->words[k], j->nwords[k], sizeof(*p), word_cmp);

	return (size_t)(p - j->words[k]);
}

/* The cases of rows r[0..n) (in the document's order) from key k on: for
 * each word of key k a row names, its rows and those of "*". */
static void joins_walk(struct joins *j, size_t k, const struct row_case **r, size_t n)
{
	const struct row_case **star, **at, **sub;
	size_t *first, *count, i, w, nstar = 0, total = 0;

	if (!n || j->work > JOINS_WORK_MAX)
		return;
	j->work += n;
	if (k == j->tbl->keys.n) {
		joins_case(j, r, n);
		return;
	}
	count = ord_xcalloc(j->nwords[k] + 1, sizeof(*count));
	first = ord_xcalloc(j->nwords[k] + 1, sizeof(*first));
	star = ord_xcalloc(n, sizeof(*star));
	j->work += j->nwords[k];
	for (i = 0; i < n; i++) {
		if (r[i]->k[k].any)
			star[nstar++] = r[i];
		for (w = 0; w < r[i]->k[k].w.n; w++, total++)
			count[word_at(j, k, r[i]->k[k].w.v[w])]++;
	}
	for (w = 0; w < j->nwords[k]; w++)
		first[w + 1] = first[w] + count[w];
	at = ord_xcalloc(total + 1, sizeof(*at));
	memset(count, 0, (j->nwords[k] + 1) * sizeof(*count));
	for (i = 0; i < n; i++)
		for (w = 0; w < r[i]->k[k].w.n; w++) {
			size_t x = word_at(j, k, r[i]->k[k].w.v[w]);

			at[first[x] + count[x]++] = r[i];
		}
	sub = ord_xcalloc(n, sizeof(*sub));
	for (w = 0; w < j->nwords[k] && j->work <= JOINS_WORK_MAX; w++) {
		size_t a = 0, b = 0, m = 0;

		if (!count[w])
			continue;                 /* given by "*" alone: the case below */
		while (a < count[w] || b < nstar) /* in the document's order */
			if (b == nstar || (a < count[w] && at[first[w] + a]->index < star[b]->index))
				sub[m++] = at[first[w] + a++];
			else if (a == count[w] || star[b]->index < at[first[w] + a]->index)
				sub[m++] = star[b++];
			else
				sub[m++] = star[b++], a++; /* a row naming the word and "*" */
		j->pick[k] = j->words[k][w];
		joins_walk(j, k + 1, sub, m);
	}
	/* the rows of "*" alone are read for a word no row names, which the
	 * modules refuse (a unit's weapon the tables do not list); they may
	 * fill the gaps of several cases: only a key no row names a word of
	 * is a case of them */
	if (!j->nwords[k]) {
		j->pick[k] = NULL;
		memcpy(sub, star, nstar * sizeof(*sub));
		joins_walk(j, k + 1, sub, nstar);
	}
	free(sub);
	free(at);
	free(star);
	free(first);
	free(count);
}

/* Walk every case of tbl: the built-in table's pass when builtin, else
 * the user's, held to own (NULL: to nothing) as own_all found it. */
static void joins_run(struct joins *j, const struct ord_tables *t, const struct ord_table *tbl,
		      int builtin, const struct ord_table *own, const struct joins *own_all)
{
	const struct row_case **r;
	size_t i, k, w, nkeys = tbl->keys.n;

	memset(j, 0, sizeof(*j));
	ord_buf_init(&j->msg);
	j->t = t;
	j->tbl = tbl;
	j->own = own;
	j->own_all = own_all;
	j->builtin = builtin;
	j->c = ord_xcalloc(tbl->nrows ? tbl->nrows : 1, sizeof(*j->c));
	r = ord_xcalloc(tbl->nrows ? tbl->nrows : 1, sizeof(*r));
	j->words = ord_xcalloc(nkeys + 1, sizeof(*j->words));
	j->nwords = ord_xcalloc(nkeys + 1, sizeof(*j->nwords));
	j->pick = ord_xcalloc(nkeys + 1, sizeof(*j->pick));
	for (i = 0; i < tbl->nrows; i++) {
		row_case_init(&j->c[i], tbl, i);
		r[i] = &j->c[i];
	}
	for (k = 0; k < nkeys; k++) {
		size_t n = 0;

		for (i = 0; i < tbl->nrows; i++)
			n += j->c[i].k[k].w.n;
		j->words[k] = ord_xcalloc(n + 1, sizeof(**j->words));
		for (i = 0, n = 0; i < tbl->nrows; i++)
			for (w = 0; w < j->c[i].k[k].w.n; w++)
				j->words[k][n++] = j->c[i].k[k].w.v[w];
		qsort(j->words[k], n, sizeof(**j->words), word_cmp);
		for (i = 0, w = 0; i < n; i++)
			if (!w || strcmp(j->words[k][i], j->words[k][w - 1]))
				j->words[k][w++] = j->words[k][i];
		j->nwords[k] = w;
	}
	joins_walk(j, 0, r, tbl->nrows);
	free(r);
}

static void joins_release(struct joins *j)
{
	size_t i, k;

	for (i = 0; i < j->tbl->nrows; i++)
		row_case_release(&j->c[i], j->tbl->keys.n);
	for (k = 0; k < j->tbl->keys.n; k++)
		free(j->words[k]);
	free(j->c);
	free(j->words);
	free(j->nwords);
	free(j->pick);
	ord_buf_release(&j->msg);
}

int ord_tables_check_joins(const struct ord_tables *t, const struct ord_tables *own)
{
	size_t i;
	int err = 0;

	for (i = 0; i < t->n && !err; i++) {
		const struct ord_table *tbl = t->tables[i];
		const struct ord_table *o = own ? ord_tables_get(own, tbl->name) : NULL;
		struct joins mine, built_in;

		if (tbl->kind != ORD_TABLE_BANDS && tbl->kind != ORD_TABLE_DICE)
			continue;
		if (o && o->kind != tbl->kind)
			o = NULL;
		if (o)
			joins_run(&built_in, own, o, 1, NULL, NULL);
		/* a case the built-in table leaves a gap in is read so by its
		 * module: the table is its design */
		if (!o || !built_in.own_gap) {
			joins_run(&mine, t, tbl, 0, o, o ? &built_in : NULL);
			if (mine.line)
				err = ord_error_set(ORD_EBADDATA, "%s", mine.msg.buf);
			joins_release(&mine);
		}
		if (o)
			joins_release(&built_in);
	}
	return err;
}
