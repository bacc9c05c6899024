/* bestfit: seed patent US 12386666, claims 1-7.
 *
 *   single-card      the fitting GPU with the least remaining share (then
 *                    memory), on the node with the least remaining resource;
 *                    among equals the GPU least connected to the other free
 *                    GPUs, so that NVLink pairs stay whole.
 *   single-node      the node with the least remaining resource after the
 *                    job (milli-GPU), then inside it the GPU group of
 *                    lowest communication expense.
 *   PS-Worker        GPUs inside one CPU sub-tree (socket -> host bridge ->
 *                    PCIe switch -> GPUs; the sub-tree with the least
 *                    remaining GPUs), else one node as above, else several.
 *   Ring-AllReduce   one node whose free GPUs form a closed loop over
 *                    NVLink, best fit among those; else a loop over PCIe on
 *                    one node; else several nodes.
 *   several nodes    the group of nodes under one switch with the same,
 *                    best seed communication weight (fewest switch levels,
 *                    IB before Ethernet), best fit among equal groups
 *                    (gp_place_span).
 * Then the CPU cores nearest to the GPUs and the closest NIC with a VF
 * (gp_place_finish).  Nothing fits: WAIT ("wait for the next dispatch"). */
#include <stdio.h>

#include "gpuplan/place/policy.h"
#include "../place_int.h"

typedef struct cand {
	int node;
	uint64_t mask;
	int64_t key[4];
} cand;

static int cand_better(const cand *a, const cand *b)
{
	int i;

	if (b->node < 0)
		return 1;
	for (i = 0; i < 4; i++)
		if (a->key[i] != b->key[i])
			return a->key[i] < b->key[i];
	return a->node < b->node;
}

static int64_t node_remaining(const gp_policy_ctx *ctx, int node, const gp_job *job)
{
	return ctx->alloc->node_free_milli[node] - (int64_t)job->gpus * job->gpu_milli;
}

/* "Less connected" = larger total expense from GPU g to the other GPUs of
 * avail; negated so that smaller keys win. */
static int64_t isolation_key(const gp_place_type *t, int g, uint64_t avail)
{
	uint64_t others = avail & ~((uint64_t)1 << g);
	int64_t iso = 0;

	for (; others; others &= others - 1)
		iso += t->expense[g][__builtin_ctzll(others)];
	return -iso;
}

/* Whether cd (key[3] not yet known) beats best, by the keys of
 * cand_better; the isolation keys are computed only when the first three
 * tie (most of the cost of a decision when it was computed for every
 * fitting GPU).  *best_iso_known: best.key[3] is set. */
static int single_better(cand *cd, uint64_t avail, const gp_place_type *t, cand *best,
			 uint64_t best_avail, int *best_iso_known, const gp_place_cache *pc)
{
	int i;

	if (best->node < 0)
		return 1;
	for (i = 0; i < 3; i++)
		if (cd->key[i] != best->key[i])
			return cd->key[i] < best->key[i];
	if (!*best_iso_known) {
		best->key[3] = isolation_key(gp_place_type_of(pc, best->node),
					     __builtin_ctzll(best->mask), best_avail);
		*best_iso_known = 1;
	}
	cd->key[3] = isolation_key(t, __builtin_ctzll(cd->mask), avail);
	return cand_better(cd, best);
}

