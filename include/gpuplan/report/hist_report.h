/* The record against the replay in reports (sim/hist_check.h): a text
 * section, a JSON object and a chart of both queue-delay distributions;
 * each only when the trace carries recorded starts. */
#ifndef GPUPLAN_HIST_REPORT_H
#define GPUPLAN_HIST_REPORT_H

#include <jansson.h>

#include "gpuplan/model/job.h"
#include "gpuplan/sim/sim.h"
#include "gpuplan/util/util.h"

struct gp_report_ident;

void gp_report_hist_text(const gp_joblist *jobs, const gp_sim_result *r, gp_sbuf *out);
/* The "recorded_vs_simulated" object; NULL without recorded starts. */
json_t *gp_report_hist_json(const gp_joblist *jobs, const gp_sim_result *r);
/* queue-delay-recorded.svg: the CDFs of recorded and simulated delay. */
void gp_report_hist_svg(const struct gp_report_ident *id, const gp_joblist *jobs,
			const gp_sim_result *r, gp_sbuf *out);

#endif
