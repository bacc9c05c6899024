/* Iteration-time and communication model.
 *
 * Iteration time = compute + exposed communication, where
 *   compute  comes from a calibrated profile (gp_perf_profile) when the
 *            job's DL model and GPU model have one, else from
 *            FLOPs / (peak x efficiency);
 *   comm     is the collective (ring / hierarchical / tree / PS) over the
 *            links the placement actually uses, with NCCL-like effective
 *            link bandwidths and per-step latencies;
 *   exposed  = max(0, comm - overlap x compute): communication proceeds
 *            while the backward pass of the same step still computes.
 *
 * Units: bytes, seconds, GB/s (10^9 B/s, per direction). */
#ifndef GPUPLAN_PERF_H
#define GPUPLAN_PERF_H

#include <stddef.h>

#include "gpuplan/model/catalog.h"
#include "gpuplan/model/cluster.h"
#include "gpuplan/util/error.h"
#include "gpuplan/model/job.h"
#include "gpuplan/model/placement.h"
#include "gpuplan/model/topo.h"

typedef struct gp_perf_profile gp_perf_profile;

/* ---- constants (man gpuplan, "Communication model", gives sources) ---- */
#define GP_PERF_ALPHA_NVLINK_S 3.4e-6  /* Ring Simple hwLat NVLink */
#define GP_PERF_ALPHA_PCIE_S 5.7e-6    /* Ring Simple hwLat PCIe */
#define GP_PERF_ALPHA_NET_S 14.0e-6    /* Ring Simple hwLat NET */
#define GP_PERF_SWITCH_S 0.5e-6        /* per switch traversal beyond the first */
#define GP_PERF_PCI_GEN3_X16_GBS 12.0  /* NCCL PCI_BW; doubles per generation */
#define GP_PERF_HOST_STAGING 0.8       /* no P2P: staged through host memory */
#define GP_PERF_SOCKET_GBS 16.0        /* inter-socket link for SYS (AMD_BW)
					* unless the node type's socket_gbs */
#define GP_PERF_NIC_EFFICIENCY 0.94    /* HDR 25 -> 23.5 GB/s (SimAI CX6) */
#define GP_PERF_NIC_EFFICIENCY_400 0.97 /* NDR 50 -> 48.5 GB/s (SimAI CX7) */
#define GP_PERF_NIC_NOGDR_GBS 16.0     /* a NIC without GPUDirect RDMA reach
					* (NCCL maintainers: "16 GB/s is normal") */
#define GP_PERF_NVLS_EFF_HOPPER 0.85   /* NCCL's NVLS efficiency factors */
#define GP_PERF_NVLS_EFF_BLACKWELL 0.74
#define GP_PERF_ECMP_COLLISION 0.4     /* time a static per-flow hash adds per
					* switch tier crossed (Meta's RoCE
					* fabric: up to 40 % AllReduce gain
					* from spreading flows, man gpuplan) */
#define GP_PERF_TREE_2NODE_NET 0.6   /* two-node tree: algbw per NIC GB/s
					* (busbw about 1.2 x the NICs) */
#define GP_PERF_CHUNK_BYTES 524288.0 /* NCCL_BUFFSIZE 4 MiB / NCCL_STEPS 8 */
#define GP_PERF_SHM_HOP_RATIO 1.8    /* a host-memory (SHM) hop's latency over
					* a PCIe P2P hop's (1.8 us against
					* NCCL's 1.0 for LL) */
#define GP_PERF_P2P_LL_BYTES 16384.0 /* NCCL_P2P_LL_THRESHOLD: a send/recv
				      * part for one peer up to this runs
				      * LL, a larger one Simple (no LL128) */
#define GP_PERF_NET_OVERHEAD_S 1.0e-6 /* NCCL's cost of launching one
				       * network operation (tuning.cc
				       * getNetOverhead; x3 for Simple) */
#define GP_PERF_LAUNCH_S 2.0e-6      /* host cost of one more kernel launch
					* when one process drives several GPUs */
