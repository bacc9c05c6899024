/* bestfit: US 12386666, claims 1-7.
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
 *                    IB before Ethernet), best fit among equal groups;
 *                    inside it the combination of nodes with the fewest
 *                    fitting GPUs left over (an exact fit over partly used
 *                    nodes before breaking up a free one), then the fewest
 *                    nodes (gp_place_span).
 * Then the CPU cores nearest to the GPUs and the closest NIC with a VF
 * (gp_place_finish).  Nothing fits: WAIT ("wait for the next dispatch"). */
#include <limits.h>
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

/* The best single card so far.  Its isolation key (key[3]) is computed
 * only when another candidate ties on the first three keys (computing it
 * for every fitting GPU was most of a decision). */
typedef struct single_best {
	cand c;
	uint64_t avail;   /* fitting GPUs of its node */
	int iso_known;
} single_best;

/* Compare cd (key[3] known when cd_iso) with the best: < 0 better, 0
 * equal up to the node, > 0 worse. */
static int single_cmp(cand *cd, int cd_iso, uint64_t avail, const gp_place_type *t,
		      single_best *b, const gp_place_cache *pc)
{
	int i;

	if (b->c.node < 0)
		return -1;
	for (i = 0; i < 3; i++)
		if (cd->key[i] != b->c.key[i])
			return cd->key[i] < b->c.key[i] ? -1 : 1;
	if (!b->iso_known) {
		b->c.key[3] = isolation_key(gp_place_type_of(pc, b->c.node), __builtin_ctzll(b->c.mask),
					    b->avail);
		b->iso_known = 1;
	}
	if (!cd_iso)
		cd->key[3] = isolation_key(t, __builtin_ctzll(cd->mask), avail);
	return cd->key[3] < b->c.key[3] ? -1 : cd->key[3] > b->c.key[3];
}

/* Every fitting GPU of one node against the best; whether the node fits. */
static int single_node(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job, int node,
		       single_best *b)
{
	const gp_alloc *a = ctx->alloc;
	int n, first = ctx->cluster->nodes[node].first_gpu;
	uint64_t avail = gp_place_fit_mask(ctx, node, job, &n), rest;
	const gp_place_type *t;

	if (!n || !gp_place_host_fits(ctx, node, job, 1))
		return 0;
	t = gp_place_type_of(pc, node);
	for (rest = avail; rest; rest &= rest - 1) {
		int g = __builtin_ctzll(rest), r;
		cand cd = { .node = node, .mask = (uint64_t)1 << g };

		cd.key[0] = a->gpu_free_milli[first + g] - job->gpu_milli;
		cd.key[1] = a->gpu_free_mem_mib[first + g] - job->gpu_mem_mib;
		cd.key[2] = node_remaining(ctx, node, job);
		r = single_cmp(&cd, 0, avail, t, b, pc);
		if (r < 0 || (r == 0 && node < b->c.node)) {
			b->iso_known = b->c.node >= 0 && cd.key[0] == b->c.key[0] &&
				       cd.key[1] == b->c.key[1] && cd.key[2] == b->c.key[2];
			b->c = cd;
			b->avail = avail;
		}
	}
	return 1;
}

/* Whether type ti's nodes may be taken by free-GPU mask for this job:
 * indexed, its place tables alike, the job's memory within a GPU's. */
static int ix_type(const gp_aix_type *xt, const gp_place_type *pt, const gp_job *job)
{
	return xt->indexed && pt->sc_gpu && pt->ngpus == xt->ngpus && job->gpu_mem_mib <= xt->mem_cap;
}

/* single_card through the index: the odd nodes one by one, the regular
 * ones per free-GPU mask (every node of one mask ranks alike: key 0 is a
 * whole GPU less the share, key 1 the GPU's memory left, key 2 the node's
 * free GPUs less the share). */
static void single_ix(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job,
		      const gp_alloc_index *ix, single_best *b)
{
	int ti, r, m;

	for (ti = 0; ti < ix->ntypes; ti++) {
		const gp_aix_type *xt = &ix->types[ti];
		const gp_place_type *pt = &pc->types[ti];

		if (!xt->nnodes || !gp_place_type_ok(ctx, ti, job))
			continue;
		for (r = gp_nodeset_next(&xt->odd, 0); r >= 0; r = gp_nodeset_next(&xt->odd, r + 1))
			single_node(ctx, pc, job, xt->nodes[r], b);
		if (!ix_type(xt, pt, job))
			continue;
		for (m = gp_place_ix_next_mask(xt, 1); m > 0; m = gp_place_ix_next_mask(xt, m + 1)) {
			cand cd = { .node = -1, .mask = (uint64_t)1 << pt->sc_gpu[m] };
			int node, before = INT_MAX;

			cd.key[0] = GP_MILLI - job->gpu_milli;
			cd.key[1] = xt->mem_cap - job->gpu_mem_mib;
			cd.key[2] = (int64_t)GP_MILLI * gp_popcount64((uint64_t)m) - job->gpu_milli;
			cd.key[3] = -pt->sc_iso[m];
			r = single_cmp(&cd, 1, (uint64_t)m, pt, b, pc);
			if (r > 0)
				continue;
			if (r == 0)
				before = b->c.node;
			node = gp_place_ix_first(ctx, xt, &xt->by_mask[m], job, 1, before);
			if (node < 0)
				continue;
			cd.node = node;
			b->c = cd;
			b->avail = (uint64_t)m;
			b->iso_known = 1;
		}
	}
}

