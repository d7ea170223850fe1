/*
 * tables.c - the generic tables engine (see tables.h), its first part:
 * reading a ruleset's tables document into memory once, checking every
 * number, then the document and its tables as modules read them, and what
 * a module needs of them (ord_tables_require).  Lookups and modifiers are
 * in tables_lookup.c, formatting and printing in tables_print.c.
 *
 * Why everything is checked at load: a referee finds a typo in a table when
 * he loads it, with its line, not in the middle of resolving a turn.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tables_impl.h"
#include "xml/xmlsafe.h"

#define TABLES_SCHEMA "schema/tables.rng"

static const struct {
	const char *element, *row;
	enum ord_table_kind kind;
} kinds[] = {
	{ "params", "param", ORD_TABLE_PARAMS }, { "bands", "band", ORD_TABLE_BANDS },
	{ "dice", "roll", ORD_TABLE_DICE },      { "modifiers", "mod", ORD_TABLE_MODIFIERS },
	{ "chart", "row", ORD_TABLE_CHART },
};

static const struct {
	const char *name;
	enum ord_mod_mode mode;
} modes[] = {
	{ "sum", ORD_MOD_SUM },
	{ "fraction", ORD_MOD_FRACTION },
	{ "per", ORD_MOD_PER },
	{ "times", ORD_MOD_TIMES },
};
/* ---- small helpers ----------------------------------------------------- */

void ord_tbl_names_free(struct name_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/* Split a space-separated list. */
void ord_tbl_names_split(struct name_list *l, const char *s)
{
	const char *w;
	size_t len;

	while ((w = ord_words_next(&s, &len)) != NULL) {
		l->v = ord_xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
		l->v[l->n] = ord_xmalloc(len + 1);
		memcpy(l->v[l->n], w, len);
		l->v[l->n][len] = '\0';
		l->n++;
	}
}

int ord_tbl_names_has(const struct name_list *l, const char *s)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return 1;
	return 0;
}

/* A number as the tables write it: a decimal, or p/q with q > 0. */
int ord_tbl_parse_number(const char *s, double *out)
{
	const char *slash = strchr(s, '/');
	char *num;
	double p, q;
	int rc;

	if (!slash)
		return ord_parse_num(s, out);
	num = ord_xmalloc((size_t)(slash - s) + 1);
	memcpy(num, s, (size_t)(slash - s));
	num[slash - s] = '\0';
	rc = ord_parse_num(num, &p);
	free(num);
	if (rc || ord_parse_num(slash + 1, &q) || q <= 0 || strchr(slash + 1, '-') ||
	    strchr(slash + 1, '+'))
		return -1;
	*out = p / q;
	return 0;
}

int ord_tbl_is_yes(const char *s)
{
	return s && !strcmp(s, "yes");
}

const struct row_attr *ord_tbl_row_find(const struct ord_row *row, const char *name)
{
	size_t i;

	/* first letters first: every lookup of a rule reads a row's attributes */
	for (i = 0; i < row->nattrs; i++)
		if (row->attrs[i].name[0] == name[0] && !strcmp(row->attrs[i].name, name))
			return &row->attrs[i];
	return NULL;
}

/* ---- loading ------------------------------------------------------------ */

static void table_free(struct ord_table *tbl)
{
	size_t i, j;

	if (!tbl)
		return;
	for (i = 0; i < tbl->nrows; i++) {
		for (j = 0; j < tbl->rows[i].nattrs; j++) {
			free(tbl->rows[i].attrs[j].name);
			free(tbl->rows[i].attrs[j].value);
		}
		free(tbl->rows[i].attrs);
	}
	free(tbl->rows);
	ord_tbl_index_free(tbl->index);
	ord_tbl_names_free(&tbl->keys);
	ord_tbl_names_free(&tbl->columns);
	ord_tbl_names_free(&tbl->labels);
	free(tbl->name);
	free(tbl->title);
	free(tbl->note);
	free(tbl->unit);
	free(tbl);
}

void ord_tables_free(struct ord_tables *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->n; i++)
		table_free(t->tables[i]);
	free(t->tables);
	free(t->params);
	free(t->name);
	free(t->ruleset);
	free(t);
}

/* Report a problem with a row: "tables.xml:41: table 'fire' row has no 'to'". */
#define ROW_ERR(doc, tbl, row, ...) row_err((doc), (tbl), (row)->line, __VA_ARGS__)

