/* gpuplan simulate envs (or --envs MODE): replay development environments
 * (quota binding) in static, bind-at-start and idle-timeout modes and
 * report GPUs reserved, bound and busy, peaks, waits and heartbeat
 * reclaims. */
#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "gpuplan/envs/envs.h"
#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/io/envs.h"
#include "gpuplan/io/trace.h"
#include "gpuplan/model/cluster.h"
#include "gpuplan/report/envs_report.h"
#include "gpuplan/util/util.h"

#define MAX_MODES 8

/* One mode's run; the runs share only read-only inputs, so they go in
 * parallel, one thread per CPU. */
typedef struct run_arg {
	gp_envsim_config cfg;
	const gp_env_trace *tr;
	gp_envsim_result *res;
	gp_error err;
	int rc;
} run_arg;

static void *run_one(void *p)
{
	run_arg *a = p;

	gp_error_clear(&a->err);
	a->rc = gp_envsim_run(&a->cfg, a->tr, a->res, &a->err);
	return NULL;
}

static int run_all(run_arg *a, int n)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	pthread_t th[MAX_MODES + 1];
	int started[MAX_MODES + 1], i, j;

	if (ncpu < 1)
		ncpu = 1;
	for (i = 0; i < n; i += (int)ncpu) {
		for (j = i; j < n && j < i + ncpu; j++) {
			started[j] = ncpu > 1 && j + 1 < n && pthread_create(&th[j], NULL, run_one, &a[j]) == 0;
			if (!started[j])
				run_one(&a[j]);
		}
		for (j = i; j < n && j < i + ncpu; j++)
			if (started[j])
				pthread_join(th[j], NULL);
	}
	for (i = 0; i < n; i++)
		if (a[i].rc)
			return i;
	return -1;
}

static int parse_modes(const char *arg, int *modes, double *idle, int *n)
{
	char *s = gp_xstrdup(arg), *tok, *save = NULL;
	int rc = GP_OK;

	*n = 0;
	for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		double m = 0;
		int md = gp_envsim_mode_parse(tok, &m);

		if (md < 0) {
			rc = gp_cli_usage_error("simulate",
						"--envs wants static, bind-at-start or idle-timeout:MINUTES (comma-separated), got '%s'",
						tok);
			break;
		}
		if (*n >= MAX_MODES) {
			rc = gp_cli_usage_error("simulate", "--envs takes at most %d modes", MAX_MODES);
			break;
		}
		modes[*n] = md;
		idle[(*n)++] = m * 60.0;
	}
	if (rc == GP_OK && !*n)
		rc = gp_cli_usage_error("simulate", "--envs wants at least one mode");
	free(s);
	return rc;
}

static int load_inputs(const char *trace_path, const char *envs_path, const char *format, double tick_s,
		       const gp_trace_opts *topts, const gp_cluster *c, gp_env_trace *tr)
{
	gp_error err = GP_ERROR_INIT;
	int adobe = format ? !strcmp(format, "adobe-notebook") : gp_adobe_sniff(trace_path);

	if (adobe) {
		if (envs_path)
			return gp_cli_usage_error("simulate",
						  "--environments is for traces with an environment column; a notebook template declares its own");
		if (gp_adobe_load(trace_path, tick_s, tr, &err))
			return gp_cli_report(&err);
		return GP_OK;
	}
	if (!envs_path)
		return gp_cli_usage_error("simulate",
					  "--envs on a job trace needs --environments FILE (the quotas of its environments)");
	{
		gp_joblist jobs;
		int rc;

		if (gp_envs_load(envs_path, c, &tr->envs, &err))
			return gp_cli_report(&err);
		gp_joblist_init(&jobs);
		if (gp_trace_load(trace_path, topts, &jobs, &err)) {
			gp_joblist_release(&jobs);
			return gp_cli_report(&err);
		}
		rc = gp_env_trace_from_jobs(&jobs, tr, &err);
		gp_joblist_release(&jobs);
		if (rc)
			return gp_cli_report(&err);
	}
	return GP_OK;
}

enum { O_ENVS = 1, O_ENVFILE, O_THRESHOLD, O_ONFAIL, O_HBP, O_HBT, O_CF, O_SEED, O_MAXG, O_TICKS,
       O_JSON, O_CSV, O_SVG, O_QUIET, O_PROGRESS };

