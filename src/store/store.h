/*
 * store.h - the SQLite game file.  Nothing outside src/store speaks SQL:
 * the core asks for rows through the named functions below.
 *
 *   store.c    opening with the right pragmas, refusing files that are not
 *              orderly games (or of an older log protocol), migrations from
 *              schema/sql (embedded), transactions, checkpoints
 *   schema.c   the file's schema compared at open with the migrations'
 *              (described by the build, cmake/schema-desc.c)
 *   log.c      the hash-chained log and its head
 *   rows.c     the game, sides, units, turns, sheets, commitments, events,
 *              witness links, phase rows and signed heads
 *   record.c   one turn's record for the verifier (core/record.h)
 *
 * Conventions: every function returns 0 or an ORD_E* code with the error
 * set (naming what was being read or written); strings handed out are
 * malloc'd copies the caller frees unless a function says otherwise.
 * Writes are made inside the caller's transaction (ord_store_begin).
 */
#ifndef ORD_STORE_H
#define ORD_STORE_H

#include <sqlite3.h>

#include "core/common.h"
#include "core/record.h"

/* PRAGMA application_id of every orderly game file: 'ORDY'. */
#define ORD_APPLICATION_ID 0x4F524459

/* ---- the file (store.c) ---- */

/* 0 when path names nothing yet, so a new game may be made there;
 * ORD_EEXISTS when it names a file, or is a symbolic link (to a file or
 * to nothing: a link to nothing would make the game where it points). */
int ord_store_new_path(const char *path);
/* Create a new game file (refused with ORD_EEXISTS if path exists, with
 * ORD_ECANTWRITE if its directory is missing or may not be written) with
 * the latest schema. */
int ord_store_create(sqlite3 **out, const char *path);
/* Open an existing game file.  The file is first inspected read-only, so a
 * file of another program, of a newer orderly, or of the first log
 * protocol (schema 4 or older) is refused untouched. */
int ord_store_open(sqlite3 **out, const char *path);
/* The same with ORD_OPEN_* flags (orderly.h, ord_game_open_ext): with
 * ORD_OPEN_READONLY, a file this process may not write is opened
 * read-only, changing nothing.  Without it such a file is refused with
 * ORD_ECANTWRITE.  Either way a file whose schema is not the one the
 * migrations make (a table, column or index missing, renamed, added or
 * declared otherwise) is refused as damaged (ORD_EBADDATA), unchanged. */
int ord_store_open_ext(sqlite3 **out, const char *path, unsigned int flags);
void ord_store_close(sqlite3 *db);
/* The newest schema version this build knows. */
int ord_store_schema_version(void);

int ord_store_begin(sqlite3 *db); /* BEGIN IMMEDIATE (waits on busy) */
int ord_store_commit(sqlite3 *db);
/* Roll back the change open, if any; the next change syncs at its commit
 * again (ord_store_begin_receipt). */
void ord_store_rollback(sqlite3 *db);
/* Begin a change that ord_store_checkpoint will follow before anyone is
 * told it is made (a receipt): its commit does not sync, since the
 * checkpoint syncs the write-ahead log before copying it into the game
 * file and the file after, or syncs the log when it cannot complete.
 * Two syncs, where a synced commit and its checkpoint made four (the
 * log's commit, its header restarted, the log and the file).  A crash
 * before the checkpoint may lose the change, never damage the file, and
 * no receipt was handed out for it.  SQLite's own checkpoint is off until
 * then (it would copy the change into the file unsynced). */
int ord_store_begin_receipt(sqlite3 *db);
/* A read transaction: what is read in it is one snapshot (a savepoint,
 * nested in the transaction of a change when one is open). */
int ord_store_begin_read(sqlite3 *db);
void ord_store_end_read(sqlite3 *db);
/* Copy everything committed from the write-ahead log into the game file
 * itself, so that the file alone holds it (a copy of the file made now
 * misses nothing); ORD_ERROR when readers kept it from completing. */
int ord_store_checkpoint(sqlite3 *db);
/* For tests only: how long ord_store_checkpoint tries, from its first try
 * (the busy handler of each try waits no longer), in milliseconds; 30,000
 * (ORD_STORE_BUSY_TIMEOUT_MS) unless a test sets it. */
