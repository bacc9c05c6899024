/* Interruptions (sim.h, "Interruptions"): progress of running jobs with
 * checkpoints, overheads and speed; stopping a job (requeue, move, fail).
 * Nodes and GPUs down and up, events of interruption sources and read
 * access for the sources are in interrupt_api.c.
 *
 * Progress of a running job j is kept at acct_t[j]: ovh[j] seconds of
 * overhead still to pay (restore, copy, or the rest of a checkpoint being
 * written), then rem[j] seconds of work at speed 1.  seg_work[j] counts
 * the work of the current run, ck_saved[j] its value at the last
 * checkpoint and ck_next[j] at the next one.  advance() brings this to
 * the current time; a job's finish event is at acct_t + wall_left(). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"

static size_t szn(size_t n)
{
	return n ? n : 1;
}

int gp_sim_ix_setup(sim *s)
{
	size_t n = szn(s->n), i;
	int k;

	s->ix.on = 1;
	s->ix.jst = gp_xcalloc(n, sizeof(*s->ix.jst));
	s->ix.fin_seq = gp_xcalloc(n, sizeof(*s->ix.fin_seq));
	s->ix.aux_seq = gp_xcalloc(n, sizeof(*s->ix.aux_seq));
	s->ix.has_aux = gp_xcalloc(n, sizeof(*s->ix.has_aux));
	s->ix.rem = gp_xcalloc(n, sizeof(*s->ix.rem));
	s->ix.acct_t = gp_xcalloc(n, sizeof(*s->ix.acct_t));
	s->ix.ovh = gp_xcalloc(n, sizeof(*s->ix.ovh));
	s->ix.full = gp_xcalloc(n, sizeof(*s->ix.full));
	s->ix.seg_t = gp_xcalloc(n, sizeof(*s->ix.seg_t));
	s->ix.seg_work = gp_xcalloc(n, sizeof(*s->ix.seg_work));
	s->ix.ck_saved = gp_xcalloc(n, sizeof(*s->ix.ck_saved));
	s->ix.ck_next = gp_xcalloc(n, sizeof(*s->ix.ck_next));
	s->ix.ck_writing = gp_xcalloc(n, sizeof(*s->ix.ck_writing));
	s->ix.speed = gp_xmalloc(n * sizeof(*s->ix.speed));
	for (i = 0; i < n; i++)
		s->ix.speed[i] = 1;
	s->ix.pend_ovh = gp_xcalloc(n, sizeof(*s->ix.pend_ovh));
	s->ix.past_gpu_s = gp_xcalloc(n, sizeof(*s->ix.past_gpu_s));
	s->ix.held = gp_xcalloc(n, sizeof(*s->ix.held));
	s->ix.run_list = gp_xmalloc(n * sizeof(*s->ix.run_list));
	s->ix.run_pos = gp_xmalloc(n * sizeof(*s->ix.run_pos));
	gp_sim_nodeix_init(&s->ix.nodes, (size_t)s->cl->nnodes, s->n);
	for (k = 0; k < GP_SIM_MAX_HOOKS && s->cfg->hooks[k]; k++)
		s->ix.hooks[s->ix.nhooks++] = s->cfg->hooks[k];
	gp_sim_pk_setup(s);
	return GP_OK;
}

void gp_sim_ix_teardown(sim *s)
{
	free(s->ix.jst);
	free(s->ix.fin_seq);
	free(s->ix.aux_seq);
	free(s->ix.has_aux);
	free(s->ix.rem);
	free(s->ix.acct_t);
	free(s->ix.ovh);
	free(s->ix.full);
	free(s->ix.seg_t);
	free(s->ix.seg_work);
	free(s->ix.ck_saved);
	free(s->ix.ck_next);
	free(s->ix.ck_writing);
	free(s->ix.speed);
	free(s->ix.pend_ovh);
	free(s->ix.past_gpu_s);
	free(s->ix.held);
	free(s->ix.run_list);
	free(s->ix.run_pos);
	gp_sim_nodeix_release(&s->ix.nodes);
	free(s->ix.sev_arg);
	free(s->ix.sev_src);
	free(s->ix.sev_weak);
	free(s->ix.sev_free);
	free(s->ix.gpu_down);
	gp_sim_pk_teardown(s);
}

/* ---- progress ---- */

