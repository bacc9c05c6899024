/* A best-first walk over the event heap for the backfill reservation,
 * and the running jobs by the end backfill expects of them (pushes and
 * pops: sim_int.h). */
#include <stdlib.h>

#include "sim_int.h"

static int ev_less(const ev *a, const ev *b)
{
	return gp_sim_evheap_before(a, a, b);
}

/* Next finish event in (time, seq) order from a best-first walk over the
 * heap array; -1 when none is left.  Ticks are skipped. */
long gp_sim_walk_next(sim *s, size_t *nwalk)
{
	while (*nwalk) {
		size_t i = s->walk[0], n = --(*nwalk), k, c, last = s->walk[n];
		size_t kids[2];

		/* pop min */
		for (k = 0;;) {
			c = 2 * k + 1;
			if (c >= n)
				break;
			if (c + 1 < n && ev_less(&s->heap.v[s->walk[c + 1]], &s->heap.v[s->walk[c]]))
				c++;
			if (!ev_less(&s->heap.v[s->walk[c]], &s->heap.v[last]))
				break;
			s->walk[k] = s->walk[c];
			k = c;
		}
		if (n)
			s->walk[k] = last;
		kids[0] = 2 * i + 1;
		kids[1] = 2 * i + 2;
		for (c = 0; c < 2; c++) {
			size_t x = kids[c], m;

			if (x >= s->heap.n)
				continue;
			m = (*nwalk)++;
			while (m > 0 && ev_less(&s->heap.v[x], &s->heap.v[s->walk[(m - 1) / 2]])) {
				s->walk[m] = s->walk[(m - 1) / 2];
				m = (m - 1) / 2;
			}
			s->walk[m] = x;
		}
		if (s->heap.v[i].job >= 0 && !(s->ix.on && gp_sim_ix_stale(s, &s->heap.v[i])))
			return (long)i;
	}
	return -1;
}

/* A job's run time as backfill plans it: its time limit when the trace
 * gives one (Slurm's estimate), else its duration. */
double gp_sim_planned_run(const sim *s, int32_t j, double duration)
{
	const gp_job *job = &s->jl->jobs[j];

	return s->bf.limits && job->hist && job->hist->time_limit > 0 ? job->hist->time_limit : duration;
}

static int by_end(const void *a, const void *b)
{
	const gp_sim_lim_end *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return (x->job > y->job) - (x->job < y->job);
}

/* The running jobs by the end backfill expects of them: start + time
 * limit (never before now), or their finish when they have no limit. */
size_t gp_sim_expected_ends(sim *s)
{
	size_t i, n = 0;

	GP_GROW(s->bf.lim_end, s->bf.lim_end_cap, s->heap.n + 1);
	for (i = 0; i < s->heap.n; i++) {
		const ev *e = &s->heap.v[i];
		const gp_sim_job *rec;
		double t;

		if (e->job < 0 || (s->ix.on && gp_sim_ix_stale(s, e)) || s->slot[e->job] < 0)
			continue;
		rec = &s->res->jobs[e->job];
		t = e->t;
		if (rec->interruptions == 0)
			t = rec->start + gp_sim_planned_run(s, e->job, e->t - rec->start);
		if (t < s->last_t)
			t = s->last_t;
		s->bf.lim_end[n].t = t;
		s->bf.lim_end[n++].job = e->job;
	}
	qsort(s->bf.lim_end, n, sizeof(*s->bf.lim_end), by_end);
	return n;
}
