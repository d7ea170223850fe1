/*
 * text.h - the one reader of order sheets that every notation uses.
 *
 * The driver (ord_text_parse) does all that notations share: it splits a
 * sheet into lines (LF or CRLF, a leading byte order mark skipped), checks
 * that each line is UTF-8 text, cuts off the '#' comment, reads the unit
 * and the ':' or space that ends it, splits the rest into words at spaces
 * (and words into tokens at the notation's joiner, e.g. the '-' of C-UL-Fs),
 * reads the directions (↑ ^NE ^045) and targets (@B2 @"Old Guard") that
 * every notation writes alike, keeps each syntax error with its line:col
 * (the list of problems keeps the first ORD_DIAG_MAX_LISTED, the rest are
 * only counted: orderly.h), and adds to the
 * sheet every line that parsed.  A notation gives only its token rules, in
 * a struct ord_text_rules, and calls ord_text_parse and ord_text_format
 * from its parse and format slots: orders/template/template.c is the short
 * example, orders/hieroglyph and orders/ordre the real ones.
 *
 * Also the UTF-8 helpers of the notations.  This header includes only
 * public headers, so that a notation built outside the tree can use it; the
 * orderly binary exports the functions (ENABLE_EXPORTS).
 */
#ifndef ORD_TEXT_H
#define ORD_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "notation.h"

/* A file sent by mistake (a photo, a spreadsheet) gives an error on every
 * line; the list of problems keeps the first ORD_DIAG_MAX_LISTED of a sheet,
 * whatever finds them, and only counts the rest (orderly.h).  The old name,
 * for notations built outside the tree. */
#define ORD_TEXT_MAX_LISTED ORD_DIAG_MAX_LISTED

/* One token as written: a word, or one joiner-separated piece of a word. */
struct ord_text_tok {
	const unsigned char *s, *e; /* its bytes: valid UTF-8, never empty */
	unsigned col;               /* column (in characters) of its first one */
	int unterminated;           /* an @"... with no closing quote on the line */
};

/* What a bad direction's message lists when the rules give nothing else:
 * the arrows, the English compass points every notation takes, degrees. */
#define ORD_TEXT_DIRS "one of ↑ ↗ → ↘ ↓ ↙ ← ↖ ^N ^NE ^E ^SE ^S ^SW ^W ^NW or ^000 to ^359"

/* A compass point a direction may be written as: ^N, ^NE ... */
struct ord_text_compass {
	const char *name; /* as the rules' key function gives it ("ne"); NULL ends */
	int deg;          /* degrees clockwise, 0 = towards the enemy */
};

struct ord_text;

/*
 * A notation's token rules.  The reading slots are called in the order of
 * the line; every one may report errors (ord_text_error) and add tokens
 * (ord_text_emit).  All are required but malformed.
 */
struct ord_text_rules {
	int joiner;                 /* joins tokens into one word ('-', and dashes), or 0 */
	const char *token_expected; /* joiner only: what stands on each side of it */
	/* The names ^ takes besides the English N NE E SE S SW W NW; NULL: none. */
	const struct ord_text_compass *compass;
	const char *dir_expected; /* what a bad direction's message lists; NULL: ORD_TEXT_DIRS */
	/* The key a compass name is compared by, into key (reset first); NULL:
	 * the name with ASCII letters in lower case.  The English names are
	 * in lower case. */
	void (*key)(struct ord_buf *key, const unsigned char *s, const unsigned char *e);

	/* A line with orders starts (t->has_unit says whether it names a unit;
	 * without one its tokens are only checked): reset the order's state. */
	void (*begin)(struct ord_text *t);
	/* A well-formed direction, at col, in the line's word-th word (1-based). */
	void (*dir)(struct ord_text *t, int deg, unsigned col, unsigned word);
	/* A well-formed target: the unit without '@' and quotes, trimmed. */
	void (*target)(struct ord_text *t, const char *unit, unsigned col, unsigned word);
	/* A direction (ORD_TOK_DIR) or target (ORD_TOK_TARGET) was written but
	 * is malformed; the driver reported it.  May be NULL. */
	void (*malformed)(struct ord_text *t, enum ord_tok_kind kind);
	/* Any other token; t->text holds it as written. */
	void (*token)(struct ord_text *t, const struct ord_text_tok *tok, unsigned word);
	/* The line ends: nwords is how many came after the unit, col the column
	 * just after the unit (and its ':'). */
	void (*end)(struct ord_text *t, unsigned nwords, unsigned col);

