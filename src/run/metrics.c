/* The run metric vector (metrics.h). */
#include <stdlib.h>
#include <string.h>

#include "gpuplan/util/util.h"
#include "gpuplan/run/metrics.h"

#define D(k, name, hd, kind) \
	{ #k "." #name, #k "_" #name, hd, kind, 1 }

const gp_metric_info gp_metrics[GP_M_COUNT] = {
	[GP_M_JOBS] = { "jobs", "jobs", "jobs", GP_MK_COUNT, 0 },
	[GP_M_COMPLETED] = { "completed", "completed", "jobs completed", GP_MK_COUNT, 0 },
	[GP_M_FAILED] = { "failed", "failed", "jobs failed", GP_MK_COUNT, 1 },
	[GP_M_NEVER_PLACED] = { "never_placed", "never_placed", "jobs never placed", GP_MK_COUNT, 1 },
	[GP_M_QD_MEAN] = D(queue_delay, mean, "queue delay mean", GP_MK_SECONDS),
	[GP_M_QD_P50] = D(queue_delay, p50, "queue delay p50", GP_MK_SECONDS),
	[GP_M_QD_P90] = D(queue_delay, p90, "queue delay p90", GP_MK_SECONDS),
	[GP_M_QD_P99] = D(queue_delay, p99, "queue delay p99", GP_MK_SECONDS),
	[GP_M_QD_MAX] = D(queue_delay, max, "queue delay max", GP_MK_SECONDS),
	[GP_M_JCT_MEAN] = D(jct, mean, "JCT mean", GP_MK_SECONDS),
	[GP_M_JCT_P50] = D(jct, p50, "JCT p50", GP_MK_SECONDS),
	[GP_M_JCT_P90] = D(jct, p90, "JCT p90", GP_MK_SECONDS),
	[GP_M_JCT_P99] = D(jct, p99, "JCT p99", GP_MK_SECONDS),
	[GP_M_JCT_MAX] = D(jct, max, "JCT max", GP_MK_SECONDS),
	[GP_M_SD_MEAN] = D(slowdown, mean, "slowdown mean", GP_MK_FACTOR),
	[GP_M_SD_P50] = D(slowdown, p50, "slowdown p50", GP_MK_FACTOR),
	[GP_M_SD_P90] = D(slowdown, p90, "slowdown p90", GP_MK_FACTOR),
	[GP_M_SD_P99] = D(slowdown, p99, "slowdown p99", GP_MK_FACTOR),
	[GP_M_SD_MAX] = D(slowdown, max, "slowdown max", GP_MK_FACTOR),
	[GP_M_MAKESPAN] = { "makespan", "makespan", "makespan", GP_MK_SECONDS, 1 },
	[GP_M_UTIL] = { "gpu_utilization", "gpu_utilization", "GPU utilization", GP_MK_RATIO, 0 },
	[GP_M_UTIL_QUEUED] = { "gpu_utilization_queued", "gpu_utilization_queued",
			       "GPU util. while jobs wait", GP_MK_RATIO, 0 },
	[GP_M_LOST_GPU_H] = { "lost_gpu_hours", "lost_gpu_hours", "GPU-hours lost to failures",
			      GP_MK_FACTOR, 1 },
	[GP_M_GOODPUT] = { "goodput", "goodput", "goodput", GP_MK_RATIO, 0 },
	[GP_M_PREEMPTIONS] = { "preemptions", "preemptions", "preemptions", GP_MK_COUNT, 1 },
};

int gp_metric_find(const char *name)
{
	int i;

	for (i = 0; i < GP_M_SWEPT; i++)
		if (!strcmp(name, gp_metrics[i].path) || !strcmp(name, gp_metrics[i].column))
			return i;
	return -1;
}

const char *gp_metric_names(void)
{
	static char buf[1024];
	size_t k = 0;
	int i;

	if (buf[0])
		return buf;
	for (i = 0; i < GP_M_SWEPT && k + 40 < sizeof(buf); i++)
		k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s%s", i ? ", " : "",
				      gp_metrics[i].path);
	return buf;
}

typedef struct edge {
	double t;
	int64_t milli;  /* allocation change */
	int queued;     /* queue length change */
} edge;

static int cmp_edge(const void *a, const void *b)
{
	const edge *x = a, *y = b;

	return (x->t > y->t) - (x->t < y->t);
}

double gp_metric_util_queued(const gp_joblist *jobs, const gp_sim_result *r)
{
	size_t i, n = 0;
	edge *e;
	int64_t alloc = 0;
	long queued = 0;
	double cap, busy = 0, span = 0, t0;

	if (!r->ngpus || !r->njobs)
		return 0;
	/* From the engine: its own integral, right when jobs are preempted
	 * (they hold no GPUs while they wait again).  A result built by hand
	 * has no batches: from each job's first wait and its one run. */
	if (r->batches)
		return r->queued_cap_milli_s > 0 ? r->queued_alloc_milli_s / r->queued_cap_milli_s : 0;
	e = gp_xmalloc(4 * r->njobs * sizeof(*e));
	for (i = 0; i < r->njobs && i < jobs->n; i++) {
		const gp_sim_job *sj = &r->jobs[i];
		const gp_job *j = &jobs->jobs[i];
		int64_t need = (int64_t)j->gpus * (int64_t)j->gpu_milli;

		if (sj->start < 0)
			continue;
		if (sj->start > j->submit) {
			e[n++] = (edge){ j->submit, 0, 1 };
			e[n++] = (edge){ sj->start, 0, -1 };
		}
		if (sj->finish > sj->start) {
			e[n++] = (edge){ sj->start, need, 0 };
			e[n++] = (edge){ sj->finish, -need, 0 };
		}
	}
	qsort(e, n, sizeof(*e), cmp_edge);
	cap = (double)r->ngpus * 1000.0;
	t0 = n ? e[0].t : 0;
	for (i = 0; i < n; i++) {
		if (queued > 0 && e[i].t > t0) {
			busy += (double)alloc * (e[i].t - t0);
			span += cap * (e[i].t - t0);
		}
		t0 = e[i].t;
		alloc += e[i].milli;
		queued += e[i].queued;
	}
	free(e);
	return span > 0 ? busy / span : 0;
}

static void put_dist(double *m, int first, const gp_sim_dist *d)
{
	m[first] = d->mean;
	m[first + 1] = d->p50;
	m[first + 2] = d->p90;
	m[first + 3] = d->p99;
	m[first + 4] = d->max;
}

void gp_metrics_of(const gp_joblist *jobs, const gp_sim_result *r, double *m)
{
	gp_sim_summary s;

	gp_sim_summarize(jobs, r, -1, &s);
	m[GP_M_JOBS] = (double)s.total;
	m[GP_M_COMPLETED] = (double)s.completed;
	m[GP_M_FAILED] = (double)s.failed;
	m[GP_M_NEVER_PLACED] = (double)s.never_placed;
	put_dist(m, GP_M_QD_MEAN, &s.queue_delay);
	put_dist(m, GP_M_JCT_MEAN, &s.jct);
	put_dist(m, GP_M_SD_MEAN, &s.slowdown);
	m[GP_M_MAKESPAN] = r->makespan;
	m[GP_M_UTIL] = r->gpu_utilization;
	m[GP_M_UTIL_QUEUED] = gp_metric_util_queued(jobs, r);
	m[GP_M_LOST_GPU_H] = 0;
	m[GP_M_GOODPUT] = 1;
	m[GP_M_PREEMPTIONS] = (double)r->interruptions[GP_SIM_CAUSE_PREEMPT];
}
