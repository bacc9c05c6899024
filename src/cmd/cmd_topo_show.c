/* gpuplan topo show [-c CLUSTER] [--node NAME] [--models] [--json]:
 * the cluster (summary, node types, switch tree, inter-node weights by
 * group), one node (link/expense matrices, CPU sub-trees, NIC affinity
 * classes, subnets), or the GPU catalog. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "topo_show_int.h"
#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/model/cluster.h"
#include "gpuplan/util/hostlist.h"
#include "gpuplan/util/util.h"

/* Text matrices collapse groups until at most this many remain. */
#define MAX_TEXT_GROUPS 24

/* ---- small helpers ---- */

static int emit_json(json_t *root)
{
	char *s = json_dumps(root, JSON_SORT_KEYS | JSON_INDENT(2));

	json_decref(root);
	if (!s)
		return gp_cli_fail(GP_EIO, "cannot render JSON");
	puts(s);
	free(s);
	return GP_OK;
}

/* A slice of node ids as a Slurm hostlist ("a100-r0-[0-7]"); a list too
 * long for a line is cut after a whole item ("...,n[12-40],..."). */
static void node_range(gp_sbuf *sb, const gp_cluster *c, const int *ids, int n)
{
	const char **names;
	gp_sbuf hl;
	int i;

	if (n == 0)
		return;
	names = gp_xcalloc((size_t)n, sizeof(*names));
	for (i = 0; i < n; i++)
		names[i] = c->nodes[ids[i]].name;
	gp_sbuf_init(&hl);
	gp_hostlist_compress(names, (size_t)n, &hl);
	if (hl.len > 100) {
		size_t cut = 100, depth = 0, k, last = 0;

		for (k = 0; k < cut; k++) {
			depth += hl.buf[k] == '[' ? 1 : 0;
			depth -= hl.buf[k] == ']' ? 1 : 0;
			if (hl.buf[k] == ',' && depth == 0)
				last = k;
		}
		if (last) {
			hl.len = last;
			hl.buf[last] = '\0';
			gp_sbuf_adds(&hl, ",...");
		}
	}
	gp_sbuf_adds(sb, hl.buf);
	gp_sbuf_release(&hl);
	free(names);
}

/* ---- the GPU catalog ---- */

static int show_models(const gp_cluster *c, int json)
{
	const gp_catalog *cat = &c->catalog;
	int i;

	if (json) {
		json_t *a = json_array();

		for (i = 0; i < cat->n; i++) {
			const gp_gpu_model *m = &cat->models[i];
			json_t *o = json_object();

			json_object_set_new(o, "name", json_string(m->name));
			json_object_set_new(o, "vendor", json_string(m->vendor));
			json_object_set_new(o, "mem_gib", json_real(m->mem_gib));
			/* *_gbs: the old names of the *_gbyte_s keys (GB/s) */
			json_object_set_new(o, "mem_bw_gbs", json_real(m->mem_bw_gbs));
			json_object_set_new(o, "mem_bw_gbyte_s", json_real(m->mem_bw_gbs));
			json_object_set_new(o, "fp16_tflops", json_real(m->fp16_tflops));
			json_object_set_new(o, "fp32_tflops", json_real(m->fp32_tflops));
			json_object_set_new(o, "bf16", json_boolean(m->bf16));
			json_object_set_new(o, "nvlink_gen", json_integer(m->nvlink_gen));
			json_object_set_new(o, "nvlink_links", json_integer(m->nvlink_links));
			json_object_set_new(o, "nvlink_gbs_per_link", json_real(m->nvlink_gbs_per_link));
			json_object_set_new(o, "nvlink_gbyte_s_per_link", json_real(m->nvlink_gbs_per_link));
			json_object_set_new(o, "nvlink_nccl_gbs", json_real(m->nvlink_nccl_gbs));
			json_object_set_new(o, "nvlink_nccl_gbyte_s", json_real(m->nvlink_nccl_gbs));
			json_object_set_new(o, "pcie_gen", json_integer(m->pcie_gen));
			json_object_set_new(o, "pcie_lanes", json_integer(m->pcie_lanes));
			json_object_set_new(o, "tdp_w", json_integer(m->tdp_w));
			json_array_append_new(a, o);
		}
		return emit_json(a);
	}
	printf("%-20s %-6s %7s %8s %9s %9s %5s %-13s %4s %5s\n", "model", "vendor",
	       "mem GiB", "mem GB/s", "FP16 TF", "FP32 TF", "BF16", "GPU link",
	       "PCIe", "TDP W");
	for (i = 0; i < cat->n; i++) {
		const gp_gpu_model *m = &cat->models[i];
		char link[32] = "-";

		if (m->nvlink_links)
			snprintf(link, sizeof(link), "%s%d x%d %g", m->nvlink_gen ? "NV" : "IF",
				 m->nvlink_gen, m->nvlink_links, m->nvlink_gbs_per_link);
		if (!m->nvlink_gen && m->nvlink_links)
			snprintf(link, sizeof(link), "IF x%d %g", m->nvlink_links,
				 m->nvlink_gbs_per_link);
		printf("%-20s %-6s %7g %8g %9g %9g %5s %-13s %4d %5d\n", m->name, m->vendor,
		       m->mem_gib, m->mem_bw_gbs, m->fp16_tflops, m->fp32_tflops,
		       m->bf16 ? "yes" : "no", link, m->pcie_gen, m->tdp_w);
	}
	printf("\nTFLOPS are dense peaks (FP16 = tensor FP16/BF16); GPU link = generation x links,\n"
	       "GB/s per link per direction (IF = AMD Infinity Fabric).\n");
	return GP_OK;
}

