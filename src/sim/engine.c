/* The discrete-event engine: job life, the scheduling pass, setup and
 * the main loop (see sim_int.h for the other files). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/place/place.h"
#include "sim_int.h"

#define TICK_TARGET 500.0 /* timeline rows aimed at by the auto tick */

typedef struct order_key {
	double submit;
	size_t idx;
} order_key;

const char *gp_sim_preempt_name(int mode)
{
	static const char *const names[] = { "off", "class", "priority" };

	return mode >= 0 && mode < GP_SIM_PREEMPT_MODES ? names[mode] : "?";
}

int gp_sim_preempt_parse(const char *s)
{
	int m;

	for (m = 0; m < GP_SIM_PREEMPT_MODES; m++)
		if (!strcmp(s, gp_sim_preempt_name(m)))
			return m;
	return -1;
}

const char *gp_sim_state_name(int state)
{
	static const char *const names[] = { "pending", "completed", "failed", "never_placed" };

	return state >= 0 && state <= GP_SIM_NEVER ? names[state] : "?";
}

int gp_sim_fixed_duration(void *ud, const gp_cluster *c, const gp_job *job,
			  const gp_placement *p, gp_sim_runinfo *out)
{
	(void)ud;
	(void)c;
	(void)p;
	memset(out, 0, sizeof(*out));
	if (!(job->duration >= 0) || !isfinite(job->duration))
		return -1;
	out->duration = job->duration;
	return 0;
}

void gp_sim_config_init(gp_sim_config *c)
{
	memset(c, 0, sizeof(*c));
	c->queue = GP_SIM_FIFO;
	c->las_preempt = 1;
	c->fs_halflife = 7 * 86400.0;
	c->fs_interval = 300;
	c->fs_w_fairshare = 1;
}

void gp_sim_result_init(gp_sim_result *r)
{
	memset(r, 0, sizeof(*r));
}

void gp_sim_result_release(gp_sim_result *r)
{
	if (!r)
		return;
	free(r->jobs);
	free(r->samples);
	free(r->node_ids);
	free(r->job_tenant);
	free(r->tenant_use);
	memset(r, 0, sizeof(*r));
}

/* ---- job shapes: jobs that ask for the same thing share a probe ---- */

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h;
}

static uint64_t shape_hash(const gp_job *j)
{
	uint64_t h = 1469598103934665603ULL;
	const char *p;

	h = mix(h, (uint64_t)(int64_t)j->gpus);
	h = mix(h, (uint64_t)(int64_t)j->gpu_milli);
	h = mix(h, (uint64_t)j->gpu_mem_mib);
	h = mix(h, (uint64_t)j->cpu_milli);
	h = mix(h, (uint64_t)j->mem_mib);
	h = mix(h, (uint64_t)(int64_t)j->type);
	h = mix(h, (uint64_t)(int64_t)j->ps);
	h = mix(h, (uint64_t)(int64_t)j->workers);
	for (p = j->gpu_models ? j->gpu_models : ""; *p; p++)
		h = mix(h, (unsigned char)*p);
	for (p = j->environment ? j->environment : ""; *p; p++)
		h = mix(h, (unsigned char)*p);
	return h;
}

