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
	"allreduce", "allgather", "reducescatter", "broadcast", "alltoall", "sendrecv",
};
static const char *const algo_names[GP_ALGO_COUNT] = {
	"auto", "ring", "hierarchical", "tree", "ps", "nvls", "nvlstree", "collnet", "p2p",
};
static const char *const proto_names[GP_PROTO_COUNT] = { "LL", "LL128", "Simple" };

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

const char *gp_proto_name(int proto)
{
	return proto >= 0 && proto < GP_PROTO_COUNT ? proto_names[proto] : "?";
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

double gp_perf_socket_gbs(const gp_topo *t)
{
	return t && t->socket_gbs > 0 ? t->socket_gbs : GP_PERF_SOCKET_GBS;
}

double gp_perf_pair_gbs(const gp_gpu_model *m, gp_link l, int p2p)
{
	return gp_perf_pair_gbs_socket(m, l, p2p, GP_PERF_SOCKET_GBS);
}

double gp_perf_pair_gbs_socket(const gp_gpu_model *m, gp_link l, int p2p, double socket_gbs)
{
	double pcie = gp_perf_pcie_gbs(m ? m->pcie_gen : 3, m ? m->pcie_lanes : 16);

	switch (l.level) {
	case GP_LINK_X:
		return 5000.0; /* NCCL LOC_BW */
	case GP_LINK_NV:
		return (l.nvlinks ? l.nvlinks : 1) * gp_perf_nvlink_gbs(m);
	case GP_LINK_PIX:
	case GP_LINK_PXB:
	case GP_LINK_PHB:
	case GP_LINK_NODE:
		return p2p ? pcie : GP_PERF_HOST_STAGING * pcie;
	default: /* SYS */
		return fmin(p2p ? pcie : GP_PERF_HOST_STAGING * pcie,
			    socket_gbs > 0 ? socket_gbs : GP_PERF_SOCKET_GBS);
	}
}

double gp_perf_link_gbs(const gp_gpu_model *m, gp_link l)
{
	return gp_perf_pair_gbs(m, l, l.level <= GP_LINK_PXB);
}

int gp_perf_is_consumer(const gp_gpu_model *m)
{
	const char *n;

	if (!m)
		return 0;
	n = m->name;
	if (!strncasecmp(n, "GeForce", 7) || !strncasecmp(n, "TITAN", 5))
		return 1;
	/* RTX-2080Ti, RTX-3090, RTX-4090, RTX-5090: a digit after "RTX-";
	 * the workstation RTX A6000 / RTX 6000 Ada keep their P2P. */
	if (!strncasecmp(n, "RTX", 3) && (n[3] == '-' || n[3] == ' ') && n[4] >= '1' &&
	    n[4] <= '9' && n[5] >= '0' && n[5] <= '9' && n[6] >= '0' && n[6] <= '9' &&
	    !(n[4] == '6' && n[5] == '0' && n[6] == '0' && n[7] == '0'))
		return 1;
	return 0;
}

int gp_perf_p2p_ok(const gp_topo *t, const gp_gpu_model *m, int a, int b)
{
	gp_link l = gp_topo_link(t, a, b);

	if (l.level <= GP_LINK_NV)
		return 1;
	if (t->p2p)
		return t->p2p[(size_t)a * (size_t)t->ngpus + (size_t)b] != 0;
	if (t->p2p_mode == GP_P2P_ON)
		return 1;
	if (t->p2p_mode == GP_P2P_OFF || gp_perf_is_consumer(m))
		return 0;
	return l.level <= GP_LINK_PXB; /* NCCL's default P2P level */
}

double gp_perf_link_alpha(gp_link l)
{
	if (l.level == GP_LINK_X)
		return 0.0;
	return l.level == GP_LINK_NV ? GP_PERF_ALPHA_NVLINK_S : GP_PERF_ALPHA_PCIE_S;
}

double gp_perf_nic_gbs(double gbit)
{
	return gbit / 8.0 * (gbit >= 400 ? GP_PERF_NIC_EFFICIENCY_400 : GP_PERF_NIC_EFFICIENCY);
}

int gp_perf_arch(const gp_gpu_model *m)
{
	const char *n;

	if (!m)
		return 8;
	n = m->name;
	if (m->nvlink_gen >= 5 || n[0] == 'B' || !strncasecmp(n, "GB", 2) ||
	    !strncasecmp(n, "RTX-5", 5))
		return 10;
	if (m->nvlink_gen == 4 || n[0] == 'H' || !strncasecmp(n, "GH", 2))
		return 9;
	if (m->nvlink_gen == 3 || n[0] == 'A' || n[0] == 'L' || !strncasecmp(n, "RTX-3", 5) ||
	    !strncasecmp(n, "RTX-4", 5))
		return 8;
	if (m->nvlink_gen == 2 || n[0] == 'V' || n[0] == 'T' || !strncasecmp(n, "RTX-2", 5) ||
	    !strncasecmp(n, "Quadro-RTX", 10))
		return 7;
	return 6;
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
	case GP_COLL_ALLTOALL:
		return (double)(n - 1) / n;
	default:
		return 1.0;
	}
}

/* ---- NCCL's tuning constants (src/graph/tuning.cc, v2.23-2.27) ----
 * Latencies in microseconds, [tree, ring][LL, LL128, Simple]. */
