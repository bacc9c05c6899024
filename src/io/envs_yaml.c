/* The environments file, environment tasks from a job trace, and the
 * binding state file of `gpuplan env` (envio.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <fcntl.h>

#include "gpuplan/io/envs.h"
#include "gpuplan/util/util.h"
#include "gpuplan/io/yaml.h"

static const char *const top_keys[] = { "environments", NULL };
static const char *const env_keys[] = { "name", "gpus", "gpu_memory_gib", "pool", "start", "stop", NULL };

static int load_pool(const gp_yaml_doc *doc, const gp_yaml_node *v, const gp_cluster *c,
		     const char *env, gp_env_set *set, int *out, gp_error *err)
{
	int *nodes = NULL, n = 0, i;
	size_t cap = 0, k;
	gp_sbuf spec;

	if (!c)
		return gp_yaml_error(doc, v, err, "'pool' needs a cluster to resolve against");
	gp_sbuf_init(&spec);
	if (v->type == GP_YAML_SEQ) {
		if (!v->n)
			return gp_yaml_error(doc, v, err, "pool of '%s' is an empty list", env);
		for (k = 0; k < v->n; k++) {
			const char *s;
			int node;

			if (gp_yaml_str(doc, v->items[k], "pool node", &s, err))
				goto fail;
			node = gp_cluster_find_node(c, s);
			if (node < 0) {
				gp_yaml_error(doc, v->items[k], err, "unknown node '%.100s' in the pool of '%s'",
					      s, env);
				goto fail;
			}
			GP_GROW(nodes, cap, (size_t)n + 1);
			nodes[n++] = node;
			gp_sbuf_addf(&spec, "%s%s", k ? "," : "", s);
		}
	} else {
		const char *s, *eq;
		char key[128];

		if (gp_yaml_str(doc, v, "pool", &s, err))
			goto fail;
		eq = strchr(s, '=');
		if (eq) {
			if (eq == s || (size_t)(eq - s) >= sizeof(key) || !eq[1]) {
				gp_yaml_error(doc, v, err, "pool '%.100s' must be LABEL=VALUE, a pool label value or a list of nodes", s);
				goto fail;
			}
			memcpy(key, s, (size_t)(eq - s));
			key[eq - s] = '\0';
			eq++;
		} else {
			strcpy(key, "pool");
			eq = s;
		}
		for (i = 0; i < c->nnodes; i++) {
			const char *lv = gp_cluster_node_label(c, i, key);

			if (lv && !strcmp(lv, eq)) {
				GP_GROW(nodes, cap, (size_t)n + 1);
				nodes[n++] = i;
			}
		}
		if (!n) {
			gp_yaml_error(doc, v, err, "no node of cluster %s has label %s=%.100s (pool of '%s')",
				      c->path ? c->path : "?", key, eq, env);
			goto fail;
		}
		gp_sbuf_addf(&spec, "%s=%s", key, eq);
	}
	*out = gp_env_set_add_pool(set, spec.buf, nodes, n);
	gp_sbuf_release(&spec);
	return GP_OK;
fail:
	free(nodes);
	gp_sbuf_release(&spec);
	return GP_EINPUT;
}

static int load_env(const gp_yaml_doc *doc, const gp_yaml_node *m, const gp_cluster *c, gp_env_set *set,
		    gp_error *err)
{
	const gp_yaml_node *v;
	const char *name;
	long gpus;
	double mem, start = 0, stop = -1;
	int idx, pool = -1;

	if (m->type != GP_YAML_MAP)
		return gp_yaml_error(doc, m, err, "an environment must be a mapping {name, gpus, gpu_memory_gib, pool?}");
	if (gp_yaml_check_keys(doc, m, "environment", env_keys, err))
		return GP_EINPUT;
	if (!(v = gp_yaml_get(m, "name")))
		return gp_yaml_error(doc, m, err, "environment has no 'name'");
	if (gp_yaml_str(doc, v, "name", &name, err))
		return GP_EINPUT;
	if (!*name || strlen(name) > GP_ENV_NAME_MAX)
		return gp_yaml_error(doc, v, err, "name must be 1..%d characters", GP_ENV_NAME_MAX);
	if (gp_env_set_find(set, name) >= 0)
		return gp_yaml_error(doc, v, err, "environment '%.100s' is declared twice", name);
	if (!(v = gp_yaml_get(m, "gpus")))
		return gp_yaml_error(doc, m, err, "environment '%.100s' has no 'gpus' (its GPU quota)", name);
	if (gp_yaml_long(doc, v, "gpus", 0, GP_ENV_MAX_QUOTA_GPUS, &gpus, err))
		return GP_EINPUT;
	if (!(v = gp_yaml_get(m, "gpu_memory_gib")))
		return gp_yaml_error(doc, m, err, "environment '%.100s' has no 'gpu_memory_gib' (its GPU memory quota)",
				     name);
	if (gp_yaml_double(doc, v, "gpu_memory_gib", 0, 1e9, &mem, err))
		return GP_EINPUT;
	if ((v = gp_yaml_get(m, "start")) && gp_yaml_double(doc, v, "start (seconds)", 0, 1e12, &start, err))
		return GP_EINPUT;
	if ((v = gp_yaml_get(m, "stop"))) {
		if (gp_yaml_double(doc, v, "stop (seconds)", 0, 1e12, &stop, err))
			return GP_EINPUT;
		if (stop < start)
			return gp_yaml_error(doc, v, err, "stop %g is before start %g", stop, start);
	}
	if ((v = gp_yaml_get(m, "pool")) && load_pool(doc, v, c, name, set, &pool, err))
		return GP_EINPUT;
	if (set->n >= GP_ENV_MAX_ENVS)
		return gp_yaml_error(doc, m, err, "more than %d environments", GP_ENV_MAX_ENVS);
	idx = gp_env_set_add(set, name, (int)gpus, llround(mem * 1024.0));
	set->envs[idx].pool = pool;
	set->envs[idx].line = m->line;
	set->envs[idx].col = m->col;
	if (stop >= 0) {
		set->envs[idx].start = start;
		set->envs[idx].stop = stop;
	}
	return GP_OK;
}

typedef struct envs_parse {
	const gp_cluster *c;
	gp_env_set *set;
} envs_parse;

/* Each environment as the parse completes it (memory: one entry of the
 * tree at a time). */
