/* One node's intra-node topology, as read from `nvidia-smi topo -m` (or
 * `-mp`) output, plus what is derived from it: CPU sub-trees, the GPU×GPU
 * communication-expense matrix, NVLink rings and GPU↔NIC affinity classes.
 *
 * Devices are indexed 0..ngpus-1 for GPUs, then ngpus..ngpus+nnics-1 for
 * NICs, in the order of the snapshot's rows. */
#ifndef GPUPLAN_TOPO_H
#define GPUPLAN_TOPO_H

#include <stddef.h>
#include <stdint.h>

#include "gpuplan/error.h"

#define GP_TOPO_MAX_DEVICES 128 /* cap on GPUs + NICs in one matrix */
#define GP_TOPO_MAX_GPUS 64
#define GP_TOPO_MAX_CPUS 4096

/* Link levels from closest to farthest, as nvidia-smi names them. */
enum gp_link_level {
	GP_LINK_X = 0,  /* self */
	GP_LINK_NV,     /* bonded set of NVLinks (count in gp_link.nvlinks) */
	GP_LINK_PIX,    /* one PCIe switch */
	GP_LINK_PXB,    /* several PCIe switches, no host bridge */
	GP_LINK_PHB,    /* through a PCIe host bridge */
	GP_LINK_NODE,   /* between host bridges within a NUMA node */
	GP_LINK_SYS,    /* across the SMP interconnect (old drivers: SOC) */
	GP_LINK_LEVELS
};

typedef struct gp_link {
	uint8_t level;   /* enum gp_link_level */
	uint8_t nvlinks; /* link count for GP_LINK_NV, else 0 */
} gp_link;

typedef struct gp_topo_gpu {
	char id[16];  /* "GPU0" */
	int *cpus;    /* sorted CPU numbers of its affinity; may be empty */
	int ncpus;
	int numa;     /* NUMA affinity node, -1 when unknown/absent */
} gp_topo_gpu;

typedef struct gp_topo_nic {
	char id[16];     /* "NIC0" (for raw mlx5_N headers: NIC<k> by column order) */
	char device[32]; /* "mlx5_0", "" when unknown */
	int numa;        /* derived from the closest GPU's NUMA, -1 unknown */
} gp_topo_nic;

typedef struct gp_topo {
	char *source;    /* file it came from, for messages */
	int ngpus, nnics;
	gp_topo_gpu *gpus;
	gp_topo_nic *nics;
	gp_link *links;  /* (ngpus+nnics)^2, row-major */
	unsigned flags;  /* GP_TOPO_F_* quirks noticed while parsing */
} gp_topo;

enum {
	GP_TOPO_F_NO_NUMA_COLUMN = 1u << 0,
	GP_TOPO_F_OLD_SOC = 1u << 1,       /* SOC seen, read as SYS */
	GP_TOPO_F_PCIE_ONLY = 1u << 2,     /* `topo -mp`: no NV# cells */
	GP_TOPO_F_RAW_NIC_NAMES = 1u << 3, /* mlx5_N headers, no NIC legend */
	GP_TOPO_F_EMPTY_AFFINITY = 1u << 4,
};

static inline gp_link gp_topo_link(const gp_topo *t, int a, int b)
{
	return t->links[(size_t)a * (size_t)(t->ngpus + t->nnics) + (size_t)b];
}

void gp_topo_init(gp_topo *t);
void gp_topo_release(gp_topo *t);

/* Parse snapshot text (len bytes, need not be NUL-terminated).  filename
 * is used in errors (FILE:LINE:COL); on failure t is left released. */
int gp_topo_parse(const char *text, size_t len, const char *filename,
		  gp_topo *t, gp_error *err);
int gp_topo_load(const char *path, gp_topo *t, gp_error *err);

const char *gp_link_level_name(int level); /* "X", "NV", "PIX", ... */

#endif
