#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/model/alloc.h"
#include "gpuplan/io/yaml.h"
#include "gpuplan/model/job.h"
#include "gpuplan/place/policy.h"
#include "gpuplan/report/emit.h"
#include "testlib.h"

/* Two nodes of two GPUs: GPU0 near CPUs 0-3 and mlx5_0, GPU1 near 4-7 and
 * mlx5_1; the GRES type an import would have kept. */
static const char cluster_text[] =
	"node_types:\n"
	"  t:\n"
	"    gpu_model: A100-SXM4-80GB\n"
	"    gpus:\n"
	"      - {id: GPU0, cpus: \"0-3\", numa: 0}\n"
	"      - {id: GPU1, cpus: \"4-7\", numa: 1}\n"
	"    nics:\n"
	"      - {id: NIC0, device: mlx5_0}\n"
	"      - {id: NIC1, device: mlx5_1}\n"
	"    devices: [GPU0, GPU1, NIC0, NIC1]\n"
	"    links:\n"
	"      - [X, NV12, PIX, SYS]\n"
	"      - [NV12, X, SYS, PIX]\n"
	"      - [PIX, SYS, X, SYS]\n"
	"      - [SYS, PIX, SYS, X]\n"
	"nodes:\n"
	"  - {name: n, type: t, count: 2, labels: {gres_type: a100}}\n";

static int cpus_a[] = { 1, 2, 5, 6 };
static int cpus_b[] = { 5 };

static void part(gp_placement *p, int node, int ngpus, const int *gpus, int *cpus, int ncpus)
{
	gp_place_part *q = gp_placement_add(p, node);
	int g;

	q->ngpus = ngpus;
	for (g = 0; g < ngpus; g++) {
		q->gpus[g] = gpus[g];
		q->gpu_nic[g] = (int16_t)gpus[g];   /* each GPU's own NIC */
	}
	q->cpus = cpus;
	q->ncpus = ncpus;
	q->numa = 0;
	q->nic = gpus[0];
}

static void check(int kind, const gp_cluster *c, const gp_job *j, const gp_placement *p,
		  const char *want)
{
	gp_sbuf sb;

	gp_sbuf_init(&sb);
	gp_emit_render(kind, c, j, p, &sb);
	CU_ASSERT_STRING_EQUAL(sb.buf, want);
	if (strcmp(sb.buf, want))
		fprintf(stderr, "\ngot:\n%s\nwant:\n%s\n", sb.buf, want);
	gp_sbuf_release(&sb);
}

