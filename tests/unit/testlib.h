/* CUnit glue shared by every unit-test binary.  CUnit's run function
 * returns success even when assertions fail, so gp_test_main reads the
 * failure counts itself and turns them into the exit status. */
#ifndef GPUPLAN_TESTLIB_H
#define GPUPLAN_TESTLIB_H

#include <CUnit/CUnit.h>

#include "gpuplan/model/cluster.h"
#include "gpuplan/model/job.h"

/* Register suites and tests inside this callback; returns 0 on success. */
int gp_test_main(int argc, char **argv, void (*register_tests)(void));

/* Add a suite or abort the test program. */
CU_pSuite gp_test_suite(const char *name);
void gp_test_add(CU_pSuite s, const char *name, void (*fn)(void));

/* Path of a file in the source tree (tests run from the repository root). */
const char *gp_test_path(const char *rel);

/* A hand-built cluster: nnodes (1..4) nodes n0..n3 of per (1..8) GPUs of
 * one type "box" (16 CPUs, 64 GiB, no named GPU model), every GPU pair
 * behind one PCIe switch (PIX).  Static storage: one cluster at a time. */
const gp_cluster *gp_test_pix_cluster(int nnodes, int per);
/* A single-node job appended to l. */
gp_job *gp_test_add_job(gp_joblist *l, const char *id, double submit, int gpus, double dur,
			int klass);

#endif
