/* test_main.c - the main() every Check suite shares: each suite file
 * defines `Suite *ord_test_suite(void)`. */
#include <check.h>
#include <stdlib.h>

Suite *ord_test_suite(void);

int main(void)
{
	SRunner *sr = srunner_create(ord_test_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
