/* Tenants in the engine (tenants.h for the rules): each job's tenant, the
 * usage of every tenant per quota key, admission of a placement, and the
 * GPU-seconds used, borrowed and lent.  Admission runs on the placement
 * the policy proposed (its GPU models decide which keys it draws on); a
 * job that fits but finds no quota waits without marking its shape as
 * waiting, so other tenants' jobs of that shape still try. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"

/* The quota keys a placement draws on: milli-GPU per key into d, with
 * a share of milli on each of its GPUs (its own shares when < 0). */
static void demand_at(const sim *s, const gp_placement *p, int milli, int64_t *d)
{
	int k;

	memset(d, 0, sizeof(*d) * GP_TENANTS_MAX_RES);
	for (k = 0; k < p->nparts; k++) {
		const gp_place_part *part = &p->parts[k];
		int64_t m = (int64_t)part->ngpus * (milli < 0 ? part->milli : milli);

		if (s->q_all >= 0)
			d[s->q_all] += m;
		if (s->q_node_res[part->node] >= 0)
			d[s->q_node_res[part->node]] += m;
	}
}

static void demand(const sim *s, const gp_placement *p, int64_t *d)
{
	demand_at(s, p, -1, d);
}

static int64_t guaranteed(const gp_tenant *t, int r)
{
	int64_t g = t->lend_limit >= 0 ? t->nominal[r] - t->lend_limit : 0;

	return g > 0 ? g : 0;
}

/* Each cohort's members (q_co_mem[q_co_off[c] .. q_co_off[c + 1])), what
 * it can lend per key (sum of quota less guaranteed quota), the time
 * each tenant and cohort was integrated to. */
static void cohort_setup(sim *s)
{
	const gp_tenants *T = s->cfg->tenants;
	size_t k, nt = T->n ? T->n : 1, nc = (size_t)T->ncohorts + 1;
	int c, r;
	double wsum;

	s->q_co_off = gp_xcalloc(nc, sizeof(*s->q_co_off));
	s->q_co_mem = gp_xmalloc(nt * sizeof(*s->q_co_mem));
	s->q_co_pool = gp_xcalloc(nc * GP_TENANTS_MAX_RES, sizeof(*s->q_co_pool));
	s->q_co_drawn = gp_xcalloc(nc * GP_TENANTS_MAX_RES, sizeof(*s->q_co_drawn));
	s->q_gver = gp_xcalloc(nc + nt, sizeof(*s->q_gver));
	s->q_fail_need = gp_xcalloc(nt, sizeof(*s->q_fail_need));
	s->q_fail_ver = gp_xcalloc(nt, sizeof(*s->q_fail_ver));
	s->q_tt = gp_xmalloc(nt * sizeof(*s->q_tt));
	s->q_ct = gp_xmalloc(nc * sizeof(*s->q_ct));
	s->q_fair = gp_xmalloc(nt * sizeof(*s->q_fair));
	for (k = 0, wsum = 0; k < T->n; k++)
		wsum += T->t[k].weight;
	for (k = 0; k < nt; k++) {
		s->q_tt[k] = s->res->first_submit;
		s->q_fair[k] = k < T->n ? (double)s->cap_milli * T->t[k].weight / wsum : 0;
	}
	for (k = 0; k < nc + nt; k++)
		s->q_gver[k] = 1; /* a refusal's version is never 0 */
	for (k = 0; k < nc; k++)
		s->q_ct[k] = s->res->first_submit;
	for (k = 0; k < T->n; k++)
		if (T->t[k].cohort >= 0) {
			s->q_co_off[T->t[k].cohort + 1]++;
			for (r = 0; r < T->nres; r++)
				s->q_co_pool[(size_t)T->t[k].cohort * GP_TENANTS_MAX_RES + r] +=
					T->t[k].nominal[r] - guaranteed(&T->t[k], r);
		}
	for (c = 0; c < T->ncohorts; c++)
		s->q_co_off[c + 1] += s->q_co_off[c];
	for (k = 0, c = 0; c < T->ncohorts; c++) {
		size_t at = (size_t)s->q_co_off[c], i;

		for (i = 0; i < T->n; i++)
			if (T->t[i].cohort == c)
				s->q_co_mem[at++] = (int32_t)i;
	}
}

