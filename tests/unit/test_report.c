/* Report building blocks: numbers, durations, tables, CSV quoting and the
 * SVG chart's coordinate mapping (worked out by hand below). */
#include <stdlib.h>
#include <string.h>

#include "gpuplan/report/report.h"
#include "testlib.h"

static void test_numbers(void)
{
	char b[64];

	CU_ASSERT_STRING_EQUAL(gp_report_num(b, sizeof(b), 12.5, 3), "12.5");
	CU_ASSERT_STRING_EQUAL(gp_report_num(b, sizeof(b), 3.0, 3), "3");
	CU_ASSERT_STRING_EQUAL(gp_report_num(b, sizeof(b), 0.1234567, 6), "0.123457");
	CU_ASSERT_STRING_EQUAL(gp_report_num(b, sizeof(b), -0.0001, 3), "0");
	CU_ASSERT_DOUBLE_EQUAL(gp_report_round(1.23456, 2), 1.23, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(gp_report_round(0.0 / 0.0, 2), 0, 0);
	CU_ASSERT_STRING_EQUAL(gp_report_duration(b, sizeof(b), 42), "42.0s");
	CU_ASSERT_STRING_EQUAL(gp_report_duration(b, sizeof(b), 725), "12m05s");
	CU_ASSERT_STRING_EQUAL(gp_report_duration(b, sizeof(b), 3 * 3600 + 12 * 60 + 29), "3h12m");
	CU_ASSERT_STRING_EQUAL(gp_report_duration(b, sizeof(b), 2 * 86400 + 4 * 3600 + 1), "2d04h");
	/* a share that one decimal would show as none keeps two digits */
	CU_ASSERT_STRING_EQUAL(gp_report_pct(b, sizeof(b), 0.324), "32.4");
	CU_ASSERT_STRING_EQUAL(gp_report_pct(b, sizeof(b), 0), "0.0");
	CU_ASSERT_STRING_EQUAL(gp_report_pct(b, sizeof(b), 0.000189), "0.019");
	CU_ASSERT_STRING_EQUAL(gp_report_pct(b, sizeof(b), 0.005), "0.5");
}

/* Rounded to the last shown unit, not cut; a figure beside its bound gets
 * more units while it is off the bound by less than the last one shown. */
static void test_duration_rounding(void)
{
	char b[64];

	/* 1h00m40s is nearer 1h01m than 1h00m; 1h00m20s nearer 1h00m */
	CU_ASSERT_STRING_EQUAL(gp_report_duration(b, sizeof(b), 3640), "1h01m");
	CU_ASSERT_STRING_EQUAL(gp_report_duration(b, sizeof(b), 3620), "1h00m");
	CU_ASSERT_STRING_EQUAL(gp_report_duration(b, sizeof(b), 3 * 3600 + 12 * 60 + 31), "3h13m");
	/* 2d04h31m: 2d05h; 1d23h30m: 2d00h (the day carries) */
	CU_ASSERT_STRING_EQUAL(gp_report_duration(b, sizeof(b), 2 * 86400 + 4 * 3600 + 31 * 60), "2d05h");
	CU_ASSERT_STRING_EQUAL(gp_report_duration(b, sizeof(b), 86400 + 23 * 3600 + 30 * 60), "2d00h");
	/* the unit is the largest the rounded figure reaches: 59m59.6s
	 * rounds to 1h00m00s, 23h59m40s to 1d00h, 59.96s to 1m00s */
	CU_ASSERT_STRING_EQUAL(gp_report_duration(b, sizeof(b), 3599.6), "1h00m");
	CU_ASSERT_STRING_EQUAL(gp_report_duration(b, sizeof(b), 3599.4), "59m59s");
	CU_ASSERT_STRING_EQUAL(gp_report_duration(b, sizeof(b), 86400 - 20), "1d00h");
	CU_ASSERT_STRING_EQUAL(gp_report_duration(b, sizeof(b), 59.96), "1m00s");
	CU_ASSERT_STRING_EQUAL(gp_report_duration(b, sizeof(b), 59.94), "59.9s");
	CU_ASSERT_STRING_EQUAL(gp_report_duration(b, sizeof(b), 90.5), "1m31s");
	CU_ASSERT_STRING_EQUAL(gp_report_duration(b, sizeof(b), -12.34), "-12.3s");
	CU_ASSERT_STRING_EQUAL(gp_report_duration(b, sizeof(b), 1.0 / 0.0), "-");

	/* beside a bound of 1h: 40 s over (and under) are shown to the second */
	CU_ASSERT_STRING_EQUAL(gp_report_duration_vs(b, sizeof(b), 3640, 3600), "1h00m40s");
	CU_ASSERT_STRING_EQUAL(gp_report_duration_vs(b, sizeof(b), 3560, 3600), "59m20s");
	CU_ASSERT_STRING_EQUAL(gp_report_duration_vs(b, sizeof(b), 3599.6, 3600), "59m59.6s");
	CU_ASSERT_STRING_EQUAL(gp_report_duration_vs(b, sizeof(b), 3600.25, 3600), "1h00m00.3s");
	/* the bound itself, or a figure a shown unit or more away: as usual */
	CU_ASSERT_STRING_EQUAL(gp_report_duration_vs(b, sizeof(b), 3600, 3600), "1h00m");
	CU_ASSERT_STRING_EQUAL(gp_report_duration_vs(b, sizeof(b), 3 * 3600 + 29, 3600), "3h00m");
	CU_ASSERT_STRING_EQUAL(gp_report_duration_vs(b, sizeof(b), 150.04, 150), "2m30.04s");
	CU_ASSERT_STRING_EQUAL(gp_report_duration_vs(b, sizeof(b), 0.96, 1), "0.96s");
	CU_ASSERT_STRING_EQUAL(gp_report_duration_vs(b, sizeof(b), 2 * 86400 + 1800, 2 * 86400), "2d00h30m");
	/* a bound as given, not rounded */
	CU_ASSERT_STRING_EQUAL(gp_report_duration_exact(b, sizeof(b), 3600), "1h00m");
	CU_ASSERT_STRING_EQUAL(gp_report_duration_exact(b, sizeof(b), 3630), "1h00m30s");
	CU_ASSERT_STRING_EQUAL(gp_report_duration_exact(b, sizeof(b), 150.5), "2m30.5s");
	CU_ASSERT_STRING_EQUAL(gp_report_duration_exact(b, sizeof(b), 1), "1.0s");
	CU_ASSERT_STRING_EQUAL(gp_report_duration_exact(b, sizeof(b), 86400 + 60), "1d00h01m");
	/* off by less than a millisecond: milliseconds at most */
	CU_ASSERT_STRING_EQUAL(gp_report_duration_vs(b, sizeof(b), 60.0001, 60), "1m00.000s");
}

static void test_time_unit(void)
{
	double d;

	CU_ASSERT_STRING_EQUAL(gp_report_time_unit(100, &d), "seconds");
	CU_ASSERT_STRING_EQUAL(gp_report_time_unit(3000, &d), "minutes");
	CU_ASSERT_DOUBLE_EQUAL(d, 60, 0);
	CU_ASSERT_STRING_EQUAL(gp_report_time_unit(86400, &d), "hours");
	CU_ASSERT_STRING_EQUAL(gp_report_time_unit(9e6, &d), "days");
	CU_ASSERT_DOUBLE_EQUAL(d, 86400, 0);
}

static void test_table_and_csv(void)
{
	gp_table t;
	gp_sbuf sb;
	size_t r;

	gp_table_init(&t, 3);
	r = gp_table_row(&t);
	gp_table_set(&t, r, 0, "name");
	gp_table_set(&t, r, 1, "n");
	gp_table_set(&t, r, 2, "value");
	r = gp_table_row(&t);
	gp_table_set(&t, r, 0, "a");
	gp_table_set(&t, r, 1, "%d", 1234);
	gp_table_set(&t, r, 2, "x");
	gp_sbuf_init(&sb);
	gp_table_render(&t, "", &sb);
	/* Widths 4, 4, 5; numbers right-aligned; no trailing blanks. */
	CU_ASSERT_STRING_EQUAL(sb.buf, "name     n  value\na     1234      x\n");
	gp_table_release(&t);
	gp_sbuf_release(&sb);

	gp_sbuf_init(&sb);
	gp_csv_field(&sb, "plain");
	gp_sbuf_adds(&sb, ",");
	gp_csv_field(&sb, "team, \"c\"");
	CU_ASSERT_STRING_EQUAL(sb.buf, "plain,\"team, \"\"c\"\"\"");
	gp_sbuf_release(&sb);
}

static void test_svg(void)
{
	static const double x[] = { 0, 5, 10 }, y[] = { 0, 0.5, 1 };
	gp_svg_series se = { "load & <more>", x, y, 3, 0 };
	gp_svg_chart c;
	gp_sbuf sb;

	memset(&c, 0, sizeof(c));
	c.title = "T";
	c.x_title = "time (hours)";
	c.y_title = "share";
	c.set_x = c.set_y = 1;
	c.x_max = 10;
	c.y_max = 1;
	c.y_percent = 1;
	c.series = &se;
	c.nseries = 1;
	gp_sbuf_init(&sb);
	gp_svg_line_chart(&c, &sb);
	/* 800 x 450, plot box x 84..776, y 46..392: (5, 0.5) maps to
	 * (84 + 0.5 x 692, 392 - 0.5 x 346) = (430, 219).  Ticks every 20 %. */
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "points=\"84.0,392.0 430.0,219.0 776.0,46.0\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, ">time (hours)</text>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, ">load &amp; &lt;more&gt;</text>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, ">40 %</text>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "</svg>\n"));
	gp_sbuf_release(&sb);

	/* Step series: a horizontal run then the rise, and a log x axis. */
	se.step = 1;
	c.x_log = 1;
	c.set_x = 0;
	se.label = NULL;
	{
		static const double lx[] = { 1, 10, 100 };

		se.x = lx;
		gp_sbuf_init(&sb);
		gp_svg_line_chart(&c, &sb);
		/* Data 1..100 on decades 0.1..1000 (the data off the frame):
		 * 4 decades over 692 px, 1 -> 84 + 173 = 257, 10 -> 430. */
		CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "points=\"257.0,392.0 430.0,392.0 430.0,219.0"));
		CU_ASSERT_PTR_NULL(strstr(sb.buf, "fill-opacity"));
		gp_sbuf_release(&sb);
	}
}