static int env_item(void *ud, const gp_yaml_doc *doc, const gp_yaml_node *item, size_t index,
		    gp_error *err)
{
	envs_parse *x = ud;

	(void)index;
	return load_env(doc, item, x->c, x->set, err);
}

int gp_envs_load(const char *path, const gp_cluster *c, gp_env_set *set, gp_error *err)
{
	gp_yaml_doc doc;
	const gp_yaml_node *list;
	envs_parse x = { c, set };
	int rc;

	gp_yaml_doc_init(&doc);
	if ((rc = gp_yaml_load_stream(path, GP_ENVS_MAX_FILE, 0, "environments", env_item, &x, &doc,
				      err)))
		return rc;
	if (!doc.root) {
		gp_yaml_doc_release(&doc);
		return gp_error_set(err, GP_EINPUT, path, 1, 1, "empty file: expected 'environments: [...]'");
	}
	rc = gp_yaml_check_keys(&doc, doc.root, "environments file", top_keys, err);
	if (!rc && !(list = gp_yaml_get(doc.root, "environments")))
		rc = gp_yaml_error(&doc, doc.root, err, "no 'environments' list");
	if (!rc && list->type != GP_YAML_SEQ)
		rc = gp_yaml_error(&doc, list, err, "'environments' must be a list");
	if (!rc && !set->source)
		set->source = gp_xstrdup(path);
	gp_yaml_doc_release(&doc);
	return rc;
}

