/* The --html report page: inline CSS and SVG, readable without script. */
#include <stdio.h>
#include <string.h>

#include "gpuplan/report/html.h"

/* Fits a 1280-pixel window: charts scale down, wide tables and text
 * scroll inside their own box instead of widening the page. */
static const char style[] =
	"body{font-family:\"DejaVu Sans\",Helvetica,Arial,sans-serif;color:#222;margin:0;"
	"background:#f4f4f2}\n"
	"main{max-width:1100px;margin:0 auto;padding:16px 24px 48px;background:white}\n"
	"h1{font-size:1.5em;margin:.4em 0}\n"
	"h2{font-size:1.2em;margin:1.6em 0 .5em;border-bottom:1px solid #ccc;padding-bottom:.2em}\n"
	"h3{font-size:1em;margin:1.2em 0 .4em}\n"
	".answer{font-size:1.15em;background:#eef4fb;border-left:5px solid #1f77b4;"
	"padding:.7em 1em;margin:1em 0}\n"
	"dl.inputs{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.2em 1em;"
	"margin:.5em 0}\n"
	"dl.inputs dt{font-weight:bold}dl.inputs dd{margin:0;overflow-wrap:anywhere}\n"
	".scroll{overflow-x:auto;max-width:100%}\n"
	"table{border-collapse:collapse;margin:.4em 0 1em;font-size:.92em}\n"
	"caption{text-align:left;font-weight:bold;padding:.2em 0}\n"
	"th,td{padding:.25em .7em;border-bottom:1px solid #ddd;text-align:right;"
	"white-space:nowrap}\n"
	"th:first-child,td:first-child{text-align:left}\n"
	"td.text{white-space:normal;text-align:left;min-width:14em}th.text{text-align:left}\n"
	"thead th{border-bottom:2px solid #888;background:#f7f7f7;white-space:normal;"
	"vertical-align:bottom}\n"
	"pre{font-size:.85em;background:#f7f7f7;padding:.6em;overflow-x:auto;max-width:100%;"
	"box-sizing:border-box}\n"
	"figure{margin:1em 0}figure svg{display:block;max-width:100%;height:auto;margin:0 auto}\n"
	"nav ul{columns:2;margin:.3em 0}\n";

void gp_html_escape(gp_sbuf *out, const char *s, size_t len)
{
	size_t i, from = 0;

	for (i = 0; i < len; i++) {
		const char *rep;

		switch (s[i]) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		default: continue;
		}
		gp_sbuf_add(out, s + from, i - from);
		gp_sbuf_adds(out, rep);
		from = i + 1;
	}
	gp_sbuf_add(out, s + from, len - from);
}

static void esc(gp_sbuf *out, const char *s)
{
	if (s)
		gp_html_escape(out, s, strlen(s));
}

/* A column heading: may break after '_' and '.' (metric paths such as
 * gpu_utilization_queued would otherwise make a table wider than the
 * page). */
static void esc_heading(gp_sbuf *out, const char *s)
{
	size_t i, from = 0;

	for (i = 0; s && s[i]; i++)
		if ((s[i] == '_' || s[i] == '.') && s[i + 1] && i > 0) {
			gp_html_escape(out, s + from, i + 1 - from);
			gp_sbuf_adds(out, "<wbr>");
			from = i + 1;
		}
	if (s)
		gp_html_escape(out, s + from, i - from);
}

void gp_html_begin(gp_html *h, gp_sbuf *out, const char *title)
{
	memset(h, 0, sizeof(*h));
	h->out = out;
	gp_sbuf_adds(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		     "<title>");
	esc(out, title);
	gp_sbuf_adds(out, "</title>\n<style>\n");
	gp_sbuf_adds(out, style);
	gp_sbuf_adds(out, "</style>\n</head>\n<body>\n<main>\n<h1>");
	esc(out, title);
	gp_sbuf_adds(out, "</h1>\n");
}

void gp_html_inputs(gp_html *h, const char *const *names, const char *const *values, size_t n)
{
	size_t i;

	gp_sbuf_adds(h->out, "<dl class=\"inputs\">\n");
	for (i = 0; i < n; i++) {
		gp_sbuf_adds(h->out, "<dt>");
		esc(h->out, names[i]);
		gp_sbuf_adds(h->out, "</dt><dd>");
		esc(h->out, values[i]);
		gp_sbuf_adds(h->out, "</dd>\n");
	}
	gp_sbuf_adds(h->out, "</dl>\n");
}

void gp_html_headline(gp_html *h, const char *text)
{
	gp_sbuf_adds(h->out, "<p class=\"answer\">");
	esc(h->out, text);
	gp_sbuf_adds(h->out, "</p>\n");
}

void gp_html_section(gp_html *h, const char *heading)
{
	if (h->section_open)
		gp_sbuf_adds(h->out, "</section>\n");
	gp_sbuf_adds(h->out, "<section>\n<h2>");
	esc(h->out, heading);
	gp_sbuf_adds(h->out, "</h2>\n");
	h->section_open = 1;
}

