/* gpuplan import slurm|k8s: read the text a scheduler prints (or its
 * configuration) into a cluster YAML and an allocation state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/io/fabric_import.h"
#include "gpuplan/io/import.h"
#include "gpuplan/io/snapshot.h"
#include "gpuplan/io/state.h"
#include "gpuplan/model/alloc.h"
#include "gpuplan/util/util.h"

#define CMD "import"

enum { O_OUTPUT = 1, O_STATE_OUT, O_TOPOLOGY, O_NAME, O_FABRIC, O_FABRIC_TECH, O_QUIET };

static const gp_opt import_opts[] = {
	{ .name = "output", .sc = 'o', .key = O_OUTPUT, .type = GP_OT_STR, .arg = "FILE",
	  .help = "the cluster YAML to write" },
	{ .name = "state-out", .key = O_STATE_OUT, .type = GP_OT_STR, .arg = "FILE",
	  .help = "the allocation state to write (running jobs, pods, or\n"
		  "per-node use, with GPU indices)" },
	{ .name = "topology", .key = O_TOPOLOGY, .type = GP_OT_STR, .arg = "KEY=FILE",
	  .help = "an 'nvidia-smi topo -m' snapshot for the nodes whose GPU\n"
		  "type, product or catalog model is KEY, or whose names\n"
		  "the hostlist KEY covers (repeatable)" },
	{ .name = "fabric", .key = O_FABRIC, .type = GP_OT_STR, .arg = "FILE",
	  .help = "the network fabric: Slurm's topology.conf (tree or\n"
		  "block), topology.yaml, scontrol show topology,\n"
		  "ibnetdiscover output, or a Kueue Topology whose\n"
		  "levels name the node labels (also recognised among\n"
		  "the FILEs); Kubernetes nodes' topology labels (GKE,\n"
		  "AWS, OCI) are read without it" },
	{ .name = "fabric-tech", .key = O_FABRIC_TECH, .type = GP_OT_STR, .arg = "T",
	  .help = "the fabric's technology (ib-ndr, ib-hdr, roce-400, ...)\n"
		  "when the file does not say" },
	{ .name = "name", .key = O_NAME, .type = GP_OT_STR, .arg = "NAME",
	  .help = "cluster name (default: imported)" },
	{ .name = "quiet", .sc = 'q', .key = O_QUIET, .type = GP_OT_FLAG,
	  .help = "no warnings on standard error (the summary stays)" },
	{ 0 },
};

static const gp_cmd_desc *const import_subs[] = { &gp_desc_import_sacct, NULL };

const gp_cmd_desc gp_desc_import = {
	.name = "import",
	.synopsis = "slurm|k8s FILE... -o CLUSTER.yaml [--state-out STATE.yaml]\n"
		    "  [--topology KEY=FILE]... [--fabric FILE] [--fabric-tech T]\n"
		    "  [--name NAME] [--quiet]\n"
		    "sacct FILE... -o TRACE.csv ...",
	.min_args = 0, .max_args = -1,
	.about = "Build a cluster YAML (and the allocation state of today) from scheduler text;\n"
		 "'-' reads standard input.  The kind of each file is recognised from its content.\n"
		 "\n"
		 "  slurm: scontrol show node (multi-line, -o, --details), scontrol show job -d,\n"
		 "         slurm.conf (NodeName/PartitionName lines), gres.conf, sinfo with a\n"
		 "         header and GRES/GRES_USED columns\n"
		 "  k8s:   kubectl get nodes -o json|yaml, kubectl get pods -A -o json|yaml\n",
	.opts = import_opts,
	.subs = import_subs,
};

typedef struct topo_cache {
	char *file[16];
	gp_topo topo[16];
	int ok[16];
	int n;
} topo_cache;

static const gp_topo *default_topo(void *ctx, const char *file)
{
	topo_cache *c = ctx;
	gp_error err = GP_ERROR_INIT;
	char *path;
	int i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->file[i], file))
			return c->ok[i] ? &c->topo[i] : NULL;
	if (c->n >= 16)
		return NULL;
	i = c->n++;
	c->file[i] = gp_xstrdup(file);
	gp_topo_init(&c->topo[i]);
	path = gp_xasprintf("%s/%s", gp_cli_datadir(), file);
	c->ok[i] = gp_topo_load(path, &c->topo[i], &err) == GP_OK;
	free(path);
	return c->ok[i] ? &c->topo[i] : NULL;
}

static void topo_cache_release(topo_cache *c)
{
	int i;

	for (i = 0; i < c->n; i++) {
		free(c->file[i]);
		gp_topo_release(&c->topo[i]);
	}
}

/* Check that the cluster text loads, and the state text against it. */
static int verify(const char *cluster_path, const gp_sbuf *cl, const char *state_path,
		  const gp_sbuf *st, gp_cluster *c)
{
	gp_error err = GP_ERROR_INIT;
	gp_alloc a;
	gp_state s;
	int rc;

	if (gp_cluster_parse(cl->buf, cl->len, cluster_path, c, &err)) {
		char buf[1200];

		return gp_cli_fail(GP_EIO, "internal error: the imported cluster does not load: %s",
				   gp_error_format(&err, buf, sizeof(buf)));
	}
	if (!state_path)
		return GP_OK;
	gp_alloc_init(&a, c);
	gp_state_init(&s);
	rc = gp_state_parse(st->buf, st->len, state_path, c, &a, &s, &err);
	gp_state_release(&s);
	gp_alloc_release(&a);
	if (rc) {
		char buf[1200];

		return gp_cli_fail(GP_EIO, "internal error: the imported state does not load: %s",
				   gp_error_format(&err, buf, sizeof(buf)));
	}
	return GP_OK;
}

