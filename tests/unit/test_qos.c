/* Predicted sharing and QoS: the two placement levels of predicted-share and one QoS
 * episode (share 10 % -> 20 % -> 30 %, a BE job stopped, then resumed),
 * on hand-built clusters with the answers worked out in the comments. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/model/alloc.h"
#include "gpuplan/model/placement.h"
#include "gpuplan/place/policy.h"
#include "gpuplan/sim/qos.h"
#include "gpuplan/sim/sim.h"
#include "gpuplan/util/util.h"
#include "testlib.h"

static gp_cluster cl;
static gp_topo_gpu tgpus[8];
static gp_link tlinks[8 * 8];
static gp_node_type ntypes[2];
static gp_node nodes[2];

/* nnodes nodes of per GPUs; node i has type i % ntypes_used, whose GPU
 * model is models[type] (a built-in catalog name, or NULL for none). */
static void build_cluster(int nnodes, int per, const char *const *models, int ntypes_used)
{
	static const char *names[] = { "n0", "n1" };
	int i, t;

	gp_catalog_release(&cl.catalog);
	memset(&cl, 0, sizeof(cl));
	gp_catalog_init_builtin(&cl.catalog);
	memset(tgpus, 0, sizeof(tgpus));
	for (i = 0; i < per * per; i++)
		tlinks[i].level = i / per == i % per ? GP_LINK_X : GP_LINK_PIX;
	for (t = 0; t < ntypes_used; t++) {
		memset(&ntypes[t], 0, sizeof(ntypes[t]));
		ntypes[t].name = (char *)names[t];
		ntypes[t].topo.ngpus = per;
		ntypes[t].topo.gpus = tgpus;
		ntypes[t].topo.links = tlinks;
		ntypes[t].gpu_model = models && models[t] ? gp_catalog_index(&cl.catalog, models[t]) : -1;
		ntypes[t].cpu_count = 16;
		ntypes[t].mem_gib = 64;
	}
	for (i = 0; i < nnodes; i++) {
		memset(&nodes[i], 0, sizeof(nodes[i]));
		nodes[i].name = (char *)names[i];
		nodes[i].type = i % ntypes_used;
		nodes[i].first_gpu = per * i;
		nodes[i].ngpus = per;
	}
	cl.types = ntypes;
	cl.ntypes = ntypes_used;
	cl.nodes = nodes;
	cl.nnodes = nnodes;
	cl.ngpus = nnodes * per;
}

static uint64_t mask_of(const gp_place_part *p)
{
	uint64_t m = 0;
	int g;

	for (g = 0; g < p->ngpus; g++)
		m |= (uint64_t)1 << p->gpus[g];
	return m;
}

/* Two 4-GPU nodes, n0 of K80s, n1 of A100s.  Taken: 300 milli on n0's
 * GPU1, 600 on n1's GPU0, so n0 has 3.7 GPUs free and n1 3.4.
 *   LS, 2 x 500 milli: both nodes hold it (n0: 4 GPUs of >= 500; n1: 3),
 *     the most remaining is n0; its GPUs with the most free share are
 *     GPU0, GPU2, GPU3 (1000 each; GPU1 700): the first two, {0, 2}.
 *   BE, 1 x 500 milli, predicted 0.5 s per iteration on K80 and 0.1 s on
 *     A100: n1 (shortest time) although n0 has more left; on n1 GPU0
 *     has only 400 free, so GPU1 (the first of the 1000s).
 *   BE without predictions: ranked by FP32 peak, A100 wins again: n1.
 *   LS, 4 x 800: n0 has 3 GPUs of >= 800, n1 3: WAIT. */
