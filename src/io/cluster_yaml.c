/* Cluster YAML loader (format: man gpuplan(1), FILES, "Cluster YAML").
 * It walks the document tree of io/yaml.c and reports the first problem
 * with the position of the offending node. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/io/openb.h"
#include "gpuplan/io/snapshot.h"
#include "gpuplan/io/yaml.h"
#include "gpuplan/model/cluster.h"
#include "gpuplan/util/pool.h"
#include "gpuplan/util/util.h"
#include "cluster_int.h"


/* ---- the YAML loader ---- */


const char *gp_cy_what(loader *L, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(L->what, sizeof(L->what), fmt, ap);
	va_end(ap);
	return L->what;
}

int gp_cy_is_null(const gp_yaml_node *n)
{
	return n && n->type == GP_YAML_SCALAR && !n->quoted &&
	       (!n->scalar[0] || !strcmp(n->scalar, "~") ||
		!strcasecmp(n->scalar, "null"));
}

/* A required key: missing is reported at the mapping that lacks it. */
const gp_yaml_node *gp_cy_need(loader *L, const gp_yaml_node *map, const char *key,
			       const char *where)
{
	const gp_yaml_node *v = gp_yaml_get(map, key);

	if (!v)
		gp_yaml_error(&L->doc, map, L->err, "%s: missing '%s'", where, key);
	return v;
}

