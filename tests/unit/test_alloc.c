/* Allocation state, placement apply/undo and the first-fit anchor on a
 * hand-built cluster (no loader needed): 3 nodes x 4 GPUs, 16 CPUs each. */
#include <stdlib.h>
#include <string.h>

#include "gpuplan/model/alloc_index.h"
#include "gpuplan/model/placement.h"
#include "gpuplan/place/policy.h"
#include "testlib.h"

static gp_cluster cl;
static gp_topo_gpu tgpus[4];
static gp_node_type ntype;
static gp_node nodes[3];

static void build_cluster(void)
{
	int i;

	memset(&cl, 0, sizeof(cl));
	memset(&ntype, 0, sizeof(ntype));
	memset(tgpus, 0, sizeof(tgpus));
	ntype.name = "box";
	ntype.topo.ngpus = 4;
	ntype.topo.gpus = tgpus;
	ntype.gpu_model = -1;
	ntype.cpu_count = 16;
	ntype.mem_gib = 64;
	for (i = 0; i < 3; i++) {
		memset(&nodes[i], 0, sizeof(nodes[i]));
		nodes[i].name = i == 0 ? "n0" : i == 1 ? "n1" : "n2";
		nodes[i].type = 0;
		nodes[i].first_gpu = 4 * i;
		nodes[i].ngpus = 4;
	}
	cl.types = &ntype;
	cl.ntypes = 1;
	cl.nodes = nodes;
	cl.nnodes = 3;
	cl.ngpus = 12;
}

static void test_alloc_counters(void)
{
	gp_alloc a, b;

	build_cluster();
	CU_ASSERT_EQUAL_FATAL(gp_alloc_init(&a, &cl), GP_OK);
	CU_ASSERT_EQUAL(a.node_free_whole[1], 4);
	CU_ASSERT_EQUAL(a.node_cap_cpu_milli[1], 16000);
	CU_ASSERT_EQUAL(a.node_cap_mem_mib[1], 65536);
	CU_ASSERT_EQUAL(gp_alloc_free_whole_total(&a), 12);
	/* Two shares on GPU 5 (node 1): one whole GPU less, 700 milli used. */
	CU_ASSERT_EQUAL(gp_alloc_take_gpu(&a, 5, 300, 0), 0);
	CU_ASSERT_EQUAL(gp_alloc_take_gpu(&a, 5, 400, 0), 0);
	CU_ASSERT_EQUAL(gp_alloc_take_gpu(&a, 5, 400, 0), -1);
	CU_ASSERT_EQUAL(a.gpu_free_milli[5], 300);
	CU_ASSERT_EQUAL(a.gpu_tasks[5], 2);
	CU_ASSERT_EQUAL(a.node_free_whole[1], 3);
	CU_ASSERT_EQUAL(a.node_free_milli[1], 3300);
	CU_ASSERT_EQUAL(gp_alloc_copy(&b, &a), GP_OK);
	gp_alloc_give_gpu(&a, 5, 300, 0);
	CU_ASSERT_EQUAL(a.node_free_whole[1], 3);
	gp_alloc_give_gpu(&a, 5, 400, 0);
	CU_ASSERT_EQUAL(a.node_free_whole[1], 4);
	CU_ASSERT_EQUAL(a.node_free_milli[1], 4000);
	/* The copy is independent. */
	CU_ASSERT_EQUAL(b.node_free_whole[1], 3);
	gp_alloc_set_cpu(&a, 2, 13, 1);
	CU_ASSERT(gp_alloc_cpu_used(&a, 2, 13));
	CU_ASSERT(!gp_alloc_cpu_used(&a, 2, 12));
	CU_ASSERT(!gp_alloc_cpu_used(&b, 2, 13));
	gp_alloc_release(&a);
	gp_alloc_release(&b);
	gp_alloc_release(NULL);
}

/* Whether two allocation states (same cluster) are equal, index too. */
static int same_alloc(const gp_alloc *x, const gp_alloc *y)
{
	const gp_alloc_index *a = x->ix, *b = y->ix;
	size_t g = (size_t)x->ngpus, n = (size_t)x->nnodes;
	int ti, m;

	if (memcmp(x->gpu_free_milli, y->gpu_free_milli, g * sizeof(*x->gpu_free_milli)) ||
	    memcmp(x->gpu_tasks, y->gpu_tasks, g * sizeof(*x->gpu_tasks)) ||
	    memcmp(x->gpu_env, y->gpu_env, g * sizeof(*x->gpu_env)) ||
	    memcmp(x->node_free_whole, y->node_free_whole, n * sizeof(*x->node_free_whole)) ||
	    memcmp(x->node_free_milli, y->node_free_milli, n * sizeof(*x->node_free_milli)) ||
	    memcmp(x->node_free_cpu_milli, y->node_free_cpu_milli, n * sizeof(int64_t)) ||
	    memcmp(x->node_state, y->node_state, n) ||
	    memcmp(x->cpu_used, y->cpu_used, n * (size_t)x->cpu_words * sizeof(uint64_t)))
		return 0;
	if (memcmp(a->whole, b->whole, n * sizeof(*a->whole)) ||
	    memcmp(a->nodd, b->nodd, n * sizeof(*a->nodd)) || memcmp(a->notup, b->notup, n))
		return 0;
	for (ti = 0; ti < a->ntypes; ti++) {
		const gp_aix_type *s = &a->types[ti], *t = &b->types[ti];

		if (s->odd.count != t->odd.count || memcmp(s->nonempty, t->nonempty, sizeof(s->nonempty)))
			return 0;
		for (m = 0; s->indexed && m < 1 << s->ngpus; m++) {
			int r = -1, q = -1;

			if (s->by_mask[m].count != t->by_mask[m].count)
				return 0;
			do { /* the same members in the same order */
				r = gp_nodeset_next(&s->by_mask[m], r + 1);
				q = gp_nodeset_next(&t->by_mask[m], q + 1);
				if (r != q)
					return 0;
			} while (r >= 0);
		}
	}
	return 1;
}

