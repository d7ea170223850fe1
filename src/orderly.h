/*
 * orderly.h - the public API of liborderly.
 *
 * liborderly manages games of secret written orders with simultaneous
 * movement: one game is one SQLite file; each turn every side submits an
 * order sheet, receives a receipt (a commitment), the turn is sealed, its
 * phases are resolved by a ruleset module, and anybody can audit it.
 *
 * Conventions (libgit2 style):
 *  - Functions return 0 on success, a negative ORD_E* code on failure.  The
 *    message of the last failure in this thread is read with ord_error_last().
 *  - The library never prints and never exits; only the command line does.
 *  - Threads: a handle is used by one thread at a time (its SQLite
 *    connection is opened without a lock of its own); several handles of
 *    one game file, in as many threads or processes, are safe.
 *  - Output parameters come first.
 *
 * Ownership (stated once, jq style):
 *  - A handle returned through an output parameter (ord_game **, ...) belongs
 *    to the caller and is released with its _free function.
 *  - A `const char *` returned by a getter points into the handle and lives
 *    as long as the handle, unless the function says otherwise.
 *  - An ord_buf is owned by whoever called ord_buf_init on it; functions
 *    that take one only append to it.
 */
#ifndef ORDERLY_H
#define ORDERLY_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define ORD_VERSION "0.1.0"

/* Error codes; every failure a caller may handle has its own code. */
enum ord_error_code {
	ORD_OK = 0,
	ORD_ERROR = -1,     /* anything else (internal error) */
	ORD_EUSAGE = -2,    /* wrong arguments: unknown key, bad value */
	ORD_ENOTFOUND = -3, /* no such side, unit, turn, ruleset or table */
	ORD_EBADSHEET = -4, /* an order sheet was rejected */
	ORD_EBADDATA = -5,  /* malformed or invalid input file (XML, bundle) */
	ORD_ESEALED = -6,   /* the turn is sealed: no more sheets */
	ORD_ESTATE = -7,    /* not possible in the game's current state */
	ORD_ETAMPERED = -8, /* audit found a broken chain or commitment */
	ORD_ENOTGAME = -9,  /* the file is not an orderly game */
	ORD_ENEWER = -10,   /* the game file has a newer schema */
	ORD_ECHECK = -11,   /* an event disagrees with the sealed orders */
	ORD_EEXISTS = -12,  /* the game file already exists */
	ORD_EVERSION = -13, /* a module of another interface version, a game of an older protocol */
	ORD_ENOFILE = -14,  /* an input file does not exist or cannot be opened */
	ORD_ECANTWRITE = -15, /* a file may not be created or written: no such directory, no permission */
	ORD_ELIMIT = -16, /* past a limit of what a turn holds: a side's versions or sheet bytes, a bundle's size */
};

/* The message of the last error set in this thread ("" when none). */
const char *ord_error_last(void);
/* The code of the last error set in this thread. */
int ord_error_code(void);
/* Set the thread's last error; returns code so that `return ord_error_set(...)` reads well. */
int ord_error_set(int code, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;
void ord_error_clear(void);
/* The way out of a refusal that its message gives in the command line's
 * words, which a front-end with controls of its own (the web page) says
 * in its own words instead. */
enum ord_error_way {
	ORD_WAY_NONE,          /* the message names none */
	ORD_WAY_SEAL_FORCE,    /* a seal waiting for sides: "seal --force seals now" */
	ORD_WAY_RESOLVE_EMPTY, /* a phase with no event while orders wait for one:
				* record them, or resolve it empty (to the end) */
};
/* Which way the last error's message names (ORD_WAY_*), and where:
 * ord_error_last()[*at], *len bytes.  Each ord_error_set or clear takes
 * it back (ORD_WAY_NONE). */
int ord_error_way(size_t *at, size_t *len);
/* Say that the last error's message names way at msg[at], len bytes (the
 * library's own: set after ord_error_set). */
void ord_error_set_way(int way, size_t at, size_t len);

/*
 * A growable byte buffer (git strbuf).  Invariants: after ord_buf_init,
 * b->buf is never NULL and b->buf[b->len] == '\0'.  Allocation failure aborts.
 */
struct ord_buf {
	char *buf;    /* the bytes, always NUL-terminated */
	size_t len;   /* bytes in use, not counting the NUL */
	size_t alloc; /* bytes allocated, 0 while buf points at a static "" */
};
#define ORD_BUF_INIT                 \
	{                            \
		ord_buf__empty, 0, 0 \
	}
extern char ord_buf__empty[];
void ord_buf_init(struct ord_buf *b);
void ord_buf_release(struct ord_buf *b);
char *ord_buf_detach(struct ord_buf *b, size_t *len); /* caller frees */
void ord_buf_grow(struct ord_buf *b, size_t extra);
void ord_buf_add(struct ord_buf *b, const void *data, size_t len);
void ord_buf_adds(struct ord_buf *b, const char *s);
void ord_buf_addch(struct ord_buf *b, int c);
void ord_buf_addf(struct ord_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;
void ord_buf_vaddf(struct ord_buf *b, const char *fmt, va_list ap);
void ord_buf_reset(struct ord_buf *b);
/* Append s escaped for XML text or attribute content: a character a
 * reader does not see or that turns what he reads (a bidirectional
 * override, a C1 control) as a numeric character reference (&#x202E;),
 * the same text to an XML reader; a C0 control or a byte that is no UTF-8,
 * which XML 1.0 cannot hold, as U+FFFD. */
void ord_buf_add_xml(struct ord_buf *b, const char *s);
/* Append s as it may be shown on a terminal: a control character, a
 * bidirectional or invisible format character and a byte that is no UTF-8
 * escaped (\n, \x1b, \u202e, \xff), everything else as is. */
void ord_buf_add_shown(struct ord_buf *b, const char *s);
/* The same cut after max characters ("…"). */
void ord_buf_add_shown_cut(struct ord_buf *b, const char *s, size_t max);
/* The same in quotes, cut after max characters ("…"): a word of the
 * input quoted back in a message. */
void ord_buf_add_quoted(struct ord_buf *b, const char *s, size_t max);
/* Does s hold such a character?  0 if not; else 1 (-1 for a byte that is
 * no UTF-8) with its 1-based column in characters and its code point (or
 * the byte). */
int ord_text_unshowable(const char *s, unsigned *col, uint32_t *cp);
/* 0 if s holds none; else ORD_EUSAGE saying what (the reason, ...) holds
 * which character where. */
int ord_text_plain(const char *what, const char *s);
/* Decode the UTF-8 sequence at s (s < end): its length in bytes and its code
 * point, or 0 when it is not well-formed (overlong, surrogate, beyond
 * U+10FFFF, cut short). */
size_t ord_utf8_decode(const unsigned char *s, const unsigned char *end, uint32_t *cp);
/* 1 when the string s is well-formed UTF-8 throughout, else 0. */
int ord_utf8_valid(const char *s);
/* Bytes of the UTF-8 byte-order mark (U+FEFF, EF BB BF) that begins the n
 * bytes at s, 3, or 0 when they do not begin with one: what a reader of a
 * file or a text steps over first (Windows editors write one). */
size_t ord_utf8_bom_at(const void *s, size_t n);
/* Bytes of the blank the n bytes at s begin with (back 0) or end with
 * (back 1), or 0: an ASCII space, tab or line end, or a Unicode blank a
 * paste brings (U+0085, no-break U+00A0, U+1680, U+2000 to U+200B,
 * U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF).  What the web page
 * trims off a passphrase or a field, and a passphrase may not end in. */
size_t ord_utf8_blank_at(const void *s, size_t n, int back);
/* Characters in the valid UTF-8 from s to e: every byte but continuation bytes. */
unsigned ord_utf8_count(const unsigned char *s, const unsigned char *e);
/* Append len bytes as lowercase hex. */
void ord_buf_add_hex(struct ord_buf *b, const unsigned char *p, size_t len);

/*
 * Diagnostics: the list of problems found in one input (a sheet, an event).
 * Each names the line and column (1-based; 0 when not applicable), the unit
 * concerned (may be empty), the rule broken and a message.
 *
 * A list keeps the first ORD_DIAG_MAX_LISTED problems added, whoever adds
 * them (a notation's reader, a ruleset's checks); the rest are only counted
 * (more): a file sent by mistake gives a problem a line, and past this many
 * nobody reads them, while listing them all would cost seconds and
 * megabytes.  ord_diag_count is the real number of problems.
 */
#define ORD_DIAG_MAX_LISTED 1000
/* What filled one conversion of a message with an id (ord_diag_add_id):
 * its text as written in English, and, when the module gave it
 * (ord_diag_item_arg_said), its words in one other language. */
struct ord_diag_arg {
	char *text; /* as the conversion wrote it */
	char *lang; /* the language of said, NULL if none */
	char *said; /* text in lang, NULL if none */
};
/* An event of the turn a problem's message names by its number. */
struct ord_diag_ref {
	unsigned seq;   /* the event's number */
	size_t at, len; /* where msg names it: "event #SEQ" at msg[at], len bytes */
};
struct ord_diag_item {
	unsigned line, col;
	char *unit;                /* unit id or name as written, "" if none */
	char *rule;                /* short reference to the rule, "" if none */
	char *msg;                 /* lowercase, no full stop */
	char *attr;                /* the scenario attribute of the unit at fault, "" if none
		     * (ord_diag_add_attr: a front-end points at its place) */
	struct ord_diag_ref *refs; /* the events msg names by number
				    * (ord_diag_item_event), nrefs of them */
	size_t nrefs;
	char *kind;                /* the event kind that would carry out what msg says is
		     * still to do (ord_diag_item_kind: a check of execution's
		     * pending order), "" if none */
	const char *id;            /* the message's id in its module's catalogue
				    * (ord_diag_add_id: a static string), NULL
				    * if none: msg is then said in English only */
	struct ord_diag_arg *args; /* what filled msg's conversions, in order */
	size_t nargs;
};
struct ord_diag {
	struct ord_diag_item *items; /* the problems listed, at most ORD_DIAG_MAX_LISTED */
	size_t n, alloc;             /* items in use, allocated */
	size_t more;                 /* problems found past the cap: counted, not listed */
};
void ord_diag_init(struct ord_diag *d);
void ord_diag_release(struct ord_diag *d);
/* Add a problem: the item listed, or NULL when it was only counted (the
 * list is full), which the ord_diag_item_ calls below take too. */
struct ord_diag_item *ord_diag_add(struct ord_diag *d, unsigned line, unsigned col,
				   const char *unit, const char *rule, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 6, 7)))
#endif
	;
/* Add a problem whose message is the one of id in the module's catalogue
 * of messages (ruleset.h, messages: id and fmt, its English, as the
 * catalogue gives them): msg is fmt's English, and what filled each of
 * fmt's conversions is kept (it->args), so that a front-end can say the
 * message in another language from the module's words (the words of its
 * words_resource, chart messages), its conversions filled alike.  id is
 * a static string. */
struct ord_diag_item *ord_diag_add_id(struct ord_diag *d, unsigned line, unsigned col, const char *unit,
				      const char *rule, const char *id, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 7, 8)))
#endif
	;
/* Say argument k of item it (NULL, or no such argument: nothing) in
 * language lang as text (a rules' word the module writes in both, a
 * reason's "ild" for "fire"): the message said in lang fills the
 * conversion with it. */
void ord_diag_item_arg_said(struct ord_diag_item *it, size_t k, const char *lang, const char *text);
/* Append to the message of item it (NULL: nothing).  A message with an id
 * appended to is no longer its catalogue's: its id is dropped, and it is
 * said in English. */