typedef struct prog {
	double rem, ovh, seg_work, ck_saved, ck_next;
	int writing;
} prog;

static prog prog_load(const sim *s, int32_t j)
{
	prog p;

	p.rem = s->ix.rem[j];
	p.ovh = s->ix.ovh[j];
	p.seg_work = s->ix.seg_work[j];
	p.ck_saved = s->ix.ck_saved[j];
	p.ck_next = s->ix.ck_next[j];
	p.writing = s->ix.ck_writing[j];
	return p;
}

/* e wall seconds at speed v. */
static void prog_run(prog *p, double e, double v, double tau, double delta)
{
	while (e > 0) {
		double lim, w;

		if (p->ovh > 0) {
			double o = e < p->ovh ? e : p->ovh;

			p->ovh -= o;
			e -= o;
			if (p->ovh > 0)
				break;
			p->ovh = 0;
			if (p->writing) {
				p->writing = 0;
				p->ck_saved = p->ck_next - tau;
			}
			continue;
		}
		if (!(p->rem > 0))
			break;
		lim = p->rem;
		if (tau > 0 && p->ck_next - p->seg_work < lim)
			lim = p->ck_next - p->seg_work;
		w = e * v;
		if (w < lim) {
			p->rem -= w;
			p->seg_work += w;
			break;
		}
		p->rem -= lim;
		p->seg_work += lim;
		e -= lim / v;
		if (!(p->rem > 0)) {
			p->rem = 0;
			break;
		}
		if (tau > 0 && p->seg_work >= p->ck_next) {
			p->ck_next += tau;
			if (delta > 0) {
				p->ovh = delta;
				p->writing = 1;
			} else {
				p->ck_saved = p->ck_next - tau;
			}
		}
	}
}

/* Bring j's progress from acct_t[j] to t (a stalled job stays frozen). */
static void advance(sim *s, int32_t j, double t)
{
	double e = t - s->ix.acct_t[j];
	prog p;

	if (s->ix.jst[j] != GP_SIM_JOB_RUNNING || !(e > 0))
		return;
	s->ix.acct_t[j] = t;
	p = prog_load(s, j);
	prog_run(&p, e, s->ix.speed[j], gp_sim_ix_tau(s, j), s->cfg->checkpoint_cost);
	s->ix.rem[j] = p.rem;
	s->ix.ovh[j] = p.ovh;
	s->ix.seg_work[j] = p.seg_work;
	s->ix.ck_saved[j] = p.ck_saved;
	s->ix.ck_next[j] = p.ck_next;
	s->ix.ck_writing[j] = (uint8_t)p.writing;
}

/* Checkpoint pauses a run needs to do work w from seg_work with the next
 * checkpoint at next (none at the very end). */
static double ck_pauses(const sim *s, int32_t j, double seg_work, double next, double w)
{
	const double tau = gp_sim_ix_tau(s, j), delta = s->cfg->checkpoint_cost;
	double target = seg_work + w;

	if (!(tau > 0) || !(delta > 0) || !(target > next))
		return 0;
	return ceil((target - next) / tau) * delta;
}

/* Wall seconds from acct_t[j] until j is done. */
static double wall_left(const sim *s, int32_t j)
{
	return s->ix.ovh[j] + s->ix.rem[j] / s->ix.speed[j] +
	       ck_pauses(s, j, s->ix.seg_work[j], s->ix.ck_next[j], s->ix.rem[j]);
}

/* Work left at the start of a run of whole run time full. */
static double work_at(const sim *s, int32_t j, double full)
{
	if (s->ix.full[j] > 0 && full != s->ix.full[j])
		return s->ix.rem[j] * (full / s->ix.full[j]);
	return s->ix.full[j] > 0 ? s->ix.rem[j] : full;
}

double gp_sim_ix_wall(sim *s, int32_t j, double full)
{
	double w = work_at(s, j, full);

	return s->ix.pend_ovh[j] + w + ck_pauses(s, j, 0, gp_sim_ix_tau(s, j), w);
}

