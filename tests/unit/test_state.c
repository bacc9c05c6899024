/* Allocation-state files against the bundled example cluster. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/place/place.h"
#include "gpuplan/io/state.h"
#include "testlib.h"

static gp_cluster cluster;
static int cluster_ok;

static void load_cluster(void)
{
	gp_error err = GP_ERROR_INIT;

	if (cluster_ok)
		return;
	gp_cluster_init(&cluster);
	CU_ASSERT_EQUAL_FATAL(gp_cluster_load(gp_test_path("topologies/example-cluster.yaml"),
					      &cluster, &err), GP_OK);
	cluster_ok = 1;
}

static int node(const char *name)
{
	return gp_cluster_find_node(&cluster, name);
}

static void check_good_state(const gp_alloc *a)
{
	int n0 = node("a100-r0-0"), n1 = node("a100-r0-1");
	int g4 = cluster.nodes[n1].first_gpu + 4;

	CU_ASSERT_EQUAL(a->node_free_whole[n0], 0);
	/* GPUs 0-3 whole, GPU 4 shared by 500 + 250 milli: 5, 6, 7 stay whole. */
	CU_ASSERT_EQUAL(a->node_free_whole[n1], 3);
	CU_ASSERT_EQUAL(a->gpu_free_milli[g4], 250);
	CU_ASSERT_EQUAL(a->gpu_tasks[g4], 2);
	/* A100-SXM4-40GB: 40960 MiB - 10 GiB - 5.5 GiB = 25088 MiB. */
	CU_ASSERT_EQUAL(a->gpu_free_mem_mib[g4], 25088);
	CU_ASSERT_EQUAL(a->node_free_milli[n1], 8000 - 4000 - 750);
	/* 160 CPUs: 4 pinned + 2 counted. */
	CU_ASSERT_EQUAL(a->node_free_cpu_milli[n1], 154000);
	CU_ASSERT_TRUE(gp_alloc_cpu_used(a, n1, 3));
	CU_ASSERT_FALSE(gp_alloc_cpu_used(a, n1, 4));
	CU_ASSERT_EQUAL(a->node_free_mem_mib[n1], 1024 * 1024 - 64 * 1024);
	CU_ASSERT_EQUAL(a->nic_vfs_used[(size_t)n1 * (size_t)a->max_nics + 0], 1);
	CU_ASSERT_EQUAL(a->node_state[node("a100-r3-7")], GP_NODE_DOWN);
	CU_ASSERT_EQUAL(a->node_state[node("a100-r3-6")], GP_NODE_UP);
}

static void test_good_and_round_trip(void)
{
	gp_error err = GP_ERROR_INIT;
	gp_alloc a, b;
	gp_state s, t;
	char path[] = "/tmp/gpuplan-test-state-XXXXXX";
	int fd;

	load_cluster();
	gp_alloc_init(&a, &cluster);
	CU_ASSERT_EQUAL_FATAL(gp_state_load(gp_test_path("tests/data/state/good.yaml"), &cluster,
					    &a, &s, &err), GP_OK);
	CU_ASSERT_EQUAL(s.n, 4);
	CU_ASSERT_TRUE(gp_state_has_job(&s, "j3"));
	CU_ASSERT_FALSE(gp_state_has_job(&s, "j9"));
	check_good_state(&a);

	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	CU_ASSERT_EQUAL_FATAL(gp_state_save(path, &cluster, &s, &err), GP_OK);
	gp_alloc_init(&b, &cluster);
	CU_ASSERT_EQUAL_FATAL(gp_state_load(path, &cluster, &b, &t, &err), GP_OK);
	CU_ASSERT_EQUAL(t.n, 4);
	check_good_state(&b);
	CU_ASSERT_EQUAL(memcmp(a.gpu_free_mem_mib, b.gpu_free_mem_mib,
			       (size_t)a.ngpus * sizeof(*a.gpu_free_mem_mib)), 0);
	unlink(path);
	/* A failed save leaves nothing behind. */
	CU_ASSERT_NOT_EQUAL(gp_state_save("/nonexistent-dir/state.yaml", &cluster, &s, &err), GP_OK);
	CU_ASSERT_EQUAL(access("/nonexistent-dir/state.yaml", F_OK), -1);
	gp_state_release(&s);
	gp_state_release(&t);
	gp_alloc_release(&a);
	gp_alloc_release(&b);
}

