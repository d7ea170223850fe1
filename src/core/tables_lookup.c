/*
 * tables_lookup.c - the tables engine's lookups (tables.h): the row of a
 * chart, the band holding a distance, the dice row holding a roll, the
 * modifier lists applied with their explanation, and a row's attributes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tables_impl.h"

/* ---- matching rows ------------------------------------------------------ */

/* Does the space-separated list hold token (or "*")? */
static int list_matches(const char *list, const char *token)
{
	return ord_words_has(list, "*") || ord_words_has(list, token);
}

/*
 * The index of a table's rows by the words of an attribute: for each word
 * a list of attr holds, the rows whose list holds it, in order.  A lookup
 * per sheet order (a unit's arm, the codes its kind may take, its move)
 * read every row's list word by word, twice (its word, then "*"); the
 * index answers ord_words_has for every row at once.  An attribute's is
 * made at its first lookup: a table is looked up by one or two of them,
 * and its notes are never looked up.
 */
struct word_rows {
	const char *word; /* in a row's attribute value; NULL: an empty slot */
	size_t len;
	uint32_t hash;
	uint32_t at, n; /* its rows: rows[at..at+n) of the attribute's index */
	uint32_t last;  /* while it is made: the row counted last, + 1 */
};

struct attr_index {
	char *attr;
	struct word_rows *slots; /* open addressing by the words' hash */
	size_t cap;              /* a power of two */
	uint32_t *rows;          /* every word's rows, one list after another */
	const uint32_t *star;    /* the rows listing "*" */
	size_t nstar;
};

struct table_index {
	struct attr_index *attrs;
	size_t n;
};

#define WORD_SEPARATORS " \t\r\n|" /* as words.c splits a list */

struct table_index *ord_tbl_index_new(void)
{
	return ord_xcalloc(1, sizeof(struct table_index));
}

void ord_tbl_index_free(struct table_index *ix)
{
	size_t i;

	if (!ix)
		return;
	for (i = 0; i < ix->n; i++) {
		free(ix->attrs[i].attr);
		free(ix->attrs[i].slots);
		free(ix->attrs[i].rows);
	}
	free(ix->attrs);
	free(ix);
}

static uint32_t hash_word(const char *w, size_t len)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)w[i]) * 16777619u;
	return h;
}

static int word_separator(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '|';
}

/* The slot of the len bytes at w: the one holding it, or the empty one
 * where it goes. */
static struct word_rows *word_slot(const struct attr_index *a, const char *w, size_t len, uint32_t hash)
{
	size_t s;

	for (s = hash & (a->cap - 1);; s = (s + 1) & (a->cap - 1)) {
		struct word_rows *e = &a->slots[s];
		if (!e->word || (e->hash == hash && e->len == len && !memcmp(e->word, w, len)))
			return e;
	}
}

/* Each word of each row's list of name, to fn(a, row, word, len). */
static void each_word(struct attr_index *a, const struct ord_table *tbl, const char *name,
		      void (*fn)(struct attr_index *a, uint32_t row, const char *w, size_t len))
{
	size_t i;

	for (i = 0; i < tbl->nrows; i++) {
		const struct row_attr *ra = ord_tbl_row_find(&tbl->rows[i], name);
		const char *p = ra ? ra->value : NULL;
		size_t len;

		while (p && *(p += strspn(p, WORD_SEPARATORS))) {
			len = strcspn(p, WORD_SEPARATORS);
			fn(a, (uint32_t)i, p, len);
			p += len;
		}
	}
}

static void count_word(struct attr_index *a, uint32_t row, const char *w, size_t len)
{
	(void)row;
	(void)w;
	a->cap += len ? 1 : 0; /* the words, for the table's size */
}

/* A row listing w (once, if it lists it twice), counted. */
static void add_word(struct attr_index *a, uint32_t row, const char *w, size_t len)
{
	uint32_t hash = hash_word(w, len);
	struct word_rows *e = word_slot(a, w, len, hash);

	if (!e->word) {
		e->word = w;
		e->len = len;
		e->hash = hash;
	}
	if (e->last != row + 1) {
		e->n++;
		e->last = row + 1;
	}
}