/* The running-job lists of reclaim. */
static void reclaim_setup(sim *s)
{
	const gp_tenants *T = s->cfg->tenants;
	size_t nt = T->n ? T->n : 1, n = s->n ? s->n : 1, k;

	s->q_rhead = gp_xmalloc(nt * sizeof(*s->q_rhead));
	memset(s->q_rhead, 0xff, nt * sizeof(*s->q_rhead));
	s->q_rprev = gp_xmalloc(n * sizeof(*s->q_rprev));
	s->q_rnext = gp_xmalloc(n * sizeof(*s->q_rnext));
	s->q_seq = gp_xcalloc(n, sizeof(*s->q_seq));
	s->q_released = gp_xcalloc(n, sizeof(*s->q_released));
	s->q_one_prio = 1;
	for (k = 1; k < s->n && s->q_one_prio; k++)
		s->q_one_prio = s->jl->jobs[k].priority == s->jl->jobs[0].priority;
	s->q_rc_ver = gp_xcalloc(nt, sizeof(*s->q_rc_ver));
	s->q_rc_need = gp_xcalloc(nt, sizeof(*s->q_rc_need));
	s->q_rc_free = gp_xcalloc(nt, sizeof(*s->q_rc_free));
	s->q_fp_ver = gp_xcalloc(nt, sizeof(*s->q_fp_ver));
	s->q_fp_need = gp_xcalloc(nt, sizeof(*s->q_fp_need));
	s->q_fp_free = gp_xcalloc(nt, sizeof(*s->q_fp_free));
	s->q_fp_top = gp_xcalloc((size_t)T->ncohorts + 1, sizeof(*s->q_fp_top));
	s->q_fp_dmin = gp_xmalloc(nt * sizeof(*s->q_fp_dmin));
	for (k = 0; k < nt; k++)
		s->q_fp_dmin[k] = INT64_MAX;
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
	cohort_setup(s);
	s->q_said_no = -1;
	if (s->q_reclaim)
		reclaim_setup(s);
	return GP_OK;
}

void gp_sim_quota_teardown(sim *s)
{
	free(s->q_use);
	free(s->q_node_res);
	free(s->q_rhead);
	free(s->q_rprev);
	free(s->q_rnext);
	free(s->q_co_off);
	free(s->q_co_mem);
	free(s->q_co_pool);
	free(s->q_co_drawn);
	free(s->q_gver);
	free(s->q_fail_need);
	free(s->q_fail_ver);
	free(s->q_tt);
	free(s->q_fair);
	free(s->q_ct);
	free(s->q_vict);
	free(s->q_seq);
	free(s->q_released);
	free(s->q_rc_ver);
	free(s->q_rc_need);
	free(s->q_rc_free);
	free(s->q_hold);
	free(s->q_fp_ver);
	free(s->q_fp_need);
	free(s->q_fp_free);
	free(s->q_fp_c);
	free(s->q_fp_dmin);
	free(s->q_fp_top);
}

static int64_t over(int64_t u, int64_t g)
{
	return u > g ? u - g : 0;
}

/* Does tenant t's quota (and its cohort's) admit a use of d more?
 * Alone, its use stays within its quota.  In a cohort every admission
 * draws on the cohort (Kueue's available()): d fits in what is left of
 * t's guaranteed quota plus what the cohort has left to lend, the sum
 * of max(0, use - guaranteed) being kept per key (q_co_drawn); within
 * its quota or not, a tenant's use beyond its guaranteed part is what
 * the cohort's others may have borrowed. */
static int admits_key(const sim *s, int t, int r, int64_t d)
{
	const gp_tenant *x = &s->cfg->tenants->t[t];
	int64_t u0 = s->q_use[(size_t)t * GP_TENANTS_MAX_RES + r], g;
	size_t at;

	if (d <= 0) /* a use that shrinks needs no admission */
		return 1;
	if (x->cohort < 0)
		return u0 + d <= x->nominal[r];
	if (x->borrow_limit >= 0 && u0 + d - x->nominal[r] > x->borrow_limit)
		return 0;
	g = guaranteed(x, r);
	at = (size_t)x->cohort * GP_TENANTS_MAX_RES + r;
	return d <= (g > u0 ? g - u0 : 0) + s->q_co_pool[at] - s->q_co_drawn[at];
}

static int admits(const sim *s, int t, const int64_t *d)
{
	int r;

	for (r = 0; r < s->cfg->tenants->nres; r++)
		if (!admits_key(s, t, r, d[r]))
			return 0;
	return 1;
}

/* The version of t's usage group (its cohort, or itself alone). */
static uint32_t *group_ver(const sim *s, int t)
{
	const gp_tenants *T = s->cfg->tenants;

	return &s->q_gver[T->t[t].cohort >= 0 ? (size_t)T->t[t].cohort : (size_t)T->ncohorts + 1 + (size_t)t];
}

/* Tenant t's use changes by sign x d (every change goes through here). */
static void use_delta(sim *s, int t, const int64_t *d, int sign)
{
	const gp_tenants *T = s->cfg->tenants;
	const gp_tenant *x = &T->t[t];
	int64_t *use = &s->q_use[(size_t)t * GP_TENANTS_MAX_RES];
	int r;

	for (r = 0; r < T->nres; r++) {
		int64_t u = use[r] + sign * d[r];

		if (x->cohort >= 0) {
			int64_t g = guaranteed(x, r);

			s->q_co_drawn[(size_t)x->cohort * GP_TENANTS_MAX_RES + r] += over(u, g) - over(use[r], g);
		}
		use[r] = u;
	}
	++*group_ver(s, t);
}

int gp_sim_quota_precheck(sim *s, int32_t j)
{
	int t = s->res->job_tenant[j];
	int64_t need;
	uint32_t ver;

	if (s->q_all < 0)
		return 1;
	need = need_milli(&s->jl->jobs[j]);
	/* Admission only gets harder with a larger need: a need at least as
	 * large as one refused since the group's use last changed is
	 * refused too (a pass over a long queue stays cheap). */
	ver = *group_ver(s, t);
	if (!(s->q_fail_ver[t] == ver && need >= s->q_fail_need[t])) {
		if (admits_key(s, t, s->q_all, need))
			return 1;
		if (s->q_fail_ver[t] != ver || need < s->q_fail_need[t])
			s->q_fail_need[t] = need;
		s->q_fail_ver[t] = ver;
	}
	s->res->tenant_use[t].quota_waits++;
	s->q_said_no = j;
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
	s->q_said_no = j;
	return 0;
}

