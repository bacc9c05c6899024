/* `place --emit`: a placement as environment, numactl, Slurm and
 * Kubernetes text (emit.h). */
#include <ctype.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/yaml.h"
#include "gpuplan/report/emit.h"
#include "gpuplan/util/hostlist.h"

static const struct {
	const char *name;
	int bit;
} kinds[] = {
	{ "env", GP_EMIT_ENV }, { "slurm", GP_EMIT_SLURM }, { "k8s", GP_EMIT_K8S },
	{ "numactl", GP_EMIT_NUMACTL }, { "k8s-jobset", GP_EMIT_JOBSET },
};

int gp_emit_parse(const char *s, char *bad, size_t size)
{
	int bits = 0;

	while (*s) {
		const char *e = strchr(s, ',');
		size_t n = e ? (size_t)(e - s) : strlen(s), i;
		int found = 0;

		for (i = 0; i < GP_ARRAY_SIZE(kinds); i++)
			if (n == strlen(kinds[i].name) && !strncmp(s, kinds[i].name, n)) {
				bits |= kinds[i].bit;
				found = 1;
			}
		if (n == 10 && !strncmp(s, "kubernetes", 10)) {
			bits |= GP_EMIT_K8S;
			found = 1;
		}
		if (n == 6 && !strncmp(s, "jobset", 6)) {
			bits |= GP_EMIT_JOBSET;
			found = 1;
		}
		if (!found) {
			snprintf(bad, size, "%.*s", (int)n, s);
			return -1;
		}
		s += n + (e ? 1 : 0);
	}
	return bits;
}

const char *gp_emit_name(int bit)
{
	size_t i;

	for (i = 0; i < GP_ARRAY_SIZE(kinds); i++)
		if (kinds[i].bit == bit)
			return kinds[i].name;
	return "?";
}

static const char *nic_name(const gp_cluster *c, int node, int nic)
{
	const gp_topo *t = &c->types[c->nodes[node].type].topo;

	if (nic < 0 || nic >= t->nnics)
		return NULL;
	return t->nics[nic].device[0] ? t->nics[nic].device : t->nics[nic].id;
}

/* The NICs a part's GPUs use, as NCCL_IB_HCA wants them ("=mlx5_0,mlx5_2":
 * '=' asks for these exact names, as mlx5_1 would also match mlx5_10);
 * "" when the part has no named NIC. */
static void emit_ib_hca(const gp_cluster *c, const gp_place_part *part, gp_sbuf *sb)
{
	int seen[GP_TOPO_MAX_DEVICES] = { 0 }, g, n = 0;

	for (g = 0; g < part->ngpus; g++) {
		int nic = part->gpu_nic[g] >= 0 ? part->gpu_nic[g] : part->nic;
		const char *nm = nic_name(c, part->node, nic);

		if (!nm || seen[nic])
			continue;
		seen[nic] = 1;
		gp_sbuf_addf(sb, "%s%s", n++ ? "," : "=", nm);
	}
}

/* Whether cpu is in GPU gg's affinity list. */
static int gpu_near(const gp_topo_gpu *gg, int cpu)
{
	int k;

	for (k = 0; k < gg->ncpus; k++)
		if (gg->cpus[k] == cpu)
			return 1;
	return 0;
}

/* The --cpu-bind value of a part: one task per GPU, cpt CPUs each (the
 * --cpus-per-task beside it).  Each task takes free CPUs of the part near
 * its GPU first, then any left in the part.  One CPU per task is a
 * map_cpu list; more is a mask_cpu list of hexadecimal masks, so that
 * the binding gives every task all the CPUs it asked for. */
