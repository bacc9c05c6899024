/* A what-if spec built in memory (what compare runs) and the sweep
 * engine's hooks: inputs lent by the caller, a record of its own per run. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/io/trace.h"
#include "gpuplan/run/metrics.h"
#include "gpuplan/whatif/spec.h"
#include "gpuplan/whatif/sweep.h"
#include "testlib.h"

#define CLUSTER "tests/data/sim/small-cluster.yaml"
#define TRACE "tests/data/sim/backfill.csv"

static const char *const policies[] = { "first-fit", "bestfit" };
static const char *const queues[] = { "fifo", "sjf", "backfill" };
static const uint64_t seeds[] = { 4, 7 };

static char cluster[4096], trace[4096];
static const char *clusters[1] = { cluster };

static void lists(gp_whatif_lists *l, gp_run_desc *run)
{
	memset(l, 0, sizeof(*l));
	gp_run_desc_init(run);
	snprintf(cluster, sizeof(cluster), "%s", gp_test_path(CLUSTER));
	snprintf(trace, sizeof(trace), "%s", gp_test_path(TRACE));
	l->origin = "compare";
	l->clusters = clusters;
	l->nclusters = 1;
	l->trace = trace;
	l->policies = policies;
	l->npolicies = 2;
	l->queues = queues;
	l->nqueues = 3;
	l->seeds = seeds;
	l->nseeds = 2;
	l->run = run;
}

/* 2 policies x 3 queues x 2 seeds; queue varies slower than policy. */
static void test_build(void)
{
	gp_whatif_lists l;
	gp_whatif_spec s;
	gp_whatif_config c;
	gp_run_desc run, d;
	gp_error err = GP_ERROR_INIT;
	char tenants[] = "tenants.yaml";

	lists(&l, &run);
	run.tick = 60;
	run.preempt_cost = 30;
	run.tenants = tenants;
	run.json = "out.json";
	CU_ASSERT_EQUAL_FATAL(gp_whatif_spec_build(&l, &s, &err), GP_OK);
	tenants[0] = 'X';               /* the spec holds its own copy */
	CU_ASSERT_STRING_EQUAL(s.run.tenants, "tenants.yaml");
	CU_ASSERT_PTR_NULL(s.run.json);
	CU_ASSERT_EQUAL(s.nconfigs, 6);
	CU_ASSERT_EQUAL(s.nruns, 12);
	CU_ASSERT_EQUAL(s.nrandom, 0);  /* neither policy draws a number */
	/* queue backfill (2), policy first-fit (0): configuration 2 x 2 + 0 */
	memset(&c, 0, sizeof(c));
	c.v[GP_AX_QUEUE] = 2;
	CU_ASSERT_EQUAL(gp_whatif_config_index(&s, &c), 4);
	gp_whatif_run_desc(&s, 4 * 2 + 1, &d);
	CU_ASSERT_STRING_EQUAL(d.policy, "first-fit");
	CU_ASSERT_EQUAL(d.queue, GP_SIM_BACKFILL);
	CU_ASSERT_EQUAL(d.seed, 7);
	CU_ASSERT_EQUAL(d.tick, 60);    /* compare's --tick, kept */
	CU_ASSERT_EQUAL(d.preempt_cost, 30);
	CU_ASSERT_STRING_EQUAL(d.cluster, cluster);
	gp_whatif_spec_release(&s);

	/* A random policy makes its configurations depend on the seed. */
	l.policies = (const char *const[]){ "random", "bestfit" };
	CU_ASSERT_EQUAL_FATAL(gp_whatif_spec_build(&l, &s, &err), GP_OK);
	CU_ASSERT_EQUAL(s.nrandom, 3);
	gp_whatif_spec_release(&s);
}

