/*
 * kv.c - ordered key=value lists (unit attributes and state, event arguments).
 *
 * Two layouts, one interface.  A list built by ord_kv_set keeps each item's
 * key and value in one allocation (value right after the key's NUL).  A
 * list filled by ord_kv_parse from empty is "packed": the item array and
 * every string sit in a single allocation, marked by alloc == 0 with items
 * != NULL.  A game of 100,000 units parses two lists per unit each time it
 * is loaded, so this is what keeps loading (and its memory) proportional to
 * the bytes read rather than to the number of strings; see
 * docs/benchmarks.md.  The first change to a packed list gives it an item
 * array of its own and leaves its strings in the block (the ARENA bit), so
 * that a pointer to a value stays valid until that key is set or deleted,
 * whatever the layout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/common.h"

/* alloc with this bit: items[-1] remembers the block of a list that was
 * packed (key: its start, value: its end), whose strings are still in use */
#define ARENA (((size_t)-1 >> 1) + 1)

/* alloc of a packed list that ord_kv_hold marked (the bit below ARENA: no
 * capacity comes near it): the list as it was held, until its first change
 * unpacks it; a list packed anew (parsed, copied) is not marked */
#define HELD (ARENA >> 1)

static int packed(const struct ord_kv *kv)
{
	return kv->items && (!kv->alloc || kv->alloc == HELD);
}

static size_t capacity(const struct ord_kv *kv)
{
	return kv->alloc & ~ARENA;
}

/* Does the item own its key\0value\0 block (not a string of the arena)? */
static int owned(const struct ord_kv *kv, const struct ord_kv_item *it)
{
	uintptr_t k = (uintptr_t)it->key;

	if (packed(kv))
		return 0;
	if (!(kv->alloc & ARENA))
		return 1;
	return k < (uintptr_t)kv->items[-1].key || k >= (uintptr_t)kv->items[-1].value;
}

void ord_kv_init(struct ord_kv *kv)
{
	kv->items = NULL;
	kv->n = kv->alloc = 0;
}

void ord_kv_release(struct ord_kv *kv)
{
	size_t i;

	for (i = 0; i < kv->n; i++)
		if (owned(kv, &kv->items[i]))
			free(kv->items[i].key); /* the value lives in the same block */
	if (kv->alloc & ARENA) {
		free(kv->items[-1].key);
		free(kv->items - 1);
	} else {
		free(kv->items);
	}
	ord_kv_init(kv);
}

/* key\0value\0 in one block */
static void item_fill(struct ord_kv_item *it, const char *key, size_t klen, const char *value,
		      size_t vlen)
{
	char *p = ord_xmalloc(klen + vlen + 2);

	memcpy(p, key, klen);
	p[klen] = '\0';
	memcpy(p + klen + 1, value, vlen);
	p[klen + 1 + vlen] = '\0';
	it->key = p;
	it->value = p + klen + 1;
}

/*
 * Before the first change to a packed list: a growable item array, the
 * strings left where they are (a module may hold a value of another key
 * while it sets one, as it could before lists were packed).
 */
static void unpack(struct ord_kv *kv)
{
	struct ord_kv_item *old = kv->items, *base;
	size_t i, cap = kv->n < 8 ? 8 : kv->n;
	char *end = (char *)(old + kv->n);

	for (i = 0; i < kv->n; i++) {
		char *e = old[i].value + strlen(old[i].value) + 1;
		if (e > end)
			end = e;
	}
	base = ord_xmalloc((cap + 1) * sizeof(*base));
	base[0].key = (char *)old;
	base[0].value = end;
	memcpy(base + 1, old, kv->n * sizeof(*old));
	kv->items = base + 1;
	kv->alloc = cap | ARENA;
}

/* Room for one more item. */
static void grow(struct ord_kv *kv)
{
	size_t cap;

	if (packed(kv))
		unpack(kv);
	cap = capacity(kv);
	if (kv->n < cap)
		return;
	cap = cap ? 2 * cap : 8;
	if (kv->alloc & ARENA) {
		struct ord_kv_item *base = ord_xrealloc(kv->items - 1, (cap + 1) * sizeof(*base));
		kv->items = base + 1;
		kv->alloc = cap | ARENA;
	} else {
		kv->items = ord_xrealloc(kv->items, cap * sizeof(*kv->items));
		kv->alloc = cap;
	}
}

