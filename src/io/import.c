/* Import: the inventory, kind recognition and the writers of the cluster
 * YAML and the allocation state (import.h).  The readers live in
 * import_slurm.c and import_k8s.c. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/model/alloc.h"
#include "gpuplan/model/catalog.h"
#include "gpuplan/model/cluster.h"
#include "gpuplan/util/hostlist.h"
#include "import_int.h"

/* ---- the inventory ---- */

void gp_inventory_init(gp_inventory *inv)
{
	memset(inv, 0, sizeof(*inv));
}

static void node_release(gp_inv_node *n)
{
	int i;

	free(n->name);
	free(n->gpu_type);
	free(n->state_text);
	free(n->reason);
	free(n->partitions);
	free(n->mig);
	for (i = 0; n->cores && i < GP_TOPO_MAX_GPUS; i++)
		free(n->cores->cpus[i]);
	free(n->cores);
}

void gp_inventory_release(gp_inventory *inv)
{
	size_t i;

	if (!inv)
		return;
	for (i = 0; i < inv->n; i++)
		node_release(&inv->nodes[i]);
	free(inv->nodes);
	for (i = 0; i < inv->nalloc; i++) {
		free(inv->allocs[i].job);
		free(inv->allocs[i].node);
		free(inv->allocs[i].cpus);
	}
	free(inv->allocs);
	for (i = 0; i < inv->nwarn; i++)
		free(inv->warnings[i]);
	free(inv->warnings);
	for (i = 0; i < inv->nfiles; i++)
		free(inv->files[i]);
	free(inv->files);
	free(inv->hash);
	if (inv->has_gres_all)
		node_release(&inv->gres_all);
	gp_inventory_init(inv);
}

static char *gp_inv_file(gp_inventory *inv, const char *file)
{
	size_t i;

	for (i = 0; i < inv->nfiles; i++)
		if (!strcmp(inv->files[i], file))
			return inv->files[i];
	GP_GROW(inv->files, inv->capfiles, inv->nfiles + 1);
	inv->files[inv->nfiles] = gp_xstrdup(file);
	return inv->files[inv->nfiles++];
}

void gp_inv_set_str(char **dst, const char *s, size_t len)
{
	free(*dst);
	*dst = gp_xstrndup(s, len);
}

