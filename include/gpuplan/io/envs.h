/* Readers for development environments (quota binding): the environments
 * YAML file, the Adobe/NotebookOS notebook workload template (JSON), any
 * job trace with an `environment` column, and the binding state file of
 * `gpuplan env`.  Every error is located (FILE:LINE:COL). */
#ifndef GPUPLAN_IO_ENVS_H
#define GPUPLAN_IO_ENVS_H

#include <stddef.h>
#include <stdint.h>

#include "gpuplan/model/cluster.h"
#include "gpuplan/model/env.h"
#include "gpuplan/util/error.h"
#include "gpuplan/util/util.h"
#include "gpuplan/model/job.h"

#define GP_ENVS_MAX_FILE (256u << 20)
#define GP_ADOBE_MAX_FILE ((size_t)4 << 30)   /* streamed, never held whole */
#define GP_ENVSTATE_MAX_FILE (64u << 20)

/* environments: [{name, gpus, gpu_memory_gib, pool?, start?, stop?}]
 * pool: a label value of the nodes' `pool` label ("train"), KEY=VALUE for
 * any label, or a list of node names.  Appends to set (initialised);
 * cluster resolves pools (NULL: pools are an error). */
int gp_envs_load(const char *path, const gp_cluster *c, gp_env_set *set,
		 gp_error *err);

/* Whether the file looks like an Adobe notebook workload template (a JSON
 * object; checked on the first bytes only). */
int gp_adobe_sniff(const char *path);

/* Read an Adobe / NotebookOS workload template: every session (notebook)
 * becomes an environment whose quota is its max_resource_request (gpus,
 * vram GB as GiB), lifetime [start_tick, stop_tick]; every training event
 * a task (gpus, vram = total GPU memory over its GPUs, mean utilization).
 * tick_s is the length of a tick (the template's is 60 s).  Streams the
 * file (constant memory besides the result). */
int gp_adobe_load(const char *path, double tick_s, gp_env_trace *out,
		  gp_error *err);

/* Turn a job list with an `environment` column into tasks of the
 * environments in out->envs (filled before, e.g. by gp_envs_load): each
 * job is a task (gpus, gpu_mem_mib x gpus, submit, duration, utilization
 * gpu_milli / 1000).  A job whose environment is missing or unknown, or
 * without a fixed duration, is an error located at its trace line. */
int gp_env_trace_from_jobs(const gp_joblist *jobs, gp_env_trace *out,
			   gp_error *err);

/* The state file of `gpuplan env`: bound tasks and heartbeats. */
typedef struct gp_envstate_gpu {
	int node, gpu;          /* node id, local GPU index */
} gp_envstate_gpu;

typedef struct gp_envstate_task {
	char *task;
	int env;
	int ngpus;
	gp_envstate_gpu *gpus;
	int64_t mem_mib;        /* total over its GPUs */
	double at;              /* when it was bound, < 0 unknown */
	double hb;              /* its own last heartbeat, < 0 none */
	int line, col;
} gp_envstate_task;

typedef struct gp_envstate_hb {
	int env;
	double at;              /* last heartbeat */
	int line, col;
} gp_envstate_hb;

typedef struct gp_envstate {
	char *path;
	gp_envstate_task *tasks;
	size_t ntasks, cap;
	gp_envstate_hb *hbs;
	size_t nhbs, caphbs;
} gp_envstate;

void gp_envstate_init(gp_envstate *s);
void gp_envstate_release(gp_envstate *s);
/* Parse path (a missing or empty file is an empty state); names are
 * checked against the cluster and the environments; binding rules are
 * checked by the caller (envs.h, gp_envbind_apply_state). */
int gp_envstate_load(const char *path, const gp_cluster *c,
		     const gp_env_set *envs, gp_envstate *s, gp_error *err);
/* The same on text in memory (path for messages). */
int gp_envstate_parse(const char *text, size_t len, const char *path, const gp_cluster *c,
		      const gp_env_set *envs, gp_envstate *s, gp_error *err);
/* The read-modify-write of env ... --commit, the transaction place
 * --commit uses (gp_txn_begin: path created empty when missing, never
 * removed again; exclusive lock; read under it), then parsed.  On success
 * the caller holds t: gp_envstate_commit writes s and unlocks, gp_txn_abort
 * unlocks only.  On failure nothing is held. */
int gp_envstate_begin(gp_txn *t, const char *path, double timeout_s, const gp_cluster *c,
		      const gp_env_set *envs, gp_envstate *s, gp_error *err);
int gp_envstate_commit(gp_txn *t, const gp_cluster *c, const gp_env_set *envs,
		       const gp_envstate *s, gp_error *err);
/* Heartbeat of env, NULL when none recorded. */
gp_envstate_hb *gp_envstate_hb_of(gp_envstate *s, int env);
/* The last sign of life of task i: the latest of its own heartbeat, its
 * bind time and its environment's heartbeat (the client's, for every
 * task it runs); < 0 when none is known.  A task whose sign is older
 * than the timeout is reclaimed alone: heartbeats are per task. */
double gp_envstate_task_seen(const gp_envstate *s, size_t i);
/* Index of task, -1 when absent. */
long gp_envstate_find_task(const gp_envstate *s, const char *task);
void gp_envstate_remove_task(gp_envstate *s, size_t i);

#endif