#define GP_PERF_DEFAULT_EFFICIENCY 0.40 /* achieved/peak FLOPS when uncalibrated */
#define GP_PERF_DEFAULT_OVERLAP 0.5    /* share of compute that hides comm */

enum gp_coll {
	GP_COLL_ALLREDUCE = 0,
	GP_COLL_ALLGATHER,
	GP_COLL_REDUCESCATTER,
	GP_COLL_BROADCAST,
	GP_COLL_ALLTOALL,
	GP_COLL_SENDRECV,
	GP_COLL_COUNT
};
const char *gp_coll_name(int coll);
int gp_coll_parse(const char *s); /* -1 when unknown */

enum gp_algo {
	GP_ALGO_AUTO = 0, /* what NCCL would pick: the fastest of the
			   * algorithms it has for this collective and fabric */
	GP_ALGO_RING,
	GP_ALGO_HIER,     /* intra-node RS, one ring per rail across nodes, AG
			   * (Horovod-style; never picked by auto) */
	GP_ALGO_TREE,     /* NCCL double binary tree */
	GP_ALGO_PS,       /* parameter server push + pull (PS-Worker jobs) */
	GP_ALGO_NVLS,     /* NVLink SHARP inside one NVSwitch node */
	GP_ALGO_NVLSTREE, /* NVLS inside nodes, tree across them */
	GP_ALGO_COLLNET,  /* in-network reduction (IB SHARP) */
	GP_ALGO_P2P,      /* point-to-point (alltoall, sendrecv) */
	GP_ALGO_COUNT
};
const char *gp_algo_name(int algo);
int gp_algo_parse(const char *s); /* -1 when unknown */

enum gp_proto { GP_PROTO_LL = 0, GP_PROTO_LL128, GP_PROTO_SIMPLE, GP_PROTO_COUNT };
const char *gp_proto_name(int proto);

/* ---- link bandwidths ---- */

/* Effective GB/s of one NVLink of this GPU model (NCCL's per-generation
 * constants: 18, 20, 20, 20.6, 40.1; 12 for GA10x bridges); 0 without. */
double gp_perf_nvlink_gbs(const gp_gpu_model *m);
/* Effective GB/s of a PCIe link: 12 for Gen3 x16, doubling per generation,
 * proportional to lanes (gen <= 0 means 3, lanes <= 0 means 16). */
double gp_perf_pcie_gbs(int gen, int lanes);
/* Effective GB/s between two GPUs of model m joined by link l (per
 * direction, one pair, before sharing), with P2P over PCIe up to PXB.
 * m may be NULL (V100-like). */
double gp_perf_link_gbs(const gp_gpu_model *m, gp_link l);
/* The same for a pair that may (p2p != 0) or may not use direct peer
 * access: without it PCIe pairs are staged through host memory. */
double gp_perf_pair_gbs(const gp_gpu_model *m, gp_link l, int p2p);
/* The same with socket_gbs GB/s as the cap of a SYS pair (the link
 * between the CPU sockets; <= 0 means GP_PERF_SOCKET_GBS). */
double gp_perf_pair_gbs_socket(const gp_gpu_model *m, gp_link l, int p2p, double socket_gbs);
/* The cap of SYS hops on topo t: its socket_gbs, else GP_PERF_SOCKET_GBS. */
double gp_perf_socket_gbs(const gp_topo *t);
/* Whether GPUs a and b of topo t (model m) use direct peer access: NVLink
 * always; PCIe by t->p2p (a `topo -p2p` matrix), else t->p2p_mode, else
 * up to PXB except on consumer (GeForce) cards. */
int gp_perf_p2p_ok(const gp_topo *t, const gp_gpu_model *m, int a, int b);
/* Whether m is a consumer card (GeForce/RTX/TITAN): no PCIe P2P by
 * default. */
int gp_perf_is_consumer(const gp_gpu_model *m);
/* Per ring-step latency of a link level, seconds. */
double gp_perf_link_alpha(gp_link l);
/* Effective GB/s of one NIC port of line rate gbit Gb/s. */
double gp_perf_nic_gbs(double gbit);
/* GPU generation for NCCL's per-architecture limits: 6 Pascal and older,
 * 7 Volta/Turing, 8 Ampere/Ada, 9 Hopper, 10 Blackwell (from the NVLink
 * generation and name of m; 8 when unknown). */
