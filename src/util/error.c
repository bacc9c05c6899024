#include <stdio.h>
#include <string.h>

#include "gpuplan/util/error.h"

void gp_error_clear(gp_error *err)
{
	if (!err)
		return;
	err->status = GP_OK;
	err->file[0] = '\0';
	err->line = err->col = 0;
	err->msg[0] = '\0';
}

int gp_error_setv(gp_error *err, int status, const char *file, int line,
		  int col, const char *fmt, va_list ap)
{
	if (!err)
		return status;
	err->status = status;
	snprintf(err->file, sizeof(err->file), "%s", file ? file : "");
	err->line = line;
	err->col = col;
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	return status;
}

int gp_error_set(gp_error *err, int status, const char *file, int line,
		 int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gp_error_setv(err, status, file, line, col, fmt, ap);
	va_end(ap);
	return status;
}

const char *gp_error_format(const gp_error *err, char *buf, unsigned long size)
{
	if (!err->file[0])
		snprintf(buf, size, "%s", err->msg);
	else if (err->line <= 0)
		snprintf(buf, size, "%s: %s", err->file, err->msg);
	else if (err->col <= 0)
		snprintf(buf, size, "%s:%d: %s", err->file, err->line, err->msg);
	else
		snprintf(buf, size, "%s:%d:%d: %s", err->file, err->line,
			 err->col, err->msg);
	return buf;
}
