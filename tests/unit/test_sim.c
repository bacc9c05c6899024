/* The discrete-event engine on hand-built clusters and 3-6-job traces whose
 * schedules are worked out by hand in the comments. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/sim.h"
#include "gpuplan/util.h"
#include "testlib.h"

static gp_cluster cl;
static gp_topo_gpu tgpus[8];
static gp_node_type ntype;
static gp_node nodes[4];

/* nnodes nodes of per GPUs each, 16 CPUs, no named GPU model. */
static void build_cluster(int nnodes, int per)
{
	int i;
	static const char *names[] = { "n0", "n1", "n2", "n3" };

	memset(&cl, 0, sizeof(cl));
	memset(&ntype, 0, sizeof(ntype));
	memset(tgpus, 0, sizeof(tgpus));
	ntype.name = "box";
	ntype.topo.ngpus = per;
	ntype.topo.gpus = tgpus;
	ntype.gpu_model = -1;
	ntype.cpu_count = 16;
	ntype.mem_gib = 64;
	for (i = 0; i < nnodes; i++) {
		memset(&nodes[i], 0, sizeof(nodes[i]));
		nodes[i].name = (char *)names[i];
		nodes[i].first_gpu = per * i;
		nodes[i].ngpus = per;
	}
	cl.types = &ntype;
	cl.ntypes = 1;
	cl.nodes = nodes;
	cl.nnodes = nnodes;
	cl.ngpus = nnodes * per;
}

static void add(gp_joblist *l, const char *id, double submit, int gpus, double dur, int klass)
{
	gp_job *j = gp_joblist_push(l);

	j->id = gp_xstrdup(id);
	j->submit = submit;
	j->gpus = gpus;
	j->duration = dur;
	j->klass = klass;
	j->type = GP_JOB_SINGLE_NODE;
}

static int run(gp_joblist *l, int queue, gp_sim_result *r)
{
	gp_sim_config cfg;
	gp_error err = GP_ERROR_INIT;

	gp_sim_config_init(&cfg);
	cfg.cluster = &cl;
	cfg.policy = gp_policy_find("first-fit");
	cfg.queue = queue;
	cfg.seed = 7;
	cfg.tick = 5;
	return gp_sim_run(&cfg, l, r, &err);
}

#define CHECK_JOB(r, i, s, f) do { \
		CU_ASSERT_DOUBLE_EQUAL((r).jobs[i].start, (s), 1e-9); \
		CU_ASSERT_DOUBLE_EQUAL((r).jobs[i].finish, (f), 1e-9); \
	} while (0)

/* One node, 4 GPUs.  A(3 GPUs, 0-10) runs; B(2) waits for A; C(1 GPU)
 * would fit the spare GPU but fifo keeps it behind B: both start at 10. */
