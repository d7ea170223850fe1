/*
 * check_words.c - the word-list helper (src/core/words.c): splitting on
 * white space and '|', searching whole words only, and joining as the
 * messages write lists ("one of a b c", "a, b or no"); and numbers in
 * decimal as printf writes them, without it.
 */
#include <check.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/common.h"
#include "orderly.h"

START_TEST(utf8_valid_whole_strings)
{
	ck_assert_int_eq(ord_utf8_valid(""), 1);
	ck_assert_int_eq(ord_utf8_valid("sk\u00E6rm tynd"), 1);
	ck_assert_int_eq(ord_utf8_valid("sk\xE6rm"), 0);      /* Latin-1 */
	ck_assert_int_eq(ord_utf8_valid("a\xC3"), 0);         /* cut short */
	ck_assert_int_eq(ord_utf8_valid("\xC0\xAF"), 0);      /* overlong */
	ck_assert_int_eq(ord_utf8_valid("\xED\xA0\x80x"), 0); /* a surrogate */
}
END_TEST

START_TEST(next_splits_on_space_and_bar)
{
	const char *p = "  musket\trifle|none  ", *w;
	size_t len;

	w = ord_words_next(&p, &len);
	ck_assert_int_eq((int)len, 6);
	ck_assert_int_eq(memcmp(w, "musket", 6), 0);
	w = ord_words_next(&p, &len);
	ck_assert_int_eq(memcmp(w, "rifle", len), 0);
	w = ord_words_next(&p, &len);
	ck_assert_int_eq(memcmp(w, "none", len), 0);
	ck_assert_ptr_null(ord_words_next(&p, &len));
	ck_assert_ptr_null(ord_words_next(&p, &len));
	p = "";
	ck_assert_ptr_null(ord_words_next(&p, &len));
}
END_TEST

START_TEST(has_matches_whole_words)
{
	ck_assert(ord_words_has("skema_x skema_x_moral", "skema_x"));
	ck_assert(ord_words_has("skema_x_moral", "skema_x_moral"));
	ck_assert(!ord_words_has("skema_x_moral", "skema_x"));
	ck_assert(ord_words_has("a|b|no", "no"));
	ck_assert(!ord_words_has("a|b|no", ""));
	ck_assert(!ord_words_has("", "a"));
	ck_assert(!ord_words_has("ab", "a"));
	ck_assert(ord_words_has(" \tab|cd\n", "cd"));
	ck_assert(!ord_words_has("abc", "ab"));
	ck_assert(!ord_words_has("a b c", "a b")); /* no word holds a separator */
	ck_assert(!ord_words_has(NULL, "a"));
}
END_TEST

START_TEST(join_and_add)
{
	struct ord_buf b = ORD_BUF_INIT;

	ord_words_join(&b, "a|b|no", ", ", " or ");
	ck_assert_str_eq(b.buf, "a, b or no");
	ord_buf_reset(&b);
	ord_words_join(&b, "da en", ", ", " or ");
	ck_assert_str_eq(b.buf, "da or en");
	ord_buf_reset(&b);
	ord_words_join(&b, "only", ", ", " or ");
	ck_assert_str_eq(b.buf, "only");
	ord_buf_reset(&b);
	ord_words_join(&b, "line column  square", " ", " ");
	ck_assert_str_eq(b.buf, "line column square");
	ord_buf_reset(&b);
	ord_words_add(&b, ", ", "x");
	ord_words_add(&b, ", ", "y");
	ck_assert_str_eq(b.buf, "x, y");
	ord_buf_release(&b);
}
END_TEST

START_TEST(fmt_long_as_printf)
{
	static const long v[] = { 0, 7, -7, 10, -10, 1234567890L, LONG_MAX, LONG_MIN };
	char a[32], b[32];
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		size_t n = ord_fmt_long(a, v[i]);
		snprintf(b, sizeof(b), "%ld", v[i]);
		ck_assert_str_eq(a, b);
		ck_assert_uint_eq(n, strlen(b));
	}
}
END_TEST

/* ord_buf_addf writes where the string fits and formats it again, in a
 * larger buffer, when it does not: every length about the room it has
 * (a buffer's first 64 bytes, then each doubling) comes out as printf
 * writes it, and an empty string leaves a buffer that is a string. */