/* Tenant t's dominant share with sign x d (NULL: nothing) and extra on
 * key `key` added to its use. */
static double share_with(const sim *s, int t, const int64_t *d, int sign, int key, int64_t extra)
{
	const gp_tenants *T = s->cfg->tenants;
	const gp_tenant *x = &T->t[t];
	double best = 0;
	int r;

	if (x->cohort < 0)
		return 0;
	for (r = 0; r < T->nres; r++) {
		int64_t u = s->q_use[(size_t)t * GP_TENANTS_MAX_RES + r] + (d ? sign * d[r] : 0), pool;

		if (r == key)
			u += extra;
		pool = s->q_co_pool[(size_t)x->cohort * GP_TENANTS_MAX_RES + r];
		if (u > x->nominal[r] && pool > 0 && (double)(u - x->nominal[r]) / (double)pool > best)
			best = (double)(u - x->nominal[r]) / (double)pool;
	}
	if (!(best > 0))
		return 0;
	return x->weight > 0 ? best / x->weight : INFINITY;
}

static double share_of(const sim *s, int t, const int64_t *d, int sign)
{
	return share_with(s, t, d, sign, -1, 0);
}

double gp_sim_quota_share(const sim *s, int t, int32_t j)
{
	const gp_tenant *x = &s->cfg->tenants->t[t];

	if (j < 0)
		return share_with(s, t, NULL, 0, -1, 0);
	if (s->cfg->tenants->nres == 1 && s->q_all == 0 && x->cohort >= 0) {
		/* share_with on `gpus` alone (a dominant-share pass asks
		 * this of every job it tries) */
		int64_t u = s->q_use[(size_t)t * GP_TENANTS_MAX_RES] + need_milli(&s->jl->jobs[j]);
		int64_t pool = s->q_co_pool[(size_t)x->cohort * GP_TENANTS_MAX_RES];
		double best;

		if (u <= x->nominal[0] || pool <= 0)
			return 0;
		best = (double)(u - x->nominal[0]) / (double)pool;
		if (!(best > 0))
			return 0;
		return x->weight > 0 ? best / x->weight : INFINITY;
	}
	return share_with(s, t, NULL, 0, s->q_all, need_milli(&s->jl->jobs[j]));
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
	double dt = s->last_t - s->q_tt[k];
	int64_t u = s->q_use[k * GP_TENANTS_MAX_RES];

	if (!(dt > 0))
		return;
	s->q_tt[k] = s->last_t;
	s->res->tenant_use[k].gpu_s += dt * (double)u / GP_MILLI;
	if ((double)u > s->q_fair[k])
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
	double dt = s->last_t - s->q_ct[c], borrowed = 0, idle = 0;
	int i;

	if (!(dt > 0))
		return;
	s->q_ct[c] = s->last_t;
	for (i = s->q_co_off[c]; i < s->q_co_off[c + 1]; i++) {
		int k = s->q_co_mem[i];
		int64_t u = s->q_use[(size_t)k * GP_TENANTS_MAX_RES], n = T->t[k].nominal[0];

		if (u > n)
			borrowed += (double)(u - n);
		else
			idle += (double)(n - u);
	}
	if (!(borrowed > 0) || !(idle > 0))
		return;
	for (i = s->q_co_off[c]; i < s->q_co_off[c + 1]; i++) {
		int k = s->q_co_mem[i];
		int64_t u = s->q_use[(size_t)k * GP_TENANTS_MAX_RES], n = T->t[k].nominal[0];

		if (u < n)
			s->res->tenant_use[k].lent_gpu_s += dt * borrowed * (double)(n - u) / idle / GP_MILLI;
	}
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
	int64_t *use = &s->q_use[(size_t)t * GP_TENANTS_MAX_RES];

	integrate(s, t);
	demand(s, p, d);
	use_delta(s, t, d, sign);
	if (use[0] > u->peak_milli)
		u->peak_milli = use[0];
	if (!s->q_reclaim)
		return;
	if (sign > 0) {
		if (d[0] < s->q_fp_dmin[t])
			s->q_fp_dmin[t] = d[0];
		s->q_seq[j] = ++s->q_seq_next;
		s->q_rprev[j] = -1;
		s->q_rnext[j] = s->q_rhead[t];
		if (s->q_rhead[t] >= 0)
			s->q_rprev[s->q_rhead[t]] = j;
		s->q_rhead[t] = j;
	} else {
		if (s->q_rprev[j] >= 0)
			s->q_rnext[s->q_rprev[j]] = s->q_rnext[j];
		else
			s->q_rhead[t] = s->q_rnext[j];
		if (s->q_rnext[j] >= 0)
			s->q_rprev[s->q_rnext[j]] = s->q_rprev[j];
	}
}

