/* nic-affinity: the RoCE "GPU card allocation" seed.
 *
 * Per node the GPUs form resource classes by their NUMA-local RDMA NIC
 * (link level NODE or nearer; the class is named by the NIC's subnet when
 * the node type gives one, else by its device name, so that classes match
 * across nodes).  Every node with fitting GPUs votes for its class with
 * the most of them; the class with the most votes (ties: the most fitting
 * GPUs cluster-wide, then the first class) is requested.  Every worker of
 * the job then takes GPUs of that class only, a VF of its affine NIC, and
 * so stays in that NIC's subnet.  When the voted class cannot hold the job
 * the job waits: the seed requests that class, it does not fall back. */
#include <stdio.h>
#include <string.h>

#include "gpuplan/place/policy.h"
#include "../place_int.h"

static uint64_t class_mask(const gp_place_type *t, uint64_t avail, int cls)
{
	uint64_t m = 0, rest;

	for (rest = avail; rest; rest &= rest - 1) {
		int g = __builtin_ctzll(rest);

		if (t->nic_class[g] == cls)
			m |= (uint64_t)1 << g;
	}
	return m;
}

/* The vote of nodes (weight of them) whose fitting GPUs are avail. */
static void vote_mask(const gp_place_type *t, uint64_t avail, int64_t weight, int64_t *votes,
		      int64_t *free_gpus)
{
	int ids[GP_TOPO_MAX_GPUS], cnt[GP_TOPO_MAX_GPUS], nid = 0, best = -1, i;
	uint64_t rest;

	for (rest = avail; rest; rest &= rest - 1) {
		int cls = t->nic_class[__builtin_ctzll(rest)];

		if (cls < 0)
			continue;
		for (i = 0; i < nid && ids[i] != cls; i++)
			;
		if (i == nid) {
			ids[nid] = cls;
			cnt[nid++] = 0;
		}
		cnt[i]++;
	}
	for (i = 0; i < nid; i++) {
		free_gpus[ids[i]] += cnt[i] * weight;
		if (best < 0 || cnt[i] > cnt[best] || (cnt[i] == cnt[best] && ids[i] < ids[best]))
			best = i;
	}
	if (best >= 0)
		votes[ids[best]] += weight;
}

/* Every node's vote through the index: a regular node of one mask votes
 * like all of them (its fitting GPUs are the mask), the others one by
 * one.  0 when the index cannot answer. */
static int vote_ix(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job,
		   int64_t *votes, int64_t *free_gpus)
{
	const gp_alloc_index *ix = gp_place_ix(ctx, job);
	int ti, r, m;

	if (!ix)
		return 0;
	for (ti = 0; ti < ix->ntypes; ti++) {
		const gp_aix_type *xt = &ix->types[ti];
		const gp_place_type *pt = &pc->types[ti];

		if (!xt->nnodes || !gp_place_type_ok(ctx, ti, job))
			continue;
		for (r = gp_nodeset_next(&xt->odd, 0); r >= 0; r = gp_nodeset_next(&xt->odd, r + 1)) {
			int n;
			uint64_t avail = gp_place_fit_mask(ctx, xt->nodes[r], job, &n);

			if (n)
				vote_mask(pt, avail, 1, votes, free_gpus);
		}
		if (!xt->indexed || job->gpu_mem_mib > xt->mem_cap || pt->ngpus != xt->ngpus)
			continue;
		for (m = gp_place_ix_next_mask(xt, 1); m > 0; m = gp_place_ix_next_mask(xt, m + 1))
			vote_mask(pt, (uint64_t)m, xt->by_mask[m].count, votes, free_gpus);
	}
	return 1;
}

static int vote(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job,
		int64_t *votes, int64_t *free_gpus)
{
	const gp_cluster *c = ctx->cluster;
	int ncls = gp_place_nclasses(pc), node, i, chosen = -1, via_ix;

	for (i = 0; i < ncls; i++)
		votes[i] = free_gpus[i] = 0;
	via_ix = vote_ix(ctx, pc, job, votes, free_gpus);
	for (node = 0; !via_ix && node < c->nnodes; node++) {
		int n;
		uint64_t avail = gp_place_fit_mask(ctx, node, job, &n);

		if (n)
			vote_mask(gp_place_type_of(pc, node), avail, 1, votes, free_gpus);
	}
	for (i = 0; i < ncls; i++)
		if (votes[i] > 0 && (chosen < 0 || votes[i] > votes[chosen] ||
				     (votes[i] == votes[chosen] && free_gpus[i] > free_gpus[chosen])))
			chosen = i;
	return chosen;
}

typedef struct class_ud {
	const gp_job *job;
	int cls, kind;
} class_ud;

/* place_in_class's one-node ranking for gp_place_ix_one: the fewest class
 * GPUs left, the least milli-GPU left, the cheapest group. */
static uint64_t class_key(const gp_place_type *t, int node, uint64_t avail, int64_t remaining, void *p,
			  double key[GP_PLACE_KEYS])
{
	const class_ud *ud = p;
	uint64_t allow = class_mask(t, avail, ud->cls), m;
	int fit = gp_popcount64(allow), k = ud->job->gpus;

	if (fit < k)
		return 0;
	m = gp_place_best_group(t, allow, k, ud->kind);
	key[0] = fit - k;
	key[1] = (double)remaining;
	key[2] = ud->kind == GP_GROUP_RING ? gp_place_mask(t, m).ring : gp_place_mask(t, m).sum;
	key[3] = 0;
	(void)node;
	return m;
}

