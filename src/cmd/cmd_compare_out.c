/* gpuplan compare: the table, the JSON and the --csv/--svg/--html files from the
 * runs' results (compare_int.h). */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_int.h"
#include "gpuplan/report/html.h"
#include "gpuplan/report/report.h"

const int cmp_metric[M_COUNT] = {
	GP_M_COMPLETED, GP_M_NEVER_PLACED, GP_M_FAILED, GP_M_QD_MEAN, GP_M_QD_P99, GP_M_JCT_MEAN,
	GP_M_JCT_P50, GP_M_JCT_P99, GP_M_MAKESPAN, GP_M_UTIL, GP_M_UTIL_QUEUED, GP_M_PREEMPTIONS,
};

static const char *cell(char *buf, size_t size, int metric, gp_stats s, int nseeds)
{
	char a[32], b[32];

	switch (metric) {
	case M_COMPLETED: case M_NEVER: case M_FAILED: case M_PREEMPT:
		gp_report_num(a, sizeof(a), s.mean, 1);
		gp_report_num(b, sizeof(b), s.sd, 1);
		break;
	case M_UTIL:
	case M_UTIL_QUEUED:
		snprintf(a, sizeof(a), "%.1f %%", 100 * s.mean);
		snprintf(b, sizeof(b), "%.1f", 100 * s.sd);
		break;
	default:
		gp_report_duration(a, sizeof(a), s.mean);
		gp_report_duration(b, sizeof(b), s.sd);
	}
	if (nseeds > 1)
		snprintf(buf, size, "%s +-%s", a, b);
	else
		snprintf(buf, size, "%s", a);
	return buf;
}

void cmp_keep_first(first_run *f, const gp_joblist *jobs, const gp_sim_result *r)
{
	size_t i, n = 0;

	f->cdf_x = gp_xmalloc((r->njobs + 1) * sizeof(double));
	f->cdf_y = gp_xmalloc((r->njobs + 1) * sizeof(double));
	for (i = 0; i < r->njobs; i++)
		if (r->jobs[i].state == GP_SIM_DONE)
			f->cdf_x[n++] = (r->jobs[i].finish - jobs->jobs[i].submit) / 3600.0;
	gp_sort_doubles(f->cdf_x, n);
	/* Queue delays under a second are drawn at 1 s (log axis). */
	f->qd_x = gp_xmalloc((r->njobs + 1) * sizeof(double));
	for (i = n = 0; i < r->njobs; i++)
		if (r->jobs[i].state == GP_SIM_DONE)
			f->qd_x[n++] = fmax(gp_sim_job_wait(&jobs->jobs[i], &r->jobs[i]), 1) / 3600.0;
	gp_sort_doubles(f->qd_x, n);
	for (i = 0; i < n; i++)
		f->cdf_y[i] = (double)(i + 1) / (double)n;
	f->ncdf = n;
	f->t = gp_xmalloc((r->nsamples + 1) * sizeof(double));
	f->queued = gp_xmalloc((r->nsamples + 1) * sizeof(double));
	f->util = gp_xmalloc((r->nsamples + 1) * sizeof(double));
	for (i = 0; i < r->nsamples; i++) {
		f->t[i] = r->samples[i].t / 3600.0;
		f->queued[i] = (double)(r->samples[i].queued_ls + r->samples[i].queued_be);
		f->util[i] = r->samples[i].utilization;
	}
	f->nt = r->nsamples;
}

void cmp_first_release(first_run *f)
{
	free(f->cdf_x);
	free(f->cdf_y);
	free(f->qd_x);
	free(f->t);
	free(f->queued);
	free(f->util);
}

static int ensure_dir(const char *dir)
{
	return gp_cli_make_dirs(dir);
}

