/* error.c - the thread's last error (libgit2's giterr) and diagnostics lists. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/common.h"

static _Thread_local char last_msg[2048];
static _Thread_local int last_code;
static _Thread_local int last_way; /* ORD_WAY_*, at last_msg[way_at], way_len bytes */
static _Thread_local size_t way_at, way_len;
static _Thread_local unsigned last_marks; /* ORD_ERRMARK_* */

const char *ord_error_last(void)
{
	return last_msg;
}

int ord_error_code(void)
{
	return last_code;
}

int ord_error_set(int code, const char *fmt, ...)
{
	char msg[sizeof(last_msg)];
	va_list ap;

	/* formatted apart first: a caller may quote the last message in the
	 * new one ("...: %s", ord_error_last()) */
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	memcpy(last_msg, msg, sizeof(msg));
	last_code = code;
	last_way = ORD_WAY_NONE;
	last_marks = 0;
	return code;
}

void ord_error_clear(void)
{
	last_msg[0] = '\0';
	last_code = 0;
	last_way = ORD_WAY_NONE;
	last_marks = 0;
}

void ord_error_mark(unsigned marks)
{
	last_marks |= marks;
}

unsigned ord_error_marks(void)
{
	return last_marks;
}

void ord_error_set_way(int way, size_t at, size_t len)
{
	/* not when the message was cut short before its end */
	if (at + len > strlen(last_msg)) {
		last_way = ORD_WAY_NONE;
		return;
	}
	last_way = way;
	way_at = at;
	way_len = len;
}

int ord_error_way(size_t *at, size_t *len)
{
	*at = last_way ? way_at : 0;
	*len = last_way ? way_len : 0;
	return last_way;
}

void ord_diag_init(struct ord_diag *d)
{
	d->items = NULL;
	d->n = d->alloc = 0;
	d->more = 0;
}

int ord_diag_full(const struct ord_diag *d)
{
	return d->n >= ORD_DIAG_MAX_LISTED;
}

size_t ord_diag_count(const struct ord_diag *d)
{
	return d->n + d->more;
}

void ord_diag_add_unlisted(struct ord_diag *d)
{
	d->more++;
}

void ord_diag_sort(struct ord_diag *d, size_t from)
{
	size_t i, j;

	/* insertion sort: stable, and a sheet's problems are nearly in order */
	for (i = from + 1; i < d->n; i++) {
		struct ord_diag_item it = d->items[i];
		for (j = i;
		     j > from && (d->items[j - 1].line > it.line ||
				  (d->items[j - 1].line == it.line && d->items[j - 1].col > it.col));
		     j--)
			d->items[j] = d->items[j - 1];
		d->items[j] = it;
	}
}

static void diag_args_free(struct ord_diag_item *it)
{
	size_t i;

	for (i = 0; i < it->nargs; i++) {
		free(it->args[i].text);
		free(it->args[i].lang);
		free(it->args[i].said);
	}
	free(it->args);
	it->args = NULL;
	it->nargs = 0;
}

void ord_diag_truncate(struct ord_diag *d, size_t n)
{
	while (d->n > n) {
		struct ord_diag_item *it = &d->items[--d->n];
		free(it->unit);
		free(it->rule);
		free(it->msg);
		free(it->attr);
		free(it->refs);
		free(it->kind);
		diag_args_free(it);
	}
}

void ord_diag_release(struct ord_diag *d)
{
	ord_diag_truncate(d, 0);
	free(d->items);
	ord_diag_init(d);
}

static struct ord_diag_item *diag_vadd(struct ord_diag *d, unsigned line, unsigned col,
				       const char *unit, const char *attr, const char *rule,
				       const char *fmt, va_list ap)
{
	struct ord_buf b = ORD_BUF_INIT;
	struct ord_diag_item *it;

	/* the cap holds here, for every source of problems: a ruleset checks
	 * each order of a sheet of a million repeated ones */
	if (ord_diag_full(d)) {
		d->more++;
		return NULL;
	}
	if (d->n == d->alloc) {
		d->alloc = d->alloc ? 2 * d->alloc : 8;
		d->items = ord_xrealloc(d->items, d->alloc * sizeof(*d->items));
	}
	ord_buf_vaddf(&b, fmt, ap);
	it = &d->items[d->n++];
	it->line = line;
	it->col = col;
	it->unit = ord_strdup(unit ? unit : "");
	it->rule = ord_strdup(rule ? rule : "");
	it->msg = ord_buf_detach(&b, NULL);
	it->attr = ord_strdup(attr ? attr : "");
	it->refs = NULL;
	it->nrefs = 0;
	it->kind = ord_strdup("");
	it->id = NULL;
	it->args = NULL;
	it->nargs = 0;
	return it;
}