/* ---- the cluster ---- */

/* Groups of interchangeable nodes: one per switch with nodes attached to
 * it (in node_order), then one for the unattached nodes.  gsw[g] is the
 * switch (-1 for the unattached group); ids are slices of node_order. */
typedef struct groups {
	int n;
	int *sw, *first, *count;
} groups;

static void groups_build(const gp_cluster *c, groups *g)
{
	int i = 0;

	g->n = 0;
	g->sw = gp_xmalloc(((size_t)c->nnodes + 1) * sizeof(int));
	g->first = gp_xmalloc(((size_t)c->nnodes + 1) * sizeof(int));
	g->count = gp_xmalloc(((size_t)c->nnodes + 1) * sizeof(int));
	while (i < c->nnodes) {
		int s = c->nodes[c->node_order[i]].sw, j = i;

		while (j < c->nnodes && c->nodes[c->node_order[j]].sw == s)
			j++;
		g->sw[g->n] = s;
		g->first[g->n] = i;
		g->count[g->n] = j - i;
		g->n++;
		i = j;
	}
}

static void groups_release(groups *g)
{
	free(g->sw);
	free(g->first);
	free(g->count);
}

/* Weight between two distinct nodes of groups a and b. */
static int group_weight(const gp_cluster *c, const groups *g, int a, int b)
{
	return gp_cluster_switch_weight(c, g->sw[a], g->sw[b]);
}

/* The hostlist of the nodes with a rail on switch s into out (empty: no
 * node has one there). */
static void rail_hostlist(const gp_cluster *c, int s, gp_sbuf *out)
{
	const char **names = gp_xcalloc((size_t)c->nnodes + 1, sizeof(*names));
	size_t n = 0;
	int k, r;

	for (k = 0; k < c->nnodes; k++)
		for (r = 0; r < c->nodes[k].nrails; r++)
			if (c->nodes[k].rails[r] == s) {
				names[n++] = c->nodes[k].name;
				break;
			}
	gp_hostlist_compress(names, n, out);
	free(names);
}

