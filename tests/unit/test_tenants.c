/* Tenants: the tenants file, and quotas, cohort borrowing, borrowing and
 * lending limits in the engine, on one 8-GPU node with schedules worked
 * out by hand in the comments (queue fifo-skip: a job without quota is
 * passed over). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/place/policy.h"
#include "gpuplan/sim/sim.h"
#include "gpuplan/sim/tenants.h"
#include "gpuplan/util/util.h"
#include "testlib.h"

static gp_cluster cl;

static int parse(const char *text, gp_tenants *t, gp_error *err)
{
	return gp_tenants_parse(text, strlen(text), "t.yaml", t, err);
}

static void add(gp_joblist *l, const char *id, const char *tenant, double submit, int gpus, double dur)
{
	gp_job *j = gp_test_add_job(l, id, submit, gpus, dur, GP_CLASS_BE);

	j->environment = tenant ? gp_xstrdup(tenant) : NULL;
	j->line = (int)l->n + 1;
}

/* The run settings a test may change: every test starts from the
 * defaults reset_settings gives them (the suite's per-test setup). */
static double preempt_cost;
static int reclaim_off, share_within_quota;
static int queue;
static double halflife, w_age, w_qos, w_fs;
static int bf_mode, preempt_mode, las_threshold;
static const gp_sim_hooks *hook;
static gp_sim_duration_fn duration;
static size_t starts; /* placements counted by counted_duration */

static void reset_settings(void)
{
	preempt_cost = 0;
	reclaim_off = share_within_quota = 0;
	queue = GP_SIM_FIFO_SKIP;
	halflife = w_age = w_qos = 0;
	w_fs = 1;
	bf_mode = GP_SIM_BF_EASY;
	preempt_mode = GP_SIM_PREEMPT_OFF;
	las_threshold = 0;
	hook = NULL;
	duration = NULL;
	starts = 0;
}

static int run(const gp_tenants *t, const char *dflt, gp_joblist *l, gp_sim_result *r, gp_error *err)
{
	gp_sim_config cfg;

	gp_sim_config_init(&cfg);
	cfg.cluster = &cl;
	cfg.policy = gp_policy_find("first-fit");
	cfg.queue = queue;
	cfg.fs_interval = 10;
	if (halflife > 0)
		cfg.fs_halflife = halflife;
	cfg.fs_w_age = w_age;
	cfg.fs_w_qos = w_qos;
	cfg.fs_w_fairshare = w_fs;
	cfg.seed = 7;
	cfg.tick = 50;
	cfg.tenants = t;
	cfg.default_tenant = dflt;
	cfg.preempt_cost = preempt_cost;
	cfg.reclaim_off = reclaim_off;
	cfg.share_within_quota = share_within_quota;
	cfg.backfill_mode = bf_mode;
	cfg.preempt = preempt_mode;
	if (las_threshold > 0) {
		cfg.las_thresholds[0] = las_threshold;
		cfg.las_nthresholds = 1;
	}
	cfg.hooks[0] = hook;
	cfg.duration = duration;
	return gp_sim_run(&cfg, l, r, err);
}

#define CHECK_JOB(r, i, s, f) do { \
		CU_ASSERT_DOUBLE_EQUAL((r).jobs[i].start, (s), 1e-9); \
		CU_ASSERT_DOUBLE_EQUAL((r).jobs[i].finish, (f), 1e-9); \
	} while (0)

static void test_parse(void)
{
	gp_tenants t;
	gp_error err = GP_ERROR_INIT;

	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n"
				    "  - name: a\n"
				    "    quota: {gpus: 8}\n"
				    "    cohort: c1\n"
				    "    borrowing_limit: 8\n"
				    "    lending_limit: 2\n"
				    "    weight: 1\n"
				    "  - name: b\n"
				    "    quota: {A100-SXM4-80GB: 8, H100-SXM5-80GB: 4}\n"
				    "    weight: 2.5\n", &t, &err), GP_OK);
	CU_ASSERT_EQUAL(t.n, 2);
	CU_ASSERT_EQUAL(t.nres, 3);
	CU_ASSERT_STRING_EQUAL(t.res[0], "gpus");
	CU_ASSERT_STRING_EQUAL(t.res[2], "H100-SXM5-80GB");
	CU_ASSERT_EQUAL(t.t[0].nominal[0], 8000);
	CU_ASSERT_EQUAL(t.t[0].borrow_limit, 8000);
	CU_ASSERT_EQUAL(t.t[0].lend_limit, 2000);
	CU_ASSERT_EQUAL(t.t[0].cohort, 0);
	CU_ASSERT_EQUAL(t.t[1].cohort, -1);
	CU_ASSERT_EQUAL(t.t[1].borrow_limit, -1);
	CU_ASSERT_EQUAL(t.t[1].nominal[0], 0);
	CU_ASSERT_EQUAL(t.t[1].nominal[1], 8000);
	CU_ASSERT_EQUAL(t.t[1].nominal[2], 4000);
	CU_ASSERT_DOUBLE_EQUAL(t.t[1].weight, 2.5, 1e-12);
	CU_ASSERT_EQUAL(gp_tenants_find(&t, "b"), 1);
	CU_ASSERT_EQUAL(gp_tenants_find(&t, "c"), -1);
	gp_tenants_release(&t);

	/* Errors name the line and column. */
	CU_ASSERT_EQUAL(parse("tenants:\n  - name: a\n    quota: {gpus: -1}\n", &t, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 3);
	CU_ASSERT_EQUAL(parse("tenants:\n  - name: a\n    quota: {gpus: 1}\n  - name: a\n    quota: {gpus: 2}\n",
			      &t, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 4);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "named twice"));
	CU_ASSERT_EQUAL(parse("tenants:\n  - name: a\n", &t, &err), GP_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "no 'quota'"));
	CU_ASSERT_EQUAL(parse("tenants:\n  - name: a\n    quota: {gpus: 1}\n    cohrt: x\n", &t, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 4);
	CU_ASSERT_EQUAL(parse("tenants:\n  - name: a\n    quota: {gpus: 1}\n    lending_limit: 1\n", &t, &err),
			GP_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "no 'cohort'"));
	CU_ASSERT_EQUAL(parse("tenants: []\n", &t, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(parse("queues: []\n", &t, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(parse("", &t, &err), GP_EINPUT);
}

/* Quota, one 8-GPU node; a and b hold 4 GPUs of quota each.
 *   a1 (a, 4 GPUs, 100 s) at 0; a2 (a, 2, 50 s) at 10; b1 (b, 2, 30 s) at
 *   20.
 * No cohort: a2 would take a to 6 > 4: it waits although 4 GPUs are free;
 * b1 runs 20-50; a2 starts when a1 ends, 100-150.
 * Cohort c for both: a borrows 2 of b's idle quota (the cohort uses 6 of
 * its 8): a2 10-60, and b1, within its own quota, fits beside them: 20-50.
 * a's borrowing_limit 1: a2 would borrow 2: back to 100-150. */
static void test_quota_and_borrowing(void)
{
	gp_tenants t;
	gp_joblist l;
	gp_sim_result r;
	gp_error err = GP_ERROR_INIT;

	cl = *gp_test_pix_cluster(1, 8);
	gp_joblist_init(&l);
	add(&l, "a1", "a", 0, 4, 100);
	add(&l, "a2", "a", 10, 2, 50);
	add(&l, "b1", "b", 20, 2, 30);
	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n  - {name: a, quota: {gpus: 4}}\n  - {name: b, quota: {gpus: 4}}\n",
				    &t, &err), GP_OK);
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CHECK_JOB(r, 0, 0, 100);
	CHECK_JOB(r, 1, 100, 150);
	CHECK_JOB(r, 2, 20, 50);
	CU_ASSERT_EQUAL(r.job_tenant[2], 1);
	/* a: 4 GPUs for 150 s, b: 2 GPUs for 30 s; a never borrows */
	CU_ASSERT_DOUBLE_EQUAL(r.tenant_use[0].gpu_s, 4 * 100 + 2 * 50, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.tenant_use[1].gpu_s, 60, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.tenant_use[0].borrowed_gpu_s, 0, 1e-12);
	CU_ASSERT(r.tenant_use[0].quota_waits >= 1);
	gp_sim_result_release(&r);
	gp_tenants_release(&t);

	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n  - {name: a, quota: {gpus: 4}, cohort: c}\n"
				    "  - {name: b, quota: {gpus: 4}, cohort: c}\n", &t, &err), GP_OK);
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CHECK_JOB(r, 1, 10, 60);
	CHECK_JOB(r, 2, 20, 50);
	/* a is 2 over its quota for 50 s; b lends them */
	CU_ASSERT_DOUBLE_EQUAL(r.tenant_use[0].borrowed_gpu_s, 100, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.tenant_use[1].lent_gpu_s, 100, 1e-9);
	CU_ASSERT_EQUAL(r.tenant_use[0].peak_milli, 6000);
	gp_sim_result_release(&r);
	gp_tenants_release(&t);

	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n  - {name: a, quota: {gpus: 4}, cohort: c, borrowing_limit: 1}\n"
				    "  - {name: b, quota: {gpus: 4}, cohort: c}\n", &t, &err), GP_OK);
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CHECK_JOB(r, 1, 100, 150);
	gp_sim_result_release(&r);
	gp_tenants_release(&t);
	gp_joblist_release(&l);
}

/* Lending limit: b lends at most 1 GPU (it keeps 3 for itself), so the
 * cohort's lendable quota is a's 4 + b's 1 = 5.
 *   a1 (a, 4, 100 s) at 0; a2 (a, 1, 50 s) at 10 borrows b's 1 (a uses
 *   5 of the 5): 10-60; a3 (a, 1, 40 s) at 15 would make 6 > 5: waits
 *   although 3 GPUs are free; b1 (b, 2, 30 s) at 20: 20-50.  At 60 a2
 *   ends and a3 takes its place: 60-100.
 * Borrowed (a) = lent (b) = 1 GPU x (10..100) = 90 GPU-seconds; a used
 * 4 x 10 + 5 x 90 = 490 GPU-seconds. */
static void test_lending_limit(void)
{
	gp_tenants t;
	gp_joblist l;
	gp_sim_result r;
	gp_error err = GP_ERROR_INIT;

	cl = *gp_test_pix_cluster(1, 8);
	gp_joblist_init(&l);
	add(&l, "a1", "a", 0, 4, 100);
	add(&l, "a2", "a", 10, 1, 50);
	add(&l, "a3", "a", 15, 1, 40);
	add(&l, "b1", "b", 20, 2, 30);
	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n  - {name: a, quota: {gpus: 4}, cohort: c}\n"
				    "  - {name: b, quota: {gpus: 4}, cohort: c, lending_limit: 1}\n", &t, &err),
			      GP_OK);
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CHECK_JOB(r, 0, 0, 100);
	CHECK_JOB(r, 1, 10, 60);
	CHECK_JOB(r, 2, 60, 100);
	CHECK_JOB(r, 3, 20, 50);
	CU_ASSERT_DOUBLE_EQUAL(r.tenant_use[0].borrowed_gpu_s, 90, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.tenant_use[1].lent_gpu_s, 90, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.tenant_use[0].gpu_s, 490, 1e-9);
	gp_sim_result_release(&r);
	gp_tenants_release(&t);
	gp_joblist_release(&l);
}

