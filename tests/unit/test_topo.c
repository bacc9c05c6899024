/* Topology import and derived structures, on the real snapshots in
 * topologies/ (origin: topologies/SOURCES.md).  Every expected value was
 * read by hand from the snapshot text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/snapshot.h"
#include "gpuplan/model/topo.h"
#include "gpuplan/util/util.h"
#include "testlib.h"

static gp_topo T;
static gp_error E;

static int load(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s", gp_test_path(rel));
	gp_error_clear(&E);
	return gp_topo_load(path, &T, &E);
}

static int load_snap(const char *name, int ngpus, int nnics)
{
	char rel[512];
	int rc;

	snprintf(rel, sizeof(rel), "topologies/%s", name);
	rc = load(rel);
	CU_ASSERT_EQUAL_FATAL(rc, GP_OK);
	if (rc)
		fprintf(stderr, "%s:%d:%d: %s\n", E.file, E.line, E.col, E.msg);
	CU_ASSERT_EQUAL(T.ngpus, ngpus);
	CU_ASSERT_EQUAL(T.nnics, nnics);
	return rc;
}

static int dev(const char *id)
{
	int i;

	for (i = 0; i < T.ngpus; i++)
		if (!strcmp(T.gpus[i].id, id))
			return i;
	for (i = 0; i < T.nnics; i++)
		if (!strcmp(T.nics[i].id, id))
			return T.ngpus + i;
	return -1;
}

/* Cell as text, e.g. cell("GPU0", "NIC1") -> "PXB". */
static const char *cell(const char *a, const char *b)
{
	static char buf[16];
	int i = dev(a), j = dev(b);

	if (i < 0 || j < 0)
		return "?";
	return gp_link_format(gp_topo_link(&T, i, j), buf, sizeof(buf));
}

#define CELL(a, b, want) CU_ASSERT_STRING_EQUAL(cell(a, b), want)

/* CPU list: count, first, last and one number that must be in it. */
static void cpus(int g, int n, int first, int last)
{
	CU_ASSERT_EQUAL(T.gpus[g].ncpus, n);
	if (T.gpus[g].ncpus != n || n == 0)
		return;
	CU_ASSERT_EQUAL(T.gpus[g].cpus[0], first);
	CU_ASSERT_EQUAL(T.gpus[g].cpus[n - 1], last);
}

static int has_cpu(int g, int c)
{
	int i;

	for (i = 0; i < T.gpus[g].ncpus; i++)
		if (T.gpus[g].cpus[i] == c)
			return 1;
	return 0;
}

/* ---- one test per snapshot ---- */

static void test_delos(void)
{
	if (load_snap("4gpu-nvlink-hybrid-nv1-nv2-no-nic-delos-hpi.txt", 4, 0))
		return;
	CELL("GPU0", "GPU1", "NV2");
	CELL("GPU0", "GPU3", "SYS");
	CELL("GPU1", "GPU3", "NV1");
	CELL("GPU2", "GPU1", "SYS");
	cpus(0, 40, 0, 59);
	CU_ASSERT(!has_cpu(0, 20) && has_cpu(0, 40));
	cpus(3, 40, 20, 79);
	CU_ASSERT_EQUAL(T.gpus[1].numa, 0);
	CU_ASSERT_EQUAL(T.gpus[2].numa, 1);
	gp_topo_release(&T);
}

static void test_della_a100(void)
{
	if (load_snap("a100-pcie-2gpu-2nic-della-princeton.txt", 2, 2))
		return;
	CELL("GPU0", "GPU1", "SYS");
	CELL("GPU0", "NIC0", "NODE");
	CELL("NIC1", "GPU1", "NODE");
	CELL("NIC0", "NIC1", "SYS");
	CU_ASSERT_STRING_EQUAL(T.nics[0].device, "mlx5_0");
	CU_ASSERT_STRING_EQUAL(T.nics[1].device, "mlx5_1");
	cpus(0, 64, 0, 63);
	cpus(1, 64, 64, 127);
	CU_ASSERT_EQUAL(T.gpus[1].numa, 1);
	CU_ASSERT_EQUAL(T.nics[1].numa, 1);
	CU_ASSERT(T.flags & GP_TOPO_F_RAW_NIC_NAMES);
	CU_ASSERT(T.flags & GP_TOPO_F_PCIE_ONLY);
	gp_topo_release(&T);
}

static void test_sglang_interleaved(void)
{
	if (load_snap("a100-pcie-2gpu-sys-interleaved-cpulist-sglang-17680.txt", 2, 0))
		return;
	CELL("GPU1", "GPU0", "SYS");
	cpus(0, 6, 0, 10);
	cpus(1, 6, 1, 11);
	CU_ASSERT(has_cpu(0, 4) && !has_cpu(0, 5));
	CU_ASSERT_EQUAL(T.gpus[0].numa, 0);
	CU_ASSERT_EQUAL(T.gpus[1].numa, 1);
	CU_ASSERT_EQUAL(T.gpus[1].gpu_numa_id, -1);
	gp_topo_release(&T);
}

static void test_k8s_436(void)
{
	if (load_snap("a100-pcie-4gpu-one-nv12-bridge-pair-2nic-k8s-device-plugin-436.txt", 4, 2))
		return;
	CELL("GPU0", "GPU1", "NV12");
	CELL("GPU2", "GPU3", "NODE");
	CELL("GPU3", "NIC1", "SYS");
	CELL("NIC0", "NIC1", "PIX");
	cpus(2, 56, 28, 111);
	CU_ASSERT(has_cpu(2, 84) && !has_cpu(2, 56));
	CU_ASSERT_EQUAL(T.gpus[3].numa, 1);
	CU_ASSERT_STRING_EQUAL(T.nics[1].device, "mlx5_1");
	gp_topo_release(&T);
}

static void test_locuaz_indented(void)
{
	if (load_snap("a100-sxm-4gpu-nv4-4nic-pxb-rst-indented-locuaz.txt", 4, 4))
		return;
	CELL("GPU0", "GPU3", "NV4");
	CELL("GPU2", "NIC2", "PXB");
	CELL("GPU2", "NIC3", "NODE");
	CELL("NIC3", "NIC0", "NODE");
	cpus(3, 16, 0, 15);
	CU_ASSERT_EQUAL(T.gpus[3].numa, 0);
	CU_ASSERT_STRING_EQUAL(T.nics[3].device, "mlx5_3");
	gp_topo_release(&T);
}

static void test_fastdeploy_4socket(void)
{
	if (load_snap("a100-sxm4-40gb-8gpu-3nic-4socket-fastdeploy.txt", 8, 3))
		return;
	CELL("GPU0", "GPU7", "NV12");
	CELL("GPU1", "NIC0", "PXB");
	CELL("GPU2", "NIC1", "NODE");
	CELL("GPU7", "NIC2", "SYS");
	CELL("NIC1", "NIC2", "NODE");
	cpus(0, 40, 0, 99);
	cpus(6, 40, 60, 159);
	CU_ASSERT(has_cpu(5, 120) && !has_cpu(5, 60));
	CU_ASSERT_EQUAL(T.gpus[4].numa, 2);
	CU_ASSERT_EQUAL(T.gpus[7].numa, 3);
	CU_ASSERT_STRING_EQUAL(T.nics[2].device, "mlx5_2");
	CU_ASSERT_EQUAL(T.nics[0].numa, 0);
	CU_ASSERT_EQUAL(T.nics[2].numa, 1);
	gp_topo_release(&T);
}

