/* The record against the replay: when a trace carries the start each job
 * really had (gp_job.hist), the queue delays of the record and of a
 * simulation, side by side, over all jobs or a partition or account. */
#ifndef GPUPLAN_HIST_CHECK_H
#define GPUPLAN_HIST_CHECK_H

#include <stddef.h>

#include "gpuplan/model/job.h"
#include "gpuplan/sim/sim.h"

/* A delay under this counts as no wait (the record has whole seconds). */
#define GP_HIST_NO_WAIT_S 1.0

typedef struct gp_hist_delays {
	gp_dist dist;
	double no_wait;                 /* share of jobs that waited under 1 s */
} gp_hist_delays;

typedef struct gp_hist_check {
	size_t jobs;                    /* with a recorded start, started in the run */
	size_t unstarted;               /* with a recorded start, never started in the run */
	gp_hist_delays recorded, simulated;
	double ks;                      /* Kolmogorov-Smirnov distance of the two */
	double err_p50, err_p90, err_max; /* |simulated - recorded start| */
	double order_kept;              /* share of jobs, in recorded start order,
					   that the run started no earlier than the
					   job before them (1 = the same order) */
	size_t order_kept_n, order_n;   /* the same as a count: order_kept_n of
					   the order_n = jobs - 1 after the first */
} gp_hist_check;

/* Whether any job has a recorded start. */
int gp_hist_check_has(const gp_joblist *jobs);

/* The check over the jobs whose partition (by = 'p') or account ('a')
 * is name, or all jobs (by = 0).  out->jobs = 0 when none qualifies. */
void gp_hist_check_run(const gp_joblist *jobs, const gp_sim_result *r, int by, const char *name,
		       gp_hist_check *out);

/* The distinct partitions ('p') or accounts ('a') of the jobs with a
 * recorded start, sorted; *n of them (pointers into the jobs' pool).
 * Free the array. */
const char **gp_hist_check_groups(const gp_joblist *jobs, int by, size_t *n);

#endif
