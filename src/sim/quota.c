/* Tenants in the engine (tenants.h for the rules): each job's tenant, the
 * usage of every tenant per quota key, admission of a placement, and the
 * GPU-seconds used, borrowed and lent.  Admission runs on the placement
 * the policy proposed (its GPU models decide which keys it draws on); a
 * job that fits but finds no quota waits without marking its shape as
 * waiting, so other tenants' jobs of that shape still try. */
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"

/* The quota keys a placement draws on: milli-GPU per key into d. */
static void demand(const sim *s, const gp_placement *p, int64_t *d)
{
	int k;

	memset(d, 0, sizeof(*d) * GP_TENANTS_MAX_RES);
	for (k = 0; k < p->nparts; k++) {
		const gp_place_part *part = &p->parts[k];
		int64_t m = (int64_t)part->ngpus * part->milli;

		if (s->q_all >= 0)
			d[s->q_all] += m;
		if (s->q_node_res[part->node] >= 0)
			d[s->q_node_res[part->node]] += m;
	}
}

static int64_t guaranteed(const gp_tenant *t, int r)
{
	int64_t g = t->lend_limit >= 0 ? t->nominal[r] - t->lend_limit : 0;

	return g > 0 ? g : 0;
}

int gp_sim_quota_setup(sim *s)
{
	const gp_tenants *T = s->cfg->tenants;
	int dflt = -1, r;
	size_t i;

	if (s->cfg->default_tenant) {
		dflt = gp_tenants_find(T, s->cfg->default_tenant);
		if (dflt < 0)
			return gp_error_set(s->err, GP_EUSAGE, NULL, 0, 0,
					    "default tenant '%.64s' is not in %s", s->cfg->default_tenant,
					    T->path ? T->path : "the tenants file");
	}
	s->res->job_tenant = gp_xmalloc((s->n ? s->n : 1) * sizeof(*s->res->job_tenant));
	for (i = 0; i < s->n; i++) {
		const gp_job *job = &s->jl->jobs[i];
		int t = job->environment && *job->environment ? gp_tenants_find(T, job->environment) : -1;

		if (t < 0)
			t = dflt;
		if (t < 0)
			return gp_error_set(s->err, GP_EINPUT, s->jl->source, (int)job->line, 0,
					    job->environment && *job->environment
						    ? "job '%.64s': tenant '%.64s' is not in %s (or give a default tenant)"
						    : "job '%.64s' has no tenant%.0s (name one, or give a default tenant; "
						      "tenants: %s)",
					    job->id ? job->id : "?", job->environment ? job->environment : "",
					    T->path ? T->path : "the tenants file");
		s->res->job_tenant[i] = t;
	}
	s->res->ntenants = T->n;
	s->res->tenants = T;
	s->res->tenant_use = gp_xcalloc(T->n ? T->n : 1, sizeof(*s->res->tenant_use));
	s->q_use = gp_xcalloc((T->n ? T->n : 1) * GP_TENANTS_MAX_RES, sizeof(*s->q_use));
	s->q_node_res = gp_xmalloc((s->cl->nnodes ? (size_t)s->cl->nnodes : 1) * sizeof(*s->q_node_res));
	s->q_all = -1;
	for (r = 0; r < T->nres; r++)
		if (!strcmp(T->res[r], "gpus"))
			s->q_all = r;
	for (i = 0; i < (size_t)s->cl->nnodes; i++) {
		const gp_gpu_model *m = gp_cluster_node_model(s->cl, (int)i);

		s->q_node_res[i] = -1;
		for (r = 0; m && r < T->nres; r++)
			if (!strcmp(T->res[r], m->name))
				s->q_node_res[i] = r;
	}
	s->q_t = s->res->first_submit;
	return GP_OK;
}

void gp_sim_quota_teardown(sim *s)
{
	free(s->q_use);
	free(s->q_node_res);
}

