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
 *   quota.c     tenants' quotas
 * The queue disciplines, which the core reaches only through their table
 * (discipline.h, disciplines.c):
 *   queues.c    fifo (linked lists), sjf and priority (binary heaps)
 *   backfill.c  EASY: the head's reservation, the backfill scans and
 *               their index
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
#include "discipline.h"
#include "nodeix.h"

#define NCLASS 2

/* A running job and the end backfill expects of it (time limits). */
typedef struct gp_sim_lim_end {
	double t;
	int32_t job;
} gp_sim_lim_end;

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

/* A queued job in a heap whose order reads the simulation (queues.c, las.c). */
typedef struct gp_sim_qitem {
	int32_t job;
	uint32_t seq;
} gp_sim_qitem;
GP_HEAP_TYPE(gp_sim_jheap, gp_sim_qitem);

/* Events other than finishes and ticks: job = -2 - (idx * 4 + kind). */
enum { EV_SOURCE = 0, EV_DISC = 1 };
#define EV_CODE(kind, idx) ((int32_t)(-2 - ((int64_t)(idx) * 4 + (kind))))
#define EV_KIND(job) ((int)((-2 - (int64_t)(job)) & 3))
#define EV_IDX(job) ((int32_t)((-2 - (int64_t)(job)) >> 2))

#define NLIST (NCLASS * GP_SIM_LAS_MAX_QUEUES)

/* A candidate victim of preemption and one node's trial (preempt.c). */
typedef struct gp_sim_victim {
	int32_t job;
	int32_t node, ngpus;    /* its only part (node -1: several parts) */
	uint32_t seq;           /* heap order among equals (preempt.c) */
	double lost;            /* GPU-seconds lost if preempted now */
	double start;           /* start of its current run */
	int64_t held;           /* milli-GPU */
} gp_sim_victim;

/* A victim search of a job that failed (preempt.c). */
typedef struct gp_sim_pk_memo {
	uint32_t epoch, ver;
	int32_t thr;            /* threshold + 1; 0: none */
} gp_sim_pk_memo;

