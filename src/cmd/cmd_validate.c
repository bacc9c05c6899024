/* gpuplan validate FILE: check any file gpuplan reads (cluster, node
 * type, job, job list, trace, snapshot, allocation state, environments,
 * failure list, failure model, what-if spec) and print a one-line summary
 * (exit 0) or the located error (exit 3). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/io/envs.h"
#include "gpuplan/io/failures.h"
#include "gpuplan/io/fabric_import.h"
#include "gpuplan/io/import.h"
#include "gpuplan/io/sacct.h"
#include "gpuplan/io/state.h"
#include "gpuplan/model/alloc.h"
#include "gpuplan/model/cluster.h"
#include "gpuplan/model/env.h"
#include "gpuplan/model/job.h"
#include "gpuplan/io/jobspec.h"
#include "gpuplan/io/snapshot.h"
#include "gpuplan/io/trace.h"
#include "gpuplan/model/topo.h"
#include "gpuplan/util/util.h"
#include "gpuplan/io/yaml.h"
#include "gpuplan/sim/tenants.h"
#include "gpuplan/whatif/spec.h"

enum { O_TYPE = 1 };

static const gp_opt validate_opts[] = {
	{ .name = "type", .key = O_TYPE, .type = GP_OT_STR, .arg = "KIND",
	  .help = "cluster, node-type, job, jobs, trace, snapshot, state,\n"
		  "environments, failures, failure-model, whatif, tenants,\n"
		  "sacct (a job history import sacct reads), topology (a\n"
		  "fabric import --fabric reads)" },
	{ .name = "cluster", .sc = 'c', .key = 'c', .type = GP_OT_STR, .arg = "CLUSTER",
	  .help = "the cluster a state, environments or failure list names" },
	{ 0 },
};

const gp_cmd_desc gp_desc_validate = {
	.name = "validate",
	.synopsis = "[--type KIND] [-c CLUSTER] FILE",
	.min_args = 0, .max_args = -1,
	.about = "Check FILE and print a one-line summary.  The kind is detected from the\n"
		 "content: a YAML mapping with 'node_types' or 'nodes' is a cluster, one\n"
		 "with 'jobs' or a list of mappings a job list, one with 'gpus' and 'links'\n"
		 "a node type (as 'topo import' writes it), 'allocations' or 'down' an\n"
		 "allocation state, 'environments' an environments file, 'failure_model' a\n"
		 "failure model, 'axes' or 'slo' a what-if spec, any other mapping a job; an\n"
		 "Alibaba openb node list (first line 'sn,cpu_milli,...') is a cluster, a\n"
		 "'nvidia-smi topo -m' matrix a snapshot, a sacct, scontrol or pod-list\n"
		 "record a job history (as 'import sacct' reads it), topology.conf or\n"
		 "ibnetdiscover text a fabric, 'tenants' a tenants file, rows with a\n"
		 "'time_s' and a 'node' column a failure list, other comma- or\n"
		 "tab-separated rows a trace (any dialect 'simulate' reads).  Each kind\n"
		 "has its own size limit.  A state,\n"
		 "environments or failure list is checked against CLUSTER (default: the\n"
		 "bundled example).  FILE '-' is standard input.  Exit 0 when valid, 3 with\n"
		 "FILE:LINE:COL when not.\n",
	.opts = validate_opts,
};

enum kind { K_AUTO, K_CLUSTER, K_JOB, K_JOBLIST, K_SNAPSHOT, K_NODETYPE, K_TRACE, K_STATE,
	    K_ENVS, K_FAILURES, K_FAILMODEL, K_WHATIF, K_TENANTS, K_SACCT, K_TOPOLOGY };

/* What a kind's reader loaded. */
typedef union loaded {
	gp_cluster cluster;
	gp_topo topo;
	gp_job job;
	gp_joblist list;
	struct {
		gp_alloc a;
		gp_state s;
	} state;
	gp_env_set envs;
	gp_fail_list fails;
	gp_fail_model model;
	struct {
		gp_whatif_spec s;
		gp_cluster *base;       /* one per cluster of the axis */
	} whatif;
	gp_tenants tenants;
	gp_sacct hist;
	struct {
		gp_fabric f;
		char *text;
	} fabric;
} loaded;

/* "336 GPUs (256 A100-SXM4-40GB, 64 H100-SXM5-80GB, ...)". */
static void print_gpus(const gp_cluster *c)
{
	gp_sbuf sb;

	gp_sbuf_init(&sb);
	gp_cli_gpus_by_model_text(c, &sb);
	printf("%d GPUs (%s)", c->ngpus, sb.len ? sb.buf : "");
	gp_sbuf_release(&sb);
}

