/* The job-spec YAML loader (`place JOB.yaml`, `estimate`, `validate`,
 * `place --batch`).  Format: man gpuplan, "Job YAML".  Every error carries
 * FILE:LINE:COL and status GP_EINPUT (GP_EIO when the file is unreadable). */
#ifndef GPUPLAN_JOBSPEC_H
#define GPUPLAN_JOBSPEC_H

#include "gpuplan/util/error.h"
#include "gpuplan/model/job.h"
#include "gpuplan/io/yaml.h"

#define GP_JOBSPEC_MAX_FILE (4u << 20)
#define GP_JOBSPEC_MAX_JOBS 100000
#define GP_JOBSPEC_MAX_GPUS 65536

/* One job from a file whose root is a job mapping.  job is initialised
 * here; on failure it is left released. */
int gp_jobspec_load(const char *path, gp_job *job, gp_error *err);

/* A list of jobs: the root is a sequence of job mappings, or a mapping
 * with the single key `jobs:` holding that sequence.  Names must be
 * unique.  list is initialised here; on failure it is left released. */
int gp_jobspec_load_list(const char *path, gp_joblist *list, gp_error *err);

/* One job from a mapping node of an already parsed document. */
int gp_jobspec_from_yaml(const gp_yaml_doc *doc, const gp_yaml_node *map,
			 gp_job *job, gp_error *err);

/* "7B", "340M", "1.5e9", "25557032": a count with an optional K/M/B/T
 * (10^3..10^12) suffix; 0 on success, -1 otherwise. */
int gp_parse_count(const char *s, double *out);

#endif
