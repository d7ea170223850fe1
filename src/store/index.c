/*
 * index.c - what checking one event reads, found by index (store.h): each
 * unit's sealed order parsed at the seal, the units every event names, and
 * the turns that have both (a unit's events are read in rows.c, beside
 * every other read of events).  Derived rows: the audit's replay checks every
 * event again from the sheets (verify.c), so these only make it cheap.
 */
#include <stdlib.h>
#include <string.h>

#include "store/stmt.h"
#include "store/store.h"

static const char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? (const char *)s : "";
}

/* Run a statement of no rows with (turn, text, seq) bound as given. */
static int exec3(sqlite3 *db, const char *sql, int turn, const char *text, int64_t n, const char *what)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_stmt(db, &st, sql)) != 0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	if (text)
		sqlite3_bind_text(st, 2, text, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, n);
	if (sqlite3_step(st) != SQLITE_DONE)
		err = ord_store_error(db, what);
	ord_store_stmt_done(st);
	return err;
}

int ord_store_sealed_order_put(sqlite3 *db, int turn, const char *uid, const char *body)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_stmt(db, &st,
				  "INSERT OR REPLACE INTO sealed_order(turn, uid, body) VALUES (?,?,?)")) !=
	    0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	sqlite3_bind_text(st, 2, uid, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, body, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		err = ord_store_error(db, "writing the sealed orders' index");
	ord_store_stmt_done(st);
	return err;
}

int ord_store_sealed_order_get(sqlite3 *db, int turn, const char *uid, char **body)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	*body = NULL;
	if ((err = ord_store_stmt(db, &st,
				  "SELECT body FROM sealed_order WHERE turn = ? AND uid = ?")) != 0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	sqlite3_bind_text(st, 2, uid, -1, SQLITE_STATIC);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		*body = ord_strdup(col_text(st, 0));
	else if (rc != SQLITE_DONE)
		err = ord_store_error(db, "reading the sealed orders' index");
	ord_store_stmt_done(st);
	return err;
}

int ord_store_order_index_mark(sqlite3 *db, int turn)
{
	return exec3(db, "INSERT OR IGNORE INTO order_index(turn) VALUES (?1)", turn, NULL, 0,
		     "marking the turn's orders indexed");
}

int ord_store_order_indexed(sqlite3 *db, int turn, int *yes)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	*yes = 0;
	if ((err = ord_store_stmt(db, &st, "SELECT 1 FROM order_index WHERE turn = ?")) != 0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		*yes = 1;
	else if (rc != SQLITE_DONE)
		err = ord_store_error(db, "reading the orders' index");
	ord_store_stmt_done(st);
	return err;
}

int ord_store_event_unit_put(sqlite3 *db, int turn, const char *uid, unsigned seq)
{
	return exec3(db, "INSERT OR IGNORE INTO event_unit(turn, uid, seq) VALUES (?1, ?2, ?3)",
		     turn, uid, seq, "writing the events' index");
}

int ord_store_unit_bound(sqlite3 *db, size_t *n)
{
	int64_t v;
	int err;

	/* units are never deleted: the largest id bounds their number, and
	 * the primary key gives it without counting every row */
	err = ord_store_scalar(db, "SELECT coalesce(max(id), 0) FROM unit", &v, "counting units");
	*n = (size_t)v;
	return err;
}
