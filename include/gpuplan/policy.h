/* Placement policies: one table of functions, one file each under
 * src/place/.  A policy reads the immutable cluster and the current
 * allocation state and either proposes a placement or says WAIT with a
 * reason.  Policies never print, never exit and never modify the state;
 * the caller applies the placement (gp_placement_apply). */
#ifndef GPUPLAN_POLICY_H
#define GPUPLAN_POLICY_H

#include "gpuplan/alloc.h"
#include "gpuplan/cluster.h"
#include "gpuplan/job.h"
#include "gpuplan/util.h"

#define GP_PLACE_MAX_PARTS 512 /* nodes one job may span */

enum gp_place_result { GP_PLACED = 0, GP_WAIT = 1 };

/* The share of one node a job gets. */
typedef struct gp_place_part {
	int node;
	int ngpus;
	int gpus[GP_TOPO_MAX_GPUS]; /* local GPU indices on that node */
	int milli;                  /* per-GPU share taken (1000 = whole) */
	int64_t mem_mib;            /* per-GPU memory taken */
	int64_t cpu_milli;          /* CPU taken on the node (milli-cores) */
	int64_t host_mem_mib;       /* host memory taken on the node */
	int numa;                   /* chosen NUMA node, -1 unknown */
	int ncpus;
	int *cpus;                  /* CPU numbers taken (owned) */
	int nic;                    /* NIC index on the node, -1 none: the one
				     * most of the part's GPUs use (rails) */
	int vf;                     /* virtual function of nic, -1 none */
	int role;                   /* 0 worker, 1 parameter server */
	int nic_class;              /* nic-affinity: RoCE class requested
				     * (gp_place_class_name), else -1 */
	int16_t gpu_nic[GP_TOPO_MAX_GPUS]; /* NIC GPU gpus[i] uses: its own
				     * closest NIC (rail) when nearer than
				     * SYS, else nic; -1 none */
} gp_place_part;

typedef struct gp_placement {
	gp_place_part *parts;
	int nparts, cap;
	/* Both set by gp_place_finish from the perf model (place.h,
	 * gp_place_summarize), so they match what `place` prints. */
	int bottleneck;             /* enum gp_link_level, or GP_LINK_LEVELS
				     * + switch levels for network paths */
	double ring_bw_gbs;         /* predicted ring bandwidth, 0 unknown */
	int *cpu_pool;              /* backing store of the parts' cpus
				     * (owned; kept across clears) */
	int cpu_len, cpu_cap;
} gp_placement;

void gp_placement_init(gp_placement *p);
void gp_placement_release(gp_placement *p);
void gp_placement_clear(gp_placement *p);
gp_place_part *gp_placement_add(gp_placement *p, int node);

/* Decision path for `place` output; policies append when non-NULL so that
 * the simulator pays nothing for explanations. */
