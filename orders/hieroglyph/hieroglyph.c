/*
 * hieroglyph.c - the "standardized hieroglyphics" of the battalion rules:
 * an arrow, a fraction of the move and the codes FLn FCol FSk FSq C Fb Fs
 * Fg UL L, one order per line.  orders/hieroglyph/README.md tells players
 * how to write a sheet; tests/unit/check_hieroglyph.c pins every message.
 *
 * A sheet is read once, line by line, and every line once more at most
 * (validation, then tokens), so parsing is linear in the input.  Nothing is
 * parsed recursively and every piece of text copied goes into a growable
 * ord_buf.  Errors do not stop the parse: the rest of the line, and the
 * rest of the sheet, are still read so that a player sees every mistake of
 * a sheet at once.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notation.h"
#include "orders/text.h"

/* The codes as the rules spell them; the index is the code's bit in a mask
 * of codes already given in one order. */
static const char *const codes[] = {
	"FLn", "FCol", "FSk", "FSq", "C", "Fb", "Fs", "Fg", "UL", "L",
};
/* Kept by hand in step with codes[]: the tests compare the whole message. */
#define CODES_EXPECTED "FLn FCol FSk FSq C Fb Fs Fg UL L"

/* The eight arrows, clockwise from the top of the page (the enemy). */
static const char *const arrow_text[8] = {
	"↑", "↗", "→", "↘", "↓", "↙", "←", "↖",
};

static const struct {
	uint32_t cp; /* code point */
	int deg;     /* degrees clockwise, 0 = towards the enemy */
} arrows[] = {
	{ 0x2191, 0 },
	{ 0x2197, 45 },
	{ 0x2192, 90 },
	{ 0x2198, 135 },
	{ 0x2193, 180 },
	{ 0x2199, 225 },
	{ 0x2190, 270 },
	{ 0x2196, 315 },
	/* phone keyboards offer the heavy emoji arrows for the four main ones */
	{ 0x2B06, 0 },
	{ 0x27A1, 90 },
	{ 0x2B07, 180 },
	{ 0x2B05, 270 },
};

/* ^N ^NE ...: for players who cannot type an arrow. */
static const struct {
	const char *name; /* compass point, compared ignoring case */
	int deg;          /* degrees clockwise */
} compass[] = {
	{ "N", 0 },   { "NE", 45 },  { "E", 90 },  { "SE", 135 },
	{ "S", 180 }, { "SW", 225 }, { "W", 270 }, { "NW", 315 },
};

#define DIR_EXPECTED "one of ↑ ↗ → ↘ ↓ ↙ ← ↖ ^N ^NE ^E ^SE ^S ^SW ^W ^NW or ^000 to ^359"

static const char *const frac_text[5] = { NULL, "1/4", "1/2", "3/4", "1" };

static const struct {
	const char *text; /* as a player may write it */
	int quarters;     /* 1..4 */
} fractions[] = {
	{ "1/4", 1 }, { "1/2", 2 }, { "3/4", 3 }, { "1", 4 },
	{ "4/4", 4 }, { "¼", 1 },   { "½", 2 },   { "¾", 3 },
};

/* A file sent by mistake (a photo, a spreadsheet) gives an error on every
 * line; past this many nobody reads them, and listing them all would cost
 * seconds and megabytes.  The rest are counted, and the count is listed. */
#define MAX_LISTED_ERRORS 1000

/* One '-'-separated piece of a word, before it is classified. */
struct elem {
	const unsigned char *s, *e; /* its bytes */
	unsigned col;               /* column of its first character */
	int unterminated;           /* an @"... with no closing quote */
};

/* What one order already holds: each kind but codes may appear once, and
 * each code once. */
struct seen {
	int dir, frac, target; /* already given */
	unsigned codes;        /* bit i: codes[i] already given */
};

struct parser {
	struct ord_sheet *out; /* where orders go */
	struct ord_diag *diag; /* where errors go */
	unsigned line;         /* current line, 1-based */
	size_t errors;         /* errors added so far */
	struct ord_buf unit;   /* the current order's unit, as written */
	struct ord_buf text;   /* the element being classified */
	struct ord_buf word;   /* the word it is part of, for messages */
	struct elem *el;       /* the elements of the current word */
	size_t nel, elalloc;   /* elements in use, allocated */
};