START_TEST(addf_about_its_room)
{
	struct ord_buf b = ORD_BUF_INIT;
	char want[600], piece[200];
	size_t first, n;

	ord_buf_addf(&b, "%s", "");
	ck_assert_str_eq(b.buf, "");
	ck_assert_uint_eq(b.len, 0);
	for (first = 0; first < 140; first += 7) {
		for (n = 0; n < 140; n++) {
			ord_buf_release(&b); /* from the first room each time */
			memset(piece, 'a', first);
			piece[first] = '\0';
			ord_buf_addf(&b, "%s", piece);
			memset(piece, 'b', n);
			piece[n] = '\0';
			ord_buf_addf(&b, "%s|%d", piece, (int)n);
			memset(want, 'a', first);
			memset(want + first, 'b', n);
			snprintf(want + first + n, sizeof(want) - first - n, "|%d", (int)n);
			ck_assert_str_eq(b.buf, want);
			ck_assert_uint_eq(b.len, strlen(want));
			ck_assert_uint_lt(b.len, b.alloc);
		}
	}
	ord_buf_release(&b);
}
END_TEST

/* ord_buf_addf writes its simple formats (%s %d %u %ld %lu %zu %%) itself:
 * the same bytes as snprintf, and every other format through it */
static void addf_as(struct ord_buf *b, const char *want)
{
	ck_assert_str_eq(b->buf, want);
	ck_assert_uint_eq(b->len, strlen(want));
	ord_buf_reset(b);
}

START_TEST(addf_simple_as_printf)
{
	struct ord_buf b = ORD_BUF_INIT;
	char want[200];
	/* volatile: a NULL %s on purpose, which GCC would otherwise fold
	 * into snprintf's and warn of (-Wformat-overflow, a Release build) */
	const char *volatile none = NULL;

	ord_buf_addf(&b, "%d %d %d %u", 0, INT_MIN, INT_MAX, UINT_MAX);
	snprintf(want, sizeof(want), "%d %d %d %u", 0, INT_MIN, INT_MAX, UINT_MAX);
	addf_as(&b, want);
	ord_buf_addf(&b, "%ld|%ld|%lu|%zu|%zu", LONG_MIN, LONG_MAX, ULONG_MAX, SIZE_MAX, (size_t)7);
	snprintf(want, sizeof(want), "%ld|%ld|%lu|%zu|%zu", LONG_MIN, LONG_MAX, ULONG_MAX, SIZE_MAX,
		 (size_t)7);
	addf_as(&b, want);
	ord_buf_addf(&b, "100%% of %s: %s (%d%%)", "A1", "rout", -3);
	addf_as(&b, "100% of A1: rout (-3%)");
	ord_buf_addf(&b, "[%s]", none);
	snprintf(want, sizeof(want), "[%s]", none);
	addf_as(&b, want);
	/* more conversions than it keeps, and those it leaves to snprintf */
	ord_buf_addf(&b, "%s%s%s%s%s%s%s%s%s", "1", "2", "3", "4", "5", "6", "7", "8", "9");
	addf_as(&b, "123456789");
	ord_buf_addf(&b, "%.2s|%3d|%x|%g|%c|%-4s|%lld|", "abc", 5, 255, 0.5, 'q', "ab", -1LL);
	snprintf(want, sizeof(want), "%.2s|%3d|%x|%g|%c|%-4s|%lld|", "abc", 5, 255, 0.5, 'q', "ab",
		 -1LL);
	ck_assert_str_eq(b.buf, want);
	ord_buf_reset(&b);
	/* a string of the buffer itself */
	ord_buf_adds(&b, "abc");
	ord_buf_addf(&b, "-%s-%d", b.buf, 1);
	addf_as(&b, "abc-abc-1");
	ord_buf_release(&b);
}
END_TEST

START_TEST(hint_nearest_word)
{
	struct ord_buf b = ORD_BUF_INIT;

	ck_assert_uint_eq(ord_edit_distance("distanse", "distance", 2), 1);
	ck_assert_uint_eq(ord_edit_distance("Karre", "karre", 1), 0);   /* letters folded */
	ck_assert_uint_eq(ord_edit_distance("tagret", "target", 2), 1); /* a swap */
	ck_assert_uint_eq(ord_edit_distance("abcdef", "uvwxyz", 2), 3); /* max + 1 */
	ord_words_hint(&b, "unit distance terrain|charge", "distanse");
	ck_assert_str_eq(b.buf, ": did you mean 'distance'?");
	ord_buf_reset(&b);
	ord_words_hint(&b, "unit distance terrain|charge", "chrage");
	ck_assert_str_eq(b.buf, ": did you mean 'charge'?");
	ord_buf_reset(&b);
	ord_words_hint(&b, "unit distance", "range"); /* too far */
	ck_assert_uint_eq(b.len, 0);
	ord_words_hint(&b, "unit distance", "unit"); /* the word itself: no hint */
	ck_assert_uint_eq(b.len, 0);
	ord_words_hint(&b, "a b", "c"); /* one letter off a one-letter word */
	ck_assert_str_eq(b.buf, ": did you mean 'a'?");
	ord_buf_release(&b);
}
END_TEST

