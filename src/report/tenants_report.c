/* Reports per tenant (tenants_report.h). */
#include <stdlib.h>
#include <string.h>

#include "gpuplan/report/report.h"
#include "gpuplan/report/tenants_report.h"

double gp_report_tenant_over_fair(const gp_sim_result *r, size_t t)
{
	double span = r->last_finish - r->first_submit;

	return span > 0 && r->tenant_use ? r->tenant_use[t].over_fair_s / span : 0;
}

static void num(gp_sbuf *out, double x, int decimals)
{
	char b[64];

	gp_sbuf_addf(out, ",%s", gp_report_num(b, sizeof(b), x, decimals));
}

/* A distribution's mean and p90, empty fields without completed jobs. */
static void dist(gp_sbuf *out, const gp_sim_dist *d, size_t n)
{
	if (!n) {
		gp_sbuf_adds(out, ",,");
		return;
	}
	num(out, d->mean, 3);
	num(out, d->p90, 3);
}

void gp_report_tenants_csv(const gp_joblist *jobs, const gp_sim_result *r, gp_sbuf *out)
{
	size_t t;

	if (!r->tenant_use || !r->tenants)
		return;
	gp_sbuf_adds(out, "tenant,cohort,weight,jobs,completed,queue_delay_mean,queue_delay_p90,"
			  "jct_mean,jct_p90,gpu_hours,borrowed_gpu_hours,lent_gpu_hours,peak_gpus,"
			  "quota_waits,reclaims,reclaimed,over_fair_share\n");
	for (t = 0; t < r->ntenants; t++) {
		const gp_tenant *x = &r->tenants->t[t];
		const struct gp_sim_tenant_use *u = &r->tenant_use[t];
		gp_sim_summary s;

		gp_sim_summarize_tenant(jobs, r, (int)t, &s);
		gp_csv_field(out, x->name);
		gp_sbuf_adds(out, ",");
		if (x->cohort >= 0)
			gp_csv_field(out, r->tenants->cohorts[x->cohort]);
		num(out, x->weight, 6);
		gp_sbuf_addf(out, ",%zu,%zu", s.total, s.completed);
		dist(out, &s.queue_delay, s.completed);
		dist(out, &s.jct, s.completed);
		num(out, u->gpu_s / 3600, 6);
		num(out, u->borrowed_gpu_s / 3600, 6);
		num(out, u->lent_gpu_s / 3600, 6);
		num(out, (double)u->peak_milli / 1000, 3);
		gp_sbuf_addf(out, ",%zu,%zu,%zu", u->quota_waits, u->reclaims, u->reclaimed);
		num(out, gp_report_tenant_over_fair(r, t), 6);
		gp_sbuf_adds(out, "\n");
	}
}

typedef struct tcount {
	size_t n, t;
} tcount;

/* Tenants by completed jobs, most first (ties in the file's order). */
static int tcount_cmp(const void *a, const void *b)
{
	const tcount *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return x->t < y->t ? -1 : x->t > y->t;
}

void gp_report_tenants_svg(const struct gp_report_ident *id, const gp_joblist *jobs,
			   const gp_sim_result *r, gp_sbuf *out)
{
	size_t nt = r->ntenants, i, k, ndraw;
	tcount *tc;
	double *x[GP_TENANTS_CHART_MAX], *y[GP_TENANTS_CHART_MAX];
	gp_svg_series se[GP_TENANTS_CHART_MAX];
	gp_svg_chart c;
	char *sub;
	const char *trace = id->trace ? id->trace : "trace", *base = strrchr(trace, '/');

	if (!r->tenant_use || !r->tenants || !nt)
		return;
	tc = gp_xcalloc(nt, sizeof(*tc));
	for (k = 0; k < nt; k++)
		tc[k].t = k;
	for (i = 0; i < r->njobs; i++)
		if (r->jobs[i].state == GP_SIM_DONE)
			tc[r->job_tenant[i]].n++;
	qsort(tc, nt, sizeof(*tc), tcount_cmp);
	ndraw = nt < GP_TENANTS_CHART_MAX ? nt : GP_TENANTS_CHART_MAX;
	while (ndraw && !tc[ndraw - 1].n)
		ndraw--;
	for (k = 0; k < ndraw; k++) {
		x[k] = gp_xmalloc(tc[k].n * sizeof(*x[k]));
		y[k] = gp_xmalloc(tc[k].n * sizeof(*y[k]));
	}
	/* each drawn tenant's delays, at least 1 s (a log axis) */
	for (k = 0; k < ndraw; k++) {
		size_t t = tc[k].t, n = 0;

		for (i = 0; i < r->njobs; i++) {
			if (r->jobs[i].state != GP_SIM_DONE || (size_t)r->job_tenant[i] != t)
				continue;
			x[k][n++] = gp_sim_job_wait(&jobs->jobs[i], &r->jobs[i]);
		}
		gp_svg_cdf_points(x[k], y[k], n, 1);
		se[k] = (gp_svg_series){ r->tenants->t[t].name, x[k], y[k], n, 1 };
	}
	sub = gp_xasprintf("%s, %s/%s; %zu of %zu tenants (most jobs first); under 1 s drawn at 1 s",
			   base && base[1] ? base + 1 : trace, id->policy, id->queue, ndraw, nt);
	memset(&c, 0, sizeof(c));
	c.title = "Queue delay CDF per tenant";
	c.subtitle = sub;
	c.x_title = "queue delay: before the first start and after every stop (log scale)";
	c.y_title = "share of the tenant's jobs started within x";
	gp_svg_cdf_axes(&c, se, (int)ndraw, 1);
	gp_svg_line_chart(&c, out);
	for (k = 0; k < ndraw; k++) {
		free(x[k]);
		free(y[k]);
	}
	free(sub);
	free(tc);
}
