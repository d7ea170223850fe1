/*
 * ctx.c - the module context: units with id/name lookup, orders, events,
 * dice and results, shared by the real game (game.c) and the fake context
 * that lets a ruleset be tested with no database.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "core/argcheck.h"
#include "core/canon.h"
#include "core/common.h"
#include "core/crypto.h"
#include "core/ctx.h"

/* ---- a string -> unit index hash map (open addressing) ---- */

static uint64_t hash_str(const char *s, int fold)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (fold)
			c = (unsigned char)tolower(c);
		h = (h ^ c) * 1099511628211ULL;
	}
	return h;
}

/*
 * Unit names and ids are compared with their Latin letters composed: a
 * sheet from macOS or a PDF writes é as e and U+0301 (NFD), which looks
 * the same as the scenario's é and was "unknown unit '1/2e Léger'".  A
 * letter of Latin-1 Supplement or Latin Extended-A followed by its
 * combining mark (U+0300 to U+036F) is the precomposed letter; any other
 * mark stays a character of its own.  No library: these are the letters
 * of the Napoleonic armies' names, and the table is their canonical
 * decompositions (UnicodeData.txt), with the Danish ø as o and U+0338,
 * sorted by letter and mark.  Only the comparison composes: the sheet's
 * bytes, and the names, stay as written.
 */
static const struct {
	unsigned char base; /* an ASCII letter */
	uint16_t mark;      /* the combining mark after it */
	uint16_t letter;    /* the precomposed letter they are */
} composed[] = {
	{ 'A', 0x300, 0x0C0 }, { 'A', 0x301, 0x0C1 }, { 'A', 0x302, 0x0C2 }, { 'A', 0x303, 0x0C3 },
	{ 'A', 0x304, 0x100 }, { 'A', 0x306, 0x102 }, { 'A', 0x308, 0x0C4 }, { 'A', 0x30A, 0x0C5 },
	{ 'A', 0x328, 0x104 }, { 'C', 0x301, 0x106 }, { 'C', 0x302, 0x108 }, { 'C', 0x307, 0x10A },
	{ 'C', 0x30C, 0x10C }, { 'C', 0x327, 0x0C7 }, { 'D', 0x30C, 0x10E }, { 'E', 0x300, 0x0C8 },
	{ 'E', 0x301, 0x0C9 }, { 'E', 0x302, 0x0CA }, { 'E', 0x304, 0x112 }, { 'E', 0x306, 0x114 },
	{ 'E', 0x307, 0x116 }, { 'E', 0x308, 0x0CB }, { 'E', 0x30C, 0x11A }, { 'E', 0x328, 0x118 },
	{ 'G', 0x302, 0x11C }, { 'G', 0x306, 0x11E }, { 'G', 0x307, 0x120 }, { 'G', 0x327, 0x122 },
	{ 'H', 0x302, 0x124 }, { 'I', 0x300, 0x0CC }, { 'I', 0x301, 0x0CD }, { 'I', 0x302, 0x0CE },
	{ 'I', 0x303, 0x128 }, { 'I', 0x304, 0x12A }, { 'I', 0x306, 0x12C }, { 'I', 0x307, 0x130 },
	{ 'I', 0x308, 0x0CF }, { 'I', 0x328, 0x12E }, { 'J', 0x302, 0x134 }, { 'K', 0x327, 0x136 },
	{ 'L', 0x301, 0x139 }, { 'L', 0x30C, 0x13D }, { 'L', 0x327, 0x13B }, { 'N', 0x301, 0x143 },
	{ 'N', 0x303, 0x0D1 }, { 'N', 0x30C, 0x147 }, { 'N', 0x327, 0x145 }, { 'O', 0x300, 0x0D2 },
	{ 'O', 0x301, 0x0D3 }, { 'O', 0x302, 0x0D4 }, { 'O', 0x303, 0x0D5 }, { 'O', 0x304, 0x14C },
	{ 'O', 0x306, 0x14E }, { 'O', 0x308, 0x0D6 }, { 'O', 0x30B, 0x150 }, { 'O', 0x338, 0x0D8 },
	{ 'R', 0x301, 0x154 }, { 'R', 0x30C, 0x158 }, { 'R', 0x327, 0x156 }, { 'S', 0x301, 0x15A },
	{ 'S', 0x302, 0x15C }, { 'S', 0x30C, 0x160 }, { 'S', 0x327, 0x15E }, { 'T', 0x30C, 0x164 },
	{ 'T', 0x327, 0x162 }, { 'U', 0x300, 0x0D9 }, { 'U', 0x301, 0x0DA }, { 'U', 0x302, 0x0DB },
	{ 'U', 0x303, 0x168 }, { 'U', 0x304, 0x16A }, { 'U', 0x306, 0x16C }, { 'U', 0x308, 0x0DC },
	{ 'U', 0x30A, 0x16E }, { 'U', 0x30B, 0x170 }, { 'U', 0x328, 0x172 }, { 'W', 0x302, 0x174 },
	{ 'Y', 0x301, 0x0DD }, { 'Y', 0x302, 0x176 }, { 'Y', 0x308, 0x178 }, { 'Z', 0x301, 0x179 },
	{ 'Z', 0x307, 0x17B }, { 'Z', 0x30C, 0x17D }, { 'a', 0x300, 0x0E0 }, { 'a', 0x301, 0x0E1 },
	{ 'a', 0x302, 0x0E2 }, { 'a', 0x303, 0x0E3 }, { 'a', 0x304, 0x101 }, { 'a', 0x306, 0x103 },
	{ 'a', 0x308, 0x0E4 }, { 'a', 0x30A, 0x0E5 }, { 'a', 0x328, 0x105 }, { 'c', 0x301, 0x107 },
	{ 'c', 0x302, 0x109 }, { 'c', 0x307, 0x10B }, { 'c', 0x30C, 0x10D }, { 'c', 0x327, 0x0E7 },
	{ 'd', 0x30C, 0x10F }, { 'e', 0x300, 0x0E8 }, { 'e', 0x301, 0x0E9 }, { 'e', 0x302, 0x0EA },
	{ 'e', 0x304, 0x113 }, { 'e', 0x306, 0x115 }, { 'e', 0x307, 0x117 }, { 'e', 0x308, 0x0EB },
	{ 'e', 0x30C, 0x11B }, { 'e', 0x328, 0x119 }, { 'g', 0x302, 0x11D }, { 'g', 0x306, 0x11F },
	{ 'g', 0x307, 0x121 }, { 'g', 0x327, 0x123 }, { 'h', 0x302, 0x125 }, { 'i', 0x300, 0x0EC },
	{ 'i', 0x301, 0x0ED }, { 'i', 0x302, 0x0EE }, { 'i', 0x303, 0x129 }, { 'i', 0x304, 0x12B },
	{ 'i', 0x306, 0x12D }, { 'i', 0x308, 0x0EF }, { 'i', 0x328, 0x12F }, { 'j', 0x302, 0x135 },
	{ 'k', 0x327, 0x137 }, { 'l', 0x301, 0x13A }, { 'l', 0x30C, 0x13E }, { 'l', 0x327, 0x13C },
	{ 'n', 0x301, 0x144 }, { 'n', 0x303, 0x0F1 }, { 'n', 0x30C, 0x148 }, { 'n', 0x327, 0x146 },
	{ 'o', 0x300, 0x0F2 }, { 'o', 0x301, 0x0F3 }, { 'o', 0x302, 0x0F4 }, { 'o', 0x303, 0x0F5 },
	{ 'o', 0x304, 0x14D }, { 'o', 0x306, 0x14F }, { 'o', 0x308, 0x0F6 }, { 'o', 0x30B, 0x151 },
	{ 'o', 0x338, 0x0F8 }, { 'r', 0x301, 0x155 }, { 'r', 0x30C, 0x159 }, { 'r', 0x327, 0x157 },
	{ 's', 0x301, 0x15B }, { 's', 0x302, 0x15D }, { 's', 0x30C, 0x161 }, { 's', 0x327, 0x15F },
	{ 't', 0x30C, 0x165 }, { 't', 0x327, 0x163 }, { 'u', 0x300, 0x0F9 }, { 'u', 0x301, 0x0FA },
	{ 'u', 0x302, 0x0FB }, { 'u', 0x303, 0x169 }, { 'u', 0x304, 0x16B }, { 'u', 0x306, 0x16D },
	{ 'u', 0x308, 0x0FC }, { 'u', 0x30A, 0x16F }, { 'u', 0x30B, 0x171 }, { 'u', 0x328, 0x173 },
	{ 'w', 0x302, 0x175 }, { 'y', 0x301, 0x0FD }, { 'y', 0x302, 0x177 }, { 'y', 0x308, 0x0FF },
	{ 'z', 0x301, 0x17A }, { 'z', 0x307, 0x17C }, { 'z', 0x30C, 0x17E },
};

