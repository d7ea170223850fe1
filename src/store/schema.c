/*
 * schema.c - is the game file's schema the one the migrations make?
 *
 * A file whose schema was changed (by hand, with the sqlite3 shell, or by a
 * flipped byte of a CREATE TABLE) is as damaged as one with a bad page:
 * our statements are written for the migrations' tables and columns, and
 * one that uses a column renamed would fail only when it came to it, after
 * a change that did not use it had been made.  So every open compares,
 * before anything is written, the file's schema with the one an empty
 * database has once the migrations are applied to it, which the build
 * keeps (ord_schema_text, ord_schema_desc; cmake/schema-desc.c): applying
 * them at each open took 8 to 35 ms, as long as a whole `orderly event`.
 * First the text of the CREATE statements, whose match is the common
 * case and cheap; where it differs, what SQLite says of the tables'
 * columns, the indexes, triggers and views, which is the same for a file
 * made by an orderly whose migrations differed only in what that does not
 * show (a comment, a foreign key made DEFERRABLE since).  So CHECK
 * constraints, and whether a foreign key is DEFERRABLE, are compared only
 * as text: a file whose text differs and whose columns, foreign keys and
 * indexes are the same passes with them changed.
 *
 * A table the migrations do not make is let be (no statement of ours
 * reads it), with its indexes and triggers.
 */
#include <stdlib.h>
#include <string.h>

#include "store/schema.h"
#include "store/store.h"

/* One line of a description: kind, table, name, place, declaration. */
struct row {
	const char *kind, *table, *name, *pos, *decl;
};

/* The lines of desc (written into: each field ends in a NUL), malloc'd;
 * *n of them. */
static struct row *parse(char *desc, size_t *n)
{
	struct row *rows = NULL;
	size_t cap = 0;
	char *p = desc, *f[5];
	int i;

	for (*n = 0; *p; (*n)++) {
		for (i = 0; i < 5; i++) {
			f[i] = p;
			p += strcspn(p, i < 4 ? "\t\n" : "\n");
			if (*p)
				*p++ = '\0';
		}
		if (*n == cap)
			rows = ord_xrealloc(rows, (cap = cap ? 2 * cap : 256) * sizeof(*rows));
		rows[*n] = (struct row){ f[0], f[1], f[2], f[3], f[4] };
	}
	return rows;
}

/* The row of kind (a table's column or an object, named name) in rows;
 * table NULL: any table. */
static const struct row *find(const struct row *rows, size_t n, const char *kind, const char *table,
			      const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(rows[i].kind, kind) && (!table || !strcmp(rows[i].table, table)) &&
		    !strcmp(rows[i].name, name))
			return &rows[i];
	return NULL;
}

/* Does the schema make a table named table? */
static int has_table(const struct row *rows, size_t n, const char *table)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(rows[i].kind, "column") && !strcmp(rows[i].table, table))
			return 1;
	return 0;
}

static int refuse(const char *path, const char *what)
{
	return ord_error_set(ORD_EBADDATA,
			     "'%s' is a damaged game file (%s); restore it from a copy", path, what);
}

/* An index SQLite makes for a UNIQUE or PRIMARY KEY constraint. */
static int constraint_index(const char *name)
{
	return !strncmp(name, "sqlite_autoindex_", 17);
}

/* What differs between the schema (want) and the file (have), said as the
 * first difference found: a table missing, then a column, one more, one
 * moved or declared otherwise, then a foreign key, then an index, trigger
 * or view. */
