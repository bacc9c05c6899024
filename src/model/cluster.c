/* The cluster model: node types, switches, nodes, lookups and the seed
 * patent's communication weights.  Built by the loaders of src/io/. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/model/cluster.h"
#include "gpuplan/util/util.h"
#include "fabric_int.h"


/* ---- the model ---- */

void gp_cluster_init(gp_cluster *c)
{
	memset(c, 0, sizeof(*c));
}

static void type_release(gp_node_type *t)
{
	int i;

	if (t->nic_subnets) {
		for (i = 0; i < t->topo.nnics; i++)
			free(t->nic_subnets[i]);
		free(t->nic_subnets);
	}
	gp_topo_derived_free(t->derived);
	gp_topo_release(&t->topo);
	free(t->name);
	free(t->source);
}

void gp_cluster_release(gp_cluster *c)
{
	int i;

	if (!c)
		return;
	for (i = 0; i < c->ntypes; i++)
		type_release(&c->types[i]);
	for (i = 0; i < c->nswitches; i++) {
		free(c->switches[i].name);
		free(c->switches[i].stack);
	}
	for (i = 0; i < c->nnodes; i++)
		gp_cluster_node_release(&c->nodes[i]);
	free(c->types);
	free(c->switches);
	free(c->nodes);
	free(c->node_order);
	free(c->node_hash);
	free(c->sw_hash);
	free(c->type_hash);
	free(c->path);
	free(c->name);
	gp_catalog_release(&c->catalog);
	gp_cluster_init(c);
}

/* Growth: the arrays grow in powers of two; capacity is implied by n. */
static size_t cap_for(int n)
{
	size_t cap = 8;

	while (cap < (size_t)n)
		cap *= 2;
	return cap;
}

#define PUSH(arr, n)                                                     \
	do {                                                             \
		if ((n) == 0 || ((size_t)(n) >= 8 &&                     \
				 ((size_t)(n) & ((size_t)(n) - 1)) == 0)) \
			(arr) = gp_xrealloc((arr), cap_for((n) + 1) *      \
						    sizeof(*(arr)));     \
	} while (0)

/* FNV-1a; the indexes map names to ids (never iterated). */
static size_t hash_str(const char *s)
{
	size_t h = 1469598103934665603u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211u;
	return h;
}

static const char *switch_name(const gp_cluster *c, int i)
{
	return c->switches[i].name;
}

static const char *type_name(const gp_cluster *c, int i)
{
	return c->types[i].name;
}

typedef const char *(*name_fn)(const gp_cluster *, int);

static void index_put(const gp_cluster *c, int *tab, size_t cap, name_fn name, int i)
{
	size_t h = hash_str(name(c, i)) & (cap - 1);

	while (tab[h] >= 0)
		h = (h + 1) & (cap - 1);
	tab[h] = i;
}

/* Add entry n - 1 (of n) to a name index, rebuilding it at half full, so
 * that lookups while loading stay O(1) (100,000 switches). */
static void index_add(const gp_cluster *c, int **tab, size_t *cap, name_fn name, int n)
{
	int i;

	if ((size_t)n * 2 > *cap) {
		free(*tab);
		*cap = cap_for(4 * n);
		*tab = gp_xmalloc(*cap * sizeof(int));
		memset(*tab, 0xff, *cap * sizeof(int));
		for (i = 0; i < n; i++)
			index_put(c, *tab, *cap, name, i);
		return;
	}
	index_put(c, *tab, *cap, name, n - 1);
}

static int index_find(const gp_cluster *c, const int *tab, size_t cap, name_fn name,
		      const char *key)
{
	size_t h;

	if (!tab)
		return -1;
	for (h = hash_str(key) & (cap - 1); tab[h] >= 0; h = (h + 1) & (cap - 1))
		if (!strcmp(name(c, tab[h]), key))
			return tab[h];
	return -1;
}

int gp_cluster_add_type(gp_cluster *c, const char *name, gp_topo *type_topo,
			int gpu_model)
{
	gp_node_type *t;

	PUSH(c->types, c->ntypes);
	t = &c->types[c->ntypes];
	memset(t, 0, sizeof(*t));
	t->name = gp_xstrdup(name);
	t->topo = *type_topo;
	gp_topo_init(type_topo);
	t->gpu_model = gpu_model;
	c->ntypes++;
	index_add(c, &c->type_hash, &c->type_hash_cap, type_name, c->ntypes);
	return c->ntypes - 1;
}

