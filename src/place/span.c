/* Jobs over several nodes: the fabric-tree reach limit and the switch
 * search (gp_place_span), by a scan of every node's fit or through the
 * allocation index (gp_place_span_ix). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/place/policy.h"
#include "place_int.h"

static int cmp_node_fit_desc(int fa, int na, int fb, int nb)
{
	if (fa != fb)
		return fa > fb ? -1 : 1;
	return (na > nb) - (na < nb);
}

/* The root switch of a node's fabric tree, -1 without switch. */
static int node_root(const gp_cluster *c, int node)
{
	int s = gp_place_node_sw(c, node);

	while (s >= 0 && c->switches[s].parent >= 0)
		s = c->switches[s].parent;
	return s;
}

int gp_place_reach_limit(const gp_policy_ctx *ctx, int64_t *sum, int *fit, int need)
{
	const gp_cluster *c = ctx->cluster;
	int64_t *own = NULL, most = 0;
	int i, s, pick = -1, root;

	/* A cluster without any switch models no fabric (hand-built
	 * simulator clusters): nothing to tell reachable nodes apart. */
	if (c->nswitches == 0)
		return GP_PLACED;
	if (!sum)
		sum = own = gp_xcalloc((size_t)c->nswitches + 1, sizeof(*sum));
	for (s = 0; s < c->nswitches; s++)
		sum[s] = 0;
	for (i = 0; i < c->nnodes; i++)
		if (fit[i] > 0 && (s = node_root(c, i)) >= 0)
			sum[s] += fit[i];
	for (i = 0; i < c->nnodes && pick < 0; i++) {
		int64_t have;

		if (fit[i] <= 0)
			continue;
		s = node_root(c, i);
		have = s >= 0 ? sum[s] : fit[i];
		if (have >= need)
			pick = i;
		else if (have > most)
			most = have;
	}
	root = pick >= 0 ? node_root(c, pick) : -1;
	for (i = 0; i < c->nnodes; i++)
		if (pick < 0 || (root < 0 ? i != pick : node_root(c, i) != root))
			fit[i] = 0;
	free(own);
	if (pick >= 0)
		return GP_PLACED;
	gp_explain_add(ctx->explain, "several nodes: no group of mutually reachable nodes (one fabric tree) "
		       "has %d fitting GPUs (at most %lld in one tree)", need, (long long)most);
	return gp_explain_wait(ctx->explain, "no group of mutually reachable nodes has %d free GPUs", need);
}

/* The switch for a multi-node job of need GPUs from the fitting GPUs per
 * switch (pc->sw_free): for GP_GROUP_BW the highest network GB/s of the
 * perf model first (gp_place_group_net_gbs); then the best (lowest)
 * communication weight, then the least left over; -1 (WAIT reason set) when no
 * connected group holds it.  total: fitting GPUs in the cluster, for the
 * explanation. */
