/* The fabric from YAML (and JSON) files (fabric_int.h): Slurm's
 * topology.yaml, Kueue's Topology object and Kubernetes node labels. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric_int.h"
#include "gpuplan/io/yaml.h"
#include "gpuplan/util/hostlist.h"
#include "gpuplan/util/util.h"

#define YAML_DEPTH 64

static int is_true(const gp_yaml_node *n)
{
	return n && n->type == GP_YAML_SCALAR && n->scalar &&
	       (!strcmp(n->scalar, "true") || !strcmp(n->scalar, "True") || !strcmp(n->scalar, "TRUE"));
}

/* A hostlist value (nodes: / children:) expanded, each name handed to fn. */
static int each_name(gp_fabric *f, const gp_yaml_doc *doc, const gp_yaml_node *v, const char *what,
		     int s, int children, gp_error *err)
{
	const char *text;
	gp_hostlist hl;
	size_t i;
	int rc;

	if (gp_yaml_str(doc, v, what, &text, err))
		return GP_EINPUT;
	gp_hostlist_init(&hl);
	rc = gp_hostlist_expand(text, strlen(text), &hl, doc->path, (int)v->line, (int)v->col, err);
	for (i = 0; !rc && i < hl.n; i++) {
		if (children) {
			int c = gp_fabric_sw(f, hl.names[i], (int)v->line);

			if (c < 0)
				rc = gp_yaml_error(doc, v, err, "more than %d switches", GP_FABRIC_MAX_SWITCHES);
			else
				gp_fabric_link(f, doc->path, (int)v->line, c, s);
		} else if (gp_fabric_attach(f, doc->path, (int)v->line, hl.names[i], s)) {
			rc = gp_yaml_error(doc, v, err, "more than %d nodes", GP_FABRIC_MAX_NODES);
		}
	}
	gp_hostlist_release(&hl);
	return rc;
}

static int slurm_tree(gp_fabric *f, const gp_yaml_doc *doc, const gp_yaml_node *tree, gp_error *err)
{
	static const char *const keys[] = { "switches", NULL };
	static const char *const sw_keys[] = { "switch", "children", "nodes", NULL };
	const gp_yaml_node *sws = gp_yaml_get(tree, "switches");
	size_t i;

	if (gp_yaml_expect(doc, tree, GP_YAML_MAP, "'tree'", err) ||
	    gp_yaml_check_keys(doc, tree, "'tree'", keys, err))
		return GP_EINPUT;
	if (!sws)
		return gp_yaml_error(doc, tree, err, "'tree' needs 'switches' (a list)");
	if (gp_yaml_expect(doc, sws, GP_YAML_SEQ, "'switches'", err))
		return GP_EINPUT;
	for (i = 0; i < sws->n; i++) {
		const gp_yaml_node *it = sws->items[i], *nm, *ch, *nodes;
		const char *name;
		int s;

		if (gp_yaml_expect(doc, it, GP_YAML_MAP, "a switch", err) ||
		    gp_yaml_check_keys(doc, it, "a switch", sw_keys, err))
			return GP_EINPUT;
		nm = gp_yaml_get(it, "switch");
		if (!nm)
			return gp_yaml_error(doc, it, err, "a switch needs 'switch' (its name)");
		if (gp_yaml_str(doc, nm, "'switch'", &name, err))
			return GP_EINPUT;
		if (!*name)
			return gp_yaml_error(doc, nm, err, "empty switch name");
		s = gp_fabric_sw(f, name, (int)nm->line);
		if (s < 0)
			return gp_yaml_error(doc, nm, err, "more than %d switches", GP_FABRIC_MAX_SWITCHES);
		ch = gp_yaml_get(it, "children");
		nodes = gp_yaml_get(it, "nodes");
		if (ch && nodes) {
			gp_fabric_warn(f, "%s:%u: switch '%s' has both nodes and children: its children are "
				       "ignored, as Slurm does", doc->path, it->line, name);
			ch = NULL;
		}
		if (nodes && each_name(f, doc, nodes, "'nodes'", s, 0, err))
			return GP_EINPUT;
		if (ch && each_name(f, doc, ch, "'children'", s, 1, err))
			return GP_EINPUT;
	}
	return GP_OK;
}

