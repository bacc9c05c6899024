/* Placement policies on clusters built from real nvidia-smi snapshots
 * (tests/data/clusters/, origins in its README.md).  Every expected GPU
 * set below is worked out by hand from the snapshot's matrix; the
 * reasoning sits next to each assertion.
 *
 * Expense (policy.h): NV<n> = 100 - n, PIX 200, PXB 300, PHB 400,
 * NODE 500, SYS 600.  DGX-1 NVLinks (hybrid cube mesh):
 *   0: 1 NV1, 2 NV1, 3 NV2, 4 NV2     4: 0 NV2, 5 NV1, 6 NV1, 7 NV2
 *   1: 0 NV1, 2 NV2, 3 NV1, 5 NV2     5: 1 NV2, 4 NV1, 6 NV2, 7 NV1
 *   2: 0 NV1, 1 NV2, 3 NV2, 6 NV1     6: 2 NV1, 4 NV1, 5 NV2, 7 NV2
 *   3: 0 NV2, 1 NV1, 2 NV2, 7 NV1     7: 3 NV1, 4 NV2, 5 NV1, 6 NV2
 * every other GPU pair SYS; CPU sub-trees {0-3} and {4-7} (GPU0 and GPU4
 * meet NIC mlx5_0 at PIX and SYS). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/model/placement.h"
#include "gpuplan/perf/perf.h"
#include "gpuplan/place/place.h"
#include "gpuplan/place/policy.h"
#include "../../src/place/place_int.h" /* white-box: gp_place_add_part */
#include "testlib.h"

typedef struct fixture {
	gp_cluster c;
	gp_alloc a;
	gp_place_cache *pc;
	gp_explain ex;
	gp_placement p;
	gp_rng rng;
} fixture;

static void fx_open(fixture *f, const char *file)
{
	gp_error err = GP_ERROR_INIT;
	char path[256];

	snprintf(path, sizeof(path), "tests/data/clusters/%s", file);
	gp_cluster_init(&f->c);
	CU_ASSERT_EQUAL_FATAL(gp_cluster_load(gp_test_path(path), &f->c, &err), GP_OK);
	CU_ASSERT_EQUAL_FATAL(gp_alloc_init(&f->a, &f->c), GP_OK);
	f->pc = gp_place_cache_new(&f->c);
	gp_explain_init(&f->ex);
	gp_placement_init(&f->p);
	gp_rng_seed(&f->rng, 42);
}

static void fx_close(fixture *f)
{
	gp_placement_release(&f->p);
	gp_explain_release(&f->ex);
	gp_place_cache_free(f->pc);
	gp_alloc_release(&f->a);
	gp_cluster_release(&f->c);
}

/* Take whole GPUs of a node (list ends with -1). */
static void busy(fixture *f, const char *node, ...)
{
	int n = gp_cluster_find_node(&f->c, node), g;
	va_list ap;

	CU_ASSERT_FATAL(n >= 0);
	va_start(ap, node);
	while ((g = va_arg(ap, int)) >= 0)
		CU_ASSERT_EQUAL(gp_alloc_take_gpu(&f->a, f->c.nodes[n].first_gpu + g, GP_MILLI, 0), 0);
	va_end(ap);
}

static void job_of(gp_job *j, int type, int gpus)
{
	gp_job_init(j);
	j->type = type;
	j->gpus = gpus;
}

/* Run a policy with explanations, and also without (simulator mode,
 * no cache) to check that both agree. */
static int run(fixture *f, const char *policy, const gp_job *j)
{
	const gp_policy *pol = gp_policy_find(policy);
	gp_policy_ctx ctx = { &f->c, &f->a, &f->rng, &f->ex, f->pc };
	gp_policy_ctx quiet = { &f->c, &f->a, NULL, NULL, NULL };
	gp_placement q;
	gp_rng saved = f->rng;
	int r, r2, i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(pol);
	gp_explain_release(&f->ex);
	gp_explain_init(&f->ex);
	r = pol->place(&ctx, j, &f->p);
	if (strcmp(policy, "random")) {
		gp_placement_init(&q);
		quiet.rng = &saved;
		r2 = pol->place(&quiet, j, &q);
		CU_ASSERT_EQUAL(r, r2);
		CU_ASSERT_EQUAL(q.nparts, f->p.nparts);
		/* The perf model's verdict does not depend on explaining. */
		CU_ASSERT_EQUAL(q.bottleneck, f->p.bottleneck);
		CU_ASSERT_DOUBLE_EQUAL(q.ring_bw_gbs, f->p.ring_bw_gbs, 1e-12);
		for (i = 0; i < q.nparts && i < f->p.nparts; i++) {
			CU_ASSERT_EQUAL(q.parts[i].node, f->p.parts[i].node);
			CU_ASSERT_EQUAL(q.parts[i].ngpus, f->p.parts[i].ngpus);
			CU_ASSERT(!memcmp(q.parts[i].gpus, f->p.parts[i].gpus,
					  (size_t)q.parts[i].ngpus * sizeof(int)));
		}
		gp_placement_release(&q);
	}
	if (r == GP_PLACED) {
		/* A placement must apply (and undo) on the state it was made for. */
		CU_ASSERT_EQUAL(gp_placement_apply(&f->a, &f->p), 0);
		gp_placement_undo(&f->a, &f->p);
	} else {
		CU_ASSERT(f->ex.reason[0] != '\0');
		CU_ASSERT_EQUAL(f->p.nparts, 0);
	}
	return r;
}

/* Part i is on node `node` with exactly the GPUs given (ascending, -1 ends). */
static int part_is(fixture *f, int i, const char *node, ...)
{
	const gp_place_part *p;
	va_list ap;
	int g, k = 0, ok = 1;

	if (i >= f->p.nparts)
		return 0;
	p = &f->p.parts[i];
	if (p->node != gp_cluster_find_node(&f->c, node))
		ok = 0;
	va_start(ap, node);
	while ((g = va_arg(ap, int)) >= 0) {
		if (k >= p->ngpus || p->gpus[k] != g)
			ok = 0;
		k++;
	}
	va_end(ap);
	return ok && k == p->ngpus;
}

static int explained(fixture *f, const char *needle)
{
	int i;

	for (i = 0; i < f->ex.n; i++)
		if (strstr(f->ex.lines[i], needle))
			return 1;
	return 0;
}

static const char *nic_name(fixture *f, int i)
{
	const gp_place_part *p = &f->p.parts[i];
	const gp_topo *t = &f->c.types[f->c.nodes[p->node].type].topo;

	return p->nic >= 0 ? t->nics[p->nic].device : "";
}

/* ---- bestfit: single-node, DGX-1 ---- */

static void test_bestfit_single_node_dgx1(void)
{
	fixture f;
	gp_job j;

	fx_open(&f, "dgx1.yaml");
	job_of(&j, GP_JOB_SINGLE_NODE, 4);
	/* Empty cluster: all nodes leave 4000 milli -> first node.  Lowest
	 * expense 4-set: {0,1,2,3} = 99+99+98+98+99+98 = 591 = {4,5,6,7};
	 * any set across the halves has >= 2 SYS pairs.  Lower mask wins. */
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "dgx1-a", 0, 1, 2, 3, -1));
	/* Best loop over {0,1,2,3}: the NV2 edges 0-3, 3-2, 2-1 form a path,
	 * so every loop has an NV1 edge (1 x 20 GB/s).  The loop is all
	 * NVLink, so the perf model bounds the ring by each GPU's NVLinks into
	 * the set instead: GPU0 1+1+2 = 4, GPU1 1+2+1 = 4, GPU2 1+2+2 = 5,
	 * GPU3 2+1+2 = 5 -> 4 x 20 = 80 GB/s (V100: 6 links, not capping). */
	CU_ASSERT_EQUAL(f.p.bottleneck, GP_LINK_NV);
	CU_ASSERT_DOUBLE_EQUAL(f.p.ring_bw_gbs, 80.0, 1e-9);
	/* Default CPU share 4 per GPU, all affine to 0-19,40-59: 0-15. */
	CU_ASSERT_EQUAL(f.p.parts[0].ncpus, 16);
	CU_ASSERT_EQUAL(f.p.parts[0].cpus[0], 0);
	CU_ASSERT_EQUAL(f.p.parts[0].cpus[15], 15);
	CU_ASSERT_EQUAL(f.p.parts[0].cpu_milli, 16000);
	/* NIC: mlx5_0 is PIX,PIX,PHB,PHB and mlx5_1 PHB,PHB,PIX,PIX (equal
	 * worst and sum); mlx5_0 comes first in the file's columns. */
	CU_ASSERT_STRING_EQUAL(nic_name(&f, 0), "mlx5_0");
	CU_ASSERT_EQUAL(f.p.parts[0].vf, 0);
	CU_ASSERT(explained(&f, "one node: 3 node(s) have 4 fitting GPUs"));

	/* Least remaining resource: a has 5 free (0,1,2 busy), c 7 (4 busy).
	 * After 4 GPUs a keeps 1000, b 4000, c 3000 -> a; on a the free
	 * {3,4,5,6,7}: {4,5,6,7} = 591, any set with GPU3 has SYS pairs. */
	busy(&f, "dgx1-a", 0, 1, 2, -1);
	busy(&f, "dgx1-c", 4, -1);
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "dgx1-a", 4, 5, 6, 7, -1));
	/* mlx5_2 is PIX to GPU4/5 and PHB to GPU6/7; mlx5_3 the reverse:
	 * equal, mlx5_2 first in the file. */
	CU_ASSERT_STRING_EQUAL(nic_name(&f, 0), "mlx5_2");

	/* WAIT: 9 GPUs on one 8-GPU node. */
	job_of(&j, GP_JOB_SINGLE_NODE, 9);
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_WAIT);
	CU_ASSERT(strstr(f.ex.reason, "wait for the next dispatch") != NULL);
	fx_close(&f);
}

/* ---- bestfit: single card ---- */

static void test_bestfit_single_card(void)
{
	fixture f;
	gp_job j;
	int a0;

	fx_open(&f, "dgx1.yaml");
	job_of(&j, GP_JOB_SINGLE_CARD, 1);
	/* a: 3 busy, b: free, c: 7 busy -> whole GPUs leave 0 on the GPU;
	 * node remaining a 4000, b 7000, c 0 -> c's only free GPU7. */
	busy(&f, "dgx1-a", 0, 1, 2, -1);
	busy(&f, "dgx1-c", 0, 1, 2, 3, 4, 5, 6, -1);
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "dgx1-c", 7, -1));
	CU_ASSERT(explained(&f, "single card"));

	/* Among equal GPUs the least connected (b and c now full, a has 3..7
	 * free).  Expense to the other free GPUs: GPU3 = 3 x SYS + NV1 =
	 * 1899; GPU4 = SYS + NV1 + NV1 + NV2 = 896; GPU5 = 896; GPU6 = SYS +
	 * NV1 + NV2 + NV2 = 895; GPU7 = 99+98+99+98 = 394 -> GPU3, whose NVLink
	 * partners 0-2 are taken. */
	busy(&f, "dgx1-c", 7, -1);
	busy(&f, "dgx1-b", 0, 1, 2, 3, 4, 5, 6, 7, -1);
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "dgx1-a", 3, -1));

	/* Fractional: GPU a3 at 700 used, a4 at 500 used; 300 milli fits a3
	 * exactly (0 left) -> a3 over every whole GPU. */
	a0 = f.c.nodes[gp_cluster_find_node(&f.c, "dgx1-a")].first_gpu;
	CU_ASSERT_EQUAL(gp_alloc_take_gpu(&f.a, a0 + 3, 700, 0), 0);
	CU_ASSERT_EQUAL(gp_alloc_take_gpu(&f.a, a0 + 4, 500, 0), 0);
	j.gpu_milli = 300;
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "dgx1-a", 3, -1));
	CU_ASSERT_EQUAL(f.p.parts[0].milli, 300);
	/* 400 milli: a3 (300 free) no; a4 leaves 100, whole GPUs 600 -> a4. */
	j.gpu_milli = 400;
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "dgx1-a", 4, -1));
	/* Memory: V100-SXM2-16GB cannot hold 20 GiB -> WAIT. */
	j.gpu_milli = GP_MILLI;
	j.gpu_mem_mib = 20 * 1024;
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_WAIT);
	CU_ASSERT(strstr(f.ex.reason, "wait for the next dispatch") != NULL);
	fx_close(&f);
}

