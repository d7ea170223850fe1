/*
 * html.c - building the web page's HTML: every value goes through
 * web_esc (or web_url inside a URL), so a unit named
 * <script>alert(1)</script> is shown as text.  The layout is one column
 * on a phone, two (the form and its help) from a tablet up; the style
 * sheet and the script are static files (the Content-Security-Policy
 * allows nothing inline).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/lookalike.h"
#include "web/web.h"

void web_esc_n(struct ord_buf *b, const char *s, size_t n)
{
	size_t i, start = 0;

	for (i = 0; i < n; i++) {
		const char *rep = NULL;

		switch (s[i]) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		case '\'': rep = "&#39;"; break;
		case '\0': rep = "\xef\xbf\xbd"; break; /* U+FFFD */
		default: continue;
		}
		ord_buf_add(b, s + start, i - start);
		ord_buf_adds(b, rep);
		start = i + 1;
	}
	ord_buf_add(b, s + start, n - start);
}

void web_esc(struct ord_buf *b, const char *s)
{
	if (s)
		web_esc_n(b, s, strlen(s));
}

void web_esc_name(struct ord_buf *b, const char *s)
{
	struct ord_buf shown = ORD_BUF_INIT;

	if (!s)
		return;
	ord_buf_add_name_line(&shown, s);
	web_esc_n(b, shown.buf ? shown.buf : "", shown.len);
	ord_buf_release(&shown);
}

void web_esc_name_n(struct ord_buf *b, const char *s, size_t n)
{
	struct ord_buf raw = ORD_BUF_INIT, shown = ORD_BUF_INIT;

	ord_buf_add(&raw, s, n);
	ord_buf_add_name_line(&shown, raw.buf);
	web_esc_n(b, shown.buf, shown.len);
	ord_buf_release(&raw);
	ord_buf_release(&shown);
}

void web_url(struct ord_buf *b, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p;

	for (p = (const unsigned char *)s; p && *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' || *p == '.' || *p == '~') {
			ord_buf_addch(b, *p);
		} else {
			ord_buf_addch(b, '%');
			ord_buf_addch(b, hex[*p >> 4]);
			ord_buf_addch(b, hex[*p & 15]);
		}
	}
}

void web_hex(char *out, const unsigned char *p, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = hex[p[i] >> 4];
		out[2 * i + 1] = hex[p[i] & 15];
	}
	out[2 * n] = '\0';
}

const char *web_party_label(const char *party)
{
	return !party || !strcmp(party, WEB_REFEREE) ? "the referee" : party;
}

/* Who the session is logged in as in the game of the page (/g/NAME...),
 * at the end of the header bar: on a browser shared at the club table the
 * next player sees whose login he is at. */
static void who_is_logged_in(struct web_req *r)
{
	struct ord_buf *b = &r->body;
	size_t i, n = 0;

	if (r->nparts < 2 || strcmp(r->parts[0], "g"))
		return;
	for (i = 0; i < r->sess.ngrants; i++) {
		if (strcmp(r->sess.grants[i].game, r->parts[1]))
			continue;
		ord_buf_adds(b, n++ ? " and " : "<span class=\"who\">logged in as ");
		ord_buf_adds(b, "<b>");
		web_esc(b, web_party_label(r->sess.grants[i].party));
		ord_buf_adds(b, "</b>");
	}
	if (n)
		ord_buf_adds(b, "</span>");
}

void web_page_start(struct web_req *r, const char *title, const char *const *crumbs)
{
	struct ord_buf *b = &r->body;
	size_t i;

	r->ctype = "text/html; charset=utf-8";
	ord_buf_adds(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
			"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
			"<meta name=\"referrer\" content=\"no-referrer\">\n<title>");
	web_esc_name(b, title); /* a game's title, a side */
	ord_buf_adds(b, " · orderly</title>\n"
			"<link rel=\"stylesheet\" href=\"/static/orderly.css\">\n"
			"<script src=\"/static/orderly.js\" defer></script>\n</head>\n<body>\n"
			"<header class=\"bar\"><nav aria-label=\"where you are\"><a class=\"home\" "
			"href=\"/\">orderly</a>");
	for (i = 0; crumbs && crumbs[i]; i += 2) {
		ord_buf_adds(b, "<span class=\"sep\" aria-hidden=\"true\">›</span>");
		if (crumbs[i + 1]) {
			ord_buf_adds(b, "<a href=\"");
			web_esc(b, crumbs[i + 1]);
			ord_buf_adds(b, "\">");
			web_esc_name(b, crumbs[i]);
			ord_buf_adds(b, "</a>");
		} else {
			ord_buf_adds(b, "<span>");
			web_esc_name(b, crumbs[i]);
			ord_buf_adds(b, "</span>");
		}
	}
	who_is_logged_in(r);
	ord_buf_adds(b, "</nav></header>\n<main>\n");
}

void web_page_end(struct web_req *r)
{
	ord_buf_adds(&r->body,
		     "</main>\n<footer><p>orderly " ORD_VERSION
		     ": secret written orders, sealed and checkable. "
		     "Every page works without JavaScript.</p></footer>\n</body>\n</html>\n");
}

void web_form_start(struct web_req *r, const char *action, const char *cls)
{
	struct ord_buf *b = &r->body;

	ord_buf_adds(b, "<form method=\"post\" accept-charset=\"utf-8\" action=\"");
	web_esc(b, action);
	ord_buf_adds(b, "\"");
	if (cls) {
		ord_buf_adds(b, " class=\"");
		web_esc(b, cls);
		ord_buf_adds(b, "\"");
	}
	ord_buf_adds(b, "><input type=\"hidden\" name=\"csrf\" value=\"");
	web_esc(b, r->sess.csrf);
	ord_buf_adds(b, "\">");
}

