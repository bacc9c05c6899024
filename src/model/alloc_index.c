/* Allocation-state index: node sets by free-GPU mask per node type and
 * free whole GPUs per switch (alloc_index.h), updated per GPU change. */
#include <stdlib.h>
#include <string.h>

#include "gpuplan/model/alloc.h"
#include "gpuplan/model/alloc_index.h"
#include "gpuplan/util/util.h"
#include "alloc_index_int.h"

/* Words a set over n ranks needs, all levels. */
static size_t set_words(int n, int32_t *words, int *nlevels)
{
	size_t total = 0;
	int64_t w = n > 0 ? n : 1;
	int l = 0;

	do {
		w = (w + 63) / 64;
		if (words)
			words[l] = (int32_t)w;
		total += (size_t)w;
		l++;
	} while (w > 1 && l < GP_AIX_LEVELS);
	if (nlevels)
		*nlevels = l;
	return total;
}

static uint64_t *set_carve(gp_nodeset *s, int n, uint64_t *arena)
{
	int l;

	set_words(n, s->words, &s->nlevels);
	for (l = 0; l < s->nlevels; l++) {
		s->lv[l] = arena;
		arena += s->words[l];
	}
	s->count = 0;
	return arena;
}

static void set_add(gp_nodeset *s, int r)
{
	int l;

	s->count++;
	for (l = 0; l < s->nlevels; l++) {
		uint64_t was = s->lv[l][r >> 6];

		s->lv[l][r >> 6] = was | (uint64_t)1 << (r & 63);
		if (was)
			break;
		r >>= 6;
	}
}

static void set_del(gp_nodeset *s, int r)
{
	int l;

	s->count--;
	for (l = 0; l < s->nlevels; l++) {
		s->lv[l][r >> 6] &= ~((uint64_t)1 << (r & 63));
		if (s->lv[l][r >> 6])
			break;
		r >>= 6;
	}
}

/* A GPU neither wholly free (all milli and memory) nor wholly taken. */
static int gpu_odd(const gp_alloc *a, int gpu, int64_t cap)
{
	int m = a->gpu_free_milli[gpu];

	return (m > 0 && m < GP_MILLI) || (m == GP_MILLI && a->gpu_free_mem_mib[gpu] != cap);
}

/* The set a node belongs in, NULL for none (a type without GPUs). */
static gp_nodeset *node_set(gp_alloc_index *ix, gp_aix_type *t, int node)
{
	if (gp_aix_regular(ix, t, node))
		return &t->by_mask[ix->whole[node]];
	return &t->odd;
}

/* A regular node with w wholly free GPUs joins (d = 1) or leaves (-1)
 * the sums of every switch above it. */
static void sw_add(gp_alloc_index *ix, const gp_cluster *c, gp_aix_type *t, int node, int w, int d)
{
	int s = c->nodes[node].sw;

	if (!t->sw_whole || s < 0 || s >= ix->nswitches)
		return;
	for (; s >= 0; s = c->switches[s].parent) {
		t->sw_whole[s] += d * w;
		t->sw_hist[(size_t)s * (size_t)(t->ngpus + 1) + (size_t)w] += d;
	}
}

static void mark_nonempty(gp_aix_type *t, uint64_t m, gp_nodeset *s)
{
	if (s == &t->odd)
		return;
	if (s->count)
		t->nonempty[m >> 6] |= (uint64_t)1 << (m & 63);
	else
		t->nonempty[m >> 6] &= ~((uint64_t)1 << (m & 63));
}