static void expect_error(const char *file, int line, int col, const char *needle)
{
	gp_error err = GP_ERROR_INIT;
	gp_alloc a;
	gp_state s;
	char path[256];

	snprintf(path, sizeof(path), "tests/data/state/%s", file);
	gp_alloc_init(&a, &cluster);
	CU_ASSERT_EQUAL(gp_state_load(gp_test_path(path), &cluster, &a, &s, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, line);
	CU_ASSERT_EQUAL(err.col, col);
	if (!strstr(err.msg, needle))
		fprintf(stderr, "%s: '%s' lacks '%s'\n", file, err.msg, needle);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, needle));
	CU_ASSERT_EQUAL(s.n, 0);
	gp_alloc_release(&a);
}

static void test_bad(void)
{
	load_cluster();
	/* Columns counted by hand on each file's allocation line. */
	expect_error("bad-unknown-node.yaml", 3, 21, "unknown node 'a100-r9-0'");
	expect_error("bad-gpu-range.yaml", 3, 42, "GPU 8 out of range");
	expect_error("bad-double.yaml", 4, 39, "already fully allocated (job 'j1')");
	expect_error("bad-overshare.yaml", 4, 39, "share 600 exceeds the 500 milli-GPU left");
	expect_error("bad-cpu.yaml", 4, 50, "CPU 3 of node 'a100-r0-0' is already allocated");
	expect_error("bad-key.yaml", 3, 43, "did you mean 'share'?");
	expect_error("bad-nic.yaml", 3, 48, "no NIC 'mlx5_9'");
}

static void test_summary(void)
{
	gp_placement p;
	gp_place_part *part;
	gp_place_summary s;
	int i;

	load_cluster();
	gp_placement_init(&p);
	/* Two whole DGX-A100 nodes on one HDR leaf: of the 3 NICs, NIC0 and
	 * NIC2 are within GPUDirect reach (PXB of GPU0-1, GPU2-3), NIC1 only
	 * at NODE: 2 x 200 Gb/s x 0.94 / 8 = 47 GB/s, far below NV12. */
	part = gp_placement_add(&p, node("a100-r0-0"));
	for (i = 0; i < 8; i++)
		part->gpus[part->ngpus++] = i;
	part = gp_placement_add(&p, node("a100-r0-1"));
	for (i = 0; i < 8; i++)
		part->gpus[part->ngpus++] = i;
	gp_place_summarize(&cluster, &p, &s);
	CU_ASSERT_STRING_EQUAL(s.name, "NET:ib-hdr:1");
	CU_ASSERT_EQUAL(s.bottleneck, GP_LINK_LEVELS + 1);
	CU_ASSERT_EQUAL(p.bottleneck, GP_LINK_LEVELS + 1);
	CU_ASSERT_DOUBLE_EQUAL(p.ring_bw_gbs, 47.0, 1e-9);
	CU_ASSERT_EQUAL(s.net_levels, 1);
	CU_ASSERT_TRUE(s.net_ib);
	CU_ASSERT_DOUBLE_EQUAL(s.ring_gbs, 47.0, 1e-9);
	CU_ASSERT_EQUAL(s.gpus, 16);
	/* The same over leaves a0 and a1 (one spine): 2 switch levels. */
	p.parts[1].node = node("a100-r1-0");
	gp_place_summarize(&cluster, &p, &s);
	CU_ASSERT_EQUAL(s.net_levels, 2);
	CU_ASSERT_STRING_EQUAL(s.name, "NET:ib-hdr:2");
	/* One node: the worst ring hop inside it is NV12. */
	p.nparts = 1;
	gp_place_summarize(&cluster, &p, &s);
	CU_ASSERT_STRING_EQUAL(s.name, "NV12");
	CU_ASSERT_EQUAL(s.bottleneck, GP_LINK_NV);
	CU_ASSERT_EQUAL(s.net_levels, 0);
	gp_placement_release(&p);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("state");

	gp_test_add(s, "good state, save and reload", test_good_and_round_trip);
	gp_test_add(s, "bad states located", test_bad);
	gp_test_add(s, "placement summary", test_summary);
}

int main(int argc, char **argv)
{
	int rc = gp_test_main(argc, argv, register_tests);

	if (cluster_ok)
		gp_cluster_release(&cluster);
	return rc;
}
