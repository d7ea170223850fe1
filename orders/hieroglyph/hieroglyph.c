/*
 * hieroglyph.c - the "standardized hieroglyphics" of the battalion rules:
 * an arrow, a fraction of the move and the codes FLn FCol FSk FSq C Fb Fs
 * Fg UL L, one order per line.  orders/hieroglyph/README.md tells players
 * how to write a sheet; tests/unit/check_hieroglyph.c pins every message.
 *
 * The sheet is read by the notations' driver (orders/text.h): lines, units,
 * words joined by '-', directions, targets and the errors' line:col are
 * its; this file gives the rest of the token rules: fractions, codes, and
 * that each kind but codes may appear once in an order, each code once.
 */
#include <stdint.h>
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

#define TOKEN_EXPECTED "a direction, fraction or code"

static const char *const frac_text[5] = { NULL, "1/4", "1/2", "3/4", "1" };

/* What one order already holds: each kind but codes may appear once, and
 * each code once. */
struct seen {
	int dir, frac, target; /* already given */
	unsigned codes;        /* bit i: codes[i] already given */
};

static void hg_begin(struct ord_text *t)
{
	memset(t->state, 0, sizeof(struct seen));
}

static void hg_dir(struct ord_text *t, int deg, unsigned col, unsigned word)
{
	struct seen *seen = t->state;

	if (seen->dir) {
		ord_text_error(t, col, NULL, "second direction '%s' (expected one direction per order)",
			       t->text.buf);
		return;
	}
	seen->dir = 1;
	ord_text_emit_dir(t, deg, col, word);
}

static void hg_target(struct ord_text *t, const char *unit, unsigned col, unsigned word)
{
	struct seen *seen = t->state;

	if (seen->target) {
		ord_text_error(t, col, NULL, "second target '%s' (expected one target per order)",
			       t->text.buf);
		return;
	}
	seen->target = 1;
	ord_text_emit(t, ORD_TOK_TARGET, unit, 0, col, word, NULL);
}

static void parse_fraction(struct ord_text *t, struct seen *seen, unsigned col, unsigned word)
{
	int q = ord_text_fraction(t->text.buf);

	if (!q) {
		ord_text_error(t, col, NULL, "bad fraction '%s' (expected one of 1/4 1/2 3/4 1)",
			       t->text.buf);
		return;
	}
	if (seen->frac) {
		ord_text_error(t, col, NULL,
			       "second fraction '%s' (expected one fraction per order)", t->text.buf);
		return;
	}
	seen->frac = 1;
	ord_text_emit(t, ORD_TOK_FRAC, frac_text[q], q, col, word, NULL);
}

/* The index in codes[] of a code spelt as the rules spell it, or
 * ORD_ARRAY_SIZE(codes): by its first letters, then one strcmp. */
static size_t exact_code(const char *v)
{
	size_t i;

	switch (v[0]) {
	case 'F':
		switch (v[1]) {
		case 'L': i = 0; break;
		case 'C': i = 1; break;
		case 'S': i = v[2] == 'k' ? 2 : 3; break;
		case 'b': i = 5; break;
		case 's': i = 6; break;
		case 'g': i = 7; break;
		default: return ORD_ARRAY_SIZE(codes);
		}
		break;
	case 'C': i = 4; break;
	case 'U': i = 8; break;
	case 'L': i = 9; break;
	default: return ORD_ARRAY_SIZE(codes);
	}
	return strcmp(v, codes[i]) ? ORD_ARRAY_SIZE(codes) : i;
}

static void parse_code(struct ord_text *t, struct seen *seen, unsigned col, unsigned word)
{
	size_t i;

	/* as the rules spell it (nearly every code of a sheet) first: no two
	 * codes are one but for case, so it is the one the loop finds */
	i = exact_code(t->text.buf);
	if (i == ORD_ARRAY_SIZE(codes))
		for (i = 0; i < ORD_ARRAY_SIZE(codes); i++)
			if (ord_strcaseeq(t->text.buf, codes[i]))
				break;
	if (i == ORD_ARRAY_SIZE(codes)) {
		ord_text_error(t, col, NULL,
			       "unknown code '%s' (expected one of " CODES_EXPECTED ")", t->text.buf);
		return;
	}
	if (seen->codes & (1u << i)) {
		ord_text_error(t, col, NULL,
			       "repeated code '%s' (expected each code once per order)", t->text.buf);
		return;
	}
	seen->codes |= 1u << i;
	ord_text_emit(t, ORD_TOK_CODE, codes[i], 0, col, word, NULL);
}

/* Anything that looks like a number is a (perhaps wrong) fraction; the
 * rest are codes. */
static void hg_token(struct ord_text *t, const struct ord_text_tok *tok, unsigned word)
{
	uint32_t cp = *tok->s;

	if (cp >= 0x80) /* nearly every token is ASCII: decoded only when not */
		ord_utf8_decode(tok->s, tok->e, &cp);
	if (ord_text_numeric(cp))
		parse_fraction(t, t->state, tok->col, word);
	else
		parse_code(t, t->state, tok->col, word);
}

static void hg_end(struct ord_text *t, unsigned nwords, unsigned col)
{
	if (!nwords && t->has_unit)
		ord_text_error(t, col, NULL, "expected " TOKEN_EXPECTED " after the unit");
}

static void hg_format_token(const struct ord_token *t, struct ord_buf *out)
{
	size_t i;

	if (t->kind == ORD_TOK_FRAC && t->num >= 1 && t->num <= 4) {
		ord_buf_adds(out, frac_text[t->num]);
		return;
	}
	if (t->kind == ORD_TOK_CODE) {
		for (i = 0; i < ORD_ARRAY_SIZE(codes); i++) {
			if (ord_strcaseeq(t->value, codes[i])) {
				ord_buf_adds(out, codes[i]);
				return;
			}
		}
	}
	ord_buf_adds(out, t->value);
}

static const struct ord_text_rules rules = {
	/* joiner */ '-',
	/* token_expected */ TOKEN_EXPECTED,
	/* compass */ NULL,
	/* dir_expected */ NULL,
	/* key */ NULL,
	/* begin */ hg_begin,
	/* dir */ hg_dir,
	/* target */ hg_target,
	/* malformed */ NULL,
	/* token */ hg_token,
	/* end */ hg_end,
	/* format_token */ hg_format_token,
};

static int parse(struct ord_sheet *out, const char *bytes, size_t len, struct ord_diag *diag)
{
	struct seen seen;

	return ord_text_parse(out, bytes, len, diag, &rules, &seen);
}

static void format(const struct ord_order *o, struct ord_buf *out)
{
	ord_text_format(&rules, o, out);
}

const struct ord_notation ord_notation_hieroglyph = {
	/* version */ ORD_NOTATION_VERSION,
	/* name */ "hieroglyph",
	/* parse */ parse,
	/* format */ format,
	/* word_key */ NULL, /* an event's words as its key spec writes them */
	/* word_value */ NULL,
	/* word_forms */ NULL,
};