static void test_fifo_head_of_line(void)
{
	gp_joblist l;
	gp_sim_result r;
	gp_sim_summary sum;

	build_cluster(1, 4);
	gp_joblist_init(&l);
	add(&l, "A", 0, 3, 10, GP_CLASS_BE);
	add(&l, "B", 1, 2, 5, GP_CLASS_BE);
	add(&l, "C", 2, 1, 3, GP_CLASS_BE);
	CU_ASSERT_EQUAL_FATAL(run(&l, GP_SIM_FIFO, &r), GP_OK);
	CHECK_JOB(r, 0, 0, 10);
	CHECK_JOB(r, 1, 10, 15);
	CHECK_JOB(r, 2, 10, 13);
	CU_ASSERT_EQUAL(r.completed, 3);
	CU_ASSERT_DOUBLE_EQUAL(r.makespan, 15, 1e-9);
	/* 3x10 + 2x5 + 1x3 = 43 GPU-s of 4 x 15 = 60. */
	CU_ASSERT_DOUBLE_EQUAL(r.alloc_gpu_seconds, 43, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.gpu_utilization, 43.0 / 60.0, 1e-12);
	/* Queue delays 0, 9, 8; JCTs 10, 14, 11. */
	gp_sim_summarize(&l, &r, -1, &sum);
	CU_ASSERT_EQUAL(sum.completed, 3);
	CU_ASSERT_DOUBLE_EQUAL(sum.queue_delay.mean, 17.0 / 3, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(sum.queue_delay.p50, 8, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(sum.queue_delay.max, 9, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(sum.jct.mean, 35.0 / 3, 1e-9);
	/* p90 of 10, 11, 14 (linear): 11 + 0.8 x 3 = 13.4. */
	CU_ASSERT_DOUBLE_EQUAL(sum.jct.p90, 13.4, 1e-9);
	/* Timeline at ticks 5, 10, 15: 3 of 4 GPUs over (0,5] and (5,10];
	 * (10,15] holds 3 GPUs for 3 s and 2 for 2 s = 13/20. */
	CU_ASSERT_EQUAL_FATAL(r.nsamples, 3);
	CU_ASSERT_DOUBLE_EQUAL(r.samples[0].t, 5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.samples[0].utilization, 0.75, 1e-12);
	CU_ASSERT_EQUAL(r.samples[0].queued_be, 2);
	CU_ASSERT_EQUAL(r.samples[0].running, 1);
	CU_ASSERT_EQUAL(r.samples[1].allocated_milli, 3000);
	CU_ASSERT_EQUAL(r.samples[1].queued_be, 0);
	CU_ASSERT_DOUBLE_EQUAL(r.samples[2].utilization, 0.65, 1e-12);
	CU_ASSERT_EQUAL(r.samples[2].running, 0);
	gp_sim_result_release(&r);
	gp_joblist_release(&l);
}

/* One node, 2 GPUs.  A(2, 0-10) holds it; B(1, 8 s), C(1, 3 s), D(2, 3 s),
 * E(1, 1 s) queue.  sjf at 10: E and C first (C before D: equal duration,
 * earlier submit); D then blocks B until C ends at 13; D 13-16, B 16-24.
 * fifo: B and C at 10; D waits for two GPUs until B ends at 18; E after. */
static void test_sjf_order_and_ties(void)
{
	gp_joblist l;
	gp_sim_result r;

	build_cluster(1, 2);
	gp_joblist_init(&l);
	add(&l, "A", 0, 2, 10, GP_CLASS_BE);
	add(&l, "B", 1, 1, 8, GP_CLASS_BE);
	add(&l, "C", 2, 1, 3, GP_CLASS_BE);
	add(&l, "D", 3, 2, 3, GP_CLASS_BE);
	add(&l, "E", 4, 1, 1, GP_CLASS_BE);
	CU_ASSERT_EQUAL_FATAL(run(&l, GP_SIM_SJF, &r), GP_OK);
	CHECK_JOB(r, 0, 0, 10);
	CHECK_JOB(r, 4, 10, 11);
	CHECK_JOB(r, 2, 10, 13);
	CHECK_JOB(r, 3, 13, 16);
	CHECK_JOB(r, 1, 16, 24);
	gp_sim_result_release(&r);
	CU_ASSERT_EQUAL_FATAL(run(&l, GP_SIM_FIFO, &r), GP_OK);
	CHECK_JOB(r, 1, 10, 18);
	CHECK_JOB(r, 2, 10, 13);
	CHECK_JOB(r, 3, 18, 21);
	CHECK_JOB(r, 4, 21, 22);
	gp_sim_result_release(&r);
	gp_joblist_release(&l);
}

/* One node, 4 GPUs.  A(2, 0-10) on GPUs 0-1, B(1, 0-100) on GPU 2.
 * C(3) arrives at 1 and is blocked: its reservation is t=10 on GPUs
 * 0, 1, 3.  D(1 GPU, 5 s) at 2 fits GPU 3 and ends at 7 <= 10: it starts
 * at once.  E(1 GPU, 50 s) at 8 fits GPU 3 too but would hold it past 10:
 * it waits, C starts at 10, E at 15 when C ends.  fifo for comparison:
 * D and E wait behind C and start together at 15. */
static void test_backfill(void)
{
	gp_joblist l;
	gp_sim_result r;

	build_cluster(1, 4);
	gp_joblist_init(&l);
	add(&l, "A", 0, 2, 10, GP_CLASS_BE);
	add(&l, "B", 0, 1, 100, GP_CLASS_BE);
	add(&l, "C", 1, 3, 5, GP_CLASS_BE);
	add(&l, "D", 2, 1, 5, GP_CLASS_BE);
	add(&l, "E", 8, 1, 50, GP_CLASS_BE);
	CU_ASSERT_EQUAL_FATAL(run(&l, GP_SIM_BACKFILL, &r), GP_OK);
	CHECK_JOB(r, 0, 0, 10);
	CHECK_JOB(r, 1, 0, 100);
	CHECK_JOB(r, 2, 10, 15);
	CHECK_JOB(r, 3, 2, 7);
	CHECK_JOB(r, 4, 15, 65);
	CU_ASSERT_EQUAL(r.backfilled, 1);
	gp_sim_result_release(&r);
	CU_ASSERT_EQUAL_FATAL(run(&l, GP_SIM_FIFO, &r), GP_OK);
	CHECK_JOB(r, 2, 10, 15);
	CHECK_JOB(r, 3, 15, 20);
	CHECK_JOB(r, 4, 15, 65);
	gp_sim_result_release(&r);
	gp_joblist_release(&l);
}

/* A long job may backfill when it stays off the reserved GPUs.  Two nodes
 * of 2 GPUs.  A(2, 0-10) fills n0, B(1, 0-30) takes n1 GPU 0.  C(2) is
 * blocked; its reservation is n0 at t=10.  D(1 GPU, 100 s) takes n1 GPU 1,
 * which C does not need: it starts at 3 although it ends long after 10. */
static void test_backfill_extra_gpus(void)
{
	gp_joblist l;
	gp_sim_result r;

	build_cluster(2, 2);
	gp_joblist_init(&l);
	add(&l, "A", 0, 2, 10, GP_CLASS_BE);
	add(&l, "B", 0, 1, 30, GP_CLASS_BE);
	add(&l, "C", 1, 2, 5, GP_CLASS_BE);
	add(&l, "D", 3, 1, 100, GP_CLASS_BE);
	CU_ASSERT_EQUAL_FATAL(run(&l, GP_SIM_BACKFILL, &r), GP_OK);
	CHECK_JOB(r, 2, 10, 15);
	CHECK_JOB(r, 3, 3, 103);
	CU_ASSERT_EQUAL(r.jobs[3].first_node, 1);
	gp_sim_result_release(&r);
	gp_joblist_release(&l);
}

/* One node, 2 GPUs.  A (BE) holds both until 10.  B (BE, 1 GPU) came
 * first, but LS jobs C (2 GPUs) and D (1 GPU) go before it: C 10-15, then
 * D and B together at 15. */
static void test_classes(void)
{
	gp_joblist l;
	gp_sim_result r;
	gp_sim_summary ls, be;

	build_cluster(1, 2);
	gp_joblist_init(&l);
	add(&l, "A", 0, 2, 10, GP_CLASS_BE);
	add(&l, "B", 1, 1, 5, GP_CLASS_BE);
	add(&l, "C", 2, 2, 5, GP_CLASS_LS);
	add(&l, "D", 3, 1, 1, GP_CLASS_LS);
	CU_ASSERT_EQUAL_FATAL(run(&l, GP_SIM_FIFO, &r), GP_OK);
	CHECK_JOB(r, 2, 10, 15);
	CHECK_JOB(r, 3, 15, 16);
	CHECK_JOB(r, 1, 15, 20);
	gp_sim_summarize(&l, &r, GP_CLASS_LS, &ls);
	gp_sim_summarize(&l, &r, GP_CLASS_BE, &be);
	CU_ASSERT_EQUAL(ls.total, 2);
	CU_ASSERT_EQUAL(be.total, 2);
	/* LS delays 8 and 12; BE delays 0 and 14. */
	CU_ASSERT_DOUBLE_EQUAL(ls.queue_delay.mean, 10, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(be.queue_delay.max, 14, 1e-9);
	gp_sim_result_release(&r);
	gp_joblist_release(&l);
}

/* One node, 4 GPUs.  X asks for 8 GPUs, Y for a GPU model the cluster
 * lacks, Z has no duration (iteration-based, no perf model): none of them
 * blocks W, which runs at once. */
static void test_never_placed_and_failed(void)
{
	gp_joblist l;
	gp_sim_result r;
	gp_sim_summary sum;
	gp_job *j;

	build_cluster(1, 4);
	gp_joblist_init(&l);
	add(&l, "X", 0, 8, 10, GP_CLASS_BE);
	l.jobs[0].type = GP_JOB_RING_ALLREDUCE;
	add(&l, "Y", 0, 1, 10, GP_CLASS_BE);
	l.jobs[1].gpu_models = gp_xstrdup("H100");
	j = gp_joblist_push(&l);
	j->id = gp_xstrdup("Z");
	j->iterations = 1000;
	add(&l, "W", 1, 4, 2, GP_CLASS_BE);
	CU_ASSERT_EQUAL_FATAL(run(&l, GP_SIM_FIFO, &r), GP_OK);
	CU_ASSERT_EQUAL(r.jobs[0].state, GP_SIM_NEVER);
	CU_ASSERT_EQUAL(r.jobs[1].state, GP_SIM_NEVER);
	CU_ASSERT_EQUAL(r.jobs[2].state, GP_SIM_FAILED);
	CHECK_JOB(r, 3, 1, 3);
	CU_ASSERT_EQUAL(r.never_placed, 2);
	CU_ASSERT_EQUAL(r.failed, 1);
	CU_ASSERT_EQUAL(r.completed, 1);
	gp_sim_summarize(&l, &r, -1, &sum);
	CU_ASSERT_EQUAL(sum.total, 4);
	CU_ASSERT_EQUAL(sum.never_placed, 2);
	/* 4 GPUs x 2 s over the span 0..3. */
	CU_ASSERT_DOUBLE_EQUAL(r.makespan, 3, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.gpu_utilization, 8.0 / 12.0, 1e-12);
	gp_sim_result_release(&r);
	gp_joblist_release(&l);
}

/* A run-time hook: duration = iterations x 0.5 s x nodes spanned. */
static int iter_hook(void *ud, const gp_cluster *c, const gp_job *job,
		     const gp_placement *p, gp_sim_runinfo *out)
{
	(void)c;
	(*(int *)ud)++;
	memset(out, 0, sizeof(*out));
	out->best_iter_s = 0.5;
	out->iter_s = 0.5 * (p ? p->nparts : 1);
	out->duration = (double)job->iterations * out->iter_s;
	return 0;
}

/* Two nodes of 2 GPUs: A (1 GPU) runs on n0; B (ring, 3 GPUs) then spans
 * n0 and n1 and runs 100 iterations at 1 s = 100 s, slowdown 2. */
static void test_duration_hook(void)
{
	gp_joblist l;
	gp_sim_result r;
	gp_sim_config cfg;
	gp_error err = GP_ERROR_INIT;
	int calls = 0;

	build_cluster(2, 2);
	gp_joblist_init(&l);
	add(&l, "A", 0, 1, -1, GP_CLASS_BE);
	l.jobs[0].iterations = 10;
	add(&l, "B", 1, 3, -1, GP_CLASS_BE);
	l.jobs[1].iterations = 100;
	l.jobs[1].type = GP_JOB_RING_ALLREDUCE;
	gp_sim_config_init(&cfg);
	cfg.cluster = &cl;
	cfg.policy = gp_policy_find("first-fit");
	cfg.duration = iter_hook;
	cfg.duration_ud = &calls;
	CU_ASSERT_EQUAL_FATAL(gp_sim_run(&cfg, &l, &r, &err), GP_OK);
	CHECK_JOB(r, 0, 0, 5);
	CHECK_JOB(r, 1, 1, 101);
	CU_ASSERT_EQUAL(r.jobs[1].nodes, 2);
	CU_ASSERT_DOUBLE_EQUAL(r.jobs[1].slowdown, 2, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(r.jobs[0].slowdown, 1, 1e-12);
	CU_ASSERT(calls >= 4);
	gp_sim_result_release(&r);
	gp_joblist_release(&l);
}

/* Same input, same seed: identical results, byte for byte; the order of
 * equal-submit jobs is the file order. */
static void test_determinism(void)
{
	gp_joblist l;
	gp_sim_result a, b;
	gp_rng rng;
	int i, q;

	build_cluster(4, 8);
	gp_joblist_init(&l);
	gp_rng_seed(&rng, 99);
	for (i = 0; i < 400; i++) {
		char id[16];
		static const int sizes[] = { 1, 1, 1, 2, 4, 8, 16 };

		snprintf(id, sizeof(id), "j%d", i);
		add(&l, id, (double)(gp_rng_below(&rng, 2000)), sizes[gp_rng_below(&rng, 7)],
		    1 + (double)gp_rng_below(&rng, 300), (int)gp_rng_below(&rng, 2));
		l.jobs[i].type = GP_JOB_RING_ALLREDUCE;
	}
	for (q = 0; q < GP_SIM_QUEUES; q++) {
		CU_ASSERT_EQUAL_FATAL(run(&l, q, &a), GP_OK);
		CU_ASSERT_EQUAL_FATAL(run(&l, q, &b), GP_OK);
		CU_ASSERT_EQUAL(a.completed, 400);
		CU_ASSERT_EQUAL(memcmp(a.jobs, b.jobs, 400 * sizeof(*a.jobs)), 0);
		CU_ASSERT_EQUAL(a.nsamples, b.nsamples);
		CU_ASSERT_EQUAL(memcmp(a.samples, b.samples, a.nsamples * sizeof(*a.samples)), 0);
		CU_ASSERT(a.gpu_utilization > 0 && a.gpu_utilization <= 1);
		for (i = 0; i < 400; i++) {
			CU_ASSERT(a.jobs[i].start >= l.jobs[i].submit);
			CU_ASSERT_DOUBLE_EQUAL(a.jobs[i].finish - a.jobs[i].start, l.jobs[i].duration, 1e-9);
		}
		gp_sim_result_release(&a);
		gp_sim_result_release(&b);
	}
	gp_joblist_release(&l);
}

/* No jobs: an empty but valid result. */
static void test_empty(void)
{
	gp_joblist l;
	gp_sim_result r;

	build_cluster(1, 4);
	gp_joblist_init(&l);
	CU_ASSERT_EQUAL_FATAL(run(&l, GP_SIM_BACKFILL, &r), GP_OK);
	CU_ASSERT_EQUAL(r.completed, 0);
	CU_ASSERT_DOUBLE_EQUAL(r.makespan, 0, 0);
	CU_ASSERT_DOUBLE_EQUAL(r.gpu_utilization, 0, 0);
	CU_ASSERT_EQUAL(gp_sim_queue_parse("sjf"), GP_SIM_SJF);
	CU_ASSERT_EQUAL(gp_sim_queue_parse("lifo"), -1);
	gp_sim_result_release(&r);
	gp_joblist_release(&l);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("sim");

	gp_test_add(s, "fifo_head_of_line", test_fifo_head_of_line);
	gp_test_add(s, "sjf_order_and_ties", test_sjf_order_and_ties);
	gp_test_add(s, "backfill", test_backfill);
	gp_test_add(s, "backfill_extra_gpus", test_backfill_extra_gpus);
	gp_test_add(s, "classes", test_classes);
	gp_test_add(s, "never_placed_and_failed", test_never_placed_and_failed);
	gp_test_add(s, "duration_hook", test_duration_hook);
	gp_test_add(s, "determinism", test_determinism);
	gp_test_add(s, "empty", test_empty);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
