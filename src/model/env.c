/* Environments, pools and environment traces (env.h). */
#include <stdlib.h>
#include <string.h>

#include "gpuplan/model/env.h"
#include "gpuplan/util/util.h"

void gp_env_set_init(gp_env_set *s)
{
	memset(s, 0, sizeof(*s));
}

void gp_env_set_release(gp_env_set *s)
{
	size_t i;
	int p;

	if (!s)
		return;
	for (i = 0; i < s->n; i++)
		free(s->envs[i].name);
	for (p = 0; p < s->npools; p++) {
		free(s->pools[p].spec);
		free(s->pools[p].nodes);
	}
	free(s->envs);
	free(s->pools);
	free(s->hash);
	free(s->source);
	memset(s, 0, sizeof(*s));
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static void rehash(gp_env_set *s, size_t cap)
{
	size_t i, k;

	free(s->hash);
	s->hash = gp_xmalloc(cap * sizeof(*s->hash));
	for (i = 0; i < cap; i++)
		s->hash[i] = -1;
	s->hash_cap = cap;
	for (i = 0; i < s->n; i++) {
		k = hash_str(s->envs[i].name) & (cap - 1);
		while (s->hash[k] >= 0)
			k = (k + 1) & (cap - 1);
		s->hash[k] = (int32_t)i;
	}
}

int gp_env_set_find(const gp_env_set *s, const char *name)
{
	size_t k;

	if (!s->hash_cap)
		return -1;
	k = hash_str(name) & (s->hash_cap - 1);
	while (s->hash[k] >= 0) {
		if (!strcmp(s->envs[s->hash[k]].name, name))
			return s->hash[k];
		k = (k + 1) & (s->hash_cap - 1);
	}
	return -1;
}

int gp_env_set_add(gp_env_set *s, const char *name, int quota_gpus, int64_t quota_mem_mib)
{
	gp_env *e;
	size_t k;

	if (gp_env_set_find(s, name) >= 0)
		return -1;
	if ((s->n + 1) * 2 > s->hash_cap)
		rehash(s, s->hash_cap ? s->hash_cap * 2 : 64);
	GP_GROW(s->envs, s->cap, s->n + 1);
	e = &s->envs[s->n];
	memset(e, 0, sizeof(*e));
	e->name = gp_xstrdup(name);
	e->quota_gpus = quota_gpus;
	e->quota_mem_mib = quota_mem_mib;
	e->start = 0;
	e->stop = -1;
	e->pool = -1;
	k = hash_str(name) & (s->hash_cap - 1);
	while (s->hash[k] >= 0)
		k = (k + 1) & (s->hash_cap - 1);
	s->hash[k] = (int32_t)s->n;
	return (int)s->n++;
}

int gp_env_set_add_pool(gp_env_set *s, const char *spec, int *nodes, int nnodes)
{
	int i, n = 0, p;

	qsort(nodes, (size_t)nnodes, sizeof(*nodes), gp_cmp_int);
	for (i = 0; i < nnodes; i++)
		if (!n || nodes[n - 1] != nodes[i])
			nodes[n++] = nodes[i];
	for (p = 0; p < s->npools; p++)
		if (s->pools[p].nnodes == n && (!n || !memcmp(s->pools[p].nodes, nodes,
							       (size_t)n * sizeof(*nodes)))) {
			free(nodes);
			return p;
		}
	if (s->npools + 1 > s->capools) {
		s->capools = s->capools ? s->capools * 2 : 4;
		s->pools = gp_xrealloc(s->pools, (size_t)s->capools * sizeof(*s->pools));
	}
	s->pools[s->npools].spec = gp_xstrdup(spec);
	s->pools[s->npools].nodes = nodes;
	s->pools[s->npools].nnodes = n;
	return s->npools++;
}

void gp_env_trace_init(gp_env_trace *t)
{
	memset(t, 0, sizeof(*t));
	gp_env_set_init(&t->envs);
}

void gp_env_trace_release(gp_env_trace *t)
{
	if (!t)
		return;
	gp_env_set_release(&t->envs);
	free(t->tasks);
	free(t->format);
	free(t->title);
	memset(t, 0, sizeof(*t));
}

gp_env_task *gp_env_trace_push(gp_env_trace *t)
{
	gp_env_task *k;

	GP_GROW(t->tasks, t->cap, t->ntasks + 1);
	k = &t->tasks[t->ntasks++];
	memset(k, 0, sizeof(*k));
	return k;
}

/* Tasks are usually already grouped by environment and in start order
 * (the Adobe template is); a stable counting pass by environment then an
 * insertion fix-up keeps that case linear. */
void gp_env_trace_finish(gp_env_trace *t)
{
	size_t n = t->ntasks, i, ne = t->envs.n, *off;
	gp_env_task *out;
	double *first, *last;

	off = gp_xcalloc(ne + 1, sizeof(*off));
	for (i = 0; i < n; i++)
		off[t->tasks[i].env + 1]++;
	for (i = 0; i < ne; i++)
		off[i + 1] += off[i];
	out = gp_xmalloc((n ? n : 1) * sizeof(*out));
	for (i = 0; i < n; i++)
		out[off[t->tasks[i].env]++] = t->tasks[i];
	free(t->tasks);
	t->tasks = out;
	t->cap = n ? n : 1;
	/* insertion sort by start inside each environment (stable) */
	for (i = 1; i < n; i++) {
		gp_env_task k = out[i];
		size_t j = i;

		while (j > 0 && out[j - 1].env == k.env && out[j - 1].start > k.start) {
			out[j] = out[j - 1];
			j--;
		}
		out[j] = k;
	}
	free(off);
	first = gp_xmalloc((ne ? ne : 1) * sizeof(*first));
	last = gp_xmalloc((ne ? ne : 1) * sizeof(*last));
	for (i = 0; i < ne; i++) {
		first[i] = -1;
		last[i] = -1;
	}
	for (i = 0; i < n; i++) {
		const gp_env_task *k = &out[i];

		if (first[k->env] < 0 || k->start < first[k->env])
			first[k->env] = k->start;
		if (k->start + k->duration > last[k->env])
			last[k->env] = k->start + k->duration;
	}
	for (i = 0; i < ne; i++) {
		gp_env *e = &t->envs.envs[i];

		if (e->stop < e->start) {
			e->start = first[i] < 0 ? 0 : first[i];
			e->stop = last[i] < 0 ? e->start : last[i];
		}
	}
	free(first);
	free(last);
}

double gp_env_reserved_gpu_seconds(const gp_env *e)
{
	return e->stop > e->start ? (double)e->quota_gpus * (e->stop - e->start) : 0;
}
