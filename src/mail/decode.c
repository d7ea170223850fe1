/*
 * decode.c - one RFC 5322 message through GMime 3: the headers the judge
 * needs, the signs of a message that must not be answered (RFC 3834 and
 * the usual habits of lists and bounces), the text the sender wrote (any
 * charset and transfer encoding, the text/plain of multipart/alternative, a
 * .txt attachment) and an OpenPGP/MIME signature checked through GPGME.
 *
 * Decisions:
 *  D1. The body is the first text/plain part that is not an attachment,
 *      depth first; parts of a forwarded message (message/rfc822) are not
 *      the sender's words and are skipped.
 *  D2. The sheet attachment is the first part with a .txt file name (in
 *      Content-Disposition's filename or Content-Type's name, whatever its
 *      type: a mail client may send it as application/octet-stream), or a
 *      text/plain part marked as an attachment.
 *  D3. A message to answer is one with none of: Auto-Submitted other than
 *      "no", Precedence bulk/list/junk, a List-Id, an X-Orderly-Game header
 *      (our own mail), a sender that is MAILER-DAEMON or postmaster, an
 *      empty Return-Path (a bounce), a multipart/report (a delivery report).
 *  D4. A message without a Message-ID gets one made from its bytes, so that
 *      the same bytes delivered twice are still one message.
 *  D5. format=flowed text (RFC 3676, what Thunderbird sends) is joined back
 *      into the lines the player wrote, so a long order is one line again.
 *  D6. The sheet is what the player wrote or it is refused, never a part of
 *      it: text declared UTF-8 or US-ASCII (or nothing) is taken byte for
 *      byte, so a byte that is not UTF-8 reaches the sheet check, which
 *      names its line and column (GMime's own conversion drops it); any
 *      other charset is converted with iconv, and a byte it has no
 *      character for stays as it was, for the check to name the same way.
 *  D7. What the judge keeps of a message is checked in every form it can be
 *      read in (mail_msg_texts): the bytes as they are; the decoded Subject;
 *      and every leaf part, those of a forwarded message, an attachment,
 *      an HTML part and a signature too, with its transfer encoding undone,
 *      as its bytes and in UTF-8, format=flowed joined, and HTML read as
 *      text (its tags dropped, or each made a line end; entities decoded).
 *  D8. A mail is signed when its body is one multipart/signed: then only
 *      the signed part is read (its text, and an attached file in it, as
 *      Thunderbird and Evolution sign a multipart/mixed), and the
 *      signature covers everything the judge reads.  A multipart/signed
 *      below the top (a file attached beside it) signs a part of the mail
 *      only: the mail is unsigned, read as any other, and pgp_part says
 *      why its signature is no proof.
 *  D9. An attached file that is not text (a .docx, a .pdf, a picture with
 *      a file name) is not read, and its name is kept (unread) for the
 *      reply to say so: the player whose orders were in orders.docx was
 *      answered only about the text beside it ("Orders attached.").
 * D10. A UTF-8 byte-order mark (U+FEFF) that begins a text, as Windows
 *      Notepad writes one into a .txt file, is dropped (after the charset
 *      is converted: a UTF-16 file's mark becomes one): the first line is
 *      the player's ORDERS or Passphrase:, not the mark and those words.
 * D11. The time the message reached us is the date of its topmost
 *      Received: line: an MTA adds its own above every line it was handed,
 *      so that one is the MTA's that delivered to mail-in, whatever the
 *      sender wrote below it (never the Date:, which he writes).  A
 *      message handed to mail-in by no MTA (a file piped by hand) has the
 *      sender's lines on top: such a file is not to be fed as mail.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gmime/gmime.h>
#include <gpgme.h>

#include "mail/mail.h"

void mail_init(void)
{
	g_mime_init();
}

void mail_shutdown(void)
{
	g_mime_shutdown();
}

static char *dup_lower(const char *s)
{
	char *o = ord_strdup(s), *p;

	for (p = o; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return o;
}

void mail_msg_release(struct mail_msg *m)
{
	free(m->message_id);
	free(m->from);
	free(m->from_header);
	free(m->subject);
	free(m->references);
	free(m->to_plus);
	free(m->loop);
	free(m->text);
	free(m->attachment);
	free(m->unread);
	free(m->pgp_fpr);
	free(m->pgp_why);
	memset(m, 0, sizeof(*m));
}

/* LF line ends; a NUL (which would end the text early) is left out and
 * counted in *nul, the first one's line and column (in characters) kept,
 * so that the judge refuses the text rather than read a part of it (D6),
 * and says where. */
