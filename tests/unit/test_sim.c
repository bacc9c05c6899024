/* The discrete-event engine on hand-built clusters and 3-6-job traces whose
 * schedules are worked out by hand in the comments. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/model/placement.h"
#include "gpuplan/place/policy.h"
#include "gpuplan/sim/sim.h"
#include "gpuplan/util/util.h"
#include "testlib.h"

static gp_cluster cl;

/* nnodes nodes of per GPUs each (testlib: 16 CPUs, no named GPU model,
 * all GPU pairs PIX). */
static void build_cluster(int nnodes, int per)
{
	cl = *gp_test_pix_cluster(nnodes, per);
}

static void add(gp_joblist *l, const char *id, double submit, int gpus, double dur, int klass)
{
	gp_test_add_job(l, id, submit, gpus, dur, klass);
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

/* fifo-skip on one 4-GPU node: A (2 GPUs, 100 s) at 0, B (4, 50 s) at 1,
 * C (2, 30 s) at 2, D (1, 200 s) at 3.
 *   fifo: A 0-100; B blocks C and D: B 100-150, then C 150-180 and D
 *   150-350 side by side.
 *   fifo-skip: B does not fit at 1 and is passed; C fits at 2 (2-32); D
 *   finds nothing free at 3 (A and C hold 4); at 32 D is the first that
 *   fits (32-232); at 100 A ends but D holds a GPU, so B (4) still waits;
 *   B 232-282.  Nothing is reserved for B: it starts last.
 * With an LS job E (4 GPUs, 10 s) at 5, LS first: at 32 E still does not
 * fit and D (BE) starts anyway; E waits for a free node: at 232, before B
 * (LS before BE): E 232-242, B 242-292. */
static void test_fifo_skip(void)
{
	gp_joblist l;
	gp_sim_result r;

	build_cluster(1, 4);
	gp_joblist_init(&l);
	add(&l, "A", 0, 2, 100, GP_CLASS_BE);
	add(&l, "B", 1, 4, 50, GP_CLASS_BE);
	add(&l, "C", 2, 2, 30, GP_CLASS_BE);
	add(&l, "D", 3, 1, 200, GP_CLASS_BE);
	CU_ASSERT_EQUAL_FATAL(run(&l, GP_SIM_FIFO, &r), GP_OK);
	CHECK_JOB(r, 0, 0, 100);
	CHECK_JOB(r, 1, 100, 150);
	CHECK_JOB(r, 2, 150, 180);
	CHECK_JOB(r, 3, 150, 350);
	gp_sim_result_release(&r);
	CU_ASSERT_EQUAL_FATAL(run(&l, GP_SIM_FIFO_SKIP, &r), GP_OK);
	CHECK_JOB(r, 0, 0, 100);
	CHECK_JOB(r, 1, 232, 282);
	CHECK_JOB(r, 2, 2, 32);
	CHECK_JOB(r, 3, 32, 232);
	gp_sim_result_release(&r);
	add(&l, "E", 5, 4, 10, GP_CLASS_LS);
	CU_ASSERT_EQUAL_FATAL(run(&l, GP_SIM_FIFO_SKIP, &r), GP_OK);
	CHECK_JOB(r, 3, 32, 232);
	CHECK_JOB(r, 4, 232, 242);
	CHECK_JOB(r, 1, 242, 292);
	gp_sim_result_release(&r);
	gp_joblist_release(&l);
	CU_ASSERT_STRING_EQUAL(gp_sim_queue_name(GP_SIM_FIFO_SKIP), "fifo-skip");
	CU_ASSERT_EQUAL(gp_sim_queue_parse("fifo-skip"), GP_SIM_FIFO_SKIP);
}

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

/* An arrival reopens the whole queue, not just the newcomer.  Two nodes of
 * 4 GPUs.  A(4, 0-20) holds n0, B(4, 0-5) n1.  H (Ring-AllReduce, 7 GPUs)
 * is the blocked head; at 5 its reservation is t=20 on n0 and n1 GPUs
 * 0-2.  X(1 GPU, 100 s) comes first in the queue: first-fit puts it on n1
 * GPU 0, reserved, and it runs past 20, so it waits; Y(3 GPUs, 10 s) then
 * backfills on n1 GPUs 0-2 (5-15, done before 20).  When Z arrives at 7,
 * the pass tries X again: first-fit now gives it n1 GPU 3, which H does
 * not need, so X starts at 7 (7-107).  H starts at 20 on n0 and n1 GPUs
 * 0-2 (20-30); Z(4 GPUs) gets n0 when H ends (30-31). */
static void test_backfill_arrival_rescans(void)
{
	gp_joblist l;
	gp_sim_result r;

	build_cluster(2, 4);
	gp_joblist_init(&l);
	add(&l, "A", 0, 4, 20, GP_CLASS_BE);
	add(&l, "B", 0, 4, 5, GP_CLASS_BE);
	add(&l, "H", 1, 7, 10, GP_CLASS_BE);
	l.jobs[2].type = GP_JOB_RING_ALLREDUCE;
	add(&l, "X", 2, 1, 100, GP_CLASS_BE);
	add(&l, "Y", 3, 3, 10, GP_CLASS_BE);
	add(&l, "Z", 7, 4, 1, GP_CLASS_BE);
	CU_ASSERT_EQUAL_FATAL(run(&l, GP_SIM_BACKFILL, &r), GP_OK);
	CHECK_JOB(r, 2, 20, 30);
	CHECK_JOB(r, 3, 7, 107);
	CU_ASSERT_EQUAL(r.jobs[3].first_node, 1);
	CHECK_JOB(r, 4, 5, 15);
	CHECK_JOB(r, 5, 30, 31);
	CU_ASSERT_EQUAL(r.backfilled, 2);
	gp_sim_result_release(&r);
	gp_joblist_release(&l);
}

static int run_bf(gp_joblist *l, int mode, gp_sim_result *r)
{
	gp_sim_config cfg;
	gp_error err = GP_ERROR_INIT;

	gp_sim_config_init(&cfg);
	cfg.cluster = &cl;
	cfg.policy = gp_policy_find("first-fit");
	cfg.queue = GP_SIM_BACKFILL;
	cfg.backfill_mode = mode;
	cfg.seed = 7;
	cfg.tick = 5;
	return gp_sim_run(&cfg, l, r, &err);
}

/* Slurm reserves whole nodes.  Two nodes of 4 GPUs: A(4, 0-100) fills n0,
 * B(3, 0-50) takes n1 GPUs 0-2.  H(2 GPUs, 10 s) arrives at 1 and waits;
 * its start is 50 on n1.  C(1 GPU, 100 s) arrives at 2.
 *   easy: H holds n1 GPUs 0-1 from 50; C takes the free GPU 3, which H
 *   does not need: C 2-102 (backfilled), H 50-60.
 *   slurm: H holds all of n1 over [50, 60); C would run over it, so it
 *   waits beside the free GPU (its own plan: n1 from 60).  At 50 B ends,
 *   H starts 50-60 on GPUs 0-1 and C, now first in the queue, GPU 2:
 *   C 50-150, nothing backfilled. */
static void test_backfill_slurm_whole_nodes(void)
{
	gp_joblist l;
	gp_sim_result r;

	build_cluster(2, 4);
	gp_joblist_init(&l);
	add(&l, "A", 0, 4, 100, GP_CLASS_BE);
	add(&l, "B", 0, 3, 50, GP_CLASS_BE);
	add(&l, "H", 1, 2, 10, GP_CLASS_BE);
	add(&l, "C", 2, 1, 100, GP_CLASS_BE);
	CU_ASSERT_EQUAL_FATAL(run_bf(&l, GP_SIM_BF_EASY, &r), GP_OK);
	CHECK_JOB(r, 2, 50, 60);
	CHECK_JOB(r, 3, 2, 102);
	CU_ASSERT_EQUAL(r.backfilled, 1);
	gp_sim_result_release(&r);
	CU_ASSERT_EQUAL_FATAL(run_bf(&l, GP_SIM_BF_SLURM, &r), GP_OK);
	CHECK_JOB(r, 2, 50, 60);
	CHECK_JOB(r, 3, 50, 150);
	CU_ASSERT_EQUAL(r.jobs[3].first_node, 1);
	CU_ASSERT_EQUAL(r.backfilled, 0);
	gp_sim_result_release(&r);
	gp_joblist_release(&l);
}

/* Slurm reserves for every waiting job, not only the first.  Three nodes
 * of 2 GPUs: A(2, 0-100) on n0, B(2, 0-20) on n1, C(1, 0-40) on n2 GPU 0.
 * H(2, 30 s) at 1 waits for n1 (from 20); W(2, 30 s) at 2 waits too;
 * X(1 GPU, 100 s) at 3 could take n2 GPU 1 at once.
 *   easy: only H has a reservation (n1 GPUs at 20); X takes n2 GPU 1
 *   (3-103, backfilled).  At 20 H starts (20-50); W needs a whole node:
 *   n2 holds X until 103, so W gets n1 when H ends: W 50-80.
 *   slurm: H holds n1 over [20, 50); W's plan is n2 from 40 (C's end) to
 *   70; X over [3, 103) would cross W's hold of n2, so X waits (its plan:
 *   n1 from 50).  At 20 H starts; at 40 W starts on n2 (40-70); at 50 X
 *   takes n1 (50-150).  W waits 38 s instead of 48. */
static void test_backfill_slurm_every_job(void)
{
	gp_joblist l;
	gp_sim_result r;

	build_cluster(3, 2);
	gp_joblist_init(&l);
	add(&l, "A", 0, 2, 100, GP_CLASS_BE);
	add(&l, "B", 0, 2, 20, GP_CLASS_BE);
	add(&l, "C", 0, 1, 40, GP_CLASS_BE);
	add(&l, "H", 1, 2, 30, GP_CLASS_BE);
	add(&l, "W", 2, 2, 30, GP_CLASS_BE);
	add(&l, "X", 3, 1, 100, GP_CLASS_BE);
	CU_ASSERT_EQUAL_FATAL(run_bf(&l, GP_SIM_BF_EASY, &r), GP_OK);
	CHECK_JOB(r, 3, 20, 50);
	CHECK_JOB(r, 4, 50, 80);
	CHECK_JOB(r, 5, 3, 103);
	CU_ASSERT_EQUAL(r.jobs[5].first_node, 2);
	CU_ASSERT_EQUAL(r.backfilled, 1);
	gp_sim_result_release(&r);
	CU_ASSERT_EQUAL_FATAL(run_bf(&l, GP_SIM_BF_SLURM, &r), GP_OK);
	CHECK_JOB(r, 3, 20, 50);
	CHECK_JOB(r, 4, 40, 70);
	CU_ASSERT_EQUAL(r.jobs[4].first_node, 2);
	CHECK_JOB(r, 5, 50, 150);
	CU_ASSERT_EQUAL(r.jobs[5].first_node, 1);
	CU_ASSERT_EQUAL(r.backfilled, 0);
	gp_sim_result_release(&r);
	gp_joblist_release(&l);
}

/* Slurm's backfill cycles (bf_interval).  One node of 4 GPUs: A(2, 0-10),
 * B(1, 0-100); C(3 GPUs, 5 s) at 1 waits for A: it holds the node over
 * [10, 15).  D(1 GPU, 5 s) at 2 ends before that: at every pass it
 * backfills at once (2-7); with cycles every 30 s from 0 the pass at 2 is
 * FIFO only, so D waits behind C: C 10-15, D 15-20.  E(1 GPU, 50 s) at 8
 * would cross C's hold either way: E 15-65. */
static void test_backfill_slurm_cycles(void)
{
	gp_joblist l;
	gp_sim_result r;
	gp_sim_config cfg;
	gp_error err = GP_ERROR_INIT;
	int k;

	build_cluster(1, 4);
	gp_joblist_init(&l);
	add(&l, "A", 0, 2, 10, GP_CLASS_BE);
	add(&l, "B", 0, 1, 100, GP_CLASS_BE);
	add(&l, "C", 1, 3, 5, GP_CLASS_BE);
	add(&l, "D", 2, 1, 5, GP_CLASS_BE);
	add(&l, "E", 8, 1, 50, GP_CLASS_BE);
	for (k = 0; k < 2; k++) {
		gp_sim_config_init(&cfg);
		cfg.cluster = &cl;
		cfg.policy = gp_policy_find("first-fit");
		cfg.queue = GP_SIM_BACKFILL;
		cfg.backfill_mode = GP_SIM_BF_SLURM;
		cfg.bf_interval = k ? 30 : 0;
		cfg.seed = 7;
		cfg.tick = 5;
		CU_ASSERT_EQUAL_FATAL(gp_sim_run(&cfg, &l, &r, &err), GP_OK);
		CHECK_JOB(r, 2, 10, 15);
		if (k)
			CHECK_JOB(r, 3, 15, 20);
		else
			CHECK_JOB(r, 3, 2, 7);
		CHECK_JOB(r, 4, 15, 65);
		gp_sim_result_release(&r);
	}
	gp_joblist_release(&l);
}

/* --backfill's names, both ways. */
static void test_backfill_slurm_names(void)
{
	CU_ASSERT_STRING_EQUAL(gp_sim_backfill_name(GP_SIM_BF_EASY), "easy");
	CU_ASSERT_STRING_EQUAL(gp_sim_backfill_name(GP_SIM_BF_SLURM), "slurm");
	CU_ASSERT_EQUAL(gp_sim_backfill_parse("slurm"), GP_SIM_BF_SLURM);
	CU_ASSERT_EQUAL(gp_sim_backfill_parse("easy"), GP_SIM_BF_EASY);
	CU_ASSERT_EQUAL(gp_sim_backfill_parse("conservative"), -1);
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
	/* The reasons the engine records: more GPUs than the cluster has and
	 * an absent model are the cluster's; Z has no run time. */
	CU_ASSERT_EQUAL(r.jobs[0].why, GP_SIM_WHY_CLUSTER);
	CU_ASSERT_EQUAL(r.jobs[1].why, GP_SIM_WHY_CLUSTER);
	CU_ASSERT_EQUAL(r.jobs[2].why, GP_SIM_WHY_NO_RUNTIME);
	CU_ASSERT_EQUAL(r.jobs[3].why, GP_SIM_WHY_NONE);
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
			/* las preempts: a job may take longer than its duration */
			if (q != GP_SIM_LAS) {
				CU_ASSERT_DOUBLE_EQUAL(a.jobs[i].finish - a.jobs[i].start, l.jobs[i].duration,
						       1e-9);
			} else {
				CU_ASSERT(a.jobs[i].finish - a.jobs[i].start >= l.jobs[i].duration - 1e-9);
			}
		}
		gp_sim_result_release(&a);
		gp_sim_result_release(&b);
	}
	gp_joblist_release(&l);
}

