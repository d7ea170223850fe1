/*
 * names.c - the names of the files the judge mails (mail_file_name,
 * mail.h): the game's name made a file name any system takes, then what
 * the file is.  A player in two games keeps both games' files in one
 * folder.  No GMime here: the names are text.
 */
#include <stdarg.h>
#include <string.h>

#include "mail/mail.h"

/* What a letter of Latin-1 (U+00C0 to U+00FF) is folded to in a file
 * name; NULL: replaced.  Æ Ø Å as Danish writes them without the letters
 * (Ae Oe Aa), Ä Ö Ü as German does, the others without their accent. */
static const char *const latin1_fold[64] = {
	"A", "A", "A", "A", "Ae", "Aa", "Ae", "C",  "E",  "E", "E", "E", "I",  "I", "I",  "I",
	"D", "N", "O", "O", "O",  "O",  "Oe", NULL, "Oe", "U", "U", "U", "Ue", "Y", "Th", "ss",
	"a", "a", "a", "a", "ae", "aa", "ae", "c",  "e",  "e", "e", "e", "i",  "i", "i",  "i",
	"d", "n", "o", "o", "o",  "o",  "oe", NULL, "oe", "u", "u", "u", "ue", "y", "th", "y",
};

/* The length of the UTF-8 sequence at s (1 for a byte that begins none,
 * which is replaced alone) and its code point in *cp (0 when invalid). */
static size_t utf8_at(const unsigned char *s, unsigned *cp)
{
	size_t n, i;
	unsigned c;

	*cp = 0;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, c = s[0] & 0x1fu;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, c = s[0] & 0x0fu;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, c = s[0] & 0x07u;
	else
		return 1;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 1;
		c = c << 6 | (s[i] & 0x3fu);
	}
	*cp = c;
	return n;
}

static int name_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '_' || c == '.';
}

/* The game's name as the start of a file name, at most max bytes, in out
 * (appended); see mail.h. */
static void file_game(struct ord_buf *out, const char *game, size_t max)
{
	struct ord_buf s = ORD_BUF_INIT;
	const unsigned char *p = (const unsigned char *)game;
	size_t start, end;

	while (*p) {
		unsigned cp;
		size_t n = 1;
		const char *fold = NULL;

		if (name_char(*p)) {
			ord_buf_add(&s, p, 1);
			p++;
			continue;
		}
		if (*p >= 0x80 && (n = utf8_at(p, &cp)) > 1 && cp >= 0xc0 && cp <= 0xff)
			fold = latin1_fold[cp - 0xc0];
		if (fold)
			ord_buf_adds(&s, fold);
		else if (!s.len || s.buf[s.len - 1] != '_')
			ord_buf_adds(&s, "_"); /* a run of others is one '_' */
		p += n;
	}
	/* nothing that hides the file (a leading '.') or reads as an option
	 * (a leading '-'); no separator before the one that follows */
	for (start = 0; start < s.len && strchr(".-_", s.buf[start]); start++)
		;
	end = s.len - start > max ? start + max : s.len;
	while (end > start && strchr(".-_", s.buf[end - 1]))
		end--;
	if (end > start)
		ord_buf_add(out, s.buf + start, end - start);
	else
		ord_buf_adds(out, "game");
	ord_buf_release(&s);
}

void mail_file_namev(struct ord_buf *out, const char *game, const char *fmt, va_list ap)
{
	struct ord_buf rest = ORD_BUF_INIT;
	size_t max = MAIL_FILE_GAME_MAX;

	ord_buf_vaddf(&rest, fmt, ap);
	/* the whole within a header's line, so that no mail program sees
	 * it cut in pieces (RFC 2231), nor the outbox's look for it */
	if (1 + rest.len + max > MAIL_FILE_NAME_MAX)
		max = rest.len + 1 + 8 < MAIL_FILE_NAME_MAX ? MAIL_FILE_NAME_MAX - 1 - rest.len : 8;
	file_game(out, game, max);
	ord_buf_addf(out, "-%s", rest.buf);
	ord_buf_release(&rest);
}

void mail_file_name(struct ord_buf *out, const char *game, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	mail_file_namev(out, game, fmt, ap);
	va_end(ap);
}
