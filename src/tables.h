/*
 * tables.h - the generic tables engine: a ruleset's numbers as data.
 *
 * A tables document (validated against schema/tables.rng) holds named
 * tables of five kinds:
 *
 *   params     named scalar parameters         <param name="figures_per_tray" value="4"/>
 *   bands      range bands, (from, to]         <band weapon="musket" from="0" to="4" hits="50"/>
 *   dice       rolls lo..hi -> outcome         <roll lo="-5" hi="-1" outcome="retreat"/>
 *   modifiers  conditional adjustments         <mod when="target_column" mode="fraction" value="1/2" label="target in column"/>
 *   chart      rows keyed by attributes        <row kind="heavy_cavalry" formation="*" reg="12" charge="14"/>
 *
 * A table names its `keys` (string attributes that select rows), its
 * `columns` (numbers every row must give; "-" means "no value", as the
 * rules' "---") and its `labels` (strings every row must give).  A key
 * attribute may list several values separated by spaces; "*" matches any.
 *
 * Bands are half-open, (from, to], except that the lowest band of each key
 * also includes its `from`: 0-4, 4-8 puts 4.0 in the first and 4.01 in the
 * second.  Dice rows are inclusive; lo="min" / hi="max" leave an end open.
 *
 * Modifier rows apply when every flag in `when` is set and none in `unless`
 * (a row with neither always applies).  Modes: `sum` adds the value as is;
 * `fraction` adds value x base; `per` adds value x the number held by the
 * (single) `when` key; `times` multiplies the running total, after every
 * sum, fraction and per row.
 *
 * Tables and rows carry reconstructed="yes" (the rule text lost the value
 * and this is our reading; a note must say what was lost) and
 * provisional="yes" (a value to revisit).
 *
 * Numbers are decimals or simple fractions ("1/2", "-1/4").  Every number is
 * checked at load; errors name the document and line:
 *     "tables.xml:41: table 'fire' row has no 'to'".
 *
 * Ownership: ord_tables_load returns a handle freed with ord_tables_free;
 * every table, row and string obtained from it lives as long as the handle.
 */
#ifndef ORD_TABLES_H
#define ORD_TABLES_H

#include <stddef.h>

#include "orderly.h"

struct ord_tables; /* a loaded document */
struct ord_table;  /* one table of it */
struct ord_row;    /* one row of a table (a param is a row too) */

enum ord_table_kind {
	ORD_TABLE_PARAMS = 1,
	ORD_TABLE_BANDS,
	ORD_TABLE_DICE,
	ORD_TABLE_MODIFIERS,
	ORD_TABLE_CHART,
};

enum ord_mod_mode {
	ORD_MOD_SUM = 1,  /* + value */
	ORD_MOD_FRACTION, /* + value x base */
	ORD_MOD_PER,      /* + value x the count in the flags */
	ORD_MOD_TIMES,    /* x value, after all additions */
};

/* ---- the document ------------------------------------------------------- */

/* Parse, validate against schema/tables.rng and check every number.  name is
 * used in messages ("tables.xml").  ORD_EBADDATA on any problem. */
int ord_tables_load(struct ord_tables **out, const char *xml, size_t len, const char *name);
void ord_tables_free(struct ord_tables *t);

const char *ord_tables_name(const struct ord_tables *t);    /* as given to load */
const char *ord_tables_ruleset(const struct ord_tables *t); /* the ruleset attribute */
size_t ord_tables_count(const struct ord_tables *t);
const struct ord_table *ord_tables_at(const struct ord_tables *t, size_t i);
/* The tables of a and b that differ: each table of either by its name,
 * compared by its kind, die, keys, columns and labels and row by row
 * (every attribute as written, in order; notes and titles aside), listed
 * in out ("fire, morale (only in the second)", the
 * first being a); the number of them, 0 when every table agrees. */
size_t ord_tables_differ(const struct ord_tables *a, const struct ord_tables *b, struct ord_buf *out);
/* Every value a's tables differ from o's in, named with both values, other
 * naming o: in params each parameter by its name ("gun_shot_checked is 0
 * where the built-in has 1", "... is left out where ...", "... is there
 * where ... has none"), in rows each value of another table's row by the
 * table, the row's place and its line in a ("artillery row 2 (line 57):
 * dead is 6 where the built-in has 2"); a table whose rows are not as many
 * names each row with no equal in the other whole ("artillery row 10
 * (line 208), which the built-in has not: shot=ball ...", "artillery's
 * row 7 of the built-in, which it has not: ..."), and so does one laid
 * out otherwise (kind, die, keys, columns, labels), said to be.  Numbers are compared by their value (1.0 is 1),
 * words as written; a row's notes and marks (note, unit, reconstructed,
 * provisional) are not compared.  Every one is named, none left out: a
 * list cut short would let ten harmless differences hide the one that
 * matters.  The number named. */