/* The precomposed letter of base and mark, or 0. */
static uint32_t compose(uint32_t base, uint32_t mark)
{
	size_t lo = 0, hi = ORD_ARRAY_SIZE(composed);

	if (base >= 0x80)
		return 0;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (composed[mid].base == base && composed[mid].mark == mark)
			return composed[mid].letter;
		if (composed[mid].base < base ||
		    (composed[mid].base == base && composed[mid].mark < mark))
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* Is the code point a combining mark of the range the table composes? */
static int combining(uint32_t cp)
{
	return cp >= 0x300 && cp <= 0x36F;
}

/* The characters of a name, a letter and its mark composed (see above);
 * with fold, ASCII letters in lower case (as ord_strcaseeq).  A byte that
 * is not UTF-8 is a character of its own, above every code point. */
struct name_chars {
	const unsigned char *s, *end; /* the rest of the name */
	int fold;                     /* ASCII letters in lower case */
};

static void name_chars_init(struct name_chars *it, const char *s, int fold)
{
	it->s = (const unsigned char *)s;
	it->end = it->s + strlen(s);
	it->fold = fold;
}

/* The next character, or 0 at the end. */
static uint32_t name_char(struct name_chars *it)
{
	uint32_t cp, mark, c;
	size_t n;

	if (it->s >= it->end)
		return 0;
	n = ord_utf8_decode(it->s, it->end, &cp);
	if (!n) {
		cp = 0x110000u + *it->s;
		n = 1;
	}
	it->s += n;
	/* a mark is two bytes, CC 80 to CD AF */
	while (cp < 0x80 && it->end - it->s >= 2 && (it->s[0] == 0xCC || it->s[0] == 0xCD) &&
	       ord_utf8_decode(it->s, it->end, &mark) == 2 && (c = compose(cp, mark)) != 0) {
		cp = c;
		it->s += 2;
	}
	if (it->fold && cp >= 'A' && cp <= 'Z')
		cp += 'a' - 'A';
	return cp;
}

static unsigned ascii_lower(unsigned c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/* The hash of a map's key: of its characters, composed (and folded).  A
 * key of ASCII alone, nearly every one, is hashed byte by byte: the same
 * hash, without decoding (a submit looks up thousands). */
static uint64_t hash_key(const char *s, int fold)
{
	uint64_t h = 1469598103934665603ULL;
	const unsigned char *p;
	struct name_chars it;
	uint32_t cp;

	for (p = (const unsigned char *)s; *p && *p < 0x80; p++)
		h = (h ^ (fold ? ascii_lower(*p) : *p)) * 1099511628211ULL;
	if (!*p)
		return h;
	h = 1469598103934665603ULL;
	name_chars_init(&it, s, fold);
	while ((cp = name_char(&it)) != 0) {
		h = (h ^ (cp & 0xFF)) * 1099511628211ULL;
		if (cp > 0xFF)
			h = (h ^ (cp >> 8)) * 1099511628211ULL;
	}
	return h;
}

static const char *key_of(struct ord_ctx *ctx, size_t i, int fold)
{
	return fold ? ctx->units[i].name : ctx->units[i].id;
}

static int key_eq(const char *a, const char *b, int fold)
{
	struct name_chars x, y;
	uint32_t ca, cb;
	const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;

	/* byte by byte while they agree; two ASCII bytes that differ are two
	 * characters that differ (a letter is composed only with a mark, a
	 * byte of 0x80 up, after it), so only then is a name decoded */
	while (*p && (*p == *q || (fold && ascii_lower(*p) == ascii_lower(*q)))) {
		p++;
		q++;
	}
	if (!*p && !*q)
		return 1;
	if (*p < 0x80 && *q < 0x80)
		return 0;
	name_chars_init(&x, a, fold);
	name_chars_init(&y, b, fold);
	do {
		ca = name_char(&x);
		cb = name_char(&y);
		if (ca != cb)
			return 0;
	} while (ca);
	return 1;
}

/* The name with its letters composed, into out (reset first); whether
 * that changed it. */
int ord_ctx_compose_name(struct ord_buf *out, const char *s)
{
	struct name_chars it;
	const unsigned char *at;
	uint32_t cp;
	char u[4];

	ord_buf_reset(out);
	name_chars_init(&it, s, 0);
	for (at = it.s; (cp = name_char(&it)) != 0; at = it.s) {
		if (*at >= 0x80 || it.s - at == 1) {
			ord_buf_add(out, at, (size_t)(it.s - at)); /* as written */
			continue;
		}
		/* an ASCII letter and its mark composed: below U+0180, two bytes */
		u[0] = (char)(0xC0 | (cp >> 6));
		u[1] = (char)(0x80 | (cp & 0x3F));
		ord_buf_add(out, u, 2);
	}
	return strcmp(out->buf, s) != 0;
}

static void map_build(struct ord_ctx *ctx, struct ord_ctx_map *m, int fold)
{
	size_t i, cap = 16;

	while (cap < 2 * ctx->nunits + 2)
		cap *= 2;
	free(m->slots);
	m->slots = ord_xcalloc(cap, sizeof(*m->slots));
	m->cap = cap;
	for (i = 0; i < ctx->nunits; i++) {
		size_t s = (size_t)hash_key(key_of(ctx, i, fold), fold) & (cap - 1);
		while (m->slots[s]) {
			/* keep the first unit of a duplicated name (scenarios forbid them) */
			if (key_eq(key_of(ctx, m->slots[s] - 1, fold), key_of(ctx, i, fold), fold))
				goto next;
			s = (s + 1) & (cap - 1);
		}
		m->slots[s] = (uint32_t)(i + 1);
	next:;
	}
}

/* Add unit i to a built map (a unit loaded into a partial context);
 * rebuilt twice as large when it would be more than half full. */
static void map_insert(struct ord_ctx *ctx, struct ord_ctx_map *m, size_t i, int fold)
{
	size_t s;

	if (2 * ctx->nunits + 2 > m->cap) {
		map_build(ctx, m, fold);
		return;
	}
	s = (size_t)hash_key(key_of(ctx, i, fold), fold) & (m->cap - 1);
	while (m->slots[s]) {
		if (key_eq(key_of(ctx, m->slots[s] - 1, fold), key_of(ctx, i, fold), fold))
			return;
		s = (s + 1) & (m->cap - 1);
	}
	m->slots[s] = (uint32_t)(i + 1);
}

static struct ord_unit *map_find(struct ord_ctx *ctx, struct ord_ctx_map *m, const char *k, int fold)
{
	size_t s;

	if (!m->cap)
		return NULL;
	s = (size_t)hash_key(k, fold) & (m->cap - 1);
	while (m->slots[s]) {
		if (key_eq(key_of(ctx, m->slots[s] - 1, fold), k, fold))
			return &ctx->units[m->slots[s] - 1];
		s = (s + 1) & (m->cap - 1);
	}
	return NULL;
}

/* ---- names shared by many events, rolls and results ---- */

#define MAX_INTERNED 64

static int interned(const struct ord_ctx *ctx, const char *s)
{
	size_t i;

	for (i = 0; i < ctx->ninterned; i++)
		if (ctx->interned[i] == s)
			return 1;
	return 0;
}

/*
 * The ctx's one copy of s (a phase or event kind name: a phase of 100,000
 * units has as many events and results, all of one phase and a few kinds).
 * Owned by ctx; past MAX_INTERNED names a plain copy is made instead, which
 * the caller's release frees because it is not interned.
 */
static char *intern(struct ord_ctx *ctx, const char *s)
{
	size_t i;

	for (i = 0; i < ctx->ninterned; i++)
		if (!strcmp(ctx->interned[i], s))
			return ctx->interned[i];
	if (ctx->ninterned == MAX_INTERNED)
		return ord_strdup(s);
	ctx->interned = ord_xrealloc(ctx->interned, (ctx->ninterned + 1) * sizeof(*ctx->interned));
	return ctx->interned[ctx->ninterned++] = ord_strdup(s);
}

/* Free a name unless it is one of the ctx's shared copies. */
static void uninterned_free(const struct ord_ctx *ctx, const char *s)
{
	if (!interned(ctx, s))
		free((char *)s);
}

/* What an event holds; a removed one (its kind NULL) holds nothing. */
static void event_release(const struct ord_ctx *ctx, struct ord_event *e)
{
	if (!e->kind)
		return;
	free((char *)e->override);
	uninterned_free(ctx, e->phase);
	uninterned_free(ctx, e->kind);
	uninterned_free(ctx, e->check);
	ord_kv_release(&e->kv);
	e->kind = NULL;
}

static void result_release(const struct ord_ctx *ctx, struct ord_ctx_result *r)
{
	uninterned_free(ctx, r->phase);
	/* its unit, values and explanation are in result_strings */
	if (r->texts) {
		ord_kv_release(r->texts);
		free(r->texts);
	}
}

static void unit_results_free(struct ord_ctx *ctx);

/* The results' values parsed for ord_ctx_result_get, and the results by
 * unit, let go (wherever the results are). */
static void result_kv_release(struct ord_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->nresult_kv; i++)
		ord_kv_release(&ctx->result_kv[i]);
	free(ctx->result_kv);
	ctx->result_kv = NULL;
	ctx->nresult_kv = ctx->result_kv_alloc = 0;
	unit_results_free(ctx);
}

static const struct ord_kv no_texts;

const struct ord_kv *ord_ctx_result_texts_of(const struct ord_ctx_result *r)
{
	return r->texts ? r->texts : &no_texts;
}

/* ---- life cycle ---- */

static void evx_free(struct ord_ctx *ctx);

void ord_ctx_init(struct ord_ctx *ctx, const struct ord_ruleset *rs, struct ord_rules *rules, int turn)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->rs = rs;
	ctx->rules = rules;
	ctx->turn = turn;
	ord_buf_init(&ctx->fake_out);
	ord_buf_init(&ctx->result_scratch);
	ord_buf_init(&ctx->all_units);
}

static void keyed_free(struct ord_ctx_keyed *k);

void ord_ctx_release(struct ord_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->nunits; i++) {
		struct ord_unit *u = &ctx->units[i];
		if (!ctx->attrs_shared)
			ord_kv_release(&u->attrs); /* its strings are in unit_strings */
		ord_kv_release(&u->state);
	}
	free(ctx->units);
	ord_buf_release(&ctx->all_units);
	ord_arena_release(&ctx->unit_strings);
	ord_kv_pool_release(&ctx->pool);
	free(ctx->state_before);
	free(ctx->by_id.slots);
	free(ctx->by_name.slots);
	keyed_free(ctx->keyed);
	free(ctx->orders);
	for (i = 0; i < ctx->nevents; i++)
		event_release(ctx, &ctx->events[i]);
	free(ctx->events);
	evx_free(ctx);
	for (i = 0; i < ctx->nrolls; i++) {
		uninterned_free(ctx, ctx->rolls[i].phase);
		free(ctx->rolls[i].purpose);
	}
	free(ctx->rolls);
	free(ctx->roll_slots);
	for (i = 0; ctx->results && i < ctx->nresults; i++)
		result_release(ctx, &ctx->results[i]);
	free(ctx->results);
	free(ctx->result_hash);
	result_kv_release(ctx);
	ord_arena_release(&ctx->result_strings);
	for (i = 0; i < ctx->ninterned; i++)
		free(ctx->interned[i]);
	free(ctx->interned);
	for (i = 0; i < ctx->nsheets; i++)
		ord_sheet_release(&ctx->sheets[i]);
	free(ctx->sheets);
	ord_buf_release(&ctx->fake_out);
	ord_buf_release(&ctx->result_scratch);
	ord_ctx_story_free(ctx->story);
	memset(ctx, 0, sizeof(*ctx));
}

/* BLAKE2b-128 of a unit's serialised state: what ord_ctx_unit_changed
 * compares, so the loaded text need not be kept (100,000 units) */
static void state_hash(unsigned char out[16], const char *s)
{
	crypto_generichash(out, 16, (const unsigned char *)s, strlen(s), NULL, 0);
}

/* Is text (parsed into n items) exactly what ord_kv_serialize writes for
 * them?  Yes when every line ends in a newline and no key came twice, as
 * for every state the core stored. */
static int serialised(const char *text, size_t n)
{
	size_t lines = 0;
	const char *p;

	if (!text)
		return n == 0;
	for (p = text; (p = strchr(p, '\n')) != NULL; p++)
		lines++;
	return lines == n && (!*text || text[strlen(text) - 1] == '\n');
}

/* The hash of a unit's state st as ord_ctx_unit_changed serialises it:
 * of text when that is its serialised text (exact, or as serialised
 * finds it), else of the text made.  A state the context's pool shares is
 * hashed once for every unit whose state is that list (units of a kind
 * begin alike, and most end a phase as others of their kind): the hash is
 * noted with the list (ord_kv_shared_memo), being of its items alone. */
static void state_hash_of(const struct ord_kv *st, const char *text, int exact, unsigned char out[16])
{
	unsigned char *memo;
	int noted = ord_kv_shared_memo(st, &memo);

	if (noted == 1) {
		memcpy(out, memo, 16);
		return;
	}
	if (text && (exact || serialised(text, st->n))) {
		state_hash(out, text);
	} else {
		struct ord_buf b = ORD_BUF_INIT;
		ord_kv_serialize(st, &b);
		state_hash(out, b.buf);
		ord_buf_release(&b);
	}
	if (noted == 0)
		memcpy(memo, out, 16);
}

/* A unit added, its strings copied into ctx's unit_strings, or (shared)
 * the caller's, which outlive ctx. */
static struct ord_unit *add_unit(struct ord_ctx *ctx, const char *id, const char *name,
				 const char *side, const char *attrs, const char *state, int shared)
{
	struct ord_unit *u;

	if (ctx->nunits == ctx->ualloc) {
		ctx->ualloc = ctx->ualloc ? 2 * ctx->ualloc : 64;
		ctx->units = ord_xrealloc(ctx->units, ctx->ualloc * sizeof(*ctx->units));
		if (!ctx->lazy && !ctx->checks_only)
			ctx->state_before = ord_xrealloc(ctx->state_before,
							 ctx->ualloc * sizeof(*ctx->state_before));
	}
	u = &ctx->units[ctx->nunits];
	if (shared) {
		u->id = (char *)id;
		u->name = (char *)name;
		u->side = (char *)side;
	} else {
		/* a game may hold 100,000 units: no malloc of their own */
		size_t li = strlen(id) + 1, ln = strlen(name) + 1, ls = strlen(side) + 1;
		char *p = ord_arena_alloc(&ctx->unit_strings, li + ln + ls);
		u->id = memcpy(p, id, li);
		u->name = memcpy(p + li, name, ln);
		u->side = memcpy(p + li + ln, side, ls);
	}
	ord_kv_init(&u->attrs);
	ord_kv_init(&u->state);
	if (attrs)
		ord_kv_pool_parse(&ctx->pool, &u->attrs, attrs);
	if (state)
		ord_kv_pool_parse(&ctx->pool, &u->state, state);
	/* as hashed below: until a phase changes it (ord_ctx_unit_changed) */
	ord_kv_hold(&u->state);
	if (!ctx->state_before) {
		/* a partial context only checks: nothing to compare with */
	} else
		state_hash_of(&u->state, state, 0, ctx->state_before[ctx->nunits]);
	ctx->nunits++;
	return u;
}

