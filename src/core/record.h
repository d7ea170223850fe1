/*
 * record.h - one turn of a game as the verifier reads it.  A record comes
 * from the game file (ord_store_record_load, src/store/record.c) or from a
 * turn bundle (ord_bundle_read, bundle.c); export writes one as a bundle.
 * The verifier (verify.c) checks a record, whichever its source, and
 * replays its phases (replay.c): so `orderly audit` and `orderly verify`
 * are one engine, written once.
 *
 * A record of turn N holds the log from the "open" entry of turn N up to,
 * once the turn is exchanged, the "open" entry of turn N+1 (which the
 * exchange's signed head covers), and every row those entries vouch for;
 * the scenario and the tables in force; every unit's state when the turn
 * opened; the signed heads of the turn.
 *
 * Ownership: every pointer belongs to the record; ord_record_release frees
 * it all.  The strings of its rows (ids, kinds, bodies, arguments, states)
 * are kept in the record's own blocks (ord_record_str), never freed one by
 * one; the title, scenario, tables and sheets' bytes are malloc'd.
 */
#ifndef ORD_RECORD_H
#define ORD_RECORD_H

#include "core/common.h"

struct ord_rec_entry {
	int64_t seq;
	int64_t at; /* unix seconds (hashed, informative) */
	char *kind;
	/* NULL for an "event" entry that is the canonical text of the event
	 * row pointing at it (ord_record_set_body): ord_record_body makes it */
	char *body;
	unsigned char hash[32];
	int turn;
	unsigned event; /* body NULL: the index + 1 of that event in the record */
};

struct ord_rec_unit {
	char *id;    /* the unit's id in the scenario */
	char *state; /* "k=v\n" lines: its state when the turn opened */
};

struct ord_rec_commit {
	char *side;
	int version;
	unsigned char commitment[32];
	unsigned char signature[64];
	int64_t log;
};

struct ord_rec_sheet {
	char *side;
	char *source; /* submitted | hold | repeat */
	int version;
	unsigned char *bytes; /* exactly as received (NUL-terminated for convenience) */
	size_t len;
	unsigned char nonce[32];
	unsigned char commitment[32];
	int has_sig;
	unsigned char signature[64];
	int has_witness;
	unsigned char witness[32];
	int64_t log;
	int commit_ok; /* verify.c: its bytes and nonce give its commitment */
};

struct ord_rec_event {
	unsigned seq;
	char *phase;
	char *kind;
	char *args;     /* "k=v\n" lines */
	char *override; /* NULL when none */
	char *checks;   /* "" when none */
	int64_t log;
	int64_t void_log;  /* its "void" entry, 0 when it stands */
	char *void_reason; /* NULL when it stands */
};

struct ord_rec_roll {
	int64_t log;
	int turn, event, idx, sides, value, fixed;
	char *phase;
	char *purpose;
};

struct ord_rec_result {
	int64_t log;
	int turn, event;
	char *phase;
	char *unit;
	char *values;
	char *explanation;   /* in the module's first language */
	struct ord_kv texts; /* lang -> text when written in several, else empty */
};

struct ord_rec_state {
	int64_t log;
	int turn, phase;
	char *unit;
	char *attrs;
	char *value;
};

struct ord_rec_head {
	int turn;
	char at[16];
	int64_t seq;
	unsigned char hash[32];
	int has_seed_commitment;
	unsigned char seed_commitment[32];
	unsigned char signature[64];
};

/* A side's sealed sheet of the turn before, for a side the NMR policy
 * stood in for: what "repeat" repeats, or was found invalid to repeat. */
struct ord_rec_prev {
	char *side;
	unsigned char *bytes;
	size_t len;
};

struct ord_rec_link {
	int index; /* the phase (1-based) */
	char *side;
	unsigned char link[32];
	int64_t log;
};

/* How many rows of one table a log entry vouches for: all a record read
 * a phase at a time knows of its rows until it reads them (rows_each). */
enum { ORD_REC_GROUP_ROLLS, ORD_REC_GROUP_RESULTS, ORD_REC_GROUP_STATES };
struct ord_rec_group {
	int table; /* ORD_REC_GROUP_* */
	int64_t log;
	size_t n;
};

/* A phase's rows as they come (ord_record_rows_each): table by table,
 * the rolls, then the results, then the unit states, each table's in its
 * order.  A row lives only during its call; a NULL member leaves its
 * table out.  A non-zero return stops the walk and is returned. */
struct ord_rows_sink {
	int (*roll)(void *ud, const struct ord_rec_roll *row);
	int (*result)(void *ud, const struct ord_rec_result *row);
	int (*state)(void *ud, const struct ord_rec_state *row);
	void *ud;
};

