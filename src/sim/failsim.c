/* Failures in the simulator (failsim.h): injection, heartbeat detection,
 * recovery by policy, and what the reports need. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/place/replace.h"
#include "gpuplan/sim/failsim.h"
#include "gpuplan/util/util.h"

static const char *const recovery_names[GP_RECOVERIES] = { "restart", "replace", "shrink", "fail" };
static const char *const action_names[GP_FA_ACTIONS] = {
	"none", "replaced", "shrunk", "restarted", "failed", "absorbed", "pending",
};

const char *gp_recovery_name(int r)
{
	return r >= 0 && r < GP_RECOVERIES ? recovery_names[r] : "?";
}

int gp_recovery_parse(const char *s)
{
	int i;

	for (i = 0; i < GP_RECOVERIES; i++)
		if (!strcmp(s, recovery_names[i]))
			return i;
	return -1;
}

const char *gp_failsim_action_name(int a)
{
	return a >= 0 && a < GP_FA_ACTIONS ? action_names[a] : "?";
}

void gp_failsim_config_init(gp_failsim_config *c, uint64_t seed)
{
	memset(c, 0, sizeof(*c));
	gp_fail_gen_init(&c->gen);
	c->gen.seed = seed;
	gp_heartbeat_init(&c->hb, seed);
	c->recovery = GP_RECOVERY_RESTART;
}

/* Events of this source: kind in the low 2 bits, a failure index above. */
enum { EV_FAIL = 0, EV_DETECT = 1, EV_REPAIR = 2 };
#define ARG(kind, idx) ((int64_t)(idx) * 4 + (kind))

typedef struct fail_rec {
	gp_fail_event e;
	double detect_t;
	size_t first_row, nrows;
} fail_rec;

struct gp_failsim {
	gp_failsim_config cfg;
	const gp_cluster *c;
	size_t njobs;
	gp_sim_hooks hooks;
	gp_sim *s;
	gp_fail_source *src;
	fail_rec *recs;
	size_t nrecs, cap_recs;
	gp_failsim_row *rows;
	size_t nrows, cap_rows;
	double *recovery;       /* per recovered interruption */
	size_t nrecovery, cap_recovery;
	/* per node / GPU: failures not yet repaired */
	uint16_t *node_fails, *gpu_fails;
	uint16_t *link_fails;
	/* per job */
	double *job_recovery_s, *job_stall_gpu_s;
	double *stall_t;        /* when it stalled, < 0 not stalled by us */
	double *pend_fail_t;    /* restart pending: the failure time */
	int64_t *pend_row;      /* ... and its row, -1 none */
	uint8_t *hit;           /* interrupted at least once */
	/* Productive time of interrupted jobs (ETTR): work kept, in wall
	 * seconds at the speed of the placement it was done on.  f_prev is
	 * the share of the work done when last accounted, full_cur the whole
	 * run time on the current placement. */
	double *prod, *f_prev, *full_cur;
	uint32_t *stamp;
	uint32_t cur_stamp;
	/* running jobs per node: entries in per-node lists */
	int32_t *node_head;
	int32_t *ent_job, *ent_node, *ent_prev, *ent_next, *ent_jnext, *ent_part;
	int32_t *job_ent;
	int32_t ent_free;
	size_t nent, cap_ent;
	/* the replacement decision */
	gp_place_cache *pc;
	gp_rng rng;
	gp_placement scratch;
	gp_replace_result res;
	size_t injected, detected, jobs_interrupted, replaced, shrunk, restarted, failed_jobs;
	double stall_gpu_s;
};

/* Whole run time of job on placement p, as the engine reckons it: a
 * fixed duration stretches by the share it was given / the share it
 * holds; an iteration-based job runs iterations x its iteration time. */
static double full_of(const gp_failsim *f, int32_t job, const gp_placement *p)
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

/* ---- per-node lists of running jobs ---- */

