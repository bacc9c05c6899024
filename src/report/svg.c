/* SVG line charts: the one chart writer behind every --svg file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/report/report.h"

/* Ten colours, then the same ten dashed, then dotted: 30 series look
 * apart before any repeats. */
static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
	"#bcbd22", "#17becf",
};
#define NCOLOURS 10
static const char *const dashes[] = { NULL, "7 4", "2 3" };

static const char *colour_of(int s)
{
	return palette[s % NCOLOURS];
}

/* The stroke-dasharray attribute of series s ("" for a solid line). */
static const char *dash_attr(int s, char *buf, size_t size)
{
	const char *d = dashes[(s / NCOLOURS) % 3];

	if (!d)
		return "";
	snprintf(buf, size, " stroke-dasharray=\"%s\"", d);
	return buf;
}

/* The reference line (an SLO bound) and the marked point: black, and
 * dashed unlike any series. */
#define HLINE_COLOUR "#000"
#define HLINE_DASH "10 4 2 4"

static void xml_text(gp_sbuf *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': gp_sbuf_adds(out, "&amp;"); break;
		case '<': gp_sbuf_adds(out, "&lt;"); break;
		case '>': gp_sbuf_adds(out, "&gt;"); break;
		case '"': gp_sbuf_adds(out, "&quot;"); break;
		default: gp_sbuf_add(out, s, 1);
		}
	}
}

/* Tick step of 1, 2, 2.5 or 5 times a power of ten giving about `want`
 * intervals over range. */
static double tick_step(double range, int want)
{
	double raw = range / want, p = pow(10, floor(log10(raw))), f = raw / p;

	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * p;
}

static int step_decimals(double step)
{
	int d = 0;

	while (d < 6 && fabs(step * pow(10, d) - round(step * pow(10, d))) > 1e-9)
		d++;
	return d;
}

typedef struct axis {
	double lo, hi;          /* data space (log10 of it for a log axis) */
	int log;
	double px0, px1;        /* pixel positions of lo and hi */
} axis;

static double ax_pos(const axis *a, double v)
{
	double u = a->log ? log10(v) : v;

	return a->px0 + (u - a->lo) / (a->hi - a->lo) * (a->px1 - a->px0);
}

static int usable(const gp_svg_chart *c, double x, double y)
{
	return isfinite(x) && isfinite(y) && (!c->x_log || x > 0) && (!c->y_log || y > 0);
}

static int usable_x(const gp_svg_chart *c, double x)
{
	return isfinite(x) && (!c->x_log || x > 0);
}

/* A tick step for whole numbers (counts): at least 1, never 2.5. */
static double count_step(double step)
{
	return step < 1 ? 1 : floor(step);
}

/* A series' band (lo..hi) as one translucent polygon: hi forward, lo back. */
static void svg_band(const gp_svg_chart *c, const gp_svg_series *se, const gp_svg_band *b,
		     const axis *ax, const axis *ay, const char *colour, gp_sbuf *out)
{
	size_t i;

	if (!b || !b->lo || !b->hi || !se->n)
		return;
	gp_sbuf_addf(out, "<polygon fill=\"%s\" fill-opacity=\"0.15\" stroke=\"none\" points=\"",
		     colour);
	for (i = 0; i < se->n; i++)
		if (usable(c, se->x[i], b->hi[i]))
			gp_sbuf_addf(out, "%.1f,%.1f ", ax_pos(ax, se->x[i]), ax_pos(ay, b->hi[i]));
	for (i = se->n; i-- > 0;)
		if (usable(c, se->x[i], b->lo[i]))
			gp_sbuf_addf(out, "%.1f,%.1f ", ax_pos(ax, se->x[i]), ax_pos(ay, b->lo[i]));
	gp_sbuf_adds(out, "\"/>\n");
}

/* Pixel frame of a chart: size, margins and the two axes. */
typedef struct frame {
	int W, H;
	double L, R, T, B;
	double foot;            /* rows under the x title for a legend outside the plot */
	double xmin, xmax, ymin, ymax;
	axis ax, ay;
} frame;

/* Data ranges (or the chart's own), rounded to ticks, and the axes.
 * foot pixels are added under the x title (the chart grows by them). */
