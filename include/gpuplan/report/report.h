/* Reports: number formatting, text tables, CSV fields, SVG line charts,
 * and the writers for simulation results (text summary, JSON, jobs and
 * timeline CSV, SVG timelines and JCT CDF).  Everything renders into a
 * gp_sbuf; the CLI decides where it goes (stdout or an atomic file). */
#ifndef GPUPLAN_REPORT_H
#define GPUPLAN_REPORT_H

#include <jansson.h>
#include <stddef.h>

#include "gpuplan/model/cluster.h"
#include "gpuplan/model/job.h"
#include "gpuplan/report/sched.h"
#include "gpuplan/sim/sim.h"
#include "gpuplan/util/util.h"

/* ---- numbers ---- */

/* x rounded to `decimals` places; 0 for NaN and infinities (JSON must
 * not carry them). */
double gp_report_round(double x, int decimals);
/* x with at most `decimals` places and no trailing zeros ("12.5", "3"). */
const char *gp_report_num(char *buf, size_t size, double x, int decimals);
/* A fraction as a percentage for people: one decimal ("32.4"), or two
 * significant digits when one decimal would read 0.0 though it is not
 * ("0.019"): a figure beside GPU-hours allocated must not read as none. */
const char *gp_report_pct(char *buf, size_t size, double fraction);
/* A duration for people: "42.0s", "12m05s", "3h12m", "2d04h", rounded to
 * the last unit shown (1h00m40s is "1h01m"). */
const char *gp_report_duration(char *buf, size_t size, double seconds);
/* The same, for a figure printed beside a bound it is compared with: when
 * it differs from the bound by less than the last unit shown, with more
 * units (down to milliseconds) until it does not, so that a figure that
 * misses or meets its bound narrowly never reads as the bound or as a
 * wider miss (1h00m40s beside 1h is "1h00m40s", not "1h01m" or "1h00m"). */
const char *gp_report_duration_vs(char *buf, size_t size, double seconds, double bound);
/* A bound as given: with more units (down to milliseconds) while the usual
 * ones would round it (3630 s is "1h00m30s", 3600 s "1h00m"). */
const char *gp_report_duration_exact(char *buf, size_t size, double seconds);
/* Unit for a time axis spanning `span` seconds: seconds, minutes, hours
 * or days; sets the divisor and returns the unit's name. */
const char *gp_report_time_unit(double span, double *divisor);

/* ---- text tables ---- */

/* Rows of cells; row 0 is the header.  Column 0 is left-aligned, the
 * others right-aligned; columns are two spaces apart. */