/* Unknown tenants: a located error, unless a default tenant is given. */
static void test_unknown_tenant(void)
{
	gp_tenants t;
	gp_joblist l;
	gp_sim_result r;
	gp_error err = GP_ERROR_INIT;

	cl = *gp_test_pix_cluster(1, 8);
	gp_joblist_init(&l);
	l.source = gp_xstrdup("jobs.csv");
	add(&l, "a1", "a", 0, 1, 10);
	add(&l, "x1", "x", 1, 1, 10);
	add(&l, "n1", NULL, 2, 1, 10);
	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n  - {name: a, quota: {gpus: 1}}\n  - {name: d, quota: {gpus: 8}}\n",
				    &t, &err), GP_OK);
	CU_ASSERT_EQUAL(run(&t, NULL, &l, &r, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "tenant 'x'"));
	CU_ASSERT_EQUAL(run(&t, "nosuch", &l, &r, &err), GP_EUSAGE);
	/* With d as the default: x1 and n1 run beside a1. */
	CU_ASSERT_EQUAL_FATAL(run(&t, "d", &l, &r, &err), GP_OK);
	CU_ASSERT_EQUAL(r.job_tenant[0], 0);
	CU_ASSERT_EQUAL(r.job_tenant[1], 1);
	CU_ASSERT_EQUAL(r.job_tenant[2], 1);
	CHECK_JOB(r, 1, 1, 11);
	gp_sim_result_release(&r);
	gp_tenants_release(&t);
	gp_joblist_release(&l);
}

/* Reclaim, one 8-GPU node, a and b 4 GPUs of quota each in cohort c.
 *   b1 (b, 4 GPUs, 100 s) at 0; b2 (b, 4, 100 s) at 1 borrows a's idle 4;
 *   a1 (a, 2, 50 s) at 10, within a's quota, finds the node full.
 * Candidates: b's jobs, the most recently started first: b2.  Taking it
 * frees 4 GPUs, a1 takes 2 of them: b2 cannot come back (its GPUs are
 * partly a1's) and is preempted at 10 with 91 s of work left.  a1 runs
 * 10-60.  b2 would make b use 8 while the cohort has 8 - 2 = 6 left to
 * it, and only 2 GPUs are free: it waits until a1 ends, then pays the
 * 5 s restore cost: 60 + 5 + 91 = 156.
 * --reclaim off: a1 waits for b1's end: 100-150; b2 runs 1-101. */
static void test_reclaim(void)
{
	gp_tenants t;
	gp_joblist l;
	gp_sim_result r;
	gp_error err = GP_ERROR_INIT;

	cl = *gp_test_pix_cluster(1, 8);
	gp_joblist_init(&l);
	add(&l, "b1", "b", 0, 4, 100);
	add(&l, "b2", "b", 1, 4, 100);
	add(&l, "a1", "a", 10, 2, 50);
	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n  - {name: a, quota: {gpus: 4}, cohort: c}\n"
				    "  - {name: b, quota: {gpus: 4}, cohort: c}\n", &t, &err), GP_OK);
	preempt_cost = 5;
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CHECK_JOB(r, 0, 0, 100);
	CHECK_JOB(r, 1, 1, 156);
	CHECK_JOB(r, 2, 10, 60);
	CU_ASSERT_EQUAL(r.jobs[1].preemptions, 1);
	CU_ASSERT_EQUAL(r.jobs[0].preemptions, 0);
	CU_ASSERT_EQUAL(r.tenant_use[0].reclaims, 1);
	CU_ASSERT_EQUAL(r.tenant_use[1].reclaimed, 1);
	/* b borrowed 4 GPUs from 1 to 10, and again from 60 (b2 placed) to 100 */
	CU_ASSERT_DOUBLE_EQUAL(r.tenant_use[1].borrowed_gpu_s, 4 * 9 + 4 * 40, 1e-9);
	gp_sim_result_release(&r);

	reclaim_off = 1;
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CHECK_JOB(r, 1, 1, 101);
	CHECK_JOB(r, 2, 100, 150);
	CU_ASSERT_EQUAL(r.tenant_use[0].reclaims, 0);
	gp_sim_result_release(&r);
	gp_tenants_release(&t);
	gp_joblist_release(&l);
}

/* A cohort's pool is what its tenants lend, whoever's quota it is: a
 * has no quota, b 4 GPUs, one cohort, one 8-GPU node (4 GPUs outside
 * every quota).
 *   a1 (a, 4 GPUs, 100 s) at 0 borrows b's idle 4: the cohort draws 4 of
 *   the 4 it lends.  b1 (b, 4, 50 s) at 10 is within b's quota, and 4
 *   GPUs are free, but with it the cohort would draw 8 > 4: it does not
 *   fit (Kueue: available() counts the cohort for every admission).  It
 *   reclaims: a1 is a's only job and a borrows; taking it frees GPUs
 *   0-3, first-fit puts b1 there, a1 cannot come back and is preempted
 *   with 90 s left.  b1 runs 10-60; a1 would draw 4 more on a pool b
 *   holds whole: it waits for b1's end, 60-150.  a borrowed 4 GPUs over
 *   0-10 and 60-150: 400 GPU-seconds, all lent by b; the cohort never
 *   runs more than 4 GPUs.
 * --reclaim off: b1 waits for a1's end: 100-150. */
static void test_cohort_pool(void)
{
	gp_tenants t;
	gp_joblist l;
	gp_sim_result r;
	gp_error err = GP_ERROR_INIT;

	cl = *gp_test_pix_cluster(1, 8);
	gp_joblist_init(&l);
	add(&l, "a1", "a", 0, 4, 100);
	add(&l, "b1", "b", 10, 4, 50);
	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n  - {name: a, quota: {gpus: 0}, cohort: c}\n"
				    "  - {name: b, quota: {gpus: 4}, cohort: c}\n", &t, &err), GP_OK);
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CHECK_JOB(r, 0, 0, 150);
	CHECK_JOB(r, 1, 10, 60);
	CU_ASSERT_EQUAL(r.jobs[0].preemptions, 1);
	CU_ASSERT_EQUAL(r.tenant_use[1].reclaims, 1);
	CU_ASSERT_EQUAL(r.tenant_use[0].reclaimed, 1);
	CU_ASSERT_DOUBLE_EQUAL(r.tenant_use[0].borrowed_gpu_s, 400, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.tenant_use[1].lent_gpu_s, 400, 1e-9);
	gp_sim_result_release(&r);

	reclaim_off = 1;
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CHECK_JOB(r, 0, 0, 100);
	CHECK_JOB(r, 1, 100, 150);
	CU_ASSERT_EQUAL(r.jobs[0].preemptions, 0);
	CU_ASSERT(r.tenant_use[1].quota_waits >= 1);
	gp_sim_result_release(&r);
	gp_tenants_release(&t);
	gp_joblist_release(&l);
}

/* The same with a lending limit: b (4 GPUs of quota) lends 2 and keeps
 * 2 guaranteed; a has none; the cohort lends 0 + 2 = 2.  One 8-GPU node.
 *   a1 (a, 2 GPUs, 100 s) at 0 borrows the 2 b lends.  b1 (b, 2, 50 s) at
 *   10 fits in b's guaranteed 2, which a cannot draw on: 10-60 beside
 *   a1.  b2 (b, 2, 50 s) at 20 is within b's quota (4), but beyond its
 *   guaranteed part it needs the cohort's 2, which a holds: it reclaims
 *   a1 (80 s left; first-fit gives b2 a1's GPUs 0-1), 20-70.  At 60 b1
 *   ends: b's 2 in use are guaranteed again, the cohort's 2 are free and
 *   a1 runs 60-140.
 * --reclaim off: b2 waits, and starts at 60 when b1's end frees b's
 * guaranteed part: 60-110; a1 runs 0-100 untouched. */
static void test_cohort_pool_lending(void)
{
	gp_tenants t;
	gp_joblist l;
	gp_sim_result r;
	gp_error err = GP_ERROR_INIT;

	cl = *gp_test_pix_cluster(1, 8);
	gp_joblist_init(&l);
	add(&l, "a1", "a", 0, 2, 100);
	add(&l, "b1", "b", 10, 2, 50);
	add(&l, "b2", "b", 20, 2, 50);
	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n  - {name: a, quota: {gpus: 0}, cohort: c}\n"
				    "  - {name: b, quota: {gpus: 4}, cohort: c, lending_limit: 2}\n", &t, &err),
			      GP_OK);
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CHECK_JOB(r, 0, 0, 140);
	CHECK_JOB(r, 1, 10, 60);
	CHECK_JOB(r, 2, 20, 70);
	CU_ASSERT_EQUAL(r.jobs[0].preemptions, 1);
	CU_ASSERT_EQUAL(r.tenant_use[1].reclaims, 1);
	gp_sim_result_release(&r);

	reclaim_off = 1;
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CHECK_JOB(r, 0, 0, 100);
	CHECK_JOB(r, 1, 10, 60);
	CHECK_JOB(r, 2, 60, 110);
	CU_ASSERT_EQUAL(r.jobs[0].preemptions, 0);
	gp_sim_result_release(&r);
	gp_tenants_release(&t);
	gp_joblist_release(&l);
}

/* Reclaim's order, passing over and fill back: a 4, b 2, c 2 GPUs of
 * quota, one cohort, one 8-GPU node (first-fit: lowest GPUs first).
 *   b1 (b, 4 GPUs, 100 s) at 0: GPUs 0-3, b borrows 2;
 *   c1 (c, 2, 100 s) at 1: GPUs 4-5; c2 (c, 2, 100 s) at 2: GPUs 6-7, c
 *   borrows 2; a1 (a, 4, 50 s) at 10 finds the node full.
 * Candidates, the most recently started first: c2, c1, b1.  Taking c2
 * leaves c at its quota: c1 is passed over; taking b1 frees 6 GPUs and
 * a1 is placed on 0-3.  Fill back, the last taken first: b1 conflicts
 * with a1 and stays out; c2 comes back (GPUs 6-7 are free, and a, b, c
 * then draw 4 + 0 + 4 = 8 of the cohort's 8).  Only b1 is preempted.
 * a1 10-60; b1 (90 s left) resumes at 60 when a1 ends: 60-150. */
