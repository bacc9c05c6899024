/* Node-type topologies of a cluster file: inline (the keys 'topo import'
 * writes) or named by 'topology:' (an nvidia-smi topo -m snapshot or a
 * node-type file written by 'topo import').  Part of the cluster loader
 * (cluster_yaml.c); errors are located in the file that holds them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gpuplan/io/snapshot.h"
#include "gpuplan/io/yaml.h"
#include "gpuplan/model/cluster.h"
#include "gpuplan/util/util.h"
#include "cluster_int.h"

static const char *const gpu_keys[] = {
	"id", "cpus", "numa", "gpu_numa_id", NULL
};
static const char *const nic_keys[] = {
	"id", "device", "numa", "subnet", NULL
};

/* An integer or null (-1). */
static int int_or_null(loader *L, const gp_yaml_node *v, const char *wh,
		       long min, long max, int *out)
{
	long x;

	if (gp_cy_is_null(v)) {
		*out = -1;
		return GP_OK;
	}
	if (gp_yaml_long(&L->doc, v, wh, min, max, &x, L->err))
		return GP_EINPUT;
	*out = (int)x;
	return GP_OK;
}

/* An id such as "GPU0" into a 16-byte field. */
static int get_id(loader *L, const gp_yaml_node *v, const char *wh, char *out,
		  size_t size)
{
	const char *s;

	if (gp_cy_get_name(L, v, wh, &s))
		return GP_EINPUT;
	if (strlen(s) >= size)
		return gp_yaml_error(&L->doc, v, L->err,
				     "%s '%s' is longer than %zu characters", wh, s,
				     size - 1);
	snprintf(out, size, "%s", s);
	return GP_OK;
}

static int load_cpus(loader *L, const gp_yaml_node *v, const char *wh,
		     gp_topo_gpu *g)
{
	size_t i;
	long x;

	free(g->cpus);
	g->cpus = NULL;
	g->ncpus = 0;
	if (gp_cy_is_null(v))
		return GP_OK;
	if (v->type == GP_YAML_SCALAR) {
		if (gp_cpulist_parse(v->scalar, strlen(v->scalar), &g->cpus,
				     &g->ncpus))
			return gp_yaml_error(&L->doc, v, L->err,
					     "%s: bad CPU list '%.40s'", wh, v->scalar);
		return GP_OK;
	}
	if (gp_yaml_expect(&L->doc, v, GP_YAML_SEQ, wh, L->err))
		return GP_EINPUT;
	if (v->n > GP_TOPO_MAX_CPUS)
		return gp_yaml_error(&L->doc, v, L->err, "%s: more than %d CPUs",
				     wh, GP_TOPO_MAX_CPUS);
	g->cpus = gp_xmalloc((v->n + 1) * sizeof(int));
	for (i = 0; i < v->n; i++) {
		if (gp_yaml_long(&L->doc, v->items[i], wh, 0, GP_TOPO_MAX_CPUS - 1,
				 &x, L->err))
			return GP_EINPUT;
		if (i > 0 && x <= g->cpus[i - 1])
			return gp_yaml_error(&L->doc, v->items[i], L->err,
					     "%s must be sorted and without repeats",
					     wh);
		g->cpus[g->ncpus++] = (int)x;
	}
	return GP_OK;
}

/* The 'gpus' list of an inline topology (or a node-type file). */
static int load_topo_gpus(loader *L, const gp_yaml_node *gpus, const char *owner, gp_topo *topo)
{
	int i;

	for (i = 0; i < topo->ngpus; i++) {
		const gp_yaml_node *g = gpus->items[i];
		char gw[240];

		snprintf(gw, sizeof(gw), "%s GPU %d", owner, i);
		if (gp_yaml_check_keys(&L->doc, g, gw, gpu_keys, L->err))
			return GP_EINPUT;
		if (get_id(L, gp_cy_need(L, g, "id", gw) ? gp_yaml_get(g, "id") : NULL,
			   gp_cy_what(L, "%s 'id'", gw), topo->gpus[i].id,
			   sizeof(topo->gpus[i].id)))
			return GP_EINPUT;
		if (gp_yaml_get(g, "cpus") &&
		    load_cpus(L, gp_yaml_get(g, "cpus"), gp_cy_what(L, "%s 'cpus'", gw),
			      &topo->gpus[i]))
			return GP_EINPUT;
		if (gp_yaml_get(g, "numa") &&
		    int_or_null(L, gp_yaml_get(g, "numa"), gp_cy_what(L, "%s 'numa'", gw),
				0, 4095, &topo->gpus[i].numa))
			return GP_EINPUT;
		if (gp_yaml_get(g, "gpu_numa_id") &&
		    int_or_null(L, gp_yaml_get(g, "gpu_numa_id"),
				gp_cy_what(L, "%s 'gpu_numa_id'", gw), 0, 4095,
				&topo->gpus[i].gpu_numa_id))
			return GP_EINPUT;
	}
	return GP_OK;
}

