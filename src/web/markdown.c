/*
 * markdown.c - the notations' help (orders/NAME/README.md, compiled in) as
 * HTML for the player's page: the few kinds of Markdown those files use,
 * and nothing else.  Headings, paragraphs, lists, fenced code, pipe
 * tables, and `code`, **bold** and *emphasis* in a line; a link shows its
 * text only (the help's links point into the repository).  Every byte of
 * the text goes through web_esc, so the help can carry no markup of its
 * own.  The top-level sections (##) fold, so that the help takes little
 * room on a phone; a section for module writers ("For the ruleset") is
 * left out.
 */
#include <string.h>

#include "web/web.h"

struct md {
	struct ord_buf *b;
	struct ord_buf para; /* the paragraph being gathered (raw text) */
	int list;            /* 0, 'u' or 'o': the list open now */
	int item;            /* an <li> is open */
	int section;         /* a <details> of a ## section is open */
	int skip;            /* in a section left out */
};

/* A line's inline markup as HTML: `code`, **bold**, *emphasis*,
 * [text](url) as its text. */
static void inline_md(struct ord_buf *b, const char *s, size_t n)
{
	size_t i = 0, start = 0;

	while (i < n) {
		const char *end;
		size_t k;

		if (s[i] == '`' && (end = memchr(s + i + 1, '`', n - i - 1)) != NULL) {
			web_esc_n(b, s + start, i - start);
			ord_buf_adds(b, "<code>");
			web_esc_n(b, s + i + 1, (size_t)(end - s) - i - 1);
			ord_buf_adds(b, "</code>");
			i = start = (size_t)(end - s) + 1;
			continue;
		}
		if (s[i] == '*' && i + 1 < n && s[i + 1] == '*') {
			for (k = i + 2; k + 1 < n && !(s[k] == '*' && s[k + 1] == '*'); k++)
				;
			if (k + 1 < n && k > i + 2) {
				web_esc_n(b, s + start, i - start);
				ord_buf_adds(b, "<b>");
				inline_md(b, s + i + 2, k - i - 2);
				ord_buf_adds(b, "</b>");
				i = start = k + 2;
				continue;
			}
		}
		if (s[i] == '*' && i + 1 < n && s[i + 1] != ' ' && s[i + 1] != '*' &&
		    (end = memchr(s + i + 1, '*', n - i - 1)) != NULL && end[-1] != ' ') {
			web_esc_n(b, s + start, i - start);
			ord_buf_adds(b, "<i>");
			inline_md(b, s + i + 1, (size_t)(end - s) - i - 1);
			ord_buf_adds(b, "</i>");
			i = start = (size_t)(end - s) + 1;
			continue;
		}
		if (s[i] == '[' && (end = memchr(s + i, ']', n - i)) != NULL &&
		    (size_t)(end - s) + 1 < n && end[1] == '(' &&
		    memchr(end, ')', n - (size_t)(end - s)) != NULL) {
			const char *close = memchr(end, ')', n - (size_t)(end - s));

			web_esc_n(b, s + start, i - start);
			inline_md(b, s + i + 1, (size_t)(end - s) - i - 1);
			i = start = (size_t)(close - s) + 1;
			continue;
		}
		i++;
	}
	web_esc_n(b, s + start, n - start);
}

static void end_para(struct md *m)
{
	if (!m->para.len)
		return;
	if (!m->skip) {
		/* in a list item a blank line parts its paragraphs */
		ord_buf_adds(m->b, m->item ? "<span class=\"md-p\">" : "<p>");
		inline_md(m->b, m->para.buf, m->para.len);
		ord_buf_adds(m->b, m->item ? "</span>" : "</p>");
	}
	ord_buf_reset(&m->para);
}

static void end_list(struct md *m)
{
	end_para(m);
	if (m->item && !m->skip)
		ord_buf_adds(m->b, "</li>");
	if (m->list && !m->skip)
		ord_buf_adds(m->b, m->list == 'u' ? "</ul>" : "</ol>");
	m->item = 0;
	m->list = 0;
}