/* Advance *s past spaces, counting columns. */
static void skip_spaces(const unsigned char **s, const unsigned char *end, unsigned *col)
{
	size_t n;

	while ((n = ord_text_space_at(*s, end))) {
		*s += n;
		(*col)++;
	}
}

/* Move *e back over trailing spaces, down to s at the least. */
static const unsigned char *trim_end(const unsigned char *s, const unsigned char *e)
{
	for (;;) {
		const unsigned char *q = e;

		/* step back one character: over continuation bytes to a lead byte */
		if (q == s)
			return e;
		q--;
		while (q > s && (*q & 0xC0) == 0x80)
			q--;
		if (!ord_text_space_at(q, e))
			return e;
		e = q;
	}
}

static void set_text(struct ord_buf *b, const unsigned char *s, const unsigned char *e)
{
	ord_buf_reset(b);
	ord_buf_add(b, s, (size_t)(e - s));
}

static void syntax_error(struct parser *ps, unsigned col, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

static void syntax_error(struct parser *ps, unsigned col, const char *fmt, ...)
{
	struct ord_buf msg = ORD_BUF_INIT;
	va_list ap;

	if (++ps->errors > MAX_LISTED_ERRORS)
		return;
	va_start(ap, fmt);
	ord_buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	ord_diag_add(ps->diag, ps->line, col, ps->unit.buf, NULL, "%s", msg.buf);
	ord_buf_release(&msg);
}

/* Add a token to o (NULL: the line has no unit, only check the syntax). */
static void emit(struct ord_order *o, enum ord_tok_kind kind, const char *value, int num,
		 unsigned col, unsigned group)
{
	struct ord_token *t;

	if (!o)
		return;
	t = ord_order_add_token(o, kind, value, num, col);
	t->group = group;
}

static void add_dir(struct parser *ps, struct ord_order *o, struct seen *seen, int deg,
		    unsigned col, unsigned group)
{
	char tmp[8];

	if (seen->dir) {
		syntax_error(ps, col, "second direction '%s' (expected one direction per order)",
			     ps->text.buf);
		return;
	}
	seen->dir = 1;
	if (deg % 45 == 0) {
		emit(o, ORD_TOK_DIR, arrow_text[deg / 45], deg, col, group);
	} else {
		snprintf(tmp, sizeof(tmp), "^%03d", deg);
		emit(o, ORD_TOK_DIR, tmp, deg, col, group);
	}
}

/* ^N ... ^NW or ^DDD; ps->text holds the element. */
static void parse_caret(struct parser *ps, struct ord_order *o, struct seen *seen, unsigned col,
			unsigned group)
{
	const char *d = ps->text.buf + 1;
	size_t i;

	if (strlen(d) == 3 && d[0] >= '0' && d[0] <= '9' && d[1] >= '0' && d[1] <= '9' &&
	    d[2] >= '0' && d[2] <= '9') {
		int deg = (d[0] - '0') * 100 + (d[1] - '0') * 10 + (d[2] - '0');

		if (deg >= 360) {
			syntax_error(ps, col, "direction '%s' out of range (expected ^000 to ^359)",
				     ps->text.buf);
			return;
		}
		add_dir(ps, o, seen, deg, col, group);
		return;
	}
	for (i = 0; i < ORD_ARRAY_SIZE(compass); i++) {
		if (ord_strcaseeq(d, compass[i].name)) {
			add_dir(ps, o, seen, compass[i].deg, col, group);
			return;
		}
	}
	syntax_error(ps, col, "bad direction '%s' (expected " DIR_EXPECTED ")", ps->text.buf);
}

/* An element starting with an arrow: the arrow alone, perhaps followed by
 * the variation selector phones add to ask for the emoji form. */
static void parse_arrow(struct parser *ps, struct ord_order *o, struct seen *seen,
			const struct elem *el, int deg, size_t n, unsigned group)
{
	const unsigned char *q = el->s + n;
	uint32_t cp;

	if (q < el->e && ord_utf8_decode(q, el->e, &cp) == 3 && (cp == 0xFE0E || cp == 0xFE0F))
		q += 3;
	if (q != el->e) {
		syntax_error(ps, el->col, "bad direction '%s' (expected " DIR_EXPECTED ")",
			     ps->text.buf);
		return;
	}
	add_dir(ps, o, seen, deg, el->col, group);
}

static void parse_fraction(struct parser *ps, struct ord_order *o, struct seen *seen, unsigned col,
			   unsigned group)
{
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(fractions); i++)
		if (!strcmp(ps->text.buf, fractions[i].text))
			break;
	if (i == ORD_ARRAY_SIZE(fractions)) {
		syntax_error(ps, col, "bad fraction '%s' (expected one of 1/4 1/2 3/4 1)",
			     ps->text.buf);
		return;
	}
	if (seen->frac) {
		syntax_error(ps, col, "second fraction '%s' (expected one fraction per order)",
			     ps->text.buf);
		return;
	}
	seen->frac = 1;
	emit(o, ORD_TOK_FRAC, frac_text[fractions[i].quarters], fractions[i].quarters, col, group);
}

