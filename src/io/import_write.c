/* Import: from the inventory to a cluster YAML with inline node types and
 * an allocation state (import.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/io/topo_yaml.h"
#include "gpuplan/io/yaml.h"
#include "gpuplan/model/alloc.h"
#include "gpuplan/model/catalog.h"
#include "gpuplan/model/cluster.h"
#include "gpuplan/util/hostlist.h"
#include "gpuplan/io/fabric_import.h"
#include "import_int.h"


/* ---- node types ---- */

typedef struct ntype {
	char *name;
	int rep;               /* representative node */
	int model;             /* catalog index, -1 */
	gp_topo topo;
	char *topo_note;       /* where the topology came from */
	int nnodes;
} ntype;

/* Lower-case letters and digits of s, runs of anything else one '-',
 * 32 characters short of a name the cluster loader takes: room for
 * "-x64-N". */
static void slug(gp_sbuf *sb, const char *s)
{
	int dash = 0;

	for (; *s && sb->len < GP_CLUSTER_NAME_MAX - 32; s++) {
		unsigned char c = (unsigned char)*s;

		if (isalnum(c)) {
			if (dash && sb->len)
				gp_sbuf_adds(sb, "-");
			dash = 0;
			gp_sbuf_addf(sb, "%c", tolower(c));
		} else {
			dash = 1;
		}
	}
}

/* Default topologies of well-known systems: catalog family, GPUs, file. */
static const struct {
	const char *family, *system, *file;
	int ngpus;
} known[] = {
	{ "A100-SXM4", "DGX A100", "a100-sxm4-40gb-8gpu-3nic-4socket-fastdeploy.txt", 8 },
	{ "A100-SXM4", "HGX A100 4-GPU", "a100-sxm-4gpu-nv4-4nic-pxb-rst-indented-locuaz.txt", 4 },
	{ "H100-SXM5", "DGX/HGX H100", "h100-dgx-8gpu-13nic-8rail-ndr-penny-worklog.txt", 8 },
	{ "H800-SXM5", "HGX H800", "h100-dgx-8gpu-13nic-8rail-ndr-penny-worklog.txt", 8 },
	{ "H200", "HGX H200", "h100-dgx-8gpu-13nic-8rail-ndr-penny-worklog.txt", 8 },
	{ "H100-SXM5", "HGX H100 4-GPU", "h100-hgx-4gpu-nv6-4nic-pix-nps-cpuset-nccl-1617-TRUNCATED-legend.txt", 4 },
	{ "V100-SXM2", "DGX-1 V100", "dgx1-v100-8gpu-4nic-pytorch-ddp-readme.txt", 8 },
};

static int cpulist_max(const gp_topo *t)
{
	int i, m = -1;

	for (i = 0; i < t->ngpus; i++)
		if (t->gpus[i].ncpus && t->gpus[i].cpus[t->gpus[i].ncpus - 1] > m)
			m = t->gpus[i].cpus[t->gpus[i].ncpus - 1];
	return m;
}

/* RealMemory=1 is Slurm's default when slurm.conf gives none: unknown,
 * as is anything under the cluster file's 0.001 GiB. */
static int mem_known(const gp_inv_node *n)
{
	return n->mem_mib > 1;
}

/* The CPU count the cluster gives the nodes of type t (representative r):
 * the scheduler's, but at least past the highest CPU a GPU is affine to
 * (the loader's count when 'cpus:' is absent). */
static int type_cpus(const ntype *t, const gp_inv_node *r)
{
	int m = cpulist_max(&t->topo) + 1;

	return r->cpus > m ? r->cpus : m;
}

static void set_cpus(gp_topo_gpu *g, const int *cpus, int n)
{
	free(g->cpus);
	g->cpus = NULL;
	g->ncpus = 0;
	if (n <= 0)
		return;
	g->cpus = gp_xmalloc((size_t)n * sizeof(int));
	memcpy(g->cpus, cpus, (size_t)n * sizeof(int));
	g->ncpus = n;
}

/* The CPUs and NUMA node of GPU i from what the scheduler said: gres.conf
 * Cores, else the sockets the GPUs hang off (S:lo-hi), GPUs spread evenly,
 * each taking every CPU of its socket; Linux numbers the first thread of
 * every core, socket by socket, then the second threads. */
