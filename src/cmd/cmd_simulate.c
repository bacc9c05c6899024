/* gpuplan simulate: replay a job trace on a cluster and report queueing
 * delay, JCT, makespan and utilization (text, JSON, CSV, SVG).  Also the
 * helpers `compare` shares: trace options, loading, atomic multi-file
 * output. */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "gpuplan/report/hist_report.h"
#include "gpuplan/sim/hist_check.h"
#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/model/cluster.h"
#include "gpuplan/place/policy.h"
#include "gpuplan/report/html.h"
#include "gpuplan/report/report.h"
#include "gpuplan/sim/sim.h"
#include "gpuplan/io/trace.h"
#include "gpuplan/util/util.h"
#include "gpuplan/model/memory.h"
#include "gpuplan/run/scale.h"

const char gp_usage_simulate[] =
	"usage: gpuplan simulate [-c CLUSTER] TRACE [--format F] [--policy P]\n"
	"                        [--queue fifo|sjf|backfill|priority|las|fifo-skip]\n"
	"                        [--backfill-depth N] [--seed N] [--tick S]\n"
	"                        [--preempt off|class|priority] [--preempt-cost S]\n"
	"                        [--checkpoint-interval S] [--checkpoint-cost S]\n"
	"                        [--las-thresholds LIST] [--las-starvation K]\n"
	"                        [--las-preempted entry|first] [--las-demoted keep|yield]\n"
	"                        [--las-tiresias] [--tenants FILE] [--default-tenant NAME]\n"
	"                        [--failures FILE] [--mtbf-node H] [--mtbf-gpu H]\n"
	"                        [--weibull-shape K] [--failure-model FILE]\n"
	"                        [--repair H] [--failure-seed N] [--heartbeat-period S]\n"
	"                        [--heartbeat-misses K] [--restart-cost S]\n"
	"                        [--recovery replace|restart|shrink|fail] [--events FILE]\n"
	"                        [--scale-durations REF [--scale-model M]]\n"
	"                        [--exclusive] [--interference] [--util-error PP]\n"
	"                        [--qos-tick S [--qos-slack F] [--qos-min-share F]]\n"
	"                        [--ls-fraction F] [--predict-models DIR]\n"
	"                        [--limit N] [--start T] [--end T] [--skip-bad]\n"
	"                        [--json FILE] [--csv DIR] [--svg DIR] [--html FILE]\n"
	"                        [--progress | --quiet] [--engine-stats]\n"
	"\n"
	"Replay the jobs of TRACE on CLUSTER (default: the bundled example) in a\n"
	"discrete-event simulation and print a summary: jobs completed / failed /\n"
	"never placed, queueing delay and JCT (mean, p50, p90, p99, max), makespan\n"
	"and GPU utilization, for all jobs and per class (LS, BE).\n"
	"\n"
	"  -c, --cluster FILE  cluster YAML\n"
	"  --format F          trace dialect (default: detected from the header)\n"
	"  --policy P          placement policy (default bestfit)\n"
	"  --queue Q           fifo (default), sjf, backfill (EASY), priority (higher\n"
	"                      job priority first) or las (Tiresias' discretized\n"
	"                      2D least-attained-service, preemptive)\n"
	"  --seed N            seed of the policy's random stream (default 1)\n"
	"  --tick S            timeline interval in seconds (default: about 500 rows)\n"
	"  --backfill-depth N  backfill: examine at most N queued jobs behind the\n"
	"                      head per pass (default 0: all, exact EASY)\n"
	GP_SIM_ENGINE_USAGE
	GP_SIM_QOS_USAGE
	GP_SIM_FAILURE_USAGE
	"  --scale-durations REF  recorded durations were measured on REF (a GPU model\n"
	"                      or node type, ':tech' optional, e.g. V100-SXM2-16GB:ib-edr):\n"
	"                      scale each to its placement by the perf model\n"
	"  --scale-model M     DL model of jobs without one (default resnet50)\n"
	"  --memory-margin PCT size the GPU memory of jobs that name a model but give\n"
	"                      none by the memory estimate plus PCT % (0 allowed)\n"
	"  --limit N           only the first N jobs by submit time\n"
	"  --start T, --end T  only jobs submitted in [T, T') seconds from trace start\n"
	"  --skip-bad          count and skip bad trace rows instead of failing\n"
	"  --json FILE         write the summary as JSON ('-' for standard output)\n"
	"  --csv DIR           write DIR/jobs.csv and DIR/timeline.csv\n"
	"  --svg DIR           write DIR/utilization.svg, DIR/queue.svg, DIR/jct-cdf.svg,\n"
	"                      DIR/queue-delay-cdf.svg\n"
	"  --html FILE         write one page with the summary, tables and charts\n"
	"  --progress          show progress on standard error even when not a terminal\n"
	"  --quiet             never show progress\n"
	"  --engine-stats      print the engine's counters on standard error (events,\n"
	"                      batches, policy calls, backfilled jobs; for benchmarks)\n"
	"  --inflate X         FGD's workload-inflation experiment (see gpuplan(1))\n"
	"\n"
	"usage: gpuplan simulate [-c CLUSTER] --envs MODE[,MODE...] TRACE\n"
	"                        [--environments ENVS.yaml] [--task-threshold K]\n"
	"                        [--on-bind-failure wait|fail] [--heartbeat-period S]\n"
	"                        [--heartbeat-timeout S] [--client-failures RATE] [--seed N]\n"
	"                        [--max-gpus N] [--tick-seconds S] [--json FILE] [--csv DIR]\n"
	"                        [--svg DIR]\n"
	"\n"
	"Development environments with GPU quotas (quota binding).  MODE is static (an\n"
	"environment holds its reserved GPUs for its lifetime), bind-at-start (a GPU\n"
	"is bound when a task starts, shared up to K tasks, released at its end) or\n"
	"idle-timeout:MIN (held GPUs go back after MIN idle minutes and come back at\n"
	"the next task).  TRACE is a notebook workload template (JSON, Adobe/NotebookOS)\n"
	"or a job trace with an environment column plus --environments.  Reports GPUs\n"
	"reserved, bound and busy, the peak bound and GPUs saved against static,\n"
	"rebinds, bind failures by reason, task waits and heartbeat reclaims.\n"
	"\n"
	"  --task-threshold K  tasks sharing one GPU at most (default 4)\n"
	"  --on-bind-failure   wait (default) or fail a task that cannot be bound\n"
	"  --heartbeat-period S, --heartbeat-timeout S  (defaults 1 and 5 seconds)\n"
	"  --client-failures R client deaths per environment-hour (default 0)\n"
	"  --max-gpus N        use only the cluster's first N GPUs (sizing)\n"
	"  --tick-seconds S    length of a template tick (default 60)\n"
	"  --json FILE         the report as JSON ('-' for standard output)\n"
	"  --csv DIR           DIR/environments-timeline.csv (GPUs bound per interval)\n"
	"  --svg DIR           DIR/environments.svg (GPUs bound over time, per mode)\n";

