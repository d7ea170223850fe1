/*
 * ctx.h - struct ord_ctx, what the core hands a ruleset module: the units
 * and their state, the turn's parsed orders and events, the dice, and the
 * results a phase produces.  game.c fills one from the game file and stores
 * what the module changed; the fake context (tests) fills one by hand.
 */
#ifndef ORD_CTX_H
#define ORD_CTX_H

#include "core/common.h"
#include "ruleset.h"

struct ord_ctx_roll {
	char *phase;
	unsigned event_seq;
	char *purpose;
	unsigned idx;
	unsigned sides;
	int value;
	int fixed; /* 1 when it came from a fixed-dice list */
};

/* A result: its strings in the ctx's result_strings, its values as the
 * "k=v\n" lines they are stored, digested and compared as (a phase of
 * 67,500 results held each as an ord_kv of its own: 5 MB more); the
 * modules read them parsed (ord_ctx_result_get). */
struct ord_ctx_result {
	char *phase;
	char *unit;
	char *values;
	char *explanation;    /* in the module's first language */
	struct ord_kv *texts; /* lang -> text when written in several, else NULL */
	unsigned event_seq;
};
/* r's texts: none is an empty kv. */
const struct ord_kv *ord_ctx_result_texts_of(const struct ord_ctx_result *r);
/* Results kept from now on as their hashes only (ctx->result_hash), not
 * looked up (ord_ctx_result_get refuses): a replay's phase of 63,000
 * results held 10 MB of them until their rows were read. */
void ord_ctx_set_lean_results(struct ord_ctx *ctx, int on);

struct ord_ctx_keyed; /* ctx.c */

struct ord_ctx_map {
	uint32_t *slots; /* index + 1, 0 = empty (a game has fewer than 2^32 units) */
	size_t cap;      /* power of two */
};

/* The argument an event_defaults refusal names (ord_ctx_refuse_arg). */
struct ord_ctx_refusal {
	char *key;  /* the argument key=..., NULL: none named */
	char *word; /* its word at fault, NULL: the whole argument */
};

/* A unit's list of indexes, of events or of results (ctx.c evl_event). */
struct ord_ctx_evlist {
	uint32_t n, alloc; /* in use; allocated at heap, 0 while in one */
	union {
		uint32_t one[2]; /* up to two indexes, here: most units */
		uint32_t *heap;  /* more */
	} at;
};

struct ord_ctx {
	const struct ord_ruleset *rs;
	struct ord_rules *rules;
	int turn;
	const char *side;  /* validate_sheet: the submitting side */
	const char *phase; /* the phase being resolved or checked */

	struct ord_unit *units;
	size_t nunits, ualloc;
	/* the units' ids, names and sides, unless shared: one after another,
	 * freed with ctx (a malloc each cost a load 3,300 mallocs and frees) */
	struct ord_arena unit_strings;
	/* the units' states and (unless shared) attributes: each different
	 * list held once (units of one kind start alike) */
	struct ord_kv_pool pool;
	/* a partial context (ord_ctx_set_lazy): a unit looked up and not held
	 * is loaded by lazy(); units never move (ualloc is the game's count) */
	int attrs_shared; /* ord_ctx_add_unit_shared: the units' attrs and strings are not ctx's */
	int checks_only;  /* ord_ctx_set_checks_only: every unit, no states kept to compare */
	int (*lazy)(void *ud, struct ord_ctx *ctx, const char *id_or_name);
	int (*lazy_many)(void *ud, struct ord_ctx *ctx, const char *const *names, size_t n);
	/* every unit of the game (id, name, side) to each, for a hint when a
	 * name is of no unit (ord_ctx_unit_hint): an error's path only; NULL:
	 * the hint looks at the units held */
	int (*lazy_all)(void *ud,
			int (*each)(void *arg, const char *id, const char *name, const char *side),
			void *arg);
	struct ord_buf all_units; /* what lazy_all gave, "id\0name\0side\0" each, once */
	int all_loaded;           /* 1: all_units holds them; -1: lazy_all failed */
	/* a game made since 2026-12-07 (ord_ctx_set_made): a name no unit has
	 * as written is read as the notation reads its words (names_key,
	 * ordre's: ø typed oe, Æ as æ) and finds the one unit whose name
	 * reads so; NULL: names as written alone */
	ord_word_key names_key;
	struct ord_ctx_keyed *keyed; /* the units' names so read, made at the first name
				      * that needs them (ctx.c); NULL until then */
	void *lazy_ud;
	int in_lazy;
	/* BLAKE2b-128 of each unit's serialised state when loaded; NULL in a
	 * partial context, which checks and does not resolve */
	unsigned char (*state_before)[16];
	struct ord_ctx_map by_id, by_name;
	const struct ord_order **orders; /* per unit, NULL when none */
	size_t norders;                  /* slots allocated in orders */

