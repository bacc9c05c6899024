/* Report building blocks: numbers, durations, tables, CSV quoting and the
 * SVG chart's coordinate mapping (worked out by hand below). */
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
		/* Decades 1..100 over 692 px: 10 -> 430. */
		CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "points=\"84.0,392.0 430.0,392.0 430.0,219.0"));
		CU_ASSERT_PTR_NULL(strstr(sb.buf, "fill-opacity"));
		gp_sbuf_release(&sb);
	}
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("report");

	gp_test_add(s, "numbers", test_numbers);
	gp_test_add(s, "time_unit", test_time_unit);
	gp_test_add(s, "table_and_csv", test_table_and_csv);
	gp_test_add(s, "svg", test_svg);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