static void generic_affinity(const gp_inv_node *n, gp_topo *t, int *guessed)
{
	int sockets = n->sockets > 0 ? n->sockets : 1, i, c;
	int cpus = n->cpus > 0 ? n->cpus : 0;
	int threads = n->threads_per_core > 0 ? n->threads_per_core : 1;
	int lo = n->gpu_sock_lo >= 0 ? n->gpu_sock_lo : 0;
	int hi = n->gpu_sock_hi >= 0 ? n->gpu_sock_hi : sockets - 1;

	if (hi >= sockets)
		hi = sockets - 1;
	if (lo > hi)
		lo = hi;
	for (i = 0; i < t->ngpus; i++) {
		int sock = lo + (int)((long)i * (hi - lo + 1) / t->ngpus);

		if (n->cores && n->cores->n[i] > 0) {
			set_cpus(&t->gpus[i], n->cores->cpus[i], n->cores->n[i]);
			t->gpus[i].numa = 0;
			if (sockets > 1 && cpus >= sockets * threads) {
				int cores = cpus / threads;

				t->gpus[i].numa = n->cores->cpus[i][0] % cores / (cores / sockets);
				if (t->gpus[i].numa >= sockets)
					t->gpus[i].numa = sockets - 1;
			}
			continue;
		}
		*guessed = 1;
		t->gpus[i].numa = sock;
		if (cpus <= 0) {
			set_cpus(&t->gpus[i], NULL, 0);
			continue;
		}
		{
			int cores = cpus / threads, per = cores / sockets, th, k = 0;
			int *list = gp_xmalloc((size_t)cpus * sizeof(int));

			for (th = 0; th < threads; th++)
				for (c = 0; c < per; c++)
					list[k++] = th * cores + sock * per + c;
			qsort(list, (size_t)k, sizeof(int), gp_cmp_int);
			set_cpus(&t->gpus[i], list, k);
			free(list);
		}
	}
}

/* GPUs on one socket: NODE; across sockets: SYS. */
static void generic_links(gp_topo *t)
{
	int i, j, nd = t->ngpus + t->nnics;

	for (i = 0; i < t->ngpus; i++)
		for (j = 0; j < t->ngpus; j++) {
			gp_link *l = &t->links[(size_t)i * (size_t)nd + (size_t)j];

			l->nvlinks = 0;
			l->level = i == j ? GP_LINK_X
					  : t->gpus[i].numa == t->gpus[j].numa ? GP_LINK_NODE : GP_LINK_SYS;
		}
}

static int copy_topo(gp_topo *dst, const gp_topo *src, gp_error *err)
{
	int i, nd = src->ngpus + src->nnics;

	if (gp_topo_alloc(dst, src->ngpus, src->nnics, err))
		return GP_EINPUT;
	for (i = 0; i < src->ngpus; i++) {
		memcpy(dst->gpus[i].id, src->gpus[i].id, sizeof(dst->gpus[i].id));
		set_cpus(&dst->gpus[i], src->gpus[i].cpus, src->gpus[i].ncpus);
		dst->gpus[i].numa = src->gpus[i].numa;
		dst->gpus[i].gpu_numa_id = src->gpus[i].gpu_numa_id;
	}
	for (i = 0; i < src->nnics; i++)
		dst->nics[i] = src->nics[i];
	memcpy(dst->links, src->links, (size_t)nd * (size_t)nd * sizeof(gp_link));
	return GP_OK;
}

static int key_matches_node(const char *key, const gp_inv_node *n, const gp_catalog *cat,
			    int model)
{
	gp_hostlist h;
	gp_error e = GP_ERROR_INIT;
	size_t i;
	int hit = 0;

	if (n->gpu_type && gp_catalog_name_eq(key, n->gpu_type))
		return 1;
	if (model >= 0 && (gp_catalog_name_eq(key, cat->models[model].name) ||
			   gp_catalog_index(cat, key) == model))
		return 1;
	gp_hostlist_init(&h);
	if (!gp_hostlist_expand(key, strlen(key), &h, "", 0, 0, &e))
		for (i = 0; i < h.n && !hit; i++)
			hit = !strcmp(h.names[i], n->name);
	gp_hostlist_release(&h);
	return hit;
}

