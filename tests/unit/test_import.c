#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/io/fabric_import.h"
#include "gpuplan/io/import.h"
#include "gpuplan/io/state.h"
#include "gpuplan/model/alloc.h"
#include "gpuplan/util/util.h"
#include "testlib.h"

static int read_text(gp_inventory *inv, int family, const char *text, gp_error *err)
{
	return gp_import_read(inv, family, text, strlen(text), "t", err);
}

static gp_inv_node *node(gp_inventory *inv, const char *name)
{
	size_t i;

	for (i = 0; i < inv->n; i++)
		if (!strcmp(inv->nodes[i].name, name))
			return &inv->nodes[i];
	return NULL;
}

static void test_sniff(void)
{
	CU_ASSERT_EQUAL(gp_import_sniff("NodeName=a CPUTot=4 State=IDLE", 30), GP_IMPORT_SCONTROL_NODE);
	CU_ASSERT_EQUAL(gp_import_sniff("JobId=1 JobName=x\n", 18), GP_IMPORT_SCONTROL_JOB);
	CU_ASSERT_EQUAL(gp_import_sniff("# c\nNodeName=a[1-2] CPUs=4 Gres=gpu:2\n", 38),
			GP_IMPORT_SLURM_CONF);
	CU_ASSERT_EQUAL(gp_import_sniff("NodeName=a Name=gpu File=/dev/nvidia0\n", 38),
			GP_IMPORT_GRES_CONF);
	CU_ASSERT_EQUAL(gp_import_sniff("NODELIST GRES\na gpu:2\n", 22), GP_IMPORT_SINFO);
	CU_ASSERT_EQUAL(gp_import_sniff("{\"kind\": \"List\", \"items\": [{\"kind\": \"Node\"}]}", 45),
			GP_IMPORT_K8S_NODES);
	CU_ASSERT_EQUAL(gp_import_sniff("apiVersion: v1\nkind: Pod\n", 25), GP_IMPORT_K8S_PODS);
	CU_ASSERT_EQUAL(gp_import_sniff("hello\n", 6), GP_IMPORT_UNKNOWN);
}

/* One multi-line record and its one-line form give the same node. */
static void test_scontrol_forms(void)
{
	static const char *multi =
		"NodeName=g1 Arch=x86_64 CoresPerSocket=8\n"
		"   CPUAlloc=6 CPUTot=32 CPULoad=1.00\n"
		"   Gres=gpu:a100:4(S:0-1)\n"
		"   GresUsed=gpu:a100:3(IDX:0-1,3)\n"
		"   OS=Linux 5.15.0 #1 SMP\n"
		"   RealMemory=515578 AllocMem=1024 Sockets=2 Boards=1\n"
		"   State=MIXED+DRAIN ThreadsPerCore=2\n"
		"   CfgTRES=cpu=32,mem=515578M,gres/gpu=4\n"
		"   Reason=bad dimm [root@2024-01-01T00:00:00]\n";
	char *one = gp_xstrdup(multi), *p;
	int pass;

	for (p = one; *p; p++)
		if (*p == '\n')
			*p = ' ';
	for (pass = 0; pass < 2; pass++) {
		gp_inventory inv;
		gp_error err = GP_ERROR_INIT;
		gp_inv_node *n;

		gp_inventory_init(&inv);
		CU_ASSERT_EQUAL_FATAL(read_text(&inv, 1, pass ? one : multi, &err), GP_OK);
		n = node(&inv, "g1");
		CU_ASSERT_PTR_NOT_NULL_FATAL(n);
		CU_ASSERT_EQUAL(n->ngpus, 4);
		CU_ASSERT_STRING_EQUAL(n->gpu_type, "a100");
		CU_ASSERT_EQUAL(n->gpu_sock_lo, 0);
		CU_ASSERT_EQUAL(n->gpu_sock_hi, 1);
		CU_ASSERT_EQUAL(n->used, 3);
		CU_ASSERT(n->used_idx);
		CU_ASSERT_EQUAL(n->used_mask, 0xbull);   /* GPUs 0, 1, 3 */
		CU_ASSERT_EQUAL(n->cpus, 32);
		CU_ASSERT_EQUAL(n->cpu_alloc, 6);
		CU_ASSERT_EQUAL(n->sockets, 2);
		CU_ASSERT_EQUAL(n->threads_per_core, 2);
		CU_ASSERT_EQUAL(n->mem_mib, 515578);
		CU_ASSERT_EQUAL(n->state, GP_NODE_DRAINING);
		CU_ASSERT_STRING_EQUAL(n->reason, "bad dimm [root@2024-01-01T00:00:00]");
		gp_inventory_release(&inv);
	}
	free(one);
}

