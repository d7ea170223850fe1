/*
 * cli_manual.c - `orderly COMMAND --help`: the command's entries of the
 * COMMANDS section of the man page (docs/orderly.1, compiled in by CMake as
 * ord_cli_manual), as plain text, so that --help describes every option in
 * the same words as the manual, kept in one place.
 *
 * The roff read is the man page's own small subset: .TP .B .I .BR .BI .IB
 * .IR .RB .RI .RS .RE .br .PP .IP (without a tag) .nf .fi, the escapes \- \e \& \(lq \(rq \(em and
 * font changes \fB \fI \fR \fP.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

extern const unsigned char ord_cli_manual[];
extern const size_t ord_cli_manual_len;

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
		if (s[i] == '-' || s[i] == '&' || s[i] == 'e') {
			if (s[i] != '&')
				ord_buf_addch(out, s[i] == 'e' ? '\\' : '-');
		} else if (s[i] == 'f' && i + 1 < n) {
			i++; /* \fB \fI \fR \fP */
		} else if (s[i] == '(' && i + 2 < n) {
			if (!strncmp(s + i + 1, "lq", 2) || !strncmp(s + i + 1, "rq", 2))
				ord_buf_addch(out, '"');
			else if (!strncmp(s + i + 1, "em", 2))
				ord_buf_adds(out, "\u2014");
			i += 2;
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
			while (i < n && s[i] != ' ')
				i++;
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
		size_t w = strcspn(p, " ");
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
		ord_buf_add(out, p, w);
		col += w;
		p += w;
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