static char *clean_text(const char *s, size_t n, struct mail_nul *nul)
{
	size_t i;
	char *o = ord_xmalloc(n + 1), *q = o;
	unsigned line = 1, col = 1;

	for (i = 0; i < n; i++) {
		if (!s[i]) {
			if (!nul->n++) {
				nul->line = line;
				nul->col = col;
			}
			continue;
		}
		if (s[i] == '\r' || s[i] == '\n') {
			*q++ = '\n';
			if (s[i] == '\r' && i + 1 < n && s[i + 1] == '\n')
				i++;
			line++;
			col = 1;
			continue;
		}
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			col++;
		*q++ = s[i];
	}
	*q = '\0';
	return o;
}

/* RFC 3676: a line ending in a space goes on in the next one (its space
 * dropped with DelSp=yes); a space stuffed before a line is taken away;
 * the signature separator "-- " stays as it is. */
static char *unflow(const char *t, int delsp)
{
	struct ord_buf b = ORD_BUF_INIT;
	const char *p = t;

	while (*p) {
		size_t n = strcspn(p, "\n");
		const char *s = p;
		int soft;

		if (n && *s == ' ')
			s++, n--;
		soft = n && s[n - 1] == ' ' && !(n == 3 && !strncmp(s, "-- ", 3));
		ord_buf_add(&b, s, soft && delsp ? n - 1 : n);
		if (!soft && p[s - p + n] == '\n')
			ord_buf_addch(&b, '\n');
		p = s + n + (s[n] == '\n');
	}
	return ord_buf_detach(&b, NULL);
}

/* A charset whose bytes are taken as they are (D6). */
static int as_written(const char *charset)
{
	static const char *const names[] = { "utf-8", "utf8", "us-ascii", "ascii" };
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(names); i++)
		if (!strcasecmp(charset, names[i]))
			return 1;
	return 0;
}

/* n bytes of charset into UTF-8 (D6): a byte the charset has no character
 * for is kept as it is, where it was, so the sheet check stops at it. */
static void to_utf8(struct ord_buf *out, const char *charset, const char *in, size_t n)
{
	iconv_t cd = g_mime_iconv_open("UTF-8", charset);
	char chunk[4096];

	if (cd == (iconv_t)-1) {
		ord_buf_add(out, in, n); /* no such charset: the bytes as sent */
		return;
	}
	while (n) {
		char *src = (char *)in, *dst = chunk;
		size_t left = sizeof(chunk);
		size_t r = g_mime_iconv(cd, &src, &n, &dst, &left);

		ord_buf_add(out, chunk, sizeof(chunk) - left);
		in = src;
		if (r == (size_t)-1 && errno != E2BIG && n) {
			/* EILSEQ, or EINVAL: a sequence cut short at the end */
			ord_buf_addch(out, *in);
			in++, n--;
			g_mime_iconv(cd, NULL, NULL, NULL, NULL);
		}
	}
	g_mime_iconv_close(cd);
}

/* The text of a part: its transfer encoding undone, its charset turned into
 * UTF-8 (D6), CR LF made LF, format=flowed joined (D5).  Any leaf part: a
 * .txt file sent as application/octet-stream is text too. */
static char *part_text(GMimeObject *obj, struct mail_nul *nul)
{
	const char *format, *delsp, *charset;
	GMimeDataWrapper *content;
	GMimeStream *mem;
	GByteArray *arr;
	struct ord_buf b = ORD_BUF_INIT;
	size_t bom;
	char *t, *o;

	if (!GMIME_IS_PART(obj) || !(content = g_mime_part_get_content(GMIME_PART(obj))))
		return NULL;
	mem = g_mime_stream_mem_new();
	g_mime_data_wrapper_write_to_stream(content, mem);
	arr = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	charset = g_mime_object_get_content_type_parameter(obj, "charset");
	if (charset && !as_written(charset))
		to_utf8(&b, charset, (const char *)arr->data, arr->len);
	else
		ord_buf_add(&b, arr->data, arr->len);
	g_object_unref(mem);
	/* D10: a byte-order mark is not the player's first line */
	bom = ord_utf8_bom_at(b.buf, b.len);
	o = clean_text(b.buf ? b.buf + bom : "", b.len - bom, nul);
	ord_buf_release(&b);
	format = g_mime_object_get_content_type_parameter(obj, "format");
	if (format && !strcasecmp(format, "flowed")) {
		delsp = g_mime_object_get_content_type_parameter(obj, "delsp");
		t = unflow(o, delsp && !strcasecmp(delsp, "yes"));
		free(o);
		o = t;
	}
	return o;
}

