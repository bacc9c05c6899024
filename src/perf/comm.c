/* Link bandwidths and collective costs (models-and-failures.md §A, §G).
 * Everything here is pure arithmetic over explicit inputs; deriving those
 * inputs from a cluster and a placement is in place.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/perf/perf.h"
#include "gpuplan/util/util.h"

static const char *const coll_names[GP_COLL_COUNT] = {
	"allreduce", "allgather", "reducescatter", "broadcast",
};
static const char *const algo_names[GP_ALGO_COUNT] = {
	"auto", "ring", "hierarchical", "tree", "ps",
};

const char *gp_coll_name(int coll)
{
	return coll >= 0 && coll < GP_COLL_COUNT ? coll_names[coll] : "?";
}

int gp_coll_parse(const char *s)
{
	int i;

	for (i = 0; i < GP_COLL_COUNT; i++)
		if (!strcasecmp(s, coll_names[i]))
			return i;
	return -1;
}

const char *gp_algo_name(int algo)
{
	return algo >= 0 && algo < GP_ALGO_COUNT ? algo_names[algo] : "?";
}

int gp_algo_parse(const char *s)
{
	int i;

	if (!strcasecmp(s, "hier"))
		return GP_ALGO_HIER;
	for (i = 0; i < GP_ALGO_COUNT; i++)
		if (!strcasecmp(s, algo_names[i]))
			return i;
	return -1;
}

double gp_perf_nvlink_gbs(const gp_gpu_model *m)
{
	if (!m)
		return 20.0;
	if (m->nvlink_nccl_gbs > 0) /* the catalog knows NCCL's figure */
		return m->nvlink_nccl_gbs;
	switch (m->nvlink_gen) {
	case 0:
		/* A bridge given only by its line rate: NCCL gets ~80 %. */
		return 0.8 * m->nvlink_gbs_per_link;
	case 1:
		return 18.0;
	case 2:
		return 20.0;
	case 3:
		/* GA10x bridges run 14.06 GB/s lanes; NCCL models them at 12. */
		return m->nvlink_gbs_per_link > 0 && m->nvlink_gbs_per_link < 20 ? 12.0 : 20.0;
	case 4:
		return 20.6;
	case 5:
		return 40.1;
	default:
		return 0.8 * m->nvlink_gbs_per_link;
	}
}

double gp_perf_pcie_gbs(int gen, int lanes)
{
	if (gen <= 0)
		gen = 3;
	if (lanes <= 0)
		lanes = 16;
	return GP_PERF_PCI_GEN3_X16_GBS * ldexp(1.0, gen - 3) * lanes / 16.0;
}

double gp_perf_link_gbs(const gp_gpu_model *m, gp_link l)
{
	double pcie = gp_perf_pcie_gbs(m ? m->pcie_gen : 3, m ? m->pcie_lanes : 16);

	switch (l.level) {
	case GP_LINK_X:
		return 5000.0; /* NCCL LOC_BW */
	case GP_LINK_NV:
		return (l.nvlinks ? l.nvlinks : 1) * gp_perf_nvlink_gbs(m);
	case GP_LINK_PIX:
	case GP_LINK_PXB:
		return pcie;
	case GP_LINK_PHB:
	case GP_LINK_NODE:
		return GP_PERF_HOST_STAGING * pcie;
	default: /* SYS */
		return fmin(GP_PERF_HOST_STAGING * pcie, GP_PERF_SOCKET_GBS);
	}
}

double gp_perf_link_alpha(gp_link l)
{
	if (l.level == GP_LINK_X)
		return 0.0;
	return l.level == GP_LINK_NV ? GP_PERF_ALPHA_NVLINK_S : GP_PERF_ALPHA_PCIE_S;
}

double gp_perf_nic_gbs(double gbit)
{
	return gbit / 8.0 * GP_PERF_NIC_EFFICIENCY;
}

double gp_perf_busbw_factor(int coll, int n)
{
	if (n <= 1)
		return 0.0;
	switch (coll) {
	case GP_COLL_ALLREDUCE:
		return 2.0 * (n - 1) / n;
	case GP_COLL_ALLGATHER:
	case GP_COLL_REDUCESCATTER:
		return (double)(n - 1) / n;
	default:
		return 1.0;
	}
}

/* Per-rank bandwidth of one flat ring over all ranks: as slow as its
 * slowest hop, the node's usable NICs when it leaves a node. */
static double ring_bw(const gp_perf_fabric *f)
{
	if (f->nodes > 1 && f->bw_node_net > 0)
		return fmin(f->bw_intra, f->bw_node_net);
	return f->bw_intra;
}

/* Latency of `steps` ring steps of which 2 per extra node (or 1 for the
 * one-pass collectives) cross the network. */
static double ring_lat(const gp_perf_fabric *f, int passes)
{
	int inter = passes * (f->nodes - 1);
	int intra = passes * (f->n - 1) - inter;

	return intra * f->alpha_intra + inter * f->alpha_inter;
}