static int span_switch(const gp_policy_ctx *ctx, gp_place_cache *pc, int need, int64_t total,
		       int kind)
{
	const gp_cluster *c = ctx->cluster;
	int64_t bestrem = 0, most = 0;
	int s, best = -1;
	double bestnet = 0;

	if (kind == GP_GROUP_BW)
		gp_place_cache_fabric(pc);
	if (kind != GP_GROUP_BW || !pc->sw_cong) {
		/* The order does not depend on the job: the lowest key (rank,
		 * then GPUs left over; the first switch among equals). */
		const uint64_t *key = kind == GP_GROUP_BW ? pc->sw_bwkey : pc->sw_key;
		const uint64_t cap = ((uint64_t)1 << GP_PLACE_REM_BITS) - 1;
		uint64_t bk = UINT64_MAX;

		for (s = 0; s < c->nswitches; s++) {
			int64_t rem = pc->sw_free[s] - need;
			uint64_t k = key[s] | ((uint64_t)rem < cap ? (uint64_t)rem : cap);

			if (rem >= 0 && k < bk) {
				bk = k;
				best = s;
			}
		}
		if (best >= 0 && kind == GP_GROUP_BW)
			bestnet = pc->sw_fix[best];
	} else {
		for (s = 0; s < c->nswitches; s++) {
			int64_t rem = pc->sw_free[s] - need;
			double net;

			if (rem < 0 || pc->sw_rate[s] == INT_MAX)
				continue;
			net = gp_place_group_net_gbs(pc, s, need);
			if (best < 0 || net > bestnet ||
			    (net == bestnet && (pc->sw_rate[s] < pc->sw_rate[best] ||
						(pc->sw_rate[s] == pc->sw_rate[best] && rem < bestrem)))) {
				best = s;
				bestrem = rem;
				bestnet = net;
			}
		}
	}
	if (best >= 0 && kind == GP_GROUP_BW)
		gp_explain_add(ctx->explain, "several nodes: switch %s, network %.1f GB/s a node (perf model: "
			       "the slowest node's NICs under it x the fabric's efficiency over %d switch level(s))",
			       c->switches[best].name, bestnet, gp_place_weight_levels(pc->sw_rate[best]));
	if (best >= 0)
		return best;
	for (s = 0; s < c->nswitches; s++)
		if (pc->sw_free[s] > most && pc->sw_rate[s] != INT_MAX)
			most = pc->sw_free[s];
	gp_explain_add(ctx->explain, "several nodes: no connected group of nodes has %d fitting GPUs "
		       "(%lld free in the cluster, at most %lld under one switch)",
		       need, (long long)total, (long long)most);
	gp_explain_wait(ctx->explain, "no connected group of nodes has %d free GPUs; "
			"wait for the next dispatch", need);
	return -1;
}

/* The communication weight w of a switch group's farthest two nodes in
 * a user's words: what the cluster file's weight counts (InfiniBand k,
 * Ethernet/RoCE 99 + k for k switch levels between the nodes). */
static void weight_words(int w, char *buf, size_t size)
{
	if (w > 0)
		snprintf(buf, size, "communication weight %d between its nodes: %s through %d switch level(s)",
			 w, w < 100 ? "InfiniBand" : "Ethernet/RoCE", gp_place_weight_levels(w));
	else
		snprintf(buf, size, "communication weight %d between its nodes", w);
}

/* The parts of a multi-node job on chosen[0..n) (in that order), each
 * node's fit GPUs (a best group of allow when it gives fewer). */
static int span_parts(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job, int best,
		      const int *chosen, int nchosen, int last, const int *fit, const uint64_t *allow,
		      int kind, int combo, gp_placement *out)
{
	const gp_cluster *c = ctx->cluster;
	int need = job->gpus, got = 0, left = 0, i;
	char wbuf[96];

	for (i = 0; i < nchosen; i++) {
		int node = chosen[i], take = need - got < fit[node] ? need - got : fit[node];
		uint64_t mask = take == fit[node] ? allow[node] :
			gp_place_best_group(gp_place_type_of(pc, node), allow[node], take, kind);

		gp_place_add_part(out, node, mask, job);
		got += take;
		left += fit[node] - take;
	}
	if (ctx->explain)
		weight_words(pc->sw_rate[best], wbuf, sizeof(wbuf));
	if (ctx->explain && combo) {
		gp_explain_add(ctx->explain, "several nodes: under switch %s (%s; %lld fitting GPUs, "
			       "best fit among groups of equal weight): %d node(s), best fit over node "
			       "combinations (%d fitting GPU(s) left on them)",
			       c->switches[best].name, wbuf, (long long)pc->sw_free[best], nchosen, left);
	} else if (ctx->explain) {
		gp_explain_add(ctx->explain, "several nodes: under switch %s (%s; %lld fitting GPUs, "
			       "best fit among groups of equal weight): %d node(s), the last (%s) chosen by best fit",
			       c->switches[best].name, wbuf, (long long)pc->sw_free[best], nchosen,
			       last >= 0 ? c->nodes[last].name : "-");
	}
	return GP_PLACED;
}

/* Sort chosen[0..n) by fit descending, then node index; the GPUs of all
 * but the last. */
