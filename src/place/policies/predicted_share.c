/* predicted-share: predicted sharing ("GPU resource allocation for DL tasks").
 *
 * The job's per-GPU share and memory are what the predictors say it will
 * use (the caller puts them in gpu_milli and gpu_mem_mib: `place` and
 * `simulate` do so with --policy predicted-share, see predict.h), not what
 * it asked for.  Then two levels:
 *   control level  the nodes whose GPUs can hold that share and memory
 *                  (k of them for a k-GPU job), and of those the node with
 *                  the most remaining GPU resource: the remaining share of
 *                  its best GPU (the document's examples), then the free
 *                  share summed over its GPUs, free memory, the lower
 *                  index;
 *   worker level   an LS job takes the GPUs with the most remaining share;
 *                  a BE job goes where its predicted execution time is
 *                  shortest.  A node has one GPU model, so for a BE job the
 *                  rule picks among the control level's nodes those of the
 *                  GPU model with the shortest predicted time (the caller's
 *                  predictions in gp_job.pred_iter_s, or the FP32 peak), then the one
 *                  with the most remaining resource, then its GPUs with the
 *                  most remaining share.
 * A Ring-AllReduce or PS-Worker job that no node holds takes, one node at
 * a time in the same order, the fitting GPUs of the nodes with the most
 * remaining resource.  No topology beyond that. */
#include <limits.h>
#include <stdio.h>

#include "gpuplan/place/policy.h"
#include "../place_int.h"

/* Predicted seconds per iteration of the job on the node's GPU model
 * (lower is better): the caller's predictions (gp_job.pred_iter_s), else
 * 1 / FP32 peak. */
static double pred_time(const gp_policy_ctx *ctx, const gp_job *job, int node)
{
	const gp_gpu_model *m = gp_cluster_node_model(ctx->cluster, node);
	int idx = ctx->cluster->types[ctx->cluster->nodes[node].type].gpu_model;

	if (job->pred_iter_s && idx >= 0 && job->pred_iter_s[idx] > 0)
		return job->pred_iter_s[idx];
	return m && m->fp32_tflops > 0 ? 1.0 / m->fp32_tflops : 1.0;
}

/* The job as it lands on the node: its share the one predicted for the
 * node's GPU model (gp_job.pred_milli), else as given; tmp holds the
 * copy when the share differs. */
static const gp_job *job_on(const gp_policy_ctx *ctx, const gp_job *job, int node, gp_job *tmp)
{
	int idx = ctx->cluster->types[ctx->cluster->nodes[node].type].gpu_model;
	int v;

	if (!job->pred_milli || idx < 0 || !(job->pred_milli[idx] > 0))
		return job;
	v = (int)job->pred_milli[idx];
	if (v == job->gpu_milli)
		return job;
	*tmp = *job;
	tmp->gpu_milli = v;
	return tmp;
}

/* Whether the job's share differs on some node type (the index, which
 * asks with one share, cannot answer then). */
static int shares_differ(const gp_policy_ctx *ctx, const gp_job *job)
{
	const gp_cluster *c = ctx->cluster;
	int t;

	for (t = 0; job->pred_milli && t < c->ntypes; t++) {
		int idx = c->types[t].gpu_model;

		if (idx >= 0 && job->pred_milli[idx] > 0 && (int)job->pred_milli[idx] != job->gpu_milli)
			return 1;
	}
	return 0;
}

/* The remaining share of the node's best GPU (the document's examples
 * rank nodes by it: a node with one idle GPU beats one with two half-used
 * GPUs). */
static int best_gpu_free(const gp_policy_ctx *ctx, int node)
{
	const gp_alloc *a = ctx->alloc;
	const gp_node *nd = &ctx->cluster->nodes[node];
	int g, n = ctx->cluster->types[nd->type].topo.ngpus, best = 0;

	if (a->node_free_whole[node] > 0)
		return GP_MILLI;
	for (g = 0; g < n; g++)
		if (a->gpu_free_milli[nd->first_gpu + g] > best)
			best = a->gpu_free_milli[nd->first_gpu + g];
	return best;
}

/* More remaining GPU resource: the best GPU's remaining share, then the
 * share summed over the node's GPUs, then free memory. */
static int more_remaining(const gp_policy_ctx *ctx, int x, int y)
{
	const gp_alloc *a = ctx->alloc;
	int bx = best_gpu_free(ctx, x), by = best_gpu_free(ctx, y);

	if (bx != by)
		return bx > by;
	if (a->node_free_milli[x] != a->node_free_milli[y])
		return a->node_free_milli[x] > a->node_free_milli[y];
	return a->node_free_mem_mib[x] > a->node_free_mem_mib[y];
}

/* Whether candidate x ranks before y (-1: none yet) as in the scan:
 * more remaining resource, then the lower index. */
static int ps_before(const gp_policy_ctx *ctx, int x, int y)
{
	return y < 0 || more_remaining(ctx, x, y) || (!more_remaining(ctx, y, x) && x < y);
}

