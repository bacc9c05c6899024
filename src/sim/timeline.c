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
	row->preempted = (int32_t)s->nrequeued;
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
