#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/io/trace.h"
#include "gpuplan/model/alloc.h"
#include "gpuplan/perf/perf.h"
#include "gpuplan/place/policy.h"
#include "gpuplan/sim/sim.h"
#include "gpuplan/util/util.h"
#include "gpuplan/run/metrics.h"
#include "gpuplan/whatif/spec.h"
#include "gpuplan/whatif/store.h"
#include "gpuplan/whatif/sweep.h"
#include "testlib.h"

#define GRID "tests/data/whatif/grid.yaml"

static int load_grid(gp_whatif_spec *s)
{
	gp_error err = GP_ERROR_INIT;
	int st = gp_whatif_spec_load(GRID, s, &err);

	if (st)
		fprintf(stderr, "%s:%d:%d: %s\n", err.file, err.line, err.col, err.msg);
	return st;
}

/* 1 trace x 3 counts x 1 x 2 techs x 2 queues x 1 policy, 2 seeds; the
 * first axis varies slowest, counts come out sorted. */
static void test_grid(void)
{
	gp_whatif_spec s;
	gp_whatif_config c;
	size_t i;
	char *key, buf[64];

	CU_ASSERT_FATAL(load_grid(&s) == GP_OK);
	CU_ASSERT_EQUAL(s.nconfigs, 12);
	CU_ASSERT_EQUAL(s.nruns, 24);
	CU_ASSERT_EQUAL(s.add.n, 3);
	CU_ASSERT_EQUAL(s.add.counts[0], 0);
	CU_ASSERT_EQUAL(s.add.counts[1], 8);
	CU_ASSERT_EQUAL(s.add.counts[2], 16);
	CU_ASSERT_EQUAL(s.run.topts.limit, 0);
	CU_ASSERT_DOUBLE_EQUAL(s.slo_bound, 3600, 1e-9);
	CU_ASSERT_TRUE(s.slo_max);
	for (i = 0; i < s.nconfigs; i++) {
		gp_whatif_config_of(&s, i, &c);
		CU_ASSERT_EQUAL(gp_whatif_config_index(&s, &c), i);
	}
	/* 5 = add 8 (index 1), fabric ib-hdr (0), queue backfill (1) */
	gp_whatif_config_of(&s, 5, &c);
	CU_ASSERT_EQUAL(c.v[GP_AX_ADD], 1);
	CU_ASSERT_EQUAL(c.v[GP_AX_FABRIC], 0);
	CU_ASSERT_EQUAL(c.v[GP_AX_QUEUE], 1);
	CU_ASSERT_STRING_EQUAL(gp_whatif_value(&s, &c, GP_AX_FABRIC, buf, sizeof(buf)), "ib-hdr");
	key = gp_whatif_config_key(&s, &c);
	CU_ASSERT_STRING_EQUAL(key, "trace=../../../workloads/philly-2017-11-29.csv;add_nodes=8;"
				    "remove_nodes=0;fabric=ib-hdr;queue=backfill;policy=bestfit;mtbf_node=-;"
				    "recovery=-");
	free(key);
	gp_whatif_spec_release(&s);
}

/* Scenario axes and configurations without randomness, on results put
 * by hand: queue (fifo, sjf) and policy (bestfit, random) are choices,
 * node MTBF (0, 100 h) a scenario; 2 seeds.  Configuration i is
 * (queue x 2 + policy) x 2 + mtbf. */
static void put_p90(gp_whatif_results *rs, size_t run, double p90)
{
	gp_whatif_result r;

	memset(&r, 0, sizeof(r));
	r.m[GP_M_QD_P90] = p90;
	gp_whatif_results_put(rs, run, &r);
}

