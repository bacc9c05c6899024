/* Allocation-state files (state.h). */
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/state.h"
#include "gpuplan/util/util.h"
#include "gpuplan/io/yaml.h"

static const char *const top_keys[] = { "allocations", "down", "draining", "down_gpus", NULL };
static const char *const down_gpu_keys[] = { "node", "gpus", NULL };
static const char *const entry_keys[] = {
	"job", "node", "gpus", "share", "gpu_memory_gib", "cpus", "memory_gib", "nic", NULL
};

void gp_state_init(gp_state *s)
{
	memset(s, 0, sizeof(*s));
}

void gp_state_release(gp_state *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++) {
		free(s->entries[i].job);
		free(s->entries[i].cpus);
	}
	free(s->entries);
	free(s->down);
	free(s->draining);
	free(s->down_gpus);
	memset(s, 0, sizeof(*s));
}

static gp_state_entry *push_entry(gp_state *s)
{
	gp_state_entry *e;

	GP_GROW(s->entries, s->cap, s->n + 1);
	e = &s->entries[s->n++];
	memset(e, 0, sizeof(*e));
	e->milli = GP_MILLI;
	e->nic = -1;
	return e;
}

int gp_state_has_job(const gp_state *s, const char *job)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->entries[i].job, job))
			return 1;
	return 0;
}

int gp_state_entry_matches(const gp_state *s, size_t i, const char *pattern)
{
	return !strcmp(s->entries[i].job, pattern) || !fnmatch(pattern, s->entries[i].job, 0);
}

size_t gp_state_remove_jobs(gp_state *s, const char *pattern)
{
	size_t i, k = 0, gone = 0;

	for (i = 0; i < s->n; i++) {
		if (gp_state_entry_matches(s, i, pattern)) {
			free(s->entries[i].job);
			free(s->entries[i].cpus);
			gone++;
			continue;
		}
		s->entries[k++] = s->entries[i];
	}
	s->n = k;
	return gone;
}

/* A NIC of the node by device name ("mlx5_0") or id ("NIC0"); -1. */
static int find_nic(const gp_cluster *c, int node, const char *name)
{
	const gp_topo *t = &c->types[c->nodes[node].type].topo;
	int i;

	for (i = 0; i < t->nnics; i++)
		if (!strcmp(t->nics[i].device, name) || !strcmp(t->nics[i].id, name))
			return i;
	return -1;
}

static const char *nic_name(const gp_cluster *c, int node, int nic)
{
	const gp_topo *t = &c->types[c->nodes[node].type].topo;

	return t->nics[nic].device[0] ? t->nics[nic].device : t->nics[nic].id;
}

static int node_cpu_count(const gp_alloc *a, int node)
{
	return (int)(a->node_cap_cpu_milli[node] / GP_MILLI);
}

static int load_node_list(const gp_yaml_doc *doc, const gp_yaml_node *seq, const char *what,
			  const gp_cluster *c, int **out, size_t *n, size_t *cap, gp_error *err)
{
	size_t i;
	const char *s;

	if (seq->type != GP_YAML_SEQ)
		return gp_yaml_error(doc, seq, err, "%s must be a list of node names", what);
	for (i = 0; i < seq->n; i++) {
		int node;

		if (gp_yaml_str(doc, seq->items[i], what, &s, err))
			return GP_EINPUT;
		node = gp_cluster_find_node(c, s);
		if (node < 0)
			return gp_yaml_error(doc, seq->items[i], err, "unknown node '%.100s' in %s", s,
					     what);
		GP_GROW(*out, *cap, *n + 1);
		(*out)[(*n)++] = node;
	}
	return GP_OK;
}

void gp_state_add_down_gpu(gp_state *s, int node, int gpu)
{
	size_t i;

	for (i = 0; i < s->ndown_gpus; i++)
		if (s->down_gpus[i].node == node && s->down_gpus[i].gpu == gpu)
			return;
	GP_GROW(s->down_gpus, s->capdown_gpus, s->ndown_gpus + 1);
	s->down_gpus[s->ndown_gpus].node = node;
	s->down_gpus[s->ndown_gpus++].gpu = gpu;
}