/* A gpu_model the built-in catalog does not know is most likely misspelt;
 * a cluster may still define it under gpu_models, so it is a warning here
 * (place and simulate refuse it against a cluster that lacks it). */
static void warn_models(const gp_job *j, const char *path)
{
	gp_catalog cat;
	char bad[96], hint[96];

	gp_catalog_init_builtin(&cat);
	if (gp_job_unknown_model(j, &cat, bad, sizeof(bad), hint, sizeof(hint)))
		fprintf(stderr, "gpuplan: warning: %s:%lld:1: job '%s': gpu_model '%s' is not in the "
			"built-in catalog%s%s%s; only a cluster defining it under gpu_models can run it\n",
			path, (long long)j->line, j->id, bad, hint[0] ? " (did you mean '" : "",
			hint[0] ? hint : "", hint[0] ? "'?)" : "");
	gp_catalog_release(&cat);
}

/* Rows of comma- or tab-separated fields: the first line that is not
 * blank or a '#' comment holds a separator and no "key:" YAML would have. */
static int looks_like_trace(const char *text)
{
	const char *p = text, *end;

	for (;;) {
		while (*p == '\n' || *p == '\r')
			p++;
		if (*p != '#')
			break;
		p += strcspn(p, "\n");
	}
	end = strchr(p, '\n');
	if (!end)
		end = p + strlen(p);
	for (; p < end; p++) {
		if (*p == ',' || *p == '\t')
			return 1;
		if (*p == ':' && (p[1] == ' ' || p + 1 == end))
			return 0;
	}
	return 0;
}

/* A `nvidia-smi topo -m` matrix: a header naming GPU0 and a row for it. */
static int looks_like_snapshot(const char *text)
{
	const char *p = strstr(text, "GPU0");

	return p && (strstr(p, "\nGPU0") || strstr(p, "CPU Affinity"));
}

/* The long root lists are only counted while detecting (memory: the
 * loader that follows reads the file again, and the tree of detection
 * must not sit beside it or be the larger of the two). */
static int skip_item(void *ud, const gp_yaml_doc *doc, const char *key, const gp_yaml_node *item,
		     size_t index, gp_error *err)
{
	(void)ud;
	(void)doc;
	(void)key;
	(void)item;
	(void)index;
	(void)err;
	return GP_OK;
}

/* The largest file any YAML kind may be (environments files): detection
 * streams the YAML and keeps only its root keys, the loader of the kind
 * found then applies its own limit. */
#define DETECT_YAML_MAX GP_ENVS_MAX_FILE
/* Bytes read to tell a text kind by its head. */
#define DETECT_HEAD 65536

/* A 'time_s' and a 'node' column in the first line that is not a comment:
 * a failure list (simulate --failures). */
static int looks_like_failures(const char *text)
{
	const char *p = text;
	size_t n;
	char line[512];

	for (;;) {
		while (*p == '\n' || *p == '\r')
			p++;
		if (*p != '#')
			break;
		p += strcspn(p, "\n");
	}
	n = strcspn(p, "\r\n");
	if (n >= sizeof(line))
		return 0;
	memcpy(line, p, n);
	line[n] = 0;
	return strstr(line, "time_s") && strstr(line, "node") && strchr(line, ',');
}

/* A job history `import sacct` reads: sacct text (a header naming JobID
 * and no comma: a comma-separated header is a trace's), sacct or
 * slurmdb JSON (with job ids), a Kubernetes pod list, scontrol's
 * Key=Value records. */
static int looks_like_sacct(const char *text, size_t len)
{
	size_t n = strcspn(text, "\n");

	switch (gp_sacct_sniff(text, len)) {
	case 1:
		return memchr(text, ',', n) == NULL;
	case 2:
		return memmem(text, len < 65536 ? len : 65536, "\"job_id\"", 8) != NULL;
	case 3:
	case 4:
		return 1;
	default:
		return 0;
	}
}

/* A network fabric: Slurm's topology.conf (tree or block), `scontrol show
 * topology`, an ibnetdiscover dump; the text must not be YAML that merely
 * mentions one (its first significant line has no 'key:' form). */
static int looks_like_topology(const char *text, size_t len)
{
	const char *p = text;

	if (!gp_fabric_sniff(text, len))
		return 0;
	for (; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		size_t n;

		p += strspn(p, " \t");
		if (*p == '#' || *p == '\n' || *p == '\r')
			continue;
		n = strcspn(p, "\n");
		/* "key: value" or "key:" opens a YAML mapping */
		for (size_t i = 0; i < n; i++) {
			if (p[i] == '=' || p[i] == ' ' || p[i] == '\t')
				break;
			if (p[i] == ':' && (i + 1 == n || p[i + 1] == ' ' || p[i + 1] == '\r'))
				return 0;
		}
		return 1;
	}
	return 0;
}

