/* Structures derived from one node's topology: the communication-expense
 * matrix, PCIe relations hidden behind NV# cells, CPU sub-trees, closest
 * NICs and NIC affinity classes, and best rings over GPU subsets. */
#include <stdlib.h>
#include <string.h>

#include "gpuplan/model/topo.h"
#include "gpuplan/util/util.h"

int gp_link_expense(gp_link l)
{
	switch (l.level) {
	case GP_LINK_X:
		return 0;
	case GP_LINK_NV:
		return 100 - (l.nvlinks > 99 ? 99 : l.nvlinks);
	default:
		return 100 * (int)l.level;
	}
}

static int popcount64(uint64_t x)
{
	return __builtin_popcountll(x);
}

static int lowest(uint64_t x)
{
	return __builtin_ctzll(x);
}

/* ---- PCIe relations ---- */

/* Resolve every device pair's PCIe level.  nvidia-smi levels nest like a
 * tree (an ultrametric): for any third device k, the two largest of
 * lv(a,k), lv(b,k), lv(a,b) are equal.  So when k sees a and b at
 * different levels, lv(a,b) is the larger; when at the same level x,
 * lv(a,b) <= x. */
static void resolve_pcie(const gp_topo *t, gp_topo_derived *d)
{
	int n = t->ngpus + t->nnics, a, b, k, changed;
	uint8_t *lv = gp_xcalloc((size_t)n * (size_t)n, 1);
	uint8_t *hi = gp_xcalloc((size_t)n * (size_t)n, 1);
	uint8_t *src = gp_xcalloc((size_t)n * (size_t)n, 1);

#define AT(m, i, j) (m)[(size_t)(i) * (size_t)n + (size_t)(j)]
	for (a = 0; a < n; a++)
		for (b = 0; b < n; b++) {
			gp_link l = gp_topo_link(t, a, b);

			AT(hi, a, b) = GP_LINK_SYS;
			if (l.level != GP_LINK_NV)
				AT(lv, a, b) = l.level; /* X on the diagonal */
			else
				AT(lv, a, b) = 0xff; /* unknown */
		}
	/* NUMA affinity of GPUs. */
	for (a = 0; a < t->ngpus; a++)
		for (b = 0; b < t->ngpus; b++) {
			int na = t->gpus[a].numa, nb = t->gpus[b].numa;

			if (AT(lv, a, b) != 0xff || na < 0 || nb < 0)
				continue;
			if (na != nb) {
				AT(lv, a, b) = GP_LINK_SYS;
				AT(src, a, b) = GP_PCIE_NUMA;
			} else if (AT(hi, a, b) > GP_LINK_NODE) {
				AT(hi, a, b) = GP_LINK_NODE;
			}
		}
	do {
		changed = 0;
		for (a = 0; a < n; a++)
			for (b = a + 1; b < n; b++) {
				if (AT(lv, a, b) != 0xff)
					continue;
				for (k = 0; k < n; k++) {
					int x = AT(lv, a, k), y = AT(lv, b, k);

					if (k == a || k == b || x == 0xff || y == 0xff)
						continue;
					if (x != y) {
						AT(lv, a, b) = AT(lv, b, a) = (uint8_t)(x > y ? x : y);
						AT(src, a, b) = AT(src, b, a) = GP_PCIE_TRIANGLE;
						changed = 1;
						break;
					}
					if (x < AT(hi, a, b))
						AT(hi, a, b) = AT(hi, b, a) = (uint8_t)x;
				}
			}
	} while (changed);
	/* Still hidden: bounds, then disjoint CPU sets, else SYS. */
	for (a = 0; a < n; a++)
		for (b = 0; b < n; b++) {
			if (AT(lv, a, b) != 0xff)
				continue;
			if (AT(hi, a, b) < GP_LINK_SYS) {
				AT(lv, a, b) = AT(hi, a, b);
				AT(src, a, b) = GP_PCIE_BOUND;
				continue;
			}
			AT(lv, a, b) = GP_LINK_SYS;
			AT(src, a, b) = GP_PCIE_UNKNOWN;
			if (a < t->ngpus && b < t->ngpus && t->gpus[a].ncpus &&
			    t->gpus[b].ncpus) {
				const gp_topo_gpu *ga = &t->gpus[a], *gb = &t->gpus[b];
				int i = 0, j = 0, common = 0, same = ga->ncpus == gb->ncpus;

				while (i < ga->ncpus && j < gb->ncpus) {
					if (ga->cpus[i] == gb->cpus[j]) {
						common++;
						i++;
						j++;
					} else if (ga->cpus[i] < gb->cpus[j]) {
						i++;
					} else {
						j++;
					}
				}
				if (same && common == ga->ncpus) {
					AT(lv, a, b) = GP_LINK_NODE;
					AT(src, a, b) = GP_PCIE_BOUND;
				} else if (!common) {
					AT(src, a, b) = GP_PCIE_CPUSET;
				}
			}
		}
	d->npcie_inferred = 0;
	for (a = 0; a < t->ngpus; a++)
		for (b = 0; b < t->ngpus; b++) {
			d->pcie[a][b] = AT(lv, a, b);
			d->pcie_src[a][b] = AT(src, a, b);
			if (a < b && AT(src, a, b) != GP_PCIE_CELL)
				d->npcie_inferred++;
		}
	free(lv);
	free(hi);
	free(src);
#undef AT
}