static int build_topo(gp_inventory *inv, const gp_import_opts *o, const gp_catalog *cat,
		      ntype *t, gp_error *err)
{
	const gp_inv_node *n = &inv->nodes[t->rep];
	const gp_topo *src = NULL;
	const char *system = NULL, *file = NULL;
	int i, guessed = 0;

	for (i = 0; i < o->ntopos; i++)
		if (key_matches_node(o->topos[i].key, n, cat, t->model)) {
			src = o->topos[i].topo;
			if (src->ngpus != n->ngpus)
				return gp_error_set(err, GP_EINPUT, o->topos[i].path, 0, 0,
						    "--topology %s: the snapshot has %d GPUs, node '%s' has %d",
						    o->topos[i].key, src->ngpus, n->name, n->ngpus);
			t->topo_note = gp_xasprintf("topology: %s (--topology %s)", o->topos[i].path,
						    o->topos[i].key);
			break;
		}
	if (!src && t->model >= 0 && o->default_topo) {
		for (i = 0; i < (int)GP_ARRAY_SIZE(known); i++) {
			size_t fl = strlen(known[i].family);

			if (n->ngpus == known[i].ngpus &&
			    !strncasecmp(cat->models[t->model].name, known[i].family, fl)) {
				src = o->default_topo(o->default_ctx, known[i].file);
				if (src && src->ngpus == n->ngpus) {
					system = known[i].system;
					file = known[i].file;
					break;
				}
				src = NULL;
			}
		}
	}
	if (src) {
		if (copy_topo(&t->topo, src, err))
			return GP_EINPUT;
		if (system) {
			t->topo_note = gp_xasprintf("topology: the %s default (%s)", system, file);
			gp_inv_warn(inv, NULL, 0,
				    "node type '%s': no topology given; using the %s default topology "
				    "(topologies/%s); give the real one with --topology %s=FILE "
				    "(the output of 'nvidia-smi topo -m' on one of its nodes)",
				    t->name, system, file, n->gpu_type ? n->gpu_type : n->name);
		}
		/* the snapshot's CPU numbers must exist on these nodes */
		if (n->cpus > 0 && cpulist_max(&t->topo) >= n->cpus) {
			generic_affinity(n, &t->topo, &guessed);
			gp_inv_warn(inv, NULL, 0,
				    "node type '%s': the topology's CPU affinity goes past the %d CPUs "
				    "of '%s'; GPU CPU lists rebuilt from its sockets",
				    t->name, n->cpus, n->name);
		}
		return GP_OK;
	}
	if (gp_topo_alloc(&t->topo, n->ngpus, 0, err))
		return GP_EINPUT;
	generic_affinity(n, &t->topo, &guessed);
	generic_links(&t->topo);
	t->topo_note = gp_xasprintf("topology: generic (GPUs on one socket NODE, across SYS; "
				    "no NICs)%s", guessed ? "; GPU CPU lists from the sockets" : "");
	gp_inv_warn(inv, NULL, 0,
		    "node type '%s': no topology for GPU type '%s'; generic layout (links NODE "
		    "within a socket, SYS across, no NICs); give the real one with --topology %s=FILE",
		    t->name, n->gpu_type ? n->gpu_type : "(untyped)",
		    n->gpu_type ? n->gpu_type : n->name);
	return GP_OK;
}

/* Nodes of one type share: model, GPU count, CPUs, sockets, memory and the
 * per-GPU CPU lists. */
static int same_type(const gp_inv_node *a, const gp_inv_node *b, int ma, int mb)
{
	int i;

	if (ma != mb || a->ngpus != b->ngpus || a->cpus != b->cpus || a->sockets != b->sockets ||
	    a->threads_per_core != b->threads_per_core || a->mem_mib / 1024 != b->mem_mib / 1024 ||
	    a->gpu_sock_lo != b->gpu_sock_lo || a->gpu_sock_hi != b->gpu_sock_hi)
		return 0;
	if (ma < 0 && strcmp(a->gpu_type ? a->gpu_type : "", b->gpu_type ? b->gpu_type : ""))
		return 0;
	for (i = 0; i < a->ngpus && i < GP_TOPO_MAX_GPUS; i++) {
		int na = a->cores ? a->cores->n[i] : 0, nb = b->cores ? b->cores->n[i] : 0;

		if (na != nb)
			return 0;
		if (na && memcmp(a->cores->cpus[i], b->cores->cpus[i], (size_t)na * sizeof(int)))
			return 0;
	}
	return 1;
}

/* ---- YAML text ---- */

/* Comment text on one line that YAML prints: what it does not (control
 * characters, bytes that are not UTF-8) becomes '?'. */
