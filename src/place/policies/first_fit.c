/* first-fit: the anchor every scheduler starts from.  Nodes in cluster
 * order, GPUs in index order; the first that fits wins.  Multi-node jobs
 * (Ring-AllReduce, PS-Worker) that fit no single node take free whole GPUs
 * node by node.  No topology awareness, on purpose. */
#include <stdlib.h>

#include "gpuplan/place/policy.h"
#include "../place_int.h"

/* Nodes tried in order before asking the index: 64, a quarter of a
 * small cluster. */
#define FIRST_FIT_PROBE(n) ((n) / 4 < 64 ? (n) / 4 : 64)

/* Take up to want fitting GPUs of node into a new part; returns how many. */
static int take_from_node(const gp_policy_ctx *ctx, int node, const gp_job *job,
			  int want, gp_placement *out)
{
	const gp_node *n = &ctx->cluster->nodes[node];
	gp_place_part *part = gp_placement_add(out, node);
	int g;

	part->milli = job->gpu_milli;
	part->mem_mib = job->gpu_mem_mib;
	for (g = 0; g < n->ngpus && part->ngpus < want; g++)
		if (gp_place_gpu_fits(ctx->alloc, n->first_gpu + g, job))
			part->gpus[part->ngpus++] = g;
	return part->ngpus;
}

static void share_host_resources(const gp_job *job, gp_placement *out)
{
	int i;

	for (i = 0; i < out->nparts; i++) {
		gp_place_part *part = &out->parts[i];

		part->cpu_milli = job->cpu_milli * part->ngpus / job->gpus;
		part->host_mem_mib = job->mem_mib * part->ngpus / job->gpus;
	}
}

int gp_policy_first_fit(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out)
{
	const gp_cluster *c = ctx->cluster;
	const gp_alloc *a = ctx->alloc;
	int node, need = job->gpus, got = 0, *span, ixn;

	gp_placement_clear(out);
	if (need <= 0)
		return gp_explain_wait(ctx->explain, "job asks for no GPUs");
	/* Whole job on one node first.  After the first few nodes, the lowest
	 * node with `need` fitting GPUs and room on its host comes from the
	 * index when it can answer (-1: none). */
	for (node = 0; node < c->nnodes; node++) {
		int fit;

		if (node == FIRST_FIT_PROBE(c->nnodes) && (ixn = gp_place_ix_lowest(ctx, job, need)) != -2) {
			if (ixn < 0)
				break;
			node = ixn;
		}
		fit = job->gpu_milli >= GP_MILLI ? a->node_free_whole[node] : c->nodes[node].ngpus;

		if (fit < need || !gp_node_eligible(ctx, node, job) ||
		    !gp_place_host_fits(ctx, node, job, need))
			continue;
		if (take_from_node(ctx, node, job, need, out) == need) {
			share_host_resources(job, out);
			gp_explain_add(ctx->explain, "first node with %d fitting GPU(s): %s",
				       need, c->nodes[node].name);
			return GP_PLACED;
		}
		gp_placement_clear(out);
	}
	if (!gp_place_may_span(job)) {
		gp_explain_add(ctx->explain, "no single node has %d fitting GPU(s)", need);
		return gp_explain_wait(ctx->explain, "no node has %d free GPU(s) that fit", need);
	}
	/* Span nodes in order, whole GPUs only, inside the first fabric tree
	 * that holds the job. */
	span = gp_xcalloc((size_t)c->nnodes + 1, sizeof(*span));
	for (node = 0; node < c->nnodes; node++) {
		int take = a->node_free_whole[node];

		if (take <= 0 || !gp_node_eligible(ctx, node, job))
			continue;
		if (take > need)
			take = need;
		/* As many as the host's CPU and memory allow: with fewer free
		 * GPUs the job must not fit where it did not fit with more
		 * (the simulator's WAIT memo relies on that). */
		while (take > 0 && !gp_place_host_fits(ctx, node, job, take))
			take--;
		span[node] = take;
	}
	if (gp_place_reach_limit(ctx, NULL, span, need) != GP_PLACED) {
		free(span);
		return GP_WAIT;
	}
	for (node = 0; node < c->nnodes && got < need; node++) {
		int take = span[node];

		if (take <= 0)
			continue;
		if (take > need - got)
			take = need - got;
		while (take > 0 && !gp_place_host_fits(ctx, node, job, take))
			take--;
		if (take <= 0)
			continue;
		got += take_from_node(ctx, node, job, take, out);
		if (out->nparts >= GP_PLACE_MAX_PARTS)
			break;
	}
	free(span);
	if (got < need) {
		gp_placement_clear(out);
		gp_explain_add(ctx->explain, "only %d of %d GPUs free across the cluster", got, need);
		return gp_explain_wait(ctx->explain, "only %d of %d GPUs free", got, need);
	}
	share_host_resources(job, out);
	gp_explain_add(ctx->explain, "spread over %d node(s) in cluster order", out->nparts);
	return GP_PLACED;
}
