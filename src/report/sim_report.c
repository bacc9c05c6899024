/* Writers for simulation results: text summary, JSON, CSV, SVG. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/place/place.h"
#include "gpuplan/report/tenants_report.h"
#include "gpuplan/report/hist_report.h"
#include "gpuplan/report/html.h"
#include "gpuplan/report/report.h"
#include "gpuplan/sim/hist_check.h"
#include "gpuplan/util/hostlist.h"

static const char *const class_names[] = { "LS", "BE" };

static json_t *real(double x, int decimals)
{
	return json_real(gp_report_round(x, decimals));
}

/* ---- text ---- */

static void dist_row(gp_table *t, const char *name, const gp_sim_dist *d)
{
	size_t r = gp_table_row(t);

	gp_table_set(t, r, 0, "%s", name);
	gp_table_set_dist(t, r, 1, d);
}

/* The head rows of the job-count and the delay tables (text and page). */
static void counts_head(gp_table *t)
{
	size_t row;

	gp_table_init(t, 5);
	row = gp_table_row(t);
	gp_table_set(t, row, 0, "jobs");
	gp_table_set(t, row, 1, "total");
	gp_table_set(t, row, 2, "completed");
	gp_table_set(t, row, 3, "failed");
	gp_table_set(t, row, 4, "never placed");
}

static void dists_head(gp_table *t)
{
	size_t row;

	gp_table_init(t, 6);
	row = gp_table_row(t);
	gp_table_set(t, row, 0, "completed jobs");
	gp_table_set(t, row, 1, "mean");
	gp_table_set(t, row, 2, "p50");
	gp_table_set(t, row, 3, "p90");
	gp_table_set(t, row, 4, "p99");
	gp_table_set(t, row, 5, "max");
}

static void count_row(gp_table *t, const char *name, const gp_sim_summary *s)
{
	size_t r = gp_table_row(t);

	gp_table_set(t, r, 0, "%s", name);
	gp_table_set(t, r, 1, "%zu", s->total);
	gp_table_set(t, r, 2, "%zu", s->completed);
	gp_table_set(t, r, 3, "%zu", s->failed);
	gp_table_set(t, r, 4, "%zu", s->never_placed);
}

/* Decimals of the tenants' peak GPUs: one when some tenant held a fraction
 * of a GPU at its peak, none when every peak is whole, so that the column
 * reads alike ("4" beside "5.2" would not). */
static int peak_decimals(const gp_sim_result *r)
{
	for (size_t t = 0; t < r->ntenants; t++)
		if (llround((double)r->tenant_use[t].peak_milli / 100) % 10)
			return 1;
	return 0;
}

/* GPU-seconds as GPU-hours at three decimals always ("0.000", "0.111"). */
static const char *gpu_hours(char *buf, size_t size, double gpu_s)
{
	snprintf(buf, size, "%.3f", gp_report_round(gpu_s / 3600, 3));
	return buf;
}

static const char *peak_gpus(char *buf, size_t size, int64_t milli, int decimals)
{
	snprintf(buf, size, "%.*f", decimals, gp_report_round((double)milli / 1000, decimals));
	return buf;
}

/* The jobs stopped by reclaim and preemption by share, and the one job
 * stopped so the most times (a job taken and taken again shows there),
 * when any was. */
static void reclaims_text(const gp_joblist *jobs, const gp_sim_result *r, gp_sbuf *out)
{
	const struct gp_sim_tenant_use *most = NULL;
	size_t t, n = 0;

	for (t = 0; t < r->ntenants; t++) {
		const struct gp_sim_tenant_use *u = &r->tenant_use[t];

		n += u->reclaimed;
		if (u->reclaimed_most && (!most || u->reclaimed_most > most->reclaimed_most))
			most = u;
	}
	if (!most)
		return;
	gp_sbuf_addf(out, "reclaimed        %zu job stop(s) by reclaim or by share; at most %zu for "
			  "one job (%s, tenant %s)\n", n, most->reclaimed_most,
		     jobs->jobs[most->reclaimed_most_job].id ? jobs->jobs[most->reclaimed_most_job].id : "?",
		     r->tenants->t[r->job_tenant[most->reclaimed_most_job]].name);
}

/* Per tenant: jobs, queue delay, JCT, GPU-hours used, borrowed beyond its
 * quota and lent to its cohort, peak GPUs held, times a job found no
 * quota. */
static void tenants_text(const gp_joblist *jobs, const gp_sim_result *r, gp_sbuf *out)
{
	size_t t;
	int w = 6, pd;

	if (!r->tenant_use || !r->tenants)
		return;
	for (t = 0; t < r->ntenants; t++)
		if ((int)strlen(r->tenants->t[t].name) > w)
			w = (int)strlen(r->tenants->t[t].name) > 40 ? 40 : (int)strlen(r->tenants->t[t].name);
	pd = peak_decimals(r);
	/* "quota waits", not "waits": beside the delay columns a bare
	 * "waits 0" reads as no job of a tenant that waited hours */
	gp_sbuf_addf(out, "\n%-*s  %6s  %11s  %11s  %9s  %9s  %9s  %9s  %9s  %11s\n", w, "tenant", "jobs",
		     "delay mean", "delay p90", "JCT mean", "GPU-h", "borrowed", "lent", "peak GPUs",
		     "quota waits");
	for (t = 0; t < r->ntenants; t++) {
		const struct gp_sim_tenant_use *u = &r->tenant_use[t];
		gp_sim_summary s;
		char a[32], b[32], c[32], d[32], e[32], f[32], g[32];

		gp_sim_summarize_tenant(jobs, r, (int)t, &s);
		gp_sbuf_addf(out, "%-*.*s  %6zu  %11s  %11s  %9s  %9s  %9s  %9s  %9s  %11zu\n", w, w,
			     r->tenants->t[t].name, s.total,
			     s.completed ? gp_report_duration(a, sizeof(a), s.queue_delay.mean) : "-",
			     s.completed ? gp_report_duration(b, sizeof(b), s.queue_delay.p90) : "-",
			     s.completed ? gp_report_duration(c, sizeof(c), s.jct.mean) : "-",
			     gpu_hours(d, sizeof(d), u->gpu_s), gpu_hours(e, sizeof(e), u->borrowed_gpu_s),
			     gpu_hours(f, sizeof(f), u->lent_gpu_s),
			     peak_gpus(g, sizeof(g), u->peak_milli, pd), u->quota_waits);
	}
}

static json_t *tenants_json(const gp_joblist *jobs, const gp_sim_result *r);
static void job_reason(const gp_cluster *c, const gp_job *j, const gp_sim_job *rec, char *buf,
		       size_t size);

/* Why jobs failed or were never placed: one line per reason, the most
 * frequent first, with the count, the state and the first job it hit
 * (jobs.csv's reason column names every job).  "failed" alone reads as
 * a failure injected or a crash; the reason says it is not. */
#define WHY_LINES 4
typedef struct why_line {
	char text[256];
	size_t n, first;
	int never;
} why_line;

static int by_count(const void *a, const void *b)
{
	const why_line *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return (x->first > y->first) - (x->first < y->first);
}

/* The reasons, at most WHY_KEEP of them, the most frequent first;
 * *other counts the jobs of reasons past those. */
