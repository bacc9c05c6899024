/* The failure options of `simulate` (failures in the simulator, issue 10):
 * parsing, building the failure hook, and adding its results to the
 * reports.  cmd_simulate.c calls these in a few places. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpuplan/report/failures.h"
#include "gpuplan/util/util.h"

void gp_cli_fail_init(gp_cli_failures *f)
{
	memset(f, 0, sizeof(*f));
	f->shape = 1.0;
	f->repair = GP_FAIL_DEFAULT_REPAIR_H;
	f->hb_period = 5.0;
	f->hb_misses = 3;
	f->recovery = GP_RECOVERY_RESTART;
	gp_fail_list_init(&f->list);
}

void gp_cli_fail_release(gp_cli_failures *f)
{
	gp_failsim_free(f->fs);
	gp_fail_list_release(&f->list);
	f->fs = NULL;
}

int gp_cli_fail_opt(const char *cmd, gp_cli_failures *f, int code, const char *arg)
{
	long l;

	switch (code) {
	case GP_OPT_FAILURES: f->csv = arg; break;
	case GP_OPT_FAILURE_MODEL: f->model = arg; break;
	case GP_OPT_EVENTS: f->events = arg; return 0; /* an output, not a failure source */
	case GP_OPT_MTBF_NODE:
		if (gp_parse_double(arg, 1e-6, 1e12, &f->mtbf_node))
			return gp_cli_usage_error(cmd, "--mtbf-node wants hours > 0, got '%s'", arg);
		break;
	case GP_OPT_MTBF_GPU:
		if (gp_parse_double(arg, 1e-6, 1e12, &f->mtbf_gpu))
			return gp_cli_usage_error(cmd, "--mtbf-gpu wants hours > 0, got '%s'", arg);
		break;
	case GP_OPT_WEIBULL:
		if (gp_parse_double(arg, 0.05, 20, &f->shape))
			return gp_cli_usage_error(cmd, "--weibull-shape wants a number in [0.05, 20], got '%s'",
						  arg);
		f->shape_set = 1;
		break;
	case GP_OPT_REPAIR:
		if (!strcmp(arg, "never"))
			f->repair = -1;
		else if (gp_parse_double(arg, 0, 1e9, &f->repair))
			return gp_cli_usage_error(cmd, "--repair wants hours >= 0 or 'never', got '%s'", arg);
		break;
	case GP_OPT_FAILURE_SEED:
		if (gp_parse_long(arg, 0, 2147483647L, &l))
			return gp_cli_usage_error(cmd, "--failure-seed wants a number 0..2147483647, got '%s'",
						  arg);
		f->seed = (unsigned long long)l;
		f->seed_set = 1;
		break;
	case GP_OPT_HB_PERIOD:
		if (gp_parse_double(arg, 1e-3, 1e6, &f->hb_period))
			return gp_cli_usage_error(cmd, "--heartbeat-period wants seconds > 0, got '%s'", arg);
		break;
	case GP_OPT_HB_MISSES:
		if (gp_parse_long(arg, 1, 1000, &l))
			return gp_cli_usage_error(cmd, "--heartbeat-misses wants 1..1000, got '%s'", arg);
		f->hb_misses = (int)l;
		break;
	case GP_OPT_RECOVERY:
		f->recovery = gp_recovery_parse(arg);
		if (f->recovery < 0)
			return gp_cli_usage_error(cmd, "--recovery is replace, restart, shrink or fail, not '%s'",
						  arg);
		break;
	case GP_OPT_FAILURE_START:
		if (strcmp(arg, "new") && strcmp(arg, "steady"))
			return gp_cli_usage_error(cmd, "--failure-start is steady or new, not '%s'", arg);
		f->start_new = !strcmp(arg, "new");
		break;
	case GP_OPT_RESTART_COST:
		if (gp_parse_double(arg, 0, 1e9, &f->restart_cost))
			return gp_cli_usage_error(cmd, "--restart-cost wants seconds >= 0, got '%s'", arg);
		break;
	default:
		return -1;
	}
	f->any = 1;
	return 0;
}

