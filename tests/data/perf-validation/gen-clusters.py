#!/usr/bin/env python3
"""Authoring tool: writes the inline node types of the perf validation
clusters (tests/data/perf-validation/clusters/*.yaml).  Each topology is
the machine as its source describes it (see SOURCES.md there)."""
import os, sys

OUT = sys.argv[1] if len(sys.argv) > 1 else "clusters"
os.makedirs(OUT, exist_ok=True)

def node_type(name, model, ngpu, nnic, link, socket_of, cpus_of, extra=""):
    """link(i, j) over devices 0..ngpu+nnic-1 (GPUs first)."""
    nd = ngpu + nnic
    out = ["  %s:" % name, "    gpu_model: %s" % model, "    gpus:"]
    for g in range(ngpu):
        out.append("      - {id: GPU%d, cpus: \"%s\", numa: %d}" % (g, cpus_of(g), socket_of(g)))
    if nnic:
        out.append("    nics:")
        for k in range(nnic):
            out.append("      - {id: NIC%d, device: mlx5_%d}" % (k, k))
    devs = ["GPU%d" % g for g in range(ngpu)] + ["NIC%d" % k for k in range(nnic)]
    out.append("    devices: [%s]" % ", ".join(devs))
    out.append("    links:")
    for i in range(nd):
        row = ["X" if i == j else link(i, j) for j in range(nd)]
        out.append("      - [%s]" % ", ".join(row))
    if extra:
        out.append(extra)
    return "\n".join(out) + "\n"