/* One chart: into DIR/FILE when dir is set, into the page when h is. */
static void chart(gp_cli_outset *outs, const char *dir, gp_html *h, const char *file,
		  const char *title, const char *sub, const char *xt, const char *yt, int percent,
		  int xlog, gp_svg_series *se, int n)
{
	gp_svg_chart c;
	gp_sbuf sb;

	memset(&c, 0, sizeof(c));
	c.title = title;
	c.subtitle = sub;
	c.x_title = xt;
	c.y_title = yt;
	c.y_percent = percent;
	c.x_log = xlog;
	c.x_log_time = xlog ? 3600 : 0; /* the log axes are times in hours */
	c.cdf = xlog;                   /* of the distributions */
	c.y_integer = !percent;         /* and the others count jobs */
	c.series = se;
	c.nseries = n;
	c.legend = GP_LEGEND_BOTTOM_RIGHT;
	gp_sbuf_init(&sb);
	gp_svg_line_chart(&c, &sb);
	if (h)
		gp_html_svg(h, sb.buf, sb.len);
	if (dir) {
		char *path = gp_xasprintf("%s/%s", dir, file);
		FILE *fp = gp_cli_outset_add(outs, path);

		free(path);
		if (fp)
			fwrite(sb.buf, 1, sb.len, fp);
	}
	gp_sbuf_release(&sb);
}

/* A configuration's name: policy/queue, with the cluster's label first
 * when there are several. */
static char *config_name(const cmp *c, int i)
{
	int q = i % c->nq, p = (i / c->nq) % c->np, ci = i / (c->nq * c->np);

	return c->ncl > 1 ? gp_xasprintf("%s/%s/%s", c->label[ci], c->pol[p], c->que[q]) :
			    gp_xasprintf("%s/%s", c->pol[p], c->que[q]);
}

/* The four charts of the first seed of every configuration: to dir
 * (--svg) and/or into the page h (--html). */
static void charts(const cmp *c, gp_cli_outset *outs, const char *dir, gp_html *h)
{
	gp_svg_series *se = gp_xcalloc((size_t)c->ncfg, sizeof(*se));
	char **names = gp_xcalloc((size_t)c->ncfg, sizeof(*names));
	const first_run *f = c->first;
	const char *tb = strrchr(c->trace, '/');
	char *sub = gp_xasprintf("%s, first seed of each configuration", tb && tb[1] ? tb + 1 : c->trace);
	int i;

	for (i = 0; i < c->ncfg; i++)
		names[i] = config_name(c, i);
	for (i = 0; i < c->ncfg; i++)
		se[i] = (gp_svg_series){ names[i], f[i].cdf_x, f[i].cdf_y, f[i].ncdf, 1 };
	chart(outs, dir, h, "jct-cdf.svg", "JCT CDF", sub,
	      "job completion time, submit to finish (log scale)", "share of jobs finished within x",
	      1, 1, se, c->ncfg);
	for (i = 0; i < c->ncfg; i++)
		se[i] = (gp_svg_series){ names[i], f[i].qd_x, f[i].cdf_y, f[i].ncdf, 1 };
	chart(outs, dir, h, "queue-delay-cdf.svg", "Queue delay CDF", sub,
	      "queue delay: before the first start and after every stop (log scale; under 1 s drawn at 1 s)",
	      "share of jobs started within x", 1, 1, se, c->ncfg);
	for (i = 0; i < c->ncfg; i++)
		se[i] = (gp_svg_series){ names[i], f[i].t, f[i].queued, f[i].nt, 1 };
	chart(outs, dir, h, "queue.svg", "Queue length", sub, "time since first submit (hours)",
	      "queued jobs (at each tick)", 0, 0, se, c->ncfg);
	for (i = 0; i < c->ncfg; i++)
		se[i] = (gp_svg_series){ names[i], f[i].t, f[i].util, f[i].nt, 1 };
	chart(outs, dir, h, "utilization.svg", "GPU utilization", sub,
	      "time since first submit (hours)", "allocated / available GPUs", 1, 0, se, c->ncfg);
	for (i = 0; i < c->ncfg; i++)
		free(names[i]);
	free(names);
	free(se);
	free(sub);
}

