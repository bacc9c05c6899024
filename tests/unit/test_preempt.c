/* Interruptions: predicted sharing's class preemption, priorities, las (Tiresias'
 * discretized 2D-LAS) and the interrupt API the failure and QoS sources
 * use, on hand-built clusters with schedules worked out by hand in the
 * comments. */
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

static gp_job *add(gp_joblist *l, const char *id, double submit, int gpus, double dur, int klass)
{
	return gp_test_add_job(l, id, submit, gpus, dur, klass);
}

static void config(gp_sim_config *cfg, int queue, int preempt)
{
	gp_sim_config_init(cfg);
	cfg->cluster = &cl;
	cfg->policy = gp_policy_find("first-fit");
	cfg->queue = queue;
	cfg->preempt = preempt;
	cfg->seed = 7;
	cfg->tick = 50;
}

static int run_cfg(const gp_sim_config *cfg, gp_joblist *l, gp_sim_result *r)
{
	gp_error err = GP_ERROR_INIT;
	int rc = gp_sim_run(cfg, l, r, &err);

	if (rc)
		fprintf(stderr, "\nsimulate: %s\n", err.msg);
	return rc;
}

#define CHECK_JOB(r, i, s, f) do { \
		CU_ASSERT_DOUBLE_EQUAL((r).jobs[i].start, (s), 1e-9); \
		CU_ASSERT_DOUBLE_EQUAL((r).jobs[i].finish, (f), 1e-9); \
	} while (0)

/* The issue's schedule: one 8-GPU node, BE job A (8 GPUs, 1,000 s) at 0,
 * LS job B (4 GPUs, 100 s) at 10.  B takes A's GPUs at 10 and runs to
 * 110; A resumes at 110 with 990 s left and finishes at 1,100 (start
 * stays 0).  With --preempt-cost 5 A spends 5 s restoring: 1,105, and 8
 * GPUs x 5 s = 40 GPU-seconds lost.  With --checkpoint-interval 3 and no
 * cost A loses the work since its checkpoint at 9: 1 s, 8 GPU-seconds,
 * finish 1,101.  Without --preempt B waits for A: 1,000-1,100. */
static void test_class_basic(void)
{
	gp_joblist l;
	gp_sim_result r;
	gp_sim_config cfg;
	gp_sim_summary ls;

	build_cluster(1, 8);
	gp_joblist_init(&l);
	add(&l, "A", 0, 8, 1000, GP_CLASS_BE);
	add(&l, "B", 10, 4, 100, GP_CLASS_LS);

	config(&cfg, GP_SIM_FIFO, GP_SIM_PREEMPT_CLASS);
	CU_ASSERT_EQUAL_FATAL(run_cfg(&cfg, &l, &r), GP_OK);
	CHECK_JOB(r, 0, 0, 1100);
	CHECK_JOB(r, 1, 10, 110);
	CU_ASSERT_EQUAL(r.jobs[0].preemptions, 1);
	CU_ASSERT_EQUAL(r.jobs[1].preemptions, 0);
	CU_ASSERT_EQUAL(r.interruptions[GP_SIM_CAUSE_PREEMPT], 1);
	CU_ASSERT_DOUBLE_EQUAL(r.lost_gpu_seconds[GP_SIM_CAUSE_PREEMPT], 0, 1e-12);
	/* 8 x 10 + 4 x 100 + 8 x 990 GPU-seconds. */
	CU_ASSERT_DOUBLE_EQUAL(r.alloc_gpu_seconds, 8400, 1e-9);
	gp_sim_summarize(&l, &r, GP_CLASS_LS, &ls);
	CU_ASSERT_DOUBLE_EQUAL(ls.queue_delay.max, 0, 1e-12);
	gp_sim_result_release(&r);

	cfg.preempt_cost = 5;
	CU_ASSERT_EQUAL_FATAL(run_cfg(&cfg, &l, &r), GP_OK);
	CHECK_JOB(r, 0, 0, 1105);
	CHECK_JOB(r, 1, 10, 110);
	CU_ASSERT_DOUBLE_EQUAL(r.lost_gpu_seconds[GP_SIM_CAUSE_PREEMPT], 40, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.jobs[0].lost_gpu_s, 40, 1e-9);
	gp_sim_result_release(&r);

	cfg.preempt_cost = 0;
	cfg.checkpoint_interval = 3;
	CU_ASSERT_EQUAL_FATAL(run_cfg(&cfg, &l, &r), GP_OK);
	CHECK_JOB(r, 0, 0, 1101);
	CU_ASSERT_DOUBLE_EQUAL(r.lost_gpu_seconds[GP_SIM_CAUSE_PREEMPT], 8, 1e-9);
	gp_sim_result_release(&r);

	config(&cfg, GP_SIM_FIFO, GP_SIM_PREEMPT_OFF);
	CU_ASSERT_EQUAL_FATAL(run_cfg(&cfg, &l, &r), GP_OK);
	CHECK_JOB(r, 0, 0, 1000);
	CHECK_JOB(r, 1, 1000, 1100);
	CU_ASSERT_EQUAL(r.interruptions[GP_SIM_CAUSE_PREEMPT], 0);
	gp_sim_result_release(&r);
	gp_joblist_release(&l);
}

