/* gpuplan compare: one trace, several policies x queue disciplines x
 * seeds, one table with the metrics side by side (mean and spread over
 * the seeds), or the same as JSON. */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/model/cluster.h"
#include "gpuplan/place/policy.h"
#include "gpuplan/report/report.h"
#include "gpuplan/sim/sim.h"
#include "gpuplan/io/trace.h"
#include "gpuplan/util/util.h"
#include "gpuplan/whatif/metrics.h"
#include "gpuplan/whatif/scale.h"

const char gp_usage_compare[] =
	"usage: gpuplan compare [-c CLUSTER]... TRACE --policies P1,P2,... [--queues Q1,Q2,...]\n"
	"                       [--seeds LIST] [--json] [--csv DIR] [--svg DIR] [--tick S]\n"
	"                       [--scale-durations REF [--scale-model M]] [--format F]\n"
	"                       [--limit N] [--start T] [--end T] [--skip-bad]\n"
	"                       [--preempt M] [--preempt-cost S] [--checkpoint-interval S]\n"
	"                       [--las-thresholds LIST] [--las-starvation K]\n"
	"                       [--progress | --quiet]\n"
	"\n"
	"Simulate TRACE once per cluster x policy x queue discipline x seed and\n"
	"print one table: per configuration, jobs completed and never placed,\n"
	"queueing delay and JCT (mean, p99), makespan, GPU utilization and GPU\n"
	"utilization while jobs wait.  With several seeds a cell reads 'mean +-sd'\n"
	"(sample standard deviation over the seeds).\n"
	"\n"
	"  -c, --cluster FILE  cluster YAML; repeat to compare clusters (default:\n"
	"                   the bundled example)\n"
	"  --policies LIST  placement policies, comma-separated (default bestfit)\n"
	"  --queues LIST    fifo, sjf, backfill, priority, las, comma-separated\n"
	"                   (default fifo)\n"
	"  --seeds LIST     seeds: '1-10', '42', '1,5,9' or a mix (default 1)\n"
	"  --json           print JSON (per configuration: mean, sd, min, max of each\n"
	"                   metric, and every seed's simulate summary) instead\n"
	"  --csv DIR        write DIR/runs.csv (one row per run, every metric)\n"
	"  --svg DIR        write DIR/jct-cdf.svg, DIR/queue-delay-cdf.svg, DIR/queue.svg and\n"
	"                   DIR/utilization.svg\n"
	"                   (one line per configuration, first seed)\n"
	"  --scale-durations REF  read recorded durations as measured on REF (a GPU\n"
	"                   model or node type of the first cluster, ':tech' optional)\n"
	"                   and scale them to each placement by the perf model\n"
	"  --scale-model M  DL model for jobs without one (default resnet50)\n"
	"  other options as for 'gpuplan simulate'\n"
	"  --inflate X      FGD's workload-inflation experiment (see gpuplan(1))\n";

#define MAX_RUNS 10000
#define MAX_CLUSTERS 16

/* The metrics compared, in table order. */
enum { M_COMPLETED, M_NEVER, M_FAILED, M_WAIT_MEAN, M_WAIT_P99, M_JCT_MEAN, M_JCT_P50,
       M_JCT_P99, M_MAKESPAN, M_UTIL, M_UTIL_QUEUED, M_PREEMPT, M_COUNT };
static const char *const metric_key[M_COUNT] = {
	"completed", "never_placed", "failed", "queue_delay_mean", "queue_delay_p99",
	"jct_mean", "jct_p50", "jct_p99", "makespan", "gpu_utilization", "gpu_utilization_queued",
	"preemptions",
};
static const char *const metric_head[M_COUNT] = {
	"jobs completed", "jobs never placed", "jobs failed", "queue delay mean",
	"queue delay p99", "JCT mean", "JCT p50", "JCT p99", "makespan", "GPU utilization",
	"GPU util. while queued", "preemptions",
};

static void metrics_of(const gp_joblist *jobs, const gp_sim_result *r, double *m)
{
	gp_sim_summary s;

	gp_sim_summarize(jobs, r, -1, &s);
	m[M_COMPLETED] = (double)s.completed;
	m[M_NEVER] = (double)s.never_placed;
	m[M_FAILED] = (double)s.failed;
	m[M_WAIT_MEAN] = s.queue_delay.mean;
	m[M_WAIT_P99] = s.queue_delay.p99;
	m[M_JCT_MEAN] = s.jct.mean;
	m[M_JCT_P50] = s.jct.p50;
	m[M_JCT_P99] = s.jct.p99;
	m[M_MAKESPAN] = r->makespan;
	m[M_UTIL] = r->gpu_utilization;
	m[M_UTIL_QUEUED] = gp_metric_util_queued(jobs, r);
	m[M_PREEMPT] = (double)r->interruptions[GP_SIM_CAUSE_PREEMPT];
}

