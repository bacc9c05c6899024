/* Recorded against simulated queue delay (hist_check.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/sim/hist_check.h"
#include "gpuplan/util/util.h"

int gp_hist_check_has(const gp_joblist *jobs)
{
	size_t i;

	for (i = 0; i < jobs->n; i++)
		if (jobs->jobs[i].hist && jobs->jobs[i].hist->recorded_start >= 0)
			return 1;
	return 0;
}

static const char *group_of(const gp_job *j, int by)
{
	return by == 'p' ? j->hist->partition : j->hist->account;
}

static int in_group(const gp_job *j, int by, const char *name)
{
	const char *g;

	if (!j->hist || j->hist->recorded_start < 0)
		return 0;
	if (!by)
		return 1;
	g = group_of(j, by);
	return g && name && !strcmp(g, name);
}

static void delays(double *v, size_t n, gp_hist_delays *d)
{
	size_t i, none = 0;

	gp_dist_of(v, n, &d->dist);     /* sorts v */
	d->no_wait = 0;
	if (!n)
		return;
	for (i = 0; i < n; i++)
		none += v[i] < GP_HIST_NO_WAIT_S;
	d->no_wait = (double)none / (double)n;
}

/* Two-sample Kolmogorov-Smirnov distance of sorted a and b (n each):
 * the largest gap between their empirical distribution functions. */
static double ks(const double *a, const double *b, size_t n)
{
	size_t i = 0, k = 0;
	double d = 0;

	while (i < n && k < n) {
		double x = a[i] < b[k] ? a[i] : b[k], gap;

		while (i < n && a[i] <= x)
			i++;
		while (k < n && b[k] <= x)
			k++;
		gap = fabs((double)i - (double)k) / (double)n;
		if (gap > d)
			d = gap;
	}
	return d;
}

typedef struct order_item {
	double rec, sim;
	size_t index;
} order_item;

static int by_rec(const void *x, const void *y)
{
	const order_item *a = x, *b = y;

	if (a->rec != b->rec)
		return a->rec < b->rec ? -1 : 1;
	if (a->sim != b->sim)
		return a->sim < b->sim ? -1 : 1;
	return (a->index > b->index) - (a->index < b->index);
}

void gp_hist_check_run(const gp_joblist *jobs, const gp_sim_result *r, int by, const char *name,
		       gp_hist_check *out)
{
	size_t i, n = 0, cap = jobs->n ? jobs->n : 1, kept = 0;
	double *rec = gp_xmalloc(cap * sizeof(*rec)), *sim = gp_xmalloc(cap * sizeof(*sim));
	double *err = gp_xmalloc(cap * sizeof(*err));
	order_item *o = gp_xmalloc(cap * sizeof(*o));

	memset(out, 0, sizeof(*out));
	for (i = 0; i < jobs->n && i < r->njobs; i++) {
		const gp_job *j = &jobs->jobs[i];
		double s = r->jobs[i].start, rs;

		if (!in_group(j, by, name))
			continue;
		if (s < 0) {
			out->unstarted++;
			continue;
		}
		rs = j->hist->recorded_start;
		rec[n] = rs - j->submit > 0 ? rs - j->submit : 0;
		sim[n] = s - j->submit > 0 ? s - j->submit : 0;
		err[n] = fabs(s - rs);
		o[n] = (order_item){ rs, s, i };
		n++;
	}
	out->jobs = n;
	if (n) {
		/* the order: walking the record's start order, each job the run
		 * started no earlier than the one before it */
		qsort(o, n, sizeof(*o), by_rec);
		for (i = 1; i < n; i++)
			kept += o[i].sim >= o[i - 1].sim - 1e-9;
		out->order_kept = n > 1 ? (double)kept / (double)(n - 1) : 1;
		out->order_kept_n = kept;
		out->order_n = n - 1;
		delays(rec, n, &out->recorded);
		delays(sim, n, &out->simulated);
		out->ks = ks(rec, sim, n);
		gp_sort_doubles(err, n);
		out->err_p50 = gp_percentile_sorted(err, n, 50);
		out->err_p90 = gp_percentile_sorted(err, n, 90);
		out->err_max = err[n - 1];
	}
	free(rec);
	free(sim);
	free(err);
	free(o);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

const char **gp_hist_check_groups(const gp_joblist *jobs, int by, size_t *n)
{
	const char **g = gp_xmalloc((jobs->n ? jobs->n : 1) * sizeof(*g));
	size_t i, k = 0, w = 0;

	for (i = 0; i < jobs->n; i++)
		if (in_group(&jobs->jobs[i], 0, NULL) && group_of(&jobs->jobs[i], by))
			g[k++] = group_of(&jobs->jobs[i], by);
	qsort(g, k, sizeof(*g), cmp_str);
	for (i = 0; i < k; i++)
		if (!w || strcmp(g[w - 1], g[i]))
			g[w++] = g[i];
	*n = w;
	return g;
}