/* Victim rule on one 8-GPU node, LS job L (4 GPUs, 100 s) at 10:
 * (a) BE X (4 GPUs) at 0, Y (2) at 5, Z (2) at 6: X alone frees enough,
 *     Y+Z would be two jobs: X is preempted (fewest jobs), resumes at
 *     110 and ends at 1,100; Y and Z are untouched.
 * (b) BE X1 (4) at 0, X2 (4) at 5, no checkpoints: both lose nothing;
 *     the most recently started, X2, is preempted: 5 + 1,000 + 100.
 * (c) the same with --checkpoint-interval 3: at 10 X1 has run 10 s
 *     (checkpoint at 9: 1 s x 4 GPUs lost), X2 5 s (checkpoint at 3: 2 s
 *     x 4 lost): X1 loses less and is preempted; it resumes at 110 with
 *     991 s left: 1,101. */
static void test_victim_rule(void)
{
	gp_joblist l;
	gp_sim_result r;
	gp_sim_config cfg;

	build_cluster(1, 8);
	gp_joblist_init(&l);
	add(&l, "X", 0, 4, 1000, GP_CLASS_BE);
	add(&l, "Y", 5, 2, 1000, GP_CLASS_BE);
	add(&l, "Z", 6, 2, 1000, GP_CLASS_BE);
	add(&l, "L", 10, 4, 100, GP_CLASS_LS);
	config(&cfg, GP_SIM_FIFO, GP_SIM_PREEMPT_CLASS);
	CU_ASSERT_EQUAL_FATAL(run_cfg(&cfg, &l, &r), GP_OK);
	CHECK_JOB(r, 3, 10, 110);
	CHECK_JOB(r, 0, 0, 1100);
	CHECK_JOB(r, 1, 5, 1005);
	CHECK_JOB(r, 2, 6, 1006);
	CU_ASSERT_EQUAL(r.interruptions[GP_SIM_CAUSE_PREEMPT], 1);
	gp_sim_result_release(&r);
	gp_joblist_release(&l);

	gp_joblist_init(&l);
	add(&l, "X1", 0, 4, 1000, GP_CLASS_BE);
	add(&l, "X2", 5, 4, 1000, GP_CLASS_BE);
	add(&l, "L", 10, 4, 100, GP_CLASS_LS);
	CU_ASSERT_EQUAL_FATAL(run_cfg(&cfg, &l, &r), GP_OK);
	CHECK_JOB(r, 0, 0, 1000);
	CHECK_JOB(r, 1, 5, 1105);
	CU_ASSERT_EQUAL(r.jobs[1].preemptions, 1);
	gp_sim_result_release(&r);

	cfg.checkpoint_interval = 3;
	CU_ASSERT_EQUAL_FATAL(run_cfg(&cfg, &l, &r), GP_OK);
	CHECK_JOB(r, 0, 0, 1101);
	CHECK_JOB(r, 1, 5, 1005);
	CU_ASSERT_EQUAL(r.jobs[0].preemptions, 1);
	CU_ASSERT_DOUBLE_EQUAL(r.lost_gpu_seconds[GP_SIM_CAUSE_PREEMPT], 4, 1e-9);
	gp_sim_result_release(&r);
	gp_joblist_release(&l);
}

/* The least GPU share comes after the fewest jobs: a 1-GPU job must not
 * take a 4-GPU job when a 1-GPU victim frees enough.
 * (a) One 8-GPU node: BE A (4 GPUs) at 0, B (1) at 1, C (3) at 2 fill it;
 *     LS L (1 GPU, 100 s) at 10.  A, B or C alone each make room (one
 *     victim); B holds the least share: L 10-110, B resumes at 110 with
 *     991 s left (1,101); A (0-1,000) and C (2-1,002) are untouched and no
 *     GPU stays idle.  (Taking the most GPUs first preempted A and left 3
 *     GPUs idle for 100 s.)
 * (b) Two 4-GPU nodes: B (1 GPU) at 0 and C (3) at 1 fill n0 (first-fit),
 *     A (4) at 5 fills n1; L (1 GPU) at 10.  Every node needs one victim;
 *     A started last, but n0's B holds 1 GPU against A's 4: B again
 *     (1,100), A 5-1,005, C 1-1,001. */