/* ---- shared with compare ---- */

int gp_cli_sim_trace_opt(const char *cmd, int code, const char *arg, char **argv,
			 gp_trace_opts *o)
{
	long l;
	double d;

	switch (code) {
	case GP_OPT_FORMAT:
		o->format = arg;
		return 0;
	case GP_OPT_LIMIT:
		if (gp_parse_long(arg, 1, 100000000L, &l))
			return gp_cli_usage_error(cmd, "--limit wants a positive number of jobs, got '%s'", arg);
		o->limit = (size_t)l;
		return 0;
	case GP_OPT_START:
	case GP_OPT_END:
		if (gp_parse_double(arg, 0, 1e12, &d))
			return gp_cli_usage_error(cmd, "--%s wants seconds from trace start, got '%s'",
						  code == GP_OPT_START ? "start" : "end", arg);
		if (code == GP_OPT_START)
			o->start = d;
		else
			o->end = d;
		return 0;
	case GP_OPT_SKIP_BAD:
		o->skip_bad = 1;
		return 0;
	case ':':
		return gp_cli_usage_error(cmd, "option '%s' needs a value", argv[optind - 1]);
	}
	return gp_cli_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
}

static int parse_thresholds(const char *arg, gp_run_desc *d)
{
	char *copy = gp_xstrdup(arg), *tok, *save = NULL;
	double t[GP_SIM_LAS_MAX_QUEUES - 1];
	int n = 0, rc = 0;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		double v;

		if (n >= GP_SIM_LAS_MAX_QUEUES - 1 || gp_parse_double(tok, 1e-9, 1e15, &v) ||
		    (n && !(v > t[n - 1]))) {
			rc = -1;
			break;
		}
		t[n++] = v;
	}
	free(copy);
	if (rc || !n)
		return -1;
	memcpy(d->las_thresholds, t, (size_t)n * sizeof(t[0]));
	d->las_nthresholds = n;
	return 0;
}

