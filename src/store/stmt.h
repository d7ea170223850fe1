/*
 * stmt.h - prepared statements kept for the life of a connection (internal
 * to src/store).  A phase of 100,000 units writes as many rows: each named
 * function of the store asks for its statement by its SQL text and gets the
 * one prepared before, reset, instead of preparing it again.
 */
#ifndef ORD_STORE_STMT_H
#define ORD_STORE_STMT_H

#include <sqlite3.h>
#include <stdint.h>

/* The connection's statement of this SQL, reset with no bindings; prepared
 * (persistent) the first time, or again while the kept one is in use. */
int ord_store_stmt(sqlite3 *db, sqlite3_stmt **st, const char *sql);
/* Done with it: reset (its bindings are cleared at the next use). */
void ord_store_stmt_done(sqlite3_stmt *st);
/* The one integer of a query without parameters (a count, a maximum) in
 * *out; what names the rows in the error when it fails. */
int ord_store_scalar(sqlite3 *db, const char *sql, int64_t *out, const char *what);
/* Finalize every statement of the connection (before closing it). */
void ord_store_stmt_finalize_all(sqlite3 *db);

#endif
