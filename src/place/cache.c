/* The place cache: what the topology-aware policies derive once per node
 * type and per switch, so that one decision touches only the allocation
 * state.  See gp_place_cache in policy.h. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/perf/perf.h"
#include "gpuplan/place/policy.h"
#include "place_int.h"

/* go-gpuallocator's pair score (the gpu-pair-score policy's ranking, kept
 * in every node type's mask table): the PCIe relation of the two GPUs
 * (cross-CPU 10, same CPU 20, host bridge 30, several switches 40, one
 * switch 50) plus 100 per NVLink between them. */
int gp_place_pair_score(const gp_place_type *t, int a, int b)
{
	static const int pcie[GP_LINK_LEVELS] = {
		[GP_LINK_PIX] = 50, [GP_LINK_PXB] = 40, [GP_LINK_PHB] = 30,
		[GP_LINK_NODE] = 20, [GP_LINK_SYS] = 10,
	};
	int e = t->expense[a][b], score;

	if (a == b)
		return 0;
	score = t->pci[a][b] < GP_LINK_LEVELS ? pcie[t->pci[a][b]] : 0;
	if (GP_EXPENSE_LEVEL(e) == GP_LINK_NV)
		score += 100 * (100 - e);
	return score;
}

/* The perf model's ring over the GPUs of mask (gp_place_ring_gbs) and its
 * weakest hop. */
static double ring_of(const gp_place_type *t, uint64_t mask, gp_link *hop)
{
	int gpus[GP_TOPO_MAX_GPUS], n = 0, a, b;

	while (mask && n < GP_TOPO_MAX_GPUS) {
		gpus[n++] = __builtin_ctzll(mask);
		mask &= mask - 1;
	}
	*hop = (gp_link){ GP_LINK_X, 0 };
	if (n < 2)
		return 0;
	if (!t->topo || !t->topo->links) {
		/* A hand-built type without a link matrix: every pair is
		 * taken as SYS without peer access, as when placing. */
		*hop = (gp_link){ GP_LINK_SYS, 0 };
		return gp_perf_pair_gbs_socket(t->model, (gp_link){ GP_LINK_SYS, 0 }, 0,
					       gp_perf_socket_gbs(t->topo));
	}
	return gp_perf_ring_gbs(t->topo, t->model, gpus, n, &a, &b, hop);
}

double gp_place_ring_hop(const gp_place_type *t, uint64_t mask, gp_link *hop)
{
	gp_place_ring_slot *sl;
	gp_link h;
	double v;

	if (t->ring_gbs && !(mask >> t->ngpus)) {
		if (t->ring_gbs[mask] < 0)
			t->ring_gbs[mask] = ring_of(t, mask, &t->ring_hop[mask]);
		if (hop)
			*hop = t->ring_hop[mask];
		return t->ring_gbs[mask];
	}
	if (t->ring_slot && mask) {
		sl = &t->ring_slot[gp_place_ring_slot_of(mask)];
		if (sl->mask != mask) {
			sl->gbs = ring_of(t, mask, &sl->hop);
			sl->mask = mask;
		}
		if (hop)
			*hop = sl->hop;
		return sl->gbs;
	}
	v = ring_of(t, mask, &h);
	if (hop)
		*hop = h;
	return v;
}

double gp_place_ring_gbs(const gp_place_type *t, uint64_t mask)
{
	return gp_place_ring_hop(t, mask, NULL);
}

static int intern_class(gp_place_cache *pc, const char *key)
{
	int i;

	for (i = 0; i < pc->nclasses; i++)
		if (!strcmp(pc->class_keys[i], key))
			return i;
	pc->class_keys = gp_xrealloc(pc->class_keys,
				     (size_t)(pc->nclasses + 1) * sizeof(*pc->class_keys));
	pc->class_keys[pc->nclasses] = gp_xstrdup(key);
	return pc->nclasses++;
}

/* Best closed loop of every subset: for each expense threshold (ascending)
 * a Hamiltonian-path DP over subsets (paths start at the subset's lowest
 * GPU; reach[m] = possible ends), O(2^n n) per threshold. */