	struct ord_event *events;
	size_t nevents, ealloc;
	size_t nremoved;   /* events removed and not yet closed up (kind NULL) */
	int events_sorted; /* every event's number above the one before it */
	/* the events by the units their unit keys name (ord_ctx_unit_events):
	 * per unit an array of event indexes in the order of the events'
	 * numbers, so that the i-th is one read (a module walks them all for
	 * each event it checks), built as far as evx_done events; a removed
	 * event rebuilds it */
	struct ord_ctx_evlist *evx; /* per unit, evx_units of them */
	size_t evx_done, evx_units;

	/* dice: derived from key (a real game) or taken from a fixed list */
	int have_key;
	int dice_by_events; /* a roll keyed by what its event names (phase.h) */
	/* the unit names of events' arguments no unit was found for
	 * (ord_phase_event_args), counted: a ctx holding some units only
	 * may lack the one named */
	size_t unknown_units;
	/* while the core asks event_defaults: what its refusal names, else NULL */
	struct ord_ctx_refusal *refusal;
	unsigned char dice_key[32];
	const int *fixed;
	size_t nfixed, fixed_pos;

	struct ord_ctx_roll *rolls;
	size_t nrolls, ralloc;
	size_t *roll_slots; /* rolls by identity: index + 1, 0 = empty */
	size_t roll_cap;    /* power of two, 0 until the first roll */
	struct ord_ctx_result *results;
	size_t nresults, resalloc;
	/* the results' units and explanations, freed with the results (a
	 * phase of 100,000 units makes 67,500: two mallocs each cost 5 MB) */
	struct ord_arena result_strings;
	/* the results' values parsed, for ord_ctx_result_get (a picture's
	 * look-ups): the first nresult_kv, made as they are asked for */
	struct ord_kv *result_kv;
	size_t nresult_kv, result_kv_alloc;
	/* the results by unit (ord_ctx_unit_result_get): per unit the
	 * indexes into results of its own, in order, for the first
	 * unit_results_n results, made when a module first asks and the
	 * results added since appended when it asks again (a module may add
	 * one between each unit's question: made again each time, a phase
	 * was quadratic in its units); made again whole only when units were
	 * added (a result's unit may be held now); let go with result_kv,
	 * which the results' removal (a next phase, a lean one) lets go */
	struct ord_ctx_evlist *unit_results;       /* unit_results_units of them */
	size_t unit_results_n, unit_results_units; /* results and units it holds */
	size_t unit_results_made;                  /* times it was made whole (check_ctx) */
	/* a replay's results (ord_ctx_set_lean_results): each kept only as
	 * its hash (ord_result_hash), held to the recorded row's; results is
	 * then NULL, and a result that differs is made again in full by the
	 * replay, which then words what differs (replay.c) */
	int lean_results;
	unsigned char (*result_hash)[16];