/* The text each conversion of fmt writes of ap's arguments, into it->args:
 * the conversion alone, its flags, width and precision with it, so that
 * the message said in another language writes each as the English did. */
static void diag_args(struct ord_diag_item *it, const char *fmt, va_list ap)
{
	struct ord_buf spec = ORD_BUF_INIT, text = ORD_BUF_INIT;
	const char *s;

	for (s = fmt; *s; s++) {
		size_t k;
		int lng = 0, sz = 0;
		char conv;

		if (*s != '%')
			continue;
		if (s[1] == '%') {
			s++;
			continue;
		}
		/* the spec as fmt writes it, a '*' by the number it takes */
		ord_buf_reset(&spec);
		ord_buf_addch(&spec, '%');
		for (k = 1; s[k] && strchr("-+ #0123456789.*", s[k]); k++)
			if (s[k] == '*')
				ord_buf_addf(&spec, "%d", va_arg(ap, int));
			else
				ord_buf_addch(&spec, s[k]);
		for (; s[k] && strchr("hlLqjzt", s[k]); k++) {
			lng += s[k] == 'l';
			sz |= s[k] == 'z' || s[k] == 't' || s[k] == 'j';
			ord_buf_addch(&spec, s[k]);
		}
		conv = s[k];
		if (!conv)
			break;
		ord_buf_addch(&spec, conv);
		ord_buf_reset(&text);
		/* the spec is fmt's own, checked by the compiler at the call */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#endif
		if (strchr("diouxXc", conv) && sz)
			ord_buf_addf(&text, spec.buf, va_arg(ap, size_t));
		else if (strchr("diouxXc", conv) && lng >= 2)
			ord_buf_addf(&text, spec.buf, va_arg(ap, long long));
		else if (strchr("diouxXc", conv) && lng)
			ord_buf_addf(&text, spec.buf, va_arg(ap, long));
		else if (strchr("diouxXc", conv))
			ord_buf_addf(&text, spec.buf, va_arg(ap, int));
		else if (strchr("eEfFgGaA", conv))
			ord_buf_addf(&text, spec.buf, va_arg(ap, double));
		else if (conv == 's')
			ord_buf_addf(&text, spec.buf, va_arg(ap, const char *));
		else if (conv == 'p')
			ord_buf_addf(&text, spec.buf, va_arg(ap, void *));
		else
			break; /* none a message writes: the rest unread */
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
		it->args = ord_xrealloc(it->args, (it->nargs + 1) * sizeof(*it->args));
		it->args[it->nargs].text = ord_strdup(text.buf ? text.buf : "");
		it->args[it->nargs].lang = NULL;
		it->args[it->nargs].said = NULL;
		it->nargs++;
		s += k;
	}
	ord_buf_release(&spec);
	ord_buf_release(&text);
}

struct ord_diag_item *ord_diag_add_id(struct ord_diag *d, unsigned line, unsigned col, const char *unit,
				      const char *rule, const char *id, const char *fmt, ...)
{
	struct ord_diag_item *it;
	va_list ap;

	va_start(ap, fmt);
	it = diag_vadd(d, line, col, unit, NULL, rule, fmt, ap);
	va_end(ap);
	if (!it)
		return NULL;
	it->id = id;
	va_start(ap, fmt);
	diag_args(it, fmt, ap);
	va_end(ap);
	return it;
}

void ord_diag_item_arg_said(struct ord_diag_item *it, size_t k, const char *lang, const char *text)
{
	if (!it || k >= it->nargs || !lang || !text)
		return;
	free(it->args[k].lang);
	free(it->args[k].said);
	it->args[k].lang = ord_strdup(lang);
	it->args[k].said = ord_strdup(text);
}

struct ord_diag_item *ord_diag_add(struct ord_diag *d, unsigned line, unsigned col,
				   const char *unit, const char *rule, const char *fmt, ...)
{
	struct ord_diag_item *it;
	va_list ap;

	va_start(ap, fmt);
	it = diag_vadd(d, line, col, unit, NULL, rule, fmt, ap);
	va_end(ap);
	return it;
}

