/* The allocation index's upkeep, for alloc.c (alloc_index.h). */
#ifndef GPUPLAN_ALLOC_INDEX_INT_H
#define GPUPLAN_ALLOC_INDEX_INT_H

#include "gpuplan/model/alloc.h"
#include "gpuplan/model/alloc_index.h"

typedef struct gp_aix_gpu {
	int odd;
} gp_aix_gpu;

/* Built from the state as it is (init, copy). */
gp_alloc_index *gp_alloc_index_new(const gp_alloc *a);
void gp_alloc_index_free(gp_alloc_index *ix);
/* dst (built for the cluster of src) takes the sets and sums of src. */
void gp_alloc_index_assign(gp_alloc_index *dst, const gp_alloc_index *src);
/* Around every change of one GPU's free milli or memory. */
void gp_alloc_index_before(const gp_alloc *a, int gpu, gp_aix_gpu *was);
void gp_alloc_index_after(gp_alloc *a, int gpu, const gp_aix_gpu *was);
/* After a change of a->node_state[node]. */
void gp_alloc_index_state(gp_alloc *a, int node);

#endif
