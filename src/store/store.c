/*
 * store.c - opening, creating and migrating game files.
 *
 * Pragmas (DESIGN.md): WAL, synchronous=FULL (a receipt printed means the
 * sheet is on disk; a change with a receipt commits unsynced and its
 * checkpoint syncs it, ord_store_begin_receipt), foreign keys, a busy timeout so that concurrent
 * orderly processes wait rather than fail, every write in BEGIN IMMEDIATE.
 *
 * Also here, for tests only: the pause points that let a crash test kill
 * a process inside a transaction (ORDERLY_TEST_PAUSE_IN_TX, below), the
 * checkpoint's limit a Check test shortens
 * (ord_store_set_checkpoint_limit_ms), and two compile-time switches that
 * plant the faults the reliability tests must catch (ORD_STORE_TEST_NO_TX,
 * ORD_STORE_BUSY_TIMEOUT_MS).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store/schema.h"
#include "store/stmt.h"
#include "store/store.h"

/* How long a writer waits for another one.  Compiling with
 * -DORD_STORE_BUSY_TIMEOUT_MS=0 plants the fault that
 * tests/e2e/test_concurrency.sh must catch (busy errors reaching users). */
#ifndef ORD_STORE_BUSY_TIMEOUT_MS
#define ORD_STORE_BUSY_TIMEOUT_MS 30000
#endif
/* SQLite's own checkpoint, at this many pages of write-ahead log (its
 * default), except in the change of a receipt */
#define ORD_STORE_AUTOCHECKPOINT 1000

/* How long ord_store_checkpoint tries, from its first try: as long as a
 * writer waits (its busy handler waits as long for the readers).  Only a
 * test changes it (ord_store_set_checkpoint_limit_ms), to see it give up
 * without waiting 30 seconds. */
static int checkpoint_limit_ms = ORD_STORE_BUSY_TIMEOUT_MS;

/*
 * Test-only pause points (tests/e2e/test_crash.sh, scripts/crash-loop).
 *
 * When ORDERLY_TEST_PAUSE_IN_TX names a FIFO or a file, every write
 * transaction passes numbered pause points: "begin" right after BEGIN
 * IMMEDIATE, "write" at each row inserted, updated or deleted (an SQLite
 * update hook: rowid tables only), "commit" just before COMMIT, and
 * "checkpoint" once a checkpoint has copied the committed change into the
 * game file (after a submit, before its receipt is printed); and, outside
 * any transaction, "export" at each piece an export writes to its file
 * (ord_store_test_pause, game_export.c).  At
 * point number ORDERLY_TEST_PAUSE_AT (1 when unset), counted over the
 * process, it appends "PID POINT N\n" to that file and waits there, inside
 * the transaction, for the test's SIGKILL (and gives up after two minutes
 * with exit 70, still without committing).  Users never set these
 * variables; when they are unset, nothing here runs but one getenv at open.
 *
 * Compiling with -DORD_STORE_TEST_NO_TX plants the fault the crash test
 * must catch: BEGIN and COMMIT do nothing, so every statement commits on
 * its own and a kill can land between two writes of one change.
 */
static const char *pause_path; /* ORDERLY_TEST_PAUSE_IN_TX, NULL when unset */
static long pause_at = 1;      /* the pause point to stop at (1-based) */
static long pause_seen;        /* pause points passed so far */

static void test_pause(const char *point)
{
	char line[128];
	time_t until;
	int fd, n;

	if (!pause_path || ++pause_seen != pause_at)
		return;
	n = snprintf(line, sizeof(line), "%ld %s %ld\n", (long)getpid(), point, pause_seen);
	fd = open(pause_path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd >= 0) {
		if (write(fd, line, (size_t)n) != n)
			_exit(70);
		close(fd);
	}
	for (until = time(NULL) + 120; time(NULL) < until;)
		sleep(1);
	_exit(70);
}

void ord_store_test_pause(const char *point)
{
	test_pause(point);
}

static void test_pause_write(void *arg, int op, const char *db, const char *table, sqlite3_int64 rowid)
{
	(void)arg;
	(void)op;
	(void)db;
	(void)table;
	(void)rowid;
	test_pause("write");
}

static void test_pause_init(sqlite3 *db)
{
	const char *p = getenv("ORDERLY_TEST_PAUSE_IN_TX"), *at = getenv("ORDERLY_TEST_PAUSE_AT");

	if (!p || !*p)
		return;
	pause_path = p;
	if (at && *at)
		pause_at = atol(at);
	sqlite3_update_hook(db, test_pause_write, NULL);
}

