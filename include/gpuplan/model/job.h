/* A training job, as placed by `place` and replayed by `simulate`.  Every
 * trace dialect and the job-spec YAML map onto this one struct. */
#ifndef GPUPLAN_JOB_H
#define GPUPLAN_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "gpuplan/model/catalog.h"
#include "gpuplan/model/llm.h"
#include "gpuplan/util/error.h"

enum gp_job_type {
	GP_JOB_SINGLE_CARD = 0,
	GP_JOB_SINGLE_NODE,
	GP_JOB_RING_ALLREDUCE,
	GP_JOB_PS_WORKER,
	GP_JOB_LLM,             /* tensor/pipeline/context/data parallel (llm.h) */
};

enum gp_job_class { GP_CLASS_LS = 0, GP_CLASS_BE = 1 };

enum gp_optimizer { GP_OPT_SGD = 0, GP_OPT_MOMENTUM, GP_OPT_ADAM };
enum gp_precision { GP_PREC_FP32 = 0, GP_PREC_FP16, GP_PREC_BF16, GP_PREC_MIXED };

/* What the job trains; filled from the model catalog or given explicitly. */
typedef struct gp_model_desc {
	char name[48];          /* catalog name, "" when explicit/unknown */
	double params;          /* parameter count */
	int layers;
	int hidden;
	int seq_len;
	int is_transformer;
	double flops_per_sample; /* forward+backward; 0 = derive */
	int kind;               /* enum gp_model_kind (models.h) */
	int heads;              /* attention heads, 0 unknown */
	int vocab;              /* vocabulary size, 0 unknown */
	int input_c, input_h, input_w; /* CNN input shape, 0 unknown */
	double act_elems;       /* sum of per-layer output elements per
				 * sample (CNN seed rule), 0 unknown */
	char dataset[32];       /* "imagenet", "cifar10", ... or "" */
} gp_model_desc;

/* The rarely given part of a job, out of line: a trace of a million
 * one-line jobs shares one copy (peak memory: a 20-byte row must not cost
 * 300 bytes).  Never NULL in an initialised job; change it only through
 * gp_job_more_edit. */
typedef struct gp_job_more {
	gp_model_desc model;    /* what the job trains */
	double deadline;        /* seconds after submit, 0 = none */
	double checkpoint_interval; /* seconds of work between checkpoints;
				   0 = the run's default */
	gp_llm llm;             /* type llm: model and layout */
} gp_job_more;

/* What a scheduler's record says of a job (a trace from `sacct` or
 * Kubernetes history, or the native columns of the same names): the
 * start and end it really had and its time limit, beside the job that the
 * simulator replays.  Owned by the job list's pool, shared by copies of
 * the job; NULL in jobs without a record. */
typedef struct gp_job_hist {
	double recorded_start;  /* seconds from the trace's start; < 0 unknown */
	double recorded_end;    /* the same; < 0 unknown (still running) */
	double time_limit;      /* seconds; 0 = none (unlimited or unknown) */
	const char *state;      /* COMPLETED, CANCELLED, TIMEOUT, ...; NULL unknown */
	const char *partition, *account, *user, *qos, *gpu_type; /* NULL unknown */
	int nodes;              /* nodes it ran on; 0 unknown */
} gp_job_hist;

/* gp_job.own bits: what gp_job_release frees. */
#define GP_JOB_OWN_STRINGS 1u   /* id, gpu_models, environment (else a pool's) */
#define GP_JOB_OWN_MORE 2u      /* more (else shared) */

