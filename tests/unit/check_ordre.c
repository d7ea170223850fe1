/*
 * check_ordre.c - the ordre notation of Taktisk Krigsspil: what every
 * symbol parses to (the token conventions the Krigsspil ruleset relies on,
 * see orders/ordre/README.md), æ/ø/å and their ASCII forms, the canonical
 * form and its round trip, and every syntax error with its exact line:col.
 * Cases are tables so that a mistake found in a real sheet becomes one
 * more row.
 */
#include <check.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/common.h"
#include "notation.h"

extern const struct ord_notation ord_notation_ordre;

#define SHEET_NOTATION ord_notation_ordre
#include "sheet_fixture.h"

/*
 * An order's tokens as one line: "code:march#1 dir:↗=45#1 frac:½=2#1
 * target:B2#2 hex:3,5#3" - the kind (or an ARG's slot), the value, the
 * number for directions and fractions, the group; "@col" too if cols.
 * Checks on the way what the README promises: no number on other kinds,
 * an arg only on ARG tokens, which always have one.
 */
static void dump(const struct ord_order *o, int cols, struct ord_buf *b)
{
	static const char *const kinds[] = { "?", "dir", "frac", "code", "target", "arg" };
	size_t i;

	for (i = 0; i < o->ntok; i++) {
		const struct ord_token *t = &o->tok[i];

		ck_assert_int_ge(t->kind, ORD_TOK_DIR);
		ck_assert_int_le(t->kind, ORD_TOK_ARG);
		if (i)
			ord_buf_addch(b, ' ');
		if (t->kind == ORD_TOK_ARG) {
			ck_assert_ptr_nonnull(t->arg);
			ord_buf_addf(b, "%s:%s", t->arg, t->value);
		} else {
			ck_assert_ptr_null(t->arg);
			ord_buf_addf(b, "%s:%s", kinds[t->kind], t->value);
		}
		if (t->kind == ORD_TOK_DIR || t->kind == ORD_TOK_FRAC)
			ord_buf_addf(b, "=%d", t->num);
		else
			ck_assert_int_eq(t->num, 0);
		ord_buf_addf(b, "#%u", t->group);
		if (cols)
			ord_buf_addf(b, "@%u", t->col);
	}
}

static void assert_dump(size_t i, int cols, const char *expected)
{
	struct ord_buf b = ORD_BUF_INIT;

	ck_assert_uint_gt(sheet.n, i);
	dump(&sheet.orders[i], cols, &b);
	ck_assert_str_eq(b.buf, expected);
	ord_buf_release(&b);
}

static void assert_diag(size_t i, unsigned line, unsigned col, const char *unit, const char *rule,
			const char *msg)
{
	ck_assert_uint_gt(diag.n, i);
	ck_assert_uint_eq(diag.items[i].line, line);
	ck_assert_uint_eq(diag.items[i].col, col);
	ck_assert_str_eq(diag.items[i].unit, unit);
	ck_assert_str_eq(diag.items[i].msg, msg);
	ck_assert_str_eq(diag.items[i].rule, rule);
}

/* ---- the interface ----------------------------------------------------- */

/* A byte order mark inside a line separates like a space (orders/text.c),
 * so a unit written after one is named without it, as the hieroglyph
 * parser does since fuzzing found the round trip losing it. */
START_TEST(test_bom_inside_line)
{
	assert_clean(parse("B1: M ↑\n\xEF\xBB\xBF"
			   "A1: M ↓ \xEF\xBB\xBF"
			   "½\n"));
	ck_assert_uint_eq(sheet.n, 2);
	assert_order(1, "A1", 2, 2, 3);
}
END_TEST

START_TEST(test_registered)
{
	const struct ord_notation *n = NULL;

	ck_assert_int_eq(ord_notation_find(&n, "ordre"), 0);
	ck_assert_ptr_eq(n, &ord_notation_ordre);
	ck_assert_uint_eq(ord_notation_ordre.version, ORD_NOTATION_VERSION);
	ck_assert_str_eq(ord_notation_ordre.name, "ordre");
	/* the other notation is still there */
	ck_assert_int_eq(ord_notation_find(&n, "hieroglyph"), 0);
	ck_assert_ptr_nonnull(n);
	ck_assert_int_eq(ord_notation_find(&n, "Ordre"), ORD_ENOTFOUND);
	ck_assert_ptr_null(n);
}
END_TEST

/* The sheet's folding of its words, which the core reads an event's
 * words by (notation.h, word_key): case, æ ø å ä ö é */
static const char *word_key(const char *w)
{
	static char out[64];
	struct ord_buf b = ORD_BUF_INIT;

	ord_notation_ordre.word_key(&b, (const unsigned char *)w, (const unsigned char *)w + strlen(w));
	snprintf(out, sizeof(out), "%s", b.buf);
	ord_buf_release(&b);
	return out;
}

START_TEST(test_word_key)
{
	const struct ord_notation *n = NULL;

	ck_assert(ORD_NOTATION_HAS(&ord_notation_ordre, 2));
	ck_assert_ptr_nonnull(ord_notation_ordre.word_key);
	ck_assert_str_eq(word_key("karré"), "karre");
	ck_assert_str_eq(word_key("KARRÉ"), "karre");
	ck_assert_str_eq(word_key("KARRE"), "karre");
	ck_assert_str_eq(word_key("Skyttekæde_Tæt"), "skyttekaede_taet");
	ck_assert_str_eq(word_key("SVÆRM_TYND"), "svaerm_tynd");
	ck_assert_str_eq(word_key("påprodsning"), "paaprodsning");
	ck_assert_str_eq(word_key("Ø"), "oe");
	ck_assert_str_eq(word_key("ä ö"), "ae oe");
	/* the hieroglyph's words are read as written */
	ck_assert_int_eq(ord_notation_find(&n, "hieroglyph"), 0);
	ck_assert_ptr_null(n->word_key);
}
END_TEST

/* What the sheet reads a word (or words) of an event as (notation.h,
 * word_value): its tables' values, "-" when it is none of the sheet's */
static const char *word_value(const char *w)
{
	static char out[64];
	struct ord_buf b = ORD_BUF_INIT;

	if (ord_notation_ordre.word_value(&b, w))
		snprintf(out, sizeof(out), "%s", b.buf);
	else
		snprintf(out, sizeof(out), "-");
	ord_buf_release(&b);
	return out;
}

START_TEST(test_word_value)
{
	const struct ord_notation *n = NULL;

	ck_assert(ORD_NOTATION_HAS(&ord_notation_ordre, 3));
	ck_assert_ptr_nonnull(ord_notation_ordre.word_value);
	/* the word tables' spellings, as FORM, AS and ÆNDR read them */
	ck_assert_str_eq(word_value("kar"), "karre");
	ck_assert_str_eq(word_value("KAR"), "karre");
	ck_assert_str_eq(word_value("karré"), "karre");
	ck_assert_str_eq(word_value("LIN"), "linie");
	ck_assert_str_eq(word_value("linje"), "linie");
	ck_assert_str_eq(word_value("ak"), "angrebskolonne");
	ck_assert_str_eq(word_value("BATALJONSMASSE"), "bataillonsmasse");
	ck_assert_str_eq(word_value("kardæsk"), "SK");
	ck_assert_str_eq(word_value("Fuldkugle"), "SF");
	ck_assert_str_eq(word_value("sk"), "SK");
	ck_assert_str_eq(word_value("mål"), "maal");
	ck_assert_str_eq(word_value("TK"), "tirailloerkaede");
	/* the symbols', their codes */
	ck_assert_str_eq(word_value("TT"), "tilbagetog");
	ck_assert_str_eq(word_value("retræte"), "tilbagetog");
	ck_assert_str_eq(word_value("ma"), "modangreb");
	ck_assert_str_eq(word_value("F"), "forsvar");
	/* words of two, apart by a space or '_', joined by '_' */
	ck_assert_str_eq(word_value("skyttekæde tæt"), "skyttekaede_taet");
	ck_assert_str_eq(word_value("SKK TYND"), "skyttekaede_tynd");
	ck_assert_str_eq(word_value("sv_taet"), "svaerm_taet");
	ck_assert_str_eq(word_value("  sværm   tynd "), "svaerm_tynd");
	/* an open order with no density is dense, as the sheet's FORM skk
	 * is (11: in doubt, the densest formation), from the table */
	ck_assert_str_eq(word_value("skk"), "skyttekaede_taet");
	ck_assert_str_eq(word_value("Skyttekæde"), "skyttekaede_taet");
	ck_assert_str_eq(word_value("SV"), "svaerm_taet");
	ck_assert_str_eq(word_value("tæt skk"), "taet_skyttekaede_taet");
	ck_assert_str_eq(word_value("kar"), "karre");
	/* none of the sheet's: no value */
	ck_assert_str_eq(word_value("firkant"), "-");
	ck_assert_str_eq(word_value("kar firkant"), "-");
	ck_assert_str_eq(word_value(""), "-");
	ck_assert_str_eq(word_value(" _ "), "-");
	ck_assert_str_eq(word_value("hob"), "-");
	/* a fraction of the turn alone, as the sheet reads one, in ASCII;
	 * no other number */
	ck_assert_str_eq(word_value("½"), "1/2");
	ck_assert_str_eq(word_value("¼"), "1/4");
	ck_assert_str_eq(word_value(" ¾ "), "3/4");
	ck_assert_str_eq(word_value("1/2"), "1/2");
	ck_assert_str_eq(word_value("4/4"), "1");
	ck_assert_str_eq(word_value("1"), "1");
	ck_assert_str_eq(word_value("1½"), "-");
	ck_assert_str_eq(word_value("0.5"), "-");
	ck_assert_str_eq(word_value("2/4"), "-");
	ck_assert_str_eq(word_value("kar ½"), "-");
	ck_assert_str_eq(word_value("½ kar"), "-");
	/* the hieroglyph's words are none */
	ck_assert_int_eq(ord_notation_find(&n, "hieroglyph"), 0);
	ck_assert_ptr_null(n->word_value);
	ck_assert_ptr_null(n->word_forms);
}
END_TEST

/* The spellings word_value reads (word_forms), each one word as the
 * tables write it, for the core's "did you mean": the short forms, the
 * long ones and the symbols' too; each read by word_value */
