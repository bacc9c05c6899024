/* Allocation state: flat arrays and per-node counters (see alloc.h). */
#include <stdlib.h>
#include <string.h>

#include "gpuplan/model/alloc.h"
#include "gpuplan/util/util.h"
#include "alloc_index_int.h"

static int node_cpu_count(const gp_cluster *c, const gp_node *n)
{
	const gp_node_type *t = &c->types[n->type];
	int i, j, max = 0;

	if (t->cpu_count > 0)
		return t->cpu_count;
	/* Derive from the highest CPU number any GPU is affine to. */
	for (i = 0; i < t->topo.ngpus; i++)
		for (j = 0; j < t->topo.gpus[i].ncpus; j++)
			if (t->topo.gpus[i].cpus[j] + 1 > max)
				max = t->topo.gpus[i].cpus[j] + 1;
	return max;
}

int64_t gp_alloc_gpu_mem_cap(const gp_alloc *a, int gpu)
{
	const gp_cluster *c = a->cluster;
	const gp_node *n = &c->nodes[a->gpu_node[gpu]];
	int model = c->types[n->type].gpu_model;

	if (model < 0 || model >= c->catalog.n || c->catalog.models[model].mem_gib <= 0)
		return GP_MEM_UNLIMITED;
	return (int64_t)(c->catalog.models[model].mem_gib * 1024.0);
}

int gp_alloc_init(gp_alloc *a, const gp_cluster *c)
{
	int i, g, max_cpus = 0, max_nics = 0;

	memset(a, 0, sizeof(*a));
	a->cluster = c;
	a->ngpus = c->ngpus;
	a->nnodes = c->nnodes;
	for (i = 0; i < c->nnodes; i++) {
		int nc = node_cpu_count(c, &c->nodes[i]);
		int nn = c->types[c->nodes[i].type].topo.nnics;

		if (nc > max_cpus)
			max_cpus = nc;
		if (nn > max_nics)
			max_nics = nn;
	}
	a->cpu_words = (max_cpus + 63) / 64;
	if (a->cpu_words == 0)
		a->cpu_words = 1;
	a->max_nics = max_nics ? max_nics : 1;

	a->gpu_free_milli = gp_xcalloc((size_t)a->ngpus, sizeof(*a->gpu_free_milli));
	a->gpu_free_mem_mib = gp_xcalloc((size_t)a->ngpus, sizeof(*a->gpu_free_mem_mib));
	a->gpu_tasks = gp_xcalloc((size_t)a->ngpus, sizeof(*a->gpu_tasks));
	a->gpu_env = gp_xcalloc((size_t)a->ngpus, sizeof(*a->gpu_env));
	a->gpu_node = gp_xcalloc((size_t)a->ngpus, sizeof(*a->gpu_node));
	a->node_free_whole = gp_xcalloc((size_t)a->nnodes, sizeof(*a->node_free_whole));
	a->node_free_milli = gp_xcalloc((size_t)a->nnodes, sizeof(*a->node_free_milli));
	a->node_free_cpu_milli = gp_xcalloc((size_t)a->nnodes, sizeof(*a->node_free_cpu_milli));
	a->node_free_mem_mib = gp_xcalloc((size_t)a->nnodes, sizeof(*a->node_free_mem_mib));
	a->node_cap_cpu_milli = gp_xcalloc((size_t)a->nnodes, sizeof(*a->node_cap_cpu_milli));
	a->node_cap_mem_mib = gp_xcalloc((size_t)a->nnodes, sizeof(*a->node_cap_mem_mib));
	a->node_state = gp_xcalloc((size_t)a->nnodes, sizeof(*a->node_state));
	a->cpu_used = gp_xcalloc((size_t)a->nnodes * (size_t)a->cpu_words, sizeof(*a->cpu_used));
	a->nic_vfs_used = gp_xcalloc((size_t)a->nnodes * (size_t)a->max_nics, sizeof(*a->nic_vfs_used));

	for (i = 0; i < c->nnodes; i++) {
		const gp_node *n = &c->nodes[i];
		const gp_node_type *t = &c->types[n->type];

		for (g = 0; g < n->ngpus; g++)
			a->gpu_node[n->first_gpu + g] = i;
		a->node_cap_cpu_milli[i] = n->cpu_milli > 0 ? n->cpu_milli :
			(int64_t)node_cpu_count(c, n) * GP_MILLI;
		a->node_cap_mem_mib[i] = n->mem_mib > 0 ? n->mem_mib :
			t->mem_gib > 0 ? (int64_t)(t->mem_gib * 1024.0) : GP_MEM_UNLIMITED;
		a->node_free_cpu_milli[i] = a->node_cap_cpu_milli[i];
		a->node_free_mem_mib[i] = a->node_cap_mem_mib[i];
		a->node_state[i] = (uint8_t)n->state;
		a->node_free_whole[i] = n->ngpus;
		a->node_free_milli[i] = (int64_t)n->ngpus * GP_MILLI;
	}
	for (g = 0; g < a->ngpus; g++) {
		a->gpu_free_milli[g] = GP_MILLI;
		a->gpu_free_mem_mib[g] = gp_alloc_gpu_mem_cap(a, g);
		a->gpu_env[g] = -1;
	}
	a->ix = gp_alloc_index_new(a);
	return GP_OK;
}

