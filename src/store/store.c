/*
 * store.c - opening, creating and migrating game files.
 *
 * Pragmas (DESIGN.md): WAL, synchronous=FULL (a receipt printed means the
 * sheet is on disk), foreign keys, a busy timeout so that concurrent
 * orderly processes wait rather than fail, every write in BEGIN IMMEDIATE.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/store.h"

#define BUSY_TIMEOUT_MS 30000

int ord_store_error(sqlite3 *db, const char *what)
{
	return ord_error_set(ORD_ERROR, "%s: %s", what, db ? sqlite3_errmsg(db) : "no database");
}

int ord_store_exec(sqlite3 *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		int err = ord_error_set(ORD_ERROR, "database: %s", msg ? msg : "error");
		sqlite3_free(msg);
		return err;
	}
	return 0;
}

int ord_store_prepare(sqlite3 *db, sqlite3_stmt **st, const char *sql)
{
	if (sqlite3_prepare_v2(db, sql, -1, st, NULL) != SQLITE_OK)
		return ord_store_error(db, "database");
	return 0;
}

int ord_store_begin(sqlite3 *db)
{
	return ord_store_exec(db, "BEGIN IMMEDIATE");
}

int ord_store_commit(sqlite3 *db)
{
	return ord_store_exec(db, "COMMIT");
}

void ord_store_rollback(sqlite3 *db)
{
	if (!sqlite3_get_autocommit(db))
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
}

static int migration_number(const char *name)
{
	const char *base = name + strlen("schema/sql/");
	return atoi(base);
}

static int is_migration(const char *name)
{
	return !strncmp(name, "schema/sql/", 11) && strlen(name) > 15 &&
	       !strcmp(name + strlen(name) - 4, ".sql");
}

int ord_store_schema_version(void)
{
	const struct ord_resource *r;
	int v = 0;

	for (r = ord_resources; r->name; r++)
		if (is_migration(r->name) && migration_number(r->name) > v)
			v = migration_number(r->name);
	return v;
}

static int query_int(sqlite3 *db, const char *sql, int *out)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return sqlite3_errcode(db);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*out = sqlite3_column_int(st, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc;
}

/* Apply every migration newer than the file's user_version, in one transaction. */
static int migrate(sqlite3 *db, int from)
{
	int v, err = 0;

	if ((err = ord_store_begin(db)) != 0)
		return err;
	for (v = from + 1; v <= ord_store_schema_version(); v++) {
		const struct ord_resource *r;
		char pragma[64];

		for (r = ord_resources; r->name; r++)
			if (is_migration(r->name) && migration_number(r->name) == v)
				break;
		if (!r->name) {
			err = ord_error_set(ORD_ERROR, "migration %03d is missing from this build", v);
			goto out;
		}
		if ((err = ord_store_exec(db, (const char *)r->data)) != 0)
			goto out;
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", v);
		if ((err = ord_store_exec(db, pragma)) != 0)
			goto out;
	}
	err = ord_store_commit(db);
out:
	if (err)
		ord_store_rollback(db);
	return err;
}

static int set_pragmas(sqlite3 *db)
{
	int err;

	sqlite3_busy_timeout(db, BUSY_TIMEOUT_MS);
	if ((err = ord_store_exec(db, "PRAGMA foreign_keys = ON")) != 0 ||
	    (err = ord_store_exec(db, "PRAGMA journal_mode = WAL")) != 0 ||
	    (err = ord_store_exec(db, "PRAGMA synchronous = FULL")) != 0)
		return err;
	return 0;
}

int ord_store_create(sqlite3 **out, const char *path)
{
	sqlite3 *db = NULL;
	struct stat st;
	char pragma[64];
	int err = 0;

	*out = NULL;
	if (stat(path, &st) == 0)
		return ord_error_set(ORD_EEXISTS, "'%s' already exists; a new game needs a new file",
				     path);
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
				       SQLITE_OPEN_EXCLUSIVE, NULL) != SQLITE_OK) {
		err = ord_error_set(ORD_ERROR, "cannot create '%s': %s", path,
				    db ? sqlite3_errmsg(db) : "out of memory");
		goto out;
	}
	snprintf(pragma, sizeof(pragma), "PRAGMA application_id = %d", ORD_APPLICATION_ID);
	if ((err = ord_store_exec(db, pragma)) != 0 || (err = set_pragmas(db)) != 0 ||
	    (err = migrate(db, 0)) != 0)
		goto out;
	*out = db;
	db = NULL;
out:
	if (db)
		sqlite3_close(db);
	return err;
}

/* Inspect the file read-only: an orderly game of a schema we know? */
static int inspect(const char *path, int *version)
{
	sqlite3 *db = NULL;
	int app = 0, rc, err = 0;
	struct stat st;

	if (stat(path, &st) < 0)
		return ord_error_set(ORD_ENOTFOUND, "cannot open game '%s': %s", path,
				     strerror(errno));
	if (S_ISDIR(st.st_mode))
		return ord_error_set(ORD_ENOTGAME, "'%s' is a directory, not a game file", path);
	if (!S_ISREG(st.st_mode) || st.st_size == 0)
		return ord_error_set(ORD_ENOTGAME,
				     "'%s' is not an orderly game file (empty or not a regular file)",
				     path);
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		err = ord_error_set(ORD_ENOTGAME, "cannot open '%s': %s", path,
				    db ? sqlite3_errmsg(db) : "out of memory");
		goto out;
	}
	rc = query_int(db, "PRAGMA application_id", &app);
	if (rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT) {
		err = ord_error_set(ORD_ENOTGAME,
				    "'%s' is not an orderly game file (not an SQLite database)", path);
		goto out;
	}
	if (rc != SQLITE_OK) {
		err = ord_error_set(ORD_ENOTGAME, "cannot read '%s': %s", path, sqlite3_errmsg(db));
		goto out;
	}
	if (app != ORD_APPLICATION_ID) {
		err = ord_error_set(ORD_ENOTGAME,
				    "'%s' is not an orderly game file (an SQLite database of another program, application_id %d)",
				    path, app);
		goto out;
	}
	if (query_int(db, "PRAGMA user_version", version) != SQLITE_OK) {
		err = ord_error_set(ORD_ENOTGAME, "cannot read '%s': %s", path, sqlite3_errmsg(db));
		goto out;
	}
	if (*version > ord_store_schema_version()) {
		err = ord_error_set(ORD_ENEWER,
				    "'%s' was written by a newer orderly (schema %d; this one knows up to %d); upgrade orderly",
				    path, *version, ord_store_schema_version());
		goto out;
	}
	if (*version < 1) {
		err = ord_error_set(ORD_ENOTGAME, "'%s' is an incomplete orderly game file (no schema)",
				    path);
		goto out;
	}
out:
	if (db)
		sqlite3_close(db);
	return err;
}

int ord_store_open(sqlite3 **out, const char *path)
{
	sqlite3 *db = NULL;
	int version = 0, err;

	*out = NULL;
	if ((err = inspect(path, &version)) != 0)
		return err;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		err = ord_error_set(ORD_ERROR, "cannot open '%s': %s", path,
				    db ? sqlite3_errmsg(db) : "out of memory");
		goto out;
	}
	if ((err = set_pragmas(db)) != 0)
		goto out;
	if (version < ord_store_schema_version() && (err = migrate(db, version)) != 0)
		goto out;
	*out = db;
	db = NULL;
out:
	if (db)
		sqlite3_close(db);
	return err;
}

void ord_store_close(sqlite3 *db)
{
	if (db)
		sqlite3_close(db);
}