START_TEST(test_word_forms)
{
	struct ord_buf forms = ORD_BUF_INIT, v = ORD_BUF_INIT;
	const char *p, *w;
	size_t len;

	ck_assert(ORD_NOTATION_HAS(&ord_notation_ordre, 4));
	ck_assert_ptr_nonnull(ord_notation_ordre.word_forms);
	ord_notation_ordre.word_forms(&forms);
	ck_assert(ord_words_has(forms.buf, "kar"));
	ck_assert(ord_words_has(forms.buf, "karre"));
	ck_assert(ord_words_has(forms.buf, "skk"));
	ck_assert(ord_words_has(forms.buf, "sv"));
	ck_assert(ord_words_has(forms.buf, "kardaesk"));
	ck_assert(ord_words_has(forms.buf, "tt"));
	ck_assert(ord_words_has(forms.buf, "retraete"));
	ck_assert(!ord_words_has(forms.buf, "hob"));
	for (p = forms.buf; (w = ord_words_next(&p, &len)) != NULL;) {
		char word[64];

		ck_assert_uint_lt(len, sizeof(word));
		memcpy(word, w, len);
		word[len] = 0;
		ck_assert_msg(ord_notation_ordre.word_value(&v, word), "%s", word);
	}
	ord_buf_release(&forms);
	ord_buf_release(&v);
}
END_TEST

START_TEST(test_empty_sheets)
{
	assert_clean(parse(""));
	assert_clean(parse("\n\n   \n\t\n"));
	assert_clean(parse("# kun kommentarer\n  # indrykket\n#\n"));
	ck_assert_uint_eq(sheet.n, 0);
	assert_clean(parse_n(NULL, 0));
	ck_assert_uint_eq(sheet.n, 0);
}
END_TEST

/* ---- every symbol ------------------------------------------------------ */

/* The orders of one line (after "B1: "), and what they parse to. */
static const struct {
	const char *orders;
	const char *tokens;
} symbol_cases[] = {
	/* march: a direction or a destination, a fraction */
	{ "M", "code:march#1" },
	{ "M ↗ 1", "code:march#1 dir:↗=45#1 frac:1=4#1" },
	{ "M 0305 ½", "code:march#1 hex:3,5#1 frac:½=2#1" },
	{ "M ½ 3,5", "code:march#1 frac:½=2#1 hex:3,5#1" },
	{ "M 03,05 ¼", "code:march#1 hex:3,5#1 frac:¼=1#1" },
	{ "M -2,7 ¾", "code:march#1 hex:-2,7#1 frac:¾=3#1" },
	{ "M 1234,-9999", "code:march#1 hex:1234,-9999#1" },
	{ "M 0000", "code:march#1 hex:0,0#1" },
	{ "MARCH ^010", "code:march#1 dir:^010=10#1" },
	{ "SM ↑ ½", "code:stormmarch#1 dir:↑=0#1 frac:½=2#1" },
	{ "stormmarch 0406", "code:stormmarch#1 hex:4,6#1" },
	{ "L ↑", "code:loeb#1 dir:↑=0#1" },
	{ "L ↑ ½", "code:loeb#1 dir:↑=0#1 frac:½=2#1" },
	{ "L 0506", "code:loeb#1 hex:5,6#1" },
	/* attack, defence and the defensive reactions */
	{ "A @B3", "code:angreb#1 target:B3#1" },
	{ "ANGREB @\"2. Bat. Mecklenburg\"", "code:angreb#1 target:2. Bat. Mecklenburg#1" },
	{ "F", "code:forsvar#1" },
	{ "F @H2", "code:forsvar#1 target:H2#1" },
	{ "forsvar", "code:forsvar#1" },
	{ "MA", "code:modangreb#1" },
	{ "MA @H2", "code:modangreb#1 target:H2#1" },
	{ "TT", "code:tilbagetog#1" },
	{ "TT ↓ ½", "code:tilbagetog#1 dir:↓=180#1 frac:½=2#1" },
	{ "tilbagetog 0102 1", "code:tilbagetog#1 hex:1,2#1 frac:1=4#1" },
	{ "RETRÆTE ↓", "code:tilbagetog#1 dir:↓=180#1" },
	{ "retraete ↓", "code:tilbagetog#1 dir:↓=180#1" },
	/* small-arms fire */
	{ "S @B2", "code:skydning#1 target:B2#1" },
	{ "S @B2 ½", "code:skydning#1 target:B2#1 frac:½=2#1" },
	{ "S 1 @B2", "code:skydning#1 frac:1=4#1 target:B2#1" },
	{ "SKYD 0406 1/2", "code:skydning#1 hex:4,6#1 frac:½=2#1" },
	{ "skydning @B2 4/4", "code:skydning#1 target:B2#1 frac:1=4#1" },
	/* artillery fire with each ammunition, in symbols and in words */
	{ "AS SF @B4", "code:artilleriskydning#1 ammo:SF#1 target:B4#1" },
	{ "AS SG @B4 ½", "code:artilleriskydning#1 ammo:SG#1 target:B4#1 frac:½=2#1" },
	{ "AS SK @B4 1", "code:artilleriskydning#1 ammo:SK#1 target:B4#1 frac:1=4#1" },
	{ "AS SS 0406", "code:artilleriskydning#1 ammo:SS#1 hex:4,6#1" },
	{ "as sk @B4", "code:artilleriskydning#1 ammo:SK#1 target:B4#1" },
	{ "AS @B4 fuldkugle", "code:artilleriskydning#1 target:B4#1 ammo:SF#1" },
	{ "AS GRANAT @B4", "code:artilleriskydning#1 ammo:SG#1 target:B4#1" },
	{ "AS KARDÆSK @B4", "code:artilleriskydning#1 ammo:SK#1 target:B4#1" },
	{ "AS kardaesk @B4", "code:artilleriskydning#1 ammo:SK#1 target:B4#1" },
	{ "ARTILLERISKYDNING Shrapnel @B4", "code:artilleriskydning#1 ammo:SS#1 target:B4#1" },
	{ "FS", "code:forsvarsskydning#1" },
	{ "FS @H2 ½", "code:forsvarsskydning#1 target:H2#1 frac:½=2#1" },
	{ "forsvarsskydning 1", "code:forsvarsskydning#1 frac:1=4#1" },
	{ "IS @Kirken", "code:indskydning#1 target:Kirken#1" },
	{ "indskydning 0406", "code:indskydning#1 hex:4,6#1" },
	{ "KO @Kirken", "code:koordination#1 target:Kirken#1" },
	{ "KOORDINERING 0406", "code:koordination#1 hex:4,6#1" },
	{ "koordination @B4", "code:koordination#1 target:B4#1" },
	{ "OPH", "code:ophoer#1" },
	{ "OPHØR", "code:ophoer#1" },
	{ "ophoer", "code:ophoer#1" },
	/* handling the guns */
	{ "AP", "code:afprodsning#1" },
	{ "afprodsning", "code:afprodsning#1" },
	{ "PP", "code:paaprodsning#1" },
	{ "PÅPRODSNING", "code:paaprodsning#1" },
	{ "påprodsning", "code:paaprodsning#1" },
	{ "paaprodsning", "code:paaprodsning#1" },
	{ "KL", "code:klargoering#1" },
	{ "KLARGØRING", "code:klargoering#1" },
	{ "klargoering", "code:klargoering#1" },
	{ "PR ↓ ½", "code:prolongering#1 dir:↓=180#1 frac:½=2#1" },
	{ "prolongering", "code:prolongering#1" },
	{ "REP", "code:reparation#1" },
	{ "reparation", "code:reparation#1" },
	/* formations */
	{ "FORM LIN", "code:formation#1 formation:linie#1" },
	{ "FORM linie", "code:formation#1 formation:linie#1" },
	{ "FORM LINJE", "code:formation#1 formation:linie#1" },
	{ "FORM AK", "code:formation#1 formation:angrebskolonne#1" },
	{ "FORM angrebskolonne", "code:formation#1 formation:angrebskolonne#1" },
	{ "FORM MK", "code:formation#1 formation:marchkolonne#1" },
	{ "FORMATION marchkolonne", "code:formation#1 formation:marchkolonne#1" },
	{ "FORM KAR", "code:formation#1 formation:karre#1" },
	{ "FORM karré", "code:formation#1 formation:karre#1" },
	{ "FORM KARRÉ", "code:formation#1 formation:karre#1" },
	{ "FORM karre", "code:formation#1 formation:karre#1" },
	{ "FORM BM", "code:formation#1 formation:bataillonsmasse#1" },
	{ "FORM bataillonsmasse", "code:formation#1 formation:bataillonsmasse#1" },
	{ "FORM BATALJONSMASSE", "code:formation#1 formation:bataillonsmasse#1" },
	{ "FORM SKK", "code:formation#1 formation:skyttekaede#1" },
	{ "FORM skyttekæde tæt", "code:formation#1 formation:skyttekaede#1 density:taet#1" },
	{ "FORM SKYTTEKAEDE TYND", "code:formation#1 formation:skyttekaede#1 density:tynd#1" },
	{ "FORM SV", "code:formation#1 formation:svaerm#1" },
	{ "FORM SVÆRM taet", "code:formation#1 formation:svaerm#1 density:taet#1" },
	{ "FORM svaerm tynd", "code:formation#1 formation:svaerm#1 density:tynd#1" },
	{ "FORM SOU", "code:formation#1 formation:soutien#1" },
	{ "FORM soutien TK", "code:formation#1 formation:soutien#1 chain:tirailloerkaede#1" },
	{ "FORM LIN TK", "code:formation#1 formation:linie#1 chain:tirailloerkaede#1" },
	{ "FORM AK tiraillørkæde",
	  "code:formation#1 formation:angrebskolonne#1 chain:tirailloerkaede#1" },
	{ "FORM linie TIRAILLOERKAEDE", "code:formation#1 formation:linie#1 chain:tirailloerkaede#1" },
	/* front changes */
	{ "D ↗", "code:drej#1 dir:↗=45#1" },
	{ "DREJ ^SV", "code:drej#1 dir:↙=225#1" },
	{ "V ↓", "code:vending#1 dir:↓=180#1" },
	{ "vending ^Ø", "code:vending#1 dir:→=90#1" },
	/* the rest */
	{ "GF", "code:genforsyning#1" },
	{ "GF @Ammunitionsvogn", "code:genforsyning#1 target:Ammunitionsvogn#1" },
	{ "GF SK @Vogn", "code:genforsyning#1 ammo:SK#1 target:Vogn#1" },
	{ "genforsyning granat", "code:genforsyning#1 ammo:SG#1" },
	{ "H", "code:hvil#1" },
	{ "HVIL", "code:hvil#1" },
	{ "OD", "code:opdeling#1" },
	{ "OD @\"1. Komp\" @\"2. Komp\"", "code:opdeling#1 target:1. Komp#1 target:2. Komp#1" },
	{ "opdeling @K1", "code:opdeling#1 target:K1#1" },
	{ "SA @B2", "code:samling#1 target:B2#1" },
	{ "SA @B2 @B3 @B4", "code:samling#1 target:B2#1 target:B3#1 target:B4#1" },
	{ "SAMMENLÆGNING @B2", "code:samling#1 target:B2#1" },
	{ "sammenlaegning @B2", "code:samling#1 target:B2#1" },
	{ "AM SG", "code:ammunitionsskift#1 ammo:SG#1" },
	{ "ammunitionsskift SF", "code:ammunitionsskift#1 ammo:SF#1" },
	{ "ST @B1", "code:stoette#1 target:B1#1" },
	{ "STØTTE @B1", "code:stoette#1 target:B1#1" },
	{ "stoette @B1", "code:stoette#1 target:B1#1" },
	/* the order change with each reason */
	{ "ÆNDR rutekorrektion M 0607", "code:ordreaendring#1 reason:rutekorrektion#1 "
					"code:march#2 hex:6,7#2" },
	{ "ÆNDR RK M ←", "code:ordreaendring#1 reason:rutekorrektion#1 code:march#2 dir:←=270#2" },
	{ "ÆNDR trussel F", "code:ordreaendring#1 reason:trussel#1 code:forsvar#2" },
	{ "ÆNDR TR F", "code:ordreaendring#1 reason:trussel#1 code:forsvar#2" },
	{ "ÆNDR mål S @B2", "code:ordreaendring#1 reason:maal#1 code:skydning#2 target:B2#2" },
	{ "ÆNDR MÅL A @B2", "code:ordreaendring#1 reason:maal#1 code:angreb#2 target:B2#2" },
	{ "aendr maal S @B2", "code:ordreaendring#1 reason:maal#1 code:skydning#2 target:B2#2" },
	{ "ÆNDR tvang TT ↓", "code:ordreaendring#1 reason:tvang#1 code:tilbagetog#2 dir:↓=180#2" },
	{ "ÆNDR TV TT", "code:ordreaendring#1 reason:tvang#1 code:tilbagetog#2" },
	{ "ÆNDR instruks M ↑ 1", "code:ordreaendring#1 reason:instruks#1 code:march#2 dir:↑=0#2 "
				 "frac:1=4#2" },
	{ "ÆNDR INS H", "code:ordreaendring#1 reason:instruks#1 code:hvil#2" },
	{ "AENDR trussel F", "code:ordreaendring#1 reason:trussel#1 code:forsvar#2" },
	{ "ORDREÆNDRING trussel F", "code:ordreaendring#1 reason:trussel#1 code:forsvar#2" },
	{ "ordreaendring trussel F", "code:ordreaendring#1 reason:trussel#1 code:forsvar#2" },
	{ "ÆNDRING trussel F", "code:ordreaendring#1 reason:trussel#1 code:forsvar#2" },
	{ "M ↑ 1 ÆNDR trussel FORM karré", "code:march#1 dir:↑=0#1 frac:1=4#1 "
					   "code:ordreaendring#2 reason:trussel#2 "
					   "code:formation#3 formation:karre#3" },
	{ "ÆNDR trussel OPH F", "code:ordreaendring#1 reason:trussel#1 code:ophoer#2 "
				"code:forsvar#3" },
	/* several orders in sequence, a symbol repeated */
	{ "M ↑ ½ S @B2 ½", "code:march#1 dir:↑=0#1 frac:½=2#1 code:skydning#2 target:B2#2 "
			   "frac:½=2#2" },
	{ "M ↑ ½ M → ½", "code:march#1 dir:↑=0#1 frac:½=2#1 code:march#2 dir:→=90#2 "
			 "frac:½=2#2" },
	{ "PP SM → ½ AP KL", "code:paaprodsning#1 code:stormmarch#2 dir:→=90#2 frac:½=2#2 "
			     "code:afprodsning#3 code:klargoering#4" },
	{ "L ↑ A @B3", "code:loeb#1 dir:↑=0#1 code:angreb#2 target:B3#2" },
};

