/* Internals of the job-spec loader (jobspec.c, jobspec_layers.c). */
#ifndef GPUPLAN_JOBSPEC_INT_H
#define GPUPLAN_JOBSPEC_INT_H

#include "gpuplan/io/yaml.h"
#include "gpuplan/model/job.h"
#include "gpuplan/util/error.h"

/* A model's 'layer_list' v from an input of in_c x in_h x in_w: fills
 * d->act_elems, layers and input shape, *params (weights and biases) and
 * *fwd (forward FLOPs per sample); errors located in v. */
int gp_jobspec_layer_list(const gp_yaml_doc *doc, const gp_yaml_node *v, int in_c, int in_h,
			  int in_w, gp_model_desc *d, double *params, double *fwd, gp_error *err);

/* The type-llm part of job map (model, precision, parallel, sharding,
 * recompute, batches) into job->more->llm; gpus_given 0 lets the
 * parallel sizes give the GPU count.  Errors located. */
int gp_jobspec_llm(const gp_yaml_doc *doc, const gp_yaml_node *map, gp_job *job, int gpus_given,
		   gp_error *err);
/* Job keys only an llm job has (NULL-terminated). */
extern const char *const gp_jobspec_llm_keys[];

#endif
