/*
 * state.c - a unit's state as its module declares it (ruleset.h, "a
 * unit's state"): typed reads and writes checked against the module's
 * state_keys, the first mistake kept in the context for the core to fail
 * the module's call with (ord_state_check), and the first state of a unit
 * written by init_unit (ord_state_init).
 *
 * Why in the core: a typo in a key ("figurs") used to read 0 and resolve
 * a turn wrongly without a word; now it names itself the first time it is
 * used, in a unit test as in a game.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/common.h"
#include "core/ctx.h"
#include "ruleset.h"
#include "tables.h"

/* The declared keys of rs, or NULL for a module older than version 2 (its
 * state is not checked). */
static const struct ord_state_key *declared(const struct ord_ruleset *rs)
{
	static const struct ord_state_key none[] = { { NULL, 0, NULL, NULL } };

	if (!rs || !ORD_RULESET_HAS(rs, 2))
		return NULL;
	return rs->state_keys ? rs->state_keys : none;
}

static const struct ord_state_key *find_key(const struct ord_state_key *keys, const char *key)
{
	/* first letters first: every state read and write comes here */
	for (; keys->name; keys++)
		if (keys->name[0] == key[0] && !strcmp(keys->name, key))
			return keys;
	return NULL;
}

/* find_key of ctx's module, through the keys it read lately (ctx
 * key_seen): found by the key's address, and its name the declared one
 * (a key written in a buffer may be another key at the same address). */
static const struct ord_state_key *find_key_seen(struct ord_ctx *ctx,
						 const struct ord_state_key *keys, const char *key)
{
	uintptr_t a = (uintptr_t)key;
	struct ord_ctx_key_seen *s = &ctx->key_seen[((a >> 3) ^ (a >> 9)) % ORD_ARRAY_SIZE(ctx->key_seen)];
	const struct ord_state_key *k;

	/* the module's literal is often the declaration's own (the linker
	 * merges equal strings): the same address is the same key */
	if (s->key == key && s->keys == keys && (s->decl->name == key || !strcmp(s->decl->name, key)))
		return s->decl;
	if ((k = find_key(keys, key)) != NULL) {
		s->key = key;
		s->keys = keys;
		s->decl = k;
	}
	return k;
}

static const char *type_name(enum ord_key_type t)
{
	switch (t) {
	case ORD_KEY_INT: return "an integer";
	case ORD_KEY_NUM: return "a number";
	default: return "text";
	}
}

/* Keep the first mistake; later ones are most often its consequences. */
static void mistake(struct ord_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	if (ctx->state_error[0])
		return;
	va_start(ap, fmt);
	vsnprintf(ctx->state_error, sizeof(ctx->state_error), fmt, ap);
	va_end(ap);
}

/* The declaration of key for an access as `as` (a type, or 0 for any);
 * NULL after recording the mistake.  *unchecked is set for a version 1
 * module. */
static const struct ord_state_key *lookup(struct ord_ctx *ctx, const char *key, const char *verb,
					  enum ord_key_type as, int *unchecked)
{
	const struct ord_state_key *keys = declared(ctx->rs), *k;

	*unchecked = keys == NULL;
	if (!keys)
		return NULL;
	if ((k = find_key_seen(ctx, keys, key)) == NULL) {
		mistake(ctx, "ruleset '%s' %s unit state '%s', which it does not declare (state_keys)",
			ctx->rs->name, verb, key);
		return NULL;
	}
	/* an integer may be read as a number; anything as its text */
	if (as && k->type != as && !(as == ORD_KEY_NUM && k->type == ORD_KEY_INT)) {
		mistake(ctx, "ruleset '%s' %s unit state '%s' as %s, but declares it %s",
			ctx->rs->name, verb, key, type_name(as), type_name(k->type));
		return NULL;
	}
	return k;
}

static const char *def_of(const struct ord_state_key *k)
{
	if (k->def)
		return k->def;
	return k->type == ORD_KEY_STR ? "" : "0";
}

/* Is text a value of type t? */
static int value_ok(enum ord_key_type t, const char *text)
{
	long l;
	double d;

	if (!text || strchr(text, '\n'))
		return 0;
	switch (t) {
	case ORD_KEY_INT: return !ord_parse_long(text, &l);
	case ORD_KEY_NUM: return !ord_parse_num(text, &d);
	default: return 1;
	}
}

/* The text a unit holds for key (or the default); NULL after a mistake. */
static const char *read_text(struct ord_ctx *ctx, const struct ord_unit *u, const char *key,
			     enum ord_key_type as)
{
	const struct ord_state_key *k;
	const char *v = ord_kv_get(&u->state, key);
	int unchecked;

	k = lookup(ctx, key, "reads", as, &unchecked);
	if (unchecked)
		return v;
	if (!k)
		return NULL;
	return v ? v : def_of(k);
}

/* The slot of int_seen for a list's block and the key as the module
 * passed it. */
static struct ord_ctx_int_seen *int_slot(struct ord_ctx *ctx, const void *block, const char *key)
{
	uint64_t a = ((uint64_t)(uintptr_t)block ^ ((uint64_t)(uintptr_t)key << 17)) *
		     0x9E3779B97F4A7C15u;

	return &ctx->int_seen[(a >> 56) % ORD_ARRAY_SIZE(ctx->int_seen)];
}