static const gp_opt envs_opts[] = {
	GP_OPT_CLUSTER('c'),
	{ .name = "envs", .key = O_ENVS, .type = GP_OT_STR, .arg = "MODE[,MODE...]",
	  .help = "static, bind-at-start, idle-timeout:MIN (required)" },
	{ .name = "environments", .key = O_ENVFILE, .type = GP_OT_STR, .arg = "ENVS.yaml",
	  .help = "the quotas of a job trace's environments" },
	{ .name = "task-threshold", .key = O_THRESHOLD, .type = GP_OT_LONG, .arg = "K", .min = 1,
	  .max = GP_ENV_MAX_THRESHOLD, .help = "tasks sharing one GPU at most (default 4)" },
	{ .name = "on-bind-failure", .key = O_ONFAIL, .type = GP_OT_STR, .arg = "wait|fail",
	  .help = "wait (default) or fail a task that cannot be bound" },
	{ .name = "heartbeat-period", .key = O_HBP, .type = GP_OT_DURATION, .arg = "S", .min = 1e-3,
	  .max = 1e9, .unit = "s", .help = "seconds between a client's heartbeats (default 1)" },
	{ .name = "heartbeat-timeout", .key = O_HBT, .type = GP_OT_DURATION, .arg = "S", .min = 0,
	  .max = 1e9, .unit = "s", .help = "reclaim after S seconds without one (default 5)" },
	{ .name = "client-failures", .key = O_CF, .type = GP_OT_DOUBLE, .arg = "R", .min = 0,
	  .max = 3600, .what = "failures per environment-hour",
	  .help = "client deaths per environment-hour (default 0)" },
	GP_OPT_SEED(O_SEED, "seed of the client failures (default 1)"),
	{ .name = "max-gpus", .key = O_MAXG, .type = GP_OT_LONG, .arg = "N", .min = 1,
	  .max = 100000000, .help = "use only the cluster's first N GPUs (sizing)" },
	{ .name = "tick-seconds", .key = O_TICKS, .type = GP_OT_DURATION, .arg = "S", .min = 1e-3,
	  .max = 1e7, .unit = "s", .help = "length of a template tick (default 60)" },
	{ .name = "json", .key = O_JSON, .type = GP_OT_STR, .arg = "FILE",
	  .help = "the report as JSON ('-' for standard output)" },
	{ .name = "csv", .key = O_CSV, .type = GP_OT_STR, .arg = "DIR",
	  .help = "DIR/environments-timeline.csv (GPUs bound per interval)" },
	{ .name = "svg", .key = O_SVG, .type = GP_OT_STR, .arg = "DIR",
	  .help = "DIR/environments.svg (GPUs bound over time, per mode)" },
	{ .name = "progress", .key = O_PROGRESS, .type = GP_OT_FLAG, .hidden = 1 },
	{ .name = "quiet", .key = O_QUIET, .type = GP_OT_FLAG, .hidden = 1 },
	{ 0 },
};

static const gp_opt *const envs_groups[] = { gp_sim_trace_opts, NULL };

const gp_cmd_desc gp_desc_simulate_envs = {
	.name = "simulate envs", .cmd = "simulate",
	.synopsis = "[-c CLUSTER] --envs MODE[,MODE...] TRACE\n"
		    "  [--environments ENVS.yaml] [--task-threshold K]\n"
		    "  [--on-bind-failure wait|fail] [--heartbeat-period S]\n"
		    "  [--heartbeat-timeout S] [--client-failures RATE] [--seed N]\n"
		    "  [--max-gpus N] [--tick-seconds S] [--json FILE] [--csv DIR]\n"
		    "  [--svg DIR]",
	.min_args = 0, .max_args = -1,
	.about = "Development environments with GPU quotas (quota binding).  MODE is static (an\n"
		 "environment holds its reserved GPUs for its lifetime), bind-at-start (a GPU\n"
		 "is bound when a task starts, shared up to K tasks, released at its end) or\n"
		 "idle-timeout:MIN (held GPUs go back after MIN idle minutes and come back at\n"
		 "the next task).  TRACE is a notebook workload template (JSON, Adobe/NotebookOS)\n"
		 "or a job trace with an environment column plus --environments.  Reports GPUs\n"
		 "reserved, bound and busy, the peak bound and GPUs saved against static,\n"
		 "rebinds, bind failures by reason, task waits and heartbeat reclaims.  The old\n"
		 "spelling, --envs MODE among simulate's options, runs it too.\n",
	.opts = envs_opts,
	.groups = envs_groups,
};

/* simulate envs's command line. */
typedef struct envs_args {
	const char *trace, *cluster_path, *envs_path, *json_path, *csv_dir, *svg_dir;
	int modes[MAX_MODES], nmodes;
	double idle[MAX_MODES], tick_s;
	gp_envsim_config cfg;
	gp_trace_opts topts;
} envs_args;

