/* gpuplan simulate: replay a job trace on a cluster and report queueing
 * delay, JCT, makespan and utilization (text, JSON, CSV, SVG).  The
 * option groups it shares with compare and simulate envs are in
 * sim_opts.c. */
#include <errno.h>
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
#include "gpuplan/report/tenants_report.h"
#include "gpuplan/run/scale.h"
#include "gpuplan/run/metrics.h"

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

enum { O_POLICY = 1, O_QUEUE, O_SEED, O_TICK, O_DEPTH, O_JSON, O_CSV, O_SVG, O_HTML, O_PROGRESS,
       O_QUIET, O_STATS, O_INFLATE, O_ENVS, O_SCALE_DURATIONS, O_SCALE_MODEL, O_MEMORY_MARGIN };

static const gp_opt sim_opts[] = {
	GP_OPT_CLUSTER('c'),
	{ .name = "policy", .key = O_POLICY, .type = GP_OT_STR, .arg = "P",
	  .help = "placement policy (default bestfit)" },
	{ .name = "queue", .key = O_QUEUE, .type = GP_OT_STR, .arg = "Q",
	  .help = "fifo (default), sjf, backfill (EASY), priority (higher\n"
		  "job priority first), las (Tiresias' discretized\n"
		  "2D least-attained-service, preemptive), fifo-skip,\n"
		  "fairshare (Slurm's multifactor priority) or\n"
		  "dominant-share (Kueue's fair sharing)" },
	GP_OPT_SEED(O_SEED, "seed of the policy's random stream (default 1)"),
	{ .name = "tick", .key = O_TICK, .type = GP_OT_DURATION, .arg = "S", .min = 1e-3,
	  .max = 1e12, .unit = "s", .help = "timeline interval in seconds (default: about 500 rows)" },
	{ .name = "backfill-depth", .key = O_DEPTH, .type = GP_OT_LONG, .arg = "N", .min = 0,
	  .max = 100000000, .help = "backfill: examine at most N queued jobs behind the\n"
				    "head per pass (default 0: all, exact EASY)" },
	{ .name = "scale-durations", .key = O_SCALE_DURATIONS, .type = GP_OT_STR, .arg = "REF",
	  .help = "recorded durations were measured on REF (a GPU model\n"
		  "or node type, ':tech' optional, e.g. V100-SXM2-16GB:ib-edr):\n"
		  "scale each to its placement by the perf model" },
	{ .name = "scale-model", .key = O_SCALE_MODEL, .type = GP_OT_STR, .arg = "M",
	  .help = "DL model of jobs without one (default resnet50)" },
	{ .name = "memory-margin", .key = O_MEMORY_MARGIN, .type = GP_OT_DOUBLE, .arg = "PCT",
	  .min = 0, .max = GP_MEM_MARGIN_MAX * 100, .what = "a percentage",
	  .help = "size the GPU memory of jobs that name a model but give\n"
		  "none by the memory estimate plus PCT % (0 allowed)" },
	{ .name = "json", .key = O_JSON, .type = GP_OT_STR, .arg = "FILE",
	  .help = "write the summary as JSON ('-' for standard output)" },
	{ .name = "csv", .key = O_CSV, .type = GP_OT_STR, .arg = "DIR",
	  .help = "write DIR/jobs.csv and DIR/timeline.csv (and with\n"
		  "tenants DIR/tenants.csv)" },
	{ .name = "svg", .key = O_SVG, .type = GP_OT_STR, .arg = "DIR",
	  .help = "write DIR/utilization.svg, DIR/queue.svg, DIR/jct-cdf.svg,\n"
		  "DIR/queue-delay-cdf.svg (and with tenants\n"
		  "DIR/tenants-queue-delay-cdf.svg)" },
	{ .name = "html", .key = O_HTML, .type = GP_OT_STR, .arg = "FILE",
	  .help = "write one page with the summary, tables and charts" },
	{ .name = "progress", .key = O_PROGRESS, .type = GP_OT_FLAG,
	  .help = "show progress on standard error even when not a terminal" },
	{ .name = "quiet", .key = O_QUIET, .type = GP_OT_FLAG,
	  .help = "never show progress (notes and warnings still print)" },
	{ .name = "engine-stats", .key = O_STATS, .type = GP_OT_FLAG,
	  .help = "print the engine's counters on standard error (events,\n"
		  "batches, policy calls, backfilled jobs; for benchmarks)" },
	{ .name = "inflate", .key = O_INFLATE, .type = GP_OT_STR, .arg = "X",
	  .help = "FGD's workload-inflation experiment: 'simulate inflate'" },
	{ .name = "envs", .key = O_ENVS, .type = GP_OT_STR, .arg = "MODES",
	  .help = "development environments: 'simulate envs'" },
	{ 0 },
};

