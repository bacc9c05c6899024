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
 *   priority  (priority descending, submit order); only the head may start
 *   las       Tiresias' discretized 2D least-attained-service (las.c):
 *             queues by attained GPU-seconds, fit-first, preemptive
 *   fifo-skip submit order, but a job that does not fit is passed over
 *             and later ones start (first fit in arrival order: PAI's
 *             FIFO, Tiresias' fjf); nothing is reserved for it, so a
 *             large job can starve behind a stream of small ones
 *   dominant-share  Kueue's fair sharing (drs.c): fifo-skip per tenant,
 *             across tenants the lowest dominant share with the job first
 * With preempt (class or priority) a blocked head may take the resources
 * of running jobs it outranks (preempt.c: the victim rule).
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
#include "gpuplan/util/util.h"
#include "gpuplan/model/job.h"
#include "gpuplan/place/policy.h"
#include "gpuplan/sim/tenants.h"

enum gp_sim_queue { GP_SIM_FIFO = 0, GP_SIM_SJF, GP_SIM_BACKFILL, GP_SIM_PRIORITY, GP_SIM_LAS,
		   GP_SIM_FIFO_SKIP, GP_SIM_FAIRSHARE, GP_SIM_DOMINANT_SHARE, GP_SIM_QUEUES };
const char *gp_sim_queue_name(int q);
int gp_sim_queue_parse(const char *s); /* -1 when unknown */

/* The trace column that names a job's tenant: its tenant (or
 * environment, or Philly's VC) column, or a history trace's account or
 * partition. */
enum gp_sim_tenant_key { GP_SIM_TENANT_COLUMN = 0, GP_SIM_TENANT_ACCOUNT, GP_SIM_TENANT_PARTITION,
			 GP_SIM_TENANT_KEYS };
/* "tenant" and "vc" -> GP_SIM_TENANT_COLUMN, "account", "partition"; -1
 * when unknown. */
int gp_sim_tenant_key_parse(const char *s);

enum gp_sim_state {
	GP_SIM_PENDING = 0,     /* not decided (only while running) */
	GP_SIM_DONE,            /* ran to completion */
	GP_SIM_FAILED,          /* could not be given a run time */
	GP_SIM_NEVER,           /* can never fit the cluster (see above) */
};
const char *gp_sim_state_name(int state);

/* Why a job settled as it did, recorded by the engine (gp_sim_job.why),
 * so that a report says what happened instead of guessing. */
enum gp_sim_why {
	GP_SIM_WHY_NONE = 0,    /* done */
	GP_SIM_WHY_CLUSTER,     /* never: the cluster lacks what it asks
				 * (gp_place_never says what) */
	GP_SIM_WHY_POLICY,      /* never: the policy places it nowhere, even
				 * on the idle cluster */
	GP_SIM_WHY_STUCK,       /* never: still queued when nothing ran and
				 * nothing was left to arrive (what was up
				 * could not hold it) */
	GP_SIM_WHY_NO_RUNTIME,  /* failed: no run time for it */
	GP_SIM_WHY_INTERRUPTED, /* failed: an interruption not recovered */
};

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

/* Preemption (--preempt): who may take a running job's resources. */
enum gp_sim_preempt {
	GP_SIM_PREEMPT_OFF = 0,
	GP_SIM_PREEMPT_CLASS,        /* LS jobs preempt BE jobs (predicted sharing) */
	GP_SIM_PREEMPT_PRIORITY,     /* jobs preempt strictly lower priorities */
	GP_SIM_PREEMPT_MODES
};
const char *gp_sim_preempt_name(int mode);
int gp_sim_preempt_parse(const char *s); /* -1 when unknown */

#define GP_SIM_LAS_MAX_QUEUES 16

/* Backfill (--backfill): whose rules the backfill queue follows.
 *   easy   EASY backfill (the default): the blocked head alone gets a
 *          reservation, of the GPUs it needs
 *   slurm  Slurm 22.05's sched/backfill: every waiting job, in queue
 *          order (up to bf_max_job_test = 500, or backfill_depth), starts
 *          now or gets a reservation, and a reservation holds whole nodes
 *          from its expected start to start + time limit */
enum gp_sim_backfill_mode { GP_SIM_BF_EASY = 0, GP_SIM_BF_SLURM, GP_SIM_BF_MODES };
const char *gp_sim_backfill_name(int mode);
int gp_sim_backfill_parse(const char *s); /* -1 when unknown */

/* Why a job was interrupted (counters per cause in gp_sim_result). */
enum gp_sim_cause { GP_SIM_CAUSE_PREEMPT = 0, GP_SIM_CAUSE_FAILURE, GP_SIM_CAUSE_QOS,
		    GP_SIM_CAUSE_OTHER, GP_SIM_CAUSES };

typedef struct gp_sim_hooks gp_sim_hooks;
#define GP_SIM_MAX_HOOKS 4

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
	int backfill_mode;           /* enum gp_sim_backfill_mode: EASY (one
				      * reservation, the head's GPUs) or
				      * Slurm's (backfill_slurm.c) */
	gp_sim_duration_fn duration; /* NULL = gp_sim_fixed_duration */
	void *duration_ud;
	gp_sim_progress_fn progress; /* NULL = none */
	void *progress_ud;
	/* Interruptions (see "Interruptions" below). */
	int preempt;                 /* enum gp_sim_preempt */
	double preempt_cost;         /* seconds a preempted job spends saving and
				      * restoring its state, paid when it runs
				      * again (no progress meanwhile) */
	double checkpoint_interval;  /* seconds of progress between checkpoints;
				      * 0 = none.  With it a preempted job loses
				      * the work since its last checkpoint */
	double checkpoint_cost;      /* seconds each checkpoint pauses the job */
	/* las: thresholds of attained service (GPU-seconds) between the
	 * queues; las_nthresholds + 1 queues; 0 thresholds = the default. */
	double las_thresholds[GP_SIM_LAS_MAX_QUEUES - 1];
	int las_nthresholds;
	double las_starvation;       /* las: promotion knob; 0 = off */
	int las_preempt;             /* las: preempt jobs of lower queues
				      * (gp_sim_config_init: 1) */
	/* Slurm's scheduling (man gpuplan, "Slurm's rules"): with a
	 * sched_interval > 0 jobs start only at scheduling passes every
	 * sched_interval seconds from the first submit, not the moment GPUs
	 * free up or a job arrives; 0 = a pass after every batch of events. */
	double sched_interval;
	/* Slurm's backfill cycles (backfill_mode slurm): with bf_interval > 0
	 * backfill starts jobs and plans only at cycles every bf_interval
	 * seconds from the first submit (Slurm's bf_interval, 30 s by
	 * default); the passes in between are FIFO.  0 = at every pass. */
	double bf_interval;
	/* las rules of Tiresias' simulator where gpuplan's differ (both 0
	 * by default): */
	int las_preempted_first;     /* a preempted job waits ahead of the
				      * jobs waiting in its queue, the most
				      * recently preempted first (0: by the
				      * time it entered the queue) */
	int las_demoted_yield;       /* in the pass after its demotion, a
				      * running job may be preempted by jobs
				      * waiting in its new queue (0: only by
				      * jobs of earlier queues) */
	/* Tenants (tenants.h): quotas, cohort borrowing and lending; NULL =
	 * none.  Each job's tenant is its environment (the trace's tenant,
	 * VC or account); a job of no tenant or of one the file lacks goes to
	 * default_tenant, or is an input error without one.  Tenants go with
	 * fifo, sjf, priority and fifo-skip, without preemption or hooks. */
	const gp_tenants *tenants;
	const char *default_tenant;
	int tenant_key;              /* enum gp_sim_tenant_key: the trace column
				      * naming a job's tenant */
	int reclaim_off;             /* no reclaim of lent quota by preemption
				      * (0: reclaim whenever a cohort lends) */
	int share_within_quota;      /* dominant-share: a job within its
				      * quota preempts by share, not by
				      * reclaim (0: it reclaims) */
	/* fairshare (Slurm's multifactor priority, fairshare.c): usage
	 * half-life and recomputation interval, seconds (> 0), and the
	 * weights of the age, fair-share, job size and QOS factors
	 * (gp_sim_config_init: 7 days, 300 s, 0, 1, 0, 0). */
	double fs_halflife, fs_interval;
	double fs_w_age, fs_w_fairshare, fs_w_jobsize, fs_w_qos;
	/* Interruption sources (failures, QoS): NULL-terminated. */
	const gp_sim_hooks *hooks[GP_SIM_MAX_HOOKS + 1];
} gp_sim_config;