static void test_job_detail(void)
{
	static const char *jobs =
		"JobId=7 JobName=a\n"
		"   JobState=RUNNING Reason=None\n"
		"   NodeList=n[1-2]\n"
		"   JOB_GRES=gpu:4\n"
		"     Nodes=n[1-2] CPU_IDs=0-3 Mem=2048 GRES=gpu:v100:2(IDX:1,3)\n"
		"JobId=8 JobName=b\n"
		"   JobState=PENDING\n"
		"     Nodes=n3 CPU_IDs=0 Mem=1 GRES=gpu(IDX:0)\n";
	gp_inventory inv;
	gp_error err = GP_ERROR_INIT;
	size_t i;

	gp_inventory_init(&inv);
	CU_ASSERT_EQUAL_FATAL(read_text(&inv, 1, jobs, &err), GP_OK);
	CU_ASSERT_EQUAL_FATAL(inv.nalloc, 2);   /* job 8 pends: holds nothing */
	for (i = 0; i < 2; i++) {
		CU_ASSERT_STRING_EQUAL(inv.allocs[i].job, "7");
		CU_ASSERT_EQUAL(inv.allocs[i].ngpus, 2);
		CU_ASSERT(inv.allocs[i].gpus_known);
		CU_ASSERT_EQUAL(inv.allocs[i].gpus, 0xaull);   /* GPUs 1 and 3 */
		CU_ASSERT_EQUAL(inv.allocs[i].ncpus, 4);
		CU_ASSERT_EQUAL(inv.allocs[i].mem_mib, 2048);
	}
	CU_ASSERT_STRING_EQUAL(inv.allocs[0].node, "n1");
	CU_ASSERT_STRING_EQUAL(inv.allocs[1].node, "n2");
	gp_inventory_release(&inv);
	/* Mem past GP_IMPORT_MAX_MEM_MIB is an error: 5e40 was an undefined
	 * double-to-long conversion (found by fuzz_import), as were nan and inf */
	{
		static const char *const bad[] = { "5e40", "2000000000G", "nan", "inf", "1P1" };
		size_t k;

		for (k = 0; k < 5; k++) {
			char text[160];

			snprintf(text, sizeof(text), "JobId=9 JobName=c\n   JobState=RUNNING\n"
				 "     Nodes=n1 CPU_IDs=0 Mem=%s GRES=gpu(IDX:0)\n", bad[k]);
			gp_inventory_init(&inv);
			CU_ASSERT_EQUAL(read_text(&inv, 1, text, &err), GP_EINPUT);
			CU_ASSERT_EQUAL(err.line, 3);
			CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "Mem:"));
			gp_inventory_release(&inv);
		}
		gp_inventory_init(&inv);
		CU_ASSERT_EQUAL_FATAL(read_text(&inv, 1, "JobId=9 JobName=c\n   JobState=RUNNING\n"
						"     Nodes=n1 CPU_IDs=0 Mem=1P GRES=gpu(IDX:0)\n", &err), GP_OK);
		CU_ASSERT_EQUAL(inv.allocs[0].mem_mib, 1LL << 30);
		gp_inventory_release(&inv);
	}
}

