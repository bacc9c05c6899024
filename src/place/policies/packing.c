/* packing: Kubernetes' MostAllocated idea.  The job goes to the fullest
 * node that holds it (least free GPU share), on its most-loaded fitting
 * GPUs (shares stack up); a Ring-AllReduce or PS-Worker job that fits no
 * single node fills the nodes with the fewest fitting GPUs first.  No
 * topology. */
#include "gpuplan/place/policy.h"
#include "../place_int.h"

int gp_policy_packing(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out)
{
	const gp_cluster *c = ctx->cluster;
	const gp_alloc *a = ctx->alloc;
	gp_place_cache *tmp, *pc;
	int node, k = job->gpus, best = -1, scan, r = GP_PLACED, v, got = 0;
	int *fit;
	uint64_t *allow;

	pc = gp_place_begin(ctx, job, out, &tmp);
	if (!pc)
		return GP_WAIT;
	fit = gp_place_scratch_nodes(pc, 0);
	allow = gp_place_scratch_masks(pc);
	/* One node through the index when it can; the full scan when the
	 * job may span nodes and no single node holds it. */
	best = gp_place_ix_by_free(ctx, job, k, 0);
	if (best >= 0) {
		int n;

		allow[best] = gp_place_fit_mask(ctx, best, job, &n);
	}
	scan = best < -1 || (best == -1 && gp_place_may_span(job));
	if (scan)
		best = -1;
	for (node = 0; scan && node < c->nnodes; node++) {
		int n;

		allow[node] = gp_place_fit_mask(ctx, node, job, &n);
		fit[node] = gp_place_host_max(ctx, node, job, n);
		if (fit[node] >= k && gp_place_host_fits(ctx, node, job, k) &&
		    (best < 0 || a->node_free_milli[node] < a->node_free_milli[best]))
			best = node;
	}
	if (best >= 0) {
		gp_place_add_part(out, best, gp_place_by_share(a, c->nodes[best].first_gpu,
							      allow[best], k, 0), job);
		gp_explain_add(ctx->explain, "packing: most-allocated node that holds the job: %s",
			       c->nodes[best].name);
	} else if (!gp_place_may_span(job)) {
		r = gp_explain_wait(ctx->explain, "no node has %d free GPU(s) that fit", k);
	} else if (gp_place_reach_limit(ctx, pc->sw_free, fit, k) != GP_PLACED) {
		r = GP_WAIT;
	} else {
		for (v = 1; v <= GP_TOPO_MAX_GPUS && got < k; v++)
			for (node = 0; node < c->nnodes && got < k; node++) {
				int t;

				if (fit[node] != v || out->nparts >= GP_PLACE_MAX_PARTS)
					continue;
				t = v < k - got ? v : k - got;
				gp_place_add_part(out, node, gp_place_by_share(a, c->nodes[node].first_gpu,
									      allow[node], t, 0), job);
				got += t;
			}
		if (got < k)
			r = gp_explain_wait(ctx->explain, "only %d of %d GPUs free", got, k);
		else
			gp_explain_add(ctx->explain, "packing: fullest nodes first, %d node(s)", out->nparts);
	}
	return gp_place_end(ctx, pc, tmp, job, out, r, -1);
}
