/* Failures in the simulator: each recovery policy on a one-failure
 * scenario worked out by hand, and checkpoint-restart against Daly's
 * first-order model over many seeds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/io/failures.h"
#include "gpuplan/sim/failsim.h"
#include "gpuplan/sim/sim.h"
#include "gpuplan/util/util.h"
#include "testlib.h"

static gp_cluster cl;

static void load(const char *rel)
{
	gp_error err = GP_ERROR_INIT;

	gp_cluster_init(&cl);
	CU_ASSERT_FATAL(gp_cluster_load(gp_test_path(rel), &cl, &err) == GP_OK);
}

static gp_job *add(gp_joblist *l, const char *id, int type, int gpus, double dur)
{
	gp_job *j = gp_joblist_push(l);

	j->id = gp_xstrdup(id);
	j->type = type;
	j->gpus = gpus;
	j->gpu_milli = 1000;
	j->duration = dur;
	j->klass = GP_CLASS_BE;
	return j;
}

static int run(gp_joblist *l, gp_failsim *fs, const char *policy, double tau, double delta,
	       gp_sim_result *r)
{
	gp_sim_config cfg;
	gp_error err = GP_ERROR_INIT;
	int rc;

	gp_sim_config_init(&cfg);
	cfg.cluster = &cl;
	cfg.policy = gp_policy_find(policy);
	cfg.queue = GP_SIM_FIFO;
	cfg.seed = 7;
	cfg.checkpoint_interval = tau;
	cfg.checkpoint_cost = delta;
	cfg.hooks[0] = gp_failsim_hooks(fs);
	rc = gp_sim_run(&cfg, l, r, &err);
	if (rc)
		fprintf(stderr, "\n  run: %s\n", err.msg);
	return rc;
}

/* The one-GPU ring a1 - a2 - a3 of the mixed cluster (first-fit places it
 * there), 1000 s long; a2 fails at 100 s and never comes back; detected
 * at T (heartbeat, seed 5).
 *  restart (cost 50, no checkpoints): all 100 s lost; back at T on a
 *    fresh set of nodes (a1, a3, d1 by first-fit), finishing at
 *    T + 50 + 1000;
 *  replace: e1 takes a2's place (the weakest G20 that keeps the
 *    iteration time, as in test_replace.c) after the state copy,
 *    finishing at 1000 + (T - 100) + copy;
 *  shrink: a1 - a3 go on with 900 s of work x 3/2 GPUs = 1350 s;
 *  fail: the job fails at T. */
static void one_failure_ck(int recovery, double ck, gp_sim_result *r, gp_failsim_summary *s,
			   double *T, gp_failsim **out);

static void one_failure(int recovery, gp_sim_result *r, gp_failsim_summary *s, double *T,
			gp_failsim **out)
{
	one_failure_ck(recovery, 0, r, s, T, out);
}

static void one_failure_ck(int recovery, double ck, gp_sim_result *r, gp_failsim_summary *s,
			   double *T, gp_failsim **out)
{
	static const char csv[] = "time_s,node,gpu,kind,repair_s\n100,a2,,node,\n";
	gp_joblist l;
	gp_job *j;
	gp_fail_list fl;
	gp_error err = GP_ERROR_INIT;
	gp_failsim_config fc;
	gp_failsim *fs;

	load("tests/data/replace/mixed-cluster.yaml");
	gp_joblist_init(&l);
	j = add(&l, "ring", GP_JOB_RING_ALLREDUCE, 3, 1000);
	j->gpu_mem_mib = 1024;
	gp_job_more_edit(j)->model.params = 1e9;
	gp_job_more_edit(j)->model.flops_per_sample = 1e12;
	j->batch_size = 10;
	j->precision = GP_PREC_MIXED;
	j->optimizer = GP_OPT_ADAM;
	gp_job_more_edit(j)->checkpoint_interval = ck;
	CU_ASSERT_FATAL(gp_fail_csv_parse(csv, strlen(csv), "f.csv", &cl, &fl, &err) == GP_OK);
	gp_failsim_config_init(&fc, 5);
	fc.file = &fl;
	fc.recovery = recovery;
	fc.restart_cost = 50;
	fs = gp_failsim_new(&fc, &cl, l.n);
	*T = gp_heartbeat_detect(&fc.hb, 1, 100);
	gp_sim_result_init(r);
	CU_ASSERT_EQUAL_FATAL(run(&l, fs, "first-fit", 0, 0, r), GP_OK);
	gp_failsim_summarize(fs, &l, r, s);
	CU_ASSERT_EQUAL(s->injected, 1);
	CU_ASSERT_EQUAL(s->detected, 1);
	CU_ASSERT_EQUAL(s->jobs_interrupted, 1);
	*out = fs;
	gp_joblist_release(&l);
	gp_fail_list_release(&fl);
}

