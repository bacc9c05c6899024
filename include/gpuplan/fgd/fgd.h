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
#ifndef GPUPLAN_FGD_H
#define GPUPLAN_FGD_H

#include <stddef.h>
#include <stdint.h>

#include "gpuplan/io/openb.h"
#include "gpuplan/util/error.h"

#define GP_FGD_MAX_INFLATE 10.0

/* ---- Go-compatible random stream (gorand.c) ---- */
typedef struct gp_gorand {
	int tap, feed;
	uint64_t vec[607];
} gp_gorand;

void gp_gorand_seed(gp_gorand *g, int64_t seed);
int64_t gp_gorand_int63(gp_gorand *g);
int gp_gorand_intn(gp_gorand *g, int n);              /* Go rand.Intn */
void gp_gorand_shuffle_idx(gp_gorand *g, int32_t *a, int n); /* rand.Shuffle */
void gp_gorand_perm(gp_gorand *g, int32_t *m, int n);  /* rand.Perm */

/* ---- policies ---- */
enum gp_fgd_policy {
	GP_FGD_RANDOM = 0,
	GP_FGD_DOTPROD,
	GP_FGD_GPU_CLUSTERING,
	GP_FGD_GPU_PACKING,
	GP_FGD_BESTFIT,
	GP_FGD_FGD,
	GP_FGD_NPOLICIES
};
const char *gp_fgd_policy_name(int policy);   /* "fgd", ... */
const char *gp_fgd_policy_label(int policy);  /* "FGD", "BestFit", ... */
int gp_fgd_policy_parse(const char *name);    /* -1 when unknown */

/* ---- the inflation experiment (share.c) ---- */
typedef struct gp_fgd_opts {
	int policy;            /* enum gp_fgd_policy */
	double inflate;        /* target arrived GPU demand / capacity; <= 0: none */
	int64_t seed;
	int shuffle;           /* 1: shuffle the trace (the artifact's runs) */
	int record;            /* keep the per-task event log */
} gp_fgd_opts;

typedef struct gp_fgd_event {
	int32_t pod;           /* index into the pod list (source pod) */
	int32_t copy;          /* -1 original, else k of "<name>-tuned-<k>" */
	int32_t node;          /* chosen node, -1 failed */
	uint8_t gpus;          /* bit mask of GPUs taken on that node */
	int64_t used_milli;    /* allocated milli-GPU after the event */
	int64_t arrived_milli; /* arrived milli-GPU including this task */
	double frag_milli;     /* FGD fragmentation after the event */
	double idle_milli;     /* unallocated milli-GPU after the event */
} gp_fgd_event;

typedef struct gp_fgd_result {
	int policy;
	int64_t seed;
	double inflate;
	int total_gpus;
	int64_t total_milli;   /* total_gpus * 1000 */
	size_t ntasks, scheduled, failed;
	size_t ntypical;       /* typical task shapes of the fragmentation measure */
	int64_t used_milli, arrived_milli;
	double frag_milli;
	gp_fgd_event *events; /* ntasks entries when opts.record */
	/* Curves indexed by arrived percent 0..npoints-1, discretised like the
	 * artifact's analysis scripts (rows whose arrived ratio rounds to x, else
	 * those within x +- 1; points with neither repeat the previous one). */
	int npoints;
	double *alloc_pct;     /* allocated milli-GPU, % of capacity */
	double *frag_pct;      /* fragmented milli-GPU, % of capacity */
	double *frag_ratio_pct; /* fragmented / idle milli-GPU, % */
	unsigned char *point_measured; /* 0 where a point was carried over */
} gp_fgd_result;

void gp_fgd_result_init(gp_fgd_result *r);
void gp_fgd_result_release(gp_fgd_result *r);

int gp_fgd_run(const gp_openb_nodes *nodes, const gp_openb_pods *pods,
		 const gp_fgd_opts *opts, gp_fgd_result *res, gp_error *err);

#endif
