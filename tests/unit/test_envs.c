/* Quota binding: the binding rule, solved by hand on tests/data/envs/cluster.yaml
 * (n0: GPUs 0-3 A100 40 GB, NVLink 0-3 and 1-2; n1: GPUs 4-7; h0: GPUs
 * 8-9 H100 80 GB), the environment simulation in its three modes, and the
 * readers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/envs/envs.h"
#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/io/envs.h"
#include "testlib.h"

#define GIB 1024

static gp_cluster cluster;
static gp_env_set envs;
static int loaded;

static void load(void)
{
	gp_error err = GP_ERROR_INIT;

	if (loaded)
		return;
	gp_cluster_init(&cluster);
	gp_env_set_init(&envs);
	CU_ASSERT_EQUAL_FATAL(gp_cluster_load(gp_test_path("tests/data/envs/cluster.yaml"), &cluster, &err), GP_OK);
	CU_ASSERT_EQUAL_FATAL(gp_envs_load(gp_test_path("tests/data/envs/envs.yaml"), &cluster, &envs, &err), GP_OK);
	loaded = 1;
}

static int env(const char *name)
{
	return gp_env_set_find(&envs, name);
}

static void test_envs_file(void)
{
	load();
	CU_ASSERT_EQUAL(envs.n, 5);
	CU_ASSERT_EQUAL(envs.envs[env("alice")].quota_gpus, 2);
	CU_ASSERT_EQUAL(envs.envs[env("alice")].quota_mem_mib, 30 * GIB);
	CU_ASSERT_EQUAL(envs.envs[env("alice")].pool, -1);
	/* pool: big (label pool=big) and [h0] are the same node set: one pool */
	CU_ASSERT_EQUAL(envs.envs[env("bob")].pool, envs.envs[env("fred")].pool);
	CU_ASSERT_EQUAL(envs.npools, 3);
	CU_ASSERT_EQUAL(envs.pools[envs.envs[env("erin")].pool].nnodes, 1);
	CU_ASSERT_EQUAL(envs.pools[envs.envs[env("erin")].pool].nodes[0], gp_cluster_find_node(&cluster, "n1"));
}

/* Heartbeats per task: the last sign of a task is the latest of its own
 * heartbeat, its bind time and its environment's heartbeat.  alice's
 * client beat at 101; t1 bound at 100 beat itself at 107 (107); t2 bound
 * at 90 has only the client's (101); dora's d1, bound at 50, has no
 * environment heartbeat (50); d2 has nothing (-1). */
static void test_task_heartbeats(void)
{
	static const char text[] =
		"heartbeats:\n"
		"  - {env: alice, at: 101}\n"
		"tasks:\n"
		"  - {env: alice, task: t1, at: 100, heartbeat: 107, gpus: [{node: h0, gpu: 0}]}\n"
		"  - {env: alice, task: t2, at: 90, gpus: [{node: h0, gpu: 1}]}\n"
		"  - {env: dora, task: d1, at: 50, gpus: [{node: n0, gpu: 0}]}\n"
		"  - {env: dora, task: d2, gpus: [{node: n0, gpu: 1}]}\n";
	gp_envstate st;
	gp_error err = GP_ERROR_INIT;

	load();
	gp_envstate_init(&st);
	CU_ASSERT_EQUAL_FATAL(gp_envstate_parse(text, sizeof(text) - 1, "st.yaml", &cluster, &envs, &st, &err),
			      GP_OK);
	CU_ASSERT_EQUAL_FATAL(st.ntasks, 4);
	CU_ASSERT_DOUBLE_EQUAL(st.tasks[0].hb, 107, 0);
	CU_ASSERT_DOUBLE_EQUAL(st.tasks[1].hb, -1, 0);
	CU_ASSERT_DOUBLE_EQUAL(gp_envstate_task_seen(&st, 0), 107, 0);
	CU_ASSERT_DOUBLE_EQUAL(gp_envstate_task_seen(&st, 1), 101, 0);
	CU_ASSERT_DOUBLE_EQUAL(gp_envstate_task_seen(&st, 2), 50, 0);
	CU_ASSERT(gp_envstate_task_seen(&st, 3) < 0);
	gp_envstate_release(&st);
}

/* Under quota: a new GPU, fewest tasks, then most free memory (the 80 GB
 * H100s), then lowest id.  At quota: the environment's own GPUs, least
 * loaded first. */
