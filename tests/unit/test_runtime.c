/* Run times the simulator takes from the performance model (runtime.c):
 * a PS-Worker job whose parameter server shares its node with workers is
 * timed on the nodes it spans, as `place` rates the placement.  Cluster:
 * tests/data/clusters/dgx1.yaml (the DGX-1 V100 snapshot of topologies/:
 * NV1 = 20 GB/s, NV2 = 40). */
#include <math.h>
#include <string.h>

#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/perf/perf.h"
#include "gpuplan/place/place.h"
#include "gpuplan/sim/sim.h"
#include "testlib.h"

#define P_BYTES 2e9 /* 1e9 parameters in mixed precision */

static void job_init(gp_job *j)
{
	gp_job_init(j);
	j->id = gp_xstrdup("ps");
	j->type = GP_JOB_PS_WORKER;
	j->gpus = 4;
	j->ps = 1;
	j->workers = 3;
	j->batch_size = 10;
	j->precision = GP_PREC_MIXED;
	j->optimizer = GP_OPT_ADAM;
	j->iterations = 100;
	gp_job_more_edit(j)->model.params = 1e9;
	gp_job_more_edit(j)->model.flops_per_sample = 1e12;
}

static gp_place_part *part_of(gp_placement *p, int node, int role, int a, int b)
{
	gp_place_part *q = gp_placement_add(p, node);
	int g;

	q->role = role;
	for (g = a; g <= b; g++)
		q->gpus[q->ngpus++] = g;
	return q;
}

/* Server GPU0 and workers GPU1-3 of dgx1-a: what bestfit's split of
 * {0,1,2,3} gives.  One node: the workers push to the server over the
 * node's ring of the four, 0-1, 0-2, 1-3 NV1 and 0-3, 1-2, 2-3 NV2: a
 * loop must take an NV1 pair at GPU0 (20), all NVLink, so up to each
 * GPU's links into the set (GPU0: 1 + 1 + 2 = 4 x 20 = 80; the others 4
 * or 5): 80 GB/s.  The perf model's parameter server on one node: each of
 * the 4 GPUs (counted as the model counts a set without roles) pushes P
 * and the one server takes 4 P, then the pull: 2 x (4 P / 80e9 + 3.4 us,
 * an NVLink step).  Taken as two nodes, as before, it went through the
 * NICs of a node of its own. */
static void test_ps_one_node(void)
{
	gp_cluster c;
	gp_job j;
	gp_placement p, one, view;
	gp_perf_iter it;
	gp_sim_runinfo ri;
	gp_sim_perf *perf;
	gp_error err = GP_ERROR_INIT;
	double comm;

	gp_cluster_init(&c);
	CU_ASSERT_FATAL(gp_cluster_load(gp_test_path("tests/data/clusters/dgx1.yaml"), &c, &err) == GP_OK);
	job_init(&j);
	/* compute and overlap of one V100, from the perf model */
	gp_placement_init(&one);
	part_of(&one, 0, 0, 0, 0);
	CU_ASSERT_FATAL(gp_perf_iteration(&c, &j, &one, &it, &err) == GP_OK);
	gp_placement_release(&one);
	gp_placement_init(&p);
	part_of(&p, 0, 0, 1, 3);
	part_of(&p, 0, 1, 0, 0);
	gp_placement_init(&view);
	CU_ASSERT_EQUAL(gp_place_perf_view(&p, &view), 1);
	CU_ASSERT_EQUAL_FATAL(view.nparts, 1);
	CU_ASSERT_EQUAL(view.parts[0].ngpus, 4);
	CU_ASSERT_EQUAL(view.parts[0].gpus[3], 0);
	perf = gp_sim_perf_new(&c);
	CU_ASSERT_EQUAL_FATAL(gp_sim_perf_duration(perf, &c, &j, &p, &ri), 0);
	comm = 2 * (4 * P_BYTES / 80e9 + GP_PERF_ALPHA_NVLINK_S);
	CU_ASSERT_DOUBLE_EQUAL(ri.iter_s, it.compute_s + gp_perf_exposed(it.compute_s, comm, it.overlap), 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(ri.duration, 100 * ri.iter_s, 1e-9);
	/* a server alone on its node stays a server part of its own */
	gp_placement_clear(&p);
	part_of(&p, 0, 0, 0, 2);
	part_of(&p, 1, 1, 0, 0);
	CU_ASSERT_EQUAL(gp_place_perf_view(&p, &view), 0);
	CU_ASSERT_EQUAL(view.nparts, 2);
	CU_ASSERT_EQUAL(view.parts[1].role, 1);
	CU_ASSERT_EQUAL(view.parts[1].node, 1);
	gp_sim_perf_free(perf);
	gp_placement_release(&view);
	gp_placement_release(&p);
	gp_job_release(&j);
	gp_cluster_release(&c);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("runtime");

	gp_test_add(s, "PS-Worker server sharing a node with workers", test_ps_one_node);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
