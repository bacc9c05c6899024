/* Internals of the discrete-event engine (see sim.h for the rules it
 * implements), shared by its files:
 *   engine.c    job life (arrive, start, finish), the scheduling pass,
 *               setup and the main loop
 *   events.c    the event heap and a best-first walk over it
 *   queues.c    the class queues (linked lists; binary heaps for sjf)
 *   backfill.c  EASY: the head's reservation, the backfill scans and
 *               their index
 *   timeline.c  metrics rows
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
#include "gpuplan/util/util.h"

#define NCLASS 2

typedef struct ev {
	double t;
	uint32_t seq;
	int32_t job;            /* -1: metrics tick */
} ev;

struct gp_sim {
	const gp_sim_config *cfg;
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

	ev *heap;
	size_t nheap, heap_cap;
	uint32_t seq;
	size_t *walk;           /* best-first walk over heap indices */
	size_t walk_cap;

	int32_t *shape;         /* job -> shape id */
	size_t nshapes;
	int8_t *shape_fits;     /* -1 unknown, 0 never, 1 fits the idle cluster */
	uint32_t *shape_waited; /* wait_epoch of the shape's last WAIT */
	uint32_t wait_epoch;    /* bumped whenever resources are freed: in
				 * between they only shrink, so a shape that
				 * waited keeps waiting */
	uint32_t *shape_conflict; /* state version of a reservation conflict */
	uint32_t version;         /* changes whenever the state does */

	double *est;            /* duration estimate (sjf key) */
	int32_t *slot;          /* placement pool slot while running */
	int32_t *prev, *next;   /* class queue links (fifo, backfill) */
	int32_t qhead[NCLASS], qtail[NCLASS];
	int32_t *sjf[NCLASS];   /* binary heaps (sjf) */
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

	/* EASY reservation of the blocked head */
	int32_t resv_head;      /* -1 none */
	uint32_t resv_epoch;    /* wait_epoch when it was made */
	double resv_t;
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

/* events.c */
void gp_sim_heap_push(sim *s, double t, int32_t job);
ev gp_sim_heap_pop(sim *s);
/* Next finish event in (time, seq) order from a best-first walk over the
 * heap array (s->walk, *nwalk entries); -1 when none is left. */
long gp_sim_walk_next(sim *s, size_t *nwalk);

/* queues.c */
void gp_sim_enqueue(sim *s, int32_t j);
void gp_sim_dequeue(sim *s, int32_t j);
int32_t gp_sim_queue_head(const sim *s, int k);
int32_t gp_sim_combined_head(const sim *s);

/* backfill.c */
void gp_sim_bf_enqueue(sim *s, int32_t j, int k);
void gp_sim_bf_dequeue(sim *s, int32_t j, int k);
void gp_sim_bf_setup(sim *s);
void gp_sim_bf_teardown(sim *s);
/* The head is blocked: reserve its start and backfill behind it. */
void gp_sim_backfill(sim *s, int32_t head);

/* engine.c */
int gp_sim_try_place(sim *s, int32_t j);
int gp_sim_job_runinfo(sim *s, int32_t j, gp_sim_runinfo *ri);
int gp_sim_start_job(sim *s, int32_t j, const gp_sim_runinfo *ri);

/* timeline.c */
void gp_sim_timeline_row(sim *s, double t);
double gp_sim_nice_step(double x);

#endif
