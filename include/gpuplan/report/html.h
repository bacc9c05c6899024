/* The --html report: one self-contained page (inline CSS and SVG, no
 * script, no network) built from the same tables, text and charts the
 * other outputs use.  Everything renders into a gp_sbuf; the CLI writes
 * it atomically. */
#ifndef GPUPLAN_REPORT_HTML_H
#define GPUPLAN_REPORT_HTML_H

#include <stddef.h>

#include "gpuplan/report/report.h"
#include "gpuplan/util/util.h"

typedef struct gp_html {
	gp_sbuf *out;
	int ncharts;            /* numbers the charts' internal ids apart */
	int section_open;
} gp_html;

/* Text with &, <, >, " escaped. */
void gp_html_escape(gp_sbuf *out, const char *s, size_t len);

/* The document head, the style sheet and the title (<h1>). */
void gp_html_begin(gp_html *h, gp_sbuf *out, const char *title);
/* The inputs, as a list of name/value pairs (names[i], values[i]). */
void gp_html_inputs(gp_html *h, const char *const *names, const char *const *values, size_t n);
/* The answer in one sentence, set apart above everything else. */
void gp_html_headline(gp_html *h, const char *text);
/* A new section (<h2>); closes the previous one. */
void gp_html_section(gp_html *h, const char *heading);
void gp_html_subheading(gp_html *h, const char *heading);
void gp_html_para(gp_html *h, const char *text);
/* A table: row 0 is the header, column 0 names the row, the other
 * columns are right-aligned (numbers). */
void gp_html_table(gp_html *h, const gp_table *t, const char *caption);
/* Preformatted text (a text report as the terminal shows it). */
void gp_html_pre(gp_html *h, const char *text, size_t len);
/* A standalone SVG document (gp_svg_line_chart's output), inlined: the
 * XML declaration goes and its ids are made unique in the page. */
void gp_html_svg(gp_html *h, const char *svg, size_t len);
/* A chart drawn straight into the page. */
void gp_html_chart(gp_html *h, const gp_svg_chart *c);
/* Closes the document. */
void gp_html_end(gp_html *h);

/* A section of text a command adds to its page (failures, QoS). */
typedef struct gp_html_extra {
	const char *heading, *text;
} gp_html_extra;

/* simulate's page: the inputs, the answer, the job counts, queue delay
 * and JCT, makespan and utilization, the extra sections, the four
 * charts of --svg (failures marked at marks[0..nmarks), times as
 * gp_report_sim_svg_utilization_marked takes them) and a section per job
 * class. */
void gp_report_sim_html(const gp_report_ident *id, const gp_joblist *jobs, const gp_sim_result *r,
			const double *marks, size_t nmarks, const gp_html_extra *extra, size_t nextra,
			gp_sbuf *out);

#endif
