/* Tenants in the engine (tenants.h for the rules): each job's tenant, the
 * usage of every tenant per quota key, admission of a placement, and the
 * GPU-seconds used, borrowed and lent.  Admission runs on the placement
 * the policy proposed (its GPU models decide which keys it draws on);
 * one refused on a GPU model's key is asked for again among the models
 * whose keys admit the job (Kueue's flavor assignment).  A job that fits
 * but finds no quota waits without marking its shape as waiting, so
 * other tenants' jobs of that shape still try.  Reclaim and
 * preemption by share are in quota_reclaim.c, backfill's holds in
 * quota_plan.c; both change usage only through gp_sim_q_use_delta. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quota_int.h"

/* Each cohort's members (co_mem[co_off[c] .. co_off[c + 1])), what
 * it can lend per key (sum of quota less guaranteed quota), the time
 * each tenant and cohort was integrated to. */
static void cohort_setup(sim *s)
{
	const gp_tenants *T = s->cfg->tenants;
	size_t k, nt = T->n ? T->n : 1, nc = (size_t)T->ncohorts + 1;
	int c, r;
	double wsum;

	s->q.co_off = gp_xcalloc(nc, sizeof(*s->q.co_off));
	s->q.co_mem = gp_xmalloc(nt * sizeof(*s->q.co_mem));
	s->q.co_pool = gp_xcalloc(nc * GP_TENANTS_MAX_RES, sizeof(*s->q.co_pool));
	s->q.co_drawn = gp_xcalloc(nc * GP_TENANTS_MAX_RES, sizeof(*s->q.co_drawn));
	s->q.gver = gp_xcalloc(nc + nt, sizeof(*s->q.gver));
	s->q.fail_need = gp_xcalloc(nt, sizeof(*s->q.fail_need));
	s->q.fail_ver = gp_xcalloc(nt, sizeof(*s->q.fail_ver));
	s->q.tt = gp_xmalloc(nt * sizeof(*s->q.tt));
	s->q.ct = gp_xmalloc(nc * sizeof(*s->q.ct));
	s->q.fair = gp_xmalloc(nt * sizeof(*s->q.fair));
	s->q.sh = gp_xcalloc(nt, sizeof(*s->q.sh));
	for (k = 0, wsum = 0; k < T->n; k++)
		wsum += T->t[k].weight;
	for (k = 0; k < nt; k++) {
		s->q.tt[k] = s->res->first_submit;
		s->q.fair[k] = k < T->n ? (double)s->cap_milli * T->t[k].weight / wsum : 0;
	}
	for (k = 0; k < nc + nt; k++)
		s->q.gver[k] = 1; /* a refusal's version is never 0 */
	for (k = 0; k < nc; k++)
		s->q.ct[k] = s->res->first_submit;
	for (k = 0; k < T->n; k++)
		if (T->t[k].cohort >= 0) {
			s->q.co_off[T->t[k].cohort + 1]++;
			for (r = 0; r < T->nres; r++)
				s->q.co_pool[(size_t)T->t[k].cohort * GP_TENANTS_MAX_RES + r] +=
					T->t[k].nominal[r] - guaranteed(&T->t[k], r);
		}
	for (c = 0; c < T->ncohorts; c++)
		s->q.co_off[c + 1] += s->q.co_off[c];
	for (k = 0, c = 0; c < T->ncohorts; c++) {
		size_t at = (size_t)s->q.co_off[c], i;

		for (i = 0; i < T->n; i++)
			if (T->t[i].cohort == c)
				s->q.co_mem[at++] = (int32_t)i;
	}
}