/* down_gpus: [{node: N, gpus: [..]}, ...] */
static int load_down_gpus(const gp_yaml_doc *doc, const gp_yaml_node *seq, const gp_cluster *c,
			  gp_state *s, gp_error *err)
{
	size_t i, k;

	if (seq->type != GP_YAML_SEQ)
		return gp_yaml_error(doc, seq, err, "down_gpus must be a list of {node, gpus}");
	for (i = 0; i < seq->n; i++) {
		const gp_yaml_node *m = seq->items[i], *v, *g;
		const char *name;
		int node;
		long l;

		if (m->type != GP_YAML_MAP)
			return gp_yaml_error(doc, m, err, "a down_gpus entry must be {node, gpus}");
		if (gp_yaml_check_keys(doc, m, "down_gpus entry", down_gpu_keys, err))
			return GP_EINPUT;
		if (!(v = gp_yaml_get(m, "node")))
			return gp_yaml_error(doc, m, err, "down_gpus entry has no 'node'");
		if (gp_yaml_str(doc, v, "node", &name, err))
			return GP_EINPUT;
		if ((node = gp_cluster_find_node(c, name)) < 0)
			return gp_yaml_error(doc, v, err, "unknown node '%.100s' in down_gpus", name);
		if (!(g = gp_yaml_get(m, "gpus")) || g->type != GP_YAML_SEQ || g->n == 0)
			return gp_yaml_error(doc, g ? g : m, err,
					     "down_gpus entry needs gpus: a non-empty list of GPU indices");
		for (k = 0; k < g->n; k++) {
			if (gp_yaml_long(doc, g->items[k], "GPU index", 0, 1 << 20, &l, err))
				return GP_EINPUT;
			if (l >= c->nodes[node].ngpus)
				return gp_yaml_error(doc, g->items[k], err,
						     "GPU %ld out of range: node '%s' has GPUs 0-%d", l,
						     c->nodes[node].name, c->nodes[node].ngpus - 1);
			gp_state_add_down_gpu(s, node, (int)l);
		}
	}
	return GP_OK;
}

/* A failed GPU takes what the allocations left of it: nothing more fits. */
static void apply_down_gpus(const gp_cluster *c, gp_alloc *a, const gp_state *s)
{
	size_t i;

	for (i = 0; i < s->ndown_gpus; i++) {
		int gid = c->nodes[s->down_gpus[i].node].first_gpu + s->down_gpus[i].gpu;

		if (a->gpu_free_milli[gid] > 0 || a->gpu_free_mem_mib[gid] > 0)
			gp_alloc_take_gpu(a, gid, a->gpu_free_milli[gid], a->gpu_free_mem_mib[gid]);
	}
}

/* Check and apply one entry.  owner[g] = entry index that last took GPU g
 * (for "already allocated to job X" messages). */
/* The GPUs of entry e on node: each in range, listed once, with e's share
 * and memory still free. */