size_t ord_tables_values_differ(const struct ord_tables *a, const struct ord_tables *o,
				const char *other, struct ord_buf *params, struct ord_buf *rows);
/* The table named name, or NULL. */
const struct ord_table *ord_tables_get(const struct ord_tables *t, const char *name);
/* The table named name of the given kind; ORD_ENOTFOUND (no such table) or
 * ORD_EBADDATA (another kind) with a message naming the document. */
int ord_tables_find(const struct ord_table **out, const struct ord_tables *t, const char *name,
		    enum ord_table_kind kind);
/* A parameter from any params table; ORD_ENOTFOUND naming it when absent. */
int ord_tables_param(const struct ord_tables *t, const char *name, double *out);
/* The row of a parameter (for its marks and note), or NULL. */
const struct ord_row *ord_tables_param_row(const struct ord_tables *t, const char *name);
/* A switch: 1 when the tables set the parameter non-zero, 0 when they set
 * it to 0 or lack it.  A check added to a ruleset is one, so that a game
 * made before it, which keeps the tables it was made with, is checked and
 * audited as it was played. */
int ord_tables_switch(const struct ord_tables *t, const char *name);

/* What a module reads of a tables document, checked once when it is loaded,
 * so that a club's edited tables fail then, naming what is missing, rather
 * than in the middle of a turn. */
struct ord_tables_need_table {
	const char *name;         /* a table the module reads */
	enum ord_table_kind kind; /* and its kind */
};
struct ord_tables_need_field {
	const char *table, *name; /* a column or label of a table */
	int label;                /* 1: a label (string), 0: a column (number) */
};
struct ord_tables_needs {
	const char *ruleset; /* the document's ruleset attribute */
	const struct ord_tables_need_table *tables;
	size_t ntables;
	const char *const *params; /* parameters, from any params table */
	size_t nparams;
	const struct ord_tables_need_field *fields;
	size_t nfields;
};
/* 0, or ORD_EBADDATA naming the document (and line) and what is missing. */
int ord_tables_require(const struct ord_tables *t, const struct ord_tables_needs *needs);

/* The values a module can work with, declared as data beside its needs
 * and checked when the tables are loaded: a die of 0 faces or a tray of
 * no figures fails then, with its line and what is allowed, rather than
 * in the middle of a turn.  A separate call from ord_tables_require, so
 * that a module built against the needs struct keeps working. */
struct ord_tables_range {
	const char *table; /* a column of this table, in every row that has a number;
			      NULL: the parameter name, from any params table */
	const char *name;  /* the parameter or the column */
	double min, max;   /* inclusive; max INFINITY: no upper bound */
	int whole;         /* 1: a whole number */
};
/* A parameter's range, as a module's list writes one (table NULL): a whole
 * number, or any number, from min to max. */
#define ORD_TABLES_WHOLE(name, min, max)      \
	{                                     \
		NULL, (name), (min), (max), 1 \
	}
#define ORD_TABLES_NUM(name, min, max)        \
	{                                     \
		NULL, (name), (min), (max), 0 \
	}
/* 0, or ORD_EBADDATA: "tables.xml:199: parameter 'artillery_die' is 0
 * (expected a whole number from 2 to 1000)".  What is absent is left to
 * ord_tables_require. */
int ord_tables_check_ranges(const struct ord_tables *t, const struct ord_tables_range *ranges,
			    size_t n);

/* Dice tables that must answer every roll their dice can give, checked at
 * load rather than when the roll comes up (a row deleted, a band that
 * stops short).  A keyed table answers every roll for every key it answers
 * at all (each combination of its keys' words that some row holds). */
struct ord_tables_dice {
	const char *table; /* a dice table */
	int modified;      /* 1: dice plus modifiers, so any whole total: its first
			      row must begin at 'min' and its last end at 'max';
			      0: one die alone, 1 to its die="N" (which it must give) */
};
/* 0, or ORD_EBADDATA: "skema.xml:480: table 'skema_x' has no row for the
 * roll 7 (a table read by dice and modifiers must hold every roll)". */
int ord_tables_check_dice(const struct ord_tables *t, const struct ord_tables_dice *dice, size_t n);

/* A label whose every value is one of a list (a morale grade, an outcome
 * the module acts on). */
struct ord_tables_words {
	const char *table;  /* every row of this table that has the label */
	const char *name;   /* the label */
	const char *values; /* the words allowed, "- OR LU U FU" */
};
/* 0, or ORD_EBADDATA: "skema.xml:500: table 'skema_x' row: 'moral' is 'XX'
 * (expected one of - OR LU U FU)". */
int ord_tables_check_words(const struct ord_tables *t, const struct ord_tables_words *words, size_t n);