static void test_under_quota_then_reuse(void)
{
	gp_envbind *b;
	gp_envbind_why why;
	int g[4], a;

	load();
	a = env("alice");
	b = gp_envbind_new(&cluster, &envs, 4, 0);
	CU_ASSERT_EQUAL(gp_envbind_task(b, a, 1, 10 * GIB, g, &why), GP_OK);
	CU_ASSERT_EQUAL(g[0], 8);
	/* 1 of 2 bound: a new GPU, not GPU 8 again although it has room */
	CU_ASSERT_EQUAL(gp_envbind_task(b, a, 1, 10 * GIB, g, &why), GP_OK);
	CU_ASSERT_EQUAL(g[0], 9);
	CU_ASSERT_EQUAL(gp_envbind_env_nbound(b, a), 2);
	/* at quota: GPUs 8 and 9 both run 1 task with 70 GiB free: lowest id */
	CU_ASSERT_EQUAL(gp_envbind_task(b, a, 1, 5 * GIB, g, &why), GP_OK);
	CU_ASSERT_EQUAL(g[0], 8);
	/* now GPU 8 runs 2 tasks, GPU 9 one: GPU 9 */
	CU_ASSERT_EQUAL(gp_envbind_task(b, a, 1, 4 * GIB, g, &why), GP_OK);
	CU_ASSERT_EQUAL(g[0], 9);
	CU_ASSERT_EQUAL(gp_envbind_gpu_tasks(b, 8), 2);
	CU_ASSERT_EQUAL(gp_envbind_gpu_tasks(b, 9), 2);
	CU_ASSERT_EQUAL(gp_envbind_gpu_free_mib(b, 8), 80 * GIB - 15 * GIB);
	CU_ASSERT_EQUAL(gp_envbind_env_mem(b, a), 29 * GIB);
	CU_ASSERT_EQUAL(gp_envbind_busy_gpus(b), 2);
	/* releasing the 10 GiB task on GPU 9 leaves GPU 9 bound (the 4 GiB
	 * task is still there); releasing that one too unbinds it */
	g[0] = 9;
	gp_envbind_release(b, a, 1, g, 10 * GIB);
	CU_ASSERT_EQUAL(gp_envbind_env_nbound(b, a), 2);
	gp_envbind_release(b, a, 1, g, 4 * GIB);
	CU_ASSERT_EQUAL(gp_envbind_env_nbound(b, a), 1);
	CU_ASSERT_EQUAL(gp_envbind_busy_gpus(b), 1);
	CU_ASSERT_EQUAL(gp_envbind_gpu_free_mib(b, 9), 80 * GIB);
	gp_envbind_free(b);
}

static void test_memory_quota(void)
{
	gp_envbind *b;
	gp_envbind_why why;
	int g[4], a;

	load();
	a = env("alice"); /* 30 GiB */
	b = gp_envbind_new(&cluster, &envs, 4, 0);
	CU_ASSERT_EQUAL(gp_envbind_task(b, a, 1, 20 * GIB, g, &why), GP_OK);
	CU_ASSERT_EQUAL(gp_envbind_task(b, a, 1, 11 * GIB, g, &why), GP_NO);
	CU_ASSERT_EQUAL(why.reason, GP_EB_MEMORY_QUOTA);
	CU_ASSERT_EQUAL(why.permanent, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(why.msg, "memory quota"));
	/* nothing changed by the refusal */
	CU_ASSERT_EQUAL(gp_envbind_env_nbound(b, a), 1);
	CU_ASSERT_EQUAL(gp_envbind_env_mem(b, a), 20 * GIB);
	CU_ASSERT_EQUAL(gp_envbind_task(b, a, 1, 10 * GIB, g, &why), GP_OK);
	/* more than the whole quota can never bind */
	CU_ASSERT_EQUAL(gp_envbind_task(b, a, 1, 31 * GIB, g, &why), GP_NO);
	CU_ASSERT_EQUAL(why.permanent, 1);
	/* more GPUs than the quota count */
	CU_ASSERT_EQUAL(gp_envbind_task(b, a, 3, 0, g, &why), GP_NO);
	CU_ASSERT_EQUAL(why.reason, GP_EB_QUOTA_COUNT);
	CU_ASSERT_EQUAL(why.permanent, 1);
	gp_envbind_free(b);
}