/* Union-find grouping of GPUs whose PCIe level is <= max_level; group ids
 * in order of their lowest GPU. */
static int same_cpus(const gp_topo_gpu *x, const gp_topo_gpu *y)
{
	return x->ncpus > 0 && x->ncpus == y->ncpus &&
	       !memcmp(x->cpus, y->cpus, (size_t)x->ncpus * sizeof(int));
}

/* Whether the affinity columns put GPUs a and b under one CPU: the same
 * known NUMA node, or (NUMA unknown on both) the same non-empty CPU list,
 * unless every GPU prints that one list (a container's cpuset, as on the
 * DGX-1 snapshot, says nothing about sockets).  A box whose GPU pairs are
 * all SYS (each GPU on a root port of its own) still has its GPUs grouped
 * under their sockets this way. */
static int same_cpu(const gp_topo *t, int a, int b)
{
	const gp_topo_gpu *x = &t->gpus[a], *y = &t->gpus[b];
	int g;

	if (x->numa >= 0 || y->numa >= 0)
		return x->numa == y->numa;
	if (!same_cpus(x, y))
		return 0;
	for (g = 0; g < t->ngpus; g++)
		if (!same_cpus(x, &t->gpus[g]))
			return 1;
	return 0;
}

/* Classes of "pcie level <= max_level"; with t (the socket level), GPUs
 * that share a CPU by the affinity columns join as well. */
static int group(gp_topo_derived *d, const gp_topo *t, int max_level, int *gid, gp_gpuset *sets)
{
	int n = d->ngpus, a, b, ng = 0;
	int parent[GP_TOPO_MAX_GPUS];

	for (a = 0; a < n; a++)
		parent[a] = a;
	for (a = 0; a < n; a++)
		for (b = a + 1; b < n; b++)
			if (d->pcie[a][b] <= max_level || (t && same_cpu(t, a, b))) {
				int ra = a, rb = b;

				while (parent[ra] != ra)
					ra = parent[ra];
				while (parent[rb] != rb)
					rb = parent[rb];
				if (ra != rb)
					parent[ra > rb ? ra : rb] = ra < rb ? ra : rb;
			}
	for (a = 0; a < n; a++) {
		int r = a;

		while (parent[r] != r)
			r = parent[r];
		if (r == a) {
			gid[a] = ng;
			sets[ng++] = 0;
		} else {
			gid[a] = gid[r];
		}
		sets[gid[a]] |= (gp_gpuset)1 << a;
	}
	return ng;
}

/* ---- NICs ---- */


/* A node whose NICs do not fall in different NUMA groups (one NIC, or all
 * on one socket) is one resource (the RoCE seed's classes split a node only
 * by its NUMA-local NICs): every GPU is in the class of all its NICs, those
 * without a local NIC included. */
static void one_resource(const gp_topo *t, gp_topo_derived *d)
{
	uint64_t set[GP_TOPO_MAX_DEVICES / 64] = { 0 };
	int j, g, numa = -1;

	if (t->nnics == 0)
		return;
	for (j = 0; j < t->nnics; j++) {
		/* several NICs of unknown NUMA: they may well be apart */
		if (t->nics[j].numa < 0 && t->nnics > 1)
			return;
		if (numa >= 0 && t->nics[j].numa != numa)
			return;
		numa = t->nics[j].numa;
		set[j / 64] |= (uint64_t)1 << (j % 64);
	}
	d->nclasses = 1;
	memcpy(d->class_nics[0], set, sizeof(set));
	d->class_gpus[0] = 0;
	d->class_numa[0] = t->ngpus > 0 ? t->gpus[0].numa : -1;
	for (g = 0; g < t->ngpus; g++) {
		d->gpu_class[g] = 0;
		d->class_gpus[0] |= (gp_gpuset)1 << g;
		if (t->gpus[g].numa != d->class_numa[0])
			d->class_numa[0] = -1;
	}
}

