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

const char *gp_report_pct(char *buf, size_t size, double fraction)
{
	double pct = 100 * fraction;

	if (pct > 0 && pct < 0.05)
		snprintf(buf, size, "%.2g", pct);
	else
		snprintf(buf, size, "%.1f", pct);
	return buf;
}

/* Units of a duration, largest first: days, hours, minutes, seconds. */
static const double dur_unit[4] = { 86400, 3600, 60, 1 };
static const char dur_name[4] = { 'd', 'h', 'm', 's' };

/* s >= 60 rounded to the last shown unit of `extra` more fields than the
 * two of its largest unit (past seconds: decimals of a second), then cut
 * into those fields: "3h12m" (extra 0), "3h12m29s" (1), "3h12m29.4s" (2).
 * The largest unit is the largest the rounded value reaches, so 59m59.6s
 * is "1h00m", not "60m00s". */
static double duration_fields(char *buf, size_t size, double s, int extra)
{
	int top, last, dec, j;
	long long n = 0, per, v;
	size_t len = 0;
	double q = 1;

	for (top = 3; top >= 0; top--) {
		last = top + 1 + extra;
		dec = last > 3 ? last - 3 : 0;
		q = dur_unit[last > 3 ? 3 : last] / pow(10, dec);
		n = llround(s / q);
		if (top == 0 || (double)n < dur_unit[top - 1] / q - 0.5)
			break;
	}
	last = top + 1 + extra;
	dec = last > 3 ? last - 3 : 0;
	if (last > 3)
		last = 3;
	buf[0] = 0;
	for (j = top; j <= last && len < size; j++) {
		per = llround(dur_unit[j] / q);
		v = n / per;
		n %= per;
		if (j == last && dec > 0)
			len += (size_t)snprintf(buf + len, size - len, j == top ? "%lld.%0*llds" : "%02lld.%0*llds",
						v, dec, n);
		else
			len += (size_t)snprintf(buf + len, size - len, j == top ? "%lld%c" : "%02lld%c", v,
						dur_name[j]);
	}
	return q;
}

/* A duration at `extra` more units of precision than the usual ("42.0s",
 * "12m05s", "3h12m", "2d04h"): each rounded to its last shown unit, whose
 * length in seconds goes to *unit (0 when none is shown). */
static const char *duration_at(char *buf, size_t size, double s, int extra, double *unit)
{
	*unit = 0;
	if (!isfinite(s)) {
		snprintf(buf, size, "-");
		return buf;
	}
	/* under a minute once rounded to the shown decimals (negative
	 * figures, such as errors, stay in seconds too) */
	if (s < 60 - 0.5 * pow(10, -(1 + extra))) {
		snprintf(buf, size, "%.*fs", 1 + extra, s);
		*unit = pow(10, -(1 + extra));
		return buf;
	}
	if (s >= 1e12) { /* beyond any trace; keeps the rounding in range */
		snprintf(buf, size, "%.0fd", s / 86400);
		return buf;
	}
	*unit = duration_fields(buf, size, s, extra);
	return buf;
}

const char *gp_report_duration(char *buf, size_t size, double s)
{
	double unit;

	return duration_at(buf, size, s, 0, &unit);
}

const char *gp_report_duration_exact(char *buf, size_t size, double s)
{
	double unit;

	for (int extra = 0;; extra++) {
		duration_at(buf, size, s, extra, &unit);
		if (unit <= 0.001 || fabs(s / unit - nearbyint(s / unit)) < 1e-6)
			return buf;
	}
}

/* More units while the figure is off its bound by less than the last one
 * shown (down to milliseconds): "1h00m40s" beside 1h, where "1h01m" would
 * overstate the miss and "1h00m" hide it. */
const char *gp_report_duration_vs(char *buf, size_t size, double s, double bound)
{
	double unit;

	for (int extra = 0;; extra++) {
		duration_at(buf, size, s, extra, &unit);
		if (s == bound || !isfinite(bound) || fabs(s - bound) >= unit || unit <= 0.001)
			return buf;
	}
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
