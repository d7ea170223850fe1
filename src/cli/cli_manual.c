/*
 * cli_manual.c - `orderly COMMAND --help`: the command's entries of the
 * COMMANDS section of the man page (docs/orderly.1, compiled in by CMake as
 * ord_cli_manual), as plain text, so that --help describes every option in
 * the same words as the manual, kept in one place.
 *
 * The roff read is the man page's own small subset: .TP .B .I .BR .BI .IB
 * .IR .RB .RI .RS .RE .br .PP .IP (without a tag) .nf .fi, the escapes \- \e \&
 * \| \^ \~ and "\ " (an unpaddable space, which does not split a macro's
 * arguments), the special characters of special[] as \(xx or \[xx], a Unicode
 * character as \[uXXXX], and font changes \fB \fI \fR \fP.  An escape not
 * known here is shown as written, never dropped: before, \(ae, \('E and
 * \[u041D] vanished from the text ("skyttekde", "KARR", "[u041D]ussars").
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

extern const unsigned char ord_cli_manual[];
extern const size_t ord_cli_manual_len;

/* The special characters the man page writes (groff_char(7)), as UTF-8;
 * the quotes as the plain ASCII a terminal shows. */
static const struct {
	const char *name, *text;
} special[] = {
	{ "lq", "\"" },     { "rq", "\"" },     { "dq", "\"" },     { "oq", "'" },
	{ "cq", "'" },      { "aq", "'" },      { "ga", "`" },      { "ha", "^" },
	{ "ti", "~" },      { "rs", "\\" },     { "em", "\u2014" }, { "en", "\u2013" },
	{ "hy", "-" },      { "mi", "\u2212" }, { "mu", "\u00d7" }, { "de", "\u00b0" },
	{ "->", "\u2192" }, { "<-", "\u2190" }, { "ua", "\u2191" }, { "da", "\u2193" },
	{ "12", "\u00bd" }, { "14", "\u00bc" }, { "34", "\u00be" }, { "bu", "\u2022" },
	{ "ae", "\u00e6" }, { "AE", "\u00c6" }, { "/o", "\u00f8" }, { "/O", "\u00d8" },
	{ "oa", "\u00e5" }, { "oA", "\u00c5" }, { "'e", "\u00e9" }, { "'E", "\u00c9" },
	{ "`e", "\u00e8" }, { ":a", "\u00e4" }, { ":o", "\u00f6" }, { ":u", "\u00fc" },
	{ ":A", "\u00c4" }, { ":O", "\u00d6" }, { ":U", "\u00dc" }, { "ss", "\u00df" },
};

/* A Unicode character as UTF-8, from the hex digits of \[uXXXX]; 0 if they
 * are no character. */
static int add_code_point(struct ord_buf *out, const char *hex, size_t n)
{
	unsigned long c = 0;
	size_t i;

	if (n < 4 || n > 6)
		return 0;
	for (i = 0; i < n; i++) {
		int d = hex[i] >= '0' && hex[i] <= '9'   ? hex[i] - '0'
			: hex[i] >= 'A' && hex[i] <= 'F' ? hex[i] - 'A' + 10
			: hex[i] >= 'a' && hex[i] <= 'f' ? hex[i] - 'a' + 10
							 : -1;
		if (d < 0)
			return 0;
		c = c * 16 + (unsigned long)d;
	}
	if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	if (c < 0x80) {
		ord_buf_addch(out, (char)c);
	} else if (c < 0x800) {
		ord_buf_addch(out, (char)(0xC0 | (c >> 6)));
		ord_buf_addch(out, (char)(0x80 | (c & 0x3F)));
	} else if (c < 0x10000) {
		ord_buf_addch(out, (char)(0xE0 | (c >> 12)));
		ord_buf_addch(out, (char)(0x80 | ((c >> 6) & 0x3F)));
		ord_buf_addch(out, (char)(0x80 | (c & 0x3F)));
	} else {
		ord_buf_addch(out, (char)(0xF0 | (c >> 18)));
		ord_buf_addch(out, (char)(0x80 | ((c >> 12) & 0x3F)));
		ord_buf_addch(out, (char)(0x80 | ((c >> 6) & 0x3F)));
		ord_buf_addch(out, (char)(0x80 | (c & 0x3F)));
	}
	return 1;
}

