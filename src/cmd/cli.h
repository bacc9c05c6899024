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
	const char *usage;      /* full usage text for `gpuplan help NAME`, or */
	const struct gp_cmd_desc *desc; /* the description it is made from (opt.h) */
} gp_command;
/* The usage text of a command (made from its description once). */
const char *gp_cli_usage_text(const gp_command *c);

int cmd_topo(int argc, char **argv);
extern const struct gp_cmd_desc gp_desc_estimate, gp_desc_release, gp_desc_replace,
	gp_desc_failures_fit, gp_desc_place, gp_desc_env, gp_desc_calibrate;
/* `gpuplan completion bash|zsh` from the command table (cmd_completion.c). */
extern const char gp_usage_completion[];
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

/* Fractional-sharing experiment mode (FGD inflation), dispatched to by
 * `simulate` and `compare` when --inflate is given
 * (cmd_simulate_inflate.c, cmd_compare_inflate.c). */
int gp_cmd_simulate_inflate(int argc, char **argv);
/* `simulate --envs` (cmd_simulate_envs.c): development environments. */
int gp_cmd_simulate_envs(int argc, char **argv);
int gp_cmd_compare_inflate(int argc, char **argv);
int gp_cli_has_option(int argc, char **argv, const char *opt);
/* A seed list "1-10,42" or "1,5,9" (each 0..2^31-1) into out (at most
 * cap seeds); returns the count, or -1 when malformed or too long. */
long gp_cli_parse_seeds(const char *spec, unsigned long long *out, long cap);
/* Both --inflate modes: an argument that is no option of theirs is the
 * pod list (once) or an unknown option; require checks that --inflate, -c
 * and the pod list were given.  0 or the usage error's exit code. */
int gp_fgd_cli_operand(const char *cmd, const char *a, const char **trace);
int gp_fgd_cli_require(const char *cmd, int have_inflate, const char *cluster,
			 const char *trace);
struct gp_openb_nodes;
struct gp_openb_pods;
int gp_fgd_cli_load(const char *nodes_path, const char *pods_path,
		      struct gp_openb_nodes *nodes, struct gp_openb_pods *pods);

/* `topo show` lives in its own file (cmd_topo_show.c). */
int gp_cmd_topo_show(int argc, char **argv);

extern const char gp_usage_topo[], gp_usage_validate[],
	gp_usage_simulate[], gp_usage_compare[], gp_usage_whatif[],
	gp_usage_perf[];

extern const char gp_usage_predict[];
extern const char gp_usage_import[];

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

/* Option codes of the trace options both commands take. */
enum {
	GP_OPT_FORMAT = 1000, GP_OPT_LIMIT, GP_OPT_START, GP_OPT_END, GP_OPT_SKIP_BAD,
};
#define GP_SIM_TRACE_OPTIONS \
	{ "format", required_argument, NULL, GP_OPT_FORMAT }, \
	{ "limit", required_argument, NULL, GP_OPT_LIMIT }, \
	{ "start", required_argument, NULL, GP_OPT_START }, \
	{ "end", required_argument, NULL, GP_OPT_END }, \
	{ "skip-bad", no_argument, NULL, GP_OPT_SKIP_BAD }

/* Engine options both commands take: preemption, checkpoints, las. */
enum {
	GP_OPT_PREEMPT = 1100, GP_OPT_PREEMPT_COST, GP_OPT_CKPT_INTERVAL, GP_OPT_CKPT_COST,
	GP_OPT_LAS_THRESHOLDS, GP_OPT_LAS_STARVATION, GP_OPT_SCHED_INTERVAL,
	GP_OPT_LAS_PREEMPTED, GP_OPT_LAS_DEMOTED,
	GP_OPT_LAS_TIRESIAS, GP_OPT_TENANTS, GP_OPT_DEFAULT_TENANT,
};
#define GP_SIM_ENGINE_OPTIONS \
	{ "preempt", required_argument, NULL, GP_OPT_PREEMPT }, \
	{ "preempt-cost", required_argument, NULL, GP_OPT_PREEMPT_COST }, \
	{ "checkpoint-interval", required_argument, NULL, GP_OPT_CKPT_INTERVAL }, \
	{ "checkpoint-cost", required_argument, NULL, GP_OPT_CKPT_COST }, \
	{ "las-thresholds", required_argument, NULL, GP_OPT_LAS_THRESHOLDS }, \
	{ "las-starvation", required_argument, NULL, GP_OPT_LAS_STARVATION }, \
	{ "sched-interval", required_argument, NULL, GP_OPT_SCHED_INTERVAL }, \
	{ "las-preempted", required_argument, NULL, GP_OPT_LAS_PREEMPTED }, \
	{ "las-demoted", required_argument, NULL, GP_OPT_LAS_DEMOTED }, \
	{ "las-tiresias", no_argument, NULL, GP_OPT_LAS_TIRESIAS }, \
	{ "tenants", required_argument, NULL, GP_OPT_TENANTS }, \
	{ "default-tenant", required_argument, NULL, GP_OPT_DEFAULT_TENANT }
