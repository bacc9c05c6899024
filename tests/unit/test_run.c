#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/run/pool.h"
#include "gpuplan/run/run.h"
#include "gpuplan/sim/failures.h"
#include "gpuplan/util/util.h"
#include "gpuplan/whatif/spec.h"
#include "testlib.h"

/* The engine settings: las takes preemption from its own order and only
 * "off" turns it off; other queues preempt as given, -1 meaning off. */
static void test_engine_settings(void)
{
	gp_run_desc d;
	gp_sim_config c;

	gp_run_desc_init(&d);
	CU_ASSERT_STRING_EQUAL(d.policy, "bestfit");
	CU_ASSERT_EQUAL(d.queue, GP_SIM_FIFO);
	CU_ASSERT_EQUAL(d.seed, 1);
	CU_ASSERT_EQUAL(d.preempt, -1);

	d.queue = GP_SIM_LAS;
	d.las_nthresholds = 2;
	d.las_thresholds[0] = 100;
	d.las_thresholds[1] = 900;
	d.las_starvation = 3;
	gp_sim_config_init(&c);
	gp_run_desc_engine(&d, &c);
	CU_ASSERT_EQUAL(c.las_preempt, 1);
	CU_ASSERT_EQUAL(c.preempt, GP_SIM_PREEMPT_OFF);
	CU_ASSERT_EQUAL(c.las_nthresholds, 2);
	CU_ASSERT_DOUBLE_EQUAL(c.las_thresholds[1], 900, 0);
	CU_ASSERT_DOUBLE_EQUAL(c.las_starvation, 3, 0);

	d.preempt = GP_SIM_PREEMPT_OFF;
	gp_sim_config_init(&c);
	gp_run_desc_engine(&d, &c);
	CU_ASSERT_EQUAL(c.las_preempt, 0);

	d.queue = GP_SIM_FIFO;
	d.preempt = GP_SIM_PREEMPT_CLASS;
	d.backfill_depth = 7;
	d.seed = 42;
	gp_sim_config_init(&c);
	gp_run_desc_engine(&d, &c);
	CU_ASSERT_EQUAL(c.preempt, GP_SIM_PREEMPT_CLASS);
	CU_ASSERT_EQUAL(c.backfill_depth, 7);
	CU_ASSERT_EQUAL(c.seed, 42);

	CU_ASSERT_FALSE(gp_run_failures_on(&d.fail));
	d.fail.mtbf_gpu = 100;
	CU_ASSERT_TRUE(gp_run_failures_on(&d.fail));
}

/* A run changes the jobs it runs (whole GPUs, classes drawn with
 * ls_fraction 1: every job LS) and puts them back when released, so the
 * next run of a sweep starts from the trace. */
