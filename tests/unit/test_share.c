#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/openb.h"
#include "gpuplan/model/cluster.h"
#include "gpuplan/fgd/fgd.h"
#include "testlib.h"

/* Go's math/rand with seed 1 (the Go playground default before Go 1.20):
 * rand.Int63() is 5577006791947779410 and ten rand.Intn(100) calls give
 * 81 87 47 59 81 18 25 40 56 0 — published outputs of Go's generator. */
static void test_gorand_matches_go(void)
{
	static const int want[10] = { 81, 87, 47, 59, 81, 18, 25, 40, 56, 0 };
	gp_gorand g;
	int i;

	gp_gorand_seed(&g, 1);
	CU_ASSERT_EQUAL(gp_gorand_int63(&g), 5577006791947779410LL);
	gp_gorand_seed(&g, 1);
	for (i = 0; i < 10; i++)
		CU_ASSERT_EQUAL(gp_gorand_intn(&g, 100), want[i]);
}

static void test_gorand_perm_is_permutation(void)
{
	gp_gorand g;
	int32_t m[50];
	int seen[50] = { 0 }, i;

	gp_gorand_seed(&g, 42);
	gp_gorand_perm(&g, m, 50);
	for (i = 0; i < 50; i++) {
		CU_ASSERT(m[i] >= 0 && m[i] < 50);
		if (m[i] >= 0 && m[i] < 50)
			seen[m[i]]++;
	}
	for (i = 0; i < 50; i++)
		CU_ASSERT_EQUAL(seen[i], 1);
}

static void test_load_tiny(void)
{
	gp_openb_nodes n;
	gp_openb_pods p;
	gp_error err = GP_ERROR_INIT;

	CU_ASSERT_EQUAL_FATAL(gp_openb_nodes_load(gp_test_path("tests/data/openb/tiny_nodes.csv"), &n, &err), 0);
	CU_ASSERT_EQUAL(n.n, 2);
	CU_ASSERT_STRING_EQUAL(n.names[1], "n1");
	CU_ASSERT_EQUAL(n.cpu_milli[0], 8000);
	CU_ASSERT_EQUAL(n.mem_mib[1], 16384);
	CU_ASSERT_EQUAL(n.ngpus[0], 2);
	CU_ASSERT_EQUAL(n.nmodels, 2);
	CU_ASSERT_STRING_EQUAL(n.models[n.model[1]], "P100");
	CU_ASSERT_EQUAL_FATAL(gp_openb_pods_load(gp_test_path("tests/data/openb/tiny_pods.csv"), &p, &err), 0);
	CU_ASSERT_EQUAL(p.n, 4);
	CU_ASSERT_EQUAL(p.gpu_milli[0], 500);
	CU_ASSERT_EQUAL(p.ngpus[2], 0);
	CU_ASSERT_STRING_EQUAL(p.gpu_spec[3], "T4");
	CU_ASSERT_STRING_EQUAL(p.gpu_spec[0], "");
	CU_ASSERT_EQUAL(p.line[3], 5);
	gp_openb_pods_release(&p);
	gp_openb_nodes_release(&n);
}

static void test_load_errors(void)
{
	gp_openb_nodes n;
	gp_openb_pods p;
	gp_error err = GP_ERROR_INIT;
	const char *multi_share = "name,cpu_milli,memory_mib,num_gpu,gpu_milli\nx,1000,10,2,500\n";
	const char *no_col = "name,cpu_milli,memory_mib,num_gpu\nx,1,1,0\n";

	CU_ASSERT_EQUAL(gp_openb_nodes_load(gp_test_path("tests/data/openb/bad_nodes.csv"), &n, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 3);
	CU_ASSERT_EQUAL(err.col, 15);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "nine"));
	gp_error_clear(&err);
	CU_ASSERT_EQUAL(gp_openb_pods_parse(multi_share, strlen(multi_share), "m.csv", &p, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 2);
	CU_ASSERT_EQUAL(err.col, 13); /* "x,1000,10,2," is 12 bytes */
	gp_error_clear(&err);
	CU_ASSERT_EQUAL(gp_openb_pods_parse(no_col, strlen(no_col), "c.csv", &p, &err), GP_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "gpu_milli"));
}

