/* gpuplan topo show --node NAME: one node's link and expense matrices, CPU
 * sub-trees, NIC affinity classes, GPUs and NICs, as text or JSON from
 * one view of the node. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "gpuplan/model/cluster.h"
#include "gpuplan/util/util.h"
#include "topo_show_int.h"

static void cpulist(gp_sbuf *sb, const int *cpus, int n)
{
	if (n == 0)
		gp_sbuf_adds(sb, "-");
	else
		gp_sbuf_add_ranges(sb, cpus, n);
}

/* Sorted union of the CPU lists of the GPUs in set. */
static int *union_cpus(const gp_topo *t, gp_gpuset set, int *n)
{
	char *seen = gp_xcalloc(GP_TOPO_MAX_CPUS, 1);
	int *out, g, k;

	*n = 0;
	for (g = 0; g < t->ngpus; g++)
		if (set >> g & 1)
			for (k = 0; k < t->gpus[g].ncpus; k++)
				seen[t->gpus[g].cpus[k]] = 1;
	out = gp_xmalloc(GP_TOPO_MAX_CPUS * sizeof(int));
	for (k = 0; k < GP_TOPO_MAX_CPUS; k++)
		if (seen[k])
			out[(*n)++] = k;
	free(seen);
	return out;
}

static void gpu_names(gp_sbuf *sb, const gp_topo *t, gp_gpuset set)
{
	int g, first = 1;

	for (g = 0; g < t->ngpus; g++)
		if (set >> g & 1) {
			gp_sbuf_addf(sb, "%s%s", first ? "" : " ", t->gpus[g].id);
			first = 0;
		}
}

static json_t *json_gpus(const gp_topo *t, gp_gpuset set)
{
	json_t *a = json_array();
	int g;

	for (g = 0; g < t->ngpus; g++)
		if (set >> g & 1)
			json_array_append_new(a, json_string(t->gpus[g].id));
	return a;
}