int gp_cli_fail_setup(const char *cmd, gp_cli_failures *f, const gp_cluster *c, size_t njobs,
		      unsigned long long seed)
{
	gp_error err = GP_ERROR_INIT;
	gp_fail_model m;

	if (f->events && !f->csv && !f->model && !(f->mtbf_node > 0) && !(f->mtbf_gpu > 0))
		return gp_cli_usage_error(cmd, "--events needs failures (--failures, --mtbf-node, "
					  "--mtbf-gpu or --failure-model)");
	if (!f->any)
		return GP_OK;
	if (!f->csv && !f->model && !(f->mtbf_node > 0) && !(f->mtbf_gpu > 0))
		return gp_cli_usage_error(cmd, "failure options need a failure source (--failures, "
					  "--mtbf-node, --mtbf-gpu or --failure-model)");
	gp_failsim_config_init(&f->cfg, f->seed_set ? f->seed : seed);
	if (f->model) {
		if (gp_fail_model_load(f->model, &m, &err))
			return gp_cli_report(&err);
		/* The command line wins over the model file. */
		if (m.unit == GP_FAIL_NODE && !(f->mtbf_node > 0))
			f->mtbf_node = m.mtbf_h;
		if (m.unit == GP_FAIL_GPU && !(f->mtbf_gpu > 0))
			f->mtbf_gpu = m.mtbf_h;
		if (!f->shape_set)
			f->shape = m.shape;
	}
	if (f->csv) {
		if (gp_fail_csv_load(f->csv, c, &f->list, &err))
			return gp_cli_report(&err);
		f->cfg.file = &f->list;
	}
	f->cfg.gen.mtbf_node_h = f->mtbf_node;
	f->cfg.gen.mtbf_gpu_h = f->mtbf_gpu;
	f->cfg.gen.shape = f->shape;
	f->cfg.gen.repair_h = f->repair;
	f->cfg.gen.start_new = f->start_new;
	f->cfg.hb.period_s = f->hb_period;
	f->cfg.hb.misses = f->hb_misses;
	f->cfg.recovery = f->recovery;
	f->cfg.restart_cost = f->restart_cost;
	f->fs = gp_failsim_new(&f->cfg, c, njobs);
	return GP_OK;
}

int gp_cli_fail_attach(gp_cli_failures *f, gp_sim_config *cfg)
{
	int k;

	if (!f->fs)
		return GP_OK;
	for (k = 0; k < GP_SIM_MAX_HOOKS; k++)
		if (!cfg->hooks[k]) {
			cfg->hooks[k] = gp_failsim_hooks(f->fs);
			cfg->hooks[k + 1] = NULL;
			return GP_OK;
		}
	return gp_cli_fail(GP_EIO, "too many simulation hooks");
}

void gp_cli_fail_json(const gp_cli_failures *f, json_t *root, const gp_joblist *jobs,
		      const gp_sim_result *r)
{
	gp_failsim_summary s;

	if (!f->fs)
		return;
	gp_failsim_summarize(f->fs, jobs, r, &s);
	json_object_set_new(root, "failures", gp_report_failures_json(&s, &f->cfg));
}

void gp_cli_fail_text(const gp_cli_failures *f, const gp_joblist *jobs, const gp_sim_result *r,
		      gp_sbuf *out)
{
	gp_failsim_summary s;

	if (!f->fs)
		return;
	gp_failsim_summarize(f->fs, jobs, r, &s);
	gp_report_failures_text(&s, &f->cfg, out);
}

void gp_cli_fail_events(const gp_cli_failures *f, const gp_cluster *c, const gp_joblist *jobs,
			gp_sbuf *out)
{
	if (f->fs)
		gp_report_failures_events_csv(f->fs, c, jobs, out);
}

double *gp_cli_fail_times(const gp_cli_failures *f, size_t *n)
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
	const gp_cli_failures *f = p[0];
	const gp_sim_result *r = p[1];
	char b[64];

	gp_sbuf_addf(out, ",%d,", (int)r->jobs[job].interruptions);
	gp_sbuf_adds(out, gp_report_num(b, sizeof(b), r->jobs[job].lost_gpu_s +
					gp_failsim_job_stall_gpu_s(f->fs, job), 3));
	gp_sbuf_adds(out, ",");
	gp_sbuf_adds(out, gp_report_num(b, sizeof(b), gp_failsim_job_recovery_s(f->fs, job), 3));
}

void gp_cli_fail_jobs_csv(const gp_cli_failures *f, const gp_joblist *jobs, const gp_sim_result *r,
			  const gp_cluster *c, gp_sbuf *out)
{
	const void *ud[2] = { f, r };
	gp_report_job_cols x = { ",interruptions,lost_gpu_s,recovery_s", job_cols, (void *)ud };

	gp_report_sim_jobs_csv_cols(jobs, r, c, f->fs ? &x : NULL, out);
}