static void fill_rings(gp_place_type *pt)
{
	int n = pt->ngpus, i, j, nth = 0;
	size_t m, full = (size_t)1 << n;
	uint16_t th[GP_PLACE_TABLE_MAX_GPUS * GP_PLACE_TABLE_MAX_GPUS] = { 0 };
	uint32_t adj[GP_PLACE_TABLE_MAX_GPUS];
	uint32_t *reach = gp_xcalloc(full, sizeof(*reach));
	int k;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			uint16_t e = pt->expense[i][j];

			for (k = 0; k < nth && th[k] != e; k++)
				;
			if (k == nth)
				th[nth++] = e;
		}
	qsort(th, (size_t)nth, sizeof(th[0]), gp_place_cmp_u16);
	for (m = 1; m < full; m++) {
		int pc = __builtin_popcountll(m);

		if (pc == 1)
			pt->masks[m].ring = 0;
		else if (pc == 2) {
			int a = __builtin_ctzll(m), b = 63 - __builtin_clzll(m);

			pt->masks[m].ring = pt->expense[a][b];
		} else
			pt->masks[m].ring = UINT16_MAX;
	}
	for (k = 0; k < nth; k++) {
		for (i = 0; i < n; i++) {
			adj[i] = 0;
			for (j = 0; j < n; j++)
				if (j != i && pt->expense[i][j] <= th[k])
					adj[i] |= 1u << j;
		}
		for (m = 1; m < full; m++) {
			uint32_t r = 0, rest, low;

			if (!(m & (m - 1))) {
				reach[m] = (uint32_t)m;
				continue;
			}
			low = (uint32_t)(m & -m);
			rest = (uint32_t)m & ~low;
			while (rest) {
				uint32_t e = rest & -rest;

				rest &= ~e;
				if (reach[m & ~(size_t)e] & adj[__builtin_ctz(e)])
					r |= e;
			}
			reach[m] = r;
			if (pt->masks[m].ring == UINT16_MAX && (r & adj[__builtin_ctz(low)]))
				pt->masks[m].ring = th[k];
		}
	}
	free(reach);
}

static void fill_masks(gp_place_type *pt, const gp_topo_derived *d)
{
	int n = pt->ngpus, j;
	size_t m, full = (size_t)1 << n;

	pt->masks = gp_xcalloc(full, sizeof(*pt->masks));
	for (m = 1; m < full; m++) {
		int h = 63 - __builtin_clzll(m);
		size_t rest = m & ~((size_t)1 << h);
		gp_place_mask_info mi = pt->masks[rest];

		for (j = 0; j < n; j++) {
			if (!(rest >> j & 1))
				continue;
			mi.sum += pt->expense[h][j];
			if (pt->expense[h][j] > mi.max)
				mi.max = pt->expense[h][j];
			mi.pair_score += gp_place_pair_score(pt, h, j);
		}
		pt->masks[m] = mi;
	}
	if (d->ring_bottleneck && d->ngpus == n) {
		for (m = 1; m < full; m++)
			pt->masks[m].ring = (uint16_t)gp_link_expense(d->ring_bottleneck[m]);
	} else {
		fill_rings(pt); /* 13..16 GPUs: the topology layer has no table */
	}
}

/* Class key across nodes: the names of the class's NUMA-local NICs (their
 * subnets when the node type gives them, else device names). */
static int class_of(gp_place_cache *pc, const gp_node_type *nt, const gp_topo_derived *d, int cls)
{
	char key[512];
	size_t len = 0;
	int nic;

	key[0] = '\0';
	for (nic = 0; nic < d->nnics; nic++) {
		const char *name;

		if (!(d->class_nics[cls][nic / 64] >> (nic % 64) & 1))
			continue;
		name = nt->nic_subnets && nt->nic_subnets[nic] ? nt->nic_subnets[nic] :
			nt->topo.nics[nic].device[0] ? nt->topo.nics[nic].device : nt->topo.nics[nic].id;
		if (len && strstr(key, name))
			continue; /* several NICs in one subnet */
		len += (size_t)snprintf(key + len, sizeof(key) - len, "%s%s", len ? "+" : "", name);
		if (len >= sizeof(key))
			break;
	}
	return intern_class(pc, key);
}

