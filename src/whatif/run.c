/* One what-if run in this process, the results of a sweep, the bisection
 * plan and the cheapest answer (sweep.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/io/trace.h"
#include "gpuplan/run/run.h"
#include "gpuplan/sim/failsim.h"
#include "gpuplan/sim/sim.h"
#include "gpuplan/util/util.h"
#include "gpuplan/run/scale.h"
#include "gpuplan/whatif/quota.h"
#include "gpuplan/whatif/sweep.h"

/* ---- runner ---- */

struct gp_whatif_runner {
	const gp_whatif_spec *spec;
	gp_cluster *own_bases;  /* one per cluster of the axis, loaded once */
	const gp_cluster *base; /* own_bases, or the caller's (hooks) */
	gp_joblist *jobs;       /* per trace, loaded on first use */
	int *loaded;
	gp_scale **scale;       /* per trace, with --scale-durations */
	/* The last cluster built and its caches: consecutive runs of one
	 * configuration's cluster (other queues, policies, seeds) reuse it. */
	int have;
	size_t cv[4];           /* add, remove, fabric, cluster indices */
	gp_cluster cluster;     /* built, when the spec changes the base */
	const gp_cluster *cl;   /* &cluster, or base when nothing changes it */
	gp_sim_perf *perf;
	gp_whatif_hooks hooks;
	/* The spec's tenants with a run's quotas and weights: its own
	 * tenant array, the rest borrowed from the spec. */
	gp_tenants tenants;
};

gp_whatif_runner *gp_whatif_runner_new(const gp_whatif_spec *spec, gp_error *err)
{
	return gp_whatif_runner_new_with(spec, NULL, err);
}

gp_whatif_runner *gp_whatif_runner_new_with(const gp_whatif_spec *spec,
					    const gp_whatif_hooks *hooks, gp_error *err)
{
	gp_whatif_runner *r = gp_xcalloc(1, sizeof(*r));

	r->spec = spec;
	if (hooks)
		r->hooks = *hooks;
	if (r->hooks.cluster) {
		r->base = r->hooks.cluster;
	} else {
		r->own_bases = gp_xcalloc(spec->nvalues[GP_AX_CLUSTER], sizeof(*r->own_bases));
		if (gp_whatif_bases_load(spec, r->own_bases, err)) {
			free(r->own_bases);
			free(r);
			return NULL;
		}
		r->base = r->own_bases;
		if (gp_whatif_spec_check_bases(spec, r->base, err)) {
			gp_whatif_bases_release(spec, r->own_bases);
			free(r->own_bases);
			free(r);
			return NULL;
		}
	}
	r->jobs = gp_xcalloc(spec->ntraces, sizeof(*r->jobs));
	r->loaded = gp_xcalloc(spec->ntraces, sizeof(int));
	if (spec->have_tenants) {
		r->tenants = spec->tenants;
		r->tenants.t = gp_xmalloc(spec->tenants.n * sizeof(gp_tenant));
		memcpy(r->tenants.t, spec->tenants.t, spec->tenants.n * sizeof(gp_tenant));
	}
	r->scale = gp_xcalloc(spec->ntraces, sizeof(*r->scale));
	return r;
}

/* Whether trace t's jobs are the caller's (hooks). */
static int lent(const gp_whatif_runner *r, size_t t)
{
	(void)t;
	return r->hooks.jobs != NULL;
}

/* Trace t's jobs (loaded). */
static gp_joblist *jobs_of(gp_whatif_runner *r, size_t t)
{
	return lent(r, t) ? &r->hooks.jobs[t] : &r->jobs[t];
}

static void drop_cluster(gp_whatif_runner *r)
{
	if (!r->have)
		return;
	gp_sim_perf_free(r->perf);
	r->perf = NULL;
	if (r->cl == &r->cluster)
		gp_cluster_release(&r->cluster);
	r->cl = NULL;
	r->have = 0;
}

void gp_whatif_runner_free(gp_whatif_runner *r)
{
	size_t i;

	if (!r)
		return;
	drop_cluster(r);
	for (i = 0; i < r->spec->ntraces; i++) {
		if (lent(r, i))
			continue;
		gp_scale_free(r->scale[i]);
		if (r->loaded[i])
			gp_joblist_release(&r->jobs[i]);
	}
	free(r->scale);
	free(r->jobs);
	free(r->loaded);
	if (r->own_bases)
		gp_whatif_bases_release(r->spec, r->own_bases);
	free(r->own_bases);
	if (r->spec->have_tenants)
		free(r->tenants.t);
	free(r);
}

