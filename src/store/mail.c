/*
 * mail.c - the SQL of the mail judge's tables (schema/sql/008_mail.sql, the
 * outbox as 019_mail_outbox_bytes_last.sql keeps it, the inbox as
 * 021_mail_inbox_raw.sql does): parties and their proofs, the judge's
 * configuration and schedule, the inbox, the outbox and the reply counts.  Callers (core/game_mail.c) own
 * the transactions and the log; nothing here begins or commits.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/store.h"

/* A piece of a mail copied into or out of the outbox. */
#define MAIL_PIECE ((size_t)64 * 1024)
/* The longest line RFC 5322 lets a mail hold, but for its CRLF. */
#define MAIL_LINE_MAX 998

static const char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? (const char *)s : "";
}

static int step_done(sqlite3 *db, sqlite3_stmt *st, const char *what)
{
	int err = 0;

	if (sqlite3_step(st) != SQLITE_DONE)
		err = ord_store_error(db, what);
	sqlite3_finalize(st);
	return err;
}

int ord_store_mail_party_get(sqlite3 *db, const char *party, struct ord_store_party *out)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	memset(out, 0, sizeof(*out));
	ord_buf_init(&out->pgp_key);
	if ((err = ord_store_prepare(db, &st,
				     "SELECT coalesce(address, ''), coalesce(pass_hash, ''), coalesce(pgp_fpr, ''), "
				     "pgp_key, address_salt, pgp_last FROM mail_party WHERE party = ?")) !=
	    0)
		return err;
	sqlite3_bind_text(st, 1, party, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		snprintf(out->address, sizeof(out->address), "%s", col_text(st, 0));
		snprintf(out->pass_hash, sizeof(out->pass_hash), "%s", col_text(st, 1));
		snprintf(out->pgp_fpr, sizeof(out->pgp_fpr), "%s", col_text(st, 2));
		if (sqlite3_column_type(st, 3) == SQLITE_BLOB)
			ord_buf_add(&out->pgp_key, sqlite3_column_blob(st, 3),
				    (size_t)sqlite3_column_bytes(st, 3));
		if (sqlite3_column_type(st, 4) == SQLITE_BLOB && sqlite3_column_bytes(st, 4) == 32) {
			memcpy(out->address_salt, sqlite3_column_blob(st, 4), 32);
			out->has_address_salt = 1;
		}
		out->pgp_last = sqlite3_column_int64(st, 5);
		out->found = 1;
	} else if (rc != SQLITE_DONE) {
		err = ord_store_error(db, "reading mail registrations");
	}
	sqlite3_finalize(st);
	return err;
}

int ord_store_mail_party_set(sqlite3 *db, const char *party, const char *column, const void *value,
			     size_t len, int64_t log_seq)
{
	sqlite3_stmt *st = NULL;
	char sql[200];
	int err;

	if (strcmp(column, "address") && strcmp(column, "pass_hash") && strcmp(column, "pgp_key") &&
	    strcmp(column, "pgp_fpr") && strcmp(column, "address_salt"))
		return ord_error_set(ORD_ERROR, "mail_party has no column '%s'", column);
	snprintf(sql, sizeof(sql),
		 "INSERT INTO mail_party(party, %s, log_seq) VALUES (?1, ?2, ?3) "
		 "ON CONFLICT(party) DO UPDATE SET %s = ?2, log_seq = ?3",
		 column, column);
	if ((err = ord_store_prepare(db, &st, sql)) != 0)
		return err;
	sqlite3_bind_text(st, 1, party, -1, SQLITE_STATIC);
	if (!value)
		sqlite3_bind_null(st, 2);
	else if (!strcmp(column, "pgp_key") || !strcmp(column, "address_salt"))
		sqlite3_bind_blob(st, 2, value, (int)len, SQLITE_STATIC);
	else
		sqlite3_bind_text(st, 2, value, (int)len, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, log_seq);
	return step_done(db, st, "storing a mail registration");
}

int ord_store_mail_pgp_last_set(sqlite3 *db, const char *party, int64_t when)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_prepare(db, &st,
				     "UPDATE mail_party SET pgp_last = max(pgp_last, ?2) WHERE party = ?1")) !=
	    0)
		return err;
	sqlite3_bind_text(st, 1, party, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, when);
	return step_done(db, st, "storing when a signature was made");
}