/* The last error of db says the file is damaged (not a bug of ours: bad
 * data): a bad page, or a schema that is not the one the migrations made
 * (the file's is compared with it at open, ord_store_check_schema, and our
 * statements are written for its columns: one of them missing is a schema
 * changed in the file, by hand or by a flipped byte of a CREATE TABLE,
 * after the open, by another process). */
static int damaged(sqlite3 *db)
{
	int rc = db ? sqlite3_errcode(db) & 0xff : SQLITE_OK;
	const char *m = db ? sqlite3_errmsg(db) : "";

	/* SQLite says a table or column the statement names is missing
	 * only in its message: the code is the generic SQLITE_ERROR (no
	 * extended code tells it from a syntax error), so its words are
	 * read, SQLite's own and stable across its versions */
	return rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB ||
	       (rc == SQLITE_ERROR && (strstr(m, "no such column") || strstr(m, "no such table") ||
				       strstr(m, "has no column named")));
}

/* The game file of db as its user is likely to have named it: SQLite keeps
 * the full path, shown from the working directory when it is under it.
 * NULL when db has no file. */
static const char *file_of(sqlite3 *db)
{
	const char *f = db ? sqlite3_db_filename(db, "main") : NULL;
	char cwd[PATH_MAX];
	size_t n;

	if (!f || !*f)
		return NULL;
	if (getcwd(cwd, sizeof(cwd)) && (n = strlen(cwd)) > 1 && !strncmp(f, cwd, n) &&
	    f[n] == '/' && f[n + 1])
		f += n + 1;
	return f;
}

/* Why db failed at what (msg: SQLite's message), naming its file: a store
 * error reaches the user as it is, and "database: table result has no
 * column named explanation" did not say which game. */
static int fail(sqlite3 *db, const char *what, const char *msg)
{
	const char *file = file_of(db);

	if (damaged(db))
		return file ? ord_error_set(ORD_EBADDATA,
					    "'%s' is a damaged game file (%s: %s); restore it from a copy",
					    file, what, msg)
			    : ord_error_set(ORD_EBADDATA,
					    "%s: the game file is damaged (%s); restore it from a copy",
					    what, msg);
	return file ? ord_error_set(ORD_ERROR, "'%s': %s: %s", file, what, msg)
		    : ord_error_set(ORD_ERROR, "%s: %s", what, msg);
}

int ord_store_error(sqlite3 *db, const char *what)
{
	return fail(db, what, db ? sqlite3_errmsg(db) : "no database");
}

int ord_store_exec(sqlite3 *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		int err = fail(db, "database", msg ? msg : "error");
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
	int err;

	/* a handle opened read-only (ORD_OPEN_READONLY on a file that may
	 * not be written) is never asked to change the game by the commands
	 * that read; a caller that does is told so, not "internal error" */
	if (sqlite3_db_readonly(db, "main") == 1)
		return ord_error_set(ORD_ECANTWRITE,
				     "the game was opened read-only: it may be read, not changed");
#ifdef ORD_STORE_TEST_NO_TX
	err = 0;
#else
	err = ord_store_exec(db, "BEGIN IMMEDIATE");
#endif
	if (!err)
		test_pause("begin");
	return err;
}

int ord_store_commit(sqlite3 *db)
{
	test_pause("commit");
#ifdef ORD_STORE_TEST_NO_TX
	return 0;
#else
	return ord_store_exec(db, "COMMIT");
#endif
}

/* The change of a receipt commits unsynced and is synced by the
 * checkpoint that follows; SQLite's own checkpoint, run inside a commit
 * that takes the write-ahead log past 1,000 pages, would copy it into the
 * game file under synchronous=OFF, syncing nothing, and leave
 * ord_store_checkpoint nothing to copy or sync: it is off until then. */
static void receipt_end(sqlite3 *db)
{
	sqlite3_exec(db, "PRAGMA synchronous = FULL", NULL, NULL, NULL);
	sqlite3_wal_autocheckpoint(db, ORD_STORE_AUTOCHECKPOINT);
}

void ord_store_rollback(sqlite3 *db)
{
	if (!sqlite3_get_autocommit(db))
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	/* after ord_store_begin_receipt, the next change syncs again */
	receipt_end(db);
}