/* A task without a memory figure takes the document's default share of
 * the quota: alice (2 GPUs, 30 GiB) gets 15 GiB per GPU.  Two such 1-GPU
 * tasks use her 30 GiB; a third is refused on the memory quota; releasing
 * one gives its 15 GiB back. */
static void test_default_memory_share(void)
{
	gp_envbind *b;
	gp_envbind_why why;
	int g[4], h[4], a;

	load();
	a = env("alice");
	b = gp_envbind_new(&cluster, &envs, 4, 0);
	CU_ASSERT_EQUAL(gp_envbind_task_mem(b, a, 1, 0), 15 * GIB);
	CU_ASSERT_EQUAL(gp_envbind_task_mem(b, a, 2, 0), 30 * GIB);
	CU_ASSERT_EQUAL(gp_envbind_task_mem(b, a, 1, 4 * GIB), 4 * GIB);
	CU_ASSERT_EQUAL_FATAL(gp_envbind_task(b, a, 1, 0, g, &why), GP_OK);
	CU_ASSERT_EQUAL(gp_envbind_env_mem(b, a), 15 * GIB);
	CU_ASSERT_EQUAL(gp_envbind_gpu_free_mib(b, g[0]), 80 * GIB - 15 * GIB);
	CU_ASSERT_EQUAL_FATAL(gp_envbind_task(b, a, 1, 0, h, &why), GP_OK);
	CU_ASSERT_EQUAL(gp_envbind_env_mem(b, a), 30 * GIB);
	CU_ASSERT_EQUAL(gp_envbind_task(b, a, 1, 0, h + 1, &why), GP_NO);
	CU_ASSERT_EQUAL(why.reason, GP_EB_MEMORY_QUOTA);
	gp_envbind_release(b, a, 1, g, 0);
	CU_ASSERT_EQUAL(gp_envbind_env_mem(b, a), 15 * GIB);
	CU_ASSERT_EQUAL(gp_envbind_gpu_free_mib(b, g[0]), 80 * GIB);
	gp_envbind_free(b);
}

/* Threshold K = 2: alice puts two tasks on each H100; bob (pool big = the
 * H100 node) then finds no GPU under the threshold, while dora (pool a)
 * binds fine.  Freeing one task of GPU 8 lets bob in, on GPU 8. */
static void test_threshold(void)
{
	gp_envbind *b;
	gp_envbind_why why;
	int g[4], a, bo, d;

	load();
	a = env("alice");
	bo = env("bob");
	d = env("dora");
	b = gp_envbind_new(&cluster, &envs, 2, 0);
	CU_ASSERT_EQUAL(gp_envbind_task(b, a, 2, 8 * GIB, g, &why), GP_OK);
	CU_ASSERT(g[0] == 8 && g[1] == 9);
	CU_ASSERT_EQUAL(gp_envbind_task(b, a, 2, 8 * GIB, g, &why), GP_OK);
	CU_ASSERT(g[0] == 8 && g[1] == 9);
	CU_ASSERT_EQUAL(gp_envbind_task(b, bo, 1, 1 * GIB, g, &why), GP_NO);
	CU_ASSERT_EQUAL(why.reason, GP_EB_NO_GPU_UNDER_THRESHOLD);
	CU_ASSERT_PTR_NOT_NULL(strstr(why.msg, "fewer than 2 tasks"));
	CU_ASSERT_EQUAL(gp_envbind_task(b, d, 1, 1 * GIB, g, &why), GP_OK);
	CU_ASSERT_EQUAL(g[0], 0);
	g[0] = 8;
	g[1] = 9;
	gp_envbind_release(b, a, 2, g, 8 * GIB);
	CU_ASSERT_EQUAL(gp_envbind_task(b, bo, 1, 1 * GIB, g, &why), GP_OK);
	CU_ASSERT_EQUAL(g[0], 8);
	gp_envbind_free(b);
}

/* Below quota with too few other GPUs under the threshold: the document's
 * branch mixes in the environment's own GPUs.  One usable GPU, K = 1:
 * dora's first task binds it (1 task: at the threshold); her second, with
 * 1 of her 2 GPUs bound, finds no other GPU under the threshold and goes
 * to the GPU she holds instead of failing.  bob, holding nothing, still
 * fails. */
