/* gpuplan compare: one trace, several policies x queue disciplines x
 * seeds, one table with the metrics side by side (mean and spread over
 * the seeds), or the same as JSON. */
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpuplan/model/cluster.h"
#include "gpuplan/place/policy.h"
#include "gpuplan/report/report.h"
#include "gpuplan/sim/sim.h"
#include "gpuplan/io/trace.h"
#include "gpuplan/util/util.h"

const char gp_usage_compare[] =
	"usage: gpuplan compare [-c CLUSTER] TRACE --policies P1,P2,... [--queues Q1,Q2,...]\n"
	"                       [--seeds LIST] [--json] [--tick S] [--format F]\n"
	"                       [--limit N] [--start T] [--end T] [--skip-bad]\n"
	"                       [--preempt M] [--preempt-cost S] [--checkpoint-interval S]\n"
	"                       [--las-thresholds LIST] [--las-starvation K]\n"
	"                       [--progress | --quiet]\n"
	"\n"
	"Simulate TRACE once per policy x queue discipline x seed and print one\n"
	"table: per configuration, jobs completed and never placed, queueing delay\n"
	"and JCT (mean, p99), makespan and GPU utilization.  With several seeds a\n"
	"cell reads 'mean +-sd' (sample standard deviation over the seeds).\n"
	"\n"
	"  --policies LIST  placement policies, comma-separated (default bestfit)\n"
	"  --queues LIST    fifo, sjf, backfill, priority, las, comma-separated\n"
	"                   (default fifo)\n"
	"  --seeds LIST     seeds: '1-10', '42', '1,5,9' or a mix (default 1)\n"
	"  --json           print JSON (per configuration: mean, sd, min, max of each\n"
	"                   metric, and every seed's simulate summary) instead\n"
	"  other options as for 'gpuplan simulate'\n"
	"  --inflate X      FGD's workload-inflation experiment (see gpuplan(1))\n";

#define MAX_RUNS 10000

/* The metrics compared, in table order. */
enum { M_COMPLETED, M_NEVER, M_FAILED, M_WAIT_MEAN, M_WAIT_P99, M_JCT_MEAN, M_JCT_P50,
       M_JCT_P99, M_MAKESPAN, M_UTIL, M_PREEMPT, M_COUNT };