struct ord_unit *ord_ctx_add_unit_shared(struct ord_ctx *ctx, const char *id, const char *name,
					 const char *side, const struct ord_kv *attrs,
					 const char *state)
{
	struct ord_unit *u = add_unit(ctx, id, name, side, NULL, state, 1);

	ctx->attrs_shared = 1;
	u->attrs = *attrs;
	return u;
}

struct ord_unit *ord_ctx_add_unit(struct ord_ctx *ctx, const char *id, const char *name,
				  const char *side, const char *attrs, const char *state)
{
	return add_unit(ctx, id, name, side, attrs, state, 0);
}

/* A slot in orders for every unit held (those already set kept). */
static void orders_fit(struct ord_ctx *ctx)
{
	size_t n = ctx->nunits + 1;

	if (ctx->orders && ctx->norders >= n)
		return;
	/* twice as many when a partial context loads its units one by one */
	if (ctx->orders && n < 2 * ctx->norders)
		n = 2 * ctx->norders;
	ctx->orders = ord_xrealloc(ctx->orders, n * sizeof(*ctx->orders));
	memset(ctx->orders + ctx->norders, 0, (n - ctx->norders) * sizeof(*ctx->orders));
	ctx->norders = n;
}

void ord_ctx_index(struct ord_ctx *ctx)
{
	map_build(ctx, &ctx->by_id, 0);
	map_build(ctx, &ctx->by_name, 1);
	/* keep orders already attached: the fake context re-indexes per unit */
	orders_fit(ctx);
}

size_t ord_ctx_unit_index(struct ord_ctx *ctx, const struct ord_unit *u)
{
	return (size_t)(u - ctx->units);
}

void ord_ctx_attach_sheet(struct ord_ctx *ctx, struct ord_sheet *sheet, const char *side)
{
	struct ord_sheet *s;
	size_t i;

	ctx->sheets = ord_xrealloc(ctx->sheets, (ctx->nsheets + 1) * sizeof(*ctx->sheets));
	s = &ctx->sheets[ctx->nsheets++];
	*s = *sheet;
	ord_sheet_init(sheet);
	ord_sheet_pack(s);
	for (i = 0; i < s->n; i++) {
		struct ord_unit *u = ord_ctx_find_unit(ctx, s->orders[i].unit);
		if (u && !strcmp(u->side, side))
			ctx->orders[u - ctx->units] = &s->orders[i];
	}
}

void ord_ctx_attach_order(struct ord_ctx *ctx, size_t i, struct ord_sheet *one)
{
	struct ord_sheet *s;

	ctx->sheets = ord_xrealloc(ctx->sheets, (ctx->nsheets + 1) * sizeof(*ctx->sheets));
	s = &ctx->sheets[ctx->nsheets++];
	*s = *one;
	ord_sheet_init(one);
	ord_sheet_pack(s);
	orders_fit(ctx);
	if (i < ctx->nunits && s->n)
		ctx->orders[i] = &s->orders[0];
}

void ord_ctx_reserve_units(struct ord_ctx *ctx, size_t n)
{
	if (n <= ctx->ualloc)
		return;
	ctx->ualloc = n;
	ctx->units = ord_xrealloc(ctx->units, ctx->ualloc * sizeof(*ctx->units));
	if (!ctx->lazy && !ctx->checks_only)
		ctx->state_before = ord_xrealloc(ctx->state_before,
						 ctx->ualloc * sizeof(*ctx->state_before));
}

void ord_ctx_set_checks_only(struct ord_ctx *ctx, size_t n)
{
	/* as a partial context: a check does not compare states (hashing
	 * each unit's was a twentieth of a submit) */
	free(ctx->state_before);
	ctx->state_before = NULL;
	ctx->checks_only = 1;
	ord_ctx_reserve_units(ctx, n);
}

void ord_ctx_reserve_results(struct ord_ctx *ctx, size_t n)
{
	if (n <= ctx->resalloc)
		return;
	ctx->resalloc = n;
	if (ctx->lean_results)
		ctx->result_hash = ord_xrealloc(ctx->result_hash,
						ctx->resalloc * sizeof(*ctx->result_hash));
	else
		ctx->results = ord_xrealloc(ctx->results, ctx->resalloc * sizeof(*ctx->results));
}

void ord_ctx_set_lean_results(struct ord_ctx *ctx, int on)
{
	size_t i;

	/* the phase's results so far let go: a phase is begun lean or not */
	for (i = 0; ctx->results && i < ctx->nresults; i++)
		result_release(ctx, &ctx->results[i]);
	free(ctx->results);
	free(ctx->result_hash);
	ctx->results = NULL;
	ctx->result_hash = NULL;
	ctx->nresults = ctx->resalloc = 0;
	result_kv_release(ctx);
	ord_arena_release(&ctx->result_strings);
	ctx->lean_results = on;
}

void ord_ctx_reserve_events(struct ord_ctx *ctx, size_t n)
{
	if (n <= ctx->ealloc)
		return;
	ctx->ealloc = n;
	ctx->events = ord_xrealloc(ctx->events, ctx->ealloc * sizeof(*ctx->events));
}

struct ord_event *ord_ctx_add_event(struct ord_ctx *ctx, unsigned seq, const char *phase,
				    const char *kind, const char *args, const char *override,
				    const char *check)
{
	struct ord_event *e;

	if (ctx->nevents == ctx->ealloc) {
		ctx->ealloc = ctx->ealloc ? 2 * ctx->ealloc : 16;
		ctx->events = ord_xrealloc(ctx->events, ctx->ealloc * sizeof(*ctx->events));
	}
	ctx->events_sorted = !ctx->nevents
				     ? 1
				     : ctx->events_sorted && ctx->events[ctx->nevents - 1].seq < seq;
	e = &ctx->events[ctx->nevents++];
	e->seq = seq;
	e->phase = intern(ctx, phase);
	e->kind = intern(ctx, kind);
	e->override = override ? ord_strdup(override) : NULL;
	e->check = check && *check ? ord_strdup(check) : intern(ctx, "");
	ord_kv_init(&e->kv);
	if (args)
		ord_kv_parse(&e->kv, args);
	return e;
}

/* ---- the events by unit ---- */

/* A unit's list of event (or result) indexes: in the list while it holds two at most
 * (a phase of 100,000 units names most units once or twice: an array of
 * its own for each cost 5 MB with malloc's headers), else on the heap.
 * Indexes are 32 bits: a context holds fewer than 2^32 events. */
static uint32_t *evl_event(struct ord_ctx_evlist *l)
{
	return l->alloc ? l->at.heap : l->at.one;
}

/* Room for one more index in l. */
static void evl_room(struct ord_ctx_evlist *l)
{
	if (!l->alloc && l->n == ORD_ARRAY_SIZE(l->at.one)) {
		uint32_t *heap = ord_xmalloc(4 * sizeof(*heap));
		memcpy(heap, l->at.one, sizeof(l->at.one));
		l->at.heap = heap;
		l->alloc = 4;
	} else if (l->alloc && l->n == l->alloc) {
		l->alloc *= 2;
		l->at.heap = ord_xrealloc(l->at.heap, l->alloc * sizeof(*l->at.heap));
	}
}

/* n lists and what they hold let go. */
static void evl_free(struct ord_ctx_evlist *lists, size_t n)
{
	size_t i;

	for (i = 0; lists && i < n; i++)
		if (lists[i].alloc)
			free(lists[i].at.heap);
	free(lists);
}

static void evx_reset(struct ord_ctx *ctx)
{
	size_t i;

	ctx->evx_done = 0;
	for (i = 0; i < ctx->evx_units; i++)
		ctx->evx[i].n = 0;
}

static void evx_free(struct ord_ctx *ctx)
{
	evl_free(ctx->evx, ctx->evx_units);
	ctx->evx = NULL;
	ctx->evx_units = ctx->evx_done = 0;
}

static void evx_link(struct ord_ctx *ctx, size_t unit, size_t event)
{
	struct ord_ctx_evlist *l = &ctx->evx[unit];
	unsigned seq = ctx->events[event].seq;
	uint32_t *ev = evl_event(l);
	size_t at = l->n;

	/* an event naming one unit in two keys is listed once */
	if (l->n && ev[l->n - 1] == event)
		return;
	if (l->n && ctx->events[ev[l->n - 1]].seq >= seq) {
		/* a partial context loads a unit's events when it loads the
		 * unit: keep each unit's list in the order of the events'
		 * numbers, as a whole context has it, so the checks read them
		 * in the same order (the usual case, events in the order of
		 * their numbers, appends) */
		for (at = 0; at < l->n; at++) {
			if (ev[at] == event)
				return; /* listed already */
			if (ctx->events[ev[at]].seq > seq)
				break;
		}
		if (at == l->n)
			return;
	}
	evl_room(l);
	ev = evl_event(l);
	memmove(ev + at + 1, ev + at, (l->n - at) * sizeof(*ev));
	ev[at] = (uint32_t)event;
	l->n++;
}

/* Index the events added since the last call. */
static void evx_update(struct ord_ctx *ctx)
{
	/* a partial context holds at most ualloc units, which never move */
	size_t want = ctx->lazy ? ctx->ualloc : ctx->nunits;

	if (ctx->evx_units != want || !ctx->evx) {
		/* units added (a fake context): index everything again */
		evx_free(ctx);
		ctx->evx = ord_xcalloc(want + 1, sizeof(*ctx->evx));
		ctx->evx_units = want;
	}
	for (; ctx->evx_done < ctx->nevents; ctx->evx_done++) {
		const struct ord_event_kind *ek;
		const struct ord_key_spec *ks;

		if (!ctx->events[ctx->evx_done].kind)
			continue; /* removed, not yet closed up */
		ek = ord_ruleset_event_kind(ctx->rs, ctx->events[ctx->evx_done].kind);

		for (ks = ek ? ek->keys : NULL; ks && ks->name; ks++) {
			const char *v;
			struct ord_unit *u;
			/* looking a unit up may load it and its events (a partial
			 * context): take the event from the array each time */
			if (ks->type != ORD_KEY_UNIT ||
			    !(v = ord_kv_get(&ctx->events[ctx->evx_done].kv, ks->name)))
				continue;
			if ((u = ord_ctx_find_unit(ctx, v)) != NULL)
				evx_link(ctx, (size_t)(u - ctx->units), ctx->evx_done);
		}
	}
}

size_t ord_ctx_unit_nevents(struct ord_ctx *ctx, const struct ord_unit *u)
{
	if (!u)
		return 0;
	evx_update(ctx);
	return ctx->evx[u - ctx->units].n;
}

const struct ord_event *ord_ctx_unit_event(struct ord_ctx *ctx, const struct ord_unit *u, size_t i)
{
	struct ord_ctx_evlist *l;

	if (!u)
		return NULL;
	evx_update(ctx);
	l = &ctx->evx[u - ctx->units];
	return i < l->n ? &ctx->events[evl_event(l)[i]] : NULL;
}

