/* Worker replacement (CN "fault node switching in distributed training"): when a
 * member of a running distributed job fails, replace it by an idle node
 * (or GPUs) chosen by predicted iteration time, or rebuild the ring with
 * the survivors.
 *
 * The rule, for a job whose member M failed (a node's GPUs of the job, or
 * some of them):
 *  - candidates: every alive node with k idle GPUs that fit the job (k =
 *    the job's GPUs lost), the job's model constraint and host share,
 *    connected to the survivors; on each, the k GPUs whose ring the
 *    performance model rates fastest, as bw-max ranks GPU sets, counting
 *    the job's surviving GPUs of M's role on that node (which they join);
 *  - for each candidate, the job's predicted iteration time with the
 *    candidate in M's place: the slowest member's compute + communication,
 *    where a member's communication is max(P / up, P / down), P the
 *    parameter bytes, up the bandwidth towards its successor on the ring
 *    and down from its predecessor (for PS-Worker: towards and from the
 *    parameter servers; a server moves W x P / S over its own NICs, from
 *    workers on its node at their ring's rate), over
 *    the links the performance model gives (NICs between nodes, the
 *    member's own ring inside a node); compute is the performance model's
 *    per-iteration compute on one GPU of that model (a measured profile
 *    when one exists, else FLOPs / (peak x efficiency));
 *  - eligible: predicted <= the job's average iteration time before the
 *    failure; the eligible candidate with the least peak FLOPS wins (ties:
 *    smaller predicted time, then node order); with none eligible, the
 *    smallest predicted time (ties: less peak, node order);
 *  - no candidate: drop M and rebuild the ring with the survivors
 *    (shrunk); no survivor, or nothing left to run on: none.
 *  - the model state (parameters + optimizer state, from the memory
 *    model) is copied from the surviving member with the fastest link to
 *    the replacement (on one node: each new GPU from the member's GPU with
 *    the fastest path to it, as the perf model rates a GPU pair): copy
 *    time = state bytes / that bandwidth.
 *
 * Jobs without a model size (plain traces) have no communication term and
 * a compute time proportional to 1 / peak FLOPS (1 s on the failed GPU's
 * model), so the weakest GPU at least as fast as the lost one wins. */
#ifndef GPUPLAN_PLACE_REPLACE_H
#define GPUPLAN_PLACE_REPLACE_H

#include <stddef.h>
#include <stdint.h>

#include "gpuplan/io/state.h"
#include "gpuplan/model/job.h"
#include "gpuplan/place/policy.h"
#include "gpuplan/util/error.h"

enum gp_replace_status { GP_REPLACE_REPLACED = 0, GP_REPLACE_SHRUNK, GP_REPLACE_NONE };
const char *gp_replace_status_name(int status);

typedef struct gp_replace_cand {
	int node;
	int ngpus;
	int gpus[GP_TOPO_MAX_GPUS];
	double iteration_s;      /* the job's predicted iteration with it */
	double peak_tflops;      /* of its GPU model, in the job's precision */
	int eligible;
} gp_replace_cand;

typedef struct gp_replace_opts {
	double before_s;         /* the job's measured average iteration time
				  * before the failure; <= 0: predicted by the
				  * same model on the placement as it was */
	int keep_candidates;     /* fill out->cands */
} gp_replace_opts;

typedef struct gp_replace_result {
	int status;              /* enum gp_replace_status */
	int failed_node;
	int nfailed;             /* GPUs of the job lost */
	int failed_gpus[GP_TOPO_MAX_GPUS];
	gp_replace_cand chosen;  /* status REPLACED */
	gp_replace_cand *cands;  /* keep_candidates: every candidate, node order */
	size_t ncands, cap;
	size_t considered;       /* candidates evaluated (also without keep) */
	double iteration_s_before;
	double iteration_s_after;/* predicted; 0 for NONE */
	double state_bytes;      /* parameters + optimizer state */
	double copy_s;           /* state copy to the replacement, 0 otherwise */
	int copy_from;           /* node the state comes from, -1 */
	int modelled;            /* 1: compute and communication from the
				  * performance model; 0: relative 1 / peak */
	/* What changes on the state: give back `removed`, then take `added`
	 * (empty for SHRUNK and NONE). */
	gp_placement removed, added;
	char reason[256];
} gp_replace_result;

void gp_replace_result_init(gp_replace_result *r);
void gp_replace_result_release(gp_replace_result *r);

/* Decide for job, running on placement p, whose GPUs failed_mask (bit g
 * = local GPU g; 0 = all of them) of failed_node failed.  ctx->alloc is
 * the state with the job still holding p; the failed GPUs are never
 * candidates, nor is a node that is not up.  GP_EINPUT when the job holds
 * none of the failed GPUs. */
int gp_replace_decide(const gp_policy_ctx *ctx, const gp_job *job,
		      const gp_placement *p, int failed_node, uint64_t failed_mask,
		      const gp_replace_opts *opts, gp_replace_result *out,
		      gp_error *err);

/* The placement after the decision: p without the failed GPUs, with the
 * replacement in the failed member's place on the ring (merged into the
 * job's part when it lands on a node the job already uses).  out is
 * cleared first. */
void gp_replace_rebuild(const gp_placement *p, const gp_replace_result *r,
			gp_placement *out);

/* The placement of job as an allocation-state file records it: one part
 * per entry, in file order (the ring order); for a PS-Worker job the first
 * `ps` GPUs are the parameter servers.  Returns the number of entries
 * found (0: the job holds nothing). */
int gp_replace_job_placement(const gp_state *s, const gp_job *job, gp_placement *out);

#endif