double gp_sim_ix_peek_lost(const sim *s, int32_t j)
{
	double e = s->last_t - s->ix.acct_t[j];
	prog p;

	if (!(gp_sim_ix_tau(s, j) > 0))
		return 0;
	p = prog_load(s, j);
	if (s->ix.jst[j] == GP_SIM_JOB_RUNNING && e > 0)
		prog_run(&p, e, s->ix.speed[j], gp_sim_ix_tau(s, j), s->cfg->checkpoint_cost);
	return (p.seg_work - p.ck_saved) * (double)s->ix.held[j] / GP_MILLI;
}

/* ---- running set ---- */

static void run_add(sim *s, int32_t j)
{
	s->ix.run_pos[j] = (int32_t)s->ix.nrun;
	s->ix.run_list[s->ix.nrun++] = j;
}

static void run_remove(sim *s, int32_t j)
{
	int32_t last = s->ix.run_list[--s->ix.nrun];

	s->ix.run_list[s->ix.run_pos[j]] = last;
	s->ix.run_pos[last] = s->ix.run_pos[j];
}

static int64_t placement_milli(const gp_placement *p)
{
	int64_t m = 0;
	int i;

	for (i = 0; i < p->nparts; i++)
		m += (int64_t)p->parts[i].ngpus * p->parts[i].milli;
	return m;
}

void gp_sim_ix_started(sim *s, int32_t j)
{
	const gp_placement *p = &s->pool[s->slot[j]];
	int k, from_queue = s->ix.jst[j] == GP_SIM_JOB_QUEUED;

	s->ix.rem[j] = work_at(s, j, s->ix.scratch_dur);
	s->ix.full[j] = s->ix.scratch_dur;
	s->ix.ovh[j] = s->ix.pend_ovh[j];
	s->ix.pend_ovh[j] = 0;
	s->ix.seg_t[j] = s->ix.acct_t[j] = s->last_t;
	s->ix.seg_work[j] = s->ix.ck_saved[j] = 0;
	s->ix.ck_next[j] = gp_sim_ix_tau(s, j);
	s->ix.ck_writing[j] = 0;
	s->ix.speed[j] = 1;
	s->ix.held[j] = placement_milli(p);
	if (from_queue && s->res->jobs[j].interruptions > 0)
		s->ix.nrequeued--;
	s->ix.jst[j] = GP_SIM_JOB_RUNNING;
	run_add(s, j);
	gp_sim_nodeix_add(&s->ix.nodes, j, p);
	gp_sim_pk_add(s, j);
	if (s->disc->on_start)
		s->disc->on_start(s, j, from_queue);
	for (k = 0; k < s->ix.nhooks; k++)
		if (s->ix.hooks[k]->started)
			s->ix.hooks[k]->started(s->ix.hooks[k]->ud, s, j);
}

/* GPUs that went down while a job held them go down once free. */
static void take_pending_gpus(sim *s, const gp_placement *p)
{
	int i, g;

	for (i = 0; i < p->nparts && s->ix.ngpu_pending; i++) {
		int first = s->cl->nodes[p->parts[i].node].first_gpu;

		for (g = 0; g < p->parts[i].ngpus; g++) {
			int gpu = first + p->parts[i].gpus[g];

			if (s->ix.gpu_down[gpu] == 2 && s->alloc.gpu_tasks[gpu] == 0) {
				gp_alloc_take_gpu(&s->alloc, gpu, s->alloc.gpu_free_milli[gpu],
						  s->alloc.gpu_free_mem_mib[gpu]);
				s->ix.gpu_down[gpu] = 1;
				s->ix.ngpu_pending--;
			}
		}
	}
}

