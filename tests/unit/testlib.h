/* CUnit glue shared by every unit-test binary.  CUnit's run function
 * returns success even when assertions fail, so gp_test_main reads the
 * failure counts itself and turns them into the exit status. */
#ifndef GPUPLAN_TESTLIB_H
#define GPUPLAN_TESTLIB_H

#include <CUnit/CUnit.h>

/* Register suites and tests inside this callback; returns 0 on success. */
int gp_test_main(int argc, char **argv, void (*register_tests)(void));

/* Add a suite or abort the test program. */
CU_pSuite gp_test_suite(const char *name);
void gp_test_add(CU_pSuite s, const char *name, void (*fn)(void));

/* Path of a file in the source tree (tests run from the repository root). */
const char *gp_test_path(const char *rel);

#endif
