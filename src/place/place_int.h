/* Inside the place module only: the cache, the per-node-type tables and the
 * helpers the policy files share (core.c, cache.c, policies/). */
#ifndef GPUPLAN_PLACE_INT_H
#define GPUPLAN_PLACE_INT_H

#include "gpuplan/model/alloc_index.h"
#include "gpuplan/place/place.h"
#include "gpuplan/place/policy.h"


#define GP_PLACE_TABLE_MAX_GPUS 16   /* per-subset tables up to this size */
#define GP_PLACE_RING_BITS 18        /* log2 of ring slots of a larger type */

typedef struct gp_place_ring_slot {
	uint64_t mask;
	double gbs;
	gp_link hop;
} gp_place_ring_slot;
/* The ring slot of a GPU subset mask (Fibonacci hashing). */
static inline size_t gp_place_ring_slot_of(uint64_t mask)
{
	return (size_t)((mask * 0x9e3779b97f4a7c15ull) >> (64 - GP_PLACE_RING_BITS));
}
#define GP_PLACE_DEFAULT_CPUS_PER_GPU 4 /* cores per whole GPU when the
					 * job asks for none */
#define GP_PLACE_MAX_VFS GP_NIC_MAX_VFS          /* virtual functions per NIC */

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
	/* For the perf model's ring over a GPU subset (gp_place_ring_gbs):
	 * the node type's topology and GPU model (NULL: unknown), and the
	 * answers per subset mask, filled on first use (< 0: not yet known;
	 * NULL above GP_PLACE_TABLE_MAX_GPUS GPUs). */
	const gp_topo *topo;
	const gp_gpu_model *model;
	double *ring_gbs;
	gp_link *ring_hop;  /* the ring's weakest hop, where ring_gbs >= 0 */
	/* above GP_PLACE_TABLE_MAX_GPUS GPUs: the last answers, one per
	 * hash slot of the mask (1 << GP_PLACE_RING_BITS; mask 0 empty) */
	struct gp_place_ring_slot *ring_slot;
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
	/* gpu-pair-score's choices on a type over GP_PLACE_MEMO_MAX_GPUS
	 * GPUs: the last answer per hash slot of (free GPUs, k) (1 <<
	 * GP_PLACE_PAIR_BITS; k 0 empty); NULL on smaller types */
	struct gp_place_pair_slot *pair_slot;
	/* bestfit single card on an indexed type (GP_AIX_MAX_GPUS GPUs at
	 * most): per free-GPU mask the GPU least connected to the others
	 * (lowest index among equals) and its summed expense to them. */
	int8_t *sc_gpu;
	int32_t *sc_iso;
} gp_place_type;

#define GP_PLACE_MEMO_MAX_GPUS 8
#define GP_PLACE_PAIR_BITS 12

typedef struct gp_place_pair_slot {
	uint64_t avail, set;
	int k;
} gp_place_pair_slot;
#define GP_PLACE_MEMO_KINDS 5       /* enum gp_group_kind + GP_PLACE_MEMO_PARTITION */
#define GP_PLACE_MEMO_PARTITION 4