static void test_emit(void)
{
	static const int both[] = { 0, 1 }, one[] = { 1 };
	gp_cluster c;
	gp_error err = GP_ERROR_INIT;
	gp_placement p;
	gp_job j;
	char bad[32];

	gp_cluster_init(&c);
	CU_ASSERT_EQUAL_FATAL(gp_cluster_parse(cluster_text, sizeof(cluster_text) - 1, "e.yaml", &c,
					       &err), GP_OK);
	memset(&j, 0, sizeof(j));
	j.id = (char *)"j";
	gp_placement_init(&p);
	part(&p, 0, 2, both, cpus_a, 4);
	part(&p, 1, 2, both, cpus_a, 4);
	/* alike nodes share a hostlist; '=' makes NCCL take exact names */
	check(GP_EMIT_ENV, &c, &j, &p,
	      "n-[0-1]: export CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=0,1 "
	      "NCCL_IB_HCA==mlx5_0,mlx5_1\n");
	check(GP_EMIT_NUMACTL, &c, &j, &p, "n-[0-1]: numactl --physcpubind=1-2,5-6 --membind=0\n");
	/* two CPUs per task near its GPU: 1-2 (GPU0 0-3) = 0x6, 5-6 (GPU1
	 * 4-7) = 0x60, as many as --cpus-per-task; the hostlist quoted, or a
	 * shell would glob its brackets */
	check(GP_EMIT_SLURM, &c, &j, &p,
	      "sbatch --job-name=j --nodes=2 --nodelist='n-[0-1]' --ntasks-per-node=2 "
	      "--gres=gpu:a100:2 --cpus-per-task=2 job.sh\n"
	      "# in job.sh:\n"
	      "srun --cpu-bind=mask_cpu:0x6,0x60 COMMAND\n"
	      "# Slurm picks the GPU indices inside each node; the planned ones: n-0:0,1 n-1:0,1\n");
	/* nodes that need different options: a heterogeneous job */
	gp_placement_clear(&p);
	part(&p, 0, 2, both, cpus_a, 4);
	part(&p, 1, 1, one, cpus_b, 1);
	check(GP_EMIT_SLURM, &c, &j, &p,
	      "sbatch --job-name=j --nodes=1 --nodelist=n-0 --ntasks-per-node=2 "
	      "--gres=gpu:a100:2 --cpus-per-task=2 : --nodes=1 --nodelist=n-1 "
	      "--ntasks-per-node=1 --gres=gpu:a100:1 --cpus-per-task=1 job.sh\n"
	      "# in job.sh, component 0 (n-0):\n"
	      "srun --het-group=0 --cpu-bind=mask_cpu:0x6,0x60 COMMAND\n"
	      "# in job.sh, component 1 (n-1):\n"
	      "srun --het-group=1 --cpu-bind=map_cpu:5 COMMAND\n"
	      "# Slurm picks the GPU indices inside each node; the planned ones: n-0:0,1 n-1:1\n");
	/* one node: no NCCL variables */
	gp_placement_clear(&p);
	part(&p, 1, 1, one, cpus_b, 1);
	check(GP_EMIT_ENV, &c, &j, &p,
	      "n-1: export CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=1\n");
	CU_ASSERT_EQUAL(gp_emit_parse("env,k8s", bad, sizeof(bad)), GP_EMIT_ENV | GP_EMIT_K8S);
	CU_ASSERT_EQUAL(gp_emit_parse("env,mpi", bad, sizeof(bad)), -1);
	CU_ASSERT_STRING_EQUAL(bad, "mpi");
	gp_placement_release(&p);
	gp_cluster_release(&c);
}

/* Job names that would run a command in the sbatch line or add keys to
 * the pod YAML stay one shell word and one YAML scalar. */
static void test_emit_hostile(void)
{
	static const int one[] = { 0 };
	gp_cluster c;
	gp_error err = GP_ERROR_INIT;
	gp_placement p;
	gp_sbuf sb;
	gp_job j;

	gp_cluster_init(&c);
	CU_ASSERT_EQUAL_FATAL(gp_cluster_parse(cluster_text, sizeof(cluster_text) - 1, "e.yaml", &c,
					       &err), GP_OK);
	memset(&j, 0, sizeof(j));
	gp_placement_init(&p);
	part(&p, 0, 1, one, cpus_b, 1);
	j.id = (char *)"a b;$(touch x)'`id`";
	check(GP_EMIT_SLURM, &c, &j, &p,
	      "sbatch --job-name='a b;$(touch x)'\\''`id`' --nodes=1 --nodelist=n-0 "
	      "--ntasks-per-node=1 --gres=gpu:a100:1 --cpus-per-task=1 job.sh\n"
	      "# in job.sh:\n"
	      "srun --cpu-bind=map_cpu:5 COMMAND\n"
	      "# Slurm picks the GPU indices inside each node; the planned ones: n-0:0\n");
	j.id = (char *)"q\"\nkind: Secret\n";
	gp_sbuf_init(&sb);
	gp_emit_render(GP_EMIT_K8S, &c, &j, &p, &sb);
	CU_ASSERT_PTR_NULL(strstr(sb.buf, "\nkind: Secret"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "  labels: {gpuplan.job: \"q\\\"\\x0akind: Secret\\x0a\", "));
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "  name: \"q\\\"\\x0akind: Secret\\x0a-0\"\n"));
	gp_sbuf_release(&sb);
	gp_placement_release(&p);
	gp_cluster_release(&c);
}

