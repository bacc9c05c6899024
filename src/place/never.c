/* Whether a job can ever run on a cluster (place.h): the one place that
 * decides it, for place, the simulator and the reports. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/model/alloc.h"
#include "gpuplan/place/place.h"
#include "place_int.h"

/* gp_place_never, asking the allowed models through ctx (its place cache
 * remembers them) when ctx is not NULL. */
static int never(const gp_cluster *c, const gp_policy_ctx *ctx, const gp_job *job, char *why,
		 size_t size)
{
	long total = 0;
	int i, big_node = 0, ok_models = 0;
	double max_mem = 0;
	char have[256] = "";
	size_t hl = 0;
	unsigned char *ok;

	for (i = 0; i < c->ntypes; i++) {
		int m = c->types[i].gpu_model;
		const char *name = m >= 0 && m < c->catalog.n ? c->catalog.models[m].name : NULL;

		if (name && !strstr(have, name) && hl + strlen(name) + 3 < sizeof(have))
			hl += (size_t)snprintf(have + hl, sizeof(have) - hl, "%s%s", hl ? ", " : "",
					       name);
	}
	/* the allowed models asked once per node type, not per node */
	ok = gp_xcalloc((size_t)c->ntypes + 1, 1);
	for (i = 0; i < c->ntypes && job->gpu_models; i++) {
		int m = c->types[i].gpu_model;

		ok[i] = m >= 0 && m < c->catalog.n &&
			(ctx ? gp_place_accepts(ctx, job, m)
			     : gp_job_accepts_model(job, c->catalog.models[m].name));
	}
	for (i = 0; i < c->nnodes; i++) {
		const gp_node *n = &c->nodes[i];
		int m = c->types[n->type].gpu_model;
		double mem;

		if (job->gpu_models && !ok[n->type])
			continue;
		ok_models++;
		total += n->ngpus;
		if (n->ngpus > big_node)
			big_node = n->ngpus;
		/* an unknown model never limits memory (gp_alloc_gpu_mem_cap) */
		mem = m >= 0 && m < c->catalog.n ? c->catalog.models[m].mem_gib : 1e9;
		if (mem > max_mem)
			max_mem = mem;
	}
	free(ok);
	if (job->gpu_models && ok_models == 0) {
		snprintf(why, size, "no GPU of model %s in the cluster (it has %s)", job->gpu_models,
			 hl ? have : "no known model");
		return 1;
	}
	if (job->gpu_mem_mib > 0 && (double)job->gpu_mem_mib / 1024.0 > max_mem + 1e-9) {
		snprintf(why, size, "needs %.4g GiB per GPU; the largest %sGPU has %.4g GiB",
			 (double)job->gpu_mem_mib / 1024.0, job->gpu_models ? "allowed " : "",
			 max_mem);
		return 1;
	}
	if (job->gpu_milli >= GP_MILLI && (long)job->gpus > total) {
		snprintf(why, size, "asks %d GPUs; the cluster has %ld%s", job->gpus, total,
			 job->gpu_models ? " of the allowed models" : "");
		return 1;
	}
	if ((job->type == GP_JOB_SINGLE_CARD || job->type == GP_JOB_SINGLE_NODE) &&
	    job->gpus > big_node) {
		snprintf(why, size, "a one-node job of %d GPUs; the largest node has %d",
			 job->gpus, big_node);
		return 1;
	}
	return 0;
}

int gp_place_never(const gp_cluster *c, const gp_job *job, char *why, size_t size)
{
	return never(c, NULL, job, why, size);
}

int gp_place_idle_init(gp_alloc *a, const gp_cluster *c)
{
	int i, st = gp_alloc_init(a, c);

	if (st != GP_OK)
		return st;
	for (i = 0; i < a->nnodes; i++)
		gp_alloc_set_state(a, i, GP_NODE_UP);
	return GP_OK;
}

int gp_place_ever(const gp_policy *policy, const gp_policy_ctx *ctx, const gp_job *job,
		  gp_placement *p, char *why, size_t size)
{
	if (size)
		why[0] = 0;
	if (never(ctx->cluster, ctx, job, why, size))
		return GP_NEVER_CLUSTER;
	if (policy->place(ctx, job, p) == GP_PLACED)
		return GP_EVER;
	if (ctx->explain)
		snprintf(why, size, "even on the idle cluster: %s", ctx->explain->reason);
	else
		snprintf(why, size, "the policy places it nowhere, even on the idle cluster");
	return GP_NEVER_POLICY;
}