/* The 'nics' list. */
static int load_topo_nics(loader *L, const gp_yaml_node *nics, const char *owner, gp_topo *topo)
{
	int j;

	for (j = 0; j < topo->nnics; j++) {
		const gp_yaml_node *n = nics->items[j];
		const gp_yaml_node *dev;
		char nw[240];

		snprintf(nw, sizeof(nw), "%s NIC %d", owner, j);
		if (gp_yaml_check_keys(&L->doc, n, nw, nic_keys, L->err))
			return GP_EINPUT;
		if (get_id(L, gp_cy_need(L, n, "id", nw) ? gp_yaml_get(n, "id") : NULL,
			   gp_cy_what(L, "%s 'id'", nw), topo->nics[j].id,
			   sizeof(topo->nics[j].id)))
			return GP_EINPUT;
		dev = gp_yaml_get(n, "device");
		if (dev && !gp_cy_is_null(dev) &&
		    get_id(L, dev, gp_cy_what(L, "%s 'device'", nw), topo->nics[j].device,
			   sizeof(topo->nics[j].device)))
			return GP_EINPUT;
	}
	return GP_OK;
}

/* 'devices', when given, must list the GPU ids then the NIC ids. */
static int check_topo_devices(loader *L, const gp_yaml_node *devs, const char *owner,
			      const gp_topo *topo)
{
	int i, ng = topo->ngpus, nd = topo->ngpus + topo->nnics;

	if (gp_yaml_expect(&L->doc, devs, GP_YAML_SEQ, gp_cy_what(L, "%s 'devices'", owner), L->err))
		return GP_EINPUT;
	if ((int)devs->n != nd)
		return gp_yaml_error(&L->doc, devs, L->err,
				     "%s: 'devices' has %zu entries, expected %d (GPUs then NICs)",
				     owner, devs->n, nd);
	for (i = 0; i < nd; i++) {
		const char *id = i < ng ? topo->gpus[i].id : topo->nics[i - ng].id;
		const char *s;

		if (gp_yaml_str(&L->doc, devs->items[i], gp_cy_what(L, "%s device", owner), &s, L->err))
			return GP_EINPUT;
		if (strcmp(s, id))
			return gp_yaml_error(&L->doc, devs->items[i], L->err,
					     "%s: device %d is '%.40s', expected '%s' (GPUs then NICs, in order)",
					     owner, i, s, id);
	}
	return GP_OK;
}

/* The 'links' matrix, one row per device, then the topology's own checks. */
static int load_topo_links(loader *L, const gp_yaml_node *links, const char *owner, gp_topo *topo)
{
	int i, j, r, col, nd = topo->ngpus + topo->nnics;

	if (gp_yaml_expect(&L->doc, links, GP_YAML_SEQ, gp_cy_what(L, "%s 'links'", owner), L->err))
		return GP_EINPUT;
	if ((int)links->n != nd)
		return gp_yaml_error(&L->doc, links, L->err,
				     "%s: 'links' has %zu rows, expected %d", owner,
				     links->n, nd);
	for (i = 0; i < nd; i++) {
		const gp_yaml_node *row = links->items[i];

		if (gp_yaml_expect(&L->doc, row, GP_YAML_SEQ, gp_cy_what(L, "%s links row", owner),
				   L->err))
			return GP_EINPUT;
		if ((int)row->n != nd)
			return gp_yaml_error(&L->doc, row, L->err,
					     "%s: links row %d has %zu cells, expected %d",
					     owner, i, row->n, nd);
		for (j = 0; j < nd; j++) {
			const char *s;

			if (gp_yaml_str(&L->doc, row->items[j], gp_cy_what(L, "%s link", owner),
					&s, L->err))
				return GP_EINPUT;
			if (gp_link_parse(s, &topo->links[(size_t)i * (size_t)nd + (size_t)j]))
				return gp_yaml_error(&L->doc, row->items[j], L->err,
						     "%s: unknown link '%.20s' (X, NV<k>, PIX, PXB, PHB, NODE or SYS)",
						     owner, s);
		}
	}
	if (gp_topo_check(topo, &r, &col, L->err)) {
		char msg[sizeof(L->err->msg)];

		snprintf(msg, sizeof(msg), "%s", L->err->msg);
		return gp_yaml_error(&L->doc, links->items[r]->items[col], L->err,
				     "%s: %s", owner, msg);
	}
	return GP_OK;
}