static int span_order(int *chosen, int n, const int *fit)
{
	int i, got = 0;

	for (i = 1; i < n; i++) {
		int x = chosen[i], j = i - 1;

		while (j >= 0 && cmp_node_fit_desc(fit[chosen[j]], chosen[j], fit[x], x) > 0) {
			chosen[j + 1] = chosen[j];
			j--;
		}
		chosen[j + 1] = x;
	}
	for (i = 0; i < n - 1; i++)
		got += fit[chosen[i]];
	return got;
}

/* From the nodes per fitting GPUs (hist): the level thr whose nodes and
 * those above it hold need GPUs; *take_thr of those at thr are taken. */
static int span_threshold(const int *hist, int need, int *take_thr)
{
	int thr, cum = 0;

	for (thr = GP_TOPO_MAX_GPUS; thr > 0; thr--) {
		if (cum + thr * hist[thr] >= need)
			break;
		cum += thr * hist[thr];
	}
	*take_thr = thr > 0 ? (need - cum + thr - 1) / thr : 0;
	return thr;
}

/* Best fit over node combinations: how many nodes of each fitting-GPU
 * count v (hist[v] of them) to take so that they hold need GPUs with the
 * fewest left over, then the fewest nodes; take[v] out, the number of
 * nodes returned.  -1 when the search is out of its bounds (the caller
 * keeps fewest-nodes-first): more than GP_SPAN_COMBO_MAX GPUs, or more
 * nodes than a job may span.  A bounded knapsack per exact total t <
 * need + the largest fit (a set holding more than that keeps need
 * without one of its nodes): per value, a sliding minimum over the
 * totals of one residue class, O(values x t). */
#define GP_SPAN_COMBO_MAX 8192

int gp_place_span_combo(const int *hist, int need, int *take)
{
	int vmax = 0, v, t, T, nv = 0, *nodes, *win, *cnt, *tmp, r = -1, hit = -1;
	int vals[GP_TOPO_MAX_GPUS + 1];
	const int inf = INT_MAX / 4;

	for (v = GP_TOPO_MAX_GPUS; v > 0; v--)
		if (hist[v] > 0) {
			vals[nv++] = v; /* largest first */
			if (v > vmax)
				vmax = v;
		}
	for (v = 0; v <= GP_TOPO_MAX_GPUS; v++)
		take[v] = 0;
	if (need <= 0 || nv == 0 || need > GP_SPAN_COMBO_MAX)
		return -1;
	if (nv == 1) {
		/* One fit among the nodes (often: all idle): the fewest of them. */
		int k = (need + vmax - 1) / vmax;

		if (k > hist[vmax] || k > GP_PLACE_MAX_PARTS)
			return -1;
		take[vmax] = k;
		return k;
	}
	T = need + vmax - 1;
	nodes = gp_xcalloc((size_t)(T + 1), sizeof(*nodes));
	tmp = gp_xcalloc((size_t)(T + 1), sizeof(*tmp));
	win = gp_xcalloc((size_t)(T + 1), sizeof(*win));
	cnt = gp_xcalloc((size_t)nv * (size_t)(T + 1), sizeof(*cnt));
	for (t = 1; t <= T; t++)
		nodes[t] = inf;
	for (int i = 0; i < nv; i++) {
		int h = hist[vals[i]], *c = cnt + (size_t)i * (size_t)(T + 1);

		v = vals[i];
		for (int res = 0; res < v && res <= T; res++) {
			/* x_j = nodes[res + j v] - j; new = j + min of x over
			 * [j - h, j]; win holds j's of increasing x (ties: the
			 * later j, fewer nodes of this value). */
			int head = 0, tail = 0, j;

			for (j = 0, t = res; t <= T; j++, t += v) {
				int xj = nodes[t] >= inf ? inf : nodes[t] - j, xi;

				while (tail > head) {
					int b = win[tail - 1];

					xi = nodes[res + b * v] >= inf ? inf : nodes[res + b * v] - b;
					if (xi < xj)
						break;
					tail--;
				}
				win[tail++] = j;
				while (win[head] < j - h)
					head++;
				xi = nodes[res + win[head] * v];
				if (xi >= inf) {
					tmp[t] = inf;
					c[t] = 0;
				} else {
					tmp[t] = xi - win[head] + j;
					c[t] = j - win[head];
				}
			}
		}
		memcpy(nodes, tmp, (size_t)(T + 1) * sizeof(*nodes));
	}
	for (t = need; t <= T && hit < 0; t++)
		if (nodes[t] < inf)
			hit = t;
	if (hit >= 0 && nodes[hit] <= GP_PLACE_MAX_PARTS) {
		r = nodes[hit];
		for (int i = nv - 1; i >= 0; i--) {
			int k = cnt[(size_t)i * (size_t)(T + 1) + (size_t)hit];

			take[vals[i]] = k;
			hit -= k * vals[i];
		}
	}
	free(nodes);
	free(tmp);
	free(win);
	free(cnt);
	return r;
}

