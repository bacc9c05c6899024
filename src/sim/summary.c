/* Per-class summaries of a simulation result. */
#include <stdlib.h>
#include <string.h>

#include "gpuplan/sim/sim.h"
#include "gpuplan/util/util.h"

static void dist_of(double *v, size_t n, gp_sim_dist *d)
{
	size_t i;
	double sum = 0;

	memset(d, 0, sizeof(*d));
	if (!n)
		return;
	gp_sort_doubles(v, n);
	for (i = 0; i < n; i++)
		sum += v[i];
	d->mean = sum / (double)n;
	d->p50 = gp_percentile_sorted(v, n, 50);
	d->p90 = gp_percentile_sorted(v, n, 90);
	d->p99 = gp_percentile_sorted(v, n, 99);
	d->max = v[n - 1];
}

double gp_sim_job_wait(const gp_job *j, const gp_sim_job *rec)
{
	double first = rec->start - j->submit, w;

	/* a job never stopped waited only before its start (that number, not
	 * one rounded through finish - ran_s) */
	if (rec->interruptions <= 0)
		return first;
	w = rec->finish - j->submit - rec->ran_s;
	return w > first ? w : first;
}

void gp_sim_summarize(const gp_joblist *jobs, const gp_sim_result *r,
		      int klass, gp_sim_summary *out)
{
	size_t i, nq = 0, ns = 0;
	double *qd, *jct, *sd, *fs;

	memset(out, 0, sizeof(*out));
	qd = gp_xmalloc((r->njobs ? r->njobs : 1) * sizeof(*qd));
	fs = gp_xmalloc((r->njobs ? r->njobs : 1) * sizeof(*fs));
	jct = gp_xmalloc((r->njobs ? r->njobs : 1) * sizeof(*jct));
	sd = gp_xmalloc((r->njobs ? r->njobs : 1) * sizeof(*sd));
	for (i = 0; i < r->njobs; i++) {
		const gp_job *j = &jobs->jobs[i];
		const gp_sim_job *rec = &r->jobs[i];
		int k = j->klass == GP_CLASS_LS ? GP_CLASS_LS : GP_CLASS_BE;

		if (klass >= 0 && k != klass)
			continue;
		out->total++;
		if (rec->state == GP_SIM_FAILED)
			out->failed++;
		else if (rec->state == GP_SIM_NEVER)
			out->never_placed++;
		if (rec->state != GP_SIM_DONE)
			continue;
		out->completed++;
		fs[nq] = rec->start - j->submit;
		qd[nq] = gp_sim_job_wait(j, rec);
		if (qd[nq] > fs[nq]) {
			out->waited_again++;
			out->wait_again_s += qd[nq] - fs[nq];
		}
		jct[nq++] = rec->finish - j->submit;
		if (rec->slowdown > 0)
			sd[ns++] = rec->slowdown;
	}
	dist_of(qd, nq, &out->queue_delay);
	dist_of(fs, nq, &out->first_start);
	dist_of(jct, nq, &out->jct);
	dist_of(sd, ns, &out->slowdown);
	out->with_slowdown = ns;
	free(qd);
	free(fs);
	free(jct);
	free(sd);
}