static int load_trace(gp_whatif_runner *r, size_t t, gp_error *err)
{
	const gp_whatif_spec *s = r->spec;
	int st;

	if (r->loaded[t])
		return GP_OK;
	if (r->hooks.jobs) {
		r->scale[t] = r->hooks.scale ? r->hooks.scale[t] : NULL;
		r->loaded[t] = 1;
		return GP_OK;
	}
	gp_joblist_init(&r->jobs[t]);
	st = gp_trace_load(s->traces[t], &s->run.topts, &r->jobs[t], err);
	if (st)
		return st;
	r->loaded[t] = 1;
	if (s->run.scale_ref) {
		r->scale[t] = gp_scale_new(s->run.scale_ref, s->run.scale_model, r->base, &r->jobs[t], err);
		if (!r->scale[t]) {
			/* A bad reference is the spec's fault. */
			if (err && err->status == GP_EUSAGE) {
				char msg[sizeof(err->msg)];

				snprintf(msg, sizeof(msg), "%s", err->msg);
				return gp_error_set(err, GP_EINPUT, s->path, 0, 0, "scale_durations: %s", msg);
			}
			return err ? err->status : GP_EINPUT;
		}
	}
	return GP_OK;
}

int gp_whatif_runner_run(gp_whatif_runner *r, size_t run, gp_whatif_result *out, gp_error *err)
{
	return gp_whatif_runner_record(r, run, out, NULL, err);
}

int gp_whatif_runner_record(gp_whatif_runner *r, size_t run, gp_whatif_result *out, gp_sbuf *rec,
			    gp_error *err)
{
	const gp_whatif_spec *s = r->spec;
	gp_whatif_config c;
	gp_run_desc d;
	gp_run one;
	size_t t;
	int st;

	if (run >= s->nruns)
		return gp_error_set(err, GP_EIO, "", 0, 0, "run %zu out of range", run);
	gp_whatif_config_of(s, run / s->nseeds, &c);
	t = c.v[GP_AX_TRACE];
	if ((st = load_trace(r, t, err)))
		return st;
	if (!r->have || r->cv[0] != c.v[GP_AX_ADD] || r->cv[1] != c.v[GP_AX_REMOVE] ||
	    r->cv[2] != c.v[GP_AX_FABRIC] || r->cv[3] != c.v[GP_AX_CLUSTER]) {
		drop_cluster(r);
		if (!s->add.n && !s->remove.n && !s->fabric.n) {
			/* the base as it is: no copy */
			r->cl = &r->base[c.v[GP_AX_CLUSTER]];
		} else if ((st = gp_whatif_cluster_build(s, &c, &r->cluster, err))) {
			return st;
		} else {
			r->cl = &r->cluster;
		}
		r->have = 1;
		r->cv[0] = c.v[GP_AX_ADD];
		r->cv[1] = c.v[GP_AX_REMOVE];
		r->cv[2] = c.v[GP_AX_FABRIC];
		r->cv[3] = c.v[GP_AX_CLUSTER];
		r->perf = gp_sim_perf_new(r->cl);
		for (size_t k = 0; k < s->ntraces; k++)
			if (r->scale[k])
				gp_scale_bind(r->scale[k], r->cl);
	}
	gp_whatif_run_desc(s, run, &d);
	if (s->have_tenants) {
		/* the configuration's quotas and weights, in memory */
		gp_whatif_quota_apply(s, c.v[GP_AX_TENANTS], &r->tenants);
		d.tenants_set = &r->tenants;
	}
	if ((st = gp_run_prepare(&one, &d, r->cl, jobs_of(r, t), r->perf, r->scale[t], err)) ||
	    (st = gp_run_exec(&one, err))) {
		gp_run_release(&one);
		return st;
	}
	memset(out, 0, sizeof(*out));
	gp_run_metrics(&one, out->m);
	if (s->have_tenants)
		gp_whatif_quota_figures(s, one.jobs, &one.res, out);
	out->nodes = r->cl->nnodes;
	out->gpus = r->cl->ngpus;
	if (rec && r->hooks.record)
		st = r->hooks.record(r->hooks.ud, run, &one, rec, err);
	gp_run_release(&one);
	return st;
}

/* ---- results ---- */

