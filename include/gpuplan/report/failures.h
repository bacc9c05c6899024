/* Reports of runs with failures (sim/failsim.h): the `failures` object of
 * `simulate --json`, the text block, the --events CSV. */
#ifndef GPUPLAN_REPORT_FAILURES_H
#define GPUPLAN_REPORT_FAILURES_H

#include <jansson.h>

#include "gpuplan/model/cluster.h"
#include "gpuplan/model/job.h"
#include "gpuplan/report/report.h"
#include "gpuplan/sim/failsim.h"
#include "gpuplan/util/util.h"

/* {injected, detected, jobs_interrupted, replaced, shrunk, restarted,
 * failed_jobs, lost_gpu_hours, recovery_s {mean, p50, p90, p99, max},
 * recoveries, ettr, ettr_jobs, goodput} and the run's failure settings
 * (cfg may be NULL). */
json_t *gp_report_failures_json(const gp_failsim_summary *s, const gp_failsim_config *cfg);
void gp_report_failures_text(const gp_failsim_summary *s, const gp_failsim_config *cfg,
			     gp_sbuf *out);
/* time_s,node,gpu,kind,job,action,replacement,detect_s,recover_s */
void gp_report_failures_events_csv(const gp_failsim *f, const gp_cluster *c,
				   const gp_joblist *jobs, gp_sbuf *out);

#endif