/* ---- a straightforward reference simulator, for the cross-check ----
 *
 * The rules of sim.h written the plain way, with none of the engine's
 * shortcuts (shape memos, the backfill scan index, the kept reservation,
 * the heap walk): after every batch of same-time finishes and arrivals it
 * starts queue heads in order (LS before BE) while they fit; under
 * backfill it then finds the blocked head's reservation by replaying the
 * running jobs onto a fresh cluster state for each of their finish times,
 * and tries every queued job behind the head in queue order.  Quadratic,
 * fine for a few dozen jobs. */

#define REF_MAX 64

typedef struct ref_sim {
	const gp_joblist *l;
	int queue;
	int preempt;            /* enum gp_sim_preempt */
	double cost, tau;       /* --preempt-cost, --checkpoint-interval */
	double rem[REF_MAX];    /* work left */
	double seg[REF_MAX];    /* start of the current run */
	double ovh[REF_MAX];    /* overhead paid at the start of that run */
	double pend[REF_MAX];   /* overhead to pay at the next start */
	int npre[REF_MAX];      /* times preempted */
	/* las */
	int nlev;
	double thr[4], knob;
	int level[REF_MAX];
	double att[REF_MAX], att_t[REF_MAX], exec[REF_MAX], lvl_t[REF_MAX];
	double wait_acc[REF_MAX], wait_t[REF_MAX];
	int demotions, promotions;
	gp_policy_ctx ctx;
	const gp_policy *pol;
	gp_alloc alloc;
	gp_placement pl[REF_MAX], tmp;
	double start[REF_MAX], finish[REF_MAX];
	int state[REF_MAX];     /* 0 not arrived, 1 queued, 2 running, 3 done, 4 never */
	int seq[REF_MAX];       /* arrival order */
} ref_sim;