static int compare(const char *path, const struct row *want, size_t nw, const struct row *have,
		   size_t nh)
{
	struct ord_buf what = ORD_BUF_INIT;
	const struct row *w, *h;
	size_t i;
	int err = 0;

	for (i = 0; i < nw && !what.len; i++)
		if (!strcmp(want[i].kind, "column") && !has_table(have, nh, want[i].table))
			ord_buf_addf(&what, "its table '%s' is missing", want[i].table);
	for (i = 0; i < nw && !what.len; i++)
		if (!strcmp((w = &want[i])->kind, "column") &&
		    !find(have, nh, "column", w->table, w->name))
			ord_buf_addf(&what, "its table '%s' has no column '%s'", w->table, w->name);
	for (i = 0; i < nh && !what.len; i++)
		if (!strcmp((h = &have[i])->kind, "column") && has_table(want, nw, h->table) &&
		    !find(want, nw, "column", h->table, h->name))
			ord_buf_addf(&what,
				     "its table '%s' has a column '%s', which the game's schema does not give it",
				     h->table, h->name);
	for (i = 0; i < nw && !what.len; i++) {
		if (strcmp((w = &want[i])->kind, "column") ||
		    !(h = find(have, nh, "column", w->table, w->name)))
			continue;
		if (strcmp(w->pos, h->pos))
			ord_buf_addf(&what, "its table '%s' has its column '%s' in place %d, not %d",
				     w->table, w->name, atoi(h->pos) + 1, atoi(w->pos) + 1);
		else if (strcmp(w->decl, h->decl))
			ord_buf_addf(&what,
				     "its table '%s' declares its column '%s' '%s', where the game's schema declares it '%s'",
				     w->table, w->name, h->decl, w->decl);
	}
	for (i = 0; i < nw && !what.len; i++) {
		if (strcmp((w = &want[i])->kind, "foreign key"))
			continue;
		if (!(h = find(have, nh, w->kind, w->table, w->name)))
			ord_buf_addf(&what,
				     "its table '%s' has its column '%s' without its foreign key (%s)",
				     w->table, w->name, w->decl);
		else if (strcmp(w->decl, h->decl))
			ord_buf_addf(&what,
				     "its table '%s' has its column '%s' %s, where the game's schema has it %s",
				     w->table, w->name, h->decl, w->decl);
	}
	for (i = 0; i < nh && !what.len; i++)
		if (!strcmp((h = &have[i])->kind, "foreign key") && has_table(want, nw, h->table) &&
		    !find(want, nw, h->kind, h->table, h->name))
			ord_buf_addf(&what,
				     "its table '%s' has its column '%s' %s, which the game's schema does not make",
				     h->table, h->name, h->decl);
	for (i = 0; i < nw && !what.len; i++) {
		if (!strcmp((w = &want[i])->kind, "column") || !strcmp(w->kind, "foreign key"))
			continue;
		h = find(have, nh, w->kind, NULL, w->name);
		if (!h && constraint_index(w->name))
			ord_buf_addf(&what,
				     "its table '%s' has lost the UNIQUE or PRIMARY KEY constraint of SQLite's index '%s'",
				     w->table, w->name);
		else if (!h)
			ord_buf_addf(&what, "its %s '%s' is missing", w->kind, w->name);
		else if (strcmp(w->table, h->table) || strcmp(w->decl, h->decl))
			ord_buf_addf(&what,
				     "its %s '%s' is '%s', where the game's schema makes it '%s'",
				     w->kind, w->name, h->decl, w->decl);
	}
	/* one more: on a table of the schema, an index changes what a write
	 * may do (UNIQUE) and a trigger what it does */
	for (i = 0; i < nh && !what.len; i++)
		if (strcmp((h = &have[i])->kind, "column") && strcmp(h->kind, "foreign key") &&
		    has_table(want, nw, h->table) && !find(want, nw, h->kind, NULL, h->name))
			ord_buf_addf(&what,
				     "its table '%s' has a%s %s '%s', which the game's schema does not make",
				     h->table, h->kind[0] == 'i' ? "n" : "", h->kind, h->name);
	if (what.len)
		err = refuse(path, what.buf);
	ord_buf_release(&what);
	return err;
}

int ord_store_check_schema(sqlite3 *db, const char *path)
{
	struct row *want = NULL, *have = NULL;
	char *text = NULL, *desc = NULL, *expected;
	size_t nw, nh;
	int err;

	/* the statements the migrations wrote, as they wrote them: the
	 * same schema (one read of sqlite_schema) */
	if (ord_schema_lines(db, ORD_SCHEMA_TEXT_SQL, &text) != SQLITE_OK)
		return ord_store_error(db, "reading the game's schema");
	err = strcmp(text, ord_schema_text);
	sqlite3_free(text);
	if (!err)
		return 0;
	/* written otherwise (by an orderly whose migrations differed in a
	 * comment, by another SQLite's ALTER TABLE, by hand): what SQLite
	 * makes of it, a pragma a table */
	if (ord_schema_lines(db, ORD_SCHEMA_DESC_SQL, &desc) != SQLITE_OK)
		return ord_store_error(db, "reading the game's schema");
	if (!strcmp(desc, ord_schema_desc)) {
		sqlite3_free(desc);
		return 0;
	}
	expected = ord_strdup(ord_schema_desc);
	want = parse(expected, &nw);
	have = parse(desc, &nh);
	err = compare(path, want, nw, have, nh);
	free(want);
	free(have);
	free(expected);
	sqlite3_free(desc);
	return err;
}