static void test_victim_share(void)
{
	gp_joblist l;
	gp_sim_result r;
	gp_sim_config cfg;

	build_cluster(1, 8);
	gp_joblist_init(&l);
	add(&l, "A", 0, 4, 1000, GP_CLASS_BE);
	add(&l, "B", 1, 1, 1000, GP_CLASS_BE);
	add(&l, "C", 2, 3, 1000, GP_CLASS_BE);
	add(&l, "L", 10, 1, 100, GP_CLASS_LS);
	config(&cfg, GP_SIM_FIFO, GP_SIM_PREEMPT_CLASS);
	CU_ASSERT_EQUAL_FATAL(run_cfg(&cfg, &l, &r), GP_OK);
	CHECK_JOB(r, 3, 10, 110);
	CHECK_JOB(r, 0, 0, 1000);
	CHECK_JOB(r, 1, 1, 1101);
	CHECK_JOB(r, 2, 2, 1002);
	CU_ASSERT_EQUAL(r.jobs[1].preemptions, 1);
	CU_ASSERT_EQUAL(r.interruptions[GP_SIM_CAUSE_PREEMPT], 1);
	gp_sim_result_release(&r);
	gp_joblist_release(&l);

	build_cluster(2, 4);
	gp_joblist_init(&l);
	add(&l, "B", 0, 1, 1000, GP_CLASS_BE);
	add(&l, "C", 1, 3, 1000, GP_CLASS_BE);
	add(&l, "A", 5, 4, 1000, GP_CLASS_BE);
	add(&l, "L", 10, 1, 100, GP_CLASS_LS);
	CU_ASSERT_EQUAL_FATAL(run_cfg(&cfg, &l, &r), GP_OK);
	CHECK_JOB(r, 3, 10, 110);
	CHECK_JOB(r, 0, 0, 1100);
	CHECK_JOB(r, 1, 1, 1001);
	CHECK_JOB(r, 2, 5, 1005);
	CU_ASSERT_EQUAL(r.jobs[0].first_node, 0);
	CU_ASSERT_EQUAL(r.interruptions[GP_SIM_CAUSE_PREEMPT], 1);
	gp_sim_result_release(&r);
	gp_joblist_release(&l);
}

/* A multi-node LS job.  Two nodes of 4 GPUs; BE A (4 GPUs) fills n0 at
 * 0, BE B (2) and D (2) fill n1 at 1 and 2.  LS ring job C (6 GPUs,
 * 100 s) at 10: candidates by GPUs held, then latest start: A, D, B.
 * Releasing A frees 4 GPUs (short of 6), then D: 6, and first-fit places
 * C on n0 and D's GPUs of n1.  B keeps running (1-1,001); A resumes at
 * 110 (1,100), D too (2 + 1,000 + 100 = 1,102). */
static void test_multi_node(void)
{
	gp_joblist l;
	gp_sim_result r;
	gp_sim_config cfg;

	build_cluster(2, 4);
	gp_joblist_init(&l);
	add(&l, "A", 0, 4, 1000, GP_CLASS_BE);
	add(&l, "B", 1, 2, 1000, GP_CLASS_BE);
	add(&l, "D", 2, 2, 1000, GP_CLASS_BE);
	add(&l, "C", 10, 6, 100, GP_CLASS_LS)->type = GP_JOB_RING_ALLREDUCE;
	config(&cfg, GP_SIM_FIFO, GP_SIM_PREEMPT_CLASS);
	CU_ASSERT_EQUAL_FATAL(run_cfg(&cfg, &l, &r), GP_OK);
	CHECK_JOB(r, 3, 10, 110);
	CU_ASSERT_EQUAL(r.jobs[3].nodes, 2);
	CHECK_JOB(r, 0, 0, 1100);
	CHECK_JOB(r, 1, 1, 1001);
	CHECK_JOB(r, 2, 2, 1102);
	CU_ASSERT_EQUAL(r.interruptions[GP_SIM_CAUSE_PREEMPT], 2);
	gp_sim_result_release(&r);
	gp_joblist_release(&l);
}

/* Priorities on one 4-GPU node: P0 (priority 0, 4 GPUs, 0-100) runs;
 * P1 (priority 1, 4 GPUs, 50 s) at 10 and P5 (priority 5, 4 GPUs, 20 s)
 * at 20 queue.  --queue priority without preemption: P5 before P1 when
 * P0 ends: P5 100-120, P1 120-170.  With --preempt priority: P1 takes
 * P0's GPUs at 10; P5 takes P1's at 20 (20-40); P1 resumes at 40 with
 * 40 s left (40-80); P0 last, 80 + 90 = 170. */