struct ord_unit *ord_ctx_unit_events_full(struct ord_ctx *ctx, const struct ord_event_kind *ek,
					  const struct ord_kv *kv)
{
	const struct ord_key_spec *ks;

	for (ks = ek ? ek->keys : NULL; ks && ks->name; ks++) {
		struct ord_unit *u;
		const char *v;

		if (ks->type == ORD_KEY_UNIT && (v = ord_kv_get(kv, ks->name)) != NULL &&
		    (u = ord_ctx_find_unit(ctx, v)) != NULL &&
		    ord_ctx_unit_nevents(ctx, u) >= ORD_EVENTS_PER_UNIT)
			return u;
	}
	return NULL;
}

void ord_ctx_unlist_event(struct ord_ctx *ctx, size_t i)
{
	const struct ord_event_kind *ek;
	const struct ord_key_spec *ks;

	evx_update(ctx);
	ek = i < ctx->nevents && ctx->events[i].kind
		     ? ord_ruleset_event_kind(ctx->rs, ctx->events[i].kind)
		     : NULL;
	for (ks = ek ? ek->keys : NULL; ks && ks->name; ks++) {
		struct ord_ctx_evlist *l;
		struct ord_unit *u;
		const char *v;
		uint32_t *ev;
		size_t k;

		if (ks->type != ORD_KEY_UNIT || !(v = ord_kv_get(&ctx->events[i].kv, ks->name)) ||
		    !(u = ord_ctx_find_unit(ctx, v)))
			continue;
		/* the latest event is at the end of its units' lists */
		l = &ctx->evx[u - ctx->units];
		ev = evl_event(l);
		for (k = l->n; k > 0 && ctx->events[ev[k - 1]].seq >= ctx->events[i].seq; k--)
			if (ev[k - 1] == i) {
				memmove(ev + k - 1, ev + k, (l->n - k) * sizeof(*ev));
				l->n--;
				break;
			}
	}
}

/* The index of event seq, or ctx->nevents: halved when the events are in
 * the order of their numbers (as a replay and a whole context add them),
 * else one by one. */
static int64_t event_seq(const void *ud, size_t i)
{
	return ((const struct ord_ctx *)ud)->events[i].seq;
}

static size_t event_index(const struct ord_ctx *ctx, unsigned seq)
{
	size_t i;

	if (!ctx->events_sorted) {
		for (i = 0; i < ctx->nevents && ctx->events[i].seq != seq; i++)
			;
		return i;
	}
	i = ord_lower_bound(ctx->nevents, seq, event_seq, ctx);
	return i < ctx->nevents && ctx->events[i].seq == seq ? i : ctx->nevents;
}

const struct ord_event *ord_ctx_event_by_seq(struct ord_ctx *ctx, unsigned seq)
{
	size_t i = event_index(ctx, seq);

	return i < ctx->nevents && ctx->events[i].kind ? &ctx->events[i] : NULL;
}

int ord_ctx_remove_event(struct ord_ctx *ctx, unsigned seq)
{
	size_t i = event_index(ctx, seq);

	if (i == ctx->nevents || !ctx->events[i].kind)
		return 0;
	/* out of its units' lists, then emptied where it stands: taking it
	 * out of the array at once moved every event after it and built the
	 * lists again, for each event removed (a replay of thousands of voids
	 * in a phase of thousands of events was quadratic in them); the array
	 * closes up when it is next read whole (ord_ctx_events_compact) */
	ord_ctx_unlist_event(ctx, i);
	event_release(ctx, &ctx->events[i]);
	ctx->nremoved++;
	return 1;
}

void ord_ctx_events_compact(struct ord_ctx *ctx)
{
	size_t i, n = 0;

	if (!ctx->nremoved)
		return;
	for (i = 0; i < ctx->nevents; i++)
		if (ctx->events[i].kind)
			ctx->events[n++] = ctx->events[i];
	ctx->nevents = n;
	ctx->nremoved = 0;
	evx_reset(ctx); /* the indexes moved */
}

int ord_ctx_unit_changed(struct ord_ctx *ctx, size_t i, struct ord_buf *serialised)
{
	unsigned char h[16];

	ord_buf_reset(serialised);
	/* a state no phase has touched since it was hashed is the same:
	 * most units of a large game, at no cost (a list held is unmarked by
	 * its first change through any kv function) */
	if (ctx->state_before && ord_kv_held(&ctx->units[i].state))
		return 0;
	ord_kv_serialize(&ctx->units[i].state, serialised);
	if (!ctx->state_before) /* a partial context: every unit counts */
		return 1;
	state_hash(h, serialised->buf);
	return memcmp(h, ctx->state_before[i], 16) != 0;
}

void ord_ctx_next_phase(struct ord_ctx *ctx)
{
	struct ord_buf b = ORD_BUF_INIT;
	size_t i;

	for (i = 0; i < ctx->nevents; i++)
		event_release(ctx, &ctx->events[i]);
	ctx->nevents = 0;
	ctx->nremoved = 0;
	evx_reset(ctx);
	for (i = 0; i < ctx->nrolls; i++) {
		uninterned_free(ctx, ctx->rolls[i].phase);
		free(ctx->rolls[i].purpose);
	}
	ctx->nrolls = 0;
	if (ctx->roll_cap)
		memset(ctx->roll_slots, 0, ctx->roll_cap * sizeof(*ctx->roll_slots));
	for (i = 0; ctx->results && i < ctx->nresults; i++)
		result_release(ctx, &ctx->results[i]);
	ctx->nresults = 0;
	result_kv_release(ctx);
	ord_arena_release(&ctx->result_strings);
	/* the arrays given back, not kept at the largest phase's size: a
	 * replay reserves each phase's own (65,000 events of the movement
	 * held room beside the fire's 32,500) */
	free(ctx->events);
	ctx->events = NULL;
	ctx->ealloc = 0;
	free(ctx->results);
	ctx->results = NULL;
	free(ctx->result_hash);
	ctx->result_hash = NULL;
	ctx->resalloc = 0;
	ctx->fixed = NULL;
	ctx->nfixed = ctx->fixed_pos = 0;
	ctx->have_key = 0;
	/* what the phase left is what the next one starts from */
	for (i = 0; ctx->state_before && i < ctx->nunits; i++) {
		struct ord_kv *st = &ctx->units[i].state;
		if (ord_kv_held(st)) /* untouched: its hash stands */
			continue;
		ord_buf_reset(&b);
		ord_kv_serialize(st, &b);
		/* packed again, in one block shared with the units whose
		 * state is the same, and held as hashed: so the next phase
		 * sees at once whether it touched the unit, and the units the
		 * phase changed do not keep a string for each key they set */
		ord_kv_pool_repack(&ctx->pool, st, &b);
		ord_kv_hold(st);
		state_hash_of(st, b.buf, 1, ctx->state_before[i]);
	}
	ord_buf_release(&b);
	ord_kv_pool_sweep(&ctx->pool); /* the states the phase left behind */
}

/* ---- what modules call ---- */

struct ord_rules *ord_ctx_rules(struct ord_ctx *ctx)
{
	return ctx->rules;
}

int ord_ctx_turn(struct ord_ctx *ctx)
{
	return ctx->turn;
}

const char *ord_ctx_side(struct ord_ctx *ctx)
{
	return ctx->side;
}

size_t ord_ctx_nunits(struct ord_ctx *ctx)
{
	return ctx->nunits;
}

struct ord_unit *ord_ctx_unit(struct ord_ctx *ctx, size_t i)
{
	return i < ctx->nunits ? &ctx->units[i] : NULL;
}

void ord_ctx_set_lazy(struct ord_ctx *ctx, size_t total,
		      int (*load)(void *ud, struct ord_ctx *ctx, const char *id_or_name), void *ud)
{
	ctx->ualloc = total + 1;
	ctx->units = ord_xrealloc(ctx->units, ctx->ualloc * sizeof(*ctx->units));
	/* it checks, it does not resolve: no state to compare a unit's with
	 * (hashing each unit's was a twentieth of a submit) */
	free(ctx->state_before);
	ctx->state_before = NULL;
	ctx->lazy = load;
	ctx->lazy_ud = ud;
}

void ord_ctx_set_lazy_many(struct ord_ctx *ctx, int (*load_many)(void *ud, struct ord_ctx *ctx,
								 const char *const *names, size_t n))
{
	ctx->lazy_many = load_many;
}

/* Is s stored composed (ord_ctx_compose_name leaves it as it is)? */
static int stored_composed(const char *s, struct ord_buf *tmp)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p && *p < 0x80)
		p++;
	return !*p || !ord_ctx_compose_name(tmp, s);
}

int ord_ctx_words_unambiguous(struct ord_ctx *ctx)
{
	struct ord_buf tmp = ORD_BUF_INIT;
	size_t i;
	int ok = 1;

	/* a word names two units when two ids are one composed, two names
	 * one in any case, or a name is another's id: the maps keep the
	 * first of each, so a unit whose own id or name finds another, or
	 * whose id finds another's name, shares a word with it */
	for (i = 0; ok && i < ctx->nunits; i++) {
		const struct ord_unit *u = &ctx->units[i], *w;

		ok = map_find(ctx, &ctx->by_id, u->id, 0) == u &&
		     map_find(ctx, &ctx->by_name, u->name, 1) == u &&
		     (!(w = map_find(ctx, &ctx->by_name, u->id, 1)) || w == u) &&
		     stored_composed(u->id, &tmp) && stored_composed(u->name, &tmp);
	}
	ord_buf_release(&tmp);
	return ok;
}

struct ord_unit *ord_ctx_held_unit(struct ord_ctx *ctx, const char *id_or_name)
{
	struct ord_unit *u = map_find(ctx, &ctx->by_id, id_or_name, 0);

	return u ? u : map_find(ctx, &ctx->by_name, id_or_name, 1);
}

void ord_ctx_index_loaded(struct ord_ctx *ctx, size_t from)
{
	orders_fit(ctx);
	for (; from < ctx->nunits; from++) {
		map_insert(ctx, &ctx->by_id, from, 0);
		map_insert(ctx, &ctx->by_name, from, 1);
	}
}

void ord_ctx_find_units(struct ord_ctx *ctx, const char *const *names, size_t n)
{
	const char **want, **seen;
	size_t i, k = 0, size;

	if (!ctx->lazy_many || ctx->in_lazy) {
		for (i = 0; i < n; i++)
			ord_ctx_find_unit(ctx, names[i]);
		return;
	}
	want = ord_xmalloc((n ? n : 1) * sizeof(*want));
	/* each name once (orders firing at one target name it again and
	 * again), in the order named: a set of the names' slots */
	size = 16;
	while (size < 2 * n)
		size *= 2;
	seen = ord_xcalloc(size, sizeof(*seen));
	for (i = 0; i < n; i++) {
		size_t h;

		if (ord_ctx_held_unit(ctx, names[i]))
			continue;
		for (h = (size_t)hash_str(names[i], 0) & (size - 1); seen[h]; h = (h + 1) & (size - 1))
			if (!strcmp(seen[h], names[i]))
				break;
		if (seen[h])
			continue;
		seen[h] = names[i];
		want[k++] = names[i];
	}
	free(seen);
	if (k) {
		ctx->in_lazy = 1;
		ctx->lazy_many(ctx->lazy_ud, ctx, want, k);
		ctx->in_lazy = 0;
	}
	free(want);
}

/* A unit by its id, else its name, as written (a name in any ASCII case,
 * then composed). */