static int32_t ent_new(gp_failsim *f)
{
	int32_t e;

	if (f->ent_free >= 0) {
		e = f->ent_free;
		f->ent_free = f->ent_next[e];
		return e;
	}
	if (f->nent == f->cap_ent) {
		f->cap_ent = f->cap_ent ? 2 * f->cap_ent : 256;
		f->ent_job = gp_xrealloc(f->ent_job, f->cap_ent * sizeof(int32_t));
		f->ent_node = gp_xrealloc(f->ent_node, f->cap_ent * sizeof(int32_t));
		f->ent_prev = gp_xrealloc(f->ent_prev, f->cap_ent * sizeof(int32_t));
		f->ent_next = gp_xrealloc(f->ent_next, f->cap_ent * sizeof(int32_t));
		f->ent_jnext = gp_xrealloc(f->ent_jnext, f->cap_ent * sizeof(int32_t));
		f->ent_part = gp_xrealloc(f->ent_part, f->cap_ent * sizeof(int32_t));
	}
	return (int32_t)f->nent++;
}

static void on_started(void *ud, gp_sim *s, int32_t job)
{
	gp_failsim *f = ud;
	const gp_placement *p = gp_sim_placement(s, job);
	int i;

	if (!p || f->job_ent[job] >= 0)
		return;
	if (f->hit[job])
		f->full_cur[job] = full_of(f, job, p);
	for (i = 0; i < p->nparts; i++) {
		int32_t e;
		int node = p->parts[i].node;

		if (p->parts[i].ngpus <= 0)
			continue;
		e = ent_new(f);
		f->ent_job[e] = job;
		f->ent_node[e] = node;
		f->ent_part[e] = i;
		f->ent_prev[e] = -1;
		f->ent_next[e] = f->node_head[node];
		if (f->node_head[node] >= 0)
			f->ent_prev[f->node_head[node]] = e;
		f->node_head[node] = e;
		f->ent_jnext[e] = f->job_ent[job];
		f->job_ent[job] = e;
	}
	/* A restart is over once the job runs again (after its restart cost). */
	if (f->pend_row[job] >= 0 || f->pend_fail_t[job] >= 0) {
		double rec = gp_sim_now(s) + f->cfg.restart_cost - f->pend_fail_t[job];

		if (f->nrecovery == f->cap_recovery) {
			f->cap_recovery = f->cap_recovery ? 2 * f->cap_recovery : 64;
			f->recovery = gp_xrealloc(f->recovery, f->cap_recovery * sizeof(double));
		}
		f->recovery[f->nrecovery++] = rec;
		f->job_recovery_s[job] += rec;
		if (f->pend_row[job] >= 0)
			f->rows[f->pend_row[job]].recover_s = rec;
		f->pend_row[job] = -1;
		f->pend_fail_t[job] = -1;
	}
}

static void on_stopped(void *ud, gp_sim *s, int32_t job, int finished)
{
	gp_failsim *f = ud;
	int32_t e = f->job_ent[job];

	(void)s;
	if (finished && f->hit[job]) {
		f->prod[job] += (1 - f->f_prev[job]) * f->full_cur[job];
		f->f_prev[job] = 1;
	}
	while (e >= 0) {
		int32_t nx = f->ent_jnext[e], node = f->ent_node[e];

		if (f->ent_prev[e] >= 0)
			f->ent_next[f->ent_prev[e]] = f->ent_next[e];
		else
			f->node_head[node] = f->ent_next[e];
		if (f->ent_next[e] >= 0)
			f->ent_prev[f->ent_next[e]] = f->ent_prev[e];
		f->ent_next[e] = f->ent_free;
		f->ent_free = e;
		e = nx;
	}
	f->job_ent[job] = -1;
}

/* ---- helpers ---- */

static double held_gpus(const gp_placement *p)
{
	double g = 0;
	int i;

	for (i = 0; i < p->nparts; i++)
		g += p->parts[i].ngpus * (double)p->parts[i].milli / 1000.0;
	return g;
}

/* Whether placement p uses the failed unit of e (a link only matters to
 * a job spanning nodes). */
static int uses(const gp_placement *p, const gp_fail_event *e)
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
static int holds_failed(const gp_failsim *f, const gp_placement *p)
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

