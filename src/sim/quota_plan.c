/* Backfill's plans hold tenants' quota: a reservation holds its job's
 * use from its planned start to its planned end.  A hold is counted into the usage
 * only while a question is asked (and taken off at once, at the same
 * instant: nothing is integrated meanwhile). */
#include <string.h>

#include "quota_int.h"

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
	if (s->q.all >= 0)
		d[s->q.all] = need_milli(&s->jl->jobs[j]);
}

void gp_sim_quota_plan_reset(sim *s)
{
	s->q.nhold = 0;
}

void gp_sim_quota_plan_hold(sim *s, int32_t j, const gp_placement *p, double t0, double t1)
{
	struct gp_sim_qhold *h;

	GP_GROW(s->q.hold, s->q.hold_cap, s->q.nhold + 1);
	h = &s->q.hold[s->q.nhold++];
	h->job = j;
	h->t0 = t0;
	h->t1 = t1;
	plan_demand(s, j, p, h->d);
}

/* Count (+1) or take off (-1) the holds overlapping [t0, t1). */
static void holds(sim *s, double t0, double t1, int sign)
{
	size_t i;

	for (i = 0; i < s->q.nhold; i++)
		if (s->q.hold[i].t0 < t1 && t0 < s->q.hold[i].t1)
			gp_sim_q_use_delta(s, s->res->job_tenant[s->q.hold[i].job], s->q.hold[i].d, sign);
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

int gp_sim_quota_plan_place(sim *s, const gp_policy_ctx *ctx, int32_t j, gp_placement *p, double t0, double t1)
{
	int ok;

	holds(s, t0, t1, 1);
	ok = gp_sim_q_place_ok(s, ctx, j, 0, p);
	holds(s, t0, t1, -1);
	return ok;
}
