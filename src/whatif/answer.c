/* Rendering the answer of a sweep (answer.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/report/html.h"
#include "gpuplan/report/report.h"
#include "gpuplan/whatif/answer.h"
#include "gpuplan/whatif/quota.h"

static int gp_whatif_answer_metric(const gp_whatif_spec *s, int metric)
{
	if (metric >= 0)
		return metric;
	/* with a tenant SLO alone: the same statistic over every job */
	return s->slo_metric >= 0 ? s->slo_metric : s->tslo_on ? s->tslo_metric : GP_M_QD_P90;
}

const char *gp_whatif_fmt(char *buf, size_t size, int metric, double v)
{
	switch (gp_metrics[metric].kind) {
	case GP_MK_SECONDS:
		return gp_report_duration(buf, size, v);
	case GP_MK_RATIO:
		snprintf(buf, size, "%.1f %%", 100 * v);
		return buf;
	case GP_MK_COUNT:
		return gp_report_num(buf, size, v, 1);
	default:
		return gp_report_num(buf, size, v, 3);
	}
}

/* A figure printed beside the bound it is compared with: never reading as
 * the bound, or as a wider miss, when off it by less than the shown unit. */
static const char *fmt_vs(char *buf, size_t size, int metric, double v, double bound)
{
	int d;

	switch (gp_metrics[metric].kind) {
	case GP_MK_SECONDS:
		return gp_report_duration_vs(buf, size, v, bound);
	case GP_MK_RATIO:
		for (d = 1; d < 4 && v != bound && fabs(100 * (v - bound)) < pow(10, -d); d++)
			;
		snprintf(buf, size, "%.*f %%", d, 100 * v);
		return buf;
	default:
		return gp_whatif_fmt(buf, size, metric, v);
	}
}

/* A bound as given (3630 s reads "1h00m30s", not "1h01m"). */
static const char *fmt_bound(char *buf, size_t size, int metric, double v)
{
	if (gp_metrics[metric].kind == GP_MK_SECONDS)
		return gp_report_duration_exact(buf, size, v);
	return gp_whatif_fmt(buf, size, metric, v);
}

static int decimals(int metric)
{
	switch (gp_metrics[metric].kind) {
	case GP_MK_SECONDS:
		return 3;
	case GP_MK_COUNT:
		return 0;
	default:
		return 6;
	}
}

/* The SLO on the metric alone. */
static const char *metric_bound_text(const gp_whatif_spec *s, char *buf, size_t size)
{
	char v[64];

	snprintf(buf, size, "%s %s %s", gp_metrics[s->slo_metric].path, s->slo_max ? "<=" : ">=",
		 fmt_bound(v, sizeof(v), s->slo_metric, s->slo_bound));
	return buf;
}

const char *gp_whatif_slo_text(const gp_whatif_spec *s, char *buf, size_t size)
{
	char t[1024];

	buf[0] = 0;
	if (s->slo_metric >= 0)
		metric_bound_text(s, buf, size);
	if (s->tslo_on) {
		size_t len = strlen(buf);

		snprintf(buf + len, size - len, "%s%s", len ? " and " : "",
			 gp_whatif_quota_slo_text(s, t, sizeof(t)));
	}
	return buf;
}

static const char *bound_text(const gp_whatif_spec *s, char *buf, size_t size)
{
	return gp_whatif_slo_text(s, buf, size);
}

/* Axes with a column of their own in the table (the tenants axis has
 * its named columns instead). */
static int shown(const gp_whatif_spec *s, int a)
{
	return a != GP_AX_TENANTS && (s->declared[a] || s->nvalues[a] > 1);
}

/* The tenants axis' columns in reports: quota.a, weight.b, ... (the
 * cluster axis has a column of its own). */
static size_t named_columns(const gp_whatif_spec *s)
{
	return s->declared[GP_AX_TENANTS] ? gp_whatif_quota_ncolumns(s) : 0;
}

static const char *named_name(const gp_whatif_spec *s, size_t k, char *buf, size_t size)
{
	return gp_whatif_quota_column(s, k, buf, size);
}

static double named_value(const gp_whatif_spec *s, size_t k, const gp_whatif_config *c)
{
	return gp_whatif_quota_column_value(s, k, c->v[GP_AX_TENANTS]);
}

/* "NAME=VALUE" of axis a in c, for labels; the tenants axis as
 * "quota.a=8, weight.b=2". */
static const char *axis_text(const gp_whatif_spec *s, const gp_whatif_config *c, int a, char *buf,
			     size_t size)
{
	char v[512];
	size_t k, len = 0;

	if (a != GP_AX_TENANTS) {
		snprintf(buf, size, "%s=%s", gp_whatif_axis_names[a], gp_whatif_value(s, c, a, v, sizeof(v)));
		return buf;
	}
	buf[0] = 0;
	for (k = 0; k < named_columns(s) && len < size; k++) {
		double x;
		char name[512];

		x = named_value(s, k, c);
		len += (size_t)snprintf(buf + len, size - len, "%s%s=%.12g", k ? ", " : "",
					named_name(s, k, name, sizeof(name)), x);
	}
	return buf;
}

/* A tenant none of whose jobs completed, for people, by its quota in
 * configuration c: without quota on any key and nothing to borrow its
 * jobs cannot start (the admission rule of Tenants), with a cohort they
 * could only borrow; with quota, say only what happened. */
static const char *none_done_text(const gp_whatif_spec *s, const gp_whatif_config *c, int t)
{
	switch (gp_whatif_quota_none(s, c->v[GP_AX_TENANTS], (size_t)t)) {
	case 1:
		return s->tenants.t[t].cohort < 0 ? "never started: no quota, no cohort" :
						    "never started: no quota, borrowing_limit 0";
	case 2:
		return "none completed: no quota, could only borrow";
	default:
		return "none completed";
	}
}