/* A title longer than the chart shrinks, then loses its
 * middle; the legend leaves the corners the data runs through. */
static void test_svg_layout(void)
{
	static const double x[] = { 0, 10 }, y[] = { 0.95, 0.95 };
	double zx[21], zy[21];
	char title[301];
	gp_svg_series se = { "load", x, y, 2, 0 };
	gp_svg_chart c;
	gp_sbuf sb;
	int i;

	memset(title, 'x', 300);
	title[0] = 'A';
	title[299] = 'Z';
	title[300] = 0;
	memset(&c, 0, sizeof(c));
	c.title = title;
	c.set_x = c.set_y = 1;
	c.x_max = 10;
	c.y_max = 1;
	c.series = &se;
	c.nseries = 1;
	gp_sbuf_init(&sb);
	gp_svg_line_chart(&c, &sb);
	/* 776 px at 11 px bold (0.66 em, 7.26 px a glyph) hold 106 glyphs:
	 * 105 kept around the ellipsis, 52 before and 53 after it. */
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "font-size=\"11\" font-weight=\"bold\">Axxxx"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "xx\xe2\x80\xa6xx"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "xxZ</text>"));
	{
		const char *t = strstr(sb.buf, "bold\">"), *e = strstr(t, "</text>");

		CU_ASSERT_EQUAL(e - t - 6, 52 + 3 + 53);
	}
	/* y = 95 % runs at pixel 392 - 0.95 x 346 = 63.3, through both top
	 * corners: the legend (44 + 7.2 x 4 = 72.8 by 26 px) goes bottom right,
	 * at x 776 - 10 - 72.8 = 693.2, y 392 - 10 - 26 = 356. */
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "<rect x=\"693.2\" y=\"356.0\" width=\"72.8\" height=\"26.0\""));
	gp_sbuf_release(&sb);

	/* A zigzag over the whole plot leaves no corner: the legend goes under
	 * the plot and the chart grows by its height and a gap, 26 + 8 px. */
	for (i = 0; i < 21; i++) {
		zx[i] = i * 0.5;
		zy[i] = i % 2;
	}
	se.x = zx;
	se.y = zy;
	se.n = 21;
	c.title = "T";
	gp_sbuf_init(&sb);
	gp_svg_line_chart(&c, &sb);
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "height=\"484\" viewBox=\"0 0 800 484\""));
	/* centred under the plot: 84 + (692 - 72.8) / 2 = 393.6, 484 - 26 - 8 = 450 */
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "<rect x=\"393.6\" y=\"450.0\" width=\"72.8\""));
	gp_sbuf_release(&sb);
}