static void test_club3090_5gpu(void)
{
	if (load_snap("consumer-5gpu-mixed-phb-node-sys-club3090-46.txt", 5, 0))
		return;
	CELL("GPU1", "GPU2", "PHB");
	CELL("GPU1", "GPU3", "NODE");
	CELL("GPU4", "GPU3", "PHB");
	CELL("GPU0", "GPU4", "SYS");
	cpus(0, 16, 8, 31);
	cpus(4, 16, 0, 23);
	CU_ASSERT_EQUAL(T.gpus[0].numa, 1);
	CU_ASSERT_EQUAL(T.gpus[2].numa, 0);
	gp_topo_release(&T);
}

static void test_dgx1(void)
{
	if (load_snap("dgx1-v100-8gpu-4nic-pytorch-ddp-readme.txt", 8, 4))
		return;
	/* Columns mlx5_2 mlx5_0 mlx5_3 mlx5_1 become NIC0..NIC3. */
	CU_ASSERT_STRING_EQUAL(T.nics[0].device, "mlx5_2");
	CU_ASSERT_STRING_EQUAL(T.nics[1].device, "mlx5_0");
	CU_ASSERT_STRING_EQUAL(T.nics[2].device, "mlx5_3");
	CU_ASSERT_STRING_EQUAL(T.nics[3].device, "mlx5_1");
	CELL("GPU0", "GPU3", "NV2");
	CELL("GPU0", "GPU1", "NV1");
	CELL("GPU0", "GPU5", "SYS");
	CELL("GPU0", "NIC1", "PIX"); /* mlx5_0 */
	CELL("GPU0", "NIC3", "PHB"); /* mlx5_1 */
	CELL("GPU6", "NIC2", "PIX"); /* mlx5_3 */
	CELL("NIC0", "NIC2", "PHB");
	cpus(7, 40, 0, 59);
	CU_ASSERT_EQUAL(T.gpus[0].numa, -1);
	CU_ASSERT(T.flags & GP_TOPO_F_NO_NUMA_COLUMN);
	gp_topo_release(&T);
}

static void test_gb200(void)
{
	if (load_snap("gb200-4gpu-tray-8nic-nv18-rhel4nv.txt", 4, 8))
		return;
	CELL("GPU0", "GPU3", "NV18");
	CELL("GPU2", "NIC5", "SYS");
	CELL("NIC2", "NIC3", "PIX");
	CELL("NIC7", "NIC6", "PIX");
	cpus(0, 72, 0, 71);
	cpus(3, 72, 72, 143);
	CU_ASSERT_EQUAL(T.gpus[0].numa, 0); /* "0,2-17" */
	CU_ASSERT_EQUAL(T.gpus[2].numa, 1); /* "1,18-33" */
	CU_ASSERT_STRING_EQUAL(T.nics[5].device, "mlx5_5");
	CU_ASSERT_STRING_EQUAL(T.nics[6].device, ""); /* legend stops at NIC5 */
	CU_ASSERT_EQUAL(T.nics[0].numa, -1);           /* all SYS */
	CU_ASSERT(T.flags & GP_TOPO_F_NIC_LEGEND_PARTIAL);
	CU_ASSERT(T.flags & GP_TOPO_F_NUMA_LIST);
	gp_topo_release(&T);
}

static void test_gh200(void)
{
	if (load_snap("gh200-4gpu-hpe-cray-ex-nv6.txt", 4, 0))
		return;
	CELL("GPU0", "GPU1", "NV6");
	CELL("GPU3", "GPU2", "NV6");
	cpus(2, 72, 144, 215);
	CU_ASSERT_EQUAL(T.gpus[1].numa, 1);
	CU_ASSERT_EQUAL(T.gpus[0].gpu_numa_id, 4);
	CU_ASSERT_EQUAL(T.gpus[3].gpu_numa_id, 28);
	gp_topo_release(&T);
}

static void test_mooncake(void)
{
	if (load_snap("h100-dell-8gpu-12nic-nv18-cpuset-mooncake-2039.txt", 8, 12))
		return;
	CELL("GPU0", "NIC2", "PIX");
	CELL("GPU1", "NIC3", "PIX");
	CELL("GPU4", "NIC8", "PIX");
	CELL("GPU7", "NIC0", "SYS");
	CELL("NIC10", "NIC11", "NODE");
	CELL("GPU3", "GPU6", "NV18");
	cpus(0, 5, 4, 12);
	cpus(7, 6, 1, 11);
	CU_ASSERT(has_cpu(0, 8) && !has_cpu(0, 5));
	CU_ASSERT_EQUAL(T.gpus[5].numa, 1);
	CU_ASSERT_STRING_EQUAL(T.nics[11].device, "mlx5_11");
	CU_ASSERT_EQUAL(T.nics[11].numa, 1);
	gp_topo_release(&T);
}

static void test_nccl1617(void)
{
	if (load_snap("h100-hgx-4gpu-nv6-4nic-pix-nps-cpuset-nccl-1617-TRUNCATED-legend.txt", 4, 4))
		return;
	CELL("GPU1", "NIC1", "PIX");
	CELL("GPU1", "NIC2", "SYS");
	CELL("GPU2", "GPU3", "NV6");
	cpus(0, 4, 6, 30);
	cpus(2, 4, 7, 31);
	CU_ASSERT_EQUAL(T.gpus[0].numa, 3);
	CU_ASSERT_EQUAL(T.gpus[2].numa, 7);
	CU_ASSERT_EQUAL(T.nics[3].numa, 5);
	CU_ASSERT_STRING_EQUAL(T.nics[0].device, ""); /* no NIC legend kept */
	gp_topo_release(&T);
}

static void test_della_h100_one_gpu(void)
{
	if (load_snap("h100-sxm-1gpu-visible-6nic-slurm-cgroup-princeton-della.txt", 1, 6))
		return;
	CELL("GPU0", "NIC1", "PIX");
	CELL("GPU0", "NIC2", "SYS");
	CELL("NIC3", "NIC4", "PIX");
	cpus(0, 1, 0, 0);
	CU_ASSERT_EQUAL(T.gpus[0].numa, 0);
	CU_ASSERT_STRING_EQUAL(T.nics[4].device, "mlx5_4");
	gp_topo_release(&T);
}

static void test_scicom_allphb(void)
{
	if (load_snap("h100-sxm-4gpu-vm-8nic-allphb-scicom.txt", 4, 8))
		return;
	CELL("GPU0", "GPU2", "NV18");
	CELL("GPU3", "NIC7", "PHB");
	CELL("NIC7", "NIC6", "PHB");
	cpus(1, 80, 0, 79);
	CU_ASSERT_EQUAL(T.gpus[3].numa, 0);
	CU_ASSERT_STRING_EQUAL(T.nics[7].device, "mlx5_7");
	gp_topo_release(&T);
}

