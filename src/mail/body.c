/*
 * body.c - what a player wrote, read as commands, proof lines and an order
 * sheet (docs/pbem.md, "The mail format").
 *
 * Decisions:
 *  B1. Quoted lines ('>'), the signature (from a "-- " line on), an
 *      attribution line ("... wrote:") before quoted lines, and everything
 *      after an "-----Original Message-----" line, or after a line of
 *      underscores followed by a "From:" line (Outlook's other reply
 *      header), are not the sheet.
 *  B2. An ORDERS (or CHECK) line starts a block that an END line closes;
 *      a block takes precedence over the rest of the text.  Without one,
 *      every line that is not a command or a proof line is the sheet, so a
 *      greeting is reported as an order that does not parse, with its line;
 *      beside a command that is not ORDERS or CHECK, the judge refuses
 *      the mail when that text holds order lines (judge.c's J10).
 *      The block's lines are written as a person writes them too, in any
 *      case: the start word with a colon ("Orders:", "CHECK:") and END
 *      with a full stop ("End."), each alone on its line as ORDERS and
 *      END are.  Alone, so that no order line is taken for one: an order
 *      line starts with a unit, its id or its name before a ':', and
 *      gives it its order after it ("Orders: B1 hold" is the order line
 *      of a unit "Orders", text as "ORDERS B1 hold" is; "END. B2" inside
 *      a block is an order line), and a unit alone on its line, with a
 *      colon or a stop, gives no order.  "END:" and "End!" end nothing.
 *  B3. Line numbers are the player's: within the block, counting from the
 *      line after ORDERS as 1 (lines left out still count); without a
 *      block, the lines of the text of his mail.
 *  B4. Proof and routing lines (Game:, Side:, Passphrase:, nonce:,
 *      commitment:, signature:) are taken anywhere outside quotes, and are
 *      never part of the sheet.  Blanks around the key, before its colon
 *      and around the value are not part of them: a space, a tab, and the
 *      Unicode blanks a mail program, a phone or a word processor puts for
 *      one (blank_at: the core's ord_utf8_blank_at, which the web page
 *      trims and `orderly register` refuses at a passphrase's ends:
 *      U+00A0 no-break, U+2000 to U+200B, U+202F narrow no-break, U+3000,
 *      U+FEFF and the rest orderly.h lists), so that a right passphrase
 *      after a no-break space (a Latin-1 mail's =A0) is not checked as a
 *      wrong one.  Inside a value they are left as written.
 *      A key may be marked as the text part of an HTML mail marks a bold
 *      or italic word, one or two '*' or '_' closed before the colon or
 *      after it (*Passphrase:*, **Passphrase**:, _Passphrase:_); marks
 *      that do not close around the key make no key line.  The judge keeps
 *      none of the value of a line that only looks like a passphrase line
 *      (mail_passphrase_line, loose: marks that do not close, 'Pass
 *      phrase', '=' for the colon), though it proves nothing.
 *  B5. The subject may carry the command ("CHECK", "Re: STATUS"); a
 *      command line in the body wins over it (and an ORDERS or CHECK
 *      block in an attached file beside the body, judge.c's J7).
 *  B6. LINK [[phase] P] HEX is a side's witness link for the phase the
 *      referee closed (witnessed dice): 64 hexadecimal digits, as
 *      `orderly witness --link-for` prints them, and the phase if he names
 *      it.  A LINK line is a command whatever follows the word, so that a
 *      mistyped link is answered as a link ("not 64 hexadecimal digits"),
 *      never read as an order; the judge reads its arguments
 *      (mail_link_parse) and checks the link against the chain.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "mail/mail.h"

static const struct {
	const char *word;
	enum mail_cmd cmd;
	int block; /* starts an ORDERS ... END block */
} commands[] = {
	{ "ORDERS", CMD_ORDERS, 1 },     { "CHECK", CMD_CHECK, 1 },
	{ "STATUS", CMD_STATUS, 0 },     { "REPORT", CMD_REPORT, 0 },
	{ "HELP", CMD_HELP, 0 },         { "SEAL", CMD_SEAL, 0 },
	{ "EVENT", CMD_EVENT, 0 },       { "RESOLVE", CMD_RESOLVE, 0 },
	{ "EXCHANGE", CMD_EXCHANGE, 0 }, { "DEADLINE", CMD_DEADLINE, 0 },
	{ "SCHEDULE", CMD_SCHEDULE, 0 }, { "LINK", CMD_LINK, 0 },
	{ "CLOSE", CMD_CLOSE, 0 },
};

