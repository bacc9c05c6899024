/* The fairshare queue discipline: Slurm's multifactor priority.
 *
 * A job's priority is
 *   w_age * age + w_fairshare * fs + w_jobsize * size + w_qos * qos
 * with every factor in [0, 1]:
 *   age   time since submit over 7 days (Slurm's PriorityMaxAge), capped
 *         at 1;
 *   fs    2^(-U / S) (Slurm's classic fair-share factor): U the job's
 *         tenant's decayed GPU usage over all tenants' (0 when nobody
 *         used anything), S its weight over all tenants' weights; without
 *         tenants every job is of one tenant;
 *   size  the job's GPU share over the cluster's GPUs (larger first, as
 *         Slurm without PriorityFavorSmall);
 *   qos   the job's priority over the largest priority in the trace (0
 *         for priorities <= 0, and when none is > 0).
 * Decayed usage: GPU-seconds, and at each recomputation every tenant's
 * usage is multiplied by 2^(-interval / half-life) before the interval's
 * GPU-seconds are added (Slurm's PriorityDecayHalfLife, applied every
 * PriorityCalcPeriod).  Priorities are recomputed on a grid of the
 * interval from the first submit; a job that enters the queue in between
 * gets its priority from the factors of the last recomputation and its
 * age then.  The queue is ordered by priority, highest first, then by
 * arrival; the head blocks the queue as under priority. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "discipline.h"
#include "sim_int.h"

#define MAX_AGE_S (7.0 * 86400.0)

/* Higher priority first, then arrival order (a total order). */
static inline int fs_cmp(const sim *s, const gp_sim_qitem *a, const gp_sim_qitem *b)
{
	if (s->fs_prio[a->job] != s->fs_prio[b->job])
		return s->fs_prio[a->job] > s->fs_prio[b->job] ? -1 : 1;
	return s->rank[a->job] < s->rank[b->job] ? -1 : s->rank[a->job] > s->rank[b->job];
}
GP_HEAP_FUNCS(fs_heap, gp_sim_jheap, gp_sim_qitem, const sim *, fs_cmp)

static int fs_setup(sim *s)
{
	size_t nt = s->cfg->tenants && s->cfg->tenants->n ? s->cfg->tenants->n : 1, i;
	double wsum = 0, first = s->n ? s->jl->jobs[s->order[0]].submit : 0;
	int k;

	for (k = 0; k < NCLASS; k++)
		GP_GROW(s->sjf[k].v, s->sjf[k].cap, s->n ? s->n : 1);
	s->fs = 1;
	s->fs_prio = gp_xcalloc(s->n ? s->n : 1, sizeof(*s->fs_prio));
	s->fs_usage = gp_xcalloc(nt, sizeof(*s->fs_usage));
	s->fs_acc = gp_xcalloc(nt, sizeof(*s->fs_acc));
	s->fs_tt = gp_xcalloc(nt, sizeof(*s->fs_tt));
	s->fs_run = gp_xcalloc(nt, sizeof(*s->fs_run));
	s->fs_factor = gp_xmalloc(nt * sizeof(*s->fs_factor));
	s->fs_share = gp_xmalloc(nt * sizeof(*s->fs_share));
	s->fs_nt = nt;
	for (i = 0; i < nt; i++) {
		s->fs_share[i] = s->cfg->tenants && s->cfg->tenants->n ? s->cfg->tenants->t[i].weight : 1;
		wsum += s->fs_share[i];
	}
	for (i = 0; i < nt; i++) {
		s->fs_share[i] /= wsum;
		s->fs_factor[i] = 1; /* nobody used anything yet */
		s->fs_tt[i] = first;
	}
	s->fs_grid = first;
	s->fs_next = first + s->cfg->fs_interval;
	s->fs_max_prio = 0;
	for (i = 0; i < s->n; i++)
		if (s->jl->jobs[i].priority > s->fs_max_prio)
			s->fs_max_prio = s->jl->jobs[i].priority;
	return GP_OK;
}

static void fs_teardown(sim *s)
{
	int k;

	for (k = 0; k < NCLASS; k++)
		free(s->sjf[k].v);
	free(s->fs_prio);
	free(s->fs_usage);
	free(s->fs_acc);
	free(s->fs_tt);
	free(s->fs_run);
	free(s->fs_factor);
	free(s->fs_share);
}

