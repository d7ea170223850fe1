/*
 * bench_raw.c - the baselines: what the machine's SQLite and libsodium do
 * with the same bytes when nothing else is done.  No orderly code here.
 *
 *   bench_raw insert DB FILE REPS      durable insert of FILE's bytes as one row
 *   bench_raw receipt DB FILE REPS     the same row as a submit makes it durable
 *                                      before its receipt: committed unsynced,
 *                                      then checkpointed (the write-ahead log
 *                                      synced, copied, the file synced): the
 *                                      least a submit's storage costs
 *   bench_raw rows DB NROWS BYTES REPS durable insert of NROWS rows of BYTES each
 *   bench_raw hash FILE REPS           BLAKE2b-256 (crypto_generichash) of FILE
 *   bench_raw scan GAME REPS           read every column of every row of GAME
 *
 * The database is opened with the pragmas of a game file (store.c): WAL,
 * synchronous=FULL, foreign_keys=ON, and every write is one BEGIN
 * IMMEDIATE ... COMMIT, so a commit is one write of the WAL and one fsync,
 * as a submit is.  DB must not exist; it is removed afterwards.
 *
 * Prints key=value lines: seconds (the median of REPS), min, and bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>
#include <sqlite3.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void fail(const char *what, sqlite3 *db)
{
	fprintf(stderr, "bench_raw: %s: %s\n", what, db ? sqlite3_errmsg(db) : "error");
	exit(1);
}

static void exec(sqlite3 *db, const char *sql)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		fail(sql, db);
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *p;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		fail(path, NULL);
	p = malloc((size_t)n + 1);
	if (!p || fread(p, 1, (size_t)n, f) != (size_t)n)
		fail(path, NULL);
	fclose(f);
	*len = (size_t)n;
	return p;
}

static void report(double *t, int reps, double bytes)
{
	qsort(t, (size_t)reps, sizeof(*t), cmp_double);
	printf("seconds=%.6f\nmin=%.6f\nbytes=%.0f\nreps=%d\n", t[reps / 2], t[0], bytes, reps);
}

static sqlite3 *open_db(const char *path)
{
	sqlite3 *db;

	if (access(path, F_OK) == 0) {
		fprintf(stderr, "bench_raw: %s exists\n", path);
		exit(1);
	}
	if (sqlite3_open(path, &db) != SQLITE_OK)
		fail(path, db);
	sqlite3_busy_timeout(db, 30000);
	exec(db, "PRAGMA foreign_keys = ON");
	exec(db, "PRAGMA journal_mode = WAL");
	exec(db, "PRAGMA synchronous = FULL");
	exec(db, "CREATE TABLE t (id INTEGER PRIMARY KEY, b BLOB NOT NULL)");
	return db;
}

static void close_db(sqlite3 *db, const char *path)
{
	char p[4096];

	sqlite3_close(db);
	unlink(path);
	snprintf(p, sizeof(p), "%s-wal", path);
	unlink(p);
	snprintf(p, sizeof(p), "%s-shm", path);
	unlink(p);
}

/* as a receipt's change is stored (store.c, ord_store_begin_receipt and
 * ord_store_checkpoint), not by one synced commit */
static int receipt;

/* One durable transaction of nrows rows, each of the bytes p[0..len). */
static double insert_rows(sqlite3 *db, sqlite3_stmt *st, const unsigned char *p, size_t len, long nrows)
{
	double t0 = now();
	long i;

	if (receipt) {
		exec(db, "PRAGMA synchronous = OFF");
		sqlite3_wal_autocheckpoint(db, 0);
	}
	exec(db, "BEGIN IMMEDIATE");
	for (i = 0; i < nrows; i++) {
		sqlite3_reset(st);
		sqlite3_bind_blob(st, 1, p, (int)len, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			fail("insert", db);
	}
	exec(db, "COMMIT");
	if (receipt) {
		int log = 0, done = 0;

		exec(db, "PRAGMA synchronous = FULL");
		if (sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_FULL, &log, &done) !=
			    SQLITE_OK ||
		    done < log)
			fail("checkpoint", db);
	}
	return now() - t0;
}

