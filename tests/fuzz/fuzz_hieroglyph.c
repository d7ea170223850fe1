/*
 * fuzz_hieroglyph.c - the battalion order notation (orders/hieroglyph):
 * arrows, fractions, FLn FCol FSk FSq C Fb Fs Fg UL L, targets, comments,
 * any bytes.  The checks are fuzz_notation.h's: consistent errors with
 * real line numbers, and a canonical form that is a fixed point.
 */
#include "fuzz_notation.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_notation("hieroglyph", data, size);
}