static int single_card(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job,
		       gp_placement *out)
{
	const gp_cluster *c = ctx->cluster;
	const gp_alloc_index *ix = gp_place_ix(ctx, job);
	single_best b = { .c = { .node = -1 } };
	int node, nodes_fit = 0;

	if (ix)
		single_ix(ctx, pc, job, ix, &b);
	else
		for (node = 0; node < c->nnodes; node++)
			nodes_fit += single_node(ctx, pc, job, node, &b);
	if (b.c.node < 0) {
		gp_explain_add(ctx->explain, "single card: no eligible node has a GPU with %d milli and %lld MiB free",
			       job->gpu_milli, (long long)job->gpu_mem_mib);
		return gp_explain_wait(ctx->explain, "no GPU has %d milli-GPU and %lld MiB free; "
				       "wait for the next dispatch", job->gpu_milli, (long long)job->gpu_mem_mib);
	}
	gp_place_add_part(out, b.c.node, b.c.mask, job);
	if (ctx->explain)
		gp_explain_add(ctx->explain, "single card: %d node(s) fit; best fit GPU%d on %s "
			       "(%lld milli left on the GPU, %lld milli-GPU left on the node)",
			       nodes_fit, __builtin_ctzll(b.c.mask), c->nodes[b.c.node].name,
			       (long long)b.c.key[0], (long long)b.c.key[2]);
	return GP_PLACED;
}

/* The keys of a one-node group on free GPUs avail (mask of a node with
 * `remaining` milli-GPU left after the job); whether its best loop is
 * closed over NVLink. */
static int one_node_keys(const gp_place_type *t, uint64_t avail, int k, int ring, int64_t remaining,
			 cand *cd)
{
	gp_place_mask_info mi;

	cd->key[ring ? 1 : 0] = remaining;
	cd->mask = gp_place_best_group(t, avail, k, ring ? GP_GROUP_RING : GP_GROUP_SUM);
	mi = gp_place_mask(t, cd->mask);
	if (ring) {
		cd->key[0] = mi.ring >= 100; /* 0: closed loop over NVLink */
		cd->key[2] = mi.ring;
		cd->key[3] = mi.sum;
	} else {
		cd->key[1] = mi.sum;
		cd->key[2] = mi.max;
	}
	return mi.ring < 100;
}

typedef struct key_ud {
	const gp_policy_ctx *ctx;
	const gp_job *job;
	int ring;
} key_ud;

/* one_node's ranking for gp_place_ix_one. */
static uint64_t one_key(const gp_place_type *t, int node, uint64_t avail, int64_t remaining, void *p,
			double key[GP_PLACE_KEYS])
{
	const key_ud *ud = p;
	cand cd = { .node = node };
	int i;

	one_node_keys(t, avail, ud->job->gpus, ud->ring, remaining, &cd);
	for (i = 0; i < GP_PLACE_KEYS; i++)
		key[i] = (double)cd.key[i];
	return cd.mask;
}