void ord_diag_item_addf(struct ord_diag_item *it, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;
/* Append "event #SEQ" to the message of item it (NULL: nothing), naming
 * event seq of the turn, and note it in it->refs: an event the checks
 * name that a refused batch did not record is then named by the line it
 * was read from ("the event of line 3") without its words read again.
 * Write it where "the event of line 3" reads too ("(event #4)", "the
 * melee of event #4"), with no article before it. */
void ord_diag_item_event(struct ord_diag_item *it, unsigned seq);
/* Add a problem whose message names an earlier event of the turn in
 * parentheses after it: "MSG (event #SEQ)", the event noted in refs as
 * ord_diag_item_event notes it ("unit 'R1' already moved this turn (event
 * #4)").  fmt writes MSG, with no " (" of its own.  Returns what
 * ord_diag_add returns: more may be appended with ord_diag_item_addf
 * ("(event #4): a gun takes the turn to unlimber"). */
struct ord_diag_item *ord_diag_add_citing(struct ord_diag *d, unsigned line, unsigned col,
					  const char *unit, const char *rule, unsigned seq,
					  const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 7, 8)))
#endif
	;
/* Say that the event kind `kind` would carry out what item it (NULL:
 * nothing) says no event has done yet: a ruleset's check_execution names
 * the kind its order_events gives for the order ("move" for "ordered to
 * move ... but no move was recorded"), which the report's <pending> then
 * carries (its kind attribute) for a front-end to offer that event's form
 * without reading the words. */
void ord_diag_item_kind(struct ord_diag_item *it, const char *kind);
/* A problem with attribute attr of a scenario's unit (a ruleset's
 * init_unit: "a kind the tables do not have"): `new` names the place of
 * the attribute's value in the scenario. */
void ord_diag_add_attr(struct ord_diag *d, const char *unit, const char *attr, const char *rule,
		       const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 5, 6)))
#endif
	;
/* Take back the problems listed from index n on. */
void ord_diag_truncate(struct ord_diag *d, size_t n);
/* Count one problem without listing it (the caller saw the list is full,
 * and spares building its message). */
void ord_diag_add_unlisted(struct ord_diag *d);
/* Is the list full: is the next problem only counted? */
int ord_diag_full(const struct ord_diag *d);
/* Every problem added, listed or not. */
size_t ord_diag_count(const struct ord_diag *d);
/* Does the item's message name its unit already ('U' quoted in it, before
 * the hint of a unit not found, " did you mean '" or ": expected ", whose
 * units are others: ord_ctx_unit_hint)?  Then
 * a front-end leaves out its own "unit 'U': " before the message, so that
 * a problem names its unit once. */
int ord_diag_names_unit(const struct ord_diag_item *it);
/* Append the item's "MSG[ (rule)]": its message, then its rule in
 * brackets when it names one (every front-end writes a problem so). */
void ord_diag_item_format(struct ord_buf *out, const struct ord_diag_item *it);
/* "LINE:COL: [unit 'U': ]MSG[ (rule)]" lines, each prefixed by prefix (e.g.
 * a file name), the unit left out when the message names it; then, when
 * problems were only counted, "N more problems not listed". */
void ord_diag_format(const struct ord_diag *d, const char *prefix, struct ord_buf *out);
/* One of those lines, without its line end. */
void ord_diag_item_place(struct ord_buf *out, const struct ord_diag_item *it, const char *prefix);
/* Order the items from index from on by line, then column (stable: items
 * of one place keep their order). */
void ord_diag_sort(struct ord_diag *d, size_t from);

/* ---- utilities (for modules and front-ends too) ---------------------- */

#define ORD_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* An ordered list of key=value strings (unit attributes, unit state, event
 * arguments, result values).  Keys are unique; set replaces in place, so the
 * order of first insertion is kept and serialisation is deterministic. */