/* The running-job lists of reclaim. */
static void reclaim_setup(sim *s)
{
	const gp_tenants *T = s->cfg->tenants;
	size_t nt = T->n ? T->n : 1, n = s->n ? s->n : 1, k;

	s->q.rhead = gp_xmalloc(nt * sizeof(*s->q.rhead));
	memset(s->q.rhead, 0xff, nt * sizeof(*s->q.rhead));
	s->q.rprev = gp_xmalloc(n * sizeof(*s->q.rprev));
	s->q.rnext = gp_xmalloc(n * sizeof(*s->q.rnext));
	s->q.seq = gp_xcalloc(n, sizeof(*s->q.seq));
	s->q.released = gp_xcalloc(n, sizeof(*s->q.released));
	s->q.rc_n = gp_xcalloc(n, sizeof(*s->q.rc_n));
	s->q.pre_t = gp_xmalloc(n * sizeof(*s->q.pre_t));
	s->q.pre_n = gp_xcalloc(n, sizeof(*s->q.pre_n));
	for (k = 0; k < n; k++)
		s->q.pre_t[k] = -INFINITY;
	s->q.took_t = -INFINITY;
	s->q.one_prio = 1;
	for (k = 1; k < s->n && s->q.one_prio; k++)
		s->q.one_prio = s->jl->jobs[k].priority == s->jl->jobs[0].priority;
	s->q.rc_ver = gp_xcalloc(nt, sizeof(*s->q.rc_ver));
	s->q.rc_need = gp_xcalloc(nt, sizeof(*s->q.rc_need));
	s->q.rc_free = gp_xcalloc(nt, sizeof(*s->q.rc_free));
	s->q.fp_ver = gp_xcalloc(nt, sizeof(*s->q.fp_ver));
	s->q.fp_need = gp_xcalloc(nt, sizeof(*s->q.fp_need));
	s->q.fp_free = gp_xcalloc(nt, sizeof(*s->q.fp_free));
	s->q.fp_top = gp_xcalloc((size_t)T->ncohorts + 1, sizeof(*s->q.fp_top));
	s->q.fp_dmin = gp_xmalloc(nt * sizeof(*s->q.fp_dmin));
	for (k = 0; k < nt; k++)
		s->q.fp_dmin[k] = INT64_MAX;
}

int gp_sim_tenant_key_parse(const char *s)
{
	if (!strcmp(s, "tenant") || !strcmp(s, "vc"))
		return GP_SIM_TENANT_COLUMN;
	if (!strcmp(s, "account"))
		return GP_SIM_TENANT_ACCOUNT;
	if (!strcmp(s, "partition"))
		return GP_SIM_TENANT_PARTITION;
	return -1;
}

/* The name of job's tenant by the configured column; NULL none. */
static const char *tenant_name(const sim *s, const gp_job *job)
{
	switch (s->cfg->tenant_key) {
	case GP_SIM_TENANT_ACCOUNT:
		return job->hist ? job->hist->account : NULL;
	case GP_SIM_TENANT_PARTITION:
		return job->hist ? job->hist->partition : NULL;
	default:
		return job->environment;
	}
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
		const char *name = tenant_name(s, job);
		int t = name && *name ? gp_tenants_find(T, name) : -1;

		if (t < 0)
			t = dflt;
		if (t < 0)
			return gp_error_set(s->err, GP_EINPUT, s->jl->source, (int)job->line, 0,
					    name && *name
						    ? "job '%.64s': tenant '%.64s' is not in %s (or give a default tenant)"
						    : "job '%.64s' has no tenant%.0s (name one, or give a default tenant; "
						      "tenants: %s)",
					    job->id ? job->id : "?", name ? name : "",
					    T->path ? T->path : "the tenants file");
		s->res->job_tenant[i] = t;
	}
	s->res->ntenants = T->n;
	s->res->tenants = T;
	s->res->tenant_use = gp_xcalloc(T->n ? T->n : 1, sizeof(*s->res->tenant_use));
	s->q.usage = gp_xcalloc((T->n ? T->n : 1) * GP_TENANTS_MAX_RES, sizeof(*s->q.usage));
	s->q.node_res = gp_xmalloc((s->cl->nnodes ? (size_t)s->cl->nnodes : 1) * sizeof(*s->q.node_res));
	s->q.all = -1;
	for (r = 0; r < T->nres; r++)
		if (!strcmp(T->res[r], "gpus"))
			s->q.all = r;
	for (i = 0; i < (size_t)s->cl->nnodes; i++) {
		const gp_gpu_model *m = gp_cluster_node_model(s->cl, (int)i);

		s->q.node_res[i] = -1;
		for (r = 0; m && r < T->nres; r++)
			if (!strcmp(T->res[r], m->name))
				s->q.node_res[i] = r;
	}
	cohort_setup(s);
	for (i = 0; i < T->n; i++) {
		const gp_tenant *x = &T->t[i];

		s->q.sh[i].weight = x->weight;
		if (s->q.all >= 0) {
			s->q.sh[i].over = -x->nominal[s->q.all];
			if (x->cohort >= 0)
				s->q.sh[i].pool = s->q.co_pool[(size_t)x->cohort * GP_TENANTS_MAX_RES + s->q.all];
		}
	}
	s->q.said_no = -1;
	s->q.fr_epoch = gp_xcalloc(s->nshapes ? s->nshapes : 1, sizeof(*s->q.fr_epoch));
	s->q.fr_types = gp_xcalloc(s->nshapes ? s->nshapes : 1, sizeof(*s->q.fr_types));
	gp_accepts_memo_init(&s->q.accepts);
	if (s->q.reclaim)
		reclaim_setup(s);
	return GP_OK;
}

