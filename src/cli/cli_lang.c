/* cli_lang.c - keep one language of ⟦da⟧...⟦en⟧...⟦⟧ texts (cli_lang.h). */
#include <string.h>

#include "cli/cli_lang.h"

static const char DA[] = "⟦da⟧", EN[] = "⟦en⟧", END[] = "⟦⟧";

int cli_lang_valid(const char *lang)
{
	return lang && (!strcmp(lang, "da") || !strcmp(lang, "en") || !strcmp(lang, "both"));
}

void cli_lang_select(struct ord_buf *b, const char *lang)
{
	struct ord_buf out = ORD_BUF_INIT;
	const char *p = b->buf, *da, *en, *end;
	int want_en = !strcmp(lang, "en");

	if (!strcmp(lang, "both") || !strstr(b->buf, DA))
		return;
	while ((da = strstr(p, DA)) != NULL) {
		en = strstr(da, EN);
		end = en ? strstr(en, END) : NULL;
		if (!en || !end)
			break; /* not a marked span: leave the rest as it is */
		ord_buf_add(&out, p, (size_t)(da - p));
		if (want_en)
			ord_buf_add(&out, en + strlen(EN), (size_t)(end - en - strlen(EN)));
		else
			ord_buf_add(&out, da + strlen(DA), (size_t)(en - da - strlen(DA)));
		p = end + strlen(END);
	}
	ord_buf_adds(&out, p);
	ord_buf_release(b);
	*b = out;
}
