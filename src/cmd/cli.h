/* The command-line layer: one cmd_<name>.c per subcommand.  Only this
 * layer prints and chooses exit codes. */
#ifndef GPUPLAN_CLI_H
#define GPUPLAN_CLI_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "gpuplan/model/cluster.h"
#include "gpuplan/model/job.h"
#include "gpuplan/sim/failsim.h"
#include "gpuplan/util/error.h"
#include "gpuplan/util/util.h"
#include "opt.h"

#ifndef GP_VERSION
#define GP_VERSION "0.1.0"
#endif

/* Each command: argv[0] is the command name; returns an exit code. */
typedef int (*gp_cmd_fn)(int argc, char **argv);

struct gp_cmd_desc;
typedef struct gp_command {
	const char *name;
	gp_cmd_fn fn;
	const char *summary;
	const struct gp_cmd_desc *desc; /* its arguments and options, its usage (opt.h) */
} gp_command;
/* The usage text of a command (made from its description once). */
const char *gp_cli_usage_text(const gp_command *c);

int cmd_topo(int argc, char **argv);
extern const struct gp_cmd_desc gp_desc_estimate, gp_desc_release, gp_desc_replace,
	gp_desc_failures_fit, gp_desc_place, gp_desc_env, gp_desc_calibrate;
