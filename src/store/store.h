/*
 * store.h - the SQLite game file: opening with the right pragmas, refusing
 * files that are not orderly games, migrations from schema/sql (embedded),
 * transactions.  Only store/ and core/game*.c speak SQL.
 */
#ifndef ORD_STORE_H
#define ORD_STORE_H

#include <sqlite3.h>
#include "core/common.h"

/* PRAGMA application_id of every orderly game file: 'ORDY'. */
#define ORD_APPLICATION_ID 0x4F524459

/* Create a new game file (refused with ORD_EEXISTS if path exists) with the
 * latest schema. */
int ord_store_create(sqlite3 **out, const char *path);
/* Open an existing game file.  The file is first inspected read-only, so a
 * file of another program, or of a newer orderly, is refused untouched. */
int ord_store_open(sqlite3 **out, const char *path);
void ord_store_close(sqlite3 *db);
/* The newest schema version this build knows. */
int ord_store_schema_version(void);

int ord_store_begin(sqlite3 *db); /* BEGIN IMMEDIATE (waits on busy) */
int ord_store_commit(sqlite3 *db);
void ord_store_rollback(sqlite3 *db);
/* Set the error from the connection's last message; returns ORD_ERROR. */
int ord_store_error(sqlite3 *db, const char *what);
/* Run SQL with no results (for fixed statements). */
int ord_store_exec(sqlite3 *db, const char *sql);
/* Prepare, failing with a message. */
int ord_store_prepare(sqlite3 *db, sqlite3_stmt **st, const char *sql);

#endif