static void test_reclaim_order(void)
{
	gp_tenants t;
	gp_joblist l;
	gp_sim_result r;
	gp_error err = GP_ERROR_INIT;

	cl = *gp_test_pix_cluster(1, 8);
	gp_joblist_init(&l);
	add(&l, "b1", "b", 0, 4, 100);
	add(&l, "c1", "c", 1, 2, 100);
	add(&l, "c2", "c", 2, 2, 100);
	add(&l, "a1", "a", 10, 4, 50);
	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n  - {name: a, quota: {gpus: 4}, cohort: x}\n"
				    "  - {name: b, quota: {gpus: 2}, cohort: x}\n"
				    "  - {name: c, quota: {gpus: 2}, cohort: x}\n", &t, &err), GP_OK);
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CHECK_JOB(r, 0, 0, 150);
	CHECK_JOB(r, 1, 1, 101);
	CHECK_JOB(r, 2, 2, 102);
	CHECK_JOB(r, 3, 10, 60);
	CU_ASSERT_EQUAL(r.jobs[0].preemptions, 1);
	CU_ASSERT_EQUAL(r.jobs[2].preemptions, 0);
	CU_ASSERT_EQUAL(r.tenant_use[0].reclaims, 1);
	CU_ASSERT_EQUAL(r.tenant_use[1].reclaimed, 1);
	CU_ASSERT_EQUAL(r.tenant_use[2].reclaimed, 0);
	gp_sim_result_release(&r);
	gp_tenants_release(&t);
	gp_joblist_release(&l);
}

/* fairshare order, one 8-GPU node, tenants a and b of equal weight,
 * priorities recomputed every 10 s:
 *   a1 (a, 8 GPUs, 100 s) at 0; a2 (a, 8, 10 s) at 50; b1 (b, 8, 10 s,
 *   priority 5) at 60.
 * At 100 a used 800 GPU-seconds (decay over 100 s of a 7-day half-life
 * is 1e-4 of it) and b none: a's factor 2^(-1 / 0.5) = 0.25, b's 1, so
 * b1 runs first: 100-110, a2 110-120 (fifo: a2 100-110, b1 110-120).
 * Weights age=1 alone: a2 waited longer: a2 first.  qos=1 alone: b1's
 * priority 5 is the trace's largest (factor 1), a2's 0: b1 first. */
static void test_fairshare_order(void)
{
	gp_tenants t;
	gp_joblist l;
	gp_sim_result r;
	gp_error err = GP_ERROR_INIT;

	cl = *gp_test_pix_cluster(1, 8);
	gp_joblist_init(&l);
	add(&l, "a1", "a", 0, 8, 100);
	add(&l, "a2", "a", 50, 8, 10);
	add(&l, "b1", "b", 60, 8, 10);
	l.jobs[2].priority = 5;
	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n  - {name: a, quota: {gpus: 8}}\n"
				    "  - {name: b, quota: {gpus: 8}}\n", &t, &err), GP_OK);
	queue = GP_SIM_FAIRSHARE;
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CHECK_JOB(r, 2, 100, 110);
	CHECK_JOB(r, 1, 110, 120);
	gp_sim_result_release(&r);
	w_fs = 0;
	w_age = 1;
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CHECK_JOB(r, 1, 100, 110);
	CHECK_JOB(r, 2, 110, 120);
	gp_sim_result_release(&r);
	w_age = 0;
	w_qos = 1;
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CHECK_JOB(r, 2, 100, 110);
	gp_sim_result_release(&r);
	w_qos = 0;
	w_fs = 1;
	queue = GP_SIM_FIFO;
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CHECK_JOB(r, 1, 100, 110);
	CHECK_JOB(r, 2, 110, 120);
	gp_sim_result_release(&r);
	gp_tenants_release(&t);
	gp_joblist_release(&l);
}

/* fairshare decay, as above, recomputed every 10 s:
 *   a1 (a, 8 GPUs, 100 s) at 0; b1 (b, 8, 50 s) at 1000; a2 (a, 8, 10 s)
 *   at 1010; b2 (b, 8, 10 s) at 1020; both wait for b1's end at 1050.
 * Usage grows by 80 GPU-seconds an interval and decays by d = 2^(-10/H)
 * an interval: at 1050 a has 80 d^95 (1 + d + ... + d^9) (used at 0-100)
 * and b 80 (1 + d + ... + d^4) (used at 1000-1050).  They are equal at
 * H = 974.78 s (bisection on that equation); with a shorter half-life a's
 * old usage is the smaller and a2 goes first (1050-1060, b2 1060-1070),
 * with a longer one b2 goes first.  H = 965 s: a 391.6, b 394.3; H = 985
 * s: a 397.1, b 394.4. */
static void test_fairshare_decay(void)
{
	gp_tenants t;
	gp_joblist l;
	gp_sim_result r;
	gp_error err = GP_ERROR_INIT;

	cl = *gp_test_pix_cluster(1, 8);
	gp_joblist_init(&l);
	add(&l, "a1", "a", 0, 8, 100);
	add(&l, "b1", "b", 1000, 8, 50);
	add(&l, "a2", "a", 1010, 8, 10);
	add(&l, "b2", "b", 1020, 8, 10);
	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n  - {name: a, quota: {gpus: 8}}\n"
				    "  - {name: b, quota: {gpus: 8}}\n", &t, &err), GP_OK);
	queue = GP_SIM_FAIRSHARE;
	halflife = 965;
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CHECK_JOB(r, 2, 1050, 1060);
	CHECK_JOB(r, 3, 1060, 1070);
	gp_sim_result_release(&r);
	halflife = 985;
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CHECK_JOB(r, 3, 1050, 1060);
	CHECK_JOB(r, 2, 1060, 1070);
	gp_sim_result_release(&r);
	gp_tenants_release(&t);
	gp_joblist_release(&l);
}

/* Backfill with quotas, two 4-GPU nodes (first-fit: n0 first), a and b 4
 * GPUs of quota, c 8, no cohort.
 *   c1 (c, 4 GPUs, 50 s) at 0: n0, 0-50; a1 (a, 2, 100 s) at 0: n1 GPUs
 *   0-1, 0-100.  a2 (a, 4, 10 s) at 1: a would use 6 > 4: refused by its
 *   quota, it neither reserves nor blocks.  b2 (b, 4, 100 s) at 2: its
 *   quota admits it, 2 GPUs are free: it gets the reservation, n0 at 50,
 *   and holds b's 4 GPUs of quota from then.  b3 (b, 2, 100 s) at 3 fits
 *   n1's free GPUs 2-3 (not reserved), its quota admits it now, but it
 *   would still run at 50 and b would then use 4 + 2 > 4: it may not
 *   take the quota b2 counts on, and waits.  a3 (a, 2, 20 s) at 4 ends
 *   before 50, a uses 4: backfilled on n1, 4-24.
 *   At 50 b2 starts (50-150); b3 is refused (b uses 4).  At 100 a1 ends:
 *   a2 starts on n1, 100-110.  At 150 b3 starts: 150-250.
 * EASY and Slurm's plan (whole nodes reserved: n0 from 50 to 150) agree
 * here (the holds count the use now: b3 would wait as well if b's use
 * dropped by 50, a conservative rule); without the quota rule b3 would run from 3 and b2 would find no
 * quota at 50. */
static void test_backfill(void)
{
	gp_tenants t;
	gp_joblist l;
	gp_sim_result r;
	gp_error err = GP_ERROR_INIT;
	int mode;

	cl = *gp_test_pix_cluster(2, 4);
	gp_joblist_init(&l);
	add(&l, "c1", "c", 0, 4, 50);
	add(&l, "a1", "a", 0, 2, 100);
	add(&l, "a2", "a", 1, 4, 10);
	add(&l, "b2", "b", 2, 4, 100);
	add(&l, "b3", "b", 3, 2, 100);
	add(&l, "a3", "a", 4, 2, 20);
	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n  - {name: a, quota: {gpus: 4}}\n  - {name: b, quota: {gpus: 4}}\n"
				    "  - {name: c, quota: {gpus: 8}}\n", &t, &err), GP_OK);
	queue = GP_SIM_BACKFILL;
	for (mode = GP_SIM_BF_EASY; mode <= GP_SIM_BF_SLURM; mode++) {
		bf_mode = mode;
		CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
		CHECK_JOB(r, 0, 0, 50);
		CHECK_JOB(r, 1, 0, 100);
		CHECK_JOB(r, 2, 100, 110);
		CHECK_JOB(r, 3, 50, 150);
		CHECK_JOB(r, 4, 150, 250);
		CHECK_JOB(r, 5, 4, 24);
		/* a3; Slurm's plan also counts b2, started behind a2 */
		CU_ASSERT_EQUAL(r.backfilled, mode == GP_SIM_BF_EASY ? 1 : 2);
		/* nobody ever beyond its quota */
		CU_ASSERT_EQUAL(r.tenant_use[0].peak_milli, 4000);
		CU_ASSERT_EQUAL(r.tenant_use[1].peak_milli, 4000);
		gp_sim_result_release(&r);
	}
	gp_tenants_release(&t);
	gp_joblist_release(&l);
}

/* --preempt priority with quotas, one 8-GPU node, queue fifo.
 *   a1 (a, 4 GPUs, 100 s) at 0: GPUs 0-3; b1 (b, 4, 100 s) at 1: 4-7.
 *   a2 (a, 2, 50 s, priority 5) at 10 finds the node full.
 * a and b 4 GPUs of quota: a2 would take a to 6 > 4, so it may preempt
 * only a's own lower-priority jobs (Kueue: within its ClusterQueue): a1,
 * whose release gives a's quota back (a uses 0 + 2).  a2 runs 10-60 on
 * GPUs 0-1; a1 (90 s left, nothing lost without checkpoints) waits for
 * 4 GPUs and a's quota: 60-150.  b1 runs 1-101 untouched; a never holds
 * more than 4 GPUs.  (By the victim rule alone b1, the later start,
 * would go and a would hold 6.)
 * a with 8 GPUs of quota: a2 is admitted as it is and preempts by the
 * victim rule: b1 (started later), with 91 s left; a2 10-60 on GPUs 4-5,
 * b1 waits for 4 GPUs: 60-151. */
