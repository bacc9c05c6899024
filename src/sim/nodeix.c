/* The per-node running-jobs index (nodeix.h). */
#include <stdlib.h>
#include <string.h>

#include "gpuplan/util/util.h"
#include "nodeix.h"

void gp_sim_nodeix_init(gp_sim_nodeix *x, size_t nnodes, size_t njobs)
{
	size_t i;

	memset(x, 0, sizeof(*x));
	x->nnodes = nnodes ? nnodes : 1;
	x->head = gp_xmalloc(x->nnodes * sizeof(*x->head));
	for (i = 0; i < x->nnodes; i++)
		x->head[i] = -1;
	x->mark = gp_xcalloc(x->nnodes, sizeof(*x->mark));
	x->jent = gp_xmalloc((njobs ? njobs : 1) * sizeof(*x->jent));
	for (i = 0; i < njobs; i++)
		x->jent[i] = -1;
	x->free_ = -1;
}

void gp_sim_nodeix_release(gp_sim_nodeix *x)
{
	free(x->head);
	free(x->jent);
	free(x->e);
	free(x->mark);
	memset(x, 0, sizeof(*x));
}

static int32_t entry_new(gp_sim_nodeix *x)
{
	int32_t e = x->free_;

	if (e >= 0) {
		x->free_ = x->e[e].next;
		return e;
	}
	GP_GROW(x->e, x->cap, x->n + 1);
	return (int32_t)x->n++;
}

void gp_sim_nodeix_add(gp_sim_nodeix *x, int32_t j, const gp_placement *p)
{
	int k;

	x->jent[j] = -1;
	if (++x->stamp == 0) {
		memset(x->mark, 0, x->nnodes * sizeof(*x->mark));
		x->stamp = 1;
	}
	for (k = 0; k < p->nparts; k++) {
		int node = p->parts[k].node;
		int32_t e;

		if (x->mark[node] == x->stamp) { /* another part there */
			for (e = x->jent[j]; x->e[e].node != node; e = x->e[e].jnext)
				;
			x->e[e].ngpus += p->parts[k].ngpus;
			continue;
		}
		x->mark[node] = x->stamp;
		e = entry_new(x);
		x->e[e].job = j;
		x->e[e].node = node;
		x->e[e].ngpus = p->parts[k].ngpus;
		x->e[e].prev = -1;
		x->e[e].next = x->head[node];
		if (x->head[node] >= 0)
			x->e[x->head[node]].prev = e;
		x->head[node] = e;
		x->e[e].jnext = x->jent[j];
		x->jent[j] = e;
	}
}

void gp_sim_nodeix_remove(gp_sim_nodeix *x, int32_t j)
{
	int32_t e, nx;

	for (e = x->jent[j]; e >= 0; e = nx) {
		gp_sim_nodeent *en = &x->e[e];

		nx = en->jnext;
		if (en->prev >= 0)
			x->e[en->prev].next = en->next;
		else
			x->head[en->node] = en->next;
		if (en->next >= 0)
			x->e[en->next].prev = en->prev;
		en->next = x->free_;
		x->free_ = e;
	}
	x->jent[j] = -1;
}
