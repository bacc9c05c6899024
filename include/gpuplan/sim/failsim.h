/* Failures in the simulator: a hook (sim.h, "Interruptions") that injects
 * node, GPU and link failures from a failure list and/or the seeded
 * generator (failures.h), stalls the jobs they hit until the heartbeat
 * detection, then recovers each job by the configured policy:
 *
 *   restart  checkpoint-restart: back to the front of its class queue,
 *            losing the work since its last checkpoint (the engine's
 *            checkpoint_interval / checkpoint_cost), paying restart_cost
 *            when it runs again, anywhere;
 *   replace  worker replacement (place/replace.h): the failed member is replaced by
 *            the chosen idle node or GPUs after the state copy, losing the
 *            iteration in flight; with no candidate the ring shrinks to the
 *            survivors; with no survivor, restart;
 *   shrink   drop the failed members and continue on the survivors (a
 *            fixed-duration job stretches by old GPUs / new GPUs); nothing
 *            left: restart;
 *   fail     the job ends as failed.
 *
 * A failed node (or GPU) is down for the scheduler from the failure until
 * its repair; a link failure takes the node out of scheduling too but only
 * interrupts the jobs that span several nodes.  Several failures of one
 * job are handled one after another in detection order; a job moved onto
 * a placement that still holds a failed, undetected unit stalls again. */
#ifndef GPUPLAN_SIM_FAILSIM_H
#define GPUPLAN_SIM_FAILSIM_H

#include <stddef.h>
#include <stdint.h>

#include "gpuplan/sim/failures.h"
#include "gpuplan/sim/sim.h"

enum gp_recovery { GP_RECOVERY_RESTART = 0, GP_RECOVERY_REPLACE, GP_RECOVERY_SHRINK,
		   GP_RECOVERY_FAIL, GP_RECOVERIES };
const char *gp_recovery_name(int r);
int gp_recovery_parse(const char *s); /* -1 when unknown */

typedef struct gp_failsim_config {
	const gp_fail_list *file;   /* NULL = none */
	gp_fail_gen gen;            /* both MTBFs 0 = no generator */
	gp_heartbeat hb;
	int recovery;               /* enum gp_recovery */
	double restart_cost;        /* seconds a restarted job spends starting
				     * again (no progress) */
} gp_failsim_config;

void gp_failsim_config_init(gp_failsim_config *c, uint64_t seed);

/* What became of a job hit by a failure (rows of --events). */
enum gp_failsim_action {
	GP_FA_NONE = 0,     /* the failure hit no running job */
	GP_FA_REPLACED, GP_FA_SHRUNK, GP_FA_RESTARTED, GP_FA_FAILED,
	GP_FA_ABSORBED,     /* an earlier failure's recovery already moved or
			     * stopped the job, or it ended before detection */
	GP_FA_PENDING,      /* not detected before the run ended */
	GP_FA_ACTIONS
};
const char *gp_failsim_action_name(int a);

typedef struct gp_failsim_row {
	double time;            /* of the failure */
	double detect_s;        /* detection delay */
	double recover_s;       /* failure -> the job runs again; < 0 never */
	int32_t node;
	int32_t job;            /* -1 none */
	int32_t replacement;    /* node, -1 none */
	int16_t gpu;            /* -1 whole node / link */
	uint8_t kind;           /* enum gp_fail_kind */
	uint8_t action;         /* enum gp_failsim_action */
} gp_failsim_row;

typedef struct gp_failsim gp_failsim;

gp_failsim *gp_failsim_new(const gp_failsim_config *cfg, const gp_cluster *c, size_t njobs);
void gp_failsim_free(gp_failsim *f);
/* The hook to put in gp_sim_config.hooks; valid while f lives. */
const gp_sim_hooks *gp_failsim_hooks(gp_failsim *f);

/* After the run. */
typedef struct gp_failsim_summary {
	size_t injected, detected, jobs_interrupted, replaced, shrunk, restarted, failed_jobs;
	double lost_gpu_hours;      /* work lost, overheads and stalls */
	gp_sim_dist recovery_s;     /* per recovered interruption */
	size_t recoveries;
	double ettr;                /* interrupted jobs that completed:
				     * sum productive / sum (finish - start) */
	size_t ettr_jobs;
	double goodput;             /* productive GPU-hours of completed jobs /
				     * allocated GPU-hours */
} gp_failsim_summary;

void gp_failsim_summarize(const gp_failsim *f, const gp_joblist *jobs, const gp_sim_result *r,
			  gp_failsim_summary *out);
/* Per job: seconds from failures until it ran again (summed), GPU-seconds
 * stalled (failure -> detection). */
double gp_failsim_job_recovery_s(const gp_failsim *f, size_t job);
double gp_failsim_job_stall_gpu_s(const gp_failsim *f, size_t job);
/* Rows of --events, in failure order. */
const gp_failsim_row *gp_failsim_rows(const gp_failsim *f, size_t *n);

#endif