int gp_cluster_add_switch(gp_cluster *c, const char *name, int parent,
			  int tech)
{
	gp_switch *s;

	PUSH(c->switches, c->nswitches);
	s = &c->switches[c->nswitches];
	memset(s, 0, sizeof(*s));
	s->name = gp_xstrdup(name);
	s->parent = parent;
	s->tech = tech;
	s->congestion = -1;
	s->adaptive_routing = -1;
	s->load_balancing = -1;
	s->sharp = -1;
	s->stack_id = -1;
	c->nswitches++;
	index_add(c, &c->sw_hash, &c->sw_hash_cap, switch_name, c->nswitches);
	return c->nswitches - 1;
}

int gp_cluster_add_node(gp_cluster *c, const char *name, int type, int sw)
{
	gp_node *n;

	PUSH(c->nodes, c->nnodes);
	n = &c->nodes[c->nnodes];
	memset(n, 0, sizeof(*n));
	n->name = gp_xstrdup(name);
	n->type = type;
	n->sw = sw;
	return c->nnodes++;
}

/* Insert node i; returns the id of an earlier node of that name, or -1. */
static int hash_insert(gp_cluster *c, int i)
{
	size_t mask = c->node_hash_cap - 1;
	size_t h = hash_str(c->nodes[i].name) & mask;

	while (c->node_hash[h] >= 0) {
		if (!strcmp(c->nodes[c->node_hash[h]].name, c->nodes[i].name))
			return c->node_hash[h];
		h = (h + 1) & mask;
	}
	c->node_hash[h] = i;
	return -1;
}

int gp_cluster_find_node(const gp_cluster *c, const char *name)
{
	size_t mask, h;
	int i;

	if (!c->node_hash) {
		for (i = 0; i < c->nnodes; i++)
			if (!strcmp(c->nodes[i].name, name))
				return i;
		return -1;
	}
	mask = c->node_hash_cap - 1;
	for (h = hash_str(name) & mask; c->node_hash[h] >= 0; h = (h + 1) & mask)
		if (!strcmp(c->nodes[c->node_hash[h]].name, name))
			return c->node_hash[h];
	return -1;
}

int gp_cluster_find_switch(const gp_cluster *c, const char *name)
{
	return index_find(c, c->sw_hash, c->sw_hash_cap, switch_name, name);
}

int gp_cluster_find_type(const gp_cluster *c, const char *name)
{
	return index_find(c, c->type_hash, c->type_hash_cap, type_name, name);
}

const gp_gpu_model *gp_cluster_node_model(const gp_cluster *c, int node)
{
	int m = c->types[c->nodes[node].type].gpu_model;

	return m < 0 ? NULL : &c->catalog.models[m];
}

double gp_cluster_node_nic_gbps(const gp_cluster *c, int node)
{
	return gp_fabric_tech_gbps(c->nodes[node].tech);
}

void gp_cluster_node_release(gp_node *n)
{
	int k;

	for (k = 0; k < n->nlabels; k++) {
		free(n->labels[k].key);
		free(n->labels[k].value);
	}
	free(n->labels);
	free(n->name);
	free(n->rails);
	n->labels = NULL;
	n->name = NULL;
	n->rails = NULL;
	n->nlabels = n->nrails = 0;
}

/* The rail NICs of type t into nic[] (at most GP_TOPO_MAX_GPUS). */
static int type_rail_nics(const gp_cluster *c, int type, int *nic)
{
	const gp_node_type *t = &c->types[type];
	unsigned char seen[GP_TOPO_MAX_DEVICES] = { 0 };
	int g, n = 0;

	if (!t->derived)
		return 0;
	for (g = 0; g < t->topo.ngpus && g < GP_TOPO_MAX_GPUS; g++) {
		int k = t->derived->gpu_nic[g];

		if (k >= 0 && k < GP_TOPO_MAX_DEVICES && !seen[k]) {
			seen[k] = 1;
			nic[n++] = k;
		}
	}
	return n;
}

int gp_cluster_type_rails(const gp_cluster *c, int type)
{
	int nic[GP_TOPO_MAX_GPUS];

	return type_rail_nics(c, type, nic);
}

int gp_cluster_node_rail_nic(const gp_cluster *c, int node, int r)
{
	int nic[GP_TOPO_MAX_GPUS], n = type_rail_nics(c, c->nodes[node].type, nic);

	return r >= 0 && r < n ? nic[r] : -1;
}

double gp_cluster_node_rail_gbps(const gp_cluster *c, int node, int r)
{
	const gp_node *n = &c->nodes[node];

	if (r < 0 || r >= n->nrails || n->rails[r] < 0)
		return 0;
	return gp_fabric_tech_gbps(c->switches[n->rails[r]].tech);
}

