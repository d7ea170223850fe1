/*
 * text.c - the one reader of order sheets that every notation uses, and
 * their UTF-8 helpers (see text.h).
 *
 * A sheet is read once, line by line, and every line once more at most
 * (checking that it is text, then its words), so parsing is linear in the
 * input.  Nothing is parsed recursively and every piece of text copied goes
 * into a growable ord_buf.  Errors do not stop the parse: the rest of the
 * line, and the rest of the sheet, are still read, so that a player sees
 * every mistake of a sheet at once.  A line's tokens are held back until
 * the line ends, and reach the sheet only if the line parsed (notation.h).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orders/text.h"

/* A token of the current line, kept until the line ends. */
struct ord_text_pending {
	enum ord_tok_kind kind; /* as emitted */
	int num;                /* as emitted */
	unsigned col, group;    /* as emitted */
	size_t value;           /* offset of the value in t->strings */
	size_t arg;             /* offset of the arg in t->strings, or NO_ARG */
};
#define NO_ARG ((size_t)-1)

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

/* ^N ^NE ...: for players who cannot type an arrow, in every notation. */
static const struct ord_text_compass compass_en[] = {
	{ "n", 0 },    { "ne", 45 }, { "e", 90 },   { "se", 135 }, { "s", 180 },
	{ "sw", 225 }, { "w", 270 }, { "nw", 315 }, { NULL, 0 },
};

static const struct {
	const char *text; /* as a player may write it */
	int quarters;     /* 1..4 */
} fractions[] = {
	{ "1/4", 1 }, { "1/2", 2 }, { "3/4", 3 }, { "1", 4 },
	{ "4/4", 4 }, { "¼", 1 },   { "½", 2 },   { "¾", 3 },
};

/* Sheets typed in word processors or on phones carry no-break and other
 * Unicode spaces; they separate tokens like a plain space.  So does a byte
 * order mark (U+FEFF) anywhere but at the start of the sheet, where the
 * driver skips it: a sheet pasted after another keeps one, and a unit
 * written "\uFEFFA1" would print as a sheet whose BOM is dropped, naming
 * "A1" (found by fuzzing the hieroglyph parser).
 *
 * This set is its own, not the core's ord_utf8_blank_at (what the web page
 * and the mail judge trim off a passphrase or a field): it separates the
 * tokens of a line, so it holds no line end (\r, \n, U+0085, U+2028,
 * U+2029: the driver splits lines, whose numbers every diagnostic names),
 * nor the zero-width space U+200B, which a player does not see as a gap
 * between two words; and a sheet already committed to and sealed must
 * read the same in every later verify's replay, so the set a notation
 * reads is not widened with another front-end's trimming. */
int ord_text_is_space(uint32_t cp)
{
	return cp == ' ' || cp == '\t' || cp == 0xA0 || cp == 0x1680 ||
	       (cp >= 0x2000 && cp <= 0x200A) || cp == 0x202F || cp == 0x205F || cp == 0x3000 ||
	       cp == 0xFEFF;
}

/* ord_utf8_decode, an ASCII byte and a character of three bytes that
 * can be neither overlong nor a surrogate (the arrows, the dashes, the
 * curly quotes) read here: the reader decodes every character of a sheet
 * two or three times, nearly all of them ASCII. */
static inline size_t decode(const unsigned char *s, const unsigned char *end, uint32_t *cp)
{
	if (*s < 0x80) {
		*cp = *s;
		return 1;
	}
	if (*s >= 0xE1 && *s <= 0xEF && *s != 0xED && end - s >= 3 && (s[1] & 0xC0) == 0x80 &&
	    (s[2] & 0xC0) == 0x80) {
		*cp = ((uint32_t)(s[0] & 0x0F) << 12) | ((uint32_t)(s[1] & 0x3F) << 6) |
		      (uint32_t)(s[2] & 0x3F);
		return 3;
	}
	return ord_utf8_decode(s, end, cp);
}

size_t ord_text_dash_at(const unsigned char *s, const unsigned char *end)
{
	/* U+2010 to U+2014 (‐ ‑ ‒ – —) and U+2212 (−): E2 80 90..94, E2 88 92 */
	if (end - s >= 3 && s[0] == 0xE2 &&
	    ((s[1] == 0x80 && s[2] >= 0x90 && s[2] <= 0x94) || (s[1] == 0x88 && s[2] == 0x92)))
		return 3;
	return 0;
}

