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
 * The names of the files it attaches begin with the game's
 * (src/core/file_names.c).
 *
 * With decode.c it is the mail's part on GMime and GPGME, which the orderly
 * binary loads as orderly-mime.so when a command first reads or writes a
 * mail (mime.c, src/cli/plugins.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gmime/gmime.h>

#include "core/common.h"
#include "mail/mail.h"

void mail_out_release(struct mail_out *o)
{
	free(o->message_id);
	ord_buf_release(&o->bytes);
	memset(o, 0, sizeof(*o));
}

/* A text part of the UTF-8 bytes of st as they are, labelled utf-8, in
 * the transfer encoding that fits them (7bit, quoted-printable or
 * base64).  Not g_mime_text_part_set_text, which turns a text whose
 * characters are all Latin-1 (a Danish report's æ, ø and å) into
 * ISO-8859-1 bytes that the label then calls UTF-8, and copies the text:
 * st may read a file a piece at a time. */
static GMimeObject *text_part_of(GMimeStream *st)
{
	GMimeTextPart *tp = g_mime_text_part_new_with_subtype("plain");
	GMimeDataWrapper *w = g_mime_data_wrapper_new_with_stream(st, GMIME_CONTENT_ENCODING_DEFAULT);

	g_mime_part_set_content(GMIME_PART(tp), w);
	g_object_unref(w);
	g_mime_text_part_set_charset(tp, "utf-8");
	g_mime_part_set_content_encoding(GMIME_PART(tp),
					 g_mime_part_get_best_content_encoding(GMIME_PART(tp),
									       GMIME_ENCODING_CONSTRAINT_7BIT));
	return GMIME_OBJECT(tp);
}

/* A byte that is not UTF-8 in a text goes out as U+FFFD, one for each,
 * so the mail is the UTF-8 it says it is.  The judge's quote of a
 * player's line holds none: it shows such a byte escaped, \xff, with
 * the caret counted past the escape (mail_quote_at). */
static GMimeObject *text_part(const char *body)
{
	char *valid = g_utf8_make_valid(body, -1);
	GMimeStream *st = g_mime_stream_mem_new_with_buffer(valid, strlen(valid));
	GMimeObject *part;

	g_free(valid);
	part = text_part_of(st);
	g_object_unref(st);
	return part;
}

/* 1 when the len bytes of the file open at fd are UTF-8 with no NUL,
 * read a piece at a time (a character may span two); 0 when not, or
 * when the file cannot be read. */
static int file_utf8(int fd, size_t len)
{
	char buf[64 * 1024 + 4];
	size_t off = 0, keep = 0, n, have;
	const char *end;
	ssize_t r;

	while (off < len) {
		n = len - off < sizeof(buf) - keep ? len - off : sizeof(buf) - keep;
		r = pread(fd, buf + keep, n, (off_t)off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return 0;
		off += (size_t)r;
		have = keep + (size_t)r;
		if (g_utf8_validate(buf, (gssize)have, &end)) {
			keep = 0;
			continue;
		}
		/* the start of a character the next piece ends, or no UTF-8 */
		keep = have - (size_t)(end - buf);
		if (off == len || keep > 3 || !*end ||
		    g_utf8_get_char_validated(end, (gssize)keep) != (gunichar)-2)
			return 0;
		memmove(buf, end, keep);
	}
	return keep == 0;
}

/* The text part of body followed by the len bytes of the file open at
 * fd (a turn report written there a piece at a time), read from the file
 * as the mail is written, never whole in memory: the same part as
 * text_part of the two as one string.  A file that is no UTF-8 is read
 * whole and made valid as text_part makes a string. */
static GMimeObject *text_part_file(const char *body, int fd, size_t len)
{
	GMimeStream *cat, *st;
	GMimeObject *part;

	if (!g_utf8_validate(body, -1, NULL) || !file_utf8(fd, len)) {
		struct ord_buf whole = ORD_BUF_INIT;
		size_t got = 0;

		ord_buf_adds(&whole, body);
		ord_buf_grow(&whole, len);
		/* what the file holds: the check of its length is the caller's */
		(void)ord_fd_pread(fd, whole.buf + whole.len, len, 0, &got);
		whole.len += got;
		whole.buf[whole.len] = '\0';
		part = text_part(whole.buf);
		ord_buf_release(&whole);
		return part;
	}
	cat = g_mime_stream_cat_new();
	st = g_mime_stream_mem_new_with_buffer(body, strlen(body));
	g_mime_stream_cat_add_source(GMIME_STREAM_CAT(cat), st);
	g_object_unref(st);
	/* the file holds the len bytes and nothing more (as attachment's) */
	st = g_mime_stream_fs_new_with_bounds(fd, 0, -1);
	g_mime_stream_fs_set_owner(GMIME_STREAM_FS(st), FALSE);
	g_mime_stream_cat_add_source(GMIME_STREAM_CAT(cat), st);
	g_object_unref(st);
	part = text_part_of(cat);
	g_object_unref(cat);
	return part;
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
	if (a->in_file) {
		/* read from the file as the mail is written, a piece at a
		 * time; the descriptor stays the caller's.  The file holds
		 * the len bytes and nothing more: bounded at its end, GMime's
		 * read there fails rather than ending the stream */
		lseek(a->fd, 0, SEEK_SET); /* from its start, wherever the export left it */
		st = g_mime_stream_fs_new_with_bounds(a->fd, 0, -1);
		g_mime_stream_fs_set_owner(GMIME_STREAM_FS(st), FALSE);
	} else {
		st = g_mime_stream_mem_new_with_buffer(a->data, a->len);
	}
	w = g_mime_data_wrapper_new_with_stream(st, GMIME_CONTENT_ENCODING_DEFAULT);
	g_mime_part_set_content(part, w);
	g_object_unref(w);
	g_object_unref(st);
	g_mime_part_set_content_encoding(part, GMIME_CONTENT_ENCODING_BASE64);
	return GMIME_OBJECT(part);
}

/* The message built, written to st; the bytes written or -1. */
static gint64 compose(struct mail_out *out, GMimeStream *st, const char *from, const char *rcpt,
		      const char *subject, const char *body, int text_fd, size_t text_len,
		      const char *in_reply_to, const char *references, const char *game,
		      const struct mail_attach *att, size_t natt)
{
	GMimeMessage *msg = g_mime_message_new(TRUE);
	GMimeObject *top, *text;
	GDateTime *now;
	struct ord_buf id = ORD_BUF_INIT, refs = ORD_BUF_INIT;
	unsigned char rnd[12];
	char hex[25];
	const char *at = strchr(from, '@');
	gint64 written;
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
	text = text_fd >= 0 ? text_part_file(body, text_fd, text_len) : text_part(body);
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
	written = g_mime_object_write_to_stream(GMIME_OBJECT(msg), NULL, st);
	if (written >= 0 && g_mime_stream_flush(st) != 0)
		written = -1;
	g_object_unref(msg);
	out->message_id = ord_buf_detach(&id, NULL);
	ord_buf_release(&refs);
	return written;
}

void mail_compose(struct mail_out *out, const char *from, const char *rcpt, const char *subject,
		  const char *body, const char *in_reply_to, const char *references,
		  const char *game, const struct mail_attach *att, size_t natt)
{
	GMimeStream *mem = g_mime_stream_mem_new();
	GByteArray *arr;

	compose(out, mem, from, rcpt, subject, body, -1, 0, in_reply_to, references, game, att, natt);
	arr = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	ord_buf_add(&out->bytes, arr->data, arr->len);
	g_object_unref(mem);
}

int mail_compose_file(struct mail_out *out, int fd, const char *from, const char *rcpt,
		      const char *subject, const char *body, int text_fd, size_t text_len,
		      const char *in_reply_to, const char *references, const char *game,
		      const struct mail_attach *att, size_t natt)
{
	GMimeStream *fs = g_mime_stream_fs_new(fd);
	struct stat st;
	gint64 n;

	/* the descriptor stays the caller's */
	g_mime_stream_fs_set_owner(GMIME_STREAM_FS(fs), FALSE);
	n = compose(out, fs, from, rcpt, subject, body, text_fd, text_len, in_reply_to, references,
		    game, att, natt);
	g_object_unref(fs);
	/* what the file holds: GMime's count is of some parts' bytes, not
	 * of every byte written */
	if (n < 0 || fstat(fd, &st) != 0)
		return -1;
	out->file_len = (size_t)st.st_size;
	return 0;
}
