/* Discrete-event simulator: replays a job list on a cluster through one
 * placement policy and one queue discipline.
 *
 * Events live in a binary heap ordered by (time, sequence): job finishes
 * and metrics ticks; arrivals are merged in from the submit-sorted job
 * list.  All events of one time stamp form a batch; after each batch one
 * scheduling pass runs over the queues, LS jobs before BE jobs.
 *
 * Queue disciplines (the order inside a class; class LS always comes
 * first, so a blocked LS head blocks BE jobs under fifo and sjf too):
 *   fifo      submit order; only the head may start (head-of-line blocking)
 *   sjf       (duration, submit, trace order); only the head may start
 *   backfill  EASY: FIFO order; a blocked head gets a reservation at the
 *             earliest time it could start (found by releasing running
 *             jobs in finish order until the policy places it); a later
 *             job starts now if it fits and either finishes by that time
 *             or uses none of the head's reserved GPUs and leaves the
 *             head's host CPU and memory on shared nodes.  Run times are
 *             the jobs' real durations (a perfect-estimate EASY).  Every
 *             batch with a finish or an arrival rescans the whole queue
 *             with a fresh reservation (a job passed over earlier in a
 *             pass may fit elsewhere once later jobs started); a batch of
 *             metrics ticks alone schedules nothing, so --tick never
 *             changes a schedule.
 *
 * Exact backfill stays fast on long queues: a policy's WAIT for a job
 * shape is remembered until resources are freed (in between they only
 * shrink), and the scan behind the head visits only jobs that could start
 * (per (shape, class) queues with a min-tree of run times; see backfill.c).
 * This assumes what every policy in the table does: a job that waits on
 * a state also waits on that state with even less free.  The random
 * policy's stream follows the policy calls made, so its placements are
 * reproducible for a seed but not comparable with a plain walk.
 * tests/unit/test_sim.c checks the engine against a plain reference
 * implementation on random traces.
 *
 * Never placed: a job is "never placed" when the policy cannot place it
 * on the idle cluster (more GPUs than exist, an absent GPU model, a
 * single-node job larger than every node, ...).  It is decided once per
 * distinct job shape at arrival, never enters the queue and so never
 * blocks it.  As a safety net, a queued job that still cannot start when
 * nothing runs and nothing else will arrive is also reported never placed.
 * Failed: the run-time function could not give the job a duration (for
 * example an iteration-based job without a performance model).
 *
 * Deterministic: the policy's gp_rng is seeded with the config seed; the
 * reservation probes use a second stream derived from it.  No wall-clock
 * time enters a result.  Nothing is allocated per event once the pools
 * have grown to the peak number of running jobs. */
#ifndef GPUPLAN_SIM_H
#define GPUPLAN_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "gpuplan/model/cluster.h"
#include "gpuplan/util/error.h"
#include "gpuplan/model/job.h"
#include "gpuplan/place/policy.h"

enum gp_sim_queue { GP_SIM_FIFO = 0, GP_SIM_SJF, GP_SIM_BACKFILL, GP_SIM_QUEUES };
const char *gp_sim_queue_name(int q);
int gp_sim_queue_parse(const char *s); /* -1 when unknown */

enum gp_sim_state {
	GP_SIM_PENDING = 0,     /* not decided (only while running) */
	GP_SIM_DONE,            /* ran to completion */
	GP_SIM_FAILED,          /* could not be given a run time */
	GP_SIM_NEVER,           /* can never fit the cluster (see above) */
};
const char *gp_sim_state_name(int state);

/* What the run-time function says about a job on a placement. */
typedef struct gp_sim_runinfo {
	double duration;        /* seconds of run time */
	double iter_s;          /* seconds per iteration; 0 when unknown */
	double best_iter_s;     /* on the best placement; 0 when unknown */
} gp_sim_runinfo;

/* Run time of a job.  p is the placement it got, or NULL for an estimate
 * before placement (used to order sjf).  Returns 0, or -1 when the job
 * cannot be given a duration (it then fails). */
typedef int (*gp_sim_duration_fn)(void *ud, const gp_cluster *c,
				  const gp_job *job, const gp_placement *p,
				  gp_sim_runinfo *out);

/* The default: the job's fixed duration; -1 for iteration-based jobs. */
int gp_sim_fixed_duration(void *ud, const gp_cluster *c, const gp_job *job,
			  const gp_placement *p, gp_sim_runinfo *out);

enum { GP_SIM_SCAN_AUTO = 0, GP_SIM_SCAN_WALK, GP_SIM_SCAN_INDEX };

typedef void (*gp_sim_progress_fn)(void *ud, size_t jobs_done, size_t jobs_total);

