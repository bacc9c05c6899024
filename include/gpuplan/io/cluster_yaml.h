/* Cluster YAML files (format: man gpuplan(1), FILES, "Cluster YAML"). */
#ifndef GPUPLAN_IO_CLUSTER_YAML_H
#define GPUPLAN_IO_CLUSTER_YAML_H

#include <stddef.h>

#include "gpuplan/model/cluster.h"
#include "gpuplan/util/error.h"

/* Longest name of a node, node type or switch, in bytes. */
#define GP_CLUSTER_NAME_MAX 128

/* Load a cluster YAML, or an Alibaba openb node-list CSV (first line
 * `sn,cpu_milli,...`, when that reader is built in).  Errors carry
 * FILE:LINE:COL and status GP_EINPUT or GP_EIO; on failure c is left
 * released (and initialised). */
int gp_cluster_load(const char *path, gp_cluster *c, gp_error *err);
/* Same, from text in memory (len bytes; filename for messages; paths in
 * `topology:` are resolved against filename's directory). */
int gp_cluster_parse(const char *text, size_t len, const char *filename,
		     gp_cluster *c, gp_error *err);

#endif
