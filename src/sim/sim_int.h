/* Internals of the discrete-event engine (see sim.h for the rules it
 * implements), shared by its files.  The core:
 *   engine.c    job life (arrive, start, finish), the head-first
 *               scheduling pass, setup and the main loop
 *   events.c    a best-first walk over the event heap
 *   timeline.c  metrics rows
 *   interrupt.c, interrupt_api.c  interruptions: progress, stopping a
 *               job; nodes and GPUs, source events, read access
 *   nodeix.c    the jobs on each node (nodeix.h)
 *   preempt.c, preempt_index.c  the victim search and its index
 *   quota.c, quota_reclaim.c, quota_plan.c  tenants' quotas: usage and
 *               admission; reclaim and preemption by share; backfill's
 *               holds (quota.h, quota_int.h)
 * The queue disciplines, which the core reaches only through their table
 * (discipline.h, disciplines.c):
 *   queues.c    fifo (linked lists), sjf and priority (binary heaps)
 *   backfill.c  EASY: the head's reservation, the backfill scans and
 *               their index; Slurm's rules (backfill_mode) are in
 *   backfill_slurm.c  a reservation of whole nodes for every waiting job
 *   skip.c      fifo-skip
 *   las.c, order.c  Tiresias' LAS queues and their ordered index
 *
 * Memory: per-job arrays are sized once; placements of running jobs live
 * in a pool of gp_placement objects that is swapped with the policy's
 * scratch placement on start, so steady state allocates nothing. */
#ifndef GPUPLAN_SIM_INT_H
#define GPUPLAN_SIM_INT_H

#include <stddef.h>
#include <stdint.h>

#include "gpuplan/model/placement.h"
#include "gpuplan/place/policy.h"
#include "gpuplan/sim/sim.h"
#include "gpuplan/util/heap.h"
#include "gpuplan/util/util.h"
#include "backfill.h"
#include "discipline.h"
#include "interrupt.h"
#include "las.h"
#include "preempt.h"
#include "quota.h"
#include "sim_types.h"

typedef struct ev {
	double t;
	uint32_t seq;
	int32_t job;            /* >= 0: the job's finish; -1: metrics tick;
				 * <= -2: EV_CODE (a source's event or an
				 * event the discipline set for a job) */
} ev;

/* Events by time; the heap keeps pushes of one time in order (seq). */
static inline int gp_sim_ev_cmp(const void *ctx, const ev *a, const ev *b)
{
	(void)ctx;
	return a->t < b->t ? -1 : a->t > b->t;
}
GP_HEAP_DEFINE(gp_sim_evheap, ev, const void *, gp_sim_ev_cmp)

/* Events other than finishes and ticks: job = -2 - (idx * 4 + kind). */
enum { EV_SOURCE = 0, EV_DISC = 1 };
#define EV_CODE(kind, idx) ((int32_t)(-2 - ((int64_t)(idx) * 4 + (kind))))
#define EV_KIND(job) ((int)((-2 - (int64_t)(job)) & 3))
#define EV_IDX(job) ((int32_t)((-2 - (int64_t)(job)) >> 2))


struct gp_sim {
	const gp_sim_config *cfg;
	const gp_sim_discipline *disc; /* the queue discipline (discipline.h) */
	const gp_cluster *cl;
	const gp_joblist *jl;
	gp_sim_result *res;
	gp_sim_duration_fn dur;
	void *dur_ud;
	size_t n;
	gp_alloc alloc;
	gp_rng rng;
	gp_policy_ctx ctx;
	gp_placement scratch;
	struct {                /* never-placed probes and reservations on
				 * the idle cluster (engine.c, backfill.c) */
		gp_alloc alloc;
		int ready;
		gp_rng rng;
		gp_policy_ctx ctx;
		gp_placement place;
	} probe;

	size_t *order;          /* job indices by (submit, index) */
	size_t next_arrival;

