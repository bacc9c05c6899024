/* One simulation run: what it is (gp_run_desc: cluster, trace, policy,
 * queue discipline, backfill, preemption and las settings, durations,
 * QoS, failures, tenants, outputs, seed) and one way to run it (gp_run).
 *
 * `simulate`, `compare` and `whatif` each fill a description (from
 * command options, from a what-if spec and one configuration of its grid)
 * and hand it here, so that a run means the same thing whichever command
 * asked for it.  The builders check their own input language (option
 * names, spec keys) and its combinations; gp_run_prepare takes a valid
 * description and loads what it names.
 *
 * A run borrows its cluster and job list: several runs (seeds, policies,
 * queues) share them.  What a run changes in the jobs (classes drawn by
 * qos.ls_fraction, predicted shares, whole GPUs, estimated memory) is put
 * back by gp_run_release, so the next run starts from the trace. */
#ifndef GPUPLAN_RUN_RUN_H
#define GPUPLAN_RUN_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "gpuplan/io/failures.h"
#include "gpuplan/io/trace.h"
#include "gpuplan/model/cluster.h"
#include "gpuplan/predict/predict.h"
#include "gpuplan/run/scale.h"
#include "gpuplan/sim/failsim.h"
#include "gpuplan/sim/qos.h"
#include "gpuplan/sim/sim.h"
#include "gpuplan/util/error.h"

/* Predicted sharing, interference and the QoS monitor. */
typedef struct gp_run_qos {
	int on;                 /* interference model and QoS hook (the
				 * predicted-share policy turns it on) */
	int exclusive;          /* every job holds whole GPUs */
	double ls_fraction;     /* each job LS with this probability
				 * (seeded); < 0: the trace's classes */
	const char *models_dir; /* predictor models, needed when on */
	gp_qos_config cfg;      /* tick, slack, min share, step, errors */
} gp_run_qos;

/* Failures in the simulator: sources, repair, detection, recovery. */
typedef struct gp_run_failures {
	const char *csv;        /* failure list file, NULL = none */
	const char *model;      /* `failures fit` model file, NULL = none */
	double mtbf_node, mtbf_gpu;  /* hours; 0 = none */
	double shape;           /* Weibull shape (1: exponential) */
	int shape_set;          /* shape given: wins over the model file's */
	double repair;          /* mean hours to repair; < 0 never */
	int start_new;          /* every unit new at time 0 */
	double hb_period;       /* heartbeat detection: seconds between */
	int hb_misses;          /* ... and missed beats before a failure is seen */
	int recovery;           /* enum gp_recovery */
	double restart_cost;
	int seed_set;           /* seed given; else the run's seed */
	uint64_t seed;
} gp_run_failures;

/* The settings of one run. */
typedef struct gp_run_desc {
	const char *cluster;    /* path, for reports; NULL = the bundled one */
	const char *trace;
	gp_trace_opts topts;
	const char *policy;     /* placement policy name */
	int queue;              /* enum gp_sim_queue */
	uint64_t seed;
	double tick;            /* timeline interval, 0 = about 500 rows */
	size_t backfill_depth;
	int backfill_mode;      /* enum gp_sim_backfill_mode (easy: 0) */
	/* Preemption and las. */
	int preempt;            /* enum gp_sim_preempt; -1 = not given (off;
				 * las preempts by its own order) */
	double preempt_cost, checkpoint_interval, checkpoint_cost;
	double las_thresholds[GP_SIM_LAS_MAX_QUEUES - 1];
	int las_nthresholds;    /* 0: the default thresholds */
	double las_starvation;
	double sched_interval;  /* scheduling passes every S seconds; 0 = after
				 * every event (gp_sim_config.sched_interval) */
	double bf_interval;     /* Slurm's backfill cycles (gp_sim_config) */
	int las_preempted_first, las_demoted_yield; /* Tiresias' las rules */
	/* Durations: recorded ones scaled from a reference (NULL = the perf
	 * model), and GPU memory estimated with a margin (< 0 = off). */
	const char *scale_ref, *scale_model;
	double mem_margin;
	gp_run_qos qos;
	gp_run_failures fail;   /* on when it names a source (gp_run_failures_on) */
	/* Tenants: a tenants file (quotas, cohorts; NULL = none), loaded by
	 * gp_run_prepare, and the tenant of jobs that name none or one the
	 * file lacks (NULL: such jobs are an input error). */
	const char *tenants;
	const char *default_tenant;
	const gp_tenants *tenants_set; /* tenants already loaded (borrowed),
				 * used instead of the file: a what-if run's
				 * quotas and weights */
	int reclaim_off;        /* no reclaim of lent quota by preemption */
	int share_within_quota; /* dominant-share: within quota, by share */
	int tenant_key;         /* enum gp_sim_tenant_key */
	/* fairshare: half-life and interval (0 = the defaults), weights of
	 * age, fair share, job size, QOS (used when fs_w_set) */
	double fs_halflife, fs_interval;
	double fs_w[4];
	int fs_w_set;
	/* Outputs (written by the command; here so a description is whole). */
	const char *json, *csv_dir, *svg_dir, *html, *events;
	gp_sim_progress_fn progress;
	void *progress_ud;
} gp_run_desc;

