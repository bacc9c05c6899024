/* Per-class summaries of a simulation result, and where it records each
 * job ran. */
#include <stdlib.h>
#include <string.h>

#include "gpuplan/sim/sim.h"
#include "gpuplan/util/util.h"
#include "sim_int.h"

/* Where job j of r runs now (p): the nodes it spans, each once (a parameter
 * server's part shares its node with workers), its lowest node, and their
 * ids for jobs.csv's node list.  Called at each start and again when a
 * worker replacement moves it, so the row names the nodes it ran on last. */
void gp_sim_result_record_nodes(gp_sim_result *r, int32_t j, const gp_placement *p)
{
	gp_sim_job *rec = &r->jobs[j];
	size_t at;
	int i, lo = -1;

	GP_GROW(r->node_ids, r->node_ids_cap, r->nnode_ids + (size_t)p->nparts);
	at = r->nnode_ids;
	for (i = 0; i < p->nparts; i++) {
		int32_t node = p->parts[i].node;
		size_t k;

		if (lo < 0 || node < lo)
			lo = node;
		for (k = at; k < r->nnode_ids && r->node_ids[k] != node; k++)
			;
		if (k == r->nnode_ids)
			r->node_ids[r->nnode_ids++] = node;
	}
	rec->nodes_at = (uint32_t)at;
	rec->nodes = (int32_t)(r->nnode_ids - at);
	rec->first_node = lo;
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