int ord_store_begin_receipt(sqlite3 *db)
{
	int err;

	if (sqlite3_db_readonly(db, "main") == 1)
		return ord_store_begin(db);
	if ((err = ord_store_exec(db, "PRAGMA synchronous = OFF")) != 0)
		return err;
	sqlite3_wal_autocheckpoint(db, 0);
	if ((err = ord_store_begin(db)) != 0)
		receipt_end(db);
	return err;
}

/* Sync the write-ahead log through SQLite's own handle of it (what a
 * commit under synchronous=FULL does): a change committed unsynced by
 * ord_store_begin_receipt whose checkpoint did not complete is on disk
 * all the same. */
static int sync_wal(sqlite3 *db)
{
	sqlite3_file *f = NULL;

	if (sqlite3_file_control(db, "main", SQLITE_FCNTL_JOURNAL_POINTER, &f) != SQLITE_OK || !f ||
	    !f->pMethods)
		return 0; /* no write-ahead log open: nothing unsynced */
	return f->pMethods->xSync(f, SQLITE_SYNC_NORMAL) == SQLITE_OK
		       ? 0
		       : ord_error_set(ORD_ERROR, "syncing the write-ahead log of the game file");
}

/* A savepoint: a deferred transaction of its own when none is open, or a
 * part of the one a change is making (a report or a bundle written from
 * the change hook reads what the change wrote). */
int ord_store_begin_read(sqlite3 *db)
{
	return ord_store_exec(db, "SAVEPOINT ord_read");
}

void ord_store_end_read(sqlite3 *db)
{
	if (!sqlite3_get_autocommit(db))
		sqlite3_exec(db, "RELEASE ord_read", NULL, NULL, NULL);
}

/* Milliseconds of a clock that only goes forward. */
static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int ord_store_checkpoint(sqlite3 *db)
{
	int log = 0, done = 0, rc, err;
	int64_t start;

	/* synchronous=FULL again (after ord_store_begin_receipt): the
	 * checkpoint then syncs the write-ahead log before it copies it, and
	 * the game file after */
	sqlite3_wal_autocheckpoint(db, ORD_STORE_AUTOCHECKPOINT);
	if ((err = ord_store_exec(db, "PRAGMA synchronous = FULL")) != 0)
		return err;
	/* FULL waits (through the busy handler) for the readers of older
	 * snapshots and the writers, then copies every frame and syncs; but
	 * another process's checkpoint running at that moment makes it
	 * return SQLITE_BUSY at once, without the busy handler: try again
	 * for as long as the busy handler would wait */
	start = now_ms();
	/* a test's shorter limit: the busy handler waits no longer */
	if (checkpoint_limit_ms != ORD_STORE_BUSY_TIMEOUT_MS)
		sqlite3_busy_timeout(db, checkpoint_limit_ms);
	for (;;) {
		rc = sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_FULL, &log, &done);
		/* the time since the first try: each may itself wait as long
		 * in the busy handler, for readers */
		if (rc != SQLITE_BUSY || now_ms() - start >= checkpoint_limit_ms)
			break;
		sqlite3_sleep(10);
	}
	if (checkpoint_limit_ms != ORD_STORE_BUSY_TIMEOUT_MS)
		sqlite3_busy_timeout(db, ORD_STORE_BUSY_TIMEOUT_MS);
	if (rc != SQLITE_OK || (log >= 0 && done < log)) {
		/* the change stays committed in the write-ahead log: on disk */
		if ((err = sync_wal(db)) != 0)
			return err;
	}
	if (rc != SQLITE_OK)
		return ord_store_error(db, "copying the write-ahead log into the game file");
	if (log >= 0 && done < log)
		return ord_error_set(ORD_ERROR,
				     "copying the write-ahead log into the game file: %d of %d pages copied (readers kept it from completing)",
				     done, log);
	test_pause("checkpoint");
	return 0;
}

void ord_store_set_checkpoint_limit_ms(int ms)
{
	checkpoint_limit_ms = ms;
}

static const char *const turn_states[] = { NULL, "open", "sealed", "resolved", "exchanged" };

const char *ord_turn_state_name(enum ord_turn_state s)
{
	return (size_t)s < ORD_ARRAY_SIZE(turn_states) && turn_states[s] ? turn_states[s] : "?";
}

enum ord_turn_state ord_turn_state_parse(const char *s)
{
	size_t i;

