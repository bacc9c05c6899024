/* Alibaba openb CSV dialects (the node list and the pod list of the
 * 2023 GPU trace), read once here for the cluster loader, the `openb`
 * trace dialect and the FGD sharing experiment. */
#ifndef GPUPLAN_IO_OPENB_H
#define GPUPLAN_IO_OPENB_H

#include <stddef.h>
#include <stdint.h>

#include "gpuplan/model/cluster.h"
#include "gpuplan/util/error.h"

#define GP_OPENB_MAX_NODE_GPUS 8
#define GP_OPENB_MAX_NODES 100000
#define GP_OPENB_MAX_PODS 1000000
#define GP_OPENB_MAX_MODELS 64
#define GP_OPENB_MAX_FILE (64u << 20)

typedef struct gp_openb_nodes {
	char *path;
	int n;
	char **names;
	int64_t *cpu_milli;    /* CPU capacity, milli-cores */
	int64_t *mem_mib;      /* host memory, MiB */
	int *ngpus;            /* 0..GP_OPENB_MAX_NODE_GPUS */
	int *model;            /* index into models, -1 when no GPU model */
	char **models;         /* distinct GPU model names, first-seen order */
	int nmodels;
} gp_openb_nodes;

typedef struct gp_openb_pods {
	char *path;
	size_t n;
	char **names;
	int64_t *cpu_milli;    /* CPU request, milli-cores */
	int64_t *mem_mib;      /* memory request, MiB */
	int *ngpus;            /* GPUs requested, 0 = CPU-only */
	int *gpu_milli;        /* per-GPU share 1..1000 (0 when ngpus == 0) */
	char **gpu_spec;       /* allowed models "A|B", "" = any */
	int64_t *line;         /* source line */
} gp_openb_pods;

void gp_openb_nodes_init(gp_openb_nodes *n);
void gp_openb_nodes_release(gp_openb_nodes *n);
void gp_openb_pods_init(gp_openb_pods *p);
void gp_openb_pods_release(gp_openb_pods *p);

/* openb node list: sn,cpu_milli,memory_mib,gpu,model (header required). */
int gp_openb_nodes_load(const char *path, gp_openb_nodes *n, gp_error *err);
int gp_openb_nodes_parse(const char *text, size_t len, const char *path,
			 gp_openb_nodes *n, gp_error *err);
/* openb pod list: name,cpu_milli,memory_mib,num_gpu,gpu_milli[,gpu_spec,
 * qos,pod_phase,creation_time,deletion_time,scheduled_time]. */
int gp_openb_pods_load(const char *path, gp_openb_pods *p, gp_error *err);
int gp_openb_pods_parse(const char *text, size_t len, const char *path,
			gp_openb_pods *p, gp_error *err);

/* openb's rules for one task's GPU request, shared by the pod-list reader
 * above and the `openb` trace dialect: as the artifact's converter, a
 * CPU-only task (num_gpu 0) has share 0 and a share above 1000 is clamped
 * to 1000; a GPU task needs a share, and a multi-GPU task whole GPUs.
 * Returns 0 with *gpu_milli normalised, or -1 with the reason in why. */
int gp_openb_gpu_request(long num_gpu, long *gpu_milli, char *why,
			       size_t whylen);
/* Whether a gpu_spec value (len bytes) means "any GPU model": empty, or
 * pandas' "nan". */
int gp_openb_spec_any(const char *s, size_t len);

/* An Alibaba openb node list (sn,cpu_milli,memory_mib,gpu,model) as a
 * cluster: node types "openb-<model>x<gpus>" with unknown (SYS) links, no
 * fabric, per-node cpu_milli/mem_mib from the file (openb_nodes.c). */
int gp_cluster_load_openb(const char *path, gp_cluster *c, gp_error *err);

#endif
