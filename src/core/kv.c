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

/* alloc of a packed list a pool shares (ord_kv_pool), alone; with ARENA,
 * the block items[-1] remembers is a shared one, given back, not freed.
 * A shared list is never changed in place: its first change unpacks it
 * as any packed list, and it is held as long as it is shared. */
#define SHARED (ARENA >> 2)

/* The head of a shared block: the items, then their strings, follow it. */
struct ord_kv_shared {
	uint32_t refs;          /* the lists that hold it; 0: the pool frees it at its sweep */
	uint32_t hash;          /* of its items (hash_items) */
	size_t n;               /* its items */
	unsigned char memo[16]; /* its user's note of it (ord_kv_shared_memo) */
	size_t memo_set;        /* memo is written */
};

static struct ord_kv_shared *head_of(const void *items)
{
	return (struct ord_kv_shared *)items - 1;
}

static int packed(const struct ord_kv *kv)
{
	return kv->items && (!kv->alloc || kv->alloc == HELD || kv->alloc == SHARED);
}

static size_t capacity(const struct ord_kv *kv)
{
	return kv->alloc & ~(ARENA | SHARED);
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

	/* a packed list owns none of its items (owned): a context's units
	 * are let go two lists each */
	for (i = 0; !packed(kv) && i < kv->n; i++)
		if (owned(kv, &kv->items[i]))
			free(kv->items[i].key); /* the value lives in the same block */
	if (kv->alloc & ARENA) {
		if (kv->alloc & SHARED)
			head_of(kv->items[-1].key)->refs--;
		else
			free(kv->items[-1].key);
		free(kv->items - 1);
	} else if (kv->alloc == SHARED) {
		head_of(kv->items)->refs--;
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
	/* room for a few keys more: a phase adds one or two to a unit's
	 * state (30,000 units' arrays doubled from 9 items to 17 cost 2 MB) */
	size_t i, cap = kv->n + 4, shared = kv->alloc == SHARED ? SHARED : 0;
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
	kv->alloc = cap | ARENA | shared;
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
		kv->alloc = cap | ARENA | (kv->alloc & SHARED);
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

	/* the first two letters first: a unit's state is looked up key by
	 * key, and many of its keys begin alike */
	for (i = 0; i < kv->n; i++) {
		const char *k = kv->items[i].key;

		if (k[0] == key[0] && (!k[0] || (k[1] == key[1] && !strcmp(k + 1, key + 1))))
			return &kv->items[i];
	}
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
static int parse_packed_at(struct ord_kv *kv, const char *text, size_t head)
{
	size_t len = strlen(text), lines = 1, line, n = 0;
	const char *p = text;
	struct ord_kv_item *items;
	char *block, *s, *end;

	while ((p = memchr(p, '\n', len - (size_t)(p - text))) != NULL) {
		lines++;
		p++;
	}
	block = ord_xmalloc(head + lines * sizeof(*items) + len + 1);
	items = (struct ord_kv_item *)(block + head);
	s = (char *)(items + lines);
	memcpy(s, text, len + 1);
	end = s + len;
	for (line = 1; s < end; line++) {
		char *nl = memchr(s, '\n', (size_t)(end - s)), *e = nl ? nl : end;
		char *eq = memchr(s, '=', (size_t)(e - s));
		size_t i;
		if (!eq || eq == s) {
			int err = malformed((long)line, s, (size_t)(e - s));
			free(block);
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
		free(block);
		return 0;
	}
	kv->items = items;
	kv->n = n;
	kv->alloc = 0;
	return 0;
}

static int parse_packed(struct ord_kv *kv, const char *text)
{
	return parse_packed_at(kv, text, 0);
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
	if (kv->items && !kv->alloc)
		kv->alloc = HELD;
}

int ord_kv_held(const struct ord_kv *kv)
{
	return kv->items && (kv->alloc == HELD || kv->alloc == SHARED);
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

/* ---- lists shared by a pool ---- */

/* FNV-1a of the items, a separator after each string. */
static uint32_t hash_items(const struct ord_kv *kv)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < kv->n; i++) {
		const unsigned char *p;
		for (p = (const unsigned char *)kv->items[i].key; *p; p++)
			h = (h ^ *p) * 16777619u;
		h = (h ^ 1u) * 16777619u;
		for (p = (const unsigned char *)kv->items[i].value; *p; p++)
			h = (h ^ *p) * 16777619u;
		h = (h ^ 2u) * 16777619u;
	}
	return h;
}

static int same_items(const struct ord_kv_item *a, const struct ord_kv_item *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(a[i].key, b[i].key) || strcmp(a[i].value, b[i].value))
			return 0;
	return 1;
}

void ord_kv_pool_init(struct ord_kv_pool *pool)
{
	memset(pool, 0, sizeof(*pool));
}

/*
 * The texts the pool has parsed, by their hash: a load of 2,500 units
 * parsed each unit's attributes and state, to find in the pool the list
 * it already had (units of a kind start alike, most keep their state);
 * found by its text, the same list costs a hash and a memcmp.  Bounded:
 * TEXT_SLOTS / 2 texts of TEXT_MAX bytes at most (a load of 100,000 units
 * of different states keeps the first ones and parses the rest as
 * before), and forgotten whenever blocks may be freed (pool_rehash), so
 * that a text never leads to a block no longer there.
 */
#define TEXT_SLOTS 256
#define TEXT_MAX 256

struct ord_kv_pool_text {
	uint64_t hash;              /* of the text (ord_hash64) */
	size_t len;                 /* of the text */
	char *text;                 /* a copy; NULL: an empty slot */
	struct ord_kv_shared *list; /* the block its parse is shared as */
};

uint64_t ord_hash64(const void *bytes, size_t len)
{
	const char *s = bytes;
	uint64_t h = 0x9E3779B97F4A7C15u ^ len, w;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xFF51AFD7ED558CCDu;
		h ^= h >> 32;
	}
	if (len) {
		w = 0;
		memcpy(&w, s, len);
		h = (h ^ w) * 0xFF51AFD7ED558CCDu;
		h ^= h >> 32;
	}
	return h;
}

