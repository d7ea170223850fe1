/*
 * game.h - internals of a game shared by game*.c: the open game handle,
 * the log, and loading a module context from the file.  No SQL here: the
 * rows come through the store's named functions (store/store.h).
 */
#ifndef ORD_GAME_H
#define ORD_GAME_H

#include "core/canon.h"
#include "core/common.h"
#include "core/crypto.h"
#include "core/ctx.h"
#include "ruleset.h"
#include "store/store.h"

struct ord_game {
	sqlite3 *db;
	char *path;
	unsigned char game_id[16];
	char *title;
	char *nmr;         /* hold | repeat | wait */
	int repeat_orders; /* "repeat" repeats each order still valid, as the log states
			    * (nmr_repeat); a game made before repeats a sheet whole or not */
	int fixed_dice;
	int refereeless;    /* sides commit first, open after the seal */
	int witnessed;      /* sides reveal a witness link per phase */
	int dice_by_events; /* a roll keyed by what its event names (phase.h): the log's
			     config says dice=events (check_config) */
	char *made;         /* the orderly that made it (made=, ORD_GAME_MADE), as the log's
			     config says; NULL: a game made before */
	/* its core and its module's rules revisions (made_core=, made_rules=:
	 * canon.h), as the log says; "": none logged (a game made before the
	 * marker, a module that names no revision).  Held here, not
	 * allocated: a revision is at most 30 characters (canon.c) */
	char made_core[32];
	char made_rules[32];
	const struct ord_ruleset *rs;
	const struct ord_notation *notation;
	struct ord_rules *rules;
	struct ord_store_side *sides;
	size_t nsides;
	unsigned char scenario_hash[32]; /* of the scenario and tables as stored */
	int have_scenario_hash;          /* read when first needed (ord_game_config) */
	unsigned char tables_hash[32];
	int have_pk, have_sk; /* the game's key: public, and secret (in the file or given) */
	unsigned char pk[32];
	unsigned char sk[64];
	ord_change_fn hook; /* ord_game_set_hook, or NULL */
	void *hook_ud;
	int in_transact; /* inside ord_game_transact: changes refused */
	char *tampered;  /* the live rows differ from the log: why (changes refused) */
	unsigned char logged_scenario[32]; /* the scenario's hash the log states */
	int have_logged_scenario;          /* read at open (the last turn opening) */
	int scenario_checked;              /* the stored scenario was found to be it */
	int tables_changed;                /* the stored tables are not the ones the log states */
	/* the time the next log entry states, when a check was made against
	 * it (a sheet's against the deadline): else the clock when it is
	 * written, which may be a second later than the check saw */
	int64_t log_at;
};

/* What a load does besides filling its context, which the change that
 * loads asks of it (ord_game_load_ctx, ord_game_event_ctx): NULL, or
 * ORD_GAME_LOAD_INIT, is a plain load (a report's, an info's). */
struct ord_game_load {
	int hold_events;           /* each event held to its log entry as it is loaded
				    * (ord_game_live_event), the voided ones read to hold
				    * their voids: an event's, a void's, a close's and a
				    * resolve's loads */
	struct ord_digest *roster; /* not NULL: the units loaded digested into it (a
				    * resolve's hold of them to the turn's units_root) */
};
#define ORD_GAME_LOAD_INIT \
	{                  \
		0, NULL    \
	}

/* The live rows a change acts on, held to the log before it acts
 * (game_live.c): a row that differs is refused, ORD_EBADDATA, naming it
 * and what the log holds.  The turn row's seed (and its commitment) to the
 * one its opening logs, which goes to commitment, and the side rows to
 * the sides_root it logs (none: not held); */
int ord_game_live_seed(struct ord_game *g, const struct ord_store_turn *t,
		       unsigned char commitment[32]);
/* the seed, then each side's latest sheet of the turn to its entry and the
 * logged seed commitment; sealed: to the version the seal names, and the
 * row's dice key to the one the seed and those sheets give; */
int ord_game_live_sheets(struct ord_game *g, const struct ord_store_turn *t, int sealed);
/* an event row (and its void) to its entries. */
int ord_game_live_event(struct ord_game *g, int turn, const struct ord_store_event *ev);

