/*
 * check_state.c - a unit's state as its module declares it
 * (src/core/state.c): typed reads and writes, defaults, the first misuse
 * kept and reported naming the module and the key, the first state of a
 * unit (ord_state_init), modules of version 1 left unchecked; and, through
 * a whole game, a module that reads or writes a key it did not declare
 * fails the submission and the resolution instead of reading 0.
 */
#include <check.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "orderly.h"
#include "ruleset.h"
#include "core/common.h"
#include "core/ctx.h"

/* ---- a small module: units have strength; "poke unit=U key=K" writes K ---- */

extern const struct ord_ruleset statetest_ruleset;

static const char *const phases[] = { "act", NULL };

static const struct ord_key_spec attrs[] = {
	{ "strength", ORD_KEY_INT, 1, NULL, 1, 100, NULL, "strength" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

static const struct ord_key_spec poke_keys[] = {
	{ "unit", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the unit" },
	{ "key", ORD_KEY_STR, 0, NULL, 0, 0, "strength", "the state key written" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

static const struct ord_event_kind events[] = {
	{ "poke", "act", poke_keys, "write a state key" },
	{ NULL, NULL, NULL, NULL },
};

static const struct ord_state_key state_keys[] = {
	{ "strength", ORD_KEY_INT, "0", "strength left" },
	{ "mood", ORD_KEY_STR, "calm", "how it feels" },
	{ "x", ORD_KEY_NUM, NULL, "position" },
	{ NULL, 0, NULL, NULL },
};

struct ord_rules {
	int unused;
};

static int ts_load(struct ord_rules **out, const char *xml, size_t len, const char *name)
{
	(void)xml;
	(void)len;
	(void)name;
	*out = ord_xcalloc(1, sizeof(**out));
	return 0;
}

static void ts_free(struct ord_rules *r)
{
	free(r);
}

static int ts_init_unit(struct ord_rules *rules, struct ord_unit *u, struct ord_diag *diag)
{
	struct ord_kv init;
	int err;

	(void)rules;
	(void)diag;
	ord_kv_init(&init);
	ord_kv_set(&init, "strength", ord_kv_get(&u->attrs, "strength"));
	err = ord_state_init(&statetest_ruleset, u, &init);
	ord_kv_release(&init);
	return err;
}

/* Every code of an order names a state key it reads: "FLn" is none. */
static int ts_validate(struct ord_ctx *ctx, const struct ord_sheet *sheet, struct ord_diag *diag)
{
	size_t i, j;

	(void)diag;
	for (i = 0; i < sheet->n; i++) {
		const struct ord_order *o = &sheet->orders[i];
		struct ord_unit *u = ord_ctx_find_unit(ctx, o->unit);
		for (j = 0; u && j < o->ntok; j++)
			if (o->tok[j].kind == ORD_TOK_CODE)
				ord_state_int(ctx, u, o->tok[j].value);
	}
	return 0;
}

static int ts_resolve(struct ord_ctx *ctx, const char *phase)
{
	size_t i;

	(void)phase;
	for (i = 0; i < ord_ctx_nevents(ctx); i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		struct ord_unit *u = ord_ctx_find_unit(ctx, ord_kv_get(&e->kv, "unit"));
		ord_state_set_int(ctx, u, ord_kv_get(&e->kv, "key"), 7);
		ord_ctx_result(ctx, e->seq, u->id, NULL, "poked");
	}
	return 0;
}

const struct ord_ruleset statetest_ruleset = {
	ORD_RULESET_INIT,
	.name = "statetest",
	.notation = "hieroglyph",
	.phases = phases,
	.unit_attrs = attrs,
	.events = events,
	.load = ts_load,
	.free = ts_free,
	.init_unit = ts_init_unit,
	.validate_sheet = ts_validate,
	.resolve_phase = ts_resolve,
	.state_keys = state_keys,
};

/* The same module as built against version 1: no state_keys slot. */
static const struct ord_ruleset old_ruleset = {
	.version = 1,
	.name = "stateold",
	.notation = "hieroglyph",
	.phases = phases,
	.load = ts_load,
	.free = ts_free,
};

/* ---- the accessors on a fake context ---- */

START_TEST(typed_reads_writes_and_defaults)
{
	struct ord_ctx *ctx = ord_ctx_fake_new(&statetest_ruleset, NULL, 1);
	struct ord_unit *u = ord_ctx_fake_add_unit(ctx, "U1", "One", "blue");

	ck_assert_int_eq(ord_state_int(ctx, u, "strength"), 0);
	ck_assert_str_eq(ord_state_str(ctx, u, "mood"), "calm");
	ck_assert(!ord_state_has(ctx, u, "mood"));
	ck_assert(ord_state_num(ctx, u, "x") == 0);
	ord_state_set_int(ctx, u, "strength", 12);
	ord_state_set_str(ctx, u, "mood", "angry");
	ord_state_set_num(ctx, u, "x", 12.345);
	ck_assert_int_eq(ord_state_int(ctx, u, "strength"), 12);
	ck_assert(ord_state_num(ctx, u, "strength") == 12); /* an integer is a number */
	ck_assert_str_eq(ord_state_str(ctx, u, "strength"), "12");
	ck_assert_str_eq(ord_state_str(ctx, u, "mood"), "angry");
	ck_assert(ord_state_has(ctx, u, "mood"));
	ck_assert_str_eq(ord_state_str(ctx, u, "x"), "12.35");
	ord_state_set_str(ctx, u, "x", "3.125"); /* text that is a number, kept as it is */
	ck_assert(ord_state_num(ctx, u, "x") == 3.125);
	ord_state_set_int(ctx, u, "x", 4); /* an integer to a number key */
	ck_assert_str_eq(ord_state_str(ctx, u, "x"), "4");
	ck_assert_int_eq(ord_state_check(ctx), 0);
	ord_ctx_fake_free(ctx);
}
END_TEST

/* A context keeps the declarations of the keys read lately by the key's
 * address (state.c find_key_seen): a key written in a buffer is another
 * key at the same address, and each read is as the list says, 10,000
 * reads of literals and of one buffer holding declared keys, undeclared
 * ones and keys read as another type. */
START_TEST(keys_seen_by_address_and_name)
{
	static const char *const names[] = { "strength", "mood", "x", "strenght", "moo", "" };
	struct ord_ctx *ctx = ord_ctx_fake_new(&statetest_ruleset, NULL, 1);
	struct ord_unit *u = ord_ctx_fake_add_unit(ctx, "U1", "One", "blue");
	char buf[16];
	uint32_t r = 5;
	size_t i;

	ord_kv_set(&u->state, "strength", "5");
	for (i = 0; i < 10000; i++) {
		const char *key;
		const struct ord_state_key *k;
		long v;
		size_t n;

		r = r * 1103515245u + 12345u;
		n = (r >> 8) % ORD_ARRAY_SIZE(names);
		if ((r >> 16) % 2) {
			strcpy(buf, names[n]);
			key = buf;
		} else {
			key = names[n];
		}
		for (k = state_keys; k->name && strcmp(k->name, key); k++)
			;
		ctx->state_error[0] = '\0';
		v = ord_state_int(ctx, u, key);
		if (!k->name || k->type != ORD_KEY_INT) { /* undeclared, or read as another type */
			ck_assert_int_eq(v, 0);
			ck_assert_str_ne(ctx->state_error, "");
		} else {
			ck_assert_int_eq(v, !strcmp(key, "strength") ? 5 : 0);
			ck_assert_str_eq(ctx->state_error, "");
		}
		ctx->state_error[0] = '\0';
		ck_assert_str_eq(ord_state_str(ctx, u, key), !k->name                   ? ""
							     : !strcmp(key, "strength") ? "5"
							     : !strcmp(key, "mood")     ? "calm"
											: "0");
		ck_assert_int_eq(!ctx->state_error[0], k->name != NULL); /* text: any key */
	}
	ctx->state_error[0] = '\0';
	ord_ctx_fake_free(ctx);
}
END_TEST

/* Run fn on a fresh fake context; the message ord_state_check gives. */
static const char *misuse(void (*fn)(struct ord_ctx *, struct ord_unit *), struct ord_buf *msg)
{
	struct ord_ctx *ctx = ord_ctx_fake_new(&statetest_ruleset, NULL, 1);
	struct ord_unit *u = ord_ctx_fake_add_unit(ctx, "U1", "One", "blue");

	ord_kv_set(&u->state, "strength", "5");
	fn(ctx, u);
	ck_assert_int_eq(ord_state_check(ctx), ORD_ERROR);
	ord_buf_reset(msg);
	ord_buf_adds(msg, ord_error_last());
	/* nothing undeclared was written */
	ck_assert_ptr_null(ord_kv_get(&u->state, "strenght"));
	ck_assert_str_eq(ord_kv_get(&u->state, "strength"), "5");
	ord_ctx_fake_free(ctx);
	return msg->buf;
}

static void read_typo(struct ord_ctx *c, struct ord_unit *u)
{
	ck_assert_int_eq(ord_state_int(c, u, "strenght"), 0);
	/* the first mistake is kept */
	ord_state_int(c, u, "other");
}
static void write_typo(struct ord_ctx *c, struct ord_unit *u)
{
	ord_state_set_int(c, u, "strenght", 3);
}
static void int_as_text(struct ord_ctx *c, struct ord_unit *u)
{
	ord_state_int(c, u, "mood");
}
static void num_as_int(struct ord_ctx *c, struct ord_unit *u)
{
	ord_state_int(c, u, "x");
}
static void text_to_int(struct ord_ctx *c, struct ord_unit *u)
{
	ord_state_set_str(c, u, "strength", "many");
}
static void int_to_text(struct ord_ctx *c, struct ord_unit *u)
{
	ord_state_set_int(c, u, "mood", 3);
}
static void has_typo(struct ord_ctx *c, struct ord_unit *u)
{
	ck_assert(!ord_state_has(c, u, "strenght"));
}

START_TEST(misuse_is_kept_and_named)
{
	struct ord_buf m = ORD_BUF_INIT;

	ck_assert_str_eq(misuse(read_typo, &m),
			 "ruleset 'statetest' reads unit state 'strenght', which it does not declare (state_keys)");
	ck_assert_str_eq(misuse(write_typo, &m),
			 "ruleset 'statetest' writes unit state 'strenght', which it does not declare (state_keys)");
	ck_assert_str_eq(misuse(has_typo, &m),
			 "ruleset 'statetest' reads unit state 'strenght', which it does not declare (state_keys)");
	ck_assert_str_eq(misuse(int_as_text, &m),
			 "ruleset 'statetest' reads unit state 'mood' as an integer, but declares it text");
	ck_assert_str_eq(misuse(num_as_int, &m),
			 "ruleset 'statetest' reads unit state 'x' as an integer, but declares it a number");
	ck_assert_str_eq(misuse(text_to_int, &m),
			 "ruleset 'statetest' writes 'many' to unit state 'strength', which it declares an integer");
	ck_assert_str_eq(misuse(int_to_text, &m),
			 "ruleset 'statetest' writes unit state 'mood' as an integer, but declares it text");
	ord_buf_release(&m);
}
END_TEST

START_TEST(first_state_and_old_modules)
{
	struct ord_unit u;
	struct ord_kv init;
	struct ord_ctx *ctx;
	struct ord_unit *v;

	memset(&u, 0, sizeof(u));
	u.id = "U1";
	ord_kv_init(&u.state);
	ord_kv_init(&init);
	ord_kv_set(&init, "strength", "9");
	ord_kv_set(&init, "mood", "calm");
	ck_assert_int_eq(ord_state_init(&statetest_ruleset, &u, &init), 0);
	ck_assert_str_eq(ord_kv_get(&u.state, "strength"), "9");
	ord_kv_set(&init, "mode", "x");
	ck_assert_int_eq(ord_state_init(&statetest_ruleset, &u, &init), ORD_ERROR);
	ck_assert_str_eq(ord_error_last(),
			 "ruleset 'statetest' writes unit state 'mode', which it does not declare (state_keys)");
	ord_kv_del(&init, "mode");
	ord_kv_set(&init, "strength", "nine");
	ck_assert_int_eq(ord_state_init(&statetest_ruleset, &u, &init), ORD_ERROR);
	ck_assert_ptr_nonnull(strstr(ord_error_last(), "'nine' to unit state 'strength'"));
	ord_kv_release(&init);
	ord_kv_release(&u.state);

	/* a module built against version 1 declares nothing and is not checked */
	ctx = ord_ctx_fake_new(&old_ruleset, NULL, 1);
	v = ord_ctx_fake_add_unit(ctx, "U1", "One", "blue");
	ord_state_set_int(ctx, v, "anything", 3);
	ck_assert_int_eq(ord_state_int(ctx, v, "anything"), 3);
	ck_assert_str_eq(ord_state_str(ctx, v, "missing"), "");
	ck_assert_int_eq(ord_state_check(ctx), 0);
	ord_ctx_fake_free(ctx);
}
END_TEST

/* ---- through a whole game: the core fails the module's call ---- */

static char dir[1024], game[1200], scen[1200];

static void game_setup(void)
{
	static const char scenario[] = "<?xml version=\"1.0\"?>\n"
				       "<scenario ruleset=\"statetest\">\n"
				       "  <title>State</title>\n"
				       "  <nmr policy=\"hold\"/>\n"
				       "  <side id=\"blue\" name=\"Blue\"/>\n"
				       "  <side id=\"red\" name=\"Red\"/>\n"
				       "  <unit id=\"B1\" name=\"Blue One\" side=\"blue\" strength=\"10\"/>\n"
				       "  <unit id=\"R1\" name=\"Red One\" side=\"red\" strength=\"10\"/>\n"
				       "</scenario>\n";
	FILE *f;
	int rc = ord_ruleset_register(&statetest_ruleset);

	ck_assert_msg(rc == 0, "%s", ord_error_last());
	snprintf(dir, sizeof(dir), "%s/check_state.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(game, sizeof(game), "%s/g.orderly", dir);
	snprintf(scen, sizeof(scen), "%s/s.xml", dir);
	f = fopen(scen, "w");
	ck_assert_ptr_nonnull(f);
	fputs(scenario, f);
	fclose(f);
}

static void game_teardown(void)
{
	static const char *const names[] = { "g.orderly", "g.orderly-wal", "g.orderly-shm", "s.xml" };
	char p[1300];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		unlink(p);
	}
	rmdir(dir);
}

static int poke(ord_game *g, const char *key, struct ord_buf *out)
{
	char unit[] = "unit=B1", k[64];
	char *argv[2];
	struct ord_diag d;
	int err;

	snprintf(k, sizeof(k), "key=%s", key);
	argv[0] = unit;
	argv[1] = k;
	ord_diag_init(&d);
	err = ord_game_event(g, "poke", 2, argv, NULL, &d);
	ord_diag_release(&d);
	ck_assert_msg(err == 0, "event: %s", ord_error_last());
	return ord_game_resolve(g, NULL, NULL, 0, out);
}

START_TEST(game_fails_on_undeclared_keys)
{
	struct ord_receipt r;
	struct ord_diag d;
	struct ord_buf out = ORD_BUF_INIT;
	ord_game *g = NULL;
	int rc;

	rc = ord_game_create(&g, game, scen, NULL);
	ck_assert_msg(rc == 0, "create: %s", ord_error_last());
	ord_diag_init(&d);
	/* validate_sheet reads state 'FLn': the submission fails, naming it */
	ck_assert_int_eq(ord_game_submit(g, &r, "blue", "B1 FLn\n", 7, &d), ORD_ERROR);
	ck_assert_str_eq(ord_error_last(),
			 "ruleset 'statetest' reads unit state 'FLn', which it does not declare (state_keys)");
	ck_assert_int_eq(ord_game_submit(g, &r, "blue", "B1 ↑\n", strlen("B1 ↑\n"), &d), 0);
	ck_assert_int_eq(ord_game_seal(g, 1), 0);
	/* resolve_phase writes 'strenght': the phase is not resolved */
	ck_assert_int_eq(poke(g, "strenght", &out), ORD_ERROR);
	ck_assert_str_eq(ord_error_last(),
			 "ruleset 'statetest' writes unit state 'strenght', which it does not declare (state_keys)");
	ord_game_free(g);
	/* the same game with the key it declares resolves */
	unlink(game);
	rc = ord_game_create(&g, game, scen, NULL);
	ck_assert_msg(rc == 0, "create: %s", ord_error_last());
	ck_assert_int_eq(ord_game_submit(g, &r, "blue", "B1 ↑\n", strlen("B1 ↑\n"), &d), 0);
	ck_assert_int_eq(ord_game_seal(g, 1), 0);
	ck_assert_msg(poke(g, "strength", &out) == 0, "%s", ord_error_last());
	ck_assert_ptr_nonnull(strstr(out.buf, "poked"));
	ord_diag_release(&d);
	ord_buf_release(&out);
	ord_game_free(g);
}
END_TEST

/* A state's text with a key given twice keeps its last value, once (keys
 * sharing a first letter told apart); an empty value is a value. */
START_TEST(parse_keeps_the_last_of_a_key)
{
	struct ord_kv kv;

	ord_kv_init(&kv);
	ck_assert_int_eq(ord_kv_parse(&kv, "moral=OR\nmorale=2\nfigurer=12\nmoral=LU\nflag=\n"), 0);
	ck_assert_uint_eq(kv.n, 4);
	ck_assert_str_eq(ord_kv_get(&kv, "moral"), "LU");
	ck_assert_str_eq(ord_kv_get(&kv, "morale"), "2");
	ck_assert_str_eq(ord_kv_get(&kv, "figurer"), "12");
	ck_assert_str_eq(ord_kv_get(&kv, "flag"), "");
	ord_kv_release(&kv);
}
END_TEST

/* A list held is marked until its first change through any kv function:
 * a value set to another, a key deleted, the list released and parsed or
 * copied anew (core/common.h: ord_kv_hold, ord_kv_held); packed again, it
 * holds what it held, and a list whose text reads otherwise stays as it
 * is (ord_kv_repack). */
START_TEST(held_until_changed)
{
	struct ord_kv kv, other;
	struct ord_buf b = ORD_BUF_INIT;

	ord_kv_init(&kv);
	ck_assert_int_eq(ord_kv_parse(&kv, "a=1\nb=2\n"), 0);
	ck_assert(!ord_kv_held(&kv)); /* parsed, not held */
	ord_kv_hold(&kv);
	ck_assert(ord_kv_held(&kv));
	ord_kv_set(&kv, "a", "1"); /* the same value: no change */
	ck_assert(ord_kv_held(&kv));
	ck_assert_str_eq(ord_kv_get(&kv, "b"), "2");
	ord_kv_set(&kv, "b", "3");
	ck_assert(!ord_kv_held(&kv));
	ord_kv_set(&kv, "c", "x=y");
	ord_kv_serialize(&kv, &b);
	ord_kv_repack(&kv, &b);
	ck_assert(ord_kv_held(&kv));
	ck_assert_uint_eq(kv.n, 3);
	ck_assert_str_eq(ord_kv_get(&kv, "b"), "3");
	ck_assert_str_eq(ord_kv_get(&kv, "c"), "x=y");
	ord_kv_del(&kv, "a");
	ck_assert(!ord_kv_held(&kv));
	ck_assert_uint_eq(kv.n, 2);
	/* replaced whole: another list, not the one held */
	ord_kv_hold(&kv);
	ck_assert(!ord_kv_held(&kv)); /* unpacked: nothing to hold */
	ord_kv_release(&kv);
	ck_assert_int_eq(ord_kv_parse(&kv, "a=9\n"), 0);
	ord_kv_hold(&kv);
	ck_assert(ord_kv_held(&kv));
	ord_kv_release(&kv);
	ck_assert_int_eq(ord_kv_parse(&kv, "a=8\n"), 0);
	ck_assert(!ord_kv_held(&kv));
	ord_kv_init(&other);
	ord_kv_copy(&other, &kv);
	ck_assert(!ord_kv_held(&other));
	ord_kv_release(&other);
	ord_kv_release(&kv);
	/* a key with '=' or a value with a newline is not what its text reads */
	ord_kv_init(&kv);
	ord_kv_set(&kv, "k=j", "v");
	ord_kv_set(&kv, "m", "two\nlines");
	ord_buf_reset(&b);
	ord_kv_serialize(&kv, &b);
	ord_kv_repack(&kv, &b);
	ck_assert(!ord_kv_held(&kv));
	ck_assert_str_eq(ord_kv_get(&kv, "k=j"), "v");
	ck_assert_str_eq(ord_kv_get(&kv, "m"), "two\nlines");
	ord_kv_release(&kv);
	ord_buf_release(&b);
}
END_TEST

/* A pool holds each different list once (core/common.h: ord_kv_pool):
 * lists parsed alike share one block, held; the first change of one gives
 * it items of its own, the others and the value a module holds unchanged;
 * a list repacked into the pool shares with its like again; a sweep frees
 * only the blocks no list holds (ASan sees the rest). */
START_TEST(pool_shares_alike_lists)
{
	struct ord_kv_pool pool;
	struct ord_kv a, b, c;
	struct ord_buf t = ORD_BUF_INIT;
	const char *fig;

	ord_kv_pool_init(&pool);
	ord_kv_init(&a);
	ord_kv_init(&b);
	ord_kv_init(&c);
	ck_assert_int_eq(ord_kv_pool_parse(&pool, &a, "figures=24\nformation=line\n"), 0);
	ck_assert_int_eq(ord_kv_pool_parse(&pool, &b, "figures=24\nformation=line\n"), 0);
	ck_assert_int_eq(ord_kv_pool_parse(&pool, &c, "figures=20\nformation=line\n"), 0);
	ck_assert_ptr_eq(a.items, b.items); /* one block */
	ck_assert_ptr_ne(a.items, c.items);
	ck_assert(ord_kv_held(&a) && ord_kv_held(&b) && ord_kv_held(&c));
	ck_assert_uint_eq(pool.n, 2);
	/* a bad line: an error, the list empty, the pool as it was */
	{
		struct ord_kv bad;
		ord_kv_init(&bad);
		ck_assert_int_eq(ord_kv_pool_parse(&pool, &bad, "figures\n"), ORD_EBADDATA);
		ck_assert_uint_eq(bad.n, 0);
		ck_assert_uint_eq(pool.n, 2);
	}
	/* the first change: a's own items, b and the held value unchanged */
	fig = ord_kv_get(&a, "figures");
	ord_kv_set(&a, "formation", "column");
	ck_assert(!ord_kv_held(&a));
	ck_assert(ord_kv_held(&b));
	ck_assert_str_eq(fig, "24");
	ck_assert_str_eq(ord_kv_get(&a, "formation"), "column");
	ck_assert_str_eq(ord_kv_get(&b, "formation"), "line");
	ord_kv_set(&a, "losses", "4"); /* grows past the shared items */
	ord_kv_del(&a, "losses");
	/* repacked: shares with c once it holds what c holds */
	ord_kv_set(&a, "figures", "20");
	ord_kv_set(&a, "formation", "line");
	ord_kv_serialize(&a, &t);
	ord_kv_pool_repack(&pool, &a, &t);
	ck_assert_ptr_eq(a.items, c.items);
	ck_assert(ord_kv_held(&a));
	/* b alone holds the first block: a sweep keeps it, and frees it once
	 * b lets it go */
	ord_kv_pool_sweep(&pool);
	ck_assert_uint_eq(pool.n, 2);
	ck_assert_str_eq(ord_kv_get(&b, "figures"), "24");
	ord_kv_release(&b);
	ord_kv_pool_sweep(&pool);
	ck_assert_uint_eq(pool.n, 1);
	/* a copy of a shared list is a list of its own */
	ord_kv_copy(&b, &c);
	ck_assert_ptr_ne(b.items, c.items);
	ck_assert(!ord_kv_held(&b));
	ord_kv_release(&b);
	ord_kv_release(&a);
	ord_kv_release(&c);
	ord_kv_pool_release(&pool);
	ord_buf_release(&t);
}
END_TEST

/* A shared list's note (ord_kv_shared_memo): one for every list that
 * shares its block, written by the first to ask; none for a list of its
 * own (parsed alone, or changed), a new block's unwritten, a list
 * repacked into another's block has that block's note. */
START_TEST(pool_notes_once_a_block)
{
	struct ord_kv_pool pool;
	struct ord_kv a, b, c, own;
	struct ord_buf t = ORD_BUF_INIT;
	unsigned char *m, *m2;

	ord_kv_pool_init(&pool);
	ord_kv_init(&a);
	ord_kv_init(&b);
	ord_kv_init(&c);
	ord_kv_init(&own);
	ck_assert_int_eq(ord_kv_pool_parse(&pool, &a, "figures=24\nformation=line\n"), 0);
	ck_assert_int_eq(ord_kv_pool_parse(&pool, &c, "figures=20\nformation=line\n"), 0);
	ck_assert_int_eq(ord_kv_shared_memo(&a, &m), 0);
	ck_assert_ptr_nonnull(m);
	memcpy(m, "0123456789abcdef", 16);
	ck_assert_int_eq(ord_kv_shared_memo(&a, &m2), 1);
	ck_assert_ptr_eq(m2, m);
	/* a list parsed alike: the same block, the same note */
	ck_assert_int_eq(ord_kv_pool_parse(&pool, &b, "figures=24\nformation=line\n"), 0);
	ck_assert_int_eq(ord_kv_shared_memo(&b, &m2), 1);
	ck_assert_mem_eq(m2, "0123456789abcdef", 16);
	/* another list: its own, unwritten */
	ck_assert_int_eq(ord_kv_shared_memo(&c, &m2), 0);
	ck_assert_ptr_ne(m2, m);
	memcpy(m2, "fedcba9876543210", 16);
	/* changed: a list of its own, no note; repacked like c: c's */
	ord_kv_set(&a, "figures", "20");
	ck_assert_int_eq(ord_kv_shared_memo(&a, &m2), -1);
	ck_assert_ptr_null(m2);
	ord_kv_serialize(&a, &t);
	ord_kv_pool_repack(&pool, &a, &t);
	ck_assert_int_eq(ord_kv_shared_memo(&a, &m2), 1);
	ck_assert_mem_eq(m2, "fedcba9876543210", 16);
	/* the first block freed once b lets it go; parsed again, a new block */
	ord_kv_release(&b);
	ord_kv_pool_sweep(&pool);
	ck_assert_int_eq(ord_kv_pool_parse(&pool, &b, "figures=24\nformation=line\n"), 0);
	ck_assert_int_eq(ord_kv_shared_memo(&b, &m2), 0);
	/* a list no pool shares */
	ck_assert_int_eq(ord_kv_parse(&own, "figures=24\n"), 0);
	ck_assert_int_eq(ord_kv_shared_memo(&own, &m2), -1);
	ord_kv_release(&own);
	ord_kv_release(&a);
	ord_kv_release(&b);
	ord_kv_release(&c);
	ord_kv_pool_release(&pool);
	ord_buf_release(&t);
}
END_TEST

/* A text the pool parsed before is found by its text (kv.c
 * pool_find_text), with no parse: the list it gives is the one the parse
 * gives, and shared as the parse shares it.  Held to ord_kv_parse over
 * 20,000 random texts of a few keys and values (repeated keys, a missing
 * last newline, bad lines, texts too long to be kept), while lists are
 * let go, changed and swept, so that the texts kept outlive blocks. */
static uint32_t rnd_state = 12345;

static uint32_t rnd(uint32_t n)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state % n;
}

static void random_text(struct ord_buf *b)
{
	static const char *const keys[] = { "figures", "formation", "f", "losses", "x" };
	static const char *const values[] = { "24", "line", "", "a=b", "0", "column" };
	size_t i, n = rnd(5);

	ord_buf_reset(b);
	for (i = 0; i < n; i++) {
		if (!rnd(40))
			ord_buf_adds(b, rnd(2) ? "nokey" : "=v"); /* a bad line */
		else
			ord_buf_addf(b, "%s=%s", keys[rnd(ORD_ARRAY_SIZE(keys))],
				     values[rnd(ORD_ARRAY_SIZE(values))]);
		if (!rnd(60))
			ord_buf_addf(b, "%0300d", 7); /* past what the pool keeps */
		if (i + 1 < n || rnd(4))
			ord_buf_addch(b, '\n');
	}
}

START_TEST(pool_finds_texts_as_parsed)
{
	enum { LIVE = 48 };
	struct ord_kv_pool pool;
	struct ord_kv live[LIVE];
	struct ord_buf text = ORD_BUF_INIT;
	size_t i, j, k;

	ord_kv_pool_init(&pool);
	for (i = 0; i < LIVE; i++)
		ord_kv_init(&live[i]);
	for (i = 0; i < 20000; i++) {
		struct ord_kv want;
		int err, want_err;

		k = rnd(LIVE);
		ord_kv_release(&live[k]);
		random_text(&text);
		ord_kv_init(&want);
		want_err = ord_kv_parse(&want, text.buf);
		ord_error_clear();
		err = ord_kv_pool_parse(&pool, &live[k], text.buf);
		ord_error_clear();
		ck_assert_int_eq(err, want_err);
		ck_assert_uint_eq(live[k].n, want.n);
		for (j = 0; j < want.n; j++) {
			ck_assert_str_eq(live[k].items[j].key, want.items[j].key);
			ck_assert_str_eq(live[k].items[j].value, want.items[j].value);
		}
		ord_kv_release(&want);
		/* two shared lists alike are one block */
		j = rnd(LIVE);
		if (j != k && live[k].n && ord_kv_held(&live[j]) && ord_kv_held(&live[k]) &&
		    live[j].n == live[k].n) {
			size_t m;
			for (m = 0; m < live[k].n; m++)
				if (strcmp(live[j].items[m].key, live[k].items[m].key) ||
				    strcmp(live[j].items[m].value, live[k].items[m].value))
					break;
			if (m == live[k].n)
				ck_assert_ptr_eq(live[j].items, live[k].items);
		}
		if (!rnd(20) && live[k].n) /* a change: the list's own items */
			ord_kv_set(&live[k], live[k].items[0].key, "changed");
		if (!rnd(500))
			ord_kv_pool_sweep(&pool);
	}
	ck_assert_uint_gt(pool.ntexts, 0);
	for (i = 0; i < LIVE; i++)
		ord_kv_release(&live[i]);
	ord_kv_pool_release(&pool);
	ord_buf_release(&text);
}
END_TEST

/* ord_parse_long reads plain digits itself (every state read parses
 * one): held to strtol as it read them all before, over 100,000 random
 * strings of digits, signs, spaces, letters, up to 24 characters (past
 * what a long holds). */
static int parse_long_by_strtol(const char *s, long *out)
{
	char *end;
	long v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

START_TEST(parse_long_as_strtol)
{
	static const char chars[] = "0123456789000999-+ x\t";
	char s[32];
	size_t i, k, n;
	long v;

	for (i = 0; i < 100000; i++) {
		long got = 12345, want = 12345;
		n = rnd(25);
		for (k = 0; k < n; k++)
			s[k] = rnd(3) ? chars[rnd(10)] : chars[rnd(sizeof(chars) - 1)];
		s[n] = '\0';
		ck_assert_int_eq(ord_parse_long(s, &got), parse_long_by_strtol(s, &want));
		ck_assert_int_eq(got, want);
	}
	ck_assert_int_eq(ord_parse_long("-9223372036854775808", &v), 0);
	ck_assert_int_eq(v, -9223372036854775807L - 1);
	ck_assert_int_eq(ord_parse_long("9223372036854775808", &v), -1);
	ck_assert_int_eq(ord_parse_long("-", &v), -1);
}
END_TEST

/* What a phase changed: a unit set back to its value, or set to the one
 * it had, is unchanged; after the phase, a unit counts from its new state
 * (ord_ctx_unit_changed, ord_ctx_next_phase). */
START_TEST(changed_units_of_a_phase)
{
	struct ord_ctx ctx;
	struct ord_buf b = ORD_BUF_INIT;
	struct ord_unit *u, *w;

	ord_ctx_init(&ctx, NULL, NULL, 1);
	u = ord_ctx_add_unit(&ctx, "U1", "U1", "a", "", "morale=2\nfigures=24\n");
	w = ord_ctx_add_unit(&ctx, "U2", "U2", "a", "", "");
	ord_ctx_index(&ctx);
	ck_assert(!ord_ctx_unit_changed(&ctx, 0, &b));
	ck_assert(!ord_ctx_unit_changed(&ctx, 1, &b));
	ord_kv_set(&u->state, "morale", "3");
	ord_kv_set(&w->state, "flag", "yes");
	ck_assert(ord_ctx_unit_changed(&ctx, 0, &b));
	ck_assert_str_eq(b.buf, "morale=3\nfigures=24\n");
	ck_assert(ord_ctx_unit_changed(&ctx, 1, &b));
	ord_kv_set(&u->state, "morale", "2"); /* back as it was */
	ck_assert(!ord_ctx_unit_changed(&ctx, 0, &b));
	ord_kv_set(&u->state, "morale", "4");
	ord_ctx_next_phase(&ctx);
	u = ord_ctx_unit(&ctx, 0);
	ck_assert(!ord_ctx_unit_changed(&ctx, 0, &b));
	ck_assert(!ord_ctx_unit_changed(&ctx, 1, &b));
	ck_assert_str_eq(ord_kv_get(&u->state, "morale"), "4");
	ord_kv_set(&u->state, "morale", "2");
	ck_assert(ord_ctx_unit_changed(&ctx, 0, &b));
	ord_ctx_next_phase(&ctx);
	/* a module that replaces a state whole, not key by key */
	u = ord_ctx_unit(&ctx, 0);
	ord_kv_release(&u->state);
	ck_assert_int_eq(ord_kv_parse(&u->state, "morale=5\nfigures=24\n"), 0);
	ck_assert(ord_ctx_unit_changed(&ctx, 0, &b));
	ck_assert_str_eq(b.buf, "morale=5\nfigures=24\n");
	ord_ctx_release(&ctx);
	ord_buf_release(&b);
}
END_TEST

/* A load of many (ord_ctx_find_units) asks the game for each name once,
 * in the order named, and not for a unit held. */
static char asked[256];

static int load_none(void *ud, struct ord_ctx *ctx, const char *id_or_name)
{
	(void)ud;
	(void)ctx;
	(void)id_or_name;
	return 0;
}

static int load_many_said(void *ud, struct ord_ctx *ctx, const char *const *names, size_t n)
{
	size_t i;

	(void)ud;
	(void)ctx;
	for (i = 0; i < n; i++) {
		strcat(asked, names[i]);
		strcat(asked, " ");
	}
	return 0;
}

static size_t counted;

static int load_many_counted(void *ud, struct ord_ctx *ctx, const char *const *names, size_t n)
{
	size_t i, k;

	(void)ud;
	(void)ctx;
	for (i = 0; i < n; i++)
		for (k = 0; k < i; k++)
			ck_assert_str_ne(names[i], names[k]);
	counted = n;
	return 0;
}

START_TEST(find_units_asks_each_once)
{
	static const char *const names[] = { "B1", "B2", "U1", "B1", "u1", "B3", "B2", "B1" };
	struct ord_ctx ctx;
	char many[200][8];
	const char *lots[400];
	size_t i;

	ord_ctx_init(&ctx, NULL, NULL, 1);
	ord_ctx_reserve_units(&ctx, 8);
	ord_ctx_add_unit(&ctx, "U1", "u1", "a", "", "");
	ord_ctx_index(&ctx);
	ord_ctx_set_lazy(&ctx, 8, load_none, NULL);
	ord_ctx_set_lazy_many(&ctx, load_many_said);
	asked[0] = '\0';
	ord_ctx_find_units(&ctx, names, 8);
	ck_assert_str_eq(asked, "B1 B2 B3 ");
	/* past the set's first size, each twice */
	for (i = 0; i < 200; i++) {
		snprintf(many[i], sizeof(many[i]), "T%zu", i);
		lots[2 * i] = lots[2 * i + 1] = many[i];
	}
	asked[0] = '\0';
	ord_ctx_set_lazy_many(&ctx, load_many_counted);
	counted = 0;
	ord_ctx_find_units(&ctx, lots, 400);
	ck_assert_uint_eq(counted, 200);
	ord_ctx_release(&ctx);
}
END_TEST

/* The note of int_seen for u's shared list and key, or NULL. */
static struct ord_ctx_int_seen *int_note(struct ord_ctx *ctx, const struct ord_unit *u, const char *key)
{
	const void *block = ord_kv_shared_block(&u->state);
	size_t i;

	for (i = 0; block && i < ORD_ARRAY_SIZE(ctx->int_seen); i++)
		if (ctx->int_seen[i].block == block && ctx->int_seen[i].key == key &&
		    ctx->int_seen[i].gen == ctx->pool.gen)
			return &ctx->int_seen[i];
	return NULL;
}

/* A context that checks notes the integers it reads from the lists its
 * pool shares (state.c int_seen): read again, the note is what is read;
 * a unit whose state changed reads its own list, the others the shared
 * one; a sweep of the pool (blocks freed, their addresses free for other
 * lists) drops every note; a key in a buffer is looked up as written; a
 * context that resolves notes nothing. */
START_TEST(ints_noted_by_shared_list)
{
	const char *key = state_keys[0].name; /* "strength", the declaration's own */
	struct ord_ctx ctx;
	struct ord_unit *a, *b, *c;
	struct ord_ctx_int_seen *note;
	char buf[16];
	size_t i;

	ord_ctx_init(&ctx, &statetest_ruleset, NULL, 1);
	ord_ctx_set_checks_only(&ctx, 4);
	a = ord_ctx_add_unit(&ctx, "A", "a", "blue", "strength=5\n", "strength=5\nmood=calm\n");
	b = ord_ctx_add_unit(&ctx, "B", "b", "blue", "strength=5\n", "strength=5\nmood=calm\n");
	c = ord_ctx_add_unit(&ctx, "C", "c", "red", "strength=9\n", "strength=9\nmood=calm\n");
	ck_assert_ptr_eq(ord_kv_shared_block(&a->state), ord_kv_shared_block(&b->state));
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(ord_state_int(&ctx, a, key), 5);
		ck_assert_int_eq(ord_state_int(&ctx, b, key), 5);
		ck_assert_int_eq(ord_state_int(&ctx, c, key), 9);
	}
	/* the note is what is read */
	ck_assert_ptr_nonnull(note = int_note(&ctx, c, key));
	ck_assert_int_eq(note->v, 9);
	note->v = 12345;
	ck_assert_int_eq(ord_state_int(&ctx, c, key), 12345);
	note->v = 9;
	/* a's state changed: its own list, read as it is now; b's as before */
	ord_state_set_int(&ctx, a, key, 7);
	ck_assert_ptr_null(ord_kv_shared_block(&a->state));
	ck_assert_int_eq(ord_state_int(&ctx, a, key), 7);
	ck_assert_int_eq(ord_state_int(&ctx, b, key), 5);
	/* a sweep drops the notes */
	ck_assert_ptr_nonnull(note = int_note(&ctx, c, key));
	note->v = 12345;
	ord_kv_pool_sweep(&ctx.pool);
	ck_assert_ptr_null(int_note(&ctx, c, key));
	ck_assert_int_eq(ord_state_int(&ctx, c, key), 9);
	/* a key in a buffer: as written, each time */
	strcpy(buf, "strength");
	ck_assert_int_eq(ord_state_int(&ctx, b, buf), 5);
	ck_assert_ptr_null(int_note(&ctx, b, buf));
	strcpy(buf, "mood"); /* text, read as an integer: a mistake, 0 */
	ck_assert_int_eq(ord_state_int(&ctx, b, buf), 0);
	ck_assert_str_ne(ctx.state_error, "");
	ord_ctx_release(&ctx);

	/* a context that resolves: no note */
	ord_ctx_init(&ctx, &statetest_ruleset, NULL, 1);
	a = ord_ctx_add_unit(&ctx, "A", "a", "blue", "strength=5\n", "strength=5\n");
	b = ord_ctx_add_unit(&ctx, "B", "b", "blue", "strength=5\n", "strength=5\n");
	ck_assert_ptr_nonnull(ord_kv_shared_block(&a->state));
	ck_assert_int_eq(ord_state_int(&ctx, a, key), 5);
	ck_assert_int_eq(ord_state_int(&ctx, b, key), 5);
	ck_assert_ptr_null(int_note(&ctx, a, key));
	ord_ctx_release(&ctx);
}
END_TEST

/* A phase's results keep their units and explanations in one arena
 * (ctx's result_strings): each string stays as written until the phase
 * ends, long ones too, and the next phase starts an empty arena. */
START_TEST(results_strings_in_an_arena)
{
	struct ord_ctx ctx;
	struct ord_result_view v;
	struct ord_arena a = ORD_ARENA_INIT;
	struct ord_kv kv;
	char *big = malloc(20001), want[64], *kept[3000];
	size_t i, phase;

	memset(big, 'y', 20000);
	big[20000] = '\0';
	ord_kv_init(&kv);
	ord_kv_set(&kv, "hits", "2");
	ord_ctx_init(&ctx, NULL, NULL, 1);
	ord_ctx_add_unit(&ctx, "U1", "U1", "a", "", "");
	ord_ctx_index(&ctx);
	for (phase = 0; phase < 2; phase++) {
		for (i = 0; i < 3000; i++) {
			snprintf(want, sizeof(want), "U%zu", i);
			if (i % 500 == 3)
				ord_ctx_result(&ctx, (unsigned)i, want, &kv, "%.*s",
					       (int)(9000 + i), big);
			else
				ord_ctx_result(&ctx, (unsigned)i, want, i % 2 ? &kv : NULL,
					       "explanation %zu of phase %zu", i, phase);
		}
		ck_assert_uint_eq(ord_ctx_nresults(&ctx), 3000);
		for (i = 0; i < 3000; i++) {
			ck_assert_int_eq(ord_ctx_result_get(&ctx, i, &v), 0);
			snprintf(want, sizeof(want), "U%zu", i);
			ck_assert_str_eq(v.unit, want);
			ck_assert_uint_eq(v.event_seq, i);
			if (i % 500 == 3) {
				ck_assert_uint_eq(strlen(v.explanation), 9000 + i);
				ck_assert_str_eq(ord_kv_get(v.values, "hits"), "2");
				continue;
			}
			snprintf(want, sizeof(want), "explanation %zu of phase %zu", i, phase);
			ck_assert_str_eq(v.explanation, want);
			ck_assert_uint_eq(v.values->n, i % 2);
		}
		/* a result made after the values were parsed for a look-up */
		ord_ctx_result(&ctx, 4000, "late", &kv, "late");
		ck_assert_int_eq(ord_ctx_result_get(&ctx, 3000, &v), 0);
		ck_assert_str_eq(v.unit, "late");
		ck_assert_str_eq(ord_kv_get(v.values, "hits"), "2");
		ck_assert_str_eq(ctx.results[3000].values, "hits=2\n");
		ck_assert_ptr_null(ctx.results[3000].texts);
		ord_ctx_next_phase(&ctx);
		ck_assert_uint_eq(ord_ctx_nresults(&ctx), 0);
		ck_assert_ptr_null(ctx.result_strings.head);
	}
	ord_ctx_release(&ctx);
	ord_kv_release(&kv);

	/* the arena itself: NULL for NULL, empty strings, and usable again
	 * once released */
	ck_assert_ptr_null(ord_arena_str(&a, NULL));
	for (phase = 0; phase < 2; phase++) {
		for (i = 0; i < 3000; i++) {
			snprintf(want, sizeof(want), "string %zu", i);
			kept[i] = i % 700 == 5 ? ord_arena_strn(&a, big, 8000 + i)
					       : ord_arena_str(&a, want);
		}
		ck_assert_str_eq(ord_arena_strn(&a, "abc", 0), "");
		for (i = 0; i < 3000; i++) {
			snprintf(want, sizeof(want), "string %zu", i);
			if (i % 700 == 5)
				ck_assert_uint_eq(strlen(kept[i]), 8000 + i);
			else
				ck_assert_str_eq(kept[i], want);
		}
		ord_arena_release(&a);
		ck_assert_ptr_null(a.head);
	}
	free(big);
}
END_TEST

START_TEST(parse_refuses_malformed_lines)
{
	static const char *const bad[] = { "=1\n", "a=1\nnone\n", "a=1\n\nb=2\n", "\n", "a" };
	static const char *const why[] = {
		"key=value line 1 is '=1' (expected KEY=VALUE)",
		"key=value line 2 is 'none' (expected KEY=VALUE)",
		"key=value line 2 is '' (expected KEY=VALUE)",
		"key=value line 1 is '' (expected KEY=VALUE)",
		"key=value line 1 is 'a' (expected KEY=VALUE)",
	};
	struct ord_kv kv;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		ord_kv_init(&kv);
		ck_assert_int_eq(ord_kv_parse(&kv, bad[i]), ORD_EBADDATA);
		ck_assert_str_eq(ord_error_last(), why[i]);
		ck_assert_uint_eq(kv.n, 0);
		ord_kv_release(&kv);
	}
	/* the last line needs no newline; an empty text is an empty list */
	ord_kv_init(&kv);
	ck_assert_int_eq(ord_kv_parse(&kv, ""), 0);
	ck_assert_uint_eq(kv.n, 0);
	ck_assert_int_eq(ord_kv_parse(&kv, "a=1\nb=x=y"), 0);
	ck_assert_uint_eq(kv.n, 2);
	ck_assert_str_eq(ord_kv_get(&kv, "b"), "x=y");
	/* appended to a list that has items: refused whole, the list kept */
	ck_assert_int_eq(ord_kv_parse(&kv, "c=3\n=4\n"), ORD_EBADDATA);
	ck_assert_str_eq(ord_error_last(), "key=value line 2 is '=4' (expected KEY=VALUE)");
	ck_assert_uint_eq(kv.n, 2);
	ck_assert_ptr_null(ord_kv_get(&kv, "c"));
	ck_assert_int_eq(ord_kv_parse(&kv, "c=3\na=2\n"), 0);
	ck_assert_uint_eq(kv.n, 3);
	ck_assert_str_eq(ord_kv_get(&kv, "a"), "2");
	ord_kv_release(&kv);
}
END_TEST

Suite *ord_test_suite(void)
{
	Suite *s = suite_create("state");
	TCase *t = tcase_create("accessors"), *g = tcase_create("game");

	tcase_add_test(t, typed_reads_writes_and_defaults);
	tcase_add_test(t, keys_seen_by_address_and_name);
	tcase_add_test(t, misuse_is_kept_and_named);
	tcase_add_test(t, first_state_and_old_modules);
	tcase_add_test(t, parse_keeps_the_last_of_a_key);
	tcase_add_test(t, parse_refuses_malformed_lines);
	tcase_add_test(t, held_until_changed);
	tcase_add_test(t, pool_shares_alike_lists);
	tcase_add_test(t, pool_finds_texts_as_parsed);
	tcase_add_test(t, pool_notes_once_a_block);
	tcase_add_test(t, parse_long_as_strtol);
	tcase_add_test(t, changed_units_of_a_phase);
	tcase_add_test(t, find_units_asks_each_once);
	tcase_add_test(t, ints_noted_by_shared_list);
	tcase_add_test(t, results_strings_in_an_arena);
	suite_add_tcase(s, t);
	tcase_add_checked_fixture(g, game_setup, game_teardown);
	tcase_add_test(g, game_fails_on_undeclared_keys);
	suite_add_tcase(s, g);
	return s;
}