/* Bytes of the notation's joiner at s, or 0.  A word processor writes an
 * en dash for the '-' between two words ("↑ – C"), and some for every '-';
 * a PDF may give any of the dashes: all join as '-' does. */
static size_t joiner_at(int joiner, const unsigned char *s, const unsigned char *end)
{
	if (!joiner || s >= end)
		return 0;
	if (*s == joiner)
		return 1;
	return joiner == '-' ? ord_text_dash_at(s, end) : 0;
}

/* ord_text_space_at, for the reader's own loops */
static inline size_t space_at(const unsigned char *s, const unsigned char *end)
{
	uint32_t cp;
	size_t n;

	if (s >= end)
		return 0;
	if (*s < 0x80)
		return (*s == ' ' || *s == '\t') ? 1 : 0;
	n = decode(s, end, &cp);
	return (n && ord_text_is_space(cp)) ? n : 0;
}

size_t ord_text_space_at(const unsigned char *s, const unsigned char *end)
{
	return space_at(s, end);
}

/* The bytes that are a character of a word by themselves: ASCII but the
 * spaces and the controls (a line that holds a control is refused before
 * its words are read). */
static const unsigned char plain[256] = {
	['!'] = 1, ['"'] = 1, ['#'] = 1, ['$'] = 1,  ['%'] = 1, ['&'] = 1, ['\''] = 1, ['('] = 1,
	[')'] = 1, ['*'] = 1, ['+'] = 1, [','] = 1,  ['-'] = 1, ['.'] = 1, ['/'] = 1,  ['0'] = 1,
	['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1,  ['5'] = 1, ['6'] = 1, ['7'] = 1,  ['8'] = 1,
	['9'] = 1, [':'] = 1, [';'] = 1, ['<'] = 1,  ['='] = 1, ['>'] = 1, ['?'] = 1,  ['@'] = 1,
	['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1,  ['E'] = 1, ['F'] = 1, ['G'] = 1,  ['H'] = 1,
	['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1,  ['M'] = 1, ['N'] = 1, ['O'] = 1,  ['P'] = 1,
	['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1,  ['U'] = 1, ['V'] = 1, ['W'] = 1,  ['X'] = 1,
	['Y'] = 1, ['Z'] = 1, ['['] = 1, ['\\'] = 1, [']'] = 1, ['^'] = 1, ['_'] = 1,  ['`'] = 1,
	['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1,  ['e'] = 1, ['f'] = 1, ['g'] = 1,  ['h'] = 1,
	['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1,  ['m'] = 1, ['n'] = 1, ['o'] = 1,  ['p'] = 1,
	['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1,  ['u'] = 1, ['v'] = 1, ['w'] = 1,  ['x'] = 1,
	['y'] = 1, ['z'] = 1, ['{'] = 1, ['|'] = 1,  ['}'] = 1, ['~'] = 1,
};

/* Advance *s past spaces, counting columns. */
static void skip_spaces(const unsigned char **s, const unsigned char *end, unsigned *col)
{
	size_t n;

	while ((n = space_at(*s, end))) {
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
		if (!space_at(q, e))
			return e;
		e = q;
	}
}

static void set_text(struct ord_buf *b, const unsigned char *s, const unsigned char *e)
{
	ord_buf_reset(b);
	ord_buf_add(b, s, (size_t)(e - s));
}

/* The quotes a target's name may be written in: the straight '"', and the
 * curly ones a word processor puts in its place, in every locale's way:
 * “…” (English), „…“ and „…” (German, Danish), ”…” (Swedish, and Word's
 * after a letter or '@'), «…» (French) and »…« (Danish).  A name opened by
 * '"' ends at the next '"', as it always has (a stored sheet reads as it
 * did when it was accepted); one opened by a curly quote ends at the first
 * of its closing quotes or a '"', so that no quoted name holds a '"' and
 * the canonical form may always quote with '"'.  Single quotes ‘ ’ open no
 * name: ’ is the apostrophe of "Rogers’ Company". */
static const struct {
	uint32_t open;     /* the opening quote */
	uint32_t close[2]; /* the closing quotes besides '"', 0: none */
	const char *named; /* the closing quote an unterminated message asks for */
} quotes[] = {
	{ '"', { 0, 0 }, "\"" },
	{ 0x201C, { 0x201D, 0x201C }, "”" },
	{ 0x201E, { 0x201C, 0x201D }, "“" },
	{ 0x201D, { 0x201D, 0x201C }, "”" },
	{ 0xAB, { 0xBB, 0 }, "»" },
	{ 0xBB, { 0xAB, 0 }, "«" },
};

/* The quote that opens at s: its index in quotes[] and its bytes in *n, or
 * -1 if s is at none. */
static int quote_open(const unsigned char *s, const unsigned char *end, size_t *n)
{
	uint32_t cp;
	size_t i;

	if (s >= end || (*s != '"' && *s != 0xC2 && *s != 0xE2))
		return -1;
	*n = decode(s, end, &cp);
	if (!*n)
		return -1;
	for (i = 0; i < ORD_ARRAY_SIZE(quotes); i++)
		if (cp == quotes[i].open)
			return (int)i;
	return -1;
}

/* The quote that closes quotes[q] from s on: where it starts, its bytes in
 * *n; NULL if none does before end. */
static const unsigned char *quote_close(int q, const unsigned char *s, const unsigned char *end,
					size_t *n)
{
	uint32_t cp;
	size_t k;

	if (q == 0) {
		*n = 1;
		return memchr(s, '"', (size_t)(end - s));
	}
	for (; s < end; s += k) {
		k = decode(s, end, &cp);
		if (!k)
			k = 1; /* not reached: the line was checked to be UTF-8 */
		if (cp == '"' || cp == quotes[q].close[0] || cp == quotes[q].close[1]) {
			*n = k;
			return s;
		}
	}
	return NULL;
}

/* ---- what a notation calls --------------------------------------------- */

int ord_text_listing(const struct ord_text *t)
{
	return !ord_diag_full(t->diag);
}

void ord_text_count_error(struct ord_text *t)
{
	t->errors++;
	ord_diag_add_unlisted(t->diag);
}

void ord_text_error(struct ord_text *t, unsigned col, const char *rule, const char *fmt, ...)
{
	struct ord_buf msg = ORD_BUF_INIT;
	va_list ap;

	t->errors++;
	if (ord_diag_full(t->diag)) { /* counted, and its message not even built */
		ord_diag_add_unlisted(t->diag);
		return;
	}
	va_start(ap, fmt);
	ord_buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	ord_diag_add(t->diag, t->line, col, t->unit.buf, rule, "%s", msg.buf);
	ord_buf_release(&msg);
}

static size_t add_string(struct ord_text *t, const char *s)
{
	size_t at = t->strings.len;

	ord_buf_add(&t->strings, s, strlen(s) + 1);
	return at;
}

void ord_text_emit(struct ord_text *t, enum ord_tok_kind kind, const char *value, int num,
		   unsigned col, unsigned group, const char *arg)
{
	struct ord_text_pending *p;

	if (!t->has_unit)
		return;
	if (t->ntok == t->tokalloc) {
		t->tokalloc = t->tokalloc ? 2 * t->tokalloc : 16;
		t->tok = ord_xrealloc(t->tok, t->tokalloc * sizeof(*t->tok));
	}
	p = &t->tok[t->ntok++];
	p->kind = kind;
	p->num = num;
	p->col = col;
	p->group = group;
	p->value = add_string(t, value ? value : "");
	p->arg = arg ? add_string(t, arg) : NO_ARG;
}

void ord_text_emit_dir(struct ord_text *t, int deg, unsigned col, unsigned group)
{
	char tmp[8];

	if (deg % 45 == 0) {
		ord_text_emit(t, ORD_TOK_DIR, arrow_text[deg / 45], deg, col, group, NULL);
	} else {
		snprintf(tmp, sizeof(tmp), "^%03d", deg);
		ord_text_emit(t, ORD_TOK_DIR, tmp, deg, col, group, NULL);
	}
}

int ord_text_fraction(const char *text)
{
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(fractions); i++)
		if (text[0] == fractions[i].text[0] && !strcmp(text, fractions[i].text))
			return fractions[i].quarters;
	return 0;
}

const char *ord_text_fraction_ascii(int q)
{
	size_t i;

	/* the table's ASCII spellings come first */
	for (i = 0; i < ORD_ARRAY_SIZE(fractions); i++)
		if (fractions[i].quarters == q)
			return fractions[i].text;
	return NULL;
}

int ord_text_numeric(uint32_t cp)
{
	return (cp >= '0' && cp <= '9') || (cp >= 0xBC && cp <= 0xBE) ||
	       (cp >= 0x2150 && cp <= 0x215F) || cp == 0x2189;
}

/* ---- directions and targets -------------------------------------------- */

/* A bad direction; hint, when not NULL, follows the list of what is
 * expected (": did you mean ...?"). */
static void bad_dir_hint(struct ord_text *t, unsigned col, const char *hint)
{
	ord_text_error(t, col, NULL, "bad direction '%s' (expected %s)%s", t->text.buf,
		       t->rules->dir_expected ? t->rules->dir_expected : ORD_TEXT_DIRS,
		       hint ? hint : "");
	if (t->rules->malformed)
		t->rules->malformed(t, ORD_TOK_DIR);
}

static void bad_dir(struct ord_text *t, unsigned col)
{
	bad_dir_hint(t, col, NULL);
}

/* ^N ... or ^DDD; t->text holds the token. */
static void read_caret(struct ord_text *t, const struct ord_text_tok *tok, unsigned word)
{
	const char *d = t->text.buf + 1;
	const struct ord_text_compass *c;
	size_t i;

	if (strlen(d) == 3 && d[0] >= '0' && d[0] <= '9' && d[1] >= '0' && d[1] <= '9' &&
	    d[2] >= '0' && d[2] <= '9') {
		int deg = (d[0] - '0') * 100 + (d[1] - '0') * 10 + (d[2] - '0');

		if (deg >= 360) {
			ord_text_error(t, tok->col, NULL,
				       "direction '%s' out of range (expected ^000 to ^359)",
				       t->text.buf);
			if (t->rules->malformed)
				t->rules->malformed(t, ORD_TOK_DIR);
			return;
		}
		t->rules->dir(t, deg, tok->col, word);
		return;
	}
	if (t->rules->key) {
		t->rules->key(&t->key, tok->s + 1, tok->e);
	} else {
		set_text(&t->key, tok->s + 1, tok->e);
		for (i = 0; i < t->key.len; i++)
			if (t->key.buf[i] >= 'A' && t->key.buf[i] <= 'Z')
				t->key.buf[i] = (char)(t->key.buf[i] - 'A' + 'a');
	}
	for (c = compass_en; c->name; c++) {
		if (!strcmp(t->key.buf, c->name)) {
			t->rules->dir(t, c->deg, tok->col, word);
			return;
		}
	}
	for (c = t->rules->compass; c && c->name; c++) {
		if (!strcmp(t->key.buf, c->name)) {
			t->rules->dir(t, c->deg, tok->col, word);
			return;
		}
	}
	/* "^O", "^SO": a point of the rules' own whose Ø was typed as a bare
	 * O, which no ASCII form of the notation's is (it writes Ø as OE):
	 * refused, with the form meant named, never taken (an O may as well
	 * be a slip for another letter) */
	for (c = t->rules->compass; c && c->name; c++) {
		const char *oe = strstr(c->name, "oe");
		size_t at = oe ? (size_t)(oe - c->name) + 1 : 0, k;

		if (oe && t->key.len + 1 == strlen(c->name) && !strncmp(t->key.buf, c->name, at) &&
		    !strcmp(t->key.buf + at, oe + 2)) {
			struct ord_buf hint = ORD_BUF_INIT;

			ord_buf_adds(&hint, ": did you mean '^");
			for (k = 0; c->name[k]; k++)
				ord_buf_addch(&hint, c->name[k] >= 'a' && c->name[k] <= 'z'
							     ? c->name[k] - 'a' + 'A'
							     : c->name[k]);
			ord_buf_addf(&hint, "' (%s, ^%03d: \xc3\x98 in ASCII is OE)?",
				     c->deg % 45 ? "" : arrow_text[c->deg / 45], c->deg);
			bad_dir_hint(t, tok->col, hint.buf);
			ord_buf_release(&hint);
			return;
		}
	}
	bad_dir(t, tok->col);
}

/* A token starting with an arrow of n bytes: the arrow alone, perhaps
 * followed by the variation selector phones add to ask for the emoji form. */
static void read_arrow(struct ord_text *t, const struct ord_text_tok *tok, int deg, size_t n,
		       unsigned word)
{
	const unsigned char *q = tok->s + n;
	uint32_t cp;

	if (q < tok->e && ord_utf8_decode(q, tok->e, &cp) == 3 && (cp == 0xFE0E || cp == 0xFE0F))
		q += 3;
	/* "↑1/2": the distance written against the arrow */
	if (q != tok->e && ord_utf8_decode(q, tok->e, &cp) && ord_text_numeric(cp)) {
		struct ord_buf hint = ORD_BUF_INIT;

		ord_buf_addf(&hint,
			     ": did you mean '%.*s %.*s' (a space between the arrow and the distance)?",
			     (int)(q - tok->s), (const char *)tok->s, (int)(tok->e - q),
			     (const char *)q);
		bad_dir_hint(t, tok->col, hint.buf);
		ord_buf_release(&hint);
		return;
	}
	if (q != tok->e) {
		bad_dir(t, tok->col);
		return;
	}
	t->rules->dir(t, deg, tok->col, word);
}

static void bad_target(struct ord_text *t, unsigned col, const char *fmt)
{
	ord_text_error(t, col, NULL, fmt, t->text.buf);
	if (t->rules->malformed)
		t->rules->malformed(t, ORD_TOK_TARGET);
}

/* @UNIT or @"UNIT WITH SPACES" (or in curly quotes); the value is the
 * unit, trimmed. */
static void read_target(struct ord_text *t, const struct ord_text_tok *tok, unsigned word)
{
	const unsigned char *vs = tok->s + 1, *ve = tok->e;
	unsigned vcol = tok->col + 1;
	size_t on = 0, cn = 0;
	int q = quote_open(vs, ve, &on);

	if (tok->unterminated) {
		ord_text_error(t, tok->col + 1, NULL,
			       "unterminated quote in '%s' (expected a closing '%s')", t->text.buf,
			       quotes[q >= 0 ? q : 0].named);
		if (t->rules->malformed)
			t->rules->malformed(t, ORD_TOK_TARGET);
		return;
	}
	if (q >= 0) {
		/* the scan of the word stopped at the first closing quote */
		const unsigned char *cq = quote_close(q, vs + on, ve, &cn);

		if (!cq || cq + cn != ve) {
			char after[8] = "";

			if (t->rules->joiner)
				snprintf(after, sizeof(after), " or '%c'", t->rules->joiner);
			ord_text_error(t, tok->col + ord_utf8_count(tok->s, cq ? cq + cn : ve), NULL,
				       "text after the closing quote in '%s' (expected a space%s)",
				       t->text.buf, after);
			if (t->rules->malformed)
				t->rules->malformed(t, ORD_TOK_TARGET);
			return;
		}
		vs += on, vcol++;
		ve = cq;
	}
	skip_spaces(&vs, ve, &vcol);
	ve = trim_end(vs, ve);
	if (vs == ve) {
		bad_target(t, tok->col, "empty target '%s' (expected a unit after '@')");
		return;
	}
	set_text(&t->value, vs, ve);
	t->rules->target(t, t->value.buf, tok->col, word);
}

/* Decide whether a non-empty token is a direction, a target or the
 * notation's own, by its first character. */
static void read_token(struct ord_text *t, const struct ord_text_tok *tok, unsigned word)
{
	uint32_t cp;
	size_t n, i;

	set_text(&t->text, tok->s, tok->e);
	n = decode(tok->s, tok->e, &cp);
	if (cp == '@') {
		read_target(t, tok, word);
		return;
	}
	if (cp == '^') {
		read_caret(t, tok, word);
		return;
	}
	for (i = 0; i < ORD_ARRAY_SIZE(arrows); i++) {
		if (cp == arrows[i].cp) {
			read_arrow(t, tok, arrows[i].deg, n, word);
			return;
		}
	}
	t->rules->token(t, tok, word);
}

/* ---- lines and words ---------------------------------------------------- */

static void push_tok(struct ord_text *t, const unsigned char *s, const unsigned char *e,
		     unsigned col, int unterminated)
{
	struct ord_text_tok *el;

	if (t->nel == t->elalloc) {
		t->elalloc = t->elalloc ? 2 * t->elalloc : 8;
		t->el = ord_xrealloc(t->el, t->elalloc * sizeof(*t->el));
	}
	el = &t->el[t->nel++];
	el->s = s;
	el->e = e;
	el->col = col;
	el->unterminated = unterminated;
}

/*
 * Split the word at *s into its tokens (t->el), at the joiner if the
 * notation has one, and move *s past it.  A quoted target may hold spaces
 * (and the joiner), so it is skipped whole; one with no closing quote takes
 * the rest of the line.
 */
static void scan_word(struct ord_text *t, const unsigned char **s, const unsigned char *end,
		      unsigned *col)
{
	const unsigned char *q = *s, *es;
	int joiner = t->rules->joiner, qi;
	size_t on, cn, jn;
	unsigned ecol;
	uint32_t cp;

	t->nel = 0;
	for (;;) {
		es = q;
		ecol = *col;
		if (end - q >= 2 && q[0] == '@' && (qi = quote_open(q + 1, end, &on)) >= 0) {
			const unsigned char *cq = quote_close(qi, q + 1 + on, end, &cn);

			if (!cq) {
				*col += ord_utf8_count(q, end);
				q = end;
				push_tok(t, es, q, ecol, 1);
				break;
			}
			*col += ord_utf8_count(q, cq + cn);
			q = cq + cn;
		}
		while (q < end) {
			/* a run of ASCII characters but the joiner and the spaces, at once */
			if (plain[*q] && *q != joiner) {
				const unsigned char *r = q;

				while (++q < end && plain[*q] && *q != joiner)
					;
				*col += (unsigned)(q - r);
				continue;
			} else {
				/* what joiner_at and space_at ask, the character decoded once */
				size_t n;

				if (joiner_at(joiner, q, end))
					break;
				n = decode(q, end, &cp);
				if (n && ord_text_is_space(cp))
					break;
				q += n;
			}
			(*col)++;
		}
		push_tok(t, es, q, ecol, 0);
		if ((jn = joiner_at(joiner, q, end)) != 0) {
			q += jn;
			(*col)++;
			continue;
		}
		break;
	}
	*s = q;
}

/* Arrows typed on a keyboard without them: a word that is one of these is
 * a direction meant, said as such with the arrow and its compass point,
 * which every notation reads.  Before, '->' was "an empty token" and an
 * unknown code '>' (the hieroglyphs' joiner '-'), or "a bad hex" (ordre). */
static const struct {
	const char *typed;
	int deg; /* the arrow meant (arrow_text, compass_en) */
} ascii_arrows[] = {
	{ "->", 90 }, { "-->", 90 }, { "=>", 90 }, { "<-", 270 }, { "<--", 270 }, { "<=", 270 },
};

/* Whether the word at s (to its first space) is an arrow typed in ASCII:
 * reported as a bad direction with the arrow meant, *s moved past it. */
static int ascii_arrow(struct ord_text *t, const unsigned char **s, const unsigned char *end,
		       unsigned *col)
{
	const unsigned char *e = *s;
	const struct ord_text_compass *c;
	char hint[64], point[8] = "";
	size_t k, n, i;

	if (**s != '-' && **s != '=' && **s != '<')
		return 0; /* nearly every word, at once */
	while (e < end && e - *s < 4 && !space_at(e, end))
		e++;
	n = (size_t)(e - *s);
	if (e < end && !space_at(e, end))
		return 0;
	for (k = 0; k < ORD_ARRAY_SIZE(ascii_arrows); k++) {
		if (strlen(ascii_arrows[k].typed) != n || memcmp(ascii_arrows[k].typed, *s, n))
			continue;
		set_text(&t->text, *s, e);
		/* the English point where the notation lists them, else the
		 * degrees, which every list of directions gives */
		for (c = compass_en; c->deg != ascii_arrows[k].deg; c++)
			;
		if (t->rules->compass)
			snprintf(point, sizeof(point), "^%03d", c->deg);
		else
			for (i = 0, point[0] = '^'; i + 2 < sizeof(point); i++)
				if (!(point[i + 1] = (char)toupper((unsigned char)c->name[i])))
					break;
		snprintf(hint, sizeof(hint), ": did you mean '%s' (%s)?",
			 arrow_text[ascii_arrows[k].deg / 45], point);
		bad_dir_hint(t, *col, hint);
		*col += (unsigned)n;
		*s = e;
		return 1;
	}
	return 0;
}

/* The words of one line after its unit, from s to end (the comment cut off). */
static void read_words(struct ord_text *t, const unsigned char *s, const unsigned char *end,
		       unsigned col)
{
	unsigned words = 0, tcol = col;
	size_t i;

	t->rules->begin(t);
	for (;;) {
		const unsigned char *ws;
		int empty_reported = 0;

		skip_spaces(&s, end, &col);
		if (s >= end)
			break;
		ws = s;
		words++;
		if (ascii_arrow(t, &s, end, &col))
			continue;
		scan_word(t, &s, end, &col);
		for (i = 0; i < t->nel; i++) {
			const struct ord_text_tok *el = &t->el[i];

			if (el->s != el->e) {
				read_token(t, el, words);
				continue;
			}
			if (empty_reported)
				continue;
			/* point at the joiner beside the gap: before it, or after a leading one */
			set_text(&t->word, ws, s);
			ord_text_error(t, i ? el->col - 1 : el->col, NULL,
				       "empty token in '%s' (expected %s on each side of '%c')",
				       t->word.buf, t->rules->token_expected, t->rules->joiner);
			empty_reported = 1;
		}
	}
	t->rules->end(t, words, tcol);
}

/* Add the line's order, with its tokens, to the sheet: in one block
 * (ord_sheet_add_packed). */
static void add_order(struct ord_text *t, unsigned col)
{
	struct ord_token some[16],
		*tok = t->ntok <= ORD_ARRAY_SIZE(some) ? some : ord_xmalloc(t->ntok * sizeof(*tok));
	size_t i;

	for (i = 0; i < t->ntok; i++) {
		const struct ord_text_pending *p = &t->tok[i];

		memset(&tok[i], 0, sizeof(tok[i]));
		tok[i].kind = p->kind;
		tok[i].value = t->strings.buf + p->value;
		tok[i].arg = p->arg != NO_ARG ? t->strings.buf + p->arg : NULL;
		tok[i].num = p->num;
		tok[i].col = p->col;
		tok[i].group = p->group;
	}
	ord_sheet_add_packed(t->out, t->line, col, t->unit.buf, tok, t->ntok);
	if (tok != some)
		free(tok);
}

/* One line, without its line end. */
static void read_line(struct ord_text *t, const unsigned char *s, const unsigned char *end)
{
	const unsigned char *q, *content_end = end, *us, *ue, *colon;
	unsigned col = 1, ucol;
	size_t n, errors = t->errors;
	uint32_t cp;

	ord_buf_reset(&t->unit);
	ord_buf_reset(&t->strings);
	t->ntok = 0;
	t->has_unit = 0;
	/* the whole line must be text, comment included, before any of it is
	 * read; its printable ASCII (nearly all of a sheet) in a loop of its
	 * own, and a column counted only for an error */
	for (q = s; q < end; q += n) {
		while (q < end && (unsigned char)(*q - 0x20) < 0x5F)
			q++;
		if (q == end)
			break;
		n = decode(q, end, &cp);
		if (!n) {
			ord_text_error(t, 1 + ord_utf8_count(s, q), NULL,
				       "invalid UTF-8 byte 0x%02x (expected UTF-8 text)", *q);
			return;
		}
		if ((cp < 0x20 && cp != '\t') || cp == 0x7F) {
			ord_text_error(t, 1 + ord_utf8_count(s, q), NULL,
				       "unexpected control character U+%04X (expected text)",
				       (unsigned)cp);
			return;
		}
	}
	/* the comment: '#' is never a byte of a longer character */
	if ((q = memchr(s, '#', (size_t)(end - s))) != NULL)
		content_end = q;
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
		while (ue < content_end) {
			if (plain[*ue]) {
				ue++;
			} else {
				if (space_at(ue, content_end))
					break;
				ue += decode(ue, content_end, &cp);
			}
			col++;
		}
		q = ue;
	}
	set_text(&t->unit, us, ue);
	t->has_unit = us != ue;
	if (!t->has_unit)
		ord_text_error(t, ucol, NULL, "expected a unit before ':'");
	read_words(t, q, content_end, col);
	/* only a line that parsed: the ruleset checks every order it gets,
	 * and a line read in part would lead it to report the consequences
	 * of a syntax error (a charge with no arrow, when the arrow was
	 * misspelt) as more mistakes */
	if (t->has_unit && t->errors == errors)
		add_order(t, ucol);
}

/* Room in out for an order on each line from s to end, at most: the
 * sheet's array of orders grown once, not doubled a dozen times over a
 * sheet of thousands (ord_sheet_pack gives back what is left over).  At
 * most for the first 65,536 lines: a file of empty lines orders nothing,
 * and past them the array grows as it did. */
static void reserve_orders(struct ord_sheet *out, const unsigned char *s, const unsigned char *end)
{
	size_t lines = 1;

	while (lines < 65536 && (s = memchr(s, '\n', (size_t)(end - s))) != NULL) {
		lines++;
		s++;
	}
	if (out->alloc - out->n < lines) {
		out->alloc = out->n + lines;
		out->orders = ord_xrealloc(out->orders, out->alloc * sizeof(*out->orders));
	}
}

int ord_text_parse(struct ord_sheet *out, const char *bytes, size_t len, struct ord_diag *diag,
		   const struct ord_text_rules *rules, void *state)
{
	const unsigned char *s = (const unsigned char *)bytes, *end, *nl, *le;
	struct ord_text t;
	int err = 0;

	if (!len)
		return 0;
	memset(&t, 0, sizeof(t));
	t.rules = rules;
	t.state = state;
	t.out = out;
	t.diag = diag;
	ord_buf_init(&t.unit);
	ord_buf_init(&t.text);
	ord_buf_init(&t.word);
	ord_buf_init(&t.key);
	ord_buf_init(&t.strings);
	ord_buf_init(&t.value);
	end = s + len;
	reserve_orders(out, s, end);
	/* Windows editors start a UTF-8 file with a byte order mark */
	s += ord_utf8_bom_at(s, len);
	for (t.line = 1; s < end; t.line++) {
		nl = memchr(s, '\n', (size_t)(end - s));
		le = nl ? nl : end;
		if (le > s && le[-1] == '\r')
			le--;
		read_line(&t, s, le);
		if (!nl)
			break;
		s = nl + 1;
	}
	if (t.errors)
		err = ord_error_set(ORD_EBADSHEET, "order sheet has %zu syntax error%s", t.errors,
				    t.errors == 1 ? "" : "s");
	ord_buf_release(&t.unit);
	ord_buf_release(&t.text);
	ord_buf_release(&t.word);
	ord_buf_release(&t.key);
	ord_buf_release(&t.strings);
	ord_buf_release(&t.value);
	free(t.tok);
	free(t.el);
	return err;
}

/* ---- printing ----------------------------------------------------------- */

/* A target must be quoted when it holds what would end it unquoted, or
 * starts with a quote.  Byte by byte is enough: the joiner is ASCII, never
 * part of a longer character, and neither joiner_at's dashes nor space_at
 * match in the middle of one.  A value never holds a '"' when it came quoted (quote_close). */
static int needs_quotes(const char *v, int joiner)
{
	const unsigned char *s = (const unsigned char *)v, *end = s + strlen(v);
	size_t n;

	if (quote_open(s, end, &n) >= 0)
		return 1;
	for (; s < end; s++)
		if (joiner_at(joiner, s, end) || ord_text_space_at(s, end))
			return 1;
	return 0;
}

void ord_text_format(const struct ord_text_rules *rules, const struct ord_order *o, struct ord_buf *out)
{
	size_t i;
	int deg;

	ord_buf_adds(out, o->unit ? o->unit : "");
	ord_buf_addch(out, ':');
	for (i = 0; i < o->ntok; i++) {
		const struct ord_token *t = &o->tok[i];

		/* group 0 is a token built by hand with no group: never joined */
		if (rules->joiner && i && t->group && t->group == o->tok[i - 1].group)
			ord_buf_addch(out, rules->joiner);
		else
			ord_buf_addch(out, ' ');
		switch (t->kind) {
		case ORD_TOK_DIR:
			deg = ((t->num % 360) + 360) % 360;
			if (deg % 45 == 0)
				ord_buf_adds(out, arrow_text[deg / 45]);
			else
				ord_buf_addf(out, "^%03d", deg);
			break;
		case ORD_TOK_TARGET:
			if (needs_quotes(t->value, rules->joiner))
				ord_buf_addf(out, "@\"%s\"", t->value);
			else
				ord_buf_addf(out, "@%s", t->value);
			break;
		default: rules->format_token(t, out); break;
		}
	}
}