void gp_sim_config_init(gp_sim_config *c);

/* Outcome of one job (parallel to the job list). */
typedef struct gp_sim_job {
	double start, finish;   /* -1 when it never ran */
	double iter_s;          /* per iteration, 0 unknown */
	double slowdown;        /* iter_s / best_iter_s, 0 unknown */
	int32_t nodes;          /* nodes spanned, 0 when it never ran */
	int32_t first_node;     /* lowest node id it used, -1 none */
	int32_t preemptions;    /* times it was preempted */
	int32_t interruptions;  /* times it was interrupted (any cause) */
	double lost_gpu_s;      /* GPU-seconds of work lost and of overheads
				 * (restore, copy) to interruptions */
	double ran_s;           /* seconds placed, over all its runs (set as
				 * it finishes); finish - submit - ran_s is
				 * all the time it waited */
	uint8_t state;          /* enum gp_sim_state */
	uint8_t why;            /* enum gp_sim_why */
	uint32_t nodes_at;      /* the nodes it last ran on: node ids
				 * node_ids[nodes_at .. nodes_at + nodes) */
} gp_sim_job;

#define GP_SIM_MAX_SAMPLES 1000000 /* timeline rows (48 bytes each) */
/* Longest run time of a job (iterations x iteration time): an iteration-based
 * job above it fails, as times in traces are capped at 10^10 s. */