/* The worst tenant of r (of configuration c) for people: "b 1h05m" ("-"
 * without one, or when every bounded tenant's figure is 0). */
static const char *worst_text(const gp_whatif_spec *s, const gp_whatif_config *c,
			      const gp_whatif_result *r, char *buf, size_t size)
{
	double q;
	int t = gp_whatif_quota_worst(s, r, &q);
	char v[64];

	if (t < 0 || !(r->tenant[t] > 0))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%s %s", s->tenants.t[t].name,
			 isinf(r->tenant[t]) ? none_done_text(s, c, t) :
			 gp_report_duration_vs(v, sizeof(v), r->tenant[t], s->tslo_bound[t]));
	return buf;
}

/* Whether axis a has a CSV column: every axis, but the cluster only when
 * given (the columns of existing sweeps stay). */
static int csv_column(const gp_whatif_spec *s, int a)
{
	/* the tenants axis by its named columns, after these */
	return a != GP_AX_TENANTS && (a != GP_AX_CLUSTER || gp_whatif_cluster_axis(s));
}

/* ---- text ---- */

/* The table's metric columns: the one asked for first, then the usual. */
static int text_columns(int metric, int *cols)
{
	static const int more[] = { GP_M_QD_MEAN, GP_M_QD_P90, GP_M_JCT_MEAN, GP_M_UTIL,
				    GP_M_UTIL_QUEUED };
	int k, n = 0;

	cols[n++] = metric;
	for (k = 0; k < (int)GP_ARRAY_SIZE(more); k++)
		if (more[k] != metric)
			cols[n++] = more[k];
	return n;
}

/* A row of configuration i (complete): its axes' values, size, cost, the
 * metrics' means and whether it meets the SLO (" *" marks the best). */
static void text_row(const gp_whatif_results *rs, const gp_cluster *base, long best, size_t cfg,
		     const int *cols, int ncols, gp_table *t)
{
	const gp_whatif_spec *s = rs->spec;
	gp_whatif_config c;
	gp_whatif_shape sh;
	gp_whatif_result m;
	char buf[256], vb[64];
	size_t row = gp_table_row(t), i;
	int a, k = 0, meets;

	gp_whatif_config_of(s, cfg, &c);
	gp_whatif_shape_of(s, base, &c, &sh);
	gp_whatif_mean(rs, cfg, &m);
	for (a = 0; a < GP_AX_COUNT; a++)
		if (shown(s, a))
			gp_table_set(t, row, k++, "%s", gp_whatif_value(s, &c, a, buf, sizeof(buf)));
	for (i = 0; i < named_columns(s); i++) {
		double x;

		x = named_value(s, i, &c);
		gp_table_set(t, row, k++, "%.12g", x);
	}
	gp_table_set(t, row, k++, "%d", m.nodes);
	gp_table_set(t, row, k++, "%d", m.gpus);
	gp_table_set(t, row, k++, "%s", gp_report_num(buf, sizeof(buf), sh.cost, 3));
	for (a = 0; a < ncols; a++)
		if (cols[a] == s->slo_metric)
			gp_table_set(t, row, k++, "%s", fmt_vs(vb, sizeof(vb), cols[a], m.m[cols[a]], s->slo_bound));
		else if (cols[a] == GP_M_UTIL_QUEUED && !(m.m[cols[a]] > 0) && !(m.m[GP_M_QD_MAX] > 0))
			/* no wait to measure: "0.0 %" would read as idle GPUs
			 * beside a queue (simulate says the same; CSV and JSON
			 * keep 0) */
			gp_table_set(t, row, k++, "no job waited");
		else
			gp_table_set(t, row, k++, "%s", gp_whatif_fmt(vb, sizeof(vb), cols[a], m.m[cols[a]]));
	if (s->tslo_on)
		gp_table_set(t, row, k++, "%s", worst_text(s, &c, &m, buf, sizeof(buf)));
	meets = gp_whatif_meets(rs, cfg);
	if (gp_whatif_has_slo(s)) {
		size_t ok = 0, ns, need = gp_whatif_seeds_of(s, cfg);

		for (ns = 0; ns < need; ns++)
			ok += gp_whatif_meets_run(s, gp_whatif_results_get(rs, cfg * s->nseeds + ns)) == 1;
		if (need > 1 && !meets)
			gp_table_set(t, row, k++, "no (%zu/%zu)", ok, need);
		else
			gp_table_set(t, row, k++, "%s%s", meets ? "yes" : "no",
				     best >= 0 && gp_whatif_choice_of(s, cfg) == (size_t)best ? " *" : "");
	}
}

/* The scenario axes with several values, "trace, mtbf_node". */
static const char *scenario_list(const gp_whatif_spec *s, char *buf, size_t size)
{
	size_t len = 0;
	int a;

	buf[0] = 0;
	for (a = 0; a < GP_AX_COUNT; a++)
		if (s->scenario[a] && s->nvalues[a] > 1 && len < size)
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? ", " : "",
						gp_whatif_axis_names[a]);
	return buf;
}

/* The scenario of choice cfg where its SLO metric is worst (the first
 * such in grid order). */
static size_t worst_scenario(const gp_whatif_results *rs, size_t cfg)
{
	const gp_whatif_spec *s = rs->spec;
	size_t k, n = gp_whatif_nscenarios(s), worst = cfg;
	double wv = 0;

	for (k = 0; k < n; k++) {
		size_t c = gp_whatif_scenario_config(s, cfg, k);
		gp_whatif_result m;
		double v;

		gp_whatif_mean(rs, c, &m);
		if (s->slo_metric < 0) {
			/* the tenant SLO alone: where its worst tenant is worst */
			gp_whatif_quota_worst(s, &m, &v);
			if (!k || v > wv) {
				worst = c;
				wv = v;
			}
			continue;
		}
		v = m.m[s->slo_metric];
		if (!k || (s->slo_max ? v > wv : v < wv)) {
			worst = c;
			wv = v;
		}
	}
	return worst;
}

