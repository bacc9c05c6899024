/* Tenants: quotas of GPUs per tenant (queue, virtual cluster, account),
 * borrowing and lending within a cohort, after Kueue's ClusterQueues.
 *
 * A tenants file (or the `tenants:` section of a cluster file):
 *   tenants:
 *     - name: a                 # the trace's tenant (environment) column
 *       quota: {gpus: 8}        # or per GPU model: {A100-SXM4-80GB: 8}
 *       cohort: c1              # optional; tenants of one cohort lend and borrow
 *       borrowing_limit: 8      # optional, GPUs; no limit when left out
 *       lending_limit: 2        # optional, GPUs this tenant lends at most
 *       weight: 1               # fair-share weight (default 1)
 *
 * Resources are the quota keys the file names: `gpus` counts every GPU a
 * job holds, a GPU model name only the GPUs of that model.  A tenant
 * without a key has a nominal quota of 0 for it (Kueue: nominalQuota).
 * Admission of a job, per resource, with u the tenant's usage after it:
 *   without a cohort: u <= nominal;
 *   in a cohort, every admission (Kueue's available quota): u - nominal
 *   <= borrowing_limit (Kueue: borrowingLimit), and the cohort's tenants
 *   together use no more of the cohort's pool than there is: sum over
 *   the cohort of max(0, u_t - guaranteed_t) <= sum of (nominal_t -
 *   guaranteed_t), where guaranteed_t = nominal_t - lending_limit_t (0
 *   without a lending limit; Kueue: lendingLimit keeps the rest for the
 *   tenant).  A tenant's quota beyond its guaranteed part is in the pool:
 *   a job within its quota whose part others borrow does not fit, and
 *   reclaims it (quota.c).
 * Quotas count GPU share (whole GPUs; a fractional job counts its share). */
#ifndef GPUPLAN_SIM_TENANTS_H
#define GPUPLAN_SIM_TENANTS_H

#include <stddef.h>
#include <stdint.h>

#include "gpuplan/util/error.h"

#define GP_TENANTS_MAX 10000    /* tenants in a file */
#define GP_TENANTS_MAX_RES 16   /* distinct quota keys */
#define GP_TENANTS_MAX_GPUS 100000000L /* a quota or limit, GPUs */
#define GP_TENANTS_MAX_BYTES (16u << 20)

typedef struct gp_tenant {
	char *name;
	int cohort;                 /* index into cohorts, -1 none */
	int64_t nominal[GP_TENANTS_MAX_RES]; /* milli-GPU per resource */
	int64_t borrow_limit;       /* milli-GPU; -1 none */
	int64_t lend_limit;         /* milli-GPU; -1 none */
	double weight;
	int line;                   /* in the file */
} gp_tenant;

typedef struct gp_tenants {
	gp_tenant *t;
	size_t n;
	char *res[GP_TENANTS_MAX_RES]; /* "gpus" or a GPU model name */
	int nres;
	char **cohorts;
	int ncohorts;
	char *path;
	int32_t *by_name;           /* tenant indexes sorted by name */
} gp_tenants;

void gp_tenants_init(gp_tenants *t);
void gp_tenants_release(gp_tenants *t);
/* Read a tenants file: GP_EINPUT with FILE:LINE:COL on a bad one. */
int gp_tenants_load(const char *path, gp_tenants *out, gp_error *err);
int gp_tenants_parse(const char *text, size_t len, const char *path, gp_tenants *out,
		     gp_error *err);
/* The tenant named name, -1 when none. */
int gp_tenants_find(const gp_tenants *t, const char *name);

#endif
