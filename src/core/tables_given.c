/*
 * tables_given.c - the tables engine's checks of a document a user hands
 * in (tables.h, "a document a user hands in"): a club's tables for a new
 * game, or for the calculator, checked against the ruleset's own built-in
 * document.
 *
 * Why apart from ord_tables_load: load reads the tables a game keeps too,
 * and a game must go on opening and auditing clean however the ruleset's
 * own document changes after it was made (a parameter renamed or dropped).
 * What is refused here is refused only where somebody can still correct
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
