/* SVG line charts: the one chart writer behind every --svg file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/report/report.h"

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
};

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
	return isfinite(x) && isfinite(y) && (!c->x_log || x > 0);
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
	double xmin, xmax, ymin, ymax;
	axis ax, ay;
} frame;

/* Data ranges (or the chart's own), rounded to ticks, and the axes. */
static void chart_frame(const gp_svg_chart *c, frame *f)
{
	int W = c->width > 0 ? c->width : 800, H = c->height > 0 ? c->height : 450;
	double L = 84, R = 24, T = 46, B = 58;
	double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
	double step;
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
		xmin = floor(log10(xmin));
		xmax = ceil(log10(xmax));
		if (xmax <= xmin)
			xmax = xmin + 1;
	} else if (xmax <= xmin) {
		xmax = xmin + 1;
	}
	if (ymax <= ymin)
		ymax = ymin + 1;
	ax.log = c->x_log;
	ay.log = 0;
	if (!c->x_log && !c->set_x) {
		step = tick_step(xmax - xmin, 8);
		xmin = floor(xmin / step + 1e-9) * step;
		xmax = ceil(xmax / step - 1e-9) * step;
	}
	if (!c->set_y && !c->y_percent) {
		step = tick_step(ymax - ymin, 5);
		ymin = floor(ymin / step + 1e-9) * step;
		ymax = ceil(ymax / step - 1e-9) * step;
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
	f->xmin = xmin;
	f->xmax = xmax;
	f->ymin = ymin;
	f->ymax = ymax;
	f->ax = ax;
	f->ay = ay;
}

/* Grid lines and tick labels of both axes. */
static void chart_grid(const gp_svg_chart *c, const frame *f, gp_sbuf *out)
{
	int W = f->W, H = f->H;
	double L = f->L, R = f->R, T = f->T, B = f->B;
	double xmin = f->xmin, xmax = f->xmax, ymin = f->ymin, ymax = f->ymax, step, v;
	const axis *pax = &f->ax, *pay = &f->ay;
	int d;
	char num[64];

	/* grid and tick labels */
	gp_sbuf_adds(out, "<g font-size=\"12\" fill=\"#333\">\n");
	step = tick_step(ymax - ymin, 5);
	d = step_decimals(c->y_percent ? step * 100 : step);
	for (v = ymin; v <= ymax + step * 1e-6; v += step) {
		double py = ax_pos(pay, v);

		gp_sbuf_addf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n",
			     L, py, W - R, py);
		gp_sbuf_addf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s%s</text>\n",
			     L - 8, py + 4,
			     gp_report_num(num, sizeof(num), c->y_percent ? v * 100 : v, d),
			     c->y_percent ? " %" : "");
	}
	if (c->x_log) {
		int k;

		for (k = (int)xmin; k <= (int)xmax; k++) {
			double px = ax_pos(pax, pow(10, k));

			gp_sbuf_addf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n",
				     px, T, px, H - B);
			if (k >= 0 && k <= 3)
				gp_sbuf_addf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n",
					     px, H - B + 18, pow(10, k));
			else
				gp_sbuf_addf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">10"
					     "<tspan dy=\"-6\" font-size=\"9\">%d</tspan></text>\n",
					     px, H - B + 18, k);
		}
	} else {
		step = tick_step(xmax - xmin, 8);
		d = step_decimals(step);
		for (v = xmin; v <= xmax + step * 1e-6; v += step) {
			double px = ax_pos(pax, v);

			gp_sbuf_addf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n",
				     px, T, px, H - B);
			gp_sbuf_addf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
				     px, H - B + 18, gp_report_num(num, sizeof(num), v, d));
		}
	}
	gp_sbuf_adds(out, "</g>\n");
}

/* The legend box at the chart's chosen corner. */
static void chart_legend(const gp_svg_chart *c, const frame *f, int nlegend, int maxlabel,
			 gp_sbuf *out)
{
	int W = f->W, H = f->H;
	double L = f->L, R = f->R, T = f->T, B = f->B;
	int s;

	if (nlegend) {
		double lw = 40 + 7.0 * maxlabel, lh = 8 + 18.0 * nlegend, lx = L + 10, ly = T + 10;
		int row = 0;

		if (c->legend == GP_LEGEND_TOP_RIGHT || c->legend == GP_LEGEND_BOTTOM_RIGHT)
			lx = W - R - 10 - lw;
		else if (c->legend == GP_LEGEND_BOTTOM_CENTER)
			lx = L + (W - L - R - lw) / 2;
		if (c->legend >= GP_LEGEND_BOTTOM_LEFT)
			ly = H - B - 10 - lh;

		gp_sbuf_addf(out, "<g font-size=\"12\">\n<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			     "height=\"%.1f\" fill=\"white\" fill-opacity=\"0.85\" stroke=\"#bbb\"/>\n",
			     lx, ly, lw, lh);
		for (s = 0; s < c->nseries; s++) {
			double y;

			if (!c->series[s].label)
				continue;
			y = ly + 15 + 18.0 * row++;
			gp_sbuf_addf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				     "stroke=\"%s\" stroke-width=\"2.5\"/>\n",
				     lx + 8, y - 4, lx + 30, y - 4, palette[s % 8]);
			gp_sbuf_addf(out, "<text x=\"%.1f\" y=\"%.1f\">", lx + 36, y);
			xml_text(out, c->series[s].label);
			gp_sbuf_adds(out, "</text>\n");
		}
		if (c->nmarks && c->marks_label) {
			double y = ly + 15 + 18.0 * row++;

			gp_sbuf_addf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				     "stroke=\"#d62728\" stroke-width=\"1\"/>\n",
				     lx + 19, y - 12, lx + 19, y + 2);
			gp_sbuf_addf(out, "<text x=\"%.1f\" y=\"%.1f\">", lx + 36, y);
			xml_text(out, c->marks_label);
			gp_sbuf_adds(out, "</text>\n");
		}
		gp_sbuf_adds(out, "</g>\n");
	}
}