void ord_store_set_checkpoint_limit_ms(int ms);
/* Set the error from the connection's last message; returns ORD_ERROR. */
int ord_store_error(sqlite3 *db, const char *what);
/* Run SQL with no results (for fixed statements). */
int ord_store_exec(sqlite3 *db, const char *sql);
/* The page cache for a pass that reads every row once (scan: SQLite's
 * default; inside a write transaction the pages it changed are written
 * to the log first, so that the cache lets them go), or back to the one
 * set from the game's size. */
int ord_store_cache_for_scan(sqlite3 *db, int scan);
/* A test-only pause point named point (store.c: ORDERLY_TEST_PAUSE_IN_TX),
 * for a step outside a transaction of the store (an export's writes):
 * nothing when the variable was unset as the game was opened. */
void ord_store_test_pause(const char *point);
/* Prepare, failing with a message. */
int ord_store_prepare(sqlite3 *db, sqlite3_stmt **st, const char *sql);

/* ---- the log (log.c) ---- */

/* The last entry: *seq 0 and hash zeros for an empty log.  ORD_ETAMPERED
 * when the head row is damaged. */
int ord_store_log_head(sqlite3 *db, int64_t *seq, unsigned char hash[32]);
/* The hash of entry seq; ORD_ETAMPERED when it is missing or damaged. */
int ord_store_log_hash(sqlite3 *db, int64_t seq, unsigned char hash[32]);
/* The same, and the time it was written (at may be NULL). */
int ord_store_log_entry(sqlite3 *db, int64_t seq, unsigned char hash[32], int64_t *at);
/* The entry of kind whose hash is hash (the first, by number), in *seq;
 * ORD_ENOTFOUND (no message set) when there is none: a head of format v3
 * names its entry by its hash alone. */
int ord_store_log_seq_of(sqlite3 *db, const char *kind, const unsigned char hash[32], int64_t *seq);
/* Append an entry (already hashed by the caller) and move the head to it. */
int ord_store_log_append(sqlite3 *db, int64_t seq, int turn, const char *kind, const char *body,
			 int64_t at, const unsigned char prev[32], const unsigned char hash[32]);
/* The number of entries of a kind in a turn (a phase's "resolve", "close"). */
int ord_store_log_count(sqlite3 *db, int turn, const char *kind, int *out);
/* The body of the last entry of a kind in a turn (turn < 0: any turn), or
 * ORD_ENOTFOUND (malloc'd). */
int ord_store_log_last(sqlite3 *db, int turn, const char *kind, char **body, int64_t *seq);

/* ---- the game, its sides and units (rows.c) ---- */

struct ord_store_game {
	unsigned char game_id[16];
	char *ruleset;
	char *title;
	char *nmr;
	int fixed_dice;
	int refereeless;
	int witnessed;
	int protocol;
	char *scenario;
	size_t scenario_len;
	char *tables; /* NULL when none */
	size_t tables_len;
	int have_pk, have_sk; /* the game's key; the secret part is NULL when kept in a file */
	unsigned char pk[32];
	unsigned char sk[64];
	int64_t created;
};
/* The game's row; its scenario (a file listing every unit) only when
 * with_scenario, else scenario is NULL. */
int ord_store_game_read(sqlite3 *db, struct ord_store_game *out, int with_scenario);
/* The scenario as the game keeps it: as received, but for the players' and
 * the referee's mail addresses (ord_scenario_public; malloc'd, NUL-terminated). */
int ord_store_game_scenario(sqlite3 *db, char **scenario, size_t *len);
/* The same bytes handed to fn a piece at a time (fn returns 0 to go on):
 * hashing a scenario of 12 MB needs neither a copy of it nor 12 MB. */
int ord_store_game_scenario_each(sqlite3 *db, int (*fn)(void *ud, const void *p, size_t n), void *ud);
void ord_store_game_release(struct ord_store_game *g);
int ord_store_game_insert(sqlite3 *db, const struct ord_store_game *g);