static void emit_cpu_bind(const gp_cluster *c, const gp_place_part *part, int cpt, gp_sbuf *sb)
{
	const gp_topo *t = &c->types[c->nodes[part->node].type].topo;
	uint64_t taken[GP_TOPO_MAX_CPUS / 64 + 1] = { 0 };
	int g, i, pass;

	if (cpt < 1)
		cpt = 1;
	gp_sbuf_adds(sb, cpt == 1 ? "map_cpu:" : "mask_cpu:");
	for (g = 0; g < part->ngpus; g++) {
		const gp_topo_gpu *gg = &t->gpus[part->gpus[g]];
		uint64_t mask[GP_TOPO_MAX_CPUS / 64 + 1] = { 0 };
		int got = 0, first = -1, top = -1;

		/* pass 0: near this GPU; pass 1: any left in the part */
		for (pass = 0; pass < 2 && got < cpt; pass++)
			for (i = 0; i < part->ncpus && got < cpt; i++) {
				int cpu = part->cpus[i];

				if (cpu < 0 || cpu >= GP_TOPO_MAX_CPUS || (taken[cpu / 64] >> (cpu % 64) & 1) ||
				    (pass == 0 && !gpu_near(gg, cpu)))
					continue;
				taken[cpu / 64] |= 1ull << (cpu % 64);
				mask[cpu / 64] |= 1ull << (cpu % 64);
				if (first < 0)
					first = cpu;
				if (cpu > top)
					top = cpu;
				got++;
			}
		if (first < 0) {
			/* no CPU of the part left: the GPU's own first CPU */
			first = gg->ncpus ? gg->cpus[g % gg->ncpus] : g;
			if (first < 0 || first >= GP_TOPO_MAX_CPUS)
				first = 0;
			mask[first / 64] |= 1ull << (first % 64);
			top = first;
		}
		if (g)
			gp_sbuf_adds(sb, ",");
		if (cpt == 1) {
			gp_sbuf_addf(sb, "%d", first);
			continue;
		}
		gp_sbuf_adds(sb, "0x");
		for (i = top / 64; i >= 0; i--)
			gp_sbuf_addf(sb, i == top / 64 ? "%" PRIx64 : "%016" PRIx64, mask[i]);
	}
}

/* ---- grouping parts that render alike ---- */

typedef struct group {
	char *text;            /* what follows the node names */
	const char **nodes;
	size_t n;
	int first_part;
} group;

static void group_add(group **gs, size_t *ng, size_t *cap, char *text, const char *node,
		      int part, size_t nparts)
{
	size_t i;

	for (i = 0; i < *ng; i++)
		if (!strcmp((*gs)[i].text, text)) {
			(*gs)[i].nodes[(*gs)[i].n++] = node;
			free(text);
			return;
		}
	GP_GROW(*gs, *cap, *ng + 1);
	(*gs)[*ng].text = text;
	(*gs)[*ng].nodes = gp_xcalloc(nparts + 1, sizeof(char *));
	(*gs)[*ng].nodes[0] = node;
	(*gs)[*ng].n = 1;
	(*gs)[*ng].first_part = part;
	(*ng)++;
}

static void groups_free(group *gs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(gs[i].text);
		free(gs[i].nodes);
	}
	free(gs);
}

static void put_nodes(gp_sbuf *sb, const group *g)
{
	gp_hostlist_compress(g->nodes, g->n, sb);
}

/* The names in what --emit writes come from the cluster and the job
 * files: each is quoted for where it goes (a shell word, a YAML scalar, a
 * comment line), so that no name can run a command or change the YAML. */
static void put_nodes_shell(gp_sbuf *sb, const group *g)
{
	gp_sbuf t;

	gp_sbuf_init(&t);
	put_nodes(&t, g);
	gp_sbuf_add_shell(sb, t.buf ? t.buf : "");
	gp_sbuf_release(&t);
}

static void put_nodes_comment(gp_sbuf *sb, const group *g)
{
	gp_sbuf t;

	gp_sbuf_init(&t);
	put_nodes(&t, g);
	gp_sbuf_add_printable(sb, t.buf ? t.buf : "");
	gp_sbuf_release(&t);
}

/* ---- env and numactl ---- */

static char *env_text(const gp_cluster *c, const gp_placement *p, const gp_place_part *part)
{
	gp_sbuf sb, hca;
	int g;

	gp_sbuf_init(&sb);
	gp_sbuf_adds(&sb, "CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=");
	for (g = 0; g < part->ngpus; g++)
		gp_sbuf_addf(&sb, "%s%d", g ? "," : "", part->gpus[g]);
	if (p->nparts > 1) {
		gp_sbuf_init(&hca);
		emit_ib_hca(c, part, &hca);
		if (hca.len) {
			gp_sbuf_adds(&sb, " NCCL_IB_HCA=");
			gp_sbuf_add_shell(&sb, hca.buf);
		} else
			gp_sbuf_adds(&sb, " NCCL_IB_DISABLE=1 NCCL_SOCKET_IFNAME=^lo,docker0");
		gp_sbuf_release(&hca);
	}
	return gp_sbuf_detach(&sb);
}

static char *numactl_text(const gp_place_part *part)
{
	gp_sbuf sb;

	gp_sbuf_init(&sb);
	gp_sbuf_adds(&sb, "numactl");
	if (part->ncpus > 0) {
		gp_sbuf_adds(&sb, " --physcpubind=");
		gp_sbuf_add_ranges(&sb, part->cpus, part->ncpus);
	} else if (part->numa >= 0) {
		gp_sbuf_addf(&sb, " --cpunodebind=%d", part->numa);
	}
	if (part->numa >= 0)
		gp_sbuf_addf(&sb, " --membind=%d", part->numa);
	return gp_sbuf_detach(&sb);
}