typedef struct gp_explain {
	char **lines;
	int n, cap;
	char reason[256];           /* why WAIT */
} gp_explain;
void gp_explain_init(gp_explain *e);
void gp_explain_release(gp_explain *e);
void gp_explain_add(gp_explain *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Set the WAIT reason (when e is non-NULL) and return GP_WAIT. */
int gp_explain_wait(gp_explain *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Per-node-type tables (expense, inferred PCIe levels, CPU sub-trees,
 * closed loops, NIC classes) and per-switch fabric domains that the
 * topology-aware policies precompute once per cluster, plus scratch
 * space.  Build one with gp_place_cache_new and pass it in the context;
 * when ctx->cache is NULL a policy builds a temporary one per call (fine
 * for one `place`, too slow for a simulator).  A cache must not be used by
 * two policy calls at once (its scratch space is shared). */
typedef struct gp_place_cache gp_place_cache;

typedef struct gp_policy_ctx {
	const gp_cluster *cluster;
	const gp_alloc *alloc;
	gp_rng *rng;                /* seeded by the caller */
	gp_explain *explain;        /* NULL when not wanted */
	gp_place_cache *cache;      /* NULL: built per call */
} gp_policy_ctx;

typedef int (*gp_policy_fn)(const gp_policy_ctx *ctx, const gp_job *job,
			    gp_placement *out);

typedef struct gp_policy {
	const char *name;
	const char *summary;
	gp_policy_fn place;
} gp_policy;

const gp_policy *gp_policy_find(const char *name);
const gp_policy *gp_policy_list(int *n);

/* Whether a node may host (part of) the job at all: up, and its GPU model
 * allowed by the job's constraint. */
int gp_node_eligible(const gp_policy_ctx *ctx, int node, const gp_job *job);

/* Policy implementations, one file each (src/place/<name>.c). */
int gp_policy_first_fit(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out);
int gp_policy_bestfit(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out);
int gp_policy_nic_affinity(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out);
int gp_policy_random(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out);
int gp_policy_spread(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out);
int gp_policy_packing(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out);
int gp_policy_gpu_pair_score(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out);
int gp_policy_bw_max(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out);

/* ---- the place cache and helpers shared by the policy files ---- */

gp_place_cache *gp_place_cache_new(const gp_cluster *c);
void gp_place_cache_free(gp_place_cache *pc);

#define GP_PLACE_TABLE_MAX_GPUS 16   /* per-subset tables up to this size */
#define GP_PLACE_DEFAULT_CPUS_PER_GPU 4 /* cores per whole GPU when the
					 * job asks for none */
#define GP_PLACE_MAX_VFS 64          /* virtual functions per NIC */

/* Communication expense of a GPU pair: NV<n> = 100 - n (more links,
 * cheaper), PIX 200, PXB 300, PHB 400, NODE 500, SYS 600; so the link
 * level of an expense e > 0 is (e + 99) / 100. */
#define GP_EXPENSE_LEVEL(e) ((e) <= 0 ? GP_LINK_X : ((e) + 99) / 100)

typedef struct gp_place_mask_info {
	uint32_t sum;        /* sum of pair expenses */
	uint16_t max;        /* worst pair expense */
	uint16_t ring;       /* worst edge of the best closed loop (0: < 2 GPUs) */
	int32_t pair_score;  /* go-gpuallocator set score, NVSwitch-aware */
} gp_place_mask_info;

/* What a policy needs of one node type, derived once. */
typedef struct gp_place_type {
	int ngpus, nnics, ncpus;
	/* Copied from the node type's gp_topo_derived for locality. */
	uint16_t expense[GP_TOPO_MAX_GPUS][GP_TOPO_MAX_GPUS];
	uint8_t pci[GP_TOPO_MAX_GPUS][GP_TOPO_MAX_GPUS]; /* PCIe level */
	float nvlink_gbs, pci_gbs, sys_gbs; /* per NVLink, PCIe, across CPUs */
	/* CPU sub-trees (US 12386666): the socket groups (SYS boundary). */
	int nsubtrees;
	int subtree[GP_TOPO_MAX_GPUS];
	uint64_t subtree_mask[GP_TOPO_MAX_GPUS];
	int nic_best[GP_TOPO_MAX_GPUS];     /* closest NIC, -1 none */
	int nic_class[GP_TOPO_MAX_GPUS];    /* cluster-wide RoCE class, -1 */
	int local_class[GP_TOPO_MAX_GPUS];  /* class in the derived topology */
	/* CPU affinity of each GPU as bit masks (bit c = CPU c):
	 * cpu_aff[g * cpu_words + w]; NULL when no GPU lists CPUs. */
	uint64_t *cpu_aff;
	int cpu_words;
	const gp_topo_derived *derived;
	gp_topo_derived *own_derived;       /* when the type had none */
	gp_place_mask_info *masks;          /* 1 << ngpus entries, or NULL */
	/* Answers of the pure group searches (gp_place_best_group by kind,
	 * go-gpuallocator's partition choice) per (kind, k, available GPUs),
	 * filled on first use; node types up to GP_PLACE_MEMO_MAX_GPUS GPUs,
	 * else NULL.  UINT64_MAX = not yet known. */
	uint64_t *memo;
} gp_place_type;

#define GP_PLACE_MEMO_MAX_GPUS 8
#define GP_PLACE_MEMO_KINDS 4       /* enum gp_group_kind + GP_PLACE_MEMO_PARTITION */
#define GP_PLACE_MEMO_PARTITION 3

/* How to rank the GPU groups of one node. */
enum gp_group_kind {
	GP_GROUP_SUM = 0,   /* lowest summed pair expense, then worst pair */
	GP_GROUP_RING,      /* best closed loop (NVLink first), then sum */
	GP_GROUP_PAIR,      /* highest go-gpuallocator set score */
};

const gp_place_type *gp_place_type_of(const gp_place_cache *pc, int node);
/* The memo slot of (kind, avail, k) on t, NULL when t has no memo. */
static inline uint64_t *gp_place_memo(const gp_place_type *t, int kind, uint64_t avail, int k)
{
	if (!t->memo || k < 0 || k > GP_PLACE_MEMO_MAX_GPUS || (avail >> GP_PLACE_MEMO_MAX_GPUS))
		return NULL;
	return &t->memo[((size_t)kind * (GP_PLACE_MEMO_MAX_GPUS + 1) + (size_t)k)
			<< GP_PLACE_MEMO_MAX_GPUS | (size_t)avail];
}
gp_place_mask_info gp_place_mask(const gp_place_type *t, uint64_t mask);
/* Best k-subset of avail (bit g = local GPU g) by kind; 0 if none.
 * Exhaustive up to 20000 subsets, greedy beyond. */
uint64_t gp_place_best_group(const gp_place_type *t, uint64_t avail, int k, int kind);
/* Whether GPU (global id) fits one share of the job. */
int gp_place_gpu_fits(const gp_alloc *a, int gpu, const gp_job *job);
/* Bit mask of the node's GPUs that fit one share; *n gets the count.
 * Zero without touching GPUs when the node summaries rule it out. */
uint64_t gp_place_fit_mask(const gp_policy_ctx *ctx, int node, const gp_job *job, int *n);
/* Host CPU / memory share of ngpus GPUs of the job fits on the node. */
int gp_place_host_fits(const gp_policy_ctx *ctx, int node, const gp_job *job, int ngpus);
/* Add a part with the GPUs of mask (ascending). */
gp_place_part *gp_place_add_part(gp_placement *out, int node, uint64_t mask, const gp_job *job);
/* Fill CPU cores (closest first), NUMA node, the GPUs' rail NICs and the
 * part's NIC with a VF (within RoCE class nic_class when >= 0), for every
 * part; the placement's bottleneck and ring bandwidth from the perf model
 * (gp_place_summarize); explain lines. */
void gp_place_finish(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job,
		     gp_placement *out, int nic_class);
/* Several nodes: the group of nodes under one switch with the best (lowest)
 * seed communication weight, then the least remaining free GPUs; inside
 * it the fewest nodes, best fit for the last.  fit[node] = fitting GPUs
 * (0 when ineligible); groups per part chosen by kind inside allow[node]
 * (NULL: all fitting GPUs).  Returns GP_PLACED or GP_WAIT (reason set). */
int gp_place_span(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job,
		  const int *fit, const uint64_t *allow, int kind, gp_placement *out);
/* PS-Worker: the first ps GPUs of the placement become parameter-server
 * parts (role 1) of their own. */
void gp_place_split_ps(gp_placement *out, int ps);
/* Every policy's frame.  begin: clear out; NULL (WAIT reason set) when the
 * job asks for no GPUs, else the cache to use (*tmp: a temporary one, for
 * end to free).  end: for r == GP_PLACED split off the parameter servers
 * (PS-Worker) and gp_place_finish (nic_class as there), else clear out;
 * returns r. */
gp_place_cache *gp_place_begin(const gp_policy_ctx *ctx, const gp_job *job,
			       gp_placement *out, gp_place_cache **tmp);
int gp_place_end(const gp_policy_ctx *ctx, gp_place_cache *pc, gp_place_cache *tmp,
		 const gp_job *job, gp_placement *out, int r, int nic_class);
/* Ring-AllReduce and PS-Worker jobs may span nodes; the others may not. */
static inline int gp_place_may_span(const gp_job *job)
{
	return job->type == GP_JOB_RING_ALLREDUCE || job->type == GP_JOB_PS_WORKER;
}
/* The k GPUs of avail with the most (most = 1) or least free share,
 * lowest index among equals (spread.c; packing uses it too). */
uint64_t gp_place_by_share(const gp_alloc *a, int first_gpu, uint64_t avail, int k, int most);
/* Scratch arrays of the cache: per node ints (2 of them) and masks. */
int *gp_place_scratch_nodes(gp_place_cache *pc, int which);
uint64_t *gp_place_scratch_masks(gp_place_cache *pc);
/* Cache from the context, or a temporary one (*tmp set: free it). */
gp_place_cache *gp_place_cache_get(const gp_policy_ctx *ctx, gp_place_cache **tmp);
/* RoCE classes: their count and name (subnet or NIC device). */
int gp_place_nclasses(const gp_place_cache *pc);
const char *gp_place_class_name(const gp_place_cache *pc, int cls);
int64_t *gp_place_class_votes(gp_place_cache *pc); /* scratch per class */
int64_t *gp_place_class_free(gp_place_cache *pc);  /* scratch per class */
/* "GPU0,GPU2" / "0-3,8" for explanations; into buf, returns buf. */
const char *gp_place_fmt_gpus(uint64_t mask, char *buf, size_t size);
const char *gp_place_fmt_list(const int *v, int n, char *buf, size_t size);

/* Apply / undo a placement on the state.  apply takes everything or
 * nothing: it returns -1 (state unchanged) when a part does not fit. */
int gp_placement_apply(gp_alloc *a, const gp_placement *p);
void gp_placement_undo(gp_alloc *a, const gp_placement *p);

#endif