	char **interned; /* phase and kind names shared by events, rolls, results */
	size_t ninterned;
	struct ord_sheet *sheets; /* owned parsed sheets the orders point into */
	size_t nsheets;
	const char *lang;        /* the language a report is written in, NULL: the module's first */
	int lang_all;            /* a report in every language ("all") */
	int fake;                /* a fake context (tests): texts in every language */
	struct ord_buf fake_out; /* fake context: results as text */
	struct ord_buf result_scratch; /* a result's values serialised */
	char state_error[256]; /* the module's first misuse of unit state (state.c), or "" */
	/* state.c: the declarations of the keys read lately, by the address
	 * of the key the module passed (most often a literal), each checked
	 * against the name it declares: a sheet's check reads a dozen keys
	 * 10,000 times, each found in the module's list of 36 */
	struct ord_ctx_key_seen {
		const char *key;                  /* as the module passed it */
		const struct ord_state_key *keys; /* the list it was found in */
		const struct ord_state_key *decl; /* its declaration there */
	} key_seen[32];
	/* state.c: integers read lately from the states a pool shares, by
	 * the list's block and the key's address: units of a kind hold
	 * one list, which a sheet's check reads a few keys of an order each
	 * (the key found among the list's items and its text parsed every
	 * time was half the check's reads of state) */
	struct ord_ctx_int_seen {
		const void *block; /* ord_kv_shared_block, NULL: none */
		const char *key;   /* the key, its declaration's own name */
		unsigned gen;      /* the pool's gen then */
		long v;            /* what ord_state_int read */
	} int_seen[256];
	struct ord_ctx_story *story; /* pictures: the steps drawn (story.c), or NULL */
};

void ord_ctx_init(struct ord_ctx *ctx, const struct ord_ruleset *rs, struct ord_rules *rules, int turn);
void ord_ctx_release(struct ord_ctx *ctx);
/* Add a unit (strings copied); state is parsed from serialised "k=v\n" text. */
struct ord_unit *ord_ctx_add_unit(struct ord_ctx *ctx, const char *id, const char *name,
				  const char *side, const char *attrs, const char *state);
/* ord_ctx_add_unit with the attributes attrs holds and the strings id,
 * name and side, not copies: they (which modules only read) must outlive
 * ctx.  A verifier's replay takes them from the scenario it keeps, as a
 * hundred thousand units' second copy cost a tenth of its memory.  A
 * context's units are all added so, or none. */
struct ord_unit *ord_ctx_add_unit_shared(struct ord_ctx *ctx, const char *id, const char *name,
					 const char *side, const struct ord_kv *attrs,
					 const char *state);
/* Build the lookup maps after the units are added. */
void ord_ctx_index(struct ord_ctx *ctx);
/* Make ctx a partial context of a game of total units: room for all of
 * them is reserved (so a unit never moves), and a unit looked up that ctx
 * does not hold is asked of load, which adds it (ord_ctx_add_unit) or
 * not; then ord_ctx_find_unit indexes it.  Before the units are added.
 * A partial context is for checks: it does not keep what each unit's
 * state was (ord_ctx_unit_changed says every unit changed). */
void ord_ctx_set_lazy(struct ord_ctx *ctx, size_t total,
		      int (*load)(void *ud, struct ord_ctx *ctx, const char *id_or_name), void *ud);
/* Make ctx a context that checks and does not resolve, as a partial one
 * (no state of a unit kept to compare, ord_ctx_unit_changed says every unit
 * changed), but holding every unit of the game itself, and room for n of
 * them: the seal checks every side's sheet in one (game_live.c).  Before
 * the units are added. */
void ord_ctx_set_checks_only(struct ord_ctx *ctx, size_t n);
/* 1 when every word a sheet may name a unit by (an id, a name in any case,
 * composed or not) names one unit of ctx at most, and every unit's id and
 * name is stored composed (ord_ctx_compose_name): then a unit is found the
 * same in a context of every unit as in a partial one, whatever units the
 * partial one holds (the store reads a word by its bytes, an id as written,
 * a name in any ASCII case, then composed).  A game made before the
 * scenario refused a name that is another unit's id may fail it.  After
 * ord_ctx_index. */
int ord_ctx_words_unambiguous(struct ord_ctx *ctx);
/* The same with a load of many names at once: it adds each unit once and
 * indexes it as it comes (ord_ctx_index_loaded), so that a unit named
 * twice, by its id and by its name, is found held the second time. */
