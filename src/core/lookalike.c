/*
 * lookalike.c - names a player tells apart (lookalike.h): the characters a
 * name of a scenario may not hold, and the form two names that look alike
 * share.  A unit or side of one side passed off as another's by a name a
 * reader cannot tell from its own (a zero-width space after it, a
 * no-break space at its end, a Cyrillic 'В' in a Latin 'B1'), or a line of
 * a report that a bidirectional override makes read otherwise, is what
 * `orderly new` refuses (threat model, attack 41).
 */
#include <stdint.h>
#include <string.h>

#include "core/ctx.h"
#include "core/lookalike.h"
#include "notation.h"

/* Characters no name needs and a reader does not see, or sees as
 * something else: C0 and C1 controls and DEL, the bidirectional marks,
 * embeddings, overrides and isolates, the zero-width ones and the
 * invisible operators, the soft hyphen, the combining grapheme joiner,
 * the Hangul and Khmer fillers, the Mongolian separators, the line and
 * paragraph separators, the interlinear annotations, the musical
 * formatting characters, the tags and the BOM. */
int ord_name_char_hidden(uint32_t c)
{
	return c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F) || c == 0xAD || c == 0x34F ||
	       c == 0x61C || c == 0x115F || c == 0x1160 || c == 0x17B4 || c == 0x17B5 ||
	       (c >= 0x180B && c <= 0x180F) || (c >= 0x200B && c <= 0x200F) ||
	       (c >= 0x2028 && c <= 0x202E) || (c >= 0x2060 && c <= 0x206F) || c == 0x3164 ||
	       c == 0xFEFF || c == 0xFFA0 || (c >= 0xFFF9 && c <= 0xFFFB) ||
	       (c >= 0x1D173 && c <= 0x1D17A) || (c >= 0xE0000 && c <= 0xE0FFF);
}

/* A blank other than the space: shown as one, folded to one. */
static int blank(uint32_t c)
{
	return c == ' ' || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) ||
	       c == 0x202F || c == 0x205F || c == 0x3000;
}

/* Letters of other scripts drawn as a Latin letter or a digit is (Unicode's
 * confusables, UTS #39, the ones of Greek and Cyrillic that a name of a
 * unit may hold), and what they read as. */
static const struct {
	uint32_t c;
	char as;
} alike[] = {
	/* Greek */
	{ 0x391, 'A' },
	{ 0x392, 'B' },
	{ 0x395, 'E' },
	{ 0x396, 'Z' },
	{ 0x397, 'H' },
	{ 0x399, 'I' },
	{ 0x39A, 'K' },
	{ 0x39C, 'M' },
	{ 0x39D, 'N' },
	{ 0x39F, 'O' },
	{ 0x3A1, 'P' },
	{ 0x3A4, 'T' },
	{ 0x3A5, 'Y' },
	{ 0x3A7, 'X' },
	{ 0x3B1, 'a' },
	{ 0x3B9, 'i' },
	{ 0x3BA, 'k' },
	{ 0x3BD, 'v' },
	{ 0x3BF, 'o' },
	{ 0x3C1, 'p' },
	{ 0x3C5, 'u' },
	{ 0x3C7, 'x' },
	{ 0x3DC, 'F' },
	{ 0x3F2, 'c' },
	{ 0x3F3, 'j' },
	{ 0x3F9, 'C' },
	{ 0x3FA, 'M' },
	/* Cyrillic */
	{ 0x405, 'S' },
	{ 0x406, 'I' },
	{ 0x408, 'J' },
	{ 0x410, 'A' },
	{ 0x412, 'B' },
	{ 0x415, 'E' },
	{ 0x41A, 'K' },
	{ 0x41C, 'M' },
	{ 0x41D, 'H' },
	{ 0x41E, 'O' },
	{ 0x420, 'P' },
	{ 0x421, 'C' },
	{ 0x422, 'T' },
	{ 0x423, 'Y' },
	{ 0x425, 'X' },
	{ 0x430, 'a' },
	{ 0x435, 'e' },
	{ 0x43E, 'o' },
	{ 0x440, 'p' },
	{ 0x441, 'c' },
	{ 0x443, 'y' },
	{ 0x445, 'x' },
	{ 0x455, 's' },
	{ 0x456, 'i' },
	{ 0x458, 'j' },
	{ 0x4AE, 'Y' },
	{ 0x4AF, 'y' },
	{ 0x4BB, 'h' },
	{ 0x4C0, 'I' },
	{ 0x4CF, 'l' },
	{ 0x501, 'd' },
	{ 0x51B, 'q' },
	{ 0x51C, 'W' },
	{ 0x51D, 'w' },
};

