/* What a placement means for the job's communication: the worst link its
 * ring crosses and the predicted ring bandwidth, for `place` output, the
 * policies' gp_placement.bottleneck / ring_bw_gbs and reports.  One source
 * of truth: the perf model's fabric of the placement (perf.h,
 * gp_perf_fabric_of) and its flat-ring bandwidth (gp_perf_coll_eval with
 * GP_ALGO_RING); nothing here has link constants of its own. */
#ifndef GPUPLAN_PLACE_H
#define GPUPLAN_PLACE_H

#include "gpuplan/model/cluster.h"
#include "gpuplan/place/policy.h"

typedef struct gp_place_summary {
	int nodes, gpus;
	int bottleneck;        /* as gp_placement.bottleneck: enum gp_link_level,
				* or GP_LINK_LEVELS + switch levels (network) */
	double ring_gbs;       /* predicted ring bandwidth per GPU, GB/s; 0 with
				* fewer than 2 GPUs or unconnected nodes */
	double intra_gbs;      /* slowest intra-node ring (perf: bw_intra) */
	double net_gbs;        /* slowest node's usable NICs (perf: bw_node_net),
				* 0 on one node */
	int net_levels;        /* switch levels between the farthest nodes;
				* 0 on one node, -1 not connected */
	int net_ib;            /* that path is all InfiniBand */
	int net_tech;          /* enum gp_fabric_tech of the slowest attachment */
	char name[48];         /* link level "NV18", "PIX", ..., "SYS"; "none"
				* for one GPU (nothing to communicate); for
				* the network "NET:<tech>:<levels>", e.g.
				* "NET:ib-ndr:1"; "NET:unconnected" */
	char detail[160];      /* the perf model's words on the bottleneck */
} gp_place_summary;

/* Summarize p on c; also sets p->bottleneck and p->ring_bw_gbs.  Never
 * fails: a placement the perf model refuses (nodes not connected, no
 * network attachment) gets name "NET:unconnected", ring 0 and the reason
 * in detail.  No allocation. */
void gp_place_summarize(const gp_cluster *c, gp_placement *p, gp_place_summary *s);
/* The same; with names == 0 the strings stay empty (no formatting: the
 * policies' hot path when nobody asked for an explanation). */
void gp_place_summarize_fields(const gp_cluster *c, gp_placement *p, gp_place_summary *s,
			       int names);

/* The parts of p as the perf model (perf.h) should see them, which takes
 * every part for a node of its own: a parameter-server part that shares
 * its node with a worker part joins that part (its GPUs after the
 * worker's), as gp_place_summarize rates the placement; every other part
 * as it is.  Into view (initialised by the caller; cleared first).
 * Returns the number of server parts joined: 0 when view is p's parts
 * unchanged. */
int gp_place_perf_view(const gp_placement *p, gp_placement *view);

/* Whether job can never run on c, even with every node up and idle: no
 * GPU of an allowed model, more memory per GPU than any allowed GPU has,
 * more GPUs than the allowed ones, or a one-node job larger than every
 * node.  Returns 1 with the reason in why, else 0.  Policy-specific limits
 * are the caller's to probe (run the policy on an idle gp_alloc). */
int gp_place_never(const gp_cluster *c, const gp_job *job, char *why, size_t size);

/* The idle cluster every can-it-ever-run question is asked on: nothing
 * allocated, every node up.  a is the caller's (gp_alloc_release). */
int gp_place_idle_init(gp_alloc *a, const gp_cluster *c);

/* Whether job can ever run on the cluster under policy: what the cluster
 * has (gp_place_never), then the policy on the idle cluster ctx->alloc
 * (gp_place_idle_init; left as it was).  p is scratch.  GP_EVER, or why
 * not with the reason in why (the policy's explanation when
 * ctx->explain is given). */
enum gp_place_ever_answer {
	GP_EVER = 0,
	GP_NEVER_CLUSTER,       /* the cluster lacks it (gp_place_never) */
	GP_NEVER_POLICY,        /* the policy places it nowhere, even idle */
};
int gp_place_ever(const gp_policy *policy, const gp_policy_ctx *ctx, const gp_job *job,
		  gp_placement *p, char *why, size_t size);

#endif