static int is_attachment(GMimeObject *obj, const char **filename)
{
	GMimeContentDisposition *d = g_mime_object_get_content_disposition(obj);

	*filename = GMIME_IS_PART(obj) ? g_mime_part_get_filename(GMIME_PART(obj)) : NULL;
	return (d && g_mime_content_disposition_is_attachment(d)) || *filename;
}

static int has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), k = strlen(suf);

	return n >= k && !strcasecmp(s + n - k, suf);
}

/* D9: an attached file not read, by its name (its type when it has none),
 * its control characters left out; at most five named. */
static void note_unread(struct mail_msg *m, const char *filename, GMimeContentType *ct)
{
	struct ord_buf b = ORD_BUF_INIT;
	char *type = NULL;
	const char *p;
	size_t n = 0;

	if (++m->nunread > 5)
		return;
	if (m->unread)
		ord_buf_adds(&b, m->unread);
	if (!filename || !*filename) {
		type = ct ? g_mime_content_type_get_mime_type(ct) : NULL;
		ord_buf_addf(&b, "%sa file of type %s", b.len ? ", " : "", type ? type : "unknown");
		g_free(type);
	} else {
		if (b.len)
			ord_buf_adds(&b, ", ");
		/* 80 bytes, and the rest of the character they end in */
		for (p = filename; *p && (n < 80 || ((unsigned char)*p & 0xc0) == 0x80); p++, n++)
			if ((unsigned char)*p >= 0x20 && *p != 0x7f)
				ord_buf_addch(&b, *p);
	}
	free(m->unread);
	m->unread = ord_buf_detach(&b, NULL);
}

/* Walk the parts for the text, the attachment, and HTML. */
static void walk(struct mail_msg *m, GMimeObject *obj, int *html, int depth)
{
	GMimeContentType *ct = g_mime_object_get_content_type(obj);
	const char *filename;

	if (depth > 20)
		return;
	if (GMIME_IS_MULTIPART(obj)) {
		GMimeMultipart *mp = GMIME_MULTIPART(obj);
		int i, n = g_mime_multipart_get_count(mp);

		if (GMIME_IS_MULTIPART_SIGNED(obj)) {
			n = n > 0 ? 1 : 0; /* the signature part is no text */
			if (depth > 0)
				m->pgp_part = 1; /* D8 */
		}
		for (i = 0; i < n; i++)
			walk(m, g_mime_multipart_get_part(mp, i), html, depth + 1);
		return;
	}
	if (GMIME_IS_MESSAGE_PART(obj))
		return; /* D1 */
	if (!GMIME_IS_PART(obj))
		return;
	if (is_attachment(obj, &filename)) {
		if ((filename && has_suffix(filename, ".txt")) ||
		    (ct && g_mime_content_type_is_type(ct, "text", "plain"))) {
			/* a sheet in a file: the judge takes one, and refuses a
			 * mail of two (J7) */
			if (!m->attachment)
				m->attachment = part_text(obj, &m->nul);
			if (m->nul.n && !m->nul_in)
				m->nul_in = "the attached file";
			m->nattachments++;
		} else {
			note_unread(m, filename, ct);
		}
		return;
	}
	if (ct && g_mime_content_type_is_type(ct, "text", "plain")) {
		if (!m->text) {
			m->text = part_text(obj, &m->nul);
			if (m->nul.n && !m->nul_in)
				m->nul_in = "your mail's text";
		} else {
			/* another text beside it (around a picture): counted
			 * unless blank, the judge refuses a sheet of two (J7) */
			char *t = part_text(obj, &m->nul);
			if (m->nul.n && !m->nul_in)
				m->nul_in = "a second part of your mail's text";
			if (t && t[strspn(t, " \t\r\n")]) /* NULL: a part without content */
				m->ntexts++;
			free(t);
		}
	} else if (ct && g_mime_content_type_is_type(ct, "text", "html")) {
		*html = 1;
	}
}

static const char *header(GMimeObject *o, const char *name)
{
	const char *v = g_mime_object_get_header(o, name);
	return v ? v : "";
}