static void chart_frame(const gp_svg_chart *c, double foot, frame *f)
{
	int W = c->width > 0 ? c->width : 800, H = (c->height > 0 ? c->height : 450) + (int)foot;
	double L = 84, R = 24, T = c->subtitle ? 60 : 46, B = 58 + foot;
	double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
	double step, top;
	axis ax, ay;
	int s;
	size_t i;

	for (s = 0; s < c->nseries; s++)
		for (i = 0; i < c->series[s].n; i++) {
			double x = c->series[s].x[i], y = c->series[s].y[i];

			if (!usable(c, x, y))
				continue;
			xmin = fmin(xmin, x);
			xmax = fmax(xmax, x);
			ymin = fmin(ymin, y);
			ymax = fmax(ymax, y);
			if (c->bands && c->bands[s].lo && c->bands[s].hi &&
			    usable(c, x, c->bands[s].lo[i]) && usable(c, x, c->bands[s].hi[i])) {
				ymin = fmin(ymin, c->bands[s].lo[i]);
				ymax = fmax(ymax, c->bands[s].hi[i]);
			}
		}
	if (c->hline_label && usable(c, isfinite(xmin) ? xmin : 1, c->hline)) {
		ymin = fmin(ymin, c->hline);
		ymax = fmax(ymax, c->hline);
	}
	if (c->point_label && usable(c, c->point_x, c->point_y)) {
		xmin = fmin(xmin, c->point_x);
		xmax = fmax(xmax, c->point_x);
		ymin = fmin(ymin, c->point_y);
		ymax = fmax(ymax, c->point_y);
	}
	if (c->set_x) {
		xmin = c->x_min;
		xmax = c->x_max;
	}
	if (c->set_y) {
		ymin = c->y_min;
		ymax = c->y_max;
	} else if (c->y_percent) {
		ymin = fmin(0, ymin);
		ymax = fmax(1, isfinite(ymax) ? ymax : 1);
	} else if (c->y_log) {
		if (!isfinite(ymin) || !isfinite(ymax)) {
			ymin = 1;
			ymax = 10;
		}
	} else {
		ymin = isfinite(ymin) ? fmin(0, ymin) : 0;
		if (!isfinite(ymax))
			ymax = 1;
	}
	if (!isfinite(xmin) || !isfinite(xmax)) {
		xmin = c->x_log ? 1 : 0;
		xmax = c->x_log ? 10 : 1;
	}
	if (c->x_log) {
		/* Whole decades, with data never on the frame: a CDF's jump at
		 * its smallest or largest value would hide in it. */
		xmin = c->set_x ? floor(log10(xmin)) : floor(log10(xmin) - 0.02);
		xmax = c->set_x ? ceil(log10(xmax)) : ceil(log10(xmax) + 0.02);
		if (xmax <= xmin)
			xmax = xmin + 1;
	} else if (xmax <= xmin) {
		xmax = xmin + 1;
	}
	if (c->y_log) {
		ymin = floor(log10(ymin) - 0.02);
		ymax = ceil(log10(ymax) + 0.02);
	}
	if (ymax <= ymin)
		ymax = ymin + 1;
	ax.log = c->x_log;
	ay.log = c->y_log;
	if (!c->x_log && !c->set_x) {
		step = tick_step(xmax - xmin, 8);
		if (c->x_integer)
			step = count_step(step);
		xmin = floor(xmin / step + 1e-9) * step;
		xmax = ceil(xmax / step - 1e-9) * step;
	}
	if (!c->set_y && !c->y_percent && !c->y_log) {
		top = ymax;
		step = tick_step(ymax - ymin, 5);
		if (c->y_integer)
			step = count_step(step);
		ymin = floor(ymin / step + 1e-9) * step;
		ymax = ceil(ymax / step - 1e-9) * step;
		/* A peak on the top edge would be cut in half by the frame. */
		if (top > ymax - 0.01 * (ymax - ymin))
			ymax += step;
	}
	ax.lo = xmin;
	ax.hi = xmax;
	ax.px0 = L;
	ax.px1 = W - R;
	ay.lo = ymin;
	ay.hi = ymax;
	ay.px0 = H - B;
	ay.px1 = T;
	f->W = W;
	f->H = H;
	f->L = L;
	f->R = R;
	f->T = T;
	f->B = B;
	f->foot = foot;
	f->xmin = xmin;
	f->xmax = xmax;
	f->ymin = ymin;
	f->ymax = ymax;
	f->ax = ax;
	f->ay = ay;
}