/* Split a comma list into a NULL-terminated array of strings (owned). */
static char **split(const char *list, int *n)
{
	char *copy = gp_xstrdup(list), *tok, *save = NULL, **v = NULL;
	size_t cap = 0;

	*n = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		GP_GROW(v, cap, (size_t)*n + 2);
		v[(*n)++] = gp_xstrdup(tok);
	}
	free(copy);
	if (!v)
		v = gp_xcalloc(1, sizeof(*v));
	v[*n] = NULL;
	return v;
}

static void free_list(char **v)
{
	char **p;

	for (p = v; p && *p; p++)
		free(*p);
	free(v);
}

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

/* A short name for a cluster in column heads: its `name:`, else the
 * file name without directory and extension. */
static const char *cluster_label(const gp_cluster *c, const char *path, char *buf, size_t size)
{
	const char *b, *dot;

	if (c->name && *c->name)
		return c->name;
	if (!path)
		return "example";
	b = strrchr(path, '/');
	b = b ? b + 1 : path;
	dot = strrchr(b, '.');
	snprintf(buf, size, "%.*s", (int)(dot && dot > b ? (size_t)(dot - b) : strlen(b)), b);
	return buf;
}

static int ensure_dir(const char *dir)
{
	return gp_cli_make_dirs(dir);
}

/* What --svg draws of one configuration's first seed. */
typedef struct first_run {
	double *cdf_x, *cdf_y;       /* JCT CDF (hours, share) */
	double *qd_x;                /* queue delay CDF (hours; shares in cdf_y) */
	double *t, *queued, *util;   /* timeline (hours) */
	size_t ncdf, nt;
} first_run;

static void keep_first(first_run *f, const gp_joblist *jobs, const gp_sim_result *r)
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

