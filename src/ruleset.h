/*
 * ruleset.h - the versioned ruleset module interface.
 *
 * A ruleset module knows one set of rules: which attributes a unit carries,
 * which orders a sheet may give, which events the referee records in each
 * phase, and how a phase is resolved with the rules' tables and dice.  It
 * never touches SQL or the filesystem: everything comes through struct
 * ord_ctx, which the core builds from the game file.
 *
 * Like sqlite3_module (sqlite3.h owns it; SQLite checks iVersion >= N before
 * calling a method added in version N), this header belongs to liborderly,
 * includes nothing internal, and is all a module needs (with notation.h and
 * tables.h).  The struct starts with the version the module was built
 * against; slots are only ever appended, under a comment marking the
 * version boundary, and the core checks rs->version >= N before it calls a
 * slot of version N (ORD_RULESET_HAS).  So a module built against an older
 * header keeps working, and one built against a newer header is accepted
 * too (the slots this core does not know are simply not called).
 *
 * Registering: the built-in modules are listed in rulesets/builtin.c, which
 * every front-end calls once (ord_builtin_register); an external module is
 * a shared object ord_ruleset_<name>.so in a directory of
 * ORDERLY_RULESET_PATH exporting
 *     const struct ord_ruleset *ord_ruleset_<name>_init(unsigned int host_version);
 * (host_version is the core's ORD_RULESET_VERSION; a module may return
 * NULL to refuse a host too old for it).
 */
#ifndef ORD_RULESET_H
#define ORD_RULESET_H

#include "orderly.h"
#include "notation.h"

/* The version this header describes; the oldest a core accepts. */
#define ORD_RULESET_VERSION 2
#define ORD_RULESET_VERSION_MIN 1
/* Whether module rs has the slot of version v (call it only then). */
#define ORD_RULESET_HAS(rs, v) ((rs)->version >= (v))
/* Start a module's struct: .version set to the version it is built against. */
#define ORD_RULESET_INIT .version = ORD_RULESET_VERSION

struct ord_ctx;    /* what the core hands a module (opaque) */
struct ord_rules;  /* a module's loaded tables and data (opaque to the core) */
struct ord_canvas; /* a picture being drawn (canvas.h) */

/* Types of unit attributes and event keys; the core checks values against
 * them before a module ever sees them. */
enum ord_key_type {
	ORD_KEY_STR = 1, /* any text */
	ORD_KEY_INT,     /* integer within [min, max] */
	ORD_KEY_NUM,     /* decimal within [min, max] */
	ORD_KEY_BOOL,    /* yes/no */
	ORD_KEY_ENUM,    /* one of values, "a|b|c" */
	ORD_KEY_UNIT,    /* a unit id or name of the game */
};

struct ord_key_spec {
	const char *name; /* key, as written: range=4 */
	enum ord_key_type type;
	int required;       /* 1 if the key must be given */
	const char *values; /* ORD_KEY_ENUM: "a|b|c" */
	double min, max;    /* ORD_KEY_INT/NUM bounds (inclusive) */
	const char *def;    /* default when absent and not required, or NULL */
	const char *help;   /* one line for `orderly help event` */
};

/* An event the referee records: "fire unit=1st target=B4 range=3". */
struct ord_event_kind {
	const char *name;                /* "fire" */
	const char *phase;               /* the phase it belongs to */
	const struct ord_key_spec *keys; /* terminated by a zero entry */
	const char *help;
};

/* A unit as the core holds it for a module. */
struct ord_unit {
	char *id;            /* scenario id, unique in the game */
	char *name;          /* display name */
	char *side;          /* owning side */
	struct ord_kv attrs; /* scenario attributes (read-only for modules) */
	struct ord_kv state; /* mutable state; the core stores what changed */
};

/* An event as recorded in this turn. */
struct ord_event {
	unsigned seq; /* 1-based number within the turn */
	const char *phase;
	const char *kind;
	struct ord_kv kv;     /* checked arguments, defaults filled in */
	const char *override; /* the referee's reason, or NULL */
	const char *check;    /* what the checks said when entered, or "" */
};

/* What a picture is asked to show (the draw slot, version 2). */
struct ord_picture {
	const char *kind;         /* "map": the table at a phase; "chart": the story of the game */
	const char *game;         /* the game's title */
	int turn;                 /* map: the turn drawn; chart: the last turn */
	const char *phase;        /* map: the last phase resolved in the state drawn, "" at the
				 * turn's start; chart: "" */
	const char *turn_state;   /* the turn's: open sealed resolved exchanged */
	const char *lang;         /* the picture's words: "da" or "en" */
	const char *const *sides; /* the game's sides in the scenario's order (for colours) */
	const char *const *side_titles; /* their names, as the scenario gives them */
	size_t nsides;
};