#define GP_SIM_MAX_RUN_S 1e10

/* One timeline row, taken at each metrics tick after that tick's
 * scheduling pass, plus a last row at the end of the run. */
typedef struct gp_sim_sample {
	double t;               /* seconds from trace start */
	double utilization;     /* allocated / capacity, mean over (prev, t] */
	int64_t allocated_milli;/* GPU share allocated at t, milli-GPU */
	int32_t queued_ls, queued_be;
	int32_t running;
	int32_t preempted;      /* queued jobs waiting after an interruption */
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
	int32_t *node_ids;            /* see gp_sim_job.nodes_at */
	size_t nnode_ids, node_ids_cap;
	/* interruptions by cause (enum gp_sim_cause) */
	size_t interruptions[GP_SIM_CAUSES];
	double lost_gpu_seconds[GP_SIM_CAUSES];   /* work lost + overheads, GPU-seconds */
	size_t las_demotions, las_promotions;
	/* GPU share allocated and available, milli-GPU-seconds, over the
	 * time at least one job waits (the engine's own integral: jobs hold
	 * GPUs only while they run) */
	double queued_alloc_milli_s, queued_cap_milli_s;
	/* Tenants (config tenants): job -> tenant, and per tenant the
	 * GPU-seconds used, borrowed beyond its nominal quota and lent to its
	 * cohort, and the peak share it held (all of the first quota key). */
	int32_t *job_tenant;
	const gp_tenants *tenants;    /* the config's (borrowed) */
	size_t ntenants;
	struct gp_sim_tenant_use {
		double gpu_s, borrowed_gpu_s, lent_gpu_s;
		int64_t peak_milli;
		size_t quota_waits;     /* times a job of it found no quota */
		size_t reclaims;        /* jobs of others it preempted to get
					 * its lent quota back */
		size_t reclaimed;       /* its jobs preempted so */
		size_t reclaimed_most;  /* the most times one job of it was */
		int32_t reclaimed_most_job; /* that job (the first to get there) */
		double over_fair_s;     /* seconds it held more GPUs than its
					 * fair share: the cluster's GPUs times
					 * its weight over all tenants' */
	} *tenant_use;
	/* engine counters, for benchmarks: events taken (arrivals and heap
	 * events), batches, policy calls (placements, probes) */
	size_t events, batches, policy_calls, backfilled, peak_running, peak_queued;
} gp_sim_result;

void gp_sim_result_init(gp_sim_result *r);
void gp_sim_result_release(gp_sim_result *r);

/* Run the simulation.  Errors: GP_EUSAGE for a bad config, GP_EINPUT for
 * a job with a non-finite submit time, GP_EIO when the policy proposes a
 * placement that does not fit the state (a policy bug). */