static void test_levels(void)
{
	static const char *const models[] = { "K80", "A100-SXM4-40GB" };
	gp_alloc a;
	gp_rng rng;
	gp_job j;
	gp_placement p;
	double times[64] = { 0 };
	gp_policy_ctx ctx;

	build_cluster(2, 4, models, 2);
	CU_ASSERT_FATAL(gp_alloc_init(&a, &cl) == GP_OK);
	CU_ASSERT_FATAL(gp_alloc_take_gpu(&a, 1, 300, 0) == 0);
	CU_ASSERT_FATAL(gp_alloc_take_gpu(&a, 4, 600, 0) == 0);
	gp_rng_seed(&rng, 1);
	memset(&ctx, 0, sizeof(ctx));
	ctx.cluster = &cl;
	ctx.alloc = &a;
	ctx.rng = &rng;
	gp_placement_init(&p);

	gp_job_init(&j);
	j.gpus = 2;
	j.gpu_milli = 500;
	j.type = GP_JOB_SINGLE_NODE;
	j.klass = GP_CLASS_LS;
	CU_ASSERT_EQUAL_FATAL(gp_policy_predicted_share(&ctx, &j, &p), GP_PLACED);
	CU_ASSERT_EQUAL(p.nparts, 1);
	CU_ASSERT_EQUAL(p.parts[0].node, 0);
	CU_ASSERT_EQUAL(mask_of(&p.parts[0]), 0x5u);
	CU_ASSERT_EQUAL(p.parts[0].milli, 500);

	j.gpus = 1;
	j.type = GP_JOB_SINGLE_CARD;
	j.klass = GP_CLASS_BE;
	times[ntypes[0].gpu_model] = 0.5;
	times[ntypes[1].gpu_model] = 0.1;
	j.pred_iter_s = times;
	CU_ASSERT_EQUAL_FATAL(gp_policy_predicted_share(&ctx, &j, &p), GP_PLACED);
	CU_ASSERT_EQUAL(p.parts[0].node, 1);
	CU_ASSERT_EQUAL(mask_of(&p.parts[0]), 0x2u);
	/* The same job as LS: the most remaining node, n0, GPU0. */
	j.klass = GP_CLASS_LS;
	CU_ASSERT_EQUAL_FATAL(gp_policy_predicted_share(&ctx, &j, &p), GP_PLACED);
	CU_ASSERT_EQUAL(p.parts[0].node, 0);
	CU_ASSERT_EQUAL(mask_of(&p.parts[0]), 0x1u);

	j.klass = GP_CLASS_BE;
	j.pred_iter_s = NULL;
	CU_ASSERT_EQUAL_FATAL(gp_policy_predicted_share(&ctx, &j, &p), GP_PLACED);
	CU_ASSERT_EQUAL(p.parts[0].node, 1);

	j.gpus = 4;
	j.gpu_milli = 800;
	j.type = GP_JOB_SINGLE_NODE;
	j.klass = GP_CLASS_LS;
	CU_ASSERT_EQUAL(gp_policy_predicted_share(&ctx, &j, &p), GP_WAIT);

	gp_placement_release(&p);
	gp_alloc_release(&a);
	j.pred_iter_s = NULL;
	gp_job_release(&j);
}

/* The node with the most remaining GPU resource is the one whose best GPU
 * has the most share left.  Two 2-GPU nodes: n0 has 400 + 400 free (sum
 * 800, best 400), n1 0 + 600 (sum 600, best 600).  LS, 1 x 300 milli: n1,
 * its GPU1 (global GPU 3); by the node's sum it would have been n0.  With
 * equal best GPUs the sum decides: take 200 more on n1's GPU1 (best 400,
 * sum 400): n0. */
static void test_best_gpu_share(void)
{
	static const char *const models[] = { "A100-SXM4-40GB" };
	gp_alloc a;
	gp_rng rng;
	gp_job j;
	gp_placement p;
	gp_policy_ctx ctx;

	build_cluster(2, 2, models, 1);
	CU_ASSERT_FATAL(gp_alloc_init(&a, &cl) == GP_OK);
	CU_ASSERT_FATAL(gp_alloc_take_gpu(&a, 0, 600, 0) == 0);
	CU_ASSERT_FATAL(gp_alloc_take_gpu(&a, 1, 600, 0) == 0);
	CU_ASSERT_FATAL(gp_alloc_take_gpu(&a, 2, 1000, 0) == 0);
	CU_ASSERT_FATAL(gp_alloc_take_gpu(&a, 3, 400, 0) == 0);
	gp_rng_seed(&rng, 1);
	memset(&ctx, 0, sizeof(ctx));
	ctx.cluster = &cl;
	ctx.alloc = &a;
	ctx.rng = &rng;
	gp_placement_init(&p);
	gp_job_init(&j);
	j.gpus = 1;
	j.gpu_milli = 300;
	j.type = GP_JOB_SINGLE_CARD;
	j.klass = GP_CLASS_LS;
	CU_ASSERT_EQUAL_FATAL(gp_policy_predicted_share(&ctx, &j, &p), GP_PLACED);
	CU_ASSERT_EQUAL(p.parts[0].node, 1);
	CU_ASSERT_EQUAL(mask_of(&p.parts[0]), 0x2u);
	CU_ASSERT_FATAL(gp_alloc_take_gpu(&a, 3, 200, 0) == 0);
	CU_ASSERT_EQUAL_FATAL(gp_policy_predicted_share(&ctx, &j, &p), GP_PLACED);
	CU_ASSERT_EQUAL(p.parts[0].node, 0);
	gp_placement_release(&p);
	gp_alloc_release(&a);
	gp_job_release(&j);
}

