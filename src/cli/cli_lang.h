/*
 * cli_lang.h - picking one language out of a bilingual report.
 *
 * A ruleset may write a text in two languages as
 *     ⟦da⟧Danish text⟦en⟧English text⟦⟧
 * (the krigsspil module does: rulesets/krigsspil/README.md "Languages"),
 * because a game stores its results once, when a phase is resolved, and a
 * report may be asked for in either language later.  The report and
 * resolve commands keep the part in the language asked for; text without
 * the marks is left as it is.
 */
#ifndef ORD_CLI_LANG_H
#define ORD_CLI_LANG_H

#include "orderly.h"

/* Is lang one the marks know ("da", "en") or "both" (keep the marks)? */
int cli_lang_valid(const char *lang);
/* Replace every marked span of b by its part in lang ("both": unchanged). */
void cli_lang_select(struct ord_buf *b, const char *lang);

#endif
