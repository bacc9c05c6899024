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

static int run(const gp_tenants *t, const char *dflt, gp_joblist *l, gp_sim_result *r, gp_error *err)
{
	gp_sim_config cfg;

	gp_sim_config_init(&cfg);
	cfg.cluster = &cl;
	cfg.policy = gp_policy_find("first-fit");
	cfg.queue = GP_SIM_FIFO_SKIP;
	cfg.seed = 7;
	cfg.tick = 50;
	cfg.tenants = t;
	cfg.default_tenant = dflt;
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

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("tenants");

	gp_test_add(s, "parse", test_parse);
	gp_test_add(s, "quota_and_borrowing", test_quota_and_borrowing);
	gp_test_add(s, "lending_limit", test_lending_limit);
	gp_test_add(s, "unknown_tenant", test_unknown_tenant);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
