/* bw-max: the GPU set with the highest ring bandwidth as the perf model
 * rates it (gp_perf_ring_gbs through the place cache's per-subset table:
 * NVLink channels, PCIe pairs without peer access staged through host
 * memory and sharing a PCIe switch's uplink and the node's host memory,
 * the link between the sockets).  The node whose best set is fastest
 * wins; ties: least remaining GPU share, then lowest summed expense.
 * Jobs that fit no node span the switch group whose network the perf
 * model rates fastest (the slowest node's NICs times the fabric's
 * efficiency at the group's switch levels: static hashing over uplink
 * tiers, congestion), then the fewest switch levels (gp_place_span).
 *
 * What the placement reports (gp_placement.bottleneck / ring_bw_gbs,
 * `place` output) is the perf model's prediction for the chosen GPUs
 * (gp_place_finish -> gp_place_summarize); within one node it is the
 * ranking figure itself. */
#include "gpuplan/place/policy.h"
#include "../place_int.h"

/* The ranking below for gp_place_ix_one (ud: the job). */
static uint64_t bw_key(const gp_place_type *t, int node, uint64_t avail, int64_t remaining, void *ud,
		       double key[GP_PLACE_KEYS])
{
	const gp_job *job = ud;
	uint64_t m = gp_place_best_group(t, avail, job->gpus, GP_GROUP_BW);
	gp_place_mask_info mi = gp_place_mask(t, m);

	key[0] = job->gpus == 1 ? 0 : -gp_place_ring_gbs(t, m);
	key[1] = (double)remaining;
	key[2] = (double)mi.sum;
	key[3] = 0;
	(void)node;
	return m;
}

int gp_policy_bw_max(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out)
{
	const gp_cluster *c = ctx->cluster;
	gp_place_cache *tmp, *pc;
	int node, k = job->gpus, best = -1, r = GP_PLACED;
	double bestbw = 0;
	int64_t bestrem = 0;
	uint32_t bestsum = 0;
	uint64_t bestm = 0;
	int *fit;
	uint64_t *allow;

	pc = gp_place_begin(ctx, job, out, &tmp);
	if (!pc)
		return GP_WAIT;
	fit = gp_place_scratch_nodes(pc, 0);
	allow = gp_place_scratch_masks(pc);
	best = gp_place_ix_one(ctx, pc, job, bw_key, (void *)job, &bestm);
	if (best >= 0) {
		gp_place_add_part(out, best, bestm, job);
		return gp_place_end(ctx, pc, tmp, job, out, r, -1);
	}
	if (best == -1 && !gp_place_may_span(job))
		return gp_place_end(ctx, pc, tmp, job, out, GP_WAIT, -1); /* no explanation wanted */
	if (best == -1 && (r = gp_place_span_ix(ctx, pc, job, GP_GROUP_BW, 0, out)) >= 0)
		return gp_place_end(ctx, pc, tmp, job, out, r, -1);
	r = GP_PLACED;
	best = -1;
	for (node = 0; node < c->nnodes; node++) {
		int n;
		const gp_place_type *t;
		gp_place_mask_info mi;
		uint64_t m;
		double bw;
		int64_t rem;

		allow[node] = gp_place_fit_mask(ctx, node, job, &n);
		fit[node] = n;
		if (n && !gp_place_host_fits(ctx, node, job, n < k ? n : k))
			fit[node] = 0;
		if (fit[node] < k || !gp_place_host_fits(ctx, node, job, k))
			continue;
		t = gp_place_type_of(pc, node);
		m = gp_place_best_group(t, allow[node], k, GP_GROUP_BW);
		mi = gp_place_mask(t, m);
		bw = k == 1 ? 0 : gp_place_ring_gbs(t, m);
		rem = ctx->alloc->node_free_milli[node] - (int64_t)k * job->gpu_milli;
		if (best < 0 || bw > bestbw || (bw == bestbw && (rem < bestrem ||
		    (rem == bestrem && mi.sum < bestsum)))) {
			best = node;
			bestbw = bw;
			bestrem = rem;
			bestsum = mi.sum;
			bestm = m;
		}
	}
	if (best >= 0) {
		gp_place_add_part(out, best, bestm, job);
		gp_explain_add(ctx->explain, "bw-max: %s, best ring %.1f GB/s (perf model)", c->nodes[best].name, bestbw);
	} else if (!gp_place_may_span(job)) {
		r = gp_explain_wait(ctx->explain, "no node has %d free GPU(s) that fit", k);
	} else {
		r = gp_place_span(ctx, pc, job, fit, allow, GP_GROUP_BW, 0, out);
	}
	return gp_place_end(ctx, pc, tmp, job, out, r, -1);
}