void ord_ctx_set_lazy_many(struct ord_ctx *ctx, int (*load_many)(void *ud, struct ord_ctx *ctx,
								 const char *const *names, size_t n));
/* The same with every unit of the game, for the hint of a name of no
 * unit (ord_ctx_unit_hint), which a partial context would otherwise seek
 * among the units it holds: a sheet's side's and the ones it names. */
void ord_ctx_set_lazy_all(struct ord_ctx *ctx,
			  int (*all)(void *ud,
				     int (*each)(void *arg, const char *id, const char *name,
						 const char *side),
				     void *arg));
/* The core revision since which a game reads a unit's name as its
 * notation reads its words (below; ae6f373, phase.h). */
#define ORD_CORE_NAMES_KEYED "2026-12-07.1"
/* The game's made= and made_core= (NULL: not logged, canon.h): in a game
 * made by an orderly of core revision ORD_CORE_NAMES_KEYED or later
 * (ord_canon_made_since_core_of: made_core= that revision or later, or,
 * logging no made_core=, made= of 2026-12-07 or later) a unit's name that
 * is no unit's as written is found as the game's notation reads its words
 * (its word_key: ordre's "Soendre Jaegerkorps" and "JÆGERKORPS" for
 * "Søndre Jægerkorps" and "Jægerkorps"), when that reading is one unit's
 * name alone; a game made before finds names as written (every reader of
 * its stored sheets, an older verify among them, found them so).  Before
 * the first look-up. */
void ord_ctx_set_made(struct ord_ctx *ctx, const char *made, const char *made_core);
/* The unit ids whose names read as written does (ord_ctx_set_made), each
 * '\0'-ended, into ids; how many (0 in a game made before, or when none
 * does). */
size_t ord_ctx_keyed_units(struct ord_ctx *ctx, const char *written, struct ord_buf *ids);
/* Have a partial context hold the units of names it does not hold yet,
 * in one load of many where it has one (ord_ctx_set_lazy_many). */
void ord_ctx_find_units(struct ord_ctx *ctx, const char *const *names, size_t n);
/* A unit's id or name with its Latin letters composed (a letter and its
 * combining mark as the one character; the maps match names so), into out,
 * reset first; whether that changed it. */
int ord_ctx_compose_name(struct ord_buf *out, const char *s);
/* Index units from.. (the last added to a partial context): O(1) each. */
void ord_ctx_index_loaded(struct ord_ctx *ctx, size_t from);
/* The unit ctx holds of this id or name, never loading it: NULL if none. */
struct ord_unit *ord_ctx_held_unit(struct ord_ctx *ctx, const char *id_or_name);
/* Take ownership of a parsed sheet and attach its orders to its units;
 * lines naming no unit of side are ignored (the sheet was validated). */
void ord_ctx_attach_sheet(struct ord_ctx *ctx, struct ord_sheet *sheet, const char *side);
/* Take ownership of a sheet of one order and make it unit i's order (a
 * partial context loads each unit's sealed order with the unit). */
void ord_ctx_attach_order(struct ord_ctx *ctx, size_t i, struct ord_sheet *one);
/* Room for n events, so that an event's address stays put while a
 * partial context loads more (a module holds the event it checks). */
void ord_ctx_reserve_events(struct ord_ctx *ctx, size_t n);
/* Room for n units, n results of a phase, before they are added, where the
 * caller knows how many: the arrays grow by doubling, and a hundred
 * thousand units in room for 131,072 waste a quarter of it. */
void ord_ctx_reserve_units(struct ord_ctx *ctx, size_t n);
void ord_ctx_reserve_results(struct ord_ctx *ctx, size_t n);
/* One order as text and back (the index of the sealed orders): every
 * field of the order and its tokens, so no notation parses it again. */
void ord_order_serialize(const struct ord_order *o, struct ord_buf *out);
int ord_order_deserialize(struct ord_sheet *s, const char *text);
/* Make each order of s one block (its tokens and strings) and s's array
 * its size: a context holds every sheet's orders while it lives.  An order
 * a token is added to afterwards is made a growing one again. */