static uint32_t alike_of(uint32_t c)
{
	size_t lo = 0, hi = sizeof(alike) / sizeof(alike[0]);

	if (c >= 0xFF01 && c <= 0xFF5E) /* fullwidth forms */
		return c - 0xFEE0;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (alike[mid].c == c)
			return (unsigned char)alike[mid].as;
		if (alike[mid].c < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return c;
}

/* c in one case; and the Latin strokes and rings a font may draw alike,
 * 'I', 'l' and '1', 'O' and '0', as one */
static uint32_t fold_ascii(uint32_t c)
{
	if (c == 'I' || c == '1' || c == '|')
		return 'l';
	if (c == '0')
		return 'o';
	if (c >= 'A' && c <= 'Z')
		return c + ('a' - 'A');
	return c;
}

void ord_name_skeleton(struct ord_buf *out, const char *s)
{
	struct ord_buf composed = ORD_BUF_INIT;
	const unsigned char *p, *end;
	int space = 0;

	ord_buf_reset(out);
	/* a name all ASCII is composed as it is: read as it is */
	for (p = (const unsigned char *)s; *p && *p < 0x80; p++)
		;
	if (*p) {
		ord_ctx_compose_name(&composed, s);
		p = (const unsigned char *)(composed.buf ? composed.buf : "");
		end = p + composed.len;
	} else {
		end = p;
		p = (const unsigned char *)s;
	}
	while (p < end) {
		uint32_t c = *p;
		size_t k;
		char u[4];

		if (c < 0x80) { /* ASCII, as below, at a step of its own */
			p++;
			if (c < 0x20 || c == 0x7F)
				continue;
			if (c == ' ') {
				space = out->len > 0;
				continue;
			}
			if (space)
				ord_buf_addch(out, ' ');
			space = 0;
			ord_buf_addch(out, (int)fold_ascii(c));
			continue;
		}
		k = ord_utf8_decode(p, end, &c);
		if (!k) { /* no UTF-8: the byte, as it is */
			ord_buf_add(out, p, 1);
			p++;
			space = 0;
			continue;
		}
		p += k;
		/* unseen: nothing (a variation selector: its character) */
		if (ord_name_char_hidden(c) || (c >= 0xFE00 && c <= 0xFE0F))
			continue;
		if (blank(c)) {
			space = out->len > 0;
			continue;
		}
		if (space)
			ord_buf_addch(out, ' ');
		space = 0;
		c = fold_ascii(alike_of(c));
		if (c < 0x80) {
			ord_buf_addch(out, (int)c);
			continue;
		}
		if (c < 0x800) {
			u[0] = (char)(0xC0 | (c >> 6));
			u[1] = (char)(0x80 | (c & 0x3F));
			ord_buf_add(out, u, 2);
		} else if (c < 0x10000) {
			u[0] = (char)(0xE0 | (c >> 12));
			u[1] = (char)(0x80 | ((c >> 6) & 0x3F));
			u[2] = (char)(0x80 | (c & 0x3F));
			ord_buf_add(out, u, 3);
		} else {
			u[0] = (char)(0xF0 | (c >> 18));
			u[1] = (char)(0x80 | ((c >> 12) & 0x3F));
			u[2] = (char)(0x80 | ((c >> 6) & 0x3F));
			u[3] = (char)(0x80 | (c & 0x3F));
			ord_buf_add(out, u, 4);
		}
	}
	if (!out->buf)
		ord_buf_adds(out, "");
	ord_buf_release(&composed);
}

/* What an order says that every reader is shown (its unit as written, a
 * code's word, a target's or a new company's name: the notation's form
 * of it, which the reports, the web page, the judge's mails and `verify
 * --report` print): one problem an order whose words hold a character a
 * reader does not see or that turns what he reads (a bidirectional
 * override, a zero-width space, a C1 control such as U+009B, which a
 * terminal may take for an escape), at the word's column (threat model,
 * attack 43).  A sheet's comments are no order and are shown nowhere.
 * The front door's (a submit, a check, an opening): a sheet stored before
 * is sealed and replayed as it was, and the seal's check of a sheet and a
 * repeat's stand-in stay the rules'; the verifier asks it of a sealed
 * sheet, to note or fail it by the game's age (replay.c). */
/* Does s hold a character ord_name_char_hidden names, or a byte that is
 * no UTF-8?  Printable ASCII, nearly all of a sheet, a byte at a time;
 * only a character beyond it decoded (an arrow, a fraction, a Danish
 * letter): ord_name_hidden, which counts the column too, took a sixth of
 * a submit's instructions for it. */
static int hides(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	for (;;) {
		uint32_t c;
		size_t k;

		while ((unsigned char)(*p - 0x20) < 0x5F)
			p++;
		if (!*p)
			return 0;
		if (*p < 0x80)
			return 1; /* a control or DEL */
		/* a character's 4 bytes at most: the decoder stops at the NUL,
		 * which is no continuation byte, before any byte past it */
		if (!(k = ord_utf8_decode(p, p + 4, &c)) || ord_name_char_hidden(c))
			return 1;
		p += k;
	}
}

void ord_sheet_words_hidden(const struct ord_sheet *sheet, struct ord_diag *diag)
{
	size_t i, k;

	for (i = 0; i < sheet->n; i++) {
		const struct ord_order *o = &sheet->orders[i];
		const char *s = NULL, *what = "the unit as written";
		unsigned col = o->col, at = 0;
		uint32_t cp = 0;
		int h = o->unit && hides(o->unit) ? ord_name_hidden(o->unit, &at, &cp) : 0;
		struct ord_buf q = ORD_BUF_INIT;

		if (h)
			s = o->unit;
		for (k = 0; !h && k < o->ntok; k++) {
			const struct ord_token *t = &o->tok[k];
			col = t->col ? t->col : o->col;
			if (t->value && hides(t->value) &&
			    (h = ord_name_hidden(t->value, &at, &cp)) != 0) {
				s = t->value;
				what = t->kind == ORD_TOK_TARGET ? "its target" : "its word";
			} else if (t->arg && hides(t->arg) &&
				   (h = ord_name_hidden(t->arg, &at, &cp)) != 0) {
				s = t->arg;
				what = "its word";
			}
		}
		if (!h)
			continue;
		if (s != o->unit) /* the unit is named before the message */
			ord_buf_add_name_quoted(&q, s, 60);
		ord_diag_add(diag, o->line, col, o->unit, NULL,
			     "%s%s%s holds %s %s%04X at character %u (expected characters a reader sees: "
			     "a bidirectional, zero-width, control or other unseen character in an order "
			     "turns or hides what the referee and the other sides read of it%s)",
			     what, q.len ? " " : "", q.len ? q.buf : "",
			     h > 0 ? "the unseen character" : "the byte", h > 0 ? "U+" : "0x",
			     (unsigned)cp, at,
			     strcmp(what, "its word") ? "; name the unit by its id" : "");
		ord_buf_release(&q);
	}
}