struct ord_store_side {
	int64_t id;
	char *name; /* the side's id in the scenario */
	char *title;
	int has_key;
	unsigned char pubkey[32];
};
int ord_store_sides_read(sqlite3 *db, struct ord_store_side **out, size_t *n);
void ord_store_sides_free(struct ord_store_side *s, size_t n);
int ord_store_side_insert(sqlite3 *db, int64_t *id, const char *name, const char *title,
			  const unsigned char *pubkey);

struct ord_store_unit {
	int64_t id;
	const char *uid, *name, *side, *attrs; /* valid during the callback */
	const char *state;                     /* its state as asked; "" if none */
};
typedef int (*ord_store_unit_fn)(void *ud, const struct ord_store_unit *u);
int ord_store_unit_insert(sqlite3 *db, int64_t *id, const char *uid, const char *name,
			  int64_t side_id, const char *attrs);
/* Every unit in unit order with its latest state at or before the end of
 * turn (turn <= 0: now); before: strictly before turn (its start). */
int ord_store_units_each(sqlite3 *db, int turn, int before, ord_store_unit_fn fn, void *ud);
/* Every unit in unit order without its state (state ""): its id, name,
 * side and attributes, what a turn's opening digests of it (units_root). */
int ord_store_roster_each(sqlite3 *db, ord_store_unit_fn fn, void *ud);
/* Every unit in unit order with its state as turn opened (turn >= 1), as
 * ord_store_units_each(db, turn, 1, ...) gives it, but only its uid and
 * state: id 0, name, side and attrs NULL (turn <= 0: ord_store_units_each's
 * whole rows, now). */
int ord_store_openings_each(sqlite3 *db, int turn, ord_store_unit_fn fn, void *ud);
/* Every unit (side_id 0) or a side's, with its current state: one row
 * each (unit_current), in the order of their ids; a side's read along the
 * ids from its first unit to its last when they stand together, else by
 * the index of the side's units, and without their row's id (id 0: a
 * column less a row, read by no caller). */
int ord_store_units_now(sqlite3 *db, int64_t side_id, const char *side_name, ord_store_unit_fn fn,
			void *ud);
/* The unit of this id, else of this name (case-insensitive), with its
 * current state, to fn; nothing when there is none. */
int ord_store_unit_find(sqlite3 *db, const char *id_or_name, ord_store_unit_fn fn, void *ud);
/* The units of names (each an id or a name, as ord_store_unit_find reads
 * it) in one statement, to fn: a unit named twice comes twice; a name of
 * no unit gives nothing.  A unit found by its id comes without its row's
 * id (id 0), as ord_store_units_now's of a side. */
int ord_store_units_find(sqlite3 *db, const char *const *names, size_t n, ord_store_unit_fn fn,
			 void *ud);
/* The number of units whose current state (unit_current) is not the last
 * of their recorded states (unit_state): 0 unless the file was changed. */
int ord_store_current_stale(sqlite3 *db, int *n);
/* Every unit in unit order with its latest state at or before the end of
 * phase `phase` (1-based) of turn; phase 0: as the turn opened. */
int ord_store_units_at(sqlite3 *db, int turn, int phase, ord_store_unit_fn fn, void *ud);
/* One stored state of a unit: after phase `phase` of turn ((0, 0): its start). */
struct ord_store_state {
	const char *uid;   /* the unit's scenario id; valid during the callback */
	int turn, phase;   /* when */
	const char *state; /* "k=v\n" lines; valid during the callback */
};
typedef int (*ord_store_state_fn)(void *ud, const struct ord_store_state *s);
/* Every stored state of every unit, in the order of (turn, phase, unit). */
int ord_store_states_each(sqlite3 *db, ord_store_state_fn fn, void *ud);
/* The number of units. */
int ord_store_unit_count(sqlite3 *db, size_t *n);
/* A unit's state after a phase ((0, 0): its start), vouched for by log_seq. */
int ord_store_state_put(sqlite3 *db, int64_t unit_id, int turn, int phase, const char *state,
			int64_t log_seq);
/* The same by the unit's scenario id. */
int ord_store_state_put_uid(sqlite3 *db, const char *uid, int turn, int phase, const char *state,
			    int64_t log_seq);

