/* Quota binding: development environments with GPU quotas.  An environment
 * holds a quota (GPU count and GPU memory), not GPUs; a GPU is bound to
 * it only when one of its tasks starts, GPUs are shared up to a per-GPU
 * task-count threshold, and bindings go back when a task ends or when the
 * environment's client stops sending heartbeats.
 *
 * Binding rule (gp_envbind_task), for a task of environment E needing N
 * distinct GPUs and M GPU memory in total (M / N on each GPU; a task that
 * gives no memory takes the document's default share, E's memory quota
 * over its GPU quota per GPU: gp_envbind_task_mem):
 *   1. N above E's GPU quota: `quota_count` (can never bind).
 *   2. memory of E's running tasks + M above E's memory quota:
 *      `memory_quota` (M alone above the quota: can never bind).
 *   3. the N GPUs are chosen one by one.  While E has fewer GPUs bound
 *      than its quota count (those chosen for this task included), a NEW
 *      GPU: one of E's pool that is not bound to E, runs fewer than K
 *      tasks (the threshold) and has M / N memory free; the one with the
 *      fewest tasks, then the most free memory, then the closest to the
 *      GPUs already chosen for this task (same node, least link expense
 *      of the node's topology), else on a node where E has GPUs bound,
 *      then the lowest GPU id.  None under K: as the document's branch
 *      says, one of E's own bound GPUs as at quota (below); E holding
 *      none that fits: `no_gpu_under_threshold`; some under K but none
 *      with the memory: `gpu_memory`.
 *      At quota: REUSE one of E's bound GPUs (not yet chosen for this
 *      task) with M / N memory free, fewest tasks first, then most free
 *      memory, then lowest id.  The threshold does not apply to reuse:
 *      it limits how many tasks share a GPU across environments, and an
 *      environment at quota can only stack on its own GPUs.  None with
 *      the memory: `gpu_memory`.
 *   All or nothing: a task that cannot get all N GPUs binds none.
 * On release a task gives back its memory and one task on each GPU; a GPU
 * with no task of E left leaves E's bound set.
 *
 * Static and idle-timeout modes hold whole GPUs exclusively instead
 * (gp_envbind_acquire): the same choice with K = 1 and no memory need. */
#ifndef GPUPLAN_ENVS_H
#define GPUPLAN_ENVS_H

#include <stddef.h>
#include <stdint.h>

#include "gpuplan/model/cluster.h"
#include "gpuplan/model/env.h"
#include "gpuplan/util/error.h"
#include "gpuplan/util/util.h"

#define GP_ENV_MAX_THRESHOLD 64
#define GP_ENV_DEFAULT_THRESHOLD 4

enum gp_envbind_reason {
	GP_EB_OK = 0,
	GP_EB_QUOTA_COUNT,          /* more GPUs than the quota count */
	GP_EB_MEMORY_QUOTA,         /* over the environment's memory quota */
	GP_EB_NO_GPU_UNDER_THRESHOLD, /* every GPU of the pool at the threshold */
	GP_EB_GPU_MEMORY,           /* no candidate GPU has the memory free */
	GP_EB_REASONS
};
/* "quota_count", "memory_quota", "no_gpu_under_threshold", "gpu_memory". */
const char *gp_envbind_reason_name(int reason);

typedef struct gp_envbind_why {
	int reason;             /* enum gp_envbind_reason */
	int permanent;          /* the task can never bind (larger than E's quota) */
	char msg[320];
} gp_envbind_why;

typedef struct gp_envbind gp_envbind;

/* Binding state over cluster c for the environments of set.  threshold K
 * in 1..GP_ENV_MAX_THRESHOLD; max_gpus > 0 keeps only GPUs with a global
 * id below it (sizing studies).  Pools come from the set. */
gp_envbind *gp_envbind_new(const gp_cluster *c, const gp_env_set *set, int threshold,
			   int max_gpus);
void gp_envbind_free(gp_envbind *b);

/* The binding rule.  On success (GP_OK) gpus_out[0..ngpus) are the global
 * GPU ids in the order chosen; otherwise GP_NO with why filled and
 * nothing changed. */
int gp_envbind_task(gp_envbind *b, int env, int ngpus, int64_t mem_mib, int *gpus_out,
		    gp_envbind_why *why);
/* The GPU memory a task of env on ngpus GPUs takes from the quota: its
 * own mem_mib, or when it gives none (<= 0) the default share, the memory
 * quota over the GPU quota for each of its GPUs.  task, release and apply
 * all go through it. */
int64_t gp_envbind_task_mem(const gp_envbind *b, int env, int ngpus, int64_t mem_mib);
/* Give back a bound task. */
void gp_envbind_release(gp_envbind *b, int env, int ngpus, const int *gpus, int64_t mem_mib);
/* Apply a binding recorded elsewhere (a state file) without the rule:
 * only GPU memory and pool membership are checked; GP_NO with msg set when
 * it does not fit. */
int gp_envbind_apply(gp_envbind *b, int env, int ngpus, const int *gpus, int64_t mem_mib,
		     char *msg, size_t msg_size);