void gp_sim_ix_finished(sim *s, int32_t j)
{
	int k;

	s->ix.past_gpu_s[j] += (double)s->ix.held[j] / GP_MILLI * (s->res->jobs[j].finish - s->ix.seg_t[j]);
	s->res->jobs[j].ran_s += s->res->jobs[j].finish - s->ix.seg_t[j];
	s->ix.jst[j] = GP_SIM_JOB_ENDED;
	run_remove(s, j);
	gp_sim_nodeix_remove(&s->ix.nodes, j);
	gp_sim_pk_remove(s, j);
	if (s->ix.ngpu_pending)
		take_pending_gpus(s, &s->pool[s->slot[j]]);
	if (s->disc->on_stop)
		s->disc->on_stop(s, j);
	for (k = 0; k < s->ix.nhooks; k++)
		if (s->ix.hooks[k]->stopped)
			s->ix.hooks[k]->stopped(s->ix.hooks[k]->ud, s, j, 1);
}

/* ---- interrupting ---- */

void gp_sim_interrupt_init(gp_sim_interrupt *r)
{
	memset(r, 0, sizeof(*r));
	r->action = GP_SIM_REQUEUE;
	r->cause = GP_SIM_CAUSE_OTHER;
	r->lose = GP_SIM_LOSE_NOTHING;
}

static void place_copy(gp_placement *dst, const gp_placement *src)
{
	int i;

	gp_placement_clear(dst);
	if (src->cpu_len > dst->cpu_cap) {
		dst->cpu_pool = gp_xrealloc(dst->cpu_pool, (size_t)src->cpu_len * sizeof(int));
		dst->cpu_cap = src->cpu_len;
	}
	if (src->cpu_len)
		memcpy(dst->cpu_pool, src->cpu_pool, (size_t)src->cpu_len * sizeof(int));
	dst->cpu_len = src->cpu_len;
	for (i = 0; i < src->nparts; i++) {
		gp_place_part *p = gp_placement_add(dst, src->parts[i].node);

		*p = src->parts[i];
		p->cpus = p->ncpus && src->parts[i].cpus ? dst->cpu_pool + (src->parts[i].cpus - src->cpu_pool)
							 : NULL;
	}
	dst->bottleneck = src->bottleneck;
	dst->ring_bw_gbs = src->ring_bw_gbs;
}

/* The finish event of a running j from its progress state. */
static void push_finish(sim *s, int32_t j)
{
	gp_sim_job *rec = &s->res->jobs[j];

	rec->finish = s->ix.acct_t[j] + wall_left(s, j);
	s->ix.fin_seq[j] = s->heap.seq;
	gp_sim_heap_push(s, rec->finish, j);
}

/* Run time of j on placement p for a MOVE. */
static int move_duration(sim *s, int32_t j, const gp_sim_interrupt *r, const gp_placement *p,
			 double *full)
{
	const gp_job *job = &s->jl->jobs[j];
	gp_sim_runinfo ri;
	int64_t m = placement_milli(p);

	if (r->duration > 0) {
		*full = r->duration;
		return 0;
	}
	if (job->duration >= 0) {
		*full = m > 0 ? s->ix.full[j] * ((double)s->ix.held[j] / (double)m) : s->ix.full[j];
		return 0;
	}
	if (s->dur(s->dur_ud, s->cl, job, p, &ri) != 0 || !isfinite(ri.duration) || !(ri.duration > 0))
		return -1;
	*full = ri.duration;
	s->res->jobs[j].iter_s = ri.iter_s;
	return 0;
}

static void notify_stopped(sim *s, int32_t j)
{
	int k;

	for (k = 0; k < s->ix.nhooks; k++)
		if (s->ix.hooks[k]->stopped)
			s->ix.hooks[k]->stopped(s->ix.hooks[k]->ud, s, j, 0);
}

/* A move, fit first: nothing changes when the new placement does not
 * fit or has no run time (*full). */
