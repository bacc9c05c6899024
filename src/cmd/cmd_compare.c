/* gpuplan compare: one trace, several policies x queue disciplines x
 * seeds, one table with the metrics side by side (mean and spread over
 * the seeds), or the same as JSON.  The runs go to -j worker processes
 * (the what-if sweep engine, whatif/sweep.h); the outputs are in
 * cmd_compare_out.c. */
#include <errno.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare_int.h"
#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/place/policy.h"
#include "gpuplan/report/report.h"

enum { O_POLICIES = 1, O_QUEUES, O_SEEDS, O_JSON, O_TICK, O_PROGRESS, O_QUIET, O_CSV, O_SVG,
       O_SCALE, O_SCALE_MODEL, O_HTML, O_INFLATE };

static const gp_opt compare_opts[] = {
	{ .name = "cluster", .sc = 'c', .key = 'c', .type = GP_OT_STR, .arg = "FILE",
	  .help = "cluster YAML; repeat to compare clusters (default:\nthe bundled example)" },
	{ .name = "policies", .key = O_POLICIES, .type = GP_OT_STR, .arg = "LIST",
	  .help = "placement policies, comma-separated (default bestfit)" },
	{ .name = "queues", .key = O_QUEUES, .type = GP_OT_STR, .arg = "LIST",
	  .help = "fifo, sjf, backfill, priority, las, fifo-skip, fairshare,\ndominant-share, comma-separated (default fifo)" },
	{ .name = "seeds", .key = O_SEEDS, .type = GP_OT_STR, .arg = "LIST",
	  .help = "seeds: '1-10', '42', '1,5,9' or a mix (default 1)" },
	{ .name = "json", .key = O_JSON, .type = GP_OT_FLAG,
	  .help = "print JSON (per configuration: mean, sd, min, max of each\n"
		  "metric, and every seed's simulate summary) instead" },
	{ .name = "csv", .key = O_CSV, .type = GP_OT_STR, .arg = "DIR",
	  .help = "write DIR/runs.csv (one row per run, every metric)" },
	{ .name = "svg", .key = O_SVG, .type = GP_OT_STR, .arg = "DIR",
	  .help = "write DIR/jct-cdf.svg, DIR/queue-delay-cdf.svg, DIR/queue.svg and\n"
		  "DIR/utilization.svg" },
	{ .name = "html", .key = O_HTML, .type = GP_OT_STR, .arg = "FILE",
	  .help = "write one page with the table and the charts\n"
		  "(one line per configuration, first seed)" },
	{ .name = "tick", .key = O_TICK, .type = GP_OT_DURATION, .arg = "S", .min = 1e-3,
	  .max = 1e12, .unit = "s", .help = "timeline interval in seconds (default: about 500 rows)" },
	{ .name = "scale-durations", .key = O_SCALE, .type = GP_OT_STR, .arg = "REF",
	  .help = "read recorded durations as measured on REF (a GPU\n"
		  "model or node type of the first cluster, ':tech' optional)\n"
		  "and scale them to each placement by the perf model" },
	{ .name = "scale-model", .key = O_SCALE_MODEL, .type = GP_OT_STR, .arg = "M",
	  .help = "DL model for jobs without one (default resnet50)" },
	{ .name = "jobs", .sc = 'j', .key = 'j', .type = GP_OT_LONG, .arg = "N", .min = 1,
	  .max = MAX_WORKERS, .what = "a number of worker processes",
	  .help = "runs in N worker processes at once (default: the number\n"
		  "of CPUs; -j 1 runs them in this process); the output is\n"
		  "the same for every N" },
	{ .name = "progress", .key = O_PROGRESS, .type = GP_OT_FLAG,
	  .help = "show progress on standard error even when not a terminal" },
	{ .name = "quiet", .key = O_QUIET, .type = GP_OT_FLAG, .help = "never show progress" },
	{ .name = "inflate", .key = O_INFLATE, .type = GP_OT_STR, .arg = "X",
	  .help = "FGD's workload-inflation experiment: 'compare inflate'" },
	{ 0 },
};