static int slurm_block(gp_fabric *f, const gp_yaml_doc *doc, const gp_yaml_node *block,
		       gp_error *err)
{
	static const char *const keys[] = { "block_sizes", "blocks", NULL };
	static const char *const b_keys[] = { "block", "nodes", NULL };
	const gp_yaml_node *bl = gp_yaml_get(block, "blocks");
	size_t i;
	int root = -1;

	if (gp_yaml_expect(doc, block, GP_YAML_MAP, "'block'", err) ||
	    gp_yaml_check_keys(doc, block, "'block'", keys, err))
		return GP_EINPUT;
	if (!bl)
		return gp_yaml_error(doc, block, err, "'block' needs 'blocks' (a list)");
	if (gp_yaml_expect(doc, bl, GP_YAML_SEQ, "'blocks'", err))
		return GP_EINPUT;
	for (i = 0; i < bl->n; i++) {
		const gp_yaml_node *it = bl->items[i], *nm, *nodes;
		const char *name;
		int s;

		if (gp_yaml_expect(doc, it, GP_YAML_MAP, "a block", err) ||
		    gp_yaml_check_keys(doc, it, "a block", b_keys, err))
			return GP_EINPUT;
		nm = gp_yaml_get(it, "block");
		if (!nm)
			return gp_yaml_error(doc, it, err, "a block needs 'block' (its name)");
		if (gp_yaml_str(doc, nm, "'block'", &name, err))
			return GP_EINPUT;
		if (!*name)
			return gp_yaml_error(doc, nm, err, "empty block name");
		/* as for topology.conf's blocks: one root above them all */
		if (root < 0 && (root = gp_fabric_sw(f, "block-root", (int)nm->line)) < 0)
			return gp_yaml_error(doc, nm, err, "more than %d switches", GP_FABRIC_MAX_SWITCHES);
		s = gp_fabric_sw(f, name, (int)nm->line);
		if (s < 0)
			return gp_yaml_error(doc, nm, err, "more than %d switches", GP_FABRIC_MAX_SWITCHES);
		gp_fabric_link(f, doc->path, (int)nm->line, s, root);
		nodes = gp_yaml_get(it, "nodes");
		if (nodes && each_name(f, doc, nodes, "'nodes'", s, 0, err))
			return GP_EINPUT;
	}
	return GP_OK;
}

/* Slurm's topology.yaml: a list of topologies; the first with
 * cluster_default: true, else the first tree or block one, is read. */
static int slurm_topology_yaml(gp_fabric *f, const gp_yaml_doc *doc, gp_error *err)
{
	static const char *const keys[] = { "topology", "cluster_default", "tree", "block", "flat", NULL };
	const gp_yaml_node *root = doc->root, *pick = NULL, *first = NULL;
	const char *name = NULL;
	size_t i, ntopo = 0;
	int rc;

	if (gp_yaml_expect(doc, root, GP_YAML_SEQ, "topology.yaml (a list of topologies)", err))
		return GP_EINPUT;
	for (i = 0; i < root->n; i++) {
		const gp_yaml_node *t = root->items[i], *nm;
		int kinds;

		if (gp_yaml_expect(doc, t, GP_YAML_MAP, "a topology", err) ||
		    gp_yaml_check_keys(doc, t, "a topology", keys, err))
			return GP_EINPUT;
		nm = gp_yaml_get(t, "topology");
		if (!nm)
			return gp_yaml_error(doc, t, err, "a topology needs 'topology' (its name)");
		if (gp_yaml_str(doc, nm, "'topology'", &name, err))
			return GP_EINPUT;
		kinds = !!gp_yaml_get(t, "tree") + !!gp_yaml_get(t, "block") + !!gp_yaml_get(t, "flat");
		if (kinds != 1)
			return gp_yaml_error(doc, t, err,
					     "topology '%s' needs exactly one of 'tree', 'block' and 'flat'", name);
		ntopo++;
		if (!pick && is_true(gp_yaml_get(t, "cluster_default")))
			pick = t;
		if (!first && !gp_yaml_get(t, "flat"))
			first = t;
	}
	if (!pick)
		pick = first;
	if (!pick || gp_yaml_get(pick, "flat")) {
		if (pick)
			gp_yaml_str(doc, gp_yaml_get(pick, "topology"), "'topology'", &name, err);
		gp_fabric_warn(f, "%s: %s: no switches (a flat topology: nodes share no switch)", doc->path,
			       pick ? name : "no topology");
		if (!f->form)
			f->form = gp_xstrdup("topology.yaml (flat)");
		return GP_OK;
	}
	gp_yaml_str(doc, gp_yaml_get(pick, "topology"), "'topology'", &name, err);
	if (ntopo > 1)
		gp_fabric_warn(f, "%s:%u: %zu topologies: '%s' is read (%s), the others are not", doc->path,
			       pick->line, ntopo, name,
			       is_true(gp_yaml_get(pick, "cluster_default")) ? "cluster_default"
									    : "the first tree or block");
	if (gp_yaml_get(pick, "tree"))
		rc = slurm_tree(f, doc, gp_yaml_get(pick, "tree"), err);
	else
		rc = slurm_block(f, doc, gp_yaml_get(pick, "block"), err);
	if (!rc && !f->form)
		f->form = gp_xstrdup(gp_yaml_get(pick, "tree") ? "topology.yaml (tree)" : "topology.yaml (block)");
	return rc;
}