gp_alloc_index *gp_alloc_index_new(const gp_alloc *a)
{
	const gp_cluster *c = a->cluster;
	gp_alloc_index *ix = gp_xcalloc(1, sizeof(*ix));
	int i, ti, g;

	ix->ntypes = c->ntypes;
	ix->nnodes = c->nnodes;
	ix->nswitches = c->nswitches;
	ix->types = gp_xcalloc((size_t)c->ntypes + 1, sizeof(*ix->types));
	ix->rank = gp_xcalloc((size_t)c->nnodes + 1, sizeof(*ix->rank));
	ix->whole = gp_xcalloc((size_t)c->nnodes + 1, sizeof(*ix->whole));
	ix->nodd = gp_xcalloc((size_t)c->nnodes + 1, sizeof(*ix->nodd));
	ix->notup = gp_xcalloc((size_t)c->nnodes + 1, sizeof(*ix->notup));
	for (i = 0; i < c->nnodes; i++) {
		ti = c->nodes[i].type;
		ix->rank[i] = ix->types[ti].nnodes++;
	}
	for (ti = 0; ti < c->ntypes; ti++) {
		gp_aix_type *t = &ix->types[ti];
		size_t per = set_words(t->nnodes, NULL, NULL), nsets;
		uint64_t *p;

		t->nodes = gp_xcalloc((size_t)t->nnodes + 1, sizeof(*t->nodes));
		t->ngpus = c->types[ti].topo.ngpus;
		t->indexed = t->ngpus >= 1 && t->ngpus <= GP_AIX_MAX_GPUS;
		nsets = 1 + (t->indexed ? (size_t)1 << t->ngpus : 0);
		t->arena = gp_xcalloc(per * nsets, sizeof(uint64_t));
		p = set_carve(&t->odd, t->nnodes, t->arena);
		if (t->indexed) {
			t->by_mask = gp_xcalloc(nsets - 1, sizeof(*t->by_mask));
			for (g = 0; g < (int)(nsets - 1); g++)
				p = set_carve(&t->by_mask[g], t->nnodes, p);
		}
		if (c->nswitches > 0 && t->indexed) {
			t->sw_whole = gp_xcalloc((size_t)c->nswitches, sizeof(*t->sw_whole));
			t->sw_hist = gp_xcalloc((size_t)c->nswitches * (size_t)(t->ngpus + 1),
						sizeof(*t->sw_hist));
		}
		t->mem_cap = -1;
	}
	for (i = 0; i < c->nnodes; i++) {
		gp_aix_type *t = &ix->types[c->nodes[i].type];
		const gp_node *n = &c->nodes[i];
		gp_nodeset *s;

		t->nodes[ix->rank[i]] = i;
		if (t->mem_cap < 0 && n->ngpus > 0)
			t->mem_cap = gp_alloc_gpu_mem_cap(a, n->first_gpu);
		for (g = 0; g < n->ngpus; g++) {
			int gpu = n->first_gpu + g;

			if (g < 64 && a->gpu_free_milli[gpu] == GP_MILLI)
				ix->whole[i] |= (uint64_t)1 << g;
			ix->nodd[i] = (uint16_t)(ix->nodd[i] + gpu_odd(a, gpu, t->mem_cap));
		}
		if (n->ngpus != t->ngpus)
			ix->nodd[i]++; /* hand-built: not like its type */
		ix->notup[i] = a->node_state[i] != GP_NODE_UP;
		s = node_set(ix, t, i);
		set_add(s, ix->rank[i]);
		mark_nonempty(t, ix->whole[i], s);
		if (gp_aix_regular(ix, t, i))
			sw_add(ix, c, t, i, gp_popcount64(ix->whole[i]), 1);
	}
	return ix;
}

void gp_alloc_index_assign(gp_alloc_index *dst, const gp_alloc_index *src)
{
	size_t n = (size_t)src->nnodes;
	int ti, m;

	memcpy(dst->whole, src->whole, n * sizeof(*src->whole));
	memcpy(dst->nodd, src->nodd, n * sizeof(*src->nodd));
	memcpy(dst->notup, src->notup, n * sizeof(*src->notup));
	for (ti = 0; ti < src->ntypes; ti++) {
		gp_aix_type *d = &dst->types[ti];
		const gp_aix_type *t = &src->types[ti];
		size_t nsets = 1 + (t->indexed ? (size_t)1 << t->ngpus : 0);

		/* the sets' words are carved alike from each arena */
		memcpy(d->arena, t->arena, set_words(t->nnodes, NULL, NULL) * nsets * sizeof(uint64_t));
		d->odd.count = t->odd.count;
		for (m = 0; m < (int)nsets - 1; m++)
			d->by_mask[m].count = t->by_mask[m].count;
		memcpy(d->nonempty, t->nonempty, sizeof(t->nonempty));
		if (t->sw_whole) {
			memcpy(d->sw_whole, t->sw_whole, (size_t)src->nswitches * sizeof(*t->sw_whole));
			memcpy(d->sw_hist, t->sw_hist,
			       (size_t)src->nswitches * (size_t)(t->ngpus + 1) * sizeof(*t->sw_hist));
		}
	}
}