void ord_diag_item_addf(struct ord_diag_item *it, const char *fmt, ...)
{
	struct ord_buf b = ORD_BUF_INIT;
	va_list ap;

	if (!it)
		return;
	ord_buf_adds(&b, it->msg);
	va_start(ap, fmt);
	ord_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	free(it->msg);
	it->msg = ord_buf_detach(&b, NULL);
	it->id = NULL; /* no longer its catalogue's message */
}

void ord_diag_item_event(struct ord_diag_item *it, unsigned seq)
{
	struct ord_diag_ref *r;
	size_t at;

	if (!it)
		return;
	at = strlen(it->msg);
	ord_diag_item_addf(it, "event #%u", seq);
	it->refs = ord_xrealloc(it->refs, (it->nrefs + 1) * sizeof(*it->refs));
	r = &it->refs[it->nrefs++];
	r->seq = seq;
	r->at = at;
	r->len = strlen(it->msg) - at;
}

void ord_diag_item_kind(struct ord_diag_item *it, const char *kind)
{
	if (!it)
		return;
	free(it->kind);
	it->kind = ord_strdup(kind ? kind : "");
}

struct ord_diag_item *ord_diag_add_citing(struct ord_diag *d, unsigned line, unsigned col,
					  const char *unit, const char *rule, unsigned seq,
					  const char *fmt, ...)
{
	struct ord_diag_item *it;
	va_list ap;

	va_start(ap, fmt);
	it = diag_vadd(d, line, col, unit, NULL, rule, fmt, ap);
	va_end(ap);
	ord_diag_item_addf(it, " (");
	ord_diag_item_event(it, seq);
	ord_diag_item_addf(it, ")");
	return it;
}

void ord_diag_add_attr(struct ord_diag *d, const char *unit, const char *attr, const char *rule,
		       const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(d, 0, 0, unit, attr, rule, fmt, ap);
	va_end(ap);
}

int ord_diag_names_unit(const struct ord_diag_item *it)
{
	static const char *const hints[] = { " did you mean '", ": expected " };
	size_t n = strlen(it->unit), k;
	const char *p, *end = it->msg + strlen(it->msg), *h;

	if (!n)
		return 0;
	/* the units a hint names (ord_ctx_unit_hint: the nearest, or those
	 * expected) are not the one at fault: B1's "@Nobody" lists B1 too */
	for (k = 0; k < ORD_ARRAY_SIZE(hints); k++)
		if ((h = strstr(it->msg, hints[k])) != NULL && h < end)
			end = h;
	for (p = strchr(it->msg, '\''); p && p < end; p = strchr(p + 1, '\''))
		if (!strncmp(p + 1, it->unit, n) && p[n + 1] == '\'')
			return 1;
	return 0;
}

void ord_diag_item_format(struct ord_buf *out, const struct ord_diag_item *it)
{
	ord_buf_adds(out, it->msg);
	if (*it->rule)
		ord_buf_addf(out, " (%s)", it->rule);
}

void ord_diag_item_place(struct ord_buf *out, const struct ord_diag_item *it, const char *prefix)
{
	if (prefix && *prefix)
		ord_buf_addf(out, "%s:", prefix);
	if (it->line && it->col) /* a column is counted from 1: 0 is none known */
		ord_buf_addf(out, "%u:%u: ", it->line, it->col);
	else if (it->line)
		ord_buf_addf(out, "%u: ", it->line);
	else if (prefix && *prefix)
		ord_buf_adds(out, " ");
	if (*it->unit && !ord_diag_names_unit(it))
		ord_buf_addf(out, "unit '%s': ", it->unit);
	ord_diag_item_format(out, it);
}

void ord_diag_format(const struct ord_diag *d, const char *prefix, struct ord_buf *out)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		ord_diag_item_place(out, &d->items[i], prefix);
		ord_buf_addch(out, '\n');
	}
	/* after the problems listed, as the last thing read */
	if (d->more) {
		if (prefix && *prefix)
			ord_buf_addf(out, "%s: ", prefix);
		ord_buf_addf(out, "%zu more problem%s not listed\n", d->more, d->more == 1 ? "" : "s");
	}
}