static int do_insert(const char *path, unsigned char *p, size_t len, long nrows, int reps)
{
	sqlite3 *db = open_db(path);
	sqlite3_stmt *st;
	double *t = calloc((size_t)reps, sizeof(*t));
	int r;

	if (sqlite3_prepare_v2(db, "INSERT INTO t(b) VALUES (?)", -1, &st, NULL) != SQLITE_OK)
		fail("prepare", db);
	insert_rows(db, st, p, len, nrows); /* warm the file up, as a game file is */
	for (r = 0; r < reps; r++)
		t[r] = insert_rows(db, st, p, len, nrows);
	sqlite3_finalize(st);
	close_db(db, path);
	report(t, reps, (double)len * (double)nrows);
	free(t);
	return 0;
}

static int do_hash(const char *path, int reps)
{
	size_t len;
	unsigned char *p = slurp(path, &len), h[32];
	double *t = calloc((size_t)reps, sizeof(*t));
	int r;

	for (r = 0; r < reps; r++) {
		double t0 = now();
		crypto_generichash(h, sizeof(h), p, len, NULL, 0);
		t[r] = now() - t0;
	}
	report(t, reps, (double)len);
	free(p);
	free(t);
	return 0;
}

/* Every column of every row of every table: the least a reader of the
 * whole file does.  The bytes are summed so nothing is optimised away. */
static int do_scan(const char *path, int reps)
{
	sqlite3 *db;
	sqlite3_stmt *tables, *st;
	double *t = calloc((size_t)reps, sizeof(*t)), bytes = 0;
	int r;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		fail(path, db);
	for (r = 0; r < reps; r++) {
		double t0 = now();
		bytes = 0;
		exec(db, "BEGIN");
		if (sqlite3_prepare_v2(db, "SELECT name FROM sqlite_schema WHERE type = 'table'",
				       -1, &tables, NULL) != SQLITE_OK)
			fail("schema", db);
		while (sqlite3_step(tables) == SQLITE_ROW) {
			char sql[256];
			int c;
			snprintf(sql, sizeof(sql), "SELECT * FROM \"%s\"",
				 sqlite3_column_text(tables, 0));
			if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
				fail(sql, db);
			while (sqlite3_step(st) == SQLITE_ROW)
				for (c = 0; c < sqlite3_column_count(st); c++) {
					if (sqlite3_column_type(st, c) == SQLITE_TEXT)
						(void)sqlite3_column_text(st, c);
					else
						(void)sqlite3_column_blob(st, c);
					bytes += sqlite3_column_bytes(st, c);
				}
			sqlite3_finalize(st);
		}
		sqlite3_finalize(tables);
		exec(db, "COMMIT");
		t[r] = now() - t0;
	}
	sqlite3_close(db);
	report(t, reps, bytes);
	free(t);
	return 0;
}

int main(int argc, char **argv)
{
	if (sodium_init() < 0)
		fail("sodium_init", NULL);
	if (argc == 5 && (!strcmp(argv[1], "insert") || !strcmp(argv[1], "receipt"))) {
		size_t len;
		unsigned char *p = slurp(argv[3], &len);
		int rc;

		receipt = !strcmp(argv[1], "receipt");
		rc = do_insert(argv[2], p, len, 1, atoi(argv[4]) > 0 ? atoi(argv[4]) : 1);
		free(p);
		return rc;
	}
	if (argc == 6 && !strcmp(argv[1], "rows")) {
		long n = atol(argv[3]), b = atol(argv[4]);
		unsigned char *p = malloc(b > 0 ? (size_t)b : 1);
		int rc;
		memset(p, 'x', b > 0 ? (size_t)b : 1);
		rc = do_insert(argv[2], p, b > 0 ? (size_t)b : 1, n > 0 ? n : 1,
			       atoi(argv[5]) > 0 ? atoi(argv[5]) : 1);
		free(p);
		return rc;
	}
	if (argc == 4 && !strcmp(argv[1], "hash"))
		return do_hash(argv[2], atoi(argv[3]) > 0 ? atoi(argv[3]) : 1);
	if (argc == 4 && !strcmp(argv[1], "scan"))
		return do_scan(argv[2], atoi(argv[3]) > 0 ? atoi(argv[3]) : 1);
	fprintf(stderr,
		"usage: bench_raw insert|receipt DB FILE REPS | rows DB NROWS BYTES REPS | hash FILE REPS | scan GAME REPS\n");
	return 64;
}