/* A hand-built node type without a link matrix: every pair unknown (SYS),
 * one CPU sub-tree, no NICs. */
static void no_matrix(gp_place_type *pt, const gp_topo *t)
{
	int i, j, n = t->ngpus;

	pt->ngpus = n > GP_TOPO_MAX_GPUS ? GP_TOPO_MAX_GPUS : n;
	n = pt->ngpus;
	pt->nsubtrees = n > 0;
	for (i = 0; i < n; i++) {
		pt->subtree[i] = 0;
		pt->subtree_mask[0] |= (uint64_t)1 << i;
		pt->nic_best[i] = pt->nic_class[i] = pt->local_class[i] = -1;
		for (j = 0; j < n; j++) {
			pt->expense[i][j] = i == j ? 0 : GP_LINK_SYS * 100;
			pt->pci[i][j] = i == j ? GP_LINK_X : GP_LINK_SYS;
		}
	}
	if (n <= GP_PLACE_TABLE_MAX_GPUS) {
		size_t m, full = (size_t)1 << n;

		pt->masks = gp_xcalloc(full, sizeof(*pt->masks));
		for (m = 1; m < full; m++) {
			int h = 63 - __builtin_clzll(m);
			size_t rest = m & ~((size_t)1 << h);

			pt->masks[m] = pt->masks[rest];
			for (j = 0; j < n; j++)
				if (rest >> j & 1) {
					pt->masks[m].sum += pt->expense[h][j];
					pt->masks[m].max = pt->expense[h][j];
					pt->masks[m].pair_score += 10;
				}
		}
		fill_rings(pt);
	}
}

/* Each GPU's CPU affinity list as a bit mask (choose_cpus). */
static void fill_cpu_aff(gp_place_type *pt, const gp_topo *t)
{
	int g, i, top = -1, n = t->ngpus < pt->ngpus ? t->ngpus : pt->ngpus;

	for (g = 0; g < n; g++)
		for (i = 0; i < t->gpus[g].ncpus; i++)
			if (t->gpus[g].cpus[i] > top && t->gpus[g].cpus[i] < GP_TOPO_MAX_CPUS)
				top = t->gpus[g].cpus[i];
	if (top < 0)
		return;
	pt->cpu_words = top / 64 + 1;
	pt->cpu_aff = gp_xcalloc((size_t)pt->ngpus * (size_t)pt->cpu_words, sizeof(uint64_t));
	for (g = 0; g < n; g++)
		for (i = 0; i < t->gpus[g].ncpus; i++) {
			int cpu = t->gpus[g].cpus[i];

			if (cpu >= 0 && cpu < GP_TOPO_MAX_CPUS)
				pt->cpu_aff[(size_t)g * (size_t)pt->cpu_words + (size_t)(cpu / 64)] |=
					(uint64_t)1 << (cpu % 64);
		}
}

static void build_type(gp_place_cache *pc, const gp_cluster *c, int ti)
{
	const gp_node_type *nt = &c->types[ti];
	const gp_topo *t = &nt->topo;
	gp_place_type *pt = &pc->types[ti];
	const gp_gpu_model *gm = nt->gpu_model >= 0 && nt->gpu_model < c->catalog.n ?
		&c->catalog.models[nt->gpu_model] : NULL;
	const gp_topo_derived *d = nt->derived;
	int n, i, j, cls_map[GP_TOPO_MAX_GPUS];

	memset(pt, 0, sizeof(*pt));
	pt->topo = t;
	pt->model = gm;
	if (!d && !t->links) {
		no_matrix(pt, t);
		if (t->gpus)
			fill_cpu_aff(pt, t);
		return;
	}
	if (!d) { /* hand-built clusters that skipped gp_cluster_finish */
		gp_error err = GP_ERROR_INIT;

		pt->own_derived = gp_topo_derived_new(t, &err);
		d = pt->own_derived;
	}
	pt->derived = d;
	pt->ngpus = n = d ? d->ngpus : 0;
	pt->nnics = t->nnics;
	if (!d)
		return;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			pt->expense[i][j] = d->expense[i][j];
			pt->pci[i][j] = d->pcie[i][j];
		}
	/* CPU sub-trees (US 12386666): the socket groups of the topology. */
	pt->nsubtrees = d->nsockets;
	for (i = 0; i < d->nsockets; i++)
		pt->subtree_mask[i] = d->socket_set[i];
	for (i = 0; i < d->nclasses; i++)
		cls_map[i] = class_of(pc, nt, d, i);
	for (i = 0; i < n; i++) {
		pt->subtree[i] = d->socket[i];
		pt->nic_best[i] = d->gpu_nic[i];
		pt->nic_class[i] = d->gpu_class[i] >= 0 ? cls_map[d->gpu_class[i]] : -1;
		pt->local_class[i] = d->gpu_class[i];
	}
	if (n <= GP_PLACE_TABLE_MAX_GPUS)
		fill_masks(pt, d);
	fill_cpu_aff(pt, t);
	if (n > 0 && n <= GP_PLACE_MEMO_MAX_GPUS) {
		size_t len = (size_t)GP_PLACE_MEMO_KINDS * (GP_PLACE_MEMO_MAX_GPUS + 1)
			     << GP_PLACE_MEMO_MAX_GPUS;

		pt->memo = gp_xmalloc(len * sizeof(*pt->memo));
		memset(pt->memo, 0xff, len * sizeof(*pt->memo));
	}
}

