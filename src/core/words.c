/*
 * words.c - word lists (orderly.h): the one place that splits, searches
 * and joins lists of words, as messages ("expected one of a b c",
 * "expected a, b or no"), key specs ("a|b|c") and tables ("musket rifle")
 * write them.
 */
#include <ctype.h>
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

void ord_words_hint(struct ord_buf *out, const char *list, const char *written)
{
	size_t len = strlen(written), max = len < 6 ? 1 : 2, best = max + 1, wl;
	const char *p = list, *w, *pick = NULL;
	size_t pick_len = 0;
	char word[72];

	while ((w = ord_words_next(&p, &wl)) != NULL) {
		size_t d;
		if (wl >= sizeof(word))
			continue;
		memcpy(word, w, wl);
		word[wl] = '\0';
		if ((d = ord_edit_distance(written, word, max)) < best) {
			best = d;
			pick = w;
			pick_len = wl;
		}
	}
	if (pick && best > 0)
		ord_buf_addf(out, ": did you mean '%.*s'?", (int)pick_len, pick);
}
