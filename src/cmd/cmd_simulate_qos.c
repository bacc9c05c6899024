/* simulate: predicted sharing, interference and the QoS monitor
 * (predicted sharing): options, preparing the job list and the hook, reports. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpuplan/place/policy.h"
#include "gpuplan/predict/predict.h"
#include "gpuplan/sim/qos.h"
#include "gpuplan/util/util.h"

const char *gp_cli_models_dir(void)
{
	static char dir[4096];

	snprintf(dir, sizeof(dir), "%s/models", gp_cli_datadir());
	return dir;
}

const gp_opt gp_sim_qos_opts[] = {
	{ .name = "exclusive", .key = GP_OPT_EXCLUSIVE, .type = GP_OT_FLAG,
	  .help = "every job gets whole GPUs, whatever its share" },
	{ .name = "interference", .key = GP_OPT_INTERFERENCE, .type = GP_OT_FLAG,
	  .help = "jobs sharing a GPU slow each other by their true\n"
		  "utilization (on with predicted-share and --qos-tick)" },
	{ .name = "util-error", .key = GP_OPT_UTIL_ERROR, .type = GP_OT_DOUBLE, .arg = "PP",
	  .min = 0, .max = 100, .help = "true utilization = predicted + N(0, PP) (default 8)" },
	{ .name = "time-error", .key = GP_OPT_TIME_ERROR, .type = GP_OT_DOUBLE, .arg = "F",
	  .min = 0, .max = 10, .help = "predicted time = true x exp(N(0, F)) (default 0.2)" },
	{ .name = "qos-tick", .key = GP_OPT_QOS_TICK, .type = GP_OT_DURATION, .arg = "S",
	  .min = 1e-3, .max = 1e9, .unit = "s",
	  .help = "QoS monitor every S seconds: late LS jobs gain 10 % of a\n"
		  "GPU from free share or BE jobs (BE stopped below its minimum)" },
	{ .name = "qos-slack", .key = GP_OPT_QOS_SLACK, .type = GP_OT_DOUBLE, .arg = "F",
	  .min = 1, .max = 1e6, .help = "LS deadline without deadline_s: predicted time x F (1.5)" },
	{ .name = "qos-min-share", .key = GP_OPT_QOS_MIN_SHARE, .type = GP_OT_DOUBLE, .arg = "F",
	  .min = 0, .max = 1, .help = "BE minimum share, x its share at start (0.5)" },
	{ .name = "qos-step", .key = GP_OPT_QOS_STEP, .type = GP_OT_LONG, .arg = "M",
	  .min = 1, .max = 1000, .help = "share raise per check, milli-GPU (100)" },
	{ .name = "ls-fraction", .key = GP_OPT_LS_FRACTION, .type = GP_OT_DOUBLE, .arg = "F",
	  .min = 0, .max = 1, .help = "make each job LS with probability F (seeded)" },
	{ .name = "predict-models", .key = GP_OPT_PREDICT_MODELS, .type = GP_OT_STR, .arg = "D",
	  .help = "predictor models (default: the bundled ones)" },
	{ 0 },
};

int gp_cli_qos_opt(gp_opt_state *s, gp_run_qos *q)
{
	switch (s->cur->key) {
	case GP_OPT_QOS_TICK: q->on = 1; q->cfg.tick = s->v; return 0;
	case GP_OPT_QOS_SLACK: q->cfg.slack = s->v; return 0;
	case GP_OPT_QOS_MIN_SHARE: q->cfg.min_share = s->v; return 0;
	case GP_OPT_QOS_STEP: q->cfg.step_milli = (int)s->l; return 0;
	case GP_OPT_UTIL_ERROR: q->cfg.util_error = s->v; return 0;
	case GP_OPT_TIME_ERROR: q->cfg.time_error = s->v; return 0;
	case GP_OPT_INTERFERENCE: q->on = 1; return 0;
	case GP_OPT_EXCLUSIVE: q->exclusive = 1; return 0;
	case GP_OPT_LS_FRACTION: q->ls_fraction = s->v; return 0;
	case GP_OPT_PREDICT_MODELS: q->models_dir = s->arg; return 0;
	default: return -1;
	}
}

/* Busy share of the GPUs over the run: true utilization x speed. */
static double busy_util(const gp_run *q, const gp_sim_result *r)
{
	const gp_qos_stats *st = gp_qos_stats_of(q->q);

	return r->makespan > 0 && r->ngpus > 0 ? st->busy_gpu_s / (r->ngpus * r->makespan) : 0;
}

