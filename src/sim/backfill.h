/* The state of --queue backfill, owned by backfill.c: the reservation
 * of the blocked head and the index of its exact scan. */
#ifndef GPUPLAN_SIM_BACKFILL_H
#define GPUPLAN_SIM_BACKFILL_H

#include <stddef.h>
#include <stdint.h>

#include "sim_types.h"

/* A running job and the end backfill expects of it (time limits). */
typedef struct gp_sim_lim_end {
	double t;
	int32_t job;
} gp_sim_lim_end;

typedef struct gp_sim_bf {
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
	struct gp_sim_sbf *sbf; /* Slurm's backfill plan (backfill_slurm.c) */

	/* Exact backfill scan index (see bf_scan): queued jobs grouped by
	 * (shape, class), each group in arrival order with a min-tree over
	 * the duration estimates of its queued members. */
	int index;              /* the index is on (an exact scan) */
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
} gp_sim_bf;

#endif