/* A name: non-empty scalar, short, no control characters or spaces. */
int gp_cy_get_name(loader *L, const gp_yaml_node *n, const char *wh, const char **out)
{
	const char *s;

	if (gp_yaml_str(&L->doc, n, wh, &s, L->err))
		return GP_EINPUT;
	if (!*s)
		return gp_yaml_error(&L->doc, n, L->err, "%s is empty", wh);
	if (strlen(s) > GP_CLUSTER_NAME_MAX)
		return gp_yaml_error(&L->doc, n, L->err,
				     "%s is longer than %d characters", wh,
				     GP_CLUSTER_NAME_MAX);
	for (const char *p = s; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			return gp_yaml_error(&L->doc, n, L->err,
					     "%s '%.40s' contains a space or control character",
					     wh, s);
	*out = s;
	return GP_OK;
}

/* A key or its unit-explicit name (mem_bw_gbs = mem_bw_gbyte_s, nic_gbps
 * = nic_gbit_s): the one given into *out and *name, NULL when neither;
 * both is an error. */
int gp_cy_unit_key(loader *L, const gp_yaml_node *map, const char *key, const char *unit_name,
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

/* -- node types -- */

/* The keys `gpuplan topo import` writes, plus the cluster's own. */
static const char *const type_keys[] = {
	"topology", "gpu_model", "cpus", "memory_gib", "subnets",
	"name", "source", "quirks", "gpus", "nics", "devices", "links",
	"p2p", "gdr", "nic_gbps", "nic_gbit_s", "nic_cards", "socket_gbs", "host_mem_gbs", NULL
};

/* The link between CPU sockets by CPU family, GB/s per direction as
 * NCCL's topology rates it (src/graph/topo.h: BDW_QPI_BW, SKL_QPI_BW,
 * SRP_QPI_BW, ERP_QPI_BW, AMD_BW, P9_BW, ARM_BW, ZPI_BW). */
static const struct {
	const char *name;
	double gbs;
} socket_links[] = {
	{ "broadwell", 6.0 },      { "skylake", 10.0 }, { "sapphire-rapids", 22.0 },
	{ "emerald-rapids", 40.0 }, { "amd", 16.0 },     { "power9", 32.0 },
	{ "arm", 6.0 },            { "zhaoxin", 6.0 },
};

/* socket_gbs: GB/s, or a CPU family of socket_links. */
static int load_socket_gbs(loader *L, const gp_yaml_node *x, const char *owner, gp_topo *topo)
{
	size_t i;

	if (x->type == GP_YAML_SCALAR)
		for (i = 0; i < GP_ARRAY_SIZE(socket_links); i++)
			if (!strcmp(x->scalar, socket_links[i].name)) {
				topo->socket_gbs = socket_links[i].gbs;
				return GP_OK;
			}
	if (x->type == GP_YAML_SCALAR && x->scalar[0] && !strchr("0123456789.+-", x->scalar[0]))
		return gp_yaml_error(&L->doc, x, L->err,
				     "%s: 'socket_gbs' wants GB/s or a CPU family (broadwell, skylake, "
				     "sapphire-rapids, emerald-rapids, amd, power9, arm, zhaoxin), not '%.40s'",
				     owner, x->scalar);
	return gp_yaml_double(&L->doc, x, gp_cy_what(L, "%s 'socket_gbs'", owner), 0.1, 1000.0,
			      &topo->socket_gbs, L->err);
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
	if (!*s || strlen(s) > GP_CLUSTER_NAME_MAX)
		return gp_yaml_error(&L->doc, v, L->err,
				     "%s must be 1 to %d characters", wh, GP_CLUSTER_NAME_MAX);
	if (!t->nic_subnets)
		t->nic_subnets = gp_xcalloc((size_t)t->topo.nnics + 1, sizeof(char *));
	free(t->nic_subnets[nic]);
	t->nic_subnets[nic] = gp_xstrdup(s);
	return GP_OK;
}

/* The perf model's node-type keys: p2p (on, off, default or
 * an `nvidia-smi topo -p2p r` file), gdr, nic_gbps (one rate for every
 * NIC, or a map by NIC id or device), nic_cards (lists of the NICs
 * that are ports of one card), socket_gbs (the link between the CPU
 * sockets) and host_mem_gbs (what one NUMA node's memory gives traffic
 * staged through it). */
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
		if (gp_yaml_str(&L->doc, x, gp_cy_what(L, "%s 'p2p'", owner), &s, L->err))
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
	x = gp_yaml_get(v, "socket_gbs");
	if (x && load_socket_gbs(L, x, owner, topo))
		return GP_EINPUT;
	x = gp_yaml_get(v, "host_mem_gbs");
	if (x && gp_yaml_double(&L->doc, x, gp_cy_what(L, "%s 'host_mem_gbs'", owner), 1.0,
				100000.0, &topo->host_mem_gbs, L->err))
		return GP_EINPUT;
	x = gp_yaml_get(v, "gdr");
	if (x) {
		if (gp_yaml_bool(&L->doc, x, gp_cy_what(L, "%s 'gdr'", owner), &b, L->err))
			return GP_EINPUT;
		topo->no_gdr = !b;
	}
	if (gp_cy_unit_key(L, v, "nic_gbps", "nic_gbit_s", owner, &x, &key))
		return GP_EINPUT;
	if (x && x->type == GP_YAML_MAP) {
		for (i = 0; i < x->n; i++) {
			int nic = find_nic(topo, x->keys[i]->scalar);

			if (nic < 0)
				return gp_yaml_error(&L->doc, x->keys[i], L->err,
						     "%s: '%s' names NIC '%.40s', which the topology does not have",
						     owner, key, x->keys[i]->scalar);
			if (gp_yaml_double(&L->doc, x->items[i],
					   gp_cy_what(L, "%s '%s' of '%s'", owner, key,
						x->keys[i]->scalar),
					   0.001, 1e5, &topo->nics[nic].gbps, L->err))
				return GP_EINPUT;
		}
	} else if (x) {
		double g;

		if (gp_yaml_double(&L->doc, x, gp_cy_what(L, "%s '%s'", owner, key), 0.001, 1e5, &g,
				   L->err))
			return GP_EINPUT;
		for (i = 0; i < (size_t)topo->nnics; i++)
			topo->nics[i].gbps = g;
	}
	x = gp_yaml_get(v, "nic_cards");
	if (x) {
		if (gp_yaml_expect(&L->doc, x, GP_YAML_SEQ, gp_cy_what(L, "%s 'nic_cards'", owner),
				   L->err))
			return GP_EINPUT;
		for (i = 0; i < x->n; i++) {
			const gp_yaml_node *card = x->items[i];

			if (gp_yaml_expect(&L->doc, card, GP_YAML_SEQ,
					   gp_cy_what(L, "%s 'nic_cards' entry %zu", owner, i + 1), L->err))
				return GP_EINPUT;
			for (j = 0; j < card->n; j++) {
				int nic;

				if (gp_yaml_str(&L->doc, card->items[j],
						gp_cy_what(L, "%s 'nic_cards' entry %zu", owner, i + 1),
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

	if (gp_cy_get_name(L, key, "node type name", &name))
		return GP_EINPUT;
	snprintf(owner, sizeof(owner), "node type '%s'", name);
	if (gp_yaml_check_keys(&L->doc, v, gp_cy_what(L, "node type '%s'", name),
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
		if (gp_cy_load_topo_file(L, topo, owner, name, t, &file_model))
			return GP_EINPUT;
		if (file_model >= 0)
			t->gpu_model = file_model;
	} else if (gp_cy_load_inline_topo(L, v, name, t)) {
		return GP_EINPUT;
	}
	x = gp_yaml_get(v, "gpu_model");
	if (x && !gp_cy_is_null(x)) {
		if (gp_yaml_str(&L->doc, x, gp_cy_what(L, "%s 'gpu_model'", owner), &s, L->err))
			return GP_EINPUT;
		t->gpu_model = gp_catalog_index(&c->catalog, s);
		if (t->gpu_model < 0)
			return gp_yaml_error(&L->doc, x, L->err,
					     "%s: unknown GPU model '%s' (see 'gpuplan topo show --models', or add it under 'gpu_models')",
					     owner, s);
	}
	x = gp_yaml_get(v, "cpus");
	if (x) {
		if (gp_yaml_long(&L->doc, x, gp_cy_what(L, "%s 'cpus'", owner), 1,
				 GP_TOPO_MAX_CPUS, &n, L->err))
			return GP_EINPUT;
		t->cpu_count = (int)n;
	}
	x = gp_yaml_get(v, "memory_gib");
	if (x && gp_yaml_double(&L->doc, x, gp_cy_what(L, "%s 'memory_gib'", owner),
				0.001, 1 << 24, &t->mem_gib, L->err))
		return GP_EINPUT;
	/* subnets: {NIC0: 10.0.0.0/24} or per NIC in the inline list. */
	if (!topo && gp_yaml_get(v, "nics") && !gp_cy_is_null(gp_yaml_get(v, "nics"))) {
		const gp_yaml_node *nics = gp_yaml_get(v, "nics");

		for (i = 0; i < nics->n; i++) {
			x = gp_yaml_get(nics->items[i], "subnet");
			if (x && !gp_cy_is_null(x) &&
			    set_subnet(L, t, (int)i, x, gp_cy_what(L, "%s NIC %zu 'subnet'", owner, i)))
				return GP_EINPUT;
		}
	}
	if (load_type_perf(L, v, owner, t))
		return GP_EINPUT;
	x = gp_yaml_get(v, "subnets");
	if (x) {
		if (gp_yaml_expect(&L->doc, x, GP_YAML_MAP, gp_cy_what(L, "%s 'subnets'", owner),
				   L->err))
			return GP_EINPUT;
		for (i = 0; i < x->n; i++) {
			int nic = find_nic(&t->topo, x->keys[i]->scalar);

			if (nic < 0)
				return gp_yaml_error(&L->doc, x->keys[i], L->err,
						     "%s: 'subnets' names NIC '%.40s', which the topology does not have",
						     owner, x->keys[i]->scalar);
			if (set_subnet(L, t, nic, x->items[i],
				       gp_cy_what(L, "%s subnet of '%s'", owner,
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
				   gp_cy_what(L, "node type '%s'", map->keys[i]->scalar),
				   L->err))
			return GP_EINPUT;
		if (load_type(L, map->keys[i], map->items[i]))
			return GP_EINPUT;
	}
	return GP_OK;
}

/* -- 'fabric' and 'nodes' streamed --
 *
 * Memory: the two long lists are not kept as YAML trees.  Pass
 * 1 parses the file with each fabric entry converted as it is read and
 * each node entry only counted; pass 2, once everything the nodes need is
 * there, parses it again converting each node entry.  Errors stay the
 * ones a whole tree gives, in its order: a fabric entry's error waits
 * until the checks before 'fabric' passed, and a parent named before it
 * is resolved at once, any other one after the last switch. */

/* A parent to resolve after the last switch: a copy of its node. */
typedef struct later_parent {
	size_t sw;
	gp_yaml_node node;      /* type, position and text (in the pool) */
} later_parent;

typedef struct streamer {
	loader *L;
	int pass;
	size_t nfabric, nnodes; /* entries read */
	int fabric_bad;         /* fabric_err holds the first entry error */
	gp_error fabric_err;
	later_parent *later;
	size_t nlater, caplater;
	gp_pool *texts;
} streamer;

static const char *const streamed_keys[] = { "fabric", "nodes", NULL };

/* Pass 1 of fabric entry i, then its parent when it is already known. */
static int stream_switch(streamer *S, const gp_yaml_node *s, size_t i)
{
	loader *L = S->L;
	gp_error *err = L->err;
	const gp_yaml_node *p;
	later_parent *lp;
	int k, rc;

	L->err = &S->fabric_err;
	rc = gp_cy_fabric_item(L, s, i);
	L->err = err;
	if (rc)
		return rc;
	p = gp_yaml_get(s, "parent");
	if (!p || gp_cy_is_null(p))
		return GP_OK;
	if (p->type == GP_YAML_SCALAR && (k = gp_cluster_find_switch(L->c, p->scalar)) >= 0 &&
	    k != (int)i) {
		L->c->switches[i].parent = k;
		return GP_OK;
	}
	GP_GROW(S->later, S->caplater, S->nlater + 1);
	lp = &S->later[S->nlater++];
	memset(lp, 0, sizeof(*lp));
	lp->sw = i;
	lp->node.type = p->type;
	lp->node.quoted = p->quoted;
	lp->node.line = p->line;
	lp->node.col = p->col;
	if (p->type == GP_YAML_SCALAR)
		lp->node.scalar = gp_pool_strdup(S->texts, p->scalar);
	return GP_OK;
}

static int stream_item(void *ud, const gp_yaml_doc *doc, const char *key,
		       const gp_yaml_node *item, size_t index, gp_error *err)
{
	streamer *S = ud;

	(void)doc;
	(void)err;
	if (!strcmp(key, "nodes")) {
		S->nnodes = index + 1;
		return S->pass == 2 ? gp_cy_node_item(S->L, item, index) : GP_OK;
	}
	if (S->pass == 2)
		return GP_OK;
	S->nfabric = index + 1;
	if (!S->fabric_bad && index < GP_CLUSTER_MAX_NODES && stream_switch(S, item, index))
		S->fabric_bad = 1;
	return GP_OK;
}

/* 'fabric' (x), streamed in pass 1 when it is a list. */
static int finish_fabric(streamer *S, const gp_yaml_node *x)
{
	loader *L = S->L;
	size_t i;

	if (x->type != GP_YAML_SEQ)
		return gp_cy_load_fabric(L, x);
	if (S->nfabric > GP_CLUSTER_MAX_NODES)
		return gp_yaml_error(&L->doc, x, L->err,
				     "'fabric' has more than %d switches", GP_CLUSTER_MAX_NODES);
	if (S->fabric_bad) {
		*L->err = S->fabric_err;
		return GP_EINPUT;
	}
	for (i = 0; i < S->nlater; i++)
		if (gp_cy_fabric_parent(L, S->later[i].sw, &S->later[i].node))
			return GP_EINPUT;
	return GP_OK;
}

/* The text of a cluster file: in memory, or a regular file parsed as it
 * is read (memory: the text never sits beside the tree and the cluster). */
typedef struct source {
	const char *text;       /* NULL: fp */
	size_t len;
	FILE *fp;
} source;

static int parse_from(const source *src, size_t at, int line, const char *filename,
		      streamer *S, gp_yaml_doc *doc, gp_error *err)
{
	if (!src->text) {
		if (fseek(src->fp, (long)at, SEEK_SET))
			return gp_error_set(err, GP_EIO, filename, 0, 0, "read error");
		return gp_yaml_parse_file_streams(src->fp, filename, GP_YAML_MAX_DEPTH, line,
						  streamed_keys, stream_item, S, doc, err);
	}
	return gp_yaml_parse_streams(src->text + at, src->len - at, filename, GP_YAML_MAX_DEPTH,
				     line, streamed_keys, stream_item, S, doc, err);
}

/* Whether line number `line` (s[0..n), without its "\n"), before the
 * 'nodes' key, lets pass 2 start below it: plain ASCII with no other YAML
 * line break than "\n" or "\r\n", and not the '{' of a flow root. */
static int plain_line(const gp_yaml_node *root, unsigned line, const char *s, size_t n)
{
	size_t k;

	if (line == root->line && n >= root->col && s[root->col - 1] == '{')
		return 0;
	for (k = 0; k < n; k++)
		if ((unsigned char)s[k] >= 0x80 || (s[k] == '\r' && k + 1 != n))
			return 0;
	return 1;
}

/* Where pass 2 may start: the line of the root key 'nodes' when the root
 * is a block mapping and the key starts its line (the rest of the file
 * then parses as the same mapping's remaining keys) and the lines before
 * are plain (plain_line); else line 1.  *at: its byte offset. */
static int nodes_line(const gp_yaml_node *root, const source *src, size_t *at)
{
	const gp_yaml_node *key = NULL;
	unsigned line = 1;
	size_t i, n, off = 0;
	char *buf = NULL;
	size_t cap = 0;
	ssize_t got;

	*at = 0;
	for (i = 0; i < root->n; i++)
		if (!strcmp(root->keys[i]->scalar, "nodes"))
			key = root->keys[i];
	if (!key || key->col != 1)
		return 1;
	if (src->text) {
		const char *p = src->text, *end = p + src->len, *nl;

		for (; line < key->line; line++, p = nl + 1) {
			nl = memchr(p, '\n', (size_t)(end - p));
			if (!nl || !plain_line(root, line, p, (size_t)(nl - p)))
				return 1;
		}
		*at = (size_t)(p - src->text);
		return (int)line;
	}
	rewind(src->fp);
	for (; line < key->line; line++) {
		got = getline(&buf, &cap, src->fp);
		n = got > 0 ? (size_t)got : 0;
		if (!n || buf[n - 1] != '\n' || !plain_line(root, line, buf, n - 1)) {
			free(buf);
			return 1;
		}
		off += n;
	}
	free(buf);
	*at = off;
	return (int)line;
}

/* 'nodes' (x): a list is converted in pass 2. */
static int finish_nodes(streamer *S, const gp_yaml_node *root, const gp_yaml_node *x,
			const source *src, const char *filename)
{
	loader *L = S->L;
	gp_yaml_doc doc;
	size_t at;
	int st, line;

	if (x->type != GP_YAML_SEQ)
		return gp_cy_load_nodes(L, x);
	if (S->nnodes == 0)
		return gp_yaml_error(&L->doc, x, L->err, "'nodes' is empty");
	S->pass = 2;
	line = nodes_line(root, src, &at);
	st = parse_from(src, at, line, filename, S, &doc, L->err);
	gp_yaml_doc_release(&doc);
	return st;
}

static const char *const top_keys[] = {
	"name", "description", "gpu_models", "node_types", "fabric", "nodes", "tenants", NULL
};

/* own: the caller's copy of src's text, freed once parsed (memory: the
 * cluster need not sit beside it). */
static int cluster_parse(const source *src, char **own, const char *filename, gp_cluster *c,
			 gp_error *err)
{
	loader L;
	streamer S;
	const gp_yaml_node *root, *x;
	int st;

	memset(&S, 0, sizeof(S));
	S.L = &L;
	S.pass = 1;
	S.texts = gp_pool_new();
	gp_cluster_init(c);
	c->path = gp_xstrdup(filename);
	gp_catalog_init_builtin(&c->catalog);
	L.c = c;
	L.err = err;
	gp_yaml_doc_init(&L.doc);
	if (src->text && (st = gp_text_check(src->text, src->len, filename, 1, err)))
		goto out;
	st = parse_from(src, 0, 1, filename, &S, &L.doc, err);
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
	c->has_tenants = gp_yaml_get(root, "tenants") != NULL;
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
	if (x && gp_cy_load_models(&L, x))
		goto out;
	x = gp_cy_need(&L, root, "node_types", "cluster file");
	if (!x || load_types(&L, x))
		goto out;
	x = gp_yaml_get(root, "fabric");
	if (x && !gp_cy_is_null(x) && finish_fabric(&S, x))
		goto out;
	x = gp_cy_need(&L, root, "nodes", "cluster file");
	if (!x || finish_nodes(&S, root, x, src, filename))
		goto out;
	if (own) {
		free(*own);
		*own = NULL;
	}
	st = gp_cluster_finish(c, err);
out:
	free(S.later);
	gp_pool_free(S.texts);
	gp_yaml_doc_release(&L.doc);
	if (st)
		gp_cluster_release(c);
	return st;
}

int gp_cluster_parse(const char *text, size_t len, const char *filename,
		     gp_cluster *c, gp_error *err)
{
	source src = { text, len, NULL };

	return cluster_parse(&src, NULL, filename, c, err);
}

/* A regular file: gp_read_file's checks and the openb test on a first
 * read, then the passes parse it as they read it. */
static int load_file(const char *path, gp_cluster *c, gp_error *err)
{
	char head[15];
	size_t nhead, bom;
	int st;
	source src = { NULL, 0, NULL };

	st = gp_yaml_open_file(path, GP_CLUSTER_MAX_FILE, &src.fp, head, sizeof(head), &nhead,
			       err);
	if (st)
		return st;
	bom = gp_text_bom(head, nhead);
	if (nhead >= bom + 12 && !memcmp(head + bom, "sn,cpu_milli", 12))
		st = gp_cluster_load_openb(path, c, err);
	else
		st = cluster_parse(&src, NULL, path, c, err);
	fclose(src.fp);
	return st;
}

int gp_cluster_load(const char *path, gp_cluster *c, gp_error *err)
{
	source src = { NULL, 0, NULL };
	struct stat sb;
	char *text;
	size_t len;
	int st;

	gp_cluster_init(c);
	if (strcmp(path, "-") && !stat(path, &sb) && S_ISREG(sb.st_mode))
		return load_file(path, c, err);
	st = gp_read_file(path, GP_CLUSTER_MAX_FILE, &text, &len, err);
	if (st)
		return st;
	/* An Alibaba openb node list (FGD's cluster format) instead of YAML. */
	if (len >= 12 && !memcmp(text, "sn,cpu_milli", 12)) {
		free(text);
		return gp_cluster_load_openb(path, c, err);
	}
	src.text = text;
	src.len = len;
	st = cluster_parse(&src, &text, path, c, err);
	free(text);
	return st;
}
