/* What-if specs: a base cluster, the trace(s), the axes to sweep and the
 * question (an SLO on one metric, optional costs).  The loader reports
 * every problem as FILE:LINE:COL; the grid is the cross product of the
 * axes, enumerated in one fixed order so that run i means the same run in
 * every process (slices, workers, resumed sweeps).
 *
 *   cluster: topologies/example-cluster.yaml   # paths relative to the spec;
 *                                              # a list makes it an axis
 *   trace: workloads/philly-2017-11-29.csv     # a list makes it an axis
 *   queue: fifo                                # a list makes it an axis
 *   policy: bestfit                            # a list makes it an axis
 *   seeds: 1                                   # N (1..N) or a list
 *   axes:
 *     add_nodes: {type: hgx-h100, switch: ib-leaf-h0, counts: [0, 8, 16]}
 *     remove_nodes: {type: dgx-a100, counts: 0..8}
 *     fabric: {switch: ib-spine, techs: [eth-10, ib-hdr]}
 *     mtbf_node: [0, 2000, 500]                # hours; 0 = no failures
 *     recovery: [restart, replace]
 *   scenario: [mtbf_node]                      # axes whose every value must meet
 *   slo: {metric: queue_delay.p90, max: 3600}
 *   cost: {hgx-h100: 1.0, dgx-a100: 0.6}
 *
 * See gpuplan(1), "What-if specs", for every key. */
#ifndef GPUPLAN_WHATIF_SPEC_H
#define GPUPLAN_WHATIF_SPEC_H

#include <stddef.h>
#include <stdint.h>

#include "gpuplan/io/trace.h"
#include "gpuplan/model/cluster.h"
#include "gpuplan/run/run.h"
#include "gpuplan/sim/tenants.h"
#include "gpuplan/util/error.h"

/* The axes, in grid order (the first varies slowest). */
enum gp_whatif_axis {
	GP_AX_TRACE = 0, GP_AX_ADD, GP_AX_REMOVE, GP_AX_FABRIC, GP_AX_QUEUE,
	GP_AX_POLICY, GP_AX_MTBF, GP_AX_RECOVERY,
	GP_AX_CLUSTER,  /* the base cluster, when 'cluster' lists several */
	GP_AX_TENANTS,  /* quotas and weights of tenants (quota.h) */
	GP_AX_COUNT
};
extern const char *const gp_whatif_axis_names[GP_AX_COUNT]; /* "add_nodes", ... */
/* The axes of the first database schema, each with a fixed column; the
 * axes after them store their values in columns named after them (see
 * gp_whatif_ncolumns). */
#define GP_AX_FIXED (GP_AX_RECOVERY + 1)

#define GP_WHATIF_MAX_VALUES 10000   /* values of one axis */
#define GP_WHATIF_MAX_RUNS 10000000  /* configurations x seeds */
#define GP_WHATIF_MAX_SEEDS 100000

typedef struct gp_whatif_nodes {
	char *type;             /* node type of the base cluster */
	char *sw;               /* switch: add under it / remove only under it;
				 * NULL: add next to the type's first node,
				 * remove anywhere */
	char *prefix;           /* add: new nodes are PREFIX-0, PREFIX-1, ... */
	long *counts;           /* ascending, distinct, >= 0 */
	size_t n;
	int line, col;
} gp_whatif_nodes;

typedef struct gp_whatif_fabric {
	char *sw;               /* switch whose technology changes */
	int subtree;            /* 1: every switch under it too (default) */
	int *techs;             /* enum gp_fabric_tech */
	size_t n;
	int line, col;
} gp_whatif_fabric;

/* An axis over tenants (quota.h): quota.T[.MODEL], weight.T or split. */
enum gp_whatif_taxis_kind { GP_WT_QUOTA = 0, GP_WT_WEIGHT, GP_WT_SPLIT };
#define GP_WHATIF_MAX_TENANTS 64 /* tenants of a spec with tenant axes or SLOs,
				 * and its tenant axes at most */