/* ---- reclaim ----
 * Kueue's reclaimWithinCohort (Any), rule by rule:
 *  1. Only a job whose tenant stays within its nominal quota with it may
 *     reclaim (Kueue: the incoming workload fits its ClusterQueue's
 *     nominal quota); a job that would borrow waits.
 *  2. Candidates are the running jobs of the other tenants of its cohort
 *     that borrow: use more than their nominal quota of a key the job
 *     draws on (`gpus`, or without it any GPU model key).
 *  3. Candidates in order: lowest priority first, then the most recently
 *     (re)started (of jobs started at one instant, the last to start)
 *     (Kueue: priority, then the most recently admitted).
 *  4. They are taken in that order, passing over those whose tenant no
 *     longer borrows once the earlier ones are gone, until the job's
 *     quota admits it and the placement policy places it (Kueue:
 *     minimalPreemptions).
 *  5. Then those taken are put back, the last first, wherever the
 *     placement and the quota still hold with them back (Kueue: fill
 *     back); the rest are preempted through the interrupt mechanism:
 *     they requeue with their progress (less the work since their last
 *     checkpoint) and pay --preempt-cost when they run again.
 *  6. No set of candidates makes room: nothing is preempted, the job
 *     waits; no job of its tenant needing as much or more searches again
 *     while its cohort runs the same jobs and no more GPU share is free. */

typedef struct gp_sim_qcand {
	int prio;
	uint64_t seq;
	int32_t job;
} cand;

static int cand_cmp(const void *x, const void *y)
{
	const cand *a = x, *b = y;

	if (a->prio != b->prio)
		return a->prio < b->prio ? -1 : 1;
	return a->seq > b->seq ? -1 : a->seq < b->seq;
}

/* Does tenant y use more than its nominal quota of a key in mask? */
static int borrowing(const sim *s, int y, const int64_t *mask)
{
	const gp_tenants *T = s->cfg->tenants;
	int r;

	for (r = 0; r < T->nres; r++)
		if (mask[r] && s->q_use[(size_t)y * GP_TENANTS_MAX_RES + r] > T->t[y].nominal[r])
			return 1;
	return 0;
}

/* Within tenant t's nominal quota with d more (rule 1)? */
static int within(const sim *s, int t, const int64_t *d)
{
	const gp_tenants *T = s->cfg->tenants;
	int r;

	for (r = 0; r < T->nres; r++)
		if (d[r] && s->q_use[(size_t)t * GP_TENANTS_MAX_RES + r] + d[r] > T->t[t].nominal[r])
			return 0;
	return 1;
}

static void use_add(sim *s, int32_t v, int sign)
{
	int64_t d[GP_TENANTS_MAX_RES];

	demand(s, &s->pool[s->slot[v]], d);
	use_delta(s, s->res->job_tenant[v], d, sign);
}

/* Release v's GPUs and quota for the trial. */
static void take(sim *s, int32_t v)
{
	gp_placement_undo(&s->alloc, &s->pool[s->slot[v]]);
	use_add(s, v, -1);
	s->q_released[v] = 1;
}

static int give_back(sim *s, int32_t v)
{
	if (gp_placement_apply(&s->alloc, &s->pool[s->slot[v]]) != 0)
		return -1;
	use_add(s, v, 1);
	s->q_released[v] = 0;
	return 0;
}

/* Candidates of rule 2 in the order of rule 3, one at a time.  Each
 * tenant's running jobs are listed the last started first: with one
 * priority in the trace the order is a merge of the borrowing tenants'
 * lists, taken lazily (a search rarely needs many); otherwise they are
 * gathered and sorted. */
typedef struct cand_walk {
	cand *c;                /* sorted (several priorities) */
	size_t nc, i;
	int32_t *at;            /* merge: each borrowing tenant's next job */
	int nat;
} cand_walk;

static void walk_init(sim *s, int t, const int64_t *mask, cand_walk *w)
{
	const gp_tenants *T = s->cfg->tenants;
	int co = T->t[t].cohort, i;
	size_t cap = 0;

	memset(w, 0, sizeof(*w));
	if (s->q_one_prio)
		w->at = gp_xmalloc((size_t)(s->q_co_off[co + 1] - s->q_co_off[co]) * sizeof(*w->at));
	for (i = s->q_co_off[co]; i < s->q_co_off[co + 1]; i++) {
		int y = s->q_co_mem[i];
		int32_t v;

		if (y == t || !borrowing(s, y, mask) || s->q_rhead[y] < 0)
			continue;
		if (s->q_one_prio) {
			w->at[w->nat++] = s->q_rhead[y];
			continue;
		}
		for (v = s->q_rhead[y]; v >= 0; v = s->q_rnext[v]) {
			GP_GROW(w->c, cap, w->nc + 1);
			w->c[w->nc].prio = s->jl->jobs[v].priority;
			w->c[w->nc].seq = s->q_seq[v];
			w->c[w->nc].job = v;
			w->nc++;
		}
	}
	if (w->nc > 1)
		qsort(w->c, w->nc, sizeof(*w->c), cand_cmp);
}

/* The next candidate, -1 when none is left. */
static int32_t walk_next(sim *s, cand_walk *w)
{
	int k, best = -1;
	int32_t v;

	if (!s->q_one_prio)
		return w->i < w->nc ? w->c[w->i++].job : -1;
	for (k = 0; k < w->nat; k++)
		if (w->at[k] >= 0 && (best < 0 || s->q_seq[w->at[k]] > s->q_seq[w->at[best]]))
			best = k;
	if (best < 0)
		return -1;
	v = w->at[best];
	w->at[best] = s->q_rnext[v];
	return v;
}