void gp_whatif_results_init(gp_whatif_results *rs, const gp_whatif_spec *spec)
{
	size_t i;

	memset(rs, 0, sizeof(*rs));
	rs->spec = spec;
	rs->slot = gp_xmalloc((spec->nruns ? spec->nruns : 1) * sizeof(*rs->slot));
	for (i = 0; i < spec->nruns; i++)
		rs->slot[i] = -1;
}

void gp_whatif_results_release(gp_whatif_results *rs)
{
	free(rs->slot);
	free(rs->res);
	memset(rs, 0, sizeof(*rs));
}

void gp_whatif_results_put(gp_whatif_results *rs, size_t run, const gp_whatif_result *res)
{
	if (run >= rs->spec->nruns)
		return;
	if (rs->slot[run] < 0) {
		GP_GROW(rs->res, rs->cap, rs->n + 1);
		rs->slot[run] = (int32_t)rs->n++;
	}
	rs->res[rs->slot[run]] = *res;
}

const gp_whatif_result *gp_whatif_results_get(const gp_whatif_results *rs, size_t run)
{
	return run < rs->spec->nruns && rs->slot[run] >= 0 ? &rs->res[rs->slot[run]] : NULL;
}

int gp_whatif_results_complete(const gp_whatif_results *rs, size_t cfg)
{
	size_t k, ns = rs->spec->nseeds, need = gp_whatif_seeds_of(rs->spec, cfg);

	for (k = 0; k < need; k++)
		if (rs->slot[cfg * ns + k] < 0)
			return 0;
	return 1;
}

int gp_whatif_has_slo(const gp_whatif_spec *s)
{
	return s->slo_metric >= 0 || s->tslo_on;
}

int gp_whatif_meets_run(const gp_whatif_spec *s, const gp_whatif_result *r)
{
	double v;

	if (!gp_whatif_has_slo(s) || !r)
		return -1;
	/* the tenant SLO too, when there is one */
	if (s->tslo_on && !gp_whatif_quota_meets(s, r))
		return 0;
	if (s->slo_metric < 0)
		return 1;
	v = r->m[s->slo_metric];
	return s->slo_max ? v <= s->slo_bound : v >= s->slo_bound;
}

int gp_whatif_meets(const gp_whatif_results *rs, size_t cfg)
{
	size_t k, ns = rs->spec->nseeds, need = gp_whatif_seeds_of(rs->spec, cfg);

	if (!gp_whatif_has_slo(rs->spec) || !gp_whatif_results_complete(rs, cfg))
		return -1;
	for (k = 0; k < need; k++)
		if (!gp_whatif_meets_run(rs->spec, gp_whatif_results_get(rs, cfg * ns + k)))
			return 0;
	return 1;
}

int gp_whatif_meets_all(const gp_whatif_results *rs, size_t cfg)
{
	size_t k, n = gp_whatif_nscenarios(rs->spec);
	int all = 1;

	for (k = 0; k < n; k++) {
		int m = gp_whatif_meets(rs, gp_whatif_scenario_config(rs->spec, cfg, k));

		if (m < 0)
			return -1;
		all &= m;
	}
	return all;
}

void gp_whatif_mean(const gp_whatif_results *rs, size_t cfg, gp_whatif_result *out)
{
	size_t k, ns = rs->spec->nseeds, need = gp_whatif_seeds_of(rs->spec, cfg);
	int i;

	memset(out, 0, sizeof(*out));
	for (k = 0; k < need; k++) {
		const gp_whatif_result *r = gp_whatif_results_get(rs, cfg * ns + k);

		if (!r)
			continue;
		for (i = 0; i < GP_M_COUNT; i++)
			out->m[i] += r->m[i] / (double)need;
		for (i = 0; i < GP_WHATIF_MAX_TENANTS; i++)
			out->tenant[i] += r->tenant[i] / (double)need;
		out->nodes = r->nodes;
		out->gpus = r->gpus;
	}
}

/* ---- search ---- */

int gp_whatif_search_axis(const gp_whatif_spec *s)
{
	if (!gp_whatif_has_slo(s))
		return -1;
	/* tenants' delays fall with more nodes: a metric that must fall
	 * too, or none */
	if (s->tslo_on && s->slo_metric >= 0 && !gp_whatif_search_up(s, GP_AX_ADD))
		return -1;
	if (s->add.n > 1)
		return GP_AX_ADD;
	if (s->remove.n > 1 && !s->scenario[GP_AX_REMOVE])
		return GP_AX_REMOVE;
	return -1;
}