/* How to rank the GPU groups of one node. */
enum gp_group_kind {
	GP_GROUP_SUM = 0,   /* lowest summed pair expense, then worst pair */
	GP_GROUP_RING,      /* best closed loop (NVLink first), then sum */
	GP_GROUP_PAIR,      /* highest go-gpuallocator set score */
	GP_GROUP_BW,        /* highest ring GB/s of the perf model, then sum;
			     * over several nodes (gp_place_span) the switch
			     * group with the highest network GB/s first */
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
 * Exhaustive up to 20000 subsets (a scan with a per-subset table, else
 * a branch and bound that finds the same set), greedy beyond. */
uint64_t gp_place_best_group(const gp_place_type *t, uint64_t avail, int k, int kind);
/* The exhaustive scan itself, every k-subset of avail ranked as the set
 * base | it (what the branch and bound must match; 0 when k is out of
 * 1..popcount(avail) or avail has 63 GPUs or more). */
uint64_t gp_place_group_scan(const gp_place_type *t, uint64_t base, uint64_t avail, int k, int kind);
/* gpu-pair-score's choice of k GPUs of avail by enumerating the splits
 * of avail into sets of k (go-gpuallocator's best-effort policy), at
 * most cap of them (cap < 0: all); what its search must match. */
uint64_t gp_place_pair_scan(const gp_place_type *t, uint64_t avail, int k, long cap);
/* The same choice, all splits weighed, by a branch and bound that
 * visits them in the same order (the first best split, its first best
 * set); 0 when avail has fewer than k GPUs. */
uint64_t gp_place_pair_search(const gp_place_type *t, uint64_t avail, int k);
/* Best k GPUs of avail to join the GPUs of base on the same node (a
 * member that grows, as in worker replacement): ranked by kind as the
 * whole set base | them; returns them without base, 0 if none.  base 0
 * is gp_place_best_group. */
uint64_t gp_place_best_join(const gp_place_type *t, uint64_t base, uint64_t avail, int k, int kind);
/* Whether GPU (global id) fits one share of the job. */
int gp_place_gpu_fits(const gp_alloc *a, int gpu, const gp_job *job);
/* Bit mask of the node's GPUs that fit one share; *n gets the count.
 * Zero without touching GPUs when the node summaries rule it out. */
uint64_t gp_place_fit_mask(const gp_policy_ctx *ctx, int node, const gp_job *job, int *n);
/* Host CPU / memory share of ngpus GPUs of the job fits on the node. */
int gp_place_host_fits(const gp_policy_ctx *ctx, int node, const gp_job *job, int ngpus);
/* The most of n GPUs of the job whose host CPU / memory share fits on the
 * node (0..n): what a part on the node may take when the job spans nodes. */
int gp_place_host_max(const gp_policy_ctx *ctx, int node, const gp_job *job, int n);
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
 * it, best_fit: the combination of nodes with the fewest fitting GPUs
 * left over, then the fewest nodes (gp_place_span_combo); else the fewest
 * nodes, best fit for the last.  fit[node] = fitting GPUs (0 when
 * ineligible); groups per part chosen by kind inside allow[node] (NULL:
 * all fitting GPUs).  Returns GP_PLACED or GP_WAIT (reason set). */
int gp_place_span(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job,
		  const int *fit, const uint64_t *allow, int kind, int best_fit, gp_placement *out);
/* Of hist[v] nodes with v fitting GPUs (v = 1..GP_TOPO_MAX_GPUS), how many
 * of each to take (take[v]) so that they hold need GPUs with the fewest
 * left over, then the fewest nodes, then the most of the larger fits;
 * returns the number of nodes, -1 when need is above the search's bound
 * (8,192 GPUs), nothing holds it, or it takes more than
 * GP_PLACE_MAX_PARTS nodes. */
int gp_place_span_combo(const int *hist, int need, int *take);
/* The same answer through the allocation index, for a policy whose
 * fit[node] is the node's fitting GPUs (gp_place_fit_mask; 0 when its
 * host cannot take min(fit, gpus) of them) and allow[node] that mask:
 * per-switch sums from the index, nodes only under the chosen switch.
 * -1 when the index cannot answer (gp_place_ix NULL, or the job asks for
 * host CPU or memory): scan and call gp_place_span. */
int gp_place_span_ix(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job, int kind,
		     int best_fit, gp_placement *out);
/* gp_place_span_ix walks the nodes under the chosen switch when it has at
 * most this many, else takes them per free-GPU mask (tests vary it). */
extern int gp_place_span_walk_max;
/* Reachability for policies that span nodes in their own order: keep
 * fit[] only on the first fabric tree (in node order) whose fitting GPUs
 * reach need (a node without switch is a tree of its own), zero the
 * rest.  GP_PLACED, or GP_WAIT with the reason set (all of fit zeroed).
 * sum: nswitches scratch (pc->sw_free), or NULL to allocate.  A cluster
 * without switches models no fabric: fit[] stays as it is. */
int gp_place_reach_limit(const gp_policy_ctx *ctx, int64_t *sum, int *fit, int need);
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
/* A large-model job (type llm) laid out by parallel group (llm.c): what
 * every policy does with such a job. */
int gp_place_llm(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out);
/* Ring-AllReduce, PS-Worker and large-model jobs may span nodes; the
 * others may not. */
static inline int gp_place_may_span(const gp_job *job)
{
	return job->type == GP_JOB_RING_ALLREDUCE || job->type == GP_JOB_PS_WORKER ||
	       job->type == GP_JOB_LLM;
}
/* The k GPUs of avail with the most (most = 1) or least free share,
 * lowest index among equals (spread.c; packing uses it too). */
uint64_t gp_place_by_share(const gp_alloc *a, int first_gpu, uint64_t avail, int k, int most);
/* Scratch arrays of the cache: per node ints (0, 1; 2 is gp_place_span's)
 * and masks. */
int *gp_place_scratch_nodes(gp_place_cache *pc, int which);
uint64_t *gp_place_scratch_masks(gp_place_cache *pc);
/* Cache from the context, or a temporary one (*tmp set: free it). */
gp_place_cache *gp_place_cache_get(const gp_policy_ctx *ctx, gp_place_cache **tmp);
int64_t *gp_place_class_votes(gp_place_cache *pc); /* scratch per class */
int64_t *gp_place_class_free(gp_place_cache *pc);  /* scratch per class */
/* "GPU0,GPU2" / "0-3,8" for explanations; into buf, returns buf. */
const char *gp_place_fmt_gpus(uint64_t mask, char *buf, size_t size);


struct gp_place_cache {
	const gp_cluster *cluster;
	gp_place_type *types;
	int ntypes;
	/* fabric: per switch, the worst communication weight between two nodes under
	 * it (0 with one node, INT_MAX when disconnected), nodes under it */
	int *sw_rate;
	/* per switch its rank by communication weight in the high bits (above
	 * GP_PLACE_REM_BITS), UINT64_MAX when disconnected: or'ed with the
	 * GPUs a job would leave over, the lowest key is the best switch */
	uint64_t *sw_key;
	int *sw_count;
	int64_t *sw_free;      /* scratch */
	int *node_pos;         /* a node's place in c->node_order, -1 none */
	/* RoCE classes */
	char **class_keys;
	int nclasses;
	int64_t *class_votes;  /* scratch */
	int64_t *class_free;   /* scratch */
	int *node_int[3];      /* scratch per node (2: gp_place_span's) */
	uint64_t *node_mask;   /* scratch per node */
	int summary_timed;     /* gp_place_cache_summary_timed */
	/* GP_GROUP_BW over several nodes, built on first use (NULL until
	 * then): per switch the lowest network GB/s of a node under it
	 * (gp_perf_node_net_gbs over all its GPUs), the most GPUs of one
	 * node, and the leaves under it whose fabric efficiency is lowest
	 * (gp_perf_fabric_efficiency at the group's levels): sw_leaf[2s]
	 * among those whose efficiency does not depend on the job's nodes
	 * (static hashing), sw_leaf[2s+1] among those it does (congestion);
	 * -1 none; sw_fix[s] = sw_net[s] x the efficiency of sw_leaf[2s]. */
	double *sw_net, *sw_fix;
	/* when no leaf has congestion (sw_cong 0): each switch's place in
	 * the order of sw_fix (descending), then sw_rate, as sw_key (equal
	 * groups share a rank) */
	uint64_t *sw_bwkey;
	int sw_cong;
	int *sw_maxg;
	int *sw_leaf;
	/* jobs' GPU model lists against the catalog (gp_place_accepts) */
	gp_accepts_memo accepts;
};

/* Low bits of a switch key (sw_key) for the GPUs left over. */
#define GP_PLACE_REM_BITS 40

/* A node's leaf switch, -1 when it has none (or a hand-built cluster
 * left it out of range). */
static inline int gp_place_node_sw(const gp_cluster *c, int node)
{
	int sw = c->nodes[node].sw;

	return sw >= 0 && sw < c->nswitches ? sw : -1;
}

int gp_place_cmp_u16(const void *a, const void *b);

/* Switch levels a path of communication weight w crosses (InfiniBand k, Ethernet
 * 99 + k). */
static inline int gp_place_weight_levels(int w)
{
	return w >= 100 ? w - 99 : w;
}
/* Build sw_net, sw_maxg and sw_leaf when not yet built. */
void gp_place_cache_fabric(gp_place_cache *pc);
/* The perf model's network GB/s a node, after the fabric's efficiency, of
 * a job of need GPUs under switch sw (gp_place_cache_fabric built): the
 * slowest node's NICs under it, times the lowest efficiency of its
 * leaves at its switch levels and ceil(need / most GPUs of a node)
 * nodes (at least 2). */
double gp_place_group_net_cong(const gp_place_cache *pc, int sw, int need);
static inline double gp_place_group_net_gbs(const gp_place_cache *pc, int sw, int need)
{
	/* without congestion the same for any job */
	return pc->sw_leaf[2 * sw + 1] < 0 ? pc->sw_fix[sw] : gp_place_group_net_cong(pc, sw, need);
}

/* The allocation index (alloc_index.h) when it may answer for this
 * decision: no explanation wanted (explanations count every fitting
 * node); NULL: scan the nodes.  On a regular node a job of 1..1000
 * milli-GPU fits exactly the wholly free GPUs (if its memory fits one);
 * the odd nodes are asked one by one. */
static inline const gp_alloc_index *gp_place_ix(const gp_policy_ctx *ctx, const gp_job *job)
{
	return !ctx->explain && job->gpu_milli >= 1 && job->gpu_milli <= GP_MILLI ? ctx->alloc->ix : NULL;
}
/* Whether the job accepts catalog model `model` (-1 or past the catalog:
 * no GPU model), remembered in ctx->cache when it serves ctx's cluster. */
int gp_place_accepts(const gp_policy_ctx *ctx, const gp_job *job, int model);
/* Whether the job accepts node type ti's GPU model (gp_node_eligible
 * without the node's state). */
int gp_place_type_ok(const gp_policy_ctx *ctx, int ti, const gp_job *job);
/* The lowest-numbered node of set s (of index type xt) below `before`
 * that is up and has host CPU and memory for k GPUs of the job; -1. */
int gp_place_ix_first(const gp_policy_ctx *ctx, const gp_aix_type *xt, const gp_nodeset *s,
		      const gp_job *job, int k, int before);
/* Through the index: the node with the least (most = 0) or the most
 * (most = 1) free milli-GPU among those with k fitting GPUs and host room
 * for k of them, lowest index among equals; -1 none; -2 when the index
 * cannot answer (gp_place_ix NULL). */
int gp_place_ix_by_free(const gp_policy_ctx *ctx, const gp_job *job, int k, int most);
/* A one-node policy's ranking of a node (node, or -1 for every regular
 * node whose fitting GPUs are avail, all wholly free) with fitting GPUs
 * avail and `remaining` milli-GPU left after the job: the GPUs it takes
 * (0: the node cannot take the job), key[0..GP_PLACE_KEYS) smaller first
 * (integers up to 2^53 and floats are exact in a double). */
#define GP_PLACE_KEYS 4
typedef uint64_t (*gp_place_key_fn)(const gp_place_type *t, int node, uint64_t avail,
				    int64_t remaining, void *ud, double key[GP_PLACE_KEYS]);
/* Through the index: the node with the smallest key (then the lowest
 * index) among those with job->gpus fitting GPUs and host room for them;
 * *mask its GPUs.  -1 none; -2 when the index cannot answer. */
int gp_place_ix_one(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job,
		    gp_place_key_fn key, void *ud, uint64_t *mask);
/* Through the index: the lowest node with k fitting GPUs and host room
 * for k of them; -1 none; -2 when the index cannot answer. */
int gp_place_ix_lowest(const gp_policy_ctx *ctx, const gp_job *job, int k);
/* Next non-empty mask set of xt at or after m, -1 when none. */
static inline int gp_place_ix_next_mask(const gp_aix_type *xt, int m)
{
	int top = 1 << xt->ngpus;

	while (m < top) {
		uint64_t b = xt->nonempty[m >> 6] & (~(uint64_t)0 << (m & 63));

		if (b)
			return (m & ~63) + __builtin_ctzll(b); /* no bit at top or above */
		m = (m & ~63) + 64;
	}
	return -1;
}
/* go-gpuallocator pair score from the node type (see gpu_pair_score.c). */
int gp_place_pair_score(const gp_place_type *t, int a, int b);
/* The perf model's ring GB/s over the GPUs of mask on node type t
 * (gp_perf_ring_gbs: NVLink channels, host staging without peer access,
 * shared PCIe switch uplinks, host memory, the socket link); 0 for fewer
 * than two GPUs.  Tabled per node type on first use. */
double gp_place_ring_gbs(const gp_place_type *t, uint64_t mask);
/* The same, and *hop (when not NULL) the link of its weakest hop as
 * gp_perf_ring_gbs names it for the GPUs of mask in ascending order. */
double gp_place_ring_hop(const gp_place_type *t, uint64_t mask, gp_link *hop);
/* gp_place_summarize_fields with the place cache's per-subset rings
 * (pc NULL: none). */
void gp_place_summarize_pc(const gp_cluster *c, const gp_place_cache *pc, gp_placement *p,
			   gp_place_summary *s, int names);

#endif