/* The row put in its word's list, after add_word counted them all. */
static void place_word(struct attr_index *a, uint32_t row, const char *w, size_t len)
{
	struct word_rows *e = word_slot(a, w, len, hash_word(w, len));

	if (e->last != row + 1) {
		a->rows[e->at + e->n++] = row;
		e->last = row + 1;
	}
}

static const uint32_t *word_rows(const struct attr_index *a, const char *word, size_t *n);

/* The index of tbl's rows by attribute name, made if it is not yet. */
static const struct attr_index *attr_index(const struct ord_table *tbl, const char *name)
{
	struct table_index *ix = tbl->index;
	struct attr_index *a;
	size_t i, words, at = 0;

	for (i = 0; i < ix->n; i++)
		if (ix->attrs[i].attr[0] == name[0] && !strcmp(ix->attrs[i].attr, name))
			return &ix->attrs[i];
	ix->attrs = ord_xrealloc(ix->attrs, (ix->n + 1) * sizeof(*ix->attrs));
	a = &ix->attrs[ix->n++];
	memset(a, 0, sizeof(*a));
	a->attr = ord_strdup(name);
	each_word(a, tbl, name, count_word);
	words = a->cap;
	for (a->cap = 16; a->cap < 2 * words + 2; a->cap *= 2)
		;
	a->slots = ord_xcalloc(a->cap, sizeof(*a->slots));
	each_word(a, tbl, name, add_word);
	for (i = 0; i < a->cap; i++) {
		a->slots[i].at = (uint32_t)at;
		at += a->slots[i].n;
		a->slots[i].n = 0;
		a->slots[i].last = 0;
	}
	a->rows = ord_xmalloc((at ? at : 1) * sizeof(*a->rows));
	each_word(a, tbl, name, place_word);
	a->star = word_rows(a, "*", &a->nstar);
	return a;
}

/* The rows whose list of attr holds word (ord_words_has: a word with no
 * separator in it): *n of them, in order. */
static const uint32_t *word_rows(const struct attr_index *a, const char *word, size_t *n)
{
	const unsigned char *p = (const unsigned char *)word;
	uint32_t h = 2166136261u;
	const struct word_rows *e;

	*n = 0;
	for (; *p; p++) {
		if (word_separator(*p))
			return NULL;
		h = (h ^ *p) * 16777619u; /* hash_word's */
	}
	if (p == (const unsigned char *)word)
		return NULL;
	e = word_slot(a, word, (size_t)(p - (const unsigned char *)word), h);
	if (!e->word)
		return NULL;
	*n = e->n;
	return a->rows + e->at;
}

int ord_tbl_lists(const struct ord_table *tbl, const char *attr, const char *word)
{
	size_t n;

	word_rows(attr_index(tbl, attr), word, &n);
	return n > 0;
}

/* The rows a key=value of a match lets through: those whose list holds
 * its value or "*", two lists in order, walked together. */
struct match_rows {
	const uint32_t *word, *star;
	size_t nword, nstar;
};

/* The first row at or after `from` that m lets through, or UINT32_MAX. */
static uint32_t match_next(struct match_rows *m, uint32_t from)
{
	while (m->nword && *m->word < from)
		m->word++, m->nword--;
	while (m->nstar && *m->star < from)
		m->star++, m->nstar--;
	if (m->nword && (!m->nstar || *m->word < *m->star))
		return *m->word;
	return m->nstar ? *m->star : UINT32_MAX;
}

/* The first row of tbl every item of match (key=value) lets through, by
 * the index; as row_matches row by row.  1 if found (*row), 0 if none,
 * -1 for a match too long for it (row by row then). */
static int index_find(size_t *row, const struct ord_table *tbl, const struct ord_kv *match)
{
	struct match_rows m[8];
	uint32_t at = 0, next;
	size_t i;
	int moved;

	if (!match || !match->n) {
		*row = 0;
		return tbl->nrows > 0;
	}
	if (match->n > ORD_ARRAY_SIZE(m) || !tbl->index)
		return -1;
	for (i = 0; i < match->n; i++) {
		const struct attr_index *a = attr_index(tbl, match->items[i].key);
		m[i].word = word_rows(a, match->items[i].value, &m[i].nword);
		m[i].star = a->star;
		m[i].nstar = a->nstar;
	}
	/* the lists in turn, each taking `at` to its next row, until none moves it */
	do {
		moved = 0;
		for (i = 0; i < match->n; i++) {
			if ((next = match_next(&m[i], at)) == UINT32_MAX)
				return 0;
			if (next != at) {
				at = next;
				moved = 1;
			}
		}
	} while (moved);
	*row = at;
	return 1;
}