/* Which party has this address: "" for the referee; ORD_ENOTFOUND. */
int ord_store_mail_party_by_address(sqlite3 *db, const char *address, char *party, size_t n, int *count)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	*count = 0;
	if ((err = ord_store_prepare(db, &st,
				     "SELECT party FROM mail_party WHERE address = lower(?) ORDER BY party")) !=
	    0)
		return err;
	sqlite3_bind_text(st, 1, address, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!(*count)++)
			snprintf(party, n, "%s", col_text(st, 0));
	}
	if (rc != SQLITE_DONE)
		err = ord_store_error(db, "reading mail registrations");
	sqlite3_finalize(st);
	return err;
}

int ord_store_mail_config_get(sqlite3 *db, struct ord_buf *judge, int *per_hour, struct ord_buf *schedule)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_prepare(db, &st,
				     "SELECT judge, per_hour, schedule FROM mail_config WHERE id = 1")) !=
	    0)
		return err;
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return ord_store_error(db, "reading the mail configuration");
	}
	if (judge)
		ord_buf_adds(judge, col_text(st, 0));
	if (per_hour)
		*per_hour = sqlite3_column_int(st, 1);
	if (schedule)
		ord_buf_adds(schedule, col_text(st, 2));
	sqlite3_finalize(st);
	return 0;
}

int ord_store_mail_config_set(sqlite3 *db, const char *judge, int per_hour, const char *schedule)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_prepare(db, &st,
				     "UPDATE mail_config SET judge = coalesce(?1, judge), "
				     "per_hour = CASE WHEN ?2 > 0 THEN ?2 ELSE per_hour END, "
				     "schedule = coalesce(?3, schedule) WHERE id = 1")) != 0)
		return err;
	if (judge)
		sqlite3_bind_text(st, 1, judge, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, per_hour);
	if (schedule)
		sqlite3_bind_text(st, 3, schedule, -1, SQLITE_STATIC);
	return step_done(db, st, "storing the mail configuration");
}

int ord_store_mail_inbox_step(sqlite3 *db, int64_t id, int step)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_prepare(db, &st,
				     "UPDATE mail_inbox SET result = 'step=' || ? WHERE id = ? AND state = 'new'")) !=
	    0)
		return err;
	sqlite3_bind_int(st, 1, step);
	sqlite3_bind_int64(st, 2, id);
	return step_done(db, st, "noting a step of the message");
}

int ord_store_mail_inbox_add(sqlite3 *db, int64_t *id, char state[8], int *step, const char *message_id,
			     const char *sender, const void *raw, size_t len, int64_t now)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	if ((err = ord_store_prepare(db, &st,
				     "SELECT id, state, result FROM mail_inbox WHERE message_id = ?")) !=
	    0)
		return err;
	*step = 0;
	sqlite3_bind_text(st, 1, message_id, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		snprintf(state, 8, "%s", col_text(st, 1));
		if (!strncmp(col_text(st, 2), "step=", 5))
			*step = atoi(col_text(st, 2) + 5);
		sqlite3_finalize(st);
		return 0;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return ord_store_error(db, "reading the inbox");
	/* the inbox's row, which its answer changes, and the bytes in a row
	 * of their own, written once (021_mail_inbox_raw.sql) */
	if ((err = ord_store_prepare(db, &st,
				     "INSERT INTO mail_inbox(message_id, sender, received) VALUES (?,?,?)")) !=
	    0)
		return err;
	sqlite3_bind_text(st, 1, message_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, sender, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, now);
	if ((err = step_done(db, st, "storing the message")) != 0)
		return err;
	*id = sqlite3_last_insert_rowid(db);
	if ((err = ord_store_prepare(db, &st, "INSERT INTO mail_inbox_raw(id, raw) VALUES (?,?)")) != 0)
		return err;
	sqlite3_bind_int64(st, 1, *id);
	sqlite3_bind_blob(st, 2, len ? raw : "", (int)len, SQLITE_STATIC);
	if ((err = step_done(db, st, "storing the message")) != 0)
		return err;
	snprintf(state, 8, "new");
	return 0;
}