/* Job j of r last ran on exactly the nodes named (each once, any order):
 * what jobs.csv's nodes, first_node and node_list columns print. */
static int ran_on(const gp_sim_result *r, int32_t j, const char *const *names, int n)
{
	const gp_sim_job *rec = &r->jobs[j];
	int i, k, lo = -1;

	if (rec->nodes != n || (size_t)rec->nodes_at + (size_t)n > r->nnode_ids)
		return 0;
	for (i = 0; i < n; i++) {
		int node = gp_cluster_find_node(&cl, names[i]);

		for (k = 0; k < n && r->node_ids[rec->nodes_at + (uint32_t)k] != node; k++)
			;
		if (node < 0 || k == n)
			return 0;
		if (lo < 0 || node < lo)
			lo = node;
	}
	return rec->first_node == lo;
}

static void test_restart(void)
{
	gp_sim_result r;
	gp_failsim_summary s;
	gp_failsim *fs;
	double T;
	size_t n;
	const gp_failsim_row *row;

	one_failure(GP_RECOVERY_RESTART, &r, &s, &T, &fs);
	CU_ASSERT(T >= 110 && T < 115);
	CU_ASSERT_EQUAL(s.restarted, 1);
	CU_ASSERT_EQUAL(r.jobs[0].state, GP_SIM_DONE);
	CU_ASSERT_DOUBLE_EQUAL(r.jobs[0].start, 0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.jobs[0].finish, T + 50 + 1000, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(s.recovery_s.max, T + 50 - 100, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(s.ettr, 1000 / (T + 1050), 1e-9);
	/* Lost: 100 s of work, T - 100 s stalled, 50 s restarting, 3 GPUs. */
	CU_ASSERT_DOUBLE_EQUAL(s.lost_gpu_hours, 3 * (100 + (T - 100) + 50) / 3600.0, 1e-6);
	row = gp_failsim_rows(fs, &n);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_EQUAL(row[0].action, GP_FA_RESTARTED);
	CU_ASSERT_DOUBLE_EQUAL(row[0].detect_s, T - 100, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(row[0].recover_s, T + 50 - 100, 1e-6);
	gp_failsim_free(fs);
	gp_sim_result_release(&r);
	gp_cluster_release(&cl);
}

/* The job's own checkpoint interval (60 s of work): at 100 s it loses
 * only the 40 s since its checkpoint at 60 s: finish T + 50 + 940. */
static void test_restart_job_checkpoint(void)
{
	gp_sim_result r;
	gp_failsim_summary s;
	gp_failsim *fs;
	double T;

	one_failure_ck(GP_RECOVERY_RESTART, 60, &r, &s, &T, &fs);
	CU_ASSERT_EQUAL(s.restarted, 1);
	CU_ASSERT_DOUBLE_EQUAL(r.jobs[0].finish, T + 50 + 940, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(s.lost_gpu_hours, 3 * (40 + (T - 100) + 50) / 3600.0, 1e-6);
	gp_failsim_free(fs);
	gp_sim_result_release(&r);
	gp_cluster_release(&cl);
}

static void test_replace(void)
{
	gp_sim_result r;
	gp_failsim_summary s;
	gp_failsim *fs;
	double T, copy = 1.4e10 / 23.5e9;
	size_t n;
	const gp_failsim_row *row;

	one_failure(GP_RECOVERY_REPLACE, &r, &s, &T, &fs);
	CU_ASSERT_EQUAL(s.replaced, 1);
	CU_ASSERT_EQUAL(r.jobs[0].state, GP_SIM_DONE);
	CU_ASSERT_DOUBLE_EQUAL(r.jobs[0].finish, 1000 + (T - 100) + copy, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(s.ettr, 1000 / (900 + T + copy), 1e-9);
	/* Lost: the stall and the copy on three GPUs. */
	CU_ASSERT_DOUBLE_EQUAL(s.lost_gpu_hours, 3 * (T - 100 + copy) / 3600.0, 1e-6);
	row = gp_failsim_rows(fs, &n);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_EQUAL(row[0].action, GP_FA_REPLACED);
	CU_ASSERT_EQUAL(row[0].replacement, gp_cluster_find_node(&cl, "e1"));
	CU_ASSERT_DOUBLE_EQUAL(row[0].recover_s, T - 100 + copy, 1e-6);
	/* It finished on a1, a3 and e1, not on the a2 it started on. */
	CU_ASSERT(ran_on(&r, 0, (const char *const[]){"a1", "a3", "e1"}, 3));
	gp_failsim_free(fs);
	gp_sim_result_release(&r);
	gp_cluster_release(&cl);
}

static void test_shrink(void)
{
	gp_sim_result r;
	gp_failsim_summary s;
	gp_failsim *fs;
	double T;

	one_failure(GP_RECOVERY_SHRINK, &r, &s, &T, &fs);
	CU_ASSERT_EQUAL(s.shrunk, 1);
	CU_ASSERT_EQUAL(r.jobs[0].state, GP_SIM_DONE);
	CU_ASSERT_DOUBLE_EQUAL(r.jobs[0].finish, T + 900 * 1.5, 1e-6);
	/* Productive: 100 s on three GPUs, then 1350 s on two (running, if
	 * slower): ETTR = 1450 / (T + 1350). */
	CU_ASSERT_DOUBLE_EQUAL(s.ettr, 1450 / (T + 1350), 1e-9);
	CU_ASSERT(ran_on(&r, 0, (const char *const[]){"a1", "a3"}, 2));
	gp_failsim_free(fs);
	gp_sim_result_release(&r);
	gp_cluster_release(&cl);
}

static void test_fail(void)
{
	gp_sim_result r;
	gp_failsim_summary s;
	gp_failsim *fs;
	double T;

	one_failure(GP_RECOVERY_FAIL, &r, &s, &T, &fs);
	CU_ASSERT_EQUAL(s.failed_jobs, 1);
	CU_ASSERT_EQUAL(r.jobs[0].state, GP_SIM_FAILED);
	CU_ASSERT_EQUAL(r.jobs[0].why, GP_SIM_WHY_INTERRUPTED);
	CU_ASSERT_DOUBLE_EQUAL(r.jobs[0].finish, T, 1e-6);
	/* it never runs again: its 100 s of work on 3 GPUs are lost, with
	 * the stall until detection at T */
	CU_ASSERT_DOUBLE_EQUAL(s.lost_gpu_hours, 3 * (100 + (T - 100)) / 3600.0, 1e-6);
	gp_failsim_free(fs);
	gp_sim_result_release(&r);
	gp_cluster_release(&cl);

	/* checkpoints every 40 s do not save a job that ends as failed */
	one_failure_ck(GP_RECOVERY_FAIL, 40, &r, &s, &T, &fs);
	CU_ASSERT_EQUAL(r.jobs[0].state, GP_SIM_FAILED);
	CU_ASSERT_DOUBLE_EQUAL(s.lost_gpu_hours, 3 * (100 + (T - 100)) / 3600.0, 1e-6);
	gp_failsim_free(fs);
	gp_sim_result_release(&r);
	gp_cluster_release(&cl);
}

/* Checkpoint-restart against Daly.  One job on 8 of the example
 * cluster's 32 A100 nodes (64 GPUs), 10 days of work; every node fails at
 * exponential times of mean 8 M, so the job's MTBF is M; repairs take 2 h
 * on average, 24 A100 nodes are spare.  A checkpoint every tau of work
 * costs delta; a restart costs R plus the heartbeat detection (period
 * 5 s, 3 misses: 12.5 s on average).  Over 100 failure seeds the mean
 * ETTR must be within 1 percentage point of Daly's first-order
 * (1 - (R + (tau + delta)/2) / M) / (1 + delta/tau).  Two settings: M =
 * 24 h, tau = 1 h, delta = 2 min, R = 10 min; M = 6 h, tau = 30 min,
 * delta = 1 min, R = 5 min. */
static double daly_run(double tau, double delta, double R, double M, int nseeds)
{
	const double work = 10 * 86400.0;
	double sum = 0;
	int seed;

	for (seed = 1; seed <= nseeds; seed++) {
		gp_joblist l;
		gp_job *j;
		gp_failsim_config fc;
		gp_failsim *fs;
		gp_sim_result r;

		gp_joblist_init(&l);
		j = add(&l, "big", GP_JOB_RING_ALLREDUCE, 64, work);
		j->gpu_mem_mib = 1024;
		j->gpu_models = gp_xstrdup("A100-SXM4-40GB");
		gp_failsim_config_init(&fc, (uint64_t)seed);
		fc.gen.mtbf_node_h = 8 * M / 3600;
		fc.gen.repair_h = 2;
		fc.restart_cost = R;
		fs = gp_failsim_new(&fc, &cl, l.n);
		gp_sim_result_init(&r);
		CU_ASSERT_EQUAL_FATAL(run(&l, fs, "bestfit", tau, delta, &r), GP_OK);
		CU_ASSERT_EQUAL_FATAL(r.jobs[0].state, GP_SIM_DONE);
		sum += work / (r.jobs[0].finish - r.jobs[0].start);
		gp_failsim_free(fs);
		gp_sim_result_release(&r);
		gp_joblist_release(&l);
	}
	return sum / nseeds;
}

static void test_daly(void)
{
	static const double set[2][4] = {
		{ 3600, 120, 600, 24 * 3600.0 },
		{ 1800, 60, 300, 6 * 3600.0 },
	};
	int k;

	load("topologies/example-cluster.yaml");
	for (k = 0; k < 2; k++) {
		double tau = set[k][0], delta = set[k][1], R = set[k][2], M = set[k][3];
		double sim = daly_run(tau, delta, R, M, 100);
		double first = gp_daly_ettr_first_order(tau, delta, R + 12.5, M);
		double expo = gp_daly_ettr_exponential(tau, delta, R + 12.5, M);

		if (getenv("GP_TEST_VERBOSE"))
			fprintf(stderr, "\n  Daly (M %.0f h, tau %.0f s, delta %.0f s, R %.0f s): simulated "
				"ETTR %.4f over 100 seeds, first order %.4f, exponential %.4f",
				M / 3600, tau, delta, R, sim, first, expo);
		CU_ASSERT_DOUBLE_EQUAL(sim, first, 0.01);
	}
	gp_cluster_release(&cl);
}

/* A repair far after the workload neither stretches the run nor lets
 * failures after the last job count: the ring's a2 fails at 100 s and
 * comes back after 10^7 s; a3 fails at 5000 s, after the job ended. */
static void test_run_ends_with_the_jobs(void)
{
	static const char csv[] = "time_s,node,gpu,kind,repair_s\n100,a2,,node,1e7\n5000,a3,,node,\n";
	gp_joblist l;
	gp_job *j;
	gp_fail_list fl;
	gp_error err = GP_ERROR_INIT;
	gp_failsim_config fc;
	gp_failsim *fs;
	gp_sim_result r;
	gp_failsim_summary s;

	load("tests/data/replace/mixed-cluster.yaml");
	gp_joblist_init(&l);
	j = add(&l, "ring", GP_JOB_RING_ALLREDUCE, 3, 1000);
	j->gpu_mem_mib = 1024;
	CU_ASSERT_FATAL(gp_fail_csv_parse(csv, strlen(csv), "f.csv", &cl, &fl, &err) == GP_OK);
	gp_failsim_config_init(&fc, 5);
	fc.file = &fl;
	fs = gp_failsim_new(&fc, &cl, l.n);
	gp_sim_result_init(&r);
	CU_ASSERT_EQUAL_FATAL(run(&l, fs, "first-fit", 0, 0, &r), GP_OK);
	gp_failsim_summarize(fs, &l, &r, &s);
	CU_ASSERT_EQUAL(s.injected, 1);
	CU_ASSERT_EQUAL(s.restarted, 1);
	CU_ASSERT(r.last_finish < 1200);
	CU_ASSERT_FATAL(r.nsamples > 0);
	CU_ASSERT(r.samples[r.nsamples - 1].t < 1200);
	gp_failsim_free(fs);
	gp_sim_result_release(&r);
	gp_joblist_release(&l);
	gp_fail_list_release(&fl);
	gp_cluster_release(&cl);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("failsim");

	gp_test_add(s, "restart", test_restart);
	gp_test_add(s, "restart with a job's checkpoint interval", test_restart_job_checkpoint);
	gp_test_add(s, "replace", test_replace);
	gp_test_add(s, "shrink", test_shrink);
	gp_test_add(s, "fail", test_fail);
	gp_test_add(s, "the run ends with the jobs", test_run_ends_with_the_jobs);
	gp_test_add(s, "checkpoint-restart vs Daly", test_daly);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