/* ---- bestfit: Ring-AllReduce ---- */

static void test_bestfit_ring_one_node(void)
{
	fixture f;
	gp_job j;

	fx_open(&f, "dgx1.yaml");
	/* 8 GPUs: the NV2 edges 0-3-2-1-5-6-7-4-0 close a loop over all 8
	 * (NV2 = 40 GB/s); all NVLink, so the perf model's bound is each
	 * GPU's 6 NVLinks (NV1+NV1+NV2+NV2) x 20 = 120 GB/s. */
	job_of(&j, GP_JOB_RING_ALLREDUCE, 8);
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "dgx1-a", 0, 1, 2, 3, 4, 5, 6, 7, -1));
	CU_ASSERT_EQUAL(f.p.bottleneck, GP_LINK_NV);
	CU_ASSERT_DOUBLE_EQUAL(f.p.ring_bw_gbs, 120.0, 1e-9);

	/* NVLink loop before best fit: a free {0,1,2,4} (no NVLink loop: 4
	 * only reaches 0), b free {0,1,2,3,5} (loop 0-1-2-3), c full. */
	busy(&f, "dgx1-a", 3, 5, 6, 7, -1);
	busy(&f, "dgx1-b", 4, 6, 7, -1);
	busy(&f, "dgx1-c", 0, 1, 2, 3, 4, 5, 6, 7, -1);
	job_of(&j, GP_JOB_RING_ALLREDUCE, 4);
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "dgx1-b", 0, 1, 2, 3, -1));
	CU_ASSERT(explained(&f, "1 of them with a closed NVLink loop"));

	/* No NVLink loop anywhere: b free {0,1,3,5} (5 reaches only 1).  Both
	 * leave 0 milli; both loops cross SYS; sums a {0,1,2,4} = 99+99+98+98+
	 * 600+600 = 1594 = b {0,1,3,5} (99+98+600+99+98+600) -> node order: a,
	 * over PCIe, bottleneck SYS: GPU4 has one NVLink in the set, so the
	 * loop takes a SYS hop; perf model: min(0.8 host staging x 12 GB/s
	 * PCIe Gen3 x16, 16 GB/s socket link) = 9.6 GB/s. */
	busy(&f, "dgx1-b", 2, -1);
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "dgx1-a", 0, 1, 2, 4, -1));
	CU_ASSERT_EQUAL(f.p.bottleneck, GP_LINK_SYS);
	CU_ASSERT_DOUBLE_EQUAL(f.p.ring_bw_gbs, 9.6, 1e-9);
	CU_ASSERT(explained(&f, "PCIe"));
	fx_close(&f);
}

static void test_bestfit_ring_several_nodes(void)
{
	fixture f;
	gp_job j;

	fx_open(&f, "dgx1.yaml");
	/* 16 GPUs: leaf0 (a, b) holds 16 at weight 1; the spine (24, weight
	 * 2) is worse.  Perf model: each node's ring 120 GB/s (above); the
	 * network 4 NICs (one per GPU, at most the node's 4) x IB HDR 200 Gb/s
	 * / 8 x 0.94 = 94 GB/s < 120 -> network, 1 switch level. */
	job_of(&j, GP_JOB_RING_ALLREDUCE, 16);
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
	CU_ASSERT_EQUAL(f.p.nparts, 2);
	CU_ASSERT(part_is(&f, 0, "dgx1-a", 0, 1, 2, 3, 4, 5, 6, 7, -1));
	CU_ASSERT(part_is(&f, 1, "dgx1-b", 0, 1, 2, 3, 4, 5, 6, 7, -1));
	CU_ASSERT_EQUAL(f.p.bottleneck, GP_LINK_LEVELS + 1);
	CU_ASSERT_DOUBLE_EQUAL(f.p.ring_bw_gbs, 94.0, 1e-9);
	CU_ASSERT(explained(&f, "under switch leaf0 (communication weight 1 between its nodes: "
			       "InfiniBand through 1 switch level(s);"));

	/* 12 GPUs: leaf0 again (remaining 4); a all 8, b the remainder 4
	 * as its best loop {0,1,2,3} (NV1 worst, the lower mask of two). */
	job_of(&j, GP_JOB_RING_ALLREDUCE, 12);
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "dgx1-a", 0, 1, 2, 3, 4, 5, 6, 7, -1));
	CU_ASSERT(part_is(&f, 1, "dgx1-b", 0, 1, 2, 3, -1));

	/* Through the spine: a free 6 (0,1 busy), b full, c free 4 (0-3
	 * busy); 8 GPUs: no leaf holds 8, the spine holds 10 (weight 2).
	 * a gives 6, c the remainder 2: its best pair among {4,5,6,7} is an
	 * NV2 pair (4-7, 5-6, 6-7), the lowest mask {5,6}. */
	busy(&f, "dgx1-a", 0, 1, -1);
	busy(&f, "dgx1-b", 0, 1, 2, 3, 4, 5, 6, 7, -1);
	busy(&f, "dgx1-c", 0, 1, 2, 3, -1);
	job_of(&j, GP_JOB_RING_ALLREDUCE, 8);
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "dgx1-a", 2, 3, 4, 5, 6, 7, -1));
	CU_ASSERT(part_is(&f, 1, "dgx1-c", 5, 6, -1));
	/* Perf model: c's pair 5-6 is NV2 = 40 GB/s (2 links each, so the
	 * channel bound is 40 too); a's six GPUs loop 2-3-7-4-5-6 at NV1 with
	 * >= 3 NVLinks per GPU into the set (>= 60).  Network: a uses 4 NICs
	 * (94), c 2 NICs for 2 GPUs (47) -> 47 > 40: the NV2 pair limits. */
	CU_ASSERT_EQUAL(f.p.bottleneck, GP_LINK_NV);
	CU_ASSERT_DOUBLE_EQUAL(f.p.ring_bw_gbs, 40.0, 1e-9);
	CU_ASSERT(explained(&f, "under switch spine (communication weight 2 between its nodes: "
			       "InfiniBand through 2 switch level(s);"));

	/* WAIT: 11 GPUs, 10 free. */
	job_of(&j, GP_JOB_RING_ALLREDUCE, 11);
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_WAIT);
	CU_ASSERT(strstr(f.ex.reason, "no connected group of nodes has 11") != NULL);
	fx_close(&f);
}

/* Best fit over node combinations (US 12386666): among the nodes of the
 * lowest communication weight, the set holding the job with the least
 * left over, then the fewest nodes. */
static void test_bestfit_combinations(void)
{
	int hist[GP_TOPO_MAX_GPUS + 1], take[GP_TOPO_MAX_GPUS + 1], round;
	fixture f;
	gp_job j;

	memset(hist, 0, sizeof(hist));
	/* 8, 6, 6 for 12: 6 + 6 leaves 0; 8 + 6 would leave 2. */
	hist[8] = 1;
	hist[6] = 2;
	CU_ASSERT_EQUAL(gp_place_span_combo(hist, 12, take), 2);
	CU_ASSERT_EQUAL(take[6], 2);
	CU_ASSERT_EQUAL(take[8], 0);
	/* 14: 8 + 6 exact (2 nodes), not 6 + 6 + 8 (3 nodes, 6 left). */
	CU_ASSERT_EQUAL(gp_place_span_combo(hist, 14, take), 2);
	CU_ASSERT_EQUAL(take[8], 1);
	CU_ASSERT_EQUAL(take[6], 1);
	/* 15: pairs hold 12 or 14, so all three (20, 5 left). */
	CU_ASSERT_EQUAL(gp_place_span_combo(hist, 15, take), 3);
	/* 21: more than the 20 there are. */
	CU_ASSERT_EQUAL(gp_place_span_combo(hist, 21, take), -1);
	/* Equal left over: fewer nodes.  4, 4, 8 for 8 -> the 8 alone. */
	memset(hist, 0, sizeof(hist));
	hist[4] = 2;
	hist[8] = 1;
	CU_ASSERT_EQUAL(gp_place_span_combo(hist, 8, take), 1);
	CU_ASSERT_EQUAL(take[8], 1);
	/* Many small ones: 100 nodes of 1 and 3 of 8 for 19: 8 + 8 + 1 x 3
	 * (exact, 5 nodes) beats 8 x 3 (5 left). */
	memset(hist, 0, sizeof(hist));
	hist[1] = 100;
	hist[8] = 3;
	CU_ASSERT_EQUAL(gp_place_span_combo(hist, 19, take), 5);
	CU_ASSERT_EQUAL(take[8], 2);
	CU_ASSERT_EQUAL(take[1], 3);

	/* One leaf of four DGX-1: a wholly free, b and c free {2..7}, d
	 * full.  A 12-GPU ring fits no node: fewest nodes first would take a
	 * (8) and b (the smallest covering 4), leaving 2 on b and breaking
	 * up a free node; b + c hold exactly 12. Both the walk over the
	 * leaf's nodes and the per-mask lookup (walk max 0) agree. */
	for (round = 0; round < 2; round++) {
		gp_place_span_walk_max = round ? 0 : 256;
		fx_open(&f, "dgx1-leaf.yaml");
		busy(&f, "dgx1-b", 0, 1, -1);
		busy(&f, "dgx1-c", 0, 1, -1);
		busy(&f, "dgx1-d", 0, 1, 2, 3, 4, 5, 6, 7, -1);
		job_of(&j, GP_JOB_RING_ALLREDUCE, 12);
		CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
		CU_ASSERT_EQUAL(f.p.nparts, 2);
		CU_ASSERT(part_is(&f, 0, "dgx1-b", 2, 3, 4, 5, 6, 7, -1));
		CU_ASSERT(part_is(&f, 1, "dgx1-c", 2, 3, 4, 5, 6, 7, -1));
		CU_ASSERT(explained(&f, "best fit over node combinations (0 fitting GPU(s) left"));
		/* 14: a + b exact (8 + 6) over b + c + a. */
		job_of(&j, GP_JOB_RING_ALLREDUCE, 14);
		CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
		CU_ASSERT_EQUAL(f.p.nparts, 2);
		CU_ASSERT(part_is(&f, 0, "dgx1-a", 0, 1, 2, 3, 4, 5, 6, 7, -1));
		CU_ASSERT(part_is(&f, 1, "dgx1-b", 2, 3, 4, 5, 6, 7, -1));
		fx_close(&f);
	}
	gp_place_span_walk_max = 256;
}

