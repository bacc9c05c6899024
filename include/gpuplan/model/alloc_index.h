/* Allocation-state index: what is free, kept up to date by
 * gp_alloc_take_gpu / gp_alloc_give_gpu, so that a placement decision
 * looks at the nodes that can hold a job instead of every node.
 *
 * Nodes are grouped by node type (one GPU model, one intra-node
 * topology).  A node is *regular* when each of its GPUs is either wholly
 * free (1000 milli and all its memory) or wholly taken (0 milli); a
 * regular node of a type with at most GP_AIX_MAX_GPUS GPUs sits in the
 * set of its type keyed by its free-GPU mask (bit g = GPU g wholly free).
 * For a whole-GPU job every regular node of one mask looks the same to a
 * policy (same fitting GPUs, same free milli-GPU), so a policy ranks the
 * masks and takes the lowest-numbered eligible node of the best one.
 * Every other node (a shared GPU, a free GPU with memory taken, a type
 * with more GPUs) sits in its type's `odd` set, which policies walk node
 * by node as before, and so is every node that is not up (down,
 * draining: gp_alloc_set_state keeps the index right).  Per switch (leaf
 * and every ancestor): the wholly free GPUs of the type's regular nodes
 * under it, and how many of those nodes have 0, 1, ... free GPUs. */
#ifndef GPUPLAN_ALLOC_INDEX_H
#define GPUPLAN_ALLOC_INDEX_H

#include <stdint.h>

#define GP_AIX_MAX_GPUS 8    /* types indexed by free-GPU mask */
#define GP_AIX_LEVELS 5      /* 64^5 nodes per type */

/* A set of ranks (a node's position among its type's nodes) as a bit
 * set with summary levels: lv[l + 1] bit w = lv[l] word w non-zero, so
 * the next member after any rank is found in a few word operations. */
typedef struct gp_nodeset {
	uint64_t *lv[GP_AIX_LEVELS];
	int32_t words[GP_AIX_LEVELS];
	int nlevels;
	int count;
} gp_nodeset;

typedef struct gp_aix_type {
	int nnodes;
	int32_t *nodes;       /* rank -> global node id, ascending */
	int ngpus;
	int indexed;          /* 1 <= ngpus <= GP_AIX_MAX_GPUS */
	int64_t mem_cap;      /* memory of one GPU in MiB */
	gp_nodeset *by_mask;  /* 1 << ngpus sets, NULL when not indexed */
	uint64_t nonempty[4]; /* bit m: by_mask[m] has members */
	gp_nodeset odd;
	int64_t *sw_whole;    /* per switch: free whole GPUs of regular nodes */
	int32_t *sw_hist;     /* per switch s, count w: sw_hist[s * (ngpus + 1) + w]
				 regular nodes under s with w wholly free GPUs */
	uint64_t *arena;
} gp_aix_type;

typedef struct gp_alloc_index {
	int ntypes, nnodes, nswitches;
	gp_aix_type *types;
	int32_t *rank;        /* per node */
	uint64_t *whole;      /* per node: wholly free GPUs (first 64) */
	uint16_t *nodd;       /* per node: GPUs neither wholly free nor taken */
	uint8_t *notup;       /* per node: not up (down or draining) */
} gp_alloc_index;

/* First member >= x, -1 when none. */
static inline int gp_nodeset_next(const gp_nodeset *s, int x)
{
	int l = 0;
	int64_t pos = x;

	if (x < 0)
		pos = 0;
	for (;;) {
		int64_t w = pos >> 6;
		uint64_t b;

		if (l >= s->nlevels || w >= s->words[l])
			return -1;
		b = s->lv[l][w] & (~(uint64_t)0 << (pos & 63));
		if (b) {
			pos = (w << 6) + __builtin_ctzll(b);
			break;
		}
		pos = w + 1;
		l++;
	}
	while (l > 0) {
		l--;
		pos = (pos << 6) + __builtin_ctzll(s->lv[l][pos]);
	}
	return (int)pos;
}

/* Whether node is regular (in its type's by_mask sets). */
static inline int gp_aix_regular(const gp_alloc_index *ix, const gp_aix_type *t, int node)
{
	return t->indexed && ix->nodd[node] == 0 && !ix->notup[node];
}

#endif