#define GP_SIM_ENGINE_USAGE \
	"  --preempt MODE      off (default), class (LS jobs preempt BE jobs) or\n" \
	"                      priority (jobs preempt strictly lower priorities);\n" \
	"                      with --queue las, off turns las preemption off\n" \
	"  --preempt-cost S    seconds a preempted job spends saving and restoring\n" \
	"                      its state when it runs again (default 0)\n" \
	"  --checkpoint-interval S  seconds of work between checkpoints (default 0:\n" \
	"                      none; a preempted job then keeps all its progress)\n" \
	"  --checkpoint-cost S seconds each checkpoint pauses a job (default 0)\n" \
	"  --las-thresholds LIST  las: attained service (GPU-seconds) between the\n" \
	"                      queues, ascending (default 3250,7200: three queues)\n" \
	"  --las-starvation K  las: promote a job to the first queue once it waited\n" \
	"                      K times as long as it ran (default 0: never)\n" \
	"  --sched-interval S  jobs start only at scheduling passes every S seconds,\n" \
	"                      as Slurm's (default 0: whenever GPUs free up or a job\n" \
	"                      arrives)\n" \
	"  --las-preempted entry|first  las: a preempted job waits by the time it\n" \
	"                      entered its queue (default) or ahead of the others,\n" \
	"                      the most recently preempted first (Tiresias)\n" \
	"  --las-demoted keep|yield  las: a just-demoted job is preempted only by\n" \
	"                      earlier queues (default) or also by the jobs waiting\n" \
	"                      in its new queue (Tiresias)\n" \
	"  --las-tiresias      both Tiresias rules: --las-preempted first\n" \
	"                      --las-demoted yield\n" \
	"  --tenants FILE      quotas per tenant (the trace's tenant column), with\n" \
	"                      borrowing and lending in cohorts (gpuplan(1))\n" \
	"  --default-tenant NAME  the tenant of jobs that name none or one the\n" \
	"                      file lacks (default: such jobs are an error)\n"

#include "gpuplan/run/run.h"
/* An engine option code: applied to d (returns 0, or prints the usage
 * error and returns its exit code); -1 when code is not one. */
int gp_cli_sim_engine_opt(const char *cmd, int code, const char *arg, gp_run_desc *d);

/* ---- predicted sharing, interference, QoS (cmd_simulate_qos.c) ---- */
enum {
	GP_OPT_QOS_TICK = 1600, /* 1200: failures */ GP_OPT_QOS_SLACK, GP_OPT_QOS_MIN_SHARE, GP_OPT_QOS_STEP,
	GP_OPT_UTIL_ERROR, GP_OPT_TIME_ERROR, GP_OPT_INTERFERENCE, GP_OPT_EXCLUSIVE,
	GP_OPT_LS_FRACTION, GP_OPT_PREDICT_MODELS,
};
#define GP_SIM_QOS_OPTIONS \
	{ "qos-tick", required_argument, NULL, GP_OPT_QOS_TICK }, \
	{ "qos-slack", required_argument, NULL, GP_OPT_QOS_SLACK }, \
	{ "qos-min-share", required_argument, NULL, GP_OPT_QOS_MIN_SHARE }, \
	{ "qos-step", required_argument, NULL, GP_OPT_QOS_STEP }, \
	{ "util-error", required_argument, NULL, GP_OPT_UTIL_ERROR }, \
	{ "time-error", required_argument, NULL, GP_OPT_TIME_ERROR }, \
	{ "interference", no_argument, NULL, GP_OPT_INTERFERENCE }, \
	{ "exclusive", no_argument, NULL, GP_OPT_EXCLUSIVE }, \
	{ "ls-fraction", required_argument, NULL, GP_OPT_LS_FRACTION }, \
	{ "predict-models", required_argument, NULL, GP_OPT_PREDICT_MODELS }