static void print_tree(const gp_cluster *c, int s, int indent, gp_sbuf *sb)
{
	const gp_switch *w = &c->switches[s];
	const char *last = NULL;
	int i, k;

	printf("%*s%-*s %-9s %4g Gb/s  %d node%s", indent, "", 28 - indent, w->name,
	       gp_fabric_tech_name(w->tech), gp_fabric_tech_gbps(w->tech), w->count,
	       w->count == 1 ? "" : "s");
	if (w->nodes_direct) {
		gp_ts_sb_reset(sb);
		node_range(sb, c, c->node_order + w->first, w->nodes_direct);
		printf(" (%d here: %s", w->nodes_direct, sb->buf);
	}
	gp_ts_sb_reset(sb);
	rail_hostlist(c, s, sb);
	if (sb->len)
		printf("%sa rail of %s", w->nodes_direct ? "; " : " (", sb->buf);
	printf("%s\n", w->nodes_direct || sb->len ? ")" : "");
	/* children in name order (O(children x switches): small next to
	 * the output) */
	for (k = 0; k < w->nchildren; k++) {
		int best = -1;

		for (i = 0; i < c->nswitches; i++) {
			if (c->switches[i].parent != s)
				continue;
			if (last && strcmp(c->switches[i].name, last) <= 0)
				continue;
			if (best < 0 || strcmp(c->switches[i].name, c->switches[best].name) < 0)
				best = i;
		}
		if (best < 0)
			break;
		print_tree(c, best, indent + 2, sb);
		last = c->switches[best].name;
	}
}

/* What the cluster's text and JSON both show, counted once. */
typedef struct cluster_view {
	int *counts;            /* GPUs by catalog model (last: unknown) */
	int *tcount;            /* nodes by node type */
	int roots;              /* switch trees */
	groups g;
} cluster_view;

static void cluster_view_build(const gp_cluster *c, cluster_view *v)
{
	int i;

	v->counts = gp_xcalloc((size_t)c->catalog.n + 1, sizeof(int));
	v->tcount = gp_xcalloc((size_t)c->ntypes + 1, sizeof(int));
	gp_cluster_gpus_by_model(c, v->counts);
	for (i = 0; i < c->nnodes; i++)
		v->tcount[c->nodes[i].type]++;
	v->roots = 0;
	for (i = 0; i < c->nswitches; i++)
		v->roots += c->switches[i].parent < 0;
	groups_build(c, &v->g);
}

static void cluster_view_release(cluster_view *v)
{
	free(v->counts);
	free(v->tcount);
	groups_release(&v->g);
}

static void cluster_head_text(const gp_cluster *c, const cluster_view *v)
{
	gp_sbuf sb;
	int i;

	printf("cluster %s (%s)\n", c->name ? c->name : "-", c->path);
	printf("  nodes     %d (%d attached to the fabric)\n", c->nnodes, c->nattached);
	gp_sbuf_init(&sb);
	gp_cli_gpus_by_model_text(c, &sb);
	printf("  GPUs      %d:%s%s\n", c->ngpus, sb.len ? " " : "", sb.len ? sb.buf : "");
	gp_sbuf_release(&sb);
	printf("  NICs      %d\n", c->nnics);
	printf("  switches  %d in %d tree%s, %d level%s\n", c->nswitches, v->roots,
	       v->roots == 1 ? "" : "s", c->nswitches ? c->max_depth + 1 : 0,
	       c->max_depth == 0 ? "" : "s");
	printf("\nnode types\n  %-16s %-18s %4s %4s %5s %8s %5s  %s\n", "name", "GPU model",
	       "GPUs", "NICs", "CPUs", "mem GiB", "nodes", "topology");
	for (i = 0; i < c->ntypes; i++) {
		const gp_node_type *t = &c->types[i];

		printf("  %-16s %-18s %4d %4d %5d %8g %5d  %s\n", t->name,
		       gp_ts_model_name(c, t->gpu_model), t->topo.ngpus, t->topo.nnics, t->cpu_count,
		       t->mem_gib, v->tcount[i], t->source ? t->source : "(inline)");
	}
}

/* The switch trees, roots in name order, and the unattached nodes. */
static void cluster_fabric_text(const gp_cluster *c, const cluster_view *v, gp_sbuf *sb)
{
	const char *last = NULL;
	int i, j;

	if (c->nswitches) {
		printf("\nfabric (switch, technology, line rate per NIC, nodes below)\n");
		for (j = 0; j < v->roots; j++) {
			int best = -1;

			for (i = 0; i < c->nswitches; i++) {
				if (c->switches[i].parent >= 0)
					continue;
				if (last && strcmp(c->switches[i].name, last) <= 0)
					continue;
				if (best < 0 || strcmp(c->switches[i].name, c->switches[best].name) < 0)
					best = i;
			}
			print_tree(c, best, 2, sb);
			last = c->switches[best].name;
		}
	}
	if (c->nattached < c->nnodes) {
		gp_ts_sb_reset(sb);
		node_range(sb, c, c->node_order + c->nattached, c->nnodes - c->nattached);
		printf("  (no switch)%*s%d node%s: %s\n", 26 - 11, "", c->nnodes - c->nattached,
		       c->nnodes - c->nattached == 1 ? "" : "s", sb->buf);
	}
}