/* bestfit's single-card choice per free-GPU mask (place_int.h). */
static void fill_single(gp_place_type *pt)
{
	int m, g, h, full = 1 << pt->ngpus;

	pt->sc_gpu = gp_xcalloc((size_t)full, sizeof(*pt->sc_gpu));
	pt->sc_iso = gp_xcalloc((size_t)full, sizeof(*pt->sc_iso));
	for (m = 1; m < full; m++) {
		int32_t best = -1;

		for (g = 0; g < pt->ngpus; g++) {
			int32_t iso = 0;

			if (!(m >> g & 1))
				continue;
			for (h = 0; h < pt->ngpus; h++)
				if (h != g && (m >> h & 1))
					iso += pt->expense[g][h];
			if (iso > best) {
				best = iso;
				pt->sc_gpu[m] = (int8_t)g;
			}
		}
		pt->sc_iso[m] = best;
	}
}

static void build_domains(gp_place_cache *pc, const gp_cluster *c)
{
	int i, s, *rep;

	pc->sw_rate = gp_xcalloc((size_t)c->nswitches + 1, sizeof(*pc->sw_rate));
	pc->sw_free = gp_xcalloc((size_t)c->nswitches + 1, sizeof(*pc->sw_free));
	pc->sw_count = gp_xcalloc((size_t)c->nswitches + 1, sizeof(*pc->sw_count));
	rep = gp_xmalloc(((size_t)c->nswitches + 1) * sizeof(*rep));
	for (s = 0; s < c->nswitches; s++)
		rep[s] = -1;
	/* Representative: a node with the deepest leaf under the switch, so
	 * that its weight to the others is the worst pair in a tree whose
	 * leaves sit at equal depth (the usual fat tree). */
	for (i = 0; i < c->nnodes; i++)
		for (s = gp_place_node_sw(c, i); s >= 0; s = c->switches[s].parent) {
			pc->sw_count[s]++;
			if (rep[s] < 0 || c->switches[gp_place_node_sw(c, i)].depth >
			    c->switches[gp_place_node_sw(c, rep[s])].depth)
				rep[s] = i;
		}
	for (i = 0; i < c->nnodes; i++)
		for (s = gp_place_node_sw(c, i); s >= 0; s = c->switches[s].parent) {
			int w;

			if (i == rep[s])
				continue;
			w = gp_cluster_comm_weight(c, rep[s], i);
			if (w < 0)
				pc->sw_rate[s] = INT_MAX;
			else if (w > pc->sw_rate[s])
				pc->sw_rate[s] = w;
		}
	free(rep);
	pc->sw_key = gp_xmalloc(((size_t)c->nswitches + 1) * sizeof(*pc->sw_key));
	for (s = 0; s < c->nswitches; s++)
		pc->sw_key[s] = pc->sw_rate[s] == INT_MAX ? UINT64_MAX
				: (uint64_t)pc->sw_rate[s] << GP_PLACE_REM_BITS;
	pc->node_pos = gp_xmalloc(((size_t)c->nnodes + 1) * sizeof(*pc->node_pos));
	for (i = 0; i < c->nnodes; i++)
		pc->node_pos[i] = -1;
	for (i = 0; c->node_order && i < c->nattached; i++)
		pc->node_pos[c->node_order[i]] = i;
}