static struct ord_unit *find_as_written(struct ord_ctx *ctx, const char *id_or_name)
{
	struct ord_unit *u = map_find(ctx, &ctx->by_id, id_or_name, 0);
	size_t n = ctx->nunits;

	if (u || (u = map_find(ctx, &ctx->by_name, id_or_name, 1)) != NULL)
		return u;
	if (!ctx->lazy || ctx->in_lazy || ctx->nunits + 1 >= ctx->ualloc)
		return NULL;
	/* a partial context: the game may hold it (an error is the module's
	 * "no such unit") */
	ctx->in_lazy = 1;
	ctx->lazy(ctx->lazy_ud, ctx, id_or_name);
	if (ctx->nunits == n) {
		/* the game looks a name up as written: a decomposed one again,
		 * composed (the names a game stores are as their scenario wrote
		 * them, nearly always composed) */
		struct ord_buf c = ORD_BUF_INIT;

		if (ord_ctx_compose_name(&c, id_or_name))
			ctx->lazy(ctx->lazy_ud, ctx, c.buf);
		ord_buf_release(&c);
	}
	ctx->in_lazy = 0;
	if (ctx->nunits == n)
		return NULL;
	/* index what was loaded: O(1) each, not the whole map again */
	ord_ctx_index_loaded(ctx, n);
	u = map_find(ctx, &ctx->by_id, id_or_name, 0);
	return u ? u : map_find(ctx, &ctx->by_name, id_or_name, 1);
}

/*
 * The units' names as the notation reads its words (a game made since
 * 2026-12-07: ord_ctx_set_made), sorted by that reading, made at the
 * first name no unit has as written: of every unit of the game where a
 * partial context can list them (lazy_all), so that a unit is found the
 * same in it as in a context of every unit; else of the units ctx holds,
 * made again when it holds more.
 */
struct keyed_name {
	const char *key; /* the name as names_key reads it */
	const char *id;
};
struct ord_ctx_keyed {
	struct ord_arena strings;
	struct keyed_name *v;
	size_t n, alloc;
	size_t nunits; /* the units held it was made of (not of every unit) */
	int all;       /* made of every unit of the game */
};

static void keyed_free(struct ord_ctx_keyed *k)
{
	if (!k)
		return;
	ord_arena_release(&k->strings);
	free(k->v);
	free(k);
}

static void keyed_add(struct ord_ctx *ctx, struct ord_ctx_keyed *k, const char *id,
		      const char *name, struct ord_buf *tmp)
{
	size_t len = strlen(name);

	if (!len || !ord_utf8_valid(name))
		return;
	ctx->names_key(tmp, (const unsigned char *)name, (const unsigned char *)name + len);
	if (k->n == k->alloc) {
		k->alloc = k->alloc ? 2 * k->alloc : 64;
		k->v = ord_xrealloc(k->v, k->alloc * sizeof(*k->v));
	}
	k->v[k->n].key = ord_arena_strn(&k->strings, tmp->buf, tmp->len);
	k->v[k->n].id = ord_arena_str(&k->strings, id);
	k->n++;
}

static int keyed_cmp(const void *a, const void *b)
{
	const struct keyed_name *x = a, *y = b;

	return strcmp(x->key, y->key);
}

static int all_keep(void *arg, const char *id, const char *name, const char *side);

/*
 * fn(arg, id, name, side) for every unit of the game, in unit order: a
 * partial context's from lazy_all, read once into ctx->all_units (the
 * paths that need them alone pay for it), else the context's own.  1 when
 * they were the whole game's list, 0 the context's own units.
 */
static int each_game_unit(struct ord_ctx *ctx,
			  int (*fn)(void *arg, const char *id, const char *name, const char *side),
			  void *arg)
{
	size_t i;

	if (ctx->lazy_all && !ctx->all_loaded) {
		ctx->all_loaded = ctx->lazy_all(ctx->lazy_ud, all_keep, &ctx->all_units) ? -1 : 1;
		ord_error_clear();
	}
	if (ctx->lazy_all && ctx->all_loaded > 0) {
		const char *p = ctx->all_units.buf, *end = p + ctx->all_units.len;
		while (p < end) {
			const char *id = p, *name = id + strlen(id) + 1;
			const char *side = name + strlen(name) + 1;
			p = side + strlen(side) + 1;
			fn(arg, id, name, side);
		}
		return 1;
	}
	for (i = 0; i < ctx->nunits; i++)
		fn(arg, ctx->units[i].id, ctx->units[i].name, ctx->units[i].side);
	return 0;
}

struct keyed_walk {
	struct ord_ctx *ctx;
	struct ord_ctx_keyed *k;
	struct ord_buf tmp;
};

static int keyed_walk_add(void *arg, const char *id, const char *name, const char *side)
{
	struct keyed_walk *w = arg;

	(void)side;
	keyed_add(w->ctx, w->k, id, name, &w->tmp);
	return 0;
}

static struct ord_ctx_keyed *keyed_names(struct ord_ctx *ctx)
{
	struct ord_ctx_keyed *k = ctx->keyed;
	struct keyed_walk w;

	if (k && (k->all || k->nunits == ctx->nunits))
		return k;
	keyed_free(k);
	k = ctx->keyed = ord_xcalloc(1, sizeof(*k));
	ord_arena_init(&k->strings);
	/* every unit of the game, read once (as the hint reads them) */
	w.ctx = ctx;
	w.k = k;
	ord_buf_init(&w.tmp);
	if (each_game_unit(ctx, keyed_walk_add, &w))
		k->all = 1;
	else
		k->nunits = ctx->nunits;
	if (k->n)
		qsort(k->v, k->n, sizeof(*k->v), keyed_cmp);
	ord_buf_release(&w.tmp);
	return k;
}

/* The first of the names that read as written does, and how many do. */
static const struct keyed_name *keyed_find(struct ord_ctx *ctx, const char *written, size_t *n)
{
	struct ord_buf want = ORD_BUF_INIT;
	struct ord_ctx_keyed *k;
	const struct keyed_name *first = NULL;
	size_t lo, hi, len = strlen(written);

	*n = 0;
	if (!ctx->names_key || !len || !ord_utf8_valid(written))
		return NULL;
	ctx->names_key(&want, (const unsigned char *)written, (const unsigned char *)written + len);
	k = keyed_names(ctx);
	/* the first at or after want */
	for (lo = 0, hi = k->n; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(k->v[mid].key, want.buf) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < k->n && !strcmp(k->v[lo].key, want.buf))
		first = &k->v[lo];
	for (; lo < k->n && !strcmp(k->v[lo].key, want.buf); lo++)
		(*n)++;
	ord_buf_release(&want);
	return first;
}

void ord_ctx_set_made(struct ord_ctx *ctx, const char *made, const char *made_core)
{
	struct ord_words_how how;

	ctx->names_key = NULL;
	if (!ord_canon_made_since_core_of(made, made_core, ORD_CORE_NAMES_KEYED))
		return;
	ord_words_how_of(&how, ctx->rs);
	ctx->names_key = how.key;
}

size_t ord_ctx_keyed_units(struct ord_ctx *ctx, const char *written, struct ord_buf *ids)
{
	const struct keyed_name *k;
	size_t i, n;

	if (ctx->in_lazy || !(k = keyed_find(ctx, written, &n)))
		return 0;
	for (i = 0; i < n; i++)
		ord_buf_add(ids, k[i].id, strlen(k[i].id) + 1);
	return n;
}

struct ord_unit *ord_ctx_find_unit(struct ord_ctx *ctx, const char *id_or_name)
{
	struct ord_unit *u = find_as_written(ctx, id_or_name);
	const struct keyed_name *k;
	size_t n;

	/* no name as written: the one unit whose name reads as it does */
	if (u || !ctx->names_key || ctx->in_lazy)
		return u;
	if (!(k = keyed_find(ctx, id_or_name, &n)) || n != 1)
		return NULL;
	return find_as_written(ctx, k->id);
}

/* The edit distance of written (composed) to a unit's id or name, that
 * composed too when it is not ASCII; tmp is scratch. */
static size_t name_distance(const char *written, const char *name, size_t max, struct ord_buf *tmp)
{
	const char *p = name;

	while (*p && (unsigned char)*p < 0x80)
		p++;
	if (*p && ord_ctx_compose_name(tmp, name))
		name = tmp->buf;
	return ord_edit_distance(written, name, max);
}

/*
 * A decomposed letter the table composes matches (name_char); one it does
 * not (e and U+0323, ẹ) can match no unit's name, which has the letter
 * whole, yet looks the same: the hint says so, and the nearest unit is
 * sought with such marks left out.
 */
/*
 * The unit nearest to what was written, as ord_ctx_unit_hint seeks it.
 * In a game made before 2026-12-07 a name is matched as written (ASCII
 * case aside): a notation's folding of its words (ordre: æ ø å typed ae
 * oe aa, any case) is not a unit's name's, since every reader of its
 * stored sheets, verify's of an older build among them, finds its units
 * so (a game made since finds the one unit whose name reads so:
 * ord_ctx_set_made).  But a name written in the notation's folding is
 * the unit meant, however many letters apart: the hint names it first,
 * and says which letters were typed so, or in which other case (its id
 * is typed as it is).
 */
struct hint_seek {
	const char *written, *bare; /* composed; and with its loose marks left out */
	int mark;                   /* written has a mark apart from its letter */
	ord_word_key key;           /* the game's notation's word_key (NULL: none) */
	struct ord_buf wkey, nkey;  /* written's key; a unit's id's or name's */
	int keyed;                  /* the pick is written's key: 1 by its id, 2 its name */
	const char *side;           /* NULL: any */
	int all;                    /* side NULL: every side's units are expected */
	size_t max, best;
	struct ord_buf pick_id, pick_name, tmp;
	struct ord_buf ids;   /* the expected units' ids, each '\0'-ended (side or all) */
	struct ord_buf sides; /* all: the side of each of ids, each '\0'-ended */
	size_t nids;
};

static int hint_consider(void *arg, const char *id, const char *name, const char *side)
{
	struct hint_seek *h = arg;
	size_t k, d, e;

	if (h->side && strcmp(side, h->side))
		return 0;
	if (h->side || h->all) {
		ord_buf_add(&h->ids, id, strlen(id) + 1);
		if (h->all)
			ord_buf_add(&h->sides, side, strlen(side) + 1);
		h->nids++;
	}
	for (k = 0; k < 2; k++) {
		const char *key = k ? name : id;

		if (!*key)
			continue;
		if (h->key && !h->keyed && strcmp(key, h->written) && ord_utf8_valid(key)) {
			h->key(&h->nkey, (const unsigned char *)key,
			       (const unsigned char *)key + strlen(key));
			if (!strcmp(h->nkey.buf, h->wkey.buf)) {
				h->keyed = k ? 2 : 1;
				h->best = 0;
				ord_buf_reset(&h->pick_id);
				ord_buf_adds(&h->pick_id, id);
				ord_buf_reset(&h->pick_name);
				ord_buf_adds(&h->pick_name, name);
				continue;
			}
		}
		d = name_distance(h->written, key, h->max, &h->tmp);
		if (h->mark && d > 0 && (e = name_distance(h->bare, key, h->max, &h->tmp)) < d)
			d = e;
		if (d < h->best) {
			h->best = d;
			ord_buf_reset(&h->pick_id);
			ord_buf_adds(&h->pick_id, id);
			ord_buf_reset(&h->pick_name);
			ord_buf_adds(&h->pick_name, name);
		}
	}
	return 0;
}