struct ord_ruleset {
	unsigned int version;      /* ORD_RULESET_VERSION built against (ORD_RULESET_INIT) */
	const char *name;          /* "battalion" */
	const char *notation;      /* "hieroglyph" */
	const char *const *phases; /* NULL-terminated, in turn order */
	const struct ord_key_spec *unit_attrs; /* scenario unit attributes, zero-terminated */
	const struct ord_event_kind *events;   /* NULL-name terminated */
	const char *tables_resource;           /* embedded default tables, or NULL */

	/* Load tables from an XML document (len bytes; name for messages). */
	int (*load)(struct ord_rules **out, const char *xml, size_t len, const char *name);
	void (*free)(struct ord_rules *rules);
	/* Fill a new unit's initial state from its attributes. */
	int (*init_unit)(struct ord_rules *rules, struct ord_unit *u, struct ord_diag *diag);
	/* Check a parsed sheet of side ord_ctx_side(ctx) against the rules. */
	int (*validate_sheet)(struct ord_ctx *ctx, const struct ord_sheet *sheet,
			      struct ord_diag *diag);
	/* Check one event against the sealed orders and the units' state;
	 * return 0 if it agrees, ORD_ECHECK with reasons in diag if not. */
	int (*check_event)(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_diag *diag);
	/* Resolve a phase: read its events, roll, read tables, add results, change state. */
	int (*resolve_phase)(struct ord_ctx *ctx, const char *phase);
	/* After the exchange: every place where what was done differs from the orders. */
	int (*check_execution)(struct ord_ctx *ctx, struct ord_diag *diag);
	/* A unit as viewer_side may see it (NULL: the referee sees everything). */
	int (*describe_unit)(struct ord_ctx *ctx, const struct ord_unit *u, const char *viewer_side,
			     struct ord_buf *out);
	/* The calculator: `orderly calc NAME WHAT key=value...`. */
	int (*calc)(struct ord_rules *rules, const char *what, const struct ord_kv *args,
		    const int *dice, size_t ndice, int xml, struct ord_buf *out);
	/* Print the tables (all when table is NULL). */
	int (*print_tables)(struct ord_rules *rules, const char *table, struct ord_buf *out);
	/* version 1 ends here */

	/* version 2 */
	/* Draw a picture (what->kind) on cv, an empty canvas, as viewer_side
	 * may see it (NULL: the referee).  The core has already applied the
	 * fog of war (the rule of the reports): ctx holds only the units the
	 * viewer may see, with their state at what->phase, the events, orders
	 * and results of the turn he may see, and the steps of the story
	 * (ord_ctx_nsteps).  May be NULL.  Returns ORD_ENOTFOUND when the
	 * module draws no such picture, ORD_ESTATE when the game lacks what it
	 * needs (positions for a map). */
	int (*draw)(struct ord_ctx *ctx, const char *viewer_side, struct ord_canvas *cv,
		    const struct ord_picture *what);
	/* version 2 ends here */
};

/* The registry (the core's): modules registered by the front-end
 * (ord_builtin_register), then ORDERLY_RULESET_PATH.  Registering a module
 * of a version older than ORD_RULESET_VERSION_MIN, or a second module of
 * the same name, is refused (ORD_EVERSION, ORD_EEXISTS). */
int ord_ruleset_register(const struct ord_ruleset *rs);
/* Find a ruleset by name.  Returns ORD_ENOTFOUND or ORD_EVERSION with a
 * message. */
int ord_ruleset_find(const struct ord_ruleset **out, const char *name);
/* "a, b, c": the names of the registered rulesets. */
void ord_ruleset_names(struct ord_buf *out);
/* Load a ruleset's tables: from tables_path, or its embedded default. */
int ord_ruleset_load_tables(struct ord_rules **out, const struct ord_ruleset *rs,
			    const char *tables_path);
/* The event kind of a ruleset by name, or NULL. */
const struct ord_event_kind *ord_ruleset_event_kind(const struct ord_ruleset *rs, const char *name);
/* Check key=value arguments against specs: unknown keys, types, ranges,
 * required keys; fill defaults.  Errors name the key and what is allowed. */
int ord_keys_check(struct ord_kv *out, const struct ord_key_spec *specs, int argc,
		   char *const *argv, struct ord_diag *diag);