/* Ticks of a logarithmic time axis (seconds): the units people read,
 * the round ones (major) placed before their tens. */
static const struct {
	double s;
	const char *label;
	int major;
} time_ticks[] = {
	{ 1e-3, "1 ms", 1 }, { 1e-2, "10 ms", 0 }, { 0.1, "0.1 s", 0 }, { 1, "1 s", 1 },
	{ 10, "10 s", 0 }, { 60, "1 min", 1 }, { 600, "10 min", 0 }, { 3600, "1 h", 1 },
	{ 36000, "10 h", 0 }, { 86400, "1 d", 1 }, { 864000, "10 d", 0 }, { 8640000, "100 d", 0 },
	{ 86400000, "1000 d", 1 },
};
#define NTICKS (sizeof(time_ticks) / sizeof(time_ticks[0]))

/* One grid line and its label at v (data units) on axis a: vertical for
 * the x axis, horizontal for the y axis; label NULL = grid line only. */
static void grid_at(const frame *f, const axis *a, int is_x, double v, const char *label,
		    gp_sbuf *out)
{
	double p = ax_pos(a, v);

	if (is_x) {
		gp_sbuf_addf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n",
			     p, f->T, p, f->H - f->B);
		if (label)
			gp_sbuf_addf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
				     p, f->H - f->B + 18, label);
	} else {
		gp_sbuf_addf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n",
			     f->L, p, f->W - f->R, p);
		if (label)
			gp_sbuf_addf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
				     f->L - 8, p + 4, label);
	}
}

/* A logarithmic axis from 10^lo to 10^hi: a grid line per decade, and
 * labels at the decades, or with unit (seconds per data unit, > 0) at
 * 1 s, 1 min, 1 h, 1 d and their tens, those closer than min_px to the
 * one before left out. */
static void log_grid(const frame *f, const axis *a, int is_x, double lo, double hi, double unit,
		     double min_px, gp_sbuf *out)
{
	char num[96], placed[NTICKS] = { 0 };
	size_t i;
	int k, pass;

	/* on a time axis the labelled times are the grid: a decade of the
	 * unit (36 s, 6 min of an axis in hours; 100 s beside 1 min) would be
	 * an unlabelled line a reader takes for one of them */
	for (k = (int)lo; unit <= 0 && k <= (int)hi; k++) {
		if (k >= 0 && k <= 3)
			snprintf(num, sizeof(num), "%g", pow(10, k));
		else
			snprintf(num, sizeof(num), "10<tspan dy=\"-6\" font-size=\"9\">%d</tspan>", k);
		grid_at(f, a, is_x, pow(10, k), num, out);
	}
	if (unit <= 0)
		return;
	for (pass = 1; pass >= 0; pass--)
		for (i = 0; i < NTICKS; i++) {
			double v = time_ticks[i].s / unit, p;
			size_t j;
			int near = 0;

			if (time_ticks[i].major != pass || log10(v) < lo - 1e-9 || log10(v) > hi + 1e-9)
				continue;
			p = ax_pos(a, v);
			for (j = 0; j < NTICKS; j++)
				near |= placed[j] && fabs(p - ax_pos(a, time_ticks[j].s / unit)) < min_px;
			if (near)
				continue;
			placed[i] = 1;
			gp_sbuf_addf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				     "stroke=\"#c8c8c8\"/>\n", is_x ? p : f->L, is_x ? f->T : p,
				     is_x ? p : f->W - f->R, is_x ? f->H - f->B : p);
			grid_at(f, a, is_x, v, time_ticks[i].label, out);
		}
}

