/* Internal interface between the trace reader (trace.c: scanning, header
 * mapping, detection, filters) and the dialects (trace_<name>.c: one row
 * onto one gp_job).  Adding a dialect = one file defining a
 * gp_trace_dialect + one line in the table in trace.c. */
#ifndef GPUPLAN_TRACE_IMPL_H
#define GPUPLAN_TRACE_IMPL_H

#include <stdint.h>
#include <stdio.h>

#include "gpuplan/model/catalog.h"
#include "gpuplan/util/error.h"
#include "gpuplan/model/job.h"
#include "gpuplan/io/trace.h"

#define GP_TRACE_MAX_FIELDS 64
/* Largest submit time, duration or deadline accepted: ~317 years. */
#define GP_TRACE_MAX_SECONDS 1e10
/* A row's return value for a valid row that is no job to replay (an openb
 * CPU-only task, a pod that never ran): dropped and counted in
 * gp_trace_stats.left_out; the dialect says why in its finish(). */
#define GP_TRACE_LEAVE_OUT (-1)

/* One data row as the dialect sees it.  Fields are NUL-terminated, trimmed
 * and unquoted in place; "column k" means the k-th name of the dialect's
 * `columns` list (headerless dialects: the k-th field). */
typedef struct gp_trace_row {
	const char *path;
	int line;
	int nf;                         /* fields in this row */
	char **field;                   /* in file order */
	const int *col;                 /* 1-based byte column of each field */
	const int *map;                 /* dialect column -> field index, -1 absent */
	const char *const *names;       /* the dialect's column names */
	int64_t index;                  /* 0-based data-row index in the file */
	void *state;                    /* dialect scratch, state_size bytes, zeroed */
	void *models;                   /* catalog lookups of this load (trace.c) */
	const gp_catalog *gpus;         /* the built-in GPU catalog (trace.c) */
	struct gp_pool *pool;           /* the job list's: ids, strings, `more` */
	/* The row's gp_job.more, to fill instead of it: interned into the
	 * pool once the row is read (rows share equal ones). */
	gp_job_more more;
	/* The row's gp_job.hist, to fill instead of it when has_hist is
	 * set: copied into the pool once the row is read. */
	gp_job_hist hist;
	int has_hist;
	gp_error *err;
} gp_trace_row;

typedef struct gp_trace_dialect {
	const char *name;
	const char *summary;            /* one line, for --help and the man page */
	char sep;                       /* ',' or '\t' */
	/* Column names (NULL-terminated).  With a header they are matched
	 * case-insensitively and in any order; headerless (positional)
	 * dialects name their fields for messages. */
	const char *const *columns;
	int header;                     /* the first line names the columns */
	uint64_t required;              /* bit k: columns[k] must be present */
	int strict_header;              /* unknown header columns are errors */
	int own_ids;                    /* ids come from the file: check duplicates */
	size_t state_size;
	/* Headerless dialects: does this first row (split on sep) look like
	 * ours?  Return nonzero when it does. */
	int (*sniff)(char **field, int nf);
	/* Map row r onto job j (already gp_job_init'ed, j->line set; its
	 * strings belong to r->pool: set them with the helpers below, its
	 * `more` through r->more); return GP_OK, or GP_EINPUT via
	 * gp_trace_bad & co. */
	int (*row)(gp_trace_row *r, gp_job *j);
	/* After the header is mapped (optional): reject a header that has
	 * the required columns but cannot be replayed; map[k] as in
	 * gp_trace_row.  Return GP_OK or GP_EINPUT located at line. */
	int (*check_header)(const int *map, const char *path, int line,
			    gp_error *err);
	/* After the last row (optional): e.g. turn dates into seconds from
	 * the first submission, or say in l->left_out_note why rows were
	 * left out. */
	void (*finish)(void *state, gp_joblist *l, gp_trace_stats *st);
} gp_trace_dialect;

/* The dialects (one file each). */
extern const gp_trace_dialect gp_trace_native;
extern const gp_trace_dialect gp_trace_tiresias;
extern const gp_trace_dialect gp_trace_muri;
extern const gp_trace_dialect gp_trace_philly;
extern const gp_trace_dialect gp_trace_pollux;
extern const gp_trace_dialect gp_trace_gavel;
extern const gp_trace_dialect gp_trace_openb;