#define WHY_KEEP 16
static size_t why_groups(const gp_cluster *c, const gp_joblist *jobs, const gp_sim_result *r,
			 why_line *w, size_t *other)
{
	size_t i, k, nw = 0;

	*other = 0;
	for (i = 0; i < r->njobs; i++) {
		const gp_sim_job *rec = &r->jobs[i];
		char text[256];
		int never = rec->state == GP_SIM_NEVER;

		/* as gp_sim_summarize counts them */
		if (!never && rec->state != GP_SIM_FAILED)
			continue;
		job_reason(c, &jobs->jobs[i], rec, text, sizeof(text));
		if (!text[0])
			snprintf(text, sizeof(text), "%s", gp_sim_state_name(rec->state));
		for (k = 0; k < nw; k++)
			if (w[k].never == never && !strcmp(w[k].text, text))
				break;
		if (k < nw) {
			w[k].n++;
		} else if (nw < WHY_KEEP) {
			snprintf(w[nw].text, sizeof(w[nw].text), "%s", text);
			w[nw].n = 1;
			w[nw].first = i;
			w[nw++].never = never;
		} else {
			(*other)++;
		}
	}
	if (nw > 1)
		qsort(w, nw, sizeof(w[0]), by_count);
	return nw;
}

static const char *job_id(const gp_joblist *jobs, size_t i, char *buf, size_t size)
{
	if (jobs->jobs[i].id)
		return jobs->jobs[i].id;
	snprintf(buf, size, "%zu", i + 1);
	return buf;
}

static void not_completed(const gp_cluster *c, const gp_joblist *jobs, const gp_sim_result *r,
			  void (*line)(void *ud, const char *text), void *ud)
{
	why_line w[WHY_KEEP];
	size_t k, other, nw = why_groups(c, jobs, r, w, &other);

	for (k = WHY_LINES; k < nw; k++)
		other += w[k].n;
	for (k = 0; k < nw && k < WHY_LINES; k++) {
		char idbuf[32], *s;

		s = gp_xasprintf("%zu %s, e.g. job %s: %s", w[k].n, w[k].never ? "never placed" : "failed",
				 job_id(jobs, w[k].first, idbuf, sizeof(idbuf)), w[k].text);
		line(ud, s);
		free(s);
	}
	if (other) {
		char *s = gp_xasprintf("%zu more job(s) for other reasons (jobs.csv, column reason)", other);

		line(ud, s);
		free(s);
	}
}

/* The same as JSON: every reason kept, then the jobs of the rest under
 * a null reason. */
static json_t *not_completed_json(const gp_cluster *c, const gp_joblist *jobs,
				  const gp_sim_result *r)
{
	why_line w[WHY_KEEP];
	size_t k, other, nw = why_groups(c, jobs, r, w, &other);
	json_t *a = json_array();

	for (k = 0; k < nw; k++) {
		json_t *o = json_object();
		char idbuf[32];

		json_object_set_new(o, "state", json_string(w[k].never ? "never_placed" : "failed"));
		json_object_set_new(o, "reason", json_string(w[k].text));
		json_object_set_new(o, "jobs", json_integer((json_int_t)w[k].n));
		json_object_set_new(o, "first_job", json_string(job_id(jobs, w[k].first, idbuf, sizeof(idbuf))));
		json_array_append_new(a, o);
	}
	if (other) {
		json_t *o = json_object();

		json_object_set_new(o, "state", json_null());
		json_object_set_new(o, "reason", json_null());
		json_object_set_new(o, "jobs", json_integer((json_int_t)other));
		json_object_set_new(o, "first_job", json_null());
		json_array_append_new(a, o);
	}
	return a;
}

static void why_text(void *ud, const char *text)
{
	gp_sbuf_addf(ud, "  %s\n", text);
}

void gp_report_sim_text(const gp_report_ident *id, const gp_joblist *jobs,
			const gp_sim_result *r, gp_sbuf *out)
{
	gp_sim_summary all, cls[2];
	gp_table t;
	int k;
	char b1[32], b2[64];

	gp_sim_summarize(jobs, r, -1, &all);
	for (k = 0; k < 2; k++)
		gp_sim_summarize(jobs, r, k, &cls[k]);
	gp_sbuf_addf(out, "trace    %s (%s, %zu jobs", id->trace, id->trace_format ? id->trace_format : "?",
		     jobs->n);
	if (id->trace_rows_skipped)
		gp_sbuf_addf(out, ", %zu bad rows skipped", id->trace_rows_skipped);
	if (jobs->left_out)
		gp_sbuf_addf(out, ", %zu rows left out: %s", jobs->left_out,
			     jobs->left_out_note ? jobs->left_out_note : "not replayable");
	gp_sbuf_addf(out, ")\ncluster  %s (%d nodes, %d GPUs)\n", id->cluster, id->cluster_nodes,
		     id->cluster_gpus);
	gp_sbuf_addf(out, "policy   %s, queue %s, seed %llu", id->policy, id->queue, id->seed);
	if (id->preempt)
		gp_sbuf_addf(out, ", preempt %s", id->preempt);
	gp_sbuf_adds(out, "\n");
	gp_report_sched_line(&id->sched, out);
	gp_sbuf_adds(out, "\n");

	counts_head(&t);
	count_row(&t, "all", &all);
	for (k = 0; k < 2; k++)
		count_row(&t, class_names[k], &cls[k]);
	gp_table_render(&t, "", out);
	gp_table_release(&t);
	if (all.failed || all.never_placed) {
		gp_sbuf_adds(out, "why not completed:\n");
		not_completed(id->cl, jobs, r, why_text, out);
	}
	gp_sbuf_adds(out, "\n");

	dists_head(&t);
	dist_row(&t, "queue delay", &all.queue_delay);
	if (all.waited_again)
		dist_row(&t, "first-start delay", &all.first_start);
	dist_row(&t, "JCT", &all.jct);
	for (k = 0; k < 2; k++) {
		char name[32];

		if (!cls[k].completed || cls[k].completed == all.completed)
			continue;
		snprintf(name, sizeof(name), "queue delay %s", class_names[k]);
		dist_row(&t, name, &cls[k].queue_delay);
		snprintf(name, sizeof(name), "JCT %s", class_names[k]);
		dist_row(&t, name, &cls[k].jct);
	}
	gp_table_render(&t, "", out);
	gp_table_release(&t);
	if (all.with_slowdown)
		gp_sbuf_addf(out, "slowdown vs best placement (%zu jobs): mean %s, p99 %s, max %s\n",
			     all.with_slowdown,
			     gp_report_num(b1, sizeof(b1), all.slowdown.mean, 3),
			     gp_report_num(b2, sizeof(b2), all.slowdown.p99, 3),
			     gp_report_num((char[32]){ 0 }, 32, all.slowdown.max, 3));
	gp_sbuf_addf(out, "\nmakespan         %s (%s s)\n",
		     gp_report_duration(b1, sizeof(b1), r->makespan),
		     gp_report_num(b2, sizeof(b2), r->makespan, 3));
	gp_sbuf_addf(out, "GPU utilization  %s %% (%s GPU-hours allocated",
		     gp_report_pct(b1, sizeof(b1), r->gpu_utilization),
		     gp_report_num(b2, sizeof(b2), r->alloc_gpu_seconds / 3600, 1));
	/* 0 % while jobs wait reads as idle GPUs beside a queue: say
	 * when no job ever waited instead (the JSON keeps the metric's 0) */
	if (id->has_util_queued && r->batches && !(r->queued_cap_milli_s > 0))
		gp_sbuf_adds(out, "; no job waited");
	else if (id->has_util_queued)
		gp_sbuf_addf(out, "; %s %% while jobs wait", gp_report_pct(b1, sizeof(b1), id->util_queued));
	gp_sbuf_adds(out, ")\n");
	if (id->preempt || r->interruptions[GP_SIM_CAUSE_PREEMPT])
		gp_sbuf_addf(out, "preemptions      %zu (%s GPU-hours of work lost and overheads)\n",
			     r->interruptions[GP_SIM_CAUSE_PREEMPT],
			     gp_report_num(b2, sizeof(b2), r->lost_gpu_seconds[GP_SIM_CAUSE_PREEMPT] / 3600, 3));
	if (r->tenant_use && r->tenants)
		reclaims_text(jobs, r, out);
	if (r->las_demotions || r->las_promotions)
		gp_sbuf_addf(out, "las              %zu demotions, %zu starvation promotions\n",
			     r->las_demotions, r->las_promotions);
	if (all.waited_again)
		gp_sbuf_addf(out, "waited again     %zu job(s) queued again after a stop, %s in all "
			     "(in queue delay, not in first-start delay)\n", all.waited_again,
			     gp_report_duration(b2, sizeof(b2), all.wait_again_s));
	gp_report_hist_text(jobs, r, out);
	tenants_text(jobs, r, out);
}