static void derive_nics(const gp_topo *t, gp_topo_derived *d)
{
	int used[GP_TOPO_MAX_DEVICES] = { 0 };
	int g, j, c;

	/* A NIC's socket: that of the GPU it reaches first, if at NODE or
	 * nearer. */
	for (j = 0; j < t->nnics; j++) {
		int best = GP_LINK_NODE + 1;

		d->nic_numa[j] = t->nics[j].numa;
		d->nic_socket[j] = -1;
		for (g = 0; g < t->ngpus; g++) {
			int l = gp_topo_link(t, g, t->ngpus + j).level;

			if (l != GP_LINK_NV && l < best) {
				best = l;
				d->nic_socket[j] = d->socket[g];
			}
		}
	}
	for (g = 0; g < t->ngpus; g++) {
		int best = GP_LINK_LEVELS, pick = -1;

		for (j = 0; j < t->nnics; j++) {
			int l = gp_topo_link(t, g, t->ngpus + j).level;

			if (l == GP_LINK_NV)
				l = GP_LINK_PIX;
			if (l < best || (l == best && used[j] < used[pick])) {
				best = l;
				pick = j;
			}
		}
		d->gpu_nic[g] = pick;
		d->gpu_nic_level[g] = pick >= 0 ? (uint8_t)gp_topo_link(t, g, t->ngpus + pick).level
						: GP_LINK_X;
		if (pick >= 0)
			used[pick]++;
	}
	/* Classes: identical sets of NUMA-local NICs. */
	d->nclasses = 0;
	for (g = 0; g < t->ngpus; g++) {
		uint64_t set[GP_TOPO_MAX_DEVICES / 64] = { 0 };
		int any = 0;

		for (j = 0; j < t->nnics; j++)
			if (gp_topo_link(t, g, t->ngpus + j).level <= GP_LINK_NODE) {
				set[j / 64] |= (uint64_t)1 << (j % 64);
				any = 1;
			}
		d->gpu_class[g] = -1;
		if (!any)
			continue;
		for (c = 0; c < d->nclasses; c++)
			if (!memcmp(d->class_nics[c], set, sizeof(set)))
				break;
		if (c == d->nclasses) {
			memcpy(d->class_nics[c], set, sizeof(set));
			d->class_gpus[c] = 0;
			d->class_numa[c] = t->gpus[g].numa;
			d->nclasses++;
		}
		if (d->class_numa[c] != t->gpus[g].numa)
			d->class_numa[c] = -1;
		d->gpu_class[g] = c;
		d->class_gpus[c] |= (gp_gpuset)1 << g;
	}
	one_resource(t, d);
}

/* ---- rings ---- */

typedef struct ring_search {
	gp_gpuset adj[GP_TOPO_MAX_GPUS];
	int path[GP_TOPO_MAX_GPUS];
	int n, start;
	long steps;
} ring_search;

#define RING_STEP_LIMIT 2000000L

/* Depth-first search for a Hamiltonian cycle; 1 found, 0 none, -1 gave
 * up (step limit). */
static int ring_dfs(ring_search *rs, int depth, gp_gpuset left)
{
	int cur = rs->path[depth - 1];
	gp_gpuset cand;

	if (!left)
		return (rs->adj[cur] >> rs->start) & 1;
	if (++rs->steps > RING_STEP_LIMIT)
		return -1;
	/* The start must still be reachable from what is left to close the
	 * loop, and no unvisited GPU may be cut off. */
	if (!(rs->adj[rs->start] & left))
		return 0;
	cand = rs->adj[cur] & left;
	while (cand) {
		int v = lowest(cand), r, ok = 1;
		gp_gpuset rest = left & ~((gp_gpuset)1 << v), m = rest;
		gp_gpuset open = rest | ((gp_gpuset)1 << v) | ((gp_gpuset)1 << rs->start);

		cand &= cand - 1;
		/* A GPU still to visit needs two neighbours among the GPUs still
		 * to visit, the new path end and the start. */
		while (m && ok) {
			int u = lowest(m);

			m &= m - 1;
			ok = popcount64(rs->adj[u] & open) >= 2;
		}
		if (!ok)
			continue;
		rs->path[depth] = v;
		r = ring_dfs(rs, depth + 1, rest);
		if (r)
			return r;
	}
	return 0;
}

