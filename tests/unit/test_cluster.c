/* The cluster loader and fabric: bundled clusters (counts, expansion,
 * inherited technologies, weights computed by hand from the trees drawn
 * in the YAML files' comments), and located errors on bad files. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/model/cluster.h"
#include "gpuplan/util/util.h"
#include "testlib.h"

static int load(const char *rel, gp_cluster *c)
{
	gp_error err = GP_ERROR_INIT;
	int st = gp_cluster_load(gp_test_path(rel), c, &err);

	if (st)
		fprintf(stderr, "load %s: %s:%d:%d: %s\n", rel, err.file, err.line,
			err.col, err.msg);
	return st;
}

static int node(const gp_cluster *c, const char *name)
{
	int k = gp_cluster_find_node(c, name);

	CU_ASSERT(k >= 0);
	return k;
}

static int w(const gp_cluster *c, const char *a, const char *b)
{
	return gp_cluster_comm_weight(c, node(c, a), node(c, b));
}

/* tests/data/cluster/inline-tree.yaml: the tree in its header comment. */
static void test_inline_tree(void)
{
	gp_cluster c;
	const gp_node_type *t;
	int sw, n;
	const int *under;
	static const char *const order[] = {
		"m", "n0", "n1", "n2", "e-0", "e-1", "e-2", "i0", "u"
	};

	CU_ASSERT_EQUAL_FATAL(load("tests/data/cluster/inline-tree.yaml", &c), 0);
	CU_ASSERT_EQUAL(c.nnodes, 9);
	CU_ASSERT_EQUAL(c.ngpus, 18);
	CU_ASSERT_EQUAL(c.nnics, 9);
	CU_ASSERT_EQUAL(c.nswitches, 7);
	CU_ASSERT_EQUAL(c.ntypes, 1);
	/* inline type */
	t = &c.types[0];
	CU_ASSERT_EQUAL(t->topo.ngpus, 2);
	CU_ASSERT_EQUAL(t->topo.nnics, 1);
	CU_ASSERT_STRING_EQUAL(c.catalog.models[t->gpu_model].name, "A100-SXM4-80GB");
	CU_ASSERT_EQUAL(gp_topo_link(&t->topo, 0, 1).level, GP_LINK_NV);
	CU_ASSERT_EQUAL(gp_topo_link(&t->topo, 0, 1).nvlinks, 12);
	CU_ASSERT_EQUAL(gp_topo_link(&t->topo, 1, 2).level, GP_LINK_SYS);
	CU_ASSERT_EQUAL(gp_topo_link(&t->topo, 2, 0).level, GP_LINK_PIX);
	CU_ASSERT_EQUAL(t->topo.gpus[0].ncpus, 2);
	CU_ASSERT_EQUAL(t->topo.gpus[1].cpus[1], 3);
	CU_ASSERT_EQUAL(t->topo.gpus[0].numa, 0);
	CU_ASSERT_EQUAL(t->topo.gpus[1].numa, -1);
	CU_ASSERT_STRING_EQUAL(t->topo.nics[0].device, "mlx5_0");
	CU_ASSERT_EQUAL(t->cpu_count, 4); /* derived: CPUs 0-3 */
	/* count expansion, first_gpu */
	CU_ASSERT_EQUAL(node(&c, "e-2"), 5);
	CU_ASSERT_EQUAL(gp_cluster_find_node(&c, "e"), -1);
	CU_ASSERT_EQUAL(gp_cluster_find_node(&c, "e-3"), -1);
	CU_ASSERT_EQUAL(c.nodes[node(&c, "e-2")].first_gpu, 10);
	/* depths, inherited technologies */
	CU_ASSERT_EQUAL(c.max_depth, 2);
	CU_ASSERT_EQUAL(c.switches[gp_cluster_find_switch(&c, "lf0")].depth, 2);
	CU_ASSERT_EQUAL(c.switches[gp_cluster_find_switch(&c, "core")].depth, 0);
	CU_ASSERT_EQUAL(c.switches[gp_cluster_find_switch(&c, "lf1")].tech, GP_TECH_IB_NDR);
	CU_ASSERT_EQUAL(c.switches[gp_cluster_find_switch(&c, "lf2")].tech, GP_TECH_ROCE_200);
	CU_ASSERT_EQUAL(c.nodes[node(&c, "n2")].tech, GP_TECH_IB_NDR);
	CU_ASSERT_DOUBLE_EQUAL(gp_cluster_node_nic_gbps(&c, node(&c, "n0")), 200, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(gp_cluster_node_nic_gbps(&c, node(&c, "e-1")), 200, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(gp_cluster_node_nic_gbps(&c, node(&c, "u")), 0, 1e-9);
	/* weights: levels climbed, IB only when every switch is IB */
	CU_ASSERT_EQUAL(w(&c, "n0", "n0"), 0);
	CU_ASSERT_EQUAL(w(&c, "n0", "n1"), 1);
	CU_ASSERT_EQUAL(w(&c, "n0", "n2"), 2);
	CU_ASSERT_EQUAL(w(&c, "n2", "n0"), 2);
	CU_ASSERT_EQUAL(w(&c, "n0", "m"), 3);
	CU_ASSERT_EQUAL(w(&c, "m", "n2"), 3);
	CU_ASSERT_EQUAL(w(&c, "e-0", "e-1"), 100);
	CU_ASSERT_EQUAL(w(&c, "n0", "e-0"), 102);
	CU_ASSERT_EQUAL(w(&c, "m", "e-2"), 102);
	CU_ASSERT_EQUAL(w(&c, "n0", "i0"), -1);
	CU_ASSERT_EQUAL(w(&c, "u", "n0"), -1);
	CU_ASSERT_EQUAL(w(&c, "u", "i0"), -1);
	/* grouping: DFS order by name, subtrees are slices */
	for (n = 0; n < 9; n++)
		CU_ASSERT_STRING_EQUAL(c.nodes[c.node_order[n]].name, order[n]);
	CU_ASSERT_EQUAL(c.nattached, 8);
	sw = gp_cluster_find_switch(&c, "sp0");
	under = gp_cluster_nodes_under(&c, sw, &n);
	CU_ASSERT_EQUAL(n, 3);
	CU_ASSERT_STRING_EQUAL(c.nodes[under[0]].name, "n0");
	CU_ASSERT_STRING_EQUAL(c.nodes[under[2]].name, "n2");
	under = gp_cluster_nodes_under(&c, gp_cluster_find_switch(&c, "core"), &n);
	CU_ASSERT_EQUAL(n, 7);
	CU_ASSERT_EQUAL(c.switches[gp_cluster_find_switch(&c, "core")].nodes_direct, 1);
	CU_ASSERT_EQUAL(c.switches[gp_cluster_find_switch(&c, "core")].nchildren, 2);
	CU_ASSERT_EQUAL(gp_cluster_switch_ancestor(&c, gp_cluster_find_switch(&c, "lf2"), 2),
			gp_cluster_find_switch(&c, "core"));
	CU_ASSERT_EQUAL(gp_cluster_switch_ancestor(&c, gp_cluster_find_switch(&c, "lf2"), 3), -1);
	gp_cluster_release(&c);
	gp_cluster_release(&c);
}

/* topologies/example-cluster.yaml: 4 A100 leaves of 8 and 2 H100 leaves
 * of 4 under one IB spine; 2 Ethernet leaves of 4 PCIe nodes apart. */
static void test_example_cluster(void)
{
	gp_cluster c;
	const gp_node_type *t;
	int k, n, i, a100 = 0, h100 = 0;

	CU_ASSERT_EQUAL_FATAL(load("topologies/example-cluster.yaml", &c), 0);
	CU_ASSERT_STRING_EQUAL(c.name, "example");
	CU_ASSERT_EQUAL(c.nnodes, 32 + 8 + 8);
	CU_ASSERT_EQUAL(c.ngpus, 32 * 8 + 8 * 8 + 8 * 2);
	CU_ASSERT_EQUAL(c.nnics, 32 * 3 + 8 * 13 + 8 * 2);
	CU_ASSERT_EQUAL(c.nswitches, 10);
	CU_ASSERT_EQUAL(c.ntypes, 3);
	for (i = 0; i < c.nnodes; i++) {
		const gp_gpu_model *m = gp_cluster_node_model(&c, i);

		a100 += !strcmp(m->name, "A100-SXM4-40GB") ? c.nodes[i].ngpus : 0;
		h100 += !strcmp(m->name, "H100-SXM5-80GB") ? c.nodes[i].ngpus : 0;
	}
	CU_ASSERT_EQUAL(a100, 256);
	CU_ASSERT_EQUAL(h100, 64);
	/* the FastDeploy snapshot: GPU2 on CPUs 20-39,100-119, NUMA 1;
	 * GPU0-NIC0 PXB; GPU4-NIC2 SYS */
	t = &c.types[gp_cluster_find_type(&c, "dgx-a100")];
	CU_ASSERT_EQUAL(t->topo.ngpus, 8);
	CU_ASSERT_EQUAL(t->topo.nnics, 3);
	CU_ASSERT_EQUAL(t->topo.gpus[2].ncpus, 40);
	CU_ASSERT_EQUAL(t->topo.gpus[2].cpus[20], 100);
	CU_ASSERT_EQUAL(t->topo.gpus[2].numa, 1);
	CU_ASSERT_EQUAL(gp_topo_link(&t->topo, 0, 8).level, GP_LINK_PXB);
	CU_ASSERT_EQUAL(gp_topo_link(&t->topo, 4, 10).level, GP_LINK_SYS);
	CU_ASSERT_EQUAL(t->cpu_count, 160);
	CU_ASSERT_DOUBLE_EQUAL(t->mem_gib, 1024, 1e-9);
	CU_ASSERT_STRING_EQUAL(t->nic_subnets[1], "10.11.0.0/16");
	t = &c.types[gp_cluster_find_type(&c, "pcie-a100")];
	CU_ASSERT_STRING_EQUAL(t->topo.nics[0].device, "mlx5_0");
	CU_ASSERT_STRING_EQUAL(t->nic_subnets[0], "192.168.0.0/24");
	CU_ASSERT_STRING_EQUAL(t->nic_subnets[1], "192.168.1.0/24");
	/* expansion and labels */
	k = node(&c, "a100-r3-7");
	CU_ASSERT_EQUAL(k, 31);
	CU_ASSERT_EQUAL(c.nodes[k].first_gpu, 31 * 8);
	CU_ASSERT_STRING_EQUAL(gp_cluster_node_label(&c, k, "rack"), "r3");
	CU_ASSERT_STRING_EQUAL(gp_cluster_node_label(&c, node(&c, "h100-r5-0"), "pool"), "llm");
	CU_ASSERT_PTR_NULL(gp_cluster_node_label(&c, k, "nosuch"));
	CU_ASSERT_EQUAL(gp_cluster_find_node(&c, "a100-r0-8"), -1);
	/* inherited technology: the H100 leaves take the spine's NDR */
	CU_ASSERT_EQUAL(c.nodes[node(&c, "h100-r4-2")].tech, GP_TECH_IB_NDR);
	CU_ASSERT_DOUBLE_EQUAL(gp_cluster_node_nic_gbps(&c, node(&c, "h100-r4-2")), 400, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(gp_cluster_node_nic_gbps(&c, node(&c, "a100-r0-0")), 200, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(gp_cluster_node_nic_gbps(&c, node(&c, "pcie-r7-3")), 25, 1e-9);
	/* weights */
	CU_ASSERT_EQUAL(w(&c, "a100-r0-0", "a100-r0-7"), 1);
	CU_ASSERT_EQUAL(w(&c, "a100-r0-0", "a100-r1-0"), 2);
	CU_ASSERT_EQUAL(w(&c, "a100-r2-5", "h100-r4-0"), 2);
	CU_ASSERT_EQUAL(w(&c, "h100-r4-0", "h100-r4-3"), 1);
	CU_ASSERT_EQUAL(w(&c, "h100-r4-0", "h100-r5-3"), 2);
	CU_ASSERT_EQUAL(w(&c, "pcie-r6-0", "pcie-r6-3"), 100);
	CU_ASSERT_EQUAL(w(&c, "pcie-r6-0", "pcie-r7-0"), 101);
	CU_ASSERT_EQUAL(w(&c, "a100-r0-0", "pcie-r6-0"), -1);
	/* the spine's subtree holds the 40 IB nodes, a leaf its 8 */
	gp_cluster_nodes_under(&c, gp_cluster_find_switch(&c, "ib-spine"), &n);
	CU_ASSERT_EQUAL(n, 40);
	gp_cluster_nodes_under(&c, gp_cluster_find_switch(&c, "ib-leaf-a2"), &n);
	CU_ASSERT_EQUAL(n, 8);
	gp_cluster_release(&c);
}

/* topologies/hetero-cluster.yaml: the tree in its header comment. */
static void test_hetero_cluster(void)
{
	gp_cluster c;
	const gp_gpu_model *m;
	const gp_node_type *t;

	CU_ASSERT_EQUAL_FATAL(load("topologies/hetero-cluster.yaml", &c), 0);
	CU_ASSERT_EQUAL(c.nnodes, 4 + 2 + 4 + 6 + 4 + 2 + 1);
	CU_ASSERT_EQUAL(c.ngpus, 8 * 8 + 2 * 4 + 6 * 4 + 5 * 2 + 2 * 2);
	/* catalog: derived model keeps the base's memory */
	m = gp_cluster_node_model(&c, node(&c, "v100-b-3"));
	CU_ASSERT_STRING_EQUAL(m->name, "V100-SXM2-16GB-slow");
	CU_ASSERT_DOUBLE_EQUAL(m->fp16_tflops, 100, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(m->mem_gib, 16, 1e-9);
	CU_ASSERT_EQUAL(m->nvlink_links, 6);
	m = gp_catalog_find(&c.catalog, "RTX-A6000");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_DOUBLE_EQUAL(m->mem_gib, 48, 1e-9);
	CU_ASSERT_EQUAL(m->bf16, 1);
	/* the built-in V100 is untouched */
	CU_ASSERT_DOUBLE_EQUAL(gp_catalog_find(&c.catalog, "V100-SXM2-16GB")->fp16_tflops, 125, 1e-9);
	/* K80 CPUs derived from affinities 0-7 / 8-15 */
	CU_ASSERT_EQUAL(c.types[gp_cluster_find_type(&c, "k80")].cpu_count, 16);
	/* inline node type with a per-NIC subnet */
	t = &c.types[gp_cluster_find_type(&c, "l40s-pair")];
	CU_ASSERT_EQUAL(t->topo.ngpus, 2);
	CU_ASSERT_EQUAL(t->topo.gpus[0].ncpus, 32);
	CU_ASSERT_EQUAL(t->topo.gpus[1].ncpus, 32);
	CU_ASSERT_EQUAL(gp_topo_link(&t->topo, 0, 2).level, GP_LINK_PXB);
	CU_ASSERT_STRING_EQUAL(t->nic_subnets[0], "172.16.0.0/24");
	CU_ASSERT_PTR_NULL(t->source);
	/* states, disconnected node */
	CU_ASSERT_EQUAL(c.nodes[node(&c, "lab-3090")].state, 2);
	CU_ASSERT_EQUAL(c.nodes[node(&c, "lab-3090")].sw, -1);
	/* RoCE and Ethernet weights */
	CU_ASSERT_EQUAL(w(&c, "v100-a-0", "v100-a-3"), 100);
	CU_ASSERT_EQUAL(w(&c, "v100-a-0", "h100-a-1"), 100);
	CU_ASSERT_EQUAL(w(&c, "v100-a-0", "v100-b-0"), 101);
	CU_ASSERT_EQUAL(w(&c, "v100-a-0", "k80-0"), 102);
	CU_ASSERT_EQUAL(w(&c, "k80-0", "ws3090-0"), 101);
	CU_ASSERT_EQUAL(w(&c, "l40s-1", "ws3090-0"), 100);
	CU_ASSERT_EQUAL(w(&c, "lab-3090", "ws3090-0"), -1);
	CU_ASSERT_EQUAL(c.nodes[node(&c, "k80-5")].tech, GP_TECH_ETH_25);
	CU_ASSERT_EQUAL(c.nodes[node(&c, "v100-b-0")].tech, GP_TECH_ROCE_200);
	gp_cluster_release(&c);
}

/* Bad files: each gives GP_EINPUT at the line:col of the culprit. */
static void test_bad_files(void)
{
	static const struct {
		const char *file;
		int line, col;
		const char *msg_part;
	} cases[] = {
		{ "unknown-key.yaml", 6, 5, "unknown key 'gpu_modle'" },
		{ "wrong-type.yaml", 9, 48, "'count' must be an integer" },
		{ "duplicate-key.yaml", 5, 5, "duplicate key 'gpu_model'" },
		{ "dangling-type.yaml", 10, 21, "type 'dgx-h100' is not in 'node_types'" },
		{ "dangling-switch.yaml", 10, 45, "switch 'leaf9' is not in 'fabric'" },
		{ "dangling-parent.yaml", 8, 27, "parent 'spine2' is not a switch" },
		{ "cycle.yaml", 7, 12, "cycle" },
		{ "empty.yaml", 1, 1, "empty cluster file" },
		{ "bad-tech.yaml", 7, 25, "unknown tech 'ib-qdr'" },
		{ "bad-balancing.yaml", 7, 51, "unknown load_balancing 'packet-spray'" },
		{ "balancing-contradiction.yaml", 9, 22,
		  "load_balancing 'ecmp' contradicts adaptive_routing: true" },
		{ "bad-link.yaml", 10, 10, "unknown link 'NVX'" },
		{ "asymmetric.yaml", 10, 10, "asymmetric matrix" },
		{ "duplicate-node.yaml", 12, 12, "duplicate node name 'b-1'" },
		{ "unknown-model.yaml", 5, 16, "unknown GPU model 'Z100'" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char rel[256];
		gp_cluster c;
		gp_error err = GP_ERROR_INIT;
		int st;

		snprintf(rel, sizeof(rel), "tests/data/cluster-bad/%s", cases[i].file);
		st = gp_cluster_load(gp_test_path(rel), &c, &err);
		CU_ASSERT_EQUAL(st, GP_EINPUT);
		if (err.line != cases[i].line || err.col != cases[i].col ||
		    !strstr(err.msg, cases[i].msg_part))
			fprintf(stderr, "%s: got %d:%d: %s\n", cases[i].file, err.line,
				err.col, err.msg);
		CU_ASSERT_EQUAL(err.line, cases[i].line);
		CU_ASSERT_EQUAL(err.col, cases[i].col);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, cases[i].msg_part));
		CU_ASSERT_PTR_NOT_NULL(strstr(err.file, cases[i].file));
		CU_ASSERT_EQUAL(c.nnodes, 0); /* released on failure */
	}
}

/* Generated inputs: 3,000-deep nesting, one 10 MB line, binary junk,
 * and the node cap. */
static void test_generated_bad(void)
{
	gp_cluster c;
	gp_error err = GP_ERROR_INIT;
	char *text;
	size_t i, n;

	/* 3,000 nested flow sequences */
	n = 3000;
	text = gp_xmalloc(2 * n + 16);
	memcpy(text, "nodes: ", 7);
	for (i = 0; i < n; i++)
		text[7 + i] = '[';
	for (i = 0; i < n; i++)
		text[7 + n + i] = ']';
	text[7 + 2 * n] = '\n';
	CU_ASSERT_EQUAL(gp_cluster_parse(text, 8 + 2 * n, "deep.yaml", &c, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 1);
	CU_ASSERT(err.col > 7);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "nesting deeper"));
	free(text);

	/* 10 MB on one line */
	n = 10u << 20;
	text = gp_xmalloc(n + 1);
	memset(text, 'x', n);
	text[n] = '\0';
	gp_error_clear(&err);
	CU_ASSERT_EQUAL(gp_cluster_parse(text, n, "long.yaml", &c, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 1);
	CU_ASSERT_EQUAL(err.col, 1);
	free(text);

	/* binary junk */
	gp_error_clear(&err);
	CU_ASSERT_EQUAL(gp_cluster_parse("\x7f" "ELF\x02\x01\x01\0\0\0", 10, "junk.bin",
					 &c, &err), GP_EINPUT);
	CU_ASSERT(err.msg[0] != '\0');

	/* node cap */
	gp_error_clear(&err);
	text = gp_xasprintf("node_types:\n  t:\n    gpus: [{id: GPU0}]\n    links: [[X]]\n"
			    "nodes:\n  - {name: a, type: t, count: %d}\n  - {name: b, type: t}\n",
			    GP_CLUSTER_MAX_NODES);
	CU_ASSERT_EQUAL(gp_cluster_parse(text, strlen(text), "cap.yaml", &c, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 7);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "more than"));
	free(text);
}

/* Building by hand, as the openb reader does. */
static void test_build_by_hand(void)
{
	gp_cluster c;
	gp_topo t;
	gp_error err = GP_ERROR_INIT;
	int root, leaf, ty;

	gp_cluster_init(&c);
	gp_catalog_init_builtin(&c.catalog);
	gp_topo_init(&t);
	CU_ASSERT_EQUAL_FATAL(gp_topo_alloc(&t, 4, 0, &err), 0);
	ty = gp_cluster_add_type(&c, "t4x4", &t, gp_catalog_index(&c.catalog, "T4"));
	CU_ASSERT_EQUAL(t.ngpus, 0); /* moved */
	root = gp_cluster_add_switch(&c, "root", -1, GP_TECH_ETH_100);
	leaf = gp_cluster_add_switch(&c, "leaf", root, GP_TECH_NONE);
	gp_cluster_add_node(&c, "x", ty, leaf);
	gp_cluster_add_node(&c, "y", ty, root);
	CU_ASSERT_EQUAL_FATAL(gp_cluster_finish(&c, &err), 0);
	CU_ASSERT_EQUAL(c.ngpus, 8);
	CU_ASSERT_EQUAL(c.switches[leaf].tech, GP_TECH_ETH_100);
	CU_ASSERT_EQUAL(gp_cluster_comm_weight(&c, 0, 1), 101);
	CU_ASSERT_STRING_EQUAL(gp_cluster_node_model(&c, 1)->name, "T4");
	gp_cluster_release(&c);

	/* a cycle built by hand is caught too */
	gp_cluster_init(&c);
	gp_catalog_init_builtin(&c.catalog);
	gp_cluster_add_switch(&c, "a", 1, GP_TECH_IB_HDR);
	gp_cluster_add_switch(&c, "b", 0, GP_TECH_IB_HDR);
	CU_ASSERT_EQUAL(gp_cluster_finish(&c, &err), GP_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "cycle"));
	gp_cluster_release(&c);
}

/* 'fabric' and 'nodes' are converted an entry at a time (memory, issue
 * 18: pass 1 converts switches, pass 2 re-reads the file from the 'nodes'
 * line for the nodes); positions and the order of errors are those of the
 * whole tree. */
#define TYPES "node_types:\n  t:\n    gpus: [{id: GPU0}]\n    links: [[X]]\n"

/* The text parsed in memory and, the same, loaded from a file (parsed as
 * it is read): both give the same answer, which is returned. */
static int parse_text(const char *text, gp_cluster *c, gp_error *err)
{
	char path[] = "/tmp/gpuplan-cluster-XXXXXX";
	int fd = mkstemp(path), rc, rf;
	gp_cluster f;
	gp_error ferr = GP_ERROR_INIT;
	size_t i;

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	gp_error_clear(err);
	rc = gp_cluster_parse(text, strlen(text), path, c, err);
	rf = gp_cluster_load(path, &f, &ferr);
	unlink(path);
	CU_ASSERT_EQUAL(rf, rc);
	if (rc) {
		CU_ASSERT_EQUAL(ferr.line, err->line);
		CU_ASSERT_EQUAL(ferr.col, err->col);
		CU_ASSERT_STRING_EQUAL(ferr.msg, err->msg);
		return rc;
	}
	if (rf)
		return rc;
	CU_ASSERT_EQUAL(f.nnodes, c->nnodes);
	CU_ASSERT_EQUAL(f.nswitches, c->nswitches);
	for (i = 0; i < (size_t)f.nnodes && i < (size_t)c->nnodes; i++) {
		CU_ASSERT_EQUAL(f.nodes[i].line, c->nodes[i].line);
		CU_ASSERT_EQUAL(f.nodes[i].sw, c->nodes[i].sw);
	}
	gp_cluster_release(&f);
	return rc;
}

/* Stacked Ethernet switches count as one (the source patent's weight 99 + k,
 * k the switch levels): spine (eth-100) over tor-a, tor-b (a stack) and
 * tor-c.  Nodes under tor-a and tor-b meet at the stack: 99 + 1 = 100,
 * as under one switch; tor-a to tor-c still 99 + 2 = 101.  A stack over
 * two levels, or of InfiniBand switches, is refused at its switch. */
static void test_stacked_switches(void)
{
	gp_cluster c;
	gp_error err = GP_ERROR_INIT;
	const char *ok = TYPES "fabric:\n  - {name: spine, tech: eth-100}\n"
			 "  - {name: tor-a, parent: spine, stack: s1}\n"
			 "  - {name: tor-b, parent: spine, stack: s1}\n"
			 "  - {name: tor-c, parent: spine}\nnodes:\n"
			 "  - {name: a, type: t, switch: tor-a}\n  - {name: b, type: t, switch: tor-b}\n"
			 "  - {name: c, type: t, switch: tor-c}\n";
	const char *levels = TYPES "fabric:\n  - {name: spine, tech: eth-100, stack: s1}\n"
			     "  - {name: tor-a, parent: spine, stack: s1}\n"
			     "nodes:\n  - {name: a, type: t, switch: tor-a}\n";
	const char *ib = TYPES "fabric:\n  - {name: spine, tech: ib-hdr}\n"
			 "  - {name: l1, parent: spine, stack: s}\n  - {name: l2, parent: spine, stack: s}\n"
			 "nodes:\n  - {name: a, type: t, switch: l1}\n";

	CU_ASSERT_EQUAL_FATAL(parse_text(ok, &c, &err), GP_OK);
	CU_ASSERT_EQUAL(w(&c, "a", "b"), 100);
	CU_ASSERT_EQUAL(w(&c, "b", "a"), 100);
	CU_ASSERT_EQUAL(w(&c, "a", "c"), 101);
	CU_ASSERT_EQUAL(w(&c, "b", "c"), 101);
	gp_cluster_release(&c);
	CU_ASSERT_EQUAL_FATAL(load("tests/data/cluster/stacked-tors.yaml", &c), 0);
	CU_ASSERT_EQUAL(w(&c, "a-1", "b-0"), 100);
	CU_ASSERT_EQUAL(w(&c, "a-0", "a-1"), 100);
	CU_ASSERT_EQUAL(w(&c, "b-0", "c-0"), 101);
	gp_cluster_release(&c);
	CU_ASSERT_EQUAL(parse_text(levels, &c, &err), GP_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "spans levels"));
	CU_ASSERT_EQUAL(parse_text(ib, &c, &err), GP_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "for Ethernet switches"));
	CU_ASSERT_EQUAL(err.line, 7);
}