/* The nodes of a multi-node job under switch best: cand[0..m) are the
 * nodes under it with fitting GPUs, ascending.  Fewest nodes first
 * (largest fit), the last one by best fit. */
static int span_nodes(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job, int best,
		      const int *cand, int m, const int *fit, const uint64_t *allow, int kind,
		      int best_fit, gp_placement *out)
{
	int need = job->gpus, i, nchosen = 0, got, last = -1;
	int *chosen = gp_place_scratch_nodes(pc, 2);
	int hist[GP_TOPO_MAX_GPUS + 1], take[GP_TOPO_MAX_GPUS + 1];
	int thr, take_thr, chosen_max = GP_PLACE_MAX_PARTS;

	memset(hist, 0, sizeof(hist));
	for (i = 0; i < m; i++)
		hist[fit[cand[i]] > GP_TOPO_MAX_GPUS ? GP_TOPO_MAX_GPUS : fit[cand[i]]]++;
	if (best_fit && gp_place_span_combo(hist, need, take) > 0) {
		/* The lowest nodes of each fit the combination takes. */
		for (i = 0; i < m; i++)
			if (take[fit[cand[i]]] > 0) {
				take[fit[cand[i]]]--;
				chosen[nchosen++] = cand[i];
			}
		span_order(chosen, nchosen, fit);
		return span_parts(ctx, pc, job, best, chosen, nchosen, chosen[nchosen - 1], fit, allow,
				  kind, 1, out);
	}
	/* Nodes with fit > thr all go; of those with fit == thr, the first few. */
	thr = span_threshold(hist, need, &take_thr);
	for (i = 0; i < m; i++) {
		int f = fit[cand[i]];

		if (f > thr || (f == thr && take_thr > 0)) {
			if (f == thr)
				take_thr--;
			chosen[nchosen++] = cand[i];
		}
	}
	if (nchosen > chosen_max) {
		gp_explain_add(ctx->explain, "several nodes: %d nodes needed, more than the cap of %d",
			       nchosen, chosen_max);
		return gp_explain_wait(ctx->explain, "the job would span more than %d nodes", chosen_max);
	}
	/* Order: fit descending, then node index; the last node only gives
	 * the remainder: swap in the smallest unchosen node that covers it. */
	got = span_order(chosen, nchosen, fit);
	if (nchosen > 0) {
		int rem = need - got, bestn = chosen[nchosen - 1], k;

		for (k = 0; k < m; k++) {
			int j, n = cand[k];

			if (fit[n] < rem || fit[n] >= fit[bestn] || n == bestn)
				continue;
			for (j = 0; j < nchosen - 1 && chosen[j] != n; j++)
				;
			if (j == nchosen - 1)
				bestn = n; /* fit[n] < fit[bestn] here: ascending n, so the lowest */
		}
		chosen[nchosen - 1] = bestn;
		last = bestn;
	}
	return span_parts(ctx, pc, job, best, chosen, nchosen, last, fit, allow, kind, 0, out);
}