int gp_perf_arch(const gp_gpu_model *m);

/* ---- collective formulas over an explicit two-level fabric ---- */

/* gp_perf_fabric.intra_hw (0: unknown, then judged from alpha_intra). */
enum { GP_PERF_HW_NVLINK = 1, GP_PERF_HW_PCI, GP_PERF_HW_NET };

/* What the cost formulas need to know about a set of GPUs. */
typedef struct gp_perf_fabric {
	int n;               /* ranks (GPUs) */
	int nodes;           /* nodes spanned, m */
	int per_node;        /* most GPUs on one node, g */
	double bw_intra;     /* GB/s per rank of the intra-node ring(s) */
	double bw_node_net;  /* GB/s of the NICs a node can use for the job,
			      * aggregate, after congestion; 0 when
			      * single-node */
	double alpha_intra;  /* seconds per intra-node step (Simple) */
	double alpha_inter;  /* seconds per inter-node step (Simple) */
	double bw_ps;        /* PS: GB/s of one parameter server's link, 0 =
			      * same as bw_node_net / bw_intra */
	int ps;              /* PS: servers (0 = 1) */
	/* Fabric measurements (zero = unknown, the formulas then fall back). */
	int arch;            /* gp_perf_arch of the GPUs (lowest) */
	int intra_hw;        /* GP_PERF_HW_NVLINK or _PCI: the intra-node ring */
	int nvswitch;        /* every node's GPUs hang off NVSwitches */
	double bw_gpu_nvl;   /* NVLink GB/s of one GPU into its NVSwitches */
	double bw_gpu_net;   /* network GB/s one GPU can use (alltoall) */
	double bw_p2p;       /* intra-node GB/s of one GPU to one peer */
	double net_switch_s; /* extra latency of the switch levels crossed */
	double bw_chan;      /* GB/s of one NCCL channel's link: one NVLink, the
			      * PCIe path, or one NIC port (pipeline fill) */
	int sharp;           /* in-network reduction across the nodes */
	int net_ib;          /* InfiniBand between the nodes */
	int intra_shm;       /* the ring's weakest hop inside a node has no
			      * peer access: host memory (NCCL's SHM) */
	double bw_intra_bcast; /* bw_intra for a broadcast (the hop into the
				* root idle); 0 = bw_intra */
	int net_nics;        /* NIC ports behind bw_node_net (the node with
			      * the slowest attachment): NCCL's tree and
			      * NVLS-tree take a channel per NIC; 0 unknown */
	int no_ll;           /* NCCL runs without its LL protocol (the
			      * settings a GPUDirect-TCPXO network needs) */
	double bw_ps_worker; /* PS: GB/s the slowest worker pushes its
			      * gradient at, 0 = bw_node_net / per_node
			      * across nodes, bw_intra on one */
} gp_perf_fabric;

typedef struct gp_perf_coll_result {
	double time_s;
	double algbw_gbps;   /* bytes / time */
	double busbw_gbps;   /* algbw x nccl-tests factor */
	double bw_gbps;      /* the bottleneck bandwidth the algorithm saw */
	int algo;            /* enum gp_algo actually used */
	int proto;           /* enum gp_proto actually used */
	double lat_s;        /* its latency term */
	char bottleneck[160];/* which link limits it, for people */
} gp_perf_coll_result;

/* nccl-tests bus-bandwidth factor: 2(n-1)/n, (n-1)/n or 1. */
double gp_perf_busbw_factor(int coll, int n);
/* Time of one collective of `bytes` (nccl-tests size: the buffer for
 * all-reduce/broadcast/sendrecv, the whole array for all-gather/
 * reduce-scatter, the send buffer for alltoall) with one algorithm and
 * its best protocol; < 0 when the algorithm does not apply. */
double gp_perf_coll_time(int coll, int algo, const gp_perf_fabric *f,
			 double bytes);