static void test_pli_empty_affinity(void)
{
	if (load_snap("h100-sxm-8gpu-6nic-empty-cpuaffinity-princeton-pli.txt", 8, 6))
		return;
	CELL("GPU0", "NIC1", "PIX");
	CELL("GPU3", "NIC2", "PIX");
	CELL("GPU6", "NIC5", "PIX");
	CELL("GPU7", "NIC0", "NODE");
	CELL("NIC3", "NIC4", "PIX");
	CU_ASSERT_EQUAL(T.gpus[0].ncpus, 0); /* empty field */
	CU_ASSERT_EQUAL(T.gpus[0].numa, 0);
	cpus(4, 1, 1, 1);
	CU_ASSERT_EQUAL(T.gpus[4].numa, 1);
	CU_ASSERT(T.flags & GP_TOPO_F_EMPTY_AFFINITY);
	gp_topo_release(&T);
}

static void test_traverse(void)
{
	if (load_snap("ibm-ac922-power9-v100-4gpu-nv3-4nic-traverse.txt", 4, 4))
		return;
	CELL("GPU0", "GPU1", "NV3");
	CELL("GPU1", "GPU2", "SYS");
	CELL("GPU2", "NIC3", "NODE"); /* mlx5_3 */
	CELL("NIC2", "NIC3", "PIX");
	cpus(2, 64, 64, 127);
	CU_ASSERT_EQUAL(T.gpus[2].numa, 8);
	CU_ASSERT_EQUAL(T.nics[2].numa, 8);
	gp_topo_release(&T);
}

static void test_hpi_ac922(void)
{
	if (load_snap("ibm-ac922-power9-v100-4gpu-nv3-6nic-hpi.txt", 4, 6))
		return;
	CELL("GPU2", "GPU3", "NV3");
	CELL("GPU3", "NIC5", "NODE"); /* mlx5_5 */
	CELL("NIC4", "NIC5", "PIX");
	CELL("NIC0", "NIC5", "SYS");
	cpus(0, 64, 0, 63);
	CU_ASSERT_EQUAL(T.gpus[3].numa, 8);
	CU_ASSERT_STRING_EQUAL(T.nics[5].device, "mlx5_5");
	gp_topo_release(&T);
}

static void test_k80_soc(void)
{
	if (load_snap("k80-4gpu-pix-soc-1nic-nimbix-oldlegend-UNRESOLVED-REPO.txt", 4, 1))
		return;
	CELL("GPU0", "GPU1", "PIX");
	CELL("GPU0", "GPU2", "SYS"); /* SOC */
	CELL("GPU3", "NIC0", "PHB");
	cpus(2, 8, 8, 15);
	CU_ASSERT_EQUAL(T.gpus[2].numa, -1);
	CU_ASSERT_STRING_EQUAL(T.nics[0].device, "mlx5_0");
	CU_ASSERT(T.flags & GP_TOPO_F_OLD_SOC);
	gp_topo_release(&T);
}

static void test_oci_18nic(void)
{
	if (load_snap("oci-a100-8gpu-18nic-nps4-bigtimcowen.txt", 8, 18))
		return;
	CELL("GPU0", "NIC5", "PXB");
	CELL("GPU4", "NIC17", "PXB");
	CELL("GPU6", "NIC9", "PXB");
	CELL("GPU0", "NIC0", "SYS");
	CELL("NIC16", "NIC17", "PIX");
	cpus(0, 16, 48, 63);
	cpus(4, 16, 112, 127);
	CU_ASSERT_EQUAL(T.gpus[2].numa, 1);
	CU_ASSERT_EQUAL(T.gpus[6].numa, 5);
	CU_ASSERT_STRING_EQUAL(T.nics[17].device, "mlx5_17");
	CU_ASSERT(T.flags & GP_TOPO_F_CRLF);
	gp_topo_release(&T);
}

static void test_k8s_546(void)
{
	if (load_snap("pcie-8gpu-nv12-bridge-pairs-no-nic-k8s-device-plugin-546.txt", 8, 0))
		return;
	CELL("GPU0", "GPU2", "NV12");
	CELL("GPU1", "GPU3", "NV12");
	CELL("GPU0", "GPU1", "SYS");
	CELL("GPU6", "GPU7", "NV12");
	cpus(5, 32, 32, 63);
	CU_ASSERT_EQUAL(T.gpus[3].numa, 0);
	CU_ASSERT_EQUAL(T.gpus[4].numa, 1);
	gp_topo_release(&T);
}

static void test_rtx3090_na(void)
{
	if (load_snap("rtx3090-2gpu-sys-numa-na-quirk-club3090-178-TRUNCATED-legend.txt", 2, 0))
		return;
	CELL("GPU0", "GPU1", "SYS");
	cpus(0, 16, 0, 23);
	cpus(1, 16, 8, 31);
	CU_ASSERT_EQUAL(T.gpus[0].numa, -1); /* empty, then surplus N/A */
	CU_ASSERT_EQUAL(T.gpus[1].numa, 1);
	CU_ASSERT(T.flags & GP_TOPO_F_EXTRA_FIELD);
	gp_topo_release(&T);
}

/* ---- the two real snapshots cut off after a complete row ---- */

/* DGX-2 (nccl-tests#78): header names 16 GPUs and mlx5_0..mlx5_9, rows
 * stop after GPU3 (line 5).  Only GPU0-GPU3 are kept, no NIC. */
static void test_dgx2_truncated(void)
{
	char buf[512];
	gp_topo_derived *d;

	if (load_snap("dgx2-v100-16gpu-nv6-10nic-nccl-tests-78-TRUNCATED.txt", 4, 0))
		return;
	CELL("GPU0", "GPU1", "NV6");
	CELL("GPU3", "GPU2", "NV6");
	CELL("GPU1", "GPU3", "NV6");
	CELL("GPU2", "GPU2", "X");
	CU_ASSERT_EQUAL(dev("GPU4"), -1);
	CU_ASSERT_EQUAL(dev("NIC0"), -1);
	/* "0-23,48-71" on every row; no NUMA column. */
	cpus(0, 48, 0, 71);
	cpus(3, 48, 0, 71);
	CU_ASSERT(has_cpu(2, 23) && !has_cpu(2, 24) && has_cpu(2, 48));
	CU_ASSERT_EQUAL(T.gpus[1].numa, -1);
	CU_ASSERT(T.flags & GP_TOPO_F_TRUNCATED);
	CU_ASSERT(T.flags & GP_TOPO_F_NO_NUMA_COLUMN);
	CU_ASSERT_EQUAL(T.cut.last_line, 5);
	CU_ASSERT_EQUAL(T.cut.missing_line, 6);
	CU_ASSERT_STRING_EQUAL(T.cut.last_row, "GPU3");
	CU_ASSERT_EQUAL(T.cut.header_gpus, 16);
	CU_ASSERT_EQUAL(T.cut.header_nics, 10);
	CU_ASSERT_EQUAL(T.cut.dropped_gpus, 12);
	CU_ASSERT_EQUAL(T.cut.dropped_nics, 10);
	CU_ASSERT_STRING_EQUAL(T.cut.gpu_first, "GPU4");
	CU_ASSERT_STRING_EQUAL(T.cut.gpu_last, "GPU15");
	CU_ASSERT_STRING_EQUAL(T.cut.nic_first, "mlx5_0");
	CU_ASSERT_STRING_EQUAL(T.cut.nic_last, "mlx5_9");
	CU_ASSERT_STRING_EQUAL(gp_topo_cut_describe(&T, buf, sizeof(buf)),
			       "matrix truncated after row GPU3; imported 4 of 16 GPUs and 0 of 10 NICs (dropped GPU4..GPU15, mlx5_0..mlx5_9)");
	/* The partial view is a usable node type: an NV6 ring, no NIC. */
	d = gp_topo_derived_new(&T, &E);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT(gp_ring_nvlink(d, 0xf));
	CU_ASSERT_EQUAL(d->gpu_nic[0], -1);
	gp_topo_derived_free(d);
	gp_topo_release(&T);
}

