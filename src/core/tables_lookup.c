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

	*out = NULL;
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
	struct ord_kv m;
	size_t i;
	int err;

	*out = NULL;
	for (i = 0; i < tbl->nrows; i++) {
		const struct row_attr *a = ord_tbl_row_find(&tbl->rows[i], key);
		if (a && list_matches(a->value, value)) {
			*out = &tbl->rows[i];
			return 0;
		}
	}
	ord_kv_init(&m);
	ord_kv_set(&m, key, value);
	err = not_found(tbl, &m, "matches");
	ord_kv_release(&m);
	return err;
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

/* Every name of `when` set and none of `unless`. */
static int conditions_hold(const struct ord_row *row, const struct ord_kv *flags)
{
	struct name_list l = { NULL, 0 };
	const char *s;
	size_t i;
	int ok = 1;

	if (row->mode != ORD_MOD_PER && (s = ord_row_attr(row, "when")) != NULL) {
		ord_tbl_names_split(&l, s);
		for (i = 0; ok && i < l.n; i++)
			ok = flag_set(flags, l.v[i]);
		ord_tbl_names_free(&l);
	}
	if (ok && (s = ord_row_attr(row, "unless")) != NULL) {
		ord_tbl_names_split(&l, s);
		for (i = 0; ok && i < l.n; i++)
			ok = !flag_set(flags, l.v[i]);
		ord_tbl_names_free(&l);
	}
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
