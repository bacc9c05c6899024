/* Reports of the environment simulation (envs_report.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/report/envs_report.h"
#include "gpuplan/report/report.h"

static json_t *real(double x, int decimals)
{
	return json_real(gp_report_round(x, decimals));
}

/* Name of a result's mode: "static", "bind-at-start", "idle-timeout:30". */
static const char *mode_name(const gp_envsim_result *r, char *buf, size_t size)
{
	char n[32];

	switch (r->mode) {
	case GP_ENVSIM_STATIC:
		snprintf(buf, size, "static");
		break;
	case GP_ENVSIM_BIND:
		snprintf(buf, size, "bind-at-start");
		break;
	default:
		snprintf(buf, size, "idle-timeout:%s", gp_report_num(n, sizeof(n), r->idle_timeout_s / 60.0, 3));
		break;
	}
	return buf;
}

static json_t *dist_json(const gp_envsim_dist *d)
{
	json_t *o = json_object();

	json_object_set_new(o, "mean", real(d->mean, 3));
	json_object_set_new(o, "p50", real(d->p50, 3));
	json_object_set_new(o, "p90", real(d->p90, 3));
	json_object_set_new(o, "p99", real(d->p99, 3));
	json_object_set_new(o, "max", real(d->max, 3));
	return o;
}

static double ratio(double a, double b)
{
	return b > 0 ? a / b : 0;
}

/* One mode's object: every key of gpuplan(1) "Environment report";
 * static_peak is the peak of the static mode on the same inputs. */
static json_t *mode_json(const gp_report_envs_ident *id, const gp_envsim_result *r, int static_peak)
{
	json_t *o = json_object(), *f = json_object(), *u = json_object();
	const gp_envsim_config *cfg = id->cfg;
	char mode[48];
	int k;

	json_object_set_new(o, "mode", json_string(mode_name(r, mode, sizeof(mode))));
	json_object_set_new(o, "task_threshold", json_integer(r->threshold));
	json_object_set_new(o, "on_bind_failure", json_string(cfg->fail_on_bind_failure ? "fail" : "wait"));
	json_object_set_new(o, "heartbeat_period_s", real(cfg->hb_period_s, 6));
	json_object_set_new(o, "heartbeat_timeout_s", real(cfg->hb_timeout_s, 6));
	json_object_set_new(o, "client_failures_per_hour", real(cfg->client_failures_per_hour, 6));
	json_object_set_new(o, "environments", json_integer((json_int_t)r->envs));
	json_object_set_new(o, "environments_with_gpus", json_integer((json_int_t)r->envs_with_gpus));
	json_object_set_new(o, "tasks", json_integer((json_int_t)r->tasks));
	json_object_set_new(o, "gpu_tasks", json_integer((json_int_t)r->gpu_tasks));
	json_object_set_new(o, "cpu_only_tasks", json_integer((json_int_t)r->cpu_only_tasks));
	json_object_set_new(o, "tasks_completed", json_integer((json_int_t)r->tasks_completed));
	json_object_set_new(o, "tasks_failed", json_integer((json_int_t)r->tasks_failed));
	json_object_set_new(o, "tasks_killed", json_integer((json_int_t)r->tasks_killed));
	json_object_set_new(o, "tasks_unbound", json_integer((json_int_t)r->tasks_unbound));
	json_object_set_new(o, "tasks_waited", json_integer((json_int_t)r->waited));
	json_object_set_new(o, "reserved_gpu_minutes", real(r->reserved_gpu_s / 60.0, 3));
	json_object_set_new(o, "busy_gpu_minutes", real(r->busy_gpu_s / 60.0, 3));
	json_object_set_new(o, "bound_gpu_minutes", real(r->bound_gpu_s / 60.0, 3));
	json_object_set_new(o, "weighted_busy_gpu_minutes", real(r->weighted_busy_gpu_s / 60.0, 3));
	json_object_set_new(o, "lost_gpu_minutes", real(r->lost_gpu_s / 60.0, 3));
	json_object_set_new(o, "peak_gpus", json_integer(r->peak_gpus));
	json_object_set_new(o, "peak_at_s", real(r->peak_at, 3));
	json_object_set_new(o, "static_peak_gpus", json_integer(static_peak));
	json_object_set_new(o, "gpus_saved", json_integer(static_peak - r->peak_gpus));
	json_object_set_new(o, "rebinds", json_integer((json_int_t)r->rebinds));
	json_object_set_new(o, "bind_operations", json_integer((json_int_t)r->bind_operations));
	for (k = 1; k < GP_EB_REASONS; k++)
		json_object_set_new(f, gp_envbind_reason_name(k), json_integer((json_int_t)r->bind_failures[k]));
	json_object_set_new(o, "bind_failures", f);
	json_object_set_new(o, "task_wait_s", dist_json(&r->wait_s));
	json_object_set_new(o, "task_delay_s", dist_json(&r->delay_s));
	json_object_set_new(o, "reclaimed_by_heartbeat", json_integer((json_int_t)r->reclaimed_by_heartbeat));
	json_object_set_new(o, "reclaims", json_integer((json_int_t)r->reclaims));
	json_object_set_new(o, "client_failures", json_integer((json_int_t)r->client_failures));
	json_object_set_new(u, "busy_of_bound", real(ratio(r->busy_gpu_s, r->bound_gpu_s), 6));
	json_object_set_new(u, "busy_of_reserved", real(ratio(r->busy_gpu_s, r->reserved_gpu_s), 6));
	json_object_set_new(u, "weighted_of_bound", real(ratio(r->weighted_busy_gpu_s, r->bound_gpu_s), 6));
	json_object_set_new(u, "weighted_of_reserved", real(ratio(r->weighted_busy_gpu_s, r->reserved_gpu_s), 6));
	json_object_set_new(o, "utilization", u);
	json_object_set_new(o, "utilization_weighted", real(ratio(r->weighted_busy_gpu_s, r->bound_gpu_s), 6));
	return o;
}