/* Whose figures the tenant SLO bounds: "every tenant's", "a's", "every
 * bounded tenant's". */
static const char *bounded_text(const gp_whatif_spec *s, char *buf, size_t size)
{
	size_t t, n = 0, last = 0;

	for (t = 0; t < s->tenants.n; t++)
		if (s->tslo_bound[t] >= 0) {
			n++;
			last = t;
		}
	if (n == s->tenants.n)
		snprintf(buf, size, "every tenant's");
	else if (n == 1)
		snprintf(buf, size, "%s's", s->tenants.t[last].name);
	else
		snprintf(buf, size, "every bounded tenant's");
	return buf;
}

/* What the best configuration is, after "best     " (no newline). */
static void best_text(const gp_whatif_results *rs, const gp_cluster *base, long best,
		      gp_sbuf *out)
{
	const gp_whatif_spec *s = rs->spec;
	gp_whatif_config c;
	gp_whatif_shape sh;
	gp_whatif_result m;
	char buf[1024], vb[64];
	int a, first = 1;

	if (best == GP_WHATIF_BEST_UNKNOWN) {
		gp_sbuf_adds(out, "not known yet: the sweep stopped before its end");
		return;
	}
	if (best < 0) {
		gp_sbuf_addf(out, "none: no configuration meets %s%s",
			     bound_text(s, buf, sizeof(buf)), s->nseeds > 1 ? " in every seed" : "");
		if (s->scenario_named)
			gp_sbuf_addf(out, " at every value of %s", scenario_list(s, buf, sizeof(buf)));
		return;
	}
	gp_whatif_config_of(s, (size_t)best, &c);
	gp_whatif_shape_of(s, base, &c, &sh);
	gp_whatif_mean(rs, s->scenario_named ? worst_scenario(rs, (size_t)best) : (size_t)best, &m);
	for (a = 0; a < GP_AX_COUNT; a++)
		if ((shown(s, a) || (a == GP_AX_TENANTS && named_columns(s))) && !s->scenario[a]) {
			gp_sbuf_addf(out, "%s%s", first ? "" : ", ", axis_text(s, &c, a, buf, sizeof(buf)));
			first = 0;
		}
	if (first)
		gp_sbuf_adds(out, "the base configuration");
	gp_sbuf_addf(out, ": %d nodes, %d GPUs, cost %s", s->scenario_named ? sh.nodes : m.nodes,
		     s->scenario_named ? sh.gpus : m.gpus, gp_report_num(buf, sizeof(buf), sh.cost, 3));
	if (s->slo_metric >= 0)
		gp_sbuf_addf(out, "; %s %s", gp_metrics[s->slo_metric].path,
			     fmt_vs(vb, sizeof(vb), s->slo_metric, m.m[s->slo_metric], s->slo_bound));
	if (s->tslo_on && !strcmp(worst_text(s, &c, &m, buf, sizeof(buf)), "-"))
		gp_sbuf_addf(out, "; %s %s 0 s", bounded_text(s, buf, sizeof(buf)),
			     gp_metrics[s->tslo_metric].path);
	else if (s->tslo_on)
		gp_sbuf_addf(out, "; worst tenant %s", buf);
	if (s->scenario_named)
		gp_sbuf_addf(out, " at worst over %s (it meets the SLO at every value)",
			     scenario_list(s, buf, sizeof(buf)));
	else if (s->ntraces > 1)
		gp_sbuf_adds(out, " (first trace; it meets the SLO on every trace)");
}

/* When configurations that differ from the best only in a node-count
 * axis cost more and yet miss the SLO, the metric does not move steadily
 * with that axis (noise of one run, or a real non-monotone effect): the
 * cheapest that meets is then a point a reader should not trust alone.
 * Fills out with the sentence; 0 when there is nothing to say. */
static int unsteady_text(const gp_whatif_results *rs, const gp_cluster *base, long best,
			 gp_sbuf *out)
{
	const gp_whatif_spec *s = rs->spec;
	static const int axes[] = { GP_AX_ADD, GP_AX_REMOVE };
	gp_whatif_config c, o;
	gp_whatif_shape sh, osh;
	size_t k, v, n = 0;
	char buf[256];

	if (best < 0 || s->scenario_named || s->slo_metric < 0)
		return 0;
	gp_whatif_config_of(s, (size_t)best, &c);
	gp_whatif_shape_of(s, base, &c, &sh);
	for (k = 0; k < GP_ARRAY_SIZE(axes); k++) {
		int a = axes[k];

		for (v = 0; v < s->nvalues[a]; v++) {
			size_t cfg;

			if (v == c.v[a])
				continue;
			o = c;
			o.v[a] = v;
			cfg = gp_whatif_config_index(s, &o);
			if (!gp_whatif_results_complete(rs, cfg) || gp_whatif_meets(rs, cfg) != 0)
				continue;
			gp_whatif_shape_of(s, base, &o, &osh);
			if (!(osh.cost > sh.cost))
				continue;
			if (!n++)
				gp_sbuf_addf(out, "%s=", gp_whatif_axis_names[a]);
			else if (n <= 8)
				gp_sbuf_adds(out, ", ");
			if (n <= 8)
				gp_sbuf_adds(out, gp_whatif_value(s, &o, a, buf, sizeof(buf)));
		}
		if (n)
			break;
	}
	if (!n)
		return 0;
	gp_sbuf_addf(out, "%s cost%s more and miss%s the SLO: %s does not move steadily with the "
		     "node count here; read the answer with its neighbours (more seeds, or a "
		     "margin under the bound, make it firmer)", n > 8 ? ", ..." : "", n == 1 ? "s" : "",
		     n == 1 ? "es" : "", gp_metrics[s->slo_metric].path);
	return 1;
}