/* "orderly+GAME@host" -> GAME (letters, digits, _ -, lowercase), else NULL */
static char *game_of(const char *addr)
{
	const char *plus = strchr(addr, '+'), *at = strchr(addr, '@'), *p;
	char *o;

	if (!plus || !at || plus > at || at == plus + 1 || at - plus - 1 > 64)
		return NULL;
	for (p = plus + 1; p < at; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-')
			return NULL;
	o = ord_xmalloc((size_t)(at - plus));
	memcpy(o, plus + 1, (size_t)(at - plus - 1));
	o[at - plus - 1] = '\0';
	for (p = o; *p; p++)
		*(char *)p = (char)tolower((unsigned char)*p);
	return o;
}

/* The +GAME of the first address in a header that has one. */
static char *game_in_header(GMimeMessage *msg, const char *name)
{
	const char *v = g_mime_object_get_header(GMIME_OBJECT(msg), name);
	InternetAddressList *l;
	char *g = NULL;
	int i;

	if (!v)
		return NULL;
	l = internet_address_list_parse(NULL, v);
	for (i = 0; l && !g && i < internet_address_list_length(l); i++) {
		InternetAddress *a = internet_address_list_get_address(l, i);
		if (INTERNET_ADDRESS_IS_MAILBOX(a))
			g = game_of(internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(a)));
	}
	if (l)
		g_object_unref(l);
	return g;
}

static void made_message_id(struct mail_msg *m, const char *raw, size_t len)
{
	unsigned char h[16];
	char hex[33];
	struct ord_buf b = ORD_BUF_INIT;

	crypto_generichash(h, sizeof(h), (const unsigned char *)raw, len, NULL, 0);
	mail_hex(hex, h, sizeof(h));
	ord_buf_addf(&b, "no-message-id.%s@orderly.invalid", hex);
	m->message_id = ord_buf_detach(&b, NULL);
}

static void loop_check(struct mail_msg *m, GMimeMessage *msg)
{
	GMimeObject *o = GMIME_OBJECT(msg);
	const char *as = header(o, "Auto-Submitted"), *prec = header(o, "Precedence");
	const char *rp = g_mime_object_get_header(o, "Return-Path");
	GMimeObject *body = g_mime_message_get_mime_part(msg);
	GMimeContentType *ct = body ? g_mime_object_get_content_type(body) : NULL;
	const char *why = NULL;
	char local[80] = "";

	while (*as == ' ')
		as++;
	while (*prec == ' ')
		prec++;
	if (m->from) {
		const char *at = strchr(m->from, '@');
		snprintf(local, sizeof(local), "%.*s", at ? (int)(at - m->from) : 0, m->from);
	}
	if (*as && strncasecmp(as, "no", 2))
		why = "an automatic message (Auto-Submitted)";
	else if (!strncasecmp(prec, "bulk", 4) || !strncasecmp(prec, "list", 4) ||
		 !strncasecmp(prec, "junk", 4))
		why = "bulk or list mail (Precedence)";
	else if (g_mime_object_get_header(o, "List-Id"))
		why = "list mail (List-Id)";
	else if (g_mime_object_get_header(o, "X-Orderly-Game"))
		why = "orderly's own mail (X-Orderly-Game)";
	else if (!strcasecmp(local, "mailer-daemon") || !strcasecmp(local, "postmaster"))
		why = "a bounce (from the mailer daemon)";
	else if (rp && strstr(rp, "<>"))
		why = "a bounce (empty Return-Path)";
	else if (ct && g_mime_content_type_is_type(ct, "multipart", "report"))
		why = "a delivery report";
	if (why)
		m->loop = ord_strdup(why);
}

