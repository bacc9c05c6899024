/* Worker replacement decisions, hand-solved on a mixed-GPU cluster
 * (tests/data/replace/mixed-cluster.yaml): one-GPU nodes of made-up
 * models G10/G20/G40/G80 (peak 10/20/40/80 TFLOPS, efficiency 0.5), IB HDR
 * NICs (200/8 x 0.94 = 23.5 GB/s) on leaf `ib`, 25 GbE (2.9375 GB/s) on
 * leaf `eth`.
 *
 * The job: 1e9 parameters in mixed precision (P = 2e9 gradient bytes),
 * 1e12 FLOPs per sample, batch 10 per GPU, so compute per iteration is
 * 1e13 / (peak x 1e12 x 0.5): G10 2 s, G20 1 s, G40 0.5 s, G80 0.25 s.
 * Communication of a member: max(P/up, P/down) with up/down the slower
 * NIC of the two ends: P / 23.5e9 = 0.0851 s between IB nodes,
 * P / 2.9375e9 = 0.6809 s when an end is on Ethernet.  Model state for
 * the copy: 1e9 x (2 + 12) bytes (mixed-precision Adam: weights +
 * fp32 master and moments) = 1.4e10 bytes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/perf/perf.h"
#include "gpuplan/place/replace.h"
#include "gpuplan/util/util.h"
#include "testlib.h"

enum { A1, A2, A3, D1, E1, F1, G1, X1, P1 };

#define P_BYTES 2e9
#define C_IB (P_BYTES / 23.5e9)
#define C_ETH (P_BYTES / 2.9375e9)
#define STATE_BYTES 1.4e10

static gp_cluster cl;
static gp_alloc al;
static gp_rng rng;

static void setup(void)
{
	gp_error err = GP_ERROR_INIT;

	gp_cluster_init(&cl);
	CU_ASSERT_FATAL(gp_cluster_load(gp_test_path("tests/data/replace/mixed-cluster.yaml"), &cl,
					&err) == GP_OK);
	CU_ASSERT_FATAL(cl.nnodes == 9);
	CU_ASSERT_FATAL(gp_cluster_find_node(&cl, "p1") == P1);
	gp_alloc_init(&al, &cl);
	gp_rng_seed(&rng, 1);
}

static void teardown(void)
{
	gp_alloc_release(&al);
	gp_cluster_release(&cl);
}

static void job_init(gp_job *j, int type, int gpus, int with_model)
{
	gp_job_init(j);
	j->id = gp_xstrdup("j");
	j->type = type;
	j->gpus = gpus;
	j->gpu_milli = 1000;
	j->gpu_mem_mib = 1024;
	j->batch_size = 10;
	j->precision = GP_PREC_MIXED;
	j->optimizer = GP_OPT_ADAM;
	j->duration = 3600;
	if (with_model) {
		gp_job_more_edit(j)->model.params = 1e9;
		gp_job_more_edit(j)->model.flops_per_sample = 1e12;
	}
}

/* A placement of one GPU per listed node (role 1 for the last `ps`). */
static void place(gp_placement *p, const int *nodes, int n, int ps)
{
	int i;

	gp_placement_clear(p);
	for (i = 0; i < n; i++) {
		gp_place_part *part = gp_placement_add(p, nodes[i]);

		part->ngpus = 1;
		part->gpus[0] = 0;
		part->mem_mib = 1024;
		part->role = i >= n - ps;
	}
	CU_ASSERT_FATAL(gp_placement_apply(&al, p) == 0);
}

static void busy(int node)
{
	CU_ASSERT_FATAL(gp_alloc_take_gpu(&al, cl.nodes[node].first_gpu, 1000, 0) == 0);
}

static int decide(const gp_job *j, const gp_placement *p, int node, gp_replace_result *r)
{
	gp_policy_ctx ctx = { &cl, &al, &rng, NULL, NULL };
	gp_replace_opts o = { 0, 1 };
	gp_error err = GP_ERROR_INIT;

	gp_alloc_set_state(&al, node, GP_NODE_DOWN);
	return gp_replace_decide(&ctx, j, p, node, 0, &o, r, &err);
}

static const gp_replace_cand *cand(const gp_replace_result *r, int node)
{
	size_t i;

	for (i = 0; i < r->ncands; i++)
		if (r->cands[i].node == node)
			return &r->cands[i];
	return NULL;
}

/* Ring a1-a2-a3 (G20); a2 fails.  Before: 1 + C_IB.  Candidates: d1 (G10)
 * 2 + C_IB, not eligible; e1 (G20) 1 + C_IB; f1 (G40) and g1 (G80) leave
 * the survivors slowest, 1 + C_IB; x1 and p1 on Ethernet slow their ring
 * neighbours a1 and a3 to 1 + C_ETH.  Eligible: e1, f1, g1; the least
 * peak FLOPS is e1's 20. */