static void test_priority(void)
{
	gp_joblist l;
	gp_sim_result r;
	gp_sim_config cfg;

	build_cluster(1, 4);
	gp_joblist_init(&l);
	add(&l, "P0", 0, 4, 100, GP_CLASS_BE)->priority = 0;
	add(&l, "P1", 10, 4, 50, GP_CLASS_BE)->priority = 1;
	add(&l, "P5", 20, 4, 20, GP_CLASS_BE)->priority = 5;
	config(&cfg, GP_SIM_PRIORITY, GP_SIM_PREEMPT_OFF);
	CU_ASSERT_EQUAL_FATAL(run_cfg(&cfg, &l, &r), GP_OK);
	CHECK_JOB(r, 0, 0, 100);
	CHECK_JOB(r, 2, 100, 120);
	CHECK_JOB(r, 1, 120, 170);
	gp_sim_result_release(&r);

	config(&cfg, GP_SIM_PRIORITY, GP_SIM_PREEMPT_PRIORITY);
	CU_ASSERT_EQUAL_FATAL(run_cfg(&cfg, &l, &r), GP_OK);
	CHECK_JOB(r, 1, 10, 80);
	CHECK_JOB(r, 2, 20, 40);
	CHECK_JOB(r, 0, 0, 170);
	CU_ASSERT_EQUAL(r.jobs[0].preemptions, 1);
	CU_ASSERT_EQUAL(r.jobs[1].preemptions, 1);
	gp_sim_result_release(&r);
	gp_joblist_release(&l);
}

/* Priorities far apart, negative and tied (the victim search ranks the
 * distinct priorities of the trace), one 4-GPU node, first-fit:
 *   A (-7, 4 GPUs, 100 s) at 0; B (1000, 2 GPUs, 50 s) at 10 preempts A
 *   (its only lower-priority victim): B 10-60, A back in the queue with
 *   90 s left; C (1000, 2 GPUs, 30 s) at 20 takes the 2 free GPUs: 20-50;
 *   D (1000, 4 GPUs, 10 s) at 25 may not preempt B or C (equal priority)
 *   and waits to 60: 60-70; E (3, 4 GPUs, 5 s) at 65 may not preempt D
 *   and goes before A: 70-75; A 75-165. */
static void test_priority_sparse(void)
{
	gp_joblist l;
	gp_sim_result r;
	gp_sim_config cfg;

	build_cluster(1, 4);
	gp_joblist_init(&l);
	add(&l, "A", 0, 4, 100, GP_CLASS_BE)->priority = -7;
	add(&l, "B", 10, 2, 50, GP_CLASS_BE)->priority = 1000;
	add(&l, "C", 20, 2, 30, GP_CLASS_BE)->priority = 1000;
	add(&l, "D", 25, 4, 10, GP_CLASS_BE)->priority = 1000;
	add(&l, "E", 65, 4, 5, GP_CLASS_BE)->priority = 3;
	config(&cfg, GP_SIM_PRIORITY, GP_SIM_PREEMPT_PRIORITY);
	CU_ASSERT_EQUAL_FATAL(run_cfg(&cfg, &l, &r), GP_OK);
	CHECK_JOB(r, 0, 0, 165);
	CHECK_JOB(r, 1, 10, 60);
	CHECK_JOB(r, 2, 20, 50);
	CHECK_JOB(r, 3, 60, 70);
	CHECK_JOB(r, 4, 70, 75);
	CU_ASSERT_EQUAL(r.jobs[0].preemptions, 1);
	gp_sim_result_release(&r);
	gp_joblist_release(&l);
}

/* las demotions with the default thresholds (3,250 and 7,200 GPU-s) on
 * one 8-GPU node: A (8 GPUs, 1,000 s) at 0 and B (4 GPUs, 100 s) at 10
 * share Q0, so B waits until A's attained service reaches 3,250 at
 * 406.25 s: A moves to Q1 and B preempts it (406.25-506.25).  A resumes
 * at 506.25 with 593.75 s left: 1,100; it reaches 7,200 GPU-s (Q2) at
 * 506.25 + 3,950 / 8 = 1,000.  Demotions: 2. */