static void test_preempt(void)
{
	gp_tenants t;
	gp_joblist l;
	gp_sim_result r;
	gp_error err = GP_ERROR_INIT;

	cl = *gp_test_pix_cluster(1, 8);
	gp_joblist_init(&l);
	add(&l, "a1", "a", 0, 4, 100);
	add(&l, "b1", "b", 1, 4, 100);
	add(&l, "a2", "a", 10, 2, 50);
	l.jobs[2].priority = 5;
	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n  - {name: a, quota: {gpus: 4}}\n  - {name: b, quota: {gpus: 4}}\n",
				    &t, &err), GP_OK);
	queue = GP_SIM_FIFO;
	preempt_mode = GP_SIM_PREEMPT_PRIORITY;
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CHECK_JOB(r, 0, 0, 150);
	CHECK_JOB(r, 1, 1, 101);
	CHECK_JOB(r, 2, 10, 60);
	CU_ASSERT_EQUAL(r.jobs[0].preemptions, 1);
	CU_ASSERT_EQUAL(r.jobs[1].preemptions, 0);
	CU_ASSERT_EQUAL(r.tenant_use[0].peak_milli, 4000);
	/* a: 4 GPUs 0-10, 2 GPUs 10-60, 4 GPUs 60-150 */
	CU_ASSERT_DOUBLE_EQUAL(r.tenant_use[0].gpu_s, 40 + 100 + 360, 1e-9);
	gp_sim_result_release(&r);
	gp_tenants_release(&t);

	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n  - {name: a, quota: {gpus: 8}}\n  - {name: b, quota: {gpus: 4}}\n",
				    &t, &err), GP_OK);
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CHECK_JOB(r, 0, 0, 100);
	CHECK_JOB(r, 1, 1, 151);
	CHECK_JOB(r, 2, 10, 60);
	CU_ASSERT_EQUAL(r.jobs[1].preemptions, 1);
	CU_ASSERT_EQUAL(r.tenant_use[0].peak_milli, 6000);
	gp_sim_result_release(&r);
	gp_tenants_release(&t);
	gp_joblist_release(&l);
}

/* las with quotas (one threshold, 100 GPU-seconds), one 8-GPU node, a
 * and b 4 GPUs of quota.
 *   a1 (a, 4 GPUs, 100 s) at 0: GPUs 0-3; b1 (b, 4, 100 s) at 0: 4-7;
 *   both reach 100 GPU-seconds at 25 and drop to the second queue.
 *   a2 (a, 2, 10 s) at 30, first queue, finds the node full; its quota
 *   refuses it (a 6 > 4): it preempts a's own job a1, not b1 (which the
 *   victim rule alone takes: the later in the trace).  a2 30-40; a1 (70 s
 *   left) waits for 4 GPUs: 40-110; b1 0-100. */
static void test_las(void)
{
	gp_tenants t;
	gp_joblist l;
	gp_sim_result r;
	gp_error err = GP_ERROR_INIT;

	cl = *gp_test_pix_cluster(1, 8);
	gp_joblist_init(&l);
	add(&l, "a1", "a", 0, 4, 100);
	add(&l, "b1", "b", 0, 4, 100);
	add(&l, "a2", "a", 30, 2, 10);
	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n  - {name: a, quota: {gpus: 4}}\n  - {name: b, quota: {gpus: 4}}\n",
				    &t, &err), GP_OK);
	queue = GP_SIM_LAS;
	las_threshold = 100;
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CHECK_JOB(r, 0, 0, 110);
	CHECK_JOB(r, 1, 0, 100);
	CHECK_JOB(r, 2, 30, 40);
	CU_ASSERT_EQUAL(r.jobs[0].preemptions, 1);
	CU_ASSERT_EQUAL(r.jobs[1].preemptions, 0);
	CU_ASSERT_EQUAL(r.tenant_use[0].peak_milli, 4000);
	gp_sim_result_release(&r);
	gp_tenants_release(&t);
	gp_joblist_release(&l);
}

/* A share change (the QoS monitor's raise and cut) is an admission of
 * the difference.  a has 2 GPUs of quota; on one 8-GPU node first-fit
 * puts a1 (500 milli) on GPU 0, a2 (600) on GPU 1, a3 (700) on GPU 2: a
 * uses 1800 milli.  At 10 raising a1 to 1000 would make 2300: refused
 * although GPU 0 has room.  At 20 a3 drops to 200 (1300); at 30 a1's
 * raise fits (1800).  a used 1.8 x 20 + 1.3 x 10 + 1.8 x 70 = 175
 * GPU-seconds; its peak 1800 milli. */
static int share_rc[3];

static int share_begin(void *ud, gp_sim *s)
{
	(void)ud;
	return gp_sim_at(s, hook, 10, 0, 0) || gp_sim_at(s, hook, 20, 1, 0) || gp_sim_at(s, hook, 30, 2, 0);
}

static int share_event(void *ud, gp_sim *s, int64_t arg)
{
	(void)ud;
	share_rc[arg] = gp_sim_set_share(s, arg == 1 ? 2 : 0, arg == 1 ? 200 : 1000);
	return GP_OK;
}

static void test_share_change(void)
{
	static const gp_sim_hooks h = { .name = "shares", .begin = share_begin, .event = share_event };
	gp_tenants t;
	gp_joblist l;
	gp_sim_result r;
	gp_error err = GP_ERROR_INIT;

	cl = *gp_test_pix_cluster(1, 8);
	gp_joblist_init(&l);
	add(&l, "a1", "a", 0, 1, 100);
	add(&l, "a2", "a", 0, 1, 100);
	add(&l, "a3", "a", 0, 1, 100);
	l.jobs[0].gpu_milli = 500;
	l.jobs[1].gpu_milli = 600;
	l.jobs[2].gpu_milli = 700;
	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n  - {name: a, quota: {gpus: 2}}\n", &t, &err), GP_OK);
	queue = GP_SIM_FIFO;
	hook = &h;
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CU_ASSERT_EQUAL(share_rc[0], GP_NO);
	CU_ASSERT_EQUAL(share_rc[1], GP_OK);
	CU_ASSERT_EQUAL(share_rc[2], GP_OK);
	CU_ASSERT_EQUAL(r.tenant_use[0].peak_milli, 1800);
	CU_ASSERT_DOUBLE_EQUAL(r.tenant_use[0].gpu_s, 175, 1e-9);
	gp_sim_result_release(&r);
	gp_tenants_release(&t);
	gp_joblist_release(&l);
}

/* dominant-share (Kueue's fair sharing at admission), one 8-GPU node, one
 * cohort of a, b (2 GPUs of quota each) and c (4): it lends 8.
 *   a1 (a, 4 GPUs, 100 s) and c1 (c, 4, 10 s) at 0 fill the node; a2 (a,
 *   4, 50 s) at 5 and b1 (b, 4, 50 s) at 6 wait.  At 10 c1 ends and 4
 *   GPUs are free for one of them.  With it, a would borrow 8 - 2 = 6 of
 *   the cohort's 8 (share 0.75), b 4 - 2 = 2 (0.25): b1 goes first,
 *   10-60, then a2 60-110 (fifo-skip: a2 10-60, b1 60-110).
 *   a with weight 4: its share is 0.75 / 4 = 0.1875 < 0.25: a2 first. */
static void test_dominant_share(void)
{
	static const char *const files[] = {
		"tenants:\n  - {name: a, quota: {gpus: 2}, cohort: k}\n  - {name: b, quota: {gpus: 2}, cohort: k}\n"
		"  - {name: c, quota: {gpus: 4}, cohort: k}\n",
		"tenants:\n  - {name: a, quota: {gpus: 2}, cohort: k, weight: 4}\n"
		"  - {name: b, quota: {gpus: 2}, cohort: k}\n  - {name: c, quota: {gpus: 4}, cohort: k}\n",
	};
	gp_tenants t;
	gp_joblist l;
	gp_sim_result r;
	gp_error err = GP_ERROR_INIT;
	int f, q;

	cl = *gp_test_pix_cluster(1, 8);
	gp_joblist_init(&l);
	add(&l, "a1", "a", 0, 4, 100);
	add(&l, "c1", "c", 0, 4, 10);
	add(&l, "a2", "a", 5, 4, 50);
	add(&l, "b1", "b", 6, 4, 50);
	for (f = 0; f < 2; f++) {
		CU_ASSERT_EQUAL_FATAL(parse(files[f], &t, &err), GP_OK);
		for (q = 0; q < 2; q++) {
			/* b first only by dominant share with equal weights */
			int b_first = q == 0 && f == 0;

			queue = q == 0 ? GP_SIM_DOMINANT_SHARE : GP_SIM_FIFO_SKIP;
			CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
			CHECK_JOB(r, 0, 0, 100);
			CHECK_JOB(r, 1, 0, 10);
			CHECK_JOB(r, 2, b_first ? 60 : 10, b_first ? 110 : 60);
			CHECK_JOB(r, 3, b_first ? 10 : 60, b_first ? 60 : 110);
			gp_sim_result_release(&r);
		}
		gp_tenants_release(&t);
	}
	gp_joblist_release(&l);
}

/* Preemption by share (dominant-share), one 8-GPU node, one cohort of a,
 * b (2 GPUs of quota each) and c (4, idle): it lends 8.
 *   b1, b2, b3 (b, 2 GPUs, 100 s) at 0, 1, 2: b uses 6, borrows 4 (share
 *   4/8 = 0.5); a1 (a, 2, 100 s) at 3 fills the node.  a2 (a, 2, 50 s)
 *   at 10 would take a to 4, share 2/8 = 0.25; a is beyond its quota, so
 *   reclaim does not apply.  b without b3 (its latest) keeps 0.25 >= a's
 *   0.25: b3 is preempted (92 s left), a2 runs 10-60.  b3 would take b
 *   back to 0.5 and a without a2 has 0 < 0.5: it waits for a2's end,
 *   60-152.  Under fifo-skip a2 waits for b1's end: 100-150. */
static void test_share_preempt(void)
{
	gp_tenants t;
	gp_joblist l;
	gp_sim_result r;
	gp_error err = GP_ERROR_INIT;
	int q;

	cl = *gp_test_pix_cluster(1, 8);
	gp_joblist_init(&l);
	add(&l, "b1", "b", 0, 2, 100);
	add(&l, "b2", "b", 1, 2, 100);
	add(&l, "b3", "b", 2, 2, 100);
	add(&l, "a1", "a", 3, 2, 100);
	add(&l, "a2", "a", 10, 2, 50);
	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n  - {name: a, quota: {gpus: 2}, cohort: k}\n"
				    "  - {name: b, quota: {gpus: 2}, cohort: k}\n"
				    "  - {name: c, quota: {gpus: 4}, cohort: k}\n", &t, &err), GP_OK);
	for (q = 0; q < 2; q++) {
		queue = q == 0 ? GP_SIM_DOMINANT_SHARE : GP_SIM_FIFO_SKIP;
		CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
		CHECK_JOB(r, 0, 0, 100);
		CHECK_JOB(r, 1, 1, 101);
		CHECK_JOB(r, 2, 2, q == 0 ? 152 : 102);
		CHECK_JOB(r, 3, 3, 103);
		CHECK_JOB(r, 4, q == 0 ? 10 : 100, q == 0 ? 60 : 150);
		CU_ASSERT_EQUAL(r.jobs[2].preemptions, q == 0);
		CU_ASSERT_EQUAL(r.tenant_use[0].reclaims, (size_t)(q == 0));
		CU_ASSERT_EQUAL(r.tenant_use[1].reclaimed, (size_t)(q == 0));
		gp_sim_result_release(&r);
	}
	gp_tenants_release(&t);
	gp_joblist_release(&l);
}