int gp_place_span(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job,
		  const int *fit, const uint64_t *allow, int kind, int best_fit, gp_placement *out)
{
	const gp_cluster *c = ctx->cluster;
	int i, s, best, m = 0;
	int64_t total = 0;
	int *cand = gp_place_scratch_nodes(pc, 1);

	for (s = 0; s < c->nswitches; s++)
		pc->sw_free[s] = 0;
	for (i = 0; i < c->nnodes; i++) {
		if (fit[i] <= 0)
			continue;
		total += fit[i];
		for (s = gp_place_node_sw(c, i); s >= 0; s = c->switches[s].parent)
			pc->sw_free[s] += fit[i];
	}
	if ((best = span_switch(ctx, pc, job->gpus, total, kind)) < 0)
		return GP_WAIT;
	for (i = 0; i < c->nnodes; i++) {
		if (fit[i] <= 0)
			continue;
		for (s = gp_place_node_sw(c, i); s >= 0 && s != best; s = c->switches[s].parent)
			;
		if (s == best)
			cand[m++] = i;
	}
	return span_nodes(ctx, pc, job, best, cand, m, fit, allow, kind, best_fit, out);
}

/* A node's fitting GPUs for gp_place_span_ix (its fit[] rule); via the
 * index's mask for a regular node of a type the job may use. */
static int span_fit(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job, int node,
		    uint64_t *allow)
{
	const gp_alloc_index *ix = ctx->alloc->ix;
	const gp_aix_type *xt = &ix->types[ctx->cluster->nodes[node].type];
	int n;

	if (gp_aix_regular(ix, xt, node)) {
		const gp_place_type *pt = gp_place_type_of(pc, node);

		if (!gp_place_type_ok(ctx, ctx->cluster->nodes[node].type, job) ||
		    job->gpu_mem_mib > xt->mem_cap || pt->ngpus != xt->ngpus)
			return 0;
		*allow = ix->whole[node];
		n = gp_popcount64(*allow);
	} else {
		*allow = gp_place_fit_mask(ctx, node, job, &n);
	}
	if (n && !gp_place_host_fits(ctx, node, job, n < job->gpus ? n : job->gpus))
		n = 0;
	return n;
}

int gp_place_span_walk_max = 256;

/* Whether node sits under switch sw (its place in the switch tree's node
 * order falls in sw's range). */
static int under(const gp_cluster *c, const gp_place_cache *pc, int node, int sw)
{
	int p = pc->node_pos[node];

	return p >= c->switches[sw].first && p < c->switches[sw].first + c->switches[sw].count;
}

/* Whether the job may take a type's regular nodes by their masks. */
static int span_type(const gp_policy_ctx *ctx, const gp_place_cache *pc, const gp_aix_type *xt,
		     int ti, const gp_job *job)
{
	return xt->nnodes && xt->indexed && xt->sw_whole && job->gpu_mem_mib <= xt->mem_cap &&
	       pc->types[ti].ngpus == xt->ngpus && gp_place_type_ok(ctx, ti, job);
}

/* Keep sorted out[0..*n) the `want` lowest nodes seen: add node. */
static void lowest_add(int *out, int *n, int want, int node)
{
	int i;

	if (*n == want && node >= out[want - 1])
		return;
	if (*n < want)
		(*n)++;
	for (i = *n - 1; i > 0 && out[i - 1] > node; i--)
		out[i] = out[i - 1];
	out[i] = node;
}

/* The `want` lowest nodes under sw with exactly v fitting GPUs, none of
 * skip[0..nskip), into out (ascending); how many there are, up to want.
 * Regular nodes from the mask sets of v GPUs, odd ones from
 * oddn[0..nodd) with their fit[]. */