/* ---- JSON ---- */

/* A distribution over n jobs; with none, every figure is null (no jobs
 * is not a delay of 0). */
static json_t *dist_json(const gp_sim_dist *d, size_t n)
{
	json_t *o = json_object();

	json_object_set_new(o, "mean", n ? real(d->mean, 3) : json_null());
	json_object_set_new(o, "p50", n ? real(d->p50, 3) : json_null());
	json_object_set_new(o, "p90", n ? real(d->p90, 3) : json_null());
	json_object_set_new(o, "p99", n ? real(d->p99, 3) : json_null());
	json_object_set_new(o, "max", n ? real(d->max, 3) : json_null());
	return o;
}

static json_t *counts_json(const gp_sim_summary *s)
{
	json_t *o = json_object();

	json_object_set_new(o, "total", json_integer((json_int_t)s->total));
	json_object_set_new(o, "completed", json_integer((json_int_t)s->completed));
	json_object_set_new(o, "failed", json_integer((json_int_t)s->failed));
	json_object_set_new(o, "never_placed", json_integer((json_int_t)s->never_placed));
	return o;
}

static json_t *tenants_json(const gp_joblist *jobs, const gp_sim_result *r)
{
	json_t *a = json_array();
	size_t t;

	for (t = 0; t < r->ntenants; t++) {
		const struct gp_sim_tenant_use *u = &r->tenant_use[t];
		json_t *o = json_object();
		gp_sim_summary s;

		gp_sim_summarize_tenant(jobs, r, (int)t, &s);
		json_object_set_new(o, "name", json_string(r->tenants->t[t].name));
		json_object_set_new(o, "jobs", counts_json(&s));
		json_object_set_new(o, "queue_delay", dist_json(&s.queue_delay, s.completed));
		json_object_set_new(o, "jct", dist_json(&s.jct, s.completed));
		json_object_set_new(o, "gpu_hours", real(u->gpu_s / 3600, 6));
		json_object_set_new(o, "borrowed_gpu_hours", real(u->borrowed_gpu_s / 3600, 6));
		json_object_set_new(o, "lent_gpu_hours", real(u->lent_gpu_s / 3600, 6));
		json_object_set_new(o, "peak_gpus", real((double)u->peak_milli / 1000, 3));
		json_object_set_new(o, "quota_waits", json_integer((json_int_t)u->quota_waits));
		json_object_set_new(o, "reclaims", json_integer((json_int_t)u->reclaims));
		json_object_set_new(o, "reclaimed", json_integer((json_int_t)u->reclaimed));
		json_object_set_new(o, "reclaimed_most", json_integer((json_int_t)u->reclaimed_most));
		json_object_set_new(o, "over_fair_share", real(gp_report_tenant_over_fair(r, t), 6));
		json_array_append_new(a, o);
	}
	return a;
}

json_t *gp_report_sim_json(const gp_report_ident *id, const gp_joblist *jobs,
			   const gp_sim_result *r)
{
	json_t *o = json_object(), *tr, *cl, *classes;
	gp_sim_summary all, s;
	int k;

	gp_sim_summarize(jobs, r, -1, &all);
	json_object_set_new(o, "seed", json_integer((json_int_t)id->seed));
	json_object_set_new(o, "policy", json_string(id->policy));
	json_object_set_new(o, "queue", json_string(id->queue));
	gp_report_sched_json(&id->sched, o);
	json_object_set_new(o, "jobs", counts_json(&all));
	if (all.failed || all.never_placed)
		json_object_set_new(o, "not_completed", not_completed_json(id->cl, jobs, r));
	json_object_set_new(o, "queue_delay", dist_json(&all.queue_delay, all.completed));
	json_object_set_new(o, "first_start_delay", dist_json(&all.first_start, all.completed));
	json_object_set_new(o, "jct", dist_json(&all.jct, all.completed));
	json_object_set_new(o, "makespan", real(r->makespan, 3));
	json_object_set_new(o, "gpu_utilization", real(r->gpu_utilization, 6));
	if (id->has_util_queued)
		json_object_set_new(o, "gpu_utilization_queued", real(id->util_queued, 6));
	json_object_set_new(o, "allocated_gpu_seconds", real(r->alloc_gpu_seconds, 3));
	json_object_set_new(o, "first_submit", real(r->first_submit, 3));
	json_object_set_new(o, "preemptions",
			    json_integer((json_int_t)r->interruptions[GP_SIM_CAUSE_PREEMPT]));
	json_object_set_new(o, "preempted_gpu_hours_lost",
			    real(r->lost_gpu_seconds[GP_SIM_CAUSE_PREEMPT] / 3600, 6));
	if (id->preempt)
		json_object_set_new(o, "preempt", json_string(id->preempt));
	if (r->las_demotions || r->las_promotions) {
		json_t *l = json_object();

		json_object_set_new(l, "demotions", json_integer((json_int_t)r->las_demotions));
		json_object_set_new(l, "promotions", json_integer((json_int_t)r->las_promotions));
		json_object_set_new(o, "las", l);
	}
	json_object_set_new(o, "last_finish", real(r->last_finish, 3));
	{
		json_t *h = gp_report_hist_json(jobs, r);

		if (h)
			json_object_set_new(o, "recorded_vs_simulated", h);
	}
	if (r->tenant_use && r->tenants)
		json_object_set_new(o, "tenants", tenants_json(jobs, r));
	if (all.with_slowdown) {
		json_t *sd = dist_json(&all.slowdown, all.with_slowdown);

		json_object_set_new(sd, "jobs", json_integer((json_int_t)all.with_slowdown));
		json_object_set_new(o, "slowdown", sd);
	}
	classes = json_object();
	for (k = 0; k < 2; k++) {
		json_t *c = json_object();

		gp_sim_summarize(jobs, r, k, &s);
		json_object_set_new(c, "jobs", counts_json(&s));
		json_object_set_new(c, "queue_delay", dist_json(&s.queue_delay, s.completed));
		json_object_set_new(c, "first_start_delay", dist_json(&s.first_start, s.completed));
		json_object_set_new(c, "jct", dist_json(&s.jct, s.completed));
		json_object_set_new(classes, class_names[k], c);
	}
	json_object_set_new(o, "classes", classes);
	tr = json_object();
	json_object_set_new(tr, "path", json_string(id->trace ? id->trace : ""));
	json_object_set_new(tr, "format", json_string(id->trace_format ? id->trace_format : ""));
	json_object_set_new(tr, "jobs", json_integer((json_int_t)jobs->n));
	json_object_set_new(tr, "skipped_rows", json_integer((json_int_t)id->trace_rows_skipped));
	json_object_set_new(tr, "left_out_rows", json_integer((json_int_t)jobs->left_out));
	json_object_set_new(tr, "left_out", json_string(jobs->left_out_note ? jobs->left_out_note : ""));
	json_object_set_new(o, "trace", tr);
	cl = json_object();
	json_object_set_new(cl, "path", json_string(id->cluster ? id->cluster : ""));
	json_object_set_new(cl, "nodes", json_integer(id->cluster_nodes));
	json_object_set_new(cl, "gpus", json_integer(id->cluster_gpus));
	json_object_set_new(o, "cluster", cl);
	json_object_set_new(o, "tick", real(r->tick, 3));
	return o;
}

