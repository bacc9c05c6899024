/* Import: Kubernetes `kubectl get nodes` and `kubectl get pods -A`, as
 * JSON (-o json) or YAML (-o yaml): both are read by the YAML tree. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/io/yaml.h"
#include "gpuplan/model/alloc.h"
#include "import_int.h"

/* Whether the value at t[p..len) is word, followed by a non-alphanumeric
 * character or the end. */
static int value_is(const char *t, size_t len, size_t p, const char *word)
{
	size_t wl = strlen(word);

	return p + wl <= len && !memcmp(t + p, word, wl) &&
	       (p + wl == len || !isalnum((unsigned char)t[p + wl]));
}

/* Count the `kind: WORD` / `"kind": "WORD"` occurrences of Pod and PodList
 * (pods) and of Node and NodeList (nodes), in one pass that jumps from one
 * "kind" to the next. */
static void count_kinds(const char *t, size_t len, int *pods, int *nodes)
{
	const char *q = t, *end = t + len;

	*pods = *nodes = 0;
	while ((size_t)(end - q) > 4 && (q = memmem(q, (size_t)(end - q) - 1, "kind", 4))) {
		size_t i = (size_t)(q - t), p = i + 4;

		q++;
		if (i > 0 && isalnum((unsigned char)t[i - 1]))
			continue;
		if (p < len && t[p] == '"')
			p++;
		while (p < len && t[p] == ' ')
			p++;
		if (p >= len || t[p] != ':')
			continue;
		p++;
		while (p < len && t[p] == ' ')
			p++;
		if (p < len && (t[p] == '"' || t[p] == '\''))
			p++;
		*pods += value_is(t, len, p, "Pod") + value_is(t, len, p, "PodList");
		*nodes += value_is(t, len, p, "Node") + value_is(t, len, p, "NodeList");
	}
}

int gp_import_sniff_k8s(const char *text, size_t len)
{
	size_t scan = len < (4u << 20) ? len : (4u << 20);
	int pods, nodes;

	if (!len || (text[0] != '{' && text[0] != '[' && !memmem(text, scan, "apiVersion", 10)))
		return GP_IMPORT_UNKNOWN;
	count_kinds(text, scan, &pods, &nodes);
	if (pods && pods >= nodes)
		return GP_IMPORT_K8S_PODS;
	if (nodes)
		return GP_IMPORT_K8S_NODES;
	return GP_IMPORT_UNKNOWN;
}

/* A Kubernetes quantity ("64", "191450m", "2097096404Ki", "512Gi", "1e3")
 * in base units; -1 when malformed. */
static double quantity(const char *s)
{
	static const struct {
		const char *suf;
		double mul;
	} sufs[] = {
		{ "Ki", 1024.0 }, { "Mi", 1048576.0 }, { "Gi", 1073741824.0 },
		{ "Ti", 1099511627776.0 }, { "Pi", 1125899906842624.0 },
		{ "n", 1e-9 }, { "u", 1e-6 }, { "m", 1e-3 }, { "k", 1e3 }, { "M", 1e6 },
		{ "G", 1e9 }, { "T", 1e12 }, { "P", 1e15 }, { "E", 1e18 },
	};
	char *end;
	double v = strtod(s, &end);
	size_t i;

	if (end == s || v < 0 || !isfinite(v))
		return -1;
	if (!*end)
		return v;
	for (i = 0; i < GP_ARRAY_SIZE(sufs); i++)
		if (!strcmp(end, sufs[i].suf))
			return v * sufs[i].mul;
	return -1;
}

static const char *sget(const gp_yaml_node *map, const char *key)
{
	const gp_yaml_node *v = gp_yaml_get(map, key);

	return v && v->type == GP_YAML_SCALAR ? v->scalar : NULL;
}

static const gp_yaml_node *path2(const gp_yaml_node *m, const char *a, const char *b)
{
	return gp_yaml_get(gp_yaml_get(m, a), b);
}

/* The items of a List, or the object itself. */
static const gp_yaml_node *items_of(const gp_yaml_doc *doc, gp_error *err, int *single)
{
	const gp_yaml_node *r = doc->root, *it;

	*single = 0;
	if (!r) {
		gp_error_set(err, GP_EINPUT, doc->path, 0, 0, "empty document");
		return NULL;
	}
	if (r->type == GP_YAML_SEQ)
		return r;
	if (r->type != GP_YAML_MAP) {
		gp_yaml_error(doc, r, err, "expected a Kubernetes object or List");
		return NULL;
	}
	it = gp_yaml_get(r, "items");
	if (it) {
		if (it->type != GP_YAML_SEQ) {
			gp_yaml_error(doc, it, err, "'items' must be a list");
			return NULL;
		}
		return it;
	}
	*single = 1;
	return r;
}

