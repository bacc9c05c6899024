/* Learned predictors of a training job's GPU utilization, peak GPU memory
 * and iteration time (predicted sharing, "GPU resource allocation for DL tasks"):
 * multilayer perceptrons (FANN) over network-structure features, execution
 * features and GPU hardware features.
 *
 * Features (gp_pred_features, one fixed layout for every target):
 *   per operator type (enum gp_pred_op): the node count and log2(1 + the
 *     largest input, elements per sample, among the nodes of that type);
 *   execution: log2 batch, log2 input elements per sample, log2 parameters,
 *     log2 activations per sample, log2 (batch x activations), log2 training
 *     FLOPs per iteration, weight layers;
 *   GPU hardware: compute capability, log2 memory GiB, log2 SMs, log2
 *     memory GB/s, log2 FP32 and FP16 TFLOPS, and two roofline terms:
 *     log2 (FLOPs per iteration / FP32 peak) and log2 (activation bytes per
 *     iteration / memory bandwidth).
 * Each feature is standardized with the training rows' mean and standard
 * deviation, stored in the model file; a feature constant in the training
 * data (the GPU features of a one-GPU data set) is fed as 0, so it cannot
 * move a prediction.  Targets: util in percent (as is), memory and time
 * through log (so the error is relative), then standardized. */
#ifndef GPUPLAN_PREDICT_PREDICT_H
#define GPUPLAN_PREDICT_PREDICT_H

#include <stddef.h>
#include <stdint.h>

#include "gpuplan/model/catalog.h"
#include "gpuplan/model/cluster.h"
#include "gpuplan/model/job.h"
#include "gpuplan/model/dlmodels.h"
#include "gpuplan/util/error.h"
#include "gpuplan/util/util.h"

/* ---- operator profiles (ops.c) ---- */

enum gp_pred_op {
	GP_OP_LINEAR = 0, GP_OP_CONV2D, GP_OP_MATMUL, GP_OP_ADDV2, GP_OP_MUL,
	GP_OP_CONCAT, GP_OP_RELU, GP_OP_ACT, GP_OP_SOFTMAX, GP_OP_MAXPOOL,
	GP_OP_AVGPOOL, GP_OP_NORM, GP_OP_DROPOUT, GP_OP_EMBED, GP_OP_RNN,
	GP_OP_N
};
/* GP_OP_ACT: every activation other than ReLU (GELU, tanh, ELU, SiLU, ...);
 * GP_OP_NORM: batch, layer and instance norm; GP_OP_RNN: LSTM/GRU layers. */
const char *gp_pred_op_name(int op);
/* Framework layer names ("Linear", "batch_normalization", "ConcatV2", ...)
 * onto the vocabulary; -1 when the name is not one of them. */
int gp_pred_op_parse(const char *s);

typedef struct gp_pred_ops {
	double count[GP_OP_N];  /* nodes of each type */
	double max_in[GP_OP_N]; /* largest input among them, elements/sample */
	double params;          /* parameters */
	double acts;            /* activation elements per sample */
	double input;           /* model input elements per sample */
	double flops;           /* training FLOPs per sample */
	int depth;              /* weight layers (linear, conv, rnn) */
	double width;           /* widest weight layer (features / channels) */
	int default_batch;      /* batch when the job gives none, 0 = 1 */
	int approx;             /* counted by hand or generic */
	char source[160];       /* where the profile comes from */
} gp_pred_ops;

void gp_pred_ops_init(gp_pred_ops *o);
/* Profile of a catalog model at input h x w (CNN) or sequence seq
 * (transformers); 0 = the model's default.  -1 when no profile exists. */
int gp_pred_ops_of_model(const gp_dl_model *m, int h, int w, int seq, gp_pred_ops *o);
/* Profile of a job's model descriptor: by name (catalog or the hand
 * table of trace models: "LM", "A3C", "CycleGAN", "Recommendation"),
 * else generic from its kind, layers and parameters.  -1 when the job
 * says nothing usable (no name known, no parameters, no layers). */