/* Each side and unit row of g against the scenario sc (its names, titles,
 * keys, attributes, sides), the one check of the audit and the seal: each
 * difference in words to differs; row (or NULL) is given each unit row
 * too, with its state as turn began.  0, or the error of reading. */
struct ord_scenario;
int ord_game_rows_scenario(struct ord_game *g, const struct ord_scenario *sc, int turn,
			   void (*differs)(void *ud, const char *what),
			   int (*row)(void *ud, const struct ord_store_unit *u), void *ud);
/* The roster turn's opening digests (sides_root, units_root): the
 * sides' and a unit row's part of it (the units in unit order, begun with
 * ord_digest_init(d, ORD_ROSTER_TAG)). */
void ord_game_sides_root(struct ord_game *g, unsigned char out[32]);
void ord_game_roster_unit(struct ord_digest *d, const struct ord_store_unit *u);
/* The roots given (NULL: not held) against the ones turn's opening logs:
 * a root that differs refused, ORD_EBADDATA, naming what differs;
 * *logged (or NULL) 1 when the opening logs a units_root, 0 when it is
 * of an orderly before the roots, which logs none (nothing held). */
int ord_game_live_roster(struct ord_game *g, int turn, const unsigned char *sides,
			 const unsigned char *units, int *logged);
/* At a seal: the unit rows against the units_root turn's opening logs,
 * or, an opening that logs none, every side and unit row against the
 * scenario (its parse); the first difference refused, ORD_EBADDATA.
 * units (NULL: none), initialised: when the opening logs the root, every
 * unit with its state as of now added in the same read, a context that
 * checks (ord_ctx_set_checks_only), indexed; else left empty. */
int ord_game_live_units(struct ord_game *g, int turn, struct ord_ctx *units);
/* At the opening of a commitment: the unit rows against the units_root
 * turn's opening logs (none: not held), the sheet then checked against
 * them; the first difference refused, ORD_EBADDATA. */
int ord_game_live_units_rooted(struct ord_game *g, int turn);
/* At a seal, after ord_game_live_units: every side's last sheet checked
 * again as its submit checked it, against the units as the seal holds
 * them (in units, the context ord_game_live_units filled, when each word
 * in it names one unit; else a side's context at a time, as a submit
 * loads it); one the rules refuse now refused, ORD_EBADDATA, naming its first
 * problem.  *checked 1 when the sheets were checked (the seal's entry says
 * so, sheets_checked, and the verifier checks them again): not for a
 * turn opened by an orderly before the roster's roots, whose sheets an
 * orderly before may have taken, nor for a game with no referee (the seal
 * holds commitments, not sheets). */
int ord_game_live_sheets_valid(struct ord_game *g, int turn, struct ord_ctx *units, int *checked);
/* At the first resolve of a game with no referee, after the units and
 * their states are held to the turn's opening: every side's opened sheet
 * checked again as its opening checked it (an opening holds the unit rows,
 * not their states); one the rules refuse now refused, ORD_EBADDATA.
 * Nothing for a refereed game, or a turn opened before the roots. */
int ord_game_live_opened_valid(struct ord_game *g, int turn);

/* A turn row (the current one when turn <= 0). */
int ord_game_turn(struct ord_game *g, struct ord_store_turn *t, int turn);
size_t ord_game_nphases(const struct ord_game *g);
const struct ord_store_side *ord_game_side_by_name(const struct ord_game *g, const char *name);
/* "a, b, c" of the sides' names */
void ord_game_side_list(const struct ord_game *g, struct ord_buf *out);
/* The game's config as the log states it (ord_canon_config; strings point
 * into g).  The scenario's hash is read the first time: the scenario lists
 * every unit, so opening a game does not read it. */
int ord_game_config(struct ord_game *g, struct ord_canon_config *out);
/* 1 when g was made by an orderly of core revision rev or later, as its
 * log says (made_core=, or for a game made before the marker made='s day:
 * ord_canon_made_since_core_of).  What a change of what a phase resolves
 * to that only games made since may see is gated on. */
int ord_game_made_since_core(const struct ord_game *g, const char *rev);
/* g's made_core= and made_rules=, NULL when it logs none. */
const char *ord_game_made_core(const struct ord_game *g);
const char *ord_game_made_rules(const struct ord_game *g);