/* ---- Kubernetes ---- */

/* Known label families, coarsest level first (a physical host's label is
 * the node's own machine, not a switch: not a level). */
static const char *const gke_keys[] = { "cloud.google.com/gce-topology-block",
					"cloud.google.com/gce-topology-subblock", NULL };
static const char *const aws_keys[] = { "topology.k8s.aws/network-node-layer-1",
					"topology.k8s.aws/network-node-layer-2",
					"topology.k8s.aws/network-node-layer-3",
					"topology.k8s.aws/network-node-layer-4", NULL };
static const char *const oci_keys[] = { "oci.oraclecloud.com/rdma.hpc_island_id",
					"oci.oraclecloud.com/rdma.network_block_id",
					"oci.oraclecloud.com/rdma.local_block_id", NULL };
static const char *const *const families[] = { gke_keys, aws_keys, oci_keys };

/* A Kueue Topology: its levels' node labels, coarsest first; the node
 * name level (kubernetes.io/hostname) is not a switch. */
static int kueue_topology(gp_fabric *f, const gp_yaml_doc *doc, gp_error *err)
{
	const gp_yaml_node *spec = gp_yaml_get(doc->root, "spec"), *lv = gp_yaml_get(spec, "levels");
	size_t i;

	if (!lv)
		return gp_yaml_error(doc, doc->root, err, "a Topology needs 'spec.levels' (a list)");
	if (gp_yaml_expect(doc, lv, GP_YAML_SEQ, "'levels'", err))
		return GP_EINPUT;
	for (i = 0; i < f->nlevels; i++)
		free(f->levels[i]);
	f->nlevels = 0;
	for (i = 0; i < lv->n; i++) {
		const gp_yaml_node *nl = gp_yaml_get(lv->items[i], "nodeLabel");
		const char *key;

		if (!nl)
			return gp_yaml_error(doc, lv->items[i], err, "a level needs 'nodeLabel'");
		if (gp_yaml_str(doc, nl, "'nodeLabel'", &key, err))
			return GP_EINPUT;
		if (!strcmp(key, "kubernetes.io/hostname"))
			continue;
		if (f->nlevels >= 16)
			return gp_yaml_error(doc, nl, err, "more than 16 levels");
		f->levels = gp_xrealloc(f->levels, (f->nlevels + 1) * sizeof(*f->levels));
		f->levels[f->nlevels++] = gp_xstrdup(key);
	}
	if (!f->form)
		f->form = gp_xstrdup("Kueue Topology");
	return GP_OK;
}