static int move_begin(sim *s, int32_t j, const gp_sim_interrupt *r, int released, double *full)
{
	gp_placement *old = &s->pool[s->slot[j]];

	if (!r->place || released)
		return gp_error_set(s->err, GP_EUSAGE, NULL, 0, 0, "a move needs a placement");
	gp_placement_undo(&s->alloc, old);
	if (gp_placement_apply(&s->alloc, r->place) != 0) {
		if (gp_placement_apply(&s->alloc, old) != 0)
			return s->status = gp_error_set(s->err, GP_EIO, NULL, 0, 0,
							"internal error: cannot restore a running job");
		return gp_error_set(s->err, GP_EUSAGE, NULL, 0, 0, "job '%s': the new placement does not fit",
				    s->jl->jobs[j].id ? s->jl->jobs[j].id : "?");
	}
	if (move_duration(s, j, r, r->place, full) != 0) {
		gp_placement_undo(&s->alloc, r->place);
		gp_placement_apply(&s->alloc, old);
		return gp_error_set(s->err, GP_EUSAGE, NULL, 0, 0,
				    "job '%s' has no run time on the new placement",
				    s->jl->jobs[j].id ? s->jl->jobs[j].id : "?");
	}
	return GP_OK;
}

/* Work j loses now by r (seconds at speed 1). */
static double work_lost(const sim *s, int32_t j, const gp_sim_interrupt *r)
{
	double lost = 0;

	switch (r->lose) {
	case GP_SIM_LOSE_CHECKPOINT:
		lost = gp_sim_ix_tau(s, j) > 0 ? s->ix.seg_work[j] - s->ix.ck_saved[j] : s->ix.full[j] - s->ix.rem[j];
		break;
	case GP_SIM_LOSE_SECONDS:
		lost = r->lost_s < s->ix.full[j] - s->ix.rem[j] ? r->lost_s : s->ix.full[j] - s->ix.rem[j];
		break;
	default:
		break;
	}
	return lost > 0 ? lost : 0;
}

/* A move after its stop: j runs on again on r->place, whole run time
 * full; returns the GPU-seconds of its overhead. */
static double move_finish(sim *s, int32_t j, const gp_sim_interrupt *r, double full)
{
	gp_placement *old = &s->pool[s->slot[j]];
	double ovh = r->overhead_s > 0 ? r->overhead_s : 0, now = s->last_t;
	int k;

	place_copy(old, r->place);
	s->ix.rem[j] = s->ix.full[j] > 0 ? s->ix.rem[j] * (full / s->ix.full[j]) : full;
	s->ix.full[j] = full;
	s->ix.held[j] = placement_milli(old);
	s->alloc_milli += s->ix.held[j];
	s->ix.ovh[j] = ovh;
	s->ix.seg_t[j] = s->ix.acct_t[j] = now;
	s->ix.seg_work[j] = s->ix.ck_saved[j] = 0;
	s->ix.ck_next[j] = gp_sim_ix_tau(s, j);
	s->ix.ck_writing[j] = 0;
	s->ix.jst[j] = GP_SIM_JOB_RUNNING;
	gp_sim_result_record_nodes(s->res, j, old);
	push_finish(s, j);
	gp_sim_nodeix_add(&s->ix.nodes, j, old);
	gp_sim_pk_add(s, j);
	if (s->disc->on_start)
		s->disc->on_start(s, j, 0);
	for (k = 0; k < s->ix.nhooks; k++)
		if (s->ix.hooks[k]->started)
			s->ix.hooks[k]->started(s->ix.hooks[k]->ud, s, j);
	return ovh * (double)s->ix.held[j] / GP_MILLI;
}

/* A requeue or failure after its stop; returns the GPU-seconds of the
 * overhead a requeued job pays when it runs again. */
static double stop_finish(sim *s, int32_t j, const gp_sim_interrupt *r, double gpus)
{
	double now = s->last_t, ovh = r->overhead_s > 0 ? r->overhead_s : 0;

	s->pool_free[s->nfree++] = s->slot[j];
	s->slot[j] = -1;
	s->running--;
	run_remove(s, j);
	if (r->action == GP_SIM_FAIL) {
		s->ix.jst[j] = GP_SIM_JOB_ENDED;
		s->res->jobs[j].finish = now;
		if (now > s->res->last_finish)
			s->res->last_finish = now;
		gp_sim_settle(s, j, GP_SIM_FAILED, GP_SIM_WHY_INTERRUPTED);
		return 0;
	}
	s->ix.pend_ovh[j] += ovh;
	s->ix.jst[j] = GP_SIM_JOB_QUEUED;
	s->est[j] = s->ix.pend_ovh[j] + s->ix.rem[j];
	s->ix.nrequeued++;
	if (s->disc->on_wait)
		s->disc->on_wait(s, j);
	if (s->pk.defer) {
		GP_GROW(s->pk.deferred, s->pk.deferred_cap, s->pk.ndeferred + 1);
		s->pk.deferred[s->pk.ndeferred++] = j;
	} else {
		gp_sim_requeue(s, j);
	}
	return ovh * gpus;
}

