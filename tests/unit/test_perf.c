/* Communication and iteration-time model: hand-computed ring times on
 * NV12, NV18, PCIe-only and two-node examples; profile formula; the Sia
 * CSV reader and the GSL fit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/io/snapshot.h"
#include "gpuplan/model/dlmodels.h"
#include "gpuplan/perf/perf.h"
#include "gpuplan/util/util.h"
#include "testlib.h"

/* A100-SXM4: NVLink 3, 12 links of 25 GB/s, PCIe Gen4 x16. */
static const gp_gpu_model a100 = {
	.name = "A100-SXM4-40GB", .nvlink_gen = 3, .nvlink_gbs_per_link = 25,
	.nvlink_links = 12, .pcie_gen = 4, .pcie_lanes = 16,
};
/* H100-SXM5: NVLink 4, 18 links, PCIe Gen5 x16. */
static const gp_gpu_model h100 = {
	.name = "H100-SXM5-80GB", .nvlink_gen = 4, .nvlink_gbs_per_link = 25,
	.nvlink_links = 18, .pcie_gen = 5, .pcie_lanes = 16,
};
/* A PCIe-only Gen3 card (no NVLink). */
static const gp_gpu_model pcie3 = {
	.name = "T4", .pcie_gen = 3, .pcie_lanes = 16,
};

/* An n-GPU topology whose every pair has link l (no NICs). */
static void topo_uniform(gp_topo *t, int n, gp_link l)
{
	int i, j;

	memset(t, 0, sizeof(*t));
	t->ngpus = n;
	t->links = calloc((size_t)(n * n), sizeof(gp_link));
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			t->links[i * n + j] = i == j ? (gp_link){ GP_LINK_X, 0 } : l;
}

static void set_link(gp_topo *t, int a, int b, gp_link l)
{
	t->links[a * t->ngpus + b] = l;
	t->links[b * t->ngpus + a] = l;
}

static const int all8[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };

static void test_link_constants(void)
{
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_pcie_gbs(3, 16), 12.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_pcie_gbs(4, 16), 24.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_pcie_gbs(5, 16), 48.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_pcie_gbs(3, 8), 6.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_nvlink_gbs(&a100), 20.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_nvlink_gbs(&h100), 20.6, 1e-12);
	/* NV12 pair = 12 x 20; NODE staged through host = 0.8 x 24;
	 * SYS = min(0.8 x 24, 16). */
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_link_gbs(&a100, (gp_link){ GP_LINK_NV, 12 }), 240.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_link_gbs(&a100, (gp_link){ GP_LINK_NODE, 0 }), 19.2, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_link_gbs(&a100, (gp_link){ GP_LINK_SYS, 0 }), 16.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_link_gbs(&pcie3, (gp_link){ GP_LINK_PIX, 0 }), 12.0, 1e-9);
	/* HDR 200 Gb/s = 25 GB/s line, x 0.94. */
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_nic_gbs(200), 23.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_busbw_factor(GP_COLL_ALLREDUCE, 8), 1.75, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_busbw_factor(GP_COLL_ALLGATHER, 8), 0.875, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_busbw_factor(GP_COLL_BROADCAST, 8), 1.0, 1e-12);
	CU_ASSERT_EQUAL(gp_coll_parse("AllReduce"), GP_COLL_ALLREDUCE);
	CU_ASSERT_EQUAL(gp_coll_parse("alltoall"), GP_COLL_ALLTOALL);
	CU_ASSERT_EQUAL(gp_coll_parse("SendRecv"), GP_COLL_SENDRECV);
	CU_ASSERT_EQUAL(gp_coll_parse("gather"), -1);
	CU_ASSERT_EQUAL(gp_algo_parse("NVLSTree"), GP_ALGO_NVLSTREE);
	/* 400 Gb/s NDR: 50 GB/s line x 0.97 (ConnectX-7). */
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_nic_gbs(400), 48.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_busbw_factor(GP_COLL_ALLTOALL, 8), 0.875, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_busbw_factor(GP_COLL_SENDRECV, 8), 1.0, 1e-12);
	/* Host-staged pairs: P2P off makes a PIX pair 0.8 x PCIe. */
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_pair_gbs(&a100, (gp_link){ GP_LINK_PIX, 0 }, 0), 19.2, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_pair_gbs(&a100, (gp_link){ GP_LINK_NODE, 0 }, 1), 24.0, 1e-9);
	CU_ASSERT_EQUAL(gp_perf_arch(&a100), 8);
	CU_ASSERT_EQUAL(gp_perf_arch(&h100), 9);
	CU_ASSERT_EQUAL(gp_algo_parse("hier"), GP_ALGO_HIER);
}

/* 8 x A100 on NVSwitch (every pair NV12), 1 GB all-reduce, ring, Simple:
 * t = base 8.4 us + 14 x 3.4 us + 2*7/8 * 1e9 / 240e9 + pipeline fill of
 * 13 hops x one 512 KiB chunk over one channel's link. */
static void test_ring_nv12(void)
{
	gp_topo t;
	gp_perf_fabric f = { 0 };
	gp_perf_coll_result r;
	gp_link hop;
	int a, b;

	topo_uniform(&t, 8, (gp_link){ GP_LINK_NV, 12 });
	f.n = 8, f.nodes = 1, f.per_node = 8;
	f.bw_intra = gp_perf_ring_gbs(&t, &a100, all8, 8, &a, &b, &hop);
	CU_ASSERT_DOUBLE_EQUAL(f.bw_intra, 240.0, 1e-9);
	CU_ASSERT_EQUAL(hop.level, GP_LINK_NV);
	f.alpha_intra = GP_PERF_ALPHA_NVLINK_S;
	f.bw_chan = 20.0; /* one NVLink per channel */
	gp_perf_coll_eval(GP_COLL_ALLREDUCE, GP_ALGO_RING, &f, 1e9, &r);
	CU_ASSERT_EQUAL(r.proto, GP_PROTO_SIMPLE);
	CU_ASSERT_DOUBLE_EQUAL(r.time_s, 7.291666667e-3 + 56.0e-6 + 13 * 524288 / 20e9, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(r.lat_s, 56.0e-6, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(r.busbw_gbps, 1.75 / r.time_s, 1e-6);
	/* nccl-tests ~230 GB/s at 1 GB (NVIDIA/nccl-tests#149 ~200, #175 232). */
	CU_ASSERT(fabs(r.busbw_gbps - 230) / 230 < 0.25);
	/* 8 bytes: LL, latency only: 6.6 + 14 x 0.6 us (+ 8 B at 87.7 GB/s). */
	gp_perf_coll_eval(GP_COLL_ALLREDUCE, GP_ALGO_AUTO, &f, 8, &r);
	CU_ASSERT_EQUAL(r.proto, GP_PROTO_LL);
	CU_ASSERT_DOUBLE_EQUAL(r.time_s, 15.0e-6 + 1.75 * 8 / 87.7e9, 1e-12);
	/* Four of them still see all 12 links: 240, not 3 x 240. */
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_ring_gbs(&t, &a100, all8, 4, NULL, NULL, NULL), 240.0, 1e-9);
	free(t.links);
}

/* 8 x H100 (NV18): 18 x 20.6 = 370.8 GB/s; ring, Simple:
 * t = 1.75e9 / 370.8e9 + 56 us + 13 x 512 KiB / 370.8e9 (one channel's
 * link unknown: the ring's).  With NVSwitch and Hopper, NVLS: algbw =
 * 0.85 x 370.8 x 7/8 = 275.78 GB/s, busbw ~480 (NVIDIA/nccl-tests#212),
 * and NCCL's NVLS latency, 25 us (no base latency). */
static void test_ring_nv18(void)
{
	gp_topo t;
	gp_perf_fabric f = { 0 };
	gp_perf_coll_result r;

	topo_uniform(&t, 8, (gp_link){ GP_LINK_NV, 18 });
	f.n = 8, f.nodes = 1, f.per_node = 8;
	f.bw_intra = gp_perf_ring_gbs(&t, &h100, all8, 8, NULL, NULL, NULL);
	CU_ASSERT_DOUBLE_EQUAL(f.bw_intra, 370.8, 1e-9);
	f.alpha_intra = GP_PERF_ALPHA_NVLINK_S;
	gp_perf_coll_eval(GP_COLL_ALLREDUCE, GP_ALGO_AUTO, &f, 1e9, &r);
	CU_ASSERT_EQUAL(r.algo, GP_ALGO_RING);
	CU_ASSERT_DOUBLE_EQUAL(r.time_s, 1.75e9 / 370.8e9 + 56e-6 + 13 * 524288 / 370.8e9, 1e-12);
	CU_ASSERT(fabs(r.busbw_gbps - 370) / 370 < 0.25);
	f.arch = 9, f.nvswitch = 1, f.bw_gpu_nvl = 370.8;
	gp_perf_coll_eval(GP_COLL_ALLREDUCE, GP_ALGO_AUTO, &f, 1e9, &r);
	CU_ASSERT_EQUAL(r.algo, GP_ALGO_NVLS);
	CU_ASSERT_DOUBLE_EQUAL(r.time_s, 1e9 / (0.85 * 370.8e9 * 7 / 8) + 25e-6 +
				       2 * 524288 / 370.8e9, 1e-12);
	CU_ASSERT(fabs(r.busbw_gbps - 480) / 480 < 0.05);
	/* Two GPUs: NVLS moves half the buffer at 0.85 x 370.8: the ring wins. */
	f.n = 2, f.per_node = 2;
	gp_perf_coll_eval(GP_COLL_ALLREDUCE, GP_ALGO_AUTO, &f, 1e9, &r);
	CU_ASSERT_EQUAL(r.algo, GP_ALGO_RING);
	/* All-to-all on 8 GPUs: each GPU sends 7/8 of 1 GB at 370.8 GB/s,
	 * latency 8.4 + 7 x 3.4 us; sendrecv of 1 GB to one peer. */
	f.n = 8, f.per_node = 8;
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_coll_time(GP_COLL_ALLTOALL, GP_ALGO_P2P, &f, 1e9),
			       0.875e9 / 370.8e9 + 32.2e-6, 1e-12);
	f.bw_p2p = 370.8;
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_coll_time(GP_COLL_SENDRECV, GP_ALGO_P2P, &f, 1e9),
			       1e9 / 370.8e9 + 11.8e-6, 1e-12);
	free(t.links);
}

/* Send/recv protocol and the alltoall across nodes, as NCCL runs them:
 * 2 nodes x 8 H100, 48.5 GB/s of NIC per GPU.  16 MiB alltoall: 1 MiB a
 * peer, over the LL threshold (16 KiB): Simple, never LL128.  Time: the
 * NIC carries 8/16 of the buffer, 8388608 B / 48.5 GB/s; latency 8.4
 * (base) + 7 x 3.4 (NVLink peers in turn) + 14 (the network, once: the
 * other node's peers run side by side) + 8 x 3 x 1 us (the proxy
 * launches each network peer, NCCL's overhead x3 for Simple) = 70.2 us.
 * 128 KiB: 8 KiB a peer, LL: 6.6 + 7 x 0.6 + 2.7 + 8 x 1 = 21.5 us, the
 * NIC at half its rate (LL) = 24.25 GB/s for 65536 B. */
static void test_p2p_protocol(void)
{
	gp_perf_fabric f = { 0 };
	gp_perf_coll_result r;

	f.n = 16, f.nodes = 2, f.per_node = 8, f.arch = 9, f.nvswitch = 1;
	f.bw_intra = f.bw_gpu_nvl = f.bw_p2p = 370.8;
	f.bw_gpu_net = 48.5, f.bw_node_net = 8 * 48.5;
	f.intra_hw = GP_PERF_HW_NVLINK, f.alpha_intra = GP_PERF_ALPHA_NVLINK_S;
	gp_perf_coll_eval(GP_COLL_ALLTOALL, GP_ALGO_AUTO, &f, 16777216, &r);
	CU_ASSERT_EQUAL(r.algo, GP_ALGO_P2P);
	CU_ASSERT_EQUAL(r.proto, GP_PROTO_SIMPLE);
	CU_ASSERT_DOUBLE_EQUAL(r.lat_s, 70.2e-6, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(r.time_s, 70.2e-6 + 8388608 / 48.5e9, 1e-12);
	gp_perf_coll_eval(GP_COLL_ALLTOALL, GP_ALGO_AUTO, &f, 131072, &r);
	CU_ASSERT_EQUAL(r.proto, GP_PROTO_LL);
	CU_ASSERT_DOUBLE_EQUAL(r.time_s, 21.5e-6 + 65536 / 24.25e9, 1e-12);
	/* sendrecv: 16 KiB to the next rank is LL, one byte more Simple. */
	gp_perf_coll_eval(GP_COLL_SENDRECV, GP_ALGO_AUTO, &f, 16384, &r);
	CU_ASSERT_EQUAL(r.proto, GP_PROTO_LL);
	gp_perf_coll_eval(GP_COLL_SENDRECV, GP_ALGO_AUTO, &f, 16385, &r);
	CU_ASSERT_EQUAL(r.proto, GP_PROTO_SIMPLE);
	gp_perf_coll_eval(GP_COLL_SENDRECV, GP_ALGO_AUTO, &f, 1 << 30, &r);
	CU_ASSERT_EQUAL(r.proto, GP_PROTO_SIMPLE);
}

/* 4 Gen3 GPUs, two PCIe switches joined across sockets: 0-1 PIX, 2-3 PIX,
 * the rest SYS.  Any ring crosses SYS: min(0.8 x 12, 16) = 9.6 GB/s.
 * t = 2*3/4 * 1e9 / 9.6e9 + 8.4 + 6 * 5.7 us + 5 hops x 512 KiB / 9.6e9. */
static void test_ring_pcie(void)
{
	gp_topo t;
	gp_perf_fabric f = { 0 };
	gp_link hop;
	int a, b;

	topo_uniform(&t, 4, (gp_link){ GP_LINK_SYS, 0 });
	set_link(&t, 0, 1, (gp_link){ GP_LINK_PIX, 0 });
	set_link(&t, 2, 3, (gp_link){ GP_LINK_PIX, 0 });
	f.n = 4, f.nodes = 1, f.per_node = 4;
	f.bw_intra = gp_perf_ring_gbs(&t, &pcie3, all8, 4, &a, &b, &hop);
	CU_ASSERT_DOUBLE_EQUAL(f.bw_intra, 9.6, 1e-9);
	CU_ASSERT_EQUAL(hop.level, GP_LINK_SYS);
	CU_ASSERT_EQUAL(a, 0);
	CU_ASSERT_EQUAL(b, 2);
	f.alpha_intra = GP_PERF_ALPHA_PCIE_S;
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_coll_time(GP_COLL_ALLREDUCE, GP_ALGO_RING, &f, 1e9),
			       0.15625 + 42.6e-6 + 5 * 524288 / 9.6e9, 1e-12);
	/* The pair on one switch: 12 GB/s, t = 1e9/12e9 + 8.4 + 2 * 5.7 us
	 * + one chunk. */
	f.n = 2, f.per_node = 2;
	f.bw_intra = gp_perf_ring_gbs(&t, &pcie3, all8, 2, NULL, NULL, NULL);
	CU_ASSERT_DOUBLE_EQUAL(f.bw_intra, 12.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_coll_time(GP_COLL_ALLREDUCE, GP_ALGO_RING, &f, 1e9),
			       1e9 / 12e9 + 19.8e-6 + 524288 / 12e9, 1e-12);
	/* All-gather of the same 1e9 total: (n-1)/n S/B + base + (n-1) alpha. */
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_coll_time(GP_COLL_ALLGATHER, GP_ALGO_RING, &f, 1e9),
			       0.5e9 / 12e9 + 14.1e-6, 1e-12);
	/* Consumer cards have no P2P: the PIX pair is staged through host
	 * memory, 0.8 x 12 = 9.6 on each GPU's own link, but both GPUs sit
	 * under one switch: GPU0's flow to GPU1 and GPU1's to GPU0 both go
	 * up its uplink (and both come down it), 12 / 2 = 6.  A broadcast
	 * from GPU0 sends one way only: 9.6. */
	{
		static const gp_gpu_model rtx = { .name = "RTX-4090", .pcie_gen = 3, .pcie_lanes = 16 };
		double bc = 0;

		CU_ASSERT(gp_perf_is_consumer(&rtx));
		CU_ASSERT_DOUBLE_EQUAL(gp_perf_ring_gbs(&t, &rtx, all8, 2, NULL, NULL, NULL), 6.0,
				       1e-9);
		CU_ASSERT_DOUBLE_EQUAL(gp_perf_ring_gbs_bcast(&t, &rtx, all8, 2, NULL, NULL, NULL, &bc),
				       6.0, 1e-9);
		CU_ASSERT_DOUBLE_EQUAL(bc, 9.6, 1e-9);
		/* GPU0 and GPU2 (SYS, no switch in common): each GPU's own
		 * link, min(9.6, 16) both ways. */
		{
			static const int pair[2] = { 0, 2 };

			CU_ASSERT_DOUBLE_EQUAL(gp_perf_ring_gbs_bcast(&t, &rtx, pair, 2, NULL, NULL,
								      NULL, &bc), 9.6, 1e-9);
			CU_ASSERT_DOUBLE_EQUAL(bc, 9.6, 1e-9);
		}
		t.p2p_mode = GP_P2P_ON; /* a P2P-enabled driver */
		CU_ASSERT_DOUBLE_EQUAL(gp_perf_ring_gbs(&t, &rtx, all8, 2, NULL, NULL, NULL), 12.0,
				       1e-9);
		t.p2p_mode = GP_P2P_DEFAULT;
	}
	free(t.links);
}