/* The kinds told by their first bytes; K_AUTO when only YAML can tell. */
static enum kind kind_of_head(const char *text, size_t len)
{
	if (len >= 12 && !memcmp(text, "sn,cpu_milli", 12))
		return K_CLUSTER;
	if (looks_like_snapshot(text))
		return K_SNAPSHOT;
	if (looks_like_sacct(text, len))
		return K_SACCT;
	if (looks_like_topology(text, len))
		return K_TOPOLOGY;
	if (looks_like_failures(text))
		return K_FAILURES;
	if (looks_like_trace(text))
		return K_TRACE;
	return K_AUTO;
}

/* A regular file: the kind its head tells (a trace of any size is told
 * here, before the YAML limit applies), else K_AUTO; -1 on an error. */
static int peek_file(const char *path, gp_error *err)
{
	char *head;
	struct stat sb;
	FILE *fp;
	size_t n, bom;
	enum kind k;

	if (stat(path, &sb) || !S_ISREG(sb.st_mode))
		return K_AUTO;
	fp = fopen(path, "rb");
	if (!fp) {
		gp_error_set(err, GP_EIO, path, 0, 0, "cannot open: %s", strerror(errno));
		return -1;
	}
	head = gp_xmalloc(DETECT_HEAD + 1);
	n = fread(head, 1, DETECT_HEAD, fp);
	head[n] = 0;
	fclose(fp);
	bom = gp_text_bom(head, n);
	k = memchr(head, 0, n) ? K_AUTO : kind_of_head(head + bom, n - bom);
	free(head);
	if (k != K_AUTO)
		return k;
	if ((uintmax_t)sb.st_size > DETECT_YAML_MAX) {
		gp_error_set(err, GP_EINPUT, path, 0, 0, "file is larger than the %zu-byte limit of "
			     "any YAML file gpuplan reads (and its head is no trace, snapshot or "
			     "failure list)", (size_t)DETECT_YAML_MAX);
		return -1;
	}
	return K_AUTO;
}

/* Only the root keys that tell the kind are kept. */
static int keep_kind_key(void *ud, const char *key)
{
	static const char *const kind_keys[] = { "node_types", "nodes", "fabric", "jobs", "links",
						 "gpus", "allocations", "down", "draining", "environments",
						 "failure_model", "tenants", "axes", "slo", "traces",
						 "cluster", "trace", NULL };
	const char *const *k;

	(void)ud;
	for (k = kind_keys; *k; k++)
		if (!strcmp(key, *k))
			return 1;
	return 0;
}

static enum kind detect(const char *path, gp_error *err)
{
	static const char *const lists[] = { "fabric", "nodes", "jobs", "allocations", "environments",
					     NULL };
	char *text = NULL;
	size_t len;
	gp_yaml_doc doc;
	enum kind k = K_AUTO;
	int st, regular = strcmp(path, "-") != 0;
	struct stat sb;

	/* A regular file is parsed as it is read (memory); its text is read
	 * only when the YAML tree does not tell. */
	regular = regular && !stat(path, &sb) && S_ISREG(sb.st_mode);
	if (regular) {
		st = peek_file(path, err);
		if (st < 0)
			return K_AUTO;
		if (st != K_AUTO)
			return (enum kind)st;
		st = gp_yaml_load_streams(path, DETECT_YAML_MAX, GP_YAML_MAX_DEPTH, lists,
					  skip_item, keep_kind_key, NULL, &doc, err);
		if (st == GP_EIO)
			return K_AUTO;
	} else {
		if (gp_read_file(path, GP_TRACE_MAX_BYTES, &text, &len, err))
			return K_AUTO;
		k = memchr(text, 0, len) ? K_AUTO : kind_of_head(text, len);
		if (k != K_AUTO) {
			free(text);
			return k;
		}
		st = gp_yaml_parse_streams(text, len, path, GP_YAML_MAX_DEPTH, 1, lists, skip_item,
					   NULL, &doc, err);
	}
	if (!st && doc.root && doc.root->type == GP_YAML_MAP) {
		const gp_yaml_node *r = doc.root;

		if (gp_yaml_get(r, "node_types") || gp_yaml_get(r, "nodes") || gp_yaml_get(r, "fabric"))
			k = K_CLUSTER;
		else if (gp_yaml_get(r, "jobs"))
			k = K_JOBLIST;
		else if (gp_yaml_get(r, "links") && gp_yaml_get(r, "gpus"))
			k = K_NODETYPE;
		else if (gp_yaml_get(r, "allocations") || gp_yaml_get(r, "down") ||
			 gp_yaml_get(r, "draining"))
			k = K_STATE;
		else if (gp_yaml_get(r, "environments"))
			k = K_ENVS;
		else if (gp_yaml_get(r, "failure_model"))
			k = K_FAILMODEL;
		else if (gp_yaml_get(r, "tenants") && gp_yaml_get(r, "tenants")->type == GP_YAML_SEQ &&
			 !gp_yaml_get(r, "trace"))
			k = K_TENANTS;   /* a what-if spec names a tenants file */
		else if (gp_yaml_get(r, "axes") || gp_yaml_get(r, "slo") || gp_yaml_get(r, "traces") ||
			 (gp_yaml_get(r, "cluster") && gp_yaml_get(r, "trace")))
			k = K_WHATIF;
		else
			k = K_JOB;
	} else if (!st && doc.root && doc.root->type == GP_YAML_SEQ && doc.root->n > 0 &&
		   doc.root->items[0]->type == GP_YAML_MAP) {
		k = K_JOBLIST;
	} else {
		/* Not a mapping, or not YAML: read it as a cluster file, whose
		 * loader says what is wrong and where. */
		k = K_CLUSTER;
	}
	gp_yaml_doc_release(&doc);
	free(text);
	if (k != K_AUTO)
		gp_error_clear(err);
	return k;
}