void ord_kv_copy(struct ord_kv *dst, const struct ord_kv *src)
{
	size_t i, bytes = 0;
	char *p;

	if (dst->n || dst->items || !src->n) {
		for (i = 0; i < src->n; i++)
			ord_kv_set(dst, src->items[i].key, src->items[i].value);
		return;
	}
	/* into an empty list (a result's values): packed, one allocation */
	for (i = 0; i < src->n; i++)
		bytes += strlen(src->items[i].key) + strlen(src->items[i].value) + 2;
	dst->items = ord_xmalloc(src->n * sizeof(*dst->items) + bytes);
	p = (char *)(dst->items + src->n);
	for (i = 0; i < src->n; i++) {
		size_t kl = strlen(src->items[i].key) + 1, vl = strlen(src->items[i].value) + 1;
		dst->items[i].key = memcpy(p, src->items[i].key, kl);
		dst->items[i].value = memcpy(p + kl, src->items[i].value, vl);
		p += kl + vl;
	}
	dst->n = src->n;
	dst->alloc = 0;
}

static struct ord_kv_item *find(const struct ord_kv *kv, const char *key)
{
	size_t i;

	/* first letters first: a unit's state is looked up key by key */
	for (i = 0; i < kv->n; i++)
		if (kv->items[i].key[0] == key[0] && !strcmp(kv->items[i].key, key))
			return &kv->items[i];
	return NULL;
}

const char *ord_kv_get(const struct ord_kv *kv, const char *key)
{
	struct ord_kv_item *it = find(kv, key);
	return it ? it->value : NULL;
}

void ord_kv_set(struct ord_kv *kv, const char *key, const char *value)
{
	struct ord_kv_item *it = find(kv, key);
	size_t vlen = strlen(value);

	if (it && !strcmp(it->value, value))
		return;
	if (it) {
		/* value may point into the block being replaced: fill first */
		struct ord_kv_item fresh;
		size_t i = (size_t)(it - kv->items);
		int own;
		if (packed(kv)) {
			unpack(kv);
			it = &kv->items[i];
		}
		own = owned(kv, it);
		item_fill(&fresh, it->key, strlen(it->key), value, vlen);
		if (own)
			free(it->key);
		*it = fresh;
		return;
	}
	{
		/* value may point into the list, which grow may move: not its strings */
		grow(kv);
		item_fill(&kv->items[kv->n], key, strlen(key), value, vlen);
		kv->n++;
	}
}

void ord_kv_setf(struct ord_kv *kv, const char *key, const char *fmt, ...)
{
	struct ord_buf b = ORD_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	ord_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	ord_kv_set(kv, key, b.buf);
	ord_buf_release(&b);
}

size_t ord_fmt_long(char *out, long v)
{
	char tmp[24];
	unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
	size_t n = 0, len = 0;

	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		out[len++] = '-';
	while (n)
		out[len++] = tmp[--n];
	out[len] = '\0';
	return len;
}

void ord_kv_set_int(struct ord_kv *kv, const char *key, long v)
{
	char s[32];

	ord_fmt_long(s, v);
	ord_kv_set(kv, key, s);
}

void ord_kv_del(struct ord_kv *kv, const char *key)
{
	struct ord_kv_item *it = find(kv, key);
	size_t i;

	if (!it)
		return;
	i = (size_t)(it - kv->items);
	if (packed(kv)) {
		unpack(kv);
		it = &kv->items[i];
	}
	if (owned(kv, it))
		free(it->key);
	memmove(&kv->items[i], &kv->items[i + 1], (kv->n - i - 1) * sizeof(*it));
	kv->n--;
}

long ord_kv_get_int(const struct ord_kv *kv, const char *key, long def)
{
	long v;
	const char *s = ord_kv_get(kv, key);

	if (!s || ord_parse_long(s, &v))
		return def;
	return v;
}

double ord_kv_get_num(const struct ord_kv *kv, const char *key, double def)
{
	double v;
	const char *s = ord_kv_get(kv, key);

	if (!s || ord_parse_num(s, &v))
		return def;
	return v;
}

int ord_kv_get_bool(const struct ord_kv *kv, const char *key, int def)
{
	int v = ord_parse_bool(ord_kv_get(kv, key));
	return v < 0 ? def : v;
}