static size_t new_row(gp_failsim *f, const gp_fail_event *e, double detect_t, int32_t job)
{
	gp_failsim_row *r;

	GP_GROW(f->rows, f->cap_rows, f->nrows + 1);
	r = &f->rows[f->nrows];
	memset(r, 0, sizeof(*r));
	r->time = e->time;
	r->node = e->node;
	r->gpu = e->gpu;
	r->kind = e->kind;
	r->job = job;
	r->replacement = -1;
	r->detect_s = detect_t - e->time;
	r->recover_s = -1;
	r->action = job < 0 ? GP_FA_NONE : GP_FA_PENDING;
	return f->nrows++;
}

static int at(gp_failsim *f, double t, int64_t arg, int weak)
{
	double now = gp_sim_now(f->s);

	return gp_sim_at(f->s, &f->hooks, t > now ? t : now, arg, weak);
}

/* ---- injection ---- */

static int inject(gp_failsim *f, const gp_fail_event *e)
{
	gp_sim *s = f->s;
	const gp_cluster *c = f->c;
	fail_rec *rec;
	size_t idx;
	int32_t en;
	int rc, gpu = e->gpu >= 0 ? c->nodes[e->node].first_gpu + e->gpu : -1;

	f->injected++;
	GP_GROW(f->recs, f->cap_recs, f->nrecs + 1);
	idx = f->nrecs++;
	rec = &f->recs[idx];
	rec->e = *e;
	rec->e.time = gp_sim_now(s);
	rec->detect_t = gp_heartbeat_detect(&f->cfg.hb, e->node, rec->e.time);
	rec->first_row = f->nrows;
	rec->nrows = 0;
	/* Out of scheduling until repaired. */
	if (e->kind == GP_FAIL_GPU) {
		if (f->gpu_fails[gpu]++ == 0 && (rc = gp_sim_gpu_down(s, gpu)))
			return rc;
	} else {
		if (e->kind == GP_FAIL_LINK)
			f->link_fails[e->node]++;
		if (f->node_fails[e->node]++ == 0 && (rc = gp_sim_node_down(s, e->node)))
			return rc;
	}
	/* The jobs it hits stop progressing now. */
	f->cur_stamp++;
	for (en = f->node_head[e->node]; en >= 0; en = f->ent_next[en]) {
		int32_t j = f->ent_job[en];
		const gp_placement *p;

		if (f->stamp[j] == f->cur_stamp)
			continue;
		f->stamp[j] = f->cur_stamp;
		p = gp_sim_placement(s, j);
		if (!p || !uses(p, &rec->e))
			continue;
		if (gp_sim_job_status(s, j) == GP_SIM_JOB_RUNNING) {
			if ((rc = gp_sim_stall(s, j)))
				return rc;
			f->stall_t[j] = rec->e.time;
		}
		new_row(f, &rec->e, rec->detect_t, j);
		f->recs[idx].nrows++;
	}
	rec = &f->recs[idx];
	if (rec->nrows == 0)
		new_row(f, &rec->e, rec->detect_t, -1);
	if ((rc = at(f, rec->detect_t, ARG(EV_DETECT, idx), 1)))
		return rc;
	if (e->repair_s >= 0 && (rc = at(f, rec->e.time + e->repair_s, ARG(EV_REPAIR, idx), 0)))
		return rc;
	return GP_OK;
}

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
		f->full_cur[job] = full_of(f, job, p);
	}
	if (f->stall_t[job] >= 0) {
		double gs = held_gpus(p) * (now - f->stall_t[job]);

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
	if (p && holds_failed(f, p) && gp_sim_job_status(s, job) == GP_SIM_JOB_RUNNING) {
		if ((rc = gp_sim_stall(s, job)))
			return rc;
		f->stall_t[job] = now;
	}
	return GP_OK;
}

static int detect(gp_failsim *f, size_t idx)
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
		    !uses(p, &rec->e)) {
			f->rows[row].action = GP_FA_ABSORBED;
			continue;
		}
		if ((rc = recover(f, j, row, rec)))
			return rc;
		rec = &f->recs[idx];
	}
	return GP_OK;
}