/* H100 HGX (nccl#1453): all 8 GPU rows and NIC0-NIC5 rows (line 15); the
 * NIC6-NIC8 rows are missing, so those NICs are dropped even though the
 * GPU rows have cells for them. */
static void test_nccl1453_truncated(void)
{
	char buf[512];
	gp_topo_derived *d;

	if (load_snap("h100-hgx-8gpu-9nic-rail-plus-frontend-nccl-1453-TRUNCATED.txt", 8, 6))
		return;
	CELL("GPU0", "GPU7", "NV18");
	CELL("GPU0", "NIC5", "NODE");
	CELL("GPU3", "NIC5", "PIX");
	CELL("GPU4", "NIC4", "PIX");
	CELL("GPU7", "NIC1", "PIX");
	CELL("GPU7", "NIC0", "SYS");
	CELL("NIC1", "NIC2", "NODE");
	CELL("NIC5", "NIC4", "SYS");
	CELL("NIC0", "NIC3", "SYS");
	CU_ASSERT_EQUAL(dev("NIC6"), -1);
	cpus(0, 80, 0, 79);
	cpus(3, 80, 0, 79);
	cpus(4, 80, 80, 159);
	cpus(7, 80, 80, 159);
	CU_ASSERT_EQUAL(T.gpus[2].numa, 0);
	CU_ASSERT_EQUAL(T.gpus[5].numa, 1);
	CU_ASSERT_EQUAL(T.gpus[5].gpu_numa_id, -1); /* N/A */
	CU_ASSERT_EQUAL(T.nics[0].numa, -1);        /* front-end: SYS to all */
	CU_ASSERT_EQUAL(T.nics[1].numa, 1);
	CU_ASSERT_EQUAL(T.nics[5].numa, 0);
	CU_ASSERT_STRING_EQUAL(T.nics[5].id, "NIC5");
	CU_ASSERT_STRING_EQUAL(T.nics[5].device, "");
	CU_ASSERT(T.flags & GP_TOPO_F_TRUNCATED);
	CU_ASSERT_EQUAL(T.cut.last_line, 15);
	CU_ASSERT_EQUAL(T.cut.missing_line, 16);
	CU_ASSERT_EQUAL(T.cut.dropped_gpus, 0);
	CU_ASSERT_EQUAL(T.cut.dropped_nics, 3);
	CU_ASSERT_STRING_EQUAL(gp_topo_cut_describe(&T, buf, sizeof(buf)),
			       "matrix truncated after row NIC5; imported 8 of 8 GPUs and 6 of 9 NICs (dropped NIC6..NIC8)");
	/* Rails among the kept NICs: GPU3 -> NIC5 and GPU7 -> NIC1 at PIX;
	 * GPU0's own rail (NIC8) is gone, so NIC5 at NODE is its closest. */
	d = gp_topo_derived_new(&T, &E);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_EQUAL(d->gpu_nic[3], 5);
	CU_ASSERT_EQUAL(d->gpu_nic_level[3], GP_LINK_PIX);
	CU_ASSERT_EQUAL(d->gpu_nic[7], 1);
	CU_ASSERT_EQUAL(d->gpu_nic[0], 5);
	CU_ASSERT_EQUAL(d->gpu_nic_level[0], GP_LINK_NODE);
	gp_topo_derived_free(d);
	gp_topo_release(&T);
}

/* ---- quirk variants (tests/data/topo-quirks) ---- */

static void test_quirk_variants(void)
{
	CU_ASSERT_EQUAL_FATAL(load("tests/data/topo-quirks/dgx1-with-prompt.txt"), GP_OK);
	CU_ASSERT_EQUAL(T.ngpus, 8);
	CU_ASSERT_EQUAL(T.nnics, 4);
	CELL("GPU7", "GPU4", "NV2");
	CU_ASSERT(T.flags & GP_TOPO_F_TEXT_AROUND);
	gp_topo_release(&T);

	CU_ASSERT_EQUAL_FATAL(load("tests/data/topo-quirks/pli-glued-cells.txt"), GP_OK);
	CELL("GPU0", "NIC0", "PIX");
	CELL("GPU0", "NIC1", "PIX");
	CELL("GPU0", "NIC2", "NODE");
	CELL("NIC3", "NIC4", "PIX");
	CU_ASSERT_EQUAL(T.gpus[0].ncpus, 0);
	CU_ASSERT_EQUAL(T.gpus[3].numa, 0);
	CU_ASSERT(T.flags & GP_TOPO_F_GLUED);
	gp_topo_release(&T);

	/* Tabs expanded to spaces: the empty CPU field is a gap. */
	CU_ASSERT_EQUAL_FATAL(load("tests/data/topo-quirks/pli-expanded-spaces.txt"), GP_OK);
	CU_ASSERT_EQUAL(T.gpus[0].ncpus, 0);
	CU_ASSERT_EQUAL(T.gpus[0].numa, 0);
	cpus(5, 1, 1, 1);
	CU_ASSERT_EQUAL(T.gpus[5].numa, 1);
	gp_topo_release(&T);

	CU_ASSERT_EQUAL_FATAL(load("tests/data/topo-quirks/fastdeploy-misaligned-reordered.txt"), GP_OK);
	CU_ASSERT_STRING_EQUAL(T.gpus[0].id, "GPU0");
	CU_ASSERT_STRING_EQUAL(T.nics[2].id, "NIC2");
	CELL("GPU2", "NIC2", "PXB");
	CELL("NIC1", "NIC2", "NODE");
	cpus(3, 40, 20, 119);
	CU_ASSERT_EQUAL(T.gpus[6].numa, 3);
	CU_ASSERT(T.flags & GP_TOPO_F_MISALIGNED);
	gp_topo_release(&T);

	CU_ASSERT_EQUAL_FATAL(load("tests/data/topo-quirks/dgx1-topo-mp.txt"), GP_OK);
	CELL("GPU0", "GPU1", "PIX");
	CELL("GPU0", "GPU3", "PHB");
	CELL("GPU0", "GPU4", "SYS");
	CU_ASSERT(T.flags & GP_TOPO_F_PCIE_ONLY);
	gp_topo_release(&T);
}

/* ---- rejected inputs: located errors ---- */

