/* gpuplan compare: the table, the JSON and the --csv/--svg files from the
 * runs' results (compare_int.h). */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_int.h"
#include "gpuplan/report/report.h"

const char *const cmp_metric_key[M_COUNT] = {
	"completed", "never_placed", "failed", "queue_delay_mean", "queue_delay_p99",
	"jct_mean", "jct_p50", "jct_p99", "makespan", "gpu_utilization", "gpu_utilization_queued",
	"preemptions",
};
const char *const cmp_metric_head[M_COUNT] = {
	"jobs completed", "jobs never placed", "jobs failed", "queue delay mean",
	"queue delay p99", "JCT mean", "JCT p50", "JCT p99", "makespan", "GPU utilization",
	"GPU util. while queued", "preemptions",
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
			f->qd_x[n++] = fmax(r->jobs[i].start - jobs->jobs[i].submit, 1) / 3600.0;
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

static void chart(gp_cli_outset *outs, const char *dir, const char *file, const char *title,
		  const char *sub, const char *xt, const char *yt, int percent, int xlog, gp_svg_series *se, int n)
{
	gp_svg_chart c;
	gp_sbuf sb;
	char *path = gp_xasprintf("%s/%s", dir, file);
	FILE *fp = gp_cli_outset_add(outs, path);

	free(path);
	if (!fp)
		return;
	memset(&c, 0, sizeof(c));
	c.title = title;
	c.subtitle = sub;
	c.x_title = xt;
	c.y_title = yt;
	c.y_percent = percent;
	c.x_log = xlog;
	c.series = se;
	c.nseries = n;
	c.legend = GP_LEGEND_BOTTOM_RIGHT;
	gp_sbuf_init(&sb);
	gp_svg_line_chart(&c, &sb);
	fwrite(sb.buf, 1, sb.len, fp);
	gp_sbuf_release(&sb);
}

static void svg_files(const cmp *c, gp_cli_outset *outs)
{
	gp_svg_series *se = gp_xcalloc((size_t)c->ncfg, sizeof(*se));
	char **names = gp_xcalloc((size_t)c->ncfg, sizeof(*names));
	const first_run *f = c->first;
	const char *tb = strrchr(c->trace, '/');
	char *sub = gp_xasprintf("%s, first seed of each configuration", tb && tb[1] ? tb + 1 : c->trace);
	int i, ci, p, q;

	for (ci = 0; ci < c->ncl; ci++)
		for (p = 0; p < c->np; p++)
			for (q = 0; q < c->nq; q++) {
				i = (ci * c->np + p) * c->nq + q;
				names[i] = c->ncl > 1 ? gp_xasprintf("%s/%s/%s", c->label[ci], c->pol[p], c->que[q]) :
							gp_xasprintf("%s/%s", c->pol[p], c->que[q]);
			}
	for (i = 0; i < c->ncfg; i++)
		se[i] = (gp_svg_series){ names[i], f[i].cdf_x, f[i].cdf_y, f[i].ncdf, 1 };
	chart(outs, c->svg_dir, "jct-cdf.svg", "JCT distribution", sub,
	      "JCT (hours, log scale)", "jobs completed", 1, 1, se, c->ncfg);
	for (i = 0; i < c->ncfg; i++)
		se[i] = (gp_svg_series){ names[i], f[i].qd_x, f[i].cdf_y, f[i].ncdf, 1 };
	chart(outs, c->svg_dir, "queue-delay-cdf.svg", "Queue delay distribution", sub,
	      "queue delay, submit to first start (hours, log scale; under 1 s drawn at 1 s)",
	      "jobs started", 1, 1, se, c->ncfg);
	for (i = 0; i < c->ncfg; i++)
		se[i] = (gp_svg_series){ names[i], f[i].t, f[i].queued, f[i].nt, 1 };
	chart(outs, c->svg_dir, "queue.svg", "Jobs waiting", sub, "time (hours)",
	      "queued jobs", 0, 0, se, c->ncfg);
	for (i = 0; i < c->ncfg; i++)
		se[i] = (gp_svg_series){ names[i], f[i].t, f[i].util, f[i].nt, 1 };
	chart(outs, c->svg_dir, "utilization.svg", "GPU utilization", sub,
	      "time (hours)", "GPU utilization", 1, 0, se, c->ncfg);
	for (i = 0; i < c->ncfg; i++)
		free(names[i]);
	free(names);
	free(se);
	free(sub);
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
		svg_files(c, &outs);
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
		json_object_set_new(run, "cluster", json_string(c->cpaths[ci] ? c->cpaths[ci] : ""));
	json_object_set_new(run, "policy", json_string(c->pol[p]));
	json_object_set_new(run, "queue", json_string(c->que[q]));
	for (k = 0; k < M_COUNT; k++) {
		gp_stats sp = gp_stats_of(&c->values[(cfgi * M_COUNT + (size_t)k) * (size_t)c->nseeds],
					  (size_t)c->nseeds);
		json_t *e = json_object();
		int dec = k >= M_UTIL ? 6 : 3;

		json_object_set_new(e, "mean", json_real(gp_report_round(sp.mean, dec)));
		json_object_set_new(e, "sd", json_real(gp_report_round(sp.sd, dec)));
		json_object_set_new(e, "min", json_real(gp_report_round(sp.min, dec)));
		json_object_set_new(e, "max", json_real(gp_report_round(sp.max, dec)));
		json_object_set_new(mo, cmp_metric_key[k], e);
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

		json_object_set_new(co, "path", json_string(c->cpaths[ci] ? c->cpaths[ci] : ""));
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
	printf("seeds    %s (%ld run%s each)\n\n", c->seeds_arg, c->nseeds, c->nseeds == 1 ? "" : "s");
}

/* One column per configuration, one row per metric. */
void cmp_print_table(const cmp *c)
{
	gp_table t;
	gp_sbuf sb;
	size_t row;
	int ci, p, q, k;

	print_head(c);
	gp_table_init(&t, c->ncfg + 1);
	row = gp_table_row(&t);
	gp_table_set(&t, row, 0, "metric");
	for (ci = 0; ci < c->ncl; ci++)
		for (p = 0; p < c->np; p++)
			for (q = 0; q < c->nq; q++) {
				int col = (ci * c->np + p) * c->nq + q + 1;

				if (c->ncl > 1)
					gp_table_set(&t, row, col, "%s/%s/%s", c->label[ci], c->pol[p], c->que[q]);
				else
					gp_table_set(&t, row, col, "%s/%s", c->pol[p], c->que[q]);
			}
	for (k = 0; k < M_COUNT; k++) {
		row = gp_table_row(&t);
		gp_table_set(&t, row, 0, "%s", cmp_metric_head[k]);
		for (ci = 0; ci < c->ncfg; ci++) {
			gp_stats sp = gp_stats_of(&c->values[((size_t)ci * M_COUNT + (size_t)k) * (size_t)c->nseeds],
						  (size_t)c->nseeds);
			char buf[96];

			gp_table_set(&t, row, ci + 1, "%s", cell(buf, sizeof(buf), k, sp, (int)c->nseeds));
		}
	}
	gp_sbuf_init(&sb);
	gp_table_render(&t, "", &sb);
	fwrite(sb.buf, 1, sb.len, stdout);
	gp_sbuf_release(&sb);
	gp_table_release(&t);
}