void gp_sim_quota_teardown(sim *s)
{
	free(s->q.usage);
	free(s->q.node_res);
	free(s->q.rhead);
	free(s->q.rprev);
	free(s->q.rnext);
	free(s->q.co_off);
	free(s->q.co_mem);
	free(s->q.co_pool);
	free(s->q.co_drawn);
	free(s->q.gver);
	free(s->q.fail_need);
	free(s->q.fail_ver);
	free(s->q.tt);
	free(s->q.fair);
	free(s->q.sh);
	free(s->q.ct);
	free(s->q.vict);
	free(s->q.seq);
	free(s->q.released);
	free(s->q.rc_n);
	free(s->q.pre_t);
	free(s->q.pre_n);
	free(s->q.took);
	free(s->q.rc_ver);
	free(s->q.rc_need);
	free(s->q.rc_free);
	free(s->q.hold);
	free(s->q.fp_ver);
	free(s->q.fp_need);
	free(s->q.fp_free);
	free(s->q.fp_c);
	free(s->q.fp_dmin);
	free(s->q.fp_top);
	free(s->q.fr_epoch);
	free(s->q.fr_types);
	gp_accepts_memo_release(&s->q.accepts);
}

static int64_t over(int64_t u, int64_t g)
{
	return u > g ? u - g : 0;
}

/* A tenant's part of a key: what it uses over its quota (over) of what
 * its cohort lends (pool).  Its dominant share (Kueue's DRS) is its
 * largest part over the keys, by its weight. */
static inline double part_of(int64_t over, int64_t pool)
{
	if (over <= 0 || pool <= 0) /* most questions end here */
		return 0;
	return (double)over / (double)pool;
}

static inline double weighed(double best, double weight)
{
	if (!(best > 0))
		return 0;
	return weight > 0 ? best / weight : INFINITY;
}

/* Tenant x's (in a cohort) part of key r at a use u. */
static inline double part(const sim *s, const gp_tenant *x, int r, int64_t u)
{
	return part_of(u - x->nominal[r], s->q.co_pool[(size_t)x->cohort * GP_TENANTS_MAX_RES + r]);
}

