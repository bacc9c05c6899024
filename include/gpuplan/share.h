/* Fractional GPU sharing: the FGD (USENIX ATC'23, "Beware of
 * Fragmentation") experiment on the Alibaba openb trace.
 *
 * Tasks ask for CPU milli-cores, memory and either a share of one GPU
 * (1..999 milli-GPU) or whole GPUs, optionally restricted to GPU models.
 * The inflation experiment replays a shuffled trace, inflated with random
 * copies until the arrived GPU demand reaches X times the cluster's GPU
 * capacity; tasks never leave and a task that does not fit fails at once.
 * After every task the GPU allocation ratio and FGD's fragmentation
 * measure (w.r.t. the trace's typical tasks) are recorded.
 *
 * The semantics follow the artifact (hkust-adsl/kubernetes-scheduler-
 * simulator): node filter, integer 0..100 node scores, ties to the node
 * with the smallest random name prefix, per-policy GPU choice inside the
 * node, and its random stream (Go math/rand, re-implemented in gorand.c)
 * so that a seed replays the artifact's own pod order.
 *
 * This engine keeps its own flat per-node arrays rather than gp_alloc:
 * FGD's hot loop evaluates hypothetical node states (memoised by node
 * state), and openb nodes carry at most 8 GPUs, so a fixed 8-wide row per
 * node is smaller and faster than gp_alloc's general layout. */
#ifndef GPUPLAN_SHARE_H
#define GPUPLAN_SHARE_H

#include <stddef.h>
#include <stdint.h>

#include "gpuplan/error.h"

#define GP_SHARE_MAX_NODE_GPUS 8
#define GP_SHARE_MAX_NODES 100000
#define GP_SHARE_MAX_PODS 1000000
#define GP_SHARE_MAX_MODELS 64
#define GP_SHARE_MAX_FILE (64u << 20)
#define GP_SHARE_MAX_INFLATE 10.0

/* ---- Go-compatible random stream (gorand.c) ---- */
typedef struct gp_gorand {
	int tap, feed;
	uint64_t vec[607];
} gp_gorand;

void gp_gorand_seed(gp_gorand *g, int64_t seed);
uint64_t gp_gorand_uint64(gp_gorand *g);
int64_t gp_gorand_int63(gp_gorand *g);
int32_t gp_gorand_int31n(gp_gorand *g, int32_t n);
int gp_gorand_intn(gp_gorand *g, int n);              /* Go rand.Intn */
void gp_gorand_shuffle_idx(gp_gorand *g, int32_t *a, int n); /* rand.Shuffle */
void gp_gorand_perm(gp_gorand *g, int32_t *m, int n);  /* rand.Perm */

/* ---- inputs (openb CSV dialects, share_csv.c) ---- */
typedef struct gp_share_nodes {
	char *path;
	int n;
	char **names;
	int64_t *cpu_milli;    /* CPU capacity, milli-cores */
	int64_t *mem_mib;      /* host memory, MiB */
	int *ngpus;            /* 0..GP_SHARE_MAX_NODE_GPUS */
	int *model;            /* index into models, -1 when no GPU model */
	char **models;         /* distinct GPU model names, first-seen order */
	int nmodels;
} gp_share_nodes;

typedef struct gp_share_pods {
	char *path;
	size_t n;
	char **names;
	int64_t *cpu_milli;    /* CPU request, milli-cores */
	int64_t *mem_mib;      /* memory request, MiB */
	int *ngpus;            /* GPUs requested, 0 = CPU-only */
	int *gpu_milli;        /* per-GPU share 1..1000 (0 when ngpus == 0) */
	char **gpu_spec;       /* allowed models "A|B", "" = any */
	int64_t *line;         /* source line */
} gp_share_pods;

void gp_share_nodes_init(gp_share_nodes *n);
void gp_share_nodes_release(gp_share_nodes *n);
void gp_share_pods_init(gp_share_pods *p);
void gp_share_pods_release(gp_share_pods *p);

