/* gpuplan simulate --inflate X: FGD's workload-inflation experiment on an
 * openb node list and pod list (fractional GPU sharing). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "gpuplan/fgd/fgd.h"
#include "gpuplan/io/openb.h"
#include "gpuplan/util/util.h"

#define CMD "simulate"

static int render_json(FILE *fp, const gp_fgd_result *res,
		       const gp_openb_pods *pods, const gp_openb_nodes *nodes)
{
	json_t *o = json_object(), *ac = json_array(), *fc = json_array(), *rc = json_array();
	json_t *jobs = json_object(), *zero_dist;
	const char *k[] = { "max", "mean", "p50", "p90", "p99" };
	int i, status = GP_OK;

	for (i = 0; i < res->npoints; i++) {
		json_array_append_new(ac, json_pack("[i,f]", i, res->alloc_pct[i]));
		json_array_append_new(fc, json_pack("[i,f]", i, res->frag_pct[i]));
		json_array_append_new(rc, json_pack("[i,f]", i, res->frag_ratio_pct[i]));
	}
	json_object_set_new(o, "allocation_curve", ac);
	json_object_set_new(o, "fragmentation_curve", fc);
	json_object_set_new(o, "fragmentation_ratio_curve", rc);
	json_object_set_new(jobs, "total", json_integer((json_int_t)res->ntasks));
	json_object_set_new(jobs, "placed", json_integer((json_int_t)res->scheduled));
	json_object_set_new(jobs, "completed", json_integer(0));
	json_object_set_new(jobs, "failed", json_integer((json_int_t)res->failed));
	json_object_set_new(jobs, "never_placed", json_integer((json_int_t)res->failed));
	json_object_set_new(o, "jobs", jobs);
	zero_dist = json_object();
	for (i = 0; i < 5; i++)
		json_object_set_new(zero_dist, k[i], json_real(0));
	json_object_set(o, "queue_delay", zero_dist);
	json_object_set_new(o, "jct", zero_dist);
	json_object_set_new(o, "makespan", json_real(0));
	json_object_set_new(o, "queue", json_string("none"));
	json_object_set_new(o, "note", json_string(
		"inflation mode: tasks arrive in one batch and never leave, a task that "
		"does not fit fails at once; queue_delay, jct and makespan are 0 by "
		"construction and completed counts no task"));
	json_object_set_new(o, "seed", json_integer((json_int_t)res->seed));
	json_object_set_new(o, "policy", json_string(gp_fgd_policy_name(res->policy)));
	json_object_set_new(o, "inflate", json_real(res->inflate));
	json_object_set_new(o, "gpu_utilization", json_real((double)res->used_milli / (double)res->total_milli));
	json_object_set_new(o, "allocated_gpu_milli", json_integer((json_int_t)res->used_milli));
	json_object_set_new(o, "arrived_gpu_milli", json_integer((json_int_t)res->arrived_milli));
	json_object_set_new(o, "total_gpus", json_integer(res->total_gpus));
	json_object_set_new(o, "nodes", json_integer(nodes->n));
	json_object_set_new(o, "trace_tasks", json_integer((json_int_t)pods->n));
	json_object_set_new(o, "typical_tasks", json_integer((json_int_t)res->ntypical));
	json_object_set_new(o, "fragmentation_gpu_milli", json_real(res->frag_milli));

	if (json_dumpf(o, fp, JSON_SORT_KEYS | JSON_COMPACT | JSON_REAL_PRECISION(12)) ||
	    fputc('\n', fp) == EOF)
		status = GP_EIO;
	json_decref(o);
	return status;
}

/* Per-task decisions, in the columns of the artifact decision logs. */
static int render_events(FILE *fp, const gp_fgd_result *res,
			 const gp_openb_pods *pods, const gp_openb_nodes *nodes)
{
	size_t j;
	fprintf(fp, "seq,pod,source_pod,node,gpus,status,used_gpu_milli,arrived_gpu_milli,frag_milli,frag_ratio_pct\n");
	for (j = 0; j < res->ntasks; j++) {
		const gp_fgd_event *e = &res->events[j];
		const char *src = pods->names[e->pod];
		int i;

		if (e->copy < 0)
			fprintf(fp, "%zu,%s,%s,", j, src, src);
		else
			fprintf(fp, "%zu,%s-tuned-%d,%s,", j, src, e->copy, src);
		fprintf(fp, "%s,", e->node >= 0 ? nodes->names[e->node] : "");
		for (i = 0; i < GP_OPENB_MAX_NODE_GPUS; i++)
			if (e->gpus & (1u << i))
				fprintf(fp, "%s%d", (e->gpus & ((1u << i) - 1)) ? "-" : "", i);
		fprintf(fp, ",%s,%lld,%lld,%.2f,%.2f\n", e->node >= 0 ? "scheduled" : "failed",
			(long long)e->used_milli, (long long)e->arrived_milli, e->frag_milli,
			e->idle_milli > 0 ? 100.0 * e->frag_milli / e->idle_milli : 0.0);
	}
	return ferror(fp) ? GP_EIO : GP_OK;
}