static void walk_release(cand_walk *w)
{
	free(w->c);
	free(w->at);
}

/* Whether j fits now with what was taken (rule 4): its quota and the
 * policy's placement (into s->scratch). */
static int fits_now(sim *s, int32_t j, int t, int64_t freed, int borrow)
{
	const gp_job *job = &s->jl->jobs[j];
	int64_t d[GP_TENANTS_MAX_RES];

	if (need_milli(job) > s->cap_milli - s->alloc_milli + freed)
		return 0;
	if (s->q_all >= 0 && !admits_key(s, t, s->q_all, need_milli(job)))
		return 0;
	s->res->policy_calls++;
	if (s->cfg->policy->place(&s->ctx, job, &s->scratch) != GP_PLACED)
		return 0;
	demand(s, &s->scratch, d);
	return (borrow || within(s, t, d)) && admits(s, t, d);
}

/* Rule 5: j placed in s->scratch with q_vict[0..nv) taken: put back
 * those the placement and j's quota (within its nominal quota unless
 * borrow) leave room for, the last taken first; preempt the others
 * (the caller starts j, then requeues them). */
static int commit_victims(sim *s, int t, size_t nv, int borrow)
{
	int64_t d[GP_TENANTS_MAX_RES];
	gp_sim_interrupt ir;
	size_t i;
	int32_t v;

	demand(s, &s->scratch, d);
	if (gp_placement_apply(&s->alloc, &s->scratch) != 0) {
		for (i = nv; i-- > 0;)
			give_back(s, s->q_vict[i]);
		return 0;
	}
	for (i = nv; i-- > 0;) {
		v = s->q_vict[i];
		if (give_back(s, v) == 0 && !((borrow || within(s, t, d)) && admits(s, t, d)))
			take(s, v);
	}
	gp_placement_undo(&s->alloc, &s->scratch);
	gp_sim_interrupt_init(&ir);
	ir.cause = GP_SIM_CAUSE_PREEMPT;
	ir.overhead_s = s->cfg->preempt_cost;
	s->pk.defer = 1;
	for (i = 0; i < nv && s->status == GP_OK; i++) {
		v = s->q_vict[i];
		if (!s->q_released[v])
			continue;
		s->q_released[v] = 0;
		use_add(s, v, 1); /* gp_sim_ix_interrupt takes it off again */
		ir.lose = gp_sim_ix_tau(s, v) > 0 ? GP_SIM_LOSE_CHECKPOINT : GP_SIM_LOSE_NOTHING;
		s->res->tenant_use[t].reclaims++;
		s->res->tenant_use[s->res->job_tenant[v]].reclaimed++;
		gp_sim_ix_interrupt(s, v, &ir, 1);
	}
	s->pk.defer = 0;
	return s->status == GP_OK;
}

int gp_sim_quota_reclaim(sim *s, int32_t j)
{
	const gp_tenants *T = s->cfg->tenants;
	const gp_job *job = &s->jl->jobs[j];
	int t = s->res->job_tenant[j], r, ok = 0;
	int64_t mask[GP_TENANTS_MAX_RES], freed = 0;
	size_t nv = 0, i;
	cand_walk w;
	int32_t v;

	if (!s->q_reclaim || T->t[t].cohort < 0)
		return 0;
	/* rule 1 on `gpus` first: most calls end here */
	if (s->q_all >= 0 && s->q_use[(size_t)t * GP_TENANTS_MAX_RES + s->q_all] + need_milli(job) >
				     T->t[t].nominal[s->q_all])
		return 0;
	/* rule 6: a search like one that failed fails again */
	if (s->q_rc_ver[t] == *group_ver(s, t) && need_milli(job) >= s->q_rc_need[t] &&
	    s->cap_milli - s->alloc_milli <= s->q_rc_free[t])
		return 0;
	memset(mask, 0, sizeof(mask));
	if (s->q_all >= 0) {
		mask[s->q_all] = need_milli(job);
		if (!within(s, t, mask)) /* rule 1, before the placement */
			return 0;
	} else {
		for (r = 0; r < T->nres; r++)
			mask[r] = 1;
	}
	/* the trial changes usage at this instant only: the cohort, whose
	 * tenants are the only ones it touches, is integrated to now */
	for (i = (size_t)s->q_co_off[T->t[t].cohort]; i < (size_t)s->q_co_off[T->t[t].cohort + 1]; i++)
		integrate_tenant(s, (size_t)s->q_co_mem[i]);
	integrate_cohort(s, T->t[t].cohort);
	walk_init(s, t, mask, &w);
	while (!ok && (v = walk_next(s, &w)) >= 0) {
		if (!borrowing(s, s->res->job_tenant[v], mask))
			continue;
		take(s, v);
		freed += s->ix.held[v];
		GP_GROW(s->q_vict, s->q_vict_cap, nv + 1);
		s->q_vict[nv++] = v;
		ok = fits_now(s, j, t, freed, 0);
	}
	walk_release(&w);
	if (!ok) {
		for (i = nv; i-- > 0;)
			if (give_back(s, s->q_vict[i]) != 0)
				s->status = gp_error_set(s->err, GP_EIO, NULL, 0, 0,
							 "internal error: cannot restore a running job");
		s->q_rc_ver[t] = *group_ver(s, t);
		s->q_rc_need[t] = need_milli(job);
		s->q_rc_free[t] = s->cap_milli - s->alloc_milli;
		return 0;
	}
	return commit_victims(s, t, nv, 0);
}

