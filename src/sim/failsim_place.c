/* The failure source's questions about placements (failsim_int.h):
 * what a job's run takes on one, what it holds, whether a failure or
 * an unrepaired unit touches it. */
#include "gpuplan/sim/failsim.h"
#include "failsim_int.h"

/* Whole run time of job on placement p, as the engine reckons it: a
 * fixed duration stretches by the share it was given / the share it
 * holds; an iteration-based job runs iterations x its iteration time. */
double gp_failsim_full_of(const gp_failsim *f, int32_t job, const gp_placement *p)
{
	const gp_job *j = &gp_sim_joblist(f->s)->jobs[job];
	const gp_sim_job *rec = gp_sim_record(f->s, job);
	double held = 0, want = (double)j->gpus * j->gpu_milli;
	int i;

	if (j->duration >= 0) {
		for (i = 0; p && i < p->nparts; i++)
			held += (double)p->parts[i].ngpus * p->parts[i].milli;
		return held > 0 && want > 0 ? j->duration * want / held : j->duration;
	}
	return rec && rec->iter_s > 0 && j->iterations > 0 ? (double)j->iterations * rec->iter_s : 0;
}

double gp_failsim_held_gpus(const gp_placement *p)
{
	double g = 0;
	int i;

	for (i = 0; i < p->nparts; i++)
		g += p->parts[i].ngpus * (double)p->parts[i].milli / 1000.0;
	return g;
}

/* Whether placement p uses the failed unit of e (a link only matters to
 * a job spanning nodes). */
int gp_failsim_uses(const gp_placement *p, const gp_fail_event *e)
{
	int i, g, on = 0, nodes = 0;

	for (i = 0; i < p->nparts; i++) {
		const gp_place_part *pt = &p->parts[i];

		if (pt->ngpus <= 0)
			continue;
		nodes++;
		if (pt->node != e->node)
			continue;
		if (e->kind != GP_FAIL_GPU)
			on = 1;
		for (g = 0; g < pt->ngpus && !on; g++)
			if (pt->gpus[g] == e->gpu)
				on = 1;
	}
	if (e->kind == GP_FAIL_LINK) {
		int distinct = 0, prev = -1;

		for (i = 0; i < p->nparts; i++)
			if (p->parts[i].ngpus > 0 && p->parts[i].node != prev) {
				if (prev >= 0)
					distinct = 1;
				prev = p->parts[i].node;
			}
		return on && distinct;
	}
	(void)nodes;
	return on;
}

/* Whether p still holds a unit that failed and is not repaired. */
int gp_failsim_holds_failed(const gp_failsim *f, const gp_placement *p)
{
	int i, g;

	for (i = 0; i < p->nparts; i++) {
		const gp_place_part *pt = &p->parts[i];

		if (pt->ngpus <= 0)
			continue;
		if (f->node_fails[pt->node])
			return 1;
		for (g = 0; g < pt->ngpus; g++)
			if (f->gpu_fails[f->c->nodes[pt->node].first_gpu + pt->gpus[g]])
				return 1;
	}
	return 0;
}