static void texts_forget(struct ord_kv_pool *pool)
{
	size_t i;

	for (i = 0; pool->texts && i < TEXT_SLOTS; i++)
		free(pool->texts[i].text);
	free(pool->texts);
	pool->texts = NULL;
	pool->ntexts = 0;
}

/* The slot of text (len bytes, hash): the one holding it, or the empty
 * one where it goes. */
static struct ord_kv_pool_text *text_slot(const struct ord_kv_pool *pool, const char *text,
					  size_t len, uint64_t hash)
{
	size_t s;

	for (s = hash & (TEXT_SLOTS - 1);; s = (s + 1) & (TEXT_SLOTS - 1)) {
		struct ord_kv_pool_text *t = &pool->texts[s];
		if (!t->text || (t->hash == hash && t->len == len && !memcmp(t->text, text, len)))
			return t;
	}
}

/* The pool's table made cap slots (a power of two) of the blocks some list
 * still holds; the others are freed. */
static void pool_rehash(struct ord_kv_pool *pool, size_t cap)
{
	struct ord_kv_shared **old = pool->slots;
	size_t i, oldcap = pool->cap;

	texts_forget(pool);
	pool->gen++; /* blocks freed below: what was noted of them goes */

	pool->slots = ord_xcalloc(cap, sizeof(*pool->slots));
	pool->cap = cap;
	pool->n = 0;
	for (i = 0; i < oldcap; i++) {
		struct ord_kv_shared *h = old[i];
		size_t s;
		if (!h)
			continue;
		if (!h->refs) {
			free(h);
			continue;
		}
		for (s = h->hash & (cap - 1); pool->slots[s]; s = (s + 1) & (cap - 1))
			;
		pool->slots[s] = h;
		pool->n++;
	}
	free(old);
}

void ord_kv_pool_sweep(struct ord_kv_pool *pool)
{
	if (pool->cap)
		pool_rehash(pool, pool->cap);
}

void ord_kv_pool_release(struct ord_kv_pool *pool)
{
	size_t i;
	unsigned gen = pool->gen;

	/* a block still held is a list that outlives its pool: a bug, which
	 * the leak it leaves shows */
	for (i = 0; i < pool->cap; i++)
		if (pool->slots[i] && !pool->slots[i]->refs)
			free(pool->slots[i]);
	free(pool->slots);
	texts_forget(pool);
	ord_kv_pool_init(pool);
	pool->gen = gen + 1; /* every block freed */
}

/* kv, empty, made to hold the list of block h (counted in its refs by the
 * caller). */
static void held_shared(struct ord_kv *kv, struct ord_kv_shared *h)
{
	kv->items = (struct ord_kv_item *)(h + 1);
	kv->n = h->n;
	kv->alloc = SHARED;
}

