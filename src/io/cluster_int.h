/* Internals of the cluster loader (cluster_yaml.c, cluster_topo.c). */
#ifndef GPUPLAN_CLUSTER_INT_H
#define GPUPLAN_CLUSTER_INT_H

#include "gpuplan/io/yaml.h"
#include "gpuplan/model/cluster.h"
#include "gpuplan/util/error.h"

typedef struct loader {
	gp_yaml_doc doc;
	gp_cluster *c;
	gp_error *err;
	char what[256]; /* scratch for "node_types.X.cpus"-style names */
} loader;

/* A formatted name for messages, in L's scratch (valid until the next call). */
const char *gp_cy_what(loader *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Whether n is null, ~, an empty or an unquoted "null" scalar. */
int gp_cy_is_null(const gp_yaml_node *n);
/* A required key: missing is reported at the mapping that lacks it. */
const gp_yaml_node *gp_cy_need(loader *L, const gp_yaml_node *map, const char *key,
			       const char *where);
/* A name: non-empty scalar, short, no control characters or spaces. */
int gp_cy_get_name(loader *L, const gp_yaml_node *n, const char *wh, const char **out);

/* A key or its unit-explicit name (mem_bw_gbs = mem_bw_gbyte_s, nic_gbps
 * = nic_gbit_s): the one given into *out and *name, NULL when neither;
 * both is an error. */
int gp_cy_unit_key(loader *L, const gp_yaml_node *map, const char *key, const char *unit_name,
		   const char *owner, const gp_yaml_node **out, const char **name);
/* 'gpu_models': each model into the cluster's catalog. */
int gp_cy_load_models(loader *L, const gp_yaml_node *map);

/* An inline topology (gpus, nics, devices, links) of node type tname. */
int gp_cy_load_inline_topo(loader *L, const gp_yaml_node *v, const char *tname,
			   gp_node_type *t);
/* 'topology: FILE' (relative to the cluster file): a snapshot or a
 * node-type file; *model gets the file's gpu_model (-1 none). */
int gp_cy_load_topo_file(loader *L, const gp_yaml_node *topo, const char *owner,
			 const char *tname, gp_node_type *t, int *model);

/* cluster_nodes.c.  Pass 1 of fabric entry s (index i): a switch of the
 * cluster (name, technology, perf keys); pass 2 of switch i: its parent p
 * (NULL when absent).  A whole 'fabric' list from the tree. */
int gp_cy_fabric_item(loader *L, const gp_yaml_node *s, size_t i);
int gp_cy_fabric_parent(loader *L, size_t i, const gp_yaml_node *p);
int gp_cy_load_fabric(loader *L, const gp_yaml_node *seq);
/* Node entry v (index i): one node, or several (count, hostlist); a whole
 * 'nodes' list from the tree. */
int gp_cy_node_item(loader *L, const gp_yaml_node *v, size_t i);
int gp_cy_load_nodes(loader *L, const gp_yaml_node *seq);

#endif