/* The network GB/s a node gives all its GPUs (gp_perf_node_net_gbs);
 * nodes without rails of one type and one fabric technology share it
 * (memo: last[type] the technology, val[type] the answer). */
static double node_net(const gp_cluster *c, int node, int *last, double *val)
{
	const gp_node *nd = &c->nodes[node];
	int gpus[GP_TOPO_MAX_GPUS], n = c->types[nd->type].topo.ngpus, g;

	if (!nd->nrails && last[nd->type] == (int)nd->tech)
		return val[nd->type];
	if (n > GP_TOPO_MAX_GPUS)
		n = GP_TOPO_MAX_GPUS;
	for (g = 0; g < n; g++)
		gpus[g] = g;
	if (nd->nrails)
		return gp_perf_node_net_gbs(c, node, gpus, n, NULL);
	last[nd->type] = (int)nd->tech;
	val[nd->type] = gp_perf_node_net_gbs(c, node, gpus, n, NULL);
	return val[nd->type];
}

/* A leaf's slowest node (net, > 0) and most GPUs of a node up its tree. */
static void fabric_up(gp_place_cache *pc, int leaf, double net, int ng)
{
	const gp_cluster *c = pc->cluster;
	int s;

	for (s = leaf; s >= 0; s = c->switches[s].parent) {
		/* a node without a network attachment is left out, as the
		 * perf model leaves it */
		if (net > 0 && (pc->sw_net[s] <= 0 || net < pc->sw_net[s]))
			pc->sw_net[s] = net;
		if (ng > pc->sw_maxg[s])
			pc->sw_maxg[s] = ng;
	}
}

/* Switch groups by network GB/s (descending), then communication weight. */
static int cmp_bw_group(const void *a, const void *b, void *arg)
{
	const gp_place_cache *pc = arg;
	int x = *(const int *)a, y = *(const int *)b;

	if (pc->sw_fix[x] != pc->sw_fix[y])
		return pc->sw_fix[x] > pc->sw_fix[y] ? -1 : 1;
	return (pc->sw_rate[x] > pc->sw_rate[y]) - (pc->sw_rate[x] < pc->sw_rate[y]);
}