static void render_lines(const gp_cluster *c, const gp_placement *p, int kind, gp_sbuf *sb)
{
	group *gs = NULL;
	size_t ng = 0, cap = 0, i;
	int k;

	for (k = 0; k < p->nparts; k++) {
		const gp_place_part *part = &p->parts[k];
		char *t = kind == GP_EMIT_ENV ? env_text(c, p, part) : numactl_text(part);

		group_add(&gs, &ng, &cap, t, c->nodes[part->node].name, k, (size_t)p->nparts);
	}
	for (i = 0; i < ng; i++) {
		put_nodes_comment(sb, &gs[i]);
		gp_sbuf_addf(sb, ": %s%s\n", kind == GP_EMIT_ENV ? "export " : "", gs[i].text);
	}
	groups_free(gs, ng);
}

/* ---- Slurm ---- */

/* The GRES type the scheduler knows the node's GPUs by: the label an
 * import kept, else the catalog name in lower case; NULL for none. */
static char *gres_type(const gp_cluster *c, int node)
{
	const char *l = gp_cluster_node_label(c, node, "gres_type");
	const gp_gpu_model *m = gp_cluster_node_model(c, node);
	char *s;
	size_t i;

	if (l)
		return gp_xstrdup(l);
	if (!m)
		return NULL;
	s = gp_xstrdup(m->name);
	for (i = 0; s[i]; i++)
		s[i] = (char)tolower((unsigned char)s[i]);
	return s;
}

static void render_slurm(const gp_cluster *c, const gp_job *j, const gp_placement *p,
			 gp_sbuf *sb)
{
	group *gs = NULL;
	size_t ng = 0, cap = 0, i;
	int k, total_nodes = p->nparts;
	gp_sbuf where;

	for (k = 0; k < p->nparts; k++) {
		const gp_place_part *part = &p->parts[k];
		char *type = gres_type(c, part->node);
		gp_sbuf t;

		gp_sbuf_init(&t);
		gp_sbuf_addf(&t, "%d|%s|%d|", part->ngpus, type ? type : "",
			     part->ncpus > 0 && part->ngpus > 0 ? part->ncpus / part->ngpus : 0);
		emit_cpu_bind(c, part, part->ncpus > 0 && part->ngpus > 0 ? part->ncpus / part->ngpus : 0, &t);
		free(type);
		group_add(&gs, &ng, &cap, gp_sbuf_detach(&t), c->nodes[part->node].name, k,
			  (size_t)p->nparts);
	}
	gp_sbuf_adds(sb, "sbatch --job-name=");
	gp_sbuf_add_shell(sb, j->id);
	for (i = 0; i < ng; i++) {
		char *f = gs[i].text, *a = strchr(f, '|'), *b = strchr(a + 1, '|'),
		     *cc = strchr(b + 1, '|');
		int ngpu = atoi(f), cpt = atoi(b + 1);

		if (i)
			gp_sbuf_adds(sb, " :");
		gp_sbuf_addf(sb, " --nodes=%zu --nodelist=", gs[i].n);
		put_nodes_shell(sb, &gs[i]);
		gp_sbuf_addf(sb, " --ntasks-per-node=%d", ngpu);
		if (b > a + 1) {
			char *gres = gp_xasprintf("gpu:%.*s:%d", (int)(b - a - 1), a + 1, ngpu);

			gp_sbuf_adds(sb, " --gres=");
			gp_sbuf_add_shell(sb, gres);
			free(gres);
		} else
			gp_sbuf_addf(sb, " --gres=gpu:%d", ngpu);
		if (cpt > 0)
			gp_sbuf_addf(sb, " --cpus-per-task=%d", cpt);
		(void)cc;
	}
	gp_sbuf_adds(sb, " job.sh\n");
	for (i = 0; i < ng; i++) {
		const char *map = strrchr(gs[i].text, '|') + 1;

		if (ng > 1) {
			gp_sbuf_addf(sb, "# in job.sh, component %zu (", i);
			put_nodes_comment(sb, &gs[i]);
			gp_sbuf_adds(sb, "):\n");
		} else {
			gp_sbuf_adds(sb, "# in job.sh:\n");
		}
		gp_sbuf_adds(sb, "srun");
		if (ng > 1)
			gp_sbuf_addf(sb, " --het-group=%zu", i);
		gp_sbuf_addf(sb, " --cpu-bind=%s COMMAND\n", map);
	}
	/* what Slurm does not take from the command line */
	gp_sbuf_init(&where);
	for (k = 0; k < p->nparts; k++) {
		int g;

		gp_sbuf_adds(&where, k ? " " : "");
		gp_sbuf_add_printable(&where, c->nodes[p->parts[k].node].name);
		gp_sbuf_adds(&where, ":");
		for (g = 0; g < p->parts[k].ngpus; g++)
			gp_sbuf_addf(&where, "%s%d", g ? "," : "", p->parts[k].gpus[g]);
		if (k >= 7 && total_nodes > 9) {
			gp_sbuf_addf(&where, " ... (%d nodes)", total_nodes);
			break;
		}
	}
	gp_sbuf_addf(sb, "# Slurm picks the GPU indices inside each node; the planned ones: %s\n",
		     where.buf);
	gp_sbuf_release(&where);
	groups_free(gs, ng);
}