typedef struct gp_sim_try {
	int node, count;
	int64_t held;           /* milli-GPU its victims hold */
	double lost, latest;
} gp_sim_try;

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
	gp_alloc probe_alloc;   /* the idle cluster, for never-placed probes */
	int probe_ready;
	gp_rng rng, probe_rng;
	gp_policy_ctx ctx, probe_ctx;
	gp_placement scratch, probe_place;

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
	int32_t lhead[NLIST], ltail[NLIST]; /* las: one list per (class, queue) */
	int32_t lroot[NLIST];   /* las: each list's ordered index (order.c) */
	int32_t *oleft, *oright;

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

	double next_pass;       /* sched_interval: the next scheduling pass */
	gp_sim_lim_end *lim_end; /* backfill with time limits: expected ends */
	size_t lim_end_cap;
	int limits;             /* backfill estimates run times by time limits */
	/* EASY reservation of the blocked head */
	int32_t resv_head;      /* -1 none */
	uint32_t resv_epoch;    /* wait_epoch when it was made */
	double resv_t;
	uint64_t resv_alloc;    /* alloc_version when it was made */
	int resv_keep;          /* it may serve again while nothing moved */
	uint32_t resv_stamp;
	uint32_t *gpu_mark, *node_mark;
	int64_t *spare_cpu, *spare_mem;
	int32_t *released;
	size_t nreleased;

	/* Exact backfill scan index (see bf_scan): queued jobs grouped by
	 * (shape, class), each group in arrival order with a min-tree over
	 * the duration estimates of its queued members. */
	int bf_index;
	int32_t *rank;          /* job -> position in arrival order */
	int32_t *grp;           /* job -> group */
	int32_t *grp_pos;       /* job -> position inside its group */
	int32_t *grp_jobs;      /* group members, arrival order, by grp_off */
	int32_t *grp_rank;      /* their arrival ranks (parallel) */
	size_t *grp_off;        /* group -> first member in grp_jobs */
	int32_t *grp_len;       /* group -> members */
	int32_t *grp_shape;     /* group -> shape */
	size_t *tree_off;       /* group -> its min-tree in tree[] */
	int32_t *tree_size;     /* group -> leaves (a power of two) */
	double *tree;
	int32_t *grp_queued;    /* group -> members in the queue */
	int64_t *grp_need;      /* group -> GPU share of one member, milli */
	int32_t *active[NCLASS];/* groups with queued members, per class */
	int32_t *active_at;     /* group -> index in active[class], -1 none */
	size_t nactive[NCLASS];
	size_t ngroups;

	/* Interruptions (interrupt.c).  ix = 0 and all of this unallocated
	 * unless preemption, las or a hook is configured. */
	int ix;
	uint8_t *jst;           /* job -> enum gp_sim_job_status */
	uint32_t *fin_seq;      /* seq of the job's live finish event */
	uint32_t *aux_seq;      /* seq of its live las event (has_aux) */
	uint8_t *has_aux;
	double *rem;            /* work left, seconds at speed 1, at acct_t */
	double *acct_t;         /* time progress was last accounted */
	double *ovh;            /* overhead (no progress) left at acct_t */
	double *full;           /* whole run time on the current placement */
	double *seg_t;          /* start of the current run */
	double *seg_work;       /* work done in the current run */
	double *ck_saved;       /* seg_work at its last checkpoint */
	double *ck_next;        /* seg_work of the next checkpoint */
	uint8_t *ck_writing;    /* a checkpoint is being written (in ovh) */
	double *speed;
	double *pend_ovh;       /* overhead to pay at the next start */
	double *past_gpu_s;     /* GPU-seconds held in finished runs */
	int64_t *held;          /* milli-GPU held now */
	int32_t *run_list, *run_pos; /* running and stalled jobs */
	gp_sim_nodeix nodes;    /* ... and per node (nodeix.h) */
	size_t nrun;
	size_t nstale;          /* heap events of jobs that no longer apply */
	size_t nweak, nstrong;  /* pending source events by kind */
	size_t nrequeued;       /* queued jobs that were interrupted */
	double scratch_dur;     /* whole run time on s->scratch */
	const gp_sim_hooks *hooks[GP_SIM_MAX_HOOKS];
	int nhooks;
	int64_t *sev_arg;       /* source events: argument, source, weak */
	int8_t *sev_src;
	uint8_t *sev_weak;
	int32_t *sev_free;
	size_t nsev, sev_cap, nsev_free;
	uint8_t *gpu_down;      /* 0 up, 1 down (share taken), 2 down once free */
	size_t ngpu_pending;
	int dirty;              /* something changed since the last pass */

	/* Preemption (preempt.c): scratch for candidates, node trials, the
	 * victims released. */
	struct gp_sim_victim *vict;
	size_t vict_cap;
	struct gp_sim_try *tries;
	size_t tries_cap;
	int32_t *victims;
	size_t victims_cap;
	uint8_t *released_flag;
	int defer;              /* requeue victims only after the preemptor
				 * left its queue (a victim may sort first) */
	int32_t *deferred;
	size_t ndeferred, deferred_cap;

	/* Preemption candidate index (preempt_index.c); NULL unless
	 * preemption can happen. */
	int npk;                /* ranks */
	int pk_ck;              /* some job checkpoints: work lost varies */
	int32_t *pk_prio;       /* priority mode: job -> rank of its priority */
	int32_t *pk_rank;       /* job -> rank while indexed, -1 otherwise */
	int32_t *pk_pos;        /* job -> its entry in its rank's array */
	struct gp_sim_victim **pk_arr; /* rank -> its jobs, dense */
	size_t *pk_cap;
	uint32_t *pk_mark, pk_stamp; /* per job: among a spanning job's first victims */
	size_t *pk_count;       /* rank -> jobs */
	int64_t *pk_milli;      /* rank -> milli-GPU they hold */
	uint32_t *pk_demoted;   /* rank -> demotions out of it */
	uint32_t *pk_added;     /* rank -> jobs indexed with it */
	uint64_t *pk_used;      /* bitmap of non-empty ranks */
	int *pk_gmilli;         /* a node trial's GPUs: free milli, memory */
	int64_t *pk_gmem;
	/* Per node: the latest start among the jobs ever indexed on it, and
	 * the nodes in order of that time, latest first (pk_mru).  The jobs
	 * on a node are the engine's node index (s->nodes). */
	double *pk_nlast;
	int32_t *pk_mru_prev, *pk_mru_next, pk_mru;
	gp_sim_victim *pk_nv;   /* one node's candidates */
	size_t pk_nv_cap;
	int32_t *pk_sel;        /* a node trial's victims (indexes into pk_nv) */
	uint8_t *pk_in;         /* pk_nv entries among them */
	size_t pk_sel_cap, pk_in_cap;
	int pk_whole;           /* every job holds whole GPUs and no source
				 * changes shares: victims' share bounds hold */
	struct gp_sim_pk_memo *pk_memo; /* job -> its last failed search */

	/* las (las.c): queue of each job, attained service since its last
	 * promotion (GPU-seconds, up to seg_t), time it entered its queue,
	 * time waited since it last ran (starvation). */
	int nlevels;
	double thr[GP_SIM_LAS_MAX_QUEUES];
	int8_t *level;
	double *att, *att_t;    /* attained GPU-seconds, accounted up to att_t */
	double *exec;           /* seconds run since arrival or promotion */
	double *lvl_t;
	double *ovh_end;        /* end of the restore overhead of its run */
	double *wait_acc, *wait_t;
	int64_t run_milli[NLIST]; /* milli held by running jobs per list */
	uint8_t *lfront;        /* las_preempted_first: waits ahead of its
				 * list's other jobs, preempted at pre_t */
	double *pre_t;
	uint8_t *jd;            /* las_demoted_yield: demoted in this batch
				 * (indexed one rank below its list) */
	int32_t *jd_list;
	size_t njd, jd_cap;
	int64_t jd_milli[NLIST]; /* milli they hold, per list */
	uint32_t *las_failed;   /* per (shape, list): pass stamp of a failed preemption */
	uint32_t pass_stamp;
	/* The waiting jobs of each (list, shape) in list order, and the
	 * shapes present in each list (las.c, pass_shapes); NULL with too
	 * many shapes.  Keys: list * nshapes + shape. */
	int32_t *lsh_cnt;       /* key -> jobs queued */
	int32_t *lsh_head, *lsh_tail;
	int32_t *sprev, *snext; /* job -> its shape's neighbours in its list */
	int32_t *lsh_root, *sleft, *sright; /* their ordered indexes */
	int32_t *lsh_present;   /* list l: its shapes at l * nshapes ... */
	int32_t *lsh_ppos;      /* key -> position there */
	int32_t lsh_distinct[NLIST];
	gp_sim_jheap lsh_heap;  /* a pass's scratch: jobs in list order */
	int32_t *lsh_dead;

	/* Tenants (quota.c): usage per (tenant, quota key), milli-GPU; each
	 * node's model key; the `gpus` key; time usage was integrated to. */
	int64_t *q_use;
	int32_t *q_node_res;
	int q_all;
	double q_t;

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