enum { T_TREE = 0, T_RING };
static const double base_lat[2][GP_PROTO_COUNT] = { { 6.8, 14.0, 8.4 }, { 6.6, 14.0, 8.4 } };
static const double hw_lat[4][2][GP_PROTO_COUNT] = {
	/* NVLink */ { { 0.6, 1.25, 4.0 }, { 0.6, 1.9, 3.4 } },
	/* PCIe */   { { 1.0, 1.9, 4.0 }, { 1.0, 2.5, 5.7 } },
	/* NET */    { { 5.0, 8.5, 14.0 }, { 2.7, 4.0, 14.0 } },
	/* SHM: the PCIe row x GP_PERF_SHM_HOP_RATIO (a hop through host
	 * memory: written over PCIe, polled over PCIe) */
	{ { 1.0 * GP_PERF_SHM_HOP_RATIO, 1.9 * GP_PERF_SHM_HOP_RATIO, 4.0 * GP_PERF_SHM_HOP_RATIO },
	  { 1.0 * GP_PERF_SHM_HOP_RATIO, 2.5 * GP_PERF_SHM_HOP_RATIO, 5.7 * GP_PERF_SHM_HOP_RATIO } },
};
#define NVLS_NET_US 18.0
/* NVLS and NVLS-tree have no base latency: a step inside the node (on
 * NVLink) and, for the tree, one across the network per tree level each
 * way (2.28 raised the latter to 20.9). */
#define NVLS_NVLINK_US 25.0
#define NVLSTREE_NET_US 14.0
#define COLLNET_NET_US 31.0
/* LL's bandwidth ceiling, [Volta, Ampere, Hopper, Blackwell][1, 2, >2 nodes]. */
static const double ll_max_bw[4][3] = {
	{ 39.0, 39.0, 20.4 }, { 87.7, 22.5, 19.0 }, { 141.0, 45.0, 35.0 }, { 282.0, 90.0, 70.0 },
};
/* What one channel of NCCL's tree moves (its "bus" bandwidth, twice the
 * algorithm's), [Volta, Ampere, Hopper, Blackwell][1, 2, >2 nodes]:
 * Simple, LL128, and NVLS-tree (Hopper on; 0 where NCCL has none). */
static const double tree_ch_bw[4][3] = {
	{ 26.5, 18.5, 10.0 }, { 24.0, 23.6, 17.8 }, { 38.7, 41.4, 36.0 }, { 70.0, 42.8, 24.0 },
};
static const double tree_ch_ll128_bw[4][3] = {
	{ 20.0, 20.0, 20.0 }, { 20.0, 20.0, 20.0 }, { 36.7, 36.7, 29.0 }, { 55.6, 31.67, 20.0 },
};
static const double nvlstree_ch_bw[4][3] = {
	{ 0, 0, 0 }, { 0, 0, 0 }, { 0, 57.7, 45.5 }, { 0, 96.0, 80.0 },
};
/* Tree bandwidth corrections by log2(bytes / 64), 64 B .. 256 MiB. */
static const double tree_corr[GP_PROTO_COUNT][23] = {
	{ 1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0,
	  1.0 },
	{ 1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0,
	  1.0 },
	{ .9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9 },
};

static int arch_of(const gp_perf_fabric *f)
{
	return f->arch > 0 ? f->arch : 8;
}

static int arch_row(const gp_perf_fabric *f)
{
	int a = arch_of(f);

	return a <= 7 ? 0 : a == 8 ? 1 : a == 9 ? 2 : 3;
}

/* Rows of hw_lat. */
enum { HW_NVLINK = 0, HW_PCI, HW_NET, HW_SHM };

static int intra_hw(const gp_perf_fabric *f)
{
	if (f->intra_shm)
		return HW_SHM;
	if (f->intra_hw == GP_PERF_HW_PCI)
		return HW_PCI;
	if (f->intra_hw == GP_PERF_HW_NVLINK)
		return HW_NVLINK;
	return f->alpha_intra > GP_PERF_ALPHA_NVLINK_S * 1.01 ? HW_PCI : HW_NVLINK;
}

/* LL128 runs on NVLink systems of Volta and later. */
static int ll128_ok(const gp_perf_fabric *f)
{
	return arch_of(f) >= 7 && intra_hw(f) == HW_NVLINK;
}

/* Per-rank bandwidth of one flat ring over all ranks: as slow as its
 * slowest hop, the node's usable NICs when it leaves a node. */
static double ring_bw(const gp_perf_fabric *f)
{
	if (f->nodes > 1 && f->bw_node_net > 0)
		return fmin(f->bw_intra, f->bw_node_net);
	return f->bw_intra;
}

/* ring_bw for one collective: a broadcast leaves the hop into its root
 * idle, which matters where hops staged through host memory share a
 * switch's uplink or host memory. */
static double ring_bw_coll(const gp_perf_fabric *f, int coll)
{
	double intra = f->bw_intra;

	if (coll == GP_COLL_BROADCAST && f->bw_intra_bcast > 0)
		intra = f->bw_intra_bcast;
	if (f->nodes > 1 && f->bw_node_net > 0)
		return fmin(intra, f->bw_node_net);
	return intra;
}

/* Latency of one step across the network: NCCL's NET figure plus the
 * switch levels beyond the first. */
static double net_lat(const gp_perf_fabric *f, int cls, int p)
{
	double extra = f->net_switch_s > 0 ? f->net_switch_s * 1e6 : 0.0;

	return hw_lat[HW_NET][cls][p] + extra;
}

/* A ring step inside a node; across nodes NCCL's proxy also launches each
 * step's network operation, so no step costs less than that (1 us, 3
 * with Simple: getNetOverhead). */