/* Tell the hook (if any) what the change did, inside its transaction. */
int ord_game_notify(struct ord_game *g, const struct ord_change *c);
/* ORD_ESTATE inside ord_game_transact (a change would nest a transaction);
 * the file's refusal when its live rows or its stored scenario are not
 * what its log states. */
int ord_game_may_change(struct ord_game *g);
/* Log turn's deadline (the end of its grace: sheets are taken until
 * when, 0 for none) and keep it in the turn's row, in the caller's
 * transaction. */
int ord_game_log_deadline(struct ord_game *g, int turn, int64_t when);
/* The deadline turn's log last states (0: none logged), which its row
 * must keep: every front end obeys the row. */
int ord_game_logged_deadline(struct ord_game *g, int turn, int64_t *when);
/* ord_game_may_change but for the stored scenario, which it does not read:
 * for the changes that cost one event or one sheet whatever the game's
 * size (an event, a void, a close, a witness link, the mail judge's inbox
 * and replies, a submit, a commitment, an opening of one), whose entries
 * do not depend on the scenario; hashing it made one event at 100,000
 * units 2.3 times its time at 10,000, and a submit O(the game).  A
 * damaged scenario is still refused by the next seal, resolve, exchange
 * or deadline, before any turn's opening can state it, and reported by
 * the audit. */
int ord_game_may_change_small(struct ord_game *g);

/* Append a log entry (inside a transaction); *seq receives its number. */
int ord_game_log(struct ord_game *g, int64_t *seq, int turn, const char *kind, const char *body);

/* Add to ctx the events of turn that stand, but for those of phase (which
 * it holds): a resolve's context, after its phase, given the turn's other
 * events for the check of execution. */
int ord_game_add_other_events(struct ord_game *g, struct ord_ctx *ctx, int turn, const char *phase);

/* The units whose sealed orders or the rules owe an event of phase that
 * no event of ctx has done (the ruleset's order_events, version 9, asked
 * of every unit): their number, and the first few named in named ("unit
 * B3: melee, unit R2: move and fire, and 2 more"), as a resolve that
 * refuses the phase empty names them and info's next line before it. */
size_t ord_game_owed(struct ord_game *g, struct ord_ctx *ctx, const char *phase, struct ord_buf *named);

/* Fill ctx with the units and their state as of now, the sealed orders of
 * turn (when with_orders) and the events of phase (NULL: none; "*": all),
 * as load asks (NULL: a plain load). */
int ord_game_load_ctx(struct ord_game *g, struct ord_ctx *ctx, int turn, int with_orders,
		      const char *phase, const struct ord_game_load *load);
/* Fill ctx for checking a sheet of side: its units as of now, and of the
 * others those the sheet names, and any other a module looks up when it
 * asks for it (a partial context, ord_ctx_set_lazy).  ctx must be released
 * whatever this returns. */
int ord_game_load_side_ctx(struct ord_game *g, struct ord_ctx *ctx, int turn, const char *side,
			   const struct ord_sheet *sheet);
/* Every side's latest sheet of turn (only one side's when only is not
 * NULL), parsed and attached to its units. */
int ord_game_attach_sheets(struct ord_game *g, struct ord_ctx *ctx, int turn, const char *only);
/* A store row of a unit added to the ctx ud (an ord_store_unit_fn). */
int ord_game_add_unit(void *ud, const struct ord_store_unit *u);

/* ---- what checking an event reads (game_index.c) ---- */

/* Index turn's sealed orders (at its seal, inside its transaction): each
 * unit's order parsed once, and the turn marked as indexed; a referee-less
 * turn, whose sheets are opened after the seal, is not indexed.  units:
 * the seal's context of every unit (ord_game_live_units), the sheets
 * attached to it, or NULL or empty: the units read again. */
int ord_game_index_orders(struct ord_game *g, int turn, struct ord_ctx *units);
/* Fill ctx for checking n new events of phase, numbered from next: when
 * the turn is indexed and n is small beside the game, a partial context
 * (the units the events name, each with its sealed order and its standing
 * events of the phase, loaded when looked up), else the whole game
 * (ord_game_load_ctx); either holds the events it loads to their log
 * entries as load asks (NULL: a plain load).  *lazy is what the partial context needs: release
 *it after ctx (ord_game_event_ctx_done), and ask it whether a load
 * failed (ord_game_event_ctx_failed: then check in a whole context). */