static void test_scenario_and_seeds(void)
{
	char cwd[4096], path[] = "/tmp/gp-whatif-scenario-XXXXXX";
	gp_whatif_spec s;
	gp_whatif_results rs;
	gp_error err = GP_ERROR_INIT;
	gp_cluster base;
	FILE *fp;
	int fd;

	CU_ASSERT_FATAL(getcwd(cwd, sizeof(cwd)) != NULL);
	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	fp = fdopen(fd, "w");
	fprintf(fp, "cluster: %s/topologies/example-cluster.yaml\n"
		    "trace: %s/workloads/philly-2017-11-29.csv\n"
		    "seeds: 2\nqueue: [fifo, sjf]\npolicy: [bestfit, random]\n"
		    "mtbf_node: [0, 100]\nscenario: mtbf_node\n"
		    "slo: {metric: queue_delay.p90, max: 100}\n", cwd, cwd);
	fclose(fp);
	CU_ASSERT_FATAL(gp_whatif_spec_load(path, &s, &err) == GP_OK);
	unlink(path);
	CU_ASSERT_EQUAL(s.nconfigs, 8);
	CU_ASSERT_TRUE(s.scenario[GP_AX_MTBF] && s.scenario[GP_AX_TRACE] && s.scenario_named);
	/* only bestfit without failures is free of randomness: 2 of 8 */
	CU_ASSERT_EQUAL(s.nrandom, 6);
	CU_ASSERT_EQUAL(s.nruns_needed, 6 * 2 + 2);
	CU_ASSERT_EQUAL(gp_whatif_seeds_of(&s, 0), 1);   /* fifo, bestfit, 0 h */
	CU_ASSERT_EQUAL(gp_whatif_seeds_of(&s, 1), 2);   /* fifo, bestfit, 100 h */
	CU_ASSERT_EQUAL(gp_whatif_seeds_of(&s, 2), 2);   /* fifo, random, 0 h */
	CU_ASSERT_FALSE(gp_whatif_run_needed(&s, 1));    /* config 0, seed 2 */
	CU_ASSERT_TRUE(gp_whatif_run_needed(&s, 3));     /* config 1, seed 2 */
	CU_ASSERT_EQUAL(gp_whatif_nscenarios(&s), 2);
	CU_ASSERT_EQUAL(gp_whatif_choice_of(&s, 3), 2);
	CU_ASSERT_EQUAL(gp_whatif_scenario_config(&s, 6, 1), 7);
	gp_whatif_results_init(&rs, &s);
	/* fifo/bestfit: 50 at 0 h (one run), 50 and 150 at 100 h: fails there */
	put_p90(&rs, 0, 50);
	put_p90(&rs, 2, 50);
	put_p90(&rs, 3, 150);
	/* fifo/random: 80, 90 at 0 h; 90 and (later) 99 at 100 h */
	put_p90(&rs, 4, 80);
	put_p90(&rs, 5, 90);
	put_p90(&rs, 6, 90);
	CU_ASSERT_TRUE(gp_whatif_results_complete(&rs, 0));
	CU_ASSERT_EQUAL(gp_whatif_meets(&rs, 1), 0);
	CU_ASSERT_EQUAL(gp_whatif_meets_all(&rs, 0), 0);
	CU_ASSERT_EQUAL(gp_whatif_meets_all(&rs, 2), -1);  /* a seed missing */
	put_p90(&rs, 7, 99);
	CU_ASSERT_EQUAL(gp_whatif_meets_all(&rs, 2), 1);
	CU_ASSERT_EQUAL(gp_whatif_meets_all(&rs, 3), 1);   /* judged as its choice */
	{
		gp_whatif_result m;

		gp_whatif_mean(&rs, 0, &m);                /* one run, not halved */
		CU_ASSERT_DOUBLE_EQUAL(m.m[GP_M_QD_P90], 50, 1e-9);
		gp_whatif_mean(&rs, 3, &m);
		CU_ASSERT_DOUBLE_EQUAL(m.m[GP_M_QD_P90], 94.5, 1e-9);
	}
	gp_cluster_init(&base);
	CU_ASSERT_FATAL(gp_cluster_load(s.cluster, &base, &err) == GP_OK);
	/* every configuration costs the same: the first robust choice */
	CU_ASSERT_EQUAL(gp_whatif_best(&rs, &base), 2);
	gp_cluster_release(&base);
	gp_whatif_results_release(&rs);
	gp_whatif_spec_release(&s);
}

