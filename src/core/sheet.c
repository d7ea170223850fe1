/* sheet.c - the parsed-sheet structures that notations fill (notation.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/common.h"
#include "core/ctx.h"
#include "notation.h"

void ord_sheet_init(struct ord_sheet *s)
{
	s->orders = NULL;
	s->n = s->alloc = 0;
	s->block = NULL;
	s->chunks = NULL;
}

/* A block of the orders ord_sheet_add_packed packs (a malloc and a free
 * an order were a tenth of reading a sheet); the orders follow it. */
struct chunk {
	struct chunk *next;
	size_t used, size; /* bytes of orders after the header */
};
#define CHUNK_BYTES 16384

/* alloc of an order packed in its sheet's block (ord_sheet_pack), which
 * the sheet frees */
#define IN_BLOCK ((size_t)-1)

/* A packed order (ord_sheet_pack) is one stretch at tok: its tokens, then
 * its unit's name and its tokens' strings, in a block of its own (alloc
 * 0) or in its sheet's (IN_BLOCK); a growing one has room for tokens
 * (alloc) and a string of its own for each. */
static int packed(const struct ord_order *o)
{
	return (!o->alloc || o->alloc == IN_BLOCK) && o->tok;
}

static void order_release(struct ord_order *o)
{
	size_t j;

	if (!packed(o)) {
		for (j = 0; j < o->ntok; j++) {
			free(o->tok[j].value);
			free(o->tok[j].arg);
		}
		free(o->unit);
	}
	if (o->alloc != IN_BLOCK)
		free(o->tok);
}

void ord_sheet_release(struct ord_sheet *s)
{
	size_t i;

	struct chunk *c, *next;

	for (i = 0; i < s->n; i++)
		order_release(&s->orders[i]);
	free(s->orders);
	free(s->block);
	for (c = s->chunks; c; c = next) {
		next = c->next;
		free(c);
	}
	ord_sheet_init(s);
}

static char *put_str(char **at, const char *v)
{
	size_t n = strlen(v) + 1;
	char *p = memcpy(*at, v, n);

	*at += n;
	return p;
}

/* The bytes an order of unit and the ntok tokens at tok takes packed,
 * its tokens aligned as they must be. */
static size_t packed_bytes(const char *unit, const struct ord_token *tok, size_t ntok)
{
	const size_t align = sizeof(struct ord_token) > 8 ? 8 : sizeof(struct ord_token);
	size_t size = ntok * sizeof(*tok) + strlen(unit) + 1, j;

	for (j = 0; j < ntok; j++)
		size += strlen(tok[j].value) + 1 + (tok[j].arg ? strlen(tok[j].arg) + 1 : 0);
	return (size + align - 1) / align * align;
}

/* The bytes order o takes packed. */
static size_t packed_size(const struct ord_order *o)
{
	return packed_bytes(o->unit, o->tok, o->ntok);
}

/* o (its line and column set) made a packed order at mem, of
 * packed_bytes, with alloc (0: a block of its own, IN_BLOCK: in its
 * sheet's): unit and the ntok tokens at tok copied, which are not o's. */
static void pack_at(struct ord_order *o, void *mem, size_t alloc, const char *unit,
		    const struct ord_token *tok, size_t ntok)
{
	char *at;
	size_t j;

	o->tok = mem;
	o->ntok = ntok;
	o->alloc = alloc;
	at = (char *)(o->tok + ntok);
	o->unit = put_str(&at, unit);
	for (j = 0; j < ntok; j++) {
		o->tok[j] = tok[j];
		o->tok[j].value = put_str(&at, tok[j].value);
		o->tok[j].arg = tok[j].arg ? put_str(&at, tok[j].arg) : NULL;
	}
}

