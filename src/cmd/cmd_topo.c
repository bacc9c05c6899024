/* gpuplan topo: import (snapshot -> node type) and show. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpuplan/io/yaml.h"
#include "gpuplan/model/catalog.h"
#include "gpuplan/io/snapshot.h"
#include "gpuplan/io/topo_yaml.h"
#include "gpuplan/model/topo.h"
#include "gpuplan/util/util.h"

enum { O_OUTPUT = 1, O_NAME, O_MODEL, O_JSON, O_STRICT };

static const gp_opt import_opts[] = {
	{ .name = "output", .sc = 'o', .key = O_OUTPUT, .type = GP_OT_STR, .arg = "FILE",
	  .help = "write the node type to FILE, atomically\n(default: standard output)" },
	{ .name = "name", .key = O_NAME, .type = GP_OT_STR, .arg = "NAME",
	  .help = "the node type's name (default: the snapshot's file name)" },
	{ .name = "gpu-model", .key = O_MODEL, .type = GP_OT_STR, .arg = "MODEL",
	  .help = "the GPU model of its GPUs" },
	{ .name = "json", .key = O_JSON, .type = GP_OT_FLAG, .help = "JSON instead of YAML" },
	{ .name = "strict", .key = O_STRICT, .type = GP_OT_FLAG,
	  .help = "refuse a matrix cut off after a complete row" },
	{ 0 },
};

const gp_cmd_desc gp_desc_topo_import = {
	.name = "topo import", .cmd = "topo",
	.synopsis = "SNAPSHOT [-o FILE] [--name NAME] [--gpu-model MODEL] [--json]\n"
		    "  [--strict]",
	.min_args = 0, .max_args = -1,
	.about = "Read `nvidia-smi topo -m` (or -mp) text and write a node type (YAML, or\n"
		 "JSON with --json) to standard output or, atomically, to FILE.  A matrix cut\n"
		 "off after a complete row imports as a partial view (only the devices with a\n"
		 "row, with a warning); --strict refuses it.  A --gpu-model outside the\n"
		 "built-in catalog is kept with a warning: a cluster using the node type must\n"
		 "define it under gpu_models.\n",
	.opts = import_opts,
};

static const gp_cmd_desc *const topo_subs[] = { &gp_desc_topo_import, &gp_desc_topo_show, NULL };

const gp_cmd_desc gp_desc_topo = {
	.name = "topo",
	.synopsis = "import SNAPSHOT ...\n"
		    "show ...",
	.min_args = 0, .max_args = 0,
	.about = "import reads an `nvidia-smi topo -m` snapshot into a node type; show prints\n"
		 "the cluster's topology.\n",
	.subs = topo_subs,
};

/* Default node-type name: the snapshot's file name without directory and
 * .txt suffix. */
static char *default_name(const char *path)
{
	const char *b = strrchr(path, '/');
	size_t n;

	b = b ? b + 1 : path;
	n = strlen(b);
	if (n > 4 && !strcmp(b + n - 4, ".txt"))
		n -= 4;
	if (n == 0 || !strcmp(path, "-"))
		return gp_xstrdup("node");
	return gp_xstrndup(b, n);
}

/* A double-quoted YAML scalar (JSON-compatible escapes). */
/* Comment text: one line, no control characters. */
static void comment_text(gp_sbuf *sb, const char *s)
{
	for (; *s; s++)
		gp_sbuf_add(sb, (unsigned char)*s < 0x20 ? "?" : s, 1);
}

static void quirk_list(const gp_topo *t, const char **names, int *n)
{
	unsigned i;

	*n = 0;
	for (i = 0; i < GP_TOPO_F_COUNT; i++)
		if (t->flags & (1u << i))
			names[(*n)++] = gp_topo_flag_name(1u << i);
}

