/* The failure options of `simulate` (failures in the simulator): parsing,
 * checking, and adding a run's failure results to the reports. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpuplan/report/failures.h"
#include "gpuplan/util/util.h"

const gp_opt gp_sim_fail_opts[] = {
	{ .name = "failures", .key = GP_OPT_FAILURES, .type = GP_OT_STR, .arg = "FILE",
	  .heading = "failures (see gpuplan(1), \"Failures in the simulator\"):",
	  .help = "failure list (time_s,node,gpu,kind,repair_s)" },
	{ .name = "mtbf-node", .key = GP_OPT_MTBF_NODE, .type = GP_OT_DURATION, .arg = "H",
	  .min = 1e-6, .max = 1e12, .unit = "h",
	  .help = "node failures, mean hours between them per node" },
	{ .name = "mtbf-gpu", .key = GP_OPT_MTBF_GPU, .type = GP_OT_DURATION, .arg = "H",
	  .min = 1e-6, .max = 1e12, .unit = "h",
	  .help = "GPU failures, mean hours between them per GPU" },
	{ .name = "weibull-shape", .key = GP_OPT_WEIBULL, .type = GP_OT_DOUBLE, .arg = "K",
	  .min = 0.05, .max = 20, .help = "time to failure Weibull with shape K (default 1:\nexponential)" },
	{ .name = "failure-model", .key = GP_OPT_FAILURE_MODEL, .type = GP_OT_STR, .arg = "F",
	  .help = "shape and MTBF from a `failures fit` model file" },
	{ .name = "failure-start", .key = GP_OPT_FAILURE_START, .type = GP_OT_STR, .arg = "S",
	  .help = "steady (default: the fleet in steady state at 0) or\nnew (every unit new at 0)" },
	{ .name = "repair", .key = GP_OPT_REPAIR, .type = GP_OT_STR, .arg = "H",
	  .help = "mean hours to repair, exponential (default 4; 0 at\nonce; never; a unit may follow: 30m)" },
	{ .name = "failure-seed", .key = GP_OPT_FAILURE_SEED, .type = GP_OT_LONG, .arg = "N",
	  .min = 0, .max = 2147483647, .help = "seed of the failures and heartbeats (default --seed)" },
	{ .name = "heartbeat-period", .key = GP_OPT_HB_PERIOD, .type = GP_OT_DURATION, .arg = "S",
	  .min = 1e-3, .max = 1e6, .unit = "s",
	  .help = "heartbeats every S seconds (default 5)" },
	{ .name = "heartbeat-misses", .key = GP_OPT_HB_MISSES, .type = GP_OT_LONG, .arg = "K",
	  .min = 1, .max = 1000, .help = "a failure is seen at the K-th missed heartbeat (default 3)" },
	{ .name = "recovery", .key = GP_OPT_RECOVERY, .type = GP_OT_STR, .arg = "R",
	  .help = "restart (default), replace (worker replacement),\nshrink or fail" },
	{ .name = "restart-cost", .key = GP_OPT_RESTART_COST, .type = GP_OT_DURATION, .arg = "S",
	  .min = 0, .max = 1e9, .unit = "s", .help = "seconds a restarted job spends starting (default 0)" },
	{ .name = "events", .key = GP_OPT_EVENTS, .type = GP_OT_STR, .arg = "FILE",
	  .help = "one CSV row per failure and job hit" },
	{ 0 },
};

int gp_cli_fail_opt(gp_opt_state *s, gp_run_failures *f, const char **events, int *any)
{
	const char *arg = s->arg;

	switch (s->cur->key) {
	case GP_OPT_FAILURES: f->csv = arg; break;
	case GP_OPT_FAILURE_MODEL: f->model = arg; break;
	case GP_OPT_EVENTS: *events = arg; return 0; /* an output, not a failure source */
	case GP_OPT_MTBF_NODE: f->mtbf_node = s->v; break;
	case GP_OPT_MTBF_GPU: f->mtbf_gpu = s->v; break;
	case GP_OPT_WEIBULL:
		f->shape = s->v;
		f->shape_set = 1;
		break;
	case GP_OPT_REPAIR:
		if (!strcmp(arg, "never"))
			f->repair = -1;
		else if (gp_parse_duration(arg, "h", 0, 1e9, &f->repair))
			return gp_opt_bad(s, "--repair wants hours >= 0 (or with a unit: 30m, 2h, 1d) or "
					  "'never', not '%s'", arg);
		break;
	case GP_OPT_FAILURE_SEED:
		f->seed = (unsigned long long)s->l;
		f->seed_set = 1;
		break;
	case GP_OPT_HB_PERIOD: f->hb_period = s->v; break;
	case GP_OPT_HB_MISSES: f->hb_misses = (int)s->l; break;
	case GP_OPT_RECOVERY:
		f->recovery = gp_recovery_parse(arg);
		if (f->recovery < 0)
			return gp_opt_bad(s, "--recovery is replace, restart, shrink or fail, not '%s'", arg);
		break;
	case GP_OPT_FAILURE_START:
		if (strcmp(arg, "new") && strcmp(arg, "steady"))
			return gp_opt_bad(s, "--failure-start is steady or new, not '%s'", arg);
		f->start_new = !strcmp(arg, "new");
		break;
	case GP_OPT_RESTART_COST: f->restart_cost = s->v; break;
	default:
		return -1;
	}
	*any = 1;
	return 0;
}

