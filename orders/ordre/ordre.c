/*
 * ordre.c - the order symbols of Taktisk Krigsspil fra Napoleonskrigene
 * (the "ordre" notation): one line per unit, `UNIT: SYMBOLS`, where each
 * order symbol (M, SM, L, A, S, AS, FORM, ÆNDR ...) is followed by its
 * arguments: a direction, a hex, a fraction of the turn, a target, or a
 * word such as an ammunition type, a formation or a reason.  The rules'
 * printed symbol sheet (#skema.ordre) is lost; orders/ordre/README.md is
 * the sheet we designed in its place and the contract with the Krigsspil
 * ruleset; tests/unit/check_ordre.c pins every message.
 *
 * A line holds one or more commands, in the order the unit carries them
 * out.  A command is an order symbol and the arguments after it, up to the
 * next order symbol; all its tokens share one group number, so that the
 * ruleset can tell which fraction or target belongs to which symbol.
 *
 * Words are matched ignoring case, and æ ø å (also ä ö é) are folded to
 * ae oe aa (ae oe e) first, so that `LØB`, `løb` and `LOEB` are one symbol.
 * Printing gives the symbols in capitals and the words in their Danish
 * spelling.
 *
 * As in the hieroglyph notation, a sheet is read once, line by line, and
 * every line once more at most, so parsing is linear in the input; errors
 * do not stop the parse, and past MAX_LISTED_ERRORS they are only counted.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notation.h"
#include "orders/text.h"

/* What an argument is, for masks and messages. */
enum kind {
	K_DIR,       /* ↑ ^NE ^045 */
	K_FRAC,      /* ½ 1 */
	K_TARGET,    /* @B4 */
	K_HEX,       /* 0305, 3,5 */
	K_AMMO,      /* SF SG SK SS */
	K_FORMATION, /* linie ... */
	K_DENSITY,   /* tæt tynd */
	K_CHAIN,     /* tiraillørkæde */
	K_REASON,    /* rutekorrektion ... */
	K_COUNT
};
#define BIT(k) (1u << (k))

static const char *const kind_name[K_COUNT] = {
	"direction", "fraction", "target",        "hex",    "ammunition",
	"formation", "density",  "tiraillørkæde", "reason",
};

/* The arg field of an ORD_TOK_ARG token: which argument it is. */
static const char *const slot_name[K_COUNT] = {
	NULL, NULL, NULL, "hex", "ammo", "formation", "density", "chain", "reason",
};

/* Where a command may go: nowhere, a direction or a destination hex
 * (optional), or a direction (required). */
enum where { W_NONE, W_WAY, W_DIR };

/* What a command may be aimed at. */
enum aim {
	T_NONE,     /* nothing */
	T_OPT,      /* at most one @target */
	T_REQ,      /* exactly one @target */
	T_AT,       /* exactly one @target or hex */
	T_MANY,     /* any number of @targets */
	T_MANY_REQ, /* one @target or more */
};

/* Fractions a command may take, as a mask of quarters. */
#define Q(n) (1u << (n))
#define FR_MOVE (Q(1) | Q(2) | Q(3) | Q(4))
#define FR_FIRE (Q(2) | Q(4))
#define FR_HALF Q(2)

struct code_def {
	const char *code;     /* the token's value: the Danish term in ASCII */
	const char *symbol;   /* as printed */
	const char *term;     /* the Danish term, for messages */
	const char *keys[4];  /* accepted spellings, folded; NULL-ended */
	unsigned char where;  /* enum where */
	unsigned char aim;    /* enum aim */
	unsigned char fracs;  /* allowed quarters, 0: no fraction */
	unsigned short kw;    /* word arguments allowed: BIT(K_AMMO) ... */
	unsigned short kwreq; /* word arguments required */
};

