/* spread: Kubernetes' LeastAllocated idea.  A single-card or single-node
 * job goes to the node with the most free GPU share that holds it, on its
 * least-loaded fitting GPUs; a Ring-AllReduce or PS-Worker job puts one
 * GPU at a time on the node with the most fitting GPUs left, so that its
 * workers spread over as many nodes as possible.  No topology. */
#include "gpuplan/place/policy.h"
#include "../place_int.h"

/* The k fitting GPUs with the most free share (then lowest index). */
uint64_t gp_place_by_share(const gp_alloc *a, int first_gpu, uint64_t avail, int k, int most)
{
	uint64_t m = 0;
	int i;

	for (i = 0; i < k; i++) {
		uint64_t rest = avail & ~m;
		int best = -1;

		for (; rest; rest &= rest - 1) {
			int g = __builtin_ctzll(rest);

			if (best < 0 || (most ? a->gpu_free_milli[first_gpu + g] > a->gpu_free_milli[first_gpu + best] :
					 a->gpu_free_milli[first_gpu + g] < a->gpu_free_milli[first_gpu + best]))
				best = g;
		}
		if (best < 0)
			break;
		m |= (uint64_t)1 << best;
	}
	return m;
}

/* The takes of "one GPU at a time on the node with the most fitting GPUs
 * left, lowest index on ties", in O(nodes): the loop drains the highest
 * level of remaining GPUs in node order before the next, so every node
 * above the level L where the k-th GPU falls is cut down to L, and the
 * remaining picks go to the first nodes (in node order) still holding L.
 * Returns the nodes used; *got the GPUs taken (< k when too few fit). */
static int spread_fill(int nnodes, const int *fit, int *take, int k, int *got)
{
	int ge[GP_TOPO_MAX_GPUS + 2] = { 0 }, node, v, level, rem, nodes = 0;
	long sum = 0;

	for (node = 0; node < nnodes; node++) {
		take[node] = 0;
		ge[fit[node] > GP_TOPO_MAX_GPUS ? GP_TOPO_MAX_GPUS : fit[node]]++;
	}
	for (v = GP_TOPO_MAX_GPUS - 1; v >= 1; v--)
		ge[v] += ge[v + 1];   /* nodes with at least v */
	/* Draining level v (down to v - 1) takes ge[v] GPUs. */
	for (level = GP_TOPO_MAX_GPUS; level >= 1 && sum + ge[level] < k; level--)
		sum += ge[level];
	if (level < 1) {
		level = 0;
		rem = 0;
		*got = (int)sum;
	} else {
		rem = k - (int)sum; /* picks taken while at `level` */
		*got = k;
	}
	for (node = 0; node < nnodes; node++) {
		if (fit[node] > level)
			take[node] = fit[node] - level;
		if (rem > 0 && level > 0 && fit[node] >= level) {
			take[node]++;
			rem--;
		}
		nodes += take[node] > 0;
	}
	return nodes;
}

int gp_policy_spread(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out)
{
	const gp_cluster *c = ctx->cluster;
	const gp_alloc *a = ctx->alloc;
	gp_place_cache *tmp, *pc;
	int node, k = job->gpus, best = -1, scan, r = GP_PLACED;
	int *fit, *take;
	uint64_t *allow;

	pc = gp_place_begin(ctx, job, out, &tmp);
	if (!pc)
		return GP_WAIT;
	fit = gp_place_scratch_nodes(pc, 0);
	take = gp_place_scratch_nodes(pc, 1);
	allow = gp_place_scratch_masks(pc);
	/* A one-node job through the index when it can; a job that may span
	 * nodes always spreads: the full scan. */
	best = gp_place_may_span(job) ? -2 : gp_place_ix_by_free(ctx, job, k, 1);
	if (best >= 0) {
		int n;

		allow[best] = gp_place_fit_mask(ctx, best, job, &n);
	}
	scan = best < -1;
	if (scan)
		best = -1;
	for (node = 0; scan && node < c->nnodes; node++) {
		int n;

		allow[node] = gp_place_fit_mask(ctx, node, job, &n);
		fit[node] = gp_place_host_max(ctx, node, job, n);
		take[node] = 0;
		if (fit[node] >= k && gp_place_host_fits(ctx, node, job, k) &&
		    (best < 0 || a->node_free_milli[node] > a->node_free_milli[best]))
			best = node;
	}
	if (!gp_place_may_span(job)) {
		if (best < 0) {
			r = gp_explain_wait(ctx->explain, "no node has %d free GPU(s) that fit", k);
		} else {
			gp_place_add_part(out, best, gp_place_by_share(a, c->nodes[best].first_gpu,
								      allow[best], k, 1), job);
			gp_explain_add(ctx->explain, "spread: least-allocated node %s", c->nodes[best].name);
		}
	} else if (gp_place_reach_limit(ctx, pc->sw_free, fit, k) != GP_PLACED) {
		r = GP_WAIT;
	} else {
		int got, nodes = spread_fill(c->nnodes, fit, take, k, &got);

		if (nodes > GP_PLACE_MAX_PARTS) {
			/* The one-at-a-time loop stops at the cap: replay it. */
			for (node = 0; node < c->nnodes; node++)
				take[node] = 0;
			nodes = got = 0;
		}
		for (; got < k; got++) {
			int pick = -1;

			for (node = 0; node < c->nnodes; node++)
				if (fit[node] - take[node] > 0 &&
				    (pick < 0 || fit[node] - take[node] > fit[pick] - take[pick]))
					pick = node;
			if (pick < 0 || (take[pick] == 0 && nodes >= GP_PLACE_MAX_PARTS))
				break;
			nodes += take[pick] == 0;
			take[pick]++;
		}
		if (got < k) {
			r = gp_explain_wait(ctx->explain, "only %d of %d GPUs free", got, k);
		} else {
			for (node = 0; node < c->nnodes; node++)
				if (take[node])
					gp_place_add_part(out, node, gp_place_by_share(a, c->nodes[node].first_gpu,
										      allow[node], take[node], 1), job);
			gp_explain_add(ctx->explain, "spread: one GPU at a time on the node with the most free GPUs: "
				       "%d node(s)", out->nparts);
		}
	}
	return gp_place_end(ctx, pc, tmp, job, out, r, -1);
}