/* The requested algorithm (or, for GP_ALGO_AUTO, the fastest one NCCL
 * has for the collective); fills out.  out->bottleneck is left as it
 * was. */
void gp_perf_coll_eval(int coll, int algo, const gp_perf_fabric *f,
		       double bytes, gp_perf_coll_result *out);
/* One process driving g GPUs (nccl-tests -g g): it launches the
 * collective's kernels one GPU after the other, so the last starts
 * (g - 1) launches later (GP_PERF_LAUNCH_S each); adds that to out's
 * time and latency and recomputes its bandwidths. */
void gp_perf_coll_add_launch(gp_perf_coll_result *out, int coll, int n, double bytes, int g);

/* ---- within one node: rings over a GPU set ---- */

/* Best ring bandwidth over `ngpus` local GPUs of topo t (GPU model m):
 * the max-bottleneck Hamiltonian cycle; when that cycle is all NVLink,
 * NCCL runs several channels, so the bound becomes each GPU's NVLink
 * capacity into the set (capped by the model's link count).  PCIe pairs
 * without peer access (gp_perf_p2p_ok) are staged through host memory;
 * their flows share a PCIe switch's uplink (GPUs at PIX/PXB of each
 * other) and the receiving NUMA node's memory (topo host_mem_gbs).
 * Fills the weakest hop (a, b) and its link; returns GB/s (LOC_BW-like
 * 5000 for a single GPU). */
double gp_perf_ring_gbs(const gp_topo *t, const gp_gpu_model *m,
			const int *gpus, int ngpus, int *hop_a, int *hop_b,
			gp_link *hop_link);
/* gp_perf_ring_gbs, and into *bcast the same ring's rate for a broadcast
 * from gpus[0]: the hop into the root carries nothing, so hops staged
 * through host memory share less (two GPUs: one direction, not both). */
double gp_perf_ring_gbs_bcast(const gp_topo *t, const gp_gpu_model *m,
			      const int *gpus, int ngpus, int *hop_a, int *hop_b,
			      gp_link *hop_link, double *bcast);
/* What each GPU of gpus[] can move when all of them send to and receive
 * from their peers at once (alltoall; send/recv around the set): every
 * GPU with a peer reached only through host memory stages one flow out
 * and one in, so the GPUs under one PCIe switch share its uplink per
 * direction and the flows into a NUMA node its memory (host_mem_gbs), as
 * the ring's staged hops do.  1e300 when nothing is shared. */
double gp_perf_staged_peers_gbs(const gp_topo *t, const gp_gpu_model *m,
				const int *gpus, int ngpus);

/* ---- over a cluster and a placement ---- */

/* Derive the two-level fabric of the GPUs a placement uses (parts with
 * ngpus > 0; PS parts count as ranks too) and name its bottleneck. */
int gp_perf_fabric_of(const gp_cluster *c, const gp_placement *p,
		      gp_perf_fabric *f, char *bottleneck, size_t bsize,
		      gp_error *err);
/* The network GB/s one node can give the `ngpus` GPUs `gpus` of it: the
 * NICs within GPUDirect reach (PIX/PXB) of those GPUs at their effective
 * rate, each capped by its card's PCIe link; without any, the nearest
 * NIC per GPU through host memory (GP_PERF_NIC_NOGDR_GBS).  *nics gets
 * the NIC count used when non-NULL. */
double gp_perf_node_net_gbs(const gp_cluster *c, int node, const int *gpus,
			    int ngpus, int *nics);
/* Efficiency of the fabric between `nodes` nodes attached under switch
 * sw whose traffic crosses `levels` switch levels (1: one switch):
 * 1 / (1 + c log2(nodes/2)) over nodes > 2 when the switch or an
 * ancestor gives 'congestion' c; else 1 / (1 + GP_PERF_ECMP_COLLISION x
 * (levels - 1)) when flows are hashed statically (ECMP: RoCE and Ethernet
 * by default, InfiniBand without adaptive routing), 1 when they are
 * balanced (adaptive routing, flow-aware load balancing). */