/* The order symbols, in the order the README and the messages list them. */
static const struct code_def codes[] = {
	{ "march", "M", "march", { "m", "march" }, W_WAY, T_NONE, FR_MOVE, 0, 0 },
	{ "stormmarch", "SM", "stormmarch", { "sm", "stormmarch" }, W_WAY, T_NONE, FR_MOVE, 0, 0 },
	{ "loeb", "L", "løb", { "l", "loeb" }, W_WAY, T_NONE, FR_HALF, 0, 0 },
	{ "angreb", "A", "angreb", { "a", "angreb" }, W_NONE, T_REQ, 0, 0, 0 },
	{ "forsvar", "F", "forsvar", { "f", "forsvar" }, W_NONE, T_OPT, 0, 0, 0 },
	{ "modangreb", "MA", "modangreb", { "ma", "modangreb" }, W_NONE, T_OPT, 0, 0, 0 },
	{ "tilbagetog", "TT", "tilbagetog", { "tt", "tilbagetog", "retraete" }, W_WAY, T_NONE, FR_MOVE, 0, 0 },
	{ "skydning", "S", "skydning", { "s", "skyd", "skydning" }, W_NONE, T_AT, FR_FIRE, 0, 0 },
	{ "artilleriskydning",
	  "AS",
	  "artilleriskydning",
	  { "as", "artilleriskydning" },
	  W_NONE,
	  T_AT,
	  FR_FIRE,
	  BIT(K_AMMO),
	  BIT(K_AMMO) },
	{ "forsvarsskydning", "FS", "forsvarsskydning", { "fs", "forsvarsskydning" }, W_NONE, T_OPT, FR_FIRE, 0, 0 },
	{ "indskydning", "IS", "indskydning", { "is", "indskydning" }, W_NONE, T_AT, 0, 0, 0 },
	{ "koordination", "KO", "koordination", { "ko", "koordination", "koordinering" }, W_NONE, T_AT, 0, 0, 0 },
	{ "ophoer", "OPH", "ophør", { "oph", "ophoer" }, W_NONE, T_NONE, 0, 0, 0 },
	{ "afprodsning", "AP", "afprodsning", { "ap", "afprodsning" }, W_NONE, T_NONE, 0, 0, 0 },
	{ "paaprodsning", "PP", "påprodsning", { "pp", "paaprodsning" }, W_NONE, T_NONE, 0, 0, 0 },
	{ "klargoering", "KL", "klargøring", { "kl", "klargoering" }, W_NONE, T_NONE, 0, 0, 0 },
	{ "prolongering", "PR", "prolongering", { "pr", "prolongering" }, W_WAY, T_NONE, FR_MOVE, 0, 0 },
	{ "reparation", "REP", "reparation", { "rep", "reparation" }, W_NONE, T_NONE, 0, 0, 0 },
	{ "formation",
	  "FORM",
	  "formationsændring",
	  { "form", "formation" },
	  W_NONE,
	  T_NONE,
	  0,
	  BIT(K_FORMATION) | BIT(K_DENSITY) | BIT(K_CHAIN),
	  BIT(K_FORMATION) },
	{ "drej", "D", "drej", { "d", "drej" }, W_DIR, T_NONE, 0, 0, 0 },
	{ "vending", "V", "vending", { "v", "vending" }, W_DIR, T_NONE, 0, 0, 0 },
	{ "genforsyning", "GF", "genforsyning", { "gf", "genforsyning" }, W_NONE, T_OPT, 0, BIT(K_AMMO), 0 },
	{ "hvil", "H", "hvil", { "h", "hvil" }, W_NONE, T_NONE, 0, 0, 0 },
	{ "opdeling", "OD", "opdeling", { "od", "opdeling" }, W_NONE, T_MANY, 0, 0, 0 },
	{ "samling", "SA", "samling", { "sa", "samling", "sammenlaegning" }, W_NONE, T_MANY_REQ, 0, 0, 0 },
	{ "ammunitionsskift",
	  "AM",
	  "ammunitionsskift",
	  { "am", "ammunitionsskift" },
	  W_NONE,
	  T_NONE,
	  0,
	  BIT(K_AMMO),
	  BIT(K_AMMO) },
	{ "stoette", "ST", "støtte", { "st", "stoette" }, W_NONE, T_REQ, 0, 0, 0 },
	{ "ordreaendring",
	  "ÆNDR",
	  "ordreændring",
	  { "aendr", "ordreaendring", "aendring" },
	  W_NONE,
	  T_NONE,
	  0,
	  BIT(K_REASON),
	  BIT(K_REASON) },
};
#define CODE_AENDR (ORD_ARRAY_SIZE(codes) - 1)

/* A word argument: an ammunition type, a formation, a density, a reason. */
struct word_def {
	const char *value;   /* the token's value: ASCII */
	const char *display; /* as printed: the Danish spelling */
	const char *keys[4]; /* accepted spellings, folded; NULL-ended */
	unsigned char flags; /* formations: F_OPEN, F_TK */
};
#define F_OPEN 1 /* an open order: takes a density */
#define F_TK 2   /* may put out a tiraillørkæde */

static const struct word_def ammo[] = {
	{ "SF", "SF", { "sf", "fuldkugle" }, 0 },
	{ "SG", "SG", { "sg", "granat" }, 0 },
	{ "SK", "SK", { "sk", "kardaesk" }, 0 },
	{ "SS", "SS", { "ss", "shrapnel" }, 0 },
};

static const struct word_def formations[] = {
	{ "linie", "linie", { "lin", "linie", "linje" }, F_TK },
	{ "angrebskolonne", "angrebskolonne", { "ak", "angrebskolonne" }, F_TK },
	{ "marchkolonne", "marchkolonne", { "mk", "marchkolonne" }, 0 },
	{ "karre", "karré", { "kar", "karre" }, 0 },
	{ "bataillonsmasse", "bataillonsmasse", { "bm", "bataillonsmasse", "bataljonsmasse" }, 0 },
	{ "skyttekaede", "skyttekæde", { "skk", "skyttekaede" }, F_OPEN },
	{ "svaerm", "sværm", { "sv", "svaerm" }, F_OPEN },
	{ "soutien", "soutien", { "sou", "soutien" }, F_TK },
};

static const struct word_def densities[] = {
	{ "taet", "tæt", { "taet" }, 0 },
	{ "tynd", "tynd", { "tynd" }, 0 },
};

static const struct word_def chains[] = {
	{ "tirailloerkaede", "tiraillørkæde", { "tk", "tirailloerkaede" }, 0 },
};

/* The reasons of 4.2.5 for which 4.3.4 lets an order change, and a new
 * instruction. */
