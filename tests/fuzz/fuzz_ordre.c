/*
 * fuzz_ordre.c - the Danish order notation of the krigsspil ruleset
 * (orders/ordre).  The checks are fuzz_notation.h's: consistent errors
 * with real line numbers, and a canonical form that is a fixed point.
 */
#include "fuzz_notation.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_notation("ordre", data, size);
}