static void test_conf_and_gres(void)
{
	static const char *conf =
		"NodeName=DEFAULT Sockets=2 CoresPerSocket=4 ThreadsPerCore=1\n"
		"NodeName=t[1-2] Gres=gpu:2 RealMemory=1000 # two GPUs each\n"
		"NodeName=c1\n"
		"PartitionName=p Nodes=t[1-2],c1,gone1 Default=YES\n";
	static const char *gres =
		"NodeName=t[1-2] Name=gpu Type=l4 File=/dev/nvidia[0-1] Cores=0-3\n";
	gp_inventory inv;
	gp_error err = GP_ERROR_INIT;
	gp_inv_node *t1, *c1;

	gp_inventory_init(&inv);
	CU_ASSERT_EQUAL_FATAL(read_text(&inv, 1, conf, &err), GP_OK);
	CU_ASSERT_EQUAL_FATAL(read_text(&inv, 1, gres, &err), GP_OK);
	t1 = node(&inv, "t1");
	c1 = node(&inv, "c1");
	CU_ASSERT_PTR_NOT_NULL_FATAL(t1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c1);
	CU_ASSERT_EQUAL(t1->cpus, 8);
	CU_ASSERT_EQUAL(t1->ngpus, 2);
	CU_ASSERT_STRING_EQUAL(t1->gpu_type, "l4");
	CU_ASSERT_PTR_NOT_NULL_FATAL(t1->cores);
	CU_ASSERT_EQUAL(t1->cores->n[1], 4);
	CU_ASSERT_STRING_EQUAL(t1->partitions, "p");
	CU_ASSERT_EQUAL(c1->ngpus, 0);
	CU_ASSERT_EQUAL(inv.nwarn, 1);            /* partition names gone1 */
	gp_inventory_release(&inv);
}

static void test_errors_located(void)
{
	gp_inventory inv;
	gp_error err = GP_ERROR_INIT;

	gp_inventory_init(&inv);
	CU_ASSERT_EQUAL(read_text(&inv, 1, "NodeName=a CPUTot=4\n   Gres=gpu:a100:x\n", &err),
			GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 2);
	CU_ASSERT_EQUAL(err.col, 18);   /* the x: 8 + "gpu:a100:" + 1 */
	gp_inventory_release(&inv);
	gp_inventory_init(&inv);
	CU_ASSERT_EQUAL(read_text(&inv, 2, "NodeName=a CPUTot=4\n", &err), GP_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "gpuplan import slurm"));
	gp_inventory_release(&inv);
	/* a count past a long (undefined conversion, found by fuzz_import),
	 * a fraction, a suffix Slurm does not know; K..P are powers of 1024 */
	{
		static const char *const bad[] = { "gpu:a100:222222222222222222222222224",
						   "gpu:a100:2.5", "gpu:a100:2,mps:4Q" };
		size_t i;

		for (i = 0; i < 3; i++) {
			char text[128];

			snprintf(text, sizeof(text), "NodeName=a CPUTot=4\n   Gres=%s\n", bad[i]);
			gp_inventory_init(&inv);
			CU_ASSERT_EQUAL(read_text(&inv, 1, text, &err), GP_EINPUT);
			CU_ASSERT_EQUAL(err.line, 2);
			gp_inventory_release(&inv);
		}
		gp_inventory_init(&inv);
		CU_ASSERT_EQUAL(read_text(&inv, 1, "NodeName=a CPUTot=4\n   Gres=gpu:a100:2,mps:4K\n",
					  &err), GP_OK);
		gp_inventory_release(&inv);
	}
	/* slurm.conf: sockets x cores x threads overflowed a long when each
	 * factor could be 2^40; now each is at most GP_TOPO_MAX_CPUS, and so
	 * is the product */
	{
		static const char *const bad[] = {
			"NodeName=a Sockets=1099511627776 CoresPerSocket=1099511627776 Gres=gpu:1\n",
			"NodeName=a SocketsPerBoard=4096 Boards=4096 CoresPerSocket=1 Gres=gpu:1\n",
			"NodeName=a Sockets=64 CoresPerSocket=64 ThreadsPerCore=2 Gres=gpu:1\n",
		};
		size_t i;

		for (i = 0; i < 3; i++) {
			gp_inventory_init(&inv);
			CU_ASSERT_EQUAL(read_text(&inv, 1, bad[i], &err), GP_EINPUT);
			CU_ASSERT_EQUAL(err.line, 1);
			gp_inventory_release(&inv);
		}
		gp_inventory_init(&inv);
		CU_ASSERT_EQUAL_FATAL(read_text(&inv, 1, "NodeName=a Sockets=2 CoresPerSocket=64 "
						"ThreadsPerCore=2 Gres=gpu:1\n", &err), GP_OK);
		CU_ASSERT_EQUAL(node(&inv, "a")->cpus, 256);
		gp_inventory_release(&inv);
	}
}