int gp_pred_ops_of_desc(const gp_model_desc *d, gp_pred_ops *o);
/* Whether a model name has an operator profile. */
int gp_pred_ops_known(const char *name);

/* ---- GPU hardware features (features.c) ---- */

typedef struct gp_pred_hw {
	double cc;              /* compute capability, 8.0; 0 = not CUDA */
	double mem_gib, sms, bw_gbs, fp32, fp16;
} gp_pred_hw;

/* Hardware features of a catalog GPU: memory, bandwidth and peaks from
 * the catalog, compute capability and SM count from a table in
 * features.c (vendor data sheets).  -1 when the SM count is unknown. */
int gp_pred_hw_of(const gp_gpu_model *m, gp_pred_hw *hw);

#define GP_PRED_NFEAT (2 * GP_OP_N + 7 + 8)
#define GP_PRED_FEAT_ROOFLINE (2 * GP_OP_N + 7 + 6) /* log2(1 + roofline us) */

/* The feature vector of (ops, batch, hw) into x[GP_PRED_NFEAT]. */
void gp_pred_features(const gp_pred_ops *o, double batch, const gp_pred_hw *hw, double *x);
const char *gp_pred_feature_name(int i);

/* ---- data sets (data.c) ---- */

enum gp_pred_target { GP_PRED_UTIL = 0, GP_PRED_MEM, GP_PRED_TIME, GP_PRED_NTARGETS };
const char *gp_pred_target_name(int t);   /* "util", "memory", "time" */
int gp_pred_target_parse(const char *s);  /* -1 when unknown */
const char *gp_pred_target_unit(int t);   /* "%", "MiB", "s" */

typedef struct gp_pred_row {
	double x[GP_PRED_NFEAT];
	double y[GP_PRED_NTARGETS]; /* util %, peak MiB, seconds/iteration; NAN absent */
	int depth;                  /* for the depth split */
	double width;               /* for the width split */
	char gpu[48];               /* catalog name of the GPU measured on */
	char model[48];             /* model name, "" when explicit */
	int64_t line;
} gp_pred_row;

typedef struct gp_pred_data {
	gp_pred_row *rows;
	size_t n, cap;
	char *path;
	const char *format;         /* "gpumemnet", "gpuplan" */
} gp_pred_data;

#define GP_PRED_MAX_ROWS 1000000
#define GP_PRED_MAX_FILE (256u << 20)

void gp_pred_data_init(gp_pred_data *d);
void gp_pred_data_release(gp_pred_data *d);
/* Read a training / evaluation CSV, dialect from the header:
 *   GPUMemNet (columns Filename, Depth, Activations-Params, Batch Size,
 *     Max GPU Memory (MiB), Avg GPUTL; measured on an A100-SXM4-40GB):
 *     operator features from the layer list;
 *   gpuplan (columns model, batch_size, gpu, and any of util_pct,
 *     mem_mib, iter_s; optional input_h, input_w, seq_len, source):
 *     operator features from the model's profile (ops.c).
 * Appends to d; errors carry FILE:LINE:COL. */
int gp_pred_data_load(const char *path, const gp_catalog *cat, gp_pred_data *d,
		      gp_error *err);

/* The execution-time data set from Gavel's throughput matrix (JSON, NULL
 * = none) and a directory of Sia profiles (<model>/placements-<platform>.csv,
 * NULL = none), as a gpuplan predictor CSV appended to out (build.c). */
int gp_pred_build_time(const char *gavel_json, const char *sia_dir, gp_sbuf *out,
		       size_t *nrows, gp_error *err);

/* ---- the perceptron (mlp.c) ---- */

typedef struct gp_predictor gp_predictor;

