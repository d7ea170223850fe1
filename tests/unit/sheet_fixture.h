/*
 * sheet_fixture.h - the fixture the suites of the built-in notations share
 * (check_hieroglyph.c, check_ordre.c): a sheet and its diagnostics made
 * afresh for every test, a parse through SHEET_NOTATION (the suite defines
 * it before including this), and the assertions every notation's tests
 * make of what parsed.  Included once by each suite: its functions are
 * the suite's own.
 */
#ifndef ORD_TEST_SHEET_FIXTURE_H
#define ORD_TEST_SHEET_FIXTURE_H

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/common.h"
#include "notation.h"

#ifndef SHEET_NOTATION
#error "define SHEET_NOTATION (the suite's struct ord_notation) first"
#endif

static struct ord_sheet sheet;
static struct ord_diag diag;

static void setup(void)
{
	ord_sheet_init(&sheet);
	ord_diag_init(&diag);
}

static void teardown(void)
{
	ord_sheet_release(&sheet);
	ord_diag_release(&diag);
}

static int parse_n(const char *text, size_t len)
{
	return SHEET_NOTATION.parse(&sheet, text, len, &diag);
}

static int parse(const char *text)
{
	return parse_n(text, strlen(text));
}

/* The diagnostics as ord_diag_format prints them, for messages on failure. */
static char *diag_text(void)
{
	struct ord_buf b = ORD_BUF_INIT;

	ord_diag_format(&diag, "sheet", &b);
	return ord_buf_detach(&b, NULL);
}

static void assert_clean(int rc)
{
	if (rc != 0 || diag.n) {
		char *t = diag_text();
		ck_abort_msg("unexpected errors (rc %d):\n%s", rc, t);
		free(t);
	}
}

static void assert_order(size_t i, const char *unit, unsigned line, unsigned col, size_t ntok)
{
	ck_assert_uint_gt(sheet.n, i);
	ck_assert_str_eq(sheet.orders[i].unit, unit);
	ck_assert_uint_eq(sheet.orders[i].line, line);
	ck_assert_uint_eq(sheet.orders[i].col, col);
	ck_assert_uint_eq(sheet.orders[i].ntok, ntok);
}

#endif