/* ---- preemption by share (dominant-share) ----
 * Kueue's fair sharing preemption with its default strategies
 * [LessThanOrEqualToFinalShare, LessThanInitialShare], for a job j of
 * tenant x that cannot start and would borrow (reclaim is for a job
 * within its quota), within x's borrowing limit:
 *  1. S = x's share with j, on every key j's placement draws on (the
 *     search runs on j's request on `gpus`, and again with the
 *     placement's S when a job taken would not stand on it).
 *     Candidates are the running jobs of the other tenants of x's
 *     cohort with a share above 0 (they borrow), each tenant's in
 *     reclaim's candidate order.
 *  2. While j does not fit: the tenant y with the highest share (then
 *     the first in the file) offers its candidates in order; the first
 *     one z with y's share without z still >= S is taken, those before
 *     it are set aside; y drops out when it has none left.
 *  3. Then, while j does not fit, from the tenants with a job set aside,
 *     highest share first, each once: y's first job set aside is taken
 *     when S < y's share.
 *  4. Fill back and preemption as reclaim (rule 5), j's quota admitting
 *     it with borrowing.
 * A search that finds nothing is not repeated for a job of x needing as
 * much or more while x's cohort runs the same jobs and no more GPU share
 * is free, and none starts when no other tenant of the cohort has a
 * share >= S (no candidate could qualify). */

typedef struct fp_member {
	int y;
	int32_t at;             /* one priority: its next running job */
	size_t i, n;            /* several: its range of s->q_fp_c */
	int32_t aside;          /* its first candidate set aside, -1 none */
	int in;                 /* still offers candidates */
	int64_t dfail;          /* one quota key: the least demand that failed */
} fp_member;

static int32_t fp_next(sim *s, const cand *c, fp_member *m)
{
	int32_t v;

	if (!s->q_one_prio)
		return m->i < m->n ? c[m->i++].job : -1;
	v = m->at;
	if (v >= 0)
		m->at = s->q_rnext[v];
	return v;
}

/* The member in play with the highest share (the first on ties). */
static fp_member *fp_top(const sim *s, fp_member *m, int nm, double *share)
{
	fp_member *best = NULL;
	double bs = 0;
	int i;

	for (i = 0; i < nm; i++) {
		double ys;

		if (!m[i].in)
			continue;
		ys = gp_sim_quota_share(s, m[i].y, -1);
		if (!best || ys > bs) {
			best = &m[i];
			bs = ys;
		}
	}
	*share = bs;
	return best;
}

/* Would j borrow, within its tenant's borrowing limit (on `gpus`)? */
static int fp_borrows(const sim *s, int32_t j, int t)
{
	const gp_tenant *x = &s->cfg->tenants->t[t];
	int64_t u = s->q_use[(size_t)t * GP_TENANTS_MAX_RES + s->q_all] + need_milli(&s->jl->jobs[j]);

	return u > x->nominal[s->q_all] && (x->borrow_limit < 0 || u - x->nominal[s->q_all] <= x->borrow_limit);
}

/* Does a failed search stand for j? */
static int fp_failed(const sim *s, int32_t j, int t)
{
	return s->q_fp_ver[t] == *group_ver(s, t) && need_milli(&s->jl->jobs[j]) >= s->q_fp_need[t] &&
	       s->cap_milli - s->alloc_milli <= s->q_fp_free[t];
}

/* Has another tenant of t's cohort, running jobs, a share >= xs (above
 * 0)?  The cohort's two highest such shares are kept while its use does
 * not change (a pass asks this of many jobs). */
static int fp_may(sim *s, int t, double xs)
{
	int co = s->cfg->tenants->t[t].cohort, i;
	struct gp_sim_fptop *c = &s->q_fp_top[co];

	if (c->ver != *group_ver(s, t)) {
		c->ver = *group_ver(s, t);
		c->t1 = c->t2 = -1;
		c->s1 = c->s2 = 0;
		for (i = s->q_co_off[co]; i < s->q_co_off[co + 1]; i++) {
			int y = s->q_co_mem[i];
			double ys;

			if (s->q_rhead[y] < 0 || !((ys = gp_sim_quota_share(s, y, -1)) > 0))
				continue;
			if (c->t1 < 0 || ys > c->s1) {
				c->t2 = c->t1;
				c->s2 = c->s1;
				c->t1 = y;
				c->s1 = ys;
			} else if (c->t2 < 0 || ys > c->s2) {
				c->t2 = y;
				c->s2 = ys;
			}
		}
	}
	if (c->t1 >= 0 && c->t1 != t)
		return c->s1 >= xs;
	return c->t2 >= 0 && c->s2 >= xs;
}