/* gp_alloc_assign: back to a saved state (the fuzz_state harness starts
 * every input so) equals a fresh copy, index included; shapes must match. */
static void test_alloc_assign(void)
{
	gp_alloc base, work, fresh, other;
	gp_cluster cl2;

	build_cluster();
	CU_ASSERT_EQUAL_FATAL(gp_alloc_init(&base, &cl), GP_OK);
	CU_ASSERT_EQUAL_FATAL(gp_alloc_init(&work, &cl), GP_OK);
	CU_ASSERT_EQUAL(gp_alloc_take_gpu(&work, 0, 1000, 0), 0);
	CU_ASSERT_EQUAL(gp_alloc_take_gpu(&work, 5, 300, 0), 0);
	gp_alloc_set_cpu(&work, 1, 3, 1);
	gp_alloc_set_state(&work, 2, GP_NODE_DOWN);
	CU_ASSERT(!same_alloc(&work, &base));
	CU_ASSERT_EQUAL(gp_alloc_assign(&work, &base), GP_OK);
	CU_ASSERT(same_alloc(&work, &base));
	CU_ASSERT_EQUAL(work.node_free_whole[0], 4);
	CU_ASSERT(!gp_alloc_cpu_used(&work, 1, 3));
	/* the other way: a state with shares copied over a pristine one */
	CU_ASSERT_EQUAL(gp_alloc_take_gpu(&base, 6, 500, 0), 0);
	gp_alloc_set_state(&base, 1, GP_NODE_DRAINING);
	CU_ASSERT_EQUAL(gp_alloc_assign(&work, &base), GP_OK);
	CU_ASSERT_EQUAL_FATAL(gp_alloc_copy(&fresh, &base), GP_OK);
	CU_ASSERT(same_alloc(&work, &fresh));
	/* independent afterwards */
	gp_alloc_give_gpu(&work, 6, 500, 0);
	CU_ASSERT_EQUAL(base.gpu_free_milli[6], 500);
	/* another cluster: refused, nothing changed */
	cl2 = cl;
	CU_ASSERT_EQUAL_FATAL(gp_alloc_init(&other, &cl2), GP_OK);
	CU_ASSERT_EQUAL(gp_alloc_assign(&other, &base), -1);
	CU_ASSERT_EQUAL(other.gpu_free_milli[6], 1000);
	gp_alloc_release(&base);
	gp_alloc_release(&work);
	gp_alloc_release(&fresh);
	gp_alloc_release(&other);
}

static void test_apply_all_or_nothing(void)
{
	gp_alloc a;
	gp_placement p;
	gp_place_part *part;

	build_cluster();
	gp_alloc_init(&a, &cl);
	gp_placement_init(&p);
	part = gp_placement_add(&p, 0);
	part->ngpus = 2;
	part->gpus[0] = 0;
	part->gpus[1] = 1;
	part->cpu_milli = 4000;
	part = gp_placement_add(&p, 1);
	part->ngpus = 2;
	part->gpus[0] = 2;
	part->gpus[1] = 2; /* the same GPU twice cannot fit */
	CU_ASSERT_EQUAL(gp_placement_apply(&a, &p), -1);
	CU_ASSERT_EQUAL(a.node_free_whole[0], 4);
	CU_ASSERT_EQUAL(a.node_free_whole[1], 4);
	CU_ASSERT_EQUAL(a.node_free_cpu_milli[0], 16000);
	p.parts[1].gpus[1] = 3;
	CU_ASSERT_EQUAL(gp_placement_apply(&a, &p), 0);
	CU_ASSERT_EQUAL(a.node_free_whole[0], 2);
	CU_ASSERT_EQUAL(a.node_free_whole[1], 2);
	CU_ASSERT_EQUAL(a.node_free_cpu_milli[0], 12000);
	gp_placement_undo(&a, &p);
	CU_ASSERT_EQUAL(gp_alloc_free_whole_total(&a), 12);
	CU_ASSERT_EQUAL(a.node_free_cpu_milli[0], 16000);
	gp_placement_release(&p);
	gp_alloc_release(&a);
}