/* One node; ring: closed loops, NVLink loops first. */
static int one_node(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job,
		    int ring, gp_placement *out)
{
	const gp_cluster *c = ctx->cluster;
	const gp_alloc_index *ix = gp_place_ix(ctx, job);
	cand best = { .node = -1 };
	int node, k = job->gpus, nodes_fit = 0, nv_nodes = 0, most = 0, most_node = -1;
	char gbuf[256];

	if (ix) {
		key_ud ud = { ctx, job, ring };

		best.node = gp_place_ix_one(ctx, pc, job, one_key, &ud, &best.mask);
	}
	for (node = 0; !ix && node < c->nnodes; node++) {
		int n;
		uint64_t avail = gp_place_fit_mask(ctx, node, job, &n);
		cand cd = { .node = node };

		if (n > most) {
			most = n;
			most_node = node;
		}
		if (n < k || !gp_place_host_fits(ctx, node, job, k))
			continue;
		nodes_fit++;
		if (!ring && best.node >= 0 && node_remaining(ctx, node, job) > best.key[0])
			continue; /* cannot win: skip the group search */
		nv_nodes += one_node_keys(gp_place_type_of(pc, node), avail, k, ring,
					  node_remaining(ctx, node, job), &cd);
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

/* The CPU sub-trees of one node (free GPUs avail, `remaining` milli-GPU
 * left after the job) against the best; node < 0: every regular node of
 * mask avail (wholly free GPUs; the caller finds the node, INT_MAX here
 * so that it loses ties).  first: the node's GPU 0 for the free milli of
 * each GPU, -1 when all are whole. */
static void subtree_node(const gp_policy_ctx *ctx, const gp_place_type *t, const gp_job *job,
			 int node, int first, uint64_t avail, int64_t remaining, cand *best, int *sub)
{
	int s, k = job->gpus;

	for (s = 0; s < t->nsubtrees; s++) {
		uint64_t in = avail & t->subtree_mask[s], rest;
		int64_t left = -(int64_t)k * job->gpu_milli;
		gp_place_mask_info mi;
		cand cd = { .node = node < 0 ? INT_MAX : node };

		if (gp_popcount64(in) < k)
			continue;
		if (first < 0)
			left += (int64_t)GP_MILLI * gp_popcount64(in);
		else
			for (rest = in; rest; rest &= rest - 1)
				left += ctx->alloc->gpu_free_milli[first + __builtin_ctzll(rest)];
		cd.mask = gp_place_best_group(t, in, k, GP_GROUP_SUM);
		mi = gp_place_mask(t, cd.mask);
		cd.key[0] = left;
		cd.key[1] = remaining;
		cd.key[2] = mi.sum;
		cd.key[3] = s;
		if (cand_better(&cd, best)) {
			*best = cd;
			*sub = s;
		}
	}
}

/* one_subtree's ranking for gp_place_ix_one: the node's best CPU
 * sub-tree (its index is the last key). */
static uint64_t subtree_key(const gp_place_type *t, int node, uint64_t avail, int64_t remaining, void *p,
			    double key[GP_PLACE_KEYS])
{
	const key_ud *ud = p;
	cand cd = { .node = -1 };
	int i, sub = -1;

	subtree_node(ud->ctx, t, ud->job, -1, node >= 0 ? ud->ctx->cluster->nodes[node].first_gpu : -1,
		     avail, remaining, &cd, &sub);
	for (i = 0; i < GP_PLACE_KEYS; i++)
		key[i] = (double)cd.key[i];
	return sub >= 0 ? cd.mask : 0;
}

/* PS-Worker: all GPUs under one CPU (a CPU sub-tree of one node). */
static int one_subtree(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job,
		       gp_placement *out)
{
	const gp_cluster *c = ctx->cluster;
	const gp_alloc_index *ix = gp_place_ix(ctx, job);
	cand best = { .node = -1 };
	int node, k = job->gpus, sub = -1;
	char gbuf[256];

	if (ix) {
		key_ud ud = { ctx, job, 0 };

		best.node = gp_place_ix_one(ctx, pc, job, subtree_key, &ud, &best.mask);
	}
	for (node = 0; !ix && node < c->nnodes; node++) {
		int n;
		uint64_t avail = gp_place_fit_mask(ctx, node, job, &n);

		if (n >= k && gp_place_host_fits(ctx, node, job, k))
			subtree_node(ctx, gp_place_type_of(pc, node), job, node, c->nodes[node].first_gpu,
				     avail, node_remaining(ctx, node, job), &best, &sub);
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
	int node, r = gp_place_span_ix(ctx, pc, job, kind, 1, out);

	if (r >= 0)
		return r;
	for (node = 0; node < c->nnodes; node++) {
		int n;

		allow[node] = gp_place_fit_mask(ctx, node, job, &n);
		fit[node] = n;
		if (n && !gp_place_host_fits(ctx, node, job, n < job->gpus ? n : job->gpus))
			fit[node] = 0;
	}
	return gp_place_span(ctx, pc, job, fit, allow, kind, 1, out);
}

static int run(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job, gp_placement *out)
{
	int k = job->gpus, r;

	if (ctx->explain)
		gp_explain_add(ctx->explain, "bestfit (topology-aware best fit): %s job, %d GPU(s) of %d milli, %lld MiB each",
			       gp_job_type_name(job->type), k, job->gpu_milli, (long long)job->gpu_mem_mib);
	if (k == 1 && job->type != GP_JOB_PS_WORKER)
		return single_card(ctx, pc, job, out);
	switch (job->type) {
	case GP_JOB_RING_ALLREDUCE:
	case GP_JOB_LLM:
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