static void summary(const gp_cluster *c, unsigned kinds, const char *out,
		    const char *state_out, size_t nfiles, const gp_sbuf *st)
{
	int down = 0, drain = 0, i;
	long used = 0, entries = 0;
	const char *p;
	/* a file written to standard output keeps it for itself */
	FILE *fp = !strcmp(out, "-") || (state_out && !strcmp(state_out, "-")) ? stderr : stdout;

	for (i = 0; i < c->nnodes; i++) {
		down += c->nodes[i].state == GP_NODE_DOWN;
		drain += c->nodes[i].state == GP_NODE_DRAINING;
	}
	fprintf(fp, "imported %d node(s), %d GPU(s), %d node type(s) from %zu file(s) (",
	       c->nnodes, c->ngpus, c->ntypes, nfiles);
	for (i = 1, p = ""; i < GP_IMPORT_KIND_COUNT; i++)
		if (kinds >> i & 1) {
			fprintf(fp, "%s%s", p, gp_import_kind_name(i));
			p = ", ";
		}
	fprintf(fp, ")\n");
	fprintf(fp, "nodes down: %d, draining: %d\n", down, drain);
	if (state_out) {
		/* one entry per line: "  - {job: ..., gpus: [a, b]...}" */
		for (p = st->buf; (p = strstr(p, "\n  - {job: ")); p++) {
			const char *g = strstr(p, "gpus: ["), *e = g ? strchr(g, ']') : NULL;

			entries++;
			if (g && e && e > g + 7) {
				const char *q;

				used++;
				for (q = g + 7; q < e; q++)
					used += *q == ',';
			}
		}
		fprintf(fp, "allocations: %ld entr%s, %ld GPU(s) in use -> %s\n", entries,
		       entries == 1 ? "y" : "ies", used, state_out);
	}
	fprintf(fp, "cluster -> %s\n", out);
}

/* import's command line. */
typedef struct import_args {
	const char *out, *state_out, *name;
	gp_import_topo *topos;          /* --topology KEY=FILE, loaded */
	gp_topo *tstore;
	int ntopos, quiet, family;
	const char *fabric_path, *fabric_tech;
	gp_fabric fabric;
	int has_fabric;
} import_args;

/* --topology KEY=FILE: the file is read now. */
static int add_topology(import_args *a, char *arg)
{
	gp_error err = GP_ERROR_INIT;
	char *eq = strchr(arg, '=');

	if (!eq || eq == arg || !eq[1])
		return gp_cli_usage_error(CMD, "--topology needs KEY=FILE, not '%s'", arg);
	*eq = '\0';
	gp_topo_init(&a->tstore[a->ntopos]);
	if (gp_topo_load(eq + 1, &a->tstore[a->ntopos], &err)) {
		a->ntopos++;
		return gp_cli_report(&err);
	}
	a->topos[a->ntopos].key = arg;
	a->topos[a->ntopos].path = eq + 1;
	a->topos[a->ntopos].topo = &a->tstore[a->ntopos];
	a->ntopos++;
	return GP_OK;
}

/* The options into a, then slurm|k8s (a->family 1 or 2): o's operands
 * after the first are the input files. */