/* Does job a come before job b in its class queue? */
static int ref_before(const ref_sim *r, int a, int b)
{
	const gp_job *ja = &r->l->jobs[a], *jb = &r->l->jobs[b];

	if (r->queue == GP_SIM_SJF && r->pend[a] + r->rem[a] != r->pend[b] + r->rem[b])
		return r->pend[a] + r->rem[a] < r->pend[b] + r->rem[b];
	if (r->queue == GP_SIM_SJF && ja->submit != jb->submit)
		return ja->submit < jb->submit;
	if (r->queue == GP_SIM_PRIORITY && ja->priority != jb->priority)
		return ja->priority > jb->priority;
	return r->seq[a] < r->seq[b];
}

/* The queued jobs in scheduling order: LS queue, then BE queue. */
static int ref_queue(const ref_sim *r, int *q)
{
	int n = 0, k, i, a, b;

	for (k = 0; k < 2; k++) {
		int first = n;

		for (i = 0; i < (int)r->l->n; i++)
			if (r->state[i] == 1 && (r->l->jobs[i].klass == GP_CLASS_LS ? 0 : 1) == k)
				q[n++] = i;
		for (a = first + 1; a < n; a++)
			for (b = a; b > first && ref_before(r, q[b], q[b - 1]); b--) {
				int t = q[b];

				q[b] = q[b - 1];
				q[b - 1] = t;
			}
	}
	return n;
}

static int ref_place(ref_sim *r, gp_alloc *a, int j, gp_placement *out)
{
	gp_policy_ctx c = r->ctx;

	c.alloc = a;
	return r->pol->place(&c, &r->l->jobs[j], out) == GP_PLACED;
}

static void ref_start(ref_sim *r, int j, double t)
{
	gp_placement swap = r->pl[j];

	CU_ASSERT_EQUAL_FATAL(gp_placement_apply(&r->alloc, &r->tmp), 0);
	r->pl[j] = r->tmp;
	r->tmp = swap;
	if (r->nlev && r->exec[j] > 0)
		r->wait_acc[j] += t - r->wait_t[j];
	r->att_t[j] = t;
	r->state[j] = 2;
	if (r->start[j] < 0)
		r->start[j] = t;
	r->seg[j] = t;
	r->ovh[j] = r->pend[j];
	r->pend[j] = 0;
	r->finish[j] = t + (r->ovh[j] + r->rem[j]);
}

