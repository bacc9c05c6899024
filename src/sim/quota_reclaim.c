/* Reclaim and preemption by share (tenants.h, quota.c): a job of a
 * tenant in a cohort takes back the quota others borrow, or under
 * dominant-share preempts by share, through trials at one instant. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "quota_int.h"

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

/* No trade back at one instant.  With equal shares, rule 2 of preemption
 * by share ("at least S") lets a job taken take its taker's place back at
 * once, and that job take it again, without end at one instant.  So at
 * one instant (reclaim and preemption by share alike):
 *  - a tenant does not take jobs of a tenant that took jobs of it;
 *  - no job is preempted twice (a job preempted, then started again,
 *    stays; by --preempt too).
 * Each preemption at an instant stops a job not stopped there before, so
 * there are at most as many as jobs.  A search that passed over a
 * candidate by these rules is not remembered as failed (rule 6): the
 * candidate is one again once the clock moves. */
static int preempted_now(sim *s, int32_t v)
{
	if (s->q.pre_t[v] != s->last_t)
		return 0;
	s->q.barred = 1;
	return 1;
}

/* Has tenant y taken jobs of tenant t at this instant? */
static int took_now(sim *s, int y, int t)
{
	size_t i;

	if (s->q.took_t != s->last_t)
		return 0;
	for (i = 0; i < s->q.ntook; i++)
		if (s->q.took[i].x == y && s->q.took[i].y == t) {
			s->q.barred = 1;
			return 1;
		}
	return 0;
}

/* Tenant x takes jobs of tenant y now. */
static void took(sim *s, int x, int y)
{
	size_t i;

	if (s->q.took_t != s->last_t) {
		s->q.took_t = s->last_t;
		s->q.ntook = 0;
	}
	for (i = 0; i < s->q.ntook; i++)
		if (s->q.took[i].x == x && s->q.took[i].y == y)
			return;
	GP_GROW(s->q.took, s->q.took_cap, s->q.ntook + 1);
	s->q.took[s->q.ntook].x = x;
	s->q.took[s->q.ntook++].y = y;
}

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
		if (mask[r] && s->q.usage[(size_t)y * GP_TENANTS_MAX_RES + r] > T->t[y].nominal[r])
			return 1;
	return 0;
}

/* Within tenant t's nominal quota with d more (rule 1)? */
static int within(const sim *s, int t, const int64_t *d)
{
	const gp_tenants *T = s->cfg->tenants;
	int r;

	for (r = 0; r < T->nres; r++)
		if (d[r] && s->q.usage[(size_t)t * GP_TENANTS_MAX_RES + r] + d[r] > T->t[t].nominal[r])
			return 0;
	return 1;
}

/* Release v's GPUs and quota for the trial. */
static void take(sim *s, int32_t v)
{
	gp_placement_undo(&s->alloc, &s->pool[s->slot[v]]);
	gp_sim_q_use_add(s, v, -1);
	s->q.released[v] = 1;
}

static int give_back(sim *s, int32_t v)
{
	if (gp_placement_apply(&s->alloc, &s->pool[s->slot[v]]) != 0)
		return -1;
	gp_sim_q_use_add(s, v, 1);
	s->q.released[v] = 0;
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
	if (s->q.one_prio)
		w->at = gp_xmalloc((size_t)(s->q.co_off[co + 1] - s->q.co_off[co]) * sizeof(*w->at));
	for (i = s->q.co_off[co]; i < s->q.co_off[co + 1]; i++) {
		int y = s->q.co_mem[i];
		int32_t v;

		if (y == t || !borrowing(s, y, mask) || s->q.rhead[y] < 0 || took_now(s, y, t))
			continue;
		if (s->q.one_prio) {
			w->at[w->nat++] = s->q.rhead[y];
			continue;
		}
		for (v = s->q.rhead[y]; v >= 0; v = s->q.rnext[v]) {
			GP_GROW(w->c, cap, w->nc + 1);
			w->c[w->nc].prio = s->jl->jobs[v].priority;
			w->c[w->nc].seq = s->q.seq[v];
			w->c[w->nc].job = v;
			w->nc++;
		}
	}
	if (w->nc > 1)
		qsort(w->c, w->nc, sizeof(*w->c), cand_cmp);
}