/* ---- the kinds: read, say, release ----
 *
 * read loads path (a state, environments or failure list against the
 * cluster c) into v and returns GP_OK, or reports its error and returns
 * the exit code with nothing left to release; say prints the one-line
 * summary; release frees what read loaded. */

static int read_cluster(const char *path, const gp_cluster *c, loaded *v)
{
	gp_error err = GP_ERROR_INIT;

	(void)c;
	if (gp_cluster_load(path, &v->cluster, &err))
		return gp_cli_report(&err);
	return GP_OK;
}

static void say_cluster(const char *path, const loaded *v)
{
	const gp_cluster *c = &v->cluster;

	printf("%s: cluster", path);
	if (c->name)
		printf(" '%s'", c->name);
	printf(": %d node%s, ", c->nnodes, c->nnodes == 1 ? "" : "s");
	print_gpus(c);
	printf(", %d NIC%s, %d switch%s, %d node type%s\n", c->nnics, c->nnics == 1 ? "" : "s",
	       c->nswitches, c->nswitches == 1 ? "" : "es", c->ntypes, c->ntypes == 1 ? "" : "s");
}

static void release_cluster(loaded *v)
{
	gp_cluster_release(&v->cluster);
}

static int read_snapshot(const char *path, const gp_cluster *c, loaded *v)
{
	gp_error err = GP_ERROR_INIT;

	(void)c;
	gp_topo_init(&v->topo);
	if (gp_topo_load(path, &v->topo, &err))
		return gp_cli_report(&err);
	return GP_OK;
}

static void say_snapshot(const char *path, const loaded *v)
{
	const gp_topo *t = &v->topo;
	unsigned i;
	int n = 0;

	printf("%s: snapshot: %d GPU%s, %d NIC%s", path, t->ngpus, t->ngpus == 1 ? "" : "s",
	       t->nnics, t->nnics == 1 ? "" : "s");
	for (i = 0; i < GP_TOPO_F_COUNT; i++)
		if (t->flags & (1u << i))
			printf("%s%s", n++ ? ", " : " (quirks: ", gp_topo_flag_name(1u << i));
	printf("%s\n", n ? ")" : "");
}

static void release_snapshot(loaded *v)
{
	gp_topo_release(&v->topo);
}

static int read_job(const char *path, const gp_cluster *c, loaded *v)
{
	gp_error err = GP_ERROR_INIT;

	(void)c;
	if (gp_jobspec_load(path, &v->job, &err))
		return gp_cli_report(&err);
	return GP_OK;
}

static void say_job(const char *path, const loaded *v)
{
	const gp_job *j = &v->job;

	printf("%s: job '%s': %s, %d GPU%s", path, j->id ? j->id : "-",
	       gp_job_type_name(j->type), j->gpus, j->gpus == 1 ? "" : "s");
	if (j->gpu_milli < 1000)
		printf(" at %d/1000 each", j->gpu_milli);
	if (j->more->model.name[0])
		printf(", model %s", j->more->model.name);
	printf("\n");
	warn_models(j, path);
}

static void release_job(loaded *v)
{
	gp_job_release(&v->job);
}

static int read_joblist(const char *path, const gp_cluster *c, loaded *v)
{
	gp_error err = GP_ERROR_INIT;

	(void)c;
	if (gp_jobspec_load_list(path, &v->list, &err))
		return gp_cli_report(&err);
	return GP_OK;
}

static void say_joblist(const char *path, const loaded *v)
{
	long gpus = 0;
	size_t i;

	for (i = 0; i < v->list.n; i++)
		gpus += v->list.jobs[i].gpus;
	printf("%s: job list: %zu job%s, %ld GPUs requested\n", path, v->list.n,
	       v->list.n == 1 ? "" : "s", gpus);
}