/* The mean over the seeds of metric k of configuration i. */
static double metric_mean(const cmp *c, int i, int k)
{
	return gp_stats_of(&c->values[((size_t)i * M_COUNT + (size_t)k) * (size_t)c->nseeds],
			   (size_t)c->nseeds).mean;
}

/* The configuration with the lowest (or, with high, highest) mean of
 * metric k; the first of equals.  -1 when every configuration shows the
 * same figure (cell() text): none leads. */
static int best_of(const cmp *c, int k, int high)
{
	int i, best = 0, differ = 0;
	char a[96], b[96];
	gp_stats s0 = { 0 }, si = { 0 };

	s0.mean = metric_mean(c, 0, k);
	cell(a, sizeof(a), k, s0, 1);
	for (i = 1; i < c->ncfg; i++) {
		double v = metric_mean(c, i, k), bv = metric_mean(c, best, k);

		si.mean = v;
		differ |= strcmp(a, cell(b, sizeof(b), k, si, 1)) != 0;
		if (high ? v > bv : v < bv)
			best = i;
	}
	return differ ? best : -1;
}

/* "P/Q has the shortest mean JCT (X)", or "mean JCT is X in every one". */
static void lead(gp_sbuf *out, const cmp *c, int k, int high, const char *what, const char *superl)
{
	int b = best_of(c, k, high);
	gp_stats s = { 0 };
	char v[96];

	s.mean = metric_mean(c, b < 0 ? 0 : b, k);
	cell(v, sizeof(v), k, s, 1);
	if (b < 0) {
		gp_sbuf_addf(out, "%s is %s in every one", what, v);
	} else {
		char *name = config_name(c, b), w[96];
		int i, ties = 0, other = -1;

		/* equals as the table shows them share the lead: naming the
		 * first alone would make the order of the flags decide */
		for (i = 0; i < c->ncfg; i++) {
			gp_stats si = { 0 };

			si.mean = metric_mean(c, i, k);
			if (i != b && !strcmp(cell(w, sizeof(w), k, si, 1), v)) {
				ties++;
				other = i;
			}
		}
		if (!ties) {
			gp_sbuf_addf(out, "%s has the %s %s (%s)", name, superl, what, v);
		} else if (ties == 1) {
			char *o = config_name(c, other);

			gp_sbuf_addf(out, "%s and %s have the %s %s (%s)", name, o, superl, what, v);
			free(o);
		} else {
			gp_sbuf_addf(out, "%s and %d others have the %s %s (%s)", name, ties, superl, what,
				     v);
		}
		free(name);
	}
}

static void cmp_table(const cmp *c, int from, int to, gp_table *t);

/* Configurations per table of the page: wider tables would not fit. */
#define HTML_COLS 5

/* The --html page: inputs, which configuration leads, the table, the
 * charts. */
