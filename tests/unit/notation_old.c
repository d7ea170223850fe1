/*
 * notation_old.c - a notation module built against an interface version
 * older than ORD_NOTATION_VERSION_MIN, as the shared object
 * ord_notation_old.so, for check_notation_template.c to show that the core
 * refuses it (ORD_EVERSION) before it calls any slot.
 */
#include "notation.h"

static int old_parse(struct ord_sheet *out, const char *bytes, size_t len, struct ord_diag *diag)
{
	return ord_error_set(ORD_ERROR, "the refused module's parse was called");
}

static void old_format(const struct ord_order *o, struct ord_buf *out)
{
	ord_buf_adds(out, "the refused module's format was called");
}

static const struct ord_notation old_notation = {
	ORD_NOTATION_VERSION_MIN - 1, /* version: older than any core accepts */
	"old",                        /* name */
	old_parse,                    /* parse */
	old_format,                   /* format */
	NULL,                         /* word_key */
	NULL,                         /* word_value */
	NULL,                         /* word_forms */
};

const struct ord_notation *ord_notation_old_init(unsigned int host_version);
const struct ord_notation *ord_notation_old_init(unsigned int host_version)
{
	return &old_notation;
}
