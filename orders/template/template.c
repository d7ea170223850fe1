/*
 * template.c - an order notation written to be copied (like SQLite's
 * ext/misc/templatevtab.c and rulesets/template/template.c).  It is built
 * as the shared object ord_notation_template.so, never into orderly, and
 * tests/unit/check_notation_template.c loads it through
 * ORDERLY_RULESET_PATH and parses sheets with it, so it stays true to the
 * interface.  To write a notation for your rules:
 *
 *   1. Copy this directory to orders/<name>/ and rename every `tpl_` and
 *      `template` to your name (the file name ord_notation_<name>.so, the
 *      entry point ord_notation_<name>_init and the `name` slot must agree).
 *   2. Decide what a sheet says, token by token, and write it down for the
 *      players in orders/<name>/README.md (orders/hieroglyph/README.md is a
 *      model): the words, what each takes, and every message a mistake
 *      gets.  The driver (orders/text.h) already reads the lines (one
 *      order per line, `UNIT: ...` or `UNIT ...`, `#` comments), the
 *      directions (↑ ^NE ^045) and the targets (@B2 @"Old Guard"), and
 *      counts columns in characters.
 *   3. Fill in the token rules (`tpl_rules` at the bottom): each slot gets
 *      one kind of token and either adds it to the order (ord_text_emit)
 *      or says what is wrong (ord_text_error, with the column and what was
 *      expected).  Keep reading after a mistake, so that a player sees
 *      every mistake of a sheet at once; the driver leaves a line with a
 *      mistake out of the sheet and keeps the lines that parsed.
 *   4. Print every token back in one canonical form (format_token); the
 *      printed order must read back as the same order (tests/fuzz checks
 *      the built-in notations so).
 *   5. Build it as a shared object (orders/template/CMakeLists.txt) and put
 *      its directory in ORDERLY_RULESET_PATH; a ruleset names it in its
 *      `notation` slot.  Or list it in rulesets/builtin.c to build it in.
 *      Out of the tree, orders/text.h comes along (it includes only public
 *      headers); the orderly binary exports what it declares.
 *   6. Pin every message in a Check suite (tests/unit/check_notation_template.c
 *      is the start of one).
 *
 * This template's sheet: one line per unit, a verb and its arguments.
 *
 *     # turn 3
 *     B1: move ↑ 1/2        # a direction (required) and a fraction
 *     A1: fire @B3          # a target (required)
 *     B2: hold
 *
 * Verbs and fractions may be written in any case and are printed in lower
 * case.  Tokens: the verb is an ORD_TOK_CODE ("move", "fire", "hold"),
 * then its ORD_TOK_DIR, ORD_TOK_FRAC (num = quarters) and ORD_TOK_TARGET,
 * all in group 1.
 */
#include <stdint.h>
#include <string.h>

#include "notation.h"
#include "orders/text.h"

/* The oldest core (ORD_NOTATION_VERSION) this module works with: it uses
 * no slot or function newer than version 1. */
#define TPL_NEEDS_HOST 1

/* What a verb may take, as bits. */
#define A_DIR 1u    /* a direction */
#define A_FRAC 2u   /* a fraction of the move */
#define A_TARGET 4u /* a target */

static const struct tpl_verb {
	const char *name; /* as printed; compared ignoring case */
	unsigned takes;   /* A_DIR ... */
	unsigned needs;   /* of those, the required ones */
	const char *args; /* what it takes, for messages */
} tpl_verbs[] = {
	{ "move", A_DIR | A_FRAC, A_DIR, "a direction and a fraction" },
	{ "fire", A_TARGET, A_TARGET, "a target" },
	{ "hold", 0, 0, "nothing" },
};
/* Kept by hand in step with tpl_verbs[]: the tests compare the messages. */
#define VERBS "move fire hold"

/* The compass points ^ takes beside the English ones (^N ^NE ... ^NW) the
 * driver knows, as the key function gives them (here ASCII in lower case):
 * the names your players use, e.g. { "no", 45 } for a German ^NO. */
static const struct ord_text_compass tpl_compass[] = {
	{ NULL, 0 },
};

static const char *const tpl_frac_text[5] = { NULL, "1/4", "1/2", "3/4", "1" };

/* The state of one line (the driver hands it back in t->state). */
struct tpl_line {
	const struct tpl_verb *verb; /* NULL until the verb */
	unsigned col;                /* the verb's column */
	unsigned given;              /* arguments given, well-formed */
	unsigned tried;              /* arguments written, well-formed or not */
};

static const char *arg_name(unsigned a)
{
	return a == A_DIR ? "direction" : a == A_FRAC ? "fraction" : "target";
}

/* May the verb take this well-formed argument (t->text)?  Says why not. */
static int tpl_accept(struct ord_text *t, unsigned a, unsigned col)
{
	struct tpl_line *l = t->state;

	l->tried |= a;
	if (!l->verb) {
		ord_text_error(t, col, NULL, "%s '%s' before the verb (expected one of " VERBS ")",
			       arg_name(a), t->text.buf);
		return 0;
	}
	if (!(l->verb->takes & a)) {
		ord_text_error(t, col, NULL, "unexpected %s '%s' after '%s' (expected %s)",
			       arg_name(a), t->text.buf, l->verb->name, l->verb->args);
		return 0;
	}
	if (l->given & a) {
		ord_text_error(t, col, NULL, "second %s '%s' (expected one per order)", arg_name(a),
			       t->text.buf);
		return 0;
	}
	l->given |= a;
	return 1;
}

/* ---- the token rules: the driver calls these, in the order of a line --- */