static double ring_intra_lat(const gp_perf_fabric *f, int p)
{
	double l = hw_lat[intra_hw(f)][T_RING][p];

	if (f->nodes > 1)
		l = fmax(l, GP_PERF_NET_OVERHEAD_S * 1e6 * (p == GP_PROTO_SIMPLE ? 3 : 1));
	return l;
}

static double ll_cap(const gp_perf_fabric *f)
{
	return ll_max_bw[arch_row(f)][f->nodes <= 1 ? 0 : f->nodes == 2 ? 1 : 2];
}

/* Protocol bandwidth of a ring whose Simple bandwidth is bw. */
static double ring_proto_bw(const gp_perf_fabric *f, int p, double bw)
{
	switch (p) {
	case GP_PROTO_LL:
		return fmin(0.5 * bw, ll_cap(f));
	case GP_PROTO_LL128:
		if (!ll128_ok(f))
			return -1;
		return bw * (f->nodes > 1 && f->per_node < 2 ? 0.7 : 0.92);
	default:
		return bw;
	}
}

/* Pipeline fill: the first chunk crosses `depth` hops before the links
 * stream; a chunk is NCCL's step size, or less when the buffer split
 * over the channels is smaller (share = bytes each channel-step moves at
 * the full bandwidth, in seconds). */
static double fill_time(const gp_perf_fabric *f, int p, double depth, double share_s)
{
	double ch = f->bw_chan > 0 ? f->bw_chan : ring_bw(f);

	if (p == GP_PROTO_LL || depth <= 0 || ch <= 0)
		return 0;
	return depth * fmin(GP_PERF_CHUNK_BYTES / (ch * 1e9), share_s);
}

static double ring_time(int coll, int p, const gp_perf_fabric *f, double bytes, double *lat_out)
{
	double n = f->n, m = f->nodes > 0 ? f->nodes : 1, bw, lat, factor;
	double steps, inter;

	bw = ring_proto_bw(f, p, ring_bw_coll(f, coll));
	if (bw <= 0)
		return -1;
	switch (coll) {
	case GP_COLL_ALLREDUCE:
		steps = 2 * (n - 1), inter = 2 * (m - 1), factor = 2 * (n - 1) / n;
		break;
	case GP_COLL_ALLGATHER:
	case GP_COLL_REDUCESCATTER:
		steps = n - 1, inter = m - 1, factor = (n - 1) / n;
		break;
	case GP_COLL_BROADCAST:
		steps = n - 1, inter = m - 1, factor = 1.0;
		break;
	default:
		return -1;
	}
	lat = base_lat[T_RING][p] + (steps - inter) * ring_intra_lat(f, p) +
	      inter * net_lat(f, f->per_node == 1 ? T_TREE : T_RING, p);
	/* NCCL: the "plateau effect" of big multi-node Simple rings. */
	if (coll == GP_COLL_ALLREDUCE && p == GP_PROTO_SIMPLE && m > 1 &&
	    bytes >= n / 16.0 * 65536)
		lat *= arch_of(f) >= 8 ? 1.4 : 1.9;
	if (lat_out)
		*lat_out = lat * 1e-6;
	/* The first chunk's hops: within one node, and once per node. */
	return lat * 1e-6 + factor * bytes / (bw * 1e9) +
	       fill_time(f, p, fmin(steps - 1, 2 * (n / m - 1) + 2 * (m - 1)),
			 bytes / (n * bw * 1e9));
}

static double tree_corr_of(int p, double bytes)
{
	double x = bytes / 64.0;
	int lg = 0;

	while (x >= 2.0 && lg < 40)
		x /= 2.0, lg++;
	return lg < 23 ? tree_corr[p][lg] : 1.0;
}

/* Index of a node count in NCCL's [1, 2, >2 nodes] tables. */
static int nodes_idx(const gp_perf_fabric *f)
{
	return f->nodes <= 1 ? 0 : f->nodes == 2 ? 1 : 2;
}

/* GB/s of one of the NICs behind bw_node_net; 0 when not known. */
static double nic_gbs(const gp_perf_fabric *f)
{
	return f->nodes > 1 && f->net_nics > 0 && f->bw_node_net > 0
		       ? f->bw_node_net / f->net_nics : 0;
}

/* Channels of NCCL's tree across nodes: its search gives each NIC one
 * channel at about the NIC's speed, then doubles the channels when a
 * channel runs at 25 GB/s or more (from Hopper on, not when there are
 * more than four below 50 GB/s).  0 when the NICs are not known. */
static int tree_channels(const gp_perf_fabric *f)
{
	double nic = nic_gbs(f);

	if (nic <= 0)
		return 0;
	if (nic >= 25.0 && (arch_of(f) <= 8 || nic >= 50.0 || f->net_nics <= 4))
		return 2 * f->net_nics;
	return f->net_nics;
}

/* NCCL's double binary tree (all-reduce): each rank moves the buffer up
 * and down, so the algorithm bandwidth is half the tree's bus bandwidth.
 * Across nodes with several GPUs each, a channel is a chain through the
 * node's GPUs between its NIC's two directions, and moves at most NCCL's
 * per-channel figure; across two nodes each node's NICs carry the buffer
 * once each way.  The up and down phases of those chains do not fill
 * both directions at once: nccl-tests on two nodes of 100 Gb/s NICs
 * reach about 1.2 x the NICs as busbw, not the 1.875 x that a full NIC
 * each way would give, which NCCL's figures do not explain (one GPU per
 * node has no chain inside the node and fills both directions: about
 * 1.0 x); across more the inner nodes carry it twice. */
static double two_node_net(const gp_perf_fabric *f)
{
	if (f->nodes > 2)
		return 0.5;
	return f->per_node > 1 ? GP_PERF_TREE_2NODE_NET : 1.0;
}