int gp_sim_run(const gp_sim_config *cfg, const gp_joblist *jobs,
	       gp_sim_result *out, gp_error *err);

/* ---- Interruptions: one mechanism for preemption, failures and QoS ----
 *
 * A running job can be stopped now and then
 *   GP_SIM_REQUEUE  go back to its class queue (at its arrival position)
 *                   keeping its progress less what it loses; when it
 *                   starts again it may land anywhere and first spends
 *                   overhead_s without progress (restore/restart);
 *   GP_SIM_MOVE     continue at once on another placement (a replacement
 *                   member, or fewer GPUs), after overhead_s (state copy);
 *   GP_SIM_FAIL     end as failed (its resources are freed).
 * Progress is kept as work left in seconds at speed 1 on the current
 * placement; a new placement with another run time rescales it.  What an
 * interruption loses (lose):
 *   GP_SIM_LOSE_NOTHING     the state was saved;
 *   GP_SIM_LOSE_CHECKPOINT  the work since the last checkpoint of this
 *                           run (checkpoint_interval; without one, all
 *                           the work done so far);
 *   GP_SIM_LOSE_SECONDS     lost_s seconds of work (e.g. the iteration in
 *                           flight).
 * Checkpoints: every checkpoint_interval seconds of work since the job
 * (re)started, each pausing it checkpoint_cost seconds.  Lost work and
 * overheads are charged to the job (gp_sim_job.lost_gpu_s) and to the
 * cause (gp_sim_result.lost_gpu_seconds).
 *
 * Sources of interruptions plug in as hooks (gp_sim_config.hooks): the
 * engine calls begin() once after setup, event() for each event the
 * source scheduled with gp_sim_at() (in (time, sequence) order with the
 * other events of its time; the scheduling pass follows the batch),
 * started()/stopped() whenever a job starts or resumes / finishes or is
 * interrupted, and end() after the last event.  Hooks return GP_OK or an
 * error status (filled into gp_sim_error(s)), which stops the run.  Weak
 * events (failures, heartbeats) do not keep a run alive: a run ends when
 * no job runs, queues or will arrive and no strong event (a repair) is
 * pending; its weak events are then dropped.
 *
 * Nodes and GPUs go down and up: a down node or GPU is skipped by every
 * policy; jobs running on it keep running until the source interrupts
 * them (a GPU goes down once no job holds it).  Bringing one up lets
 * waiting jobs try again.
 *
 * All of this is deterministic, allocates nothing per event once pools
 * have grown, and costs nothing when no preemption, las or hook is
 * configured (the interruption state is not even allocated). */
typedef struct gp_sim gp_sim;

enum gp_sim_action { GP_SIM_REQUEUE = 0, GP_SIM_MOVE, GP_SIM_FAIL };
enum gp_sim_lose { GP_SIM_LOSE_NOTHING = 0, GP_SIM_LOSE_CHECKPOINT, GP_SIM_LOSE_SECONDS };
enum gp_sim_job_status { GP_SIM_JOB_FUTURE = 0, GP_SIM_JOB_QUEUED, GP_SIM_JOB_RUNNING,
			 GP_SIM_JOB_STALLED, GP_SIM_JOB_ENDED };

typedef struct gp_sim_interrupt {
	int action;                 /* enum gp_sim_action */
	int cause;                  /* enum gp_sim_cause */
	int lose;                   /* enum gp_sim_lose */
	double lost_s;              /* GP_SIM_LOSE_SECONDS: seconds of work */
	double overhead_s;          /* seconds without progress when it runs
				     * again (REQUEUE: at its next start;
				     * MOVE: now) */
	const gp_placement *place;  /* MOVE: the new placement (copied); it
				     * must fit once the old one is released */
	double duration;            /* MOVE: the whole run time on the new
				     * placement; <= 0: from the duration
				     * function, a fixed-duration job
				     * stretching by old GPUs / new GPUs */
} gp_sim_interrupt;

void gp_sim_interrupt_init(gp_sim_interrupt *r); /* REQUEUE, OTHER, nothing lost */
/* Interrupt a running (or stalled) job now.  GP_EUSAGE when the job does
 * not run or a MOVE placement does not fit (nothing changes then). */
int gp_sim_interrupt_job(gp_sim *s, int32_t job, const gp_sim_interrupt *r);
/* The job stops progressing now but keeps its resources (a failed member
 * nobody noticed yet); a later gp_sim_interrupt_job decides its fate. */