double gp_perf_fabric_efficiency(const gp_cluster *c, int sw, int nodes, int levels);
/* One collective on a placement. */
int gp_perf_placement_collective(const gp_cluster *c, const gp_placement *p,
				 int coll, int algo, double bytes,
				 gp_perf_coll_result *out, gp_error *err);

typedef struct gp_perf_gavel_entry gp_perf_gavel_entry;

/* Iteration-time breakdown of a job on a placement. */
typedef struct gp_perf_iter {
	double compute_s;     /* per iteration */
	double comm_s;        /* gradient synchronisation, total */
	double exposed_s;     /* the part not hidden behind compute */
	double iter_s;        /* compute_s + exposed_s */
	double grad_bytes;    /* bytes synchronised per iteration */
	double overlap;
	int algo;             /* enum gp_algo */
	int gpus, nodes;
	const gp_perf_profile *profile; /* when compute/comm came from one */
	const gp_perf_profile *scaled;  /* compute scaled by peak FLOPS from
					 * this profile of another GPU */
	const gp_perf_gavel_entry *gavel; /* when the time is Gavel's measured
					   * throughput (no compute/comm split:
					   * all of it counts as compute) */
	double profile_comm_s; /* with a profile: its own fitted communication
				* (comm_s is recomputed over the placement's
				* links unless GP_PERF_PROFILE_COMM) */
	char bottleneck[160];
} gp_perf_iter;

/* Errors (GP_EINPUT) when the job lacks what the model needs (model
 * size/FLOPs and no profile) or the placement names unknown nodes.  A
 * PS-Worker job's placement is taken as a policy gives it: parts of role
 * 1 are its parameter servers (the first `ps` GPUs when no part has a
 * role), a server part beside a worker part timed on their node with it
 * (gp_perf_ps_view). */
int gp_perf_iteration(const gp_cluster *c, const gp_job *j,
		      const gp_placement *p, gp_perf_iter *out, gp_error *err);
/* Into view, placement p with every parameter-server part (role 1) that
 * shares its node with a worker part joined to the first such part, its
 * GPUs after the workers' (the fabric takes each part for a node); a
 * server alone on its node stays a part of its own.  Returns how many
 * server parts were joined. */
int gp_perf_ps_view(const gp_placement *p, gp_placement *view);
/* Simulator hook: seconds per iteration, or -1 when it cannot be modelled
 * (the simulator then keeps the job's own duration). */
double gp_perf_iteration_time(const gp_cluster *c, const gp_job *j,
			      const gp_placement *p);

/* Best and worst placements of job j on the idle cluster, by modelled
 * iteration time (man gpuplan, perf, for the layouts considered).
 * best/worst must be initialised; GP_NO when no node type fits. */
int gp_perf_best_worst(const gp_cluster *c, const gp_job *j,
		       gp_placement *best, gp_perf_iter *best_it,
		       gp_placement *worst, gp_perf_iter *worst_it,
		       gp_error *err);

/* ---- calibrated profiles (Sia placement files) ---- */

enum {
	GP_PP_C0 = 0,    /* compute: seconds per step at batch 0 */
	GP_PP_C1,        /* compute: seconds per sample */
	GP_PP_A_INTRA,   /* seconds per intra-node ring step */
	GP_PP_W_INTRA,   /* S / B_eff inside a node, seconds */
	GP_PP_A_INTER,   /* seconds per inter-node ring step */
	GP_PP_W_INTER,   /* S / B_eff across nodes, seconds */
	GP_PP_OVERLAP,   /* share of compute that hides communication */
	GP_PP_CONTEND,   /* compute slows by contend x (k-1)^cexp with k GPUs
			  * on the busiest node (shared host: data loading,
			  * PCIe, power) */
	GP_PP_SOLO,      /* seconds a single-GPU step spends that a
			  * multi-GPU step's compute does not (Sia's sync_time
			  * absorbs it) */
	GP_PP_CEXP,      /* contention exponent: < 1 saturates */
	GP_PP_CCOMM,     /* intra-node communication slows by ccomm x (k-1)^cexp
			  * with k GPUs on the busiest node */
	GP_PP_NPARAMS
};