/* Ranges, and errors located in the spec. */
static void test_spec_errors(void)
{
	static const struct {
		const char *yaml, *msg;
		int line;
	} cases[] = {
		{ "cluster: a.yaml\ntrace: t.csv\naxes:\n  add_nodes: {type: x, counts: 4..2}\n",
		  "expected a list of counts", 4 },
		{ "cluster: a.yaml\ntrace: t.csv\nslo: {metric: queue_delay.p95, max: 1}\n",
		  "unknown metric 'queue_delay.p95'", 3 },
		{ "cluster: a.yaml\ntrace: t.csv\nqueue: [fifo, lifo]\n", "unknown queue 'lifo'", 3 },
		{ "cluster: a.yaml\ntrace: t.csv\naxes:\n  fabrc: {}\n", "fabrc", 4 },
		{ "cluster: a.yaml\ntrace: t.csv\nqueue: fifo\naxes: {queue: [sjf]}\n", "given twice", 4 },
		{ "cluster: a.yaml\ntrace: t.csv\npreempt: always\n", "unknown preempt 'always'", 3 },
		{ "cluster: a.yaml\ntrace: t.csv\naxes:\n  recovery: [restart, pray]\n",
		  "unknown recovery 'pray'", 4 },
		{ "cluster: a.yaml\ntrace: t.csv\nmtbf_node: [100, -1]\n", "mtbf_node", 3 },
		{ "cluster: a.yaml\ntrace: t.csv\nbackfill: conservative\n",
		  "unknown backfill 'conservative' (easy, slurm)", 3 },
		{ "cluster: a.yaml\ntrace: t.csv\nsched_interval: -5\n", "sched_interval", 3 },
	};
	char path[] = "/tmp/gp-whatif-spec-XXXXXX";
	size_t i;

	for (i = 0; i < GP_ARRAY_SIZE(cases); i++) {
		gp_whatif_spec s;
		gp_error err = GP_ERROR_INIT;
		int fd = mkstemp(path);
		FILE *fp = fdopen(fd, "w");

		fputs(cases[i].yaml, fp);
		fclose(fp);
		CU_ASSERT_EQUAL(gp_whatif_spec_load(path, &s, &err), GP_EINPUT);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, cases[i].msg));
		CU_ASSERT_EQUAL(err.line, cases[i].line);
		unlink(path);
		strcpy(path + strlen(path) - 6, "XXXXXX");
	}
	{
		gp_whatif_spec s;
		gp_error err = GP_ERROR_INIT;
		int fd = mkstemp(path);
		FILE *fp = fdopen(fd, "w");

		fputs("cluster: a.yaml\ntrace: t.csv\naxes:\n  remove_nodes: {type: x, counts: 0..8/4}\n"
		      "slo: {metric: gpu_utilization, min: 80%}\n", fp);
		fclose(fp);
		CU_ASSERT_EQUAL_FATAL(gp_whatif_spec_load(path, &s, &err), GP_OK);
		CU_ASSERT_EQUAL(s.remove.n, 3);
		CU_ASSERT_EQUAL(s.remove.counts[2], 8);
		CU_ASSERT_DOUBLE_EQUAL(s.slo_bound, 0.8, 1e-12);
		CU_ASSERT_FALSE(s.slo_max);
		/* Slurm's rules unset: a pass after every event, EASY */
		CU_ASSERT_DOUBLE_EQUAL(s.run.sched_interval, 0, 0);
		CU_ASSERT_EQUAL(s.run.backfill_mode, GP_SIM_BF_EASY);
		gp_whatif_spec_release(&s);
		unlink(path);
		strcpy(path + strlen(path) - 6, "XXXXXX");
	}
	{
		/* Slurm's rules from the spec reach the run (and the engine). */
		gp_whatif_spec s;
		gp_error err = GP_ERROR_INIT;
		gp_sim_config cfg;
		int fd = mkstemp(path);
		FILE *fp = fdopen(fd, "w");

		fputs("cluster: a.yaml\ntrace: t.csv\nqueue: backfill\nbackfill: slurm\nsched_interval: 3\n"
		      "bf_interval: 30\n", fp);
		fclose(fp);
		CU_ASSERT_EQUAL_FATAL(gp_whatif_spec_load(path, &s, &err), GP_OK);
		CU_ASSERT_EQUAL(s.run.backfill_mode, GP_SIM_BF_SLURM);
		/* a run of the backfill queue follows Slurm's rules; other
		 * queues have none */
		s.run.queue = GP_SIM_BACKFILL;
		gp_sim_config_init(&cfg);
		gp_run_desc_engine(&s.run, &cfg);
		CU_ASSERT_DOUBLE_EQUAL(cfg.sched_interval, 3, 0);
		CU_ASSERT_DOUBLE_EQUAL(cfg.bf_interval, 30, 0);
		CU_ASSERT_EQUAL(cfg.backfill_mode, GP_SIM_BF_SLURM);
		s.run.queue = GP_SIM_FIFO;
		gp_run_desc_engine(&s.run, &cfg);
		CU_ASSERT_EQUAL(cfg.backfill_mode, GP_SIM_BF_EASY);
		CU_ASSERT_DOUBLE_EQUAL(cfg.bf_interval, 0, 0);
		gp_whatif_spec_release(&s);
		unlink(path);
	}
}

/* Shapes and costs by hand: the example has 32 dgx-a100, 8 hgx-h100 and
 * 8 pcie-a100 (8, 8 and 2 GPUs). */
