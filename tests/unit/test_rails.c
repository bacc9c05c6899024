/* Rail-optimized fabrics (tests/data/rails/superpod.yaml): each DGX H100
 * node's eight compute NICs (NIC0-NIC7, PIX to GPU0-GPU7) reach eight
 * leaves, one per rail.  Placement sees the nodes of a rail group one
 * switch apart; the perf model sends each rail over its own leaf, so a
 * rail missing on one node, or a slower rail leaf, changes the network
 * bandwidth.  Every figure is worked out below from the per-NIC rule of
 * gp_perf_node_net_gbs: a NIC gives min(its line rate's effective GB/s,
 * its PCIe link). */
#include <math.h>
#include <string.h>

#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/io/fabric_import.h"
#include "gpuplan/model/cluster.h"
#include "gpuplan/model/placement.h"
#include "gpuplan/perf/perf.h"
#include "testlib.h"

static gp_cluster c;

static int node(const char *name)
{
	int n = gp_cluster_find_node(&c, name);

	CU_ASSERT_FATAL(n >= 0);
	return n;
}

/* All eight GPUs of each named node. */
static void on(gp_placement *p, const char *const *names, int n)
{
	int i, g;

	gp_placement_clear(p);
	for (i = 0; i < n; i++) {
		gp_place_part *pp = gp_placement_add(p, node(names[i]));

		for (g = 0; g < 8; g++)
			pp->gpus[pp->ngpus++] = g;
	}
}

/* A 400 Gb/s NDR port on its PCIe Gen5 x16 link; a 200 Gb/s HDR port on
 * Gen4 x16 (links.c: Gen5 beyond 200 Gb/s). */
static double ndr(void)
{
	return fmin(gp_perf_nic_gbs(400), gp_perf_pcie_gbs(5, 16));
}

static double hdr(void)
{
	return fmin(gp_perf_nic_gbs(200), gp_perf_pcie_gbs(4, 16));
}

static void test_load(void)
{
	const gp_node *a1 = &c.nodes[node("a1")], *a5 = &c.nodes[node("a5")];
	int r;

	CU_ASSERT_EQUAL(a1->nrails, 8);
	/* without 'switch', a node hangs off its first cabled rail's leaf */
	CU_ASSERT_EQUAL(a1->sw, gp_cluster_find_switch(&c, "su1-r0"));
	CU_ASSERT_EQUAL(a5->rails[7], -1);
	CU_ASSERT_EQUAL(a5->rails[6], gp_cluster_find_switch(&c, "su1-r6"));
	/* rail r is the NIC of GPU r on a DGX H100: NIC0..NIC7 */
	CU_ASSERT_EQUAL(gp_cluster_type_rails(&c, a1->type), 8);
	for (r = 0; r < 8; r++)
		CU_ASSERT_EQUAL(gp_cluster_node_rail_nic(&c, node("a1"), r), r);
	CU_ASSERT_EQUAL(gp_cluster_node_rail_nic(&c, node("a1"), 8), -1);
	CU_ASSERT_DOUBLE_EQUAL(gp_cluster_node_rail_gbps(&c, node("b1"), 7), 200, 0);
	CU_ASSERT_DOUBLE_EQUAL(gp_cluster_node_rail_gbps(&c, node("a5"), 7), 0, 0);
}

/* Placement: one switch apart within a group (weight 1 on InfiniBand),
 * leaf-spine-leaf across groups (2). */
static void test_weights(void)
{
	CU_ASSERT_EQUAL(gp_cluster_comm_weight(&c, node("a1"), node("a2")), 1);
	CU_ASSERT_EQUAL(gp_cluster_comm_weight(&c, node("a1"), node("a5")), 1);
	CU_ASSERT_EQUAL(gp_cluster_comm_weight(&c, node("a1"), node("b1")), 2);
}