def two_socket(ngpu):
    half = max(1, ngpu // 2)
    return (lambda g: 0 if g < half else 1,
            lambda g: "0-31" if g < half else "32-63")

def sxm(ngpu, nv, nnic, nic_gpus, ngpu_per_sock=None):
    """NVSwitch board: every GPU pair NV<nv>; NIC k is near (PXB or PIX)
    the GPUs in nic_gpus[k] = (level, [gpus]); other GPUs on the same socket
    NODE, across SYS."""
    sock, _ = two_socket(ngpu)
    def nic_sock(k):
        return sock(nic_gpus[k][1][0]) if nic_gpus[k][1] else 0
    def link(i, j):
        if i < ngpu and j < ngpu:
            return nv
        if i >= ngpu and j >= ngpu:
            a, b = i - ngpu, j - ngpu
            return "PIX" if set(nic_gpus[a][1]) == set(nic_gpus[b][1]) and nic_gpus[a][1] else \
                   ("NODE" if nic_sock(a) == nic_sock(b) else "SYS")
        g, k = (i, j - ngpu) if i < ngpu else (j, i - ngpu)
        lvl, gs = nic_gpus[k]
        if g in gs:
            return lvl
        return "NODE" if sock(g) == nic_sock(k) else "SYS"
    return link

def write(fname, header, types, fabric, nodes, models=""):
    with open(os.path.join(OUT, fname), "w") as f:
        f.write(header)
        if models:
            f.write("gpu_models:\n" + models)
        f.write("node_types:\n")
        for t in types:
            f.write(t)
        f.write("fabric:\n" + fabric + "nodes:\n" + nodes)

sock8, cpus8 = two_socket(8)
HDR = "# perf validation cluster (issue 15): inline node types describe the\n# machines of the cases that use this file; see ../SOURCES.md.\n"

# --- A100 SXM boards ---
a100_8nic = node_type("a100-8nic", "A100-SXM4-80GB", 8, 8,
    sxm(8, "NV12", 8, [("PXB", [2 * (k // 2), 2 * (k // 2) + 1]) for k in range(8)]), sock8, cpus8)
# four HDR NICs in PXB pairs: NVIDIA/nccl-tests#175, #119, #100 and the
# 32-node cluster of NVIDIA/nccl#652 (nodes a4, 32 of them)
a100_4nic = node_type("a100-4nic", "A100-SXM4-80GB", 8, 4,
    sxm(8, "NV12", 4, [("PXB", [2 * k, 2 * k + 1]) for k in range(4)]), sock8, cpus8)
a800_1nic = node_type("a800-1nic", "A800-SXM4-80GB", 8, 1,
    sxm(8, "NV8", 1, [("NODE", [])]), sock8, cpus8)
# NVIDIA/nccl-tests#331: 4 x A100 SXM 64 GB, NV4 between every pair, one
# NIC at PXB per GPU (the matrix printed in the issue)
a100_hgx4 = node_type("a100-hgx4", "A100-SXM4-64GB", 4, 4,
    sxm(4, "NV4", 4, [("PXB", [k]) for k in range(4)]), lambda g: 0, lambda g: "0")
# OCI BM.GPU4.8 (8 x A100, 16 x 100 Gb/s RoCE ports in PXB pairs): the
# bundled real snapshot
oci = ("  oci-a100:\n    topology: ../../../../topologies/oci-a100-8gpu-18nic-nps4-bigtimcowen.txt\n"
       "    gpu_model: A100-SXM4-40GB\n")
write("a100.yaml", HDR, [oci, a100_8nic, a100_4nic, a800_1nic, a100_hgx4],
      "  - {name: ib-hdr, tech: ib-hdr}\n  - {name: roce-100, tech: roce-100}\n"
      # OCI's cluster network (README, "RoCE fabrics"): nonblocking, full
      # bisection, flow-aware traffic distribution; its three Clos tiers
      # are not drawn (no source gives the leaves the 64 nodes sat on)
      "  - {name: oci-cn, tech: roce-100, load_balancing: flow-aware}\n",
      "  - {name: dgx, type: a100-8nic, switch: ib-hdr, count: 8}\n"
      "  - {name: a4, type: a100-4nic, switch: ib-hdr, count: 32}\n"
      "  - {name: ro, type: a100-8nic, switch: roce-100, count: 6}\n"
      "  - {name: oci, type: oci-a100, switch: oci-cn, count: 64}\n"
      "  - {name: a800, type: a800-1nic, switch: ib-hdr, count: 12}\n"
      "  - {name: a4h, type: a100-hgx4, switch: ib-hdr}\n",
      "  A800-SXM4-80GB: {base: A100-SXM4-80GB, nvlink_links: 8}\n"
      "  A100-SXM4-64GB: {base: A100-SXM4-80GB, mem_gib: 64}\n")

# --- Hopper boards: one NIC per GPU at PIX ---
def hopper(name, model, nv):
    return node_type(name, model, 8, 8, sxm(8, nv, 8, [("PIX", [k]) for k in range(8)]), sock8, cpus8)
# nccl-tests#232 / nccl#1357: 8 H100, NIC0..3 PIX to GPU0/2/4/6, NIC4/5 SYS to all
def l232(i, j):
    ng = 8
    if i < ng and j < ng:
        return "NV18"
    pix = {0: 0, 1: 2, 2: 4, 3: 6}
    if i >= ng and j >= ng:
        return "SYS"
    g, k = (i, j - ng) if i < ng else (j, i - ng)
    return "PIX" if pix.get(k) == g else "SYS"
h100_232 = node_type("h100-232", "H100-SXM5-80GB", 8, 6, l232, sock8,
                     lambda g: "0-47,96-143" if g < 4 else "48-95,144-191")
# OCI BM.GPU.H100.8 (oracle-japan/ocitutorials, run-nccltests-h100.md): 8 x
# H100 SXM and 16 RDMA ports on the cluster network; the page does not
# place the ports, so two per GPU at PIX (the usual choice, doubled)
oci_h100 = node_type("oci-h100", "H100-SXM5-80GB", 8, 16,
    sxm(8, "NV18", 16, [("PIX", [k // 2]) for k in range(16)]), sock8, cpus8)
write("hopper.yaml", HDR,
      [hopper("h100", "H100-SXM5-80GB", "NV18"), hopper("h200", "H200", "NV18"),
       hopper("h800", "H800-SXM5-80GB", "NV8"), hopper("h20", "H20", "NV18"), h100_232,
       oci_h100],
      "  - {name: ndr, tech: ib-ndr}\n  - {name: roce-400, tech: roce-400}\n"
      # Google Cloud A3 Mega: eight 200 Gb/s NICs per node, GPUDirect-TCPXO
      # (lessizzmore/create-a3mega-ztan-fork)
      "  - {name: tcpxo, tech: tcpxo-200}\n"
      # OCI's cluster network with 200 Gb/s ports (README, "RoCE fabrics":
      # nonblocking, flow-aware traffic distribution)
      "  - {name: oci-cn-200, tech: roce-200, load_balancing: flow-aware}\n"
      # NVIDIA/nccl-tests#153: eight 100 Gb/s ConnectX-6 a node, IB or RoCE
      # not said (the model gives both the same on one switch)
      "  - {name: edr, tech: ib-edr}\n",
      "  - {name: h100, type: h100, switch: ndr, count: 128}\n"
      "  - {name: h100r, type: h100, switch: roce-400, count: 32}\n"
      "  - {name: h200, type: h200, switch: ndr, count: 248}\n"
      "  - {name: h800, type: h800, switch: ndr, count: 8}\n"
      "  - {name: h20, type: h20, switch: ndr, count: 2}\n"
      "  - {name: p232, type: h100-232, switch: roce-400, count: 2}\n"
      "  - {name: a3m, type: h100, switch: tcpxo, count: 2}\n"
      "  - {name: oh100, type: oci-h100, switch: oci-cn-200, count: 2}\n"
      "  - {name: h800e, type: h800, switch: edr, count: 2}\n")

# --- PCIe boxes ---
def pcie_box(ngpu, near):
    """near(i, j) -> level for GPU pairs."""
    return lambda i, j: near(i, j)
# nccl-tests#178: A100 PCIe NV12 bridge pairs (0,1) (2,3) ..., NODE within socket, SYS across
def l178(i, j):
    if i // 2 == j // 2:
        return "NV12"
    return "NODE" if (i < 4) == (j < 4) else "SYS"
a100_pcie = node_type("a100-pcie-nv12", "A100-PCIE-80GB", 8, 0, l178, sock8,
                      lambda g: "0-31,64-95" if g < 4 else "32-63,96-127")
h100_pcie = node_type("h100-pcie-pair", "H100-PCIE-80GB", 2, 0,
                      lambda i, j: "NV12", lambda g: 0, lambda g: "0-31")
# consumer boxes: two sockets, GPUs 0-3 / 4-7, NODE inside a socket, SYS across
def l_consumer(i, j):
    return "NODE" if (i < 4) == (j < 4) else "SYS"
rtx5090 = node_type("rtx5090x8", "RTX-5090", 8, 0, l_consumer, sock8, cpus8,
                    "    socket_gbs: sapphire-rapids  # two Xeon 8480+ (NVIDIA/nccl#1639)")
rtx4090 = node_type("rtx4090x8", "RTX-4090", 8, 0, l_consumer, sock8, cpus8)
# tinygrad/open-gpu-kernel-modules#36: 4 x 4090 on one socket, P2P driver
rtx4090p2p = node_type("rtx4090x4-p2p", "RTX-4090", 4, 0, lambda i, j: "PXB",
                       lambda g: 0, lambda g: "0-63", "    p2p: on")
# NVIDIA/nccl#384: two GPUs on PCIe Gen3 x16 through host memory
# (NCCL_P2P_DISABLE=1); the GPU model is not named, a Gen3 x16 card
# stands in (the model's PCIe figure depends on generation and width only)
gen3pair = node_type("gen3-pair-shm", "V100-PCIE-16GB", 2, 0, lambda i, j: "PHB",
                     lambda g: 0, lambda g: "0-15", "    p2p: off")
# Anthony-Hoo/Anthony-Hoo.github.io, AutoDL_Multi-GPU_Interconnection_Test.md:
# two RTX 2080 Ti at PIX (one PCIe Gen3 x16 switch), NUMA node 1, peer
# access not supported (nvidia-smi topo -p2p p: NS)
rtx2080ti_pix = node_type("rtx2080ti-pix-shm", "RTX-2080Ti", 2, 0, lambda i, j: "PIX",
                          lambda g: 1, lambda g: "24-47,72-95", "    p2p: off")
# eugenesiow/LLM-Insights, infrastructure/hardware/README.md: eight A40
# with NV4 bridges on pairs (0,1) (2,3) (4,5) (6,7), NODE within a socket
# (GPUs 0-3, 4-7), SYS across, as its abbreviated `nvidia-smi topo -m`
# shows; CPU affinities and the CPU are not given
def l_a40(i, j):
    if i // 2 == j // 2:
        return "NV4"
    return "NODE" if (i < 4) == (j < 4) else "SYS"
a40 = node_type("a40-nv4-pairs", "A40", 8, 0, l_a40, sock8, cpus8)
write("pcie.yaml", HDR, [a100_pcie, h100_pcie, rtx5090, rtx4090, rtx4090p2p, gen3pair,
                         rtx2080ti_pix, a40],
      "  - {name: eth, tech: eth-100}\n",
      "  - {name: a100p, type: a100-pcie-nv12, switch: eth}\n"
      "  - {name: h100p, type: h100-pcie-pair, switch: eth}\n"
      "  - {name: r5090, type: rtx5090x8, switch: eth}\n"
      "  - {name: r4090, type: rtx4090x8, switch: eth}\n"
      "  - {name: r4090p, type: rtx4090x4-p2p, switch: eth}\n"
      "  - {name: g3pair, type: gen3-pair-shm, switch: eth}\n"
      "  - {name: ad2080, type: rtx2080ti-pix-shm, switch: eth}\n"
      "  - {name: a40, type: a40-nv4-pairs, switch: eth}\n",
      "  RTX-5090: {base: RTX-4090, mem_gib: 32, mem_bw_gbs: 1792, fp16_tflops: 209.5, fp32_tflops: 104.8, pcie_gen: 5, tdp_w: 575}\n")
