/* Failures in the simulator: detection of a failure, recovery of the
 * jobs it hit by policy (restart, replace, shrink, fail), repair. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "failsim_int.h"

/* ---- recovery ---- */

static void note_recovery(gp_failsim *f, int32_t job, size_t row, double rec)
{
	if (f->nrecovery == f->cap_recovery) {
		f->cap_recovery = f->cap_recovery ? 2 * f->cap_recovery : 64;
		f->recovery = gp_xrealloc(f->recovery, f->cap_recovery * sizeof(double));
	}
	f->recovery[f->nrecovery++] = rec;
	f->job_recovery_s[job] += rec;
	f->rows[row].recover_s = rec;
}

/* After an interruption: the work kept since the last accounting, on the
 * placement it was done on (full before the interruption). */
static void account(gp_failsim *f, int32_t job, double full_before)
{
	double done = gp_sim_work_done(f->s, job);

	if (done > f->f_prev[job]) {
		f->prod[job] += (done - f->f_prev[job]) * full_before;
		f->f_prev[job] = done;
	}
}

static int restart(gp_failsim *f, int32_t job, size_t row, double t_fail)
{
	gp_sim_interrupt r;
	double full = f->full_cur[job];
	int rc;

	gp_sim_interrupt_init(&r);
	r.action = GP_SIM_REQUEUE;
	r.cause = GP_SIM_CAUSE_FAILURE;
	r.lose = GP_SIM_LOSE_CHECKPOINT;
	r.overhead_s = f->cfg.restart_cost;
	if ((rc = gp_sim_interrupt_job(f->s, job, &r)))
		return rc;
	account(f, job, full);
	f->restarted++;
	f->rows[row].action = GP_FA_RESTARTED;
	f->pend_row[job] = (int64_t)row;
	f->pend_fail_t[job] = t_fail;
	return GP_OK;
}

/* Continue on placement q after overhead seconds; 1 when it did not fit
 * (nothing changed), 0 on success, else an error. */
static int move(gp_failsim *f, int32_t job, const gp_placement *q, double overhead)
{
	const gp_sim_job *rec = gp_sim_record(f->s, job);
	gp_sim_interrupt r;
	double full = f->full_cur[job];
	int rc;

	gp_sim_interrupt_init(&r);
	r.action = GP_SIM_MOVE;
	r.cause = GP_SIM_CAUSE_FAILURE;
	r.lose = GP_SIM_LOSE_SECONDS;
	r.lost_s = rec && rec->iter_s > 0 ? rec->iter_s : 0; /* the iteration in flight */
	r.overhead_s = overhead;
	r.place = q;
	rc = gp_sim_interrupt_job(f->s, job, &r);
	if (rc == GP_EUSAGE)
		return 1;
	if (rc == GP_OK)
		account(f, job, full);
	return rc;
}

/* The job's placement without the failed unit's GPUs (shrink). */
static int shrink_placement(gp_failsim *f, int32_t job, const gp_fail_event *e, gp_placement *q)
{
	const gp_job *jb = &gp_sim_joblist(f->s)->jobs[job];
	const gp_placement *p = gp_sim_placement(f->s, job);
	gp_replace_result *r = &f->res;
	int i, g, workers = 0, servers = 0;

	gp_replace_result_release(r);
	gp_replace_result_init(r);
	r->status = GP_REPLACE_SHRUNK;
	r->failed_node = e->node;
	for (i = 0; i < p->nparts; i++) {
		const gp_place_part *pt = &p->parts[i];

		if (pt->node != e->node || pt->ngpus <= 0)
			continue;
		for (g = 0; g < pt->ngpus; g++)
			if ((e->kind != GP_FAIL_GPU || pt->gpus[g] == e->gpu) &&
			    r->nfailed < GP_TOPO_MAX_GPUS)
				r->failed_gpus[r->nfailed++] = pt->gpus[g];
		break;
	}
	gp_replace_rebuild(p, r, q);
	for (i = 0; i < q->nparts; i++)
		q->parts[i].role ? (servers += q->parts[i].ngpus) : (workers += q->parts[i].ngpus);
	if (workers == 0 || (jb->type == GP_JOB_PS_WORKER && servers == 0))
		return 0;
	return 1;
}