static void test_perf(void)
{
	static const char *const two[] = { "a1", "a2" }, *const four[] = { "a1", "a2", "a3", "a4" };
	static const char *const cross[] = { "a1", "b1" }, *const missing[] = { "a1", "a5" };
	static const char *const slow[] = { "b1", "b2" };
	gp_error err = GP_ERROR_INIT;
	gp_placement p;
	gp_perf_fabric f;
	int gpus[8] = { 0, 1, 2, 3, 4, 5, 6, 7 }, nics = 0;

	gp_placement_init(&p);
	/* a 2-node group: eight NDR rails, each on its own leaf: one level */
	on(&p, two, 2);
	CU_ASSERT_EQUAL_FATAL(gp_perf_fabric_of(&c, &p, &f, NULL, 0, &err), GP_OK);
	CU_ASSERT_DOUBLE_EQUAL(f.bw_node_net, 8 * ndr(), 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(f.net_switch_s, 0, 0);
	/* a 4-node group: the same per node; InfiniBand with adaptive
	 * routing loses nothing to load (efficiency 1) */
	on(&p, four, 4);
	CU_ASSERT_EQUAL_FATAL(gp_perf_fabric_of(&c, &p, &f, NULL, 0, &err), GP_OK);
	CU_ASSERT_EQUAL(f.nodes, 4);
	CU_ASSERT_DOUBLE_EQUAL(f.bw_node_net, 8 * ndr(), 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(f.net_switch_s, 0, 0);
	/* across groups each rail climbs to the spine: two levels, one more
	 * traversal up and one down */
	on(&p, cross, 2);
	CU_ASSERT_EQUAL_FATAL(gp_perf_fabric_of(&c, &p, &f, NULL, 0, &err), GP_OK);
	CU_ASSERT_DOUBLE_EQUAL(f.net_switch_s, 2 * GP_PERF_SWITCH_S, 1e-15);
	/* a5 has no rail 7: alone it has seven NICs, and a job with it loses
	 * rail 7 on every node (its ring would cross a5 on another rail) */
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_node_net_gbs(&c, node("a5"), gpus, 8, &nics), 7 * ndr(), 1e-9);
	CU_ASSERT_EQUAL(nics, 7);
	on(&p, missing, 2);
	CU_ASSERT_EQUAL_FATAL(gp_perf_fabric_of(&c, &p, &f, NULL, 0, &err), GP_OK);
	CU_ASSERT_DOUBLE_EQUAL(f.bw_node_net, 7 * ndr(), 1e-9);
	/* b1's rail 7 runs at its HDR leaf's rate */
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_node_net_gbs(&c, node("b1"), gpus, 8, NULL), 7 * ndr() + hdr(),
			       1e-9);
	on(&p, slow, 2);
	CU_ASSERT_EQUAL_FATAL(gp_perf_fabric_of(&c, &p, &f, NULL, 0, &err), GP_OK);
	CU_ASSERT_DOUBLE_EQUAL(f.bw_node_net, 7 * ndr() + hdr(), 1e-9);
	/* GPUs 0-3 reach NIC0-NIC3 only (PIX/PXB): four rails */
	CU_ASSERT_DOUBLE_EQUAL(gp_perf_node_net_gbs(&c, node("a1"), gpus, 4, NULL), 4 * ndr(), 1e-9);
	gp_placement_release(&p);
}

/* topology.conf: leaves that serve exactly the nodes of another are its
 * nodes' rails; a node under two leaves that serve different nodes stays
 * a warned oddity. */
static void test_topology_conf(void)
{
	static const char rails[] = "SwitchName=l0 Nodes=n[1-2]\nSwitchName=l1 Nodes=n[1-2]\n"
				    "SwitchName=l2 Nodes=n[1-2]\nSwitchName=s Switches=l[0-2]\n";
	static const char messy[] = "SwitchName=l0 Nodes=n[1-2]\nSwitchName=l1 Nodes=n[2-3]\n"
				    "SwitchName=s Switches=l[0-1]\n";
	gp_error err = GP_ERROR_INIT;
	gp_fabric f;
	int l0;

	gp_fabric_init(&f);
	CU_ASSERT_EQUAL_FATAL(gp_fabric_read(&f, "r.conf", rails, sizeof(rails) - 1, &err), GP_OK);
	l0 = gp_fabric_node_switch(&f, "n2");
	CU_ASSERT_STRING_EQUAL(f.sw[l0].name, "l0");
	CU_ASSERT_EQUAL_FATAL(f.sw[l0].nrails, 3);
	CU_ASSERT_STRING_EQUAL(f.sw[f.sw[l0].rails[1]].name, "l1");
	CU_ASSERT_STRING_EQUAL(f.sw[f.sw[l0].rails[2]].name, "l2");
	/* one warning per rail leaf, none of a node under two leaves */
	CU_ASSERT_EQUAL(f.nwarn, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(f.warnings[0], "r.conf:2: leaf 'l1' serves the same nodes as 'l0'"));
	gp_fabric_release(&f);

	gp_fabric_init(&f);
	CU_ASSERT_EQUAL_FATAL(gp_fabric_read(&f, "m.conf", messy, sizeof(messy) - 1, &err), GP_OK);
	CU_ASSERT_EQUAL(f.sw[gp_fabric_node_switch(&f, "n2")].nrails, 0);
	CU_ASSERT_EQUAL(f.nwarn, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(f.warnings[0], "node 'n2' is under 'l0'"));
	gp_fabric_release(&f);
}

static int setup(void)
{
	gp_error err = GP_ERROR_INIT;

	return gp_cluster_load(gp_test_path("tests/data/rails/superpod.yaml"), &c, &err) != GP_OK;
}

static int teardown(void)
{
	gp_cluster_release(&c);
	return 0;
}

static void register_tests(void)
{
	CU_pSuite s = CU_add_suite("rails", setup, teardown);

	gp_test_add(s, "load", test_load);
	gp_test_add(s, "weights", test_weights);
	gp_test_add(s, "perf", test_perf);
	gp_test_add(s, "topology_conf", test_topology_conf);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