json_t *gp_report_envs_doc(const gp_report_envs_ident *id, const gp_envsim_result *const *r, size_t n,
			   int static_peak)
{
	json_t *o = json_object(), *a = json_array();
	size_t i;

	json_object_set_new(o, "trace", json_string(id->trace ? id->trace : ""));
	json_object_set_new(o, "trace_format", json_string(id->trace_format ? id->trace_format : ""));
	if (id->envs_file)
		json_object_set_new(o, "environments_file", json_string(id->envs_file));
	json_object_set_new(o, "cluster", json_string(id->cluster ? id->cluster : ""));
	json_object_set_new(o, "cluster_nodes", json_integer(id->cluster_nodes));
	json_object_set_new(o, "cluster_gpus", json_integer(id->cluster_gpus));
	json_object_set_new(o, "gpus_used", json_integer(id->max_gpus > 0 && id->max_gpus < id->cluster_gpus
							 ? id->max_gpus : id->cluster_gpus));
	json_object_set_new(o, "seed", json_integer((json_int_t)id->cfg->seed));
	for (i = 0; i < n; i++)
		json_array_append_new(a, mode_json(id, r[i], static_peak));
	if (n)
		json_object_set_new(o, "environments", mode_json(id, r[0], static_peak));
	json_object_set_new(o, "environments_by_mode", a);
	return o;
}

/* ---- text ---- */

static void row_num(gp_table *t, const char *name, const gp_envsim_result *const *r, size_t n,
		    double (*get)(const gp_envsim_result *, int), int sp, int dec)
{
	size_t row = gp_table_row(t), i;
	char b[64];

	gp_table_set(t, row, 0, "%s", name);
	/* every cell of a row at its decimals: "100.0" beside "25.7" */
	for (i = 0; i < n; i++)
		if (dec > 0)
			gp_table_set(t, row, (int)i + 1, "%.*f", dec, gp_report_round(get(r[i], sp), dec));
		else
			gp_table_set(t, row, (int)i + 1, "%s", gp_report_num(b, sizeof(b), get(r[i], sp), 0));
}

