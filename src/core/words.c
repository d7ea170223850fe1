/*
 * words.c - word lists (orderly.h): the one place that splits, searches
 * and joins lists of words, as messages ("expected one of a b c",
 * "expected a, b or no"), key specs ("a|b|c") and tables ("musket rifle")
 * write them.
 */
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
