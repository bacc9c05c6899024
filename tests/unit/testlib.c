#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "testlib.h"

CU_pSuite gp_test_suite(const char *name)
{
	CU_pSuite s = CU_add_suite(name, NULL, NULL);

	if (!s) {
		fprintf(stderr, "cannot add suite %s: %s\n", name, CU_get_error_msg());
		exit(2);
	}
	return s;
}

void gp_test_add(CU_pSuite s, const char *name, void (*fn)(void))
{
	if (!CU_add_test(s, name, fn)) {
		fprintf(stderr, "cannot add test %s: %s\n", name, CU_get_error_msg());
		exit(2);
	}
}

const char *gp_test_path(const char *rel)
{
	static char buf[4096];
	const char *root = getenv("GP_SRCDIR");

	snprintf(buf, sizeof(buf), "%s/%s", root && *root ? root : ".", rel);
	return buf;
}

int gp_test_main(int argc, char **argv, void (*register_tests)(void))
{
	unsigned failures, tests_failed, asserts;

	(void)argc;
	(void)argv;
	if (CU_initialize_registry() != CUE_SUCCESS) {
		fprintf(stderr, "CUnit: %s\n", CU_get_error_msg());
		return 2;
	}
	register_tests();
	CU_basic_set_mode(getenv("GP_TEST_VERBOSE") ? CU_BRM_VERBOSE : CU_BRM_NORMAL);
	if (CU_basic_run_tests() != CUE_SUCCESS) {
		fprintf(stderr, "CUnit: %s\n", CU_get_error_msg());
		CU_cleanup_registry();
		return 2;
	}
	failures = CU_get_number_of_failures();
	tests_failed = CU_get_number_of_tests_failed();
	asserts = CU_get_number_of_asserts();
	CU_cleanup_registry();
	if (failures || tests_failed) {
		fprintf(stderr, "%s: %u assertion(s) failed in %u test(s)\n",
			argv[0], failures, tests_failed);
		return 1;
	}
	if (asserts == 0) {
		fprintf(stderr, "%s: no assertions ran\n", argv[0]);
		return 1;
	}
	return 0;
}
