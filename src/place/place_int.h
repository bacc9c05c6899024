/* Inside the place module only: the cache layout and small helpers shared
 * by place_cache.c and place_util.c. */
#ifndef GPUPLAN_PLACE_INT_H
#define GPUPLAN_PLACE_INT_H

#include "gpuplan/policy.h"

struct gp_place_cache {
	const gp_cluster *cluster;
	gp_place_type *types;
	int ntypes;
	/* fabric: per switch, the worst seed weight between two nodes under
	 * it (0 with one node, INT_MAX when disconnected), nodes under it */
	int *sw_rate;
	int *sw_count;
	int64_t *sw_free;      /* scratch */
	/* RoCE classes */
	char **class_keys;
	int nclasses;
	int64_t *class_votes;  /* scratch */
	int64_t *class_free;   /* scratch */
	int *node_int[2];      /* scratch per node */
	uint64_t *node_mask;   /* scratch per node */
};

/* A node's leaf switch, -1 when it has none (or a hand-built cluster
 * left it out of range). */
static inline int gp_place_node_sw(const gp_cluster *c, int node)
{
	int sw = c->nodes[node].sw;

	return sw >= 0 && sw < c->nswitches ? sw : -1;
}

int gp_place_cmp_u16(const void *a, const void *b);
/* go-gpuallocator pair score from the node type (see gpu_pair_score.c). */
int gp_place_pair_score(const gp_place_type *t, int a, int b);
/* NCCL-style GB/s of a link of expense e on this node type. */
float gp_place_expense_bw(const gp_place_type *t, int e);

#endif