/* The most different strings a record holds once (ord_record_intern). */
#define ORD_REC_INTERNED 64

#define ORD_REC_ARRAY(T)         \
	struct {                 \
		T *v;            \
		size_t n, alloc; \
	}

struct ord_record {
	unsigned char game_id[16];
	unsigned char key[32]; /* the game's public key */
	int turn;
	int exchanged; /* the turn's exchange is in the record */
	int have_seed; /* the seed is known (revealed, or the referee's own file) */
	unsigned char seed[32];
	int have_referee_witness; /* witnessed: the referee's chain start is known */
	unsigned char referee_witness[32];
	unsigned char prev[32]; /* the hash the first entry chains from */
	char *title;            /* the game's title (informative) */
	char *scenario;         /* the scenario as the game keeps it (ord_scenario_public) */
	size_t scenario_len;
	/* a record read for the audit (units_load) keeps the scenario's hash,
	 * not its bytes (scenario is NULL): the audit reads the scenario once
	 * for every turn; scenario_load reads the bytes again if need be */
	int scenario_hashed;
	unsigned char scenario_hash[32];
	int (*scenario_load)(void *ud, char **bytes, size_t *len);
	char *tables; /* the tables in force */
	size_t tables_len;

	/* arrays grow by doubling (ORD_REC_ADD): a turn of 100,000 units */
	ORD_REC_ARRAY(struct ord_rec_unit) units; /* when the turn opened, in unit order */
	ORD_REC_ARRAY(struct ord_rec_entry) entries;
	ORD_REC_ARRAY(struct ord_rec_commit) commits;
	ORD_REC_ARRAY(struct ord_rec_sheet) sheets;
	ORD_REC_ARRAY(struct ord_rec_event) events;
	ORD_REC_ARRAY(struct ord_rec_roll) rolls;
	ORD_REC_ARRAY(struct ord_rec_result) results;
	ORD_REC_ARRAY(struct ord_rec_state) states;
	ORD_REC_ARRAY(struct ord_rec_head) heads;
	ORD_REC_ARRAY(struct ord_rec_link) links;
	ORD_REC_ARRAY(struct ord_rec_prev) previous;

	/* A record read for the verifier from a game file or a bundle file
	 * leaves its rolls, results and states there (the three arrays above
	 * are empty): the replay is given one phase's as they are read,
	 * through rows_each (ord_record_rows_each), a few at a time, and
	 * groups counts each log entry's rows of each table.  rows_each is
	 * NULL for a record that holds its rows (a bundle's read from memory,
	 * an export's), units_load for one that holds its units. */
	int (*rows_each)(void *ud, int64_t seq, const struct ord_rows_sink *sink);
	/* and its units' opening states (units is empty): units_load gives
	 * each unit's id and state, in unit order, to fn (ord_record_units) */
	int (*units_load)(void *ud, int turn,
			  int (*fn)(void *fud, const char *id, const char *state), void *fud);
	void *rows_ud;
	ORD_REC_ARRAY(struct ord_rec_group) groups;

	struct ord_arena strings; /* where ord_record_str copies */
	/* ord_record_intern's strings (in strings), each held once */
	char *interned[ORD_REC_INTERNED];
	size_t ninterned;
	/* ord_record_fit: the entries' positions in seq order, when they are
	 * not in it (a damaged or hostile record); NULL when they are */
	size_t *entry_order;
	size_t nentry_order;
};

void ord_record_init(struct ord_record *r);
/* A copy of the len bytes at s and a NUL, kept in r's blocks and freed
 * with r: a turn of 100,000 units holds half a million such strings, and
 * one allocation each cost a fifth of the record's memory in malloc's
 * headers and rounding. */
char *ord_record_strn(struct ord_record *r, const char *s, size_t len);
/* ord_record_strn of a string; NULL for NULL. */
char *ord_record_str(struct ord_record *r, const char *s);
/* ord_record_str of a string of few values (a kind, a phase): the copy
 * made for the first that was the same, for the first ORD_REC_INTERNED
 * different ones (105,000 events name a few phases and kinds).  Never
 * NULL: s must not be. */
char *ord_record_intern(struct ord_record *r, const char *s);
/* ord_record_str of s, which is malloc'd (or NULL) and is freed. */
char *ord_record_take(struct ord_record *r, char *s);
void ord_record_release(struct ord_record *r);
/* One more element of an ORD_REC_ARRAY a: a pointer to it, zeroed. */
#define ORD_REC_ADD(a)                                                                        \
	((a).n == (a).alloc ? (void)((a).alloc = (a).alloc ? 2 * (a).alloc : 16,              \
				     (a).v = ord_xrealloc((a).v, (a).alloc * sizeof(*(a).v))) \
			    : (void)0,                                                        \
	 memset(&(a).v[(a).n], 0, sizeof(*(a).v)), &(a).v[(a).n++])
