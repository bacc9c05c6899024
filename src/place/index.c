/* What the policies ask of the allocation index (alloc_index.h). */
#include <limits.h>
#include <string.h>

#include "gpuplan/place/policy.h"
#include "place_int.h"

int gp_place_type_ok(const gp_policy_ctx *ctx, int ti, const gp_job *job)
{
	return gp_place_accepts(ctx, job, ctx->cluster->types[ti].gpu_model);
}

int gp_place_ix_first(const gp_policy_ctx *ctx, const gp_aix_type *xt, const gp_nodeset *s,
		      const gp_job *job, int k, int before)
{
	int r;

	for (r = gp_nodeset_next(s, 0); r >= 0; r = gp_nodeset_next(s, r + 1)) {
		int node = xt->nodes[r];

		if (node >= before)
			return -1;
		if (ctx->alloc->node_state[node] == GP_NODE_UP && gp_place_host_fits(ctx, node, job, k))
			return node;
	}
	return -1;
}

int gp_place_ix_by_free(const gp_policy_ctx *ctx, const gp_job *job, int k, int most)
{
	const gp_alloc_index *ix = gp_place_ix(ctx, job);
	const gp_alloc *a = ctx->alloc;
	int ti, r, m, best = -1;
	int64_t bk = 0;

	if (!ix)
		return -2;
	for (ti = 0; ti < ix->ntypes; ti++) {
		const gp_aix_type *xt = &ix->types[ti];

		if (!xt->nnodes || !gp_place_type_ok(ctx, ti, job))
			continue;
		for (r = gp_nodeset_next(&xt->odd, 0); r >= 0; r = gp_nodeset_next(&xt->odd, r + 1)) {
			int n, node = xt->nodes[r];
			int64_t key;

			gp_place_fit_mask(ctx, node, job, &n);
			if (n < k || !gp_place_host_fits(ctx, node, job, k))
				continue;
			key = most ? -a->node_free_milli[node] : a->node_free_milli[node];
			if (best < 0 || key < bk || (key == bk && node < best)) {
				best = node;
				bk = key;
			}
		}
		if (!xt->indexed || job->gpu_mem_mib > xt->mem_cap || k > xt->ngpus)
			continue;
		for (m = gp_place_ix_next_mask(xt, 1); m > 0; m = gp_place_ix_next_mask(xt, m + 1)) {
			int w = gp_popcount64((uint64_t)m), node;
			int64_t key = (int64_t)GP_MILLI * (most ? -w : w);

			if (w < k || (best >= 0 && key > bk))
				continue;
			node = gp_place_ix_first(ctx, xt, &xt->by_mask[m], job, k,
						 best >= 0 && key == bk ? best : INT_MAX);
			if (node >= 0) {
				best = node;
				bk = key;
			}
		}
	}
	return best;
}

/* -1, 0, 1 as key a ranks before, with, after key b. */
static int keys_order(const double *a, const double *b)
{
	int i;

	for (i = 0; i < GP_PLACE_KEYS; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

int gp_place_ix_one(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job,
		    gp_place_key_fn key, void *ud, uint64_t *mask)
{
	const gp_alloc_index *ix = gp_place_ix(ctx, job);
	const gp_alloc *a = ctx->alloc;
	int ti, r, m, best = -1, k = job->gpus;
	double bk[GP_PLACE_KEYS] = { 0 }, kk[GP_PLACE_KEYS];

	if (!ix)
		return -2;
	for (ti = 0; ti < ix->ntypes; ti++) {
		const gp_aix_type *xt = &ix->types[ti];
		const gp_place_type *pt = &pc->types[ti];

		if (!xt->nnodes || !gp_place_type_ok(ctx, ti, job))
			continue;
		for (r = gp_nodeset_next(&xt->odd, 0); r >= 0; r = gp_nodeset_next(&xt->odd, r + 1)) {
			int n, node = xt->nodes[r], c;
			uint64_t avail = gp_place_fit_mask(ctx, node, job, &n), got;

			if (n < k || !gp_place_host_fits(ctx, node, job, k) ||
			    !(got = key(pt, node, avail, a->node_free_milli[node] - (int64_t)k * job->gpu_milli,
					ud, kk)))
				continue;
			c = best < 0 ? -1 : keys_order(kk, bk);
			if (c < 0 || (c == 0 && node < best)) {
				best = node;
				memcpy(bk, kk, sizeof(bk));
				*mask = got;
			}
		}
		if (!xt->indexed || job->gpu_mem_mib > xt->mem_cap || k > xt->ngpus || pt->ngpus != xt->ngpus)
			continue;
		for (m = gp_place_ix_next_mask(xt, 1); m > 0; m = gp_place_ix_next_mask(xt, m + 1)) {
			int w = gp_popcount64((uint64_t)m), node, c;
			uint64_t got;

			if (w < k || !(got = key(pt, -1, (uint64_t)m,
						 (int64_t)GP_MILLI * w - (int64_t)k * job->gpu_milli, ud, kk)))
				continue;
			c = best < 0 ? -1 : keys_order(kk, bk);
			if (c > 0)
				continue;
			node = gp_place_ix_first(ctx, xt, &xt->by_mask[m], job, k, c == 0 ? best : INT_MAX);
			if (node >= 0) {
				best = node;
				memcpy(bk, kk, sizeof(bk));
				*mask = got;
			}
		}
	}
	return best;
}

int gp_place_ix_lowest(const gp_policy_ctx *ctx, const gp_job *job, int k)
{
	const gp_alloc_index *ix = gp_place_ix(ctx, job);
	int ti, r, m, best = INT_MAX;

	if (!ix)
		return -2;
	for (ti = 0; ti < ix->ntypes; ti++) {
		const gp_aix_type *xt = &ix->types[ti];

		if (!xt->nnodes || !gp_place_type_ok(ctx, ti, job))
			continue;
		for (r = gp_nodeset_next(&xt->odd, 0); r >= 0 && xt->nodes[r] < best;
		     r = gp_nodeset_next(&xt->odd, r + 1)) {
			int n, node = xt->nodes[r];

			gp_place_fit_mask(ctx, node, job, &n);
			if (n >= k && gp_place_host_fits(ctx, node, job, k))
				best = node;
		}
		if (!xt->indexed || job->gpu_mem_mib > xt->mem_cap || k > xt->ngpus)
			continue;
		for (m = gp_place_ix_next_mask(xt, 1); m > 0; m = gp_place_ix_next_mask(xt, m + 1)) {
			int node;

			if (gp_popcount64((uint64_t)m) < k)
				continue;
			node = gp_place_ix_first(ctx, xt, &xt->by_mask[m], job, k, best);
			if (node >= 0)
				best = node;
		}
	}
	return best == INT_MAX ? -1 : best;
}