/* Grid lines and tick labels of both axes. */
static void chart_grid(const gp_svg_chart *c, const frame *f, gp_sbuf *out)
{
	double xmin = f->xmin, xmax = f->xmax, ymin = f->ymin, ymax = f->ymax, step, v;
	const axis *pax = &f->ax, *pay = &f->ay;
	int d;
	char num[64], lab[80];

	/* grid and tick labels */
	gp_sbuf_adds(out, "<g font-size=\"12\" fill=\"#333\">\n");
	if (c->y_log) {
		log_grid(f, pay, 0, ymin, ymax, c->y_log_time, 22, out);
	} else {
		step = tick_step(ymax - ymin, 5);
		if (c->y_integer)
			step = count_step(step);
		d = step_decimals(c->y_percent ? step * 100 : step);
		for (v = ymin; v <= ymax + step * 1e-6; v += step) {
			snprintf(lab, sizeof(lab), "%s%s",
				 gp_report_num(num, sizeof(num), c->y_percent ? v * 100 : v, d),
				 c->y_percent ? " %" : "");
			grid_at(f, pay, 0, v, lab, out);
		}
	}
	if (c->x_log) {
		log_grid(f, pax, 1, xmin, xmax, c->x_log_time, 44, out);
	} else {
		step = tick_step(xmax - xmin, 8);
		if (c->x_integer)
			step = count_step(step);
		d = step_decimals(step);
		for (v = xmin; v <= xmax + step * 1e-6; v += step)
			grid_at(f, pax, 1, v, gp_report_num(num, sizeof(num), v, d), out);
	}
	gp_sbuf_adds(out, "</g>\n");
}

/* ---- text that fits ---- */