static const gp_opt *const compare_groups[] = { gp_sim_engine_opts, gp_sim_trace_opts, NULL };
static const gp_cmd_desc *const compare_subs[] = { &gp_desc_compare_inflate, NULL };

const gp_cmd_desc gp_desc_compare = {
	.name = "compare",
	.synopsis = "[-c CLUSTER]... TRACE --policies P1,P2,... [--queues Q1,Q2,...]\n"
		    "  [--seeds LIST] [--json] [--csv DIR] [--svg DIR] [--tick S]\n"
		    "  [--html FILE]\n"
		    "  [--scale-durations REF [--scale-model M]] [--format F]\n"
		    "  [--limit N] [--start T] [--end T] [--skip-bad]\n"
		    "  [--preempt M] [--preempt-cost S] [--checkpoint-interval S]\n"
		    "  [--checkpoint-cost S] [--sched-interval S] [--backfill easy|slurm]\n"
		    "  [--bf-interval S]\n"
		    "  [--las-thresholds LIST] [--las-starvation K]\n"
		    "  [--las-preempted entry|first] [--las-demoted keep|yield]\n"
		    "  [--las-tiresias] [--tenants FILE] [--default-tenant NAME]\n"
		    "  [--tenant-column C] [--reclaim on|off] [--fairshare-halflife S]\n"
		    "  [--priority-weights LIST] [--priority-interval S]\n"
		    "  [-j N] [--progress | --quiet]\n"
		    "inflate ...",
	.min_args = 1, .max_args = 1, .operands = "expected one TRACE file",
	.about = "Simulate TRACE once per cluster x policy x queue discipline x seed and\n"
		 "print one table: per configuration, jobs completed, never placed and\n"
		 "failed, queueing delay (mean, p99), JCT (mean, p50, p99), makespan, GPU\n"
		 "utilization, GPU utilization while jobs wait and preemptions.  With several\n"
		 "seeds a cell reads 'mean +-sd' (sample standard deviation over the seeds).\n",
	.opts = compare_opts,
	.groups = compare_groups,
	.more = "The trace and preemption options are those of 'gpuplan simulate'.  Failures,\n"
		"QoS and environments are simulate's only; 'gpuplan whatif' sweeps failure\n"
		"rates and recovery strategies side by side.\n",
	.subs = compare_subs,
};

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

static int compare_opt(cmp *c, gp_opt_state *o, int k)
{
	int rc;

	switch (k) {
	case 'c':
		if (c->ncl >= MAX_CLUSTERS)
			return gp_opt_bad(o, "at most %d clusters", MAX_CLUSTERS);
		c->cpaths[c->ncl++] = o->arg;
		return 0;
	case 'j': c->workers = o->l; return 0;
	case O_POLICIES: c->policies_arg = o->arg; return 0;
	case O_QUEUES: c->queues_arg = o->arg; return 0;
	case O_SEEDS: c->seeds_arg = o->arg; return 0;
	case O_JSON: c->json = 1; return 0;
	case O_CSV:
		c->csv_dir = o->arg;
		return gp_cli_csv_dir("compare", o->arg);
	case O_SVG: c->svg_dir = o->arg; return 0;
	case O_HTML: c->html_path = o->arg; return 0;
	case O_SCALE: c->scale_ref = o->arg; return 0;
	case O_SCALE_MODEL: c->scale_model = o->arg; return 0;
	case O_TICK: c->tick = o->v; return 0;
	case O_PROGRESS: c->show_progress = 1; return 0;
	case O_QUIET: c->show_progress = 0; return 0;
	case O_INFLATE: c->inflate = 1; return 0;
	default:
		if ((rc = gp_cli_sim_engine_opt(o, &c->base)) >= 0)
			return rc;
		rc = gp_cli_sim_trace_opt(o, &c->base.topts);
		return rc < 0 ? 0 : rc;
	}
}