	/* Print a token of kind ORD_TOK_CODE, ORD_TOK_FRAC or ORD_TOK_ARG in
	 * canonical form (the driver prints directions and targets). */
	void (*format_token)(const struct ord_token *tok, struct ord_buf *out);
};

/* The state of one parse; the notation reads the first fields. */
struct ord_text {
	const struct ord_text_rules *rules; /* the notation's */
	void *state;                        /* the notation's own, given to ord_text_parse */
	unsigned line;                      /* the line being read, 1-based */
	int has_unit;                       /* the line names a unit */
	struct ord_buf unit;                /* the line's unit as written ("" if none) */
	struct ord_buf text;                /* the token being read, as written */
	/* the driver's own */
	struct ord_sheet *out;        /* where the lines that parse go */
	struct ord_diag *diag;        /* where errors go */
	size_t errors;                /* errors so far, listed or not */
	struct ord_buf word;          /* the word being read, for messages */
	struct ord_buf key;           /* a compass name's key */
	struct ord_buf strings;       /* the line's token values and args, NUL-ended */
	struct ord_text_pending *tok; /* the line's tokens, added when it ends */
	size_t ntok, tokalloc;        /* tokens in use, allocated */
	struct ord_text_tok *el;      /* the tokens of the word being read */
	size_t nel, elalloc;          /* tokens in use, allocated */
	struct ord_buf value;         /* a target's unit, trimmed */
};

/*
 * Parse len bytes as a sheet of the notation of rules, state being the
 * notation's (t->state).  What parse in notation.h promises: every line that
 * parses goes to out, every syntax error to diag; 0, or ORD_EBADSHEET with
 * the count in the error message.
 */
int ord_text_parse(struct ord_sheet *out, const char *bytes, size_t len, struct ord_diag *diag,
		   const struct ord_text_rules *rules, void *state);
/* Print one order as its notation's canonical form (no newline). */
void ord_text_format(const struct ord_text_rules *rules, const struct ord_order *o,
		     struct ord_buf *out);

/* Report a syntax error at col of the current line, for its unit; rule may
 * be NULL.  Once the list is full (ORD_DIAG_MAX_LISTED) it is only counted. */
void ord_text_error(struct ord_text *t, unsigned col, const char *rule, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;
/* Is the next error listed?  A notation whose message is costly to build
 * asks first, and when not, counts the error with ord_text_count_error. */
int ord_text_listing(const struct ord_text *t);
void ord_text_count_error(struct ord_text *t);

/* Add a token to the current line's order (nothing when it has no unit);
 * arg may be NULL.  The line's tokens reach the sheet if the line parses. */
void ord_text_emit(struct ord_text *t, enum ord_tok_kind kind, const char *value, int num,
		   unsigned col, unsigned group, const char *arg);
/* Add a direction token in canonical form: an arrow, or ^DDD. */
void ord_text_emit_dir(struct ord_text *t, int deg, unsigned col, unsigned group);

/* The quarters (1..4) of a fraction as a player may write it (1/4 ... 1,
 * 4/4, ¼ ½ ¾), or 0. */
int ord_text_fraction(const char *text);
/* The first spelling of quarters q (1..4) in that table, in ASCII ("1/2",
 * "1"), as a key's list of fractions writes it; NULL for another q. */
const char *ord_text_fraction_ascii(int q);
/* Does a token starting with cp look like a number (a digit, ¼ ½ ¾ or
 * another vulgar fraction)? */
int ord_text_numeric(uint32_t cp);

/* Bytes of the dash at s (valid UTF-8) that a word processor or a PDF may
 * give for '-' (U+2010 to U+2014, U+2212), or 0.  Where a notation's
 * joiner is '-' the driver joins at them too; a notation with a minus
 * sign reads them as one. */
size_t ord_text_dash_at(const unsigned char *s, const unsigned char *end);
/* ord_utf8_decode and ord_utf8_count: orderly.h (the core's, shared). */
/* Does the code point separate tokens like a plain space? */
int ord_text_is_space(uint32_t cp);
/* Bytes of the space at s (valid UTF-8), or 0 if s is not at a space. */
size_t ord_text_space_at(const unsigned char *s, const unsigned char *end);

#endif