static int parse_args(gp_opt_state *o, import_args *a)
{
	int c = 0, i, n, rc = GP_OK;

	while (rc == GP_OK && (c = gp_opt_next(o)) > 0) {
		switch (c) {
		case O_OUTPUT: a->out = o->arg; break;
		case O_STATE_OUT: a->state_out = o->arg; break;
		case O_NAME: a->name = o->arg; break;
		case O_FABRIC: a->fabric_path = o->arg; break;
		case O_FABRIC_TECH: a->fabric_tech = o->arg; break;
		case O_QUIET: a->quiet = 1; break;
		case O_TOPOLOGY: rc = add_topology(a, (char *)o->arg); break;
		}
	}
	if (rc != GP_OK)
		return rc;
	if (c < 0)
		return o->status;
	if (o->nargs < 1)
		return gp_cli_usage_error(CMD, "expected 'slurm' or 'k8s' and at least one FILE");
	if (!strcmp(o->args[0], "slurm"))
		a->family = 1;
	else if (!strcmp(o->args[0], "k8s") || !strcmp(o->args[0], "kubernetes"))
		a->family = 2;
	else
		return gp_cli_usage_error(CMD, "'%s': expected 'slurm', 'k8s' or 'sacct'", o->args[0]);
	if (o->nargs < 2)
		return gp_cli_usage_error(CMD, "no input FILE ('-' reads standard input)");
	if (!a->out)
		return gp_cli_usage_error(CMD, "-o CLUSTER.yaml is required");
	if (a->state_out && !strcmp(a->out, "-") && !strcmp(a->state_out, "-"))
		return gp_cli_usage_error(CMD, "-o and --state-out cannot both be standard output");
	for (i = 1, n = 0; i < o->nargs; i++)
		if (!strcmp(o->args[i], "-") && n++)
			return gp_cli_usage_error(CMD, "'-' given twice");
	return GP_OK;
}

/* Every input file into inv. */
/* One fabric file into a->fabric. */
static int read_fabric(import_args *a, const char *path, const char *text, size_t len)
{
	gp_error err = GP_ERROR_INIT;

	if (gp_fabric_read(&a->fabric, strcmp(path, "-") ? path : "<stdin>", text, len, &err)) {
		if (err.status == GP_OK)
			err.status = GP_EINPUT;
		return gp_cli_report(&err);
	}
	a->has_fabric = 1;
	return GP_OK;
}

static int read_inputs(import_args *a, gp_inventory *inv, int family, char **files, int n)
{
	gp_error err = GP_ERROR_INIT;
	int i, rc;

	if (a->fabric_path) {
		char *text = NULL;
		size_t len;

		if (gp_read_file(a->fabric_path, GP_IMPORT_MAX_FILE, &text, &len, &err))
			return gp_cli_report(&err);
		rc = read_fabric(a, a->fabric_path, text, len);
		free(text);
		if (rc)
			return rc;
	}
	for (i = 0; i < n; i++) {
		char *text = NULL;
		size_t len;

		if (!gp_read_file(files[i], GP_IMPORT_MAX_FILE, &text, &len, &err) &&
		    gp_fabric_sniff(text, len)) {
			rc = read_fabric(a, files[i], text, len);
			free(text);
			if (rc)
				return rc;
			continue;
		}
		if (err.status != GP_OK ||
		    gp_import_read(inv, family, text, len, strcmp(files[i], "-") ? files[i] : "<stdin>",
				   &err)) {
			if (err.status == GP_OK)
				err.status = GP_EINPUT;
			free(text);
			return gp_cli_report(&err);
		}
		/* Kubernetes nodes carry their fabric in labels, unless a
		 * fabric file named the switches already */
		if (family == 2 && a->fabric.nsw == 0 && gp_import_sniff(text, len) == GP_IMPORT_K8S_NODES) {
			int found = 0;

			if (gp_fabric_read_labels(&a->fabric, strcmp(files[i], "-") ? files[i] : "<stdin>",
						  text, len, &found, &err)) {
				free(text);
				return gp_cli_report(&err);
			}
			if (found)
				a->has_fabric = 1;
		}
		free(text);
	}
	return GP_OK;
}

/* The cluster YAML (and state) from the inventory, warnings said, checked
 * by loading them back, then written; the summary.  Releases inv. */