void gp_place_cache_fabric(gp_place_cache *pc)
{
	const gp_cluster *c = pc->cluster;
	int ns = c->nswitches, i, s;
	double *val, *eff, run_net = 0;
	unsigned char *leaf;
	int *order, *last, run_sw = -1, run_g = 0, lim;

	if (pc->sw_net)
		return;
	pc->sw_net = gp_xcalloc((size_t)ns + 1, sizeof(*pc->sw_net));
	pc->sw_maxg = gp_xcalloc((size_t)ns + 1, sizeof(*pc->sw_maxg));
	pc->sw_leaf = gp_xmalloc(2 * ((size_t)ns + 1) * sizeof(*pc->sw_leaf));
	eff = gp_xmalloc(2 * ((size_t)ns + 1) * sizeof(*eff));
	leaf = gp_xcalloc((size_t)ns + 1, 1);
	last = gp_xmalloc(((size_t)c->ntypes + 1) * sizeof(*last));
	val = gp_xcalloc((size_t)c->ntypes + 1, sizeof(*val));
	for (i = 0; i < c->ntypes; i++)
		last[i] = -1;
	for (s = 0; s < 2 * ns; s++)
		pc->sw_leaf[s] = -1;
	/* Nodes in switch-tree order: those of one leaf come one after the
	 * other, so each run goes up the tree once. */
	lim = c->node_order ? c->nattached : c->nnodes;
	for (i = 0; i <= lim; i++) {
		int node = i == lim ? -1 : c->node_order ? c->node_order[i] : i;
		int s0 = node < 0 ? -1 : gp_place_node_sw(c, node), ng;
		double net;

		if (s0 != run_sw) {
			if (run_sw >= 0)
				fabric_up(pc, run_sw, run_net, run_g);
			run_sw = s0;
			run_net = 0;
			run_g = 0;
		}
		if (s0 < 0)
			continue;
		leaf[s0] = 1;
		net = node_net(c, node, last, val);
		ng = c->types[c->nodes[node].type].topo.ngpus;
		if (net > 0 && (run_net <= 0 || net < run_net))
			run_net = net;
		if (ng > run_g)
			run_g = ng;
	}
	/* A leaf whose efficiency at 4 nodes is below that at 2 loses to
	 * congestion, which grows with the job's nodes; else it is fixed. */
	for (i = 0; i < ns; i++) {
		if (!leaf[i])
			continue;
		for (s = i; s >= 0; s = c->switches[s].parent) {
			int lv, k;
			double e2, e4;

			if (pc->sw_rate[s] == INT_MAX)
				continue;
			lv = gp_place_weight_levels(pc->sw_rate[s]);
			e2 = gp_perf_fabric_efficiency(c, i, 2, lv);
			e4 = gp_perf_fabric_efficiency(c, i, 4, lv);
			k = 2 * s + (e4 < e2);
			if (pc->sw_leaf[k] < 0 || (e4 < e2 ? e4 : e2) < eff[k]) {
				pc->sw_leaf[k] = i;
				eff[k] = e4 < e2 ? e4 : e2;
			}
		}
	}
	pc->sw_fix = gp_xmalloc(((size_t)ns + 1) * sizeof(*pc->sw_fix));
	pc->sw_bwkey = gp_xmalloc(((size_t)ns + 1) * sizeof(*pc->sw_bwkey));
	order = gp_xmalloc(((size_t)ns + 1) * sizeof(*order));
	pc->sw_cong = 0;
	for (s = 0; s < ns; s++) {
		pc->sw_fix[s] = pc->sw_net[s] * (pc->sw_leaf[2 * s] >= 0 ? eff[2 * s] : 1.0);
		order[s] = s;
		pc->sw_cong |= pc->sw_leaf[2 * s + 1] >= 0;
	}
	/* Without congestion the order of the switch groups is the same for
	 * every job: a rank, so that a decision compares integers. */
	qsort_r(order, (size_t)ns, sizeof(*order), cmp_bw_group, pc);
	for (s = 0, i = 0; s < ns; s++) {
		int x = order[s];

		if (s > 0 && cmp_bw_group(&order[s - 1], &x, pc))
			i++;
		pc->sw_bwkey[x] = pc->sw_rate[x] == INT_MAX ? UINT64_MAX
				  : (uint64_t)i << GP_PLACE_REM_BITS;
	}
	free(order);
	free(last);
	free(val);
	free(eff);
	free(leaf);
}

double gp_place_group_net_cong(const gp_place_cache *pc, int sw, int need)
{
	int maxg, nodes;

	maxg = pc->sw_maxg[sw] > 0 ? pc->sw_maxg[sw] : 1;
	nodes = (need + maxg - 1) / maxg;
	return fmin(pc->sw_fix[sw], pc->sw_net[sw] *
		    gp_perf_fabric_efficiency(pc->cluster, pc->sw_leaf[2 * sw + 1], nodes < 2 ? 2 : nodes,
					      gp_place_weight_levels(pc->sw_rate[sw])));
}