/* ---- turns ---- */

enum ord_turn_state {
	ORD_TURN_OPEN = 1,  /* sheets are handed in */
	ORD_TURN_SEALED,    /* sheets fixed; phases being resolved */
	ORD_TURN_RESOLVED,  /* every phase resolved; waiting for the exchange */
	ORD_TURN_EXCHANGED, /* sheets and seed revealed; the next turn is open */
};
/* "open", "sealed", "resolved", "exchanged" (as stored) and back (0 when
 * the text is none of them). */
const char *ord_turn_state_name(enum ord_turn_state s);
enum ord_turn_state ord_turn_state_parse(const char *s);

struct ord_store_turn {
	int turn;
	enum ord_turn_state state;
	int phase;        /* phases resolved so far */
	int64_t deadline; /* 0: none */
	unsigned char seed[32];
	unsigned char seed_commitment[32];
	int have_dice_key;
	unsigned char dice_key[32];
	int have_referee_witness;
	unsigned char referee_witness[32];
	int64_t log_seq; /* its "open" entry */
};
/* Turn n, or the current (highest) one when n <= 0; ORD_ENOTFOUND. */
int ord_store_turn_read(sqlite3 *db, int n, struct ord_store_turn *out);
int ord_store_turn_insert(sqlite3 *db, const struct ord_store_turn *t);
/* Set a turn's state, phase and dice key (NULL: unset) / deadline /
 * referee witness start. */
int ord_store_turn_set_state(sqlite3 *db, int turn, enum ord_turn_state state, int phase,
			     const unsigned char *dice_key);
int ord_store_turn_set_deadline(sqlite3 *db, int turn, int64_t when);
int ord_store_turn_set_referee_witness(sqlite3 *db, int turn, const unsigned char w[32]);

/* ---- sheets and commitments ---- */

struct ord_store_sheet {
	int64_t id;
	int version;
	char *source; /* submitted | hold | repeat */
	char *bytes;  /* NUL-terminated copy */
	size_t len;
	unsigned char nonce[32];
	unsigned char commitment[32];
	int has_sig;
	unsigned char signature[64];
	int has_witness;
	unsigned char witness[32];
	int64_t log_seq;
};
void ord_store_sheet_release(struct ord_store_sheet *s);
int ord_store_sheet_insert(sqlite3 *db, int turn, int64_t side_id, const struct ord_store_sheet *s);
/* The sheet of a side with a version (version <= 0: its latest), or
 * ORD_ENOTFOUND. */
int ord_store_sheet_read(sqlite3 *db, int turn, int64_t side_id, int version,
			 struct ord_store_sheet *out);
/* The latest version a side handed in this turn, sheet or commitment alone
 * (*version 0 when none), its commitment, and whether its sheet is stored. */
int ord_store_latest(sqlite3 *db, int turn, int64_t side_id, int *version,
		     unsigned char commitment[32], int *opened);
int ord_store_commit_insert(sqlite3 *db, int turn, int64_t side_id, int version,
			    const unsigned char commitment[32], const unsigned char signature[64],
			    int64_t log_seq);
/* The signature of a side's commitment of a version, or ORD_ENOTFOUND. */
int ord_store_commit_signature(sqlite3 *db, int turn, int64_t side_id, int version,
			       unsigned char signature[64]);

/* ---- events ---- */

struct ord_store_event {
	unsigned seq;
	const char *phase, *kind, *args; /* valid during the callback */
	const char *override;            /* NULL when none */
	const char *checks;
	int64_t log_seq;
	int64_t void_log;        /* its "void" entry, 0 when it stands */
	const char *void_reason; /* NULL when it stands */
};
typedef int (*ord_store_event_fn)(void *ud, const struct ord_store_event *e);
/* The next event number of a turn. */
int ord_store_event_next(sqlite3 *db, int turn, unsigned *seq);
int ord_store_event_insert(sqlite3 *db, int turn, const struct ord_store_event *e);
/* The events of a turn in order: of one phase, or all (phase NULL);
 * voided ones too unless standing_only. */
int ord_store_events_each(sqlite3 *db, int turn, const char *phase, int standing_only,
			  ord_store_event_fn fn, void *ud);