static int str_eq(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

static int shape_eq(const gp_job *a, const gp_job *b)
{
	return a->gpus == b->gpus && a->gpu_milli == b->gpu_milli &&
	       a->gpu_mem_mib == b->gpu_mem_mib && a->cpu_milli == b->cpu_milli &&
	       a->mem_mib == b->mem_mib && a->type == b->type && a->ps == b->ps &&
	       a->workers == b->workers && str_eq(a->gpu_models, b->gpu_models) &&
	       str_eq(a->environment, b->environment) &&
	       a->pred_milli == b->pred_milli; /* per-model shares: one row per prediction */
}

static uint64_t shape_hash_of(const void *jobs, size_t j)
{
	return shape_hash((const gp_job *)jobs + j);
}

static int same_shape(const void *jobs, size_t a, size_t b)
{
	return shape_eq((const gp_job *)jobs + a, (const gp_job *)jobs + b);
}

static void assign_shapes(sim *s)
{
	s->nshapes = gp_number_classes(s->n, shape_hash_of, same_shape, s->jl->jobs, s->shape);
	s->shape_fits = gp_xmalloc((s->nshapes ? s->nshapes : 1) * sizeof(*s->shape_fits));
	memset(s->shape_fits, 0xff, (s->nshapes ? s->nshapes : 1) * sizeof(*s->shape_fits));
	s->shape_waited = gp_xcalloc(s->nshapes ? s->nshapes : 1, sizeof(*s->shape_waited));
	s->shape_conflict = gp_xcalloc(s->nshapes ? s->nshapes : 1, sizeof(*s->shape_conflict));
}

/* gp_place_ever's answer for j, asked once per job shape. */
static int ever_fits(sim *s, int32_t j)
{
	int32_t sh = s->shape[j];

	if (s->shape_fits[sh] < 0) {
		char why[8];

		if (!s->probe.ready) {
			if (gp_place_idle_init(&s->probe.alloc, s->cl) != GP_OK) {
				s->status = gp_error_set(s->err, GP_EIO, NULL, 0, 0,
							 "cannot set up the cluster state");
				return GP_NEVER_POLICY;
			}
			s->probe.ready = 1;
		}
		s->res->policy_calls++;
		s->shape_fits[sh] = (int8_t)gp_place_ever(s->cfg->policy, &s->probe.ctx,
							  &s->jl->jobs[j], &s->probe.place, why,
							  sizeof(why));
	}
	return s->shape_fits[sh];
}

static void arrive(sim *s, int32_t j)
{
	const gp_job *job = &s->jl->jobs[j];
	gp_sim_runinfo ri;

	int ever = ever_fits(s, j);

	if (ever != GP_EVER) {
		gp_sim_settle(s, j, GP_SIM_NEVER,
			      ever == GP_NEVER_CLUSTER ? GP_SIM_WHY_CLUSTER : GP_SIM_WHY_POLICY);
		return;
	}
	if (s->dur(s->dur_ud, s->cl, job, NULL, &ri) != 0 || !isfinite(ri.duration) ||
	    ri.duration < 0) {
		gp_sim_settle(s, j, GP_SIM_FAILED, GP_SIM_WHY_NO_RUNTIME);
		return;
	}
	s->est[j] = ri.duration;
	if (s->ix.on)
		s->ix.jst[j] = GP_SIM_JOB_QUEUED;
	gp_sim_enqueue(s, j);
	s->narrived++;
	s->dirty = 1;
}

/* Start j now on the placement in s->scratch. */
int gp_sim_start_job(sim *s, int32_t j, const gp_sim_runinfo *ri)
{
	gp_sim_job *rec = &s->res->jobs[j];
	const gp_job *job = &s->jl->jobs[j];
	gp_placement tmp;
	int32_t slot;

	if (gp_placement_apply(&s->alloc, &s->scratch) != 0)
		return s->status = gp_error_set(s->err, GP_EIO, NULL, 0, 0,
						"policy '%s' proposed a placement for job '%s' that does not fit",
						s->cfg->policy->name, job->id ? job->id : "?");
	if (!s->nfree) {
		size_t cap = s->npool ? 2 * s->npool : 64, x;

		s->pool = gp_xrealloc(s->pool, cap * sizeof(*s->pool));
		s->pool_free = gp_xrealloc(s->pool_free, cap * sizeof(*s->pool_free));
		for (x = cap; x-- > s->npool;) {
			gp_placement_init(&s->pool[x]);
			s->pool_free[s->nfree++] = (int32_t)x;
		}
		s->npool = cap;
	}
	slot = s->pool_free[--s->nfree];
	tmp = s->pool[slot];
	s->pool[slot] = s->scratch;
	s->scratch = tmp;
	s->slot[j] = slot;
	if (s->cfg->tenants)
		gp_sim_quota_change(s, j, &s->pool[slot], 1);
	if (rec->start < 0)
		rec->start = s->last_t;
	rec->finish = s->last_t + ri->duration;
	rec->iter_s = ri->iter_s;
	rec->slowdown = ri->best_iter_s > 0 && ri->iter_s > 0 ? ri->iter_s / ri->best_iter_s : 0;
	gp_sim_result_record_nodes(s->res, j, &s->pool[slot]);
	s->version++;
	s->alloc_version++;
	s->running++;
	if (s->running > s->res->peak_running)
		s->res->peak_running = s->running;
	gp_sim_dequeue(s, j);
	if (s->ix.on) {
		s->ix.fin_seq[j] = s->heap.seq;
		gp_sim_heap_push(s, rec->finish, j);
		gp_sim_ix_started(s, j);
		s->alloc_milli += s->ix.held[j];
		if (s->fs)
			gp_sim_fs_change(s, j, s->ix.held[j], 1);
		return GP_OK;
	}
	s->alloc_milli += need_milli(job);
	if (s->fs)
		gp_sim_fs_change(s, j, need_milli(job), 1);
	gp_sim_heap_push(s, rec->finish, j);
	return GP_OK;
}

static void finish_job(sim *s, int32_t j)
{
	int32_t slot = s->slot[j];

	if (s->cfg->tenants)
		gp_sim_quota_change(s, j, &s->pool[slot], -1);
	if (s->fs)
		gp_sim_fs_change(s, j, s->ix.on ? s->ix.held[j] : need_milli(&s->jl->jobs[j]), -1);
	gp_placement_undo(&s->alloc, &s->pool[slot]);
	if (s->ix.on) {
		gp_sim_ix_finished(s, j);
		s->alloc_milli -= s->ix.held[j];
	} else {
		s->alloc_milli -= need_milli(&s->jl->jobs[j]);
		s->res->jobs[j].ran_s = s->res->jobs[j].finish - s->res->jobs[j].start;
	}
	s->pool_free[s->nfree++] = slot;
	s->slot[j] = -1;
	s->dirty = 1;
	s->version++;
	s->alloc_version++;
	s->wait_epoch++;
	s->running--;
	s->freed = 1;
	if (s->res->jobs[j].finish > s->res->last_finish)
		s->res->last_finish = s->res->jobs[j].finish;
	gp_sim_settle(s, j, GP_SIM_DONE, GP_SIM_WHY_NONE);
}

/* Ask the policy to place j on the current state (into s->scratch). */
int gp_sim_try_place(sim *s, int32_t j)
{
	const gp_job *job = &s->jl->jobs[j];

	s->q.said_no = -1;
	if (need_milli(job) > s->cap_milli - s->alloc_milli)
		return 0;
	if (s->shape_waited[s->shape[j]] == s->wait_epoch)
		return 0;
	if (s->cfg->tenants && !gp_sim_quota_precheck(s, j))
		return 0;
	s->res->policy_calls++;
	if (s->cfg->policy->place(&s->ctx, job, &s->scratch) == GP_PLACED)
		return !s->cfg->tenants || gp_sim_quota_admit(s, j, &s->scratch);
	/* Until something is freed the same shape waits again. */
	s->shape_waited[s->shape[j]] = s->wait_epoch;
	return 0;
}

/* Run time of j on s->scratch; a job without one fails. */
int gp_sim_job_runinfo(sim *s, int32_t j, gp_sim_runinfo *ri)
{
	if (s->dur(s->dur_ud, s->cl, &s->jl->jobs[j], &s->scratch, ri) != 0 ||
	    !isfinite(ri->duration) || ri->duration < 0) {
		gp_sim_dequeue(s, j);
		if (s->ix.on && s->res->jobs[j].interruptions > 0)
			s->ix.nrequeued--;
		gp_sim_settle(s, j, GP_SIM_FAILED, GP_SIM_WHY_NO_RUNTIME);
		return -1;
	}
	if (s->ix.on) {
		s->ix.scratch_dur = ri->duration;
		ri->duration = gp_sim_ix_wall(s, j, ri->duration);
	}
	return 0;
}

static void schedule(sim *s)
{
	int32_t head, j;
	int k;
	gp_sim_runinfo ri;

	if (s->disc->pass) {
		s->disc->pass(s);
		return;
	}
	head = gp_sim_combined_head(s);
	s->version++;
	if (!s->freed && head == s->last_head && head >= 0 && !s->bf_due &&
	    (!(s->disc->flags & GP_SIM_DISC_ARRIVALS) || !s->narrived)) {
		/* Nothing was freed and the blocked head is the same: it
		 * still cannot start, nor (fifo, sjf) can anything behind it;
		 * under backfill a batch without arrivals (a tick) changes
		 * nothing either. */
		s->narrived = 0;
		return;
	}
	s->freed = 0;
	s->narrived = 0;
	for (k = 0; k < NCLASS; k++) {
		while ((j = gp_sim_queue_head(s, k)) >= 0 && s->status == GP_OK) {
			if (!gp_sim_try_place(s, j) &&
			    !(s->cfg->preempt && gp_sim_preempt_for(s, j, -1)) &&
			    !(gp_sim_quota_may_reclaim(s, j) && gp_sim_quota_reclaim(s, j))) {
				s->last_head = j;
				goto blocked;
			}
			if (gp_sim_job_runinfo(s, j, &ri) == 0)
				gp_sim_start_job(s, j, &ri);
			if (s->ix.on && s->pk.ndeferred) {
				/* Victims are back in their queues, maybe in
				 * one already passed: start over. */
				gp_sim_flush_requeue(s);
				k = 0;
			}
		}
	}
	s->last_head = -1;
	s->freed = 0; /* preemptions of this pass were seen by it */
	return;
blocked:
	s->freed = 0;
	if (s->disc->on_blocked && s->status == GP_OK)
		s->disc->on_blocked(s, s->last_head);
}

static int cmp_order(const void *a, const void *b)
{
	const order_key *x = a, *y = b;

	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int setup(sim *s)
{
	const gp_joblist *jl = s->jl;
	size_t n = jl->n, i;
	order_key *keys;
	double horizon = 0;
	int k, st;

	for (i = 0; i < n; i++)
		if (!isfinite(jl->jobs[i].submit))
			return gp_error_set(s->err, GP_EINPUT, jl->source, (int)jl->jobs[i].line, 0,
					    "job '%s' has no finite submit time",
					    jl->jobs[i].id ? jl->jobs[i].id : "?");
	if (gp_alloc_init(&s->alloc, s->cl) != GP_OK)
		return gp_error_set(s->err, GP_EIO, NULL, 0, 0, "cannot set up the cluster state");
	keys = gp_xmalloc((n ? n : 1) * sizeof(*keys));
	for (i = 0; i < n; i++) {
		keys[i].submit = jl->jobs[i].submit;
		keys[i].idx = i;
	}
	/* Trace readers hand jobs over in submit order: then this is it. */
	for (i = 1; i < n && keys[i - 1].submit <= keys[i].submit; i++)
		;
	if (i < n)
		qsort(keys, n, sizeof(*keys), cmp_order);
	s->order = gp_xmalloc((n ? n : 1) * sizeof(*s->order));
	s->rank = gp_xmalloc((n ? n : 1) * sizeof(*s->rank));
	for (i = 0; i < n; i++) {
		s->order[i] = keys[i].idx;
		s->rank[keys[i].idx] = (int32_t)i;
	}
	free(keys);

	s->res->njobs = n;
	s->res->jobs = gp_xmalloc((n ? n : 1) * sizeof(*s->res->jobs));
	s->shape = gp_xmalloc((n ? n : 1) * sizeof(*s->shape));
	s->est = gp_xcalloc(n ? n : 1, sizeof(*s->est));
	s->slot = gp_xmalloc((n ? n : 1) * sizeof(*s->slot));
	s->prev = gp_xmalloc((n ? n : 1) * sizeof(*s->prev));
	s->next = gp_xmalloc((n ? n : 1) * sizeof(*s->next));
	for (k = 0; k < NCLASS; k++)
		s->qhead[k] = s->qtail[k] = -1;
	s->min_need = INT64_MAX;
	for (i = 0; i < n; i++) {
		gp_sim_job *rec = &s->res->jobs[i];
		const gp_job *job = &jl->jobs[i];

		memset(rec, 0, sizeof(*rec));
		rec->start = rec->finish = -1;
		rec->first_node = -1;
		s->slot[i] = -1;
		s->prev[i] = s->next[i] = -1;
		if (need_milli(job) > 0 && need_milli(job) < s->min_need)
			s->min_need = need_milli(job);
		if (job->duration > 0 && job->submit + job->duration > horizon)
			horizon = job->submit + job->duration;
		/* An iteration-based job's run time comes from the perf model:
		 * its best case sizes the automatic tick as well. */
		if (!(job->duration >= 0) && s->cfg->tick <= 0) {
			gp_sim_runinfo ri;

			if (s->dur(s->dur_ud, s->cl, job, NULL, &ri) == 0 && isfinite(ri.duration) &&
			    job->submit + ri.duration > horizon)
				horizon = job->submit + ri.duration;
		}
	}
	if (s->min_need == INT64_MAX)
		s->min_need = 0;
	assign_shapes(s);
	if (s->cfg->tenants && !s->cfg->reclaim_off)
		for (i = 0; i < s->cfg->tenants->n && !s->q.reclaim; i++)
			s->q.reclaim = s->cfg->tenants->t[i].cohort >= 0;
	if (s->cfg->preempt || (s->disc->flags & GP_SIM_DISC_INTERRUPTS) || s->cfg->hooks[0] ||
	    s->q.reclaim)
		gp_sim_ix_setup(s);
	if (s->disc->setup && (st = s->disc->setup(s)) != GP_OK)
		return st;

	s->res->first_submit = n ? jl->jobs[s->order[0]].submit : 0;
	s->res->last_finish = s->res->first_submit;
	s->res->ngpus = s->cl->ngpus;
	s->cap_milli = (int64_t)s->cl->ngpus * GP_MILLI;
	s->last_t = s->tick_t = s->res->first_submit;
	s->next_pass = s->res->first_submit;
	s->next_bf = s->res->first_submit;
	if (s->cfg->tick > 0)
		s->res->tick = s->cfg->tick;
	else
		s->res->tick = gp_sim_nice_step((horizon - s->res->first_submit) / TICK_TARGET);
	s->last_head = -1;
	s->wait_epoch = 1;
	gp_rng_seed(&s->rng, s->cfg->seed);
	gp_rng_seed_stream(&s->probe.rng, s->cfg->seed, GP_RNG_STREAM_PROBE);
	s->ctx.cluster = s->cl;
	s->ctx.alloc = &s->alloc;
	s->ctx.rng = &s->rng;
	s->probe.ctx.cluster = s->cl;
	s->probe.ctx.alloc = &s->probe.alloc;
	s->probe.ctx.rng = &s->probe.rng;
	/* Per-node-type policy tables, built once (shared: never in use twice). */
	s->ctx.cache = s->probe.ctx.cache = gp_place_cache_new(s->cl);
	gp_place_cache_summary_timed(s->ctx.cache, 1);
	gp_placement_init(&s->scratch);
	gp_placement_init(&s->probe.place);
	if (n)
		gp_sim_heap_push(s, s->res->first_submit + s->res->tick, -1);
	return s->cfg->tenants ? gp_sim_quota_setup(s) : GP_OK;
}

static void teardown(sim *s)
{
	size_t i;

	gp_sim_quota_teardown(s);
	for (i = 0; i < s->npool; i++)
		gp_placement_release(&s->pool[i]);
	free(s->pool);
	free(s->pool_free);
	gp_placement_release(&s->scratch);
	gp_placement_release(&s->probe.place);
	gp_alloc_release(&s->alloc);
	gp_place_cache_free(s->ctx.cache);
	if (s->probe.ready)
		gp_alloc_release(&s->probe.alloc);
	free(s->order);
	gp_sim_evheap_release(&s->heap);
	free(s->walk);
	free(s->shape);
	free(s->shape_fits);
	free(s->shape_waited);
	free(s->shape_conflict);
	free(s->est);
	free(s->slot);
	free(s->prev);
	free(s->next);
	free(s->rank);
	if (s->disc->teardown)
		s->disc->teardown(s);
	if (s->ix.on)
		gp_sim_ix_teardown(s);
}

static void drain_stuck(sim *s)
{
	/* Nothing runs and nothing will arrive: whatever still queues can
	 * never start (what is up cannot hold it). */
	while (s->status == GP_OK && s->running == 0 && s->next_arrival == s->n && !s->ix.nstrong) {
		int32_t h = gp_sim_combined_head(s);

		if (h < 0)
			break;
		gp_sim_dequeue(s, h);
		if (s->ix.on && s->res->jobs[h].interruptions > 0)
			s->ix.nrequeued--;
		gp_sim_settle(s, h, GP_SIM_NEVER, GP_SIM_WHY_STUCK);
		s->freed = 1;
		schedule(s);
	}
}

static int config_ok(const gp_sim_config *cfg)
{
	int i;

	if (!cfg || !cfg->cluster || !cfg->policy || cfg->queue < 0 || cfg->queue >= GP_SIM_QUEUES ||
	    !(cfg->tick >= 0) || !isfinite(cfg->tick) || cfg->preempt < 0 ||
	    cfg->preempt >= GP_SIM_PREEMPT_MODES || !(cfg->preempt_cost >= 0) ||
	    !isfinite(cfg->preempt_cost) || !(cfg->checkpoint_interval >= 0) ||
	    !isfinite(cfg->checkpoint_interval) || !(cfg->checkpoint_cost >= 0) ||
	    !isfinite(cfg->checkpoint_cost) || !(cfg->las_starvation >= 0) ||
	    !isfinite(cfg->las_starvation) || cfg->las_nthresholds < 0 ||
	    cfg->las_nthresholds >= GP_SIM_LAS_MAX_QUEUES || !(cfg->sched_interval >= 0) ||
	    !isfinite(cfg->sched_interval) || !(cfg->fs_halflife > 0) || !(cfg->fs_interval > 0) ||
	    !isfinite(cfg->fs_interval) || !(cfg->fs_w_age >= 0) || !(cfg->fs_w_fairshare >= 0) ||
	    !(cfg->fs_w_jobsize >= 0) || !(cfg->fs_w_qos >= 0) || cfg->tenant_key < 0 ||
	    cfg->tenant_key >= GP_SIM_TENANT_KEYS || !(cfg->bf_interval >= 0) ||
	    !isfinite(cfg->bf_interval) || cfg->backfill_mode < 0 ||
	    cfg->backfill_mode >= GP_SIM_BF_MODES)
		return 0;
	for (i = 0; i < cfg->las_nthresholds; i++)
		if (!(cfg->las_thresholds[i] > 0) || !isfinite(cfg->las_thresholds[i]) ||
		    (i && !(cfg->las_thresholds[i] > cfg->las_thresholds[i - 1])))
			return 0;
	return 1;
}

/* When the metrics tick after t falls.  An automatic tick follows the
 * run's real span: past 4 x TICK_TARGET rows, the rows so far are merged
 * into a longer tick and the next one falls on its grid. */
static double next_tick(sim *s, double t)
{
	gp_sim_result *out = s->res;
	double k, next;

	if (s->cfg->tick > 0 || out->nsamples < 4 * TICK_TARGET)
		return t + out->tick;
	out->tick = gp_sim_timeline_coarsen(out, out->tick, 2 * TICK_TARGET);
	k = ceil((t - out->first_submit) / out->tick + 1e-9);
	next = out->first_submit + k * out->tick;
	return next > t ? next : next + out->tick;
}

/* The events of time t (finishes, ticks, sources' and las events, then
 * arrivals); returns whether a tick was among them. */
static int take_events(sim *s, double t)
{
	const gp_joblist *jobs = s->jl;
	int ticked = 0;

	while (s->heap.n && s->heap.v[0].t == t && s->status == GP_OK) {
		ev e = gp_sim_heap_pop(s);

		s->res->events++;
		if (e.job == -1)
			ticked = 1;
		else if (e.job <= -2)
			gp_sim_ix_event(s, &e);
		else if (s->ix.on && gp_sim_ix_stale(s, &e))
			s->ix.nstale--;
		else
			finish_job(s, e.job);
	}
	while (s->next_arrival < s->n && jobs->jobs[s->order[s->next_arrival]].submit == t) {
		s->res->events++;
		arrive(s, (int32_t)s->order[s->next_arrival++]);
	}
	return ticked;
}

/* Whether the run is over: no arrival left and every event in the heap
 * stale or weak. */
static int run_over(sim *s)
{
	while (s->heap.n && s->heap.v[0].job >= 0 && gp_sim_ix_stale(s, &s->heap.v[0])) {
		gp_sim_heap_pop(s);
		s->ix.nstale--;
	}
	return s->next_arrival == s->n && s->heap.n == s->ix.nstale + s->ix.nweak;
}

/* Time moves to t: the integrals of the GPU share allocated, in all and
 * while jobs wait. */
static void advance(sim *s, double t)
{
	double dt = t - s->last_t;

	s->integral += (double)s->alloc_milli * dt;
	if (s->qlen[0] + s->qlen[1] > 0 && dt > 0) {
		s->res->queued_alloc_milli_s += (double)s->alloc_milli * dt;
		s->res->queued_cap_milli_s += (double)s->res->ngpus * 1000.0 * dt;
	}
	s->last_t = t;
}

static void totals(sim *s)
{
	gp_sim_result *out = s->res;
	size_t i;

	if (out->last_finish > s->tick_t || out->nsamples == 0) {
		if (out->last_finish > s->last_t)
			advance(s, out->last_finish);
		else
			s->integral += (double)s->alloc_milli * (out->last_finish - s->last_t);
		gp_sim_timeline_row(s, out->last_finish > s->tick_t ? out->last_finish : s->tick_t);
	} else if (out->last_finish < s->tick_t) {
		/* The run's last tick came after its last finish (it was due
		 * while jobs still ran): the row ends at the last finish, its
		 * mean over the part of its tick the run lasted (nothing was
		 * allocated after it), as the row a run without that tick
		 * ends with. */
		gp_sim_sample *row = &out->samples[out->nsamples - 1];
		double prev = out->nsamples > 1 ? out->samples[out->nsamples - 2].t : out->first_submit;

		if (row->allocated_milli == 0 && row->running == 0 && out->last_finish > prev) {
			row->utilization *= (row->t - prev) / (out->last_finish - prev);
			row->t = out->last_finish;
		}
	}
	if (s->cfg->tick <= 0)
		out->tick = gp_sim_timeline_coarsen(out, out->tick, 2 * TICK_TARGET);
	out->makespan = out->last_finish - out->first_submit;
	for (i = 0; i < s->n; i++) {
		const gp_sim_job *rec = &out->jobs[i];

		if (s->ix.on)
			out->alloc_gpu_seconds += s->ix.past_gpu_s[i];
		else if (rec->state == GP_SIM_DONE)
			out->alloc_gpu_seconds += (double)need_milli(&s->jl->jobs[i]) / GP_MILLI *
						  (rec->finish - rec->start);
	}
	if (out->makespan > 0 && out->ngpus > 0)
		out->gpu_utilization = out->alloc_gpu_seconds / ((double)out->ngpus * out->makespan);
}

static int hooks_call(sim *s, int end)
{
	int k, rc;

	for (k = 0; k < s->ix.nhooks && s->status == GP_OK; k++) {
		int (*fn)(void *, gp_sim *) = end ? s->ix.hooks[k]->end : s->ix.hooks[k]->begin;

		if (fn && (rc = fn(s->ix.hooks[k]->ud, s)) != GP_OK) {
			if (s->err && s->err->status == GP_OK)
				gp_error_set(s->err, rc, NULL, 0, 0, "interruption source '%s' failed",
					     s->ix.hooks[k]->name ? s->ix.hooks[k]->name : "?");
			s->status = rc;
		}
	}
	return s->status;
}

int gp_sim_run(const gp_sim_config *cfg, const gp_joblist *jobs,
	       gp_sim_result *out, gp_error *err)
{
	sim s;
	size_t last_progress = 0;
	int status;

	gp_sim_result_init(out);
	if (!config_ok(cfg))
		return gp_error_set(err, GP_EUSAGE, NULL, 0, 0, "bad simulator configuration");
	memset(&s, 0, sizeof(s));
	s.cfg = cfg;
	s.disc = gp_sim_discipline_of(cfg->queue);
	s.cl = cfg->cluster;
	s.jl = jobs;
	s.n = jobs->n;
	s.res = out;
	s.err = err;
	s.dur = cfg->duration ? cfg->duration : gp_sim_fixed_duration;
	s.dur_ud = cfg->duration_ud;
	status = setup(&s);
	if (status == GP_OK && s.ix.nhooks)
		status = hooks_call(&s, 0);
	if (status != GP_OK) {
		teardown(&s);
		gp_sim_result_release(out);
		return status;
	}
	while (s.status == GP_OK) {
		double t_arr, t_ev, t;
		int ticked;

		/* (queued jobs still wait for the next scheduling pass) */
		if (s.ix.on && run_over(&s) &&
		    !(cfg->sched_interval > 0 && s.qlen[0] + s.qlen[1] > 0))
			break;
		/* Every job settled: what a source still has pending (a repair
		 * far ahead, failures meanwhile) changes nothing, and must not
		 * stretch the timeline or count failures after the workload. */
		if (s.ix.on && s.settled == s.n && s.next_arrival == s.n)
			break;
		t_arr = s.next_arrival < s.n ? jobs->jobs[s.order[s.next_arrival]].submit : INFINITY;
		t_ev = s.heap.n ? s.heap.v[0].t : INFINITY;
		t = t_arr < t_ev ? t_arr : t_ev;
		/* queued jobs wait for the next pass, if nothing comes before */
		if (cfg->sched_interval > 0 && s.qlen[0] + s.qlen[1] > 0 && s.next_pass < t)
			t = s.next_pass;
		/* and for the next backfill cycle */
		if (cfg->bf_interval > 0 && s.qlen[0] + s.qlen[1] > 0 && s.next_bf < t)
			t = s.next_bf;
		if (t == INFINITY)
			break;
		if (s.fs && t >= s.fs_next)
			gp_sim_fs_recompute(&s, t);
		advance(&s, t);
		ticked = take_events(&s, t);
		if (s.status != GP_OK)
			break;
		if (cfg->bf_interval > 0 && t >= s.next_bf) {
			double k = floor((t - out->first_submit) / cfg->bf_interval + 1e-9) + 1;

			s.bf_due = 1;
			s.next_bf = out->first_submit + k * cfg->bf_interval;
		}
		if (cfg->sched_interval <= 0 || (s.bf_due && t < s.next_pass)) {
			schedule(&s);
			drain_stuck(&s);
		} else if (t >= s.next_pass) {
			double k = floor((t - out->first_submit) / cfg->sched_interval + 1e-9) + 1;

			schedule(&s);
			drain_stuck(&s);
			s.next_pass = out->first_submit + k * cfg->sched_interval;
		}
		s.bf_due = 0;
		out->batches++;
		if (s.qlen[0] + s.qlen[1] > out->peak_queued)
			out->peak_queued = s.qlen[0] + s.qlen[1];
		if (ticked) {
			if (out->nsamples >= GP_SIM_MAX_SAMPLES) {
				s.status = gp_error_set(err, GP_EUSAGE, NULL, 0, 0,
							"a metrics tick of %g s gives more than %d timeline "
							"rows; use a longer tick", out->tick, GP_SIM_MAX_SAMPLES);
				break;
			}
			gp_sim_timeline_row(&s, t);
			if (s.running || s.next_arrival < s.n || s.qlen[0] || s.qlen[1] || s.ix.nstrong)
				gp_sim_heap_push(&s, next_tick(&s, t), -1);
		}
		if (cfg->progress && s.settled - last_progress >= 4096) {
			last_progress = s.settled;
			cfg->progress(cfg->progress_ud, s.settled, s.n);
		}
	}
	if (s.status == GP_OK && s.ix.nhooks)
		hooks_call(&s, 1);
	status = s.status;
	if (status == GP_OK) {
		if (cfg->tenants)
			gp_sim_quota_end(&s);
		totals(&s);
		if (cfg->progress)
			cfg->progress(cfg->progress_ud, s.settled, s.n);
	}
	teardown(&s);
	if (status != GP_OK)
		gp_sim_result_release(out);
	return status;
}
