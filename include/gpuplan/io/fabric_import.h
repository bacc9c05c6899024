/* The network fabric of an imported cluster, from what sites keep:
 * Slurm's topology.conf (tree: SwitchName/Switches/Nodes; block:
 * BlockName/BlockSizes), topology.yaml (tree, block; Slurm 25.05) and
 * `scontrol show topology`, InfiniBand's `ibnetdiscover` dump, and
 * Kubernetes node labels (GKE, AWS, OCI, or a Kueue Topology's levels).  The result is a forest of switches (name and
 * parent) and the leaf switch of each node, with every oddity of the file
 * resolved and warned (man gpuplan, IMPORT, "Fabric").
 *
 * Resolutions:
 *  - a node under two leaves stays under the first, except in a
 *    rail-optimized dump: leaves that serve the same nodes are the rails
 *    of those nodes (the first leaf is their switch, as Slurm and Kueue
 *    see it, and gp_fabric_switch.rails lists every rail's leaf);
 *  - a switch under two parents keeps the first;
 *  - a parent link that closes a cycle is dropped;
 *  - several roots stay several trees (no job spans them, as in Slurm);
 *  - a link listed at both ends counts once;
 *  - nodes the fabric does not name get no switch (the caller warns). */
#ifndef GPUPLAN_FABRIC_IMPORT_H
#define GPUPLAN_FABRIC_IMPORT_H

#include <stddef.h>

#include "gpuplan/util/error.h"

#define GP_FABRIC_MAX_SWITCHES 100000
#define GP_FABRIC_MAX_NODES 1000000

typedef struct gp_fabric_switch {
	char *name;
	int parent;             /* index, -1 = a root */
	int line;               /* where it was defined */
	int *rails, nrails;     /* the leaf of each rail of the nodes under
				   it (itself first); 0: no rails */
} gp_fabric_switch;

typedef struct gp_fabric {
	gp_fabric_switch *sw;
	size_t nsw, capsw;
	char **node;            /* node names ... */
	int *node_sw;           /* ... and the leaf each is under */
	int *node_line;
	size_t nnode, capnode;
	char **warnings;        /* "FILE:LINE: text" */
	size_t nwarn, capwarn;
	char *tech;             /* from the file (ibnetdiscover speeds), NULL unknown */
	char *form;             /* "topology.conf (tree)", "ibnetdiscover", ... */
	char **levels;          /* a Kueue Topology's node labels, coarsest
				   first (for node lists read after it) */
	size_t nlevels;
	void *index;            /* private */
} gp_fabric;

void gp_fabric_init(gp_fabric *f);
void gp_fabric_release(gp_fabric *f);

/* What text is: 1 topology.conf or scontrol show topology, 2
 * ibnetdiscover, 3 Slurm's topology.yaml, 4 a Kueue Topology object, 0
 * none of them (a Kubernetes node list is an import input first: its
 * labels are read with gp_fabric_read_labels). */
int gp_fabric_sniff(const char *text, size_t len);

/* Read one file (text[len] = '\0').  GP_EINPUT located at FILE:LINE:COL. */
int gp_fabric_read(gp_fabric *f, const char *name, const char *text, size_t len, gp_error *err);

/* The switches a Kubernetes node list's labels name (`kubectl get nodes
 * -o json|yaml`): the levels of a Kueue Topology read before, else the
 * first family of known labels the nodes carry (GKE
 * cloud.google.com/gce-topology-block and -subblock; AWS
 * topology.k8s.aws/network-node-layer-1..4; OCI
 * oci.oraclecloud.com/rdma.hpc_island_id, rdma.network_block_id,
 * rdma.local_block_id), coarsest first, each value a switch under the
 * previous level's, the node under its finest.  *found: the nodes placed
 * (0: the file names no fabric, and f is unchanged). */
int gp_fabric_read_labels(gp_fabric *f, const char *file, const char *text, size_t len, int *found,
			  gp_error *err);

/* The leaf switch of node (its index in f->sw), -1 when none. */
int gp_fabric_node_switch(const gp_fabric *f, const char *node);

#endif
