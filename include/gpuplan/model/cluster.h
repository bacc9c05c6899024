/* The cluster model: node types (intra-node topology + GPU model), the
 * switch fabric between nodes, and the nodes.  Immutable after load; all
 * that changes while placing or simulating lives in gp_alloc (alloc.h). */
#ifndef GPUPLAN_CLUSTER_H
#define GPUPLAN_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#include "gpuplan/model/catalog.h"
#include "gpuplan/util/error.h"
#include "gpuplan/model/topo.h"

#define GP_CLUSTER_MAX_NODES 100000
#define GP_CLUSTER_MAX_FILE (16u << 20)
#define GP_YAML_MAX_DEPTH 64

/* Fabric technologies: speed per NIC port and whether the source patent's
 * InfiniBand (1, 2, ...) or Ethernet (100, 101, ...) weights apply. */
enum gp_fabric_tech {
	GP_TECH_NONE = 0,
	GP_TECH_IB_EDR, GP_TECH_IB_HDR, GP_TECH_IB_NDR, GP_TECH_IB_XDR,
	GP_TECH_ROCE_100, GP_TECH_ROCE_200, GP_TECH_ROCE_400,
	GP_TECH_ETH_10, GP_TECH_ETH_25, GP_TECH_ETH_100,
	/* Added by the fabric owner. */
	GP_TECH_IB_FDR, GP_TECH_ROCE_25, GP_TECH_ETH_1, GP_TECH_ETH_40,
	GP_TECH_ETH_200, GP_TECH_ETH_400,
	GP_TECH_TCPXO_200, /* Ethernet with GPUDirect-TCPXO (Google's NCCL plugin) */
	GP_TECH_COUNT
};
const char *gp_fabric_tech_name(int tech);
int gp_fabric_tech_parse(const char *name);   /* -1 when unknown */
double gp_fabric_tech_gbps(int tech);         /* line rate, Gb/s; 0 for NONE */
int gp_fabric_tech_is_ib(int tech);

typedef struct gp_node_type {
	char *name;
	gp_topo topo;          /* from a snapshot, or built inline */
	int gpu_model;         /* index into gp_cluster.catalog, -1 unknown */
	int cpu_count;         /* logical CPUs; 0 = derived from affinities */
	double mem_gib;        /* host memory; 0 = unknown */
	char **nic_subnets;    /* per NIC, NULL entries when not given */
	char *source;          /* snapshot path, NULL when inline */
	gp_topo_derived *derived; /* CPU sub-trees, expense, NIC classes,
				     rings (gp_topo_derive), by gp_cluster_finish */
	int line, col;         /* where it is declared */
} gp_node_type;

/* How a switch spreads flows over its uplinks (key 'load_balancing'). */
enum gp_load_balancing {
	GP_LB_ECMP = 0,        /* static per-flow hash (5-tuple) */
	GP_LB_FLOW_AWARE,      /* flows placed by load or hashed with enough
				  entropy (per-QP hashing, flow shifting) */
	GP_LB_ADAPTIVE         /* per packet or flowlet by port load */
};
int gp_load_balancing_parse(const char *name);  /* -1 when unknown */

typedef struct gp_switch {
	char *name;
	int parent;            /* -1 for a root */
	int tech;              /* enum gp_fabric_tech, inherited when absent */
	int depth;             /* 0 for roots */
	/* Fabric behaviour under load (perf model); each is
	 * inherited from the parent when not given (< 0 = not given). */
	double congestion;     /* c in busbw x 1/(1 + c log2(m/2)) over m > 2
				  nodes; default by technology */
	int adaptive_routing;  /* adaptive routing (default on for
				  InfiniBand, off for RoCE/Ethernet) */
	int load_balancing;    /* enum gp_load_balancing */
	int sharp;             /* in-network reduction, SHARP (default off) */
	char *stack;           /* stacked Ethernet switches: members of one
				  stack (same name, same parent) count as one
				  switch in the communication weight; NULL */
	/* Derived by gp_cluster_finish. */
	int stack_id;          /* lowest index of its stack's members, -1 */
	int ib_up;             /* IB switches on the way up from here, this one
				  included, before the first non-IB one */
	int first, count;      /* nodes in this subtree: node_order[first ..
				  first+count-1], grouped by attachment switch */
	int nchildren;         /* child switches */
	int nodes_direct;      /* nodes attached to this switch itself */
	int line, col;
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
	int tech;              /* its switch's technology, GP_TECH_NONE if none */
	/* A rail-optimized fabric: the leaf switch of each rail (rail r: the
	 * NIC closest to the node's GPUs, r-th in GPU order; see
	 * gp_cluster_node_rail_nic), -1 for a rail not cabled.  nrails 0:
	 * every NIC reaches the fabric through sw. */
	int *rails;
	int nrails;
	int state;             /* initial enum gp_node_state (alloc.h): 0 up */
	int line, col;         /* where it is declared (count: the group) */
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
	/* Derived by gp_cluster_finish. */
	char *name;            /* `name:` of the file, NULL when absent */
	int has_tenants;       /* the file has a tenants: section (read by
				 * the simulator's tenants reader) */
	int nnics;             /* total over all nodes */
	int max_depth;         /* deepest switch depth */
	int *node_order;       /* attached nodes in switch-tree DFS order
				  (children by name), then unattached ones */
	int nattached;         /* nodes with a switch */
	int *node_hash;        /* open-addressing name index, -1 = empty */
	size_t node_hash_cap;
	int *sw_hash, *type_hash; /* the same for switches and node types,
				     kept up to date by the add functions */
	size_t sw_hash_cap, type_hash_cap;
} gp_cluster;