int ord_store_mail_inbox_done(sqlite3 *db, int64_t id, const char *result, int64_t now)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_prepare(db, &st,
				     "UPDATE mail_inbox SET state = 'done', result = ?, done = ? WHERE id = ?")) !=
	    0)
		return err;
	sqlite3_bind_text(st, 1, result, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, now);
	sqlite3_bind_int64(st, 3, id);
	return step_done(db, st, "marking the message processed");
}

int ord_store_mail_inbox_said(sqlite3 *db, const char *text, int64_t before, int64_t *id)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	*id = 0;
	if ((err = ord_store_prepare(db, &st,
				     "SELECT id FROM mail_inbox WHERE id < ?2 AND instr(result, ?1) > 0 "
				     "ORDER BY id LIMIT 1")) != 0)
		return err;
	sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, before);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	else if (rc != SQLITE_DONE)
		err = ord_store_error(db, "reading the inbox");
	sqlite3_finalize(st);
	return err;
}

/* Row id's bytes of table (mail_outbox, or 019's mail_outbox_old) given
 * to fn a piece at a time with their offset, as ord_fd_pieces gives a
 * file's: a mail is never whole in memory (a turn report's is 25 MB, a
 * bundle's hundreds at 100,000 units).  fn returns 0 to go on; anything
 * else stops it and is returned (an error, or the caller's own stop);
 * what names an error. */
static int blob_pieces(sqlite3 *db, const char *table, int64_t id, const char *what,
		       int (*fn)(void *ud, const char *piece, size_t n, size_t off), void *ud)
{
	sqlite3_blob *blob = NULL;
	char *buf;
	int len, off, n, err = 0;

	if (sqlite3_blob_open(db, "main", table, "bytes", id, 0, &blob) != SQLITE_OK)
		return ord_store_error(db, what);
	len = sqlite3_blob_bytes(blob);
	buf = ord_xmalloc(MAIL_PIECE);
	for (off = 0; off < len && !err; off += n) {
		n = len - off < (int)MAIL_PIECE ? len - off : (int)MAIL_PIECE;
		if (sqlite3_blob_read(blob, buf, n, off) != SQLITE_OK)
			err = ord_store_error(db, what);
		else
			err = fn(ud, buf, (size_t)n, (size_t)off);
	}
	free(buf);
	sqlite3_blob_close(blob);
	return err;
}

/* A search of a mail's pieces for s (n bytes, n > 0): each piece after
 * the last n - 1 bytes of the one before, where instr() held the whole
 * mail; found, it stops the read (HOLDS_FOUND, no error code). */
#define HOLDS_FOUND 1
struct holds {
	const char *s;
	size_t n, keep;
	char *buf; /* the n - 1 bytes kept, then the piece */
	int found;
	size_t at; /* found: where s begins in the mail */
};

static int holds_piece(void *ud, const char *piece, size_t k, size_t off)
{
	struct holds *h = ud;
	size_t have = h->keep + k;
	char *p = h->buf, *end = h->buf + have;

	memcpy(h->buf + h->keep, piece, k);
	for (; (size_t)(end - p) >= h->n && (p = memchr(p, h->s[0], (size_t)(end - p))) &&
	       (size_t)(end - p) >= h->n;
	     p++)
		if (!memcmp(p, h->s, h->n)) {
			h->found = 1;
			h->at = off - h->keep + (size_t)(p - h->buf);
			return HOLDS_FOUND;
		}
	h->keep = have < h->n - 1 ? have : h->n - 1;
	memmove(h->buf, end - h->keep, h->keep);
	return 0;
}

/* *found 1 when mail id's bytes hold s (n bytes, n > 0), *at where it
 * first begins (at may be NULL) */
static int blob_holds(sqlite3 *db, int64_t id, const char *s, size_t n, int *found, size_t *at)
{
	struct holds h = { s, n, 0, ord_xmalloc(MAIL_PIECE + n), 0, 0 };
	int err = blob_pieces(db, "mail_outbox", id, "reading the outbox", holds_piece, &h);

	free(h.buf);
	*found = h.found;
	if (at)
		*at = h.at;
	return err == HOLDS_FOUND ? 0 : err;
}

