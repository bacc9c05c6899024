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

#include "gpuplan/util/error.h"

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
	double gbps;     /* line rate of this port, 0 = the switch's rate */
	int card;        /* ports of one physical card share a card id and
			  * its PCIe link; -1 = a card of its own */
} gp_topo_nic;

/* GPU peer-to-peer over PCIe (gp_topo.p2p_mode). */
enum gp_p2p_mode {
	GP_P2P_DEFAULT = 0, /* PIX/PXB pairs direct, farther ones through host
			     * memory; consumer (GeForce) cards none */
	GP_P2P_ON,          /* every PCIe pair direct (NCCL_P2P_LEVEL=SYS) */
	GP_P2P_OFF          /* every PCIe pair through host memory */
};

/* A matrix cut off after a complete row (GP_TOPO_F_TRUNCATED): what was
 * kept and what was dropped.  Device names are as in the header. */
typedef struct gp_topo_cut {
	int last_line;     /* line of the last complete row */
	int missing_line;  /* line where the first missing row was due */
	char last_row[32]; /* label of that last row ("GPU3") */
	int header_gpus, header_nics; /* devices the header names */
	int dropped_gpus, dropped_nics;
	char gpu_first[32], gpu_last[32]; /* dropped GPUs, header order */
	char nic_first[32], nic_last[32]; /* dropped NICs, header order */
} gp_topo_cut;