typedef struct gp_table {
	int ncols;
	char **cells;           /* nrows x ncols, owned */
	size_t nrows, cap;
} gp_table;
void gp_table_init(gp_table *t, int ncols);
void gp_table_release(gp_table *t);
/* Start a new row; cells are then set with gp_table_set. */
size_t gp_table_row(gp_table *t);
void gp_table_set(gp_table *t, size_t row, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void gp_table_render(const gp_table *t, const char *indent, gp_sbuf *out);
/* Columns col..col+4 of a row: the distribution's mean, p50, p90, p99
 * and max as durations. */
void gp_table_set_dist(gp_table *t, size_t row, int col, const gp_dist *d);

/* ---- CSV ---- */

/* Append one field, quoted (RFC 4180) when it holds , " or a newline. */
void gp_csv_field(gp_sbuf *out, const char *s);

/* ---- SVG line charts ---- */

typedef struct gp_svg_series {
	const char *label;      /* legend text; NULL = not in the legend */
	const double *x, *y;
	size_t n;
	int step;               /* draw as a step function (hold y until next x) */
} gp_svg_series;

/* A band around a series (e.g. min..max over seeds): n values each. */
typedef struct gp_svg_band {
	const double *lo, *hi;
} gp_svg_band;

typedef struct gp_svg_chart {
	const char *title;
	const char *subtitle;   /* smaller line under the title, or NULL */
	const char *x_title;    /* axis titles with their unit: "time (hours)" */
	const char *y_title;
	/* Axis ranges: used when set_x / set_y, else taken from the data
	 * (the y axis then starts at 0 unless a value is negative). */
	double x_min, x_max, y_min, y_max;
	int set_x, set_y;
	int x_log;              /* logarithmic x axis (positive x only) */
	int y_percent;          /* y in 0..1 shown as 0 %..100 % */
	const gp_svg_series *series;
	const gp_svg_band *bands; /* nseries entries (lo/hi NULL = none), or NULL */
	int nseries;
	int width, height;      /* pixels; 0 = 800 x 450 */
	int legend;             /* enum gp_svg_legend: where the legend box goes */
	/* Events drawn as thin vertical lines at these x (e.g. failures);
	 * marks_label names them in the legend. */
	const double *marks;
	size_t nmarks;
	const char *marks_label;
	/* A reference line across the plot at y = hline (an SLO bound), when
	 * hline_label names it: black, dash-dotted, unlike any series. */
	double hline;
	const char *hline_label;
	/* One point ringed (the chosen configuration), when point_label. */
	double point_x, point_y;
	const char *point_label;
	int y_log;              /* logarithmic y axis (positive y only) */
	/* Seconds per unit of a logarithmic time axis: its ticks are then
	 * 1 s, 10 s, 1 min, 10 min, 1 h, 10 h, 1 d... instead of powers of
	 * ten (0: not a time axis). */
	double x_log_time, y_log_time;
	/* Counts: ticks on whole numbers only. */
	int x_integer, y_integer;
	/* Distributions: each step series rises from 0 at its first x (the
	 * first point is F = 1/n, and with few jobs that rise is a step the
	 * eye needs: 6 jobs start at 16.7 %, not at 0). */
	int cdf;
} gp_svg_chart;

enum gp_svg_legend {
	GP_LEGEND_TOP_LEFT = 0, GP_LEGEND_TOP_RIGHT, GP_LEGEND_BOTTOM_LEFT,
	GP_LEGEND_BOTTOM_RIGHT, GP_LEGEND_BOTTOM_CENTER,
};

/* Render a complete standalone SVG document.  Points that are not finite
 * (or not positive on a log axis) are skipped.  At most a few thousand
 * points per series keep the file small: reduce long series first. */
void gp_svg_line_chart(const gp_svg_chart *c, gp_sbuf *out);

/* The points of a distribution (CDF): sorts x[0..n), raises values under
 * floor to it (a log axis has no zero) and fills y with F(x).  Returns how
 * many values were raised. */
size_t gp_svg_cdf_points(double *x, double *y, size_t n, double floor);

/* A CDF chart's axes: log x, 0..100 % up, lines rising from 0, the
 * legend bottom right;
 * x_log_time as in gp_svg_chart (0: plain powers of ten). */
void gp_svg_cdf_axes(gp_svg_chart *c, const gp_svg_series *se, int nseries, double x_log_time);

/* ---- simulation reports ---- */

/* Where the run's inputs came from, for headers and JSON. */
typedef struct gp_report_ident {
	const char *trace;          /* path as given */
	const char *trace_format;
	size_t trace_rows_skipped;
	const char *cluster;        /* path as given */
	int cluster_nodes, cluster_gpus;
	const char *policy, *queue;
	unsigned long long seed;
	const char *preempt;        /* "class", "priority", "las"; NULL: off */
	gp_report_sched sched;      /* backfill rules and intervals (sched.h) */
	/* GPU utilization while jobs wait (gp_metric_util_queued, run/metrics.h,
	 * a layer above): shown when has_util_queued */
	int has_util_queued;
	double util_queued;
	/* the cluster run on, for why jobs did not complete (NULL: the
	 * reasons that need it are said in general terms) */
	const gp_cluster *cl;
} gp_report_ident;

/* The terminal summary: counts, queue delay and JCT distributions (all
 * jobs and per class), makespan, GPU utilization. */
void gp_report_sim_text(const gp_report_ident *id, const gp_joblist *jobs,
			const gp_sim_result *r, gp_sbuf *out);

/* The `simulate --json` object (contract in gpuplan(1), METRICS). */
json_t *gp_report_sim_json(const gp_report_ident *id, const gp_joblist *jobs,
			   const gp_sim_result *r);
/* jobs.csv and timeline.csv. */
/* Extra jobs.csv columns (e.g. failures): header is appended to the
 * header line (",a,b"), row appends job's fields (",1,2"). */
typedef struct gp_report_job_cols {
	const char *header;
	void (*row)(void *ud, size_t job, gp_sbuf *out);
	void *ud;
} gp_report_job_cols;
void gp_report_sim_jobs_csv_cols(const gp_joblist *jobs, const gp_sim_result *r,
				 const gp_cluster *c, const gp_report_job_cols *x, gp_sbuf *out);
void gp_report_sim_timeline_csv(const gp_sim_result *r, gp_sbuf *out);
/* utilization.svg, queue.svg, jct-cdf.svg and queue-delay-cdf.svg. */
/* The same with vertical marks at times t[0..n) (seconds from trace
 * start, e.g. failures), named label in the legend. */
void gp_report_sim_svg_utilization_marked(const gp_report_ident *id, const gp_sim_result *r,
					  const double *t, size_t n, const char *label,
					  gp_sbuf *out);
void gp_report_sim_svg_queue(const gp_report_ident *id, const gp_sim_result *r,
			     gp_sbuf *out);
void gp_report_sim_svg_jct_cdf(const gp_report_ident *id, const gp_joblist *jobs,
			       const gp_sim_result *r, gp_sbuf *out);
/* Queue delay (submit to first start) of the completed jobs; delays under
 * a second are drawn at 1 s and counted in the subtitle. */
void gp_report_sim_svg_queue_cdf(const gp_report_ident *id, const gp_joblist *jobs,
				 const gp_sim_result *r, gp_sbuf *out);

#endif