/* The line under the table that names the best configuration. */
static void text_best(const gp_whatif_results *rs, const gp_cluster *base, long best,
		      gp_sbuf *out)
{
	gp_sbuf note;

	gp_sbuf_adds(out, "\nbest     ");
	best_text(rs, base, best, out);
	gp_sbuf_adds(out, "\n");
	gp_sbuf_init(&note);
	if (unsteady_text(rs, base, best, &note))
		gp_sbuf_addf(out, "note     %s\n", note.buf);
	gp_sbuf_release(&note);
}

/* The table of configurations (complete ones); *shown_rows and
 * *incomplete count those in it and those left out. */
static void answer_table(const gp_whatif_results *rs, const gp_cluster *base, long best,
			 int metric, gp_table *out_t, size_t *shown_out, size_t *incomplete_out)
{
	const gp_whatif_spec *s = rs->spec;
	int cols[8], ncols, a, k, ncol;
	gp_table t;
	size_t row, i, shown_rows = 0, incomplete = 0;

	metric = gp_whatif_answer_metric(s, metric);
	ncols = text_columns(metric, cols);
	ncol = ncols + 3 + gp_whatif_has_slo(s) + s->tslo_on + (int)named_columns(s);
	for (a = 0; a < GP_AX_COUNT; a++)
		ncol += shown(s, a);
	gp_table_init(&t, ncol);
	row = gp_table_row(&t);
	k = 0;
	for (a = 0; a < GP_AX_COUNT; a++)
		if (shown(s, a))
			gp_table_set(&t, row, k++, "%s", gp_whatif_axis_names[a]);
	for (i = 0; i < named_columns(s); i++) {
		char name[512];

		gp_table_set(&t, row, k++, "%s", named_name(s, i, name, sizeof(name)));
	}
	gp_table_set(&t, row, k++, "nodes");
	gp_table_set(&t, row, k++, "GPUs");
	gp_table_set(&t, row, k++, "cost");
	for (i = 0; i < (size_t)ncols; i++)
		gp_table_set(&t, row, k++, "%s", gp_metrics[cols[i]].path);
	if (s->tslo_on)
		gp_table_set(&t, row, k++, "worst tenant");
	if (gp_whatif_has_slo(s))
		gp_table_set(&t, row, k++, "meets");
	for (i = 0; i < s->nconfigs; i++) {
		if (!gp_whatif_results_complete(rs, i)) {
			size_t ns;

			for (ns = 0; ns < s->nseeds; ns++)
				if (gp_whatif_results_get(rs, i * s->nseeds + ns)) {
					incomplete++;
					break;
				}
			continue;
		}
		shown_rows++;
		text_row(rs, base, best, i, cols, ncols, &t);
	}
	*out_t = t;
	*shown_out = shown_rows;
	*incomplete_out = incomplete;
}

void gp_whatif_answer_text(const gp_whatif_results *rs, const gp_cluster *base, long best,
			   int metric, gp_sbuf *out)
{
	const gp_whatif_spec *s = rs->spec;
	gp_table t;
	size_t shown_rows, incomplete;

	answer_table(rs, base, best, metric, &t, &shown_rows, &incomplete);
	if (s->nseeds > 1)
		gp_sbuf_addf(out, "(means over %zu seeds%s; meets = in every seed)\n", s->nseeds,
			     s->nruns_needed < s->nruns ? ", one run where nothing is random" : "");
	gp_table_render(&t, "", out);
	gp_table_release(&t);
	if (incomplete)
		gp_sbuf_addf(out, "(%zu configuration%s with some seeds missing left out)\n", incomplete,
			     incomplete == 1 ? "" : "s");
	if (!shown_rows)
		gp_sbuf_adds(out, "(no configuration has run yet)\n");
	if (gp_whatif_has_slo(s))
		text_best(rs, base, best, out);
}

/* ---- JSON ---- */

static json_t *num(int metric, double v)
{
	if (gp_metrics[metric].kind == GP_MK_COUNT)
		return json_integer((json_int_t)llround(v));
	return json_real(gp_report_round(v, decimals(metric)));
}

static json_t *metrics_json(const gp_whatif_result *r)
{
	json_t *o = json_object();
	int i;

	/* Nested like simulate's JSON: queue_delay.p90 is o.queue_delay.p90. */
	for (i = 0; i < GP_M_SWEPT; i++) {
		const char *dot = strchr(gp_metrics[i].path, '.');

		if (dot) {
			char group[64];
			json_t *g;

			snprintf(group, sizeof(group), "%.*s", (int)(dot - gp_metrics[i].path),
				 gp_metrics[i].path);
			g = json_object_get(o, group);
			if (!g) {
				g = json_object();
				json_object_set_new(o, group, g);
			}
			json_object_set_new(g, dot + 1, num(i, r->m[i]));
		} else {
			json_object_set_new(o, gp_metrics[i].path, num(i, r->m[i]));
		}
	}
	return o;
}

/* The axes of c; which: 1 all, 0 the choice (no scenario axis), -1 the
 * scenario axes only. */
static json_t *axes_json(const gp_whatif_spec *s, const gp_whatif_config *c, int which)
{
	json_t *o = json_object();
	char buf[512];
	size_t k;
	int a;

	for (a = 0; a < GP_AX_COUNT; a++) {
		if (!shown(s, a) || (which == 0 && s->scenario[a]) || (which < 0 && !s->scenario[a]))
			continue;
		if (a == GP_AX_ADD || a == GP_AX_REMOVE)
			json_object_set_new(o, gp_whatif_axis_names[a],
					    json_integer(a == GP_AX_ADD ? s->add.counts[c->v[a]] :
								       s->remove.counts[c->v[a]]));
		else if (a == GP_AX_MTBF)
			json_object_set_new(o, gp_whatif_axis_names[a], json_real(s->mtbf_node[c->v[a]]));
		else
			json_object_set_new(o, gp_whatif_axis_names[a],
					    json_string(gp_whatif_value(s, c, a, buf, sizeof(buf))));
	}
	/* the tenants axis by its columns: "quota.a": 16 */
	for (k = 0; which >= 0 && k < named_columns(s); k++) {
		char name[512];
		double x;

		x = named_value(s, k, c);
		json_object_set_new(o, named_name(s, k, name, sizeof(name)),
				    json_real(x));
	}
	return o;
}