static int row_err(const struct ord_tables *doc, const struct ord_table *tbl, unsigned line,
		   const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

static int row_err(const struct ord_tables *doc, const struct ord_table *tbl, unsigned line,
		   const char *fmt, ...)
{
	struct ord_buf b = ORD_BUF_INIT;
	va_list ap;
	int err;

	va_start(ap, fmt);
	ord_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	err = ord_error_set(ORD_EBADDATA, "%s:%u: table '%s' %s", doc->name, line, tbl->name, b.buf);
	ord_buf_release(&b);
	return err;
}

/* A number attribute the row must have. */
static int need_num(const struct ord_tables *doc, const struct ord_table *tbl,
		    const struct ord_row *row, const char *name, int allow_dash, int allow_open)
{
	const struct row_attr *a = ord_tbl_row_find(row, name);

	if (!a)
		return ROW_ERR(doc, tbl, row, "row has no '%s'", name);
	if (allow_dash && !strcmp(a->value, "-"))
		return 0;
	if (allow_open && (!strcmp(a->value, "min") || !strcmp(a->value, "max")))
		return 0;
	if (!a->has_num)
		return ROW_ERR(doc, tbl, row,
			       "row: '%s' is not a number: '%s' (expected a decimal or a fraction like 1/2%s%s)",
			       name, a->value, allow_dash ? ", or - for none" : "",
			       allow_open ? ", or min/max" : "");
	return 0;
}

static int need_str(const struct ord_tables *doc, const struct ord_table *tbl,
		    const struct ord_row *row, const char *name)
{
	const struct row_attr *a = ord_tbl_row_find(row, name);
	const char *p;

	if (!a)
		return ROW_ERR(doc, tbl, row, "row has no '%s'", name);
	for (p = a->value; *p == ' ' || *p == '\t'; p++)
		;
	if (!*p)
		return ROW_ERR(doc, tbl, row, "row has an empty '%s'", name);
	return 0;
}

static int check_row(const struct ord_tables *doc, struct ord_table *tbl, struct ord_row *row)
{
	const struct row_attr *a;
	size_t i;
	int err;

	for (i = 0; i < tbl->keys.n; i++)
		if ((err = need_str(doc, tbl, row, tbl->keys.v[i])) != 0)
			return err;
	for (i = 0; i < tbl->columns.n; i++)
		if ((err = need_num(doc, tbl, row, tbl->columns.v[i], 1, 0)) != 0)
			return err;
	for (i = 0; i < tbl->labels.n; i++)
		if ((err = need_str(doc, tbl, row, tbl->labels.v[i])) != 0)
			return err;
	if (ord_row_reconstructed(row) && !ord_row_note(row))
		return ROW_ERR(doc, tbl, row,
			       "row is marked reconstructed but has no note saying what was lost");

	switch (tbl->kind) {
	case ORD_TABLE_PARAMS:
		if ((err = need_str(doc, tbl, row, "name")) != 0 ||
		    (err = need_num(doc, tbl, row, "value", 0, 0)) != 0)
			return err;
		break;
	case ORD_TABLE_BANDS: {
		double from, to;
		if ((err = need_num(doc, tbl, row, "from", 0, 0)) != 0 ||
		    (err = need_num(doc, tbl, row, "to", 0, 0)) != 0)
			return err;
		from = ord_tbl_row_find(row, "from")->num;
		to = ord_tbl_row_find(row, "to")->num;
		if (!(from < to))
			return ROW_ERR(doc, tbl, row, "row: 'from' (%g) must be below 'to' (%g)",
				       from, to);
		break;
	}
	case ORD_TABLE_DICE: {
		double lo, hi;
		if ((err = need_num(doc, tbl, row, "lo", 0, 1)) != 0 ||
		    (err = need_num(doc, tbl, row, "hi", 0, 1)) != 0)
			return err;
		if (!strcmp(ord_tbl_row_find(row, "lo")->value, "max") ||
		    !strcmp(ord_tbl_row_find(row, "hi")->value, "min"))
			return ROW_ERR(doc, tbl, row,
				       "row: 'lo' may be min and 'hi' max, not the other way round");
		lo = ord_tbl_row_find(row, "lo")->num;
		hi = ord_tbl_row_find(row, "hi")->num;
		if (lo > hi)
			return ROW_ERR(doc, tbl, row, "row: 'lo' (%g) is above 'hi' (%g)", lo, hi);
		break;
	}
	case ORD_TABLE_MODIFIERS: {
		struct name_list when = { NULL, 0 };
		if (!(a = ord_tbl_row_find(row, "mode")))
			return ROW_ERR(doc, tbl, row,
				       "row has no 'mode' (expected sum, fraction, per or times)");
		for (i = 0; i < ORD_ARRAY_SIZE(modes); i++)
			if (!strcmp(a->value, modes[i].name))
				row->mode = modes[i].mode;
		if (!row->mode)
			return ROW_ERR(doc, tbl, row,
				       "row: unknown mode '%s' (expected sum, fraction, per or times)",
				       a->value);
		if ((err = need_num(doc, tbl, row, "value", 0, 0)) != 0 ||
		    (err = need_str(doc, tbl, row, "label")) != 0)
			return err;
		if (row->mode == ORD_MOD_PER) {
			a = ord_tbl_row_find(row, "when");
			if (a)
				ord_tbl_names_split(&when, a->value);
			i = when.n;
			ord_tbl_names_free(&when);
			if (i != 1)
				return ROW_ERR(doc, tbl, row,
					       "row: mode 'per' needs exactly one name in 'when' (the count)");
		}
		break;
	}
	case ORD_TABLE_CHART: break;
	}
	return 0;
}

static int load_row(const struct ord_tables *doc, struct ord_table *tbl, struct ord_row *row,
		    xmlNodePtr n)
{
	xmlAttrPtr a;

	row->table = tbl;
	row->line = ord_xml_start_line(doc->lines, n);
	for (a = n->properties; a; a = a->next) {
		struct row_attr *ra;
		xmlChar *v = xmlNodeListGetString(n->doc, a->children, 1);

		row->attrs = ord_xrealloc(row->attrs, (row->nattrs + 1) * sizeof(*row->attrs));
		ra = &row->attrs[row->nattrs++];
		ra->name = ord_strdup((const char *)a->name);
		ra->value = ord_strdup(v ? (const char *)v : "");
		xmlFree(v);
		ra->has_num = 0;
		if (!strcmp(ra->value, "min")) {
			ra->num = -INFINITY;
			ra->has_num = 1;
		} else if (!strcmp(ra->value, "max")) {
			ra->num = INFINITY;
			ra->has_num = 1;
		} else if (!ord_tbl_parse_number(ra->value, &ra->num)) {
			ra->has_num = 1;
		}
	}
	return check_row(doc, tbl, row);
}

static int load_table(struct ord_table **out, const struct ord_tables *doc, xmlNodePtr n,
		      enum ord_table_kind kind, const char *row_name)
{
	struct ord_table *tbl = ord_xcalloc(1, sizeof(*tbl));
	xmlNodePtr c;
	char *s;
	size_t nrows = 0;
	int err = 0;

	*out = NULL;
	tbl->doc = doc;
	tbl->kind = kind;
	tbl->index = ord_tbl_index_new();
	tbl->line = ord_xml_start_line(doc->lines, n);
	tbl->name = ord_xml_attr(n, "name");
	tbl->title = ord_xml_attr(n, "title");
	tbl->unit = ord_xml_attr(n, "unit");
	if (!tbl->name)
		tbl->name = ord_strdup("");
	if (!tbl->title)
		tbl->title = ord_strdup("");
	s = ord_xml_attr(n, "reconstructed");
	tbl->reconstructed = ord_tbl_is_yes(s);
	free(s);
	s = ord_xml_attr(n, "provisional");
	tbl->provisional = ord_tbl_is_yes(s);
	free(s);
	s = ord_xml_attr(n, "die");
	if (s) {
		long die;
		if (ord_parse_long(s, &die) || die < 2 || die > 1000) {
			err = row_err(doc, tbl, tbl->line,
				      "has a bad 'die' '%s' (expected 2..1000)", s);
			free(s);
			goto out;
		}
		tbl->die = (int)die;
		free(s);
	}
	s = ord_xml_attr(n, "keys");
	ord_tbl_names_split(&tbl->keys, s);
	free(s);
	s = ord_xml_attr(n, "columns");
	ord_tbl_names_split(&tbl->columns, s);
	free(s);
	s = ord_xml_attr(n, "labels");
	ord_tbl_names_split(&tbl->labels, s);
	free(s);
	if ((c = ord_xml_child(n, "note")) != NULL)
		tbl->note = ord_xml_text(c);
	if (tbl->reconstructed && (!tbl->note || !*tbl->note)) {
		err = row_err(doc, tbl, tbl->line,
			      "is marked reconstructed but has no note saying what was lost");
		goto out;
	}

	for (c = ord_xml_child(n, row_name); c; c = ord_xml_next(c->next, row_name))
		nrows++;
	tbl->rows = ord_xcalloc(nrows, sizeof(*tbl->rows));
	for (c = ord_xml_child(n, row_name); c; c = ord_xml_next(c->next, row_name)) {
		if ((err = load_row(doc, tbl, &tbl->rows[tbl->nrows++], c)) != 0)
			goto out;
	}
	*out = tbl;
	tbl = NULL;
out:
	table_free(tbl);
	return err;
}

/* Parameters by name (the search's order; its key has no row). */
static int param_cmp(const void *a, const void *b)
{
	return strcmp(((const struct param_ref *)a)->name, ((const struct param_ref *)b)->name);
}

/* Parameters by name, then by their line: a name given twice sits with
 * its first place first (the index's order). */
static int param_line_cmp(const void *a, const void *b)
{
	const struct param_ref *x = a, *y = b;
	int c = param_cmp(a, b);

	return c ? c : x->row->line < y->row->line ? -1 : x->row->line > y->row->line;
}

/* The index of t's parameters by name (t->params). */
static void index_params(struct ord_tables *t)
{
	size_t i, j, n = 0;

	for (i = 0; i < t->n; i++)
		if (t->tables[i]->kind == ORD_TABLE_PARAMS)
			n += t->tables[i]->nrows;
	t->params = n ? ord_xmalloc(n * sizeof(*t->params)) : NULL;
	for (i = 0; i < t->n; i++)
		for (j = 0; t->tables[i]->kind == ORD_TABLE_PARAMS && j < t->tables[i]->nrows; j++) {
			t->params[t->nparams].name = ord_row_attr(&t->tables[i]->rows[j], "name");
			t->params[t->nparams++].row = &t->tables[i]->rows[j];
		}
	if (t->nparams)
		qsort(t->params, t->nparams, sizeof(*t->params), param_line_cmp);
}

/* Names must be unique: tables among themselves, params across tables
 * (found in the index, t->params, sorted: a document of 200,000 of them
 * is checked in a sort, not in pairs).  The name given twice first in the
 * document is named, with its first place. */
static int check_unique(const struct ord_tables *t)
{
	const struct param_ref *twice = NULL, *first = NULL;
	size_t i, j;

	for (i = 0; i < t->n; i++)
		for (j = 0; j < i; j++)
			if (!strcmp(t->tables[i]->name, t->tables[j]->name))
				return ord_error_set(ORD_EBADDATA,
						     "%s:%u: table '%s' is already defined at line %u",
						     t->name, t->tables[i]->line,
						     t->tables[i]->name, t->tables[j]->line);
	for (i = 1, j = 0; i < t->nparams; i++) {
		if (strcmp(t->params[i].name, t->params[j].name)) {
			j = i; /* the first place of the next name */
			continue;
		}
		if (i == j + 1 && (!twice || t->params[i].row->line < twice->row->line)) {
			twice = &t->params[i];
			first = &t->params[j];
		}
	}
	if (twice)
		return ord_error_set(ORD_EBADDATA,
				     "%s:%u: parameter '%s' is already defined at line %u", t->name,
				     twice->row->line, twice->name, first->row->line);
	return 0;
}

int ord_tables_load(struct ord_tables **out, const char *xml, size_t len, const char *name)
{
	struct ord_tables *t = NULL;
	struct ord_xml_lines lines;
	xmlDocPtr doc = NULL;
	xmlNodePtr root, n;
	int err;

	*out = NULL;
	memset(&lines, 0, sizeof(lines));
	if ((err = ord_xml_load(&doc, xml, len, name, TABLES_SCHEMA)) != 0)
		goto out;
	ord_xml_lines_init(&lines, xml, len, doc);
	t = ord_xcalloc(1, sizeof(*t));
	t->name = ord_strdup(name);
	t->lines = &lines;
	root = xmlDocGetRootElement(doc);
	t->ruleset = ord_xml_attr(root, "ruleset");
	if (!t->ruleset)
		t->ruleset = ord_strdup("");
	for (n = ord_xml_child(root, NULL); n; n = ord_xml_next(n->next, NULL)) {
		size_t k;
		for (k = 0; k < ORD_ARRAY_SIZE(kinds); k++) {
			struct ord_table *tbl;
			if (strcmp((const char *)n->name, kinds[k].element))
				continue;
			if ((err = load_table(&tbl, t, n, kinds[k].kind, kinds[k].row)) != 0)
				goto out;
			t->tables = ord_xrealloc(t->tables, (t->n + 1) * sizeof(*t->tables));
			t->tables[t->n++] = tbl;
		}
	}
	index_params(t);
	if ((err = check_unique(t)) != 0)
		goto out;
	t->lines = NULL;
	*out = t;
	t = NULL;
out:
	ord_tables_free(t);
	if (doc)
		xmlFreeDoc(doc);
	ord_xml_lines_release(&lines);
	return err;
}

/* ---- the document ------------------------------------------------------- */

const char *ord_tables_name(const struct ord_tables *t)
{
	return t->name;
}

const char *ord_tables_ruleset(const struct ord_tables *t)
{
	return t->ruleset;
}

size_t ord_tables_count(const struct ord_tables *t)
{
	return t->n;
}

const struct ord_table *ord_tables_at(const struct ord_tables *t, size_t i)
{
	return i < t->n ? t->tables[i] : NULL;
}

const struct ord_table *ord_tables_get(const struct ord_tables *t, const char *name)
{
	size_t i;

	/* first letters first: a sheet's check looks up tables by name */
	for (i = 0; i < t->n; i++)
		if (t->tables[i]->name[0] == name[0] && !strcmp(t->tables[i]->name, name))
			return t->tables[i];
	return NULL;
}

int ord_tables_find(const struct ord_table **out, const struct ord_tables *t, const char *name,
		    enum ord_table_kind kind)
{
	const struct ord_table *tbl = ord_tables_get(t, name);

	*out = NULL;
	if (!tbl)
		return ord_error_set(ORD_ENOTFOUND, "%s: no table '%s' (expected a %s table)",
				     t->name, name, ord_table_kind_name(kind));
	if (tbl->kind != kind)
		return ord_error_set(ORD_EBADDATA, "%s:%u: table '%s' is a %s table, expected %s",
				     t->name, tbl->line, name, ord_table_kind_name(tbl->kind),
				     ord_table_kind_name(kind));
	*out = tbl;
	return 0;
}

const struct ord_row *ord_tables_param_row(const struct ord_tables *t, const char *name)
{
	struct param_ref key, *found;

	key.name = name;
	found = t->nparams ? bsearch(&key, t->params, t->nparams, sizeof(*t->params), param_cmp) : NULL;
	return found ? found->row : NULL;
}

int ord_tables_param(const struct ord_tables *t, const char *name, double *out)
{
	const struct ord_row *row = ord_tables_param_row(t, name);

	if (!row)
		return ord_error_set(ORD_ENOTFOUND, "%s: no parameter '%s'", t->name, name);
	return ord_row_num(row, "value", out);
}

int ord_tables_switch(const struct ord_tables *t, const char *name)
{
	const struct ord_row *row = ord_tables_param_row(t, name);
	double v = 0;

	if (!row || ord_row_num(row, "value", &v)) {
		ord_error_clear();
		return 0;
	}
	return v != 0;
}

/* ---- a table ------------------------------------------------------------- */

enum ord_table_kind ord_table_kind(const struct ord_table *tbl)
{
	return tbl->kind;
}

const char *ord_table_kind_name(enum ord_table_kind kind)
{
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(kinds); i++)
		if (kinds[i].kind == kind)
			return kinds[i].element;
	return "unknown";
}