void gp_cluster_init(gp_cluster *c);
void gp_cluster_release(gp_cluster *c);

/* Building a cluster by hand (openb reader, tests).  Start with
 * gp_cluster_init + gp_catalog_init_builtin(&c->catalog); the add
 * functions copy the strings and return the new index; type_topo is
 * moved into the cluster (left initialised).  gp_cluster_finish then
 * checks references and cycles and derives every "Derived" field; call
 * it once, after the last add. */
int gp_cluster_add_type(gp_cluster *c, const char *name, gp_topo *type_topo,
			int gpu_model);
int gp_cluster_add_switch(gp_cluster *c, const char *name, int parent,
			  int tech);
int gp_cluster_add_node(gp_cluster *c, const char *name, int type, int sw);
int gp_cluster_finish(gp_cluster *c, gp_error *err);

int gp_cluster_find_node(const gp_cluster *c, const char *name); /* -1 */
int gp_cluster_find_switch(const gp_cluster *c, const char *name); /* -1 */
int gp_cluster_find_type(const gp_cluster *c, const char *name); /* -1 */
/* The node's GPU model, NULL when its type names none. */
const gp_gpu_model *gp_cluster_node_model(const gp_cluster *c, int node);
/* Line rate of each NIC of the node, from its switch (0 when unattached). */
double gp_cluster_node_nic_gbps(const gp_cluster *c, int node);
/* Rails: the NIC of rail r of the node (its GPUs' closest NICs, distinct,
 * in order of the lowest GPU each serves), -1 when the type has fewer;
 * the count of such NICs; and the line rate of rail r (its leaf's
 * technology; 0 when the rail is not cabled). */
int gp_cluster_node_rail_nic(const gp_cluster *c, int node, int r);
int gp_cluster_type_rails(const gp_cluster *c, int type);
double gp_cluster_node_rail_gbps(const gp_cluster *c, int node, int r);
/* Frees what a node owns (name, labels, rails). */
void gp_cluster_node_release(gp_node *n);
/* GPUs per catalog model: counts[m] for m < catalog.n, counts[catalog.n]
 * for node types without a model; counts holds catalog.n + 1 ints. */
void gp_cluster_gpus_by_model(const gp_cluster *c, int *counts);
/* Value of label key on node, NULL when absent. */
const char *gp_cluster_node_label(const gp_cluster *c, int node,
				  const char *key);

/* The source patent's weight between two nodes (US 12386666): a path "through k
 * switches" has weight k on InfiniBand and 99 + k on Ethernet/RoCE;
 * disconnected (a node without switch, or different trees) = -1; the same
 * node = 0.
 *
 * k counts switch levels, not switches: with A's leaf ha hops and B's
 * leaf hb hops below their lowest common switch, k = 1 + max(ha, hb).  So
 * two nodes on one leaf: k = 1; leaves under one spine (leaf-spine-leaf,
 * three switches traversed): k = 2; via a core above the spines: k = 3.
 * The path counts as InfiniBand only when every switch on it is IB.
 * O(depth) time, no allocation. */
int gp_cluster_comm_weight(const gp_cluster *c, int node_a, int node_b);
/* The weight between two distinct nodes attached to switches sa and sb
 * (sa == sb: 1 on IB, 100 otherwise; -1 when either is -1 or they are in
 * different trees).  Nodes on one switch are interchangeable, so policies
 * and reports can work per switch instead of per node pair. */
int gp_cluster_switch_weight(const gp_cluster *c, int sa, int sb);
/* The switch `up` levels above sw (sw itself for 0), -1 past the root. */
int gp_cluster_switch_ancestor(const gp_cluster *c, int sw, int up);
/* Nodes under switch sw (its whole subtree), as a slice of node_order;
 * nodes attached to one switch are consecutive.  Every node under the
 * ancestor `k-1` levels above a node's leaf is within k levels of it:
 * policies use this to grow a job from one leaf outwards. */
const int *gp_cluster_nodes_under(const gp_cluster *c, int sw, int *count);

#endif