/* Hostlists multiply a kilobyte into millions of nodes; past
 * GP_IMPORT_MAX_NODES the import stops at the line that crossed it. */
static void test_node_cap(void)
{
	static const char text[] = "NodeName=a[0-149999] CPUs=4 Gres=gpu:a100:1\n"
				   "NodeName=b[0-49999] CPUs=4\n"
				   "NodeName=c[0-9] CPUs=4\n";
	gp_inventory inv;
	gp_error err = GP_ERROR_INIT;

	gp_inventory_init(&inv);
	CU_ASSERT_EQUAL(read_text(&inv, 1, text, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "more than 200000 nodes"));
	CU_ASSERT_EQUAL(inv.n, GP_IMPORT_MAX_NODES);
	gp_inventory_release(&inv);
	/* the same names again are no new nodes */
	gp_inventory_init(&inv);
	CU_ASSERT_EQUAL(read_text(&inv, 1, "NodeName=a[0-199999] CPUs=4\nNodeName=a[0-199999] CPUs=8\n",
				  &err), GP_OK);
	CU_ASSERT_EQUAL(inv.n, GP_IMPORT_MAX_NODES);
	gp_inventory_release(&inv);
}

static void test_k8s(void)
{
	static const char *nodes =
		"{\"kind\": \"NodeList\", \"items\": [{\"kind\": \"Node\",\n"
		" \"metadata\": {\"name\": \"k1\", \"labels\": {\"nvidia.com/gpu.product\": \"NVIDIA-A100-SXM4-80GB\",\n"
		"   \"nvidia.com/gpu.count\": \"8\", \"nvidia.com/gpu.memory\": \"81920\"}},\n"
		" \"spec\": {\"unschedulable\": true},\n"
		" \"status\": {\"capacity\": {\"cpu\": \"255500m\", \"memory\": \"2Gi\", \"nvidia.com/gpu\": \"8\"}}}]}";
	gp_inventory inv;
	gp_error err = GP_ERROR_INIT;
	gp_inv_node *n;

	gp_inventory_init(&inv);
	CU_ASSERT_EQUAL_FATAL(read_text(&inv, 2, nodes, &err), GP_OK);
	n = node(&inv, "k1");
	CU_ASSERT_PTR_NOT_NULL_FATAL(n);
	CU_ASSERT_EQUAL(n->ngpus, 8);
	CU_ASSERT_EQUAL(n->cpus, 256);            /* 255.5 cores, rounded up */
	CU_ASSERT_EQUAL(n->mem_mib, 2048);
	CU_ASSERT_EQUAL(n->gpu_mem_mib, 81920);
	CU_ASSERT_EQUAL(n->state, GP_NODE_DRAINING);
	gp_inventory_release(&inv);
	/* AMD: the device plugin's amd.com/gpu, the labeller's product name */
	gp_inventory_init(&inv);
	CU_ASSERT_EQUAL_FATAL(read_text(&inv, 2,
					"apiVersion: v1\nkind: Node\nmetadata:\n  name: m1\n"
					"  labels: {amd.com/gpu.product-name: AMD_Instinct_MI300X_OAM}\n"
					"status:\n  capacity: {amd.com/gpu: \"8\", cpu: \"192\"}\n",
					&err), GP_OK);
	n = node(&inv, "m1");
	CU_ASSERT_PTR_NOT_NULL_FATAL(n);
	CU_ASSERT_EQUAL(n->ngpus, 8);
	CU_ASSERT_STRING_EQUAL(n->gpu_type, "AMD_Instinct_MI300X_OAM");
	gp_inventory_release(&inv);
	/* Quantities past an int or int64_t (undefined conversions, found by
	 * fuzz_import): an error at the value, for nodes and for pods. */
	{
		static const char *const bad[] = {
			"apiVersion: v1\nkind: Node\nmetadata: {name: m1}\nstatus:\n  capacity: {cpu: \"4372490000\"}\n",
			"apiVersion: v1\nkind: Node\nmetadata: {name: m1}\nstatus:\n  capacity: {memory: \"9000Pi\"}\n",
			"apiVersion: v1\nkind: Node\nmetadata: {name: m1, labels: {nvidia.com/gpu.memory: \"1e300\"}}\n",
			"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  nodeName: m1\n  containers:\n"
			"  - resources: {limits: {nvidia.com/gpu: \"1000000\"}}\n"
			"  - resources: {limits: {nvidia.com/gpu: \"1000000\"}}\n",
		};
		static const int line[] = { 5, 5, 3, 8 };
		size_t i;

		for (i = 0; i < GP_ARRAY_SIZE(bad); i++) {
			gp_inventory_init(&inv);
			CU_ASSERT_EQUAL(read_text(&inv, 2, bad[i], &err), GP_EINPUT);
			CU_ASSERT_EQUAL(err.line, line[i]);
			gp_inventory_release(&inv);
		}
	}
}