int gp_env_trace_from_jobs(const gp_joblist *jobs, gp_env_trace *out, gp_error *err)
{
	size_t i;

	for (i = 0; i < jobs->n; i++) {
		const gp_job *j = &jobs->jobs[i];
		gp_env_task *k;
		int e;

		if (!j->environment || !*j->environment)
			return gp_error_set(err, GP_EINPUT, jobs->source, (int)j->line, 0,
					    "job '%s' has no environment", j->id ? j->id : "?");
		e = gp_env_set_find(&out->envs, j->environment);
		if (e < 0)
			return gp_error_set(err, GP_EINPUT, jobs->source, (int)j->line, 0,
					    "environment '%.100s' of job '%s' is not in %s", j->environment,
					    j->id ? j->id : "?", out->envs.source ? out->envs.source : "the environments file");
		if (j->duration < 0)
			return gp_error_set(err, GP_EINPUT, jobs->source, (int)j->line, 0,
					    "job '%s' has no fixed duration (environment tasks need one)",
					    j->id ? j->id : "?");
		if (j->gpus > out->envs.envs[e].quota_gpus)
			return gp_error_set(err, GP_EINPUT, jobs->source, (int)j->line, 0,
					    "job '%s' needs %d GPUs, more than environment '%s' may bind (%d)",
					    j->id ? j->id : "?", j->gpus, j->environment, out->envs.envs[e].quota_gpus);
		k = gp_env_trace_push(out);
		k->env = e;
		k->gpus = j->gpus;
		k->start = j->submit;
		k->duration = j->duration;
		k->mem_mib = j->gpu_mem_mib * j->gpus;
		k->util = (float)(j->gpus ? j->gpu_milli / 1000.0 : 0);
		if (!j->gpus)
			out->cpu_only_tasks++;
	}
	free(out->format);
	out->format = gp_xstrdup(jobs->format ? jobs->format : "trace");
	gp_env_trace_finish(out);
	return GP_OK;
}

/* ---- state file ---- */

static const char *const st_top_keys[] = { "tasks", "heartbeats", NULL };
static const char *const st_task_keys[] = { "env", "task", "gpus", "memory_mib", "at", "heartbeat", NULL };
static const char *const st_gpu_keys[] = { "node", "gpu", NULL };
static const char *const st_hb_keys[] = { "env", "at", NULL };

void gp_envstate_init(gp_envstate *s)
{
	memset(s, 0, sizeof(*s));
}

void gp_envstate_release(gp_envstate *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->ntasks; i++) {
		free(s->tasks[i].task);
		free(s->tasks[i].gpus);
	}
	free(s->tasks);
	free(s->hbs);
	free(s->path);
	memset(s, 0, sizeof(*s));
}

double gp_envstate_task_seen(const gp_envstate *s, size_t i)
{
	const gp_envstate_task *t = &s->tasks[i];
	double seen = t->hb > t->at ? t->hb : t->at;
	size_t k;

	for (k = 0; k < s->nhbs; k++)
		if (s->hbs[k].env == t->env && s->hbs[k].at > seen)
			seen = s->hbs[k].at;
	return seen;
}

long gp_envstate_find_task(const gp_envstate *s, const char *task)
{
	size_t i;

	for (i = 0; i < s->ntasks; i++)
		if (!strcmp(s->tasks[i].task, task))
			return (long)i;
	return -1;
}

void gp_envstate_remove_task(gp_envstate *s, size_t i)
{
	free(s->tasks[i].task);
	free(s->tasks[i].gpus);
	memmove(&s->tasks[i], &s->tasks[i + 1], (s->ntasks - i - 1) * sizeof(*s->tasks));
	s->ntasks--;
}

gp_envstate_hb *gp_envstate_hb_of(gp_envstate *s, int env)
{
	size_t i;

	for (i = 0; i < s->nhbs; i++)
		if (s->hbs[i].env == env)
			return &s->hbs[i];
	return NULL;
}

static int st_env(const gp_yaml_doc *doc, const gp_yaml_node *m, const gp_env_set *envs, int *out,
		  gp_error *err)
{
	const gp_yaml_node *v = gp_yaml_get(m, "env");
	const char *s;

	if (!v)
		return gp_yaml_error(doc, m, err, "entry has no 'env'");
	if (gp_yaml_str(doc, v, "env", &s, err))
		return GP_EINPUT;
	*out = gp_env_set_find(envs, s);
	if (*out < 0)
		return gp_yaml_error(doc, v, err, "unknown environment '%.100s' (not in %s)", s,
				     envs->source ? envs->source : "the environments file");
	return GP_OK;
}

/* What the parse of a state keeps beside it: the task names seen (an
 * open-addressing set of task indices, for duplicates in linear time) and
 * which environments have a heartbeat. */