/* Bounds that keep the conversions to int and int64_t defined: no node
 * has a million cores or GPUs, or more memory than a cluster file takes. */
#define K8S_MAX_COUNT 1048576.0
#define K8S_MAX_BYTES ((double)GP_IMPORT_MAX_MEM_MIB * 1048576.0)

static int qty_field(const gp_yaml_doc *doc, const gp_yaml_node *map, const char *key,
		     double max, double *out, gp_error *err)
{
	const gp_yaml_node *v = gp_yaml_get(map, key);

	*out = -1;
	if (!v)
		return GP_OK;
	if (v->type != GP_YAML_SCALAR || (*out = quantity(v->scalar)) < 0)
		return gp_yaml_error(doc, v, err, "'%s': not a Kubernetes quantity", key);
	if (*out > max)
		return gp_yaml_error(doc, v, err, "'%s': %s is more than %.0f", key, v->scalar, max);
	return GP_OK;
}

static int read_node(gp_inventory *inv, const gp_yaml_doc *doc, const gp_yaml_node *it,
		     gp_error *err)
{
	const gp_yaml_node *meta = gp_yaml_get(it, "metadata"), *labels, *cap, *spec, *conds;
	const char *name = sget(meta, "name"), *kind = sget(it, "kind"), *s;
	double cpu, mem, gpu, amd, replicas = 1, shared;
	long label_count = -1;
	gp_inv_node *n;
	size_t i;
	gp_sbuf mig;
	int ready = -1, unsched = 0;

	if (kind && strcmp(kind, "Node"))
		return gp_yaml_error(doc, it, err, "expected kind Node, found '%s'", kind);
	if (!name)
		return gp_yaml_error(doc, it, err, "node without metadata.name");
	labels = gp_yaml_get(meta, "labels");
	cap = path2(it, "status", "capacity");
	if (!cap)
		cap = path2(it, "status", "allocatable");
	n = gp_inv_node_get(inv, name, strlen(name), doc->path, it->line, it->col, err);
	if (!n)
		return GP_EINPUT;
	n->kinds |= 1u << GP_IMPORT_K8S_NODES;
	if (qty_field(doc, cap, "cpu", K8S_MAX_COUNT, &cpu, err) ||
	    qty_field(doc, cap, "memory", K8S_MAX_BYTES, &mem, err) ||
	    qty_field(doc, cap, "nvidia.com/gpu", K8S_MAX_COUNT, &gpu, err) ||
	    qty_field(doc, cap, "nvidia.com/gpu.shared", K8S_MAX_COUNT, &shared, err) ||
	    qty_field(doc, cap, "amd.com/gpu", K8S_MAX_COUNT, &amd, err))
		return GP_EINPUT;
	if (cpu > 0)
		n->cpus = (int)ceil(cpu);
	if (mem > 0)
		n->mem_mib = (int64_t)(mem / 1048576.0);
	if ((s = sget(labels, "nvidia.com/gpu.product")) ||
	    (s = sget(labels, "cloud.google.com/gke-accelerator")) ||
	    (s = sget(labels, "amd.com/gpu.product-name")))
		gp_inv_set_str(&n->gpu_type, s, strlen(s));
	if ((s = sget(labels, "nvidia.com/gpu.memory"))) {
		double v = quantity(s);

		if (v > K8S_MAX_BYTES)  /* MiB, so this is far past any GPU */
			return gp_yaml_error(doc, gp_yaml_get(labels, "nvidia.com/gpu.memory"), err,
					     "'nvidia.com/gpu.memory': %s MiB is more than %.0f", s,
					     K8S_MAX_BYTES);
		if (v > 0)
			n->gpu_mem_mib = (int64_t)v;
	}
	if ((s = sget(labels, "nvidia.com/gpu.count")) && gp_parse_long(s, 0, 4096, &label_count))
		return gp_yaml_error(doc, gp_yaml_get(labels, "nvidia.com/gpu.count"), err,
				     "'nvidia.com/gpu.count' is not a count");
	if ((s = sget(labels, "nvidia.com/gpu.replicas"))) {
		double v = quantity(s);

		if (v >= 1)
			replicas = v;
	}
	gp_sbuf_init(&mig);
	for (i = 0; cap && cap->type == GP_YAML_MAP && i < cap->n; i++) {
		const char *k = cap->keys[i]->scalar;

		if (!strncmp(k, "nvidia.com/mig-", 15) && cap->items[i]->type == GP_YAML_SCALAR &&
		    quantity(cap->items[i]->scalar) > 0)
			gp_sbuf_addf(&mig, "%s%s=%s", mig.len ? "," : "", k + 11,
				     cap->items[i]->scalar);
	}
	if (mig.len)
		gp_inv_set_str(&n->mig, mig.buf, mig.len);
	gp_sbuf_release(&mig);
	if (label_count >= 0)
		n->ngpus = (int)label_count;
	else if (gpu > 0)
		n->ngpus = (int)(gpu / replicas);
	else if (amd > 0)
		n->ngpus = (int)amd;   /* AMD's device plugin: one per GPU (GCD) */
	else if (shared > 0 && replicas > 1)
		n->ngpus = (int)(shared / replicas);
	else if (shared > 0 || n->mig)
		n->ngpus = -1;   /* shared or sliced, and nothing says how many */
	else
		n->ngpus = 0;
	if (replicas > 1)
		gp_inv_warn(inv, doc->path, it->line, "node '%s': GPUs time-sliced %g ways; "
			    "imported as %d whole GPU(s)", name, replicas, n->ngpus);
	else if (shared > 0 && n->ngpus < 0)
		gp_inv_warn(inv, doc->path, it->line, "node '%s': %g shared GPU slots "
			    "(nvidia.com/gpu.shared) and no nvidia.com/gpu.count or gpu.replicas "
			    "label: physical GPUs unknown", name, shared);
	if (n->mig && label_count < 0 && (gpu <= 0))
		gp_inv_warn(inv, doc->path, it->line, "node '%s': MIG devices (%s) and no "
			    "nvidia.com/gpu.count label: physical GPUs unknown", name, n->mig);
	spec = gp_yaml_get(it, "spec");
	if ((s = sget(spec, "unschedulable")) && !strcmp(s, "true"))
		unsched = 1;
	{
		const gp_yaml_node *taints = gp_yaml_get(spec, "taints");

		for (i = 0; taints && taints->type == GP_YAML_SEQ && i < taints->n; i++) {
			const char *k = sget(taints->items[i], "key");

			if (k && !strcmp(k, "node.kubernetes.io/unschedulable"))
				unsched = 1;
		}
	}
	conds = path2(it, "status", "conditions");
	for (i = 0; conds && conds->type == GP_YAML_SEQ && i < conds->n; i++) {
		const char *t = sget(conds->items[i], "type"), *st = sget(conds->items[i], "status");

		if (t && st && !strcmp(t, "Ready"))
			ready = !strcmp(st, "True");
	}
	n->state = ready == 0 ? GP_NODE_DOWN : unsched ? GP_NODE_DRAINING : GP_NODE_UP;
	{
		const char *txt = ready == 0 ? (unsched ? "NotReady,SchedulingDisabled" : "NotReady")
				  : ready == 1 ? (unsched ? "Ready,SchedulingDisabled" : "Ready")
				  : (unsched ? "SchedulingDisabled" : NULL);

		if (txt)
			gp_inv_set_str(&n->state_text, txt, strlen(txt));
	}
	if (n->used < 0)
		n->used = 0;
	return GP_OK;
}