START_TEST(test_symbols)
{
	struct ord_buf b = ORD_BUF_INIT;

	ord_buf_addf(&b, "B1: %s\n", symbol_cases[_i].orders);
	assert_clean(parse(b.buf));
	ck_assert_uint_eq(sheet.n, 1);
	ck_assert_str_eq(sheet.orders[0].unit, "B1");
	assert_dump(0, 0, symbol_cases[_i].tokens);
	ord_buf_release(&b);
}
END_TEST

START_TEST(test_case_and_letters)
{
	/* every spelling of a Danish letter reads the same: æ Æ ae AE Ae, ø ...,
	 * å ..., and the German/Swedish ä ö of some keyboards */
	static const char *const loeb[] = { "L",    "l",    "løb",  "LØB", "Løb",
					    "loeb", "LOEB", "LoEb", "löb", "LÖB" };
	static const char *const aendr[] = { "ÆNDR",  "ændr",  "Ændr", "AENDR",
					     "aendr", "AeNdR", "ÄNDR", "ändr" };
	static const char *const paa[] = { "PP",          "pp",           "PÅPRODSNING",
					   "påprodsning", "PAAPRODSNING", "paaprodsning",
					   "PåProdsning" };
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(loeb); i++) {
		struct ord_buf b = ORD_BUF_INIT;

		ord_buf_addf(&b, "B1 %s ↑\nB2 %s trussel F\n", loeb[i],
			     aendr[i % ORD_ARRAY_SIZE(aendr)]);
		ord_buf_addf(&b, "A1 %s\n", paa[i % ORD_ARRAY_SIZE(paa)]);
		assert_clean(parse(b.buf));
		ck_assert_uint_eq(sheet.n, 3);
		ck_assert_str_eq(sheet.orders[0].tok[0].value, "loeb");
		ck_assert_str_eq(sheet.orders[1].tok[0].value, "ordreaendring");
		ck_assert_str_eq(sheet.orders[2].tok[0].value, "paaprodsning");
		ord_sheet_release(&sheet);
		ord_buf_release(&b);
	}
	/* the arguments too; the unit and targets stay as written */
	assert_clean(parse("Slesvigske Jægere: form SKYTTEKÆDE TÆT m ^nø\n"
			   "SLESVIGSKE JÆGERE: FORM Skyttekaede Taet M ^NOE\n"
			   "b3 s @Bæk\n"));
	ck_assert_uint_eq(sheet.n, 3);
	assert_order(0, "Slesvigske Jægere", 1, 1, 5);
	assert_dump(0, 0,
		    "code:formation#1 formation:skyttekaede#1 density:taet#1 "
		    "code:march#2 dir:↗=45#2");
	assert_order(1, "SLESVIGSKE JÆGERE", 2, 1, 5);
	assert_dump(1, 0,
		    "code:formation#1 formation:skyttekaede#1 density:taet#1 "
		    "code:march#2 dir:↗=45#2");
	assert_dump(2, 0, "code:skydning#1 target:Bæk#1");
}
END_TEST

START_TEST(test_directions)
{
	static const struct {
		const char *text, *value;
		int deg;
	} cases[] = {
		{ "↑", "↑", 0 },
		{ "↗", "↗", 45 },
		{ "→", "→", 90 },
		{ "↘", "↘", 135 },
		{ "↓", "↓", 180 },
		{ "↙", "↙", 225 },
		{ "←", "←", 270 },
		{ "↖", "↖", 315 },
		{ "^N", "↑", 0 },
		{ "^NØ", "↗", 45 },
		{ "^nø", "↗", 45 },
		{ "^NOE", "↗", 45 },
		{ "^NE", "↗", 45 },
		{ "^Ø", "→", 90 },
		{ "^oe", "→", 90 },
		{ "^E", "→", 90 },
		{ "^SØ", "↘", 135 },
		{ "^SOE", "↘", 135 },
		{ "^se", "↘", 135 },
		{ "^S", "↓", 180 },
		{ "^SV", "↙", 225 },
		{ "^SW", "↙", 225 },
		{ "^V", "←", 270 },
		{ "^w", "←", 270 },
		{ "^NV", "↖", 315 },
		{ "^nw", "↖", 315 },
		{ "^000", "↑", 0 },
		{ "^045", "↗", 45 },
		{ "^010", "^010", 10 },
		{ "^359", "^359", 359 },
		{ "^001", "^001", 1 },
		{ "^270", "←", 270 },
		/* phone keyboards: emoji arrows, with and without the selector */
		{ "\u2B06\uFE0F", "↑", 0 },
		{ "\u27A1", "→", 90 },
		{ "\u2B07\uFE0E", "↓", 180 },
		{ "\u2B05", "←", 270 },
		{ "\u2197\uFE0F", "↗", 45 },
	};
	struct ord_buf b = ORD_BUF_INIT;
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(cases); i++)
		ord_buf_addf(&b, "U: M %s\n", cases[i].text);
	assert_clean(parse(b.buf));
	ck_assert_uint_eq(sheet.n, ORD_ARRAY_SIZE(cases));
	for (i = 0; i < ORD_ARRAY_SIZE(cases); i++) {
		const struct ord_token *t = &sheet.orders[i].tok[1];

		ck_assert_uint_eq(sheet.orders[i].ntok, 2);
		ck_assert_int_eq(t->kind, ORD_TOK_DIR);
		ck_assert_str_eq(t->value, cases[i].value);
		ck_assert_int_eq(t->num, cases[i].deg);
		ck_assert_uint_eq(t->col, 6);
		ck_assert_uint_eq(t->group, 1);
	}
	ord_buf_release(&b);
}
END_TEST

START_TEST(test_fractions)
{
	static const struct {
		const char *text, *value;
		int quarters;
	} cases[] = {
		{ "1/4", "¼", 1 }, { "1/2", "½", 2 }, { "3/4", "¾", 3 }, { "1", "1", 4 },
		{ "4/4", "1", 4 }, { "¼", "¼", 1 },   { "½", "½", 2 },   { "¾", "¾", 3 },
	};
	struct ord_buf b = ORD_BUF_INIT;
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(cases); i++)
		ord_buf_addf(&b, "B%zu: M %s\n", i, cases[i].text);
	assert_clean(parse(b.buf));
	ck_assert_uint_eq(sheet.n, ORD_ARRAY_SIZE(cases));
	for (i = 0; i < ORD_ARRAY_SIZE(cases); i++) {
		const struct ord_token *t = &sheet.orders[i].tok[1];

		ck_assert_int_eq(t->kind, ORD_TOK_FRAC);
		ck_assert_str_eq(t->value, cases[i].value);
		ck_assert_int_eq(t->num, cases[i].quarters);
		ck_assert_uint_eq(t->col, 7);
	}
	ord_buf_release(&b);
}
END_TEST

