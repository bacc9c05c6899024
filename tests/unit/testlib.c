#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "gpuplan/util/util.h"
#include "testlib.h"

const gp_cluster *gp_test_pix_cluster(int nnodes, int per)
{
	static gp_cluster cl;
	static gp_topo_gpu tgpus[8];
	static gp_link tlinks[8 * 8];
	static gp_node_type ntype;
	static gp_node nodes[4];
	static const char *names[] = { "n0", "n1", "n2", "n3" };
	int i;

	memset(&cl, 0, sizeof(cl));
	memset(&ntype, 0, sizeof(ntype));
	memset(tgpus, 0, sizeof(tgpus));
	ntype.name = "box";
	ntype.topo.ngpus = per;
	ntype.topo.gpus = tgpus;
	/* Every pair behind one PCIe switch (topology-aware policies and the
	 * perf model read the matrix). */
	for (i = 0; i < per * per; i++)
		tlinks[i].level = i / per == i % per ? GP_LINK_X : GP_LINK_PIX;
	ntype.topo.links = tlinks;
	ntype.gpu_model = -1;
	ntype.cpu_count = 16;
	ntype.mem_gib = 64;
	for (i = 0; i < nnodes; i++) {
		memset(&nodes[i], 0, sizeof(nodes[i]));
		nodes[i].name = (char *)names[i];
		nodes[i].first_gpu = per * i;
		nodes[i].ngpus = per;
	}
	cl.types = &ntype;
	cl.ntypes = 1;
	cl.nodes = nodes;
	cl.nnodes = nnodes;
	cl.ngpus = nnodes * per;
	return &cl;
}

gp_job *gp_test_add_job(gp_joblist *l, const char *id, double submit, int gpus, double dur,
			int klass)
{
	gp_job *j = gp_joblist_push(l);

	j->id = gp_xstrdup(id);
	j->submit = submit;
	j->gpus = gpus;
	j->duration = dur;
	j->klass = klass;
	j->type = GP_JOB_SINGLE_NODE;
	return j;
}

CU_pSuite gp_test_suite(const char *name)
{
	CU_pSuite s = CU_add_suite(name, NULL, NULL);

	if (!s) {
		fprintf(stderr, "cannot add suite %s: %s\n", name, CU_get_error_msg());
		exit(2);
	}
	return s;
}

void gp_test_add(CU_pSuite s, const char *name, void (*fn)(void))
{
	if (!CU_add_test(s, name, fn)) {
		fprintf(stderr, "cannot add test %s: %s\n", name, CU_get_error_msg());
		exit(2);
	}
}

const char *gp_test_path(const char *rel)
{
	static char buf[4096];
	const char *root = getenv("GP_SRCDIR");

	snprintf(buf, sizeof(buf), "%s/%s", root && *root ? root : ".", rel);
	return buf;
}

int gp_test_main(int argc, char **argv, void (*register_tests)(void))
{
	unsigned failures, tests_failed, asserts;

	(void)argc;
	(void)argv;
	if (CU_initialize_registry() != CUE_SUCCESS) {
		fprintf(stderr, "CUnit: %s\n", CU_get_error_msg());
		return 2;
	}
	register_tests();
	CU_basic_set_mode(getenv("GP_TEST_VERBOSE") ? CU_BRM_VERBOSE : CU_BRM_NORMAL);
	if (CU_basic_run_tests() != CUE_SUCCESS) {
		fprintf(stderr, "CUnit: %s\n", CU_get_error_msg());
		CU_cleanup_registry();
		return 2;
	}
	failures = CU_get_number_of_failures();
	tests_failed = CU_get_number_of_tests_failed();
	asserts = CU_get_number_of_asserts();
	CU_cleanup_registry();
	if (failures || tests_failed) {
		fprintf(stderr, "%s: %u assertion(s) failed in %u test(s)\n",
			argv[0], failures, tests_failed);
		return 1;
	}
	if (asserts == 0) {
		fprintf(stderr, "%s: no assertions ran\n", argv[0]);
		return 1;
	}
	return 0;
}