int gp_cli_sim_engine_opt(const char *cmd, int code, const char *arg, gp_run_desc *e)
{
	double *d = NULL;
	const char *name = "";

	switch (code) {
	case GP_OPT_PREEMPT:
		e->preempt = gp_sim_preempt_parse(arg);
		if (e->preempt < 0)
			return gp_cli_usage_error(cmd, "unknown --preempt '%s' (off, class, priority)", arg);
		return 0;
	case GP_OPT_LAS_THRESHOLDS:
		if (parse_thresholds(arg, e))
			return gp_cli_usage_error(cmd, "--las-thresholds wants up to %d ascending GPU-seconds "
						  "> 0, comma-separated, got '%s'", GP_SIM_LAS_MAX_QUEUES - 1,
						  arg);
		return 0;
	case GP_OPT_LAS_PREEMPTED:
		if (strcmp(arg, "entry") && strcmp(arg, "first"))
			return gp_cli_usage_error(cmd, "unknown --las-preempted '%s' (entry, first)", arg);
		e->las_preempted_first = !strcmp(arg, "first");
		return 0;
	case GP_OPT_LAS_DEMOTED:
		if (strcmp(arg, "keep") && strcmp(arg, "yield"))
			return gp_cli_usage_error(cmd, "unknown --las-demoted '%s' (keep, yield)", arg);
		e->las_demoted_yield = !strcmp(arg, "yield");
		return 0;
	case GP_OPT_LAS_TIRESIAS:
		e->las_preempted_first = e->las_demoted_yield = 1;
		return 0;
	case GP_OPT_TENANTS:
		e->tenants = arg;
		return 0;
	case GP_OPT_DEFAULT_TENANT:
		e->default_tenant = arg;
		return 0;
	case GP_OPT_PREEMPT_COST: d = &e->preempt_cost; name = "preempt-cost"; break;
	case GP_OPT_CKPT_INTERVAL: d = &e->checkpoint_interval; name = "checkpoint-interval"; break;
	case GP_OPT_CKPT_COST: d = &e->checkpoint_cost; name = "checkpoint-cost"; break;
	case GP_OPT_LAS_STARVATION: d = &e->las_starvation; name = "las-starvation"; break;
	case GP_OPT_SCHED_INTERVAL: d = &e->sched_interval; name = "sched-interval"; break;
	default:
		return -1;
	}
	if (gp_parse_double(arg, 0, 1e12, d))
		return gp_cli_usage_error(cmd, "--%s wants a number >= 0, got '%s'", name, arg);
	return 0;
}

int gp_cli_run_error(const char *cmd, const gp_error *err)
{
	return err->status == GP_EUSAGE ? gp_cli_usage_error(cmd, "%s", err->msg) : gp_cli_report(err);
}

int gp_cli_sim_load(const char *cluster_path, const char *trace_path,
		    const gp_trace_opts *o, gp_cluster *c, gp_joblist *jobs)
{
	gp_error err = GP_ERROR_INIT;

	gp_joblist_init(jobs);
	if (gp_cluster_load(cluster_path ? cluster_path : gp_cli_default_cluster(), c, &err))
		return gp_cli_report(&err);
	if (gp_trace_load(trace_path, o, jobs, &err)) {
		gp_cluster_release(c);
		return gp_cli_report(&err);
	}
	for (size_t i = 0; i < jobs->n; i++) {
		int rc = gp_cli_check_job_models(c, &jobs->jobs[i], trace_path);

		if (rc) {
			gp_joblist_release(jobs);
			gp_cluster_release(c);
			return rc;
		}
	}
	return GP_OK;
}