START_TEST(test_columns_and_groups)
{
	assert_clean(parse("B1: M ↗ ½ S @B2 ½\n"
			   "  Slesvigske Jægere :  FORM skyttekæde tynd   L ↑\n"
			   "A1 AS SK @\"2. Bat\" 1 KO 0406\n"
			   "Fynske Dragoner: M ↑ 1 ÆNDR mål A @\"Raket\u00A0batteri\"\n"));
	ck_assert_uint_eq(sheet.n, 4);
	assert_order(0, "B1", 1, 1, 6);
	assert_dump(0, 1,
		    "code:march#1@5 dir:↗=45#1@7 frac:½=2#1@9 "
		    "code:skydning#2@11 target:B2#2@13 frac:½=2#2@17");
	/* columns count characters: æ and ↑ are one column each */
	assert_order(1, "Slesvigske Jægere", 2, 3, 5);
	assert_dump(1, 1,
		    "code:formation#1@24 formation:skyttekaede#1@29 density:tynd#1@40 "
		    "code:loeb#2@47 dir:↑=0#2@49");
	assert_order(2, "A1", 3, 1, 6);
	assert_dump(2, 1,
		    "code:artilleriskydning#1@4 ammo:SK#1@7 target:2. Bat#1@10 "
		    "frac:1=4#1@20 code:koordination#2@22 hex:4,6#2@25");
	/* a quoted target may hold a no-break space */
	assert_order(3, "Fynske Dragoner", 4, 1, 7);
	assert_dump(3, 1,
		    "code:march#1@18 dir:↑=0#1@20 frac:1=4#1@22 "
		    "code:ordreaendring#2@24 reason:maal#2@29 "
		    "code:angreb#3@33 target:Raket\u00A0batteri#3@35");
	ck_assert_ptr_eq(ord_order_code(&sheet.orders[3], "angreb"), &sheet.orders[3].tok[5]);
	ck_assert_ptr_eq(ord_order_find(&sheet.orders[2], ORD_TOK_ARG), &sheet.orders[2].tok[1]);
}
END_TEST

START_TEST(test_targets)
{
	assert_clean(parse("A1 S @B4\n"
			   "A2: S @\"2. Bat. Mecklenburg\"\n"
			   "A3: A @\"  Holstenske Ryttere \" M ↓\n"
			   "A4 S @2/Oldenborg:ST @X\n"
			   "A5 S @Russisk-Tyske\n"));
	ck_assert_uint_eq(sheet.n, 5);
	assert_dump(0, 0, "code:skydning#1 target:B4#1");
	assert_dump(1, 0, "code:skydning#1 target:2. Bat. Mecklenburg#1");
	assert_dump(2, 0, "code:angreb#1 target:Holstenske Ryttere#1 code:march#2 dir:↓=180#2");
	/* the first ':' makes the unit "A4 S @2/Oldenborg"; the rest is the order */
	assert_order(3, "A4 S @2/Oldenborg", 4, 1, 2);
	assert_dump(3, 0, "code:stoette#1 target:X#1");
	/* '-' is part of a name (no quotes needed) */
	assert_dump(4, 0, "code:skydning#1 target:Russisk-Tyske#1");
}
END_TEST

START_TEST(test_curly_quotes)
{
	/* a sheet pasted from Word or a PDF: its quotes are curly, in the
	 * ways of every locale (»…« is the Danish) */
	assert_clean(parse("Slesvigske J\u00E6gerkorps: M ↑ ½ S @\u201CRussisk-Tyske Legion 1/\u201D ½\n"
			   "A2: S @\u201E2. Bat. Mecklenburg\u201C\n"
			   "A3: A @\u00BB Holstenske Ryttere \u00AB M ↓\n"
			   "A4 S @\u00ABRogers\u2019 Kompagni\u00BB ½\n"
			   "A5 S @\u201DB4\u201D\n"));
	ck_assert_uint_eq(sheet.n, 5);
	assert_dump(0, 1,
		    "code:march#1@24 dir:↑=0#1@26 frac:½=2#1@28 "
		    "code:skydning#2@30 target:Russisk-Tyske Legion 1/#2@32 frac:½=2#2@59");
	assert_dump(1, 0, "code:skydning#1 target:2. Bat. Mecklenburg#1");
	assert_dump(2, 0, "code:angreb#1 target:Holstenske Ryttere#1 code:march#2 dir:↓=180#2");
	assert_dump(3, 0, "code:skydning#1 target:Rogers\u2019 Kompagni#1 frac:½=2#1");
	assert_dump(4, 0, "code:skydning#1 target:B4#1");
}
END_TEST

START_TEST(test_dashes)
{
	/* a word processor's en dash, a PDF's minus: the minus of a hex */
	assert_clean(parse("H1 M \u20132,7 \u00BD\n"
			   "H2 M 3,\u22125\n"
			   "H3 SM \u20142,\u201312\n"));
	ck_assert_uint_eq(sheet.n, 3);
	assert_dump(0, 1, "code:march#1@4 hex:-2,7#1@6 frac:½=2#1@11");
	assert_dump(1, 0, "code:march#1 hex:3,-5#1");
	assert_dump(2, 0, "code:stormmarch#1 hex:-2,-12#1");
}
END_TEST

START_TEST(test_comments_and_blank_lines)
{
	assert_clean(parse("# 2. Brigade, træk 4\n"
			   "\n"
			   "B1 M ↑ ½   # frem til støtte\n"
			   "   \t \n"
			   "    # kanonerne bliver\n"
			   "B2 FORM karré#tæt\n"
			   "B3 M ← #: ikke enhedens kolon\n"
			   "#B4 M ↑\n"));
	ck_assert_uint_eq(sheet.n, 3);
	assert_order(0, "B1", 3, 1, 3);
	assert_order(1, "B2", 6, 1, 2);
	assert_dump(1, 1, "code:formation#1@4 formation:karre#1@9");
	assert_order(2, "B3", 7, 1, 2);
}
END_TEST

START_TEST(test_crlf_bom_and_spaces)
{
	/* Windows line ends, a byte order mark, no-break and other Unicode
	 * spaces: what a word processor or a phone produces */
	assert_clean(parse("\xEF\xBB\xBF# windows\r\nB1 M ↑ 1\r\n\r\nB2: S @B1 ½ # bagud\r\n"
			   "B3\u00A0FORM\u2009linie\u3000TK\r"));
	ck_assert_uint_eq(sheet.n, 3);
	assert_order(0, "B1", 2, 1, 3);
	assert_dump(0, 1, "code:march#1@4 dir:↑=0#1@6 frac:1=4#1@8");
	assert_order(1, "B2", 4, 1, 3);
	assert_dump(1, 1, "code:skydning#1@5 target:B1#1@7 frac:½=2#1@11");
	assert_order(2, "B3", 5, 1, 3);
	assert_dump(2, 1, "code:formation#1@4 formation:linie#1@9 chain:tirailloerkaede#1@15");
}
END_TEST

/* ---- canonical form ---------------------------------------------------- */

static const struct {
	const char *in;    /* one line as a player may write it */
	const char *canon; /* what format prints */
} format_cases[] = {
	{ "B1 M ↑ ½ S @B2 ½", "B1: M ↑ ½ S @B2 ½" },
	{ "B2 A @»2. Bat«", "B2: A @\"2. Bat\"" },
	{ "b1 m ^nø 1/2 s @B2 1/2", "b1: M ↗ ½ S @B2 ½" },
	{ "Slesvigske Jægere:form SKK TYND", "Slesvigske Jægere: FORM skyttekæde tynd" },
	{ "H1 stormmarch 3,5 4/4 angreb @\"B3\"", "H1: SM 0305 1 A @B3" },
	{ "A1 as kardaesk @\"2. Bat\" 1/2 kl ap", "A1: AS SK @\"2. Bat\" ½ KL AP" },
	{ "B2 aendr maal skyd @B4", "B2: ÆNDR mål S @B4" },
	{ "B3 FORM karre", "B3: FORM karré" },
	{ "B4 løb ^010 ½", "B4: L ^010 ½" },
	{ "B5 TILBAGETOG -2,7 3/4", "B5: TT -2,7 ¾" },
	{ "B6 M 100,5", "B6: M 100,5" },
	{ "B7 M 03,05", "B7: M 0305" },
	{ "B8 M 0,-1", "B8: M 0,-1" },
	{ "B9 FORM LINJE TIRAILLØRKÆDE", "B9: FORM linie tiraillørkæde" },
	{ "B10 FORM bataljonsmasse", "B10: FORM bataillonsmasse" },
	{ "B11 retræte ↓ ½ ordreændring rk PÅPRODSNING", "B11: TT ↓ ½ ÆNDR rutekorrektion PP" },
	{ "A2 IS 0406 KO 0406 AS fuldkugle 0406 ½", "A2: IS 0406 KO 0406 AS SF 0406 ½" },
	{ "A3 gf granat @\"Ammunitionsvogn 1\"", "A3: GF SG @\"Ammunitionsvogn 1\"" },
	{ "B12 opdeling @K1 @K2 sammenlægning @B13", "B12: OD @K1 @K2 SA @B13" },
	{ "B13 M \u2B06\uFE0F 1 # telefon", "B13: M ↑ 1" },
	{ "C1 stoette @B1 hvil", "C1: ST @B1 H" },
	{ "C2 ophør reparation prolongering ^v", "C2: OPH REP PR ←" },
	{ "C3 forsvar modangreb @H1 forsvarsskydning 1", "C3: F MA @H1 FS 1" },
	{ "C4 drej ^SØ vending ^NV", "C4: D ↘ V ↖" },
	{ "C5 FORM svaerm taet", "C5: FORM sværm tæt" },
	{ "C6 ÆNDRING ins AM ss", "C6: ÆNDR instruks AM SS" },
	{ "C7 afprodsning klargøring AS shrapnel @\"B 4\" 1", "C7: AP KL AS SS @\"B 4\" 1" },
	{ "C8 ÆNDR tv TT", "C8: ÆNDR tvang TT" },
	{ "C9 ÆNDR tr F", "C9: ÆNDR trussel F" },
	{ "Fynske Inf.Rgt. 1/ :  FORM Linie TK   F", "Fynske Inf.Rgt. 1/: FORM linie tiraillørkæde F" },
	{ "C10 FORM SOU tk", "C10: FORM soutien tiraillørkæde" },
	{ "C11 AS @B2 SG", "C11: AS @B2 SG" },
};

START_TEST(test_format_round_trip)
{
	struct ord_buf b = ORD_BUF_INIT, d1 = ORD_BUF_INIT, d2 = ORD_BUF_INIT;
	struct ord_sheet again;
	struct ord_diag diag2;

	assert_clean(parse(format_cases[_i].in));
	ck_assert_uint_eq(sheet.n, 1);
	ord_notation_ordre.format(&sheet.orders[0], &b);
	ck_assert_str_eq(b.buf, format_cases[_i].canon);

	/* the canonical form parses to the same orders and prints the same */
	ord_sheet_init(&again);
	ord_diag_init(&diag2);
	ck_assert_int_eq(ord_notation_ordre.parse(&again, b.buf, b.len, &diag2), 0);
	ck_assert_uint_eq(diag2.n, 0);
	ck_assert_uint_eq(again.n, 1);
	ck_assert_str_eq(again.orders[0].unit, sheet.orders[0].unit);
	dump(&sheet.orders[0], 0, &d1);
	dump(&again.orders[0], 0, &d2);
	ck_assert_str_eq(d2.buf, d1.buf);
	ord_buf_reset(&b);
	ord_notation_ordre.format(&again.orders[0], &b);
	ck_assert_str_eq(b.buf, format_cases[_i].canon);
	ord_buf_release(&b);
	ord_buf_release(&d1);
	ord_buf_release(&d2);
	ord_sheet_release(&again);
	ord_diag_release(&diag2);
}
END_TEST

