/* Running a what-if sweep: one run in-process (runner), many in worker
 * processes (pool), the results of a sweep in memory (results), the
 * bisection along a monotone count axis (search), and the answer.
 *
 * Runs are numbered: run r is configuration r / nseeds with seed
 * r % nseeds (spec.h gives the configuration order), so every process
 * agrees on what run r is.  A slice I/N of a sweep is the runs with
 * r % N == I - 1. */
#ifndef GPUPLAN_WHATIF_SWEEP_H
#define GPUPLAN_WHATIF_SWEEP_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "gpuplan/util/error.h"
#include "gpuplan/util/util.h"
#include "gpuplan/run/metrics.h"
#include "gpuplan/run/run.h"
#include "gpuplan/run/scale.h"
#include "gpuplan/whatif/spec.h"

typedef struct gp_whatif_result {
	double m[GP_M_COUNT];
	int32_t nodes, gpus;    /* of the configuration's cluster */
	/* With tenants (spec have_tenants): each tenant's queue delay
	 * statistic (spec tslo_metric), seconds; NaN for a tenant without
	 * jobs, infinity for one whose jobs never completed. */
	double tenant[GP_WHATIF_MAX_TENANTS];
} gp_whatif_result;

/* ---- what a caller adds to a sweep ----
 * A command that runs a grid of its own on this engine (compare) may lend
 * the runners inputs it has loaded and checked already, and keep a record
 * of its own per run besides the metrics (a run's summary, its
 * distributions).  Every field is optional (NULL). */

/* After run `run` ran, before it is released (one->jobs and one->res
 * hold the result): the caller's record of it into out, any bytes.  GP_OK,
 * or a status with err set (the run fails with it). */
typedef int (*gp_whatif_record_fn)(void *ud, size_t run, const gp_run *one, gp_sbuf *out,
				   gp_error *err);

typedef struct gp_whatif_hooks {
	/* The spec's base clusters (gp_whatif_bases_load: one per value of
	 * the cluster axis), loaded and checked (borrowed; NULL: the runner
	 * loads them). */
	const gp_cluster *cluster;
	/* Per trace of the spec ([ntraces]): its jobs, loaded (borrowed: a
	 * run changes them and puts them back), and their duration scaling
	 * (borrowed; NULL: none).  jobs NULL: the runner loads the traces
	 * and makes the scaling the spec asks for. */
	gp_joblist *jobs;
	gp_scale **scale;
	gp_whatif_record_fn record;
	void *ud;
} gp_whatif_hooks;

/* ---- one run, in this process ---- */

typedef struct gp_whatif_runner gp_whatif_runner;
/* Keeps spec by pointer.  Loads the base clusters (checked against the
 * spec); traces are loaded on first use and kept.  A spec that changes
 * nothing of the base (no node or fabric axis) runs on the base itself. */
gp_whatif_runner *gp_whatif_runner_new(const gp_whatif_spec *spec, gp_error *err);
/* The same with hooks (copied; NULL = none). */
gp_whatif_runner *gp_whatif_runner_new_with(const gp_whatif_spec *spec,
					    const gp_whatif_hooks *hooks, gp_error *err);
void gp_whatif_runner_free(gp_whatif_runner *r);
int gp_whatif_runner_run(gp_whatif_runner *r, size_t run, gp_whatif_result *out,
			 gp_error *err);
/* The same, and the hooks' record of the run appended to rec (NULL: none
 * kept). */
int gp_whatif_runner_record(gp_whatif_runner *r, size_t run, gp_whatif_result *out,
			    gp_sbuf *rec, gp_error *err);

/* ---- worker processes ---- */

typedef struct gp_whatif_pool gp_whatif_pool;
/* workers <= 1 runs everything in this process.  Workers are forked
 * here, each with its own runner; they end with _exit when the pool is
 * freed (or when the parent goes away). */
gp_whatif_pool *gp_whatif_pool_new(const gp_whatif_spec *spec, int workers, gp_error *err);
/* The same with hooks (copied; what they point to must stay until the
 * pool is freed). */
gp_whatif_pool *gp_whatif_pool_new_with(const gp_whatif_spec *spec, const gp_whatif_hooks *hooks,
					int workers, gp_error *err);
