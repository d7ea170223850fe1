/* sheet.c - the parsed-sheet structures that notations fill (notation.h). */
#include <stdlib.h>
#include <string.h>

#include "core/common.h"
#include "notation.h"

void ord_sheet_init(struct ord_sheet *s)
{
	s->orders = NULL;
	s->n = s->alloc = 0;
}

void ord_sheet_release(struct ord_sheet *s)
{
	size_t i, j;

	for (i = 0; i < s->n; i++) {
		struct ord_order *o = &s->orders[i];
		for (j = 0; j < o->ntok; j++) {
			free(o->tok[j].value);
			free(o->tok[j].arg);
		}
		free(o->tok);
		free(o->unit);
	}
	free(s->orders);
	ord_sheet_init(s);
}

struct ord_order *ord_sheet_add_order(struct ord_sheet *s, unsigned line, unsigned col, const char *unit)
{
	struct ord_order *o;

	if (s->n == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 16;
		s->orders = ord_xrealloc(s->orders, s->alloc * sizeof(*s->orders));
	}
	o = &s->orders[s->n++];
	memset(o, 0, sizeof(*o));
	o->line = line;
	o->col = col;
	o->unit = ord_strdup(unit);
	return o;
}

struct ord_token *ord_order_add_token(struct ord_order *o, enum ord_tok_kind kind,
				      const char *value, int num, unsigned col)
{
	struct ord_token *t;

	if (o->ntok == o->alloc) {
		o->alloc = o->alloc ? 2 * o->alloc : 4;
		o->tok = ord_xrealloc(o->tok, o->alloc * sizeof(*o->tok));
	}
	t = &o->tok[o->ntok++];
	memset(t, 0, sizeof(*t));
	t->kind = kind;
	t->value = ord_strdup(value ? value : "");
	t->num = num;
	t->col = col;
	return t;
}

const struct ord_token *ord_order_find(const struct ord_order *o, enum ord_tok_kind kind)
{
	size_t i;

	for (i = 0; i < o->ntok; i++)
		if (o->tok[i].kind == kind)
			return &o->tok[i];
	return NULL;
}

const struct ord_token *ord_order_code(const struct ord_order *o, const char *code)
{
	size_t i;

	for (i = 0; i < o->ntok; i++)
		if (o->tok[i].kind == ORD_TOK_CODE && !strcmp(o->tok[i].value, code))
			return &o->tok[i];
	return NULL;
}