/* A unit lazy_all gave, kept in ctx->all_units. */
static int all_keep(void *arg, const char *id, const char *name, const char *side)
{
	struct ord_buf *b = arg;

	ord_buf_add(b, id, strlen(id) + 1);
	ord_buf_add(b, name, strlen(name) + 1);
	ord_buf_add(b, side, strlen(side) + 1);
	return 0;
}

void ord_ctx_set_lazy_all(struct ord_ctx *ctx,
			  int (*all)(void *ud,
				     int (*each)(void *arg, const char *id, const char *name,
						 const char *side),
				     void *arg))
{
	ctx->lazy_all = all;
}

void ord_ctx_refuse_arg(struct ord_ctx *ctx, const char *key, const char *word)
{
	struct ord_ctx_refusal *r = ctx->refusal;

	if (!r)
		return;
	free(r->key);
	free(r->word);
	r->key = key ? ord_strdup(key) : NULL;
	r->word = key && word ? ord_strdup(word) : NULL;
}

/* The number an id ends with ("B12": prefix 1, 12), -1 when none or a
 * leading zero ("B01") would not say it back. */
static long id_number(const char *id, size_t *prefix)
{
	size_t n = strlen(id), p = n;
	long v = 0;

	while (p > 0 && id[p - 1] >= '0' && id[p - 1] <= '9')
		p--;
	*prefix = p;
	if (p == n || n - p > 6 || (id[p] == '0' && n - p > 1))
		return -1;
	for (; p < n; p++)
		v = v * 10 + (id[p] - '0');
	return v;
}

/* "'D1' to 'D8', 'K1' to 'K4' or 'A1' to 'A4'": nids ids ('\0'-ended,
 * in unit order), three or more numbered one after another with one
 * prefix said as a run, the first few items when many. */
static void ids_said(const char *ids, size_t nids, struct ord_buf *out)
{
	enum { SHOWN = 8 };
	struct ord_buf items = ORD_BUF_INIT;
	const char *p = ids, *q;
	size_t i = 0, j, nitems = 0, pre, pre2, sep = 0; /* sep: the last ", " */
	long n, n2;

	while (i < nids) {
		const char *last = p;
		/* the run from p: ids one more each, the same prefix */
		j = i + 1;
		q = p + strlen(p) + 1;
		if ((n = id_number(p, &pre)) >= 0)
			for (; j < nids; j++, q += strlen(q) + 1) {
				n2 = id_number(q, &pre2);
				if (n2 != n + (long)(j - i) || pre2 != pre || strncmp(p, q, pre))
					break;
				last = q;
			}
		if (j - i < 3) {
			j = i + 1;
			q = p + strlen(p) + 1;
			last = p;
		}
		if (nitems < SHOWN) {
			sep = items.len;
			ord_buf_addf(&items, "%s'%s'", nitems ? ", " : "", p);
			if (last != p)
				ord_buf_addf(&items, " to '%s'", last);
		}
		nitems++;
		i = j;
		p = q;
	}
	if (nitems > 1 && nitems <= SHOWN) /* the last one "or" */
		ord_buf_addf(out, "%.*s or %s", (int)sep, items.buf, items.buf + sep + 2);
	else
		ord_buf_adds(out, items.buf);
	if (nitems > SHOWN)
		ord_buf_addf(out, " and %zu more", nitems - SHOWN);
	ord_buf_release(&items);
}

/* ": expected one of side danske's units: 'D1' to 'D8', 'K1' to 'K4' or
 * 'A1' to 'A4'" for a unit written that is none, nor near one: the ids of
 * h->side in unit order (ids_said). */
static void hint_expected(const struct hint_seek *h, struct ord_buf *out)
{
	if (!h->nids) {
		ord_buf_addf(out, ": side %s has no units", h->side);
		return;
	}
	if (h->nids == 1) {
		ord_buf_addf(out, ": expected side %s's unit '%s'", h->side, h->ids.buf);
		return;
	}
	ord_buf_addf(out, ": expected one of side %s's units: ", h->side);
	ids_said(h->ids.buf, h->nids, out);
}

/* ": expected a unit of the game: side danske's 'D1' to 'D8'; side
 * allierede's 'F1' to 'F4' or 'P1'" for a unit written with no side of
 * its own (h->all): each side's ids, the sides in the order of their
 * first unit. */
static void hint_expected_all(const struct hint_seek *h, struct ord_buf *out)
{
	struct ord_buf said = ORD_BUF_INIT, mine = ORD_BUF_INIT;
	const char *side, *s, *id;
	size_t i, k, n, nsides = 0;

	if (!h->nids) {
		ord_buf_adds(out, ": the game has no units");
		return;
	}
	ord_buf_adds(out, ": expected a unit of the game: ");
	/* said: the sides listed so far, each '\0'-ended */
	for (side = h->sides.buf, i = 0; i < h->nids; i++, side += strlen(side) + 1) {
		for (s = said.buf, k = 0; k < nsides && strcmp(s, side); k++)
			s += strlen(s) + 1;
		if (k < nsides)
			continue;
		ord_buf_add(&said, side, strlen(side) + 1);
		ord_buf_reset(&mine);
		/* that side's ids, in unit order */
		for (n = 0, s = h->sides.buf, id = h->ids.buf, k = 0; k < h->nids; k++) {
			if (!strcmp(s, side)) {
				ord_buf_add(&mine, id, strlen(id) + 1);
				n++;
			}
			s += strlen(s) + 1;
			id += strlen(id) + 1;
		}
		ord_buf_addf(out, "%sside %s's ", nsides ? "; " : "", side);
		ids_said(mine.buf, n, out);
		nsides++;
	}
	ord_buf_release(&said);
	ord_buf_release(&mine);
}

/* Whether s is ASCII alone. */
static int all_ascii(const char *s)
{
	while (*s && (unsigned char)*s < 0x80)
		s++;
	return !*s;
}

/* The first character of s keyed as at..end is (a letter of another
 * case: Æ for æ), not at..end itself, as a string into out; 0 when none. */
static int other_case(ord_word_key key, const char *s, const unsigned char *at,
		      const unsigned char *end, struct ord_buf *want, struct ord_buf *out)
{
	struct name_chars it;
	const unsigned char *p;
	struct ord_buf k = ORD_BUF_INIT;
	uint32_t cp;
	int found = 0;

	name_chars_init(&it, s, 0);
	for (p = it.s; !found && (cp = name_char(&it)) != 0; p = it.s) {
		if (cp < 0x80 || cp >= 0x110000u ||
		    ((size_t)(it.s - p) == (size_t)(end - at) && !memcmp(p, at, (size_t)(end - at))))
			continue;
		key(&k, p, it.s);
		if (!strcmp(k.buf, want->buf)) {
			ord_buf_add(out, p, (size_t)(it.s - p));
			found = 1;
		}
	}
	ord_buf_release(&k);
	return found;
}

/* " (in a name æ is not read from ae, as in the notation's words: write
 * æ, or its id 'D3')", or "ø is not read from oe, nor æ from ae, ...
 * write them": the letters of name that key writes in ASCII, each once,
 * that written does not hold as they are: typed as key writes them, or
 * as a letter of another case (æ from Æ, of "JÆGERKORPS"), for a name
 * that key finds (hint_seek.keyed); nothing when none.  before: the
 * game was made before names were read so (ord_ctx_set_made), said. */
static void keyed_letters(ord_word_key key, const char *name, const char *id, const char *written,
			  int before, struct ord_buf *out)
{
	struct ord_buf k = ORD_BUF_INIT, pair = ORD_BUF_INIT, pairs = ORD_BUF_INIT;
	struct ord_buf first = ORD_BUF_INIT, typed = ORD_BUF_INIT;
	struct name_chars it;
	const unsigned char *at;
	uint32_t cp;
	size_t n = 0;

	name_chars_init(&it, name, 0);
	for (at = it.s; (cp = name_char(&it)) != 0; at = it.s) {
		if (cp < 0x80 || cp >= 0x110000u)
			continue;
		key(&k, at, it.s);
		if (!k.len || !all_ascii(k.buf))
			continue;
		ord_buf_reset(&pair);
		ord_buf_addf(&pair, " %.*s ", (int)(it.s - at), (const char *)at);
		if (strstr(pairs.buf, pair.buf)) /* said already */
			continue;
		ord_buf_reset(&typed);
		ord_buf_add(&typed, at, (size_t)(it.s - at));
		if (strstr(written, typed.buf)) /* written so: not the difference */
			continue;
		ord_buf_reset(&typed);
		if (!other_case(key, written, at, it.s, &k, &typed))
			ord_buf_adds(&typed, k.buf);
		if (!n)
			ord_buf_add(&first, at, (size_t)(it.s - at));
		/* " æ is not read from ae", then ", nor ø from oe" */
		ord_buf_addf(&pairs, "%s%s%sfrom %s", n ? ", nor" : "", pair.buf,
			     n ? "" : "is not read ", typed.buf);
		n++;
	}
	if (n) {
		ord_buf_addf(out, " (in a name%s, as in the notation's words%s: write %s",
			     pairs.buf, before ? ", in a game made before " ORD_GAME_MADE : "",
			     n == 1 ? first.buf : "them");
		if (all_ascii(id))
			ord_buf_addf(out, ", or its id '%s'", id);
		ord_buf_addch(out, ')');
	}
	ord_buf_release(&k);
	ord_buf_release(&pair);
	ord_buf_release(&pairs);
	ord_buf_release(&first);
	ord_buf_release(&typed);
}

/* ": as the notation reads its words, 'X' is the name of more than one
 * unit, 'K3' or 'K4': ..." for a name that reads as several units' do
 * (ord_ctx_set_made): 1 when said. */
static int keyed_many(struct ord_ctx *ctx, const char *written, struct ord_buf *out)
{
	struct ord_buf ids = ORD_BUF_INIT;
	size_t n = ctx->names_key ? ord_ctx_keyed_units(ctx, written, &ids) : 0;

	if (n > 1) {
		ord_buf_addf(out,
			     ": as the notation reads its words, '%s' is the name of more than one unit, ",
			     written);
		ids_said(ids.buf, n, out);
		ord_buf_adds(out, ": write the name as the scenario does, or the unit's id");
	}
	ord_buf_release(&ids);
	return n > 1;
}

static void unit_hint(struct ord_ctx *ctx, const char *written, const char *side, int all,
		      struct ord_buf *out)
{
	struct ord_words_how how;
	struct ord_buf w = ORD_BUF_INIT, bare = ORD_BUF_INIT;
	struct hint_seek h;
	const unsigned char *at, *before = NULL;
	struct name_chars it;
	uint32_t cp, mark = 0;
	size_t len;