/* ---- CSV ---- */

static void csv_num(gp_sbuf *out, double x, int decimals)
{
	char b[64];

	gp_sbuf_adds(out, ",");
	gp_sbuf_adds(out, gp_report_num(b, sizeof(b), x, decimals));
}

/* Why a job did not complete ("" when it did), from the reason the
 * engine recorded. */
static void job_reason(const gp_cluster *c, const gp_job *j, const gp_sim_job *rec, char *buf,
		       size_t size)
{
	buf[0] = 0;
	switch (rec->why) {
	case GP_SIM_WHY_CLUSTER:
		if (!c) {
			snprintf(buf, size, "the cluster can never hold it");
			break;
		}
		if (gp_place_never(c, j, buf, size))
			break;
		/* fall through */
	case GP_SIM_WHY_POLICY:
		snprintf(buf, size, "the policy places it nowhere, even on the idle cluster");
		break;
	case GP_SIM_WHY_STUCK:
		snprintf(buf, size, "still queued when nothing ran and nothing was left to arrive: "
			 "the nodes up could not hold it");
		break;
	case GP_SIM_WHY_INTERRUPTED:
		snprintf(buf, size, "interrupted %d time(s), the last one not recovered",
			 (int)rec->interruptions);
		break;
	case GP_SIM_WHY_NO_RUNTIME:
		if (j->more->model.params > 0)
			snprintf(buf, size, "no run time: iterations x iteration time above the "
				 "10^10 s cap");
		else
			snprintf(buf, size, "no run time: iterations without a model the performance "
				 "model knows");
		break;
	}
}

/* The columns appended last: reason, environment, node_list (the nodes of
 * the job's last start as a Slurm hostlist). */
static void jobs_csv_tail(const gp_cluster *c, const gp_job *j, const gp_sim_result *r,
			  const gp_sim_job *rec, gp_sbuf *out)
{
	char why[256];

	job_reason(c, j, rec, why, sizeof(why));
	gp_sbuf_adds(out, ",");
	gp_csv_field(out, why);
	gp_sbuf_adds(out, ",");
	gp_csv_field(out, j->environment ? j->environment : "");
	gp_sbuf_adds(out, ",");
	if (c && rec->nodes > 0 && (size_t)rec->nodes_at + (size_t)rec->nodes <= r->nnode_ids) {
		const char **names = gp_xcalloc((size_t)rec->nodes, sizeof(*names));
		gp_sbuf hl;
		int k;

		for (k = 0; k < rec->nodes; k++) {
			int32_t id = r->node_ids[rec->nodes_at + (uint32_t)k];

			names[k] = id >= 0 && id < c->nnodes ? c->nodes[id].name : "?";
		}
		gp_sbuf_init(&hl);
		gp_hostlist_compress(names, (size_t)rec->nodes, &hl);
		gp_csv_field(out, hl.buf ? hl.buf : "");
		gp_sbuf_release(&hl);
		free(names);
	}
}

void gp_report_sim_jobs_csv_cols(const gp_joblist *jobs, const gp_sim_result *r,
				 const gp_cluster *c, const gp_report_job_cols *x, gp_sbuf *out)
{
	size_t i;
	int hist = gp_hist_check_has(jobs);

	gp_sbuf_adds(out, "job,submit,start,finish,gpus,nodes,class,state,queue_delay,jct,"
		     "first_node,iteration_s,slowdown,preemptions,first_start_delay");
	gp_sbuf_adds(out, x && x->header ? x->header : "");
	gp_sbuf_adds(out, ",reason,environment,node_list");
	/* the record beside the replay, when the trace has one */
	gp_sbuf_adds(out, hist ? ",recorded_start,recorded_queue_delay" : "");
	gp_sbuf_adds(out, r->job_tenant && r->tenants ? ",tenant\n" : "\n");
	for (i = 0; i < r->njobs; i++) {
		const gp_job *j = &jobs->jobs[i];
		const gp_sim_job *rec = &r->jobs[i];
		int ran = rec->state == GP_SIM_DONE;
		char idbuf[32];

		if (!j->id)
			snprintf(idbuf, sizeof(idbuf), "%zu", i + 1);
		gp_csv_field(out, j->id ? j->id : idbuf);
		csv_num(out, j->submit, 3);
		if (ran) {
			csv_num(out, rec->start, 3);
			csv_num(out, rec->finish, 3);
		} else {
			gp_sbuf_adds(out, ",,");
		}
		gp_sbuf_addf(out, ",%d,%d,%s,%s", j->gpus, rec->nodes,
			     class_names[j->klass == GP_CLASS_LS ? 0 : 1], gp_sim_state_name(rec->state));
		if (ran) {
			csv_num(out, gp_sim_job_wait(j, rec), 3);
			csv_num(out, rec->finish - j->submit, 3);
		} else {
			gp_sbuf_adds(out, ",,");
		}
		gp_sbuf_adds(out, ",");
		if (rec->first_node >= 0 && c && rec->first_node < c->nnodes)
			gp_csv_field(out, c->nodes[rec->first_node].name);
		if (rec->iter_s > 0)
			csv_num(out, rec->iter_s, 6);
		else
			gp_sbuf_adds(out, ",");
		if (rec->slowdown > 0)
			csv_num(out, rec->slowdown, 4);
		else
			gp_sbuf_adds(out, ",");
		gp_sbuf_addf(out, ",%d", (int)rec->preemptions);
		/* the wait before the first start alone; queue_delay counts
		 * every wait (after preemptions and restarts too) */
		if (ran)
			csv_num(out, rec->start - j->submit, 3);
		else
			gp_sbuf_adds(out, ",");
		if (x && x->row)
			x->row(x->ud, i, out);
		jobs_csv_tail(c, j, r, rec, out);
		if (hist && j->hist && j->hist->recorded_start >= 0) {
			csv_num(out, j->hist->recorded_start, 3);
			/* a record that starts a job before its submit (clock
			 * skew, a requeue) waited 0, as the replay check counts it;
			 * recorded_start keeps the time as recorded */
			csv_num(out, fmax(j->hist->recorded_start - j->submit, 0), 3);
		} else if (hist) {
			gp_sbuf_adds(out, ",,");
		}
		if (r->job_tenant && r->tenants) {
			gp_sbuf_adds(out, ",");
			gp_csv_field(out, r->tenants->t[r->job_tenant[i]].name);
		}
		gp_sbuf_adds(out, "\n");
	}
}