typedef struct st_parse {
	const gp_cluster *c;
	const gp_env_set *envs;
	gp_envstate *s;
	long *names;            /* task index + 1, 0 empty */
	size_t names_cap;
	unsigned char *hb_seen; /* per environment */
} st_parse;

static long *name_slot(st_parse *x, const char *name)
{
	size_t mask = x->names_cap - 1, h;

	for (h = gp_hash_str(name) & mask; x->names[h]; h = (h + 1) & mask)
		if (!strcmp(x->s->tasks[x->names[h] - 1].task, name))
			break;
	return &x->names[h];
}

static void names_grow(st_parse *x)
{
	long *old = x->names;
	size_t cap = x->names_cap, i;

	x->names_cap = cap ? 2 * cap : 1024;
	x->names = gp_xcalloc(x->names_cap, sizeof(*x->names));
	for (i = 0; i < cap; i++)
		if (old[i])
			*name_slot(x, x->s->tasks[old[i] - 1].task) = old[i];
	free(old);
}

static int st_task(st_parse *px, const gp_yaml_doc *doc, const gp_yaml_node *m, gp_error *err)
{
	const gp_cluster *c = px->c;
	const gp_env_set *envs = px->envs;
	gp_envstate *s = px->s;
	const gp_yaml_node *v, *g;
	gp_envstate_task *t;
	const char *str;
	size_t i, k;
	double x;

	if (m->type != GP_YAML_MAP)
		return gp_yaml_error(doc, m, err, "a task must be a mapping {env, task, gpus, memory_mib}");
	if (gp_yaml_check_keys(doc, m, "task", st_task_keys, err))
		return GP_EINPUT;
	GP_GROW(s->tasks, s->cap, s->ntasks + 1);
	t = &s->tasks[s->ntasks];
	memset(t, 0, sizeof(*t));
	t->at = -1;
	t->hb = -1;
	t->line = m->line;
	t->col = m->col;
	if (st_env(doc, m, envs, &t->env, err))
		return GP_EINPUT;
	if (!(v = gp_yaml_get(m, "task")))
		return gp_yaml_error(doc, m, err, "task entry has no 'task'");
	if (gp_yaml_str(doc, v, "task", &str, err))
		return GP_EINPUT;
	if (!*str || strlen(str) > 255)
		return gp_yaml_error(doc, v, err, "task must be a name of 1..255 characters");
	if (*name_slot(px, str))
		return gp_yaml_error(doc, v, err, "task '%.100s' is listed twice", str);
	if ((v = gp_yaml_get(m, "memory_mib"))) {
		if (gp_yaml_double(doc, v, "memory_mib", 0, 1e12, &x, err))
			return GP_EINPUT;
		t->mem_mib = llround(x);
	}
	if ((v = gp_yaml_get(m, "at")) && gp_yaml_double(doc, v, "at (seconds)", 0, 1e15, &t->at, err))
		return GP_EINPUT;
	if ((v = gp_yaml_get(m, "heartbeat")) &&
	    gp_yaml_double(doc, v, "heartbeat (seconds)", 0, 1e15, &t->hb, err))
		return GP_EINPUT;
	if (!(g = gp_yaml_get(m, "gpus")) || g->type != GP_YAML_SEQ || !g->n)
		return gp_yaml_error(doc, g ? g : m, err, "task needs 'gpus': a non-empty list of {node, gpu}");
	if (g->n > GP_ENV_MAX_QUOTA_GPUS)
		return gp_yaml_error(doc, g, err, "more than %d GPUs", GP_ENV_MAX_QUOTA_GPUS);
	t->gpus = gp_xcalloc(g->n, sizeof(*t->gpus));
	t->task = gp_xstrdup(str);
	s->ntasks++;
	for (i = 0; i < g->n; i++) {
		const gp_yaml_node *e = g->items[i];
		long l;
		int node;

		if (e->type != GP_YAML_MAP)
			return gp_yaml_error(doc, e, err, "a GPU must be {node, gpu}");
		if (gp_yaml_check_keys(doc, e, "GPU", st_gpu_keys, err))
			return GP_EINPUT;
		if (!(v = gp_yaml_get(e, "node")))
			return gp_yaml_error(doc, e, err, "GPU has no 'node'");
		if (gp_yaml_str(doc, v, "node", &str, err))
			return GP_EINPUT;
		node = gp_cluster_find_node(c, str);
		if (node < 0)
			return gp_yaml_error(doc, v, err, "unknown node '%.100s' (not in cluster %s)", str,
					     c->path ? c->path : "?");
		if (!(v = gp_yaml_get(e, "gpu")))
			return gp_yaml_error(doc, e, err, "GPU has no 'gpu' index");
		if (gp_yaml_long(doc, v, "gpu", 0, 1 << 20, &l, err))
			return GP_EINPUT;
		if (l >= c->nodes[node].ngpus)
			return gp_yaml_error(doc, v, err, "GPU %ld out of range: node '%s' has GPUs 0-%d", l,
					     c->nodes[node].name, c->nodes[node].ngpus - 1);
		for (k = 0; k < i; k++)
			if (t->gpus[k].node == node && t->gpus[k].gpu == (int)l)
				return gp_yaml_error(doc, e, err, "GPU %ld of node '%s' listed twice", l,
						     c->nodes[node].name);
		t->gpus[i].node = node;
		t->gpus[i].gpu = (int)l;
		t->ngpus++;
	}
	return GP_OK;
}