	ord_ctx_compose_name(&w, written);
	if (keyed_many(ctx, w.buf, out)) {
		ord_buf_release(&w);
		return;
	}
	/* the marks left apart from their letters: the first one named */
	ord_buf_reset(&bare);
	name_chars_init(&it, w.buf, 0);
	for (at = it.s; (cp = name_char(&it)) != 0; at = it.s) {
		if (combining(cp)) {
			if (!mark)
				mark = cp;
			continue;
		}
		if (!mark)
			before = at;
		ord_buf_add(&bare, at, (size_t)(it.s - at));
	}
	len = strlen(w.buf);
	memset(&h, 0, sizeof(h));
	h.written = w.buf;
	h.bare = bare.buf;
	h.mark = mark != 0;
	h.side = side;
	h.all = !side && all;
	h.max = len < 4 ? 1 : 2;
	h.best = h.max + 1;
	/* the notation's folding, of a name written in valid UTF-8 */
	ord_words_how_of(&how, ctx->rs);
	ord_buf_init(&h.wkey);
	ord_buf_init(&h.nkey);
	if (how.key && ord_utf8_valid(w.buf)) {
		h.key = how.key;
		h.key(&h.wkey, (const unsigned char *)w.buf, (const unsigned char *)w.buf + w.len);
	}
	ord_buf_init(&h.pick_id);
	ord_buf_init(&h.pick_name);
	ord_buf_init(&h.tmp);
	ord_buf_init(&h.ids);
	ord_buf_init(&h.sides);
	/* a partial context seeks among every unit of the game, in unit order
	 * as a whole one does, read once: the error's path alone pays for it */
	each_game_unit(ctx, hint_consider, &h);
	if (mark) {
		ord_buf_addf(out, ": the accent U+%04X after '", (unsigned)mark);
		if (before) {
			name_chars_init(&it, (const char *)before, 0);
			name_char(&it);
			ord_buf_add(out, before, (size_t)(it.s - before));
		}
		ord_buf_adds(out, "' is a character of its own, not part of the letter "
				  "(type the letter with its accent as one character)");
	}
	if (h.best <= h.max) {
		int named = strcmp(h.pick_id.buf, h.pick_name.buf) != 0;
		ord_buf_addf(out, "%s did you mean '%s'%s%s%s?", mark ? ";" : ":", h.pick_id.buf,
			     named ? " (" : "", named ? h.pick_name.buf : "", named ? ")" : "");
		if (h.keyed)
			keyed_letters(h.key, h.keyed == 2 ? h.pick_name.buf : h.pick_id.buf,
				      h.pick_id.buf, w.buf, !ctx->names_key, out);
	} else if (side && !mark)
		hint_expected(&h, out);
	else if (h.all && !mark)
		hint_expected_all(&h, out);
	ord_buf_release(&w);
	ord_buf_release(&bare);
	ord_buf_release(&h.tmp);
	ord_buf_release(&h.pick_id);
	ord_buf_release(&h.pick_name);
	ord_buf_release(&h.wkey);
	ord_buf_release(&h.nkey);
	ord_buf_release(&h.ids);
	ord_buf_release(&h.sides);
}

void ord_ctx_unit_hint(struct ord_ctx *ctx, const char *written, const char *side, struct ord_buf *out)
{
	unit_hint(ctx, written, side, 0, out);
}

void ord_ctx_unit_hint_any(struct ord_ctx *ctx, const char *written, struct ord_buf *out)
{
	unit_hint(ctx, written, NULL, 1, out);
}

ord_word_key ord_ctx_word_key(struct ord_ctx *ctx)
{
	struct ord_words_how how;

	ord_words_how_of(&how, ctx->rs);
	return how.key;
}

const struct ord_order *ord_ctx_order(struct ord_ctx *ctx, const struct ord_unit *u)
{
	if (!ctx->orders || !u || (size_t)(u - ctx->units) >= ctx->norders)
		return NULL;
	return ctx->orders[u - ctx->units];
}

size_t ord_ctx_nevents(struct ord_ctx *ctx)
{
	ord_ctx_events_compact(ctx);
	return ctx->nevents;
}

const struct ord_event *ord_ctx_event(struct ord_ctx *ctx, size_t i)
{
	ord_ctx_events_compact(ctx);
	return i < ctx->nevents ? &ctx->events[i] : NULL;
}

static void put_u32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/* Face of a die from the dice key and what identifies the roll: tag, the
 * phase, then id (idlen bytes: the event's number, or what it names), the
 * purpose, the index and the faces (rejection sampling, no modulo bias). */
static int dice_face(const unsigned char key[32], const char *tag, const char *phase,
		     const unsigned char *id, size_t idlen, const char *purpose, unsigned idx,
		     unsigned sides)
{
	/* The largest multiple of sides below 2^32: words at or above it are
	 * rejected, so every face is exactly equally likely. */
	uint64_t limit;
	uint32_t counter;

	/* no die has fewer than 2 faces: a roll row saying so was tampered
	 * with, and 0 would divide by zero; the face 0 never matches */
	if (sides < 2)
		return 0;
	limit = (UINT64_C(1) << 32) - ((UINT64_C(1) << 32) % sides);

	for (counter = 0;; counter++) {
		crypto_generichash_state st;
		unsigned char out[32], n[4];
		size_t w;

		crypto_generichash_init(&st, key, 32, sizeof(out));
		crypto_generichash_update(&st, (const unsigned char *)tag, strlen(tag) + 1);
		crypto_generichash_update(&st, (const unsigned char *)phase, strlen(phase) + 1);
		crypto_generichash_update(&st, id, idlen);
		crypto_generichash_update(&st, (const unsigned char *)purpose, strlen(purpose) + 1);
		put_u32(n, idx);
		crypto_generichash_update(&st, n, 4);
		put_u32(n, sides);
		crypto_generichash_update(&st, n, 4);
		put_u32(n, counter);
		crypto_generichash_update(&st, n, 4);
		crypto_generichash_final(&st, out, sizeof(out));
		for (w = 0; w < 8; w++) {
			uint32_t v = (uint32_t)out[4 * w] << 24 | (uint32_t)out[4 * w + 1] << 16 |
				     (uint32_t)out[4 * w + 2] << 8 | out[4 * w + 3];
			if (v < limit)
				return (int)(v % sides) + 1;
		}
	}
}

int ord_dice_face(const unsigned char key[32], const char *phase, unsigned event_seq,
		  const char *purpose, unsigned idx, unsigned sides)
{
	unsigned char n[4];

	put_u32(n, event_seq);
	/* the tag's 16 bytes as they always were: "orderly-roll-v1" and its NUL */
	return dice_face(key, "orderly-roll-v1", phase, n, 4, purpose, idx, sides);
}