struct ord_event_lazy;
int ord_game_event_ctx(struct ord_game *g, struct ord_ctx *ctx, int turn, const char *phase,
		       unsigned next, size_t n, int partial, const struct ord_game_load *load,
		       struct ord_event_lazy **lazy);
int ord_game_event_ctx_failed(const struct ord_event_lazy *lazy);
void ord_game_event_ctx_done(struct ord_event_lazy *lazy);
/* Record that event seq of turn names the units of its unit keys. */
int ord_game_index_event(struct ord_game *g, struct ord_ctx *ctx, int turn, const struct ord_event *ev);

/* Parse a stored sheet with the game's notation. */
int ord_game_parse_sheet(struct ord_game *g, struct ord_sheet *out, const char *bytes, size_t len,
			 struct ord_diag *diag);

/* Open turn n (inside a transaction): a fresh seed, its commitment, the
 * game's config, every unit's state and the sides' last sealed sheets
 * logged in its "open" entry. */
int ord_game_open_turn(struct ord_game *g, int n);
/* The units' states now (root, ord_phase_state_root) are the ones the log
 * digests: turn's opening entry (opening), or else the turn's last resolve
 * entry, as the phase left them (an entry that names no state_root, of an
 * orderly before 2026-12-07, holds nothing).  ORD_EBADDATA, naming the
 * entry, when they differ. */
int ord_game_states_held(struct ord_game *g, const unsigned char root[32], int turn, int opening);

/* The dice key of a sealed turn from its seed and the sealed commitments
 * (and, in a referee-less game, their nonces: ORD_ESTATE while a sealed
 * commitment is not opened yet). */
int ord_game_dice_key(struct ord_game *g, int turn, const unsigned char seed[32],
		      unsigned char out[32]);

/* ---- shared by game_sheets.c and game_phases.c ---- */

/* 1 when the bytes are only blanks. */
int ord_game_blank(const char *bytes, size_t len);
/* The side of that name, or ORD_ENOTFOUND naming the sides. */
int ord_game_find_side(struct ord_game *g, const char *side, const struct ord_store_side **out);
/* Parse a sheet and validate it for side (every problem in diag, sorted). */
int ord_game_check_bytes(struct ord_game *g, int turn, const char *side, const char *bytes,
			 size_t len, struct ord_diag *diag, struct ord_buf *reading,
			 struct ord_reading_marks *marks);
/* The same check in ctx, a context of every unit of the game as of now
 * whose words name one unit each (ord_ctx_set_checks_only,
 * ord_ctx_words_unambiguous): a unit is found in it as in the side's partial
 * context ord_game_check_bytes makes, and the ruleset reads the units a
 * sheet names, and the side's, the same (ruleset.h, validate_sheet).  The
 * seal's check of every side's sheet, in one load (game_live.c). */
int ord_game_check_bytes_in(struct ord_game *g, struct ord_ctx *ctx, const char *side,
			    const char *bytes, size_t len, struct ord_diag *diag);
/* Store a sheet and log it (rc may be NULL; nonce NULL: drawn, or derived
 * for a stand-in; opens_version: the commitment it opens, else 0). */
int ord_game_store_sheet(struct ord_game *g, struct ord_receipt *rc, const struct ord_store_turn *t,
			 const struct ord_store_side *side, const char *source, const char *bytes,
			 size_t len, const unsigned char *nonce, const unsigned char *signature,
			 const unsigned char *witness, int opens_version);
/* The sides (", "-joined into out) with no version this turn (want_opened
 * 0), or whose latest is not opened (1). */
int ord_game_sides_lacking(struct ord_game *g, int turn, int want_opened, struct ord_buf *out,
			   size_t *n);
/* The same, the last two names joined with last_sep (" and ": "red, green
 * and blue"), for a sentence naming them. */
int ord_game_sides_lacking_sep(struct ord_game *g, int turn, int want_opened, const char *last_sep,
			       struct ord_buf *out, size_t *n);

/* Sign the log's head (the entry just written) as the head of turn's at
 * ("open", "seal", "close", "exchange"), store it and hand it to the hook
 * (inside the transaction). */
int ord_game_sign_head(struct ord_game *g, int turn, const char *at, struct ord_head *out);

#endif