enum gp_pred_split {
	GP_SPLIT_RANDOM = 0,    /* holdout x rows at random (seeded) */
	GP_SPLIT_DEPTH,         /* the deepest rows (about holdout x rows) */
	GP_SPLIT_WIDTH,         /* the widest rows */
	GP_SPLIT_GPU,           /* every row of one GPU type (split_gpu) */
};
const char *gp_pred_split_name(int s);

#define GP_PRED_MAX_HIDDEN 4

typedef struct gp_pred_train_opts {
	int target;                 /* enum gp_pred_target */
	int hidden[GP_PRED_MAX_HIDDEN];
	int nhidden;
	int epochs;
	uint64_t seed;
	double holdout;             /* share of rows held out, 0 = none */
	int split;                  /* enum gp_pred_split */
	char split_gpu[48];         /* GP_SPLIT_GPU */
} gp_pred_train_opts;

void gp_pred_train_opts_init(gp_pred_train_opts *o); /* util, 64,32, 200, seed 42, 0.2 */

typedef struct gp_pred_metrics {
	size_t n;
	double mae;                 /* in target units (percentage points, MiB, s) */
	double mape;                /* percent */
	double r2;
} gp_pred_metrics;

typedef struct gp_pred_train_report {
	size_t rows, train_rows, test_rows;
	int epochs_run, best_epoch;
	gp_pred_metrics train, test;
} gp_pred_train_report;

/* Train on the rows of d that carry the target.  The held-out rows are
 * only measured (rep->test), never fitted.  Deterministic for a seed. */
int gp_predictor_train(const gp_pred_data *d, const gp_pred_train_opts *o,
		       gp_predictor **out, gp_pred_train_report *rep, gp_error *err);
void gp_predictor_free(gp_predictor *p);
int gp_predictor_target(const gp_predictor *p);
/* Prediction in target units from a feature vector. */
double gp_predictor_run(const gp_predictor *p, const double *x);
/* Metrics over the rows of d carrying the target (mask NULL = all rows,
 * else rows whose mask entry equals want). */
void gp_predictor_eval(const gp_predictor *p, const gp_pred_data *d,
		       const unsigned char *mask, int want, gp_pred_metrics *m);
/* The model file (JSON, keys sorted): layout, scaling, weights and the
 * training options and report.  Written atomically. */
int gp_predictor_save(const gp_predictor *p, const char *path, gp_error *err);
int gp_predictor_load(const char *path, gp_predictor **out, gp_error *err);

/* ---- job-level predictions (job.c) ---- */

/* The three predictors a job-level prediction uses; NULL members are
 * allowed (that prediction is then unavailable). */
typedef struct gp_pred_models {
	gp_predictor *util, *mem, *time;
	gp_pred_hw ref;         /* the GPU the utilization was measured on */
	gp_gpu_model ref_gpu;   /* the same from the catalog (name "" none) */
} gp_pred_models;

#define GP_PRED_UTIL_GPU "A100-SXM4-40GB" /* GPUMemNet's GPU */

void gp_pred_models_init(gp_pred_models *m);
/* Load util.json, memory.json and time.json from dir (each optional, but
 * at least one must be there). */
int gp_pred_models_load(gp_pred_models *m, const char *dir, gp_error *err);
/* Load one model file and put it in the slot of its target. */
int gp_pred_models_load_file(gp_pred_models *m, const char *path, gp_error *err);
void gp_pred_models_release(gp_pred_models *m);

/* What the predictors say about one job on one GPU model. */
typedef struct gp_pred_job {
	int ok;                 /* 0: the job has no operator profile */
	int in_domain;          /* an MLP, like every GPUMemNet row */
	int mem_analytic;       /* mem_mib is the analytic estimate */
	double util;            /* percent of the GPU, 0..100 */
	double mem_mib;         /* peak GPU memory per GPU */
	double iter_s;          /* seconds per iteration */
	double time_s;          /* iterations x iter_s; 0 when iterations unknown */
	double net_iter_s;      /* the time predictor's own answer, 0 none */
	double perf_iter_s;     /* the perf model's one-GPU time, 0 none */
	int time_source;        /* enum gp_pred_time_source: who gave iter_s */
} gp_pred_job;

