/*
 * verify.h - the one verifier: what `orderly audit` (over the game file)
 * and `orderly verify` (over a turn bundle) check of a turn, written once
 * over a turn's record (record.h), whatever its source.
 *
 * It checks the log's chain and the order of its entries (opened, sealed
 * once, every phase of the ruleset resolved in order, exchanged), the seed
 * against its commitment, every commitment, signature, receipt and signed
 * head, the stand-in sheets of the NMR policy, the dice key, and it
 * REPLAYS every phase through the ruleset: the units as they stood, the
 * sealed orders, the recorded events and the dice give exactly one set of
 * event checks, rolls, results and unit states, and any row the rules do
 * not give is reported.
 */
#ifndef ORD_VERIFY_H
#define ORD_VERIFY_H

#include "core/canon.h"
#include "core/record.h"

/* The failures said, as data: each one's line as out shows it, without
 * its indent or newline ("FAILED: ...", "FAILED (may follow from entry
 * 3): ..."), in the order said, so that a caller that acts on them
 * (export's refusal) need not read them back out of the text. */
struct ord_vout_failed {
	char **v; /* malloc'd, each malloc'd */
	size_t n, alloc;
};
void ord_vout_failed_release(struct ord_vout_failed *f);

/* Where the findings go: one line each, "ok: ...", "note: ..." or
 * "<fail>: ..." after indent. */