static void end_section(struct md *m)
{
	end_list(m);
	if (m->section && !m->skip)
		ord_buf_adds(m->b, "</div></details>");
	m->section = 0;
	m->skip = 0;
}

/* The cells of a table row "| a | b |" (the '|' in `code` is no border). */
static size_t cells(const char *s, size_t n, const char **at, size_t *len, size_t max)
{
	size_t i, start, k = 0;
	int code = 0;

	for (i = 0; i < n && s[i] != '|'; i++)
		;
	start = ++i;
	for (; i <= n && k < max; i++) {
		if (i < n && s[i] == '`')
			code = !code;
		if (i == n || (s[i] == '|' && !code)) {
			size_t a = start, e = i;

			while (a < e && s[a] == ' ')
				a++;
			while (e > a && s[e - 1] == ' ')
				e--;
			if (i == n && a == e)
				break; /* after the last '|' */
			at[k] = s + a;
			len[k++] = e - a;
			start = i + 1;
		}
	}
	return k;
}

#define MD_COLS 16

/* A pipe table from lines[0..n): a header, its rule, the rows.  A cell
 * carries its column's heading (data-label): a narrow box shows a wide
 * table one row a block. */
static void table(struct md *m, const char *const *lines, const size_t *lens, size_t n)
{
	const char *head[MD_COLS], *at[MD_COLS];
	size_t hlen[MD_COLS], len[MD_COLS], nh, nc, r, c;

	nh = cells(lines[0], lens[0], head, hlen, MD_COLS);
	ord_buf_addf(m->b, "<div class=\"md-table\"><table class=\"%s\"><thead><tr>",
		     nh > 3 ? "wide" : "narrow");
	for (c = 0; c < nh; c++) {
		ord_buf_adds(m->b, "<th>");
		inline_md(m->b, head[c], hlen[c]);
		ord_buf_adds(m->b, "</th>");
	}
	ord_buf_adds(m->b, "</tr></thead><tbody>");
	for (r = 2; r < n; r++) {
		nc = cells(lines[r], lens[r], at, len, MD_COLS);
		ord_buf_adds(m->b, "<tr>");
		for (c = 0; c < nc; c++) {
			ord_buf_adds(m->b, "<td");
			if (c < nh && hlen[c]) {
				/* the heading as plain text, its markup left out */
				struct ord_buf label = ORD_BUF_INIT;
				size_t i;

				for (i = 0; i < hlen[c]; i++)
					if (head[c][i] != '`' && head[c][i] != '*')
						ord_buf_addch(&label, head[c][i]);
				ord_buf_adds(m->b, " data-label=\"");
				web_esc_n(m->b, label.buf, label.len);
				ord_buf_adds(m->b, "\"");
				ord_buf_release(&label);
			}
			ord_buf_adds(m->b, ">");
			inline_md(m->b, at[c], len[c]);
			ord_buf_adds(m->b, "</td>");
		}
		ord_buf_adds(m->b, "</tr>");
	}
	ord_buf_adds(m->b, "</tbody></table></div>");
}

static int starts(const char *s, size_t n, const char *p)
{
	size_t k = strlen(p);

	return n >= k && !memcmp(s, p, k);
}

/* "1. " at the start of a line: the length of the marker, or 0. */
static size_t ordered_item(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	return i && i + 1 < n && s[i] == '.' && s[i + 1] == ' ' ? i + 2 : 0;
}