void gp_sim_q_use_delta(sim *s, int t, const int64_t *d, int sign)
{
	const gp_tenants *T = s->cfg->tenants;
	const gp_tenant *x = &T->t[t];
	int64_t *mine = s->q.usage + (size_t)t * GP_TENANTS_MAX_RES;
	double rest = 0, b;
	int r;

	for (r = 0; r < T->nres; r++) {
		int64_t u = mine[r] + sign * d[r];

		if (x->cohort >= 0) {
			int64_t g = guaranteed(x, r);

			s->q.co_drawn[(size_t)x->cohort * GP_TENANTS_MAX_RES + r] += over(u, g) - over(mine[r], g);
			if (r != s->q.all && (b = part(s, x, r, u)) > rest)
				rest = b;
		}
		mine[r] = u;
	}
	if (x->cohort >= 0)
		s->q.sh[t].rest = rest;
	if (s->q.all >= 0)
		s->q.sh[t].over = mine[s->q.all] - x->nominal[s->q.all];
	++*group_ver(s, t);
}

int gp_sim_quota_precheck(sim *s, int32_t j)
{
	int t = s->res->job_tenant[j];
	int64_t need;
	uint32_t ver;

	if (s->q.all < 0)
		return 1;
	need = need_milli(&s->jl->jobs[j]);
	/* Admission only gets harder with a larger need: a need at least as
	 * large as one refused since the group's use last changed is
	 * refused too (a pass over a long queue stays cheap). */
	ver = *group_ver(s, t);
	if (!(s->q.fail_ver[t] == ver && need >= s->q.fail_need[t])) {
		if (admits_key(s, t, s->q.all, need))
			return 1;
		if (s->q.fail_ver[t] != ver || need < s->q.fail_need[t])
			s->q.fail_need[t] = need;
		s->q.fail_ver[t] = ver;
	}
	s->res->tenant_use[t].quota_waits++;
	s->q.said_no = j;
	return 0;
}

/* Does tenant t's key r admit a use of d more, within its nominal
 * quota too when nominal (reclaim's rule 1)? */
static int key_admits(const sim *s, int t, int r, int64_t d, int nominal)
{
	return admits_key(s, t, r, d) &&
	       (!nominal || d <= 0 ||
		s->q.usage[(size_t)t * GP_TENANTS_MAX_RES + r] + d <= s->cfg->tenants->t[t].nominal[r]);
}

/* Was demand d refused on a GPU model's key alone (`gpus` admits it)? */
static int model_refused(const sim *s, int t, const int64_t *d, int nominal)
{
	int r, no = 0;

	if (s->q.all >= 0 && !key_admits(s, t, s->q.all, d[s->q.all], nominal))
		return 0;
	for (r = 0; r < s->cfg->tenants->nres; r++)
		no |= r != s->q.all && !key_admits(s, t, r, d[r], nominal);
	return no;
}

static int admits_all(const sim *s, int t, const int64_t *d, int nominal)
{
	int r;

	for (r = 0; r < s->cfg->tenants->nres; r++)
		if (!key_admits(s, t, r, d[r], nominal))
			return 0;
	return 1;
}

/* Node type ti's GPU model in the catalog, -1 none. */
static int type_model(const gp_cluster *c, int ti)
{
	int m = c->types[ti].gpu_model;

	return m >= 0 && m < c->catalog.n ? m : -1;
}

/* Is node type ti the first of its GPU model, a model job j accepts
 * whose key (if any) admits its whole request on it?  Its name in
 * *name, NULL for nodes of no GPU model: no model key names them, so
 * they are bound by `gpus` alone, as a model without a key. */
static int type_allowed(sim *s, const gp_job *job, int t, int ti, int nominal, const char **name)
{
	const gp_cluster *c = s->cl;
	const gp_tenants *T = s->cfg->tenants;
	int m = type_model(c, ti), k, r;
	int64_t milli;

	for (k = 0; k < ti && type_model(c, k) != m; k++)
		;
	*name = NULL;
	if (k < ti)
		return 0;
	if (m < 0)
		return gp_job_accepts_no_model(job);
	*name = c->catalog.models[m].name;
	if (!gp_job_accepts_model_memo(&s->q.accepts, job, &c->catalog, m))
		return 0;
	milli = job->pred_milli && job->pred_milli[m] > 0 ? (int)job->pred_milli[m] : job->gpu_milli;
	for (r = 0; r < T->nres && strcmp(T->res[r], *name); r++)
		;
	return r >= T->nres || key_admits(s, t, r, (int64_t)job->gpus * milli, nominal);
}