/* The cohort's members that may lose jobs, with their candidates. */
static int fp_members(sim *s, int t, double xs, fp_member *m)
{
	int co = s->cfg->tenants->t[t].cohort, i, nm = 0;
	size_t nc = 0;
	int32_t v;

	for (i = s->q_co_off[co]; i < s->q_co_off[co + 1]; i++) {
		int y = s->q_co_mem[i];
		double ys = gp_sim_quota_share(s, y, -1);

		if (y == t || s->q_rhead[y] < 0 || !(ys > 0) || ys < xs)
			continue;
		m[nm].y = y;
		m[nm].at = s->q_rhead[y];
		m[nm].aside = -1;
		m[nm].in = 1;
		m[nm].dfail = INT64_MAX;
		m[nm].i = nc;
		if (!s->q_one_prio) {
			for (v = s->q_rhead[y]; v >= 0; v = s->q_rnext[v]) {
				GP_GROW(s->q_fp_c, s->q_fp_cap, nc + 1);
				s->q_fp_c[nc].prio = s->jl->jobs[v].priority;
				s->q_fp_c[nc].seq = s->q_seq[v];
				s->q_fp_c[nc].job = v;
				nc++;
			}
			qsort(s->q_fp_c + m[nm].i, nc - m[nm].i, sizeof(*s->q_fp_c), cand_cmp);
		}
		m[nm].n = nc;
		nm++;
	}
	return nm;
}

/* What a job taken stands on: S <= lim (rule 2), S < lim (rule 3). */
typedef struct fp_lim {
	double lim;
	int strict;
} fp_lim;

/* Take v for j, standing on lim/strict; 1 when j then fits. */
static int fp_take(sim *s, int32_t j, int t, int32_t v, double lim, int strict, size_t *nv, int64_t *freed,
		   fp_lim **thr, size_t *thr_cap)
{
	take(s, v);
	*freed += s->ix.held[v];
	GP_GROW(s->q_vict, s->q_vict_cap, *nv + 1);
	GP_GROW(*thr, *thr_cap, *nv + 1);
	(*thr)[*nv].lim = lim;
	(*thr)[*nv].strict = strict;
	s->q_vict[(*nv)++] = v;
	return fits_now(s, j, t, *freed, 1);
}

/* A search that found nothing stands for j's tenant until its cohort's
 * use changes (fp_failed). */
static void fp_fail(sim *s, int32_t j, int t)
{
	if (s->q_fp_ver[t] != *group_ver(s, t) || need_milli(&s->jl->jobs[j]) < s->q_fp_need[t])
		s->q_fp_need[t] = need_milli(&s->jl->jobs[j]);
	s->q_fp_ver[t] = *group_ver(s, t);
	s->q_fp_free[t] = s->cap_milli - s->alloc_milli;
}

/* Put back every job taken. */
static void fp_undo(sim *s, size_t nv)
{
	while (nv-- > 0)
		if (give_back(s, s->q_vict[nv]) != 0)
			s->status = gp_error_set(s->err, GP_EIO, NULL, 0, 0,
						 "internal error: cannot restore a running job");
}

/* One search of rules 2-4 for j of tenant t with xs for S; into *full
 * S as j's placement (s->scratch) draws on every quota key.  1 when j
 * fits and every job taken stands with S measured so. */
static int fp_round(sim *s, int32_t j, int t, double xs, double *full, size_t *nvp, fp_lim **thr, size_t *thr_cap)
{
	const gp_tenants *T = s->cfg->tenants;
	int ok = 0, nm, i;
	int64_t freed = 0, dv[GP_TENANTS_MAX_RES];
	size_t nv = 0;
	double ys, yw = 0;
	fp_member *m, *y;
	int32_t v;

	m = gp_xmalloc((size_t)(s->q_co_off[T->t[t].cohort + 1] - s->q_co_off[T->t[t].cohort]) * sizeof(*m));
	nm = fp_members(s, t, xs, m);
	/* rule 2 */
	while (!ok && s->status == GP_OK && (y = fp_top(s, m, nm, &ys)) != NULL) {
		if (T->nres == 1) {
			/* one key: when y's smallest job (a bound) fails, all do */
			dv[0] = s->q_fp_dmin[y->y];
			if (share_of(s, y->y, dv, -1) < xs) {
				if (y->aside < 0)
					y->aside = fp_next(s, s->q_fp_c, y);
				y->in = 0;
				continue;
			}
		}
		while ((v = fp_next(s, s->q_fp_c, y)) >= 0) {
			demand(s, &s->pool[s->slot[v]], dv);
			/* one key: a job as large as one that failed fails */
			if (!(T->nres == 1 && dv[0] >= y->dfail)) {
				if ((yw = share_of(s, y->y, dv, -1)) >= xs)
					break;
				y->dfail = dv[0];
			}
			if (y->aside < 0)
				y->aside = v;
		}
		if (v < 0)
			y->in = 0;
		else
			ok = fp_take(s, j, t, v, yw, 0, &nv, &freed, thr, thr_cap);
	}
	/* rule 3 */
	for (i = 0; i < nm; i++)
		m[i].in = m[i].aside >= 0;
	while (!ok && s->status == GP_OK && (y = fp_top(s, m, nm, &ys)) != NULL) {
		y->in = 0;
		if (xs < ys)
			ok = fp_take(s, j, t, y->aside, ys, 1, &nv, &freed, thr, thr_cap);
	}
	free(m);
	*nvp = nv;
	if (!ok)
		return 0;
	/* S was j's share with its request on `gpus` alone (its placement
	 * is not known before the search): S with the placement's GPU model
	 * keys must meet every rule a job was taken by, or the tenant that
	 * lost it could take it back at once at the same instant */
	demand(s, &s->scratch, dv);
	*full = share_of(s, t, dv, 1);
	for (i = 0; i < (int)nv; i++)
		if ((*thr)[i].strict ? !(*full < (*thr)[i].lim) : !(*full <= (*thr)[i].lim))
			return 0;
	return 1;
}