typedef struct gp_sim_config {
	const gp_cluster *cluster;
	const gp_policy *policy;
	int queue;                   /* enum gp_sim_queue */
	uint64_t seed;
	double tick;                 /* metrics tick in seconds; 0 = auto;
				      * a run stops with GP_EUSAGE past
				      * GP_SIM_MAX_SAMPLES timeline rows */
	size_t backfill_depth;       /* backfill: queued jobs behind the head
				      * examined per pass; 0 = all (exact EASY) */
	int backfill_scan;           /* exact EASY scan: GP_SIM_SCAN_AUTO, or
				      * force the plain walk or the index
				      * (same answers; for tests and benchmarks) */
	gp_sim_duration_fn duration; /* NULL = gp_sim_fixed_duration */
	void *duration_ud;
	gp_sim_progress_fn progress; /* NULL = none */
	void *progress_ud;
} gp_sim_config;

void gp_sim_config_init(gp_sim_config *c);

/* Outcome of one job (parallel to the job list). */
typedef struct gp_sim_job {
	double start, finish;   /* -1 when it never ran */
	double iter_s;          /* per iteration, 0 unknown */
	double slowdown;        /* iter_s / best_iter_s, 0 unknown */
	int32_t nodes;          /* nodes spanned, 0 when it never ran */
	int32_t first_node;     /* lowest node id it used, -1 none */
	uint8_t state;          /* enum gp_sim_state */
} gp_sim_job;

#define GP_SIM_MAX_SAMPLES 1000000 /* timeline rows (40 bytes each) */

/* One timeline row, taken at each metrics tick after that tick's
 * scheduling pass, plus a last row at the end of the run. */
typedef struct gp_sim_sample {
	double t;               /* seconds from trace start */
	double utilization;     /* allocated / capacity, mean over (prev, t] */
	int64_t allocated_milli;/* GPU share allocated at t, milli-GPU */
	int32_t queued_ls, queued_be;
	int32_t running;
} gp_sim_sample;

typedef struct gp_sim_result {
	size_t njobs;
	gp_sim_job *jobs;
	gp_sim_sample *samples;
	size_t nsamples, samples_cap;
	double tick;                  /* the tick used */
	size_t completed, failed, never_placed;
	double first_submit;          /* earliest submit (0 when no jobs) */
	double last_finish;           /* latest finish (first_submit when none) */
	double makespan;              /* last_finish - first_submit */
	double alloc_gpu_seconds;     /* allocated GPU-seconds, milli-precise */
	double gpu_utilization;       /* alloc / (ngpus x makespan), 0..1 */
	int ngpus;
	/* engine counters, for benchmarks */
	size_t batches, policy_calls, backfilled, peak_running, peak_queued;
} gp_sim_result;

void gp_sim_result_init(gp_sim_result *r);
void gp_sim_result_release(gp_sim_result *r);

/* Run the simulation.  Errors: GP_EUSAGE for a bad config, GP_EINPUT for
 * a job with a non-finite submit time, GP_EIO when the policy proposes a
 * placement that does not fit the state (a policy bug). */
int gp_sim_run(const gp_sim_config *cfg, const gp_joblist *jobs,
	       gp_sim_result *out, gp_error *err);

/* Summary of one class (or all jobs with klass = -1). */
typedef struct gp_sim_dist {
	double mean, p50, p90, p99, max;
} gp_sim_dist;

typedef struct gp_sim_summary {
	size_t total, completed, failed, never_placed;
	gp_sim_dist queue_delay;  /* start - submit, completed jobs */
	gp_sim_dist jct;          /* finish - submit, completed jobs */
	gp_sim_dist slowdown;     /* completed jobs with a known slowdown */
	size_t with_slowdown;
} gp_sim_summary;

void gp_sim_summarize(const gp_joblist *jobs, const gp_sim_result *r,
		      int klass, gp_sim_summary *out);

/* Run times from the performance model (perf.h), for gp_sim_config.duration
 * with the object as duration_ud.  A job given by iterations (duration < 0,
 * iterations > 0) runs iterations x the modelled iteration time of the
 * placement it got; its slowdown is against the best placement on the idle
 * cluster (gp_perf_best_worst, cached per job shape).  Before placement
 * (sjf order) the estimate is iterations x the best iteration time.  Jobs
 * with a fixed duration keep it; a job the model cannot handle fails. */
typedef struct gp_sim_perf gp_sim_perf;
gp_sim_perf *gp_sim_perf_new(const gp_cluster *c);
void gp_sim_perf_free(gp_sim_perf *p);
int gp_sim_perf_duration(void *ud, const gp_cluster *c, const gp_job *job,
			 const gp_placement *p, gp_sim_runinfo *out);

#endif