void gp_html_subheading(gp_html *h, const char *heading)
{
	gp_sbuf_adds(h->out, "<h3>");
	esc(h->out, heading);
	gp_sbuf_adds(h->out, "</h3>\n");
}

void gp_html_para(gp_html *h, const char *text)
{
	gp_sbuf_adds(h->out, "<p>");
	esc(h->out, text);
	gp_sbuf_adds(h->out, "</p>\n");
}

/* A cell of words rather than a figure (a bottleneck, a placement's
 * reason): it may wrap, so that a table of such columns fits the page
 * instead of hiding its last column behind a scroll bar. */
static int is_text(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	return n > 24 && strchr(s, ' ') != NULL;
}

void gp_html_table(gp_html *h, const gp_table *t, const char *caption)
{
	unsigned char text[64] = { 0 };  /* columns of words; later ones never wrap */
	size_t r;
	int c;

	for (c = 1; c < t->ncols && c < 64; c++)
		for (r = 1; r < t->nrows && !text[c]; r++)
			text[c] = (unsigned char)is_text(t->cells[r * (size_t)t->ncols + (size_t)c]);
	gp_sbuf_adds(h->out, "<div class=\"scroll\"><table>\n");
	if (caption) {
		gp_sbuf_adds(h->out, "<caption>");
		esc(h->out, caption);
		gp_sbuf_adds(h->out, "</caption>\n");
	}
	for (r = 0; r < t->nrows; r++) {
		const char *cell = r ? "td" : "th";

		if (r <= 1)
			gp_sbuf_adds(h->out, r ? "<tbody>\n" : "<thead>\n");
		gp_sbuf_adds(h->out, "<tr>");
		for (c = 0; c < t->ncols; c++) {
			const char *s = t->cells[r * (size_t)t->ncols + (size_t)c];

			if (c < 64 && text[c])
				gp_sbuf_addf(h->out, "<%s class=\"text\">", cell);
			else
				gp_sbuf_addf(h->out, "<%s>", r && c == 0 ? "th" : cell);
			if (r)
				esc(h->out, s);
			else
				esc_heading(h->out, s);
			gp_sbuf_addf(h->out, "</%s>", r && c == 0 ? "th" : cell);
		}
		gp_sbuf_adds(h->out, "</tr>\n");
		if (r == 0)
			gp_sbuf_adds(h->out, "</thead>\n");
	}
	if (t->nrows > 1)
		gp_sbuf_adds(h->out, "</tbody>\n");
	gp_sbuf_adds(h->out, "</table></div>\n");
}

void gp_html_pre(gp_html *h, const char *text, size_t len)
{
	gp_sbuf_adds(h->out, "<pre>");
	gp_html_escape(h->out, text, len);
	gp_sbuf_adds(h->out, "</pre>\n");
}

/* s[0..len) with every `from` replaced by `to`. */
static void replace_all(gp_sbuf *out, const char *s, size_t len, const char *from, const char *to)
{
	size_t fl = strlen(from), i = 0, start = 0;

	while (i + fl <= len) {
		if (!memcmp(s + i, from, fl)) {
			gp_sbuf_add(out, s + start, i - start);
			gp_sbuf_adds(out, to);
			i += fl;
			start = i;
		} else {
			i++;
		}
	}
	gp_sbuf_add(out, s + start, len - start);
}

void gp_html_svg(gp_html *h, const char *svg, size_t len)
{
	const char *open = NULL;
	char id[32], url[48];
	gp_sbuf tmp;
	size_t i;

	/* from <svg on: the XML declaration is not allowed inside HTML */
	for (i = 0; i + 4 <= len; i++)
		if (!memcmp(svg + i, "<svg", 4)) {
			open = svg + i;
			break;
		}
	if (!open)
		return;
	len -= (size_t)(open - svg);
	/* every chart clips to id="plot": ids must be unique in one page */
	h->ncharts++;
	snprintf(id, sizeof(id), "id=\"plot%d\"", h->ncharts);
	snprintf(url, sizeof(url), "url(#plot%d)", h->ncharts);
	gp_sbuf_init(&tmp);
	replace_all(&tmp, open, len, "id=\"plot\"", id);
	gp_sbuf_adds(h->out, "<figure>\n");
	replace_all(h->out, tmp.buf ? tmp.buf : "", tmp.len, "url(#plot)", url);
	gp_sbuf_adds(h->out, "</figure>\n");
	gp_sbuf_release(&tmp);
}

void gp_html_chart(gp_html *h, const gp_svg_chart *c)
{
	gp_sbuf sb;

	gp_sbuf_init(&sb);
	gp_svg_line_chart(c, &sb);
	gp_html_svg(h, sb.buf ? sb.buf : "", sb.len);
	gp_sbuf_release(&sb);
}

void gp_html_end(gp_html *h)
{
	if (h->section_open)
		gp_sbuf_adds(h->out, "</section>\n");
	h->section_open = 0;
	gp_sbuf_adds(h->out, "</main>\n</body>\n</html>\n");
}
