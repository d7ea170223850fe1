/* text.c - UTF-8 helpers of the order notations (see text.h). */
#include "orders/text.h"

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

unsigned ord_utf8_count(const unsigned char *s, const unsigned char *e)
{
	unsigned n = 0;

	for (; s < e; s++)
		n += (*s & 0xC0) != 0x80;
	return n;
}

/* Sheets typed in word processors or on phones carry no-break and other
 * Unicode spaces; they separate tokens like a plain space.  So does a byte
 * order mark (U+FEFF) anywhere but at the start of the sheet, where the
 * notations skip it: a sheet pasted after another keeps one, and a unit
 * written "\uFEFFA1" would print as a sheet whose BOM is dropped, naming
 * "A1" (found by fuzzing the hieroglyph parser). */
int ord_text_is_space(uint32_t cp)
{
	return cp == ' ' || cp == '\t' || cp == 0xA0 || cp == 0x1680 ||
	       (cp >= 0x2000 && cp <= 0x200A) || cp == 0x202F || cp == 0x205F || cp == 0x3000 ||
	       cp == 0xFEFF;
}

size_t ord_text_space_at(const unsigned char *s, const unsigned char *end)
{
	uint32_t cp;
	size_t n;

	if (s >= end)
		return 0;
	if (*s < 0x80)
		return (*s == ' ' || *s == '\t') ? 1 : 0;
	n = ord_utf8_decode(s, end, &cp);
	return (n && ord_text_is_space(cp)) ? n : 0;
}
