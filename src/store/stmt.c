/* stmt.c - prepared statements kept for the life of a connection (stmt.h). */
#include <string.h>

#include "store/stmt.h"
#include "store/store.h"

int ord_store_stmt(sqlite3 *db, sqlite3_stmt **st, const char *sql)
{
	sqlite3_stmt *p;

	/* SQLite lists a connection's statements; ours are a few dozen */
	for (p = sqlite3_next_stmt(db, NULL); p; p = sqlite3_next_stmt(db, p)) {
		const char *s = sqlite3_sql(p);
		if (s && !sqlite3_stmt_busy(p) && !strcmp(s, sql)) {
			sqlite3_reset(p);
			sqlite3_clear_bindings(p);
			*st = p;
			return 0;
		}
	}
	if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL) != SQLITE_OK) {
		*st = NULL;
		return ord_store_error(db, "database");
	}
	return 0;
}

int ord_store_scalar(sqlite3 *db, const char *sql, int64_t *out, const char *what)
{
	sqlite3_stmt *st = NULL;
	int err;

	*out = 0;
	if ((err = ord_store_stmt(db, &st, sql)) != 0)
		return err;
	if (sqlite3_step(st) == SQLITE_ROW)
		*out = sqlite3_column_int64(st, 0);
	else
		err = ord_store_error(db, what);
	ord_store_stmt_done(st);
	return err;
}

void ord_store_stmt_done(sqlite3_stmt *st)
{
	if (st)
		sqlite3_reset(st);
}

void ord_store_stmt_finalize_all(sqlite3 *db)
{
	sqlite3_stmt *p;

	while ((p = sqlite3_next_stmt(db, NULL)) != NULL)
		sqlite3_finalize(p);
}