void web_markdown(struct ord_buf *b, const char *md, size_t len)
{
	struct md m = { b, ORD_BUF_INIT, 0, 0, 0, 0 };
	const char *p = md, *end = md + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *next = nl ? nl + 1 : end;
		size_t k;

		if (n && p[n - 1] == '\r')
			n--;
		if (starts(p, n, "```")) {
			/* fenced code: to the closing fence, as it is */
			const char *q = next;

			end_list(&m);
			if (!m.skip)
				ord_buf_adds(b, "<pre><code>");
			while (q < end) {
				const char *e = memchr(q, '\n', (size_t)(end - q));
				size_t w = e ? (size_t)(e - q) : (size_t)(end - q);

				if (starts(q, w, "```")) {
					q = e ? e + 1 : end;
					break;
				}
				if (!m.skip) {
					web_esc_n(b, q, w && q[w - 1] == '\r' ? w - 1 : w);
					ord_buf_addch(b, '\n');
				}
				q = e ? e + 1 : end;
			}
			if (!m.skip)
				ord_buf_adds(b, "</code></pre>");
			p = q;
			continue;
		}
		if (n && p[0] == '#') {
			size_t level = 0;

			while (level < n && p[level] == '#')
				level++;
			if (level < n && p[level] == ' ') {
				const char *t = p + level + 1;
				size_t tn = n - level - 1;

				if (level == 2) {
					end_section(&m);
					m.skip = starts(t, tn, "For the ruleset");
					m.section = 1;
					if (!m.skip) {
						ord_buf_adds(b, "<details class=\"md-section\"><summary>");
						inline_md(b, t, tn);
						ord_buf_adds(b, "</summary><div>");
					}
				} else {
					end_list(&m);
					if (!m.skip) {
						ord_buf_addf(b, "<h%zu>",
							     level < 2 ? (size_t)3 : (size_t)4);
						inline_md(b, t, tn);
						ord_buf_addf(b, "</h%zu>",
							     level < 2 ? (size_t)3 : (size_t)4);
					}
				}
				p = next;
				continue;
			}
		}
		if (n && p[0] == '|') {
			/* a table: this line and the next ones starting with '|' */
			const char *lines[256];
			size_t lens[256], nl2 = 0;
			const char *q = p;

			end_list(&m);
			while (q < end && *q == '|' && nl2 < 256) {
				const char *e = memchr(q, '\n', (size_t)(end - q));
				size_t w = e ? (size_t)(e - q) : (size_t)(end - q);

				lines[nl2] = q;
				lens[nl2++] = w && q[w - 1] == '\r' ? w - 1 : w;
				q = e ? e + 1 : end;
			}
			if (!m.skip && nl2 >= 2)
				table(&m, lines, lens, nl2);
			p = q;
			continue;
		}
		if (starts(p, n, "- ") || starts(p, n, "* ") || ordered_item(p, n)) {
			int kind = p[0] == '-' || p[0] == '*' ? 'u' : 'o';
			size_t skip = kind == 'u' ? 2 : ordered_item(p, n);

			end_para(&m);
			if (m.list != kind) {
				end_list(&m);
				if (!m.skip)
					ord_buf_adds(b, kind == 'u' ? "<ul>" : "<ol>");
				m.list = kind;
			} else if (m.item && !m.skip) {
				ord_buf_adds(b, "</li>");
			}
			if (!m.skip)
				ord_buf_adds(b, "<li>");
			m.item = 1;
			ord_buf_add(&m.para, p + skip, n - skip);
			p = next;
			continue;
		}
		for (k = 0; k < n && (p[k] == ' ' || p[k] == '\t'); k++)
			;
		if (k == n) {
			/* a blank line ends a paragraph; a list goes on if the
			 * next line is an item or indented */
			end_para(&m);
			if (m.list && !(next < end &&
					(*next == ' ' || starts(next, (size_t)(end - next), "- ") ||
					 starts(next, (size_t)(end - next), "* ") ||
					 ordered_item(next, (size_t)(end - next)))))
				end_list(&m);
			p = next;
			continue;
		}
		if (m.list && k == 0)
			end_list(&m);
		if (m.para.len)
			ord_buf_addch(&m.para, ' ');
		ord_buf_add(&m.para, p + k, n - k);
		p = next;
	}
	end_section(&m);
	ord_buf_release(&m.para);
}
