/* Internals of the fabric import: the switch forest built by every reader
 * (fabric_core.c), the topology.conf/ibnetdiscover readers
 * (import_fabric.c) and the YAML ones (import_fabric_yaml.c: Slurm's
 * topology.yaml, Kubernetes node labels). */
#ifndef GPUPLAN_IO_FABRIC_INT_H
#define GPUPLAN_IO_FABRIC_INT_H

#include <stddef.h>

#include "gpuplan/io/fabric_import.h"

/* A string -> int map (open addressing; keys borrowed). */
typedef struct gp_fsmap {
	const char **key;
	int *val;
	size_t cap, n;
} gp_fsmap;

int gp_fsmap_get(const gp_fsmap *m, const char *k);
void gp_fsmap_put(gp_fsmap *m, const char *k, int v);

/* A node listed under a second leaf (a rail, or a messy file). */
typedef struct gp_fpend {
	int node, leaf;
	size_t seq, warn;       /* order listed; its warning in f->warnings */
} gp_fpend;

/* gp_fabric.index */
typedef struct gp_fidx {
	gp_fsmap sw, node;
	gp_fpend *pend;         /* since the last gp_fabric_resolve */
	size_t npend, cappend;
} gp_fidx;

void gp_fabric_warn(gp_fabric *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The switch named name (made when new); -1 past the cap. */
int gp_fabric_sw(gp_fabric *f, const char *name, int line);
/* node under leaf s; a second leaf is warned and kept aside for
 * gp_fabric_resolve.  -1 past the node cap. */
int gp_fabric_attach(gp_fabric *f, const char *file, int line, const char *node, int s);
/* child's parent is p, unless it has one already (warned). */
void gp_fabric_link(gp_fabric *f, const char *file, int line, int child, int p);
/* After a file: leaves that serve the same nodes as their first leaf made
 * the rails of those nodes (their warnings of a second leaf dropped),
 * cycles cut, several roots warned. */
void gp_fabric_resolve(gp_fabric *f, const char *file);

/* import_fabric_yaml.c: Slurm's topology.yaml (the cluster_default
 * topology, else the first tree or block one); a Kueue Topology object
 * (its levels' node labels, coarsest first, for the node lists read
 * after it); a Kubernetes node list whose labels name the fabric. */
int gp_fabric_read_yaml(gp_fabric *f, const char *file, const char *text, size_t len,
			gp_error *err);

#endif