static double tree_time(int p, const gp_perf_fabric *f, double bytes, double *lat_out)
{
	double m = f->nodes > 0 ? f->nodes : 1, ppn = f->per_node > 0 ? f->per_node : f->n;
	double g, cap, bus, alg, lat, depth = 0;
	int nch = m >= 2 && ppn > 1 ? tree_channels(f) : 0;

	if (f->n < 2)
		return -1;
	g = m <= 2 ? f->bw_intra : ring_bw(f);
	if (nch > 0)
		/* NCCL's per-channel figure, all channels */
		cap = nch * tree_ch_bw[arch_row(f)][nodes_idx(f)];
	else if (arch_of(f) <= 8)
		cap = m <= 2 ? (p == GP_PROTO_LL128 && arch_of(f) == 8 ? 130.0 : 110.0)
			     : (p == GP_PROTO_LL128 && arch_of(f) == 8 ? 105.0 : 80.0);
	else
		cap = 1e9;
	bus = fmin((nch > 0 ? 0.92 : 0.9) * g, cap);
	if (p == GP_PROTO_LL)
		bus /= 3.8;
	else if (p == GP_PROTO_LL128) {
		if (!ll128_ok(f))
			return -1;
		bus *= m <= 1 ? 7.0 / 9.0 : 120.0 / 128.0;
		if (nch > 0)
			bus = fmin(bus, nch * tree_ch_ll128_bw[arch_row(f)][nodes_idx(f)]);
	}
	alg = 0.5 * bus;
	if (m >= 2 && f->bw_node_net > 0)
		alg = fmin(alg, f->bw_node_net * two_node_net(f) *
				(p == GP_PROTO_LL ? 0.5 : p == GP_PROTO_LL128 ? 120.0 / 128.0 : 1.0));
	alg *= tree_corr_of(p, bytes);
	while ((1 << (int)depth) < (int)m)
		depth++;
	lat = base_lat[T_TREE][p] +
	      2 * ((ppn - 1) * hw_lat[intra_hw(f)][T_TREE][p] + depth * net_lat(f, T_TREE, p));
	if (lat_out)
		*lat_out = lat * 1e-6;
	return lat * 1e-6 + bytes / (alg * 1e9) +
	       fill_time(f, p, 2 * (ppn - 1 + depth), bytes / (f->n * alg * 1e9));
}

/* NVLink SHARP: the NVSwitches reduce, so a GPU moves about (n-1)/n of
 * the buffer through its NVLinks at NCCL's NVLS efficiency. */
static double nvls_algbw(const gp_perf_fabric *f, double ranks)
{
	double eff = arch_of(f) >= 10 ? GP_PERF_NVLS_EFF_BLACKWELL : GP_PERF_NVLS_EFF_HOPPER;

	if (!f->nvswitch || arch_of(f) < 9 || f->bw_gpu_nvl <= 0 || ranks < 2)
		return -1;
	return eff * f->bw_gpu_nvl * (ranks - 1) / ranks;
}

static double nvls_time(const gp_perf_fabric *f, double bytes, double *lat_out)
{
	double alg = nvls_algbw(f, f->n), lat;

	if (f->nodes > 1 || alg <= 0)
		return -1;
	lat = NVLS_NVLINK_US;
	if (lat_out)
		*lat_out = lat * 1e-6;
	return lat * 1e-6 + bytes / (alg * 1e9) +
	       fill_time(f, GP_PROTO_SIMPLE, 2, bytes / (f->n * alg * 1e9));
}

/* NVLS inside the nodes, a tree across them.  A channel per NIC, on the
 * GPU next to it (at most one a GPU, at least two, as NCCL asks); a GPU
 * with several NICs spreads its NVLS channels over them, so a channel
 * moves at most what its GPU's NICs carry, twice that across two nodes
 * (each way once), and NCCL's per-channel NVLS-tree figure: the
 * channels' sum is the busbw. */
static double nvlstree_time(const gp_perf_fabric *f, double bytes, double *lat_out)
{
	double m = f->nodes, n = f->n, alg, lat, depth = 0, nic = nic_gbs(f);
	int nch = f->net_nics < f->per_node ? f->net_nics : f->per_node;

	if (nch > 0 && nic > 0)
		nic = f->bw_node_net / nch;

	if (m < 2 || f->bw_node_net <= 0 || f->per_node < 2)
		return -1;
	alg = nvls_algbw(f, f->per_node);
	if (alg <= 0)
		return -1;
	if (nic > 0) {
		double ch = fmin((m <= 2 ? 2.0 : 1.0) * nic, nvlstree_ch_bw[arch_row(f)][nodes_idx(f)]);

		if (nch < 2)
			return -1;
		alg = fmin(alg, nch * ch * n / (2 * (n - 1)));
	} else {
		alg = fmin(alg, f->bw_node_net * two_node_net(f));
	}
	/* Whatever its channels move, an all-reduce without in-network
	 * reduction sends 2 (m - 1) / m of the buffer out of each of m nodes
	 * (their partial sums, reduced and gathered), so its algbw is at most
	 * the node's NICs times m / (2 (m - 1)): the NICs on two nodes, where
	 * NCCL's doubled per-channel figure would claim 16/15 of them. */
	alg = fmin(alg, f->bw_node_net * m / (2 * (m - 1)));
	while ((1 << (int)depth) < (int)m)
		depth++;
	lat = NVLS_NVLINK_US + 2 * depth * (NVLSTREE_NET_US + f->net_switch_s * 1e6);
	if (lat_out)
		*lat_out = lat * 1e-6;
	return lat * 1e-6 + bytes / (alg * 1e9);
}

