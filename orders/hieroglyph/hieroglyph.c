/* placeholder: being written (replaced by the hieroglyph parser) */
#include "orders/notation.h"
static int parse(struct ord_sheet *out, const char *bytes, size_t len, struct ord_diag *diag)
{ (void)out; (void)bytes; (void)len; (void)diag; return ORD_ERROR; }
static void format(const struct ord_order *o, struct ord_buf *out) { (void)o; (void)out; }
const struct ord_notation ord_notation_hieroglyph = { ORD_NOTATION_VERSION, "hieroglyph", parse, format };