typedef struct gp_topo {
	char *source;    /* file it came from, for messages */
	int ngpus, nnics;
	gp_topo_gpu *gpus;
	gp_topo_nic *nics;
	gp_link *links;  /* (ngpus+nnics)^2, row-major */
	unsigned flags;  /* GP_TOPO_F_* quirks noticed while parsing */
	gp_topo_cut cut; /* filled when flags has GP_TOPO_F_TRUNCATED */
	int p2p_mode;    /* enum gp_p2p_mode */
	uint8_t *p2p;    /* ngpus x ngpus from `nvidia-smi topo -p2p r`: 1 = OK,
			  * 0 = not supported; NULL = p2p_mode's rule */
	int no_gdr;      /* GPUDirect RDMA unavailable: NICs read GPU memory
			  * through host memory */
	double socket_gbs; /* GB/s of the link between the CPU sockets as
			    * NCCL rates it (SYS hops); 0 = the perf
			    * model's default */
	double host_mem_gbs; /* GB/s the memory of one NUMA node gives
			      * traffic staged through it (written plus
			      * read); 0 = not a limit */
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
	/* Trailing rows missing: only the devices with a complete row are
	 * kept (a partial view, see gp_topo.cut). */
	GP_TOPO_F_TRUNCATED = 1u << 13,
	GP_TOPO_F_COUNT = 14
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

/* "X", "NV12", "PIX", ...  into buf (at least 8 bytes); returns buf. */
const char *gp_link_format(gp_link l, char *buf, size_t size);

/* Allocate arrays for ngpus GPUs and nnics NICs (ids "GPU<i>"/"NIC<j>",
 * numa -1, no CPUs, all links X on the diagonal and SYS elsewhere).
 * Releases t first.  Returns GP_EINPUT if the counts exceed the caps. */
int gp_topo_alloc(gp_topo *t, int ngpus, int nnics, gp_error *err);

/* Structural check: diagonal X, no X elsewhere, symmetric.  On failure
 * returns GP_EINPUT, fills err's message (no location) and sets *row,*col
 * to the offending cell so that the caller can locate it. */
int gp_topo_check(const gp_topo *t, int *row, int *col, gp_error *err);

/* Fill what is derived from the matrix alone: each NIC's NUMA node (that
 * of the GPUs at its closest PCIe level when that level is NODE or
 * nearer, else -1). */
void gp_topo_finish(gp_topo *t);

/* ---- derived structures (topo_derive.c) ----
 *
 * Filled once per node type by gp_topo_derive; the query functions below
 * are pure and cheap enough for a policy's inner loop.  GPU sets are bit
 * masks (bit i = GPU i; GP_TOPO_MAX_GPUS is 64). */

typedef uint64_t gp_gpuset;

/* Communication expense of one link, for comparisons only: 0 for X,
 * 100 - k for NV<k> (more NVLinks = cheaper), then PIX 200, PXB 300,
 * PHB 400, NODE 500, SYS 600. */
int gp_link_expense(gp_link l);

/* How a GPU pair's PCIe relation (gp_topo_derived.pcie) was obtained. */
enum gp_pcie_source {
	GP_PCIE_CELL = 0,   /* the matrix cell itself (not NV#) */
	GP_PCIE_NUMA,       /* different NUMA affinity: SYS */
	GP_PCIE_TRIANGLE,   /* a third device (GPU or NIC) sees them at
			     * different levels: the larger one */
	GP_PCIE_BOUND,      /* upper bound from third devices / equal NUMA
			     * / equal CPU sets: the loosest level allowed */
	GP_PCIE_CPUSET,     /* disjoint CPU affinity: SYS */
	GP_PCIE_UNKNOWN,    /* nothing known: SYS assumed */
};

#define GP_RING_TABLE_MAX_GPUS 12 /* rings precomputed for every subset */

typedef struct gp_topo_derived {
	int ngpus, nnics;
	/* GPU x GPU link (copy of the matrix) and its expense. */
	gp_link link[GP_TOPO_MAX_GPUS][GP_TOPO_MAX_GPUS];
	uint16_t expense[GP_TOPO_MAX_GPUS][GP_TOPO_MAX_GPUS];
	gp_gpuset nv_mask[GP_TOPO_MAX_GPUS]; /* NVLink neighbours */

	/* PCIe relation of each GPU pair, PIX..SYS (X on the diagonal), with
	 * NV# cells resolved from the other cells, NUMA and CPU affinity. */
	uint8_t pcie[GP_TOPO_MAX_GPUS][GP_TOPO_MAX_GPUS];
	uint8_t pcie_src[GP_TOPO_MAX_GPUS][GP_TOPO_MAX_GPUS]; /* gp_pcie_source */
	int npcie_inferred; /* GPU pairs whose relation was not a plain cell */

	/* CPU sub-trees (US 12386666): socket -> host bridge -> PCIe switch
	 * complex -> PCIe switch -> GPUs.  Groups are the classes of "pcie
	 * level <= L" (NODE, PHB, PXB, PIX); ids count from 0 in order of
	 * their lowest GPU; sets index by id.  "Socket" is the SYS boundary,
	 * i.e. a NUMA node (NPS4 machines have several per package). */
	int socket[GP_TOPO_MAX_GPUS], bridge[GP_TOPO_MAX_GPUS];
	int complex_[GP_TOPO_MAX_GPUS], pswitch[GP_TOPO_MAX_GPUS];
	int nsockets, nbridges, ncomplexes, nswitches;
	gp_gpuset socket_set[GP_TOPO_MAX_GPUS], bridge_set[GP_TOPO_MAX_GPUS];
	gp_gpuset complex_set[GP_TOPO_MAX_GPUS], switch_set[GP_TOPO_MAX_GPUS];
	int socket_numa[GP_TOPO_MAX_GPUS]; /* NUMA node of a socket group, -1 */

	/* NICs.  gpu_nic: the closest NIC (index 0..nnics-1, -1 if the node
	 * has none); among equally close NICs the one fewest GPUs picked
	 * before (so rails spread 1:1).  gpu_nic_level: its link level. */
	int gpu_nic[GP_TOPO_MAX_GPUS];
	uint8_t gpu_nic_level[GP_TOPO_MAX_GPUS];
	/* GPU<->NIC affinity classes (RoCE seed): GPUs with the same set of
	 * NUMA-local NICs (link level NODE or nearer) form one class; GPUs
	 * without a NUMA-local NIC have class -1. */
	int nclasses;
	int gpu_class[GP_TOPO_MAX_GPUS];
	gp_gpuset class_gpus[GP_TOPO_MAX_GPUS];
	uint64_t class_nics[GP_TOPO_MAX_GPUS][GP_TOPO_MAX_DEVICES / 64];
	int class_numa[GP_TOPO_MAX_GPUS]; /* -1 unknown */
	int nic_numa[GP_TOPO_MAX_DEVICES];   /* per NIC, as gp_topo_nic.numa */
	int nic_socket[GP_TOPO_MAX_DEVICES]; /* socket group, -1 unknown */

	/* Best ring of every GPU subset when ngpus <= GP_RING_TABLE_MAX_GPUS:
	 * order packed 4 bits per GPU, and its bottleneck link. */
	uint64_t *ring_order;
	gp_link *ring_bottleneck;
} gp_topo_derived;

/* Fill d from t (heap tables inside; release with gp_topo_derived_release). */
int gp_topo_derive(const gp_topo *t, gp_topo_derived *d, gp_error *err);
void gp_topo_derived_release(gp_topo_derived *d);
gp_topo_derived *gp_topo_derived_new(const gp_topo *t, gp_error *err);
void gp_topo_derived_free(gp_topo_derived *d);

/* Best ring over the GPUs in set: the order (starting at the lowest GPU)
 * whose worst hop is cheapest (ties: the first found in ascending DFS
 * order), written to order[0..n-1] when order is non-NULL; *bottleneck
 * (if non-NULL) gets that worst hop (X for one GPU; for two GPUs their
 * link).  Returns n = number of GPUs in set. */
int gp_ring_best(const gp_topo_derived *d, gp_gpuset set, int *order,
		 gp_link *bottleneck);
/* 1 when the GPUs of set can form a closed loop using NVLink only (a
 * single GPU counts; two GPUs need an NV link between them). */
int gp_ring_nvlink(const gp_topo_derived *d, gp_gpuset set);
/* Sum of pairwise expenses and worst pairwise link inside set. */
long gp_set_expense(const gp_topo_derived *d, gp_gpuset set);
gp_link gp_set_worst_link(const gp_topo_derived *d, gp_gpuset set);

#endif