void gp_cluster_gpus_by_model(const gp_cluster *c, int *counts)
{
	int i, m;

	memset(counts, 0, ((size_t)c->catalog.n + 1) * sizeof(int));
	for (i = 0; i < c->nnodes; i++) {
		m = c->types[c->nodes[i].type].gpu_model;
		counts[m < 0 ? c->catalog.n : m] += c->nodes[i].ngpus;
	}
}

const char *gp_cluster_node_label(const gp_cluster *c, int node,
				  const char *key)
{
	const gp_node *n = &c->nodes[node];
	int i;

	for (i = 0; i < n->nlabels; i++)
		if (!strcmp(n->labels[i].key, key))
			return n->labels[i].value;
	return NULL;
}

int gp_cluster_finish(gp_cluster *c, gp_error *err)
{
	const char *path = c->path ? c->path : "<cluster>";
	int i, k, dup;

	if (c->nnodes > GP_CLUSTER_MAX_NODES)
		return gp_error_set(err, GP_EINPUT, path, 0, 0,
				    "%d nodes: more than the limit of %d", c->nnodes,
				    GP_CLUSTER_MAX_NODES);
	for (i = 0; i < c->ntypes; i++) {
		gp_node_type *t = &c->types[i];
		int maxcpu = -1;

		if (t->gpu_model >= c->catalog.n)
			return gp_error_set(err, GP_EINPUT, path, t->line, t->col,
					    "node type '%s': bad GPU model index", t->name);
		/* Every consumer reads the link matrix; a type without one is
		 * a programming error in whoever built it, not a user's. */
		if (!t->topo.links)
			return gp_error_set(err, GP_EIO, path, t->line, t->col,
					    "node type '%s' has no link matrix", t->name);
		for (k = 0; k < t->topo.ngpus; k++)
			if (t->topo.gpus[k].ncpus > 0 &&
			    t->topo.gpus[k].cpus[t->topo.gpus[k].ncpus - 1] > maxcpu)
				maxcpu = t->topo.gpus[k].cpus[t->topo.gpus[k].ncpus - 1];
		if (!t->derived) {
			t->derived = gp_topo_derived_new(&t->topo, err);
			if (!t->derived) {
				char msg[sizeof(err->msg)];

				snprintf(msg, sizeof(msg), "%s", err->msg);
				return gp_error_set(err, GP_EINPUT, path, t->line,
						    t->col, "node type '%s': %s",
						    t->name, msg);
			}
		}
		if (t->cpu_count == 0)
			t->cpu_count = maxcpu + 1;
		else if (maxcpu >= t->cpu_count)
			return gp_error_set(err, GP_EINPUT, path, t->line, t->col,
					    "node type '%s': 'cpus: %d' but its GPUs have affinity to CPU %d",
					    t->name, t->cpu_count, maxcpu);
	}
	for (i = 0; i < c->nswitches; i++) {
		gp_switch *s = &c->switches[i];

		if (s->parent < -1 || s->parent >= c->nswitches)
			return gp_error_set(err, GP_EINPUT, path, s->line, s->col,
					    "switch '%s': bad parent index", s->name);
		if (s->tech < 0 || s->tech >= GP_TECH_COUNT)
			return gp_error_set(err, GP_EINPUT, path, s->line, s->col,
					    "switch '%s': bad technology", s->name);
	}
	c->ngpus = c->nnics = 0;
	for (i = 0; i < c->nnodes; i++) {
		gp_node *n = &c->nodes[i];

		if (n->type < 0 || n->type >= c->ntypes || n->sw < -1 ||
		    n->sw >= c->nswitches)
			return gp_error_set(err, GP_EINPUT, path, n->line, n->col,
					    "node '%s': bad type or switch index", n->name);
		n->first_gpu = c->ngpus;
		n->ngpus = c->types[n->type].topo.ngpus;
		c->ngpus += n->ngpus;
		c->nnics += c->types[n->type].topo.nnics;
	}
	free(c->node_hash);
	c->node_hash_cap = cap_for(2 * c->nnodes + 1);
	c->node_hash = gp_xmalloc(c->node_hash_cap * sizeof(int));
	memset(c->node_hash, 0xff, c->node_hash_cap * sizeof(int));
	for (i = 0; i < c->nnodes; i++) {
		dup = hash_insert(c, i);
		if (dup >= 0)
			return gp_error_set(err, GP_EINPUT, path, c->nodes[i].line,
					    c->nodes[i].col,
					    "duplicate node name '%s' (first at line %d)",
					    c->nodes[i].name, c->nodes[dup].line);
	}
	return gp_fabric_derive(c, err);
}