START_TEST(test_format_built_by_hand)
{
	/* a ruleset may build orders itself: no groups, odd numbers, other case */
	struct ord_buf b = ORD_BUF_INIT;
	struct ord_order *o = ord_sheet_add_order(&sheet, 0, 0, "Holstenske Ryttere");
	struct ord_token *t;

	ord_order_add_token(o, ORD_TOK_CODE, "MARCH", 0, 0);
	ord_order_add_token(o, ORD_TOK_DIR, "", -90, 0);
	ord_order_add_token(o, ORD_TOK_DIR, "", 405, 0);
	ord_order_add_token(o, ORD_TOK_DIR, "", 10, 0);
	ord_order_add_token(o, ORD_TOK_FRAC, "", 3, 0);
	ord_order_add_token(o, ORD_TOK_FRAC, "7/8", 7, 0);
	ord_order_add_token(o, ORD_TOK_CODE, "formation", 0, 0);
	t = ord_order_add_token(o, ORD_TOK_ARG, "KARRE", 0, 0);
	t->arg = ord_strdup("formation");
	t = ord_order_add_token(o, ORD_TOK_ARG, "sk", 0, 0);
	t->arg = ord_strdup("ammo");
	t = ord_order_add_token(o, ORD_TOK_ARG, "7,-3", 0, 0);
	t->arg = ord_strdup("hex");
	t = ord_order_add_token(o, ORD_TOK_ARG, "12,34", 0, 0);
	t->arg = ord_strdup("hex");
	t = ord_order_add_token(o, ORD_TOK_ARG, "not a hex", 0, 0);
	t->arg = ord_strdup("hex");
	t = ord_order_add_token(o, ORD_TOK_ARG, "panik", 0, 0);
	t->arg = ord_strdup("reason");
	ord_order_add_token(o, ORD_TOK_ARG, "x=1", 0, 0);
	ord_order_add_token(o, ORD_TOK_CODE, "galop", 0, 0);
	ord_order_add_token(o, ORD_TOK_TARGET, "2. Bat", 0, 0);
	ord_order_add_token(o, ORD_TOK_CODE, "ordreaendring", 0, 0);
	ord_notation_ordre.format(o, &b);
	ck_assert_str_eq(b.buf, "Holstenske Ryttere: M ← ↗ ^010 ¾ 7/8 FORM karré SK 7,-3 1234 "
				"not a hex panik x=1 galop @\"2. Bat\" ÆNDR");
	ord_buf_reset(&b);
	o = ord_sheet_add_order(&sheet, 0, 0, "B1");
	ord_notation_ordre.format(o, &b);
	ck_assert_str_eq(b.buf, "B1:");
	ord_buf_release(&b);
}
END_TEST

/* ---- errors ------------------------------------------------------------ */

#define CODES                                                                           \
	"(expected one of M SM L A F MA TT S AS FS IS KO OPH AP PP KL PR REP FORM D V " \
	"GF H OD SA AM ST ÆNDR)"
#define DIRS                                                                                                  \
	"(expected one of ↑ ↗ → ↘ ↓ ↙ ← ↖ ^N ^NØ ^Ø ^SØ ^S ^SV ^V ^NV (in ASCII ^NOE ^OE " \
	"^SOE, or ^NE ^E ^SE ^SW ^W ^NW) or ^000 to ^359)"
#define FRACS "one of ¼ ½ ¾ 1 or 1/4 1/2 3/4"
#define HEXES "a hex as QQRR or Q,R, e.g. 0305 or 3,5"
#define FORMS                                                                        \
	"(expected one of linie angrebskolonne marchkolonne karré bataillonsmasse " \
	"skyttekæde sværm soutien)"
#define REASONS "(expected one of rutekorrektion trussel mål tvang instruks)"
#define AMMO "(expected one of SF SG SK SS)"
#define ONE "(expected one per order symbol)"
#define CH "4.3.4"
/* a misspelt symbol or word names the nearest, as unit names do */
#define SKUD_HINT ": did you mean 'S' (skydning)?"

/* One error per sheet: its text, where the error is, the unit, the rule,
 * the message. */