int ord_store_mail_queued(sqlite3 *db, const char *key, const char *naming, int *found)
{
	sqlite3_stmt *st = NULL;
	int64_t id = 0;
	int err, rc, queued = 0;

	*found = 0;
	if ((err = ord_store_prepare(db, &st, "SELECT id FROM mail_outbox WHERE key = ?")) != 0)
		return err;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		id = sqlite3_column_int64(st, 0);
		queued = 1;
	} else if (rc != SQLITE_DONE) {
		err = ord_store_error(db, "reading the outbox");
	}
	sqlite3_finalize(st);
	if (err || !queued)
		return err;
	/* the composed mail as sent, its bytes compared */
	if (!naming || !*naming) {
		*found = 1;
		return 0;
	}
	return blob_holds(db, id, naming, strlen(naming), found, NULL);
}

int ord_store_mail_files_get(sqlite3 *db, struct ord_buf *out, int *kept)
{
	sqlite3_stmt *st = NULL;
	int err;

	*kept = 0;
	if ((err = ord_store_prepare(db, &st, "SELECT files FROM mail_config WHERE id = 1")) != 0)
		return err;
	if (sqlite3_step(st) == SQLITE_ROW) {
		if (sqlite3_column_type(st, 0) != SQLITE_NULL) {
			*kept = 1;
			ord_buf_adds(out, col_text(st, 0));
		}
	} else {
		err = ord_store_error(db, "reading the mail configuration");
	}
	sqlite3_finalize(st);
	return err;
}

int ord_store_mail_files_set(sqlite3 *db, const char *files)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_prepare(db, &st,
				     "UPDATE mail_config SET files = ? WHERE id = 1 AND files IS NULL")) !=
	    0)
		return err;
	sqlite3_bind_text(st, 1, files, -1, SQLITE_STATIC);
	return step_done(db, st, "storing the mail configuration");
}

int ord_store_mail_first_naming(sqlite3 *db, const char *naming, struct ord_buf *bytes, int *found)
{
	sqlite3_stmt *st = NULL;
	sqlite3_blob *blob = NULL;
	size_t at = 0, n = strlen(naming);
	int err, rc = SQLITE_DONE, len, k;

	*found = 0;
	if (!n)
		return 0;
	/* each mail read a piece at a time, in the order queued, until one
	 * holds it: instr() held each whole (a bundle's, hundreds of MB) */
	if ((err = ord_store_prepare(db, &st, "SELECT id FROM mail_outbox ORDER BY id")) != 0)
		return err;
	while (!*found && (rc = sqlite3_step(st)) == SQLITE_ROW)
		if ((err = blob_holds(db, sqlite3_column_int64(st, 0), naming, n, found, &at)) != 0)
			break;
	if (!err && !*found && rc != SQLITE_DONE)
		err = ord_store_error(db, "reading the outbox");
	if (!err && *found) {
		/* naming and what follows it, as far as a header's line goes */
		if (sqlite3_blob_open(db, "main", "mail_outbox", "bytes",
				      sqlite3_column_int64(st, 0), 0, &blob) != SQLITE_OK) {
			err = ord_store_error(db, "reading the outbox");
		} else {
			len = sqlite3_blob_bytes(blob);
			k = len - (int)at < (int)(n + MAIL_LINE_MAX) ? len - (int)at
								     : (int)(n + MAIL_LINE_MAX);
			ord_buf_grow(bytes, (size_t)k);
			if (sqlite3_blob_read(blob, bytes->buf + bytes->len, k, (int)at) != SQLITE_OK) {
				err = ord_store_error(db, "reading the outbox");
			} else {
				bytes->len += (size_t)k;
				bytes->buf[bytes->len] = '\0';
			}
		}
		sqlite3_blob_close(blob);
	}
	sqlite3_finalize(st);
	return err;
}

/* The outbox's row of a mail, its id in *id: its bytes, or (bytes NULL)
 * zeros as many as len, written after; and its row of mail_sent, unsent.
 * The bytes are the record's last column (019_mail_outbox_bytes_last.sql),
 * so SQLite writes a zeroblob's pages as zeros, never the whole blob in
 * memory. */
