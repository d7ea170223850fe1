/*
 * fuzz_notation.h - the checks every order-notation target makes (see
 * fuzz_hieroglyph.c, fuzz_ordre.c).  Any bytes are a possible order sheet
 * (typed on a phone, mailed, pasted from a word processor).  Besides
 * ASan/UBSan findings:
 *  - parse fails exactly when it reported a problem, and every problem
 *    names a line of the sheet (the "N more not listed" summary excepted);
 *  - the orders returned are those of the lines that parsed (notation.h),
 *    also when other lines have errors: no order is on a line with a
 *    problem, and they print, order by order, a canonical form that parses
 *    again without error to the same orders, and prints the same (format
 *    is a fixed point).
 */
#ifndef ORD_FUZZ_NOTATION_H
#define ORD_FUZZ_NOTATION_H

#include <string.h>

#include "fuzz.h"
#include "notation.h"

static size_t count_lines(const uint8_t *data, size_t size)
{
	size_t n = 1, i;

	for (i = 0; i < size; i++)
		n += data[i] == '\n';
	return n;
}

static void format_sheet(const struct ord_notation *nt, const struct ord_sheet *s, struct ord_buf *out)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		nt->format(&s->orders[i], out);
		ord_buf_addch(out, '\n');
	}
}

static int fuzz_notation(const char *name, const uint8_t *data, size_t size)
{
	const struct ord_notation *nt = NULL;
	struct ord_sheet sheet, again;
	struct ord_diag diag, diag2;
	struct ord_buf text = ORD_BUF_INIT, text2 = ORD_BUF_INIT, msgs = ORD_BUF_INIT;
	size_t lines = count_lines(data, size), i;
	int rc;

	fuzz_modules();
	ord_notation_find(&nt, name);
	fuzz_assert(nt, "no notation '%s'", name);
	ord_sheet_init(&sheet);
	ord_sheet_init(&again);
	ord_diag_init(&diag);
	ord_diag_init(&diag2);
	rc = nt->parse(&sheet, (const char *)data, size, &diag);
	fuzz_assert(rc == 0 || rc == ORD_EBADSHEET, "parse returned %d", rc);
	fuzz_assert((rc == 0) == (diag.n == 0), "parse returned %d with %zu problems", rc, diag.n);
	for (i = 0; i < diag.n; i++) {
		const struct ord_diag_item *it = &diag.items[i];
		if (it->line == 0 && i == diag.n - 1)
			continue; /* "N more syntax errors not listed" */
		fuzz_assert(it->line >= 1 && it->line <= lines && it->col >= 1,
			    "problem at %u:%u of a %zu-line sheet: %s", it->line, it->col, lines,
			    it->msg);
	}
	ord_diag_format(&diag, "sheet", &msgs);
	for (i = 0; i < sheet.n; i++) {
		size_t j;

		fuzz_assert(sheet.orders[i].line >= 1 && sheet.orders[i].line <= lines &&
				    sheet.orders[i].unit && *sheet.orders[i].unit,
			    "order %zu at line %u", i, sheet.orders[i].line);
		fuzz_assert(!i || sheet.orders[i].line > sheet.orders[i - 1].line,
			    "order %zu at line %u, after one at line %u", i, sheet.orders[i].line,
			    sheet.orders[i - 1].line);
		for (j = 0; j < diag.n; j++)
			fuzz_assert(diag.items[j].line != sheet.orders[i].line,
				    "an order at line %u, which has a problem: %s",
				    sheet.orders[i].line, diag.items[j].msg);
	}

	format_sheet(nt, &sheet, &text);
	rc = nt->parse(&again, text.buf, text.len, &diag2);
	if (rc != 0 || diag2.n) {
		ord_buf_reset(&msgs);
		ord_diag_format(&diag2, "canonical", &msgs);
		fuzz_fail("the canonical form does not parse:\n%s\n%s", text.buf, msgs.buf);
	}
	fuzz_assert(again.n == sheet.n, "%zu orders, %zu after printing and parsing", sheet.n, again.n);
	for (i = 0; i < sheet.n; i++) {
		fuzz_assert(!strcmp(sheet.orders[i].unit, again.orders[i].unit),
			    "unit '%s' became '%s'", sheet.orders[i].unit, again.orders[i].unit);
		fuzz_assert(sheet.orders[i].ntok == again.orders[i].ntok,
			    "order of '%s': %zu tokens, %zu after printing and parsing",
			    sheet.orders[i].unit, sheet.orders[i].ntok, again.orders[i].ntok);
	}
	format_sheet(nt, &again, &text2);
	fuzz_assert(text.len == text2.len && !memcmp(text.buf, text2.buf, text.len),
		    "printing is not a fixed point:\n%s---\n%s", text.buf, text2.buf);
	ord_sheet_release(&sheet);
	ord_sheet_release(&again);
	ord_diag_release(&diag);
	ord_diag_release(&diag2);
	ord_buf_release(&text);
	ord_buf_release(&text2);
	ord_buf_release(&msgs);
	return 0;
}

#endif