static void test_streamed_lists(void)
{
	gp_cluster c;
	gp_error err = GP_ERROR_INIT;
	int leaf, spine;
	/* lines 1-4 types, 5 fabric, 6-8 switches, 9 comment, 10 nodes, 11-13 */
	const char *ok = TYPES "fabric:\n  - {name: leaf, parent: spine}\n  - {name: spine, tech: ib-hdr}\n"
			 "  - {name: leaf2, parent: spine}\n# nodes next\nnodes:\n"
			 "  - {name: a, type: t, switch: leaf}\n  - {name: b, type: t, count: 2}\n"
			 "  - {name: c, type: t, switch: leaf2}\n";
	char *crlf;
	size_t i, j;

	CU_ASSERT_EQUAL_FATAL(parse_text(ok, &c, &err), GP_OK);
	CU_ASSERT_EQUAL(c.nswitches, 3);
	leaf = gp_cluster_find_switch(&c, "leaf");
	spine = gp_cluster_find_switch(&c, "spine");
	CU_ASSERT_EQUAL(c.switches[leaf].parent, spine);   /* named before it */
	CU_ASSERT_EQUAL(c.switches[gp_cluster_find_switch(&c, "leaf2")].parent, spine);
	CU_ASSERT_EQUAL_FATAL(c.nnodes, 4);
	CU_ASSERT_EQUAL(c.nodes[0].line, 11);
	CU_ASSERT_EQUAL(c.nodes[0].col, 12);
	CU_ASSERT_EQUAL(c.nodes[0].sw, leaf);
	CU_ASSERT_EQUAL(c.nodes[2].line, 12);
	CU_ASSERT_EQUAL(c.nodes[3].line, 13);
	gp_cluster_release(&c);

	/* the same with CRLF line ends */
	crlf = gp_xmalloc(2 * strlen(ok) + 1);
	for (i = j = 0; ok[i]; i++) {
		if (ok[i] == '\n')
			crlf[j++] = '\r';
		crlf[j++] = ok[i];
	}
	crlf[j] = '\0';
	CU_ASSERT_EQUAL_FATAL(parse_text(crlf, &c, &err), GP_OK);
	CU_ASSERT_EQUAL(c.nnodes, 4);
	CU_ASSERT_EQUAL(c.nodes[3].line, 13);
	gp_cluster_release(&c);
	free(crlf);

	/* a bad switch waits for the checks of the whole file: the unknown
	 * root key on line 9 is reported, not the tech on line 6 */
	CU_ASSERT_EQUAL(parse_text(TYPES "fabric:\n  - {name: s, tech: warp}\nnodes:\n"
				   "  - {name: a, type: t}\nbogus: 1\n", &c, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 9);
	CU_ASSERT_STRING_EQUAL(err.msg, "unknown key 'bogus' in the cluster file");
	/* ... and so does a bad 'node_types' given after 'fabric' */
	CU_ASSERT_EQUAL(parse_text("fabric:\n  - {name: s, tech: warp}\nnode_types: 5\n"
				   "nodes:\n  - {name: a, type: t}\n", &c, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 3);
	CU_ASSERT_EQUAL(err.col, 13);
	/* alone, the switch's error */
	CU_ASSERT_EQUAL(parse_text(TYPES "fabric:\n  - {name: s}\n  - {name: s2, tech: warp}\n"
				   "nodes:\n  - {name: a, type: t}\n", &c, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 7);
	CU_ASSERT_EQUAL(err.col, 22);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "switch 's2': unknown tech 'warp'"));
	/* every switch comes before any parent error: the duplicate on line 7
	 * is reported, not the missing parent on line 6 */
	CU_ASSERT_EQUAL(parse_text(TYPES "fabric:\n  - {name: s, parent: zz}\n  - {name: s}\n"
				   "nodes:\n  - {name: a, type: t}\n", &c, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 7);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "duplicate switch name 's'"));
	CU_ASSERT_EQUAL(parse_text(TYPES "fabric:\n  - {name: s, parent: zz}\n  - {name: zz}\n"
				   "  - {name: y, parent: y}\nnodes:\n  - {name: a, type: t}\n",
				   &c, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 8);
	CU_ASSERT_EQUAL(err.col, 23);
	CU_ASSERT_STRING_EQUAL(err.msg, "switch 'y' is its own parent");
	CU_ASSERT_EQUAL(parse_text(TYPES "fabric:\n  - {name: s, parent: [x]}\nnodes:\n"
				   "  - {name: a, type: t}\n", &c, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 6);
	CU_ASSERT_EQUAL(err.col, 23);
	/* a node's error, found in pass 2, at its own line */
	CU_ASSERT_EQUAL(parse_text(TYPES "fabric:\n  - {name: s}\nnodes:\n  - {name: a, type: t}\n"
				   "  - {name: b, type: t, switch: nope}\n", &c, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 9);
	CU_ASSERT_EQUAL(err.col, 32);
	CU_ASSERT_STRING_EQUAL(err.msg, "node 'b': switch 'nope' is not in 'fabric'");
	CU_ASSERT_EQUAL(parse_text(TYPES "nodes: []\n", &c, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 5);
	CU_ASSERT_STRING_EQUAL(err.msg, "'nodes' is empty");
	/* a flow mapping at the root is read whole in pass 2 */
	CU_ASSERT_EQUAL_FATAL(parse_text("{node_types: {t: {gpus: [{id: GPU0}], links: [[X]]}},\n"
					 "nodes: [{name: a, type: t},\n {name: b, type: t}]}\n",
					 &c, &err), GP_OK);
	CU_ASSERT_EQUAL(c.nnodes, 2);
	CU_ASSERT_EQUAL(c.nodes[1].line, 3);
	gp_cluster_release(&c);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("cluster");

	gp_test_add(s, "inline tree", test_inline_tree);
	gp_test_add(s, "example cluster", test_example_cluster);
	gp_test_add(s, "hetero cluster", test_hetero_cluster);
	gp_test_add(s, "bad files", test_bad_files);
	gp_test_add(s, "generated bad inputs", test_generated_bad);
	gp_test_add(s, "build by hand", test_build_by_hand);
	gp_test_add(s, "stacked Ethernet switches", test_stacked_switches);
	gp_test_add(s, "streamed fabric and nodes", test_streamed_lists);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
