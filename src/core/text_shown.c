/*
 * text_shown.c - UTF-8 read one character at a time, and free text made
 * safe to show (orderly.h): what a referee, a player or a forged file put in
 * an override's reason, an event's words or a sheet reaches a player's
 * terminal through verify, audit and report, so a control character, a
 * bidirectional override or a byte that is no UTF-8 is shown as an escape
 * (\n, \x1b, \u202e), never acted on: a reason cannot start a line of its
 * own that reads like a check, nor move the cursor.
 */
#include <stdint.h>
#include <string.h>

#include "orderly.h"
#include "core/lookalike.h"

size_t ord_utf8_decode(const unsigned char *s, const unsigned char *end, uint32_t *cp)
{
	size_t n, i;
	uint32_t c = s[0], min;

	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if (c >= 0xC2 && c <= 0xDF) {
		n = 2, c &= 0x1F, min = 0x80;
	} else if (c >= 0xE0 && c <= 0xEF) {
		n = 3, c &= 0x0F, min = 0x800;
	} else if (c >= 0xF0 && c <= 0xF4) {
		n = 4, c &= 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if ((size_t)(end - s) < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*cp = c;
	return n;
}

int ord_utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s, *e = p + strlen(s);
	uint32_t cp;
	size_t n;

	while (p < e && (n = ord_utf8_decode(p, e, &cp)) > 0)
		p += n;
	return p == e;
}

size_t ord_utf8_bom_at(const void *s, size_t n)
{
	return n >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3) ? 3 : 0;
}

size_t ord_utf8_blank_at(const void *s, size_t n, int back)
{
	static const char *const blanks[] = {
		"\xc2\x85",     "\xc2\xa0",     "\xe1\x9a\x80", "\xe2\x80\x80", "\xe2\x80\x81",
		"\xe2\x80\x82", "\xe2\x80\x83", "\xe2\x80\x84", "\xe2\x80\x85", "\xe2\x80\x86",
		"\xe2\x80\x87", "\xe2\x80\x88", "\xe2\x80\x89", "\xe2\x80\x8a", "\xe2\x80\x8b",
		"\xe2\x80\xa8", "\xe2\x80\xa9", "\xe2\x80\xaf", "\xe2\x81\x9f", "\xe3\x80\x80",
		"\xef\xbb\xbf",
	};
	const unsigned char *b = s;
	size_t i, k;

	if (!n)
		return 0;
	/* every blank begins and ends with a byte that is no printable ASCII */
	if (b[back ? n - 1 : 0] > ' ' && b[back ? n - 1 : 0] < 0x7F)
		return 0;
	if (strchr(" \t\r\n\v\f", b[back ? n - 1 : 0]) && b[back ? n - 1 : 0])
		return 1;
	for (i = 0; i < ORD_ARRAY_SIZE(blanks); i++) {
		k = strlen(blanks[i]);
		if (n >= k && !memcmp(back ? b + n - k : b, blanks[i], k))
			return k;
	}
	return 0;
}

unsigned ord_utf8_count(const unsigned char *s, const unsigned char *e)
{
	unsigned n = 0;

	for (; s < e; s++)
		n += (*s & 0xC0) != 0x80;
	return n;
}

/* A character no text of a game needs and a terminal acts on: C0 and C1
 * controls, DEL, and the invisible format characters that reorder or hide
 * text (bidirectional overrides and isolates, zero-width ones, the BOM). */
static int unshowable(uint32_t c)
{
	return c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F) || (c >= 0x200B && c <= 0x200F) ||
	       (c >= 0x202A && c <= 0x202E) || (c >= 0x2060 && c <= 0x2064) ||
	       (c >= 0x2066 && c <= 0x2069) || c == 0xFEFF;
}

/* The first character of s that hidden names (or a byte that is no
 * UTF-8): 1 (or -1) with its 1-based column and code point (or byte), 0
 * when there is none. */
static int first_hidden(const char *s, unsigned *col, uint32_t *cp, int (*hidden)(uint32_t))
{
	const unsigned char *p = (const unsigned char *)s, *end = p + strlen(s);
	unsigned n = 1;

	while (p < end) {
		uint32_t c = 0;
		size_t k = ord_utf8_decode(p, end, &c);
		if (!k || hidden(c)) {
			*col = n;
			*cp = k ? c : p[0];
			return k ? 1 : -1;
		}
		p += k;
		n++;
	}
	return 0;
}

int ord_text_unshowable(const char *s, unsigned *col, uint32_t *cp)
{
	return first_hidden(s, col, cp, unshowable);
}

int ord_name_hidden(const char *s, unsigned *col, uint32_t *cp)
{
	return first_hidden(s, col, cp, ord_name_char_hidden);
}

