/*
 * phase.h - what a turn's phases do, written once for the game (game_turn.c)
 * and for the verifier's replay (verify.c): check an event against the
 * sealed orders, derive a phase's dice, run the phase through the ruleset,
 * and digest the rows it produced.  Whatever a game writes, the replay
 * recomputes with the same functions, so the two cannot drift apart.
 */
#ifndef ORD_PHASE_H
#define ORD_PHASE_H

#include "core/crypto.h"
#include "core/ctx.h"
#include "core/record.h"

/* The revision of the core's part of a phase (the checks of an event's
 * arguments, the dice, the order of the rows): changes with any correction
 * that changes what a phase resolves to, as a module's rules_revision does
 * for its rules.  Each "resolve" entry logs both (core_revision,
 * rules_revision). */
/* 2026-12-02.2: an eighth in a result's words printed exactly (1.125);
 * 2026-12-07.1: in a game made since 2026-12-07 a unit's name no unit has
 * as written is found as the notation reads its words (ord_ctx_set_made:
 * a Krigsspil ranging at "SOENDRE JAEGERKORPS" with no map, an object's
 * name to an orderly of that day before it, is the unit; held since to the
 * core revision a game was made with, ORD_CORE_NAMES_KEYED).  A game made
 * since logs the revision it was made with (made_core=, canon.h): a
 * correction for the games made since it alone is gated on
 * ord_game_made_since_core(g, ITS_REVISION), never on made='s day.  The
 * marker changes nothing a phase resolves to: no revision for it. */
#define ORD_CORE_REVISION "2026-12-07.1"

/* The dice of a phase. */
struct ord_phase_dice {
	int fixed_game; /* a fixed-dice test game: faces from fixed, in order */
	const int *fixed;
	size_t nfixed;
	const unsigned char *key; /* otherwise: the phase's dice key (NULL: none yet) */
	/* a roll an event asks for is keyed by what the event names (its
	 * kind, its units, and how many standing events before it of the
	 * phase name the same), not by its number: the games whose log says
	 * dice=events (made since 2026-12-06), so that neither
	 * the order of the events nor a void and the same event recorded
	 * again draws other dice (docs/threat-model.md, "The dice") */
	int by_events;
};

/*
 * Run phase (1-based index) of ctx's turn through the ruleset.  ctx holds
 * the units as they stand before the phase, the sealed orders and the
 * phase's events; afterwards its rolls, results and changed unit states
 * are the phase's rows.  A fixed-dice phase must use every face it was
 * given (ORD_EUSAGE).
 */
int ord_phase_run(struct ord_ctx *ctx, const char *phase, const struct ord_phase_dice *dice);

/* The digest of a run phase's rows, as the "resolve" entry logs it, and the
 * number of rolls, results and unit states. */
void ord_phase_digest(struct ord_ctx *ctx, int turn, int index, unsigned char out[32], int *nrolls,
		      int *nresults, int *nstates);

/* The rolls, results and unit states a "resolve" entry counts. */
struct ord_phase_rows {
	long rolls, results, states;
};

/*
 * The digest of the rows of record r that log entry seq vouches for (its
 * rolls, results and unit states, in the record's order), which is the
 * digest its "resolve" entry logs when they are the rows the phase wrote
 * (ord_phase_digest), and their numbers in n.  The verifier's replay
 * holds every resolve entry to it; the game holds the turn's last one to
 * it before the next phase and the exchange (game_phases.c), from a
 * record of that entry's rows only (ord_store_record_load_entry).
 */
void ord_phase_rows_digest(const struct ord_record *r, int64_t seq, unsigned char out[32],
			   struct ord_phase_rows *n);

/* 1 when the rows of r that entry seq vouches for give the digest and the
 * numbers its body (a "resolve" entry's) logs, else 0; found and logged
 * (either may be NULL) get the numbers of each (-1 for one the body does
 * not give). */
int ord_phase_rows_agree(const struct ord_record *r, int64_t seq, const char *body,
			 struct ord_phase_rows *found, struct ord_phase_rows *logged);
/* ord_phase_rows_agree of rows already digested (h) and counted (n), as
 * the replay digests a phase's rows while it compares them. */
int ord_phase_rows_match(const unsigned char h[32], const struct ord_phase_rows *n,
			 const char *body, struct ord_phase_rows *logged);

/* The core's checks of an event's key=value arguments before the ruleset
 * sees them: known keys of the right types and ranges, defaults filled in
 * (ord_keys_check), every unit named a unit of the game, written by its id
 * whatever the referee typed.  ORD_EUSAGE with the problems in diag. */
int ord_phase_event_args(struct ord_ctx *ctx, const struct ord_event_kind *ek, int argc,
			 char *const *argv, struct ord_kv *out, struct ord_diag *diag);
/* The same, each problem of an argument at its column cols[i] (a line of
 * an event file), when cols is not NULL. */
int ord_phase_event_args_at(struct ord_ctx *ctx, const struct ord_event_kind *ek, int argc,
			    char *const *argv, const unsigned *cols, struct ord_kv *out,
			    struct ord_diag *diag);

/* The keys the ruleset fills (its event_defaults, version 6) that the
 * referee left out of argv, when an event is recorded: out, which
 * ord_phase_event_args filled from argv, is made again with them in their
 * key specs' places, as the specs' defaults are (a game made before a
 * key lost its def stores the event as it always did).  Not for a
 * replay, which takes an event's arguments as stored.  0, or ORD_EUSAGE
 * with the problems in diag (the module's failure, or a value it fills
 * that the specs refuse, among them). */
