/* Timeline rows and the automatic metrics tick. */
#include <math.h>
#include <string.h>

#include "sim_int.h"

void gp_sim_timeline_row(sim *s, double t)
{
	gp_sim_result *r = s->res;
	gp_sim_sample *row;
	double span = t - s->tick_t;

	GP_GROW(r->samples, r->samples_cap, r->nsamples + 1);
	row = &r->samples[r->nsamples++];
	memset(row, 0, sizeof(*row));
	row->t = t;
	if (span > 0 && s->cap_milli > 0)
		row->utilization = (s->integral - s->tick_integral) / ((double)s->cap_milli * span);
	else
		row->utilization = s->cap_milli > 0 ? (double)s->alloc_milli / (double)s->cap_milli : 0;
	row->allocated_milli = s->alloc_milli;
	row->queued_ls = (int32_t)s->qlen[0];
	row->queued_be = (int32_t)s->qlen[1];
	row->running = (int32_t)s->running;
	row->preempted = (int32_t)s->ix.nrequeued;
	s->tick_t = t;
	s->tick_integral = s->integral;
}

/* 1, 2 or 5 times a power of ten, at least x. */
double gp_sim_nice_step(double x)
{
	double p, f;

	if (!(x > 0) || !isfinite(x))
		return 1;
	p = pow(10, floor(log10(x)));
	f = x / p;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

/* With the automatic tick, a run that lasts far longer than its jobs' best
 * case (long queues) would end with many more rows than aimed at.  Merge
 * the rows into ticks of a longer step, a 1-2-5 multiple of the current
 * one, so that at most max_rows remain over the span so far: a merged row
 * keeps the time and the counts of its last row, and the time-weighted
 * mean utilization of its rows.  Only the record is coarser; the run
 * itself is not touched.  Returns the new tick (the old one when nothing
 * was merged). */
double gp_sim_timeline_coarsen(gp_sim_result *r, double tick, size_t max_rows)
{
	double first = r->first_submit, span, step, prev, ut, wt;
	size_t i, n = 0, g0;

	if (r->nsamples <= max_rows || !(tick > 0))
		return tick;
	span = r->samples[r->nsamples - 1].t - first;
	step = gp_sim_nice_step(span / (double)max_rows);
	while (step <= tick || fabs(step / tick - round(step / tick)) > 1e-6)
		step = gp_sim_nice_step(step * 1.5);
	prev = first;
	for (i = 0; i < r->nsamples;) {
		/* rows i.. up to the end of tick group g0 */
		g0 = (size_t)ceil((r->samples[i].t - first) / step - 1e-9);
		ut = wt = 0;
		for (; i < r->nsamples &&
		       (size_t)ceil((r->samples[i].t - first) / step - 1e-9) == g0; i++) {
			double w = r->samples[i].t - prev;

			ut += r->samples[i].utilization * w;
			wt += w;
			prev = r->samples[i].t;
			r->samples[n] = r->samples[i];
		}
		if (wt > 0)
			r->samples[n].utilization = ut / wt;
		n++;
	}
	r->nsamples = n;
	return step;
}