/* Give an ORD_REC_ARRAY the size it holds (a loaded record is only read). */
#define ORD_REC_FIT(a)                                                                            \
	((a).n && (a).alloc > (a).n                                                               \
		 ? (void)((a).v = ord_xrealloc((a).v, (a).n * sizeof(*(a).v)), (a).alloc = (a).n) \
		 : (void)0)
/* The events of r by the log entries they point at, for
 * ord_record_set_body: the events' indexes in the order of their log
 * entries (the first of several with one entry first). */
struct ord_rec_by_log {
	size_t *v;
	size_t n;
};
/* Index r's events, once they are read (they usually come in log order:
 * then no sort). */
void ord_record_by_log(struct ord_rec_by_log *idx, const struct ord_record *r);
void ord_record_by_log_release(struct ord_rec_by_log *idx);
/* Give entry x the body read: kept in r's strings, unless x is an "event"
 * entry and body is byte for byte the canonical text (ord_canon_event)
 * of the first event idx finds pointing at x: then x->body is NULL and
 * x->event that event's index + 1, and ord_record_body makes the same
 * bytes again when they are read.  A turn of 100,000 units held 105,000
 * such texts (11 MB) beside the events they are made of.  idx NULL: kept.
 * scratch is a buffer to use. */
void ord_record_set_body(struct ord_record *r, struct ord_rec_entry *x, const char *body,
			 const struct ord_rec_by_log *idx, struct ord_buf *scratch);
/* The body of entry e of r, as it was read: e->body, or the canonical
 * text of its event made again in scratch (valid until scratch changes). */
const char *ord_record_body(const struct ord_record *r, const struct ord_rec_entry *e,
			    struct ord_buf *scratch);
/* Every array of r fitted (ORD_REC_FIT), once it is loaded. */
void ord_record_fit(struct ord_record *r);
/* The entry of seq, or NULL (entries are in seq order without gaps, or the
 * verifier says so; the lookup does not rely on it: a record whose
 * entries are out of order is looked up through entry_order, so that a
 * lookup costs log n either way).  The first of several with one seq. */
struct ord_rec_entry *ord_record_entry(const struct ord_record *r, int64_t seq);
/* The rows log entry seq vouches for, to sink, whether r holds them or
 * reads them (rows_each).  0, the error of reading them, or the sink's. */
int ord_record_rows_each(const struct ord_record *r, int64_t seq, const struct ord_rows_sink *sink);
/* The most rows of one table of a phase that the replay holds at a time
 * (a chunk of rows_each): ORDERLY_ROWS_CHUNK, from 1 to 1,048,576, else
 * 1,024.  Fewer hold less and read more slowly; the tests give 1, so that
 * every row crosses a chunk's edge. */
size_t ord_record_chunk(void);
/* The same into out, or ORD_EUSAGE when ORDERLY_ROWS_CHUNK is set to
 * anything else (out then 1,024): the CLI refuses such a run at once. */
int ord_record_chunk_env(size_t *out);
/* The rows r holds of log entry seq, to sink (what ord_record_rows_each
 * does for a record that holds its rows; a source of rows_each gives its
 * rows a few at a time this way). */
int ord_record_rows_held(const struct ord_record *r, int64_t seq, const struct ord_rows_sink *sink);
/* Each unit's id and state as the turn opened, in unit order, to fn,
 * whether the record holds them or reads them (units_load); fn's non-zero
 * return stops the walk and is returned.  0, or the error of reading. */
int ord_record_units(const struct ord_record *r,
		     int (*fn)(void *ud, const char *id, const char *state), void *ud);
/* The BLAKE2b-256 of the record's scenario, held or hashed. */
void ord_record_scenario_hash(const struct ord_record *r, unsigned char out[32]);
/* The record's scenario bytes: r->scenario, or a copy read again (*copy,
 * malloc'd, for the caller to free).  0, or the error of reading. */
int ord_record_scenario(const struct ord_record *r, const char **bytes, size_t *len, char **copy);
/* The rows of table (ORD_REC_GROUP_*) that groups count for log entry
 * seq: what the rows a phase reads must number (0 for a record that holds
 * its rows). */
size_t ord_record_counted(const struct ord_record *r, int table, int64_t seq);
/* The record's rolls, whether it holds them or counts them (groups). */
size_t ord_record_nrolls(const struct ord_record *r);

#endif