const char *ord_table_name(const struct ord_table *tbl)
{
	return tbl->name;
}

const char *ord_table_title(const struct ord_table *tbl)
{
	return tbl->title;
}

const char *ord_table_note(const struct ord_table *tbl)
{
	return tbl->note;
}

const char *ord_table_unit(const struct ord_table *tbl)
{
	return tbl->unit;
}

int ord_table_reconstructed(const struct ord_table *tbl)
{
	return tbl->reconstructed;
}

int ord_table_provisional(const struct ord_table *tbl)
{
	return tbl->provisional;
}

unsigned ord_table_line(const struct ord_table *tbl)
{
	return tbl->line;
}

int ord_table_die(const struct ord_table *tbl)
{
	return tbl->die;
}

size_t ord_table_nkeys(const struct ord_table *tbl)
{
	return tbl->keys.n;
}

const char *ord_table_key(const struct ord_table *tbl, size_t i)
{
	return i < tbl->keys.n ? tbl->keys.v[i] : NULL;
}

size_t ord_table_ncolumns(const struct ord_table *tbl)
{
	return tbl->columns.n;
}

const char *ord_table_column(const struct ord_table *tbl, size_t i)
{
	return i < tbl->columns.n ? tbl->columns.v[i] : NULL;
}

size_t ord_table_nlabels(const struct ord_table *tbl)
{
	return tbl->labels.n;
}

