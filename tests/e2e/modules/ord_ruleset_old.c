/*
 * ord_ruleset_old.c - an external ruleset module built against an
 * interface older than any this orderly accepts (version 0, below
 * ORD_RULESET_VERSION_MIN): tests/e2e/test_template.sh checks that orderly
 * refuses it with ORD_EVERSION rather than calling slots it may not have.
 */
#include "ruleset.h"

static const char *const phases[] = { "only", NULL };

static const struct ord_ruleset old_ruleset = {
	.version = 0, /* older than ORD_RULESET_VERSION_MIN */
	.name = "old",
	.notation = "hieroglyph",
	.phases = phases,
};

const struct ord_ruleset *ord_ruleset_old_init(unsigned int host_version);
const struct ord_ruleset *ord_ruleset_old_init(unsigned int host_version)
{
	(void)host_version;
	return &old_ruleset;
}