/* Who decided a job's predicted iteration time on a GPU model. */
enum gp_pred_time_source {
	GP_PRED_TIME_NONE = 0,  /* no time predictor, no perf model */
	GP_PRED_TIME_NET,       /* the time predictor, within the perf model's band */
	GP_PRED_TIME_PERF,      /* the perf model: the predictor left the band */
};
const char *gp_pred_time_source_name(int s); /* "none", "predictor", "perf-model" */
/* The time predictor extrapolates badly outside its data (a DL model or
 * GPU it never saw: K80 at minutes per VGG-16 step, an RTX 2070 ahead of
 * an H100).  Its answer stands when within this factor of the perf
 * model's one-GPU time (gp_perf_single_gpu), either way; outside it the
 * perf model decides, so the ranking of GPU models follows their peaks
 * and measured profiles.  The factor is the perf model's own spread
 * against published single-GPU times (its iteration-time errors stay
 * well under 2x, validate-perf). */
#define GP_PRED_PERF_BAND 2.0

/* The util and memory data (GPUMemNet) hold MLPs only: a model with
 * convolutions, attention, recurrent layers or embeddings is outside
 * them.  For such a model the memory prediction is the larger of the
 * network's and the analytic estimate (gp_memory_estimate) plus the CUDA
 * context GPUMemNet measures with every run (its smallest peak). */
#define GP_PRED_CONTEXT_MIB 1443.0
int gp_pred_ops_in_domain(const gp_pred_ops *o);

/* Utilization is measured on one GPU type only (GPUMemNet: A100): on
 * another GPU it is transferred through the time predictor's relative
 * speed k = iter(gpu) / iter(A100): u' = k u / (k u + 1 - u), the busy share
 * of a step whose GPU part is k times as long and whose host part stays.
 * Memory is a property of the model and batch, the same on every GPU. */
int gp_pred_job_on(const gp_pred_models *m, const gp_job *j, const gp_pred_ops *ops,
		   const gp_gpu_model *gpu, gp_pred_job *out);

/* ---- predictions for a whole job list (plan.c) ---- */

/* What predicted-share puts in place of the requests: per job the
 * predicted per-GPU share and memory on the cluster's most common GPU
 * model, and the predicted iteration time on every model of the
 * cluster's catalog (gp_job.pred_iter_s).  A job without an operator
 * profile (Philly, openb pods: no model named) keeps its request. */
typedef struct gp_pred_plan {
	size_t n;
	int *pred_milli;        /* predicted share, 10..1000 milli (ceil to 10) */
	int64_t *pred_mem;      /* predicted MiB (ceil) */
	double *pred_util;      /* predicted utilization, percent (request/10
				 * without a profile) */
	int *req_milli;         /* the requests, as read */
	int64_t *req_mem;
	uint8_t *has;           /* 1: predicted from an operator profile */
	const double **iter;    /* per job: ncat predicted seconds, or NULL */
	const double **milli;   /* per job: ncat predicted shares (milli-GPU,
				 * from each model's utilization), or NULL */
	double *rows;           /* storage of the distinct iter rows */
	size_t nrows;
	int ncat;
	int ref;                /* catalog index of the GPU model used */
	size_t with_profile;
} gp_pred_plan;

void gp_pred_plan_init(gp_pred_plan *pl);
int gp_pred_plan_build(gp_pred_plan *pl, const gp_pred_models *m, const gp_cluster *c,
		       const gp_joblist *jobs, gp_error *err);
/* gpu_milli, gpu_mem_mib := the predictions (the share on the reference
 * model); pred_iter_s and pred_milli set (the plan must outlive the
 * jobs' use of them). */
void gp_pred_plan_apply(const gp_pred_plan *pl, gp_joblist *jobs);
void gp_pred_plan_release(gp_pred_plan *pl);

#endif