typedef struct gp_whatif_taxis {
	int kind;               /* enum gp_whatif_taxis_kind */
	char *name;             /* as written: "quota.a", "weight.b", "split" */
	int *tenants;           /* indexes into the spec's tenants: one, or a
				 * split's in its order */
	size_t ntenants;
	int res;                /* quota resource (index into the tenants'
				 * res); -1 for a weight */
	double *values;         /* n values (GPUs, weights); a split: n rows of
				 * ntenants GPUs */
	size_t n;
	int line, col;
} gp_whatif_taxis;

typedef struct gp_whatif_cost {
	char *key;              /* node type or fabric technology name */
	double per_node;
} gp_whatif_cost;

typedef struct gp_whatif_spec {
	char *path;             /* the spec file */
	char *cluster;          /* resolved against the spec's directory; the
				 * first of clusters */
	/* The cluster axis: every base cluster as resolved and as written,
	 * and their content hashes (fingerprint, keys); one unless 'cluster'
	 * is a list. */
	char **clusters, **cluster_names;
	size_t nclusters;
	char (*cluster_hashes)[17];
	char **traces;          /* resolved paths */
	char **trace_names;     /* as written in the spec */
	size_t ntraces;
	char (*trace_hash)[17];  /* content hash of each trace (fingerprint) */
	char cluster_hash[17];
	char *format;           /* trace dialect, NULL = detect */
	char **queues, **policies;
	size_t nqueues, npolicies;
	uint64_t *seeds;
	size_t nseeds;
	/* Every setting of a run that is no axis (run.h): trace options,
	 * backfill depth, durations, preemption and las, QoS, failures other
	 * than node MTBF and recovery.  Its strings (run.topts.format aside:
	 * that is format) are owned by the spec. */
	gp_run_desc run;
	gp_whatif_nodes add, remove;   /* n == 0: not an axis */
	gp_whatif_fabric fabric;       /* n == 0: not an axis */
	/* Failures (sim/failsim.h): node MTBF in hours (0 = none) and the
	 * recovery policy are axes; the rest is in run.fail. */
	double *mtbf_node;             /* nmtbf values; none given: {0} */
	size_t nmtbf;
	int *recoveries;               /* enum gp_recovery; none given: restart */
	size_t nrecoveries;
	int declared[GP_AX_COUNT];     /* given as a list (shown in reports) */
	/* Scenario axes (`scenario:`): conditions the operator does not
	 * control, such as a failure rate; a configuration is a choice of the
	 * other axes and meets the SLO only when it meets at every value of
	 * these (a robust choice).  The trace axis always is one: traces are
	 * workloads to serve, not alternatives.  named: listed in the spec. */
	int scenario[GP_AX_COUNT];
	int scenario_named;
	/* The question. */
	int slo_metric;         /* enum gp_metric, -1 when no SLO */
	int slo_max;            /* 1: metric <= bound; 0: metric >= bound */
	double slo_bound;
	gp_whatif_cost *costs;  /* none given: every node costs 1 */
	size_t ncosts;
	/* Tenants (quota.h), loaded when an axis or the SLO names tenants
	 * (have_tenants): from 'tenants', else the cluster file's section.
	 * The axes over their quotas and weights make one grid axis,
	 * GP_AX_TENANTS, their cross product (the first varies slowest).
	 * Each run records each tenant's queue delay statistic tslo_metric
	 * (GP_M_QD_MEAN .. GP_M_QD_MAX; queue_delay.p90 without a tenant SLO);
	 * the tenant SLO bounds it per tenant (tslo_bound[t] seconds, < 0
	 * none; tslo_on when any). */
	gp_tenants tenants;
	int have_tenants;
	gp_whatif_taxis *taxes;
	size_t ntaxes;
	int tslo_metric;
	double *tslo_bound;
	int tslo_on;
	int tslo_line, tslo_col;
	/* Derived. */
	size_t nvalues[GP_AX_COUNT];
	size_t nconfigs;        /* product of nvalues */
	size_t nruns;           /* nconfigs x nseeds */
	/* A configuration whose runs draw no random number (no random
	 * policy, no generated failures without failure_seed, no QoS errors,
	 * no sampled classes) gives the same result for every seed: only its
	 * first seed runs. */
	size_t nrandom;         /* configurations whose result depends on the seed */
	size_t nruns_needed;    /* nrandom x nseeds + the others once */
} gp_whatif_spec;