const char *ord_table_label(const struct ord_table *tbl, size_t i)
{
	return i < tbl->labels.n ? tbl->labels.v[i] : NULL;
}

size_t ord_table_nrows(const struct ord_table *tbl)
{
	return tbl->nrows;
}

const struct ord_row *ord_table_row(const struct ord_table *tbl, size_t i)
{
	return i < tbl->nrows ? &tbl->rows[i] : NULL;
}

void ord_table_key_values(const struct ord_table *tbl, const char *key, struct ord_buf *out)
{
	struct name_list seen = { NULL, 0 };
	size_t i, j;

	for (i = 0; i < tbl->nrows; i++) {
		const char *v = ord_row_attr(&tbl->rows[i], key);
		struct name_list here = { NULL, 0 };

		if (!v)
			continue;
		ord_tbl_names_split(&here, v);
		for (j = 0; j < here.n; j++) {
			if (!strcmp(here.v[j], "*") || ord_tbl_names_has(&seen, here.v[j]))
				continue;
			seen.v = ord_xrealloc(seen.v, (seen.n + 1) * sizeof(*seen.v));
			seen.v[seen.n++] = ord_strdup(here.v[j]);
			if (seen.n > 1)
				ord_buf_addch(out, ' ');
			ord_buf_adds(out, here.v[j]);
		}
		ord_tbl_names_free(&here);
	}
	ord_tbl_names_free(&seen);
}