static int envs_opt(envs_args *a, gp_opt_state *o, int c)
{
	switch (c) {
	case 'c': a->cluster_path = o->arg; return GP_OK;
	case O_ENVS: return parse_modes(o->arg, a->modes, a->idle, &a->nmodes);
	case O_ENVFILE: a->envs_path = o->arg; return GP_OK;
	case O_TICKS: a->tick_s = o->v; return GP_OK;
	case O_JSON: a->json_path = o->arg; return GP_OK;
	case O_CSV:
		a->csv_dir = o->arg;
		return gp_cli_csv_dir("simulate", o->arg);
	case O_SVG: a->svg_dir = o->arg; return GP_OK;
	case O_QUIET: case O_PROGRESS: return GP_OK;
	case O_THRESHOLD: a->cfg.threshold = (int)o->l; return GP_OK;
	case O_ONFAIL:
		if (strcmp(o->arg, "wait") && strcmp(o->arg, "fail"))
			return gp_opt_bad(o, "--on-bind-failure wants wait or fail, got '%s'", o->arg);
		a->cfg.fail_on_bind_failure = !strcmp(o->arg, "fail");
		return GP_OK;
	case O_HBP: a->cfg.hb_period_s = o->v; return GP_OK;
	case O_HBT: a->cfg.hb_timeout_s = o->v; return GP_OK;
	case O_CF: a->cfg.client_failures_per_hour = o->v; return GP_OK;
	case O_SEED: a->cfg.seed = (uint64_t)o->l; return GP_OK;
	case O_MAXG: a->cfg.max_gpus = (int)o->l; return GP_OK;
	default: {
		int rc = gp_cli_sim_trace_opt(o, &a->topts);

		return rc < 0 ? GP_OK : rc;
	}
	}
}

static int parse_args(int argc, char **argv, envs_args *a)
{
	gp_opt_state o;
	int c = 0, rc = GP_OK;

	memset(a, 0, sizeof(*a));
	a->tick_s = 60;
	gp_envsim_config_init(&a->cfg);
	gp_trace_opts_init(&a->topts);
	gp_opt_begin(&o, &gp_desc_simulate_envs, argc, argv);
	while (rc == GP_OK && (c = gp_opt_next(&o)) > 0)
		rc = envs_opt(a, &o, c);
	if (rc == GP_OK && c < 0)
		rc = o.status;
	if (rc == GP_OK)
		rc = gp_cli_one_trace(&o, &a->trace);
	gp_opt_end(&o);
	if (rc)
		return rc;
	if (!a->nmodes)
		return gp_cli_usage_error("simulate", "development environments need --envs MODE[,MODE...] "
					  "(static, bind-at-start, idle-timeout:MINUTES)");
	if (a->topts.format && strcmp(a->topts.format, "adobe-notebook") &&
	    strcmp(a->topts.format, "auto") && !gp_trace_format_summary(a->topts.format))
		return gp_cli_usage_error("simulate", "unknown trace format '%s'", a->topts.format);
	return GP_OK;
}

/* The results of the modes asked for, and static's (always run: gpus_saved
 * compares with its peak). */
typedef struct envs_runs {
	gp_envsim_result res[MAX_MODES + 1];
	const gp_envsim_result *rp[MAX_MODES];
	int nres, static_idx, static_peak;
} envs_runs;

static int run_modes(const envs_args *a, const gp_env_trace *tr, envs_runs *r)
{
	run_arg ra[MAX_MODES + 1];
	int i, bad;

	r->static_idx = -1;
	for (i = 0; i < a->nmodes; i++)
		if (a->modes[i] == GP_ENVSIM_STATIC)
			r->static_idx = i;
	for (i = 0; i < a->nmodes + (r->static_idx < 0); i++) {
		ra[i].cfg = a->cfg;
		ra[i].cfg.mode = i < a->nmodes ? a->modes[i] : GP_ENVSIM_STATIC;
		ra[i].cfg.idle_timeout_s = i < a->nmodes ? a->idle[i] : 0;
		ra[i].tr = tr;
		ra[i].res = &r->res[i];
		gp_envsim_result_init(&r->res[i]);
	}
	r->nres = i;
	bad = run_all(ra, r->nres);
	if (bad >= 0)
		return gp_cli_report(&ra[bad].err);
	r->static_peak = r->res[r->static_idx < 0 ? a->nmodes : r->static_idx].peak_gpus;
	for (i = 0; i < a->nmodes; i++)
		r->rp[i] = &r->res[i];
	return GP_OK;
}