/* Measured compute per iteration of one GPU, by local batch size: the
 * calibration profile table.  compute = step_time - sync_time of the
 * single-GPU rows (mean over repeats), batch sizes ascending. */
#define GP_PERF_CTAB_MAX 32
/* GPUs on one node a profile's per-node compute ratios cover. */
#define GP_PERF_KMAX 8
typedef struct gp_perf_ctab {
	int n;                  /* 0: no table, compute is c0 + c1 x bsz */
	double bsz[GP_PERF_CTAB_MAX];
	double compute[GP_PERF_CTAB_MAX];
} gp_perf_ctab;

struct gp_perf_profile {
	const char *dl_model;   /* "bert", "imagenet", ... (Sia names) */
	const char *platform;   /* "aws", "azure", "dgx", ... */
	const char *gpu;        /* GPU model key: "T4", "V100", "A100", ... */
	double p[GP_PP_NPARAMS];
	int nfit;               /* free parameters actually fitted */
	int rows;               /* measurements used */
	double mape;            /* step-time MAPE, fit on all rows, % */
	double mape_heldout;    /* fit on half the placements, test on the rest */
	gp_perf_ctab ctab;      /* single-GPU compute table (n = 0: none) */
	double peak_tflops;     /* the GPU's dense FP16 tensor peak */
	double peak_fp32_tflops;
	/* Measured compute of a multi-GPU step with k GPUs on the busiest
	 * node over the single-GPU compute at the same local batch (the
	 * files' step_time - sync_time), k = 1..GP_PERF_KMAX (k = 1: one
	 * GPU a node on several nodes); 0 where no placement had k. */
	double kcompute[GP_PERF_KMAX];
};

/* Built-in table written by `gpuplan calibrate --write` (calibration.c). */
extern const gp_perf_profile gp_perf_profiles[];
extern const int gp_perf_nprofiles;

/* Per-GPU-model summary of the same fit (medians over DL models). */
typedef struct gp_perf_gpu_calib {
	const char *gpu;        /* key as in gp_perf_profile.gpu */
	double efficiency;      /* achieved/peak FLOPS of ResNet-50 (imagenet) */
	double alpha_us;        /* median intra-node step latency */
	double overlap;         /* median overlap */
} gp_perf_gpu_calib;
extern const gp_perf_gpu_calib gp_perf_gpu_calibs[];
extern const int gp_perf_ngpu_calibs;

/* Whether GPU model name (catalog spelling, e.g. "A100-SXM4-40GB") is the
 * GPU of key ("A100"); case and punctuation are ignored. */
int gp_perf_gpu_matches(const char *name, const char *key);
/* Of the profiles of a DL model, the one whose GPU peak (FP32 when fp32,
 * else FP16) is nearest to `peak` in ratio; NULL when the model has none. */
const gp_perf_profile *gp_perf_profile_nearest(const char *dl_model, double peak,
					       int fp32);
/* Profile for (DL model name or alias, GPU model name); NULL when none. */
const gp_perf_profile *gp_perf_profile_find(const char *dl_model,
					    const char *gpu_name);
const gp_perf_gpu_calib *gp_perf_gpu_calib_find(const char *gpu_name);

/* Step time of a profile for n GPUs on `nodes` nodes, at most per_node on
 * one node, at local batch bsz; breakdown into compute, total and exposed
 * communication when non-NULL.  Single-GPU compute is c0 + c1 x bsz. */
double gp_perf_profile_step(const double *p, int n, int nodes, int per_node,
			    double bsz, double *compute, double *comm,
			    double *exposed);
/* The same with single-GPU compute from table t when t->n > 0 (t may be
 * NULL): linear between profiled batch sizes; below the smallest, on the
 * line from (0, min(c0, t0)) to the first point; above the largest, the
 * last point plus c1 per extra sample (c1 <= 0: constant throughput). */
