/* Import a live cluster from the text operators can paste or pipe: Slurm
 * (`scontrol show node` multi-line, `-o` and `--details`, `scontrol show
 * job -d`, slurm.conf NodeName/PartitionName lines, gres.conf, sinfo with
 * GRES columns) and Kubernetes (`kubectl get nodes -o json|yaml`,
 * `kubectl get pods -A -o json|yaml`).  The readers fill one inventory;
 * the writers turn it into a cluster YAML (inline node types) and an
 * allocation state (format: man gpuplan, "Allocation state"). */
#ifndef GPUPLAN_IO_IMPORT_H
#define GPUPLAN_IO_IMPORT_H

#include <stddef.h>
#include <stdint.h>

#include "gpuplan/model/topo.h"
#include "gpuplan/util/error.h"
#include "gpuplan/util/util.h"

#define GP_IMPORT_MAX_FILE (64u << 20)
/* Nodes an import may name in all (CPU-only ones included): twice what a
 * cluster holds (GP_CLUSTER_MAX_NODES).  Hostlists make this the cap that
 * matters: a kilobyte of 'node[0-999999]' lines would name millions. */
#define GP_IMPORT_MAX_NODES 200000
/* Memory of a node or a job's share of one, in MiB: 16 PiB, the most a
 * cluster file takes (memory_gib up to 2^24). */
#define GP_IMPORT_MAX_MEM_MIB (1LL << 34)

/* What a file holds, recognised from its content. */
enum gp_import_kind {
	GP_IMPORT_UNKNOWN = 0,
	GP_IMPORT_SCONTROL_NODE,   /* scontrol show node (any form) */
	GP_IMPORT_SCONTROL_JOB,    /* scontrol show job -d */
	GP_IMPORT_SLURM_CONF,      /* slurm.conf NodeName/PartitionName */
	GP_IMPORT_GRES_CONF,       /* gres.conf */
	GP_IMPORT_SINFO,           /* sinfo table with a header line */
	GP_IMPORT_K8S_NODES,       /* kubectl get nodes -o json|yaml */
	GP_IMPORT_K8S_PODS,        /* kubectl get pods -A -o json|yaml */
	GP_IMPORT_KIND_COUNT
};
const char *gp_import_kind_name(int kind);
/* Recognise text (len bytes); GP_IMPORT_UNKNOWN when nothing fits. */
int gp_import_sniff(const char *text, size_t len);

typedef struct gp_inv_cores {
	int *cpus[GP_TOPO_MAX_GPUS];
	int n[GP_TOPO_MAX_GPUS];
} gp_inv_cores;

typedef struct gp_inv_node {
	char *name;
	char *gpu_type;        /* Slurm GRES type or GFD product; NULL untyped */
	int ngpus;             /* whole GPUs; -1 unknown */
	int cpus;              /* logical CPUs; 0 unknown */
	int sockets, cores_per_socket, threads_per_core; /* 0 unknown */
	int64_t mem_mib;       /* host memory; 0 unknown */
	int64_t gpu_mem_mib;   /* per GPU (GFD gpu.memory); 0 unknown */
	int gpu_sock_lo, gpu_sock_hi; /* sockets the GPUs hang off (S:lo-hi), -1 */
	struct gp_inv_cores *cores; /* per GPU CPU lists (gres.conf Cores), NULL none */
	int state;             /* enum gp_node_state */
	char *state_text;      /* as the scheduler said it ("IDLE+DRAIN") */
	char *reason;
	char *partitions;      /* comma list, NULL none */
	char *mig;             /* MIG resources ("mig-1g.10gb=7,..."), NULL none */
	/* in use, when no per-job detail says more */
	int used;              /* GPUs in use; -1 unknown */
	uint64_t used_mask;    /* which ones, when used_idx */
	int used_idx;
	const char *used_file; /* where used_mask was read (not owned) */
	int used_line, used_col;
	int cpu_alloc;         /* CPUs in use; -1 unknown */
	int64_t mem_alloc_mib;
	char *file;            /* where the node was first seen (not owned) */
	int line, col;
	unsigned kinds;        /* 1 << enum gp_import_kind that mention it */
	int gres_seen;         /* GPUs gres.conf listed so far */
	int mixed_types;       /* GPUs of more than one type */
	int conf_state;        /* state set by slurm.conf only */
} gp_inv_node;

typedef struct gp_inv_alloc {   /* one job (or pod) on one node */
	char *job, *node;
	int ngpus;
	uint64_t gpus;         /* the GPU indices, when gpus_known */
	int gpus_known;        /* indices given (IDX), else the count only */
	int *cpus;             /* CPU numbers (CPU_IDs), may be NULL */
	int ncpus;
	int64_t mem_mib;
	char *file;
	int line;
} gp_inv_alloc;

typedef struct gp_inventory {
	gp_inv_node *nodes;
	size_t n, cap;
	gp_inv_alloc *allocs;
	size_t nalloc, capalloc;
	char **warnings;       /* "FILE:LINE: text" */
	size_t nwarn, capwarn;
	char **files;          /* owned copies of file names */
	size_t nfiles, capfiles;
	int *hash;             /* node name index, -1 empty */
	size_t hash_cap;
	unsigned kinds;        /* every kind read */
	gp_inv_node gres_all;  /* gres.conf lines without NodeName */
	int has_gres_all;
} gp_inventory;

void gp_inventory_init(gp_inventory *inv);
void gp_inventory_release(gp_inventory *inv);

/* Read one file's text into inv; its kind is recognised from the content
 * (family: 1 slurm, 2 k8s; a file of the other family is an error that
 * says which command reads it).  Errors are located (GP_EINPUT,
 * "FILE:LINE:COL: ..."). */
int gp_import_read(gp_inventory *inv, int family, const char *text, size_t len,
		   const char *file, gp_error *err);

/* A user-supplied topology for some node types: key is a GPU type or
 * product as the scheduler names it, a catalog model, or a hostlist of
 * nodes. */
typedef struct gp_import_topo {
	const char *key;
	const char *path;      /* for messages */
	const gp_topo *topo;
} gp_import_topo;

typedef struct gp_import_opts {
	const char *name;              /* cluster name */
	const gp_import_topo *topos;
	int ntopos;
	/* Default topologies of well-known systems, loaded by the caller on
	 * request: given a file name (relative to the data directory) return
	 * the snapshot or NULL (then the generic layout is used). */
	const gp_topo *(*default_topo)(void *ctx, const char *file);
	void *default_ctx;
	const char *command;           /* for the header comment */
	/* The network fabric (fabric_import.h), NULL = none: its switches
	 * become the cluster's fabric and each node goes under its leaf.
	 * fabric_tech names the technology of its roots (ib-ndr, roce-400,
	 * ...); NULL = the fabric file's, else ib-ndr with a warning. */
	const struct gp_fabric *fabric;
	const char *fabric_tech;
} gp_import_opts;

/* Write the cluster YAML for inv into out and the allocation state into
 * state (may be NULL).  Decisions worth knowing (guessed topologies and
 * GPU indices, unknown products, skipped nodes) are added to
 * inv->warnings.  GP_EINPUT when nothing usable was read, or a
 * --topology does not fit. */
int gp_import_write(gp_inventory *inv, const gp_import_opts *o, gp_sbuf *out,
		    gp_sbuf *state, gp_error *err);

#endif