static int span_with(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job, int sw, int v,
		     int want, const int *skip, int nskip, const int *oddn, int nodd, const int *fit,
		     int *out)
{
	const gp_alloc_index *ix = ctx->alloc->ix;
	int ti, m, n = 0, i, j;

	for (ti = 0; ti < ix->ntypes && want > 0; ti++) {
		const gp_aix_type *xt = &ix->types[ti];

		if (!span_type(ctx, pc, xt, ti, job) || v > xt->ngpus)
			continue;
		for (m = gp_place_ix_next_mask(xt, 1); m > 0; m = gp_place_ix_next_mask(xt, m + 1)) {
			int r;

			if (gp_popcount64((uint64_t)m) != v)
				continue;
			for (r = gp_nodeset_next(&xt->by_mask[m], 0); r >= 0;
			     r = gp_nodeset_next(&xt->by_mask[m], r + 1)) {
				int node = xt->nodes[r];

				if (n == want && node >= out[want - 1])
					break; /* ascending: none of the rest is lower */
				if (!under(ctx->cluster, pc, node, sw))
					continue;
				for (j = 0; j < nskip && skip[j] != node; j++)
					;
				if (j == nskip)
					lowest_add(out, &n, want, node);
			}
		}
	}
	for (i = 0; i < nodd && want > 0; i++) {
		for (j = 0; j < nskip && skip[j] != oddn[i]; j++)
			;
		if (j == nskip && fit[oddn[i]] == v)
			lowest_add(out, &n, want, oddn[i]);
	}
	return n;
}

/* span_nodes for a switch with many nodes under it: the counts of nodes
 * per fitting GPUs come from the index's per-switch histograms, and only
 * the nodes that are taken (or may be) are looked up, per mask. */
static int span_big(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job, int best, int kind,
		    int best_fit, gp_placement *out)
{
	const gp_cluster *c = ctx->cluster;
	const gp_alloc_index *ix = ctx->alloc->ix;
	int *fit = gp_place_scratch_nodes(pc, 0), *oddn = gp_place_scratch_nodes(pc, 1);
	int *chosen = gp_place_scratch_nodes(pc, 2);
	uint64_t *allow = gp_place_scratch_masks(pc);
	int hist[GP_TOPO_MAX_GPUS + 1], take[GP_TOPO_MAX_GPUS + 1], need = job->gpus, nodd = 0, ti, r, w;
	int nchosen = 0, i, got, extra, thr, take_thr;

	memset(hist, 0, sizeof(hist));
	for (ti = 0; ti < ix->ntypes; ti++) {
		const gp_aix_type *xt = &ix->types[ti];

		if (!xt->nnodes || !gp_place_type_ok(ctx, ti, job))
			continue;
		if (span_type(ctx, pc, xt, ti, job))
			for (w = 1; w <= xt->ngpus; w++)
				hist[w] += xt->sw_hist[(size_t)best * (size_t)(xt->ngpus + 1) + (size_t)w];
		for (r = gp_nodeset_next(&xt->odd, 0); r >= 0; r = gp_nodeset_next(&xt->odd, r + 1)) {
			int node = xt->nodes[r];

			if (!under(c, pc, node, best))
				continue;
			fit[node] = span_fit(ctx, pc, job, node, &allow[node]);
			if (fit[node] > 0) {
				oddn[nodd++] = node;
				hist[fit[node] > GP_TOPO_MAX_GPUS ? GP_TOPO_MAX_GPUS : fit[node]]++;
			}
		}
	}
	if (best_fit && gp_place_span_combo(hist, need, take) > 0) {
		for (w = GP_TOPO_MAX_GPUS; w > 0; w--)
			if (take[w] > 0)
				nchosen += span_with(ctx, pc, job, best, w, take[w], NULL, 0, oddn, nodd, fit,
						     chosen + nchosen);
		for (i = 0; i < nchosen; i++)
			if (!under(c, pc, chosen[i], best) ||
			    !(fit[chosen[i]] = span_fit(ctx, pc, job, chosen[i], &allow[chosen[i]])))
				return -1; /* cannot happen: the index and the scan disagree */
		span_order(chosen, nchosen, fit);
		return span_parts(ctx, pc, job, best, chosen, nchosen, chosen[nchosen - 1], fit, allow,
				  kind, 1, out);
	}
	thr = span_threshold(hist, need, &take_thr);
	for (w = thr + 1; w <= GP_TOPO_MAX_GPUS; w++)
		nchosen += hist[w];
	nchosen += take_thr;
	if (nchosen > GP_PLACE_MAX_PARTS)
		return gp_explain_wait(ctx->explain, "the job would span more than %d nodes", GP_PLACE_MAX_PARTS);
	/* Every node above thr, the first take_thr of those at thr. */
	nchosen = 0;
	for (w = GP_TOPO_MAX_GPUS; w >= thr && w > 0; w--) {
		int want = w > thr ? hist[w] : take_thr;

		if (want > 0)
			nchosen += span_with(ctx, pc, job, best, w, want, NULL, 0, oddn, nodd, fit,
					     chosen + nchosen);
	}
	for (i = 0; i < nchosen; i++)
		if (!under(c, pc, chosen[i], best) || !(fit[chosen[i]] = span_fit(ctx, pc, job, chosen[i],
										  &allow[chosen[i]])))
			return -1; /* cannot happen: the index and the scan disagree */
	got = span_order(chosen, nchosen, fit);
	if (nchosen > 0) {
		int rem = need - got, last = chosen[nchosen - 1], v;

		/* The smallest node that covers the remainder, lowest index. */
		for (v = rem; v < fit[last]; v++)
			if (span_with(ctx, pc, job, best, v, 1, chosen, nchosen, oddn, nodd, fit, &extra) > 0) {
				chosen[nchosen - 1] = extra;
				fit[extra] = span_fit(ctx, pc, job, extra, &allow[extra]);
				break;
			}
	}
	return span_parts(ctx, pc, job, best, chosen, nchosen, nchosen ? chosen[nchosen - 1] : -1, fit,
			  allow, kind, 0, out);
}