/* ---- bestfit: PS-Worker ---- */

static void test_bestfit_ps_worker(void)
{
	fixture f;
	gp_job j;

	/* 4-socket A100: sockets (NUMA 0..3) {0,1} {2,3} {4,5} {6,7}, every
	 * pair NV12. */
	fx_open(&f, "a100-4socket.yaml");
	busy(&f, "a", 0, -1);
	job_of(&j, GP_JOB_PS_WORKER, 2);
	j.ps = 1;
	j.workers = 1;
	/* Sub-trees with 2 fitting GPUs all leave 0; node remaining a 5000 <
	 * b 6000 -> a; its first full sub-tree {2,3}.  Worker GPU3 keeps part
	 * 0, the parameter server GPU2 gets part 1.  CPUs of NUMA 1
	 * (20-39,100-119): 20-23 then 24-27; NIC: GPU2/3 see NIC2 (mlx5_2) at
	 * PXB, NIC1 at NODE -> mlx5_2, VFs 0 and 1. */
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
	CU_ASSERT_EQUAL(f.p.nparts, 2);
	CU_ASSERT(part_is(&f, 0, "a", 3, -1));
	CU_ASSERT(part_is(&f, 1, "a", 2, -1));
	CU_ASSERT_EQUAL(f.p.parts[0].role, 0);
	CU_ASSERT_EQUAL(f.p.parts[1].role, 1);
	CU_ASSERT_EQUAL(f.p.parts[0].numa, 1);
	CU_ASSERT_EQUAL(f.p.parts[0].cpus[0], 20);
	CU_ASSERT_EQUAL(f.p.parts[1].cpus[0], 24);
	CU_ASSERT_STRING_EQUAL(nic_name(&f, 0), "mlx5_2");
	CU_ASSERT_EQUAL(f.p.parts[0].vf, 0);
	CU_ASSERT_EQUAL(f.p.parts[1].vf, 1);
	CU_ASSERT(explained(&f, "one CPU sub-tree"));

	/* 3 GPUs: no sub-tree has 3 -> one node: a (4000 left) over b; all
	 * pairs NV12, lowest mask of a's free: {1,2,3}. */
	job_of(&j, GP_JOB_PS_WORKER, 3);
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "a", 1, 2, 3, -1));
	CU_ASSERT(explained(&f, "one CPU sub-tree: none has 3"));

	/* 12 GPUs: several nodes: b gives 8, a the remaining 4 ({1,2,3,4});
	 * the 2 parameter servers are b's GPU0 and GPU1. */
	job_of(&j, GP_JOB_PS_WORKER, 12);
	j.ps = 2;
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
	CU_ASSERT_EQUAL(f.p.nparts, 3);
	CU_ASSERT(part_is(&f, 0, "b", 2, 3, 4, 5, 6, 7, -1));
	CU_ASSERT(part_is(&f, 1, "a", 1, 2, 3, 4, -1));
	CU_ASSERT(part_is(&f, 2, "b", 0, 1, -1));
	CU_ASSERT_EQUAL(f.p.parts[2].role, 1);

	/* WAIT: 16 GPUs, 15 free. */
	job_of(&j, GP_JOB_PS_WORKER, 16);
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_WAIT);
	fx_close(&f);

	/* DGX-1: sub-tree over a tighter node.  a free {0,1,4,5} (2 + 2),
	 * b free: PS 4 -> b's sub-tree {0,1,2,3}, not a. */
	fx_open(&f, "dgx1.yaml");
	busy(&f, "dgx1-a", 2, 3, 6, 7, -1);
	busy(&f, "dgx1-c", 0, 1, 2, 3, 4, 5, 6, 7, -1);
	job_of(&j, GP_JOB_PS_WORKER, 4);
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "dgx1-b", 0, 1, 2, 3, -1));
	fx_close(&f);
}

/* ---- bestfit on PCIe-only boxes and NVSwitch boxes ---- */

static void test_bestfit_pcie_and_nvswitch(void)
{
	fixture f;
	gp_job j;

	fx_open(&f, "pcie-mixed.yaml");
	/* rig (5 GPUs): GPU0 alone on NUMA 1 (SYS to all); 1-2 and 3-4 PHB,
	 * the rest NODE.  k80: 0-1 and 2-3 PIX, others SOC = SYS.  Ring of 3:
	 * remaining rig 2000, k80 1000, h100 5000, but only the h100 has an
	 * NVLink loop, and NVLink comes first: all NV18, lowest mask {0,1,2}. */
	job_of(&j, GP_JOB_RING_ALLREDUCE, 3);
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "h100", 0, 1, 2, -1));
	/* NV18 x 20.6 GB/s (Hopper) = 370.8. */
	CU_ASSERT_DOUBLE_EQUAL(f.p.ring_bw_gbs, 18 * 20.6, 1e-3);

	/* Without the h100: the k80 leaves 1000 (< rig 2000); each of its
	 * loops of 3 crosses the SMP link and sums 200+600+600 = 1400: the
	 * lowest mask {0,1,2}. */
	busy(&f, "h100", 0, 1, 2, 3, 4, 5, 6, 7, -1);
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "k80", 0, 1, 2, -1));
	CU_ASSERT_EQUAL(f.p.bottleneck, GP_LINK_SYS);

	/* Single node of 2 on the rig only (k80 busy): PHB pairs {1,2} and
	 * {3,4} cost 400, lowest mask {1,2}; CPUs of NUMA 0 (0-7,16-23). */
	busy(&f, "k80", 0, 1, 2, 3, -1);
	job_of(&j, GP_JOB_SINGLE_NODE, 2);
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "rig", 1, 2, -1));
	CU_ASSERT_EQUAL(f.p.parts[0].numa, 0);
	CU_ASSERT_EQUAL(f.p.parts[0].cpus[0], 0);
	CU_ASSERT_EQUAL(f.p.parts[0].nic, -1);
	/* PS of 4: the NUMA-0 sub-tree {1,2,3,4}. */
	job_of(&j, GP_JOB_PS_WORKER, 4);
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "rig", 1, 2, 3, 4, -1));
	fx_close(&f);

	/* OCI A100 NV12 (NVSwitch, NPS4: NUMA pairs {0,1} {2,3} {4,5} {6,7}):
	 * all pairs NV12, so a 2-GPU single node is the lowest mask {0,1};
	 * CPUs 48-55 (NUMA 3), NIC: GPU0/1 see NIC5..8 at PXB -> mlx5_5. */
	fx_open(&f, "a100-nv12.yaml");
	job_of(&j, GP_JOB_SINGLE_NODE, 2);
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "oci-0", 0, 1, -1));
	CU_ASSERT_EQUAL(f.p.parts[0].numa, 3);
	CU_ASSERT_EQUAL(f.p.parts[0].cpus[0], 48);
	CU_ASSERT_STRING_EQUAL(nic_name(&f, 0), "mlx5_5");
	fx_close(&f);
}

/* ---- bottleneck from the perf model, rails, PS split (H100 NV18) ---- */

static const char *gpu_nic_name(fixture *f, int i, int k)
{
	const gp_place_part *p = &f->p.parts[i];
	const gp_topo *t = &f->c.types[f->c.nodes[p->node].type].topo;

	return p->gpu_nic[k] >= 0 ? t->nics[p->gpu_nic[k]].device : "";
}

static void test_summary_rails(void)
{
	static const char *rails[8] = { "mlx5_0", "mlx5_3", "mlx5_4", "mlx5_5",
					"mlx5_6", "mlx5_9", "mlx5_10", "mlx5_11" };
	fixture f;
	gp_job j;
	gp_place_summary s;
	int k;

	/* 16 GPUs over both boxes (one NDR leaf).  Perf model: NV18 pairs
	 * 18 x 20.6 = 370.8 GB/s, and each GPU's 18 NVLinks cap the channels
	 * at 370.8 too; the network: all 12 NICs are at PIX of some GPU, so
	 * within GPUDirect reach: 12 x min(400 / 8 x 0.97, 48 for the NIC's
	 * PCIe Gen5 x16) = 576 > 370.8: the
	 * NVLink ring limits, on both the policy's fields and the summary. */
	fx_open(&f, "h100-nv18.yaml");
	job_of(&j, GP_JOB_RING_ALLREDUCE, 16);
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
	CU_ASSERT_EQUAL(f.p.nparts, 2);
	CU_ASSERT_EQUAL(f.p.bottleneck, GP_LINK_NV);
	CU_ASSERT_DOUBLE_EQUAL(f.p.ring_bw_gbs, 370.8, 1e-9);
	CU_ASSERT(explained(&f, "bottleneck (perf model): NV18 inside a node"));
	gp_place_summarize(&f.c, &f.p, &s);
	CU_ASSERT_STRING_EQUAL(s.name, "NV18");
	CU_ASSERT_EQUAL(s.nodes, 2);
	CU_ASSERT_EQUAL(s.net_levels, 1);
	CU_ASSERT_DOUBLE_EQUAL(s.net_gbs, 576.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(s.ring_gbs, 370.8, 1e-9);
	/* Rails: GPU0 sees NIC0-2 at PIX (the first), GPU1 NIC3, GPU2 NIC4,
	 * GPU3 NIC5, GPU4 NIC6-8 (the first), GPU5 NIC9, GPU6 NIC10, GPU7
	 * NIC11.  Each rail has one GPU: the part's NIC by the closest worst
	 * link (SYS for all), equal sums (PIX + 3 NODE + 4 SYS), no VFs used
	 * -> the lowest index, mlx5_0. */
	for (k = 0; k < 8; k++)
		CU_ASSERT_STRING_EQUAL(gpu_nic_name(&f, 0, k), rails[k]);
	CU_ASSERT_STRING_EQUAL(nic_name(&f, 0), "mlx5_0");
	CU_ASSERT(explained(&f, "GPU1-mlx5_3"));

	/* Two GPUs per box: a pair's ring 370.8, but each box reaches 4 NICs
	 * (NIC0-2 at PIX of GPU0, NIC3 of GPU1) x 48 = 192 GB/s -> the network
	 * limits: NDR, 1 switch level. */
	busy(&f, "h-a", 2, 3, 4, 5, 6, 7, -1);
	busy(&f, "h-b", 2, 3, 4, 5, 6, 7, -1);
	job_of(&j, GP_JOB_RING_ALLREDUCE, 4);
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "h-a", 0, 1, -1));
	CU_ASSERT(part_is(&f, 1, "h-b", 0, 1, -1));
	CU_ASSERT_EQUAL(f.p.bottleneck, GP_LINK_LEVELS + 1);
	CU_ASSERT_DOUBLE_EQUAL(f.p.ring_bw_gbs, 192.0, 1e-9);
	gp_place_summarize(&f.c, &f.p, &s);
	CU_ASSERT_STRING_EQUAL(s.name, "NET:ib-ndr:1");
	CU_ASSERT(explained(&f, "bottleneck (perf model): NET:ib-ndr:1"));
	/* GPU0 -> NIC0, GPU1 -> NIC3; both NODE at worst to the pair. */
	CU_ASSERT_STRING_EQUAL(gpu_nic_name(&f, 0, 0), "mlx5_0");
	CU_ASSERT_STRING_EQUAL(gpu_nic_name(&f, 0, 1), "mlx5_3");
	CU_ASSERT_STRING_EQUAL(nic_name(&f, 0), "mlx5_0");
	fx_close(&f);

	/* PS-Worker 2 + 6 on one box: the server part shares the node, so
	 * the summary sees one node (no network) and a ring over all 8. */
	fx_open(&f, "h100-nv18.yaml");
	job_of(&j, GP_JOB_PS_WORKER, 8);
	j.ps = 2;
	j.workers = 6;
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
	CU_ASSERT_EQUAL(f.p.nparts, 2);
	CU_ASSERT(part_is(&f, 0, "h-a", 2, 3, 4, 5, 6, 7, -1));
	CU_ASSERT(part_is(&f, 1, "h-a", 0, 1, -1));
	CU_ASSERT_EQUAL(f.p.parts[1].role, 1);
	gp_place_summarize(&f.c, &f.p, &s);
	CU_ASSERT_EQUAL(s.nodes, 1);
	CU_ASSERT_EQUAL(s.gpus, 8);
	CU_ASSERT_EQUAL(f.p.bottleneck, GP_LINK_NV);
	CU_ASSERT_DOUBLE_EQUAL(f.p.ring_bw_gbs, 370.8, 1e-9);
	/* The split is undone: the parts keep their own GPUs. */
	CU_ASSERT(part_is(&f, 0, "h-a", 2, 3, 4, 5, 6, 7, -1));
	CU_ASSERT(explained(&f, "parameter server on h-a"));
	fx_close(&f);
}