/* Hamiltonian cycle on set using edges of expense <= th. */
static int ring_at(const gp_topo_derived *d, gp_gpuset set, int th, int *order)
{
	ring_search rs;
	gp_gpuset m = set;
	int n = popcount64(set), r;

	rs.n = n;
	rs.steps = 0;
	while (m) {
		int a = lowest(m);
		gp_gpuset o = set & ~((gp_gpuset)1 << a), adj = 0;

		m &= m - 1;
		while (o) {
			int b = lowest(o);

			o &= o - 1;
			if (d->expense[a][b] <= th)
				adj |= (gp_gpuset)1 << b;
		}
		if (popcount64(adj) < 2)
			return 0;
		rs.adj[a] = adj;
	}
	rs.start = lowest(set);
	rs.path[0] = rs.start;
	r = ring_dfs(&rs, 1, set & ~((gp_gpuset)1 << rs.start));
	if (r == 1 && order)
		memcpy(order, rs.path, (size_t)n * sizeof(int));
	return r;
}

static gp_link worst_on_ring(const gp_topo_derived *d, const int *order, int n)
{
	gp_link w = { GP_LINK_X, 0 };
	int i;

	for (i = 0; i < n; i++) {
		int a = order[i], b = order[(i + 1) % n];

		if (a != b && d->expense[a][b] > gp_link_expense(w))
			w = d->link[a][b];
	}
	return w;
}

static int cmp_u16(const void *a, const void *b)
{
	return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

/* Search without the table. */
static int ring_compute(const gp_topo_derived *d, gp_gpuset set, int *order,
			gp_link *bottleneck)
{
	uint16_t vals[GP_TOPO_MAX_GPUS * GP_TOPO_MAX_GPUS / 2];
	int nv = 0, n = popcount64(set), lo, hi, i, u;
	int tmp[GP_TOPO_MAX_GPUS], best[GP_TOPO_MAX_GPUS];
	gp_gpuset m = set;

	if (n == 0)
		return 0;
	if (n <= 2) {
		int a = lowest(set), b = n == 2 ? lowest(set & (set - 1)) : a;

		if (order) {
			order[0] = a;
			if (n == 2)
				order[1] = b;
		}
		if (bottleneck)
			*bottleneck = d->link[a][b];
		return n;
	}
	while (m) {
		int a = lowest(m);
		gp_gpuset o;

		m &= m - 1;
		for (o = m; o; o &= o - 1)
			vals[nv++] = d->expense[a][lowest(o)];
	}
	qsort(vals, (size_t)nv, sizeof(vals[0]), cmp_u16);
	for (i = 1, u = 1; i < nv; i++)
		if (vals[i] != vals[u - 1])
			vals[u++] = vals[i];
	/* Smallest threshold with a cycle; the largest always has one (the
	 * GPU graph is complete).  A search that gives up counts as none. */
	lo = 0;
	hi = u - 1;
	{
		gp_gpuset mm = set;
		int k = 0;

		/* Fallback order for the complete graph: ascending. */
		while (mm) {
			best[k++] = lowest(mm);
			mm &= mm - 1;
		}
	}
	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (ring_at(d, set, vals[mid], tmp) == 1) {
			memcpy(best, tmp, (size_t)n * sizeof(int));
			hi = mid;
		} else {
			lo = mid + 1;
		}
	}
	if (order)
		memcpy(order, best, (size_t)n * sizeof(int));
	if (bottleneck)
		*bottleneck = worst_on_ring(d, best, n);
	return n;
}

int gp_ring_best(const gp_topo_derived *d, gp_gpuset set, int *order,
		 gp_link *bottleneck)
{
	int n = popcount64(set), i;

	if (d->ring_order && set < ((gp_gpuset)1 << d->ngpus)) {
		uint64_t packed = d->ring_order[set];

		if (order)
			for (i = 0; i < n; i++)
				order[i] = (int)((packed >> (4 * i)) & 15);
		if (bottleneck)
			*bottleneck = d->ring_bottleneck[set];
		return n;
	}
	return ring_compute(d, set, order, bottleneck);
}

