/* Failures in the simulator (failsim.h): injection, heartbeat detection,
 * recovery by policy, and what the reports need. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/place/replace.h"
#include "gpuplan/sim/failsim.h"
#include "gpuplan/util/util.h"
#include "failsim_int.h"

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

static void on_started(void *ud, gp_sim *s, int32_t job)
{
	gp_failsim *f = ud;
	const gp_placement *p = gp_sim_placement(s, job);

	if (!p)
		return;
	if (f->hit[job])
		f->full_cur[job] = gp_failsim_full_of(f, job, p);
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

	(void)s;
	if (finished && f->hit[job]) {
		f->prod[job] += (1 - f->f_prev[job]) * f->full_cur[job];
		f->f_prev[job] = 1;
	}
}

/* ---- rows ---- */

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

#define MAX_FAILURES 2000000

static int inject(gp_failsim *f, const gp_fail_event *e)
{
	gp_sim *s = f->s;
	const gp_cluster *c = f->c;
	fail_rec *rec;
	size_t idx;
	int32_t it, j;
	int ng;
	int rc, gpu = e->gpu >= 0 ? c->nodes[e->node].first_gpu + e->gpu : -1;

	/* Each failure is kept for the reports: a failure rate that leaves
	 * the jobs no time to finish would otherwise grow them until memory
	 * runs out.  The run ends with a message instead. */
	if (f->nrecs >= MAX_FAILURES)
		return gp_error_set(gp_sim_error(s), GP_EUSAGE, "", 0, 0,
				    "more than %d failures at %.0f s of simulated time and jobs still to finish: "
				    "the failure rate leaves them too little time to run (raise --mtbf-node / --mtbf-gpu, or add checkpoints)",
				    MAX_FAILURES, gp_sim_now(s));
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
	for (it = gp_sim_node_next(s, e->node, -1, &j, &ng); it >= 0;
	     it = gp_sim_node_next(s, e->node, it, &j, &ng)) {
		const gp_placement *p;

		if (ng <= 0)
			continue;
		p = gp_sim_placement(s, j);
		if (!p || !gp_failsim_uses(p, &rec->e))
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
		return gp_failsim_detect(f, idx);
	case EV_REPAIR:
		return gp_failsim_repair(f, idx);
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
	f->job_recovery_s = gp_xcalloc(n, sizeof(double));
	f->job_stall_gpu_s = gp_xcalloc(n, sizeof(double));
	f->stall_t = gp_xmalloc(n * sizeof(double));
	f->pend_fail_t = gp_xmalloc(n * sizeof(double));
	f->pend_row = gp_xmalloc(n * sizeof(int64_t));
	for (i = 0; i < n; i++) {
		f->stall_t[i] = -1;
		f->pend_fail_t[i] = -1;
		f->pend_row[i] = -1;
	}
	f->hit = gp_xcalloc(n, 1);
	f->prod = gp_xcalloc(n, sizeof(double));
	f->f_prev = gp_xcalloc(n, sizeof(double));
	f->full_cur = gp_xcalloc(n, sizeof(double));
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
		gp_dist_of(v, f->nrecovery, &out->recovery_s);
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
