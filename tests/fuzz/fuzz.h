/*
 * fuzz.h - what every fuzz target in tests/fuzz/ shares.
 *
 * A target is one file fuzz_<name>.c defining LLVMFuzzerTestOneInput (and,
 * if it needs set-up, LLVMFuzzerInitialize).  It is linked two ways:
 *   - with libFuzzer (clang, -fsanitize=fuzzer): tests/fuzz/CMakeLists.txt,
 *     run by scripts/fuzz TARGET SECONDS for a real campaign;
 *   - with replay.c (any compiler): tests/CMakeLists.txt, so that CTest
 *     runs every input of tests/fuzz/corpora/<name>/ on every build.
 * A target checks properties, not just "no crash": when one fails it calls
 * fuzz_fail(), which prints what broke and aborts, so that libFuzzer saves
 * the input and the replay fails.
 */
#ifndef ORD_FUZZ_H
#define ORD_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/scenario.h"
#include "rulesets/builtin.h"
#include "ruleset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define fuzz_fail(...)                                                           \
	do {                                                                     \
		fprintf(stderr, "%s:%d: property broken: ", __FILE__, __LINE__); \
		fprintf(stderr, __VA_ARGS__);                                    \
		fputc('\n', stderr);                                             \
		abort();                                                         \
	} while (0)

#define fuzz_assert(cond, ...)                  \
	do {                                    \
		if (!(cond))                    \
			fuzz_fail(__VA_ARGS__); \
	} while (0)

/* Register the built-in modules once (every front-end does; so does a target). */
static inline void fuzz_modules(void)
{
	static int done;

	if (!done++ && ord_builtin_register() != 0)
		abort();
}

/* A unit of a scenario as `orderly new` hands it to the ruleset's
 * init_unit: its attributes borrowed, its state empty (the caller's to
 * release). */
static inline void fuzz_unit_of(struct ord_unit *u, const struct ord_scenario_unit *su)
{
	u->id = su->id;
	u->name = su->name;
	u->side = su->side;
	u->attrs = su->attrs;
	ord_kv_init(&u->state);
}

#endif