/* ---- preemption, the plain way: every trial on a copy of the state ---- */

typedef struct ref_cand {
	int job;
	int64_t held;
	double lost, start;
} ref_cand;

static int64_t ref_held(const gp_placement *p)
{
	int64_t m = 0;
	int i;

	for (i = 0; i < p->nparts; i++)
		m += (int64_t)p->parts[i].ngpus * p->parts[i].milli;
	return m;
}

/* Work done in j's current run at t, and what a preemption loses. */
static double ref_progress(const ref_sim *r, int j, double t)
{
	double e = t - r->seg[j] - r->ovh[j];

	return e > 0 ? e : 0;
}

static double ref_lost(const ref_sim *r, int j, double t)
{
	double w = ref_progress(r, j, t);

	return r->tau > 0 ? w - floor(w / r->tau) * r->tau : 0;
}

static int ref_cand_cmp(const void *x, const void *y)
{
	const ref_cand *a = x, *b = y;

	if (a->held != b->held)
		return a->held > b->held ? -1 : 1;
	if (a->lost != b->lost)
		return a->lost < b->lost ? -1 : 1;
	if (a->start != b->start)
		return a->start > b->start ? -1 : 1;
	return b->job - a->job;
}

static int ref_node_fits(const gp_alloc *a, int node, const gp_job *job, const gp_policy_ctx *ctx)
{
	gp_policy_ctx c = *ctx;
	int g, n = 0;

	c.alloc = a;
	if (!gp_node_eligible(&c, node, job))
		return 0;
	for (g = 0; g < cl.nodes[node].ngpus; g++) {
		int gpu = cl.nodes[node].first_gpu + g;

		n += a->gpu_free_milli[gpu] >= job->gpu_milli && a->gpu_free_mem_mib[gpu] >= job->gpu_mem_mib;
	}
	return n >= job->gpus && a->node_free_cpu_milli[node] >= job->cpu_milli &&
	       a->node_free_mem_mib[node] >= job->mem_mib;
}

static int ref_list(const ref_sim *r, int j)
{
	return (r->l->jobs[j].klass == GP_CLASS_LS ? 0 : 1) * r->nlev + r->level[j];
}

/* las: attained service (less the restore overhead at the start of the
 * run, [seg, seg + ovh]) and run time of running j up to t. */
static void ref_account(ref_sim *r, int j, double t)
{
	double dt = t - r->att_t[j], end = r->seg[j] + r->ovh[j], o = 0;

	if (end > r->att_t[j])
		o = (end < t ? end : t) - r->att_t[j];
	if (dt > 0) {
		r->att[j] += (double)ref_held(&r->pl[j]) / GP_MILLI * (dt - o);
		r->exec[j] += dt;
	}
	r->att_t[j] = t;
}

/* The policy placed h into r->tmp on `trial` (victims v[0..nv) released):
 * victims it leaves room for stay, the others are preempted. */
static void ref_commit(ref_sim *r, gp_alloc *trial, const int *v, int nv, double t)
{
	int i, keep[REF_MAX] = { 0 };

	CU_ASSERT_EQUAL_FATAL(gp_placement_apply(trial, &r->tmp), 0);
	for (i = nv; i-- > 0;)
		keep[i] = gp_placement_apply(trial, &r->pl[v[i]]) == 0;
	for (i = 0; i < nv; i++) {
		int j = v[i];
		double w;

		if (keep[i])
			continue;
		gp_placement_undo(&r->alloc, &r->pl[j]);
		if (r->nlev) {
			ref_account(r, j, t);
			r->wait_t[j] = t;
		}
		w = ref_progress(r, j, t) - ref_lost(r, j, t);
		r->rem[j] -= w;
		r->pend[j] = r->cost;
		r->state[j] = 1;
		r->npre[j]++;
	}
}

/* Smaller victims first: share held, then work lost, then latest start. */
static int ref_smaller(const ref_cand *a, const ref_cand *b)
{
	if (a->held != b->held)
		return a->held < b->held;
	if (a->lost != b->lost)
		return a->lost < b->lost;
	if (a->start != b->start)
		return a->start > b->start;
	return a->job > b->job;
}

/* Does node have room for job with the candidates c[sel[0..k)] gone? */
static int ref_set_fits(const ref_sim *r, const int *sel, int k, int node, const gp_job *job,
			const ref_cand *c)
{
	gp_alloc trial;
	int i, fits;

	CU_ASSERT_EQUAL_FATAL(gp_alloc_copy(&trial, &r->alloc), GP_OK);
	for (i = 0; i < k; i++)
		gp_placement_undo(&trial, &r->pl[c[sel[i]].job]);
	fits = ref_node_fits(&trial, node, job, &r->ctx);
	gp_alloc_release(&trial);
	return fits;
}

