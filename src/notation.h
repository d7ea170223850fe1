/*
 * notation.h - the order-notation interface: the text of an order sheet in
 * a rules' own notation -> parsed order lines, with line:col diagnostics.
 *
 * A notation knows the syntax only: which tokens exist and how they are
 * written.  Whether an order is allowed (the unit exists, may take the code,
 * has not charged lately) is the ruleset's validate_sheet.
 */
#ifndef ORD_NOTATION_H
#define ORD_NOTATION_H

#include "orderly.h"

/* The version this header describes; the oldest a core accepts.  As with
 * rulesets (ruleset.h), slots are only appended and the core checks
 * n->version >= N before calling a slot of version N. */
#define ORD_NOTATION_VERSION 4
#define ORD_NOTATION_VERSION_MIN 1
#define ORD_NOTATION_HAS(n, v) ((n)->version >= (v))
#define ORD_NOTATION_INIT .version = ORD_NOTATION_VERSION

enum ord_tok_kind {
	ORD_TOK_DIR = 1, /* a direction; num = degrees clockwise, 0 = towards the enemy */
	ORD_TOK_FRAC,    /* a fraction of the move; num = quarters (1..4) */
	ORD_TOK_CODE,    /* an order code; value = canonical spelling */
	ORD_TOK_TARGET,  /* a target (@unit); value = the unit as written */
	ORD_TOK_ARG,     /* a notation-specific argument; value as written */
};

struct ord_token {
	enum ord_tok_kind kind;
	char *value;    /* canonical text of the token */
	char *arg;      /* optional argument (NULL if none) */
	int num;        /* numeric value where the kind has one, else 0 */
	unsigned col;   /* 1-based column (in characters) where it starts */
	unsigned group; /* tokens joined by '-' share a group number */
};

struct ord_order {
	unsigned line, col; /* where the unit reference starts */
	char *unit;         /* the unit's id or name as written */
	struct ord_token *tok;
	size_t ntok, alloc;
};

struct ord_sheet {
	struct ord_order *orders;
	size_t n, alloc;
	void *block;  /* the orders ord_sheet_pack packed, in one block (NULL: none) */
	void *chunks; /* the orders ord_sheet_add_packed packed, in blocks of many */
};

void ord_sheet_init(struct ord_sheet *s);
void ord_sheet_release(struct ord_sheet *s);
/* Append an order / a token; returns a pointer valid until the next append. */
struct ord_order *ord_sheet_add_order(struct ord_sheet *s, unsigned line, unsigned col,
				      const char *unit);
struct ord_token *ord_order_add_token(struct ord_order *o, enum ord_tok_kind kind,
				      const char *value, int num, unsigned col);
/* Append an order with its ntok tokens at once (their value and arg
 * copied; value never NULL), packed in the sheet's own blocks of many
 * orders, which it frees: what ord_sheet_add_order and a token at a time
 * make, a sheet of 2,500 orders in a few allocations rather than 10,000.
 * A token added to it later (ord_order_add_token) is added as to any
 * order. */
struct ord_order *ord_sheet_add_packed(struct ord_sheet *s, unsigned line, unsigned col,
				       const char *unit, const struct ord_token *tok, size_t ntok);
/* First token of a kind / a code token with this canonical value, or NULL. */
const struct ord_token *ord_order_find(const struct ord_order *o, enum ord_tok_kind kind);
const struct ord_token *ord_order_code(const struct ord_order *o, const char *code);