static void test_jobs_put_back(void)
{
	const gp_cluster *c = gp_test_pix_cluster(2, 4);
	gp_joblist l;
	gp_run_desc d;
	gp_run r;
	gp_error err = GP_ERROR_INIT;
	gp_job *j;

	gp_joblist_init(&l);
	j = gp_test_add_job(&l, "a", 0, 2, 100, GP_CLASS_BE);
	j->gpu_milli = 500;
	j = gp_test_add_job(&l, "b", 10, 1, 50, GP_CLASS_BE);
	j->gpu_milli = 250;
	gp_run_desc_init(&d);
	d.qos.exclusive = 1;
	d.qos.ls_fraction = 1;
	CU_ASSERT_EQUAL_FATAL(gp_run_prepare(&r, &d, c, &l, NULL, NULL, &err), GP_OK);
	CU_ASSERT_EQUAL(l.jobs[0].gpu_milli, GP_MILLI);
	CU_ASSERT_EQUAL(l.jobs[1].gpu_milli, GP_MILLI);
	CU_ASSERT_EQUAL(l.jobs[0].klass, GP_CLASS_LS);
	CU_ASSERT_EQUAL(l.jobs[1].klass, GP_CLASS_LS);
	CU_ASSERT_EQUAL_FATAL(gp_run_exec(&r, &err), GP_OK);
	/* Both fit at once on 8 whole GPUs: b ends at 10 + 50. */
	CU_ASSERT_EQUAL(r.res.jobs[1].state, GP_SIM_DONE);
	CU_ASSERT_DOUBLE_EQUAL(r.res.jobs[1].finish, 60, 1e-9);
	CU_ASSERT_STRING_EQUAL(r.cfg.policy->name, "bestfit");
	CU_ASSERT_PTR_NULL(gp_run_preempt_name(&r));
	gp_run_release(&r);
	CU_ASSERT_EQUAL(l.jobs[0].gpu_milli, 500);
	CU_ASSERT_EQUAL(l.jobs[1].gpu_milli, 250);
	CU_ASSERT_EQUAL(l.jobs[0].klass, GP_CLASS_BE);
	CU_ASSERT_EQUAL(l.jobs[1].klass, GP_CLASS_BE);

	d.policy = "no-such-policy";
	CU_ASSERT_EQUAL(gp_run_prepare(&r, &d, c, &l, NULL, NULL, &err), GP_EUSAGE);
	CU_ASSERT_STRING_EQUAL(err.msg, "unknown policy 'no-such-policy'");
	gp_run_release(&r);
	gp_joblist_release(&l);
}

/* A spec's settings reach the description of each run, the axes and the
 * seed on top (tests/data/whatif/settings.yaml). */
static void test_spec_desc(void)
{
	gp_whatif_spec s;
	gp_run_desc d;
	gp_error err = GP_ERROR_INIT;

	CU_ASSERT_EQUAL_FATAL(gp_whatif_spec_load("tests/data/whatif/settings.yaml", &s, &err), GP_OK);
	CU_ASSERT_EQUAL_FATAL(s.nruns, 1);
	gp_whatif_run_desc(&s, 0, &d);
	CU_ASSERT_EQUAL(d.queue, GP_SIM_LAS);
	CU_ASSERT_STRING_EQUAL(d.policy, "bestfit");
	CU_ASSERT_EQUAL(d.seed, 1);
	CU_ASSERT_EQUAL(d.las_nthresholds, 2);
	CU_ASSERT_DOUBLE_EQUAL(d.las_thresholds[0], 1000, 0);
	CU_ASSERT_DOUBLE_EQUAL(d.las_thresholds[1], 5000, 0);
	CU_ASSERT_DOUBLE_EQUAL(d.las_starvation, 2, 0);
	CU_ASSERT_DOUBLE_EQUAL(d.fail.mtbf_node, 300, 0);
	CU_ASSERT_DOUBLE_EQUAL(d.fail.hb_period, 30, 0);
	CU_ASSERT_EQUAL(d.fail.hb_misses, 2);
	CU_ASSERT_EQUAL(d.fail.seed_set, 1);
	CU_ASSERT_EQUAL(d.fail.seed, 7);
	CU_ASSERT_EQUAL(d.fail.recovery, GP_RECOVERY_RESTART);
	CU_ASSERT_EQUAL(d.qos.on, 1);
	CU_ASSERT_DOUBLE_EQUAL(d.qos.ls_fraction, 0.3, 0);
	CU_ASSERT_DOUBLE_EQUAL(d.qos.cfg.util_error, 5, 0);
	/* Not given: simulate's defaults. */
	CU_ASSERT_DOUBLE_EQUAL(d.qos.cfg.slack, 1.5, 0);
	CU_ASSERT_DOUBLE_EQUAL(d.mem_margin, -1, 0);
	gp_whatif_spec_release(&s);
}

/* A worker's state: the run that fails (-1: none). */
static void *sq_open(void *ud, gp_error *err)
{
	(void)err;
	return ud;
}