	for (i = 1; i < ORD_ARRAY_SIZE(turn_states); i++)
		if (!strcmp(turn_states[i], s))
			return (enum ord_turn_state)i;
	return (enum ord_turn_state)0;
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

/* Steps of C run after a migration's SQL, for what SQL cannot do a piece
 * at a time: an INSERT ... SELECT of a blob holds the whole blob in memory
 * (a mail attaching a bundle is hundreds of MB at 100,000 units). */
static const struct {
	int version;              /* the migration the step follows */
	int (*step)(sqlite3 *db); /* 0, or an error set */
} migration_steps[] = {
	{ 19, ord_store_mail_outbox_migrate }, /* the mails' bytes into 019's outbox */
};

/* Apply every migration newer than the file's user_version, in one
 * transaction, and see that the schema they leave is the build's (path
 * names the file): a file of an older format whose schema was changed by
 * hand is refused as it was, the migration rolled back. */
static int migrate(sqlite3 *db, const char *path, int from)
{
	size_t i;
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
		for (i = 0; i < ORD_ARRAY_SIZE(migration_steps); i++)
			if (migration_steps[i].version == v && (err = migration_steps[i].step(db)) != 0)
				goto out;
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", v);
		if ((err = ord_store_exec(db, pragma)) != 0)
			goto out;
	}
	if ((err = ord_store_check_schema(db, path)) != 0)
		goto out;
	err = ord_store_commit(db);
out:
	if (err)
		ord_store_rollback(db);
	return err;
}

/* The page cache from the game's size: the whole file and a quarter more
 * (a phase writes about that much), at least SQLite's default 2,000 pages
 * and at most 16 MiB.  A phase of a large game spills part of its cache to
 * the write-ahead log before it commits; measured at 100,000 units a cap of
 * 64 MiB held 52 MB more and resolved the movement phase no faster (1.5 s
 * against 1.15 to 1.3 s with 8 or 16 MiB), and an exchange 140 MB against
 * 89 MB in the same time. */
static int set_cache(sqlite3 *db)
{
	char pragma[64];
	int pages = 0;

	if (query_int(db, "PRAGMA page_count", &pages) != SQLITE_OK)
		return 0; /* a damaged file: check_open says so */
	pages += pages / 4;
	if (pages < 2000)
		pages = 2000;
	snprintf(pragma, sizeof(pragma), "PRAGMA cache_size = -%d", pages > 4096 ? 16384 : pages * 4);
	return ord_store_exec(db, pragma);
}

int ord_store_cache_for_scan(sqlite3 *db, int scan)
{
	if (!scan)
		return set_cache(db);
	/* inside a write (the mail judge's report and bundle mails, queued
	 * in one transaction), the pages written so far are written to the
	 * log first, where a spill would put them: a smaller cache drops
	 * only clean pages, and a dirty one stays until it spills, so the
	 * 16 MiB the mails before filled were held beside the scan's units
	 * (at 100,000 units the report's 100 MB) */
	if (!sqlite3_get_autocommit(db) && sqlite3_db_cacheflush(db) != SQLITE_OK)
		return ord_store_error(db, "writing the pages changed so far to the log");
	/* a pass that reads each row once gains nothing from holding the
	 * file: SQLite's default cache, and the memory stays a constant */
	return ord_store_exec(db, "PRAGMA cache_size = -2000");
}

/* The connection's settings, which write nothing to the file. */
static int set_pragmas(sqlite3 *db)
{
	int err;

	sqlite3_busy_timeout(db, ORD_STORE_BUSY_TIMEOUT_MS);
	if ((err = ord_store_exec(db, "PRAGMA foreign_keys = ON")) != 0 ||
	    (err = ord_store_exec(db, "PRAGMA synchronous = FULL")) != 0)
		return err;
	return set_cache(db);
}

/* The write-ahead log, which a file in another journal mode is changed
 * to (its header written): after the schema is checked, so a file
 * refused is left as it was (found by a red-team review). */
static int set_wal(sqlite3 *db)
{
	return ord_store_exec(db, "PRAGMA journal_mode = WAL");
}

/* The directory path is in ("." for a bare name; malloc'd). */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *d;

	if (!slash)
		return ord_strdup(".");
	if (slash == path)
		return ord_strdup("/");
	d = ord_xmalloc((size_t)(slash - path) + 1);
	memcpy(d, path, (size_t)(slash - path));
	d[slash - path] = '\0';
	return d;
}

