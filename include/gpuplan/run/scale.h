/* --scale-durations: run times of fixed-duration traces that react to the
 * hardware they land on.
 *
 * Each job's recorded duration D is read as measured on a reference
 * placement: the best placement of the job, by the perf model, on a
 * reference cluster of REF hardware.  REF is
 *   GPU[:TECH]    a GPU model of the catalog (V100-SXM2-16GB:ib-edr): 8-GPU
 *                 servers with every GPU pair on NVLink (all the model's
 *                 links, NVSwitch-like) when the model has NVLink, else on
 *                 one PCIe switch, 4 NICs (one per GPU pair), all on one
 *                 leaf switch of TECH (default ib-edr);
 *   TYPE[:TECH]   a node type of the simulated cluster (dgx-a100): servers
 *                 of that type on one leaf switch of TECH (default: the
 *                 technology of the first node of that type).
 * The job's work is D / t_ref iterations, t_ref the modelled iteration
 * time there; on the placement it actually gets, the job runs
 * D x t / t_ref, t the modelled iteration time of that placement.  So a
 * faster GPU or network shortens the job and a slower one lengthens it,
 * and the job runs exactly D on hardware like the reference.
 *
 * A job whose DL model is unknown (every Philly row) is modelled as the
 * default model: resnet50, batch 32 per GPU, mixed precision (Adam), a
 * data-parallel CNN of the Philly era; --scale-model names another.  A
 * job the perf model cannot handle on either side keeps D.  Jobs given by
 * iterations run as gp_sim_perf_duration says (iterations x t). */
#ifndef GPUPLAN_RUN_SCALE_H
#define GPUPLAN_RUN_SCALE_H

#include "gpuplan/model/cluster.h"
#include "gpuplan/model/job.h"
#include "gpuplan/model/placement.h"
#include "gpuplan/sim/sim.h"
#include "gpuplan/util/error.h"

#define GP_SCALE_DEFAULT_MODEL "resnet50"
#define GP_SCALE_DEFAULT_BATCH 32
#define GP_SCALE_DEFAULT_TECH "ib-edr"

typedef struct gp_scale gp_scale;

/* Prepare the reference for jobs (kept by pointer: it must outlive the
 * object).  ref as above; model NULL = the default; types are looked up in
 * cluster (the simulated one, or the base of a what-if).  Errors:
 * GP_EUSAGE for a bad REF or model (message names the choices). */
gp_scale *gp_scale_new(const char *ref, const char *model, const gp_cluster *cluster,
		       const gp_joblist *jobs, gp_error *err);
void gp_scale_free(gp_scale *sc);

/* Use the object on cluster c (the one simulated; may differ from the one
 * given to gp_scale_new, e.g. a what-if variant).  Resets the per-cluster
 * caches. */
void gp_scale_bind(gp_scale *sc, const gp_cluster *c);

/* gp_sim_duration_fn for gp_sim_config.duration with sc as duration_ud. */
int gp_scale_duration(void *ud, const gp_cluster *c, const gp_job *job,
		      const gp_placement *p, gp_sim_runinfo *out);

#endif