/* engine.c */
void gp_sim_settle(sim *s, int32_t j, int state, int why);
int gp_sim_try_place(sim *s, int32_t j);
int gp_sim_job_runinfo(sim *s, int32_t j, gp_sim_runinfo *ri);
int gp_sim_start_job(sim *s, int32_t j, const gp_sim_runinfo *ri);

/* interrupt.c */
int gp_sim_ix_setup(sim *s);
/* Seconds of work between j's checkpoints (the job's own or the run's). */
double gp_sim_ix_tau(const sim *s, int32_t j);
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
	return job_class(&s->jl->jobs[j]) * s->nlevels + s->level[j];
}

static inline int gp_sim_las_before(const sim *s, int32_t a, int32_t b)
{
	if (s->lfront && (s->lfront[a] || s->lfront[b])) {
		if (s->lfront[a] != s->lfront[b])
			return s->lfront[a];
		if (s->pre_t[a] != s->pre_t[b])
			return s->pre_t[a] > s->pre_t[b];
		return s->rank[a] < s->rank[b];
	}
	if (s->lvl_t[a] != s->lvl_t[b])
		return s->lvl_t[a] < s->lvl_t[b];
	return s->rank[a] < s->rank[b];
}

/* order.c: a treap over a las list in list order; the root is -1 when
 * empty, left/right the links (one pair per job). */
int32_t gp_sim_ord_pred(const sim *s, const int32_t *left, const int32_t *right, int32_t root, int32_t j);
int32_t gp_sim_ord_insert(const sim *s, int32_t *left, int32_t *right, int32_t root, int32_t j);
int32_t gp_sim_ord_erase(const sim *s, int32_t *left, int32_t *right, int32_t root, int32_t j);

/* quota.c */
int gp_sim_quota_setup(sim *s);
void gp_sim_quota_teardown(sim *s);
int gp_sim_quota_admit(sim *s, int32_t j, const gp_placement *p);
/* The `gpus` key alone, before the policy is asked (its demand is the
 * job's whole share whatever the placement). */
int gp_sim_quota_precheck(sim *s, int32_t j);
/* j starts (sign +1) or stops (-1) holding placement p. */
void gp_sim_quota_change(sim *s, int32_t j, const gp_placement *p, int sign);
void gp_sim_quota_end(sim *s);

/* timeline.c */
void gp_sim_timeline_row(sim *s, double t);
double gp_sim_nice_step(double x);
double gp_sim_timeline_coarsen(gp_sim_result *r, double tick, size_t max_rows);

#endif