/* The same runs holding whole GPUs: what exclusive allocation would book. */
static double whole_util(const gp_joblist *jobs, const gp_sim_result *r)
{
	double g = 0;
	size_t i;

	for (i = 0; i < r->njobs && i < jobs->n; i++)
		if (r->jobs[i].state == GP_SIM_DONE)
			g += (double)jobs->jobs[i].gpus * (r->jobs[i].finish - r->jobs[i].start);
	return r->makespan > 0 && r->ngpus > 0 ? g / (r->ngpus * r->makespan) : 0;
}

void gp_cli_qos_text(const gp_run *run, gp_sbuf *sb)
{
	const gp_run_qos *q = &run->d->qos;
	const gp_joblist *jobs = run->jobs;
	const gp_sim_result *r = &run->res;
	const gp_qos_stats *st;
	gp_sim_summary ls, be;

	if (!run->q)
		return;
	st = gp_qos_stats_of(run->q);
	gp_sim_summarize(jobs, r, GP_CLASS_LS, &ls);
	gp_sim_summarize(jobs, r, GP_CLASS_BE, &be);
	gp_sbuf_addf(sb, "\nPredicted sharing and QoS\n");
	gp_sbuf_addf(sb, "  shares            %s; %zu of %zu jobs predicted from their model "
		     "(the rest keep their request)\n",
		     q->exclusive ? "whole GPUs (--exclusive)" :
		     run->predicted ? "predicted utilization" : "as requested",
		     run->plan.with_profile, jobs->n);
	gp_sbuf_addf(sb, "  true utilization  predicted + N(0, %g pp); |predicted - true| %.2f pp "
		     "mean over %zu jobs\n", q->cfg.util_error, st->util_mae_pp, st->util_jobs);
	gp_sbuf_addf(sb, "  GPU utilization   allocated %.1f %%, busy (true use x speed) %.1f %%, "
		     "whole GPUs for the same runs %.1f %%\n",
		     100 * r->gpu_utilization, 100 * busy_util(run, r), 100 * whole_util(jobs, r));
	gp_sbuf_addf(sb, "  interference      mean speed %.3f, %.0f job-hours below full speed\n",
		     st->mean_speed, st->slowed_job_s / 3600);
	if (q->cfg.tick > 0)
		gp_sbuf_addf(sb, "  QoS monitor       every %g s, slack %g, step %d milli, BE minimum "
			     "%g of its share\n", q->cfg.tick, q->cfg.slack, q->cfg.step_milli,
			     q->cfg.min_share);
	else
		gp_sbuf_addf(sb, "  QoS monitor       off (deadlines from predicted time x %g)\n",
			     q->cfg.slack);
	gp_sbuf_addf(sb, "  LS jobs           %zu completed, %zu late (%.1f %%), JCT mean %.0f s, p90 %.0f s\n",
		     st->ls_done, st->ls_violations,
		     st->ls_done ? 100.0 * (double)st->ls_violations / (double)st->ls_done : 0,
		     ls.jct.mean, ls.jct.p90);
	gp_sbuf_addf(sb, "  BE jobs           %zu completed, JCT mean %.0f s, p90 %.0f s; %zu stopped "
		     "by QoS\n", be.completed, be.jct.mean, be.jct.p90, st->be_stops);
	gp_sbuf_addf(sb, "  actions           %zu checks, %zu at risk, %zu share raises (%zu blocked), "
		     "%zu BE cuts, %zu BE stops, %zu throttles\n", st->checks, st->at_risk,
		     st->raises, st->raise_blocked, st->cuts, st->be_stops, st->throttles);
}