static void test_build_errors(void)
{
	static const char *many[GP_WHATIF_MAX_VALUES];
	gp_whatif_lists l;
	gp_whatif_spec s;
	gp_run_desc run;
	gp_error err = GP_ERROR_INIT;
	size_t i;

	lists(&l, &run);
	l.policies = (const char *const[]){ "bestfit", "nosuch" };
	CU_ASSERT_EQUAL(gp_whatif_spec_build(&l, &s, &err), GP_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "unknown policy 'nosuch'"));

	lists(&l, &run);
	l.queues = (const char *const[]){ "fifo", "lifo", "sjf" };
	CU_ASSERT_EQUAL(gp_whatif_spec_build(&l, &s, &err), GP_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "unknown queue 'lifo'"));

	/* The QoS monitor and las, as a loaded spec. */
	lists(&l, &run);
	l.queues = (const char *const[]){ "fifo", "las", "sjf" };
	run.qos.on = 1;
	run.qos.cfg.tick = 30;
	CU_ASSERT_EQUAL(gp_whatif_spec_build(&l, &s, &err), GP_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "does not go with queue las"));

	lists(&l, &run);
	l.nseeds = 0;
	CU_ASSERT_EQUAL(gp_whatif_spec_build(&l, &s, &err), GP_EUSAGE);

	/* 10000 policies x 3 queues x 1000 seeds: 30 million runs. */
	lists(&l, &run);
	for (i = 0; i < GP_WHATIF_MAX_VALUES; i++)
		many[i] = "bestfit";
	l.policies = many;
	l.npolicies = GP_WHATIF_MAX_VALUES;
	l.seeds = gp_xcalloc(1000, sizeof(uint64_t));
	l.nseeds = 1000;
	CU_ASSERT_EQUAL(gp_whatif_spec_build(&l, &s, &err), GP_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "more than 10000000 runs"));
	free((void *)l.seeds);
}

/* The record hook: the run's number, the jobs it finished and the
 * addresses of its job list and cluster (a forked worker's copy of the
 * lent ones has the same). */
typedef struct rec {
	uint64_t run;
	uint64_t done;
	uintptr_t jobs, cluster;
} rec;

static int record(void *ud, size_t run, const gp_run *one, gp_sbuf *out, gp_error *err)
{
	rec r = { run, 0, (uintptr_t)one->jobs, (uintptr_t)one->cluster };
	size_t i;

	(void)ud;
	(void)err;
	for (i = 0; i < one->res.njobs; i++)
		r.done += one->res.jobs[i].state == GP_SIM_DONE;
	gp_sbuf_add(out, (const char *)&r, sizeof(r));
	return GP_OK;
}

typedef struct got {
	gp_whatif_result res[12];
	rec recs[12];
	int n;
} got;

static void on_record(void *ud, size_t run, const gp_whatif_result *res, const char *bytes,
		      size_t len)
{
	got *g = ud;

	CU_ASSERT_EQUAL_FATAL(len, sizeof(rec));
	CU_ASSERT_FATAL(run < 12);
	g->res[run] = *res;
	memcpy(&g->recs[run], bytes, sizeof(rec));
	g->n++;
}

static void run_all(const gp_whatif_spec *s, const gp_whatif_hooks *h, int workers, got *g)
{
	gp_error err = GP_ERROR_INIT;
	volatile sig_atomic_t stop = 0;
	gp_whatif_pool *p = gp_whatif_pool_new_with(s, h, workers, &err);
	size_t runs[12], i;
	int stopped = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	for (i = 0; i < 12; i++)
		runs[11 - i] = i;       /* any order */
	memset(g, 0, sizeof(*g));
	CU_ASSERT_EQUAL(gp_whatif_pool_run_records(p, runs, 12, on_record, g, &stop, &stopped, &err),
			GP_OK);
	gp_whatif_pool_free(p);
	CU_ASSERT_EQUAL(g->n, 12);
}

/* The schedules of tests/data/sim/backfill.csv (worked out by hand in
 * tests/cli/cases/simulate-queues.sh): fifo and sjf wait 290 + 330 + 320 s
 * (C, D, E) and end at 550 s; backfill waits 290 + 60 + 40 s and ends at
 * 350 s. */