/* One cell of the collapsed matrix: the weights between groups gs..ge of
 * a and of b, "-", "w" or "lo-hi". */
static void weight_cell(const gp_cluster *c, const groups *g, int a0, int a1, int b0, int b1,
			char *cell, size_t size)
{
	int lo = 1 << 30, hi = -(1 << 30), ia, ib;

	for (ia = a0; ia < a1; ia++)
		for (ib = b0; ib < b1; ib++) {
			int wgt;

			if (ia == ib && g->count[ia] < 2 && a1 - a0 > 1)
				continue;
			wgt = group_weight(c, g, ia, ib);
			if (wgt < lo)
				lo = wgt;
			if (wgt > hi)
				hi = wgt;
		}
	if (lo > hi)
		snprintf(cell, size, "-");
	else if (lo == hi)
		snprintf(cell, size, "%d", lo);
	else
		snprintf(cell, size, "%d-%d", lo, hi);
}

/* The weight matrix over ng collapsed groups: group k spans g's groups
 * gs[k]..ge[k], keyed by the switch gkey. */
static void weights_text(const gp_cluster *c, const groups *g, const int *gkey, const int *gs,
			 const int *ge, int ng, int collapsed, gp_sbuf *sb)
{
	int a, b, i;

	printf("\ninter-node communication weight (IB: 1 = same switch, k = through k switch\n"
	       "levels; Ethernet/RoCE: 99 + k; -1 = not connected); groups of nodes below\n"
	       "one switch%s\n", collapsed ? " (collapsed: a-b = range of weights)" : "");
	for (a = 0; a < ng; a++) {
		int nn = 0;

		for (i = gs[a]; i < ge[a]; i++)
			nn += g->count[i];
		gp_ts_sb_reset(sb);
		node_range(sb, c, c->node_order + g->first[gs[a]], nn);
		printf("  g%-3d %-16s %4d node%s  %s\n", a + 1,
		       g->sw[gs[a]] >= 0 ? c->switches[gkey[gs[a]]].name : "(no switch)",
		       nn, nn == 1 ? " " : "s", sb->buf);
	}
	printf("\n      ");
	for (b = 0; b < ng; b++) {
		char h[12];

		snprintf(h, sizeof(h), "g%d", b + 1);
		printf(" %7s", h);
	}
	printf("\n");
	for (a = 0; a < ng; a++) {
		printf("  g%-3d", a + 1);
		for (b = 0; b < ng; b++) {
			char cell[24];

			weight_cell(c, g, gs[a], ge[a], gs[b], ge[b], cell, sizeof(cell));
			printf(" %7s", cell);
		}
		printf("\n");
	}
}

/* Weight matrix by group; collapse to ancestors at a shallower level
 * until it fits, showing min-max where a collapsed cell varies. */
static void cluster_weights_text(const gp_cluster *c, const groups *g, gp_sbuf *sb)
{
	int *gkey = gp_xmalloc(((size_t)g->n + 1) * sizeof(int));
	int i, level, nk, ng;

	for (level = c->max_depth;; level--) {
		for (i = 0; i < g->n; i++) {
			int s = g->sw[i];

			if (s >= 0 && c->switches[s].depth > level)
				s = gp_cluster_switch_ancestor(c, s, c->switches[s].depth - level);
			/* equal keys are consecutive in node_order (DFS); the
			 * unattached group is last, with key -1 */
			gkey[i] = s;
		}
		for (i = 0, nk = 0; i < g->n; i++)
			nk += i == 0 || gkey[i] != gkey[i - 1];
		if (nk <= MAX_TEXT_GROUPS || level <= 0) {
			int *gs = gp_xmalloc(((size_t)nk + 1) * sizeof(int));
			int *ge = gp_xmalloc(((size_t)nk + 1) * sizeof(int));

			for (i = 0, ng = 0; i < g->n; i++)
				if (i == 0 || gkey[i] != gkey[i - 1]) {
					gs[ng] = i;
					if (ng)
						ge[ng - 1] = i;
					ng++;
				}
			ge[ng - 1] = g->n;
			weights_text(c, g, gkey, gs, ge, ng, level < c->max_depth, sb);
			free(gs);
			free(ge);
			break;
		}
	}
	free(gkey);
}