/* Exclusive acquisition (static and idle-timeout modes): q GPUs of E's
 * pool that nobody holds.  GP_OK or GP_NO (why: no_gpu_under_threshold). */
int gp_envbind_acquire(gp_envbind *b, int env, int q, int *gpus_out, gp_envbind_why *why);
void gp_envbind_drop(gp_envbind *b, int q, const int *gpus);
/* Could an acquisition of q GPUs for env succeed now?  (O(1), for
 * retrying blocked environments.) */
int gp_envbind_can_acquire(const gp_envbind *b, int env, int q);
/* Could a new GPU with mem_per_gpu free be found in env's pool now? */
int gp_envbind_can_new(const gp_envbind *b, int env, int64_t mem_per_gpu);

/* Queries. */
int gp_envbind_ngpus(const gp_envbind *b);           /* GPUs usable */
int gp_envbind_gpu_tasks(const gp_envbind *b, int gpu);
int64_t gp_envbind_gpu_free_mib(const gp_envbind *b, int gpu);
int gp_envbind_busy_gpus(const gp_envbind *b);       /* GPUs with a task or holder */
int gp_envbind_env_nbound(const gp_envbind *b, int env);
/* E's bound GPUs and its task count on each; returns the count. */
int gp_envbind_env_bound(const gp_envbind *b, int env, const int **gpus, const int **tasks);
int64_t gp_envbind_env_mem(const gp_envbind *b, int env);
int gp_envbind_threshold(const gp_envbind *b);

/* The heartbeat reclaim rule, one for `env reclaim` and the simulation:
 * an environment whose client was last heard from at `last` loses its
 * bound GPUs once `timeout` seconds pass without a heartbeat, at
 * gp_envbind_reclaim_at; _due says whether that time has come by now. */
double gp_envbind_reclaim_at(double last, double timeout);
int gp_envbind_reclaim_due(double last, double timeout, double now);

/* ---- simulation ---- */

enum gp_envsim_mode { GP_ENVSIM_STATIC = 0, GP_ENVSIM_BIND, GP_ENVSIM_IDLE };

/* "static", "bind-at-start", "idle-timeout:MIN"; parse returns -1 when
 * unknown (idle_min receives MIN). */
int gp_envsim_mode_parse(const char *s, double *idle_min);

typedef struct gp_envsim_config {
	const gp_cluster *cluster;
	int mode;                   /* enum gp_envsim_mode */
	double idle_timeout_s;      /* idle-timeout mode */
	int threshold;              /* K, bind-at-start */
	int fail_on_bind_failure;   /* 0: a task that cannot bind waits */
	double hb_period_s, hb_timeout_s;
	double client_failures_per_hour; /* per environment, Poisson */
	uint64_t seed;
	int max_gpus;               /* 0 = every GPU of the cluster */
	/* Tests: explicit client deaths instead of the random ones. */
	const int *death_env;
	const double *death_at;
	size_t ndeaths;
	size_t timeline_points;     /* 0 = 2000 */
} gp_envsim_config;

void gp_envsim_config_init(gp_envsim_config *c);

typedef gp_dist gp_envsim_dist;

typedef struct gp_envsim_result {
	int mode;
	double idle_timeout_s;
	int threshold;
	size_t envs, envs_with_gpus, tasks, gpu_tasks, cpu_only_tasks;
	size_t tasks_completed, tasks_failed, tasks_killed, tasks_unbound;
	double reserved_gpu_s;      /* quota x lifetime, summed */
	double busy_gpu_s;          /* GPUs x run time of tasks */
	double weighted_busy_gpu_s; /* the same x the tasks' utilization */
	double bound_gpu_s;         /* GPUs bound (held) over time */
	double lost_gpu_s;          /* bound to dead clients before reclaim */
	int peak_gpus;
	double peak_at;
	size_t rebinds, bind_operations;
	size_t bind_failures[GP_EB_REASONS]; /* tasks, by first reason */
	gp_envsim_dist wait_s;      /* GPU tasks: start - ready */
	gp_envsim_dist delay_s;     /* GPU tasks: start - trace start */
	size_t waited;              /* GPU tasks that waited at all */
	size_t client_failures, reclaims, reclaimed_by_heartbeat;
	double first_t, last_t;     /* span of the run */
	/* GPUs bound over time: bucket i covers [t0 + i dt, t0 + (i+1) dt) */
	double t0, dt;
	size_t nbuckets;
	int32_t *bucket_max;
	double *bucket_mean;
	/* engine counters */
	size_t events, retries;
} gp_envsim_result;

void gp_envsim_result_init(gp_envsim_result *r);
void gp_envsim_result_release(gp_envsim_result *r);

/* Replay the trace's tasks on the cluster in one mode.  Errors: GP_EUSAGE
 * (bad config). */
int gp_envsim_run(const gp_envsim_config *cfg, const gp_env_trace *trace, gp_envsim_result *out,
		  gp_error *err);

#endif