static void test_las_demotion(void)
{
	gp_joblist l;
	gp_sim_result r;
	gp_sim_config cfg;

	build_cluster(1, 8);
	gp_joblist_init(&l);
	add(&l, "A", 0, 8, 1000, GP_CLASS_BE);
	add(&l, "B", 10, 4, 100, GP_CLASS_BE);
	config(&cfg, GP_SIM_LAS, GP_SIM_PREEMPT_OFF);
	CU_ASSERT_EQUAL_FATAL(run_cfg(&cfg, &l, &r), GP_OK);
	CHECK_JOB(r, 0, 0, 1100);
	CHECK_JOB(r, 1, 406.25, 506.25);
	CU_ASSERT_EQUAL(r.las_demotions, 2);
	CU_ASSERT_EQUAL(r.jobs[0].preemptions, 1);
	gp_sim_result_release(&r);
	/* Without las preemption B waits for A. */
	cfg.las_preempt = 0;
	CU_ASSERT_EQUAL_FATAL(run_cfg(&cfg, &l, &r), GP_OK);
	CHECK_JOB(r, 1, 1000, 1100);
	gp_sim_result_release(&r);
	gp_joblist_release(&l);
}

/* Starvation promotion, one 1-GPU node, thresholds {100}: two queues.
 * A (1,000 s) at 0, B (300 s) at 50.  B waits in Q0 behind A (same
 * queue) until A reaches 100 GPU-s at 100 and drops to Q1; B preempts it.
 * Knob 0: B runs 100-400 (it drops to Q1 at 200, where A waits behind
 * it), A resumes at 400 with 900 s left: 1,300.
 * Knob 1: a waiting job that ran is promoted once it waited as long as
 * it ran since its last promotion.  A (ran 100 s) is promoted at 200,
 * when B drops to Q1: A preempts B.  Then every 100 s the runner drops
 * and the waiter is promoted: A 200-300, B 300-400, A 400-500, B 500-600
 * (B done), A from 600 with 700 s left: 1,300.  Promotions: A at 200,
 * 400, 600, B at 300, 500; demotions: A at 100, 300, 500, 700, B at 200,
 * 400. */
static void test_las_starvation(void)
{
	gp_joblist l;
	gp_sim_result r;
	gp_sim_config cfg;

	build_cluster(1, 1);
	gp_joblist_init(&l);
	add(&l, "A", 0, 1, 1000, GP_CLASS_BE);
	add(&l, "B", 50, 1, 300, GP_CLASS_BE);
	config(&cfg, GP_SIM_LAS, GP_SIM_PREEMPT_OFF);
	cfg.las_thresholds[0] = 100;
	cfg.las_nthresholds = 1;
	CU_ASSERT_EQUAL_FATAL(run_cfg(&cfg, &l, &r), GP_OK);
	CHECK_JOB(r, 0, 0, 1300);
	CHECK_JOB(r, 1, 100, 400);
	CU_ASSERT_EQUAL(r.las_promotions, 0);
	gp_sim_result_release(&r);

	cfg.las_starvation = 1;
	CU_ASSERT_EQUAL_FATAL(run_cfg(&cfg, &l, &r), GP_OK);
	CHECK_JOB(r, 0, 0, 1300);
	CHECK_JOB(r, 1, 100, 600);
	CU_ASSERT_EQUAL(r.las_promotions, 5);
	CU_ASSERT_EQUAL(r.las_demotions, 6);
	CU_ASSERT_EQUAL(r.jobs[0].preemptions, 3);
	CU_ASSERT_EQUAL(r.jobs[1].preemptions, 2);
	gp_sim_result_release(&r);
	gp_joblist_release(&l);
}

/* ---- the interrupt API, driven by a test source ----
 *
 * One node of 4 GPUs; A (2 GPUs, 1,000 s) at 0 on GPUs 0-1.  The source
 * acts at 100: per test case it requeues A losing 30 s (A restarts at
 * 100 with 930 s left, 20 s overhead: 1,050), moves it to GPUs 2-3 with
 * 10 s of copy (1,010), shrinks it to one GPU (900 s x 2 = 1,800 more:
 * 1,900), fails it (finish 100, failed), or stalls it at 100 and
 * requeues it at 150 (the stall's 50 s are not progress: 150 + 900 =
 * 1,050). */
typedef struct src_state {
	int mode;
	gp_sim_hooks hooks;
	int started, stopped;
} src_state;

static int src_begin(void *ud, gp_sim *s)
{
	src_state *st = ud;

	if (gp_sim_at(s, &st->hooks, 100, 1, 0) != GP_OK)
		return GP_EUSAGE;
	return st->mode == 4 ? gp_sim_at(s, &st->hooks, 150, 2, 0) : GP_OK;
}

