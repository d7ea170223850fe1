/*
 * file_names.c - the names of a game's files (ord_file_name, orderly.h):
 * the game's name made a file name any system takes, then what the file
 * is.  A player in two games keeps both games' files in one folder.  The
 * mail judge names the files it mails so, and the web page its downloads,
 * through these functions alone, so that a file has one name however the
 * player came by it: a renamed game's files keep the name they began with
 * on both.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/common.h"
#include "core/crypto.h"

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
 * (appended); see orderly.h. */
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

/* A side's id in a file's name is cut when the longest name of a file of
 * the side (SIDE_ROOM besides the id and the game's name: a report of a
 * turn of 4 digits, exchanged) would be longer than ORD_FILE_NAME_MAX,
 * so that it reads the same in every file of the game: to no fewer than
 * SIDE_KEEP bytes, then a '.' and SIDE_HASH hex digits of a hash of the
 * whole id.  A '.' is in no side's id, so a cut one is never another
 * side's whole, and the hash tells apart two ids cut to the same start. */
#define SIDE_ROOM (sizeof("report-9999--exchanged.txt") - 1)
#define SIDE_KEEP 8
#define SIDE_HASH 6

/* Where side stands in rest as a part of its own (after a '-', before a
 * '-', a '.' or the end), the last such place; NULL when it does not. */
static char *side_in(char *rest, const char *side)
{
	size_t n = strlen(side);
	char *p, *found = NULL;

	for (p = strstr(rest, side); n && p; p = strstr(p + 1, side))
		if (p > rest && p[-1] == '-' && (!p[n] || p[n] == '-' || p[n] == '.'))
			found = p;
	return found;
}

/* The side's id in rest (side_in) cut so that its files' names, after a
 * game's name of game_len bytes, stay within ORD_FILE_NAME_MAX. */
static void side_cut(struct ord_buf *rest, const char *side, size_t game_len)
{
	struct ord_buf cut = ORD_BUF_INIT;
	size_t n = strlen(side), room = ORD_FILE_NAME_MAX - 1 - game_len - SIDE_ROOM, keep, at;
	unsigned char h[32];
	char *s;

	if (n <= room || !(s = side_in(rest->buf, side)))
		return;
	keep = room > SIDE_KEEP + 1 + SIDE_HASH ? room - 1 - SIDE_HASH : SIDE_KEEP;
	while (keep > 1 && strchr("-_", side[keep - 1]))
		keep--;
	/* BLAKE2b, as the judge's other hashes */
	crypto_generichash(h, sizeof(h), (const unsigned char *)side, n, NULL, 0);
	at = (size_t)(s - rest->buf);
	ord_buf_add(&cut, rest->buf, at);
	ord_buf_add(&cut, side, keep);
	ord_buf_addf(&cut, ".%02x%02x%02x", h[0], h[1], h[2]); /* SIDE_HASH digits */
	ord_buf_adds(&cut, rest->buf + at + n);
	ord_buf_reset(rest);
	ord_buf_add(rest, cut.buf, cut.len);
	ord_buf_release(&cut);
}

void ord_file_namev(struct ord_buf *out, const char *game, const char *side, const char *fmt, va_list ap)
{
	struct ord_buf rest = ORD_BUF_INIT, whole = ORD_BUF_INIT;
	size_t max = ORD_FILE_GAME_MAX;

	ord_buf_vaddf(&rest, fmt, ap);
	/* the whole within a header's line, so that no mail program sees
	 * it cut in pieces (RFC 2231), nor the outbox's look for it: a long
	 * side's id is cut first, so that the game's name stays whole and
	 * the games of one folder apart, then the game's name */
	file_game(&whole, game, max);
	if (side)
		side_cut(&rest, side, whole.len);
	if (1 + rest.len + max > ORD_FILE_NAME_MAX)
		max = rest.len + 1 + 8 < ORD_FILE_NAME_MAX ? ORD_FILE_NAME_MAX - 1 - rest.len : 8;
	file_game(out, game, max);
	ord_buf_addf(out, "-%s", rest.buf);
	ord_buf_release(&rest);
	ord_buf_release(&whole);
}