/* kv, empty, made to hold fresh's list as the pool shares it: the same
 * list already there, fresh freed; or fresh's block (made with the head's
 * room before its items) put in the pool. */
static void pool_share(struct ord_kv_pool *pool, struct ord_kv *kv, struct ord_kv *fresh)
{
	uint32_t hash = hash_items(fresh);
	struct ord_kv_shared *h;
	size_t s;

	if (2 * (pool->n + 1) > pool->cap) {
		size_t cap = pool->cap ? pool->cap : 16;
		pool_rehash(pool, cap); /* the blocks no list holds go first */
		while (2 * (pool->n + 1) > cap)
			cap *= 2;
		if (cap != pool->cap)
			pool_rehash(pool, cap);
	}
	for (s = hash & (pool->cap - 1); (h = pool->slots[s]) != NULL; s = (s + 1) & (pool->cap - 1))
		if (h->hash == hash && h->n == fresh->n &&
		    same_items((const struct ord_kv_item *)(h + 1), fresh->items, fresh->n)) {
			free(head_of(fresh->items));
			h->refs++;
			goto held;
		}
	h = head_of(fresh->items);
	h->refs = 1;
	h->hash = hash;
	h->n = fresh->n;
	h->memo_set = 0;
	pool->slots[s] = h;
	pool->n++;
held:
	held_shared(kv, h);
	ord_kv_init(fresh);
}

int ord_kv_shared_memo(const struct ord_kv *kv, unsigned char **memo)
{
	struct ord_kv_shared *h;

	if (!kv->items || kv->alloc != SHARED) {
		*memo = NULL;
		return -1;
	}
	h = head_of(kv->items);
	*memo = h->memo;
	if (h->memo_set)
		return 1;
	h->memo_set = 1;
	return 0;
}

const void *ord_kv_shared_block(const struct ord_kv *kv)
{
	return kv->items && kv->alloc == SHARED ? head_of(kv->items) : NULL;
}

void ord_kv_share(struct ord_kv *kv, const struct ord_kv *like)
{
	struct ord_kv_shared *h;

	if (!like->items || like->alloc != SHARED) { /* no list a pool shares */
		ord_kv_copy(kv, like);
		return;
	}
	h = head_of(like->items);
	h->refs++;
	held_shared(kv, h);
}

int ord_kv_pool_parse(struct ord_kv_pool *pool, struct ord_kv *kv, const char *text)
{
	struct ord_kv_pool_text *t = NULL;
	struct ord_kv fresh;
	size_t len;
	uint64_t hash;
	int err;

	if (kv->n || kv->items)
		return ord_kv_parse(kv, text);
	len = strlen(text);
	if (pool->texts && len <= TEXT_MAX) {
		hash = ord_hash64(text, len);
		t = text_slot(pool, text, len, hash);
		if (t->text) {
			/* the same text parses into the same list: the one it made */
			t->list->refs++;
			held_shared(kv, t->list);
			return 0;
		}
	}
	ord_kv_init(&fresh);
	if ((err = parse_packed_at(&fresh, text, sizeof(struct ord_kv_shared))) != 0 || !fresh.n)
		return err;
	pool_share(pool, kv, &fresh); /* may rehash, which forgets the texts */
	if (len > TEXT_MAX || (pool->texts && 2 * (pool->ntexts + 1) > TEXT_SLOTS))
		return 0;
	if (!pool->texts) {
		pool->texts = ord_xcalloc(TEXT_SLOTS, sizeof(*pool->texts));
		t = NULL;
	}
	if (!t) {
		hash = ord_hash64(text, len);
		t = text_slot(pool, text, len, hash);
	}
	t->hash = hash;
	t->len = len;
	t->text = ord_xmalloc(len + 1);
	memcpy(t->text, text, len + 1);
	t->list = head_of(kv->items);
	pool->ntexts++;
	return 0;
}

void ord_kv_pool_repack(struct ord_kv_pool *pool, struct ord_kv *kv, const struct ord_buf *serialised)
{
	struct ord_kv fresh;

	if (kv->alloc == SHARED)
		return;
	ord_kv_init(&fresh);
	if (!serialised->len ||
	    parse_packed_at(&fresh, serialised->buf, sizeof(struct ord_kv_shared)) || !fresh.n)
		return;
	/* a key with '=', a value with a newline: its text reads otherwise */
	if (fresh.n != kv->n || !same_items(fresh.items, kv->items, kv->n)) {
		free(head_of(fresh.items));
		return;
	}
	ord_kv_release(kv);
	pool_share(pool, kv, &fresh);
}
