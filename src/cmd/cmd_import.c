/* gpuplan import slurm|k8s: read the text a scheduler prints (or its
 * configuration) into a cluster YAML and an allocation state. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/io/import.h"
#include "gpuplan/io/snapshot.h"
#include "gpuplan/io/state.h"
#include "gpuplan/model/alloc.h"
#include "gpuplan/util/util.h"

#define CMD "import"

const char gp_usage_import[] =
	"usage: gpuplan import slurm|k8s FILE... -o CLUSTER.yaml [--state-out STATE.yaml]\n"
	"                      [--topology KEY=FILE]... [--name NAME] [--quiet]\n"
	"\n"
	"Build a cluster YAML (and the allocation state of today) from scheduler text;\n"
	"'-' reads standard input.  The kind of each file is recognised from its content.\n"
	"\n"
	"  slurm: scontrol show node (multi-line, -o, --details), scontrol show job -d,\n"
	"         slurm.conf (NodeName/PartitionName lines), gres.conf, sinfo with a\n"
	"         header and GRES/GRES_USED columns\n"
	"  k8s:   kubectl get nodes -o json|yaml, kubectl get pods -A -o json|yaml\n"
	"\n"
	"  -o, --output FILE      the cluster YAML to write\n"
	"  --state-out FILE       the allocation state to write (running jobs, pods, or\n"
	"                         per-node use, with GPU indices)\n"
	"  --topology KEY=FILE    an 'nvidia-smi topo -m' snapshot for the nodes whose GPU\n"
	"                         type, product or catalog model is KEY, or whose names\n"
	"                         the hostlist KEY covers (repeatable)\n"
	"  --name NAME            cluster name (default: imported)\n"
	"  -q, --quiet            no warnings on standard error\n";

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

int cmd_import(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "state-out", required_argument, NULL, 's' },
		{ "topology", required_argument, NULL, 't' },
		{ "name", required_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *state_out = NULL, *name = NULL;
	gp_import_topo *topos = NULL;
	gp_topo *tstore = NULL;
	int ntopos = 0, quiet = 0, c, family, rc = GP_OK, i;
	gp_inventory inv;
	gp_import_opts o;
	topo_cache cache;
	gp_sbuf cl, st;
	gp_cluster cluster;
	gp_error err = GP_ERROR_INIT;
	char cmdline[512];
	unsigned kinds = 0;

	optind = 0;
	opterr = 0;
	tstore = gp_xcalloc((size_t)argc + 1, sizeof(*tstore));
	topos = gp_xcalloc((size_t)argc + 1, sizeof(*topos));
	while ((c = getopt_long(argc, argv, "o:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 's': state_out = optarg; break;
		case 'n': name = optarg; break;
		case 'q': quiet = 1; break;
		case 't': {
			char *eq = strchr(optarg, '=');

			if (!eq || eq == optarg || !eq[1]) {
				rc = gp_cli_usage_error(CMD, "--topology needs KEY=FILE, not '%s'", optarg);
				goto out_early;
			}
			*eq = '\0';
			gp_topo_init(&tstore[ntopos]);
			if (gp_topo_load(eq + 1, &tstore[ntopos], &err)) {
				ntopos++;
				rc = gp_cli_report(&err);
				goto out_early;
			}
			topos[ntopos].key = optarg;
			topos[ntopos].path = eq + 1;
			topos[ntopos].topo = &tstore[ntopos];
			ntopos++;
			break;
		}
		case 'h':
			fputs(gp_usage_import, stdout);
			goto out_early;
		default:
			rc = gp_cli_usage_error(CMD, "unknown option or missing value: '%s'",
						argv[optind - 1]);
			goto out_early;
		}
	}
	if (optind >= argc) {
		rc = gp_cli_usage_error(CMD, "expected 'slurm' or 'k8s' and at least one FILE");
		goto out_early;
	}
	if (!strcmp(argv[optind], "slurm"))
		family = 1;
	else if (!strcmp(argv[optind], "k8s") || !strcmp(argv[optind], "kubernetes"))
		family = 2;
	else {
		rc = gp_cli_usage_error(CMD, "'%s': expected 'slurm' or 'k8s'", argv[optind]);
		goto out_early;
	}
	optind++;
	if (optind >= argc) {
		rc = gp_cli_usage_error(CMD, "no input FILE ('-' reads standard input)");
		goto out_early;
	}
	if (!out) {
		rc = gp_cli_usage_error(CMD, "-o CLUSTER.yaml is required");
		goto out_early;
	}
	if (state_out && !strcmp(out, "-") && !strcmp(state_out, "-")) {
		rc = gp_cli_usage_error(CMD, "-o and --state-out cannot both be standard output");
		goto out_early;
	}
	for (i = optind, c = 0; i < argc; i++)
		if (!strcmp(argv[i], "-") && c++) {
			rc = gp_cli_usage_error(CMD, "'-' given twice");
			goto out_early;
		}
	gp_inventory_init(&inv);
	for (i = optind; i < argc; i++) {
		char *text = NULL;
		size_t len;

		if (gp_read_file(argv[i], GP_IMPORT_MAX_FILE, &text, &len, &err) ||
		    gp_import_read(&inv, family, text, len, strcmp(argv[i], "-") ? argv[i] : "<stdin>",
				   &err)) {
			if (err.status == GP_OK)
				err.status = GP_EINPUT;
			free(text);
			rc = gp_cli_report(&err);
			goto out_inv;
		}
		free(text);
	}
	memset(&cache, 0, sizeof(cache));
	memset(&o, 0, sizeof(o));
	snprintf(cmdline, sizeof(cmdline), "gpuplan import %s", family == 1 ? "slurm" : "k8s");
	o.name = name;
	o.topos = topos;
	o.ntopos = ntopos;
	o.default_topo = default_topo;
	o.default_ctx = &cache;
	o.command = cmdline;
	gp_sbuf_init(&cl);
	gp_sbuf_init(&st);
	gp_cluster_init(&cluster);
	rc = gp_import_write(&inv, &o, &cl, state_out ? &st : NULL, &err);
	if (!quiet)
		for (size_t w = 0; w < inv.nwarn; w++)
			fprintf(stderr, "gpuplan: warning: %s\n", inv.warnings[w]);
	/* what the summary needs; the rest goes before the texts are checked */
	kinds = inv.kinds;
	gp_inventory_release(&inv);
	topo_cache_release(&cache);
	memset(&cache, 0, sizeof(cache));
	if (rc) {
		rc = gp_cli_report(&err);
	} else if ((rc = verify(out, &cl, state_out, &st, &cluster)) == GP_OK) {
		char *paths[2] = { (char *)out, (char *)state_out };
		char *data[2] = { cl.buf, st.buf };
		size_t lens[2] = { cl.len, st.len };

		rc = gp_cli_write_files(paths, data, lens, state_out ? 2 : 1);
		if (rc == GP_OK)
			summary(&cluster, kinds, out, state_out, (size_t)(argc - optind), &st);
	}
	gp_cluster_release(&cluster);
	gp_sbuf_release(&cl);
	gp_sbuf_release(&st);
	topo_cache_release(&cache);
out_inv:
	gp_inventory_release(&inv);
out_early:
	for (i = 0; i < ntopos; i++)
		gp_topo_release(&tstore[i]);
	free(tstore);
	free(topos);
	return rc;
}
