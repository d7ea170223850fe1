/*
 * log.c - the hash-chained log's rows and its head (store.h).  The hashes
 * are the core's (core/crypto.c): the store only keeps them.
 */
#include <string.h>

#include "store/stmt.h"
#include "store/store.h"

static const char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? (const char *)s : "";
}

int ord_store_log_head(sqlite3 *db, int64_t *seq, unsigned char hash[32])
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	*seq = 0;
	memset(hash, 0, 32);
	if ((err = ord_store_stmt(db, &st, "SELECT seq, hash FROM log_head")) != 0)
		return err;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*seq = sqlite3_column_int64(st, 0);
		if (*seq > 0) {
			if (sqlite3_column_bytes(st, 1) != 32)
				err = ord_error_set(ORD_ETAMPERED, "the log head is damaged");
			else
				memcpy(hash, sqlite3_column_blob(st, 1), 32);
		}
	} else if (rc != SQLITE_DONE) {
		err = ord_store_error(db, "reading the log head");
	}
	ord_store_stmt_done(st);
	return err;
}

int ord_store_log_hash(sqlite3 *db, int64_t seq, unsigned char hash[32])
{
	return ord_store_log_entry(db, seq, hash, NULL);
}

int ord_store_log_entry(sqlite3 *db, int64_t seq, unsigned char hash[32], int64_t *at)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	if ((err = ord_store_stmt(db, &st, "SELECT hash, at FROM log WHERE seq = ?")) != 0)
		return err;
	sqlite3_bind_int64(st, 1, seq);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_bytes(st, 0) == 32) {
		memcpy(hash, sqlite3_column_blob(st, 0), 32);
		if (at)
			*at = sqlite3_column_int64(st, 1);
	} else if (rc == SQLITE_ROW || rc == SQLITE_DONE)
		err = ord_error_set(ORD_ETAMPERED, "log entry %lld is missing or damaged",
				    (long long)seq);
	else
		err = ord_store_error(db, "reading the log");
	ord_store_stmt_done(st);
	return err;
}

int ord_store_log_append(sqlite3 *db, int64_t seq, int turn, const char *kind, const char *body,
			 int64_t at, const unsigned char prev[32], const unsigned char hash[32])
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_stmt(db, &st,
				  "INSERT INTO log(seq, turn, kind, body, at, prev, hash) VALUES (?,?,?,?,?,?,?)")) !=
	    0)
		return err;
	sqlite3_bind_int64(st, 1, seq);
	sqlite3_bind_int(st, 2, turn);
	sqlite3_bind_text(st, 3, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, body, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, at);
	sqlite3_bind_blob(st, 6, prev, 32, SQLITE_STATIC);
	sqlite3_bind_blob(st, 7, hash, 32, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		err = ord_store_error(db, "writing the log");
	ord_store_stmt_done(st);
	if (err)
		return err;
	if ((err = ord_store_stmt(db, &st,
				  "INSERT INTO log_head(id, seq, hash) VALUES (1, ?, ?) "
				  "ON CONFLICT(id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash")) !=
	    0)
		return err;
	sqlite3_bind_int64(st, 1, seq);
	sqlite3_bind_blob(st, 2, hash, 32, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		err = ord_store_error(db, "writing the log head");
	ord_store_stmt_done(st);
	return err;
}

int ord_store_log_count(sqlite3 *db, int turn, const char *kind, int *out)
{
	sqlite3_stmt *st = NULL;
	int err;

	*out = 0;
	if ((err = ord_store_stmt(db, &st, "SELECT count(*) FROM log WHERE turn = ? AND kind = ?")) != 0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		*out = sqlite3_column_int(st, 0);
	else
		err = ord_store_error(db, "reading the log");
	ord_store_stmt_done(st);
	return err;
}

int ord_store_log_last(sqlite3 *db, int turn, const char *kind, char **body, int64_t *seq)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	*body = NULL;
	/* the latest one is near the end of the log: walk back from the head */
	if ((err = ord_store_stmt(db, &st,
				  turn < 0 ? "SELECT body, seq FROM log WHERE kind = ?2 AND ?1 < 0 ORDER BY seq DESC LIMIT 1"
					   : "SELECT body, seq FROM log WHERE turn = ?1 AND kind = ?2 ORDER BY seq DESC LIMIT 1")) !=
	    0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*body = ord_strdup(col_text(st, 0));
		if (seq)
			*seq = sqlite3_column_int64(st, 1);
	} else if (rc == SQLITE_DONE) {
		err = ord_error_set(ORD_ENOTFOUND, "the log has no '%s' entry", kind);
	} else {
		err = ord_store_error(db, "reading the log");
	}
	ord_store_stmt_done(st);
	return err;
}

int ord_store_log_each(sqlite3 *db, int64_t first, int64_t last, ord_store_entry_fn fn, void *ud)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	if ((err = ord_store_stmt(db, &st,
				  "SELECT seq, turn, kind, body, at, prev, hash FROM log WHERE seq BETWEEN ? AND ? "
				  "ORDER BY seq")) != 0)
		return err;
	sqlite3_bind_int64(st, 1, first);
	sqlite3_bind_int64(st, 2, last);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ord_rec_entry e;
		unsigned char prev[32];

		memset(&e, 0, sizeof(e));
		memset(prev, 0, sizeof(prev));
		e.seq = sqlite3_column_int64(st, 0);
		e.turn = sqlite3_column_int(st, 1);
		e.kind = (char *)col_text(st, 2);
		e.body = (char *)col_text(st, 3);
		e.at = sqlite3_column_int64(st, 4);
		/* damaged hashes read as zeros: the chain check then fails on them */
		if (sqlite3_column_bytes(st, 5) == 32)
			memcpy(prev, sqlite3_column_blob(st, 5), 32);
		if (sqlite3_column_bytes(st, 6) == 32)
			memcpy(e.hash, sqlite3_column_blob(st, 6), 32);
		if ((err = fn(ud, &e, prev)) != 0)
			break;
	}
	if (!err && rc != SQLITE_DONE)
		err = ord_store_error(db, "reading the log");
	ord_store_stmt_done(st);
	return err;
}

int ord_store_log_seq_of(sqlite3 *db, const char *kind, const unsigned char hash[32], int64_t *seq)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	*seq = 0;
	/* the index of kinds: a turn logs a close per phase, a link per side */
	if ((err = ord_store_stmt(db, &st,
				  "SELECT seq FROM log WHERE kind = ? AND hash = ? ORDER BY seq LIMIT 1")) !=
	    0)
		return err;
	sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
	sqlite3_bind_blob(st, 2, hash, 32, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*seq = sqlite3_column_int64(st, 0);
	else if (rc == SQLITE_DONE)
		err = ORD_ENOTFOUND;
	else
		err = ord_store_error(db, "reading the log");
	ord_store_stmt_done(st);
	return err;
}