/* The same for one already-split value (scenario attributes). */
int ord_key_check_value(const struct ord_key_spec *spec, const char *value, struct ord_buf *why);

/* ---- what a module may use of the game (implemented by the core) ---- */

struct ord_rules *ord_ctx_rules(struct ord_ctx *ctx);
int ord_ctx_turn(struct ord_ctx *ctx);
/* The side whose sheet is being validated (validate_sheet only), else NULL. */
const char *ord_ctx_side(struct ord_ctx *ctx);
size_t ord_ctx_nunits(struct ord_ctx *ctx);
struct ord_unit *ord_ctx_unit(struct ord_ctx *ctx, size_t i);
/* The index of a unit (0 .. ord_ctx_nunits - 1). */
size_t ord_ctx_unit_index(struct ord_ctx *ctx, const struct ord_unit *u);
/* Find a unit by id, else by name (case-insensitive); NULL if none. */
struct ord_unit *ord_ctx_find_unit(struct ord_ctx *ctx, const char *id_or_name);
/* The sealed order of a unit this turn, NULL if it has none. */
const struct ord_order *ord_ctx_order(struct ord_ctx *ctx, const struct ord_unit *u);
/* Events of the phase being resolved (all events of the turn in check_execution). */
size_t ord_ctx_nevents(struct ord_ctx *ctx);
const struct ord_event *ord_ctx_event(struct ord_ctx *ctx, size_t i);
/* Roll a die of `sides` faces identified by (purpose, event, index): the
 * same identity always gives the same face in a turn. */
int ord_ctx_roll(struct ord_ctx *ctx, int *out, unsigned sides, const char *purpose,
		 unsigned event_seq, unsigned index);
/* Record a result (values may be NULL) with its explanation. */
int ord_ctx_result(struct ord_ctx *ctx, unsigned event_seq, const char *unit_id,
		   const struct ord_kv *values, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 5, 6)))
#endif
	;
/* Record a result with its explanation in several languages: texts maps a
 * language ("da", "en") to the text; the first is the ruleset's own.  A
 * front-end shows the one its user asks for. */
int ord_ctx_result_texts(struct ord_ctx *ctx, unsigned event_seq, const char *unit_id,
			 const struct ord_kv *values, const struct ord_kv *texts);

/* ---- what a picture may use (draw, version 2) ---- */

/* The steps of the story the picture covers, in order: for a map, the
 * start of its turn and each phase resolved up to the one drawn; for a
 * chart, the start of the game and every phase resolved since. */
size_t ord_ctx_nsteps(struct ord_ctx *ctx);
/* Step i: its turn and phase ("" for the start of the turn). */
int ord_ctx_step(struct ord_ctx *ctx, size_t i, int *turn, const char **phase);
/* Unit u's state at step i, or NULL when the viewer did not see it then. */
const struct ord_kv *ord_ctx_step_state(struct ord_ctx *ctx, size_t i, const struct ord_unit *u);
/* A result recorded when a phase was resolved (pointers live as long as ctx). */
struct ord_result_view {
	const char *phase;
	unsigned event_seq; /* the event it answers, 0 for none */
	const char *unit;   /* the unit it concerns */
	const struct ord_kv *values;
	const char *explanation;
};
/* The results the viewer may see (of the phases drawn). */
size_t ord_ctx_nresults(struct ord_ctx *ctx);
int ord_ctx_result_get(struct ord_ctx *ctx, size_t i, struct ord_result_view *out);

/* For modules' own unit tests: a context with no database (tests/unit). */
struct ord_ctx *ord_ctx_fake_new(const struct ord_ruleset *rs, struct ord_rules *rules, int turn);
void ord_ctx_fake_free(struct ord_ctx *ctx);
struct ord_unit *ord_ctx_fake_add_unit(struct ord_ctx *ctx, const char *id, const char *name,
				       const char *side);
void ord_ctx_fake_set_side(struct ord_ctx *ctx, const char *side);
void ord_ctx_fake_set_order(struct ord_ctx *ctx, const struct ord_unit *u, const struct ord_order *o);
void ord_ctx_fake_add_event(struct ord_ctx *ctx, const char *phase, const char *kind,
			    const struct ord_kv *kv);
void ord_ctx_fake_set_dice(struct ord_ctx *ctx, const int *dice, size_t n);
/* The results recorded so far, one "unit: explanation" line each. */
const char *ord_ctx_fake_results(struct ord_ctx *ctx);

#endif