/* 100,001 points over 692 px keep at most the first, lowest, highest and
 * last point of each half-pixel column: the ends, a one-point spike and a
 * one-point dip all stay drawn. */
static void test_svg_thinning(void)
{
	enum { N = 100001 };
	double *x = malloc(N * sizeof(*x)), *y = malloc(N * sizeof(*y));
	gp_svg_series se = { "dense", x, y, N, 0 };
	gp_svg_chart c;
	gp_sbuf sb;
	const char *p, *end;
	size_t points = 1;
	int i;

	for (i = 0; i < N; i++) {
		x[i] = i * 1e-4;
		y[i] = 0.5;
	}
	y[50000] = 1;
	y[50001] = 0;
	memset(&c, 0, sizeof(c));
	c.title = "T";
	c.set_x = c.set_y = 1;
	c.x_max = 10;
	c.y_max = 1;
	c.series = &se;
	c.nseries = 1;
	gp_sbuf_init(&sb);
	gp_svg_line_chart(&c, &sb);
	p = strstr(sb.buf, "points=\"");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	end = strchr(p + 8, '"');
	for (; p < end; p++)
		points += *p == ' ';
	CU_ASSERT(points <= 4 * (2 * 692 + 1));
	CU_ASSERT(points >= 692);
	/* (0, 0.5) -> (84, 219); (5, 1) -> (430, 46); (5.0001, 0) -> (430, 392);
	 * x = 5 starts the half-pixel column [430, 430.5), whose last point,
	 * x = 5.0072, lies at 84 + 0.50072 x 692 = 430.498: printed 430.5 */
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "points=\"84.0,219.0 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, " 430.0,219.0 430.0,46.0 430.0,392.0 430.5,219.0"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, " 776.0,219.0\"/>"));
	gp_sbuf_release(&sb);
	free(x);
	free(y);
}