static int entry_gpus(const gp_yaml_doc *doc, const gp_yaml_node *m, const gp_node *node,
		      const gp_alloc *a, const gp_state *s, const int32_t *owner,
		      gp_state_entry *e, gp_error *err)
{
	const gp_yaml_node *gpus;
	size_t i, k;
	long l;

	if (!(gpus = gp_yaml_get(m, "gpus")))
		return gp_yaml_error(doc, m, err, "allocation has no 'gpus'");
	if (gpus->type != GP_YAML_SEQ || gpus->n == 0)
		return gp_yaml_error(doc, gpus, err, "gpus must be a non-empty list of GPU indices");
	if (gpus->n > (size_t)node->ngpus)
		return gp_yaml_error(doc, gpus, err, "node '%s' has only %d GPU(s)", node->name,
				     node->ngpus);
	for (i = 0; i < gpus->n; i++) {
		int g, gid;

		if (gp_yaml_long(doc, gpus->items[i], "GPU index", 0, 1 << 20, &l, err))
			return GP_EINPUT;
		g = (int)l;
		if (g >= node->ngpus)
			return gp_yaml_error(doc, gpus->items[i], err,
					     "GPU %d out of range: node '%s' has GPUs 0-%d", g,
					     node->name, node->ngpus - 1);
		for (k = 0; k < i; k++)
			if (e->gpus[k] == g)
				return gp_yaml_error(doc, gpus->items[i], err,
						     "GPU %d listed twice", g);
		gid = node->first_gpu + g;
		if (a->gpu_free_milli[gid] < e->milli) {
			const char *other = owner[gid] >= 0 ? s->entries[owner[gid]].job : "?";

			if (a->gpu_free_milli[gid] == 0)
				return gp_yaml_error(doc, gpus->items[i], err,
						     "GPU %d of node '%s' is already fully allocated (job '%s')",
						     g, node->name, other);
			return gp_yaml_error(doc, gpus->items[i], err,
					     "GPU %d of node '%s': share %d exceeds the %d milli-GPU left (job '%s' holds the rest)",
					     g, node->name, e->milli, a->gpu_free_milli[gid], other);
		}
		if (a->gpu_free_mem_mib[gid] < e->gpu_mem_mib)
			return gp_yaml_error(doc, gpus->items[i], err,
					     "GPU %d of node '%s': %lld MiB of memory requested, %lld left",
					     g, node->name, (long long)e->gpu_mem_mib,
					     (long long)a->gpu_free_mem_mib[gid]);
		e->gpus[e->ngpus++] = g;
	}
	return GP_OK;
}

/* cpus (v): a core count or a list of free CPU numbers of the node. */
static int entry_cpus(const gp_yaml_doc *doc, const gp_yaml_node *v, const gp_node *node,
		      gp_alloc *a, gp_state_entry *e, gp_error *err)
{
	int ncpu = node_cpu_count(a, e->node);
	size_t i, k;
	double x;
	long l;

	if (v->type == GP_YAML_SCALAR) {
		if (gp_yaml_double(doc, v, "cpus", 0.001, 65536, &x, err))
			return GP_EINPUT;
		e->cpu_milli = llround(x * 1000.0);
	} else if (v->type == GP_YAML_SEQ) {
		e->cpus = gp_xcalloc(v->n ? v->n : 1, sizeof(*e->cpus));
		for (i = 0; i < v->n; i++) {
			if (gp_yaml_long(doc, v->items[i], "CPU number", 0, GP_TOPO_MAX_CPUS - 1,
					 &l, err))
				return GP_EINPUT;
			if (l >= ncpu)
				return gp_yaml_error(doc, v->items[i], err,
						     "CPU %ld out of range: node '%s' has CPUs 0-%d",
						     l, node->name, ncpu - 1);
			if (gp_alloc_cpu_used(a, e->node, (int)l))
				return gp_yaml_error(doc, v->items[i], err,
						     "CPU %ld of node '%s' is already allocated",
						     l, node->name);
			for (k = 0; k < (size_t)e->ncpus; k++)
				if (e->cpus[k] == l)
					return gp_yaml_error(doc, v->items[i], err,
							     "CPU %ld listed twice", l);
			e->cpus[e->ncpus++] = (int)l;
		}
		e->cpu_milli = (int64_t)e->ncpus * GP_MILLI;
	} else {
		return gp_yaml_error(doc, v, err,
				     "cpus must be a list of CPU numbers or a core count");
	}
	if (e->cpu_milli > a->node_free_cpu_milli[e->node])
		return gp_yaml_error(doc, v, err,
				     "node '%s' has %.3g CPU cores left, not %.3g", node->name,
				     a->node_free_cpu_milli[e->node] / 1000.0,
				     e->cpu_milli / 1000.0);
	return GP_OK;
}