static int src_event(void *ud, gp_sim *s, int64_t arg)
{
	src_state *st = ud;
	gp_sim_interrupt r;
	gp_placement p;
	gp_place_part *part;
	int rc;

	gp_sim_interrupt_init(&r);
	r.cause = GP_SIM_CAUSE_FAILURE;
	switch (st->mode) {
	case 0:
		r.lose = GP_SIM_LOSE_SECONDS;
		r.lost_s = 30;
		r.overhead_s = 20;
		return gp_sim_interrupt_job(s, 0, &r);
	case 1:
	case 2:
		gp_placement_init(&p);
		part = gp_placement_add(&p, 0);
		*part = gp_sim_placement(s, 0)->parts[0];
		part->cpus = NULL;
		part->ncpus = 0;
		part->cpu_milli = 0;
		part->host_mem_mib = 0;
		part->ngpus = st->mode == 1 ? 2 : 1;
		part->gpus[0] = 2;
		part->gpus[1] = 3;
		part->nic = part->vf = -1;
		r.action = GP_SIM_MOVE;
		r.place = &p;
		r.overhead_s = st->mode == 1 ? 10 : 0;
		rc = gp_sim_interrupt_job(s, 0, &r);
		gp_placement_release(&p);
		return rc;
	case 3:
		r.action = GP_SIM_FAIL;
		return gp_sim_interrupt_job(s, 0, &r);
	default:
		if (arg == 1)
			return gp_sim_stall(s, 0);
		return gp_sim_interrupt_job(s, 0, &r);
	}
}

static void src_started(void *ud, gp_sim *s, int32_t job)
{
	(void)s;
	(void)job;
	((src_state *)ud)->started++;
}

static void src_stopped(void *ud, gp_sim *s, int32_t job, int finished)
{
	(void)s;
	(void)job;
	(void)finished;
	((src_state *)ud)->stopped++;
}

static void test_interrupt_api(void)
{
	static const double finish[] = { 1050, 1010, 1900, 100, 1050 };
	gp_joblist l;
	gp_sim_result r;
	gp_sim_config cfg;
	src_state st;
	int mode;

	build_cluster(1, 4);
	gp_joblist_init(&l);
	add(&l, "A", 0, 2, 1000, GP_CLASS_BE);
	for (mode = 0; mode < 5; mode++) {
		memset(&st, 0, sizeof(st));
		st.mode = mode;
		st.hooks.name = "test";
		st.hooks.ud = &st;
		st.hooks.begin = src_begin;
		st.hooks.event = src_event;
		st.hooks.started = src_started;
		st.hooks.stopped = src_stopped;
		config(&cfg, GP_SIM_FIFO, GP_SIM_PREEMPT_OFF);
		cfg.hooks[0] = &st.hooks;
		CU_ASSERT_EQUAL_FATAL(run_cfg(&cfg, &l, &r), GP_OK);
		CU_ASSERT_DOUBLE_EQUAL(r.jobs[0].start, 0, 1e-9);
		CU_ASSERT_DOUBLE_EQUAL(r.jobs[0].finish, finish[mode], 1e-9);
		CU_ASSERT_EQUAL(r.jobs[0].state, mode == 3 ? GP_SIM_FAILED : GP_SIM_DONE);
		CU_ASSERT_EQUAL(r.jobs[0].interruptions, 1);
		CU_ASSERT_EQUAL(r.interruptions[GP_SIM_CAUSE_FAILURE], 1);
		CU_ASSERT_EQUAL(st.started, mode == 3 ? 1 : 2);
		CU_ASSERT_EQUAL(st.stopped, mode == 3 ? 1 : 2);
		if (mode == 0) /* 30 s lost + 20 s overhead, 2 GPUs */
			CU_ASSERT_DOUBLE_EQUAL(r.jobs[0].lost_gpu_s, 100, 1e-9);
		if (mode == 2) /* 2 GPUs x 100 s + 1 GPU x 1,800 s */
			CU_ASSERT_DOUBLE_EQUAL(r.alloc_gpu_seconds, 2000, 1e-9);
		gp_sim_result_release(&r);
	}
	gp_joblist_release(&l);
}

/* A source that takes node n0 down at 10 (a weak event) and up at 500.
 * Two nodes of 4 GPUs, A on n0 and A2 on n1 until 300 (A keeps running
 * on the down node).  B (4 GPUs, 300 s) at 20 gets n1 at 300, not n0;
 * C (4 GPUs) at 30 waits for n0 to come back: 500-600. */
static int down_begin(void *ud, gp_sim *s)
{
	const gp_sim_hooks *h = ud;

	if (gp_sim_at(s, h, 10, 0, 1) || gp_sim_at(s, h, 500, 1, 0))
		return GP_EUSAGE;
	return GP_OK;
}

