/* Placement of large-model jobs (`type: llm`), whatever the policy: the
 * job's ranks are laid out in Megatron's order (tp fastest, then cp, dp,
 * pp), so that
 *  - every tensor-parallel (and expert) group of tp x ep GPUs sits inside
 *    one NVLink domain: a node, or nodes sharing an `nvlink_domain` label
 *    (a GB200 NVL72 rack);
 *  - pipeline stages follow each other on nodes adjacent in the fabric
 *    (the switch tree's order), in the fewest leaf switches;
 *  - data- and context-parallel peers sit at the same GPU index on
 *    different nodes: one NIC rail.
 * Sources: llm-training-model.md §6 (Megatron parallel_state rank order,
 * Llama 3 §3.3.2, SC'21 §3 takeaways, NVIDIA rail-optimised fabrics). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/place/policy.h"
#include "place_int.h"

/* GPUs of node usable by the job: whole groups of `unit` (a node in a
 * multi-node NVLink domain gives all its fitting GPUs: groups may span
 * its trays); mask of the ones taken in *mask. */
static int usable(const gp_policy_ctx *ctx, int node, const gp_job *job, int unit,
		  uint64_t *mask)
{
	int n = 0, g, take;
	uint64_t m;

	*mask = 0;
	if (!gp_node_eligible(ctx, node, job))
		return 0;
	m = gp_place_fit_mask(ctx, node, job, &n);
	take = gp_llm_node_domain(ctx->cluster, node) ? n : n / unit * unit;
	take = gp_place_host_max(ctx, node, job, take);
	if (!gp_llm_node_domain(ctx->cluster, node))
		take = take / unit * unit;
	for (g = 0; g < 64 && take > 0; g++)
		if (m >> g & 1) {
			*mask |= (uint64_t)1 << g;
			take--;
		}
	return __builtin_popcountll(*mask);
}

static int same_model(const gp_cluster *c, int a, int b)
{
	return c->nodes[a].type == c->nodes[b].type ||
	       gp_cluster_node_model(c, a) == gp_cluster_node_model(c, b);
}

/* The window of consecutive nodes (switch-tree order) holding k GPUs in
 * the fewest leaf switches, then nodes; -1 when none. */
static int best_window(const gp_policy_ctx *ctx, const gp_job *job, int unit, int *cnt,
		       uint64_t *masks, int *out_len)
{
	const gp_cluster *c = ctx->cluster;
	int n = c->nattached > 0 ? c->nattached : c->nnodes, i, j = 0, sum = 0, best = -1;
	int best_leaves = 1 << 30, best_len = 1 << 30, leaves = 0, k = job->gpus;
	int *swcount = calloc((size_t)c->nswitches + 1, sizeof(int));

	for (i = 0; i < n; i++) {
		int node = c->node_order ? c->node_order[i] : i;

		cnt[i] = usable(ctx, node, job, unit, &masks[i]);
	}
	for (i = 0; i < n; i++) {
		int ni = c->node_order ? c->node_order[i] : i;

		if (j < i) {
			j = i;
			sum = 0;
			leaves = 0;
			memset(swcount, 0, sizeof(int) * ((size_t)c->nswitches + 1));
		}
		while (j < n && sum < k) {
			int nj = c->node_order ? c->node_order[j] : j;

			if (j > i && (!same_model(c, ni, nj) ||
				      (c->nswitches > 0 && gp_cluster_comm_weight(c, ni, nj) < 0)))
				break;
			if (cnt[j] > 0) {
				int sw = c->nodes[nj].sw + 1;

				if (swcount[sw]++ == 0)
					leaves++;
			}
			sum += cnt[j];
			j++;
		}
		if (sum >= k && cnt[i] > 0 && (leaves < best_leaves ||
					       (leaves == best_leaves && j - i < best_len))) {
			best = i;
			best_leaves = leaves;
			best_len = j - i;
		}
		if (j > i) { /* drop node i from the window */
			if (cnt[i] > 0 && --swcount[c->nodes[ni].sw + 1] == 0)
				leaves--;
			sum -= cnt[i];
		}
		if (j <= i + 1) {
			j = i + 1;
			sum = 0;
			leaves = 0;
			memset(swcount, 0, sizeof(int) * ((size_t)c->nswitches + 1));
		}
	}
	free(swcount);
	*out_len = best_len;
	return best;
}