static int write_cluster(const import_args *a, gp_inventory *inv, int nfiles)
{
	gp_error err = GP_ERROR_INIT;
	gp_import_opts o;
	topo_cache cache;
	gp_sbuf cl, st;
	gp_cluster cluster;
	char cmdline[512];
	unsigned kinds;
	int rc;

	memset(&cache, 0, sizeof(cache));
	memset(&o, 0, sizeof(o));
	snprintf(cmdline, sizeof(cmdline), "gpuplan import %s", a->family == 1 ? "slurm" : "k8s");
	o.name = a->name;
	o.topos = a->topos;
	o.ntopos = a->ntopos;
	o.default_topo = default_topo;
	o.default_ctx = &cache;
	o.command = cmdline;
	o.fabric = a->has_fabric ? &a->fabric : NULL;
	o.fabric_tech = a->fabric_tech;
	gp_sbuf_init(&cl);
	gp_sbuf_init(&st);
	gp_cluster_init(&cluster);
	rc = gp_import_write(inv, &o, &cl, a->state_out ? &st : NULL, &err);
	if (!a->quiet) {
		for (size_t w = 0; w < a->fabric.nwarn; w++)
			fprintf(stderr, "gpuplan: warning: %s\n", a->fabric.warnings[w]);
		for (size_t w = 0; w < inv->nwarn; w++)
			fprintf(stderr, "gpuplan: warning: %s\n", inv->warnings[w]);
	}
	/* what the summary needs; the rest goes before the texts are checked */
	kinds = inv->kinds;
	gp_inventory_release(inv);
	topo_cache_release(&cache);
	if (rc) {
		rc = gp_cli_report(&err);
	} else if ((rc = verify(a->out, &cl, a->state_out, &st, &cluster)) == GP_OK) {
		char *paths[2] = { (char *)a->out, (char *)a->state_out };
		char *data[2] = { cl.buf, st.buf };
		size_t lens[2] = { cl.len, st.len };
		gp_txn txn = { { -1 }, NULL, 0 };
		struct stat sb;

		/* An existing state is replaced inside the transaction committers
		 * use (its lock held until the rename): a place --commit that read
		 * the old state cannot write over the import.  A new one is not
		 * created first, so a failed import leaves none. */
		if (a->state_out && strcmp(a->state_out, "-") && stat(a->state_out, &sb) == 0 &&
		    S_ISREG(sb.st_mode) && gp_txn_begin(&txn, a->state_out, 0, 60, 0, NULL, NULL, &err)) {
			gp_cluster_release(&cluster);
			gp_sbuf_release(&cl);
			gp_sbuf_release(&st);
			return gp_cli_report(&err);
		}
		rc = gp_cli_write_files(paths, data, lens, a->state_out ? 2 : 1);
		gp_txn_abort(&txn);
		if (rc == GP_OK)
			summary(&cluster, kinds, a->out, a->state_out, (size_t)nfiles, &st);
	}
	gp_cluster_release(&cluster);
	gp_sbuf_release(&cl);
	gp_sbuf_release(&st);
	return rc;
}

/* The first operand of argv, options of import and import sacct skipped
 * with their values; NULL when none. */
static const char *first_operand(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return i + 1 < argc ? argv[i + 1] : NULL;
		if (argv[i][0] != '-' || !argv[i][1])
			return argv[i];
		if (gp_opt_takes_value(&gp_desc_import, argv[i]) ||
		    gp_opt_takes_value(&gp_desc_import_sacct, argv[i]))
			i++;
	}
	return NULL;
}

int cmd_import(int argc, char **argv)
{
	import_args a;
	gp_inventory inv;
	gp_opt_state o;
	const char *first = first_operand(argc, argv);
	int rc, i;

	/* import sacct: the job history, a command of its own */
	if (first && !strcmp(first, "sacct"))
		return gp_cmd_import_sacct(argc, argv);
	memset(&a, 0, sizeof(a));
	a.tstore = gp_xcalloc((size_t)argc + 1, sizeof(*a.tstore));
	a.topos = gp_xcalloc((size_t)argc + 1, sizeof(*a.topos));
	gp_opt_begin(&o, &gp_desc_import, argc, argv);
	rc = parse_args(&o, &a);
	if (rc == GP_OK) {
		gp_inventory_init(&inv);
		gp_fabric_init(&a.fabric);
		rc = read_inputs(&a, &inv, a.family, o.args + 1, o.nargs - 1);
		if (rc == GP_OK)
			rc = write_cluster(&a, &inv, o.nargs - 1);
		gp_inventory_release(&inv);
		gp_fabric_release(&a.fabric);
	}
	gp_opt_end(&o);
	for (i = 0; i < a.ntopos; i++)
		gp_topo_release(&a.tstore[i]);
	free(a.tstore);
	free(a.topos);
	return rc;
}