static int down_event(void *ud, gp_sim *s, int64_t arg)
{
	(void)ud;
	return arg == 0 ? gp_sim_node_down(s, 0) : gp_sim_node_up(s, 0);
}

static void test_node_down(void)
{
	gp_joblist l;
	gp_sim_result r;
	gp_sim_config cfg;
	gp_sim_hooks h;

	build_cluster(2, 4);
	gp_joblist_init(&l);
	add(&l, "A", 0, 4, 300, GP_CLASS_BE); /* first-fit: n0 ... */
	add(&l, "A2", 0, 4, 300, GP_CLASS_BE); /* ... and n1 */
	add(&l, "B", 20, 4, 300, GP_CLASS_BE);
	add(&l, "C", 30, 4, 100, GP_CLASS_BE);
	memset(&h, 0, sizeof(h));
	h.name = "down";
	h.ud = &h;
	h.begin = down_begin;
	h.event = down_event;
	config(&cfg, GP_SIM_FIFO, GP_SIM_PREEMPT_OFF);
	cfg.hooks[0] = &h;
	CU_ASSERT_EQUAL_FATAL(run_cfg(&cfg, &l, &r), GP_OK);
	/* A keeps running on the down node; at 300 only n1 is usable. */
	CHECK_JOB(r, 0, 0, 300);
	CHECK_JOB(r, 2, 300, 600);
	CU_ASSERT_EQUAL(r.jobs[2].first_node, 1);
	CHECK_JOB(r, 3, 500, 600);
	CU_ASSERT_EQUAL(r.jobs[3].first_node, 0);
	gp_sim_result_release(&r);
	gp_joblist_release(&l);
}

/* A restore cost longer than a queue's quantum, with starvation: the
 * cost is no attained service, so each run does a quantum of work and
 * the jobs finish (counted as service they would never do any).  One
 * 1-GPU node, one threshold (10 GPU-s), --las-starvation 1,
 * --preempt-cost 20; A (100 s) at 0, B (100 s) at 1.
 *   A runs 0-10 (Q0 -> Q1); B, waiting in Q0, preempts it: B runs 10-20
 *   (Q1 at 20).  A, waiting since 10 after 10 s run, is promoted at 20
 *   and preempts B: 20 s restoring, then 10 s of work, Q1 at 50.  B,
 *   waiting since 20 after 10 s run, is promoted at 30, waits in Q0 and
 *   preempts A at 50: restore 50-70, work 70-80, Q1 at 80, when A
 *   (waiting since 50 after a 30 s run) is promoted and preempts it.
 *   So every 60 s each job does 10 s of work: A's runs start at 20 +
 *   60k, B's at 50 + 60k.  A has 10 s left at its run from 500: done at
 *   530; B (promoted at 530, its run from 470 cut at 500) restores
 *   530-550 and is done at 560.  Preemptions: A at 10 and 50 + 60k
 *   (k = 0..7), B at 20 + 60k (k = 0..8): 9 each. */
static void test_las_restore_cost(void)
{
	gp_joblist l;
	gp_sim_result r;
	gp_sim_config cfg;

	build_cluster(1, 1);
	gp_joblist_init(&l);
	add(&l, "A", 0, 1, 100, GP_CLASS_BE);
	add(&l, "B", 1, 1, 100, GP_CLASS_BE);
	config(&cfg, GP_SIM_LAS, GP_SIM_PREEMPT_OFF);
	cfg.las_thresholds[0] = 10;
	cfg.las_nthresholds = 1;
	cfg.las_starvation = 1;
	cfg.preempt_cost = 20;
	CU_ASSERT_EQUAL_FATAL(run_cfg(&cfg, &l, &r), GP_OK);
	CHECK_JOB(r, 0, 0, 530);
	CHECK_JOB(r, 1, 10, 560);
	CU_ASSERT_EQUAL(r.jobs[0].preemptions, 9);
	CU_ASSERT_EQUAL(r.jobs[1].preemptions, 9);
	gp_sim_result_release(&r);
	gp_joblist_release(&l);
}