/* read_text's value, parsed.  In a context that checks (a side's for a
 * sheet, the seal's: its units all of its own pool, none handed to
 * another context), a list the pool shares, unchanged, gives the same
 * number for the same key every time: noted (int_seen) by the list's
 * block and the key's address, when that is its declaration's own name
 * (as find_key_seen takes a key: a literal the linker merged with it),
 * so that a note found needs neither the declaration looked up again
 * nor the list's items searched. */
long ord_state_int(struct ord_ctx *ctx, const struct ord_unit *u, const char *key)
{
	const struct ord_state_key *k;
	const void *block = NULL;
	struct ord_ctx_int_seen *s = NULL;
	const char *v;
	int unchecked;
	long l;

	if ((ctx->lazy || ctx->checks_only) && (block = ord_kv_shared_block(&u->state)) != NULL) {
		s = int_slot(ctx, block, key);
		if (s->block == block && s->key == key && s->gen == ctx->pool.gen)
			return s->v;
	}
	k = lookup(ctx, key, "reads", ORD_KEY_INT, &unchecked);
	if (unchecked) {
		v = ord_kv_get(&u->state, key);
		return v && !ord_parse_long(v, &l) ? l : 0;
	}
	if (!k)
		return 0;
	v = ord_kv_get(&u->state, key);
	if (!v)
		v = def_of(k);
	if (ord_parse_long(v, &l))
		l = 0;
	if (s && k->name == key) {
		s->block = block;
		s->key = key;
		s->gen = ctx->pool.gen;
		s->v = l;
	}
	return l;
}

double ord_state_num(struct ord_ctx *ctx, const struct ord_unit *u, const char *key)
{
	const char *v = read_text(ctx, u, key, ORD_KEY_NUM);
	double d;

	return v && !ord_parse_num(v, &d) ? d : 0;
}

const char *ord_state_str(struct ord_ctx *ctx, const struct ord_unit *u, const char *key)
{
	const char *v = read_text(ctx, u, key, 0);

	return v ? v : "";
}

int ord_state_has(struct ord_ctx *ctx, const struct ord_unit *u, const char *key)
{
	int unchecked;

	if (!lookup(ctx, key, "reads", 0, &unchecked) && !unchecked)
		return 0;
	return ord_kv_get(&u->state, key) != NULL;
}

/* Write text as key's value if key is declared and of a type that takes
 * it (`as`: the accessor's type, 0 for text checked against the key's). */
static void write_text(struct ord_ctx *ctx, struct ord_unit *u, const char *key, const char *text,
		       enum ord_key_type as)
{
	const struct ord_state_key *k;
	int unchecked;

	k = lookup(ctx, key, "writes", as, &unchecked);
	if (unchecked) {
		ord_kv_set(&u->state, key, text);
		return;
	}
	if (!k)
		return;
	if (!value_ok(k->type, text)) {
		mistake(ctx, "ruleset '%s' writes '%s' to unit state '%s', which it declares %s",
			ctx->rs->name, text ? text : "(null)", key, type_name(k->type));
		return;
	}
	ord_kv_set(&u->state, key, text);
}

void ord_state_set_int(struct ord_ctx *ctx, struct ord_unit *u, const char *key, long v)
{
	char b[32];

	/* an integer may go to a number key: it is one */
	if (declared(ctx->rs)) {
		const struct ord_state_key *k = find_key(declared(ctx->rs), key);
		if (k && k->type == ORD_KEY_NUM) {
			ord_fmt_long(b, v);
			write_text(ctx, u, key, b, ORD_KEY_NUM);
			return;
		}
	}
	ord_fmt_long(b, v);
	write_text(ctx, u, key, b, ORD_KEY_INT);
}

void ord_state_set_num(struct ord_ctx *ctx, struct ord_unit *u, const char *key, double v)
{
	struct ord_buf b = ORD_BUF_INIT;

	ord_state_fmt_num(&b, v);
	write_text(ctx, u, key, b.buf, ORD_KEY_NUM);
	ord_buf_release(&b);
}

void ord_state_set_str(struct ord_ctx *ctx, struct ord_unit *u, const char *key, const char *v)
{
	write_text(ctx, u, key, v, 0);
}

int ord_state_check(struct ord_ctx *ctx)
{
	if (!ctx->state_error[0])
		return 0;
	return ord_error_set(ORD_ERROR, "%s", ctx->state_error);
}

int ord_state_init(const struct ord_ruleset *rs, struct ord_unit *u, const struct ord_kv *values)
{
	const struct ord_state_key *keys = declared(rs), *k;
	size_t i;

	for (i = 0; i < values->n; i++) {
		const char *key = values->items[i].key, *v = values->items[i].value;
		if (keys && (k = find_key(keys, key)) == NULL)
			return ord_error_set(ORD_ERROR,
					     "ruleset '%s' writes unit state '%s', which it does not declare (state_keys)",
					     rs->name, key);
		if (keys && !value_ok(k->type, v))
			return ord_error_set(ORD_ERROR,
					     "ruleset '%s' writes '%s' to unit state '%s', which it declares %s",
					     rs->name, v ? v : "(null)", key, type_name(k->type));
		ord_kv_set(&u->state, key, v ? v : "");
	}
	return 0;
}