static void test_shape_and_cluster(void)
{
	gp_whatif_spec s;
	gp_whatif_config c;
	gp_whatif_shape sh;
	gp_cluster base, built;
	gp_error err = GP_ERROR_INIT;
	int a, b, n;

	CU_ASSERT_FATAL(load_grid(&s) == GP_OK);
	CU_ASSERT_FATAL(gp_cluster_load(s.cluster, &base, &err) == GP_OK);
	CU_ASSERT_EQUAL(gp_whatif_spec_check(&s, &base, &err), GP_OK);
	gp_whatif_config_of(&s, 5, &c);         /* add 8, ib-hdr */
	gp_whatif_shape_of(&s, &base, &c, &sh);
	CU_ASSERT_EQUAL(sh.nodes, 56);
	CU_ASSERT_EQUAL(sh.gpus, 400);
	CU_ASSERT_DOUBLE_EQUAL(sh.cost, 32 * 2 + 16 * 3 + 8 * 0.5, 1e-9);
	CU_ASSERT_FATAL(gp_whatif_cluster_build(&s, &c, &built, &err) == GP_OK);
	CU_ASSERT_EQUAL(built.nnodes, 56);
	CU_ASSERT_EQUAL(built.ngpus, 400);
	n = gp_cluster_find_node(&built, "added-7");
	CU_ASSERT_TRUE_FATAL(n >= 0);
	CU_ASSERT_STRING_EQUAL(built.switches[built.nodes[n].sw].name, "ib-leaf-h0");
	CU_ASSERT_STRING_EQUAL(gp_cluster_node_label(&built, n, "pool"), "llm");
	a = gp_cluster_find_node(&built, "a100-r0-0");
	b = gp_cluster_find_node(&built, "a100-r1-0");
	CU_ASSERT_EQUAL(gp_cluster_comm_weight(&built, a, b), 2);
	gp_cluster_release(&built);
	/* eth-10 under the spine: every IB link becomes Ethernet (99 + k). */
	gp_whatif_config_of(&s, 2, &c);
	CU_ASSERT_EQUAL(c.v[GP_AX_FABRIC], 1);
	CU_ASSERT_FATAL(gp_whatif_cluster_build(&s, &c, &built, &err) == GP_OK);
	CU_ASSERT_EQUAL(built.nnodes, 48);
	a = gp_cluster_find_node(&built, "a100-r0-0");
	b = gp_cluster_find_node(&built, "a100-r1-0");
	CU_ASSERT_EQUAL(gp_cluster_comm_weight(&built, a, b), 101);
	CU_ASSERT_DOUBLE_EQUAL(gp_cluster_node_nic_gbps(&built, a), 10, 1e-9);
	gp_cluster_release(&built);
	gp_cluster_release(&base);
	gp_whatif_spec_release(&s);

	/* Per type and per technology: 8 pcie-a100 at 1, plus 2 per node on
	 * an eth-100 switch (the eth-spine subtree in the second config). */
	CU_ASSERT_EQUAL_FATAL(gp_whatif_spec_load("tests/data/whatif/costs.yaml", &s, &err), GP_OK);
	CU_ASSERT_FATAL(gp_cluster_load(s.cluster, &base, &err) == GP_OK);
	gp_whatif_config_of(&s, 0, &c);
	gp_whatif_shape_of(&s, &base, &c, &sh);
	CU_ASSERT_DOUBLE_EQUAL(sh.cost, 8, 1e-12);
	gp_whatif_config_of(&s, 1, &c);
	gp_whatif_shape_of(&s, &base, &c, &sh);
	CU_ASSERT_DOUBLE_EQUAL(sh.cost, 8 + 8 * 2, 1e-12);
	CU_ASSERT_EQUAL(sh.nodes, 48);
	gp_cluster_release(&base);
	gp_whatif_spec_release(&s);
}

/* Bisection on a synthetic monotone case: line l meets from index t[l]
 * on (t = n: never).  Every plan must find t exactly, and plain
 * bisection within ceil(log2(n + 1)) probes per line. */
static void run_search(size_t n, const long *t, size_t nlines, size_t per_line, int up,
		       size_t *probes)
{
	gp_whatif_search se;
	size_t line[64], idx[64], k, got, l;

	gp_whatif_search_init(&se, nlines, n, up);
	*probes = 0;
	while ((got = gp_whatif_search_next(&se, per_line, 64, line, idx)) > 0) {
		for (k = 0; k < got; k++) {
			/* up: meets at index >= t; down: meets at index <= t. */
			int meets = up ? (long)idx[k] >= t[line[k]] : (long)idx[k] <= t[line[k]];

			gp_whatif_search_set(&se, line[k], idx[k], meets);
			(*probes)++;
		}
	}
	for (l = 0; l < nlines; l++) {
		long want = up ? (t[l] >= (long)n ? -1 : t[l]) : (t[l] < 0 ? -1 : t[l]);

		CU_ASSERT_EQUAL(gp_whatif_search_answer(&se, l), want);
	}
	gp_whatif_search_release(&se);
}