/* ---- nic-affinity (NIC-affinity classes) on H100 NV18 ---- */

static void test_nic_affinity(void)
{
	fixture f;
	gp_job j;

	/* Classes: GPUs 0-3 (NUMA-local NICs 0-5, subnet 10.1.0.0/16) and
	 * 4-7 (NICs 6-11, 10.2.0.0/16).  h-a: 0,1 busy -> votes 10.2 (4 vs
	 * 2); h-b: 4,5,6 busy -> votes 10.1 (4 vs 1).  Tie 1:1, most free:
	 * 10.1 has 2+4 = 6 > 5 -> 10.1.  2 GPUs: best fit in the class, h-a
	 * (0 left) -> {2,3}; NIC among NICs 0-5: NIC4 (PIX to GPU2, NODE to
	 * GPU3) = mlx5_4. */
	fx_open(&f, "h100-nv18.yaml");
	busy(&f, "h-a", 0, 1, -1);
	busy(&f, "h-b", 4, 5, 6, -1);
	job_of(&j, GP_JOB_SINGLE_NODE, 2);
	CU_ASSERT_EQUAL(run(&f, "nic-affinity", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "h-a", 2, 3, -1));
	CU_ASSERT_STRING_EQUAL(nic_name(&f, 0), "mlx5_4");
	CU_ASSERT_EQUAL(f.p.parts[0].vf, 0);
	CU_ASSERT(explained(&f, "class 10.1.0.0/16 requested"));
	CU_ASSERT(explained(&f, "class 10.2.0.0/16: 1 vote(s), 5 fitting GPU(s)"));
	/* bestfit, same state: least remaining node h-b (5000-2000), lowest
	 * mask of NV18 pairs {0,1}: it ignores the NIC classes. */
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "h-b", 0, 1, -1));

	/* The voted class can hold at most 4 per node: 5 -> WAIT. */
	job_of(&j, GP_JOB_SINGLE_NODE, 5);
	CU_ASSERT_EQUAL(run(&f, "nic-affinity", &j), GP_WAIT);
	CU_ASSERT(strstr(f.ex.reason, "10.1.0.0/16") != NULL);
	fx_close(&f);

	/* Empty: every node ties 4:4 and votes the first class (10.1); a
	 * ring of 6 spans both nodes inside it: h-a {0,1,2,3}, h-b {0,1};
	 * every NIC is one of NICs 0-5 (subnet 10.1). */
	fx_open(&f, "h100-nv18.yaml");
	job_of(&j, GP_JOB_RING_ALLREDUCE, 6);
	CU_ASSERT_EQUAL(run(&f, "nic-affinity", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "h-a", 0, 1, 2, 3, -1));
	CU_ASSERT(part_is(&f, 1, "h-b", 0, 1, -1));
	CU_ASSERT(f.p.parts[0].nic >= 0 && f.p.parts[0].nic <= 5);
	CU_ASSERT(f.p.parts[1].nic >= 0 && f.p.parts[1].nic <= 5);
	/* Fractional single GPU: 300 milli; votes 10.1 again; best fit in
	 * the class: both nodes leave 3 class GPUs; node remaining equal ->
	 * h-a, GPU0. */
	job_of(&j, GP_JOB_SINGLE_CARD, 1);
	j.gpu_milli = 300;
	CU_ASSERT_EQUAL(run(&f, "nic-affinity", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "h-a", 0, -1));
	CU_ASSERT_EQUAL(f.p.parts[0].milli, 300);
	fx_close(&f);

	/* 4-socket A100: GPUs 4-7 have no NUMA-local NIC (class -1). */
	fx_open(&f, "a100-4socket.yaml");
	busy(&f, "a", 0, 1, 2, 3, -1);
	busy(&f, "b", 0, 1, 2, 3, -1);
	job_of(&j, GP_JOB_SINGLE_CARD, 1);
	CU_ASSERT_EQUAL(run(&f, "nic-affinity", &j), GP_WAIT);
	CU_ASSERT(strstr(f.ex.reason, "NUMA-local RDMA NIC") != NULL);
	fx_close(&f);
}

/* ---- anchors ---- */

static void test_anchors_fractional(void)
{
	fixture f;
	gp_job j;
	int a0;

	/* DGX-1: a0 has 300 free, a1 500; everything else whole.  300 milli:
	 *   first-fit: a, GPU0 (first that fits)
	 *   packing: fullest node a, least free share that fits: GPU0
	 *   spread: least allocated node b, most free share: GPU0
	 *   gpu-pair-score: one GPU = the first fitting of the best node;
	 *     scores all 0, equal fitting counts (8) -> a, GPU0
	 *   bw-max: no bandwidth for one GPU; least remaining a -> GPU0 */
	fx_open(&f, "dgx1.yaml");
	a0 = f.c.nodes[0].first_gpu;
	CU_ASSERT_EQUAL(gp_alloc_take_gpu(&f.a, a0, 700, 0), 0);
	CU_ASSERT_EQUAL(gp_alloc_take_gpu(&f.a, a0 + 1, 500, 0), 0);
	job_of(&j, GP_JOB_SINGLE_CARD, 1);
	j.gpu_milli = 300;
	CU_ASSERT_EQUAL(run(&f, "first-fit", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "dgx1-a", 0, -1));
	CU_ASSERT_EQUAL(run(&f, "packing", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "dgx1-a", 0, -1));
	CU_ASSERT_EQUAL(run(&f, "spread", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "dgx1-b", 0, -1));
	CU_ASSERT_EQUAL(run(&f, "gpu-pair-score", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "dgx1-a", 0, -1));
	CU_ASSERT_EQUAL(run(&f, "bw-max", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "dgx1-a", 0, -1));
	CU_ASSERT_EQUAL(run(&f, "random", &j), GP_PLACED);
	CU_ASSERT_EQUAL(f.p.nparts, 1);
	CU_ASSERT_EQUAL(f.p.parts[0].milli, 300);
	/* 600 milli: a0/a1 too small. packing: a, least free share >= 600 is
	 * a whole GPU: GPU2.  bestfit: the same (leftover 400 everywhere,
	 * a has the least remaining). */
	j.gpu_milli = 600;
	CU_ASSERT_EQUAL(run(&f, "packing", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "dgx1-a", 2, -1));
	fx_close(&f);
}

static void test_anchors_multi(void)
{
	fixture f;
	gp_job j;
	gp_rng r1, r2;
	gp_placement keep;
	int i;

	fx_open(&f, "dgx1.yaml");
	busy(&f, "dgx1-a", 0, 1, 2, 3, 4, -1);  /* a: 3 free */
	busy(&f, "dgx1-b", 0, -1);              /* b: 7 free */
	job_of(&j, GP_JOB_RING_ALLREDUCE, 4);
	/* spread: one GPU at a time on the node with the most free: c(8) b(7)
	 * c(7) b(6) -> b 2, c 2; GPUs lowest index. */
	CU_ASSERT_EQUAL(run(&f, "spread", &j), GP_PLACED);
	CU_ASSERT_EQUAL(f.p.nparts, 2);
	CU_ASSERT(part_is(&f, 0, "dgx1-b", 1, 2, -1));
	CU_ASSERT(part_is(&f, 1, "dgx1-c", 0, 1, -1));
	/* packing: fullest node that holds 4: b (7 free). */
	CU_ASSERT_EQUAL(run(&f, "packing", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "dgx1-b", 1, 2, 3, 4, -1));
	/* 10 GPUs, packing: fullest first: a 3, b 7. */
	job_of(&j, GP_JOB_RING_ALLREDUCE, 10);
	CU_ASSERT_EQUAL(run(&f, "packing", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "dgx1-a", 5, 6, 7, -1));
	CU_ASSERT(part_is(&f, 1, "dgx1-b", 1, 2, 3, 4, 5, 6, 7, -1));
	/* first-fit: a 3, b 7. */
	CU_ASSERT_EQUAL(run(&f, "first-fit", &j), GP_PLACED);
	CU_ASSERT_EQUAL(f.p.nparts, 2);
	/* bw-max: no node holds 10: leaf0 (a+b = 10, weight 1). */
	CU_ASSERT_EQUAL(run(&f, "bw-max", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "dgx1-b", 1, 2, 3, 4, 5, 6, 7, -1));
	CU_ASSERT(part_is(&f, 1, "dgx1-a", 5, 6, 7, -1));
	/* random: same seed, same answer; all 10 distinct free GPUs. */
	gp_rng_seed(&r1, 7);
	r2 = r1;
	f.rng = r1;
	CU_ASSERT_EQUAL(run(&f, "random", &j), GP_PLACED);
	gp_placement_init(&keep);
	for (i = 0; i < f.p.nparts; i++)
		gp_place_add_part(&keep, f.p.parts[i].node, 0, &j)->ngpus = f.p.parts[i].ngpus;
	f.rng = r2;
	CU_ASSERT_EQUAL(run(&f, "random", &j), GP_PLACED);
	CU_ASSERT_EQUAL(keep.nparts, f.p.nparts);
	for (i = 0; i < keep.nparts && i < f.p.nparts; i++) {
		CU_ASSERT_EQUAL(keep.parts[i].node, f.p.parts[i].node);
		CU_ASSERT_EQUAL(keep.parts[i].ngpus, f.p.parts[i].ngpus);
	}
	gp_placement_release(&keep);
	/* WAIT everywhere for 30 GPUs. */
	job_of(&j, GP_JOB_RING_ALLREDUCE, 30);
	CU_ASSERT_EQUAL(run(&f, "first-fit", &j), GP_WAIT);
	CU_ASSERT_EQUAL(run(&f, "random", &j), GP_WAIT);
	CU_ASSERT_EQUAL(run(&f, "spread", &j), GP_WAIT);
	CU_ASSERT_EQUAL(run(&f, "packing", &j), GP_WAIT);
	CU_ASSERT_EQUAL(run(&f, "gpu-pair-score", &j), GP_WAIT);
	CU_ASSERT_EQUAL(run(&f, "bw-max", &j), GP_WAIT);
	CU_ASSERT_EQUAL(run(&f, "nic-affinity", &j), GP_WAIT);
	fx_close(&f);
}

