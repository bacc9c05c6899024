/* A placement in the terms of what runs the job (`place --emit`): the
 * environment (CUDA_VISIBLE_DEVICES, NCCL_IB_HCA), numactl lines, an
 * sbatch/srun line and Kubernetes pod specs.  Node names are hostlist-
 * compressed wherever nodes share one line.  Everything renders into a
 * gp_sbuf. */
#ifndef GPUPLAN_REPORT_EMIT_H
#define GPUPLAN_REPORT_EMIT_H

#include "gpuplan/model/cluster.h"
#include "gpuplan/model/job.h"
#include "gpuplan/model/placement.h"
#include "gpuplan/util/util.h"

enum gp_emit_kind {
	GP_EMIT_ENV = 1 << 0,
	GP_EMIT_SLURM = 1 << 1,
	GP_EMIT_K8S = 1 << 2,
	GP_EMIT_NUMACTL = 1 << 3,
	GP_EMIT_JOBSET = 1 << 4,  /* a JobSet: one pinned pod per part, with
				   * torchrun's rendezvous and RDMA devices */
};

/* "env,slurm" or one name: the bits, or -1 with the bad word in bad. */
int gp_emit_parse(const char *s, char *bad, size_t size);
const char *gp_emit_name(int bit);

/* Render one kind for p (placed job j on c) into sb. */
void gp_emit_render(int kind, const gp_cluster *c, const gp_job *j, const gp_placement *p,
		    gp_sbuf *sb);
#endif
