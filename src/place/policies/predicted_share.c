/* predicted-share: seed 001 ("GPU resource allocation for DL tasks").
 *
 * The job's per-GPU share and memory are what the predictors say it will
 * use (the caller puts them in gpu_milli and gpu_mem_mib: `place` and
 * `simulate` do so with --policy predicted-share, see predict.h), not what
 * it asked for.  Then two levels:
 *   control level  the nodes whose GPUs can hold that share and memory
 *                  (k of them for a k-GPU job), and of those the node with
 *                  the most remaining GPU resource (free share summed over
 *                  its GPUs; free memory, then the lower index, on ties);
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

static int more_remaining(const gp_alloc *a, int x, int y)
{
	if (a->node_free_milli[x] != a->node_free_milli[y])
		return a->node_free_milli[x] > a->node_free_milli[y];
	return a->node_free_mem_mib[x] > a->node_free_mem_mib[y];
}

int gp_policy_predicted_share(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out)
{
	const gp_cluster *c = ctx->cluster;
	const gp_alloc *a = ctx->alloc;
	gp_place_cache *tmp, *pc;
	int node, k = job->gpus, best = -1, r = GP_PLACED, nfit = 0, be = job->klass == GP_CLASS_BE;
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
	/* BE: the GPU model with the shortest predicted time among the nodes
	 * that hold the job (one evaluation per model). */
	for (node = 0; node < c->nnodes; node++) {
		int n;

		allow[node] = gp_place_fit_mask(ctx, node, job, &n);
		fit[node] = n && gp_place_host_fits(ctx, node, job, 1) ? n : 0;
		if (fit[node] < k || !gp_place_host_fits(ctx, node, job, k))
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
		if (best < 0 || more_remaining(a, node, best))
			best = node;
	}
	if (best >= 0) {
		gp_place_add_part(out, best, gp_place_by_share(a, c->nodes[best].first_gpu,
							      allow[best], k, 1), job);
		gp_explain_add(ctx->explain, "predicted-share: control level: %d node(s) hold %d GPU(s) "
			       "of %d milli-GPU and %lld MiB (the predicted use)", nfit, k, job->gpu_milli,
			       (long long)job->gpu_mem_mib);
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
			int pick = -1, t;

			for (node = 0; node < c->nnodes; node++)
				if (fit[node] > 0 && (pick < 0 || more_remaining(a, node, pick)))
					pick = node;
			if (pick < 0)
				break;
			t = fit[pick] < k - got ? fit[pick] : k - got;
			gp_place_add_part(out, pick, gp_place_by_share(a, c->nodes[pick].first_gpu,
								      allow[pick], t, 1), job);
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