static void tpl_begin(struct ord_text *t)
{
	memset(t->state, 0, sizeof(struct tpl_line));
}

static void tpl_dir(struct ord_text *t, int deg, unsigned col, unsigned word)
{
	if (tpl_accept(t, A_DIR, col))
		ord_text_emit_dir(t, deg, col, 1);
}

static void tpl_target(struct ord_text *t, const char *unit, unsigned col, unsigned word)
{
	if (tpl_accept(t, A_TARGET, col))
		ord_text_emit(t, ORD_TOK_TARGET, unit, 0, col, 1, NULL);
}

/* A direction or target was written but is malformed (the driver said
 * so): do not also say that the verb lacks one. */
static void tpl_malformed(struct ord_text *t, enum ord_tok_kind kind)
{
	struct tpl_line *l = t->state;

	l->tried |= kind == ORD_TOK_DIR ? A_DIR : A_TARGET;
}

/* Every other token: a fraction if it looks like a number, else a verb. */
static void tpl_token(struct ord_text *t, const struct ord_text_tok *tok, unsigned word)
{
	struct tpl_line *l = t->state;
	uint32_t cp;
	size_t i;
	int q;

	ord_utf8_decode(tok->s, tok->e, &cp);
	if (ord_text_numeric(cp)) {
		q = ord_text_fraction(t->text.buf);
		if (!q) {
			l->tried |= A_FRAC;
			ord_text_error(t, tok->col, NULL,
				       "bad fraction '%s' (expected one of 1/4 1/2 3/4 1)",
				       t->text.buf);
		} else if (tpl_accept(t, A_FRAC, tok->col)) {
			ord_text_emit(t, ORD_TOK_FRAC, tpl_frac_text[q], q, tok->col, 1, NULL);
		}
		return;
	}
	for (i = 0; i < ORD_ARRAY_SIZE(tpl_verbs); i++)
		if (ord_strcaseeq(t->text.buf, tpl_verbs[i].name))
			break;
	if (i == ORD_ARRAY_SIZE(tpl_verbs)) {
		ord_text_error(t, tok->col, NULL, "unknown word '%s' (expected one of " VERBS ")",
			       t->text.buf);
		return;
	}
	if (l->verb) {
		ord_text_error(t, tok->col, NULL, "second verb '%s' (expected one verb per order)",
			       t->text.buf);
		return;
	}
	l->verb = &tpl_verbs[i];
	l->col = tok->col;
	ord_text_emit(t, ORD_TOK_CODE, tpl_verbs[i].name, 0, tok->col, 1, NULL);
}

/* The line ends: what the verb needs and did not get. */
static void tpl_end(struct ord_text *t, unsigned nwords, unsigned col)
{
	struct tpl_line *l = t->state;
	unsigned missing;

	if (!nwords) {
		if (t->has_unit)
			ord_text_error(t, col, NULL,
				       "expected a verb after the unit (one of " VERBS ")");
		return;
	}
	if (!l->verb)
		return; /* a mistake was reported where the verb should be */
	missing = l->verb->needs & ~l->tried;
	if (missing & A_DIR)
		ord_text_error(t, l->col, NULL,
			       "'%s' needs a direction (expected " ORD_TEXT_DIRS ")", l->verb->name);
	if (missing & A_TARGET)
		ord_text_error(t, l->col, NULL, "'%s' needs a target (expected @UNIT)", l->verb->name);
}

/* ---- printing ----------------------------------------------------------- */

static void tpl_format_token(const struct ord_token *tok, struct ord_buf *out)
{
	if (tok->kind == ORD_TOK_FRAC && tok->num >= 1 && tok->num <= 4)
		ord_buf_adds(out, tpl_frac_text[tok->num]);
	else
		ord_buf_adds(out, tok->value);
}

static const struct ord_text_rules tpl_rules = {
	0,                /* joiner: none, a word is one token */
	NULL,             /* token_expected: only with a joiner */
	tpl_compass,      /* compass */
	NULL,             /* dir_expected: ORD_TEXT_DIRS, the arrows and English points */
	NULL,             /* key: ASCII in lower case */
	tpl_begin,        /* begin */
	tpl_dir,          /* dir */
	tpl_target,       /* target */
	tpl_malformed,    /* malformed */
	tpl_token,        /* token */
	tpl_end,          /* end */
	tpl_format_token, /* format_token */
};

/* ---- the notation ------------------------------------------------------- */

static int tpl_parse(struct ord_sheet *out, const char *bytes, size_t len, struct ord_diag *diag)
{
	struct tpl_line line;

	return ord_text_parse(out, bytes, len, diag, &tpl_rules, &line);
}

static void tpl_format(const struct ord_order *o, struct ord_buf *out)
{
	ord_text_format(&tpl_rules, o, out);
}

static const struct ord_notation tpl_notation = {
	ORD_NOTATION_VERSION, /* version */
	"template",           /* name */
	tpl_parse,            /* parse */
	tpl_format,           /* format */
	NULL,                 /* word_key (version 2): an event's words as written */
	NULL,                 /* word_value (version 3): no words of the sheet's */
	NULL,                 /* word_forms (version 4): none */
};

/* The entry point the core looks up after loading ord_notation_template.so
 * (src/notation.h): the module, or NULL for a core too old for it. */
const struct ord_notation *ord_notation_template_init(unsigned int host_version);
const struct ord_notation *ord_notation_template_init(unsigned int host_version)
{
	if (host_version < TPL_NEEDS_HOST)
		return NULL;
	return &tpl_notation;
}