static int place_in_class(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job,
			  int cls, gp_placement *out)
{
	const gp_cluster *c = ctx->cluster;
	int *fit = gp_place_scratch_nodes(pc, 0);
	uint64_t *allow = gp_place_scratch_masks(pc);
	int node, k = job->gpus, best = -1, scan;
	int kind = job->type == GP_JOB_RING_ALLREDUCE || job->type == GP_JOB_LLM ? GP_GROUP_RING
										 : GP_GROUP_SUM;
	class_ud ud = { job, cls, kind };
	int64_t bk0 = 0, bk1 = 0, bk2 = 0;
	uint64_t bmask = 0;
	char gbuf[256];

	/* One node through the index (no explanation: bk0 unused); the scan
	 * when it cannot answer or a job that may span needs every fit[]. */
	best = gp_place_ix_one(ctx, pc, job, class_key, &ud, &bmask);
	scan = best < -1 || (best == -1 && gp_place_may_span(job));
	if (scan)
		best = -1;
	for (node = 0; scan && node < c->nnodes; node++) {
		int n;
		uint64_t avail = gp_place_fit_mask(ctx, node, job, &n);
		const gp_place_type *t;
		int64_t k0, k1, k2;
		uint64_t m;

		fit[node] = 0;
		allow[node] = 0;
		if (!n)
			continue;
		t = gp_place_type_of(pc, node);
		allow[node] = class_mask(t, avail, cls);
		fit[node] = gp_popcount64(allow[node]);
		if (fit[node] && !gp_place_host_fits(ctx, node, job, fit[node] < k ? fit[node] : k))
			fit[node] = 0;
		if (fit[node] < k)
			continue;
		/* One node: best fit inside the class, then the cheapest group. */
		m = gp_place_best_group(t, allow[node], k, kind);
		k0 = fit[node] - k;
		k1 = ctx->alloc->node_free_milli[node] - (int64_t)k * job->gpu_milli;
		k2 = kind == GP_GROUP_RING ? gp_place_mask(t, m).ring : gp_place_mask(t, m).sum;
		if (best < 0 || k0 < bk0 || (k0 == bk0 && (k1 < bk1 || (k1 == bk1 && k2 < bk2)))) {
			best = node;
			bk0 = k0;
			bk1 = k1;
			bk2 = k2;
			bmask = m;
		}
	}
	if (best >= 0) {
		gp_place_add_part(out, best, bmask, job);
		if (ctx->explain) {
			gp_place_fmt_gpus(bmask, gbuf, sizeof(gbuf));
			gp_explain_add(ctx->explain, "one node: %s, %s of class %s (best fit: %lld class GPU(s) left)",
				       c->nodes[best].name, gbuf, gp_place_class_name(pc, cls), (long long)bk0);
		}
		return GP_PLACED;
	}
	if (!gp_place_may_span(job)) {
		gp_explain_add(ctx->explain, "one node: no node has %d fitting GPUs of class %s", k,
			       gp_place_class_name(pc, cls));
		return gp_explain_wait(ctx->explain, "class %s (chosen by vote) has no node with %d free GPUs; "
				       "wait for the next dispatch", gp_place_class_name(pc, cls), k);
	}
	gp_explain_add(ctx->explain, "one node: no node has %d fitting GPUs of class %s; trying several nodes",
		       k, gp_place_class_name(pc, cls));
	return gp_place_span(ctx, pc, job, fit, allow, kind, 0, out);
}

static int run(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job, gp_placement *out)
{
	int64_t *votes = gp_place_class_votes(pc), *free_gpus = gp_place_class_free(pc);
	int cls, i, ncls = gp_place_nclasses(pc);

	if (ncls == 0) {
		gp_explain_wait(ctx->explain, "no node type has a NUMA-local RDMA NIC");
		return -1;
	}
	cls = vote(ctx, pc, job, votes, free_gpus);
	if (ctx->explain) {
		for (i = 0; i < ncls; i++)
			gp_explain_add(ctx->explain, "class %s: %lld vote(s), %lld fitting GPU(s)",
				       gp_place_class_name(pc, i), (long long)votes[i], (long long)free_gpus[i]);
	}
	if (cls < 0) {
		gp_explain_wait(ctx->explain, "no node has a fitting GPU with a NUMA-local RDMA NIC; "
				"wait for the next dispatch");
		return -1;
	}
	gp_explain_add(ctx->explain, "class %s requested (most votes)", gp_place_class_name(pc, cls));
	if (place_in_class(ctx, pc, job, cls, out) != GP_PLACED)
		return -1;
	return cls;
}

int gp_policy_nic_affinity(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out)
{
	gp_place_cache *tmp, *pc = gp_place_begin(ctx, job, out, &tmp);
	int cls;

	if (!pc)
		return GP_WAIT;
	if (ctx->explain)
		gp_explain_add(ctx->explain, "nic-affinity (RoCE seed): %s job, %d GPU(s)",
			       gp_job_type_name(job->type), job->gpus);
	cls = run(ctx, pc, job, out);
	return gp_place_end(ctx, pc, tmp, job, out,
			    cls >= 0 && out->nparts > 0 ? GP_PLACED : GP_WAIT, cls);
}