/* The next job in candidate order, -1 when none is left. */
static int32_t walk_next1(sim *s, cand_walk *w)
{
	int k, best = -1;
	int32_t v;

	if (!s->q.one_prio)
		return w->i < w->nc ? w->c[w->i++].job : -1;
	for (k = 0; k < w->nat; k++)
		if (w->at[k] >= 0 && (best < 0 || s->q.seq[w->at[k]] > s->q.seq[w->at[best]]))
			best = k;
	if (best < 0)
		return -1;
	v = w->at[best];
	w->at[best] = s->q.rnext[v];
	return v;
}

/* The next candidate (one not preempted at this instant), -1 none. */
static int32_t walk_next(sim *s, cand_walk *w)
{
	int32_t v;

	while ((v = walk_next1(s, w)) >= 0 && preempted_now(s, v))
		;
	return v;
}

static void walk_release(cand_walk *w)
{
	free(w->c);
	free(w->at);
}

/* Whether j fits now with what was taken (rule 4): its quota and the
 * policy's placement (into s->scratch), asked again among the GPU
 * models whose keys admit j when one refuses it (quota.c). */
static int fits_now(sim *s, int32_t j, int t, int64_t freed, int borrow)
{
	const gp_job *job = &s->jl->jobs[j];

	if (need_milli(job) > s->cap_milli - s->alloc_milli + freed)
		return 0;
	if (s->q.all >= 0 && !admits_key(s, t, s->q.all, need_milli(job)))
		return 0;
	s->res->policy_calls++;
	if (s->cfg->policy->place(&s->ctx, job, &s->scratch) != GP_PLACED)
		return 0;
	return gp_sim_q_place_ok(s, &s->ctx, j, !borrow, &s->scratch) > 0;
}

/* Rule 5: j placed in s->scratch with q.vict[0..nv) taken: put back
 * those the placement and j's quota (within its nominal quota unless
 * borrow) leave room for, the last taken first; preempt the others
 * (the caller starts j, then requeues them). */