/* Characters (not bytes) of a UTF-8 string. */
static size_t u8_len(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/* Byte offset of character k. */
static size_t u8_off(const char *s, size_t k)
{
	size_t i = 0;

	for (; s[i]; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80 && k-- == 0)
			break;
	return i;
}

/* A centred line of text no wider than width pixels: the font shrinks
 * to 11 px first, then the middle of the text gives way to an ellipsis
 * (the start and the end of a name say the most).  em is the mean glyph
 * width in ems (DejaVu Sans: about 0.6, bold 0.66). */
static void fitted_text(gp_sbuf *out, double x, double y, int size, int bold, double width,
			const char *fill, const char *s)
{
	double em = bold ? 0.66 : 0.6;
	size_t n = u8_len(s), keep;

	while (size > 11 && (double)n * em * size > width)
		size--;
	gp_sbuf_addf(out, "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\" font-size=\"%d\"%s%s%s%s>", x, y,
		     size, bold ? " font-weight=\"bold\"" : "", fill ? " fill=\"" : "", fill ? fill : "",
		     fill ? "\"" : "");
	if ((double)n * em * size <= width) {
		xml_text(out, s);
	} else {
		char *head;

		keep = (size_t)(width / (em * size));
		keep = keep > 4 ? keep - 1 : 3;
		head = gp_xasprintf("%.*s", (int)u8_off(s, keep / 2), s);
		xml_text(out, head);
		gp_sbuf_adds(out, "\xe2\x80\xa6"); /* U+2026 */
		xml_text(out, s + u8_off(s, n - (keep - keep / 2)));
		free(head);
	}
	gp_sbuf_adds(out, "</text>\n");
}

/* ---- legend ---- */

typedef struct box {
	double x, y, w, h;
} box;

typedef struct legend {
	int n;                  /* entries */
	int cols;               /* 1 inside the plot; more under it */
	double cw, lw, lh;      /* column, box width and height */
	box at;
} legend;

static void legend_size(const gp_svg_chart *c, legend *lg)
{
	int s, maxlabel = 0;

	memset(lg, 0, sizeof(*lg));
	for (s = 0; s < c->nseries; s++)
		if (c->series[s].label) {
			lg->n++;
			if ((int)u8_len(c->series[s].label) > maxlabel)
				maxlabel = (int)u8_len(c->series[s].label);
		}
	if (c->nmarks && c->marks_label) {
		lg->n++;
		if ((int)u8_len(c->marks_label) > maxlabel)
			maxlabel = (int)u8_len(c->marks_label);
	}
	if (c->hline_label) {
		lg->n++;
		if ((int)u8_len(c->hline_label) > maxlabel)
			maxlabel = (int)u8_len(c->hline_label);
	}
	if (c->point_label) {
		lg->n++;
		if ((int)u8_len(c->point_label) > maxlabel)
			maxlabel = (int)u8_len(c->point_label);
	}
	lg->cols = 1;
	lg->cw = 44 + 7.2 * maxlabel;
	lg->lw = lg->cw;
	lg->lh = 8 + 18.0 * lg->n;
}

/* The legend box in one corner of the plot. */
static box legend_corner(const frame *f, const legend *lg, int where)
{
	box b = { f->L + 10, f->T + 10, lg->lw, lg->lh };

	if (where == GP_LEGEND_TOP_RIGHT || where == GP_LEGEND_BOTTOM_RIGHT)
		b.x = f->W - f->R - 10 - lg->lw;
	else if (where == GP_LEGEND_BOTTOM_CENTER)
		b.x = f->L + (f->W - f->L - f->R - lg->lw) / 2;
	if (where >= GP_LEGEND_BOTTOM_LEFT)
		b.y = f->H - f->B - 10 - lg->lh;
	return b;
}

/* Whether the segment (x0,y0)-(x1,y1) meets the box (Liang-Barsky). */
static int seg_hits(double x0, double y0, double x1, double y1, const box *b)
{
	double p[4] = { x0 - x1, x1 - x0, y0 - y1, y1 - y0 };
	double q[4] = { x0 - b->x, b->x + b->w - x0, y0 - b->y, b->y + b->h - y0 };
	double t0 = 0, t1 = 1;
	int k;

	for (k = 0; k < 4; k++) {
		if (p[k] == 0) {
			if (q[k] < 0)
				return 0;
		} else {
			double r = q[k] / p[k];

			if (p[k] < 0) {
				if (r > t1)
					return 0;
				t0 = fmax(t0, r);
			} else {
				if (r < t0)
					return 0;
				t1 = fmin(t1, r);
			}
		}
	}
	return 1;
}

/* Whether the drawn line through (x[i], y[i]) crosses the box. */
static int line_hits(const gp_svg_chart *c, const frame *f, const double *x, const double *y,
		     size_t n, int step, const box *b)
{
	double px0 = 0, py0 = 0;
	int first = 1;
	size_t i;

	for (i = 0; i < n; i++) {
		double px, py;

		if (!usable(c, x[i], y[i]))
			continue;
		px = ax_pos(&f->ax, x[i]);
		py = ax_pos(&f->ay, y[i]);
		if (first && c->cdf && step && seg_hits(px, ax_pos(&f->ay, f->ymin), px, py, b))
			return 1;
		if (first ? seg_hits(px, py, px, py, b) :
		    step ? seg_hits(px0, py0, px, py0, b) || seg_hits(px, py0, px, py, b) :
		    seg_hits(px0, py0, px, py, b))
			return 1;
		px0 = px;
		py0 = py;
		first = 0;
	}
	return 0;
}

/* Whether anything drawn in the plot (lines, bands, marks) meets the box
 * grown by a few pixels. */
static int data_hits(const gp_svg_chart *c, const frame *f, box b)
{
	int s;
	size_t i;

	b.x -= 4;
	b.y -= 4;
	b.w += 8;
	b.h += 8;
	for (s = 0; s < c->nseries; s++) {
		const gp_svg_series *se = &c->series[s];
		const gp_svg_band *bd = c->bands ? &c->bands[s] : NULL;

		if (line_hits(c, f, se->x, se->y, se->n, se->step, &b))
			return 1;
		if (bd && bd->lo && bd->hi &&
		    (line_hits(c, f, se->x, bd->lo, se->n, se->step, &b) ||
		     line_hits(c, f, se->x, bd->hi, se->n, se->step, &b)))
			return 1;
	}
	for (i = 0; i < c->nmarks; i++) {
		double px;

		if (!usable_x(c, c->marks[i]))
			continue;
		px = ax_pos(&f->ax, c->marks[i]);
		if (px >= b.x && px <= b.x + b.w)
			return 1;
	}
	if (c->hline_label && usable(c, c->x_log ? 1 : 0, c->hline)) {
		double py = ax_pos(&f->ay, c->hline);

		if (py >= b.y && py <= b.y + b.h)
			return 1;
	}
	if (c->point_label && usable(c, c->point_x, c->point_y)) {
		box pb = { ax_pos(&f->ax, c->point_x) - 8, ax_pos(&f->ay, c->point_y) - 8, 16, 16 };

		if (pb.x < b.x + b.w && pb.x + pb.w > b.x && pb.y < b.y + b.h && pb.y + pb.h > b.y)
			return 1;
	}
	return 0;
}

/* Where the legend goes: the chart's own corner when no data lies under
 * it, else the first free corner, else under the plot in columns (the
 * chart grows by its height).  Fills *f for the chosen layout. */
static void legend_place(const gp_svg_chart *c, legend *lg, frame *f)
{
	static const int order[] = { GP_LEGEND_TOP_LEFT, GP_LEGEND_TOP_RIGHT, GP_LEGEND_BOTTOM_RIGHT,
				     GP_LEGEND_BOTTOM_LEFT, GP_LEGEND_BOTTOM_CENTER };
	int k, rows;
	double plot_w;

	chart_frame(c, 0, f);
	if (!lg->n)
		return;
	lg->at = legend_corner(f, lg, c->legend);
	if (!data_hits(c, f, lg->at))
		return;
	for (k = 0; k < (int)(sizeof(order) / sizeof(order[0])); k++) {
		lg->at = legend_corner(f, lg, order[k]);
		if (!data_hits(c, f, lg->at))
			return;
	}
	plot_w = f->W - f->L - f->R;
	lg->cols = (int)(plot_w / lg->cw);
	if (lg->cols < 1)
		lg->cols = 1;
	if (lg->cols > lg->n)
		lg->cols = lg->n;
	rows = (lg->n + lg->cols - 1) / lg->cols;
	lg->lw = lg->cw * lg->cols;
	lg->lh = 8 + 18.0 * rows;
	chart_frame(c, lg->lh + 8, f);
	lg->at = (box){ f->L + (plot_w - lg->lw) / 2, f->H - lg->lh - 8, lg->lw, lg->lh };
}

/* The legend box where legend_place put it: the series, then the event
 * marks, the reference line and the marked point. */
static void chart_legend(const gp_svg_chart *c, const legend *lg, gp_sbuf *out)
{
	double lx = lg->at.x, ly = lg->at.y;
	int s, i = 0;
	char dash[48];

	gp_sbuf_addf(out, "<g font-size=\"12\">\n<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		     "height=\"%.1f\" fill=\"white\" fill-opacity=\"0.85\" stroke=\"#bbb\"/>\n",
		     lx, ly, lg->lw, lg->lh);
	for (s = 0; s <= c->nseries + 2; s++) {
		const char *label = s < c->nseries ? c->series[s].label :
				    s == c->nseries ? (c->nmarks ? c->marks_label : NULL) :
				    s == c->nseries + 1 ? c->hline_label : c->point_label;
		double x, y;

		if (!label)
			continue;
		x = lx + lg->cw * (i % lg->cols);
		y = ly + 15 + 18.0 * (i / lg->cols);
		i++;
		if (s < c->nseries)
			gp_sbuf_addf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				     "stroke=\"%s\" stroke-width=\"2.5\"%s/>\n",
				     x + 8, y - 4, x + 30, y - 4, colour_of(s),
				     dash_attr(s, dash, sizeof(dash)));
		else if (s == c->nseries)
			gp_sbuf_addf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				     "stroke=\"#d62728\" stroke-width=\"1\"/>\n",
				     x + 19, y - 12, x + 19, y + 2);
		else if (s == c->nseries + 1)
			gp_sbuf_addf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				     "stroke=\"" HLINE_COLOUR "\" stroke-width=\"1.5\" "
				     "stroke-dasharray=\"" HLINE_DASH "\"/>\n",
				     x + 6, y - 4, x + 32, y - 4);
		else
			gp_sbuf_addf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"none\" "
				     "stroke=\"" HLINE_COLOUR "\" stroke-width=\"2\"/>\n", x + 19, y - 4);
		gp_sbuf_addf(out, "<text x=\"%.1f\" y=\"%.1f\">", x + 36, y);
		xml_text(out, label);
		gp_sbuf_adds(out, "</text>\n");
	}
	gp_sbuf_adds(out, "</g>\n");
}