static void test_under_quota_mixes_held(void)
{
	gp_envbind *b;
	gp_envbind_why why;
	int g[4], d, first;

	load();
	d = env("dora");
	b = gp_envbind_new(&cluster, &envs, 1, 1);
	CU_ASSERT_EQUAL_FATAL(gp_envbind_task(b, d, 1, 5 * GIB, g, &why), GP_OK);
	first = g[0];
	CU_ASSERT_EQUAL(gp_envbind_task(b, d, 1, 5 * GIB, g, &why), GP_OK);
	CU_ASSERT_EQUAL(g[0], first);
	CU_ASSERT_EQUAL(gp_envbind_env_nbound(b, d), 1);
	CU_ASSERT_EQUAL(gp_envbind_gpu_tasks(b, first), 2);
	CU_ASSERT_EQUAL(gp_envbind_env_mem(b, d), 10 * GIB);
	CU_ASSERT_EQUAL(gp_envbind_task(b, env("bob"), 1, 1 * GIB, g, &why), GP_NO);
	gp_envbind_free(b);
}

/* Topology among equals: dora (pool a = n0) gets GPU 0, then GPU 3 (its
 * NVLink peer) rather than GPU 1. */
static void test_topology_and_memory(void)
{
	gp_envbind *b;
	gp_envbind_why why;
	int g[4], d, f;

	load();
	d = env("dora");
	f = env("fred");
	b = gp_envbind_new(&cluster, &envs, 4, 0);
	CU_ASSERT_EQUAL(gp_envbind_task(b, d, 2, 2 * GIB, g, &why), GP_OK);
	CU_ASSERT_EQUAL(g[0], 0);
	CU_ASSERT_EQUAL(g[1], 3);
	/* fred needs 90 GiB on one GPU: no GPU has that much */
	CU_ASSERT_EQUAL(gp_envbind_task(b, f, 1, 90 * GIB, g, &why), GP_NO);
	CU_ASSERT_EQUAL(why.reason, GP_EB_GPU_MEMORY);
	gp_envbind_free(b);
}

/* ---- simulation ---- */

/* A trace built by hand: env i gets quota q[i] and lifetime. */
static void mk_trace(gp_env_trace *t, int nenv, const int *q, const double *life, int ntask,
		     const int *tenv, const double *tstart, const double *tdur, const int *tgpus)
{
	int i;
	char name[16];

	gp_env_trace_init(t);
	for (i = 0; i < nenv; i++) {
		int e;

		snprintf(name, sizeof(name), "e%d", i);
		e = gp_env_set_add(&t->envs, name, q[i], 1000 * GIB);
		t->envs.envs[e].start = life[2 * i];
		t->envs.envs[e].stop = life[2 * i + 1];
	}
	for (i = 0; i < ntask; i++) {
		gp_env_task *k = gp_env_trace_push(t);

		k->env = tenv[i];
		k->start = tstart[i];
		k->duration = tdur[i];
		k->gpus = tgpus[i];
		k->mem_mib = GIB;
		k->util = 0.5f;
	}
	gp_env_trace_finish(t);
}

/* Heartbeats every 1 s from the lifetime's start; the client dies at 3.5:
 * the last heartbeat was at 3, so the binding is reclaimed at exactly
 * 3 + 5 = 8 and the task (started at 2) has run 6 s. */
static void test_heartbeat_reclaim(void)
{
	gp_env_trace t;
	gp_envsim_config cfg;
	gp_envsim_result r;
	gp_error err = GP_ERROR_INIT;
	int q[] = { 1 }, te[] = { 0 }, tg[] = { 1 }, de[] = { 0 };
	double life[] = { 0, 100 }, ts[] = { 2 }, td[] = { 50 }, da[] = { 3.5 };

	load();
	mk_trace(&t, 1, q, life, 1, te, ts, td, tg);
	gp_envsim_config_init(&cfg);
	cfg.cluster = &cluster;
	cfg.mode = GP_ENVSIM_BIND;
	cfg.death_env = de;
	cfg.death_at = da;
	cfg.ndeaths = 1;
	CU_ASSERT_EQUAL_FATAL(gp_envsim_run(&cfg, &t, &r, &err), GP_OK);
	CU_ASSERT_EQUAL(r.reclaims, 1);
	CU_ASSERT_EQUAL(r.reclaimed_by_heartbeat, 1);
	CU_ASSERT_EQUAL(r.tasks_killed, 1);
	CU_ASSERT_DOUBLE_EQUAL(r.busy_gpu_s, 6.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.bound_gpu_s, 6.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.lost_gpu_s, 4.5, 1e-9);
	gp_envsim_result_release(&r);
	/* period 2: the last heartbeat before 3.5 was at 2, reclaim at 7 */
	cfg.hb_period_s = 2;
	CU_ASSERT_EQUAL_FATAL(gp_envsim_run(&cfg, &t, &r, &err), GP_OK);
	CU_ASSERT_DOUBLE_EQUAL(r.busy_gpu_s, 5.0, 1e-9);
	gp_envsim_result_release(&r);
	/* a death after the task ended reclaims nothing */
	da[0] = 60;
	cfg.hb_period_s = 1;
	CU_ASSERT_EQUAL_FATAL(gp_envsim_run(&cfg, &t, &r, &err), GP_OK);
	CU_ASSERT_EQUAL(r.tasks_killed, 0);
	CU_ASSERT_EQUAL(r.reclaimed_by_heartbeat, 0);
	CU_ASSERT_DOUBLE_EQUAL(r.busy_gpu_s, 50.0, 1e-9);
	gp_envsim_result_release(&r);
	gp_env_trace_release(&t);
}

