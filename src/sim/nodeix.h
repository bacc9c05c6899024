/* The per-node running-jobs index of the engine: for each node the jobs
 * placed on it (running or stalled), the latest placed first, one entry
 * per (job, node) with the job's GPUs there.  The engine keeps it while
 * interruptions are on (interrupt.c: start, move, finish, interruption);
 * the victim search (preempt.c) and the sources (gp_sim_node_next: the
 * failure source) read it. */
#ifndef GPUPLAN_SIM_NODEIX_H
#define GPUPLAN_SIM_NODEIX_H

#include <stddef.h>
#include <stdint.h>

#include "gpuplan/model/placement.h"

typedef struct gp_sim_nodeent {
	int32_t job, node, ngpus;
	int32_t prev, next;     /* the node's list */
	int32_t jnext;          /* the job's next entry */
} gp_sim_nodeent;

typedef struct gp_sim_nodeix {
	int32_t *head;          /* node -> first entry, -1 none */
	int32_t *jent;          /* job -> its first entry, -1 none */
	gp_sim_nodeent *e;
	size_t n, cap;
	int32_t free_;          /* free entries, linked by next */
	uint32_t *mark, stamp;  /* per node: parts of one placement merged */
	size_t nnodes;
} gp_sim_nodeix;

void gp_sim_nodeix_init(gp_sim_nodeix *x, size_t nnodes, size_t njobs);
void gp_sim_nodeix_release(gp_sim_nodeix *x);
/* j now holds placement p (it holds nothing indexed before). */
void gp_sim_nodeix_add(gp_sim_nodeix *x, int32_t j, const gp_placement *p);
void gp_sim_nodeix_remove(gp_sim_nodeix *x, int32_t j);

#endif