/* The rules of Tiresias' simulator where gpuplan's las differs, one
 * 4-GPU node, thresholds 40 GPU-seconds (two queues), all jobs 4 GPUs
 * (a job attains 40 after 10 s).
 * (a) --las-demoted: W (30 s) at 0 is demoted at 10; X (50 s) at 5
 *     waits in Q0 and preempts W at 10 (W: 20 s left, waiting in Q1 since
 *     10).  X is demoted at 20.  keep (default): X runs on, 10-60, then W
 *     60-80.  yield: W, waiting in X's new queue, takes X's GPUs at 20:
 *     W 20-40, X resumes with 40 s left, 40-80 (2 preemptions).
 * (b) --las-preempted: P (20 s) at 0 is demoted at 10; Q (30 s) at 5
 *     preempts it at 10 (P: 10 s left, in Q1 since 10); Q is demoted at
 *     20 and runs on; R (5 s) at 25 preempts Q (15 s left).  R ends at 30
 *     with P and Q waiting in Q1.  entry (default): P entered Q1 first, P
 *     30-40, Q 40-55.  first: Q was preempted last, Q 30-45, P 45-55.
 *     Both rules (--las-tiresias): at 20 P takes just-demoted Q's GPUs
 *     (P 20-30; Q, preempted right after its demotion, stays behind); R
 *     at 25 preempts P (5 s left); at 30 P goes first (preempted at 25),
 *     30-35, then Q (20 s left) 35-55. */
static void test_las_tiresias_rules(void)
{
	gp_joblist l;
	gp_sim_result r;
	gp_sim_config cfg;

	build_cluster(1, 4);
	gp_joblist_init(&l);
	add(&l, "W", 0, 4, 30, GP_CLASS_BE);
	add(&l, "X", 5, 4, 50, GP_CLASS_BE);
	config(&cfg, GP_SIM_LAS, GP_SIM_PREEMPT_OFF);
	cfg.las_thresholds[0] = 40;
	cfg.las_nthresholds = 1;
	CU_ASSERT_EQUAL_FATAL(run_cfg(&cfg, &l, &r), GP_OK);
	CHECK_JOB(r, 0, 0, 80);
	CHECK_JOB(r, 1, 10, 60);
	CU_ASSERT_EQUAL(r.interruptions[GP_SIM_CAUSE_PREEMPT], 1);
	gp_sim_result_release(&r);
	cfg.las_demoted_yield = 1;
	CU_ASSERT_EQUAL_FATAL(run_cfg(&cfg, &l, &r), GP_OK);
	CHECK_JOB(r, 0, 0, 40);
	CHECK_JOB(r, 1, 10, 80);
	CU_ASSERT_EQUAL(r.interruptions[GP_SIM_CAUSE_PREEMPT], 2);
	CU_ASSERT_EQUAL(r.jobs[1].preemptions, 1);
	gp_sim_result_release(&r);
	gp_joblist_release(&l);

	gp_joblist_init(&l);
	add(&l, "P", 0, 4, 20, GP_CLASS_BE);
	add(&l, "Q", 5, 4, 30, GP_CLASS_BE);
	add(&l, "R", 25, 4, 5, GP_CLASS_BE);
	cfg.las_demoted_yield = 0;
	CU_ASSERT_EQUAL_FATAL(run_cfg(&cfg, &l, &r), GP_OK);
	CHECK_JOB(r, 0, 0, 40);
	CHECK_JOB(r, 1, 10, 55);
	CHECK_JOB(r, 2, 25, 30);
	gp_sim_result_release(&r);
	cfg.las_preempted_first = 1;
	CU_ASSERT_EQUAL_FATAL(run_cfg(&cfg, &l, &r), GP_OK);
	CHECK_JOB(r, 0, 0, 55);
	CHECK_JOB(r, 1, 10, 45);
	CHECK_JOB(r, 2, 25, 30);
	gp_sim_result_release(&r);
	cfg.las_demoted_yield = 1;
	CU_ASSERT_EQUAL_FATAL(run_cfg(&cfg, &l, &r), GP_OK);
	CHECK_JOB(r, 0, 0, 35);
	CHECK_JOB(r, 1, 10, 55);
	CHECK_JOB(r, 2, 25, 30);
	CU_ASSERT_EQUAL(r.interruptions[GP_SIM_CAUSE_PREEMPT], 3);
	gp_sim_result_release(&r);
	gp_joblist_release(&l);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("preempt");

	gp_test_add(s, "class_basic", test_class_basic);
	gp_test_add(s, "victim_rule", test_victim_rule);
	gp_test_add(s, "victim_share", test_victim_share);
	gp_test_add(s, "multi_node", test_multi_node);
	gp_test_add(s, "priority", test_priority);
	gp_test_add(s, "priority_sparse", test_priority_sparse);
	gp_test_add(s, "las_demotion", test_las_demotion);
	gp_test_add(s, "las_starvation", test_las_starvation);
	gp_test_add(s, "las_restore_cost", test_las_restore_cost);
	gp_test_add(s, "las_tiresias_rules", test_las_tiresias_rules);
	gp_test_add(s, "interrupt_api", test_interrupt_api);
	gp_test_add(s, "node_down", test_node_down);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