/* Whether node type ti has a node that holds the job (odd nodes one by
 * one, regular ones per mask). */
static int ps_type_holds(const gp_policy_ctx *ctx, const gp_aix_type *xt, const gp_job *job, int mask_ok)
{
	int r, m, n, k = job->gpus;

	for (r = gp_nodeset_next(&xt->odd, 0); r >= 0; r = gp_nodeset_next(&xt->odd, r + 1)) {
		gp_place_fit_mask(ctx, xt->nodes[r], job, &n);
		if (n >= k && gp_place_host_fits(ctx, xt->nodes[r], job, k))
			return 1;
	}
	for (m = gp_place_ix_next_mask(xt, 1); mask_ok && m > 0; m = gp_place_ix_next_mask(xt, m + 1))
		if (gp_popcount64((uint64_t)m) >= k && gp_place_ix_first(ctx, xt, &xt->by_mask[m], job, k, INT_MAX) >= 0)
			return 1;
	return 0;
}

/* The control level through the index: the node the scan below picks,
 * -1 none, -2 when the index cannot answer.  For a BE job only the types
 * whose GPU model has the shortest predicted time among the types that
 * hold the job.  Regular nodes are looked at per mask, the fullest masks
 * first, and only while their free share can still win (the most free
 * memory among nodes of equal share needs each of them). */
static int ps_ix(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job, int be)
{
	const gp_alloc_index *ix = gp_place_ix(ctx, job);
	const gp_alloc *a = ctx->alloc;
	int ti, r, m, w, n, best = -1, k = job->gpus, have = 0;
	double min_t = 0;

	if (!ix)
		return -2;
	for (ti = 0; be && ti < ix->ntypes; ti++) {
		const gp_aix_type *xt = &ix->types[ti];
		double t;

		if (!xt->nnodes || !gp_place_type_ok(ctx, ti, job) ||
		    !ps_type_holds(ctx, xt, job, xt->indexed && job->gpu_mem_mib <= xt->mem_cap &&
				   pc->types[ti].ngpus == xt->ngpus))
			continue;
		t = pred_time(ctx, job, xt->nodes[0]);
		if (!have || t < min_t)
			min_t = t;
		have = 1;
	}
	for (ti = 0; ti < ix->ntypes; ti++) {
		const gp_aix_type *xt = &ix->types[ti];

		if (!xt->nnodes || !gp_place_type_ok(ctx, ti, job) || (be && pred_time(ctx, job, xt->nodes[0]) != min_t))
			continue;
		for (r = gp_nodeset_next(&xt->odd, 0); r >= 0; r = gp_nodeset_next(&xt->odd, r + 1)) {
			int node = xt->nodes[r];

			gp_place_fit_mask(ctx, node, job, &n);
			if (n >= k && gp_place_host_fits(ctx, node, job, k) && ps_before(ctx, node, best))
				best = node;
		}
	}
	for (w = GP_AIX_MAX_GPUS; w >= k; w--)
		for (ti = 0; ti < ix->ntypes; ti++) {
			const gp_aix_type *xt = &ix->types[ti];

			if (!xt->nnodes || !xt->indexed || w > xt->ngpus || job->gpu_mem_mib > xt->mem_cap ||
			    pc->types[ti].ngpus != xt->ngpus || !gp_place_type_ok(ctx, ti, job) ||
			    (be && pred_time(ctx, job, xt->nodes[0]) != min_t) ||
			    (best >= 0 && best_gpu_free(ctx, best) == GP_MILLI &&
			     (int64_t)GP_MILLI * w < a->node_free_milli[best]))
				continue;
			for (m = gp_place_ix_next_mask(xt, 1); m > 0; m = gp_place_ix_next_mask(xt, m + 1)) {
				if (gp_popcount64((uint64_t)m) != w)
					continue;
				for (r = gp_nodeset_next(&xt->by_mask[m], 0); r >= 0;
				     r = gp_nodeset_next(&xt->by_mask[m], r + 1)) {
					int node = xt->nodes[r];

					if (a->node_state[node] == GP_NODE_UP && gp_place_host_fits(ctx, node, job, k) &&
					    ps_before(ctx, node, best))
						best = node;
				}
			}
		}
	return best;
}