/* The share comes from the chosen GPU model's own prediction.  Two 4-GPU
 * nodes, n0 of K80s, n1 of A100s; every GPU has 500 free.  An LS job of
 * 1 GPU asks 600 milli (its prediction on the reference model) but is
 * predicted 400 on the K80 and 450 on the A100: both nodes hold it
 * (500 >= 400, 500 >= 450; with 600 neither would), equal remaining
 * resource, so the lower index n0, GPU0, at 400 milli.  A BE job
 * predicted faster on the A100 goes to n1 at 450.  With the prediction
 * on the A100 at 550 only n0 holds it. */
static void test_share_per_model(void)
{
	static const char *const models[] = { "K80", "A100-SXM4-40GB" };
	gp_alloc a;
	gp_rng rng;
	gp_job j;
	gp_placement p;
	double times[64] = { 0 }, shares[64] = { 0 };
	gp_policy_ctx ctx;
	int g;

	build_cluster(2, 4, models, 2);
	CU_ASSERT_FATAL(gp_alloc_init(&a, &cl) == GP_OK);
	for (g = 0; g < 8; g++)
		CU_ASSERT_FATAL(gp_alloc_take_gpu(&a, g, 500, 0) == 0);
	gp_rng_seed(&rng, 1);
	memset(&ctx, 0, sizeof(ctx));
	ctx.cluster = &cl;
	ctx.alloc = &a;
	ctx.rng = &rng;
	gp_placement_init(&p);
	gp_job_init(&j);
	j.gpus = 1;
	j.gpu_milli = 600;
	j.type = GP_JOB_SINGLE_CARD;
	j.klass = GP_CLASS_LS;
	CU_ASSERT_EQUAL(gp_policy_predicted_share(&ctx, &j, &p), GP_WAIT);
	shares[ntypes[0].gpu_model] = 400;
	shares[ntypes[1].gpu_model] = 450;
	j.pred_milli = shares;
	CU_ASSERT_EQUAL_FATAL(gp_policy_predicted_share(&ctx, &j, &p), GP_PLACED);
	CU_ASSERT_EQUAL(p.parts[0].node, 0);
	CU_ASSERT_EQUAL(mask_of(&p.parts[0]), 0x1u);
	CU_ASSERT_EQUAL(p.parts[0].milli, 400);
	j.klass = GP_CLASS_BE;
	times[ntypes[0].gpu_model] = 0.5;
	times[ntypes[1].gpu_model] = 0.1;
	j.pred_iter_s = times;
	CU_ASSERT_EQUAL_FATAL(gp_policy_predicted_share(&ctx, &j, &p), GP_PLACED);
	CU_ASSERT_EQUAL(p.parts[0].node, 1);
	CU_ASSERT_EQUAL(p.parts[0].milli, 450);
	shares[ntypes[1].gpu_model] = 550;
	CU_ASSERT_EQUAL_FATAL(gp_policy_predicted_share(&ctx, &j, &p), GP_PLACED);
	CU_ASSERT_EQUAL(p.parts[0].node, 0);
	CU_ASSERT_EQUAL(p.parts[0].milli, 400);
	gp_placement_release(&p);
	gp_alloc_release(&a);
	j.pred_iter_s = NULL;
	j.pred_milli = NULL;
	gp_job_release(&j);
}