/* Two environments, one GPU usable, K = 1: e1's task [5, 15) waits for
 * e0's [0, 10) and runs [10, 20). */
static void test_bind_wait(void)
{
	gp_env_trace t;
	gp_envsim_config cfg;
	gp_envsim_result r;
	gp_error err = GP_ERROR_INIT;
	int q[] = { 1, 1 }, te[] = { 0, 1 }, tg[] = { 1, 1 };
	double life[] = { 0, 100, 0, 100 }, ts[] = { 0, 5 }, td[] = { 10, 10 };

	load();
	mk_trace(&t, 2, q, life, 2, te, ts, td, tg);
	gp_envsim_config_init(&cfg);
	cfg.cluster = &cluster;
	cfg.mode = GP_ENVSIM_BIND;
	cfg.threshold = 1;
	cfg.max_gpus = 1;
	CU_ASSERT_EQUAL_FATAL(gp_envsim_run(&cfg, &t, &r, &err), GP_OK);
	CU_ASSERT_EQUAL(r.tasks_completed, 2);
	CU_ASSERT_EQUAL(r.waited, 1);
	CU_ASSERT_DOUBLE_EQUAL(r.wait_s.max, 5.0, 1e-9);
	CU_ASSERT_EQUAL(r.bind_failures[GP_EB_NO_GPU_UNDER_THRESHOLD], 1);
	CU_ASSERT_EQUAL(r.peak_gpus, 1);
	CU_ASSERT_DOUBLE_EQUAL(r.bound_gpu_s, 20.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.busy_gpu_s, 20.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.weighted_busy_gpu_s, 10.0, 1e-9);
	gp_envsim_result_release(&r);
	/* --on-bind-failure fail: e1's task fails instead */
	cfg.fail_on_bind_failure = 1;
	CU_ASSERT_EQUAL_FATAL(gp_envsim_run(&cfg, &t, &r, &err), GP_OK);
	CU_ASSERT_EQUAL(r.tasks_completed, 1);
	CU_ASSERT_EQUAL(r.tasks_failed, 1);
	gp_envsim_result_release(&r);
	/* K = 2: they share the GPU, nobody waits */
	cfg.fail_on_bind_failure = 0;
	cfg.threshold = 2;
	CU_ASSERT_EQUAL_FATAL(gp_envsim_run(&cfg, &t, &r, &err), GP_OK);
	CU_ASSERT_EQUAL(r.waited, 0);
	CU_ASSERT_DOUBLE_EQUAL(r.bound_gpu_s, 15.0, 1e-9);
	gp_envsim_result_release(&r);
	gp_env_trace_release(&t);
}

/* Static holds 2 GPUs over [0, 1000]; idle-timeout:1 (60 s) holds them
 * [0, 60), [100, 170), [500, 570): 400 GPU-seconds, 2 re-acquisitions;
 * bind-at-start binds 1 GPU for each 10 s task: 20 GPU-seconds. */