static void row_dur(gp_table *t, const char *name, const gp_envsim_result *const *r, size_t n, size_t off)
{
	size_t row = gp_table_row(t), i;
	char b[64];

	gp_table_set(t, row, 0, "%s", name);
	for (i = 0; i < n; i++)
		/* off is the offsetof of a double member (.cppcheck-suppress) */
		gp_table_set(t, row, (int)i + 1, "%s",
			     gp_report_duration(b, sizeof(b), *(const double *)((const char *)r[i] + off)));
}

static double g_reserved(const gp_envsim_result *r, int sp) { (void)sp; return r->reserved_gpu_s / 60.0; }
static double g_bound(const gp_envsim_result *r, int sp) { (void)sp; return r->bound_gpu_s / 60.0; }
static double g_busy(const gp_envsim_result *r, int sp) { (void)sp; return r->busy_gpu_s / 60.0; }
static double g_wbusy(const gp_envsim_result *r, int sp) { (void)sp; return r->weighted_busy_gpu_s / 60.0; }
static double g_peak(const gp_envsim_result *r, int sp) { (void)sp; return r->peak_gpus; }
static double g_saved(const gp_envsim_result *r, int sp) { return sp - r->peak_gpus; }
static double g_ubusy(const gp_envsim_result *r, int sp) { (void)sp; return 100 * ratio(r->busy_gpu_s, r->bound_gpu_s); }
static double g_uw(const gp_envsim_result *r, int sp) { (void)sp; return 100 * ratio(r->weighted_busy_gpu_s, r->bound_gpu_s); }
static double g_rebinds(const gp_envsim_result *r, int sp) { (void)sp; return (double)r->rebinds; }
static double g_ops(const gp_envsim_result *r, int sp) { (void)sp; return (double)r->bind_operations; }
static double g_waited(const gp_envsim_result *r, int sp) { (void)sp; return (double)r->waited; }
static double g_failed(const gp_envsim_result *r, int sp) { (void)sp; return (double)r->tasks_failed; }
static double g_killed(const gp_envsim_result *r, int sp) { (void)sp; return (double)r->tasks_killed; }
static double g_unbound(const gp_envsim_result *r, int sp) { (void)sp; return (double)r->tasks_unbound; }
static double g_reclaimed(const gp_envsim_result *r, int sp) { (void)sp; return (double)r->reclaimed_by_heartbeat; }
static double g_deaths(const gp_envsim_result *r, int sp) { (void)sp; return (double)r->client_failures; }
static double g_lost(const gp_envsim_result *r, int sp) { (void)sp; return r->lost_gpu_s / 60.0; }

/* A bind failure's first reason as the binding rule says it (gpuplan(1),
 * Environments); the JSON and `env bind` keep the codes. */
static const char *bind_failure_words(int k)
{
	switch (k) {
	case GP_EB_QUOTA_COUNT:
		return "over the GPU quota";
	case GP_EB_MEMORY_QUOTA:
		return "over the memory quota";
	case GP_EB_NO_GPU_UNDER_THRESHOLD:
		return "no GPU under the task threshold";
	case GP_EB_GPU_MEMORY:
		return "no GPU with the memory free";
	default:
		return gp_envbind_reason_name(k);
	}
}