	gp_sim_evheap heap;     /* heap.seq: the stamp of the next event */
	size_t *walk;           /* best-first walk over heap indices */
	size_t walk_cap;

	int32_t *shape;         /* job -> shape id */
	size_t nshapes;
	int8_t *shape_fits;     /* -1 unknown, else gp_place_ever's answer */
	uint32_t *shape_waited; /* wait_epoch of the shape's last WAIT */
	uint32_t wait_epoch;    /* bumped whenever resources are freed: in
				 * between they only shrink, so a shape that
				 * waited keeps waiting */
	uint32_t *shape_conflict; /* state version of a reservation conflict */
	uint32_t version;         /* changes whenever the state does */
	uint64_t alloc_version;   /* changes whenever a job starts or ends */

	double *est;            /* duration estimate (sjf key) */
	int32_t *slot;          /* placement pool slot while running */
	int32_t *prev, *next;   /* class queue links (fifo, backfill) */
	int32_t qhead[NCLASS], qtail[NCLASS];
	gp_sim_jheap sjf[NCLASS]; /* heaps (sjf, priority) */
	size_t qlen[NCLASS];

	gp_placement *pool;
	int32_t *pool_free;
	size_t npool, nfree;

	int64_t cap_milli, alloc_milli, min_need;
	size_t running, settled;
	double last_t, integral;        /* integral of alloc_milli dt */
	double tick_t, tick_integral;   /* at the previous timeline row */
	int freed;
	int32_t last_head;
	size_t narrived;        /* arrivals since the last pass */

	int dirty;              /* something changed since the last pass */
	double next_pass;       /* sched_interval: the next scheduling pass */
	double next_bf;         /* bf_interval: the next backfill cycle */
	int bf_due;             /* this pass is a backfill cycle */
	int32_t *rank;          /* job -> position in arrival order */

	/* per concern, each owned by its file (see its header) */
	gp_sim_bf bf;           /* backfill.h */
	gp_sim_ix ix;           /* interrupt.h */
	gp_sim_pk pk;           /* preempt.h */
	gp_sim_las las;         /* las.h */
	gp_sim_quota q;         /* quota.h */
	struct gp_sim_drs *drs; /* --queue dominant-share (drs.c) */
	struct gp_sim_skip *skip; /* --queue fifo-skip's waiting needs (skip.c) */

	/* fairshare (fairshare.c): each queued job's priority; per tenant
	 * its decayed usage (GPU-seconds), the GPU-seconds since fs_tt not
	 * yet added, the milli-GPU it holds, its factor and normalised
	 * share; the last recomputation and the next. */
	int fs;
	double *fs_prio;
	double *fs_usage, *fs_acc, *fs_tt, *fs_factor, *fs_share;
	int64_t *fs_run;
	size_t fs_nt;
	double fs_grid, fs_next;
	int fs_max_prio;
	struct gp_sim_fsq *fsq; /* the queue: groups of jobs and their heads */

	gp_error *err;
	int status;
};

typedef struct gp_sim sim;

static inline int64_t need_milli(const gp_job *j)
{
	return (int64_t)j->gpus * (int64_t)j->gpu_milli;
}

static inline int job_class(const gp_job *j)
{
	return j->klass == GP_CLASS_LS ? 0 : 1;
}

/* The event heap, ordered by (time, sequence). */
static inline void gp_sim_heap_push(sim *s, double t, int32_t job)
{
	gp_sim_evheap_push(&s->heap, s, (ev){ .t = t, .job = job });
}

static inline ev gp_sim_heap_pop(sim *s)
{
	return gp_sim_evheap_pop(&s->heap, s);
}

/* events.c */
/* Next finish event in (time, seq) order from a best-first walk over the
 * heap array (s->walk, *nwalk entries); -1 when none is left. */
long gp_sim_walk_next(sim *s, size_t *nwalk);

/* The queues, through the discipline (discipline.h). */
static inline void gp_sim_enqueue(sim *s, int32_t j)
{
	s->qlen[job_class(&s->jl->jobs[j])]++;
	s->disc->on_arrival(s, j);
}

