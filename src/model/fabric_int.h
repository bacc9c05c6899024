/* Shared between the files of src/cluster/ only. */
#ifndef GPUPLAN_FABRIC_INT_H
#define GPUPLAN_FABRIC_INT_H

#include "gpuplan/model/cluster.h"

/* Depths (with the cycle check), technology inheritance, IB runs, child
 * and node counts, node_order and subtree ranges; nodes' tech. */
int gp_fabric_derive(gp_cluster *c, gp_error *err);

#endif