/* Kueue's flavor assignment: the policy is asked once more (through
 * ctx), job j allowed only the GPU models (of its own) whose keys admit
 * its whole request on them (its predicted share there, if any); a
 * model without a key is bound by `gpus` alone.  1 with the admitted
 * placement in p; 0 refused (no model allowed, or the quota refuses the
 * placement); -1 the models allowed have no room.  With memo
 * (admission, on the engine's state: it only
 * shrinks until something is freed), an ask that found no placement is
 * not repeated for the job's shape with the same models allowed until
 * something is freed (the rule of the engine's waiting shapes). */
static int flavor_retry(sim *s, const gp_policy_ctx *ctx, int32_t j, int t, int nominal, int memo,
			gp_placement *p)
{
	const gp_cluster *c = s->cl;
	const gp_job *job = &s->jl->jobs[j];
	size_t len = 0, cap = (size_t)c->ntypes * (sizeof(c->catalog.models[0].name) + 1) + 1;
	char *list = gp_xmalloc(cap);
	int64_t d[GP_TENANTS_MAX_RES];
	uint64_t types = 0;
	int32_t sh = s->shape[j];
	const char *name;
	gp_job only;
	int ti, ok = -1, bare = 0;

	list[0] = '\0';
	for (ti = 0; ti < c->ntypes; ti++)
		if (type_allowed(s, job, t, ti, nominal, &name)) {
			if (name)
				len += (size_t)snprintf(list + len, cap - len, "%s%s", len ? "|" : "", name);
			else
				bare = 1;
			types |= ti < 64 ? (uint64_t)1 << ti : 0;
		}
	if (bare) { /* an empty name first: nodes of no GPU model */
		memmove(list + 1, list, ++len);
		list[0] = '|';
	}
	memo = memo && c->ntypes <= 64;
	if (len == 0)
		ok = 0;
	else if (!(memo && s->q.fr_epoch[sh] == s->wait_epoch && s->q.fr_types[sh] == types)) {
		only = *job;
		only.gpu_models = list;
		s->res->policy_calls++;
		if (s->cfg->policy->place(ctx, &only, p) == GP_PLACED) {
			demand(s, p, d);
			ok = admits_all(s, t, d, nominal);
		} else if (memo) {
			s->q.fr_epoch[sh] = s->wait_epoch;
			s->q.fr_types[sh] = types;
		}
	}
	free(list);
	return ok;
}

static int place_ok(sim *s, const gp_policy_ctx *ctx, int32_t j, int nominal, int memo, gp_placement *p)
{
	int64_t d[GP_TENANTS_MAX_RES];
	int t = s->res->job_tenant[j];

	demand(s, p, d);
	if (admits_all(s, t, d, nominal))
		return 1;
	if (!model_refused(s, t, d, nominal))
		return 0;
	switch (flavor_retry(s, ctx, j, t, nominal, memo, p)) {
	case 1:
		return 1;
	case 0:
		return -1;
	default:
		return -2;
	}
}

int gp_sim_q_place_ok(sim *s, const gp_policy_ctx *ctx, int32_t j, int nominal, gp_placement *p)
{
	return place_ok(s, ctx, j, nominal, 0, p);
}

int gp_sim_quota_admit(sim *s, int32_t j, gp_placement *p)
{
	int t = s->res->job_tenant[j], ok = place_ok(s, &s->ctx, j, 0, 1, p);

	if (ok > 0)
		return 1;
	/* the models whose keys admit it have no room: it waits for
	 * GPUs, not for quota (under backfill it reserves) */
	if (ok == -2)
		return 0;
	s->res->tenant_use[t].quota_waits++;
	s->q.said_no = j;
	return 0;
}