int gp_cy_load_inline_topo(loader *L, const gp_yaml_node *v, const char *tname,
			   gp_node_type *t)
{
	const gp_yaml_node *gpus = gp_cy_need(L, v, "gpus", gp_cy_what(L, "node type '%s'", tname));
	const gp_yaml_node *nics;
	gp_topo *topo = &t->topo;
	char owner[200];
	int ng, nn, j;

	if (!gpus)
		return GP_EINPUT;
	snprintf(owner, sizeof(owner), "node type '%s'", tname);
	if (!gp_cy_need(L, v, "links", owner))
		return GP_EINPUT;
	nics = gp_yaml_get(v, "nics");
	if (gp_yaml_expect(&L->doc, gpus, GP_YAML_SEQ, gp_cy_what(L, "%s 'gpus'", owner), L->err))
		return GP_EINPUT;
	if (nics && !gp_cy_is_null(nics) &&
	    gp_yaml_expect(&L->doc, nics, GP_YAML_SEQ, gp_cy_what(L, "%s 'nics'", owner), L->err))
		return GP_EINPUT;
	ng = (int)(gpus->n < 1000000 ? gpus->n : 1000000);
	nn = nics && !gp_cy_is_null(nics) ? (int)(nics->n < 1000000 ? nics->n : 1000000) : 0;
	if (ng > GP_TOPO_MAX_GPUS || ng + nn > GP_TOPO_MAX_DEVICES)
		return gp_yaml_error(&L->doc, gpus, L->err,
				     "%s: %d GPUs and %d NICs exceed the limits (%d GPUs, %d devices)",
				     owner, ng, nn, GP_TOPO_MAX_GPUS, GP_TOPO_MAX_DEVICES);
	if (gp_topo_alloc(topo, ng, nn, L->err)) {
		char msg[sizeof(L->err->msg)];

		snprintf(msg, sizeof(msg), "%s", L->err->msg);
		return gp_yaml_error(&L->doc, gpus, L->err, "%s: %s", owner, msg);
	}
	topo->source = gp_xasprintf("%s:%d", L->doc.path, v->line);
	if (load_topo_gpus(L, gpus, owner, topo) || load_topo_nics(L, nics, owner, topo))
		return GP_EINPUT;
	if (gp_yaml_get(v, "devices") &&
	    check_topo_devices(L, gp_yaml_get(v, "devices"), owner, topo))
		return GP_EINPUT;
	if (load_topo_links(L, gp_yaml_get(v, "links"), owner, topo))
		return GP_EINPUT;
	gp_topo_finish(topo);
	/* A NIC's NUMA node given in the file wins over the derived one. */
	for (j = 0; j < nn; j++) {
		const gp_yaml_node *numa = gp_yaml_get(nics->items[j], "numa");

		if (numa && int_or_null(L, numa, gp_cy_what(L, "%s NIC %d 'numa'", owner, j),
					0, 4095, &topo->nics[j].numa))
			return GP_EINPUT;
	}
	return GP_OK;
}

/* Keys of a node-type file as 'gpuplan topo import' writes it. */
static const char *const topo_file_keys[] = {
	"name", "gpu_model", "gpus", "nics", "devices", "links", "source", "quirks", NULL
};

/* Whether a 'topology:' file is YAML (a node type written by 'gpuplan topo
 * import') rather than an nvidia-smi topo -m snapshot: its first line that
 * is neither blank nor a comment starts with a key ("name:", "gpus:"). */
static int topo_text_is_yaml(const char *text, size_t len)
{
	size_t i = 0, k;

	while (i < len) {
		while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r'))
			i++;
		if (i < len && (text[i] == '#' || text[i] == '\n')) {
			while (i < len && text[i] != '\n')
				i++;
			i++;
			continue;
		}
		if (i < len && text[i] == '{')
			return 1;
		for (k = i; k < len && ((text[k] >= 'a' && text[k] <= 'z') || text[k] == '_'); k++)
			;
		return k > i && k < len && text[k] == ':';
	}
	return 0;
}