int gp_policy_predicted_share(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out)
{
	const gp_cluster *c = ctx->cluster;
	const gp_alloc *a = ctx->alloc;
	gp_place_cache *tmp, *pc;
	int node, k = job->gpus, best = -1, r = GP_PLACED, nfit = 0, be = job->klass == GP_CLASS_BE, scan;
	int best_model = -1, m;
	double best_t = 0, tcache[64];
	int *fit;
	uint64_t *allow;

	pc = gp_place_begin(ctx, job, out, &tmp);
	if (!pc)
		return GP_WAIT;
	for (m = 0; m < 64; m++)
		tcache[m] = -1;
	fit = gp_place_scratch_nodes(pc, 0);
	allow = gp_place_scratch_masks(pc);
	/* Per-model shares: the index asks with one share, so scan. */
	best = shares_differ(ctx, job) ? -2 : ps_ix(ctx, pc, job, be);
	if (best >= 0) {
		int n;

		allow[best] = gp_place_fit_mask(ctx, best, job, &n);
	}
	scan = best < -1 || (best == -1 && gp_place_may_span(job));
	if (scan)
		best = -1;
	/* BE: the GPU model with the shortest predicted time among the nodes
	 * that hold the job (one evaluation per model). */
	for (node = 0; scan && node < c->nnodes; node++) {
		gp_job tj;
		const gp_job *jn = job_on(ctx, job, node, &tj);
		int n;

		allow[node] = gp_place_fit_mask(ctx, node, jn, &n);
		fit[node] = gp_place_host_max(ctx, node, jn, n);
		if (fit[node] < k || !gp_place_host_fits(ctx, node, jn, k))
			continue;
		nfit++;
		m = c->types[c->nodes[node].type].gpu_model;
		if (be && m != best_model) {
			double t = m >= 0 && m < 64 ? tcache[m] : -1;

			if (t < 0) {
				t = pred_time(ctx, job, node);
				if (m >= 0 && m < 64)
					tcache[m] = t;
			}

			if (best_model < 0 || t < best_t) {
				best_model = m;
				best_t = t;
				best = -1;
			} else if (t > best_t) {
				continue;
			}
		}
		if (best < 0 || more_remaining(ctx, node, best))
			best = node;
	}
	if (best >= 0) {
		gp_job tj;
		const gp_job *jb = job_on(ctx, job, best, &tj);

		gp_place_add_part(out, best, gp_place_by_share(a, c->nodes[best].first_gpu,
							      allow[best], k, 1), jb);
		if (job->pred_milli)
			gp_explain_add(ctx->explain, "predicted-share: control level: %d node(s) hold %d GPU(s) "
				       "at the share predicted for their GPU model and %lld MiB",
				       nfit, k, (long long)job->gpu_mem_mib);
		else
			gp_explain_add(ctx->explain, "predicted-share: control level: %d node(s) hold %d GPU(s) "
				       "of %d milli-GPU and %lld MiB (the predicted use)", nfit, k, job->gpu_milli,
				       (long long)job->gpu_mem_mib);
		if (jb != job)
			gp_explain_add(ctx->explain, "predicted-share: on %s the predicted share is %d milli-GPU "
				       "(that model's own utilization prediction)",
				       gp_cluster_node_model(c, best) ? gp_cluster_node_model(c, best)->name : "?",
				       jb->gpu_milli);
		if (be)
			gp_explain_add(ctx->explain, "predicted-share: BE: shortest predicted time on %s, "
				       "then the most remaining GPU resource: %s (%.2f GPUs free)",
				       gp_cluster_node_model(c, best) ? gp_cluster_node_model(c, best)->name :
				       "?", c->nodes[best].name, (double)a->node_free_milli[best] / GP_MILLI);
		else
			gp_explain_add(ctx->explain, "predicted-share: LS: the node with the most remaining "
				       "GPU resource: %s (%.2f GPUs free), its GPUs with the most remaining share",
				       c->nodes[best].name, (double)a->node_free_milli[best] / GP_MILLI);
	} else if (!gp_place_may_span(job)) {
		r = gp_explain_wait(ctx->explain, "no node has %d GPU(s) with %d milli-GPU and %lld MiB free",
				    k, job->gpu_milli, (long long)job->gpu_mem_mib);
	} else if (gp_place_reach_limit(ctx, pc->sw_free, fit, k) != GP_PLACED) {
		r = GP_WAIT;
	} else {
		/* Most remaining resource first, one node at a time. */
		int got = 0;

		while (got < k && out->nparts < GP_PLACE_MAX_PARTS) {
			gp_job tj;
			int pick = -1, t;

			for (node = 0; node < c->nnodes; node++)
				if (fit[node] > 0 && (pick < 0 || more_remaining(ctx, node, pick)))
					pick = node;
			if (pick < 0)
				break;
			t = fit[pick] < k - got ? fit[pick] : k - got;
			gp_place_add_part(out, pick, gp_place_by_share(a, c->nodes[pick].first_gpu,
								      allow[pick], t, 1), job_on(ctx, job, pick, &tj));
			fit[pick] = 0;
			got += t;
		}
		if (got < k)
			r = gp_explain_wait(ctx->explain, "only %d of %d GPUs hold %d milli-GPU", got, k,
					    job->gpu_milli);
		else
			gp_explain_add(ctx->explain, "predicted-share: %d node(s), most remaining GPU "
				       "resource first", out->nparts);
	}
	return gp_place_end(ctx, pc, tmp, job, out, r, -1);
}