/* The characters a fixed-width font draws two columns wide: East Asian
 * Width W or F (CJK, Hangul syllables, the fullwidth forms, emoji), made
 * by scripts/unicode-wide from Unicode 14.0.0's data, sorted. */
static const struct {
	uint32_t lo, hi;
} wide[] = {
	{ 0x1100, 0x115F },   { 0x231A, 0x231B },   { 0x2329, 0x232A },   { 0x23E9, 0x23EC },
	{ 0x23F0, 0x23F0 },   { 0x23F3, 0x23F3 },   { 0x25FD, 0x25FE },   { 0x2614, 0x2615 },
	{ 0x2648, 0x2653 },   { 0x267F, 0x267F },   { 0x2693, 0x2693 },   { 0x26A1, 0x26A1 },
	{ 0x26AA, 0x26AB },   { 0x26BD, 0x26BE },   { 0x26C4, 0x26C5 },   { 0x26CE, 0x26CE },
	{ 0x26D4, 0x26D4 },   { 0x26EA, 0x26EA },   { 0x26F2, 0x26F3 },   { 0x26F5, 0x26F5 },
	{ 0x26FA, 0x26FA },   { 0x26FD, 0x26FD },   { 0x2705, 0x2705 },   { 0x270A, 0x270B },
	{ 0x2728, 0x2728 },   { 0x274C, 0x274C },   { 0x274E, 0x274E },   { 0x2753, 0x2755 },
	{ 0x2757, 0x2757 },   { 0x2795, 0x2797 },   { 0x27B0, 0x27B0 },   { 0x27BF, 0x27BF },
	{ 0x2B1B, 0x2B1C },   { 0x2B50, 0x2B50 },   { 0x2B55, 0x2B55 },   { 0x2E80, 0x303E },
	{ 0x3041, 0x3247 },   { 0x3250, 0x4DBF },   { 0x4E00, 0xA4C6 },   { 0xA960, 0xA97C },
	{ 0xAC00, 0xD7A3 },   { 0xF900, 0xFAFF },   { 0xFE10, 0xFE19 },   { 0xFE30, 0xFE6B },
	{ 0xFF01, 0xFF60 },   { 0xFFE0, 0xFFE6 },   { 0x16FE0, 0x1B2FB }, { 0x1F004, 0x1F004 },
	{ 0x1F0CF, 0x1F0CF }, { 0x1F18E, 0x1F18E }, { 0x1F191, 0x1F19A }, { 0x1F200, 0x1F320 },
	{ 0x1F32D, 0x1F335 }, { 0x1F337, 0x1F37C }, { 0x1F37E, 0x1F393 }, { 0x1F3A0, 0x1F3CA },
	{ 0x1F3CF, 0x1F3D3 }, { 0x1F3E0, 0x1F3F0 }, { 0x1F3F4, 0x1F3F4 }, { 0x1F3F8, 0x1F43E },
	{ 0x1F440, 0x1F440 }, { 0x1F442, 0x1F4FC }, { 0x1F4FF, 0x1F53D }, { 0x1F54B, 0x1F54E },
	{ 0x1F550, 0x1F567 }, { 0x1F57A, 0x1F57A }, { 0x1F595, 0x1F596 }, { 0x1F5A4, 0x1F5A4 },
	{ 0x1F5FB, 0x1F64F }, { 0x1F680, 0x1F6C5 }, { 0x1F6CC, 0x1F6CC }, { 0x1F6D0, 0x1F6D2 },
	{ 0x1F6D5, 0x1F6DF }, { 0x1F6EB, 0x1F6EC }, { 0x1F6F4, 0x1F6FC }, { 0x1F7E0, 0x1F7F0 },
	{ 0x1F90C, 0x1F93A }, { 0x1F93C, 0x1F945 }, { 0x1F947, 0x1F9FF }, { 0x1FA70, 0x1FAF6 },
	{ 0x20000, 0x3FFFD },
};

/* The marks a font draws on the character before them: the blocks of
 * combining diacritical marks (an NFD sheet's e and U+0301 are one é) and
 * the variation selectors (U+FE0F after a character: its emoji form). */
static int zero_width(uint32_t c)
{
	return (c >= 0x300 && c <= 0x36F) || (c >= 0x1AB0 && c <= 0x1AFF) ||
	       (c >= 0x1DC0 && c <= 0x1DFF) || (c >= 0x20D0 && c <= 0x20FF) ||
	       (c >= 0xFE20 && c <= 0xFE2F) || (c >= 0xFE00 && c <= 0xFE0F) ||
	       (c >= 0xE0100 && c <= 0xE01EF);
}

