/*
 * builtin.c - the one table of the modules compiled into orderly (builtin.h).
 * A new built-in ruleset or notation is added here and nowhere else.
 */
#include "rulesets/builtin.h"

#include "notation.h"
#include "ruleset.h"

extern const struct ord_notation ord_notation_hieroglyph;
extern const struct ord_notation ord_notation_ordre;
extern const struct ord_ruleset ord_ruleset_battalion;
extern const struct ord_ruleset ord_ruleset_krigsspil;

static const struct ord_notation *const notations[] = {
	&ord_notation_hieroglyph,
	&ord_notation_ordre,
};

static const struct ord_ruleset *const rulesets[] = {
	&ord_ruleset_battalion,
	&ord_ruleset_krigsspil,
};

int ord_builtin_register(void)
{
	size_t i;
	int err;

	for (i = 0; i < ORD_ARRAY_SIZE(notations); i++)
		if ((err = ord_notation_register(notations[i])) != 0)
			return err;
	for (i = 0; i < ORD_ARRAY_SIZE(rulesets); i++)
		if ((err = ord_ruleset_register(rulesets[i])) != 0)
			return err;
	return 0;
}