/* The bundled cluster's DGX H100 (GPU0-3 on NUMA 0 = CPUs 0-55,112-167,
 * GPU4-7 on NUMA 1 = 56-111,168-223), every other node busy: an 8-GPU job
 * takes the default 4 cores per GPU, the lowest of each GPU's own NUMA
 * node in GPU order (GPU0 0-3 ... GPU3 12-15, GPU4 56-59 ... GPU7 68-71),
 * and srun binds each task to its GPU's 4: masks 0xf << 4g for GPU0-3,
 * 0xf << (56 + 4(g-4)) for GPU4-7. */
static void test_emit_dgx_h100(void)
{
	gp_cluster c;
	gp_alloc a;
	gp_error err = GP_ERROR_INIT;
	gp_placement p;
	gp_rng rng;
	gp_job j;
	gp_sbuf sb;
	int n, g, k, h100 = -1;

	gp_cluster_init(&c);
	CU_ASSERT_EQUAL_FATAL(gp_cluster_load(gp_test_path("topologies/example-cluster.yaml"), &c, &err),
			      GP_OK);
	CU_ASSERT_EQUAL_FATAL(gp_alloc_init(&a, &c), GP_OK);
	for (n = 0; n < c.nnodes; n++) {
		if (!strcmp(c.nodes[n].name, "h100-r4-0")) {
			h100 = n;
			continue;
		}
		for (g = 0; g < c.nodes[n].ngpus; g++)
			CU_ASSERT_EQUAL(gp_alloc_take_gpu(&a, c.nodes[n].first_gpu + g, GP_MILLI, 0), 0);
	}
	CU_ASSERT_FATAL(h100 >= 0);
	gp_job_init(&j);
	j.id = (char *)"dgx";
	j.type = GP_JOB_SINGLE_NODE;
	j.gpus = 8;
	gp_rng_seed(&rng, 1);
	gp_placement_init(&p);
	{
		gp_policy_ctx ctx = { &c, &a, &rng, NULL, NULL };

		CU_ASSERT_EQUAL_FATAL(gp_policy_find("bestfit")->place(&ctx, &j, &p), GP_PLACED);
	}
	CU_ASSERT_EQUAL_FATAL(p.nparts, 1);
	CU_ASSERT_EQUAL(p.parts[0].node, h100);
	CU_ASSERT_EQUAL_FATAL(p.parts[0].ncpus, 32);
	for (k = 0; k < 16; k++) {
		CU_ASSERT_EQUAL(p.parts[0].cpus[k], k);
		CU_ASSERT_EQUAL(p.parts[0].cpus[16 + k], 56 + k);
	}
	gp_sbuf_init(&sb);
	gp_emit_render(GP_EMIT_SLURM, &c, &j, &p, &sb);
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, " --ntasks-per-node=8 --gres=gpu:h100-sxm5-80gb:8 --cpus-per-task=4 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "srun --cpu-bind=mask_cpu:0xf,0xf0,0xf00,0xf000,"
					      "0xf00000000000000,0xf000000000000000,"
					      "0xf0000000000000000,0xf00000000000000000 COMMAND\n"));
	gp_sbuf_release(&sb);
	gp_placement_release(&p);
	gp_alloc_release(&a);
	gp_cluster_release(&c);
}

/* The scalar at a path of keys and list indices ("spec", "#0", ...). */
static const char *yaml_at(const gp_yaml_node *n, const char *const *path)
{
	for (; n && *path; path++) {
		if (**path == '#') {
			size_t i = (size_t)(path[0][1] - '0');

			n = n->type == GP_YAML_SEQ && i < n->n ? n->items[i] : NULL;
		} else {
			n = n->type == GP_YAML_MAP ? gp_yaml_get(n, *path) : NULL;
		}
	}
	return n && n->type == GP_YAML_SCALAR ? n->scalar : NULL;
}

/* The JobSet form with a job and a node named to break out of their
 * scalars: the text parses as YAML with the same keys as for plain
 * names, and every name reads back as it was given. */
