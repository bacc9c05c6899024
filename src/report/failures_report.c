/* Reports of failure runs (failures.h): the JSON `failures` object, the
 * text block, the --events CSV. */
#include <math.h>
#include <string.h>

#include "gpuplan/report/failures.h"

static json_t *real(double x, int decimals)
{
	return json_real(gp_report_round(x, decimals));
}

static json_t *dist_json(const gp_sim_dist *d)
{
	json_t *o = json_object();

	json_object_set_new(o, "mean", real(d->mean, 3));
	json_object_set_new(o, "p50", real(d->p50, 3));
	json_object_set_new(o, "p90", real(d->p90, 3));
	json_object_set_new(o, "p99", real(d->p99, 3));
	json_object_set_new(o, "max", real(d->max, 3));
	return o;
}

json_t *gp_report_failures_json(const gp_failsim_summary *s, const gp_failsim_config *cfg)
{
	json_t *o = json_object();

	json_object_set_new(o, "injected", json_integer((json_int_t)s->injected));
	json_object_set_new(o, "detected", json_integer((json_int_t)s->detected));
	json_object_set_new(o, "jobs_interrupted", json_integer((json_int_t)s->jobs_interrupted));
	json_object_set_new(o, "replaced", json_integer((json_int_t)s->replaced));
	json_object_set_new(o, "shrunk", json_integer((json_int_t)s->shrunk));
	json_object_set_new(o, "restarted", json_integer((json_int_t)s->restarted));
	json_object_set_new(o, "failed_jobs", json_integer((json_int_t)s->failed_jobs));
	json_object_set_new(o, "lost_gpu_hours", real(s->lost_gpu_hours, 3));
	json_object_set_new(o, "recovery_s", dist_json(&s->recovery_s));
	json_object_set_new(o, "recoveries", json_integer((json_int_t)s->recoveries));
	json_object_set_new(o, "ettr", real(s->ettr, 6));
	json_object_set_new(o, "ettr_jobs", json_integer((json_int_t)s->ettr_jobs));
	json_object_set_new(o, "goodput", real(s->goodput, 6));
	if (cfg) {
		json_object_set_new(o, "recovery", json_string(gp_recovery_name(cfg->recovery)));
		json_object_set_new(o, "heartbeat_period_s", real(cfg->hb.period_s, 3));
		json_object_set_new(o, "heartbeat_misses", json_integer(cfg->hb.misses));
		json_object_set_new(o, "failure_seed", json_integer((json_int_t)cfg->gen.seed));
		json_object_set_new(o, "mtbf_node_hours", real(cfg->gen.mtbf_node_h, 3));
		json_object_set_new(o, "mtbf_gpu_hours", real(cfg->gen.mtbf_gpu_h, 3));
		json_object_set_new(o, "weibull_shape", real(cfg->gen.shape, 4));
		json_object_set_new(o, "repair_hours", real(cfg->gen.repair_h, 3));
		json_object_set_new(o, "failure_start", json_string(cfg->gen.start_new ? "new" : "steady"));
		json_object_set_new(o, "restart_cost_s", real(cfg->restart_cost, 3));
	}
	return o;
}

void gp_report_failures_text(const gp_failsim_summary *s, const gp_failsim_config *cfg,
			     gp_sbuf *out)
{
	char b[5][32];

	size_t times = s->replaced + s->shrunk + s->restarted + s->failed_jobs;

	/* the actions count interruptions, and a job can be hit again: say
	 * how many times when that differs from the jobs, or they would not
	 * add up ("56 job(s) interrupted: ... 85 restarted") */
	gp_sbuf_addf(out, "\nfailures (recovery %s): %zu injected, %zu detected; %zu job(s) interrupted",
		     gp_recovery_name(cfg->recovery), s->injected, s->detected, s->jobs_interrupted);
	if (times != s->jobs_interrupted)
		gp_sbuf_addf(out, " %zu times", times);
	gp_sbuf_addf(out, ": %zu replaced, %zu shrunk, %zu restarted, %zu failed\n", s->replaced,
		     s->shrunk, s->restarted, s->failed_jobs);
	if (s->recoveries)
		gp_sbuf_addf(out, "  recovery (failure -> running again): mean %s  p50 %s  p90 %s  p99 %s  max %s\n",
			     gp_report_duration(b[0], sizeof(b[0]), s->recovery_s.mean),
			     gp_report_duration(b[1], sizeof(b[1]), s->recovery_s.p50),
			     gp_report_duration(b[2], sizeof(b[2]), s->recovery_s.p90),
			     gp_report_duration(b[3], sizeof(b[3]), s->recovery_s.p99),
			     gp_report_duration(b[4], sizeof(b[4]), s->recovery_s.max));
	gp_sbuf_addf(out, "  lost %.1f GPU-hours; ", s->lost_gpu_hours);
	if (s->ettr_jobs)
		gp_sbuf_addf(out, "ETTR of interrupted jobs %.2f %% (%zu completed); ", 100 * s->ettr,
			     s->ettr_jobs);
	else
		gp_sbuf_adds(out, "ETTR of interrupted jobs n/a (none completed); ");
	gp_sbuf_addf(out, "goodput %.2f %%\n", 100 * s->goodput);
}

void gp_report_failures_events_csv(const gp_failsim *f, const gp_cluster *c,
				   const gp_joblist *jobs, gp_sbuf *out)
{
	const gp_failsim_row *rows;
	size_t n, i;
	char b[64];

	rows = gp_failsim_rows(f, &n);
	gp_sbuf_adds(out, "time_s,node,gpu,kind,job,action,replacement,detect_s,recover_s\n");
	for (i = 0; i < n; i++) {
		const gp_failsim_row *r = &rows[i];

		gp_sbuf_adds(out, gp_report_num(b, sizeof(b), r->time, 3));
		gp_sbuf_adds(out, ",");
		gp_csv_field(out, c->nodes[r->node].name);
		if (r->gpu >= 0)
			gp_sbuf_addf(out, ",%d,", r->gpu);
		else
			gp_sbuf_adds(out, ",,");
		gp_sbuf_adds(out, gp_fail_kind_name(r->kind));
		gp_sbuf_adds(out, ",");
		if (r->job >= 0) {
			const gp_job *j = &jobs->jobs[r->job];

			if (j->id)
				gp_csv_field(out, j->id);
			else
				gp_sbuf_addf(out, "%d", r->job + 1);
		}
		gp_sbuf_addf(out, ",%s,", gp_failsim_action_name(r->action));
		if (r->replacement >= 0)
			gp_csv_field(out, c->nodes[r->replacement].name);
		gp_sbuf_adds(out, ",");
		gp_sbuf_adds(out, gp_report_num(b, sizeof(b), r->detect_s, 3));
		gp_sbuf_adds(out, ",");
		if (r->recover_s >= 0)
			gp_sbuf_adds(out, gp_report_num(b, sizeof(b), r->recover_s, 3));
		gp_sbuf_adds(out, "\n");
	}
}