static int ref_preempt(ref_sim *r, int h, double t, int level)
{
	const gp_job *job = &r->l->jobs[h];
	ref_cand c[REF_MAX];
	int nc = 0, i, k, n = (int)r->l->n, v[REF_MAX], nv, ok = 0;
	int64_t used = 0;
	gp_alloc trial;

	for (i = 0; i < n; i++) {
		const gp_job *b = &r->l->jobs[i];

		if (r->state[i] != 2)
			continue;
		used += ref_held(&r->pl[i]);
		if (level >= 0 ? ref_list(r, i) <= level :
		    r->preempt == GP_SIM_PREEMPT_CLASS ? !(job->klass == GP_CLASS_LS && b->klass == GP_CLASS_BE)
						       : !(b->priority < job->priority))
			continue;
		c[nc].job = i;
		c[nc].held = ref_held(&r->pl[i]);
		c[nc].lost = ref_lost(r, i, t) * (double)c[nc].held / GP_MILLI;
		c[nc].start = r->seg[i];
		nc++;
	}
	if (!nc)
		return 0;
	qsort(c, (size_t)nc, sizeof(*c), ref_cand_cmp);
	if (job->type == GP_JOB_RING_ALLREDUCE || job->type == GP_JOB_PS_WORKER) {
		int64_t free_milli = (int64_t)cl.ngpus * GP_MILLI - used;

		CU_ASSERT_EQUAL_FATAL(gp_alloc_copy(&trial, &r->alloc), GP_OK);
		for (k = 0; k < nc && !ok; k++) {
			gp_placement_undo(&trial, &r->pl[c[k].job]);
			v[k] = c[k].job;
			free_milli += c[k].held;
			if (free_milli >= (int64_t)job->gpus * job->gpu_milli && ref_place(r, &trial, h, &r->tmp)) {
				ref_commit(r, &trial, v, k + 1, t);
				ok = 1;
			}
		}
		gp_alloc_release(&trial);
		return ok;
	}
	/* One node: each node's shortest prefix of its candidates that makes
	 * room, each of them then swapped for the smallest other candidate
	 * that still does; nodes by (victims, share, lost, latest start, id). */
	{
		int cnt[4] = { 0 }, tried[4] = { 0 }, node, sel[4][REF_MAX];
		int64_t share[4] = { 0 };
		double lost[4] = { 0 }, latest[4];

		for (node = 0; node < cl.nnodes; node++) {
			int nl = 0, loc[REF_MAX], in[REF_MAX] = { 0 }, p, q, kk = 0, fits = 0;

			latest[node] = -INFINITY;
			for (k = 0; k < nc; k++) {
				const gp_placement *pp = &r->pl[c[k].job];
				int touch = 0;

				for (i = 0; i < pp->nparts; i++)
					touch |= pp->parts[i].node == node;
				if (touch)
					loc[nl++] = k;
			}
			while (kk < nl && !fits) {
				sel[node][kk] = loc[kk];
				kk++;
				fits = ref_set_fits(r, sel[node], kk, node, job, c);
			}
			if (!fits)
				continue;
			for (i = 0; i < kk; i++)
				in[i] = 1;
			for (p = 0; p < kk; p++) {
				int was = sel[node][p], best = -1, bq = -1;

				for (q = kk; q < nl; q++) {
					if (in[q] || !ref_smaller(&c[loc[q]], &c[was]) ||
					    (best >= 0 && !ref_smaller(&c[loc[q]], &c[best])))
						continue;
					sel[node][p] = loc[q];
					if (ref_set_fits(r, sel[node], kk, node, job, c)) {
						best = loc[q];
						bq = q;
					}
					sel[node][p] = was;
				}
				if (best >= 0) {
					for (q = 0; q < nl; q++)
						if (loc[q] == was)
							in[q] = 0;
					sel[node][p] = best;
					in[bq] = 1;
				}
			}
			cnt[node] = kk;
			for (i = 0; i < kk; i++) {
				share[node] += c[sel[node][i]].held;
				lost[node] += c[sel[node][i]].lost;
				if (c[sel[node][i]].start > latest[node])
					latest[node] = c[sel[node][i]].start;
			}
		}
		for (;;) {
			int best = -1;

			for (node = 0; node < cl.nnodes; node++) {
				if (!cnt[node] || tried[node])
					continue;
				if (best < 0 || cnt[node] < cnt[best] ||
				    (cnt[node] == cnt[best] && (share[node] < share[best] ||
				     (share[node] == share[best] && (lost[node] < lost[best] ||
				      (lost[node] == lost[best] && latest[node] > latest[best]))))))
					best = node;
			}
			if (best < 0)
				return 0;
			tried[best] = 1;
			CU_ASSERT_EQUAL_FATAL(gp_alloc_copy(&trial, &r->alloc), GP_OK);
			for (nv = 0; nv < cnt[best]; nv++) {
				gp_placement_undo(&trial, &r->pl[c[sel[best][nv]].job]);
				v[nv] = c[sel[best][nv]].job;
			}
			if (ref_place(r, &trial, h, &r->tmp)) {
				ref_commit(r, &trial, v, nv, t);
				gp_alloc_release(&trial);
				return 1;
			}
			gp_alloc_release(&trial);
		}
	}
}

static void ref_pass(ref_sim *r, double t)
{
	int q[REF_MAX], nq = ref_queue(r, q), i, head = -1, g, p, found, n = (int)r->l->n;
	double resv_t = INFINITY;
	int resv_gpu[64] = { 0 }, resv_node[4] = { 0 };
	int64_t spare_cpu[4] = { 0 }, spare_mem[4] = { 0 };

	if (r->queue == GP_SIM_FIFO_SKIP) {
		/* Every job in order that fits; a class's head may preempt. */
		int passed[2] = { 0, 0 };

		for (i = 0; i < nq; i++) {
			int cls = r->l->jobs[q[i]].klass == GP_CLASS_LS ? 0 : 1;

			if (ref_place(r, &r->alloc, q[i], &r->tmp)) {
				ref_start(r, q[i], t);
			} else if (r->preempt && !passed[cls] && ref_preempt(r, q[i], t, -1)) {
				ref_start(r, q[i], t);
				ref_pass(r, t);
				return;
			} else {
				passed[cls] = 1;
			}
		}
		return;
	}
	for (i = 0; i < nq; i++) {
		if (!ref_place(r, &r->alloc, q[i], &r->tmp)) {
			if (r->preempt && ref_preempt(r, q[i], t, -1)) {
				/* Victims are back in the queue: a fresh pass. */
				ref_start(r, q[i], t);
				ref_pass(r, t);
				return;
			}
			head = i;
			break;
		}
		ref_start(r, q[i], t);
	}
	if (head < 0 || r->queue != GP_SIM_BACKFILL)
		return;
	/* The reservation: the first finish time at which the head fits on
	 * the cluster holding only the jobs still running then.  A job that
	 * would still run then must leave the head its share of the host
	 * CPU and memory free at that time. */
	for (;;) {
		double next = INFINITY;
		gp_alloc later;

		for (i = 0; i < n; i++)
			if (r->state[i] == 2 && r->finish[i] > (resv_t == INFINITY ? -INFINITY : resv_t) &&
			    r->finish[i] < next)
				next = r->finish[i];
		resv_t = next;
		if (next == INFINITY)
			break;
		CU_ASSERT_EQUAL_FATAL(gp_alloc_init(&later, &cl), GP_OK);
		for (i = 0; i < n; i++)
			if (r->state[i] == 2 && r->finish[i] > resv_t)
				CU_ASSERT_EQUAL(gp_placement_apply(&later, &r->pl[i]), 0);
		found = ref_place(r, &later, q[head], &r->tmp);
		if (found)
			for (p = 0; p < r->tmp.nparts; p++) {
				const gp_place_part *part = &r->tmp.parts[p];

				if (!resv_node[part->node]) {
					resv_node[part->node] = 1;
					spare_cpu[part->node] = later.node_free_cpu_milli[part->node];
					spare_mem[part->node] = later.node_free_mem_mib[part->node];
				}
				spare_cpu[part->node] -= part->cpu_milli;
				spare_mem[part->node] -= part->host_mem_mib;
				for (g = 0; g < part->ngpus; g++)
					resv_gpu[cl.nodes[part->node].first_gpu + part->gpus[g]] = 1;
			}
		gp_alloc_release(&later);
		if (found)
			break;
	}
	/* Everything behind the head, in queue order. */
	for (i = head + 1; i < nq; i++) {
		int ok = 1, j = q[i];

		if (!ref_place(r, &r->alloc, j, &r->tmp))
			continue;
		if (!(t + (r->pend[j] + r->rem[j]) <= resv_t)) {
			for (p = 0; p < r->tmp.nparts; p++) {
				const gp_place_part *part = &r->tmp.parts[p];

				for (g = 0; g < part->ngpus; g++)
					if (resv_gpu[cl.nodes[part->node].first_gpu + part->gpus[g]])
						ok = 0;
				if (resv_node[part->node] && (part->cpu_milli > spare_cpu[part->node] ||
							      part->host_mem_mib > spare_mem[part->node]))
					ok = 0;
			}
			if (!ok)
				continue;
			for (p = 0; p < r->tmp.nparts; p++)
				if (resv_node[r->tmp.parts[p].node]) {
					spare_cpu[r->tmp.parts[p].node] -= r->tmp.parts[p].cpu_milli;
					spare_mem[r->tmp.parts[p].node] -= r->tmp.parts[p].host_mem_mib;
				}
		}
		ref_start(r, j, t);
	}
}