static int repair(gp_failsim *f, size_t idx)
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

/* ---- the hook ---- */

static int on_begin(void *ud, gp_sim *s)
{
	gp_failsim *f = ud;
	double t;

	f->s = s;
	t = gp_fail_source_peek(f->src);
	return isfinite(t) ? at(f, t, ARG(EV_FAIL, 0), 1) : GP_OK;
}

static int on_event(void *ud, gp_sim *s, int64_t arg)
{
	gp_failsim *f = ud;
	int kind = (int)(arg & 3), rc;
	size_t idx = (size_t)(arg >> 2);
	double now = gp_sim_now(s), t;
	gp_fail_event e;

	switch (kind) {
	case EV_FAIL:
		while (gp_fail_source_peek(f->src) <= now) {
			gp_fail_source_pop(f->src, &e);
			if ((rc = inject(f, &e)))
				return rc;
		}
		t = gp_fail_source_peek(f->src);
		return isfinite(t) ? at(f, t, ARG(EV_FAIL, 0), 1) : GP_OK;
	case EV_DETECT:
		return detect(f, idx);
	case EV_REPAIR:
		return repair(f, idx);
	}
	return GP_OK;
}

gp_failsim *gp_failsim_new(const gp_failsim_config *cfg, const gp_cluster *c, size_t njobs)
{
	gp_failsim *f = gp_xcalloc(1, sizeof(*f));
	size_t n = njobs ? njobs : 1, i;
	const gp_fail_gen *gen = cfg->gen.mtbf_node_h > 0 || cfg->gen.mtbf_gpu_h > 0 ? &cfg->gen : NULL;

	f->cfg = *cfg;
	f->c = c;
	f->njobs = njobs;
	f->src = gp_fail_source_new(c, cfg->file, gen);
	f->node_fails = gp_xcalloc((size_t)(c->nnodes ? c->nnodes : 1), sizeof(uint16_t));
	f->link_fails = gp_xcalloc((size_t)(c->nnodes ? c->nnodes : 1), sizeof(uint16_t));
	f->gpu_fails = gp_xcalloc((size_t)(c->ngpus ? c->ngpus : 1), sizeof(uint16_t));
	f->node_head = gp_xmalloc((size_t)(c->nnodes ? c->nnodes : 1) * sizeof(int32_t));
	for (i = 0; i < (size_t)c->nnodes; i++)
		f->node_head[i] = -1;
	f->ent_free = -1;
	f->job_recovery_s = gp_xcalloc(n, sizeof(double));
	f->job_stall_gpu_s = gp_xcalloc(n, sizeof(double));
	f->stall_t = gp_xmalloc(n * sizeof(double));
	f->pend_fail_t = gp_xmalloc(n * sizeof(double));
	f->pend_row = gp_xmalloc(n * sizeof(int64_t));
	f->job_ent = gp_xmalloc(n * sizeof(int32_t));
	for (i = 0; i < n; i++) {
		f->stall_t[i] = -1;
		f->pend_fail_t[i] = -1;
		f->pend_row[i] = -1;
		f->job_ent[i] = -1;
	}
	f->hit = gp_xcalloc(n, 1);
	f->prod = gp_xcalloc(n, sizeof(double));
	f->f_prev = gp_xcalloc(n, sizeof(double));
	f->full_cur = gp_xcalloc(n, sizeof(double));
	f->stamp = gp_xcalloc(n, sizeof(uint32_t));
	if (cfg->recovery == GP_RECOVERY_REPLACE)
		f->pc = gp_place_cache_new(c);
	gp_rng_seed(&f->rng, cfg->gen.seed);
	gp_placement_init(&f->scratch);
	gp_replace_result_init(&f->res);
	f->hooks.name = "failures";
	f->hooks.ud = f;
	f->hooks.begin = on_begin;
	f->hooks.event = on_event;
	f->hooks.started = on_started;
	f->hooks.stopped = on_stopped;
	return f;
}