/* In-network reduction (CollNet, IB SHARP): each node sends the buffer
 * to the switches once and gets the sum back once. */
static double collnet_time(const gp_perf_fabric *f, double bytes, double *lat_out)
{
	double ppn = f->per_node > 0 ? f->per_node : 1, alg, lat;

	if (!f->sharp || f->nodes < 2 || f->bw_node_net <= 0)
		return -1;
	alg = 0.9 * fmin(f->bw_node_net, ppn > 1 ? 0.5 * f->bw_intra : 1e9);
	lat = base_lat[T_RING][GP_PROTO_SIMPLE] +
	      2 * (ppn - 1) * hw_lat[intra_hw(f)][T_RING][GP_PROTO_SIMPLE] + COLLNET_NET_US;
	if (lat_out)
		*lat_out = lat * 1e-6;
	return lat * 1e-6 + bytes / (alg * 1e9);
}

/* Reduce-scatter inside each node, one ring per rail across nodes on the
 * 1/g shard each GPU owns, all-gather inside each node (§A.2). */
static double hier_time(int coll, const gp_perf_fabric *f, double bytes)
{
	double g = f->per_node, m = f->nodes;
	double bi = f->bw_intra * 1e9, bn = f->bw_node_net * 1e9;
	double intra, inter;

	if (f->nodes <= 1 || f->bw_node_net <= 0 ||
	    (coll != GP_COLL_ALLREDUCE && coll != GP_COLL_ALLGATHER &&
	     coll != GP_COLL_REDUCESCATTER))
		return -1.0;
	intra = (g - 1) / g * bytes / bi + (g - 1) * f->alpha_intra;
	inter = (m - 1) / m * bytes / bn + (m - 1) * f->alpha_inter;
	if (coll == GP_COLL_ALLREDUCE)
		return 2.0 * (intra + inter);
	return intra + inter;
}

/* Parameter server, push then pull, serialised (§A.3): each worker sends
 * its gradient and receives the model; the servers share the load.  A
 * job's iteration gives each side's rate (bw_ps_worker, bw_ps) from the
 * nodes its workers and servers are on; a bare set of ranks pushes at its
 * share of the slowest node's NICs. */
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
	if (f->bw_ps_worker > 0)
		bw_worker = f->bw_ps_worker;
	bw_server = f->bw_ps > 0 ? f->bw_ps : bw_worker;
	one_way = fmax(bytes / (bw_worker * 1e9), w * bytes / (p * bw_server * 1e9));
	return 2.0 * (one_way + alpha);
}

static double gpu_net_bw(const gp_perf_fabric *f)
{
	if (f->bw_gpu_net > 0)
		return f->bw_gpu_net;
	return f->bw_node_net > 0 ? f->bw_node_net / (f->per_node > 0 ? f->per_node : 1) : 0;
}

/* Point-to-point collectives.  alltoall: every rank sends 1/n of its
 * buffer to every other rank at once; the part for the other nodes goes
 * through the GPU's own NICs (alltoall does not aggregate a node's NICs),
 * the rest over the intra-node links.  sendrecv: each rank sends the
 * buffer to the next rank.  NCCL does not pick their protocol by time:
 * a part for one peer that fits the LL threshold on its one channel
 * goes LL, a larger one Simple, and send/recv has no LL128. */
static double p2p_time(int coll, int p, const gp_perf_fabric *f, double bytes, double *lat_out)
{
	double n = f->n, ppn = f->per_node > 0 ? f->per_node : n, t, lat, bw_in, bw_net;
	double peer = coll == GP_COLL_ALLTOALL ? bytes / n : bytes;
	int cls = T_RING, multi = f->nodes > 1;

	if (p != (peer <= GP_PERF_P2P_LL_BYTES ? GP_PROTO_LL : GP_PROTO_SIMPLE))
		return -1;
	bw_in = f->bw_p2p > 0 ? f->bw_p2p : f->bw_intra;
	if (coll == GP_COLL_ALLTOALL && f->nvswitch)
		bw_in = f->bw_intra; /* all peers at once: the GPU's NVLink capacity */
	bw_net = gpu_net_bw(f);
	if (multi && bw_net <= 0)
		return -1;
	bw_in = ring_proto_bw(f, p, bw_in);
	if (multi)
		bw_net = ring_proto_bw(f, p, bw_net);
	if (bw_in <= 0 || (multi && bw_net <= 0))
		return -1;
	if (coll == GP_COLL_ALLTOALL)
		/* One send per peer in the node, each with its step latency.
		 * The peers on other nodes run side by side (a work each, up
		 * to 8 a channel in one batch): their network latency counts
		 * once, and the proxy launches their operations in turn at
		 * NCCL's network overhead each. */
		lat = base_lat[cls][p] + (ppn - 1) * hw_lat[intra_hw(f)][cls][p] +
		      (n > ppn ? net_lat(f, cls, p) +
				 (n - ppn) * GP_PERF_NET_OVERHEAD_S * 1e6 *
					 (p == GP_PROTO_SIMPLE ? 3 : 1)
			       : 0);
	else
		lat = base_lat[cls][p] + (multi ? net_lat(f, cls, p) : hw_lat[intra_hw(f)][cls][p]);
	if (coll == GP_COLL_ALLTOALL) {
		double tin = bytes * (ppn - 1) / n / (bw_in * 1e9);
		double tnet = multi ? bytes * (n - ppn) / n / (bw_net * 1e9) : 0;

		t = fmax(tin, tnet);
	} else if (coll == GP_COLL_SENDRECV) {
		t = bytes / (fmin(bw_in, multi ? bw_net : 1e300) * 1e9);
	} else {
		return -1;
	}
	if (lat_out)
		*lat_out = lat * 1e-6;
	return lat * 1e-6 + t;
}

