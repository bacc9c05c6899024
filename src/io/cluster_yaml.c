/* Cluster YAML loader (format: man gpuplan(1), FILES, "Cluster YAML").
 * It walks the document tree of io/yaml.c and reports the first problem
 * with the position of the offending node. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/io/openb.h"
#include "gpuplan/io/snapshot.h"
#include "gpuplan/io/yaml.h"
#include "gpuplan/model/cluster.h"
#include "gpuplan/util/hostlist.h"
#include "gpuplan/util/util.h"

#define NAME_MAX_LEN 128

/* ---- the YAML loader ---- */

typedef struct loader {
	gp_yaml_doc doc;
	gp_cluster *c;
	gp_error *err;
	char what[256]; /* scratch for "node_types.X.cpus"-style names */
} loader;

static const char *what(loader *L, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static const char *what(loader *L, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(L->what, sizeof(L->what), fmt, ap);
	va_end(ap);
	return L->what;
}

static int is_null(const gp_yaml_node *n)
{
	return n && n->type == GP_YAML_SCALAR && !n->quoted &&
	       (!n->scalar[0] || !strcmp(n->scalar, "~") ||
		!strcasecmp(n->scalar, "null"));
}

/* A required key: missing is reported at the mapping that lacks it. */
static const gp_yaml_node *need(loader *L, const gp_yaml_node *map,
				const char *key, const char *where)
{
	const gp_yaml_node *v = gp_yaml_get(map, key);

	if (!v)
		gp_yaml_error(&L->doc, map, L->err, "%s: missing '%s'", where, key);
	return v;
}

/* A name: non-empty scalar, short, no control characters or spaces. */
static int get_name(loader *L, const gp_yaml_node *n, const char *wh,
		    const char **out)
{
	const char *s;

	if (gp_yaml_str(&L->doc, n, wh, &s, L->err))
		return GP_EINPUT;
	if (!*s)
		return gp_yaml_error(&L->doc, n, L->err, "%s is empty", wh);
	if (strlen(s) > NAME_MAX_LEN)
		return gp_yaml_error(&L->doc, n, L->err,
				     "%s is longer than %d characters", wh,
				     NAME_MAX_LEN);
	for (const char *p = s; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			return gp_yaml_error(&L->doc, n, L->err,
					     "%s '%.40s' contains a space or control character",
					     wh, s);
	*out = s;
	return GP_OK;
}

/* -- gpu_models -- */

static const char *const model_keys[] = {
	"base", "vendor", "mem_gib", "mem_bw_gbs", "mem_bw_gbyte_s", "fp16_tflops", "fp32_tflops",
	"nvlink_gen", "nvlink_gbs_per_link", "nvlink_gbyte_s_per_link", "nvlink_links",
	"nvlink_nccl_gbs", "nvlink_nccl_gbyte_s",
	"pcie_gen", "pcie_lanes", "tdp_w", "bf16", "efficiency", "alpha_us",
	"overlap", NULL
};

static int opt_double(loader *L, const gp_yaml_node *map, const char *key,
		      const char *owner, double min, double max, double *out)
{
	const gp_yaml_node *v = gp_yaml_get(map, key);

	if (!v)
		return GP_OK;
	return gp_yaml_double(&L->doc, v, what(L, "%s '%s'", owner, key), min,
			      max, out, L->err);
}

/* A key or its unit-explicit name (mem_bw_gbs = mem_bw_gbyte_s, nic_gbps
 * = nic_gbit_s): the one given into *out and *name, NULL when neither;
 * both is an error. */
static int unit_key(loader *L, const gp_yaml_node *map, const char *key, const char *unit_name,
		    const char *owner, const gp_yaml_node **out, const char **name)
{
	const gp_yaml_node *a = gp_yaml_get(map, key), *b = gp_yaml_get(map, unit_name);

	if (a && b)
		return gp_yaml_error(&L->doc, b, L->err, "%s: give '%s' or its older name '%s', not both",
				     owner, unit_name, key);
	*out = a ? a : b;
	*name = a ? key : unit_name;
	return GP_OK;
}

static int opt_double_unit(loader *L, const gp_yaml_node *map, const char *key,
			   const char *unit_name, const char *owner, double min, double max,
			   double *out)
{
	const gp_yaml_node *v;
	const char *name;

	if (unit_key(L, map, key, unit_name, owner, &v, &name))
		return GP_EINPUT;
	if (!v)
		return GP_OK;
	return gp_yaml_double(&L->doc, v, what(L, "%s '%s'", owner, name), min, max, out, L->err);
}

static int opt_int(loader *L, const gp_yaml_node *map, const char *key,
		   const char *owner, long min, long max, int *out)
{
	const gp_yaml_node *v = gp_yaml_get(map, key);
	long x;

	if (!v)
		return GP_OK;
	if (gp_yaml_long(&L->doc, v, what(L, "%s '%s'", owner, key), min, max,
			 &x, L->err))
		return GP_EINPUT;
	*out = (int)x;
	return GP_OK;
}

static int load_model(loader *L, const gp_yaml_node *key,
		      const gp_yaml_node *v)
{
	gp_catalog *cat = &L->c->catalog;
	const gp_gpu_model *from = NULL;
	const gp_yaml_node *base = gp_yaml_get(v, "base");
	char owner[96];
	gp_gpu_model m;
	const char *name, *s;

	if (get_name(L, key, "GPU model name", &name))
		return GP_EINPUT;
	if (strlen(name) >= sizeof(m.name))
		return gp_yaml_error(&L->doc, key, L->err,
				     "GPU model name '%s' is longer than %zu characters",
				     name, sizeof(m.name) - 1);
	snprintf(owner, sizeof(owner), "gpu_models.%s", name);
	if (gp_yaml_check_keys(&L->doc, v, owner, model_keys, L->err))
		return GP_EINPUT;
	if (base) {
		if (gp_yaml_str(&L->doc, base, what(L, "%s 'base'", owner), &s, L->err))
			return GP_EINPUT;
		from = gp_catalog_find(cat, s);
		if (!from)
			return gp_yaml_error(&L->doc, base, L->err,
					     "%s: unknown base model '%s'", owner, s);
	} else {
		from = gp_catalog_find(cat, name);
	}
	if (from) {
		m = *from;
	} else {
		memset(&m, 0, sizeof(m));
		m.pcie_gen = 4;
		m.pcie_lanes = 16;
		if (!gp_yaml_get(v, "mem_gib") || !gp_yaml_get(v, "fp16_tflops"))
			return gp_yaml_error(&L->doc, key, L->err,
					     "%s: a new GPU model needs 'mem_gib' and 'fp16_tflops' (or a 'base')",
					     owner);
	}
	snprintf(m.name, sizeof(m.name), "%s", name);
	if (gp_yaml_get(v, "vendor")) {
		if (gp_yaml_str(&L->doc, gp_yaml_get(v, "vendor"),
				what(L, "%s 'vendor'", owner), &s, L->err))
			return GP_EINPUT;
		snprintf(m.vendor, sizeof(m.vendor), "%s", s);
	}
	if (opt_double(L, v, "mem_gib", owner, 0.001, 1e5, &m.mem_gib) ||
	    opt_double_unit(L, v, "mem_bw_gbs", "mem_bw_gbyte_s", owner, 0, 1e6, &m.mem_bw_gbs) ||
	    opt_double(L, v, "fp16_tflops", owner, 0.001, 1e6, &m.fp16_tflops) ||
	    opt_double(L, v, "fp32_tflops", owner, 0, 1e6, &m.fp32_tflops) ||
	    opt_int(L, v, "nvlink_gen", owner, 0, 9, &m.nvlink_gen) ||
	    opt_double_unit(L, v, "nvlink_gbs_per_link", "nvlink_gbyte_s_per_link", owner, 0, 1e4,
			    &m.nvlink_gbs_per_link) ||
	    opt_int(L, v, "nvlink_links", owner, 0, 64, &m.nvlink_links) ||
	    opt_double_unit(L, v, "nvlink_nccl_gbs", "nvlink_nccl_gbyte_s", owner, 0, 1e4,
			    &m.nvlink_nccl_gbs) ||
	    opt_int(L, v, "pcie_gen", owner, 1, 7, &m.pcie_gen) ||
	    opt_int(L, v, "pcie_lanes", owner, 1, 32, &m.pcie_lanes) ||
	    opt_int(L, v, "tdp_w", owner, 0, 100000, &m.tdp_w) ||
	    opt_double(L, v, "efficiency", owner, 0, 1, &m.efficiency) ||
	    opt_double(L, v, "alpha_us", owner, 0, 1e6, &m.alpha_us) ||
	    opt_double(L, v, "overlap", owner, 0, 1, &m.overlap))
		return GP_EINPUT;
	if (gp_yaml_get(v, "bf16") &&
	    gp_yaml_bool(&L->doc, gp_yaml_get(v, "bf16"),
			 what(L, "%s 'bf16'", owner), &m.bf16, L->err))
		return GP_EINPUT;
	gp_catalog_put(cat, &m);
	return GP_OK;
}

static int load_models(loader *L, const gp_yaml_node *map)
{
	size_t i;

	if (gp_yaml_expect(&L->doc, map, GP_YAML_MAP, "'gpu_models'", L->err))
		return GP_EINPUT;
	for (i = 0; i < map->n; i++)
		if (load_model(L, map->keys[i], map->items[i]))
			return GP_EINPUT;
	return GP_OK;
}

/* -- node types -- */

/* The keys `gpuplan topo import` writes, plus the cluster's own. */
static const char *const type_keys[] = {
	"topology", "gpu_model", "cpus", "memory_gib", "subnets",
	"name", "source", "quirks", "gpus", "nics", "devices", "links",
	"p2p", "gdr", "nic_gbps", "nic_gbit_s", "nic_cards", NULL
};
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

	if (is_null(v)) {
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

	if (get_name(L, v, wh, &s))
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
	if (is_null(v))
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
		if (get_id(L, need(L, g, "id", gw) ? gp_yaml_get(g, "id") : NULL,
			   what(L, "%s 'id'", gw), topo->gpus[i].id,
			   sizeof(topo->gpus[i].id)))
			return GP_EINPUT;
		if (gp_yaml_get(g, "cpus") &&
		    load_cpus(L, gp_yaml_get(g, "cpus"), what(L, "%s 'cpus'", gw),
			      &topo->gpus[i]))
			return GP_EINPUT;
		if (gp_yaml_get(g, "numa") &&
		    int_or_null(L, gp_yaml_get(g, "numa"), what(L, "%s 'numa'", gw),
				0, 4095, &topo->gpus[i].numa))
			return GP_EINPUT;
		if (gp_yaml_get(g, "gpu_numa_id") &&
		    int_or_null(L, gp_yaml_get(g, "gpu_numa_id"),
				what(L, "%s 'gpu_numa_id'", gw), 0, 4095,
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
		if (get_id(L, need(L, n, "id", nw) ? gp_yaml_get(n, "id") : NULL,
			   what(L, "%s 'id'", nw), topo->nics[j].id,
			   sizeof(topo->nics[j].id)))
			return GP_EINPUT;
		dev = gp_yaml_get(n, "device");
		if (dev && !is_null(dev) &&
		    get_id(L, dev, what(L, "%s 'device'", nw), topo->nics[j].device,
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

	if (gp_yaml_expect(&L->doc, devs, GP_YAML_SEQ, what(L, "%s 'devices'", owner), L->err))
		return GP_EINPUT;
	if ((int)devs->n != nd)
		return gp_yaml_error(&L->doc, devs, L->err,
				     "%s: 'devices' has %zu entries, expected %d (GPUs then NICs)",
				     owner, devs->n, nd);
	for (i = 0; i < nd; i++) {
		const char *id = i < ng ? topo->gpus[i].id : topo->nics[i - ng].id;
		const char *s;

		if (gp_yaml_str(&L->doc, devs->items[i], what(L, "%s device", owner), &s, L->err))
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

	if (gp_yaml_expect(&L->doc, links, GP_YAML_SEQ, what(L, "%s 'links'", owner), L->err))
		return GP_EINPUT;
	if ((int)links->n != nd)
		return gp_yaml_error(&L->doc, links, L->err,
				     "%s: 'links' has %zu rows, expected %d", owner,
				     links->n, nd);
	for (i = 0; i < nd; i++) {
		const gp_yaml_node *row = links->items[i];

		if (gp_yaml_expect(&L->doc, row, GP_YAML_SEQ, what(L, "%s links row", owner),
				   L->err))
			return GP_EINPUT;
		if ((int)row->n != nd)
			return gp_yaml_error(&L->doc, row, L->err,
					     "%s: links row %d has %zu cells, expected %d",
					     owner, i, row->n, nd);
		for (j = 0; j < nd; j++) {
			const char *s;

			if (gp_yaml_str(&L->doc, row->items[j], what(L, "%s link", owner),
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

static int load_inline_topo(loader *L, const gp_yaml_node *v,
			    const char *tname, gp_node_type *t)
{
	const gp_yaml_node *gpus = need(L, v, "gpus", what(L, "node type '%s'", tname));
	const gp_yaml_node *nics;
	gp_topo *topo = &t->topo;
	char owner[200];
	int ng, nn, j;

	if (!gpus)
		return GP_EINPUT;
	snprintf(owner, sizeof(owner), "node type '%s'", tname);
	if (!need(L, v, "links", owner))
		return GP_EINPUT;
	nics = gp_yaml_get(v, "nics");
	if (gp_yaml_expect(&L->doc, gpus, GP_YAML_SEQ, what(L, "%s 'gpus'", owner), L->err))
		return GP_EINPUT;
	if (nics && !is_null(nics) &&
	    gp_yaml_expect(&L->doc, nics, GP_YAML_SEQ, what(L, "%s 'nics'", owner), L->err))
		return GP_EINPUT;
	ng = (int)(gpus->n < 1000000 ? gpus->n : 1000000);
	nn = nics && !is_null(nics) ? (int)(nics->n < 1000000 ? nics->n : 1000000) : 0;
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

		if (numa && int_or_null(L, numa, what(L, "%s NIC %d 'numa'", owner, j),
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
	if (gp_yaml_check_keys(&F.doc, root, what(&F, "node type '%s' file", tname),
			       topo_file_keys, L->err) ||
	    load_inline_topo(&F, root, tname, t))
		goto out;
	free(t->topo.source);
	t->topo.source = gp_xstrdup(path);
	x = gp_yaml_get(root, "gpu_model");
	if (x && !is_null(x)) {
		if (gp_yaml_str(&F.doc, x, what(&F, "node type '%s' 'gpu_model'", tname), &s, L->err))
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
static int load_topo_file(loader *L, const gp_yaml_node *topo, const char *owner,
			  const char *tname, gp_node_type *t, int *model)
{
	char *path, *text;
	const char *s;
	size_t len;
	int st;
	struct stat sst;

	*model = -1;
	if (gp_yaml_str(&L->doc, topo, what(L, "%s 'topology'", owner), &s, L->err))
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

/* NIC by id ("NIC0") or device name ("mlx5_0"); -1 when absent. */
static int find_nic(const gp_topo *t, const char *name)
{
	int j;

	for (j = 0; j < t->nnics; j++)
		if (!strcmp(t->nics[j].id, name) ||
		    (t->nics[j].device[0] && !strcmp(t->nics[j].device, name)))
			return j;
	return -1;
}

static int set_subnet(loader *L, gp_node_type *t, int nic,
		      const gp_yaml_node *v, const char *wh)
{
	const char *s;

	if (gp_yaml_str(&L->doc, v, wh, &s, L->err))
		return GP_EINPUT;
	if (!*s || strlen(s) > NAME_MAX_LEN)
		return gp_yaml_error(&L->doc, v, L->err,
				     "%s must be 1 to %d characters", wh, NAME_MAX_LEN);
	if (!t->nic_subnets)
		t->nic_subnets = gp_xcalloc((size_t)t->topo.nnics + 1, sizeof(char *));
	free(t->nic_subnets[nic]);
	t->nic_subnets[nic] = gp_xstrdup(s);
	return GP_OK;
}

/* The perf model's node-type keys (issue 15): p2p (on, off, default or
 * an `nvidia-smi topo -p2p r` file), gdr, nic_gbps (one rate for every
 * NIC, or a map by NIC id or device) and nic_cards (lists of the NICs
 * that are ports of one card). */
static int load_type_perf(loader *L, const gp_yaml_node *v, const char *owner,
			  gp_node_type *t)
{
	gp_topo *topo = &t->topo;
	const gp_yaml_node *x;
	const char *s, *key;
	size_t i, j;
	int b;

	x = gp_yaml_get(v, "p2p");
	if (x) {
		if (gp_yaml_str(&L->doc, x, what(L, "%s 'p2p'", owner), &s, L->err))
			return GP_EINPUT;
		if (!strcmp(s, "on") || !strcmp(s, "true")) {
			topo->p2p_mode = GP_P2P_ON;
		} else if (!strcmp(s, "off") || !strcmp(s, "false")) {
			topo->p2p_mode = GP_P2P_OFF;
		} else if (!strcmp(s, "default")) {
			topo->p2p_mode = GP_P2P_DEFAULT;
		} else if (!*s) {
			return gp_yaml_error(&L->doc, x, L->err, "%s: empty 'p2p'", owner);
		} else {
			char *path = gp_path_relative_to(L->doc.path, s);
			char msg[sizeof(L->err->msg)];
			int st = gp_p2p_load(path, topo->ngpus, &topo->p2p, L->err);

			free(path);
			if (st) {
				snprintf(msg, sizeof(msg), "%s", L->err->msg);
				return gp_yaml_error(&L->doc, x, L->err, "%s: p2p '%s': %s",
						     owner, s, msg);
			}
		}
	}
	x = gp_yaml_get(v, "gdr");
	if (x) {
		if (gp_yaml_bool(&L->doc, x, what(L, "%s 'gdr'", owner), &b, L->err))
			return GP_EINPUT;
		topo->no_gdr = !b;
	}
	if (unit_key(L, v, "nic_gbps", "nic_gbit_s", owner, &x, &key))
		return GP_EINPUT;
	if (x && x->type == GP_YAML_MAP) {
		for (i = 0; i < x->n; i++) {
			int nic = find_nic(topo, x->keys[i]->scalar);

			if (nic < 0)
				return gp_yaml_error(&L->doc, x->keys[i], L->err,
						     "%s: '%s' names NIC '%.40s', which the topology does not have",
						     owner, key, x->keys[i]->scalar);
			if (gp_yaml_double(&L->doc, x->items[i],
					   what(L, "%s '%s' of '%s'", owner, key,
						x->keys[i]->scalar),
					   0.001, 1e5, &topo->nics[nic].gbps, L->err))
				return GP_EINPUT;
		}
	} else if (x) {
		double g;

		if (gp_yaml_double(&L->doc, x, what(L, "%s '%s'", owner, key), 0.001, 1e5, &g,
				   L->err))
			return GP_EINPUT;
		for (i = 0; i < (size_t)topo->nnics; i++)
			topo->nics[i].gbps = g;
	}
	x = gp_yaml_get(v, "nic_cards");
	if (x) {
		if (gp_yaml_expect(&L->doc, x, GP_YAML_SEQ, what(L, "%s 'nic_cards'", owner),
				   L->err))
			return GP_EINPUT;
		for (i = 0; i < x->n; i++) {
			const gp_yaml_node *card = x->items[i];

			if (gp_yaml_expect(&L->doc, card, GP_YAML_SEQ,
					   what(L, "%s 'nic_cards' entry %zu", owner, i + 1), L->err))
				return GP_EINPUT;
			for (j = 0; j < card->n; j++) {
				int nic;

				if (gp_yaml_str(&L->doc, card->items[j],
						what(L, "%s 'nic_cards' entry %zu", owner, i + 1),
						&s, L->err))
					return GP_EINPUT;
				nic = find_nic(topo, s);
				if (nic < 0)
					return gp_yaml_error(&L->doc, card->items[j], L->err,
							     "%s: 'nic_cards' names NIC '%.40s', which the topology does not have",
							     owner, s);
				if (topo->nics[nic].card >= 0)
					return gp_yaml_error(&L->doc, card->items[j], L->err,
							     "%s: NIC '%.40s' is on two cards in 'nic_cards'",
							     owner, s);
				topo->nics[nic].card = (int)i;
			}
		}
	}
	return GP_OK;
}

static int load_type(loader *L, const gp_yaml_node *key, const gp_yaml_node *v)
{
	gp_cluster *c = L->c;
	const gp_yaml_node *topo = gp_yaml_get(v, "topology");
	const gp_yaml_node *x;
	gp_node_type *t;
	gp_topo empty;
	const char *name, *s;
	char owner[200];
	long n;
	size_t i;
	int k, file_model;

	if (get_name(L, key, "node type name", &name))
		return GP_EINPUT;
	snprintf(owner, sizeof(owner), "node type '%s'", name);
	if (gp_yaml_check_keys(&L->doc, v, what(L, "node type '%s'", name),
			       type_keys, L->err))
		return GP_EINPUT;
	gp_topo_init(&empty);
	k = gp_cluster_add_type(c, name, &empty, -1);
	t = &c->types[k];
	t->line = key->line;
	t->col = key->col;
	if (topo && gp_yaml_get(v, "gpus"))
		return gp_yaml_error(&L->doc, gp_yaml_get(v, "gpus"), L->err,
				     "%s: give either 'topology' (a snapshot file) or an inline 'gpus'/'links', not both",
				     owner);
	if (topo) {
		if (load_topo_file(L, topo, owner, name, t, &file_model))
			return GP_EINPUT;
		if (file_model >= 0)
			t->gpu_model = file_model;
	} else if (load_inline_topo(L, v, name, t)) {
		return GP_EINPUT;
	}
	x = gp_yaml_get(v, "gpu_model");
	if (x && !is_null(x)) {
		if (gp_yaml_str(&L->doc, x, what(L, "%s 'gpu_model'", owner), &s, L->err))
			return GP_EINPUT;
		t->gpu_model = gp_catalog_index(&c->catalog, s);
		if (t->gpu_model < 0)
			return gp_yaml_error(&L->doc, x, L->err,
					     "%s: unknown GPU model '%s' (see 'gpuplan topo show --models', or add it under 'gpu_models')",
					     owner, s);
	}
	x = gp_yaml_get(v, "cpus");
	if (x) {
		if (gp_yaml_long(&L->doc, x, what(L, "%s 'cpus'", owner), 1,
				 GP_TOPO_MAX_CPUS, &n, L->err))
			return GP_EINPUT;
		t->cpu_count = (int)n;
	}
	x = gp_yaml_get(v, "memory_gib");
	if (x && gp_yaml_double(&L->doc, x, what(L, "%s 'memory_gib'", owner),
				0.001, 1 << 24, &t->mem_gib, L->err))
		return GP_EINPUT;
	/* subnets: {NIC0: 10.0.0.0/24} or per NIC in the inline list. */
	if (!topo && gp_yaml_get(v, "nics") && !is_null(gp_yaml_get(v, "nics"))) {
		const gp_yaml_node *nics = gp_yaml_get(v, "nics");

		for (i = 0; i < nics->n; i++) {
			x = gp_yaml_get(nics->items[i], "subnet");
			if (x && !is_null(x) &&
			    set_subnet(L, t, (int)i, x, what(L, "%s NIC %zu 'subnet'", owner, i)))
				return GP_EINPUT;
		}
	}
	if (load_type_perf(L, v, owner, t))
		return GP_EINPUT;
	x = gp_yaml_get(v, "subnets");
	if (x) {
		if (gp_yaml_expect(&L->doc, x, GP_YAML_MAP, what(L, "%s 'subnets'", owner),
				   L->err))
			return GP_EINPUT;
		for (i = 0; i < x->n; i++) {
			int nic = find_nic(&t->topo, x->keys[i]->scalar);

			if (nic < 0)
				return gp_yaml_error(&L->doc, x->keys[i], L->err,
						     "%s: 'subnets' names NIC '%.40s', which the topology does not have",
						     owner, x->keys[i]->scalar);
			if (set_subnet(L, t, nic, x->items[i],
				       what(L, "%s subnet of '%s'", owner,
					    x->keys[i]->scalar)))
				return GP_EINPUT;
		}
	}
	return GP_OK;
}

static int load_types(loader *L, const gp_yaml_node *map)
{
	size_t i;

	if (gp_yaml_expect(&L->doc, map, GP_YAML_MAP, "'node_types'", L->err))
		return GP_EINPUT;
	if (map->n == 0)
		return gp_yaml_error(&L->doc, map, L->err, "'node_types' is empty");
	for (i = 0; i < map->n; i++) {
		if (gp_yaml_expect(&L->doc, map->items[i], GP_YAML_MAP,
				   what(L, "node type '%s'", map->keys[i]->scalar),
				   L->err))
			return GP_EINPUT;
		if (load_type(L, map->keys[i], map->items[i]))
			return GP_EINPUT;
	}
	return GP_OK;
}

/* -- fabric -- */

static const char *const switch_keys[] = {
	"name", "parent", "tech", "congestion", "adaptive_routing", "sharp", NULL
};

/* The perf model's fabric keys of one switch (inherited when absent). */
static int load_switch_perf(loader *L, const gp_yaml_node *s, gp_switch *sw)
{
	const gp_yaml_node *x;
	int b;

	x = gp_yaml_get(s, "congestion");
	if (x && gp_yaml_double(&L->doc, x, what(L, "switch '%s' 'congestion'", sw->name),
				0, 100, &sw->congestion, L->err))
		return GP_EINPUT;
	x = gp_yaml_get(s, "adaptive_routing");
	if (x) {
		if (gp_yaml_bool(&L->doc, x, what(L, "switch '%s' 'adaptive_routing'", sw->name),
				 &b, L->err))
			return GP_EINPUT;
		sw->adaptive_routing = b;
	}
	x = gp_yaml_get(s, "sharp");
	if (x) {
		if (gp_yaml_bool(&L->doc, x, what(L, "switch '%s' 'sharp'", sw->name), &b,
				 L->err))
			return GP_EINPUT;
		sw->sharp = b;
	}
	return GP_OK;
}

static void tech_list(char *buf, size_t size)
{
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 1; i < GP_TECH_COUNT && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i > 1 ? ", " : "",
					gp_fabric_tech_name(i));
}

static int load_fabric(loader *L, const gp_yaml_node *seq)
{
	gp_cluster *c = L->c;
	size_t i;
	int k;

	if (gp_yaml_expect(&L->doc, seq, GP_YAML_SEQ, "'fabric'", L->err))
		return GP_EINPUT;
	if (seq->n > GP_CLUSTER_MAX_NODES)
		return gp_yaml_error(&L->doc, seq, L->err,
				     "'fabric' has more than %d switches", GP_CLUSTER_MAX_NODES);
	/* Pass 1: names and technologies (parents may come later). */
	for (i = 0; i < seq->n; i++) {
		const gp_yaml_node *s = seq->items[i], *nm, *tech;
		const char *name, *ts;
		int t = GP_TECH_NONE;

		if (gp_yaml_check_keys(&L->doc, s, what(L, "fabric entry %zu", i + 1),
				       switch_keys, L->err))
			return GP_EINPUT;
		nm = need(L, s, "name", what(L, "fabric entry %zu", i + 1));
		if (!nm || get_name(L, nm, "switch name", &name))
			return GP_EINPUT;
		k = gp_cluster_find_switch(c, name);
		if (k >= 0)
			return gp_yaml_error(&L->doc, nm, L->err,
					     "duplicate switch name '%s' (first at line %d)",
					     name, c->switches[k].line);
		tech = gp_yaml_get(s, "tech");
		if (tech) {
			if (gp_yaml_str(&L->doc, tech, what(L, "switch '%s' 'tech'", name),
					&ts, L->err))
				return GP_EINPUT;
			t = gp_fabric_tech_parse(ts);
			if (t < 0) {
				char list[400];

				tech_list(list, sizeof(list));
				return gp_yaml_error(&L->doc, tech, L->err,
						     "switch '%s': unknown tech '%.40s' (one of %s)",
						     name, ts, list);
			}
		}
		k = gp_cluster_add_switch(c, name, -1, t);
		c->switches[k].line = nm->line;
		c->switches[k].col = nm->col;
		if (load_switch_perf(L, s, &c->switches[k]))
			return GP_EINPUT;
	}
	/* Pass 2: parents. */
	for (i = 0; i < seq->n; i++) {
		const gp_yaml_node *p = gp_yaml_get(seq->items[i], "parent");
		const char *ps;

		if (!p || is_null(p))
			continue;
		if (gp_yaml_str(&L->doc, p, what(L, "switch '%s' 'parent'",
						 c->switches[i].name), &ps, L->err))
			return GP_EINPUT;
		k = gp_cluster_find_switch(c, ps);
		if (k < 0)
			return gp_yaml_error(&L->doc, p, L->err,
					     "switch '%s': parent '%.60s' is not a switch in 'fabric'",
					     c->switches[i].name, ps);
		if (k == (int)i)
			return gp_yaml_error(&L->doc, p, L->err,
					     "switch '%s' is its own parent", ps);
		c->switches[i].parent = k;
	}
	return GP_OK;
}

/* -- nodes -- */

static const char *const node_keys[] = {
	"name", "type", "switch", "count", "labels", "state", NULL
};

static int load_labels(loader *L, const gp_yaml_node *v, gp_label **out,
		       int *nout)
{
	size_t i;

	*out = NULL;
	*nout = 0;
	if (gp_yaml_expect(&L->doc, v, GP_YAML_MAP, "'labels'", L->err))
		return GP_EINPUT;
	if (v->n > 256)
		return gp_yaml_error(&L->doc, v, L->err, "more than 256 labels");
	if (v->n == 0)
		return GP_OK;
	*out = gp_xcalloc(v->n, sizeof(**out));
	for (i = 0; i < v->n; i++) {
		const char *val;

		if (gp_yaml_str(&L->doc, v->items[i],
				what(L, "label '%s'", v->keys[i]->scalar), &val, L->err)) {
			for (int k = 0; k < *nout; k++) {
				free((*out)[k].key);
				free((*out)[k].value);
			}
			free(*out);
			*out = NULL;
			*nout = 0;
			return GP_EINPUT;
		}
		(*out)[i].key = gp_xstrdup(v->keys[i]->scalar);
		(*out)[i].value = gp_xstrdup(val);
		(*nout)++;
	}
	return GP_OK;
}

static int load_nodes(loader *L, const gp_yaml_node *seq)
{
	gp_cluster *c = L->c;
	size_t i;

	if (gp_yaml_expect(&L->doc, seq, GP_YAML_SEQ, "'nodes'", L->err))
		return GP_EINPUT;
	if (seq->n == 0)
		return gp_yaml_error(&L->doc, seq, L->err, "'nodes' is empty");
	for (i = 0; i < seq->n; i++) {
		const gp_yaml_node *v = seq->items[i], *nm, *ty, *sw, *x;
		const char *name, *s;
		char owner[200];
		long count = 1, k;
		int type, swi = -1, state = 0, expand;
		gp_hostlist hl;

		snprintf(owner, sizeof(owner), "node entry %zu", i + 1);
		if (gp_yaml_check_keys(&L->doc, v, owner, node_keys, L->err))
			return GP_EINPUT;
		nm = need(L, v, "name", owner);
		if (!nm || get_name(L, nm, "node name", &name))
			return GP_EINPUT;
		snprintf(owner, sizeof(owner), "node '%s'", name);
		ty = need(L, v, "type", owner);
		if (!ty || gp_yaml_str(&L->doc, ty, what(L, "%s 'type'", owner), &s, L->err))
			return GP_EINPUT;
		type = gp_cluster_find_type(c, s);
		if (type < 0)
			return gp_yaml_error(&L->doc, ty, L->err,
					     "%s: type '%.60s' is not in 'node_types'", owner, s);
		sw = gp_yaml_get(v, "switch");
		if (sw && !is_null(sw)) {
			if (gp_yaml_str(&L->doc, sw, what(L, "%s 'switch'", owner), &s, L->err))
				return GP_EINPUT;
			swi = gp_cluster_find_switch(c, s);
			if (swi < 0)
				return gp_yaml_error(&L->doc, sw, L->err,
						     "%s: switch '%.60s' is not in 'fabric'", owner, s);
		}
		x = gp_yaml_get(v, "count");
		expand = x != NULL;
		if (x && gp_yaml_long(&L->doc, x, what(L, "%s 'count'", owner), 1,
				      GP_CLUSTER_MAX_NODES, &count, L->err))
			return GP_EINPUT;
		if (c->nnodes + count > GP_CLUSTER_MAX_NODES)
			return gp_yaml_error(&L->doc, x ? x : nm, L->err,
					     "more than %d nodes in the cluster",
					     GP_CLUSTER_MAX_NODES);
		x = gp_yaml_get(v, "state");
		if (x) {
			if (gp_yaml_str(&L->doc, x, what(L, "%s 'state'", owner), &s, L->err))
				return GP_EINPUT;
			if (!strcmp(s, "up"))
				state = 0;
			else if (!strcmp(s, "down"))
				state = 1;
			else if (!strcmp(s, "draining"))
				state = 2;
			else
				return gp_yaml_error(&L->doc, x, L->err,
						     "%s: state '%.40s' is not up, down or draining",
						     owner, s);
		}
		/* a Slurm hostlist as the name ("gpu-[001-016]"): one node each */
		gp_hostlist_init(&hl);
		if (strchr(name, '[')) {
			gp_error herr = GP_ERROR_INIT;

			if (expand) {
				gp_hostlist_release(&hl);
				return gp_yaml_error(&L->doc, nm, L->err,
						     "%s: a hostlist name and 'count' exclude each other",
						     owner);
			}
			if (gp_hostlist_expand(name, strlen(name), &hl, L->doc.path, nm->line,
					       nm->col + (nm->quoted ? 1 : 0), &herr)) {
				*L->err = herr;
				gp_hostlist_release(&hl);
				return GP_EINPUT;
			}
			count = (long)hl.n;
			if (c->nnodes + count > GP_CLUSTER_MAX_NODES) {
				gp_hostlist_release(&hl);
				return gp_yaml_error(&L->doc, nm, L->err,
						     "more than %d nodes in the cluster",
						     GP_CLUSTER_MAX_NODES);
			}
		}
		for (k = 0; k < count; k++) {
			char *nname = expand ? gp_xasprintf("%s-%ld", name, k) : NULL;
			int id = gp_cluster_add_node(c, nname ? nname : hl.n ? hl.names[k] : name, type,
						     swi);
			gp_node *n = &c->nodes[id];

			free(nname);
			n->line = nm->line;
			n->col = nm->col;
			n->state = state;
			x = gp_yaml_get(v, "labels");
			if (x && load_labels(L, x, &n->labels, &n->nlabels)) {
				gp_hostlist_release(&hl);
				return GP_EINPUT;
			}
		}
		gp_hostlist_release(&hl);
	}
	return GP_OK;
}

static const char *const top_keys[] = {
	"name", "description", "gpu_models", "node_types", "fabric", "nodes", NULL
};

/* own: the caller's copy of text, freed once parsed (memory: the tree and
 * the cluster need not sit beside it). */
static int cluster_parse(const char *text, size_t len, char **own, const char *filename,
			 gp_cluster *c, gp_error *err)
{
	loader L;
	const gp_yaml_node *root, *x;
	const char *nul;
	int st;

	gp_cluster_init(c);
	c->path = gp_xstrdup(filename);
	gp_catalog_init_builtin(&c->catalog);
	L.c = c;
	L.err = err;
	gp_yaml_doc_init(&L.doc);
	nul = memchr(text, '\0', len);
	if (nul) {
		/* Locate it: YAML text never holds a NUL byte. */
		int line = 1, col = 1;

		for (const char *p = text; p < nul; p++, col++)
			if (*p == '\n') {
				line++;
				col = 0;
			}
		st = gp_error_set(err, GP_EINPUT, filename, line, col,
				  "binary data (a NUL byte), not a cluster YAML file");
		goto out;
	}
	st = gp_yaml_parse(text, len, filename, GP_YAML_MAX_DEPTH, &L.doc, err);
	if (own) {
		free(*own);
		*own = NULL;
	}
	if (st)
		goto out;
	root = L.doc.root;
	if (!root) {
		st = gp_error_set(err, GP_EINPUT, filename, 1, 1,
				  "empty cluster file (expected 'node_types' and 'nodes')");
		goto out;
	}
	st = GP_EINPUT;
	if (root->type != GP_YAML_MAP) {
		gp_yaml_error(&L.doc, root, err,
			      "a cluster file must be a mapping with 'node_types' and 'nodes'");
		goto out;
	}
	if (gp_yaml_check_keys(&L.doc, root, "the cluster file", top_keys, err))
		goto out;
	x = gp_yaml_get(root, "name");
	if (x) {
		const char *s;

		if (gp_yaml_str(&L.doc, x, "'name'", &s, err))
			goto out;
		c->name = gp_xstrdup(s);
	}
	x = gp_yaml_get(root, "description");
	if (x && gp_yaml_expect(&L.doc, x, GP_YAML_SCALAR, "'description'", err))
		goto out;
	x = gp_yaml_get(root, "gpu_models");
	if (x && load_models(&L, x))
		goto out;
	x = need(&L, root, "node_types", "cluster file");
	if (!x || load_types(&L, x))
		goto out;
	x = gp_yaml_get(root, "fabric");
	if (x && !is_null(x) && load_fabric(&L, x))
		goto out;
	x = need(&L, root, "nodes", "cluster file");
	if (!x || load_nodes(&L, x))
		goto out;
	st = gp_cluster_finish(c, err);
out:
	gp_yaml_doc_release(&L.doc);
	if (st)
		gp_cluster_release(c);
	return st;
}

int gp_cluster_parse(const char *text, size_t len, const char *filename,
		     gp_cluster *c, gp_error *err)
{
	return cluster_parse(text, len, NULL, filename, c, err);
}

int gp_cluster_load(const char *path, gp_cluster *c, gp_error *err)
{
	char *text;
	size_t len;
	int st;

	gp_cluster_init(c);
	st = gp_read_file(path, GP_CLUSTER_MAX_FILE, &text, &len, err);
	if (st)
		return st;
	/* An Alibaba openb node list (FGD's cluster format) instead of YAML. */
	if (len >= 12 && !memcmp(text, "sn,cpu_milli", 12)) {
		free(text);
		return gp_cluster_load_openb(path, c, err);
	}
	st = cluster_parse(text, len, &text, path, c, err);
	free(text);
	return st;
}