int gp_sim_quota_place_ok(sim *s, const gp_policy_ctx *ctx, int32_t j, gp_placement *p)
{
	return gp_sim_q_place_ok(s, ctx, j, 0, p);
}

double gp_sim_q_share_of(const sim *s, int t, const int64_t *d, int sign)
{
	const gp_tenant *x = &s->cfg->tenants->t[t];
	const int64_t *use = s->q.usage + (size_t)t * GP_TENANTS_MAX_RES;
	double best = 0, b;
	int r;

	if (x->cohort < 0)
		return 0;
	for (r = 0; r < s->cfg->tenants->nres; r++)
		if ((b = part(s, x, r, use[r] + sign * d[r])) > best)
			best = b;
	return weighed(best, x->weight);
}

/* From the parts kept as the use changes (gp_sim_q_use_delta), whatever
 * the number of quota keys. */
double gp_sim_quota_share(const sim *s, int t, int32_t j)
{
	const struct gp_sim_qshare *h = &s->q.sh[t];
	int64_t over = h->over;
	double b;

	if (j >= 0)
		over += need_milli(&s->jl->jobs[j]);
	b = part_of(over, h->pool);
	return weighed(b > h->rest ? b : h->rest, h->weight);
}

int gp_sim_quota_admits(sim *s, int32_t j, const gp_placement *p)
{
	int64_t d[GP_TENANTS_MAX_RES];

	demand(s, p, d);
	return admits(s, s->res->job_tenant[j], d);
}

/* Integrate tenant k's usage and borrowing (first quota key) up to now. */
static void integrate_tenant(sim *s, size_t k)
{
	const gp_tenant *x = &s->cfg->tenants->t[k];
	double dt = s->last_t - s->q.tt[k];
	int64_t u = s->q.usage[k * GP_TENANTS_MAX_RES];

	if (!(dt > 0))
		return;
	s->q.tt[k] = s->last_t;
	s->res->tenant_use[k].gpu_s += dt * (double)u / GP_MILLI;
	if ((double)u > s->q.fair[k])
		s->res->tenant_use[k].over_fair_s += dt;
	if (u > x->nominal[0])
		s->res->tenant_use[k].borrowed_gpu_s += dt * (double)(u - x->nominal[0]) / GP_MILLI;
}

/* Integrate what cohort c's tenants lend (first quota key) up to now:
 * what the cohort borrows comes from its idle quota, shared out by how
 * much each has idle. */
static void integrate_cohort(sim *s, int c)
{
	const gp_tenants *T = s->cfg->tenants;
	double dt = s->last_t - s->q.ct[c], borrowed = 0, idle = 0;
	int i;

	if (!(dt > 0))
		return;
	s->q.ct[c] = s->last_t;
	for (i = s->q.co_off[c]; i < s->q.co_off[c + 1]; i++) {
		int k = s->q.co_mem[i];
		int64_t u = s->q.usage[(size_t)k * GP_TENANTS_MAX_RES], n = T->t[k].nominal[0];

		if (u > n)
			borrowed += (double)(u - n);
		else
			idle += (double)(n - u);
	}
	if (!(borrowed > 0) || !(idle > 0))
		return;
	for (i = s->q.co_off[c]; i < s->q.co_off[c + 1]; i++) {
		int k = s->q.co_mem[i];
		int64_t u = s->q.usage[(size_t)k * GP_TENANTS_MAX_RES], n = T->t[k].nominal[0];

		if (u < n)
			s->res->tenant_use[k].lent_gpu_s += dt * borrowed * (double)(n - u) / idle / GP_MILLI;
	}
}

void gp_sim_q_integrate_group(sim *s, int c)
{
	int i;

	for (i = s->q.co_off[c]; i < s->q.co_off[c + 1]; i++)
		integrate_tenant(s, (size_t)s->q.co_mem[i]);
	integrate_cohort(s, c);
}