void ord_kv_serialize(const struct ord_kv *kv, struct ord_buf *out)
{
	size_t i;

	/* every unit's state is serialised at least once a phase, to be
	 * compared and hashed: written straight into the buffer, each string
	 * measured once */
	for (i = 0; i < kv->n; i++) {
		size_t kl = strlen(kv->items[i].key), vl = strlen(kv->items[i].value);
		char *p;
		ord_buf_grow(out, kl + vl + 2);
		p = out->buf + out->len;
		memcpy(p, kv->items[i].key, kl);
		p[kl] = '=';
		memcpy(p + kl + 1, kv->items[i].value, vl);
		p[kl + 1 + vl] = '\n';
		out->len += kl + vl + 2;
	}
	ord_buf_grow(out, 0);
	out->buf[out->len] = '\0';
}

/* ORD_EBADDATA naming line n (1-based) of a list, the len bytes at s. */
static int malformed(long n, const char *s, size_t len)
{
	return ord_error_set(ORD_EBADDATA, "key=value line %ld is '%.*s' (expected KEY=VALUE)", n,
			     (int)(len > 60 ? 60 : len), s);
}

/* Text into an empty list, packed: the items, then the text with '=' and
 * '\n' made NULs; one pass over the text after the count of its lines
 * (a unit's attributes and state are parsed each time a game is loaded). */
static int parse_packed(struct ord_kv *kv, const char *text)
{
	size_t len = strlen(text), lines = 1, line, n = 0;
	const char *p = text;
	struct ord_kv_item *items;
	char *s, *end;

	while ((p = memchr(p, '\n', len - (size_t)(p - text))) != NULL) {
		lines++;
		p++;
	}
	items = ord_xmalloc(lines * sizeof(*items) + len + 1);
	s = (char *)(items + lines);
	memcpy(s, text, len + 1);
	end = s + len;
	for (line = 1; s < end; line++) {
		char *nl = memchr(s, '\n', (size_t)(end - s)), *e = nl ? nl : end;
		char *eq = memchr(s, '=', (size_t)(e - s));
		size_t i;
		if (!eq || eq == s) {
			int err = malformed((long)line, s, (size_t)(e - s));
			free(items);
			return err;
		}
		*eq = '\0';
		*e = '\0';
		/* a key given twice keeps its last value (first letters first) */
		for (i = 0; i < n && (items[i].key[0] != s[0] || strcmp(items[i].key, s)); i++)
			;
		items[i].key = s;
		items[i].value = eq + 1;
		if (i == n)
			n++;
		s = e + 1;
	}
	if (!n) {
		free(items);
		return 0;
	}
	kv->items = items;
	kv->n = n;
	kv->alloc = 0;
	return 0;
}

int ord_kv_parse(struct ord_kv *kv, const char *text)
{
	struct ord_kv more;
	size_t i;
	int err;

	if (!kv->n && !kv->items)
		return parse_packed(kv, text);
	/* appending to a list: the whole text read first, so that a bad line
	 * leaves the list as it was */
	ord_kv_init(&more);
	if ((err = parse_packed(&more, text)) != 0)
		return err;
	for (i = 0; i < more.n; i++)
		ord_kv_set(kv, more.items[i].key, more.items[i].value);
	ord_kv_release(&more);
	return 0;
}

void ord_kv_hold(struct ord_kv *kv)
{
	if (packed(kv))
		kv->alloc = HELD;
}

int ord_kv_held(const struct ord_kv *kv)
{
	return kv->items && kv->alloc == HELD;
}

void ord_kv_repack(struct ord_kv *kv, const struct ord_buf *serialised)
{
	struct ord_kv fresh;
	size_t i;

	ord_kv_init(&fresh);
	if (!serialised->len || parse_packed(&fresh, serialised->buf))
		return;
	/* a key with '=', a value with a newline: its text reads otherwise */
	for (i = 0; fresh.n == kv->n && i < kv->n; i++)
		if (strcmp(fresh.items[i].key, kv->items[i].key) ||
		    strcmp(fresh.items[i].value, kv->items[i].value))
			break;
	if (fresh.n != kv->n || i < kv->n) {
		ord_kv_release(&fresh);
		return;
	}
	ord_kv_release(kv);
	*kv = fresh;
	ord_kv_hold(kv);
}
