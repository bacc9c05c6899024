/* Slurm's backfill (--backfill slurm), as sched/backfill of Slurm 22.05
 * plans a cycle: every waiting job in queue order, not only the first,
 * either starts now or gets a reservation, and a reservation holds whole
 * nodes.
 *
 * A cycle starts from the state of the running jobs, each expected to end
 * at its start plus its time limit (its real end without one).  Each
 * waiting job in turn, up to Slurm's bf_max_job_test (500) or
 * --backfill-depth:
 *   - it starts now when the policy places it on what is free now while
 *     every node reserved by an earlier job over [now, now + its time
 *     limit) is withheld;
 *   - else its expected start is the first time t (a running job's
 *     expected end or a reservation's end) at which the policy places it
 *     with the running jobs ending by t gone and the nodes of reservations
 *     overlapping [t, t + its time limit) withheld; the nodes of that
 *     placement are then reserved from t to t + its time limit, all of
 *     them, whatever share the job takes (Slurm's backfill holds whole
 *     nodes since 22.05), so a small job may wait beside free GPUs of a
 *     node that a larger job reserved.
 * Slurm rounds reservation ends up to bf_resolution (60 s); this plan
 * keeps them exact.  EASY (backfill.c) stays the default: one reservation,
 * for the blocked head, of the GPUs it needs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"

/* Slurm's default bf_max_job_test: jobs considered per cycle. */
#define SBF_MAX_JOB_TEST 500

typedef struct sbf_resv {
	double t0, t1;          /* reserved from t0 to t1 */
	size_t at, n;           /* its nodes: nodes[at .. at + n) */
} sbf_resv;

struct gp_sim_sbf {
	sbf_resv *resv;
	size_t nresv, resv_cap;
	int32_t *nodes;
	size_t nnodes, nodes_cap;
	int32_t *held;          /* nodes withheld for one probe */
	size_t nheld;
	uint32_t *mark, stamp;  /* per node: withheld in this probe */
};

static const char *const mode_names[] = { "easy", "slurm" };

const char *gp_sim_backfill_name(int mode)
{
	return mode >= 0 && mode < GP_SIM_BF_MODES ? mode_names[mode] : "?";
}

int gp_sim_backfill_parse(const char *name)
{
	int i;

	for (i = 0; i < GP_SIM_BF_MODES; i++)
		if (!strcmp(name, mode_names[i]))
			return i;
	return -1;
}

static struct gp_sim_sbf *sbf_get(sim *s)
{
	if (!s->bf.sbf) {
		s->bf.sbf = gp_xcalloc(1, sizeof(*s->bf.sbf));
		s->bf.sbf->held = gp_xmalloc((s->cl->nnodes ? (size_t)s->cl->nnodes : 1) * sizeof(int32_t));
		s->bf.sbf->mark = gp_xcalloc(s->cl->nnodes ? (size_t)s->cl->nnodes : 1, sizeof(uint32_t));
	}
	return s->bf.sbf;
}

void gp_sim_sbf_free(sim *s)
{
	if (!s->bf.sbf)
		return;
	free(s->bf.sbf->resv);
	free(s->bf.sbf->nodes);
	free(s->bf.sbf->held);
	free(s->bf.sbf->mark);
	free(s->bf.sbf);
	s->bf.sbf = NULL;
}

/* Withhold (as draining) every up node of the reservations that overlap
 * [t0, t1); unhold() gives them back. */
static void hold(sim *s, struct gp_sim_sbf *b, double t0, double t1)
{
	size_t r, i;

	b->nheld = 0;
	if (++b->stamp == 0) {
		memset(b->mark, 0, (size_t)s->cl->nnodes * sizeof(*b->mark));
		b->stamp = 1;
	}
	for (r = 0; r < b->nresv; r++) {
		const sbf_resv *v = &b->resv[r];

		if (!(t0 < v->t1 && v->t0 < t1))
			continue;
		for (i = 0; i < v->n; i++) {
			int32_t node = b->nodes[v->at + i];

			if (b->mark[node] == b->stamp || s->alloc.node_state[node] != GP_NODE_UP)
				continue;
			b->mark[node] = b->stamp;
			b->held[b->nheld++] = node;
			gp_alloc_set_state(&s->alloc, node, GP_NODE_DRAINING);
		}
	}
}

static void unhold(sim *s, struct gp_sim_sbf *b)
{
	while (b->nheld)
		gp_alloc_set_state(&s->alloc, b->held[--b->nheld], GP_NODE_UP);
}

/* Whether the policy places j (through ctx, into out) on the state as it
 * is, the reservations overlapping [t, t + run) withheld, and with
 * tenants its quota admits it with their use counted in (asked again
 * among the GPU models whose keys admit it when one refuses it): 1 yes;
 * 0 placed but refused by the quota; < 0 not placed, or refused by a GPU
 * model's key alone (a later time may do). */