static double gp_perf_coll_time_proto(int coll, int algo, int proto, const gp_perf_fabric *f,
				      double bytes, double *lat)
{
	double best = -1, l = 0, t;
	int p;

	if (lat)
		*lat = 0;
	/* one worker pushing to its servers still moves its gradient */
	if (f->n <= 1 && !(algo == GP_ALGO_PS && f->bw_ps_worker > 0))
		return 0.0;
	if (algo == GP_ALGO_HIER || algo == GP_ALGO_PS) {
		t = algo == GP_ALGO_HIER ? hier_time(coll, f, bytes) : ps_time(coll, f, bytes);
		return t;
	}
	for (p = 0; p < GP_PROTO_COUNT; p++) {
		if (proto >= 0 && p != proto)
			continue;
		/* NCCL_PROTO leaves LL out of the collectives; send/recv
		 * picks LL by size whatever it says. */
		if (p == GP_PROTO_LL && f->no_ll && algo != GP_ALGO_P2P)
			continue;
		switch (algo) {
		case GP_ALGO_RING:
			t = ring_time(coll, p, f, bytes, &l);
			break;
		case GP_ALGO_TREE:
			t = coll == GP_COLL_ALLREDUCE ? tree_time(p, f, bytes, &l) : -1;
			break;
		case GP_ALGO_NVLS:
			t = coll == GP_COLL_ALLREDUCE && p == GP_PROTO_SIMPLE
				    ? nvls_time(f, bytes, &l) : -1;
			break;
		case GP_ALGO_NVLSTREE:
			t = coll == GP_COLL_ALLREDUCE && p == GP_PROTO_SIMPLE
				    ? nvlstree_time(f, bytes, &l) : -1;
			break;
		case GP_ALGO_COLLNET:
			t = coll == GP_COLL_ALLREDUCE && p == GP_PROTO_SIMPLE
				    ? collnet_time(f, bytes, &l) : -1;
			break;
		case GP_ALGO_P2P:
			t = p2p_time(coll, p, f, bytes, &l);
			break;
		default:
			t = -1;
		}
		if (t >= 0 && (best < 0 || t < best * (1 - 1e-12))) {
			best = t;
			if (lat)
				*lat = l;
		}
	}
	return best;
}

double gp_perf_coll_time(int coll, int algo, const gp_perf_fabric *f, double bytes)
{
	return gp_perf_coll_time_proto(coll, algo, -1, f, bytes, NULL);
}

/* Which protocol gave time t (the first that matches). */
static int proto_of(int coll, int algo, const gp_perf_fabric *f, double bytes, double t)
{
	int p;

	for (p = 0; p < GP_PROTO_COUNT; p++)
		if (gp_perf_coll_time_proto(coll, algo, p, f, bytes, NULL) == t)
			return p;
	return GP_PROTO_SIMPLE;
}

static int is_p2p_coll(int coll)
{
	return coll == GP_COLL_ALLTOALL || coll == GP_COLL_SENDRECV;
}