void gp_report_sim_timeline_csv(const gp_sim_result *r, gp_sbuf *out)
{
	size_t i;

	gp_sbuf_adds(out, "time,utilization,allocated_gpus,running,queued,queued_ls,queued_be,"
		     "preempted\n");
	for (i = 0; i < r->nsamples; i++) {
		const gp_sim_sample *s = &r->samples[i];
		char b[64];

		gp_sbuf_adds(out, gp_report_num(b, sizeof(b), s->t, 3));
		csv_num(out, s->utilization, 6);
		csv_num(out, (double)s->allocated_milli / 1000, 3);
		gp_sbuf_addf(out, ",%d,%d,%d,%d,%d\n", s->running, s->queued_ls + s->queued_be,
			     s->queued_ls, s->queued_be, s->preempted);
	}
}

/* ---- SVG ---- */

/* The line under a chart's title: the trace's file name (not its path,
 * which can be longer than the chart is wide), policy and queue. */
static char *subtitle(const gp_report_ident *id)
{
	const char *t = id->trace ? id->trace : "trace", *b = strrchr(t, '/');

	return gp_xasprintf("%s, %s/%s", b && b[1] ? b + 1 : t, id->policy, id->queue);
}

void gp_report_sim_svg_utilization_marked(const gp_report_ident *id, const gp_sim_result *r,
					  const double *t, size_t nt, const char *label,
					  gp_sbuf *out)
{
	double *mk = NULL;
	size_t n = r->nsamples, i;
	double *x = gp_xmalloc((n + 1) * sizeof(*x)), *y = gp_xmalloc((n + 1) * sizeof(*y));
	double span = r->nsamples ? r->samples[n - 1].t - r->first_submit : 0, div;
	const char *unit = gp_report_time_unit(span, &div);
	gp_svg_series se = { "GPU utilization (mean over each tick)", x, y, 0, 1 };
	gp_svg_chart c;
	char *sub = subtitle(id), *xt = gp_xasprintf("time since first submit (%s)", unit);

	/* Row i averages (t[i-1], t[i]]: hold it from the previous row. */
	for (i = 0; i < n; i++) {
		x[i] = ((i ? r->samples[i - 1].t : r->first_submit) - r->first_submit) / div;
		y[i] = r->samples[i].utilization;
	}
	if (n) {
		x[n] = (r->samples[n - 1].t - r->first_submit) / div;
		y[n] = r->samples[n - 1].utilization;
		se.n = n + 1;
	}
	memset(&c, 0, sizeof(c));
	c.title = "GPU utilization";
	c.subtitle = sub;
	c.x_title = xt;
	c.y_title = "allocated / available GPUs";
	c.y_percent = 1;
	c.set_y = 1;
	c.y_min = 0;
	c.y_max = 1;
	c.legend = GP_LEGEND_BOTTOM_CENTER;
	c.series = &se;
	c.nseries = 1;
	if (nt) {
		mk = gp_xmalloc(nt * sizeof(*mk));
		for (i = 0; i < nt; i++)
			mk[i] = (t[i] - r->first_submit) / div;
		c.marks = mk;
		c.nmarks = nt;
		c.marks_label = label;
	}
	gp_svg_line_chart(&c, out);
	free(mk);
	free(sub);
	free(xt);
	free(x);
	free(y);
}

void gp_report_sim_svg_queue(const gp_report_ident *id, const gp_sim_result *r, gp_sbuf *out)
{
	size_t n = r->nsamples, i;
	double *x = gp_xmalloc((n ? n : 1) * sizeof(*x));
	double *q[4];
	double span = n ? r->samples[n - 1].t - r->first_submit : 0, div;
	const char *unit = gp_report_time_unit(span, &div);
	gp_svg_series se[4];
	gp_svg_chart c;
	int k, ns = 0, any_ls = 0;
	char *sub = subtitle(id), *xt = gp_xasprintf("time since first submit (%s)", unit);

	for (k = 0; k < 4; k++)
		q[k] = gp_xmalloc((n ? n : 1) * sizeof(*q[k]));
	for (i = 0; i < n; i++) {
		x[i] = (r->samples[i].t - r->first_submit) / div;
		q[0][i] = r->samples[i].queued_ls + r->samples[i].queued_be;
		q[1][i] = r->samples[i].queued_ls;
		q[2][i] = r->samples[i].queued_be;
		q[3][i] = r->samples[i].running;
		any_ls |= r->samples[i].queued_ls > 0;
	}
	memset(se, 0, sizeof(se));
	se[ns++] = (gp_svg_series){ "queued jobs (all)", x, q[0], n, 0 };
	if (any_ls) {
		se[ns++] = (gp_svg_series){ "queued LS jobs", x, q[1], n, 0 };
		se[ns++] = (gp_svg_series){ "queued BE jobs", x, q[2], n, 0 };
	}
	se[ns++] = (gp_svg_series){ "running jobs", x, q[3], n, 0 };
	memset(&c, 0, sizeof(c));
	c.title = "Queue length";
	c.subtitle = sub;
	c.x_title = xt;
	c.y_title = "jobs (at each tick)";
	c.y_integer = 1;
	c.legend = GP_LEGEND_TOP_RIGHT;
	c.series = se;
	c.nseries = ns;
	gp_svg_line_chart(&c, out);
	free(sub);
	free(xt);
	free(x);
	for (k = 0; k < 4; k++)
		free(q[k]);
}

/* The (x, F(x)) points of the distribution of JCT (or, with delay, of
 * queue delay) of the completed jobs of class k (-1: all), each value at
 * least floor (the log axis has no zero), one per job (the SVG writer
 * thins them to what can be seen); returns the count and in *at_floor how
 * many values were raised to it.  x and y hold r->njobs values. */
static size_t sim_cdf(const gp_joblist *jobs, const gp_sim_result *r, int k, int tenant,
		      int delay, double floor, double *x, double *y, size_t *at_floor)
{
	size_t i, n = 0;

	for (i = 0; i < r->njobs; i++) {
		const gp_job *j = &jobs->jobs[i];

		if (r->jobs[i].state != GP_SIM_DONE)
			continue;
		if (k >= 0 && (j->klass == GP_CLASS_LS ? 0 : 1) != k)
			continue;
		if (tenant >= 0 && r->job_tenant[i] != tenant)
			continue;
		x[n++] = delay ? gp_sim_job_wait(j, &r->jobs[i]) : r->jobs[i].finish - j->submit;
	}
	*at_floor = gp_svg_cdf_points(x, y, n, floor);
	return n;
}