int gp_sim_stall(gp_sim *s, int32_t job);
/* Progress rate of a running job (0 < speed <= 1e6; 1 = as modelled). */
int gp_sim_set_speed(gp_sim *s, int32_t job, double speed);
/* Per-GPU share of every part of a running job (1..1000 milli-GPU, memory
 * unchanged), taken from or given back to its GPUs now (the QoS monitor's
 * raises and cuts).  GP_NO and no change when a GPU lacks the free share
 * for a raise; GP_EUSAGE under --queue las (its service counts assume
 * fixed shares). */
int gp_sim_set_share(gp_sim *s, int32_t job, int milli);

int gp_sim_node_down(gp_sim *s, int node);
int gp_sim_node_up(gp_sim *s, int node);
int gp_sim_gpu_down(gp_sim *s, int gpu);   /* global GPU id */
int gp_sim_gpu_up(gp_sim *s, int gpu);

/* Schedule an event of source src at time t >= now; weak: see above. */
int gp_sim_at(gp_sim *s, const gp_sim_hooks *src, double t, int64_t arg, int weak);

double gp_sim_now(const gp_sim *s);
const gp_cluster *gp_sim_cluster(const gp_sim *s);
const gp_alloc *gp_sim_alloc(const gp_sim *s);
const gp_joblist *gp_sim_joblist(const gp_sim *s);
const gp_sim_config *gp_sim_config_of(const gp_sim *s);
/* The per-job records so far (start, finish, counters). */
const gp_sim_job *gp_sim_record(const gp_sim *s, int32_t job);
/* Running and stalled jobs, in no particular order (valid until the
 * next engine call that starts or stops a job). */
const int32_t *gp_sim_running(const gp_sim *s, size_t *n);
int gp_sim_job_status(const gp_sim *s, int32_t job);
const gp_placement *gp_sim_placement(const gp_sim *s, int32_t job); /* NULL unless running */
double gp_sim_work_done(const gp_sim *s, int32_t job); /* fraction 0..1 */
int gp_sim_node_is_up(const gp_sim *s, int node);
/* Walk the jobs placed on node (running or stalled), the latest placed
 * first: it = -1 starts; each call returns the next position (-1 at the
 * end) and sets *job and *ngpus (its GPUs on that node).  Valid until the
 * next engine call that starts or stops a job. */
int32_t gp_sim_node_next(const gp_sim *s, int node, int32_t it, int32_t *job, int *ngpus);
gp_error *gp_sim_error(gp_sim *s);

struct gp_sim_hooks {
	const char *name;
	void *ud;
	int (*begin)(void *ud, gp_sim *s);
	int (*event)(void *ud, gp_sim *s, int64_t arg);
	void (*started)(void *ud, gp_sim *s, int32_t job);
	void (*stopped)(void *ud, gp_sim *s, int32_t job, int finished);
	int (*end)(void *ud, gp_sim *s);
};

/* Summary of one class (or all jobs with klass = -1). */
typedef gp_dist gp_sim_dist;

typedef struct gp_sim_summary {
	size_t total, completed, failed, never_placed;
	/* All the time a completed job waited: before its first start and
	 * after every preemption or interruption until it ran again. */
	gp_sim_dist queue_delay;
	gp_sim_dist first_start;  /* start - submit, completed jobs */
	gp_sim_dist jct;          /* finish - submit, completed jobs */
	gp_sim_dist slowdown;     /* completed jobs with a known slowdown */
	size_t with_slowdown;
	size_t waited_again;      /* completed jobs that waited after a stop */
	double wait_again_s;      /* their seconds of waiting after stops */
} gp_sim_summary;

void gp_sim_summarize(const gp_joblist *jobs, const gp_sim_result *r,
		      int klass, gp_sim_summary *out);
/* All the time completed job j waited: start - submit, plus every wait
 * after a preemption or interruption until it ran again. */
double gp_sim_job_wait(const gp_job *j, const gp_sim_job *rec);
/* The same over the jobs of one tenant (r->job_tenant). */
void gp_sim_summarize_tenant(const gp_joblist *jobs, const gp_sim_result *r,
			     int tenant, gp_sim_summary *out);

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