void web_duration(struct ord_buf *b, int64_t secs)
{
	if (secs < 0)
		secs = -secs;
	if (secs >= 86400)
		ord_buf_addf(b, "%lld d %lld h", (long long)(secs / 86400),
			     (long long)(secs % 86400 / 3600));
	else if (secs >= 3600)
		ord_buf_addf(b, "%lld h %lld min", (long long)(secs / 3600),
			     (long long)(secs % 3600 / 60));
	else if (secs >= 60)
		ord_buf_addf(b, "%lld min", (long long)(secs / 60));
	else
		ord_buf_addf(b, "%lld s", (long long)secs);
}

/* at in UTC, as fmt (strftime's) writes it, escaped */
static void utc_shown(struct ord_buf *b, int64_t at, const char *fmt)
{
	time_t t = (time_t)at;
	struct tm tm;
	char shown[64];

	gmtime_r(&t, &tm);
	strftime(shown, sizeof(shown), fmt, &tm);
	web_esc(b, shown);
}

void web_time(struct ord_buf *b, int64_t at, int how, int64_t now)
{
	struct ord_buf when = ORD_BUF_INIT;

	ord_when_format(&when, at, NULL);
	ord_buf_adds(b, how & WEB_TIME_COUNT    ? "<time class=\"deadline utc\" datetime=\""
			: how & WEB_TIME_SECOND ? "<time class=\"utc second\" datetime=\""
						: "<time class=\"utc\" datetime=\"");
	web_esc(b, when.buf);
	if (how & WEB_TIME_COUNT)
		ord_buf_addf(b, "\" data-at=\"%lld\" data-now=\"%lld", (long long)at, (long long)now);
	ord_buf_adds(b, "\">");
	if (how & WEB_TIME_SECOND)
		utc_shown(b, at, "%H:%M:%S UTC");
	else if (how & (WEB_TIME_READ | WEB_TIME_COUNT))
		utc_shown(b, at, "%a %d %b %Y, %H:%M UTC");
	else
		web_esc(b, when.buf);
	ord_buf_adds(b, "</time>");
	ord_buf_release(&when);
}

void web_deadline(struct ord_buf *b, ord_game *g, int64_t until, int open)
{
	struct ord_schedule s;
	int64_t now = ord_game_now(g), deadline;

	if (!until) {
		ord_buf_adds(b, "<span class=\"muted\">no deadline</span>");
		return;
	}
	if (ord_game_schedule(g, &s) != 0) {
		ord_error_clear();
		s.grace = 0;
	}
	deadline = until - s.grace;
	if (!open) {
		/* sealed: no time left to count down (it counted on), no grace */
		web_time(b, deadline, WEB_TIME_READ, now);
		ord_buf_adds(b, " <span class=\"closed\">(sheets closed)</span>");
		return;
	}
	web_time(b, deadline, WEB_TIME_COUNT, now);
	ord_buf_adds(b, " <span class=\"left\">(");
	if (deadline > now) {
		web_duration(b, deadline - now);
		ord_buf_adds(b, " left");
	} else {
		ord_buf_adds(b, "passed ");
		web_duration(b, now - deadline);
		ord_buf_adds(b, " ago");
	}
	ord_buf_adds(b, ")</span>");
	if (s.grace) {
		ord_buf_adds(b, " <span class=\"grace\">sheets taken until ");
		web_time(b, until, WEB_TIME_READ, now);
		ord_buf_adds(b, " (grace)</span>");
	}
}

void web_diag_list(struct ord_buf *b, const struct ord_diag *d, const char *area)
{
	size_t i;

	ord_buf_adds(b, "<ol class=\"problems\">");
	for (i = 0; i < d->n; i++) {
		const struct ord_diag_item *it = &d->items[i];

		ord_buf_adds(b, "<li>");
		if (it->line) {
			if (area) {
				ord_buf_addf(b, "<a class=\"at\" href=\"#%s\" data-line=\"%u\" data-col=\"%u\">",
					     area, it->line, it->col);
			} else {
				ord_buf_adds(b, "<span class=\"at\">");
			}
			ord_buf_addf(b, "line %u", it->line);
			if (it->col)
				ord_buf_addf(b, ", column %u", it->col);
			ord_buf_adds(b, area ? "</a>" : "</span>");
			ord_buf_adds(b, ": ");
		}
		/* quoted as the library quotes a unit in its messages ("unknown
		 * unit 'F99'"), where <q> showed “F2” beside them */
		if (it->unit && *it->unit && !ord_diag_names_unit(it)) {
			ord_buf_adds(b, "unit '");
			web_esc(b, it->unit);
			ord_buf_adds(b, "': ");
		}
		web_esc(b, it->msg);
		if (it->rule && *it->rule) {
			ord_buf_adds(b, " <span class=\"rule\">(");
			web_esc(b, it->rule);
			ord_buf_adds(b, ")</span>");
		}
		ord_buf_adds(b, "</li>");
	}
	if (d->more)
		ord_buf_addf(b, "<li>%zu more problem%s not listed</li>", d->more,
			     d->more == 1 ? "" : "s");
	ord_buf_adds(b, "</ol>\n");
}

const char *web_trim(const char *s, size_t *len)
{
	const unsigned char *b = (const unsigned char *)s, *e = b + strlen(s);
	size_t k;

	while ((k = ord_utf8_blank_at(b, (size_t)(e - b), 0)) != 0)
		b += k;
	while ((k = ord_utf8_blank_at(b, (size_t)(e - b), 1)) != 0)
		e -= k;
	*len = (size_t)(e - b);
	return (const char *)b;
}