static void test_gpu_pair_score(void)
{
	fixture f;
	gp_job j;

	/* NVSwitch counted: h100 pair {0,1} = NV18 1800 + same NUMA (NODE)
	 * 20 = 1820; k80 {0,1} PIX 50; rig {1,2} PHB 30.  go-gpuallocator
	 * would see 0 NVLink lanes to a GPU on the h100 and pick the k80. */
	fx_open(&f, "pcie-mixed.yaml");
	job_of(&j, GP_JOB_SINGLE_NODE, 2);
	CU_ASSERT_EQUAL(run(&f, "gpu-pair-score", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "h100", 0, 1, -1));
	CU_ASSERT(explained(&f, "set score 1820"));
	/* Without the h100: k80 {0,1} (50) beats rig {1,2} (30). */
	busy(&f, "h100", 0, 1, 2, 3, 4, 5, 6, 7, -1);
	CU_ASSERT_EQUAL(run(&f, "gpu-pair-score", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "k80", 0, 1, -1));
	fx_close(&f);

	/* DGX-1, 2 GPUs.  Pair score = 100 per NVLink + PCIe points, the PCIe
	 * level inferred through the NICs: 0-1, 2-3, 4-5, 6-7 PIX (50; one
	 * mlx5 sees both at PIX), other pairs in a socket PHB (30), across
	 * SYS (10).  So 2-3 = 6-7 = 250, 0-3 = 1-2 = 4-7 = 5-6 = 230, 0-4 =
	 * 1-5 = 210, 0-1 = 4-5 = 150.  Best split into pairs: {0,3}{1,2}{4,7}
	 * {5,6} = 920 = {0,4}{1,5}{2,3}{6,7}; the first found (GPU0's partner
	 * tried in index order) is {0,3}..., whose first best set is {0,3} --
	 * not the single best pair {2,3} (250): the partition rule at work. */
	fx_open(&f, "dgx1.yaml");
	CU_ASSERT_EQUAL(run(&f, "gpu-pair-score", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "dgx1-a", 0, 3, -1));
	fx_close(&f);

	/* Every split weighed, however many.  DGX-2 layout, GPU1 busy, 2
	 * GPUs: NV6 (600) between every two, PCIe inferred through the NICs:
	 * 2i-2i+1 PIX (50), in a quad PXB (40), in a socket NODE (20), across
	 * SYS (10).  Fifteen GPUs and one padding slot: seven pairs and
	 * GPU0 beside the padding score 7 x 650 = 4550, the best split
	 * (GPU0 with any GPU leaves that GPU's partner beside the padding:
	 * 640 + 6 x 650 = 4540 at most); its first best set is {2,3}.  That
	 * split comes last among the 2,027,025 (GPU0 is tried with every GPU
	 * before the padding); the first 200,000 hold only 4540s, whose
	 * first, {0,2} {3,-} {4,5} ..., gives {4,5}. */
	fx_open(&f, "dgx2-layout.yaml");
	busy(&f, "d2-a", 1, -1);
	CU_ASSERT_EQUAL(run(&f, "gpu-pair-score", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "d2-a", 2, 3, -1));
	CU_ASSERT(explained(&f, "set score 650"));
	CU_ASSERT_EQUAL(gp_place_pair_scan(gp_place_type_of(f.pc, 0), 0xfffd, 2, 200000), 0x30);
	/* GPU2 busy too (the type remembers answers by free GPUs): GPU0
	 * and GPU3 pair in their quad (640), the rest by switch; the first
	 * best set is {4,5} */
	busy(&f, "d2-a", 2, -1);
	CU_ASSERT_EQUAL(run(&f, "gpu-pair-score", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "d2-a", 4, 5, -1));
	fx_close(&f);
}

static void test_bw_max(void)
{
	fixture f;
	gp_job j;

	/* 2 GPUs: h100 NV18 = 370.8 GB/s beats k80 PIX (12) and rig PHB. */
	fx_open(&f, "pcie-mixed.yaml");
	job_of(&j, GP_JOB_SINGLE_NODE, 2);
	CU_ASSERT_EQUAL(run(&f, "bw-max", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "h100", 0, 1, -1));
	fx_close(&f);
	/* DGX-1, 2 GPUs: an NV2 pair (40 GB/s); equal pairs by sum, then the
	 * lowest mask {1,2}. */
	fx_open(&f, "dgx1.yaml");
	CU_ASSERT_EQUAL(run(&f, "bw-max", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "dgx1-a", 1, 2, -1));
	CU_ASSERT_DOUBLE_EQUAL(f.p.ring_bw_gbs, 40.0, 1e-9);
	fx_close(&f);
}

/* The link between the CPU sockets caps a SYS pair in placement scoring
 * as in the perf model: 8 x RTX 4090 (PCIe Gen4, 24 GB/s), every pair
 * SYS; a consumer card has no peer access, so a pair is staged through
 * host memory, 0.8 x 24 = 19.2, and across the sockets at most their
 * link: without socket_gbs NCCL's default 16 GB/s, Skylake sockets 10,
 * Sapphire Rapids 22 (the staging, 19.2, binds). */
static void test_bw_max_socket_link(void)
{
	static const double socket[] = { 0, 10, 22 }, want[] = { 16, 10, 19.2 };
	size_t i;

	for (i = 0; i < sizeof(socket) / sizeof(socket[0]); i++) {
		fixture f;
		const gp_place_type *t;

		fx_open(&f, "rtx4090.yaml");
		f.c.types[0].topo.socket_gbs = socket[i];
		gp_place_cache_free(f.pc);
		f.pc = gp_place_cache_new(&f.c);
		t = gp_place_type_of(f.pc, 0);
		CU_ASSERT_EQUAL_FATAL(GP_EXPENSE_LEVEL(t->expense[0][1]), GP_LINK_SYS);
		CU_ASSERT_DOUBLE_EQUAL(gp_place_ring_gbs(t, 0x3), want[i], 1e-9);
		fx_close(&f);
	}
}

/* bw-max ranks GPU sets by the perf model's ring (staged.yaml): a K80
 * box, PCIe Gen3 x16 = 12 GB/s, boards {0,1} and {2,3} each behind a
 * PCIe switch (PIX), SOC across; peer access only between GPU2 and GPU3.
 *   {0,1}: staged through host memory, 0.8 x 12 = 9.6 per hop, and both
 *          hops (0->1, 1->0) go up and down board 0's uplink: 12 / 2 = 6;
 *   {2,3}: peer access over the switch: 12;
 *   across boards: staged, min(9.6, socket link 16) = 9.6, one flow each
 *          way through each board's uplink: 9.6.
 * Two GPUs: {2,3} (12), where the link levels alone tie {0,1} with it and
 * its lower mask won.  Three GPUs: a ring through {0,1} sends two flows
 * each way through board 0's uplink (6); {0,2,3} and {1,2,3} stage only
 * 0->2 and 3->0 (or 1's), 9.6; equal sums (600 + 600 + 200), the lower
 * mask {0,2,3}. */
static void test_bw_max_staged(void)
{
	fixture f;
	gp_job j;

	fx_open(&f, "staged.yaml");
	job_of(&j, GP_JOB_SINGLE_NODE, 2);
	CU_ASSERT_EQUAL(run(&f, "bw-max", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "k80", 2, 3, -1));
	CU_ASSERT_DOUBLE_EQUAL(f.p.ring_bw_gbs, 12.0, 1e-9);
	job_of(&j, GP_JOB_SINGLE_NODE, 3);
	CU_ASSERT_EQUAL(run(&f, "bw-max", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "k80", 0, 2, 3, -1));
	CU_ASSERT_DOUBLE_EQUAL(f.p.ring_bw_gbs, 9.6, 1e-9);
	/* GPU3 taken: {0,2} and {1,2} (9.6) before {0,1} (6). */
	busy(&f, "k80", 3, -1);
	job_of(&j, GP_JOB_SINGLE_NODE, 2);
	CU_ASSERT_EQUAL(run(&f, "bw-max", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "k80", 0, 2, -1));
	CU_ASSERT_DOUBLE_EQUAL(f.p.ring_bw_gbs, 9.6, 1e-9);
	fx_close(&f);
}

/* bw-max over several nodes ranks switch groups by the perf model's
 * network rate (ecmp.yaml): two DGX-1 (4 NICs at PIX of their GPUs)
 * under an InfiniBand spine with static routing, two under one RoCE
 * leaf, both 100 Gb/s: 4 x 100 / 8 x 0.94 = 47 GB/s a node.  Across
 * the spine flows are hashed over two switch tiers, 47 / (1 + 0.4) =
 * 33.6; the RoCE leaf keeps 47.  The communication weights (InfiniBand 2 for the
 * spine, Ethernet 100 for the leaf) would take the spine. */
static void test_bw_max_ecmp(void)
{
	fixture f;
	gp_job j;

	fx_open(&f, "ecmp.yaml");
	job_of(&j, GP_JOB_RING_ALLREDUCE, 16);
	CU_ASSERT_EQUAL(run(&f, "bw-max", &j), GP_PLACED);
	CU_ASSERT_EQUAL(f.p.nparts, 2);
	CU_ASSERT(part_is(&f, 0, "roce-1", 0, 1, 2, 3, 4, 5, 6, 7, -1));
	CU_ASSERT(part_is(&f, 1, "roce-2", 0, 1, 2, 3, 4, 5, 6, 7, -1));
	CU_ASSERT_DOUBLE_EQUAL(f.p.ring_bw_gbs, 47.0, 1e-9);
	/* bestfit keeps the seed rule: the spine, weight 2. */
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "ib-1", 0, 1, 2, 3, 4, 5, 6, 7, -1));
	CU_ASSERT_DOUBLE_EQUAL(f.p.ring_bw_gbs, 47.0 / 1.4, 1e-9);
	fx_close(&f);
}

/* Over 16 GPUs a node type has no per-subset ring table: bw-max asks the
 * perf model through a bounded cache (wide20.yaml: 20 V100, NV4 between
 * GPUs 2i and 2i+1, PHB within a half of ten, SYS across).  NV4: 4 links
 * x 20 GB/s = 80; PHB: no peer access through the host bridge, staged
 * through host memory, 0.8 x 12 (PCIe Gen3) = 9.6; across the sockets
 * the same staging, under the socket link's 16.  A 2-GPU job with GPU0
 * taken: the NV4 pair {2,3} (80) before {1,2} (9.6).  A set whose slot
 * another took is asked again, never answered with the other's ring. */