static void comment(gp_sbuf *sb, const char *s)
{
	size_t left = strlen(s), k;

	for (; left; s += k, left -= k) {
		k = *s == '\n' || *s == '\t' ? 0 : gp_yaml_printable_seq(s, left);
		if (k == 0)
			gp_sbuf_add(sb, "?", 1);
		else
			gp_sbuf_add(sb, s, k);
		k = k ? k : 1;
	}
}

static int cmp_node_name(const void *a, const void *b, void *ctx)
{
	const gp_inventory *inv = ctx;
	const char *x = inv->nodes[*(const int *)a].name, *y = inv->nodes[*(const int *)b].name;
	size_t i = 0, j = 0;

	/* natural order: digit runs compare by value */
	while (x[i] && y[j]) {
		if (isdigit((unsigned char)x[i]) && isdigit((unsigned char)y[j])) {
			size_t a0 = i, b0 = j;
			long long vx = 0, vy = 0;

			while (isdigit((unsigned char)x[i]) && i - a0 < 18)
				vx = vx * 10 + (x[i++] - '0');
			while (isdigit((unsigned char)y[j]) && j - b0 < 18)
				vy = vy * 10 + (y[j++] - '0');
			if (vx != vy)
				return vx < vy ? -1 : 1;
			if (i - a0 != j - b0)
				return i - a0 < j - b0 ? -1 : 1;
			continue;
		}
		if (x[i] != y[j])
			return (unsigned char)x[i] < (unsigned char)y[j] ? -1 : 1;
		i++;
		j++;
	}
	return x[i] ? 1 : y[j] ? -1 : 0;
}

static const char *state_name(int st)
{
	return st == GP_NODE_DOWN ? "down" : st == GP_NODE_DRAINING ? "draining" : "up";
}

/* What follows the name of a node entry: type, state, labels. */
static char *node_rest(const gp_inventory *inv, const gp_inv_node *n, const char *type,
		       const gp_fabric *f, int sw)
{
	gp_sbuf sb;
	int first = 1, r;

	(void)inv;
	gp_sbuf_init(&sb);
	gp_sbuf_adds(&sb, ", type: ");
	gp_yaml_quote(&sb, type);
	if (sw >= 0) {
		gp_sbuf_adds(&sb, ", switch: ");
		gp_yaml_quote(&sb, f->sw[sw].name);
		/* a rail-optimized fabric: each rail's leaf */
		for (r = 0; r < f->sw[sw].nrails; r++) {
			gp_sbuf_adds(&sb, r ? ", " : ", rails: [");
			gp_yaml_quote(&sb, f->sw[f->sw[sw].rails[r]].name);
		}
		if (f->sw[sw].nrails)
			gp_sbuf_adds(&sb, "]");
	}
	if (n->state != GP_NODE_UP)
		gp_sbuf_addf(&sb, ", state: %s", state_name(n->state));
	gp_sbuf_adds(&sb, ", labels: {");
	if (n->gpu_type) {
		gp_sbuf_adds(&sb, "gres_type: ");
		gp_yaml_quote(&sb, n->gpu_type);
		first = 0;
	}
	if (n->partitions) {
		gp_sbuf_adds(&sb, first ? "partitions: " : ", partitions: ");
		gp_yaml_quote(&sb, n->partitions);
		first = 0;
	}
	if (n->state_text) {
		gp_sbuf_adds(&sb, first ? "scheduler_state: " : ", scheduler_state: ");
		gp_yaml_quote(&sb, n->state_text);
		first = 0;
	}
	if (n->mig) {
		gp_sbuf_adds(&sb, first ? "mig: " : ", mig: ");
		gp_yaml_quote(&sb, n->mig);
	}
	gp_sbuf_adds(&sb, "}}\n");
	return gp_sbuf_detach(&sb);
}

/* Entries for names[0..n) sharing rest: one per hostlist short enough
 * for a node name (the cluster loader caps names at 128 characters);
 * halves until each is. */
static void put_node_entries(gp_sbuf *out, const char **names, size_t n, const char *rest)
{
	gp_sbuf hl;

	gp_sbuf_init(&hl);
	gp_hostlist_compress(names, n, &hl);
	/* the loader expands a name holding '[' only: "gpu1,dgx2" would be
	 * one node of that name */
	if (n > 1 && !strchr(hl.buf, '[')) {
		size_t i;

		for (i = 0; i < n; i++)
			put_node_entries(out, names + i, 1, rest);
	} else if (hl.len <= 120 || n == 1) {
		gp_sbuf_adds(out, "  - {name: ");
		gp_yaml_quote(out, n == 1 ? names[0] : hl.buf);
		gp_sbuf_adds(out, rest);
	} else {
		put_node_entries(out, names, n / 2, rest);
		put_node_entries(out, names + n / 2, n - n / 2, rest);
	}
	gp_sbuf_release(&hl);
}