/* Each tenant's figure, seconds: {"a": {"queue_delay": {"p90": 1800}}};
 * null for a tenant without completed jobs. */
static json_t *tenants_json(const gp_whatif_spec *s, const gp_whatif_result *r)
{
	json_t *o = json_object();
	const char *path = gp_metrics[s->tslo_metric].path, *dot = strchr(path, '.');
	char group[64];
	size_t t;

	snprintf(group, sizeof(group), "%.*s", (int)(dot - path), path);
	for (t = 0; t < s->tenants.n; t++) {
		json_t *g = json_object(), *f = json_object();
		double v = r->tenant[t];

		json_object_set_new(f, dot + 1, isfinite(v) ? num(s->tslo_metric, v) : json_null());
		json_object_set_new(g, group, f);
		json_object_set_new(o, s->tenants.t[t].name, g);
	}
	return o;
}

/* The worst tenant of r: name, value, bound. */
static json_t *worst_json(const gp_whatif_spec *s, const gp_whatif_result *r)
{
	double q;
	int t = gp_whatif_quota_worst(s, r, &q);
	json_t *o;

	if (t < 0)
		return json_null();
	o = json_object();
	json_object_set_new(o, "name", json_string(s->tenants.t[t].name));
	json_object_set_new(o, "value", isfinite(r->tenant[t]) ? num(s->tslo_metric, r->tenant[t]) :
								 json_null());
	json_object_set_new(o, "max", json_real(s->tslo_bound[t]));
	return o;
}

json_t *gp_whatif_answer_json(const gp_whatif_results *rs, const gp_cluster *base, long best)
{
	const gp_whatif_spec *s = rs->spec;
	json_t *o = json_object(), *runs = json_array();
	size_t i, k, met = 0, complete = 0;

	for (i = 0; i < s->nconfigs; i++) {
		gp_whatif_config c;
		gp_whatif_shape sh;

		if (!gp_whatif_results_complete(rs, i))
			continue;
		complete++;
		met += gp_whatif_meets(rs, i) == 1;
		gp_whatif_config_of(s, i, &c);
		gp_whatif_shape_of(s, base, &c, &sh);
		for (k = 0; k < gp_whatif_seeds_of(s, i); k++) {
			const gp_whatif_result *r = gp_whatif_results_get(rs, i * s->nseeds + k);
			json_t *e = json_object();
			int m = gp_whatif_meets_run(s, r);

			json_object_set_new(e, "axes", axes_json(s, &c, 1));
			json_object_set_new(e, "seed", json_integer((json_int_t)s->seeds[k]));
			json_object_set_new(e, "nodes", json_integer(r->nodes));
			json_object_set_new(e, "gpus", json_integer(r->gpus));
			json_object_set_new(e, "cost", json_real(gp_report_round(sh.cost, 6)));
			json_object_set_new(e, "metrics", metrics_json(r));
			if (s->have_tenants)
				json_object_set_new(e, "tenants", tenants_json(s, r));
			json_object_set_new(e, "meets_slo", m < 0 ? json_null() : json_boolean(m));
			json_array_append_new(runs, e);
		}
	}
	json_object_set_new(o, "runs", runs);
	if (s->scenario_named) {
		json_t *sc = json_array();
		int a;

		for (a = 0; a < GP_AX_COUNT; a++)
			if (s->scenario[a] && s->nvalues[a] > 1)
				json_array_append_new(sc, json_string(gp_whatif_axis_names[a]));
		json_object_set_new(o, "scenario", sc);
	}
	if (best >= 0) {
		gp_whatif_config c;
		gp_whatif_shape sh;
		gp_whatif_result m;
		json_t *b = json_object();

		gp_whatif_config_of(s, (size_t)best, &c);
		gp_whatif_shape_of(s, base, &c, &sh);
		gp_whatif_mean(rs, (size_t)best, &m);
		json_object_set_new(b, "axes", axes_json(s, &c, 0));
		json_object_set_new(b, "metrics", metrics_json(&m));
		json_object_set_new(b, "nodes", json_integer(m.nodes));
		json_object_set_new(b, "gpus", json_integer(m.gpus));
		json_object_set_new(b, "cost", json_real(gp_report_round(sh.cost, 6)));
		json_object_set_new(b, "seeds", json_integer((json_int_t)gp_whatif_seeds_of(s, (size_t)best)));
		if (s->have_tenants)
			json_object_set_new(b, "tenants", tenants_json(s, &m));
		if (s->tslo_on)
			json_object_set_new(b, "worst_tenant", worst_json(s, &m));
		if (s->scenario_named) {
			json_t *w = json_object();
			size_t wc = worst_scenario(rs, (size_t)best);

			gp_whatif_config_of(s, wc, &c);
			gp_whatif_mean(rs, wc, &m);
			json_object_set_new(w, "axes", axes_json(s, &c, -1));
			json_object_set_new(w, "metrics", metrics_json(&m));
			json_object_set_new(b, "worst_scenario", w);
		}
		json_object_set_new(o, "best", b);
	} else {
		json_object_set_new(o, "best", json_null());
	}
	if (gp_whatif_has_slo(s)) {
		json_t *slo = json_object();

		if (s->slo_metric >= 0) {
			json_object_set_new(slo, "metric", json_string(gp_metrics[s->slo_metric].path));
			json_object_set_new(slo, s->slo_max ? "max" : "min", json_real(s->slo_bound));
		}
		if (s->tslo_on) {
			json_t *ts = json_object(), *mx = json_object();
			size_t t;

			for (t = 0; t < s->tenants.n; t++)
				if (s->tslo_bound[t] >= 0)
					json_object_set_new(mx, s->tenants.t[t].name, json_real(s->tslo_bound[t]));
			json_object_set_new(ts, "metric", json_string(gp_metrics[s->tslo_metric].path));
			json_object_set_new(ts, "max", mx);
			json_object_set_new(slo, "tenants", ts);
		}
		json_object_set_new(slo, "configurations_meeting", json_integer((json_int_t)met));
		json_object_set_new(slo, "configurations", json_integer((json_int_t)complete));
		json_object_set_new(o, "slo", slo);
	} else {
		json_object_set_new(o, "slo", json_null());
	}
	return o;
}