/* las, the plain way: after every batch, the queues (class, level) in
 * order, each by (time it entered, arrival); a job starts if the policy
 * places it, else by preempting jobs of later queues, else it is passed
 * over. */
static void ref_las_pass(ref_sim *r, double t)
{
	int l, i, a, b, n = (int)r->l->n;

	for (l = 0; l < 2 * r->nlev; l++) {
		int q[REF_MAX], nq = 0;

		for (i = 0; i < n; i++)
			if (r->state[i] == 1 && ref_list(r, i) == l)
				q[nq++] = i;
		for (a = 1; a < nq; a++)
			for (b = a; b > 0 && (r->lvl_t[q[b]] < r->lvl_t[q[b - 1]] ||
					      (r->lvl_t[q[b]] == r->lvl_t[q[b - 1]] &&
					       r->seq[q[b]] < r->seq[q[b - 1]])); b--) {
				int x = q[b];

				q[b] = q[b - 1];
				q[b - 1] = x;
			}
		for (i = 0; i < nq; i++)
			if (ref_place(r, &r->alloc, q[i], &r->tmp) || (r->preempt && ref_preempt(r, q[i], t, l)))
				ref_start(r, q[i], t);
	}
}

/* Time of j's next las event: demotion (running), promotion (waiting). */
static double ref_las_next(const ref_sim *r, int j)
{
	if (r->state[j] == 2 && r->level[j] < r->nlev - 1) {
		double g = (double)ref_held(&r->pl[j]) / GP_MILLI;
		double d = r->att_t[j] + (r->thr[r->level[j]] - r->att[j]) / g;

		if (r->seg[j] + r->ovh[j] > r->att_t[j])
			d += r->seg[j] + r->ovh[j] - r->att_t[j];
		return d > r->att_t[j] ? d : r->att_t[j];
	}
	if (r->state[j] == 1 && r->knob > 0 && r->level[j] > 0 && r->exec[j] > 0) {
		double d = r->wait_t[j] + r->knob * r->exec[j] - r->wait_acc[j];

		return d > r->wait_t[j] ? d : r->wait_t[j];
	}
	return INFINITY;
}

static void ref_run(ref_sim *r, const gp_joblist *l, const gp_sim_config *cfg)
{
	int n = (int)l->n, i, nseq = 0;
	gp_rng rng;
	gp_alloc idle;

	memset(r, 0, sizeof(*r));
	r->l = l;
	r->queue = cfg->queue;
	r->pol = cfg->policy;
	r->preempt = cfg->preempt;
	r->cost = cfg->preempt_cost;
	r->tau = cfg->checkpoint_interval;
	if (cfg->queue == GP_SIM_LAS) {
		r->nlev = cfg->las_nthresholds + 1;
		for (i = 0; i < cfg->las_nthresholds; i++)
			r->thr[i] = cfg->las_thresholds[i];
		r->knob = cfg->las_starvation;
		r->preempt = cfg->las_preempt;
	}
	gp_rng_seed(&rng, 7);
	r->ctx.cluster = &cl;
	r->ctx.rng = &rng;
	CU_ASSERT_EQUAL_FATAL(gp_alloc_init(&r->alloc, &cl), GP_OK);
	CU_ASSERT_EQUAL_FATAL(gp_alloc_init(&idle, &cl), GP_OK);
	gp_placement_init(&r->tmp);
	for (i = 0; i < n; i++) {
		gp_placement_init(&r->pl[i]);
		r->start[i] = r->finish[i] = -1;
		r->rem[i] = l->jobs[i].duration;
	}
	for (;;) {
		double t = INFINITY;
		int running = 0, waiting = 0, queued = 0;

		for (i = 0; i < n; i++) {
			if (r->state[i] == 0 && l->jobs[i].submit < t)
				t = l->jobs[i].submit;
			if (r->state[i] == 2 && r->finish[i] < t)
				t = r->finish[i];
			if (r->nlev && ref_las_next(r, i) < t)
				t = ref_las_next(r, i);
		}
		if (t == INFINITY)
			break;
		for (i = 0; i < n; i++)
			if (r->state[i] == 2 && r->finish[i] == t) {
				gp_placement_undo(&r->alloc, &r->pl[i]);
				r->state[i] = 3;
			}
		for (i = 0; i < n && r->nlev; i++) {
			if (ref_las_next(r, i) != t)
				continue;
			if (r->state[i] == 2) {
				ref_account(r, i, t);
				r->level[i]++;
				r->lvl_t[i] = t;
				r->demotions++;
			} else {
				r->level[i] = 0;
				r->att[i] = r->exec[i] = r->wait_acc[i] = 0;
				r->lvl_t[i] = t;
				r->promotions++;
			}
		}
		/* Same-time arrivals in file order; a job the idle cluster
		 * cannot hold is never placed and never queues. */
		for (i = 0; i < n; i++)
			if (r->state[i] == 0 && l->jobs[i].submit == t) {
				r->seq[i] = nseq++;
				r->state[i] = ref_place(r, &idle, i, &r->tmp) ? 1 : 4;
				r->lvl_t[i] = t;
			}
		if (r->nlev)
			ref_las_pass(r, t);
		else
			ref_pass(r, t);
		/* Nothing runs and nothing will come: the head can never start. */
		for (;;) {
			int q[REF_MAX];

			running = waiting = queued = 0;
			for (i = 0; i < n; i++) {
				running += r->state[i] == 2;
				waiting += r->state[i] == 0;
				queued += r->state[i] == 1;
			}
			if (running || waiting || !queued)
				break;
			ref_queue(r, q);
			r->state[q[0]] = 4;
			if (r->nlev)
				ref_las_pass(r, t);
			else
				ref_pass(r, t);
		}
	}
	for (i = 0; i < n; i++)
		gp_placement_release(&r->pl[i]);
	gp_placement_release(&r->tmp);
	gp_alloc_release(&r->alloc);
	gp_alloc_release(&idle);
}

