/*
 * words.c - word lists (orderly.h): the one place that splits, searches
 * and joins lists of words, as messages ("expected one of a b c",
 * "expected a, b or no"), key specs ("a|b|c") and tables ("musket rifle")
 * write them.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "orderly.h"

/* Words are separated by white space or '|' (a key spec's values). */
#define SEPARATORS " \t\r\n|"

const char *ord_words_next(const char **p, size_t *len)
{
	const char *w;

	if (!*p)
		return NULL;
	w = *p + strspn(*p, SEPARATORS);
	if (!*w) {
		*p = w;
		return NULL;
	}
	*len = strcspn(w, SEPARATORS);
	*p = w + *len;
	return w;
}

static int separator(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '|';
}

/* one pass, no strspn/strcspn per word: every lookup of a table's row
 * asks it of each attribute it matches */
int ord_words_has(const char *list, const char *word)
{
	size_t n = strcspn(word, SEPARATORS);
	const char *p = list;

	if (!n || word[n] || !p) /* no word holds a separator */
		return 0;
	for (;;) {
		while (separator(*p))
			p++;
		if (!*p)
			return 0;
		if (*p == *word && !strncmp(p, word, n) && (!p[n] || separator(p[n])))
			return 1;
		while (*p && !separator(*p))
			p++;
	}
}

void ord_words_join(struct ord_buf *out, const char *list, const char *sep, const char *last)
{
	const char *p = list, *w, *next;
	size_t len, nlen, i = 0;

	w = ord_words_next(&p, &len);
	while (w) {
		next = ord_words_next(&p, &nlen);
		if (i++)
			ord_buf_adds(out, next ? sep : last);
		ord_buf_add(out, w, len);
		w = next;
		len = nlen;
	}
}

void ord_words_add(struct ord_buf *out, const char *sep, const char *word)
{
	if (out->len)
		ord_buf_adds(out, sep);
	ord_buf_adds(out, word);
}

/* The edit distance of a and b (insertions, deletions, substitutions and
 * swaps of neighbours; ASCII letters folded), or max + 1 once past max. */
size_t ord_edit_distance(const char *a, const char *b, size_t max)
{
	size_t la = strlen(a), lb = strlen(b), i, j, best, *d, w = lb + 1, r;

	if (la > lb + max || lb > la + max || la > 64 || lb > 64)
		return max + 1;
	d = ord_xcalloc((la + 1) * w, sizeof(*d));
	for (i = 0; i <= la; i++)
		d[i * w] = i;
	for (j = 0; j <= lb; j++)
		d[j] = j;
	for (i = 1; i <= la; i++) {
		best = max + 1;
		for (j = 1; j <= lb; j++) {
			int same = tolower((unsigned char)a[i - 1]) ==
				   tolower((unsigned char)b[j - 1]);
			size_t v = d[(i - 1) * w + j - 1] + !same;
			if (d[(i - 1) * w + j] + 1 < v)
				v = d[(i - 1) * w + j] + 1;
			if (d[i * w + j - 1] + 1 < v)
				v = d[i * w + j - 1] + 1;
			if (i > 1 && j > 1 &&
			    tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == tolower((unsigned char)b[j - 1]) &&
			    d[(i - 2) * w + j - 2] + 1 < v)
				v = d[(i - 2) * w + j - 2] + 1;
			d[i * w + j] = v;
			if (v < best)
				best = v;
		}
		if (best > max) {
			free(d);
			return max + 1;
		}
	}
	r = d[la * w + lb];
	free(d);
	return r;
}

/* w..w+len by key into out (reset first), or as it is when key is NULL
 * or w is no UTF-8 (a key reads valid UTF-8 only; such a word is no word
 * of a list). */
static void keyed(struct ord_buf *out, const char *w, size_t len, ord_word_key key)
{
	const unsigned char *s = (const unsigned char *)w, *e = s + len;
	uint32_t cp;
	size_t n;

	while (key && s < e && (n = ord_utf8_decode(s, e, &cp)) > 0)
		s += n;
	if (key && s == e) {
		key(out, (const unsigned char *)w, e);
	} else {
		ord_buf_reset(out);
		ord_buf_add(out, w, len);
	}
}

/* The nearest so far of hint's candidates. */
struct near {
	size_t max, best;    /* the reach; the nearest distance, max + 1: none */
	const char *pick;    /* the spelling picked, or NULL */
	size_t pick_len;     /* its length */
	struct ord_buf word; /* the word of the list it names */
	int tie;             /* a candidate as near names another word */
};