static void render_yaml(gp_sbuf *sb, const gp_topo *t, const char *name,
			const char *model)
{
	const char *q[GP_TOPO_F_COUNT];
	int nq, i;

	gp_sbuf_adds(sb, "# node type imported by gpuplan topo import\n# source: ");
	comment_text(sb, t->source);
	gp_sbuf_adds(sb, "\n");
	quirk_list(t, q, &nq);
	if (nq) {
		gp_sbuf_adds(sb, "# quirks:");
		for (i = 0; i < nq; i++)
			gp_sbuf_addf(sb, " %s", q[i]);
		gp_sbuf_adds(sb, "\n");
	}
	if (t->flags & GP_TOPO_F_TRUNCATED) {
		char cut[512];

		gp_sbuf_adds(sb, "# partial view: ");
		comment_text(sb, gp_topo_cut_describe(t, cut, sizeof(cut)));
		gp_sbuf_adds(sb, "\n");
	}
	gp_sbuf_adds(sb, "name: ");
	gp_yaml_quote(sb, name);
	gp_sbuf_adds(sb, "\n");
	if (model) {
		gp_sbuf_adds(sb, "gpu_model: ");
		gp_yaml_quote(sb, model);
		gp_sbuf_adds(sb, "\n");
	} else {
		gp_sbuf_adds(sb, "# gpu_model: not given (--gpu-model)\n");
	}
	gp_topo_yaml_put(sb, t, "");
}

static int render_json(gp_sbuf *sb, const gp_topo *t, const char *name,
		       const char *model)
{
	json_t *root = json_object(), *gpus = json_array(), *nics = json_array();
	json_t *devs = json_array(), *links = json_array(), *quirks = json_array();
	const char *q[GP_TOPO_F_COUNT];
	int nq, i, j, n = t->ngpus + t->nnics;
	char buf[16], *s;

	for (i = 0; i < t->ngpus; i++) {
		const gp_topo_gpu *g = &t->gpus[i];
		json_t *o = json_object(), *cpus = json_array();

		for (j = 0; j < g->ncpus; j++)
			json_array_append_new(cpus, json_integer(g->cpus[j]));
		json_object_set_new(o, "id", json_string(g->id));
		json_object_set_new(o, "cpus", cpus);
		json_object_set_new(o, "numa", g->numa >= 0 ? json_integer(g->numa) : json_null());
		json_object_set_new(o, "gpu_numa_id",
				    g->gpu_numa_id >= 0 ? json_integer(g->gpu_numa_id) : json_null());
		json_array_append_new(gpus, o);
	}
	for (i = 0; i < t->nnics; i++) {
		const gp_topo_nic *c = &t->nics[i];
		json_t *o = json_object();

		json_object_set_new(o, "id", json_string(c->id));
		json_object_set_new(o, "device", c->device[0] ? json_string(c->device) : json_null());
		json_object_set_new(o, "numa", c->numa >= 0 ? json_integer(c->numa) : json_null());
		json_array_append_new(nics, o);
	}
	for (i = 0; i < n; i++) {
		json_t *row = json_array();

		json_array_append_new(devs, json_string(i < t->ngpus ? t->gpus[i].id
								     : t->nics[i - t->ngpus].id));
		for (j = 0; j < n; j++)
			json_array_append_new(row, json_string(gp_link_format(
							   gp_topo_link(t, i, j), buf, sizeof(buf))));
		json_array_append_new(links, row);
	}
	quirk_list(t, q, &nq);
	for (i = 0; i < nq; i++)
		json_array_append_new(quirks, json_string(q[i]));
	json_object_set_new(root, "name", json_string(name));
	json_object_set_new(root, "gpu_model", model ? json_string(model) : json_null());
	json_object_set_new(root, "source", json_string(t->source));
	json_object_set_new(root, "gpus", gpus);
	json_object_set_new(root, "nics", nics);
	json_object_set_new(root, "devices", devs);
	json_object_set_new(root, "links", links);
	json_object_set_new(root, "quirks", quirks);
	s = json_dumps(root, JSON_SORT_KEYS);
	json_decref(root);
	if (!s)
		return GP_EIO;
	gp_sbuf_adds(sb, s);
	gp_sbuf_adds(sb, "\n");
	free(s);
	return GP_OK;
}