/* Defaults: bestfit, fifo, seed 1, no preemption given, no failures,
 * trace classes, QoS settings of gp_qos_config_init. */
void gp_run_desc_init(gp_run_desc *d);
void gp_run_failures_init(gp_run_failures *f);
/* Whether f names a failure source: a list, a model or an MTBF > 0. */
int gp_run_failures_on(const gp_run_failures *f);

/* The engine settings of d into cfg (queue, seed, tick, backfill,
 * preemption and las); cfg's cluster, policy and durations are left. */
void gp_run_desc_engine(const gp_run_desc *d, gp_sim_config *cfg);
/* "age=W,fairshare=W,jobsize=W,qos=W" (any of them, W >= 0) into d's
 * fairshare weights (the others 0); -1 when malformed. */
int gp_run_parse_weights(const char *s, gp_run_desc *d);

/* One run, prepared and run. */
typedef struct gp_run {
	const gp_run_desc *d;
	const gp_cluster *cluster;
	gp_joblist *jobs;
	gp_sim_config cfg;
	gp_sim_result res;
	int ran;
	size_t mem_sized;       /* jobs sized by the memory estimate */
	/* Durations. */
	gp_sim_perf *perf;
	gp_scale *scale;
	int own_perf, own_scale;
	/* QoS. */
	gp_pred_models models;
	gp_pred_plan plan;
	gp_qos *q;
	int predicted;          /* shares from the predictors */
	/* Failures. */
	gp_fail_list list;
	gp_failsim_config fcfg;
	gp_failsim *fs;
	/* The jobs as they were before the run changed them. */
	gp_job *saved;
	gp_tenants tenants;
} gp_run;

/* Prepare run r of d on cluster c and jobs (both borrowed; jobs is changed
 * for the run's length).  perf and scale: caches the caller keeps across
 * runs (bound to c), or NULL for the run's own (scale only with
 * d->scale_ref).  Errors: GP_EUSAGE (a bad policy name, scale reference,
 * or a setting that does not go with another), GP_EINPUT / GP_EIO from
 * the files d names.  r must be released either way. */
int gp_run_prepare(gp_run *r, const gp_run_desc *d, const gp_cluster *c, gp_joblist *jobs,
		   gp_sim_perf *perf, gp_scale *scale, gp_error *err);
/* Simulate: r->res holds the result. */
int gp_run_exec(gp_run *r, gp_error *err);
/* Frees what the run made and puts the jobs back. */
void gp_run_release(gp_run *r);

/* The run's metrics (metrics.h) into m[GP_M_COUNT], the failure ones
 * from its failure hook. */
void gp_run_metrics(const gp_run *r, double *m);

/* The preemption reports name: "las", "class", "priority", NULL = none. */
const char *gp_run_preempt_name(const gp_run *r);

#endif