static inline void gp_sim_requeue(sim *s, int32_t j)
{
	s->qlen[job_class(&s->jl->jobs[j])]++;
	(s->disc->on_requeue ? s->disc->on_requeue : s->disc->on_arrival)(s, j);
}

static inline void gp_sim_dequeue(sim *s, int32_t j)
{
	s->qlen[job_class(&s->jl->jobs[j])]--;
	s->disc->on_leave(s, j);
}

static inline int32_t gp_sim_queue_head(const sim *s, int k)
{
	return s->disc->pick_next(s, k);
}

static inline int32_t gp_sim_combined_head(const sim *s)
{
	int32_t h = gp_sim_queue_head(s, 0);

	return h >= 0 ? h : gp_sim_queue_head(s, 1);
}

/* queues.c: the lists of fifo (backfill and fifo-skip use them too) */
void gp_sim_list_link_after(sim *s, int32_t *head, int32_t *tail, int32_t p, int32_t j);
void gp_sim_list_unlink(sim *s, int32_t *head, int32_t *tail, int32_t j);
void gp_sim_fifo_arrival(sim *s, int32_t j);
void gp_sim_fifo_requeue(sim *s, int32_t j);
void gp_sim_fifo_leave(sim *s, int32_t j);
int32_t gp_sim_fifo_head(const sim *s, int k);

/* j settles as state (enum gp_sim_state) for reason why (enum gp_sim_why). */
static inline void gp_sim_settle(sim *s, int32_t j, int state, int why)
{
	s->res->jobs[j].state = (uint8_t)state;
	s->res->jobs[j].why = (uint8_t)why;
	if (s->ix.on)
		s->ix.jst[j] = GP_SIM_JOB_ENDED;
	s->settled++;
	if (state == GP_SIM_FAILED)
		s->res->failed++;
	else if (state == GP_SIM_NEVER)
		s->res->never_placed++;
	else
		s->res->completed++;
}

/* events.c: a job's run time as backfill plans it (its time limit when
 * the trace gives one, else duration), and the running jobs by the end
 * backfill expects of them (s->bf.lim_end, sorted): their number. */
double gp_sim_planned_run(const sim *s, int32_t j, double duration);
size_t gp_sim_expected_ends(sim *s);

/* backfill_slurm.c: Slurm's backfill (backfill_mode slurm): the head is
 * blocked: plan every waiting job; and its plan's memory. */
void gp_sim_backfill_slurm(sim *s, int32_t head);
void gp_sim_sbf_free(sim *s);

/* engine.c */
int gp_sim_try_place(sim *s, int32_t j);
int gp_sim_job_runinfo(sim *s, int32_t j, gp_sim_runinfo *ri);
int gp_sim_start_job(sim *s, int32_t j, const gp_sim_runinfo *ri);
void gp_sim_result_record_nodes(gp_sim_result *r, int32_t j, const gp_placement *p);

/* skip.c: fifo-skip's try of queued job j of class k: place it, else (the
 * class's head) preempt for it, else reclaim borrowed quota, else (under
 * dominant-share) preempt by share, and start it.  1 when preemption
 * victims came back to the queue (the pass starts over), else 0.
 * dominant-share tries its jobs the same way. */
int gp_sim_skip_try(sim *s, int32_t j, int k);

/* Seconds of work between j's checkpoints: its own (job spec
 * checkpoint_interval_s) or the run's. */
static inline double gp_sim_ix_tau(const sim *s, int32_t j)
{
	double t = s->jl->jobs[j].more->checkpoint_interval;

	return t > 0 ? t : s->cfg->checkpoint_interval;
}

/* interrupt.c */
int gp_sim_ix_setup(sim *s);
void gp_sim_ix_teardown(sim *s);
int gp_sim_ix_stale(const sim *s, const ev *e);
void gp_sim_ix_event(sim *s, const ev *e);
/* Bookkeeping of a job that starts (or resumes) now on the placement in
 * its pool slot, finishing at finish; and of a job that finished. */