static void explain_groups(const gp_policy_ctx *ctx, const gp_job *job, const gp_placement *out)
{
	const gp_llm *l = &job->more->llm;
	const gp_cluster *c = ctx->cluster;
	int per_stage = l->tp * l->cp * l->dp, s, i, r = 0, part = 0, k = 0;

	gp_explain_add(ctx->explain, "large-model job: tp %d x cp %d x dp %d x pp %d ranks, tp "
		       "fastest, then cp, dp, pp (Megatron's order)", l->tp, l->cp, l->dp, l->pp);
	if (l->tp * (l->ep > 1 ? l->ep : 1) > 1)
		gp_explain_add(ctx->explain, "TP%s groups of %d GPUs each inside one NVLink domain "
			       "(their collectives run every layer)", l->ep > 1 ? " x EP" : "",
			       l->tp * (l->ep > 1 ? l->ep : 1));
	for (s = 0; s < l->pp && s < 64; s++) {
		char buf[200];
		int len = 0, last = -1;

		buf[0] = '\0';
		for (i = 0; i < per_stage; i++, r++) {
			while (part < out->nparts && k >= out->parts[part].ngpus) {
				part++;
				k = 0;
			}
			if (part >= out->nparts)
				break;
			if (out->parts[part].node != last && len < (int)sizeof(buf) - 40) {
				last = out->parts[part].node;
				len += snprintf(buf + len, sizeof(buf) - (size_t)len, "%s%s",
						len ? "," : "", c->nodes[last].name);
			}
			k++;
		}
		if (l->pp > 1)
			gp_explain_add(ctx->explain, "pipeline stage %d on %s", s, buf);
	}
	if (l->dp * l->cp > 1)
		gp_explain_add(ctx->explain, "DP/CP peers at the same GPU index on consecutive nodes: "
			       "their rings stay on one NIC rail");
}

int gp_place_llm(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out)
{
	const gp_cluster *c = ctx->cluster;
	const gp_llm *l = &job->more->llm;
	gp_place_cache *tmp, *pc = gp_place_begin(ctx, job, out, &tmp);
	int unit, n, *cnt, start, len, i, need, r = GP_WAIT;
	uint64_t *masks;

	if (!pc)
		return GP_WAIT;
	unit = l->tp > 0 ? l->tp : 1;
	if (l->ep > 1) { /* EP x TP inside the domain when a node holds it */
		int big = 0;

		for (i = 0; i < c->ntypes; i++)
			if (c->types[i].topo.ngpus > big)
				big = c->types[i].topo.ngpus;
		if (unit * l->ep <= big)
			unit *= l->ep;
	}
	if (unit > job->gpus)
		unit = job->gpus;
	n = c->nattached > 0 ? c->nattached : c->nnodes;
	cnt = gp_xmalloc(sizeof(int) * (size_t)(n + 1));
	masks = gp_xmalloc(sizeof(uint64_t) * (size_t)(n + 1));
	start = best_window(ctx, job, unit, cnt, masks, &len);
	if (start < 0) {
		r = gp_explain_wait(ctx->explain, "no run of fabric-adjacent nodes has %d free GPUs in "
				    "whole groups of %d (one NVLink domain each)", job->gpus, unit);
	} else {
		need = job->gpus;
		for (i = start; i < start + len && need > 0; i++) {
			int node = c->node_order ? c->node_order[i] : i, g;
			uint64_t m = 0, src = masks[i];

			if (!cnt[i])
				continue;
			for (g = 0; g < 64 && need > 0; g++)
				if (src >> g & 1) {
					m |= (uint64_t)1 << g;
					need--;
				}
			gp_place_add_part(out, node, m, job);
		}
		r = GP_PLACED;
		if (ctx->explain)
			explain_groups(ctx, job, out);
	}
	free(cnt);
	free(masks);
	return gp_place_end(ctx, pc, tmp, job, out, r, -1);
}
