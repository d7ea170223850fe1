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
 * The sheet is read by the notations' driver (orders/text.h): lines, units,
 * words, directions, targets and the errors' line:col are its; this file
 * gives the rest of the token rules: the symbols, their arguments and what
 * each symbol takes.
 */
#include <stdint.h>
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
	unsigned char flags; /* formations: F_OPEN, F_TK; densities: F_DENSE */
};
#define F_OPEN 1  /* an open order: takes a density */
#define F_TK 2    /* may put out a tiraillørkæde */
#define F_DENSE 4 /* the density of an open order that states none (11) */

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

/* 11: "Ved tvivlsspørgsmål regnes enheden altid at være i den tætteste
 * formation": a chain or swarm written with no density is dense, F_DENSE
 * (word_value says so; the ruleset reads a sheet's FORM by word_value) */
static const struct word_def densities[] = {
	{ "taet", "tæt", { "taet" }, F_DENSE },
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

/* ^NØ ^SV ...: for players who cannot type an arrow, the Danish compass
 * letters (Ø øst, V vest) beside the English ones the driver knows, folded
 * like every other word. */
static const struct ord_text_compass compass_da[] = {
	{ "noe", 45 }, { "oe", 90 },  { "soe", 135 }, { "sv", 225 },
	{ "v", 270 },  { "nv", 315 }, { NULL, 0 },
};

/* the points with their ASCII forms (Ø as OE, the README's table), and
 * the English ones every notation takes: what a player without the
 * arrows or an Ø on his keyboard can type */
#define DIR_EXPECTED                                                                                         \
	"one of ↑ ↗ → ↘ ↓ ↙ ← ↖ ^N ^NØ ^Ø ^SØ ^S ^SV ^V ^NV (in ASCII ^NOE ^OE ^SOE, or " \
	"^NE ^E ^SE ^SW ^W ^NW) or ^000 to ^359"
#define FRAC_EXPECTED "one of ¼ ½ ¾ 1 or 1/4 1/2 3/4"
#define HEX_EXPECTED "a hex as QQRR or Q,R, e.g. 0305 or 3,5"

static const char *const frac_text[5] = { NULL, "¼", "½", "¾", "1" };

/* The command being read: an order symbol and what it has had so far. */
struct cmd {
	const struct code_def *def; /* NULL: none yet, or lost */
	int lost;                   /* after an unknown symbol: skip arguments quietly */
	unsigned col;               /* column of the symbol */
	unsigned given;             /* kinds given, well-formed: BIT(K_DIR) ... */
	unsigned tried;             /* kinds written, well-formed or not */
	int formation;              /* index into formations[], -1 if none */
};

/* The notation's state in one parse (the driver's t->state). */
struct parser {
	struct cmd c;       /* the command being read */
	unsigned group;     /* the group of the line's last command */
	int aendr;          /* the line has had its ÆNDR */
	struct ord_buf key; /* the word being classified, folded */
	struct ord_buf tmp; /* scratch for messages and values */
};

/*
 * The folded form of s..e (valid UTF-8) into b: ASCII letters in lower
 * case; æ ä -> ae, ø ö -> oe, å -> aa, é -> e in either case; anything
 * else unchanged (and so matching nothing in the tables).  The
 * notation's word_key too: an event's word values are matched by it, the
 * sheet's spellings (notation.h).
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

/*
 * "Did you mean": the nearest spelling to a misspelt folded key, by the
 * core's ord_edit_distance within ord_words_hint's reach (one edit under
 * 6 letters, two above).  An entry (a symbol, a word) is as near as the
 * nearest of its spellings; none is named when two entries are as near
 * ("SX": SF, SG, SK and SS alike), which would be a guess.
 */
struct nearest {
	size_t max;  /* the reach */
	size_t best; /* the nearest distance so far, max + 1: none */
	int pick;    /* its entry, -1: none */
	int tie;     /* another entry is as near */
};

static void nearest_init(struct nearest *n, const char *key)
{
	n->max = strlen(key) < 6 ? 1 : 2;
	n->best = n->max + 1;
	n->pick = -1;
	n->tie = 0;
}

static void nearest_add(struct nearest *n, int entry, const char *const *keys, size_t nkeys,
			const char *key)
{
	size_t i, d, least = n->max + 1;

	for (i = 0; i < nkeys && keys[i]; i++)
		if ((d = ord_edit_distance(key, keys[i], n->max)) < least)
			least = d;
	if (least > n->max || least > n->best)
		return;
	n->tie = least == n->best && n->pick >= 0;
	n->best = least;
	n->pick = entry;
}

/* ": did you mean 'karré'?" for the word of kind k nearest to key. */
static void add_word_hint(struct ord_buf *b, enum kind k, const char *key)
{
	struct nearest n;
	size_t i;

	nearest_init(&n, key);
	for (i = 0; i < words[k].n; i++)
		nearest_add(&n, (int)i, words[k].defs[i].keys,
			    ORD_ARRAY_SIZE(words[k].defs[i].keys), key);
	if (n.pick >= 0 && !n.tie)
		ord_buf_addf(b, ": did you mean '%s'?", words[k].defs[n.pick].display);
}

/* ": did you mean 'S' (skydning)?" for the order symbol nearest to key. */
static void add_code_hint(struct ord_buf *b, const char *key)
{
	struct nearest n;
	size_t i;

	nearest_init(&n, key);
	for (i = 0; i < ORD_ARRAY_SIZE(codes); i++)
		nearest_add(&n, (int)i, codes[i].keys, ORD_ARRAY_SIZE(codes[i].keys), key);
	if (n.pick >= 0 && !n.tie)
		ord_buf_addf(b, ": did you mean '%s' (%s)?", codes[n.pick].symbol, codes[n.pick].term);
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

/*
 * The errors that list the order symbols: "unknown symbol 'X'", "direction
 * '↑' before any order symbol" (what and after around the word in
 * t->text), and with what NULL "expected an order symbol after the unit";
 * misspelt: the word was no symbol, name the nearest ("did you mean").
 * Past the cap a message is not even built: a garbage sheet costs no more
 * than a good one.
 */
static void error_expecting_codes(struct ord_text *t, unsigned col, const char *what,
				  const char *after, int misspelt)
{
	struct parser *ps = t->state;
	struct ord_buf hint = ORD_BUF_INIT;

	if (!ord_text_listing(t)) {
		ord_text_count_error(t);
		return;
	}
	ord_buf_reset(&ps->tmp);
	add_expected_codes(&ps->tmp);
	if (misspelt)
		add_code_hint(&hint, ps->key.buf);
	if (what)
		ord_text_error(t, col, NULL, "%s '%s'%s (expected one of %s)%s", what, t->text.buf,
			       after, ps->tmp.buf, hint.len ? hint.buf : "");
	else
		ord_text_error(t, col, NULL, "expected an order symbol after the unit (one of %s)",
			       ps->tmp.buf);
	ord_buf_release(&hint);
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
 * May the current command take this well-formed argument (t->text)?
 * Reports why not.  num is the fraction's quarters or the word's index.
 */
static int accept(struct ord_text *t, struct cmd *c, enum kind k, int num, unsigned col)
{
	struct parser *ps = t->state;
	const struct code_def *d = c->def;
	const struct word_def *f;
	unsigned place;

	if (!d) {
		if (!c->lost)
			error_expecting_codes(t, col, kind_name[k], " before any order symbol", 0);
		return 0;
	}
	if (!takes(d, k)) {
		if (ord_text_listing(t)) {
			ord_buf_reset(&ps->tmp);
			add_signature(&ps->tmp, d);
			ord_text_error(t, col, NULL, "unexpected %s '%s' after '%s' (expected %s)",
				       kind_name[k], t->text.buf, d->symbol, ps->tmp.buf);
		} else {
			ord_text_count_error(t);
		}
		return 0;
	}
	place = place_of(d, k);
	c->tried |= BIT(k);
	if ((c->given & place) && !(k == K_TARGET && (d->aim == T_MANY || d->aim == T_MANY_REQ))) {
		ord_text_error(t, col, k == K_REASON ? RULE_CHANGE : NULL,
			       "second %s '%s' for '%s' (expected one per order symbol)",
			       place_name(d, k), t->text.buf, d->symbol);
		return 0;
	}
	if (k == K_FRAC && !(d->fracs & Q(num))) {
		ord_buf_reset(&ps->tmp);
		add_fracs(&ps->tmp, d->fracs);
		ord_text_error(t, col, NULL, "fraction '%s' not allowed for '%s' (expected %s)",
			       t->text.buf, d->symbol, ps->tmp.buf);
		return 0;
	}
	if (k == K_DENSITY || k == K_CHAIN) {
		unsigned need = k == K_DENSITY ? F_OPEN : F_TK;
		const char *fits = k == K_DENSITY ? "skyttekæde or sværm"
						  : "linie, angrebskolonne or soutien";

		f = c->formation >= 0 ? &formations[c->formation] : NULL;
		if (!f) {
			ord_text_error(t, col, NULL,
				       "%s '%s' before the formation (expected %s before it)",
				       kind_name[k], t->text.buf, fits);
			return 0;
		}
		if (!(f->flags & need)) {
			ord_text_error(t, col, NULL,
				       "%s '%s' does not go with '%s' (expected %s before it)",
				       kind_name[k], t->text.buf, f->display, fits);
			return 0;
		}
	}
	if (k == K_FORMATION)
		c->formation = num;
	c->given |= BIT(k);
	return 1;
}

/* The command c ends: does it have what it needs? */
static void close_cmd(struct ord_text *t, struct cmd *c)
{
	struct parser *ps = t->state;
	const struct code_def *d = c->def;
	int k;

	if (!d)
		return;
	if (d->where == W_DIR && !(c->tried & BIT(K_DIR)))
		ord_text_error(t, c->col, NULL,
			       "'%s' (%s) needs a direction (expected " DIR_EXPECTED ")", d->symbol,
			       d->term);
	if ((d->aim == T_REQ || d->aim == T_MANY_REQ) && !(c->tried & BIT(K_TARGET)))
		ord_text_error(t, c->col, NULL, "'%s' (%s) needs a target (expected @UNIT)",
			       d->symbol, d->term);
	if (d->aim == T_AT && !(c->tried & (BIT(K_TARGET) | BIT(K_HEX))))
		ord_text_error(t, c->col, NULL,
			       "'%s' (%s) needs a target (expected @UNIT or " HEX_EXPECTED ")",
			       d->symbol, d->term);
	for (k = K_AMMO; k < K_COUNT; k++) {
		if (!(d->kwreq & BIT(k)) || (c->tried & BIT(k)))
			continue;
		if (!ord_text_listing(t)) {
			ord_text_count_error(t);
			continue;
		}
		ord_buf_reset(&ps->tmp);
		add_expected_words(&ps->tmp, (enum kind)k);
		ord_text_error(t, c->col, k == K_REASON ? RULE_CHANGE : NULL,
			       "'%s' (%s) needs %s %s (expected one of %s)", d->symbol, d->term,
			       k == K_AMMO ? "an" : "a",
			       k == K_AMMO ? "ammunition type" : kind_name[k], ps->tmp.buf);
	}
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

/* A word that starts like a number: a fraction or a hex.  A dash that a
 * word processor wrote for the minus of a hex ("–2,7") is a minus. */
static void parse_number(struct ord_text *t, struct cmd *c, unsigned col, unsigned group)
{
	struct parser *ps = t->state;
	const unsigned char *s = (const unsigned char *)t->text.buf, *end = s + t->text.len;
	const char *w;
	char value[32];
	size_t i, n_dash;
	int n, q, r;

	ord_buf_reset(&ps->key);
	for (; s < end; s += n_dash ? n_dash : 1) {
		n_dash = ord_text_dash_at(s, end);
		ord_buf_addch(&ps->key, n_dash ? '-' : *s);
	}
	w = ps->key.buf;

	if ((n = ord_text_fraction(w)) != 0) {
		if (accept(t, c, K_FRAC, n, col))
			ord_text_emit(t, ORD_TOK_FRAC, frac_text[n], n, col, group, NULL);
		return;
	}
	if (!parse_hex(w, &q, &r)) {
		hex_value(value, q, r);
		if (accept(t, c, K_HEX, 0, col))
			ord_text_emit(t, ORD_TOK_ARG, value, 0, col, group, slot_name[K_HEX]);
		return;
	}
	/* say what it looks most like it was meant to be */
	for (i = 0; w[i]; i++)
		if (w[i] == '/' || (unsigned char)w[i] >= 0x80)
			break;
	if (w[i]) {
		ord_text_error(t, col, NULL, "bad fraction '%s' (expected " FRAC_EXPECTED ")",
			       t->text.buf);
		tried(c, BIT(K_FRAC));
	} else if (strchr(w, ',') || w[0] == '-' || strlen(w) >= 3) {
		ord_text_error(t, col, NULL, "bad hex '%s' (expected " HEX_EXPECTED ")", t->text.buf);
		tried(c, BIT(K_HEX));
	} else {
		ord_text_error(t, col, NULL,
			       "bad fraction or hex '%s' (expected " FRAC_EXPECTED
			       ", or " HEX_EXPECTED ")",
			       t->text.buf);
		tried(c, BIT(K_FRAC) | BIT(K_HEX));
	}
}

/* A word of letters: an order symbol (which opens a command) or a word
 * argument of the current command. */
static void parse_word(struct ord_text *t, struct cmd *c, unsigned col)
{
	struct parser *ps = t->state;
	const struct code_def *d;
	enum kind k;
	int i;

	d = find_code(ps->key.buf);
	if (d) {
		close_cmd(t, c);
		memset(c, 0, sizeof(*c));
		c->formation = -1;
		if (d == &codes[CODE_AENDR]) {
			if (ps->aendr) {
				ord_text_error(t, col, RULE_CHANGE,
					       "second '%s' (%s) on the line (expected one order "
					       "change per unit)",
					       d->symbol, d->term);
				c->lost = 1;
				return;
			}
			ps->aendr = 1;
		}
		c->def = d;
		c->col = col;
		ord_text_emit(t, ORD_TOK_CODE, d->code, 0, col, ++ps->group, NULL);
		return;
	}
	i = find_word(ps->key.buf, &k);
	if (i >= 0) {
		if (accept(t, c, k, i, col))
			ord_text_emit(t, ORD_TOK_ARG, words[k].defs[i].value, 0, col, ps->group,
				      slot_name[k]);
		return;
	}
	/* an unknown word where the command still needs a word is a misspelt
	 * one of those; anywhere else it is a misspelt order symbol */
	if (c->def) {
		for (k = K_AMMO; k < K_COUNT; k = (enum kind)(k + 1)) {
			if (!(c->def->kwreq & BIT(k)) || (c->tried & BIT(k)))
				continue;
			c->tried |= BIT(k);
			if (!ord_text_listing(t)) {
				ord_text_count_error(t);
				return;
			}
			ord_buf_reset(&ps->tmp);
			add_expected_words(&ps->tmp, k);
			{
				struct ord_buf hint = ORD_BUF_INIT;
				add_word_hint(&hint, k, ps->key.buf);
				ord_text_error(t, col, k == K_REASON ? RULE_CHANGE : NULL,
					       "unknown %s '%s' (expected one of %s)%s", kind_name[k],
					       t->text.buf, ps->tmp.buf, hint.len ? hint.buf : "");
				ord_buf_release(&hint);
			}
			return;
		}
	}
	close_cmd(t, c);
	error_expecting_codes(t, col, "unknown symbol", "", 1);
	memset(c, 0, sizeof(*c));
	c->formation = -1;
	c->lost = 1;
}

/* ---- the slots of the driver ------------------------------------------- */

static void ks_begin(struct ord_text *t)
{
	struct parser *ps = t->state;

	memset(&ps->c, 0, sizeof(ps->c));
	ps->c.formation = -1;
	ps->group = 0;
	ps->aendr = 0;
}

static void ks_dir(struct ord_text *t, int deg, unsigned col, unsigned word)
{
	struct parser *ps = t->state;

	if (accept(t, &ps->c, K_DIR, deg, col))
		ord_text_emit_dir(t, deg, col, ps->group);
}

static void ks_target(struct ord_text *t, const char *unit, unsigned col, unsigned word)
{
	struct parser *ps = t->state;

	if (accept(t, &ps->c, K_TARGET, 0, col))
		ord_text_emit(t, ORD_TOK_TARGET, unit, 0, col, ps->group, NULL);
}

static void ks_malformed(struct ord_text *t, enum ord_tok_kind kind)
{
	struct parser *ps = t->state;

	tried(&ps->c, BIT(kind == ORD_TOK_DIR ? K_DIR : K_TARGET));
}

/* What looks like a number is a (perhaps wrong) fraction or hex; the rest
 * are words: symbols and word arguments. */
static void ks_token(struct ord_text *t, const struct ord_text_tok *tok, unsigned word)
{
	struct parser *ps = t->state;
	uint32_t cp;

	ord_utf8_decode(tok->s, tok->e, &cp);
	if (ord_text_numeric(cp) || cp == '-' || ord_text_dash_at(tok->s, tok->e)) {
		parse_number(t, &ps->c, tok->col, ps->group);
		return;
	}
	fold(&ps->key, tok->s, tok->e);
	parse_word(t, &ps->c, tok->col);
}

static void ks_end(struct ord_text *t, unsigned nwords, unsigned col)
{
	struct parser *ps = t->state;

	close_cmd(t, &ps->c);
	if (ps->c.def == &codes[CODE_AENDR])
		ord_text_error(t, ps->c.col, RULE_CHANGE,
			       "'%s' (%s) needs the new order after it (expected an order symbol "
			       "after the reason)",
			       ps->c.def->symbol, ps->c.def->term);
	if (!nwords && t->has_unit)
		error_expecting_codes(t, col, NULL, NULL, 0);
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

static void ks_format_token(const struct ord_token *t, struct ord_buf *out)
{
	size_t i;

	switch (t->kind) {
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
		break;
	case ORD_TOK_ARG: format_arg(t, out); return;
	default: break;
	}
	ord_buf_adds(out, t->value);
}

static const struct ord_text_rules rules = {
	/* joiner */ 0,
	/* token_expected */ NULL,
	/* compass */ compass_da,
	/* dir_expected */ DIR_EXPECTED,
	/* key */ fold,
	/* begin */ ks_begin,
	/* dir */ ks_dir,
	/* target */ ks_target,
	/* malformed */ ks_malformed,
	/* token */ ks_token,
	/* end */ ks_end,
	/* format_token */ ks_format_token,
};

/* The density an open order has when it states none (F_DENSE), or NULL. */
static const char *density_unstated(void)
{
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(densities); i++)
		if (densities[i].flags & F_DENSE)
			return densities[i].value;
	return NULL;
}

/*
 * The notation's word_value (notation.h): each word of written (apart by
 * spaces or '_') read as parse_word reads a word of the sheet, by its
 * fold, first as an order symbol (its code), then as a word argument (its
 * value), the values joined by '_': "kar" karre, "skyttekæde tæt"
 * skyttekaede_taet, "TT" tilbagetog, "kardæsk" SK.  An open order with no
 * density after it is given the one the sheet means by none (F_DENSE:
 * "skk" skyttekaede_taet, as FORM skk is a dense chain).  A fraction of
 * the turn written alone is given as the text driver's first spelling of
 * it, in ASCII ("½" 1/2, "4/4" 1: an event's tid=).  The same tables as
 * the sheet's, no copy; written is valid UTF-8 (the core's word_key reads
 * no other either).
 */
static int word_value(struct ord_buf *out, const char *written)
{
	struct ord_buf key = ORD_BUF_INIT;
	const unsigned char *s = (const unsigned char *)written, *e;
	const struct code_def *d;
	const char *value, *dense = density_unstated();
	enum kind k;
	int i = 0, n = 0, ok = 1, open = 0;

	ord_buf_reset(out);
	for (;;) {
		while (*s == ' ' || *s == '_')
			s++;
		if (!*s)
			break;
		for (e = s; *e && *e != ' ' && *e != '_'; e++)
			;
		fold(&key, s, e);
		k = K_COUNT;
		if ((d = find_code(key.buf)) != NULL) {
			value = d->code;
		} else if ((i = find_word(key.buf, &k)) >= 0) {
			value = words[k].defs[i].value;
		} else if (!n && !e[strspn((const char *)e, " _")] &&
			   (value = ord_text_fraction_ascii(ord_text_fraction(key.buf))) != NULL) {
			/* a fraction of the turn alone, as the sheet reads
			 * one ("½", "4/4"), in ASCII as an event's list of
			 * quarters writes it ("1/2", "1") */
		} else {
			ok = 0;
			break;
		}
		if (open && k != K_DENSITY && dense)
			ord_buf_addf(out, "_%s", dense);
		open = k == K_FORMATION && (words[k].defs[i].flags & F_OPEN);
		if (n++)
			ord_buf_addch(out, '_');
		ord_buf_adds(out, value);
		s = e;
	}
	if (ok && open && dense)
		ord_buf_addf(out, "_%s", dense);
	ord_buf_release(&key);
	return ok && n > 0;
}

/* The notation's word_forms (notation.h): every spelling word_value
 * reads, the symbols' and the word arguments' (their tables' folded
 * keys: "kar", "karre", "skk", "tt", "kardaesk"), for the core's "did
 * you mean" of a word that is none ("kra": 'kar' (karre)). */
static void word_forms(struct ord_buf *out)
{
	size_t i, j;
	int k;

	for (i = 0; i < ORD_ARRAY_SIZE(codes); i++)
		for (j = 0; j < ORD_ARRAY_SIZE(codes[i].keys) && codes[i].keys[j]; j++)
			ord_words_add(out, " ", codes[i].keys[j]);
	for (k = K_AMMO; k < K_COUNT; k++)
		for (i = 0; i < words[k].n; i++)
			for (j = 0;
			     j < ORD_ARRAY_SIZE(words[k].defs[i].keys) && words[k].defs[i].keys[j]; j++)
				ord_words_add(out, " ", words[k].defs[i].keys[j]);
}

static int parse(struct ord_sheet *out, const char *bytes, size_t len, struct ord_diag *diag)
{
	struct parser ps;
	int err;

	memset(&ps, 0, sizeof(ps));
	ord_buf_init(&ps.key);
	ord_buf_init(&ps.tmp);
	err = ord_text_parse(out, bytes, len, diag, &rules, &ps);
	ord_buf_release(&ps.key);
	ord_buf_release(&ps.tmp);
	return err;
}

static void format(const struct ord_order *o, struct ord_buf *out)
{
	ord_text_format(&rules, o, out);
}

const struct ord_notation ord_notation_ordre = {
	/* version */ ORD_NOTATION_VERSION,
	/* name */ "ordre",
	/* parse */ parse,
	/* format */ format,
	/* word_key */ fold,
	/* word_value */ word_value,
	/* word_forms */ word_forms,
};