/* Host staging per collective and direction.  Four RTX 4090 (Gen4:
 * PCIe 24, staged 0.8 x 24 = 19.2 on a GPU's own link) at NODE of each
 * other, no switch in common.
 * - One NUMA node whose memory gives staged traffic 100 GB/s: a ring
 *   all-reduce stages all four hops into it, each byte written and read,
 *   8 r <= 100, r = 12.5; a broadcast from GPU0 leaves the hop into it
 *   idle, 6 r <= 100, r = 16.67.  Without host_mem_gbs: 19.2 both.
 * - Two NUMA nodes (GPUs 0-1, 2-3; SYS across at socket_gbs 40, so a SYS
 *   pair is 19.2 too) at 60 GB/s each: the ring crosses once each way,
 *   each node receives two hops, 4 r <= 60, r = 15; broadcast from GPU0:
 *   node 0 receives one hop (GPU1's), node 1 two, r = 15 still.
 * - Bus times: 2 GPUs, 1e9 B, ring through host memory (SHM step 1.8 x
 *   5.7 us): all-reduce at 12.5 GB/s takes 1e9 / 12.5e9 + (8.4 + 2 x
 *   10.26) us + one 512 KiB chunk at 12.5; broadcast at 16.67: 1e9 /
 *   16.67e9 + (8.4 + 10.26) us. */
static void test_ring_host_staging(void)
{
	static const gp_gpu_model rtx = { .name = "RTX-4090", .pcie_gen = 4, .pcie_lanes = 16 };
	gp_topo_gpu g[4];
	gp_topo t;
	gp_perf_fabric f = { 0 };
	double bc = 0;
	int i;

	topo_uniform(&t, 4, (gp_link){ GP_LINK_NODE, 0 });
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_ring_gbs_bcast(&t, &rtx, all8, 4, NULL, NULL, NULL, &bc),
			       19.2, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(bc, 19.2, 1e-9);
	t.host_mem_gbs = 100;
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_ring_gbs_bcast(&t, &rtx, all8, 4, NULL, NULL, NULL, &bc),
			       12.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(bc, 100.0 / 6, 1e-9);
	/* two GPUs: all-reduce both ways 4 r <= 100 -> 25, above 19.2 */
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_ring_gbs(&t, &rtx, all8, 2, NULL, NULL, NULL), 19.2, 1e-9);

	memset(g, 0, sizeof(g));
	for (i = 0; i < 4; i++)
		g[i].numa = i / 2;
	t.gpus = g;
	set_link(&t, 0, 2, (gp_link){ GP_LINK_SYS, 0 });
	set_link(&t, 0, 3, (gp_link){ GP_LINK_SYS, 0 });
	set_link(&t, 1, 2, (gp_link){ GP_LINK_SYS, 0 });
	set_link(&t, 1, 3, (gp_link){ GP_LINK_SYS, 0 });
	t.socket_gbs = 40;
	t.host_mem_gbs = 60;
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_ring_gbs_bcast(&t, &rtx, all8, 4, NULL, NULL, NULL, &bc),
			       15.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(bc, 15.0, 1e-9);
	t.gpus = NULL;
	free(t.links);

	/* A100s in an NV2 square with the diagonals on PCIe without peer
	 * access (NODE): the ring takes the NVLinks only, nothing staged;
	 * NCCL's channels use each GPU's 4 links, 80 GB/s, broadcast too. */
	topo_uniform(&t, 4, (gp_link){ GP_LINK_NODE, 0 });
	for (i = 0; i < 4; i++)
		set_link(&t, i, (i + 1) % 4, (gp_link){ GP_LINK_NV, 2 });
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_ring_gbs_bcast(&t, &a100, all8, 4, NULL, NULL, NULL, &bc),
			       80.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(bc, 80.0, 1e-9);
	free(t.links);

	f.n = 2, f.nodes = 1, f.per_node = 2, f.intra_hw = GP_PERF_HW_PCI, f.intra_shm = 1;
	f.bw_intra = 12.5, f.bw_intra_bcast = 100.0 / 6;
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_coll_time(GP_COLL_ALLREDUCE, GP_ALGO_RING, &f, 1e9),
			       1e9 / 12.5e9 + 28.92e-6 + 524288 / 12.5e9, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_coll_time(GP_COLL_BROADCAST, GP_ALGO_RING, &f, 1e9),
			       1e9 / (100.0 / 6 * 1e9) + 18.66e-6, 1e-12);
	/* a fabric that gives no broadcast figure: bw_intra for both */
	f.bw_intra_bcast = 0;
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_coll_time(GP_COLL_BROADCAST, GP_ALGO_RING, &f, 1e9),
			       1e9 / 12.5e9 + 18.66e-6, 1e-12);
}

/* DGX-1V hybrid cube mesh: {0,1,2,3} with 0-3 NV2, 1-2 NV2, 0-1 NV1,
 * 0-2 NV1, 1-3 NV1, 2-3 NV1 (each GPU 4 links here).  A ring exists on
 * NVLink, so NCCL's channels use every link: 4 x 20 = 80 GB/s. */
static void test_ring_cube_mesh(void)
{
	static const gp_gpu_model v100 = {
		.name = "V100-SXM2-32GB", .nvlink_gen = 2, .nvlink_gbs_per_link = 25,
		.nvlink_links = 6, .pcie_gen = 3, .pcie_lanes = 16,
	};
	static const int three[3] = { 0, 1, 4 };
	gp_topo t;
	gp_link hop;
	int a, b;

	topo_uniform(&t, 8, (gp_link){ GP_LINK_SYS, 0 });
	set_link(&t, 0, 3, (gp_link){ GP_LINK_NV, 2 });
	set_link(&t, 1, 2, (gp_link){ GP_LINK_NV, 2 });
	set_link(&t, 0, 1, (gp_link){ GP_LINK_NV, 1 });
	set_link(&t, 0, 2, (gp_link){ GP_LINK_NV, 1 });
	set_link(&t, 1, 3, (gp_link){ GP_LINK_NV, 1 });
	set_link(&t, 2, 3, (gp_link){ GP_LINK_NV, 1 });
	set_link(&t, 0, 4, (gp_link){ GP_LINK_NV, 2 });
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_ring_gbs(&t, &v100, all8, 4, NULL, NULL, NULL), 80.0, 1e-9);
	/* {0,1,4}: 1-4 is SYS, so the ring needs it: min(0.8 x 12, 16). */
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_ring_gbs(&t, &v100, three, 3, &a, &b, &hop), 9.6, 1e-9);
	CU_ASSERT_EQUAL(hop.level, GP_LINK_SYS);
	CU_ASSERT_EQUAL(a, 1);
	CU_ASSERT_EQUAL(b, 4);
	free(t.links);
}

/* Two DGX-A100 nodes, 8 x HDR 200 Gb/s each (1.6 Tb/s): NICs 8 x 23.5 =
 * 188 GB/s < 240 NVLink.  Ring over 16 ranks, 2 inter-node steps, Simple:
 * t = 2*15/16 * 1e9 / 188e9 + 1.4 x (8.4 + 28 x 3.4 + 2 x 14) us (NCCL's
 * multi-node ring plateau) + 16 hops x 512 KiB / 188e9. */
static void test_two_nodes(void)
{
	gp_perf_fabric f = { 0 };
	gp_perf_coll_result r;
	double t_ring = 1.875e9 / 188e9 + 1.4 * 131.6e-6 + 16 * 524288 / 188e9;
	double t_hier;

	f.n = 16, f.nodes = 2, f.per_node = 8;
	f.bw_intra = 240.0;
	f.bw_node_net = 8 * gp_perf_nic_gbs(200);
	f.alpha_intra = GP_PERF_ALPHA_NVLINK_S;
	f.alpha_inter = GP_PERF_ALPHA_NET_S;
	gp_perf_coll_eval(GP_COLL_ALLREDUCE, GP_ALGO_RING, &f, 1e9, &r);
	CU_ASSERT_DOUBLE_EQUAL(r.time_s, t_ring, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(r.bw_gbps, 188.0, 1e-9);
	CU_ASSERT(fabs(r.busbw_gbps - 192) / 192 < 0.25);
	/* Hierarchical: 2 x (7/8 * 1e9/240e9 + 7 * 3.4 us + 1/2 * 1e9/188e9
	 * + 14 us) = 12.686 ms: slower than the ring, so auto keeps the ring. */
	t_hier = 2 * (0.875e9 / 240e9 + 7 * 3.4e-6 + 0.5e9 / 188e9 + 14e-6);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_coll_time(GP_COLL_ALLREDUCE, GP_ALGO_HIER, &f, 1e9),
			       t_hier, 1e-12);
	gp_perf_coll_eval(GP_COLL_ALLREDUCE, GP_ALGO_AUTO, &f, 1e9, &r);
	CU_ASSERT_EQUAL(r.algo, GP_ALGO_RING);
	/* Tree, LL128 (Ampere): half of min(0.9 x 240, 130) x 120/128 =
	 * 60.94 GB/s; 14 + 2 (7 x 1.25 + 8.5) us; 16 hops of fill. */
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_coll_time(GP_COLL_ALLREDUCE, GP_ALGO_TREE, &f, 1e9),
			       1e9 / (0.5 * 130e9 * 120 / 128) + 48.5e-6 + 16 * 524288 / 188e9,
			       1e-12);
	/* One 100 Gb/s NIC per node: across two nodes the tree moves the
	 * buffer through the NIC at 0.6 of it (7.05 GB/s), the ring 1.875
	 * times at all of it: the tree wins (NCCL's choice on two nodes);
	 * the hierarchical one is never picked by auto. */
	f.bw_node_net = gp_perf_nic_gbs(100);
	gp_perf_coll_eval(GP_COLL_ALLREDUCE, GP_ALGO_AUTO, &f, 1e9, &r);
	CU_ASSERT_EQUAL(r.algo, GP_ALGO_TREE);
	CU_ASSERT_EQUAL(r.proto, GP_PROTO_SIMPLE); /* LL128 loses 8/128 of the NIC */
	CU_ASSERT_DOUBLE_EQUAL(r.time_s, 1e9 / 7.05e9 + 92.4e-6 + 16 * 524288 / 11.75e9, 1e-12);
	/* Three nodes: inner tree nodes carry the buffer twice; the ring. */
	f.n = 24, f.nodes = 3;
	gp_perf_coll_eval(GP_COLL_ALLREDUCE, GP_ALGO_AUTO, &f, 1e9, &r);
	CU_ASSERT_EQUAL(r.algo, GP_ALGO_RING);
}

/* Two Hopper nodes of 4 GPUs, 300 GB/s rings inside, 4 x 400 Gb/s NICs
 * (4 x 48.5 = 194 GB/s) each.  The tree's own bound is half of 0.9 x 300
 * = 135 GB/s; across two nodes it reaches 0.6 x 194 = 116.4 GB/s of algbw
 * (busbw 2 x 7/8 x 116.4 = 203.7, 1.05 x the NICs), not the NICs' 194
 * (busbw 1.75 x them).  Simple: 8.4 + 2 (3 x 4.0 + 1 x 14) us, 8 hops of
 * fill on the 194 GB/s ring.  NVLS-tree under the same two-node bound:
 * 25 + 2 x 14 us. */
static void test_two_node_tree_cap(void)
{
	gp_perf_fabric f = { 0 };
	gp_perf_coll_result r;
	double b = 1073741824.0;

	f.n = 8, f.nodes = 2, f.per_node = 4;
	f.bw_intra = 300.0;
	f.bw_node_net = 194.0;
	f.arch = 9;
	f.intra_hw = GP_PERF_HW_NVLINK;
	f.alpha_intra = GP_PERF_ALPHA_NVLINK_S;
	f.alpha_inter = GP_PERF_ALPHA_NET_S;
	gp_perf_coll_eval(GP_COLL_ALLREDUCE, GP_ALGO_TREE, &f, b, &r);
	CU_ASSERT_EQUAL(r.proto, GP_PROTO_SIMPLE);
	CU_ASSERT_DOUBLE_EQUAL(r.time_s, 60.4e-6 + b / 116.4e9 + 8 * 524288 / 194e9, 1e-12);
	CU_ASSERT(r.busbw_gbps < 1.2 * 194.0);
	f.nvswitch = 1;
	f.bw_gpu_nvl = 18 * 20.6;
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_coll_time(GP_COLL_ALLREDUCE, GP_ALGO_NVLSTREE, &f, b),
			       53.0e-6 + b / 116.4e9, 1e-12);
}

