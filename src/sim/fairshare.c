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
 * arrival; the head blocks the queue as under priority.
 *
 * The queue without re-ranking: jobs of one class, tenant, size and QOS
 * (a group) differ only in age, so at a recomputation, where every queued
 * job's age is taken at the same time, their order is arrival order
 * whatever the factors (age is monotone in the submit time, clamping and
 * every rounded operation of the sum are monotone, and arrival breaks
 * ties).  So each group keeps the jobs it held at the last recomputation
 * in a heap by arrival (their priorities are computed again only for its
 * head, from the same factors and time, hence the same bits) and those
 * that came since in a heap by stored priority, as the whole queue was;
 * only the groups' heads compete, in a heap per class.  A recomputation
 * moves the latter into the former and re-ranks the groups, not the
 * jobs. */
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

static inline int rank_cmp(const sim *s, const gp_sim_qitem *a, const gp_sim_qitem *b)
{
	return s->rank[a->job] < s->rank[b->job] ? -1 : s->rank[a->job] > s->rank[b->job];
}
GP_HEAP_FUNCS(rank_heap, gp_sim_jheap, gp_sim_qitem, const sim *, rank_cmp)

/* The queued jobs of one class, tenant, size and QOS. */
typedef struct fs_group {
	gp_sim_jheap settled;   /* there at the last recomputation, by arrival */
	gp_sim_jheap fresh;     /* came since, by stored priority */
	double prio;            /* its head's priority */
	int32_t head;           /* its first job, -1 when empty */
	int32_t pos;            /* its place in its class's heap, -1 when out */
} fs_group;

struct gp_sim_fsq {
	fs_group *g;
	size_t ng;
	int32_t *group;         /* job -> its group */
	int32_t *heap[NCLASS];  /* the non-empty groups by their heads */
	size_t hn[NCLASS];
};

static int tenant_of(const sim *s, int32_t j)
{
	return s->res->job_tenant ? s->res->job_tenant[j] : 0;
}

/* What a group shares: class, tenant, size and QOS. */
typedef struct fs_key {
	int64_t need;
	int32_t tenant, qos, klass;
} fs_key;

static fs_key key_of(const sim *s, int32_t j)
{
	const gp_job *job = &s->jl->jobs[j];
	fs_key k = { need_milli(job), tenant_of(s, j), 0, job_class(job) };

	if (s->fs_max_prio > 0 && job->priority > 0)
		k.qos = job->priority;
	return k;
}

static uint64_t key_hash(const void *s, size_t j)
{
	fs_key k = key_of(s, (int32_t)j);
	uint64_t h = (uint64_t)k.need * 0x9e3779b97f4a7c15u;

	h ^= ((uint64_t)(uint32_t)k.tenant << 32 | (uint32_t)k.qos) * 0xbf58476d1ce4e5b9u;
	h ^= (uint64_t)k.klass;
	h ^= h >> 31;
	return h * 0x94d049bb133111ebu;
}

static int same_key(const void *s, size_t a, size_t b)
{
	fs_key x = key_of(s, (int32_t)a), y = key_of(s, (int32_t)b);

	return x.need == y.need && x.tenant == y.tenant && x.qos == y.qos && x.klass == y.klass;
}

/* Each job's group. */
static void assign_groups(sim *s, struct gp_sim_fsq *q)
{
	size_t i;
	int k;

	q->group = gp_xmalloc((s->n ? s->n : 1) * sizeof(*q->group));
	q->ng = gp_number_classes(s->n, key_hash, same_key, s, q->group);
	q->g = gp_xcalloc(q->ng ? q->ng : 1, sizeof(*q->g));
	for (i = 0; i < q->ng; i++)
		q->g[i].head = q->g[i].pos = -1;
	for (k = 0; k < NCLASS; k++)
		q->heap[k] = gp_xmalloc((q->ng ? q->ng : 1) * sizeof(*q->heap[k]));
}

static int fs_setup(sim *s)
{
	size_t nt = s->cfg->tenants && s->cfg->tenants->n ? s->cfg->tenants->n : 1, i;
	double wsum = 0, first = s->n ? s->jl->jobs[s->order[0]].submit : 0;

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
	s->fsq = gp_xcalloc(1, sizeof(*s->fsq)); /* groups at the first arrival */
	return GP_OK;
}

