/*
 * ruleset_fixture.h - what the suites of the built-in rulesets share
 * (check_battalion.c, check_krigsspil.c): the ruleset, its rules and a
 * fake context (ord_ctx_fake_new) of the test, the sheets a test parsed,
 * the teardown that frees them and checks that every state key the module
 * used is one it declares, the two helpers a suite's units are made
 * with, a sheet parsed and validated through RULESET_NOTATION (the
 * suite's notation, a pointer the suite declares and defines this to
 * before including), an event recorded and checked as the core would
 * (the keys the module fills from the game filled, ord_phase_event_defaults),
 * and what the check of execution notes.  Each suite loads its own ruleset in its setup.
 * Included once by each suite: its functions are the suite's own.
 */
#ifndef ORD_TEST_RULESET_FIXTURE_H
#define ORD_TEST_RULESET_FIXTURE_H

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/common.h"
#include "core/phase.h"
#include "ruleset.h"

#ifndef RULESET_NOTATION
#error "define RULESET_NOTATION (the suite's struct ord_notation pointer) first"
#endif

static const struct ord_ruleset *rs;
static struct ord_rules *rules;
static struct ord_ctx *ctx;

static struct ord_sheet sheets[8];
static size_t nsheets;

static void teardown(void)
{
	size_t i;

	for (i = 0; i < nsheets; i++)
		ord_sheet_release(&sheets[i]);
	nsheets = 0;
	/* every state key the module used is one it declares */
	if (ctx)
		ck_assert_msg(ord_state_check(ctx) == 0, "%s", ord_error_last());
	ord_ctx_fake_free(ctx);
	ctx = NULL;
	rs->free(rules);
	rules = NULL;
}

/* Split "k=v k=v" into kv (values have no blanks). */
static void split_kv(struct ord_kv *kv, const char *text)
{
	char *copy = strdup(text), *tok, *save = NULL;

	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');
		ck_assert_ptr_nonnull(eq);
		*eq = '\0';
		ord_kv_set(kv, tok, eq + 1);
	}
	free(copy);
}

/* Store a list and read it back, as the core does between two commands
 * (a list read back may keep its strings differently). */
static void reload(struct ord_kv *kv)
{
	struct ord_buf b = ORD_BUF_INIT;

	ord_kv_serialize(kv, &b);
	ord_kv_release(kv);
	ord_kv_init(kv);
	ck_assert_int_eq(ord_kv_parse(kv, b.buf), 0);
	ord_buf_release(&b);
}

/* Parse a test sheet, which must parse (into s, for the test to release). */
static void parse(struct ord_sheet *s, const char *text)
{
	struct ord_diag d;
	struct ord_buf b = ORD_BUF_INIT;

	ord_diag_init(&d);
	ord_sheet_init(s);
	RULESET_NOTATION->parse(s, text, strlen(text), &d);
	ord_diag_format(&d, "sheet", &b);
	ck_assert_msg(d.n == 0, "the test sheet does not parse:\n%s", b.buf);
	ord_buf_release(&b);
	ord_diag_release(&d);
}

/* d as ord_diag_format prints it, kept in out (a line a problem, "" when
 * none); d is released. */
static const char *diag_kept(struct ord_diag *d, char *out, size_t size)
{
	struct ord_buf b = ORD_BUF_INIT;

	ord_diag_format(d, NULL, &b);
	ck_assert_uint_lt(b.len, size);
	memcpy(out, b.buf, b.len + 1);
	ord_buf_release(&b);
	ord_diag_release(d);
	return out;
}

/* What validate_sheet says of a sheet of side (static buffer, "" when
 * accepted). */
static const char *validate(const char *side, const char *text)
{
	static char out[8192];
	struct ord_sheet s;
	struct ord_diag d;
	int rc;

	parse(&s, text);
	ord_diag_init(&d);
	ord_ctx_fake_set_side(ctx, side);
	rc = rs->validate_sheet(ctx, &s, &d);
	ord_ctx_fake_set_side(ctx, NULL);
	ck_assert_int_eq(rc, d.n ? ORD_EBADSHEET : 0);
	diag_kept(&d, out, sizeof(out));
	ord_sheet_release(&s);
	return out;
}

