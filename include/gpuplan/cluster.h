/* The cluster model: node types (intra-node topology + GPU model), the
 * switch fabric between nodes, and the nodes.  Immutable after load; all
 * that changes while placing or simulating lives in gp_alloc (alloc.h). */
#ifndef GPUPLAN_CLUSTER_H
#define GPUPLAN_CLUSTER_H

#include <stdint.h>

#include "gpuplan/catalog.h"
#include "gpuplan/error.h"
#include "gpuplan/topo.h"

#define GP_CLUSTER_MAX_NODES 100000
#define GP_CLUSTER_MAX_FILE (16u << 20)
#define GP_YAML_MAX_DEPTH 64

/* Fabric technologies: speed per NIC port and whether the seed patent's
 * InfiniBand (1, 2, ...) or Ethernet (100, 101, ...) weights apply. */
enum gp_fabric_tech {
	GP_TECH_NONE = 0,
	GP_TECH_IB_EDR, GP_TECH_IB_HDR, GP_TECH_IB_NDR, GP_TECH_IB_XDR,
	GP_TECH_ROCE_100, GP_TECH_ROCE_200, GP_TECH_ROCE_400,
	GP_TECH_ETH_10, GP_TECH_ETH_25, GP_TECH_ETH_100,
	GP_TECH_COUNT
};
const char *gp_fabric_tech_name(int tech);
int gp_fabric_tech_parse(const char *name);   /* -1 when unknown */
double gp_fabric_tech_gbps(int tech);         /* line rate, Gb/s */
int gp_fabric_tech_is_ib(int tech);

typedef struct gp_node_type {
	char *name;
	gp_topo topo;          /* from a snapshot, or built inline */
	int gpu_model;         /* index into gp_cluster.catalog, -1 unknown */
	int cpu_count;         /* logical CPUs; 0 = derived from affinities */
	double mem_gib;        /* host memory; 0 = unknown */
	char **nic_subnets;    /* per NIC, NULL entries when not given */
} gp_node_type;

typedef struct gp_switch {
	char *name;
	int parent;            /* -1 for a root */
	int tech;              /* enum gp_fabric_tech, inherited when absent */
	int depth;             /* 0 for roots */
} gp_switch;

typedef struct gp_label {
	char *key, *value;
} gp_label;

typedef struct gp_node {
	char *name;
	int type;              /* index into gp_cluster.types */
	int sw;                /* leaf switch index, -1 when unattached */
	int first_gpu;         /* global index of its GPU 0 */
	int ngpus;             /* == types[type].topo.ngpus */
	int64_t cpu_milli;     /* CPU capacity; 0 = from the node type */
	int64_t mem_mib;       /* host memory; 0 = from the node type */
	gp_label *labels;
	int nlabels;
} gp_node;

typedef struct gp_cluster {
	char *path;            /* file it came from ("<builtin>" for defaults) */
	gp_catalog catalog;
	gp_node_type *types;
	int ntypes;
	gp_switch *switches;
	int nswitches;
	gp_node *nodes;
	int nnodes;
	int ngpus;             /* total over all nodes */
} gp_cluster;

void gp_cluster_init(gp_cluster *c);
void gp_cluster_release(gp_cluster *c);

/* Load a cluster YAML (or, where supported, another cluster format).
 * Errors carry FILE:LINE:COL and status GP_EINPUT or GP_EIO. */
int gp_cluster_load(const char *path, gp_cluster *c, gp_error *err);

int gp_cluster_find_node(const gp_cluster *c, const char *name); /* -1 */

/* Seed patent weight between two nodes: IB through k switches = k,
 * Ethernet through k switches = 99 + k, disconnected = -1, same node = 0. */
int gp_cluster_comm_weight(const gp_cluster *c, int node_a, int node_b);

#endif