static int row_matches(const struct ord_row *row, const struct ord_kv *match)
{
	size_t i;

	if (!match)
		return 1;
	for (i = 0; i < match->n; i++) {
		const struct row_attr *a = ord_tbl_row_find(row, match->items[i].key);
		if (!a || !list_matches(a->value, match->items[i].value))
			return 0;
	}
	return 1;
}

/* "weapon=musket, shot=ball" for messages. */
static void describe_match(struct ord_buf *b, const struct ord_kv *match)
{
	size_t i;

	for (i = 0; match && i < match->n; i++)
		ord_buf_addf(b, "%s%s=%s", i ? ", " : "", match->items[i].key, match->items[i].value);
}

/* ---- lookups ------------------------------------------------------------- */

static int not_found(const struct ord_table *tbl, const struct ord_kv *match, const char *what)
{
	struct ord_buf b = ORD_BUF_INIT;
	int err;

	describe_match(&b, match);
	err = ord_error_set(ORD_ENOTFOUND, "table '%s': no row %s%s%s", tbl->name, what,
			    b.len ? " for " : "", b.buf);
	ord_buf_release(&b);
	return err;
}

int ord_table_find(const struct ord_row **out, const struct ord_table *tbl, const struct ord_kv *match)
{
	size_t i;
	int found;

	*out = NULL;
	if ((found = index_find(&i, tbl, match)) >= 0) {
		if (!found)
			return not_found(tbl, match, "matches");
		*out = &tbl->rows[i];
		return 0;
	}
	for (i = 0; i < tbl->nrows; i++)
		if (row_matches(&tbl->rows[i], match)) {
			*out = &tbl->rows[i];
			return 0;
		}
	return not_found(tbl, match, "matches");
}

int ord_table_find1(const struct ord_row **out, const struct ord_table *tbl, const char *key,
		    const char *value)
{
	struct ord_kv_item item = { (char *)key, (char *)value };
	const struct ord_kv m = { &item, 1, 1 }; /* a match of one, not a list to change */
	size_t i;
	int found;

	*out = NULL;
	if ((found = index_find(&i, tbl, &m)) > 0) {
		*out = &tbl->rows[i];
		return 0;
	}
	for (i = 0; found < 0 && i < tbl->nrows; i++) {
		const struct row_attr *a = ord_tbl_row_find(&tbl->rows[i], key);
		if (a && list_matches(a->value, value)) {
			*out = &tbl->rows[i];
			return 0;
		}
	}
	return not_found(tbl, &m, "matches");
}

int ord_table_band(const struct ord_row **out, const struct ord_table *tbl,
		   const struct ord_kv *match, double x)
{
	double lowest = INFINITY;
	size_t i;
	int any = 0;
	char what[64];

	*out = NULL;
	/* the lowest band of the key includes its lower bound */
	for (i = 0; i < tbl->nrows; i++) {
		const struct row_attr *from = ord_tbl_row_find(&tbl->rows[i], "from");
		if (from && from->has_num && row_matches(&tbl->rows[i], match)) {
			any = 1;
			if (from->num < lowest)
				lowest = from->num;
		}
	}
	for (i = 0; any && i < tbl->nrows; i++) {
		const struct row_attr *from = ord_tbl_row_find(&tbl->rows[i], "from");
		const struct row_attr *to = ord_tbl_row_find(&tbl->rows[i], "to");
		if (!from || !to || !from->has_num || !to->has_num ||
		    !row_matches(&tbl->rows[i], match))
			continue;
		if ((x > from->num && x <= to->num) || (x == from->num && x == lowest)) {
			*out = &tbl->rows[i];
			return 0;
		}
	}
	snprintf(what, sizeof(what), "holds %g", x);
	return not_found(tbl, match, what);
}