static double ring_time(int coll, const gp_perf_fabric *f, double bytes)
{
	double n = f->n, b = ring_bw(f) * 1e9;

	switch (coll) {
	case GP_COLL_ALLREDUCE:
		return 2.0 * (n - 1) / n * bytes / b + ring_lat(f, 2);
	case GP_COLL_ALLGATHER:
	case GP_COLL_REDUCESCATTER:
		return (n - 1) / n * bytes / b + ring_lat(f, 1);
	default: /* broadcast: a pipelined chain moves every byte over every hop once */
		return bytes / b + ring_lat(f, 1);
	}
}

/* Reduce-scatter inside each node, one ring per rail across nodes on the
 * 1/g shard each GPU owns, all-gather inside each node (§A.2). */
static double hier_time(int coll, const gp_perf_fabric *f, double bytes)
{
	double g = f->per_node, m = f->nodes;
	double bi = f->bw_intra * 1e9, bn = f->bw_node_net * 1e9;
	double intra, inter;

	if (f->nodes <= 1 || f->bw_node_net <= 0 || coll == GP_COLL_BROADCAST)
		return -1.0;
	intra = (g - 1) / g * bytes / bi + (g - 1) * f->alpha_intra;
	inter = (m - 1) / m * bytes / bn + (m - 1) * f->alpha_inter;
	if (coll == GP_COLL_ALLREDUCE)
		return 2.0 * (intra + inter);
	return intra + inter;
}

/* Pipelined (double binary) tree all-reduce: every rank moves S up and S
 * down; latency grows with log2 of the nodes. */
static double tree_time(int coll, const gp_perf_fabric *f, double bytes)
{
	double b = ring_bw(f) * 1e9;
	double depth = f->nodes > 1 ? ceil(log2((double)f->nodes)) : 0.0;

	if (coll != GP_COLL_ALLREDUCE)
		return -1.0;
	return 2.0 * bytes / b +
	       2.0 * ((f->per_node - 1) * f->alpha_intra + depth * f->alpha_inter);
}

/* Parameter server, push then pull, serialised (§A.3): each worker sends
 * its gradient and receives the model; the servers share the load. */
static double ps_time(int coll, const gp_perf_fabric *f, double bytes)
{
	double w = f->n, p = f->ps > 0 ? f->ps : 1;
	double bw_worker, bw_server, alpha, one_way;

	if (coll != GP_COLL_ALLREDUCE)
		return -1.0;
	if (f->nodes > 1 && f->bw_node_net > 0) {
		bw_worker = f->bw_node_net / f->per_node;
		alpha = f->alpha_inter;
	} else {
		bw_worker = f->bw_intra;
		alpha = f->alpha_intra;
	}
	bw_server = f->bw_ps > 0 ? f->bw_ps : bw_worker;
	one_way = fmax(bytes / (bw_worker * 1e9), w * bytes / (p * bw_server * 1e9));
	return 2.0 * (one_way + alpha);
}

double gp_perf_coll_time(int coll, int algo, const gp_perf_fabric *f, double bytes)
{
	if (f->n <= 1)
		return 0.0;
	switch (algo) {
	case GP_ALGO_RING:
		return ring_time(coll, f, bytes);
	case GP_ALGO_HIER:
		return hier_time(coll, f, bytes);
	case GP_ALGO_TREE:
		return tree_time(coll, f, bytes);
	case GP_ALGO_PS:
		return ps_time(coll, f, bytes);
	default:
		return -1.0;
	}
}

void gp_perf_coll_eval(int coll, int algo, const gp_perf_fabric *f, double bytes,
		       gp_perf_coll_result *out)
{
	static const int candidates[] = { GP_ALGO_RING, GP_ALGO_HIER, GP_ALGO_TREE };
	double t = -1.0;
	size_t i;

	out->algo = algo;
	if (algo == GP_ALGO_AUTO) {
		out->algo = GP_ALGO_RING;
		for (i = 0; i < GP_ARRAY_SIZE(candidates); i++) {
			double ti = gp_perf_coll_time(coll, candidates[i], f, bytes);

			/* Strictly better only: ties keep the simpler ring. */
			if (ti >= 0 && (t < 0 || ti < t * (1 - 1e-12))) {
				t = ti;
				out->algo = candidates[i];
			}
		}
	} else {
		t = gp_perf_coll_time(coll, algo, f, bytes);
	}
	if (t < 0) { /* not applicable: fall back to the ring */
		out->algo = GP_ALGO_RING;
		t = gp_perf_coll_time(coll, GP_ALGO_RING, f, bytes);
	}
	out->time_s = t;
	out->bw_gbps = f->n > 1 ? ring_bw(f) : 0.0;
	if (out->algo == GP_ALGO_HIER)
		out->bw_gbps = fmin(f->bw_intra, f->bw_node_net);
	out->algbw_gbps = t > 0 ? bytes / t / 1e9 : 0.0;
	out->busbw_gbps = out->algbw_gbps * gp_perf_busbw_factor(coll, f->n);
}

/* ---- rings within one node ---- */

#define RING_DP_MAX 12 /* exact search up to this many GPUs, greedy beyond */

