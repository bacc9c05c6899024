/* gpuplan compare: what cmd_compare.c (options, runs) and
 * cmd_compare_out.c (tables, JSON, files) share.  Private to the command
 * line. */
#ifndef GP_CMD_COMPARE_INT_H
#define GP_CMD_COMPARE_INT_H

#include <stddef.h>

#include "cli.h"
#include "gpuplan/io/trace.h"
#include "gpuplan/model/cluster.h"
#include "gpuplan/run/metrics.h"
#include "gpuplan/sim/sim.h"
#include "gpuplan/util/util.h"
#include "gpuplan/run/scale.h"
#include "gpuplan/whatif/spec.h"
#include "gpuplan/whatif/sweep.h"

#define MAX_RUNS 10000
#define MAX_CLUSTERS 16
#define MAX_WORKERS 256

/* The metrics compared, in table order: positions in cmp_metric, which
 * names each one's row of the metric table (run/metrics.h: keys are its
 * columns, row heads its heads). */
enum { M_COMPLETED, M_NEVER, M_FAILED, M_WAIT_MEAN, M_WAIT_P99, M_JCT_MEAN, M_JCT_P50,
       M_JCT_P99, M_MAKESPAN, M_UTIL, M_UTIL_QUEUED, M_PREEMPT, M_COUNT };
extern const int cmp_metric[M_COUNT];
#define cmp_metric_key(k) (gp_metrics[cmp_metric[k]].column)
#define cmp_metric_head(k) (gp_metrics[cmp_metric[k]].head)

/* What --svg draws of one configuration's first seed. */
typedef struct first_run {
	double *cdf_x, *cdf_y;       /* JCT CDF (hours, share) */
	double *qd_x;                /* queue delay CDF (hours; shares in cdf_y) */
	double *t, *queued, *util;   /* timeline (hours) */
	size_t ncdf, nt;
} first_run;

void cmp_keep_first(first_run *f, const gp_joblist *jobs, const gp_sim_result *r);
void cmp_first_release(first_run *f);

/* One compare: its options, inputs and what the runs left. */
typedef struct cmp {
	const char *cpaths[MAX_CLUSTERS], *policies_arg, *queues_arg, *seeds_arg;
	const char *csv_dir, *svg_dir, *scale_ref, *scale_model, *trace, *html_path;
	const char *label[MAX_CLUSTERS];
	char lbuf[MAX_CLUSTERS][64];
	int json, show_progress, ncl, np, nq, ncfg, loaded, inflate;
	long nseeds, workers;
	size_t nruns, reused;   /* runs, and those answered by a seed-free
				 * first run (whatif/sweep.h) */
	double tick;
	unsigned long long *seeds;
	char **pol, **que;
	gp_run_desc base;       /* engine and trace options; policy, queue,
				 * seed and tick are set per run */
	gp_cluster cl[MAX_CLUSTERS];
	gp_joblist jobs;
	gp_scale *scale;
	gp_whatif_spec spec;    /* the runs */
	int built;
	/* results */
	double *values;         /* [config][metric][seed] */
	json_t **per_seed;      /* --json: [config] */
	first_run *first;       /* --svg: [config] */
	gp_sbuf csv;            /* --csv: runs.csv */
	gp_cli_meter meter;     /* progress */
} cmp;

/* What one run leaves: the same bytes whether it ran here or in a worker
 * process (its runs.csv row is made from m). */
typedef struct run_out {
	double m[M_COUNT];
	char *json;             /* its simulate summary, compact JSON */
	int has_first;
	first_run first;        /* --svg, first seed */
} run_out;

/* --csv, --svg and --html: every file or none. */
int cmp_write_files(const cmp *c);
void cmp_print_json(cmp *c);
void cmp_print_table(const cmp *c);

#endif
