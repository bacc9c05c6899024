/* Report building blocks: numbers, text tables, CSV fields. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/report/report.h"

/* ---- numbers ---- */

double gp_report_round(double x, int decimals)
{
	double scale = pow(10, decimals), r;

	if (!isfinite(x))
		return 0;
	r = round(x * scale) / scale;
	return r == 0 ? 0 : r; /* no "-0" */
}

const char *gp_report_num(char *buf, size_t size, double x, int decimals)
{
	char *dot, *end;

	snprintf(buf, size, "%.*f", decimals, gp_report_round(x, decimals));
	dot = strchr(buf, '.');
	if (dot) {
		end = buf + strlen(buf) - 1;
		while (end > dot && *end == '0')
			*end-- = '\0';
		if (end == dot)
			*end = '\0';
	}
	if (!strcmp(buf, "-0"))
		snprintf(buf, size, "0");
	return buf;
}

const char *gp_report_duration(char *buf, size_t size, double s)
{
	long long t;

	if (!isfinite(s)) {
		snprintf(buf, size, "-");
		return buf;
	}
	if (s < 59.95) {
		snprintf(buf, size, "%.1fs", s);
		return buf;
	}
	t = llround(s);
	if (t < 3600)
		snprintf(buf, size, "%lldm%02llds", t / 60, t % 60);
	else if (t < 86400)
		snprintf(buf, size, "%lldh%02lldm", t / 3600, t % 3600 / 60);
	else
		snprintf(buf, size, "%lldd%02lldh", t / 86400, t % 86400 / 3600);
	return buf;
}

const char *gp_report_time_unit(double span, double *divisor)
{
	if (span <= 120) {
		*divisor = 1;
		return "seconds";
	}
	if (span <= 2 * 3600) {
		*divisor = 60;
		return "minutes";
	}
	if (span <= 3 * 86400) {
		*divisor = 3600;
		return "hours";
	}
	*divisor = 86400;
	return "days";
}

/* ---- text tables ---- */

void gp_table_init(gp_table *t, int ncols)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols;
}

void gp_table_release(gp_table *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nrows * (size_t)t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

size_t gp_table_row(gp_table *t)
{
	size_t need = (t->nrows + 1) * (size_t)t->ncols, i;

	GP_GROW(t->cells, t->cap, need);
	for (i = t->nrows * (size_t)t->ncols; i < need; i++)
		t->cells[i] = NULL;
	return t->nrows++;
}

void gp_table_set(gp_table *t, size_t row, int col, const char *fmt, ...)
{
	va_list ap;
	char **cell = &t->cells[row * (size_t)t->ncols + (size_t)col];
	gp_sbuf sb;
	char buf[512];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	gp_sbuf_init(&sb);
	gp_sbuf_adds(&sb, buf);
	free(*cell);
	*cell = gp_sbuf_detach(&sb);
}

void gp_table_set_dist(gp_table *t, size_t row, int col, const gp_dist *d)
{
	const double v[5] = { d->mean, d->p50, d->p90, d->p99, d->max };
	char b[32];

	for (int k = 0; k < 5; k++)
		gp_table_set(t, row, col + k, "%s", gp_report_duration(b, sizeof(b), v[k]));
}

void gp_table_render(const gp_table *t, const char *indent, gp_sbuf *out)
{
	size_t *width = gp_xcalloc((size_t)t->ncols, sizeof(*width));
	size_t r;
	int c;

	for (r = 0; r < t->nrows; r++)
		for (c = 0; c < t->ncols; c++) {
			const char *cell = t->cells[r * (size_t)t->ncols + (size_t)c];
			size_t len = cell ? strlen(cell) : 0;

			if (len > width[c])
				width[c] = len;
		}
	for (r = 0; r < t->nrows; r++) {
		gp_sbuf line;

		gp_sbuf_init(&line);
		gp_sbuf_adds(&line, indent ? indent : "");
		for (c = 0; c < t->ncols; c++) {
			const char *cell = t->cells[r * (size_t)t->ncols + (size_t)c];

			if (!cell)
				cell = "";
			if (c == 0)
				gp_sbuf_addf(&line, "%-*s", (int)width[c], cell);
			else
				gp_sbuf_addf(&line, "  %*s", (int)width[c], cell);
		}
		while (line.len && line.buf[line.len - 1] == ' ')
			line.buf[--line.len] = '\0';
		gp_sbuf_add(out, line.buf, line.len);
		gp_sbuf_adds(out, "\n");
		gp_sbuf_release(&line);
	}
	free(width);
}

/* ---- CSV ---- */

void gp_csv_field(gp_sbuf *out, const char *s)
{
	const char *p;

	if (!s)
		s = "";
	if (!strpbrk(s, ",\"\r\n")) {
		gp_sbuf_adds(out, s);
		return;
	}
	gp_sbuf_adds(out, "\"");
	for (p = s; *p; p++) {
		if (*p == '"')
			gp_sbuf_adds(out, "\"");
		gp_sbuf_add(out, p, 1);
	}
	gp_sbuf_adds(out, "\"");
}