static void html_page(const cmp *c, gp_sbuf *out)
{
	gp_html h;
	gp_table t;
	gp_sbuf cl;
	const char *names[6], *tb = strrchr(c->trace, '/');
	char *v[6], *title, d[1][96];
	size_t n = 0, i;
	int ci;

	title = gp_xasprintf("gpuplan compare: %s", tb && tb[1] ? tb + 1 : c->trace);
	gp_html_begin(&h, out, title);
	free(title);
	names[n] = "trace";
	v[n++] = gp_xasprintf("%s (%s, %zu jobs)", c->trace, c->jobs.format ? c->jobs.format : "?",
			      c->jobs.n);
	gp_sbuf_init(&cl);
	for (ci = 0; ci < c->ncl; ci++)
		gp_sbuf_addf(&cl, "%s%s (%d nodes, %d GPUs)", ci ? "; " : "",
			     c->cpaths[ci] ? c->cpaths[ci] : GP_BUNDLED_CLUSTER_LABEL, c->cl[ci].nnodes,
			     c->cl[ci].ngpus);
	names[n] = c->ncl > 1 ? "clusters" : "cluster";
	v[n++] = gp_sbuf_detach(&cl);
	names[n] = "policies";
	v[n++] = gp_xstrdup(c->policies_arg);
	names[n] = "queues";
	v[n++] = gp_xstrdup(c->queues_arg);
	names[n] = "seeds";
	v[n++] = gp_xasprintf("%s (%ld run%s per configuration)", c->seeds_arg, c->nseeds,
			      c->nseeds == 1 ? "" : "s");
	gp_html_inputs(&h, names, (const char *const *)v, n);
	for (i = 0; i < n; i++)
		free(v[i]);
	gp_sbuf_init(&cl);
	if (c->ncfg == 1) {
		gp_stats s = { 0 };

		title = config_name(c, 0);
		gp_sbuf_addf(&cl, "%s: ", title);
		free(title);
		s.mean = metric_mean(c, 0, M_JCT_MEAN);
		gp_sbuf_addf(&cl, "mean JCT %s, ", cell(d[0], sizeof(d[0]), M_JCT_MEAN, s, 1));
		s.mean = metric_mean(c, 0, M_WAIT_P99);
		gp_sbuf_addf(&cl, "p99 queue delay %s, ", cell(d[0], sizeof(d[0]), M_WAIT_P99, s, 1));
		s.mean = metric_mean(c, 0, M_UTIL);
		gp_sbuf_addf(&cl, "GPU utilization %s.", cell(d[0], sizeof(d[0]), M_UTIL, s, 1));
	} else {
		gp_sbuf_addf(&cl, "Of %d configurations, ", c->ncfg);
		lead(&cl, c, M_JCT_MEAN, 0, "mean JCT", "shortest");
		gp_sbuf_adds(&cl, "; ");
		lead(&cl, c, M_WAIT_P99, 0, "p99 queue delay", "shortest");
		gp_sbuf_adds(&cl, "; ");
		lead(&cl, c, M_UTIL, 1, "GPU utilization", "highest");
		gp_sbuf_adds(&cl, ".");
	}
	gp_html_headline(&h, cl.buf);
	gp_sbuf_release(&cl);
	gp_html_section(&h, "Summary");
	for (ci = 0; ci < c->ncfg; ci += HTML_COLS) {
		cmp_table(c, ci, ci + HTML_COLS < c->ncfg ? ci + HTML_COLS : c->ncfg, &t);
		gp_html_table(&h, &t, ci ? NULL : c->nseeds > 1 ?
				      "Each metric: mean +- standard deviation over the seeds" :
				      "Each metric of each configuration");
		gp_table_release(&t);
	}
	gp_html_section(&h, "Charts");
	charts(c, NULL, NULL, &h);
	gp_html_end(&h);
}

int cmp_write_files(const cmp *c)
{
	gp_cli_outset outs;
	int rc;

	memset(&outs, 0, sizeof(outs));
	if ((c->csv_dir && (rc = ensure_dir(c->csv_dir))) || (c->svg_dir && (rc = ensure_dir(c->svg_dir))))
		return rc;
	if (c->csv_dir) {
		char *path = gp_xasprintf("%s/runs.csv", c->csv_dir);
		FILE *fp = gp_cli_outset_add(&outs, path);

		free(path);
		if (fp)
			fwrite(c->csv.buf, 1, c->csv.len, fp);
	}
	if (c->svg_dir)
		charts(c, &outs, c->svg_dir, NULL);
	if (c->html_path) {
		gp_sbuf sb;

		gp_sbuf_init(&sb);
		html_page(c, &sb);
		gp_cli_outset_take(&outs, c->html_path, &sb);
	}
	return gp_cli_outset_commit(&outs);
}

/* One configuration's JSON: its metrics over the seeds and every seed's
 * summary. */