void gp_cli_qos_json(const gp_run *run, json_t *o)
{
	const gp_run_qos *q = &run->d->qos;
	const gp_joblist *jobs = run->jobs;
	const gp_sim_result *r = &run->res;
	const gp_qos_stats *st;
	gp_sim_summary ls, be;
	json_t *x;

	if (!run->q)
		return;
	st = gp_qos_stats_of(run->q);
	gp_sim_summarize(jobs, r, GP_CLASS_LS, &ls);
	gp_sim_summarize(jobs, r, GP_CLASS_BE, &be);
	x = json_object();
	json_object_set_new(x, "shares", json_string(q->exclusive ? "exclusive" :
						     run->predicted ? "predicted" : "requested"));
	json_object_set_new(x, "jobs_predicted", json_integer((json_int_t)run->plan.with_profile));
	json_object_set_new(x, "util_error_pp", json_real(q->cfg.util_error));
	json_object_set_new(x, "util_abs_error_pp", json_real(st->util_mae_pp));
	json_object_set_new(x, "gpu_utilization_allocated", json_real(r->gpu_utilization));
	json_object_set_new(x, "gpu_utilization_busy", json_real(busy_util(run, r)));
	json_object_set_new(x, "gpu_utilization_whole_gpus", json_real(whole_util(jobs, r)));
	json_object_set_new(x, "mean_speed", json_real(st->mean_speed));
	json_object_set_new(x, "slowed_job_hours", json_real(st->slowed_job_s / 3600));
	json_object_set_new(x, "qos_tick_s", json_real(q->cfg.tick));
	json_object_set_new(x, "qos_slack", json_real(q->cfg.slack));
	json_object_set_new(x, "ls_completed", json_integer((json_int_t)st->ls_done));
	json_object_set_new(x, "ls_violations", json_integer((json_int_t)st->ls_violations));
	json_object_set_new(x, "ls_violation_pct",
			    json_real(st->ls_done ? 100.0 * (double)st->ls_violations /
					  (double)st->ls_done : 0));
	json_object_set_new(x, "ls_jct_mean_s", json_real(ls.jct.mean));
	json_object_set_new(x, "be_jct_mean_s", json_real(be.jct.mean));
	json_object_set_new(x, "checks", json_integer((json_int_t)st->checks));
	json_object_set_new(x, "at_risk", json_integer((json_int_t)st->at_risk));
	json_object_set_new(x, "share_raises", json_integer((json_int_t)st->raises));
	json_object_set_new(x, "share_raises_blocked", json_integer((json_int_t)st->raise_blocked));
	json_object_set_new(x, "be_cuts", json_integer((json_int_t)st->cuts));
	json_object_set_new(x, "be_stops", json_integer((json_int_t)st->be_stops));
	json_object_set_new(x, "throttles", json_integer((json_int_t)st->throttles));
	json_object_set_new(o, "qos", x);
}

int gp_cli_predict_jobs(const gp_cluster *c, gp_joblist *l, gp_pred_plan *pl, gp_explain *e)
{
	gp_pred_models m;
	gp_error err = GP_ERROR_INIT;
	char dir[4096];
	size_t i;
	int rc;

	gp_pred_models_init(&m);
	snprintf(dir, sizeof(dir), "%s/models", gp_cli_datadir());
	rc = gp_pred_models_load(&m, dir, &err);
	if (rc == GP_OK)
		rc = gp_pred_plan_build(pl, &m, c, l, &err);
	gp_pred_models_release(&m);
	if (rc != GP_OK)
		return gp_cli_report(&err);
	gp_pred_plan_apply(pl, l);
	for (i = 0; e && i < l->n; i++) {
		if (!pl->has[i]) {
			gp_explain_add(e, "predicted-share: job '%s' names no model with an operator "
				       "profile: its request is used (%d milli-GPU, %lld MiB)", l->jobs[i].id,
				       pl->req_milli[i], (long long)pl->req_mem[i]);
			continue;
		}
		gp_explain_add(e, "predicted-share: predicted utilization %.1f %% on %s -> %d milli-GPU "
			       "per GPU (requested %d), memory %lld MiB (requested %lld)",
			       pl->pred_util[i], pl->ref >= 0 ? c->catalog.models[pl->ref].name : "?",
			       pl->pred_milli[i], pl->req_milli[i], (long long)pl->pred_mem[i],
			       (long long)pl->req_mem[i]);
	}
	return GP_OK;
}