void gp_svg_line_chart(const gp_svg_chart *c, gp_sbuf *out)
{
	frame fr, *f = &fr;
	int s, nlegend = 0, maxlabel = 0;
	int W, H;
	double L, R, T, B, ymin;
	size_t i;
	const axis *pax = &fr.ax, *pay = &fr.ay;

	chart_frame(c, f);
	W = f->W;
	H = f->H;
	L = f->L;
	R = f->R;
	T = f->T;
	B = f->B;
	ymin = f->ymin;
	gp_sbuf_addf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		     "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		     "viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n",
		     W, H, W, H);
	gp_sbuf_addf(out, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H);
	if (c->title) {
		gp_sbuf_addf(out, "<text x=\"%g\" y=\"26\" text-anchor=\"middle\" font-size=\"16\" "
			     "font-weight=\"bold\">", (double)W / 2);
		xml_text(out, c->title);
		gp_sbuf_adds(out, "</text>\n");
	}
	if (c->subtitle) {
		gp_sbuf_addf(out, "<text x=\"%g\" y=\"42\" text-anchor=\"middle\" font-size=\"12\" "
			     "fill=\"#555\">", (double)W / 2);
		xml_text(out, c->subtitle);
		gp_sbuf_adds(out, "</text>\n");
	}
	chart_grid(c, f, out);
	gp_sbuf_addf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		     "stroke=\"#333\"/>\n", L, T, W - L - R, H - T - B);
	if (c->x_title) {
		gp_sbuf_addf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\">",
			     L + (W - L - R) / 2, H - 14);
		xml_text(out, c->x_title);
		gp_sbuf_adds(out, "</text>\n");
	}
	if (c->y_title) {
		gp_sbuf_addf(out, "<text transform=\"translate(20 %.1f) rotate(-90)\" text-anchor=\"middle\" "
			     "font-size=\"13\">", T + (H - T - B) / 2);
		xml_text(out, c->y_title);
		gp_sbuf_adds(out, "</text>\n");
	}
	/* series, clipped to the plot box */
	gp_sbuf_addf(out, "<clipPath id=\"plot\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>"
		     "</clipPath>\n", L, T, W - L - R, H - T - B);
	gp_sbuf_adds(out, "<g clip-path=\"url(#plot)\" fill=\"none\" stroke-width=\"1.8\" "
		     "stroke-linejoin=\"round\">\n");
	for (s = 0; s < c->nseries; s++)
		svg_band(c, &c->series[s], c->bands ? &c->bands[s] : NULL, pax, pay, palette[s % 8], out);
	for (s = 0; s < c->nseries; s++) {
		const gp_svg_series *se = &c->series[s];
		double prev_py = NAN;
		int first = 1;

		gp_sbuf_addf(out, "<polyline stroke=\"%s\" points=\"", palette[s % 8]);
		for (i = 0; i < se->n; i++) {
			double px, py;

			if (!usable(c, se->x[i], se->y[i]))
				continue;
			px = ax_pos(pax, se->x[i]);
			py = ax_pos(pay, se->y[i]);
			if (se->step && !first)
				gp_sbuf_addf(out, " %.1f,%.1f", px, prev_py);
			gp_sbuf_addf(out, "%s%.1f,%.1f", first ? "" : " ", px, py);
			prev_py = py;
			first = 0;
		}
		gp_sbuf_adds(out, "\"/>\n");
		if (se->label) {
			nlegend++;
			if ((int)strlen(se->label) > maxlabel)
				maxlabel = (int)strlen(se->label);
		}
	}
	if (c->nmarks) {
		gp_sbuf_adds(out, "<g stroke=\"#d62728\" stroke-width=\"1\" stroke-opacity=\"0.7\">\n");
		for (i = 0; i < c->nmarks; i++) {
			double px;

			if (!usable(c, c->marks[i], ymin))
				continue;
			px = ax_pos(pax, c->marks[i]);
			gp_sbuf_addf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", px, T,
				     px, H - B);
		}
		gp_sbuf_adds(out, "</g>\n");
		if (c->marks_label) {
			nlegend++;
			if ((int)strlen(c->marks_label) > maxlabel)
				maxlabel = (int)strlen(c->marks_label);
		}
	}
	gp_sbuf_adds(out, "</g>\n");
	if (nlegend)
		chart_legend(c, f, nlegend, maxlabel, out);
	gp_sbuf_adds(out, "</svg>\n");
}