static void sim_svg_cdf(const gp_report_ident *id, const gp_joblist *jobs, const gp_sim_result *r,
			int delay, gp_sbuf *out)
{
	double *x[3], *y[3];
	gp_svg_series se[3];
	gp_svg_chart c;
	int k, ns = 0;
	size_t nall, ncls[2], low, ignore;
	char *sub = subtitle(id), *sub2 = NULL;

	for (k = 0; k < 3; k++) {
		x[k] = gp_xmalloc((r->njobs ? r->njobs : 1) * sizeof(*x[k]));
		y[k] = gp_xmalloc((r->njobs ? r->njobs : 1) * sizeof(*y[k]));
	}
	/* JCT: a zero shows at 1 ms; queue delay: under a second at 1 s. */
	nall = sim_cdf(jobs, r, -1, -1, delay, delay ? 1 : 1e-3, x[0], y[0], &low);
	se[ns++] = (gp_svg_series){ "all completed jobs", x[0], y[0], nall, 1 };
	for (k = 0; k < 2; k++)
		ncls[k] = sim_cdf(jobs, r, k, -1, delay, delay ? 1 : 1e-3, x[k + 1], y[k + 1], &ignore);
	if (ncls[0] && ncls[1])
		for (k = 0; k < 2; k++)
			se[ns++] = (gp_svg_series){ k ? "BE jobs" : "LS jobs", x[k + 1], y[k + 1],
						    ncls[k], 1 };
	memset(&c, 0, sizeof(c));
	if (delay) {
		char pct[32];
		size_t done = 0, i;

		for (i = 0; i < r->njobs; i++)
			done += r->jobs[i].state == GP_SIM_DONE;
		sub2 = gp_xasprintf("%s; %s %% of completed jobs waited under 1 s (drawn at 1 s)", sub,
				    gp_report_num(pct, sizeof(pct),
						  done ? 100.0 * (double)low / (double)done : 0, 1));
	}
	c.title = delay ? "Queue delay CDF" : "JCT CDF";
	c.subtitle = delay ? sub2 : sub;
	c.x_title = delay ? "queue delay: before the first start and after every stop (log scale)" :
		    "job completion time, submit to finish (log scale)";
	c.y_title = delay ? "share of jobs started within x" : "share of jobs finished within x";
	gp_svg_cdf_axes(&c, se, ns, 1);
	gp_svg_line_chart(&c, out);
	free(sub);
	free(sub2);
	for (k = 0; k < 3; k++) {
		free(x[k]);
		free(y[k]);
	}
}

void gp_report_sim_svg_jct_cdf(const gp_report_ident *id, const gp_joblist *jobs,
			       const gp_sim_result *r, gp_sbuf *out)
{
	sim_svg_cdf(id, jobs, r, 0, out);
}

void gp_report_sim_svg_queue_cdf(const gp_report_ident *id, const gp_joblist *jobs,
				 const gp_sim_result *r, gp_sbuf *out)
{
	sim_svg_cdf(id, jobs, r, 1, out);
}

/* ---- HTML ---- */

static void html_svg(gp_html *h, gp_sbuf *sb)
{
	gp_html_svg(h, sb->buf, sb->len);
	gp_sbuf_release(sb);
	gp_sbuf_init(sb);
}

static void html_counts(gp_html *h, const char *first, const gp_sim_summary *all,
			const gp_sim_summary *cls, int ncls, const char *caption)
{
	gp_table t;
	int k;

	counts_head(&t);
	count_row(&t, first, all);
	for (k = 0; k < ncls; k++)
		if (cls[k].total && cls[k].total != all->total)
			count_row(&t, class_names[k], &cls[k]);
	gp_html_table(h, &t, caption);
	gp_table_release(&t);
}

static void html_dists(gp_html *h, const gp_sim_summary *s, const char *caption)
{
	gp_table t;

	dists_head(&t);
	dist_row(&t, "queue delay", &s->queue_delay);
	dist_row(&t, "first-start delay", &s->first_start);
	dist_row(&t, "JCT", &s->jct);
	gp_html_table(h, &t, caption);
	gp_table_release(&t);
}

static void html_headline(gp_html *h, const gp_joblist *jobs, const gp_sim_summary *all,
			  const gp_sim_result *r)
{
	char b[4][32], pct[32];
	char *s;

	if (!all->completed) {
		s = gp_xasprintf("No job of %zu completed (%zu failed, %zu never placed).", all->total,
				 all->failed, all->never_placed);
	} else if (all->queue_delay.p90 < 1) {
		s = gp_xasprintf("%zu of %zu jobs completed; 90 %% or more of them started within a "
				 "second of submission (mean wait %s) and 90 %% finished within %s of "
				 "submission; "
				 "makespan %s at %s %% GPU utilization.",
				 all->completed, all->total,
				 gp_report_duration(b[1], sizeof(b[1]), all->queue_delay.mean),
				 gp_report_duration(b[2], sizeof(b[2]), all->jct.p90),
				 gp_report_duration(b[3], sizeof(b[3]), r->makespan),
				 gp_report_pct(pct, sizeof(pct), r->gpu_utilization));
	} else {
		s = gp_xasprintf("%zu of %zu jobs completed; 90 %% of them waited at most %s in the "
				 "queue (mean %s) and finished within %s of submission; makespan %s "
				 "at %s %% GPU utilization.",
				 all->completed, all->total,
				 gp_report_duration(b[0], sizeof(b[0]), all->queue_delay.p90),
				 gp_report_duration(b[1], sizeof(b[1]), all->queue_delay.mean),
				 gp_report_duration(b[2], sizeof(b[2]), all->jct.p90),
				 gp_report_duration(b[3], sizeof(b[3]), r->makespan),
				 gp_report_pct(pct, sizeof(pct), r->gpu_utilization));
	}
	if (r->tenant_use && r->tenants && r->ntenants > 1 && all->completed) {
		/* the tenant whose jobs waited longest (p90 of queue delay) */
		size_t t, worst = 0;
		double wv = -1;
		char *more;

		for (t = 0; t < r->ntenants; t++) {
			gp_sim_summary ts;

			gp_sim_summarize_tenant(jobs, r, (int)t, &ts);
			if (ts.completed && ts.queue_delay.p90 > wv) {
				wv = ts.queue_delay.p90;
				worst = t;
			}
		}
		/* below a second every tenant is "no wait" (as in the sentence
		 * before): naming the first of equals would single one out */
		if (wv < 1)
			more = gp_xasprintf("%s Of %zu tenants, none waited a second or more "
					    "at p90 of queue delay.", s, r->ntenants);
		else
			more = gp_xasprintf("%s Of %zu tenants, %s waited longest: queue delay "
					    "p90 %s.", s, r->ntenants, r->tenants->t[worst].name,
					    gp_report_duration(b[0], sizeof(b[0]), wv));
		free(s);
		s = more;
	}
	gp_html_headline(h, s);
	free(s);
}

/* ---- HTML: tenants ---- */

#define HTML_TENANT_ROWS 200      /* rows of the tenants' tables */
#define HTML_TENANT_SECTIONS 12   /* tenants with a section of their own */
#define HTML_TENANT_LINES 20      /* lines of the per-tenant chart */

/* Tenant order for the page: most GPU-hours used first, then file order. */
typedef struct tenant_use_key {
	double gpu_s;
	size_t t;
} tenant_use_key;

static int by_use(const void *a, const void *b)
{
	const tenant_use_key *x = a, *y = b;

	if (x->gpu_s != y->gpu_s)
		return x->gpu_s > y->gpu_s ? -1 : 1;
	return (x->t > y->t) - (x->t < y->t);
}

static size_t *tenants_by_use(const gp_sim_result *r)
{
	size_t n = r->ntenants ? r->ntenants : 1, t;
	tenant_use_key *k = gp_xmalloc(n * sizeof(*k));
	size_t *o = gp_xmalloc(n * sizeof(*o));

	for (t = 0; t < r->ntenants; t++) {
		k[t].gpu_s = r->tenant_use[t].gpu_s;
		k[t].t = t;
	}
	qsort(k, r->ntenants, sizeof(*k), by_use);
	for (t = 0; t < r->ntenants; t++)
		o[t] = k[t].t;
	free(k);
	return o;
}

/* "8 GPUs, 4 A100-SXM4-80GB", "none" without a quota. */
static void quota_text(const gp_tenants *ts, const gp_tenant *t, char *buf, size_t size)
{
	size_t len = 0;
	int i;

	buf[0] = 0;
	for (i = 0; i < ts->nres && len < size; i++)
		if (t->nominal[i])
			len += (size_t)snprintf(buf + len, size - len, "%s%g %s", len ? ", " : "",
						(double)t->nominal[i] / 1000,
						strcmp(ts->res[i], "gpus") ? ts->res[i] : "GPUs");
	if (!len)
		snprintf(buf, size, "none");
}