/* ---- CSV ---- */

void gp_whatif_answer_csv(const gp_whatif_results *rs, const gp_cluster *base, gp_sbuf *out)
{
	const gp_whatif_spec *s = rs->spec;
	size_t i, k;
	int a, m;
	char buf[512];

	for (a = 0; a < GP_AX_COUNT; a++)
		if (csv_column(s, a))
			gp_sbuf_addf(out, "%s,", gp_whatif_axis_names[a]);
	for (k = 0; k < named_columns(s); k++) {
		gp_csv_field(out, named_name(s, k, buf, sizeof(buf)));
		gp_sbuf_adds(out, ",");
	}
	gp_sbuf_adds(out, "seed,nodes,gpus,cost");
	for (m = 0; m < GP_M_SWEPT; m++)
		gp_sbuf_addf(out, ",%s%s", gp_metrics[m].column,
			     gp_metrics[m].kind == GP_MK_SECONDS ? "_s" : "");
	for (k = 0; s->have_tenants && k < s->tenants.n; k++) {
		gp_sbuf_adds(out, ",");
		gp_csv_field(out, gp_whatif_quota_figure_column(s, k, buf, sizeof(buf) - 2));
		gp_sbuf_adds(out, "_s");
	}
	gp_sbuf_adds(out, s->scenario_named ? ",meets_slo,choice_meets_slo\n" : ",meets_slo\n");
	for (i = 0; i < s->nconfigs; i++) {
		gp_whatif_config c;
		gp_whatif_shape sh;

		if (!gp_whatif_results_complete(rs, i))
			continue;
		gp_whatif_config_of(s, i, &c);
		gp_whatif_shape_of(s, base, &c, &sh);
		for (k = 0; k < gp_whatif_seeds_of(s, i); k++) {
			const gp_whatif_result *r = gp_whatif_results_get(rs, i * s->nseeds + k);
			int ok = gp_whatif_meets_run(s, r);

			size_t j;

			for (a = 0; a < GP_AX_COUNT; a++) {
				if (!csv_column(s, a))
					continue;
				gp_csv_field(out, gp_whatif_value(s, &c, a, buf, sizeof(buf)));
				gp_sbuf_adds(out, ",");
			}
			for (j = 0; j < named_columns(s); j++) {
				double x;

				x = named_value(s, j, &c);
				gp_sbuf_addf(out, "%.12g,", x);
			}
			gp_sbuf_addf(out, "%llu,%d,%d,%s", (unsigned long long)s->seeds[k], r->nodes,
				     r->gpus, gp_report_num(buf, sizeof(buf), sh.cost, 6));
			for (m = 0; m < GP_M_SWEPT; m++)
				gp_sbuf_addf(out, ",%s", gp_report_num(buf, sizeof(buf), r->m[m], decimals(m)));
			for (j = 0; s->have_tenants && j < s->tenants.n; j++)
				gp_sbuf_addf(out, ",%s", isnan(r->tenant[j]) ? "" : isinf(r->tenant[j]) ? "inf" :
					     gp_report_num(buf, sizeof(buf), r->tenant[j], 3));
			gp_sbuf_addf(out, ",%s", ok < 0 ? "" : ok ? "yes" : "no");
			if (s->scenario_named) {
				/* the choice this run is a scenario of, over every scenario */
				int all = gp_whatif_meets_all(rs, i);

				gp_sbuf_addf(out, ",%s", all < 0 ? "" : all ? "yes" : "no");
			}
			gp_sbuf_adds(out, "\n");
		}
	}
}

/* ---- SVG ---- */

/* The chart's x axis: the node-count axis when there is one, else the
 * first axis with several values; -1 for none. */
static int svg_x_axis(const gp_whatif_spec *s)
{
	int a;

	if (s->add.n > 1)
		return GP_AX_ADD;
	if (s->remove.n > 1)
		return GP_AX_REMOVE;
	for (a = 0; a < GP_AX_COUNT; a++)
		if (s->nvalues[a] > 1)
			return a;
	return -1;
}

/* The x of value i of axis xa: a node count, the value of a tenants axis
 * of one column (a quota, a weight), else i + 1. */
static double svg_x_of(const gp_whatif_spec *s, int xa, size_t i)
{
	gp_whatif_config c;
	double x;

	if (xa == GP_AX_ADD)
		return (double)s->add.counts[i];
	if (xa == GP_AX_REMOVE)
		return (double)s->remove.counts[i];
	if (xa == GP_AX_TENANTS && named_columns(s) == 1) {
		memset(&c, 0, sizeof(c));
		c.v[xa] = i;
		x = named_value(s, 0, &c);
		return x;
	}
	return (double)(i + 1);
}

/* The name of axis a in titles: the tenants axis by its column when it
 * has one. */
static const char *axis_label(const gp_whatif_spec *s, int a, char *buf, size_t size)
{

	if (a == GP_AX_TENANTS && named_columns(s) == 1)
		return named_name(s, 0, buf, size);
	if (a == GP_AX_TENANTS && s->ntaxes == 1)
		return s->taxes[0].name;
	if (a == GP_AX_TENANTS)
		return "tenant quotas and weights";
	return a >= 0 ? gp_whatif_axis_names[a] : "nothing";
}