static void test_bisection(void)
{
	long t[] = { 16, 0, 64, 65, 1 };
	long d[] = { 9, -1, 64, 0 };
	size_t probes;

	run_search(65, t, 5, 1, 1, &probes);
	CU_ASSERT_TRUE(probes <= 5 * 7);
	run_search(65, t, 5, 3, 1, &probes);
	run_search(65, d, 4, 1, 0, &probes);
	CU_ASSERT_TRUE(probes <= 4 * 7);
	run_search(65, d, 4, 2, 0, &probes);
	/* One line, 1..200: each plain round halves the interval. */
	{
		long one = 123;

		run_search(200, &one, 1, 1, 1, &probes);
		CU_ASSERT_TRUE(probes <= 8);
	}
}

/* The same from the engine when a job is preempted (README's three jobs
 * on the two 4-GPU nodes of small-cluster.yaml, --preempt class, 30 s to
 * restore): A (8 GPUs, BE) runs from 0, B (4, LS) arrives at 10 and takes
 * its GPUs until 110, A waits [10, 110) and runs again from 110 (30 s
 * restore + 990 s of work: until 1130), C (2, BE) waits [20, 1130).
 * While jobs wait: [10, 110) 4000 of 8000 milli-GPU busy, [110, 1130)
 * 8000: (4000 x 100 + 8000 x 1020) / (8000 x 1120) = 0.955357...  (Taking
 * A as holding its GPUs from 0 to 1130 gave 1.5.) */
