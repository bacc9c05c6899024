/* The record against the replay in reports (hist_report.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/report/hist_report.h"
#include "gpuplan/report/report.h"
#include "gpuplan/sim/hist_check.h"

static void delay_row(gp_table *t, const char *name, const gp_hist_delays *d)
{
	size_t r = gp_table_row(t);

	gp_table_set(t, r, 0, "%s", name);
	gp_table_set_dist(t, r, 1, &d->dist);
	gp_table_set(t, r, 6, "%.1f %%", 100 * d->no_wait);
}

static void groups_text(const gp_joblist *jobs, const gp_sim_result *r, int by, gp_sbuf *out)
{
	size_t n, i, row;
	const char **g = gp_hist_check_groups(jobs, by, &n);
	gp_table t;

	if (!n) {
		free(g);
		return;
	}
	gp_table_init(&t, 8);
	row = gp_table_row(&t);
	gp_table_set(&t, row, 0, by == 'p' ? "by partition" : "by account");
	gp_table_set(&t, row, 1, "jobs");
	gp_table_set(&t, row, 2, "mean rec");
	gp_table_set(&t, row, 3, "mean sim");
	gp_table_set(&t, row, 4, "p90 rec");
	gp_table_set(&t, row, 5, "p90 sim");
	gp_table_set(&t, row, 6, "KS");
	gp_table_set(&t, row, 7, "start error p90");
	for (i = 0; i < n; i++) {
		gp_hist_check c;
		char b[5][32];

		gp_hist_check_run(jobs, r, by, g[i], &c);
		if (!c.jobs)
			continue;
		row = gp_table_row(&t);
		gp_table_set(&t, row, 0, "%s", g[i]);
		gp_table_set(&t, row, 1, "%zu", c.jobs);
		gp_table_set(&t, row, 2, "%s", gp_report_duration(b[0], 32, c.recorded.dist.mean));
		gp_table_set(&t, row, 3, "%s", gp_report_duration(b[1], 32, c.simulated.dist.mean));
		gp_table_set(&t, row, 4, "%s", gp_report_duration(b[2], 32, c.recorded.dist.p90));
		gp_table_set(&t, row, 5, "%s", gp_report_duration(b[3], 32, c.simulated.dist.p90));
		gp_table_set(&t, row, 6, "%.3f", c.ks);
		gp_table_set(&t, row, 7, "%s", gp_report_duration(b[4], 32, c.err_p90));
	}
	gp_sbuf_adds(out, "\n");
	gp_table_render(&t, "", out);
	gp_table_release(&t);
	free(g);
}

void gp_report_hist_text(const gp_joblist *jobs, const gp_sim_result *r, gp_sbuf *out)
{
	gp_hist_check c;
	gp_table t;
	size_t row;
	char b[3][32];

	if (!gp_hist_check_has(jobs))
		return;
	gp_hist_check_run(jobs, r, 0, NULL, &c);
	gp_sbuf_addf(out, "\nrecorded vs simulated: %zu job(s) with a recorded start", c.jobs);
	if (c.unstarted)
		gp_sbuf_addf(out, ", %zu more never started in the replay", c.unstarted);
	gp_sbuf_adds(out, "\n");
	if (!c.jobs)
		return;
	gp_table_init(&t, 7);
	row = gp_table_row(&t);
	gp_table_set(&t, row, 0, "queue delay");
	gp_table_set(&t, row, 1, "mean");
	gp_table_set(&t, row, 2, "p50");
	gp_table_set(&t, row, 3, "p90");
	gp_table_set(&t, row, 4, "p99");
	gp_table_set(&t, row, 5, "max");
	gp_table_set(&t, row, 6, "no wait");
	delay_row(&t, "recorded", &c.recorded);
	delay_row(&t, "simulated", &c.simulated);
	gp_table_render(&t, "", out);
	gp_table_release(&t);
	gp_sbuf_addf(out, "KS distance %.3f; start error |simulated - recorded|: p50 %s, p90 %s, "
		     "max %s\n", c.ks,
		     gp_report_duration(b[0], 32, c.err_p50), gp_report_duration(b[1], 32, c.err_p90),
		     gp_report_duration(b[2], 32, c.err_max));
	/* a share of the jobs after the first, each against the one the
	 * record started before it: say so, 80 % of 6 jobs is no count */
	if (c.order_n)
		gp_sbuf_addf(out, "start order: %zu of the %zu job(s) after the first (%.1f %%) "
			     "started no earlier than the job the record started before them\n",
			     c.order_kept_n, c.order_n, 100 * c.order_kept);
	groups_text(jobs, r, 'p', out);
	groups_text(jobs, r, 'a', out);
}