/* @UNIT or @"UNIT WITH SPACES"; the value is the unit, trimmed. */
static void parse_target(struct parser *ps, struct ord_order *o, struct seen *seen,
			 const struct elem *el, unsigned group)
{
	const unsigned char *vs = el->s + 1, *ve = el->e;
	struct ord_buf value = ORD_BUF_INIT;
	unsigned vcol = el->col + 1;

	if (el->unterminated) {
		syntax_error(ps, el->col + 1,
			     "unterminated quote in '%s' (expected a closing '\"')", ps->text.buf);
		return;
	}
	if (vs < ve && *vs == '"') {
		/* the scan of the word stopped at the first quote after this one */
		const unsigned char *cq = memchr(vs + 1, '"', (size_t)(ve - vs - 1));

		if (cq + 1 != ve) {
			syntax_error(ps, el->col + ord_utf8_count(el->s, cq + 1),
				     "text after the closing quote in '%s' (expected a space or '-')",
				     ps->text.buf);
			return;
		}
		vs++, vcol++;
		ve = cq;
	}
	skip_spaces(&vs, ve, &vcol);
	ve = trim_end(vs, ve);
	if (vs == ve) {
		syntax_error(ps, el->col, "empty target '%s' (expected a unit after '@')",
			     ps->text.buf);
		return;
	}
	if (seen->target) {
		syntax_error(ps, el->col, "second target '%s' (expected one target per order)",
			     ps->text.buf);
		return;
	}
	seen->target = 1;
	set_text(&value, vs, ve);
	emit(o, ORD_TOK_TARGET, value.buf, 0, el->col, group);
	ord_buf_release(&value);
}

static void parse_code(struct parser *ps, struct ord_order *o, struct seen *seen, unsigned col,
		       unsigned group)
{
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(codes); i++)
		if (ord_strcaseeq(ps->text.buf, codes[i]))
			break;
	if (i == ORD_ARRAY_SIZE(codes)) {
		syntax_error(ps, col, "unknown code '%s' (expected one of " CODES_EXPECTED ")",
			     ps->text.buf);
		return;
	}
	if (seen->codes & (1u << i)) {
		syntax_error(ps, col, "repeated code '%s' (expected each code once per order)",
			     ps->text.buf);
		return;
	}
	seen->codes |= 1u << i;
	emit(o, ORD_TOK_CODE, codes[i], 0, col, group);
}

/* Decide what a non-empty element is by its first character. */
static void parse_elem(struct parser *ps, struct ord_order *o, struct seen *seen,
		       const struct elem *el, unsigned group)
{
	uint32_t cp;
	size_t n, i;

	set_text(&ps->text, el->s, el->e);
	n = ord_utf8_decode(el->s, el->e, &cp);
	if (cp == '@') {
		parse_target(ps, o, seen, el, group);
		return;
	}
	if (cp == '^') {
		parse_caret(ps, o, seen, el->col, group);
		return;
	}
	for (i = 0; i < ORD_ARRAY_SIZE(arrows); i++) {
		if (cp == arrows[i].cp) {
			parse_arrow(ps, o, seen, el, arrows[i].deg, n, group);
			return;
		}
	}
	/* anything that looks like a number is a (perhaps wrong) fraction */
	if ((cp >= '0' && cp <= '9') || (cp >= 0xBC && cp <= 0xBE) ||
	    (cp >= 0x2150 && cp <= 0x215F) || cp == 0x2189) {
		parse_fraction(ps, o, seen, el->col, group);
		return;
	}
	parse_code(ps, o, seen, el->col, group);
}

