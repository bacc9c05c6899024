/* --queue fifo-skip: first fit in arrival order (PAI's FIFO, Tiresias'
 * fjf) over fifo's queues. */
#include <stdlib.h>

#include "sim_int.h"

int gp_sim_skip_try(sim *s, int32_t j, int k)
{
	gp_sim_runinfo ri;

	if (!gp_sim_try_place(s, j) &&
	    !(s->cfg->preempt && j == s->qhead[k] && gp_sim_preempt_for(s, j, -1)) &&
	    !(gp_sim_quota_may_reclaim(s, j) && gp_sim_quota_reclaim(s, j)) &&
	    !(s->drs && s->q.reclaim && gp_sim_quota_fair_preempt(s, j)))
		return 0;
	if (gp_sim_job_runinfo(s, j, &ri) == 0)
		gp_sim_start_job(s, j, &ri);
	if (s->ix.on && s->pk.ndeferred) {
		gp_sim_flush_requeue(s);
		return 1;
	}
	return 0;
}

/* The GPU shares the waiting jobs of each class need: the distinct needs
 * of the trace in increasing order, how many jobs of each wait, and the
 * smallest one that some job waits for. */
struct gp_sim_skip {
	int64_t *needs;
	int32_t *need_ix;       /* per job, its index in needs */
	int32_t *count[NCLASS];
	size_t lo[NCLASS];      /* count[k][i] == 0 for every i < lo[k] */
	size_t nneeds;
};

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static int skip_setup(sim *s)
{
	struct gp_sim_skip *q = gp_xcalloc(1, sizeof(*q));
	size_t n = s->n ? s->n : 1, i, m = 0;
	int k;

	q->needs = gp_xmalloc(n * sizeof(*q->needs));
	q->need_ix = gp_xmalloc(n * sizeof(*q->need_ix));
	for (i = 0; i < s->n; i++)
		q->needs[i] = need_milli(&s->jl->jobs[i]);
	qsort(q->needs, s->n, sizeof(*q->needs), cmp_i64);
	for (i = 0; i < s->n; i++)
		if (!m || q->needs[m - 1] != q->needs[i])
			q->needs[m++] = q->needs[i];
	q->nneeds = m;
	for (i = 0; i < s->n; i++) {
		int64_t v = need_milli(&s->jl->jobs[i]);
		size_t a = 0, b = m; /* needs[a] <= v < needs[b] */

		while (b - a > 1) {
			size_t c = a + (b - a) / 2;

			if (q->needs[c] <= v)
				a = c;
			else
				b = c;
		}
		q->need_ix[i] = (int32_t)a;
	}
	for (k = 0; k < NCLASS; k++) {
		q->count[k] = gp_xcalloc(m ? m : 1, sizeof(*q->count[k]));
		q->lo[k] = m;
	}
	s->skip = q;
	return GP_OK;
}

static void skip_teardown(sim *s)
{
	int k;

	if (!s->skip)
		return;
	for (k = 0; k < NCLASS; k++)
		free(s->skip->count[k]);
	free(s->skip->needs);
	free(s->skip->need_ix);
	free(s->skip);
	s->skip = NULL;
}

static void wait_need(sim *s, int32_t j)
{
	struct gp_sim_skip *q = s->skip;
	int k = job_class(&s->jl->jobs[j]);
	size_t i = (size_t)q->need_ix[j];

	q->count[k][i]++;
	if (i < q->lo[k])
		q->lo[k] = i;
}

static void skip_arrival(sim *s, int32_t j)
{
	gp_sim_fifo_arrival(s, j);
	wait_need(s, j);
}

static void skip_requeue(sim *s, int32_t j)
{
	gp_sim_fifo_requeue(s, j);
	wait_need(s, j);
}

static void skip_leave(sim *s, int32_t j)
{
	struct gp_sim_skip *q = s->skip;
	int k = job_class(&s->jl->jobs[j]);

	gp_sim_fifo_leave(s, j);
	q->count[k][q->need_ix[j]]--;
	while (q->lo[k] < q->nneeds && !q->count[k][q->lo[k]])
		q->lo[k]++;
}

/* fifo-skip: every queued job in arrival order (LS before BE) starts
 * when the policy places it; one that does not fit is passed over.  Only
 * a class's head may preempt.  A job whose shape waited since the last
 * release is passed in O(1) (gp_sim_try_place), so a pass costs the
 * queue's length plus the placements tried.  Nothing freed and nothing
 * arrived: nothing can start.  Without tenants, preemption and
 * interruptions nothing is freed during a pass, so once less is free
 * than any job of the class waits for, every later try of the class
 * fails at once (gp_sim_try_place, nothing changed): its walk ends. */
static void skip_pass(sim *s)
{
	struct gp_sim_skip *q = s->skip;
	int32_t j, next;
	int k, cut = !s->cfg->tenants && !s->cfg->preempt && !s->ix.on;

	if (!s->freed && !s->narrived)
		return;
	s->freed = 0;
	s->narrived = 0;
	s->version++;
	for (k = 0; k < NCLASS && s->status == GP_OK; k++) {
		for (j = s->qhead[k]; j >= 0 && s->status == GP_OK; j = next) {
			if (cut && s->cap_milli - s->alloc_milli < q->needs[q->lo[k]])
				break;
			next = s->next[j];
			if (gp_sim_skip_try(s, j, k)) {
				k = -1; /* victims are back: start over */
				break;
			}
		}
	}
	s->freed = 0;
}

const gp_sim_discipline gp_sim_disc_fifo_skip = {
	.name = "fifo-skip",
	.setup = skip_setup,
	.teardown = skip_teardown,
	.on_arrival = skip_arrival,
	.on_requeue = skip_requeue,
	.on_leave = skip_leave,
	.pick_next = gp_sim_fifo_head,
	.pass = skip_pass,
};