/* Sum of a resource over the containers of a pod spec. */
static int pod_sum(const gp_yaml_doc *doc, const gp_yaml_node *conts, const char *which,
		   const char *res, double *out, gp_error *err)
{
	double max = strcmp(res, "memory") ? K8S_MAX_COUNT : K8S_MAX_BYTES;
	size_t i;

	*out = 0;
	for (i = 0; conts && conts->type == GP_YAML_SEQ && i < conts->n; i++) {
		const gp_yaml_node *r = path2(conts->items[i], "resources", which);
		double v;

		if (qty_field(doc, r, res, max, &v, err))
			return GP_EINPUT;
		if (v > 0)
			*out += v;
		if (*out > max)
			return gp_yaml_error(doc, gp_yaml_get(r, res), err,
					     "'%s': the pod's containers ask for more than %.0f in all",
					     res, max);
	}
	return GP_OK;
}

static int read_pod(gp_inventory *inv, const gp_yaml_doc *doc, const gp_yaml_node *it,
		    gp_error *err)
{
	const gp_yaml_node *meta = gp_yaml_get(it, "metadata"), *spec = gp_yaml_get(it, "spec");
	const gp_yaml_node *conts = gp_yaml_get(spec, "containers");
	const char *name = sget(meta, "name"), *ns = sget(meta, "namespace");
	const char *node = sget(spec, "nodeName"), *phase = sget(gp_yaml_get(it, "status"), "phase");
	const char *kind = sget(it, "kind");
	double gpus, cpu, mem, mig = 0;
	gp_inv_alloc *a;
	char *job;
	size_t i, j;

	if (kind && strcmp(kind, "Pod"))
		return gp_yaml_error(doc, it, err, "expected kind Pod, found '%s'", kind);
	if (!name)
		return gp_yaml_error(doc, it, err, "pod without metadata.name");
	if (!node || (phase && strcmp(phase, "Running") && strcmp(phase, "Pending")))
		return GP_OK;   /* not bound, or finished: holds nothing */
	if (pod_sum(doc, conts, "limits", "nvidia.com/gpu", &gpus, err) ||
	    pod_sum(doc, conts, "requests", "cpu", &cpu, err) ||
	    pod_sum(doc, conts, "requests", "memory", &mem, err))
		return GP_EINPUT;
	if (gpus <= 0 && pod_sum(doc, conts, "requests", "nvidia.com/gpu", &gpus, err))
		return GP_EINPUT;
	if (gpus <= 0 && pod_sum(doc, conts, "limits", "alpha.kubernetes.io/nvidia-gpu", &gpus, err))
		return GP_EINPUT;
	if (gpus <= 0 && pod_sum(doc, conts, "limits", "amd.com/gpu", &gpus, err))
		return GP_EINPUT;
	for (i = 0; conts && conts->type == GP_YAML_SEQ && i < conts->n; i++) {
		const gp_yaml_node *l = path2(conts->items[i], "resources", "limits");

		for (j = 0; l && l->type == GP_YAML_MAP && j < l->n; j++)
			if (!strncmp(l->keys[j]->scalar, "nvidia.com/mig-", 15))
				mig += 1;
	}
	if (mig > 0)
		gp_inv_warn(inv, doc->path, it->line, "pod '%s/%s' uses MIG devices on '%s'; "
			    "MIG slices are not modelled, left out", ns ? ns : "default", name, node);
	if (gpus <= 0)
		return GP_OK;
	job = gp_xasprintf("%s/%s", ns ? ns : "default", name);
	a = gp_inv_alloc_add(inv, job, node, doc->path, it->line);
	free(job);
	a->ngpus = (int)ceil(gpus);
	a->mem_mib = mem > 0 ? (int64_t)(mem / 1048576.0) : 0;
	(void)cpu;
	return GP_OK;
}

int gp_import_k8s(gp_inventory *inv, int kind, const char *text, size_t len,
		  const char *file, gp_error *err)
{
	gp_yaml_doc doc;
	const gp_yaml_node *items;
	size_t i;
	int single, rc = GP_OK, n = 0;

	gp_yaml_doc_init(&doc);
	if ((rc = gp_yaml_parse(text, len, file, 64, &doc, err)))
		goto out;
	if (!(items = items_of(&doc, err, &single))) {
		rc = GP_EINPUT;
		goto out;
	}
	for (i = 0; i < (single ? 1 : items->n); i++) {
		const gp_yaml_node *it = single ? items : items->items[i];

		if (it->type != GP_YAML_MAP) {
			rc = gp_yaml_error(&doc, it, err, "expected an object");
			goto out;
		}
		rc = kind == GP_IMPORT_K8S_NODES ? read_node(inv, &doc, it, err)
						 : read_pod(inv, &doc, it, err);
		if (rc)
			goto out;
		n++;
	}
	if (!n)
		rc = gp_error_set(err, GP_EINPUT, file, 0, 0, "no %s in the list",
				  kind == GP_IMPORT_K8S_NODES ? "nodes" : "pods");
out:
	gp_yaml_doc_release(&doc);
	return rc;
}