/* ---- the cluster ---- */

/* What gp_import_write decides before it writes: the catalog model of
 * each node, the nodes kept (in natural name order) and their types. */
typedef struct plan {
	gp_catalog cat;
	int *order;            /* every node, by name */
	int *model;            /* per node: catalog index, -1 */
	int *keep, nkeep;      /* the nodes written */
	int *type_of;          /* per node: index in types */
	ntype *types;
	size_t ntypes, captypes;
} plan;

/* gres.conf lines without NodeName describe every node reading it. */
static void apply_gres_all(gp_inventory *inv)
{
	const gp_inv_node *g = &inv->gres_all;
	size_t i;

	for (i = 0; i < inv->n; i++) {
		gp_inv_node *n = &inv->nodes[i];
		int k;

		if (n->gres_seen)
			continue;
		if (n->ngpus < 0)
			n->ngpus = g->gres_seen;
		if (n->ngpus != g->gres_seen)
			continue;
		if (!n->gpu_type && g->gpu_type)
			n->gpu_type = gp_xstrdup(g->gpu_type);
		for (k = 0; g->cores && k < g->gres_seen && k < GP_TOPO_MAX_GPUS; k++)
			if (g->cores->n[k] && !(n->cores && n->cores->n[k])) {
				if (!n->cores)
					n->cores = gp_xcalloc(1, sizeof(*n->cores));
				n->cores->cpus[k] = gp_xmalloc((size_t)g->cores->n[k] * sizeof(int));
				memcpy(n->cores->cpus[k], g->cores->cpus[k],
				       (size_t)g->cores->n[k] * sizeof(int));
				n->cores->n[k] = g->cores->n[k];
			}
	}
}

/* The catalog model of every node with GPUs and the nodes kept; the nodes
 * left out, and the GPU types read by alias or guess, are warned about. */