void gp_inv_warn(gp_inventory *inv, const char *file, int line, const char *fmt, ...)
{
	char msg[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	GP_GROW(inv->warnings, inv->capwarn, inv->nwarn + 1);
	if (file && line > 0)
		inv->warnings[inv->nwarn++] = gp_xasprintf("%s:%d: %s", file, line, msg);
	else if (file)
		inv->warnings[inv->nwarn++] = gp_xasprintf("%s: %s", file, msg);
	else
		inv->warnings[inv->nwarn++] = gp_xstrdup(msg);
}

void gp_inv_warn_hosts(gp_inventory *inv, const char **names, size_t n, const char *what)
{
	gp_sbuf sb;

	if (!n)
		return;
	gp_sbuf_init(&sb);
	gp_hostlist_compress(names, n, &sb);
	gp_inv_warn(inv, NULL, 0, "%zu node(s) %s: %s", n, what, sb.buf);
	gp_sbuf_release(&sb);
}

static size_t name_hash(const char *s, size_t len)
{
	size_t h = 1469598103934665603ull, i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

static void hash_rebuild(gp_inventory *inv)
{
	size_t cap = inv->hash_cap ? inv->hash_cap * 2 : 64, i;

	while (cap < inv->n * 2 + 2)
		cap *= 2;
	free(inv->hash);
	inv->hash = gp_xmalloc(cap * sizeof(*inv->hash));
	for (i = 0; i < cap; i++)
		inv->hash[i] = -1;
	inv->hash_cap = cap;
	for (i = 0; i < inv->n; i++) {
		const char *nm = inv->nodes[i].name;
		size_t h = name_hash(nm, strlen(nm)) & (cap - 1);

		while (inv->hash[h] >= 0)
			h = (h + 1) & (cap - 1);
		inv->hash[h] = (int)i;
	}
}

static int find_len(const gp_inventory *inv, const char *name, size_t len)
{
	size_t h;

	if (!inv->hash_cap)
		return -1;
	h = name_hash(name, len) & (inv->hash_cap - 1);
	while (inv->hash[h] >= 0) {
		const char *nm = inv->nodes[inv->hash[h]].name;

		if (strlen(nm) == len && !memcmp(nm, name, len))
			return inv->hash[h];
		h = (h + 1) & (inv->hash_cap - 1);
	}
	return -1;
}

gp_inv_node *gp_inv_node_find(gp_inventory *inv, const char *name)
{
	int k = find_len(inv, name, strlen(name));

	return k < 0 ? NULL : &inv->nodes[k];
}

/* A node name the cluster loader takes back (1..GP_CLUSTER_NAME_MAX bytes of UTF-8, no
 * space or control character) and that reads as one name in the hostlists
 * the writer makes (no '[', ']' or ','): a name that is not is an error at
 * the text that named it, not a cluster file that fails to load. */
static int bad_node_name(const char *name, size_t len, const char *file, int line, int col,
			 gp_error *err)
{
	size_t i, k;

	if (len == 0)
		return gp_error_set(err, GP_EINPUT, file, line, col, "empty node name");
	if (len > GP_CLUSTER_NAME_MAX)
		return gp_error_set(err, GP_EINPUT, file, line, col,
				    "node name '%.40s...' is longer than %d characters", name,
				    GP_CLUSTER_NAME_MAX);
	for (i = 0; i < len; i += k) {
		unsigned char c = (unsigned char)name[i];

		k = gp_utf8_seq(name + i, len - i);
		if (k == 0 || c <= ' ' || c == 0x7f || c == '[' || c == ']' || c == ',')
			return gp_error_set(err, GP_EINPUT, file, line, col,
					    "node name '%.*s' has a space, a control character, "
					    "'[', ']', ',' or a byte that is not UTF-8 (byte %zu)",
					    (int)(len > 40 ? 40 : len), name, i + 1);
	}
	return GP_OK;
}

gp_inv_node *gp_inv_node_get(gp_inventory *inv, const char *name, size_t len,
			     const char *file, int line, int col, gp_error *err)
{
	int k = find_len(inv, name, len);
	gp_inv_node *n;

	if (k >= 0)
		return &inv->nodes[k];
	if (bad_node_name(name, len, file, line, col, err))
		return NULL;
	if (inv->n >= GP_IMPORT_MAX_NODES) {
		gp_error_set(err, GP_EINPUT, file, line, col,
			     "more than %d nodes in the input (a cluster holds at most %d)",
			     GP_IMPORT_MAX_NODES, GP_CLUSTER_MAX_NODES);
		return NULL;
	}
	GP_GROW(inv->nodes, inv->cap, inv->n + 1);
	n = &inv->nodes[inv->n++];
	memset(n, 0, sizeof(*n));
	n->name = gp_xstrndup(name, len);
	n->ngpus = -1;
	n->used = -1;
	n->cpu_alloc = -1;
	n->gpu_sock_lo = n->gpu_sock_hi = -1;
	n->file = gp_inv_file(inv, file);
	n->line = line;
	n->col = col;
	if (inv->n * 2 + 2 > inv->hash_cap)
		hash_rebuild(inv);
	else {
		size_t h = name_hash(name, len) & (inv->hash_cap - 1);

		while (inv->hash[h] >= 0)
			h = (h + 1) & (inv->hash_cap - 1);
		inv->hash[h] = (int)(inv->n - 1);
	}
	return n;
}

gp_inv_alloc *gp_inv_alloc_add(gp_inventory *inv, const char *job, const char *node,
			       const char *file, int line)
{
	gp_inv_alloc *a;

	GP_GROW(inv->allocs, inv->capalloc, inv->nalloc + 1);
	a = &inv->allocs[inv->nalloc++];
	memset(a, 0, sizeof(*a));
	a->job = gp_xstrdup(job);
	a->node = gp_xstrdup(node);
	a->file = gp_inv_file(inv, file);
	a->line = line;
	return a;
}

int64_t gp_import_mem_mib(const char *s, size_t len, int64_t unit_mib)
{
	char buf[64];
	char *end;
	double v, mul = (double)unit_mib;

	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	v = strtod(buf, &end);
	if (end == buf || v < 0)
		return -1;
	switch (toupper((unsigned char)*end)) {
	case '\0': break;
	case 'K': mul = 1.0 / 1024; end++; break;
	case 'M': mul = 1; end++; break;
	case 'G': mul = 1024; end++; break;
	case 'T': mul = 1024.0 * 1024; end++; break;
	case 'P': mul = 1024.0 * 1024 * 1024; end++; break;
	default: return -1;
	}
	if (*end)
		return -1;
	v *= mul;
	/* the bound of RealMemory; !(<=) also refuses nan and inf */
	if (!(v <= (double)GP_IMPORT_MAX_MEM_MIB))
		return -1;
	return (int64_t)(v + 0.5);
}

/* ---- kinds ---- */

static const char *const kind_names[GP_IMPORT_KIND_COUNT] = {
	"unknown", "scontrol show node", "scontrol show job", "slurm.conf", "gres.conf",
	"sinfo", "kubectl get nodes", "kubectl get pods",
};

const char *gp_import_kind_name(int kind)
{
	return kind >= 0 && kind < GP_IMPORT_KIND_COUNT ? kind_names[kind] : "unknown";
}

static int gp_import_kind_family(int kind)
{
	if (kind >= GP_IMPORT_SCONTROL_NODE && kind <= GP_IMPORT_SINFO)
		return 1;
	if (kind == GP_IMPORT_K8S_NODES || kind == GP_IMPORT_K8S_PODS)
		return 2;
	return 0;
}

/* Whether key (starting with a letter) begins at q: the first letter is
 * checked inline, as most tokens differ there. */
static int key_at(const char *q, const char *key, size_t n)
{
	return (*q | 0x20) == (key[0] | 0x20) && !strncasecmp(q, key, n);
}

static int line_key(const char *p, const char *e, const char *key)
{
	size_t n = strlen(key);

	return (size_t)(e - p) > n && key_at(p, key, n);
}

enum { K_NAME = 1, K_FILE = 2, K_CPUTOT = 4, K_CPUALLOC = 8, K_CFGTRES = 16 };

/* Which of Name=, File=, CPUTot=, CPUAlloc= and CfgTRES= begin a token (at
 * the start or after a blank) on the line p..e: one pass over the line. */
static unsigned line_keys(const char *p, const char *e)
{
	unsigned found = 0;
	const char *q;

	for (q = p; q < e; q++) {
		if (q != p && q[-1] != ' ' && q[-1] != '\t')
			continue;
		switch (*q | 0x20) {
		case 'n':
			if (line_key(q, e, "Name="))
				found |= K_NAME;
			break;
		case 'f':
			if (line_key(q, e, "File="))
				found |= K_FILE;
			break;
		case 'c':
			if (line_key(q, e, "CPUTot="))
				found |= K_CPUTOT;
			if (line_key(q, e, "CPUAlloc="))
				found |= K_CPUALLOC;
			if (line_key(q, e, "CfgTRES="))
				found |= K_CFGTRES;
			break;
		default:
			break;
		}
	}
	return found;
}

static int sniff_slurm(const char *text, size_t len)
{
	const char *p = text, *end = text + len, *first = NULL, *fe = NULL;
	int node_lines = 0, gres_lines = 0, conf_lines = 0, lines = 0;
	int node_state = 0, job = 0;

	while (p < end && lines < 4000) {
		const char *e = memchr(p, '\n', (size_t)(end - p)), *s = p;

		if (!e)
			e = end;
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		if (s < e && *s != '#' && *s != '\r') {
			unsigned keys = line_keys(s, e);

			if (!first) {
				first = s;
				fe = e;
			}
			if (line_key(s, e, "JobId="))
				job++;
			if (line_key(s, e, "NodeName=")) {
				node_lines++;
				if (keys & (K_NAME | K_FILE))
					gres_lines++;
			}
			if (line_key(s, e, "Name=") || line_key(s, e, "AutoDetect="))
				gres_lines++;
			if (line_key(s, e, "PartitionName=") || line_key(s, e, "ClusterName=") ||
			    line_key(s, e, "SlurmctldHost=") || line_key(s, e, "ControlMachine=") ||
			    line_key(s, e, "GresTypes=") || line_key(s, e, "SelectType="))
				conf_lines++;
			if (keys & (K_CPUTOT | K_CPUALLOC | K_CFGTRES))
				node_state++;
		}
		lines++;
		p = e + 1;
	}
	if (!first)
		return GP_IMPORT_UNKNOWN;
	if (line_key(first, fe, "JobId=") || (job && !node_lines))
		return GP_IMPORT_SCONTROL_JOB;
	if (line_key(first, fe, "NodeName=") && node_state)
		return GP_IMPORT_SCONTROL_NODE;
	if (gres_lines && !conf_lines && gres_lines >= node_lines)
		return GP_IMPORT_GRES_CONF;
	if (node_lines || conf_lines)
		return GP_IMPORT_SLURM_CONF;
	/* a table header: upper-case words, one naming the nodes */
	{
		char head[512];
		size_t n = (size_t)(fe - first) < sizeof(head) - 1 ? (size_t)(fe - first)
								  : sizeof(head) - 1;

		memcpy(head, first, n);
		head[n] = '\0';
		if ((strstr(head, "NODELIST") || strstr(head, "HOSTNAMES") ||
		     strstr(head, "NODE_NAME")) && !strchr(head, '='))
			return GP_IMPORT_SINFO;
	}
	return GP_IMPORT_UNKNOWN;
}

int gp_import_sniff(const char *text, size_t len)
{
	size_t i = 0;
	int k;

	while (i < len && isspace((unsigned char)text[i]))
		i++;
	if (i + 3 <= len && !memcmp(text + i, "\xef\xbb\xbf", 3))
		i += 3;
	if ((k = gp_import_sniff_k8s(text + i, len - i)) != GP_IMPORT_UNKNOWN)
		return k;
	return sniff_slurm(text + i, len - i);
}

int gp_import_read(gp_inventory *inv, int family, const char *text, size_t len,
		   const char *file, gp_error *err)
{
	size_t bom = gp_text_bom(text, len);
	int kind, fam;

	if (gp_text_check(text, len, file, 1, err))
		return GP_EINPUT;
	text += bom;
	len -= bom;
	kind = gp_import_sniff(text, len);
	fam = gp_import_kind_family(kind);
	if (kind == GP_IMPORT_UNKNOWN)
		return gp_error_set(err, GP_EINPUT, file, 0, 0,
				    family == 2 ? "not kubectl output: expected the JSON or YAML of "
						  "'kubectl get nodes' or 'kubectl get pods -A'"
						: "not Slurm output: expected 'scontrol show node', "
						  "'scontrol show job -d', slurm.conf, gres.conf or "
						  "sinfo with its header line");
	if (fam != family)
		return gp_error_set(err, GP_EINPUT, file, 0, 0,
				    "this is %s output: read it with 'gpuplan import %s'",
				    gp_import_kind_name(kind), fam == 2 ? "k8s" : "slurm");
	inv->kinds |= 1u << kind;
	if (fam == 2)
		return gp_import_k8s(inv, kind, text, len, file, err);
	return gp_import_slurm(inv, kind, text, len, file, err);
}