static const gp_opt *const sim_groups[] = {
	gp_sim_engine_opts, gp_sim_qos_opts, gp_sim_trace_opts, gp_sim_fail_opts, NULL,
};

static const gp_cmd_desc *const sim_subs[] = {
	&gp_desc_simulate_inflate, &gp_desc_simulate_envs, NULL,
};

const gp_cmd_desc gp_desc_simulate = {
	.name = "simulate",
	.synopsis = "[-c CLUSTER] TRACE [--format F] [--policy P]\n"
		    "  [--queue fifo|sjf|backfill|priority|las|fifo-skip|\n"
		    "           fairshare|dominant-share]\n"
		    "  [--backfill easy|slurm [--bf-interval S]] [--backfill-depth N]\n"
		    "  [--seed N] [--tick S]\n"
		    "  [--preempt off|class|priority] [--preempt-cost S]\n"
		    "  [--checkpoint-interval S] [--checkpoint-cost S] [--sched-interval S]\n"
		    "  [--las-thresholds LIST] [--las-starvation K]\n"
		    "  [--las-preempted entry|first] [--las-demoted keep|yield]\n"
		    "  [--las-tiresias] [--tenants FILE] [--default-tenant NAME]\n"
		    "  [--tenant-column C] [--reclaim on|off] [--fairshare-halflife S]\n"
		    "  [--priority-weights LIST] [--priority-interval S]\n"
		    "  [--failures FILE] [--mtbf-node H] [--mtbf-gpu H]\n"
		    "  [--weibull-shape K] [--failure-model FILE] [--failure-start S]\n"
		    "  [--repair H] [--failure-seed N] [--heartbeat-period S]\n"
		    "  [--heartbeat-misses K] [--restart-cost S]\n"
		    "  [--recovery replace|restart|shrink|fail] [--events FILE]\n"
		    "  [--scale-durations REF [--scale-model M]] [--memory-margin PCT]\n"
		    "  [--exclusive] [--interference] [--util-error PP] [--time-error F]\n"
		    "  [--qos-tick S [--qos-slack F] [--qos-min-share F] [--qos-step M]]\n"
		    "  [--ls-fraction F] [--predict-models DIR]\n"
		    "  [--limit N] [--start T] [--end T] [--skip-bad]\n"
		    "  [--json FILE] [--csv DIR] [--svg DIR] [--html FILE]\n"
		    "  [--progress | --quiet] [--engine-stats]\n"
		    "inflate ...\n"
		    "envs ...",
	.min_args = 0, .max_args = -1,
	.about = "Replay the jobs of TRACE on CLUSTER (default: the bundled example) in a\n"
		 "discrete-event simulation and print a summary: jobs completed / failed /\n"
		 "never placed, queueing delay and JCT (mean, p50, p90, p99, max), makespan\n"
		 "and GPU utilization, for all jobs and per class (LS, BE).  Times take a\n"
		 "unit (90s, 30m, 2h, 1d); a bare number is in seconds (hours for H).\n",
	.opts = sim_opts,
	.groups = sim_groups,
	.subs = sim_subs,
};

/* simulate's command line (trace mode). */
typedef struct sim_args {
	gp_run_desc d;
	int show_progress, stats, fail_any;
	gp_cli_meter meter;
} sim_args;

/* An option the shared option groups (QoS, engine, failures, trace) take:
 * its status; -1 when none of them knows it. */
static int group_opt(sim_args *a, gp_opt_state *o)
{
	int rc;

	if ((rc = gp_cli_qos_opt(o, &a->d.qos)) >= 0)
		return rc;
	if ((rc = gp_cli_sim_engine_opt(o, &a->d)) >= 0)
		return rc;
	if ((rc = gp_cli_fail_opt(o, &a->d.fail, &a->d.events, &a->fail_any)) >= 0)
		return rc;
	return gp_cli_sim_trace_opt(o, &a->d.topts);
}

/* One option of the trace mode into a; *mode set when it names another
 * mode (--inflate, --envs). */