void ord_sheet_pack(struct ord_sheet *s);
struct ord_event *ord_ctx_add_event(struct ord_ctx *ctx, unsigned seq, const char *phase,
				    const char *kind, const char *args, const char *override,
				    const char *check);
/* Face of a die from the dice key and the roll's identity (rejection
 * sampling, no modulo bias).  Exposed for audit and the tests. */
int ord_dice_face(const unsigned char key[32], const char *phase, unsigned event_seq,
		  const char *purpose, unsigned idx, unsigned sides);
/* The same keyed by what the event names instead of its number (a game
 * whose dice are keyed by events): ident is ord_ctx_event_ident's. */
int ord_dice_face_ident(const unsigned char key[32], const char *phase, const char *ident,
			const char *purpose, unsigned idx, unsigned sides);
/* What event e names, for its dice: its kind, the units its unit keys
 * name (their ids, sorted: which key names which is not counted), and how
 * many standing events of the phase before it name the same ("#0" for
 * the first), written to out. */
void ord_ctx_event_ident(struct ord_ctx *ctx, const struct ord_event *e, struct ord_buf *out);
/* Take event seq out of ctx (a voided event, in the replay); 1 if it was there. */
int ord_ctx_remove_event(struct ord_ctx *ctx, unsigned seq);
/* The standing event numbered seq, or NULL. */
const struct ord_event *ord_ctx_event_by_seq(struct ord_ctx *ctx, unsigned seq);
/* Close up the array after events removed: ord_ctx_nevents and
 * ord_ctx_event do it; code that reads ctx->events itself calls it first. */
void ord_ctx_events_compact(struct ord_ctx *ctx);
/* The first unit an event of kind ek with arguments kv names that the
 * ctx's events name ORD_EVENTS_PER_UNIT times already, or NULL: one more
 * is refused, when recorded and in the audit's replay (a module checks
 * an event against its units' other events of the phase, and writes one
 * result against another: thousands on one unit, which only an override
 * records, made a phase quadratic in them). */
struct ord_unit *ord_ctx_unit_events_full(struct ord_ctx *ctx, const struct ord_event_kind *ek,
					  const struct ord_kv *kv);
/* Take event i out of the lists by unit: the checks of the events after
 * it no longer see it.  It stays in the events, in place, and is listed
 * again if the index is built again (the array closed up, units added);
 * cheap: it walks back over the later events of its units only. */
void ord_ctx_unlist_event(struct ord_ctx *ctx, size_t i);
/* Begin the next phase in the same ctx (the verifier's replay): forget the
 * events, rolls and results of the last one, and take the units' states as
 * they are now as the states before it. */
void ord_ctx_next_phase(struct ord_ctx *ctx);
/* 1 if unit i's state differs from when it was loaded (always 1 in a
 * partial context); serialised gets the state as it is now. */
int ord_ctx_unit_changed(struct ord_ctx *ctx, size_t i, struct ord_buf *serialised);

/* ---- pictures (story.c): the steps a picture draws, results read back ---- */

/* Add a step (after every unit is added); states start unknown (NULL). */
size_t ord_ctx_story_step(struct ord_ctx *ctx, int turn, const char *phase);
/* A state text parsed into a list the ctx owns, to be shared by steps. */
struct ord_kv *ord_ctx_story_keep(struct ord_ctx *ctx, const char *state);
/* Unit i's state at step s (kv from ord_ctx_story_keep, or NULL: not seen). */
void ord_ctx_story_set(struct ord_ctx *ctx, size_t s, size_t i, const struct ord_kv *kv);
void ord_ctx_story_free(struct ord_ctx_story *story);
/* A stored result, for ord_ctx_result_get (values as "k=v\n" lines). */
void ord_ctx_add_stored_result(struct ord_ctx *ctx, const char *phase, unsigned event_seq,
			       const char *unit, const char *values, const char *explanation,
			       const struct ord_kv *texts);

#endif