static void test_first_fit(void)
{
	gp_alloc a;
	gp_placement p;
	gp_explain e;
	gp_job job;
	gp_policy_ctx ctx;
	const gp_policy *ff = gp_policy_find("first-fit");

	CU_ASSERT_PTR_NOT_NULL_FATAL(ff);
	build_cluster();
	gp_alloc_init(&a, &cl);
	gp_placement_init(&p);
	gp_explain_init(&e);
	gp_job_init(&job);
	ctx.cluster = &cl;
	ctx.alloc = &a;
	ctx.rng = NULL;
	ctx.explain = &e;

	/* 3 GPUs single-node: node 0, GPUs 0-2. */
	job.type = GP_JOB_SINGLE_NODE;
	job.gpus = 3;
	CU_ASSERT_EQUAL(ff->place(&ctx, &job, &p), GP_PLACED);
	CU_ASSERT_EQUAL(p.nparts, 1);
	CU_ASSERT_EQUAL(p.parts[0].node, 0);
	CU_ASSERT_EQUAL(p.parts[0].gpus[2], 2);
	CU_ASSERT_EQUAL(gp_placement_apply(&a, &p), 0);
	/* 4 more: node 0 has 1 left, so node 1. */
	job.gpus = 4;
	CU_ASSERT_EQUAL(ff->place(&ctx, &job, &p), GP_PLACED);
	CU_ASSERT_EQUAL(p.parts[0].node, 1);
	CU_ASSERT_EQUAL(gp_placement_apply(&a, &p), 0);
	/* A 6-GPU single-node job must wait; a 5-GPU ring spans n0 (1) + n2 (4). */
	job.gpus = 6;
	CU_ASSERT_EQUAL(ff->place(&ctx, &job, &p), GP_WAIT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.reason, "6"));
	job.type = GP_JOB_RING_ALLREDUCE;
	job.gpus = 5;
	CU_ASSERT_EQUAL(ff->place(&ctx, &job, &p), GP_PLACED);
	CU_ASSERT_EQUAL(p.nparts, 2);
	CU_ASSERT_EQUAL(p.parts[0].node, 0);
	CU_ASSERT_EQUAL(p.parts[0].ngpus, 1);
	CU_ASSERT_EQUAL(p.parts[0].gpus[0], 3);
	CU_ASSERT_EQUAL(p.parts[1].node, 2);
	CU_ASSERT_EQUAL(p.parts[1].ngpus, 4);
	/* Ring of 6 with only 5 free: wait. */
	job.gpus = 6;
	CU_ASSERT_EQUAL(gp_placement_apply(&a, &p), 0);
	CU_ASSERT_EQUAL(ff->place(&ctx, &job, &p), GP_WAIT);
	gp_placement_release(&p);
	gp_explain_release(&e);
	gp_job_release(&job);
	gp_alloc_release(&a);
}

static void test_share(void)
{
	gp_alloc a;
	gp_placement p;
	gp_job job;
	gp_policy_ctx ctx = { 0 };
	const gp_policy *ff = gp_policy_find("first-fit");

	build_cluster();
	gp_alloc_init(&a, &cl);
	gp_placement_init(&p);
	gp_job_init(&job);
	ctx.cluster = &cl;
	ctx.alloc = &a;
	job.gpu_milli = 600;
	CU_ASSERT_EQUAL(ff->place(&ctx, &job, &p), GP_PLACED);
	CU_ASSERT_EQUAL(gp_placement_apply(&a, &p), 0);
	/* 600 + 600 > 1000: the second share goes to GPU 1. */
	CU_ASSERT_EQUAL(ff->place(&ctx, &job, &p), GP_PLACED);
	CU_ASSERT_EQUAL(p.parts[0].gpus[0], 1);
	job.gpu_milli = 400;
	CU_ASSERT_EQUAL(ff->place(&ctx, &job, &p), GP_PLACED);
	CU_ASSERT_EQUAL(p.parts[0].gpus[0], 0);
	CU_ASSERT_EQUAL(gp_job_accepts_model(&job, "A100"), 1);
	job.gpu_models = strdup("V100M16|V100M32");
	CU_ASSERT_EQUAL(gp_job_accepts_model(&job, "v100m32"), 1);
	CU_ASSERT_EQUAL(gp_job_accepts_model(&job, "V100M3"), 0);
	CU_ASSERT_EQUAL(gp_job_accepts_model(&job, "T4"), 0);
	/* No node has a named model, so a constrained job waits. */
	CU_ASSERT_EQUAL(ff->place(&ctx, &job, &p), GP_WAIT);
	gp_placement_release(&p);
	gp_job_release(&job);
	gp_alloc_release(&a);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("alloc");

	gp_test_add(s, "counters", test_alloc_counters);
	gp_test_add(s, "assign", test_alloc_assign);
	gp_test_add(s, "apply_all_or_nothing", test_apply_all_or_nothing);
	gp_test_add(s, "first_fit", test_first_fit);
	gp_test_add(s, "share", test_share);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