/* Preemption by share, the second strategy (LessThanInitialShare): one
 * 8-GPU node, one cohort of a, b (2 GPUs of quota each) and c (4): it
 * lends 8.  b1 (b, 4 GPUs, 100 s) at 0 borrows 2 (share 2/8 = 0.25); a1
 * (a, 2) at 1 and c1 (c, 2) at 2 fill the node.  a2 (a, 1 GPU, 50 s) at
 * 10 would take a to 3, share 1/8 = 0.125.  b without b1 has 0 < 0.125:
 * the first strategy sets b1 aside; the second takes it, 0.125 being
 * below b's 0.25 now.  a2 runs 10-60 on one of b1's GPUs; b1 (90 s
 * left) waits for it, 60-150.  Under fifo-skip a2 waits for b1: 100-150. */
static void test_share_preempt_initial(void)
{
	gp_tenants t;
	gp_joblist l;
	gp_sim_result r;
	gp_error err = GP_ERROR_INIT;
	int q;

	cl = *gp_test_pix_cluster(1, 8);
	gp_joblist_init(&l);
	add(&l, "b1", "b", 0, 4, 100);
	add(&l, "a1", "a", 1, 2, 100);
	add(&l, "c1", "c", 2, 2, 100);
	add(&l, "a2", "a", 10, 1, 50);
	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n  - {name: a, quota: {gpus: 2}, cohort: k}\n"
				    "  - {name: b, quota: {gpus: 2}, cohort: k}\n"
				    "  - {name: c, quota: {gpus: 4}, cohort: k}\n", &t, &err), GP_OK);
	for (q = 0; q < 2; q++) {
		queue = q == 0 ? GP_SIM_DOMINANT_SHARE : GP_SIM_FIFO_SKIP;
		CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
		CHECK_JOB(r, 0, 0, q == 0 ? 150 : 100);
		CHECK_JOB(r, 1, 1, 101);
		CHECK_JOB(r, 2, 2, 102);
		CHECK_JOB(r, 3, q == 0 ? 10 : 100, q == 0 ? 60 : 150);
		CU_ASSERT_EQUAL(r.jobs[0].preemptions, q == 0);
		CU_ASSERT_EQUAL(r.tenant_use[0].reclaims, (size_t)(q == 0));
		CU_ASSERT_EQUAL(r.tenant_use[1].reclaimed, (size_t)(q == 0));
		gp_sim_result_release(&r);
	}
	gp_tenants_release(&t);
	gp_joblist_release(&l);
}

/* Preemption by share measured on every quota key: one 4-GPU node of
 * model M, one cohort of a {gpus: 2, M: 1}, b {gpus: 2, M: 2} and c
 * {gpus: 4, M: 4} (idle): it lends 8 on gpus, 7 on M.
 *   b1 (b, 4 GPUs, 100 s) at 0: b's share max(2/8, 2/7) = 2/7.
 *   a1 (a, 4 GPUs, 50 s) at 10 would take a to max(2/8, 3/7) = 3/7.  b
 *   without b1 has 0 < 3/7 and 3/7 is not below b's 2/7: nothing is
 *   preempted, a1 waits for b1's end, 100-150.  (Its share counted on
 *   `gpus` alone, 2/8, is below 2/7: a1 took b1, then b1 with b's 2/8
 *   below a's 3/7 took a1 back, without end at the same instant.) */
static int counted_duration(void *ud, const gp_cluster *c, const gp_job *job, const gp_placement *p,
			    gp_sim_runinfo *out)
{
	/* a run that starts jobs without end fails its jobs instead of
	 * hanging the test */
	if (p && ++starts > 100)
		return -1;
	return gp_sim_fixed_duration(ud, c, job, p, out);
}

static void test_share_preempt_model_keys(void)
{
	static gp_node_type ty;
	static gp_gpu_model model;
	gp_tenants t;
	gp_joblist l;
	gp_sim_result r;
	gp_error err = GP_ERROR_INIT;

	cl = *gp_test_pix_cluster(1, 4);
	ty = cl.types[0];
	ty.gpu_model = 0;
	cl.types = &ty;
	memset(&model, 0, sizeof(model));
	snprintf(model.name, sizeof(model.name), "M");
	cl.catalog.models = &model;
	cl.catalog.n = 1;
	gp_joblist_init(&l);
	add(&l, "b1", "b", 0, 4, 100);
	add(&l, "a1", "a", 10, 4, 50);
	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n  - {name: a, quota: {gpus: 2, M: 1}, cohort: k}\n"
				    "  - {name: b, quota: {gpus: 2, M: 2}, cohort: k}\n"
				    "  - {name: c, quota: {gpus: 4, M: 4}, cohort: k}\n", &t, &err), GP_OK);
	queue = GP_SIM_DOMINANT_SHARE;
	duration = counted_duration;
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CU_ASSERT_EQUAL(starts, 2);
	CHECK_JOB(r, 0, 0, 100);
	CHECK_JOB(r, 1, 100, 150);
	CU_ASSERT_EQUAL(r.jobs[0].preemptions, 0);
	CU_ASSERT_EQUAL(r.tenant_use[0].reclaims, 0);
	CU_ASSERT_EQUAL(r.tenant_use[1].reclaimed, 0);
	gp_sim_result_release(&r);
	gp_tenants_release(&t);
	gp_joblist_release(&l);
}

/* cl: node n0 with 4 GPUs of model M, n1 with 4 of model N (one PIX
 * switch each, as gp_test_pix_cluster builds them). */
static void two_model_cluster(void)
{
	static gp_node_type ty[2];
	static gp_gpu_model model[2];
	static gp_node node[2];
	int k;

	cl = *gp_test_pix_cluster(2, 4);
	memset(model, 0, sizeof(model));
	for (k = 0; k < 2; k++) {
		ty[k] = cl.types[0];
		ty[k].gpu_model = k;
		node[k] = cl.nodes[k];
		node[k].type = k;
		snprintf(model[k].name, sizeof(model[k].name), k ? "N" : "M");
	}
	cl.types = ty;
	cl.ntypes = 2;
	cl.nodes = node;
	cl.catalog.models = model;
	cl.catalog.n = 2;
}

/* Equal shares at one instant: node n0 (4 GPUs of model M), node n1 (4
 * of model N), one cohort of a and b {gpus: 2, M: 1, N: 2} and c {gpus:
 * 4, M: 2, N: 4} (idle but for c1): it lends 8 on gpus, 4 on M, 8 on N.
 *   a1 (a, 2, 100 s) at 0 and b1 (b, 2, 100 s) at 1 fill n0: a and b
 *   each borrow 1 of M's 4 (1/4); c1 (c, 2, 100 s) at 2 and b2 (b, 2,
 *   100 s) at 3 fill n1: b borrows 2 of the 8 on gpus (2/8 = 1/4).
 *   a2 (a, 2, 50 s) at 10 would take a to 2/8 on gpus: S = 1/4.  b
 *   without b2, its latest, keeps 1/4 on M, not below S (rule 2): b2 is
 *   preempted and a2 runs on n1, 10-60.  b2 would take b back to 1/4,
 *   and a without a2 keeps 1/4 on M: by rule 2 alone b2 takes a2 back,
 *   then a2 b2, without end at the same instant.  At one instant a
 *   tenant does not take back from one that took from it: b2 waits for
 *   a2's end, and with 93 s left runs 60-153. */
static void test_share_preempt_equal(void)
{
	gp_tenants t;
	gp_joblist l;
	gp_sim_result r;
	gp_error err = GP_ERROR_INIT;

	two_model_cluster();
	gp_joblist_init(&l);
	add(&l, "a1", "a", 0, 2, 100);
	add(&l, "b1", "b", 1, 2, 100);
	add(&l, "c1", "c", 2, 2, 100);
	add(&l, "b2", "b", 3, 2, 100);
	add(&l, "a2", "a", 10, 2, 50);
	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n  - {name: a, quota: {gpus: 2, M: 1, N: 2}, cohort: k}\n"
				    "  - {name: b, quota: {gpus: 2, M: 1, N: 2}, cohort: k}\n"
				    "  - {name: c, quota: {gpus: 4, M: 2, N: 4}, cohort: k}\n", &t, &err), GP_OK);
	queue = GP_SIM_DOMINANT_SHARE;
	duration = counted_duration;
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CU_ASSERT_EQUAL(starts, 6);
	CHECK_JOB(r, 0, 0, 100);
	CHECK_JOB(r, 1, 1, 101);
	CHECK_JOB(r, 2, 2, 102);
	CHECK_JOB(r, 3, 3, 153);
	CHECK_JOB(r, 4, 10, 60);
	CU_ASSERT_EQUAL(r.jobs[3].preemptions, 1);
	CU_ASSERT_EQUAL(r.jobs[4].preemptions, 0);
	CU_ASSERT_EQUAL(r.jobs[3].first_node, 1);
	CU_ASSERT_EQUAL(r.jobs[4].first_node, 1);
	CU_ASSERT_EQUAL(r.tenant_use[0].reclaims, 1);
	CU_ASSERT_EQUAL(r.tenant_use[1].reclaimed, 1);
	CU_ASSERT_EQUAL(r.tenant_use[1].reclaims, 0);
	gp_sim_result_release(&r);
	gp_tenants_release(&t);
	gp_joblist_release(&l);
}

/* Flavor assignment: node n0 (4 GPUs of model M) and n1 (4 of model N),
 * tenant a alone, first-fit (n0 first).  With {gpus: 8, M: 2}:
 *   a1 (4 GPUs, 100 s) at 0: first-fit proposes n0, 4 on M is over a's
 *   2; N has no key and `gpus` admits 4: asked again among N, n1, 0-100.
 *   a2 (2, 50 s) at 1: n0, 2 on M, 1-51.
 *   a3 (4, 30 s) at 2: no node has 4 free; at 51 n0 does but M refuses
 *   and n1 is full; at 100 n1, 100-130.
 *   a4 (4, 10 s, allowed M only) at 3: M refuses it and N is not its
 *   own: never placed.
 * With N: 4 too, the same (at 51 a's 4 on N leave no room for a3: it is
 * not asked again).  With N: 3 neither model admits a 4-GPU job: only
 * a2 runs. */
