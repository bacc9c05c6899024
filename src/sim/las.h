/* The state of --queue las, owned by las.c (sim_int.h reads the list
 * order; preemption reads who was just demoted).  Queue of each job,
 * attained service since its last promotion (GPU-seconds, up to seg_t),
 * time it entered its queue, time waited since it last ran
 * (starvation); its lists. */
#ifndef GPUPLAN_SIM_LAS_H
#define GPUPLAN_SIM_LAS_H

#include <stddef.h>
#include <stdint.h>

#include "sim_types.h"

typedef struct gp_sim_las {
	int32_t lhead[NLIST], ltail[NLIST]; /* one list per (class, queue) */
	int32_t lroot[NLIST];   /* each list's ordered index (order.c) */
	int32_t *oleft, *oright;
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
} gp_sim_las;

#endif