void ord_sheet_pack(struct ord_sheet *s)
{
	size_t i, total = 0;
	char *next = NULL;

	/* the orders in one block, the first time (a sheet of 25,000 orders
	 * was 25,000 blocks, 16 bytes each of them malloc's own), but those
	 * the reader packed in the sheet's blocks already (ord_sheet_add_packed);
	 * orders added after it are packed each in a block of its own */
	if (!s->block) {
		for (i = 0; i < s->n; i++)
			if (s->orders[i].alloc != IN_BLOCK)
				total += packed_size(&s->orders[i]);
		if (total)
			s->block = next = ord_xmalloc(total);
	}
	for (i = 0; i < s->n; i++) {
		struct ord_order *o = &s->orders[i], p = *o;

		if (o->alloc == IN_BLOCK || (packed(o) && !next))
			continue;
		if (next) {
			pack_at(&p, next, IN_BLOCK, o->unit, o->tok, o->ntok);
			next += packed_size(o);
		} else {
			pack_at(&p, ord_xmalloc(packed_size(o)), 0, o->unit, o->tok, o->ntok);
		}
		order_release(o);
		*o = p;
	}
	if (s->n && s->alloc > s->n) {
		s->orders = ord_xrealloc(s->orders, s->n * sizeof(*s->orders));
		s->alloc = s->n;
	}
}

/* A packed order made a growing one again (a token added to it). */
static void unpack(struct ord_order *o)
{
	struct ord_token *t = ord_xmalloc((o->ntok + 4) * sizeof(*t));
	size_t j;

	for (j = 0; j < o->ntok; j++) {
		t[j] = o->tok[j];
		t[j].value = ord_strdup(o->tok[j].value);
		t[j].arg = o->tok[j].arg ? ord_strdup(o->tok[j].arg) : NULL;
	}
	o->unit = ord_strdup(o->unit);
	if (o->alloc != IN_BLOCK)
		free(o->tok);
	o->tok = t;
	o->alloc = o->ntok + 4;
}

/* A new order at the end of s, zeroed but for its line and column. */
static struct ord_order *append(struct ord_sheet *s, unsigned line, unsigned col)
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
	return o;
}

struct ord_order *ord_sheet_add_order(struct ord_sheet *s, unsigned line, unsigned col, const char *unit)
{
	struct ord_order *o = append(s, line, col);

	o->unit = ord_strdup(unit);
	return o;
}

/* The sheet's block with room for bytes more, a new one when the last
 * has not. */
static struct chunk *chunk_for(struct ord_sheet *s, size_t bytes)
{
	struct chunk *c = s->chunks;

	if (!c || c->size - c->used < bytes) {
		size_t size = bytes > CHUNK_BYTES ? bytes : CHUNK_BYTES;

		c = ord_xmalloc(sizeof(*c) + size);
		c->next = s->chunks;
		c->used = 0;
		c->size = size;
		s->chunks = c;
	}
	return c;
}

struct ord_order *ord_sheet_add_packed(struct ord_sheet *s, unsigned line, unsigned col,
				       const char *unit, const struct ord_token *tok, size_t ntok)
{
	const size_t align = sizeof(struct ord_token) > 8 ? 8 : sizeof(struct ord_token);
	struct ord_order *o = append(s, line, col);
	size_t bytes, j, ulen = strlen(unit) + 1, lens[2 * 16];
	struct chunk *c = s->chunks;
	char *at;

	if (ntok > 16) { /* not one order of a sheet in thousands: as ord_sheet_pack does */
		bytes = packed_bytes(unit, tok, ntok);
		c = chunk_for(s, bytes);
		pack_at(o, (char *)(c + 1) + c->used, IN_BLOCK, unit, tok, ntok);
		c->used += bytes;
		return o;
	}
	/* each string's length once, for the size and the copy */
	bytes = ntok * sizeof(*tok) + ulen;
	for (j = 0; j < ntok; j++) {
		lens[2 * j] = strlen(tok[j].value) + 1;
		lens[2 * j + 1] = tok[j].arg ? strlen(tok[j].arg) + 1 : 0;
		bytes += lens[2 * j] + lens[2 * j + 1];
	}
	bytes = (bytes + align - 1) / align * align;
	c = chunk_for(s, bytes);
	/* in the sheet's memory, as ord_sheet_pack's block is: what pack_at
	 * makes */
	o->tok = (struct ord_token *)((char *)(c + 1) + c->used);
	o->ntok = ntok;
	o->alloc = IN_BLOCK;
	at = (char *)(o->tok + ntok);
	o->unit = memcpy(at, unit, ulen);
	at += ulen;
	for (j = 0; j < ntok; j++) {
		o->tok[j] = tok[j];
		o->tok[j].value = memcpy(at, tok[j].value, lens[2 * j]);
		at += lens[2 * j];
		o->tok[j].arg = tok[j].arg ? memcpy(at, tok[j].arg, lens[2 * j + 1]) : NULL;
		at += lens[2 * j + 1];
	}
	c->used += bytes;
	return o;
}

