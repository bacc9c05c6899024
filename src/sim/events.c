/* The event heap, ordered by (time, sequence), and a best-first walk
 * over it for the backfill reservation. */

#include "sim_int.h"

static int ev_less(const ev *a, const ev *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

void gp_sim_heap_push(sim *s, double t, int32_t job)
{
	size_t i;
	ev e;

	GP_GROW(s->heap, s->heap_cap, s->nheap + 1);
	e.t = t;
	e.seq = s->seq++;
	e.job = job;
	i = s->nheap++;
	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (!ev_less(&e, &s->heap[parent]))
			break;
		s->heap[i] = s->heap[parent];
		i = parent;
	}
	s->heap[i] = e;
}

ev gp_sim_heap_pop(sim *s)
{
	ev top = s->heap[0], last = s->heap[--s->nheap];
	size_t i = 0, n = s->nheap;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && ev_less(&s->heap[c + 1], &s->heap[c]))
			c++;
		if (!ev_less(&s->heap[c], &last))
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	if (n)
		s->heap[i] = last;
	return top;
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
			if (c + 1 < n && ev_less(&s->heap[s->walk[c + 1]], &s->heap[s->walk[c]]))
				c++;
			if (!ev_less(&s->heap[s->walk[c]], &s->heap[last]))
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

			if (x >= s->nheap)
				continue;
			m = (*nwalk)++;
			while (m > 0 && ev_less(&s->heap[x], &s->heap[s->walk[(m - 1) / 2]])) {
				s->walk[m] = s->walk[(m - 1) / 2];
				m = (m - 1) / 2;
			}
			s->walk[m] = x;
		}
		if (s->heap[i].job >= 0 && !(s->ix && gp_sim_ix_stale(s, &s->heap[i])))
			return (long)i;
	}
	return -1;
}