static void bad(const char *rel, int line, int col, const char *needle)
{
	int rc = load(rel);

	CU_ASSERT_EQUAL(rc, GP_EINPUT);
	CU_ASSERT_EQUAL(E.status, GP_EINPUT);
	CU_ASSERT_EQUAL(E.line, line);
	CU_ASSERT_EQUAL(E.col, col);
	CU_ASSERT_PTR_NOT_NULL(strstr(E.msg, needle));
	if (E.line != line || E.col != col || !strstr(E.msg, needle))
		fprintf(stderr, "%s: got %d:%d: %s\n", rel, E.line, E.col, E.msg);
	CU_ASSERT_EQUAL(T.ngpus, 0);
	CU_ASSERT_PTR_NULL(T.links);
}

static void test_rejected(void)
{
	/* Not clean cuts: a gap, the last row cut after 9 of 17 cells (col
	 * 44 is the end of "NIC5" + 3 x "\tNODE" + "\tPIX" + 5 x "\tSYS"),
	 * and text right after the last row. */
	bad("tests/data/topo-bad/gap-dgx2.txt", 4, 1, "no row for 'GPU2', but the row for 'GPU3'");
	bad("tests/data/topo-bad/cut-mid-row-h100.txt", 15, 44, "ends after 9 of 17 cells");
	bad("tests/data/topo-bad/text-after-cut.txt", 6, 1, "not a row: no row for 'GPU4'");
	bad("tests/data/topo-bad/asymmetric.txt", 5, 10, "asymmetric");
	bad("tests/data/topo-bad/x-off-diagonal.txt", 2, 11, "off the diagonal");
	bad("tests/data/topo-bad/missing-diagonal.txt", 4, 24, "diagonal cell of 'GPU2'");
	bad("tests/data/topo-bad/unknown-token.txt", 3, 6, "unknown link 'QPI'");
	bad("tests/data/topo-bad/nv0.txt", 2, 10, "unknown link 'NV0'");
	bad("tests/data/topo-bad/missing-row.txt", 4, 1, "no row for 'mlx5_0'");
	bad("tests/data/topo-bad/duplicate-row.txt", 4, 1, "second row for 'GPU1'");
	bad("tests/data/topo-bad/row-without-column.txt", 5, 1, "'GPU7' has no column");
	bad("tests/data/topo-bad/truncated-row.txt", 3, 12, "ends after 1 of 2 cells");
	bad("tests/data/topo-bad/extra-cell.txt", 5, 24, "more cells");
	bad("tests/data/topo-bad/bad-cpu-affinity.txt", 4, 22, "bad CPU affinity");
	bad("tests/data/topo-bad/no-header.txt", 1, 1, "without the header");
	bad("tests/data/topo-bad/empty.txt", 1, 1, "empty file");
	/* an ELF header: its first byte, DEL, is no text */
	bad("tests/data/topo-bad/binary.bin", 1, 1, "control byte (0x7f)");
}

/* Strict mode refuses the real truncated files at the first missing row;
 * a row separated from the matrix by text is a gap, not a cut. */
static void test_truncation_rules(void)
{
	const char *sep = "\tGPU0\tGPU1\tGPU2\tCPU Affinity\n"
			  "GPU0\t X \tNV1\tNV1\t0-3\n"
			  "\n"
			  "a note\n"
			  "GPU2\tNV1\tNV1\t X \t0-3\n";
	const char *norows = "\tGPU0\tGPU1\tCPU Affinity\n\nLegend:\n";
	const char *one = "\tGPU0\tGPU1\tCPU Affinity\nGPU0\t X \tPIX\t0-3\n\nLegend:\n";
	char buf[256];

	gp_error_clear(&E);
	CU_ASSERT_EQUAL(gp_topo_load_ex(gp_test_path("topologies/dgx2-v100-16gpu-nv6-10nic-nccl-tests-78-TRUNCATED.txt"),
					GP_TOPO_STRICT, &T, &E), GP_EINPUT);
	CU_ASSERT_EQUAL(E.line, 6);
	CU_ASSERT_EQUAL(E.col, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(E.msg, "after row 'GPU3': no row for 'GPU4' (4 of 26 rows"));
	CU_ASSERT_PTR_NULL(T.links);
	CU_ASSERT_EQUAL(gp_topo_load_ex(gp_test_path("topologies/h100-hgx-8gpu-9nic-rail-plus-frontend-nccl-1453-TRUNCATED.txt"),
					GP_TOPO_STRICT, &T, &E), GP_EINPUT);
	CU_ASSERT_EQUAL(E.line, 16);
	CU_ASSERT_PTR_NOT_NULL(strstr(E.msg, "no row for 'NIC6' (14 of 17 rows"));
	/* Strict changes nothing for a complete matrix. */
	CU_ASSERT_EQUAL(gp_topo_load_ex(gp_test_path("topologies/a100-pcie-2gpu-2nic-della-princeton.txt"),
					GP_TOPO_STRICT, &T, &E), GP_OK);
	CU_ASSERT(!(T.flags & GP_TOPO_F_TRUNCATED));
	CU_ASSERT_STRING_EQUAL(gp_topo_cut_describe(&T, buf, sizeof(buf)), "");
	gp_topo_release(&T);

	CU_ASSERT_EQUAL(gp_topo_parse(sep, strlen(sep), "sep", &T, &E), GP_EINPUT);
	CU_ASSERT_EQUAL(E.line, 5);
	CU_ASSERT_EQUAL(E.col, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(E.msg, "row for 'GPU2' is separated"));
	CU_ASSERT_EQUAL(gp_topo_parse(norows, strlen(norows), "norows", &T, &E), GP_EINPUT);
	CU_ASSERT_EQUAL(E.line, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(E.msg, "no rows"));
	/* One GPU of two: "1 of 2 GPUs" and a single dropped name. */
	CU_ASSERT_EQUAL_FATAL(gp_topo_parse(one, strlen(one), "one", &T, &E), GP_OK);
	CU_ASSERT_EQUAL(T.ngpus, 1);
	CU_ASSERT_EQUAL(T.nnics, 0);
	cpus(0, 4, 0, 3);
	CU_ASSERT_STRING_EQUAL(gp_topo_cut_describe(&T, buf, sizeof(buf)),
			       "matrix truncated after row GPU0; imported 1 of 2 GPUs (dropped GPU1)");
	gp_topo_release(&T);
}

