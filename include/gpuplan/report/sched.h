/* How a run's queue was scheduled: the backfill rules (EASY or Slurm's),
 * their cycle and depth, where backfill's run-time estimates came from,
 * and the scheduling-pass interval.  Reports print it as one header line
 * ("sched") and as JSON keys, so a saved report says which rules ran. */
#ifndef GPUPLAN_REPORT_SCHED_H
#define GPUPLAN_REPORT_SCHED_H

#include <jansson.h>
#include <stddef.h>

#include "gpuplan/model/job.h"
#include "gpuplan/util/util.h"

/* estimates: backfill's run-time estimates. */
enum { GP_REPORT_EST_PER_TRACE = -1, GP_REPORT_EST_DURATIONS = 0, GP_REPORT_EST_LIMITS = 1 };

typedef struct gp_report_sched {
	const char *backfill;   /* "easy" or "slurm"; NULL: no backfill queue ran */
	size_t depth;           /* waiting jobs a backfill pass examines; 0 = the default */
	double bf_interval;     /* Slurm's backfill cycles in seconds; 0 = every pass */
	double sched_interval;  /* seconds between scheduling passes; 0 = after every event */
	int estimates;          /* GP_REPORT_EST_* */
	int backfill_of_several; /* the backfill queue is one of several compared:
				    the text says which queue the rules are of */
} gp_report_sched;

/* GP_REPORT_EST_LIMITS when a job of the list has a time limit (backfill
 * then takes limits as estimates, as Slurm does), else _DURATIONS. */
int gp_report_sched_estimates(const gp_joblist *jobs);

/* The "sched    ..." header line with its newline; nothing when no
 * backfill queue ran and passes follow every event (the default). */
void gp_report_sched_line(const gp_report_sched *s, gp_sbuf *out);

/* The same as text without the label, or NULL when the line is empty
 * (the HTML inputs table).  Free with free(). */
char *gp_report_sched_text(const gp_report_sched *s);

/* Adds "sched_interval" (0: a pass after every event) and, when a backfill
 * queue ran, "backfill": {"rules", "estimates", "depth", and for Slurm's
 * rules "bf_interval"} to the JSON object o. */
void gp_report_sched_json(const gp_report_sched *s, json_t *o);

#endif