static void test_emit_jobset_hostile(void)
{
	static const int one[] = { 0 };
	static const char *const id = "x\"}, {name: EVIL, value: 1}\nkind: Secret\n# ";
	static const char *const host = "n'0\" }\nevil: [";
	static const char *const name[] = { "metadata", "name", NULL };
	static const char *const label[] = { "metadata", "labels", "gpuplan.job", NULL };
	static const char *const kind[] = { "kind", NULL };
	static const char *const sel[] = { "spec", "replicatedJobs", "#0", "template", "spec",
		"template", "spec", "nodeSelector", "kubernetes.io/hostname", NULL };
	static const char *const master[] = { "spec", "replicatedJobs", "#0", "template", "spec",
		"template", "spec", "containers", "#0", "env", "#0", "value", NULL };
	static const char *const hca[] = { "spec", "replicatedJobs", "#0", "template", "spec",
		"template", "spec", "containers", "#0", "env", "#6", "value", NULL };
	gp_cluster c;
	gp_error err = GP_ERROR_INIT;
	gp_placement p;
	gp_yaml_doc doc;
	gp_sbuf sb;
	gp_job j;
	char *saved, *want;
	const char *v;

	gp_cluster_init(&c);
	CU_ASSERT_EQUAL_FATAL(gp_cluster_parse(cluster_text, sizeof(cluster_text) - 1, "e.yaml", &c,
					       &err), GP_OK);
	saved = c.nodes[0].name;
	c.nodes[0].name = (char *)host;
	memset(&j, 0, sizeof(j));
	j.id = (char *)id;
	gp_placement_init(&p);
	part(&p, 0, 1, one, cpus_b, 1);
	gp_sbuf_init(&sb);
	gp_emit_render(GP_EMIT_JOBSET, &c, &j, &p, &sb);
	gp_yaml_doc_init(&doc);
	CU_ASSERT_EQUAL_FATAL(gp_yaml_parse(sb.buf, sb.len, "jobset.yaml", 32, &doc, &err), GP_OK);
	CU_ASSERT_EQUAL(doc.root->type, GP_YAML_MAP);
	CU_ASSERT_EQUAL(doc.root->n, 4);   /* apiVersion, kind, metadata, spec */
	v = yaml_at(doc.root, kind);
	CU_ASSERT(v && !strcmp(v, "JobSet"));
	v = yaml_at(doc.root, name);
	CU_ASSERT(v && !strcmp(v, id));
	v = yaml_at(doc.root, label);
	CU_ASSERT(v && !strcmp(v, id));
	v = yaml_at(doc.root, sel);
	CU_ASSERT(v && !strcmp(v, host));
	want = gp_xasprintf("%s-part-0-0-0.%s", id, id);
	v = yaml_at(doc.root, master);
	CU_ASSERT(v && !strcmp(v, want));
	free(want);
	/* env: MASTER_ADDR, MASTER_PORT, NNODES, NODE_RANK, NPROC_PER_NODE,
	 * WORLD_SIZE, then NCCL_IB_HCA (GPU0's NIC, mlx5_0) */
	v = yaml_at(doc.root, hca);
	CU_ASSERT(v && !strcmp(v, "=mlx5_0"));
	/* the node in the comment line stays on that line */
	CU_ASSERT_PTR_NOT_NULL(strstr(sb.buf, "# n'0\" }\\x0aevil: [, GPUs 0\n"));
	gp_yaml_doc_release(&doc);
	gp_sbuf_release(&sb);
	c.nodes[0].name = saved;
	gp_placement_release(&p);
	gp_cluster_release(&c);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("emit");

	gp_test_add(s, "emit", test_emit);
	gp_test_add(s, "hostile names", test_emit_hostile);
	gp_test_add(s, "bundled DGX H100: cores of each GPU's NUMA node", test_emit_dgx_h100);
	gp_test_add(s, "hostile names in a JobSet", test_emit_jobset_hostile);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