static void push_elem(struct parser *ps, const unsigned char *s, const unsigned char *e,
		      unsigned col, int unterminated)
{
	struct elem *el;

	if (ps->nel == ps->elalloc) {
		ps->elalloc = ps->elalloc ? 2 * ps->elalloc : 8;
		ps->el = ord_xrealloc(ps->el, ps->elalloc * sizeof(*ps->el));
	}
	el = &ps->el[ps->nel++];
	el->s = s;
	el->e = e;
	el->col = col;
	el->unterminated = unterminated;
}

/*
 * Split the word at *s into its '-'-separated elements (ps->el) and move *s
 * past it.  A quoted target may hold spaces and '-', so it is skipped whole;
 * one with no closing quote takes the rest of the line.
 */
static void scan_word(struct parser *ps, const unsigned char **s, const unsigned char *end,
		      unsigned *col)
{
	const unsigned char *q = *s, *es;
	unsigned ecol;
	uint32_t cp;

	ps->nel = 0;
	for (;;) {
		es = q;
		ecol = *col;
		if (end - q >= 2 && q[0] == '@' && q[1] == '"') {
			const unsigned char *cq = memchr(q + 2, '"', (size_t)(end - q - 2));

			if (!cq) {
				*col += ord_utf8_count(q, end);
				q = end;
				push_elem(ps, es, q, ecol, 1);
				break;
			}
			*col += ord_utf8_count(q, cq + 1);
			q = cq + 1;
		}
		while (q < end && *q != '-' && !ord_text_space_at(q, end)) {
			q += ord_utf8_decode(q, end, &cp);
			(*col)++;
		}
		push_elem(ps, es, q, ecol, 0);
		if (q < end && *q == '-') {
			q++;
			(*col)++;
			continue;
		}
		break;
	}
	*s = q;
}

/* The tokens of one order, from s to end (the comment cut off). */
static void parse_tokens(struct parser *ps, struct ord_order *o, const unsigned char *s,
			 const unsigned char *end, unsigned col)
{
	struct seen seen = { 0, 0, 0, 0 };
	unsigned group = 0, tcol = col;
	size_t i;

	for (;;) {
		const unsigned char *ws;
		int empty_reported = 0;

		skip_spaces(&s, end, &col);
		if (s >= end)
			break;
		ws = s;
		group++;
		scan_word(ps, &s, end, &col);
		for (i = 0; i < ps->nel; i++) {
			const struct elem *el = &ps->el[i];

			if (el->s != el->e) {
				parse_elem(ps, o, &seen, el, group);
				continue;
			}
			if (empty_reported)
				continue;
			/* point at the '-' beside the gap: before it, or after a leading one */
			set_text(&ps->word, ws, s);
			syntax_error(ps, i ? el->col - 1 : el->col,
				     "empty token in '%s' (expected a direction, fraction or code "
				     "on each side of '-')",
				     ps->word.buf);
			empty_reported = 1;
		}
	}
	if (!group && o)
		syntax_error(ps, tcol, "expected a direction, fraction or code after the unit");
}

/* One line, without its line end. */
static void parse_line(struct parser *ps, const unsigned char *s, const unsigned char *end)
{
	const unsigned char *q, *content_end = end, *us, *ue, *colon;
	struct ord_order *o = NULL;
	unsigned col = 1, ucol;
	uint32_t cp;
	size_t n;

	ord_buf_reset(&ps->unit);
	/* the whole line must be text, comment included, before any of it is read */
	for (q = s; q < end; q += n, col++) {
		n = ord_utf8_decode(q, end, &cp);
		if (!n) {
			syntax_error(ps, col, "invalid UTF-8 byte 0x%02x (expected UTF-8 text)", *q);
			return;
		}
		if ((cp < 0x20 && cp != '\t') || cp == 0x7F) {
			syntax_error(ps, col, "unexpected control character U+%04X (expected text)",
				     (unsigned)cp);
			return;
		}
		if (cp == '#' && content_end == end)
			content_end = q;
	}

	content_end = trim_end(s, content_end);
	col = 1;
	us = s;
	skip_spaces(&us, content_end, &col);
	if (us == content_end)
		return;
	ucol = col;
	colon = memchr(us, ':', (size_t)(content_end - us));
	if (colon) {
		ue = trim_end(us, colon);
		q = colon + 1;
		col += ord_utf8_count(us, q);
	} else {
		ue = us;
		while (ue < content_end && !ord_text_space_at(ue, content_end)) {
			ue += ord_utf8_decode(ue, content_end, &cp);
			col++;
		}
		q = ue;
	}
	set_text(&ps->unit, us, ue);
	if (us == ue)
		syntax_error(ps, ucol, "expected a unit before ':'");
	else
		o = ord_sheet_add_order(ps->out, ps->line, ucol, ps->unit.buf);
	parse_tokens(ps, o, q, content_end, col);
}

