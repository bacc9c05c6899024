/* The summary metrics of one simulation run as a flat vector with stable
 * names: what `whatif` stores per run (one SQLite column each), what an
 * SLO names (`queue_delay.p90`), and what `compare` tabulates: one table
 * for both.
 *
 * gpu_utilization_queued is the GPU utilization while at least one job
 * waits in the queue: allocated GPU-seconds / available GPU-seconds over
 * the time with a non-empty queue (0 when nothing ever waits).  Unlike
 * gpu_utilization over the whole makespan, which the workload mostly
 * fixes, it shows how well a policy and queue discipline use the cluster
 * when there is demand: head-of-line blocking and fragmentation leave GPUs
 * idle while jobs wait.  Computed exactly from the jobs' submit, start and
 * finish times (one start and one finish per job). */
#ifndef GPUPLAN_RUN_METRICS_H
#define GPUPLAN_RUN_METRICS_H

#include "gpuplan/model/job.h"
#include "gpuplan/sim/sim.h"

enum gp_metric {
	GP_M_JOBS = 0, GP_M_COMPLETED, GP_M_FAILED, GP_M_NEVER_PLACED,
	GP_M_QD_MEAN, GP_M_QD_P50, GP_M_QD_P90, GP_M_QD_P99, GP_M_QD_MAX,
	GP_M_JCT_MEAN, GP_M_JCT_P50, GP_M_JCT_P90, GP_M_JCT_P99, GP_M_JCT_MAX,
	GP_M_SD_MEAN, GP_M_SD_P50, GP_M_SD_P90, GP_M_SD_P99, GP_M_SD_MAX,
	GP_M_MAKESPAN, GP_M_UTIL, GP_M_UTIL_QUEUED,
	GP_M_LOST_GPU_H, GP_M_GOODPUT,  /* failures; 0 and 1 without */
	/* Metrics a sweep stores, an SLO and --metric may name: those before
	 * GP_M_SWEPT.  The rest only compare tabulates. */
	GP_M_SWEPT,
	GP_M_PREEMPTIONS = GP_M_SWEPT,  /* jobs preempted (times) */
	GP_M_COUNT
};

enum gp_metric_kind { GP_MK_COUNT = 0, GP_MK_SECONDS, GP_MK_RATIO, GP_MK_FACTOR };

typedef struct gp_metric_info {
	const char *path;       /* "queue_delay.p90" */
	const char *column;     /* "queue_delay_p90" (SQL, CSV) */
	const char *head;       /* "queue delay p90" (tables) */
	int kind;               /* enum gp_metric_kind */
	int lower_is_better;
} gp_metric_info;

extern const gp_metric_info gp_metrics[GP_M_COUNT];

/* Index of a swept metric by path or column name ("queue_delay.p90",
 * "queue_delay_p90"); -1 when unknown. */
int gp_metric_find(const char *name);
/* The known paths, comma-separated, for messages. */
const char *gp_metric_names(void);

/* Fill m[GP_M_COUNT] from a finished run (the failure metrics as without
 * failures: gp_run_metrics, run.h, fills them from a run that had some). */
void gp_metrics_of(const gp_joblist *jobs, const gp_sim_result *r, double *m);

/* Utilization while jobs wait (see above), 0..1. */
double gp_metric_util_queued(const gp_joblist *jobs, const gp_sim_result *r);

#endif