static const struct word_def reasons[] = {
	{ "rutekorrektion", "rutekorrektion", { "rk", "rutekorrektion" }, 0 },
	{ "trussel", "trussel", { "tr", "trussel" }, 0 },
	{ "maal", "mål", { "maal" }, 0 },
	{ "tvang", "tvang", { "tv", "tvang" }, 0 },
	{ "instruks", "instruks", { "ins", "instruks" }, 0 },
};

static const struct {
	const struct word_def *defs; /* the words of a kind */
	size_t n;                    /* how many */
} words[K_COUNT] = {
	[K_AMMO] = { ammo, ORD_ARRAY_SIZE(ammo) },
	[K_FORMATION] = { formations, ORD_ARRAY_SIZE(formations) },
	[K_DENSITY] = { densities, ORD_ARRAY_SIZE(densities) },
	[K_CHAIN] = { chains, ORD_ARRAY_SIZE(chains) },
	[K_REASON] = { reasons, ORD_ARRAY_SIZE(reasons) },
};

/* The rule an order change breaks when it is written wrong. */
#define RULE_CHANGE "4.3.4"

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

/* ^N ^NØ ...: for players who cannot type an arrow, in English or Danish
 * compass letters (Ø øst, V vest), folded like every other word. */
static const struct {
	const char *name; /* compass point, folded */
	int deg;          /* degrees clockwise */
} compass[] = {
	{ "n", 0 },     { "ne", 45 },  { "e", 90 },   { "se", 135 }, { "s", 180 },
	{ "sw", 225 },  { "w", 270 },  { "nw", 315 }, { "noe", 45 }, { "oe", 90 },
	{ "soe", 135 }, { "sv", 225 }, { "v", 270 },  { "nv", 315 },
};

#define DIR_EXPECTED "one of ↑ ↗ → ↘ ↓ ↙ ← ↖ ^N ^NØ ^Ø ^SØ ^S ^SV ^V ^NV or ^000 to ^359"
#define FRAC_EXPECTED "one of ¼ ½ ¾ 1 or 1/4 1/2 3/4"
#define HEX_EXPECTED "a hex as QQRR or Q,R, e.g. 0305 or 3,5"

static const char *const frac_text[5] = { NULL, "¼", "½", "¾", "1" };

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

/* The command being read: an order symbol and what it has had so far. */
struct cmd {
	const struct code_def *def; /* NULL: none yet, or lost */
	int lost;                   /* after an unknown symbol: skip arguments quietly */
	unsigned col;               /* column of the symbol */
	unsigned given;             /* kinds given, well-formed: BIT(K_DIR) ... */
	unsigned tried;             /* kinds written, well-formed or not */
	int formation;              /* index into formations[], -1 if none */
};

struct parser {
	struct ord_sheet *out; /* where orders go */
	struct ord_diag *diag; /* where errors go */
	unsigned line;         /* current line, 1-based */
	size_t errors;         /* errors added so far */
	struct ord_buf unit;   /* the current order's unit, as written */
	struct ord_buf text;   /* the word being classified, as written */
	struct ord_buf key;    /* the same, folded */
	struct ord_buf tmp;    /* scratch for messages and values */
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

/*
 * The folded form of s..e (valid UTF-8) into b: ASCII letters in lower
 * case; æ ä -> ae, ø ö -> oe, å -> aa, é -> e in either case; anything
 * else unchanged (and so matching nothing in the tables).
 */
static void fold(struct ord_buf *b, const unsigned char *s, const unsigned char *e)
{
	uint32_t cp;
	size_t n;

	ord_buf_reset(b);
	for (; s < e; s += n) {
		n = ord_utf8_decode(s, e, &cp);
		if (cp >= 'A' && cp <= 'Z')
			ord_buf_addch(b, (int)(cp - 'A' + 'a'));
		else if (cp == 0xC6 || cp == 0xE6 || cp == 0xC4 || cp == 0xE4)
			ord_buf_adds(b, "ae");
		else if (cp == 0xD8 || cp == 0xF8 || cp == 0xD6 || cp == 0xF6)
			ord_buf_adds(b, "oe");
		else if (cp == 0xC5 || cp == 0xE5)
			ord_buf_adds(b, "aa");
		else if (cp == 0xC9 || cp == 0xE9)
			ord_buf_addch(b, 'e');
		else
			ord_buf_add(b, s, n);
	}
}

/* The first bytes are compared here, not in strcmp: nearly every key
 * differs there, and a call per key is most of the cost of a word. */
static int keys_match(const char *const *keys, size_t nkeys, const char *key)
{
	size_t i;

	for (i = 0; i < nkeys && keys[i]; i++)
		if (keys[i][0] == key[0] && !strcmp(keys[i], key))
			return 1;
	return 0;
}

static const struct code_def *find_code(const char *key)
{
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(codes); i++)
		if (keys_match(codes[i].keys, ORD_ARRAY_SIZE(codes[i].keys), key))
			return &codes[i];
	return NULL;
}