/* Twelve series: ten colours, then the first colours again, dashed; an
 * SLO line in black, dash-dotted, and the chosen point ringed. */
static void test_svg_series_marks(void)
{
	static const double x[] = { 0, 10 }, y[] = { 0.2, 0.3 };
	gp_svg_series se[12];
	gp_svg_chart c;
	gp_sbuf sb;
	int i;

	for (i = 0; i < 12; i++)
		se[i] = (gp_svg_series){ NULL, x, y, 2, 0 };
	memset(&c, 0, sizeof(c));
	c.title = "T";
	c.set_x = c.set_y = 1;
	c.x_max = 10;
	c.y_max = 1;
	c.series = se;
	c.nseries = 12;
	c.hline = 0.5;
	c.hline_label = "SLO";
	c.point_x = 5;
	c.point_y = 0.5;
	c.point_label = "chosen";
	gp_sbuf_init(&sb);
	gp_svg_line_chart(&c, &sb);
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "<polyline stroke=\"#1f77b4\" points="));
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "<polyline stroke=\"#17becf\" points="));
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "<polyline stroke=\"#1f77b4\" stroke-dasharray=\"7 4\" points="));
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "<polyline stroke=\"#d62728\" stroke-dasharray=\"7 4\" points="));
	/* y = 0.5 at 392 - 0.5 x 346 = 219, across the plot box 84..776 */
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "<line x1=\"84.0\" y1=\"219.0\" x2=\"776.0\" y2=\"219.0\" "
					      "stroke=\"#000\" stroke-width=\"1.5\" stroke-dasharray=\"10 4 2 4\"/>"));
	/* (5, 0.5) at (84 + 0.5 x 692, 219) */
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "<circle cx=\"430.0\" cy=\"219.0\" r=\"7\" fill=\"none\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, ">SLO</text>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, ">chosen</text>"));
	gp_sbuf_release(&sb);

	/* One point (a class of one job) as a step CDF: a dot shows it. */
	se[0] = (gp_svg_series){ "one job", x + 1, y + 1, 1, 1 };
	c.nseries = 1;
	c.hline_label = c.point_label = NULL;
	gp_sbuf_init(&sb);
	gp_svg_line_chart(&c, &sb);
	/* (10, 0.3): (776, 392 - 0.3 x 346 = 288.2) */
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "<circle cx=\"776.0\" cy=\"288.2\" r=\"3\""));
	gp_sbuf_release(&sb);
}

/* A log time axis in seconds from 1 s to 10^5 s spans the decades 0.1 s
 * to 10^6 s: 692 px / 7 = 98.857 px a decade.  1 min at 84 + (log10 60 +
 * 1) x 98.857 = 358.6, 1 h at 534.4, 1 d at 670.9; 10 h (633.3) is 37.6
 * px from 1 d, under the 44 px between labels, and left out. */