/* Can a new file be made in path's directory?  Said before SQLite tries,
 * whose "unable to open database file" names neither the file nor why. */
static int check_dir(const char *path)
{
	char *dir = dir_of(path);
	struct stat st;
	int err = 0;

	if (stat(dir, &st) < 0)
		err = errno == ENOENT
			      ? ord_error_set(ORD_ECANTWRITE,
					      "cannot create '%s': directory '%s' does not exist",
					      path, dir)
			      : ord_error_set(ORD_ECANTWRITE, "cannot create '%s': directory '%s': %s",
					      path, dir, ord_strerror(errno));
	else if (!S_ISDIR(st.st_mode))
		err = ord_error_set(ORD_ECANTWRITE, "cannot create '%s': '%s' is not a directory",
				    path, dir);
	else if (access(dir, W_OK | X_OK) < 0)
		err = ord_error_set(ORD_ECANTWRITE,
				    "cannot create '%s': directory '%s' may not be written (%s)",
				    path, dir, ord_strerror(errno));
	free(dir);
	return err;
}

int ord_store_new_path(const char *path)
{
	struct stat st;
	char to[PATH_MAX];
	ssize_t n;

	if (lstat(path, &st) < 0)
		return 0;
	if (!S_ISLNK(st.st_mode) || stat(path, &st) == 0)
		return ord_error_set(ORD_EEXISTS,
				     "'%s' already exists; a new game needs a new file", path);
	/* a link to nothing: SQLite would make the game where it points, a
	 * place the referee did not name (in a shared directory, one another
	 * user chose) */
	n = readlink(path, to, sizeof(to) - 1);
	to[n < 0 ? 0 : n] = '\0';
	return ord_error_set(ORD_EEXISTS,
			     "'%s' is a symbolic link to '%s', which does not exist; a new game is made only at a path that names nothing yet",
			     path, to);
}

int ord_store_create(sqlite3 **out, const char *path)
{
	sqlite3 *db = NULL;
	char pragma[64];
	int err = 0;

	*out = NULL;
	if ((err = ord_store_new_path(path)) != 0 || (err = check_dir(path)) != 0)
		return err;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_EXCLUSIVE,
			    NULL) != SQLITE_OK) {
		err = ord_error_set(ORD_ERROR, "cannot create '%s': %s", path,
				    db ? sqlite3_errmsg(db) : "out of memory");
		goto out;
	}
	snprintf(pragma, sizeof(pragma), "PRAGMA application_id = %d", ORD_APPLICATION_ID);
	if ((err = ord_store_exec(db, pragma)) != 0 || (err = set_pragmas(db)) != 0 ||
	    (err = set_wal(db)) != 0 || (err = migrate(db, path, 0)) != 0)
		goto out;
	*out = db;
	db = NULL;
out:
	if (db)
		sqlite3_close(db);
	return err;
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Schema 4 and older: the first log protocol, whose history cannot show a
 * player that the seed was not re-drawn, that no phase was skipped or that
 * the results are the rules' (docs/threat-model.md).  Refused, untouched. */
static int old_protocol(const char *path, int version)
{
	if (version <= 4)
		return ord_error_set(ORD_EVERSION,
				     "'%s' was made by orderly 0.1 (schema %d, log protocol 1), whose log cannot prove what this orderly's audit checks; finish it with orderly 0.1 (the file is left as it was)",
				     path, version);
	return 0;
}

/*
 * The first 100 bytes of path through SQLite's own file layer, not open()
 * and close(): closing any descriptor of a file drops every POSIX lock the
 * process holds on it, so a plain close here would take the locks of
 * another connection of this process (a server's other thread) to the same
 * game; SQLite's layer keeps such a close until those locks are released.
 * Returns the bytes read, or (size_t)-1 with errno set.
 */
