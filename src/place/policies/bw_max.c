/* bw-max: the GPU set with the highest bottleneck bandwidth as NCCL sees
 * it.  A set's bandwidth is that of the best closed loop through it: the
 * minimum over the loop's edges of NV<n> = n x NCCL's per-link GB/s
 * (20 for V100/A100, 20.6 for H100), PCIe within a CPU = the PCIe x16
 * rate of the GPU's generation (12 GB/s Gen3, doubling per generation),
 * across CPUs = min(PCIe, the link between the sockets: the node type's
 * socket_gbs, else 16 GB/s, the perf model's figure).  The node whose
 * best set is fastest wins; ties: least remaining GPU share, then lowest
 * summed expense.  Jobs that fit no node span the group of nodes with the fewest
 * switch levels (gp_place_span), whose NIC rate then bounds the ring.
 *
 * This loop bandwidth is only the ranking key: it comes from the place
 * cache's per-subset table, cheap enough to evaluate on every node.  What
 * the placement reports (gp_placement.bottleneck / ring_bw_gbs, `place`
 * output) is the perf model's prediction (gp_place_finish ->
 * gp_place_summarize), which also counts NCCL's several NVLink channels,
 * host staging over PHB/NODE/SYS and the NICs; where the two differ, the
 * perf model wins. */
#include "gpuplan/place/policy.h"
#include "../place_int.h"

/* The ranking below for gp_place_ix_one (ud: the job). */
static uint64_t bw_key(const gp_place_type *t, int node, uint64_t avail, int64_t remaining, void *ud,
		       double key[GP_PLACE_KEYS])
{
	const gp_job *job = ud;
	uint64_t m = gp_place_best_group(t, avail, job->gpus, GP_GROUP_RING);
	gp_place_mask_info mi = gp_place_mask(t, m);

	key[0] = job->gpus == 1 ? 0 : -(double)gp_place_expense_bw(t, mi.ring);
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
	float bestbw = 0;
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
	if (best == -1 && (r = gp_place_span_ix(ctx, pc, job, GP_GROUP_RING, 0, out)) >= 0)
		return gp_place_end(ctx, pc, tmp, job, out, r, -1);
	r = GP_PLACED;
	best = -1;
	for (node = 0; node < c->nnodes; node++) {
		int n;
		const gp_place_type *t;
		gp_place_mask_info mi;
		uint64_t m;
		float bw;
		int64_t rem;

		allow[node] = gp_place_fit_mask(ctx, node, job, &n);
		fit[node] = n;
		if (n && !gp_place_host_fits(ctx, node, job, n < k ? n : k))
			fit[node] = 0;
		if (fit[node] < k || !gp_place_host_fits(ctx, node, job, k))
			continue;
		t = gp_place_type_of(pc, node);
		m = gp_place_best_group(t, allow[node], k, GP_GROUP_RING);
		mi = gp_place_mask(t, m);
		bw = k == 1 ? 0 : gp_place_expense_bw(t, mi.ring);
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
		gp_explain_add(ctx->explain, "bw-max: %s, best loop %.1f GB/s (ranking estimate)", c->nodes[best].name, bestbw);
	} else if (!gp_place_may_span(job)) {
		r = gp_explain_wait(ctx->explain, "no node has %d free GPU(s) that fit", k);
	} else {
		r = gp_place_span(ctx, pc, job, fit, allow, GP_GROUP_RING, 0, out);
	}
	return gp_place_end(ctx, pc, tmp, job, out, r, -1);
}
