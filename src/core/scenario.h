/*
 * scenario.h - the scenario a game is created from: its ruleset, title,
 * first deadline, NMR policy, sides and units, read from an XML file
 * (schema/scenario.rng) and checked before any game file is written.
 *
 * Ownership: every string in these structs is malloc'd and belongs to the
 * struct ord_scenario; ord_scenario_release frees them all.  Errors are
 * ORD_EBADDATA (ORD_ENOTFOUND for a missing file) with a message of
 * "FILE:LINE: what is wrong (what was expected)" lines, "FILE:LINE:COL:"
 * where a unit's attribute is at fault (the column of its name, or of its
 * value when the value is wrong; of the '<' when one is missing).
 */
#ifndef ORD_SCENARIO_H
#define ORD_SCENARIO_H

#include <stddef.h>
#include <stdint.h>

#include "core/common.h"
#include "ruleset.h"

struct ord_words_how; /* core/argcheck.h */

struct ord_scenario_side {
	char *id;      /* lowercase a-z 0-9 _ -, 1 to 32 characters */
	char *name;    /* display name, white space collapsed */
	char *pubkey;  /* the player's Ed25519 key in lowercase hex, NULL if none */
	char *email;   /* the player's registered mail address, NULL if none */
	unsigned line; /* line of the <side> element */
};

/* Where an attribute of a <unit> is in the file: the line and column
 * (from 1, in characters) of its name and of its value's first character. */
struct ord_scenario_pos {
	char *attr;
	unsigned line, col;             /* of the name */
	unsigned value_line, value_col; /* of the value */
};

struct ord_scenario_unit {
	char *id;                     /* letters, digits _ . / -, 1 to 32 characters */
	char *name;                   /* display name, unique ignoring ASCII case */
	char *side;                   /* id of a side of the scenario (the three in unit_strings) */
	struct ord_kv attrs;          /* the ruleset's attributes in document order */
	unsigned line;                /* line of the <unit> element */
	unsigned col;                 /* column of its '<', 0 when not known */
	struct ord_scenario_pos *pos; /* its attributes' places, in file order */
	size_t npos;
};

struct ord_scenario {
	char *title;                  /* white space collapsed, never empty */
	char *description;            /* trimmed; "" when absent */
	char *ruleset;                /* module name as written, not looked up here */
	char *nmr;                    /* "hold" | "repeat" | "wait" */
	int64_t deadline;             /* first turn's deadline, unix seconds; 0 = none */
	char *deadline_problem;       /* its zone's clocks skip or repeat it: why `new`
					 refuses it (when.c, W2); NULL: none */
	struct ord_schedule schedule; /* <schedule>: every == 0 when absent */
	char *mail_address;           /* <mail address>: the judge's address, NULL if none */
	char *referee_email;          /* <mail referee>: the referee's address, NULL if none */
	int replies_per_hour;         /* <mail replies-per-hour>, 0 if not given */
	struct ord_scenario_side *sides;
	size_t nsides; /* at least two after a successful load */
	struct ord_scenario_unit *units;
	size_t nunits;           /* at least one after a successful load */
	struct ord_kv_pool pool; /* the units' attributes, each different list once */
	/* the units' id, name and side, one "id\0name\0side\0" each */
	struct ord_arena unit_strings;
	int no_positions; /* a load that does not find the units' attributes' places */
};

void ord_scenario_init(struct ord_scenario *sc);
void ord_scenario_release(struct ord_scenario *sc);

/*
 * Parse (hardened, see xml/xmlsafe.h), validate against schema/scenario.rng,
 * then check what the schema cannot: unique side ids, unique unit ids, unique
 * unit names (ignoring case), every unit on a declared side, a real date for
 * the deadline, a 64-digit hex pubkey.  name is the file name used in
 * messages.  *out is initialised here; on failure it is left empty.
 */
int ord_scenario_load(struct ord_scenario *out, const char *bytes, size_t len, const char *name);
/* ord_scenario_load reads the document as a stream, and as a tree only
 * when it is not right (for the messages): this reads it as a tree
 * alone, the reference the tests and the fuzz target hold the stream to. */
int ord_scenario_load_tree(struct ord_scenario *out, const char *bytes, size_t len, const char *name);
/*
 * The scenario as a game keeps it: without the sides' and the referee's
 * mail addresses (<side email>, <mail referee>), which the mail judge's
 * table holds (logged before turn 1 opens, outside every turn's bundle),
 * so that no bundle hands a player the others' addresses.  *bytes (and
 * *len) are replaced by the scenario re-serialised without them when it
 * has any, else left as they are.  The judge's own address stays (it is
 * where every player writes).  Call on a scenario ord_scenario_load took.
 */