int gp_place_span_ix(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job, int kind,
		     int best_fit, gp_placement *out)
{
	const gp_cluster *c = ctx->cluster;
	const gp_alloc_index *ix = gp_place_ix(ctx, job);
	int *fit = gp_place_scratch_nodes(pc, 0), *cand = gp_place_scratch_nodes(pc, 1);
	uint64_t *allow = gp_place_scratch_masks(pc);
	int ti, s, r, k, best, m = 0;

	/* Host requests: whether a node can take its GPUs depends on the job. */
	if (!ix || job->cpu_milli > 0 || job->mem_mib > 0)
		return -1;
	for (s = 0; s < c->nswitches; s++)
		pc->sw_free[s] = 0;
	for (ti = 0; ti < ix->ntypes; ti++) {
		const gp_aix_type *xt = &ix->types[ti];

		if (!xt->nnodes || !gp_place_type_ok(ctx, ti, job))
			continue;
		if (xt->indexed && xt->sw_whole && job->gpu_mem_mib <= xt->mem_cap &&
		    pc->types[ti].ngpus == xt->ngpus)
			for (s = 0; s < c->nswitches; s++)
				pc->sw_free[s] += xt->sw_whole[s];
		for (r = gp_nodeset_next(&xt->odd, 0); r >= 0; r = gp_nodeset_next(&xt->odd, r + 1)) {
			int node = xt->nodes[r], f = span_fit(ctx, pc, job, node, &allow[node]);

			for (s = gp_place_node_sw(c, node); f > 0 && s >= 0; s = c->switches[s].parent)
				pc->sw_free[s] += f;
		}
	}
	if ((best = span_switch(ctx, pc, job->gpus, 0, kind)) < 0)
		return GP_WAIT;
	if (c->switches[best].count > gp_place_span_walk_max)
		return span_big(ctx, pc, job, best, kind, best_fit, out);
	for (k = 0; k < c->switches[best].count; k++) {
		int node = c->node_order[c->switches[best].first + k];

		fit[node] = span_fit(ctx, pc, job, node, &allow[node]);
		if (fit[node] > 0)
			cand[m++] = node;
	}
	qsort(cand, (size_t)m, sizeof(*cand), gp_cmp_int);
	return span_nodes(ctx, pc, job, best, cand, m, fit, allow, kind, best_fit, out);
}
