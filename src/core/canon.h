/*
 * canon.h - the canonical text of the log entries (log protocol 2): written
 * when a row is stored, rebuilt by the verifier from the game file or from
 * a bundle.  One function per kind, so that they can never disagree on a
 * byte.
 *
 * A body is "key=value\n" lines.  Keys are fixed names (a-z, 0-9, '_', '.',
 * '-'); values are escaped so that no value can end its line or pass for
 * another field: '\\' is written "\\\\", a newline "\\n", a carriage return
 * "\\r" and any other byte below 0x20 but the tab "\\xHH".  ord_canon_get
 * undoes it.
 */
#ifndef ORD_CANON_H
#define ORD_CANON_H

#include "core/common.h"

/* The log protocol of games this build makes; older ones are refused. */
#define ORD_LOG_PROTOCOL 2

/* One line: key=escaped value. */
void ord_canon_put(struct ord_buf *out, const char *key, const char *value);
void ord_canon_putf(struct ord_buf *out, const char *key, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
void ord_canon_put_hex(struct ord_buf *out, const char *key, const unsigned char *p, size_t n);
/* The value of key in a body, unescaped (malloc'd), or NULL. */
char *ord_canon_get(const char *body, const char *key);

/* What the game is: logged at its creation and again when each turn opens,
 * so that every turn's bundle says it and audit compares the live rows. */
struct ord_canon_config {
	const char *ruleset;        /* the module's name */
	const char *nmr;            /* hold | repeat | wait */
	int repeat_orders;          /* "repeat" repeats each order still valid (nmr_repeat=orders,
				     * games made since 2026-12); absent: the whole sheet or none */
	int fixed_dice;             /* a test game: dice given to resolve */
	int refereeless;            /* sides commit first and open after the seal */
	int witnessed;              /* sides reveal a witness link per phase */
	int dice_by_events;         /* a roll keyed by what its event names, not its number */
	const char *made;           /* made=DATE: the orderly that made the game, at or after
				     * ORD_GAME_MADE (its checks below); NULL in a game made
				     * before, which logs none */
	const char *made_core;      /* made_core=REVISION: the core revision (ORD_CORE_REVISION)
				     * of the orderly that made it, ORD_GAME_MADE_CORE or later;
				     * NULL in a game made before the marker */
	const char *made_rules;     /* made_rules=REVISION: its module's rules revision then;
				     * NULL before the marker, or of a module that names none */
	unsigned char scenario[32]; /* BLAKE2b-256 of the scenario file as stored */
	unsigned char tables[32];   /* BLAKE2b-256 of the tables in force */
	unsigned char key[32];      /* the game's public key */
};
/* What a game made since names itself by (made=2026-12-07): the front
 * door refused an order's words holding a character a reader does not see
 * (attack 43), and every turn's opening logs the roster's roots,
 * sides_root and units_root (attack 34).  So a sealed sheet holding such
 * words, or an opening without the roots, in a game that says it was
 * made so was stored by other means.  And a game made so finds a unit's
 * name that no unit has as written as its notation reads its words
 * (ord_ctx_set_made: "Soendre Jaegerkorps" for "Søndre Jægerkorps"),
 * which a game made before refuses (held since to the core revision a
 * game was made with: below).  The checks of a game's age above compare
 * the date (ord_canon_made_since); a later change of what a phase
 * resolves to compares the core revision (ord_canon_made_since_core). */
#define ORD_GAME_MADE "2026-12-07"
/* 1 when c's game says it was made by an orderly of date or later. */
int ord_canon_made_since(const struct ord_canon_config *c, const char *date);
/*
 * made= is a day, and two builds of one day may read a game otherwise
 * (ae6f373: a Krigsspil unit's name read as the notation reads its words,
 * gated on made=2026-12-07, which this morning's builds wrote too).  So a
 * game made since ORD_GAME_MADE_CORE also logs, in its creation and every
 * opening beside made=, the core revision it was made with (made_core=,
 * ORD_CORE_REVISION) and its module's rules revision (made_rules=), and a
 * change gated on the game's age compares that revision
 * (ord_canon_made_since_core): a game made by an orderly of that revision
 * or later reads the new way.  A game that logs no made_core= was made
 * before it: it keeps the day rule for the revisions up to
 * ORD_GAME_MADE_CORE (made= of 2026-12-07, whichever build of the day made
 * it, reads as 2026-12-07.1: as every orderly since ae6f373 read it), and
 * is made before every later one.  A made_core= before ORD_GAME_MADE_CORE,
 * one that is no revision, one without made=, a made_rules= that is no
 * word (ord_canon_rules_word) and one without made_core= are no orderly's
 * (ord_canon_config_read refuses them).
 */
#define ORD_GAME_MADE_CORE "2026-12-07.1"
/* 1 when c's game was made by an orderly of core revision rev or later,
 * as above. */
int ord_canon_made_since_core(const struct ord_canon_config *c, const char *rev);
/* The same of a game's made= and made_core= as it holds them (NULL:
 * none logged): the one place that decides it. */
int ord_canon_made_since_core_of(const char *made, const char *made_core, const char *rev);
/* A revision "YYYY-MM-DD.N" (a core's, a module's rules') against another:
 * 0 and *cmp (<0, 0, >0) when both read so (N a long: 30 characters at
 * the most), else -1. */
int ord_canon_revision_cmp(const char *a, const char *b, int *cmp);
/* 1 when v is a rules revision as a module may name it (ruleset.h: a
 * word, "2026-12-07.2", the template's "1"), of at most 31 characters a
 * reader sees: what made_rules= may hold. */
int ord_canon_rules_word(const char *v);
/* The same of a game's made= as it holds it (NULL: a game made before,
 * which logs none), or of the day an entry made with the game is dated
 * (YYYY-MM-DD): the one place that decides "made since" (the seal's
 * second, the verifier's checks by the game's age). */
int ord_canon_made_since_day(const char *made, const char *date);
/* The config of body (a "create" or "open" entry); ORD_EBADDATA if a field
 * is missing.  The strings are malloc'd: ord_canon_config_release. */
int ord_canon_config_read(struct ord_canon_config *out, const char *body);
void ord_canon_config_release(struct ord_canon_config *c);
/* 0 when a and b are the same game; else the name of the first field that
 * differs. */
const char *ord_canon_config_diff(const struct ord_canon_config *a, const struct ord_canon_config *b);

/* "create" (turn 0): the game made. */
void ord_canon_create(struct ord_buf *out, const unsigned char game_id[16], const char *title,
		      const struct ord_canon_config *c);
/* "open": a turn opens.  Its seed committed; the game as it is; every
 * unit's state digested (units, state_root); the roster digested
 * (sides_root, units_root: ord_digest_side, ord_digest_roster_unit; NULL,
 * as an orderly before them wrote it, for none); for each side the hash of
 * the sheet it had sealed the turn before (last.SIDE, "none" in turn 1). */
struct ord_canon_last {
	const char *side;
	int have;                /* 0: the side sealed nothing (turn 1) */
	unsigned char bytes[32]; /* ord_hash_bytes of its sealed sheet */
};
void ord_canon_open(struct ord_buf *out, int turn, const unsigned char seed_commitment[32],
		    const struct ord_canon_config *c, size_t nunits,
		    const unsigned char state_root[32], const unsigned char *sides_root,
		    const unsigned char *units_root, const struct ord_canon_last *last, size_t nlast);
/* "exchange": the turn's seed revealed (and, witnessed, the referee's
 * witness start: NULL when not witnessed). */
void ord_canon_exchange(struct ord_buf *out, int turn, const unsigned char seed[32],
			const unsigned char *referee_witness);
/* "sheet": a sheet stored (signature, witness NULL when none). */
void ord_canon_sheet(struct ord_buf *out, const char *side, int version, const char *source,
		     const unsigned char commitment[32], const unsigned char *signature,
		     const unsigned char *witness);
/* "commit": a referee-less side's signed commitment, before its sheet. */
void ord_canon_commit(struct ord_buf *out, const char *side, int version,
		      const unsigned char commitment[32], const unsigned char signature[64]);
/* "opening": the sheet of a commitment, opened after the seal. */
void ord_canon_opening(struct ord_buf *out, const char *side, int version,
		       const unsigned char commitment[32]);
/* "seal": per side the version and commitment sealed; the sides the NMR
 * policy stood in for; witnessed, the referee's chain top (else NULL). */
struct ord_canon_sealed {
	const char *side;
	int version; /* 0: none (a referee-less side that never committed) */
	unsigned char commitment[32];
};
/* The version and commitment the seal's entry body took for side (its
 * "sealed.SIDE=V:HEX" line, as ord_canon_seal writes it): 1, or 0 when it
 * names none. */
int ord_canon_sealed_get(const char *body, const char *side, int *version,
			 unsigned char commitment[32]);
/* 1 when the seal's entry body takes a sheet of that commitment for a side,
 * else 0. */
int ord_canon_seal_takes(const char *body, const unsigned char commitment[32]);
/* "seal".  sheets_checked: the seal checked every side's last sheet again
 * against the units it holds (ord_game_live_sheets_valid), which the
 * verifier then does too; a seal of an orderly before says nothing. */
void ord_canon_seal(struct ord_buf *out, int turn, int forced, const struct ord_canon_sealed *s,
		    size_t n, const char *held, const unsigned char *referee_top, int sheets_checked);
/* "event": a referee event (override NULL when none).  args: "k=v\n" lines. */
void ord_canon_event(struct ord_buf *out, unsigned seq, const char *phase, const char *kind,
		     const char *args, const char *override, const char *checks);
/* "void": event seq of turn voided before its phase was resolved. */
void ord_canon_void(struct ord_buf *out, int turn, unsigned seq, const char *reason);
/* "close" (witnessed games): no more events for phase index (1-based);
 * blind (NULL: none, a close of an orderly before attack 49) the turn
 * seed's (ord_close_blind). */
void ord_canon_close(struct ord_buf *out, int turn, int index, const char *phase,
		     const unsigned char events[32], const unsigned char *blind);
/* "witness": a side's link revealed for phase index; blind (NULL: none,
 * an entry of an orderly before hsecr11) the turn seed's (ord_link_blind). */
void ord_canon_witness(struct ord_buf *out, int turn, int index, const char *side,
		       const unsigned char link[32], const unsigned char *blind);
/* "resolve": a phase resolved.  state_root: the digest of every unit's
 * state as the phase left it (ord_phase_state_root; NULL: not named,
 * entries before 2026-12-07 name none), which the next phase and the
 * exchange hold the units to; stood_in: the sides whose witness link the
 * referee's stood in for ("" when none or not witnessed); core and rules:
 * the revisions of the core and of the module that resolved it (NULL: not
 * named; entries before 2026-12-02 name neither). */
void ord_canon_resolve(struct ord_buf *out, int turn, const char *phase, int index, int nrolls,
		       int nresults, int nstates, const unsigned char digest[32],
		       const unsigned char *state_root, const char *stood_in, const char *core,
		       const char *rules);
/* "deadline": the turn's deadline set (0: cleared). */
void ord_canon_deadline(struct ord_buf *out, int turn, int64_t when);

#endif