/* Jobs and waits per tenant, then quota and use. */
static void html_tenant_tables(gp_html *h, const gp_joblist *jobs, const gp_sim_result *r,
			       const size_t *order, size_t n)
{
	gp_table a, b;
	size_t i, row;
	char v[8][64];
	int pd = peak_decimals(r);

	gp_table_init(&a, 8);
	gp_table_init(&b, 7);
	row = gp_table_row(&a);
	gp_table_set(&a, row, 0, "tenant");
	gp_table_set(&a, row, 1, "jobs");
	gp_table_set(&a, row, 2, "completed");
	gp_table_set(&a, row, 3, "not run");
	gp_table_set(&a, row, 4, "queue delay mean");
	gp_table_set(&a, row, 5, "queue delay p90");
	gp_table_set(&a, row, 6, "first-start p90");
	gp_table_set(&a, row, 7, "JCT mean");
	row = gp_table_row(&b);
	gp_table_set(&b, row, 0, "tenant");
	gp_table_set(&b, row, 1, "cohort");
	gp_table_set(&b, row, 2, "quota");
	gp_table_set(&b, row, 3, "GPU-hours");
	gp_table_set(&b, row, 4, "borrowed");
	gp_table_set(&b, row, 5, "lent");
	gp_table_set(&b, row, 6, "peak GPUs");
	for (i = 0; i < n; i++) {
		const gp_tenant *t = &r->tenants->t[order[i]];
		const struct gp_sim_tenant_use *u = &r->tenant_use[order[i]];
		gp_sim_summary s;

		gp_sim_summarize_tenant(jobs, r, (int)order[i], &s);
		row = gp_table_row(&a);
		gp_table_set(&a, row, 0, "%s", t->name);
		gp_table_set(&a, row, 1, "%zu", s.total);
		gp_table_set(&a, row, 2, "%zu", s.completed);
		gp_table_set(&a, row, 3, "%zu", s.failed + s.never_placed);
		gp_table_set(&a, row, 4, "%s", s.completed ? gp_report_duration(v[0], 64, s.queue_delay.mean) : "-");
		gp_table_set(&a, row, 5, "%s", s.completed ? gp_report_duration(v[1], 64, s.queue_delay.p90) : "-");
		gp_table_set(&a, row, 6, "%s", s.completed ? gp_report_duration(v[2], 64, s.first_start.p90) : "-");
		gp_table_set(&a, row, 7, "%s", s.completed ? gp_report_duration(v[3], 64, s.jct.mean) : "-");
		row = gp_table_row(&b);
		quota_text(r->tenants, t, v[4], sizeof(v[4]));
		gp_table_set(&b, row, 0, "%s", t->name);
		gp_table_set(&b, row, 1, "%s", t->cohort >= 0 ? r->tenants->cohorts[t->cohort] : "-");
		gp_table_set(&b, row, 2, "%s", v[4]);
		gp_table_set(&b, row, 3, "%s", gpu_hours(v[5], 64, u->gpu_s));
		gp_table_set(&b, row, 4, "%s", gpu_hours(v[6], 64, u->borrowed_gpu_s));
		gp_table_set(&b, row, 5, "%s", gpu_hours(v[7], 64, u->lent_gpu_s));
		gp_table_set(&b, row, 6, "%s", peak_gpus(v[0], 64, u->peak_milli, pd));
	}
	gp_html_table(h, &a, "Jobs and waits per tenant (queue delay counts every wait)");
	gp_html_table(h, &b, "Quota and use per tenant, GPU-hours borrowed beyond the quota and lent "
			     "to the cohort");
	gp_table_release(&a);
	gp_table_release(&b);
}

/* Queue delay CDF, one line per tenant (those that used most). */
static void html_tenant_cdf(gp_html *h, const gp_joblist *jobs, const gp_sim_result *r,
			    const size_t *order, size_t n)
{
	gp_svg_series se[HTML_TENANT_LINES];
	double *x[HTML_TENANT_LINES], *y[HTML_TENANT_LINES];
	gp_svg_chart c;
	gp_sbuf sb;
	size_t i, low;
	int ns = 0;

	for (i = 0; i < n && i < HTML_TENANT_LINES; i++) {
		x[i] = gp_xmalloc((r->njobs ? r->njobs : 1) * sizeof(double));
		y[i] = gp_xmalloc((r->njobs ? r->njobs : 1) * sizeof(double));
		se[ns] = (gp_svg_series){ r->tenants->t[order[i]].name, x[i], y[i], 0, 1 };
		se[ns].n = sim_cdf(jobs, r, -1, (int)order[i], 1, 1, x[i], y[i], &low);
		ns += se[ns].n > 0;
	}
	memset(&c, 0, sizeof(c));
	c.title = "Queue delay CDF per tenant";
	c.subtitle = n > HTML_TENANT_LINES ? "the 20 tenants that used the most GPU-hours" :
		     "waits under 1 s drawn at 1 s";
	c.x_title = "queue delay: before the first start and after every stop (log scale)";
	c.y_title = "share of the tenant's jobs started within x";
	gp_svg_cdf_axes(&c, se, ns, 1);
	gp_sbuf_init(&sb);
	if (ns)
		gp_svg_line_chart(&c, &sb);
	if (sb.len)
		gp_html_svg(h, sb.buf, sb.len);
	gp_sbuf_release(&sb);
	for (i = 0; i < n && i < HTML_TENANT_LINES; i++) {
		free(x[i]);
		free(y[i]);
	}
}

/* The tenants' tables and chart, and a section for each of those that
 * used the most. */
static void html_tenants(gp_html *h, const gp_joblist *jobs, const gp_sim_result *r)
{
	size_t *order, n, i;
	char *text;

	if (!r->tenant_use || !r->tenants || !r->ntenants)
		return;
	order = tenants_by_use(r);
	n = r->ntenants < HTML_TENANT_ROWS ? r->ntenants : HTML_TENANT_ROWS;
	gp_html_section(h, "Tenants");
	text = gp_xasprintf("%zu tenant%s%s%s, most GPU-hours used first.", r->ntenants,
			    r->ntenants == 1 ? "" : "s", r->tenants->path ? " of " : "",
			    r->tenants->path ? r->tenants->path : "");
	gp_html_para(h, text);
	free(text);
	html_tenant_tables(h, jobs, r, order, n);
	if (r->ntenants > n) {
		text = gp_xasprintf("%zu more tenants are in the JSON report (--json).", r->ntenants - n);
		gp_html_para(h, text);
		free(text);
	}
	html_tenant_cdf(h, jobs, r, order, r->ntenants);
	for (i = 0; i < r->ntenants && i < HTML_TENANT_SECTIONS; i++) {
		const gp_tenant *t = &r->tenants->t[order[i]];
		const struct gp_sim_tenant_use *u = &r->tenant_use[order[i]];
		gp_sim_summary s;
		char q[128], b[4][32];

		gp_sim_summarize_tenant(jobs, r, (int)order[i], &s);
		text = gp_xasprintf("Tenant %s", t->name);
		gp_html_section(h, text);
		free(text);
		quota_text(r->tenants, t, q, sizeof(q));
		text = gp_xasprintf("%zu job%s, %zu completed, %zu failed, %zu never placed; quota %s%s%s; "
				    "%s GPU-hours used, %s borrowed beyond the quota, %s lent; at most "
				    "%s GPUs at once; %zu time%s a job found no quota.", s.total,
				    s.total == 1 ? "" : "s", s.completed, s.failed, s.never_placed, q,
				    t->cohort >= 0 ? " in cohort " : "",
				    t->cohort >= 0 ? r->tenants->cohorts[t->cohort] : "",
				    gp_report_num(b[0], sizeof(b[0]), u->gpu_s / 3600, 3),
				    gp_report_num(b[1], sizeof(b[1]), u->borrowed_gpu_s / 3600, 3),
				    gp_report_num(b[2], sizeof(b[2]), u->lent_gpu_s / 3600, 3),
				    gp_report_num(b[3], sizeof(b[3]), (double)u->peak_milli / 1000, 1),
				    u->quota_waits, u->quota_waits == 1 ? "" : "s");
		gp_html_para(h, text);
		free(text);
		if (s.completed)
			html_dists(h, &s, "Queue delay, first-start delay and JCT of the completed jobs");
		else
			gp_html_para(h, "None of these jobs completed.");
	}
	free(order);
}