/* Parse the command line into c; > 0 an exit code, 0 go on (c->inflate:
 * the inflation experiment was asked for). */
static int parse_args(cmp *c, int argc, char **argv)
{
	gp_opt_state o;
	int k = 0, rc = 0;

	gp_opt_begin(&o, &gp_desc_compare, argc, argv);
	while (rc == 0 && !c->inflate && (k = gp_opt_next(&o)) > 0)
		rc = compare_opt(c, &o, k);
	if (rc == 0 && !c->inflate && k < 0)
		rc = o.status;
	if (rc == 0 && !c->inflate)
		c->trace = o.args[0];
	gp_opt_end(&o);
	if (rc || c->inflate)
		return rc;
	if (c->scale_model && !c->scale_ref)
		return gp_cli_usage_error("compare", "--scale-model goes with --scale-durations");
	if (!c->ncl)
		c->cpaths[c->ncl++] = NULL;
	c->seeds = gp_xmalloc(MAX_RUNS * sizeof(*c->seeds));
	c->nseeds = gp_cli_parse_seeds(c->seeds_arg, c->seeds, MAX_RUNS);
	if (c->nseeds < 0)
		return gp_cli_usage_error("compare", "--seeds wants a list like '1-10' or '1,5,9', got '%s'",
					  c->seeds_arg);
	return 0;
}

/* Policies, queues and the run count, then the trace and the clusters;
 * output folders exist and are writable before the runs. */
static int load_inputs(cmp *c)
{
	gp_error err = GP_ERROR_INIT;
	int p, q, ci, rc;

	c->pol = split(c->policies_arg, &c->np);
	c->que = split(c->queues_arg, &c->nq);
	if (!c->np || !c->nq)
		return gp_cli_usage_error("compare", "--policies and --queues must name at least one");
	for (p = 0; p < c->np; p++)
		if (!gp_policy_find(c->pol[p]))
			return gp_cli_usage_error("compare", "unknown policy '%s'", c->pol[p]);
	for (q = 0; q < c->nq; q++)
		if (gp_sim_queue_parse(c->que[q]) < 0)
			return gp_cli_usage_error("compare", "unknown queue '%s' (fifo, sjf, backfill, priority, las, fifo-skip, fairshare, dominant-share)",
						  c->que[q]);
	if ((long)c->ncl * c->np * c->nq * c->nseeds > MAX_RUNS)
		return gp_cli_usage_error("compare", "more than %d runs asked for", MAX_RUNS);
	for (ci = 0; ci < c->ncl; ci++)
		gp_cluster_init(&c->cl[ci]);
	gp_joblist_init(&c->jobs);
	c->loaded = 1;          /* clusters and jobs now need releasing */
	if ((rc = gp_cli_sim_load(c->cpaths[0], c->trace, &c->base.topts, &c->cl[0], &c->jobs)) != GP_OK)
		return rc;
	for (ci = 1; ci < c->ncl; ci++)
		if (gp_cluster_load(c->cpaths[ci], &c->cl[ci], &err))
			return gp_cli_report(&err);
	if ((c->csv_dir && gp_cli_make_dirs(c->csv_dir)) || (c->svg_dir && gp_cli_make_dirs(c->svg_dir)) ||
	    (c->html_path && gp_cli_make_parent(c->html_path)))
		return GP_EIO;
	for (ci = 0; ci < c->ncl; ci++)
		c->label[ci] = cluster_label(&c->cl[ci], c->cpaths[ci], c->lbuf[ci], sizeof(c->lbuf[ci]));
	c->ncfg = c->ncl * c->np * c->nq;
	c->nruns = (size_t)c->ncfg * (size_t)c->nseeds;
	return GP_OK;
}

