/* random: a uniformly random node among those that hold the whole job,
 * and random fitting GPUs on it; Ring-AllReduce and PS-Worker jobs that
 * fit no single node take random GPUs of random nodes.  All draws come
 * from ctx->rng (seeded by the caller), so runs repeat exactly. */
#include "gpuplan/place/policy.h"
#include "../place_int.h"

static uint64_t random_gpus(gp_rng *rng, uint64_t avail, int k)
{
	int idx[GP_TOPO_MAX_GPUS], n = 0, i;
	uint64_t m = 0;

	for (; avail; avail &= avail - 1)
		idx[n++] = __builtin_ctzll(avail);
	for (i = 0; i < k && i < n; i++) { /* partial Fisher-Yates */
		int j = i + (int)gp_rng_below(rng, (uint64_t)(n - i)), t = idx[i];

		idx[i] = idx[j];
		idx[j] = t;
		m |= (uint64_t)1 << idx[i];
	}
	return m;
}

int gp_policy_random(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out)
{
	const gp_cluster *c = ctx->cluster;
	gp_rng local, *rng = ctx->rng;
	gp_place_cache *tmp, *pc;
	int node, k = job->gpus, pick = -1, r = GP_PLACED, got = 0;
	uint64_t pick_mask = 0, cnt = 0;
	int *fit;
	uint64_t *allow;

	pc = gp_place_begin(ctx, job, out, &tmp);
	if (!pc)
		return GP_WAIT;
	if (!rng) {
		gp_rng_seed(&local, 1);
		rng = &local;
	}
	fit = gp_place_scratch_nodes(pc, 0);
	allow = gp_place_scratch_masks(pc);
	for (node = 0; node < c->nnodes; node++) {
		int n;

		allow[node] = gp_place_fit_mask(ctx, node, job, &n);
		fit[node] = gp_place_host_max(ctx, node, job, n);
		if (n >= k && gp_place_host_fits(ctx, node, job, k) &&
		    gp_rng_below(rng, ++cnt) == 0) { /* reservoir sampling */
			pick = node;
			pick_mask = allow[node];
		}
	}
	if (pick >= 0) {
		gp_place_add_part(out, pick, random_gpus(rng, pick_mask, k), job);
		gp_explain_add(ctx->explain, "random: %s, one of %llu node(s) that hold the job",
			       c->nodes[pick].name, (unsigned long long)cnt);
	} else if (!gp_place_may_span(job)) {
		r = gp_explain_wait(ctx->explain, "no node has %d free GPU(s) that fit", k);
	} else if ((r = gp_place_reach_limit(ctx, pc->sw_free, fit, k)) == GP_PLACED) {
		while (got < k && out->nparts < GP_PLACE_MAX_PARTS) {
			int take;

			pick = -1;
			cnt = 0;
			for (node = 0; node < c->nnodes; node++)
				if (fit[node] > 0 && gp_place_host_fits(ctx, node, job, 1) &&
				    gp_rng_below(rng, ++cnt) == 0)
					pick = node;
			if (pick < 0)
				break;
			take = fit[pick] < k - got ? fit[pick] : k - got;
			gp_place_add_part(out, pick, random_gpus(rng, allow[pick], take), job);
			fit[pick] = 0;
			got += take;
		}
		if (got < k)
			r = gp_explain_wait(ctx->explain, "only %d of %d GPUs free", got, k);
		else
			gp_explain_add(ctx->explain, "random: %d random node(s)", out->nparts);
	}
	return gp_place_end(ctx, pc, tmp, job, out, r, -1);
}
