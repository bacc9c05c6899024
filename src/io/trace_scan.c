/* Lines and fields of a trace's text (trace.c reads them): the whole text
 * in a buffer, or a regular file a window at a time (memory: the text is
 * never whole beside the jobs, to bound peak memory).  Lines are NUL-terminated and
 * fields split in place: no allocation per line or field. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gpuplan/util/util.h"
#include "trace_int.h"

#define WINDOW ((size_t)1 << 20)

void gp_trace_scan_buffer(gp_trace_scanner *s, const char *path, char *buf, size_t len)
{
	memset(s, 0, sizeof(*s));
	s->path = path;
	s->p = buf;
	s->end = buf + len;
	s->next_line = 1;
}

/* More of the file behind the unread part (which moves to the front of
 * the window; the window doubles when one line fills it).  0 at the end
 * of the file or on an error (s->failed). */
static size_t refill(gp_trace_scanner *s)
{
	size_t keep = (size_t)(s->end - s->p), got;

	if (!s->fp || s->failed)
		return 0;
	memmove(s->win, s->p, keep);
	if (keep + 1 >= s->cap) {
		s->cap *= 2;
		s->win = gp_xrealloc(s->win, s->cap);
	}
	got = fread(s->win + keep, 1, s->cap - keep - 1, s->fp);
	s->read += got;
	s->p = s->win;
	s->end = s->win + keep + got;
	if (s->read > s->max)
		s->failed = GP_EINPUT;
	else if (!got && ferror(s->fp))
		s->failed = GP_EIO;
	if (!got || s->failed) {
		fclose(s->fp);
		s->fp = NULL;
	}
	return s->failed ? 0 : got;
}

int gp_trace_scan_file(gp_trace_scanner *s, const char *path, size_t max)
{
	FILE *fp = strcmp(path, "-") ? fopen(path, "rb") : NULL;
	struct stat sb;

	if (!fp)
		return 0;
	if (fstat(fileno(fp), &sb) || !S_ISREG(sb.st_mode) || (uintmax_t)sb.st_size > max) {
		fclose(fp);
		return 0;
	}
	gp_file_note_read(fp);
	memset(s, 0, sizeof(*s));
	s->path = path;
	s->next_line = 1;
	s->fp = fp;
	s->max = max;
	s->size = (size_t)sb.st_size;
	s->cap = WINDOW;
	s->win = gp_xmalloc(s->cap);
	s->p = s->end = s->win;
	refill(s);
	return 1;
}

char *gp_trace_scan_line(gp_trace_scanner *s, size_t *len)
{
	char *start, *nl;
	size_t n;

	while (!(nl = memchr(s->p, '\n', (size_t)(s->end - s->p))) && refill(s))
		;
	if (s->p >= s->end || s->failed)
		return NULL;
	start = s->p;
	n = nl ? (size_t)(nl - start) : (size_t)(s->end - start);
	s->p = nl ? nl + 1 : s->end;
	if (n && start[n - 1] == '\r')
		n--;
	{
		size_t bad = gp_text_bad_byte(start, n);

		if (bad < n) {
			s->failed = GP_EINPUT;
			s->bad_col = (int)bad + 1;
			s->bad_byte = (unsigned char)start[bad];
			s->p = s->end;
			return NULL;
		}
	}
	start[n] = '\0';
	s->line = s->next_line++;
	*len = n;
	return start;
}

size_t gp_trace_scan_lines_left(const gp_trace_scanner *s)
{
	size_t lines = 1;
	const char *q = s->p;

	while ((q = memchr(q, '\n', (size_t)(s->end - q))) != NULL) {
		lines++;
		q++;
	}
	if (s->fp && s->size > s->read)
		lines += (size_t)((double)(s->size - s->read) * (double)lines /
				  (double)(s->end - s->p + 1) * 1.02) + 16;
	return lines;
}

int gp_trace_scan_error(const gp_trace_scanner *s, gp_error *err)
{
	if (s->bad_col)
		return gp_text_byte_error(err, s->path, s->next_line, s->bad_col, s->bad_byte);
	if (s->failed == GP_EINPUT)
		return gp_error_set(err, GP_EINPUT, s->path, 0, 0,
				    "file is larger than the %zu-byte limit", s->max);
	return gp_error_set(err, GP_EIO, s->path, 0, 0, "read error");
}

void gp_trace_scan_close(gp_trace_scanner *s)
{
	if (s->fp)
		fclose(s->fp);
	s->fp = NULL;
	free(s->win);
	s->win = NULL;
}

/* Blank lines and '#' comments carry no row. */
int gp_trace_skip_line(const char *l)
{
	while (*l == ' ' || *l == '\t')
		l++;
	return *l == '\0' || *l == '#';
}

/* Split line (NUL-terminated, len bytes) on sep in place: fields are
 * trimmed and unquoted ("" inside quotes is one quote). */
int gp_trace_split(char *line, size_t len, char sep, char **field, int *col, int *nf,
		   const char *path, int lineno, gp_error *err)
{
	int bad = 0, n = gp_csv_split(line, len, sep, GP_CSV_TRIM, field, col,
				      GP_TRACE_MAX_FIELDS, &bad);

	if (n == GP_CSV_ETOO_MANY)
		return gp_error_set(err, GP_EINPUT, path, lineno, bad, "more than %d fields in a row",
				    GP_TRACE_MAX_FIELDS);
	if (n == GP_CSV_EUNTERMINATED)
		return gp_error_set(err, GP_EINPUT, path, lineno, bad, "unterminated quoted field");
	if (n < 0)
		return gp_error_set(err, GP_EINPUT, path, lineno, bad,
				    "unexpected '%c' after a quoted field", line[bad - 1]);
	*nf = n;
	return GP_OK;
}