/* Event seq of turn: voided by the "void" entry log_seq for reason. */
int ord_store_event_void(sqlite3 *db, int turn, unsigned seq, int64_t log_seq, const char *reason);

/* ---- what checking one event reads, by index (index.c) ---- */

/* A unit's sealed order of turn, as ord_order_serialize wrote it; *body
 * (malloc'd) is NULL when the unit has none. */
int ord_store_sealed_order_put(sqlite3 *db, int turn, const char *uid, const char *body);
int ord_store_sealed_order_get(sqlite3 *db, int turn, const char *uid, char **body);
/* Turn's orders are indexed (at its seal) and so is every event of it. */
int ord_store_order_index_mark(sqlite3 *db, int turn);
int ord_store_order_indexed(sqlite3 *db, int turn, int *yes);
/* At least the number of units, without counting them (the largest id). */
int ord_store_unit_bound(sqlite3 *db, size_t *n);
/* Event seq of turn names the unit uid in a unit key. */
int ord_store_event_unit_put(sqlite3 *db, int turn, const char *uid, unsigned seq);
/* The standing events of phase that name unit uid, in order. */
int ord_store_unit_events_each(sqlite3 *db, int turn, const char *uid, const char *phase,
			       ord_store_event_fn fn, void *ud);

/* ---- witness links ---- */

int ord_store_link_insert(sqlite3 *db, int turn, int index, int64_t side_id,
			  const unsigned char link[32], int64_t log_seq);
/* A side's link of phase index: ORD_ENOTFOUND when not revealed. */
int ord_store_link_read(sqlite3 *db, int turn, int index, int64_t side_id, unsigned char link[32]);

/* ---- the rows of a resolved phase ---- */

int ord_store_roll_insert(sqlite3 *db, int turn, const char *phase, unsigned event_seq,
			  const char *purpose, unsigned idx, unsigned sides, int value, int fixed,
			  int64_t log_seq);
/* texts: the explanation in every language when there are several (kept
 * in result_text), else NULL or empty. */
int ord_store_result_insert(sqlite3 *db, int turn, const char *phase, unsigned event_seq,
			    const char *unit, const char *vals, const char *explanation,
			    const struct ord_kv *texts, int64_t log_seq);

/* ---- signed heads ---- */

int ord_store_head_insert(sqlite3 *db, const struct ord_rec_head *h);
/* The head of a turn signed at at (turn <= 0: the latest of that kind; for
 * "close", the latest of the turn), or ORD_ENOTFOUND. */
int ord_store_head_read(sqlite3 *db, int turn, const char *at, struct ord_rec_head *out);
/* ord_store_head_read of the latest such head signing an entry before seq
 * before (the heads of a turn's closes, one by one from its last). */
int ord_store_head_read_before(sqlite3 *db, int turn, const char *at, int64_t before,
			       struct ord_rec_head *out);

/* ---- what `info` shows ---- */

/* A side's sheets this turn: the highest version and the source of its
 * first (*version 0 when none). */
int ord_store_sheet_summary(sqlite3 *db, int turn, int64_t side_id, int *version, char **source);
/* What side_id has handed in this turn (side_id 0: every side): the
 * bytes of its submitted sheets, summed (SQLite reads a blob's length
 * without its bytes).  Stand-ins are not counted. */
int ord_store_sheet_bytes(sqlite3 *db, int turn, int64_t side_id, int64_t *bytes);
/* The bytes of every sheet a turn's record holds: every version of the
 * turn's sheets, stand-ins too, and the sheet of the turn before each side's
 * repeats (ord_store_record_load's "previous"), summed. */
int ord_store_record_sheet_bytes(sqlite3 *db, int turn, int64_t *bytes);
/* The first version of side_id's sheets of turn stored with nonce, or 0. */
int ord_store_sheet_nonce_used(sqlite3 *db, int turn, int64_t side_id,
			       const unsigned char nonce[32], int *version);

/* ---- the record of a turn (record.c) ---- */

/* Load turn's record (core/record.h) from the game file, with the seed and
 * the referee's witness start when the file holds them (the referee's own
 * audit), so that a turn not yet exchanged can be checked too. */