int gp_whatif_search_up(const gp_whatif_spec *s, int axis)
{
	/* More capacity lowers delays, slowdowns, failures and utilization
	 * and raises the number of jobs completed. */
	int m = s->slo_metric;
	int grows = m == GP_M_COMPLETED;
	int meets_with_more = m < 0 ? 1 : grows ? !s->slo_max : s->slo_max;

	return axis == GP_AX_ADD ? meets_with_more : !meets_with_more;
}

void gp_whatif_search_init(gp_whatif_search *se, size_t nlines, size_t n, int up)
{
	size_t i;

	memset(se, 0, sizeof(*se));
	se->nlines = nlines;
	se->n = n;
	se->up = up;
	se->lo = gp_xmalloc((nlines ? nlines : 1) * sizeof(long));
	se->hi = gp_xmalloc((nlines ? nlines : 1) * sizeof(long));
	for (i = 0; i < nlines; i++) {
		se->lo[i] = -1;
		se->hi[i] = (long)n;
	}
}

void gp_whatif_search_release(gp_whatif_search *se)
{
	free(se->lo);
	free(se->hi);
	memset(se, 0, sizeof(*se));
}

/* Index in the axis' own order of position k in "up" order. */
static size_t axis_index(const gp_whatif_search *se, long k)
{
	return se->up ? (size_t)k : se->n - 1 - (size_t)k;
}

size_t gp_whatif_search_next(const gp_whatif_search *se, size_t per_line, size_t cap,
			     size_t *line, size_t *index)
{
	size_t l, got = 0;

	if (per_line < 1)
		per_line = 1;
	for (l = 0; l < se->nlines && got < cap; l++) {
		long lo = se->lo[l], hi = se->hi[l], gap = hi - lo - 1, k, last = lo;

		if (gap <= 0)
			continue;
		/* per_line points split (lo, hi) into per_line + 1 parts. */
		for (k = 1; k <= (long)per_line && got < cap; k++) {
			long p = lo + (long)(((double)(hi - lo) * (double)k) / (double)(per_line + 1));

			if (p <= last)
				p = last + 1;
			if (p >= hi)
				break;
			line[got] = l;
			index[got++] = axis_index(se, p);
			last = p;
		}
	}
	return got;
}

void gp_whatif_search_set(gp_whatif_search *se, size_t line, size_t index, int meets)
{
	long k = se->up ? (long)index : (long)(se->n - 1 - index);

	if (line >= se->nlines)
		return;
	if (meets && k < se->hi[line])
		se->hi[line] = k;
	if (!meets && k > se->lo[line])
		se->lo[line] = k;
	/* Not monotone after all: look for a count that meets above the
	 * highest failure. */
	if (se->hi[line] <= se->lo[line])
		se->hi[line] = (long)se->n;
}

long gp_whatif_search_answer(const gp_whatif_search *se, size_t line)
{
	if (line >= se->nlines || se->hi[line] >= (long)se->n)
		return -1;
	return (long)axis_index(se, se->hi[line]);
}

static void dim_of_axis(const gp_whatif_spec *s, int axis, gp_whatif_dim *d)
{
	d->axis = axis;
	d->taxis = -1;
	d->n = s->nvalues[axis];
	d->stride = 1;
}

size_t gp_whatif_dim_lines(const gp_whatif_spec *s, const gp_whatif_dim *d)
{
	return s->nconfigs / d->n / gp_whatif_nscenarios(s);
}

size_t gp_whatif_dim_config(const gp_whatif_spec *s, const gp_whatif_dim *d, size_t line,
			    size_t index)
{
	gp_whatif_config c;
	size_t rest = line;
	int a;

	/* Lines enumerate the other axes in grid order, and within the
	 * searched grid axis the values of its other parts (the other tenant
	 * axes: those before d vary slower, those after it faster). */
	for (a = GP_AX_COUNT - 1; a >= 0; a--) {
		size_t other = a == d->axis ? s->nvalues[a] / d->n : s->nvalues[a], r;

		if (s->scenario[a]) {
			c.v[a] = 0;
			continue;
		}
		r = rest % other;
		rest /= other;
		c.v[a] = a == d->axis ? r / d->stride * d->n * d->stride + index * d->stride +
						r % d->stride : r;
	}
	return gp_whatif_config_index(s, &c);
}

size_t gp_whatif_dim_index(const gp_whatif_spec *s, const gp_whatif_dim *d, size_t cfg)
{
	gp_whatif_config c;

	gp_whatif_config_of(s, cfg, &c);
	return c.v[d->axis] / d->stride % d->n;
}