typedef struct gp_job {
	char *id;               /* trace's own job id or job-spec name */
	char *gpu_models;       /* allowed GPU models, '|'-separated; NULL = any;
				 * an empty name (traces never give one) allows
				 * nodes of no GPU model */
	char *environment;      /* tenant / quota environment; NULL = default */
	const gp_job_more *more;
	const gp_job_hist *hist; /* the scheduler's record; NULL = none */
	/* predicted-share: predicted seconds per iteration on each model of
	 * the cluster's GPU catalog (by index); not owned, NULL = none. */
	const double *pred_iter_s;
	/* predicted-share: predicted share (milli-GPU, 10..1000) on each model
	 * of the catalog, from that model's utilization; not owned, NULL =
	 * none (gpu_milli then holds on every model). */
	const double *pred_milli;
	double submit;          /* seconds from trace start */
	double duration;        /* seconds of run time; < 0 when iteration-based */
	int64_t iterations;     /* training iterations, 0 = unknown; the run
				   time comes from the perf model only when
				   duration < 0 (traces such as Tiresias give
				   both: then duration rules) */
	int64_t gpu_mem_mib;    /* per-GPU memory need, 0 = unknown */
	int64_t cpu_milli;      /* CPU request in milli-cores, 0 = none */
	int64_t mem_mib;        /* host memory request, 0 = none */
	int gpus;               /* total GPUs (whole or shared) */
	int ps, workers;        /* PS-Worker split; 0 when not given */
	int priority;
	int batch_size;
	int line;               /* source line in its file, for messages */
	int16_t gpu_milli;      /* per-GPU share, 1..1000 (1000 = whole GPU) */
	int8_t type;            /* enum gp_job_type */
	int8_t klass;           /* enum gp_job_class */
	int8_t optimizer;       /* enum gp_optimizer */
	int8_t precision;       /* enum gp_precision */
	uint8_t gpu_mem_estimated; /* gpu_mem_mib came from the memory estimator */
	uint8_t own;            /* GP_JOB_OWN_* */
} gp_job;

/* Jobs start with own = GP_JOB_OWN_STRINGS (strings from gp_xstrdup &
 * co.) and the shared empty `more`. */
void gp_job_init(gp_job *j);
void gp_job_release(gp_job *j);
/* j->more, made j's own first when it is shared. */
gp_job_more *gp_job_more_edit(gp_job *j);

/* A list of jobs (a trace, or a --batch file). */
typedef struct gp_joblist {
	gp_job *jobs;
	size_t n, cap;
	char *source;           /* file name */
	char *format;           /* detected dialect name */
	size_t skipped;         /* bad rows skipped under --skip-bad */
	size_t left_out;        /* valid rows that are no job to replay */
	char *left_out_note;    /* why, e.g. "1088 CPU-only tasks"; NULL
				   when none */
	struct gp_pool *pool;   /* strings and `more` records of jobs without
				   GP_JOB_OWN_*; NULL when none */
} gp_joblist;

void gp_joblist_init(gp_joblist *l);
void gp_joblist_release(gp_joblist *l);
gp_job *gp_joblist_push(gp_joblist *l); /* new initialised job at the end */
/* Move the strings and `more` of j (one of l's jobs) into l's pool, where
 * equal environments, GPU model lists and `more` records are stored once;
 * j then owns nothing. */
void gp_joblist_pool_job(gp_joblist *l, gp_job *j);

/* Allowed-model check: NULL/empty constraint accepts every model. */
int gp_job_accepts_model(const gp_job *j, const char *model_name);
/* gp_job_accepts_model(j, cat->models[model].name) remembered per (model
 * list, catalog model) for callers that ask it per node or node type.  The
 * key is the list's text, not its address (a list may be built in a buffer
 * that is reused), so the answers are exactly gp_job_accepts_model's.  One
 * memo serves one catalog and one caller at a time; it remembers at most
 * GP_ACCEPTS_MEMO_MAX lists and asks gp_job_accepts_model past that. */
#define GP_ACCEPTS_MEMO_MAX 4096
typedef struct gp_accepts_memo {
	struct gp_accepts_list *slot; /* open addressing, cap a power of 2 */
	int cap, n;
} gp_accepts_memo;
void gp_accepts_memo_init(gp_accepts_memo *m);
void gp_accepts_memo_release(gp_accepts_memo *m);
/* model: an index into cat (0 <= model < cat->n). */
int gp_job_accepts_model_memo(gp_accepts_memo *m, const gp_job *j, const gp_catalog *cat,
			      int model);
/* Whether j may run on nodes of no GPU model: no constraint, or an empty
 * name in its list (the tenants' second ask among models, quota.c). */
int gp_job_accepts_no_model(const gp_job *j);
/* A name of j's gpu_model list that the catalog does not know (so no node
 * could ever match it: a misspelling), copied into bad with the closest
 * catalog name in hint ("" when none is close); 0 when every name is
 * known or the job has no list. */
int gp_job_unknown_model(const gp_job *j, const gp_catalog *cat, char *bad, size_t badsize,
			 char *hint, size_t hintsize);

const char *gp_job_type_name(int type);
int gp_job_type_parse(const char *s); /* -1 when unknown */

#endif