int gp_ring_nvlink(const gp_topo_derived *d, gp_gpuset set)
{
	gp_link b;
	int n = gp_ring_best(d, set, NULL, &b);

	if (n == 0)
		return 0;
	return n == 1 || b.level == GP_LINK_NV;
}

long gp_set_expense(const gp_topo_derived *d, gp_gpuset set)
{
	long sum = 0;
	gp_gpuset m = set, o;

	while (m) {
		int a = lowest(m);

		m &= m - 1;
		for (o = m; o; o &= o - 1)
			sum += d->expense[a][lowest(o)];
	}
	return sum;
}

gp_link gp_set_worst_link(const gp_topo_derived *d, gp_gpuset set)
{
	gp_link w = { GP_LINK_X, 0 };
	gp_gpuset m = set, o;

	while (m) {
		int a = lowest(m);

		m &= m - 1;
		for (o = m; o; o &= o - 1) {
			int b = lowest(o);

			if (d->expense[a][b] > gp_link_expense(w))
				w = d->link[a][b];
		}
	}
	return w;
}

/* ---- driver ---- */

int gp_topo_derive(const gp_topo *t, gp_topo_derived *d, gp_error *err)
{
	int a, b, n = t->ngpus;

	memset(d, 0, sizeof(*d));
	if (n < 1 || n > GP_TOPO_MAX_GPUS)
		return gp_error_set(err, GP_EINPUT, t->source, 0, 0,
				    "%d GPUs: a node type needs 1 to %d", n,
				    GP_TOPO_MAX_GPUS);
	d->ngpus = n;
	d->nnics = t->nnics;
	for (a = 0; a < n; a++)
		for (b = 0; b < n; b++) {
			gp_link l = gp_topo_link(t, a, b);

			d->link[a][b] = l;
			d->expense[a][b] = (uint16_t)gp_link_expense(l);
			if (l.level == GP_LINK_NV)
				d->nv_mask[a] |= (gp_gpuset)1 << b;
		}
	resolve_pcie(t, d);
	d->nsockets = group(d, t, GP_LINK_NODE, d->socket, d->socket_set);
	d->nbridges = group(d, NULL, GP_LINK_PHB, d->bridge, d->bridge_set);
	d->ncomplexes = group(d, NULL, GP_LINK_PXB, d->complex_, d->complex_set);
	d->nswitches = group(d, NULL, GP_LINK_PIX, d->pswitch, d->switch_set);
	for (a = 0; a < d->nsockets; a++)
		d->socket_numa[a] = -2;
	for (a = 0; a < n; a++) {
		int *sn = &d->socket_numa[d->socket[a]];

		if (*sn == -2)
			*sn = t->gpus[a].numa;
		else if (*sn != t->gpus[a].numa)
			*sn = -1;
	}
	derive_nics(t, d);
	if (n <= GP_RING_TABLE_MAX_GPUS) {
		size_t nsub = (size_t)1 << n, s;
		int order[GP_TOPO_MAX_GPUS], k, cnt;

		d->ring_order = gp_xcalloc(nsub, sizeof(*d->ring_order));
		d->ring_bottleneck = gp_xcalloc(nsub, sizeof(*d->ring_bottleneck));
		for (s = 1; s < nsub; s++) {
			uint64_t packed = 0;

			cnt = ring_compute(d, (gp_gpuset)s, order, &d->ring_bottleneck[s]);
			for (k = 0; k < cnt; k++)
				packed |= (uint64_t)order[k] << (4 * k);
			d->ring_order[s] = packed;
		}
	}
	return GP_OK;
}

void gp_topo_derived_release(gp_topo_derived *d)
{
	if (!d)
		return;
	free(d->ring_order);
	free(d->ring_bottleneck);
	d->ring_order = NULL;
	d->ring_bottleneck = NULL;
}

gp_topo_derived *gp_topo_derived_new(const gp_topo *t, gp_error *err)
{
	gp_topo_derived *d = gp_xmalloc(sizeof(*d));

	if (gp_topo_derive(t, d, err)) {
		free(d);
		return NULL;
	}
	return d;
}

void gp_topo_derived_free(gp_topo_derived *d)
{
	gp_topo_derived_release(d);
	free(d);
}
