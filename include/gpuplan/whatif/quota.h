/* What-if axes over tenants: how a fixed fleet is split among teams.
 *
 *   tenants: tenants.yaml
 *   axes:
 *     quota.a: [8, 16, 24]           # tenant a's nominal quota, GPUs
 *     quota.b.A100-SXM4-80GB: 0..16/8  # of one quota key (a GPU model)
 *     weight.c: [1, 2, 4]            # fair-share weight
 *     split: {total: 512, tenants: [a, b, c, d], step: 64, min: 64}
 *   slo:
 *     tenant_p90_wait: 1h            # every tenant's p90 queue delay
 *     # or per tenant: {a: 30m, b: 2h, '*': 1h}
 *
 * A split lists every way to give its tenants multiples of `step` GPUs,
 * at least `min` each, that add up to `total` (of `model`'s quota key when
 * given, else `gpus`), the first tenant's share varying slowest.  These
 * axes together are one axis of the grid (GP_AX_TENANTS), their cross
 * product in the order written; each value sets the loaded tenants'
 * quotas and weights in memory before a run.  Every run records each
 * tenant's queue delay statistic; the tenant SLO bounds it per tenant.
 * Tenants or quota keys an axis names must be in the tenants file. */
#ifndef GPUPLAN_WHATIF_QUOTA_H
#define GPUPLAN_WHATIF_QUOTA_H

#include <stddef.h>

#include "gpuplan/io/yaml.h"
#include "gpuplan/sim/sim.h"
#include "gpuplan/util/util.h"
#include "gpuplan/whatif/spec.h"
#include "gpuplan/whatif/sweep.h"

/* Load the tenant axes under `axes` (NULL: none) and the tenant SLO in
 * `slo` (NULL: none), and the tenants they name (s->run.tenants, else the
 * cluster file's tenants: section).  GP_EINPUT with FILE:LINE:COL. */
int gp_whatif_quota_load(const gp_yaml_doc *doc, const gp_yaml_node *axes,
			 const gp_yaml_node *slo, gp_whatif_spec *s, gp_error *err);
/* Whether key is a tenant axis key ("quota.*", "weight.*", "split") or a
 * tenant SLO key ("tenant_p90_wait", ...). */
int gp_whatif_quota_axis_key(const char *key);
int gp_whatif_quota_slo_key(const char *key);
void gp_whatif_quota_release(gp_whatif_spec *s);
/* Values of the tenants axis: the product of the axes' values (1: none). */
size_t gp_whatif_quota_nvalues(const gp_whatif_spec *s);

/* The axis' database and report columns: one per quota or weight axis,
 * one per tenant of a split ("quota.T", "quota.T.MODEL"). */
size_t gp_whatif_quota_ncolumns(const gp_whatif_spec *s);
const char *gp_whatif_quota_column(const gp_whatif_spec *s, size_t k, char *buf, size_t size);
double gp_whatif_quota_column_value(const gp_whatif_spec *s, size_t k, size_t v);
/* Value v of the axis as text: the value of its one column ("16"), or
 * "NAME=VALUE ..." for several. */
const char *gp_whatif_quota_value(const gp_whatif_spec *s, size_t v, char *buf, size_t size);
/* The axis' part of a configuration key: ";NAME=VALUE" per column. */
void gp_whatif_quota_key(const gp_whatif_spec *s, size_t v, gp_sbuf *out);
/* The value whose key part is in key, -1 when none. */
long gp_whatif_quota_key_find(const gp_whatif_spec *s, const char *key);

/* Set t's quotas and weights (a copy of s->tenants) to value v. */
void gp_whatif_quota_apply(const gp_whatif_spec *s, size_t v, gp_tenants *t);
/* Why tenant t may have no job done at value v of the tenants axis: 0 it
 * has quota on some key; 1 none on any key and nothing to borrow (no
 * cohort, or a borrowing_limit of 0): its jobs can never start; 2 none,
 * in a cohort: its jobs can only borrow. */
int gp_whatif_quota_none(const gp_whatif_spec *s, size_t v, size_t t);
/* Each tenant's statistic of a finished run into out->tenant. */
void gp_whatif_quota_figures(const gp_whatif_spec *s, const gp_joblist *jobs,
			     const gp_sim_result *res, gp_whatif_result *out);

/* The tenant SLO: 1 when every bounded tenant's figure is within its
 * bound (a tenant without jobs always is), else 0; -1 without one. */
int gp_whatif_quota_meets(const gp_whatif_spec *s, const gp_whatif_result *r);
/* The bounded tenant furthest over (or least under) its bound: its index
 * and *ratio = figure / bound; -1 without a tenant SLO. */
int gp_whatif_quota_worst(const gp_whatif_spec *s, const gp_whatif_result *r, double *ratio);
/* The tenant SLO for people: "every tenant's queue_delay.p90 <= 1h00m",
 * "tenant queue_delay.p90 <= a 30m00s, b 2h00m". */
const char *gp_whatif_quota_slo_text(const gp_whatif_spec *s, char *buf, size_t size);
/* Database and CSV column of tenant t's figure: "tenant.a.queue_delay_p90". */
const char *gp_whatif_quota_figure_column(const gp_whatif_spec *s, size_t t, char *buf,
					  size_t size);

#endif
