/* Placement policies: one table of functions, one file each under
 * src/place/.  A policy reads the immutable cluster and the current
 * allocation state and either proposes a placement or says WAIT with a
 * reason.  Policies never print, never exit and never modify the state;
 * the caller applies the placement (gp_placement_apply). */
#ifndef GPUPLAN_POLICY_H
#define GPUPLAN_POLICY_H

#include "gpuplan/model/alloc.h"
#include "gpuplan/model/cluster.h"
#include "gpuplan/model/job.h"
#include "gpuplan/model/placement.h"
#include "gpuplan/util/util.h"

/* Per-node-type tables (expense, inferred PCIe levels, CPU sub-trees,
 * closed loops, NIC classes) and per-switch fabric domains that the
 * topology-aware policies precompute once per cluster, plus scratch
 * space.  Build one with gp_place_cache_new and pass it in the context;
 * when ctx->cache is NULL a policy builds a temporary one per call (fine
 * for one `place`, too slow for a simulator).  A cache must not be used by
 * two policy calls at once (its scratch space is shared). */
typedef struct gp_place_cache gp_place_cache;

typedef struct gp_policy_ctx {
	const gp_cluster *cluster;
	const gp_alloc *alloc;
	gp_rng *rng;                /* seeded by the caller */
	gp_explain *explain;        /* NULL when not wanted */
	gp_place_cache *cache;      /* NULL: built per call */
} gp_policy_ctx;

typedef int (*gp_policy_fn)(const gp_policy_ctx *ctx, const gp_job *job,
			    gp_placement *out);

/* What a policy needs around it (gp_policy.flags). */
enum {
	/* Jobs' shares and memory come from the predictors (the bundled
	 * operator-profile models), not from their requests. */
	GP_POLICY_PREDICTED = 1 << 0,
	/* Draws from ctx->rng: placements depend on the seed. */
	GP_POLICY_SEEDED = 1 << 1,
};

typedef struct gp_policy {
	const char *name;
	const char *summary;
	gp_policy_fn place;
	unsigned flags;         /* GP_POLICY_* */
} gp_policy;

const gp_policy *gp_policy_find(const char *name);
const gp_policy *gp_policy_list(int *n);

/* Whether a node may host (part of) the job at all: up, and its GPU model
 * allowed by the job's constraint. */
int gp_node_eligible(const gp_policy_ctx *ctx, int node, const gp_job *job);

/* Policy implementations, one file each (src/place/<name>.c). */
int gp_policy_first_fit(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out);
int gp_policy_bestfit(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out);
int gp_policy_nic_affinity(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out);
int gp_policy_random(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out);
int gp_policy_spread(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out);
int gp_policy_packing(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out);
int gp_policy_gpu_pair_score(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out);
int gp_policy_bw_max(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out);
int gp_policy_predicted_share(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out);

/* Build once per cluster and pass in the context (see above). */
gp_place_cache *gp_place_cache_new(const gp_cluster *c);
void gp_place_cache_free(gp_place_cache *pc);
/* on: fill gp_placement.bottleneck and ring_bw_gbs (the perf model's
 * summary) only for jobs whose run time depends on their iteration time;
 * a simulation never reads them for fixed-duration jobs (left unknown). */
void gp_place_cache_summary_timed(gp_place_cache *pc, int on);
/* RoCE classes: their count and name (subnet or NIC device). */
int gp_place_nclasses(const gp_place_cache *pc);
const char *gp_place_class_name(const gp_place_cache *pc, int cls);

#endif