static void test_weakest_qualifying(void)
{
	static const int ring[] = { A1, A2, A3 };
	gp_job j;
	gp_placement p;
	gp_replace_result r;

	setup();
	job_init(&j, GP_JOB_RING_ALLREDUCE, 3, 1);
	gp_placement_init(&p);
	gp_replace_result_init(&r);
	place(&p, ring, 3, 0);
	CU_ASSERT_EQUAL_FATAL(decide(&j, &p, A2, &r), GP_OK);
	CU_ASSERT_EQUAL(r.modelled, 1);
	CU_ASSERT_DOUBLE_EQUAL(r.iteration_s_before, 1 + C_IB, 1e-9);
	CU_ASSERT_EQUAL(r.ncands, 6);
	CU_ASSERT_DOUBLE_EQUAL(cand(&r, D1)->iteration_s, 2 + C_IB, 1e-9);
	CU_ASSERT_FALSE(cand(&r, D1)->eligible);
	CU_ASSERT_DOUBLE_EQUAL(cand(&r, E1)->iteration_s, 1 + C_IB, 1e-9);
	CU_ASSERT_TRUE(cand(&r, E1)->eligible);
	CU_ASSERT_DOUBLE_EQUAL(cand(&r, F1)->iteration_s, 1 + C_IB, 1e-9);
	CU_ASSERT_TRUE(cand(&r, G1)->eligible);
	CU_ASSERT_DOUBLE_EQUAL(cand(&r, X1)->iteration_s, 1 + C_ETH, 1e-9);
	CU_ASSERT_FALSE(cand(&r, X1)->eligible);
	CU_ASSERT_DOUBLE_EQUAL(cand(&r, P1)->iteration_s, 1 + C_ETH, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(cand(&r, G1)->peak_tflops, 80, 1e-9);
	CU_ASSERT_EQUAL(r.status, GP_REPLACE_REPLACED);
	CU_ASSERT_EQUAL(r.chosen.node, E1);
	CU_ASSERT_DOUBLE_EQUAL(r.iteration_s_after, 1 + C_IB, 1e-9);
	/* State from a1 (first of the equally fast survivors) over IB. */
	CU_ASSERT_DOUBLE_EQUAL(r.state_bytes, STATE_BYTES, 1);
	CU_ASSERT_EQUAL(r.copy_from, A1);
	CU_ASSERT_DOUBLE_EQUAL(r.copy_s, STATE_BYTES / 23.5e9, 1e-9);
	CU_ASSERT_EQUAL(r.removed.nparts, 1);
	CU_ASSERT_EQUAL(r.removed.parts[0].node, A2);
	CU_ASSERT_EQUAL(r.added.nparts, 1);
	CU_ASSERT_EQUAL(r.added.parts[0].node, E1);
	gp_replace_result_release(&r);
	gp_placement_release(&p);
	gp_job_release(&j);
	teardown();
}

/* Ring f1 (G40) - g1 (G80); g1 fails; a1-a3 busy.  Before: 0.5 + C_IB.
 * Nobody keeps that: e1 (G20) 1 + C_IB; x1 (G40, faster GPU) on Ethernet
 * makes both ends 0.5 + C_ETH = 1.18 s; p1 1 + C_ETH; d1 2 + C_IB.  The
 * fastest is e1. */
static void test_fallback_fastest(void)
{
	static const int ring[] = { F1, G1 };
	gp_job j;
	gp_placement p;
	gp_replace_result r;

	setup();
	job_init(&j, GP_JOB_RING_ALLREDUCE, 2, 1);
	gp_placement_init(&p);
	gp_replace_result_init(&r);
	place(&p, ring, 2, 0);
	busy(A1);
	busy(A2);
	busy(A3);
	CU_ASSERT_EQUAL_FATAL(decide(&j, &p, G1, &r), GP_OK);
	CU_ASSERT_DOUBLE_EQUAL(r.iteration_s_before, 0.5 + C_IB, 1e-9);
	CU_ASSERT_EQUAL(r.ncands, 4);
	CU_ASSERT_DOUBLE_EQUAL(cand(&r, X1)->iteration_s, 0.5 + C_ETH, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(cand(&r, E1)->iteration_s, 1 + C_IB, 1e-9);
	CU_ASSERT_FALSE(cand(&r, E1)->eligible);
	CU_ASSERT_EQUAL(r.status, GP_REPLACE_REPLACED);
	CU_ASSERT_EQUAL(r.chosen.node, E1);
	CU_ASSERT_FALSE(r.chosen.eligible);
	gp_replace_result_release(&r);
	gp_placement_release(&p);
	gp_job_release(&j);
	teardown();
}

/* Ring a1 - a3 - x1 (x1 on Ethernet); x1 fails; every other node busy:
 * no candidate, the ring is rebuilt with a1 and a3.  Before: the
 * Ethernet hop, 1 + C_ETH; after: 1 + C_IB. */
static void test_ring_rebuild(void)
{
	static const int ring[] = { A1, A3, X1 };
	gp_job j;
	gp_placement p, q;
	gp_replace_result r;

	setup();
	job_init(&j, GP_JOB_RING_ALLREDUCE, 3, 1);
	gp_placement_init(&p);
	gp_placement_init(&q);
	gp_replace_result_init(&r);
	place(&p, ring, 3, 0);
	busy(A2);
	busy(D1);
	busy(E1);
	busy(F1);
	busy(G1);
	busy(P1);
	CU_ASSERT_EQUAL_FATAL(decide(&j, &p, X1, &r), GP_OK);
	CU_ASSERT_EQUAL(r.ncands, 0);
	CU_ASSERT_EQUAL(r.status, GP_REPLACE_SHRUNK);
	CU_ASSERT_DOUBLE_EQUAL(r.iteration_s_before, 1 + C_ETH, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.iteration_s_after, 1 + C_IB, 1e-9);
	CU_ASSERT_EQUAL(r.copy_s, 0);
	gp_replace_rebuild(&p, &r, &q);
	CU_ASSERT_EQUAL(q.nparts, 2);
	CU_ASSERT_EQUAL(q.parts[0].node, A1);
	CU_ASSERT_EQUAL(q.parts[1].node, A3);
	gp_replace_result_release(&r);
	gp_placement_release(&q);
	gp_placement_release(&p);
	gp_job_release(&j);
	teardown();
}

/* Ring a1 - a2 - a3; only e1 (G20) and f1 (G40) idle.  a2 fails: e1 takes
 * its place (weakest qualifying).  Then a3 fails: f1 is the only
 * candidate and qualifies (the G20 members stay slowest): ring a1 - e1 -
 * f1. */
static void test_two_failures(void)
{
	static const int ring[] = { A1, A2, A3 };
	gp_job j;
	gp_placement p, q;
	gp_replace_result r;

	setup();
	job_init(&j, GP_JOB_RING_ALLREDUCE, 3, 1);
	gp_placement_init(&p);
	gp_placement_init(&q);
	gp_replace_result_init(&r);
	place(&p, ring, 3, 0);
	busy(D1);
	busy(G1);
	busy(X1);
	busy(P1);
	CU_ASSERT_EQUAL_FATAL(decide(&j, &p, A2, &r), GP_OK);
	CU_ASSERT_EQUAL(r.ncands, 2);
	CU_ASSERT_EQUAL(r.chosen.node, E1);
	gp_placement_undo(&al, &r.removed);
	CU_ASSERT_FATAL(gp_placement_apply(&al, &r.added) == 0);
	gp_replace_rebuild(&p, &r, &q);
	CU_ASSERT_EQUAL_FATAL(q.nparts, 3);
	CU_ASSERT_EQUAL(q.parts[0].node, A1);
	CU_ASSERT_EQUAL(q.parts[1].node, E1);
	CU_ASSERT_EQUAL(q.parts[2].node, A3);
	CU_ASSERT_EQUAL_FATAL(decide(&j, &q, A3, &r), GP_OK);
	CU_ASSERT_EQUAL(r.ncands, 1);
	CU_ASSERT_EQUAL(r.status, GP_REPLACE_REPLACED);
	CU_ASSERT_EQUAL(r.chosen.node, F1);
	CU_ASSERT_TRUE(r.chosen.eligible);
	CU_ASSERT_DOUBLE_EQUAL(r.iteration_s_after, 1 + C_IB, 1e-9);
	gp_placement_undo(&al, &r.removed);
	CU_ASSERT_FATAL(gp_placement_apply(&al, &r.added) == 0);
	gp_replace_rebuild(&q, &r, &p);
	CU_ASSERT_EQUAL_FATAL(p.nparts, 3);
	CU_ASSERT_EQUAL(p.parts[0].node, A1);
	CU_ASSERT_EQUAL(p.parts[1].node, E1);
	CU_ASSERT_EQUAL(p.parts[2].node, F1);
	/* Nothing idle is left. */
	CU_ASSERT_EQUAL(al.node_free_whole[E1], 0);
	CU_ASSERT_EQUAL(al.node_free_whole[F1], 0);
	gp_replace_result_release(&r);
	gp_placement_release(&q);
	gp_placement_release(&p);
	gp_job_release(&j);
	teardown();
}

/* PS-Worker: workers a1, a2, parameter server p1 (Ethernet).  A worker's
 * link to the server is the 25 GbE: 1 + C_ETH; the server moves 2 x P
 * over it: 2 x C_ETH = 1.36 s.  Before: 1 + C_ETH.
 * (a) a2 fails: a3 (G20, first in node order) keeps 1 + C_ETH and is the
 *     weakest eligible; d1 (G10) is not (2 + C_ETH).
 * (b) p1 fails: a server on IB brings the workers to 1 + C_IB and itself
 *     to 2 x C_IB; every IB node qualifies and x1 too (1 + C_ETH); the
 *     server computes nothing, so the weakest GPU, d1 (G10), wins. */
static void test_ps_worker(void)
{
	static const int nodes[] = { A1, A2, P1 };
	gp_job j;
	gp_placement p;
	gp_replace_result r;

	setup();
	job_init(&j, GP_JOB_PS_WORKER, 3, 1);
	j.ps = 1;
	j.workers = 2;
	gp_placement_init(&p);
	gp_replace_result_init(&r);
	place(&p, nodes, 3, 1);
	CU_ASSERT_EQUAL_FATAL(decide(&j, &p, A2, &r), GP_OK);
	CU_ASSERT_DOUBLE_EQUAL(r.iteration_s_before, 1 + C_ETH, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(cand(&r, D1)->iteration_s, 2 + C_ETH, 1e-9);
	CU_ASSERT_FALSE(cand(&r, D1)->eligible);
	CU_ASSERT_DOUBLE_EQUAL(cand(&r, F1)->iteration_s, 1 + C_ETH, 1e-9);
	CU_ASSERT_EQUAL(r.chosen.node, A3);
	CU_ASSERT_EQUAL(r.added.parts[0].role, 0);
	teardown();

	setup();
	place(&p, nodes, 3, 1);
	CU_ASSERT_EQUAL_FATAL(decide(&j, &p, P1, &r), GP_OK);
	CU_ASSERT_DOUBLE_EQUAL(r.iteration_s_before, 1 + C_ETH, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(cand(&r, D1)->iteration_s, 1 + C_IB, 1e-9);
	CU_ASSERT_TRUE(cand(&r, D1)->eligible);
	CU_ASSERT_DOUBLE_EQUAL(cand(&r, X1)->iteration_s, 1 + C_ETH, 1e-9);
	CU_ASSERT_TRUE(cand(&r, X1)->eligible);
	CU_ASSERT_EQUAL(r.status, GP_REPLACE_REPLACED);
	CU_ASSERT_EQUAL(r.chosen.node, D1);
	CU_ASSERT_EQUAL(r.added.parts[0].role, 1);
	CU_ASSERT_DOUBLE_EQUAL(r.iteration_s_after, 1 + C_IB, 1e-9);
	CU_ASSERT_EQUAL(r.copy_from, A1);
	CU_ASSERT_DOUBLE_EQUAL(r.copy_s, STATE_BYTES / 23.5e9, 1e-9);
	gp_replace_result_release(&r);
	gp_placement_release(&p);
	gp_job_release(&j);
	teardown();
}

/* A job without a model size: compute 1 s on the failed GPU's model
 * (G20), scaled by 1 / peak, no communication.  Ring a1-a2-a3, a2 fails:
 * G20, G40, G80 candidates keep 1 s, the weakest is e1. */
static void test_relative_without_model(void)
{
	static const int ring[] = { A1, A2, A3 };
	gp_job j;
	gp_placement p;
	gp_replace_result r;

	setup();
	job_init(&j, GP_JOB_RING_ALLREDUCE, 3, 0);
	gp_placement_init(&p);
	gp_replace_result_init(&r);
	place(&p, ring, 3, 0);
	CU_ASSERT_EQUAL_FATAL(decide(&j, &p, A2, &r), GP_OK);
	CU_ASSERT_EQUAL(r.modelled, 0);
	CU_ASSERT_DOUBLE_EQUAL(r.iteration_s_before, 1, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(cand(&r, D1)->iteration_s, 2, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(cand(&r, X1)->iteration_s, 1, 1e-12);
	CU_ASSERT_EQUAL(r.chosen.node, E1);
	CU_ASSERT_EQUAL(r.copy_s, 0);
	gp_replace_result_release(&r);
	gp_placement_release(&p);
	gp_job_release(&j);
	teardown();
}

/* A single-card job has no survivor to copy from: none.  A job that does
 * not use the failed node is an input error. */
static void test_none_and_errors(void)
{
	static const int one[] = { A1 };
	gp_job j;
	gp_placement p;
	gp_replace_result r;
	gp_policy_ctx ctx;
	gp_error err = GP_ERROR_INIT;

	setup();
	job_init(&j, GP_JOB_SINGLE_CARD, 1, 1);
	gp_placement_init(&p);
	gp_replace_result_init(&r);
	place(&p, one, 1, 0);
	CU_ASSERT_EQUAL_FATAL(decide(&j, &p, A1, &r), GP_OK);
	CU_ASSERT_EQUAL(r.status, GP_REPLACE_NONE);
	CU_ASSERT_EQUAL(r.ncands, 0);
	ctx = (gp_policy_ctx){ &cl, &al, &rng, NULL, NULL };
	CU_ASSERT_EQUAL(gp_replace_decide(&ctx, &j, &p, E1, 0, NULL, &r, &err), GP_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "uses no failed GPU"));
	gp_replace_result_release(&r);
	gp_placement_release(&p);
	gp_job_release(&j);
	teardown();
}

/* A partly failed node keeps GPUs that answer, but its copy of the model
 * is not trusted.  Two 3-GPU nodes m and n of G20 (GPUs at PIX, PCIe Gen4:
 * 24 GB/s; one HDR NIC each, 23.5 GB/s); the ring holds m:0, m:1 and n:0;
 * m:0 fails.  Candidates m:2 and n:1 keep the iteration time and have the
 * same peak: the first in node order, m:2.  Its fastest survivor is m:1
 * (24 GB/s over PCIe against n:0's 23.5 over the NIC), but m is the node
 * reported failed: the state comes from n:0, 1.4e10 / 23.5e9 s. */
static void test_copy_not_from_failed_node(void)
{
	static const char yaml[] =
		"name: copy-source\n"
		"gpu_models:\n"
		"  G20: {mem_gib: 32, mem_bw_gbs: 900, fp16_tflops: 20, fp32_tflops: 20, pcie_gen: 4, "
		"efficiency: 0.5}\n"
		"node_types:\n"
		"  tri:\n"
		"    gpu_model: G20\n"
		"    cpus: 8\n"
		"    memory_gib: 64\n"
		"    gpus:\n"
		"      - {id: GPU0, cpus: 0-7, numa: 0}\n"
		"      - {id: GPU1, cpus: 0-7, numa: 0}\n"
		"      - {id: GPU2, cpus: 0-7, numa: 0}\n"
		"    nics:\n"
		"      - {id: NIC0, device: mlx5_0}\n"
		"    devices: [GPU0, GPU1, GPU2, NIC0]\n"
		"    links:\n"
		"      - [X, PIX, PIX, PIX]\n"
		"      - [PIX, X, PIX, PIX]\n"
		"      - [PIX, PIX, X, PIX]\n"
		"      - [PIX, PIX, PIX, X]\n"
		"fabric:\n"
		"  - {name: ib, tech: ib-hdr}\n"
		"nodes:\n"
		"  - {name: m, type: tri, switch: ib}\n"
		"  - {name: n, type: tri, switch: ib}\n";
	char path[] = "/tmp/gpuplan-replace-XXXXXX";
	int fd = mkstemp(path);
	gp_cluster c;
	gp_alloc a;
	gp_job j;
	gp_placement p;
	gp_place_part *part;
	gp_replace_result r;
	gp_replace_opts o = { 0, 0 };
	gp_error err = GP_ERROR_INIT;
	gp_policy_ctx ctx;

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(write(fd, yaml, sizeof(yaml) - 1) == (ssize_t)(sizeof(yaml) - 1));
	close(fd);
	gp_cluster_init(&c);
	CU_ASSERT_FATAL(gp_cluster_load(path, &c, &err) == GP_OK);
	unlink(path);
	gp_alloc_init(&a, &c);
	gp_rng_seed(&rng, 1);
	job_init(&j, GP_JOB_RING_ALLREDUCE, 3, 1);
	gp_placement_init(&p);
	part = gp_placement_add(&p, 0);
	part->ngpus = 2, part->gpus[0] = 0, part->gpus[1] = 1, part->mem_mib = 1024;
	part = gp_placement_add(&p, 1);
	part->ngpus = 1, part->gpus[0] = 0, part->mem_mib = 1024;
	CU_ASSERT_FATAL(gp_placement_apply(&a, &p) == 0);
	gp_replace_result_init(&r);
	ctx = (gp_policy_ctx){ &c, &a, &rng, NULL, NULL };
	CU_ASSERT_EQUAL_FATAL(gp_replace_decide(&ctx, &j, &p, 0, 0x1u, &o, &r, &err), GP_OK);
	CU_ASSERT_EQUAL(r.status, GP_REPLACE_REPLACED);
	CU_ASSERT_EQUAL(r.chosen.node, 0);
	CU_ASSERT_EQUAL(r.copy_from, 1);
	CU_ASSERT_DOUBLE_EQUAL(r.copy_s, STATE_BYTES / 23.5e9, 1e-9);
	gp_replace_result_release(&r);
	gp_placement_release(&p);
	gp_job_release(&j);
	gp_alloc_release(&a);
	gp_cluster_release(&c);
}

/* The replacement's GPUs are those whose ring the perf model rates
 * fastest, as bw-max ranks GPU sets (staged-ib.yaml): K80 boxes, PCIe
 * Gen3 x16 = 12 GB/s, boards {0,1} and {2,3} behind PCIe switches, peer
 * access only between GPU2 and GPU3.  Rings: {2,3} 12 GB/s (peer access
 * over the switch); {0,1} 6 (staged through host memory, 0.8 x 12 = 9.6
 * a hop, both hops through board 0's uplink: 12 / 2); across the boards
 * 9.6 (staged, one flow each way through each uplink).  The HDR NIC
 * (23.5 GB/s) is faster than every ring, so a member's own ring bounds
 * its up and down links: its communication is P / ring.  The job's
 * compute is the same K80 on every member and cancels out. */
static void staged_open(gp_cluster *c, gp_alloc *a)
{
	gp_error err = GP_ERROR_INIT;

	gp_cluster_init(c);
	CU_ASSERT_FATAL(gp_cluster_load(gp_test_path("tests/data/clusters/staged-ib.yaml"), c,
					&err) == GP_OK);
	CU_ASSERT_FATAL(c->nnodes == 3);
	gp_alloc_init(a, c);
	gp_rng_seed(&rng, 1);
}

/* A 4-GPU ring over k80-a {2,3} and k80-b {2,3}; k80-a's {0,1} busy;
 * k80-b fails.  Before: compute + P / 12.  k80-c is the only candidate:
 * by link level alone {0,1} and {2,3} tie (PIX) and the lower mask {0,1}
 * was taken, compute + P / 6, slower than before; the perf model's ring
 * takes {2,3}: compute + P / 12, eligible. */
static void test_staged_new_member(void)
{
	gp_cluster c;
	gp_alloc a;
	gp_job j;
	gp_placement p;
	gp_place_part *part;
	gp_replace_result r;
	gp_replace_opts o = { 0, 1 };
	gp_error err = GP_ERROR_INIT;
	gp_policy_ctx ctx;
	int g;

	staged_open(&c, &a);
	job_init(&j, GP_JOB_RING_ALLREDUCE, 4, 1);
	gp_placement_init(&p);
	for (g = 0; g < 2; g++) {
		part = gp_placement_add(&p, g);
		part->ngpus = 2, part->gpus[0] = 2, part->gpus[1] = 3, part->mem_mib = 1024;
	}
	CU_ASSERT_FATAL(gp_placement_apply(&a, &p) == 0);
	CU_ASSERT_FATAL(gp_alloc_take_gpu(&a, c.nodes[0].first_gpu + 0, 1000, 0) == 0);
	CU_ASSERT_FATAL(gp_alloc_take_gpu(&a, c.nodes[0].first_gpu + 1, 1000, 0) == 0);
	gp_alloc_set_state(&a, 1, GP_NODE_DOWN);
	gp_replace_result_init(&r);
	ctx = (gp_policy_ctx){ &c, &a, &rng, NULL, NULL };
	CU_ASSERT_EQUAL_FATAL(gp_replace_decide(&ctx, &j, &p, 1, 0, &o, &r, &err), GP_OK);
	CU_ASSERT_EQUAL(r.modelled, 1);
	CU_ASSERT_EQUAL(r.ncands, 1);
	CU_ASSERT_EQUAL(r.status, GP_REPLACE_REPLACED);
	CU_ASSERT_EQUAL(r.chosen.node, 2);
	CU_ASSERT_EQUAL_FATAL(r.chosen.ngpus, 2);
	CU_ASSERT_EQUAL(r.chosen.gpus[0], 2);
	CU_ASSERT_EQUAL(r.chosen.gpus[1], 3);
	CU_ASSERT_TRUE(r.chosen.eligible);
	CU_ASSERT_DOUBLE_EQUAL(r.iteration_s_after, r.iteration_s_before, 1e-9);
	CU_ASSERT_EQUAL(r.added.parts[0].ngpus, 2);
	CU_ASSERT_EQUAL(r.added.parts[0].gpus[0], 2);
	gp_replace_result_release(&r);
	gp_placement_release(&p);
	gp_job_release(&j);
	gp_alloc_release(&a);
	gp_cluster_release(&c);
}

/* A single-node job on k80-a {0,2}; GPU0 fails, the node stays up.
 * Before: staged across the boards, compute + P / 9.6.  The replacement
 * joins the survivor GPU2: GPU1 (the lowest free GPU, what a lone GPU's
 * link level gave) makes {1,2}, 9.6 again; GPU3 makes {2,3}, 12: after =
 * before - P / 9.6 + P / 12. */
static void test_staged_join_survivor(void)
{
	gp_cluster c;
	gp_alloc a;
	gp_job j;
	gp_placement p;
	gp_place_part *part;
	gp_replace_result r;
	gp_replace_opts o = { 0, 1 };
	gp_error err = GP_ERROR_INIT;
	gp_policy_ctx ctx;

	staged_open(&c, &a);
	job_init(&j, GP_JOB_SINGLE_NODE, 2, 1);
	gp_placement_init(&p);
	part = gp_placement_add(&p, 0);
	part->ngpus = 2, part->gpus[0] = 0, part->gpus[1] = 2, part->mem_mib = 1024;
	CU_ASSERT_FATAL(gp_placement_apply(&a, &p) == 0);
	gp_replace_result_init(&r);
	ctx = (gp_policy_ctx){ &c, &a, &rng, NULL, NULL };
	CU_ASSERT_EQUAL_FATAL(gp_replace_decide(&ctx, &j, &p, 0, 0x1u, &o, &r, &err), GP_OK);
	CU_ASSERT_EQUAL(r.ncands, 1);
	CU_ASSERT_EQUAL(r.status, GP_REPLACE_REPLACED);
	CU_ASSERT_EQUAL(r.chosen.node, 0);
	CU_ASSERT_EQUAL_FATAL(r.chosen.ngpus, 1);
	CU_ASSERT_EQUAL(r.chosen.gpus[0], 3);
	CU_ASSERT_TRUE(r.chosen.eligible);
	CU_ASSERT_DOUBLE_EQUAL(r.iteration_s_after,
			       r.iteration_s_before - P_BYTES / 9.6e9 + P_BYTES / 12e9, 1e-9);
	gp_replace_result_release(&r);
	gp_placement_release(&p);
	gp_job_release(&j);
	gp_alloc_release(&a);
	gp_cluster_release(&c);
}

/* A PS-Worker job on one DGX-1 (dgx1.yaml, the DGX-1 V100 snapshot of
 * topologies/): server GPU0, worker GPUs {1,2}; GPU2 fails, the node
 * stays up.  NVLink 20 GB/s a link (V100); SYS pairs have no peer access:
 * staged, 0.8 x 12 = 9.6 (under the socket link's 16).  A worker's rate
 * to the server on one node is the perf model's ring over both members'
 * GPUs (what a placement's summary rates for the merged part):
 *   before: ring {1,2,0}: the loop 0-1-2 is NV1, NV2, NV1 (20), all
 *     NVLink, so up to each GPU's links to the set (GPU0: two, 40): 40;
 *     the worker's own ring {1,2} (NV2) 40 too: compute + P / 40e9.  (The
 *     link of the first GPUs, 1-0, is NV1: 20.)
 *   dgx1-a: the survivor GPU1 joined by the best of 3..7, GPU5 (NV2, 40):
 *     ring {1,5,0} must cross the SYS pair 0-5: 9.6, so compute + P /
 *     9.6e9 (by the first GPUs, 1-0 NV1, it would seem compute + P / 20e9,
 *     as before, and win as the first node);
 *   dgx1-b: a member of its own; GPU1 alone talks to the server over NV1
 *     (20): compute + P / 20e9; the new worker over IB (23.5); the server
 *     takes 2P (two workers), from GPU1 over NV1 and from dgx1-b over its
 *     NIC: 2P / 20e9, below compute + P / 20e9.
 * None keeps compute + P / 40e9: the fastest, dgx1-b (before dgx1-c,
 * which is as fast). */
static void test_ps_same_node(void)
{
	gp_cluster c;
	gp_alloc a;
	gp_job j;
	gp_placement p, one;
	gp_place_part *part;
	gp_replace_result r;
	gp_replace_opts o = { 0, 1 };
	gp_error err = GP_ERROR_INIT;
	gp_policy_ctx ctx;
	gp_perf_iter it;
	double compute;

	gp_cluster_init(&c);
	CU_ASSERT_FATAL(gp_cluster_load(gp_test_path("tests/data/clusters/dgx1.yaml"), &c, &err) == GP_OK);
	gp_alloc_init(&a, &c);
	gp_rng_seed(&rng, 1);
	job_init(&j, GP_JOB_PS_WORKER, 3, 1);
	j.ps = 1;
	j.workers = 2;
	/* compute of one V100, from the perf model */
	gp_placement_init(&one);
	part = gp_placement_add(&one, 0);
	part->ngpus = 1;
	CU_ASSERT_FATAL(gp_perf_iteration(&c, &j, &one, &it, &err) == GP_OK);
	compute = it.compute_s;
	CU_ASSERT_FATAL(compute > 2 * P_BYTES / 20e9 - P_BYTES / 20e9);
	gp_placement_release(&one);
	gp_placement_init(&p);
	part = gp_placement_add(&p, 0);
	part->role = 1, part->ngpus = 1, part->gpus[0] = 0, part->mem_mib = 1024;
	part = gp_placement_add(&p, 0);
	part->ngpus = 2, part->gpus[0] = 1, part->gpus[1] = 2, part->mem_mib = 1024;
	CU_ASSERT_FATAL(gp_placement_apply(&a, &p) == 0);
	gp_replace_result_init(&r);
	ctx = (gp_policy_ctx){ &c, &a, &rng, NULL, NULL };
	CU_ASSERT_EQUAL_FATAL(gp_replace_decide(&ctx, &j, &p, 0, 0x4u, &o, &r, &err), GP_OK);
	CU_ASSERT_DOUBLE_EQUAL(r.iteration_s_before, compute + P_BYTES / 40e9, 1e-9);
	CU_ASSERT_EQUAL_FATAL(r.ncands, 3);
	CU_ASSERT_EQUAL_FATAL(cand(&r, 0)->ngpus, 1);
	CU_ASSERT_EQUAL(cand(&r, 0)->gpus[0], 5);
	CU_ASSERT_DOUBLE_EQUAL(cand(&r, 0)->iteration_s, compute + P_BYTES / 9.6e9, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(cand(&r, 1)->iteration_s, compute + P_BYTES / 20e9, 1e-9);
	CU_ASSERT_FALSE(cand(&r, 1)->eligible);
	CU_ASSERT_EQUAL(r.status, GP_REPLACE_REPLACED);
	CU_ASSERT_EQUAL(r.chosen.node, 1);
	CU_ASSERT_DOUBLE_EQUAL(r.iteration_s_after, compute + P_BYTES / 20e9, 1e-9);
	gp_replace_result_release(&r);
	gp_placement_release(&p);
	gp_job_release(&j);
	gp_alloc_release(&a);
	gp_cluster_release(&c);
}

/* The model state copied between two members on one node takes the
 * fastest path between them, as the perf model rates one GPU to one peer
 * (NVLink by its links, PCIe with or without peer access, the socket
 * link), not the link of their first GPUs.  dgx1.yaml (DGX-1 V100
 * snapshot: NVLink 20 GB/s a link; SYS pairs staged through host memory,
 * 0.8 x 12 = 9.6): a ring job on dgx1-a {0,1,4} and dgx1-b {0}; dgx1-b
 * fails.  dgx1-a has only GPU5 free (2, 3, 6, 7 busy): joined, the ring
 * {0,1,4,5} (0-1 NV1, 1-5 NV2, 5-4 NV1, 4-0 NV2) is all NVLink, where
 * {0,1,4} must stage its SYS pair 1-4: faster than before, so dgx1-a wins
 * over dgx1-c (which leaves the time as it was).  The copy comes from
 * dgx1-a's member (dgx1-b failed) to GPU5: its first GPU's link 0-5 is
 * SYS, 9.6 GB/s, but GPU1 reaches GPU5 over NV2, 40 GB/s (GPU4 over NV1,
 * 20): copy_s = 1.4e10 / 40e9 = 0.35 s (by the first GPUs 1.458 s). */
static void test_copy_same_node_path(void)
{
	gp_cluster c;
	gp_alloc a;
	gp_job j;
	gp_placement p;
	gp_place_part *part;
	gp_replace_result r;
	gp_replace_opts o = { 0, 1 };
	gp_error err = GP_ERROR_INIT;
	gp_policy_ctx ctx;
	static const int busy_gpus[] = { 2, 3, 6, 7 };
	int i;

	gp_cluster_init(&c);
	CU_ASSERT_FATAL(gp_cluster_load(gp_test_path("tests/data/clusters/dgx1.yaml"), &c, &err) == GP_OK);
	gp_alloc_init(&a, &c);
	gp_rng_seed(&rng, 1);
	job_init(&j, GP_JOB_RING_ALLREDUCE, 4, 1);
	gp_placement_init(&p);
	part = gp_placement_add(&p, 0);
	part->ngpus = 3, part->gpus[0] = 0, part->gpus[1] = 1, part->gpus[2] = 4;
	part->mem_mib = 1024;
	part = gp_placement_add(&p, 1);
	part->ngpus = 1, part->gpus[0] = 0, part->mem_mib = 1024;
	CU_ASSERT_FATAL(gp_placement_apply(&a, &p) == 0);
	for (i = 0; i < 4; i++)
		CU_ASSERT_FATAL(gp_alloc_take_gpu(&a, c.nodes[0].first_gpu + busy_gpus[i], 1000, 0) == 0);
	gp_alloc_set_state(&a, 1, GP_NODE_DOWN);
	gp_replace_result_init(&r);
	ctx = (gp_policy_ctx){ &c, &a, &rng, NULL, NULL };
	CU_ASSERT_EQUAL_FATAL(gp_replace_decide(&ctx, &j, &p, 1, 0, &o, &r, &err), GP_OK);
	CU_ASSERT_EQUAL(r.status, GP_REPLACE_REPLACED);
	CU_ASSERT_EQUAL_FATAL(r.chosen.node, 0);
	CU_ASSERT_EQUAL(r.chosen.ngpus, 1);
	CU_ASSERT_EQUAL(r.chosen.gpus[0], 5);
	CU_ASSERT(r.iteration_s_after < r.iteration_s_before);
	CU_ASSERT_EQUAL(r.copy_from, 0);
	CU_ASSERT_DOUBLE_EQUAL(r.copy_s, STATE_BYTES / 40e9, 1e-9);
	gp_replace_result_release(&r);
	gp_placement_release(&p);
	gp_job_release(&j);
	gp_alloc_release(&a);
	gp_cluster_release(&c);
}

/* A parameter server beside all its workers crosses no network: it takes
 * their gradients at the rate of the ring over its GPUs and theirs, not
 * over its NICs.  dgx1.yaml: server GPU0, worker GPUs {1,2,3} of dgx1-a;
 * 1e10 parameters (P = 2e10 bytes).  Ring {1,2,3,0}: all NVLink, each
 * GPU's links into the set, GPU0 1 + 1 + 2 = 4 (GPU1 4, GPU2 and GPU3 5):
 * 80 GB/s; the worker's own ring {1,2,3}: GPU1 has NV2 to 2 and NV1 to 3,
 * 3 links: 60.  Worker: compute + P / 60e9; server: P / 80e9.  Before
 * the failure (GPU3 fails) the job takes compute + P / 60e9; through the
 * server's one NIC (23.5 GB/s) the server alone took P / 23.5e9, longer. */
static void test_ps_server_beside_worker(void)
{
	gp_cluster c;
	gp_alloc a;
	gp_job j;
	gp_placement p, one;
	gp_place_part *part;
	gp_replace_result r;
	gp_replace_opts o = { 0, 1 };
	gp_error err = GP_ERROR_INIT;
	gp_policy_ctx ctx;
	gp_perf_iter it;
	double compute, big = 10 * P_BYTES;

	gp_cluster_init(&c);
	CU_ASSERT_FATAL(gp_cluster_load(gp_test_path("tests/data/clusters/dgx1.yaml"), &c, &err) == GP_OK);
	gp_alloc_init(&a, &c);
	gp_rng_seed(&rng, 1);
	job_init(&j, GP_JOB_PS_WORKER, 4, 1);
	gp_job_more_edit(&j)->model.params = 1e10;
	j.ps = 1;
	j.workers = 3;
	gp_placement_init(&one);
	part = gp_placement_add(&one, 0);
	part->ngpus = 1;
	CU_ASSERT_FATAL(gp_perf_iteration(&c, &j, &one, &it, &err) == GP_OK);
	compute = it.compute_s;
	CU_ASSERT_FATAL(compute + big / 60e9 < big / 23.5e9);
	gp_placement_release(&one);
	gp_placement_init(&p);
	part = gp_placement_add(&p, 0);
	part->role = 1, part->ngpus = 1, part->gpus[0] = 0, part->mem_mib = 1024;
	part = gp_placement_add(&p, 0);
	part->ngpus = 3, part->gpus[0] = 1, part->gpus[1] = 2, part->gpus[2] = 3;
	part->mem_mib = 1024;
	CU_ASSERT_FATAL(gp_placement_apply(&a, &p) == 0);
	gp_replace_result_init(&r);
	ctx = (gp_policy_ctx){ &c, &a, &rng, NULL, NULL };
	CU_ASSERT_EQUAL_FATAL(gp_replace_decide(&ctx, &j, &p, 0, 0x8u, &o, &r, &err), GP_OK);
	CU_ASSERT_DOUBLE_EQUAL(r.iteration_s_before, compute + big / 60e9, 1e-9);
	gp_replace_result_release(&r);
	gp_placement_release(&p);
	gp_job_release(&j);
	gp_alloc_release(&a);
	gp_cluster_release(&c);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("replace");

	gp_test_add(s, "weakest qualifying candidate", test_weakest_qualifying);
	gp_test_add(s, "fallback to the fastest", test_fallback_fastest);
	gp_test_add(s, "ring rebuild without candidates", test_ring_rebuild);
	gp_test_add(s, "two failures in sequence", test_two_failures);
	gp_test_add(s, "PS-Worker worker and server", test_ps_worker);
	gp_test_add(s, "no model size: relative peak", test_relative_without_model);
	gp_test_add(s, "none and errors", test_none_and_errors);
	gp_test_add(s, "state never from the failed node", test_copy_not_from_failed_node);
	gp_test_add(s, "replacement GPUs by the perf model's ring", test_staged_new_member);
	gp_test_add(s, "replacement joining a survivor's ring", test_staged_join_survivor);
	gp_test_add(s, "PS-Worker server and worker on one node", test_ps_same_node);
	gp_test_add(s, "state copied on one node by its fastest path", test_copy_same_node_path);
	gp_test_add(s, "PS-Worker server beside its workers takes no NIC", test_ps_server_beside_worker);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