/* Line l: the configurations along axis xa with the other axes fixed,
 * labelled by those axes' values; x, y and the label are the caller's to
 * free. */
static void svg_line(const gp_whatif_results *rs, int xa, size_t l, int metric, double div,
		     gp_svg_series *ser, double **x, double **y, char **label)
{
	const gp_whatif_spec *s = rs->spec;
	size_t i, n = xa >= 0 ? s->nvalues[xa] : 1;
	gp_whatif_config c;
	gp_sbuf lb;
	char buf[256];
	int a, any = 0;

	*x = gp_xcalloc(n, sizeof(double));
	*y = gp_xcalloc(n, sizeof(double));
	gp_whatif_config_of(s, xa >= 0 ? gp_whatif_search_config(s, xa, l, 0) : 0, &c);
	gp_sbuf_init(&lb);
	for (a = 0; a < GP_AX_COUNT; a++)
		if (a != xa && s->nvalues[a] > 1) {
			gp_sbuf_addf(&lb, "%s%s", any ? ", " : "", axis_text(s, &c, a, buf, sizeof(buf)));
			any = 1;
		}
	*label = gp_sbuf_detach(&lb);
	ser->label = s->nconfigs / n > 1 ? *label : NULL;
	ser->x = *x;
	ser->y = *y;
	ser->n = 0;
	for (i = 0; i < n; i++) {
		size_t cfg = xa >= 0 ? gp_whatif_search_config(s, xa, l, i) : 0;
		gp_whatif_result m;

		if (!gp_whatif_results_complete(rs, cfg))
			continue;
		gp_whatif_mean(rs, cfg, &m);
		(*x)[ser->n] = svg_x_of(s, xa, i);
		(*y)[ser->n++] = m.m[metric] / div;
	}
}

/* The x range and title: node counts, or the values numbered 1..n. */
static void svg_x_range(const gp_whatif_spec *s, int xa, double *xmin, double *xmax,
			char *xtitle, size_t size)
{
	char buf[256];

	*xmin = 0;
	*xmax = 1;
	if (xa == GP_AX_TENANTS && named_columns(s) == 1) {
		*xmin = svg_x_of(s, xa, 0);
		*xmax = svg_x_of(s, xa, s->nvalues[xa] - 1);
		snprintf(xtitle, size, "%s", axis_label(s, xa, buf, sizeof(buf)));
	} else if (xa == GP_AX_ADD || xa == GP_AX_REMOVE) {
		const gp_whatif_nodes *nd = xa == GP_AX_ADD ? &s->add : &s->remove;

		*xmin = (double)nd->counts[0];
		*xmax = (double)nd->counts[nd->n - 1];
		snprintf(xtitle, size, "%s (nodes of type %s)", gp_whatif_axis_names[xa], nd->type);
	} else if (xa >= 0) {
		gp_sbuf lb;
		gp_whatif_config c;
		size_t i, n = s->nvalues[xa];

		gp_sbuf_init(&lb);
		memset(&c, 0, sizeof(c));
		for (i = 0; i < n; i++) {
			c.v[xa] = i;
			gp_sbuf_addf(&lb, "%s%zu=%s", i ? ", " : "", i + 1,
				     gp_whatif_value(s, &c, xa, buf, sizeof(buf)));
		}
		snprintf(xtitle, size, "%s (%s)", axis_label(s, xa, buf, sizeof(buf)), lb.buf);
		gp_sbuf_release(&lb);
		*xmin = 1;
		*xmax = (double)n;
	} else {
		snprintf(xtitle, size, "the base configuration");
	}
	if (*xmax <= *xmin)
		*xmax = *xmin + 1;
}