static void test_modes(void)
{
	gp_env_trace t;
	gp_envsim_config cfg;
	gp_envsim_result r;
	gp_error err = GP_ERROR_INIT;
	int q[] = { 2 }, te[] = { 0, 0 }, tg[] = { 1, 1 };
	double life[] = { 0, 1000 }, ts[] = { 100, 500 }, td[] = { 10, 10 };

	load();
	mk_trace(&t, 1, q, life, 2, te, ts, td, tg);
	gp_envsim_config_init(&cfg);
	cfg.cluster = &cluster;
	cfg.mode = GP_ENVSIM_STATIC;
	CU_ASSERT_EQUAL_FATAL(gp_envsim_run(&cfg, &t, &r, &err), GP_OK);
	CU_ASSERT_DOUBLE_EQUAL(r.reserved_gpu_s, 2000.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.bound_gpu_s, 2000.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.busy_gpu_s, 20.0, 1e-9);
	CU_ASSERT_EQUAL(r.peak_gpus, 2);
	CU_ASSERT_EQUAL(r.rebinds, 0);
	gp_envsim_result_release(&r);
	cfg.mode = GP_ENVSIM_IDLE;
	cfg.idle_timeout_s = 60;
	CU_ASSERT_EQUAL_FATAL(gp_envsim_run(&cfg, &t, &r, &err), GP_OK);
	CU_ASSERT_DOUBLE_EQUAL(r.bound_gpu_s, 400.0, 1e-9);
	CU_ASSERT_EQUAL(r.rebinds, 2);
	CU_ASSERT_EQUAL(r.peak_gpus, 2);
	gp_envsim_result_release(&r);
	cfg.mode = GP_ENVSIM_BIND;
	CU_ASSERT_EQUAL_FATAL(gp_envsim_run(&cfg, &t, &r, &err), GP_OK);
	CU_ASSERT_DOUBLE_EQUAL(r.bound_gpu_s, 20.0, 1e-9);
	CU_ASSERT_EQUAL(r.peak_gpus, 1);
	CU_ASSERT_EQUAL(r.rebinds, 1);
	gp_envsim_result_release(&r);
	gp_env_trace_release(&t);
}

/* Static, one environment holding 2 GPUs over [0, 100]: a (2 GPUs,
 * [0, 10)) takes both; c (3 GPUs at 1) is larger than the quota and
 * fails; b (1 GPU at 5) waits for a and runs [10, 20).  Busy 2 x 10 +
 * 1 x 10 = 30 GPU-seconds within the 200 held: the held GPUs run one
 * task each at a time, as idle-timeout's do. */
static void test_static_capacity(void)
{
	gp_env_trace t;
	gp_envsim_config cfg;
	gp_envsim_result r;
	gp_error err = GP_ERROR_INIT;
	int q[] = { 2 }, te[] = { 0, 0, 0 }, tg[] = { 2, 3, 1 };
	double life[] = { 0, 100 }, ts[] = { 0, 1, 5 }, td[] = { 10, 5, 10 };
	int mode;

	load();
	mk_trace(&t, 1, q, life, 3, te, ts, td, tg);
	for (mode = GP_ENVSIM_STATIC; mode <= GP_ENVSIM_IDLE; mode += GP_ENVSIM_IDLE - GP_ENVSIM_STATIC) {
		gp_envsim_config_init(&cfg);
		cfg.cluster = &cluster;
		cfg.mode = mode;
		cfg.idle_timeout_s = 1000;
		CU_ASSERT_EQUAL_FATAL(gp_envsim_run(&cfg, &t, &r, &err), GP_OK);
		CU_ASSERT_EQUAL(r.tasks_completed, 2);
		CU_ASSERT_EQUAL(r.tasks_failed, 1);
		CU_ASSERT_EQUAL(r.bind_failures[GP_EB_QUOTA_COUNT], 1);
		CU_ASSERT_EQUAL(r.waited, 1);
		CU_ASSERT_DOUBLE_EQUAL(r.wait_s.max, 5.0, 1e-9);
		CU_ASSERT_DOUBLE_EQUAL(r.busy_gpu_s, 30.0, 1e-9);
		CU_ASSERT(r.busy_gpu_s <= r.bound_gpu_s);
		gp_envsim_result_release(&r);
	}
	gp_env_trace_release(&t);
}