static const char *const metric_key[M_COUNT] = {
	"completed", "never_placed", "failed", "queue_delay_mean", "queue_delay_p99",
	"jct_mean", "jct_p50", "jct_p99", "makespan", "gpu_utilization", "preemptions",
};
static const char *const metric_head[M_COUNT] = {
	"jobs completed", "jobs never placed", "jobs failed", "queue delay mean",
	"queue delay p99", "JCT mean", "JCT p50", "JCT p99", "makespan", "GPU utilization",
	"preemptions",
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

int cmd_compare(int argc, char **argv)
{
	enum { O_POLICIES = 1, O_QUEUES, O_SEEDS, O_JSON, O_TICK, O_PROGRESS, O_QUIET, O_HELP };
	static const struct option opts[] = {
		{ "cluster", required_argument, NULL, 'c' },
		{ "policies", required_argument, NULL, O_POLICIES },
		{ "queues", required_argument, NULL, O_QUEUES },
		{ "seeds", required_argument, NULL, O_SEEDS },
		{ "json", no_argument, NULL, O_JSON },
		{ "tick", required_argument, NULL, O_TICK },
		{ "progress", no_argument, NULL, O_PROGRESS },
		{ "quiet", no_argument, NULL, O_QUIET },
		{ "help", no_argument, NULL, O_HELP },
		GP_SIM_TRACE_OPTIONS,
		GP_SIM_ENGINE_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	gp_cli_engine eng;
	const char *cluster_path = NULL, *policies_arg = "bestfit", *queues_arg = "fifo";
	const char *seeds_arg = "1";
	int json = 0, show_progress = -1, c, rc, np, nq, p, q;
	long nseeds, s;
	double tick = 0;
	unsigned long long *seeds;
	char **pol, **que;
	gp_trace_opts topts;
	gp_cluster cluster;
	gp_joblist jobs;
	double *values;     /* [config][metric][seed] */
	json_t *runs = NULL;
	gp_sim_perf *perf;

	if (gp_cli_has_option(argc, argv, "--inflate"))
		return gp_cmd_compare_inflate(argc, argv);
	gp_trace_opts_init(&topts);
	gp_cli_engine_init(&eng);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":c:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c': cluster_path = optarg; break;
		case O_POLICIES: policies_arg = optarg; break;
		case O_QUEUES: queues_arg = optarg; break;
		case O_SEEDS: seeds_arg = optarg; break;
		case O_JSON: json = 1; break;
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
	if (rc == GP_OK && (long)np * nq * nseeds > MAX_RUNS)
		rc = gp_cli_usage_error("compare", "more than %d runs asked for", MAX_RUNS);
	if (rc != GP_OK || (rc = gp_cli_sim_load(cluster_path, argv[optind], &topts, &cluster, &jobs))) {
		free_list(pol);
		free_list(que);
		free(seeds);
		return rc;
	}
	if (show_progress < 0)
		show_progress = gp_cli_stderr_is_tty();
	values = gp_xmalloc((size_t)np * (size_t)nq * M_COUNT * (size_t)nseeds * sizeof(*values));
	perf = gp_sim_perf_new(&cluster);
	if (json)
		runs = json_array();
	for (p = 0; p < np && rc == GP_OK; p++)
		for (q = 0; q < nq && rc == GP_OK; q++) {
			size_t cfgi = (size_t)p * (size_t)nq + (size_t)q;
			json_t *per_seed = json ? json_array() : NULL;

			for (s = 0; s < nseeds && rc == GP_OK; s++) {
				gp_sim_config cfg;
				gp_sim_result res;
				gp_error err = GP_ERROR_INIT;
				double m[M_COUNT];
				int k;

				if (show_progress)
					fprintf(stderr, "\rcompare: %s/%s seed %llu (run %zu of %ld)   ", pol[p],
						que[q], seeds[s], cfgi * (size_t)nseeds + (size_t)s + 1,
						(long)np * nq * nseeds);
				gp_sim_config_init(&cfg);
				cfg.cluster = &cluster;
				cfg.policy = gp_policy_find(pol[p]);
				cfg.queue = gp_sim_queue_parse(que[q]);
				cfg.seed = seeds[s];
				cfg.tick = tick;
				gp_cli_engine_apply(&eng, &cfg);
				cfg.duration = gp_sim_perf_duration;
				cfg.duration_ud = perf;
				if (gp_sim_run(&cfg, &jobs, &res, &err)) {
					rc = gp_cli_report(&err);
					break;
				}
				metrics_of(&jobs, &res, m);
				for (k = 0; k < M_COUNT; k++)
					values[(cfgi * M_COUNT + (size_t)k) * (size_t)nseeds + (size_t)s] = m[k];
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
				int k;

				json_object_set_new(run, "policy", json_string(pol[p]));
				json_object_set_new(run, "queue", json_string(que[q]));
				for (k = 0; k < M_COUNT && rc == GP_OK; k++) {
					gp_stats sp = gp_stats_of(&values[(cfgi * M_COUNT + (size_t)k) * (size_t)nseeds],
								  (size_t)nseeds);
					json_t *e = json_object();
					int dec = k == M_UTIL ? 6 : 3;

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
	if (show_progress)
		fputs("\n", stderr);
	gp_sim_perf_free(perf);
	if (rc == GP_OK && json) {
		json_t *o = json_object(), *tr = json_object(), *cl = json_object(), *sa = json_array();

		json_object_set_new(tr, "path", json_string(argv[optind]));
		json_object_set_new(tr, "format", json_string(jobs.format ? jobs.format : ""));
		json_object_set_new(tr, "jobs", json_integer((json_int_t)jobs.n));
		json_object_set_new(tr, "skipped_rows", json_integer((json_int_t)jobs.skipped));
		json_object_set_new(tr, "left_out_rows", json_integer((json_int_t)jobs.left_out));
		json_object_set_new(tr, "left_out", json_string(jobs.left_out_note ? jobs.left_out_note : ""));
		json_object_set_new(cl, "path", json_string(cluster_path ? cluster_path : ""));
		json_object_set_new(cl, "nodes", json_integer(cluster.nnodes));
		json_object_set_new(cl, "gpus", json_integer(cluster.ngpus));
		for (s = 0; s < nseeds; s++)
			json_array_append_new(sa, json_integer((json_int_t)seeds[s]));
		json_object_set_new(o, "trace", tr);
		json_object_set_new(o, "cluster", cl);
		json_object_set_new(o, "seeds", sa);
		json_object_set_new(o, "runs", runs);
		runs = NULL;
		json_dumpf(o, stdout, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(15));
		fputs("\n", stdout);
		json_decref(o);
	} else if (rc == GP_OK) {
		gp_table t;
		gp_sbuf sb;
		size_t row = 0;
		int k;

		printf("trace    %s (%s, %zu jobs", argv[optind], jobs.format ? jobs.format : "?",
		       jobs.n);
		if (jobs.left_out)
			printf(", %zu rows left out: %s", jobs.left_out,
			       jobs.left_out_note ? jobs.left_out_note : "not replayable");
		printf(")\ncluster  %s (%d nodes, %d GPUs)\nseeds    %s (%ld run%s each)\n\n",
		       cluster_path ? cluster_path : "example-cluster.yaml (bundled)", cluster.nnodes,
		       cluster.ngpus, seeds_arg, nseeds, nseeds == 1 ? "" : "s");
		/* One column per configuration, one row per metric. */
		gp_table_init(&t, np * nq + 1);
		row = gp_table_row(&t);
		gp_table_set(&t, row, 0, "metric");
		for (p = 0; p < np; p++)
			for (q = 0; q < nq; q++)
				gp_table_set(&t, row, p * nq + q + 1, "%s/%s", pol[p], que[q]);
		for (k = 0; k < M_COUNT; k++) {
			row = gp_table_row(&t);
			gp_table_set(&t, row, 0, "%s", metric_head[k]);
			for (p = 0; p < np; p++)
				for (q = 0; q < nq; q++) {
					size_t cfgi = (size_t)p * (size_t)nq + (size_t)q;
					gp_stats sp = gp_stats_of(&values[(cfgi * M_COUNT + (size_t)k) * (size_t)nseeds],
								  (size_t)nseeds);
					char buf[96];

					gp_table_set(&t, row, (int)cfgi + 1, "%s",
						     cell(buf, sizeof(buf), k, sp, (int)nseeds));
				}
		}
		gp_sbuf_init(&sb);
		gp_table_render(&t, "", &sb);
		fwrite(sb.buf, 1, sb.len, stdout);
		gp_sbuf_release(&sb);
		gp_table_release(&t);
	}
	json_decref(runs);
	free(values);
	free_list(pol);
	free_list(que);
	free(seeds);
	gp_joblist_release(&jobs);
	gp_cluster_release(&cluster);
	return rc;
}
