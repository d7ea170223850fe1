/*
 * text.c - the krigsspil module's bilingual explanations (calc.h, struct
 * ks_text): Danish and English written side by side, the provisional
 * tables used, and both languages handed to the core, which keeps them
 * apart (ord_ctx_result_texts, ord_texts_add); numbers as the rules write
 * them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rulesets/krigsspil/calc.h"

/* ---- bilingual text ------------------------------------------------------- */

void ks_text_init(struct ks_text *t)
{
	ord_buf_init(&t->da);
	ord_buf_init(&t->en);
	ord_buf_init(&t->prov);
}

void ks_text_release(struct ks_text *t)
{
	ord_buf_release(&t->da);
	ord_buf_release(&t->en);
	ord_buf_release(&t->prov);
}

void ks_text_reset(struct ks_text *t)
{
	ord_buf_reset(&t->da);
	ord_buf_reset(&t->en);
	ord_buf_reset(&t->prov);
}

void ks_text_add(struct ks_text *t, const char *da, const char *en)
{
	ord_buf_adds(&t->da, da);
	ord_buf_adds(&t->en, en);
}

static void prov_add(struct ord_buf *prov, const char *name)
{
	if (!ord_words_has(prov->buf, name))
		ord_words_add(prov, " ", name);
}

void ks_text_cat(struct ks_text *t, const struct ks_text *src)
{
	const char *p = src->prov.buf, *w;
	size_t len;

	ord_buf_add(&t->da, src->da.buf, src->da.len);
	ord_buf_add(&t->en, src->en.buf, src->en.len);
	while ((w = ord_words_next(&p, &len)) != NULL) {
		char name[128];
		if (len < sizeof(name)) {
			memcpy(name, w, len);
			name[len] = '\0';
			prov_add(&t->prov, name);
		}
	}
}

void ks_text_used(struct ks_text *t, const struct ord_table *tbl)
{
	if (t && tbl && ord_table_provisional(tbl))
		prov_add(&t->prov, ord_table_name(tbl));
}

void ks_text_used_param(struct ks_text *t, const struct ks_rules *r, const char *name)
{
	const struct ord_row *row = ord_tables_param_row(r->tables, name);

	if (t && row && ord_row_provisional(row))
		prov_add(&t->prov, name);
}

void ks_text_mark(struct ks_text *t)
{
	struct ord_buf list = ORD_BUF_INIT;

	if (!t->prov.len)
		return;
	ord_words_join(&list, t->prov.buf, ", ", ", ");
	KS_TF(t, " [foreløbig tabel: %s]", " [provisional table: %s]", list.buf);
	ord_buf_release(&list);
}

void ks_text_langs(const struct ks_text *t, struct ord_kv *texts)
{
	ord_kv_set(texts, "da", t->da.buf);
	ord_kv_set(texts, "en", t->en.buf);
}

void ks_text_write(struct ord_ctx *ctx, const struct ks_text *t, struct ord_buf *out)
{
	struct ord_kv texts;

	ord_kv_init(&texts);
	ks_text_langs(t, &texts);
	ord_texts_add(ctx, out, &texts);
	ord_kv_release(&texts);
}

void ks_num(struct ord_buf *b, double v)
{
	ord_tables_fmt(b, v, 1);
}

void ks_text_num(struct ks_text *t, double v)
{
	ks_num(&t->da, v);
	ks_num(&t->en, v);
}

const char *ks_nword(const struct ks_rules *r, double n, const char *one, const char *many)
{
	return n == 1 && ks_check(r, "ordlyd_kontrol") ? one : many;
}

const char *ks_ordinal_en(const struct ks_rules *r, long n)
{
	if (!ks_check(r, "ordlyd_kontrol") || (n % 100 >= 11 && n % 100 <= 13))
		return "th";
	return n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
}

void ks_fmt_part(struct ord_buf *b, double v)
{
	static const struct {
		double v;
		const char *s;
	} parts[] = { { 0.25, "¼" },  { 0.5, "½" },     { 0.75, "¾" },
		      { 0.125, "⅛" }, { 0.375, "⅜" },   { 0.625, "⅝" },
		      { 0.875, "⅞" }, { 1.0 / 3, "⅓" }, { 2.0 / 3, "⅔" } };
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(parts); i++)
		if (fabs(v - parts[i].v) < 1e-9) {
			ord_buf_adds(b, parts[i].s);
			return;
		}
	ks_num(b, v);
}