void gp_failsim_free(gp_failsim *f)
{
	if (!f)
		return;
	gp_fail_source_free(f->src);
	free(f->recs);
	free(f->rows);
	free(f->recovery);
	free(f->node_fails);
	free(f->link_fails);
	free(f->gpu_fails);
	free(f->job_recovery_s);
	free(f->job_stall_gpu_s);
	free(f->stall_t);
	free(f->pend_fail_t);
	free(f->pend_row);
	free(f->hit);
	free(f->prod);
	free(f->f_prev);
	free(f->full_cur);
	free(f->stamp);
	free(f->node_head);
	free(f->ent_job);
	free(f->ent_node);
	free(f->ent_prev);
	free(f->ent_next);
	free(f->ent_jnext);
	free(f->ent_part);
	free(f->job_ent);
	gp_place_cache_free(f->pc);
	gp_placement_release(&f->scratch);
	gp_replace_result_release(&f->res);
	free(f);
}

const gp_sim_hooks *gp_failsim_hooks(gp_failsim *f)
{
	return &f->hooks;
}

double gp_failsim_job_recovery_s(const gp_failsim *f, size_t job)
{
	return job < f->njobs ? f->job_recovery_s[job] : 0;
}

double gp_failsim_job_stall_gpu_s(const gp_failsim *f, size_t job)
{
	return job < f->njobs ? f->job_stall_gpu_s[job] : 0;
}

const gp_failsim_row *gp_failsim_rows(const gp_failsim *f, size_t *n)
{
	*n = f->nrows;
	return f->rows;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Productive seconds of a completed job: its work at full speed. */
static double productive_s(const gp_job *j, const gp_sim_job *r)
{
	if (j->duration >= 0)
		return j->duration;
	if (j->iterations > 0 && r->iter_s > 0)
		return (double)j->iterations * r->iter_s;
	return r->finish - r->start;
}

void gp_failsim_summarize(const gp_failsim *f, const gp_joblist *jobs, const gp_sim_result *r,
			  gp_failsim_summary *out)
{
	double prod = 0, wall = 0, good = 0;
	double *v;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->injected = f->injected;
	out->detected = f->detected;
	out->jobs_interrupted = f->jobs_interrupted;
	out->replaced = f->replaced;
	out->shrunk = f->shrunk;
	out->restarted = f->restarted;
	out->failed_jobs = f->failed_jobs;
	out->lost_gpu_hours = (r->lost_gpu_seconds[GP_SIM_CAUSE_FAILURE] + f->stall_gpu_s) / 3600.0;
	out->recoveries = f->nrecovery;
	if (f->nrecovery) {
		v = gp_xmalloc(f->nrecovery * sizeof(*v));
		memcpy(v, f->recovery, f->nrecovery * sizeof(*v));
		qsort(v, f->nrecovery, sizeof(*v), cmp_dbl);
		for (i = 0; i < f->nrecovery; i++)
			out->recovery_s.mean += v[i];
		out->recovery_s.mean /= (double)f->nrecovery;
		out->recovery_s.p50 = gp_percentile_sorted(v, f->nrecovery, 50);
		out->recovery_s.p90 = gp_percentile_sorted(v, f->nrecovery, 90);
		out->recovery_s.p99 = gp_percentile_sorted(v, f->nrecovery, 99);
		out->recovery_s.max = v[f->nrecovery - 1];
		free(v);
	}
	for (i = 0; i < jobs->n && i < r->njobs; i++) {
		const gp_sim_job *rj = &r->jobs[i];
		const gp_job *j = &jobs->jobs[i];
		double p;

		if (rj->state != GP_SIM_DONE)
			continue;
		p = productive_s(j, rj);
		good += p * j->gpus * (double)j->gpu_milli / 1000.0;
		if (i < f->njobs && f->hit[i] && rj->finish > rj->start) {
			prod += f->prod[i] > 0 ? f->prod[i] : p;
			wall += rj->finish - rj->start;
			out->ettr_jobs++;
		}
	}
	out->ettr = wall > 0 ? prod / wall : 0;
	out->goodput = r->alloc_gpu_seconds > 0 ? good / r->alloc_gpu_seconds : 0;
}