static int queue_row(sqlite3 *db, int64_t *id, const char *key, const char *message_id,
		     const char *rcpt, const void *bytes, size_t len, int64_t now)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_prepare(db, &st,
				     bytes ? "INSERT INTO mail_outbox(key, message_id, rcpt, queued, bytes) VALUES (?,?,?,?,?)"
					   : "INSERT INTO mail_outbox(key, message_id, rcpt, queued, bytes) VALUES (?,?,?,?,zeroblob(?))")) !=
	    0)
		return err;
	if (key)
		sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 1);
	sqlite3_bind_text(st, 2, message_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, rcpt, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, now);
	if (bytes)
		sqlite3_bind_blob(st, 5, bytes, (int)len, SQLITE_STATIC);
	else
		sqlite3_bind_int64(st, 5, (int64_t)len);
	if ((err = step_done(db, st, "queueing a mail")) != 0)
		return err;
	*id = sqlite3_last_insert_rowid(db);
	if ((err = ord_store_prepare(db, &st, "INSERT INTO mail_sent(id) VALUES (?)")) != 0)
		return err;
	sqlite3_bind_int64(st, 1, *id);
	return step_done(db, st, "queueing a mail");
}

int ord_store_mail_queue(sqlite3 *db, const char *key, const char *message_id, const char *rcpt,
			 const void *bytes, size_t len, int64_t now)
{
	int64_t id;

	return queue_row(db, &id, key, message_id, rcpt, bytes ? bytes : "", len, now);
}

struct blob_in {
	sqlite3 *db;
	sqlite3_blob *blob;
	const char *what; /* doing what, for an error */
};

static int blob_piece(void *ud, const char *piece, size_t n, size_t off)
{
	struct blob_in *b = ud;

	if (sqlite3_blob_write(b->blob, piece, (int)n, (int)off) != SQLITE_OK)
		return ord_store_error(b->db, b->what);
	return 0;
}

int ord_store_mail_queue_fd(sqlite3 *db, const char *key, const char *message_id, const char *rcpt,
			    int fd, size_t len, int64_t now)
{
	struct blob_in b = { db, NULL, "queueing a mail" };
	int64_t id;
	int err;

	if (len > (size_t)sqlite3_limit(db, SQLITE_LIMIT_LENGTH, -1))
		return ord_error_set(ORD_ELIMIT,
				     "a mail of %zu bytes is more than the outbox holds (%d)", len,
				     sqlite3_limit(db, SQLITE_LIMIT_LENGTH, -1));
	/* the row with room for the bytes, which are then copied in */
	if ((err = queue_row(db, &id, key, message_id, rcpt, NULL, len, now)) != 0)
		return err;
	if (sqlite3_blob_open(db, "main", "mail_outbox", "bytes", id, 1, &b.blob) != SQLITE_OK)
		err = ord_store_error(db, "queueing a mail");
	else
		err = ord_fd_pieces(fd, len, "queueing a mail", blob_piece, &b);
	sqlite3_blob_close(b.blob);
	return err;
}

/* Table from's column bytes of row id copied into table to's (of the same
 * length) a piece at a time; what (doing what) names an error. */
static int blob_copy(sqlite3 *db, const char *from, const char *to, int64_t id, const char *what)
{
	struct blob_in out = { db, NULL, what };
	sqlite3_blob *in = NULL;
	int len = -1, err;

	if (sqlite3_blob_open(db, "main", from, "bytes", id, 0, &in) == SQLITE_OK)
		len = sqlite3_blob_bytes(in);
	sqlite3_blob_close(in);
	if (len < 0 || sqlite3_blob_open(db, "main", to, "bytes", id, 1, &out.blob) != SQLITE_OK)
		return ord_store_error(db, what);
	if (len != sqlite3_blob_bytes(out.blob))
		err = ord_error_set(ORD_ERROR, "%s: mail %lld has %d bytes, its copy %d", what,
				    (long long)id, len, sqlite3_blob_bytes(out.blob));
	else
		err = blob_pieces(db, from, id, what, blob_piece, &out);
	sqlite3_blob_close(out.blob);
	return err;
}