/* A key for the test: ASCII letters in lower case, the rest as it is. */
static void lower_key(struct ord_buf *key, const unsigned char *s, const unsigned char *e)
{
	ord_buf_reset(key);
	for (; s < e; s++)
		ord_buf_addch(key, *s >= 'A' && *s <= 'Z' ? *s - 'A' + 'a' : *s);
}

/* A word of a list found by its key, given back as the list writes it;
 * the hint by keys too, and none on a tie (a guess) */
START_TEST(words_by_key)
{
	struct ord_buf b = ORD_BUF_INIT;

	ck_assert_int_eq(ord_words_keyed(&b, "OR|LU|U|FU", "lu", lower_key), 1);
	ck_assert_str_eq(b.buf, "LU");
	ck_assert_int_eq(ord_words_keyed(&b, "OR|LU|U|FU", "fu", NULL), 0);
	ck_assert_int_eq(ord_words_keyed(&b, "OR|LU|U|FU", "FU", NULL), 1);
	ck_assert_str_eq(b.buf, "FU");
	ck_assert_int_eq(ord_words_keyed(&b, "linie karre", "kar", lower_key), 0);
	/* no UTF-8: never handed to a key, and no word */
	ck_assert_int_eq(ord_words_keyed(&b, "linie karre", "KARR\xC9", lower_key), 0);
	ord_buf_reset(&b);
	ord_words_hint_key(&b, "linie karre soutien", "KAREE", lower_key);
	ck_assert_str_eq(b.buf, ": did you mean 'karre'?");
	ord_buf_reset(&b);
	ord_words_hint_key(&b, "I|II|III", "iv", lower_key); /* I and II alike */
	ck_assert_uint_eq(b.len, 0);
	ord_words_hint_key(&b, "SF|SG|SK|SS", "sx", lower_key);
	ck_assert_uint_eq(b.len, 0);
	ord_words_hint_key(&b, "SF|SG|SK|SS", "sff", lower_key);
	ck_assert_str_eq(b.buf, ": did you mean 'SF'?");
	ord_buf_release(&b);
}
END_TEST

/* A notation's reading of its spellings, for the test: short forms of
 * a few words, "sk" of none of the list's. */
static int short_value(struct ord_buf *out, const char *w)
{
	static const char *const v[][2] = { { "kar", "karre" },
					    { "ak", "angrebskolonne" },
					    { "mk", "marchkolonne" },
					    { "sk", "SK" } };
	size_t i;

	ord_buf_reset(out);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (!strcmp(v[i][0], w)) {
			ord_buf_adds(out, v[i][1]);
			return 1;
		}
	return 0;
}

/* The nearest among the list's words and the sheet's spellings of them:
 * a spelling named with its word, a word before its spelling as near, a
 * spelling of no word of the list never, none when two words are as near */