static int st_heartbeat(st_parse *x, const gp_yaml_doc *doc, const gp_yaml_node *m, gp_error *err)
{
	const gp_yaml_node *a;
	gp_envstate *s = x->s;
	gp_envstate_hb hb;

	if (m->type != GP_YAML_MAP)
		return gp_yaml_error(doc, m, err, "a heartbeat must be {env, at}");
	if (gp_yaml_check_keys(doc, m, "heartbeat", st_hb_keys, err))
		return GP_EINPUT;
	if (st_env(doc, m, x->envs, &hb.env, err))
		return GP_EINPUT;
	if (x->hb_seen[hb.env] || gp_envstate_hb_of(s, hb.env))
		return gp_yaml_error(doc, m, err, "second heartbeat entry for '%s'",
				     x->envs->envs[hb.env].name);
	if (!(a = gp_yaml_get(m, "at")))
		return gp_yaml_error(doc, m, err, "heartbeat has no 'at'");
	if (gp_yaml_double(doc, a, "at (seconds)", 0, 1e15, &hb.at, err))
		return GP_EINPUT;
	hb.line = m->line;
	hb.col = m->col;
	x->hb_seen[hb.env] = 1;
	GP_GROW(s->hbs, s->caphbs, s->nhbs + 1);
	s->hbs[s->nhbs++] = hb;
	return GP_OK;
}

/* Each task and heartbeat as the parse completes it (memory: one entry
 * of the tree at a time). */
static int st_item(void *ud, const gp_yaml_doc *doc, const char *key, const gp_yaml_node *item,
		   size_t index, gp_error *err)
{
	st_parse *x = ud;
	int rc;

	(void)index;
	if (!strcmp(key, "heartbeats"))
		return st_heartbeat(x, doc, item, err);
	if ((x->s->ntasks + 1) * 2 > x->names_cap)
		names_grow(x);
	if ((rc = st_task(x, doc, item, err)))
		return rc;
	*name_slot(x, x->s->tasks[x->s->ntasks - 1].task) = (long)x->s->ntasks;
	return GP_OK;
}

int gp_envstate_parse(const char *text, size_t len, const char *path, const gp_cluster *c,
		      const gp_env_set *envs, gp_envstate *s, gp_error *err)
{
	gp_yaml_doc doc;
	const gp_yaml_node *v;
	st_parse x;
	size_t i;
	int rc;

	if (!s->path)
		s->path = gp_xstrdup(path);
	memset(&x, 0, sizeof(x));
	x.c = c;
	x.envs = envs;
	x.s = s;
	x.hb_seen = gp_xcalloc(envs->n + 1, 1);
	/* tasks already held (a caller parsing into a filled state) */
	for (i = 0; i < s->ntasks; i++) {
		if ((i + 1) * 2 > x.names_cap)
			names_grow(&x);
		*name_slot(&x, s->tasks[i].task) = (long)i + 1;
	}
	gp_yaml_doc_init(&doc);
	rc = gp_yaml_parse_streams(text, len, path, 0, 1, st_top_keys, st_item, &x, &doc, err);
	if (rc || !doc.root)
		goto done;
	if ((rc = gp_yaml_check_keys(&doc, doc.root, "environment state", st_top_keys, err)))
		goto done;
	if ((v = gp_yaml_get(doc.root, "tasks")) && v->type != GP_YAML_SEQ)
		rc = gp_yaml_error(&doc, v, err, "'tasks' must be a list");
	else if ((v = gp_yaml_get(doc.root, "heartbeats")) && v->type != GP_YAML_SEQ)
		rc = gp_yaml_error(&doc, v, err, "'heartbeats' must be a list");
done:
	free(x.names);
	free(x.hb_seen);
	gp_yaml_doc_release(&doc);
	return rc;
}