void mail_hex(char *out, const unsigned char *p, size_t len)
{
	sodium_bin2hex(out, 2 * len + 1, p, len);
}

int mail_unhex(unsigned char *out, size_t max, const char *hex)
{
	size_t n = 0;
	const char *end = NULL;

	if (sodium_hex2bin(out, max, hex, strlen(hex), NULL, &n, &end) != 0 || (end && *end))
		return -1;
	return (int)n;
}

int mail_link_parse(const char *args, int *phase, unsigned char link[32], struct ord_buf *why)
{
	char *copy = ord_strdup(args ? args : ""), *tok[5], *save = NULL, *t;
	size_t n = 0, i = 0, len;
	int err = -1;

	*phase = 0;
	for (t = strtok_r(copy, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		if (n == ORD_ARRAY_SIZE(tok)) {
			ord_buf_addf(why, "unexpected '%.40s' after the link", t);
			goto out;
		}
		tok[n++] = t;
	}
	/* [phase] P: the phase he names, checked against the one awaited */
	if (i < n && !strcasecmp(tok[i], "phase"))
		i++;
	if (i + 1 < n && strcasecmp(tok[i], "link:") && strlen(tok[i]) < 64) {
		long p = 0;
		if (ord_parse_long(tok[i], &p) || p < 1 || p > 64) {
			ord_buf_addf(why, "'%.40s' is not a phase number (1 to 64)", tok[i]);
			goto out;
		}
		*phase = (int)p;
		i++;
	}
	/* "link: HEX" as `orderly witness --link-for` prints it, pasted whole */
	if (i + 1 < n && !strcasecmp(tok[i], "link:"))
		i++;
	if (i == n) {
		ord_buf_adds(why,
			     "LINK needs your link: the 64 hexadecimal digits 'orderly witness --link-for' printed after 'link:'");
		goto out;
	}
	len = strlen(tok[i]);
	if (len != 64 || mail_unhex(link, 32, tok[i]) != 32) {
		ord_buf_addf(why,
			     "'%.70s%s' is not a link: a link is 64 hexadecimal digits (0-9, a-f), this is %zu character%s%s",
			     tok[i], len > 70 ? "..." : "", len, len == 1 ? "" : "s",
			     strspn(tok[i], "0123456789abcdefABCDEF") == len
				     ? ""
				     : ", not all of them hexadecimal digits");
		goto out;
	}
	if (i + 1 < n) {
		ord_buf_addf(why, "unexpected '%.40s' after the link", tok[i + 1]);
		goto out;
	}
	err = 0;
out:
	free(copy);
	return err;
}

const char *mail_cmd_name(enum mail_cmd c)
{
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(commands); i++)
		if (commands[i].cmd == c)
			return commands[i].word;
	return "?";
}

void mail_body_init(struct mail_body *b)
{
	memset(b, 0, sizeof(*b));
	ord_buf_init(&b->sheet);
	b->cmd = CMD_ORDERS;
	b->subject_cmd = -1;
}

void mail_body_release(struct mail_body *b)
{
	size_t i;

	free(b->args);
	for (i = 0; i < b->ncmds; i++)
		free(b->cmds[i].args);
	free(b->cmds);
	free(b->game);
	free(b->side);
	if (b->passphrase) {
		sodium_memzero(b->passphrase, strlen(b->passphrase));
		free(b->passphrase);
	}
	ord_buf_release(&b->sheet);
	free(b->lines);
	free(b->where);
	memset(b, 0, sizeof(*b));
}

/* [start, end) of a line without blanks at either end */
static void trim(const char **s, const char **e)
{
	while (*s < *e && (**s == ' ' || **s == '\t'))
		(*s)++;
	while (*e > *s && ((*e)[-1] == ' ' || (*e)[-1] == '\t'))
		(*e)--;
}

/* Bytes of the blank at s (s < e), 0 when s is at none: the core's
 * (ord_utf8_blank_at), the set the web page trims off a passphrase and
 * `orderly register` refuses at its ends, so that a passphrase the game
 * took is read from a mail as it was registered. */