/* Import text as `gpuplan import` writes it (cluster and state); both must
 * load back.  Returns the cluster's node count, -1 when the read failed. */
static int import_round_trip(const char *text, const char *jobs, gp_inventory *inv)
{
	gp_error err = GP_ERROR_INIT;
	gp_import_opts o;
	gp_sbuf cl, st;
	gp_cluster c;
	gp_alloc a;
	gp_state s;
	int n;

	gp_inventory_init(inv);
	if (read_text(inv, 1, text, &err) || (jobs && read_text(inv, 1, jobs, &err)))
		return -1;
	memset(&o, 0, sizeof(o));
	gp_sbuf_init(&cl);
	gp_sbuf_init(&st);
	if (gp_import_write(inv, &o, &cl, &st, &err))
		fprintf(stderr, "import_round_trip: %s\n", err.msg);
	CU_ASSERT_EQUAL_FATAL(err.status, GP_OK);
	gp_cluster_init(&c);
	CU_ASSERT_EQUAL_FATAL(gp_cluster_parse(cl.buf, cl.len, "c.yaml", &c, &err), GP_OK);
	gp_alloc_init(&a, &c);
	gp_state_init(&s);
	CU_ASSERT_EQUAL(gp_state_parse(st.buf, st.len, "s.yaml", &c, &a, &s, &err), GP_OK);
	if (err.status)
		fprintf(stderr, "%s\n--- state ---\n%s\n", err.msg, st.buf);
	n = c.nnodes;
	gp_state_release(&s);
	gp_alloc_release(&a);
	gp_cluster_release(&c);
	gp_sbuf_release(&cl);
	gp_sbuf_release(&st);
	return n;
}

static int warned(const gp_inventory *inv, const char *what)
{
	size_t i;

	for (i = 0; i < inv->nwarn; i++)
		if (strstr(inv->warnings[i], what))
			return 1;
	return 0;
}

/* What fuzz_import found once it wrote and loaded back its imports: each
 * of these was a cluster or state that did not load (exit 4). */