/* Titles of the chart and of both axes. */
static void chart_titles(const gp_svg_chart *c, const frame *f, gp_sbuf *out)
{
	int W = f->W, H = f->H;
	double L = f->L, R = f->R, T = f->T, B = f->B;

	if (c->title)
		fitted_text(out, (double)W / 2, 26, 16, 1, W - 24, NULL, c->title);
	if (c->subtitle)
		fitted_text(out, (double)W / 2, 44, 12, 0, W - 24, "#555", c->subtitle);
	if (c->x_title) {
		gp_sbuf_addf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"13\">",
			     L + (W - L - R) / 2, H - f->foot - 14);
		xml_text(out, c->x_title);
		gp_sbuf_adds(out, "</text>\n");
	}
	if (c->y_title) {
		gp_sbuf_addf(out, "<text transform=\"translate(20 %.1f) rotate(-90)\" text-anchor=\"middle\" "
			     "font-size=\"13\">", T + (H - T - B) / 2);
		xml_text(out, c->y_title);
		gp_sbuf_adds(out, "</text>\n");
	}
}

/* Dots on a line of few points, so that each measured point shows. */
#define DOTS_MAX 40

/* The polyline's points: consecutive points that fall in one half-pixel
 * column collapse to the first, lowest, highest and last of them (M4
 * aggregation), which draws the same line; a CDF of 100,000 jobs would
 * otherwise write 100,000 points. */