static void test_svg_time_axis(void)
{
	static const double x[] = { 1, 100000 }, y[] = { 0.5, 1 };
	static const double cy[] = { 0.4, 1.6 };
	gp_svg_series se = { NULL, x, y, 2, 1 };
	gp_svg_chart c;
	gp_sbuf sb;

	memset(&c, 0, sizeof(c));
	c.title = "T";
	c.x_log = 1;
	c.x_log_time = 1;
	c.set_y = 1;
	c.y_max = 1;
	c.series = &se;
	c.nseries = 1;
	gp_sbuf_init(&sb);
	gp_svg_line_chart(&c, &sb);
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "<text x=\"358.6\" y=\"410.0\" text-anchor=\"middle\">1 min</text>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "<text x=\"534.4\" y=\"410.0\" text-anchor=\"middle\">1 h</text>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "<text x=\"670.9\" y=\"410.0\" text-anchor=\"middle\">1 d</text>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, ">10 min</text>"));
	CU_ASSERT_PTR_NULL(strstr(sb.buf, ">10 h</text>"));
	CU_ASSERT_PTR_NULL(strstr(sb.buf, "tspan"));
	/* no unlabelled line at 100 s, 2 of 5 decades in: 84 + 692 x 2/5 =
	 * 360.8, 2 px from the line of 1 min */
	CU_ASSERT_PTR_NULL(strstr(sb.buf, "x1=\"360.8\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "x1=\"358.6\""));
	gp_sbuf_release(&sb);

	/* Counts up to 1.6: an axis 0..2 in steps of 0.5 would label half a
	 * job; whole numbers only: 0, 1, 2. */
	se = (gp_svg_series){ NULL, x, cy, 2, 0 };
	memset(&c, 0, sizeof(c));
	c.series = &se;
	c.nseries = 1;
	c.y_integer = 1;
	gp_sbuf_init(&sb);
	gp_svg_line_chart(&c, &sb);
	CU_ASSERT_PTR_NULL(strstr(sb.buf, ">0.5</text>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "text-anchor=\"end\">2</text>"));
	CU_ASSERT_PTR_NULL(strstr(sb.buf, "text-anchor=\"end\">1.5</text>"));
	gp_sbuf_release(&sb);
	c.y_integer = 0;
	gp_sbuf_init(&sb);
	gp_svg_line_chart(&c, &sb);
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "text-anchor=\"end\">0.5</text>"));
	gp_sbuf_release(&sb);
}

/* A distribution of 4 jobs starts at F = 1/4: its line rises from 0 %
 * at the first job's x, or the chart would show a quarter of the jobs
 * below the smallest value.  The plot under a title alone, 46..392 px,
 * puts 0 % at 392 and 25 % at 392 - 0.25 x 346 = 305.5. */