/* Rules 2-4 for j of tenant t, share xs with it: a search whose
 * placement's S breaks a rule is run again with that S, a few times. */
__attribute__((noinline)) static int fp_search(sim *s, int32_t j, int t, double xs)
{
	int co = s->cfg->tenants->t[t].cohort, ok = 0, round, i;
	double full = xs;
	fp_lim *thr = NULL;
	size_t nv = 0, thr_cap = 0;

	for (i = s->q_co_off[co]; i < s->q_co_off[co + 1]; i++)
		integrate_tenant(s, (size_t)s->q_co_mem[i]);
	integrate_cohort(s, co);
	for (round = 0; round < 3 && s->status == GP_OK; round++) {
		ok = fp_round(s, j, t, xs, &full, &nv, &thr, &thr_cap);
		if (ok || !(full > xs))
			break;
		fp_undo(s, nv);
		nv = 0;
		xs = full;
	}
	free(thr);
	if (ok)
		return commit_victims(s, t, nv, 1);
	fp_undo(s, nv);
	fp_fail(s, j, t);
	return 0;
}

/* Asked of every job a dominant-share pass cannot start: the cheap
 * refusals first, the search (its frame) only past them. */
int gp_sim_quota_fair_preempt(sim *s, int32_t j)
{
	int t = s->res->job_tenant[j];
	double xs;

	if (!s->q_reclaim || s->cfg->tenants->t[t].cohort < 0 || s->q_all < 0 || !fp_borrows(s, j, t) ||
	    fp_failed(s, j, t))
		return 0;
	xs = gp_sim_quota_share(s, t, j);
	if (!fp_may(s, t, xs)) {
		fp_fail(s, j, t);
		return 0;
	}
	return fp_search(s, j, t, xs);
}

void gp_sim_quota_trial(sim *s, int32_t j, int sign)
{
	use_add(s, j, sign);
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
	use_delta(s, t, d1, 1);
	if (s->q_fp_dmin && d0[0] + d1[0] < s->q_fp_dmin[t])
		s->q_fp_dmin[t] = d0[0] + d1[0];
	if (s->q_use[(size_t)t * GP_TENANTS_MAX_RES] > u->peak_milli)
		u->peak_milli = s->q_use[(size_t)t * GP_TENANTS_MAX_RES];
	return 1;
}

/* ---- plans ----
 * Backfill's reservations hold quota: the reserved job's use from its
 * planned start to its planned end.  A hold is counted into the usage
 * only while a question is asked (and taken off at once, at the same
 * instant: nothing is integrated meanwhile). */
struct gp_sim_qhold {
	int32_t job;
	double t0, t1;
	int64_t d[GP_TENANTS_MAX_RES];
};

/* j's use of p, or with p NULL its whole share on `gpus`. */
static void plan_demand(const sim *s, int32_t j, const gp_placement *p, int64_t *d)
{
	if (p) {
		demand(s, p, d);
		return;
	}
	memset(d, 0, sizeof(*d) * GP_TENANTS_MAX_RES);
	if (s->q_all >= 0)
		d[s->q_all] = need_milli(&s->jl->jobs[j]);
}

void gp_sim_quota_plan_reset(sim *s)
{
	s->q_nhold = 0;
}

void gp_sim_quota_plan_hold(sim *s, int32_t j, const gp_placement *p, double t0, double t1)
{
	struct gp_sim_qhold *h;

	GP_GROW(s->q_hold, s->q_hold_cap, s->q_nhold + 1);
	h = &s->q_hold[s->q_nhold++];
	h->job = j;
	h->t0 = t0;
	h->t1 = t1;
	plan_demand(s, j, p, h->d);
}

/* Count (+1) or take off (-1) the holds overlapping [t0, t1). */
static void holds(sim *s, double t0, double t1, int sign)
{
	size_t i;

	for (i = 0; i < s->q_nhold; i++)
		if (s->q_hold[i].t0 < t1 && t0 < s->q_hold[i].t1)
			use_delta(s, s->res->job_tenant[s->q_hold[i].job], s->q_hold[i].d, sign);
}

int gp_sim_quota_plan_admits(sim *s, int32_t j, const gp_placement *p, double t0, double t1)
{
	int64_t d[GP_TENANTS_MAX_RES];
	int ok;

	plan_demand(s, j, p, d);
	holds(s, t0, t1, 1);
	ok = admits(s, s->res->job_tenant[j], d);
	holds(s, t0, t1, -1);
	return ok;
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