static int probe(sim *s, struct gp_sim_sbf *b, const gp_policy_ctx *ctx, int32_t j, double t,
		 double run, gp_placement *out)
{
	int placed;

	hold(s, b, t, t + run);
	s->res->policy_calls++;
	placed = s->cfg->policy->place(ctx, &s->jl->jobs[j], out) == GP_PLACED ? 1 : -1;
	if (placed > 0 && s->cfg->tenants)
		placed = gp_sim_quota_plan_place(s, ctx, j, out, t, t + run);
	unhold(s, b);
	return placed;
}

/* The earliest time j could start after now (its placement in
 * s->probe.place), INFINITY when none: the running jobs are taken off the
 * state in order of expected end (s->bf.lim_end, nlim of them) and put back
 * afterwards. */
static double expected_start(sim *s, struct gp_sim_sbf *b, int32_t j, size_t nlim)
{
	const gp_job *job = &s->jl->jobs[j];
	double run = s->est[j], t = s->last_t, found = INFINITY;
	int64_t freed = 0;
	size_t i = 0, r;
	int placed = 0;

	s->bf.nreleased = 0;
	s->probe.ctx.alloc = &s->alloc;
	for (;;) {
		double nt = INFINITY;

		while (i < nlim && s->bf.lim_end[i].t <= t) {
			int32_t ej = s->bf.lim_end[i++].job;

			s->bf.released[s->bf.nreleased++] = ej;
			gp_placement_undo(&s->alloc, &s->pool[s->slot[ej]]);
			freed += need_milli(&s->jl->jobs[ej]);
		}
		if (need_milli(job) <= s->cap_milli - s->alloc_milli + freed &&
		    (placed = probe(s, b, &s->probe.ctx, j, t, run, &s->probe.place)) >= 0) {
			if (placed)
				found = t;
			break;
		}
		if (i < nlim)
			nt = s->bf.lim_end[i].t;
		for (r = 0; r < b->nresv; r++)
			if (b->resv[r].t1 > t && b->resv[r].t1 < nt)
				nt = b->resv[r].t1;
		if (!isfinite(nt))
			break;
		t = nt;
	}
	s->probe.ctx.alloc = &s->probe.alloc;
	for (r = s->bf.nreleased; r-- > 0;)
		if (gp_placement_apply(&s->alloc, &s->pool[s->slot[s->bf.released[r]]]) != 0) {
			s->status = gp_error_set(s->err, GP_EIO, NULL, 0, 0,
						 "internal error: cannot restore a running job");
			return INFINITY;
		}
	return found;
}

static void add_reservation(struct gp_sim_sbf *b, const gp_placement *p, double t0, double t1)
{
	sbf_resv *v;
	int i;

	GP_GROW(b->resv, b->resv_cap, b->nresv + 1);
	GP_GROW(b->nodes, b->nodes_cap, b->nnodes + (size_t)p->nparts);
	v = &b->resv[b->nresv++];
	v->t0 = t0;
	v->t1 = t1;
	v->at = b->nnodes;
	v->n = (size_t)p->nparts;
	for (i = 0; i < p->nparts; i++)
		b->nodes[b->nnodes++] = p->parts[i].node;
}

void gp_sim_backfill_slurm(sim *s, int32_t head)
{
	struct gp_sim_sbf *b = sbf_get(s);
	size_t limit = s->cfg->backfill_depth ? s->cfg->backfill_depth : SBF_MAX_JOB_TEST, examined = 0;
	size_t nlim = gp_sim_expected_ends(s);
	int32_t j, nxt;
	int k;

	b->nresv = b->nnodes = 0;
	if (s->cfg->tenants)
		gp_sim_quota_plan_reset(s);
	for (k = job_class(&s->jl->jobs[head]); k < NCLASS && s->status == GP_OK; k++)
		for (j = k == job_class(&s->jl->jobs[head]) ? head : s->qhead[k];
		     j >= 0 && s->status == GP_OK; j = nxt) {
			const gp_job *job = &s->jl->jobs[j];
			gp_sim_runinfo ri;
			double t;

			nxt = s->next[j];
			if (++examined > limit)
				return;
			/* tenants: refused by its quota now (no reservation
			 * counted), it neither starts nor reserves */
			if (s->cfg->tenants && !gp_sim_quota_plan_admits(s, j, NULL, -INFINITY, -INFINITY))
				continue;
			/* the head could not start in this pass's FIFO part */
			if (j != head && need_milli(job) <= s->cap_milli - s->alloc_milli &&
			    probe(s, b, &s->ctx, j, s->last_t, s->est[j], &s->scratch) > 0) {
				if (gp_sim_job_runinfo(s, j, &ri) == 0 && gp_sim_start_job(s, j, &ri) == GP_OK) {
					s->res->backfilled++;
					nlim = gp_sim_expected_ends(s);
				}
				continue;
			}
			t = expected_start(s, b, j, nlim);
			if (!isfinite(t))
				continue;
			add_reservation(b, &s->probe.place, t, t + s->est[j]);
			if (s->cfg->tenants)
				gp_sim_quota_plan_hold(s, j, &s->probe.place, t, t + s->est[j]);
		}
}