static void run_config(const cmp *c, size_t r, int *ci, int *p, int *q, long *s)
{
	size_t cfgi = r / (size_t)c->nseeds;

	*s = (long)(r % (size_t)c->nseeds);
	*q = (int)(cfgi % (size_t)c->nq);
	*p = (int)(cfgi / (size_t)c->nq % (size_t)c->np);
	*ci = (int)(cfgi / ((size_t)c->nq * (size_t)c->np));
}

/* ---- the runs, on the what-if sweep engine (whatif/sweep.h) ----
 * The options make one what-if spec: its clusters, policies and queues
 * are the axes, its seeds the seeds.  compare numbers its runs cluster x
 * policy x queue x seed (table order), a sweep by its grid order (queue
 * before policy, cluster last); the two maps below go between them. */

/* The sweep's number of compare's run r. */
static size_t sweep_run_of(const cmp *c, size_t r)
{
	gp_whatif_config cfg;
	int ci, p, q;
	long s;

	run_config(c, r, &ci, &p, &q, &s);
	memset(&cfg, 0, sizeof(cfg));
	cfg.v[GP_AX_CLUSTER] = (size_t)ci;
	cfg.v[GP_AX_POLICY] = (size_t)p;
	cfg.v[GP_AX_QUEUE] = (size_t)q;
	return gp_whatif_config_index(&c->spec, &cfg) * (size_t)c->nseeds + (size_t)s;
}

/* compare's number of the sweep's run w. */
static size_t cmp_run_of(const cmp *c, size_t w)
{
	gp_whatif_config cfg;
	size_t ns = (size_t)c->nseeds;

	gp_whatif_config_of(&c->spec, w / ns, &cfg);
	return ((((cfg.v[GP_AX_CLUSTER] * (size_t)c->np + cfg.v[GP_AX_POLICY]) * (size_t)c->nq +
		  cfg.v[GP_AX_QUEUE]) * ns) + w % ns);
}

/* The spec, through the checks of a loaded spec. */
static int build_spec(cmp *c)
{
	gp_whatif_lists l;
	gp_run_desc run = c->base;
	gp_error err = GP_ERROR_INIT;
	uint64_t *seeds = gp_xmalloc((size_t)c->nseeds * sizeof(*seeds));
	const char *paths[MAX_CLUSTERS];
	int ci, rc = GP_OK;
	long k;

	for (k = 0; k < c->nseeds; k++)
		seeds[k] = c->seeds[k];
	for (ci = 0; ci < c->ncl; ci++)
		paths[ci] = c->cpaths[ci] ? c->cpaths[ci] : gp_cli_default_cluster();
	memset(&l, 0, sizeof(l));
	l.origin = "compare";
	l.clusters = paths;
	l.nclusters = (size_t)c->ncl;
	l.trace = c->trace;
	l.policies = (const char *const *)c->pol;
	l.npolicies = (size_t)c->np;
	l.queues = (const char *const *)c->que;
	l.nqueues = (size_t)c->nq;
	l.seeds = seeds;
	l.nseeds = (size_t)c->nseeds;
	run.tick = c->tick;
	l.run = &run;
	if (gp_whatif_spec_build(&l, &c->spec, &err))
		rc = gp_cli_usage_error("compare", "%s", err.msg);
	else
		c->built = 1;
	free(seeds);
	return rc;
}

static char *run_json(const cmp *c, const gp_run *run, int q, long s)
{
	gp_report_ident id;
	json_t *o;
	char *text;

	memset(&id, 0, sizeof(id));
	id.policy = run->cfg.policy->name;
	id.queue = c->que[q];
	id.seed = c->seeds[s];
	id.preempt = gp_run_preempt_name(run);
	gp_cli_sched_of(&c->base, gp_sim_queue_parse(c->que[q]) == GP_SIM_BACKFILL,
			gp_report_sched_estimates(run->jobs), &id.sched);
	id.has_util_queued = 1;
	id.util_queued = gp_metric_util_queued(run->jobs, &run->res);
	id.cl = run->cluster;
	o = gp_report_sim_json(&id, run->jobs, &run->res);
	json_object_del(o, "trace");
	json_object_del(o, "cluster");
	/* 17 digits: the numbers come back bit for bit */
	text = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
	json_decref(o);
	return text;
}