static void release_list(loaded *v)
{
	gp_joblist_release(&v->list);
}

/* A trace: every row read, every job checked (no --skip-bad). */
static int read_trace(const char *path, const gp_cluster *c, loaded *v)
{
	gp_trace_opts o;
	gp_error err = GP_ERROR_INIT;

	(void)c;
	gp_joblist_init(&v->list);
	gp_trace_opts_init(&o);
	if (gp_trace_load(path, &o, &v->list, &err))
		return gp_cli_report(&err);
	return GP_OK;
}

static void say_trace(const char *path, const loaded *v)
{
	const gp_joblist *l = &v->list;
	double first = 0, last = 0;
	long gpus = 0;
	size_t i;

	for (i = 0; i < l->n; i++) {
		gpus += l->jobs[i].gpus;
		if (i == 0 || l->jobs[i].submit < first)
			first = l->jobs[i].submit;
		if (i == 0 || l->jobs[i].submit > last)
			last = l->jobs[i].submit;
	}
	printf("%s: trace (%s): %zu job%s, %ld GPUs requested, submits over %.0f s", path,
	       l->format ? l->format : "?", l->n, l->n == 1 ? "" : "s", gpus, last - first);
	if (l->left_out)
		printf(", %zu row%s left out (%s)", l->left_out, l->left_out == 1 ? "" : "s",
		       l->left_out_note ? l->left_out_note : "not replayable");
	printf("\n");
}

/* A node-type file as 'topo import' writes it: loaded as the topology of
 * a one-node cluster, so that errors point into the file itself. */
static int read_node_type(const char *path, const gp_cluster *c, loaded *v)
{
	gp_error err = GP_ERROR_INIT;
	char *abs = realpath(path, NULL), *text;
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char name[64];
	gp_sbuf sb;

	(void)c;
	if (!abs)
		return gp_cli_fail(GP_EIO, "%s: cannot open", path);
	/* The type is named after the file, as messages quote it. */
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(base, "."), base);
	gp_sbuf_init(&sb);
	gp_sbuf_adds(&sb, "node_types:\n  ");
	gp_yaml_quote(&sb, name[0] ? name : "t");
	gp_sbuf_adds(&sb, ": {topology: ");
	gp_yaml_quote(&sb, abs);
	gp_sbuf_adds(&sb, "}\nnodes:\n  - {name: n, type: ");
	gp_yaml_quote(&sb, name[0] ? name : "t");
	gp_sbuf_adds(&sb, "}\n");
	text = gp_sbuf_detach(&sb);
	free(abs);
	if (gp_cluster_parse(text, strlen(text), "(node type)", &v->cluster, &err)) {
		free(text);
		return gp_cli_report(&err);
	}
	free(text);
	return GP_OK;
}

static void say_node_type(const char *path, const loaded *v)
{
	const gp_node_type *t = &v->cluster.types[0];

	printf("%s: node type: %d GPU%s (%s), %d NIC%s\n", path, t->topo.ngpus,
	       t->topo.ngpus == 1 ? "" : "s",
	       t->gpu_model >= 0 ? v->cluster.catalog.models[t->gpu_model].name : "no gpu_model",
	       t->topo.nnics, t->topo.nnics == 1 ? "" : "s");
}

static int read_state(const char *path, const gp_cluster *c, loaded *v)
{
	gp_error err = GP_ERROR_INIT;

	if (gp_alloc_init(&v->state.a, c))
		return gp_cli_fail(GP_EIO, "cannot set up the allocation state");
	gp_state_init(&v->state.s);
	if (gp_state_load(path, c, &v->state.a, &v->state.s, &err)) {
		gp_state_release(&v->state.s);
		gp_alloc_release(&v->state.a);
		return gp_cli_report(&err);
	}
	return GP_OK;
}

static void say_state(const char *path, const loaded *v)
{
	const gp_state *s = &v->state.s;

	printf("%s: allocation state: %zu allocation%s, %zu node%s down, %zu draining\n", path,
	       s->n, s->n == 1 ? "" : "s", s->ndown, s->ndown == 1 ? "" : "s", s->ndraining);
}

static void release_state(loaded *v)
{
	gp_state_release(&v->state.s);
	gp_alloc_release(&v->state.a);
}

static int read_envs(const char *path, const gp_cluster *c, loaded *v)
{
	gp_error err = GP_ERROR_INIT;

	gp_env_set_init(&v->envs);
	if (gp_envs_load(path, c, &v->envs, &err)) {
		gp_env_set_release(&v->envs);
		return gp_cli_report(&err);
	}
	return GP_OK;
}

