/* The Philly job table as flattened by the Pollux authors
 * (timestamp,duration,num_gpus,gpu_time,cluster): one row per job, dated
 * submissions in no particular order.  Dates become seconds from the
 * earliest submission; the virtual cluster becomes the job's environment. */
#include <math.h>
#include <string.h>

#include "gpuplan/util/util.h"
#include "trace_int.h"

enum { C_TIMESTAMP, C_DURATION, C_NUM_GPUS, C_GPU_TIME, C_CLUSTER };

static const char *const columns[] = {
	"timestamp", "duration", "num_gpus", "gpu_time", "cluster", NULL,
};

/* Days since 1970-01-01 of a proleptic Gregorian date (the usual
 * era-based civil-calendar arithmetic). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static int is_leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* Read exactly n digits. */
static int digits(const char **p, int n, int *out)
{
	int v = 0;

	while (n--) {
		if (**p < '0' || **p > '9')
			return -1;
		v = v * 10 + (*(*p)++ - '0');
	}
	*out = v;
	return 0;
}

/* "YYYY-MM-DD HH:MM:SS" (or with 'T'), a naive time taken as UTC: only
 * differences matter, and the trace records no time zone. */
static int parse_datetime(const char *s, double *out)
{
	static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int y, mo, d, h, mi, sec;
	const char *p = s;

	if (digits(&p, 4, &y) || *p++ != '-' || digits(&p, 2, &mo) ||
	    *p++ != '-' || digits(&p, 2, &d) || (*p != ' ' && *p != 'T'))
		return -1;
	p++;
	if (digits(&p, 2, &h) || *p++ != ':' || digits(&p, 2, &mi) ||
	    *p++ != ':' || digits(&p, 2, &sec) || *p)
		return -1;
	/* 1970..2286: submit times then stay under the 10^10 s cap */
	if (y > 2286)
		return -2;
	if (y < 1970 || mo < 1 || mo > 12 || d < 1 ||
	    d > mdays[mo - 1] + (mo == 2 && is_leap(y)) || h > 23 || mi > 59 ||
	    sec > 59)
		return -1;
	*out = (double)(days_from_civil(y, mo, d) * 86400 + h * 3600 +
			mi * 60 + sec);
	return 0;
}

static int philly_row(gp_trace_row *r, gp_job *j)
{
	const char *ts = gp_trace_get(r, C_TIMESTAMP);
	double when, duration, gpu_time;
	long gpus;
	int rc;

	if (!*ts)
		return gp_trace_bad(r, C_TIMESTAMP, "missing value for 'timestamp'");
	if ((rc = parse_datetime(ts, &when)) == -2)
		return gp_trace_bad(r, C_TIMESTAMP,
				    "'timestamp' %.40s is after 2286: times from the trace's start "
				    "are capped at 10^10 s", ts);
	if (rc)
		return gp_trace_bad(r, C_TIMESTAMP,
				    "'timestamp' must be a date 'YYYY-MM-DD HH:MM:SS', got '%.40s'",
				    ts);
	if ((rc = gp_trace_double(r, C_DURATION, 0, GP_TRACE_MAX_SECONDS, &duration)) ||
	    (rc = gp_trace_long(r, C_NUM_GPUS, 1, GP_TRACE_MAX_GPUS, &gpus)))
		return rc;
	/* gpu_time is duration x num_gpus by construction; a mismatch means
	 * shifted or corrupted columns. */
	if (*gp_trace_get(r, C_GPU_TIME)) {
		if ((rc = gp_trace_double(r, C_GPU_TIME, 0,
					  GP_TRACE_MAX_SECONDS * GP_TRACE_MAX_GPUS,
					  &gpu_time)))
			return rc;
		if (fabs(gpu_time - duration * (double)gpus) > 0.5 + 1e-9 * gpu_time)
			return gp_trace_bad(r, C_GPU_TIME,
					    "'gpu_time' %.17g is not duration x num_gpus = %.17g",
					    gpu_time, duration * (double)gpus);
	}
	if (*gp_trace_get(r, C_CLUSTER))
		j->environment = gp_trace_intern(r, gp_trace_get(r, C_CLUSTER));
	gp_trace_index_id(r, j);
	j->submit = when;       /* absolute until finish() */
	j->duration = duration;
	j->gpus = (int)gpus;
	gp_trace_default_type(j);
	return GP_OK;
}

/* Seconds from the earliest submission. */
static void philly_finish(void *state, gp_joblist *l, gp_trace_stats *st)
{
	double t0 = 0;
	size_t i;

	(void)state;
	for (i = 0; i < l->n; i++)
		if (i == 0 || l->jobs[i].submit < t0)
			t0 = l->jobs[i].submit;
	for (i = 0; i < l->n; i++)
		l->jobs[i].submit -= t0;
	st->epoch = t0;
}

const gp_trace_dialect gp_trace_philly = {
	.name = "philly",
	.summary = "Philly job table: timestamp,duration,num_gpus,gpu_time,cluster (dates; seconds)",
	.sep = ',',
	.columns = columns,
	.header = 1,
	.required = (1u << C_TIMESTAMP) | (1u << C_DURATION) | (1u << C_NUM_GPUS),
	.row = philly_row,
	.finish = philly_finish,
};