static void test_bw_max_wide(void)
{
	static const int sets[][2] = { { 0, 1 }, { 0, 2 }, { 0, 10 }, { 4, 5 }, { 9, 10 } };
	fixture f;
	gp_job j;
	const gp_place_type *t;
	gp_link hop;
	uint64_t other;
	int i, n, pass, og[20];

	fx_open(&f, "wide20.yaml");
	t = gp_place_type_of(f.pc, 0);
	CU_ASSERT_EQUAL_FATAL(t->ngpus, 20);
	CU_ASSERT_PTR_NULL(t->ring_gbs);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t->ring_slot);
	/* a 2-GPU set sharing {0,1}'s slot */
	for (other = 0x5; other < (1ull << 20); other++)
		if (other != 0x3 && gp_place_ring_slot_of(other) == gp_place_ring_slot_of(0x3))
			break;
	CU_ASSERT_FATAL(other < (1ull << 20));
	for (n = 0, i = 0; i < 20; i++)
		if (other >> i & 1)
			og[n++] = i;
	for (pass = 0; pass < 2; pass++) {
		CU_ASSERT_DOUBLE_EQUAL(gp_place_ring_hop(t, 0x3, &hop), 80, 1e-9);
		CU_ASSERT_EQUAL(hop.level, GP_LINK_NV);
		CU_ASSERT_EQUAL(hop.nvlinks, 4);
		CU_ASSERT_DOUBLE_EQUAL(gp_place_ring_hop(t, 0x5, &hop), 9.6, 1e-9);
		CU_ASSERT_EQUAL(hop.level, GP_LINK_PHB);
		CU_ASSERT_DOUBLE_EQUAL(gp_place_ring_hop(t, 1ull | 1ull << 10, &hop), 9.6, 1e-9);
		CU_ASSERT_EQUAL(hop.level, GP_LINK_SYS);
		/* the set in {0,1}'s slot now: its own ring */
		CU_ASSERT_DOUBLE_EQUAL(gp_place_ring_gbs(t, other),
				       gp_perf_ring_gbs(t->topo, t->model, og, n, NULL, NULL, NULL), 1e-12);
	}
	for (i = 0; i < (int)(sizeof(sets) / sizeof(sets[0])); i++)
		CU_ASSERT_DOUBLE_EQUAL(gp_place_ring_gbs(t, 1ull << sets[i][0] | 1ull << sets[i][1]),
				       gp_perf_ring_gbs(t->topo, t->model, sets[i], 2, NULL, NULL, NULL), 1e-12);
	busy(&f, "w20-a", 0, -1);
	job_of(&j, GP_JOB_SINGLE_NODE, 2);
	CU_ASSERT_EQUAL(run(&f, "bw-max", &j), GP_PLACED);
	CU_ASSERT(part_is(&f, 0, "w20-a", 2, 3, -1));
	CU_ASSERT_DOUBLE_EQUAL(f.p.ring_bw_gbs, 80.0, 1e-9);
	fx_close(&f);
}

/* wide32.yaml: 32 V100 in two halves of sixteen, NV6 inside a half (6 x
 * 20 = 120 GB/s; each GPU's 6 NVLinks cap an all-NVLink ring at 120 too),
 * SYS across (staged through host memory: 0.8 x 12 = 9.6, under the
 * socket link's 16).  Sixteen GPUs free, an 8-GPU job: 12,870 sets, which
 * the branch and bound must rank as the scan does.
 *   - 9 free in the first half, 7 in the second: every 8 of the first
 *     half rings at 120 with the same sums (28 NV6 pairs of expense 94):
 *     the lowest mask, its 8 lowest GPUs;
 *   - 7 and 9: the 8 lowest of the second half;
 *   - 6 and 10 taken as 6 and 6 (four more busy): every set crosses the
 *     halves (9.6 GB/s); fewest SYS pairs with a + b = 8, a, b <= 6 is 6
 *     and 2 either way (12 SYS pairs x 600 + 16 NV6 x 94), the lower mask
 *     the six of the first half and the two lowest of the second.
 * The same sets by summed expense (bestfit) and, where a half holds the
 * job, by NIC class (nic-affinity: a class is a half). */
static void test_group_search_wide(void)
{
	static const int busy1[] = { 0, 2, 5, 7, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 31, -1 };
	static const int busy2[] = { 0, 1, 2, 4, 6, 8, 10, 12, 14, 17, 19, 21, 23, 25, 29, 30, -1 };
	static const int busy3[] = { 0, 1, 2, 3, 5, 7, 9, 11, 13, 14, 16, 17, 18, 20, 22, 24, 26, 28, 29, 30, -1 };
	static const char *const pol[] = { "bw-max", "bestfit", "nic-affinity" };
	const int *b[] = { busy1, busy2, busy3 };
	fixture f;
	gp_job j;
	int s, i, p;

	for (s = 0; s < 3; s++)
		for (p = 0; p < 3; p++) {
			fx_open(&f, "wide32.yaml");
			for (i = 0; b[s][i] >= 0; i++)
				CU_ASSERT_EQUAL(gp_alloc_take_gpu(&f.a, b[s][i], GP_MILLI, 0), 0);
			job_of(&j, GP_JOB_SINGLE_NODE, 8);
			if (p == 2 && s == 2) {
				/* NIC classes are the halves: none holds 8 */
				CU_ASSERT_EQUAL(run(&f, pol[p], &j), GP_WAIT);
				fx_close(&f);
				continue;
			}
			CU_ASSERT_EQUAL_FATAL(run(&f, pol[p], &j), GP_PLACED);
			if (s == 0)
				CU_ASSERT(part_is(&f, 0, "w32-a", 1, 3, 4, 6, 8, 9, 11, 13, -1));
			if (s == 1)
				CU_ASSERT(part_is(&f, 0, "w32-a", 16, 18, 20, 22, 24, 26, 27, 28, -1));
			if (s == 2)
				CU_ASSERT(part_is(&f, 0, "w32-a", 4, 6, 8, 10, 12, 15, 19, 21, -1));
			if (p == 0)
				CU_ASSERT_DOUBLE_EQUAL(f.p.ring_bw_gbs, s < 2 ? 120.0 : 9.6, 1e-9);
			fx_close(&f);
		}
}

static uint64_t binom(int n, int k)
{
	uint64_t r = 1;
	int i;

	for (i = 1; i <= k; i++)
		r = r * (uint64_t)(n - k + i) / (uint64_t)i;
	return r;
}

/* Over 16 GPUs the group search is a branch and bound: over random free
 * GPUs (and, for worker replacement, GPUs a member holds already) of the
 * 20-, 24- and 32-GPU types, every job size 1..16 and every ranking, the
 * same set as the scan of every subset.  GP_TEST_GROUP_CAP (default
 * 2000) bounds the subsets of one comparison (up to the search's 20,000)
 * and, when given, compares rings over more than 6 GPUs on all of them
 * (by default only where there are at most 20 sets);
 * GP_TEST_GROUP_STATES (default 20) is the number of states per type. */
static void test_group_search_same(void)
{
	static const char *const files[] = { "wide20.yaml", "wide24.yaml", "wide32.yaml" };
	const char *e = getenv("GP_TEST_GROUP_CAP");
	uint64_t cap = e ? strtoull(e, NULL, 10) : 2000;
	long states = (e = getenv("GP_TEST_GROUP_STATES")) ? strtol(e, NULL, 10) : 20, compared = 0, differ = 0;
	int fi, all_bw = getenv("GP_TEST_GROUP_CAP") != NULL;

	for (fi = 0; fi < 3; fi++) {
		fixture f;
		const gp_place_type *t;
		long st;

		fx_open(&f, files[fi]);
		t = gp_place_type_of(f.pc, 0);
		CU_ASSERT_PTR_NULL_FATAL(t->masks);
		for (st = 0; st < states; st++) {
			uint64_t avail = 0, base = 0;
			int g, k, kind, nf, pfree = 25 + (int)gp_rng_below(&f.rng, 50);

			for (g = 0; g < t->ngpus; g++)
				if ((int)gp_rng_below(&f.rng, 100) < pfree)
					avail |= 1ull << g;
			/* a third of the states grow a member of 1..3 GPUs */
			for (g = 0; st % 3 == 2 && g < 3; g++) {
				int x = (int)gp_rng_below(&f.rng, (uint64_t)t->ngpus);

				if (!(avail >> x & 1) && (g == 0 || gp_rng_below(&f.rng, 2)))
					base |= 1ull << x;
			}
			nf = gp_popcount64(avail);
			for (k = 1; k <= 16 && k < nf; k++) {
				if (binom(nf, k) > cap || binom(nf, k) > 20000)
					continue;
				for (kind = GP_GROUP_SUM; kind <= GP_GROUP_BW; kind++) {
					uint64_t a, want;

					/* a ring over 7..12 GPUs costs the perf model an
					 * exact loop search per set: few of them by default */
					if (kind == GP_GROUP_BW && !all_bw && k > 6 && binom(nf, k) > 20)
						continue;
					a = gp_place_best_join(t, base, avail, k, kind);
					want = gp_place_group_scan(t, base, avail, k, kind);

					compared++;
					if (a != want) {
						differ++;
						fprintf(stderr, "%s base %#llx avail %#llx k %d kind %d: %#llx, scan %#llx\n",
							files[fi], (unsigned long long)base, (unsigned long long)avail,
							k, kind, (unsigned long long)a, (unsigned long long)want);
					}
				}
			}
		}
		fx_close(&f);
	}
	if (getenv("GP_TEST_VERBOSE"))
		fprintf(stderr, "group search: %ld comparisons, %ld differ\n", compared, differ);
	CU_ASSERT(compared >= 100);
	CU_ASSERT_EQUAL(differ, 0);
}

/* The splits gpu-pair-score weighs: avail of f GPUs padded to a multiple
 * of k, cut into sets of k, the padding all in one set (saturates at
 * UINT64_MAX). */
static uint64_t pair_splits(int f, int k)
{
	int pad = (k - f % k) % k, n, i;
	double r = 1;

	if (pad) {
		r = (double)binom(f, k - pad);
		f -= k - pad;
	}
	/* f! / (k!^(f/k) (f/k)!): the set holding the lowest GPU, then the rest */
	for (n = f; n > 0; n -= k)
		for (i = 1; i < k; i++)
			r = r * (n - i) / i;
	return r >= 1.8e19 ? UINT64_MAX : (uint64_t)(r + 0.5);
}

/* gpu-pair-score searches the splits of a node's fitting GPUs by branch
 * and bound: over node types of 8, 10, 16, 20, 24 and 32 GPUs, free sets
 * growing one GPU at a time in random order, every job size 1..16 whose
 * splits the enumeration can weigh (GP_TEST_PAIR_CAP, default 20,000
 * splits), the same set as the enumeration of every split.
 * GP_TEST_PAIR_STATES (default 3) orders per type. */