int ord_scenario_public(char **bytes, size_t *len, const char *name);
/*
 * Names a player tells apart (threat model, attack 41): the title, every
 * side's and unit's name hold no character a reader does not see
 * (ord_name_hidden: a zero-width space, a bidirectional override) and no
 * blank at either end, and no two sides' names or ids, nor two units',
 * share a form (ord_name_skeleton: "Blue Hussars" and the same with a
 * Cyrillic 'В', or a no-break space after it; a name that reads as another
 * unit's id, 'В1' for B1).  Every problem reported as ord_scenario_load
 * reports them, ORD_EBADDATA.  `orderly new` holds a scenario to it; a
 * game made before, and its bundles, are read as they are (a report shows
 * such a name escaped, ord_buf_add_name_shown).
 */
int ord_scenario_names_apart(const struct ord_scenario *sc, const char *name);
/*
 * The same problems in the same words, less the reason in parentheses
 * ("(expected ...)"): what `orderly audit` and `verify` note of a game
 * made before `new` refused them, or of a bundle of a referee's own
 * build (ord_verify_note_names).  ORD_EBADDATA with one line a problem
 * (the first 20, then "N more problems not shown"), 0 when there is none.
 */
int ord_scenario_names_alike(const struct ord_scenario *sc, const char *name);
/* Free every unit's attribute places (pos), once no message needs them:
 * they cost about as much as the units' attributes themselves, which the
 * verifier keeps for a whole audit. */
void ord_scenario_drop_positions(struct ord_scenario *sc);
/* The place of attribute attr of unit u (of its value when value is set):
 * 0 and *line = u->line when not known. */
unsigned ord_scenario_unit_col(const struct ord_scenario_unit *u, const char *attr, int value,
			       unsigned *line);
/* Read path (bounded to ORD_XML_MAX_BYTES) and ord_scenario_load it. */
int ord_scenario_load_file(struct ord_scenario *out, const char *path);

/*
 * Check every unit's attributes against a ruleset's specs (terminated by an
 * entry whose name is NULL; NULL means none): unknown attributes, missing
 * required ones, values of the wrong type or range.  A word (ORD_KEY_ENUM)
 * is read as the ruleset's sheets read their words (words, argcheck.h,
 * ord_key_word; NULL: as written) and set as the key's list writes it
 * ("KARRÉ", "kar": karre); a word that is none is told the nearest.
 * Defaults of absent optional attributes are filled in.  Every problem is
 * reported, one "FILE:LINE:COL: unit 'ID': ..." line each (the first 20),
 * as ORD_EBADDATA.
 */
int ord_scenario_check_attrs(struct ord_scenario *sc, const struct ord_key_spec *specs,
			     const struct ord_words_how *words, const char *name);
/*
 * ord_scenario_load and ord_scenario_check_attrs for a reader that keeps
 * the scenario and not the places of its attributes (a verifier): the
 * places are not found (they were 24 MB of a load of 100,000 units, at
 * once let go), unless the scenario is refused: then it is read again with
 * them, so that the messages are the same as ord_scenario_load's.
 */
int ord_scenario_load_checked(struct ord_scenario *out, const char *bytes, size_t len, const char *name,
			      const struct ord_key_spec *specs, const struct ord_words_how *words);
/*
 * The scenario of a game, whose bytes the caller has found to hash to the
 * one its log states: read as a stream without the schema, which held it
 * when the game was made (its RelaxNG facets are most of a read's cost,
 * about 17,000 instructions a unit), with the checks of C (unique ids and
 * names, every unit on a side), and without the attributes' places.  A
 * document that is not right so is read again as ord_scenario_load reads
 * it, for its messages.  A seal compares the units with it, once
 * ord_scenario_fill_defaults has filled in the attributes' defaults.
 */
int ord_scenario_load_logged(struct ord_scenario *out, const char *bytes, size_t len, const char *name);
/* Each unit's attributes that specs give a default and it lacks, set to
 * it, and its words set as the key's list writes them (words, as
 * ord_scenario_check_attrs reads them), as ord_scenario_check_attrs sets
 * them, without its checks (a logged scenario's were made when the game
 * was). */
void ord_scenario_fill_defaults(struct ord_scenario *sc, const struct ord_key_spec *specs,
				const struct ord_words_how *words);

#endif
