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

/* ---- the mail judge's tables (store/mail.c; schema/sql/006_mail.sql) ---- */

struct ord_store_party {
	int found;              /* a row exists */
	char address[256];      /* "" if none */
	char pass_hash[256];    /* crypto_pwhash_str, "" if none */
	char pgp_fpr[64];       /* "" if none */
	struct ord_buf pgp_key; /* armored key, empty if none; the caller releases it */
};
int ord_store_mail_party_get(sqlite3 *db, const char *party, struct ord_store_party *out);
/* Set one column (address, pass_hash, pgp_key, pgp_fpr) of a party's row. */
int ord_store_mail_party_set(sqlite3 *db, const char *party, const char *column, const void *value,
			     size_t len, int64_t log_seq);
int ord_store_mail_party_by_address(sqlite3 *db, const char *address, char *party, size_t n,
				    int *count);
int ord_store_mail_config_get(sqlite3 *db, struct ord_buf *judge, int *per_hour,
			      struct ord_buf *schedule);
/* NULL / 0 leave a value as it is. */
int ord_store_mail_config_set(sqlite3 *db, const char *judge, int per_hour, const char *schedule);
int ord_store_mail_inbox_add(sqlite3 *db, int64_t *id, char state[8], int *step, const char *message_id,
			     const char *sender, const void *raw, size_t len, int64_t now);
int ord_store_mail_inbox_step(sqlite3 *db, int64_t id, int step);
int ord_store_mail_inbox_done(sqlite3 *db, int64_t id, const char *result, int64_t now);
int ord_store_mail_queued(sqlite3 *db, const char *key, int *found);
int ord_store_mail_queue(sqlite3 *db, const char *key, const char *message_id, const char *rcpt,
			 const void *bytes, size_t len, int64_t now);
/* ORD_ENOTFOUND (no message set) when nothing is unsent after id after. */
int ord_store_mail_outbox_next(sqlite3 *db, int64_t after, int64_t *id, char *message_id, size_t mn,
			       char *rcpt, size_t rn, struct ord_buf *bytes);
int ord_store_mail_outbox_sent(sqlite3 *db, int64_t id, int64_t now);
int ord_store_mail_rate(sqlite3 *db, const char *address, int per_hour, int64_t now, int *ok);
int ord_store_mail_seen(sqlite3 *db, int64_t next);
/* Open path just to ask whether tick has anything to do in it. */
int ord_store_mail_due(const char *path, int64_t now, int *due);

#endif