void gp_report_envs_text(const gp_report_envs_ident *id, const gp_envsim_result *const *r, size_t n,
			 int static_peak, gp_sbuf *out)
{
	gp_table t;
	size_t i, row;
	int k;
	char b[64];
	const gp_envsim_config *cfg = id->cfg;

	gp_sbuf_addf(out, "trace    %s (%s, %zu environments, %zu with GPUs, %zu tasks, %zu without GPUs)\n",
		     id->trace, id->trace_format ? id->trace_format : "?", n ? r[0]->envs : 0,
		     n ? r[0]->envs_with_gpus : 0, n ? r[0]->tasks : 0, n ? r[0]->cpu_only_tasks : 0);
	if (id->envs_file)
		gp_sbuf_addf(out, "envs     %s\n", id->envs_file);
	gp_sbuf_addf(out, "cluster  %s (%d nodes, %d GPUs", id->cluster, id->cluster_nodes, id->cluster_gpus);
	if (id->max_gpus > 0 && id->max_gpus < id->cluster_gpus)
		gp_sbuf_addf(out, "; only the first %d used", id->max_gpus);
	gp_sbuf_addf(out, ")\nrules    task threshold %d, bind failure: %s, heartbeat every %s s, reclaim after %s",
		     cfg->threshold, cfg->fail_on_bind_failure ? "fail" : "wait",
		     gp_report_num(b, sizeof(b), cfg->hb_period_s, 3), gp_report_num(b + 32, 32, cfg->hb_timeout_s, 3));
	gp_sbuf_adds(out, " s");
	if (cfg->client_failures_per_hour > 0)
		gp_sbuf_addf(out, ", client failures %s per environment-hour (seed %llu)",
			     gp_report_num(b, sizeof(b), cfg->client_failures_per_hour, 6),
			     (unsigned long long)cfg->seed);
	gp_sbuf_adds(out, "\n\n");

	gp_table_init(&t, (int)n + 1);
	row = gp_table_row(&t);
	gp_table_set(&t, row, 0, "%s", "");
	for (i = 0; i < n; i++)
		gp_table_set(&t, row, (int)i + 1, "%s", mode_name(r[i], b, sizeof(b)));
	row_num(&t, "reserved GPU-minutes", r, n, g_reserved, static_peak, 0);
	row_num(&t, "bound GPU-minutes", r, n, g_bound, static_peak, 0);
	row_num(&t, "busy GPU-minutes (in tasks)", r, n, g_busy, static_peak, 0);
	row_num(&t, "  x cells' utilization", r, n, g_wbusy, static_peak, 0);
	row_num(&t, "busy / bound %", r, n, g_ubusy, static_peak, 1);
	row_num(&t, "weighted busy / bound %", r, n, g_uw, static_peak, 1);
	row_num(&t, "peak GPUs bound", r, n, g_peak, static_peak, 0);
	row_num(&t, "GPUs saved vs static", r, n, g_saved, static_peak, 0);
	row_num(&t, "rebinds", r, n, g_rebinds, static_peak, 0);
	row_num(&t, "GPU bindings made", r, n, g_ops, static_peak, 0);
	row_num(&t, "tasks that waited", r, n, g_waited, static_peak, 0);
	row_dur(&t, "wait mean", r, n, offsetof(gp_envsim_result, wait_s.mean));
	row_dur(&t, "wait p50", r, n, offsetof(gp_envsim_result, wait_s.p50));
	row_dur(&t, "wait p90", r, n, offsetof(gp_envsim_result, wait_s.p90));
	row_dur(&t, "wait p99", r, n, offsetof(gp_envsim_result, wait_s.p99));
	row_dur(&t, "wait max", r, n, offsetof(gp_envsim_result, wait_s.max));
	row_dur(&t, "delay vs trace p99", r, n, offsetof(gp_envsim_result, delay_s.p99));
	row_num(&t, "tasks failed", r, n, g_failed, static_peak, 0);
	row_num(&t, "tasks never bound", r, n, g_unbound, static_peak, 0);
	row = gp_table_row(&t);
	gp_table_set(&t, row, 0, "tasks whose binding failed");
	for (i = 0; i < n; i++) {
		size_t all = 0;

		for (k = 1; k < GP_EB_REASONS; k++)
			all += r[i]->bind_failures[k];
		gp_table_set(&t, row, (int)i + 1, "%zu", all);
	}
	for (k = 1; k < GP_EB_REASONS; k++) {
		row = gp_table_row(&t);
		gp_table_set(&t, row, 0, "  %s", bind_failure_words(k));
		for (i = 0; i < n; i++)
			gp_table_set(&t, row, (int)i + 1, "%zu", r[i]->bind_failures[k]);
	}
	if (cfg->client_failures_per_hour > 0 || cfg->ndeaths) {
		row_num(&t, "client failures", r, n, g_deaths, static_peak, 0);
		row_num(&t, "GPUs reclaimed by heartbeat", r, n, g_reclaimed, static_peak, 0);
		row_num(&t, "tasks killed by reclaim", r, n, g_killed, static_peak, 0);
		row_num(&t, "GPU-minutes of dead clients", r, n, g_lost, static_peak, 1);
	}
	gp_table_render(&t, "", out);
	gp_table_release(&t);
}

