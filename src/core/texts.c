/*
 * texts.c - text in several languages in what a module writes for a
 * report (ruleset.h, ord_texts_add).  The encoding is the core's alone:
 * today the "⟦da⟧...⟦en⟧...⟦⟧" spans the front-ends pick one language of
 * (as ord_ctx_result_texts stores results); a module never writes it.
 */
#include "ruleset.h"

void ord_texts_add(struct ord_buf *out, const struct ord_kv *texts)
{
	size_t i;

	if (!texts->n)
		return;
	if (texts->n == 1) {
		ord_buf_adds(out, texts->items[0].value);
		return;
	}
	for (i = 0; i < texts->n; i++)
		ord_buf_addf(out, "⟦%s⟧%s", texts->items[i].key, texts->items[i].value);
	ord_buf_adds(out, "⟦⟧");
}