/* ---- simulate ---- */

static void progress(void *ud, size_t done, size_t total)
{
	gp_cli_meter *m = ud;
	char text[96];

	snprintf(text, sizeof(text), "%zu of %zu jobs settled", done, total);
	gp_cli_meter_show(m, done, total, text);
	if (done >= total)
		gp_cli_meter_end(m);
}

/* DIR/NAME into the output set. */
static void take_in(gp_cli_outset *o, const char *dir, const char *name, gp_sbuf *sb)
{
	char *path = gp_xasprintf("%s/%s", dir, name);

	gp_cli_outset_take(o, path, sb);
	free(path);
}

enum { O_DEPTH = 100, O_POLICY = 1, O_QUEUE, O_SEED, O_TICK, O_JSON, O_CSV, O_SVG, O_PROGRESS, O_QUIET,
       O_INFLATE, O_HELP, O_SCALE_DURATIONS = 200, O_SCALE_MODEL, O_MEMORY_MARGIN,
       O_STATS, O_HTML };

static const struct option sim_opts[] = {
	{ "cluster", required_argument, NULL, 'c' },
	{ "policy", required_argument, NULL, O_POLICY },
	{ "queue", required_argument, NULL, O_QUEUE },
	{ "seed", required_argument, NULL, O_SEED },
	{ "tick", required_argument, NULL, O_TICK },
	{ "backfill-depth", required_argument, NULL, O_DEPTH },
	{ "json", required_argument, NULL, O_JSON },
	{ "csv", required_argument, NULL, O_CSV },
	{ "svg", required_argument, NULL, O_SVG },
	{ "html", required_argument, NULL, O_HTML },
	{ "progress", no_argument, NULL, O_PROGRESS },
	{ "quiet", no_argument, NULL, O_QUIET },
	{ "engine-stats", no_argument, NULL, O_STATS },
	{ "inflate", required_argument, NULL, O_INFLATE },
	{ "help", no_argument, NULL, O_HELP },
	{ "scale-durations", required_argument, NULL, O_SCALE_DURATIONS },
	{ "scale-model", required_argument, NULL, O_SCALE_MODEL },
	{ "memory-margin", required_argument, NULL, O_MEMORY_MARGIN },
	GP_SIM_TRACE_OPTIONS,
	GP_SIM_ENGINE_OPTIONS,
	GP_SIM_QOS_OPTIONS,
	GP_SIM_FAILURE_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

/* simulate's command line (trace mode). */
typedef struct sim_args {
	gp_run_desc d;
	int show_progress, help, stats, fail_any;
	gp_cli_meter meter;
} sim_args;

/* An option the shared option groups (QoS, engine, failures, trace) take:
 * its status; -1 when none of them knows it. */
static int group_opt(sim_args *a, int c, char **argv)
{
	int rc;

	if ((rc = gp_cli_qos_opt("simulate", c, optarg, &a->d.qos)) >= 0)
		return rc;
	if ((rc = gp_cli_sim_engine_opt("simulate", c, optarg, &a->d)) >= 0)
		return rc;
	if ((rc = gp_cli_fail_opt("simulate", &a->d.fail, &a->d.events, &a->fail_any, c, optarg)) >= 0)
		return rc;
	return gp_cli_sim_trace_opt("simulate", c, optarg, argv, &a->d.topts);
}

/* The command line into a->d; a->help when the usage was asked for. */
static int parse_args(int argc, char **argv, sim_args *a)
{
	gp_run_desc *d = &a->d;
	int c, rc;
	long l;

	memset(a, 0, sizeof(*a));
	gp_run_desc_init(d);
	a->show_progress = -1;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":c:h", sim_opts, NULL)) != -1) {
		switch (c) {
		case 'c': d->cluster = optarg; break;
		case O_POLICY: d->policy = optarg; break;
		case O_QUEUE:
			d->queue = gp_sim_queue_parse(optarg);
			if (d->queue < 0)
				return gp_cli_usage_error("simulate",
							  "unknown queue '%s' (fifo, sjf, backfill, priority, las, fifo-skip)",
							  optarg);
			break;
		case O_SEED:
			if (gp_parse_long(optarg, 0, 2147483647L, &l))
				return gp_cli_usage_error("simulate", "--seed wants a number 0..2147483647, got '%s'",
							  optarg);
			d->seed = (uint64_t)l;
			break;
		case O_TICK:
			if (gp_parse_double(optarg, 1e-3, 1e12, &d->tick))
				return gp_cli_usage_error("simulate", "--tick wants seconds > 0, got '%s'", optarg);
			break;
		case O_DEPTH:
			if (gp_parse_long(optarg, 0, 100000000L, &l))
				return gp_cli_usage_error("simulate", "--backfill-depth wants a number >= 0, got '%s'",
							  optarg);
			d->backfill_depth = (size_t)l;
			break;
		case O_JSON: d->json = optarg; break;
		case O_CSV:
			if ((rc = gp_cli_csv_dir("simulate", optarg)))
				return rc;
			d->csv_dir = optarg;
			break;
		case O_SVG: d->svg_dir = optarg; break;
		case O_HTML: d->html = optarg; break;
		case O_PROGRESS: a->show_progress = 1; break;
		case O_QUIET: a->show_progress = 0; break;
		case O_STATS: a->stats = 1; break;
		case O_INFLATE: /* handled before getopt; kept so that it parses */
			break;
		case O_SCALE_DURATIONS: d->scale_ref = optarg; break;
		case O_SCALE_MODEL: d->scale_model = optarg; break;
		case O_MEMORY_MARGIN:
			if (gp_parse_double(optarg, 0, GP_MEM_MARGIN_MAX * 100, &d->mem_margin))
				return gp_cli_usage_error("simulate", "--memory-margin needs a percentage "
							  "in 0..%g, not '%s'", GP_MEM_MARGIN_MAX * 100,
							  optarg);
			d->mem_margin /= 100;
			break;
		case 'h':
		case O_HELP: a->help = 1; return GP_OK;
		default:
			if ((rc = group_opt(a, c, argv)))
				return rc;
			break;
		}
	}
	if (optind != argc - 1)
		return gp_cli_usage_error("simulate", optind >= argc ? "expected a TRACE file"
						     : "expected one TRACE file, got '%s' too",
					  optind < argc - 1 ? argv[optind + 1] : "");
	d->trace = argv[optind];
	return GP_OK;
}