static json_t *config_json(cmp *c, int ci, int p, int q)
{
	size_t cfgi = ((size_t)ci * (size_t)c->np + (size_t)p) * (size_t)c->nq + (size_t)q;
	json_t *run = json_object(), *mo = json_object();
	int k;

	if (c->ncl > 1)
		json_object_set_new(run, "cluster",
				    json_string(c->cpaths[ci] ? c->cpaths[ci] : GP_BUNDLED_CLUSTER_LABEL));
	json_object_set_new(run, "policy", json_string(c->pol[p]));
	json_object_set_new(run, "queue", json_string(c->que[q]));
	{
		gp_report_sched sd;

		gp_cli_sched_of(&c->base, gp_sim_queue_parse(c->que[q]) == GP_SIM_BACKFILL,
				gp_report_sched_estimates(&c->jobs), &sd);
		gp_report_sched_json(&sd, run);
	}
	for (k = 0; k < M_COUNT; k++) {
		gp_stats sp = gp_stats_of(&c->values[(cfgi * M_COUNT + (size_t)k) * (size_t)c->nseeds],
					  (size_t)c->nseeds);
		json_t *e = json_object();
		int dec = k >= M_UTIL ? 6 : 3;

		json_object_set_new(e, "mean", json_real(gp_report_round(sp.mean, dec)));
		json_object_set_new(e, "sd", json_real(gp_report_round(sp.sd, dec)));
		json_object_set_new(e, "min", json_real(gp_report_round(sp.min, dec)));
		json_object_set_new(e, "max", json_real(gp_report_round(sp.max, dec)));
		json_object_set_new(mo, cmp_metric_key(k), e);
	}
	json_object_set_new(run, "metrics", mo);
	json_object_set_new(run, "seeds", c->per_seed[cfgi]);
	c->per_seed[cfgi] = NULL;
	return run;
}

void cmp_print_json(cmp *c)
{
	json_t *o = json_object(), *tr = json_object(), *cla = json_array(), *sa = json_array();
	json_t *runs = json_array();
	int ci, p, q;
	long s;

	for (ci = 0; ci < c->ncl; ci++)
		for (p = 0; p < c->np; p++)
			for (q = 0; q < c->nq; q++)
				json_array_append_new(runs, config_json(c, ci, p, q));
	json_object_set_new(tr, "path", json_string(c->trace));
	json_object_set_new(tr, "format", json_string(c->jobs.format ? c->jobs.format : ""));
	json_object_set_new(tr, "jobs", json_integer((json_int_t)c->jobs.n));
	json_object_set_new(tr, "skipped_rows", json_integer((json_int_t)c->jobs.skipped));
	json_object_set_new(tr, "left_out_rows", json_integer((json_int_t)c->jobs.left_out));
	json_object_set_new(tr, "left_out", json_string(c->jobs.left_out_note ? c->jobs.left_out_note : ""));
	for (ci = 0; ci < c->ncl; ci++) {
		json_t *co = json_object();

		json_object_set_new(co, "path",
				    json_string(c->cpaths[ci] ? c->cpaths[ci] : GP_BUNDLED_CLUSTER_LABEL));
		json_object_set_new(co, "nodes", json_integer(c->cl[ci].nnodes));
		json_object_set_new(co, "gpus", json_integer(c->cl[ci].ngpus));
		if (ci == 0)
			json_object_set(o, "cluster", co);
		json_array_append_new(cla, co);
	}
	for (s = 0; s < c->nseeds; s++)
		json_array_append_new(sa, json_integer((json_int_t)c->seeds[s]));
	json_object_set_new(o, "trace", tr);
	if (c->ncl > 1)
		json_object_set_new(o, "clusters", cla);
	else
		json_decref(cla);
	json_object_set_new(o, "seeds", sa);
	if (c->scale_ref)
		json_object_set_new(o, "scale_durations", json_string(c->scale_ref));
	json_object_set_new(o, "runs", runs);
	json_dumpf(o, stdout, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(15));
	fputs("\n", stdout);
	json_decref(o);
}

/* The backfill rules (when a backfill queue is compared) and the pass
 * interval: the "sched" line of the head. */