static json_t *json_int_or_null(int v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

static const char *level_word[] = {
	"socket", "host bridge", "PCIe switch complex", "PCIe switch"
};

/* ---- one node: one walk fills a view, two renderers print it ---- */

/* A row of the CPU sub-trees in the order they nest: a socket (level 0),
 * host bridge (1), switch complex (2) or PCIe switch (3). */
typedef struct tree_row {
	int level, id;
	int numa;               /* sockets: its NUMA node, -1 unknown */
	gp_gpuset gpus;         /* sockets and PCIe switches: their GPUs */
} tree_row;

/* A GPU <-> NIC affinity class: its GPUs and NUMA-local NICs. */
typedef struct class_row {
	gp_gpuset gpus;
	int *nics, nnics;       /* NIC indices */
	int numa;
} class_row;

typedef struct node_view {
	const gp_node *n;
	const gp_node_type *ty;
	const gp_topo *t;
	const gp_topo_derived *d;
	const char *model;      /* GPU model name, "unknown" when none */
	const char *state;
	const char *sw;         /* the switch it hangs under, NULL when none */
	double nic_gbit_s;      /* line rate of its NICs */
	tree_row *tree;
	int ntree;
	class_row *classes;
	int nclasses;
	gp_gpuset no_class;     /* GPUs without a NUMA-local NIC */
} node_view;

static void tree_push(node_view *v, size_t *cap, int level, int id, int numa, gp_gpuset gpus)
{
	GP_GROW(v->tree, *cap, (size_t)v->ntree + 1);
	v->tree[v->ntree++] = (tree_row){ level, id, numa, gpus };
}

static void node_view_build(const gp_cluster *c, int k, node_view *v)
{
	static const char *const states[] = { "up", "down", "draining" };
	const gp_topo_derived *d;
	size_t cap = 0;
	int s, b, x, p, i, j;

	memset(v, 0, sizeof(*v));
	v->n = &c->nodes[k];
	v->ty = &c->types[v->n->type];
	v->t = &v->ty->topo;
	v->d = d = v->ty->derived;
	v->model = gp_ts_model_name(c, v->ty->gpu_model);
	v->state = states[v->n->state];
	v->sw = v->n->sw >= 0 ? c->switches[v->n->sw].name : NULL;
	v->nic_gbit_s = gp_fabric_tech_gbps(v->n->tech);
	for (s = 0; s < d->nsockets; s++) {
		tree_push(v, &cap, 0, s, d->socket_numa[s], d->socket_set[s]);
		for (b = 0; b < d->nbridges; b++) {
			if (!(d->bridge_set[b] & d->socket_set[s]))
				continue;
			tree_push(v, &cap, 1, b, -1, 0);
			for (x = 0; x < d->ncomplexes; x++) {
				if (!(d->complex_set[x] & d->bridge_set[b]))
					continue;
				tree_push(v, &cap, 2, x, -1, 0);
				for (p = 0; p < d->nswitches; p++)
					if (d->switch_set[p] & d->complex_set[x])
						tree_push(v, &cap, 3, p, -1, d->switch_set[p]);
			}
		}
	}
	v->nclasses = d->nclasses;
	v->classes = gp_xcalloc((size_t)d->nclasses + 1, sizeof(*v->classes));
	for (i = 0; i < d->nclasses; i++) {
		class_row *r = &v->classes[i];

		r->gpus = d->class_gpus[i];
		r->numa = d->class_numa[i];
		r->nics = gp_xcalloc((size_t)v->t->nnics + 1, sizeof(int));
		for (j = 0; j < v->t->nnics; j++)
			if (d->class_nics[i][j / 64] >> (j % 64) & 1)
				r->nics[r->nnics++] = j;
	}
	for (i = 0; i < v->t->ngpus; i++)
		if (d->gpu_class[i] < 0)
			v->no_class |= (gp_gpuset)1 << i;
}

static void node_view_release(node_view *v)
{
	int i;

	for (i = 0; i < v->nclasses; i++)
		free(v->classes[i].nics);
	free(v->classes);
	free(v->tree);
}

static void node_head_text(const node_view *v)
{
	const gp_node *n = v->n;
	const gp_node_type *ty = v->ty;
	int i;

	printf("node %s: type %s, %d x %s, %d NIC%s, %d CPUs, ", n->name, ty->name, v->t->ngpus,
	       v->model, v->t->nnics, v->t->nnics == 1 ? "" : "s", ty->cpu_count);
	if (ty->mem_gib > 0)
		printf("%g GiB memory, ", ty->mem_gib);
	printf("state %s\n", v->state);
	if (v->sw)
		printf("attached to switch %s (%s, %g Gb/s per NIC)\n", v->sw,
		       gp_fabric_tech_name(n->tech), v->nic_gbit_s);
	else
		printf("not attached to the fabric\n");
	if (n->nlabels) {
		printf("labels:");
		for (i = 0; i < n->nlabels; i++)
			printf(" %s=%s", n->labels[i].key, n->labels[i].value);
		printf("\n");
	}
	printf("topology: %s\n", ty->source ? ty->source : "inline in the cluster file");
}

static void node_matrices_text(const node_view *v)
{
	const gp_topo *t = v->t;
	int i, j, ng = t->ngpus;
	char buf[16];

	printf("\nGPU x GPU link level (NV<k> = k NVLinks, then PIX, PXB, PHB, NODE, SYS)\n%-7s", "");
	for (j = 0; j < ng; j++)
		printf(j + 1 < ng ? " %-6s" : " %s", t->gpus[j].id);
	printf("\n");
	for (i = 0; i < ng; i++) {
		printf("%-7s", t->gpus[i].id);
		for (j = 0; j < ng; j++)
			printf(j + 1 < ng ? " %-6s" : " %s",
			       gp_link_format(gp_topo_link(t, i, j), buf, sizeof(buf)));
		printf("\n");
	}
	printf("\nGPU x GPU communication expense (NV<k> = 100-k, PIX 200, PXB 300, PHB 400,\nNODE 500, SYS 600; lower is closer)\n%-7s", "");
	for (j = 0; j < ng; j++)
		printf(" %6s", t->gpus[j].id);
	printf("\n");
	for (i = 0; i < ng; i++) {
		printf("%-7s", t->gpus[i].id);
		for (j = 0; j < ng; j++)
			printf(" %6d", v->d->expense[i][j]);
		printf("\n");
	}
}

static void node_tree_text(const node_view *v, gp_sbuf *sb)
{
	int r;

	printf("\nCPU sub-trees (%s -> %s -> %s -> %s -> GPUs)\n", level_word[0],
	       level_word[1], level_word[2], level_word[3]);
	for (r = 0; r < v->ntree; r++) {
		const tree_row *w = &v->tree[r];
		int *cpus, ncpus;

		gp_ts_sb_reset(sb);
		switch (w->level) {
		case 0:
			cpus = union_cpus(v->t, w->gpus, &ncpus);
			cpulist(sb, cpus, ncpus);
			free(cpus);
			printf("socket %d", w->id);
			if (w->numa >= 0)
				printf(" (NUMA %d)", w->numa);
			printf(" CPUs %s\n", sb->buf);
			break;
		case 1:
			printf("  host bridge %d\n", w->id);
			break;
		case 2:
			printf("    switch complex %d\n", w->id);
			break;
		default:
			gpu_names(sb, v->t, w->gpus);
			printf("      PCIe switch %d: %s\n", w->id, sb->buf);
			break;
		}
	}
	if (v->d->npcie_inferred)
		printf("(%d GPU pair%s without a PCIe cell: relation inferred from the other cells,\nNUMA and CPU affinity)\n",
		       v->d->npcie_inferred, v->d->npcie_inferred == 1 ? "" : "s");
}

static void node_classes_text(const node_view *v, gp_sbuf *sb)
{
	int i, j;

	printf("\nGPU <-> NIC affinity classes (GPUs sharing their NUMA-local NICs)\n");
	for (i = 0; i < v->nclasses; i++) {
		gp_ts_sb_reset(sb);
		gpu_names(sb, v->t, v->classes[i].gpus);
		printf("class %d: %s; NICs", i, sb->buf);
		for (j = 0; j < v->classes[i].nnics; j++)
			printf(" %s", v->t->nics[v->classes[i].nics[j]].id);
		if (v->classes[i].numa >= 0)
			printf("; NUMA %d", v->classes[i].numa);
		printf("\n");
	}
	gp_ts_sb_reset(sb);
	for (i = 0; i < v->t->ngpus; i++)
		if (v->no_class >> i & 1)
			gp_sbuf_addf(sb, " %s", v->t->gpus[i].id);
	if (sb->len)
		printf("no NUMA-local NIC:%s\n", sb->buf);
	if (v->nclasses == 0 && !sb->len)
		printf("(none)\n");
}

static void node_devices_text(const node_view *v, gp_sbuf *sb)
{
	const gp_topo *t = v->t;
	const gp_topo_derived *d = v->d;
	int i, j;

	printf("\n%-7s %-5s %-24s %-14s %s\n", "GPU", "NUMA", "CPUs", "closest NIC", "class");
	for (i = 0; i < t->ngpus; i++) {
		char nic[32] = "-", numa[8] = "-", cls[8] = "-";

		gp_ts_sb_reset(sb);
		cpulist(sb, t->gpus[i].cpus, t->gpus[i].ncpus);
		if (d->gpu_nic[i] >= 0)
			snprintf(nic, sizeof(nic), "%s (%s)", t->nics[d->gpu_nic[i]].id,
				 gp_link_level_name(d->gpu_nic_level[i]));
		if (t->gpus[i].numa >= 0)
			snprintf(numa, sizeof(numa), "%d", t->gpus[i].numa);
		if (d->gpu_class[i] >= 0)
			snprintf(cls, sizeof(cls), "%d", d->gpu_class[i]);
		printf("%-7s %-5s %-24s %-14s %s\n", t->gpus[i].id, numa, sb->buf, nic, cls);
	}
	if (!t->nnics)
		return;
	printf("\n%-7s %-10s %-5s %-7s %s\n", "NIC", "device", "NUMA", "socket", "subnet");
	for (j = 0; j < t->nnics; j++) {
		char numa[8] = "-", sock[8] = "-";

		if (d->nic_numa[j] >= 0)
			snprintf(numa, sizeof(numa), "%d", d->nic_numa[j]);
		if (d->nic_socket[j] >= 0)
			snprintf(sock, sizeof(sock), "%d", d->nic_socket[j]);
		printf("%-7s %-10s %-5s %-7s %s\n", t->nics[j].id,
		       t->nics[j].device[0] ? t->nics[j].device : "-", numa, sock,
		       v->ty->nic_subnets && v->ty->nic_subnets[j] ? v->ty->nic_subnets[j] : "-");
	}
}

static void node_text(const node_view *v)
{
	gp_sbuf sb;

	gp_sbuf_init(&sb);
	node_head_text(v);
	node_matrices_text(v);
	node_tree_text(v, &sb);
	node_classes_text(v, &sb);
	node_devices_text(v, &sb);
	gp_sbuf_release(&sb);
}

static json_t *node_head_json(const gp_cluster *c, const node_view *v)
{
	const gp_node *n = v->n;
	const gp_node_type *ty = v->ty;
	json_t *o = json_object(), *labels = json_object();
	int i;

	json_object_set_new(o, "name", json_string(n->name));
	json_object_set_new(o, "type", json_string(ty->name));
	json_object_set_new(o, "gpu_model", ty->gpu_model >= 0 ?
			    json_string(gp_ts_model_name(c, ty->gpu_model)) : json_null());
	json_object_set_new(o, "gpus", json_integer(v->t->ngpus));
	json_object_set_new(o, "nics", json_integer(v->t->nnics));
	json_object_set_new(o, "cpus", json_integer(ty->cpu_count));
	json_object_set_new(o, "memory_gib", ty->mem_gib > 0 ? json_real(ty->mem_gib) : json_null());
	json_object_set_new(o, "switch", v->sw ? json_string(v->sw) : json_null());
	json_object_set_new(o, "tech", json_string(gp_fabric_tech_name(n->tech)));
	/* nic_gbps: the old name of nic_gbit_s (Gb/s) */
	json_object_set_new(o, "nic_gbps", json_real(v->nic_gbit_s));
	json_object_set_new(o, "nic_gbit_s", json_real(v->nic_gbit_s));
	json_object_set_new(o, "state", json_string(v->state));
	json_object_set_new(o, "topology", ty->source ? json_string(ty->source) : json_null());
	for (i = 0; i < n->nlabels; i++)
		json_object_set_new(labels, n->labels[i].key, json_string(n->labels[i].value));
	json_object_set_new(o, "labels", labels);
	return o;
}

static json_t *node_gpus_json(const node_view *v)
{
	const gp_topo *t = v->t;
	const gp_topo_derived *d = v->d;
	json_t *a = json_array();
	int i, j;

	for (i = 0; i < t->ngpus; i++) {
		json_t *g = json_object(), *cpus = json_array();

		for (j = 0; j < t->gpus[i].ncpus; j++)
			json_array_append_new(cpus, json_integer(t->gpus[i].cpus[j]));
		json_object_set_new(g, "id", json_string(t->gpus[i].id));
		json_object_set_new(g, "cpus", cpus);
		json_object_set_new(g, "numa", json_int_or_null(t->gpus[i].numa));
		json_object_set_new(g, "socket", json_integer(d->socket[i]));
		json_object_set_new(g, "host_bridge", json_integer(d->bridge[i]));
		json_object_set_new(g, "switch_complex", json_integer(d->complex_[i]));
		json_object_set_new(g, "pcie_switch", json_integer(d->pswitch[i]));
		json_object_set_new(g, "nic", d->gpu_nic[i] >= 0 ?
				    json_string(t->nics[d->gpu_nic[i]].id) : json_null());
		json_object_set_new(g, "nic_level", d->gpu_nic[i] >= 0 ?
				    json_string(gp_link_level_name(d->gpu_nic_level[i])) : json_null());
		json_object_set_new(g, "class", json_int_or_null(d->gpu_class[i]));
		json_array_append_new(a, g);
	}
	return a;
}

/* The tree rows as nested objects: sockets > host_bridges >
 * switch_complexes > pcie_switches. */
static json_t *node_tree_json(const node_view *v)
{
	static const char *const id_key[] = { "socket", "host_bridge", "switch_complex", "pcie_switch" };
	static const char *const child_key[] = { "host_bridges", "switch_complexes", "pcie_switches" };
	json_t *top = json_array(), *list[4] = { top, NULL, NULL, NULL };
	int r;

	for (r = 0; r < v->ntree; r++) {
		const tree_row *w = &v->tree[r];
		json_t *o = json_object();

		json_object_set_new(o, id_key[w->level], json_integer(w->id));
		if (w->level == 0)
			json_object_set_new(o, "numa", json_int_or_null(w->numa));
		if (w->level == 3) {
			json_object_set_new(o, "gpus", json_gpus(v->t, w->gpus));
		} else {
			list[w->level + 1] = json_array();
			json_object_set_new(o, child_key[w->level], list[w->level + 1]);
		}
		json_array_append_new(list[w->level], o);
	}
	return top;
}

static json_t *node_classes_json(const node_view *v)
{
	json_t *a = json_array();
	int i, j;

	for (i = 0; i < v->nclasses; i++) {
		json_t *co = json_object(), *nl = json_array();

		for (j = 0; j < v->classes[i].nnics; j++)
			json_array_append_new(nl, json_string(v->t->nics[v->classes[i].nics[j]].id));
		json_object_set_new(co, "class", json_integer(i));
		json_object_set_new(co, "gpus", json_gpus(v->t, v->classes[i].gpus));
		json_object_set_new(co, "nics", nl);
		json_object_set_new(co, "numa", json_int_or_null(v->classes[i].numa));
		json_array_append_new(a, co);
	}
	return a;
}

static json_t *node_json(const gp_cluster *c, const node_view *v)
{
	const gp_topo *t = v->t;
	json_t *root = json_object(), *a, *row;
	char buf[16];
	int i, j, ng = t->ngpus;

	json_object_set_new(root, "node", node_head_json(c, v));
	json_object_set_new(root, "gpus", node_gpus_json(v));
	a = json_array();
	row = json_array();
	for (i = 0; i < ng; i++) {
		json_t *r1 = json_array(), *r2 = json_array();

		for (j = 0; j < ng; j++) {
			json_array_append_new(r1, json_string(gp_link_format(gp_topo_link(t, i, j),
									   buf, sizeof(buf))));
			json_array_append_new(r2, json_integer(v->d->expense[i][j]));
		}
		json_array_append_new(a, r1);
		json_array_append_new(row, r2);
	}
	json_object_set_new(root, "links", a);
	json_object_set_new(root, "expense", row);
	json_object_set_new(root, "cpu_subtrees", node_tree_json(v));
	json_object_set_new(root, "classes", node_classes_json(v));
	a = json_array();
	for (j = 0; j < t->nnics; j++) {
		json_t *no = json_object();

		json_object_set_new(no, "id", json_string(t->nics[j].id));
		json_object_set_new(no, "device", t->nics[j].device[0] ?
				    json_string(t->nics[j].device) : json_null());
		json_object_set_new(no, "numa", json_int_or_null(v->d->nic_numa[j]));
		json_object_set_new(no, "socket", json_int_or_null(v->d->nic_socket[j]));
		json_object_set_new(no, "subnet", v->ty->nic_subnets && v->ty->nic_subnets[j] ?
				    json_string(v->ty->nic_subnets[j]) : json_null());
		json_array_append_new(a, no);
	}
	json_object_set_new(root, "nics", a);
	return root;
}

void gp_topo_node_text(const gp_cluster *c, int k)
{
	node_view v;

	node_view_build(c, k, &v);
	node_text(&v);
	node_view_release(&v);
}

json_t *gp_topo_node_json(const gp_cluster *c, int k)
{
	node_view v;
	json_t *o;

	node_view_build(c, k, &v);
	o = node_json(c, &v);
	node_view_release(&v);
	return o;
}