static void test_parse_limits(void)
{
	gp_sbuf sb;
	char *big;
	int i;

	/* 65 GPUs: over the GPU cap, located on the header. */
	gp_sbuf_init(&sb);
	gp_sbuf_adds(&sb, "junk line\n");
	for (i = 0; i < 65; i++)
		gp_sbuf_addf(&sb, "\tGPU%d", i);
	gp_sbuf_adds(&sb, "\tCPU Affinity\n");
	CU_ASSERT_EQUAL(gp_topo_parse(sb.buf, sb.len, "many", &T, &E), GP_EINPUT);
	CU_ASSERT_EQUAL(E.line, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(E.msg, "more than 64 GPUs"));
	gp_sbuf_release(&sb);

	/* A 10 MB single line. */
	big = gp_xmalloc(10 * 1024 * 1024);
	memset(big, 'A', 10 * 1024 * 1024);
	CU_ASSERT_EQUAL(gp_topo_parse(big, 10 * 1024 * 1024, "big", &T, &E), GP_EINPUT);
	CU_ASSERT_EQUAL(E.line, 1);
	free(big);

	/* Glued header and rows, CRLF, SOC, a 2-GPU -mp matrix. */
	{
		const char *s = "\tGPU0GPU1\tCPU Affinity\r\nGPU0\tXSOC\t0-3\r\nGPU1\tSOCX\t4-7\r\n";

		CU_ASSERT_EQUAL_FATAL(gp_topo_parse(s, strlen(s), "glued", &T, &E), GP_OK);
		CELL("GPU0", "GPU1", "SYS");
		cpus(1, 4, 4, 7);
		CU_ASSERT(T.flags & GP_TOPO_F_GLUED);
		CU_ASSERT(T.flags & GP_TOPO_F_OLD_SOC);
		gp_topo_release(&T);
	}
}

static void test_link_helpers(void)
{
	gp_link l;
	char buf[16];
	int *v, n;

	CU_ASSERT_EQUAL(gp_link_parse("NV18", &l), 0);
	CU_ASSERT_EQUAL(l.level, GP_LINK_NV);
	CU_ASSERT_EQUAL(l.nvlinks, 18);
	CU_ASSERT_EQUAL(gp_link_parse("SOC", &l), 0);
	CU_ASSERT_EQUAL(l.level, GP_LINK_SYS);
	CU_ASSERT_EQUAL(gp_link_parse("NV", &l), -1);
	CU_ASSERT_EQUAL(gp_link_parse("PIXX", &l), -1);
	CU_ASSERT_EQUAL(gp_link_parse("", &l), -1);
	CU_ASSERT_STRING_EQUAL(gp_link_format((gp_link){ GP_LINK_NV, 12 }, buf, sizeof(buf)), "NV12");
	CU_ASSERT(gp_link_expense((gp_link){ GP_LINK_NV, 18 }) <
		  gp_link_expense((gp_link){ GP_LINK_NV, 12 }));
	CU_ASSERT(gp_link_expense((gp_link){ GP_LINK_NV, 1 }) <
		  gp_link_expense((gp_link){ GP_LINK_PIX, 0 }));
	CU_ASSERT(gp_link_expense((gp_link){ GP_LINK_NODE, 0 }) <
		  gp_link_expense((gp_link){ GP_LINK_SYS, 0 }));
	CU_ASSERT_EQUAL(gp_cpulist_parse("3,0-2,2", 7, &v, &n), 0);
	CU_ASSERT_EQUAL(n, 4);
	CU_ASSERT(n == 4 && v[0] == 0 && v[3] == 3);
	free(v);
	CU_ASSERT_EQUAL(gp_cpulist_parse("5-2", 3, &v, &n), -1);
	CU_ASSERT_EQUAL(gp_cpulist_parse("1,", 2, &v, &n), -1);
	CU_ASSERT_EQUAL(gp_cpulist_parse("4096", 4, &v, &n), -1);
}

/* ---- derived structures ---- */

static gp_gpuset S(const char *gpus)
{
	gp_gpuset s = 0;

	for (; *gpus; gpus++)
		if (*gpus >= '0' && *gpus <= '9')
			s |= (gp_gpuset)1 << (*gpus - '0');
	return s;
}

static void test_derive_dgx1(void)
{
	gp_topo_derived *d;
	gp_link b;
	int order[8], i;

	if (load_snap("dgx1-v100-8gpu-4nic-pytorch-ddp-readme.txt", 8, 4))
		return;
	d = gp_topo_derived_new(&T, &E);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	/* Hybrid cube mesh: NV neighbours of GPU0 are 1, 2, 3, 4. */
	CU_ASSERT_EQUAL(d->nv_mask[0], S("1234"));
	CU_ASSERT_EQUAL(d->nv_mask[5], S("1467"));
	/* Rings on NVLink: the quads and the 0-1-5-4 face; not 0,1,2,4
	 * (GPU4's only NV neighbour among them is GPU0). */
	CU_ASSERT(gp_ring_nvlink(d, S("0123")));
	CU_ASSERT(gp_ring_nvlink(d, S("4567")));
	CU_ASSERT(gp_ring_nvlink(d, S("0154")));
	CU_ASSERT(gp_ring_nvlink(d, S("0347")));
	CU_ASSERT(!gp_ring_nvlink(d, S("0124")));
	CU_ASSERT(!gp_ring_nvlink(d, S("0167")));
	CU_ASSERT(gp_ring_nvlink(d, S("01")));
	CU_ASSERT(!gp_ring_nvlink(d, S("05")));
	CU_ASSERT(gp_ring_nvlink(d, S("3")));
	/* 0123 is K4 over NV1/NV2 but every Hamiltonian cycle uses an NV1
	 * (GPU0 has one NV2 neighbour, GPU3); bottleneck NV1. */
	CU_ASSERT_EQUAL(gp_ring_best(d, S("0123"), order, &b), 4);
	CU_ASSERT_EQUAL(b.level, GP_LINK_NV);
	CU_ASSERT_EQUAL(b.nvlinks, 1);
	/* All 8: the double-link ring 0-3-2-1-5-6-7-4 exists: NV2. */
	CU_ASSERT_EQUAL(gp_ring_best(d, S("01234567"), order, &b), 8);
	CU_ASSERT_EQUAL(b.level, GP_LINK_NV);
	CU_ASSERT_EQUAL(b.nvlinks, 2);
	for (i = 0; i < 8; i++)
		CU_ASSERT_EQUAL(d->link[order[i]][order[(i + 1) % 8]].nvlinks, 2);
	/* 0,1,2,4: best ring still needs one SYS hop (4 to 1 or 2). */
	gp_ring_best(d, S("0124"), NULL, &b);
	CU_ASSERT_EQUAL(b.level, GP_LINK_SYS);
	/* PCIe tree from the NIC cells: switches {0,1} {2,3} {4,5} {6,7}
	 * (both PIX to one mlx5), host bridge per socket {0-3} {4-7}. */
	CU_ASSERT_EQUAL(d->nswitches, 4);
	CU_ASSERT_EQUAL(d->switch_set[1], S("23"));
	CU_ASSERT_EQUAL(d->nbridges, 2);
	CU_ASSERT_EQUAL(d->nsockets, 2);
	CU_ASSERT_EQUAL(d->socket_set[1], S("4567"));
	CU_ASSERT_EQUAL(d->pcie[0][1], GP_LINK_PIX);
	CU_ASSERT_EQUAL(d->pcie[0][2], GP_LINK_PHB);
	CU_ASSERT_EQUAL(d->pcie_src[0][2], GP_PCIE_TRIANGLE);
	CU_ASSERT_EQUAL(d->pcie[1][5], GP_LINK_SYS);
	/* Closest NIC: GPU0 -> mlx5_0 (NIC1), GPU6 -> mlx5_3 (NIC2). */
	CU_ASSERT_EQUAL(d->gpu_nic[0], 1);
	CU_ASSERT_EQUAL(d->gpu_nic_level[0], GP_LINK_PIX);
	CU_ASSERT_EQUAL(d->gpu_nic[6], 2);
	/* Classes: NUMA-local NICs {mlx5_0, mlx5_1} for GPU0-3. */
	CU_ASSERT_EQUAL(d->nclasses, 2);
	CU_ASSERT_EQUAL(d->class_gpus[0], S("0123"));
	CU_ASSERT_EQUAL(d->class_nics[0][0], (1u << 1) | (1u << 3));
	CU_ASSERT_EQUAL(d->nic_socket[0], 1); /* mlx5_2 with GPU4-7 */
	gp_topo_derived_free(d);
	gp_topo_release(&T);
}