static int parse(struct ord_sheet *out, const char *bytes, size_t len, struct ord_diag *diag)
{
	const unsigned char *s = (const unsigned char *)bytes, *end, *nl, *le;
	struct parser ps;
	int err = 0;

	if (!len)
		return 0;
	memset(&ps, 0, sizeof(ps));
	ps.out = out;
	ps.diag = diag;
	ord_buf_init(&ps.unit);
	ord_buf_init(&ps.text);
	ord_buf_init(&ps.word);
	end = s + len;
	/* Windows editors start a UTF-8 file with a byte order mark */
	if (len >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF)
		s += 3;
	for (ps.line = 1; s < end; ps.line++) {
		nl = memchr(s, '\n', (size_t)(end - s));
		le = nl ? nl : end;
		if (le > s && le[-1] == '\r')
			le--;
		parse_line(&ps, s, le);
		if (!nl)
			break;
		s = nl + 1;
	}
	if (ps.errors > MAX_LISTED_ERRORS)
		ord_diag_add(diag, 0, 0, "", NULL, "%zu more syntax errors not listed",
			     ps.errors - MAX_LISTED_ERRORS);
	if (ps.errors)
		err = ord_error_set(ORD_EBADSHEET, "order sheet has %zu syntax error%s", ps.errors,
				    ps.errors == 1 ? "" : "s");
	ord_buf_release(&ps.unit);
	ord_buf_release(&ps.text);
	ord_buf_release(&ps.word);
	free(ps.el);
	return err;
}

/* A target must be quoted when it holds what would end it unquoted.  Byte
 * by byte is enough: '-' is never part of a longer character, and space_at
 * does not match in the middle of one. */
static int needs_quotes(const char *v)
{
	const unsigned char *s = (const unsigned char *)v, *end = s + strlen(v);

	for (; s < end; s++)
		if (*s == '-' || ord_text_space_at(s, end))
			return 1;
	return 0;
}

static void format_token(const struct ord_token *t, struct ord_buf *out)
{
	size_t i;
	int deg;

	switch (t->kind) {
	case ORD_TOK_DIR:
		deg = ((t->num % 360) + 360) % 360;
		if (deg % 45 == 0)
			ord_buf_adds(out, arrow_text[deg / 45]);
		else
			ord_buf_addf(out, "^%03d", deg);
		return;
	case ORD_TOK_FRAC:
		ord_buf_adds(out, t->num >= 1 && t->num <= 4 ? frac_text[t->num] : t->value);
		return;
	case ORD_TOK_CODE:
		for (i = 0; i < ORD_ARRAY_SIZE(codes); i++) {
			if (ord_strcaseeq(t->value, codes[i])) {
				ord_buf_adds(out, codes[i]);
				return;
			}
		}
		ord_buf_adds(out, t->value);
		return;
	case ORD_TOK_TARGET:
		if (needs_quotes(t->value))
			ord_buf_addf(out, "@\"%s\"", t->value);
		else
			ord_buf_addf(out, "@%s", t->value);
		return;
	case ORD_TOK_ARG: break;
	}
	ord_buf_adds(out, t->value);
}

static void format(const struct ord_order *o, struct ord_buf *out)
{
	size_t i;

	ord_buf_adds(out, o->unit ? o->unit : "");
	ord_buf_addch(out, ':');
	for (i = 0; i < o->ntok; i++) {
		const struct ord_token *t = &o->tok[i];

		/* group 0 is a token built by hand with no group: never joined */
		if (i && t->group && t->group == o->tok[i - 1].group)
			ord_buf_addch(out, '-');
		else
			ord_buf_addch(out, ' ');
		format_token(t, out);
	}
}

const struct ord_notation ord_notation_hieroglyph = {
	/* version */ ORD_NOTATION_VERSION,
	/* name */ "hieroglyph",
	/* parse */ parse,
	/* format */ format,
};