static size_t read_header(const char *path, unsigned char h[100])
{
	sqlite3_vfs *vfs = sqlite3_vfs_find(NULL);
	sqlite3_file *f;
	char *full;
	int flags = 0, rc;
	size_t got = 100;

	if (!vfs) {
		errno = ENOSYS;
		return (size_t)-1;
	}
	full = ord_xmalloc((size_t)vfs->mxPathname + 1);
	f = ord_xcalloc(1, (size_t)vfs->szOsFile);
	errno = 0;
	if (vfs->xFullPathname(vfs, path, vfs->mxPathname + 1, full) != SQLITE_OK ||
	    vfs->xOpen(vfs, full, f, SQLITE_OPEN_READONLY | SQLITE_OPEN_MAIN_DB, &flags) != SQLITE_OK) {
		if (!errno)
			errno = EACCES;
		got = (size_t)-1;
		goto out;
	}
	rc = f->pMethods->xRead(f, h, 100, 0);
	if (rc == SQLITE_IOERR_SHORT_READ) {
		got = 0; /* fewer than 100 bytes: not a database */
	} else if (rc != SQLITE_OK) {
		got = (size_t)-1;
		errno = EIO;
	}
	f->pMethods->xClose(f);
out:
	free(f);
	free(full);
	return got;
}

/*
 * Is path an orderly game of a schema we know?  Read from the SQLite header
 * (the first 100 bytes: application_id at 68, user_version at 60) as bytes
 * (read_header), not through a connection: a read-only SQLite connection to a WAL file
 * creates its -wal and -shm files, and a refused file must be left as it
 * was.  ord_store_open asks SQLite again once the file is open, since the
 * header of a WAL file may be older than its log: a game made while a
 * reader held its log (a server's page of the games list) keeps even its
 * schema there until a checkpoint, its header saying none (0), and is
 * asked of SQLite (check_open) when a log is there to hold it.
 */
static int incomplete(const char *path)
{
	return ord_error_set(ORD_ENOTGAME, "'%s' is an incomplete orderly game file (no schema)", path);
}

static int inspect(const char *path, int *version)
{
	unsigned char h[100];
	struct stat st, wst;
	struct ord_buf wal = ORD_BUF_INIT;
	size_t got = 0;
	int logged;

	if (stat(path, &st) < 0)
		return ord_error_set(ORD_ENOFILE, "cannot open game '%s': %s", path,
				     ord_strerror(errno));
	if (S_ISDIR(st.st_mode))
		return ord_error_set(ORD_ENOTGAME, "'%s' is a directory, not a game file", path);
	if (!S_ISREG(st.st_mode) || st.st_size == 0)
		return ord_error_set(ORD_ENOTGAME,
				     "'%s' is not an orderly game file (empty or not a regular file)",
				     path);
	if ((got = read_header(path, h)) == (size_t)-1)
		return ord_error_set(ORD_ENOFILE, "cannot read game '%s': %s", path,
				     ord_strerror(errno));
	if (got < sizeof(h) || memcmp(h, "SQLite format 3", 16))
		return ord_error_set(ORD_ENOTGAME,
				     "'%s' is not an orderly game file (not an SQLite database)",
				     path);
	if (be32(h + 68) != ORD_APPLICATION_ID)
		return ord_error_set(ORD_ENOTGAME,
				     "'%s' is not an orderly game file (an SQLite database of another program, application_id %d)",
				     path, (int)be32(h + 68));
	*version = be32(h + 60) > INT_MAX ? -1 : (int)be32(h + 60);
	if (*version > ord_store_schema_version())
		return ord_error_set(ORD_ENEWER,
				     "'%s' was written by a newer orderly (schema %d; this one knows up to %d); upgrade orderly",
				     path, *version, ord_store_schema_version());
	if (*version < 1) {
		ord_buf_addf(&wal, "%s-wal", path);
		logged = stat(wal.buf, &wst) == 0 && S_ISREG(wst.st_mode) && wst.st_size > 0;
		ord_buf_release(&wal);
		if (logged)
			return 0; /* check_open reads the schema's version */
		return incomplete(path);
	}
	return old_protocol(path, *version);
}

/* The last error of db says the file could not be opened or written here
 * (permissions, a read-only file system), not that it is damaged. */
static int cannot_write(sqlite3 *db)
{
	int rc = sqlite3_errcode(db) & 0xff;

	return rc == SQLITE_READONLY || rc == SQLITE_CANTOPEN || rc == SQLITE_PERM;
}

/* The same questions through SQLite, on the open file, and whether its
 * schema can be read at all: a damaged file is refused before any write. */