int ord_store_record_load(sqlite3 *db, int turn, struct ord_record *out);
/* The parts of a record a reader uses (ord_store_record_load_parts): a
 * report reads the sheets, rolls and results of a turn, not its log, its
 * units' opening states, its scenario and its every state row, which are
 * most of a record's memory; only the verifier and export need it whole. */
enum {
	ORD_REC_LOG = 1 << 0,     /* entries, and the scenario and tables */
	ORD_REC_UNITS = 1 << 1,   /* every unit's state when the turn opened */
	ORD_REC_COMMITS = 1 << 2, /* commitments */
	ORD_REC_SHEETS = 1 << 3,  /* sheets, and those of the turn before stood in for */
	ORD_REC_EVENTS = 1 << 4,  /* events */
	ORD_REC_ROLLS = 1 << 5,   /* rolls */
	ORD_REC_RESULTS = 1 << 6, /* results */
	ORD_REC_STATES = 1 << 7,  /* the units' states each phase wrote */
	ORD_REC_HEADS = 1 << 8,   /* signed heads and witness links */
	ORD_REC_ALL = (1 << 9) - 1,
	/* rolls, results and states left in the file and given to the
	 * replay a log entry's at a time, a chunk of them at a time
	 * (record.h: rows_each, groups), so that the verifier holds no
	 * phase's rows whole, and the units' opening
	 * states read as the replay takes them (units_load): an audit's */
	ORD_REC_BY_PHASE = 1 << 9,
	/* of the events, only those voided (the reports list them; the ctx
	 * holds those that stand): not with ORD_REC_EVENTS */
	ORD_REC_VOIDS = 1 << 10,
	ORD_REC_AUDIT = (ORD_REC_ALL &
			 ~(ORD_REC_UNITS | ORD_REC_ROLLS | ORD_REC_RESULTS | ORD_REC_STATES)) |
			ORD_REC_BY_PHASE
};
/* ord_store_record_load of the parts named (ORD_REC_*): the others are
 * left empty, and such a record is not one to verify or export. */
int ord_store_record_load_parts(sqlite3 *db, int turn, unsigned parts, struct ord_record *out);
/* ord_store_record_load_parts of ORD_REC_AUDIT, given the hash of the
 * game's scenario (game_scenario) that the caller read in the same read
 * transaction: not read and hashed again for each turn (1.2 MB at 10,000
 * units). */
int ord_store_record_load_hashed(sqlite3 *db, int turn, const unsigned char scenario_hash[32],
				 struct ord_record *out);
/* A turn's record as export streams it into a bundle (ord_bundle_writer),
 * read by the same queries in the same order as ord_store_record_load:
 * ord_store_record_head reads into out all but its rows (the game's
 * title, scenario, tables, key, the turn's seed and witness start), and of
 * its log only the first entry, whose config the bundle's header says;
 * ord_store_record_stream then hands its rows to rows, in the bundle's
 * order (the units as the turn opened, the log, the commitments, the
 * sheets, those of the turn before its stand-ins repeat, the events, the
 * witness links, the rolls, the results, the unit states, the heads), a
 * chunk of at most ord_record_chunk() rows of one part at a time (a
 * result's languages never split), each chunk living only during its
 * call.  A non-zero return of rows stops the stream and is returned. */
int ord_store_record_head(sqlite3 *db, int turn, struct ord_record *out);
int ord_store_record_stream(sqlite3 *db, int turn,
			    int (*rows)(void *ud, const struct ord_record *chunk), void *ud);
/* A record holding only the rolls, results and unit states that log entry
 * seq vouches for, in the order a whole record holds them (what
 * ord_phase_rows_digest reads): one seek down each table's log_seq index,
 * so the cost is the entry's rows, whatever the game's size. */
int ord_store_record_load_entry(sqlite3 *db, int64_t seq, struct ord_record *out);

/* ---- what only the game file has: the live rows audit compares ---- */

/* Rows of roll, result, unit_state, sheet, commitment, event, witness and
 * head that point at no log entry of the right kind; the number found in
 * each table goes to fn. */