int ord_table_check_word(const struct ord_table *tbl, const char *key, const char *value,
			 const char *attr)
{
	struct ord_buf values = ORD_BUF_INIT;
	int err;

	/* a lookup per sheet order and per calculation: the index of the
	 * rows by attr's words, the list of every value only made for the
	 * message */
	if (value && *value && strcmp(value, "*") && ord_tbl_lists(tbl, attr, value))
		return 0;
	ord_table_key_values(tbl, attr, &values);
	if (!value || !*value)
		err = ord_error_set(ORD_EUSAGE, "%s: missing (expected one of %s)", key, values.buf);
	else
		err = ord_error_set(ORD_EUSAGE, "%s: unknown '%s' (expected one of %s)", key, value,
				    values.buf);
	ord_buf_release(&values);
	return err;
}

/* ---- what a module needs ------------------------------------------------- */

static int table_declares(const struct ord_table *tbl, const char *name, int label)
{
	size_t i, n = label ? ord_table_nlabels(tbl) : ord_table_ncolumns(tbl);

	for (i = 0; i < n; i++)
		if (!strcmp(label ? ord_table_label(tbl, i) : ord_table_column(tbl, i), name))
			return 1;
	return 0;
}

int ord_tables_require(const struct ord_tables *t, const struct ord_tables_needs *needs)
{
	const struct ord_table *tbl;
	double v;
	size_t i;
	int err;

	if (strcmp(ord_tables_ruleset(t), needs->ruleset))
		return ord_error_set(ORD_EBADDATA, "%s: tables of ruleset '%s', expected '%s'",
				     ord_tables_name(t), ord_tables_ruleset(t), needs->ruleset);
	for (i = 0; i < needs->ntables; i++)
		if ((err = ord_tables_find(&tbl, t, needs->tables[i].name, needs->tables[i].kind)) != 0)
			return err == ORD_ENOTFOUND ? ORD_EBADDATA : err;
	for (i = 0; i < needs->nparams; i++)
		if (ord_tables_param(t, needs->params[i], &v))
			return ord_error_set(ORD_EBADDATA, "%s: no parameter '%s'",
					     ord_tables_name(t), needs->params[i]);
	for (i = 0; i < needs->nfields; i++) {
		const struct ord_tables_need_field *f = &needs->fields[i];
		tbl = ord_tables_get(t, f->table);
		if (!tbl)
			return ord_error_set(ORD_EBADDATA, "%s: no table '%s'", ord_tables_name(t),
					     f->table);
		if (!table_declares(tbl, f->name, f->label))
			return ord_error_set(ORD_EBADDATA,
					     "%s:%u: table '%s' does not declare the %s '%s'",
					     ord_tables_name(t), ord_table_line(tbl), f->table,
					     f->label ? "label" : "column", f->name);
	}
	return 0;
}