static void print_text(const gp_fgd_result *res, const gp_openb_nodes *nodes,
		       const gp_openb_pods *pods)
{
	int x;

	printf("policy %s  seed %lld  inflate %g\n", gp_fgd_policy_name(res->policy),
	       (long long)res->seed, res->inflate);
	printf("cluster %d nodes, %d GPUs; trace %zu tasks (%zu typical shapes), %zu after inflation\n",
	       nodes->n, res->total_gpus, pods->n, res->ntypical, res->ntasks);
	printf("placed %zu, failed %zu; arrived %.2f %%, allocated %.2f %% of GPU capacity\n",
	       res->scheduled, res->failed, 100.0 * (double)res->arrived_milli / (double)res->total_milli,
	       100.0 * (double)res->used_milli / (double)res->total_milli);
	printf("\n%8s %12s %12s %12s\n", "arrived%", "allocated%", "frag%", "frag/idle%");
	for (x = 0; x < res->npoints; x += 10)
		printf("%8d %12.2f %12.2f %12.2f\n", x, res->alloc_pct[x], res->frag_pct[x], res->frag_ratio_pct[x]);
	if ((res->npoints - 1) % 10)
		printf("%8d %12.2f %12.2f %12.2f\n", res->npoints - 1, res->alloc_pct[res->npoints - 1],
		       res->frag_pct[res->npoints - 1], res->frag_ratio_pct[res->npoints - 1]);
}


int gp_fgd_cli_operands(gp_opt_state *o, const char **trace)
{
	if (o->nargs > 1)
		return gp_opt_bad(o, "more than one pod list ('%s', '%s')", o->args[0], o->args[1]);
	*trace = o->nargs ? o->args[0] : NULL;
	return GP_OK;
}

int gp_fgd_cli_require(const char *cmd, int have_inflate, const char *cluster,
			 const char *trace)
{
	if (!have_inflate)
		return gp_cli_usage_error(cmd, "--inflate X is required in this mode");
	if (!cluster)
		return gp_cli_usage_error(cmd, "--inflate needs -c with an openb node list CSV");
	if (!trace)
		return gp_cli_usage_error(cmd, "missing the openb pod list CSV");
	return GP_OK;
}

/* Shared with compare: loads both inputs, reporting errors. */
int gp_fgd_cli_load(const char *nodes_path, const char *pods_path,
		      gp_openb_nodes *nodes, gp_openb_pods *pods)
{
	gp_error err = GP_ERROR_INIT;

	if (gp_openb_nodes_load(nodes_path, nodes, &err))
		return gp_cli_report(&err);
	if (gp_openb_pods_load(pods_path, pods, &err)) {
		gp_openb_nodes_release(nodes);
		return gp_cli_report(&err);
	}
	return GP_OK;
}

enum { O_INFLATE = 1, O_POLICY, O_SEED, O_JSON, O_EVENTS, O_QUIET, O_NO_SHUFFLE };

static const gp_opt inflate_opts[] = {
	{ .name = "cluster", .sc = 'c', .key = 'c', .type = GP_OT_STR, .arg = "NODES.csv",
	  .help = "the openb node list (sn,cpu_milli,memory_mib,gpu,model)" },
	GP_OPT_INFLATE(O_INFLATE),
	{ .name = "policy", .key = O_POLICY, .type = GP_OT_STR, .arg = "NAME",
	  .help = "fgd (default), fgd-bestfit, fgd-dotprod, fgd-gpu-packing,\n"
		  "fgd-gpu-clustering or fgd-random" },
	{ .name = "seed", .key = O_SEED, .type = GP_OT_LONG, .arg = "N", .min = 0,
	  .max = 2147483646, .help = "seed of the trace's shuffle and the ties (default 42)" },
	{ .name = "json", .key = O_JSON, .type = GP_OT_STR, .arg = "FILE",
	  .help = "the curves and counts as JSON ('-' for standard output)" },
	{ .name = "events", .key = O_EVENTS, .type = GP_OT_STR, .arg = "FILE",
	  .help = "one CSV row per task: its node, GPUs and the fragmentation after it" },
	{ .name = "no-shuffle", .key = O_NO_SHUFFLE, .type = GP_OT_FLAG,
	  .help = "keep the pod list's order" },
	{ .name = "quiet", .sc = 'q', .key = O_QUIET, .type = GP_OT_FLAG,
	  .help = "no text report on standard output (files still written)" },
	{ 0 },
};