static void test_derive_a100_nv12(void)
{
	gp_topo_derived *d;
	gp_link b;
	int order[8];

	if (load_snap("oci-a100-8gpu-18nic-nps4-bigtimcowen.txt", 8, 18))
		return;
	d = gp_topo_derived_new(&T, &E);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_EQUAL(gp_ring_best(d, S("01234567"), order, &b), 8);
	CU_ASSERT_EQUAL(b.level, GP_LINK_NV);
	CU_ASSERT_EQUAL(b.nvlinks, 12);
	CU_ASSERT(gp_ring_nvlink(d, S("0257")));
	/* NPS4 NUMA 3,3,1,1,7,7,5,5: four sockets of two GPUs. */
	CU_ASSERT_EQUAL(d->nsockets, 4);
	CU_ASSERT_EQUAL(d->socket_set[1], S("23"));
	CU_ASSERT_EQUAL(d->socket_numa[1], 1);
	/* GPU0,1 share the PXB NICs 5-8: same switch complex. */
	CU_ASSERT_EQUAL(d->pcie[0][1], GP_LINK_PXB);
	/* Rails spread over equally close NICs: GPU0 -> NIC5, GPU1 -> NIC6. */
	CU_ASSERT_EQUAL(d->gpu_nic[0], 5);
	CU_ASSERT_EQUAL(d->gpu_nic[1], 6);
	CU_ASSERT_EQUAL(d->nclasses, 4);
	CU_ASSERT_EQUAL(d->class_gpus[d->gpu_class[4]], S("45"));
	CU_ASSERT_EQUAL(d->class_numa[d->gpu_class[4]], 7);
	CU_ASSERT_EQUAL(d->nic_numa[0], -1); /* SYS to every GPU */
	gp_topo_derived_free(d);
	gp_topo_release(&T);
}

static void test_derive_h100_nv18(void)
{
	gp_topo_derived *d;
	gp_link b;

	if (load_snap("h100-dell-8gpu-12nic-nv18-cpuset-mooncake-2039.txt", 8, 12))
		return;
	d = gp_topo_derived_new(&T, &E);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	gp_ring_best(d, S("1357"), NULL, &b);
	CU_ASSERT_EQUAL(b.level, GP_LINK_NV);
	CU_ASSERT_EQUAL(b.nvlinks, 18);
	CU_ASSERT_EQUAL(gp_set_worst_link(d, S("0246")).nvlinks, 18);
	CU_ASSERT_EQUAL(d->nsockets, 2);
	CU_ASSERT_EQUAL(d->socket_set[0], S("0123"));
	/* GPU0 has three PIX NICs (0,1,2): the first is picked. */
	CU_ASSERT_EQUAL(d->gpu_nic[0], 0);
	CU_ASSERT_EQUAL(d->gpu_nic[1], 3);
	CU_ASSERT_EQUAL(d->gpu_nic[7], 11);
	/* Classes by NUMA-local NIC sets: NICs 0-5 for GPU0-3. */
	CU_ASSERT_EQUAL(d->nclasses, 2);
	CU_ASSERT_EQUAL(d->class_gpus[1], S("4567"));
	CU_ASSERT_EQUAL(d->class_nics[1][0], 0xfc0u);
	/* GPU0 and GPU1 meet at NODE through their NICs. */
	CU_ASSERT_EQUAL(d->pcie[0][1], GP_LINK_NODE);
	gp_topo_derived_free(d);
	gp_topo_release(&T);
}

static void test_derive_pcie_only(void)
{
	gp_topo_derived *d;
	gp_link b;
	int order[5];

	if (load_snap("consumer-5gpu-mixed-phb-node-sys-club3090-46.txt", 5, 0))
		return;
	d = gp_topo_derived_new(&T, &E);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_EQUAL(d->nv_mask[1], 0);
	CU_ASSERT(!gp_ring_nvlink(d, S("12")));
	/* GPU1-4: PHB pairs {1,2} {3,4}, NODE between: ring bottleneck NODE. */
	CU_ASSERT_EQUAL(gp_ring_best(d, S("1234"), order, &b), 4);
	CU_ASSERT_EQUAL(b.level, GP_LINK_NODE);
	gp_ring_best(d, S("12"), NULL, &b);
	CU_ASSERT_EQUAL(b.level, GP_LINK_PHB);
	gp_ring_best(d, S("01"), NULL, &b);
	CU_ASSERT_EQUAL(b.level, GP_LINK_SYS);
	CU_ASSERT_EQUAL(d->nsockets, 2);
	CU_ASSERT_EQUAL(d->socket_set[0], S("0"));
	CU_ASSERT_EQUAL(d->nbridges, 3);
	CU_ASSERT_EQUAL(d->bridge_set[2], S("34"));
	CU_ASSERT_EQUAL(d->nswitches, 5);
	CU_ASSERT_EQUAL(d->gpu_nic[0], -1);
	CU_ASSERT_EQUAL(d->nclasses, 0);
	CU_ASSERT_EQUAL(d->npcie_inferred, 0);
	CU_ASSERT(gp_set_expense(d, S("12")) < gp_set_expense(d, S("13")));
	gp_topo_derived_free(d);
	gp_topo_release(&T);
}

/* Every GPU pair SYS, yet the affinity columns put
 * GPU0-3 under NUMA 0 (CPUs 0-55,112-167) and GPU4-7 under NUMA 1: two
 * sockets of four, not eight of one. */
static void test_derive_allsys_affinity(void)
{
	gp_topo_derived *d;

	if (load_snap("rtx4090-8gpu-allsys-2numa-2nic-go-gpuallocator-17.txt", 8, 2))
		return;
	d = gp_topo_derived_new(&T, &E);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_EQUAL(d->nsockets, 2);
	CU_ASSERT_EQUAL(d->socket_set[0], S("0123"));
	CU_ASSERT_EQUAL(d->socket_set[1], S("4567"));
	CU_ASSERT_EQUAL(d->socket_numa[0], 0);
	CU_ASSERT_EQUAL(d->socket_numa[1], 1);
	/* Below the socket nothing is shared: one bridge per GPU. */
	CU_ASSERT_EQUAL(d->nbridges, 8);
	gp_topo_derived_free(d);
	gp_topo_release(&T);
}