static void fs_teardown(sim *s)
{
	struct gp_sim_fsq *q = s->fsq;
	size_t i;
	int k;

	if (q) {
		for (i = 0; i < q->ng; i++) {
			free(q->g[i].settled.v);
			free(q->g[i].fresh.v);
		}
		for (k = 0; k < NCLASS; k++)
			free(q->heap[k]);
		free(q->g);
		free(q->group);
		free(q);
		s->fsq = NULL;
	}
	free(s->fs_prio);
	free(s->fs_usage);
	free(s->fs_acc);
	free(s->fs_tt);
	free(s->fs_run);
	free(s->fs_factor);
	free(s->fs_share);
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

/* (pa, a) before (pb, b): the queue's order. */
static int before(const sim *s, double pa, int32_t a, double pb, int32_t b)
{
	return pa != pb ? pa > pb : s->rank[a] < s->rank[b];
}

/* g's head and its priority: a settled job's is computed again, from
 * the factors and the time of the last recomputation. */
static void group_head(const sim *s, fs_group *g)
{
	int32_t a = g->settled.n ? g->settled.v[0].job : -1;
	int32_t b = g->fresh.n ? g->fresh.v[0].job : -1;
	double pa = a >= 0 ? priority(s, a, s->fs_grid) : 0;

	if (a >= 0 && (b < 0 || before(s, pa, a, s->fs_prio[b], b))) {
		g->head = a;
		g->prio = pa;
	} else {
		g->head = b;
		g->prio = b >= 0 ? s->fs_prio[b] : 0;
	}
}

/* The heap of a class's groups, by their heads, with each group's place. */
static int g_before(const sim *s, const fs_group *a, const fs_group *b)
{
	return before(s, a->prio, a->head, b->prio, b->head);
}

static void gh_set(struct gp_sim_fsq *q, int k, size_t i, int32_t g)
{
	q->heap[k][i] = g;
	q->g[g].pos = (int32_t)i;
}

static void gh_up(const sim *s, struct gp_sim_fsq *q, int k, size_t i)
{
	int32_t g = q->heap[k][i];

	while (i > 0 && g_before(s, &q->g[g], &q->g[q->heap[k][(i - 1) / 2]])) {
		gh_set(q, k, i, q->heap[k][(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	gh_set(q, k, i, g);
}

static void gh_down(const sim *s, struct gp_sim_fsq *q, int k, size_t i)
{
	int32_t g = q->heap[k][i];
	size_t n = q->hn[k];

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && g_before(s, &q->g[q->heap[k][c + 1]], &q->g[q->heap[k][c]]))
			c++;
		if (!g_before(s, &q->g[q->heap[k][c]], &q->g[g]))
			break;
		gh_set(q, k, i, q->heap[k][c]);
		i = c;
	}
	gh_set(q, k, i, g);
}

/* j joins its group with its priority now. */
static void fs_arrival(sim *s, int32_t j)
{
	struct gp_sim_fsq *q = s->fsq;
	int k = job_class(&s->jl->jobs[j]);
	int32_t gi;
	fs_group *g;

	if (!q->group)
		assign_groups(s, q); /* once the jobs' tenants are known */
	gi = q->group[j];
	g = &q->g[gi];

	s->fs_prio[j] = priority(s, j, s->fs_grid > s->last_t ? s->fs_grid : s->last_t);
	fs_heap_push(&g->fresh, s, (gp_sim_qitem){ j, 0 });
	if (g->head < 0) {
		g->head = j;
		g->prio = s->fs_prio[j];
		gh_set(q, k, q->hn[k]++, gi);
		gh_up(s, q, k, (size_t)g->pos);
	} else if (before(s, s->fs_prio[j], j, g->prio, g->head)) {
		g->head = j;
		g->prio = s->fs_prio[j];
		gh_up(s, q, k, (size_t)g->pos);
	}
}

/* Only the head ever leaves: its group's head. */
static void fs_leave(sim *s, int32_t j)
{
	struct gp_sim_fsq *q = s->fsq;
	int k = job_class(&s->jl->jobs[j]);
	fs_group *g = &q->g[q->group[j]];
	size_t at = (size_t)g->pos;

	if (g->settled.n && g->settled.v[0].job == j)
		rank_heap_pop(&g->settled, s);
	else
		fs_heap_pop(&g->fresh, s);
	group_head(s, g);
	if (g->head < 0) {
		g->pos = -1;
		if (at < --q->hn[k]) {
			gh_set(q, k, at, q->heap[k][q->hn[k]]);
			gh_down(s, q, k, at);
			gh_up(s, q, k, (size_t)q->g[q->heap[k][at]].pos);
		}
	} else {
		gh_down(s, q, k, at);
	}
}

static int32_t fs_head(const sim *s, int k)
{
	return s->fsq->hn[k] ? s->fsq->g[s->fsq->heap[k][0]].head : -1;
}

/* Recompute at the last grid point <= t: decay, add each interval's
 * usage, new fair-share factors; every group's new jobs join its settled
 * ones and the groups are ranked again by their heads. */
void gp_sim_fs_recompute(sim *s, double t)
{
	double I = s->cfg->fs_interval, hl = s->cfg->fs_halflife, d, g, total = 0, m;
	struct gp_sim_fsq *q = s->fsq;
	size_t i, x;
	int k;

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
		for (i = 0; i < q->hn[k]; i++) {
			fs_group *gr = &q->g[q->heap[k][i]];

			for (x = 0; x < gr->fresh.n; x++)
				rank_heap_push(&gr->settled, s, gr->fresh.v[x]);
			gr->fresh.n = 0;
			group_head(s, gr);
		}
		for (i = q->hn[k] / 2; i-- > 0;)
			gh_down(s, q, k, i);
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