/* What a run leaves besides its metrics, as bytes: the simulate summary
 * (--json) and the first seed's distributions (--svg, --html). */

static void put(gp_sbuf *b, const void *p, size_t n)
{
	if (n)
		gp_sbuf_add(b, p, n);
}

static void put_u64(gp_sbuf *b, uint64_t v)
{
	put(b, &v, sizeof(v));
}

static void put_str(gp_sbuf *b, const char *s)
{
	put_u64(b, s ? strlen(s) + 1 : 0);
	if (s)
		put(b, s, strlen(s) + 1);
}

/* The record hook of the sweep (in whichever process ran the run). */
static int record_run(void *ud, size_t w, const gp_run *run, gp_sbuf *b, gp_error *err)
{
	const cmp *c = ud;
	int ci, p, q;
	long s;
	int32_t hf;

	(void)err;
	run_config(c, cmp_run_of(c, w), &ci, &p, &q, &s);
	hf = (c->svg_dir || c->html_path) && s == 0;
	if (c->json) {
		char *j = run_json(c, run, q, s);

		put_str(b, j);
		free(j);
	} else {
		put_str(b, NULL);
	}
	put(b, &hf, sizeof(hf));
	if (hf) {
		first_run f;

		memset(&f, 0, sizeof(f));
		cmp_keep_first(&f, run->jobs, &run->res);
		put_u64(b, f.ncdf);
		put(b, f.cdf_x, f.ncdf * sizeof(double));
		put(b, f.cdf_y, f.ncdf * sizeof(double));
		put(b, f.qd_x, f.ncdf * sizeof(double));
		put_u64(b, f.nt);
		put(b, f.t, f.nt * sizeof(double));
		put(b, f.queued, f.nt * sizeof(double));
		put(b, f.util, f.nt * sizeof(double));
		cmp_first_release(&f);
	}
	return GP_OK;
}

typedef struct cursor {
	const char *p;
	size_t left;
} cursor;

static int get(cursor *k, void *dst, size_t n)
{
	if (n > k->left)
		return -1;
	if (n)
		memcpy(dst, k->p, n);
	k->p += n;
	k->left -= n;
	return 0;
}

static int get_str(cursor *k, char **out)
{
	uint64_t n;

	*out = NULL;
	if (get(k, &n, sizeof(n)) || n > k->left)
		return -1;
	if (!n)
		return 0;
	*out = gp_xmalloc((size_t)n);
	return get(k, *out, (size_t)n) || (*out)[n - 1] != '\0' ? -1 : 0;
}

static int get_arr(cursor *k, double **out, size_t n)
{
	if (n > k->left / sizeof(double))
		return -1;
	*out = gp_xmalloc((n + 1) * sizeof(double));
	return get(k, *out, n * sizeof(double));
}

/* A run's record into o; 0 when whole. */
static int decode(cursor *k, run_out *o)
{
	uint64_t n;
	int32_t hf;

	if (get_str(k, &o->json) || get(k, &hf, sizeof(hf)))
		return -1;
	if (!hf)
		return 0;
	o->has_first = 1;
	if (get(k, &n, sizeof(n)) || get_arr(k, &o->first.cdf_x, (size_t)n) ||
	    get_arr(k, &o->first.cdf_y, (size_t)n) || get_arr(k, &o->first.qd_x, (size_t)n))
		return -1;
	o->first.ncdf = (size_t)n;
	if (get(k, &n, sizeof(n)) || get_arr(k, &o->first.t, (size_t)n) ||
	    get_arr(k, &o->first.queued, (size_t)n) || get_arr(k, &o->first.util, (size_t)n))
		return -1;
	o->first.nt = (size_t)n;
	return 0;
}