static void say_envs(const char *path, const loaded *v)
{
	const gp_env_set *set = &v->envs;
	long gpus = 0;
	size_t i;

	for (i = 0; i < set->n; i++)
		gpus += set->envs[i].quota_gpus;
	printf("%s: environments: %zu environment%s, %ld GPUs of quota, %d pool%s\n", path,
	       set->n, set->n == 1 ? "" : "s", gpus, set->npools, set->npools == 1 ? "" : "s");
}

static void release_envs(loaded *v)
{
	gp_env_set_release(&v->envs);
}

static int read_failures(const char *path, const gp_cluster *c, loaded *v)
{
	gp_error err = GP_ERROR_INIT;

	gp_fail_list_init(&v->fails);
	if (gp_fail_csv_load(path, c, &v->fails, &err)) {
		gp_fail_list_release(&v->fails);
		return gp_cli_report(&err);
	}
	return GP_OK;
}

static void say_failures(const char *path, const loaded *v)
{
	const gp_fail_list *l = &v->fails;

	printf("%s: failure list: %zu failure%s, %.0f s to %.0f s\n", path, l->n,
	       l->n == 1 ? "" : "s", l->n ? l->ev[0].time : 0.0, l->n ? l->ev[l->n - 1].time : 0.0);
}

static void release_failures(loaded *v)
{
	gp_fail_list_release(&v->fails);
}

static int read_failmodel(const char *path, const gp_cluster *c, loaded *v)
{
	gp_error err = GP_ERROR_INIT;

	(void)c;
	memset(&v->model, 0, sizeof(v->model));
	if (gp_fail_model_load(path, &v->model, &err))
		return gp_cli_report(&err);
	return GP_OK;
}

static void say_failmodel(const char *path, const loaded *v)
{
	printf("%s: failure model: per %s, Weibull shape %g, MTBF %g hours\n", path,
	       v->model.unit == GP_FAIL_GPU ? "GPU" : "node", v->model.shape, v->model.mtbf_h);
}

static void release_whatif(loaded *v)
{
	gp_whatif_bases_release(&v->whatif.s, v->whatif.base);
	free(v->whatif.base);
	gp_whatif_spec_release(&v->whatif.s);
}

/* A what-if spec: loaded and checked against its own base clusters. */
static int read_whatif(const char *path, const gp_cluster *c, loaded *v)
{
	gp_error err = GP_ERROR_INIT;

	(void)c;
	if (gp_whatif_spec_load(path, &v->whatif.s, &err))
		return gp_cli_report(&err);
	v->whatif.base = gp_xcalloc(v->whatif.s.nvalues[GP_AX_CLUSTER], sizeof(*v->whatif.base));
	if (gp_whatif_bases_load(&v->whatif.s, v->whatif.base, &err)) {
		free(v->whatif.base);
		gp_whatif_spec_release(&v->whatif.s);
		return gp_cli_report(&err);
	}
	if (gp_whatif_spec_check_bases(&v->whatif.s, v->whatif.base, &err)) {
		int rc = gp_cli_report(&err);

		release_whatif(v);
		return rc;
	}
	return GP_OK;
}

static void say_whatif(const char *path, const loaded *v)
{
	const gp_whatif_spec *s = &v->whatif.s;

	size_t i;

	printf("%s: what-if spec: %zu configuration%s x %zu seed%s = %zu runs%s on ",
	       path, s->nconfigs, s->nconfigs == 1 ? "" : "s", s->nseeds, s->nseeds == 1 ? "" : "s",
	       s->nruns_needed, s->nruns_needed < s->nruns ?
	       " (configurations without randomness run once)" : "");
	for (i = 0; i < s->nvalues[GP_AX_CLUSTER]; i++)
		printf("%s%s (%d nodes)", i ? " or " : "",
		       gp_whatif_cluster_path(s, &(gp_whatif_config){ .v[GP_AX_CLUSTER] = i }),
		       v->whatif.base[i].nnodes);
	printf("\n");
}

/* A tenants file, read as simulate --tenants reads it. */
static int read_tenants(const char *path, const gp_cluster *c, loaded *v)
{
	gp_error err = GP_ERROR_INIT;

	(void)c;
	gp_tenants_init(&v->tenants);
	if (gp_tenants_load(path, &v->tenants, &err)) {
		gp_tenants_release(&v->tenants);
		return gp_cli_report(&err);
	}
	return GP_OK;
}

static void say_tenants(const char *path, const loaded *v)
{
	const gp_tenants *t = &v->tenants;
	int i;

	printf("%s: tenants: %zu tenant%s, quotas in ", path, t->n, t->n == 1 ? "" : "s");
	for (i = 0; i < t->nres; i++)
		printf("%s%s", i ? ", " : "", t->res[i]);
	printf("%s, %d cohort%s\n", t->nres ? "" : "nothing", t->ncohorts,
	       t->ncohorts == 1 ? "" : "s");
}