int gp_sim_ix_interrupt(sim *s, int32_t j, const gp_sim_interrupt *r, int released)
{
	gp_sim_job *rec = &s->res->jobs[j];
	gp_placement *old = &s->pool[s->slot[j]];
	double now = s->last_t, lost, full = 0, gpus, lost_gpu;
	int was_running, cause = r->cause >= 0 && r->cause < GP_SIM_CAUSES ? r->cause : GP_SIM_CAUSE_OTHER;

	if (r->action == GP_SIM_MOVE) {
		int rc = move_begin(s, j, r, released, &full);

		if (rc != GP_OK)
			return rc;
		released = 1;
	}
	was_running = s->ix.jst[j] == GP_SIM_JOB_RUNNING;
	advance(s, j, now);
	lost = work_lost(s, j, r);
	s->ix.rem[j] += lost;
	gpus = (double)s->ix.held[j] / GP_MILLI;
	lost_gpu = lost * gpus;
	s->ix.past_gpu_s[j] += gpus * (now - s->ix.seg_t[j]);
	/* placed since seg_t, running or stalled: not waiting */
	rec->ran_s += now - s->ix.seg_t[j];
	gp_sim_nodeix_remove(&s->ix.nodes, j);
	gp_sim_pk_remove(s, j);
	if (was_running) {
		s->ix.nstale++; /* its finish event */
		if (s->disc->on_stop)
			s->disc->on_stop(s, j);
	}
	rec->interruptions++;
	if (cause == GP_SIM_CAUSE_PREEMPT)
		rec->preemptions++;
	s->res->interruptions[cause]++;
	if (!released)
		gp_placement_undo(&s->alloc, old);
	if (s->cfg->tenants)
		gp_sim_quota_change(s, j, old, -1);
	if (s->fs)
		gp_sim_fs_change(s, j, s->ix.held[j], -1);
	if (s->ix.ngpu_pending)
		take_pending_gpus(s, old);
	s->alloc_milli -= s->ix.held[j];
	s->version++;
	s->wait_epoch++;
	s->freed = 1;
	s->dirty = 1;
	notify_stopped(s, j);
	if (r->action == GP_SIM_MOVE) {
		lost_gpu += move_finish(s, j, r, full);
		if (s->cfg->tenants)
			gp_sim_quota_change(s, j, old, 1);
		if (s->fs)
			gp_sim_fs_change(s, j, s->ix.held[j], 1);
	} else {
		lost_gpu += stop_finish(s, j, r, gpus);
	}
	rec->lost_gpu_s += lost_gpu;
	s->res->lost_gpu_seconds[cause] += lost_gpu;
	return GP_OK;
}

void gp_sim_flush_requeue(sim *s)
{
	size_t i;

	for (i = 0; i < s->pk.ndeferred; i++)
		gp_sim_requeue(s, s->pk.deferred[i]);
	s->pk.ndeferred = 0;
}

static int check_job(sim *s, int32_t job, int stalled_ok)
{
	if (!s->ix.on || job < 0 || (size_t)job >= s->n ||
	    !(s->ix.jst[job] == GP_SIM_JOB_RUNNING || (stalled_ok && s->ix.jst[job] == GP_SIM_JOB_STALLED)))
		return gp_error_set(s->err, GP_EUSAGE, NULL, 0, 0, "job %ld does not run",
				    (long)job);
	return GP_OK;
}

int gp_sim_interrupt_job(gp_sim *s, int32_t job, const gp_sim_interrupt *r)
{
	int rc = check_job(s, job, 1);

	return rc ? rc : gp_sim_ix_interrupt(s, job, r, 0);
}