static void run_out_release(run_out *o)
{
	free(o->json);
	if (o->has_first)
		cmp_first_release(&o->first);
	memset(o, 0, sizeof(*o));
}

/* Run r's runs.csv row from its metrics. */
static char *csv_row(const cmp *c, size_t r, const double *m)
{
	gp_sbuf row;
	char nb[64];
	int ci, p, q, k;
	long s;

	run_config(c, r, &ci, &p, &q, &s);
	gp_sbuf_init(&row);
	gp_csv_field(&row, c->cpaths[ci] ? c->cpaths[ci] : GP_BUNDLED_CLUSTER_LABEL);
	gp_sbuf_addf(&row, ",%s,%s,%llu", c->pol[p], c->que[q], c->seeds[s]);
	for (k = 0; k < M_COUNT; k++)
		gp_sbuf_addf(&row, ",%s", gp_report_num(nb, sizeof(nb), m[k], k >= M_UTIL ? 6 : 3));
	gp_sbuf_adds(&row, "\n");
	return gp_sbuf_detach(&row);
}

/* Run r's results into the tables (in run order); takes o's memory. */
static void take_run(cmp *c, size_t r, run_out *o)
{
	size_t cfgi = r / (size_t)c->nseeds, s = r % (size_t)c->nseeds;
	int k;

	for (k = 0; k < M_COUNT; k++)
		c->values[(cfgi * M_COUNT + (size_t)k) * (size_t)c->nseeds + s] = o->m[k];
	/* only the first seed's (a seed-free configuration's other seeds
	 * carry its first run's record, charts and all) */
	if (o->has_first && s == 0) {
		c->first[cfgi] = o->first;
		o->has_first = 0;
	}
	if (c->csv_dir) {
		char *row = csv_row(c, r, o->m);

		gp_sbuf_adds(&c->csv, row);
		free(row);
	}
	if (o->json) {
		json_t *j = json_loads(o->json, 0, NULL);

		/* a seed-free configuration's record is its first run's: the
		 * summary names this run's seed, as it would had it run */
		if (json_is_object(j))
			json_object_set_new(j, "seed", json_integer((json_int_t)c->seeds[s]));
		json_array_append_new(c->per_seed[cfgi], j ? j : json_null());
	}
	run_out_release(o);
}

static void progress_next(cmp *c, size_t r)
{
	int ci, p, q;
	long s;
	char text[256];

	run_config(c, r, &ci, &p, &q, &s);
	snprintf(text, sizeof(text), "%zu of %zu runs done, next %s%s%s/%s seed %llu", r, c->nruns,
		 c->ncl > 1 ? c->label[ci] : "", c->ncl > 1 ? "/" : "", c->pol[p], c->que[q],
		 c->seeds[s]);
	gp_cli_meter_show(&c->meter, r, c->nruns, text);
}

/* The results as they come (completion order); taken in compare's run
 * order, so that the tables are those of one process doing the runs in
 * order. */
typedef struct taker {
	cmp *c;
	run_out *outs;          /* by compare's run number */
	unsigned char *have;
	size_t next, done;
	int rc;
} taker;

