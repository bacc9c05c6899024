/* The state of preemption, owned by preempt.c (the victim search) and
 * preempt_index.c (its candidate index); interrupt.c keeps the index
 * current and requeues the victims. */
#ifndef GPUPLAN_SIM_PREEMPT_H
#define GPUPLAN_SIM_PREEMPT_H

#include <stddef.h>
#include <stdint.h>

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

typedef struct gp_sim_pk {
	/* Preemption (preempt.c): scratch for candidates, node trials, the
	 * victims released. */
	struct gp_sim_victim *vict;
	size_t vict_cap;
	struct gp_sim_try *tries;
	size_t tries_cap;
	int32_t *victims;
	size_t victims_cap;
	uint8_t *released_flag;
	int32_t preemptor;      /* the job a search runs for */
	int own;                /* tenants: victims only of this tenant, -1 any */
	int defer;              /* requeue victims only after the preemptor
				 * left its queue (a victim may sort first) */
	int32_t *deferred;
	size_t ndeferred, deferred_cap;

	/* Preemption candidate index (preempt_index.c); NULL unless
	 * preemption can happen. */
	int npk;                /* ranks */
	int ck;              /* some job checkpoints: work lost varies */
	int32_t *prio;       /* priority mode: job -> rank of its priority */
	int32_t *rank;       /* job -> rank while indexed, -1 otherwise */
	int32_t *pos;        /* job -> its entry in its rank's array */
	struct gp_sim_victim **arr; /* rank -> its jobs, dense */
	size_t *cap;
	uint32_t *mark, stamp; /* per job: among a spanning job's first victims */
	size_t *count;       /* rank -> jobs */
	int64_t *milli;      /* rank -> milli-GPU they hold */
	uint32_t *demoted;   /* rank -> demotions out of it */
	uint32_t *added;     /* rank -> jobs indexed with it */
	uint64_t *used;      /* bitmap of non-empty ranks */
	int *gmilli;         /* a node trial's GPUs: free milli, memory */
	int64_t *gmem;
	/* Per node: the latest start among the jobs ever indexed on it, and
	 * the nodes in order of that time, latest first (mru).  The jobs
	 * on a node are the engine's node index (s->ix.nodes). */
	double *nlast;
	int32_t *mru_prev, *mru_next, mru;
	gp_sim_victim *nv;   /* one node's candidates */
	size_t nv_cap;
	int32_t *sel;        /* a node trial's victims (indexes into nv) */
	uint8_t *in;         /* nv entries among them */
	size_t sel_cap, in_cap;
	int whole;           /* every job holds whole GPUs and no source
				 * changes shares: victims' share bounds hold */
	struct gp_sim_pk_memo *memo; /* job -> its last failed search */
} gp_sim_pk;

#endif
