/* Reports per tenant (sim.h, tenant_use): tenants.csv, one row a tenant,
 * and tenants-queue-delay-cdf.svg, each tenant's queue delay
 * distribution. */
#ifndef GPUPLAN_TENANTS_REPORT_H
#define GPUPLAN_TENANTS_REPORT_H

#include "gpuplan/model/job.h"
#include "gpuplan/sim/sim.h"
#include "gpuplan/util/util.h"

struct gp_report_ident;

#define GP_TENANTS_CHART_MAX 10 /* tenants drawn, the most jobs first */

/* The share of the run (first submit to last finish) tenant t held more
 * GPUs than its fair share; 0 for an empty run. */
double gp_report_tenant_over_fair(const gp_sim_result *r, size_t t);
/* Header and one row per tenant (nothing without tenants). */
void gp_report_tenants_csv(const gp_joblist *jobs, const gp_sim_result *r, gp_sbuf *out);
void gp_report_tenants_svg(const struct gp_report_ident *id, const gp_joblist *jobs,
			   const gp_sim_result *r, gp_sbuf *out);

#endif