static void test_adobe_reader(void)
{
	gp_env_trace t;
	gp_error err = GP_ERROR_INIT;
	size_t i;
	double busy = 0, reserved = 0;

	gp_env_trace_init(&t);
	CU_ASSERT_EQUAL_FATAL(gp_adobe_load(gp_test_path("workloads/adobe-sensei-june-1-2-2021.json"), 60, &t, &err),
			      GP_OK);
	CU_ASSERT_EQUAL(t.envs.n, 59);
	CU_ASSERT_EQUAL(t.ntasks, 790);
	CU_ASSERT_EQUAL(t.cpu_only_tasks, 272);
	CU_ASSERT(t.serial);
	/* the first session: 945782c6-..., ticks 258..1937, 8 GPUs, 15.64 GB */
	i = (size_t)gp_env_set_find(&t.envs, "945782c6-1d56-48fb-9b72-70477f6e394f");
	CU_ASSERT_EQUAL(t.envs.envs[i].quota_gpus, 8);
	CU_ASSERT_DOUBLE_EQUAL(t.envs.envs[i].start, 258 * 60.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(t.envs.envs[i].stop, 1937 * 60.0, 1e-9);
	CU_ASSERT_EQUAL(t.envs.envs[i].quota_mem_mib, llround(15.64 * 1024));
	for (i = 0; i < t.ntasks; i++)
		busy += t.tasks[i].gpus * t.tasks[i].duration;
	for (i = 0; i < t.envs.n; i++)
		reserved += gp_env_reserved_gpu_seconds(&t.envs.envs[i]);
	/* the figures of tests/cli/cases/envs-adobe-handcount.sh (jq) */
	CU_ASSERT_DOUBLE_EQUAL(busy, 78255 * 60.0, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(reserved, 304219 * 60.0, 1e-6);
	gp_env_trace_release(&t);
}

static void test_mode_parse(void)
{
	double m = 0;

	CU_ASSERT_EQUAL(gp_envsim_mode_parse("static", NULL), GP_ENVSIM_STATIC);
	CU_ASSERT_EQUAL(gp_envsim_mode_parse("bind-at-start", NULL), GP_ENVSIM_BIND);
	CU_ASSERT_EQUAL(gp_envsim_mode_parse("idle-timeout:30", &m), GP_ENVSIM_IDLE);
	CU_ASSERT_DOUBLE_EQUAL(m, 30, 0);
	CU_ASSERT_EQUAL(gp_envsim_mode_parse("idle-timeout:", &m), -1);
	CU_ASSERT_EQUAL(gp_envsim_mode_parse("idle-timeout:-1", &m), -1);
	CU_ASSERT_EQUAL(gp_envsim_mode_parse("bind", NULL), -1);
}

static void done(void)
{
	if (loaded) {
		gp_env_set_release(&envs);
		gp_cluster_release(&cluster);
		loaded = 0;
	}
}

/* The heartbeat reclaim rule `env reclaim` and the simulation share: a
 * client last heard at 100 s with a 5 s timeout is reclaimed at 105 s,
 * not before. */
static void test_reclaim_rule(void)
{
	CU_ASSERT_DOUBLE_EQUAL(gp_envbind_reclaim_at(100, 5), 105, 0);
	CU_ASSERT_FALSE(gp_envbind_reclaim_due(100, 5, 104.5));
	CU_ASSERT_TRUE(gp_envbind_reclaim_due(100, 5, 105));
	CU_ASSERT_TRUE(gp_envbind_reclaim_due(100, 0, 100));
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("envs");

	gp_test_add(s, "environments file", test_envs_file);
	gp_test_add(s, "heartbeats per task", test_task_heartbeats);
	gp_test_add(s, "the heartbeat reclaim rule", test_reclaim_rule);
	gp_test_add(s, "under quota: new GPU; at quota: reuse", test_under_quota_then_reuse);
	gp_test_add(s, "memory quota and quota count refusals", test_memory_quota);
	gp_test_add(s, "threshold refusal", test_threshold);
	gp_test_add(s, "default memory share", test_default_memory_share);
	gp_test_add(s, "under quota: mixes in held GPUs", test_under_quota_mixes_held);
	gp_test_add(s, "topology tie-break and GPU memory", test_topology_and_memory);
	gp_test_add(s, "heartbeat reclaim on time", test_heartbeat_reclaim);
	gp_test_add(s, "bind-at-start wait and fail", test_bind_wait);
	gp_test_add(s, "static, idle-timeout, bind-at-start", test_modes);
	gp_test_add(s, "exclusive modes: one task a held GPU", test_static_capacity);
	gp_test_add(s, "Adobe template reader", test_adobe_reader);
	gp_test_add(s, "mode names", test_mode_parse);
	gp_test_add(s, "cleanup", done);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
