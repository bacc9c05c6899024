/* Allocation state: everything that changes while placing or simulating.
 * Flat arrays indexed by global GPU id and node id, with per-node summary
 * counters so that a policy can skip a node without touching its GPUs.
 * O(1) allocate/free per GPU; no allocation on the hot path. */
#ifndef GPUPLAN_ALLOC_H
#define GPUPLAN_ALLOC_H

/* SR-IOV virtual functions one NIC offers (placement and state files). */
#define GP_NIC_MAX_VFS 64

#include <stdint.h>

#include "gpuplan/model/cluster.h"

#define GP_MILLI 1000
/* Memory of a GPU whose model is unknown, or of a node whose memory is not
 * given (MiB): large enough never to limit. */
#define GP_MEM_UNLIMITED ((int64_t)1 << 40)

enum gp_node_state { GP_NODE_UP = 0, GP_NODE_DOWN, GP_NODE_DRAINING };

typedef struct gp_alloc {
	const gp_cluster *cluster;
	int ngpus, nnodes;
	/* per GPU (global id = node.first_gpu + local index) */
	int16_t *gpu_free_milli;     /* 0..1000 */
	int64_t *gpu_free_mem_mib;
	uint16_t *gpu_tasks;         /* tasks sharing the GPU */
	int32_t *gpu_env;            /* owner environment id, -1 none */
	int32_t *gpu_node;           /* node of each GPU */
	/* per node */
	int32_t *node_free_whole;    /* GPUs with gpu_free_milli == 1000 */
	int64_t *node_free_milli;    /* sum of gpu_free_milli */
	int64_t *node_free_cpu_milli;
	int64_t *node_cap_cpu_milli;
	int64_t *node_cap_mem_mib;
	int64_t *node_free_mem_mib;
	uint8_t *node_state;         /* enum gp_node_state; set it with
					gp_alloc_set_state (the index) */
	uint64_t *cpu_used;          /* bitmap per node, cpu_words each */
	int cpu_words;
	uint16_t *nic_vfs_used;      /* at most GP_NIC_MAX_VFS each */      /* per node per NIC: node*max_nics + nic */
	int max_nics;
	/* What is free, by node type, mask and switch (alloc_index.h); kept
	 * by take / give.  NULL: none (policies scan every node). */
	struct gp_alloc_index *ix;
} gp_alloc;

int gp_alloc_init(gp_alloc *a, const gp_cluster *c);
void gp_alloc_release(gp_alloc *a);
int gp_alloc_copy(gp_alloc *dst, const gp_alloc *src);
/* Make dst, initialised for the same cluster as src (gp_alloc_init or
 * gp_alloc_copy), equal to src, index included, without allocating: to
 * start over from a saved state.  -1 (nothing changed) when the two do not
 * match. */
int gp_alloc_assign(gp_alloc *dst, const gp_alloc *src);

/* Capacity of one GPU's memory in MiB (from the catalog; a large value
 * when the model is unknown, so that memory never limits). */
int64_t gp_alloc_gpu_mem_cap(const gp_alloc *a, int gpu);

/* Take / give back milli share and memory on one GPU; keeps the node
 * summaries right.  Take fails (returns -1, no change) when it does not fit. */
int gp_alloc_take_gpu(gp_alloc *a, int gpu, int milli, int64_t mem_mib);
void gp_alloc_give_gpu(gp_alloc *a, int gpu, int milli, int64_t mem_mib);

/* A node's state (enum gp_node_state); keeps the index right. */
void gp_alloc_set_state(gp_alloc *a, int node, int state);

/* CPU cores of a node: bit test / set / clear. */
static inline int gp_alloc_cpu_used(const gp_alloc *a, int node, int cpu)
{
	const uint64_t *w = a->cpu_used + (size_t)node * (size_t)a->cpu_words;

	return (int)((w[cpu / 64] >> (cpu % 64)) & 1u);
}
void gp_alloc_set_cpu(gp_alloc *a, int node, int cpu, int used);

/* Free whole GPUs in the cluster (sum of node_free_whole over up nodes). */
int64_t gp_alloc_free_whole_total(const gp_alloc *a);

#endif