/* Entry e, checked, booked in a (owner: the entry holding each GPU). */
static void entry_apply(const gp_node *node, gp_alloc *a, const gp_state *s, int32_t *owner,
			const gp_state_entry *e)
{
	size_t i;

	for (i = 0; i < (size_t)e->ngpus; i++) {
		int gid = node->first_gpu + e->gpus[i];

		gp_alloc_take_gpu(a, gid, e->milli, e->gpu_mem_mib);
		owner[gid] = (int32_t)(s->n - 1);
	}
	for (i = 0; i < (size_t)e->ncpus; i++)
		gp_alloc_set_cpu(a, e->node, e->cpus[i], 1);
	a->node_free_cpu_milli[e->node] -= e->cpu_milli;
	a->node_free_mem_mib[e->node] -= e->mem_mib;
	if (e->nic >= 0)
		a->nic_vfs_used[(size_t)e->node * (size_t)a->max_nics + (size_t)e->nic]++;
}

static int load_entry(const gp_yaml_doc *doc, const gp_yaml_node *m, const gp_cluster *c,
		      gp_alloc *a, gp_state *s, int32_t *owner, gp_error *err)
{
	const gp_yaml_node *v;
	gp_state_entry *e;
	const gp_node *node;
	const char *str;
	long l;
	double x;

	if (gp_yaml_check_keys(doc, m, "allocation", entry_keys, err))
		return GP_EINPUT;
	e = push_entry(s);
	if (!(v = gp_yaml_get(m, "job")))
		return gp_yaml_error(doc, m, err, "allocation has no 'job'");
	if (gp_yaml_str(doc, v, "job", &str, err))
		return GP_EINPUT;
	if (!*str || strlen(str) > 255)
		return gp_yaml_error(doc, v, err, "job must be a non-empty name of at most 255 characters");
	e->job = gp_xstrdup(str);
	if (!(v = gp_yaml_get(m, "node")))
		return gp_yaml_error(doc, m, err, "allocation has no 'node'");
	if (gp_yaml_str(doc, v, "node", &str, err))
		return GP_EINPUT;
	e->node = gp_cluster_find_node(c, str);
	if (e->node < 0)
		return gp_yaml_error(doc, v, err, "unknown node '%.100s' (not in cluster %s)", str,
				     c->path ? c->path : "?");
	node = &c->nodes[e->node];

	if ((v = gp_yaml_get(m, "share"))) {
		if (gp_yaml_long(doc, v, "share (milli-GPU)", 1, GP_MILLI, &l, err))
			return GP_EINPUT;
		e->milli = (int)l;
	}
	if ((v = gp_yaml_get(m, "gpu_memory_gib"))) {
		if (gp_yaml_double(doc, v, "gpu_memory_gib", 0, 1e6, &x, err))
			return GP_EINPUT;
		e->gpu_mem_mib = llround(x * 1024.0);
	}
	if ((v = gp_yaml_get(m, "memory_gib"))) {
		if (gp_yaml_double(doc, v, "memory_gib", 0, 1e9, &x, err))
			return GP_EINPUT;
		e->mem_mib = llround(x * 1024.0);
		if (e->mem_mib > a->node_free_mem_mib[e->node])
			return gp_yaml_error(doc, v, err,
					     "node '%s' has %.6g GiB of host memory left, not %.6g",
					     node->name, (double)a->node_free_mem_mib[e->node] / 1024.0,
					     x);
	}
	if (entry_gpus(doc, m, node, a, s, owner, e, err))
		return GP_EINPUT;
	if ((v = gp_yaml_get(m, "cpus")) && entry_cpus(doc, v, node, a, e, err))
		return GP_EINPUT;
	if ((v = gp_yaml_get(m, "nic"))) {
		if (gp_yaml_str(doc, v, "nic", &str, err))
			return GP_EINPUT;
		e->nic = find_nic(c, e->node, str);
		if (e->nic < 0)
			return gp_yaml_error(doc, v, err, "node '%s' has no NIC '%.60s'", node->name, str);
		if (a->nic_vfs_used[(size_t)e->node * (size_t)a->max_nics + (size_t)e->nic] >=
		    GP_NIC_MAX_VFS)
			return gp_yaml_error(doc, v, err,
					     "NIC '%s' of node '%s' has all %d virtual functions taken",
					     str, node->name, GP_NIC_MAX_VFS);
	}
	entry_apply(node, a, s, owner, e);
	return GP_OK;
}