/* ---- a document a user hands in -------------------------------------------
 * A club's tables for a new game (orderly new, check --tables) or for the
 * calculator (calc, rules --tables) are held to more than ord_tables_load
 * asks: the tables a game keeps are loaded too, and a game goes on opening
 * and auditing clean whatever the ruleset's own document has become since
 * it was made.  The core calls these (ord_ruleset_check_given) with own,
 * the ruleset's built-in document. */

/* Every table and parameter of t is one of own's, a table of the same
 * kind: a name nothing reads (a misspelt parameter) would leave the
 * built-in value in force without a word.  Leaving names out is for the
 * module's load to judge.  0, or ORD_EBADDATA at the first in t:
 * "club.xml:23: unknown parameter 'figures_per_trey' (ruleset 'battalion'
 * reads no parameter of that name): did you mean 'figures_per_tray'?" */
int ord_tables_check_names(const struct ord_tables *t, const struct ord_tables *own);

/* No case of a chart, dice or bands table of t is given by two rows, so
 * that which of them is read would depend on their order (parameters
 * given twice are refused at load; modifier rows all apply).  Two rows
 * give the same case when every key of both names a value in common
 * (kind="line_infantry light_infantry" and kind="light_infantry"), or when
 * the earlier takes in every value of the later (a "*" where it names
 * one: the later is never read); and, in a dice or bands table, when
 * their rolls or ranges meet too.  Rows that meet only through a "*" of
 * the later one are a default after the particular cases, and allowed.
 * A chart without keys is not checked, nor a table whose rows in own give
 * a case twice themselves (the module reads them in order: Krigsspil's
 * riffel_andele).  In a table of more than 1000 rows only rows whose keys
 * are written alike are compared.  0, or ORD_EBADDATA at the later row:
 * "club.xml:103: table 'movement': the row for kind=line_infantry
 * formation=column is given twice (first at line 102): only the first is
 * read", "...: table 'morale': the rolls -5..-1 are given twice (first
 * at line 233)...", "...: the range (4, 8] for weapon=musket is given
 * twice ...". */
int ord_tables_check_rows(const struct ord_tables *t, const struct ord_tables *own);

/* Every case of a bands or dice table of t (a word of each key some row
 * names, given by its rows and those of "*") has rows that join end to
 * end, the bands (from, to] each beginning where the ones before end, the
 * rolls lo..hi each one past the rolls before; and that begin where own's
 * rows for the case do, and, dice, end there too (for a case own has not,
 * where all own's cases begin or end, when they do alike; bands end where
 * the club says: a reach corrected, "out of range" past it), so that no range or roll
 * its turns read is left without a row (a band deleted, a from
 * mistyped).  A table whose rows in own leave a gap themselves is not
 * checked.  In a table whose cases would take more than a few million
 * rows' reading, the cases past that are not checked.  0, or ORD_EBADDATA at the row
 * first in the document where one is missing: "club.xml:140: table
 * 'fire': no row gives the range (4, 5] for weapon=musket (the bands
 * before end at 4, this one begins at 5)", "...: no row gives the range
 * [0, 1) for weapon=musket (the first band begins at 1, the ruleset's
 * own at 0)", "...: no row gives the roll 20 for class=A (the last row
 * ends at 19, the ruleset's own at 20)", "...: the bands for
 * weapon=musket end at 20 (expected 16, where the ruleset's own end)". */
int ord_tables_check_joins(const struct ord_tables *t, const struct ord_tables *own);

/* ---- a table ------------------------------------------------------------- */

enum ord_table_kind ord_table_kind(const struct ord_table *tbl);
const char *ord_table_kind_name(enum ord_table_kind kind); /* "bands" */
const char *ord_table_name(const struct ord_table *tbl);
const char *ord_table_title(const struct ord_table *tbl);
const char *ord_table_note(const struct ord_table *tbl); /* NULL if none */
const char *ord_table_unit(const struct ord_table *tbl); /* "in", or NULL */
int ord_table_reconstructed(const struct ord_table *tbl);
int ord_table_provisional(const struct ord_table *tbl);
unsigned ord_table_line(const struct ord_table *tbl);
/* The dice table's die (6, 20), 0 if not given. */
int ord_table_die(const struct ord_table *tbl);
/* Declared key, column and label attribute names. */
size_t ord_table_nkeys(const struct ord_table *tbl);
const char *ord_table_key(const struct ord_table *tbl, size_t i);
size_t ord_table_ncolumns(const struct ord_table *tbl);
const char *ord_table_column(const struct ord_table *tbl, size_t i);
size_t ord_table_nlabels(const struct ord_table *tbl);
const char *ord_table_label(const struct ord_table *tbl, size_t i);
size_t ord_table_nrows(const struct ord_table *tbl);
const struct ord_row *ord_table_row(const struct ord_table *tbl, size_t i);
/* The distinct values of a key attribute over all rows, in order of first
 * appearance, space-separated ("musket rifle"); "*" is left out. */