int ord_table_dice(const struct ord_row **out, const struct ord_table *tbl,
		   const struct ord_kv *match, double roll)
{
	size_t i;
	char what[64];

	*out = NULL;
	for (i = 0; i < tbl->nrows; i++) {
		const struct row_attr *lo = ord_tbl_row_find(&tbl->rows[i], "lo");
		const struct row_attr *hi = ord_tbl_row_find(&tbl->rows[i], "hi");
		if (!lo || !hi || !lo->has_num || !hi->has_num || !row_matches(&tbl->rows[i], match))
			continue;
		if (roll >= lo->num && roll <= hi->num) {
			*out = &tbl->rows[i];
			return 0;
		}
	}
	snprintf(what, sizeof(what), "holds the roll %g", roll);
	return not_found(tbl, match, what);
}

/* ---- modifiers ------------------------------------------------------------ */

static int flag_set(const struct ord_kv *flags, const char *name)
{
	return flags && ord_parse_bool(ord_kv_get(flags, name)) == 1;
}

/* Is every word of the list s a flag set (want 1), or none (want 0)?  The
 * words read where they are, not split into copies: a morale test asks
 * it of each of its table's rows (two allocations a row and a word). */
static int words_set(const char *s, const struct ord_kv *flags, int want)
{
	const char *w;
	size_t len;

	while ((w = ord_words_next(&s, &len)) != NULL) {
		char name[128], *p = len < sizeof(name) ? name : ord_xmalloc(len + 1);
		int set;

		memcpy(p, w, len);
		p[len] = '\0';
		set = flag_set(flags, p);
		if (p != name)
			free(p);
		if (set != want)
			return 0;
	}
	return 1;
}

/* Every name of `when` set and none of `unless`. */
static int conditions_hold(const struct ord_row *row, const struct ord_kv *flags)
{
	const char *s;
	int ok = 1;

	if (row->mode != ORD_MOD_PER && (s = ord_row_attr(row, "when")) != NULL)
		ok = words_set(s, flags, 1);
	if (ok && (s = ord_row_attr(row, "unless")) != NULL)
		ok = words_set(s, flags, 0);
	return ok;
}

/* "+6" / "−3": the sign always shown, as in the rule text. */
static void add_signed(struct ord_buf *b, double v)
{
	if (v >= 0)
		ord_buf_addch(b, '+');
	ord_tables_fmt(b, v, 1);
}

/* The words a row adds to an explanation: its `label` attribute as the
 * caller asks (a translation such as label_en), else its label. */
static const char *row_words(const struct ord_row *row, const struct ord_apply_text *text)
{
	const char *s = text && text->label ? ord_row_attr(row, text->label) : NULL;

	return s ? s : ord_row_label(row);
}

