/* gpuplan simulate --envs MODE: replay development environments (seed
 * 004) in static, bind-at-start and idle-timeout modes and report GPUs
 * reserved, bound and busy, peaks, waits and heartbeat reclaims. */
#include <errno.h>
#include <getopt.h>
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

static int ensure_dir(const char *dir)
{
	struct stat st;

	if (mkdir(dir, 0777) == 0 || (errno == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode)))
		return GP_OK;
	return gp_cli_fail(GP_EIO, "%s: cannot create directory: %s", dir,
			   errno == EEXIST ? "a file is in the way" : strerror(errno));
}

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

int gp_cmd_simulate_envs(int argc, char **argv)
{
	enum { O_ENVS = 1, O_ENVFILE, O_THRESHOLD, O_ONFAIL, O_HBP, O_HBT, O_CF, O_SEED, O_MAXG, O_TICKS,
	       O_JSON, O_CSV, O_SVG, O_QUIET, O_PROGRESS, O_HELP };
	static const struct option opts[] = {
		{ "cluster", required_argument, NULL, 'c' },
		{ "envs", required_argument, NULL, O_ENVS },
		{ "environments", required_argument, NULL, O_ENVFILE },
		{ "task-threshold", required_argument, NULL, O_THRESHOLD },
		{ "on-bind-failure", required_argument, NULL, O_ONFAIL },
		{ "heartbeat-period", required_argument, NULL, O_HBP },
		{ "heartbeat-timeout", required_argument, NULL, O_HBT },
		{ "client-failures", required_argument, NULL, O_CF },
		{ "seed", required_argument, NULL, O_SEED },
		{ "max-gpus", required_argument, NULL, O_MAXG },
		{ "tick-seconds", required_argument, NULL, O_TICKS },
		{ "json", required_argument, NULL, O_JSON },
		{ "csv", required_argument, NULL, O_CSV },
		{ "svg", required_argument, NULL, O_SVG },
		{ "quiet", no_argument, NULL, O_QUIET },
		{ "progress", no_argument, NULL, O_PROGRESS },
		{ "help", no_argument, NULL, O_HELP },
		GP_SIM_TRACE_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	const char *cluster_path = NULL, *envs_path = NULL, *json_path = NULL, *csv_dir = NULL, *svg_dir = NULL;
	int modes[MAX_MODES], nmodes = 0, c, rc, i, static_idx = -1, static_peak;
	double idle[MAX_MODES], tick_s = 60, d;
	long l;
	gp_envsim_config cfg;
	gp_envsim_result res[MAX_MODES + 1];
	const gp_envsim_result *rp[MAX_MODES];
	gp_trace_opts topts;
	gp_cluster cluster;
	gp_env_trace tr;
	gp_error err = GP_ERROR_INIT;
	gp_report_envs_ident id;
	gp_cli_outset out;
	int nres = 0;

	gp_envsim_config_init(&cfg);
	gp_trace_opts_init(&topts);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":c:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c': cluster_path = optarg; break;
		case O_ENVS:
			if ((rc = parse_modes(optarg, modes, idle, &nmodes)))
				return rc;
			break;
		case O_ENVFILE: envs_path = optarg; break;
		case O_THRESHOLD:
			if (gp_parse_long(optarg, 1, GP_ENV_MAX_THRESHOLD, &l))
				return gp_cli_usage_error("simulate", "--task-threshold wants 1..%d tasks per GPU, got '%s'",
							  GP_ENV_MAX_THRESHOLD, optarg);
			cfg.threshold = (int)l;
			break;
		case O_ONFAIL:
			if (!strcmp(optarg, "wait") || !strcmp(optarg, "fail"))
				cfg.fail_on_bind_failure = !strcmp(optarg, "fail");
			else
				return gp_cli_usage_error("simulate", "--on-bind-failure wants wait or fail, got '%s'", optarg);
			break;
		case O_HBP:
		case O_HBT:
			if (gp_parse_double(optarg, c == O_HBP ? 1e-3 : 0, 1e9, &d))
				return gp_cli_usage_error("simulate", "--heartbeat-%s wants seconds%s, got '%s'",
							  c == O_HBP ? "period" : "timeout", c == O_HBP ? " > 0" : " >= 0", optarg);
			if (c == O_HBP)
				cfg.hb_period_s = d;
			else
				cfg.hb_timeout_s = d;
			break;
		case O_CF:
			if (gp_parse_double(optarg, 0, 3600, &d))
				return gp_cli_usage_error("simulate",
							  "--client-failures wants failures per environment-hour (0..3600), got '%s'",
							  optarg);
			cfg.client_failures_per_hour = d;
			break;
		case O_SEED:
			if (gp_parse_long(optarg, 0, 2147483647L, &l))
				return gp_cli_usage_error("simulate", "--seed wants a number 0..2147483647, got '%s'", optarg);
			cfg.seed = (uint64_t)l;
			break;
		case O_MAXG:
			if (gp_parse_long(optarg, 1, 100000000L, &l))
				return gp_cli_usage_error("simulate", "--max-gpus wants a positive number, got '%s'", optarg);
			cfg.max_gpus = (int)l;
			break;
		case O_TICKS:
			if (gp_parse_double(optarg, 1e-3, 1e7, &tick_s))
				return gp_cli_usage_error("simulate", "--tick-seconds wants seconds > 0, got '%s'", optarg);
			break;
		case O_JSON: json_path = optarg; break;
		case O_CSV: csv_dir = optarg; break;
		case O_SVG: svg_dir = optarg; break;
		case O_QUIET: case O_PROGRESS: break;
		case 'h':
		case O_HELP: fputs(gp_usage_simulate, stdout); return GP_OK;
		default:
			if ((rc = gp_cli_sim_trace_opt("simulate", c, optarg, argv, &topts)))
				return rc;
			break;
		}
	}
	if (optind != argc - 1)
		return gp_cli_usage_error("simulate", optind >= argc ? "expected a TRACE file"
						     : "expected one TRACE file, got '%s' too",
					  optind < argc - 1 ? argv[optind + 1] : "");
	if (topts.format && strcmp(topts.format, "adobe-notebook") && strcmp(topts.format, "auto") &&
	    !gp_trace_format_summary(topts.format))
		return gp_cli_usage_error("simulate", "unknown trace format '%s'", topts.format);

	gp_cluster_init(&cluster);
	if (gp_cluster_load(cluster_path ? cluster_path : gp_cli_default_cluster(), &cluster, &err))
		return gp_cli_report(&err);
	gp_env_trace_init(&tr);
	if ((rc = load_inputs(argv[optind], envs_path,
			      topts.format && strcmp(topts.format, "auto") ? topts.format : NULL, tick_s, &topts,
			      &cluster, &tr)))
		goto done;

	cfg.cluster = &cluster;
	for (i = 0; i < nmodes; i++)
		if (modes[i] == GP_ENVSIM_STATIC)
			static_idx = i;
	/* static always runs: gpus_saved compares with its peak */
	{
		run_arg ra[MAX_MODES + 1];
		int bad;

		for (i = 0; i < nmodes + (static_idx < 0); i++) {
			ra[i].cfg = cfg;
			ra[i].cfg.mode = i < nmodes ? modes[i] : GP_ENVSIM_STATIC;
			ra[i].cfg.idle_timeout_s = i < nmodes ? idle[i] : 0;
			ra[i].tr = &tr;
			ra[i].res = &res[i];
			gp_envsim_result_init(&res[i]);
		}
		nres = i;
		bad = run_all(ra, nres);
		if (bad >= 0) {
			rc = gp_cli_report(&ra[bad].err);
			goto done;
		}
	}
	static_peak = res[static_idx < 0 ? nmodes : static_idx].peak_gpus;
	for (i = 0; i < nmodes; i++)
		rp[i] = &res[i];

	memset(&id, 0, sizeof(id));
	id.trace = argv[optind];
	id.trace_format = tr.format;
	id.envs_file = envs_path;
	id.cluster = cluster_path ? cluster_path : "example-cluster.yaml (bundled)";
	id.cluster_nodes = cluster.nnodes;
	id.cluster_gpus = cluster.ngpus;
	id.max_gpus = cfg.max_gpus;
	id.cfg = &cfg;

	memset(&out, 0, sizeof(out));
	rc = GP_OK;
	if (csv_dir)
		rc = ensure_dir(csv_dir);
	if (rc == GP_OK && svg_dir)
		rc = ensure_dir(svg_dir);
	if (rc == GP_OK && json_path && strcmp(json_path, "-")) {
		FILE *fp = gp_cli_outset_add(&out, json_path);
		json_t *o = gp_report_envs_doc(&id, rp, (size_t)nmodes, static_peak);

		if (!fp || json_dumpf(o, fp, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(15)))
			rc = GP_EIO;
		else
			fputs("\n", fp);
		json_decref(o);
	}
	if (rc == GP_OK && csv_dir) {
		char *p = gp_xasprintf("%s/environments-timeline.csv", csv_dir);
		FILE *fp = gp_cli_outset_add(&out, p);
		gp_sbuf sb;

		free(p);
		gp_sbuf_init(&sb);
		gp_report_envs_timeline_csv(rp, (size_t)nmodes, &sb);
		if (!fp)
			rc = GP_EIO;
		else
			fwrite(sb.buf, 1, sb.len, fp);
		gp_sbuf_release(&sb);
	}
	if (rc == GP_OK && svg_dir) {
		char *p = gp_xasprintf("%s/environments.svg", svg_dir);
		FILE *fp = gp_cli_outset_add(&out, p);
		const gp_envsim_result *all[MAX_MODES + 1];
		size_t na = 0;
		gp_sbuf sb;

		free(p);
		/* static is drawn as the reference even when not asked for */
		if (static_idx < 0)
			all[na++] = &res[nmodes];
		for (i = 0; i < nmodes; i++)
			all[na++] = &res[i];
		gp_sbuf_init(&sb);
		gp_report_envs_svg(&id, all, na, &sb);
		if (!fp)
			rc = GP_EIO;
		else
			fwrite(sb.buf, 1, sb.len, fp);
		gp_sbuf_release(&sb);
	}
	if (rc == GP_OK)
		rc = gp_cli_outset_commit(&out);
	else
		gp_cli_outset_release(&out);
	if (rc == GP_OK) {
		if (json_path && !strcmp(json_path, "-")) {
			json_t *o = gp_report_envs_doc(&id, rp, (size_t)nmodes, static_peak);

			json_dumpf(o, stdout, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(15));
			fputs("\n", stdout);
			json_decref(o);
		} else {
			gp_sbuf sb;

			gp_sbuf_init(&sb);
			gp_report_envs_text(&id, rp, (size_t)nmodes, static_peak, &sb);
			fwrite(sb.buf, 1, sb.len, stdout);
			gp_sbuf_release(&sb);
		}
	}
done:
	for (i = 0; i < nres; i++)
		gp_envsim_result_release(&res[i]);
	gp_env_trace_release(&tr);
	gp_cluster_release(&cluster);
	return rc;
}
