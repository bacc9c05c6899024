/* The scheduling rules of a run, for report headers and JSON (sched.h). */
#include <stdlib.h>

#include "gpuplan/report/report.h"
#include "gpuplan/report/sched.h"

int gp_report_sched_estimates(const gp_joblist *jobs)
{
	size_t i;

	/* the backfill queue's own test: one time limit and limits are the
	 * estimates (jobs without one keep their duration) */
	for (i = 0; i < jobs->n; i++)
		if (jobs->jobs[i].hist && jobs->jobs[i].hist->time_limit > 0)
			return GP_REPORT_EST_LIMITS;
	return GP_REPORT_EST_DURATIONS;
}

static const char *est_name(int e, int json)
{
	if (e == GP_REPORT_EST_LIMITS)
		return json ? "time_limits" : "time limits";
	if (e == GP_REPORT_EST_PER_TRACE)
		return json ? "time_limits_where_given" : "time limits where a trace gives them, else durations";
	return "durations";
}

char *gp_report_sched_text(const gp_report_sched *s)
{
	gp_sbuf sb;
	char n[64];

	if (!s->backfill && !(s->sched_interval > 0))
		return NULL;
	gp_sbuf_init(&sb);
	if (s->backfill) {
		int slurm = s->backfill[0] == 's';

		if (s->backfill_of_several)
			gp_sbuf_adds(&sb, "for queue backfill: ");
		gp_sbuf_adds(&sb, slurm ? "Slurm's backfill (whole nodes reserved for every waiting job"
					: "EASY backfill (a reservation for the first waiting job");
		if (s->depth)
			gp_sbuf_addf(&sb, ", examining the first %zu waiting jobs", s->depth);
		gp_sbuf_adds(&sb, ")");
		if (slurm && s->bf_interval > 0)
			gp_sbuf_addf(&sb, " in cycles every %s s",
				     gp_report_num(n, sizeof(n), s->bf_interval, 3));
		gp_sbuf_addf(&sb, ", run-time estimates from %s; ", est_name(s->estimates, 0));
	}
	if (s->backfill && s->backfill_of_several)
		gp_sbuf_adds(&sb, "for every queue: ");
	if (s->sched_interval > 0)
		gp_sbuf_addf(&sb, "scheduling passes every %s s",
			     gp_report_num(n, sizeof(n), s->sched_interval, 3));
	else
		gp_sbuf_adds(&sb, "a scheduling pass after every event");
	return gp_sbuf_detach(&sb);
}

void gp_report_sched_line(const gp_report_sched *s, gp_sbuf *out)
{
	char *t = gp_report_sched_text(s);

	if (t)
		gp_sbuf_addf(out, "sched    %s\n", t);
	free(t);
}

void gp_report_sched_json(const gp_report_sched *s, json_t *o)
{
	json_object_set_new(o, "sched_interval", json_real(gp_report_round(s->sched_interval, 3)));
	if (s->backfill) {
		json_t *b = json_object();

		json_object_set_new(b, "rules", json_string(s->backfill));
		json_object_set_new(b, "estimates", json_string(est_name(s->estimates, 1)));
		json_object_set_new(b, "depth", json_integer((json_int_t)s->depth));
		if (s->backfill[0] == 's')
			json_object_set_new(b, "bf_interval", json_real(gp_report_round(s->bf_interval, 3)));
		json_object_set_new(o, "backfill", b);
	}
}
