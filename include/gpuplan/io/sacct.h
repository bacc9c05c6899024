/* Job history as a trace: the accounting record of a Slurm cluster
 * (`sacct` in its parsable -P/-p forms with any delimiter, its default
 * fixed-width form, `sacct --json` and slurmrestd's slurmdb job JSON) or
 * of a Kubernetes cluster (`kubectl get pods -A -o json`), read into one
 * record per job, then written as gpuplan's trace CSV with the recorded
 * start, end, time limit and attributes beside each job.
 *
 * Rules (man gpuplan, IMPORT SACCT):
 *  - steps (123.batch, 123.extern, 123.0, 123.interactive) fold into their
 *    job; array tasks (123_4) and het-job components (123+0) are jobs;
 *  - a JobID printed twice (concatenated dumps) is kept once: the later
 *    record, with a warning;
 *  - jobs that never started (no Start, PENDING, or cancelled while
 *    pending) are left out and counted;
 *  - jobs still running (no End) are censored: they hold their GPUs to the
 *    end of the record, the latest time it shows;
 *  - jobs without GPUs are left out unless all_jobs is set. */
#ifndef GPUPLAN_SACCT_H
#define GPUPLAN_SACCT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gpuplan/util/error.h"
#include "gpuplan/util/util.h"

#define GP_SACCT_NONE INT64_MIN          /* an unknown time */
#define GP_SACCT_MAX_FILE ((size_t)1 << 36)      /* 64 GiB a file */
#define GP_SACCT_MAX_JOBS ((size_t)100000000)    /* records kept */
#define GP_SACCT_MAX_WARN 20                     /* warnings kept in full */

/* What a record says of one job. */
typedef struct gp_sacct_job {
	const char *id;                 /* as printed: 123, 123_4, 123+0 */
	const char *state;              /* base state in capitals */
	const char *partition, *account, *user, *qos, *gpu_type; /* NULL unknown */
	int64_t submit, eligible, start, end; /* Unix seconds or GP_SACCT_NONE */
	int64_t elapsed;                /* seconds, -1 unknown */
	int64_t time_limit;             /* seconds, -1 none or unknown */
	int32_t gpus;                   /* total GPUs */
	int32_t nodes, cpus;            /* 0 unknown */
	int32_t line;                   /* first line of the record */
	uint16_t file;                  /* index into gp_sacct.files */
	uint8_t no_nodes;               /* NodeList said 'None assigned' */
	uint8_t alloc;                  /* its GPUs came from an allocation */
} gp_sacct_job;

typedef struct gp_sacct_opts {
	const char *fields;     /* the --format list of a headerless -P/-p dump */
	const char *delimiter;  /* the delimiter (any bytes); NULL: detect */
	int all_jobs;           /* keep jobs without GPUs */
} gp_sacct_opts;

typedef struct gp_sacct {
	gp_sacct_job *jobs;
	size_t n, cap;
	struct gp_pool *pool;
	char **files;                   /* names, for warnings */
	size_t nfiles;
	char *form;                     /* the first input's form, e.g. "sacct -P" */
	/* what was left out, for the summary */
	size_t rows, steps, duplicates, never_started, no_gpus, running;
	int64_t origin;                 /* submit 0 (after gp_sacct_finish) */
	int64_t record_end;             /* the latest time the record shows */
	char *warnings[GP_SACCT_MAX_WARN];
	size_t nwarn, warn_total;
	void *index;                    /* private: id -> record */
} gp_sacct;

void gp_sacct_init(gp_sacct *h);
void gp_sacct_release(gp_sacct *h);

/* What a text is, from its first bytes: 1 sacct text (a header naming
 * JobID), 2 sacct/slurmdb JSON, 3 Kubernetes pod list JSON, 4 Key=Value
 * records (`scontrol show job`, one line or several a job, or
 * jobcomp/filetxt's log), 0 none. */
int gp_sacct_sniff(const char *text, size_t len);

/* Add the records of one input (name is used in messages; text[len] must
 * be '\0'; text is not kept).  GP_EINPUT located at FILE:LINE:COL. */
int gp_sacct_read(gp_sacct *h, const char *name, const char *text, size_t len,
		  const gp_sacct_opts *o, gp_error *err);
/* The same from a file, read a window at a time ("-": standard input). */
int gp_sacct_read_file(gp_sacct *h, const char *path, const gp_sacct_opts *o, gp_error *err);

/* After the last input: the rules above applied, the jobs in submit order
 * (ties in reading order), the origin set.  GP_EINPUT when no job is left
 * to replay. */
int gp_sacct_finish(gp_sacct *h, const gp_sacct_opts *o, gp_error *err);

/* The trace CSV: a comment naming the origin, then the header
 * id,submit,gpus,duration,state and, where some job has them,
 * recorded_start,recorded_end,time_limit,nodes,partition,account,user,
 * qos,gpu_type (and cpu_milli for jobs without GPUs). */
int gp_sacct_write_file(const gp_sacct *h, FILE *fp);

/* One line saying what was read and what was left out. */
void gp_sacct_summary(const gp_sacct *h, gp_sbuf *sb);

#endif