const gp_cmd_desc gp_desc_simulate_inflate = {
	.name = "simulate inflate", .cmd = "simulate",
	.synopsis = "-c NODES.csv PODS.csv --inflate X [--policy NAME] [--seed N]\n"
		    "  [--json FILE] [--events FILE] [--no-shuffle] [-q]",
	.min_args = 0, .max_args = -1,
	.about = "FGD's workload-inflation experiment on an openb node list and pod list:\n"
		 "tasks arrive in one batch until their GPU demand is X times the cluster's\n"
		 "GPU capacity, and never leave (fractional GPU sharing; gpuplan(1)).  The old\n"
		 "spelling, --inflate X among simulate's options, runs it too.\n",
	.opts = inflate_opts,
};

int gp_cmd_simulate_inflate(int argc, char **argv)
{
	const char *cluster = NULL, *trace = NULL, *json = NULL, *events = NULL;
	gp_fgd_opts opts = { GP_FGD_FGD, 0, 42, 1, 0 };
	int c = 0, quiet = 0, status = GP_OK, have_inflate = 0;
	gp_openb_nodes nodes;
	gp_openb_pods pods;
	gp_fgd_result res;
	gp_cli_outset files = { 0 };
	gp_error err = GP_ERROR_INIT;
	gp_opt_state o;

	gp_opt_begin(&o, &gp_desc_simulate_inflate, argc, argv);
	while (status == GP_OK && (c = gp_opt_next(&o)) > 0) {
		switch (c) {
		case 'c': cluster = o.arg; break;
		case O_INFLATE: opts.inflate = o.v; have_inflate = 1; break;
		case O_POLICY:
			opts.policy = gp_fgd_policy_parse(o.arg);
			if (opts.policy < 0)
				status = gp_opt_bad(&o, "unknown sharing policy '%s' (fgd, fgd-bestfit, "
						    "fgd-dotprod, fgd-gpu-packing, fgd-gpu-clustering, "
						    "fgd-random)", o.arg);
			break;
		case O_SEED: opts.seed = o.l; break;
		case O_JSON: json = o.arg; break;
		case O_EVENTS: events = o.arg; break;
		case O_QUIET: quiet = 1; break;
		case O_NO_SHUFFLE: opts.shuffle = 0; break;
		}
	}
	if (status == GP_OK && c < 0)
		status = o.status;
	if (status == GP_OK)
		status = gp_fgd_cli_operands(&o, &trace);
	gp_opt_end(&o);
	if (status)
		return status;
	if ((status = gp_fgd_cli_require(CMD, have_inflate, cluster, trace)))
		return status;
	opts.record = events != NULL;
	/* Output folders exist and are writable before the run. */
	if ((json && gp_cli_make_parent(json)) || (events && gp_cli_make_parent(events)))
		return GP_EIO;
	if ((status = gp_fgd_cli_load(cluster, trace, &nodes, &pods)))
		return status;
	status = gp_fgd_run(&nodes, &pods, &opts, &res, &err);
	if (status) {
		gp_cli_report(&err);
		goto out;
	}
	/* Files are all written or none; "-" prints the JSON afterwards. */
	if (json && strcmp(json, "-")) {
		FILE *fp = gp_cli_outset_add(&files, json);

		if (!fp || render_json(fp, &res, &pods, &nodes)) {
			status = GP_EIO;
			goto out_files;
		}
	}
	if (events) {
		FILE *fp = gp_cli_outset_add(&files, events);

		if (!fp || render_events(fp, &res, &pods, &nodes)) {
			status = GP_EIO;
			goto out_files;
		}
	}
	if ((status = gp_cli_outset_commit(&files)))
		goto out_res;
	if (json && !strcmp(json, "-") && render_json(stdout, &res, &pods, &nodes)) {
		status = GP_EIO;
		goto out_res;
	}
	if (!quiet && !(json && !strcmp(json, "-")))
		print_text(&res, &nodes, &pods);
out_files:
	gp_cli_outset_release(&files);
out_res:
	gp_fgd_result_release(&res);
out:
	gp_openb_pods_release(&pods);
	gp_openb_nodes_release(&nodes);
	return status;
}