/* What the options say together, checked before anything is loaded. */
static int check_args(sim_args *a)
{
	gp_run_desc *d = &a->d;
	int rc;

	if (!gp_policy_find(d->policy))
		return gp_cli_usage_error("simulate", "unknown policy '%s'", d->policy);
	if ((rc = gp_cli_fail_check("simulate", &d->fail, d->events, a->fail_any)))
		return rc;
	if (d->queue == GP_SIM_LAS && d->qos.cfg.tick > 0)
		return gp_cli_usage_error("simulate", "--qos-tick does not go with --queue las");
	if (d->scale_model && !d->scale_ref)
		return gp_cli_usage_error("simulate", "--scale-model goes with --scale-durations");
	if (!d->qos.models_dir)
		d->qos.models_dir = gp_cli_models_dir();
	if (a->show_progress < 0)
		a->show_progress = gp_cli_stderr_is_tty();
	if (a->show_progress) {
		gp_cli_meter_start(&a->meter, "simulate");
		d->progress = progress;
		d->progress_ud = &a->meter;
	}
	return GP_OK;
}

/* --engine-stats: the engine's counters, for the benchmarks. */
static void engine_stats(const gp_sim_result *r, size_t njobs)
{
	fprintf(stderr, "engine: %zu events, %zu batches, %zu policy calls (%.2f per job), "
		"%zu backfilled, peak %zu running, %zu queued\n", r->events, r->batches,
		r->policy_calls, njobs ? (double)r->policy_calls / (double)njobs : 0.0, r->backfilled,
		r->peak_running, r->peak_queued);
}