static int sq_run(void *state, size_t r, gp_sbuf *out, gp_error *err)
{
	const long *bad = state;

	if ((long)r == *bad)
		return gp_error_set(err, GP_EINPUT, "", 0, 0, "run %zu refused", r);
	gp_sbuf_addf(out, "%zu", r * r);
	return GP_OK;
}

static void sq_close(void *state)
{
	(void)state;
}

typedef struct sq_seen {
	long v[16];
	int n;
} sq_seen;

static void sq_done(void *ud, size_t r, const char *rec, size_t len)
{
	sq_seen *s = ud;
	char buf[32];

	snprintf(buf, sizeof(buf), "%.*s", (int)len, rec);
	if (r < 16)
		s->v[r] = atol(buf);
	s->n++;
}

/* The pool hands every run's record back once, in this process or from
 * workers alike, and a failing run's error comes back as it was made. */
static void test_pool(void)
{
	static const size_t runs[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	long bad = -1;
	gp_runpool_ops ops = { sq_open, sq_run, sq_close, &bad, NULL };
	gp_error err = GP_ERROR_INIT;
	int workers, i;

	for (workers = 1; workers <= 3; workers += 2) {
		gp_runpool *p = gp_runpool_new(&ops, workers, &err);
		sq_seen s;
		int stopped = -1;

		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		CU_ASSERT_EQUAL(gp_runpool_workers(p), workers);
		memset(&s, 0, sizeof(s));
		CU_ASSERT_EQUAL(gp_runpool_run(p, runs, 10, sq_done, &s, NULL, &stopped, &err), GP_OK);
		CU_ASSERT_EQUAL(stopped, 0);
		CU_ASSERT_EQUAL(s.n, 10);
		for (i = 0; i < 10; i++)
			CU_ASSERT_EQUAL(s.v[i], (long)i * i);
		gp_runpool_free(p);
	}
	bad = 4;
	for (workers = 1; workers <= 3; workers += 2) {
		gp_runpool *p = gp_runpool_new(&ops, workers, &err);
		sq_seen s;

		memset(&s, 0, sizeof(s));
		gp_error_clear(&err);
		CU_ASSERT_EQUAL(gp_runpool_run(p, runs, 10, sq_done, &s, NULL, NULL, &err), GP_EINPUT);
		CU_ASSERT_STRING_EQUAL(err.msg, "run 4 refused");
		CU_ASSERT(s.n < 10);
		gp_runpool_free(p);
	}
}

/* Runs answered without running: odd runs here, with a record no run
 * makes (r * r + 1000); each is handed back once, the others run. */
static int sq_known(void *ud, size_t r, gp_sbuf *out)
{
	(void)ud;
	if (r % 2 == 0)
		return 0;
	gp_sbuf_addf(out, "%zu", r * r + 1000);
	return 1;
}

static void test_pool_known(void)
{
	static const size_t runs[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	long bad = 3;           /* known, so never run: no error */
	gp_runpool_ops ops = { sq_open, sq_run, sq_close, &bad, sq_known };
	gp_error err = GP_ERROR_INIT;
	int workers, i;

	for (workers = 1; workers <= 3; workers += 2) {
		gp_runpool *p = gp_runpool_new(&ops, workers, &err);
		sq_seen s;

		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		memset(&s, 0, sizeof(s));
		CU_ASSERT_EQUAL(gp_runpool_run(p, runs, 10, sq_done, &s, NULL, NULL, &err), GP_OK);
		CU_ASSERT_EQUAL(s.n, 10);
		for (i = 0; i < 10; i++)
			CU_ASSERT_EQUAL(s.v[i], i % 2 ? (long)i * i + 1000 : (long)i * i);
		gp_runpool_free(p);
	}
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("run");

	gp_test_add(s, "engine settings of a description", test_engine_settings);
	gp_test_add(s, "a run puts the jobs back", test_jobs_put_back);
	gp_test_add(s, "a spec's settings in each run's description", test_spec_desc);
	gp_test_add(s, "runs in worker processes", test_pool);
	gp_test_add(s, "runs known without running", test_pool_known);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