/* The word of any kind with this folded key: its index, its kind in *kind. */
static int find_word(const char *key, enum kind *kind)
{
	size_t i;
	int k;

	for (k = K_AMMO; k < K_COUNT; k++) {
		for (i = 0; i < words[k].n; i++) {
			const struct word_def *w = &words[k].defs[i];

			if (keys_match(w->keys, ORD_ARRAY_SIZE(w->keys), key)) {
				*kind = (enum kind)k;
				return (int)i;
			}
		}
	}
	return -1;
}

/* The order symbols, or the words of a kind, as a message lists them. */
static void add_expected_codes(struct ord_buf *b)
{
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(codes); i++)
		ord_buf_addf(b, "%s%s", i ? " " : "", codes[i].symbol);
}

static void add_expected_words(struct ord_buf *b, enum kind k)
{
	size_t i;

	for (i = 0; i < words[k].n; i++)
		ord_buf_addf(b, "%s%s", i ? " " : "", words[k].defs[i].display);
}

static void syntax_error(struct parser *ps, unsigned col, const char *rule, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

static void syntax_error(struct parser *ps, unsigned col, const char *rule, const char *fmt, ...)
{
	struct ord_buf msg = ORD_BUF_INIT;
	va_list ap;

	if (++ps->errors > MAX_LISTED_ERRORS)
		return;
	va_start(ap, fmt);
	ord_buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	ord_diag_add(ps->diag, ps->line, col, ps->unit.buf, rule, "%s", msg.buf);
	ord_buf_release(&msg);
}

/* Past the cap a message is not even built: a garbage sheet costs no more
 * than a good one. */
static int listing(const struct parser *ps)
{
	return ps->errors < MAX_LISTED_ERRORS;
}

/*
 * The errors that list the order symbols: "unknown symbol 'X'", "direction
 * '↑' before any order symbol" (what and after around the word in
 * ps->text), and with what NULL "expected an order symbol after the unit".
 */
static void error_expecting_codes(struct parser *ps, unsigned col, const char *what, const char *after)
{
	if (!listing(ps)) {
		ps->errors++;
		return;
	}
	ord_buf_reset(&ps->tmp);
	add_expected_codes(&ps->tmp);
	if (what)
		syntax_error(ps, col, NULL, "%s '%s'%s (expected one of %s)", what, ps->text.buf,
			     after, ps->tmp.buf);
	else
		syntax_error(ps, col, NULL, "expected an order symbol after the unit (one of %s)",
			     ps->tmp.buf);
}

/* What a command takes, for "unexpected ..." messages. */
static void add_signature(struct ord_buf *b, const struct code_def *d)
{
	size_t before = b->len;
	int k;

#define SEP() (b->len > before ? ", " : "")
	if (d->where == W_WAY)
		ord_buf_addf(b, "%sa direction or hex", SEP());
	else if (d->where == W_DIR)
		ord_buf_addf(b, "%sa direction", SEP());
	if (d->aim == T_OPT || d->aim == T_REQ)
		ord_buf_addf(b, "%sa target", SEP());
	else if (d->aim == T_AT)
		ord_buf_addf(b, "%sa target or hex", SEP());
	else if (d->aim == T_MANY || d->aim == T_MANY_REQ)
		ord_buf_addf(b, "%stargets", SEP());
	for (k = K_AMMO; k < K_COUNT; k++)
		if (d->kw & BIT(k))
			ord_buf_addf(b, "%s%s %s", SEP(), k == K_AMMO ? "an" : "a", kind_name[k]);
	if (d->fracs)
		ord_buf_addf(b, "%sa fraction", SEP());
	if (b->len == before)
		ord_buf_adds(b, "no argument");
#undef SEP
}

static void add_fracs(struct ord_buf *b, unsigned fracs)
{
	if (fracs == FR_MOVE)
		ord_buf_adds(b, "one of ¼ ½ ¾ 1");
	else if (fracs == FR_FIRE)
		ord_buf_adds(b, "½ or 1");
	else
		ord_buf_adds(b, "½");
}

/* Add a token to o (NULL: the line has no unit, only check the syntax). */
static void emit(struct ord_order *o, enum ord_tok_kind kind, const char *value, int num,
		 unsigned col, unsigned group, const char *slot)
{
	struct ord_token *t;

	if (!o)
		return;
	t = ord_order_add_token(o, kind, value, num, col);
	t->group = group;
	if (slot)
		t->arg = ord_strdup(slot);
}

/* The kinds that fill the same place as k in command d: a direction and
 * a destination hex are one place, a target and a target hex another. */
static unsigned place_of(const struct code_def *d, enum kind k)
{
	if ((k == K_DIR || k == K_HEX) && d->where == W_WAY)
		return BIT(K_DIR) | BIT(K_HEX);
	if ((k == K_TARGET || k == K_HEX) && d->aim == T_AT)
		return BIT(K_TARGET) | BIT(K_HEX);
	return BIT(k);
}

static const char *place_name(const struct code_def *d, enum kind k)
{
	unsigned p = place_of(d, k);

	if (p == (BIT(K_DIR) | BIT(K_HEX)))
		return "direction or hex";
	if (p == (BIT(K_TARGET) | BIT(K_HEX)))
		return "target or hex";
	return kind_name[k];
}

static int takes(const struct code_def *d, enum kind k)
{
	switch (k) {
	case K_DIR: return d->where != W_NONE;
	case K_HEX: return d->where == W_WAY || d->aim == T_AT;
	case K_TARGET: return d->aim != T_NONE;
	case K_FRAC: return d->fracs != 0;
	default: return (d->kw & BIT(k)) != 0;
	}
}

/* An argument was written but is malformed: the command has it, as far as
 * "needs a ..." is concerned, so that one mistake gives one message. */
static void tried(struct cmd *c, unsigned kinds)
{
	if (c->def)
		c->tried |= kinds;
}

/*
 * May the current command take this well-formed argument (ps->text)?
 * Reports why not.  num is the fraction's quarters or the word's index.
 */
static int accept(struct parser *ps, struct cmd *c, enum kind k, int num, unsigned col)
{
	const struct code_def *d = c->def;
	const struct word_def *f;
	unsigned place;

	if (!d) {
		if (!c->lost)
			error_expecting_codes(ps, col, kind_name[k], " before any order symbol");
		return 0;
	}
	if (!takes(d, k)) {
		if (listing(ps)) {
			ord_buf_reset(&ps->tmp);
			add_signature(&ps->tmp, d);
			syntax_error(ps, col, NULL, "unexpected %s '%s' after '%s' (expected %s)",
				     kind_name[k], ps->text.buf, d->symbol, ps->tmp.buf);
		} else {
			ps->errors++;
		}
		return 0;
	}
	place = place_of(d, k);
	c->tried |= BIT(k);
	if ((c->given & place) && !(k == K_TARGET && (d->aim == T_MANY || d->aim == T_MANY_REQ))) {
		syntax_error(ps, col, k == K_REASON ? RULE_CHANGE : NULL,
			     "second %s '%s' for '%s' (expected one per order symbol)",
			     place_name(d, k), ps->text.buf, d->symbol);
		return 0;
	}
	if (k == K_FRAC && !(d->fracs & Q(num))) {
		ord_buf_reset(&ps->tmp);
		add_fracs(&ps->tmp, d->fracs);
		syntax_error(ps, col, NULL, "fraction '%s' not allowed for '%s' (expected %s)",
			     ps->text.buf, d->symbol, ps->tmp.buf);
		return 0;
	}
	if (k == K_DENSITY || k == K_CHAIN) {
		unsigned need = k == K_DENSITY ? F_OPEN : F_TK;
		const char *fits = k == K_DENSITY ? "skyttekæde or sværm"
						  : "linie, angrebskolonne or soutien";

		f = c->formation >= 0 ? &formations[c->formation] : NULL;
		if (!f) {
			syntax_error(ps, col, NULL,
				     "%s '%s' before the formation (expected %s before it)",
				     kind_name[k], ps->text.buf, fits);
			return 0;
		}
		if (!(f->flags & need)) {
			syntax_error(ps, col, NULL,
				     "%s '%s' does not go with '%s' (expected %s before it)",
				     kind_name[k], ps->text.buf, f->display, fits);
			return 0;
		}
	}
	if (k == K_FORMATION)
		c->formation = num;
	c->given |= BIT(k);
	return 1;
}

/* The command c ends: does it have what it needs? */
static void close_cmd(struct parser *ps, struct cmd *c)
{
	const struct code_def *d = c->def;
	int k;

	if (!d)
		return;
	if (d->where == W_DIR && !(c->tried & BIT(K_DIR)))
		syntax_error(ps, c->col, NULL,
			     "'%s' (%s) needs a direction (expected " DIR_EXPECTED ")", d->symbol,
			     d->term);
	if ((d->aim == T_REQ || d->aim == T_MANY_REQ) && !(c->tried & BIT(K_TARGET)))
		syntax_error(ps, c->col, NULL, "'%s' (%s) needs a target (expected @UNIT)",
			     d->symbol, d->term);
	if (d->aim == T_AT && !(c->tried & (BIT(K_TARGET) | BIT(K_HEX))))
		syntax_error(ps, c->col, NULL,
			     "'%s' (%s) needs a target (expected @UNIT or " HEX_EXPECTED ")",
			     d->symbol, d->term);
	for (k = K_AMMO; k < K_COUNT; k++) {
		if (!(d->kwreq & BIT(k)) || (c->tried & BIT(k)))
			continue;
		if (!listing(ps)) {
			ps->errors++;
			continue;
		}
		ord_buf_reset(&ps->tmp);
		add_expected_words(&ps->tmp, (enum kind)k);
		syntax_error(ps, c->col, k == K_REASON ? RULE_CHANGE : NULL,
			     "'%s' (%s) needs %s %s (expected one of %s)", d->symbol, d->term,
			     k == K_AMMO ? "an" : "a",
			     k == K_AMMO ? "ammunition type" : kind_name[k], ps->tmp.buf);
	}
}

static void add_dir(struct parser *ps, struct ord_order *o, struct cmd *c, int deg, unsigned col,
		    unsigned group)
{
	char tmp[8];

	if (!accept(ps, c, K_DIR, deg, col))
		return;
	if (deg % 45 == 0) {
		emit(o, ORD_TOK_DIR, arrow_text[deg / 45], deg, col, group, NULL);
	} else {
		snprintf(tmp, sizeof(tmp), "^%03d", deg);
		emit(o, ORD_TOK_DIR, tmp, deg, col, group, NULL);
	}
}

/* ^N ... ^NV or ^DDD; ps->text holds the word. */
static void parse_caret(struct parser *ps, struct ord_order *o, struct cmd *c, unsigned col,
			unsigned group)
{
	const char *d = ps->text.buf + 1;
	size_t i;

	if (strlen(d) == 3 && d[0] >= '0' && d[0] <= '9' && d[1] >= '0' && d[1] <= '9' &&
	    d[2] >= '0' && d[2] <= '9') {
		int deg = (d[0] - '0') * 100 + (d[1] - '0') * 10 + (d[2] - '0');

		if (deg >= 360) {
			syntax_error(ps, col, NULL,
				     "direction '%s' out of range (expected ^000 to ^359)",
				     ps->text.buf);
			tried(c, BIT(K_DIR));
			return;
		}
		add_dir(ps, o, c, deg, col, group);
		return;
	}
	fold(&ps->key, (const unsigned char *)d, (const unsigned char *)d + strlen(d));
	for (i = 0; i < ORD_ARRAY_SIZE(compass); i++) {
		if (!strcmp(ps->key.buf, compass[i].name)) {
			add_dir(ps, o, c, compass[i].deg, col, group);
			return;
		}
	}
	syntax_error(ps, col, NULL, "bad direction '%s' (expected " DIR_EXPECTED ")", ps->text.buf);
	tried(c, BIT(K_DIR));
}

/* A word starting with an arrow: the arrow alone, perhaps followed by the
 * variation selector phones add to ask for the emoji form. */
static void parse_arrow(struct parser *ps, struct ord_order *o, struct cmd *c, const unsigned char *s,
			const unsigned char *e, unsigned col, int deg, size_t n, unsigned group)
{
	const unsigned char *q = s + n;
	uint32_t cp;

	if (q < e && ord_utf8_decode(q, e, &cp) == 3 && (cp == 0xFE0E || cp == 0xFE0F))
		q += 3;
	if (q != e) {
		syntax_error(ps, col, NULL, "bad direction '%s' (expected " DIR_EXPECTED ")",
			     ps->text.buf);
		tried(c, BIT(K_DIR));
		return;
	}
	add_dir(ps, o, c, deg, col, group);
}

/* Digits (at most 4) with an optional '-': the number, or -1. */
static int hex_number(const char **p)
{
	const char *s = *p;
	int neg = 0, v = 0, n = 0;

	if (*s == '-')
		neg = 1, s++;
	while (*s >= '0' && *s <= '9' && n < 5)
		v = v * 10 + (*s++ - '0'), n++;
	if (!n || n > 4)
		return INT32_MIN;
	*p = s;
	return neg ? -v : v;
}

/* 0305 or 3,5 or -2,7: the hex (q, r) in axial coordinates; 0 if it is one. */
static int parse_hex(const char *t, int *q, int *r)
{
	size_t len = strlen(t);

	if (len == 4 && t[0] >= '0' && t[0] <= '9' && t[1] >= '0' && t[1] <= '9' && t[2] >= '0' &&
	    t[2] <= '9' && t[3] >= '0' && t[3] <= '9') {
		*q = (t[0] - '0') * 10 + (t[1] - '0');
		*r = (t[2] - '0') * 10 + (t[3] - '0');
		return 0;
	}
	*q = hex_number(&t);
	if (*q == INT32_MIN || *t++ != ',')
		return -1;
	*r = hex_number(&t);
	if (*r == INT32_MIN || *t)
		return -1;
	return 0;
}

/* "q,r": by hand, since snprintf would be the most costly step of a hex. */
static void hex_value(char *out, int q, int r)
{
	char digits[8];
	int v, k, pass;

	for (pass = 0; pass < 2; pass++) {
		v = pass ? r : q;
		if (pass)
			*out++ = ',';
		if (v < 0)
			*out++ = '-', v = -v;
		k = 0;
		do
			digits[k++] = (char)('0' + v % 10);
		while ((v /= 10));
		while (k)
			*out++ = digits[--k];
	}
	*out = '\0';
}

/* A word that starts like a number: a fraction or a hex. */
static void parse_number(struct parser *ps, struct ord_order *o, struct cmd *c, unsigned col,
			 unsigned group)
{
	const char *t = ps->text.buf;
	char value[32];
	size_t i;
	int q, r;

	for (i = 0; i < ORD_ARRAY_SIZE(fractions); i++) {
		if (t[0] == fractions[i].text[0] && !strcmp(t, fractions[i].text)) {
			int n = fractions[i].quarters;

			if (accept(ps, c, K_FRAC, n, col))
				emit(o, ORD_TOK_FRAC, frac_text[n], n, col, group, NULL);
			return;
		}
	}
	if (!parse_hex(t, &q, &r)) {
		hex_value(value, q, r);
		if (accept(ps, c, K_HEX, 0, col))
			emit(o, ORD_TOK_ARG, value, 0, col, group, slot_name[K_HEX]);
		return;
	}
	/* say what it looks most like it was meant to be */
	for (i = 0; t[i]; i++)
		if (t[i] == '/' || (unsigned char)t[i] >= 0x80)
			break;
	if (t[i]) {
		syntax_error(ps, col, NULL, "bad fraction '%s' (expected " FRAC_EXPECTED ")", t);
		tried(c, BIT(K_FRAC));
	} else if (strchr(t, ',') || t[0] == '-' || strlen(t) >= 3) {
		syntax_error(ps, col, NULL, "bad hex '%s' (expected " HEX_EXPECTED ")", t);
		tried(c, BIT(K_HEX));
	} else {
		syntax_error(ps, col, NULL,
			     "bad fraction or hex '%s' (expected " FRAC_EXPECTED
			     ", or " HEX_EXPECTED ")",
			     t);
		tried(c, BIT(K_FRAC) | BIT(K_HEX));
	}
}

/* @UNIT or @"UNIT WITH SPACES", the word s..e; unterminated: no closing
 * quote on the line.  The value is the unit, trimmed. */
static void parse_target(struct parser *ps, struct ord_order *o, struct cmd *c, const unsigned char *s,
			 const unsigned char *e, unsigned col, int unterminated, unsigned group)
{
	const unsigned char *vs = s + 1, *ve = e;
	unsigned vcol = col + 1;

	if (unterminated) {
		syntax_error(ps, col + 1, NULL,
			     "unterminated quote in '%s' (expected a closing '\"')", ps->text.buf);
		tried(c, BIT(K_TARGET));
		return;
	}
	if (vs < ve && *vs == '"') {
		/* the scan of the word stopped at the first quote after this one */
		const unsigned char *cq = memchr(vs + 1, '"', (size_t)(ve - vs - 1));

		if (cq + 1 != ve) {
			syntax_error(ps, col + ord_utf8_count(s, cq + 1), NULL,
				     "text after the closing quote in '%s' (expected a space)",
				     ps->text.buf);
			tried(c, BIT(K_TARGET));
			return;
		}
		vs++, vcol++;
		ve = cq;
	}
	skip_spaces(&vs, ve, &vcol);
	ve = trim_end(vs, ve);
	if (vs == ve) {
		syntax_error(ps, col, NULL, "empty target '%s' (expected a unit after '@')",
			     ps->text.buf);
		tried(c, BIT(K_TARGET));
		return;
	}
	if (!accept(ps, c, K_TARGET, 0, col))
		return;
	set_text(&ps->tmp, vs, ve);
	emit(o, ORD_TOK_TARGET, ps->tmp.buf, 0, col, group, NULL);
}

/* A word of letters: an order symbol (which opens a command) or a word
 * argument of the current command. */
static void parse_word(struct parser *ps, struct ord_order *o, struct cmd *c, unsigned col,
		       unsigned *group, int *aendr)
{
	const struct code_def *d;
	enum kind k;
	int i;

	d = find_code(ps->key.buf);
	if (d) {
		close_cmd(ps, c);
		memset(c, 0, sizeof(*c));
		c->formation = -1;
		if (d == &codes[CODE_AENDR]) {
			if (*aendr) {
				syntax_error(ps, col, RULE_CHANGE,
					     "second '%s' (%s) on the line (expected one order "
					     "change per unit)",
					     d->symbol, d->term);
				c->lost = 1;
				return;
			}
			*aendr = 1;
		}
		c->def = d;
		c->col = col;
		emit(o, ORD_TOK_CODE, d->code, 0, col, ++*group, NULL);
		return;
	}
	i = find_word(ps->key.buf, &k);
	if (i >= 0) {
		if (accept(ps, c, k, i, col))
			emit(o, ORD_TOK_ARG, words[k].defs[i].value, 0, col, *group, slot_name[k]);
		return;
	}
	/* an unknown word where the command still needs a word is a misspelt
	 * one of those; anywhere else it is a misspelt order symbol */
	if (c->def) {
		for (k = K_AMMO; k < K_COUNT; k = (enum kind)(k + 1)) {
			if (!(c->def->kwreq & BIT(k)) || (c->tried & BIT(k)))
				continue;
			c->tried |= BIT(k);
			if (!listing(ps)) {
				ps->errors++;
				return;
			}
			ord_buf_reset(&ps->tmp);
			add_expected_words(&ps->tmp, k);
			syntax_error(ps, col, k == K_REASON ? RULE_CHANGE : NULL,
				     "unknown %s '%s' (expected one of %s)", kind_name[k],
				     ps->text.buf, ps->tmp.buf);
			return;
		}
	}
	close_cmd(ps, c);
	error_expecting_codes(ps, col, "unknown symbol", "");
	memset(c, 0, sizeof(*c));
	c->formation = -1;
	c->lost = 1;
}

/* Decide what the word s..e is by its first character. */
static void parse_elem(struct parser *ps, struct ord_order *o, struct cmd *c,
		       const unsigned char *s, const unsigned char *e, unsigned col,
		       int unterminated, unsigned *group, int *aendr)
{
	uint32_t cp;
	size_t n, i;

	set_text(&ps->text, s, e);
	n = ord_utf8_decode(s, e, &cp);
	if (cp == '@') {
		parse_target(ps, o, c, s, e, col, unterminated, *group);
		return;
	}
	if (cp == '^') {
		parse_caret(ps, o, c, col, *group);
		return;
	}
	for (i = 0; i < ORD_ARRAY_SIZE(arrows); i++) {
		if (cp == arrows[i].cp) {
			parse_arrow(ps, o, c, s, e, col, arrows[i].deg, n, *group);
			return;
		}
	}
	/* anything that looks like a number is a (perhaps wrong) fraction or hex */
	if ((cp >= '0' && cp <= '9') || cp == '-' || (cp >= 0xBC && cp <= 0xBE) ||
	    (cp >= 0x2150 && cp <= 0x215F) || cp == 0x2189) {
		parse_number(ps, o, c, col, *group);
		return;
	}
	fold(&ps->key, s, e);
	parse_word(ps, o, c, col, group, aendr);
}

/* The commands of one order, from s to end (the comment cut off). */
static void parse_tokens(struct parser *ps, struct ord_order *o, const unsigned char *s,
			 const unsigned char *end, unsigned col)
{
	struct cmd c;
	unsigned group = 0, tcol = col, words_seen = 0;
	int aendr = 0;
	uint32_t cp;

	memset(&c, 0, sizeof(c));
	c.formation = -1;
	for (;;) {
		const unsigned char *ws;
		unsigned wcol;
		int unterminated = 0;

		skip_spaces(&s, end, &col);
		if (s >= end)
			break;
		ws = s;
		wcol = col;
		words_seen++;
		/* a quoted target may hold spaces; with no closing quote it takes
		 * the rest of the line */
		if (end - s >= 2 && s[0] == '@' && s[1] == '"') {
			const unsigned char *cq = memchr(s + 2, '"', (size_t)(end - s - 2));

			if (!cq) {
				col += ord_utf8_count(s, end);
				s = end;
				unterminated = 1;
			} else {
				col += ord_utf8_count(s, cq + 1);
				s = cq + 1;
			}
		}
		while (s < end && !ord_text_space_at(s, end)) {
			s += ord_utf8_decode(s, end, &cp);
			col++;
		}
		parse_elem(ps, o, &c, ws, s, wcol, unterminated, &group, &aendr);
	}
	close_cmd(ps, &c);
	if (c.def == &codes[CODE_AENDR])
		syntax_error(ps, c.col, RULE_CHANGE,
			     "'%s' (%s) needs the new order after it (expected an order symbol "
			     "after the reason)",
			     c.def->symbol, c.def->term);
	if (!words_seen && o) {
		ord_buf_reset(&ps->text);
		error_expecting_codes(ps, tcol, NULL, NULL);
	}
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
			syntax_error(ps, col, NULL,
				     "invalid UTF-8 byte 0x%02x (expected UTF-8 text)", *q);
			return;
		}
		if ((cp < 0x20 && cp != '\t') || cp == 0x7F) {
			syntax_error(ps, col, NULL,
				     "unexpected control character U+%04X (expected text)",
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
		syntax_error(ps, ucol, NULL, "expected a unit before ':'");
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
	ord_buf_init(&ps.key);
	ord_buf_init(&ps.tmp);
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
	ord_buf_release(&ps.key);
	ord_buf_release(&ps.tmp);
	return err;
}

/* A target must be quoted when it holds a space, which would end it. */
static int needs_quotes(const char *v)
{
	const unsigned char *s = (const unsigned char *)v, *end = s + strlen(v);

	for (; s < end; s++)
		if (ord_text_space_at(s, end))
			return 1;
	return 0;
}

/* The display form of a word argument, or NULL. */
static const char *word_display(const char *slot, const char *value)
{
	size_t i;
	int k;

	for (k = K_AMMO; k < K_COUNT; k++) {
		if (strcmp(slot, slot_name[k]))
			continue;
		for (i = 0; i < words[k].n; i++)
			if (ord_strcaseeq(value, words[k].defs[i].value))
				return words[k].defs[i].display;
	}
	return NULL;
}

static void format_arg(const struct ord_token *t, struct ord_buf *out)
{
	const char *disp;
	int q, r;

	if (t->arg && !strcmp(t->arg, slot_name[K_HEX]) && !parse_hex(t->value, &q, &r)) {
		if (q >= 0 && q <= 99 && r >= 0 && r <= 99)
			ord_buf_addf(out, "%02d%02d", q, r);
		else
			ord_buf_addf(out, "%d,%d", q, r);
		return;
	}
	disp = t->arg ? word_display(t->arg, t->value) : NULL;
	ord_buf_adds(out, disp ? disp : t->value);
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
			if (ord_strcaseeq(t->value, codes[i].code)) {
				ord_buf_adds(out, codes[i].symbol);
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
	case ORD_TOK_ARG: format_arg(t, out); return;
	}
	ord_buf_adds(out, t->value);
}

static void format(const struct ord_order *o, struct ord_buf *out)
{
	size_t i;

	ord_buf_adds(out, o->unit ? o->unit : "");
	ord_buf_addch(out, ':');
	for (i = 0; i < o->ntok; i++) {
		ord_buf_addch(out, ' ');
		format_token(&o->tok[i], out);
	}
}

const struct ord_notation ord_notation_ordre = {
	/* version */ ORD_NOTATION_VERSION,
	/* name */ "ordre",
	/* parse */ parse,
	/* format */ format,
};