static void run_ident(const gp_run *r, gp_report_ident *id)
{
	const gp_run_desc *d = r->d;

	memset(id, 0, sizeof(*id));
	id->trace = d->trace;
	id->trace_format = r->jobs->format;
	id->trace_rows_skipped = r->jobs->skipped;
	id->cluster = d->cluster ? d->cluster : GP_BUNDLED_CLUSTER_LABEL;
	id->cluster_nodes = r->cluster->nnodes;
	id->cluster_gpus = r->cluster->ngpus;
	id->policy = r->cfg.policy->name;
	id->queue = gp_sim_queue_name(d->queue);
	id->seed = d->seed;
	id->preempt = gp_run_preempt_name(r);
}

/* The run as JSON, with the QoS and failure parts. */
static json_t *run_json(const gp_run *r, const gp_report_ident *id)
{
	json_t *o = gp_report_sim_json(id, r->jobs, &r->res);

	gp_cli_qos_json(r, o);
	gp_cli_fail_json(r, o);
	return o;
}

/* --json FILE, --csv DIR, --svg DIR and --failure-events: all or none. */
static int write_outputs(const gp_run *r, const gp_report_ident *id)
{
	const gp_run_desc *d = r->d;
	const gp_sim_result *res = &r->res;
	gp_cli_outset out = { 0 };
	gp_sbuf sb;
	int rc = GP_OK;

	if (d->csv_dir)
		rc = gp_cli_make_dirs(d->csv_dir);
	if (rc == GP_OK && d->svg_dir)
		rc = gp_cli_make_dirs(d->svg_dir);
	if (rc == GP_OK && d->json && strcmp(d->json, "-")) {
		json_t *o = run_json(r, id);
		char *s = json_dumps(o, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(15));

		gp_sbuf_init(&sb);
		gp_sbuf_adds(&sb, s);
		gp_sbuf_adds(&sb, "\n");
		free(s);
		json_decref(o);
		gp_cli_outset_take(&out, d->json, &sb);
	}
	if (rc == GP_OK && d->csv_dir) {
		gp_sbuf_init(&sb);
		gp_cli_fail_jobs_csv(r, &sb);
		take_in(&out, d->csv_dir, "jobs.csv", &sb);
		gp_sbuf_init(&sb);
		gp_report_sim_timeline_csv(res, &sb);
		take_in(&out, d->csv_dir, "timeline.csv", &sb);
	}
	if (rc == GP_OK && d->svg_dir) {
		size_t nt;
		double *t = gp_cli_fail_times(r, &nt);

		gp_sbuf_init(&sb);
		gp_report_sim_svg_utilization_marked(id, res, t, nt, "failures", &sb);
		free(t);
		take_in(&out, d->svg_dir, "utilization.svg", &sb);
		gp_sbuf_init(&sb);
		gp_report_sim_svg_queue(id, res, &sb);
		take_in(&out, d->svg_dir, "queue.svg", &sb);
		gp_sbuf_init(&sb);
		gp_report_sim_svg_jct_cdf(id, r->jobs, res, &sb);
		take_in(&out, d->svg_dir, "jct-cdf.svg", &sb);
		gp_sbuf_init(&sb);
		gp_report_sim_svg_queue_cdf(id, r->jobs, res, &sb);
		take_in(&out, d->svg_dir, "queue-delay-cdf.svg", &sb);
		if (gp_hist_check_has(r->jobs)) {
			gp_sbuf_init(&sb);
			gp_report_hist_svg(id, r->jobs, res, &sb);
			take_in(&out, d->svg_dir, "queue-delay-recorded.svg", &sb);
		}
	}
	if (rc == GP_OK && d->html) {
		gp_sbuf qos, fail;
		gp_html_extra ex[2];
		size_t nx = 0, nt;
		double *t = gp_cli_fail_times(r, &nt);

		gp_sbuf_init(&qos);
		gp_sbuf_init(&fail);
		gp_cli_qos_text(r, &qos);
		gp_cli_fail_text(r, &fail);
		if (qos.len)
			ex[nx++] = (gp_html_extra){ "Latency-sensitive service (QoS)", qos.buf };
		if (fail.len)
			ex[nx++] = (gp_html_extra){ "Failures and recovery", fail.buf };
		gp_sbuf_init(&sb);
		gp_report_sim_html(id, r->jobs, res, t, nt, ex, nx, &sb);
		gp_cli_outset_take(&out, d->html, &sb);
		free(t);
		gp_sbuf_release(&qos);
		gp_sbuf_release(&fail);
	}
	if (rc == GP_OK && d->events) {
		gp_sbuf_init(&sb);
		gp_cli_fail_events(r, &sb);
		gp_cli_outset_take(&out, d->events, &sb);
	}
	if (rc == GP_OK)
		rc = gp_cli_outset_commit(&out);
	gp_cli_outset_release(&out);
	return rc;
}