static const struct {
	const char *text;
	unsigned line, col;
	const char *unit, *rule, *msg;
} error_cases[] = {
	/* the line and the unit */
	{ "B1", 1, 3, "B1", "",
	  "expected an order symbol after the unit (one of M SM L A F MA TT "
	  "S AS FS IS KO OPH AP PP KL PR REP FORM D V GF H OD SA AM ST ÆNDR)" },
	{ "B1:   # intet endnu", 1, 4, "B1", "",
	  "expected an order symbol after the unit (one of M SM L A F MA TT S AS FS IS KO OPH AP "
	  "PP KL PR REP FORM D V GF H OD SA AM ST ÆNDR)" },
	{ "Slesvigske Jægere:", 1, 19, "Slesvigske Jægere", "",
	  "expected an order symbol after the unit (one of M SM L A F MA TT S AS FS IS KO OPH AP "
	  "PP KL PR REP FORM D V GF H OD SA AM ST ÆNDR)" },
	{ ": M ↑", 1, 1, "", "", "expected a unit before ':'" },
	{ "B1 M ↑\n   :F", 2, 4, "", "", "expected a unit before ':'" },
	/* unknown symbols; what follows one is skipped */
	{ "B1 SKUD @B2", 1, 4, "B1", "", "unknown symbol 'SKUD' " CODES SKUD_HINT },
	{ "B1 M ↑ ½ SKUD @B2 ½", 1, 10, "B1", "", "unknown symbol 'SKUD' " CODES SKUD_HINT },
	{ "B1 M→0305 ½", 1, 4, "B1", "", "unknown symbol 'M→0305' " CODES },
	{ "\n  Slesvigske Jægere", 2, 14, "Slesvigske", "", "unknown symbol 'Jægere' " CODES },
	{ "B1 LOB ↑", 1, 4, "B1", "", "unknown symbol 'LOB' " CODES ": did you mean 'L' (løb)?" },
	{ "B1 AS SK @B4 SX", 1, 14, "B1", "", "unknown symbol 'SX' " CODES },
	{ "B1 FORM SKYTTEKÆDE TYK", 1, 20, "B1", "", "unknown symbol 'TYK' " CODES },
	{ "B1 GF SX", 1, 7, "B1", "", "unknown symbol 'SX' " CODES },
	/* arguments before any symbol */
	{ "B1 ↑ M", 1, 4, "B1", "", "direction '↑' before any order symbol " CODES },
	{ "B1 ½ M", 1, 4, "B1", "", "fraction '½' before any order symbol " CODES },
	{ "B1 @B2 H", 1, 4, "B1", "", "target '@B2' before any order symbol " CODES },
	{ "B1 0305 M", 1, 4, "B1", "", "hex '0305' before any order symbol " CODES },
	{ "B1 LIN FORM LIN", 1, 4, "B1", "", "formation 'LIN' before any order symbol " CODES },
	{ "B1 SK AS SK @B4", 1, 4, "B1", "", "ammunition 'SK' before any order symbol " CODES },
	{ "B1 tæt M", 1, 4, "B1", "", "density 'tæt' before any order symbol " CODES },
	{ "B1 TK M", 1, 4, "B1", "", "tiraillørkæde 'TK' before any order symbol " CODES },
	{ "B1 trussel ÆNDR trussel F", 1, 4, "B1", "",
	  "reason 'trussel' before any order symbol " CODES },
	/* arguments a symbol does not take */
	{ "B1 M @B2", 1, 6, "B1", "",
	  "unexpected target '@B2' after 'M' (expected a direction or hex, a fraction)" },
	{ "B1 H ↑", 1, 6, "B1", "", "unexpected direction '↑' after 'H' (expected no argument)" },
	{ "B1 A @B2 ½", 1, 10, "B1", "", "unexpected fraction '½' after 'A' (expected a target)" },
	{ "B1 A 0305 @B2", 1, 6, "B1", "", "unexpected hex '0305' after 'A' (expected a target)" },
	{ "B1 S @B2 SK", 1, 10, "B1", "",
	  "unexpected ammunition 'SK' after 'S' (expected a target or hex, a fraction)" },
	{ "B1 AS SK @B4 linie", 1, 14, "B1", "",
	  "unexpected formation 'linie' after 'AS' (expected a target or hex, an ammunition, a "
	  "fraction)" },
	{ "B1 D ↑ ½", 1, 8, "B1", "", "unexpected fraction '½' after 'D' (expected a direction)" },
	{ "B1 GF SK tynd", 1, 10, "B1", "",
	  "unexpected density 'tynd' after 'GF' (expected a target, an ammunition)" },
	{ "B1 FORM linie trussel", 1, 15, "B1", "",
	  "unexpected reason 'trussel' after 'FORM' (expected a formation, a density, a "
	  "tiraillørkæde)" },
	{ "B1 OD ½", 1, 7, "B1", "", "unexpected fraction '½' after 'OD' (expected targets)" },
	{ "B1 ÆNDR trussel ↑ F", 1, 17, "B1", "",
	  "unexpected direction '↑' after 'ÆNDR' (expected a reason)" },
	{ "B1 IS @B2 ½", 1, 11, "B1", "",
	  "unexpected fraction '½' after 'IS' (expected a target or hex)" },
	{ "B1 F ↑", 1, 6, "B1", "", "unexpected direction '↑' after 'F' (expected a target)" },
	/* one of a kind per symbol */
	{ "B1 M ↑ →", 1, 8, "B1", "", "second direction or hex '→' for 'M' " ONE },
	{ "B1 M 0305 ↑", 1, 11, "B1", "", "second direction or hex '↑' for 'M' " ONE },
	{ "B1 M 0305 3,6", 1, 11, "B1", "", "second direction or hex '3,6' for 'M' " ONE },
	{ "B1 D ↑ →", 1, 8, "B1", "", "second direction '→' for 'D' " ONE },
	{ "B1 S @B2 @B3", 1, 10, "B1", "", "second target or hex '@B3' for 'S' " ONE },
	{ "B1 S 0305 @B3", 1, 11, "B1", "", "second target or hex '@B3' for 'S' " ONE },
	{ "B1 A @B2 @B3", 1, 10, "B1", "", "second target '@B3' for 'A' " ONE },
	{ "B1 M ½ 1", 1, 8, "B1", "", "second fraction '1' for 'M' " ONE },
	{ "B1 AS SK SF @B4", 1, 10, "B1", "", "second ammunition 'SF' for 'AS' " ONE },
	{ "B1 FORM linie karré", 1, 15, "B1", "", "second formation 'karré' for 'FORM' " ONE },
	{ "B1 FORM skk tæt tynd", 1, 17, "B1", "", "second density 'tynd' for 'FORM' " ONE },
	{ "B1 FORM linie TK tk", 1, 18, "B1", "", "second tiraillørkæde 'tk' for 'FORM' " ONE },
	{ "B1 ÆNDR trussel tvang F", 1, 17, "B1", CH, "second reason 'tvang' for 'ÆNDR' " ONE },
	/* fractions a symbol does not take */
	{ "B1 S @B2 ¾", 1, 10, "B1", "", "fraction '¾' not allowed for 'S' (expected ½ or 1)" },
	{ "B1 AS SK @B4 1/4", 1, 14, "B1", "", "fraction '1/4' not allowed for 'AS' (expected ½ or 1)" },
	{ "B1 FS ¼", 1, 7, "B1", "", "fraction '¼' not allowed for 'FS' (expected ½ or 1)" },
	{ "B1 L ↑ 1", 1, 8, "B1", "", "fraction '1' not allowed for 'L' (expected ½)" },
	{ "B1 L ¾", 1, 6, "B1", "", "fraction '¾' not allowed for 'L' (expected ½)" },
	/* what a symbol needs */
	{ "B1 A", 1, 4, "B1", "", "'A' (angreb) needs a target (expected @UNIT)" },
	{ "B1 M ↑ ½ A", 1, 10, "B1", "", "'A' (angreb) needs a target (expected @UNIT)" },
	{ "B1 A M ↑", 1, 4, "B1", "", "'A' (angreb) needs a target (expected @UNIT)" },
	{ "B1 ST", 1, 4, "B1", "", "'ST' (støtte) needs a target (expected @UNIT)" },
	{ "B1 SA", 1, 4, "B1", "", "'SA' (samling) needs a target (expected @UNIT)" },
	{ "B1 S ½", 1, 4, "B1", "", "'S' (skydning) needs a target (expected @UNIT or " HEXES ")" },
	{ "B1 IS", 1, 4, "B1", "", "'IS' (indskydning) needs a target (expected @UNIT or " HEXES ")" },
	{ "B1 KO", 1, 4, "B1", "", "'KO' (koordination) needs a target (expected @UNIT or " HEXES ")" },
	{ "B1 AS @B4", 1, 4, "B1", "", "'AS' (artilleriskydning) needs an ammunition type " AMMO },
	{ "B1 AS SK ½", 1, 4, "B1", "",
	  "'AS' (artilleriskydning) needs a target (expected @UNIT or " HEXES ")" },
	{ "B1 AM", 1, 4, "B1", "", "'AM' (ammunitionsskift) needs an ammunition type " AMMO },
	{ "B1 FORM", 1, 4, "B1", "", "'FORM' (formationsændring) needs a formation " FORMS },
	{ "B1 D", 1, 4, "B1", "", "'D' (drej) needs a direction " DIRS },
	{ "B1 V", 1, 4, "B1", "", "'V' (vending) needs a direction " DIRS },
	{ "B1 ÆNDR F", 1, 4, "B1", CH, "'ÆNDR' (ordreændring) needs a reason " REASONS },
	{ "B1 M ↑ aendr H", 1, 8, "B1", CH, "'ÆNDR' (ordreændring) needs a reason " REASONS },
	{ "B1 ÆNDR tvang", 1, 4, "B1", CH,
	  "'ÆNDR' (ordreændring) needs the new order after it (expected an order symbol after the "
	  "reason)" },
	{ "B1 ÆNDR tvang TT ÆNDR trussel F", 1, 18, "B1", CH,
	  "second 'ÆNDR' (ordreændring) on the line (expected one order change per unit)" },
	/* misspelt words where a symbol needs one */
	/* no guess between words as near: SF, SG, SK, SS */
	{ "B1 AS SX @B4", 1, 7, "B1", "", "unknown ammunition 'SX' " AMMO },
	{ "B1 AS @B4 kugle", 1, 11, "B1", "", "unknown ammunition 'kugle' " AMMO },
	{ "B1 AM kugle", 1, 7, "B1", "", "unknown ammunition 'kugle' " AMMO },
	{ "B1 FORM kolonne", 1, 9, "B1", "", "unknown formation 'kolonne' " FORMS },
	{ "B1 FORM karé", 1, 9, "B1", "", "unknown formation 'karé' " FORMS ": did you mean 'karré'?" },
	{ "B1 FORM skytekæde", 1, 9, "B1", "",
	  "unknown formation 'skytekæde' " FORMS ": did you mean 'skyttekæde'?" },
	{ "B1 ÆNDR trusel F", 1, 9, "B1", CH,
	  "unknown reason 'trusel' " REASONS ": did you mean 'trussel'?" },
	{ "B1 ÆNDR panik F", 1, 9, "B1", CH, "unknown reason 'panik' " REASONS },
	/* densities and the tirailleur chain go with some formations only */
	{ "B1 FORM linie tynd", 1, 15, "B1", "",
	  "density 'tynd' does not go with 'linie' (expected skyttekæde or sværm before it)" },
	{ "B1 FORM tynd skk", 1, 9, "B1", "",
	  "density 'tynd' before the formation (expected skyttekæde or sværm before it)" },
	{ "B1 FORM karré TK", 1, 15, "B1", "",
	  "tiraillørkæde 'TK' does not go with 'karré' (expected linie, angrebskolonne or soutien "
	  "before it)" },
	{ "B1 FORM TK linie", 1, 9, "B1", "",
	  "tiraillørkæde 'TK' before the formation (expected linie, angrebskolonne or soutien "
	  "before it)" },
	{ "B1 FORM SV TK", 1, 12, "B1", "",
	  "tiraillørkæde 'TK' does not go with 'sværm' (expected linie, angrebskolonne or soutien "
	  "before it)" },
	{ "B1 FORM MK tæt", 1, 12, "B1", "",
	  "density 'tæt' does not go with 'marchkolonne' (expected skyttekæde or sværm before it)" },
	/* fractions and hexes */
	{ "B1 M 2/3", 1, 6, "B1", "", "bad fraction '2/3' (expected " FRACS ")" },
	{ "B1 M ⅓", 1, 6, "B1", "", "bad fraction '⅓' (expected " FRACS ")" },
	{ "B1 M ½½", 1, 6, "B1", "", "bad fraction '½½' (expected " FRACS ")" },
	{ "B1 M 1/4x", 1, 6, "B1", "", "bad fraction '1/4x' (expected " FRACS ")" },
	{ "B1 M 2/4", 1, 6, "B1", "", "bad fraction '2/4' (expected " FRACS ")" },
	{ "B1 M 305", 1, 6, "B1", "", "bad hex '305' (expected " HEXES ")" },
	{ "B1 M 03055", 1, 6, "B1", "", "bad hex '03055' (expected " HEXES ")" },
	{ "B1 M 3,x", 1, 6, "B1", "", "bad hex '3,x' (expected " HEXES ")" },
	{ "B1 M 3,", 1, 6, "B1", "", "bad hex '3,' (expected " HEXES ")" },
	{ "B1 M 3,5,7", 1, 6, "B1", "", "bad hex '3,5,7' (expected " HEXES ")" },
	{ "B1 M 12345,1", 1, 6, "B1", "", "bad hex '12345,1' (expected " HEXES ")" },
	{ "B1 M 1,-12345", 1, 6, "B1", "", "bad hex '1,-12345' (expected " HEXES ")" },
	{ "B1 M --1,2", 1, 6, "B1", "", "bad hex '--1,2' (expected " HEXES ")" },
	{ "B1 M -", 1, 6, "B1", "", "bad hex '-' (expected " HEXES ")" },
	{ "B1 M 3;5", 1, 6, "B1", "", "bad hex '3;5' (expected " HEXES ")" },
	{ "B1 M 12", 1, 6, "B1", "", "bad fraction or hex '12' (expected " FRACS ", or " HEXES ")" },
	{ "B1 M 0", 1, 6, "B1", "", "bad fraction or hex '0' (expected " FRACS ", or " HEXES ")" },
	{ "B1 M 5", 1, 6, "B1", "", "bad fraction or hex '5' (expected " FRACS ", or " HEXES ")" },
	/* a malformed argument counts as given: one mistake, one message */
	{ "B1 S 12", 1, 6, "B1", "", "bad fraction or hex '12' (expected " FRACS ", or " HEXES ")" },
	{ "B1 D ^XX", 1, 6, "B1", "", "bad direction '^XX' " DIRS },
	{ "B1 A @", 1, 6, "B1", "", "empty target '@' (expected a unit after '@')" },
	/* directions */
	{ "B1 M ^45", 1, 6, "B1", "", "bad direction '^45' " DIRS },
	{ "B1 M ^X", 1, 6, "B1", "", "bad direction '^X' " DIRS },
	{ "B1 M ^", 1, 6, "B1", "", "bad direction '^' " DIRS },
	{ "B1 M ^0450", 1, 6, "B1", "", "bad direction '^0450' " DIRS },
	{ "B1 M ^NNE", 1, 6, "B1", "", "bad direction '^NNE' " DIRS },
	/* Ø typed as a bare O: no ASCII form of it (OE is), named */
	{ "B1 M ^NO", 1, 6, "B1", "",
	  "bad direction '^NO' " DIRS ": did you mean '^NOE' (↗, ^045: Ø in ASCII is OE)?" },
	{ "B1 M ^o", 1, 6, "B1", "",
	  "bad direction '^o' " DIRS ": did you mean '^OE' (→, ^090: Ø in ASCII is OE)?" },
	{ "B1 M ^SO", 1, 6, "B1", "",
	  "bad direction '^SO' " DIRS ": did you mean '^SOE' (↘, ^135: Ø in ASCII is OE)?" },
	{ "B1 M ↑C", 1, 6, "B1", "", "bad direction '↑C' " DIRS },
	{ "B1 M ↑↑", 1, 6, "B1", "", "bad direction '↑↑' " DIRS },
	{ "B1 M ^360", 1, 6, "B1", "", "direction '^360' out of range (expected ^000 to ^359)" },
	{ "B1 M ^999", 1, 6, "B1", "", "direction '^999' out of range (expected ^000 to ^359)" },
	/* targets */
	{ "B1 A @\"\"", 1, 6, "B1", "", "empty target '@\"\"' (expected a unit after '@')" },
	{ "B1 A @\"  \" M", 1, 6, "B1", "", "empty target '@\"  \"' (expected a unit after '@')" },
	{ "B1 A @\"2. Bat", 1, 7, "B1", "",
	  "unterminated quote in '@\"2. Bat' (expected a closing '\"')" },
	{ "B1: A @\"Mølle # syd\"", 1, 8, "B1", "",
	  "unterminated quote in '@\"Mølle' (expected a closing '\"')" },
	{ "B1 A @\"B2\"x", 1, 11, "B1", "",
	  "text after the closing quote in '@\"B2\"x' (expected a space)" },
	{ "B1 A @“2. Bat", 1, 7, "B1", "", "unterminated quote in '@“2. Bat' (expected a closing '”')" },
	{ "B1 A @»2. Bat", 1, 7, "B1", "", "unterminated quote in '@»2. Bat' (expected a closing '«')" },
	{ "B1 A @“B2”x", 1, 11, "B1", "", "text after the closing quote in '@“B2”x' (expected a space)" },
	{ "B1 M –", 1, 6, "B1", "", "bad hex '–' (expected a hex as QQRR or Q,R, e.g. 0305 or 3,5)" },
	{ "B1 M –2,x", 1, 6, "B1", "",
	  "bad hex '–2,x' (expected a hex as QQRR or Q,R, e.g. 0305 or 3,5)" },
	/* columns are characters, not bytes */
	{ "Slesvigske Jægere: M ↑ →", 1, 24, "Slesvigske Jægere", "",
	  "second direction or hex '→' for 'M' " ONE },
	{ "Fynske Lette Dragoner: ÆNDR trussel TT ↓ ↑", 1, 42, "Fynske Lette Dragoner", "",
	  "second direction or hex '↑' for 'TT' " ONE },
	/* a sheet must be UTF-8 text, comments too */
	{ "B1 M ↑\nB2 \xFF 1", 2, 4, "", "", "invalid UTF-8 byte 0xff (expected UTF-8 text)" },
	{ "B1 L\xC3", 1, 5, "", "", "invalid UTF-8 byte 0xc3 (expected UTF-8 text)" },
	{ "B1 \xC0\xAF", 1, 4, "", "", "invalid UTF-8 byte 0xc0 (expected UTF-8 text)" },
	{ "B1 \xE0\x80\xAF", 1, 4, "", "", "invalid UTF-8 byte 0xe0 (expected UTF-8 text)" },
	{ "B1 \xED\xA0\x80", 1, 4, "", "", "invalid UTF-8 byte 0xed (expected UTF-8 text)" },
	{ "B1 \xF4\x90\x80\x80", 1, 4, "", "", "invalid UTF-8 byte 0xf4 (expected UTF-8 text)" },
	{ "B1 \x80", 1, 4, "", "", "invalid UTF-8 byte 0x80 (expected UTF-8 text)" },
	{ "B1 M ↑ # læ\xE6", 1, 12, "", "", "invalid UTF-8 byte 0xe6 (expected UTF-8 text)" },
	{ "B1 M\x01", 1, 5, "", "", "unexpected control character U+0001 (expected text)" },
	{ "B1 M ↑\rB2 ↓", 1, 7, "", "", "unexpected control character U+000D (expected text)" },
	{ "B1 \x7F", 1, 4, "", "", "unexpected control character U+007F (expected text)" },
};

