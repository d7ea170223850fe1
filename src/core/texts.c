/*
 * texts.c - text in several languages (ruleset.h, orderly.h): a module
 * gives each of its texts as a list of language -> text, its own language
 * first; the game keeps the languages apart (a result's explanation and
 * its result_text rows, a bundle's <explanation lang="..">) and a report
 * is written in the one language its reader asked for.  No front-end cuts
 * a string to find a language.
 */
#include <string.h>

#include "core/ctx.h"
#include "ruleset.h"

static const char *const english_only[] = { "en", NULL };

static const char *const *languages(const struct ord_ruleset *rs)
{
	if (rs && ORD_RULESET_HAS(rs, 2) && rs->languages && rs->languages[0])
		return rs->languages;
	return english_only;
}

const char *ord_ruleset_language(const struct ord_ruleset *rs, const char *lang)
{
	const char *const *l = languages(rs);
	size_t i;

	if (!lang)
		return l[0];
	for (i = 0; l[i]; i++)
		if (!strcmp(l[i], lang))
			return l[i];
	return NULL;
}

void ord_ruleset_languages(const struct ord_ruleset *rs, struct ord_buf *out)
{
	const char *const *l = languages(rs);
	size_t i;

	for (i = 0; l[i]; i++)
		ord_buf_addf(out, "%s%s", i ? ", " : "", l[i]);
}

void ord_texts_render(const char *first, const struct ord_kv *texts, const char *lang,
		      struct ord_buf *out)
{
	const char *t;
	size_t i;

	if (!texts || texts->n < 2) {
		ord_buf_adds(out, texts && texts->n ? texts->items[0].value : first);
		return;
	}
	if (lang) {
		t = ord_kv_get(texts, lang);
		ord_buf_adds(out, t ? t : texts->items[0].value);
		return;
	}
	ord_buf_adds(out, texts->items[0].value);
	for (i = 1; i < texts->n; i++)
		ord_buf_addf(out, " [%s: %s]", texts->items[i].key, texts->items[i].value);
}

const char *ord_ctx_lang(struct ord_ctx *ctx)
{
	if (ctx->lang_all || ctx->fake)
		return NULL;
	return ctx->lang ? ctx->lang : ord_ruleset_language(ctx->rs, NULL);
}

void ord_texts_add(struct ord_ctx *ctx, struct ord_buf *out, const struct ord_kv *texts)
{
	ord_texts_render("", texts, ord_ctx_lang(ctx), out);
}