/* The report on stdout: JSON with --json -, else text. */
static void print_run(const gp_run *r, const gp_report_ident *id)
{
	const gp_run_desc *d = r->d;
	gp_sbuf sb;

	if (d->json && !strcmp(d->json, "-")) {
		json_t *o = run_json(r, id);

		json_dumpf(o, stdout, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(15));
		fputs("\n", stdout);
		json_decref(o);
		return;
	}
	gp_sbuf_init(&sb);
	gp_report_sim_text(id, r->jobs, &r->res, &sb);
	gp_cli_qos_text(r, &sb);
	gp_cli_fail_text(r, &sb);
	if (d->mem_margin >= 0)
		gp_sbuf_addf(&sb, "memory: %zu job(s) sized by the memory estimate with a %g %% margin "
			     "(--memory-margin)\n", r->mem_sized, d->mem_margin * 100);
	fwrite(sb.buf, 1, sb.len, stdout);
	gp_sbuf_release(&sb);
}

int cmd_simulate(int argc, char **argv)
{
	sim_args a;
	gp_run run;
	gp_cluster cluster;
	gp_joblist jobs;
	gp_error err = GP_ERROR_INIT;
	gp_report_ident id;
	int rc;

	/* FGD's experiment mode owns the whole command line. */
	if (gp_cli_has_option(argc, argv, "--inflate"))
		return gp_cmd_simulate_inflate(argc, argv);
	/* Development environments own theirs too. */
	if (gp_cli_has_option(argc, argv, "--envs"))
		return gp_cmd_simulate_envs(argc, argv);
	if ((rc = parse_args(argc, argv, &a)))
		return rc;
	if (a.help) {
		fputs(gp_usage_simulate, stdout);
		return GP_OK;
	}
	if ((rc = check_args(&a)))
		return rc;
	if ((rc = gp_cli_sim_load(a.d.cluster, a.d.trace, &a.d.topts, &cluster, &jobs)))
		return rc;
	rc = gp_run_prepare(&run, &a.d, &cluster, &jobs, NULL, NULL, &err);
	if (rc)
		rc = gp_cli_run_error("simulate", &err);
	/* Output folders are made and checked writable before the run. */
	if (rc == GP_OK && ((a.d.csv_dir && gp_cli_make_dirs(a.d.csv_dir)) ||
			    (a.d.svg_dir && gp_cli_make_dirs(a.d.svg_dir)) ||
			    (a.d.json && gp_cli_make_parent(a.d.json)) ||
			    (a.d.html && gp_cli_make_parent(a.d.html))))
		rc = GP_EIO;
	if (rc == GP_OK && gp_run_exec(&run, &err))
		rc = gp_cli_report(&err);
	if (rc == GP_OK) {
		if (a.stats)
			engine_stats(&run.res, jobs.n);
		run_ident(&run, &id);
		rc = write_outputs(&run, &id);
		if (rc == GP_OK)
			print_run(&run, &id);
	}
	gp_run_release(&run);
	gp_joblist_release(&jobs);
	gp_cluster_release(&cluster);
	return rc;
}