static int keep_nodes(gp_inventory *inv, plan *p, gp_error *err)
{
	const char **nogpu, **unknown, **unsized, **untyped, *guessed_types[64];
	size_t nnogpu = 0, nunknown = 0, nunsized = 0, nuntyped = 0, nguessed = 0, i, j;
	int rc = GP_OK, memo_set = 0, memo_model = -1, memo_how = 0;
	const char *memo_type = NULL;
	int64_t memo_mem = 0;

	nogpu = gp_xcalloc(inv->n + 1, sizeof(*nogpu));
	unknown = gp_xcalloc(inv->n + 1, sizeof(*unknown));
	unsized = gp_xcalloc(inv->n + 1, sizeof(*unsized));
	untyped = gp_xcalloc(inv->n + 1, sizeof(*untyped));
	for (i = 0; i < inv->n; i++) {
		gp_inv_node *n = &inv->nodes[p->order[i]];
		int how = 0, m;

		if (n->ngpus < 0) {
			unsized[nunsized++] = n->name;
			continue;
		}
		if (n->ngpus == 0) {
			nogpu[nnogpu++] = n->name;
			continue;
		}
		if (n->ngpus > GP_TOPO_MAX_GPUS) {
			gp_inv_warn(inv, n->file, n->line, "node '%s' has %d GPUs, more than %d; skipped",
				    n->name, n->ngpus, GP_TOPO_MAX_GPUS);
			continue;
		}
		/* a busy GPU the node does not have: dropping it would show a
		 * GPU in use as free */
		if (n->used_idx && n->ngpus < 64 && (n->used_mask >> n->ngpus)) {
			rc = gp_error_set(err, GP_EINPUT, n->used_file, n->used_line, n->used_col,
					  "node '%s': GresUsed names GPU %d, but the node has %d GPU(s) "
					  "(indices 0-%d)", n->name, 63 - __builtin_clzll(n->used_mask),
					  n->ngpus, n->ngpus - 1);
			break;
		}
		/* nodes in name order mostly repeat the one before: map once */
		if (memo_set && memo_mem == n->gpu_mem_mib &&
		    (memo_type == n->gpu_type ||
		     (memo_type && n->gpu_type && !strcmp(memo_type, n->gpu_type)))) {
			m = memo_model;
			how = memo_how;
		} else {
			m = gp_import_map_product(&p->cat, n->gpu_type, n->gpu_mem_mib, &how);
			memo_set = 1;
			memo_type = n->gpu_type;
			memo_mem = n->gpu_mem_mib;
			memo_model = m;
			memo_how = how;
		}
		p->model[p->order[i]] = m;
		if (m < 0 && n->gpu_type)
			unknown[nunknown++] = n->name;
		else if (m < 0)
			untyped[nuntyped++] = n->name;
		else if (how) {
			int dup = 0;

			/* once per GPU type: the types said so far */
			for (j = 0; j < nguessed && !dup; j++)
				dup = !strcmp(guessed_types[j], n->gpu_type);
			if (!dup && nguessed < GP_ARRAY_SIZE(guessed_types))
				guessed_types[nguessed++] = n->gpu_type;
			if (!dup)
				gp_inv_warn(inv, n->file, n->line,
					    how == 2 ? "GPU type '%s' read as catalog model %s (an alias)"
						     : "GPU type '%s' read as catalog model %s (a guess by "
						       "family, form factor and memory)",
					    n->gpu_type, p->cat.models[m].name);
		}
		p->keep[p->nkeep++] = p->order[i];
	}
	gp_inv_warn_hosts(inv, nogpu, nnogpu, "without GPUs left out of the cluster");
	gp_inv_warn_hosts(inv, untyped, nuntyped,
			  "name no GPU type (untyped GRES or no product label): no gpu_model, "
			  "memory and speed unknown");
	gp_inv_warn_hosts(inv, unsized, nunsized,
			  "with an unknown GPU count left out");
	if (nunknown) {
		gp_sbuf sb;

		gp_sbuf_init(&sb);
		gp_hostlist_compress(unknown, nunknown, &sb);
		gp_inv_warn(inv, NULL, 0,
			    "GPU type of %s not in the catalog: no gpu_model (memory and speed "
			    "unknown); add the model under gpu_models", sb.buf);
		gp_sbuf_release(&sb);
	}
	if (rc) {
		/* the error above */
	} else if (p->nkeep == 0) {
		if (inv->n == 0 && inv->nalloc)
			rc = gp_error_set(err, GP_EINPUT, NULL, 0, 0,
					  "jobs but no nodes: give the nodes too ('scontrol show "
					  "node', slurm.conf, sinfo, or 'kubectl get nodes')");
		else if (inv->n == 0 && inv->has_gres_all)
			rc = gp_error_set(err, GP_EINPUT, NULL, 0, 0,
					  "gres.conf without NodeName describes the node that reads "
					  "it: give the nodes too ('scontrol show node' or slurm.conf)");
		else
			rc = gp_error_set(err, GP_EINPUT, NULL, 0, 0,
					  "no node with GPUs in the input (%zu node(s) read)", inv->n);
	} else if (p->nkeep > GP_CLUSTER_MAX_NODES) {
		rc = gp_error_set(err, GP_EINPUT, NULL, 0, 0,
				  "%d nodes with GPUs in the input; a cluster holds at most %d",
				  p->nkeep, GP_CLUSTER_MAX_NODES);
	}
	free(nogpu);
	free(unknown);
	free(unsized);
	free(untyped);
	return rc;
}

/* Kept nodes that read alike (same_type) share a node type, named after
 * its model and GPU count; then each type's topology. */
static int group_types(gp_inventory *inv, const gp_import_opts *o, plan *p, gp_error *err)
{
	size_t i, j;
	int rc;

	for (i = 0; i < (size_t)p->nkeep; i++) {
		gp_inv_node *n = &inv->nodes[p->keep[i]];
		int m = p->model[p->keep[i]];

		for (j = 0; j < p->ntypes; j++)
			if (same_type(&inv->nodes[p->types[j].rep], n, p->types[j].model, m))
				break;
		if (j == p->ntypes) {
			ntype *t;
			gp_sbuf nm;
			size_t k, v = 1;

			GP_GROW(p->types, p->captypes, p->ntypes + 1);
			t = &p->types[p->ntypes];
			memset(t, 0, sizeof(*t));
			gp_topo_init(&t->topo);
			gp_sbuf_init(&nm);
			slug(&nm, m >= 0 ? p->cat.models[m].name : n->gpu_type ? n->gpu_type : "gpu");
			gp_sbuf_addf(&nm, "-x%d", n->ngpus);
			for (k = 0; k < p->ntypes; k++)
				if (!strncmp(p->types[k].name, nm.buf, nm.len) &&
				    (!p->types[k].name[nm.len] || p->types[k].name[nm.len] == '-'))
					v++;
			if (v > 1)
				gp_sbuf_addf(&nm, "-%zu", v);
			t->name = gp_sbuf_detach(&nm);
			t->rep = p->keep[i];
			t->model = m;
			p->ntypes++;
		}
		p->type_of[p->keep[i]] = (int)j;
		p->types[j].nnodes++;
	}
	for (j = 0; j < p->ntypes; j++)
		if ((rc = build_topo(inv, o, &p->cat, &p->types[j], err)))
			return rc;
	return GP_OK;
}

