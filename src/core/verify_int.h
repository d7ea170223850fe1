/*
 * verify_int.h - what verify.c and replay.c share (internal): one
 * verification's state and the small readers of a record's entries.
 */
#ifndef ORD_VERIFY_INT_H
#define ORD_VERIFY_INT_H

#include "core/scenario.h"
#include "core/verify.h"
#include "ruleset.h"

/* At most this many differences of one kind are listed per phase. */
#define MAX_LISTED 10

struct sealed {
	int version; /* 0: none */
	unsigned char commitment[32];
	const struct ord_rec_sheet *sheet; /* its sheet, when opened / stored */
};

/* A resolved phase as the log shows it. */
struct phase {
	const struct ord_rec_entry *close;   /* witnessed: its close, else NULL */
	const struct ord_rec_entry *resolve; /* NULL while not resolved */
};

/* 1 (the default): a replay keeps its results' hashes only, and makes a
 * phase's results again whole when one differs (replay.c); 0: it keeps
 * them all, as it did before.  A test sets it, to hold the one's findings
 * to the other's. */
extern int ord_vr_lean_results;

struct vr {
	const struct ord_record *r;
	const struct ord_verify_opts *o;
	struct ord_vout *v;
	struct ord_verify_facts *f;
	int *used;           /* per entry: rows vouched for */
	struct ord_buf body; /* ord_vr_body's */

	struct ord_canon_config cfg;
	int have_cfg;
	unsigned char seed_commitment[32];
	const struct ord_ruleset *rs;
	const struct ord_notation *nt;
	struct ord_rules *rules;
	struct ord_scenario sc;
	int have_sc;
	struct ord_verify_cache *cache; /* rules and sc belong to it when set */
	/* sc's sides' and units' digests (check_roster), made once: a turn's
	 * opening and the next's name the one scenario (when the cache
	 * lends sc, the cache keeps them for every turn) */
	int have_sides_root, have_units_root;
	unsigned char sides_root[32], units_root[32];
	size_t nphases;

	const struct ord_rec_entry *open, *seal, *exchange, *next_open;
	struct phase *phases; /* nphases of them */
	size_t nresolved;

	struct sealed *sealed; /* per scenario side */
	int have_sealed;
	int sheets_checked; /* the seal says it checked every last sheet (canon.h) */
	int rosterless;     /* the turn's opening digests no roster (check_seal) */
	int have_key;
	unsigned char dice_key[32];

	/* an error reading what a record leaves in its game file (its rows,
	 * its units, its scenario: record.h): the file, not the turn, is at
	 * fault, and the verify stops and returns it, its message kept */
	int read_err;
	/* a result of the phase compared is not the one recorded (a lean
	 * replay's hash: replay.c says which, once it has it whole) */
	int results_differ;

	/* once the log's chain is broken, later failures are labelled as what
	 * may follow from it: one changed byte is one finding, not a list */
	int64_t broken_at;
	const char *fail_was; /* v->fail before the label replaced it */
	char fail_label[96];
	int fails_at_break;
	/* the first entry whose row is missing (check_rows_present), when
	 * the chain holds: later failures are labelled alike */
	int64_t missing_at;
	char *missing; /* per entry: its row is missing, said */
};

size_t ord_vr_entry_index(const struct vr *x, const struct ord_rec_entry *e);
/* The entry at seq, of kind; NULL (with a failure naming what) if not;
 * counts it as used. */
/* The body of entry e as it was read (ord_record_body): valid until the
 * next call.  An "event" entry's may be made again from its event. */
const char *ord_vr_body(struct vr *x, const struct ord_rec_entry *e);
const struct ord_rec_entry *ord_vr_entry_of(struct vr *x, int64_t seq, const char *kind,
					    const char *what);
const struct ord_scenario_side *ord_vr_scenario_side(struct vr *x, const char *id);
/* 1 and the key when the scenario gives side id a public key. */
int ord_vr_side_key(struct vr *x, const char *id, unsigned char key[32]);
long ord_vr_body_long(const char *body, const char *key, long def);
int ord_vr_body_hex(const char *body, const char *key, unsigned char *out, size_t n);
/* The replay of every phase (replay.c). */
void ord_vr_replay(struct vr *x);

#endif