int ord_store_mail_outbox_migrate(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	if ((err = ord_store_prepare(db, &st,
				     "SELECT id, typeof(bytes) FROM mail_outbox_old WHERE length(bytes) > 0 ORDER BY id")) !=
	    0)
		return err;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *type = col_text(st, 1);
		/* orderly queued a blob, the sqlite3 shell a text (019 counts
		 * its bytes); a number is no mail: the blob I/O cannot read it */
		if (strcmp(type, "blob") && strcmp(type, "text")) {
			err = ord_error_set(ORD_EBADDATA,
					    "'%s': moving the outbox's mails to their new table: mail %lld holds %s %s where its bytes belong (expected the message, a blob or text): the outbox was changed outside orderly; nothing was migrated",
					    sqlite3_db_filename(db, "main"),
					    (long long)sqlite3_column_int64(st, 0),
					    type[0] == 'i' ? "an" : "a", type);
			break;
		}
		if ((err = blob_copy(db, "mail_outbox_old", "mail_outbox", sqlite3_column_int64(st, 0),
				     "moving the outbox's mails to their new table")) != 0)
			break;
	}
	if (!err && rc != SQLITE_DONE)
		err = ord_store_error(db, "reading the outbox");
	sqlite3_finalize(st);
	return err;
}

int ord_store_mail_outbox_next(sqlite3 *db, int64_t after, int64_t *id, char *message_id, size_t mn,
			       char *rcpt, size_t rn, struct ord_buf *bytes, size_t *len)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	/* length() of a blob is read from its row's header, not its pages */
	if ((err = ord_store_prepare(db, &st,
				     bytes ? "SELECT o.id, o.message_id, o.rcpt, o.bytes FROM mail_sent s "
					     "JOIN mail_outbox o ON o.id = s.id WHERE s.sent IS NULL AND s.id > ? "
					     "ORDER BY s.id LIMIT 1"
					   : "SELECT o.id, o.message_id, o.rcpt, length(o.bytes) FROM mail_sent s "
					     "JOIN mail_outbox o ON o.id = s.id WHERE s.sent IS NULL AND s.id > ? "
					     "ORDER BY s.id LIMIT 1")) != 0)
		return err;
	sqlite3_bind_int64(st, 1, after);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		snprintf(message_id, mn, "%s", col_text(st, 1));
		snprintf(rcpt, rn, "%s", col_text(st, 2));
		if (bytes)
			ord_buf_add(bytes, sqlite3_column_blob(st, 3),
				    (size_t)sqlite3_column_bytes(st, 3));
		if (len)
			*len = bytes ? (size_t)sqlite3_column_bytes(st, 3)
				     : (size_t)sqlite3_column_int64(st, 3);
	} else if (rc == SQLITE_DONE) {
		err = ORD_ENOTFOUND;
	} else {
		err = ord_store_error(db, "reading the outbox");
	}
	sqlite3_finalize(st);
	return err;
}

struct outbox_put {
	int (*put)(void *ud, const void *bytes, size_t n);
	void *ud;
};

static int outbox_piece(void *ud, const char *piece, size_t n, size_t off)
{
	struct outbox_put *o = ud;

	(void)off;
	return o->put(o->ud, piece, n);
}

int ord_store_mail_outbox_read(sqlite3 *db, int64_t id,
			       int (*put)(void *ud, const void *bytes, size_t n), void *ud)
{
	struct outbox_put o = { put, ud };

	return blob_pieces(db, "mail_outbox", id, "reading the outbox", outbox_piece, &o);
}

int ord_store_mail_outbox_sent(sqlite3 *db, int64_t id, int64_t now)
{
	sqlite3_stmt *st = NULL;
	int err;

	/* a row of its own: the mail's row, and its bytes, are not written */
	if ((err = ord_store_prepare(db, &st, "UPDATE mail_sent SET sent = ? WHERE id = ?")) != 0)
		return err;
	sqlite3_bind_int64(st, 1, now);
	sqlite3_bind_int64(st, 2, id);
	return step_done(db, st, "marking a mail sent");
}