int gp_cli_fail_check(const char *cmd, const gp_run_failures *f, const char *events, int any)
{
	if (events && !f->csv && !f->model && !(f->mtbf_node > 0) && !(f->mtbf_gpu > 0))
		return gp_cli_usage_error(cmd, "--events needs failures (--failures, --mtbf-node, "
					  "--mtbf-gpu or --failure-model)");
	if (any && !gp_run_failures_on(f))
		return gp_cli_usage_error(cmd, "failure options need a failure source (--failures, "
					  "--mtbf-node, --mtbf-gpu or --failure-model)");
	return GP_OK;
}

void gp_cli_fail_json(const gp_run *r, json_t *root)
{
	gp_failsim_summary s;

	if (!r->fs)
		return;
	gp_failsim_summarize(r->fs, r->jobs, &r->res, &s);
	json_object_set_new(root, "failures", gp_report_failures_json(&s, &r->fcfg));
}

void gp_cli_fail_text(const gp_run *r, gp_sbuf *out)
{
	gp_failsim_summary s;

	if (!r->fs)
		return;
	gp_failsim_summarize(r->fs, r->jobs, &r->res, &s);
	gp_report_failures_text(&s, &r->fcfg, out);
	/* Why goodput moves so much less than lost GPU-hours between
	 * recoveries: the loss is a small share of what was allocated, and a
	 * restarted job waiting for GPUs holds none. */
	if (s.lost_gpu_hours > 0 && r->res.alloc_gpu_seconds > 0) {
		gp_sim_summary sum;
		char b[32];
		double lost = s.lost_gpu_hours * 3600 / r->res.alloc_gpu_seconds, miss = 1 - s.goodput;

		gp_sim_summarize(r->jobs, &r->res, -1, &sum);
		gp_sbuf_addf(out, "  the %.1f GPU-hours lost are %.2f %% of the %.1f allocated",
			     s.lost_gpu_hours, 100 * lost, r->res.alloc_gpu_seconds / 3600);
		/* goodput also leaves out the GPU time of jobs that did not
		 * complete and what every job spends without progress
		 * (checkpoint pauses, preemption costs): with those, "moves by
		 * that share" would read 0.01 % against a goodput of 98.41 % */
		if (miss - lost > 0.0005)
			gp_sbuf_addf(out, "; goodput (productive / allocated) misses %.2f %%: the other "
				     "%.2f %% went to jobs that did not complete, checkpoint pauses and "
				     "preemption costs", 100 * miss, 100 * (miss - lost));
		else
			gp_sbuf_adds(out, ": goodput (productive / allocated) moves by about that share");
		/* a line of its own: one of 300 characters ran off terminals
		 * and out of the --html page's box */
		gp_sbuf_adds(out, "\n");
		if (sum.waited_again)
			gp_sbuf_addf(out, "  waiting to run again (%s over %zu job(s)) holds no GPUs: it "
				     "counts in queue delay, not in lost GPU-hours or goodput\n",
				     gp_report_duration(b, sizeof(b), sum.wait_again_s), sum.waited_again);
	}
}

void gp_cli_fail_events(const gp_run *r, gp_sbuf *out)
{
	if (r->fs)
		gp_report_failures_events_csv(r->fs, r->cluster, r->jobs, out);
}

double *gp_cli_fail_times(const gp_run *f, size_t *n)
{
	const gp_failsim_row *rows;
	size_t nr, i, k = 0;
	double *t;

	*n = 0;
	if (!f->fs)
		return NULL;
	rows = gp_failsim_rows(f->fs, &nr);
	t = gp_xmalloc((nr ? nr : 1) * sizeof(*t));
	for (i = 0; i < nr; i++)
		if (k == 0 || rows[i].time != t[k - 1])
			t[k++] = rows[i].time;
	*n = k;
	return t;
}

static void job_cols(void *ud, size_t job, gp_sbuf *out)
{
	const void *const *p = ud;
	const gp_run *f = p[0];
	const gp_sim_result *r = &f->res;
	char b[64];

	gp_sbuf_addf(out, ",%d,", (int)r->jobs[job].interruptions);
	gp_sbuf_adds(out, gp_report_num(b, sizeof(b), r->jobs[job].lost_gpu_s +
					gp_failsim_job_stall_gpu_s(f->fs, job), 3));
	gp_sbuf_adds(out, ",");
	gp_sbuf_adds(out, gp_report_num(b, sizeof(b), gp_failsim_job_recovery_s(f->fs, job), 3));
}

void gp_cli_fail_jobs_csv(const gp_run *f, gp_sbuf *out)
{
	const void *ud[1] = { f };
	gp_report_job_cols x = { ",interruptions,lost_gpu_s,recovery_s", job_cols, (void *)ud };

	gp_report_sim_jobs_csv_cols(f->jobs, &f->res, f->cluster, f->fs ? &x : NULL, out);
}