void mail_msg_read(struct mail_msg *m, const char *raw, size_t len, const char *recipient)
{
	GMimeStream *stream;
	GMimeParser *parser;
	GMimeMessage *msg;
	InternetAddressList *from;
	const char *mid, *s;
	int html = 0;

	memset(m, 0, sizeof(*m));
	m->subject = ord_strdup("");
	m->references = ord_strdup("");
	m->from_header = ord_strdup("");
	if (recipient)
		m->to_plus = game_of(recipient);
	stream = g_mime_stream_mem_new_with_buffer(raw, len);
	parser = g_mime_parser_new_with_stream(stream);
	msg = g_mime_parser_construct_message(parser, NULL);
	g_object_unref(parser);
	g_object_unref(stream);
	if (!msg) {
		m->broken = 1;
		made_message_id(m, raw, len);
		return;
	}
	mid = g_mime_message_get_message_id(msg);
	if (mid && *mid && strlen(mid) < 250) {
		m->message_id = ord_strdup(mid);
	} else {
		made_message_id(m, raw, len);
	}
	if ((s = g_mime_message_get_subject(msg)) != NULL) {
		free(m->subject);
		m->subject = ord_strdup(s);
	}
	if ((s = g_mime_object_get_header(GMIME_OBJECT(msg), "References")) != NULL) {
		free(m->references);
		m->references = ord_strdup(s);
	}
	/* D10: the topmost Received: is the one our own MTA added, after
	 * every line the sender wrote; its date follows the last ';' */
	if ((s = g_mime_object_get_header(GMIME_OBJECT(msg), "Received")) != NULL && strrchr(s, ';')) {
		GDateTime *d = g_mime_utils_header_decode_date(strrchr(s, ';') + 1);
		if (d) {
			gint64 t = g_date_time_to_unix(d);
			m->received = t > 0 ? (int64_t)t : 0;
			g_date_time_unref(d);
		}
	}
	if ((s = g_mime_object_get_header(GMIME_OBJECT(msg), "From")) != NULL) {
		free(m->from_header);
		m->from_header = ord_strdup(s);
	}
	from = g_mime_message_get_from(msg);
	if (from && internet_address_list_length(from) > 0) {
		InternetAddress *a = internet_address_list_get_address(from, 0);
		if (INTERNET_ADDRESS_IS_MAILBOX(a)) {
			const char *addr = internet_address_mailbox_get_addr(
				INTERNET_ADDRESS_MAILBOX(a));
			if (addr && strchr(addr, '@'))
				m->from = dup_lower(addr);
		}
	}
	if (!m->to_plus)
		m->to_plus = game_in_header(msg, "Delivered-To");
	if (!m->to_plus)
		m->to_plus = game_in_header(msg, "X-Original-To");
	if (!m->to_plus)
		m->to_plus = game_in_header(msg, "To");
	if (!m->to_plus)
		m->to_plus = game_in_header(msg, "Cc");
	loop_check(m, msg);
	if (g_mime_message_get_mime_part(msg)) {
		walk(m, g_mime_message_get_mime_part(msg), &html, 0);
		if (GMIME_IS_MULTIPART_SIGNED(g_mime_message_get_mime_part(msg)))
			m->pgp = -1; /* signed: unverified until mail_msg_verify_pgp */
	}
	m->html_only = html && !m->text && !m->attachment;
	g_object_unref(msg);
}

/* A fresh GnuPG home in which only the armored key is known; fpr (may be
 * NULL) receives its fingerprint. */