/* A fabric of `nodes` NVLink nodes of ppn GPUs (intra GB/s rings), each
 * reaching the network through nics NICs of net GB/s in all. */
static gp_perf_fabric net_fabric(int nodes, int ppn, double intra, double net, int nics, int arch)
{
	gp_perf_fabric f = { 0 };

	f.n = nodes * ppn, f.nodes = nodes, f.per_node = ppn;
	f.bw_intra = intra;
	f.bw_node_net = net;
	f.net_nics = nics;
	f.arch = arch;
	f.intra_hw = GP_PERF_HW_NVLINK;
	f.alpha_intra = GP_PERF_ALPHA_NVLINK_S;
	f.alpha_inter = GP_PERF_ALPHA_NET_S;
	return f;
}

/* NCCL's tree across nodes moves at most its per-channel figure on each
 * channel, a channel per NIC (src/graph/tuning.cc, search.cc).  Two
 * Ampere nodes of 8 GPUs (240 GB/s rings), 4 HDR NICs each (4 x 23.5 =
 * 94 GB/s; below 25 GB/s a NIC, so 4 channels): the tree's bus bandwidth
 * is min(0.92 x 240, 4 x 23.6) = 94.4, algbw 47.2 (under the two-node
 * NIC bound 0.6 x 94 = 56.4); busbw 47.2 x 15/8 = 88.5 < the ring's 94,
 * so auto takes the ring, as NCCL's own tuning does there.  8 GiB (no
 * size correction): 8.4 + 2 (7 x 4.0 + 14) us, 16 hops of fill on the
 * 94 GB/s ring. */
static void test_tree_channels(void)
{
	gp_perf_fabric f = net_fabric(2, 8, 240.0, 94.0, 4, 8);
	gp_perf_coll_result r;
	double b = 8589934592.0;

	gp_perf_coll_eval(GP_COLL_ALLREDUCE, GP_ALGO_TREE, &f, b, &r);
	CU_ASSERT_EQUAL(r.proto, GP_PROTO_SIMPLE);
	CU_ASSERT_DOUBLE_EQUAL(r.time_s, 92.4e-6 + b / 47.2e9 + 16 * 524288 / 94e9, 1e-12);
	gp_perf_coll_eval(GP_COLL_ALLREDUCE, GP_ALGO_AUTO, &f, b, &r);
	CU_ASSERT_EQUAL(r.algo, GP_ALGO_RING);
	/* Eight 400 Gb/s NICs on Hopper (8 x 48.5): 48.5 >= 25 but more than
	 * four below 50, so no doubling: 8 x 41.4 = 331.2 against 0.92 x
	 * 300; algbw half of 276. */
	f.bw_intra = 300.0, f.bw_node_net = 388.0, f.net_nics = 8, f.arch = 9;
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_coll_time(GP_COLL_ALLREDUCE, GP_ALGO_TREE, &f, b),
			       92.4e-6 + b / 138e9 + 16 * 524288 / 300e9, 1e-12);
	/* Four of them: doubled to 8 channels, 8 x 41.4 against 0.92 x 400,
	 * algbw 165.6; the two-node NIC bound 0.6 x 194 = 116.4 binds (on
	 * four channels it would be 82.8). */
	f.bw_node_net = 194.0, f.net_nics = 4, f.bw_intra = 400.0;
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_coll_time(GP_COLL_ALLREDUCE, GP_ALGO_TREE, &f, b),
			       92.4e-6 + b / 116.4e9 + 16 * 524288 / 194e9, 1e-12);
}

/* NVLS-tree across two Hopper nodes: 8 GPUs on NVSwitches each (18 x
 * 20.6 GB/s NVLink), 8 x 400 Gb/s NICs (8 x 48.5 GB/s): a channel per
 * NIC, each min(2 x 48.5, 57.7) (NCCL's two-node NVLS-tree figure), so
 * busbw 8 x 57.7 = 461.6 and algbw 461.6 x 16 / 30 = 246.19, under NVLS
 * inside the node (0.85 x 370.8 x 7/8 = 275.8).  NCCL's latency: 25 us
 * on NVLink, 14 across the network per level each way: 25 + 2 x 14 us.
 * One NIC a node: one channel, and NCCL wants two. */
static void test_nvlstree_channels(void)
{
	gp_perf_fabric f = net_fabric(2, 8, 370.8, 388.0, 8, 9);
	gp_perf_coll_result r;
	double b = 8589934592.0;

	f.nvswitch = 1;
	f.bw_gpu_nvl = 18 * 20.6;
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_coll_time(GP_COLL_ALLREDUCE, GP_ALGO_NVLSTREE, &f, b),
			       53.0e-6 + b / (461.6e9 * 16 / 30), 1e-12);
	gp_perf_coll_eval(GP_COLL_ALLREDUCE, GP_ALGO_AUTO, &f, b, &r);
	CU_ASSERT_EQUAL(r.algo, GP_ALGO_NVLSTREE);
	/* Four nodes: each channel at most its NIC, NCCL's figure 45.5;
	 * two levels: 25 + 4 x 14 us. */
	f.n = 32, f.nodes = 4;
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_coll_time(GP_COLL_ALLREDUCE, GP_ALGO_NVLSTREE, &f, b),
			       81.0e-6 + b / (8 * 45.5e9 * 32 / 62), 1e-12);
	/* Sixteen 200 Gb/s ports, two at each GPU (16 x 23.5 = 376): still
	 * a channel per GPU, each over both of its ports: min(2 x 47, 57.7),
	 * the same 461.6 (one port a channel would give 8 x 47 = 376). */
	f.n = 16, f.nodes = 2, f.bw_node_net = 376.0, f.net_nics = 16;
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_coll_time(GP_COLL_ALLREDUCE, GP_ALGO_NVLSTREE, &f, b),
			       53.0e-6 + b / (461.6e9 * 16 / 30), 1e-12);
	f.bw_node_net = 48.5, f.net_nics = 1;
	CU_ASSERT(gp_perf_coll_time(GP_COLL_ALLREDUCE, GP_ALGO_NVLSTREE, &f, b) < 0);
}

/* Eight 200 Gb/s NICs a node (8 x 23.5 = 188 GB/s), two Hopper nodes of
 * 8 GPUs on NVSwitches: NCCL's channels give each NIC min(2 x 23.5,
 * 57.7) = 47, busbw 8 x 47 = 376 and algbw 376 x 16/30 = 200.5, more than
 * the 188 a node can send: each node must send its partial sum (the whole
 * buffer) to the other once, so algbw is 188 (busbw 352.5), 25 + 2 x 14
 * us.  On four nodes each sends 6/4 of the buffer (bound 188 x 4/6 =
 * 125.3), which the channels (8 x 23.5 x 32/62 = 97.0) stay under. */
static void test_nvlstree_node_bound(void)
{
	gp_perf_fabric f = net_fabric(2, 8, 370.8, 188.0, 8, 9);
	gp_perf_coll_result r;
	double b = 8589934592.0;

	f.nvswitch = 1;
	f.bw_gpu_nvl = 18 * 20.6;
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_coll_time(GP_COLL_ALLREDUCE, GP_ALGO_NVLSTREE, &f, b),
			       53.0e-6 + b / 188e9, 1e-12);
	gp_perf_coll_eval(GP_COLL_ALLREDUCE, GP_ALGO_NVLSTREE, &f, b, &r);
	CU_ASSERT(r.busbw_gbps < 188.0 * 30 / 16);
	f.n = 32, f.nodes = 4;
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_coll_time(GP_COLL_ALLREDUCE, GP_ALGO_NVLSTREE, &f, b),
			       81.0e-6 + b / (8 * 23.5e9 * 32 / 62), 1e-12);
}

/* Latencies across nodes as NCCL's tuning has them.  One A100 on each of
 * two nodes, 8 bytes: a ring of 2 ranks, 2 steps both across the network;
 * with one GPU a node nothing hides the network's latency, so NCCL
 * prices those steps at the tree's network figure: LL 6.6 + 2 x 5.0 =
 * 16.6 us (the ring's own 2.7 would say 12.0).  Two nodes of 8: the 14
 * steps inside the nodes cost at least NCCL's 1 us network overhead each
 * (its proxy launches every step's network operation), not LL's 0.6 on
 * NVLink: 6.6 + 28 x 1.0 + 2 x 2.7 = 40 us. */
static void test_net_latency(void)
{
	gp_perf_fabric f = net_fabric(2, 1, 5000.0, 23.5, 1, 8);
	gp_perf_coll_result r;

	gp_perf_coll_eval(GP_COLL_ALLREDUCE, GP_ALGO_RING, &f, 8, &r);
	CU_ASSERT_EQUAL(r.proto, GP_PROTO_LL);
	CU_ASSERT_DOUBLE_EQUAL(r.lat_s, 16.6e-6, 1e-12);
	f.n = 16, f.per_node = 8, f.bw_intra = 240.0, f.bw_node_net = 188.0, f.net_nics = 8;
	gp_perf_coll_eval(GP_COLL_ALLREDUCE, GP_ALGO_RING, &f, 8, &r);
	CU_ASSERT_EQUAL(r.proto, GP_PROTO_LL);
	CU_ASSERT_DOUBLE_EQUAL(r.lat_s, 40.0e-6, 1e-12);
}

/* NCCL's tree correction by size (NCCL 2.18 on): 4 MiB is log2(4 MiB /
 * 64) = 16, LL128 0.8 and Simple 0.7.  One H100 per node, one 400 Gb/s
 * NIC: LL128 at 48.5 x 120/128 x 0.8 = 36.375 GB/s, 14 + 2 x 8.5 us,
 * fill of 2 hops at 512 KiB / 48.5e9. */
static void test_tree_correction(void)
{
	gp_perf_fabric f = net_fabric(2, 1, 5000.0, 48.5, 1, 9);
	double b = 4194304.0;

	CU_ASSERT_DOUBLE_EQUAL(gp_perf_coll_time(GP_COLL_ALLREDUCE, GP_ALGO_TREE, &f, b),
			       31e-6 + b / 36.375e9 + 2 * 524288 / 48.5e9, 1e-12);
}

/* PS, 4 workers on 4 nodes with one 100 Gb/s NIC each (11.75 GB/s), one
 * server with the same NIC: the server receives 4 S: 2 (4e9/11.75e9 + 14 us). */
static void test_ps(void)
{
	gp_perf_fabric f = { 0 };

	f.n = 4, f.nodes = 4, f.per_node = 1;
	f.bw_intra = 5000;
	f.bw_node_net = 11.75;
	f.alpha_inter = 14e-6;
	f.ps = 1;
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_coll_time(GP_COLL_ALLREDUCE, GP_ALGO_PS, &f, 1e9),
			       2 * (4e9 / 11.75e9 + 14e-6), 1e-12);
	f.ps = 4; /* four servers: each worker's own link limits, S/B */
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_coll_time(GP_COLL_ALLREDUCE, GP_ALGO_PS, &f, 1e9),
			       2 * (1e9 / 11.75e9 + 14e-6), 1e-12);
}

static void test_profile_step(void)
{
	/* c0 0.1, c1 0.01, a_intra 1 ms, W_intra 0.2, a_inter 5 ms, W_inter
	 * 0.5, overlap 0.5, contend 0.1, no solo, linear contention, no
	 * communication contention. */
	const double p[GP_PP_NPARAMS] = { 0.1, 0.01, 1e-3, 0.2, 5e-3, 0.5, 0.5, 0.1, 0, 1, 0 };
	double c, t, e;

	/* 1 GPU, bsz 10: compute 0.2, no comm. */
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_profile_step(p, 1, 1, 1, 10, &c, &t, &e), 0.2, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(t, 0.0, 1e-12);
	/* 4 GPUs on one node: compute 0.2 x 1.3 = 0.26; comm 1.5 x 0.2 + 6 x
	 * 1 ms = 0.306; exposed 0.306 - 0.13 = 0.176; step 0.436. */
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_profile_step(p, 4, 1, 4, 10, &c, &t, &e), 0.436, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(c, 0.26, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(t, 0.306, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(e, 0.176, 1e-12);
	/* "22": 4 GPUs, 2 nodes: compute 0.2 x 1.1 = 0.22; comm 1.5 x 0.5 +
	 * 4 x 1 ms + 2 x 5 ms = 0.764; exposed 0.654; step 0.874. */
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_profile_step(p, 4, 2, 2, 10, NULL, NULL, NULL), 0.874, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_exposed(1.0, 0.3, 0.5), 0.0, 0);
}

/* The compute table: linear between profiled batch sizes, towards c0
 * below, c1 per sample (or constant throughput) above. */
static void test_profile_table(void)
{
	gp_perf_ctab t = { 3, { 4, 8, 16 }, { 0.2, 0.3, 0.5 } };
	/* solo 0.05, contend 0.1, cexp 0.5, ccomm 0.2; W_intra 0.2, a_intra
	 * 1 ms, overlap 0.5. */
	double p[GP_PP_NPARAMS] = { 0.1, 0.02, 1e-3, 0.2, 5e-3, 0.5, 0.5, 0.1, 0.05, 0.5, 0.2 };
	double c, m, e, k = sqrt(3.0);

	CU_ASSERT_DOUBLE_EQUAL(gp_perf_ctab_compute(&t, p, 8), 0.3, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_ctab_compute(&t, p, 12), 0.4, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_ctab_compute(&t, p, 4), 0.2, 1e-12);
	/* below: from (0, c0 = 0.1) to (4, 0.2) */
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_ctab_compute(&t, p, 2), 0.15, 1e-12);
	/* above: 0.5 + 4 x 0.02 */
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_ctab_compute(&t, p, 20), 0.58, 1e-12);
	p[GP_PP_C1] = 0; /* constant throughput: 0.5 x 20/16 */
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_ctab_compute(&t, p, 20), 0.625, 1e-12);
	p[GP_PP_C1] = 0.02;
	/* no table: the line, 0.1 + 0.02 x 12 */
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_ctab_compute(NULL, p, 12), 0.34, 1e-12);
	/* 1 GPU at bsz 12: the table's 0.4, no solo deduction, no comm. */
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_profile_step_tab(&t, p, 1, 1, 1, 12, &c, &m, &e), 0.4, 1e-12);
	/* 4 GPUs on one node at bsz 12: K = 3^0.5; compute (0.4 - 0.05) x
	 * (1 + 0.1 K); comm (1.5 x 0.2 + 6 x 1 ms) x (1 + 0.2 K); exposed
	 * comm - 0.5 compute. */
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_profile_step_tab(&t, p, 4, 1, 4, 12, &c, &m, &e),
			       0.35 * (1 + 0.1 * k) + 0.306 * (1 + 0.2 * k) -
				       0.5 * 0.35 * (1 + 0.1 * k), 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(c, 0.35 * (1 + 0.1 * k), 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(m, 0.306 * (1 + 0.2 * k), 1e-12);
	/* "1111": one GPU per node, no contention; comm 1.5 x 0.5 + 6 x 5 ms. */
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_profile_step_tab(&t, p, 4, 4, 1, 12, &c, &m, &e),
			       0.35 + (0.75 + 0.03) - 0.5 * 0.35, 1e-12);
}