struct ord_vout {
	struct ord_buf *out;
	const char *indent; /* "  " */
	const char *fail;   /* "FAILED" (verify) or "BROKEN" (audit) */
	int failures;
	struct ord_vout_failed *kept; /* NULL, or where each failure's line is kept too */
};
void ord_vout_fail(struct ord_vout *v, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;
/* Take back what v said since out held out_len bytes and failures were
 * counted: the out and the lines kept as they were then (a replay that
 * says a phase's differences again, better named). */
void ord_vout_rewind(struct ord_vout *v, size_t out_len, int failures);
void ord_vout_ok(struct ord_vout *v, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;
void ord_vout_note(struct ord_vout *v, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* The verifier's holds of one row of a turn against the log, which it
 * makes of every row and a change of the game makes of the live rows it
 * acts on before it acts (game_live.c): each 1 when the row holds.
 * scratch is a buffer to use. */
/* seed commits to commitment (the one turn's opening logs) */
int ord_verify_seed_commits(const unsigned char game_id[16], int turn, const unsigned char seed[32],
			    const unsigned char commitment[32]);
/* s's bytes, nonce (and witness chain) and the turn's seed commitment give
 * its commitment */
int ord_verify_sheet_commits(const struct ord_rec_sheet *s, const unsigned char game_id[16],
			     int turn, const unsigned char seed_commitment[32]);
/* s is what body, the body of its entry of kind ("sheet" or "opening"),
 * records */
int ord_verify_sheet_logged(const struct ord_rec_sheet *s, const char *kind, const char *body,
			    struct ord_buf *scratch);
/* s's signature as its side's key (NULL: the side has none) asks: 1 when
 * it is the side's, 0 when none is asked or given, else -1 and what is
 * wrong added to why */
int ord_verify_sheet_signed(const struct ord_rec_sheet *s, const unsigned char *key,
			    const unsigned char game_id[16], int turn, struct ord_buf *why);
/* ev (its number, phase, kind, arguments, override, checks) is what body,
 * its "event" entry's, records */
int ord_verify_event_logged(const struct ord_rec_event *ev, const char *body, struct ord_buf *scratch);
/* ev's void (its reason) is what body, its "void" entry's, records */
int ord_verify_void_logged(int turn, const struct ord_rec_event *ev, const char *body,
			   struct ord_buf *scratch);

/* What the verifier established of a turn, for the audit to hold the
 * game file's live rows against. */
struct ord_verify_facts {
	int have_config;
	struct ord_canon_config config; /* the turn's opening entry says the game is this */
	unsigned char seed_commitment[32];
	int sealed;    /* the log has its seal */
	int phases;    /* phases resolved, in order, per the log */
	int exchanged; /* the log has its exchange */
	int have_dice_key;
	unsigned char dice_key[32];
	int have_end_root; /* the replay reached the end of the turn */
	unsigned char end_root[32];
	size_t nunits;
	/* bit p-1: this turn's log closes phase p, and no head the player
	 * kept matches that close */
	uint64_t closes_unkept;
	int heads_matched;   /* heads the player kept that this turn continues or holds */
	int opening_matched; /* one of them signs this turn's opening (or the entry before) */
	size_t overrides;    /* events recorded against the orders by the referee's override */
	int64_t broken_at;   /* the first log entry whose hash fails (0: none) */
	int64_t missing_at;  /* else the first entry whose row is missing (0: none) */
	int consequences;    /* failures said after it: they may only follow from it */
};
void ord_verify_facts_release(struct ord_verify_facts *f);

/* Check one turn's record with what the player holds (opts: the game's key,
 * his receipts, the heads he kept; may be NULL).  The findings go to v;
 * returns 0, or an error when the record cannot be checked at all: what a
 * record read from a game file leaves there (its rows, units, scenario:
 * record.h) cannot be read, the file's fault, not the turn's. */
int ord_verify_record(const struct ord_record *r, const struct ord_verify_opts *opts,
		      struct ord_vout *v, struct ord_verify_facts *facts);
/* What the records of one game share (its scenario and rules tables, read
 * and checked once): the audit checks turn after turn with one. */
struct ord_verify_cache;
struct ord_scenario;
struct ord_ruleset;
struct ord_verify_cache *ord_verify_cache_new(void);
void ord_verify_cache_free(struct ord_verify_cache *c);
/* Give c a scenario already read from bytes of BLAKE2b-256 hash and checked
 * for rs's unit attributes (the audit reads it first, so that its XML tree
 * is gone before any turn's record is held); sc is left empty. */
void ord_verify_cache_keep_scenario(struct ord_verify_cache *c, const struct ord_ruleset *rs,
				    struct ord_scenario *sc, const unsigned char hash[32]);
/* Tell c that every entry of the game's log was found, in the read
 * transaction its records are read in, to chain: each entry's hash is what
 * the hash before it and its content give (the audit walks the whole log
 * first).  The records' entries are those rows, so their hashes are not
 * computed again for each turn. */
void ord_verify_cache_chain_whole(struct ord_verify_cache *c);
/* Note to v the names of c's scenario a player cannot tell apart (threat
 * model, attack 41), once: the records checked with c note them no more
 * (the audit notes them with the game's units, before its turns). */
void ord_verify_cache_note_names(struct ord_verify_cache *c, struct ord_vout *v);
/* Say to v the orderly the game was made with, as cfg logs it (where:
 * "in the creation (entry 1) and every opening"): its made=, the core and rules
 * revisions of made_core= and made_rules= (canon.h), noted where it logs
 * made= but no core revision, or a core later than this orderly's.  Once
 * with a cache c (NULL: said): the records checked with c say it no more
 * (the audit says it of the creation, before its turns). */
struct ord_canon_config;
void ord_verify_cache_say_made(struct ord_verify_cache *c, struct ord_vout *v,
			       const struct ord_canon_config *cfg, const char *where);
/* ord_verify_record, taking the scenario and tables from c when the
 * record's bytes are the ones c holds (by their hashes), else reading them
 * and keeping them in c. */
int ord_verify_record_cached(const struct ord_record *r, const struct ord_verify_opts *opts,
			     struct ord_vout *v, struct ord_verify_facts *facts,
			     struct ord_verify_cache *c);
/* The ruleset, its loaded tables and the scenario c holds from the record
 * it checked last (a bundle's report is built from them), owned by c;
 * ORD_ENOTFOUND when it holds none (they could not be read). */
int ord_verify_cache_game(struct ord_verify_cache *c, const struct ord_ruleset **rs,
			  struct ord_rules **rules, const struct ord_scenario **sc);

#endif