int gp_state_load(const char *path, const gp_cluster *c, gp_alloc *a, gp_state *s,
		  gp_error *err)
{
	char *text;
	size_t len;
	int rc;

	gp_state_init(s);
	if ((rc = gp_read_file(path, GP_STATE_MAX_FILE, &text, &len, err)))
		return rc;
	rc = gp_state_parse(text, len, path, c, a, s, err);
	free(text);
	return rc;
}

int gp_state_begin(gp_txn *t, const char *path, int create, double timeout_s,
		   const gp_cluster *c, gp_alloc *a, gp_state *s, gp_error *err)
{
	char *text;
	size_t len;
	int rc;

	gp_state_init(s);
	if ((rc = gp_txn_begin(t, path, create, timeout_s, GP_STATE_MAX_FILE, &text, &len, err)))
		return rc;
	rc = gp_state_parse(text, len, path, c, a, s, err);
	free(text);
	if (rc)
		gp_txn_abort(t);
	return rc;
}

typedef struct stream_ctx {
	const gp_cluster *c;
	gp_alloc *a;
	gp_state *s;
	int32_t *owner;
} stream_ctx;

/* Each allocation is checked and applied as soon as it is parsed, then
 * its tree is dropped: memory follows the entries, not the YAML tree. */
static int stream_entry(void *ud, const gp_yaml_doc *doc, const gp_yaml_node *item,
			size_t index, gp_error *err)
{
	stream_ctx *x = ud;

	if (index >= GP_STATE_MAX_ENTRIES)
		return gp_yaml_error(doc, item, err, "more than %d allocations",
				     GP_STATE_MAX_ENTRIES);
	return load_entry(doc, item, x->c, x->a, x->s, x->owner, err);
}

int gp_state_parse(const char *text, size_t len, const char *path, const gp_cluster *c,
		   gp_alloc *a, gp_state *s, gp_error *err)
{
	gp_yaml_doc doc;
	const gp_yaml_node *allocs, *v;
	int32_t *owner;
	stream_ctx x;
	size_t i;
	int rc;

	gp_state_init(s);
	gp_yaml_doc_init(&doc);
	owner = gp_xmalloc((size_t)(a->ngpus ? a->ngpus : 1) * sizeof(*owner));
	for (i = 0; i < (size_t)a->ngpus; i++)
		owner[i] = -1;
	x.c = c;
	x.a = a;
	x.s = s;
	x.owner = owner;
	rc = gp_yaml_parse_stream(text, len, path, 0, "allocations", stream_entry, &x, &doc, err);
	if (rc)
		goto out;
	if (!doc.root) /* an empty file is an empty state */
		goto out;
	if ((rc = gp_yaml_check_keys(&doc, doc.root, "allocation state", top_keys, err)))
		goto out;
	if ((v = gp_yaml_get(doc.root, "down")) &&
	    (rc = load_node_list(&doc, v, "down", c, &s->down, &s->ndown, &s->capdown, err)))
		goto out;
	if ((v = gp_yaml_get(doc.root, "draining")) &&
	    (rc = load_node_list(&doc, v, "draining", c, &s->draining, &s->ndraining,
				 &s->capdraining, err)))
		goto out;
	if ((v = gp_yaml_get(doc.root, "down_gpus")) &&
	    (rc = load_down_gpus(&doc, v, c, s, err)))
		goto out;
	for (i = 0; i < s->ndown; i++)
		gp_alloc_set_state(a, s->down[i], GP_NODE_DOWN);
	for (i = 0; i < s->ndraining; i++)
		gp_alloc_set_state(a, s->draining[i], GP_NODE_DRAINING);
	allocs = gp_yaml_get(doc.root, "allocations");
	if (!allocs || (allocs->type == GP_YAML_SCALAR && !allocs->quoted && !*allocs->scalar))
		goto out;
	if (allocs->type != GP_YAML_SEQ) {
		rc = gp_yaml_error(&doc, allocs, err, "allocations must be a list");
		goto out;
	}
	/* its entries were loaded while parsing (stream_entry) */
out:
	if (rc == GP_OK)
		apply_down_gpus(c, a, s);
	free(owner);
	gp_yaml_doc_release(&doc);
	if (rc)
		gp_state_release(s);
	return rc;
}

