/* The configuration and result objects of the environment simulation
 * (envs.h), mode names, and the distributions of a result. */
#include <stdlib.h>
#include <string.h>

#include "envsim_int.h"
#include "gpuplan/envs/envs.h"
#include "gpuplan/util/util.h"

/* Mean, p50, p90, p99 and max of v[0..n) (sorted in place). */
void gp_envsim_dist_of(double *v, size_t n, gp_envsim_dist *d)
{
	double sum = 0;
	size_t i;

	memset(d, 0, sizeof(*d));
	if (!n)
		return;
	qsort(v, n, sizeof(*v), gp_cmp_double);
	for (i = 0; i < n; i++)
		sum += v[i];
	d->mean = sum / (double)n;
	d->p50 = gp_percentile_sorted(v, n, 50);
	d->p90 = gp_percentile_sorted(v, n, 90);
	d->p99 = gp_percentile_sorted(v, n, 99);
	d->max = v[n - 1];
}

void gp_envsim_config_init(gp_envsim_config *c)
{
	memset(c, 0, sizeof(*c));
	c->mode = GP_ENVSIM_BIND;
	c->threshold = GP_ENV_DEFAULT_THRESHOLD;
	c->hb_period_s = 1;
	c->hb_timeout_s = 5;
	c->seed = 1;
}

void gp_envsim_result_init(gp_envsim_result *r)
{
	memset(r, 0, sizeof(*r));
}

void gp_envsim_result_release(gp_envsim_result *r)
{
	if (!r)
		return;
	free(r->bucket_max);
	free(r->bucket_mean);
	memset(r, 0, sizeof(*r));
}

int gp_envsim_mode_parse(const char *s, double *idle_min)
{
	if (!strcmp(s, "static"))
		return GP_ENVSIM_STATIC;
	if (!strcmp(s, "bind-at-start"))
		return GP_ENVSIM_BIND;
	if (!strncmp(s, "idle-timeout:", 13)) {
		double m;

		if (gp_parse_double(s + 13, 0, 1e7, &m))
			return -1;
		if (idle_min)
			*idle_min = m;
		return GP_ENVSIM_IDLE;
	}
	return -1;
}
