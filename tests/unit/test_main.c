/* test_main.c - the main() every Check suite shares: each suite file
 * defines `Suite *ord_test_suite(void)`.  It registers the built-in
 * modules first, as every front-end does. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "orderly.h"
#include "rulesets/builtin.h"

Suite *ord_test_suite(void);

int main(void)
{
	SRunner *sr;
	int failed;

	/* as every front-end does; forked tests inherit the registry */
	if (ord_builtin_register() != 0) {
		fprintf(stderr, "registering the built-in modules: %s\n", ord_error_last());
		return EXIT_FAILURE;
	}
	sr = srunner_create(ord_test_suite());

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
