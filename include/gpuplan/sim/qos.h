/* Interference between jobs sharing a GPU, and predicted sharing's QoS monitor, as
 * an interruption source of the engine (gp_sim_hooks).
 *
 * True utilization.  Every job has a predicted utilization p (the
 * predictor's, or its request when it names no model; gp_pred_plan) and a
 * true one u = p + e, e ~ Normal(0, util_error) percentage points, drawn
 * per job from the seed (the same u whatever the policy), clamped to
 * [1, 100] %.  So prediction error has consequences: a job whose share is
 * its prediction may need more than it got.
 *
 * Interference (on every GPU, whenever the set of jobs or a share
 * changes).  A GPU has capacity 1000 milli.  Each job on it first gets
 * min(u, share); the capacity left is split among the jobs that still
 * want more, in proportion to what they miss (work-conserving; a
 * throttled job takes no part).  A job's speed on the GPU is what it got
 * / u: 1 while the true utilizations sum to at most 100 %, proportional
 * beyond.  A job spanning GPUs runs at its slowest GPU's speed
 * (synchronous training); the engine stretches its remaining time.
 * On Gavel's measured co-location pairs (traces/gavel, 2 jobs on one GPU)
 * the median job keeps 54-68 % of its speed alone, and the two speeds sum
 * to 1.06-1.37: jobs that each use most of a GPU, as here.
 *
 * QoS monitor (tick > 0): every tick, for each running LS job, with
 * predicted remaining time = (1 - work done) x predicted execution time
 * (the run time alone x exp(e_t), e_t ~ Normal(0, time_error), per job):
 *   now + remaining > deadline   (job deadline_s after submit, else first
 *                                 start + predicted time x slack)
 *     -> raise its share on each of its GPUs by step (10 % of a GPU):
 *        free share first, then taken from the BE jobs on that GPU
 *        (largest share first); a BE job pushed below min_share x its
 *        share at start is checkpointed and stopped (GP_SIM_CAUSE_QOS,
 *        back to the BE queue, losing the work since its checkpoint);
 *   on time, but true utilization above its share
 *     -> throttled (paused beyond its share until usage falls back: it
 *        takes no spare capacity) until the next tick.
 * Every action is counted (gp_qos_stats). */
#ifndef GPUPLAN_SIM_QOS_H
#define GPUPLAN_SIM_QOS_H

#include <stddef.h>
#include <stdint.h>

#include "gpuplan/model/job.h"
#include "gpuplan/sim/sim.h"

typedef struct gp_qos_config {
	double tick;            /* seconds between QoS checks; 0 = no monitor */
	double slack;           /* deadline = predicted time x slack (1.5) */
	int step_milli;         /* share raise per check (100) */
	double min_share;       /* BE stops below min_share x its start share (0.5) */
	double util_error;      /* sd of true - predicted utilization, pp (8) */
	double time_error;      /* sd of log(predicted / true time) (0.2) */
	uint64_t seed;
	const double *pred_util; /* per job predicted utilization, percent */
} gp_qos_config;

void gp_qos_config_init(gp_qos_config *c);

typedef struct gp_qos_stats {
	size_t ls_done, ls_violations;   /* LS jobs completed, late ones */
	size_t ls_deadline_given;        /* LS jobs with their own deadline_s */
	size_t checks;                   /* LS job checks */
	size_t at_risk;                  /* checks that found a job late */
	size_t raises, raise_blocked;    /* shares raised; raises not possible */
	size_t cuts, be_stops, throttles;
	double util_mae_pp;              /* mean |predicted - true| over jobs run */
	size_t util_jobs;
	double busy_gpu_s;               /* GPU-seconds actually used: u x speed */
	double slowed_job_s;             /* job-seconds run below full speed */
	double mean_speed;               /* time-weighted over running jobs */
} gp_qos_stats;

typedef struct gp_qos gp_qos;

gp_qos *gp_qos_new(const gp_qos_config *cfg, const gp_joblist *jobs);
void gp_qos_free(gp_qos *q);
const gp_sim_hooks *gp_qos_hooks(gp_qos *q);
const gp_qos_stats *gp_qos_stats_of(const gp_qos *q);
/* The true utilization (milli) of job j, for tests and reports. */
int gp_qos_true_milli(const gp_qos *q, size_t j);

#endif