static int single_card(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job,
		       gp_placement *out)
{
	const gp_cluster *c = ctx->cluster;
	const gp_alloc *a = ctx->alloc;
	cand best = { .node = -1 };
	uint64_t best_avail = 0;
	int node, nodes_fit = 0, iso_known = 0;

	for (node = 0; node < c->nnodes; node++) {
		int n;
		uint64_t avail = gp_place_fit_mask(ctx, node, job, &n), rest;
		const gp_place_type *t;

		if (!n || !gp_place_host_fits(ctx, node, job, 1))
			continue;
		nodes_fit++;
		t = gp_place_type_of(pc, node);
		for (rest = avail; rest; rest &= rest - 1) {
			int g = __builtin_ctzll(rest), gg = c->nodes[node].first_gpu + g;
			cand cd = { .node = node, .mask = (uint64_t)1 << g };

			cd.key[0] = a->gpu_free_milli[gg] - job->gpu_milli;
			cd.key[1] = a->gpu_free_mem_mib[gg] - job->gpu_mem_mib;
			cd.key[2] = node_remaining(ctx, node, job);
			if (single_better(&cd, avail, t, &best, best_avail, &iso_known, pc)) {
				iso_known = best.node >= 0 && cd.key[0] == best.key[0] &&
					    cd.key[1] == best.key[1] && cd.key[2] == best.key[2];
				best = cd;
				best_avail = avail;
			}
		}
	}
	if (best.node < 0) {
		gp_explain_add(ctx->explain, "single card: no eligible node has a GPU with %d milli and %lld MiB free",
			       job->gpu_milli, (long long)job->gpu_mem_mib);
		return gp_explain_wait(ctx->explain, "no GPU has %d milli-GPU and %lld MiB free; "
				       "wait for the next dispatch", job->gpu_milli, (long long)job->gpu_mem_mib);
	}
	gp_place_add_part(out, best.node, best.mask, job);
	if (ctx->explain)
		gp_explain_add(ctx->explain, "single card: %d node(s) fit; best fit GPU%d on %s "
			       "(%lld milli left on the GPU, %lld milli-GPU left on the node)",
			       nodes_fit, __builtin_ctzll(best.mask), c->nodes[best.node].name,
			       (long long)best.key[0], (long long)best.key[2]);
	return GP_PLACED;
}

/* One node; ring: closed loops, NVLink loops first. */
static int one_node(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job,
		    int ring, gp_placement *out)
{
	const gp_cluster *c = ctx->cluster;
	cand best = { .node = -1 };
	int node, k = job->gpus, nodes_fit = 0, nv_nodes = 0, most = 0, most_node = -1;
	char gbuf[256];

	for (node = 0; node < c->nnodes; node++) {
		int n;
		uint64_t avail = gp_place_fit_mask(ctx, node, job, &n);
		const gp_place_type *t;
		gp_place_mask_info mi;
		cand cd = { .node = node };

		if (n > most) {
			most = n;
			most_node = node;
		}
		if (n < k || !gp_place_host_fits(ctx, node, job, k))
			continue;
		nodes_fit++;
		cd.key[ring ? 1 : 0] = node_remaining(ctx, node, job);
		if (!ring && best.node >= 0 && cd.key[0] > best.key[0])
			continue; /* cannot win: skip the group search */
		t = gp_place_type_of(pc, node);
		cd.mask = gp_place_best_group(t, avail, k, ring ? GP_GROUP_RING : GP_GROUP_SUM);
		mi = gp_place_mask(t, cd.mask);
		if (ring) {
			cd.key[0] = mi.ring >= 100; /* 0: closed loop over NVLink */
			nv_nodes += mi.ring < 100;
			cd.key[2] = mi.ring;
			cd.key[3] = mi.sum;
		} else {
			cd.key[1] = mi.sum;
			cd.key[2] = mi.max;
		}
		if (cand_better(&cd, &best))
			best = cd;
	}
	if (best.node < 0) {
		if (ctx->explain)
			gp_explain_add(ctx->explain, "one node: no node has %d fitting GPUs (most: %d on %s)",
				       k, most, most_node >= 0 ? c->nodes[most_node].name : "none");
		return GP_WAIT;
	}
	gp_place_add_part(out, best.node, best.mask, job);
	if (ctx->explain) {
		gp_place_fmt_gpus(best.mask, gbuf, sizeof(gbuf));
		if (ring)
			gp_explain_add(ctx->explain, "one node: %d node(s) have %d fitting GPUs, %d of them with a "
				       "closed NVLink loop; %s on %s: loop over %s, best fit (%lld milli-GPU left)",
				       nodes_fit, k, nv_nodes, gbuf, c->nodes[best.node].name,
				       best.key[0] ? "PCIe (no NVLink loop on any node)" : "NVLink",
				       (long long)best.key[1]);
		else
			gp_explain_add(ctx->explain, "one node: %d node(s) have %d fitting GPUs; best fit %s "
				       "(%lld milli-GPU left), lowest-expense group %s (expense %lld)",
				       nodes_fit, k, c->nodes[best.node].name, (long long)best.key[0],
				       gbuf, (long long)best.key[1]);
	}
	return GP_PLACED;
}