int gp_sim_stall(gp_sim *s, int32_t job)
{
	int rc = check_job(s, job, 0);

	if (rc)
		return rc;
	advance(s, job, s->last_t);
	s->ix.jst[job] = GP_SIM_JOB_STALLED;
	gp_sim_pk_remove(s, job);
	s->ix.nstale++;
	if (s->disc->on_stop)
		s->disc->on_stop(s, job);
	return GP_OK;
}

int gp_sim_set_speed(gp_sim *s, int32_t job, double speed)
{
	int rc = check_job(s, job, 0);

	if (rc)
		return rc;
	if (!(speed > 0) || speed > 1e6)
		return gp_error_set(s->err, GP_EUSAGE, NULL, 0, 0, "speed %g is out of (0, 1e6]", speed);
	if (speed == s->ix.speed[job])
		return GP_OK;
	advance(s, job, s->last_t);
	s->ix.speed[job] = speed;
	s->ix.nstale++;
	push_finish(s, job);
	return GP_OK;
}

int gp_sim_set_share(gp_sim *s, int32_t job, int milli)
{
	gp_placement *p;
	int64_t held;
	int i, g, rc = check_job(s, job, 0), lowered = 0;

	if (rc)
		return rc;
	if (s->disc->flags & GP_SIM_DISC_FIXED_SHARES)
		return gp_error_set(s->err, GP_EUSAGE, NULL, 0, 0, "shares cannot change under --queue %s",
				    s->disc->name);
	if (milli < 1 || milli > GP_MILLI)
		return gp_error_set(s->err, GP_EUSAGE, NULL, 0, 0, "share %d is out of [1, 1000]", milli);
	p = &s->pool[s->slot[job]];
	for (i = 0; i < p->nparts; i++) {
		int first = s->cl->nodes[p->parts[i].node].first_gpu;

		for (g = 0; g < p->parts[i].ngpus; g++)
			if (milli - p->parts[i].milli > s->alloc.gpu_free_milli[first + p->parts[i].gpus[g]])
				return GP_NO;
	}
	if (s->cfg->tenants && !gp_sim_quota_reshare(s, job, p, milli))
		return GP_NO;
	/* GPU-seconds of the segment so far at the old share. */
	s->ix.past_gpu_s[job] += (double)s->ix.held[job] / GP_MILLI * (s->last_t - s->ix.seg_t[job]);
	s->res->jobs[job].ran_s += s->last_t - s->ix.seg_t[job];
	s->ix.seg_t[job] = s->last_t;
	for (i = 0; i < p->nparts; i++) {
		int first = s->cl->nodes[p->parts[i].node].first_gpu;

		lowered |= milli < p->parts[i].milli;
		for (g = 0; g < p->parts[i].ngpus; g++) {
			int gpu = first + p->parts[i].gpus[g];

			gp_alloc_give_gpu(&s->alloc, gpu, p->parts[i].milli, 0);
			gp_alloc_take_gpu(&s->alloc, gpu, milli, 0);
		}
		p->parts[i].milli = milli;
	}
	held = placement_milli(p);
	s->alloc_milli += held - s->ix.held[job];
	gp_sim_pk_remove(s, job);
	s->ix.held[job] = held;
	gp_sim_pk_add(s, job);
	s->version++;
	s->dirty = 1;
	if (lowered) {
		s->wait_epoch++;
		s->freed = 1;
	}
	return GP_OK;
}

/* ---- read access to progress (the rest: interrupt_api.c) ---- */

double gp_sim_work_done(const gp_sim *s, int32_t job)
{
	double e;
	prog p;

	if (job < 0 || (size_t)job >= s->n || !(s->ix.full[job] > 0))
		return 0;
	/* Progress is accounted lazily (acct_t): bring a copy up to now. */
	p = prog_load(s, job);
	e = s->last_t - s->ix.acct_t[job];
	if (s->ix.jst[job] == GP_SIM_JOB_RUNNING && e > 0)
		prog_run(&p, e, s->ix.speed[job], s->cfg->checkpoint_interval, s->cfg->checkpoint_cost);
	return 1 - p.rem / s->ix.full[job];
}