int ord_store_mail_rate(sqlite3 *db, const char *address, int per_hour, int64_t now, int *ok)
{
	sqlite3_stmt *st = NULL;
	int err, n = 0;

	*ok = 0;
	if ((err = ord_store_prepare(db, &st, "DELETE FROM mail_rate WHERE at <= ?")) != 0)
		return err;
	sqlite3_bind_int64(st, 1, now - 3600);
	if ((err = step_done(db, st, "counting replies")) != 0)
		return err;
	if ((err = ord_store_prepare(db, &st,
				     "SELECT count(*) FROM mail_rate WHERE address = lower(?)")) != 0)
		return err;
	sqlite3_bind_text(st, 1, address, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (n >= per_hour)
		return 0;
	if ((err = ord_store_prepare(db, &st,
				     "INSERT INTO mail_rate(address, at) VALUES (lower(?), ?)")) != 0)
		return err;
	sqlite3_bind_text(st, 1, address, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, now);
	if ((err = step_done(db, st, "counting replies")) != 0)
		return err;
	*ok = 1;
	return 0;
}

int ord_store_mail_inbox_raw(sqlite3 *db, int64_t id, const void *raw, size_t len)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_prepare(db, &st, "UPDATE mail_inbox_raw SET raw = ? WHERE id = ?")) != 0)
		return err;
	sqlite3_bind_blob(st, 1, len ? raw : "", (int)len, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, id);
	return step_done(db, st, "cutting the stored message");
}

int ord_store_mail_pass_count(sqlite3 *db, const char *party, int64_t now, int64_t window,
			      int64_t stale, int64_t inbox_id, int *wrong, int *running, int64_t *last)
{
	sqlite3_stmt *st = NULL;
	int err;

	*wrong = *running = 0;
	*last = 0;
	if ((err = ord_store_prepare(db, &st, "DELETE FROM mail_pass_fail WHERE at <= ?")) != 0)
		return err;
	sqlite3_bind_int64(st, 1, now - window);
	if ((err = step_done(db, st, "counting passphrase checks")) != 0)
		return err;
	if ((err = ord_store_prepare(db, &st,
				     "SELECT count(*) FILTER (WHERE NOT pending OR at <= ?2), "
				     "count(*) FILTER (WHERE pending AND at > ?2 AND inbox_id <> ?3), "
				     "coalesce(max(at), 0) FROM mail_pass_fail WHERE party = ?1")) != 0)
		return err;
	sqlite3_bind_text(st, 1, party, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, now - stale);
	sqlite3_bind_int64(st, 3, inbox_id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		*wrong = sqlite3_column_int(st, 0);
		*running = sqlite3_column_int(st, 1);
		*last = sqlite3_column_int64(st, 2);
	} else {
		err = ord_store_error(db, "counting passphrase checks");
	}
	sqlite3_finalize(st);
	return err;
}

int ord_store_mail_pass_add(sqlite3 *db, const char *party, int64_t now, int64_t inbox_id,
			    const char *sender)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_prepare(db, &st,
				     "INSERT INTO mail_pass_fail(party, at, inbox_id, sender, pending) "
				     "SELECT ?1, ?2, ?3, ?4, 1 WHERE NOT EXISTS (SELECT 1 FROM mail_pass_fail "
				     "WHERE party = ?1 AND inbox_id = ?3)")) != 0)
		return err;
	sqlite3_bind_text(st, 1, party, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, now);
	sqlite3_bind_int64(st, 3, inbox_id);
	sqlite3_bind_text(st, 4, sender, -1, SQLITE_STATIC);
	return step_done(db, st, "counting a passphrase check");
}

/* sql (bound with party and inbox_id) run on the check of one mail */
static int pass_row(sqlite3 *db, const char *sql, const char *party, int64_t inbox_id, const char *what)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_prepare(db, &st, sql)) != 0)
		return err;
	sqlite3_bind_text(st, 1, party, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, inbox_id);
	return step_done(db, st, what);
}

int ord_store_mail_pass_wrong(sqlite3 *db, const char *party, int64_t inbox_id)
{
	return pass_row(db, "UPDATE mail_pass_fail SET pending = 0 WHERE party = ? AND inbox_id = ?",
			party, inbox_id, "counting a wrong passphrase");
}

int ord_store_mail_pass_forget(sqlite3 *db, const char *party, int64_t inbox_id)
{
	return pass_row(db, "DELETE FROM mail_pass_fail WHERE party = ? AND inbox_id = ?", party,
			inbox_id, "forgetting a passphrase check");
}

