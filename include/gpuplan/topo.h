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
	int numa;     /* NUMA affinity node, -1 when unknown/absent; for a
		       * list such as "0,2-17" the first node listed */
	int gpu_numa_id; /* "GPU NUMA ID" column (GH200 HBM node), -1 N/A */
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
	GP_TOPO_F_EMPTY_AFFINITY = 1u << 4, /* empty/N/A CPU or NUMA affinity */
	GP_TOPO_F_CRLF = 1u << 5,          /* DOS line ends */
	GP_TOPO_F_GLUED = 1u << 6,         /* cells without separator (PIXPIX) */
	GP_TOPO_F_EXTRA_FIELD = 1u << 7,   /* surplus N/A or empty fields */
	GP_TOPO_F_NIC_LEGEND_PARTIAL = 1u << 8, /* NICn without legend entry */
	GP_TOPO_F_NO_CPU_COLUMN = 1u << 9,
	GP_TOPO_F_NUMA_LIST = 1u << 10,    /* NUMA affinity is a list (0,2-17) */
	GP_TOPO_F_TEXT_AROUND = 1u << 11,  /* text before the header */
	GP_TOPO_F_MISALIGNED = 1u << 12,   /* fields placed by position */
	GP_TOPO_F_COUNT = 13
};

/* Short stable name of one quirk bit ("no-numa-column", ...), NULL for an
 * unknown bit. */
const char *gp_topo_flag_name(unsigned bit);

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

/* ---- building a gp_topo from other sources (inline node types) ----
 *
 * The inline node-type YAML of a cluster file uses the keys that
 * `gpuplan topo import` writes: name, gpu_model, gpus (list of {id, cpus,
 * numa}), nics (list of {id, device}), devices (GPU ids then NIC ids) and
 * links (rows of link strings over devices).  A loader builds one with
 * gp_topo_alloc, fills ids, cpus (sorted, via gp_cpulist_parse or its own
 * list), numa and links (via gp_link_parse), then calls gp_topo_check and
 * gp_topo_finish. */

/* Parse one link cell: X, NV<k> (1..99), PIX, PXB, PHB, NODE, SYS or the
 * old SOC (read as SYS).  Whole string; 0 on success, -1 otherwise. */
int gp_link_parse(const char *tok, gp_link *out);
/* "X", "NV12", "PIX", ...  into buf (at least 8 bytes); returns buf. */
const char *gp_link_format(gp_link l, char *buf, size_t size);

/* Allocate arrays for ngpus GPUs and nnics NICs (ids "GPU<i>"/"NIC<j>",
 * numa -1, no CPUs, all links X on the diagonal and SYS elsewhere).
 * Releases t first.  Returns GP_EINPUT if the counts exceed the caps. */
int gp_topo_alloc(gp_topo *t, int ngpus, int nnics, gp_error *err);

/* "0-19,40-59", "4,6,8": a sorted, de-duplicated CPU (or NUMA) list,
 * numbers < GP_TOPO_MAX_CPUS.  "" gives an empty list.  Returns 0 or -1
 * (then *out is NULL). */
int gp_cpulist_parse(const char *s, size_t len, int **out, int *n);

/* Structural check: diagonal X, no X elsewhere, symmetric.  On failure
 * returns GP_EINPUT, fills err's message (no location) and sets *row,*col
 * to the offending cell so that the caller can locate it. */
int gp_topo_check(const gp_topo *t, int *row, int *col, gp_error *err);

/* Fill what is derived from the matrix alone: each NIC's NUMA node (that
 * of the GPUs at its closest PCIe level when that level is NODE or
 * nearer, else -1). */
void gp_topo_finish(gp_topo *t);

/* Caps for snapshot files. */
#define GP_TOPO_MAX_FILE (1024 * 1024)
#define GP_TOPO_MAX_LINE 16384

#endif