static void test_flavor_assignment(void)
{
	static const char *const quota[] = { "{gpus: 8, M: 2}", "{gpus: 8, M: 2, N: 4}",
					     "{gpus: 8, M: 2, N: 3}" };
	gp_tenants t;
	gp_joblist l;
	gp_sim_result r;
	gp_error err = GP_ERROR_INIT;
	char text[128];
	int q;

	two_model_cluster();
	gp_joblist_init(&l);
	add(&l, "a1", "a", 0, 4, 100);
	add(&l, "a2", "a", 1, 2, 50);
	add(&l, "a3", "a", 2, 4, 30);
	add(&l, "a4", "a", 3, 4, 10);
	l.jobs[3].gpu_models = gp_xstrdup("M");
	for (q = 0; q < 3; q++) {
		snprintf(text, sizeof(text), "tenants:\n  - {name: a, quota: %s}\n", quota[q]);
		CU_ASSERT_EQUAL_FATAL(parse(text, &t, &err), GP_OK);
		CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
		CHECK_JOB(r, 1, 1, 51);
		CU_ASSERT_EQUAL(r.jobs[1].first_node, 0);
		CU_ASSERT_EQUAL(r.jobs[3].state, GP_SIM_NEVER);
		if (q < 2) {
			CHECK_JOB(r, 0, 0, 100);
			CHECK_JOB(r, 2, 100, 130);
			CU_ASSERT_EQUAL(r.jobs[0].first_node, 1);
			CU_ASSERT_EQUAL(r.jobs[2].first_node, 1);
		} else {
			CU_ASSERT_EQUAL(r.jobs[0].state, GP_SIM_NEVER);
			CU_ASSERT_EQUAL(r.jobs[2].state, GP_SIM_NEVER);
		}
		gp_sim_result_release(&r);
		gp_tenants_release(&t);
	}
	gp_joblist_release(&l);
}

/* Flavor assignment in reclaim: node n0 (4 GPUs of model M), n1 (4 of
 * N), first-fit; one cohort of a {gpus: 4, N: 4} (no M), b {gpus: 2,
 * M: 4, N: 4} and c {gpus: 4} (idle): it lends 10 on gpus, 4 on M, 8
 * on N.
 *   b1 (b, 4 GPUs, 100 s, model N only) at 0: n1.  b2 (b, 4, 100 s) at
 *   1: n0; b uses 8 on gpus, borrows 6.
 *   a1 (a, 4, 50 s) at 10 is within a's quota: it reclaims.  b2, the
 *   later start, is taken: first-fit proposes n0, but 4 on M is beyond
 *   a's nominal 0 there; asked again among N (a's N admits 4): n1 is
 *   full.  b, still over its 2, loses b1 too: first-fit again proposes
 *   n0, asked again n1 is free and admitted.  b2 comes back on n0 (a's
 *   quota holds with it); b1 cannot (a1 holds n1) and is preempted with
 *   90 s left.  a1 runs 10-60 on n1; b1 (model N) waits for it and runs
 *   60-150.
 * Placed unrestricted in reclaim, both takes end on n0 and reclaim
 * fails: a1 waits for b1's end and runs 100-150 on n1 (n0 is b2's until
 * 101), nothing preempted. */
static void test_flavor_reclaim(void)
{
	gp_tenants t;
	gp_joblist l;
	gp_sim_result r;
	gp_error err = GP_ERROR_INIT;

	two_model_cluster();
	gp_joblist_init(&l);
	add(&l, "b1", "b", 0, 4, 100);
	add(&l, "b2", "b", 1, 4, 100);
	add(&l, "a1", "a", 10, 4, 50);
	l.jobs[0].gpu_models = gp_xstrdup("N");
	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n  - {name: a, quota: {gpus: 4, N: 4}, cohort: k}\n"
				    "  - {name: b, quota: {gpus: 2, M: 4, N: 4}, cohort: k}\n"
				    "  - {name: c, quota: {gpus: 4}, cohort: k}\n", &t, &err), GP_OK);
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CHECK_JOB(r, 0, 0, 150);
	CHECK_JOB(r, 1, 1, 101);
	CHECK_JOB(r, 2, 10, 60);
	CU_ASSERT_EQUAL(r.jobs[2].first_node, 1);
	CU_ASSERT_EQUAL(r.jobs[0].preemptions, 1);
	CU_ASSERT_EQUAL(r.jobs[1].preemptions, 0);
	CU_ASSERT_EQUAL(r.tenant_use[0].reclaims, 1);
	CU_ASSERT_EQUAL(r.tenant_use[1].reclaimed, 1);
	gp_sim_result_release(&r);
	gp_tenants_release(&t);
	gp_joblist_release(&l);
}

/* Flavor assignment in preemption by share (dominant-share): n0 (M),
 * n1 (N), first-fit; one cohort of a {gpus: 2, N: 4}, b {gpus: 0, M: 4,
 * N: 4, lending_limit: 0} (lends nothing) and c {gpus: 8, N: 8} (idle):
 * it lends 10 on gpus, 0 on M, 12 on N.
 *   b1 (b, 4 GPUs, 100 s, model N only) at 0: n1; b2 (b, 4, 100 s) at
 *   1: n0.  b borrows 8 on gpus: share 8/10.
 *   a1 (a, 4, 50 s) at 10 would borrow 2: S = 2/10.  Rule 2: b without
 *   b2 keeps 4/10 >= S: b2 is taken; first-fit proposes n0, which a's M
 *   (nothing of its own, nothing lent) refuses; asked again among N:
 *   n1 is full.  b without b1 too would have 0 < S: b1 is set aside.
 *   Rule 3: S < b's 4/10: b1 is taken; n0 is refused again, n1 is
 *   admitted (a's share on it 2/10, within both rules).  b2 comes back
 *   on n0, b1 is preempted with 90 s left.  a1 runs 10-60 on n1, b1
 *   60-150.
 * Placed unrestricted, both tries end on n0: nothing is preempted, a1
 * runs 100-150 on n1 after b1. */
static void test_flavor_share_preempt(void)
{
	gp_tenants t;
	gp_joblist l;
	gp_sim_result r;
	gp_error err = GP_ERROR_INIT;

	two_model_cluster();
	gp_joblist_init(&l);
	add(&l, "b1", "b", 0, 4, 100);
	add(&l, "b2", "b", 1, 4, 100);
	add(&l, "a1", "a", 10, 4, 50);
	l.jobs[0].gpu_models = gp_xstrdup("N");
	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n  - {name: a, quota: {gpus: 2, N: 4}, cohort: k}\n"
				    "  - {name: b, quota: {gpus: 0, M: 4, N: 4}, cohort: k, lending_limit: 0}\n"
				    "  - {name: c, quota: {gpus: 8, N: 8}, cohort: k}\n", &t, &err), GP_OK);
	queue = GP_SIM_DOMINANT_SHARE;
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CHECK_JOB(r, 0, 0, 150);
	CHECK_JOB(r, 1, 1, 101);
	CHECK_JOB(r, 2, 10, 60);
	CU_ASSERT_EQUAL(r.jobs[2].first_node, 1);
	CU_ASSERT_EQUAL(r.jobs[0].preemptions, 1);
	CU_ASSERT_EQUAL(r.jobs[1].preemptions, 0);
	CU_ASSERT_EQUAL(r.tenant_use[0].reclaims, 1);
	CU_ASSERT_EQUAL(r.tenant_use[1].reclaimed, 1);
	gp_sim_result_release(&r);
	gp_tenants_release(&t);
	gp_joblist_release(&l);
}

/* Flavor assignment under --preempt priority (queue fifo): n0 (M), n1
 * (N), first-fit; a {gpus: 8, N: 4} (no M), b {gpus: 8, M: 4, N: 4},
 * no cohort.
 *   b1 (b, 2 GPUs, 100 s) at 0: n0 GPUs 0-1; b2 (b, 4, 100 s) at 1: n1.
 *   a1 (a, 2, 50 s, priority 5) at 10: first-fit proposes n0's free
 *   GPUs, a's M refuses them, asked again among N: n1 is full.  It
 *   preempts: n0's trial (b1, the least held) goes first, first-fit
 *   takes n0, refused, and n1 is still full; then n1's (b2): first-fit
 *   proposes n0 again, asked again among N, n1 is free: b2 is preempted
 *   with 91 s left, a1 runs 10-60 on n1, b2 60-151.
 * Placed unrestricted, every trial ends on n0: a1 waits for b2's end and
 * runs 101-151 on n1. */
static void test_flavor_preempt(void)
{
	gp_tenants t;
	gp_joblist l;
	gp_sim_result r;
	gp_error err = GP_ERROR_INIT;

	two_model_cluster();
	gp_joblist_init(&l);
	add(&l, "b1", "b", 0, 2, 100);
	add(&l, "b2", "b", 1, 4, 100);
	add(&l, "a1", "a", 10, 2, 50);
	l.jobs[2].priority = 5;
	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n  - {name: a, quota: {gpus: 8, N: 4}}\n"
				    "  - {name: b, quota: {gpus: 8, M: 4, N: 4}}\n", &t, &err), GP_OK);
	queue = GP_SIM_FIFO;
	preempt_mode = GP_SIM_PREEMPT_PRIORITY;
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CHECK_JOB(r, 0, 0, 100);
	CHECK_JOB(r, 1, 1, 151);
	CHECK_JOB(r, 2, 10, 60);
	CU_ASSERT_EQUAL(r.jobs[2].first_node, 1);
	CU_ASSERT_EQUAL(r.jobs[0].preemptions, 0);
	CU_ASSERT_EQUAL(r.jobs[1].preemptions, 1);
	gp_sim_result_release(&r);
	gp_tenants_release(&t);
	gp_joblist_release(&l);
}

/* Flavor assignment in backfill's reservations: n0 (M), n1 (N),
 * first-fit; a {gpus: 8, N: 4} (no M), b {gpus: 8, M: 4, N: 4}.  EASY:
 *   b1 (b, 4 GPUs, 50 s) at 0: n0; b2 (b, 2, 100 s) at 1: n1 GPUs 0-1.
 *   a1 (a, 4, 30 s) at 2 is the blocked head.  Its reservation: at 50
 *   (b1's end) first-fit proposes n0, a's M refuses it, asked again
 *   among N: n1 has 2 free; the walk goes on: at 101 (b2's end) n0 is
 *   refused again and n1 admitted: the reservation is n1 from 101.
 *   b3 (b, 2, 200 s) at 3 would take n1's GPUs 2-3 beyond 101: it is
 *   not backfilled.  At 50 b1 ends: a1 is refused on n0 and n1 lacks 2
 *   GPUs: it waits for GPUs and reserves n1 from 101 again; b3 is
 *   backfilled on n0, 50-250.  At 101 a1 starts on n1, 101-131.
 * Slurm's plan: the same reservation for a1 (whole n1 from 101 to
 * 131); b3, kept off n1 over [3, 203), reserves n0 from 50 and, at 50,
 * is backfilled there (n1 still withheld): the same times.
 * Without the walk going on, the reservation at 50 was refused and
 * none held: b3 was backfilled on n1's GPUs 2-3 at 3 (3-203) and a1
 * waited for it, 203-233 (both rules). */