/* Is there a Hamiltonian cycle using only edges with ok[i][j]? Held-Karp
 * reachability over subsets, starting at vertex 0. */
static int has_cycle(int n, const unsigned char ok[][GP_TOPO_MAX_GPUS])
{
	static unsigned short reach[1u << RING_DP_MAX]; /* bit v: path 0..v over subset */
	unsigned full = (1u << n) - 1, s;
	int v, u;

	memset(reach, 0, sizeof(reach[0]) << n);
	reach[1] = 1;
	for (s = 1; s <= full; s += 2) { /* subsets containing 0 */
		if (!reach[s])
			continue;
		for (v = 0; v < n; v++) {
			if (!(reach[s] >> v & 1))
				continue;
			for (u = 1; u < n; u++)
				if (!(s >> u & 1) && ok[v][u])
					reach[s | 1u << u] |= (unsigned short)(1u << u);
		}
	}
	for (v = 1; v < n; v++)
		if ((reach[full] >> v & 1) && ok[v][0])
			return 1;
	return 0;
}

double gp_perf_ring_gbs(const gp_topo *t, const gp_gpu_model *m, const int *gpus,
			int ngpus, int *hop_a, int *hop_b, gp_link *hop_link)
{
	static double w[GP_TOPO_MAX_GPUS][GP_TOPO_MAX_GPUS];
	static unsigned char ok[GP_TOPO_MAX_GPUS][GP_TOPO_MAX_GPUS];
	double levels[GP_TOPO_MAX_GPUS * GP_TOPO_MAX_GPUS], best = 0, cap, nvcap = 1e300;
	int nlev = 0, i, j, k, ba = -1, bb = -1, all_nv;

	if (hop_a)
		*hop_a = -1;
	if (hop_b)
		*hop_b = -1;
	if (ngpus < 2) {
		if (hop_link)
			*hop_link = (gp_link){ GP_LINK_X, 0 };
		return 5000.0;
	}
	if (ngpus > GP_TOPO_MAX_GPUS)
		ngpus = GP_TOPO_MAX_GPUS;
	for (i = 0; i < ngpus; i++)
		for (j = 0; j < ngpus; j++) {
			w[i][j] = i == j ? 0 : gp_perf_link_gbs(m, gp_topo_link(t, gpus[i], gpus[j]));
			if (i < j)
				levels[nlev++] = w[i][j];
		}
	if (ngpus == 2) {
		best = w[0][1];
		ba = 0, bb = 1;
	} else if (ngpus <= RING_DP_MAX) {
		/* Highest threshold that still admits a Hamiltonian cycle. */
		qsort(levels, (size_t)nlev, sizeof(levels[0]), gp_cmp_double);
		for (k = nlev - 1; k >= 0; k--) {
			if (k < nlev - 1 && levels[k] == levels[k + 1])
				continue;
			for (i = 0; i < ngpus; i++)
				for (j = 0; j < ngpus; j++)
					ok[i][j] = i != j && w[i][j] >= levels[k];
			if (has_cycle(ngpus, ok)) {
				best = levels[k];
				break;
			}
		}
	} else {
		/* Greedy: always go to the best-connected unvisited GPU. */
		unsigned char seen[GP_TOPO_MAX_GPUS] = { 0 };
		int cur = 0, next;

		seen[0] = 1;
		best = 1e300;
		for (k = 1; k <= ngpus; k++) {
			next = 0;
			if (k < ngpus) {
				double bw = -1;

				for (j = 1; j < ngpus; j++)
					if (!seen[j] && w[cur][j] > bw)
						bw = w[cur][j], next = j;
				seen[next] = 1;
			}
			best = fmin(best, w[cur][next]);
			cur = next;
		}
	}
	/* Name the weakest hop: the lowest-index pair at the bottleneck value. */
	for (i = 0; i < ngpus && ba < 0; i++)
		for (j = i + 1; j < ngpus; j++)
			if (w[i][j] == best) {
				ba = i, bb = j;
				break;
			}
	if (ba < 0)
		ba = 0, bb = 1;
	/* A ring that is all NVLink runs as several NCCL channels: the bound is
	 * what each GPU can push into its NVLinks towards the set. */
	for (i = 0; i < ngpus; i++) {
		int links = 0;

		for (j = 0; j < ngpus; j++) {
			gp_link l = gp_topo_link(t, gpus[i], gpus[j]);

			if (i != j && l.level == GP_LINK_NV)
				links += l.nvlinks ? l.nvlinks : 1;
		}
		if (m && m->nvlink_links > 0 && links > m->nvlink_links)
			links = m->nvlink_links;
		nvcap = fmin(nvcap, links * gp_perf_nvlink_gbs(m));
	}
	all_nv = gp_topo_link(t, gpus[ba], gpus[bb]).level == GP_LINK_NV;
	cap = all_nv ? fmax(best, nvcap) : best;
	if (hop_a)
		*hop_a = gpus[ba];
	if (hop_b)
		*hop_b = gpus[bb];
	if (hop_link)
		*hop_link = gp_topo_link(t, gpus[ba], gpus[bb]);
	return cap;
}