void gp_alloc_release(gp_alloc *a)
{
	if (!a)
		return;
	free(a->gpu_free_milli);
	free(a->gpu_free_mem_mib);
	free(a->gpu_tasks);
	free(a->gpu_env);
	free(a->gpu_node);
	free(a->node_free_whole);
	free(a->node_free_milli);
	free(a->node_free_cpu_milli);
	free(a->node_free_mem_mib);
	free(a->node_cap_cpu_milli);
	free(a->node_cap_mem_mib);
	free(a->node_state);
	free(a->cpu_used);
	free(a->nic_vfs_used);
	gp_alloc_index_free(a->ix);
	memset(a, 0, sizeof(*a));
}

/* Every array of an allocation state with its length, as X(field, count)
 * statements (copy and assign). */
#define ALLOC_ARRAYS(X, a) \
	X(gpu_free_milli, (a)->ngpus) \
	X(gpu_free_mem_mib, (a)->ngpus) \
	X(gpu_tasks, (a)->ngpus) \
	X(gpu_env, (a)->ngpus) \
	X(gpu_node, (a)->ngpus) \
	X(node_free_whole, (a)->nnodes) \
	X(node_free_milli, (a)->nnodes) \
	X(node_free_cpu_milli, (a)->nnodes) \
	X(node_free_mem_mib, (a)->nnodes) \
	X(node_cap_cpu_milli, (a)->nnodes) \
	X(node_cap_mem_mib, (a)->nnodes) \
	X(node_state, (a)->nnodes) \
	X(cpu_used, (size_t)(a)->nnodes * (size_t)(a)->cpu_words) \
	X(nic_vfs_used, (size_t)(a)->nnodes * (size_t)(a)->max_nics)

#define DUP(field, count) \
	dst->field = gp_xmalloc((size_t)(count) * sizeof(*src->field)); \
	memcpy(dst->field, src->field, (size_t)(count) * sizeof(*src->field));
#define SET(field, count) \
	memcpy(dst->field, src->field, (size_t)(count) * sizeof(*src->field));

int gp_alloc_copy(gp_alloc *dst, const gp_alloc *src)
{
	*dst = *src;
	ALLOC_ARRAYS(DUP, src)
	dst->ix = src->ix ? gp_alloc_index_new(dst) : NULL;
	return GP_OK;
}

int gp_alloc_assign(gp_alloc *dst, const gp_alloc *src)
{
	if (dst->cluster != src->cluster || dst->ngpus != src->ngpus ||
	    dst->nnodes != src->nnodes || dst->cpu_words != src->cpu_words ||
	    dst->max_nics != src->max_nics || !dst->ix != !src->ix)
		return -1;
	ALLOC_ARRAYS(SET, src)
	if (src->ix)
		gp_alloc_index_assign(dst->ix, src->ix);
	return GP_OK;
}

int gp_alloc_take_gpu(gp_alloc *a, int gpu, int milli, int64_t mem_mib)
{
	int node = a->gpu_node[gpu];
	gp_aix_gpu was;

	if (milli < 0 || milli > a->gpu_free_milli[gpu] ||
	    mem_mib > a->gpu_free_mem_mib[gpu])
		return -1;
	if (a->ix)
		gp_alloc_index_before(a, gpu, &was);
	if (a->gpu_free_milli[gpu] == GP_MILLI && milli > 0)
		a->node_free_whole[node]--;
	a->gpu_free_milli[gpu] = (int16_t)(a->gpu_free_milli[gpu] - milli);
	a->gpu_free_mem_mib[gpu] -= mem_mib;
	a->gpu_tasks[gpu]++;
	a->node_free_milli[node] -= milli;
	if (a->ix)
		gp_alloc_index_after(a, gpu, &was);
	return 0;
}

void gp_alloc_give_gpu(gp_alloc *a, int gpu, int milli, int64_t mem_mib)
{
	int node = a->gpu_node[gpu];
	gp_aix_gpu was;

	if (a->ix)
		gp_alloc_index_before(a, gpu, &was);
	a->gpu_free_milli[gpu] = (int16_t)(a->gpu_free_milli[gpu] + milli);
	a->gpu_free_mem_mib[gpu] += mem_mib;
	if (a->gpu_tasks[gpu] > 0)
		a->gpu_tasks[gpu]--;
	if (a->gpu_free_milli[gpu] == GP_MILLI && milli > 0)
		a->node_free_whole[node]++;
	a->node_free_milli[node] += milli;
	if (a->gpu_tasks[gpu] == 0)
		a->gpu_env[gpu] = -1;
	if (a->ix)
		gp_alloc_index_after(a, gpu, &was);
}

void gp_alloc_set_state(gp_alloc *a, int node, int state)
{
	a->node_state[node] = (uint8_t)state;
	if (a->ix)
		gp_alloc_index_state(a, node);
}

void gp_alloc_set_cpu(gp_alloc *a, int node, int cpu, int used)
{
	uint64_t *w = a->cpu_used + (size_t)node * (size_t)a->cpu_words;
	uint64_t bit = (uint64_t)1 << (cpu % 64);

	if (used)
		w[cpu / 64] |= bit;
	else
		w[cpu / 64] &= ~bit;
}

int64_t gp_alloc_free_whole_total(const gp_alloc *a)
{
	int64_t total = 0;
	int i;

	for (i = 0; i < a->nnodes; i++)
		if (a->node_state[i] == GP_NODE_UP)
			total += a->node_free_whole[i];
	return total;
}