void gp_whatif_spec_init(gp_whatif_spec *s);
void gp_whatif_spec_release(gp_whatif_spec *s);
/* Load and check a spec (the files it names must exist; their contents
 * are checked when loaded).  Errors GP_EINPUT with FILE:LINE:COL, GP_EIO. */
int gp_whatif_spec_load(const char *path, gp_whatif_spec *s, gp_error *err);
/* A spec built in memory rather than read from a file: compare builds one
 * from its options.  One trace; the clusters, policies, queues and seeds
 * are the axes (in their order, duplicates allowed);
 * every other setting of a run is run's (its failure MTBF and recovery
 * are the one value of those axes).  Strings are copied. */
typedef struct gp_whatif_lists {
	const char *origin;     /* names the spec in messages ("compare") */
	const char *const *clusters;
	size_t nclusters;
	const char *trace;
	const char *const *policies, *const *queues;
	size_t npolicies, nqueues;
	const uint64_t *seeds;
	size_t nseeds;
	const gp_run_desc *run; /* NULL: the defaults */
} gp_whatif_lists;
/* Build s from l through the checks a loaded spec meets (names, settings
 * that do not go together, the grid's size).  Errors GP_EUSAGE, s empty. */
int gp_whatif_spec_build(const gp_whatif_lists *l, gp_whatif_spec *s, gp_error *err);
/* Values per axis, configurations, runs and the random ones of s from its
 * lists; -1 with why set when the grid is over GP_WHATIF_MAX_RUNS. */
int gp_whatif_spec_grid(gp_whatif_spec *s, char *why, size_t size);

/* Check the spec against a base cluster: node types, switches. */
int gp_whatif_spec_check(const gp_whatif_spec *s, const gp_cluster *base,
			 gp_error *err);

/* One configuration: an index per axis. */
typedef struct gp_whatif_config {
	size_t v[GP_AX_COUNT];
} gp_whatif_config;

/* Configuration number i (0 <= i < nconfigs) and back. */
void gp_whatif_config_of(const gp_whatif_spec *s, size_t i, gp_whatif_config *c);
size_t gp_whatif_config_index(const gp_whatif_spec *s, const gp_whatif_config *c);
/* Whether configuration c injects failures (a node MTBF > 0, mtbf_gpu, a
 * failure list or model). */
int gp_whatif_failures_on(const gp_whatif_spec *s, const gp_whatif_config *c);
/* Whether configuration c's result depends on the seed. */
int gp_whatif_config_random(const gp_whatif_spec *s, const gp_whatif_config *c);
/* Seeds configuration number cfg runs: nseeds, or 1 without randomness. */
size_t gp_whatif_seeds_of(const gp_whatif_spec *s, size_t cfg);
/* Whether run number `run` is one to run (its seed is among its
 * configuration's seeds). */
int gp_whatif_run_needed(const gp_whatif_spec *s, size_t run);
/* The choice configuration cfg belongs to: cfg with every scenario axis
 * at its first value. */
size_t gp_whatif_choice_of(const gp_whatif_spec *s, size_t cfg);
/* Scenario combinations (the product of the scenario axes' values) and
 * combination k of the choice cfg. */