typedef struct polyline {
	const frame *f;
	const gp_svg_series *se;
	gp_sbuf *out;
	double prev_px, prev_py;
	int first;
	int rise;       /* a distribution: rise from the axis floor (0 %) */
} polyline;

static void poly_point(polyline *pl, size_t i)
{
	double px = ax_pos(&pl->f->ax, pl->se->x[i]), py = ax_pos(&pl->f->ay, pl->se->y[i]);

	/* a point that prints as the one before adds nothing */
	if (!pl->first && round(px * 10) == round(pl->prev_px * 10) &&
	    round(py * 10) == round(pl->prev_py * 10))
		return;
	if (pl->se->step && !pl->first)
		gp_sbuf_addf(pl->out, " %.1f,%.1f", px, pl->prev_py);
	if (pl->first && pl->rise)
		gp_sbuf_addf(pl->out, "%.1f,%.1f ", px, ax_pos(&pl->f->ay, pl->f->ymin));
	gp_sbuf_addf(pl->out, "%s%.1f,%.1f", pl->first ? "" : " ", px, py);
	pl->prev_px = px;
	pl->prev_py = py;
	pl->first = 0;
}

/* Emits the column's first, lowest, highest and last points in order. */
static void poly_column(polyline *pl, const size_t pick[4])
{
	size_t sorted[4], i, j;

	memcpy(sorted, pick, sizeof(sorted));
	for (i = 1; i < 4; i++)
		for (j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
			size_t t = sorted[j];

			sorted[j] = sorted[j - 1];
			sorted[j - 1] = t;
		}
	for (i = 0; i < 4; i++)
		if (i == 0 || sorted[i] != sorted[i - 1])
			poly_point(pl, sorted[i]);
}

static void series_line(const gp_svg_chart *c, const frame *f, const gp_svg_series *se,
			const char *colour, const char *dash, gp_sbuf *out)
{
	polyline pl = { f, se, out, NAN, NAN, 1, c->cdf && se->step };
	size_t pick[4] = { 0, 0, 0, 0 }; /* first, lowest, highest, last */
	double lo = 0, hi = 0, col = NAN;
	size_t i, used = 0;

	gp_sbuf_addf(out, "<polyline stroke=\"%s\"%s points=\"", colour, dash);
	for (i = 0; i < se->n; i++) {
		double key, py;

		if (!usable(c, se->x[i], se->y[i]))
			continue;
		key = floor(2 * ax_pos(&f->ax, se->x[i]));
		py = ax_pos(&f->ay, se->y[i]);
		used++;
		if (key == col) {
			if (py < lo)
				lo = py, pick[1] = i;
			if (py > hi)
				hi = py, pick[2] = i;
			pick[3] = i;
			continue;
		}
		if (used > 1)
			poly_column(&pl, pick);
		col = key;
		lo = hi = py;
		pick[0] = pick[1] = pick[2] = pick[3] = i;
	}
	if (used)
		poly_column(&pl, pick);
	gp_sbuf_adds(out, "\"/>\n");
	/* a line of one point draws nothing: it needs its dot, even a step */
	if (used > DOTS_MAX || !used || (se->step && used > 1))
		return;
	for (i = 0; i < se->n; i++)
		if (usable(c, se->x[i], se->y[i]))
			gp_sbuf_addf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\" stroke=\"none\"/>\n",
				     ax_pos(&f->ax, se->x[i]), ax_pos(&f->ay, se->y[i]), colour);
}

