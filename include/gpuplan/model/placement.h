/* A placement: the parts of nodes, GPUs, CPUs and NICs a job gets, and the
 * explanation record policies fill.  Data and its invariants only; the
 * policies that make placements live in src/place/. */
#ifndef GPUPLAN_MODEL_PLACEMENT_H
#define GPUPLAN_MODEL_PLACEMENT_H

#include <stdint.h>

#include "gpuplan/model/alloc.h"
#include "gpuplan/model/topo.h"

#define GP_PLACE_MAX_PARTS 512 /* nodes one job may span */

enum gp_place_result { GP_PLACED = 0, GP_WAIT = 1 };

/* The share of one node a job gets. */
typedef struct gp_place_part {
	int node;
	int ngpus;
	int gpus[GP_TOPO_MAX_GPUS]; /* local GPU indices on that node */
	int milli;                  /* per-GPU share taken (1000 = whole) */
	int64_t mem_mib;            /* per-GPU memory taken */
	int64_t cpu_milli;          /* CPU taken on the node (milli-cores) */
	int64_t host_mem_mib;       /* host memory taken on the node */
	int numa;                   /* chosen NUMA node, -1 unknown */
	int ncpus;
	int *cpus;                  /* CPU numbers taken (owned) */
	int nic;                    /* NIC index on the node, -1 none: the one
				     * most of the part's GPUs use (rails) */
	int vf;                     /* virtual function of nic, -1 none */
	int role;                   /* 0 worker, 1 parameter server */
	int nic_class;              /* nic-affinity: RoCE class requested
				     * (gp_place_class_name), else -1 */
	int16_t gpu_nic[GP_TOPO_MAX_GPUS]; /* NIC GPU gpus[i] uses: its own
				     * closest NIC (rail) when nearer than
				     * SYS, else nic; -1 none */
} gp_place_part;

typedef struct gp_placement {
	gp_place_part *parts;
	int nparts, cap;
	/* Both set by gp_place_finish from the perf model (place.h,
	 * gp_place_summarize), so they match what `place` prints. */
	int bottleneck;             /* enum gp_link_level, or GP_LINK_LEVELS
				     * + switch levels for network paths */
	double ring_bw_gbs;         /* predicted ring bandwidth, 0 unknown */
	int *cpu_pool;              /* backing store of the parts' cpus
				     * (owned; kept across clears) */
	int cpu_len, cpu_cap;
} gp_placement;

void gp_placement_init(gp_placement *p);
void gp_placement_release(gp_placement *p);
void gp_placement_clear(gp_placement *p);
gp_place_part *gp_placement_add(gp_placement *p, int node);

/* Decision path for `place` output; policies append when non-NULL so that
 * the simulator pays nothing for explanations. */
typedef struct gp_explain {
	char **lines;
	int n, cap;
	char reason[256];           /* why WAIT */
} gp_explain;
void gp_explain_init(gp_explain *e);
void gp_explain_release(gp_explain *e);
void gp_explain_add(gp_explain *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Set the WAIT reason (when e is non-NULL) and return GP_WAIT. */
int gp_explain_wait(gp_explain *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Apply / undo a placement on the state.  apply takes everything or
 * nothing: it returns -1 (state unchanged) when a part does not fit. */
int gp_placement_apply(gp_alloc *a, const gp_placement *p);
void gp_placement_undo(gp_alloc *a, const gp_placement *p);

#endif