int ord_store_mail_pass_clear(sqlite3 *db, const char *party)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_prepare(db, &st, "DELETE FROM mail_pass_fail WHERE party = ?")) != 0)
		return err;
	sqlite3_bind_text(st, 1, party, -1, SQLITE_STATIC);
	return step_done(db, st, "forgetting passphrase checks");
}

int ord_store_mail_pass_list(sqlite3 *db, const char *party, int64_t since, struct ord_buf *out)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	if ((err = ord_store_prepare(db, &st,
				     "SELECT inbox_id, strftime('%Y-%m-%dT%H:%M:%SZ', at, 'unixepoch'), sender "
				     "FROM mail_pass_fail WHERE party = ? "
				     "AND at > ? ORDER BY at, inbox_id")) != 0)
		return err;
	sqlite3_bind_text(st, 1, party, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, since);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		ord_buf_addf(out, "mail %lld at %s: %s\n", (long long)sqlite3_column_int64(st, 0),
			     col_text(st, 1), col_text(st, 2));
	if (rc != SQLITE_DONE)
		err = ord_store_error(db, "reading passphrase checks");
	sqlite3_finalize(st);
	return err;
}

int ord_store_mail_pass_tries_get(sqlite3 *db, int *tries)
{
	sqlite3_stmt *st = NULL;
	int err;

	*tries = 0;
	if ((err = ord_store_prepare(db, &st, "SELECT pass_tries FROM mail_config WHERE id = 1")) != 0)
		return err;
	if (sqlite3_step(st) == SQLITE_ROW)
		*tries = sqlite3_column_int(st, 0);
	else
		err = ord_store_error(db, "reading the mail configuration");
	sqlite3_finalize(st);
	return err;
}

int ord_store_mail_pass_tries_set(sqlite3 *db, int tries)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_prepare(db, &st, "UPDATE mail_config SET pass_tries = ? WHERE id = 1")) != 0)
		return err;
	sqlite3_bind_int(st, 1, tries);
	return step_done(db, st, "storing the mail configuration");
}

int ord_store_mail_refused_get(sqlite3 *db, int turn, unsigned char state[32], int *found)
{
	sqlite3_stmt *st = NULL;
	int err = 0, rc;

	*found = 0;
	if ((err = ord_store_prepare(db, &st, "SELECT state FROM mail_refused WHERE turn = ?")) != 0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW && sqlite3_column_bytes(st, 0) == 32) {
		memcpy(state, sqlite3_column_blob(st, 0), 32);
		*found = 1;
	} else if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		err = ord_store_error(db, "reading the bundles refused");
	}
	sqlite3_finalize(st);
	return err;
}

int ord_store_mail_refused_set(sqlite3 *db, int turn, const unsigned char *state)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_prepare(db, &st,
				     state ? "INSERT OR REPLACE INTO mail_refused(turn, state) VALUES (?, ?)"
					   : "DELETE FROM mail_refused WHERE turn = ?")) != 0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	if (state)
		sqlite3_bind_blob(st, 2, state, 32, SQLITE_STATIC);
	return step_done(db, st, "keeping a bundle refused");
}

int ord_store_mail_seen(sqlite3 *db, int64_t next)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_prepare(db, &st,
				     "UPDATE mail_config SET seen_seq = (SELECT coalesce(max(seq), 0) FROM log_head), "
				     "next_due = ? WHERE id = 1")) != 0)
		return err;
	sqlite3_bind_int64(st, 1, next);
	return step_done(db, st, "noting what tick has seen");
}

int ord_store_mail_due(const char *path, int64_t now, int *due)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	int err, rc;

	*due = 1;
	if ((err = ord_store_open(&db, path)) != 0)
		return err;
	if ((err = ord_store_prepare(db, &st,
				     "SELECT (SELECT coalesce(max(seq), 0) FROM log_head) != seen_seq "
				     "OR (next_due > 0 AND next_due <= ?) "
				     "OR EXISTS (SELECT 1 FROM mail_sent WHERE sent IS NULL) FROM mail_config")) !=
	    0)
		goto out;
	sqlite3_bind_int64(st, 1, now);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*due = sqlite3_column_int(st, 0);
	else
		err = ord_store_error(db, "reading what is due");
out:
	sqlite3_finalize(st);
	ord_store_close(db);
	return err;
}