static size_t blank_at(const char *s, const char *e)
{
	return ord_utf8_blank_at(s, (size_t)(e - s), 0);
}

/* Bytes of the blank that ends at e (s < e), as blank_at; 0 when none. */
static size_t blank_before(const char *s, const char *e)
{
	return ord_utf8_blank_at(s, (size_t)(e - s), 1);
}

/* [start, end) of a value without B4's blanks at either end */
static void trim_blanks(const char **s, const char **e)
{
	size_t k;

	while (*s < *e && (k = blank_at(*s, *e)) > 0)
		*s += k;
	while (*e > *s && (k = blank_before(*s, *e)) > 0)
		*e -= k;
}

static char *dup_range(const char *s, const char *e)
{
	char *o = ord_xmalloc((size_t)(e - s) + 1);
	memcpy(o, s, (size_t)(e - s));
	o[e - s] = '\0';
	return o;
}

/* A command word at s (case-insensitive, then a blank or the end; a
 * block's word also with a colon that ends the line, B2): its index in
 * commands[], or -1; *rest after the blanks that follow. */
static int command_at(const char *s, const char *e, const char **rest)
{
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(commands); i++) {
		size_t n = strlen(commands[i].word);
		if ((size_t)(e - s) < n || strncasecmp(s, commands[i].word, n))
			continue;
		if (commands[i].block && s + n + 1 == e && s[n] == ':') {
			*rest = e; /* "Orders:" alone */
			return (int)i;
		}
		if (s + n == e || s[n] == ' ' || s[n] == '\t') {
			*rest = s + n;
			while (*rest < e && (**rest == ' ' || **rest == '\t'))
				(*rest)++;
			/* a word that takes nothing is a command alone on its line:
			 * "Close call last turn!" beside a block is a greeting */
			if ((commands[i].cmd == CMD_CLOSE || commands[i].cmd == CMD_EXCHANGE) &&
			    *rest < e)
				return -1;
			return (int)i;
		}
	}
	return -1;
}

/* How many of mark ('*' or '_') run from s. */
static size_t marks_at(const char *s, const char *e, char mark)
{
	size_t n = 0;

	while (s + n < e && s[n] == mark)
		n++;
	return n;
}

/* "Key: value" (B4): 1 with the key in [*ks, *ke) and *v just after its
 * colon and the marks that close the key; blanks before the key and the
 * colon are no part of it.  The key is a word of letters and '-', in
 * one or two '*' or '_' or none. */
static int key_at(const char *s, const char *e, const char **ks, const char **ke, const char **v)
{
	size_t k, nm = 0;
	char mark = 0;

	while (s < e && (k = blank_at(s, e)) > 0)
		s += k;
	if (s < e && (*s == '*' || *s == '_')) {
		mark = *s;
		if ((nm = marks_at(s, e, mark)) > 2)
			return 0;
		s += nm;
	}
	*ks = s;
	while (s < e && (isalpha((unsigned char)*s) || *s == '-'))
		s++;
	*ke = s;
	while (s < e && (k = blank_at(s, e)) > 0)
		s += k;
	if (*ke == *ks)
		return 0;
	/* the marks closed before the colon: *Passphrase*: */
	if (nm && s < e && *s == mark) {
		if (marks_at(s, e, mark) != nm)
			return 0;
		for (s += nm; s < e && (k = blank_at(s, e)) > 0;)
			s += k;
		nm = 0;
	}
	if (s == e || *s != ':')
		return 0;
	s++;
	/* or after it: *Passphrase:* */
	if (nm) {
		if (marks_at(s, e, mark) != nm)
			return 0;
		s += nm;
	}
	*v = s;
	return 1;
}

/* s past blanks and marks ('*', '_') */
static const char *past_marks(const char *s, const char *e)
{
	size_t k;

	while (s < e) {
		if (*s == '*' || *s == '_')
			s++;
		else if ((k = blank_at(s, e)) > 0)
			s += k;
		else
			break;
	}
	return s;
}

/* [*s, *e) without blanks and marks ('*', '_') at either end, nor white
 * space at its end (the CR of the bytes as sent, CR LF) */
static void trim_loose(const char **s, const char **e)
{
	size_t k;

	*s = past_marks(*s, *e);
	while (*e > *s) {
		if ((k = blank_before(*s, *e)) > 0)
			*e -= k;
		else if ((*e)[-1] == '*' || (*e)[-1] == '_' || isspace((unsigned char)(*e)[-1]))
			(*e)--;
		else
			break;
	}
}

