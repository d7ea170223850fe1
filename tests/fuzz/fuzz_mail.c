/*
 * fuzz_mail.c - the mail judge's reading of a message from anyone on the
 * internet (src/mail/decode.c through GMime, then body.c), as `orderly
 * mail-in` does before it opens a game: the headers it needs, the loop
 * signs, the text the sender wrote in any charset, transfer encoding and
 * part, a .txt attachment; then that text read as commands, proof lines and
 * an order sheet whose lines keep the numbers the player saw.  No game file
 * and no OpenPGP key are involved (a signature is only noted, as unchecked).
 *
 * Checks, besides ASan/UBSan: every message gets a Message-ID (D4), and the
 * strings mail.h promises are there; a sender is a lowercase address; the
 * envelope's orderly+GAME gives GAME; the text and the attachment have LF
 * line ends and no NUL; the sheet holds exactly nlines lines, numbered
 * from 1 upwards as the player counts them; every command has its
 * arguments; a LINK's arguments are a link and a phase of 0 to 64 or a
 * refusal that says why; the signing variants are the sheet, without its
 * last newline, and with CRLF.
 */
#include <string.h>

#include "fuzz.h"
#include "mail/mail.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static int done;

	(void)argc;
	(void)argv;
	if (!done++)
		mail_init();
	return 0;
}

static void check_text(const char *what, const char *t)
{
	if (t)
		fuzz_assert(!strchr(t, '\r'), "the %s keeps a CR", what);
}

static void check_body(const struct mail_body *b)
{
	struct ord_buf v[3];
	size_t i, nl = 0;

	for (i = 0; i < b->sheet.len; i++) {
		fuzz_assert(b->sheet.buf[i] != '\0', "a NUL in the sheet");
		nl += b->sheet.buf[i] == '\n';
	}
	fuzz_assert(nl == b->nlines, "the sheet has %zu lines, numbered %zu", nl, b->nlines);
	fuzz_assert(!b->sheet.len || b->sheet.buf[b->sheet.len - 1] == '\n',
		    "the sheet's last line has no newline");
	for (i = 0; i < b->nlines; i++)
		fuzz_assert(b->lines[i] >= 1 && (i == 0 || b->lines[i] > b->lines[i - 1]),
			    "line %zu of the sheet is numbered %u", i + 1, b->lines[i]);
	fuzz_assert(!b->explicit_cmd || b->ncmds >= 1, "a command, but none listed");
	for (i = 0; i < b->ncmds; i++) {
		fuzz_assert(b->cmds[i].args != NULL, "command %zu without arguments", i + 1);
		if (b->cmds[i].cmd == CMD_LINK) {
			struct ord_buf why = ORD_BUF_INIT;
			unsigned char link[32];
			int phase = -1, rc = mail_link_parse(b->cmds[i].args, &phase, link, &why);

			fuzz_assert(rc == 0 || rc == -1, "mail_link_parse gave %d", rc);
			fuzz_assert(rc == 0 ? !why.len && phase >= 0 && phase <= 64 : why.len > 0,
				    "LINK '%s': %d, phase %d, why '%s'", b->cmds[i].args, rc, phase,
				    why.len ? why.buf : "");
			ord_buf_release(&why);
		}
	}
	fuzz_assert(b->where && *b->where, "no word on how lines count");
	fuzz_assert(mail_body_variants(b, v) == 3, "not three variants");
	fuzz_assert(v[0].len == b->sheet.len && !memcmp(v[0].buf, b->sheet.buf, b->sheet.len),
		    "the first variant is not the sheet");
	fuzz_assert(v[1].len + (b->sheet.len > 0) == b->sheet.len, "the second variant's length");
	fuzz_assert(v[2].len == b->sheet.len + nl, "the CRLF variant's length");
	for (i = 0; i < 3; i++)
		ord_buf_release(&v[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mail_msg m;
	struct mail_body b;

	LLVMFuzzerInitialize(NULL, NULL);
	if (size > 1u << 20)
		return 0;
	mail_msg_read(&m, (const char *)data, size, "orderly+fuzz@judge.test");
	fuzz_assert(m.message_id && *m.message_id, "no Message-ID");
	fuzz_assert(m.subject && m.references && m.from_header, "a promised string is missing");
	fuzz_assert(m.to_plus && !strcmp(m.to_plus, "fuzz"), "the envelope's game is '%s'",
		    m.to_plus ? m.to_plus : "(none)");
	if (m.from) {
		const char *p;

		fuzz_assert(strchr(m.from, '@'), "sender '%s' is no address", m.from);
		for (p = m.from; *p; p++)
			fuzz_assert(!(*p >= 'A' && *p <= 'Z'), "sender '%s' is not lowercase", m.from);
	}
	fuzz_assert(!m.html_only || (!m.text && !m.attachment), "html_only beside a text");
	check_text("text", m.text);
	check_text("attachment", m.attachment);
	/* as mail-in reads it: the text, else the attachment */
	mail_body_init(&b);
	mail_body_parse(&b, m.subject, m.text ? m.text : m.attachment);
	check_body(&b);
	mail_body_release(&b);
	if (m.attachment) {
		mail_body_init(&b);
		mail_body_parse(&b, NULL, m.attachment);
		check_body(&b);
		mail_body_release(&b);
	}
	mail_msg_release(&m);
	return 0;
}