static void why_html(void *ud, const char *text)
{
	gp_html_para(ud, text);
}

void gp_report_sim_html(const gp_report_ident *id, const gp_joblist *jobs, const gp_sim_result *r,
			const double *marks, size_t nmarks, const gp_html_extra *extra, size_t nextra,
			gp_sbuf *out)
{
	gp_sim_summary all, cls[2];
	gp_html h;
	gp_sbuf sb;
	gp_table t;
	char b[4][96], *title, *v[7];
	const char *names[7], *tb = id->trace ? strrchr(id->trace, '/') : NULL;
	size_t i, n = 0, row;
	int k;

	gp_sim_summarize(jobs, r, -1, &all);
	for (k = 0; k < 2; k++)
		gp_sim_summarize(jobs, r, k, &cls[k]);
	title = gp_xasprintf("gpuplan simulate: %s", tb && tb[1] ? tb + 1 : id->trace ? id->trace : "trace");
	gp_html_begin(&h, out, title);
	free(title);
	names[n] = "trace";
	v[n++] = gp_xasprintf("%s (%s, %zu jobs%s)", id->trace ? id->trace : "",
			      id->trace_format ? id->trace_format : "?", jobs->n,
			      id->trace_rows_skipped ? ", bad rows skipped" : "");
	names[n] = "cluster";
	v[n++] = gp_xasprintf("%s (%d nodes, %d GPUs)", id->cluster ? id->cluster : "",
			      id->cluster_nodes, id->cluster_gpus);
	names[n] = "policy";
	v[n++] = gp_xasprintf("%s, queue %s%s%s", id->policy, id->queue,
			      id->preempt ? ", preempt " : "", id->preempt ? id->preempt : "");
	if ((v[n] = gp_report_sched_text(&id->sched)))
		names[n++] = "sched";
	names[n] = "seed";
	v[n++] = gp_xasprintf("%llu", id->seed);
	if (r->tenant_use && r->tenants) {
		names[n] = "tenants";
		v[n++] = gp_xasprintf("%s (%zu tenant%s)", r->tenants->path ? r->tenants->path : "cluster file",
				      r->ntenants, r->ntenants == 1 ? "" : "s");
	}
	gp_html_inputs(&h, names, (const char *const *)v, n);
	for (i = 0; i < n; i++)
		free(v[i]);
	html_headline(&h, jobs, &all, r);

	gp_html_section(&h, "Summary");
	html_counts(&h, "all", &all, cls, 2, "Jobs");
	if (all.failed || all.never_placed) {
		gp_html_subheading(&h, "Why jobs did not complete");
		not_completed(id->cl, jobs, r, why_html, &h);
	}
	html_dists(&h, &all, "Queue delay and job completion time (JCT) of the completed jobs");
	gp_table_init(&t, 2);
	row = gp_table_row(&t);
	gp_table_set(&t, row, 0, "whole run");
	gp_table_set(&t, row, 1, "value");
	row = gp_table_row(&t);
	gp_table_set(&t, row, 0, "makespan");
	gp_table_set(&t, row, 1, "%s", gp_report_duration(b[0], sizeof(b[0]), r->makespan));
	row = gp_table_row(&t);
	gp_table_set(&t, row, 0, "GPU utilization");
	gp_table_set(&t, row, 1, "%s %%", gp_report_pct(b[0], sizeof(b[0]), r->gpu_utilization));
	if (id->has_util_queued) {
		row = gp_table_row(&t);
		gp_table_set(&t, row, 0, "GPU utilization while jobs wait");
		if (r->batches && !(r->queued_cap_milli_s > 0))
			gp_table_set(&t, row, 1, "no job waited");
		else
			gp_table_set(&t, row, 1, "%s %%", gp_report_pct(b[0], sizeof(b[0]), id->util_queued));
	}
	row = gp_table_row(&t);
	gp_table_set(&t, row, 0, "GPU-hours allocated");
	gp_table_set(&t, row, 1, "%s", gp_report_num(b[1], sizeof(b[1]), r->alloc_gpu_seconds / 3600, 1));
	if (id->preempt || r->interruptions[GP_SIM_CAUSE_PREEMPT]) {
		row = gp_table_row(&t);
		gp_table_set(&t, row, 0, "preemptions");
		gp_table_set(&t, row, 1, "%zu", r->interruptions[GP_SIM_CAUSE_PREEMPT]);
		row = gp_table_row(&t);
		gp_table_set(&t, row, 0, "GPU-hours lost to preemption");
		gp_table_set(&t, row, 1, "%s", gp_report_num(b[2], sizeof(b[2]),
							     r->lost_gpu_seconds[GP_SIM_CAUSE_PREEMPT] / 3600, 3));
	}
	if (all.with_slowdown) {
		row = gp_table_row(&t);
		gp_table_set(&t, row, 0, "slowdown vs best placement (p99)");
		gp_table_set(&t, row, 1, "%s", gp_report_num(b[3], sizeof(b[3]), all.slowdown.p99, 3));
	}
	gp_html_table(&h, &t, "Makespan and utilization");
	gp_table_release(&t);
	for (i = 0; i < nextra; i++) {
		gp_html_section(&h, extra[i].heading);
		gp_html_pre(&h, extra[i].text, strlen(extra[i].text));
	}

	gp_html_section(&h, "Charts");
	gp_sbuf_init(&sb);
	gp_report_sim_svg_utilization_marked(id, r, marks, nmarks, "failures", &sb);
	html_svg(&h, &sb);
	gp_report_sim_svg_queue(id, r, &sb);
	html_svg(&h, &sb);
	gp_report_sim_svg_jct_cdf(id, jobs, r, &sb);
	html_svg(&h, &sb);
	gp_report_sim_svg_queue_cdf(id, jobs, r, &sb);
	html_svg(&h, &sb);
	gp_sbuf_release(&sb);

	for (k = 0; k < 2; k++) {
		char *head;

		if (!cls[k].total)
			continue;
		head = gp_xasprintf("%s jobs (%s)", class_names[k],
				    k ? "best effort" : "latency sensitive");
		gp_html_section(&h, head);
		free(head);
		html_counts(&h, class_names[k], &cls[k], NULL, 0, "Jobs");
		if (cls[k].completed)
			html_dists(&h, &cls[k], "Queue delay and JCT of the completed jobs");
		else
			gp_html_para(&h, "None of these jobs completed.");
	}
	html_tenants(&h, jobs, r);
	gp_html_end(&h);
}