/* mail_passphrase_line's loose reading: any of blanks, marks, quote marks
 * '>' and a byte-order mark (a text's first line in the bytes as sent,
 * decode.c's D10) before the key; the key "passphrase" in any case, with
 * blanks or '-' between its letters ("Pass phrase"); blanks and marks
 * before its colon, or '='; the value without blanks and marks around it. */
static int passphrase_looks(const char *s, const char *e, const char **key_end, const char **vs,
			    const char **ve)
{
	char key[10];
	size_t n = 0, k;

	for (;;) {
		s = past_marks(s, e);
		if (s < e && *s == '>')
			s++;
		else if ((k = ord_utf8_bom_at(s, (size_t)(e - s))) > 0)
			s += k;
		else
			break;
	}
	while (s < e) {
		if (isalpha((unsigned char)*s)) {
			if (n == sizeof(key))
				return 0;
			key[n++] = (char)tolower((unsigned char)*s++);
		} else if (n && *s == '-') {
			s++;
		} else if (n && (k = blank_at(s, e)) > 0) {
			s += k;
		} else {
			break;
		}
	}
	if (n != sizeof(key) || memcmp(key, "passphrase", n))
		return 0;
	s = past_marks(s, e);
	if (s == e || (*s != ':' && *s != '='))
		return 0;
	for (s++; s < e && (*s == '*' || *s == '_');)
		s++;
	*key_end = *vs = s;
	*ve = e;
	trim_loose(vs, ve);
	return 1;
}

int mail_passphrase_line(const char *s, const char *e, int loose, const char **key_end,
			 const char **vs, const char **ve)
{
	const char *ks, *ke;

	if (loose)
		return passphrase_looks(s, e, key_end, vs, ve);
	if (!key_at(s, e, &ks, &ke, vs) || ke - ks != 10 || strncasecmp(ks, "passphrase", 10))
		return 0;
	*key_end = *vs;
	*ve = e;
	trim_blanks(vs, ve);
	return 1;
}

/* "Key: value" for one of the proof and routing keys: 1 and its value. */
static int keyword(struct mail_body *b, const char *s, const char *e)
{
	static const char *const keys[] = { "game",    "side",           "passphrase",
					    "nonce",   "commitment",     "signature",
					    "witness", "draft-signature" };
	/* what is said of a line of `orderly sign` that cannot be read */
	static const char *const unread[ORD_ARRAY_SIZE(keys)] = {
		[3] = "its line 'nonce:' is not the 64 hexadecimal digits 'orderly sign' prints",
		[5] = "its line 'signature:' is not the 128 hexadecimal digits 'orderly sign' prints",
		[6] = "its line 'witness:' is not the 64 hexadecimal digits 'orderly sign --witness' "
		      "prints",
		[7] = "its line 'draft-signature:' is not the 128 hexadecimal digits 'orderly sign "
		      "--draft' prints",
	};
	int read = 1;
	const char *ks, *ke, *v;
	size_t i, klen;
	char *val;

	if (!key_at(s, e, &ks, &ke, &v))
		return 0;
	klen = (size_t)(ke - ks);
	for (i = 0; i < ORD_ARRAY_SIZE(keys); i++)
		if (klen == strlen(keys[i]) && !strncasecmp(ks, keys[i], klen))
			break;
	if (i == ORD_ARRAY_SIZE(keys))
		return 0;
	trim_blanks(&v, &e);
	val = dup_range(v, e);
	switch (i) {
	case 0:
		free(b->game);
		b->game = val;
		return 1;
	case 1:
		free(b->side);
		b->side = val;
		return 1;
	case 2:
		if (b->passphrase) {
			sodium_memzero(b->passphrase, strlen(b->passphrase));
			free(b->passphrase);
		}
		b->passphrase = val;
		return 1;
	case 3:
		b->nonce_line = 1;
		read = b->have_nonce = mail_unhex(b->nonce, 32, val) == 32;
		break;
	case 4: break; /* printed by `orderly sign`; recomputed, so not needed */
	case 5:
		b->signature_line = 1;
		read = b->have_signature = mail_unhex(b->signature, 64, val) == 64;
		break;
	case 6:
		b->witness_line = 1;
		read = b->have_witness = mail_unhex(b->witness, 32, val) == 32;
		break;
	default:
		b->draft_signature_line = 1;
		read = b->have_draft_signature = mail_unhex(b->draft_signature, 64, val) == 64;
		break;
	}
	if (!read && !b->unreadable)
		b->unreadable = unread[i];
	free(val);
	return 1;
}