START_TEST(hint_among_forms)
{
	const char *list = "linie angrebskolonne marchkolonne karre", *forms = "kar ak mk sk";
	struct ord_buf b = ORD_BUF_INIT;

	ord_words_hint_forms(&b, list, "kra", lower_key, forms, short_value);
	ck_assert_str_eq(b.buf, ": did you mean 'kar' (karre)?");
	ord_buf_reset(&b);
	ord_words_hint_forms(&b, list, "KRA", lower_key, forms, short_value);
	ck_assert_str_eq(b.buf, ": did you mean 'kar' (karre)?");
	ord_buf_reset(&b);
	ord_words_hint_forms(&b, list, "karee", lower_key, forms, short_value);
	ck_assert_str_eq(b.buf, ": did you mean 'karre'?");
	ord_buf_reset(&b);
	ord_words_hint_forms(&b, list, "karr", lower_key, forms, short_value); /* karre, kar */
	ck_assert_str_eq(b.buf, ": did you mean 'karre'?");
	ord_buf_reset(&b);
	ord_words_hint_forms(&b, list, "xk", lower_key, forms, short_value); /* ak, mk */
	ck_assert_uint_eq(b.len, 0);
	ord_words_hint_forms(&b, list, "sj", lower_key, forms, short_value); /* sk: SK */
	ck_assert_uint_eq(b.len, 0);
	/* a spelling of the sheet's of no word of the list: none of them */
	ord_words_hint_forms(&b, list, "sk", lower_key, forms, short_value); /* ak, mk */
	ck_assert_uint_eq(b.len, 0);
	ord_words_hint_forms(&b, "linie karre", "sk", lower_key, "kar ak sk", short_value);
	ck_assert_uint_eq(b.len, 0);
	ord_words_hint_forms(&b, "linie karre", "sx", lower_key, "kar ak sk", short_value);
	ck_assert_uint_eq(b.len, 0);
	ord_words_hint_forms(&b, "linie angrebskolonne", "sk", lower_key, "kar ak sk", short_value);
	ck_assert_uint_eq(b.len, 0);
	ord_words_hint_forms(&b, "linie angrebskolonne", "bk", lower_key, "kar ak sk", short_value);
	ck_assert_str_eq(b.buf, ": did you mean 'ak' (angrebskolonne)?");
	ord_buf_reset(&b);
	/* no forms, or no reading of them: the list's words alone */
	ord_words_hint_forms(&b, list, "kra", lower_key, NULL, short_value);
	ck_assert_uint_eq(b.len, 0);
	ord_words_hint_forms(&b, list, "kra", lower_key, forms, NULL);
	ck_assert_uint_eq(b.len, 0);
	ord_words_hint_key(&b, list, "kra", lower_key);
	ck_assert_uint_eq(b.len, 0);
	ord_buf_release(&b);
}
END_TEST

/* Free text shown on a terminal: what a terminal acts on is escaped, the
 * rest (accents, arrows, ¼) kept; a word quoted back is cut. */
START_TEST(text_shown_escaped)
{
	struct ord_buf b = ORD_BUF_INIT;
	unsigned col = 0;
	uint32_t cp = 0;

	ord_buf_add_shown(&b, "karré ↑ ¼\n    ok: x\x1b[2J\t\r\x7f");
	ck_assert_str_eq(b.buf, "karré ↑ ¼\\n    ok: x\\x1b[2J\\t\\r\\x7f");
	ord_buf_reset(&b);
	/* a bidirectional override, a zero-width space, a C1 control, the BOM,
	 * a byte that is no UTF-8 */
	ord_buf_add_shown(&b, "a\u202eb\u200bc\xc2\x9b"
			      "d\xef\xbb\xbf"
			      "e\xff");
	ck_assert_str_eq(b.buf, "a\\u202eb\\u200bc\\u009bd\\ufeffe\\xff");
	ord_buf_reset(&b);
	ord_buf_add_quoted(&b, "abcdef", 3);
	ck_assert_str_eq(b.buf, "'abc…'");
	ord_buf_reset(&b);
	ord_buf_add_quoted(&b, "abc", 3);
	ck_assert_str_eq(b.buf, "'abc'");
	ord_buf_release(&b);
	ck_assert_int_eq(ord_text_unshowable("plain — ¼ ↑", &col, &cp), 0);
	ck_assert_int_eq(ord_text_unshowable("né\nx", &col, &cp), 1);
	ck_assert_uint_eq(col, 3);
	ck_assert_uint_eq(cp, 0x0A);
	ck_assert_int_eq(ord_text_unshowable("ab\xff", &col, &cp), -1);
	ck_assert_uint_eq(col, 3);
	ck_assert_uint_eq(cp, 0xFF);
	ck_assert_int_eq(ord_text_plain("the reason", "fine"), 0);
	ck_assert_int_eq(ord_text_plain("the reason", "x\x1b"), ORD_EUSAGE);
	ck_assert_str_eq(ord_error_last(),
			 "the reason holds the control or invisible character U+001B at character 2 "
			 "(expected one line of plain text)");
}
END_TEST

Suite *ord_test_suite(void)
{
	Suite *s = suite_create("words");
	TCase *t = tcase_create("lists");

	tcase_add_test(t, utf8_valid_whole_strings);
	tcase_add_test(t, next_splits_on_space_and_bar);
	tcase_add_test(t, has_matches_whole_words);
	tcase_add_test(t, join_and_add);
	tcase_add_test(t, fmt_long_as_printf);
	tcase_add_test(t, addf_about_its_room);
	tcase_add_test(t, addf_simple_as_printf);
	tcase_add_test(t, hint_nearest_word);
	tcase_add_test(t, words_by_key);
	tcase_add_test(t, hint_among_forms);
	tcase_add_test(t, text_shown_escaped);
	suite_add_tcase(s, t);
	return s;
}