START_TEST(test_error_cases)
{
	const char *text = error_cases[_i].text;

	ck_assert_int_eq(parse(text), ORD_EBADSHEET);
	if (diag.n != 1) {
		char *t = diag_text();
		ck_abort_msg("'%s': expected one error, got:\n%s", text, t);
		free(t);
	}
	assert_diag(0, error_cases[_i].line, error_cases[_i].col, error_cases[_i].unit,
		    error_cases[_i].rule, error_cases[_i].msg);
	ck_assert_int_eq(ord_error_code(), ORD_EBADSHEET);
	ck_assert_str_eq(ord_error_last(), "order sheet has 1 syntax error");
}
END_TEST

START_TEST(test_nul_byte)
{
	static const char text[] = "B1 M ↑\nB2 F\0RM linie\n";

	ck_assert_int_eq(parse_n(text, sizeof(text) - 1), ORD_EBADSHEET);
	ck_assert_uint_eq(diag.n, 1);
	assert_diag(0, 2, 5, "", "", "unexpected control character U+0000 (expected text)");
	ck_assert_uint_eq(sheet.n, 1);
}
END_TEST

START_TEST(test_several_errors_in_a_command)
{
	/* each truth about a line is told, in reading order but for the
	 * "needs" of a symbol, which is known when its command ends */
	ck_assert_int_eq(parse("B1 AS\n"
			       "B2 M ↑ ÆNDR\n"
			       "B3 FORM tæt\n"
			       "B4 A SKUD @B2\n"),
			 ORD_EBADSHEET);
	ck_assert_uint_eq(diag.n, 8);
	assert_diag(0, 1, 4, "B1", "",
		    "'AS' (artilleriskydning) needs a target (expected @UNIT or " HEXES ")");
	assert_diag(1, 1, 4, "B1", "", "'AS' (artilleriskydning) needs an ammunition type " AMMO);
	assert_diag(2, 2, 8, "B2", CH, "'ÆNDR' (ordreændring) needs a reason " REASONS);
	assert_diag(3, 2, 8, "B2", CH,
		    "'ÆNDR' (ordreændring) needs the new order after it "
		    "(expected an order symbol after the reason)");
	assert_diag(4, 3, 9, "B3", "",
		    "density 'tæt' before the formation (expected skyttekæde or sværm before it)");
	assert_diag(5, 3, 4, "B3", "", "'FORM' (formationsændring) needs a formation " FORMS);
	/* A's command ends where the unknown symbol starts, so its need comes
	 * first; what follows the unknown symbol is not read */
	assert_diag(6, 4, 4, "B4", "", "'A' (angreb) needs a target (expected @UNIT)");
	assert_diag(7, 4, 6, "B4", "", "unknown symbol 'SKUD' " CODES SKUD_HINT);
	/* no line parsed, so none is given to the ruleset */
	ck_assert_uint_eq(sheet.n, 0);
}
END_TEST

/* The contract of notation.h: every syntax error in one pass, and every
 * line that parsed returned, so that the ruleset checks those in the same
 * pass and the player learns of every mistake at once. */
START_TEST(test_one_pass)
{
	struct ord_buf b = ORD_BUF_INIT;

	ck_assert_int_eq(parse("B1 M ↑ ½\n"
			       "B2 SKUD @B1 M ↑ ↓ ¾ S @B1 ¾\n"
			       "A1 AS SK @B4 ½\n"
			       "B3 A\n"
			       "B4: FORM skk tynd # i skyttekæde\n"),
			 ORD_EBADSHEET);
	/* the reading goes on after an error, on its line and after it */
	ck_assert_uint_eq(diag.n, 4);
	assert_diag(0, 2, 4, "B2", "", "unknown symbol 'SKUD' " CODES SKUD_HINT);
	assert_diag(1, 2, 17, "B2", "", "second direction or hex '↓' for 'M' " ONE);
	assert_diag(2, 2, 27, "B2", "", "fraction '¾' not allowed for 'S' (expected ½ or 1)");
	assert_diag(3, 4, 4, "B3", "", "'A' (angreb) needs a target (expected @UNIT)");
	ck_assert_str_eq(ord_error_last(), "order sheet has 4 syntax errors");
	/* the lines that parsed, whole; none of the others */
	ck_assert_uint_eq(sheet.n, 3);
	assert_order(0, "B1", 1, 1, 3);
	assert_order(1, "A1", 3, 1, 4);
	assert_dump(1, 0, "code:artilleriskydning#1 ammo:SK#1 target:B4#1 frac:½=2#1");
	assert_order(2, "B4", 5, 1, 3);
	ord_notation_ordre.format(&sheet.orders[2], &b);
	ck_assert_str_eq(b.buf, "B4: FORM skyttekæde tynd");
	ord_buf_release(&b);
}
END_TEST

START_TEST(test_lines_after_the_cap)
{
	/* past the listed errors the sheet is still read to its end */
	struct ord_buf b = ORD_BUF_INIT;
	size_t i;

	for (i = 0; i < 1500; i++)
		ord_buf_adds(&b, "B1 X\n");
	ord_buf_adds(&b, "B2 M ↑\n");
	ck_assert_int_eq(parse_n(b.buf, b.len), ORD_EBADSHEET);
	ck_assert_uint_eq(diag.n, ORD_DIAG_MAX_LISTED);
	ck_assert_uint_eq(diag.more, 500); /* counted, not listed */
	ck_assert_uint_eq(sheet.n, 1);
	assert_order(0, "B2", 1501, 1, 2);
	ord_buf_release(&b);
}
END_TEST

