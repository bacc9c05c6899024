/* Run times the simulator takes from the performance model (runtime.c),
 * and the model's PS-Worker push (iter.c, ps_rates): a parameter server
 * that shares its node with workers is timed on the nodes it spans, as
 * `place` rates the placement; servers never push; a worker pushes at its
 * own node's share; a server beside all its workers crosses no network.
 * Clusters: tests/data/clusters/dgx1.yaml (the DGX-1 V100 snapshot of
 * topologies/: NV1 = 20 GB/s, NV2 = 40; one HDR NIC, 200/8 x 0.94 = 23.5
 * GB/s, at PIX of GPUs 0-1, 2-3, 4-5, 6-7) and staged-ib.yaml (K80 boxes:
 * PCIe Gen3 12 GB/s, pairs without peer access staged through host
 * memory at 0.8 x 12 = 9.6; one NIC out of GPUDirect reach, 16 GB/s
 * through host memory). */
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
 * or 5): 80 GB/s.  The three workers push P each and the one server takes
 * 3 P (it pushes nothing), then the pull: 2 x (3 P / 80e9 + 3.4 us, an
 * NVLink step).  Counting the server's GPU among the pushing ranks gave
 * 4 P; taken as two nodes, it went through the NICs of a node of its own.
 * The same four GPUs given without roles (perf --on) have their first
 * GPU as the server: the same time. */
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
	CU_ASSERT_DOUBLE_EQUAL(it.comm_s, 0, 1e-15);
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
	comm = 2 * (3 * P_BYTES / 80e9 + GP_PERF_ALPHA_NVLINK_S);
	CU_ASSERT_DOUBLE_EQUAL(ri.iter_s, it.compute_s + gp_perf_exposed(it.compute_s, comm, it.overlap), 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(ri.duration, 100 * ri.iter_s, 1e-9);
	CU_ASSERT_EQUAL_FATAL(gp_perf_iteration(&c, &j, &p, &it, &err), GP_OK);
	CU_ASSERT_DOUBLE_EQUAL(it.comm_s, comm, 1e-12);
	CU_ASSERT_EQUAL(it.nodes, 1);
	CU_ASSERT_EQUAL(it.gpus, 4);
	/* without roles: GPU0, the first, is the server */
	gp_placement_clear(&one);
	part_of(&one, 0, 0, 0, 3);
	CU_ASSERT_EQUAL_FATAL(gp_perf_iteration(&c, &j, &one, &it, &err), GP_OK);
	CU_ASSERT_DOUBLE_EQUAL(it.comm_s, comm, 1e-12);
	gp_placement_release(&one);
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

/* A worker's share of the network is its own node's NICs over the workers
 * pushing through them, and the push lasts as long as the slowest worker.
 * 8 servers on dgx1-c (GPUs 0-7: four NICs, 94 GB/s), 4 workers on dgx1-a
 * (GPUs 0-3: the NICs at PIX of 0-1 and 2-3, 47 GB/s) and 1 on dgx1-b
 * (GPU0: one NIC, 23.5).  Every server is on another node than every
 * worker:
 *   worker on dgx1-a: P / (47 / 4 = 11.75 GB/s);
 *   worker on dgx1-b: P / 23.5;
 *   server: W P / S = 5/8 P in through 94 / 8 = 11.75 GB/s: 5/8 of a
 *     dgx1-a worker's time.
 * The dgx1-a workers bound it: 2 x (P / 11.75e9 + alpha), alpha the NET
 * step 14 us and one switch level above the leaves (dgx1-c hangs off
 * leaf1, the others off leaf0): 2 x 0.5 us.  The slowest node's NICs
 * (dgx1-b, 23.5) over the largest part's GPU count (8, the servers')
 * gave P / 2.9375. */
static void test_ps_worker_share(void)
{
	gp_cluster c;
	gp_job j;
	gp_placement p;
	gp_perf_iter it;
	gp_error err = GP_ERROR_INIT;

	gp_cluster_init(&c);
	CU_ASSERT_FATAL(gp_cluster_load(gp_test_path("tests/data/clusters/dgx1.yaml"), &c, &err) == GP_OK);
	job_init(&j);
	j.gpus = 13, j.ps = 8, j.workers = 5;
	gp_placement_init(&p);
	part_of(&p, 2, 1, 0, 7);
	part_of(&p, 0, 0, 0, 3);
	part_of(&p, 1, 0, 0, 0);
	CU_ASSERT_EQUAL_FATAL(gp_perf_iteration(&c, &j, &p, &it, &err), GP_OK);
	CU_ASSERT_EQUAL(it.nodes, 3);
	CU_ASSERT_DOUBLE_EQUAL(it.comm_s, 2 * (P_BYTES / 11.75e9 + 14e-6 + 2 * 0.5e-6), 1e-12);
	gp_placement_release(&p);
	gp_job_release(&j);
	gp_cluster_release(&c);
}

/* A server beside all its workers takes their gradients over the node's
 * own links, not its NICs.  staged-ib.yaml: server GPU0 and workers GPUs
 * 2, 3 of k80-a, a second server on k80-b GPU0.  k80-a's ring {0,2,3}:
 * 2-3 have peer access (12), 0-2 and 0-3 are SYS pairs staged through
 * host memory: 9.6 GB/s.  Each NIC side: one NIC, 16 GB/s.
 *   worker: half of P to k80-b through 16 / 2 workers = 8 GB/s: P / 16;
 *     half to GPU0 over the ring: P / 19.2;
 *   server on k80-a: both workers beside it, 2/2 P over the ring: P / 9.6;
 *   server on k80-b: 2/2 P in through its NIC, 16 GB/s: P / 16.
 * The k80-a server bounds it: 2 x (P / 9.6e9 + 14 us, the NET step on
 * one leaf).  Through its NICs the server would have taken P / 16; before
 * it was also counted among the pushing ranks. */
static void test_ps_server_beside_workers(void)
{
	gp_cluster c;
	gp_job j;
	gp_placement p;
	gp_perf_iter it;
	gp_error err = GP_ERROR_INIT;

	gp_cluster_init(&c);
	CU_ASSERT_FATAL(gp_cluster_load(gp_test_path("tests/data/clusters/staged-ib.yaml"), &c, &err) ==
			GP_OK);
	job_init(&j);
	j.ps = 2, j.workers = 2;
	gp_placement_init(&p);
	part_of(&p, 0, 1, 0, 0);
	part_of(&p, 0, 0, 2, 3);
	part_of(&p, 1, 1, 0, 0);
	CU_ASSERT_EQUAL_FATAL(gp_perf_iteration(&c, &j, &p, &it, &err), GP_OK);
	CU_ASSERT_EQUAL(it.nodes, 2);
	CU_ASSERT_DOUBLE_EQUAL(it.comm_s, 2 * (P_BYTES / 9.6e9 + 14e-6), 1e-12);
	gp_placement_release(&p);
	gp_job_release(&j);
	gp_cluster_release(&c);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("runtime");

	gp_test_add(s, "PS-Worker server sharing a node with workers", test_ps_one_node);
	gp_test_add(s, "PS-Worker worker's share of its own node", test_ps_worker_share);
	gp_test_add(s, "PS-Worker server beside all its workers", test_ps_server_beside_workers);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