static void test_written_loads(void)
{
	gp_inventory inv;
	gp_error err = GP_ERROR_INIT;

	/* two nodes of one type whose names share no prefix: the hostlist
	 * "dgx1,gpu07" was one node of that name */
	CU_ASSERT_EQUAL(import_round_trip("NodeName=gpu07 CPUs=16 Gres=gpu:m60:2\n"
					  "NodeName=dgx1 CPUs=16 Gres=gpu:m60:2\n", NULL, &inv), 2);
	gp_inventory_release(&inv);
	/* two jobs holding the same CPUs (Slurm oversubscription), a CPU past
	 * the node's, memory past what is left */
	CU_ASSERT_EQUAL(import_round_trip(
		"NodeName=n1 CPUTot=8 RealMemory=1000 Gres=gpu:m60:2\n",
		"JobId=1 JobName=a\n   JobState=RUNNING\n"
		"     Nodes=n1 CPU_IDs=0-3 Mem=800 GRES=gpu:m60:1(IDX:0)\n"
		"JobId=2 JobName=b\n   JobState=RUNNING\n"
		"     Nodes=n1 CPU_IDs=2-5 Mem=800 GRES=gpu:m60:1(IDX:1)\n"
		"JobId=3 JobName=c\n   JobState=RUNNING\n"
		"     Nodes=n1 CPU_IDs=8 GRES=gpu:m60:0\n", &inv), 1);
	CU_ASSERT(warned(&inv, "CPU 2 of 'n1' is already taken"));
	CU_ASSERT(warned(&inv, "which has 200 MiB left"));
	CU_ASSERT(warned(&inv, "CPU 8 is past the 8 CPUs"));
	gp_inventory_release(&inv);
	/* a node using more CPUs than it has */
	CU_ASSERT_EQUAL(import_round_trip("NodeName=n2 CPUTot=16 CPUAlloc=32 Gres=gpu:m60:2\n"
					  "   AllocTRES=cpu=32,gres/gpu=2\n", NULL, &inv), 1);
	CU_ASSERT(warned(&inv, "'n2' has 32 CPUs allocated and 16 left"));
	gp_inventory_release(&inv);
	/* a GRES type that is not UTF-8 (YAML must be): escaped */
	CU_ASSERT_EQUAL(import_round_trip("NodeName=n3 CPUs=4 Gres=gpu:r\xef\xbf" "2080:1\n", NULL,
					  &inv), 1);
	gp_inventory_release(&inv);
	/* RealMemory=1 is Slurm's default (not configured): no memory; past
	 * what a cluster file takes (2^24 GiB): an error at the value */
	CU_ASSERT_EQUAL(import_round_trip("NodeName=n5 CPUs=4 RealMemory=1 Gres=gpu:m60:1\n", NULL,
					  &inv), 1);
	gp_inventory_release(&inv);
	gp_inventory_init(&inv);
	CU_ASSERT_EQUAL(read_text(&inv, 1, "NodeName=n5 CPUs=4 RealMemory=17179869185 Gres=gpu:1\n",
				  &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.col, 31);   /* after the 30 characters of "NodeName=n5 CPUs=4 RealMemory=" */
	gp_inventory_release(&inv);
	/* a GPU type as long as a line: the node type's name is cut to fit */
	{
		char text[600];

		snprintf(text, sizeof(text), "NodeName=n6 CPUs=4 Gres=gpu:%0300d:1\n", 7);
		CU_ASSERT_EQUAL(import_round_trip(text, NULL, &inv), 1);
		gp_inventory_release(&inv);
	}
	/* valid UTF-8 that YAML does not print: a C1 control, U+FFFF */
	CU_ASSERT_EQUAL(import_round_trip("NodeName=n4 CPUs=4 Gres=gpu:r\xc2\x97" "x\xef\xbf\xbf" "2080:1\n",
					  NULL, &inv), 1);
	gp_inventory_release(&inv);
	/* node names the cluster could not take back */
	{
		static const char *const bad[] = { "NodeName=a\x01" "b CPUs=4 Gres=gpu:1\n",
						   "NodeName=a\xff" "b CPUs=4 Gres=gpu:1\n",
						   "NodeName=a]b CPUs=4 Gres=gpu:1\n" };
		size_t i;

		for (i = 0; i < GP_ARRAY_SIZE(bad); i++) {
			gp_inventory_init(&inv);
			CU_ASSERT_EQUAL(read_text(&inv, 1, bad[i], &err), GP_EINPUT);
			CU_ASSERT(strstr(err.msg, "node name") || strstr(err.msg, "hostlist") ||
				  strstr(err.msg, "control byte (0x01)"));
			gp_inventory_release(&inv);
		}
		/* sinfo's CPU columns: whole numbers in range, no trailing text */
		{
			static const char *const sinfo[] = { "-5/0/0/-9 2:16:2", "5/0/0/99999999999 2:16:2",
							     "5/59/0/64x 2:16:2", "65/0/0/64 2:16:2",
							     "5/59/0/64 2:16", "5/59/0/64 64:64:2" };

			for (i = 0; i < GP_ARRAY_SIZE(sinfo); i++) {
				char text[160];

				snprintf(text, sizeof(text), "NODELIST GRES CPUS(A/I/O/T) S:C:T\n"
					 "n1 gpu:2 %s\n", sinfo[i]);
				gp_inventory_init(&inv);
				CU_ASSERT_EQUAL(read_text(&inv, 1, text, &err), GP_EINPUT);
				CU_ASSERT_EQUAL(err.line, 2);
				gp_inventory_release(&inv);
			}
			gp_inventory_init(&inv);
			CU_ASSERT_EQUAL_FATAL(read_text(&inv, 1, "NODELIST GRES CPUS(A/I/O/T) S:C:T\n"
							"n1 gpu:2 5/59/0/64 2:16:2\n", &err), GP_OK);
			CU_ASSERT_EQUAL(node(&inv, "n1")->cpus, 64);
			CU_ASSERT_EQUAL(node(&inv, "n1")->cpu_alloc, 5);
			CU_ASSERT_EQUAL(node(&inv, "n1")->cores_per_socket, 16);
			gp_inventory_release(&inv);
		}
		gp_inventory_init(&inv);
		CU_ASSERT_EQUAL(read_text(&inv, 2, "{\"kind\": \"NodeList\", \"items\": [{\"kind\": \"Node\",\n"
					  " \"metadata\": {\"name\": \"k 1\"},\n"
					  " \"status\": {\"capacity\": {\"nvidia.com/gpu\": \"1\"}}}]}", &err),
				GP_EINPUT);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "node name 'k 1'"));
		gp_inventory_release(&inv);
	}
}

