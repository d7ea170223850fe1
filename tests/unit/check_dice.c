/*
 * check_dice.c - the dice: faces derived from the dice key and the roll's
 * identity (src/core/ctx.c ord_dice_face) are uniform, independent of the
 * order in which rolls are asked for, and tied to the key.
 *
 * Uniformity is a chi-square test over 10^6 d6 rolls (and d20, d100, and
 * pairs of consecutive d6 rolls); a copy of the same derivation with the
 * rejection sampling replaced by "first byte modulo 6" must fail the same
 * test, which shows the test can see a bias of that size.  The key is
 * fixed, so the tests are deterministic: they cannot fail by bad luck.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "core/ctx.h"
#include "ruleset.h"

#define N_ROLLS 1000000

/* Upper 0.1% points of the chi-square distribution. */
#define CHI2_5DF_P001 20.515   /* d6 */
#define CHI2_19DF_P001 43.820  /* d20 */
#define CHI2_99DF_P001 148.230 /* d100 */
#define CHI2_35DF_P001 66.619  /* pairs of d6 */

static unsigned char key[32];

static void setup(void)
{
	size_t i;

	ck_assert_int_ge(sodium_init(), 0);
	for (i = 0; i < sizeof(key); i++)
		key[i] = (unsigned char)(i * 37 + 11);
}

static double chi2(const long *count, int cells, long n)
{
	double e = (double)n / cells, x = 0;
	int i;

	for (i = 0; i < cells; i++)
		x += ((double)count[i] - e) * ((double)count[i] - e) / e;
	return x;
}

/* The chi-square of n rolls of a d(sides), identities varying by index
 * and event as a turn's rolls do. */
static double uniformity(int (*face)(const unsigned char *, const char *, unsigned, const char *,
				     unsigned, unsigned),
			 unsigned sides, long n)
{
	long *count = calloc(sides, sizeof(*count)), bad = 0;
	double x;
	long i;

	/* one assertion at the end: Check's own are too slow for 10^6 calls */
	for (i = 0; i < n; i++) {
		int f = face(key, "fire", (unsigned)(i % 97), "to hit", (unsigned)(i / 97), sides);
		if (f < 1 || f > (int)sides)
			bad++;
		else
			count[f - 1]++;
	}
	ck_assert_int_eq(bad, 0);
	x = chi2(count, (int)sides, n);
	free(count);
	return x;
}

static int real_face(const unsigned char *k, const char *phase, unsigned ev, const char *purpose,
		     unsigned idx, unsigned sides)
{
	return ord_dice_face(k, phase, ev, purpose, idx, sides);
}

/* The same hash of the same identity as ord_dice_face, but the face taken
 * as the first byte modulo sides: with 256 = 42 * 6 + 4, faces 1 to 4 come
 * up 43 times in 256 and faces 5 and 6 only 42. */