static void release_tenants(loaded *v)
{
	gp_tenants_release(&v->tenants);
}

/* A job history, read as `import sacct` reads it (its warnings too). */
static int read_sacct(const char *path, const gp_cluster *c, loaded *v)
{
	gp_sacct *h = &v->hist;
	gp_sacct_opts o;
	gp_error err = GP_ERROR_INIT;
	size_t w;
	int rc;

	(void)c;
	memset(&o, 0, sizeof(o));
	gp_sacct_init(h);
	rc = gp_sacct_read_file(h, path, &o, &err);
	if (!rc)
		rc = gp_sacct_finish(h, &o, &err);
	for (w = 0; w < h->nwarn; w++)
		fprintf(stderr, "gpuplan: warning: %s\n", h->warnings[w]);
	if (h->warn_total > h->nwarn)
		fprintf(stderr, "gpuplan: warning: %zu more warning(s) like these\n",
			h->warn_total - h->nwarn);
	if (rc) {
		rc = gp_cli_report(&err);
		gp_sacct_release(h);
	}
	return rc;
}

static void say_sacct(const char *path, const loaded *v)
{
	gp_sbuf sb;

	gp_sbuf_init(&sb);
	gp_sacct_summary(&v->hist, &sb);
	printf("%s: job history: %s\n", path, sb.buf ? sb.buf : "");
	gp_sbuf_release(&sb);
}

static void release_sacct(loaded *v)
{
	gp_sacct_release(&v->hist);
}

/* A network fabric, read as `import --fabric` reads it. */
static int read_topology(const char *path, const gp_cluster *c, loaded *v)
{
	gp_error err = GP_ERROR_INIT;
	size_t len;

	(void)c;
	v->fabric.text = NULL;
	if (gp_read_file(path, GP_IMPORT_MAX_FILE, &v->fabric.text, &len, &err))
		return gp_cli_report(&err);
	gp_fabric_init(&v->fabric.f);
	if (gp_fabric_read(&v->fabric.f, path, v->fabric.text, len, &err)) {
		if (err.status == GP_OK)
			err.status = GP_EINPUT;
		gp_fabric_release(&v->fabric.f);
		free(v->fabric.text);
		return gp_cli_report(&err);
	}
	return GP_OK;
}

static void say_topology(const char *path, const loaded *v)
{
	const gp_fabric *f = &v->fabric.f;
	unsigned char *leaf = gp_xcalloc(f->nsw + 1, 1);
	size_t i, roots = 0, leaves = 0, w;

	for (w = 0; w < f->nwarn; w++)
		fprintf(stderr, "gpuplan: warning: %s\n", f->warnings[w]);
	for (i = 0; i < f->nsw; i++)
		roots += f->sw[i].parent < 0;
	for (i = 0; i < f->nnode; i++)
		if (f->node_sw[i] >= 0 && !leaf[f->node_sw[i]]) {
			leaf[f->node_sw[i]] = 1;
			leaves++;
		}
	free(leaf);
	printf("%s: fabric (%s): %zu switch%s, %zu node%s under %zu leaf switch%s, %zu tree%s%s%s\n",
	       path, f->form ? f->form : "?", f->nsw, f->nsw == 1 ? "" : "es", f->nnode,
	       f->nnode == 1 ? "" : "s", leaves, leaves == 1 ? "" : "es", roots,
	       roots == 1 ? "" : "s", f->tech ? ", " : "", f->tech ? f->tech : "");
}

static void release_topology(loaded *v)
{
	gp_fabric_release(&v->fabric.f);
	free(v->fabric.text);
}

/* Every kind: its --type name, whether it is read against a cluster (-c,
 * else the bundled one), its reader. */
typedef struct kind_reader {
	const char *name;
	int against;
	int (*read)(const char *path, const gp_cluster *c, loaded *v);
	void (*say)(const char *path, const loaded *v);
	void (*release)(loaded *v);     /* NULL: nothing to free */
} kind_reader;