static void first_release(first_run *f)
{
	free(f->cdf_x);
	free(f->cdf_y);
	free(f->qd_x);
	free(f->t);
	free(f->queued);
	free(f->util);
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

int cmd_compare(int argc, char **argv)
{
	enum { O_POLICIES = 1, O_QUEUES, O_SEEDS, O_JSON, O_TICK, O_PROGRESS, O_QUIET, O_HELP, O_CSV,
	       O_SVG, O_SCALE, O_SCALE_MODEL };
	static const struct option opts[] = {
		{ "cluster", required_argument, NULL, 'c' },
		{ "policies", required_argument, NULL, O_POLICIES },
		{ "queues", required_argument, NULL, O_QUEUES },
		{ "seeds", required_argument, NULL, O_SEEDS },
		{ "json", no_argument, NULL, O_JSON },
		{ "csv", required_argument, NULL, O_CSV },
		{ "svg", required_argument, NULL, O_SVG },
		{ "scale-durations", required_argument, NULL, O_SCALE },
		{ "scale-model", required_argument, NULL, O_SCALE_MODEL },
		{ "tick", required_argument, NULL, O_TICK },
		{ "progress", no_argument, NULL, O_PROGRESS },
		{ "quiet", no_argument, NULL, O_QUIET },
		{ "help", no_argument, NULL, O_HELP },
		GP_SIM_TRACE_OPTIONS,
		GP_SIM_ENGINE_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	gp_cli_engine eng;
	const char *cpaths[MAX_CLUSTERS], *policies_arg = "bestfit", *queues_arg = "fifo";
	const char *seeds_arg = "1", *csv_dir = NULL, *svg_dir = NULL, *scale_ref = NULL;
	const char *scale_model = NULL;
	gp_scale *scale = NULL;
	int json = 0, show_progress = -1, c, rc, np, nq, p, q, ncl = 0, k, ci, ncfg;
	long nseeds, s;
	double tick = 0;
	unsigned long long *seeds;
	char **pol, **que, lbuf[MAX_CLUSTERS][64];
	const char *label[MAX_CLUSTERS];
	gp_trace_opts topts;
	gp_cluster cl[MAX_CLUSTERS];
	gp_joblist jobs;
	gp_error err = GP_ERROR_INIT;
	double *values;     /* [config][metric][seed] */
	json_t *runs = NULL;
	first_run *first = NULL;
	gp_sbuf csv;

	if (gp_cli_has_option(argc, argv, "--inflate"))
		return gp_cmd_compare_inflate(argc, argv);
	gp_trace_opts_init(&topts);
	gp_cli_engine_init(&eng);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":c:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (ncl >= MAX_CLUSTERS)
				return gp_cli_usage_error("compare", "at most %d clusters", MAX_CLUSTERS);
			cpaths[ncl++] = optarg;
			break;
		case O_POLICIES: policies_arg = optarg; break;
		case O_QUEUES: queues_arg = optarg; break;
		case O_SEEDS: seeds_arg = optarg; break;
		case O_JSON: json = 1; break;
		case O_CSV: csv_dir = optarg; break;
		case O_SVG: svg_dir = optarg; break;
		case O_SCALE: scale_ref = optarg; break;
		case O_SCALE_MODEL: scale_model = optarg; break;
		case O_TICK:
			if (gp_parse_double(optarg, 1e-3, 1e12, &tick))
				return gp_cli_usage_error("compare", "--tick wants seconds > 0, got '%s'", optarg);
			break;
		case O_PROGRESS: show_progress = 1; break;
		case O_QUIET: show_progress = 0; break;
		case 'h':
		case O_HELP: fputs(gp_usage_compare, stdout); return GP_OK;
		default:
			if ((rc = gp_cli_sim_engine_opt("compare", c, optarg, &eng)) >= 0) {
				if (rc)
					return rc;
				break;
			}
			if ((rc = gp_cli_sim_trace_opt("compare", c, optarg, argv, &topts)))
				return rc;
			break;
		}
	}
	if (optind != argc - 1)
		return gp_cli_usage_error("compare", "expected one TRACE file");
	if (scale_model && !scale_ref)
		return gp_cli_usage_error("compare", "--scale-model goes with --scale-durations");
	if (!ncl)
		cpaths[ncl++] = NULL;
	seeds = gp_xmalloc(MAX_RUNS * sizeof(*seeds));
	nseeds = gp_cli_parse_seeds(seeds_arg, seeds, MAX_RUNS);
	if (nseeds < 0) {
		free(seeds);
		return gp_cli_usage_error("compare", "--seeds wants a list like '1-10' or '1,5,9', got '%s'",
					  seeds_arg);
	}
	pol = split(policies_arg, &np);
	que = split(queues_arg, &nq);
	rc = GP_OK;
	if (!np || !nq)
		rc = gp_cli_usage_error("compare", "--policies and --queues must name at least one");
	for (p = 0; p < np && rc == GP_OK; p++)
		if (!gp_policy_find(pol[p]))
			rc = gp_cli_usage_error("compare", "unknown policy '%s'", pol[p]);
	for (q = 0; q < nq && rc == GP_OK; q++)
		if (gp_sim_queue_parse(que[q]) < 0)
			rc = gp_cli_usage_error("compare", "unknown queue '%s' (fifo, sjf, backfill, priority, las)",
						que[q]);
	if (rc == GP_OK && (long)ncl * np * nq * nseeds > MAX_RUNS)
		rc = gp_cli_usage_error("compare", "more than %d runs asked for", MAX_RUNS);
	for (ci = 0; ci < ncl; ci++)
		gp_cluster_init(&cl[ci]);
	gp_joblist_init(&jobs);
	if (rc == GP_OK)
		rc = gp_cli_sim_load(cpaths[0], argv[optind], &topts, &cl[0], &jobs);
	for (ci = 1; ci < ncl && rc == GP_OK; ci++)
		if (gp_cluster_load(cpaths[ci], &cl[ci], &err))
			rc = gp_cli_report(&err);
	/* Output folders exist and are writable before the runs. */
	if (rc == GP_OK && ((csv_dir && gp_cli_make_dirs(csv_dir)) || (svg_dir && gp_cli_make_dirs(svg_dir))))
		rc = GP_EIO;
	if (rc != GP_OK) {
		for (ci = 0; ci < ncl; ci++)
			gp_cluster_release(&cl[ci]);
		gp_joblist_release(&jobs);
		free_list(pol);
		free_list(que);
		free(seeds);
		return rc;
	}
	for (ci = 0; ci < ncl; ci++)
		label[ci] = cluster_label(&cl[ci], cpaths[ci], lbuf[ci], sizeof(lbuf[ci]));
	if (show_progress < 0)
		show_progress = gp_cli_stderr_is_tty();
	ncfg = ncl * np * nq;
	values = gp_xmalloc((size_t)ncfg * M_COUNT * (size_t)nseeds * sizeof(*values));
	if (svg_dir)
		first = gp_xcalloc((size_t)ncfg, sizeof(*first));
	gp_sbuf_init(&csv);
	if (csv_dir) {
		gp_sbuf_adds(&csv, "cluster,policy,queue,seed");
		for (k = 0; k < M_COUNT; k++)
			gp_sbuf_addf(&csv, ",%s%s", metric_key[k],
				     k >= M_WAIT_MEAN && k <= M_MAKESPAN ? "_s" : "");
		gp_sbuf_adds(&csv, "\n");
	}
	if (json)
		runs = json_array();
	/* One reference for every cluster (a node type REF names one of the
	 * first cluster): the same work, replayed on each. */
	if (scale_ref) {
		scale = gp_scale_new(scale_ref, scale_model, &cl[0], &jobs, &err);
		if (!scale)
			rc = err.status == GP_EUSAGE ? gp_cli_usage_error("compare", "%s", err.msg) :
						       gp_cli_report(&err);
	}
	for (ci = 0; ci < ncl && rc == GP_OK; ci++) {
		gp_sim_perf *perf = gp_sim_perf_new(&cl[ci]);

		if (scale)
			gp_scale_bind(scale, &cl[ci]);
		for (p = 0; p < np && rc == GP_OK; p++)
			for (q = 0; q < nq && rc == GP_OK; q++) {
				size_t cfgi = ((size_t)ci * (size_t)np + (size_t)p) * (size_t)nq + (size_t)q;
				json_t *per_seed = json ? json_array() : NULL;

				for (s = 0; s < nseeds && rc == GP_OK; s++) {
					gp_sim_config cfg;
					gp_sim_result res;
					double m[M_COUNT];

					if (show_progress)
						fprintf(stderr, "\rcompare: %s%s%s/%s seed %llu (run %zu of %ld)   ",
							ncl > 1 ? label[ci] : "", ncl > 1 ? "/" : "", pol[p], que[q],
							seeds[s], cfgi * (size_t)nseeds + (size_t)s + 1,
							(long)ncfg * nseeds);
					gp_sim_config_init(&cfg);
					cfg.cluster = &cl[ci];
					cfg.policy = gp_policy_find(pol[p]);
					cfg.queue = gp_sim_queue_parse(que[q]);
					cfg.seed = seeds[s];
					cfg.tick = tick;
					gp_cli_engine_apply(&eng, &cfg);
					cfg.duration = scale ? gp_scale_duration : gp_sim_perf_duration;
					cfg.duration_ud = scale ? (void *)scale : (void *)perf;
					if (gp_sim_run(&cfg, &jobs, &res, &err)) {
						rc = gp_cli_report(&err);
						break;
					}
					metrics_of(&jobs, &res, m);
					for (k = 0; k < M_COUNT; k++)
						values[(cfgi * M_COUNT + (size_t)k) * (size_t)nseeds + (size_t)s] = m[k];
					if (first && s == 0)
						keep_first(&first[cfgi], &jobs, &res);
					if (csv_dir) {
						char nb[64];

						gp_csv_field(&csv, cpaths[ci] ? cpaths[ci] : "example-cluster.yaml (bundled)");
						gp_sbuf_addf(&csv, ",%s,%s,%llu", pol[p], que[q], seeds[s]);
						for (k = 0; k < M_COUNT; k++)
							gp_sbuf_addf(&csv, ",%s", gp_report_num(nb, sizeof(nb), m[k],
												k >= M_UTIL ? 6 : 3));
						gp_sbuf_adds(&csv, "\n");
					}
					if (json) {
						gp_report_ident id;
						json_t *o;

						memset(&id, 0, sizeof(id));
						id.policy = cfg.policy->name;
						id.queue = que[q];
						id.seed = seeds[s];
						if (cfg.queue == GP_SIM_LAS)
							id.preempt = cfg.las_preempt ? "las" : NULL;
						else if (cfg.preempt)
							id.preempt = gp_sim_preempt_name(cfg.preempt);
						o = gp_report_sim_json(&id, &jobs, &res);
						json_object_del(o, "trace");
						json_object_del(o, "cluster");
						json_array_append_new(per_seed, o);
					}
					gp_sim_result_release(&res);
				}
				if (json) {
					json_t *run = json_object(), *mo = json_object();

					if (ncl > 1)
						json_object_set_new(run, "cluster",
								    json_string(cpaths[ci] ? cpaths[ci] : ""));
					json_object_set_new(run, "policy", json_string(pol[p]));
					json_object_set_new(run, "queue", json_string(que[q]));
					for (k = 0; k < M_COUNT && rc == GP_OK; k++) {
						gp_stats sp = gp_stats_of(&values[(cfgi * M_COUNT + (size_t)k) *
										  (size_t)nseeds],
									  (size_t)nseeds);
						json_t *e = json_object();
						int dec = k >= M_UTIL ? 6 : 3;

						json_object_set_new(e, "mean", json_real(gp_report_round(sp.mean, dec)));
						json_object_set_new(e, "sd", json_real(gp_report_round(sp.sd, dec)));
						json_object_set_new(e, "min", json_real(gp_report_round(sp.min, dec)));
						json_object_set_new(e, "max", json_real(gp_report_round(sp.max, dec)));
						json_object_set_new(mo, metric_key[k], e);
					}
					json_object_set_new(run, "metrics", mo);
					json_object_set_new(run, "seeds", per_seed);
					json_array_append_new(runs, run);
				}
			}
		gp_sim_perf_free(perf);
	}
	gp_scale_free(scale);
	if (show_progress)
		fputs("\n", stderr);
	if (rc == GP_OK && (csv_dir || svg_dir)) {
		gp_cli_outset outs;

		memset(&outs, 0, sizeof(outs));
		if ((csv_dir && (rc = ensure_dir(csv_dir))) || (svg_dir && (rc = ensure_dir(svg_dir))))
			goto done;
		if (csv_dir) {
			char *path = gp_xasprintf("%s/runs.csv", csv_dir);
			FILE *fp = gp_cli_outset_add(&outs, path);

			free(path);
			if (fp)
				fwrite(csv.buf, 1, csv.len, fp);
		}
		if (svg_dir) {
			gp_svg_series *se = gp_xcalloc((size_t)ncfg, sizeof(*se));
			char **names = gp_xcalloc((size_t)ncfg, sizeof(*names));
			const char *tb = strrchr(argv[optind], '/');
			char *sub = gp_xasprintf("%s, first seed of each configuration",
						 tb && tb[1] ? tb + 1 : argv[optind]);
			int i;

			for (ci = 0; ci < ncl; ci++)
				for (p = 0; p < np; p++)
					for (q = 0; q < nq; q++) {
						i = (ci * np + p) * nq + q;
						names[i] = ncl > 1 ? gp_xasprintf("%s/%s/%s", label[ci], pol[p], que[q]) :
								     gp_xasprintf("%s/%s", pol[p], que[q]);
					}
			for (i = 0; i < ncfg; i++)
				se[i] = (gp_svg_series){ names[i], first[i].cdf_x, first[i].cdf_y, first[i].ncdf, 1 };
			chart(&outs, svg_dir, "jct-cdf.svg", "JCT distribution", sub,
			      "JCT (hours, log scale)", "jobs completed", 1, 1, se, ncfg);
			for (i = 0; i < ncfg; i++)
				se[i] = (gp_svg_series){ names[i], first[i].qd_x, first[i].cdf_y, first[i].ncdf, 1 };
			chart(&outs, svg_dir, "queue-delay-cdf.svg", "Queue delay distribution", sub,
			      "queue delay, submit to first start (hours, log scale; under 1 s drawn at 1 s)",
			      "jobs started", 1, 1, se, ncfg);
			for (i = 0; i < ncfg; i++)
				se[i] = (gp_svg_series){ names[i], first[i].t, first[i].queued, first[i].nt, 1 };
			chart(&outs, svg_dir, "queue.svg", "Jobs waiting", sub, "time (hours)",
			      "queued jobs", 0, 0, se, ncfg);
			for (i = 0; i < ncfg; i++)
				se[i] = (gp_svg_series){ names[i], first[i].t, first[i].util, first[i].nt, 1 };
			chart(&outs, svg_dir, "utilization.svg", "GPU utilization", sub,
			      "time (hours)", "GPU utilization", 1, 0, se, ncfg);
			free(sub);
			for (i = 0; i < ncfg; i++)
				free(names[i]);
			free(names);
			free(se);
		}
		{
			int st = gp_cli_outset_commit(&outs);

			if (st != GP_OK)
				rc = st;
		}
	}
done:
	if (rc == GP_OK && json) {
		json_t *o = json_object(), *tr = json_object(), *cla = json_array(), *sa = json_array();

		json_object_set_new(tr, "path", json_string(argv[optind]));
		json_object_set_new(tr, "format", json_string(jobs.format ? jobs.format : ""));
		json_object_set_new(tr, "jobs", json_integer((json_int_t)jobs.n));
		json_object_set_new(tr, "skipped_rows", json_integer((json_int_t)jobs.skipped));
		json_object_set_new(tr, "left_out_rows", json_integer((json_int_t)jobs.left_out));
		json_object_set_new(tr, "left_out", json_string(jobs.left_out_note ? jobs.left_out_note : ""));
		for (ci = 0; ci < ncl; ci++) {
			json_t *co = json_object();

			json_object_set_new(co, "path", json_string(cpaths[ci] ? cpaths[ci] : ""));
			json_object_set_new(co, "nodes", json_integer(cl[ci].nnodes));
			json_object_set_new(co, "gpus", json_integer(cl[ci].ngpus));
			if (ci == 0)
				json_object_set(o, "cluster", co);
			json_array_append_new(cla, co);
		}
		for (s = 0; s < nseeds; s++)
			json_array_append_new(sa, json_integer((json_int_t)seeds[s]));
		json_object_set_new(o, "trace", tr);
		if (ncl > 1)
			json_object_set_new(o, "clusters", cla);
		else
			json_decref(cla);
		json_object_set_new(o, "seeds", sa);
		if (scale_ref)
			json_object_set_new(o, "scale_durations", json_string(scale_ref));
		json_object_set_new(o, "runs", runs);
		runs = NULL;
		json_dumpf(o, stdout, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(15));
		fputs("\n", stdout);
		json_decref(o);
	} else if (rc == GP_OK) {
		gp_table t;
		gp_sbuf sb;
		size_t row = 0;

		printf("trace    %s (%s, %zu jobs", argv[optind], jobs.format ? jobs.format : "?",
		       jobs.n);
		if (jobs.left_out)
			printf(", %zu rows left out: %s", jobs.left_out,
			       jobs.left_out_note ? jobs.left_out_note : "not replayable");
		printf(")\n");
		for (ci = 0; ci < ncl; ci++) {
			printf("%s%s (%d nodes, %d GPUs)", ci ? "         " : "cluster  ",
			       cpaths[ci] ? cpaths[ci] : "example-cluster.yaml (bundled)", cl[ci].nnodes,
			       cl[ci].ngpus);
			if (ncl > 1)
				printf(": '%s'", label[ci]);
			printf("\n");
		}
		if (scale_ref)
			printf("scale    durations as measured on %s (model %s for jobs without one)\n",
			       scale_ref, scale_model ? scale_model : GP_SCALE_DEFAULT_MODEL);
		printf("seeds    %s (%ld run%s each)\n\n", seeds_arg, nseeds, nseeds == 1 ? "" : "s");
		/* One column per configuration, one row per metric. */
		gp_table_init(&t, ncfg + 1);
		row = gp_table_row(&t);
		gp_table_set(&t, row, 0, "metric");
		for (ci = 0; ci < ncl; ci++)
			for (p = 0; p < np; p++)
				for (q = 0; q < nq; q++) {
					int col = (ci * np + p) * nq + q + 1;

					if (ncl > 1)
						gp_table_set(&t, row, col, "%s/%s/%s", label[ci], pol[p], que[q]);
					else
						gp_table_set(&t, row, col, "%s/%s", pol[p], que[q]);
				}
		for (k = 0; k < M_COUNT; k++) {
			row = gp_table_row(&t);
			gp_table_set(&t, row, 0, "%s", metric_head[k]);
			for (ci = 0; ci < ncfg; ci++) {
				gp_stats sp = gp_stats_of(&values[((size_t)ci * M_COUNT + (size_t)k) * (size_t)nseeds],
							  (size_t)nseeds);
				char buf[96];

				gp_table_set(&t, row, ci + 1, "%s", cell(buf, sizeof(buf), k, sp, (int)nseeds));
			}
		}
		gp_sbuf_init(&sb);
		gp_table_render(&t, "", &sb);
		fwrite(sb.buf, 1, sb.len, stdout);
		gp_sbuf_release(&sb);
		gp_table_release(&t);
	}
	if (first) {
		for (ci = 0; ci < ncfg; ci++)
			first_release(&first[ci]);
		free(first);
	}
	gp_sbuf_release(&csv);
	json_decref(runs);
	free(values);
	free_list(pol);
	free_list(que);
	free(seeds);
	gp_joblist_release(&jobs);
	for (ci = 0; ci < ncl; ci++)
		gp_cluster_release(&cl[ci]);
	return rc;
}