static void test_pair_search_same(void)
{
	static const char *const files[] = { "dgx1.yaml", "wide10.yaml", "dgx2-layout.yaml",
					     "wide20.yaml", "wide24.yaml", "wide32.yaml" };
	const char *e = getenv("GP_TEST_PAIR_CAP");
	uint64_t cap = e ? strtoull(e, NULL, 10) : 20000;
	long states = (e = getenv("GP_TEST_PAIR_STATES")) ? strtol(e, NULL, 10) : 3, compared = 0, differ = 0;
	long big = 0;
	int fi;

	CU_ASSERT_EQUAL(pair_splits(8, 2), 105);
	CU_ASSERT_EQUAL(pair_splits(8, 3), 280);
	CU_ASSERT_EQUAL(pair_splits(13, 3), 200200);
	CU_ASSERT_EQUAL(pair_splits(15, 2), 2027025);
	for (fi = 0; fi < 6; fi++) {
		fixture f;
		const gp_place_type *t;
		long st;

		fx_open(&f, files[fi]);
		t = gp_place_type_of(f.pc, 0);
		for (st = 0; st < states; st++) {
			int order[GP_TOPO_MAX_GPUS], g, nf;
			uint64_t avail = 0;

			for (g = 0; g < t->ngpus; g++)
				order[g] = g;
			for (g = t->ngpus - 1; g > 0; g--) {
				int x = (int)gp_rng_below(&f.rng, (uint64_t)g + 1), y = order[g];

				order[g] = order[x];
				order[x] = y;
			}
			for (nf = 1; nf <= t->ngpus; nf++) {
				int k;

				avail |= 1ull << order[nf - 1];
				for (k = 1; k <= 16 && k <= nf; k++) {
					uint64_t a, want;

					/* the enumeration also steps over every set
					 * holding part of the padding */
					if (pair_splits(nf, k) > cap ||
					    binom(nf + (k - nf % k) % k - 1, k - 1) > cap)
						continue;
					a = k == 1 ? avail & -avail : gp_place_pair_search(t, avail, k);
					want = gp_place_pair_scan(t, avail, k, -1);
					compared++;
					big += nf > 16;
					if (a != want) {
						differ++;
						fprintf(stderr, "%s avail %#llx k %d: %#llx, enumeration %#llx\n",
							files[fi], (unsigned long long)avail, k,
							(unsigned long long)a, (unsigned long long)want);
					}
				}
			}
		}
		fx_close(&f);
	}
	if (getenv("GP_TEST_VERBOSE"))
		fprintf(stderr, "pair search: %ld comparisons (%ld over 16 free GPUs), %ld differ\n",
			compared, big, differ);
	CU_ASSERT(compared >= 500);
	CU_ASSERT_EQUAL(differ, 0);
}

/* ---- every policy: reachability ---- */

/* Whether every part of the placement can reach part 0 (communication weight >= 0). */
static int all_reachable(fixture *f)
{
	int i;

	for (i = 1; i < f->p.nparts; i++)
		if (gp_cluster_comm_weight(&f->c, f->p.parts[0].node, f->p.parts[i].node) < 0)
			return 0;
	return 1;
}

static void test_reachability_all_policies(void)
{
	int n, i, type;
	const gp_policy *list = gp_policy_list(&n);

	for (i = 0; i < n; i++) {
		for (type = 0; type < 2; type++) {
			fixture f;
			gp_job j;

			/* k80-ib has 3 free GPUs (fullest: packing's and
			 * first-fit's first pick), the Ethernet pair 8: a 6-GPU
			 * job fits only on k80-e1 + k80-e2, 4 + 2. */
			fx_open(&f, "unreach.yaml");
			busy(&f, "k80-ib", 0, -1);
			/* nic-affinity too: a K80 box has one NIC, so it is one
			 * resource class, its GPUs far from the NIC included. */
			job_of(&j, type ? GP_JOB_PS_WORKER : GP_JOB_RING_ALLREDUCE, 6);
			if (type)
				j.ps = 1;
			CU_ASSERT_EQUAL(run(&f, list[i].name, &j), GP_PLACED);
			CU_ASSERT(all_reachable(&f));
			CU_ASSERT_EQUAL(f.p.nparts > 0 ? f.p.parts[0].node == gp_cluster_find_node(&f.c, "k80-ib") : 1, 0);
			if (!all_reachable(&f) || f.p.nparts == 0)
				fprintf(stderr, "\n  policy %s (type %d) crossed trees or waited: %s\n", list[i].name, j.type, f.ex.reason);
			/* Now k80-e2 is full: 3 + 4 free GPUs in two trees, no
			 * tree holds the job: every policy waits. */
			busy(&f, "k80-e2", 0, 1, 2, 3, -1);
			CU_ASSERT_EQUAL(run(&f, list[i].name, &j), GP_WAIT);
			if (f.p.nparts == 0 && f.ex.reason[0] == '\0')
				fprintf(stderr, "\n  policy %s: no reason\n", list[i].name);
			fx_close(&f);
		}
	}
}

/* 8 x RTX 4090, all pairs SYS, GPU0-3 on NUMA 0 and
 * GPU4-7 on NUMA 1.  With GPU0-2 busy, NUMA 0 has one free GPU (3) and
 * NUMA 1 four: a 2-GPU PS-Worker job belongs under one CPU, {4,5} (the
 * lowest pair of the socket that holds it), never GPU3 + GPU4. */
static void test_allsys_sockets(void)
{
	/* gpu-pair-score (go-gpuallocator) scores links only, on purpose. */
	static const char *pols[] = { "bestfit" };
	size_t i;

	for (i = 0; i < sizeof(pols) / sizeof(pols[0]); i++) {
		fixture f;
		gp_job j;

		fx_open(&f, "rtx4090.yaml");
		busy(&f, "r4090", 0, 1, 2, -1);
		job_of(&j, GP_JOB_PS_WORKER, 2);
		j.ps = 1;
		CU_ASSERT_EQUAL(run(&f, pols[i], &j), GP_PLACED);
		CU_ASSERT_EQUAL(f.p.nparts, 2);
		if (f.p.nparts == 2) {
			int a = f.p.parts[0].gpus[0], b = f.p.parts[1].gpus[0];

			CU_ASSERT((a >= 4) == (b >= 4));
			if ((a >= 4) != (b >= 4))
				fprintf(stderr, "\n  %s: GPU%d + GPU%d across sockets\n", pols[i], a, b);
		}
		fx_close(&f);
	}
}

/* Each GPU's default 4 cores from its own NUMA node. */
static int cpus_are(fixture *f, int i, const int *want, int n)
{
	int k;

	if (i >= f->p.nparts || f->p.parts[i].ncpus != n)
		return 0;
	for (k = 0; k < n; k++)
		if (f->p.parts[i].cpus[k] != want[k])
			return 0;
	return 1;
}

static void test_cpus_per_numa(void)
{
	/* DGX A100, 4 sockets: GPU0-1 NUMA 0 (0-19,80-99), GPU2-3 NUMA 1
	 * (20-39,...), GPU4-5 NUMA 2 (40-59,...), GPU6-7 NUMA 3 (60-79,...).
	 * 8 GPUs x 4 cores: the four lowest of each GPU's node, in GPU order. */
	static const int dgx[] = { 0, 1, 2, 3, 4, 5, 6, 7, 20, 21, 22, 23, 24, 25, 26, 27,
				   40, 41, 42, 43, 44, 45, 46, 47, 60, 61, 62, 63, 64, 65, 66, 67 };
	/* 8 x RTX 4090 with GPU1-3 and GPU5-7 busy: a 2-GPU job gets GPU0
	 * (NUMA 0: 0-55,112-167) and GPU4 (NUMA 1: 56-111,168-223). */
	static const int r4090[] = { 0, 1, 2, 3, 56, 57, 58, 59 };
	fixture f;
	gp_job j;

	fx_open(&f, "a100-4socket.yaml");
	job_of(&j, GP_JOB_SINGLE_NODE, 8);
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
	CU_ASSERT(cpus_are(&f, 0, dgx, 32));
	/* Four NUMA nodes under one part: no single --membind. */
	CU_ASSERT_EQUAL(f.p.parts[0].numa, -1);
	CU_ASSERT(explained(&f, "40-47 for GPU4,GPU5 (NUMA 2)"));
	fx_close(&f);

	fx_open(&f, "rtx4090.yaml");
	busy(&f, "r4090", 1, 2, 3, 5, 6, 7, -1);
	job_of(&j, GP_JOB_SINGLE_NODE, 2);
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
	CU_ASSERT(cpus_are(&f, 0, r4090, 8));
	CU_ASSERT(explained(&f, "CPUs 0-3 for GPU0 (NUMA 0), 56-59 for GPU4 (NUMA 1)"));
	fx_close(&f);
	/* One GPU on NUMA 1: its part says NUMA 1 and its cores are NUMA 1's. */
	fx_open(&f, "rtx4090.yaml");
	busy(&f, "r4090", 0, 1, 2, 3, -1);
	job_of(&j, GP_JOB_SINGLE_NODE, 1);
	CU_ASSERT_EQUAL(run(&f, "bestfit", &j), GP_PLACED);
	CU_ASSERT_EQUAL(f.p.parts[0].numa, 1);
	CU_ASSERT(f.p.parts[0].ncpus == 4 && f.p.parts[0].cpus[0] == 56);
	fx_close(&f);
}

/* NIC-affinity classes split a NIC into as many VFs as it has
 * NUMA-local GPUs.  The K80 box's mlx5_0 is PHB to GPU2-3 and SOC to
 * GPU0-1: 2 VFs, so the third job on the node gets none. */
static void test_vfs_per_affine_gpu(void)
{
	int vfs[3], i;
	fixture f;
	gp_job j;

	fx_open(&f, "unreach.yaml");
	busy(&f, "k80-e1", 0, 1, 2, 3, -1);
	busy(&f, "k80-e2", 0, 1, 2, 3, -1);
	job_of(&j, GP_JOB_SINGLE_CARD, 1);
	for (i = 0; i < 3; i++) {
		CU_ASSERT_EQUAL_FATAL(run(&f, "bestfit", &j), GP_PLACED);
		CU_ASSERT_EQUAL(f.p.parts[0].node, gp_cluster_find_node(&f.c, "k80-ib"));
		vfs[i] = f.p.parts[0].vf;
		CU_ASSERT_EQUAL(gp_placement_apply(&f.a, &f.p), 0);
	}
	CU_ASSERT_EQUAL(vfs[0], 0);
	CU_ASSERT_EQUAL(vfs[1], 1);
	CU_ASSERT_EQUAL(vfs[2], -1);
	CU_ASSERT(explained(&f, "no free VF (its 2, one per NUMA-local GPU, are taken)"));
	fx_close(&f);
}

static void test_registry(void)
{
	static const char *names[] = { "bestfit", "nic-affinity", "first-fit", "random",
				       "spread", "packing", "gpu-pair-score", "bw-max" };
	int n, i;
	const gp_policy *list = gp_policy_list(&n);

	CU_ASSERT(n >= 8);
	CU_ASSERT_STRING_EQUAL(list[0].name, "bestfit");
	for (i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++)
		CU_ASSERT_PTR_NOT_NULL(gp_policy_find(names[i]));
}

/* ---- the allocation index answers like a plain scan ---- */