int ord_table_apply_text(double *out, size_t *applied, const struct ord_table *mods, double base,
			 const struct ord_kv *flags, const struct ord_kv *match,
			 const struct ord_apply_text *text, struct ord_buf *why)
{
	struct ord_buf b = ORD_BUF_INIT;
	int rows_only = text && text->rows_only;
	double total = base, value;
	size_t i, n = 0;
	int added = 0, timed = 0, pass;

	*out = base;
	if (applied)
		*applied = 0;
	if (mods->kind != ORD_TABLE_MODIFIERS)
		return ord_error_set(ORD_EBADDATA, "%s:%u: table '%s' is not a modifiers table",
				     mods->doc->name, mods->line, mods->name);
	if (!rows_only)
		ord_tables_fmt(&b, base, 1);
	/* additions first, then multipliers, so that a halving applies to the
	 * whole adjusted total whatever the order of the rows */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < mods->nrows; i++) {
			const struct ord_row *row = &mods->rows[i];
			double d, count = 0;

			if ((row->mode == ORD_MOD_TIMES) != (pass == 1))
				continue;
			if (!row_matches(row, match) || !conditions_hold(row, flags))
				continue;
			value = ord_tbl_row_find(row, "value")->num;
			switch (row->mode) {
			case ORD_MOD_SUM: d = value; break;
			case ORD_MOD_FRACTION: d = value * base; break;
			case ORD_MOD_PER: {
				const char *key = ord_row_attr(row, "when"), *w, *s;
				char name[128];
				size_t len;

				if (!key || (w = ord_words_next(&key, &len)) == NULL)
					continue;
				if (len >= sizeof(name))
					len = sizeof(name) - 1;
				memcpy(name, w, len);
				name[len] = '\0';
				s = flags ? ord_kv_get(flags, name) : NULL;
				if (!s || ord_tbl_parse_number(s, &count) || count == 0)
					continue;
				d = value * count;
				break;
			}
			case ORD_MOD_TIMES:
				if (added && !timed && !rows_only) {
					ord_buf_adds(&b, " = ");
					ord_tables_fmt(&b, total, 1);
				}
				total *= value;
				timed = 1;
				n++;
				ord_buf_adds(&b, ", ×");
				ord_tables_fmt(&b, value, 1);
				ord_buf_addf(&b, " %s", row_words(row, text));
				continue;
			default: continue;
			}
			total += d;
			added = 1;
			n++;
			ord_buf_adds(&b, ", ");
			add_signed(&b, d);
			ord_buf_addf(&b, " %s", row_words(row, text));
			if (row->mode == ORD_MOD_PER) {
				ord_buf_adds(&b, " (");
				ord_tables_fmt(&b, count, 1);
				ord_buf_adds(&b, " × ");
				ord_tables_fmt(&b, value, 1);
				ord_buf_addch(&b, ')');
			}
		}
	}
	if ((added || timed) && !rows_only) {
		ord_buf_adds(&b, " = ");
		ord_tables_fmt(&b, total, 1);
	}
	if (why)
		ord_buf_add(why, b.buf, b.len);
	ord_buf_release(&b);
	*out = total;
	if (applied)
		*applied = n;
	return 0;
}

int ord_table_apply(double *out, const struct ord_table *mods, double base,
		    const struct ord_kv *flags, const struct ord_kv *match, struct ord_buf *why)
{
	return ord_table_apply_text(out, NULL, mods, base, flags, match, NULL, why);
}

/* ---- a row ----------------------------------------------------------------- */

unsigned ord_row_line(const struct ord_row *row)
{
	return row->line;
}

const struct ord_table *ord_row_table(const struct ord_row *row)
{
	return row->table;
}

const char *ord_row_attr(const struct ord_row *row, const char *name)
{
	const struct row_attr *a = ord_tbl_row_find(row, name);
	return a ? a->value : NULL;
}

int ord_row_num(const struct ord_row *row, const char *name, double *out)
{
	const struct row_attr *a = ord_tbl_row_find(row, name);
	const struct ord_table *tbl = row->table;

	if (!a || !strcmp(a->value, "-"))
		return ord_error_set(ORD_ENOTFOUND, "%s:%u: table '%s' row has no value for '%s'",
				     tbl->doc->name, row->line, tbl->name, name);
	if (!a->has_num)
		return ord_error_set(ORD_EBADDATA, "%s:%u: table '%s' row: '%s' is not a number: '%s'",
				     tbl->doc->name, row->line, tbl->name, name, a->value);
	*out = a->num;
	return 0;
}

int ord_row_has_num(const struct ord_row *row, const char *name)
{
	const struct row_attr *a = ord_tbl_row_find(row, name);
	return a && a->has_num;
}

const char *ord_row_str(const struct ord_row *row, const char *name)
{
	return ord_row_attr(row, name);
}

int ord_row_reconstructed(const struct ord_row *row)
{
	return ord_tbl_is_yes(ord_row_attr(row, "reconstructed"));
}

int ord_row_provisional(const struct ord_row *row)
{
	return ord_tbl_is_yes(ord_row_attr(row, "provisional"));
}

const char *ord_row_note(const struct ord_row *row)
{
	const char *s = ord_row_attr(row, "note");
	return s && *s ? s : NULL;
}

enum ord_mod_mode ord_row_mode(const struct ord_row *row)
{
	return row->mode;
}

const char *ord_row_label(const struct ord_row *row)
{
	const char *s = ord_row_attr(row, "label");
	return s ? s : "";
}