void ord_file_name(struct ord_buf *out, const char *game, const char *side, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ord_file_namev(out, game, side, fmt, ap);
	va_end(ap);
}

/* The kinds of file the judge mails: a file's own name is one, a '-' and
 * a digit (open-3.head, sealed-3-red.head). */
static const char *const file_kinds[] = {
	"open", "seal", "sealed", "close", "receipt", "link", "report", "turn", "exchange", NULL,
};

static int kind_at(const char *s)
{
	size_t i, n;

	for (i = 0; file_kinds[i]; i++) {
		n = strlen(file_kinds[i]);
		if (!strncmp(s, file_kinds[i], n) && s[n] == '-' && s[n + 1] >= '0' && s[n + 1] <= '9')
			return 1;
	}
	return 0;
}

/*
 * What the first file named in bytes (from a mail the judge queued, its
 * first "filename=" on: ord_mail_first_naming) begins
 * with, in out: now (the game's name now, as file_game made it) when the
 * name begins with it or with a cut of it; "" when the name is a file's
 * own (open-3.head: an orderly before game-named files); else what comes
 * before the first '-' that a file's own name follows: the game's name
 * when the mail was made, a game file renamed since (and before the name
 * was kept).
 */
static void files_named(const char *bytes, size_t len, const char *now, struct ord_buf *out)
{
	struct ord_buf name = ORD_BUF_INIT;
	const char *p = NULL, *end = bytes + len;
	size_t i, n = strlen(now);

	for (i = 0; i + 9 <= len; i++)
		if (!memcmp(bytes + i, "filename=", 9)) {
			p = bytes + i + 9;
			break;
		}
	if (p && p < end && *p == '"')
		p++;
	while (p && p < end && name_char((unsigned char)*p))
		ord_buf_add(&name, p++, 1);
	ord_buf_adds(&name, ""); /* never NULL */
	if (!name.len || (!strncmp(name.buf, now, n) && name.buf[n] == '-')) {
		ord_buf_adds(out, now);
		goto out;
	}
	if (kind_at(name.buf))
		goto out; /* "" */
	for (i = 1; i < name.len; i++)
		if (name.buf[i] == '-' && kind_at(name.buf + i + 1))
			break;
	if (i == name.len || (i <= n && !strncmp(name.buf, now, i)))
		ord_buf_adds(out, now);
	else
		ord_buf_add(out, name.buf, i);
out:
	ord_buf_release(&name);
}

void ord_game_files(ord_game *g, int keep, struct ord_buf *out)
{
	struct ord_buf now = ORD_BUF_INIT, bytes = ORD_BUF_INIT;
	int kept = 0, found = 0;

	ord_buf_reset(out);
	file_game(&now, ord_game_name(g), ORD_FILE_GAME_MAX);
	if (ord_mail_files(g, out, &kept) != 0)
		goto fail;
	if (kept)
		goto out;
	/* none kept yet: as the game's mails named their files, else the
	 * game's name now, kept from this mail on */
	if (ord_mail_first_naming(g, "filename=", &bytes, &found) != 0)
		goto fail;
	if (found)
		files_named(bytes.buf, bytes.len, now.buf, out);
	else
		ord_buf_add(out, now.buf, now.len);
	if (keep && ord_mail_set_files(g, out->buf) != 0)
		goto fail;
	goto out;
fail:
	/* a file that cannot be read or written now: named as the game is
	 * named now, and kept by a later mail */
	ord_error_clear();
	ord_buf_reset(out);
	ord_buf_add(out, now.buf, now.len);
out:
	ord_buf_release(&now);
	ord_buf_release(&bytes);
}

void ord_game_file_namev(ord_game *g, int keep, struct ord_buf *out, const char *side,
			 const char *fmt, va_list ap)
{
	struct ord_buf files = ORD_BUF_INIT;

	ord_game_files(g, keep, &files);
	if (files.len)
		ord_file_namev(out, files.buf, side, fmt, ap);
	else
		ord_buf_vaddf(out, fmt, ap); /* the file's own name */
	ord_buf_release(&files);
}

void ord_game_file_name(ord_game *g, int keep, struct ord_buf *out, const char *side,
			const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ord_game_file_namev(g, keep, out, side, fmt, ap);
	va_end(ap);
}