#define GP_SIM_QOS_USAGE \
	"  --exclusive         every job gets whole GPUs, whatever its share\n" \
	"  --interference      jobs sharing a GPU slow each other by their true\n" \
	"                      utilization (on with predicted-share and --qos-tick)\n" \
	"  --util-error PP     true utilization = predicted + N(0, PP) (default 8)\n" \
	"  --time-error F      predicted time = true x exp(N(0, F)) (default 0.2)\n" \
	"  --qos-tick S        QoS monitor every S seconds: late LS jobs gain 10 % of a\n" \
	"                      GPU from free share or BE jobs (BE stopped below its minimum)\n" \
	"  --qos-slack F       LS deadline without deadline_s: predicted time x F (1.5)\n" \
	"  --qos-min-share F   BE minimum share, x its share at start (0.5)\n" \
	"  --qos-step M        share raise per check, milli-GPU (100)\n" \
	"  --ls-fraction F     make each job LS with probability F (seeded)\n" \
	"  --predict-models D  predictor models (default: the bundled ones)\n"
/* -1 when code is not one of GP_SIM_QOS_OPTIONS; else 0 or the exit code. */
int gp_cli_qos_opt(const char *cmd, int code, const char *arg, gp_run_qos *q);
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
/* The getopt_long codes a command leaves to its default case: a trace
 * option is applied to o (returns 0); ':' (no value) or an unknown option
 * prints the usage error, naming argv[optind - 1], and returns its exit
 * code, as does a trace option with a bad value. */
int gp_cli_sim_trace_opt(const char *cmd, int code, const char *arg, char **argv,
			 struct gp_trace_opts *o);
/* Load the cluster (NULL: the bundled example) and the trace; prints the
 * error and returns its exit code on failure. */
int gp_cli_sim_load(const char *cluster_path, const char *trace_path,
		    const struct gp_trace_opts *o, struct gp_cluster *c,
		    struct gp_joblist *jobs);
/* Write n buffers to n files atomically: all are complete or none is
 * left behind.  Returns an exit code (message printed on failure). */
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
#define GP_SIM_FAILURE_OPTIONS \
	{ "failures", required_argument, NULL, GP_OPT_FAILURES }, \
	{ "failure-model", required_argument, NULL, GP_OPT_FAILURE_MODEL }, \
	{ "events", required_argument, NULL, GP_OPT_EVENTS }, \
	{ "mtbf-node", required_argument, NULL, GP_OPT_MTBF_NODE }, \
	{ "mtbf-gpu", required_argument, NULL, GP_OPT_MTBF_GPU }, \
	{ "weibull-shape", required_argument, NULL, GP_OPT_WEIBULL }, \
	{ "repair", required_argument, NULL, GP_OPT_REPAIR }, \
	{ "failure-seed", required_argument, NULL, GP_OPT_FAILURE_SEED }, \
	{ "heartbeat-period", required_argument, NULL, GP_OPT_HB_PERIOD }, \
	{ "heartbeat-misses", required_argument, NULL, GP_OPT_HB_MISSES }, \
	{ "recovery", required_argument, NULL, GP_OPT_RECOVERY }, \
	{ "restart-cost", required_argument, NULL, GP_OPT_RESTART_COST }, \
	{ "failure-start", required_argument, NULL, GP_OPT_FAILURE_START }

#define GP_SIM_FAILURE_USAGE \
	"failures (see gpuplan(1), \"Failures in the simulator\"):\n" \
	"  --failures FILE     failure list (time_s,node,gpu,kind,repair_s)\n" \
	"  --mtbf-node H       node failures, mean hours between them per node\n" \
	"  --mtbf-gpu H        GPU failures, mean hours between them per GPU\n" \
	"  --weibull-shape K   time to failure Weibull with shape K (default 1:\n" \
	"                      exponential)\n" \
	"  --failure-model F   shape and MTBF from a `failures fit` model file\n" \
	"  --failure-start S   steady (default: the fleet in steady state at 0) or\n" \
	"                      new (every unit new at 0)\n" \
	"  --repair H          mean hours to repair, exponential (default 4; 0 at\n" \
	"                      once; never)\n" \
	"  --failure-seed N    seed of the failures and heartbeats (default --seed)\n" \
	"  --heartbeat-period S, --heartbeat-misses K  a failure is seen at the\n" \
	"                      K-th missed heartbeat (default 5 s, 3)\n" \
	"  --recovery R        restart (default), replace (worker replacement),\n" \
	"                      shrink or fail\n" \
	"  --restart-cost S    seconds a restarted job spends starting (default 0)\n" \
	"  --events FILE       one CSV row per failure and job hit\n"

/* A failure option into f (events: --events FILE; any: set when a failure
 * option was given): 0 when applied, -1 when code is not one, else the
 * usage error's exit code. */
int gp_cli_fail_opt(const char *cmd, gp_run_failures *f, const char **events, int *any,
		    int code, const char *arg);
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