/* sb into the output set as path (made of dir and name when dir). */
static int add_file(gp_cli_outset *out, const char *dir, const char *name, gp_sbuf *sb)
{
	char *p = gp_xasprintf("%s/%s", dir, name);
	FILE *fp = gp_cli_outset_add(out, p);
	int rc = GP_OK;

	free(p);
	if (!fp)
		rc = GP_EIO;
	else
		fwrite(sb->buf, 1, sb->len, fp);
	gp_sbuf_release(sb);
	return rc;
}

/* --json FILE, --csv DIR and --svg DIR: all or none. */
static int write_outputs(const envs_args *a, const gp_report_envs_ident *id, const envs_runs *r)
{
	gp_cli_outset out;
	gp_sbuf sb;
	int i, rc = GP_OK;

	memset(&out, 0, sizeof(out));
	if (a->csv_dir)
		rc = gp_cli_make_dirs(a->csv_dir);
	if (rc == GP_OK && a->svg_dir)
		rc = gp_cli_make_dirs(a->svg_dir);
	if (rc == GP_OK && a->json_path && strcmp(a->json_path, "-")) {
		FILE *fp = gp_cli_outset_add(&out, a->json_path);
		json_t *o = gp_report_envs_doc(id, r->rp, (size_t)a->nmodes, r->static_peak);

		if (!fp || json_dumpf(o, fp, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(15)))
			rc = GP_EIO;
		else
			fputs("\n", fp);
		json_decref(o);
	}
	if (rc == GP_OK && a->csv_dir) {
		gp_sbuf_init(&sb);
		gp_report_envs_timeline_csv(r->rp, (size_t)a->nmodes, &sb);
		rc = add_file(&out, a->csv_dir, "environments-timeline.csv", &sb);
	}
	if (rc == GP_OK && a->svg_dir) {
		const gp_envsim_result *all[MAX_MODES + 1];
		size_t na = 0;

		/* static is drawn as the reference even when not asked for */
		if (r->static_idx < 0)
			all[na++] = &r->res[a->nmodes];
		for (i = 0; i < a->nmodes; i++)
			all[na++] = &r->res[i];
		gp_sbuf_init(&sb);
		gp_report_envs_svg(id, all, na, &sb);
		rc = add_file(&out, a->svg_dir, "environments.svg", &sb);
	}
	if (rc == GP_OK)
		return gp_cli_outset_commit(&out);
	gp_cli_outset_release(&out);
	return rc;
}

int gp_cmd_simulate_envs(int argc, char **argv)
{
	envs_args a;
	envs_runs r;
	gp_cluster cluster;
	gp_env_trace tr;
	gp_error err = GP_ERROR_INIT;
	gp_report_envs_ident id;
	int rc, i;

	if ((rc = parse_args(argc, argv, &a)))
		return rc;
	gp_cluster_init(&cluster);
	if (gp_cluster_load(a.cluster_path ? a.cluster_path : gp_cli_default_cluster(), &cluster, &err))
		return gp_cli_report(&err);
	gp_env_trace_init(&tr);
	r.nres = 0;
	if ((rc = load_inputs(a.trace, a.envs_path,
			      a.topts.format && strcmp(a.topts.format, "auto") ? a.topts.format : NULL,
			      a.tick_s, &a.topts, &cluster, &tr)))
		goto done;
	a.cfg.cluster = &cluster;
	if ((rc = run_modes(&a, &tr, &r)))
		goto done;
	memset(&id, 0, sizeof(id));
	id.trace = a.trace;
	id.trace_format = tr.format;
	id.envs_file = a.envs_path;
	id.cluster = a.cluster_path ? a.cluster_path : GP_BUNDLED_CLUSTER_LABEL;
	id.cluster_nodes = cluster.nnodes;
	id.cluster_gpus = cluster.ngpus;
	id.max_gpus = a.cfg.max_gpus;
	id.cfg = &a.cfg;
	if ((rc = write_outputs(&a, &id, &r)))
		goto done;
	if (a.json_path && !strcmp(a.json_path, "-")) {
		json_t *o = gp_report_envs_doc(&id, r.rp, (size_t)a.nmodes, r.static_peak);

		json_dumpf(o, stdout, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(15));
		fputs("\n", stdout);
		json_decref(o);
	} else {
		gp_sbuf sb;

		gp_sbuf_init(&sb);
		gp_report_envs_text(&id, r.rp, (size_t)a.nmodes, r.static_peak, &sb);
		fwrite(sb.buf, 1, sb.len, stdout);
		gp_sbuf_release(&sb);
	}
done:
	for (i = 0; i < r.nres; i++)
		gp_envsim_result_release(&r.res[i]);
	gp_env_trace_release(&tr);
	gp_cluster_release(&cluster);
	return rc;
}