static void test_util_queued_preempted(void)
{
	static char csv[] = "id,submit,gpus,duration,type,class\nA,0,8,1000,ring-allreduce,BE\n"
			    "B,10,4,100,single-node,LS\nC,20,2,300,single-node,BE\n";
	gp_cluster c;
	gp_joblist jl;
	gp_sim_config cfg;
	gp_sim_result r;
	gp_error err = GP_ERROR_INIT;

	gp_joblist_init(&jl);
	CU_ASSERT_FATAL(gp_cluster_load("tests/data/sim/small-cluster.yaml", &c, &err) == GP_OK);
	CU_ASSERT_FATAL(gp_trace_load_buffer("t.csv", csv, sizeof(csv) - 1, NULL, &jl, &err) == GP_OK);
	gp_sim_config_init(&cfg);
	cfg.cluster = &c;
	cfg.policy = gp_policy_find("bestfit");
	cfg.preempt = GP_SIM_PREEMPT_CLASS;
	cfg.preempt_cost = 30;
	CU_ASSERT_FATAL(gp_sim_run(&cfg, &jl, &r, &err) == GP_OK);
	CU_ASSERT_DOUBLE_EQUAL(r.jobs[2].start, 1130, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(gp_metric_util_queued(&jl, &r), (4000.0 * 100 + 8000.0 * 1020) / (8000.0 * 1120),
			       1e-12);
	gp_sim_result_release(&r);
	gp_joblist_release(&jl);
	gp_cluster_release(&c);
}

/* Utilization while jobs wait, by hand: 2 GPUs; A (2 GPUs) runs [0, 10);
 * B (1 GPU) arrives at 2, runs [10, 20); C (2 GPUs) arrives at 12, runs
 * [20, 30).  Waiting: [2, 10) with 2000 of 2000 milli-GPU busy, [12, 20)
 * with 1000: (2000 x 8 + 1000 x 8) / (2000 x 16) = 0.75. */
static void test_util_queued(void)
{
	gp_joblist jl;
	gp_sim_result r;
	gp_sim_job sj[3];
	static const double sub[3] = { 0, 2, 12 }, st[3] = { 0, 10, 20 }, fin[3] = { 10, 20, 30 };
	static const int g[3] = { 2, 1, 2 };
	int i;

	gp_joblist_init(&jl);
	gp_sim_result_init(&r);
	for (i = 0; i < 3; i++) {
		gp_job *j = gp_joblist_push(&jl);

		j->submit = sub[i];
		j->gpus = g[i];
		j->gpu_milli = 1000;
		memset(&sj[i], 0, sizeof(sj[i]));
		sj[i].start = st[i];
		sj[i].finish = fin[i];
	}
	r.jobs = sj;
	r.njobs = 3;
	r.ngpus = 2;
	CU_ASSERT_DOUBLE_EQUAL(gp_metric_util_queued(&jl, &r), 0.75, 1e-12);
	r.jobs = NULL;
	gp_joblist_release(&jl);
	CU_ASSERT_EQUAL(gp_metric_find("queue_delay.p90"), GP_M_QD_P90);
	CU_ASSERT_EQUAL(gp_metric_find("jct_mean"), GP_M_JCT_MEAN);
	CU_ASSERT_EQUAL(gp_metric_find("p90"), -1);
}

/* ---- sweeps: resume and slices ---- */

typedef struct collect {
	gp_whatif_results *rs;
	gp_whatif_store *db;
	const gp_whatif_spec *s;
	size_t seen, stop_after;
	volatile sig_atomic_t *stop;
} collect;

static void on_result(void *ud, size_t run, const gp_whatif_result *res)
{
	collect *c = ud;

	gp_whatif_results_put(c->rs, run, res);
	if (c->db)
		CU_ASSERT_EQUAL(gp_whatif_store_put(c->db, c->s, "fp", "test", run, res, 1, NULL), GP_OK);
	if (++c->seen == c->stop_after)
		*c->stop = 1;
}

static void all_runs(const gp_whatif_spec *s, size_t *runs, size_t *n, long slice, long of)
{
	size_t i;

	*n = 0;
	for (i = 0; i < s->nruns; i++)
		if (!of || (long)(i % (size_t)of) == slice - 1)
			runs[(*n)++] = i;
}

static int same_results(const gp_whatif_results *a, const gp_whatif_results *b)
{
	size_t i;

	for (i = 0; i < a->spec->nruns; i++) {
		const gp_whatif_result *x = gp_whatif_results_get(a, i), *y = gp_whatif_results_get(b, i);

		if (!x || !y || memcmp(x->m, y->m, sizeof(x->m)) || x->nodes != y->nodes)
			return 0;
	}
	return 1;
}

static void test_resume_and_merge(void)
{
	gp_whatif_spec s;
	gp_whatif_results ref, part, merged;
	gp_whatif_pool *pool;
	gp_whatif_store *db;
	gp_error err = GP_ERROR_INIT;
	volatile sig_atomic_t stop = 0;
	size_t runs[64], n, found, other, todo[64], ntodo, i;
	char dir[] = "/tmp/gp-whatif-db-XXXXXX", p1[256], p2[256], pall[256];
	collect c;
	int stopped;
	long sl;

	CU_ASSERT_FATAL(load_grid(&s) == GP_OK);
	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	snprintf(p1, sizeof(p1), "%s/a.sqlite", dir);
	snprintf(p2, sizeof(p2), "%s/b.sqlite", dir);
	snprintf(pall, sizeof(pall), "%s/all.sqlite", dir);

	/* The reference: every run in one go, in this process. */
	gp_whatif_results_init(&ref, &s);
	pool = gp_whatif_pool_new(&s, 1, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pool);
	all_runs(&s, runs, &n, 0, 0);
	memset(&c, 0, sizeof(c));
	c.rs = &ref;
	c.stop = &stop;
	CU_ASSERT_EQUAL(gp_whatif_pool_run(pool, runs, n, on_result, &c, &stop, &stopped, &err), GP_OK);
	CU_ASSERT_EQUAL(c.seen, 24);
	gp_whatif_pool_free(pool);
	/* Adding H100 nodes never lengthens queueing on this slice. */
	for (i = 0; i + 1 < 3; i++) {
		gp_whatif_result a, b;

		gp_whatif_mean(&ref, i * 4, &a);
		gp_whatif_mean(&ref, (i + 1) * 4, &b);
		CU_ASSERT_TRUE(b.m[GP_M_QD_MEAN] <= a.m[GP_M_QD_MEAN]);
		CU_ASSERT_EQUAL(b.nodes, a.nodes + 8);
	}

	/* Interrupted after 7 runs by 2 workers, stored; then resumed. */
	CU_ASSERT_EQUAL_FATAL(gp_whatif_store_open(p1, &db, &err), GP_OK);
	gp_whatif_results_init(&part, &s);
	pool = gp_whatif_pool_new(&s, 2, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pool);
	c.rs = &part;
	c.db = db;
	c.s = &s;
	c.seen = 0;
	c.stop_after = 7;
	CU_ASSERT_EQUAL(gp_whatif_pool_run(pool, runs, n, on_result, &c, &stop, &stopped, &err), GP_OK);
	CU_ASSERT_TRUE(stopped);
	CU_ASSERT_TRUE(c.seen >= 7 && c.seen < 24);
	gp_whatif_pool_free(pool);
	CU_ASSERT_EQUAL(gp_whatif_store_close(db, &err), GP_OK);
	gp_whatif_results_release(&part);

	CU_ASSERT_EQUAL_FATAL(gp_whatif_store_open(p1, &db, &err), GP_OK);
	gp_whatif_results_init(&part, &s);
	CU_ASSERT_EQUAL(gp_whatif_store_load(db, &s, "fp", &part, &found, &other, &err), GP_OK);
	CU_ASSERT_EQUAL(found, c.seen);
	CU_ASSERT_EQUAL(other, 0);
	for (i = ntodo = 0; i < n; i++)
		if (!gp_whatif_results_get(&part, runs[i]))
			todo[ntodo++] = runs[i];
	CU_ASSERT_EQUAL(ntodo, 24 - found);
	stop = 0;
	pool = gp_whatif_pool_new(&s, 2, &err);
	c.rs = &part;
	c.db = db;
	c.seen = 0;
	c.stop_after = 0;
	CU_ASSERT_EQUAL(gp_whatif_pool_run(pool, todo, ntodo, on_result, &c, &stop, &stopped, &err),
			GP_OK);
	gp_whatif_pool_free(pool);
	CU_ASSERT_EQUAL(c.seen, ntodo);
	CU_ASSERT_TRUE(same_results(&ref, &part));
	CU_ASSERT_EQUAL(gp_whatif_store_close(db, &err), GP_OK);
	gp_whatif_results_release(&part);

	/* Slices 1/2 and 2/2 into two databases, merged = the single run. */
	for (sl = 1; sl <= 2; sl++) {
		CU_ASSERT_EQUAL_FATAL(gp_whatif_store_open(sl == 1 ? p2 : pall, &db, &err), GP_OK);
		gp_whatif_results_init(&part, &s);
		pool = gp_whatif_pool_new(&s, 1, &err);
		all_runs(&s, todo, &ntodo, sl, 2);
		CU_ASSERT_EQUAL(ntodo, 12);
		c.rs = &part;
		c.db = db;
		c.seen = 0;
		CU_ASSERT_EQUAL(gp_whatif_pool_run(pool, todo, ntodo, on_result, &c, &stop, &stopped, &err),
				GP_OK);
		gp_whatif_pool_free(pool);
		CU_ASSERT_EQUAL(gp_whatif_store_close(db, &err), GP_OK);
		gp_whatif_results_release(&part);
	}
	CU_ASSERT_EQUAL_FATAL(gp_whatif_store_open(pall, &db, &err), GP_OK);
	{
		size_t added, dup;

		CU_ASSERT_EQUAL(gp_whatif_store_merge(db, p2, &added, &dup, &err), GP_OK);
		CU_ASSERT_EQUAL(added, 12);
		CU_ASSERT_EQUAL(dup, 0);
		CU_ASSERT_EQUAL(gp_whatif_store_merge(db, p2, &added, &dup, &err), GP_OK);
		CU_ASSERT_EQUAL(added, 0);
		CU_ASSERT_EQUAL(dup, 12);
	}
	gp_whatif_results_init(&merged, &s);
	CU_ASSERT_EQUAL(gp_whatif_store_load(db, &s, "fp", &merged, &found, &other, &err), GP_OK);
	CU_ASSERT_EQUAL(found, 24);
	CU_ASSERT_TRUE(same_results(&ref, &merged));
	gp_whatif_results_release(&merged);
	/* Another fingerprint sees none of them. */
	gp_whatif_results_init(&merged, &s);
	CU_ASSERT_EQUAL(gp_whatif_store_load(db, &s, "other", &merged, &found, &other, &err), GP_OK);
	CU_ASSERT_EQUAL(found, 0);
	CU_ASSERT_EQUAL(other, 24);
	gp_whatif_results_release(&merged);
	CU_ASSERT_EQUAL(gp_whatif_store_close(db, &err), GP_OK);

	gp_whatif_results_release(&ref);
	unlink(p1);
	unlink(p2);
	unlink(pall);
	rmdir(dir);
	gp_whatif_spec_release(&s);
}


/* A network what-if on a profiled trace: each multi-node job of Pollux
 * workload-6, alone on the example cluster (no H100 nodes) with its IB
 * tree at eth-10 and at ib-hdr, runs iterations x the iteration time the perf model predicts
 * for the placement bestfit gives it, so the two differ by iterations x
 * the difference of the model's times; a job whose communication is
 * exposed on 10 GbE is shorter on HDR, and single-node jobs do not change. */
static void test_network_whatif(void)
{
	gp_whatif_spec s;
	gp_cluster cl[2];
	gp_joblist all;
	gp_error err = GP_ERROR_INIT;
	gp_trace_opts o;
	gp_whatif_config c;
	size_t i;
	int f, multi = 0, single = 0;

	CU_ASSERT_EQUAL_FATAL(gp_whatif_spec_load("tests/data/whatif/network.yaml", &s, &err), GP_OK);
	CU_ASSERT_EQUAL(s.nconfigs, 2);
	for (f = 0; f < 2; f++) {
		gp_whatif_config_of(&s, (size_t)f, &c);
		CU_ASSERT_EQUAL_FATAL(gp_whatif_cluster_build(&s, &c, &cl[f], &err), GP_OK);
	}
	gp_trace_opts_init(&o);
	gp_joblist_init(&all);
	CU_ASSERT_EQUAL_FATAL(gp_trace_load(s.traces[0], &o, &all, &err), GP_OK);
	for (i = 0; i < all.n; i++) {
		double t[2] = { 0, 0 }, jct[2] = { 0, 0 }, exposed = 0;
		int nodes[2] = { 0, 0 };

		if (all.jobs[i].iterations <= 0)
			continue;
		for (f = 0; f < 2; f++) {
			gp_joblist one;
			gp_alloc idle;
			gp_rng rng;
			gp_placement p;
			gp_sim_config cfg;
			gp_sim_result r;
			gp_sim_perf *perf = gp_sim_perf_new(&cl[f]);
			gp_policy_ctx ctx;
			gp_job *j;

			gp_joblist_init(&one);
			j = gp_joblist_push(&one);
			*j = all.jobs[i];
			j->id = NULL;
			j->gpu_models = NULL;
			j->environment = NULL;
			j->submit = 0;
			/* The placement bestfit gives it on the idle cluster. */
			gp_alloc_init(&idle, &cl[f]);
			gp_rng_seed(&rng, 1);
			memset(&ctx, 0, sizeof(ctx));
			ctx.cluster = &cl[f];
			ctx.alloc = &idle;
			ctx.rng = &rng;
			gp_placement_init(&p);
			CU_ASSERT_EQUAL(gp_policy_find("bestfit")->place(&ctx, j, &p), GP_PLACED);
			t[f] = gp_perf_iteration_time(&cl[f], j, &p);
			nodes[f] = p.nparts;
			if (f == 0) {
				gp_perf_iter it;

				CU_ASSERT_EQUAL(gp_perf_iteration(&cl[f], j, &p, &it, &err), GP_OK);
				exposed = it.exposed_s;
			}
			gp_placement_release(&p);
			gp_alloc_release(&idle);
			/* The simulator's run of the same job. */
			gp_sim_config_init(&cfg);
			cfg.cluster = &cl[f];
			cfg.policy = gp_policy_find("bestfit");
			cfg.seed = 1;
			cfg.duration = gp_sim_perf_duration;
			cfg.duration_ud = perf;
			gp_sim_result_init(&r);
			CU_ASSERT_EQUAL_FATAL(gp_sim_run(&cfg, &one, &r, &err), GP_OK);
			CU_ASSERT_EQUAL(r.jobs[0].state, GP_SIM_DONE);
			CU_ASSERT_EQUAL(r.jobs[0].nodes, nodes[f]);
			CU_ASSERT_DOUBLE_EQUAL(r.jobs[0].iter_s, t[f], 1e-12 * t[f]);
			jct[f] = r.jobs[0].finish - r.jobs[0].start;
			CU_ASSERT_DOUBLE_EQUAL(jct[f], (double)j->iterations * t[f], 1e-9 * jct[f]);
			gp_sim_result_release(&r);
			gp_sim_perf_free(perf);
			one.n = 0;  /* the copy's strings belong to `all` */
			gp_joblist_release(&one);
		}
		/* eth-10 is config 0, ib-hdr config 1: the difference is the
		 * model's, whatever it is. */
		CU_ASSERT_DOUBLE_EQUAL(jct[0] - jct[1], (double)all.jobs[i].iterations * (t[0] - t[1]),
				       1e-9 * jct[0]);
		if (nodes[0] > 1 && exposed > 0) {
			/* Communication-bound on 10 GbE: HDR must shorten it. */
			multi++;
			CU_ASSERT_TRUE(t[0] > t[1]);
		} else if (nodes[0] == 1 && nodes[1] == 1) {
			single++;
			CU_ASSERT_DOUBLE_EQUAL(t[0], t[1], 1e-12 * t[0]);
		}
	}
	CU_ASSERT_TRUE(multi >= 3);
	CU_ASSERT_TRUE(single >= 3);
	gp_joblist_release(&all);
	gp_cluster_release(&cl[0]);
	gp_cluster_release(&cl[1]);
	gp_whatif_spec_release(&s);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("whatif");

	gp_test_add(s, "grid expansion and keys", test_grid);
	gp_test_add(s, "spec errors and ranges", test_spec_errors);
	gp_test_add(s, "scenario axes, runs without randomness", test_scenario_and_seeds);
	gp_test_add(s, "shapes, costs and built clusters", test_shape_and_cluster);
	gp_test_add(s, "bisection on a monotone case", test_bisection);
	gp_test_add(s, "utilization while jobs wait", test_util_queued);
	gp_test_add(s, "utilization while jobs wait, preempted", test_util_queued_preempted);
	gp_test_add(s, "resume after interruption, merge of slices", test_resume_and_merge);
	gp_test_add(s, "network what-if on a profiled trace", test_network_whatif);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