static void cluster_text(const gp_cluster *c, const cluster_view *v)
{
	gp_sbuf sb;

	gp_sbuf_init(&sb);
	cluster_head_text(c, v);
	cluster_fabric_text(c, v, &sb);
	cluster_weights_text(c, &v->g, &sb);
	gp_sbuf_release(&sb);
}

static json_t *cluster_head_json(const gp_cluster *c, const cluster_view *v)
{
	json_t *o = json_object(), *by = json_object();
	int m;

	json_object_set_new(o, "name", c->name ? json_string(c->name) : json_null());
	json_object_set_new(o, "path", json_string(c->path));
	json_object_set_new(o, "nodes", json_integer(c->nnodes));
	json_object_set_new(o, "gpus", json_integer(c->ngpus));
	json_object_set_new(o, "nics", json_integer(c->nnics));
	json_object_set_new(o, "switches", json_integer(c->nswitches));
	json_object_set_new(o, "node_types", json_integer(c->ntypes));
	for (m = 0; m <= c->catalog.n; m++)
		if (v->counts[m])
			json_object_set_new(by, m < c->catalog.n ? c->catalog.models[m].name
								 : "unknown",
					    json_integer(v->counts[m]));
	json_object_set_new(o, "gpus_by_model", by);
	return o;
}

static json_t *cluster_types_json(const gp_cluster *c, const cluster_view *v)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < c->ntypes; i++) {
		const gp_node_type *t = &c->types[i];
		json_t *to = json_object();

		json_object_set_new(to, "name", json_string(t->name));
		json_object_set_new(to, "gpu_model", t->gpu_model >= 0 ?
				    json_string(gp_ts_model_name(c, t->gpu_model)) : json_null());
		json_object_set_new(to, "gpus", json_integer(t->topo.ngpus));
		json_object_set_new(to, "nics", json_integer(t->topo.nnics));
		json_object_set_new(to, "cpus", json_integer(t->cpu_count));
		json_object_set_new(to, "memory_gib", t->mem_gib > 0 ? json_real(t->mem_gib) : json_null());
		json_object_set_new(to, "nodes", json_integer(v->tcount[i]));
		json_object_set_new(to, "topology", t->source ? json_string(t->source) : json_null());
		json_array_append_new(a, to);
	}
	return a;
}

static json_t *cluster_fabric_json(const gp_cluster *c)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < c->nswitches; i++) {
		const gp_switch *s = &c->switches[i];
		json_t *so = json_object();

		json_object_set_new(so, "name", json_string(s->name));
		json_object_set_new(so, "parent", s->parent >= 0 ?
				    json_string(c->switches[s->parent].name) : json_null());
		json_object_set_new(so, "tech", json_string(gp_fabric_tech_name(s->tech)));
		/* gbps: the old name of gbit_s (Gb/s) */
		json_object_set_new(so, "gbps", json_real(gp_fabric_tech_gbps(s->tech)));
		json_object_set_new(so, "gbit_s", json_real(gp_fabric_tech_gbps(s->tech)));
		json_object_set_new(so, "depth", json_integer(s->depth));
		json_object_set_new(so, "nodes", json_integer(s->count));
		json_object_set_new(so, "nodes_attached", json_integer(s->nodes_direct));
		/* the hostlist of the nodes attached to it */
		{
			const char **names = gp_xcalloc((size_t)c->nnodes + 1, sizeof(*names));
			size_t n = 0;
			int k;
			gp_sbuf hl;

			for (k = 0; k < c->nnodes; k++)
				if (c->nodes[k].sw == i)
					names[n++] = c->nodes[k].name;
			gp_sbuf_init(&hl);
			gp_hostlist_compress(names, n, &hl);
			json_object_set_new(so, "node_list", json_string(hl.buf ? hl.buf : ""));
			gp_sbuf_release(&hl);
			/* a rail-optimized fabric: the nodes with a rail here */
			gp_sbuf_init(&hl);
			rail_hostlist(c, i, &hl);
			if (hl.len)
				json_object_set_new(so, "rail_node_list", json_string(hl.buf));
			gp_sbuf_release(&hl);
			free(names);
		}
		json_array_append_new(a, so);
	}
	return a;
}