/* What a range allows, as the messages say it: "a whole number from 2 to
 * 1000", "a number of 0 or more". */
static void range_describe(struct ord_buf *b, const struct ord_tables_range *r)
{
	ord_buf_adds(b, r->whole ? "a whole number " : "a number ");
	if (isinf(r->max)) {
		ord_buf_adds(b, "of ");
		ord_tables_fmt(b, r->min, 0);
		ord_buf_adds(b, " or more");
		return;
	}
	ord_buf_adds(b, "from ");
	ord_tables_fmt(b, r->min, 0);
	ord_buf_adds(b, " to ");
	ord_tables_fmt(b, r->max, 0);
}

static int in_range(const struct ord_tables_range *r, double v)
{
	return v >= r->min && v <= r->max && (!r->whole || v == floor(v));
}

int ord_tables_check_ranges(const struct ord_tables *t, const struct ord_tables_range *ranges, size_t n)
{
	struct ord_buf want = ORD_BUF_INIT;
	size_t i, j;
	int err = 0;

	for (i = 0; i < n && !err; i++) {
		const struct ord_tables_range *r = &ranges[i];
		const struct row_attr *a;

		ord_buf_reset(&want);
		range_describe(&want, r);
		if (!r->table) {
			const struct ord_row *row = ord_tables_param_row(t, r->name);
			if (row && (a = ord_tbl_row_find(row, "value")) != NULL && a->has_num &&
			    !in_range(r, a->num))
				err = ord_error_set(ORD_EBADDATA,
						    "%s:%u: parameter '%s' is %s (expected %s)",
						    t->name, row->line, r->name, a->value, want.buf);
			continue;
		}
		{
			const struct ord_table *tbl = ord_tables_get(t, r->table);
			for (j = 0; tbl && j < tbl->nrows && !err; j++) {
				const struct ord_row *row = &tbl->rows[j];
				if ((a = ord_tbl_row_find(row, r->name)) != NULL && a->has_num &&
				    !in_range(r, a->num))
					err = ROW_ERR(t, tbl, row, "row: '%s' is %s (expected %s)",
						      r->name, a->value, want.buf);
			}
		}
	}
	ord_buf_release(&want);
	return err;
}