struct ord_token *ord_order_add_token(struct ord_order *o, enum ord_tok_kind kind,
				      const char *value, int num, unsigned col)
{
	struct ord_token *t;

	if (packed(o))
		unpack(o);
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

/* ---- one order as text (the sealed orders' index, game_index.c) ---- */

static void put_escaped(struct ord_buf *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			ord_buf_adds(out, "\\\\");
		else if (*s == '\n')
			ord_buf_adds(out, "\\n");
		else if (*s == '\t')
			ord_buf_adds(out, "\\t");
		else
			ord_buf_addch(out, *s);
	}
}

void ord_order_serialize(const struct ord_order *o, struct ord_buf *out)
{
	size_t i;

	ord_buf_addf(out, "o %u %u\t", o->line, o->col);
	put_escaped(out, o->unit);
	ord_buf_addch(out, '\n');
	for (i = 0; i < o->ntok; i++) {
		const struct ord_token *t = &o->tok[i];
		ord_buf_addf(out, "t %d %d %u %u %d\t", (int)t->kind, t->num, t->col, t->group,
			     t->arg != NULL);
		put_escaped(out, t->value);
		ord_buf_addch(out, '\t');
		if (t->arg)
			put_escaped(out, t->arg);
		ord_buf_addch(out, '\n');
	}
}

/* The next field of *p up to stop (a tab or the line's end), unescaped. */
static char *take_field(const char **p, int stop)
{
	struct ord_buf b = ORD_BUF_INIT;
	const char *s = *p;

	for (; *s && *s != stop && *s != '\n'; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			ord_buf_addch(&b, *s == 'n' ? '\n' : *s == 't' ? '\t' : *s);
		} else {
			ord_buf_addch(&b, *s);
		}
	}
	if (*s == stop)
		s++;
	*p = s;
	if (!b.buf)
		ord_buf_adds(&b, "");
	return ord_buf_detach(&b, NULL);
}

int ord_order_deserialize(struct ord_sheet *s, const char *text)
{
	const char *p = text;
	struct ord_order *o = NULL;
	unsigned a, b, c;
	int kind, num, hasarg, n;

	while (*p) {
		if (p[0] == 'o' && !o && sscanf(p, "o %u %u\t%n", &a, &b, &n) == 2) {
			char *unit;
			p += n;
			unit = take_field(&p, '\n');
			o = ord_sheet_add_order(s, a, b, unit);
			free(unit);
		} else if (p[0] == 't' && o &&
			   sscanf(p, "t %d %d %u %u %d\t%n", &kind, &num, &a, &c, &hasarg, &n) == 5) {
			struct ord_token *t;
			char *value, *arg;
			p += n;
			value = take_field(&p, '\t');
			arg = take_field(&p, '\n');
			t = ord_order_add_token(o, (enum ord_tok_kind)kind, value, num, a);
			t->group = c;
			if (hasarg)
				t->arg = arg;
			else
				free(arg);
			free(value);
		} else {
			return ord_error_set(ORD_ETAMPERED,
					     "a sealed order's index is not in its form");
		}
		if (*p == '\n')
			p++;
	}
	return o ? 0 : ord_error_set(ORD_ETAMPERED, "a sealed order's index is empty");
}

size_t ord_notation_read(const struct ord_notation *nt, const char *bytes, size_t len,
			 void (*each)(void *ud, unsigned line, const char *order), void *ud)
{
	struct ord_sheet sheet;
	struct ord_diag diag;
	struct ord_buf line = ORD_BUF_INIT;
	size_t i, n;

	ord_sheet_init(&sheet);
	ord_diag_init(&diag);
	nt->parse(&sheet, bytes ? bytes : "", bytes ? len : 0, &diag);
	ord_error_clear(); /* its message counted the errors dropped */
	for (i = 0; i < sheet.n; i++) {
		ord_buf_reset(&line);
		nt->format(&sheet.orders[i], &line);
		each(ud, sheet.orders[i].line, line.buf ? line.buf : "");
	}
	n = sheet.n;
	ord_buf_release(&line);
	ord_sheet_release(&sheet);
	ord_diag_release(&diag);
	return n;
}