/* The special character name[0..n) (\(xx, \[xx], \[uXXXX]) added to out;
 * 0 if it is none known here. */
static int add_special(struct ord_buf *out, const char *name, size_t n)
{
	size_t k;

	if (n > 1 && name[0] == 'u' && add_code_point(out, name + 1, n - 1))
		return 1;
	for (k = 0; k < sizeof(special) / sizeof(special[0]); k++)
		if (strlen(special[k].name) == n && !strncmp(special[k].name, name, n)) {
			ord_buf_adds(out, special[k].text);
			return 1;
		}
	return 0;
}

/* Text with the escapes resolved and fonts dropped. */
static void unescape(struct ord_buf *out, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] != '\\' || i + 1 >= n) {
			ord_buf_addch(out, s[i]);
			continue;
		}
		i++;
		if (s[i] == '-' || s[i] == 'e') {
			ord_buf_addch(out, s[i] == 'e' ? '\\' : '-');
		} else if (s[i] == '&' || s[i] == '|' || s[i] == '^') {
			/* zero-width */
		} else if (s[i] == ' ' || s[i] == '~') {
			ord_buf_addch(out, ' ');
		} else if (s[i] == 'f' && i + 1 < n) {
			i++; /* \fB \fI \fR \fP */
		} else if (s[i] == '(' && i + 2 < n) {
			if (!add_special(out, s + i + 1, 2))
				ord_buf_add(out, s + i - 1, 4);
			i += 2;
		} else if (s[i] == '[' && memchr(s + i, ']', n - i)) {
			const char *close = memchr(s + i, ']', n - i);
			size_t len = (size_t)(close - (s + i + 1));
			if (!add_special(out, s + i + 1, len))
				ord_buf_add(out, s + i - 1, len + 3);
			i += len + 1;
		} else {
			ord_buf_addch(out, s[i]);
		}
	}
}

/* The arguments of a macro line (quoted ones whole), joined by sep. */
static void macro_args(struct ord_buf *out, const char *s, size_t n, const char *sep)
{
	size_t i = 0, k = 0;

	while (i < n) {
		size_t start, end;
		while (i < n && s[i] == ' ')
			i++;
		if (i >= n)
			break;
		if (s[i] == '"') {
			start = ++i;
			while (i < n && s[i] != '"')
				i++;
			end = i++;
		} else {
			start = i;
			/* a backslash and a space is an unpaddable space, not the argument's end */
			while (i < n && s[i] != ' ')
				i += s[i] == '\\' && i + 1 < n ? 2 : 1;
			end = i;
		}
		if (k++)
			ord_buf_adds(out, sep);
		unescape(out, s + start, end - start);
	}
}

/* Append the paragraph para to out, wrapped at 78 columns after indent. */
static void flush(struct ord_buf *out, struct ord_buf *para, int indent)
{
	const char *p = para->buf;
	size_t col = 0;

	while (*p == ' ')
		p++;
	while (*p) {
		size_t n = strcspn(p, " "), w = 0, i;
		/* the word's width in characters: æ and → are one column */
		for (i = 0; i < n; i++)
			w += ((unsigned char)p[i] & 0xC0) != 0x80;
		if (col && col + 1 + w > 78) {
			ord_buf_addch(out, '\n');
			col = 0;
		}
		if (!col) {
			ord_buf_addf(out, "%*s", indent, "");
			col = (size_t)indent;
		} else {
			ord_buf_addch(out, ' ');
			col++;
		}
		ord_buf_add(out, p, n);
		col += w;
		p += n;
		while (*p == ' ')
			p++;
	}
	if (col)
		ord_buf_addch(out, '\n');
	ord_buf_reset(para);
}