size_t gp_whatif_nscenarios(const gp_whatif_spec *s);
size_t gp_whatif_scenario_config(const gp_whatif_spec *s, size_t cfg, size_t k);
/* The description of run number `run` (0 <= run < nruns): the spec's
 * fixed settings with the configuration's axes and seed.  Its strings
 * point into s. */
void gp_whatif_run_desc(const gp_whatif_spec *s, size_t run, gp_run_desc *d);
/* The value of one axis of c as text ("16", "ib-hdr", "fifo", trace name). */
const char *gp_whatif_value(const gp_whatif_spec *s, const gp_whatif_config *c,
			    int axis, char *buf, size_t size);
/* Canonical text of c, the run's identity with its seed in the database:
 * "trace=NAME;add_nodes=16;remove_nodes=0;fabric=-;queue=fifo;policy=bestfit". */
char *gp_whatif_config_key(const gp_whatif_spec *s, const gp_whatif_config *c);

/* ---- axes with named database columns ----
 * An axis after the first eight (GP_AX_FIXED) stores its values in columns
 * of the what-if database named after it ("quota.a"), which a database
 * gains when a spec first stores them (store.h).  Column k of spec s
 * (0 <= k < gp_whatif_ncolumns) is named by gp_whatif_column_name (*numeric:
 * 1 for a number column); its value in configuration c is a number
 * (returns 1, *num), text (2, buf) or NULL (0). */
size_t gp_whatif_ncolumns(const gp_whatif_spec *s);
const char *gp_whatif_column_name(const gp_whatif_spec *s, size_t k, int *numeric, char *buf,
				  size_t size);
int gp_whatif_column_value(const gp_whatif_spec *s, size_t k, const gp_whatif_config *c,
			   double *num, char *buf, size_t size);
/* The index of axis a's value (a >= GP_AX_FIXED) in a stored configuration
 * key, -1 when the key names none of its values. */
long gp_whatif_key_find(const gp_whatif_spec *s, int axis, const char *key);

/* The base clusters: one per value of the cluster axis (nvalues
 * [GP_AX_CLUSTER], one without the axis).  Every function below that
 * takes `bases` takes this array.  On failure nothing is left to
 * release. */
int gp_whatif_bases_load(const gp_whatif_spec *s, gp_cluster *bases, gp_error *err);
void gp_whatif_bases_release(const gp_whatif_spec *s, gp_cluster *bases);
/* gp_whatif_spec_check against every base cluster. */
int gp_whatif_spec_check_bases(const gp_whatif_spec *s, const gp_cluster *bases, gp_error *err);
/* Whether the cluster axis was given (a list): only then is it in keys,
 * fingerprints, reports and the database. */
int gp_whatif_cluster_axis(const gp_whatif_spec *s);
/* The cluster file configuration c runs on. */
const char *gp_whatif_cluster_path(const gp_whatif_spec *s, const gp_whatif_config *c);

/* What the configuration's cluster looks like without building it (its
 * base of bases, with the node and fabric axes applied). */
typedef struct gp_whatif_shape {
	int nodes, gpus;
	double cost;
} gp_whatif_shape;
int gp_whatif_shape_of(const gp_whatif_spec *s, const gp_cluster *bases,
		       const gp_whatif_config *c, gp_whatif_shape *out);

/* Build the configuration's cluster: load the base cluster, add and remove
 * nodes, change the fabric.  c is released on failure. */
int gp_whatif_cluster_build(const gp_whatif_spec *s, const gp_whatif_config *cfg,
			    gp_cluster *c, gp_error *err);

/* Fingerprint of everything a run's result depends on besides its key and
 * seed: gpuplan's version, the cluster file's bytes, the trace options,
 * the axes' fixed parts (types, switches, prefixes), --scale-durations and
 * backfill depth.  16 hex digits; fills buf (>= 17 bytes). */
int gp_whatif_fingerprint(const gp_whatif_spec *s, const char *version,
			  char *buf, gp_error *err);

#endif