static void put_u32(unsigned char *p, unsigned v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static int biased_face(const unsigned char *k, const char *phase, unsigned ev, const char *purpose,
		       unsigned idx, unsigned sides)
{
	crypto_generichash_state st;
	unsigned char out[32], n[4];

	crypto_generichash_init(&st, k, 32, sizeof(out));
	crypto_generichash_update(&st, (const unsigned char *)"orderly-roll-v1", 16);
	crypto_generichash_update(&st, (const unsigned char *)phase, strlen(phase) + 1);
	put_u32(n, ev);
	crypto_generichash_update(&st, n, 4);
	crypto_generichash_update(&st, (const unsigned char *)purpose, strlen(purpose) + 1);
	put_u32(n, idx);
	crypto_generichash_update(&st, n, 4);
	put_u32(n, sides);
	crypto_generichash_update(&st, n, 4);
	put_u32(n, 0);
	crypto_generichash_update(&st, n, 4);
	crypto_generichash_final(&st, out, sizeof(out));
	return out[0] % sides + 1; /* the bias: no rejection */
}

/* A game whose dice are keyed by what an event names: the event's number
 * stands for its count of events before it naming the same units. */
static int ident_face(const unsigned char *k, const char *phase, unsigned ev, const char *purpose,
		      unsigned idx, unsigned sides)
{
	char ident[64];

	snprintf(ident, sizeof(ident), "fire\nA1 F2\n#%u", ev);
	return ord_dice_face_ident(k, phase, ident, purpose, idx, sides);
}

START_TEST(d6_uniform)
{
	double x = uniformity(real_face, 6, N_ROLLS);

	ck_assert_msg(x < CHI2_5DF_P001, "chi-square of 10^6 d6 rolls is %.2f (critical %.3f)", x,
		      CHI2_5DF_P001);
}
END_TEST

START_TEST(d6_by_events_uniform)
{
	static const unsigned char k[32] = { 7, 1, 9 };
	double x = uniformity(ident_face, 6, N_ROLLS);
	int i, same_seq = 0, same_ident = 0;

	ck_assert_msg(x < CHI2_5DF_P001,
		      "chi-square of 10^6 d6 rolls keyed by events is %.2f (critical %.3f)", x,
		      CHI2_5DF_P001);
	/* the same identity, the same face; another tag than a roll keyed by
	 * its event's number; the units named matter */
	for (i = 0; i < 6000; i++) {
		char a[64], b[64];
		int f;
		snprintf(a, sizeof(a), "fire\nA1 F2\n#%d", i);
		snprintf(b, sizeof(b), "fire\nA1 F3\n#%d", i);
		f = ord_dice_face_ident(k, "fire", a, "to hit", 0, 6);
		ck_assert_int_eq(f, ord_dice_face_ident(k, "fire", a, "to hit", 0, 6));
		same_seq += f == ord_dice_face(k, "fire", (unsigned)i, "to hit", 0, 6);
		same_ident += f == ord_dice_face_ident(k, "fire", b, "to hit", 0, 6);
	}
	/* 1000 expected by chance each; one identity for the other would give 6000 */
	ck_assert_msg(same_seq < 1200 && same_ident < 1200, "%d %d", same_seq, same_ident);
}
END_TEST

/* Known answers, computed apart from this code (BLAKE2b keyed, as the
 * threat model writes the roll): the dice of every game made before a
 * roll was keyed by what its event names must not move, or their audits
 * would fail; and the new keying is pinned as well. */
START_TEST(known_answers)
{
	static const unsigned char k[32] = { 1, 2, 3 };
	static const int fire_v1[12] = { 6, 5, 1, 1, 3, 4, 5, 6, 4, 3, 3, 5 };
	static const int melee_v1[12] = { 4, 14, 19, 7, 9, 2, 20, 1, 3, 7, 13, 20 };
	static const int fire_v2[12] = { 6, 1, 2, 1, 3, 3, 2, 3, 3, 2, 3, 2 };
	unsigned i;

	for (i = 0; i < 12; i++) {
		char ident[64];
		snprintf(ident, sizeof(ident), "fire\nA5 F1\n#%u", i);
		ck_assert_int_eq(ord_dice_face(k, "fire", i + 1, "to hit", 0, 6), fire_v1[i]);
		ck_assert_int_eq(ord_dice_face(k, "melee", i + 1, "melee a", i + 1, 20), melee_v1[i]);
		ck_assert_int_eq(ord_dice_face_ident(k, "fire", ident, "to hit", 0, 6), fire_v2[i]);
	}
}
END_TEST

START_TEST(modulo_bias_is_caught)
{
	double x = uniformity(biased_face, 6, N_ROLLS);

	/* expected about 122: far above the critical value */
	ck_assert_msg(x > CHI2_5DF_P001, "the modulo-biased d6 passed: chi-square %.2f (critical %.3f)",
		      x, CHI2_5DF_P001);
}
END_TEST

START_TEST(d20_d100_uniform)
{
	double x20 = uniformity(real_face, 20, 1000000), x100 = uniformity(real_face, 100, 1000000);

	ck_assert_msg(x20 < CHI2_19DF_P001, "d20 chi-square %.2f", x20);
	ck_assert_msg(x100 < CHI2_99DF_P001, "d100 chi-square %.2f", x100);
}
END_TEST

/* Consecutive rolls are independent: the 36 pairs are equally likely. */
START_TEST(d6_pairs_uniform)
{
	long count[36] = { 0 }, i, n = N_ROLLS;
	double x;

	for (i = 0; i < n; i++) {
		int a = ord_dice_face(key, "melee", 1, "melee a", (unsigned)(2 * i), 6);
		int b = ord_dice_face(key, "melee", 1, "melee a", (unsigned)(2 * i + 1), 6);
		count[(a - 1) * 6 + (b - 1)]++;
	}
	x = chi2(count, 36, n);
	ck_assert_msg(x < CHI2_35DF_P001, "pairs chi-square %.2f", x);
}
END_TEST

/* Every part of the identity and the key changes the roll: over many
 * rolls, two derivations differing in one part agree about 1/6 of the time. */
START_TEST(identity_and_key_matter)
{
	unsigned char other[32];
	int same_key = 0, same_phase = 0, same_ev = 0, same_purpose = 0, same_idx = 0;
	unsigned i;

	memcpy(other, key, 32);
	other[31] ^= 1;
	int unstable = 0;

	for (i = 0; i < 6000; i++) {
		int f = ord_dice_face(key, "fire", i, "to hit", 0, 6);
		same_key += f == ord_dice_face(other, "fire", i, "to hit", 0, 6);
		same_phase += f == ord_dice_face(key, "melee", i, "to hit", 0, 6);
		same_ev += f == ord_dice_face(key, "fire", i + 6000, "to hit", 0, 6);
		same_purpose += f == ord_dice_face(key, "fire", i, "to hit ", 0, 6);
		same_idx += f == ord_dice_face(key, "fire", i, "to hit", 1, 6);
		/* and the same identity always gives the same face */
		unstable += f != ord_dice_face(key, "fire", i, "to hit", 0, 6);
	}
	ck_assert_int_eq(unstable, 0);
	ck_assert_int_lt(same_key, 1200);
	ck_assert_int_lt(same_phase, 1200);
	ck_assert_int_lt(same_ev, 1200);
	ck_assert_int_lt(same_purpose, 1200);
	ck_assert_int_lt(same_idx, 1200);
}
END_TEST

/* A 2-sided and a 1000-sided die use every face (rejection sampling
 * works for any number of faces, not only powers of two). */
START_TEST(faces_in_range)
{
	int seen2[3] = { 0 };
	unsigned i;

	int bad = 0;

	for (i = 0; i < 1000; i++) {
		int f = ord_dice_face(key, "p", i, "coin", 0, 2);
		if (f == 1 || f == 2)
			seen2[f]++;
		else
			bad++;
		f = ord_dice_face(key, "p", i, "d1000", 0, 1000);
		bad += f < 1 || f > 1000;
	}
	ck_assert_int_eq(bad, 0);
	ck_assert_int_gt(seen2[1], 400);
	ck_assert_int_gt(seen2[2], 400);
}
END_TEST

/* ---- order of resolution ---- */

struct ident {
	const char *phase;
	unsigned ev;
	const char *purpose;
	unsigned idx;
	unsigned sides;
};

static const struct ident idents[] = {
	{ "fire", 1, "artillery to hit", 0, 6 },
	{ "fire", 2, "artillery to hit", 0, 6 },
	{ "fire", 3, "artillery to hit", 0, 6 },
	{ "fire-morale", 0, "fire morale B1", 0, 6 },
	{ "fire-morale", 0, "fire morale R1", 0, 20 },
	{ "melee", 4, "melee a", 0, 6 },
	{ "melee", 4, "melee b", 0, 6 },
	{ "melee", 5, "melee a", 0, 6 },
	{ "melee", 5, "melee b", 0, 6 },
	{ "melee-morale", 0, "pursuit H1", 0, 6 },
};
#define NIDENTS (sizeof(idents) / sizeof(idents[0]))

static void roll_all(struct ord_ctx *ctx, const size_t *order, int *values)
{
	size_t i;

	for (i = 0; i < NIDENTS; i++) {
		const struct ident *id = &idents[order[i]];
		ctx->phase = id->phase;
		ck_assert_int_eq(ord_ctx_roll(ctx, &values[order[i]], id->sides, id->purpose,
					      id->ev, id->idx),
				 0);
	}
}

/* The same rolls asked for in another order, and after other rolls, give
 * the same faces: no running counter. */
START_TEST(order_does_not_matter)
{
	static const size_t forward[NIDENTS] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	static const size_t backward[NIDENTS] = { 9, 8, 7, 6, 5, 4, 3, 2, 1, 0 };
	static const size_t shuffled[NIDENTS] = { 5, 2, 9, 0, 7, 3, 8, 1, 6, 4 };
	int a[NIDENTS], b[NIDENTS], c[NIDENTS], extra;
	struct ord_ctx x, y, z;
	size_t i;

	ord_ctx_init(&x, NULL, NULL, 1);
	ord_ctx_init(&y, NULL, NULL, 1);
	ord_ctx_init(&z, NULL, NULL, 1);
	x.have_key = y.have_key = z.have_key = 1;
	memcpy(x.dice_key, key, 32);
	memcpy(y.dice_key, key, 32);
	memcpy(z.dice_key, key, 32);
	roll_all(&x, forward, a);
	roll_all(&y, backward, b);
	/* z first rolls dice of events that y and x never had */
	z.phase = "fire";
	for (i = 0; i < 50; i++)
		ck_assert_int_eq(ord_ctx_roll(&z, &extra, 6, "artillery to hit", 100 + (unsigned)i, 0),
				 0);
	roll_all(&z, shuffled, c);
	for (i = 0; i < NIDENTS; i++) {
		ck_assert_int_eq(a[i], b[i]);
		ck_assert_int_eq(a[i], c[i]);
		ck_assert_int_eq(a[i],
				 ord_dice_face(key, idents[i].phase, idents[i].ev,
					       idents[i].purpose, idents[i].idx, idents[i].sides));
	}
	ord_ctx_release(&x);
	ord_ctx_release(&y);
	ord_ctx_release(&z);
}
END_TEST

/* The battalion module resolving the same artillery events handed to it
 * in another order: the same rolls, the same results, the same states. */
static const struct ord_ruleset *rs;
static struct ord_rules *rules;

static void add_unit(struct ord_ctx *ctx, const char *id, const char *side, const char *attrs)
{
	struct ord_unit *u = ord_ctx_fake_add_unit(ctx, id, id, side);
	char *copy = strdup(attrs), *tok, *save = NULL;
	struct ord_diag d;

	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');
		*eq = '\0';
		ord_kv_set(&u->attrs, tok, eq + 1);
	}
	free(copy);
	ord_diag_init(&d);
	ck_assert_int_eq(rs->init_unit(rules, u, &d), 0);
	ord_diag_release(&d);
}