const char *gp_whatif_dim_name(const gp_whatif_spec *s, const gp_whatif_dim *d)
{
	return d->taxis >= 0 ? s->taxes[d->taxis].name : gp_whatif_axis_names[d->axis];
}

int gp_whatif_dim_up(const gp_whatif_spec *s, const gp_whatif_dim *d)
{
	return d->taxis >= 0 ? 1 : gp_whatif_search_up(s, d->axis);
}

/* The tenants a tenant SLO bounds, "b, c" (those other than skip; -1:
 * every one), and how many. */
static size_t bounded_tenants(const gp_whatif_spec *s, int skip, char *buf, size_t size)
{
	size_t t, n = 0, len = 0;

	buf[0] = 0;
	for (t = 0; s->tslo_on && t < s->tenants.n; t++)
		if (s->tslo_bound[t] >= 0 && (int)t != skip) {
			if (len < size)
				len += (size_t)snprintf(buf + len, size - len, "%s%s", n ? ", " : "",
							s->tenants.t[t].name);
			n++;
		}
	return n;
}

int gp_whatif_search_pick(const gp_whatif_spec *s, gp_whatif_dim *d, gp_error *err)
{
	const gp_whatif_taxis *x = NULL;
	int a = gp_whatif_search_axis(s), t = -1;
	size_t i, k;
	char names[512];

	if (a >= 0) {
		dim_of_axis(s, a, d);
		return GP_OK;
	}
	/* the quota axis: the first of a bounded tenant, else the first */
	for (i = 0; i < s->ntaxes; i++) {
		const gp_whatif_taxis *y = &s->taxes[i];

		if (y->kind != GP_WT_QUOTA || y->n < 2)
			continue;
		if (!x || (s->tslo_on && s->tslo_bound[y->tenants[0]] >= 0 &&
			   s->tslo_bound[x->tenants[0]] < 0))
			x = y;
	}
	if (!x || !gp_whatif_has_slo(s))
		return gp_error_set(err, GP_EUSAGE, "", 0, 0,
				    "--search needs an 'slo' and 'add_nodes' or 'remove_nodes' with "
				    "more than one count (or a 'quota.T' axis and a tenant SLO on T "
				    "alone)");
	t = x->tenants[0];
	if (!s->tslo_on)
		return gp_error_set(err, GP_EINPUT, s->path, x->line, x->col,
				    "--search along '%s' needs a tenant SLO on %s alone (slo: "
				    "{tenant_p90_wait: {%s: 1h}}): the 'metric' bound counts every "
				    "tenant's jobs, whose waits more quota for %s can raise; run the "
				    "grid (without --search)", x->name, s->tenants.t[t].name,
				    s->tenants.t[t].name, s->tenants.t[t].name);
	if (s->tslo_bound[t] < 0) {
		bounded_tenants(s, -1, names, sizeof(names));
		return gp_error_set(err, GP_EINPUT, s->path, s->tslo_line, s->tslo_col,
				    "--search along '%s': the SLO bounds %s, not %s: their waits need "
				    "not fall as %s's quota grows (they share the GPUs); search a quota "
				    "of a tenant the SLO bounds, or run the grid (without --search)",
				    x->name, names, s->tenants.t[t].name, s->tenants.t[t].name);
	}
	if (bounded_tenants(s, t, names, sizeof(names)) > 0)
		return gp_error_set(err, GP_EINPUT, s->path, s->tslo_line, s->tslo_col,
				    "--search along '%s': the SLO bounds %s besides %s, and more quota "
				    "for %s can raise the waits of %s (they share the GPUs), so meeting "
				    "it need not be monotone in %s's quota: bound %s alone ({%s: ...}) "
				    "or run the grid (without --search)", x->name, names,
				    s->tenants.t[t].name, s->tenants.t[t].name, names,
				    s->tenants.t[t].name, s->tenants.t[t].name, s->tenants.t[t].name);
	if (s->slo_metric >= 0)
		return gp_error_set(err, GP_EINPUT, s->path, s->tslo_line, s->tslo_col,
				    "--search along '%s': the 'metric' bound (%s) counts every "
				    "tenant's jobs, whose waits more quota for %s can raise, so "
				    "meeting it need not be monotone in %s's quota: drop it or run "
				    "the grid (without --search)", x->name,
				    gp_metrics[s->slo_metric].path, s->tenants.t[t].name,
				    s->tenants.t[t].name);
	d->axis = GP_AX_TENANTS;
	d->taxis = (int)(x - s->taxes);
	d->n = x->n;
	d->stride = 1;
	for (k = (size_t)d->taxis + 1; k < s->ntaxes; k++)
		d->stride *= s->taxes[k].n;
	return GP_OK;
}