static int gpg_home_fpr(char *dir, size_t n, const char *armored, char *fpr, size_t fn)
{
	const char *tmp = getenv("TMPDIR");
	gpgme_ctx_t ctx = NULL;
	gpgme_data_t key = NULL;
	gpgme_import_result_t r;
	int ok = 0;

	snprintf(dir, n, "%s/orderly-gpg.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return 0;
	gpgme_check_version(NULL);
	if (gpgme_new(&ctx) || gpgme_ctx_set_engine_info(ctx, GPGME_PROTOCOL_OpenPGP, NULL, dir) ||
	    gpgme_data_new_from_mem(&key, armored, strlen(armored), 0) || gpgme_op_import(ctx, key))
		goto out;
	r = gpgme_op_import_result(ctx);
	ok = r && r->imported + r->unchanged > 0 && r->imports && r->imports->fpr;
	if (ok && fpr)
		snprintf(fpr, fn, "%s", r->imports->fpr);
out:
	if (key)
		gpgme_data_release(key);
	if (ctx)
		gpgme_release(ctx);
	return ok;
}

static int gpg_home(char *dir, size_t n, const char *armored)
{
	return gpg_home_fpr(dir, n, armored, NULL, 0);
}

static void rm_rf(const char *dir)
{
	struct ord_buf cmd = ORD_BUF_INIT;
	pid_t pid;

	/* a GnuPG home holds a few files and sockets; gpgconf ends its agent */
	ord_buf_addf(&cmd, "%s", dir);
	pid = fork();
	if (pid == 0) {
		execlp("rm", "rm", "-rf", "--", cmd.buf, (char *)NULL);
		_exit(127);
	}
	if (pid > 0) {
		int st;
		while (waitpid(pid, &st, 0) < 0)
			;
	}
	ord_buf_release(&cmd);
}

void mail_msg_verify_pgp(struct mail_msg *m, const char *raw, size_t len, const char *armored)
{
	GMimeStream *stream;
	GMimeParser *parser;
	GMimeMessage *msg = NULL;
	GMimeObject *body;
	GMimeSignatureList *sigs = NULL;
	GError *gerr = NULL;
	char dir[256], *old = NULL;
	int i, good = 0;

	if (!gpg_home(dir, sizeof(dir), armored)) {
		m->pgp = -1;
		m->pgp_why = ord_strdup("the registered OpenPGP key could not be read");
		return;
	}
	if (getenv("GNUPGHOME"))
		old = ord_strdup(getenv("GNUPGHOME"));
	setenv("GNUPGHOME", dir, 1);
	stream = g_mime_stream_mem_new_with_buffer(raw, len);
	parser = g_mime_parser_new_with_stream(stream);
	msg = g_mime_parser_construct_message(parser, NULL);
	g_object_unref(parser);
	g_object_unref(stream);
	body = msg ? g_mime_message_get_mime_part(msg) : NULL;
	if (body && GMIME_IS_MULTIPART_SIGNED(body))
		sigs = g_mime_multipart_signed_verify(GMIME_MULTIPART_SIGNED(body),
						      GMIME_VERIFY_NONE, &gerr);
	for (i = 0; sigs && i < g_mime_signature_list_length(sigs); i++) {
		GMimeSignature *sig = g_mime_signature_list_get_signature(sigs, i);
		GMimeSignatureStatus st = g_mime_signature_get_status(sig);
		GMimeCertificate *cert = g_mime_signature_get_certificate(sig);
		const char *fpr = cert ? g_mime_certificate_get_fingerprint(cert) : NULL;

		/* the keyring holds only the registered key: an untrusted but
		 * good signature by it is the proof (no web of trust here) */
		if (!(st & GMIME_SIGNATURE_STATUS_RED) &&
		    !(st & GMIME_SIGNATURE_STATUS_ERROR_MASK) && fpr && *fpr) {
			good = 1;
			free(m->pgp_fpr);
			m->pgp_fpr = ord_strdup(fpr);
			m->pgp_created = (int64_t)g_mime_signature_get_created(sig);
			break;
		}
	}
	if (good) {
		m->pgp = 1;
	} else {
		m->pgp = -1;
		m->pgp_why = ord_strdup(gerr ? gerr->message
					: sigs ? "the signature does not hold under the registered key"
					       : "no signature could be checked");
	}
	if (gerr)
		g_error_free(gerr);
	if (sigs)
		g_object_unref(sigs);
	if (msg)
		g_object_unref(msg);
	if (old) {
		setenv("GNUPGHOME", old, 1);
		free(old);
	} else {
		unsetenv("GNUPGHOME");
	}
	rm_rf(dir);
}

int mail_pgp_fingerprint(const char *armored, char *fpr, size_t n)
{
	char dir[256];
	int ok = gpg_home_fpr(dir, sizeof(dir), armored, fpr, n);

	if (strncmp(dir, "", 1))
		rm_rf(dir);
	return ok ? 0 : -1;
}

/* ---- every form a message can be read in (D7) ---- */

struct texts {
	mail_text_fn fn;
	void *ud;
	int depth; /* base64 lines decoded within base64 lines */
};

/* An HTML entity at s (after '&'): its text in out, and how many bytes it
 * took; 0 when it is none of those known. */
static size_t entity(const char *s, size_t n, struct ord_buf *out)
{
	static const struct {
		const char *name, *text;
	} known[] = { { "nbsp;", " " }, { "amp;", "&" },   { "lt;", "<" },
		      { "gt;", ">" },   { "quot;", "\"" }, { "apos;", "'" } };
	size_t i, k;

	for (i = 0; i < ORD_ARRAY_SIZE(known); i++) {
		k = strlen(known[i].name);
		if (n >= k && !strncasecmp(s, known[i].name, k)) {
			ord_buf_adds(out, known[i].text);
			return k;
		}
	}
	if (n > 2 && s[0] == '#') {
		int hex = s[1] == 'x' || s[1] == 'X';
		unsigned long c = 0;
		for (k = hex ? 2 : 1; k < n && k < 10 && isxdigit((unsigned char)s[k]); k++) {
			if (!hex && !isdigit((unsigned char)s[k]))
				break;
			c = c * (hex ? 16 : 10) +
			    (unsigned long)(isdigit((unsigned char)s[k])
						    ? s[k] - '0'
						    : tolower((unsigned char)s[k]) - 'a' + 10);
		}
		if (k < n && s[k] == ';' && k > (hex ? 2u : 1u) && c > 0 && c < 0x110000) {
			char u[8];
			int m = g_unichar_to_utf8((gunichar)(c == 0xa0 ? ' ' : c), u);
			ord_buf_add(out, u, (size_t)m);
			return k + 1;
		}
	}
	return 0;
}

/* Does the tag at s ('<' on) end a line where it is shown? */
static int block_tag(const char *s, const char *gt)
{
	static const char *const names[] = { "p",      "div",        "br",      "li",      "ul",
					     "ol",     "tr",         "td",      "th",      "table",
					     "hr",     "pre",        "h1",      "h2",      "h3",
					     "h4",     "h5",         "h6",      "body",    "html",
					     "head",   "title",      "section", "article", "header",
					     "footer", "blockquote", "dd",      "dt",      "dl" };
	const char *p = s + 1, *e;
	size_t i;

	if (p < gt && *p == '/')
		p++;
	for (e = p; e < gt && isalnum((unsigned char)*e); e++)
		;
	for (i = 0; i < ORD_ARRAY_SIZE(names); i++)
		if ((size_t)(e - p) == strlen(names[i]) && !strncasecmp(p, names[i], (size_t)(e - p)))
			return 1;
	return 0;
}

/* HTML as text: a tag made a line end when it ends one where it is shown
 * and dropped when not (tags 0), or each made a line end (1); the entities
 * known decoded. */
static void unhtml(struct ord_buf *out, const char *s, size_t n, int tags)
{
	size_t i, k;
	int no_gt = 0; /* no '>' after here: a '<' is text (each looked to the end) */

	for (i = 0; i < n; i++) {
		if (s[i] == '<' && !no_gt) {
			const char *gt = memchr(s + i, '>', n - i);
			no_gt = !gt;
			if (gt) {
				if (tags || block_tag(s + i, gt))
					ord_buf_addch(out, '\n');
				i = (size_t)(gt - s);
				continue;
			}
		} else if (s[i] == '&' && (k = entity(s + i + 1, n - i - 1, out)) != 0) {
			i += k;
			continue;
		}
		ord_buf_addch(out, s[i]);
	}
}

static void emit(struct texts *t, const char *s, size_t n);

static int base64_line(const char *s, const char *e)
{
	if (s == e)
		return 0;
	for (; s < e; s++)
		if (!isalnum((unsigned char)*s) && *s != '+' && *s != '/' && *s != '=')
			return 0;
	return 1;
}

/* Lines that read as base64 outside a part that says so (a part whose
 * boundary line is missing, a block pasted in): decoded too. */
static void emit_base64_runs(struct texts *t, const char *s, size_t n)
{
	const char *p = s, *end = s + n;

	while (p < end) {
		const char *run = p, *q = p;
		size_t chars = 0;

		while (q < end) {
			const char *nl = memchr(q, '\n', (size_t)(end - q)), *e = nl ? nl : end;
			if (!base64_line(q, e))
				break;
			chars += (size_t)(e - q);
			q = nl ? nl + 1 : end;
		}
		if (chars >= 16) {
			guchar *out = ord_xmalloc(chars / 4 * 3 + 4);
			gint state = 0;
			guint save = 0;
			gsize got = g_base64_decode_step(run, (gsize)(q - run), out, &state, &save);
			t->depth++;
			emit(t, (const char *)out, got);
			t->depth--;
			free(out);
		}
		if (q == run) {
			const char *nl = memchr(q, '\n', (size_t)(end - q));
			q = nl ? nl + 1 : end;
		}
		p = q;
	}
}

/* One form: NULs made spaces, CR LF and CR made LF; and, when it holds
 * what may be markup, read as HTML both ways; base64 lines decoded. */
static void emit(struct texts *t, const char *s, size_t n)
{
	struct ord_buf b = ORD_BUF_INIT, h = ORD_BUF_INIT;
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		if (s[i] == '\r') {
			ord_buf_addch(&b, '\n');
			if (i + 1 < n && s[i + 1] == '\n')
				i++;
		} else {
			ord_buf_addch(&b, s[i] ? s[i] : ' ');
		}
	}
	t->fn(t->ud, b.buf, b.len);
	if (memchr(b.buf, '<', b.len) || memchr(b.buf, '&', b.len))
		for (k = 0; k < 2; k++) {
			ord_buf_reset(&h);
			unhtml(&h, b.buf, b.len, k);
			t->fn(t->ud, h.buf, h.len);
		}
	if (t->depth < 2)
		emit_base64_runs(t, b.buf, b.len);
	ord_buf_release(&b);
	ord_buf_release(&h);
}

