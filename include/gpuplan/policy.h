/* Placement policies: one table of functions, one file each under
 * src/place/.  A policy reads the immutable cluster and the current
 * allocation state and either proposes a placement or says WAIT with a
 * reason.  Policies never print, never exit and never modify the state;
 * the caller applies the placement (gp_placement_apply). */
#ifndef GPUPLAN_POLICY_H
#define GPUPLAN_POLICY_H

#include "gpuplan/alloc.h"
#include "gpuplan/cluster.h"
#include "gpuplan/job.h"
#include "gpuplan/util.h"

#define GP_PLACE_MAX_PARTS 512 /* nodes one job may span */

enum gp_place_result { GP_PLACED = 0, GP_WAIT = 1 };

/* The share of one node a job gets. */
typedef struct gp_place_part {
	int node;
	int ngpus;
	int gpus[GP_TOPO_MAX_GPUS]; /* local GPU indices on that node */
	int milli;                  /* per-GPU share taken (1000 = whole) */
	int64_t mem_mib;            /* per-GPU memory taken */
	int64_t cpu_milli;          /* CPU taken on the node (milli-cores) */
	int64_t host_mem_mib;       /* host memory taken on the node */
	int numa;                   /* chosen NUMA node, -1 unknown */
	int ncpus;
	int *cpus;                  /* CPU numbers taken (owned) */
	int nic;                    /* NIC index on the node, -1 none */
	int vf;                     /* virtual function index, -1 none */
	int role;                   /* 0 worker, 1 parameter server */
} gp_place_part;

typedef struct gp_placement {
	gp_place_part *parts;
	int nparts, cap;
	int bottleneck;             /* enum gp_link_level, or GP_LINK_LEVELS
				     * + switch hops for network paths */
	double ring_bw_gbs;         /* predicted ring bandwidth, 0 unknown */
} gp_placement;

void gp_placement_init(gp_placement *p);
void gp_placement_release(gp_placement *p);
void gp_placement_clear(gp_placement *p);
gp_place_part *gp_placement_add(gp_placement *p, int node);

/* Decision path for `place` output; policies append when non-NULL so that
 * the simulator pays nothing for explanations. */
typedef struct gp_explain {
	char **lines;
	int n, cap;
	char reason[256];           /* why WAIT */
} gp_explain;
void gp_explain_init(gp_explain *e);
void gp_explain_release(gp_explain *e);
void gp_explain_add(gp_explain *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Set the WAIT reason (when e is non-NULL) and return GP_WAIT. */
int gp_explain_wait(gp_explain *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

typedef struct gp_policy_ctx {
	const gp_cluster *cluster;
	const gp_alloc *alloc;
	gp_rng *rng;                /* seeded by the caller */
	gp_explain *explain;        /* NULL when not wanted */
} gp_policy_ctx;

typedef int (*gp_policy_fn)(const gp_policy_ctx *ctx, const gp_job *job,
			    gp_placement *out);

typedef struct gp_policy {
	const char *name;
	const char *summary;
	gp_policy_fn place;
} gp_policy;

const gp_policy *gp_policy_find(const char *name);
const gp_policy *gp_policy_list(int *n);

/* Whether a node may host (part of) the job at all: up, and its GPU model
 * allowed by the job's constraint. */
int gp_node_eligible(const gp_policy_ctx *ctx, int node, const gp_job *job);

/* Policy implementations, one file each (src/place/<name>.c). */
int gp_policy_first_fit(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out);

/* Apply / undo a placement on the state.  apply takes everything or
 * nothing: it returns -1 (state unchanged) when a part does not fit. */
int gp_placement_apply(gp_alloc *a, const gp_placement *p);
void gp_placement_undo(gp_alloc *a, const gp_placement *p);

#endif