/* The tiny cluster, worked by hand.  Typical tasks of tiny_pods.csv: the
 * 4 tasks have 3 shapes, A=(2000m CPU, 500 milli x1) twice, B=(4000m,
 * 1000 x1, T4 only) and C=(1000m, CPU only) once; 95 % of 4 tasks needs
 * all three: frequencies 0.5, 0.25, 0.25.
 * Empty n0 (8000m, 2xT4): A and B fit (no fragment); C cannot use GPUs,
 * so its share of idle GPU counts: 0.25*2000 = 500.  Empty n1 (4000m,
 * 1xP100): B may not use P100: 0.25*1000; C: 0.25*1000; total 500.
 * FGD, tasks in name order (no shuffle, no inflation):
 *  p0 (A): on n0 the fragment stays 500 (B now only has one whole GPU:
 *    0.25*500, C 0.25*1500) -> sigmoid(0)*100 = 50; on n1 it drops to 250
 *    (B 0.25*500, C 0.25*500) -> sigmoid(0.25)*100 = 56.2 -> 56: n1.
 *  p1 (A): n0 still 50; n1 goes from 250 to 0 (no GPU left) -> 56: n1.
 *  p2 (C): n1 has no CPU left, n0 is the only fit: n0, fragment 500.
 *  p3 (B): only n0 (T4): first free GPU; n0 has 3000m CPU and one free
 *    GPU: A fits (0), B lacks CPU: 0.25*1000, C: 0.25*1000 -> 500. */
static void test_fgd_tiny_by_hand(void)
{
	gp_openb_nodes n;
	gp_openb_pods p;
	gp_fgd_result r;
	gp_error err = GP_ERROR_INIT;
	gp_fgd_opts o = { GP_FGD_FGD, 0, 42, 0, 1 };
	static const int want_node[4] = { 1, 1, 0, 0 };
	static const double want_frag[4] = { 750, 500, 500, 500 };
	int i;

	CU_ASSERT_EQUAL_FATAL(gp_openb_nodes_load(gp_test_path("tests/data/openb/tiny_nodes.csv"), &n, &err), 0);
	CU_ASSERT_EQUAL_FATAL(gp_openb_pods_load(gp_test_path("tests/data/openb/tiny_pods.csv"), &p, &err), 0);
	CU_ASSERT_EQUAL_FATAL(gp_fgd_run(&n, &p, &o, &r, &err), 0);
	CU_ASSERT_EQUAL(r.ntypical, 3);
	CU_ASSERT_EQUAL_FATAL(r.ntasks, 4);
	for (i = 0; i < 4; i++) {
		CU_ASSERT_EQUAL(r.events[i].pod, i);
		CU_ASSERT_EQUAL(r.events[i].node, want_node[i]);
		CU_ASSERT_DOUBLE_EQUAL(r.events[i].frag_milli, want_frag[i], 1e-9);
	}
	CU_ASSERT_EQUAL(r.events[3].gpus, 1u);     /* GPU 0 of n0 */
	CU_ASSERT_EQUAL(r.events[3].used_milli, 2000);
	CU_ASSERT_EQUAL(r.scheduled, 4);
	CU_ASSERT_EQUAL(r.failed, 0);
	CU_ASSERT_EQUAL(r.total_gpus, 3);
	gp_fgd_result_release(&r);

	/* BestFit for p0: n0 scores (1 - (6000/128000 + 1500/8000)/2)*100 =
	 * 88, n1 (1 - (2000/128000 + 500/8000)/2)*100 = 96; normalised n1
	 * wins. */
	o.policy = GP_FGD_BESTFIT;
	CU_ASSERT_EQUAL_FATAL(gp_fgd_run(&n, &p, &o, &r, &err), 0);
	CU_ASSERT_EQUAL(r.events[0].node, 1);
	gp_fgd_result_release(&r);
	gp_openb_pods_release(&p);
	gp_openb_nodes_release(&n);
}

/* Inflation: tasks are added until the arrived GPU demand would pass X
 * times the capacity (3000 milli here). */