static int recover(gp_failsim *f, int32_t job, size_t row, const fail_rec *rec)
{
	gp_sim *s = f->s;
	const gp_fail_event *e = &rec->e;
	const gp_placement *p = gp_sim_placement(s, job);
	double now = gp_sim_now(s);
	int rc, fit;

	if (!f->hit[job]) {
		f->hit[job] = 1;
		f->jobs_interrupted++;
		f->prod[job] = 0;
		f->f_prev[job] = 0;
		f->full_cur[job] = gp_failsim_full_of(f, job, p);
	}
	if (f->stall_t[job] >= 0) {
		double gs = gp_failsim_held_gpus(p) * (now - f->stall_t[job]);

		f->stall_gpu_s += gs;
		f->job_stall_gpu_s[job] += gs;
		f->stall_t[job] = -1;
	}
	switch (f->cfg.recovery) {
	case GP_RECOVERY_FAIL: {
		gp_sim_interrupt r;

		gp_sim_interrupt_init(&r);
		r.action = GP_SIM_FAIL;
		r.cause = GP_SIM_CAUSE_FAILURE;
		/* it never runs again: all its work so far is lost, its
		 * checkpoints included */
		r.lose = GP_SIM_LOSE_SECONDS;
		r.lost_s = HUGE_VAL;
		if ((rc = gp_sim_interrupt_job(s, job, &r)))
			return rc;
		f->failed_jobs++;
		f->rows[row].action = GP_FA_FAILED;
		return GP_OK;
	}
	case GP_RECOVERY_SHRINK:
		if (!shrink_placement(f, job, e, &f->scratch))
			return restart(f, job, row, e->time);
		if ((fit = move(f, job, &f->scratch, 0)) < 0 || fit > 1)
			return fit;
		if (fit == 1)
			return restart(f, job, row, e->time);
		f->shrunk++;
		f->rows[row].action = GP_FA_SHRUNK;
		note_recovery(f, job, row, now - e->time);
		break;
	case GP_RECOVERY_REPLACE: {
		const gp_job *jb = &gp_sim_joblist(s)->jobs[job];
		gp_policy_ctx ctx = { f->c, gp_sim_alloc(s), &f->rng, NULL, f->pc };
		gp_error err = GP_ERROR_INIT;
		uint64_t mask = e->kind == GP_FAIL_GPU ? 1ull << e->gpu : 0;
		gp_replace_opts o = { 0, 0 };
		double ovh = 0;

		if (gp_replace_decide(&ctx, jb, p, e->node, mask, &o, &f->res, &err) != GP_OK ||
		    f->res.status == GP_REPLACE_NONE)
			return restart(f, job, row, e->time);
		gp_replace_rebuild(p, &f->res, &f->scratch);
		if (f->res.status == GP_REPLACE_REPLACED)
			ovh = f->res.copy_s;
		if ((fit = move(f, job, &f->scratch, ovh)) < 0 || fit > 1)
			return fit;
		if (fit == 1)
			return restart(f, job, row, e->time);
		if (f->res.status == GP_REPLACE_REPLACED) {
			f->replaced++;
			f->rows[row].action = GP_FA_REPLACED;
			f->rows[row].replacement = f->res.chosen.node;
		} else {
			f->shrunk++;
			f->rows[row].action = GP_FA_SHRUNK;
		}
		note_recovery(f, job, row, now + ovh - e->time);
		break;
	}
	default:
		return restart(f, job, row, e->time);
	}
	/* Moved onto a placement that still holds a failed unit whose failure
	 * is not detected yet: it stalls again until then. */
	p = gp_sim_placement(s, job);
	if (p && gp_failsim_holds_failed(f, p) && gp_sim_job_status(s, job) == GP_SIM_JOB_RUNNING) {
		if ((rc = gp_sim_stall(s, job)))
			return rc;
		f->stall_t[job] = now;
	}
	return GP_OK;
}

int gp_failsim_detect(gp_failsim *f, size_t idx)
{
	fail_rec *rec = &f->recs[idx];
	size_t k;
	int rc;

	f->detected++;
	for (k = 0; k < rec->nrows; k++) {
		size_t row = rec->first_row + k;
		int32_t j = f->rows[row].job;
		int st = gp_sim_job_status(f->s, j);
		const gp_placement *p;

		if (j < 0)
			continue;
		p = gp_sim_placement(f->s, j);
		if (!(st == GP_SIM_JOB_RUNNING || st == GP_SIM_JOB_STALLED) || !p ||
		    !gp_failsim_uses(p, &rec->e)) {
			f->rows[row].action = GP_FA_ABSORBED;
			continue;
		}
		if ((rc = recover(f, j, row, rec)))
			return rc;
		rec = &f->recs[idx];
	}
	return GP_OK;
}

int gp_failsim_repair(gp_failsim *f, size_t idx)
{
	const gp_fail_event *e = &f->recs[idx].e;

	if (e->kind == GP_FAIL_GPU) {
		int gpu = f->c->nodes[e->node].first_gpu + e->gpu;

		if (f->gpu_fails[gpu] && --f->gpu_fails[gpu] == 0)
			return gp_sim_gpu_up(f->s, gpu);
		return GP_OK;
	}
	if (e->kind == GP_FAIL_LINK && f->link_fails[e->node])
		f->link_fails[e->node]--;
	if (f->node_fails[e->node] && --f->node_fails[e->node] == 0)
		return gp_sim_node_up(f->s, e->node);
	return GP_OK;
}