/* The same on the file's first 4 KiB (0 when it cannot be read: the
 * snapshot loader then says why). */
static int topo_file_is_yaml(const char *path)
{
	char buf[4096];
	size_t n = 0;
	FILE *fp = fopen(path, "rb");

	if (!fp)
		return 0;
	n = fread(buf, 1, sizeof(buf), fp);
	fclose(fp);
	return topo_text_is_yaml(buf, n);
}

/* A node-type file written by 'gpuplan topo import': its gpus, nics and
 * links, errors located in that file; *model gets its gpu_model (-1 none). */
static int load_topo_yaml(loader *L, const char *path, const char *text, size_t len,
			  const char *tname, gp_node_type *t, int *model)
{
	loader F;
	const gp_yaml_node *root, *x;
	const char *s;
	int st = GP_EINPUT;

	*model = -1;
	memset(&F, 0, sizeof(F));
	F.c = L->c;
	F.err = L->err;
	gp_yaml_doc_init(&F.doc);
	if (gp_yaml_parse(text, len, path, GP_YAML_MAX_DEPTH, &F.doc, L->err))
		goto out;
	root = F.doc.root;
	if (!root || root->type != GP_YAML_MAP) {
		gp_error_set(L->err, GP_EINPUT, path, root ? root->line : 1, root ? root->col : 1,
			     "node type '%s': a node-type file is a mapping with 'gpus' and 'links' "
			     "(as 'gpuplan topo import' writes it)", tname);
		goto out;
	}
	if (gp_yaml_check_keys(&F.doc, root, gp_cy_what(&F, "node type '%s' file", tname),
			       topo_file_keys, L->err) ||
	    gp_cy_load_inline_topo(&F, root, tname, t))
		goto out;
	free(t->topo.source);
	t->topo.source = gp_xstrdup(path);
	x = gp_yaml_get(root, "gpu_model");
	if (x && !gp_cy_is_null(x)) {
		if (gp_yaml_str(&F.doc, x, gp_cy_what(&F, "node type '%s' 'gpu_model'", tname), &s, L->err))
			goto out;
		*model = gp_catalog_index(&L->c->catalog, s);
		if (*model < 0) {
			gp_yaml_error(&F.doc, x, L->err,
				      "node type '%s': unknown GPU model '%s' (see 'gpuplan topo show --models', "
				      "or add it under 'gpu_models' of the cluster)", tname, s);
			goto out;
		}
	}
	st = GP_OK;
out:
	gp_yaml_doc_release(&F.doc);
	return st;
}

/* 'topology: FILE' (relative to the cluster file): an nvidia-smi topo -m
 * snapshot or a node-type file from 'gpuplan topo import'. */
int gp_cy_load_topo_file(loader *L, const gp_yaml_node *topo, const char *owner,
			 const char *tname, gp_node_type *t, int *model)
{
	char *path, *text;
	const char *s;
	size_t len;
	int st;
	struct stat sst;

	*model = -1;
	if (gp_yaml_str(&L->doc, topo, gp_cy_what(L, "%s 'topology'", owner), &s, L->err))
		return GP_EINPUT;
	if (!*s)
		return gp_yaml_error(&L->doc, topo, L->err, "%s: empty 'topology'", owner);
	path = gp_path_relative_to(L->doc.path, s);
	/* Only a regular file: a FIFO would block, a device never end. */
	if (stat(path, &sst) == 0 && !S_ISREG(sst.st_mode)) {
		free(path);
		return gp_yaml_error(&L->doc, topo, L->err,
				     "%s: topology '%s' is not a regular file", owner, s);
	}
	if (topo_file_is_yaml(path)) {
		st = gp_read_file(path, GP_CLUSTER_MAX_FILE, &text, &len, L->err);
		if (st == GP_OK) {
			st = load_topo_yaml(L, path, text, len, tname, t, model);
			free(text);
		}
	} else {
		st = gp_topo_load(path, &t->topo, L->err);
	}
	if (st == GP_EIO) {
		/* A missing snapshot is a dangling reference of this file. */
		char msg[sizeof(L->err->msg)];

		snprintf(msg, sizeof(msg), "%s", L->err->msg);
		gp_yaml_error(&L->doc, topo, L->err, "%s: topology '%s': %s", owner, s, msg);
	}
	if (st) {
		free(path);
		return GP_EINPUT;
	}
	t->source = path;
	return GP_OK;
}