static void test_flavor_backfill(void)
{
	gp_tenants t;
	gp_joblist l;
	gp_sim_result r;
	gp_error err = GP_ERROR_INIT;
	int mode;

	two_model_cluster();
	gp_joblist_init(&l);
	add(&l, "b1", "b", 0, 4, 50);
	add(&l, "b2", "b", 1, 2, 100);
	add(&l, "a1", "a", 2, 4, 30);
	add(&l, "b3", "b", 3, 2, 200);
	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n  - {name: a, quota: {gpus: 8, N: 4}}\n"
				    "  - {name: b, quota: {gpus: 8, M: 4, N: 4}}\n", &t, &err), GP_OK);
	queue = GP_SIM_BACKFILL;
	for (mode = GP_SIM_BF_EASY; mode <= GP_SIM_BF_SLURM; mode++) {
		bf_mode = mode;
		CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
		CHECK_JOB(r, 0, 0, 50);
		CHECK_JOB(r, 1, 1, 101);
		CHECK_JOB(r, 2, 101, 131);
		CHECK_JOB(r, 3, 50, 250);
		CU_ASSERT_EQUAL(r.jobs[2].first_node, 1);
		CU_ASSERT_EQUAL(r.jobs[3].first_node, 0);
		CU_ASSERT_EQUAL(r.backfilled, 1);
		gp_sim_result_release(&r);
	}
	gp_tenants_release(&t);
	gp_joblist_release(&l);
}

/* The second ask of admission is not repeated for a shape that found no
 * placement among the same GPU models until something is freed: n0
 * (M), n1 (N), first-fit; a {gpus: 8, N: 4} (no M), b {gpus: 8, M: 4,
 * N: 4}.
 *   0: b1 (b, 4 GPUs, 100 s, model N only) arrives (the policy asked
 *   whether its shape ever fits: 1) and starts on n1 (2).
 *   10: a1 and a2 (a, 2 GPUs, 50 s: one shape) arrive (ever: 3).  a1:
 *   first-fit proposes n0 (4), a's M refuses, asked again among N (5):
 *   n1 is full.  a2: n0 again (6), refused; among N not asked again.
 *   100: b1 ends.  a1: n0 (7), refused, among N (8): n1, 100-150.  a2
 *   the same (9, 10): n1, 100-150.
 * 10 policy calls (11 when a2 asks again at 10). */
static void test_flavor_memo(void)
{
	gp_tenants t;
	gp_joblist l;
	gp_sim_result r;
	gp_error err = GP_ERROR_INIT;

	two_model_cluster();
	gp_joblist_init(&l);
	add(&l, "b1", "b", 0, 4, 100);
	add(&l, "a1", "a", 10, 2, 50);
	add(&l, "a2", "a", 10, 2, 50);
	l.jobs[0].gpu_models = gp_xstrdup("N");
	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n  - {name: a, quota: {gpus: 8, N: 4}}\n"
				    "  - {name: b, quota: {gpus: 8, M: 4, N: 4}}\n", &t, &err), GP_OK);
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CHECK_JOB(r, 0, 0, 100);
	CHECK_JOB(r, 1, 100, 150);
	CHECK_JOB(r, 2, 100, 150);
	CU_ASSERT_EQUAL(r.jobs[1].first_node, 1);
	CU_ASSERT_EQUAL(r.jobs[2].first_node, 1);
	CU_ASSERT_EQUAL(r.policy_calls, 10);
	gp_sim_result_release(&r);
	gp_tenants_release(&t);
	gp_joblist_release(&l);
}

/* A job taken by share takes its taker back by reclaim once its tenant
 * is within its quota: one 8-GPU node, one cohort of a {gpus: 1}, b
 * {gpus: 4} and c {gpus: 3}: it lends 8.
 *   b1 (b, 3 GPUs, 20 s) at 0, b2 (b, 4, 200 s) at 1: b borrows 3
 *   (share 3/8); a1 (a, 1, 200 s) at 2 fills the node.
 *   10: a2 (a, 2, 100 s) would borrow 2: S = 2/8.  Rule 2: b without
 *   b2 (its latest) or b1 has 0 < S; rule 3: S < 3/8: b2 is taken, a2
 *   takes 2 of its GPUs and b2 is preempted (191 s left).  b2, borrowing
 *   3 with it, may not reclaim; by share a's 2/8 is below its 3/8.
 *   11: c1 (c, 2, 300 s) takes the other 2.
 *   20: b1 ends, 3 GPUs free.  b2 would be within b's quota (4): it
 *   reclaims from a, which borrows; a2, a's latest, is taken, b2 takes
 *   4 of the 5 free GPUs and a2 (90 s left) is preempted: b2 20-211.
 *   a2 borrowing may not reclaim, and by share b has 0: it waits for a
 *   GPU: a1 ends at 202, a2 202-292.
 * Each tenant took from the other once, at different instants. */
static void test_share_then_reclaim(void)
{
	gp_tenants t;
	gp_joblist l;
	gp_sim_result r;
	gp_error err = GP_ERROR_INIT;

	cl = *gp_test_pix_cluster(1, 8);
	gp_joblist_init(&l);
	add(&l, "b1", "b", 0, 3, 20);
	add(&l, "b2", "b", 1, 4, 200);
	add(&l, "a1", "a", 2, 1, 200);
	add(&l, "a2", "a", 10, 2, 100);
	add(&l, "c1", "c", 11, 2, 300);
	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n  - {name: a, quota: {gpus: 1}, cohort: k}\n"
				    "  - {name: b, quota: {gpus: 4}, cohort: k}\n"
				    "  - {name: c, quota: {gpus: 3}, cohort: k}\n", &t, &err), GP_OK);
	queue = GP_SIM_DOMINANT_SHARE;
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CHECK_JOB(r, 0, 0, 20);
	CHECK_JOB(r, 1, 1, 211);
	CHECK_JOB(r, 2, 2, 202);
	CHECK_JOB(r, 3, 10, 292);
	CHECK_JOB(r, 4, 11, 311);
	CU_ASSERT_EQUAL(r.jobs[1].preemptions, 1);
	CU_ASSERT_EQUAL(r.jobs[3].preemptions, 1);
	CU_ASSERT_EQUAL(r.tenant_use[0].reclaims, 1);
	CU_ASSERT_EQUAL(r.tenant_use[0].reclaimed, 1);
	CU_ASSERT_EQUAL(r.tenant_use[1].reclaims, 1);
	CU_ASSERT_EQUAL(r.tenant_use[1].reclaimed, 1);
	gp_sim_result_release(&r);
	gp_tenants_release(&t);
	gp_joblist_release(&l);
}

/* Preemption by share takes only from tenants that borrow on the key the
 * job contends for (Kueue: candidates are the ClusterQueues borrowing on
 * the flavor-resources that need preemption), `gpus`.  n0 (4 GPUs of
 * model M), n1 (4 of model N), first-fit; one cohort of a {gpus: 2, M:
 * 4, N: 4, weight 2}, b {gpus: 2, M: 0, N: 4} and c {gpus: 4, M: 4, N:
 * 4}: it lends 8 on gpus, 8 on M, 12 on N.
 *   b1 (b, 2 GPUs, 100 s) at 0: n0, GPUs 0-1; b is within its 2 on gpus
 *   and borrows 2 on M: share 2/8 = 0.25.
 *   c1 (c, 4, 100 s) at 1: n1; c within its quota, share 0.
 *   a1 (a, 2, 100 s) at 2: n0, GPUs 2-3; the cluster is full.
 *   a2 (a, 2, 50 s) at 10 would take a to 4 on gpus, borrowing 2 of the
 *   8: S = 0.25 / 2 = 0.125; the cohort has nothing left on gpus.  No
 *   tenant but a borrows on gpus: nothing is preempted, a2 waits for b1's
 *   end and runs 100-150 on n0.
 * Taking from any tenant of share above 0, a2 took b1 (LessThanInitialShare,
 * 0.125 < 0.25): a2 ran 10-60 and b1, with 90 s left, 60-150.  On real
 * traces b, within its quota on gpus, then reclaims a's GPUs at a later
 * instant, and a takes them back by share again. */
static void test_share_preempt_borrowing_key(void)
{
	gp_tenants t;
	gp_joblist l;
	gp_sim_result r;
	gp_error err = GP_ERROR_INIT;

	two_model_cluster();
	gp_joblist_init(&l);
	add(&l, "b1", "b", 0, 2, 100);
	add(&l, "c1", "c", 1, 4, 100);
	add(&l, "a1", "a", 2, 2, 100);
	add(&l, "a2", "a", 10, 2, 50);
	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n  - {name: a, quota: {gpus: 2, M: 4, N: 4}, cohort: k, weight: 2}\n"
				    "  - {name: b, quota: {gpus: 2, M: 0, N: 4}, cohort: k}\n"
				    "  - {name: c, quota: {gpus: 4, M: 4, N: 4}, cohort: k}\n", &t, &err), GP_OK);
	queue = GP_SIM_DOMINANT_SHARE;
	duration = counted_duration;
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CU_ASSERT_EQUAL(starts, 4);
	CHECK_JOB(r, 0, 0, 100);
	CHECK_JOB(r, 1, 1, 101);
	CHECK_JOB(r, 2, 2, 102);
	CHECK_JOB(r, 3, 100, 150);
	CU_ASSERT_EQUAL(r.jobs[0].preemptions, 0);
	CU_ASSERT_EQUAL(r.jobs[3].preemptions, 0);
	CU_ASSERT_EQUAL(r.jobs[3].first_node, 0);
	CU_ASSERT_EQUAL(r.tenant_use[0].reclaims, 0);
	CU_ASSERT_EQUAL(r.tenant_use[1].reclaimed, 0);
	gp_sim_result_release(&r);
	gp_tenants_release(&t);
	gp_joblist_release(&l);
}