void gp_sim_ix_started(sim *s, int32_t j);
void gp_sim_ix_finished(sim *s, int32_t j);
/* Wall seconds j needs from now when it starts with whole run time full. */
double gp_sim_ix_wall(sim *s, int32_t j, double full);
/* Work j would lose if preempted now, GPU-seconds. */
double gp_sim_ix_peek_lost(const sim *s, int32_t j);
/* Interrupt j whose placement the caller already took off the state. */
int gp_sim_ix_interrupt(sim *s, int32_t j, const gp_sim_interrupt *r, int released);
/* Requeue the victims of the last preemption. */
void gp_sim_flush_requeue(sim *s);

/* preempt.c: may head start by preempting?  On success its placement is
 * in s->scratch and the victims are requeued. */
int gp_sim_preempt_for(sim *s, int32_t head, int level);

/* preempt_index.c: the candidate index (see there). */
void gp_sim_pk_setup(sim *s);
void gp_sim_pk_teardown(sim *s);
int gp_sim_pk_threshold(const sim *s, int32_t head, int level);
/* First non-empty rank >= r, -1 when none. */
int gp_sim_pk_next_rank(const sim *s, int r);
uint32_t gp_sim_pk_version(const sim *s, int thr);
void gp_sim_pk_add(sim *s, int32_t j);
void gp_sim_pk_remove(sim *s, int32_t j);
void gp_sim_pk_demoted(sim *s, int32_t j);

/* las (las.c): the list of j (class x queue), and the order of a list:
 * time it entered its queue, then arrival; with las_preempted_first the
 * preempted jobs before the others, the most recently preempted first. */
static inline int gp_sim_las_list(const sim *s, int32_t j)
{
	return job_class(&s->jl->jobs[j]) * s->las.nlevels + s->las.level[j];
}

static inline int gp_sim_las_before(const sim *s, int32_t a, int32_t b)
{
	if (s->las.lfront && (s->las.lfront[a] || s->las.lfront[b])) {
		if (s->las.lfront[a] != s->las.lfront[b])
			return s->las.lfront[a];
		if (s->las.pre_t[a] != s->las.pre_t[b])
			return s->las.pre_t[a] > s->las.pre_t[b];
		return s->rank[a] < s->rank[b];
	}
	if (s->las.lvl_t[a] != s->las.lvl_t[b])
		return s->las.lvl_t[a] < s->las.lvl_t[b];
	return s->rank[a] < s->rank[b];
}

/* order.c: a treap over a las list in list order; the root is -1 when
 * empty, left/right the links (one pair per job). */
int32_t gp_sim_ord_pred(const sim *s, const int32_t *left, const int32_t *right, int32_t root, int32_t j);
int32_t gp_sim_ord_insert(const sim *s, int32_t *left, int32_t *right, int32_t root, int32_t j);
int32_t gp_sim_ord_erase(const sim *s, int32_t *left, int32_t *right, int32_t root, int32_t j);

/* quota.c (reclaim and preemption by share: quota_reclaim.c; plans:
 * quota_plan.c) */
int gp_sim_quota_setup(sim *s);
void gp_sim_quota_teardown(sim *s);
/* Would j's quota admit the policy's placement p?  When a GPU model's
 * key refuses it, the policy is asked once more among the models whose
 * keys admit j (into p).  A refusal is counted (quota_waits, said_no),
 * unless those models lack room (then j waits for GPUs). */
int gp_sim_quota_admit(sim *s, int32_t j, gp_placement *p);
/* The `gpus` key alone, before the policy is asked (its demand is the
 * job's whole share whatever the placement). */
int gp_sim_quota_precheck(sim *s, int32_t j);
/* j starts (sign +1) or stops (-1) holding placement p. */
void gp_sim_quota_change(sim *s, int32_t j, const gp_placement *p, int sign);
/* May j start by reclaiming GPUs its cohort borrowed from its tenant?  On
 * success its placement is in s->scratch and the victims are deferred
 * (the caller starts j, then gp_sim_flush_requeue). */