/* The engine against the reference on random small traces: 3 nodes of 4
 * GPUs and 16 CPUs; jobs of 1-4 GPUs on one node, Ring-AllReduce jobs of
 * up to 8 GPUs across nodes, some asking for CPUs and host memory (so
 * backfill must keep the head's host share free), the odd job that can
 * never fit, both classes, three priorities, integer times so that events
 * coincide.  Every queue discipline, two policies, and under backfill both
 * scans (the plain walk and the index), which must give the same answers;
 * fifo, sjf, backfill and priority also with --preempt class and priority
 * (a preemption cost and a checkpoint interval on half the traces); las
 * without and with preemption, with starvation promotion, with 2 and 3
 * queues.  GP_XDEBUG=1 prints both schedules of a trace that differs. */
static void test_reference_crosscheck(void)
{
	static const char *const policies[] = { "first-fit", "bestfit" };
	gp_rng rng;
	int trace, jobs_checked = 0, backfilled = 0, preempted = 0, promoted = 0;

	gp_rng_seed(&rng, 2026);
	build_cluster(3, 4);
	for (trace = 0; trace < 150; trace++) {
		gp_joblist l;
		int n = 4 + (int)gp_rng_below(&rng, 36), i, q, pi, scan, pm;
		double span = 1 + (double)gp_rng_below(&rng, 120), cost, tau;

		gp_joblist_init(&l);
		for (i = 0; i < n; i++) {
			char id[16];
			static const int sizes[] = { 1, 1, 1, 2, 2, 3, 4, 4 };
			gp_job *j;

			snprintf(id, sizeof(id), "j%d", i);
			add(&l, id, (double)gp_rng_below(&rng, (uint64_t)span), sizes[gp_rng_below(&rng, 8)],
			    1 + (double)gp_rng_below(&rng, 60),
			    gp_rng_below(&rng, 4) == 0 ? GP_CLASS_LS : GP_CLASS_BE);
			j = &l.jobs[i];
			if (gp_rng_below(&rng, 5) == 0) {
				j->type = GP_JOB_RING_ALLREDUCE;
				j->gpus = 2 + (int)gp_rng_below(&rng, 7);
			}
			if (gp_rng_below(&rng, 3) == 0)
				j->cpu_milli = 1000 * (int64_t)(1 + gp_rng_below(&rng, 10));
			if (gp_rng_below(&rng, 4) == 0)
				j->mem_mib = 1024 * (int64_t)(1 + gp_rng_below(&rng, 40));
			if (gp_rng_below(&rng, 40) == 0)
				j->gpus = 5; /* single node: never fits a 4-GPU node */
			j->priority = (int)gp_rng_below(&rng, 3);
		}
		cost = gp_rng_below(&rng, 2) ? 3 : 0;
		tau = gp_rng_below(&rng, 2) ? 7 : 0;

		for (pi = 0; pi < 2; pi++)
			for (q = 0; q <= GP_SIM_FIFO_SKIP; q++)
				for (pm = 0; pm < (q == GP_SIM_LAS ? 4 : GP_SIM_PREEMPT_MODES); pm++)
					for (scan = GP_SIM_SCAN_WALK; scan <= (q == GP_SIM_BACKFILL ? GP_SIM_SCAN_INDEX : GP_SIM_SCAN_WALK); scan++) {
						gp_sim_config cfg;
						gp_error err = GP_ERROR_INIT;
						gp_sim_result res;
						ref_sim ref;
						int bad = 0;

						gp_sim_config_init(&cfg);
						cfg.cluster = &cl;
						cfg.policy = gp_policy_find(policies[pi]);
						cfg.queue = q;
						cfg.seed = 7;
						cfg.tick = 10;
						cfg.backfill_scan = scan;
						cfg.preempt = q == GP_SIM_LAS ? 0 : pm;
						cfg.preempt_cost = pm ? cost : 0;
						cfg.checkpoint_interval = pm ? tau : 0;
						if (q == GP_SIM_LAS) {
							/* off; on; on with starvation; 3 queues */
							cfg.las_preempt = pm > 0;
							cfg.las_nthresholds = pm == 3 ? 2 : 1;
							cfg.las_thresholds[0] = 40;
							cfg.las_thresholds[1] = 150;
							cfg.las_starvation = pm >= 2 ? 2 : 0;
							/* promotions with lost work longer than
							 * a quantum livelock (a restore cost is
							 * no attained service: it does not) */
							if (pm >= 2)
								cfg.checkpoint_interval = 0;
						}
						if (gp_sim_run(&cfg, &l, &res, &err) != GP_OK)
							fprintf(stderr, "\ncross-check: trace %d, %s, mode %d: %s\n", trace,
								gp_sim_queue_name(q), pm, err.msg);
						CU_ASSERT_EQUAL_FATAL(err.status, GP_OK);
						ref_run(&ref, &l, &cfg);
						for (i = 0; i < n; i++) {
							int want = ref.state[i] == 3 ? GP_SIM_DONE : GP_SIM_NEVER;

							if (res.jobs[i].state != want || res.jobs[i].start != ref.start[i] ||
							    res.jobs[i].finish != ref.finish[i] ||
							    res.jobs[i].preemptions != ref.npre[i])
								bad++;
							preempted += ref.npre[i];
						}
						if (bad && getenv("GP_XDEBUG"))
							for (i = 0; i < n; i++)
								fprintf(stderr, "  %s%s sub %g gpus %d type %d cls %d prio %d dur %g: "
									"engine %g-%g pre %d, ref %g-%g pre %d\n",
									res.jobs[i].finish != ref.finish[i] ? "*" : " ", l.jobs[i].id,
									l.jobs[i].submit, l.jobs[i].gpus, l.jobs[i].type, l.jobs[i].klass,
									l.jobs[i].priority, l.jobs[i].duration, res.jobs[i].start,
									res.jobs[i].finish, res.jobs[i].preemptions, ref.start[i],
									ref.finish[i], ref.npre[i]);
						if (bad)
							fprintf(stderr, "\ncross-check: trace %d, %s, %s, mode %d, scan %d: "
								"%d of %d jobs differ\n", trace, policies[pi], gp_sim_queue_name(q),
								pm, scan, bad, n);
						CU_ASSERT_EQUAL(bad, 0);
						if (q == GP_SIM_LAS) {
							CU_ASSERT_EQUAL(res.las_demotions, (size_t)ref.demotions);
							CU_ASSERT_EQUAL(res.las_promotions, (size_t)ref.promotions);
							promoted += ref.promotions;
						}
						jobs_checked += n;
						if (q == GP_SIM_BACKFILL)
							backfilled += (int)res.backfilled;
						gp_sim_result_release(&res);
					}
		gp_joblist_release(&l);
	}
	/* The traces must exercise backfill, not just pass trivially. */
	CU_ASSERT(backfilled > 100);
	CU_ASSERT(preempted > 1000);
	CU_ASSERT(promoted > 100);
	CU_ASSERT(jobs_checked > 10000);
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

/* A 2e6 s job sampled every second would need 2e6 timeline rows: the run
 * stops at the cap with a usage error instead of growing without bound. */
static void test_tick_cap(void)
{
	gp_joblist l;
	gp_sim_result r;
	gp_sim_config cfg;
	gp_error err = GP_ERROR_INIT;

	build_cluster(1, 4);
	gp_joblist_init(&l);
	add(&l, "long", 0, 1, 2e6, GP_CLASS_BE);
	gp_sim_config_init(&cfg);
	cfg.cluster = &cl;
	cfg.policy = gp_policy_find("first-fit");
	cfg.tick = 1;
	CU_ASSERT_EQUAL(gp_sim_run(&cfg, &l, &r, &err), GP_EUSAGE);
	CU_ASSERT_EQUAL(err.status, GP_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "1000000 timeline rows"));
	gp_joblist_release(&l);
}

