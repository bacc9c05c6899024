/* Job-trace readers: every public trace dialect (Tiresias, Muri, Philly,
 * Pollux/Sia, Gavel, openb, ...) and gpuplan's own CSV, mapped onto
 * gp_job.  The dialect is detected from the header (or forced by name);
 * jobs come out sorted by submit time (ties in file order), with submit
 * in seconds from the trace's start. */
#ifndef GPUPLAN_TRACE_H
#define GPUPLAN_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "gpuplan/util/error.h"
#include "gpuplan/model/job.h"

/* Caps on what a trace may hold (the Philly table is 3.4 MB, 82,247 rows). */
#define GP_TRACE_MAX_BYTES ((size_t)256 << 20)   /* 256 MiB */
#define GP_TRACE_MAX_ROWS ((size_t)2000000)      /* data rows */
#define GP_TRACE_MAX_GPUS 65536                  /* GPUs of one job */

/* What a load saw; optional output (gp_trace_opts.stats). */
typedef struct gp_trace_stats {
	size_t rows;            /* data rows read (blank and '#' lines excluded) */
	size_t skipped;         /* bad rows skipped under skip_bad */
	size_t left_out;        /* valid rows the dialect does not replay
				   (openb CPU-only tasks and pods that never
				   ran); gp_joblist.left_out_note says why */
	size_t outside;         /* jobs dropped by the start/end window */
	size_t over_limit;      /* jobs dropped by the limit */
	double epoch;           /* Unix time of submit 0 for dated traces
				   (Philly), 0 otherwise */
	gp_error first_bad;     /* the first skipped row's error, status GP_OK
				   when nothing was skipped */
} gp_trace_stats;

/* Options; all-zero (or gp_trace_opts_init) means: detect the dialect,
 * keep every job, stop at the first bad row, default caps. */
typedef struct gp_trace_opts {
	const char *format;     /* dialect name; NULL, "" or "auto": detect */
	size_t limit;           /* keep the first N jobs by submit time; 0 = all */
	double start;           /* keep jobs with start <= submit ... */
	double end;             /* ... and submit < end; 0 = no upper bound */
	int skip_bad;           /* count and skip bad rows instead of failing */
	size_t max_rows;        /* row cap; 0 = GP_TRACE_MAX_ROWS */
	size_t max_bytes;       /* file-size cap; 0 = GP_TRACE_MAX_BYTES */
	gp_trace_stats *stats;  /* filled when non-NULL */
} gp_trace_opts;

void gp_trace_opts_init(gp_trace_opts *o);

/* Read a trace file ("-" = stdin).  out must be initialised
 * (gp_joblist_init); on success its jobs are replaced by the trace's and
 * out->source / format / skipped / left_out / left_out_note are set; on
 * failure it is left empty.  Errors: GP_EIO (cannot read), GP_EINPUT with FILE:LINE:COL and
 * a reason (bad row, unknown dialect, cap exceeded), GP_EUSAGE (unknown
 * format name). */
int gp_trace_load(const char *path, const gp_trace_opts *opts,
		  gp_joblist *out, gp_error *err);

/* The same on a buffer the caller owns; buf[len] must be '\0' and the
 * buffer is modified in place.  name is used in messages. */
int gp_trace_load_buffer(const char *name, char *buf, size_t len,
			 const gp_trace_opts *opts, gp_joblist *out,
			 gp_error *err);

/* Work of a Pollux/Sia application at a global batch size: iterations =
 * ceil(epochs x samples per epoch / batch) (table in trace_pollux.c and
 * man gpuplan); 0 for an unknown application or batch < 1. */
int64_t gp_trace_pollux_iterations(const char *application, long batch);

/* Dialect names, NULL-terminated, in table order. */
const char *const *gp_trace_formats(void);
/* One-line description of a dialect; NULL when unknown. */
const char *gp_trace_format_summary(const char *name);

#endif
