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
 * NULL to refuse a host too old for it).  rulesets/template/ is such a
 * module, written to be copied: it uses every slot and every service below.
 *
 * Versions: 1, the slots up to print_tables; 2, state_keys (a unit's state
 * declared and checked, ord_state_*), languages, draw and tables_data; 3,
 * complete_tables (the document a new game keeps holds every table); 4,
 * rules_revision (the log names the rules each phase was resolved by); 5,
 * tables (a document a user hands in is checked against the module's own);
 * 6, event_defaults (a key an event leaves out, filled from the game); 7,
 * show_result (a result as a side's report shows it: the fog of war); 8,
 * create_notes (what the referee should hear of a game as it is made); 9,
 * order_events (the events a unit's sealed order still waits for, which
 * keep its phase from being resolved empty by mistake); 10, event_help
 * (the help of event kinds and their keys in the module's languages); 11,
 * words_resource (the words a report is framed in, in the module's
 * languages); 12, messages (the module's messages that its words_resource
 * says in its other languages: the referee's list of orders no event
 * carries out yet).
 */
#ifndef ORD_RULESET_H
#define ORD_RULESET_H

#include "orderly.h"
#include "notation.h"

struct ord_tables; /* tables.h */

/* The version this header describes; the oldest a core accepts. */
#define ORD_RULESET_VERSION 12
#define ORD_RULESET_VERSION_MIN 1
/* Whether module rs has the slot of version v (call it only then). */
#define ORD_RULESET_HAS(rs, v) ((rs)->version >= (v))
/* Start a module's struct: .version set to the version it is built against. */
#define ORD_RULESET_INIT .version = ORD_RULESET_VERSION

/* One message of a module's catalogue (the messages slot, version 12). */
struct ord_message {
	const char *id; /* stable, ASCII: "ks.pending.move" */
	const char *en; /* its English, the format its ord_diag_add_id writes */
};

struct ord_ctx;         /* what the core hands a module (opaque) */
struct ord_result_view; /* a result as stored (below) */
struct ord_rules;       /* a module's loaded tables and data (opaque to the core) */
struct ord_canvas;      /* a picture being drawn (canvas.h) */

/* Types of unit attributes and event keys; the core checks values against
 * them before a module ever sees them. */
enum ord_key_type {
	ORD_KEY_STR = 1, /* any text */
	ORD_KEY_INT,     /* integer within [min, max] */
	ORD_KEY_NUM,     /* decimal within [min, max] */
	ORD_KEY_BOOL,    /* yes/no */
	ORD_KEY_ENUM,    /* one of values, "a|b|c" */
	ORD_KEY_UNIT,    /* a unit id or name of the game (a unit attribute's
			    is looked up among the scenario's units at load) */
	ORD_KEY_WORD,    /* one of the values a table lists: values = "table.attr"
			    (checked where the tables are at hand, in the
			    calculator; elsewhere it is checked as text) */
};
/* A max at or above this is no bound of the rules' own: a calculator's
 * messages then say "0 or more" rather than "0 to 1000000". */
#define ORD_KEY_MANY 100000.0

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

/* A key of a unit's state as a module declares it (its state_keys). */
struct ord_state_key {
	const char *name;       /* "figures" */
	enum ord_key_type type; /* ORD_KEY_INT, ORD_KEY_NUM or ORD_KEY_STR */
	const char *def;        /* what a unit that has no value holds ("0", ""); NULL: "0",
				   or "" for ORD_KEY_STR */
	const char *help;       /* what it holds */
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
	/* Every unit of the game as the scenario sets it up, whatever the
	 * viewer sees (every player holds the scenario): id, name, side and
	 * attributes, the state empty, in the scenario's order.  For what a
	 * picture must draw alike for every viewer (Krigsspil: an order's
	 * "↑", towards the enemy), never to draw a unit the context does not
	 * hold: what a viewer saw is the context's (the fog). */
	const struct ord_unit *setup;
	size_t nsetup;
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
	/* Fill a new unit's initial state from its attributes.  A unit the
	 * rules refuse: ORD_EBADDATA, each problem in diag, added with
	 * ord_diag_add_attr naming the attribute at fault, so that `new` names
	 * its place in the scenario (line and column). */
	int (*init_unit)(struct ord_rules *rules, struct ord_unit *u, struct ord_diag *diag);
	/* Check a parsed sheet of side ord_ctx_side(ctx) against the rules.
	 * ctx holds the side's units and the units the sheet names (a
	 * submit's), or every unit of the game (the seal's check of every
	 * sheet again, and the audit's): the check must say the same of a
	 * sheet in either, finding units by ord_ctx_find_unit and walking
	 * the units only for the side's own (ord_ctx_unit, their side
	 * compared), and must not change a unit's state. */
	int (*validate_sheet)(struct ord_ctx *ctx, const struct ord_sheet *sheet,
			      struct ord_diag *diag);
	/* Check one event against the sealed orders and the units' state;
	 * return 0 if it agrees, ORD_ECHECK with reasons in diag if not. */
	int (*check_event)(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_diag *diag);
	/* Resolve a phase: read its events, roll, read tables, add results, change state. */
	int (*resolve_phase)(struct ord_ctx *ctx, const char *phase);
	/* After the exchange: every place where what was done differs from the
	 * orders.  A problem of an order no event carries out yet names the
	 * kind of event that would (ord_diag_item_kind, as order_events names
	 * it), which the referee's report's <pending> carries. */
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
	/* The keys of a unit's state, terminated by a NULL name (NULL: the
	 * module keeps no state): the module reads and writes state only
	 * through ord_state_* (below), which refuse a key not declared here. */
	const struct ord_state_key *state_keys;
	/* The languages the module writes its texts in (results, reports),
	 * NULL-terminated, its own first ({"da", "en"}); NULL: English only.
	 * A front-end offers these (report --lang) and shows the first unless
	 * asked for another. */
	const char *const *languages;
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
	/* An external module's own tables, compiled into it (NUL-terminated
	 * XML, *tables_len bytes), when it has no tables_resource: the core
	 * copies them into every game made with the module, as it copies a
	 * built-in module's, so that the game's replay never depends on the
	 * module's copy of later versions.  NULL: the module has none. */
	const unsigned char *tables_data;
	const size_t *tables_len;
	/* version 2 ends here */

	/* version 3 */
	/* The document a new game keeps, given the one `orderly new --tables`
	 * read (xml, len bytes; name for messages), which load has accepted:
	 * a module whose document may leave some of its numbers to the tables
	 * built into it (a map without a Skema of its own) writes those into
	 * out, so that the game's replay never depends on the built-in copy
	 * of a later version.  Leaves out empty when the document is whole.
	 * NULL: every document is whole. */
	int (*complete_tables)(const char *xml, size_t len, const char *name, struct ord_buf *out);
	/* version 3 ends here */

	/* version 4 */
	/* The revision of the module's rules: a word ("2026-12-02") that
	 * changes whenever a correction changes what a check, a table's
	 * reading or a phase resolves to.  Each phase's "resolve" entry logs
	 * it, so that an audit by a later orderly can say which differences
	 * may be corrections rather than cheats.  NULL: the module names none. */
	const char *rules_revision;
	/* version 4 ends here */

	/* version 5 */
	/* The tables document rules were loaded from (a Krigsspil map's own
	 * Skema, or the built-in one it falls back on), for the core's checks
	 * of a document a user hands in (ord_ruleset_check_given): a table
	 * or parameter the module's own document does not have, a case two
	 * rows give.  NULL: such a
	 * document is not checked beyond load. */
	const struct ord_tables *(*tables)(struct ord_rules *rules);
	/* version 5 ends here */

	/* version 6 */
	/* The keys of an event the referee left out whose default the game
	 * gives rather than the kind's key spec (a spec with no def): its
	 * tables, the sealed sheets, the units' state.  ev holds the
	 * arguments as the core checked them, with the defaults the specs
	 * give; the module sets in out each key of ev's kind it fills (one ev
	 * has not, of no def), with a value the spec accepts.  The core
	 * stores the event with them, each in its spec's place as a def is
	 * stored, so that a stored event says what it is resolved with (a
	 * key that once had a def keeps being stored as it always was: a game
	 * made before replays its events by an orderly of then).  Called
	 * when an event is recorded; an event replays with the arguments it
	 * was stored with.  0, or an ORD_E*
	 * code with the message set: the event's arguments are refused, not
	 * by an override (a value no key spec can say is wrong, Krigsspil's
	 * modifier flag no table names, an event that cannot happen).  The
	 * replay of a game whose tables have the switch impossible_replayed
	 * on asks it too, of each event as stored (ev holds its keys, filled
	 * ones among them; what it sets in out is let go), and fails one it
	 * refuses: no orderly records it, override or not.  So a refusal
	 * reads only what the replay holds as the recording did (the units,
	 * their state as the phase began, the sealed orders, the events
	 * before it), and a module that refuses anew what it took before
	 * puts that behind a switch of its own.  The refusal is put at the event's
	 * place in an events file, or at the argument (and the word of it)
	 * the module names with ord_ctx_refuse_arg before it returns.  NULL:
	 * every default is the spec's. */
	int (*event_defaults)(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_kv *out);
	/* version 6 ends here */

	/* version 7 */
	/* A result as viewer_side's report shows it, when the words the
	 * phase wrote for the referee say more of an enemy unit than
	 * describe_unit tells the side (battalion: a battalion's figures,
	 * which the enemy sees as trays): r is the result as stored, its
	 * explanation in the report's language; ctx holds the report's
	 * units and the turn's events.  Write the words to show into out,
	 * or leave out empty to show the result's own.  Only the report
	 * changes: the stored result, which the audit replays and digests,
	 * stays the phase's.  Called for a side only (the referee reads
	 * every result as stored).  NULL: every result as stored. */
	void (*show_result)(struct ord_ctx *ctx, const struct ord_result_view *r,
			    const char *viewer_side, struct ord_buf *out);
	/* version 7 ends here */

	/* version 8 */
	/* What the referee should hear as a game is made of what the rules
	 * will not do with the document it keeps (Krigsspil: units placed
	 * with no map, whose ground nothing checks): rules as load read that
	 * document, the scenario's units (attributes; the state empty) and
	 * the scenario's file name for the words.  Append each note to out,
	 * a line each, lowercase with no full stop, naming what is not done
	 * and how to have it done; nothing when there is nothing to say.  A
	 * note refuses nothing (a unit the rules cannot play is init_unit's
	 * to refuse); `orderly new` prints it as a warning.  NULL: nothing. */
	void (*create_notes)(struct ord_rules *rules, const struct ord_unit *units, size_t nunits,
			     const char *scenario_name, struct ord_buf *out);
	/* version 8 ends here */

	/* version 9 */
	/* The kinds of event (names of events[]) unit u's sealed order of the
	 * turn still waits for, or the rules still owe of u whatever its
	 * order (a battalion's move back, a melee that goes on, a Krigsspil
	 * unit's half turn's retreat of 6.5): what
	 * check_execution would name u for, as kinds, the kind that carries
	 * each out (a fire order: "fire"; a gun's, "artillery").  Asked of
	 * every unit, with an order or none.  ctx holds the sheets of the turn and every
	 * event of it so far, the units' state as the phase being resolved
	 * left it; an order carried out, left void by the rules (a unit
	 * routed, driven off) or with nothing left to wait for names none.
	 * Writes at most max kinds (static strings) into kinds and returns
	 * how many it wrote.  The core resolves no phase that has no event
	 * while an order waits for a kind of it, unless the referee says he
	 * means it to go empty (resolve --empty): a second resolve
	 * typed by mistake would have skipped the phase for good.  Asked at
	 * resolve only, never in the replay: nothing is logged of it.  NULL:
	 * every phase resolves empty as asked. */
	size_t (*order_events)(struct ord_ctx *ctx, const struct ord_unit *u, const char **kinds,
			       size_t max);
	/* version 9 ends here */

	/* version 10 */
	/* The help of event kind `kind` (key NULL) or of its key `key` in
	 * language lang (one of languages), as its help field says it in
	 * English: a static string, or NULL for the field's own.  Shown where
	 * the help is (`orderly help event`, the referee's event form) in
	 * the ruleset's first language (ord_event_help).  NULL: English only. */
	const char *(*event_help)(const char *lang, const char *kind, const char *key);
	/* version 10 ends here */

	/* version 11 */
	/* The words a report is framed in (its headings, the turn's states,
	 * "sheet of", the overridden events ...), which the core writes in
	 * English, in the module's other languages: an embedded resource (a
	 * built-in module's, as tables_resource), a tables document
	 * (schema/tables.rng) whose chart report_words has the label en, the
	 * core's word as it writes it without its leading spaces and line
	 * end, and a label for each language (da); a format string's words
	 * keep its conversions in order.  A report in one of those languages
	 * is framed in them, a word the document does not give in English; a
	 * document refused (a word that is none of the core's, or given twice,
	 * or conversions that differ) refuses the report, naming its line.
	 * NULL: the report's words are English. */
	const char *words_resource;
	/* version 11 ends here */

	/* version 12 */
	/* The module's messages that its words_resource says in its other
	 * languages, ended by an entry whose id is NULL: a diagnostic added
	 * with ord_diag_add_id(..., id, en, ...) is said in such a language
	 * from the document's chart messages (labels id, en: the message's
	 * English as here, a label for each language), its conversions
	 * filled with what filled the English's.  A row whose id is none of
	 * these, or whose en is not the message's English as here (a stale
	 * word), or given twice, or whose words change the conversions or
	 * their order, refuses the document as report_words's do.  Today the
	 * referee's list of orders no event carries out yet (check_execution:
	 * `info`, the referee's report) is said so.  NULL: none. */
	const struct ord_message *messages;
	/* version 12 ends here */
};

/* The registry (the core's): modules registered by the front-end
 * (ord_builtin_register), then ORDERLY_RULESET_PATH.  Registering a module
 * of a version older than ORD_RULESET_VERSION_MIN, or a second module of
 * the same name, is refused (ORD_EVERSION, ORD_EEXISTS). */
int ord_ruleset_register(const struct ord_ruleset *rs);
/* Find a ruleset by name.  Returns ORD_ENOTFOUND or ORD_EVERSION with a
 * message. */
int ord_ruleset_find(const struct ord_ruleset **out, const char *name);
/* The i-th registered ruleset (0-based), NULL past the last. */
const struct ord_ruleset *ord_ruleset_at(size_t i);
/* "a, b, c": the names of the registered rulesets. */
void ord_ruleset_names(struct ord_buf *out);
/* Load a ruleset's tables: from tables_path (a document a user hands in,
 * checked as ord_ruleset_check_given does), or its embedded default. */
int ord_ruleset_load_tables(struct ord_rules **out, const struct ord_ruleset *rs,
			    const char *tables_path);
/* The tables document built into rs (its tables_resource, or an external
 * module's tables_data), *len bytes; NULL when it has none (or its
 * resource is missing from this build). */
const char *ord_ruleset_builtin_tables(const struct ord_ruleset *rs, size_t *len);
/* A document a user hands in (new --tables, check, calc and rules
 * --tables), which rs->load read into rules, against rs's own built-in
 * one: a table or parameter name its own does not have
 * (ord_tables_check_names), a case two rows give (ord_tables_check_rows),
 * a range or roll no row gives (ord_tables_check_joins).
 * Not for the tables a game keeps, which must
 * go on opening whatever the module's own document has become.  0, or
 * ORD_EBADDATA naming the document and line; 0 for a module without the
 * tables slot (version 5). */
int ord_ruleset_check_given(const struct ord_ruleset *rs, struct ord_rules *rules);
/* lang if rs writes its texts in it (NULL: its first language), else
 * NULL; a module that declares no languages writes English ("en"). */
const char *ord_ruleset_language(const struct ord_ruleset *rs, const char *lang);
/* The help of event kind ek of rs (ks NULL) or of its key ks, in lang
 * (NULL: rs's first language): the module's (event_help), else the
 * help field's own, English; NULL when there is none. */
const char *ord_event_help(const struct ord_ruleset *rs, const char *lang,
			   const struct ord_event_kind *ek, const struct ord_key_spec *ks);
/* "da, en": the languages rs writes its texts in. */
void ord_ruleset_languages(const struct ord_ruleset *rs, struct ord_buf *out);
/* rs's rules_revision, or NULL when it names none. */
const char *ord_ruleset_revision(const struct ord_ruleset *rs);
/* The event kind of a ruleset by name, or NULL. */
const struct ord_event_kind *ord_ruleset_event_kind(const struct ord_ruleset *rs, const char *name);
/* Check key=value arguments against specs: unknown keys, types, ranges,
 * required keys; fill defaults.  Errors name the key and what is allowed. */
int ord_keys_check(struct ord_kv *out, const struct ord_key_spec *specs, int argc,
		   char *const *argv, struct ord_diag *diag);
/* The same for one already-split value (scenario attributes). */
int ord_key_check_value(const struct ord_key_spec *spec, const char *value, struct ord_buf *why);
/* What a spec accepts, as the messages say it: "an integer from 1 to
 * 10000", "one of a b c", "yes or no". */
void ord_key_describe(const struct ord_key_spec *spec, struct ord_buf *out);

/* ---- the calculator: `orderly calc RULESET WHAT key=value...` ----------
 *
 * A module's `calc` slot hands its calculations to ord_calc_run, the one
 * driver of every ruleset's calculator: it finds the calculation, checks
 * the arguments against its key specs with the checker the events use
 * (the messages start with the key: "firers: 'x' is not a whole number
 * (expected 0 or more)"), hands out dice (those given with --dice first,
 * then dice rolled as a game's are, from a fresh random key; a module
 * never rolls by itself), and writes the answer: one line of text
 *     SUMMARY (EXPLANATION)AFTER
 *     dice rolled: NAME dN = V, ...
 * or the <calc ruleset= what=> document with a <value> per value, a <die>
 * per die and an <explanation> (one per language when there are several).
 *
 * In a calculation's args, ORD_KEY_WORD takes its values from the module's
 * tables, an ORD_KEY_NUM's help names its unit ("inches": the messages
 * then call it a distance), and a max of ORD_KEY_MANY or more is "no
 * bound".  Keys beyond the specs are refused unless flag_tables are given:
 * then PREFIX+FLAG is a modifier flag (yes, no or a number) for every FLAG
 * in the when/unless lists of those modifiers tables.
 */
struct ord_calc; /* one calculation being run (opaque) */

struct ord_calculation {
	const char *what;                 /* "fire" */
	const struct ord_key_spec *args;  /* its arguments, zero-terminated */
	unsigned ndice;                   /* at most this many dice from --dice */
	const char *const *flag_tables;   /* modifiers tables whose flags are arguments
					     too, NULL-terminated; NULL: none */
	const char *const *flag_prefixes; /* a flag argument is PREFIX+FLAG ("a_", "d_"),
					     NULL-terminated; NULL: no prefix */
	/* Compute: read ord_calc_args, take dice with ord_calc_die, answer
	 * with ord_calc_value and ord_calc_explain; 0 or an ORD_E* code with
	 * the message set. */
	int (*run)(struct ord_calc *c, struct ord_rules *rules);
};

struct ord_calculator {
	const char *ruleset;                 /* <calc ruleset="..."> */
	const struct ord_calculation *calcs; /* terminated by a NULL what */
	const char *lang_key;                /* the argument that picks the language of
						      the text answer ("lang"), or NULL */
	const char *const *dice_rolled;      /* "lang", "words" pairs, NULL-terminated:
						      the text answer's "dice rolled" (NULL:
						      English) */
};

/* Run calculation `what` of calc (the module's `calc` slot calls it with
 * its own arguments; tables are the module's, for ORD_KEY_WORD and flags).
 * An unknown what, or "" (none asked for), is refused naming the
 * calculations of calc. */
int ord_calc_run(const struct ord_calculator *calc, struct ord_rules *rules,
		 const struct ord_tables *tables, const char *what, const struct ord_kv *args,
		 const int *dice, size_t ndice, int xml, struct ord_buf *out);
/* The checked arguments: every key given, defaults filled in (flags too). */
const struct ord_kv *ord_calc_args(struct ord_calc *c);
/* The modifier flags given with prefix ("a_"), the prefix removed, into flags. */
void ord_calc_flags(struct ord_calc *c, const char *prefix, struct ord_kv *flags);
/* The next die: the next of --dice (its face is the computation's to
 * check), else rolled.  name names it in the answer ("to_hit"). */
int ord_calc_die(struct ord_calc *c, int *out, unsigned sides, const char *name);
/* A value of the answer (a <value>; "name value" in the default summary). */
void ord_calc_value(struct ord_calc *c, const char *name, const char *value);
void ord_calc_value_int(struct ord_calc *c, const char *name, long v);
void ord_calc_value_num(struct ord_calc *c, const char *name, double v);
/* The text answer's start (default: the values, "name value, ..."), and
 * what follows the explanation's parentheses. */
void ord_calc_summary(struct ord_calc *c, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;
void ord_calc_after(struct ord_calc *c, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;
/* The explanation in a language ("en"); the first given is the module's own. */
void ord_calc_explain(struct ord_calc *c, const char *lang, const char *text);

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
/* For a message about a unit written that is not in the game: the unit of
 * side (NULL: any) whose id or name is closest to written, a letter or two
 * apart ("B21" -> "B2"), as ": did you mean 'B2'?" appended to out;
 * when none is that close and side is given, the units it expected
 * (": expected one of side blue's units: 'B1' to 'B12'", or their ids
 * listed when not so numbered), else nothing.  Looks at every unit of the game, also
 * when ctx holds only some (a sheet's check holds its side's units and
 * the ones it names). */
void ord_ctx_unit_hint(struct ord_ctx *ctx, const char *written, const char *side, struct ord_buf *out);
/* ord_ctx_unit_hint of any side, for a unit written with no side of its
 * own (an event's unit=, an order's target): the nearest unit of the
 * game, else every side's units it expected (": expected a unit of the
 * game: side blue's 'B1' to 'B6'; side red's 'R1' to 'R4'"). */
void ord_ctx_unit_hint_any(struct ord_ctx *ctx, const char *written, struct ord_buf *out);
/* The key the game's notation matches its words by (notation.h, word_key:
 * ordre's "Højderyggen" and "hoejderyggen" are one key), for a module
 * that reads a word of its own (a place a map names) as the sheet reads
 * its words; NULL when the notation has none (words as written). */
ord_word_key ord_ctx_word_key(struct ord_ctx *ctx);
/* In event_defaults, refusing an event's arguments: the argument key=...
 * at fault and, when it is one of the argument's comma-separated words
 * ("w" or "w=v"), the word (NULL: the whole argument), so that an events
 * file's refusal is put at it (the message says it in words; the core
 * reads no place from them).  The last call before the slot returns
 * counts; outside event_defaults it does nothing. */
void ord_ctx_refuse_arg(struct ord_ctx *ctx, const char *key, const char *word);
/* The sealed order of a unit this turn, NULL if it has none. */
const struct ord_order *ord_ctx_order(struct ord_ctx *ctx, const struct ord_unit *u);
/* Events of the phase being resolved (all events of the turn in check_execution). */
size_t ord_ctx_nevents(struct ord_ctx *ctx);
const struct ord_event *ord_ctx_event(struct ord_ctx *ctx, size_t i);
/* The events of those that name unit u in one of their unit keys
 * (ORD_KEY_UNIT), in the order recorded: the core keeps them indexed, so
 * that checking one event against the others of its unit is a lookup, not
 * a scan of the phase (a phase of 100,000 units has as many events). */
size_t ord_ctx_unit_nevents(struct ord_ctx *ctx, const struct ord_unit *u);
const struct ord_event *ord_ctx_unit_event(struct ord_ctx *ctx, const struct ord_unit *u, size_t i);
/* Roll a die of `sides` faces identified by (purpose, event, index): the
 * same identity always gives the same face in a turn. */
int ord_ctx_roll(struct ord_ctx *ctx, int *out, unsigned sides, const char *purpose,
		 unsigned event_seq, unsigned index);
/* Whether the game's dice are keyed by what an event names (its kind and
 * units) rather than by its number (every game made since 2026-12-06): a
 * module whose purposes name a role ("melee a") rather than a unit then
 * names the unit, so that swapping the roles of two units in an event
 * does not swap their dice. */
int ord_ctx_dice_by_events(const struct ord_ctx *ctx);
/* Record a result (values may be NULL) with its explanation. */
int ord_ctx_result(struct ord_ctx *ctx, unsigned event_seq, const char *unit_id,
		   const struct ord_kv *values, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 5, 6)))
#endif
	;
/* Record a result with its explanation in several languages: texts maps a
 * language ("da", "en") to the text; the first is the ruleset's own.  The
 * game keeps each language apart (the result_text rows, a bundle's
 * <explanation lang="..">); a front-end shows the one its user asks for. */
int ord_ctx_result_texts(struct ord_ctx *ctx, unsigned event_seq, const char *unit_id,
			 const struct ord_kv *values, const struct ord_kv *texts);

/* ---- a unit's state (src/core/state.c) ----------------------------------
 * A module keeps what changes in its units as the state keys it declares
 * (the state_keys slot, version 2), and reads and writes them only here:
 * the value a unit holds, or the key's default.  A key the module did not
 * declare, a number read as text of another type (ord_state_int on an
 * ORD_KEY_STR key), or a value of the wrong type written, is a mistake of
 * the module: the accessor does nothing (a read gives 0 or ""), the ctx
 * keeps the first such mistake, and the core fails the call of the module
 * with it (ord_state_check): a typo cannot silently read 0.
 * ord_state_str reads any key as its text; ord_state_num an integer too;
 * ord_state_set_str writes text checked against the key's type.  A string
 * read from the state lives until that unit's state is next written. */
long ord_state_int(struct ord_ctx *ctx, const struct ord_unit *u, const char *key);
double ord_state_num(struct ord_ctx *ctx, const struct ord_unit *u, const char *key);
const char *ord_state_str(struct ord_ctx *ctx, const struct ord_unit *u, const char *key);
/* 1 if the unit holds a value of key (not only its default). */
int ord_state_has(struct ord_ctx *ctx, const struct ord_unit *u, const char *key);
void ord_state_set_int(struct ord_ctx *ctx, struct ord_unit *u, const char *key, long v);
/* Numbers are written as ord_state_fmt_num writes them. */
void ord_state_set_num(struct ord_ctx *ctx, struct ord_unit *u, const char *key, double v);
/* A number as a unit's state keeps it: integers plain, else at most 2
 * decimals, trailing zeros dropped (the state's precision, whatever the
 * value: what a phase stores is what its replay gives). */
void ord_state_fmt_num(struct ord_buf *out, double v);
void ord_state_set_str(struct ord_ctx *ctx, struct ord_unit *u, const char *key, const char *v);
/* 0, or ORD_ERROR with the message naming the module and the first key it
 * misused in ctx.  The core calls it after validate_sheet, check_event
 * and resolve_phase; a module's own tests may call it on a fake context. */
int ord_state_check(struct ord_ctx *ctx);
/* init_unit has no context: write values (key -> text) into u's first
 * state, in their order, each checked against rs's declared keys;
 * ORD_ERROR naming the module and the key otherwise. */
int ord_state_init(const struct ord_ruleset *rs, struct ord_unit *u, const struct ord_kv *values);

/* Text in several languages in what a module writes for a report
 * (describe_unit): texts maps a language ("da", "en") to the text, the
 * first the ruleset's own; the text in the language the report is being
 * written in (ord_ctx_lang) is added to out, or the first when it has none
 * in that language.  Results take theirs through ord_ctx_result_texts. */
void ord_texts_add(struct ord_ctx *ctx, struct ord_buf *out, const struct ord_kv *texts);
/* The language a report is being written in: the one its reader asked
 * for, else the module's first ("en" when it declares none).  On a fake
 * context: NULL, and ord_texts_add writes every language (ord_texts_render). */
const char *ord_ctx_lang(struct ord_ctx *ctx);
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
/* The results of unit u (those of ord_ctx_nresults that concern it, by its
 * id), in the order they were written; the kth as ord_ctx_result_get gives
 * it.  A module that asks about each unit's results reads its own, not
 * every result of the turn for every unit (the battalion's order_events
 * at 100,000 units: 34 s a phase). */
size_t ord_ctx_unit_nresults(struct ord_ctx *ctx, const struct ord_unit *u);
int ord_ctx_unit_result_get(struct ord_ctx *ctx, const struct ord_unit *u, size_t k,
			    struct ord_result_view *out);

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