void gp_state_add_placement(gp_state *s, const char *job, const gp_placement *p)
{
	int i;

	for (i = 0; i < p->nparts; i++) {
		const gp_place_part *part = &p->parts[i];
		gp_state_entry *e = push_entry(s);

		e->job = gp_xstrdup(job);
		e->node = part->node;
		e->ngpus = part->ngpus;
		memcpy(e->gpus, part->gpus, sizeof(e->gpus));
		e->milli = part->milli;
		e->gpu_mem_mib = part->mem_mib;
		e->cpu_milli = part->cpu_milli;
		e->mem_mib = part->host_mem_mib;
		e->nic = part->nic;
		if (part->ncpus > 0) {
			e->cpus = gp_xmalloc((size_t)part->ncpus * sizeof(*e->cpus));
			memcpy(e->cpus, part->cpus, (size_t)part->ncpus * sizeof(*e->cpus));
			e->ncpus = part->ncpus;
		}
	}
}

void gp_state_merge_placement(gp_state *s, const char *job, const gp_placement *p)
{
	int i, k;

	for (i = 0; i < p->nparts; i++) {
		const gp_place_part *part = &p->parts[i];
		gp_state_entry *e = NULL;
		gp_placement one;
		size_t j;

		for (j = 0; j < s->n; j++)
			if (s->entries[j].node == part->node && s->entries[j].milli == part->milli &&
			    !strcmp(s->entries[j].job, job) &&
			    s->entries[j].ngpus + part->ngpus <= GP_TOPO_MAX_GPUS) {
				e = &s->entries[j];
				break;
			}
		if (!e) {
			one = *p;
			one.parts = (gp_place_part *)part;
			one.nparts = 1;
			gp_state_add_placement(s, job, &one);
			continue;
		}
		for (k = 0; k < part->ngpus; k++)
			e->gpus[e->ngpus++] = part->gpus[k];
		if (part->mem_mib > e->gpu_mem_mib)
			e->gpu_mem_mib = part->mem_mib;
		e->mem_mib += part->host_mem_mib;
		if (e->nic < 0)
			e->nic = part->nic;
		if (part->ncpus > 0 && (e->ncpus > 0 || e->cpu_milli == 0)) {
			/* pinned CPUs join the pinned list (or start it) */
			e->cpus = gp_xrealloc(e->cpus, (size_t)(e->ncpus + part->ncpus) * sizeof(*e->cpus));
			memcpy(e->cpus + e->ncpus, part->cpus, (size_t)part->ncpus * sizeof(*e->cpus));
			e->ncpus += part->ncpus;
		} else if (e->ncpus > 0 && part->cpu_milli > 0) {
			/* a count and a list: the entry keeps a count */
			free(e->cpus);
			e->cpus = NULL;
			e->ncpus = 0;
		}
		e->cpu_milli += part->cpu_milli;
	}
}

/* One quoting for every YAML gpuplan writes (gp_yaml_quote: control
 * characters, C1 and bytes that are not UTF-8 escaped). */
static void put_quoted(FILE *fp, const char *s)
{
	gp_sbuf sb;

	gp_sbuf_init(&sb);
	gp_yaml_quote(&sb, s);
	fwrite(sb.buf, 1, sb.len, fp);
	gp_sbuf_release(&sb);
}