void ord_table_key_values(const struct ord_table *tbl, const char *key, struct ord_buf *out);
/* Is value one of the values of attr over the rows (ord_table_key_values)?
 * 0, or ORD_EUSAGE: "KEY: missing (expected one of ...)" or "KEY: unknown
 * 'VALUE' (expected one of ...)", naming the argument key. */
int ord_table_check_word(const struct ord_table *tbl, const char *key, const char *value,
			 const char *attr);

/* ---- lookups --------------------------------------------------------------
 * `match` holds attribute=value pairs a row must agree with (NULL: none).
 * A row agrees with a pair when its attribute lists the value or "*".
 * Each returns 0, or ORD_ENOTFOUND with a message naming the table. */

/* The first row agreeing with every pair in match (any attributes). */
int ord_table_find(const struct ord_row **out, const struct ord_table *tbl, const struct ord_kv *match);
/* The same for one pair, key=value, without a match list to build: the
 * rules look a kind, a formation or a terrain up this way at every unit. */
int ord_table_find1(const struct ord_row **out, const struct ord_table *tbl, const char *key,
		    const char *value);
/* The band holding x among the rows agreeing with match. */
int ord_table_band(const struct ord_row **out, const struct ord_table *tbl,
		   const struct ord_kv *match, double x);
/* The dice row holding roll among the rows agreeing with match. */
int ord_table_dice(const struct ord_row **out, const struct ord_table *tbl,
		   const struct ord_kv *match, double roll);

/* Apply a modifiers table to base.  flags: a flag is set when its value is
 * yes/true/1; a `per` row reads its key as a number (absent = 0).  Writes
 * the total to *out and appends "12, +6 target in column, −3 target moved =
 * 15" to why (NULL: none); when nothing applies, just "12".  `match`, when
 * given, restricts the rows as in the lookups (e.g. shot=grape). */
int ord_table_apply(double *out, const struct ord_table *mods, double base,
		    const struct ord_kv *flags, const struct ord_kv *match, struct ord_buf *why);

/* How ord_table_apply_text writes its explanation. */
struct ord_apply_text {
	const char *label; /* the row attribute to write ("label_en" for a translation;
			      NULL: "label"); a row without it writes its label */
	int rows_only;     /* 1: only the rows applied (", +6 target in column"), without
			      the base and the total, for a caller who writes them itself */
};
/* ord_table_apply, writing each row's words as text says (NULL: as
 * ord_table_apply), and counting the rows applied into *applied (may be
 * NULL).  A module explaining in several languages calls it once per
 * language with the same inputs. */
int ord_table_apply_text(double *out, size_t *applied, const struct ord_table *mods, double base,
			 const struct ord_kv *flags, const struct ord_kv *match,
			 const struct ord_apply_text *text, struct ord_buf *why);

/* ---- a row ---------------------------------------------------------------- */

unsigned ord_row_line(const struct ord_row *row);
const struct ord_table *ord_row_table(const struct ord_row *row);
/* Any attribute as written, or NULL. */
const char *ord_row_attr(const struct ord_row *row, const char *name);
/* A number: a declared column, from/to, lo/hi, a param's or mod's value.
 * ORD_ENOTFOUND if the row says "-" (no value) or lacks it, with a message
 * "tables.xml:12: table 'movement' row has no value for 'charge'". */
int ord_row_num(const struct ord_row *row, const char *name, double *out);
/* 1 if the row has a number for name, 0 if "-" or absent. */
int ord_row_has_num(const struct ord_row *row, const char *name);
/* A string attribute (key or label), or NULL. */
const char *ord_row_str(const struct ord_row *row, const char *name);
int ord_row_reconstructed(const struct ord_row *row);
int ord_row_provisional(const struct ord_row *row);
const char *ord_row_note(const struct ord_row *row); /* NULL if none */
/* A modifier row's mode and label. */
enum ord_mod_mode ord_row_mode(const struct ord_row *row);
const char *ord_row_label(const struct ord_row *row);

/* ---- formatting ------------------------------------------------------------ */

/* A number as people write it: integers plain, else 2 decimals, or 3 where
 * those are the value exactly (an eighth: 1.125, not the 1.12 a referee
 * would type back), with trailing zeros dropped; negative numbers with
 * U+2212 when minus_sign. */
void ord_tables_fmt(struct ord_buf *out, double v, int minus_sign);
/* All tables (table == NULL) or the one named, as aligned text with [R] and
 * provisional marks and notes.  ORD_ENOTFOUND listing the names. */
int ord_tables_print(const struct ord_tables *t, const char *table, struct ord_buf *out);

#endif