int gp_envstate_load(const char *path, const gp_cluster *c, const gp_env_set *envs, gp_envstate *s,
		     gp_error *err)
{
	char *text;
	size_t len;
	int rc;

	s->path = gp_xstrdup(path);
	if (access(path, F_OK) != 0)
		return GP_OK; /* a new state */
	if ((rc = gp_read_file(path, GP_ENVSTATE_MAX_FILE, &text, &len, err)))
		return rc;
	rc = gp_envstate_parse(text, len, path, c, envs, s, err);
	free(text);
	return rc;
}

int gp_envstate_begin(gp_txn *t, const char *path, double timeout_s, const gp_cluster *c,
		      const gp_env_set *envs, gp_envstate *s, gp_error *err)
{
	char *text;
	size_t len;
	int rc;

	s->path = gp_xstrdup(path);
	if ((rc = gp_txn_begin(t, path, 1, timeout_s, GP_ENVSTATE_MAX_FILE, &text, &len, err)))
		return rc;
	rc = gp_envstate_parse(text, len, path, c, envs, s, err);
	free(text);
	if (rc)
		gp_txn_abort(t);
	return rc;
}

static void put_quoted(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', fp);
		if ((unsigned char)*s < 0x20)
			fprintf(fp, "\\x%02x", (unsigned char)*s);
		else
			fputc(*s, fp);
	}
	fputc('"', fp);
}

typedef struct envstate_out {
	const gp_cluster *c;
	const gp_env_set *envs;
	const gp_envstate *s;
} envstate_out;

static int write_envstate(FILE *fp, void *ud)
{
	const envstate_out *o = ud;
	const gp_cluster *c = o->c;
	const gp_env_set *envs = o->envs;
	const gp_envstate *s = o->s;
	size_t i;
	int g;

	fputs("# gpuplan environment bindings (see gpuplan(1), \"Environment state\")\n", fp);
	fputs(s->nhbs ? "heartbeats:\n" : "heartbeats: []\n", fp);
	for (i = 0; i < s->nhbs; i++) {
		fputs("  - {env: ", fp);
		put_quoted(fp, envs->envs[s->hbs[i].env].name);
		fprintf(fp, ", at: %.17g}\n", s->hbs[i].at);
	}
	fputs(s->ntasks ? "tasks:\n" : "tasks: []\n", fp);
	for (i = 0; i < s->ntasks; i++) {
		const gp_envstate_task *t = &s->tasks[i];

		fputs("  - {env: ", fp);
		put_quoted(fp, envs->envs[t->env].name);
		fputs(", task: ", fp);
		put_quoted(fp, t->task);
		fprintf(fp, ", memory_mib: %lld", (long long)t->mem_mib);
		if (t->at >= 0)
			fprintf(fp, ", at: %.17g", t->at);
		if (t->hb >= 0)
			fprintf(fp, ", heartbeat: %.17g", t->hb);
		fputs(", gpus: [", fp);
		for (g = 0; g < t->ngpus; g++) {
			fputs(g ? ", {node: " : "{node: ", fp);
			put_quoted(fp, c->nodes[t->gpus[g].node].name);
			fprintf(fp, ", gpu: %d}", t->gpus[g].gpu);
		}
		fputs("]}\n", fp);
	}
	return ferror(fp) ? -1 : 0;
}

int gp_envstate_commit(gp_txn *t, const gp_cluster *c, const gp_env_set *envs,
		       const gp_envstate *s, gp_error *err)
{
	envstate_out o = { c, envs, s };

	return gp_txn_commit(t, write_envstate, &o, err);
}