static void run_done(void *ud, size_t w, const gp_whatif_result *res, const char *rec, size_t len)
{
	taker *t = ud;
	cmp *c = t->c;
	size_t r = cmp_run_of(c, w);
	cursor k = { rec, len };
	run_out *o = &t->outs[r];
	int i;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < M_COUNT; i++)
		o->m[i] = res->m[cmp_metric[i]];
	if (decode(&k, o)) {
		fprintf(stderr, "gpuplan: compare: garbled result of run %zu from a worker process\n",
			r + 1);
		t->rc = GP_EIO;
	}
	t->have[r] = 1;
	t->done++;
	for (; t->rc == GP_OK && t->next < c->nruns && t->have[t->next]; t->next++)
		take_run(c, t->next, &t->outs[t->next]);
	if (!c->show_progress)
		return;
	if (c->workers > 1) {
		char text[96];

		snprintf(text, sizeof(text), "%zu of %zu runs done (%ld processes)", t->done, c->nruns,
			 c->workers);
		gp_cli_meter_show(&c->meter, t->done, c->nruns, text);
	} else if (t->done < c->nruns) {
		progress_next(c, t->done);
	}
}

/* Every configuration's first seed before the other seeds (else in
 * compare's order): a configuration whose first run draws nothing from
 * its seeded generators then has its other seeds answered by the pool
 * (sweep.h) instead of run at the same time in other workers.  One
 * process needs no reordering: each configuration's first seed comes
 * first anyway. */
static void firsts_first(const cmp *c, size_t *runs)
{
	size_t r, k = 0, ns = (size_t)c->nseeds;

	for (r = 0; r < c->nruns; r += ns)
		runs[k++] = sweep_run_of(c, r);
	for (r = 0; r < c->nruns; r++)
		if (r % ns)
			runs[k++] = sweep_run_of(c, r);
}

/* Every run: one pool of c->workers processes (or this process), the
 * runs handed out in compare's order. */
static int run_all(cmp *c)
{
	/* the inputs as loaded and checked here; workers share them */
	gp_whatif_hooks hooks = { c->cl, &c->jobs, &c->scale, record_run, c };
	gp_error err = GP_ERROR_INIT;
	gp_whatif_pool *pool;
	taker t;
	size_t *runs, r;
	int rc;

	pool = gp_whatif_pool_new_with(&c->spec, &hooks, (int)c->workers, &err);
	if (!pool)
		return gp_cli_report(&err);
	memset(&t, 0, sizeof(t));
	t.c = c;
	t.outs = gp_xcalloc(c->nruns, sizeof(*t.outs));
	t.have = gp_xcalloc(c->nruns, 1);
	runs = gp_xmalloc(c->nruns * sizeof(*runs));
	for (r = 0; r < c->nruns; r++)
		runs[r] = sweep_run_of(c, r);
	if (c->workers > 1 && c->nseeds > 1)
		firsts_first(c, runs);
	if (c->show_progress && c->workers <= 1)
		progress_next(c, 0);
	rc = gp_whatif_pool_run_records(pool, runs, c->nruns, run_done, &t, NULL, NULL, &err);
	if (rc != GP_OK)
		rc = gp_cli_report(&err);
	else
		rc = t.rc;
	c->reused = gp_whatif_pool_reused(pool);
	gp_whatif_pool_free(pool);
	for (r = 0; r < c->nruns; r++)
		run_out_release(&t.outs[r]);
	free(t.outs);
	free(t.have);
	free(runs);
	return rc;
}

/* ---- the command ---- */

/* Result tables, the CSV head, and the duration scaling (one reference
 * for every cluster: a node type REF names one of the first cluster). */
static int prepare(cmp *c)
{
	gp_error err = GP_ERROR_INIT;
	int k, i;

	c->values = gp_xmalloc((size_t)c->ncfg * M_COUNT * (size_t)c->nseeds * sizeof(*c->values));
	if (c->svg_dir || c->html_path)
		c->first = gp_xcalloc((size_t)c->ncfg, sizeof(*c->first));
	if (c->json) {
		c->per_seed = gp_xcalloc((size_t)c->ncfg, sizeof(*c->per_seed));
		for (i = 0; i < c->ncfg; i++)
			c->per_seed[i] = json_array();
	}
	if (c->csv_dir) {
		gp_sbuf_adds(&c->csv, "cluster,policy,queue,seed");
		for (k = 0; k < M_COUNT; k++)
			gp_sbuf_addf(&c->csv, ",%s%s", cmp_metric_key(k),
				     k >= M_WAIT_MEAN && k <= M_MAKESPAN ? "_s" : "");
		gp_sbuf_adds(&c->csv, "\n");
	}
	if (!c->scale_ref)
		return GP_OK;
	c->scale = gp_scale_new(c->scale_ref, c->scale_model, &c->cl[0], &c->jobs, &err);
	if (!c->scale)
		return err.status == GP_EUSAGE ? gp_cli_usage_error("compare", "%s", err.msg) :
						 gp_cli_report(&err);
	return GP_OK;
}