/* A job within its quota under dominant-share: it reclaims whatever the
 * shares (Kueue's FairSharingPreemptWithinNominal), or with
 * share_within_quota preempts by share only.  n0 (4 GPUs of model M), n1
 * (4 of model N), first-fit; one cohort of a {gpus: 4, M: 0, N: 4} and b
 * {gpus: 4, M: 4, N: 4}: it lends 8 on gpus, 4 on M, 8 on N.
 *   a1 (a, 2 GPUs, 100 s, M only) at 0: n0 GPUs 0-1; a borrows 2 of M's
 *   4: share 0.5.  b0 (b, 2, 100 s, M only) at 1: n0 GPUs 2-3.  b1 (b,
 *   2, 100 s, N only) at 2: n1 GPUs 0-1.  b2 (b, 2, 100 s) at 3: n1 GPUs
 *   2-3; b borrows 2 of the 8 on gpus: share 0.25.  The cluster is full.
 *   a2 (a, 2, 50 s) at 10 keeps a within its 4 on gpus.
 * Reclaim: b2, b's latest, is taken; a2 runs 10-60 on n1 (within a's N);
 * b2, with 93 s left and b within nothing it could reclaim, 60-153.
 * By share: a's share with a2 is 0.5 (M), above b's 0.25: nothing is
 * taken; a2 waits for a1's end and runs 100-150 on n0. */
static void test_within_quota_share(void)
{
	gp_tenants t;
	gp_joblist l;
	gp_sim_result r;
	gp_error err = GP_ERROR_INIT;
	int share;

	two_model_cluster();
	gp_joblist_init(&l);
	add(&l, "a1", "a", 0, 2, 100);
	add(&l, "b0", "b", 1, 2, 100);
	add(&l, "b1", "b", 2, 2, 100);
	add(&l, "b2", "b", 3, 2, 100);
	add(&l, "a2", "a", 10, 2, 50);
	l.jobs[0].gpu_models = gp_xstrdup("M");
	l.jobs[1].gpu_models = gp_xstrdup("M");
	l.jobs[2].gpu_models = gp_xstrdup("N");
	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n  - {name: a, quota: {gpus: 4, M: 0, N: 4}, cohort: k}\n"
				    "  - {name: b, quota: {gpus: 4, M: 4, N: 4}, cohort: k}\n", &t, &err), GP_OK);
	queue = GP_SIM_DOMINANT_SHARE;
	for (share = 0; share < 2; share++) {
		share_within_quota = share;
		CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
		CHECK_JOB(r, 0, 0, 100);
		CHECK_JOB(r, 1, 1, 101);
		CHECK_JOB(r, 2, 2, 102);
		CHECK_JOB(r, 3, 3, share ? 103 : 153);
		CHECK_JOB(r, 4, share ? 100 : 10, share ? 150 : 60);
		CU_ASSERT_EQUAL(r.jobs[4].first_node, share ? 0 : 1);
		CU_ASSERT_EQUAL(r.jobs[3].preemptions, !share);
		CU_ASSERT_EQUAL(r.tenant_use[0].reclaims, (size_t)!share);
		CU_ASSERT_EQUAL(r.tenant_use[1].reclaimed, (size_t)!share);
		CU_ASSERT_EQUAL(r.tenant_use[1].reclaimed_most, (size_t)!share);
		CU_ASSERT_EQUAL(r.tenant_use[0].reclaimed_most, 0);
		if (!share)
			CU_ASSERT_EQUAL(r.tenant_use[1].reclaimed_most_job, 3);
		gp_sim_result_release(&r);
	}
	gp_tenants_release(&t);
	gp_joblist_release(&l);
}

/* Nodes of no GPU model in the second ask: n0 (4 GPUs of model M), n1
 * (4 GPUs of no model), first-fit, tenant a {gpus: 8, M: 2} alone.
 *   a1 (4 GPUs, 100 s) at 0: first-fit proposes n0, 4 on M is over a's
 *   2.  n1 draws on no model key: as for a model without one, `gpus`
 *   alone binds it, and admits 4.  Asked again among the nodes whose
 *   keys admit it: n1, 0-100.
 *   a2 (4, 10 s, model M only) at 1: M refuses it and nodes of no model
 *   are not its own: never placed.
 * Left out of the second ask, a1 was never placed (first-fit proposes
 * n0, free all along). */
static void test_flavor_no_model(void)
{
	gp_tenants t;
	gp_joblist l;
	gp_sim_result r;
	gp_error err = GP_ERROR_INIT;
	gp_job any = { 0 };

	two_model_cluster();
	cl.types[1].gpu_model = -1;
	cl.catalog.n = 1;
	gp_joblist_init(&l);
	add(&l, "a1", "a", 0, 4, 100);
	add(&l, "a2", "a", 1, 4, 10);
	l.jobs[1].gpu_models = gp_xstrdup("M");
	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n  - {name: a, quota: {gpus: 8, M: 2}}\n", &t, &err), GP_OK);
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CHECK_JOB(r, 0, 0, 100);
	CU_ASSERT_EQUAL(r.jobs[0].first_node, 1);
	CU_ASSERT_EQUAL(r.jobs[1].state, GP_SIM_NEVER);
	gp_sim_result_release(&r);
	gp_tenants_release(&t);
	gp_joblist_release(&l);
	/* the list's empty name */
	CU_ASSERT(gp_job_accepts_no_model(&any));
	any.gpu_models = (char *)"M";
	CU_ASSERT(!gp_job_accepts_no_model(&any));
	any.gpu_models = (char *)"|M";
	CU_ASSERT(gp_job_accepts_no_model(&any));
	CU_ASSERT(gp_job_accepts_model(&any, "M"));
	any.gpu_models = (char *)"|";
	CU_ASSERT(gp_job_accepts_no_model(&any));
	CU_ASSERT(!gp_job_accepts_model(&any, "M"));
}

/* A job whose GPU models' keys admit it, but whose admitted models have
 * no room, waits for GPUs, not for quota: under backfill it reserves.
 * n0 (M), n1 (N), first-fit, EASY; a {gpus: 8, N: 4} (no M), b {gpus:
 * 8, M: 4, N: 4}.
 *   b1 (b, 2 GPUs, 100 s, model N only) at 0: n1 GPUs 0-1; b2 (b, 2,
 *   50 s, N only) at 1: n1 GPUs 2-3.
 *   a1 (a, 4, 30 s) at 2: first-fit proposes n0, a's M refuses; among N
 *   n1 is full.  It reserves: at 51 (b2's end) n1 has 2 GPUs, at 100
 *   (b1's) n1 is admitted: n1 from 100.
 *   b3 (b, 2, 200 s, N only) at 3 finds n1 full; at 51 it would take
 *   n1's GPUs 2-3 beyond 100: not backfilled.  At 100 a1 starts on n1,
 *   100-130; b3 130-330.  a never waited for quota.
 * Counted as refused by its quota, a1 neither reserved nor blocked: b3
 * started at 51 (51-251) and a1 waited for it, 251-281, with a quota
 * wait at every try. */
static void test_flavor_no_room(void)
{
	gp_tenants t;
	gp_joblist l;
	gp_sim_result r;
	gp_error err = GP_ERROR_INIT;

	two_model_cluster();
	gp_joblist_init(&l);
	add(&l, "b1", "b", 0, 2, 100);
	add(&l, "b2", "b", 1, 2, 50);
	add(&l, "a1", "a", 2, 4, 30);
	add(&l, "b3", "b", 3, 2, 200);
	l.jobs[0].gpu_models = gp_xstrdup("N");
	l.jobs[1].gpu_models = gp_xstrdup("N");
	l.jobs[3].gpu_models = gp_xstrdup("N");
	CU_ASSERT_EQUAL_FATAL(parse("tenants:\n  - {name: a, quota: {gpus: 8, N: 4}}\n"
				    "  - {name: b, quota: {gpus: 8, M: 4, N: 4}}\n", &t, &err), GP_OK);
	queue = GP_SIM_BACKFILL;
	CU_ASSERT_EQUAL_FATAL(run(&t, NULL, &l, &r, &err), GP_OK);
	CHECK_JOB(r, 0, 0, 100);
	CHECK_JOB(r, 1, 1, 51);
	CHECK_JOB(r, 2, 100, 130);
	CHECK_JOB(r, 3, 130, 330);
	CU_ASSERT_EQUAL(r.jobs[2].first_node, 1);
	CU_ASSERT_EQUAL(r.tenant_use[0].quota_waits, 0);
	gp_sim_result_release(&r);
	gp_tenants_release(&t);
	gp_joblist_release(&l);
}

static void register_tests(void)
{
	CU_pSuite s = CU_add_suite_with_setup_and_teardown("tenants", NULL, NULL, reset_settings, NULL);

	if (!s) {
		fprintf(stderr, "cannot add suite tenants: %s\n", CU_get_error_msg());
		exit(2);
	}

	gp_test_add(s, "parse", test_parse);
	gp_test_add(s, "quota_and_borrowing", test_quota_and_borrowing);
	gp_test_add(s, "lending_limit", test_lending_limit);
	gp_test_add(s, "unknown_tenant", test_unknown_tenant);
	gp_test_add(s, "reclaim", test_reclaim);
	gp_test_add(s, "reclaim_order", test_reclaim_order);
	gp_test_add(s, "cohort_pool", test_cohort_pool);
	gp_test_add(s, "cohort_pool_lending", test_cohort_pool_lending);
	gp_test_add(s, "fairshare_order", test_fairshare_order);
	gp_test_add(s, "fairshare_decay", test_fairshare_decay);
	gp_test_add(s, "backfill", test_backfill);
	gp_test_add(s, "preempt", test_preempt);
	gp_test_add(s, "las", test_las);
	gp_test_add(s, "share_change", test_share_change);
	gp_test_add(s, "dominant_share", test_dominant_share);
	gp_test_add(s, "share_preempt", test_share_preempt);
	gp_test_add(s, "share_preempt_initial", test_share_preempt_initial);
	gp_test_add(s, "share_preempt_model_keys", test_share_preempt_model_keys);
	gp_test_add(s, "share_preempt_equal", test_share_preempt_equal);
	gp_test_add(s, "flavor_assignment", test_flavor_assignment);
	gp_test_add(s, "flavor_reclaim", test_flavor_reclaim);
	gp_test_add(s, "flavor_share_preempt", test_flavor_share_preempt);
	gp_test_add(s, "flavor_preempt", test_flavor_preempt);
	gp_test_add(s, "flavor_backfill", test_flavor_backfill);
	gp_test_add(s, "flavor_memo", test_flavor_memo);
	gp_test_add(s, "flavor_no_model", test_flavor_no_model);
	gp_test_add(s, "flavor_no_room", test_flavor_no_room);
	gp_test_add(s, "share_then_reclaim", test_share_then_reclaim);
	gp_test_add(s, "share_preempt_borrowing_key", test_share_preempt_borrowing_key);
	gp_test_add(s, "within_quota_share", test_within_quota_share);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
