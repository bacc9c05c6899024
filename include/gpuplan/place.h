/* What a placement means for the job's communication: the worst link its
 * ring crosses and the predicted ring bandwidth, for `place` output and
 * for reports.  Bandwidths come from the perf model's link constants
 * (perf.h: gp_perf_ring_gbs inside a node, gp_perf_nic_gbs across). */
#ifndef GPUPLAN_PLACE_H
#define GPUPLAN_PLACE_H

#include "gpuplan/cluster.h"
#include "gpuplan/policy.h"

typedef struct gp_place_summary {
	int nodes, gpus;
	gp_link worst_intra;   /* worst ring hop inside a node (X: 1 GPU each) */
	double intra_gbs;      /* slowest intra-node ring, GB/s */
	int net_levels;        /* switch levels between the farthest nodes;
				* 0 single node, -1 disconnected */
	int net_ib;            /* that path is all InfiniBand */
	double net_gbs;        /* slowest node's NIC bandwidth for the job, 0 */
	double ring_gbs;       /* predicted ring bandwidth = min of the two */
	char bottleneck[16];   /* "NV12", "PIX", ..., "SYS", "NET", "X" */
} gp_place_summary;

/* Summarize p on c; also sets p->bottleneck (link level, or
 * GP_LINK_LEVELS + switch levels for NET) and p->ring_bw_gbs. */
void gp_place_summarize(const gp_cluster *c, gp_placement *p, gp_place_summary *s);

#endif