static void cmp_release(cmp *c)
{
	int i;

	if (c->first) {
		for (i = 0; i < c->ncfg; i++)
			cmp_first_release(&c->first[i]);
		free(c->first);
	}
	if (c->per_seed) {
		for (i = 0; i < c->ncfg; i++)
			json_decref(c->per_seed[i]);
		free(c->per_seed);
	}
	if (c->built)
		gp_whatif_spec_release(&c->spec);
	gp_scale_free(c->scale);
	gp_sbuf_release(&c->csv);
	free(c->values);
	free_list(c->pol);
	free_list(c->que);
	free(c->seeds);
	if (c->loaded) {
		gp_joblist_release(&c->jobs);
		for (i = 0; i < c->ncl; i++)
			gp_cluster_release(&c->cl[i]);
	}
}

int cmd_compare(int argc, char **argv)
{
	cmp *c;
	int rc;

	if (argc >= 2 && !strcmp(argv[1], "inflate"))
		return gp_cmd_compare_inflate(argc - 1, argv + 1);
	if (gp_cli_old_mode(argc, argv, "inflate"))
		return gp_cmd_compare_inflate(argc, argv);
	c = gp_xcalloc(1, sizeof(*c));
	c->policies_arg = "bestfit";
	c->queues_arg = "fifo";
	c->seeds_arg = "1";
	c->show_progress = -1;
	gp_sbuf_init(&c->csv);
	gp_run_desc_init(&c->base);
	rc = parse_args(c, argc, argv);
	if (rc == 0 && c->inflate) {
		cmp_release(c);
		free(c);
		return gp_cmd_compare_inflate(argc, argv);
	}
	if (rc == 0)
		rc = load_inputs(c);
	if (rc == 0)
		rc = prepare(c);
	if (rc == 0) {
		if (c->show_progress < 0)
			c->show_progress = gp_cli_stderr_is_tty();
		if (!c->workers) {
			long n = sysconf(_SC_NPROCESSORS_ONLN);

			c->workers = n < 1 ? 1 : n > MAX_WORKERS ? MAX_WORKERS : n;
		}
		if ((size_t)c->workers > c->nruns)
			c->workers = (long)c->nruns;
		if (c->show_progress)
			gp_cli_meter_start(&c->meter, "compare");
		rc = build_spec(c);
		if (rc == 0)
			rc = run_all(c);
		if (c->show_progress && rc == 0 && (c->workers <= 1 || c->reused)) {
			char text[96];
			int n = snprintf(text, sizeof(text), "%zu of %zu runs done", c->nruns, c->nruns);

			if (c->reused)
				snprintf(text + n, sizeof(text) - (size_t)n,
					 " (%zu simulated: the other seeds drew nothing)",
					 c->nruns - c->reused);
			gp_cli_meter_show(&c->meter, c->nruns, c->nruns, text);
		}
		if (c->show_progress)
			gp_cli_meter_end(&c->meter);
	}
	if (rc == 0 && (c->csv_dir || c->svg_dir || c->html_path))
		rc = cmp_write_files(c);
	if (rc == 0 && c->json)
		cmp_print_json(c);
	else if (rc == 0)
		cmp_print_table(c);
	cmp_release(c);
	free(c);
	return rc < 0 ? GP_OK : rc;
}
