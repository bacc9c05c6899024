/* Best and worst placements of a job on an idle cluster, by modelled
 * iteration time.  The search is over layouts, not every GPU subset of
 * every node: per node type and node count k (equal shares n/k), the GPU
 * subset with the best and the worst ring on one node, repeated on k
 * nodes that are adjacent in the switch tree (best) or spread evenly over
 * it (worst). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/perf/perf.h"
#include "gpuplan/util/util.h"

#define SUBSET_BUDGET 20000 /* subsets of one node examined at most */

/* Next k-combination of 0..n-1 in lexicographic order; 0 at the end. */
static int next_comb(int *a, int k, int n)
{
	int i = k - 1;

	while (i >= 0 && a[i] == n - k + i)
		i--;
	if (i < 0)
		return 0;
	a[i]++;
	for (i++; i < k; i++)
		a[i] = a[i - 1] + 1;
	return 1;
}

static double binom(int n, int k)
{
	double r = 1;
	int i;

	for (i = 1; i <= k; i++)
		r = r * (n - k + i) / i;
	return r;
}

/* Best and worst g-subsets of a node type's GPUs by ring bandwidth. */
static void subsets(const gp_topo *t, const gp_gpu_model *m, int g, int *best, int *worst)
{
	int a[GP_TOPO_MAX_GPUS], i, n = t->ngpus, count = 0;
	double bb = -1, wb = 1e300;

	for (i = 0; i < g; i++)
		best[i] = worst[i] = a[i] = i;
	if (g >= n || g < 2)
		return;
	if (binom(n, g) > SUBSET_BUDGET)
		return; /* first g GPUs for both: too many to look at */
	do {
		double bw = gp_perf_ring_gbs(t, m, a, g, NULL, NULL, NULL);

		if (bw > bb) {
			bb = bw;
			memcpy(best, a, (size_t)g * sizeof(*a));
		}
		if (bw < wb) {
			wb = bw;
			memcpy(worst, a, (size_t)g * sizeof(*a));
		}
		count++;
	} while (next_comb(a, g, n) && count < SUBSET_BUDGET);
}

static void build(gp_placement *p, const int *nodes, int k, const int *gpus, int g)
{
	int i;

	gp_placement_clear(p);
	for (i = 0; i < k; i++) {
		gp_place_part *pp = gp_placement_add(p, nodes[i]);

		pp->ngpus = g;
		memcpy(pp->gpus, gpus, (size_t)g * sizeof(*gpus));
	}
}

int gp_perf_best_worst(const gp_cluster *c, const gp_job *j, gp_placement *best,
		       gp_perf_iter *best_it, gp_placement *worst, gp_perf_iter *worst_it,
		       gp_error *err)
{
	int n = j->gpus > 0 ? j->gpus : 1, ty, found = 0, st = GP_OK, skipped = 0;
	int *of_type = gp_xmalloc((size_t)(c->nnodes ? c->nnodes : 1) * sizeof(int));
	int *pick = gp_xmalloc((size_t)(c->nnodes ? c->nnodes : 1) * sizeof(int));
	gp_placement cand;
	gp_perf_iter it;

	gp_placement_init(&cand);
	for (ty = 0; ty < c->ntypes && !st; ty++) {
		const gp_topo *t = &c->types[ty].topo;
		const gp_gpu_model *m = c->types[ty].gpu_model >= 0 ?
			&c->catalog.models[c->types[ty].gpu_model] : NULL;
		int cnt = 0, i, k, G = t->ngpus;

		if (G <= 0 || (m && !gp_job_accepts_model(j, m->name)))
			continue;
		/* Nodes of this type in switch-tree order, so neighbours share
		 * leaves. */
		for (i = 0; i < c->nnodes; i++) {
			int nd = c->node_order ? c->node_order[i] : i;

			if (c->nodes[nd].type == ty)
				of_type[cnt++] = nd;
		}
		for (k = (n + G - 1) / G; k <= n && k <= cnt && k <= GP_PLACE_MAX_PARTS; k++) {
			/* k >= 1: n >= 1 and G >= 1 */
			/* cppcheck-suppress zerodiv */
			int g = n / k, bs[GP_TOPO_MAX_GPUS], ws[GP_TOPO_MAX_GPUS], pass;

			/* cppcheck-suppress zerodiv */
			if (n % k || g > G)
				continue;
			subsets(t, m, g, bs, ws);
			for (pass = 0; pass < 2; pass++) {
				for (i = 0; i < k; i++)
					pick[i] = pass == 0 ? of_type[i]
						  : of_type[k > 1 ? (int)((long)i * (cnt - 1) / (k - 1)) : 0];
				build(&cand, pick, k, pass == 0 ? bs : ws, g);
				st = gp_perf_iteration(c, j, &cand, &it, err);
				if (st && k > 1) {
					/* Nodes of this type in different, unconnected
					 * fabrics: not a layout; keep the first reason
					 * in case no layout works. */
					if (!skipped)
						skipped = st;
					st = GP_OK;
					continue;
				}
				if (st)
					break;
				if (!found || it.iter_s < best_it->iter_s) {
					*best_it = it;
					build(best, pick, k, pass == 0 ? bs : ws, g);
				}
				if (!found || it.iter_s > worst_it->iter_s) {
					*worst_it = it;
					build(worst, pick, k, pass == 0 ? bs : ws, g);
				}
				found = 1;
			}
		}
	}
	gp_placement_release(&cand);
	free(of_type);
	free(pick);
	if (st)
		return st;
	if (!found && skipped)
		return skipped; /* err still holds its message */
	if (!found)
		return gp_error_set(err, GP_NO, NULL, 0, 0,
				    "no node type can hold %d GPUs of job '%s' in equal shares", n,
				    j->id ? j->id : "?");
	return GP_OK;
}