static void test_derive_4socket(void)
{
	gp_topo_derived *d;
	gp_link b;

	if (load_snap("a100-sxm4-40gb-8gpu-3nic-4socket-fastdeploy.txt", 8, 3))
		return;
	d = gp_topo_derived_new(&T, &E);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_EQUAL(d->nsockets, 4);
	CU_ASSERT_EQUAL(d->socket_set[2], S("45"));
	CU_ASSERT_EQUAL(d->socket_numa[3], 3);
	/* NV12 hides every pair; NUMA says SYS across sockets; GPU0/1 are
	 * both PXB to NIC0, so at most PXB. */
	CU_ASSERT_EQUAL(d->pcie[0][2], GP_LINK_SYS);
	CU_ASSERT_EQUAL(d->pcie_src[0][2], GP_PCIE_NUMA);
	CU_ASSERT_EQUAL(d->pcie[0][1], GP_LINK_PXB);
	CU_ASSERT_EQUAL(d->pcie_src[0][1], GP_PCIE_BOUND);
	/* GPU4/5: same NUMA node, nothing else known: NODE. */
	CU_ASSERT_EQUAL(d->pcie[4][5], GP_LINK_NODE);
	/* GPU4-7 have no NUMA-local NIC. */
	CU_ASSERT_EQUAL(d->gpu_class[4], -1);
	CU_ASSERT_EQUAL(d->gpu_nic_level[4], GP_LINK_SYS);
	CU_ASSERT_EQUAL(d->gpu_class[2], d->gpu_class[3]);
	CU_ASSERT_EQUAL(d->nclasses, 2);
	CU_ASSERT_EQUAL(d->class_nics[d->gpu_class[2]][0], 6u); /* NIC1, NIC2 */
	gp_ring_best(d, S("0246"), NULL, &b);
	CU_ASSERT_EQUAL(b.nvlinks, 12);
	gp_topo_derived_free(d);
	gp_topo_release(&T);
}

static void test_derive_large_set(void)
{
	/* 16 GPUs (above the table size): a 4x4 torus of NV2 links, SYS
	 * elsewhere.  A Hamiltonian cycle exists on the torus. */
	gp_topo t;
	gp_topo_derived *d;
	gp_link b;
	int order[16], i, j, n = 16;

	gp_topo_init(&t);
	CU_ASSERT_EQUAL_FATAL(gp_topo_alloc(&t, n, 0, &E), GP_OK);
	for (i = 0; i < n; i++) {
		int r = i / 4, c = i % 4, nb[4] = { r * 4 + (c + 1) % 4, r * 4 + (c + 3) % 4,
						    ((r + 1) % 4) * 4 + c, ((r + 3) % 4) * 4 + c };

		for (j = 0; j < 4; j++)
			t.links[i * n + nb[j]] = (gp_link){ GP_LINK_NV, 2 };
	}
	d = gp_topo_derived_new(&t, &E);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_PTR_NULL(d->ring_order);
	CU_ASSERT_EQUAL(gp_ring_best(d, 0xffff, order, &b), 16);
	CU_ASSERT_EQUAL(b.level, GP_LINK_NV);
	for (i = 0; i < 16; i++)
		CU_ASSERT_EQUAL(d->link[order[i]][order[(i + 1) % 16]].level, GP_LINK_NV);
	/* A 3-GPU path 0-1-2 on the torus is no ring. */
	CU_ASSERT(!gp_ring_nvlink(d, S("012")));
	gp_topo_derived_free(d);
	gp_topo_release(&t);
}

/* One RDMA NIC (mlx5_0, PHB to GPU2-3 on socket 1, SOC to GPU0-1): the
 * NICs do not fall in different NUMA groups, so the node is one resource:
 * every GPU in the class of mlx5_0, GPU0-1 too (they reach it across the
 * sockets).  The DGX-1 above, with NICs on both sockets, keeps its two. */
static void test_derive_one_nic_one_class(void)
{
	gp_topo_derived *d;

	if (load_snap("k80-4gpu-pix-soc-1nic-nimbix-oldlegend-UNRESOLVED-REPO.txt", 4, 1))
		return;
	d = gp_topo_derived_new(&T, &E);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_EQUAL(d->nclasses, 1);
	CU_ASSERT_EQUAL(d->class_gpus[0], S("0123"));
	CU_ASSERT_EQUAL(d->class_nics[0][0], 1u);
	CU_ASSERT_EQUAL(d->gpu_class[0], 0);
	CU_ASSERT_EQUAL(d->gpu_class[3], 0);
	CU_ASSERT_EQUAL(d->class_numa[0], -1);
	gp_topo_derived_free(d);
	gp_topo_release(&T);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("topo-snapshots");

	gp_test_add(s, "delos", test_delos);
	gp_test_add(s, "della-a100", test_della_a100);
	gp_test_add(s, "sglang-interleaved", test_sglang_interleaved);
	gp_test_add(s, "k8s-436", test_k8s_436);
	gp_test_add(s, "locuaz-indented", test_locuaz_indented);
	gp_test_add(s, "fastdeploy-4socket", test_fastdeploy_4socket);
	gp_test_add(s, "club3090-5gpu", test_club3090_5gpu);
	gp_test_add(s, "dgx1", test_dgx1);
	gp_test_add(s, "gb200", test_gb200);
	gp_test_add(s, "gh200", test_gh200);
	gp_test_add(s, "mooncake", test_mooncake);
	gp_test_add(s, "nccl1617", test_nccl1617);
	gp_test_add(s, "della-h100-one-gpu", test_della_h100_one_gpu);
	gp_test_add(s, "scicom-allphb", test_scicom_allphb);
	gp_test_add(s, "pli-empty-affinity", test_pli_empty_affinity);
	gp_test_add(s, "traverse", test_traverse);
	gp_test_add(s, "hpi-ac922", test_hpi_ac922);
	gp_test_add(s, "k80-soc", test_k80_soc);
	gp_test_add(s, "oci-18nic", test_oci_18nic);
	gp_test_add(s, "k8s-546", test_k8s_546);
	gp_test_add(s, "rtx3090-na", test_rtx3090_na);
	gp_test_add(s, "dgx2-truncated", test_dgx2_truncated);
	gp_test_add(s, "nccl1453-truncated", test_nccl1453_truncated);
	s = gp_test_suite("topo-parse");
	gp_test_add(s, "quirk-variants", test_quirk_variants);
	gp_test_add(s, "rejected", test_rejected);
	gp_test_add(s, "truncation-rules", test_truncation_rules);
	gp_test_add(s, "limits", test_parse_limits);
	gp_test_add(s, "link-helpers", test_link_helpers);
	s = gp_test_suite("topo-derive");
	gp_test_add(s, "dgx1", test_derive_dgx1);
	gp_test_add(s, "one NIC: one class", test_derive_one_nic_one_class);
	gp_test_add(s, "a100-nv12", test_derive_a100_nv12);
	gp_test_add(s, "h100-nv18", test_derive_h100_nv18);
	gp_test_add(s, "pcie-only", test_derive_pcie_only);
	gp_test_add(s, "4socket", test_derive_4socket);
	gp_test_add(s, "all-SYS box: sockets from the affinity columns", test_derive_allsys_affinity);
	gp_test_add(s, "large-set", test_derive_large_set);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