void gp_perf_coll_eval(int coll, int algo, const gp_perf_fabric *f, double bytes,
		       gp_perf_coll_result *out)
{
	static const int candidates[] = { GP_ALGO_RING, GP_ALGO_TREE, GP_ALGO_NVLS,
					  GP_ALGO_NVLSTREE, GP_ALGO_COLLNET };
	double t = -1.0;
	size_t i;

	out->algo = algo;
	if (is_p2p_coll(coll)) {
		out->algo = GP_ALGO_P2P;
		t = gp_perf_coll_time(coll, GP_ALGO_P2P, f, bytes);
	} else if (algo == GP_ALGO_AUTO) {
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
	if (t < 0)
		t = 0;
	out->time_s = t;
	out->proto = GP_PROTO_SIMPLE;
	out->lat_s = 0;
	if (out->algo != GP_ALGO_HIER && out->algo != GP_ALGO_PS && f->n > 1) {
		out->proto = proto_of(coll, out->algo, f, bytes, t);
		gp_perf_coll_time_proto(coll, out->algo, out->proto, f, bytes, &out->lat_s);
	}
	out->bw_gbps = f->n > 1 ? ring_bw_coll(f, coll) : 0.0;
	if (out->algo == GP_ALGO_HIER)
		out->bw_gbps = fmin(f->bw_intra, f->bw_node_net);
	out->algbw_gbps = t > 0 ? bytes / t / 1e9 : 0.0;
	out->busbw_gbps = out->algbw_gbps * gp_perf_busbw_factor(coll, f->n);
}

void gp_perf_coll_add_launch(gp_perf_coll_result *out, int coll, int n, double bytes, int g)
{
	double extra = g > 1 ? (g - 1) * GP_PERF_LAUNCH_S : 0;

	if (extra <= 0)
		return;
	out->time_s += extra;
	out->lat_s += extra;
	out->algbw_gbps = out->time_s > 0 ? bytes / out->time_s / 1e9 : 0.0;
	out->busbw_gbps = out->algbw_gbps * gp_perf_busbw_factor(coll, n);
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

/* A Hamiltonian cycle over the edges with ok[i][j], starting at vertex 0,
 * of the least total cost[i][j] (Held-Karp): into order[0..n-1]
 * (order[0] = 0).  Returns 0 when there is none. */
static int best_cycle(int n, const unsigned char ok[][GP_TOPO_MAX_GPUS],
		      const unsigned char cost[][GP_TOPO_MAX_GPUS], int *order)
{
	/* best[s][v]: least cost of a path from 0 through subset s ending
	 * at v; 0xffff none */
	static unsigned short best[1u << RING_DP_MAX][RING_DP_MAX];
	unsigned full = (1u << n) - 1, s;
	int v, u, end = -1, k;
	unsigned total = 0xffff;

	for (s = 0; s <= full; s++)
		for (v = 0; v < n; v++)
			best[s][v] = 0xffff;
	best[1][0] = 0;
	for (s = 1; s <= full; s += 2) /* subsets containing 0 */
		for (v = 0; v < n; v++) {
			if (best[s][v] == 0xffff)
				continue;
			for (u = 1; u < n; u++) {
				unsigned c = best[s][v] + cost[v][u];

				if (!(s >> u & 1) && ok[v][u] && c < best[s | 1u << u][u])
					best[s | 1u << u][u] = (unsigned short)c;
			}
		}
	for (v = 1; v < n; v++)
		if (best[full][v] != 0xffff && ok[v][0] && best[full][v] + cost[v][0] < total)
			total = best[full][v] + cost[v][0], end = v;
	if (end < 0)
		return 0;
	/* Walk back: each step the vertex whose path extends to this one. */
	for (s = full, v = end, k = n - 1; k > 0; k--) {
		order[k] = v;
		s &= ~(1u << v);
		for (u = 0; u < n; u++)
			if ((s >> u & 1) && ok[u][v] && best[s][u] != 0xffff &&
			    best[s][u] + cost[u][v] == best[s | 1u << v][v])
				break;
		if (u == n)
			return 0;
		v = u;
	}
	order[0] = 0;
	return 1;
}

/* Whether the hop a -> b (GPUs of t) is staged through host memory. */
static int staged_hop(const gp_topo *t, const gp_gpu_model *m, int a, int b)
{
	return a != b && !gp_perf_p2p_ok(t, m, a, b);
}

/* The PCIe switch groups of gpus[0..n-1] into group[]: GPUs joined by
 * PIX/PXB links, as components (each named by its lowest index). */
static void switch_groups(const gp_topo *t, const int *gpus, int n, int *group)
{
	int i, j, changed;

	for (i = 0; i < n; i++)
		group[i] = i;
	do {
		changed = 0;
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++) {
				int lv = gp_topo_link(t, gpus[i], gpus[j]).level;

				if (i != j && (lv == GP_LINK_PIX || lv == GP_LINK_PXB) &&
				    group[j] < group[i]) {
					group[i] = group[j];
					changed = 1;
				}
			}
	} while (changed);
}

/* The GB/s each staged flow can have when up[g] flows leave and down[g]
 * enter switch group g and numa_in[k] flows land in NUMA node k's memory
 * (1e300 when nothing is shared). */
static double staged_cap(const gp_topo *t, const gp_gpu_model *m, int n, const int *up,
			 const int *down, const int *numa_in)
{
	double pcie = gp_perf_pcie_gbs(m ? m->pcie_gen : 3, m ? m->pcie_lanes : 16), cap = 1e300;
	int i;

	for (i = 0; i < n; i++) {
		int flows = up[i] > down[i] ? up[i] : down[i];

		if (flows > 1)
			cap = fmin(cap, pcie / flows);
	}
	for (i = 0; i < GP_TOPO_MAX_GPUS && t->host_mem_gbs > 0; i++)
		if (numa_in[i] > 0)
			cap = fmin(cap, t->host_mem_gbs / (2.0 * numa_in[i]));
	return cap;
}

/* NUMA node of GPU g of t, as an index into a GP_TOPO_MAX_GPUS array. */
static int gpu_numa(const gp_topo *t, int g)
{
	return (t->gpus && t->gpus[g].numa >= 0 ? t->gpus[g].numa : 0) % GP_TOPO_MAX_GPUS;
}

/* What the ring's staged hops share, as the GB/s each can have (1e300
 * when nothing binds beyond the hops' own links).  A hop without peer
 * access goes through host memory the way NCCL's SHM transport moves it:
 * the sender writes into a buffer in the receiver's host memory over its
 * own PCIe link, the receiver reads it over its own.  PCIe is full
 * duplex, so a GPU's link carries one flow each way (its pair weight
 * has that already); what several flows share is
 *   - the uplink of a PCIe switch: the GPUs at PIX/PXB of each other sit
 *     under one, a link of their generation and width, per direction;
 *   - the memory of the NUMA node holding the buffers (the receiver's),
 *     which sees each staged byte written once and read once: the node
 *     type's host_mem_gbs, when it gives one.
 * order[] is the ring, hop k from order[k] to order[k+1]; the hop into
 * order[0] carries nothing when idle_root (broadcast from the ring's
 * first GPU). */
static double staged_share(const gp_topo *t, const gp_gpu_model *m, const int *gpus,
			   const int *order, int n, int idle_root)
{
	int group[GP_TOPO_MAX_GPUS], up[GP_TOPO_MAX_GPUS] = { 0 }, down[GP_TOPO_MAX_GPUS] = { 0 };
	int numa_in[GP_TOPO_MAX_GPUS] = { 0 };
	int k;

	switch_groups(t, gpus, n, group);
	for (k = 0; k < n; k++) {
		int a = order[k], b = order[(k + 1) % n];

		if ((idle_root && b == order[0]) || !staged_hop(t, m, gpus[a], gpus[b]))
			continue;
		up[group[a]]++;
		down[group[b]]++;
		numa_in[gpu_numa(t, gpus[b])]++;
	}
	return staged_cap(t, m, n, up, down, numa_in);
}

double gp_perf_staged_peers_gbs(const gp_topo *t, const gp_gpu_model *m, const int *gpus,
				int ngpus)
{
	int group[GP_TOPO_MAX_GPUS], up[GP_TOPO_MAX_GPUS] = { 0 }, down[GP_TOPO_MAX_GPUS] = { 0 };
	int numa_in[GP_TOPO_MAX_GPUS] = { 0 };
	unsigned char staged[GP_TOPO_MAX_GPUS] = { 0 };
	int i, j, any = 0;

	if (ngpus > GP_TOPO_MAX_GPUS)
		ngpus = GP_TOPO_MAX_GPUS;
	for (i = 0; i < ngpus; i++)
		for (j = 0; j < ngpus && !staged[i]; j++)
			staged[i] = (unsigned char)staged_hop(t, m, gpus[i], gpus[j]);
	for (i = 0; i < ngpus; i++)
		any |= staged[i];
	if (!any)
		return 1e300;
	switch_groups(t, gpus, ngpus, group);
	for (i = 0; i < ngpus; i++)
		if (staged[i]) {
			/* one flow out of GPU i, one into it */
			up[group[i]]++;
			down[group[i]]++;
			numa_in[gpu_numa(t, gpus[i])]++;
		}
	return staged_cap(t, m, ngpus, up, down, numa_in);
}

/* gp_perf_ring_gbs; *bcast (when not NULL) gets the ring's rate for a
 * broadcast from gpus[0], whose incoming hop is idle. */
static double ring_eval(const gp_topo *t, const gp_gpu_model *m, const int *gpus, int ngpus,
			int *hop_a, int *hop_b, gp_link *hop_link, double *bcast)
{
	static double w[GP_TOPO_MAX_GPUS][GP_TOPO_MAX_GPUS];
	static unsigned char ok[GP_TOPO_MAX_GPUS][GP_TOPO_MAX_GPUS];
	static unsigned char cost[GP_TOPO_MAX_GPUS][GP_TOPO_MAX_GPUS];
	double levels[GP_TOPO_MAX_GPUS * GP_TOPO_MAX_GPUS], best = 0, cap, nvcap = 1e300;
	int nlev = 0, i, j, k, ba = -1, bb = -1, all_nv, staged = 0;
	int order[GP_TOPO_MAX_GPUS];

	if (hop_a)
		*hop_a = -1;
	if (hop_b)
		*hop_b = -1;
	if (ngpus < 2) {
		if (hop_link)
			*hop_link = (gp_link){ GP_LINK_X, 0 };
		if (bcast)
			*bcast = 5000.0;
		return 5000.0;
	}
	if (ngpus > GP_TOPO_MAX_GPUS)
		ngpus = GP_TOPO_MAX_GPUS;
	for (i = 0; i < ngpus; i++)
		for (j = 0; j < ngpus; j++) {
			w[i][j] = i == j ? 0
					 : gp_perf_pair_gbs_socket(m, gp_topo_link(t, gpus[i], gpus[j]),
								   gp_perf_p2p_ok(t, m, gpus[i], gpus[j]),
								   gp_perf_socket_gbs(t));
			if (i < j)
				levels[nlev++] = w[i][j];
			/* the ring prefers direct hops, then hops within a socket */
			cost[i][j] = (unsigned char)(staged_hop(t, m, gpus[i], gpus[j]) * 16 +
					(gp_topo_link(t, gpus[i], gpus[j]).level >= GP_LINK_SYS));
			staged |= i != j && staged_hop(t, m, gpus[i], gpus[j]);
		}
	order[0] = 0, order[1] = 1;
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
				/* the ring itself matters only for what staged
				 * hops share */
				if (staged && !best_cycle(ngpus, ok, cost, order))
					staged = 0;
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
				order[k] = next;
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
	if (bcast)
		*bcast = cap;
	/* only a ring that takes a staged hop shares anything */
	for (k = 0, i = 0; staged && k < ngpus; k++)
		i |= staged_hop(t, m, gpus[order[k]], gpus[order[(k + 1) % ngpus]]);
	if (i) {
		cap = fmin(cap, staged_share(t, m, gpus, order, ngpus, 0));
		if (bcast) {
			/* a broadcast's hops but the one into its root */
			double b = 1e300;

			for (k = 0; k + 1 < ngpus; k++)
				b = fmin(b, w[order[k]][order[k + 1]]);
			*bcast = fmin(b, staged_share(t, m, gpus, order, ngpus, 1));
		}
	}
	if (hop_a)
		*hop_a = gpus[ba];
	if (hop_b)
		*hop_b = gpus[bb];
	if (hop_link)
		*hop_link = gp_topo_link(t, gpus[ba], gpus[bb]);
	return cap;
}

double gp_perf_ring_gbs(const gp_topo *t, const gp_gpu_model *m, const int *gpus,
			int ngpus, int *hop_a, int *hop_b, gp_link *hop_link)
{
	return ring_eval(t, m, gpus, ngpus, hop_a, hop_b, hop_link, NULL);
}

double gp_perf_ring_gbs_bcast(const gp_topo *t, const gp_gpu_model *m, const int *gpus,
			      int ngpus, int *hop_a, int *hop_b, gp_link *hop_link, double *bcast)
{
	return ring_eval(t, m, gpus, ngpus, hop_a, hop_b, hop_link, bcast);
}