static const char *label(const gp_yaml_node *labels, const char *key)
{
	const gp_yaml_node *v = gp_yaml_get(labels, key);

	return v && v->type == GP_YAML_SCALAR && v->scalar && *v->scalar ? v->scalar : NULL;
}

/* One node's chain of switches from its labels (keys, coarsest first;
 * used[k]: some node of the file has key k).  The top level's switches
 * hang off one root: a cloud's network joins its top-level domains (a job
 * may span them, farther apart), unlike Slurm's separate trees. */
static int node_labels(gp_fabric *f, const gp_yaml_doc *doc, const gp_yaml_node *item,
		       const char *const *keys, size_t nkeys, const int *used, int *found,
		       gp_error *err)
{
	const gp_yaml_node *meta = gp_yaml_get(item, "metadata"), *labels = gp_yaml_get(meta, "labels");
	const gp_yaml_node *nm = gp_yaml_get(meta, "name");
	int parent = -1, line = (int)item->line;
	size_t k;
	const char *name, *first_missing = NULL;

	if (!nm || nm->type != GP_YAML_SCALAR || !labels)
		return GP_OK;
	name = nm->scalar;
	for (k = 0; k < nkeys; k++) {
		const char *v = label(labels, keys[k]);
		int s;

		if (!v) {
			if (!first_missing && used[k])
				first_missing = keys[k];
			continue;
		}
		s = gp_fabric_sw(f, v, line);
		if (s < 0)
			return gp_yaml_error(doc, item, err, "more than %d switches", GP_FABRIC_MAX_SWITCHES);
		if (parent < 0) {
			int root = gp_fabric_sw(f, "label-root", line);

			if (root < 0)
				return gp_yaml_error(doc, item, err, "more than %d switches",
						     GP_FABRIC_MAX_SWITCHES);
			parent = root;
		}
		gp_fabric_link(f, doc->path, line, s, parent);
		parent = s;
	}
	if (parent < 0)
		return GP_OK;
	if (first_missing)
		gp_fabric_warn(f, "%s:%d: node '%s' has no label '%s' (other nodes do): it hangs off the "
			       "levels it has", doc->path, line, name, first_missing);
	if (gp_fabric_attach(f, doc->path, line, name, parent))
		return gp_yaml_error(doc, item, err, "more than %d nodes", GP_FABRIC_MAX_NODES);
	(*found)++;
	return GP_OK;
}

/* The label keys of a node list: the Kueue Topology's when one was read,
 * else the first known family any node carries. */
static const char *const *pick_keys(const gp_fabric *f, const gp_yaml_node *items, size_t *n)
{
	size_t i, fam, k;

	if (f->nlevels) {
		*n = f->nlevels;
		return (const char *const *)f->levels;
	}
	for (fam = 0; fam < GP_ARRAY_SIZE(families); fam++)
		for (i = 0; i < items->n; i++) {
			const gp_yaml_node *labels =
				gp_yaml_get(gp_yaml_get(items->items[i], "metadata"), "labels");

			for (k = 0; families[fam][k]; k++)
				if (label(labels, families[fam][k])) {
					for (*n = 0; families[fam][*n]; (*n)++)
						;
					return families[fam];
				}
		}
	*n = 0;
	return NULL;
}

/* The switches a node list's labels name; *found: the nodes placed. */
static int labels_of(gp_fabric *f, const char *file, const char *text, size_t len, int *found,
		     gp_error *err)
{
	gp_yaml_doc doc;
	const gp_yaml_node *items;
	const char *const *keys;
	size_t i, k, nkeys;
	int rc = GP_OK, *used;

	*found = 0;
	gp_yaml_doc_init(&doc);
	if ((rc = gp_yaml_parse(text, len, file, YAML_DEPTH, &doc, err)))
		goto out;
	items = gp_yaml_get(doc.root, "items");
	if (!items || items->type != GP_YAML_SEQ)
		goto out;
	keys = pick_keys(f, items, &nkeys);
	if (!keys)
		goto out;
	used = gp_xcalloc(nkeys ? nkeys : 1, sizeof(*used));
	for (i = 0; i < items->n; i++)
		for (k = 0; k < nkeys; k++)
			used[k] |= label(gp_yaml_get(gp_yaml_get(items->items[i], "metadata"), "labels"),
					 keys[k]) != NULL;
	for (i = 0; i < items->n && !rc; i++)
		rc = node_labels(f, &doc, items->items[i], keys, nkeys, used, found, err);
	free(used);
	if (!rc && *found && !f->form)
		f->form = gp_xstrdup("Kubernetes node labels");
out:
	gp_yaml_doc_release(&doc);
	return rc;
}