static void test_hooks(void)
{
	gp_whatif_lists l;
	gp_whatif_spec s;
	gp_whatif_hooks h = { 0 };
	gp_joblist jobs;
	gp_cluster cl;
	gp_job *before;
	gp_run_desc run;
	gp_error err = GP_ERROR_INIT;
	got one, two;
	size_t r;

	lists(&l, &run);
	CU_ASSERT_EQUAL_FATAL(gp_whatif_spec_build(&l, &s, &err), GP_OK);
	gp_joblist_init(&jobs);
	CU_ASSERT_EQUAL_FATAL(gp_trace_load(s.traces[0], &s.run.topts, &jobs, &err), GP_OK);
	before = gp_xmalloc(jobs.n * sizeof(*before));
	memcpy(before, jobs.jobs, jobs.n * sizeof(*before));
	CU_ASSERT_EQUAL_FATAL(gp_cluster_load(s.cluster, &cl, &err), GP_OK);
	h.cluster = &cl;
	h.jobs = &jobs;
	h.record = record;
	run_all(&s, &h, 1, &one);
	for (r = 0; r < 12; r++) {
		gp_whatif_config c;
		int q;

		gp_whatif_config_of(&s, r / 2, &c);
		q = (int)c.v[GP_AX_QUEUE];
		/* bestfit under these queues draws nothing: of each
		 * configuration's two seeds the one handed out first (the odd
		 * run, the order being backwards) runs, and its record answers
		 * the other */
		CU_ASSERT_EQUAL(one.recs[r].run, r | 1);
		CU_ASSERT_EQUAL(one.recs[r].done, 6);
		CU_ASSERT_EQUAL(one.recs[r].jobs, (uintptr_t)&jobs);  /* lent, not loaded */
		CU_ASSERT_EQUAL(one.recs[r].cluster, (uintptr_t)&cl); /* nothing changes it */
		CU_ASSERT_DOUBLE_EQUAL(one.res[r].m[GP_M_QD_MEAN], q == 2 ? 390.0 / 6 : 940.0 / 6, 1e-9);
		CU_ASSERT_DOUBLE_EQUAL(one.res[r].m[GP_M_MAKESPAN], q == 2 ? 350 : 550, 1e-9);
		CU_ASSERT_EQUAL(one.res[r].gpus, 8);
	}
	/* every run put the jobs back */
	CU_ASSERT_EQUAL(memcmp(before, jobs.jobs, jobs.n * sizeof(*before)), 0);
	/* Worker processes: the same results and records, byte for byte,
	 * but which seed of a configuration ran (several start at once). */
	run_all(&s, &h, 3, &two);
	CU_ASSERT_EQUAL(memcmp(one.res, two.res, sizeof(one.res)), 0);
	for (r = 0; r < 12; r++) {
		CU_ASSERT(two.recs[r].run == r || two.recs[r].run == (r ^ 1));
		two.recs[r].run = r | 1;
	}
	CU_ASSERT_EQUAL(memcmp(one.recs, two.recs, sizeof(one.recs)), 0);
	/* Every seed simulated: each record is its own run's. */
	setenv("GPUPLAN_TEST_EVERY_SEED", "1", 1);
	run_all(&s, &h, 1, &two);
	unsetenv("GPUPLAN_TEST_EVERY_SEED");
	CU_ASSERT_EQUAL(memcmp(one.res, two.res, sizeof(one.res)), 0);
	for (r = 0; r < 12; r++)
		CU_ASSERT_EQUAL(two.recs[r].run, r);
	/* Without them the runner loads the inputs itself: the same metrics. */
	h.jobs = NULL;
	h.cluster = NULL;
	run_all(&s, &h, 1, &two);
	for (r = 0; r < 12; r++) {
		CU_ASSERT_EQUAL(memcmp(one.res[r].m, two.res[r].m, sizeof(one.res[r].m)), 0);
		CU_ASSERT_NOT_EQUAL(two.recs[r].jobs, (uintptr_t)&jobs);
		CU_ASSERT_NOT_EQUAL(two.recs[r].cluster, (uintptr_t)&cl);
	}
	free(before);
	gp_cluster_release(&cl);
	gp_joblist_release(&jobs);
	gp_whatif_spec_release(&s);
}

/* A list of clusters in a spec (tests/data/whatif/clusters.yaml): an axis
 * in the key and the fingerprint, sizes and costs per cluster. */