static int quoted(const char *s, const char *e)
{
	while (s < e && *s == ' ')
		s++;
	return s < e && *s == '>';
}

static int ends_with(const char *s, const char *e, const char *suf)
{
	size_t n = strlen(suf);

	return (size_t)(e - s) >= n && !strncasecmp(e - n, suf, n);
}

/* Outlook's line above the mail replied to: what follows is not the sheet
 * (B1) */
#define ORIGINAL "-----Original Message-----"

struct line {
	const char *s, *e; /* as written, without the newline */
	unsigned no;       /* 1-based in the text */
};

/* A line of at least 20 underscores, the next line that is not blank
 * starting "From:": the header Outlook writes above the mail replied to
 * when it does not quote it (B1). */
static int reply_rule(const struct line *lines, size_t n, size_t i)
{
	const char *ts = lines[i].s, *te = lines[i].e;
	size_t k;

	trim(&ts, &te);
	if ((size_t)(te - ts) < 20 || strspn(ts, "_") < (size_t)(te - ts))
		return 0;
	for (k = i + 1; k < n && lines[k].s == lines[k].e; k++)
		;
	return k < n && (size_t)(lines[k].e - lines[k].s) >= 5 && !strncasecmp(lines[k].s, "From:", 5);
}

static void add_sheet_line(struct mail_body *b, const struct line *l, unsigned no)
{
	ord_buf_add(&b->sheet, l->s, (size_t)(l->e - l->s));
	ord_buf_addch(&b->sheet, '\n');
	b->lines = ord_xrealloc(b->lines, (b->nlines + 1) * sizeof(*b->lines));
	b->lines[b->nlines++] = no;
}

/* A command line; the first in the body is the player's command (B5). */
static void set_cmd(struct mail_body *b, int idx, const char *rest, const char *e, unsigned line)
{
	/* line 0: the Subject */
	if (line) {
		b->cmds = ord_xrealloc(b->cmds, (b->ncmds + 1) * sizeof(*b->cmds));
		b->cmds[b->ncmds].cmd = commands[idx].cmd;
		b->cmds[b->ncmds].args = dup_range(rest, e);
		b->cmds[b->ncmds].line = line;
		b->ncmds++;
		if (b->ncmds > 1)
			return;
	}
	b->cmd = commands[idx].cmd;
	b->explicit_cmd = 1;
	free(b->args);
	b->args = dup_range(rest, e);
}