int gp_fabric_read_labels(gp_fabric *f, const char *file, const char *text, size_t len, int *found,
			  gp_error *err)
{
	int rc = labels_of(f, file, text, len, found, err);

	if (!rc && *found)
		gp_fabric_resolve(f, file);
	return rc;
}

/* One YAML document of a fabric file. */
static int read_doc(gp_fabric *f, const char *file, const char *text, size_t len, gp_error *err)
{
	gp_yaml_doc doc;
	const gp_yaml_node *kind;
	int rc, found;

	gp_yaml_doc_init(&doc);
	if ((rc = gp_yaml_parse(text, len, file, YAML_DEPTH, &doc, err)) || !doc.root)
		goto out;
	kind = gp_yaml_get(doc.root, "kind");
	if (doc.root->type == GP_YAML_SEQ) {
		rc = slurm_topology_yaml(f, &doc, err);
	} else if (kind && kind->type == GP_YAML_SCALAR && !strcmp(kind->scalar, "Topology")) {
		rc = kueue_topology(f, &doc, err);
	} else if (kind && kind->type == GP_YAML_SCALAR &&
		   (!strcmp(kind->scalar, "List") || !strcmp(kind->scalar, "NodeList"))) {
		gp_yaml_doc_release(&doc);
		rc = labels_of(f, file, text, len, &found, err);
		if (!rc && !found)
			rc = gp_error_set(err, GP_EINPUT, file, 1, 1,
					  "no fabric in this file: no node carries a topology label (GKE "
					  "gce-topology-block/subblock, AWS network-node-layer-N, OCI "
					  "rdma.*_id, or the levels of a Kueue Topology read before it)");
		return rc;
	}
	/* other kinds (a ResourceFlavor beside the Topology): nothing */
out:
	gp_yaml_doc_release(&doc);
	return rc;
}

/* Whether the line at p is a document marker ("---" or "..."). */
static int doc_marker(const char *p, const char *end)
{
	if (end - p < 3 || !(!strncmp(p, "---", 3) || !strncmp(p, "...", 3)))
		return 0;
	for (p += 3; p < end && *p != '\n'; p++)
		if (*p != ' ' && *p != '\t' && *p != '\r')
			return 0;
	return 1;
}

/* Each document on its own, the others blanked (so that lines keep their
 * numbers): Kueue's files put a ResourceFlavor after the Topology. */
int gp_fabric_read_yaml(gp_fabric *f, const char *file, const char *text, size_t len, gp_error *err)
{
	const char *p = text, *end = text + len, *dstart = text;
	char *copy = gp_xmalloc(len + 1);
	size_t before = f->nsw + f->nlevels + f->nnode;
	int rc = GP_OK, docs = 0;

	for (;;) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *next = eol ? eol + 1 : end;
		int marker = p < end && doc_marker(p, end);

		if (marker || p >= end) {
			const char *q;
			size_t i;

			for (q = dstart; q < p && (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n'); q++)
				;
			if (q < p) {
				for (i = 0; i < len; i++)
					copy[i] = text + i >= dstart && text + i < p ? text[i]
						  : text[i] == '\n' ? '\n' : ' ';
				copy[len] = '\0';
				docs++;
				if ((rc = read_doc(f, file, copy, len, err)))
					break;
			}
			dstart = next;
		}
		if (p >= end)
			break;
		p = next;
	}
	free(copy);
	if (!rc && f->nsw + f->nlevels + f->nnode == before && !f->form)
		rc = gp_error_set(err, GP_EINPUT, file, 1, 1,
				  docs ? "no fabric in this file" : "empty file: expected a fabric");
	return rc;
}
