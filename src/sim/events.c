/* A best-first walk over the event heap for the backfill reservation
 * (pushes and pops: sim_int.h). */

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