static void test_svg_cdf_rise(void)
{
	double x[] = { 100, 1, 1000, 10 }, y[4];
	gp_svg_series se = { "jobs", x, y, 4, 1 };
	gp_svg_chart c;
	gp_sbuf sb;
	const char *p;
	double x0, y0, x1, y1;

	CU_ASSERT_EQUAL(gp_svg_cdf_points(x, y, 4, 1), 0);
	CU_ASSERT_DOUBLE_EQUAL(y[0], 0.25, 1e-12);
	memset(&c, 0, sizeof(c));
	c.title = "T";
	gp_svg_cdf_axes(&c, &se, 1, 0);
	gp_sbuf_init(&sb);
	gp_svg_line_chart(&c, &sb);
	p = strstr(sb.buf, "<polyline");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	p = strstr(p, "points=\"");
	CU_ASSERT_EQUAL_FATAL(sscanf(p, "points=\"%lf,%lf %lf,%lf", &x0, &y0, &x1, &y1), 4);
	CU_ASSERT_DOUBLE_EQUAL(x0, x1, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(y0, 392, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(y1, 305.5, 1e-9);
	gp_sbuf_release(&sb);
	/* not a distribution (a plain step line): no rise */
	c.cdf = 0;
	gp_sbuf_init(&sb);
	gp_svg_line_chart(&c, &sb);
	p = strstr(strstr(sb.buf, "<polyline"), "points=\"");
	CU_ASSERT_EQUAL_FATAL(sscanf(p, "points=\"%lf,%lf", &x0, &y0), 2);
	CU_ASSERT_DOUBLE_EQUAL(y0, 305.5, 1e-9);
	gp_sbuf_release(&sb);
}

/* The "sched" line and keys: nothing for a plain queue passing after
 * every event; the rules, cycle, depth, estimates and passes otherwise. */
static void test_sched(void)
{
	gp_report_sched sd = { 0 };
	gp_job jobs[2];
	gp_job_hist h = { .time_limit = 60 };
	gp_joblist jl;
	json_t *o = json_object(), *b;
	gp_sbuf sb;
	char *t;

	gp_sbuf_init(&sb);
	gp_report_sched_line(&sd, &sb);
	CU_ASSERT_EQUAL(sb.len, 0);
	CU_ASSERT_PTR_NULL(gp_report_sched_text(&sd));
	gp_report_sched_json(&sd, o);
	CU_ASSERT_DOUBLE_EQUAL(json_real_value(json_object_get(o, "sched_interval")), 0, 0);
	CU_ASSERT_PTR_NULL(json_object_get(o, "backfill"));

	sd.sched_interval = 3;
	gp_report_sched_line(&sd, &sb);
	CU_ASSERT_STRING_EQUAL(sb.buf, "sched    scheduling passes every 3 s\n");

	sd = (gp_report_sched){ .backfill = "slurm", .bf_interval = 30, .estimates = GP_REPORT_EST_LIMITS };
	t = gp_report_sched_text(&sd);
	CU_ASSERT_STRING_EQUAL(t, "Slurm's backfill (whole nodes reserved for every waiting job) in cycles "
			       "every 30 s, run-time estimates from time limits; a scheduling pass after every event");
	free(t);
	gp_report_sched_json(&sd, o);
	b = json_object_get(o, "backfill");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(b, "rules")), "slurm");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(b, "estimates")), "time_limits");
	CU_ASSERT_DOUBLE_EQUAL(json_real_value(json_object_get(b, "bf_interval")), 30, 0);

	/* EASY has no cycles: no bf_interval key even when one is set */
	sd = (gp_report_sched){ .backfill = "easy", .depth = 4, .bf_interval = 30, .sched_interval = 1.5 };
	t = gp_report_sched_text(&sd);
	CU_ASSERT_STRING_EQUAL(t, "EASY backfill (a reservation for the first waiting job, examining the first "
			       "4 waiting jobs), run-time estimates from durations; scheduling passes every 1.5 s");
	free(t);
	gp_report_sched_json(&sd, o);
	b = json_object_get(o, "backfill");
	CU_ASSERT_PTR_NULL(json_object_get(b, "bf_interval"));
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(b, "depth")), 4);
	/* backfill among other queues (compare, a what-if queue axis): the
	 * rules are said to be the backfill queue's, the passes every queue's */
	sd = (gp_report_sched){ .backfill = "easy", .backfill_of_several = 1 };
	t = gp_report_sched_text(&sd);
	CU_ASSERT_STRING_EQUAL(t, "for queue backfill: EASY backfill (a reservation for the first waiting "
			       "job), run-time estimates from durations; for every queue: a scheduling pass "
			       "after every event");
	free(t);
	/* without a backfill queue the flag says nothing */
	sd = (gp_report_sched){ .sched_interval = 3, .backfill_of_several = 1 };
	t = gp_report_sched_text(&sd);
	CU_ASSERT_STRING_EQUAL(t, "scheduling passes every 3 s");
	free(t);
	json_decref(o);
	gp_sbuf_release(&sb);

	/* estimates: one job with a time limit is enough */
	memset(jobs, 0, sizeof(jobs));
	memset(&jl, 0, sizeof(jl));
	jl.jobs = jobs;
	jl.n = 2;
	CU_ASSERT_EQUAL(gp_report_sched_estimates(&jl), GP_REPORT_EST_DURATIONS);
	jobs[1].hist = &h;
	CU_ASSERT_EQUAL(gp_report_sched_estimates(&jl), GP_REPORT_EST_LIMITS);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("report");

	gp_test_add(s, "numbers", test_numbers);
	gp_test_add(s, "duration_rounding", test_duration_rounding);
	gp_test_add(s, "time_unit", test_time_unit);
	gp_test_add(s, "table_and_csv", test_table_and_csv);
	gp_test_add(s, "svg", test_svg);
	gp_test_add(s, "svg_layout", test_svg_layout);
	gp_test_add(s, "svg_thinning", test_svg_thinning);
	gp_test_add(s, "svg_series_marks", test_svg_series_marks);
	gp_test_add(s, "svg_time_axis", test_svg_time_axis);
	gp_test_add(s, "svg_cdf_rise", test_svg_cdf_rise);
	gp_test_add(s, "sched", test_sched);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