static int check_open(sqlite3 *db, const char *path, int *version)
{
	int app = 0, n = 0;

	if (query_int(db, "PRAGMA application_id", &app) != SQLITE_OK ||
	    query_int(db, "PRAGMA user_version", version) != SQLITE_OK ||
	    query_int(db, "SELECT count(*) FROM sqlite_schema", &n) != SQLITE_OK) {
		if (damaged(db))
			return ord_error_set(ORD_EBADDATA,
					     "'%s' is a damaged game file (%s); restore it from a copy",
					     path, sqlite3_errmsg(db));
		if (cannot_write(db))
			return ord_error_set(ORD_ECANTWRITE, "cannot open game '%s' for writing: %s",
					     path, sqlite3_errmsg(db));
		return ord_error_set(ORD_ERROR, "cannot read '%s': %s", path, sqlite3_errmsg(db));
	}
	if (app != ORD_APPLICATION_ID)
		return ord_error_set(ORD_ENOTGAME,
				     "'%s' is not an orderly game file (an SQLite database of another program, application_id %d)",
				     path, app);
	if (*version < 1)
		return incomplete(path);
	if (*version > ord_store_schema_version())
		return ord_error_set(ORD_ENEWER,
				     "'%s' was written by a newer orderly (schema %d; this one knows up to %d); upgrade orderly",
				     path, *version, ord_store_schema_version());
	return old_protocol(path, *version);
}

/* Append path to b as the path of an SQLite URI ("file:...", RFC 3986):
 * every byte but the unreserved ones and '/' percent-encoded. */
static void uri_path(struct ord_buf *b, const char *path)
{
	const unsigned char *p;

	for (p = (const unsigned char *)path; *p; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("/-._~", *p))
			ord_buf_addch(b, (char)*p);
		else
			ord_buf_addf(b, "%%%02X", *p);
}

/*
 * May this process change the game at path?  The file itself, and what
 * SQLite writes beside it: the -wal and -shm files, made in the file's
 * directory unless both are there already and may be written.  access(2)
 * asks as the real user (orderly is not set-uid); root may write any file
 * but one on a read-only file system.  0, or ORD_ECANTWRITE saying why.
 */
static int check_writable(const char *path)
{
	struct ord_buf wal = ORD_BUF_INIT, shm = ORD_BUF_INIT;
	char *dir = NULL;
	int err = 0;

	if (access(path, W_OK) < 0) {
		err = ord_error_set(ORD_ECANTWRITE,
				    "cannot change game '%s': the file may not be written (%s); it can be read, not played",
				    path, ord_strerror(errno));
		goto out;
	}
	ord_buf_addf(&wal, "%s-wal", path);
	ord_buf_addf(&shm, "%s-shm", path);
	if (access(wal.buf, W_OK) == 0 && access(shm.buf, W_OK) == 0)
		goto out;
	dir = dir_of(path);
	if (access(dir, W_OK | X_OK) < 0)
		err = ord_error_set(ORD_ECANTWRITE,
				    "cannot change game '%s': its directory '%s' may not be written (%s), and SQLite makes the game's -wal and -shm files there; it can be read, not played",
				    path, dir, ord_strerror(errno));
out:
	free(dir);
	ord_buf_release(&wal);
	ord_buf_release(&shm);
	return err;
}

/*
 * Open a game that may not be written, for reading only, changing nothing
 * and making no file beside it.
 *
 * A game file is in WAL mode: what was committed last may still be in its
 * -wal file, not in the file itself.  With no -wal file there is nothing
 * outside the file, and it is opened "immutable" (no locks, no -shm: the
 * only way SQLite reads a WAL file in a directory it may not write).  With
 * a -wal file, SQLite reads it with its -shm as any reader does; when it
 * cannot (no -shm, and none can be made), an empty -wal is ignored, and
 * one with content is refused: reading the file without it would show
 * the game as it was before its last changes.
 *
 * NEEDSWORK: an immutable open takes no lock, so a process that may write
 * the file and starts writing it while this one reads (the referee's, on
 * a live game a player may only read) could change a page under it.  A
 * file one may not write is usually a copy (mailed, archived), which
 * nobody writes; and while the referee's process has the game open, its
 * -wal file exists and this open uses SQLite's locks.
 */