void gp_whatif_pool_free(gp_whatif_pool *p);
int gp_whatif_pool_workers(const gp_whatif_pool *p);
/* Runs the pool answered without simulating: a run of the same
 * configuration under another seed drew nothing from its seeded
 * generators (gp_rng_draws), so every seed gives its result and record
 * (GPUPLAN_TEST_EVERY_SEED=1 in the environment: none, for tests). */
size_t gp_whatif_pool_reused(const gp_whatif_pool *p);
typedef void (*gp_whatif_done_fn)(void *ud, size_t run, const gp_whatif_result *res);
/* Run every run in runs[0..n), handing each result to done (in this
 * process, in completion order).  Stops early, with GP_OK and *stopped
 * set, when *stop becomes non-zero (the runs in flight are abandoned).
 * A failing run stops the batch with its error. */
int gp_whatif_pool_run(gp_whatif_pool *p, const size_t *runs, size_t n,
		       gp_whatif_done_fn done, void *ud,
		       volatile sig_atomic_t *stop, int *stopped, gp_error *err);
/* The same, each result with the hooks' record of its run (len 0 without
 * a record hook). */
typedef void (*gp_whatif_record_done_fn)(void *ud, size_t run, const gp_whatif_result *res,
					 const char *rec, size_t len);
int gp_whatif_pool_run_records(gp_whatif_pool *p, const size_t *runs, size_t n,
			       gp_whatif_record_done_fn done, void *ud,
			       volatile sig_atomic_t *stop, int *stopped, gp_error *err);

/* ---- results of a sweep ---- */

typedef struct gp_whatif_results {
	const gp_whatif_spec *spec;
	int32_t *slot;          /* per run: index into res, -1 = not known */
	gp_whatif_result *res;
	size_t n, cap;
} gp_whatif_results;

void gp_whatif_results_init(gp_whatif_results *rs, const gp_whatif_spec *spec);
void gp_whatif_results_release(gp_whatif_results *rs);
void gp_whatif_results_put(gp_whatif_results *rs, size_t run, const gp_whatif_result *res);
const gp_whatif_result *gp_whatif_results_get(const gp_whatif_results *rs, size_t run);
/* Whether every seed of configuration cfg is known. */
int gp_whatif_results_complete(const gp_whatif_results *rs, size_t cfg);
/* Whether the spec asks a question: an SLO on a metric, on the tenants'
 * figures (quota.h), or both (a run meets when it meets both). */
int gp_whatif_has_slo(const gp_whatif_spec *s);
/* SLO verdict of one run and of a configuration (every seed meets); 1
 * yes, 0 no, -1 unknown (or no SLO). */
int gp_whatif_meets_run(const gp_whatif_spec *s, const gp_whatif_result *r);
int gp_whatif_meets(const gp_whatif_results *rs, size_t cfg);
/* The same at every scenario: every trace (workloads the configuration
 * must serve, not alternatives) and every value of the scenario axes
 * (cfg's own scenario values are ignored). */
int gp_whatif_meets_all(const gp_whatif_results *rs, size_t cfg);
/* Mean over the seeds of configuration cfg (all it runs must be known). */
void gp_whatif_mean(const gp_whatif_results *rs, size_t cfg, gp_whatif_result *out);

/* ---- bisection along a monotone axis ---- */

/* The searched axis: add_nodes, else remove_nodes; -1 when neither has
 * more than one count or the spec has no SLO. */
int gp_whatif_search_axis(const gp_whatif_spec *s);

/* What --search bisects: a grid axis (add_nodes, remove_nodes), or one
 * quota axis of the tenants axis (quota.T[.KEY]), whose other tenant axes
 * then make lines like the other grid axes. */
typedef struct gp_whatif_dim {
	int axis;               /* grid axis */
	int taxis;              /* with GP_AX_TENANTS: index into spec taxes */
	size_t n;               /* values along it */
	size_t stride;          /* one step along it, in the grid axis' values */
} gp_whatif_dim;

/* The dimension --search bisects: add_nodes, else remove_nodes (as
 * gp_whatif_search_axis), else the first quota axis with several values
 * of the one tenant a tenant SLO bounds, when no 'metric' bound goes with
 * it: more quota for T never raises T's own waits, but can raise the
 * other tenants' (they share the GPUs), so a bound on others, or on every
 * job, need not be monotone in T's quota.  GP_EUSAGE when nothing can be
 * searched; GP_EINPUT at the SLO (FILE:LINE:COL) when a quota axis could
 * be but the SLO makes it unsound, saying why. */