/* ---- coverage of dice tables, words of labels ------------------------------ */

/* Every roll of spec's dice answered by tbl for the keys in match. */
static int dice_cover(const struct ord_tables *t, const struct ord_table *tbl,
		      const struct ord_tables_dice *spec, const struct ord_kv *match)
{
	static const double far[] = { -1e9, 1e9 };
	struct ord_buf keys = ORD_BUF_INIT;
	const struct ord_row *row;
	int lo = spec->modified ? -200 : 1, hi = spec->modified ? 200 : tbl->die, roll, err = 0;
	size_t i;

	for (i = 0; i < match->n; i++)
		ord_buf_addf(&keys, "%s%s=%s", i ? ", " : " for ", match->items[i].key,
			     match->items[i].value);
	for (roll = lo; roll <= hi && !err; roll++)
		if (ord_table_dice(&row, tbl, match, roll)) {
			ord_error_clear();
			err = row_err(t, tbl, tbl->line,
				      "has no row for the roll %d%s (a table read by %s must hold every roll)",
				      roll, keys.len ? keys.buf : "",
				      spec->modified ? "dice and modifiers" : "one die");
		}
	for (i = 0; spec->modified && i < ORD_ARRAY_SIZE(far) && !err; i++)
		if (ord_table_dice(&row, tbl, match, far[i])) {
			ord_error_clear();
			err = row_err(t, tbl, tbl->line,
				      "has no row for a roll %s%s (its first row must begin at 'min' and its last end at 'max': modifiers may take a roll anywhere)",
				      i ? "above its last" : "below its first",
				      keys.len ? keys.buf : "");
		}
	ord_buf_release(&keys);
	return err;
}