static int open_readonly(sqlite3 **out, const char *path, int *version)
{
	struct ord_buf name = ORD_BUF_INIT;
	struct stat st;
	sqlite3 *db = NULL;
	int err = 0, immutable;
	off_t wal_size = 0;

	ord_buf_addf(&name, "%s-wal", path);
	immutable = stat(name.buf, &st) < 0;
	if (!immutable)
		wal_size = st.st_size;
again:
	ord_buf_reset(&name);
	if (immutable) {
		ord_buf_adds(&name, "file:");
		uri_path(&name, path);
		ord_buf_adds(&name, "?immutable=1");
	} else {
		ord_buf_adds(&name, path);
	}
	if (sqlite3_open_v2(name.buf, &db,
			    SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX |
				    (immutable ? SQLITE_OPEN_URI : 0),
			    NULL) != SQLITE_OK) {
		err = ord_error_set(ORD_ENOFILE, "cannot read game '%s': %s", path,
				    db ? sqlite3_errmsg(db) : "out of memory");
		goto out;
	}
	sqlite3_busy_timeout(db, ORD_STORE_BUSY_TIMEOUT_MS);
	if ((err = check_open(db, path, version)) == ORD_ECANTWRITE && !immutable) {
		if (wal_size == 0) {
			/* an empty log holds nothing: the file alone is the game */
			sqlite3_close(db);
			db = NULL;
			immutable = 1;
			goto again;
		}
		err = ord_error_set(ORD_ENOFILE,
				    "cannot read game '%s': its write-ahead log '%s-wal' holds changes not yet in the file, which SQLite cannot read without writing beside it (%s); read the game where it may be written, or copy it with its -wal file",
				    path, path, sqlite3_errmsg(db));
	}
	if (err)
		goto out;
	if (*version < ord_store_schema_version()) {
		err = ord_error_set(ORD_EVERSION,
				    "'%s' is of an older format (schema %d; this orderly's is %d), brought up to date when it is first opened with write access; it may not be written here (it is left as it was)",
				    path, *version, ord_store_schema_version());
		goto out;
	}
	if ((err = ord_store_exec(db, "PRAGMA foreign_keys = ON")) != 0 || (err = set_cache(db)) != 0)
		goto out;
	*out = db;
	db = NULL;
out:
	if (db)
		sqlite3_close(db);
	ord_buf_release(&name);
	return err;
}

int ord_store_open_ext(sqlite3 **out, const char *path, unsigned int flags)
{
	sqlite3 *db = NULL;
	int version = 0, err;

	*out = NULL;
	if ((err = inspect(path, &version)) != 0)
		return err;
	if ((err = check_writable(path)) != 0) {
		if (!(flags & ORD_OPEN_READONLY))
			return err;
		ord_error_clear();
		if ((err = open_readonly(&db, path, &version)) != 0 ||
		    (err = ord_store_check_schema(db, path)) != 0)
			goto out;
		goto done;
	}
	/* a file that may be written is opened so even to be read: SQLite's
	 * locks then keep a reader safe from another process's writes, and
	 * the last connection closed removes the -wal and -shm files */

	/* a connection is one game handle's, used by one thread at a time
	 * (orderly.h): SQLite's own locking of it is not needed (it was a
	 * twentieth of a submit) */
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		err = cannot_write(db)
			      ? ord_error_set(ORD_ECANTWRITE, "cannot open game '%s' for writing: %s",
					      path, sqlite3_errmsg(db))
			      : ord_error_set(ORD_ERROR, "cannot open '%s': %s", path,
					      db ? sqlite3_errmsg(db) : "out of memory");
		goto out;
	}
	if (sqlite3_db_readonly(db, "main") == 1) {
		err = ord_error_set(ORD_ECANTWRITE,
				    "cannot change game '%s': SQLite opened it read-only; it can be read, not played",
				    path);
		goto out;
	}
	sqlite3_busy_timeout(db, ORD_STORE_BUSY_TIMEOUT_MS);
	if ((err = check_open(db, path, &version)) != 0 || (err = set_pragmas(db)) != 0)
		goto out;
	test_pause_init(db);
	/* a schema changed by hand is refused before anything is written
	 * (an older format's, inside its migration's transaction, the
	 * journal mode set first as the migrations were written for) */
	if (version < ord_store_schema_version()) {
		if ((err = set_wal(db)) == 0)
			err = migrate(db, path, version);
	} else if ((err = ord_store_check_schema(db, path)) == 0) {
		err = set_wal(db);
	}
	if (err)
		goto out;
done:
	*out = db;
	db = NULL;
out:
	if (db)
		sqlite3_close(db);
	return err;
}

int ord_store_open(sqlite3 **out, const char *path)
{
	return ord_store_open_ext(out, path, 0);
}

void ord_store_close(sqlite3 *db)
{
	if (!db)
		return;
	ord_store_stmt_finalize_all(db);
	sqlite3_close(db);
}