size_t gp_whatif_search_config(const gp_whatif_spec *s, int axis, size_t line, size_t index)
{
	gp_whatif_config c;
	size_t rest = line;
	int a;

	/* Lines enumerate the other axes in grid order. */
	for (a = GP_AX_COUNT - 1; a >= 0; a--) {
		if (a == axis)
			continue;
		c.v[a] = rest % s->nvalues[a];
		rest /= s->nvalues[a];
	}
	c.v[axis] = index;
	return gp_whatif_config_index(s, &c);
}

/* ---- answer ---- */

/* With a tenant SLO: the worst tenant's figure over its bound, the
 * largest over the seeds and scenarios of choice cfg (smaller: more room
 * under the SLO). */
static double headroom(const gp_whatif_results *rs, size_t cfg)
{
	const gp_whatif_spec *s = rs->spec;
	size_t k, j, n = gp_whatif_nscenarios(s);
	double worst = 0, q;

	for (k = 0; k < n; k++) {
		size_t c = gp_whatif_scenario_config(s, cfg, k);

		for (j = 0; j < gp_whatif_seeds_of(s, c); j++)
			if (gp_whatif_quota_worst(s, gp_whatif_results_get(rs, c * s->nseeds + j), &q) >= 0 &&
			    q > worst)
				worst = q;
	}
	return worst;
}

long gp_whatif_best_along(const gp_whatif_results *rs, const gp_cluster *base,
			  const gp_whatif_dim *d)
{
	const gp_whatif_spec *s = rs->spec;
	long best = -1;
	double best_cost = 0;
	size_t i, best_index = 0;

	if (d->taxis < 0)
		return gp_whatif_best(rs, base);
	for (i = 0; i < s->nconfigs; i++) {
		gp_whatif_config c;
		gp_whatif_shape sh;
		size_t k;

		if (gp_whatif_choice_of(s, i) != i || gp_whatif_meets_all(rs, i) != 1)
			continue;
		gp_whatif_config_of(s, i, &c);
		gp_whatif_shape_of(s, base, &c, &sh);
		k = gp_whatif_dim_index(s, d, i);
		if (best < 0 || sh.cost < best_cost || (sh.cost == best_cost && k < best_index)) {
			best = (long)i;
			best_cost = sh.cost;
			best_index = k;
		}
	}
	return best;
}

int gp_whatif_search_verify(const gp_whatif_results *rs, const gp_whatif_dim *d, long best,
			    long *below)
{
	const gp_whatif_spec *s = rs->spec;
	gp_whatif_config c;
	size_t k;
	int m, mb, up;

	*below = -1;
	if (best < 0)
		return -1;
	k = gp_whatif_dim_index(s, d, (size_t)best);
	up = gp_whatif_dim_up(s, d);
	if (up ? k == 0 : k + 1 == d->n)
		return -1;
	/* the next cheaper value: one down when meeting holds upwards */
	gp_whatif_config_of(s, (size_t)best, &c);
	if (up)
		c.v[d->axis] -= d->stride;
	else
		c.v[d->axis] += d->stride;
	*below = (long)gp_whatif_config_index(s, &c);
	m = gp_whatif_meets_all(rs, (size_t)best);
	mb = gp_whatif_meets_all(rs, (size_t)*below);
	if (mb < 0)
		return -1;
	return m == 1 && mb == 0;
}

long gp_whatif_best(const gp_whatif_results *rs, const gp_cluster *base)
{
	const gp_whatif_spec *s = rs->spec;
	long best = -1;
	double best_cost = 0, best_worst = 0;
	size_t i;

	for (i = 0; i < s->nconfigs; i++) {
		gp_whatif_config c;
		gp_whatif_shape sh;

		gp_whatif_config_of(s, i, &c);
		if (gp_whatif_choice_of(s, i) != i || gp_whatif_meets_all(rs, i) != 1)
			continue;
		gp_whatif_shape_of(s, base, &c, &sh);
		if (best < 0 || sh.cost < best_cost ||
		    (sh.cost == best_cost && s->tslo_on && headroom(rs, i) < best_worst)) {
			best = (long)i;
			best_cost = sh.cost;
			best_worst = s->tslo_on ? headroom(rs, i) : 0;
		}
	}
	return best;
}