/* Does some row of tbl answer the keys in match? */
static int keys_answered(const struct ord_table *tbl, const struct ord_kv *match)
{
	size_t i, k;

	for (i = 0; i < tbl->nrows; i++) {
		int all = 1;
		for (k = 0; k < match->n && all; k++) {
			const struct row_attr *a = ord_tbl_row_find(&tbl->rows[i], match->items[k].key);
			all = a && (ord_words_has(a->value, "*") ||
				    ord_words_has(a->value, match->items[k].value));
		}
		if (all)
			return 1;
	}
	return 0;
}

/* Each combination of the words of tbl's keys from key on, added to match. */
static int dice_keys(const struct ord_tables *t, const struct ord_table *tbl,
		     const struct ord_tables_dice *spec, size_t key, struct ord_kv *match)
{
	struct name_list seen = { NULL, 0 };
	size_t i;
	int err = 0;

	if (!keys_answered(tbl, match))
		return 0;
	if (key == tbl->keys.n)
		return dice_cover(t, tbl, spec, match);
	for (i = 0; i < tbl->nrows && !err; i++) {
		const struct row_attr *a = ord_tbl_row_find(&tbl->rows[i], tbl->keys.v[key]);
		const char *p = a ? a->value : NULL, *w;
		size_t len;
		while (p && !err && (w = ord_words_next(&p, &len)) != NULL) {
			char *word = ord_xmalloc(len + 1);
			memcpy(word, w, len);
			word[len] = '\0';
			if (strcmp(word, "*") && !ord_tbl_names_has(&seen, word)) {
				seen.v = ord_xrealloc(seen.v, (seen.n + 1) * sizeof(*seen.v));
				seen.v[seen.n++] = ord_strdup(word);
				ord_kv_set(match, tbl->keys.v[key], word);
				err = dice_keys(t, tbl, spec, key + 1, match);
				ord_kv_del(match, tbl->keys.v[key]);
			}
			free(word);
		}
	}
	if (!seen.n && !err) /* a key every row leaves open ("*") */
		err = dice_keys(t, tbl, spec, key + 1, match);
	ord_tbl_names_free(&seen);
	return err;
}

int ord_tables_check_dice(const struct ord_tables *t, const struct ord_tables_dice *dice, size_t n)
{
	size_t i;
	int err = 0;

	for (i = 0; i < n && !err; i++) {
		const struct ord_table *tbl = ord_tables_get(t, dice[i].table);
		struct ord_kv match;
		if (!tbl)
			continue; /* what is absent is left to ord_tables_require */
		if (tbl->kind != ORD_TABLE_DICE)
			return row_err(t, tbl, tbl->line, "is a %s table (expected a dice table)",
				       ord_table_kind_name(tbl->kind));
		if (!dice[i].modified && tbl->die < 2)
			return row_err(t, tbl, tbl->line,
				       "gives no die (expected die=\"N\": it is read by one die)");
		ord_kv_init(&match);
		err = dice_keys(t, tbl, &dice[i], 0, &match);
		ord_kv_release(&match);
	}
	return err;
}

int ord_tables_check_words(const struct ord_tables *t, const struct ord_tables_words *words, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		const struct ord_table *tbl = ord_tables_get(t, words[i].table);
		for (j = 0; tbl && j < tbl->nrows; j++) {
			const struct ord_row *row = &tbl->rows[j];
			const struct row_attr *a = ord_tbl_row_find(row, words[i].name);
			if (a && !ord_words_has(words[i].values, a->value))
				return ROW_ERR(t, tbl, row, "row: '%s' is '%s' (expected one of %s)",
					       words[i].name, a->value, words[i].values);
		}
	}
	return 0;
}