/* ---- Kubernetes ---- */

static void render_k8s(const gp_cluster *c, const gp_job *j, const gp_placement *p,
		       gp_sbuf *sb)
{
	int k, g;

	for (k = 0; k < p->nparts; k++) {
		const gp_place_part *part = &p->parts[k];
		const char *node = c->nodes[part->node].name;
		gp_sbuf hca;
		char *pod;

		if (k)
			gp_sbuf_adds(sb, "---\n");
		gp_sbuf_addf(sb, "# part %d of %d: ", k + 1, p->nparts);
		gp_sbuf_add_printable(sb, node);
		gp_sbuf_adds(sb, ", GPUs ");
		for (g = 0; g < part->ngpus; g++)
			gp_sbuf_addf(sb, "%s%d", g ? "," : "", part->gpus[g]);
		gp_sbuf_adds(sb, " (the device plugin picks the indices)\n");
		pod = gp_xasprintf("%s-%d", j->id, k);
		gp_sbuf_adds(sb, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: ");
		gp_yaml_put_scalar(sb, pod);
		free(pod);
		gp_sbuf_adds(sb, "\n  labels: {gpuplan.job: ");
		gp_yaml_quote(sb, j->id);
		gp_sbuf_addf(sb, ", gpuplan.role: %s}\nspec:\n", part->role == 1 ? "ps" : "worker");
		gp_sbuf_adds(sb, "  affinity:\n    nodeAffinity:\n"
				 "      requiredDuringSchedulingIgnoredDuringExecution:\n"
				 "        nodeSelectorTerms:\n        - matchExpressions:\n"
				 "          - {key: kubernetes.io/hostname, operator: In, values: [");
		gp_yaml_quote(sb, node);
		gp_sbuf_adds(sb, "]}\n");
		gp_sbuf_addf(sb, "  containers:\n  - name: %s\n    image: IMAGE\n"
				 "    resources:\n      limits: {nvidia.com/gpu: %d",
			     part->role == 1 ? "ps" : "worker", part->ngpus);
		if (part->ncpus > 0)
			gp_sbuf_addf(sb, ", cpu: \"%d\"", part->ncpus);
		if (part->host_mem_mib > 0)
			gp_sbuf_addf(sb, ", memory: %lldMi", (long long)part->host_mem_mib);
		gp_sbuf_adds(sb, "}\n");
		gp_sbuf_init(&hca);
		if (p->nparts > 1)
			emit_ib_hca(c, part, &hca);
		if (hca.len) {
			gp_sbuf_adds(sb, "    env:\n    - {name: NCCL_IB_HCA, value: ");
			gp_yaml_quote(sb, hca.buf);
			gp_sbuf_adds(sb, "}\n");
		}
		gp_sbuf_release(&hca);
	}
}

/* RDMA devices of a part: the NICs NCCL_IB_HCA names, as the RDMA shared
 * device plugin's resource (rdma/rdma_shared_device_a, its default name;
 * a site with another plugin renames it). */
#define RDMA_RESOURCE "rdma/rdma_shared_device_a"
#define RDZV_PORT 29500

/* The JobSet form: one replicated job per part, each a single pod pinned
 * to its node with its GPUs, CPUs and memory; torchrun's rendezvous
 * (MASTER_ADDR is part 0's pod by JobSet's DNS name <jobset>-<job>-0-0.
 * <jobset>), NNODES, NODE_RANK, NPROC_PER_NODE, WORLD_SIZE; with NICs,
 * their RDMA devices, NCCL_IB_HCA and IPC_LOCK (pinned memory). */
static void render_jobset(const gp_cluster *c, const gp_job *j, const gp_placement *p,
			  gp_sbuf *sb)
{
	int k, g, world = 0;
	char *master;

	for (k = 0; k < p->nparts; k++)
		world += p->parts[k].ngpus;
	gp_sbuf_addf(sb, "# JobSet (jobset.x-k8s.io): %d pod%s, %d GPU%s; run the training with\n"
			 "# torchrun --nnodes=$NNODES --node-rank=$NODE_RANK "
			 "--nproc-per-node=$NPROC_PER_NODE\n"
			 "#   --master-addr=$MASTER_ADDR --master-port=$MASTER_PORT TRAIN.py\n",
		     p->nparts, p->nparts == 1 ? "" : "s", world, world == 1 ? "" : "s");
	gp_sbuf_adds(sb, "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata:\n  name: ");
	gp_yaml_put_scalar(sb, j->id);
	gp_sbuf_adds(sb, "\n  labels: {gpuplan.job: ");
	gp_yaml_quote(sb, j->id);
	gp_sbuf_adds(sb, "}\nspec:\n  network: {enableDNSHostnames: true}\n"
			 "  failurePolicy: {maxRestarts: 0}\n  replicatedJobs:\n");
	master = gp_xasprintf("%s-part-0-0-0.%s", j->id, j->id);
	for (k = 0; k < p->nparts; k++) {
		const gp_place_part *part = &p->parts[k];
		const char *node = c->nodes[part->node].name;
		gp_sbuf hca;

		gp_sbuf_init(&hca);
		emit_ib_hca(c, part, &hca);
		gp_sbuf_addf(sb, "  - name: part-%d     # ", k);
		gp_sbuf_add_printable(sb, node);
		gp_sbuf_adds(sb, ", GPUs ");
		for (g = 0; g < part->ngpus; g++)
			gp_sbuf_addf(sb, "%s%d", g ? "," : "", part->gpus[g]);
		gp_sbuf_adds(sb, "\n    replicas: 1\n    template:\n      spec:\n"
				 "        parallelism: 1\n        completions: 1\n        backoffLimit: 0\n"
				 "        template:\n          spec:\n            restartPolicy: Never\n"
				 "            nodeSelector: {kubernetes.io/hostname: ");
		gp_yaml_quote(sb, node);
		gp_sbuf_addf(sb, "}\n            containers:\n            - name: %s\n"
				 "              image: IMAGE\n", part->role == 1 ? "ps" : "worker");
		gp_sbuf_adds(sb, "              env:\n              - {name: MASTER_ADDR, value: ");
		gp_yaml_quote(sb, master);
		gp_sbuf_addf(sb, "}\n"
				 "              - {name: MASTER_PORT, value: \"%d\"}\n"
				 "              - {name: NNODES, value: \"%d\"}\n"
				 "              - {name: NODE_RANK, value: \"%d\"}\n"
				 "              - {name: NPROC_PER_NODE, value: \"%d\"}\n"
				 "              - {name: WORLD_SIZE, value: \"%d\"}\n",
			     RDZV_PORT, p->nparts, k, part->ngpus, world);
		if (hca.len) {
			gp_sbuf_adds(sb, "              - {name: NCCL_IB_HCA, value: ");
			gp_yaml_quote(sb, hca.buf);
			gp_sbuf_adds(sb, "}\n");
		}
		gp_sbuf_addf(sb, "              resources:\n                limits: {nvidia.com/gpu: %d",
			     part->ngpus);
		if (part->ncpus > 0)
			gp_sbuf_addf(sb, ", cpu: \"%d\"", part->ncpus);
		if (part->host_mem_mib > 0)
			gp_sbuf_addf(sb, ", memory: %lldMi", (long long)part->host_mem_mib);
		if (hca.len)
			gp_sbuf_adds(sb, ", " RDMA_RESOURCE ": 1");
		gp_sbuf_adds(sb, "}\n");
		if (hca.len)
			gp_sbuf_adds(sb, "              securityContext: {capabilities: {add: [IPC_LOCK]}}\n");
		gp_sbuf_release(&hca);
	}
	free(master);
}

void gp_emit_render(int kind, const gp_cluster *c, const gp_job *j, const gp_placement *p,
		    gp_sbuf *sb)
{
	switch (kind) {
	case GP_EMIT_ENV:
	case GP_EMIT_NUMACTL:
		render_lines(c, p, kind, sb);
		break;
	case GP_EMIT_SLURM:
		render_slurm(c, j, p, sb);
		break;
	case GP_EMIT_K8S:
		render_k8s(c, j, p, sb);
		break;
	case GP_EMIT_JOBSET:
		render_jobset(c, j, p, sb);
		break;
	default:
		break;
	}
}
