/* Error reporting for library code: functions return a status and fill a
 * gp_error; only the CLI layer prints.  Messages follow git's rules: lower
 * case, no trailing full stop, the subject in single quotes. */
#ifndef GPUPLAN_ERROR_H
#define GPUPLAN_ERROR_H

#include <stdarg.h>

/* Process exit codes (also used as library status codes). */
enum gp_status {
	GP_OK = 0,        /* success */
	GP_NO = 1,        /* a negative answer: no placement possible now, ... */
	GP_EUSAGE = 2,    /* bad command line */
	GP_EINPUT = 3,    /* bad input file */
	GP_EIO = 4,       /* I/O or internal error */
};

typedef struct gp_error {
	int status;          /* one of enum gp_status, GP_OK when unset */
	char file[512];      /* "" when the error has no file */
	int line, col;       /* 1-based; 0 when unknown */
	char msg[512];
} gp_error;

#define GP_ERROR_INIT { 0, "", 0, 0, "" }

void gp_error_clear(gp_error *err);

/* Fill err (if non-NULL) and return status, so callers can write
 * `return gp_error_set(err, GP_EINPUT, path, line, col, "...")`. */
int gp_error_set(gp_error *err, int status, const char *file, int line,
		 int col, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
int gp_error_setv(gp_error *err, int status, const char *file, int line,
		  int col, const char *fmt, va_list ap);

/* Render as "FILE:LINE:COL: msg", "FILE: msg" or "msg" into buf. */
const char *gp_error_format(const gp_error *err, char *buf, unsigned long size);

#endif