/* The kind's spec, and args ("k=v k=v") split on blanks into argv (at
 * most 23 words, in copy, which the caller frees) and checked by the
 * kinds' keys into kv, as the core checks an event's words first. */
static const struct ord_event_kind *event_words(const char *kind, const char *args, char **copy,
						char *argv[24], int *argc, struct ord_kv *kv,
						struct ord_diag *d)
{
	const struct ord_event_kind *ek = ord_ruleset_event_kind(rs, kind);
	char *tok, *save = NULL;
	int rc;

	ck_assert_ptr_nonnull(ek);
	*copy = strdup(args);
	*argc = 0;
	for (tok = strtok_r(*copy, " ", &save); tok && *argc < 23; tok = strtok_r(NULL, " ", &save))
		argv[(*argc)++] = tok;
	argv[*argc] = NULL;
	ord_diag_init(d);
	ord_kv_init(kv);
	rc = ord_keys_check(kv, ek->keys, *argc, argv, d);
	ck_assert_msg(rc == 0 && d->n == 0, "event %s %s: bad keys", kind, args);
	return ek;
}

/* Record an event as the core would (keys checked, defaults filled; with
 * stored, as an event stored before replays: its arguments as they are,
 * never refused by the module's event_defaults) and return what
 * check_event says of it (static buffer, "" when it agrees with the
 * orders). */
static const char *event_as(const char *kind, const char *args, int stored)
{
	static char out[8192];
	char *copy, *argv[24];
	struct ord_diag d;
	struct ord_kv kv;
	int argc, rc;
	const struct ord_event_kind *ek = event_words(kind, args, &copy, argv, &argc, &kv, &d);

	/* the keys the module fills from the game (its event_defaults) */
	rc = stored ? 0 : ord_phase_event_defaults(ctx, ek, argc, argv, &kv, &d);
	ck_assert_msg(rc == 0 && d.n == 0, "event %s %s: %s", kind, args, d.n ? d.items[0].msg : "");
	ord_ctx_fake_add_event(ctx, ek->phase, kind, &kv);
	rc = rs->check_event(ctx, ord_ctx_event(ctx, ord_ctx_nevents(ctx) - 1), &d);
	ck_assert_int_eq(rc, d.n ? ORD_ECHECK : 0);
	diag_kept(&d, out, sizeof(out));
	ord_kv_release(&kv);
	free(copy);
	return out;
}

static const char *event(const char *kind, const char *args)
{
	return event_as(kind, args, 0);
}

/* An event as a game made before stored it, as its replay checks it
 * (inline, as refused: a suite of a module that has no use for them
 * includes them unused). */
static inline const char *event_stored(const char *kind, const char *args)
{
	return event_as(kind, args, 1);
}

/* Why the module refuses an event's arguments as it is recorded, whatever
 * the override (its event_defaults; static buffer): the event must be
 * refused, and is not added. */
static inline const char *refused(const char *kind, const char *args)
{
	static char out[8192];
	char *copy, *argv[24];
	struct ord_diag d;
	struct ord_kv kv;
	int argc, rc;
	const struct ord_event_kind *ek = event_words(kind, args, &copy, argv, &argc, &kv, &d);

	rc = ord_phase_event_defaults(ctx, ek, argc, argv, &kv, &d);
	ck_assert_msg(rc == ORD_EUSAGE && d.n == 1, "event %s %s: not refused", kind, args);
	snprintf(out, sizeof(out), "%s", d.items[0].msg);
	ord_diag_release(&d);
	ord_kv_release(&kv);
	free(copy);
	return out;
}

/* What the module's check of execution notes of the orders and the events
 * so far, a line each (static buffer, "" when every order was carried
 * out); it never fails. */
static const char *execution(void)
{
	static char out[8192];
	struct ord_diag d;

	ord_diag_init(&d);
	ck_assert_int_eq(rs->check_execution(ctx, &d), 0);
	diag_kept(&d, out, sizeof(out));
	return out;
}

#endif