double gp_perf_profile_step_tab(const gp_perf_ctab *t, const double *p, int n,
				int nodes, int per_node, double bsz,
				double *compute, double *comm, double *exposed);
/* Compute seconds of a built-in profile's step on n GPUs, at most
 * per_node on one node, at local batch bsz, as its files measured it:
 * the single-GPU compute times the measured ratio for per_node GPUs on a
 * node (the nearest measured count below, else above; none measured:
 * the fitted form of gp_perf_profile_step_tab).  The fitted contention
 * also absorbs the waiting the files count as sync time on the machines
 * measured, which belongs to their hosts and links, not to compute. */
double gp_perf_profile_compute(const gp_perf_profile *pr, int n, int per_node, double bsz);
/* Single-GPU compute seconds of table t (or the line of p) at bsz. */
double gp_perf_ctab_compute(const gp_perf_ctab *t, const double *p, double bsz);
/* Step time of a built-in profile (its table when it has one). */
double gp_perf_profile_eval(const gp_perf_profile *pr, int n, int nodes,
			    int per_node, double bsz, double *compute,
			    double *comm, double *exposed);

/* Exposed communication: max(0, comm - overlap x compute). */
double gp_perf_exposed(double compute, double comm, double overlap);

/* ---- calibration ---- */

typedef struct gp_perf_sample {
	int n, nodes, per_node; /* GPUs, nodes, most GPUs on one node */
	char placement[24];     /* as written in the file, e.g. "1122" */
	double bsz, step, sync;
} gp_perf_sample;

typedef struct gp_perf_dataset {
	char *path;
	gp_perf_sample *rows;
	size_t n, cap;
} gp_perf_dataset;

#define GP_PERF_MAX_ROWS 200000

void gp_perf_dataset_init(gp_perf_dataset *d);
void gp_perf_dataset_release(gp_perf_dataset *d);
/* Read a Sia placements-*.csv (columns local_bsz, step_time, sync_time,
 * placement in any order).  Errors carry FILE:LINE:COL. */
int gp_perf_dataset_load(const char *path, gp_perf_dataset *d, gp_error *err);

/* Build the compute table from the single-GPU rows whose mask entry is
 * non-zero (mask NULL = all rows): per distinct local batch size, the
 * mean of step_time - sync_time.  t->n = 0 when there are none (the fit
 * then keeps the c0 + c1 x bsz line); more than GP_PERF_CTAB_MAX batch
 * sizes is an error. */
int gp_perf_ctab_build(const gp_perf_dataset *d, const unsigned char *mask,
		       gp_perf_ctab *t, gp_error *err);
/* The per-node compute ratios of gp_perf_profile.kcompute from the rows
 * on several GPUs whose mask entry is non-zero (mask NULL = all rows) and
 * whose local batch size table t (built with the same mask) holds: for
 * each count k of GPUs on the busiest node, the mean over those rows of
 * (step - sync) / t's compute at the row's batch size. */
void gp_perf_kcompute_build(const gp_perf_dataset *d, const unsigned char *mask,
			    const gp_perf_ctab *t, double *kcompute);
/* Fit the profile parameters to the rows whose mask entry is non-zero
 * (mask NULL = all rows) with GSL's trust-region Levenberg-Marquardt on
 * relative step-time residuals.  With a table (t non-NULL, t->n > 0), c0
 * and c1 are the least-squares line through the table (used only beyond
 * its ends) and only communication, contention and overlap are free.
 * Returns GP_OK or GP_EIO (fit failed). */
int gp_perf_fit(const gp_perf_dataset *d, const unsigned char *mask,
		const gp_perf_ctab *t, double *p, int *nfit, gp_error *err);
/* Step-time MAPE (%) of (t, p) on the rows whose mask entry equals want
 * (mask NULL = all rows); t may be NULL. */
double gp_perf_mape(const gp_perf_dataset *d, const unsigned char *mask,
		    int want, const gp_perf_ctab *t, const double *p);
/* Held-out split: placements sorted by (GPUs, nodes, string); every other
 * distinct placement goes to the training half (mask 1), the rest 0. */