gp_place_cache *gp_place_cache_new(const gp_cluster *c)
{
	gp_place_cache *pc = gp_xcalloc(1, sizeof(*pc));
	int i;

	pc->cluster = c;
	pc->ntypes = c->ntypes;
	pc->types = gp_xcalloc((size_t)c->ntypes + 1, sizeof(*pc->types));
	for (i = 0; i < c->ntypes; i++) {
		gp_place_type *pt = &pc->types[i];

		build_type(pc, c, i);
		if (pt->ngpus >= 1 && pt->ngpus <= GP_AIX_MAX_GPUS)
			fill_single(pt);
		if (pt->ngpus > GP_PLACE_MEMO_MAX_GPUS)
			pt->pair_slot = gp_xcalloc((size_t)1 << GP_PLACE_PAIR_BITS, sizeof(*pt->pair_slot));
		if (pt->ngpus > GP_PLACE_TABLE_MAX_GPUS)
			pt->ring_slot = gp_xcalloc((size_t)1 << GP_PLACE_RING_BITS, sizeof(*pt->ring_slot));
		if (pt->ngpus >= 2 && pt->ngpus <= GP_PLACE_TABLE_MAX_GPUS) {
			size_t m, full = (size_t)1 << pt->ngpus;

			pt->ring_gbs = gp_xmalloc(full * sizeof(*pt->ring_gbs));
			pt->ring_hop = gp_xmalloc(full * sizeof(*pt->ring_hop));
			for (m = 0; m < full; m++)
				pt->ring_gbs[m] = -1.0;
		}
	}
	build_domains(pc, c);
	pc->node_int[0] = gp_xcalloc((size_t)c->nnodes + 1, sizeof(int));
	pc->node_int[1] = gp_xcalloc((size_t)c->nnodes + 1, sizeof(int));
	pc->node_int[2] = gp_xcalloc((size_t)c->nnodes + 1, sizeof(int));
	pc->node_mask = gp_xcalloc((size_t)c->nnodes + 1, sizeof(uint64_t));
	pc->class_votes = gp_xcalloc((size_t)pc->nclasses + 1, sizeof(int64_t));
	pc->class_free = gp_xcalloc((size_t)pc->nclasses + 1, sizeof(int64_t));
	gp_accepts_memo_init(&pc->accepts);
	return pc;
}

void gp_place_cache_free(gp_place_cache *pc)
{
	int i;

	if (!pc)
		return;
	for (i = 0; i < pc->ntypes; i++) {
		free(pc->types[i].masks);
		free(pc->types[i].cpu_aff);
		free(pc->types[i].memo);
		free(pc->types[i].sc_gpu);
		free(pc->types[i].sc_iso);
		free(pc->types[i].ring_gbs);
		free(pc->types[i].ring_hop);
		free(pc->types[i].ring_slot);
		free(pc->types[i].pair_slot);
		gp_topo_derived_free(pc->types[i].own_derived);
	}
	free(pc->types);
	for (i = 0; i < pc->nclasses; i++)
		free(pc->class_keys[i]);
	free(pc->class_keys);
	free(pc->sw_rate);
	free(pc->sw_key);
	free(pc->sw_free);
	free(pc->sw_count);
	free(pc->node_pos);
	free(pc->node_int[0]);
	free(pc->node_int[1]);
	free(pc->node_int[2]);
	free(pc->node_mask);
	free(pc->class_votes);
	free(pc->class_free);
	free(pc->sw_net);
	free(pc->sw_fix);
	free(pc->sw_bwkey);
	free(pc->sw_maxg);
	free(pc->sw_leaf);
	gp_accepts_memo_release(&pc->accepts);
	free(pc);
}

gp_place_cache *gp_place_cache_get(const gp_policy_ctx *ctx, gp_place_cache **tmp)
{
	*tmp = NULL;
	if (ctx->cache && ctx->cache->cluster == ctx->cluster)
		return ctx->cache;
	*tmp = gp_place_cache_new(ctx->cluster);
	return *tmp;
}

const gp_place_type *gp_place_type_of(const gp_place_cache *pc, int node)
{
	return &pc->types[pc->cluster->nodes[node].type];
}

int *gp_place_scratch_nodes(gp_place_cache *pc, int which)
{
	return pc->node_int[which >= 0 && which < 3 ? which : 0];
}

uint64_t *gp_place_scratch_masks(gp_place_cache *pc)
{
	return pc->node_mask;
}

int gp_place_nclasses(const gp_place_cache *pc)
{
	return pc->nclasses;
}

const char *gp_place_class_name(const gp_place_cache *pc, int cls)
{
	return cls >= 0 && cls < pc->nclasses ? pc->class_keys[cls] : "-";
}

int64_t *gp_place_class_votes(gp_place_cache *pc)
{
	return pc->class_votes;
}

int64_t *gp_place_class_free(gp_place_cache *pc)
{
	return pc->class_free;
}
