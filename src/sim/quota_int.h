/* Internals of tenants' quotas, shared by quota.c (setup, usage and
 * admission, cohort accounting, the share), quota_reclaim.c (reclaim and
 * preemption by share) and quota_plan.c (backfill's holds).  The cheap
 * questions of admission are inline: reclaim's and preemption's trials
 * ask them of every candidate. */
#ifndef GPUPLAN_SIM_QUOTA_INT_H
#define GPUPLAN_SIM_QUOTA_INT_H

#include <string.h>

#include "sim_int.h"

/* The quota keys a placement draws on: milli-GPU per key into d, with
 * a share of milli on each of its GPUs (its own shares when < 0). */
static inline void demand_at(const sim *s, const gp_placement *p, int milli, int64_t *d)
{
	int k;

	memset(d, 0, sizeof(*d) * GP_TENANTS_MAX_RES);
	for (k = 0; k < p->nparts; k++) {
		const gp_place_part *part = &p->parts[k];
		int64_t m = (int64_t)part->ngpus * (milli < 0 ? part->milli : milli);

		if (s->q.all >= 0)
			d[s->q.all] += m;
		if (s->q.node_res[part->node] >= 0)
			d[s->q.node_res[part->node]] += m;
	}
}

static inline void demand(const sim *s, const gp_placement *p, int64_t *d)
{
	demand_at(s, p, -1, d);
}

static inline int64_t guaranteed(const gp_tenant *t, int r)
{
	int64_t g = t->lend_limit >= 0 ? t->nominal[r] - t->lend_limit : 0;

	return g > 0 ? g : 0;
}

/* Does tenant t's quota (and its cohort's) admit a use of d more?
 * Alone, its use stays within its quota.  In a cohort every admission
 * draws on the cohort (Kueue's available()): d fits in what is left of
 * t's guaranteed quota plus what the cohort has left to lend, the sum
 * of max(0, use - guaranteed) being kept per key (co_drawn); within
 * its quota or not, a tenant's use beyond its guaranteed part is what
 * the cohort's others may have borrowed. */
static inline int admits_key(const sim *s, int t, int r, int64_t d)
{
	const gp_tenant *x = &s->cfg->tenants->t[t];
	int64_t u0 = s->q.usage[(size_t)t * GP_TENANTS_MAX_RES + r], g;
	size_t at;

	if (d <= 0) /* a use that shrinks needs no admission */
		return 1;
	if (x->cohort < 0)
		return u0 + d <= x->nominal[r];
	if (x->borrow_limit >= 0 && u0 + d - x->nominal[r] > x->borrow_limit)
		return 0;
	g = guaranteed(x, r);
	at = (size_t)x->cohort * GP_TENANTS_MAX_RES + r;
	return d <= (g > u0 ? g - u0 : 0) + s->q.co_pool[at] - s->q.co_drawn[at];
}

static inline int admits(const sim *s, int t, const int64_t *d)
{
	int r;

	for (r = 0; r < s->cfg->tenants->nres; r++)
		if (!admits_key(s, t, r, d[r]))
			return 0;
	return 1;
}

/* The version of t's usage group (its cohort, or itself alone). */
static inline uint32_t *group_ver(const sim *s, int t)
{
	const gp_tenants *T = s->cfg->tenants;

	return &s->q.gver[T->t[t].cohort >= 0 ? (size_t)T->t[t].cohort : (size_t)T->ncohorts + 1 + (size_t)t];
}

/* Tenant t's use changes by sign x d (every change goes through here). */
void gp_sim_q_use_delta(sim *s, int t, const int64_t *d, int sign);
/* Running job v's use of its placement is taken off (-1) or put back (+1). */
void gp_sim_q_use_add(sim *s, int32_t v, int sign);
/* Integrate cohort c's tenants and what it lends up to now (before a
 * trial changes their use at this instant). */
void gp_sim_q_integrate_group(sim *s, int c);
/* Does j's quota admit the policy's placement p (within its tenant's
 * nominal quota too when nominal)?  When a GPU model's key alone
 * refuses it, the policy is asked once more through ctx among j's GPU
 * models whose keys admit its whole request (Kueue's flavor
 * assignment), into p.  1 admitted; 0 refused; refused on a GPU
 * model's key, -1 when the others refuse it too, -2 when those that
 * admit it have no room.  Nothing is counted. */
int gp_sim_q_place_ok(sim *s, const gp_policy_ctx *ctx, int32_t j, int nominal, gp_placement *p);
/* Tenant t's dominant share with sign x d added to its use. */
double gp_sim_q_share_of(const sim *s, int t, const int64_t *d, int sign);

#endif