/* ---- SVG and CSV ---- */

void gp_report_envs_svg(const gp_report_envs_ident *id, const gp_envsim_result *const *r, size_t n,
			gp_sbuf *out)
{
	gp_svg_series *se = gp_xcalloc(n ? n : 1, sizeof(*se));
	double **x = gp_xcalloc(n ? n : 1, sizeof(*x)), **y = gp_xcalloc(n ? n : 1, sizeof(*y));
	char **labels = gp_xcalloc(n ? n : 1, sizeof(*labels));
	double span = 0, div;
	const char *unit;
	gp_svg_chart c;
	char *title, *xt, b[48];
	size_t i, k;

	for (i = 0; i < n; i++)
		if (r[i]->nbuckets * r[i]->dt > span)
			span = (double)r[i]->nbuckets * r[i]->dt;
	unit = gp_report_time_unit(span, &div);
	for (i = 0; i < n; i++) {
		size_t m = r[i]->nbuckets;

		x[i] = gp_xmalloc((m + 1) * sizeof(double));
		y[i] = gp_xmalloc((m + 1) * sizeof(double));
		for (k = 0; k < m; k++) {
			x[i][k] = (double)k * r[i]->dt / div;
			y[i][k] = r[i]->bucket_max[k];
		}
		x[i][m] = (double)m * r[i]->dt / div;
		y[i][m] = m ? r[i]->bucket_max[m - 1] : 0;
		labels[i] = gp_xasprintf("%s (peak %d)", mode_name(r[i], b, sizeof(b)), r[i]->peak_gpus);
		se[i].label = labels[i];
		se[i].x = x[i];
		se[i].y = y[i];
		se[i].n = m + 1;
		se[i].step = 1;
	}
	{
		const char *t = id->trace ? id->trace : "trace", *base = strrchr(t, '/');

		title = gp_xasprintf("%s", base && base[1] ? base + 1 : t);
	}
	xt = gp_xasprintf("time since the first environment starts (%s)", unit);
	memset(&c, 0, sizeof(c));
	c.title = "GPUs bound over time";
	c.subtitle = title;
	c.x_title = xt;
	c.y_title = "GPUs bound (most in each interval)";
	c.legend = GP_LEGEND_TOP_LEFT;
	c.series = se;
	c.nseries = (int)n;
	gp_svg_line_chart(&c, out);
	for (i = 0; i < n; i++) {
		free(x[i]);
		free(y[i]);
		free(labels[i]);
	}
	free(x);
	free(y);
	free(labels);
	free(se);
	free(title);
	free(xt);
}

void gp_report_envs_timeline_csv(const gp_envsim_result *const *r, size_t n, gp_sbuf *out)
{
	size_t i, k, m = 0;
	char b[48];

	gp_sbuf_adds(out, "time_h");
	for (i = 0; i < n; i++) {
		mode_name(r[i], b, sizeof(b));
		gp_sbuf_addf(out, ",%s_max,%s_mean", b, b);
		if (r[i]->nbuckets > m)
			m = r[i]->nbuckets;
	}
	gp_sbuf_adds(out, "\n");
	for (k = 0; k < m; k++) {
		gp_sbuf_addf(out, "%.6f", n ? (double)k * r[0]->dt / 3600.0 : 0);
		for (i = 0; i < n; i++) {
			if (k < r[i]->nbuckets)
				gp_sbuf_addf(out, ",%d,%.3f", r[i]->bucket_max[k], r[i]->bucket_mean[k]);
			else
				gp_sbuf_adds(out, ",0,0");
		}
		gp_sbuf_adds(out, "\n");
	}
}
