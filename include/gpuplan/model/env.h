/* Development environments (quota binding): an environment holds a quota (GPU
 * count and GPU memory) instead of GPUs; its tasks (notebook cells,
 * training runs) get real GPUs only while they run.  This header is the
 * data: environments, the node pools they may use, and the tasks of an
 * environment trace.  Binding and simulation live in envs.h. */
#ifndef GPUPLAN_MODEL_ENV_H
#define GPUPLAN_MODEL_ENV_H

#include <stddef.h>
#include <stdint.h>

#include "gpuplan/model/cluster.h"
#include "gpuplan/util/error.h"

#define GP_ENV_MAX_ENVS 1000000       /* environments in one file or trace */
#define GP_ENV_MAX_TASKS 50000000     /* tasks in one trace */
#define GP_ENV_MAX_QUOTA_GPUS 4096
#define GP_ENV_NAME_MAX 256

/* Where an environment may bind GPUs: the nodes carrying a label value,
 * or a list of nodes.  Resolved against the cluster at load time. */
typedef struct gp_env_pool {
	char *spec;             /* as written: "pool=train" or "n1,n2" */
	int *nodes;             /* sorted node ids */
	int nnodes;
} gp_env_pool;

typedef struct gp_env {
	char *name;
	int quota_gpus;         /* GPUs it may have bound at once */
	int64_t quota_mem_mib;  /* GPU memory its running tasks may use */
	double start, stop;     /* lifetime, seconds; stop < start when not
				   given (then the span of its tasks) */
	int pool;               /* index into gp_env_set.pools, -1 = any node */
	int line, col;          /* where it is declared (0 when built) */
} gp_env;

typedef struct gp_env_set {
	char *source;           /* file it came from, for messages */
	gp_env *envs;
	size_t n, cap;
	gp_env_pool *pools;
	int npools, capools;
	int32_t *hash;          /* open addressing over names, -1 empty */
	size_t hash_cap;
} gp_env_set;

void gp_env_set_init(gp_env_set *s);
void gp_env_set_release(gp_env_set *s);
/* Append an environment (name copied); its index, or -1 when the name is
 * taken.  pool = -1, no lifetime. */
int gp_env_set_add(gp_env_set *s, const char *name, int quota_gpus,
		   int64_t quota_mem_mib);
/* Index of the environment called name, -1 when absent. */
int gp_env_set_find(const gp_env_set *s, const char *name);
/* Add a pool (spec copied, nodes moved in: sorted and deduplicated);
 * an equal pool already present is reused.  Returns its index. */
int gp_env_set_add_pool(gp_env_set *s, const char *spec, int *nodes,
			int nnodes);

/* One task of an environment: it needs `gpus` distinct GPUs and `mem_mib`
 * GPU memory in total (spread evenly over its GPUs) from `start` for
 * `duration` seconds, and keeps its GPUs busy at `util` (0..1). */
typedef struct gp_env_task {
	double start, duration;
	int64_t mem_mib;
	int32_t env;
	int32_t gpus;
	float util;
} gp_env_task;

/* An environment trace: environments and their tasks, sorted by
 * (environment, start, file order). */
typedef struct gp_env_trace {
	gp_env_set envs;
	gp_env_task *tasks;
	size_t ntasks, cap;
	int serial;             /* tasks of one environment run one after
				   another (notebook cells): a task starts no
				   earlier than the previous one's end */
	char *format;           /* dialect name */
	char *title;            /* workload title when the file has one */
	size_t cpu_only_tasks;  /* tasks without GPUs (kept, never bound) */
} gp_env_trace;

void gp_env_trace_init(gp_env_trace *t);
void gp_env_trace_release(gp_env_trace *t);
gp_env_task *gp_env_trace_push(gp_env_trace *t);
/* Sort tasks by (env, start, order) and fill lifetimes that were not
 * given from the tasks (first start .. last planned end). */
void gp_env_trace_finish(gp_env_trace *t);

/* Reserved GPU-seconds of an environment: quota x lifetime. */
double gp_env_reserved_gpu_seconds(const gp_env *e);

#endif