void gp_perf_split_half(const gp_perf_dataset *d, unsigned char *mask);

/* ---- Gavel's measured throughputs (traces README section 5) ---- */

enum { GP_GAVEL_K80 = 0, GP_GAVEL_P100, GP_GAVEL_V100, GP_GAVEL_NGPU };
/* FP32 peak of Gavel's V100 workers (V100-PCIE-16GB in the catalog): on
 * a GPU Gavel did not measure, a Gavel job type takes V100's time x this
 * / the GPU's FP32 peak. */
#define GP_PERF_GAVEL_V100_FP32 14.0
extern const char *const gp_perf_gavel_gpus[GP_GAVEL_NGPU]; /* "K80", ... */

/* Isolated throughput of one Gavel job type at one scale factor. */
struct gp_perf_gavel_entry {
	const char *model;      /* Gavel's name: "ResNet-50", "LM", "A3C", ... */
	int batch;              /* from "(batch size N)"; 0 when the type has none */
	int scale;              /* GPUs */
	double thr[GP_GAVEL_NGPU];        /* iterations/s, one server; 0 = none */
	double thr_spread[GP_GAVEL_NGPU]; /* the same spread over servers */
};

/* Built-in table (calibration.c, from `calibrate --gavel`). */
extern const gp_perf_gavel_entry gp_perf_gavel_table[];
extern const int gp_perf_gavel_n;

typedef struct gp_perf_gavel {
	gp_perf_gavel_entry *e; /* model strings owned */
	size_t n, cap;
} gp_perf_gavel;

void gp_perf_gavel_init(gp_perf_gavel *g);
void gp_perf_gavel_release(gp_perf_gavel *g);
/* Read Gavel's simulation_throughputs.json: worker types k80, p100, v100
 * and their *_unconsolidated variants, keys "('<job type>', <scale>)",
 * the isolated value under "null" (co-location pairs are ignored).
 * Entries come out sorted by (model, batch, scale). */
int gp_perf_gavel_load(const char *path, gp_perf_gavel *g, gp_error *err);

/* Entry of table t (n entries) for a DL model, batch and scale; NULL when
 * Gavel did not measure exactly that. */
const gp_perf_gavel_entry *gp_perf_gavel_find(const gp_perf_gavel_entry *t, int n,
					      const char *dl_model, int batch,
					      int scale);
/* Index (GP_GAVEL_*) of a GPU model name, -1 when Gavel has no such worker. */
int gp_perf_gavel_gpu(const char *gpu_name);

/* Speed corrections of the FLOPs estimate fitted to Gavel's relative
 * speeds (calibrate --gavel): on this GPU the efficiency is multiplied by
 * cnn (CNN models) or other (the rest); V100 is the reference, 1. */
typedef struct gp_perf_gavel_speed {
	const char *gpu;        /* "K80", "P100" */
	double cnn, other;
} gp_perf_gavel_speed;
extern const gp_perf_gavel_speed gp_perf_gavel_speeds[];
extern const int gp_perf_ngavel_speeds;

/* gp_perf_iteration with options: GP_PERF_NO_GAVEL leaves Gavel's
 * measurements out (the table and the speed corrections), which is how
 * `calibrate --gavel` cross-checks the model against them. */
#define GP_PERF_NO_GAVEL 1u
/* GP_PERF_PROFILE_COMM: a profiled job keeps the profile's fitted
 * communication instead of the collective over the placement's links. */
#define GP_PERF_PROFILE_COMM 2u
int gp_perf_iteration_opts(const gp_cluster *c, const gp_job *j,
			   const gp_placement *p, unsigned flags,
			   gp_perf_iter *out, gp_error *err);
/* The job on one GPU of model m alone (no cluster, no synchronisation):
 * Gavel's measurement, a profile of its DL model, or the estimate, as
 * gp_perf_iteration does on a one-GPU placement.  Not for large-model
 * jobs (GP_EINPUT). */
int gp_perf_single_gpu(const gp_gpu_model *m, const gp_job *j, gp_perf_iter *out, gp_error *err);

#endif