/* Helpers for dialects.  Column k < 0 or absent: "" / col 0. */
const char *gp_trace_get(const gp_trace_row *r, int k);
/* Set a GP_EINPUT error located at column k's field (line only if k < 0). */
int gp_trace_bad(const gp_trace_row *r, int k, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Parse column k into [min, max].  Whole numbers also accept an
 * integral decimal such as "8.0" (pandas writes ints that way). */
int gp_trace_long(const gp_trace_row *r, int k, long min, long max, long *out);
int gp_trace_double(const gp_trace_row *r, int k, double min, double max,
		    double *out);
/* Copy column k's value, which must not be empty, into the pool. */
int gp_trace_strdup(const gp_trace_row *r, int k, char **out);
/* The pool's shared copy of s (a user, cluster or environment name). */
char *gp_trace_intern(const gp_trace_row *r, const char *s);
/* The model a row names (s, from column k): a model-catalog name or alias
 * fills r->more.model from the catalog (name becomes the catalog's, as in the
 * job-spec loader); another name is kept as given, error when too long;
 * "" leaves the model unknown. */
int gp_trace_model_name(gp_trace_row *r, int k, const char *s);
/* GPU models a job may run on, '|'-separated (s, from column k): each
 * name the GPU catalog knows, by name or alias, becomes the catalog's
 * name (openb's "V100M32" -> "V100-SXM2-32GB"), so that it matches a
 * cluster node of that model whatever spelling the cluster used; other
 * names (openb's undisclosed "G2") are kept as given.  "" leaves the job
 * unconstrained; an empty name between bars is an error. */
int gp_trace_gpu_models(const gp_trace_row *r, int k, const char *s, gp_job *j);
/* The 0-based data-row index as the job id (dialects without ids). */
void gp_trace_index_id(const gp_trace_row *r, gp_job *j);
/* Type from the GPU count when the trace does not say: one GPU is
 * single-card, more is data-parallel all-reduce (one node first, then
 * several; the policy decides). */
void gp_trace_default_type(gp_job *j);

/* The text of a trace (trace_scan.c): a whole buffer, or a regular file
 * read a window at a time. */
typedef struct gp_trace_scanner {
	const char *path;
	char *p, *end;          /* unread part of the buffer */
	int line;               /* number of the line last returned */
	int next_line;
	FILE *fp;               /* reading a file: its window win[0..cap) */
	char *win;
	size_t cap, read, max;  /* window size, bytes read so far, the cap */
	size_t size;            /* the file's size when it was opened */
	int failed;             /* GP_EIO or GP_EINPUT: the read stopped */
	int bad_col;            /* > 0: stopped at a byte no text holds */
	unsigned char bad_byte; /* (gp_text_check), on line next_line */
} gp_trace_scanner;

void gp_trace_scan_buffer(gp_trace_scanner *s, const char *path, char *buf, size_t len);
/* A regular file of at most max bytes, opened and its first window read:
 * 1; anything else (stdin, a pipe, a file too large or not there): 0, and
 * the caller reads it whole (gp_read_file says what is wrong). */
int gp_trace_scan_file(gp_trace_scanner *s, const char *path, size_t max);
/* Next line, NUL-terminated in place without its "\n" / "\r\n", valid
 * until the next call; NULL at the end of the text or when the reading
 * failed (s->failed, told by gp_trace_scan_error), a line with a NUL or
 * control byte included. */
char *gp_trace_scan_line(gp_trace_scanner *s, size_t *len);
/* Lines left: counted in the buffer, estimated for the unread file. */
size_t gp_trace_scan_lines_left(const gp_trace_scanner *s);
int gp_trace_scan_error(const gp_trace_scanner *s, gp_error *err);
void gp_trace_scan_close(gp_trace_scanner *s);
/* Blank lines and '#' comments carry no row. */
int gp_trace_skip_line(const char *l);
/* Split line (NUL-terminated, len bytes) on sep in place: fields are
 * trimmed and unquoted ("" inside quotes is one quote). */
int gp_trace_split(char *line, size_t len, char sep, char **field, int *col, int *nf,
		   const char *path, int lineno, gp_error *err);

/* Job histories (trace_history.c): which kind a text or file is (0 none,
 * else gp_sacct_sniff's answer; a --format of sacct or kubernetes forces
 * it), and its jobs read through the trace CSV gpuplan import sacct
 * writes (path, or buf when path is NULL). */
int gp_trace_history_kind(const char *format, const char *text, size_t len);
int gp_trace_history_kind_file(const char *format, const char *path);
int gp_trace_history_load(const char *name, const char *path, const char *buf, size_t len,
			  const gp_trace_opts *opts, gp_joblist *out, gp_error *err);

/* After the rows are read (trace_order.c): duplicate ids (own_ids
 * dialects), order by submit time (stable), the window and the limit. */
int gp_trace_check_ids(gp_joblist *l, const char *path, int skip_bad, gp_trace_stats *st,
		       gp_error *err);
void gp_trace_sort(gp_joblist *l);
void gp_trace_filter(gp_joblist *l, const gp_trace_opts *o, gp_trace_stats *st);

#endif