static int commit_victims(sim *s, int t, size_t nv, int borrow)
{
	int64_t d[GP_TENANTS_MAX_RES];
	struct gp_sim_tenant_use *u;
	gp_sim_interrupt ir;
	size_t i;
	int32_t v;

	demand(s, &s->scratch, d);
	if (gp_placement_apply(&s->alloc, &s->scratch) != 0) {
		for (i = nv; i-- > 0;)
			give_back(s, s->q.vict[i]);
		return 0;
	}
	for (i = nv; i-- > 0;) {
		v = s->q.vict[i];
		if (give_back(s, v) == 0 && !((borrow || within(s, t, d)) && admits(s, t, d)))
			take(s, v);
	}
	gp_placement_undo(&s->alloc, &s->scratch);
	gp_sim_interrupt_init(&ir);
	ir.cause = GP_SIM_CAUSE_PREEMPT;
	ir.overhead_s = s->cfg->preempt_cost;
	s->pk.defer = 1;
	for (i = 0; i < nv && s->status == GP_OK; i++) {
		v = s->q.vict[i];
		if (!s->q.released[v])
			continue;
		s->q.released[v] = 0;
		gp_sim_q_use_add(s, v, 1); /* gp_sim_ix_interrupt takes it off again */
		ir.lose = gp_sim_ix_tau(s, v) > 0 ? GP_SIM_LOSE_CHECKPOINT : GP_SIM_LOSE_NOTHING;
		u = &s->res->tenant_use[s->res->job_tenant[v]];
		s->res->tenant_use[t].reclaims++;
		u->reclaimed++;
		if (++s->q.rc_n[v] > u->reclaimed_most) {
			u->reclaimed_most = s->q.rc_n[v];
			u->reclaimed_most_job = v;
		}
		took(s, t, s->res->job_tenant[v]);
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

	/* under dominant-share with --within-quota share, such a job
	 * preempts by share */
	if (!s->q.reclaim || T->t[t].cohort < 0 || (s->drs && s->cfg->share_within_quota))
		return 0;
	/* rule 1 on `gpus` first: most calls end here */
	if (s->q.all >= 0 && s->q.usage[(size_t)t * GP_TENANTS_MAX_RES + s->q.all] + need_milli(job) >
				     T->t[t].nominal[s->q.all])
		return 0;
	/* rule 6: a search like one that failed fails again */
	if (s->q.rc_ver[t] == *group_ver(s, t) && need_milli(job) >= s->q.rc_need[t] &&
	    s->cap_milli - s->alloc_milli <= s->q.rc_free[t])
		return 0;
	memset(mask, 0, sizeof(mask));
	if (s->q.all >= 0) {
		mask[s->q.all] = need_milli(job);
		if (!within(s, t, mask)) /* rule 1, before the placement */
			return 0;
	} else {
		for (r = 0; r < T->nres; r++)
			mask[r] = 1;
	}
	/* the trial changes usage at this instant only: the cohort, whose
	 * tenants are the only ones it touches, is integrated to now */
	gp_sim_q_integrate_group(s, T->t[t].cohort);
	s->q.barred = 0;
	walk_init(s, t, mask, &w);
	while (!ok && (v = walk_next(s, &w)) >= 0) {
		if (!borrowing(s, s->res->job_tenant[v], mask))
			continue;
		take(s, v);
		freed += s->ix.held[v];
		GP_GROW(s->q.vict, s->q.vict_cap, nv + 1);
		s->q.vict[nv++] = v;
		ok = fits_now(s, j, t, freed, 0);
	}
	walk_release(&w);
	if (!ok) {
		for (i = nv; i-- > 0;)
			if (give_back(s, s->q.vict[i]) != 0)
				s->status = gp_error_set(s->err, GP_EIO, NULL, 0, 0,
							 "internal error: cannot restore a running job");
		if (!s->q.barred) {
			s->q.rc_ver[t] = *group_ver(s, t);
			s->q.rc_need[t] = need_milli(job);
			s->q.rc_free[t] = s->cap_milli - s->alloc_milli;
		}
		return 0;
	}
	return commit_victims(s, t, nv, 0);
}

/* ---- preemption by share (dominant-share) ----
 * Kueue's fair sharing preemption with its default strategies
 * [LessThanOrEqualToFinalShare, LessThanInitialShare], for a job j of
 * tenant x that cannot start and would borrow (reclaim is for a job
 * within its quota; with --within-quota share, as in Kueue with its
 * FairSharingPreemptWithinNominal gate off, such a job searches here
 * too), within x's borrowing limit:
 *  1. S = x's share with j, on every key j's placement draws on (the
 *     search runs on j's request on `gpus`, and again with the
 *     placement's S when a job taken would not stand on it).
 *     Candidates are the running jobs of the other tenants of x's
 *     cohort that borrow on `gpus`, the key j contends for (Kueue: the
 *     ClusterQueues borrowing on a flavor-resource that needs
 *     preemption), with a share above 0, each tenant's in reclaim's
 *     candidate order.  (A tenant within its quota on `gpus`, its
 *     share from a GPU model's key, is none: it would reclaim the GPUs
 *     back at once.)
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
	size_t i, n;            /* several: its range of s->q.fp_c */
	int32_t aside;          /* its first candidate set aside, -1 none */
	int in;                 /* still offers candidates */
	int64_t dfail;          /* one quota key: the least demand that failed */
} fp_member;