int ord_dice_face_ident(const unsigned char key[32], const char *phase, const char *ident,
			const char *purpose, unsigned idx, unsigned sides)
{
	return dice_face(key, "orderly-roll-v2", phase, (const unsigned char *)ident,
			 strlen(ident) + 1, purpose, idx, sides);
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The kind of e and the ids of the units it names, sorted, to out; the
 * first of those units (NULL: none) to *first. */
static void event_names(struct ord_ctx *ctx, const struct ord_event *e, struct ord_buf *out,
			struct ord_unit **first)
{
	const struct ord_event_kind *ek = ord_ruleset_event_kind(ctx->rs, e->kind);
	const struct ord_key_spec *ks;
	const char *ids[16];
	size_t n = 0, i;

	*first = NULL;
	for (ks = ek ? ek->keys : NULL; ks && ks->name && n < sizeof(ids) / sizeof(*ids); ks++) {
		struct ord_unit *u;
		const char *v;

		if (ks->type != ORD_KEY_UNIT || !(v = ord_kv_get(&e->kv, ks->name)))
			continue;
		if ((u = ord_ctx_find_unit(ctx, v)) != NULL) {
			if (!*first)
				*first = u;
			v = u->id;
		}
		ids[n++] = v;
	}
	qsort(ids, n, sizeof(*ids), by_str);
	ord_buf_addf(out, "%s\n", e->kind);
	for (i = 0; i < n; i++)
		ord_buf_addf(out, "%s%s", i ? " " : "", ids[i]);
}

void ord_ctx_event_ident(struct ord_ctx *ctx, const struct ord_event *e, struct ord_buf *out)
{
	struct ord_buf mine = ORD_BUF_INIT, other = ORD_BUF_INIT;
	struct ord_unit *u, *w;
	unsigned before = 0;
	size_t i, n;

	event_names(ctx, e, &mine, &u);
	/* the standing events of the phase before it that name the same:
	 * among its first unit's events (a lookup), or, when it names none
	 * the game holds, among the phase's */
	n = u ? ord_ctx_unit_nevents(ctx, u) : ord_ctx_nevents(ctx);
	for (i = 0; i < n; i++) {
		const struct ord_event *f = u ? ord_ctx_unit_event(ctx, u, i) : ord_ctx_event(ctx, i);
		if (!f || f->seq >= e->seq || strcmp(f->kind, e->kind) || strcmp(f->phase, e->phase))
			continue;
		ord_buf_reset(&other);
		event_names(ctx, f, &other, &w);
		before += !strcmp(other.buf, mine.buf);
	}
	ord_buf_addf(out, "%s\n#%u", mine.buf, before);
	ord_buf_release(&mine);
	ord_buf_release(&other);
}

/* ---- rolls by identity (a phase of 100,000 units rolls tens of thousands) ---- */

static size_t roll_hash(const char *phase, unsigned event_seq, const char *purpose, unsigned idx,
			unsigned sides)
{
	uint64_t h = hash_str(phase, 0) ^ (hash_str(purpose, 0) * 31);

	h = (h ^ event_seq) * 1099511628211ULL;
	h = (h ^ idx) * 1099511628211ULL;
	h = (h ^ sides) * 1099511628211ULL;
	return (size_t)(h ^ (h >> 29));
}

static void roll_index_put(struct ord_ctx *ctx, size_t i)
{
	const struct ord_ctx_roll *r = &ctx->rolls[i];
	size_t s = roll_hash(r->phase, r->event_seq, r->purpose, r->idx, r->sides) &
		   (ctx->roll_cap - 1);

	while (ctx->roll_slots[s])
		s = (s + 1) & (ctx->roll_cap - 1);
	ctx->roll_slots[s] = i + 1;
}

/* Room for one more roll in the index (at most half full). */
static void roll_index_grow(struct ord_ctx *ctx)
{
	size_t i;

	if (2 * (ctx->nrolls + 1) <= ctx->roll_cap)
		return;
	ctx->roll_cap = ctx->roll_cap ? 2 * ctx->roll_cap : 64;
	free(ctx->roll_slots);
	ctx->roll_slots = ord_xcalloc(ctx->roll_cap, sizeof(*ctx->roll_slots));
	for (i = 0; i < ctx->nrolls; i++)
		roll_index_put(ctx, i);
}

static struct ord_ctx_roll *roll_find(struct ord_ctx *ctx, const char *phase, unsigned event_seq,
				      const char *purpose, unsigned idx, unsigned sides)
{
	size_t s;

	if (!ctx->roll_cap)
		return NULL;
	s = roll_hash(phase, event_seq, purpose, idx, sides) & (ctx->roll_cap - 1);
	for (; ctx->roll_slots[s]; s = (s + 1) & (ctx->roll_cap - 1)) {
		struct ord_ctx_roll *r = &ctx->rolls[ctx->roll_slots[s] - 1];
		if (r->event_seq == event_seq && r->idx == idx && r->sides == sides &&
		    !strcmp(r->purpose, purpose) && !strcmp(r->phase, phase))
			return r;
	}
	return NULL;
}

int ord_ctx_dice_by_events(const struct ord_ctx *ctx)
{
	return ctx->dice_by_events;
}

int ord_ctx_roll(struct ord_ctx *ctx, int *out, unsigned sides, const char *purpose,
		 unsigned event_seq, unsigned index)
{
	const char *phase = ctx->phase ? ctx->phase : "";
	const struct ord_event *e;
	struct ord_ctx_roll *r;
	int v;

	if (sides < 2 || sides > 1000)
		return ord_error_set(ORD_ERROR, "a die of %u faces", sides);
	/* the same identity always gives the same face */
	if ((r = roll_find(ctx, phase, event_seq, purpose, index, sides)) != NULL) {
		*out = r->value;
		return 0;
	}
	if (ctx->fixed) {
		char ev[32] = "";

		if (event_seq) /* 0: a roll no event asked for (a morale test, say) */
			snprintf(ev, sizeof(ev), ", event #%u", event_seq);
		if (ctx->fixed_pos >= ctx->nfixed)
			return ord_error_set(ORD_EUSAGE,
					     "this fixed-dice game needs more dice: roll %zu of phase '%s' is a d%u (%s%s), "
					     "and %zu %s given (--dice gives one face per roll, in the order the phase rolls)",
					     ctx->fixed_pos + 1, phase, sides, purpose, ev,
					     ctx->nfixed, ctx->nfixed == 1 ? "was" : "were");
		v = ctx->fixed[ctx->fixed_pos++];
		if (v < 1 || (unsigned)v > sides)
			return ord_error_set(ORD_EUSAGE,
					     "fixed die %d cannot be roll %zu of phase '%s', a d%u (%s%s)",
					     v, ctx->fixed_pos, phase, sides, purpose, ev);
	} else if (ctx->have_key && ctx->dice_by_events && event_seq &&
		   (e = ord_ctx_event_by_seq(ctx, event_seq)) != NULL) {
		struct ord_buf ident = ORD_BUF_INIT;
		ord_ctx_event_ident(ctx, e, &ident);
		v = ord_dice_face_ident(ctx->dice_key, phase, ident.buf, purpose, index, sides);
		ord_buf_release(&ident);
	} else if (ctx->have_key) {
		v = ord_dice_face(ctx->dice_key, phase, event_seq, purpose, index, sides);
	} else {
		return ord_error_set(ORD_ESTATE, "no dice before the turn is sealed");
	}
	if (ctx->nrolls == ctx->ralloc) {
		ctx->ralloc = ctx->ralloc ? 2 * ctx->ralloc : 32;
		ctx->rolls = ord_xrealloc(ctx->rolls, ctx->ralloc * sizeof(*ctx->rolls));
	}
	roll_index_grow(ctx);
	r = &ctx->rolls[ctx->nrolls++];
	r->phase = intern(ctx, phase);
	r->event_seq = event_seq;
	r->purpose = ord_strdup(purpose);
	r->idx = index;
	r->sides = sides;
	r->value = v;
	r->fixed = ctx->fixed != NULL;
	roll_index_put(ctx, ctx->nrolls - 1);
	*out = v;
	return 0;
}

/* Add a result; its unit and explanation copied into the phase's
 * result_strings, texts when written in several languages (copied). */
static void add_result(struct ord_ctx *ctx, unsigned event_seq, const char *unit_id,
		       const struct ord_kv *values, const char *explanation, const struct ord_kv *texts)
{
	struct ord_ctx_result *r;

	if (ctx->nresults == ctx->resalloc)
		ord_ctx_reserve_results(ctx, ctx->resalloc ? 2 * ctx->resalloc : 32);
	if (ctx->lean_results) {
		ord_buf_reset(&ctx->result_scratch);
		if (values)
			ord_kv_serialize(values, &ctx->result_scratch);
		ord_result_hash(ctx->result_hash[ctx->nresults++], ctx->phase ? ctx->phase : "",
				(int)event_seq, unit_id ? unit_id : "",
				ctx->result_scratch.buf ? ctx->result_scratch.buf : "", explanation,
				texts && texts->n ? texts : &no_texts);
		return;
	}
	r = &ctx->results[ctx->nresults++];
	r->phase = intern(ctx, ctx->phase ? ctx->phase : "");
	r->event_seq = event_seq;
	r->unit = ord_arena_str(&ctx->result_strings, unit_id ? unit_id : "");
	ord_buf_reset(&ctx->result_scratch);
	if (values)
		ord_kv_serialize(values, &ctx->result_scratch);
	r->values = ord_arena_strn(&ctx->result_strings,
				   ctx->result_scratch.buf ? ctx->result_scratch.buf : "",
				   ctx->result_scratch.len);
	r->texts = NULL;
	if (texts && texts->n) {
		r->texts = ord_xmalloc(sizeof(*r->texts));
		ord_kv_init(r->texts);
		ord_kv_copy(r->texts, texts);
	}
	r->explanation = ord_arena_str(&ctx->result_strings, explanation);
	if (ctx->fake) {
		ord_buf_addf(&ctx->fake_out, "%s: ", r->unit);
		ord_texts_render(r->explanation, ord_ctx_result_texts_of(r), NULL, &ctx->fake_out);
		ord_buf_addch(&ctx->fake_out, '\n');
	}
}

int ord_ctx_result(struct ord_ctx *ctx, unsigned event_seq, const char *unit_id,
		   const struct ord_kv *values, const char *fmt, ...)
{
	struct ord_buf b = ORD_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	ord_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	add_result(ctx, event_seq, unit_id, values, b.buf, NULL);
	ord_buf_release(&b);
	return 0;
}

void ord_ctx_add_stored_result(struct ord_ctx *ctx, const char *phase, unsigned event_seq,
			       const char *unit, const char *values, const char *explanation,
			       const struct ord_kv *texts)
{
	const char *was = ctx->phase;
	struct ord_kv kv;

	ord_kv_init(&kv);
	if (values)
		ord_kv_parse(&kv, values);
	ctx->phase = phase;
	add_result(ctx, event_seq, unit, &kv, explanation ? explanation : "",
		   texts && texts->n > 1 ? texts : NULL);
	ctx->phase = was;
	ord_kv_release(&kv);
}

size_t ord_ctx_nresults(struct ord_ctx *ctx)
{
	return ctx->nresults;
}

int ord_ctx_result_get(struct ord_ctx *ctx, size_t i, struct ord_result_view *out)
{
	const struct ord_ctx_result *r;

	if (ctx->lean_results)
		return ord_error_set(ORD_ENOTFOUND,
				     "no result %zu: a replay keeps its results' hashes only", i);
	if (i >= ctx->nresults)
		return ord_error_set(ORD_ENOTFOUND, "no result %zu (there are %zu)", i, ctx->nresults);
	r = &ctx->results[i];
	if (i >= ctx->nresult_kv) {
		/* parsed once, as the picture's look-ups come to them; room
		 * as the results have it, not one more each time (a module
		 * asking between each result it adds copied them all) */
		size_t k;
		if (ctx->nresults > ctx->result_kv_alloc) {
			ctx->result_kv_alloc = ctx->resalloc > ctx->nresults ? ctx->resalloc
									     : ctx->nresults;
			ctx->result_kv = ord_xrealloc(ctx->result_kv,
						      ctx->result_kv_alloc * sizeof(*ctx->result_kv));
		}
		for (k = ctx->nresult_kv; k < ctx->nresults; k++) {
			ord_kv_init(&ctx->result_kv[k]);
			ord_kv_parse(&ctx->result_kv[k], ctx->results[k].values);
		}
		ctx->nresult_kv = ctx->nresults;
	}
	out->phase = r->phase;
	out->event_seq = r->event_seq;
	out->unit = r->unit;
	out->values = &ctx->result_kv[i];
	/* in the picture's language when the result was written in several */
	out->explanation = r->explanation;
	if (r->texts && r->texts->n > 1 && ord_ctx_lang(ctx) && ord_kv_get(r->texts, ord_ctx_lang(ctx)))
		out->explanation = ord_kv_get(r->texts, ord_ctx_lang(ctx));
	return 0;
}

static void unit_results_free(struct ord_ctx *ctx)
{
	evl_free(ctx->unit_results, ctx->unit_results_units);
	ctx->unit_results = NULL;
	ctx->unit_results_n = ctx->unit_results_units = 0;
}

/* The results by unit, for every result and unit so far: the results
 * added since the last question appended to their units' lists, or, when
 * units were added since (a result's unit may be held now) or results
 * taken away, every result again.  A result whose unit is none of ctx's
 * units (by id; a partial context loads none for it) is in no unit's. */
static void unit_results_update(struct ord_ctx *ctx)
{
	size_t n = ctx->nunits;

	if (!ctx->unit_results || ctx->unit_results_units != n || ctx->unit_results_n > ctx->nresults) {
		unit_results_free(ctx);
		ctx->unit_results = ord_xcalloc(n + 1, sizeof(*ctx->unit_results));
		ctx->unit_results_units = n;
		ctx->unit_results_made++;
	}
	for (; ctx->unit_results_n < ctx->nresults; ctx->unit_results_n++) {
		const char *id = ctx->results[ctx->unit_results_n].unit;
		const struct ord_unit *u = map_find(ctx, &ctx->by_id, id, 0);
		struct ord_ctx_evlist *l;

		if (!u || strcmp(u->id, id))
			continue;
		l = &ctx->unit_results[ord_ctx_unit_index(ctx, u)];
		evl_room(l);
		evl_event(l)[l->n++] = (uint32_t)ctx->unit_results_n;
	}
}

size_t ord_ctx_unit_nresults(struct ord_ctx *ctx, const struct ord_unit *u)
{
	size_t i;

	if (ctx->lean_results || !ctx->nresults)
		return 0;
	unit_results_update(ctx);
	i = ord_ctx_unit_index(ctx, u);
	return i < ctx->nunits ? ctx->unit_results[i].n : 0;
}

int ord_ctx_unit_result_get(struct ord_ctx *ctx, const struct ord_unit *u, size_t k,
			    struct ord_result_view *out)
{
	size_t n = ord_ctx_unit_nresults(ctx, u);

	if (k >= n)
		return ord_error_set(ORD_ENOTFOUND, "no result %zu of unit '%s' (there are %zu)", k,
				     u->id, n);
	return ord_ctx_result_get(ctx, evl_event(&ctx->unit_results[ord_ctx_unit_index(ctx, u)])[k],
				  out);
}

int ord_ctx_result_texts(struct ord_ctx *ctx, unsigned event_seq, const char *unit_id,
			 const struct ord_kv *values, const struct ord_kv *texts)
{
	/* the first language is the explanation; the rest only when there
	 * are several (a result in one language has no texts) */
	add_result(ctx, event_seq, unit_id, values, texts->n ? texts->items[0].value : "",
		   texts->n > 1 ? texts : NULL);
	return 0;
}

/* ---- the fake context for modules' unit tests ---- */

struct ord_ctx *ord_ctx_fake_new(const struct ord_ruleset *rs, struct ord_rules *rules, int turn)
{
	struct ord_ctx *ctx = ord_xmalloc(sizeof(*ctx));

	ord_ctx_init(ctx, rs, rules, turn);
	ctx->fake = 1;
	return ctx;
}

void ord_ctx_fake_free(struct ord_ctx *ctx)
{
	if (!ctx)
		return;
	ord_ctx_release(ctx);
	free(ctx);
}

struct ord_unit *ord_ctx_fake_add_unit(struct ord_ctx *ctx, const char *id, const char *name,
				       const char *side)
{
	struct ord_unit *u = ord_ctx_add_unit(ctx, id, name, side, NULL, NULL);
	size_t i = (size_t)(u - ctx->units);

	/* re-index every time: tests add few units */
	ord_ctx_index(ctx);
	return &ctx->units[i];
}

void ord_ctx_fake_set_side(struct ord_ctx *ctx, const char *side)
{
	ctx->side = side;
}

void ord_ctx_fake_set_order(struct ord_ctx *ctx, const struct ord_unit *u, const struct ord_order *o)
{
	ctx->orders[u - ctx->units] = o;
}

void ord_ctx_fake_add_event(struct ord_ctx *ctx, const char *phase, const char *kind,
			    const struct ord_kv *kv)
{
	struct ord_event *e = ord_ctx_add_event(ctx, (unsigned)ctx->nevents + 1, phase, kind, NULL,
						NULL, NULL);
	if (kv)
		ord_kv_copy(&e->kv, kv);
}

void ord_ctx_fake_set_dice(struct ord_ctx *ctx, const int *dice, size_t n)
{
	ctx->fixed = dice;
	ctx->nfixed = n;
	ctx->fixed_pos = 0;
}

const char *ord_ctx_fake_results(struct ord_ctx *ctx)
{
	return ctx->fake_out.buf;
}