/* The head comment, the name and the node types. */
static void put_types(const gp_inventory *inv, const gp_import_opts *o, const plan *p,
		      gp_sbuf *out)
{
	size_t j;

	gp_sbuf_addf(out, "# Imported by %s.\n", o->command ? o->command : "gpuplan import");
	gp_sbuf_adds(out, "# Node types are inline; each says where its topology came from.\n"
			  "# Node labels keep what the scheduler said (GPU type, state, partitions).\n");
	gp_sbuf_adds(out, "name: ");
	gp_yaml_quote(out, o->name ? o->name : "imported");
	gp_sbuf_adds(out, "\nnode_types:\n");
	for (j = 0; j < p->ntypes; j++) {
		const ntype *t = &p->types[j];
		const gp_inv_node *r = &inv->nodes[t->rep];

		gp_sbuf_adds(out, "  ");
		gp_yaml_quote(out, t->name);
		gp_sbuf_adds(out, ":\n    # ");
		comment(out, t->topo_note);
		gp_sbuf_addf(out, "\n    # %d node(s); GPU type as the scheduler names it: ", t->nnodes);
		comment(out, r->gpu_type ? r->gpu_type : "(untyped)");
		gp_sbuf_adds(out, "\n");
		if (t->model >= 0) {
			gp_sbuf_adds(out, "    gpu_model: ");
			gp_yaml_quote(out, p->cat.models[t->model].name);
			gp_sbuf_adds(out, "\n");
		}
		if (r->cpus > 0)
			gp_sbuf_addf(out, "    cpus: %d\n", type_cpus(t, r));
		/* exact (MiB / 1024 is a short binary fraction): the state's
		 * memory is checked against this */
		if (mem_known(r))
			gp_sbuf_addf(out, "    memory_gib: %.17g\n", (double)r->mem_mib / 1024.0);
		gp_topo_yaml_put(out, &t->topo, "    ");
	}
}

/* The fabric: each switch with its parent; the roots carry the
 * technology, their subtrees inherit it.  Nodes the fabric does not name,
 * and the fabric's nodes the cluster lacks, are warned. */
static void put_fabric(gp_inventory *inv, const gp_import_opts *o, const plan *p, gp_sbuf *out)
{
	const gp_fabric *f = o->fabric;
	const char *tech = o->fabric_tech;
	const char **none;
	size_t i, nnone = 0, missing = 0;
	int k;

	if (!f || !f->nsw) {
		if (p->nkeep > 1)
			gp_inv_warn(inv, NULL, 0, "the cluster has no fabric, so multi-node jobs cannot "
				    "be placed: give its topology.conf, scontrol show topology or "
				    "ibnetdiscover output with --fabric");
		return;
	}
	if (!tech)
		tech = f->tech;
	if (!tech) {
		tech = "ib-ndr";
		gp_inv_warn(inv, NULL, 0, "the fabric's technology is not in %s: ib-ndr (400 Gb/s) "
			    "assumed; say it with --fabric-tech", f->form ? f->form : "the file");
	}
	for (i = 0; i < f->nsw; i++) {
		gp_sbuf_adds(out, i ? "  - {name: " : "fabric:\n  - {name: ");
		gp_yaml_quote(out, f->sw[i].name);
		if (f->sw[i].parent >= 0) {
			gp_sbuf_adds(out, ", parent: ");
			gp_yaml_quote(out, f->sw[f->sw[i].parent].name);
		} else {
			gp_sbuf_addf(out, ", tech: %s", tech);
		}
		gp_sbuf_adds(out, "}\n");
	}
	none = gp_xcalloc((size_t)p->nkeep + 1, sizeof(*none));
	for (k = 0; k < p->nkeep; k++) {
		const gp_inv_node *n = &inv->nodes[p->keep[k]];

		if (gp_fabric_node_switch(f, n->name) < 0)
			none[nnone++] = n->name;
	}
	gp_inv_warn_hosts(inv, none, nnone, "are on no switch of the fabric, so no multi-node job "
			  "uses them");
	free(none);
	/* names are unique on both sides: the fabric's nodes the cluster
	 * has are the cluster's nodes on a switch */
	missing = f->nnode - ((size_t)p->nkeep - nnone);
	if (missing)
		gp_inv_warn(inv, NULL, 0, "the fabric names %zu node(s) that the cluster does not have: "
			    "left out", missing);
}