int gp_sim_quota_reclaim(sim *s, int32_t j);
/* May j (dominant-share), which would borrow, start by preempting jobs
 * of tenants of its cohort by share (Kueue's fair sharing preemption,
 * quota.c)?  As reclaim. */
int gp_sim_quota_fair_preempt(sim *s, int32_t j);
void gp_sim_quota_end(sim *s);

/* Tenant t's dominant share (Kueue's DRS, drs.c) with job j's request
 * on `gpus` added (j < 0: as it is). */
double gp_sim_quota_share(const sim *s, int t, int32_t j);
/* Did the quota refuse j at its last try (gp_sim_try_place)? */
static inline int gp_sim_quota_refused(const sim *s, int32_t j)
{
	return s->cfg->tenants && s->q.said_no == j;
}
/* Would j's quota admit placement p now (nothing counted)? */
int gp_sim_quota_admits(sim *s, int32_t j, const gp_placement *p);
/* The same for the policy's placement p of j through ctx, asked again
 * among the GPU models whose keys admit j when one refuses it (into p,
 * as gp_sim_quota_admit; nothing counted): 1 admitted, 0 refused, < 0
 * refused by a GPU model's key and no other model gave an admitted
 * placement. */
int gp_sim_quota_place_ok(sim *s, const gp_policy_ctx *ctx, int32_t j, gp_placement *p);
/* A trial at this instant (preemption): j's use is taken off (-1) or
 * put back (+1) with its GPUs. */
void gp_sim_quota_trial(sim *s, int32_t j, int sign);
/* j's share on every GPU of its placement p becomes milli: 1 and its use
 * follows, or 0 (nothing changed) when a raise is beyond its quota. */
int gp_sim_quota_reshare(sim *s, int32_t j, const gp_placement *p, int milli);
/* Quota held by a backfill plan: a reservation holds its job's use of
 * placement p from t0 to t1 (p NULL: its whole share on `gpus`).
 * plan_admits: would j's quota admit p (NULL: its share on `gpus`) with
 * the use held by the reservations overlapping [t0, t1) counted in? */
void gp_sim_quota_plan_reset(sim *s);
void gp_sim_quota_plan_hold(sim *s, int32_t j, const gp_placement *p, double t0, double t1);
int gp_sim_quota_plan_admits(sim *s, int32_t j, const gp_placement *p, double t0, double t1);
/* plan_admits of the policy's placement p of j through ctx, asked again
 * as gp_sim_quota_place_ok (same answers), with those holds counted in. */
int gp_sim_quota_plan_place(sim *s, const gp_policy_ctx *ctx, int32_t j, gp_placement *p, double t0, double t1);

/* Whether j may try to reclaim (rule 1 on the `gpus` key, inline: a pass
 * asks it of every queued job that does not start). */
static inline int gp_sim_quota_may_reclaim(const sim *s, int32_t j)
{
	int t;

	if (!s->q.reclaim)
		return 0;
	t = s->res->job_tenant[j];
	return s->q.all < 0 || s->q.usage[(size_t)t * GP_TENANTS_MAX_RES + s->q.all] + need_milli(&s->jl->jobs[j]) <=
				       s->cfg->tenants->t[t].nominal[s->q.all];
}

/* fairshare.c (the discipline gp_sim_disc_fairshare): j starts (+1) or
 * stops (-1) holding milli; the priorities at the last recomputation
 * time <= t (when one is due). */
void gp_sim_fs_change(sim *s, int32_t j, int64_t milli, int sign);
void gp_sim_fs_recompute(sim *s, double t);

/* timeline.c */
void gp_sim_timeline_row(sim *s, double t);
double gp_sim_nice_step(double x);
double gp_sim_timeline_coarsen(gp_sim_result *r, double tick, size_t max_rows);

#endif
