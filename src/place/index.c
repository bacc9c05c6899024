/* What the policies ask of the allocation index (alloc_index.h). */
#include "gpuplan/place/policy.h"
#include "place_int.h"

int gp_place_type_ok(const gp_policy_ctx *ctx, int ti, const gp_job *job)
{
	const gp_cluster *c = ctx->cluster;
	int model = c->types[ti].gpu_model;

	if (!job->gpu_models)
		return 1;
	if (model < 0 || model >= c->catalog.n)
		return 0;
	return gp_job_accepts_model(job, c->catalog.models[model].name);
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