/* The nodes: those that read alike share an entry named by a hostlist. */
static void put_nodes(const gp_inventory *inv, const gp_import_opts *o, const plan *p,
		      gp_sbuf *out)
{
	char **rest = gp_xcalloc((size_t)p->nkeep + 1, sizeof(*rest));
	const char **names = gp_xcalloc((size_t)p->nkeep + 1, sizeof(*names));
	size_t i, r0;

	gp_sbuf_adds(out, "nodes:\n");
	for (i = 0; i < (size_t)p->nkeep; i++) {
		const gp_inv_node *n = &inv->nodes[p->keep[i]];

		int sw = o->fabric ? gp_fabric_node_switch(o->fabric, n->name) : -1;

		rest[i] = node_rest(inv, n, p->types[p->type_of[p->keep[i]]].name, o->fabric, sw);
		names[i] = n->name;
	}
	for (r0 = 0; r0 < (size_t)p->nkeep;) {
		size_t r1 = r0 + 1;

		while (r1 < (size_t)p->nkeep && !strcmp(rest[r1], rest[r0]))
			r1++;
		put_node_entries(out, names + r0, r1 - r0, rest[r0]);
		r0 = r1;
	}
	for (i = 0; i < (size_t)p->nkeep; i++)
		free(rest[i]);
	free(rest);
	free(names);
}

static void plan_release(plan *p)
{
	size_t j;

	for (j = 0; j < p->ntypes; j++) {
		free(p->types[j].name);
		free(p->types[j].topo_note);
		gp_topo_release(&p->types[j].topo);
	}
	free(p->types);
	free(p->order);
	free(p->model);
	free(p->type_of);
	free(p->keep);
	gp_catalog_release(&p->cat);
}

int gp_import_write(gp_inventory *inv, const gp_import_opts *o, gp_sbuf *out,
		    gp_sbuf *state, gp_error *err)
{
	plan p;
	size_t i;
	int rc;

	memset(&p, 0, sizeof(p));
	gp_catalog_init_builtin(&p.cat);
	p.order = gp_xcalloc(inv->n + 1, sizeof(int));
	p.model = gp_xcalloc(inv->n + 1, sizeof(int));
	p.type_of = gp_xcalloc(inv->n + 1, sizeof(int));
	p.keep = gp_xcalloc(inv->n + 1, sizeof(int));
	for (i = 0; i < inv->n; i++)
		p.order[i] = (int)i;
	qsort_r(p.order, inv->n, sizeof(int), cmp_node_name, inv);
	if (inv->has_gres_all)
		apply_gres_all(inv);
	rc = keep_nodes(inv, &p, err);
	if (rc == GP_OK)
		rc = group_types(inv, o, &p, err);
	if (rc == GP_OK) {
		put_types(inv, o, &p, out);
		put_fabric(inv, o, &p, out);
		put_nodes(inv, o, &p, out);
		if (state) {
			gp_import_cap *cap = gp_xcalloc(inv->n + 1, sizeof(*cap));
			int k;

			for (k = 0; k < p.nkeep; k++) {
				const ntype *t = &p.types[p.type_of[p.keep[k]]];
				const gp_inv_node *r = &inv->nodes[t->rep];

				cap[p.keep[k]].cpus = type_cpus(t, r);
				cap[p.keep[k]].mem_mib = mem_known(r) ? r->mem_mib : GP_MEM_UNLIMITED;
			}
			gp_import_write_state(inv, p.keep, p.nkeep, cap, state);
			free(cap);
		}
	}
	plan_release(&p);
	return rc;
}