static int sim_opt(sim_args *a, gp_opt_state *o, int c, int *mode)
{
	gp_run_desc *d = &a->d;

	switch (c) {
	case 'c': d->cluster = o->arg; return 0;
	case O_POLICY: d->policy = o->arg; return 0;
	case O_QUEUE:
		d->queue = gp_sim_queue_parse(o->arg);
		if (d->queue < 0)
			return gp_opt_bad(o, "unknown queue '%s' (fifo, sjf, backfill, priority, las, fifo-skip, fairshare, dominant-share)",
					  o->arg);
		return 0;
	case O_SEED: d->seed = (uint64_t)o->l; return 0;
	case O_TICK: d->tick = o->v; return 0;
	case O_DEPTH: d->backfill_depth = (size_t)o->l; return 0;
	case O_JSON: d->json = o->arg; return 0;
	case O_CSV:
		d->csv_dir = o->arg;
		return gp_cli_csv_dir("simulate", o->arg);
	case O_SVG: d->svg_dir = o->arg; return 0;
	case O_HTML: d->html = o->arg; return 0;
	case O_PROGRESS: a->show_progress = 1; return 0;
	case O_QUIET: a->show_progress = 0; return 0;
	case O_STATS: a->stats = 1; return 0;
	case O_INFLATE: case O_ENVS: *mode = c; return 0;
	case O_SCALE_DURATIONS: d->scale_ref = o->arg; return 0;
	case O_SCALE_MODEL: d->scale_model = o->arg; return 0;
	case O_MEMORY_MARGIN: d->mem_margin = o->v / 100; return 0;
	default: return group_opt(a, o);
	}
}

/* The command line into a->d; *mode when it asks for another mode. */
static int parse_args(int argc, char **argv, sim_args *a, int *mode)
{
	gp_opt_state o;
	int c = 0, rc = GP_OK;

	memset(a, 0, sizeof(*a));
	gp_run_desc_init(&a->d);
	a->show_progress = -1;
	*mode = 0;
	gp_opt_begin(&o, &gp_desc_simulate, argc, argv);
	while (rc == GP_OK && !*mode && (c = gp_opt_next(&o)) > 0)
		rc = sim_opt(a, &o, c, mode);
	if (rc == GP_OK && !*mode && c < 0)
		rc = o.status;
	if (rc == GP_OK && !*mode)
		rc = gp_cli_one_trace(&o, &a->d.trace);
	gp_opt_end(&o);
	return rc;
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
	if (d->bf_interval > 0 && d->backfill_mode != GP_SIM_BF_SLURM)
		return gp_cli_usage_error("simulate", "--bf-interval goes with --backfill slurm");
	if (d->backfill_mode != GP_SIM_BF_EASY && d->queue != GP_SIM_BACKFILL)
		return gp_cli_usage_error("simulate", "--backfill %s goes with --queue backfill",
					  gp_sim_backfill_name(d->backfill_mode));
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
	gp_cli_sched_of(d, d->queue == GP_SIM_BACKFILL, gp_report_sched_estimates(r->jobs), &id->sched);
	id->has_util_queued = 1;
	id->util_queued = gp_metric_util_queued(r->jobs, &r->res);
	id->cl = r->cluster;
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
		if (res->tenant_use) {
			gp_sbuf_init(&sb);
			gp_report_tenants_csv(r->jobs, res, &sb);
			take_in(&out, d->csv_dir, "tenants.csv", &sb);
		}
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
		if (res->tenant_use) {
			gp_sbuf_init(&sb);
			gp_report_tenants_svg(id, r->jobs, res, &sb);
			take_in(&out, d->svg_dir, "tenants-queue-delay-cdf.svg", &sb);
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
	static const char *const subs[] = { "inflate", "envs" };
	sim_args a;
	gp_run run;
	gp_cluster cluster;
	gp_joblist jobs;
	gp_error err = GP_ERROR_INIT;
	gp_report_ident id;
	int rc, mode;

	/* FGD's inflation and the development environments are programs of
	 * their own: `simulate inflate ...`, `simulate envs ...`, or the
	 * option that names them anywhere on the line. */
	if (argc >= 2 && !strcmp(argv[1], subs[0]))
		return gp_cmd_simulate_inflate(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], subs[1]))
		return gp_cmd_simulate_envs(argc - 1, argv + 1);
	mode = gp_cli_old_mode(argc, argv, "inflate") ? O_INFLATE :
	       gp_cli_old_mode(argc, argv, "envs") ? O_ENVS : 0;
	if (!mode && (rc = parse_args(argc, argv, &a, &mode)))
		return rc;
	if (mode == O_INFLATE)
		return gp_cmd_simulate_inflate(argc, argv);
	if (mode == O_ENVS)
		return gp_cmd_simulate_envs(argc, argv);
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
