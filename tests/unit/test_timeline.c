/* The automatic tick's timeline coarsening (sim/timeline.c), white-box. */
#include <stdlib.h>
#include <string.h>

#include "testlib.h"
#include "../../src/sim/sim_int.h" /* white-box: gp_sim_timeline_coarsen */

static void fill(gp_sim_result *r, size_t n, double tick)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	r->samples = calloc(n + 1, sizeof(*r->samples));
	for (i = 0; i < n; i++) {
		r->samples[i].t = tick * (double)(i + 1);
		r->samples[i].utilization = (double)(i + 1) / (double)n;
		r->samples[i].running = (int32_t)(i + 1);
	}
	r->nsamples = n;
}

static void test_coarsen(void)
{
	gp_sim_result r;

	/* Rows at 1..10 s (tick 1, utilization i/10, i running) and a last
	 * one at 10.5 s: 3 rows at most over 10.5 s want a step of 3.5 s, the
	 * next 1-2-5 step is 5 s.  Groups (0,5], (5,10], (10,15]:
	 * utilization (0.1 + ... + 0.5) / 5 = 0.3, (0.6 + ... + 1) / 5 = 0.8,
	 * then the last row alone; counts are those of each group's last row. */
	fill(&r, 11, 1);
	r.samples[10].t = 10.5;
	r.samples[10].running = 0;
	r.samples[10].utilization = 1;
	for (int i = 0; i < 10; i++)
		r.samples[i].utilization = (double)(i + 1) / 10;
	CU_ASSERT_DOUBLE_EQUAL(gp_sim_timeline_coarsen(&r, 1, 3), 5, 1e-12);
	CU_ASSERT_EQUAL(r.nsamples, 3);
	CU_ASSERT_DOUBLE_EQUAL(r.samples[0].t, 5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(r.samples[0].utilization, 0.3, 1e-12);
	CU_ASSERT_EQUAL(r.samples[0].running, 5);
	CU_ASSERT_DOUBLE_EQUAL(r.samples[1].t, 10, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(r.samples[1].utilization, 0.8, 1e-12);
	CU_ASSERT_EQUAL(r.samples[1].running, 10);
	CU_ASSERT_DOUBLE_EQUAL(r.samples[2].t, 10.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(r.samples[2].utilization, 1, 1e-12);
	CU_ASSERT_EQUAL(r.samples[2].running, 0);
	free(r.samples);

	/* Tick 2 s, rows at 2..20 s, at most 4 rows: 20 / 4 = 5 s is no
	 * multiple of 2 s, so 10 s; two rows, utilization 0.3 and 0.8 again. */
	fill(&r, 10, 2);
	CU_ASSERT_DOUBLE_EQUAL(gp_sim_timeline_coarsen(&r, 2, 4), 10, 1e-12);
	CU_ASSERT_EQUAL(r.nsamples, 2);
	CU_ASSERT_DOUBLE_EQUAL(r.samples[0].utilization, 0.3, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(r.samples[1].t, 20, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(r.samples[1].utilization, 0.8, 1e-12);
	/* Few enough rows: nothing changes. */
	CU_ASSERT_DOUBLE_EQUAL(gp_sim_timeline_coarsen(&r, 10, 4), 10, 1e-12);
	CU_ASSERT_EQUAL(r.nsamples, 2);
	free(r.samples);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("timeline");

	gp_test_add(s, "coarsen", test_coarsen);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