void gp_whatif_answer_svg(const gp_whatif_results *rs, long best, int metric, gp_sbuf *out)
{
	const gp_whatif_spec *s = rs->spec;
	int xa;
	size_t nlines, l, ns = 0;
	gp_svg_series *ser;
	gp_svg_chart ch;
	double **xs, **ys, div = 1, xmin, xmax;
	char **labels, title[1024], ytitle[160], xtitle[256], buf[768], slo[300], sub[64], lab[256];
	int log_time;
	size_t floored = 0;

	metric = gp_whatif_answer_metric(s, metric);
	xa = svg_x_axis(s);
	nlines = s->nconfigs / (xa >= 0 ? s->nvalues[xa] : 1);
	/* Times span minutes to days: on a linear axis in days a 1-hour SLO
	 * lies on the axis, so times go on a log axis in seconds (under 1 s
	 * drawn at 1 s). */
	log_time = gp_metrics[metric].kind == GP_MK_SECONDS;
	ser = gp_xcalloc(nlines + 1, sizeof(*ser));
	xs = gp_xcalloc(nlines, sizeof(*xs));
	ys = gp_xcalloc(nlines, sizeof(*ys));
	labels = gp_xcalloc(nlines, sizeof(*labels));
	for (l = 0; l < nlines; l++) {
		size_t i;

		svg_line(rs, xa, l, metric, div, &ser[ns++], &xs[l], &ys[l], &labels[l]);
		for (i = 0; log_time && i < ser[l].n; i++)
			if (ys[l][i] < 1) {
				ys[l][i] = 1;
				floored++;
			}
	}
	svg_x_range(s, xa, &xmin, &xmax, xtitle, sizeof(xtitle));
	memset(&ch, 0, sizeof(ch));
	if (s->slo_metric == metric) {
		snprintf(slo, sizeof(slo), "SLO: %s", metric_bound_text(s, buf, sizeof(buf)));
		ch.hline = s->slo_bound / div;
		ch.hline_label = slo;
	}
	if (best >= 0) {
		/* with scenario axes: the choice where it is worst, the point
		 * the headline gives */
		size_t at = s->scenario_named ? worst_scenario(rs, (size_t)best) : (size_t)best;
		gp_whatif_config c;
		gp_whatif_result m;

		gp_whatif_config_of(s, at, &c);
		gp_whatif_mean(rs, at, &m);
		ch.point_x = xa >= 0 ? svg_x_of(s, xa, c.v[xa]) : xmin;
		ch.point_y = m.m[metric] / div;
		if (log_time && ch.point_y < 1)
			ch.point_y = 1;
		ch.point_label = s->scenario_named ? "chosen: the cheapest that meets the SLO, at its "
						     "worst scenario" : "chosen: the cheapest that meets the SLO";
	}
	snprintf(ytitle, sizeof(ytitle), "%s%s", gp_metrics[metric].path, log_time ? " (log scale)" : "");
	if (floored)
		snprintf(sub, sizeof(sub), "%zu value%s under 1 s drawn at 1 s", floored,
			 floored == 1 ? "" : "s");
	if (gp_whatif_has_slo(s))
		snprintf(title, sizeof(title), "what-if: %s against %s (SLO %s)", gp_metrics[metric].path,
			 axis_label(s, xa, lab, sizeof(lab)), bound_text(s, buf, sizeof(buf)));
	else
		snprintf(title, sizeof(title), "what-if: %s against %s", gp_metrics[metric].path,
			 axis_label(s, xa, lab, sizeof(lab)));
	ch.title = title;
	ch.subtitle = floored ? sub : NULL;
	ch.x_title = xtitle;
	ch.y_title = ytitle;
	ch.x_min = xmin;
	ch.x_max = xmax;
	ch.set_x = 1;
	ch.y_percent = gp_metrics[metric].kind == GP_MK_RATIO;
	ch.y_log = log_time;
	ch.y_log_time = log_time ? 1 : 0;
	ch.x_integer = xa >= 0;   /* node counts, or values numbered 1..n */
	ch.y_integer = gp_metrics[metric].kind == GP_MK_COUNT;
	ch.series = ser;
	ch.nseries = (int)ns;
	ch.legend = GP_LEGEND_TOP_RIGHT;
	gp_svg_line_chart(&ch, out);
	for (l = 0; l < nlines; l++) {
		free(xs[l]);
		free(ys[l]);
		free(labels[l]);
	}
	free(xs);
	free(ys);
	free(labels);
	free(ser);
}

/* ---- HTML ---- */

void gp_whatif_answer_html(const gp_whatif_results *rs, const gp_cluster *base, long best,
			   int metric, const char *title, const char *const *names,
			   const char *const *values, size_t n, gp_sbuf *out)
{
	const gp_whatif_spec *s = rs->spec;
	gp_html h;
	gp_table t;
	gp_sbuf sb;
	size_t shown_rows, incomplete;
	char buf[256];

	gp_html_begin(&h, out, title);
	gp_html_inputs(&h, names, values, n);
	gp_sbuf_init(&sb);
	if (gp_whatif_has_slo(s)) {
		gp_sbuf_addf(&sb, "The cheapest configuration that meets %s%s", bound_text(s, buf, sizeof(buf)),
			     s->nseeds > 1 ? " in every seed" : "");
		if (s->scenario_named)
			gp_sbuf_addf(&sb, " at every value of %s", scenario_list(s, buf, sizeof(buf)));
		gp_sbuf_adds(&sb, ": ");
		best_text(rs, base, best, &sb);
		gp_sbuf_adds(&sb, ".");
	} else {
		gp_sbuf_addf(&sb, "%zu configurations without an SLO: the table and the chart compare them.",
			     s->nconfigs);
	}
	gp_html_headline(&h, sb.buf);
	gp_sbuf_release(&sb);
	if (gp_whatif_has_slo(s)) {
		gp_sbuf_init(&sb);
		gp_sbuf_adds(&sb, "Note: ");
		if (unsteady_text(rs, base, best, &sb)) {
			gp_sbuf_adds(&sb, ".");
			gp_html_para(&h, sb.buf);
		}
		gp_sbuf_release(&sb);
	}
	gp_html_section(&h, "Frontier");
	gp_sbuf_init(&sb);
	gp_whatif_answer_svg(rs, best, metric, &sb);
	gp_html_svg(&h, sb.buf, sb.len);
	gp_sbuf_release(&sb);
	if (s->scenario_named) {
		gp_sbuf_init(&sb);
		gp_sbuf_addf(&sb, "Scenario axes (%s): conditions the operator does not control. A "
			     "configuration is chosen only when it meets the SLO at every one of "
			     "their values; the chosen point is ringed where it does worst, the "
			     "value the headline gives.", scenario_list(s, buf, sizeof(buf)));
		gp_html_para(&h, sb.buf);
		gp_sbuf_release(&sb);
	}
	if (s->nruns_needed < s->nruns) {
		snprintf(buf, sizeof(buf), "%zu of %zu configurations draw no random number: each ran "
			 "its first seed only.", s->nconfigs - s->nrandom, s->nconfigs);
		gp_html_para(&h, buf);
	}
	gp_html_section(&h, "Configurations");
	answer_table(rs, base, best, metric, &t, &shown_rows, &incomplete);
	gp_html_table(&h, &t, s->nseeds > 1 ? "Means over the seeds; meets = in every seed; * the chosen one" :
				  gp_whatif_has_slo(s) ? "* marks the chosen configuration" : NULL);
	gp_table_release(&t);
	if (incomplete) {
		snprintf(buf, sizeof(buf), "%zu configuration%s with some seeds missing left out.", incomplete,
			 incomplete == 1 ? "" : "s");
		gp_html_para(&h, buf);
	}
	if (!shown_rows)
		gp_html_para(&h, "No configuration has run yet.");
	gp_html_end(&h);
}