/* Before tenant t's use changes: it and its cohort up to now. */
static void integrate(sim *s, int t)
{
	int c = s->cfg->tenants->t[t].cohort;

	integrate_tenant(s, (size_t)t);
	if (c >= 0)
		integrate_cohort(s, c);
}

void gp_sim_quota_change(sim *s, int32_t j, const gp_placement *p, int sign)
{
	int64_t d[GP_TENANTS_MAX_RES];
	int t = s->res->job_tenant[j];
	struct gp_sim_tenant_use *u = &s->res->tenant_use[t];
	int64_t *mine = s->q.usage + (size_t)t * GP_TENANTS_MAX_RES;

	integrate(s, t);
	demand(s, p, d);
	gp_sim_q_use_delta(s, t, d, sign);
	if (mine[0] > u->peak_milli)
		u->peak_milli = mine[0];
	if (!s->q.reclaim)
		return;
	if (sign > 0) {
		if (d[0] < s->q.fp_dmin[t])
			s->q.fp_dmin[t] = d[0];
		s->q.seq[j] = ++s->q.seq_next;
		s->q.rprev[j] = -1;
		s->q.rnext[j] = s->q.rhead[t];
		if (s->q.rhead[t] >= 0)
			s->q.rprev[s->q.rhead[t]] = j;
		s->q.rhead[t] = j;
	} else {
		/* a stop by preemption (interrupt.c counts it before the
		 * quota is given back): the instant, for the rule that no
		 * job is preempted twice at one instant */
		if (s->res->jobs[j].preemptions != s->q.pre_n[j]) {
			s->q.pre_n[j] = s->res->jobs[j].preemptions;
			s->q.pre_t[j] = s->last_t;
		}
		if (s->q.rprev[j] >= 0)
			s->q.rnext[s->q.rprev[j]] = s->q.rnext[j];
		else
			s->q.rhead[t] = s->q.rnext[j];
		if (s->q.rnext[j] >= 0)
			s->q.rprev[s->q.rnext[j]] = s->q.rprev[j];
	}
}

void gp_sim_q_use_add(sim *s, int32_t v, int sign)
{
	int64_t d[GP_TENANTS_MAX_RES];

	demand(s, &s->pool[s->slot[v]], d);
	gp_sim_q_use_delta(s, s->res->job_tenant[v], d, sign);
}

void gp_sim_quota_trial(sim *s, int32_t j, int sign)
{
	gp_sim_q_use_add(s, j, sign);
}

int gp_sim_quota_reshare(sim *s, int32_t j, const gp_placement *p, int milli)
{
	int64_t d0[GP_TENANTS_MAX_RES], d1[GP_TENANTS_MAX_RES];
	int t = s->res->job_tenant[j], r, up = 0;
	struct gp_sim_tenant_use *u = &s->res->tenant_use[t];

	demand(s, p, d0);
	demand_at(s, p, milli, d1);
	for (r = 0; r < GP_TENANTS_MAX_RES; r++) {
		d1[r] -= d0[r];
		up |= d1[r] > 0;
	}
	/* Kueue admits a workload's whole request: a larger share is a new
	 * admission of the difference. */
	if (up && !admits(s, t, d1))
		return 0;
	integrate(s, t);
	gp_sim_q_use_delta(s, t, d1, 1);
	if (s->q.fp_dmin && d0[0] + d1[0] < s->q.fp_dmin[t])
		s->q.fp_dmin[t] = d0[0] + d1[0];
	if (s->q.usage[(size_t)t * GP_TENANTS_MAX_RES] > u->peak_milli)
		u->peak_milli = s->q.usage[(size_t)t * GP_TENANTS_MAX_RES];
	return 1;
}

void gp_sim_quota_end(sim *s)
{
	int c;
	size_t k;

	for (k = 0; k < s->cfg->tenants->n; k++)
		integrate_tenant(s, k);
	for (c = 0; c < s->cfg->tenants->ncohorts; c++)
		integrate_cohort(s, c);
}