/* tests/data/sia/yolov3/placements-dgx.csv, rows of placement "1":
 *   4,0.29219619929790497,0.0012643840089440344,1
 *   6,0.3288393020629883,0.0011077120006084443,1
 *   8,0.2990892678499222,0.001233791999518871,1
 * (yolov3's step time is not monotonic in the batch size). */
static void test_ctab_build(void)
{
	gp_perf_dataset d;
	gp_perf_ctab t;
	gp_error err = GP_ERROR_INIT;
	unsigned char *mask;
	double q[GP_PP_NPARAMS];
	int nfit;

	gp_perf_dataset_init(&d);
	CU_ASSERT_EQUAL_FATAL(gp_perf_dataset_load(gp_test_path("tests/data/sia/yolov3/placements-dgx.csv"),
						   &d, &err), GP_OK);
	CU_ASSERT_EQUAL_FATAL(gp_perf_ctab_build(&d, NULL, &t, &err), GP_OK);
	CU_ASSERT_EQUAL_FATAL(t.n, 3);
	CU_ASSERT_DOUBLE_EQUAL(t.bsz[0], 4, 0);
	CU_ASSERT_DOUBLE_EQUAL(t.bsz[2], 8, 0);
	CU_ASSERT_DOUBLE_EQUAL(t.compute[0], 0.29219619929790497 - 0.0012643840089440344, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(t.compute[1], 0.3288393020629883 - 0.0011077120006084443, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(t.compute[2], 0.2990892678499222 - 0.001233791999518871, 1e-15);
	/* The bound on this file (18.8 % with a compute line), all
	 * rows and held out; the held-out table comes from the training half
	 * ("1" sorts first, so it trains). */
	CU_ASSERT_EQUAL_FATAL(gp_perf_fit(&d, NULL, &t, q, &nfit, &err), GP_OK);
	CU_ASSERT_EQUAL(nfit, GP_PP_NPARAMS - 2);
	CU_ASSERT(gp_perf_mape(&d, NULL, 1, &t, q) < 15.0);
	mask = malloc(d.n);
	gp_perf_split_half(&d, mask);
	CU_ASSERT_EQUAL(mask[0], 1);
	CU_ASSERT_EQUAL_FATAL(gp_perf_ctab_build(&d, mask, &t, &err), GP_OK);
	CU_ASSERT_EQUAL(t.n, 3);
	CU_ASSERT_EQUAL_FATAL(gp_perf_fit(&d, mask, &t, q, &nfit, &err), GP_OK);
	CU_ASSERT(gp_perf_mape(&d, mask, 0, &t, q) < 15.0);
	free(mask);
	gp_perf_dataset_release(&d);
}

/* The measured compute with k GPUs on a node, by hand: single-GPU
 * compute (step - sync) 0.2 at batch 10 and 0.4 at 20;
 *   "2"  at 10: 0.50 - 0.28 = 0.22 -> 1.1;  "2" at 20: 0.90 - 0.46 = 0.44 -> 1.1
 *   "22" at 10: 0.60 - 0.36 = 0.24 -> 1.2   (two per node: k = 2, mean 3.4 / 3)
 *   "11" at 10: 0.30 - 0.12 = 0.18 -> 0.9   (one per node: k = 1)
 *   "4"  at 15: no single-GPU row at 15, left out (k = 4 stays 0)
 *   "8"  at 20: 1.00 - 0.20 = 0.80 -> 2.0
 * Without the "22" row (mask), k = 2 is 1.1. */
static void test_kcompute(void)
{
	static const struct {
		const char *pl;
		double bsz, step, sync;
	} rows[] = {
		{ "1", 10, 0.30, 0.10 }, { "1", 20, 0.45, 0.05 }, { "2", 10, 0.50, 0.28 },
		{ "2", 20, 0.90, 0.46 }, { "22", 10, 0.60, 0.36 }, { "11", 10, 0.30, 0.12 },
		{ "4", 15, 0.70, 0.10 }, { "8", 20, 1.00, 0.20 },
	};
	unsigned char mask[GP_ARRAY_SIZE(rows)];
	gp_perf_dataset d;
	gp_perf_ctab t;
	gp_perf_profile pr;
	gp_error err = GP_ERROR_INIT;
	double kc[GP_PERF_KMAX], c, k = pow(3.0, 0.5);
	size_t i;

	gp_perf_dataset_init(&d);
	d.path = gp_xstrdup("by hand");
	for (i = 0; i < GP_ARRAY_SIZE(rows); i++) {
		gp_perf_sample r;
		size_t q;

		memset(&r, 0, sizeof(r));
		snprintf(r.placement, sizeof(r.placement), "%s", rows[i].pl);
		r.nodes = (int)strlen(rows[i].pl);
		for (q = 0; rows[i].pl[q]; q++) {
			r.n += rows[i].pl[q] - '0';
			if (rows[i].pl[q] - '0' > r.per_node)
				r.per_node = rows[i].pl[q] - '0';
		}
		r.bsz = rows[i].bsz;
		r.step = rows[i].step;
		r.sync = rows[i].sync;
		GP_GROW(d.rows, d.cap, d.n + 1);
		d.rows[d.n++] = r;
		mask[i] = strcmp(rows[i].pl, "22") != 0;
	}
	CU_ASSERT_EQUAL_FATAL(gp_perf_ctab_build(&d, NULL, &t, &err), GP_OK);
	CU_ASSERT_EQUAL_FATAL(t.n, 2);
	gp_perf_kcompute_build(&d, NULL, &t, kc);
	CU_ASSERT_DOUBLE_EQUAL(kc[0], 0.9, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(kc[1], 3.4 / 3, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(kc[2], 0, 0);
	CU_ASSERT_DOUBLE_EQUAL(kc[3], 0, 0);
	CU_ASSERT_DOUBLE_EQUAL(kc[7], 2.0, 1e-12);
	gp_perf_kcompute_build(&d, mask, &t, kc);
	CU_ASSERT_DOUBLE_EQUAL(kc[1], 1.1, 1e-12);
	gp_perf_dataset_release(&d);

	/* A profile with that table and the ratios of all rows: one GPU
	 * alone has no ratio; four on a node take the nearest measured count
	 * below (2); one a node on several nodes 0.9; more than 8 on a node
	 * the ratio for 8. */
	memset(&pr, 0, sizeof(pr));
	pr.ctab = t;
	memcpy(pr.kcompute, (double[GP_PERF_KMAX]){ 0.9, 3.4 / 3, 0, 0, 0, 0, 0, 2.0 }, sizeof(pr.kcompute));
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_profile_compute(&pr, 1, 1, 10), 0.2, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_profile_compute(&pr, 4, 4, 10), 0.2 * 3.4 / 3, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_profile_compute(&pr, 4, 1, 20), 0.4 * 0.9, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_profile_compute(&pr, 16, 12, 20), 0.4 * 2.0, 1e-12);
	/* Only 7 measured: 3 on a node takes the nearest count above. */
	memcpy(pr.kcompute, (double[GP_PERF_KMAX]){ 0, 0, 0, 0, 0, 0, 1.5, 0 }, sizeof(pr.kcompute));
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_profile_compute(&pr, 3, 3, 10), 0.2 * 1.5, 1e-12);
	/* None measured: the fitted form, (0.2 - solo 0.05) x (1 + 0.1 x
	 * (4 - 1)^0.5). */
	memset(pr.kcompute, 0, sizeof(pr.kcompute));
	pr.p[GP_PP_SOLO] = 0.05;
	pr.p[GP_PP_CONTEND] = 0.1;
	pr.p[GP_PP_CEXP] = 0.5;
	c = gp_perf_profile_compute(&pr, 4, 4, 10);
	CU_ASSERT_DOUBLE_EQUAL(c, 0.15 * (1 + 0.1 * k), 1e-12);
}

static void test_gpu_names(void)
{
	CU_ASSERT(gp_perf_gpu_matches("A100-SXM4-40GB", "A100"));
	CU_ASSERT(gp_perf_gpu_matches("a100", "A100"));
	CU_ASSERT(!gp_perf_gpu_matches("A1000", "A100"));
	CU_ASSERT(gp_perf_gpu_matches("Quadro RTX 6000", "RTX6000"));
	CU_ASSERT(gp_perf_gpu_matches("GeForce RTX 2080 Ti", "RTX2080Ti"));
	CU_ASSERT(!gp_perf_gpu_matches("H100", "A100"));
	CU_ASSERT_PTR_NOT_NULL(gp_perf_profile_find("resnet50", "V100-SXM2-32GB"));
	CU_ASSERT_PTR_NULL(gp_perf_profile_find("resnet50", "H100"));
}

/* tests/data/sia/bert/placements-quad.csv, first data row:
 * "4,1,0.2128133624792099,0.006154426068067551" (local_bsz, placement,
 * step_time, sync_time); 28 rows. */
static void test_csv(void)
{
	gp_perf_dataset d;
	gp_error err = GP_ERROR_INIT;

	gp_perf_dataset_init(&d);
	CU_ASSERT_EQUAL_FATAL(gp_perf_dataset_load(gp_test_path("tests/data/sia/bert/placements-quad.csv"),
						   &d, &err), GP_OK);
	CU_ASSERT_EQUAL(d.n, 28);
	CU_ASSERT_DOUBLE_EQUAL(d.rows[0].bsz, 4, 0);
	CU_ASSERT_EQUAL(d.rows[0].n, 1);
	CU_ASSERT_DOUBLE_EQUAL(d.rows[0].step, 0.2128133624792099, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(d.rows[0].sync, 0.006154426068067551, 1e-15);
	gp_perf_dataset_release(&d);

	/* aws: different column order, multi-node placements like "1122". */
	CU_ASSERT_EQUAL_FATAL(gp_perf_dataset_load(gp_test_path("tests/data/sia/bert/placements-aws.csv"),
						   &d, &err), GP_OK);
	CU_ASSERT_EQUAL(d.n, 540);
	gp_perf_dataset_release(&d);

	CU_ASSERT_EQUAL(gp_perf_dataset_load(gp_test_path("tests/data/sia/no-such.csv"), &d, &err),
			GP_EIO);
}

/* Rows generated from known parameters: the fit must get them back to
 * within noise-free precision (MAPE ~ 0). */
static void test_fit_synthetic(void)
{
	const double p[GP_PP_NPARAMS] = { 0.05, 0.004, 2e-3, 0.08, 6e-3, 0.3, 0.4, 0.05,
					  0.01, 0.8, 0.1 };
	static const char *const places[] = { "1", "2", "4", "8", "11", "22", "44", "1248", "88", "12" };
	double q[GP_PP_NPARAMS];
	gp_perf_dataset d;
	gp_error err = GP_ERROR_INIT;
	size_t i, b;
	int nfit;

	gp_perf_dataset_init(&d);
	d.path = gp_xstrdup("synthetic");
	for (i = 0; i < GP_ARRAY_SIZE(places); i++)
		for (b = 0; b < 6; b++) {
			gp_perf_sample r;
			size_t k;

			memset(&r, 0, sizeof(r));
			snprintf(r.placement, sizeof(r.placement), "%s", places[i]);
			r.nodes = (int)strlen(places[i]);
			for (k = 0; places[i][k]; k++) {
				r.n += places[i][k] - '0';
				if (places[i][k] - '0' > r.per_node)
					r.per_node = places[i][k] - '0';
			}
			r.bsz = 4 << b;
			r.step = gp_perf_profile_step(p, r.n, r.nodes, r.per_node, r.bsz, NULL, NULL, NULL);
			GP_GROW(d.rows, d.cap, d.n + 1);
			d.rows[d.n++] = r;
		}
	CU_ASSERT_EQUAL_FATAL(gp_perf_fit(&d, NULL, NULL, q, &nfit, &err), GP_OK);
	CU_ASSERT_EQUAL(nfit, GP_PP_NPARAMS);
	CU_ASSERT(gp_perf_mape(&d, NULL, 1, NULL, q) < 0.1);
	CU_ASSERT_DOUBLE_EQUAL(q[GP_PP_C1], 0.004, 1e-4);
	gp_perf_dataset_release(&d);
}

/* The real profile: step-time MAPE within the 15 % bound, on the
 * held-out half too. */
static void test_fit_real(void)
{
	gp_perf_dataset d;
	gp_error err = GP_ERROR_INIT;
	double q[GP_PP_NPARAMS];
	unsigned char *mask;
	int nfit;

	gp_perf_dataset_init(&d);
	CU_ASSERT_EQUAL_FATAL(gp_perf_dataset_load(gp_test_path("tests/data/sia/imagenet/placements-rtx.csv"),
						   &d, &err), GP_OK);
	CU_ASSERT_EQUAL_FATAL(gp_perf_fit(&d, NULL, NULL, q, &nfit, &err), GP_OK);
	CU_ASSERT(gp_perf_mape(&d, NULL, 1, NULL, q) < 15.0);
	mask = malloc(d.n);
	gp_perf_split_half(&d, mask);
	CU_ASSERT_EQUAL_FATAL(gp_perf_fit(&d, mask, NULL, q, &nfit, &err), GP_OK);
	CU_ASSERT(gp_perf_mape(&d, mask, 0, NULL, q) < 15.0);
	free(mask);
	gp_perf_dataset_release(&d);
}

/* The test cluster (tests/data/perf/cluster.yaml): nodes a, b on one HDR
 * leaf, c on another, each an 8 x A100 snapshot with 18 NICs. */
static void test_cluster_paths(void)
{
	gp_cluster c;
	gp_error err = GP_ERROR_INIT;
	gp_placement p;
	gp_place_part *pp;
	gp_perf_coll_result r;
	gp_perf_fabric f;
	gp_job j;
	gp_perf_iter it;
	double gib = 1073741824.0;
	int i;

	gp_cluster_init(&c);
	CU_ASSERT_EQUAL_FATAL(gp_cluster_load(gp_test_path("tests/data/perf/cluster.yaml"), &c, &err),
			      GP_OK);
	gp_placement_init(&p);
	pp = gp_placement_add(&p, gp_cluster_find_node(&c, "a"));
	for (i = 0; i < 8; i++)
		pp->gpus[pp->ngpus++] = i;
	pp = gp_placement_add(&p, gp_cluster_find_node(&c, "b"));
	for (i = 0; i < 8; i++)
		pp->gpus[pp->ngpus++] = i;
	/* 16 RDMA ports (PXB pairs) at 100 Gb/s per node x 11.75 = 188 <
	 * 240; one leaf: 14 us; Simple with the plateau; a channel's link is
	 * one 11.75 GB/s port. */
	CU_ASSERT_EQUAL_FATAL(gp_perf_placement_collective(&c, &p, GP_COLL_ALLREDUCE, GP_ALGO_RING,
							   gib, &r, &err), GP_OK);
	CU_ASSERT_DOUBLE_EQUAL(r.time_s, 1.875 * gib / 188e9 + 1.4 * 131.6e-6 + 16 * 524288 / 11.75e9,
			       1e-12);
	CU_ASSERT(strstr(r.bottleneck, "network") != NULL);
	/* a and c: two switch levels, one more up and down: 15 us per step. */
	p.parts[1].node = gp_cluster_find_node(&c, "c");
	CU_ASSERT_EQUAL_FATAL(gp_perf_fabric_of(&c, &p, &f, NULL, 0, &err), GP_OK);
	CU_ASSERT_DOUBLE_EQUAL(f.alpha_inter, 15e-6, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(f.bw_node_net, 188.0, 1e-9);

	/* 1.3B-parameter bf16 transformer, batch 1 x 512 tokens on a:0-7:
	 * compute 6 x 1.3e9 x 512 / (312e12 x 0.40) = 32 ms; gradients
	 * 2.6e9 bytes: 1.75 x 2.6e9 / 240e9 + 8.4 + 14 x 3.4 us + 13 chunks
	 * over one NVLink (20 GB/s). */
	gp_job_init(&j);
	j.id = gp_xstrdup("t");
	j.gpus = 8;
	j.type = GP_JOB_RING_ALLREDUCE;
	gp_job_more_edit(&j)->model.params = 1.3e9;
	gp_job_more_edit(&j)->model.seq_len = 512;
	gp_job_more_edit(&j)->model.is_transformer = 1;
	gp_job_more_edit(&j)->model.kind = GP_MODEL_TRANSFORMER;
	j.batch_size = 1;
	j.precision = GP_PREC_BF16;
	gp_placement_clear(&p);
	pp = gp_placement_add(&p, gp_cluster_find_node(&c, "a"));
	for (i = 0; i < 8; i++)
		pp->gpus[pp->ngpus++] = i;
	CU_ASSERT_EQUAL_FATAL(gp_perf_iteration(&c, &j, &p, &it, &err), GP_OK);
	CU_ASSERT_DOUBLE_EQUAL(it.compute_s, 0.032, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(it.comm_s, 1.75 * 2.6e9 / 240e9 + 56e-6 + 13 * 524288 / 20e9, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(it.exposed_s, fmax(0.0, it.comm_s - it.overlap * it.compute_s), 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_iteration_time(&c, &j, &p), it.iter_s, 0);
	CU_ASSERT(it.profile == NULL);
	/* ResNet-50 on A100 has a profile: compute comes from it, the
	 * gradient all-reduce over this placement's NVLinks (the profile's
	 * own fitted communication only with GP_PERF_PROFILE_COMM). */
	snprintf(gp_job_more_edit(&j)->model.name, sizeof(gp_job_more_edit(&j)->model.name), "resnet50");
	gp_job_more_edit(&j)->model.params = 25557032;
	CU_ASSERT_EQUAL_FATAL(gp_perf_iteration(&c, &j, &p, &it, &err), GP_OK);
	CU_ASSERT_PTR_NOT_NULL(it.profile);
	CU_ASSERT_DOUBLE_EQUAL(it.comm_s, 1.75 * 2 * 25557032 / 240e9 + 56e-6 + 13 * 524288 / 20e9,
			       1e-12);
	{
		gp_perf_iter old;
		double cfit;

		CU_ASSERT_EQUAL_FATAL(gp_perf_iteration_opts(&c, &j, &p, GP_PERF_PROFILE_COMM, &old,
							     &err), GP_OK);
		CU_ASSERT_DOUBLE_EQUAL(old.comm_s, it.profile_comm_s, 0);
		/* The fit's compute (its contention of 8 GPUs on a node) only
		 * with the fit's communication; otherwise the compute the files
		 * measured with 8 GPUs on a node: the table at batch 1 times
		 * the profile's ratio for 8.  Both over the mixed-precision
		 * speed-up on A100 (2.63: the job is bf16, the profile FP32). */
		CU_ASSERT_DOUBLE_EQUAL(it.compute_s,
				       gp_perf_ctab_compute(&it.profile->ctab, it.profile->p, 1) *
					       it.profile->kcompute[7] / 2.63, 1e-15);
		CU_ASSERT(it.profile->kcompute[7] > 0);
		gp_perf_profile_eval(it.profile, 8, 1, 8, 1, &cfit, NULL, NULL);
		CU_ASSERT_DOUBLE_EQUAL(old.compute_s, cfit / 2.63, 1e-15);
		CU_ASSERT(fabs(old.compute_s - it.compute_s) > 1e-3 * it.compute_s);
	}
	gp_job_release(&j);
	gp_placement_release(&p);
	gp_cluster_release(&c);
}

/* Host-memory hops and launch cost.  Eight RTX 4090 whose pairs are all
 * SYS (tests/data/clusters/rtx4090.yaml): consumer boards, no peer
 * access, so NCCL goes through host memory (SHM).  An 8-byte all-reduce
 * takes the ring with LL: 6.6 us + 2 x 7 hops x 1.0 us (PCIe) x 1.8
 * (a host-memory hop) = 31.8 us, where a P2P ring would take 20.6 us.
 * One process driving all eight (nccl-tests -g 8) launches seven more
 * kernels first: + 7 x 2 us = 45.8 us. */
static void test_shm_latency(void)
{
	gp_cluster c;
	gp_error err = GP_ERROR_INIT;
	gp_placement p;
	gp_place_part *pp;
	gp_perf_coll_result r;
	int i;

	gp_cluster_init(&c);
	CU_ASSERT_EQUAL_FATAL(gp_cluster_load(gp_test_path("tests/data/clusters/rtx4090.yaml"), &c, &err),
			      GP_OK);
	gp_placement_init(&p);
	pp = gp_placement_add(&p, 0);
	for (i = 0; i < 8; i++)
		pp->gpus[pp->ngpus++] = i;
	CU_ASSERT_EQUAL_FATAL(gp_perf_placement_collective(&c, &p, GP_COLL_ALLREDUCE, GP_ALGO_RING,
							   8, &r, &err), GP_OK);
	CU_ASSERT_EQUAL(r.proto, GP_PROTO_LL);
	CU_ASSERT_DOUBLE_EQUAL(r.lat_s, 31.8e-6, 1e-12);
	gp_perf_coll_add_launch(&r, GP_COLL_ALLREDUCE, 8, 8, 8);
	CU_ASSERT_DOUBLE_EQUAL(r.lat_s, 45.8e-6, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(r.algbw_gbps, 8 / r.time_s / 1e9, 1e-15);
	/* One GPU per process: nothing added. */
	gp_perf_coll_add_launch(&r, GP_COLL_ALLREDUCE, 8, 8, 1);
	CU_ASSERT_DOUBLE_EQUAL(r.lat_s, 45.8e-6, 1e-12);
	gp_placement_release(&p);
	gp_cluster_release(&c);
}

/* Gavel's throughput matrix, the isolated figures of
 * tests/data/gavel/simulation_throughputs-isolated.json (values below
 * read from that file with jq). */
static void test_gavel_load(void)
{
	gp_perf_gavel g;
	gp_error err = GP_ERROR_INIT;
	const gp_perf_gavel_entry *e;

	gp_perf_gavel_init(&g);
	CU_ASSERT_EQUAL_FATAL(gp_perf_gavel_load(gp_test_path("tests/data/gavel/simulation_throughputs-isolated.json"),
						 &g, &err), GP_OK);
	CU_ASSERT_EQUAL(g.n, 83); /* distinct ('job type', scale) keys */
	e = gp_perf_gavel_find(g.e, (int)g.n, "LM", 20, 2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_DOUBLE_EQUAL(e->thr[GP_GAVEL_K80], 23.773289373427588, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(e->thr[GP_GAVEL_V100], 132.17413449742747, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(e->thr_spread[GP_GAVEL_V100], 30.43655149451939, 1e-12);
	/* catalog names reach Gavel's: resnet50 is "ResNet-50" */
	e = gp_perf_gavel_find(g.e, (int)g.n, "resnet50", 64, 4);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_DOUBLE_EQUAL(e->thr[GP_GAVEL_V100], 9.451949566394442, 1e-12);
	e = gp_perf_gavel_find(g.e, (int)g.n, "A3C", 0, 1);
	CU_ASSERT_PTR_NOT_NULL(e);
	CU_ASSERT_PTR_NULL(gp_perf_gavel_find(g.e, (int)g.n, "LM", 21, 1));
	CU_ASSERT_EQUAL(gp_perf_gavel_gpu("Tesla-K80"), -1); /* catalog spelling is K80 */
	CU_ASSERT_EQUAL(gp_perf_gavel_gpu("K80"), GP_GAVEL_K80);
	CU_ASSERT_EQUAL(gp_perf_gavel_gpu("V100-PCIE-16GB"), GP_GAVEL_V100);
	CU_ASSERT_EQUAL(gp_perf_gavel_gpu("A100-SXM4-40GB"), -1);
	gp_perf_gavel_release(&g);

	CU_ASSERT_EQUAL(gp_perf_gavel_load(gp_test_path("tests/data/sia/SOURCES.md"), &g, &err),
			GP_EINPUT);
	CU_ASSERT_EQUAL(g.n, 0);
}

/* A Gavel job type runs at Gavel's measured speed on its GPUs: one
 * iteration takes 1 / throughput; spread over servers when the placement
 * spans nodes; without Gavel's data the model cannot estimate "LM". */
static void test_gavel_iteration(void)
{
	static const char yaml[] =
		"node_types:\n"
		"  v100: {gpu_model: V100-PCIE-16GB, gpus: [{id: GPU0, cpus: [0], numa: 0},"
		" {id: GPU1, cpus: [1], numa: 0}], links: [[X, PIX], [PIX, X]]}\n"
		"fabric:\n"
		"  - {name: sw, tech: eth-25}\n"
		"nodes:\n"
		"  - {name: a, type: v100, switch: sw}\n"
		"  - {name: b, type: v100, switch: sw}\n";
	gp_cluster c;
	gp_job j;
	gp_placement p;
	gp_perf_iter it;
	gp_error err = GP_ERROR_INIT;
	gp_place_part *pp;

	gp_cluster_init(&c);
	CU_ASSERT_EQUAL_FATAL(gp_cluster_parse(yaml, sizeof(yaml) - 1, "v100.yaml", &c, &err), GP_OK);
	gp_job_init(&j);
	j.id = gp_xstrdup("lm");
	snprintf(gp_job_more_edit(&j)->model.name, sizeof(gp_job_more_edit(&j)->model.name), "LM");
	j.precision = GP_PREC_FP32;
	j.batch_size = 10; /* per GPU: Gavel's "batch size 20" is global */
	j.gpus = 2;
	j.type = GP_JOB_SINGLE_NODE;
	gp_placement_init(&p);
	pp = gp_placement_add(&p, 0);
	pp->gpus[pp->ngpus++] = 0;
	pp->gpus[pp->ngpus++] = 1;
	CU_ASSERT_EQUAL_FATAL(gp_perf_iteration(&c, &j, &p, &it, &err), GP_OK);
	CU_ASSERT_PTR_NOT_NULL(it.gavel);
	CU_ASSERT_DOUBLE_EQUAL(it.iter_s, 1 / 132.174, 1e-8); /* built-in table: 6 digits */
	CU_ASSERT_DOUBLE_EQUAL(it.compute_s, it.iter_s, 0);
	/* one GPU on each of two nodes: the unconsolidated figure */
	gp_placement_clear(&p);
	gp_placement_add(&p, 0)->gpus[0] = 0;
	p.parts[0].ngpus = 1;
	gp_placement_add(&p, 1)->gpus[0] = 0;
	p.parts[1].ngpus = 1;
	CU_ASSERT_EQUAL_FATAL(gp_perf_iteration(&c, &j, &p, &it, &err), GP_OK);
	CU_ASSERT_DOUBLE_EQUAL(it.iter_s, 1 / 30.4366, 1e-7);
	/* 25 per GPU is Gavel's batch 50: not measured. */
	j.batch_size = 25;
	CU_ASSERT_EQUAL(gp_perf_iteration(&c, &j, &p, &it, &err), GP_EINPUT);
	j.batch_size = 10;
	CU_ASSERT_EQUAL(gp_perf_iteration_opts(&c, &j, &p, GP_PERF_NO_GAVEL, &it, &err), GP_EINPUT);
	gp_placement_release(&p);
	gp_job_release(&j);
	gp_cluster_release(&c);
}

/* ResNet-50 (24.54 GFLOP a sample: 3 x 8.18 forward) as one GPU's job in
 * precision prec at batch bsz, placed on GPU 0 of node 0. */
static gp_model_desc *rn50_job(gp_job *j, gp_placement *p, int prec, int bsz)
{
	gp_model_desc *d;

	gp_job_init(j);
	j->id = gp_xstrdup("rn50");
	d = &gp_job_more_edit(j)->model;
	snprintf(d->name, sizeof(d->name), "resnet50");
	d->kind = GP_MODEL_CNN;
	d->params = 25557032;
	d->flops_per_sample = 3 * 8.18e9;
	j->precision = (int8_t)prec;
	j->batch_size = bsz;
	j->gpus = 1;
	j->type = GP_JOB_SINGLE_NODE;
	gp_placement_init(p);
	gp_placement_add(p, 0)->gpus[0] = 0;
	p->parts[0].ngpus = 1;
	return d;
}

/* A job on synthetic data has no input pipeline: neither Gavel's time
 * (ResNet-50, batch 32, one V100) nor the V100 profile (imagenet on
 * azure), both measured with ImageNet decoded on the CPU, but the FLOPs
 * estimate of an FP32 CNN: 32 x 24.54 GFLOP (3 x 8.18 forward) over the
 * V100 PCIe's FP32 peak 14 TFLOPS x 0.57. */
static void test_synthetic_data(void)
{
	static const char yaml[] =
		"node_types:\n"
		"  v100: {gpu_model: V100-PCIE-16GB, gpus: [{id: GPU0, cpus: [0], numa: 0},"
		" {id: GPU1, cpus: [1], numa: 0}], links: [[X, PIX], [PIX, X]]}\n"
		"nodes:\n"
		"  - {name: a, type: v100}\n";
	gp_cluster c;
	gp_job j;
	gp_placement p;
	gp_perf_iter it;
	gp_error err = GP_ERROR_INIT;
	gp_model_desc *d;

	gp_cluster_init(&c);
	CU_ASSERT_EQUAL_FATAL(gp_cluster_parse(yaml, sizeof(yaml) - 1, "v100.yaml", &c, &err), GP_OK);
	d = rn50_job(&j, &p, GP_PREC_FP32, 32);
	CU_ASSERT_EQUAL_FATAL(gp_perf_iteration(&c, &j, &p, &it, &err), GP_OK);
	CU_ASSERT_PTR_NOT_NULL(it.gavel);
	snprintf(d->dataset, sizeof(d->dataset), "synthetic");
	CU_ASSERT_EQUAL_FATAL(gp_perf_iteration(&c, &j, &p, &it, &err), GP_OK);
	CU_ASSERT_PTR_NULL(it.gavel);
	CU_ASSERT_PTR_NULL(it.profile);
	CU_ASSERT_PTR_NULL(it.scaled);
	CU_ASSERT_DOUBLE_EQUAL(it.compute_s, 32 * 24.54e9 / (14e12 * 0.57), 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(it.iter_s, it.compute_s, 0);
	/* Two GPUs without Gavel: real data takes the V100 profile,
	 * synthetic data the same FLOPs compute. */
	p.parts[0].gpus[p.parts[0].ngpus++] = 1;
	CU_ASSERT_EQUAL_FATAL(gp_perf_iteration_opts(&c, &j, &p, GP_PERF_NO_GAVEL, &it, &err), GP_OK);
	CU_ASSERT_PTR_NULL(it.profile);
	CU_ASSERT_DOUBLE_EQUAL(it.compute_s, 32 * 24.54e9 / (14e12 * 0.57), 1e-12);
	d->dataset[0] = '\0';
	CU_ASSERT_EQUAL_FATAL(gp_perf_iteration_opts(&c, &j, &p, GP_PERF_NO_GAVEL, &it, &err), GP_OK);
	CU_ASSERT_PTR_NOT_NULL(it.profile);
	gp_placement_release(&p);
	gp_job_release(&j);
	gp_cluster_release(&c);
}

/* A time measured on other machines and scaled to the job's precision is
 * never below what the GPU itself takes: ResNet-50 on one V100 SXM2
 * (FP32 15.7, FP16 125 TFLOPS), from the V100 profile (imagenet on
 * azure, bound by its CPU input pipeline), 24.54 GFLOP a sample.
 *   mixed, batch 256: profile / 3.26 is below 256 x 24.54e9 / (125e12
 *     x 0.249) = 0.2018 s, the floor;
 *   FP32, batch 112: the profile below 112 x 24.54e9 / (15.7e12 x 0.57)
 *     = 0.3071 s, the floor;
 *   FP32, batch 32: the profile's own table, above its floor 0.0877 s. */
static void test_gpu_floor(void)
{
	static const char yaml[] =
		"node_types:\n"
		"  v100: {gpu_model: V100-SXM2-16GB, gpus: [{id: GPU0, cpus: [0], numa: 0}],"
		" links: [[X]]}\n"
		"nodes:\n"
		"  - {name: a, type: v100}\n";
	gp_cluster c;
	gp_job j;
	gp_placement p;
	gp_perf_iter it;
	gp_error err = GP_ERROR_INIT;

	gp_cluster_init(&c);
	CU_ASSERT_EQUAL_FATAL(gp_cluster_parse(yaml, sizeof(yaml) - 1, "v100.yaml", &c, &err), GP_OK);
	rn50_job(&j, &p, GP_PREC_MIXED, 256);
	CU_ASSERT_EQUAL_FATAL(gp_perf_iteration_opts(&c, &j, &p, GP_PERF_NO_GAVEL, &it, &err), GP_OK);
	CU_ASSERT_PTR_NOT_NULL_FATAL(it.profile);
	CU_ASSERT(gp_perf_ctab_compute(&it.profile->ctab, it.profile->p, 256) / 3.26 < 0.2);
	CU_ASSERT_DOUBLE_EQUAL(it.compute_s, 256 * 24.54e9 / (125e12 * 0.249), 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(it.iter_s, it.compute_s, 0);
	j.precision = GP_PREC_FP32;
	j.batch_size = 112;
	CU_ASSERT_EQUAL_FATAL(gp_perf_iteration_opts(&c, &j, &p, GP_PERF_NO_GAVEL, &it, &err), GP_OK);
	CU_ASSERT(gp_perf_ctab_compute(&it.profile->ctab, it.profile->p, 112) < 0.3);
	CU_ASSERT_DOUBLE_EQUAL(it.compute_s, 112 * 24.54e9 / (15.7e12 * 0.57), 1e-12);
	j.batch_size = 32;
	CU_ASSERT_EQUAL_FATAL(gp_perf_iteration_opts(&c, &j, &p, GP_PERF_NO_GAVEL, &it, &err), GP_OK);
	CU_ASSERT(32 * 24.54e9 / (15.7e12 * 0.57) < 0.09);
	CU_ASSERT_DOUBLE_EQUAL(it.compute_s, gp_perf_ctab_compute(&it.profile->ctab, it.profile->p, 32),
			       1e-15);
	gp_placement_release(&p);
	gp_job_release(&j);
	gp_cluster_release(&c);
}

/* A Gavel job type on a GPU Gavel did not measure: V100's time x 14 /
 * the GPU's FP32 peak (A100-SXM4-40GB: 19.5 TFLOPS); LM at batch 20 on one
 * V100 runs 64.7425 iterations/s. */
static void test_gavel_other_gpu(void)
{
	gp_cluster c;
	gp_job j;
	gp_placement p;
	gp_perf_iter it;
	gp_error err = GP_ERROR_INIT;

	gp_cluster_init(&c);
	CU_ASSERT_EQUAL_FATAL(gp_cluster_load(gp_test_path("tests/data/perf/cluster.yaml"), &c, &err),
			      GP_OK);
	gp_job_init(&j);
	j.id = gp_xstrdup("lm");
	snprintf(gp_job_more_edit(&j)->model.name, sizeof(gp_job_more_edit(&j)->model.name), "LM");
	j.precision = GP_PREC_FP32;
	j.batch_size = 20;
	j.gpus = 1;
	gp_placement_init(&p);
	gp_placement_add(&p, gp_cluster_find_node(&c, "a"))->gpus[0] = 0;
	p.parts[0].ngpus = 1;
	CU_ASSERT_EQUAL_FATAL(gp_perf_iteration(&c, &j, &p, &it, &err), GP_OK);
	CU_ASSERT_DOUBLE_EQUAL(it.iter_s, 14.0 / 19.5 / 64.7425, 1e-8);
	gp_placement_release(&p);
	gp_job_release(&j);
	gp_cluster_release(&c);
}

/* Sia's profiles are FP32 (TF32 on an A100) measurements: a mixed-
 * precision job on the profiled GPU computes 2.63 x faster (NVIDIA
 * DeepLearningExamples' ResNet-50 on A100: 2470 / 938 img/s), an FP32 job
 * at the profile's time.  ResNet-50 at batch 64 on one A100 of the test
 * cluster: the A100 profile's table at 64. */
static void test_profile_precision(void)
{
	gp_cluster c;
	gp_job j;
	gp_placement p;
	gp_perf_iter it;
	gp_error err = GP_ERROR_INIT;
	const gp_perf_profile *pr;
	double c32;
	int node;

	gp_cluster_init(&c);
	CU_ASSERT_EQUAL_FATAL(gp_cluster_load(gp_test_path("tests/data/perf/cluster.yaml"), &c, &err),
			      GP_OK);
	node = gp_cluster_find_node(&c, "a");
	pr = gp_perf_profile_find("resnet50", gp_cluster_node_model(&c, node)->name);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pr);
	c32 = gp_perf_ctab_compute(&pr->ctab, pr->p, 64);
	gp_job_init(&j);
	j.id = gp_xstrdup("r50");
	gp_model_fill_desc(gp_model_find("resnet50"), 0, 0, 0, &gp_job_more_edit(&j)->model);
	j.batch_size = 64;
	j.gpus = 1;
	gp_placement_init(&p);
	gp_placement_add(&p, node)->gpus[0] = 0;
	p.parts[0].ngpus = 1;
	j.precision = GP_PREC_FP32;
	CU_ASSERT_EQUAL_FATAL(gp_perf_iteration_opts(&c, &j, &p, GP_PERF_NO_GAVEL, &it, &err), GP_OK);
	CU_ASSERT(it.profile == pr);
	CU_ASSERT_DOUBLE_EQUAL(it.compute_s, c32, 1e-12);
	j.precision = GP_PREC_MIXED;
	CU_ASSERT_EQUAL_FATAL(gp_perf_iteration_opts(&c, &j, &p, GP_PERF_NO_GAVEL, &it, &err), GP_OK);
	CU_ASSERT_DOUBLE_EQUAL(it.compute_s, c32 / 2.63, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(it.iter_s, c32 / 2.63, 1e-12);
	j.precision = GP_PREC_BF16;
	CU_ASSERT_EQUAL_FATAL(gp_perf_iteration_opts(&c, &j, &p, GP_PERF_NO_GAVEL, &it, &err), GP_OK);
	CU_ASSERT_DOUBLE_EQUAL(it.compute_s, c32 / 2.63, 1e-12);
	gp_placement_release(&p);
	gp_job_release(&j);
	gp_cluster_release(&c);
}

/* A profiled DL model on a GPU without its own profile: the profile of
 * the GPU with the nearest peak, its single-GPU compute scaled by the
 * ratio of peaks (catalog: T4 8.1, V100 15.7, A100 19.5 TFLOPS FP32). */
static void test_profile_scaled(void)
{
	const gp_perf_profile *pr;

	pr = gp_perf_profile_nearest("resnet50", 15.0, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pr);
	CU_ASSERT_STRING_EQUAL(pr->gpu, "V100");
	pr = gp_perf_profile_nearest("resnet50", 4.37, 1); /* K80 */
	CU_ASSERT_PTR_NOT_NULL_FATAL(pr);
	CU_ASSERT_STRING_EQUAL(pr->gpu, "T4");
	pr = gp_perf_profile_nearest("imagenet", 989, 0); /* H100 FP16 */
	CU_ASSERT_PTR_NOT_NULL_FATAL(pr);
	CU_ASSERT_STRING_EQUAL(pr->gpu, "A100");
	CU_ASSERT_STRING_EQUAL(pr->platform, "dgx"); /* dgx before dgx-ext */
	CU_ASSERT_DOUBLE_EQUAL(pr->peak_tflops, 312, 0);
	CU_ASSERT_PTR_NULL(gp_perf_profile_nearest("gpt_pmp", 312, 0)); /* no table */
	CU_ASSERT_PTR_NULL(gp_perf_profile_nearest("llama2-7b", 312, 0));

	/* On the test cluster's RTX 3090 box, a mixed-precision ResNet-50 at
	 * batch 64 computes for the nearest profile's (T4: 65 TFLOPS FP16)
	 * table value at 64 times that profile's FP16 peak over the 3090's,
	 * divided by the mixed-precision speed-up on a T4 (Turing, tensor
	 * cores: 3.26), since Sia measured in FP32. */
	{
		gp_cluster c;
		gp_job j;
		gp_placement p;
		gp_perf_iter it;
		gp_error err = GP_ERROR_INIT;
		const gp_gpu_model *m;
		int node;

		gp_cluster_init(&c);
		CU_ASSERT_EQUAL_FATAL(gp_cluster_load(gp_test_path("tests/data/perf/cluster.yaml"),
						      &c, &err), GP_OK);
		node = gp_cluster_find_node(&c, "pc");
		m = gp_cluster_node_model(&c, node);
		CU_ASSERT_PTR_NOT_NULL_FATAL(m);
		CU_ASSERT_PTR_NULL(gp_perf_profile_find("resnet50", m->name));
		gp_job_init(&j);
		j.id = gp_xstrdup("r50");
		gp_model_fill_desc(gp_model_find("resnet50"), 0, 0, 0, &gp_job_more_edit(&j)->model);
		j.batch_size = 64;
		j.gpus = 1;
		gp_placement_init(&p);
		gp_placement_add(&p, node)->gpus[0] = 0;
		p.parts[0].ngpus = 1;
		CU_ASSERT_EQUAL_FATAL(gp_perf_iteration(&c, &j, &p, &it, &err), GP_OK);
		pr = gp_perf_profile_nearest("resnet50", m->fp16_tflops, 0);
		CU_ASSERT_PTR_NOT_NULL_FATAL(pr);
		CU_ASSERT(it.scaled == pr);
		CU_ASSERT_STRING_EQUAL(pr->gpu, "T4");
		CU_ASSERT_DOUBLE_EQUAL(it.compute_s, gp_perf_ctab_compute(&pr->ctab, pr->p, 64) *
							     65.0 / m->fp16_tflops / 3.26, 1e-12);
		CU_ASSERT_DOUBLE_EQUAL(it.iter_s, it.compute_s, 1e-15); /* one GPU: no comm */
		gp_placement_release(&p);
		gp_job_release(&j);
		gp_cluster_release(&c);
	}
}

/* NICs as physical ports: within GPUDirect reach (PIX/PXB) of the job's
 * GPUs, two ports of one card sharing its PCIe link, a front-end NIC
 * (SYS to every GPU) never used; without GPUDirect, each GPU's nearest
 * NIC through host memory at most 16 GB/s; the fabric's efficiency. */
static void test_nic_ports(void)
{
	static const char yaml[] =
		"node_types:\n"
		"  t:\n"
		"    gpu_model: A100-SXM4-40GB\n"
		"    nic_cards: [[NIC0, NIC1]]\n"
		"    nic_gbps: {mlx5_2: 100}\n"
		"    gpus: [{id: GPU0}, {id: GPU1}]\n"
		"    nics: [{id: NIC0, device: mlx5_0}, {id: NIC1, device: mlx5_1},"
		" {id: NIC2, device: mlx5_2}, {id: NIC3, device: mlx5_3}]\n"
		"    links:\n"
		"      - [X, NV12, PIX, PIX, SYS, SYS]\n"
		"      - [NV12, X, SYS, SYS, PXB, SYS]\n"
		"      - [PIX, SYS, X, PIX, SYS, SYS]\n"
		"      - [PIX, SYS, PIX, X, SYS, SYS]\n"
		"      - [SYS, PXB, SYS, SYS, X, SYS]\n"
		"      - [SYS, SYS, SYS, SYS, SYS, X]\n"
		"  nogdr:\n"
		"    gpu_model: A100-SXM4-40GB\n"
		"    gdr: false\n"
		"    nic_gbps: {mlx5_2: 100}\n"
		"    gpus: [{id: GPU0}, {id: GPU1}]\n"
		"    nics: [{id: NIC0, device: mlx5_0}, {id: NIC1, device: mlx5_1},"
		" {id: NIC2, device: mlx5_2}, {id: NIC3, device: mlx5_3}]\n"
		"    links:\n"
		"      - [X, NV12, PIX, PIX, SYS, SYS]\n"
		"      - [NV12, X, SYS, SYS, PXB, SYS]\n"
		"      - [PIX, SYS, X, PIX, SYS, SYS]\n"
		"      - [PIX, SYS, PIX, X, SYS, SYS]\n"
		"      - [SYS, PXB, SYS, SYS, X, SYS]\n"
		"      - [SYS, SYS, SYS, SYS, SYS, X]\n"
		"fabric:\n"
		"  - {name: roce, tech: roce-200}\n"
		"  - {name: rocec, tech: roce-200, congestion: 0.2}\n"
		"  - {name: ib, tech: ib-hdr, sharp: true}\n"
		"  - {name: ibleaf, parent: ib}\n"
		"  - {name: ibnoar, tech: ib-hdr, adaptive_routing: false}\n"
		"nodes:\n"
		"  - {name: r, type: t, switch: roce, count: 4}\n"
		"  - {name: c, type: t, switch: rocec, count: 4}\n"
		"  - {name: i, type: t, switch: ibleaf, count: 2}\n"
		"  - {name: n, type: t, switch: ibnoar, count: 4}\n"
		"  - {name: g, type: nogdr, switch: roce}\n";
	static const int both[2] = { 0, 1 }, one[1] = { 1 };
	gp_cluster c;
	gp_error err = GP_ERROR_INIT;
	gp_placement p;
	gp_perf_fabric f;
	int nics, i;

	gp_cluster_init(&c);
	CU_ASSERT_EQUAL_FATAL(gp_cluster_parse(yaml, sizeof(yaml) - 1, "nics.yaml", &c, &err), GP_OK);
	/* Card of NIC0+NIC1: 2 x 23.5 capped by its PCIe Gen4 x16 (24);
	 * NIC2 at 100 Gb/s: 11.75; NIC3 is SYS to both: never. */
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_node_net_gbs(&c, gp_cluster_find_node(&c, "r-0"), both, 2,
						    &nics), 24.0 + 11.75, 1e-9);
	CU_ASSERT_EQUAL(nics, 3);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_node_net_gbs(&c, gp_cluster_find_node(&c, "r-0"), one, 1,
						    &nics), 11.75, 1e-9);
	CU_ASSERT_EQUAL(nics, 1);
	/* No GPUDirect: GPU0's nearest NIC0 (min(23.5, 16)), GPU1's NIC2. */
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_node_net_gbs(&c, gp_cluster_find_node(&c, "g"), both, 2,
						    &nics), 16.0 + 11.75, 1e-9);
	CU_ASSERT_EQUAL(nics, 2);
	/* Under one switch no flow shares an uplink: 1 for RoCE and for
	 * InfiniBand without adaptive routing; a switch's own c still gives
	 * 1 / (1 + c log2(m/2)), two nodes always 1. */
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_fabric_efficiency(&c, c.nodes[gp_cluster_find_node(&c, "r-0")].sw,
							 4, 1), 1.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_fabric_efficiency(&c, c.nodes[gp_cluster_find_node(&c, "c-0")].sw,
							 8, 1), 1 / 1.4, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_fabric_efficiency(&c, c.nodes[gp_cluster_find_node(&c, "c-0")].sw,
							 2, 1), 1.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_fabric_efficiency(&c, c.nodes[gp_cluster_find_node(&c, "i-0")].sw,
							 8, 1), 1.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_fabric_efficiency(&c, c.nodes[gp_cluster_find_node(&c, "n-0")].sw,
							 4, 1), 1.0, 1e-12);
	/* Four RoCE nodes on one switch, both GPUs each: 35.75; SHARP is inherited
	 * from the IB root by the leaf. */
	gp_placement_init(&p);
	for (i = 0; i < 4; i++) {
		char name[8];
		gp_place_part *pp;

		snprintf(name, sizeof(name), "r-%d", i);
		pp = gp_placement_add(&p, gp_cluster_find_node(&c, name));
		pp->gpus[pp->ngpus++] = 0;
		pp->gpus[pp->ngpus++] = 1;
	}
	CU_ASSERT_EQUAL_FATAL(gp_perf_fabric_of(&c, &p, &f, NULL, 0, &err), GP_OK);
	CU_ASSERT_DOUBLE_EQUAL(f.bw_node_net, 35.75, 1e-9);
	CU_ASSERT_EQUAL(f.net_nics, 3); /* the ports behind those 35.75 */
	CU_ASSERT_DOUBLE_EQUAL(f.bw_gpu_net, 35.75 / 2, 1e-9);
	CU_ASSERT(!f.net_ib && !f.sharp && !f.nvswitch);
	gp_placement_clear(&p);
	for (i = 0; i < 2; i++) {
		gp_place_part *pp = gp_placement_add(&p, gp_cluster_find_node(&c, i ? "i-1" : "i-0"));

		pp->gpus[pp->ngpus++] = 0;
		pp->gpus[pp->ngpus++] = 1;
	}
	CU_ASSERT_EQUAL_FATAL(gp_perf_fabric_of(&c, &p, &f, NULL, 0, &err), GP_OK);
	CU_ASSERT(f.net_ib && f.sharp);
	/* collnet: 0.9 x min(NICs 35.75, half of NV12 240), 8.4 + 2 x 3.4
	 * + 31 us. */
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_coll_time(GP_COLL_ALLREDUCE, GP_ALGO_COLLNET, &f, 1e9),
			       1e9 / (0.9 * 35.75e9) + 46.2e-6, 1e-12);
	gp_placement_release(&p);
	gp_cluster_release(&c);
}

/* Flows collide where a static hash picks their uplinks: a job's NIC
 * bandwidth loses 1 / (1 + 0.4 t), t the switch tiers its traffic
 * crosses above the leaf, under ECMP (RoCE's default, InfiniBand without
 * adaptive routing); nothing under one switch, whatever the node count,
 * nor with adaptive routing or flow-aware balancing.  Every node: one
 * GPU at PIX of one 200 Gb/s NIC, 23.5 GB/s. */
static void test_fabric_balancing(void)
{
	static const char yaml[] =
		"node_types:\n"
		"  t:\n"
		"    gpu_model: A100-SXM4-40GB\n"
		"    gpus: [{id: GPU0}]\n"
		"    nics: [{id: NIC0, device: mlx5_0}]\n"
		"    links:\n"
		"      - [X, PIX]\n"
		"      - [PIX, X]\n"
		"fabric:\n"
		"  - {name: core, tech: roce-200}\n"
		"  - {name: agg-0, parent: core}\n"
		"  - {name: agg-1, parent: core}\n"
		"  - {name: tor-0, parent: agg-0}\n"
		"  - {name: tor-1, parent: agg-0}\n"
		"  - {name: tor-2, parent: agg-1}\n"
		"  - {name: ar, tech: roce-200, adaptive_routing: true}\n"
		"  - {name: ar-0, parent: ar}\n"
		"  - {name: ar-1, parent: ar}\n"
		"  - {name: fa, tech: roce-200, load_balancing: flow-aware}\n"
		"  - {name: fa-0, parent: fa}\n"
		"  - {name: fa-1, parent: fa, load_balancing: ecmp}\n"
		"  - {name: ibs, tech: ib-hdr, adaptive_routing: false}\n"
		"  - {name: ibs-0, parent: ibs}\n"
		"  - {name: ibs-1, parent: ibs}\n"
		"  - {name: ib, tech: ib-hdr}\n"
		"  - {name: ib-0, parent: ib}\n"
		"  - {name: ib-1, parent: ib}\n"
		"  - {name: cg, tech: roce-200, congestion: 0.2}\n"
		"  - {name: cg-0, parent: cg}\n"
		"  - {name: cg-1, parent: cg}\n"
		"nodes:\n"
		"  - {name: t0, type: t, switch: tor-0, count: 4}\n"
		"  - {name: t1, type: t, switch: tor-1, count: 2}\n"
		"  - {name: t2, type: t, switch: tor-2, count: 2}\n"
		"  - {name: ar0, type: t, switch: ar-0, count: 2}\n"
		"  - {name: ar1, type: t, switch: ar-1, count: 2}\n"
		"  - {name: fa0, type: t, switch: fa-0, count: 2}\n"
		"  - {name: fa1, type: t, switch: fa-1, count: 2}\n"
		"  - {name: ibs0, type: t, switch: ibs-0, count: 2}\n"
		"  - {name: ibs1, type: t, switch: ibs-1, count: 2}\n"
		"  - {name: ib0, type: t, switch: ib-0, count: 2}\n"
		"  - {name: ib1, type: t, switch: ib-1, count: 2}\n"
		"  - {name: cg0, type: t, switch: cg-0, count: 2}\n"
		"  - {name: cg1, type: t, switch: cg-1, count: 2}\n";
	static const struct {
		const char *nodes[4];
		double net;
	} cases[] = {
		/* four nodes on one leaf: no uplink shared */
		{ { "t0-0", "t0-1", "t0-2", "t0-3" }, 23.5 },
		/* two leaves under one spine: one tier */
		{ { "t0-0", "t0-1", "t1-0", "t1-1" }, 23.5 / 1.4 },
		/* two nodes through the core: two tiers */
		{ { "t0-0", "t2-0" }, 23.5 / 1.8 },
		{ { "ar0-0", "ar0-1", "ar1-0", "ar1-1" }, 23.5 },
		/* flow-aware from the root; fa-1 itself hashes (ECMP) */
		{ { "fa0-0", "fa0-1" }, 23.5 },
		{ { "fa1-0", "fa0-0" }, 23.5 / 1.4 },
		{ { "ibs0-0", "ibs1-0", "ibs1-1" }, 23.5 / 1.4 },
		{ { "ib0-0", "ib1-0", "ib1-1" }, 23.5 },
		/* a switch's own c: 1 / (1 + 0.2 log2(4/2)), tiers aside */
		{ { "cg0-0", "cg0-1", "cg1-0", "cg1-1" }, 23.5 / 1.2 },
	};
	gp_cluster c;
	gp_error err = GP_ERROR_INIT;
	gp_placement p;
	gp_perf_fabric f;
	size_t i, k;

	gp_cluster_init(&c);
	CU_ASSERT_EQUAL_FATAL(gp_cluster_parse(yaml, sizeof(yaml) - 1, "lb.yaml", &c, &err), GP_OK);
	gp_placement_init(&p);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		gp_placement_clear(&p);
		for (k = 0; k < 4 && cases[i].nodes[k]; k++) {
			int n = gp_cluster_find_node(&c, cases[i].nodes[k]);
			gp_place_part *pp;

			CU_ASSERT_FATAL(n >= 0);
			pp = gp_placement_add(&p, n);
			pp->gpus[pp->ngpus++] = 0;
		}
		CU_ASSERT_EQUAL_FATAL(gp_perf_fabric_of(&c, &p, &f, NULL, 0, &err), GP_OK);
		if (fabs(f.bw_node_net - cases[i].net) > 1e-9)
			fprintf(stderr, "balancing case %zu: %g, expected %g\n", i, f.bw_node_net,
				cases[i].net);
		CU_ASSERT_DOUBLE_EQUAL(f.bw_node_net, cases[i].net, 1e-9);
	}
	gp_placement_release(&p);
	gp_cluster_release(&c);
}

/* A network that runs NCCL without LL (GPUDirect-TCPXO: Google's settings
 * give NCCL_PROTO=Simple,LL128).  Two nodes of 8 H100, 64 bytes: with
 * LL the tree wins at 6.8 + 2 x (7 x 0.6 + 5.0) = 25.2 us; without it
 * the tree with LL128, 14 + 2 x (7 x 1.25 + 8.5) = 48.5 us, beats the
 * ring with LL128 (14 + 28 x 1.9 + 2 x 4.0 = 75.2) and Simple.  A
 * two-node job on a tcpxo-200 switch gets the flag, one on eth-200 or
 * a job inside one node does not. */
static void test_no_ll(void)
{
	static const char yaml[] =
		"node_types:\n"
		"  t:\n"
		"    gpu_model: H100-SXM5-80GB\n"
		"    gpus: [{id: GPU0}]\n"
		"    nics: [{id: NIC0, device: mlx5_0}]\n"
		"    links:\n"
		"      - [X, PIX]\n"
		"      - [PIX, X]\n"
		"fabric:\n"
		"  - {name: xo, tech: tcpxo-200}\n"
		"  - {name: eth, tech: eth-200}\n"
		"nodes:\n"
		"  - {name: a, type: t, switch: xo, count: 2}\n"
		"  - {name: e, type: t, switch: eth, count: 2}\n";
	static const char *const pairs[3][2] = { { "a-0", "a-1" }, { "e-0", "e-1" }, { "a-0", NULL } };
	gp_perf_fabric f = net_fabric(2, 8, 370.8, 376.0, 8, 9);
	gp_perf_coll_result r;
	gp_cluster c;
	gp_error err = GP_ERROR_INIT;
	gp_placement p;
	int i, k;

	gp_perf_coll_eval(GP_COLL_ALLREDUCE, GP_ALGO_AUTO, &f, 64, &r);
	CU_ASSERT_EQUAL(r.algo, GP_ALGO_TREE);
	CU_ASSERT_EQUAL(r.proto, GP_PROTO_LL);
	CU_ASSERT_DOUBLE_EQUAL(r.lat_s, 25.2e-6, 1e-12);
	f.no_ll = 1;
	gp_perf_coll_eval(GP_COLL_ALLREDUCE, GP_ALGO_AUTO, &f, 64, &r);
	CU_ASSERT_EQUAL(r.algo, GP_ALGO_TREE);
	CU_ASSERT_EQUAL(r.proto, GP_PROTO_LL128);
	CU_ASSERT_DOUBLE_EQUAL(r.lat_s, 48.5e-6, 1e-12);
	gp_perf_coll_eval(GP_COLL_ALLREDUCE, GP_ALGO_RING, &f, 64, &r);
	CU_ASSERT_EQUAL(r.proto, GP_PROTO_LL128);
	CU_ASSERT_DOUBLE_EQUAL(r.lat_s, 75.2e-6, 1e-12);
	/* send/recv keeps LL for a small part: its choice is by size */
	gp_perf_coll_eval(GP_COLL_SENDRECV, GP_ALGO_AUTO, &f, 64, &r);
	CU_ASSERT_EQUAL(r.proto, GP_PROTO_LL);

	gp_cluster_init(&c);
	CU_ASSERT_EQUAL_FATAL(gp_cluster_parse(yaml, sizeof(yaml) - 1, "xo.yaml", &c, &err), GP_OK);
	gp_placement_init(&p);
	for (i = 0; i < 3; i++) {
		gp_placement_clear(&p);
		for (k = 0; k < 2 && pairs[i][k]; k++) {
			int n = gp_cluster_find_node(&c, pairs[i][k]);
			gp_place_part *pp;

			CU_ASSERT_FATAL(n >= 0);
			pp = gp_placement_add(&p, n);
			pp->gpus[pp->ngpus++] = 0;
		}
		CU_ASSERT_EQUAL_FATAL(gp_perf_fabric_of(&c, &p, &f, NULL, 0, &err), GP_OK);
		CU_ASSERT_EQUAL(f.no_ll, i == 0);
	}
	gp_placement_release(&p);
	gp_cluster_release(&c);
}

/* A GPU takes its nearest NICs.  The bundled DGX H100 snapshot
 * (topologies/h100-dgx-8gpu-13nic-8rail-ndr-penny-worklog.txt, node
 * h100-r4-0 of the example cluster) has one NDR NIC at PIX of each GPU
 * and the next GPU's at PXB: GPU0 alone uses its own rail, 48.5 GB/s
 * capped by the NIC's PCIe Gen5 x16 at 48; GPU0 and GPU1 both rails;
 * the eight GPUs the eight rails, never the five NICs (storage,
 * front end) that are NODE or SYS to every GPU. */
static void test_nearest_nics(void)
{
	static const int g0[1] = { 0 }, g01[2] = { 0, 1 }, all[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	gp_cluster c;
	gp_error err = GP_ERROR_INIT;
	int nics, node;

	gp_cluster_init(&c);
	CU_ASSERT_EQUAL_FATAL(gp_cluster_load(gp_test_path("topologies/example-cluster.yaml"), &c,
					      &err), GP_OK);
	node = gp_cluster_find_node(&c, "h100-r4-0");
	CU_ASSERT_FATAL(node >= 0);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_node_net_gbs(&c, node, g0, 1, &nics), 48.0, 1e-9);
	CU_ASSERT_EQUAL(nics, 1);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_node_net_gbs(&c, node, g01, 2, &nics), 96.0, 1e-9);
	CU_ASSERT_EQUAL(nics, 2);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_node_net_gbs(&c, node, all, 8, &nics), 384.0, 1e-9);
	CU_ASSERT_EQUAL(nics, 8);
	gp_cluster_release(&c);
}

/* The link between the CPU sockets caps SYS hops: 16 GB/s by default
 * (NCCL's AMD figure), a node type's socket_gbs (a CPU family from
 * NCCL's table, or GB/s) otherwise.  Two A100 PCIe boards on two
 * sockets (no P2P across them): 0.8 x 24 = 19.2 staged, capped at 16
 * by default, at 10 on Skylake, kept at 19.2 on Sapphire Rapids (22).
 * A NIC at SYS without GPUDirect reach: min(23.5, 16) by default, 6 on
 * Broadwell, whose socket link is slower than the host path. */
static void test_socket_link(void)
{
	static const char fmt[] =
		"node_types:\n"
		"  t:\n"
		"    gpu_model: A100-PCIE-40GB\n"
		"%s"
		"    gpus: [{id: GPU0}, {id: GPU1}]\n"
		"    nics: [{id: NIC0, device: mlx5_0}]\n"
		"    links:\n"
		"      - [X, SYS, NODE]\n"
		"      - [SYS, X, SYS]\n"
		"      - [NODE, SYS, X]\n"
		"fabric:\n"
		"  - {name: ib, tech: ib-hdr}\n"
		"nodes:\n"
		"  - {name: n, type: t, switch: ib}\n";
	static const struct {
		const char *key;
		double ring, nic;
	} cases[] = {
		{ "", 16.0, 16.0 },
		{ "    socket_gbs: skylake\n", 10.0, 10.0 },
		{ "    socket_gbs: sapphire-rapids\n", 19.2, 16.0 },
		{ "    socket_gbs: broadwell\n", 6.0, 6.0 },
		{ "    socket_gbs: 12.5\n", 12.5, 12.5 },
	};
	static const int both[2] = { 0, 1 }, second[1] = { 1 };
	char yaml[1024];
	size_t i;

	for (i = 0; i < GP_ARRAY_SIZE(cases); i++) {
		gp_cluster c;
		gp_error err = GP_ERROR_INIT;
		const gp_topo *t;
		int n;

		snprintf(yaml, sizeof(yaml), fmt, cases[i].key);
		gp_cluster_init(&c);
		CU_ASSERT_EQUAL_FATAL(gp_cluster_parse(yaml, strlen(yaml), "sock.yaml", &c, &err), GP_OK);
		t = &c.types[0].topo;
		CU_ASSERT_DOUBLE_EQUAL(gp_perf_ring_gbs(t, gp_cluster_node_model(&c, 0), both, 2, NULL,
							NULL, NULL), cases[i].ring, 1e-9);
		/* GPU1 reaches NIC0 only across the sockets, through host memory. */
		CU_ASSERT_DOUBLE_EQUAL(gp_perf_node_net_gbs(&c, 0, second, 1, &n), cases[i].nic, 1e-9);
		CU_ASSERT_EQUAL(n, 1);
		gp_cluster_release(&c);
	}
	/* A family the table does not have, and a rate out of range. */
	for (i = 0; i < 2; i++) {
		gp_cluster c;
		gp_error err = GP_ERROR_INIT;

		snprintf(yaml, sizeof(yaml), fmt, i ? "    socket_gbs: 0\n" : "    socket_gbs: icelake\n");
		gp_cluster_init(&c);
		CU_ASSERT_EQUAL(gp_cluster_parse(yaml, strlen(yaml), "sock.yaml", &c, &err), GP_EINPUT);
		CU_ASSERT_EQUAL(err.line, 4);
		CU_ASSERT(strstr(err.msg, "socket_gbs") != NULL);
		CU_ASSERT(i || strstr(err.msg, "'icelake'") != NULL);
		gp_cluster_release(&c);
	}
}

/* Alltoall and send/recv without peer access: every GPU sends to and
 * receives from its peers at once, so the staged flows share what the
 * ring's do.  Two RTX 2080 Ti (Gen3 x16: PCIe 12, staged 0.8 x 12 = 9.6
 * on a GPU's own link) under one switch (PIX): each stages one flow up
 * the switch's uplink and one down it, 12 / 2 = 6 each way, so an
 * alltoall of 1 GiB moves its half for the peer at 6 GB/s: busbw 6.0
 * (the pair's link alone said 9.6).  At PHB (no switch) nothing is
 * shared: 9.6.  A Gen4 card (PCIe 24) under one switch: two GPUs 24 / 2
 * = 12, four 24 / 4 = 6.  Four at NODE (no switch): nothing shared, but
 * with one NUMA node whose memory gives 100 GB/s each GPU receives one
 * flow there, written and read, 8 r <= 100, 12.5. */
static void test_staged_peers(void)
{
	static const char fmt[] =
		"node_types:\n"
		"  t:\n"
		"    gpu_model: RTX-2080Ti\n"
		"    gpus: [{id: GPU0, numa: 0}, {id: GPU1, numa: 0}]\n"
		"    links:\n"
		"      - [X, %s]\n"
		"      - [%s, X]\n"
		"fabric:\n"
		"  - {name: eth, tech: eth-100}\n"
		"nodes:\n"
		"  - {name: n, type: t, switch: eth}\n";
	static const struct {
		const char *level;
		double busbw;
	} cases[] = { { "PIX", 6.0 }, { "PHB", 9.6 } };
	static const gp_gpu_model rtx = { .name = "RTX-4090", .pcie_gen = 4, .pcie_lanes = 16 };
	gp_topo t;
	char yaml[1024];
	size_t i;

	for (i = 0; i < GP_ARRAY_SIZE(cases); i++) {
		gp_cluster c;
		gp_error err = GP_ERROR_INIT;
		gp_placement pl;
		gp_place_part *pp;
		gp_perf_coll_result r;

		snprintf(yaml, sizeof(yaml), fmt, cases[i].level, cases[i].level);
		gp_cluster_init(&c);
		CU_ASSERT_EQUAL_FATAL(gp_cluster_parse(yaml, strlen(yaml), "a2a.yaml", &c, &err),
				      GP_OK);
		gp_placement_init(&pl);
		pp = gp_placement_add(&pl, 0);
		pp->gpus[pp->ngpus++] = 0;
		pp->gpus[pp->ngpus++] = 1;
		CU_ASSERT_EQUAL(gp_perf_placement_collective(&c, &pl, GP_COLL_ALLTOALL, GP_ALGO_AUTO,
							     1073741824.0, &r, &err),
				GP_OK);
		/* busbw = (n-1)/n S / t, t = S/2 / bw + latency */
		CU_ASSERT(fabs(r.busbw_gbps - cases[i].busbw) / cases[i].busbw < 0.01);
		gp_placement_release(&pl);
		gp_cluster_release(&c);
	}

	topo_uniform(&t, 4, (gp_link){ GP_LINK_PIX, 0 });
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_staged_peers_gbs(&t, &rtx, all8, 2), 12.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_staged_peers_gbs(&t, &rtx, all8, 4), 6.0, 1e-9);
	free(t.links);
	topo_uniform(&t, 4, (gp_link){ GP_LINK_NODE, 0 });
	CU_ASSERT(gp_perf_staged_peers_gbs(&t, &rtx, all8, 4) >= 1e300);
	t.host_mem_gbs = 100;
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_staged_peers_gbs(&t, &rtx, all8, 4), 12.5, 1e-9);
	/* with peer access nothing is staged */
	t.p2p_mode = GP_P2P_ON;
	CU_ASSERT(gp_perf_staged_peers_gbs(&t, &rtx, all8, 4) >= 1e300);
	free(t.links);
}

/* host_mem_gbs in a cluster file: two RTX 4090 at PHB on NUMA node 0,
 * staged both ways.  At 60 GB/s the all-reduce ring's two hops are
 * written and read there, 4 r <= 60: 15; a broadcast stages one hop,
 * 2 r <= 60, so its own link's 19.2 binds.  Without the key: 19.2.  A
 * word or a rate out of range is an error at its line. */
static void test_host_mem_key(void)
{
	static const char fmt[] =
		"node_types:\n"
		"  t:\n"
		"    gpu_model: RTX-4090\n"
		"%s"
		"    gpus: [{id: GPU0, numa: 0}, {id: GPU1, numa: 0}]\n"
		"    links:\n"
		"      - [X, PHB]\n"
		"      - [PHB, X]\n"
		"nodes:\n"
		"  - {name: n, type: t}\n";
	static const struct {
		const char *key;
		double ring, bcast;
		int st;
	} cases[] = {
		{ "", 19.2, 19.2, GP_OK },
		{ "    host_mem_gbs: 60\n", 15.0, 19.2, GP_OK },
		{ "    host_mem_gbs: 20\n", 5.0, 10.0, GP_OK },
		{ "    host_mem_gbs: 0\n", 0, 0, GP_EINPUT },
		{ "    host_mem_gbs: ddr5\n", 0, 0, GP_EINPUT },
	};
	static const int both[2] = { 0, 1 };
	char yaml[1024];
	size_t i;

	for (i = 0; i < GP_ARRAY_SIZE(cases); i++) {
		gp_cluster c;
		gp_error err = GP_ERROR_INIT;
		double bc = 0;

		snprintf(yaml, sizeof(yaml), fmt, cases[i].key);
		gp_cluster_init(&c);
		CU_ASSERT_EQUAL_FATAL(gp_cluster_parse(yaml, strlen(yaml), "host.yaml", &c, &err),
				      cases[i].st);
		if (cases[i].st == GP_OK) {
			CU_ASSERT_DOUBLE_EQUAL(gp_perf_ring_gbs_bcast(&c.types[0].topo,
								      gp_cluster_node_model(&c, 0), both,
								      2, NULL, NULL, NULL, &bc),
					       cases[i].ring, 1e-9);
			CU_ASSERT_DOUBLE_EQUAL(bc, cases[i].bcast, 1e-9);
		} else {
			CU_ASSERT_EQUAL(err.line, 4);
			CU_ASSERT(strstr(err.msg, "host_mem_gbs") != NULL);
		}
		gp_cluster_release(&c);
	}
}

/* `nvidia-smi topo -p2p r`: a real CNS matrix turns a PIX pair into a
 * host-staged one; unknown statuses and wrong sizes are errors. */
static void test_p2p_file(void)
{
	uint8_t *m = NULL;
	gp_error err = GP_ERROR_INIT;

	CU_ASSERT_EQUAL_FATAL(gp_p2p_load(gp_test_path("tests/data/perf/p2p-2xl4-cns.txt"), 2, &m, &err),
			      GP_OK);
	CU_ASSERT_EQUAL(m[0], 1);
	CU_ASSERT_EQUAL(m[1], 0);
	CU_ASSERT_EQUAL(m[2], 0);
	CU_ASSERT_EQUAL(m[3], 1);
	free(m);
	CU_ASSERT_EQUAL(gp_p2p_load(gp_test_path("tests/data/perf/p2p-2xl4-cns.txt"), 4, &m, &err),
			GP_EINPUT);
	CU_ASSERT_PTR_NULL(m);
	CU_ASSERT(strstr(err.msg, "names 2 GPUs, the node type has 4") != NULL);
	CU_ASSERT_EQUAL(gp_p2p_load(gp_test_path("tests/data/perf/p2p-bad.txt"), 2, &m, &err),
			GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 3);
	CU_ASSERT(strstr(err.msg, "'XX'") != NULL);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("perf");

	gp_test_add(s, "link constants", test_link_constants);
	gp_test_add(s, "ring NV12", test_ring_nv12);
	gp_test_add(s, "ring NV18", test_ring_nv18);
	gp_test_add(s, "send/recv protocol, alltoall across nodes", test_p2p_protocol);
	gp_test_add(s, "ring PCIe only", test_ring_pcie);
	gp_test_add(s, "ring through host memory", test_ring_host_staging);
	gp_test_add(s, "ring cube mesh", test_ring_cube_mesh);
	gp_test_add(s, "two nodes", test_two_nodes);
	gp_test_add(s, "two-node tree cap", test_two_node_tree_cap);
	gp_test_add(s, "tree channels", test_tree_channels);
	gp_test_add(s, "nvls-tree channels", test_nvlstree_channels);
	gp_test_add(s, "nvls-tree node bound", test_nvlstree_node_bound);
	gp_test_add(s, "no LL on the network", test_no_ll);
	gp_test_add(s, "latency across nodes", test_net_latency);
	gp_test_add(s, "tree correction", test_tree_correction);
	gp_test_add(s, "host-memory hops and launch cost", test_shm_latency);
	gp_test_add(s, "nearest NICs", test_nearest_nics);
	gp_test_add(s, "socket link", test_socket_link);
	gp_test_add(s, "host memory of a node type", test_host_mem_key);
	gp_test_add(s, "alltoall staged through host memory", test_staged_peers);
	gp_test_add(s, "profile precision", test_profile_precision);
	gp_test_add(s, "parameter server", test_ps);
	gp_test_add(s, "profile step", test_profile_step);
	gp_test_add(s, "profile table", test_profile_table);
	gp_test_add(s, "compute table from sia", test_ctab_build);
	gp_test_add(s, "measured compute per node", test_kcompute);
	gp_test_add(s, "gpu names", test_gpu_names);
	gp_test_add(s, "sia csv", test_csv);
	gp_test_add(s, "fit synthetic", test_fit_synthetic);
	gp_test_add(s, "fit real", test_fit_real);
	gp_test_add(s, "cluster paths", test_cluster_paths);
	gp_test_add(s, "gavel load", test_gavel_load);
	gp_test_add(s, "gavel iteration", test_gavel_iteration);
	gp_test_add(s, "gavel on another gpu", test_gavel_other_gpu);
	gp_test_add(s, "synthetic data", test_synthetic_data);
	gp_test_add(s, "gpu-bound floor", test_gpu_floor);
	gp_test_add(s, "profile scaled to another gpu", test_profile_scaled);
	gp_test_add(s, "nic ports", test_nic_ports);
	gp_test_add(s, "fabric load balancing", test_fabric_balancing);
	gp_test_add(s, "p2p file", test_p2p_file);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