/* PS-Worker: all GPUs under one CPU (a CPU sub-tree of one node). */
static int one_subtree(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job,
		       gp_placement *out)
{
	const gp_cluster *c = ctx->cluster;
	const gp_alloc *a = ctx->alloc;
	cand best = { .node = -1 };
	int node, k = job->gpus, s, sub = -1;
	char gbuf[256];

	for (node = 0; node < c->nnodes; node++) {
		int n;
		uint64_t avail = gp_place_fit_mask(ctx, node, job, &n);
		const gp_place_type *t;

		if (n < k || !gp_place_host_fits(ctx, node, job, k))
			continue;
		t = gp_place_type_of(pc, node);
		for (s = 0; s < t->nsubtrees; s++) {
			uint64_t in = avail & t->subtree_mask[s], rest;
			int64_t left = -(int64_t)k * job->gpu_milli;
			gp_place_mask_info mi;
			cand cd = { .node = node };

			if (gp_popcount64(in) < k)
				continue;
			for (rest = in; rest; rest &= rest - 1)
				left += a->gpu_free_milli[c->nodes[node].first_gpu + __builtin_ctzll(rest)];
			cd.mask = gp_place_best_group(t, in, k, GP_GROUP_SUM);
			mi = gp_place_mask(t, cd.mask);
			cd.key[0] = left;
			cd.key[1] = node_remaining(ctx, node, job);
			cd.key[2] = mi.sum;
			cd.key[3] = s;
			if (cand_better(&cd, &best)) {
				best = cd;
				sub = s;
			}
		}
	}
	if (best.node < 0) {
		gp_explain_add(ctx->explain, "one CPU sub-tree: none has %d fitting GPUs", k);
		return GP_WAIT;
	}
	gp_place_add_part(out, best.node, best.mask, job);
	if (ctx->explain) {
		gp_place_fmt_gpus(gp_place_type_of(pc, best.node)->subtree_mask[sub], gbuf, sizeof(gbuf));
		gp_explain_add(ctx->explain, "one CPU sub-tree: %s of %s (%s), best fit (%lld milli-GPU left in it)",
			       sub == 0 ? "the first" : "a", c->nodes[best.node].name, gbuf,
			       (long long)best.key[0]);
	}
	return GP_PLACED;
}

static int several_nodes(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job,
			 int kind, gp_placement *out)
{
	const gp_cluster *c = ctx->cluster;
	int *fit = gp_place_scratch_nodes(pc, 0);
	uint64_t *allow = gp_place_scratch_masks(pc);
	int node;

	for (node = 0; node < c->nnodes; node++) {
		int n;

		allow[node] = gp_place_fit_mask(ctx, node, job, &n);
		fit[node] = n;
		if (n && !gp_place_host_fits(ctx, node, job, n < job->gpus ? n : job->gpus))
			fit[node] = 0;
	}
	return gp_place_span(ctx, pc, job, fit, allow, kind, out);
}

static int run(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job, gp_placement *out)
{
	int k = job->gpus, r;

	if (ctx->explain)
		gp_explain_add(ctx->explain, "bestfit (US 12386666): %s job, %d GPU(s) of %d milli, %lld MiB each",
			       gp_job_type_name(job->type), k, job->gpu_milli, (long long)job->gpu_mem_mib);
	if (k == 1 && job->type != GP_JOB_PS_WORKER)
		return single_card(ctx, pc, job, out);
	switch (job->type) {
	case GP_JOB_RING_ALLREDUCE:
		if (one_node(ctx, pc, job, 1, out) == GP_PLACED)
			return GP_PLACED;
		return several_nodes(ctx, pc, job, GP_GROUP_RING, out);
	case GP_JOB_PS_WORKER:
		if (one_subtree(ctx, pc, job, out) == GP_PLACED ||
		    one_node(ctx, pc, job, 0, out) == GP_PLACED)
			return GP_PLACED;
		return several_nodes(ctx, pc, job, GP_GROUP_SUM, out);
	default:
		r = one_node(ctx, pc, job, 0, out);
		if (r != GP_PLACED)
			return gp_explain_wait(ctx->explain, "no node has %d GPUs with %d milli and %lld MiB free; "
					       "wait for the next dispatch", k, job->gpu_milli,
					       (long long)job->gpu_mem_mib);
		return r;
	}
}

int gp_policy_bestfit(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out)
{
	gp_place_cache *tmp, *pc = gp_place_begin(ctx, job, out, &tmp);

	if (!pc)
		return GP_WAIT;
	return gp_place_end(ctx, pc, tmp, job, out, run(ctx, pc, job, out), -1);
}