static void test_cluster_axis(void)
{
	gp_run_desc unused;
	gp_whatif_lists l;
	gp_whatif_spec s, one;
	gp_whatif_config c;
	gp_whatif_shape sh;
	gp_cluster bases[2];
	gp_error err = GP_ERROR_INIT;
	char fp[17], fp1[17], *key;

	lists(&l, &unused);     /* the paths of trace and cluster */
	CU_ASSERT_EQUAL_FATAL(gp_whatif_spec_load(gp_test_path("tests/data/whatif/clusters.yaml"), &s,
						  &err), GP_OK);
	CU_ASSERT_EQUAL(s.nclusters, 2);
	CU_ASSERT_EQUAL(s.nvalues[GP_AX_CLUSTER], 2);
	CU_ASSERT_EQUAL(s.nconfigs, 4);
	CU_ASSERT_TRUE(gp_whatif_cluster_axis(&s));
	CU_ASSERT_STRING_EQUAL(s.cluster, s.clusters[0]);
	/* the cluster varies fastest: configuration 1 is fifo on the second */
	gp_whatif_config_of(&s, 1, &c);
	CU_ASSERT_EQUAL(c.v[GP_AX_CLUSTER], 1);
	CU_ASSERT_EQUAL(c.v[GP_AX_QUEUE], 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(gp_whatif_cluster_path(&s, &c), "whatif/small-3.yaml"));
	CU_ASSERT_EQUAL_FATAL(gp_whatif_bases_load(&s, bases, &err), GP_OK);
	CU_ASSERT_EQUAL(gp_whatif_spec_check_bases(&s, bases, &err), GP_OK);
	/* cost: {box4: 1}, so a node costs 1 */
	CU_ASSERT_EQUAL(gp_whatif_shape_of(&s, bases, &c, &sh), GP_OK);
	CU_ASSERT_EQUAL(sh.nodes, 3);
	CU_ASSERT_EQUAL(sh.gpus, 12);
	CU_ASSERT_DOUBLE_EQUAL(sh.cost, 3, 1e-12);
	gp_whatif_config_of(&s, 2, &c);
	CU_ASSERT_EQUAL(gp_whatif_shape_of(&s, bases, &c, &sh), GP_OK);
	CU_ASSERT_EQUAL(sh.gpus, 8);
	gp_whatif_bases_release(&s, bases);
	/* every cluster file in the fingerprint, its hash in the key */
	CU_ASSERT_EQUAL_FATAL(gp_whatif_fingerprint(&s, "v", fp, &err), GP_OK);
	gp_whatif_config_of(&s, 1, &c);
	key = gp_whatif_config_key(&s, &c);
	CU_ASSERT_PTR_NOT_NULL(strstr(key, ";recovery=-;cluster=small-3.yaml@"));
	CU_ASSERT_EQUAL(strlen(strrchr(key, '@') + 1), 16);
	free(key);
	/* One cluster: no axis, the key and fingerprint as before the axis. */
	CU_ASSERT_EQUAL_FATAL(gp_whatif_spec_load(gp_test_path("tests/data/whatif/grid.yaml"), &one,
						  &err), GP_OK);
	CU_ASSERT_FALSE(gp_whatif_cluster_axis(&one));
	CU_ASSERT_EQUAL(one.nvalues[GP_AX_CLUSTER], 1);
	gp_whatif_config_of(&one, 0, &c);
	key = gp_whatif_config_key(&one, &c);
	CU_ASSERT_PTR_NULL(strstr(key, "cluster="));
	free(key);
	gp_whatif_spec_release(&one);
	gp_whatif_spec_release(&s);

	/* An edit of the second cluster file changes the fingerprint. */
	{
		char dir[] = "/tmp/gp-sweep-XXXXXX", spec[256], cl[256], *text;
		char abs_cl[4096], abs_tr[4096];
		FILE *f;
		size_t len;

		CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
		snprintf(spec, sizeof(spec), "%s/s.yaml", dir);
		snprintf(cl, sizeof(cl), "%s/c.yaml", dir);
		CU_ASSERT_EQUAL_FATAL(gp_read_file(gp_test_path(CLUSTER), 1 << 20, &text, &len, &err),
				      GP_OK);
		f = fopen(cl, "w");
		fwrite(text, 1, len, f);
		fclose(f);
		f = fopen(spec, "w");
		CU_ASSERT_PTR_NOT_NULL_FATAL(realpath(cluster, abs_cl));
		CU_ASSERT_PTR_NOT_NULL_FATAL(realpath(trace, abs_tr));
		fprintf(f, "cluster: [%s, c.yaml]\ntrace: %s\n", abs_cl, abs_tr);
		fclose(f);
		CU_ASSERT_EQUAL_FATAL(gp_whatif_spec_load(spec, &s, &err), GP_OK);
		CU_ASSERT_EQUAL_FATAL(gp_whatif_fingerprint(&s, "v", fp, &err), GP_OK);
		gp_whatif_spec_release(&s);
		f = fopen(cl, "a");
		fputs("# edited\n", f);
		fclose(f);
		CU_ASSERT_EQUAL_FATAL(gp_whatif_spec_load(spec, &s, &err), GP_OK);
		CU_ASSERT_EQUAL_FATAL(gp_whatif_fingerprint(&s, "v", fp1, &err), GP_OK);
		CU_ASSERT_STRING_NOT_EQUAL(fp, fp1);
		gp_whatif_spec_release(&s);
		free(text);
		unlink(cl);
		unlink(spec);
		rmdir(dir);
	}
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("sweep");

	gp_test_add(s, "a spec built from lists", test_build);
	gp_test_add(s, "a built spec's checks", test_build_errors);
	gp_test_add(s, "lent inputs and a record per run", test_hooks);
	gp_test_add(s, "a list of clusters is an axis", test_cluster_axis);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