struct ord_kv_item {
	char *key;
	char *value;
};
struct ord_kv {
	struct ord_kv_item *items;
	size_t n, alloc;
};
void ord_kv_init(struct ord_kv *kv);
void ord_kv_release(struct ord_kv *kv);
void ord_kv_copy(struct ord_kv *dst, const struct ord_kv *src);   /* dst initialised */
const char *ord_kv_get(const struct ord_kv *kv, const char *key); /* NULL if absent */
void ord_kv_set(struct ord_kv *kv, const char *key, const char *value);
void ord_kv_setf(struct ord_kv *kv, const char *key, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
void ord_kv_set_int(struct ord_kv *kv, const char *key, long v);
void ord_kv_del(struct ord_kv *kv, const char *key);
long ord_kv_get_int(const struct ord_kv *kv, const char *key, long def);
double ord_kv_get_num(const struct ord_kv *kv, const char *key, double def);
/* yes/no/true/false/1/0; def when absent or unreadable */
int ord_kv_get_bool(const struct ord_kv *kv, const char *key, int def);
/* "key=value\n" per item, in order. */
void ord_kv_serialize(const struct ord_kv *kv, struct ord_buf *out);
/* Inverse of ord_kv_serialize (appends to kv).  Returns 0, or ORD_EBADDATA
 * naming the first line that is not KEY=VALUE, kv left as it was. */
int ord_kv_parse(struct ord_kv *kv, const char *text);
/* A text kept in several languages: texts maps a language to its text, the
 * first the ruleset's own (fewer than two: the text is first).  Adds the
 * text in lang, or the first when there is none in lang; lang NULL adds
 * every language, "first [en: second]". */
void ord_texts_render(const char *first, const struct ord_kv *texts, const char *lang,
		      struct ord_buf *out);

/* Parse a strict decimal integer / number; 0 on success, -1 otherwise. */
int ord_parse_long(const char *s, long *out);
int ord_parse_num(const char *s, double *out);
/* 1/0 for yes/no words, -1 if s is no boolean. */
int ord_parse_bool(const char *s);

/* Word lists: words separated by white space or '|' ("musket rifle",
 * "a|b|c").  The next word of *p (its length in *len, *p moved past it),
 * or NULL at the end. */
const char *ord_words_next(const char **p, size_t *len);
/* 1 if list holds word. */
int ord_words_has(const char *list, const char *word);
/* Append the words of list joined by sep, the last two by last:
 * ("a|b|no", ", ", " or ") gives "a, b or no", (l, " ", " ") "a b no". */
void ord_words_join(struct ord_buf *out, const char *list, const char *sep, const char *last);
/* Append word to the list in out, after sep unless out is empty. */
void ord_words_add(struct ord_buf *out, const char *sep, const char *word);
/* The edit distance of a and b (insertions, deletions, substitutions and
 * swaps of neighbours; ASCII letters folded), or max + 1 once past max. */
size_t ord_edit_distance(const char *a, const char *b, size_t max);
/* Append ": did you mean 'W'?" for the word W of list nearest to written
 * (one edit for a word under 6 letters, two above), nothing if none is. */
void ord_words_hint(struct ord_buf *out, const char *list, const char *written);
/* The key a word is matched by: the folded form of s..e (valid UTF-8)
 * into key, reset first (a notation's word_key, notation.h). */
typedef void (*ord_word_key)(struct ord_buf *key, const unsigned char *s, const unsigned char *e);
/* The value a notation's sheet gives written (valid UTF-8), read as its
 * words, into out (reset first): 1, or 0 when it is no words of the sheet
 * (a notation's word_value, notation.h). */
typedef int (*ord_word_value)(struct ord_buf *out, const char *written);
/* Append the spellings a notation's word_value reads, one word each, apart
 * by spaces, to out (a notation's word_forms, notation.h). */
typedef void (*ord_word_forms)(struct ord_buf *out);
/* The word of list whose key is written's (key NULL: written itself),
 * copied to out (reset first) as list writes it: 1, else 0. */
int ord_words_keyed(struct ord_buf *out, const char *list, const char *written, ord_word_key key);
/* ord_words_hint with the words and written compared by their keys (key
 * NULL: as written), naming the word as list writes it; nothing when two
 * words are as near (a guess), as a sheet's own hint does. */
void ord_words_hint_key(struct ord_buf *out, const char *list, const char *written, ord_word_key key);
/* ord_words_hint_key among list's words and the spellings of forms (a
 * list) that value reads as a word of list: the nearest a spelling, it is
 * named with that word ("kra": ": did you mean 'kar' (karre)?"); a word
 * and its spelling as near, the word; nothing when the nearest name two
 * words.  forms or value NULL: ord_words_hint_key. */
void ord_words_hint_forms(struct ord_buf *out, const char *list, const char *written,
			  ord_word_key key, const char *forms, ord_word_value value);

/* Case-insensitive ASCII compare. */
int ord_strcaseeq(const char *a, const char *b);
char *ord_strdup(const char *s); /* aborts on OOM, NULL stays NULL */
void *ord_xmalloc(size_t n);
void *ord_xcalloc(size_t n, size_t size);
void *ord_xrealloc(void *p, size_t n);

/* ---- games ---------------------------------------------------------- */

typedef struct ord_game ord_game;
struct ord_head;

/* A hook told of each change of a game (struct ord_change, below), called
 * inside the change's transaction after its rows are written, before the
 * commit; a non-zero return rolls the whole change back and is returned by
 * the call that made the change. */
struct ord_change;
typedef int (*ord_change_fn)(void *ud, ord_game *g, const struct ord_change *c);

/* No-move-received policy for a side that has not submitted at the seal. */
enum ord_nmr { ORD_NMR_HOLD, ORD_NMR_REPEAT, ORD_NMR_WAIT };

struct ord_keypair;

struct ord_create_opts {
	const char *ruleset;     /* NULL: the scenario's ruleset */
	const char *tables_path; /* NULL: the ruleset's built-in tables */
	int fixed_dice;          /* a test game: resolve takes its dice from --dice */
	/* appended by the signatures issue: zero means the old behaviour */
	int refereeless; /* sides commit first and open after the seal; every side needs a key */
	const struct ord_keypair *key; /* the game's key, kept outside the file (NULL: a new key kept in it) */
	/* appended by the honesty issue */
	int witnessed;      /* each side reveals a witness link per phase (docs/threat-model.md) */
	ord_change_fn hook; /* told of the creation (ORD_CHANGE_CREATE, with the opening's head) */
	void *hook_ud;
	/* appended by the map warning: NULL, or the caller's buffer, to which
	 * a game made appends what its ruleset says the referee should hear
	 * (ruleset.h create_notes), a line each; left as it was on failure */
	struct ord_buf *notes;
};

/* Create a new game file at path from a scenario.  Fails with ORD_EEXISTS if it exists. */
int ord_game_create(ord_game **out, const char *path, const char *scenario_path,
		    const struct ord_create_opts *opts);
/* Open an existing game file.  Refuses a file that is not an orderly game
 * (ORD_ENOTGAME) or has a newer schema (ORD_ENEWER), leaving it untouched;
 * one this process may not write (or whose directory it may not write:
 * SQLite makes files beside it) with ORD_ECANTWRITE; one missing a table
 * or with a bad page as damaged (ORD_EBADDATA). */
int ord_game_open(ord_game **out, const char *path);
/* Flags of ord_game_open_ext. */
enum ord_open_flag {
	/* The caller only reads the game.  A file that may be written is
	 * opened as by ord_game_open.  One that may not (an archived or
	 * mailed copy, a read-only directory) is opened read-only: nothing
	 * is written, to it or beside it, and every change through the
	 * handle fails with ORD_ECANTWRITE.  Refused then, untouched: a file
	 * of an older schema (ORD_EVERSION: it is brought up to date the
	 * first time it is opened with write access), and one whose -wal
	 * file holds changes SQLite cannot read without write access
	 * (ORD_ENOFILE), since the file without them is not the game. */
	ORD_OPEN_READONLY = 1 << 0,
};
/* ord_game_open with ORD_OPEN_* flags (0: the same as ord_game_open). */
int ord_game_open_ext(ord_game **out, const char *path, unsigned int flags);
void ord_game_free(ord_game *g);

/* The receipt of an accepted sheet. */
struct ord_receipt {
	int turn;
	int version; /* 1 for the first sheet of this side this turn */
	char side[64];
	unsigned char commitment[32];
};

/* Validate and store a sheet.  On rejection returns ORD_EBADSHEET with every
 * problem in diag; the attempt is logged but nothing else changes. */
int ord_game_submit(ord_game *g, struct ord_receipt *out, const char *side, const char *bytes,
		    size_t len, struct ord_diag *diag);
/* Check a sheet exactly as ord_game_submit would, storing and logging
 * nothing: ORD_EBADSHEET with every problem in diag, or 0.  reading (may be
 * NULL) receives orderly's reading of the sheet: every order that parsed,
 * in the notation's canonical form, one per line. */
int ord_game_check_sheet(ord_game *g, const char *side, const char *bytes, size_t len,
			 struct ord_diag *diag, struct ord_buf *reading);
/* A line of orderly's reading of a sheet marked as no accepted order. */
struct ord_reading_mark {
	size_t at;     /* where the line starts in the reading */
	unsigned line; /* the sheet's line it stands for */
	int refused;   /* 1: "# line N not accepted (see its problems): ORDER", an
			 * order read but refused by the rules; 0: "# line N not
			 * understood (see its problems)", a line not read */
	size_t order;  /* refused: where its ORDER starts in the reading */
	size_t words;  /* where its words after "# line N " start ("not ...") */
};
struct ord_reading_marks {
	struct ord_reading_mark *items; /* in the reading's order */
	size_t n, alloc;
};
void ord_reading_marks_release(struct ord_reading_marks *m); /* m zeroed before use */
/* ord_game_check_sheet, and marks (zeroed or released before) gets each
 * line of the reading that is no accepted order, so that a front-end
 * shows them so without reading the comments' words. */
int ord_game_check_sheet_marked(ord_game *g, const char *side, const char *bytes, size_t len,
				struct ord_diag *diag, struct ord_buf *reading,
				struct ord_reading_marks *marks);
/* The same checks with no game: for a player who holds only the scenario
 * (and the rules tables it is played with, NULL: the ruleset's own), as
 * the units stand when the game begins.  A game is made from the scenario
 * in a temporary directory and removed; nothing else is written.  side
 * NULL: the side whose units the sheet names (ORD_EUSAGE when it names
 * units of several sides, or none of the scenario's). */
int ord_check_sheet_scenario(const char *scenario_path, const char *tables_path, const char *side,
			     const char *bytes, size_t len, struct ord_diag *diag,
			     struct ord_buf *reading);
/* What a sheet the rules take may still be wrong in, appended to w as
 * problems are (each at its line and column, in characters after a byte
 * order mark), never a refusal: its heading (the comment lines before
 * its first order) naming another turn than turn, "# French, turn 1"
 * handed in at turn 2, or "træk 1" / "traek 1" (any case): last turn's
 * sheet sent again, which the rules may well take.  A turn named after
 * the first order ("# charged in turn 1") is not read.  The number of
 * warnings added.  Every front-end gives them beside its answer to a
 * check or a submit (ord_submit_opts' warnings). */
size_t ord_sheet_warnings(struct ord_diag *w, const char *bytes, size_t len, int turn);
/* What a player hands in with his sheet besides its bytes (all may be NULL). */
struct ord_submit_opts {
	const unsigned char *nonce;     /* the nonce he drew (NULL: the game draws one) */
	const unsigned char *signature; /* his signature over the commitment ('orderly sign') */
	const unsigned char *witness; /* witnessed dice: the top of his witness chain for the turn */
	/* non-NULL: the version of the side's sheet the player wrote against
	 * (0: none yet; a page drawn then, W21).  The sheet is stored only if
	 * the side's latest version is still that one, checked in the
	 * transaction that stores it; else ORD_ESTATE, nothing stored (another
	 * version came in meanwhile, from another page, the command line or
	 * mail: ord_game_side_sheet tells which). */
	const int *based_on;
	/* non-zero: when the sheet reached the game's own door (the mail
	 * judge's MTA), judged against the deadline in place of now while
	 * the turn is open: its entry is dated then, or at the last entry's
	 * time if that is later (the log's times never run back), never
	 * after now, and it is taken only if that is not after the deadline */
	int64_t received;
	/* appended by the wrong-turn warning: non-NULL, the sheet's warnings
	 * (ord_sheet_warnings at the open turn) are appended to it once the
	 * rules take the sheet, before it is stored, so that a change hook
	 * (the mail judge's receipt) can say them; a front-end shows them
	 * only when the call returns 0 */
	struct ord_diag *warnings;
};
/* Validate and store a sheet (ord_game_submit) with what opts gives.  The
 * receipt is handed out only once the game file itself holds the sheet
 * (not only its write-ahead log).
 *
 * Every version a side hands in goes into the turn's bundle (the drafts
 * too), so a side hands in at most ORD_SHEET_VERSIONS versions of its
 * sheet a turn (a referee-less game's commitments count) and at most
 * ord_game_sheet_budget() bytes of sheets: one more is refused with
 * ORD_ELIMIT, the game file unchanged, its last version standing.  Both
 * are far beyond what an honest game hands in (a sheet is a few KiB), and
 * keep the bundle of a turn verifiable: with every side at its cap its
 * sheets are ORD_TURN_SHEET_BYTES, base64 in the bundle 171 MiB, and as
 * much again for the sheets of the turn before its stand-ins repeat, a
 * sixth of ORD_BUNDLE_MAX_BYTES (core/bundle.h); a bundle is built in
 * memory, about twice its size at its peak.  The budget is the turn's
 * shared among its sides, so that no side's flood leaves another without. */
#define ORD_SHEET_VERSIONS 64
#define ORD_TURN_SHEET_BYTES ((int64_t)128 << 20)
/* The bytes of sheets a side of g may hand in a turn: ORD_TURN_SHEET_BYTES
 * over its sides (64 MiB each of two: 64 versions of the largest sheet
 * the web page and the mail judge take, 1 MiB). */
int64_t ord_game_sheet_budget(const ord_game *g);
/* *version: the version of side's sheet of the open turn stored with this
 * nonce, 0 when none (a signed sheet sent again is refused). */
int ord_game_nonce_stored(ord_game *g, const char *side, const unsigned char nonce[32], int *version);
int ord_game_submit_opts(ord_game *g, struct ord_receipt *out, const char *side, const char *bytes,
			 size_t len, const struct ord_submit_opts *opts, struct ord_diag *diag);
/* Seal the turn.  force=0 seals only if every side has submitted (or the
 * deadline has passed: from ord_game_seal_from on); force=1 is the referee
 * sealing early. */
int ord_game_seal(ord_game *g, int force);
/* The first second from which an unforced seal of g stands in for a side
 * that has not handed in, when the turn's deadline is deadline (the end of
 * its grace): the second after it in a game made before ORD_GAME_MADE, the
 * second second after it in a game made since (made=), whose verifier lets
 * no entry after such a seal be dated at or before the deadline (threat
 * model, attack 36). */
int64_t ord_game_seal_from(const ord_game *g, int64_t deadline);
/* Record a referee event for the current phase (key=value arguments).
 * A check that fails returns ORD_ECHECK with the reasons in diag unless
 * override_reason is given, in which case the event is kept, the
 * override logged, and 0 returned with what the checks said in diag.
 * A reason that is empty or only blanks is refused (ORD_EUSAGE). */
int ord_game_event(ord_game *g, const char *kind, int argc, char *const *argv,
		   const char *override_reason, struct ord_diag *diag);
/* ord_game_event, and *seq the event's number in its turn once it is
 * recorded (the number ord_game_void_event takes; 0 when it is not). */
int ord_game_event_seq(ord_game *g, const char *kind, int argc, char *const *argv,
		       const char *override_reason, struct ord_diag *diag, unsigned *seq);
/* One event of a batch (ord_game_events). */
struct ord_event_in {
	const char *kind; /* the event's kind; NULL: a line the caller refused
			   * itself (its problems already in diag), counted
			   * among the refused, so nothing is recorded */
	int argc;         /* its key=value arguments */
	char *const *argv;
	unsigned line; /* where it was read (its problems name it); 0: none */
	unsigned seq;  /* out: its number, once recorded */
	/* the column of each of argv in its line (0: unknown), so that a
	 * problem of an argument names it; NULL: the line alone */
	const unsigned *cols;
	/* the column of its kind word (0: unknown), so that a problem of the
	 * whole event names its line and column */
	unsigned col;
};
/* Record n events of the current phase in one transaction, or none: every
 * one is checked first, each against the orders, the units and the events
 * before it; when any is refused (ORD_EUSAGE for its arguments, ORD_ECHECK
 * against the orders without override_reason), nothing is recorded, diag
 * holds every problem of every event, each at its line, and the error
 * message counts every refused event.  An event with a line keeps its
 * problem at that line even when it is the only one.  A unit is named by
 * at most ORD_EVENTS_PER_UNIT standing events of a phase: one more is
 * refused for its arguments, override or not (void one first). */
#define ORD_EVENTS_PER_UNIT 64
int ord_game_events(ord_game *g, struct ord_event_in *evs, size_t n, const char *override_reason,
		    struct ord_diag *diag);
/* Void event seq of the current phase (before the phase is resolved), for
 * a stated reason: it no longer counts, the log keeps it and says why, and
 * audit lists it.  It may then be recorded again, corrected. */
int ord_game_void_event(ord_game *g, unsigned seq,
			const char *reason); /* Resolve the current phase (phase may be NULL or must name it: a guard
 * only, ord_resolve_opts.empty says an empty phase is meant empty); dice
 * are used only in a fixed-dice test game. */
int ord_game_resolve(ord_game *g, const char *phase, const int *dice, size_t ndice,
		     struct ord_buf *out);
struct ord_resolve_opts {
	const char *phase; /* NULL, or must name the current phase */
	const int *dice;   /* fixed-dice test games only */
	size_t ndice;
	/* in a game with witnessed dice, let the referee's chain stand in for
	 * the sides that have not revealed their link for the phase (the log
	 * and the audit say so) */
	int stand_in;
	const char *lang; /* the results' language in out (ord_game_lang) */
	/* when not NULL: how many orders of the turn no event of it carries
	 * out once the phase is resolved (as the referee's report lists them) */
	size_t *pending;
	/* when not NULL: how many sealed orders wait for an event of the
	 * phase, when it is refused for having none (ORD_ESTATE; 0 else).
	 * A phase with no event is refused while the ruleset says a sealed
	 * order waits for an event of it (ruleset.h order_events), unless
	 * empty says it is meant to go empty. */
	size_t *waiting;
	/* appended by red-team finding 9: the referee's word that the phase,
	 * if it has no event, is meant to go empty (resolve --empty); a phase
	 * with events is resolved with them all the same.  phase only checks
	 * which phase is current: it no longer says the phase goes empty */
	int empty;
	/* when not NULL: how many sides have not revealed their witness link
	 * for the phase, when it is refused for them (ORD_ESTATE; 0 else):
	 * stand_in would let the referee's chain stand in for them */
	size_t *unrevealed;
};
int ord_game_resolve_opts(ord_game *g, const struct ord_resolve_opts *o, struct ord_buf *out);
/* What a resolve that left n orders no event carries out says of them,
 * "N orders no event of the turn carries out so far (orderly report
 * --referee lists them)", in language lang as ord_game_lang names it
 * (NULL: the ruleset's first; a Krigsspil game's Danish), into out. */
int ord_game_pending_note(ord_game *g, const char *lang, size_t n, struct ord_buf *out);
/*
 * Witnessed dice (ord_create_opts.witnessed; docs/threat-model.md).  The
 * referee closes the current phase's events (no more may be recorded; a
 * head is signed over them, handed to every side), then each side reveals
 * its witness link for the phase; the phase's dice come from the turn's
 * dice key, its events and every link, so nobody knew them before the
 * events were fixed.
 */
int ord_game_close_phase(ord_game *g, struct ord_head *head);
/* Record side's link for the current phase (checked against the witness
 * chain its sealed sheet committed to). */
int ord_game_witness(ord_game *g, const char *side, const unsigned char link[32]);
/* Where a side's link for the current phase stands (the mail judge's
 * answer to a link, and its notice to the referee once all are in). */
enum ord_link_state {
	ORD_LINK_NONE,     /* none owed: its sealed sheet has no witness chain (a
			    * stand-in), so the referee's chain stands in for it */
	ORD_LINK_AWAITED,  /* its sheet committed to a chain; no link yet */
	ORD_LINK_REVEALED, /* its link for the phase is recorded */
};
/* The phase whose links are revealed next (*phase, 1-based, as
 * ord_game_witness takes it), whether its events are closed, and, when side
 * and state are given, where that side's link stands.  ORD_ESTATE when the
 * game is not witnessed or no phase awaits links (the turn is open, or
 * every phase is resolved); ORD_ENOTFOUND for an unknown side. */
int ord_game_link_state(ord_game *g, const char *side, int *phase, int *closed,
			enum ord_link_state *state);
/* A player's witness chain for a turn, from his key file's secret seed
 * (the first 32 bytes of sk) and the nonce of the sheet it goes with: its
 * top, sent with the sheet, and the link of phase index (1-based),
 * revealed after the phase's events are closed.  The nonce, fresh for
 * every sheet, gives every sheet a chain of its own: one of the game, turn
 * and side alone was the same in a game played again from a copy, or in
 * another given the same id, where its links could be had before the
 * events (docs/threat-model.md, 19).  nonce NULL: the chain as an orderly
 * before it made one, for a sheet signed by such an orderly. */
void ord_witness_top(unsigned char out[32], const struct ord_keypair *kp,
		     const unsigned char game_id[16], int turn, const char *side,
		     const unsigned char *nonce);
void ord_witness_link(unsigned char out[32], const struct ord_keypair *kp,
		      const unsigned char game_id[16], int turn, const char *side,
		      const unsigned char *nonce, int index);
/* Record side's link for the current phase, derived from the player's key
 * file (at the table) and the nonce of the side's sealed sheet, or as an
 * orderly before the nonce made it when that is the chain the sheet
 * committed to; ord_game_witness's errors. */
int ord_game_witness_key(ord_game *g, const char *side, const struct ord_keypair *kp);
/* Reveal the turn (sheets, nonces, dice seed) and open the next one. */
int ord_game_exchange(ord_game *g);
/* Set or clear (when == 0) the current turn's deadline (unix seconds). */
int ord_game_set_deadline(ord_game *g, int64_t when);
/* The same for the deadline the players are told (when, 0: none): the
 * turn keeps the end of the schedule's grace after it, until which sheets
 * are taken (schedule.c S3), read in the change's transaction.  What
 * `orderly deadline`, the web page's form and the mail judge's DEADLINE
 * set. */
int ord_game_set_told_deadline(ord_game *g, int64_t when);

struct ord_head;

/*
 * What a change did, for a front-end that must act in the same transaction
 * (the mail judge queues its replies so: a change and the mail it causes
 * commit together, or neither does).  Pointers live for the call only.
 */
enum ord_change_kind {
	ORD_CHANGE_SUBMIT = 1, /* a sheet stored: side, receipt */
	ORD_CHANGE_COMMIT,     /* referee-less: a signed commitment stored: side, receipt */
	ORD_CHANGE_OPEN,       /* referee-less: a commitment opened: side, receipt */
	ORD_CHANGE_SEAL,       /* the turn sealed: held (sides whose NMR policy applied) */
	ORD_CHANGE_EVENT,      /* a referee event recorded: phase */
	ORD_CHANGE_RESOLVE,    /* a phase resolved: phase, last_phase */
	ORD_CHANGE_EXCHANGE,   /* the turn exchanged and the next one opened */
	ORD_CHANGE_DEADLINE,   /* the turn's deadline set or cleared */
	ORD_CHANGE_CREATE,     /* the game made and turn 1 opened: head */
	ORD_CHANGE_CLOSE,      /* witnessed: a phase's events closed: phase, head */
	ORD_CHANGE_WITNESS,    /* witnessed: a side's link revealed: side, phase */
	ORD_CHANGE_SCHEDULE,   /* the mail judge's schedule set or cleared */
};
struct ord_change {
	enum ord_change_kind kind;
	int turn;                          /* the turn changed */
	const char *side;                  /* SUBMIT, COMMIT, OPEN; else NULL */
	const struct ord_receipt *receipt; /* SUBMIT, COMMIT, OPEN; else NULL */
	const char *phase;                 /* EVENT, RESOLVE: the phase; else NULL */
	int last_phase;                    /* RESOLVE: 1 when the turn's last phase was resolved */
	const char *held;            /* SEAL: "a, b" of the sides the NMR policy stood in for */
	int64_t deadline;            /* DEADLINE: unix seconds, 0 for none */
	const struct ord_head *head; /* CREATE, SEAL, CLOSE, EXCHANGE: the head just signed */
	/* SEAL: a line "SIDE holds: why" for each side the NMR policy 'repeat'
	 * held instead (no sheet before, or the first problem of the sheet it
	 * would repeat), and "SIDE repeats its sheet of turn N but UNIT holds:
	 * why" for each order it did not repeat; "" when none */
	const char *held_why;
	int64_t deadline_from; /* DEADLINE: the deadline before the change, 0 for none */
	/* DEADLINE made by a schedule whose grace changed (ord_game_set_schedule):
	 * 1, and the grace before it; the deadline the players were told
	 * (deadline_from - grace_from) stays, the end of its grace moved.  0
	 * for a deadline set (its grace is the schedule's, unchanged). */
	int grace_changed;
	int64_t grace_from;
};
/* Set (or clear, fn NULL) the hook of g. */
void ord_game_set_hook(ord_game *g, ord_change_fn fn, void *ud);
/* Run fn in one write transaction of g (BEGIN IMMEDIATE ... COMMIT): what it
 * writes commits together or, when it returns non-zero, not at all.  Calls
 * that change the game are refused inside it (ORD_ESTATE). */
int ord_game_transact(ord_game *g, int (*fn)(void *ud, ord_game *g), void *ud);
/* Run fn over one snapshot of g (a read transaction): every read it makes
 * sees the game as one committed state, whatever other processes commit
 * meanwhile (a web page made of several reads).  Changes are refused
 * inside it (ORD_ESTATE); fn's return is returned. */
int ord_game_read(ord_game *g, int (*fn)(void *ud, ord_game *g), void *ud);

/* What a game is and where its turn stands (strings live as long as g). */
struct ord_game_status {
	const char *title;
	const char *ruleset;
	const char *nmr; /* hold | repeat | wait */
	int fixed_dice, refereeless, witnessed;
	size_t nsides, nunits;
	int turn;          /* the current turn */
	const char *state; /* open | sealed | resolved | exchanged */
	const char *phase; /* the phase to resolve next, "" when none */
	int phases_resolved, nphases;
	int64_t deadline;                  /* unix seconds, 0: none */
	unsigned char seed_commitment[32]; /* the current turn's */
};
int ord_game_status(ord_game *g, struct ord_game_status *out);
int ord_game_info(ord_game *g, struct ord_buf *out, int xml);
/* ord_game_info with the referee's lines that change every phase (the
 * orders no event carries out yet, "pending:") in language lang, as
 * ord_game_lang names it (NULL: the ruleset's first, as a report's); the
 * XML's words stay the module's English.  ord_game_info is in English. */
int ord_game_info_lang(ord_game *g, struct ord_buf *out, int xml, const char *lang);
/* side == NULL is the referee's report.  turn <= 0: the current turn. */
int ord_game_report(ord_game *g, const char *side, int turn, int xml, struct ord_buf *out);
struct ord_report_opts {
	const char *side; /* NULL: the referee's report */
	int turn;         /* <= 0: the current turn */
	int xml;
	const char *lang; /* a language of the ruleset ("da"), "all", or NULL: its first */
	/* ord_bundle_verify_report: the report as it read when the turn's
	 * last phase was resolved, before the exchange (its side's own sheet
	 * only), as the mail judge mails it then; else as it reads after */
	int resolved;
	/* ord_bundle_verify_report: the report of a side as it read once
	 * this phase was resolved ("start": once the turn was sealed, none
	 * resolved), before the exchange, as the web page shows it during
	 * the turn; NULL: as resolved says.  Not of the referee's report,
	 * which lists the events recorded for the next phase as they came */
	const char *phase;
};
int ord_game_report_opts(ord_game *g, const struct ord_report_opts *o, struct ord_buf *out);
/* The report as text and as XML from one reading of the game (o->xml is
 * not looked at); either buffer may be NULL. */
int ord_game_report_both(ord_game *g, const struct ord_report_opts *o, struct ord_buf *text,
			 struct ord_buf *xml);
/* The report's text (o->xml is not looked at) written at fd's offset
 * (name for messages) a piece of 64 KiB or so at a time as it is made,
 * never held whole (a side's report of 100,000 units is 11.6 MB), *len
 * the bytes written; byte for byte what ord_game_report gives.  Errors
 * as ord_game_report's, and ORD_ECANTWRITE when the file cannot be
 * written (what was written before it stays: the caller's to drop). */
int ord_game_report_fd(ord_game *g, const struct ord_report_opts *o, int fd, const char *name,
		       size_t *len);
/* The language lang names for g's ruleset in *out: lang itself, the
 * ruleset's first for NULL, NULL for "all" (every language); ORD_EUSAGE
 * naming the languages it writes otherwise. */
int ord_game_lang(ord_game *g, const char *lang, const char **out);
/*
 * Pictures (canvas.h), as SVG documents appended to svg, drawn by the
 * game's ruleset as side may see them (NULL: the referee) by the rule of
 * the reports, with their words in lang ("da" or "en"; NULL: "en").
 * ord_game_map: the table after phase (NULL: the last phase resolved;
 * "start": as the turn opened) of turn (<= 0: the current one).
 * ord_game_chart: the story of the game, every phase resolved so far.
 * ORD_ENOTFOUND for an unknown side, turn or phase, or a ruleset that draws
 * no such picture; ORD_ESTATE for a phase not resolved yet, or a game that
 * lacks what the picture needs (a map without positions).
 */
int ord_game_map(ord_game *g, struct ord_buf *svg, const char *side, int turn, const char *phase,
		 const char *lang);
int ord_game_chart(ord_game *g, struct ord_buf *svg, const char *side, const char *lang);
/* Recompute the chain, every commitment and roll; write findings to out.
 * Returns 0 when clean, ORD_ETAMPERED when anything is broken. */
int ord_game_audit(ord_game *g, int turn, struct ord_buf *out);
/* The same, its first line naming the game name ("audit of 'NAME':"), not
 * by the file's path: a front-end that shows no server's directories. */
int ord_game_audit_named(ord_game *g, int turn, const char *name, struct ord_buf *out);

/*
 * What a sheet's commitment binds besides its bytes and nonce: the game,
 * the turn, the side, the turn's seed commitment (logged when the turn
 * opened and signed in the head the players were handed: a receipt is
 * worthless for any other seed, so the seed cannot be re-drawn after the
 * sheets are in) and, in a game with witnessed dice, the top of the side's
 * witness chain.
 */
struct ord_sheet_binding {
	unsigned char game_id[16];
	int turn;
	const char *side;
	unsigned char seed_commitment[32];
	unsigned char witness[32]; /* the chain's top; zeros when the game is not witnessed */
};
/* Commitment over a sheet: BLAKE2b-256(tag, the binding, nonce, bytes). */
void ord_commit_sheet(unsigned char out[32], const struct ord_sheet_binding *b,
		      const unsigned char nonce[32], const void *bytes, size_t len);

/* ---- keys, signatures, turn bundles ----------------------------------- */

/*
 * Ed25519 keys (libsodium).  The game has one (the referee's, made by `new`):
 * it signs the head of the log at every seal and exchange, and every turn
 * bundle.  A player may have one (`keygen`); a side whose scenario entry
 * carries its public key must sign the commitment of each of its sheets.
 *
 * Key files are text, one "name: value" per line after a first line naming
 * the format; '#' starts a comment (docs/threat-model.md, "Files"):
 *     orderly secret key v1          orderly public key v1
 *     seed: <64 hex digits>          public: <64 hex digits>
 *     public: <64 hex digits>
 */
struct ord_keypair {
	unsigned char pk[32]; /* public key */
	unsigned char sk[64]; /* libsodium's secret key: the seed, then pk */
};
void ord_keypair_generate(struct ord_keypair *out);
/* Write a secret key file (mode 0600) and, when pub_path is not NULL, its
 * public key file.  Refuses to replace an existing file (ORD_EEXISTS). */
int ord_key_save(const struct ord_keypair *kp, const char *path, const char *pub_path);
/* Read a secret key file; ORD_ENOTFOUND, or ORD_EBADDATA naming the line. */
int ord_key_load(struct ord_keypair *out, const char *path);
/* A public key: 64 hex digits, or the path of a public or secret key file. */
int ord_pubkey_parse(unsigned char out[32], const char *hex_or_path);

/* What a player hands in for a signed or referee-less submission. */
struct ord_signed_sheet {
	unsigned char nonce[32];      /* fresh, secret until the exchange */
	unsigned char commitment[32]; /* ord_commit_sheet of the sheet with that nonce */
	unsigned char signature[64];  /* Ed25519 over (game id, turn, side, commitment) */
};
/* Draw a nonce, commit to the sheet and sign the commitment. */
void ord_sheet_sign(struct ord_signed_sheet *out, const struct ord_sheet_binding *b,
		    const void *bytes, size_t len, const struct ord_keypair *kp);
/* The same with the nonce the caller drew in out->nonce (ord_nonce_draw):
 * a sheet with witnessed dice, whose chain is of its nonce. */
void ord_sheet_sign_nonce(struct ord_signed_sheet *out, const struct ord_sheet_binding *b,
			  const void *bytes, size_t len, const struct ord_keypair *kp);
/* 32 fresh random bytes: a sheet's nonce. */
void ord_nonce_draw(unsigned char out[32]);
/* 0 when signature is side's signature over commitment, else ORD_EBADDATA. */
int ord_sheet_sig_check(const unsigned char pk[32], const unsigned char signature[64],
			const unsigned char game_id[16], int turn, const char *side,
			const unsigned char commitment[32]);
/* A draft's signature ('orderly sign --draft'): a fresh nonce, the
 * commitment, and a signature over (game id, turn, side, commitment) under
 * another name than a sheet's.  It proves who sent a sheet to be checked
 * (a CHECK mail) and commits him to nothing: no submit takes it, and no
 * sheet's signature passes for it. */
void ord_draft_sign(struct ord_signed_sheet *out, const struct ord_sheet_binding *b,
		    const void *bytes, size_t len, const struct ord_keypair *kp);
/* 0 when signature is side's draft signature over commitment, else
 * ORD_EBADDATA. */
int ord_draft_sig_check(const unsigned char pk[32], const unsigned char signature[64],
			const unsigned char game_id[16], int turn, const char *side,
			const unsigned char commitment[32]);

/*
 * A signed head: the game's signature over the hash of one log entry, made
 * when the game is created ("open", turn 1), at each seal, at each close of
 * a phase's events in a witnessed game ("close"), and at each exchange, and
 * handed to every side.  Whoever keeps it can later prove that the history
 * up to that entry was rewritten, even when the whole chain was recomputed.
 * The heads at "open" and "exchange" sign the log up to the opening of the
 * next turn and carry that turn's seed commitment: a player has it, signed,
 * before he writes a sheet.  Its file is text (ord_head_format).
 */
struct ord_head {
	unsigned char game_id[16];
	int turn;    /* the turn created, sealed, closed or exchanged */
	char at[16]; /* "open", "seal", "close", "exchange", "receipt", "sealed" or "link" */
	int64_t seq; /* the log entry signed */
	unsigned char hash[32];            /* its hash */
	int has_seed_commitment;           /* "open" and "exchange" heads */
	unsigned char seed_commitment[32]; /* of the turn open for sheets after the head */
	unsigned char key[32];             /* the game's public key */
	unsigned char signature[64];
	/* appended by the witnessed-close issue */
	int phase; /* "close": the phase (1-based) whose events it closes, signed with
		    * the rest; 0 in a close head of an earlier orderly, which states none */
	/* appended by the signed-receipt issue: a "receipt" states the
	 * commitment of the sheet it receipts, signed with the rest, which the
	 * entry it signs must log and the player compares with his own */
	int has_commitment;
	unsigned char commitment[32];
	/* appended by red-team finding 4: the head is of a fixed-dice game
	 * ('new --fixed-dice'), written as the comment ORD_HEAD_FIXED_DICE and
	 * read back from it.  Not signed: the log entry the head signs logs
	 * the game's dice, and verify and audit say so from there */
	int fixed_dice;
	/* appended by attack 47: a receipt's (or sealed head's) words, the
	 * comment "# turn T, side S, version V, commitment C" that
	 * ord_receipt_head_format writes under its first line and a player
	 * reads, read back.  Nothing signs them: verify holds them to what the
	 * game signed and to the entry it signs, so that a receipt of one
	 * sheet cannot be handed out in words of another */
	int words;               /* 1 read; 0 none; -1 a line that starts so but does not
				  * read so, or a second one */
	unsigned words_line;     /* the line of the words (or of the one that does not read) */
	struct ord_receipt said; /* what they say, when words is 1 */
	unsigned odd_line; /* the first comment line orderly writes in no such head, 0: none */
	char odd[96];      /* its text, cut at a character */
	/* appended by hhon10 (attack 47 at the submit): the game's signature
	 * over the words too (ord_head_words_check), a message of its own
	 * written as the comment "# words-signature: HEX" under them, so that
	 * an orderly before it still reads and checks the head as before (a
	 * comment line it does not know is a note there).  Made by the game
	 * with said (words 1) when it signs a receipt or sealed head */
	int words_signed; /* 1 read or made; 0 none (an orderly before core revision 2026-12-07.1);
				   * -1 a line that starts so but does not read, or a second one */
	unsigned words_sig_line; /* its line, when read */
	unsigned char words_signature[64];
	/* appended by hsecr11 (attack 49's leftover): the head states and
	 * signs no entry number (format v3, ORD_HEAD_MAGIC_V3: a close head,
	 * with its phase, or a link head, of a witnessed game, handed out
	 * before the exchange, where the number told how many events the
	 * phase logged).  The hash fixes the entry, whose number it hashes;
	 * seq is 0 in a head read from a file, and found in the log by the
	 * hash (audit, verify) */
	int unnumbered;
};
/* The first line of a head of format v3 (an orderly before it refuses the
 * file at that line: it reads "orderly signed head v2" only). */
#define ORD_HEAD_MAGIC_V3 "orderly signed head v3"
/* The comment line that opens a fixed-dice game's head. */
#define ORD_HEAD_FIXED_DICE "# FIXED DICE: a test game made with 'orderly new --fixed-dice'."
/* The turn whose sheets a head's seed commitment binds (turn + 1 after an
 * exchange, 1 at the game's opening), 0 for a head without one. */
int ord_head_next_turn(const struct ord_head *h);
/* Parse a head file (name for messages): ORD_EBADDATA naming the line.  A
 * receipt's or sealed head's words and the first comment line no such
 * head of orderly's has are read into words, said and odd, and refuse
 * nothing: verify holds them to what the game signed. */
int ord_head_parse(struct ord_head *out, const char *text, size_t len, const char *name);
void ord_head_format(const struct ord_head *h, struct ord_buf *out);
/* A receipt head (at "receipt") as the player keeps it: ord_head_format
 * with the receipt's turn, side, version and commitment in a comment, and
 * under it the game's signature of them when h has one (words_signed: the
 * words written are then h->said, the ones signed, and r is not read). */
void ord_receipt_head_format(const struct ord_head *h, const struct ord_receipt *r,
			     struct ord_buf *out);
/* 0 when h's words (said) are signed by the game's key h names, with
 * h's game, turn, kind, entry and hash: words_signed is 1 and the
 * signature holds; else ORD_ETAMPERED (no signature, one that does not
 * read, or does not hold: words changed after the game signed them). */
int ord_head_words_check(const struct ord_head *h);
/* 1 when a head at `at` may sign a log entry of that kind: "open" and
 * "exchange" a turn's opening ("open"), "receipt" a "sheet", "commit" or
 * "opening", "sealed" a "seal", "link" a "witness", the others their own
 * kind. */
int ord_head_signs_kind(const char *at, const char *kind);
/* 0 when the signature holds under h->key, else ORD_ETAMPERED (a close
 * head with a phase is checked with it, one without as an earlier orderly
 * signed it). */
int ord_head_check(const struct ord_head *h);

/* The game's id (as `info` shows it) and public key.  The key is
 * ORD_ENOTFOUND in a game made before keys, until its first seal. */
void ord_game_id(ord_game *g, unsigned char out[16]);
int ord_game_pubkey(ord_game *g, unsigned char out[32]);
/* For a game whose key is kept outside the file (`new --key`): the key to
 * sign with from now on; refused unless it is the game's (ORD_EBADDATA). */
int ord_game_use_key(ord_game *g, const struct ord_keypair *kp);
/* 1 when g can sign (its key is in the file, or was given by ord_game_use_key). */
int ord_game_can_sign(ord_game *g);

/* Submit a sheet with the nonce the player drew and his signature (both
 * NULL: the game draws the nonce; a side with a key is then refused).
 * The commitment is recomputed and the signature checked (ORD_EBADDATA). */
int ord_game_submit_signed(ord_game *g, struct ord_receipt *out, const char *side,
			   const char *bytes, size_t len, const unsigned char *nonce,
			   const unsigned char *signature, struct ord_diag *diag);
/* Referee-less games: a side's signed commitment alone, before the seal. */
int ord_game_commit(ord_game *g, struct ord_receipt *out, const char *side,
		    const unsigned char commitment[32], const unsigned char signature[64]);
/* Referee-less games: open the sealed commitment of side with its sheet and
 * nonce; refused before the seal, with a wrong nonce or changed bytes. */
int ord_game_open_sheet(ord_game *g, struct ord_receipt *out, const char *side, const char *bytes,
			size_t len, const unsigned char nonce[32], struct ord_diag *diag);
/* The same, with witnessed dice: witness is the top of the side's chain
 * its commitment binds ('orderly sign --witness'); NULL in a game without
 * them (where a top is refused, as its absence is with them). */
int ord_game_open_sheet_witnessed(ord_game *g, struct ord_receipt *out, const char *side,
				  const char *bytes, size_t len, const unsigned char nonce[32],
				  const unsigned char *witness, struct ord_diag *diag);
/* The signed head stored at the seal or exchange ("seal"/"exchange") of
 * turn; turn <= 0: the latest of that kind. */
int ord_game_head(ord_game *g, struct ord_head *out, int turn, const char *at);
/* The signed head of the close of phase (1-based) of turn (<= 0: the
 * latest turn with a close head), or ORD_ENOTFOUND. */
int ord_game_head_close(ord_game *g, struct ord_head *out, int turn, int phase);
/* A receipt (docs/threat-model.md, 21): the game's signed head of the log
 * entry that logs side's version of turn (a sheet, a referee-less
 * commitment or its opening) with that commitment, signed now and not
 * stored (Ed25519 gives the same signature again).  ORD_ENOTFOUND when
 * the log holds no such entry; ORD_EUSAGE when the game's key is kept
 * outside its file and was not given (ord_game_use_key). */
int ord_game_receipt_head(ord_game *g, struct ord_head *out, const struct ord_receipt *r);
/* The receipt of r's turn, side and version signed again (a player who
 * lost his: the same file, as Ed25519 signs the same way), r's commitment
 * filled from the entry.  Errors as ord_game_receipt_head. */
int ord_game_receipt_head_again(ord_game *g, struct ord_head *out, struct ord_receipt *r);
/* The game's signed head ("sealed") of r's turn's seal, stating the
 * commitment the seal took for r's side, r's version and commitment filled
 * from the seal (as ord_game_receipt_head_again fills a receipt's: format
 * it with ord_receipt_head_format): the player's proof, before he reveals
 * a witness link, that the sheet sealed for him is his own (threat model
 * 26); a receipt shows only that it was stored.  Handed to that side;
 * ORD_ENOTFOUND when the turn is not sealed (or its seal names no such
 * side).  Errors as ord_game_receipt_head. */
int ord_game_sealed_head(ord_game *g, struct ord_head *out, struct ord_receipt *r);
/* The game's signed head ("link") of the log entry that records side's
 * witness link of phase (1-based) of turn: the player's proof that his link
 * was in the log before the phase was resolved (threat model, 22).  Errors
 * as ord_game_receipt_head. */
int ord_game_link_head(ord_game *g, struct ord_head *out, int turn, const char *side, int phase);
/* ord_game_audit, and also that each of the heads (kept by the players)
 * is signed by the game's key and matches the log. */
int ord_game_audit_heads(ord_game *g, int turn, const struct ord_head *heads, size_t nheads,
			 struct ord_buf *out);

/* Export an exchanged turn as a signed bundle (an XML document). */
int ord_game_export(ord_game *g, int turn, struct ord_buf *out);
/* The same bundle, byte for byte, written into fd (an empty regular file
 * open for reading and writing; name for messages) as it is made, never
 * held whole: the turn's rows read by the same queries in the same order,
 * the document signed as it is read back (each piece held to the hash of
 * what was written), synced, and then verified from the file in pieces as
 * `orderly verify FILE` reads it.  *len the bundle's bytes.  Refused as
 * ord_game_export refuses, with the same messages; the file then holds no
 * bundle to keep (the caller removes it).  ORD_ECANTWRITE when the file
 * cannot be written or changed under it. */
int ord_game_export_fd(ord_game *g, int turn, int fd, const char *name, size_t *len);
/* 32 bytes that name what ord_game_export of turn writes: the same while
 * the bundle would be the same, another when anything it holds changed
 * (the game, the turn, the last log entry it holds), so that a bundle
 * written once can be handed out again (the web page's cache).  Refused
 * as ord_game_export is for a turn not exchanged. */
int ord_game_export_id(ord_game *g, int turn, unsigned char id[32]);
/* 32 bytes that name the bundle ord_game_export of turn would give from
 * the game file as it is now: a hash of its bytes (the same record makes
 * the same bytes: Ed25519 signs alike), made without the verifier's check
 * and without holding the bundle: its bytes are made twice, a piece at a
 * time, counted (the hash puts their length first) and then hashed (about
 * a fifth of an export's work, its memory a chunk of rows and the
 * scenario).  Another when anything the
 * bundle is made from changed, through orderly or not (a row edited with
 * the sqlite3 shell, which leaves ord_game_export_id as it was), so that
 * what was found of one bundle (the web page's copy of it, the mail
 * judge's refusal of it) is found again only once the file changed.
 * Errors as ord_game_export's, but for the check's. */
int ord_game_export_state(ord_game *g, int turn, unsigned char id[32]);
/* The same 32 bytes of a bundle made (len bytes ord_game_export gave). */
void ord_bundle_state(const void *bytes, size_t len, unsigned char id[32]);
/* The same of the len bytes of the file open at fd (ord_game_export_fd's),
 * read a piece at a time; name for messages.  0, or ORD_ERROR when the
 * file cannot be read or is shorter. */
int ord_bundle_state_fd(int fd, size_t len, const char *name, unsigned char id[32]);
/* A new empty file for what is made of game g and too large to hold in
 * memory (a bundle, a mail attaching it): made 0600 beside the game file,
 * else in TMPDIR, else in /tmp, and removed at once, so that it goes with its
 * last descriptor on every path (a crash too).  Its descriptor, open for
 * reading and writing, which the caller closes; ORD_ECANTWRITE when
 * neither directory takes one. */
int ord_game_temp_fd(ord_game *g);

/* A witness link the player gave, as his record keeps it (witness
 * --link-for writes it; line: the record's line). */
struct ord_witness_given {
	unsigned char game_id[16];
	int turn, phase, line;
	char side[33];
	unsigned char link[32];
};

struct ord_verify_opts {
	const unsigned char *pubkey;         /* the game's key as the player knows it, or NULL */
	const unsigned char (*receipts)[32]; /* commitments the player was given */
	size_t nreceipts;
	/* receipts the game signed (heads at "receipt": submit --receipt-head,
	 * the receipt mail's attachment), named by receipt_names (may be NULL) */
	const struct ord_head *receipt_heads;
	const char *const *receipt_names;
	size_t nreceipt_heads;
	const struct ord_head *heads; /* signed heads the player kept */
	size_t nheads;
	/* the close heads his witness record keeps (witness --link-for): those
	 * of this bundle's game and turn are held as heads he kept, the rest
	 * passed by, so that a close answered on a copy of the game shows */
	const struct ord_head *record_heads;
	size_t nrecord_heads;
	/* the links the same record says he gave (one line each; records
	 * written before 2026-12-05 keep none): each of this bundle's game and
	 * turn must be of the chain his side's sealed sheet commits to, and
	 * the one its dice used; else his sheet was stored with another
	 * chain than his, whose links the referee knew */
	const struct ord_witness_given *given_links;
	size_t ngiven_links;
	const char *record_name; /* for messages */
	/* the scenario and the rules tables the game was to be played with,
	 * as the player was given them (NULL: not given); the verifier says
	 * whether the game's are these (the scenario without its mail
	 * addresses, as a game keeps it; the tables completed as `new` does) */
	const char *scenario;
	size_t scenario_len;
	const char *scenario_name; /* for messages */
	const char *tables;
	size_t tables_len;
	const char *tables_name;
	/* what the names of the game's head files begin with where the
	 * output names one to give (NULL or "": none, "open-1.head"): the
	 * judge and the web page name a game's files after it
	 * ("crossroads-" gives "crossroads-close-1-2.head"), and the bundle
	 * carries only the game's id (`verify` takes it from the bundle's own
	 * name, when that is theirs: "crossroads-turn-1.xml") */
	const char *head_prefix;
	/* the failures as data, for a caller that acts on them (export's
	 * refusal) rather than read them out of the findings' text: when not
	 * NULL and a check fails, called once, before ORD_ETAMPERED is
	 * returned, with failed_ud, the verdict's line as out says it ("2
	 * checks FAILED", "3 checks FAILED: log entry 5 was changed, and 2 of
	 * the failures may only follow from it") and each failure's line as
	 * out says it, in order ("FAILED: ...", "FAILED (may follow from entry
	 * 5): ..."), all without indent or newline and the verifier's, valid
	 * during the call: n of them, the count the verdict says.  Never
	 * called when every check holds or the bundle cannot be read. */
	void (*failed)(void *ud, const char *verdict, const char *const *lines, size_t n);
	void *failed_ud;
};
/*
 * A player's check of a receipt when it comes (`verify --receipt FILE
 * --pubkey KEY` with no bundle; docs/threat-model.md, 47): that the game's
 * key (pubkey) signed it, and its words, "turn T, side S, version V,
 * commitment C", too (ord_head_words_check), with the turn and commitment
 * the head signs; with commitment (may be NULL: a side without a key has
 * none of its own), that it is the one the game states; with each opening
 * head given (the game's "open" head, or the exchange head before the
 * receipt's turn), that the receipt is of that game and, of the turn it
 * opens, signs an entry after the opening.  h is as ord_head_parse read
 * it, name its file.  The findings go to out, one line each, the last
 * "this receipt is for turn T, side S, version V of the sheet with
 * commitment C" when it holds.  Returns 0 when it does; ORD_ETAMPERED when
 * a check fails, or when its words are not signed (a receipt of an
 * orderly before core revision 2026-12-07.1: it shows then only the turn and commitment,
 * and holds only when commitment is given and is the one it states).
 */
int ord_receipt_check(const struct ord_head *h, const char *name, const unsigned char pubkey[32],
		      const unsigned char *commitment, const struct ord_head *openings,
		      const char *const *opening_names, size_t nopenings, struct ord_buf *out);
/*
 * Check a bundle offline: its signature, the chain of its log entries,
 * every commitment, the seed, the dice, events, results, heads and
 * receipts.  The findings go to out.  Returns 0 when every check holds,
 * ORD_ETAMPERED when any fails, ORD_EBADDATA when the bundle cannot be
 * read (not XML, entities, not a bundle).
 */
int ord_bundle_verify(const char *bytes, size_t len, const char *name,
		      const struct ord_verify_opts *opts, struct ord_buf *out);
/*
 * ord_bundle_verify, and then, when every check holds, the turn report ro
 * asks for (ro->side, NULL or "referee" when no side has that name: the
 * referee's; ro->xml; ro->lang; ro->resolved; not ro->turn: the bundle's)
 * rebuilt from the bundle's record into report: byte for byte what
 * ord_game_report_opts gives from the game file for that turn, by the same
 * builder.  A bundle that fails a check gives no report (ORD_ETAMPERED);
 * an unknown side ORD_ENOTFOUND and a language the ruleset does not write
 * ORD_EUSAGE, with out holding the findings.
 */
int ord_bundle_verify_report(const char *bytes, size_t len, const char *name,
			     const struct ord_verify_opts *opts, const struct ord_report_opts *ro,
			     struct ord_buf *out, struct ord_buf *report);
/* ord_bundle_verify_report of bytes it takes (malloc'd, or NULL for none),
 * freed as soon as the bundle is read and its signature checked, so that
 * the replay does not hold them too: a bundle of 100,000 units is 156 MB. */
int ord_bundle_verify_report_take(char *bytes, size_t len, const char *name,
				  const struct ord_verify_opts *opts, const struct ord_report_opts *ro,
				  struct ord_buf *out, struct ord_buf *report);
/* What ord_bundle_verify_map_take draws. */
struct ord_map_opts {
	const char *side;  /* NULL or "referee" when no side has that name: the referee's */
	int turn;          /* <= 0: the bundle's; else it must be the bundle's */
	const char *phase; /* as ord_game_map takes it: NULL the last, "start", a name */
	const char *lang;  /* as ord_game_map takes it */
	/* the map as it was drawn before the exchange, once its phase was
	 * resolved (the turn sealed, or resolved after the last phase: the
	 * side's own sheet only); else as the game file draws it after */
	int resolved;
};
/* ord_bundle_verify of bytes it takes (malloc'd, or NULL for none), and
 * then, when every check holds, the map mo asks for drawn from the
 * bundle's record into svg: byte for byte what ord_game_map gives from the
 * game file for that turn and phase, by the same drawer (core/picture.h),
 * with the same fog of war.  A bundle that fails a check draws nothing
 * (ORD_ETAMPERED); an unknown side, phase or turn, or a ruleset that draws
 * no map, ORD_ENOTFOUND; a language the ruleset does not write
 * ORD_EUSAGE; a game without positions ORD_ESTATE; out holding the
 * findings. */
int ord_bundle_verify_map_take(char *bytes, size_t len, const char *name,
			       const struct ord_verify_opts *opts, const struct ord_map_opts *mo,
			       struct ord_buf *out, struct ord_buf *svg);
/* ord_bundle_verify_report_take of bytes read from the file open at fd
 * (which stays the caller's): without a report (ro NULL), the rolls,
 * results and unit states are not kept once read and checked, but read
 * again from fd when the replay comes to their phase, each run of them
 * held to the hash of the bytes first read, so that a file changed
 * meanwhile is refused (ORD_EBADDATA), not another record verified.  A
 * bundle of 100,000 units holds about 70 MB of such rows. */
int ord_bundle_verify_report_fd(char *bytes, size_t len, int fd, const char *name,
				const struct ord_verify_opts *opts, const struct ord_report_opts *ro,
				struct ord_buf *out, struct ord_buf *report);
/* ord_bundle_verify of the len bytes of the regular file open at fd (which
 * stays the caller's), never held whole: read once a piece (64 KiB) at a
 * time, as ord_bundle_verify checks the bytes before it parses them (no
 * DOCTYPE, no entity, the nesting) and digests them for the signature,
 * each piece hashed; then again, each piece held to its hash before the
 * parser reads it; then the runs of rows again for the replay, by the same
 * pieces held to the same hashes.  A file changed between the reads is
 * refused (ORD_EBADDATA, "changed while it was verified").  A bundle of
 * 100,000 units (156 MB) takes about what its replay takes. */
int ord_bundle_verify_file(int fd, size_t len, const char *name, const struct ord_verify_opts *opts,
			   struct ord_buf *out);

/* ---- calculator and tables ------------------------------------------- */

/* Run a ruleset's calculator: what = "fire", "move", ...; argv key=value.
 * tables_path NULL means the built-in tables.  what "" is refused
 * (ORD_EUSAGE) naming the calculations the ruleset has. */
int ord_calc(struct ord_buf *out, const char *ruleset, const char *what, int argc,
	     char *const *argv, const int *dice, size_t ndice, const char *tables_path, int xml);
/* Print a ruleset's tables (all, or the one named). */
int ord_rules_print(struct ord_buf *out, const char *ruleset, const char *table,
		    const char *tables_path);

/* ---- times, schedules and the mail judge (issues 12 and 16) ----------- */

/*
 * Times, as every command and file takes them (src/core/when.c): an ISO 8601
 * date and time with Z or an offset (2026-12-07T18:00+01:00), or followed by
 * a zone of the tz database (2026-12-07T18:00 Europe/Copenhagen), or relative
 * to now: +90m, +48h, +2d, +1w.  Unix seconds; ORD_EUSAGE saying what was
 * expected.  A duration is the relative form without its '+'.  A time in a
 * zone that its clocks skip or show twice (summer time) is refused, naming
 * the gap or both times with the offset that writes each (when.c, W2).
 */
int ord_when_parse(int64_t *out, const char *text, int64_t now);
/* The same, a text that is no time at all refused as what it was to be:
 * "bad WHAT 'X' (expected ...)" ("bad deadline"), not "bad time". */
int ord_when_parse_as(int64_t *out, const char *text, int64_t now, const char *what);
/* The same for a time already stored (a scenario's <deadline> in a game made
 * before W2): such a time is read as one of them, as it always was. */
int ord_when_parse_stored(int64_t *out, const char *text, int64_t now);
int ord_duration_parse(int64_t *out, const char *text);
/* UTC as 2026-12-07T17:00:00Z; with a zone, "2026-12-07 18:00 Europe/Copenhagen (UTC+01:00)". */
void ord_when_format(struct ord_buf *out, int64_t t, const char *zone);
void ord_duration_format(struct ord_buf *out, int64_t secs); /* 48h, 2d, 90m */
/* 0 when zone names a zone of the tz database (or is UTC), else ORD_EUSAGE. */
int ord_zone_check(const char *zone);
/* A wall-clock time in zone as unix seconds, and back. */
int ord_zone_to_utc(int64_t *out, const char *zone, int y, int mo, int d, int h, int mi, int s);
int ord_zone_local(struct tm *out, const char *zone, int64_t t);

/* A game's deadline rule (src/core/schedule.c). */
#define ORD_SCHEDULE_MAX_REMIND 4
struct ord_schedule {
	int64_t every; /* seconds between deadlines; 0: no schedule */
	int at;        /* minutes after local midnight, -1: any time */
	char zone[64]; /* tz database name, "UTC" */
	int64_t grace; /* sheets still taken this long after the deadline */
	int64_t remind[ORD_SCHEDULE_MAX_REMIND]; /* reminders this long before the deadline */
	size_t nremind;
	int autoseal; /* tick seals the turn when the grace has run out */
};
void ord_schedule_init(struct ord_schedule *s);
/* "every 48h at 18:00 in Europe/Copenhagen grace 1h remind 24h,2h autoseal on" or "none". */
int ord_schedule_parse(struct ord_schedule *out, const char *text);
/* One word of it: every, at, in, grace, remind, autoseal. */
int ord_schedule_set(struct ord_schedule *s, const char *key, const char *value);
void ord_schedule_format(const struct ord_schedule *s, struct ord_buf *out);
/* The announced deadline of the next turn, from the previous one (0: none) and now. */
int ord_schedule_next(const struct ord_schedule *s, int64_t prev, int64_t now, int64_t *out);

/* The game's schedule (every == 0 when it has none), and setting it:
 * logged ("schedule").  The open turn keeps its deadline; when the grace
 * changes, the end of its grace (what the game keeps, ord_game_status's
 * deadline) moves with it, logged ("deadline"). */
int ord_game_schedule(ord_game *g, struct ord_schedule *out);
int ord_game_set_schedule(ord_game *g, const struct ord_schedule *s);
/* The game's clock: time(NULL), or in a fixed-dice test game only, the
 * ORDERLY_TEST_NOW environment variable (unix seconds) when it is set. */
int64_t ord_game_now(ord_game *g);
/* The game's file name without directory and ".orderly": how mail names it. */
const char *ord_game_name(ord_game *g);

/* Sides: count, name of the i-th; the latest version of a side's sheet this
 * turn (0: none) and its source (submitted | hold | repeat) and commitment. */
size_t ord_game_nsides(ord_game *g);
const char *ord_game_side_name(ord_game *g, size_t i);
/* Every unit of the game in unit order, its id, name and side, to fn (a
 * non-zero return stops and is returned): the referee's page offers them
 * for an event's unit keys.  The referee's view: every side's units. */
typedef int (*ord_game_unit_fn)(void *ud, const char *id, const char *name, const char *side);
int ord_game_units(ord_game *g, ord_game_unit_fn fn, void *ud);
int ord_game_side_sheet(ord_game *g, int turn, const char *side, int *version, char source[16],
			unsigned char commitment[32]);
/* Version `version` (1, 2, ...) of it, each kept in the game file: the
 * mail judge lists them in a bundle mail, so that a player sees a version
 * he never sent.  ORD_ENOTFOUND when there is none such. */
int ord_game_side_sheet_version(ord_game *g, int turn, const char *side, int version,
				char source[16], unsigned char commitment[32]);
/* The same, and the time the log entry that stores it was written (the
 * web page's receipt, shown again by a GET). */
int ord_game_side_sheet_stored(ord_game *g, int turn, const char *side, int version,
			       char source[16], unsigned char commitment[32], int64_t *stored);
/* The text of side's sheet of turn (<= 0: the current one): the exact
 * bytes of its last version as the game file holds them, comments and
 * blank lines and all, the bytes its commitment is over, appended to out,
 * and that version in *version (0 on failure).  viewer is who asks: NULL
 * for the referee, or a side, which is given its own sheet alone (viewer
 * must be side: ORD_EUSAGE naming both else, and for a side NULL or "").
 * Given at any state of the turn, to a side too (its own sheet holds no
 * secret from it): while the turn is open, the version in force now, which
 * a later version may still replace until the seal, so that a player can
 * check what the game holds for him.  ORD_ENOTFOUND for an unknown side or
 * turn, a side with no sheet of the turn, or one whose last version is a
 * commitment alone, not opened yet (a referee-less game).  A stand-in of
 * the NMR policy is a sheet of the side (ord_game_side_sheet's source says
 * so). */
int ord_game_side_sheet_text(ord_game *g, struct ord_buf *out, int *version, int turn,
			     const char *side, const char *viewer);

/*
 * The mail judge's state in a game file (src/core/game_mail.c, tables of
 * schema/sql/008_mail.sql).  Who may act by mail: each side's registered
 * address and its proofs (a passphrase, kept only as a crypto_pwhash hash;
 * an OpenPGP key; the side's Ed25519 key of the scenario), and the referee's.
 * Every registration is logged in the hash chain.  side NULL is the referee.
 */
struct ord_mail_party {
	char side[64];      /* "" for the referee */
	char address[256];  /* registered address, lowercase; "" if none */
	int has_passphrase; /* a passphrase hash is stored */
	char pgp_fpr[64];   /* fingerprint of the registered OpenPGP key, "" if none */
	int has_sign_key;   /* the side's Ed25519 key is in the scenario */
	/* the key of the log's address-hash in hex: the judge gives it to the
	 * address's owner, who checks the entry with it; "" when no address
	 * or a game older than schema 13 (its entries keyed with the game id) */
	char address_key[65];
	/* which passphrase is registered: BLAKE2b of its stored hash in hex,
	 * "" when none; it changes when the passphrase does (the web server
	 * ends the sessions of an old one by it) */
	char pass_id[65];
};
int ord_mail_register(ord_game *g, const char *side, const char *address);
int ord_mail_set_passphrase(ord_game *g, const char *side, const char *passphrase);
/* armored: the public key block; fpr: its fingerprint (as gpg prints it). */
int ord_mail_set_pgp(ord_game *g, const char *side, const char *armored, const char *fpr);
int ord_mail_party(ord_game *g, const char *side, struct ord_mail_party *out);
/* Who registered address: a side (side set) or the referee (*referee 1);
 * *count the parties that share it.  ORD_ENOTFOUND when nobody did. */
int ord_mail_find(ord_game *g, const char *address, char side[64], int *referee, int *count);
/* 0 when passphrase is the one registered for side, ORD_EBADDATA when not,
 * ORD_ENOTFOUND when none is registered. */
int ord_mail_check_passphrase(ord_game *g, const char *side, const char *passphrase);
/* The crypto_pwhash string stored for side's passphrase, for a caller that
 * checks a passphrase against it (ord_mail_passphrase_verify) after letting
 * go of the game: the web server, which must not hold a game file while a
 * check takes its 64 MiB and tens of milliseconds.  ORD_ENOTFOUND when none
 * is registered. */
#define ORD_PASS_HASH_MAX 256
int ord_mail_passphrase_hash(ord_game *g, const char *side, char out[ORD_PASS_HASH_MAX]);
/* 0 when passphrase is the one hash (ord_mail_passphrase_hash) was made
 * of, ORD_EBADDATA when not. */
int ord_mail_passphrase_verify(const char *hash, const char *passphrase);
/* The registered OpenPGP key of side (ORD_ENOTFOUND: none). */
int ord_mail_pgp_key(ord_game *g, const char *side, struct ord_buf *armored);
/* When the last OpenPGP signature the judge took from side was made (unix
 * seconds, 0: none), and raising it (in the transaction of the mail's
 * answer): a signature not later than it is a mail sent again. */
int ord_mail_pgp_last(ord_game *g, const char *side, int64_t *when);
int ord_mail_set_pgp_last(ord_game *g, const char *side, int64_t when);
/* The side's Ed25519 key from the scenario (ORD_ENOTFOUND: none). */
int ord_game_side_pubkey(ord_game *g, const char *side, unsigned char out[32]);
/* The judge's own address (orderly@host) and the replies a sender may get
 * per hour; set and read.  Logged ("mail-config"). */
int ord_mail_config(ord_game *g, struct ord_buf *judge, int *per_hour);
int ord_mail_set_config(ord_game *g, const char *judge, int per_hour);

/*
 * Inbox: every message is stored raw before it is processed, unique by
 * Message-ID, its bytes in a row of their own written once (what marks it
 * changes only its small row).  ord_mail_inbox_add stores it in a
 * transaction of its own:
 * *id its row; *state "new" (stored now, or stored before and never
 * processed: a crash or a kill) or "done" (answered already); *step the
 * last step recorded with ord_mail_inbox_step (a message of several
 * changes, each in its own transaction, goes on after the last one done).
 * ord_mail_inbox_done marks it processed with a one-line result: call it
 * and ord_mail_inbox_step inside the change's transaction (a hook, or
 * ord_game_transact).
 */
int ord_mail_inbox_add(ord_game *g, int64_t *id, char state[8], int *step, const char *message_id,
		       const char *sender, const void *raw, size_t len);
int ord_mail_inbox_step(ord_game *g, int64_t id, int step);
int ord_mail_inbox_done(ord_game *g, int64_t id, const char *result);
/* The first message before id before whose result line holds text, in
 * *id (0: none). */
int ord_mail_inbox_said(ord_game *g, const char *text, int64_t before, int64_t *id);

/*
 * Outbox: a composed message (RFC 5322 bytes) for one recipient, queued
 * inside the change's transaction; kind/turn/side name it so that a mail
 * is queued once (ord_mail_queue returns 0 and *queued 0 when one of that
 * kind, turn and side exists: key NULL queues always).
 */
int ord_mail_queue(ord_game *g, int *queued, const char *key, const char *message_id,
		   const char *rcpt, const void *bytes, size_t len);
/* ord_mail_queue of the len bytes of the file open at fd (from its
 * start), copied into the outbox a piece at a time, never held whole. */
int ord_mail_queue_fd(ord_game *g, int *queued, const char *key, const char *message_id,
		      const char *rcpt, int fd, size_t len);
/* 1 when a mail with this key is queued already. */
int ord_mail_queued(ord_game *g, const char *key);
/* 1 when it is, and its bytes name name (a file it attached, say): a mail
 * an earlier orderly queued may lack what this one attaches. */
int ord_mail_queued_naming(ord_game *g, const char *key, const char *name);
/* The name the files the judge mails of the game begin with, kept in the
 * game file from the first mail that named one (docs/pbem.md; '' for a
 * game an orderly before game-named files mailed): appended to out, *kept
 * 0 while none is kept.  ord_mail_set_files keeps it, inside the mail's
 * transaction; once kept, it stays. */
int ord_mail_files(ord_game *g, struct ord_buf *out, int *kept);
int ord_mail_set_files(ord_game *g, const char *files);
/* What the first mail queued, sent or not, that holds naming holds from
 * there on: naming and up to 998 bytes after it (a header's line at
 * most), appended to bytes; *found 0 when none does.  The mails are read
 * a piece at a time, never one whole (a bundle's is hundreds of MB). */
int ord_mail_first_naming(ord_game *g, const char *naming, struct ord_buf *bytes, int *found);
/* The state of the game file (ord_game_export_state) the mail judge's
 * export of turn's bundle was refused for, in state (*found 0: none
 * kept); ord_mail_set_bundle_refused keeps it, inside the mail's
 * transaction, or forgets it (state NULL). */
int ord_mail_bundle_refused(ord_game *g, int turn, unsigned char state[32], int *found);
int ord_mail_set_bundle_refused(ord_game *g, int turn, const unsigned char *state);

/*
 * The names of the files of a game: the ones the mail judge mails, and
 * the web page's downloads (src/core/file_names.c; docs/pbem.md, "The
 * files the judge mails").
 *
 * ord_file_name: the name of a file of the game named game, appended to
 * out: the game's name, a '-', then what fmt says (open-3.head,
 * report-3-red.txt: the name an orderly before 2026-12-06 gave the file
 * alone), "austerlitz-report-3-red.txt".  Of the game's name (game:
 * ord_game_name) only letters, digits, '-', '_' and '.' are kept: a
 * Latin-1 letter is folded (ø to oe, å to aa, é to e), a run of any other
 * characters (a space, a '/', a letter of another script) becomes one
 * '_'; a leading or trailing '.', '-' or '_' is dropped, and the rest cut
 * to ORD_FILE_GAME_MAX bytes; "game" when nothing is left.  The side's id
 * fmt names (side, NULL: none; found after a '-') is cut when the longest
 * name of its files (a report of a turn of 4 digits, exchanged) would be
 * longer than ORD_FILE_NAME_MAX after the game's name, the same in every
 * file of the game: to no fewer than 8 bytes, then a '.' and 6 hex digits
 * of a hash of the whole id (report-12-abcdefgh.1f0c3a-exchanged.txt); a
 * '.' is in no side's id, and the hash tells apart ids cut to the same
 * start.  Then the game's name is cut when the whole is still longer (at
 * least 8 bytes are kept).
 */
#define ORD_FILE_GAME_MAX 32
#define ORD_FILE_NAME_MAX 72
void ord_file_name(struct ord_buf *out, const char *game, const char *side, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void ord_file_namev(struct ord_buf *out, const char *game, const char *side, const char *fmt,
		    va_list ap) __attribute__((format(printf, 4, 0)));
/*
 * What the names of the files of game g begin with, in out (cleared
 * first): kept in the game file (ord_mail_files) from the first mail that
 * named a file, for the whole game, so that a player's folder and filters
 * hold every file of it under one name.  None kept (a game no mail of
 * which named a file, or one mailed before it was kept): as the first file
 * the game's outbox names begins, "" for a file's own name (an orderly
 * before game-named files: open-3.head), the game's name when that mail
 * was made (a game file renamed since), else the game's name now
 * (ord_file_name's GAME); with keep, kept from then on (the mail judge,
 * inside the mail's transaction; the web page only reads it).  A game
 * file renamed later keeps the name: its mails' subjects and address
 * follow the file, its files' names do not.
 */
void ord_game_files(ord_game *g, int keep, struct ord_buf *out);
/* ord_file_name of game g with the name ord_game_files gives (keep as
 * there): the file's own name alone when it is "". */
void ord_game_file_name(ord_game *g, int keep, struct ord_buf *out, const char *side,
			const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void ord_game_file_namev(ord_game *g, int keep, struct ord_buf *out, const char *side,
			 const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));
struct ord_mail_out {
	int64_t id;
	char message_id[256];
	char rcpt[256];
	struct ord_buf bytes;
};
/* The oldest unsent mail after id after (0: from the first); ORD_ENOTFOUND when none. */
int ord_mail_outbox_next(ord_game *g, int64_t after, struct ord_mail_out *out);
/* ord_mail_outbox_next without its bytes (out->bytes left as it is), but
 * their number in *len (len may be NULL); ord_mail_outbox_read hands them to put a piece of
 * at most 64 KiB at a time (a mail attaching a bundle is hundreds of MB
 * at 100,000 units): 0, ORD_ENOTFOUND, or put's own non-zero return. */
int ord_mail_outbox_peek(ord_game *g, int64_t after, struct ord_mail_out *out, size_t *len);
int ord_mail_outbox_read(ord_game *g, int64_t id, int (*put)(void *ud, const void *bytes, size_t n),
			 void *ud);
int ord_mail_outbox_sent(ord_game *g, int64_t id);
/* Count a reply to address this hour (inside a transaction); *ok 0 when
 * the address has had per_hour replies in the last hour already. */
int ord_mail_rate(ord_game *g, const char *address, int per_hour, int *ok);
/* Replace the stored raw of inbox message id (inside the transaction that
 * marks it processed): what is kept of a mail not proven (mail judge J9). */
int ord_mail_inbox_cut(ord_game *g, int64_t id, const void *raw, size_t len);

/*
 * Passphrases checked by mail (mail judge J12): every check of a party's
 * passphrase is counted before it runs, pending, and then counted wrong or
 * forgotten when the passphrase was right, so what stays is the wrong ones
 * (and checks that never finished: pending ORD_MAIL_PASS_STALE seconds).
 * Once a party has ORD_MAIL_PASS_TRIES of them (or the game's
 * `register --passphrase-tries`) within ORD_MAIL_PASS_WINDOW seconds, its
 * passphrases are not checked until ORD_MAIL_PASS_WINDOW after the last.
 * While the checks running would make the tries were they wrong, no other
 * check begins: guesses sent at once are checked no more than the tries,
 * and right passphrases at once wait for each other, none refused.
 * Times are the game's clock (ord_game_now).  side NULL is the referee.
 */
#define ORD_MAIL_PASS_TRIES 5
#define ORD_MAIL_PASS_WINDOW (60 * 60)
#define ORD_MAIL_PASS_STALE 120
/* Before side's passphrase in inbox message inbox_id is checked, in a
 * transaction of its own: *until 0, the check counted, pending (sender:
 * where the mail says it came from); -1, others' checks running make the
 * tries: nothing counted, ask again once they ended; or the time until
 * which side's passphrases are not checked, nothing counted. */
int ord_mail_pass_try(ord_game *g, const char *side, int64_t inbox_id, const char *sender,
		      int64_t *until);
/* The passphrase of inbox_id was right: its check is forgotten; wrong: it
 * counts (each a transaction of its own). */
int ord_mail_pass_right(ord_game *g, const char *side, int64_t inbox_id);
int ord_mail_pass_wrong(ord_game *g, const char *side, int64_t inbox_id);
/* Inside a transaction: *until as ord_mail_pass_try gives it (0: checked
 * now), and while not 0 the checks counted in the window, one a line, in
 * who ("mail ID at TIME: SENDER"; who may be NULL). */
int ord_mail_pass_suspended(ord_game *g, const char *side, int64_t *until, struct ord_buf *who);
/* Wrong passphrases a party may give in the window (the default until
 * set); set, logged ("mail-config"). */
int ord_mail_pass_tries(ord_game *g, int *tries);
int ord_mail_set_pass_tries(ord_game *g, int tries);

/* What tick must look at, cheaply, without loading the game: 1 in *due
 * when the log moved since ord_mail_mark_seen, a mail is unsent, or the
 * time `now` has reached the next time stored with ord_mail_mark_seen. */
int ord_mail_due(const char *path, int64_t now, int *due);
/* Record that tick has seen the game as it is and needs it again at next (0: never). */
int ord_mail_mark_seen(ord_game *g, int64_t next);

#endif