static void put_node_list(FILE *fp, const gp_cluster *c, const char *key, const int *nodes,
			  size_t n)
{
	size_t i;

	if (!n)
		return;
	fprintf(fp, "%s: [", key);
	for (i = 0; i < n; i++) {
		if (i)
			fputs(", ", fp);
		put_quoted(fp, c->nodes[nodes[i]].name);
	}
	fputs("]\n", fp);
}

typedef struct state_out {
	const gp_cluster *c;
	const gp_state *s;
} state_out;

static int write_state(FILE *fp, void *ud)
{
	const gp_cluster *c = ((const state_out *)ud)->c;
	const gp_state *s = ((const state_out *)ud)->s;
	size_t i, k;
	int g;

	fputs("# gpuplan allocation state (see gpuplan(1), \"Allocation state\")\n", fp);
	put_node_list(fp, c, "down", s->down, s->ndown);
	put_node_list(fp, c, "draining", s->draining, s->ndraining);
	if (s->ndown_gpus)
		fputs("down_gpus:\n", fp);
	/* one line per node, in the order the nodes first appear */
	for (i = 0; i < s->ndown_gpus; i++) {
		int node = s->down_gpus[i].node, first = 1;

		for (k = 0; k < i && s->down_gpus[k].node != node; k++)
			;
		if (k < i)
			continue;
		fputs("  - {node: ", fp);
		put_quoted(fp, c->nodes[node].name);
		fputs(", gpus: [", fp);
		for (k = i; k < s->ndown_gpus; k++)
			if (s->down_gpus[k].node == node) {
				fprintf(fp, "%s%d", first ? "" : ", ", s->down_gpus[k].gpu);
				first = 0;
			}
		fputs("]}\n", fp);
	}
	fputs(s->n ? "allocations:\n" : "allocations: []\n", fp);
	for (i = 0; i < s->n; i++) {
		const gp_state_entry *e = &s->entries[i];

		fputs("  - {job: ", fp);
		put_quoted(fp, e->job);
		fputs(", node: ", fp);
		put_quoted(fp, c->nodes[e->node].name);
		fputs(", gpus: [", fp);
		for (g = 0; g < e->ngpus; g++)
			fprintf(fp, "%s%d", g ? ", " : "", e->gpus[g]);
		fputc(']', fp);
		if (e->milli != GP_MILLI)
			fprintf(fp, ", share: %d", e->milli);
		if (e->gpu_mem_mib)
			fprintf(fp, ", gpu_memory_gib: %.17g", e->gpu_mem_mib / 1024.0);
		if (e->ncpus > 0) {
			fputs(", cpus: [", fp);
			for (g = 0; g < e->ncpus; g++)
				fprintf(fp, "%s%d", g ? ", " : "", e->cpus[g]);
			fputc(']', fp);
		} else if (e->cpu_milli > 0) {
			fprintf(fp, ", cpus: %.17g", e->cpu_milli / 1000.0);
		}
		if (e->mem_mib)
			fprintf(fp, ", memory_gib: %.17g", e->mem_mib / 1024.0);
		if (e->nic >= 0) {
			fputs(", nic: ", fp);
			put_quoted(fp, nic_name(c, e->node, e->nic));
		}
		fputs("}\n", fp);
	}
	return ferror(fp) ? -1 : 0;
}

int gp_state_commit(gp_txn *t, const gp_cluster *c, const gp_state *s, gp_error *err)
{
	state_out o = { c, s };

	return gp_txn_commit(t, write_state, &o, err);
}

int gp_state_save(const char *path, const gp_cluster *c, const gp_state *s, gp_error *err)
{
	state_out o = { c, s };
	gp_atomic_file af;
	int rc;

	if ((rc = gp_atomic_open(&af, path, err)))
		return rc;
	errno = 0;
	if (write_state(af.fp, &o)) {
		int e = errno;

		gp_atomic_abort(&af);
		return gp_write_error(err, path, e);
	}
	return gp_atomic_commit(&af, err);
}