/* A part's bytes as it is read: as they are, in UTF-8, flowed joined. */
static void emit_part(struct texts *t, GMimeObject *obj, const char *s, size_t n)
{
	const char *charset = g_mime_object_get_content_type_parameter(obj, "charset");
	const char *format = g_mime_object_get_content_type_parameter(obj, "format");
	const char *delsp = g_mime_object_get_content_type_parameter(obj, "delsp");
	struct ord_buf u = ORD_BUF_INIT, c = ORD_BUF_INIT;
	char *joined;
	size_t i;

	emit(t, s, n);
	if (charset && !as_written(charset)) {
		to_utf8(&u, charset, s, n);
		emit(t, u.buf, u.len);
	} else {
		ord_buf_add(&u, s, n);
	}
	if (format && !strcasecmp(format, "flowed")) {
		/* unflow reads up to a NUL: NULs made spaces first */
		char *lf;
		struct mail_nul nul = { 0, 0, 0 };
		for (i = 0; i < u.len; i++)
			ord_buf_addch(&c, u.buf[i] ? u.buf[i] : ' ');
		lf = clean_text(c.buf ? c.buf : "", c.len, &nul);
		joined = unflow(lf, delsp && !strcasecmp(delsp, "yes"));
		emit(t, joined, strlen(joined));
		free(joined);
		free(lf);
	}
	ord_buf_release(&u);
	ord_buf_release(&c);
}