/* GresUsed indices past the node's GPUs: busy GPUs that would be dropped
 * (and so look free) are an error at the GresUsed value, whichever of Gres
 * and GresUsed comes first. */
static void test_gres_used_past_gpus(void)
{
	static const char *const text[] = {
		"NodeName=a CPUTot=4\n   Gres=gpu:a100:4\n   GresUsed=gpu:a100:2(IDX:1,5)\n",
		"NodeName=a CPUTot=4\n   GresUsed=gpu:a100:1(IDX:4)\n   Gres=gpu:a100:4\n",
	};
	static const int line[] = { 3, 2 }, gpu[] = { 5, 4 };
	size_t i;

	for (i = 0; i < GP_ARRAY_SIZE(text); i++) {
		gp_inventory inv;
		gp_error err = GP_ERROR_INIT;
		gp_import_opts o;
		gp_sbuf cl, st;
		char want[64];

		gp_inventory_init(&inv);
		CU_ASSERT_EQUAL_FATAL(read_text(&inv, 1, text[i], &err), GP_OK);
		memset(&o, 0, sizeof(o));
		gp_sbuf_init(&cl);
		gp_sbuf_init(&st);
		CU_ASSERT_EQUAL(gp_import_write(&inv, &o, &cl, &st, &err), GP_EINPUT);
		CU_ASSERT_STRING_EQUAL(err.file, "t");
		CU_ASSERT_EQUAL(err.line, line[i]);
		CU_ASSERT_EQUAL(err.col, 13);   /* after "   GresUsed=" */
		snprintf(want, sizeof(want), "names GPU %d, but the node has 4 GPU(s)", gpu[i]);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, want));
		gp_sbuf_release(&cl);
		gp_sbuf_release(&st);
		gp_inventory_release(&inv);
	}
	/* the last GPU is in range */
	{
		gp_inventory inv;

		CU_ASSERT_EQUAL(import_round_trip("NodeName=a CPUTot=4\n   Gres=gpu:a100:4\n"
						  "   GresUsed=gpu:a100:1(IDX:3)\n", NULL, &inv), 1);
		gp_inventory_release(&inv);
	}
}

/* The name of the parent of switch s, "" for a root. */
static const char *parent_of(const gp_fabric *f, int s)
{
	return s >= 0 && f->sw[s].parent >= 0 ? f->sw[f->sw[s].parent].name : "";
}

static int sw_named(const gp_fabric *f, const char *name)
{
	size_t i;

	for (i = 0; i < f->nsw; i++)
		if (!strcmp(f->sw[i].name, name))
			return (int)i;
	return -1;
}