int gp_whatif_search_pick(const gp_whatif_spec *s, gp_whatif_dim *d, gp_error *err);
/* Its name: "add_nodes", "quota.a". */
const char *gp_whatif_dim_name(const gp_whatif_spec *s, const gp_whatif_dim *d);
/* Whether meeting is upward closed along it (more quota: yes). */
int gp_whatif_dim_up(const gp_whatif_spec *s, const gp_whatif_dim *d);
/* Lines of the search along d (configurations / (n x scenarios)), and
 * the configuration of (line, index) at the first scenario. */
size_t gp_whatif_dim_lines(const gp_whatif_spec *s, const gp_whatif_dim *d);
size_t gp_whatif_dim_config(const gp_whatif_spec *s, const gp_whatif_dim *d, size_t line,
			    size_t index);
/* Index along d of configuration cfg. */
size_t gp_whatif_dim_index(const gp_whatif_spec *s, const gp_whatif_dim *d, size_t cfg);

/* A plan per "line": the configurations that differ only in the searched
 * axis.  Meeting the SLO is assumed monotone along it: adding nodes never
 * hurts a delay metric, removing nodes never helps.  Each round proposes
 * up to `want` points per line, spread evenly over the unknown interval,
 * so that -j N probes N points at once (N + 1-section). */
typedef struct gp_whatif_search {
	size_t nlines, n;       /* lines, values along the axis */
	int axis;
	int up;                 /* 1: meeting holds from some count upwards */
	long *lo, *hi;          /* per line, in "up" order: the last index
				 * known to fail (-1) and the first known to
				 * meet (n) */
} gp_whatif_search;

/* n values along the axis, lines = configurations / n.  up: see above. */
void gp_whatif_search_init(gp_whatif_search *se, size_t nlines, size_t n, int up);
void gp_whatif_search_release(gp_whatif_search *se);
/* Points of the next round: up to cap (line, index) pairs, at most
 * per_line per line; 0 when every line is settled. */
size_t gp_whatif_search_next(const gp_whatif_search *se, size_t per_line, size_t cap,
			     size_t *line, size_t *index);
void gp_whatif_search_set(gp_whatif_search *se, size_t line, size_t index, int meets);
/* The answer of a line: the index (in the axis' own order) of the
 * cheapest count that meets, -1 when none does. */
long gp_whatif_search_answer(const gp_whatif_search *se, size_t line);
/* Whether meeting is upward closed along the axis for this spec. */
int gp_whatif_search_up(const gp_whatif_spec *s, int axis);
/* Configuration of (line, index) along axis: lines enumerate the other
 * axes in grid order (nconfigs / nvalues[axis] of them). */
size_t gp_whatif_search_config(const gp_whatif_spec *s, int axis, size_t line, size_t index);

/* ---- the answer ---- */

/* The cheapest configuration that meets the SLO in every seed and at
 * every scenario (every trace, every value of the scenario axes) among the
 * complete ones (ties: with a tenant SLO the one whose worst tenant is
 * furthest under its bound, then the earlier in grid order); its index is
 * that of the first scenario; -1 when none. */
long gp_whatif_best(const gp_whatif_results *rs, const gp_cluster *base);
/* The answer of a search along d: as gp_whatif_best, but for a tenant
 * quota the ties (every quota costs the same) go to the smallest value
 * along d, then the earlier in grid order; along a grid axis,
 * gp_whatif_best. */
long gp_whatif_best_along(const gp_whatif_results *rs, const gp_cluster *base,
			  const gp_whatif_dim *d);
/* The check of a search's answer best: the configuration of the next
 * cheaper value along d (one below it when meeting holds upwards, as for
 * add_nodes and quotas) into *below (-1 when there is none); 1 when best
 * meets the SLO at every scenario and *below was run and does not, 0 when
 * either fails, -1 when *below is not known or there is none. */
int gp_whatif_search_verify(const gp_whatif_results *rs, const gp_whatif_dim *d, long best,
			    long *below);

#endif
