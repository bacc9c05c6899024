/* Reports of the environment simulation (`simulate --envs`): the
 * `environments` JSON object, the text table and the SVG of GPUs bound
 * over time, one column / line per mode. */
#ifndef GPUPLAN_REPORT_ENVS_H
#define GPUPLAN_REPORT_ENVS_H

#include <jansson.h>
#include <stddef.h>

#include "gpuplan/envs/envs.h"
#include "gpuplan/util/util.h"

/* What the runs were made with, for headers and JSON. */
typedef struct gp_report_envs_ident {
	const char *trace, *trace_format, *envs_file, *cluster;
	int cluster_nodes, cluster_gpus, max_gpus;
	const gp_envsim_config *cfg;    /* settings shared by the modes */
} gp_report_envs_ident;

/* The whole report: inputs, `environments` (the first mode) and
 * `environments_by_mode` (all of them). */
json_t *gp_report_envs_doc(const gp_report_envs_ident *id, const gp_envsim_result *const *r, size_t n,
			   int static_peak);

void gp_report_envs_text(const gp_report_envs_ident *id, const gp_envsim_result *const *r, size_t n,
			 int static_peak, gp_sbuf *out);

/* GPUs bound over time (the most within each time bucket), one step line
 * per mode. */
void gp_report_envs_svg(const gp_report_envs_ident *id, const gp_envsim_result *const *r, size_t n,
			gp_sbuf *out);

/* time_h and the GPUs bound (most, mean) per bucket and mode. */
void gp_report_envs_timeline_csv(const gp_envsim_result *const *r, size_t n, gp_sbuf *out);
#endif