static void texts_walk(struct texts *t, GMimeObject *obj, int depth)
{
	if (!obj || depth > 20)
		return;
	if (GMIME_IS_MULTIPART(obj)) {
		GMimeMultipart *mp = GMIME_MULTIPART(obj);
		int i, n = g_mime_multipart_get_count(mp);
		for (i = 0; i < n; i++)
			texts_walk(t, g_mime_multipart_get_part(mp, i), depth + 1);
	} else if (GMIME_IS_MESSAGE_PART(obj)) {
		GMimeMessage *inner = g_mime_message_part_get_message(GMIME_MESSAGE_PART(obj));
		const char *subject = inner ? g_mime_message_get_subject(inner) : NULL;
		if (subject)
			emit(t, subject, strlen(subject));
		if (inner)
			texts_walk(t, g_mime_message_get_mime_part(inner), depth + 1);
	} else if (GMIME_IS_PART(obj)) {
		GMimeDataWrapper *content = g_mime_part_get_content(GMIME_PART(obj));
		GMimeStream *mem;
		GByteArray *arr;

		if (!content)
			return;
		mem = g_mime_stream_mem_new();
		g_mime_data_wrapper_write_to_stream(content, mem);
		arr = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
		emit_part(t, obj, (const char *)arr->data, arr->len);
		g_object_unref(mem);
	}
}

char *mail_header_decode(const char *text)
{
	char *g = text ? g_mime_utils_header_decode_text(NULL, text) : NULL;
	char *v = ord_strdup(g ? g : (text ? text : ""));

	g_free(g);
	return v;
}

void mail_msg_texts(const char *raw, size_t len, mail_text_fn fn, void *ud)
{
	struct texts t = { fn, ud, 0 };
	GMimeStream *stream;
	GMimeParser *parser;
	GMimeMessage *msg;
	const char *subject;

	emit(&t, raw, len);
	stream = g_mime_stream_mem_new_with_buffer(raw, len);
	parser = g_mime_parser_new_with_stream(stream);
	msg = g_mime_parser_construct_message(parser, NULL);
	g_object_unref(parser);
	g_object_unref(stream);
	if (!msg)
		return;
	if ((subject = g_mime_message_get_subject(msg)) != NULL)
		emit(&t, subject, strlen(subject));
	/* every field decoded: an encoded word may be anywhere (a Thread-Topic
	 * copies the Subject) */
	{
		GMimeHeaderList *hl = g_mime_object_get_header_list(GMIME_OBJECT(msg));
		int i, nh = hl ? g_mime_header_list_get_count(hl) : 0;
		for (i = 0; i < nh; i++) {
			char *v = mail_header_decode(
				g_mime_header_get_raw_value(g_mime_header_list_get_header_at(hl, i)));
			emit(&t, v, strlen(v));
			free(v);
		}
	}
	texts_walk(&t, g_mime_message_get_mime_part(msg), 0);
	g_object_unref(msg);
}