int ord_phase_event_defaults(struct ord_ctx *ctx, const struct ord_event_kind *ek, int argc,
			     char *const *argv, struct ord_kv *out, struct ord_diag *diag);
/* The same, the module's failure at the column cols[i] of the argument it
 * names (ruleset.h, event_defaults), when cols is not NULL. */
int ord_phase_event_defaults_at(struct ord_ctx *ctx, const struct ord_event_kind *ek, int argc,
				char *const *argv, const unsigned *cols, struct ord_kv *out,
				struct ord_diag *diag);
/* Does the ruleset's event_defaults refuse an event of kind ek with the
 * arguments args, as stored (what the event's replay asks, the ctx as it
 * was when the event was recorded)?  1 with the refusal's message in why:
 * an event the rules refuse whatever the override (one that cannot
 * happen), which no orderly records; 0 when it takes it (the keys it
 * would fill are let go: a stored event keeps its own). */
int ord_phase_event_refused(struct ord_ctx *ctx, const struct ord_event_kind *ek,
			    const struct ord_kv *args, struct ord_buf *why);

/* Check event ev (the last added to ctx) against the sealed orders and the
 * units' state with the ruleset's check_event: the number of problems, and
 * their one-line summary in checks (what the event row and log keep). */
size_t ord_phase_check_event(struct ord_ctx *ctx, const struct ord_event *ev,
			     struct ord_buf *checks, struct ord_diag *diag);

/* Check every event of ctx again, in order, each against the events before
 * it, as it was checked when it was recorded, now that some are voided: an
 * event the checks let pass only because of one voided since (a flight
 * taken for a melee's) breaks the orders now.  The number of the first
 * that does, without the referee's override or with one whose checks did
 * not say this problem (its event numbers aside), its kind and what the
 * checks say now in why ("flugt: unit 'L5': ..."); 0 when none does.  ctx
 * holds the same events, in the same order, after it. */
unsigned ord_phase_recheck_events(struct ord_ctx *ctx, struct ord_buf *why);

/* The 1-based index of the phase a person named: its id, or the id as the
 * rules write it ("angrebserklæring", "fredelige flytninger": case,
 * spaces and the Danish letters folded to the id's ASCII); 0 when none.
 * The list of ids, "a, b, c", goes to list when given. */
int ord_phase_named(const struct ord_ruleset *rs, const char *given, struct ord_buf *list);
/* Does the game's ruleset hold its events to the orders again after a
 * void (ord_phase_recheck_events)?  The switch void_recheck of the tables
 * the game keeps: a game made before it voids and replays as it did. */
int ord_phase_void_recheck(const struct ord_ruleset *rs, struct ord_rules *rules);
/* Does the replay hold each event to what the ruleset refuses whatever
 * the override (ord_phase_event_refused)?  The switch impossible_replayed
 * of the tables the game keeps: such an event is refused as it is
 * recorded whatever the tables, but a game made before the switch may
 * hold one an orderly of then recorded with an override, and replays as
 * it did. */
int ord_phase_impossible_replayed(const struct ord_ruleset *rs, struct ord_rules *rules);

/* The digest of the events of a phase now in ctx (the "close" entry). */
void ord_phase_events_digest(struct ord_ctx *ctx, unsigned char out[32]);

/* The digest of every unit's state in ctx, in unit order (the "open" entry's
 * state_root). */
void ord_phase_state_root(struct ord_ctx *ctx, unsigned char out[32]);

/* The text a stand-in sheet holds when a side sent none and its units hold. */
void ord_phase_hold_text(struct ord_buf *out, const char *side, int turn, const char *policy);

/* Checks the bytes of a sheet for the side a stand-in is for: 0 when they
 * are valid, else nonzero with the problems in d at their sheet lines. */
typedef int (*ord_phase_sheet_check)(void *ud, const char *bytes, size_t len, struct ord_diag *d);

/*
 * The stand-in of the NMR policy "repeat" for side, which sent no sheet of
 * turn, from the sheet it sealed the turn before (prev, not blank): what
 * the seal stores and the verifier's replay recomputes.  Returns 1 with the
 * stand-in appended to out when orders are repeated: prev itself when
 * check finds it valid; else, when per_order (a game whose log says
 * nmr_repeat=orders), prev with each line check finds a problem on made a
 * comment ("# held (not valid now): " and the line), checked again until
 * it is valid, and a comment line at the end counting them: their units
 * hold.  Returns 0 when the side holds instead: prev not valid and not
 * per_order, a problem at no line, or no order left.  why (NULL: not
 * wanted) gets, a line each ('\n'-joined to what it holds), "SIDE holds:
 * its sheet of turn N is not valid now: ..." with the first problem, or
 * per order held "SIDE repeats its sheet of turn N but UNIT holds: ...".
 * Only which lines failed goes into the stand-in, never a message: the
 * seal's check (the side's units) and the replay's (every unit) agree on
 * what is valid, and a stand-in's bytes are held to the byte.
 */
int ord_phase_repeat(struct ord_buf *out, struct ord_buf *why, const struct ord_notation *nt,
		     const char *side, int turn, const char *prev, size_t len, int per_order,
		     ord_phase_sheet_check check, void *ud);

#endif