static int32_t fp_next(sim *s, const cand *c, fp_member *m)
{
	int32_t v;

	do {
		if (!s->q.one_prio) {
			v = m->i < m->n ? c[m->i++].job : -1;
		} else {
			v = m->at;
			if (v >= 0)
				m->at = s->q.rnext[v];
		}
	} while (v >= 0 && preempted_now(s, v));
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

/* Would j borrow, within its tenant's borrowing limit (on `gpus`)?  With
 * --within-quota share a job within its quota searches too. */
static int fp_borrows(const sim *s, int32_t j, int t)
{
	const gp_tenant *x = &s->cfg->tenants->t[t];
	int64_t u = s->q.usage[(size_t)t * GP_TENANTS_MAX_RES + s->q.all] + need_milli(&s->jl->jobs[j]);

	if (u <= x->nominal[s->q.all])
		return s->cfg->share_within_quota;
	return x->borrow_limit < 0 || u - x->nominal[s->q.all] <= x->borrow_limit;
}

/* Does a failed search stand for j? */
static int fp_failed(const sim *s, int32_t j, int t)
{
	return s->q.fp_ver[t] == *group_ver(s, t) && need_milli(&s->jl->jobs[j]) >= s->q.fp_need[t] &&
	       s->cap_milli - s->alloc_milli <= s->q.fp_free[t];
}

/* Has another tenant of t's cohort, running jobs, a share >= xs (above
 * 0)?  The cohort's two highest such shares are kept while its use does
 * not change (a pass asks this of many jobs). */
static int fp_may(sim *s, int t, double xs)
{
	int co = s->cfg->tenants->t[t].cohort, i;
	struct gp_sim_fptop *c = &s->q.fp_top[co];

	if (c->ver != *group_ver(s, t)) {
		c->ver = *group_ver(s, t);
		c->t1 = c->t2 = -1;
		c->s1 = c->s2 = 0;
		for (i = s->q.co_off[co]; i < s->q.co_off[co + 1]; i++) {
			int y = s->q.co_mem[i];
			double ys;

			if (s->q.rhead[y] < 0 || !((ys = gp_sim_quota_share(s, y, -1)) > 0))
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

/* The cohort's members that may lose jobs (rule 1), with their
 * candidates. */
static int fp_members(sim *s, int t, double xs, fp_member *m)
{
	int co = s->cfg->tenants->t[t].cohort, i, nm = 0;
	int64_t mask[GP_TENANTS_MAX_RES] = { 0 };
	size_t nc = 0;
	int32_t v;

	mask[s->q.all] = 1;
	for (i = s->q.co_off[co]; i < s->q.co_off[co + 1]; i++) {
		int y = s->q.co_mem[i];
		double ys = gp_sim_quota_share(s, y, -1);

		if (y == t || s->q.rhead[y] < 0 || !(ys > 0) || ys < xs || !borrowing(s, y, mask) ||
		    took_now(s, y, t))
			continue;
		m[nm].y = y;
		m[nm].at = s->q.rhead[y];
		m[nm].aside = -1;
		m[nm].in = 1;
		m[nm].dfail = INT64_MAX;
		m[nm].i = nc;
		if (!s->q.one_prio) {
			for (v = s->q.rhead[y]; v >= 0; v = s->q.rnext[v]) {
				GP_GROW(s->q.fp_c, s->q.fp_cap, nc + 1);
				s->q.fp_c[nc].prio = s->jl->jobs[v].priority;
				s->q.fp_c[nc].seq = s->q.seq[v];
				s->q.fp_c[nc].job = v;
				nc++;
			}
			qsort(s->q.fp_c + m[nm].i, nc - m[nm].i, sizeof(*s->q.fp_c), cand_cmp);
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
	GP_GROW(s->q.vict, s->q.vict_cap, *nv + 1);
	GP_GROW(*thr, *thr_cap, *nv + 1);
	(*thr)[*nv].lim = lim;
	(*thr)[*nv].strict = strict;
	s->q.vict[(*nv)++] = v;
	return fits_now(s, j, t, *freed, 1);
}

/* A search that found nothing stands for j's tenant until its cohort's
 * use changes (fp_failed). */
static void fp_fail(sim *s, int32_t j, int t)
{
	if (s->q.fp_ver[t] != *group_ver(s, t) || need_milli(&s->jl->jobs[j]) < s->q.fp_need[t])
		s->q.fp_need[t] = need_milli(&s->jl->jobs[j]);
	s->q.fp_ver[t] = *group_ver(s, t);
	s->q.fp_free[t] = s->cap_milli - s->alloc_milli;
}

/* Put back every job taken. */
static void fp_undo(sim *s, size_t nv)
{
	while (nv-- > 0)
		if (give_back(s, s->q.vict[nv]) != 0)
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

	m = gp_xmalloc((size_t)(s->q.co_off[T->t[t].cohort + 1] - s->q.co_off[T->t[t].cohort]) * sizeof(*m));
	nm = fp_members(s, t, xs, m);
	/* rule 2 */
	while (!ok && s->status == GP_OK && (y = fp_top(s, m, nm, &ys)) != NULL) {
		if (T->nres == 1) {
			/* one key: when y's smallest job (a bound) fails, all do */
			dv[0] = s->q.fp_dmin[y->y];
			if (gp_sim_q_share_of(s, y->y, dv, -1) < xs) {
				if (y->aside < 0)
					y->aside = fp_next(s, s->q.fp_c, y);
				y->in = 0;
				continue;
			}
		}
		while ((v = fp_next(s, s->q.fp_c, y)) >= 0) {
			demand(s, &s->pool[s->slot[v]], dv);
			/* one key: a job as large as one that failed fails */
			if (!(T->nres == 1 && dv[0] >= y->dfail)) {
				if ((yw = gp_sim_q_share_of(s, y->y, dv, -1)) >= xs)
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
	*full = gp_sim_q_share_of(s, t, dv, 1);
	for (i = 0; i < (int)nv; i++)
		if ((*thr)[i].strict ? !(*full < (*thr)[i].lim) : !(*full <= (*thr)[i].lim))
			return 0;
	return 1;
}

/* Rules 2-4 for j of tenant t, share xs with it.  S depends on the
 * placement, which the policy picks only once jobs are taken, so the
 * first search measures it on `gpus` alone; when the placement's GPU
 * model keys raise S past a rule a job was taken by, the search runs
 * again with that S (stricter: fewer candidates, maybe another
 * placement).  S only grows from one search to the next.  On the
 * Philly slice with per-model keys a second search found the victims
 * in about 7 % of the searches that succeeded and a third in 0.2 %;
 * none was cut short by the cap, so one search would lose preemptions
 * Kueue makes. */
__attribute__((noinline)) static int fp_search(sim *s, int32_t j, int t, double xs)
{
	int co = s->cfg->tenants->t[t].cohort, ok = 0, round;
	double full = xs;
	fp_lim *thr = NULL;
	size_t nv = 0, thr_cap = 0;

	gp_sim_q_integrate_group(s, co);
	s->q.barred = 0;
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
	if (!s->q.barred)
		fp_fail(s, j, t);
	return 0;
}

/* Asked of every job a dominant-share pass cannot start: the cheap
 * refusals first, the search (its frame) only past them. */
int gp_sim_quota_fair_preempt(sim *s, int32_t j)
{
	int t = s->res->job_tenant[j];
	double xs;

	if (!s->q.reclaim || s->cfg->tenants->t[t].cohort < 0 || s->q.all < 0 || !fp_borrows(s, j, t) ||
	    fp_failed(s, j, t))
		return 0;
	xs = gp_sim_quota_share(s, t, j);
	if (!fp_may(s, t, xs)) {
		fp_fail(s, j, t);
		return 0;
	}
	return fp_search(s, j, t, xs);
}
