/* A what-if spec built in memory from lists (spec.h): what compare runs
 * on the sweep engine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/place/policy.h"
#include "gpuplan/sim/sim.h"
#include "gpuplan/util/util.h"
#include "gpuplan/whatif/spec.h"

static char *dup_or_null(const char *s)
{
	return s ? gp_xstrdup(s) : NULL;
}

static char **dup_strv(const char *const *v, size_t n)
{
	char **out = gp_xcalloc(n ? n : 1, sizeof(*out));
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = gp_xstrdup(v[i]);
	return out;
}

/* The settings that are no axis, with the strings the spec owns copied. */
static void take_run(gp_whatif_spec *s, const gp_run_desc *run)
{
	gp_run_desc *d = &s->run;

	if (run)
		*d = *run;
	s->format = dup_or_null(d->topts.format);
	d->topts.format = s->format;
	d->topts.stats = NULL;
	d->scale_ref = dup_or_null(d->scale_ref);
	d->scale_model = dup_or_null(d->scale_model);
	d->fail.csv = dup_or_null(d->fail.csv);
	d->fail.model = dup_or_null(d->fail.model);
	d->tenants = dup_or_null(d->tenants);
	d->default_tenant = dup_or_null(d->default_tenant);
	d->qos.models_dir = dup_or_null(d->qos.models_dir);
	/* the run's own: set per run, or the command's outputs */
	d->cluster = d->trace = d->policy = NULL;
	d->json = d->csv_dir = d->svg_dir = d->html = d->events = NULL;
	d->progress = NULL;
	d->progress_ud = NULL;
}

static int check(const gp_whatif_lists *l, gp_whatif_spec *s, gp_error *err)
{
	char why[128];
	size_t i;

	if (!l->nclusters || !l->trace || !l->npolicies || !l->nqueues || !l->nseeds)
		return gp_error_set(err, GP_EUSAGE, l->origin, 0, 0,
				    "a trace and at least one cluster, policy, queue and seed");
	if (l->nseeds > GP_WHATIF_MAX_SEEDS || l->npolicies > GP_WHATIF_MAX_VALUES ||
	    l->nqueues > GP_WHATIF_MAX_VALUES || l->nclusters > GP_WHATIF_MAX_VALUES)
		return gp_error_set(err, GP_EUSAGE, l->origin, 0, 0,
				    "more than %d seeds or %d clusters, policies or queues",
				    GP_WHATIF_MAX_SEEDS, GP_WHATIF_MAX_VALUES);
	for (i = 0; i < l->npolicies; i++)
		if (!gp_policy_find(l->policies[i]))
			return gp_error_set(err, GP_EUSAGE, l->origin, 0, 0, "unknown policy '%.40s'",
					    l->policies[i]);
	for (i = 0; i < l->nqueues; i++) {
		int q = gp_sim_queue_parse(l->queues[i]);

		if (q < 0)
			return gp_error_set(err, GP_EUSAGE, l->origin, 0, 0, "unknown queue '%.40s'",
					    l->queues[i]);
		if (q == GP_SIM_LAS && s->run.qos.on && s->run.qos.cfg.tick > 0)
			return gp_error_set(err, GP_EUSAGE, l->origin, 0, 0,
					    "the QoS monitor does not go with queue las");
	}
	if (gp_whatif_spec_grid(s, why, sizeof(why)))
		return gp_error_set(err, GP_EUSAGE, l->origin, 0, 0, "%s", why);
	return GP_OK;
}

int gp_whatif_spec_build(const gp_whatif_lists *l, gp_whatif_spec *s, gp_error *err)
{
	int st;

	gp_whatif_spec_init(s);
	s->path = gp_xstrdup(l->origin ? l->origin : "(built)");
	take_run(s, l->run);
	if (l->nclusters) {
		s->clusters = dup_strv(l->clusters, l->nclusters);
		s->cluster_names = dup_strv(l->clusters, l->nclusters);
		s->nclusters = l->nclusters;
		s->cluster = gp_xstrdup(l->clusters[0]);
		s->declared[GP_AX_CLUSTER] = l->nclusters > 1;
	}
	if (l->trace) {
		s->ntraces = 1;
		s->traces = dup_strv(&l->trace, 1);
		s->trace_names = dup_strv(&l->trace, 1);
	}
	s->policies = dup_strv(l->policies, l->npolicies);
	s->npolicies = l->npolicies;
	s->queues = dup_strv(l->queues, l->nqueues);
	s->nqueues = l->nqueues;
	s->seeds = gp_xmalloc((l->nseeds ? l->nseeds : 1) * sizeof(*s->seeds));
	if (l->nseeds)
		memcpy(s->seeds, l->seeds, l->nseeds * sizeof(*s->seeds));
	s->nseeds = l->nseeds;
	/* the failure axes' one value */
	s->mtbf_node = gp_xmalloc(sizeof(*s->mtbf_node));
	s->mtbf_node[0] = s->run.fail.mtbf_node;
	s->nmtbf = 1;
	s->recoveries = gp_xmalloc(sizeof(*s->recoveries));
	s->recoveries[0] = s->run.fail.recovery;
	s->nrecoveries = 1;
	/* traces are workloads to serve, as in a loaded spec */
	s->scenario[GP_AX_TRACE] = 1;
	if ((st = check(l, s, err)))
		gp_whatif_spec_release(s);
	return st;
}