static void sched_line(const cmp *c)
{
	gp_report_sched sd;
	gp_sbuf sb;
	int q, bf = 0;

	for (q = 0; q < c->nq; q++)
		bf |= gp_sim_queue_parse(c->que[q]) == GP_SIM_BACKFILL;
	gp_cli_sched_of(&c->base, bf, gp_report_sched_estimates(&c->jobs), &sd);
	sd.backfill_of_several = c->nq > 1;
	gp_sbuf_init(&sb);
	gp_report_sched_line(&sd, &sb);
	fwrite(sb.buf, 1, sb.len, stdout);
	gp_sbuf_release(&sb);
}

static void print_head(const cmp *c)
{
	int ci;

	printf("trace    %s (%s, %zu jobs", c->trace, c->jobs.format ? c->jobs.format : "?", c->jobs.n);
	if (c->jobs.left_out)
		printf(", %zu rows left out: %s", c->jobs.left_out,
		       c->jobs.left_out_note ? c->jobs.left_out_note : "not replayable");
	printf(")\n");
	for (ci = 0; ci < c->ncl; ci++) {
		printf("%s%s (%d nodes, %d GPUs)", ci ? "         " : "cluster  ",
		       c->cpaths[ci] ? c->cpaths[ci] : GP_BUNDLED_CLUSTER_LABEL, c->cl[ci].nnodes,
		       c->cl[ci].ngpus);
		if (c->ncl > 1)
			printf(": '%s'", c->label[ci]);
		printf("\n");
	}
	if (c->scale_ref)
		printf("scale    durations as measured on %s (model %s for jobs without one)\n",
		       c->scale_ref, c->scale_model ? c->scale_model : GP_SCALE_DEFAULT_MODEL);
	printf("seeds    %s (%ld run%s each)\n", c->seeds_arg, c->nseeds, c->nseeds == 1 ? "" : "s");
	sched_line(c);
	printf("\n");
}

/* Whether a job of configuration ci waited in some seed: if none did,
 * utilization while jobs wait is 0 for want of a wait, which "0.0 %"
 * would read as idle GPUs beside a queue (simulate says "no job
 * waited"). */
static int waited(const cmp *c, int ci)
{
	const double *qd = &c->values[((size_t)ci * M_COUNT + M_WAIT_MEAN) * (size_t)c->nseeds];
	const double *uq = &c->values[((size_t)ci * M_COUNT + M_UTIL_QUEUED) * (size_t)c->nseeds];
	size_t i;

	for (i = 0; i < (size_t)c->nseeds; i++)
		if (qd[i] > 0 || uq[i] > 0)
			return 1;
	return 0;
}

/* One column per configuration (from..to-1), one row per metric. */
static void cmp_table(const cmp *c, int from, int to, gp_table *t)
{
	size_t row;
	int ci, k;

	gp_table_init(t, to - from + 1);
	row = gp_table_row(t);
	gp_table_set(t, row, 0, "metric");
	for (ci = from; ci < to; ci++) {
		char *name = config_name(c, ci);

		gp_table_set(t, row, ci - from + 1, "%s", name);
		free(name);
	}
	for (k = 0; k < M_COUNT; k++) {
		row = gp_table_row(t);
		gp_table_set(t, row, 0, "%s", cmp_metric_head(k));
		for (ci = from; ci < to; ci++) {
			gp_stats sp = gp_stats_of(&c->values[((size_t)ci * M_COUNT + (size_t)k) * (size_t)c->nseeds],
						  (size_t)c->nseeds);
			char buf[96];

			if (k == M_UTIL_QUEUED && !waited(c, ci))
				gp_table_set(t, row, ci - from + 1, "no job waited");
			else
				gp_table_set(t, row, ci - from + 1, "%s",
					     cell(buf, sizeof(buf), k, sp, (int)c->nseeds));
		}
	}
}

void cmp_print_table(const cmp *c)
{
	gp_table t;
	gp_sbuf sb;

	print_head(c);
	cmp_table(c, 0, c->ncfg, &t);
	gp_sbuf_init(&sb);
	gp_table_render(&t, "", &sb);
	fwrite(sb.buf, 1, sb.len, stdout);
	gp_sbuf_release(&sb);
	gp_table_release(&t);
}