static void test_inflation_reaches_target(void)
{
	gp_openb_nodes n;
	gp_openb_pods p;
	gp_fgd_result r;
	gp_error err = GP_ERROR_INIT;
	gp_fgd_opts o = { GP_FGD_GPU_PACKING, 2.0, 7, 1, 1 };
	size_t j;

	CU_ASSERT_EQUAL_FATAL(gp_openb_nodes_load(gp_test_path("tests/data/openb/tiny_nodes.csv"), &n, &err), 0);
	CU_ASSERT_EQUAL_FATAL(gp_openb_pods_load(gp_test_path("tests/data/openb/tiny_pods.csv"), &p, &err), 0);
	CU_ASSERT_EQUAL_FATAL(gp_fgd_run(&n, &p, &o, &r, &err), 0);
	/* originals: 2000 milli; copies take it to <= 6000 and the next draw
	 * would pass it, so the arrived demand is within one share of 6000 */
	CU_ASSERT(r.arrived_milli <= 6000);
	CU_ASSERT(r.arrived_milli > 6000 - 1000);
	CU_ASSERT(r.ntasks > 4);
	for (j = 4; j < r.ntasks; j++)
		CU_ASSERT(r.events[j].copy == (int32_t)(j - 4));
	CU_ASSERT(r.used_milli <= 3000);
	CU_ASSERT_EQUAL(r.npoints, 201);
	gp_fgd_result_release(&r);
	gp_openb_pods_release(&p);
	gp_openb_nodes_release(&n);
}

static void test_policy_names(void)
{
	int i;

	for (i = 0; i < GP_FGD_NPOLICIES; i++)
		CU_ASSERT_EQUAL(gp_fgd_policy_parse(gp_fgd_policy_name(i)), i);
	CU_ASSERT_EQUAL(gp_fgd_policy_parse("fgd"), GP_FGD_FGD);
	CU_ASSERT_EQUAL(gp_fgd_policy_parse("gpu-packing"), GP_FGD_GPU_PACKING);
	CU_ASSERT_EQUAL(gp_fgd_policy_parse("best-fit"), -1);
}

/* The real openb GPU node list (tests/data/openb/SOURCES.md): 1,213
 * nodes, 6,212 GPUs (shared/traces/README.md §1); its first row is
 * openb-node-0000,64000,262144,2,P100. */
static void test_openb_as_cluster(void)
{
	gp_cluster c;
	gp_error err = GP_ERROR_INIT;
	int t;

	CU_ASSERT_EQUAL_FATAL(gp_cluster_load_openb(gp_test_path("tests/data/openb/openb_node_list_gpu_node.csv"),
						    &c, &err), 0);
	CU_ASSERT_EQUAL(c.nnodes, 1213);
	CU_ASSERT_EQUAL(c.ngpus, 6212);
	CU_ASSERT_STRING_EQUAL(c.nodes[0].name, "openb-node-0000");
	CU_ASSERT_EQUAL(c.nodes[0].cpu_milli, 64000);
	CU_ASSERT_EQUAL(c.nodes[0].mem_mib, 262144);
	CU_ASSERT_EQUAL(c.nodes[0].ngpus, 2);
	t = gp_cluster_find_type(&c, "openb-P100x2");
	CU_ASSERT(t >= 0);
	CU_ASSERT_EQUAL(c.nodes[0].type, t);
	gp_cluster_release(&c);
	CU_ASSERT_EQUAL(gp_cluster_load_openb(gp_test_path("tests/data/openb/bad_nodes.csv"), &c, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 3);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("share");

	gp_test_add(s, "gorand matches Go", test_gorand_matches_go);
	gp_test_add(s, "gorand perm", test_gorand_perm_is_permutation);
	gp_test_add(s, "load tiny openb files", test_load_tiny);
	gp_test_add(s, "load errors", test_load_errors);
	gp_test_add(s, "FGD on the tiny cluster by hand", test_fgd_tiny_by_hand);
	gp_test_add(s, "inflation reaches the target", test_inflation_reaches_target);
	gp_test_add(s, "policy names", test_policy_names);
	gp_test_add(s, "openb node list as a cluster", test_openb_as_cluster);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