START_TEST(test_every_error_reported)
{
	struct ord_buf b = ORD_BUF_INIT;

	ck_assert_int_eq(parse("# træk 5\n"
			       "B1 M ↑ ½ SKUD @B2\n"
			       "B2 M ↑ ½ FORM karré\n"
			       "Slesvigske Jægere: M ↑ ↓ 2/3 S @B1 ¾\n"
			       "B3 \xFF\n"
			       ": AS SX ^400\n"
			       "B4\n"
			       "A1 AS SK @B4 ÆNDR F\n"),
			 ORD_EBADSHEET);
	ck_assert_uint_eq(diag.n, 11);
	assert_diag(0, 2, 10, "B1", "", "unknown symbol 'SKUD' " CODES SKUD_HINT);
	assert_diag(1, 4, 24, "Slesvigske Jægere", "", "second direction or hex '↓' for 'M' " ONE);
	assert_diag(2, 4, 26, "Slesvigske Jægere", "", "bad fraction '2/3' (expected " FRACS ")");
	assert_diag(3, 4, 36, "Slesvigske Jægere", "",
		    "fraction '¾' not allowed for 'S' (expected ½ or 1)");
	assert_diag(4, 5, 4, "", "", "invalid UTF-8 byte 0xff (expected UTF-8 text)");
	assert_diag(5, 6, 1, "", "", "expected a unit before ':'");
	/* the orders of a line with no unit are still checked */
	assert_diag(6, 6, 6, "", "", "unknown ammunition 'SX' " AMMO);
	assert_diag(7, 6, 9, "", "", "direction '^400' out of range (expected ^000 to ^359)");
	assert_diag(8, 6, 3, "", "",
		    "'AS' (artilleriskydning) needs a target (expected @UNIT or " HEXES ")");
	assert_diag(9, 7, 3, "B4", "",
		    "expected an order symbol after the unit (one of M SM L A F "
		    "MA TT S AS FS IS KO OPH AP PP KL PR REP FORM D V GF H OD SA "
		    "AM ST ÆNDR)");
	assert_diag(10, 8, 14, "A1", CH, "'ÆNDR' (ordreændring) needs a reason " REASONS);
	/* the line that parsed is kept, so that the ruleset can check it in
	 * the same pass; the lines with errors are left out whole (B1's march
	 * would reach the ruleset without the symbol that was misspelt) */
	ck_assert_uint_eq(sheet.n, 1);
	assert_order(0, "B2", 3, 1, 5);
	assert_dump(0, 0, "code:march#1 dir:↑=0#1 frac:½=2#1 code:formation#2 formation:karre#2");
	ck_assert_str_eq(ord_error_last(), "order sheet has 11 syntax errors");

	ord_diag_format(&diag, "danske.txt", &b);
	ck_assert_str_eq(b.buf,
			 "danske.txt:2:10: unit 'B1': unknown symbol 'SKUD' " CODES SKUD_HINT "\n"
			 "danske.txt:4:24: unit 'Slesvigske Jægere': second direction or hex '↓' "
			 "for 'M' " ONE "\n"
			 "danske.txt:4:26: unit 'Slesvigske Jægere': bad fraction '2/3' (expected " FRACS
			 ")\n"
			 "danske.txt:4:36: unit 'Slesvigske Jægere': fraction '¾' not allowed for "
			 "'S' (expected ½ or 1)\n"
			 "danske.txt:5:4: invalid UTF-8 byte 0xff (expected UTF-8 text)\n"
			 "danske.txt:6:1: expected a unit before ':'\n"
			 "danske.txt:6:6: unknown ammunition 'SX' " AMMO "\n"
			 "danske.txt:6:9: direction '^400' out of range (expected ^000 to ^359)\n"
			 "danske.txt:6:3: 'AS' (artilleriskydning) needs a target (expected @UNIT or " HEXES
			 ")\n"
			 "danske.txt:7:3: unit 'B4': expected an order symbol after the unit (one "
			 "of M SM L A F MA TT S AS FS IS KO OPH AP PP KL PR REP FORM D V GF H OD SA "
			 "AM ST ÆNDR)\n"
			 "danske.txt:8:14: unit 'A1': 'ÆNDR' (ordreændring) needs a reason " REASONS
			 " (4.3.4)\n");
	ord_buf_release(&b);
}
END_TEST

/* ---- size --------------------------------------------------------------
 * Big inputs must parse correctly; how fast is for the benchmarks
 * (tests/bench), not for timed tests that fail on a loaded machine. */

/* CPU time: other jobs on a shared CI machine do not make a test fail */
START_TEST(test_big_sheet)
{
	/* about 10 MB; the bound is loose enough for a sanitizer build */
	enum { LINES = 230000 };
	struct ord_buf b = ORD_BUF_INIT;
	size_t i;

	for (i = 0; i < LINES; i++)
		ord_buf_addf(&b, "Bataillon %zu: M 0305 ¾ FORM skyttekæde tynd S @B%zu ½ # frem\n",
			     i, i + 1);
	ck_assert_uint_gt(b.len, 10u * 1000 * 1000);
	assert_clean(parse_n(b.buf, b.len));
	ck_assert_uint_eq(sheet.n, LINES);
	assert_order(LINES - 1, "Bataillon 229999", LINES, 1, 9);
	assert_dump(LINES - 1, 1,
		    "code:march#1@19 hex:3,5#1@21 frac:¾=3#1@26 "
		    "code:formation#2@28 formation:skyttekaede#2@33 "
		    "density:tynd#2@44 code:skydning#3@49 target:B230000#3@51 "
		    "frac:½=2#3@60");
	ord_buf_release(&b);
}
END_TEST

START_TEST(test_long_lines)
{
	/* nothing on a line has a size limit: a 1 MB name, a 1 MB target, and
	 * a line of 100k words (every one but the first a second fraction) */
	enum { N = 1000 * 1000, E = 100000 };
	struct ord_buf b = ORD_BUF_INIT;
	size_t i;

	for (i = 0; i < N; i++)
		ord_buf_addch(&b, 'a' + (char)(i % 26));
	ord_buf_adds(&b, ": S @\"");
	for (i = 0; i < N; i++)
		ord_buf_adds(&b, i % 10 ? "æ" : " ");
	ord_buf_adds(&b, "\" ½\nB2 M");
	for (i = 0; i < E; i++)
		ord_buf_adds(&b, " ½");
	assert_clean(parse_n(b.buf, (size_t)(strchr(b.buf, '\n') - b.buf + 1)));
	ck_assert_uint_eq(sheet.n, 1);
	ck_assert_uint_eq(strlen(sheet.orders[0].unit), N);
	ck_assert_uint_eq(sheet.orders[0].ntok, 3);
	ck_assert_uint_eq(strlen(sheet.orders[0].tok[1].value), 2 * (N - N / 10) + N / 10 - 1);
	ck_assert_uint_eq(sheet.orders[0].tok[2].col, 2 * N + 9);

	/* the first thousand errors are listed, the rest counted */
	ck_assert_int_eq(parse_n(b.buf, b.len), ORD_EBADSHEET);
	ck_assert_uint_eq(diag.n, ORD_DIAG_MAX_LISTED);
	assert_diag(999, 2, 6 + 2 * 1000, "B2", "", "second fraction '½' for 'M' " ONE);
	ck_assert_uint_eq(diag.more, 98999); /* counted, not listed */
	ck_assert_str_eq(ord_error_last(), "order sheet has 99999 syntax errors");
	ord_buf_release(&b);
}
END_TEST

START_TEST(test_many_unknown_symbols)
{
	/* 1M unknown symbols, each listing the symbols: only the first
	 * thousand messages are built */
	struct ord_buf b = ORD_BUF_INIT;

	ord_buf_adds(&b, "B1");
	while (b.len < 4u * 1000 * 1000)
		ord_buf_adds(&b, " X");
	ck_assert_int_eq(parse_n(b.buf, b.len), ORD_EBADSHEET);
	ck_assert_uint_eq(diag.n, ORD_DIAG_MAX_LISTED);
	assert_diag(999, 1, 4 + 2 * 999, "B1", "", "unknown symbol 'X' " CODES);
	ord_buf_release(&b);
}
END_TEST

START_TEST(test_garbage)
{
	/* 10 MB that are not a sheet at all: an error on each of 5M lines */
	struct ord_buf b = ORD_BUF_INIT;

	while (b.len < 10u * 1000 * 1000)
		ord_buf_adds(&b, "\xFF\n");
	ck_assert_int_eq(parse_n(b.buf, b.len), ORD_EBADSHEET);
	ck_assert_uint_eq(diag.n, ORD_DIAG_MAX_LISTED);
	assert_diag(999, 1000, 1, "", "", "invalid UTF-8 byte 0xff (expected UTF-8 text)");
	ck_assert_uint_eq(diag.more, 4999000); /* counted, not listed */
	ck_assert_uint_eq(sheet.n, 0);
	ord_buf_release(&b);
}
END_TEST

/* ---- the sample sheets ------------------------------------------------- */

START_TEST(test_examples)
{
	glob_t g;
	size_t i, j;

	ck_assert_int_eq(glob(ORD_SOURCE_DIR "/orders/examples/krigsspil-*.txt", 0, NULL, &g), 0);
	ck_assert_uint_ge(g.gl_pathc, 3);
	for (i = 0; i < g.gl_pathc; i++) {
		char *text;
		size_t len;
		int rc;

		ck_assert_int_eq(ord_read_file(&text, &len, g.gl_pathv[i], 1 << 20), 0);
		rc = parse_n(text, len);
		free(text);
		if (rc || diag.n) {
			char *t = diag_text();
			ck_abort_msg("%s:\n%s", g.gl_pathv[i], t);
			free(t);
		}
		ck_assert_uint_ge(sheet.n, 10);
		/* every order of the samples prints and reads back the same */
		for (j = 0; j < sheet.n; j++) {
			struct ord_buf line = ORD_BUF_INIT, d1 = ORD_BUF_INIT, d2 = ORD_BUF_INIT;
			struct ord_sheet again;
			struct ord_diag diag2;

			ord_notation_ordre.format(&sheet.orders[j], &line);
			ord_sheet_init(&again);
			ord_diag_init(&diag2);
			ck_assert_int_eq(ord_notation_ordre.parse(&again, line.buf, line.len, &diag2),
					 0);
			ck_assert_uint_eq(again.n, 1);
			dump(&sheet.orders[j], 0, &d1);
			dump(&again.orders[0], 0, &d2);
			ck_assert_str_eq(d2.buf, d1.buf);
			ord_buf_release(&line);
			ord_buf_release(&d1);
			ord_buf_release(&d2);
			ord_sheet_release(&again);
			ord_diag_release(&diag2);
		}
		ord_sheet_release(&sheet);
	}
	globfree(&g);
}
END_TEST

Suite *ord_test_suite(void)
{
	Suite *s = suite_create("ordre");
	TCase *tc;

	tc = tcase_create("valid");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_registered);
	tcase_add_test(tc, test_word_key);
	tcase_add_test(tc, test_word_value);
	tcase_add_test(tc, test_word_forms);
	tcase_add_test(tc, test_bom_inside_line);
	tcase_add_test(tc, test_empty_sheets);
	tcase_add_loop_test(tc, test_symbols, 0, ORD_ARRAY_SIZE(symbol_cases));
	tcase_add_test(tc, test_case_and_letters);
	tcase_add_test(tc, test_directions);
	tcase_add_test(tc, test_fractions);
	tcase_add_test(tc, test_columns_and_groups);
	tcase_add_test(tc, test_targets);
	tcase_add_test(tc, test_curly_quotes);
	tcase_add_test(tc, test_dashes);
	tcase_add_test(tc, test_comments_and_blank_lines);
	tcase_add_test(tc, test_crlf_bom_and_spaces);
	tcase_add_test(tc, test_examples);
	suite_add_tcase(s, tc);

	tc = tcase_create("format");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_format_round_trip, 0, ORD_ARRAY_SIZE(format_cases));
	tcase_add_test(tc, test_format_built_by_hand);
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_error_cases, 0, ORD_ARRAY_SIZE(error_cases));
	tcase_add_test(tc, test_nul_byte);
	tcase_add_test(tc, test_several_errors_in_a_command);
	tcase_add_test(tc, test_every_error_reported);
	tcase_add_test(tc, test_one_pass);
	tcase_add_test(tc, test_lines_after_the_cap);
	suite_add_tcase(s, tc);

	tc = tcase_create("size");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_big_sheet);
	tcase_add_test(tc, test_long_lines);
	tcase_add_test(tc, test_many_unknown_symbols);
	tcase_add_test(tc, test_garbage);
	suite_add_tcase(s, tc);
	return s;
}