/* Does tenant t's quota (and its cohort's) admit a use of d more? */
static int admits(const sim *s, int t, const int64_t *d)
{
	const gp_tenants *T = s->cfg->tenants;
	const gp_tenant *x = &T->t[t];
	int r;

	for (r = 0; r < T->nres; r++) {
		int64_t u = s->q_use[(size_t)t * GP_TENANTS_MAX_RES + r] + d[r], pool = 0, drawn = 0;
		size_t k;

		if (!d[r] || u <= x->nominal[r])
			continue;
		if (x->cohort < 0)
			return 0;
		if (x->borrow_limit >= 0 && u - x->nominal[r] > x->borrow_limit)
			return 0;
		for (k = 0; k < T->n; k++) {
			const gp_tenant *y = &T->t[k];
			int64_t g, uy;

			if (y->cohort != x->cohort)
				continue;
			g = guaranteed(y, r);
			uy = s->q_use[k * GP_TENANTS_MAX_RES + r] + ((int)k == t ? d[r] : 0);
			pool += y->nominal[r] - g;
			drawn += uy > g ? uy - g : 0;
		}
		if (drawn > pool)
			return 0;
	}
	return 1;
}

int gp_sim_quota_precheck(sim *s, int32_t j)
{
	int64_t d[GP_TENANTS_MAX_RES];
	int t = s->res->job_tenant[j];

	if (s->q_all < 0)
		return 1;
	memset(d, 0, sizeof(d));
	d[s->q_all] = need_milli(&s->jl->jobs[j]);
	if (admits(s, t, d))
		return 1;
	s->res->tenant_use[t].quota_waits++;
	return 0;
}

int gp_sim_quota_admit(sim *s, int32_t j, const gp_placement *p)
{
	int64_t d[GP_TENANTS_MAX_RES];
	int t = s->res->job_tenant[j];

	demand(s, p, d);
	if (admits(s, t, d))
		return 1;
	s->res->tenant_use[t].quota_waits++;
	return 0;
}

/* Integrate usage, borrowing and lending (first quota key) up to now. */
static void integrate(sim *s)
{
	const gp_tenants *T = s->cfg->tenants;
	double dt = s->last_t - s->q_t;
	size_t k, c;

	if (!(dt > 0))
		return;
	s->q_t = s->last_t;
	for (c = 0; c < (size_t)T->ncohorts + 1; c++) {
		double borrowed = 0, idle = 0;

		for (k = 0; k < T->n; k++) {
			const gp_tenant *x = &T->t[k];
			int64_t u = s->q_use[k * GP_TENANTS_MAX_RES];

			if (c == 0) {
				s->res->tenant_use[k].gpu_s += dt * (double)u / GP_MILLI;
				if (u > x->nominal[0])
					s->res->tenant_use[k].borrowed_gpu_s +=
						dt * (double)(u - x->nominal[0]) / GP_MILLI;
			}
			if (x->cohort != (int)c - 1 || c == 0)
				continue;
			if (u > x->nominal[0])
				borrowed += (double)(u - x->nominal[0]);
			else
				idle += (double)(x->nominal[0] - u);
		}
		if (c == 0 || !(borrowed > 0) || !(idle > 0))
			continue;
		/* What the cohort borrows comes from its idle quota, shared
		 * out by how much each has idle. */
		for (k = 0; k < T->n; k++) {
			const gp_tenant *x = &T->t[k];
			int64_t u = s->q_use[k * GP_TENANTS_MAX_RES];

			if (x->cohort == (int)c - 1 && u < x->nominal[0])
				s->res->tenant_use[k].lent_gpu_s +=
					dt * borrowed * (double)(x->nominal[0] - u) / idle / GP_MILLI;
		}
	}
}

void gp_sim_quota_change(sim *s, int32_t j, const gp_placement *p, int sign)
{
	int64_t d[GP_TENANTS_MAX_RES];
	int t = s->res->job_tenant[j], r;
	struct gp_sim_tenant_use *u = &s->res->tenant_use[t];
	int64_t *use = &s->q_use[(size_t)t * GP_TENANTS_MAX_RES];

	integrate(s);
	demand(s, p, d);
	for (r = 0; r < s->cfg->tenants->nres; r++)
		use[r] += sign * d[r];
	if (use[0] > u->peak_milli)
		u->peak_milli = use[0];
}

void gp_sim_quota_end(sim *s)
{
	integrate(s);
}