void gp_svg_line_chart(const gp_svg_chart *c, gp_sbuf *out)
{
	frame fr, *f = &fr;
	legend lg;
	int s, W, H;
	double L, R, T, B;
	size_t i;

	legend_size(c, &lg);
	legend_place(c, &lg, f);
	W = f->W;
	H = f->H;
	L = f->L;
	R = f->R;
	T = f->T;
	B = f->B;
	gp_sbuf_addf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		     "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		     "viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n",
		     W, H, W, H);
	gp_sbuf_addf(out, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H);
	chart_grid(c, f, out);
	gp_sbuf_addf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		     "stroke=\"#333\"/>\n", L, T, W - L - R, H - T - B);
	chart_titles(c, f, out);
	/* series, clipped to the plot box; event marks under the lines */
	gp_sbuf_addf(out, "<clipPath id=\"plot\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>"
		     "</clipPath>\n", L, T, W - L - R, H - T - B);
	gp_sbuf_adds(out, "<g clip-path=\"url(#plot)\" fill=\"none\" stroke-width=\"1.8\" "
		     "stroke-linejoin=\"round\">\n");
	if (c->nmarks) {
		gp_sbuf_adds(out, "<g stroke=\"#d62728\" stroke-width=\"1\" stroke-opacity=\"0.7\">\n");
		for (i = 0; i < c->nmarks; i++) {
			double px;

			if (!usable_x(c, c->marks[i]))
				continue;
			px = ax_pos(&f->ax, c->marks[i]);
			gp_sbuf_addf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", px, T,
				     px, H - B);
		}
		gp_sbuf_adds(out, "</g>\n");
	}
	for (s = 0; s < c->nseries; s++)
		svg_band(c, &c->series[s], c->bands ? &c->bands[s] : NULL, &f->ax, &f->ay,
			 colour_of(s), out);
	for (s = 0; s < c->nseries; s++) {
		char dash[48];

		series_line(c, f, &c->series[s], colour_of(s), dash_attr(s, dash, sizeof(dash)), out);
	}
	if (c->hline_label && isfinite(c->hline) && (!c->y_log || c->hline > 0)) {
		double py = ax_pos(&f->ay, c->hline);

		gp_sbuf_addf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\""
			     HLINE_COLOUR "\" stroke-width=\"1.5\" stroke-dasharray=\"" HLINE_DASH "\"/>\n",
			     L, py, W - R, py);
	}
	if (c->point_label && usable(c, c->point_x, c->point_y))
		gp_sbuf_addf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"7\" fill=\"none\" stroke=\""
			     HLINE_COLOUR "\" stroke-width=\"2\"/>\n",
			     ax_pos(&f->ax, c->point_x), ax_pos(&f->ay, c->point_y));
	gp_sbuf_adds(out, "</g>\n");
	if (lg.n)
		chart_legend(c, &lg, out);
	gp_sbuf_adds(out, "</svg>\n");
}

size_t gp_svg_cdf_points(double *x, double *y, size_t n, double floor)
{
	size_t i, raised = 0;

	gp_sort_doubles(x, n);
	for (i = 0; i < n; i++) {
		if (x[i] < floor) {
			x[i] = floor;
			raised++;
		}
		y[i] = (double)(i + 1) / (double)n;
	}
	return raised;
}

void gp_svg_cdf_axes(gp_svg_chart *c, const gp_svg_series *se, int nseries, double x_log_time)
{
	c->x_log = 1;
	c->x_log_time = x_log_time;
	c->cdf = 1;
	c->y_percent = 1;
	c->set_y = 1;
	c->y_min = 0;
	c->y_max = 1;
	c->legend = GP_LEGEND_BOTTOM_RIGHT;
	c->series = se;
	c->nseries = nseries;
}