typedef void (*ord_store_orphan_fn)(void *ud, const char *table, int n);
int ord_store_orphans(sqlite3 *db, ord_store_orphan_fn fn, void *ud);
/* Every turn row, in order. */
typedef int (*ord_store_turn_fn)(void *ud, const struct ord_store_turn *t);
int ord_store_turns_each(sqlite3 *db, ord_store_turn_fn fn, void *ud);
/* The log entries between first and last (inclusive), in order. */
typedef int (*ord_store_entry_fn)(void *ud, const struct ord_rec_entry *e,
				  const unsigned char prev[32]);
int ord_store_log_each(sqlite3 *db, int64_t first, int64_t last, ord_store_entry_fn fn, void *ud);
/* ---- the mail judge's tables (store/mail.c; schema/sql/008_mail.sql) ---- */

struct ord_store_party {
	int found;                      /* a row exists */
	char address[256];              /* "" if none */
	char pass_hash[256];            /* crypto_pwhash_str, "" if none */
	char pgp_fpr[64];               /* "" if none */
	struct ord_buf pgp_key;         /* armored key, empty if none; the caller releases it */
	unsigned char address_salt[32]; /* the key of the address's logged hash */
	int has_address_salt;           /* 0: none, or a game older than schema 13 */
	int64_t pgp_last;               /* when the last OpenPGP signature taken was made */
};
int ord_store_mail_party_get(sqlite3 *db, const char *party, struct ord_store_party *out);
/* Set one column (address, pass_hash, pgp_key, pgp_fpr, address_salt) of a
 * party's row; the blobs (pgp_key, address_salt) take len bytes. */
int ord_store_mail_party_set(sqlite3 *db, const char *party, const char *column, const void *value,
			     size_t len, int64_t log_seq);
/* A party's pgp_last raised to when (never lowered). */
int ord_store_mail_pgp_last_set(sqlite3 *db, const char *party, int64_t when);
int ord_store_mail_party_by_address(sqlite3 *db, const char *address, char *party, size_t n,
				    int *count);
int ord_store_mail_config_get(sqlite3 *db, struct ord_buf *judge, int *per_hour,
			      struct ord_buf *schedule);
/* NULL / 0 leave a value as it is. */
int ord_store_mail_config_set(sqlite3 *db, const char *judge, int per_hour, const char *schedule);
/* A mail's row of the inbox (mail_inbox: its state, result and times,
 * what its answer changes) and its bytes in a row of their own
 * (mail_inbox_raw, written once: 021_mail_inbox_raw.sql), or the row of
 * message_id stored before. */
int ord_store_mail_inbox_add(sqlite3 *db, int64_t *id, char state[8], int *step, const char *message_id,
			     const char *sender, const void *raw, size_t len, int64_t now);
int ord_store_mail_inbox_step(sqlite3 *db, int64_t id, int step);
int ord_store_mail_inbox_done(sqlite3 *db, int64_t id, const char *result, int64_t now);
/* The first message before id before whose result line holds text (0:
 * none), in *id. */
int ord_store_mail_inbox_said(sqlite3 *db, const char *text, int64_t before, int64_t *id);
/* *found 1 when a mail with this key is queued, and, naming not NULL,
 * its bytes hold naming (an attachment's file name). */
int ord_store_mail_queued(sqlite3 *db, const char *key, const char *naming, int *found);
/* The name the judge's files of the game begin with (mail_config.files),
 * appended to out, *kept 0 while none is kept (NULL); set it once (a
 * second set leaves the first). */
int ord_store_mail_files_get(sqlite3 *db, struct ord_buf *out, int *kept);
int ord_store_mail_files_set(sqlite3 *db, const char *files);
/* What the first mail queued (sent or not) that holds naming holds from
 * there, naming and up to 998 bytes after it (a header's line), appended
 * to bytes; *found 0 when none does.  Each mail read a piece at a time. */
int ord_store_mail_first_naming(sqlite3 *db, const char *naming, struct ord_buf *bytes, int *found);
int ord_store_mail_queue(sqlite3 *db, const char *key, const char *message_id, const char *rcpt,
			 const void *bytes, size_t len, int64_t now);
