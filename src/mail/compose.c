/*
 * compose.c - the judge's mail as RFC 5322 bytes, through GMime: UTF-8
 * text/plain (quoted-printable when it is not plain ASCII), attachments in
 * base64 so that a bundle or a head arrives byte for byte as signed, the
 * headers RFC 3834 asks of an automatic reply (Auto-Submitted, In-Reply-To,
 * References) and X-Orderly-Game, by which orderly knows its own mail.
 *
 * The Message-ID is made here, once; the outbox keeps the bytes, so a mail
 * sent again after a crash carries the same Message-ID.  Its Date is UTC:
 * GLib's local time reads TZ with no lock, and `orderly serve` composes a
 * mail in one thread while another reads a time in a game's zone, which
 * changes TZ for the process (when.c W4).
 *
 * The names of the files it attaches begin with the game's, made a file
 * name any system takes (mail_file_name, mail.h): a player in two games
 * keeps both games' files in one folder.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmime/gmime.h>

#include "mail/mail.h"

void mail_out_release(struct mail_out *o)
{
	free(o->message_id);
	ord_buf_release(&o->bytes);
	memset(o, 0, sizeof(*o));
}

/* A reply may quote a player's line with a byte that is not UTF-8 (the
 * problem it reports): it goes out as U+FFFD, one for each such byte, so
 * the mail is the UTF-8 it says it is and the caret stays under it. */
static GMimeObject *text_part(const char *body)
{
	GMimeTextPart *tp = g_mime_text_part_new_with_subtype("plain");
	char *valid = g_utf8_make_valid(body, -1);

	g_mime_text_part_set_text(tp, valid);
	g_free(valid);
	g_mime_text_part_set_charset(tp, "utf-8");
	g_mime_part_set_content_encoding(GMIME_PART(tp),
					 g_mime_part_get_best_content_encoding(GMIME_PART(tp),
									       GMIME_ENCODING_CONSTRAINT_7BIT));
	return GMIME_OBJECT(tp);
}

static GMimeObject *attachment(const struct mail_attach *a)
{
	const char *slash = strchr(a->type, '/');
	char major[32];
	GMimePart *part;
	GMimeStream *st;
	GMimeDataWrapper *w;

	snprintf(major, sizeof(major), "%.*s", slash ? (int)(slash - a->type) : 4,
		 slash ? a->type : "text");
	part = g_mime_part_new_with_type(major, slash ? slash + 1 : "plain");
	g_mime_part_set_filename(part, a->filename);
	g_mime_object_set_content_disposition(GMIME_OBJECT(part),
					      g_mime_content_disposition_parse(NULL, "attachment"));
	g_mime_part_set_filename(part, a->filename);
	st = g_mime_stream_mem_new_with_buffer(a->data, a->len);
	w = g_mime_data_wrapper_new_with_stream(st, GMIME_CONTENT_ENCODING_DEFAULT);
	g_mime_part_set_content(part, w);
	g_object_unref(w);
	g_object_unref(st);
	g_mime_part_set_content_encoding(part, GMIME_CONTENT_ENCODING_BASE64);
	return GMIME_OBJECT(part);
}

void mail_compose(struct mail_out *out, const char *from, const char *rcpt, const char *subject,
		  const char *body, const char *in_reply_to, const char *references,
		  const char *game, const struct mail_attach *att, size_t natt)
{
	GMimeMessage *msg = g_mime_message_new(TRUE);
	GMimeObject *top, *text;
	GMimeStream *mem;
	GByteArray *arr;
	GDateTime *now;
	struct ord_buf id = ORD_BUF_INIT, refs = ORD_BUF_INIT;
	unsigned char rnd[12];
	char hex[25];
	const char *at = strchr(from, '@');
	size_t i;

	memset(out, 0, sizeof(*out));
	ord_buf_init(&out->bytes);
	randombytes_buf(rnd, sizeof(rnd));
	mail_hex(hex, rnd, sizeof(rnd));
	ord_buf_addf(&id, "orderly.%s.%s@%s", game, hex, at && at[1] ? at + 1 : "orderly.invalid");
	g_mime_message_add_mailbox(msg, GMIME_ADDRESS_TYPE_FROM, "orderly", from);
	g_mime_message_add_mailbox(msg, GMIME_ADDRESS_TYPE_TO, NULL, rcpt);
	g_mime_message_set_subject(msg, subject, "utf-8");
	g_mime_message_set_message_id(msg, id.buf);
	now = g_date_time_new_now_utc();
	g_mime_message_set_date(msg, now);
	g_date_time_unref(now);
	if (in_reply_to && *in_reply_to) {
		ord_buf_addf(&refs, "<%s>", in_reply_to);
		g_mime_object_set_header(GMIME_OBJECT(msg), "In-Reply-To", refs.buf, NULL);
		ord_buf_reset(&refs);
		if (references && *references)
			ord_buf_addf(&refs, "%s ", references);
		ord_buf_addf(&refs, "<%s>", in_reply_to);
		g_mime_object_set_header(GMIME_OBJECT(msg), "References", refs.buf, NULL);
	}
	g_mime_object_set_header(GMIME_OBJECT(msg), "Auto-Submitted",
				 in_reply_to ? "auto-replied" : "auto-generated", NULL);
	g_mime_object_set_header(GMIME_OBJECT(msg), "X-Orderly-Game", game, NULL);
	g_mime_object_set_header(GMIME_OBJECT(msg), "Precedence", "bulk", NULL);
	text = text_part(body);
	if (natt) {
		GMimeMultipart *mp = g_mime_multipart_new_with_subtype("mixed");
		g_mime_multipart_add(mp, text);
		g_object_unref(text);
		for (i = 0; i < natt; i++) {
			GMimeObject *a = attachment(&att[i]);
			g_mime_multipart_add(mp, a);
			g_object_unref(a);
		}
		top = GMIME_OBJECT(mp);
	} else {
		top = text;
	}
	g_mime_message_set_mime_part(msg, top);
	g_object_unref(top);
	mem = g_mime_stream_mem_new();
	g_mime_object_write_to_stream(GMIME_OBJECT(msg), NULL, mem);
	arr = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	ord_buf_add(&out->bytes, arr->data, arr->len);
	g_object_unref(mem);
	g_object_unref(msg);
	out->message_id = ord_buf_detach(&id, NULL);
	ord_buf_release(&refs);
}

/* ---- the names of the files the judge mails ---- */

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