/* Candidate w..w+wl, a spelling of list's word (word, wordlen), against
 * written's key kw. */
static void near_add(struct near *n, const struct ord_buf *kw, const char *w, size_t wl,
		     const char *word, size_t wordlen, ord_word_key key, struct ord_buf *kword)
{
	size_t d;

	if (wl >= 72)
		return;
	keyed(kword, w, wl, key);
	d = ord_edit_distance(kw->buf, kword->buf, n->max);
	if (d < n->best) {
		n->best = d;
		n->pick = w;
		n->pick_len = wl;
		ord_buf_reset(&n->word);
		ord_buf_add(&n->word, word, wordlen);
		n->tie = 0;
	} else if (d == n->best && d <= n->max &&
		   (n->word.len != wordlen || memcmp(n->word.buf, word, wordlen))) {
		/* as near a spelling of the same word is no other guess */
		n->tie = 1;
	}
}

/* The one "did you mean": the word of list nearest to written, compared
 * by key (NULL: as written), or the spelling of forms value reads as a
 * word of list (forms NULL: none) nearer than any, named with its word;
 * with no_tie, none when another word is as near. */
static void hint(struct ord_buf *out, const char *list, const char *written, ord_word_key key,
		 int no_tie, const char *forms, ord_word_value value)
{
	struct ord_buf kw = ORD_BUF_INIT, kword = ORD_BUF_INIT, form = ORD_BUF_INIT, as = ORD_BUF_INIT;
	struct near n = { 0, 0, NULL, 0, ORD_BUF_INIT, 0 };
	const char *p = list, *w;
	size_t wl;

	keyed(&kw, written, strlen(written), key);
	n.max = kw.len < 6 ? 1 : 2;
	n.best = n.max + 1;
	/* the list's words first: a spelling as near as its word is not
	 * named for it */
	while ((w = ord_words_next(&p, &wl)) != NULL)
		near_add(&n, &kw, w, wl, w, wl, key, &kword);
	/* a word of the sheet's of another meaning ("ST", support, for a
	 * reaction) is no misspelt spelling of these */
	if (value && forms && ord_utf8_valid(written) && value(&as, written))
		forms = NULL;
	for (p = value ? forms : NULL; p && (w = ord_words_next(&p, &wl)) != NULL;) {
		ord_buf_reset(&form);
		ord_buf_add(&form, w, wl);
		if (value(&as, form.buf) && ord_words_has(list, as.buf))
			near_add(&n, &kw, w, wl, as.buf, as.len, key, &kword);
	}
	if (n.pick && n.best > 0 && !(no_tie && n.tie)) {
		if (n.word.len == n.pick_len && !memcmp(n.word.buf, n.pick, n.pick_len))
			ord_buf_addf(out, ": did you mean '%.*s'?", (int)n.pick_len, n.pick);
		else
			ord_buf_addf(out, ": did you mean '%.*s' (%s)?", (int)n.pick_len, n.pick,
				     n.word.buf);
	}
	ord_buf_release(&kw);
	ord_buf_release(&kword);
	ord_buf_release(&form);
	ord_buf_release(&as);
	ord_buf_release(&n.word);
}

void ord_words_hint(struct ord_buf *out, const char *list, const char *written)
{
	hint(out, list, written, NULL, 0, NULL, NULL);
}

void ord_words_hint_key(struct ord_buf *out, const char *list, const char *written, ord_word_key key)
{
	hint(out, list, written, key, 1, NULL, NULL);
}

void ord_words_hint_forms(struct ord_buf *out, const char *list, const char *written,
			  ord_word_key key, const char *forms, ord_word_value value)
{
	hint(out, list, written, key, 1, forms, value);
}

int ord_words_keyed(struct ord_buf *out, const char *list, const char *written, ord_word_key key)
{
	struct ord_buf kw = ORD_BUF_INIT, kword = ORD_BUF_INIT;
	const char *p = list, *w;
	size_t wl;
	int found = 0;

	keyed(&kw, written, strlen(written), key);
	while (!found && (w = ord_words_next(&p, &wl)) != NULL) {
		keyed(&kword, w, wl, key);
		if (kword.len == kw.len && !memcmp(kword.buf, kw.buf, kw.len)) {
			ord_buf_reset(out);
			ord_buf_add(out, w, wl);
			found = 1;
		}
	}
	ord_buf_release(&kw);
	ord_buf_release(&kword);
	return found;
}