static int topo_import(int argc, char **argv)
{
	const char *snap = NULL, *out = NULL, *name = NULL, *model = NULL;
	int json = 0, strict = 0, c, rc;
	gp_topo t;
	gp_error err = GP_ERROR_INIT;
	gp_opt_state o;
	gp_sbuf sb;
	char *dname;

	gp_opt_begin(&o, &gp_desc_topo_import, argc, argv);
	while ((c = gp_opt_next(&o)) > 0) {
		switch (c) {
		case O_JSON: json = 1; break;
		case O_STRICT: strict = 1; break;
		case O_OUTPUT: out = o.arg; break;
		case O_NAME: name = o.arg; break;
		case O_MODEL: model = o.arg; break;
		}
	}
	snap = o.nargs ? o.args[0] : NULL;
	rc = c < 0 ? o.status : o.nargs > 1 ? gp_opt_bad(&o, "too many arguments") : GP_OK;
	gp_opt_end(&o);
	if (rc)
		return rc;
	if (!snap)
		return gp_cli_usage_error("topo", "import needs a SNAPSHOT file");
	if (name && !*name)
		return gp_cli_usage_error("topo", "--name must not be empty");
	if (model && !*model)
		return gp_cli_usage_error("topo", "--gpu-model must not be empty");
	if (model) {
		gp_catalog cat;

		gp_catalog_init_builtin(&cat);
		if (!gp_catalog_find(&cat, model))
			fprintf(stderr, "gpuplan: warning: GPU model '%s' is not in the built-in catalog "
				"(see 'gpuplan topo show --models'); a cluster using this node type must "
				"define it under 'gpu_models'\n", model);
		gp_catalog_release(&cat);
	}
	rc = gp_topo_load_ex(snap, strict ? GP_TOPO_STRICT : 0, &t, &err);
	if (rc)
		return gp_cli_report(&err);
	if (t.flags & GP_TOPO_F_TRUNCATED) {
		char cut[512];

		fprintf(stderr, "gpuplan: %s:%d: warning: %s\n", t.source, t.cut.last_line,
			gp_topo_cut_describe(&t, cut, sizeof(cut)));
	}
	dname = name ? gp_xstrdup(name) : default_name(snap);
	gp_sbuf_init(&sb);
	if (json)
		rc = render_json(&sb, &t, dname, model);
	else
		render_yaml(&sb, &t, dname, model);
	free(dname);
	gp_topo_release(&t);
	if (rc) {
		gp_sbuf_release(&sb);
		return gp_cli_fail(GP_EIO, "cannot render JSON");
	}
	if (out && strcmp(out, "-")) {
		gp_atomic_file af;

		if ((rc = gp_cli_not_input(out)) != GP_OK) {
			gp_sbuf_release(&sb);
			return rc;
		}
		if (gp_atomic_open(&af, out, &err)) {
			gp_sbuf_release(&sb);
			return gp_cli_report(&err);
		}
		fwrite(sb.buf, 1, sb.len, af.fp);
		rc = gp_atomic_commit(&af, &err);
		gp_sbuf_release(&sb);
		return rc ? gp_cli_report(&err) : GP_OK;
	}
	fwrite(sb.buf, 1, sb.len, stdout);
	gp_sbuf_release(&sb);
	return GP_OK;
}

int cmd_topo(int argc, char **argv)
{
	static const char *const subs[] = { "import", "show" };

	if (argc < 2)
		return gp_cli_usage_error("topo", "missing subcommand (import or show)");
	switch (gp_opt_subcommand("topo", argv[1], subs, 2)) {
	case 0: return topo_import(argc - 1, argv + 1);
	case 1: return gp_cmd_topo_show(argc - 1, argv + 1);
	default: return GP_EUSAGE;
	}
}
