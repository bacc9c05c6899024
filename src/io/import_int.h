/* Internals shared by the import readers and writer. */
#ifndef GPUPLAN_IO_IMPORT_INT_H
#define GPUPLAN_IO_IMPORT_INT_H

#include "gpuplan/io/import.h"
#include "gpuplan/model/catalog.h"

/* The node named name[0..len), created (at file:line:col) when absent;
 * NULL with err set past GP_IMPORT_MAX_NODES nodes. */
gp_inv_node *gp_inv_node_get(gp_inventory *inv, const char *name, size_t len,
			     const char *file, int line, int col, gp_error *err);
gp_inv_node *gp_inv_node_find(gp_inventory *inv, const char *name);
gp_inv_alloc *gp_inv_alloc_add(gp_inventory *inv, const char *job, const char *node,
			       const char *file, int line);
void gp_inv_warn(gp_inventory *inv, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* One warning "N node(s) WHAT: HOSTLIST" for names[0..n); none when n is 0. */
void gp_inv_warn_hosts(gp_inventory *inv, const char **names, size_t n, const char *what);
void gp_inv_set_str(char **dst, const char *s, size_t len);

/* Slurm and Kubernetes readers (import_slurm.c, import_k8s.c). */
int gp_import_slurm(gp_inventory *inv, int kind, const char *text, size_t len,
		    const char *file, gp_error *err);
int gp_import_k8s(gp_inventory *inv, int kind, const char *text, size_t len,
		  const char *file, gp_error *err);
int gp_import_sniff_k8s(const char *text, size_t len);

/* Memory like "515578M", "104G", "1.5T" or "2048" (default unit unit_mib
 * MiB per 1) to MiB; -1 when malformed. */
int64_t gp_import_mem_mib(const char *s, size_t len, int64_t unit_mib);

/* The catalog model of a product or GRES type; -1 unknown.  *how: 0 exact
 * (or a listed alias), 1 a guess by family, form factor and memory
 * (import_catalog.c). */
int gp_import_map_product(const gp_catalog *cat, const char *type, int64_t gpu_mem_mib,
			  int *how);
/* What the written cluster gives a node: its CPU count and memory (MiB,
 * GP_MEM_UNLIMITED when not written), as the loaders will read them. */
typedef struct gp_import_cap {
	int cpus;
	int64_t mem_mib;
} gp_import_cap;

/* The allocation state of the nodes keep[0..nkeep), whose capacities are
 * cap[] (by inventory index): what does not fit is left out with a
 * warning, so that the state loads beside the cluster
 * (import_write_state.c). */
void gp_import_write_state(gp_inventory *inv, const int *keep, int nkeep,
			   const gp_import_cap *cap, gp_sbuf *st);

#endif