/* One GPU.  BE job A: share 900, true utilization 90 %, 10,000 s; LS job B:
 * share 100 (10 %), true 40 %, 1,000 s, deadline 1,500 s; both at 0.  A
 * gets 900 of the GPU, B 100: B runs at 100/400 = 0.25.  QoS every 100 s,
 * exact predictions (no time error), BE minimum 0.8 x 900 = 720.
 *   t = 100: B on time (100 + 975 <= 1500) but above its share: throttled.
 *   t = 700: done 0.175, 700 + 825 > 1500: raise B to 200 (20 %), cut A to
 *            800 (>= 720).  Speeds: A 800/900, B 200/400 = 0.5.
 *   t = 800: done 0.225, 800 + 775 > 1500: raise to 300 (30 %): A would go
 *            to 700 < 720, so A saves its state and is stopped, back in
 *            the BE queue with its progress: 700 s at full speed and 100 s
 *            at 800/900, 788.89 s of its 10,000.  B alone uses its 400:
 *            speed 1.
 *   t = 900 ... 1500: still late (775 s left at 800): raises to 400 ... 1000.
 *   B finishes at 800 + 775 = 1,575, late.  A starts again at 1,575 with
 *   the GPU to itself (no preemption cost configured) and finishes at
 *   1,575 + 10,000 - 788.89 = 10,786.11. */
static void test_episode(void)
{
	gp_joblist l;
	gp_sim_config cfg;
	gp_sim_result r;
	gp_qos_config qc;
	gp_qos *q;
	gp_error err = GP_ERROR_INIT;
	const gp_qos_stats *st;
	gp_job *a, *b;
	double pred[2] = { 90, 40 };

	build_cluster(1, 1, NULL, 1);
	gp_joblist_init(&l);
	a = gp_joblist_push(&l);
	a->id = gp_xstrdup("A");
	a->gpus = 1;
	a->gpu_milli = 900;
	a->duration = 10000;
	a->klass = GP_CLASS_BE;
	b = gp_joblist_push(&l);
	b->id = gp_xstrdup("B");
	b->gpus = 1;
	b->gpu_milli = 100;
	b->duration = 1000;
	gp_job_more_edit(b)->deadline = 1500;
	b->klass = GP_CLASS_LS;
	gp_qos_config_init(&qc);
	qc.tick = 100;
	qc.util_error = 0;
	qc.time_error = 0;
	qc.min_share = 0.8;
	qc.pred_util = pred;
	q = gp_qos_new(&qc, &l);
	CU_ASSERT_EQUAL(gp_qos_true_milli(q, 0), 900);
	CU_ASSERT_EQUAL(gp_qos_true_milli(q, 1), 400);
	gp_sim_config_init(&cfg);
	cfg.cluster = &cl;
	cfg.policy = gp_policy_find("first-fit");
	cfg.tick = 1000;
	cfg.hooks[0] = gp_qos_hooks(q);
	CU_ASSERT_EQUAL_FATAL(gp_sim_run(&cfg, &l, &r, &err), GP_OK);
	st = gp_qos_stats_of(q);
	CU_ASSERT_DOUBLE_EQUAL(r.jobs[1].start, 0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.jobs[1].finish, 1575, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(r.jobs[0].finish, 1575 + 10000 - (700 + 100 * 800.0 / 900), 1e-6);
	CU_ASSERT_EQUAL(r.jobs[0].interruptions, 1);
	CU_ASSERT_EQUAL(r.interruptions[GP_SIM_CAUSE_QOS], 1);
	CU_ASSERT_EQUAL(st->throttles, 1);
	CU_ASSERT_EQUAL(st->at_risk, 9);     /* 700, 800, ..., 1500 */
	CU_ASSERT_EQUAL(st->raises, 9);      /* 200, 300, ..., 1000 */
	CU_ASSERT_EQUAL(st->cuts, 1);
	CU_ASSERT_EQUAL(st->be_stops, 1);
	CU_ASSERT_EQUAL(st->ls_done, 1);
	CU_ASSERT_EQUAL(st->ls_violations, 1);
	gp_sim_result_release(&r);
	gp_qos_free(q);
	gp_joblist_release(&l);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("qos");

	gp_test_add(s, "predicted-share levels", test_levels);
	gp_test_add(s, "predicted-share: the share of the chosen GPU model", test_share_per_model);
	gp_test_add(s, "best GPU's remaining share", test_best_gpu_share);
	gp_test_add(s, "qos episode", test_episode);
}

int main(int argc, char **argv)
{
	int rc = gp_test_main(argc, argv, register_tests);

	gp_catalog_release(&cl.catalog);
	return rc;
}