static void add_event(struct ord_ctx *ctx, unsigned seq, const char *kind, char **argv, int argc)
{
	const struct ord_event_kind *ek = ord_ruleset_event_kind(rs, kind);
	struct ord_buf args = ORD_BUF_INIT;
	struct ord_diag d;
	struct ord_kv kv;

	ord_kv_init(&kv);
	ord_diag_init(&d);
	ck_assert_int_eq(ord_keys_check(&kv, ek->keys, argc, argv, &d), 0);
	ord_kv_serialize(&kv, &args);
	ord_ctx_add_event(ctx, seq, ek->phase, kind, args.buf, NULL, NULL);
	ord_kv_release(&kv);
	ord_diag_release(&d);
	ord_buf_release(&args);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The results' lines sorted, then every unit's state, then every roll
 * "identity=value" sorted: what a phase produced, whatever its order. */
static char *outcome(struct ord_ctx *ctx)
{
	struct ord_buf b = ORD_BUF_INIT;
	char **lines = calloc(ctx->nresults + ctx->nrolls + 1, sizeof(*lines));
	size_t i, n = 0;

	for (i = 0; i < ctx->nresults; i++) {
		struct ord_buf l = ORD_BUF_INIT;
		ord_buf_addf(&l, "result %s: %s", ctx->results[i].unit, ctx->results[i].explanation);
		lines[n++] = ord_buf_detach(&l, NULL);
	}
	for (i = 0; i < ctx->nrolls; i++) {
		struct ord_buf l = ORD_BUF_INIT;
		ord_buf_addf(&l, "roll %s/%u/%s/%u d%u = %d", ctx->rolls[i].phase,
			     ctx->rolls[i].event_seq, ctx->rolls[i].purpose, ctx->rolls[i].idx,
			     ctx->rolls[i].sides, ctx->rolls[i].value);
		lines[n++] = ord_buf_detach(&l, NULL);
	}
	qsort(lines, n, sizeof(*lines), cmp_str);
	for (i = 0; i < n; i++) {
		ord_buf_addf(&b, "%s\n", lines[i]);
		free(lines[i]);
	}
	free(lines);
	for (i = 0; i < ctx->nunits; i++) {
		ord_buf_addf(&b, "state %s: ", ctx->units[i].id);
		ord_kv_serialize(&ctx->units[i].state, &b);
	}
	return ord_buf_detach(&b, NULL);
}

static char *artillery_phase(const unsigned *order)
{
	static const char *const shots[3][4] = {
		{ "unit=G1", "target=R1", "range=10", "shot=ball" },
		{ "unit=G2", "target=R2", "range=6", "shot=grape" },
		{ "unit=G3", "target=R1", "range=14", "shot=shell" },
	};
	struct ord_ctx *ctx = ord_ctx_fake_new(rs, rules, 1);
	char *out;
	unsigned i;

	add_unit(ctx, "G1", "blue", "kind=foot_artillery formation=unlimbered figures=10 weapon=none");
	add_unit(ctx, "G2", "blue", "kind=foot_artillery formation=unlimbered figures=10 weapon=none");
	add_unit(ctx, "G3", "blue", "kind=foot_artillery formation=unlimbered figures=10 weapon=none");
	add_unit(ctx, "R1", "red", "kind=line_infantry formation=column figures=24");
	add_unit(ctx, "R2", "red", "kind=line_infantry formation=line figures=24");
	for (i = 0; i < 3; i++)
		add_event(ctx, order[i] + 1, "artillery", (char **)shots[order[i]], 4);
	ctx->have_key = 1;
	memcpy(ctx->dice_key, key, 32);
	ctx->phase = "fire";
	ck_assert_msg(rs->resolve_phase(ctx, "fire") == 0, "fire: %s", ord_error_last());
	out = outcome(ctx);
	ord_ctx_fake_free(ctx);
	return out;
}

START_TEST(battalion_order_does_not_matter)
{
	static const unsigned a[3] = { 0, 1, 2 }, b[3] = { 2, 0, 1 }, c[3] = { 1, 2, 0 };
	char *x, *y, *z;

	ck_assert_int_eq(ord_ruleset_find(&rs, "battalion"), 0);
	ck_assert_int_eq(ord_ruleset_load_tables(&rules, rs, NULL), 0);
	x = artillery_phase(a);
	y = artillery_phase(b);
	z = artillery_phase(c);
	ck_assert_msg(strstr(x, "roll fire/1/artillery to hit/0 d6") && strstr(x, "roll fire/3/"),
		      "the phase rolled no artillery dice:\n%s", x);
	ck_assert_str_eq(x, y);
	ck_assert_str_eq(x, z);
	free(x);
	free(y);
	free(z);
	rs->free(rules);
}
END_TEST

Suite *ord_test_suite(void)
{
	Suite *s = suite_create("dice");
	TCase *t = tcase_create("uniform");
	TCase *o = tcase_create("order");

	tcase_add_checked_fixture(t, setup, NULL);
	tcase_set_timeout(t, 600);
	tcase_add_test(t, d6_uniform);
	tcase_add_test(t, modulo_bias_is_caught);
	tcase_add_test(t, d6_by_events_uniform);
	tcase_add_test(t, known_answers);
	tcase_add_test(t, d20_d100_uniform);
	tcase_add_test(t, d6_pairs_uniform);
	tcase_add_test(t, identity_and_key_matter);
	tcase_add_test(t, faces_in_range);
	suite_add_tcase(s, t);
	tcase_add_checked_fixture(o, setup, NULL);
	tcase_add_test(o, order_does_not_matter);
	tcase_add_test(o, battalion_order_does_not_matter);
	suite_add_tcase(s, o);
	return s;
}
