/*
 * lookalike.h - names a player tells apart (threat model, attack 41): what
 * `orderly new` refuses in a scenario's title and its sides' and units'
 * names, and how a report shows a name a game made before holds.
 */
#ifndef ORD_LOOKALIKE_H
#define ORD_LOOKALIKE_H

#include <stdint.h>

#include "orderly.h"

/* 1 when c is a character a name may not hold: a control, or one a reader
 * does not see or that reorders what he sees (the bidirectional controls,
 * the zero-width and other invisible format characters, the soft hyphen,
 * the fillers; lookalike.c lists them).  More than ord_text_unshowable's
 * set, which an event's text is held to and replayed with. */
int ord_name_char_hidden(uint32_t c);
/* Does name s hold such a character?  0 if not; else 1 (-1 for a byte that
 * is no UTF-8) with its 1-based column in characters and its code point
 * (or the byte). */
int ord_name_hidden(const char *s, unsigned *col, uint32_t *cp);
/* The form of s that two names a reader cannot tell apart share: composed
 * (ord_ctx_compose_name), the unseen characters and variation selectors
 * dropped, every blank one space and none at the ends, the Greek and
 * Cyrillic letters drawn as Latin ones and the fullwidth forms as the
 * Latin letters and digits, 'I', '1' and '|' as 'l', '0' as 'o', in lower
 * case. */
void ord_name_skeleton(struct ord_buf *out, const char *s);
/* Append s as ord_buf_add_shown does, but every character
 * ord_name_char_hidden names escaped (\u200b, \x85), and a newline kept:
 * a unit's lines of a report, its name in them. */
void ord_buf_add_name_shown(struct ord_buf *b, const char *s);
/* The same on one line: a newline shown as \n (a name on a web page). */
void ord_buf_add_name_line(struct ord_buf *b, const char *s);
/* The character at p (p < end) as ord_buf_add_name_line shows it, appended
 * to b: escaped when ord_name_char_hidden names it (\u202e, \x85; a tab
 * \t, a byte that is no UTF-8 \xff), else as it is.  Returns the bytes
 * of p it took (1 for a byte that is no UTF-8), and in *cols the columns a
 * fixed-width font gives what was appended: what lets a caret be put under
 * a character of a line shown so (the mail judge's quote of a sheet). */
size_t ord_buf_add_name_char(struct ord_buf *b, const unsigned char *p, const unsigned char *end,
			     unsigned *cols);
/* The columns a fixed-width font (a mail reader's, a terminal's) gives the
 * character c written as it is: none for a character ord_name_char_hidden
 * names, a combining mark and a variation selector; two for a wide one
 * (East Asian Width W or F: CJK, the fullwidth forms, emoji); else one.
 * From Unicode's tables (text_shown.c), not the C library's wcwidth,
 * whose answer depends on the process's locale. */
unsigned ord_char_columns(uint32_t c);
/* Append s quoted ('...') as ord_buf_add_quoted does, at most max
 * characters, but every character ord_name_char_hidden names escaped, a
 * newline too (\n): a name in a message, `new`'s refusal of it and the
 * note of audit and verify (attack 41). */
void ord_buf_add_name_quoted(struct ord_buf *b, const char *s, size_t max);

struct ord_sheet;
struct ord_diag;
/* One problem in diag an order of sheet whose words (its unit as written,
 * a code's word, a target's or a new company's name: what a report prints
 * of it) hold a character ord_name_char_hidden names, or a byte that is no
 * UTF-8, at the word's line and column (attack 43): what the front door
 * refuses, and the verifier notes or fails in a sealed sheet. */
void ord_sheet_words_hidden(const struct ord_sheet *sheet, struct ord_diag *diag);

#endif