/* Fabrics from YAML, worked out from the files: Slinky's topology.yaml
 * (the cluster_default tree: node3 under s2 under sw_root; the block and
 * flat topologies unread) and AWS' labels (layer-3 the leaf, layer-1 the
 * top, the tops under one root; the two us-west-2b nodes meet at
 * nn-4444...). */
static void test_fabric_yaml(void)
{
	gp_fabric f;
	gp_error err = GP_ERROR_INIT;
	char *text = NULL;
	size_t len;
	int found = 0, s;

	gp_fabric_init(&f);
	CU_ASSERT_EQUAL_FATAL(gp_read_file(gp_test_path("tests/data/fabric/topology-yaml-slinky.yaml"),
					   1 << 20, &text, &len, &err), GP_OK);
	CU_ASSERT_EQUAL_FATAL(gp_fabric_read(&f, "slinky.yaml", text, len, &err), GP_OK);
	free(text);
	CU_ASSERT_EQUAL(f.nsw, 3);
	CU_ASSERT_EQUAL(f.nnode, 4);
	s = gp_fabric_node_switch(&f, "node3");
	CU_ASSERT_FATAL(s >= 0);
	CU_ASSERT_STRING_EQUAL(f.sw[s].name, "s2");
	CU_ASSERT_STRING_EQUAL(parent_of(&f, s), "sw_root");
	CU_ASSERT_EQUAL(sw_named(&f, "b1"), -1);
	CU_ASSERT_STRING_EQUAL(f.form, "topology.yaml (tree)");
	gp_fabric_release(&f);

	gp_fabric_init(&f);
	CU_ASSERT_EQUAL_FATAL(gp_read_file(gp_test_path("tests/data/fabric/k8s-nodes-aws-labels.json"),
					   1 << 20, &text, &len, &err), GP_OK);
	CU_ASSERT_EQUAL_FATAL(gp_fabric_read_labels(&f, "aws.json", text, len, &found, &err), GP_OK);
	free(text);
	CU_ASSERT_EQUAL(found, 3);
	CU_ASSERT_EQUAL(f.nsw, 9);  /* 8 network nodes and the root */
	s = gp_fabric_node_switch(&f, "ip-192-168-51-1.us-west-2.compute.internal");
	CU_ASSERT_FATAL(s >= 0);
	CU_ASSERT_STRING_EQUAL(f.sw[s].name, "nn-8888888888example");
	CU_ASSERT_STRING_EQUAL(parent_of(&f, s), "nn-7777777777example");
	CU_ASSERT_STRING_EQUAL(parent_of(&f, f.sw[s].parent), "nn-4444444444example");
	s = gp_fabric_node_switch(&f, "ip-192-168-50-1.us-west-2.compute.internal");
	CU_ASSERT_FATAL(s >= 0);
	CU_ASSERT_STRING_EQUAL(f.sw[s].name, "nn-6666666666example");
	CU_ASSERT_STRING_EQUAL(parent_of(&f, sw_named(&f, "nn-5555555555example")), "nn-4444444444example");
	CU_ASSERT_STRING_EQUAL(parent_of(&f, sw_named(&f, "nn-4444444444example")), "label-root");
	CU_ASSERT_STRING_EQUAL(parent_of(&f, sw_named(&f, "nn-1111111111example")), "label-root");
	CU_ASSERT_EQUAL(f.nwarn, 0);    /* layer-4 is on no node: no warning */
	gp_fabric_release(&f);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("import");

	gp_test_add(s, "sniff", test_sniff);
	gp_test_add(s, "scontrol_forms", test_scontrol_forms);
	gp_test_add(s, "job_detail", test_job_detail);
	gp_test_add(s, "conf_and_gres", test_conf_and_gres);
	gp_test_add(s, "errors_located", test_errors_located);
	gp_test_add(s, "k8s", test_k8s);
	gp_test_add(s, "node_cap", test_node_cap);
	gp_test_add(s, "written_loads", test_written_loads);
	gp_test_add(s, "gres_used_past_gpus", test_gres_used_past_gpus);
	gp_test_add(s, "fabric from YAML and labels", test_fabric_yaml);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