/* Whether placements p and q are the same, part by part. */
static int same_placement(const gp_placement *p, const gp_placement *q)
{
	int i;

	if (p->nparts != q->nparts)
		return 0;
	for (i = 0; i < p->nparts; i++) {
		const gp_place_part *a = &p->parts[i], *b = &q->parts[i];

		if (a->node != b->node || a->ngpus != b->ngpus || a->ncpus != b->ncpus ||
		    a->nic != b->nic || a->vf != b->vf || a->role != b->role ||
		    memcmp(a->gpus, b->gpus, (size_t)a->ngpus * sizeof(int)) ||
		    (a->ncpus && memcmp(a->cpus, b->cpus, (size_t)a->ncpus * sizeof(int))))
			return 0;
	}
	return 1;
}

/* Random occupancy: whole GPUs taken, some shared, some with memory
 * taken, host CPUs and memory taken, nodes down or draining. */
static void random_state(fixture *f, gp_rng *r, int fill)
{
	int node, g;

	for (node = 0; node < f->c.nnodes; node++) {
		const gp_node *n = &f->c.nodes[node];
		int odd = gp_rng_below(r, 100) < 15;

		for (g = 0; g < n->ngpus; g++) {
			int gpu = n->first_gpu + g;

			if ((int)gp_rng_below(r, 100) < fill)
				gp_alloc_take_gpu(&f->a, gpu, GP_MILLI, 0);
			else if (odd && gp_rng_below(r, 3) == 0)
				gp_alloc_take_gpu(&f->a, gpu, 250 * (int)(1 + gp_rng_below(r, 3)), 1024);
			else if (odd && gp_rng_below(r, 4) == 0)
				gp_alloc_take_gpu(&f->a, gpu, 0, 2048);
		}
		if (gp_rng_below(r, 10) == 0)
			f->a.node_free_cpu_milli[node] = (int64_t)gp_rng_below(r, 8) * GP_MILLI;
		if (gp_rng_below(r, 12) == 0)
			gp_alloc_set_state(&f->a, node, (int)(1 + gp_rng_below(r, 2)));
	}
}

static void random_job(gp_job *j, gp_rng *r)
{
	static const int types[] = { GP_JOB_SINGLE_CARD, GP_JOB_SINGLE_NODE, GP_JOB_RING_ALLREDUCE,
				     GP_JOB_PS_WORKER };
	static char v100[] = "V100-SXM2-16GB|K80";

	job_of(j, types[gp_rng_below(r, 4)], 1);
	j->gpus = j->type == GP_JOB_SINGLE_CARD ? 1 : (int)(1 + gp_rng_below(r, j->type == GP_JOB_SINGLE_NODE ? 8 : 20));
	if (j->type == GP_JOB_PS_WORKER)
		j->ps = j->gpus > 1 ? (int)(1 + gp_rng_below(r, (uint64_t)j->gpus - 1)) : 0;
	j->gpu_milli = gp_rng_below(r, 5) == 0 ? 500 : GP_MILLI;
	j->gpu_mem_mib = (int64_t)gp_rng_below(r, 5) * 5 * 1024;
	if (gp_rng_below(r, 4) == 0)
		j->cpu_milli = (int64_t)gp_rng_below(r, 40) * GP_MILLI;
	if (gp_rng_below(r, 8) == 0)
		j->gpu_models = v100;
	if (gp_rng_below(r, 2) == 0)
		j->klass = GP_CLASS_LS; /* predicted-share ranks LS and BE apart */
}

/* Whether the index kept up by take / give / set_state is the one built
 * afresh from the same state. */
static int index_consistent(const gp_alloc *a)
{
	gp_alloc re;
	const gp_alloc_index *x = a->ix, *y;
	int ok = 1, i, t, m, s;

	if (gp_alloc_copy(&re, a) != GP_OK)
		return 0;
	y = re.ix;
	for (i = 0; i < a->nnodes; i++)
		ok &= x->whole[i] == y->whole[i] && x->nodd[i] == y->nodd[i] && x->notup[i] == y->notup[i];
	for (t = 0; t < x->ntypes; t++) {
		const gp_aix_type *p = &x->types[t], *q = &y->types[t];

		ok &= p->odd.count == q->odd.count && !memcmp(p->nonempty, q->nonempty, sizeof(p->nonempty));
		for (m = 0; p->indexed && m < 1 << p->ngpus; m++) {
			int r1 = gp_nodeset_next(&p->by_mask[m], 0), r2 = gp_nodeset_next(&q->by_mask[m], 0);

			ok &= p->by_mask[m].count == q->by_mask[m].count;
			while (r1 >= 0 && r1 == r2) {
				r1 = gp_nodeset_next(&p->by_mask[m], r1 + 1);
				r2 = gp_nodeset_next(&q->by_mask[m], r2 + 1);
			}
			ok &= r1 == r2;
		}
		for (s = 0; p->sw_whole && s < x->nswitches; s++) {
			ok &= p->sw_whole[s] == q->sw_whole[s];
			for (m = 0; m <= p->ngpus; m++)
				ok &= p->sw_hist[s * (p->ngpus + 1) + m] == q->sw_hist[s * (p->ngpus + 1) + m];
		}
	}
	gp_alloc_release(&re);
	return ok;
}

static void test_index_crosscheck(void)
{
	int n, i, round, k;
	const gp_policy *list = gp_policy_list(&n);
	gp_rng r;
	long compared = 0, placed = 0;

	gp_rng_seed(&r, 19);
	for (round = 0; round < 60; round++) {
		fixture f;
		gp_alloc plain;

		gp_place_cache *pc2;

		/* Odd rounds: every multi-node search takes its nodes per mask. */
		gp_place_span_walk_max = round % 2 ? 0 : 256;
		fx_open(&f, "index-mix.yaml");
		pc2 = gp_place_cache_new(&f.c);
		random_state(&f, &r, (int)gp_rng_below(&r, 100));
		plain = f.a;
		plain.ix = NULL; /* the same state, no index: every node scanned */
		for (k = 0; k < 40; k++) {
			gp_job j;

			random_job(&j, &r);
			for (i = 0; i < n; i++) {
				gp_rng r1, r2;
				gp_policy_ctx ix = { &f.c, &f.a, &r1, NULL, f.pc };
				gp_policy_ctx scan = { &f.c, &plain, &r2, NULL, pc2 };
				gp_placement q;
				int a, b;

				gp_rng_seed(&r1, (uint64_t)k);
				gp_rng_seed(&r2, (uint64_t)k);
				gp_placement_init(&q);
				/* No answer may come from a previous call's scratch. */
				memset(gp_place_scratch_nodes(f.pc, 0), 0x5a, (size_t)f.c.nnodes * sizeof(int));
				memset(gp_place_scratch_nodes(f.pc, 1), 0x5a, (size_t)f.c.nnodes * sizeof(int));
				memset(gp_place_scratch_nodes(f.pc, 2), 0x5a, (size_t)f.c.nnodes * sizeof(int));
				memset(gp_place_scratch_masks(f.pc), 0x5a, (size_t)f.c.nnodes * sizeof(uint64_t));
				a = list[i].place(&ix, &j, &f.p);
				b = list[i].place(&scan, &j, &q);
				CU_ASSERT_EQUAL(a, b);
				CU_ASSERT(same_placement(&f.p, &q));
				if (a != b || !same_placement(&f.p, &q))
					fprintf(stderr, "\n  %s, round %d job %d (type %d, %d GPUs of %d milli): "
						"index and scan differ\n", list[i].name, round, k, j.type, j.gpus,
						j.gpu_milli);
				compared++;
				placed += a == GP_PLACED;
				gp_placement_release(&q);
			}
			/* Apply some placements so that the index moves. */
			if (gp_rng_below(&r, 3) == 0 &&
			    gp_policy_bestfit(&(gp_policy_ctx){ &f.c, &f.a, &r, NULL, f.pc }, &j, &f.p) == GP_PLACED)
				CU_ASSERT_EQUAL(gp_placement_apply(&f.a, &f.p), 0);
			plain = f.a;
			plain.ix = NULL;
			/* ... and release some, GPU by GPU. */
			if (gp_rng_below(&r, 4) == 0) {
				int gpu = (int)gp_rng_below(&r, (uint64_t)f.a.ngpus);

				if (f.a.gpu_free_milli[gpu] < GP_MILLI)
					gp_alloc_give_gpu(&f.a, gpu, GP_MILLI - f.a.gpu_free_milli[gpu],
							  gp_alloc_gpu_mem_cap(&f.a, gpu) - f.a.gpu_free_mem_mib[gpu]);
				gp_alloc_set_state(&f.a, f.a.gpu_node[gpu], gp_rng_below(&r, 5) ? GP_NODE_UP : GP_NODE_DOWN);
				plain = f.a;
				plain.ix = NULL;
			}
		}
		CU_ASSERT(index_consistent(&f.a));
		gp_place_cache_free(pc2);
		fx_close(&f);
	}
	gp_place_span_walk_max = 256;
	/* Both outcomes are exercised. */
	CU_ASSERT(placed > compared / 10 && placed < compared * 9 / 10);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("policies");

	gp_test_add(s, "registry", test_registry);
	gp_test_add(s, "bestfit single node (DGX-1)", test_bestfit_single_node_dgx1);
	gp_test_add(s, "bestfit single card", test_bestfit_single_card);
	gp_test_add(s, "bestfit ring on one node", test_bestfit_ring_one_node);
	gp_test_add(s, "bestfit ring on several nodes", test_bestfit_ring_several_nodes);
	gp_test_add(s, "bestfit over node combinations", test_bestfit_combinations);
	gp_test_add(s, "bestfit PS-Worker", test_bestfit_ps_worker);
	gp_test_add(s, "bestfit PCIe and NVSwitch boxes", test_bestfit_pcie_and_nvswitch);
	gp_test_add(s, "bottleneck from the perf model, rails, PS split", test_summary_rails);
	gp_test_add(s, "nic-affinity", test_nic_affinity);
	gp_test_add(s, "anchors, fractional", test_anchors_fractional);
	gp_test_add(s, "anchors, several nodes", test_anchors_multi);
	gp_test_add(s, "gpu-pair-score", test_gpu_pair_score);
	gp_test_add(s, "bw-max", test_bw_max);
	gp_test_add(s, "bw-max socket link", test_bw_max_socket_link);
	gp_test_add(s, "bw-max staged pairs", test_bw_max_staged);
	gp_test_add(s, "bw-max ECMP tiers", test_bw_max_ecmp);
	gp_test_add(s, "bw-max over 16 GPUs", test_bw_max_wide);
	gp_test_add(s, "group search over 16 GPUs: hand-ranked sets", test_group_search_wide);
	gp_test_add(s, "group search over 16 GPUs: the scan's sets", test_group_search_same);
	gp_test_add(s, "gpu-pair-score: the search picks the enumeration's set", test_pair_search_same);
	gp_test_add(s, "every policy respects reachability", test_reachability_all_policies);
	gp_test_add(s, "all-SYS box: GPUs under one CPU", test_allsys_sockets);
	gp_test_add(s, "CPU cores from each GPU's NUMA node", test_cpus_per_numa);
	gp_test_add(s, "VFs: one per NUMA-local GPU", test_vfs_per_affine_gpu);
	gp_test_add(s, "index answers like a scan", test_index_crosscheck);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
