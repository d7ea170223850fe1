/*
 * ruleset_fixture.h - what the suites of the built-in rulesets share
 * (check_battalion.c, check_krigsspil.c): the ruleset, its rules and a
 * fake context (ord_ctx_fake_new) of the test, the sheets a test parsed,
 * the teardown that frees them and checks that every state key the module
 * used is one it declares, and the two helpers a suite's units are made
 * with.  Each suite loads its own ruleset in its setup.  Included once by
 * each suite: its functions are the suite's own.
 */
#ifndef ORD_TEST_RULESET_FIXTURE_H
#define ORD_TEST_RULESET_FIXTURE_H

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/common.h"
#include "ruleset.h"

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

#endif