/* ORD_ENOTFOUND (no message set) when nothing is unsent after id after. */
/* The oldest unsent mail after id after: its bytes into bytes, or when
 * bytes is NULL only their number in *len (len may be NULL). */
int ord_store_mail_outbox_next(sqlite3 *db, int64_t after, int64_t *id, char *message_id, size_t mn,
			       char *rcpt, size_t rn, struct ord_buf *bytes, size_t *len);
/* Mail id's bytes handed to put a piece at a time (incremental blob I/O:
 * never held whole); 0, or put's non-zero return. */
int ord_store_mail_outbox_read(sqlite3 *db, int64_t id,
			       int (*put)(void *ud, const void *bytes, size_t n), void *ud);
/* ord_store_mail_queue of the len bytes of the file open at fd, written
 * into the row a piece at a time (zeroblob, then incremental blob I/O). */
int ord_store_mail_queue_fd(sqlite3 *db, const char *key, const char *message_id, const char *rcpt,
			    int fd, size_t len, int64_t now);
/* Mail id marked sent at now (its row of mail_sent: its bytes are not
 * written again). */
int ord_store_mail_outbox_sent(sqlite3 *db, int64_t id, int64_t now);
/* Migration 019's step after its SQL: each mail's bytes copied from the
 * outbox of before (mail_outbox_old) into the zeros its row in the new
 * mail_outbox holds, a piece at a time (never a whole mail in memory). */
int ord_store_mail_outbox_migrate(sqlite3 *db);
int ord_store_mail_rate(sqlite3 *db, const char *address, int per_hour, int64_t now, int *ok);
/* The stored raw of a message (its row of mail_inbox_raw) replaced by raw
 * (judge.c J9: what is kept of a mail not proven). */
int ord_store_mail_inbox_raw(sqlite3 *db, int64_t id, const void *raw, size_t len);
/* Passphrase checks of a party (schema/sql/015_mail_pass_fail.sql, 016):
 * rows before now - window are forgotten; of the party's rows since,
 * *wrong the wrong ones and those pending since now - stale or before (a
 * check that never finished), *running the ones pending since but the
 * mail inbox_id's own (one re-run after a crash waits for no row of its
 * own), *last the newest one's time (0: none). */
int ord_store_mail_pass_count(sqlite3 *db, const char *party, int64_t now, int64_t window,
			      int64_t stale, int64_t inbox_id, int *wrong, int *running,
			      int64_t *last);
/* A check about to run for the mail inbox_id, pending (once a mail: a row
 * of it stands already after a crash); the check found wrong; its row
 * taken away (the right one). */
int ord_store_mail_pass_add(sqlite3 *db, const char *party, int64_t now, int64_t inbox_id,
			    const char *sender);
int ord_store_mail_pass_wrong(sqlite3 *db, const char *party, int64_t inbox_id);
int ord_store_mail_pass_forget(sqlite3 *db, const char *party, int64_t inbox_id);
/* Every check of the party forgotten (a new passphrase: they were of the old one). */
int ord_store_mail_pass_clear(sqlite3 *db, const char *party);
/* The party's rows since `since`, one a line: "mail ID at TIME: SENDER"
 * (TIME in UTC, as 2030-12-09T12:00:00Z). */
int ord_store_mail_pass_list(sqlite3 *db, const char *party, int64_t since, struct ord_buf *out);
/* wrong passphrases an hour (0: the default) */
int ord_store_mail_pass_tries_get(sqlite3 *db, int *tries);
int ord_store_mail_pass_tries_set(sqlite3 *db, int tries);
int ord_store_mail_seen(sqlite3 *db, int64_t next);
/* The state of the game file the bundle of turn was refused for
 * (schema/sql/018_mail_refused.sql): *found 0 when none is kept; kept
 * (state NULL: forgotten). */
int ord_store_mail_refused_get(sqlite3 *db, int turn, unsigned char state[32], int *found);
int ord_store_mail_refused_set(sqlite3 *db, int turn, const unsigned char *state);
/* Open path just to ask whether tick has anything to do in it. */
int ord_store_mail_due(const char *path, int64_t now, int *due);

#endif