unsigned ord_char_columns(uint32_t c)
{
	size_t lo = 0, hi = ORD_ARRAY_SIZE(wide);

	if (c >= 0x20 && c < 0x7F)
		return 1;
	if (ord_name_char_hidden(c) || zero_width(c))
		return 0;
	if (c < wide[0].lo)
		return 1;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (c > wide[mid].hi)
			lo = mid + 1;
		else if (c < wide[mid].lo)
			hi = mid;
		else
			return 2;
	}
	return 1;
}

/* The character at p (p < end) as add_escaped shows it, into b: escaped
 * when hidden names it (\x1b, \u202e; a byte that is no UTF-8 as \x..),
 * a newline kept when lines is set; the bytes of s it took, and in *cols
 * the columns a fixed-width font gives what was written. */
static size_t add_char(struct ord_buf *b, const unsigned char *p, const unsigned char *end,
		       int (*hidden)(uint32_t), int lines, unsigned *cols)
{
	size_t was = b->len;
	uint32_t c = 0;
	size_t k = ord_utf8_decode(p, end, &c);

	if (!k) {
		ord_buf_addf(b, "\\x%02x", p[0]); /* no UTF-8: the byte */
		k = 1;
	} else if (c == '\n' && lines) {
		ord_buf_addch(b, '\n');
	} else if (c == '\n') {
		ord_buf_adds(b, "\\n");
	} else if (c == '\r') {
		ord_buf_adds(b, "\\r");
	} else if (c == '\t') {
		ord_buf_adds(b, "\\t");
	} else if (c < 0x80 && hidden(c)) {
		ord_buf_addf(b, "\\x%02x", (unsigned)c);
	} else if (hidden(c)) {
		ord_buf_addf(b, "\\u%04x", (unsigned)c);
	} else {
		ord_buf_add(b, (const char *)p, k);
		*cols = ord_char_columns(c);
		return k;
	}
	/* an escape: ASCII, a column a byte (a kept newline none) */
	*cols = c == '\n' && lines ? 0 : (unsigned)(b->len - was);
	return k;
}

/* s with every character hidden names escaped (\x1b, \u202e, a byte that
 * is no UTF-8 as \x..), at most max characters and an ellipsis; a newline
 * kept when lines is set (a report's lines), else shown as \n. */
static void add_escaped(struct ord_buf *b, const char *s, size_t max, int (*hidden)(uint32_t), int lines)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + strlen(s);
	size_t n = 0;
	unsigned cols;

	while (p < end) {
		if (n++ == max) {
			ord_buf_adds(b, "…");
			return;
		}
		p += add_char(b, p, end, hidden, lines, &cols);
	}
}

size_t ord_buf_add_name_char(struct ord_buf *b, const unsigned char *p, const unsigned char *end,
			     unsigned *cols)
{
	return add_char(b, p, end, ord_name_char_hidden, 0, cols);
}

static void add_shown(struct ord_buf *b, const char *s, size_t max)
{
	add_escaped(b, s, max, unshowable, 0);
}

void ord_buf_add_name_shown(struct ord_buf *b, const char *s)
{
	add_escaped(b, s, (size_t)-1, ord_name_char_hidden, 1);
}

void ord_buf_add_name_line(struct ord_buf *b, const char *s)
{
	add_escaped(b, s, (size_t)-1, ord_name_char_hidden, 0);
}

void ord_buf_add_name_quoted(struct ord_buf *b, const char *s, size_t max)
{
	ord_buf_addch(b, '\'');
	add_escaped(b, s, max, ord_name_char_hidden, 0);
	ord_buf_addch(b, '\'');
}

void ord_buf_add_shown(struct ord_buf *b, const char *s)
{
	add_shown(b, s, (size_t)-1);
}

void ord_buf_add_shown_cut(struct ord_buf *b, const char *s, size_t max)
{
	add_shown(b, s, max);
}

void ord_buf_add_quoted(struct ord_buf *b, const char *s, size_t max)
{
	ord_buf_addch(b, '\'');
	add_shown(b, s, max);
	ord_buf_addch(b, '\'');
}

int ord_text_plain(const char *what, const char *s)
{
	unsigned col;
	uint32_t cp;
	int k = ord_text_unshowable(s, &col, &cp);

	if (k > 0)
		return ord_error_set(ORD_EUSAGE,
				     "%s holds the control or invisible character U+%04X at character %u (expected one line of plain text)",
				     what, (unsigned)cp, col);
	if (k < 0)
		return ord_error_set(ORD_EUSAGE,
				     "%s holds the byte 0x%02X at character %u, which is no UTF-8 (expected one line of plain text)",
				     what, (unsigned)cp, col);
	return 0;
}
