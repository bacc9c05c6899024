/* Per-class summaries of a simulation result. */
#include <stdlib.h>
#include <string.h>

#include "gpuplan/sim/sim.h"
#include "gpuplan/util/util.h"

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

static void summarize(const gp_joblist *jobs, const gp_sim_result *r, int klass, int tenant,
		      gp_sim_summary *out)
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

		if ((klass >= 0 && k != klass) || (tenant >= 0 && r->job_tenant[i] != tenant))
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
	gp_dist_of(qd, nq, &out->queue_delay);
	gp_dist_of(fs, nq, &out->first_start);
	gp_dist_of(jct, nq, &out->jct);
	gp_dist_of(sd, ns, &out->slowdown);
	out->with_slowdown = ns;
	free(qd);
	free(fs);
	free(jct);
	free(sd);
}

void gp_sim_summarize(const gp_joblist *jobs, const gp_sim_result *r,
		      int klass, gp_sim_summary *out)
{
	summarize(jobs, r, klass, -1, out);
}

void gp_sim_summarize_tenant(const gp_joblist *jobs, const gp_sim_result *r,
			     int tenant, gp_sim_summary *out)
{
	summarize(jobs, r, -1, r->job_tenant ? tenant : -1, out);
}