void mail_body_parse(struct mail_body *b, const char *subject, const char *text)
{
	struct line *lines = NULL;
	size_t n = 0, i, block_start = 0;
	const char *p = text ? text : "", *s, *e;
	int in_block = 0, had_block = 0, rest_kept = 0;
	struct ord_buf loose = ORD_BUF_INIT;
	unsigned *loose_no = NULL;
	size_t nloose = 0;

	/* the subject: "Re: Fwd: CHECK" */
	if (subject) {
		int idx;
		const char *rest;
		s = subject;
		for (;;) {
			while (*s == ' ')
				s++;
			if (!strncasecmp(s, "re:", 3) || !strncasecmp(s, "aw:", 3) ||
			    !strncasecmp(s, "sv:", 3))
				s += 3;
			else if (!strncasecmp(s, "fwd:", 4))
				s += 4;
			else
				break;
		}
		e = s + strlen(s);
		trim(&s, &e);
		if ((idx = command_at(s, e, &rest)) >= 0 && commands[idx].cmd != CMD_EVENT) {
			set_cmd(b, idx, rest, e, 0);
			b->subject_cmd = (int)commands[idx].cmd;
		}
	}
	/* split, B1 */
	for (s = p; *s;) {
		const char *nl = strchr(s, '\n');
		e = nl ? nl : s + strlen(s);
		lines = ord_xrealloc(lines, (n + 1) * sizeof(*lines));
		lines[n].s = s;
		lines[n].e = e;
		lines[n].no = (unsigned)n + 1;
		n++;
		s = nl ? nl + 1 : e;
	}
	for (i = 0; i < n; i++) {
		struct line l = lines[i];
		const char *ts = l.s, *te = l.e, *rest;
		int idx;

		if ((size_t)(l.e - l.s) == 3 && !strncmp(l.s, "-- ", 3))
			break; /* a signature follows */
		if (((size_t)(l.e - l.s) >= strlen(ORIGINAL) &&
		     !strncmp(l.s, ORIGINAL, strlen(ORIGINAL))) ||
		    (!in_block && reply_rule(lines, n, i)) ||
		    (!in_block && (size_t)(l.e - l.s) == 2 && !strncmp(l.s, "--", 2)))
			break;
		if (quoted(l.s, l.e))
			continue;
		trim(&ts, &te);
		if (ends_with(ts, te, "wrote:") || ends_with(ts, te, "skrev:") ||
		    ends_with(ts, te, "schrieb:")) {
			size_t k = i + 1;
			while (k < n && lines[k].s == lines[k].e)
				k++;
			if (k == n || quoted(lines[k].s, lines[k].e))
				continue;
		}
		if (keyword(b, ts, te))
			continue;
		if (in_block) {
			if (((size_t)(te - ts) == 3 || ((size_t)(te - ts) == 4 && ts[3] == '.')) &&
			    !strncasecmp(ts, "END", 3)) {
				in_block = 0;
				continue;
			}
			add_sheet_line(b, &l, l.no - (unsigned)block_start);
			continue;
		}
		if ((idx = command_at(ts, te, &rest)) >= 0 &&
		    (!commands[idx].block || rest == te) && !had_block) {
			set_cmd(b, idx, rest, te, l.no);
			if (commands[idx].block) {
				in_block = had_block = 1;
				block_start = l.no;
			}
			continue;
		}
		if (idx >= 0 && !commands[idx].block) {
			set_cmd(b, idx, rest, te, l.no);
			continue;
		}
		if (idx >= 0 && rest == te && had_block)
			b->extra_block = 1; /* a second ORDERS or CHECK: the judge refuses (J7) */
		/* B2: loose text, the sheet when there is no block */
		if (ts == te && !nloose)
			continue;
		ord_buf_add(&loose, l.s, (size_t)(l.e - l.s));
		ord_buf_addch(&loose, '\n');
		loose_no = ord_xrealloc(loose_no, (nloose + 1) * sizeof(*loose_no));
		loose_no[nloose++] = l.no;
		rest_kept = 1;
	}
	b->unterminated = in_block;
	b->block = had_block;
	b->block_line = (unsigned)block_start;
	b->cmd_from_subject = !b->ncmds;
	/* a command in the subject alone is the (referee's) list too */
	if (!b->ncmds && b->explicit_cmd) {
		b->cmds = ord_xmalloc(sizeof(*b->cmds));
		b->cmds[0].cmd = b->cmd;
		b->cmds[0].args = ord_strdup(b->args ? b->args : "");
		b->cmds[0].line = 0;
		b->ncmds = 1;
	}
	if (had_block) {
		b->where = ord_strdup("your ORDERS block (line 1 is the line after ORDERS)");
	} else {
		/* no blank lines at the end */
		while (nloose && loose.len >= 2 && loose.buf[loose.len - 2] == '\n') {
			loose.len--;
			loose.buf[loose.len] = '\0';
			nloose--;
		}
		if (rest_kept) {
			ord_buf_add(&b->sheet, loose.buf, loose.len);
			b->lines = loose_no;
			b->nlines = nloose;
			loose_no = NULL;
		}
		b->where = ord_strdup("the text of your mail");
	}
	free(loose_no);
	ord_buf_release(&loose);
	free(lines);
}

size_t mail_body_variants(const struct mail_body *b, struct ord_buf out[3])
{
	size_t i;

	for (i = 0; i < 3; i++)
		ord_buf_init(&out[i]);
	ord_buf_add(&out[0], b->sheet.buf, b->sheet.len);
	if (b->sheet.len)
		ord_buf_add(&out[1], b->sheet.buf, b->sheet.len - 1);
	for (i = 0; i < b->sheet.len; i++) {
		if (b->sheet.buf[i] == '\n')
			ord_buf_addch(&out[2], '\r');
		ord_buf_addch(&out[2], b->sheet.buf[i]);
	}
	return 3;
}