static int tenant_of(const sim *s, int32_t j)
{
	return s->res->job_tenant ? s->res->job_tenant[j] : 0;
}

void gp_sim_fs_change(sim *s, int32_t j, int64_t milli, int sign)
{
	int t = tenant_of(s, j);

	s->fs_acc[t] += (double)s->fs_run[t] / GP_MILLI * (s->last_t - s->fs_tt[t]);
	s->fs_tt[t] = s->last_t;
	s->fs_run[t] += sign * milli;
}

/* j's priority at time now from the current factors. */
static double priority(const sim *s, int32_t j, double now)
{
	const gp_job *job = &s->jl->jobs[j];
	const gp_sim_config *c = s->cfg;
	double age = (now - job->submit) / MAX_AGE_S, size, qos = 0;

	age = age < 0 ? 0 : age > 1 ? 1 : age;
	size = s->cap_milli > 0 ? (double)need_milli(job) / (double)s->cap_milli : 0;
	if (size > 1)
		size = 1;
	if (s->fs_max_prio > 0 && job->priority > 0)
		qos = (double)job->priority / s->fs_max_prio;
	return c->fs_w_age * age + c->fs_w_fairshare * s->fs_factor[tenant_of(s, j)] +
	       c->fs_w_jobsize * size + c->fs_w_qos * qos;
}

/* j joins its class's heap with its priority now; only the head ever
 * leaves. */
static void fs_arrival(sim *s, int32_t j)
{
	s->fs_prio[j] = priority(s, j, s->fs_grid > s->last_t ? s->fs_grid : s->last_t);
	fs_heap_push(&s->sjf[job_class(&s->jl->jobs[j])], s, (gp_sim_qitem){ j, 0 });
}

static void fs_leave(sim *s, int32_t j)
{
	fs_heap_pop(&s->sjf[job_class(&s->jl->jobs[j])], s);
}

static int32_t fs_head(const sim *s, int k)
{
	return s->qlen[k] ? s->sjf[k].v[0].job : -1;
}

/* Recompute at the last grid point <= t: decay, add each interval's
 * usage, new fair-share factors, every queued job's priority. */
void gp_sim_fs_recompute(sim *s, double t)
{
	double I = s->cfg->fs_interval, hl = s->cfg->fs_halflife, d, g, total = 0, m;
	size_t i, k;

	m = floor((t - s->fs_grid) / I + 1e-9);
	if (m < 1)
		return;
	g = s->fs_grid + m * I;
	d = hl > 0 ? pow(2.0, -I / hl) : 0;
	for (i = 0; i < s->fs_nt; i++) {
		double r = (double)s->fs_run[i] / GP_MILLI, first, dm;

		/* the first interval: what was accounted, then the rest of it
		 * at the current rate; the others at the current rate */
		first = s->fs_acc[i] + r * (s->fs_grid + I - s->fs_tt[i]);
		s->fs_usage[i] = s->fs_usage[i] * d + first;
		if (m > 1) {
			dm = pow(d, m - 1);
			s->fs_usage[i] = s->fs_usage[i] * dm +
					 (d < 1 ? r * I * (1 - dm) / (1 - d) : r * I * (m - 1));
		}
		s->fs_acc[i] = 0;
		s->fs_tt[i] = g;
		total += s->fs_usage[i];
	}
	for (i = 0; i < s->fs_nt; i++)
		s->fs_factor[i] = total > 0 ? pow(2.0, -(s->fs_usage[i] / total) / s->fs_share[i]) : 1;
	s->fs_grid = g;
	s->fs_next = g + I;
	for (k = 0; k < NCLASS; k++) {
		for (i = 0; i < s->sjf[k].n; i++)
			s->fs_prio[s->sjf[k].v[i].job] = priority(s, s->sjf[k].v[i].job, g);
		fs_heap_heapify(&s->sjf[k], s);
	}
	s->last_head = -1; /* the head may be another job now */
}

const gp_sim_discipline gp_sim_disc_fairshare = {
	.name = "fairshare",
	.setup = fs_setup,
	.teardown = fs_teardown,
	.on_arrival = fs_arrival,
	.on_leave = fs_leave,
	.pick_next = fs_head,
};