static json_t *real(double x, int decimals)
{
	return json_real(gp_report_round(x, decimals));
}

static json_t *delays_json(const gp_hist_delays *d)
{
	json_t *o = json_object();

	json_object_set_new(o, "mean", real(d->dist.mean, 3));
	json_object_set_new(o, "p50", real(d->dist.p50, 3));
	json_object_set_new(o, "p90", real(d->dist.p90, 3));
	json_object_set_new(o, "p99", real(d->dist.p99, 3));
	json_object_set_new(o, "max", real(d->dist.max, 3));
	json_object_set_new(o, "no_wait", real(d->no_wait, 6));
	return o;
}

static json_t *check_json(const gp_hist_check *c)
{
	json_t *o = json_object(), *e = json_object();

	json_object_set_new(o, "jobs", json_integer((json_int_t)c->jobs));
	json_object_set_new(o, "never_started", json_integer((json_int_t)c->unstarted));
	if (!c->jobs)
		return o;
	json_object_set_new(o, "recorded", delays_json(&c->recorded));
	json_object_set_new(o, "simulated", delays_json(&c->simulated));
	json_object_set_new(o, "ks", real(c->ks, 6));
	json_object_set_new(e, "p50", real(c->err_p50, 3));
	json_object_set_new(e, "p90", real(c->err_p90, 3));
	json_object_set_new(e, "max", real(c->err_max, 3));
	json_object_set_new(o, "start_error", e);
	json_object_set_new(o, "order_kept", real(c->order_kept, 6));
	return o;
}

static json_t *groups_json(const gp_joblist *jobs, const gp_sim_result *r, int by)
{
	size_t n, i;
	const char **g = gp_hist_check_groups(jobs, by, &n);
	json_t *o = json_object();

	for (i = 0; i < n; i++) {
		gp_hist_check c;

		gp_hist_check_run(jobs, r, by, g[i], &c);
		json_object_set_new(o, g[i], check_json(&c));
	}
	free(g);
	return o;
}

json_t *gp_report_hist_json(const gp_joblist *jobs, const gp_sim_result *r)
{
	gp_hist_check c;
	json_t *o;

	if (!gp_hist_check_has(jobs))
		return NULL;
	gp_hist_check_run(jobs, r, 0, NULL, &c);
	o = check_json(&c);
	json_object_set_new(o, "partitions", groups_json(jobs, r, 'p'));
	json_object_set_new(o, "accounts", groups_json(jobs, r, 'a'));
	return o;
}

void gp_report_hist_svg(const struct gp_report_ident *id, const gp_joblist *jobs,
			const gp_sim_result *r, gp_sbuf *out)
{
	size_t i, n = 0, cap = jobs->n ? jobs->n : 1;
	double *x[2], *y[2];
	gp_svg_series se[2];
	gp_svg_chart c;
	gp_hist_check hc;
	char *sub;
	int k;

	for (k = 0; k < 2; k++) {
		x[k] = gp_xmalloc(cap * sizeof(*x[k]));
		y[k] = gp_xmalloc(cap * sizeof(*y[k]));
	}
	for (i = 0; i < jobs->n && i < r->njobs; i++) {
		const gp_job *j = &jobs->jobs[i];

		if (!j->hist || j->hist->recorded_start < 0 || r->jobs[i].start < 0)
			continue;
		x[0][n] = j->hist->recorded_start - j->submit;
		x[1][n] = r->jobs[i].start - j->submit;
		n++;
	}
	for (k = 0; k < 2; k++)
		gp_svg_cdf_points(x[k], y[k], n, 1);
	se[0] = (gp_svg_series){ "recorded", x[0], y[0], n, 1 };
	se[1] = (gp_svg_series){ "simulated", x[1], y[1], n, 1 };
	gp_hist_check_run(jobs, r, 0, NULL, &hc);
	sub = gp_xasprintf("%s, %zu jobs; KS distance %.3f; delays under 1 s drawn at 1 s",
			   id && id->trace ? id->trace : "trace", n, hc.ks);
	memset(&c, 0, sizeof(c));
	c.title = "Queue delay: recorded vs simulated";
	c.subtitle = sub;
	c.x_title = "queue delay, submit to start (log scale)";
	c.y_title = "share of jobs started within x";
	gp_svg_cdf_axes(&c, se, 2, 1); /* 1 s, 1 min, 1 h as simulate's own */
	gp_svg_line_chart(&c, out);
	free(sub);
	for (k = 0; k < 2; k++) {
		free(x[k]);
		free(y[k]);
	}
}