struct ord_notation {
	unsigned int version; /* ORD_NOTATION_VERSION built against (ORD_NOTATION_INIT) */
	const char *name;     /* "hieroglyph" */
	/* Parse len bytes (UTF-8), in one pass that reads every line whatever
	 * errors came before:
	 *  - diag gets every syntax error, with its line:col, in sheet order
	 *    (a notation may list only the first ones of a sheet that is no
	 *    sheet at all, ending with an item at line 0 that counts the rest);
	 *  - out gets one order for every line that parsed, in sheet order,
	 *    whether or not other lines have errors, and no order for a line
	 *    with a syntax error: every order in out is complete and may be
	 *    validated by the ruleset, so that a sheet's rule errors can be
	 *    reported together with its syntax errors;
	 *  - returns 0, or ORD_EBADSHEET (its message counting the errors) if
	 *    diag got any error.
	 * out and diag are only appended to. */
	int (*parse)(struct ord_sheet *out, const char *bytes, size_t len, struct ord_diag *diag);
	/* Print one order in canonical form (no newline). */
	void (*format)(const struct ord_order *o, struct ord_buf *out);
	/* version 1 ends here */

	/* version 2 */
	/* The key a word of the sheet is matched by (orderly.h,
	 * ord_word_key): its folded form, as the notation compares its words
	 * (ordre: case, æ ø å ä ö é as ae oe aa ae oe e, so that "KARRÉ",
	 * "karré" and "karre" are one word).  The core matches the word
	 * values (ORD_KEY_ENUM) of an event of a game in this notation by it
	 * too, the sheet's spellings, and records the value as the key's spec
	 * writes it; so too a scenario's unit attributes and the ruleset's
	 * calculator's words.  NULL: words as written. */
	ord_word_key word_key;
	/* version 2 ends here */

	/* version 3 */
	/* The value the sheet gives written read as its words (orderly.h,
	 * ord_word_value): each word of written (apart by spaces or '_')
	 * an order symbol or a word argument of the sheet in any spelling
	 * the sheet takes (ordre: "kar", "KARRÉ", "skk", "TT", "kardæsk"),
	 * given as parse gives its token's value ("karre", "skyttekaede",
	 * "tilbagetog", "SK"), the words' values joined by '_' ("skyttekæde
	 * tæt": "skyttekaede_taet"; with what the sheet means by an
	 * argument not written: "skk", a dense chain, "skyttekaede_taet"; a
	 * fraction of the turn alone in ASCII: "½", "1/2"), into out (reset
	 * first): 1; 0 when a
	 * word is none of the sheet's.  The core takes a word value of an
	 * event, of a scenario's unit and of the ruleset's calculator so too
	 * when the value it gives is one of the key's list, and keeps that.
	 * From the notation's own tables, the ones parse reads.  NULL: none
	 * but word_key's. */
	ord_word_value word_value;
	/* version 3 ends here */

	/* version 4 */
	/* The spellings word_value reads, one word each (orderly.h,
	 * ord_word_forms): every spelling of the notation's symbols and word
	 * arguments, its short forms among them (ordre: "kar", "skk", "tt"),
	 * as word_key writes them, apart by spaces, appended to out.  The
	 * core's "did you mean" of a word that is none looks among those
	 * word_value reads as a word of the key's list too ("kra": "did you
	 * mean 'kar' (karre)?").  NULL: among the list's words only. */
	ord_word_forms word_forms;
	/* version 4 ends here */
};

/* Orderly's reading of a stored sheet: every order of bytes as nt parses
 * it, in sheet order, printed canonically (nt->format, no newline) and
 * handed to each with its line.  The notation's diagnostics are dropped:
 * a stored sheet was valid, and of one that is not the orders that parsed
 * are read.  Returns how many orders each was given.  What a report and
 * the player's page show of a stored sheet. */
size_t ord_notation_read(const struct ord_notation *nt, const char *bytes, size_t len,
			 void (*each)(void *ud, unsigned line, const char *order), void *ud);

/* The registry: notations registered by the front-end (rulesets/builtin.c),
 * then ORDERLY_RULESET_PATH, where a notation is a shared object
 * ord_notation_<name>.so exporting
 *     const struct ord_notation *ord_notation_<name>_init(unsigned int host_version);
 * Refused as ruleset.h says (ORD_EVERSION, ORD_EEXISTS). */
int ord_notation_register(const struct ord_notation *n);
/* Find a notation by name: ORD_ENOTFOUND or ORD_EVERSION with a message. */
int ord_notation_find(const struct ord_notation **out, const char *name);

#endif