void gp_alloc_index_free(gp_alloc_index *ix)
{
	int ti;

	if (!ix)
		return;
	for (ti = 0; ti < ix->ntypes; ti++) {
		free(ix->types[ti].nodes);
		free(ix->types[ti].by_mask);
		free(ix->types[ti].sw_whole);
		free(ix->types[ti].sw_hist);
		free(ix->types[ti].arena);
	}
	free(ix->types);
	free(ix->rank);
	free(ix->whole);
	free(ix->nodd);
	free(ix->notup);
	free(ix);
}

void gp_alloc_index_before(const gp_alloc *a, int gpu, gp_aix_gpu *was)
{
	gp_alloc_index *ix = a->ix;
	int node = a->gpu_node[gpu];

	was->odd = gpu_odd(a, gpu, ix->types[a->cluster->nodes[node].type].mem_cap);
}

/* Node `node` gets free-GPU mask m1, odd GPUs nodd1 and state notup1:
 * move it between sets, fix the switch sums. */
static void node_move(gp_alloc_index *ix, const gp_cluster *c, int node, uint64_t m1, int nodd1,
		      int notup1)
{
	gp_aix_type *t = &ix->types[c->nodes[node].type];
	uint64_t m0 = ix->whole[node];
	int reg0 = gp_aix_regular(ix, t, node), reg1;
	gp_nodeset *s0 = node_set(ix, t, node), *s1;

	ix->whole[node] = m1;
	ix->nodd[node] = (uint16_t)nodd1;
	ix->notup[node] = (uint8_t)notup1;
	reg1 = gp_aix_regular(ix, t, node);
	s1 = node_set(ix, t, node);
	if (s1 != s0) {
		set_del(s0, ix->rank[node]);
		mark_nonempty(t, m0, s0);
		set_add(s1, ix->rank[node]);
		mark_nonempty(t, m1, s1);
	}
	if (reg0 != reg1 || m0 != m1) {
		if (reg0)
			sw_add(ix, c, t, node, gp_popcount64(m0), -1);
		if (reg1)
			sw_add(ix, c, t, node, gp_popcount64(m1), 1);
	}
}

void gp_alloc_index_after(gp_alloc *a, int gpu, const gp_aix_gpu *was)
{
	gp_alloc_index *ix = a->ix;
	const gp_cluster *c = a->cluster;
	int node = a->gpu_node[gpu], g = gpu - c->nodes[node].first_gpu;
	int odd = gpu_odd(a, gpu, ix->types[c->nodes[node].type].mem_cap);
	uint64_t m0 = ix->whole[node], m1 = m0;

	if (g < 64)
		m1 = a->gpu_free_milli[gpu] == GP_MILLI ? m0 | (uint64_t)1 << g : m0 & ~((uint64_t)1 << g);
	if (m1 != m0 || odd != was->odd)
		node_move(ix, c, node, m1, ix->nodd[node] + odd - was->odd, ix->notup[node]);
}

void gp_alloc_index_state(gp_alloc *a, int node)
{
	gp_alloc_index *ix = a->ix;
	int notup = a->node_state[node] != GP_NODE_UP;

	if (notup != ix->notup[node])
		node_move(ix, a->cluster, node, ix->whole[node], ix->nodd[node], notup);
}