/* `gpuplan completion bash|zsh` from the command table (cmd_completion.c). */
extern const gp_cmd_desc gp_desc_completion;
int gp_cli_completion(int argc, char **argv, const gp_command *cmds, int n);
/* Allocator settings for big inputs (peak memory); first thing in main. */
void gp_cli_memory_setup(void);
int cmd_validate(int argc, char **argv);
int cmd_place(int argc, char **argv);
int cmd_estimate(int argc, char **argv);
int cmd_simulate(int argc, char **argv);
int cmd_env(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_whatif(int argc, char **argv);
int cmd_perf(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_predict(int argc, char **argv);
int cmd_import(int argc, char **argv);
int gp_cmd_import_sacct(int argc, char **argv);
int cmd_release(int argc, char **argv);
int cmd_failures(int argc, char **argv);
int cmd_replace(int argc, char **argv);

/* Fractional-sharing experiment (FGD inflation): `simulate inflate` and
 * `compare inflate`, or --inflate among their options
 * (cmd_simulate_inflate.c, cmd_compare_inflate.c). */
int gp_cmd_simulate_inflate(int argc, char **argv);
/* `simulate envs` (cmd_simulate_envs.c): development environments. */
int gp_cmd_simulate_envs(int argc, char **argv);
int gp_cmd_compare_inflate(int argc, char **argv);
/* Whether argv names a mode the old way: --NAME or --NAME=VALUE anywhere
 * before "--" (`simulate --inflate 2 ...` for `simulate inflate ...`). */
int gp_cli_old_mode(int argc, char **argv, const char *name);
extern const gp_cmd_desc gp_desc_simulate, gp_desc_simulate_inflate, gp_desc_simulate_envs,
	gp_desc_compare, gp_desc_compare_inflate, gp_desc_whatif, gp_desc_whatif_merge;
/* A seed list "1-10,42" or "1,5,9" (each 0..2^31-1) into out (at most
 * cap seeds); returns the count, or -1 when malformed or too long. */
long gp_cli_parse_seeds(const char *spec, unsigned long long *out, long cap);
/* Both inflation modes: --inflate X, and the pod list (one operand, or
 * the usage error's exit code); require checks that --inflate, -c and
 * the pod list were given.  0 or the usage error's exit code. */
#define GP_OPT_INFLATE(k) \
	{ .name = "inflate", .key = (k), .type = GP_OT_DOUBLE, .arg = "X", .min = 0.01, \
	  .max = GP_FGD_MAX_INFLATE, .help = "arrived GPU demand at the end, x the cluster's GPU\n" \
	  "capacity (required)" }
int gp_fgd_cli_operands(gp_opt_state *o, const char **trace);
int gp_fgd_cli_require(const char *cmd, int have_inflate, const char *cluster,
			 const char *trace);
struct gp_openb_nodes;
struct gp_openb_pods;
int gp_fgd_cli_load(const char *nodes_path, const char *pods_path,
		      struct gp_openb_nodes *nodes, struct gp_openb_pods *pods);

/* `topo show` lives in its own file (cmd_topo_show.c). */
int gp_cmd_topo_show(int argc, char **argv);

extern const gp_cmd_desc gp_desc_validate;
extern const gp_cmd_desc gp_desc_topo, gp_desc_topo_import, gp_desc_topo_show;
extern const gp_cmd_desc gp_desc_perf;

extern const gp_cmd_desc gp_desc_predict, gp_desc_predict_train, gp_desc_predict_eval,
	gp_desc_predict_dataset;
extern const gp_cmd_desc gp_desc_import, gp_desc_import_sacct;

/* Print "gpuplan: FILE:LINE:COL: msg" to stderr; returns err->status
 * (GP_EIO when unset). */
int gp_cli_report(const gp_error *err);
/* Print "gpuplan: msg" to stderr and return status. */
int gp_cli_fail(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Usage error for command cmd: prints the message and a hint, returns 2. */
int gp_cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* How reports name the bundled cluster when -c is absent. */
#define GP_BUNDLED_CLUSTER_LABEL "bundled example-cluster.yaml"

/* Path of the bundled example cluster, used when -c is absent:
 * $GPUPLAN_DATADIR/example-cluster.yaml, else topologies/ next to the
 * executable, else the installed data directory. */
const char *gp_cli_default_cluster(void);
/* Directory of bundled data ("topologies" in the tree). */
const char *gp_cli_datadir(void);
/* A cluster's GPUs by model for people, "256 A100-SXM4-40GB, 64
 * H100-SXM5-80GB": most GPUs first, ties in catalog order (topo show and
 * validate both print it). */
void gp_cli_gpus_by_model_text(const gp_cluster *c, gp_sbuf *out);

/* --csv DIR: a folder, never a switch word ('on', 'off', ...: a folder so
 * named is './off'); GP_OK or the usage error's exit code. */
int gp_cli_csv_dir(const char *cmd, const char *arg);

/* Whether progress should be drawn on stderr. */
int gp_cli_stderr_is_tty(void);

/* A progress line on standard error: "CMD: TEXT (P %), 12s elapsed, ETA
 * 30s".  On a terminal it redraws one line, at most a few times a second;
 * elsewhere (a log file) it writes one line per update, at most one every
 * GP_METER_EVERY seconds, and the last. */
#define GP_METER_EVERY 5.0
typedef struct gp_cli_meter {
	const char *cmd;
	int tty, drawn;
	double t0, last;
} gp_cli_meter;
void gp_cli_meter_start(gp_cli_meter *m, const char *cmd);
/* text says what done counts ("412 of 888 jobs settled"). */
void gp_cli_meter_show(gp_cli_meter *m, size_t done, size_t total, const char *text);
/* Ends a terminal's line. */
void gp_cli_meter_end(gp_cli_meter *m);

/* ---- shared by simulate and compare (cmd_simulate.c) ---- */

/* Option groups (opt.h) several commands take: each a table with its keys
 * and a handler that applies the current option of s when it is one of
 * the table's (returns 0, or the usage error's exit code after printing
 * it), and returns -1 when it is not. */
enum {
	GP_OPT_FORMAT = 1000, GP_OPT_LIMIT, GP_OPT_START, GP_OPT_END, GP_OPT_SKIP_BAD,
};
/* The trace: --format, --limit, --start, --end, --skip-bad. */
extern const gp_opt gp_sim_trace_opts[];

/* Engine options both commands take: preemption, checkpoints, las. */
enum {
	GP_OPT_PREEMPT = 1100, GP_OPT_PREEMPT_COST, GP_OPT_CKPT_INTERVAL, GP_OPT_CKPT_COST,
	GP_OPT_LAS_THRESHOLDS, GP_OPT_LAS_STARVATION, GP_OPT_SCHED_INTERVAL,
	GP_OPT_LAS_PREEMPTED, GP_OPT_LAS_DEMOTED,
	GP_OPT_LAS_TIRESIAS, GP_OPT_TENANTS, GP_OPT_DEFAULT_TENANT, GP_OPT_RECLAIM,
	GP_OPT_FS_HALFLIFE, GP_OPT_PRIO_WEIGHTS, GP_OPT_PRIO_INTERVAL, GP_OPT_TENANT_COLUMN, GP_OPT_BACKFILL,
	GP_OPT_BF_INTERVAL, GP_OPT_WITHIN_QUOTA,
};
extern const gp_opt gp_sim_engine_opts[];

#include "gpuplan/run/run.h"
int gp_cli_sim_engine_opt(gp_opt_state *s, gp_run_desc *d);
/* The rules a run's queue followed, for its report: backfill's when
 * backfill is nonzero (d's queue, or one queue of a sweep); estimates is
 * a GP_REPORT_EST_* of gpuplan/report/sched.h. */
struct gp_report_sched;
void gp_cli_sched_of(const gp_run_desc *d, int backfill, int estimates, struct gp_report_sched *s);

/* ---- predicted sharing, interference, QoS (cmd_simulate_qos.c) ---- */
enum {
	GP_OPT_QOS_TICK = 1600, /* 1200: failures */ GP_OPT_QOS_SLACK, GP_OPT_QOS_MIN_SHARE, GP_OPT_QOS_STEP,
	GP_OPT_UTIL_ERROR, GP_OPT_TIME_ERROR, GP_OPT_INTERFERENCE, GP_OPT_EXCLUSIVE,
	GP_OPT_LS_FRACTION, GP_OPT_PREDICT_MODELS,
};
extern const gp_opt gp_sim_qos_opts[];
int gp_cli_qos_opt(gp_opt_state *s, gp_run_qos *q);
/* The bundled predictor models (DATADIR/models). */
const char *gp_cli_models_dir(void);
/* place --policy predicted-share: the jobs' shares and memory from the
 * bundled predictors (kept in pl, which must outlive the decisions), an
 * explanation line per job into e (NULL: none). */
struct gp_explain;
int gp_cli_predict_jobs(const struct gp_cluster *c, struct gp_joblist *l, gp_pred_plan *pl,
			struct gp_explain *e);
struct gp_sbuf;
struct json_t;
/* The QoS block of a run's text and JSON reports (nothing without QoS). */
void gp_cli_qos_text(const gp_run *r, struct gp_sbuf *sb);
void gp_cli_qos_json(const gp_run *r, struct json_t *o);

struct gp_trace_opts;
struct gp_cluster;
struct gp_joblist;
int gp_cli_sim_trace_opt(gp_opt_state *s, struct gp_trace_opts *o);
/* The one TRACE operand of s (any count allowed by the description), or
 * the usage error's exit code. */
int gp_cli_one_trace(gp_opt_state *s, const char **trace);
/* Load the cluster (NULL: the bundled example) and the trace; prints the
 * error and returns its exit code on failure. */
int gp_cli_sim_load(const char *cluster_path, const char *trace_path,
		    const struct gp_trace_opts *o, struct gp_cluster *c,
		    struct gp_joblist *jobs);
/* GP_OK, or the usage error (printed) of an output path that names a
 * file this run read: "simulate t.csv --json t.csv". */
int gp_cli_not_input(const char *path);
/* Write n buffers to n files atomically: all are complete or none is
 * left behind, also under kill -9 (gp_atomic_commit_set).  Returns an
 * exit code (message printed on failure). */
int gp_cli_write_files(char *const *paths, char *const *data,
		       const size_t *len, int n);

/* A set of output files that succeed or fail together: render each into
 * the stream gp_cli_outset_add returns, then gp_cli_outset_commit writes
 * them all through gp_cli_write_files (or none) and releases the set. */
typedef struct gp_cli_outset {
	int n, cap;
	char **paths;
	char **data;
	size_t *len;
	FILE **fp;
} gp_cli_outset;            /* = { 0 } is an empty set */
/* path is copied; returns NULL (message printed) when it cannot buffer. */
FILE *gp_cli_outset_add(gp_cli_outset *o, const char *path);
/* Add an output already rendered into sb (its buffer moves into the set). */
void gp_cli_outset_take(gp_cli_outset *o, const char *path, gp_sbuf *sb);
/* An output folder made with its missing parents ("mkdir -p") and checked
 * writable, before a long run starts: GP_OK, or GP_EIO with the message
 * printed. */
int gp_cli_make_dirs(const char *dir);
/* The folder of an output file, the same way ("-" and bare names: none). */
int gp_cli_make_parent(const char *path);
int gp_cli_outset_commit(gp_cli_outset *o);
void gp_cli_outset_release(gp_cli_outset *o);

/* A job whose gpu_model names a model the cluster's catalog does not know
 * (a misspelling: it could never be placed) is an input error located at
 * the job's line of file (exit 3, with a "did you mean"). */
int gp_cli_check_job_models(const gp_cluster *c, const gp_job *j, const char *file);
/* ---- failures in simulate (sim_failures.c) ---- */

enum {
	GP_OPT_FAILURES = 1200, GP_OPT_FAILURE_MODEL, GP_OPT_EVENTS, GP_OPT_MTBF_NODE,
	GP_OPT_MTBF_GPU, GP_OPT_WEIBULL, GP_OPT_REPAIR, GP_OPT_FAILURE_SEED, GP_OPT_HB_PERIOD,
	GP_OPT_HB_MISSES, GP_OPT_RECOVERY, GP_OPT_RESTART_COST, GP_OPT_FAILURE_START,
};
extern const gp_opt gp_sim_fail_opts[];

/* A failure option into f (events: --events FILE; any: set when a failure
 * option was given). */
int gp_cli_fail_opt(gp_opt_state *s, gp_run_failures *f, const char **events, int *any);
/* After the options: failure options need a source, --events needs
 * failures.  0 or the usage error's exit code. */
int gp_cli_fail_check(const char *cmd, const gp_run_failures *f, const char *events, int any);
/* Reports of a run with failures (nothing without): the JSON `failures`
 * object, the text block, --events CSV, distinct failure times for the
 * SVG marks (caller frees), jobs.csv with interruptions,lost_gpu_s,
 * recovery_s. */
void gp_cli_fail_json(const gp_run *r, json_t *root);
void gp_cli_fail_text(const gp_run *r, gp_sbuf *out);
void gp_cli_fail_events(const gp_run *r, gp_sbuf *out);
double *gp_cli_fail_times(const gp_run *r, size_t *n);
void gp_cli_fail_jobs_csv(const gp_run *r, gp_sbuf *out);
/* A run's preparation error: a usage error (exit 2) when it is one, else
 * the located error. */
int gp_cli_run_error(const char *cmd, const gp_error *err);

#endif