/* openb node list: sn,cpu_milli,memory_mib,gpu,model (header required). */
int gp_share_nodes_load(const char *path, gp_share_nodes *n, gp_error *err);
int gp_share_nodes_parse(const char *text, size_t len, const char *path,
			 gp_share_nodes *n, gp_error *err);
/* openb pod list: name,cpu_milli,memory_mib,num_gpu,gpu_milli[,gpu_spec,
 * qos,pod_phase,creation_time,deletion_time,scheduled_time]. */
int gp_share_pods_load(const char *path, gp_share_pods *p, gp_error *err);
int gp_share_pods_parse(const char *text, size_t len, const char *path,
			gp_share_pods *p, gp_error *err);

/* openb's rules for one task's GPU request, shared by the pod-list reader
 * above and the `openb` trace dialect: as the artifact's converter, a
 * CPU-only task (num_gpu 0) has share 0 and a share above 1000 is clamped
 * to 1000; a GPU task needs a share, and a multi-GPU task whole GPUs.
 * Returns 0 with *gpu_milli normalised, or -1 with the reason in why. */
int gp_share_openb_gpu_request(long num_gpu, long *gpu_milli, char *why,
			       size_t whylen);
/* Whether a gpu_spec value (len bytes) means "any GPU model": empty, or
 * pandas' "nan". */
int gp_share_openb_spec_any(const char *s, size_t len);

/* ---- policies ---- */
enum gp_share_policy {
	GP_SHARE_RANDOM = 0,
	GP_SHARE_DOTPROD,
	GP_SHARE_GPU_CLUSTERING,
	GP_SHARE_GPU_PACKING,
	GP_SHARE_BESTFIT,
	GP_SHARE_FGD,
	GP_SHARE_NPOLICIES
};
const char *gp_share_policy_name(int policy);   /* "fgd", ... */
const char *gp_share_policy_label(int policy);  /* "FGD", "BestFit", ... */
int gp_share_policy_parse(const char *name);    /* -1 when unknown */

/* ---- the inflation experiment (share.c) ---- */
typedef struct gp_share_opts {
	int policy;            /* enum gp_share_policy */
	double inflate;        /* target arrived GPU demand / capacity; <= 0: none */
	int64_t seed;
	int shuffle;           /* 1: shuffle the trace (the artifact's runs) */
	int record;            /* keep the per-task event log */
} gp_share_opts;

typedef struct gp_share_event {
	int32_t pod;           /* index into the pod list (source pod) */
	int32_t copy;          /* -1 original, else k of "<name>-tuned-<k>" */
	int32_t node;          /* chosen node, -1 failed */
	uint8_t gpus;          /* bit mask of GPUs taken on that node */
	int64_t used_milli;    /* allocated milli-GPU after the event */
	int64_t arrived_milli; /* arrived milli-GPU including this task */
	double frag_milli;     /* FGD fragmentation after the event */
	double idle_milli;     /* unallocated milli-GPU after the event */
} gp_share_event;

typedef struct gp_share_result {
	int policy;
	int64_t seed;
	double inflate;
	int total_gpus;
	int64_t total_milli;   /* total_gpus * 1000 */
	size_t ntasks, scheduled, failed;
	size_t ntypical;       /* typical task shapes of the fragmentation measure */
	int64_t used_milli, arrived_milli;
	double frag_milli;
	gp_share_event *events; /* ntasks entries when opts.record */
	/* Curves indexed by arrived percent 0..npoints-1, discretised like the
	 * artifact's analysis scripts (rows whose arrived ratio rounds to x, else
	 * those within x +- 1; points with neither repeat the previous one). */
	int npoints;
	double *alloc_pct;     /* allocated milli-GPU, % of capacity */
	double *frag_pct;      /* fragmented milli-GPU, % of capacity */
	double *frag_ratio_pct; /* fragmented / idle milli-GPU, % */
	unsigned char *point_measured; /* 0 where a point was carried over */
} gp_share_result;

void gp_share_result_init(gp_share_result *r);
void gp_share_result_release(gp_share_result *r);

int gp_share_run(const gp_share_nodes *nodes, const gp_share_pods *pods,
		 const gp_share_opts *opts, gp_share_result *res, gp_error *err);

#endif