static const kind_reader readers[] = {
	[K_CLUSTER] = { "cluster", 0, read_cluster, say_cluster, release_cluster },
	[K_JOB] = { "job", 0, read_job, say_job, release_job },
	[K_JOBLIST] = { "jobs", 0, read_joblist, say_joblist, release_list },
	[K_SNAPSHOT] = { "snapshot", 0, read_snapshot, say_snapshot, release_snapshot },
	[K_NODETYPE] = { "node-type", 0, read_node_type, say_node_type, release_cluster },
	[K_TRACE] = { "trace", 0, read_trace, say_trace, release_list },
	[K_STATE] = { "state", 1, read_state, say_state, release_state },
	[K_ENVS] = { "environments", 1, read_envs, say_envs, release_envs },
	[K_FAILURES] = { "failures", 1, read_failures, say_failures, release_failures },
	[K_FAILMODEL] = { "failure-model", 0, read_failmodel, say_failmodel, NULL },
	[K_WHATIF] = { "whatif", 0, read_whatif, say_whatif, release_whatif },
	[K_TENANTS] = { "tenants", 0, read_tenants, say_tenants, release_tenants },
	[K_SACCT] = { "sacct", 0, read_sacct, say_sacct, release_sacct },
	[K_TOPOLOGY] = { "topology", 0, read_topology, say_topology, release_topology },
};

/* The one driver: the cluster to check against, the file, its summary. */
static int validate_kind(const kind_reader *r, const char *path, const char *cpath)
{
	gp_cluster c;
	gp_error err = GP_ERROR_INIT;
	loaded v;
	int rc;

	if (r->against && gp_cluster_load(cpath ? cpath : gp_cli_default_cluster(), &c, &err))
		return gp_cli_report(&err);
	rc = r->read(path, r->against ? &c : NULL, &v);
	if (rc == GP_OK) {
		r->say(path, &v);
		if (r->release)
			r->release(&v);
	}
	if (r->against)
		gp_cluster_release(&c);
	return rc;
}
static int rewind_stdin(gp_error *err)
{
	clearerr(stdin);
	if (fseek(stdin, 0, SEEK_SET))
		return gp_error_set(err, GP_EIO, "-", 0, 0, "cannot rewind standard input: %s",
				    strerror(errno));
	return GP_OK;
}

/* Detection reads its input, and the loader after it reads it again:
 * standard input is copied to an unnamed temporary file that becomes
 * descriptor 0, rewound for each reader.  Error messages still say '-'. */
static int spool_stdin(gp_error *err)
{
	char buf[65536];
	size_t got, total = 0;
	FILE *tmp = tmpfile();

	if (!tmp)
		return gp_error_set(err, GP_EIO, "-", 0, 0, "cannot make a temporary file: %s",
				    strerror(errno));
	while ((got = fread(buf, 1, sizeof(buf), stdin)) > 0) {
		total += got;
		/* the largest kind's limit (job histories); the kind's loader
		 * then applies its own */
		if (total > GP_SACCT_MAX_FILE) {
			fclose(tmp);
			return gp_error_set(err, GP_EINPUT, "-", 0, 0,
					    "input is larger than the %zu-byte limit",
					    (size_t)GP_SACCT_MAX_FILE);
		}
		if (fwrite(buf, 1, got, tmp) != got)
			break;
	}
	if (ferror(stdin) || fflush(tmp) || ferror(tmp) || dup2(fileno(tmp), STDIN_FILENO) < 0) {
		int e = errno;

		fclose(tmp);
		return gp_error_set(err, GP_EIO, "-", 0, 0, "cannot read standard input: %s",
				    strerror(e));
	}
	fclose(tmp);
	return rewind_stdin(err);
}

int cmd_validate(int argc, char **argv)
{
	const char *path = NULL, *cpath = NULL;
	enum kind k = K_AUTO;
	gp_error err = GP_ERROR_INIT;
	gp_opt_state o;
	int c, t, rc = GP_OK;

	gp_opt_begin(&o, &gp_desc_validate, argc, argv);
	while (rc == GP_OK && (c = gp_opt_next(&o)) > 0) {
		if (c == 'c') {
			cpath = o.arg;
			continue;
		}
		for (t = K_CLUSTER; t <= K_TOPOLOGY && strcmp(readers[t].name, o.arg); t++)
			;
		if (t > K_TOPOLOGY)
			rc = gp_opt_bad(&o, "unknown --type '%s' (cluster, node-type, job, jobs, trace, "
					"snapshot, state, environments, failures, failure-model, whatif, "
					"tenants, sacct, topology)", o.arg);
		k = (enum kind)t;
	}
	if (rc == GP_OK && c < 0)
		rc = o.status;
	if (rc == GP_OK && o.nargs > 1)
		rc = gp_opt_bad(&o, "more than one FILE");
	path = o.nargs ? o.args[0] : NULL;
	gp_opt_end(&o);
	if (rc)
		return rc;
	if (!path)
		return gp_cli_usage_error("validate", "missing FILE");
	if (k == K_AUTO) {
		int from_stdin = !strcmp(path, "-");

		if (from_stdin && spool_stdin(&err))
			return gp_cli_report(&err);
		k = detect(path, &err);
		if (k == K_AUTO || (from_stdin && rewind_stdin(&err)))
			return gp_cli_report(&err);
	}
	return validate_kind(&readers[k], path, cpath);
}