/* Is line `.B NAME ...` an entry of command name (written mail\-in)? */
static int entry_of(const char *line, size_t n, const char *name)
{
	struct ord_buf t = ORD_BUF_INIT;
	size_t ln = strlen(name);
	int yes;

	if (n < 3 || strncmp(line, ".B ", 3)) {
		ord_buf_release(&t);
		return 0;
	}
	unescape(&t, line + 3, n - 3);
	yes = !strncmp(t.buf, name, ln) && (t.buf[ln] == ' ' || t.buf[ln] == '\0');
	ord_buf_release(&t);
	return yes;
}

int cli_manual_section(const char *name, struct ord_buf *out)
{
	const char *p = (const char *)ord_cli_manual, *end = p + ord_cli_manual_len;
	struct ord_buf para = ORD_BUF_INIT;
	int in_commands = 0, in_entry = 0, depth = 0, tag = 0, after_tp = 0, found = 0, nofill = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *line = p;

		p += n + 1;
		if (!strncmp(line, ".SH ", 4)) {
			if (in_entry)
				flush(out, &para, 2 + 4 * depth);
			in_commands = n >= 12 && !strncmp(line + 4, "COMMANDS", 8);
			in_entry = 0;
			continue;
		}
		if (!in_commands)
			continue;
		if (!strncmp(line, ".TP", 3) && n == 3) {
			if (in_entry)
				flush(out, &para, 2 + 4 * depth);
			if (depth == 0)
				in_entry = 0;
			after_tp = 1;
			continue;
		}
		if (after_tp && depth == 0) {
			after_tp = 0;
			if (entry_of(line, n, name)) {
				in_entry = 1;
				found++;
				if (out->len)
					ord_buf_addch(out, '\n');
				unescape(&para, line + 3, n - 3);
				ord_buf_adds(out, "orderly ");
				ord_buf_add(out, para.buf, para.len);
				ord_buf_addch(out, '\n');
				ord_buf_reset(&para);
				continue;
			}
		}
		if (!in_entry)
			continue;
		tag = after_tp;
		after_tp = 0;
		if (!strncmp(line, ".nf", 3) || !strncmp(line, ".fi", 3)) {
			flush(out, &para, 2 + 4 * depth);
			nofill = line[1] == 'n';
		} else if (nofill && line[0] != '.') {
			/* an example: its lines as they are */
			ord_buf_addf(out, "%*s", 2 + 4 * depth, "");
			unescape(out, line, n);
			ord_buf_addch(out, '\n');
		} else if (!strncmp(line, ".RS", 3)) {
			flush(out, &para, 2 + 4 * depth);
			depth++;
		} else if (!strncmp(line, ".RE", 3)) {
			flush(out, &para, 2 + 4 * depth);
			if (depth)
				depth--;
		} else if (!strncmp(line, ".br", 3) || !strncmp(line, ".PP", 3) ||
			   !strncmp(line, ".IP", 3) || (!strncmp(line, ".P", 2) && n == 2)) {
			flush(out, &para, 2 + 4 * depth);
		} else if (line[0] == '.' && n > 2 &&
			   (line[1] == 'B' || line[1] == 'I' || line[1] == 'R')) {
			const char *args = memchr(line, ' ', n);
			int two = n > 2 && line[2] != ' ';
			if (tag)
				flush(out, &para, 2 + 4 * depth);
			if (para.len)
				ord_buf_addch(&para, ' ');
			if (args)
				macro_args(&para, args, (size_t)(line + n - args), two ? "" : " ");
			if (tag) /* an option's name: a line of its own */
				flush(out, &para, 2 + 4 * (depth ? depth - 1 : 0) + 2);
		} else if (line[0] != '.') {
			if (para.len)
				ord_buf_addch(&para, ' ');
			unescape(&para, line, n);
		}
	}
	if (in_entry)
		flush(out, &para, 2 + 4 * depth);
	ord_buf_release(&para);
	return found;
}