static json_t *cluster_json(const gp_cluster *c, const cluster_view *v)
{
	json_t *root = json_object(), *a;
	const groups *g = &v->g;
	int i, j;

	json_object_set_new(root, "cluster", cluster_head_json(c, v));
	json_object_set_new(root, "node_types", cluster_types_json(c, v));
	json_object_set_new(root, "fabric", cluster_fabric_json(c));
	a = json_array();
	for (i = 0; i < g->n; i++) {
		json_t *go = json_object(), *nl = json_array();

		for (j = 0; j < g->count[i]; j++)
			json_array_append_new(nl, json_string(c->nodes[c->node_order[g->first[i] + j]].name));
		json_object_set_new(go, "switch", g->sw[i] >= 0 ?
				    json_string(c->switches[g->sw[i]].name) : json_null());
		json_object_set_new(go, "nodes", nl);
		json_array_append_new(a, go);
	}
	json_object_set_new(root, "groups", a);
	a = json_array();
	for (i = 0; i < g->n; i++) {
		json_t *row = json_array();

		for (j = 0; j < g->n; j++)
			json_array_append_new(row, json_integer(group_weight(c, g, i, j)));
		json_array_append_new(a, row);
	}
	json_object_set_new(root, "weights", a);
	return root;
}

enum { O_NODE = 1, O_MODELS, O_JSON };

static const gp_opt show_opts[] = {
	GP_OPT_CLUSTER('c'),
	{ .name = "node", .key = O_NODE, .type = GP_OT_STR, .arg = "NAME",
	  .help = "one node: its GPUs, links, NICs and CPUs" },
	{ .name = "models", .key = O_MODELS, .type = GP_OT_FLAG, .help = "the GPU catalog" },
	{ .name = "json", .key = O_JSON, .type = GP_OT_FLAG, .help = "machine-readable output" },
	{ 0 },
};

const gp_cmd_desc gp_desc_topo_show = {
	.name = "topo show", .cmd = "topo",
	.synopsis = "[-c CLUSTER] [--node NAME] [--models] [--json]",
	.min_args = 0, .max_args = 0,
	.about = "Print the cluster (or one --node), --models the GPU catalog.\n",
	.opts = show_opts,
};

int gp_cmd_topo_show(int argc, char **argv)
{
	const char *path = NULL, *node = NULL;
	int json = 0, models = 0, oc, k, st;
	gp_cluster c;
	gp_error err = GP_ERROR_INIT;
	gp_opt_state o;

	gp_opt_begin(&o, &gp_desc_topo_show, argc, argv);
	while ((oc = gp_opt_next(&o)) > 0) {
		switch (oc) {
		case 'c': path = o.arg; break;
		case O_NODE: node = o.arg; break;
		case O_JSON: json = 1; break;
		case O_MODELS: models = 1; break;
		}
	}
	gp_opt_end(&o);
	if (oc < 0)
		return o.status;
	if (!path)
		path = gp_cli_default_cluster();
	if (gp_cluster_load(path, &c, &err))
		return gp_cli_report(&err);
	st = GP_OK;
	if (models) {
		st = show_models(&c, json);
	} else if (node) {
		k = gp_cluster_find_node(&c, node);
		if (k < 0) {
			st = gp_cli_fail(GP_EINPUT, "%s: no node named '%s'", path, node);
		} else {
			if (json)
				st = emit_json(gp_topo_node_json(&c, k));
			else
				gp_topo_node_text(&c, k);
		}
	} else {
		cluster_view v;

		cluster_view_build(&c, &v);
		if (json)
			st = emit_json(cluster_json(&c, &v));
		else
			cluster_text(&c, &v);
		cluster_view_release(&v);
	}
	gp_cluster_release(&c);
	return st;
}