/* A PS-Worker job of one server and three workers on one 4-GPU node of
 * two: bestfit gives the server a part of its own on the node its
 * workers use, so the placement has two parts but the job spans one node,
 * the figure jobs.csv prints as nodes (and its node list, once). */
static void test_ps_worker_one_node(void)
{
	gp_joblist l;
	gp_sim_result r;
	gp_sim_config cfg;
	gp_error err = GP_ERROR_INIT;
	gp_job *j;

	build_cluster(2, 4);
	gp_joblist_init(&l);
	j = gp_test_add_job(&l, "ps", 0, 4, 100, GP_CLASS_BE);
	j->type = GP_JOB_PS_WORKER;
	j->ps = 1;
	j->workers = 3;
	gp_sim_config_init(&cfg);
	cfg.cluster = &cl;
	cfg.policy = gp_policy_find("bestfit");
	cfg.seed = 7;
	CU_ASSERT_EQUAL_FATAL(gp_sim_run(&cfg, &l, &r, &err), GP_OK);
	CHECK_JOB(r, 0, 0, 100);
	CU_ASSERT_EQUAL(r.jobs[0].nodes, 1);
	CU_ASSERT_EQUAL(r.jobs[0].first_node, 0);
	CU_ASSERT_FATAL(r.nnode_ids >= 1);
	CU_ASSERT_EQUAL(r.node_ids[r.jobs[0].nodes_at], 0);
	gp_sim_result_release(&r);
	gp_joblist_release(&l);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("sim");

	gp_test_add(s, "fifo_head_of_line", test_fifo_head_of_line);
	gp_test_add(s, "fifo_skip", test_fifo_skip);
	gp_test_add(s, "sjf_order_and_ties", test_sjf_order_and_ties);
	gp_test_add(s, "slurm backfill: whole nodes", test_backfill_slurm_whole_nodes);
	gp_test_add(s, "slurm backfill: a plan for every job", test_backfill_slurm_every_job);
	gp_test_add(s, "slurm backfill: mode names", test_backfill_slurm_names);
	gp_test_add(s, "slurm backfill: cycles", test_backfill_slurm_cycles);
	gp_test_add(s, "backfill", test_backfill);
	gp_test_add(s, "backfill_extra_gpus", test_backfill_extra_gpus);
	gp_test_add(s, "backfill_arrival_rescans", test_backfill_arrival_rescans);
	gp_test_add(s, "classes", test_classes);
	gp_test_add(s, "never_placed_and_failed", test_never_placed_and_failed);
	gp_test_add(s, "duration_hook", test_duration_hook);
	gp_test_add(s, "determinism", test_determinism);
	gp_test_add(s, "empty", test_empty);
	gp_test_add(s, "tick_cap", test_tick_cap);
	gp_test_add(s, "ps_worker_one_node", test_ps_worker_one_node);
	gp_test_add(s, "reference_crosscheck", test_reference_crosscheck);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
