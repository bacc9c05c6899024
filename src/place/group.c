/* GPU groups inside one node: the best k GPUs of a node by a ranking
 * (gp_place_best_group, gp_place_best_join).  Node types with a per-subset
 * table (up to GP_PLACE_TABLE_MAX_GPUS GPUs) scan every k-subset; larger
 * types search the same subsets by branch and bound (bounds below), which
 * returns the very set the scan returns: the ranking is a strict total
 * order (the mask breaks the last tie) and a branch is cut only when
 * every set in it ranks strictly after one already seen. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/perf/perf.h"
#include "place_int.h"

#define GROUP_ENUM_MAX 20000 /* subsets tried exhaustively per node */

/* Whether group a (mask ma, perf ring bwa) ranks before group b by kind;
 * bwa and bwb are read for GP_GROUP_BW only. */
static int group_better(int kind, gp_place_mask_info a, uint64_t ma, double bwa,
			gp_place_mask_info b, uint64_t mb, double bwb)
{
	switch (kind) {
	case GP_GROUP_BW:
		if (bwa != bwb)
			return bwa > bwb;
		break;
	case GP_GROUP_RING:
		if (a.ring != b.ring)
			return a.ring < b.ring;
		break;
	case GP_GROUP_PAIR:
		if (a.pair_score != b.pair_score)
			return a.pair_score > b.pair_score;
		break;
	default:
		break;
	}
	if (a.sum != b.sum)
		return a.sum < b.sum;
	if (a.max != b.max)
		return a.max < b.max;
	return ma < mb;
}

static uint64_t binom_capped(int n, int k)
{
	uint64_t r = 1;
	int i;

	if (k < 0 || k > n)
		return 0;
	if (k > n - k)
		k = n - k;
	for (i = 1; i <= k; i++) {
		r = r * (uint64_t)(n - k + i) / (uint64_t)i;
		if (r > GROUP_ENUM_MAX)
			return GROUP_ENUM_MAX + 1;
	}
	return r;
}

static uint64_t greedy_group(const gp_place_type *t, uint64_t base, uint64_t avail, int k,
			     int kind)
{
	uint64_t set = base;
	int got;

	for (got = 0; got < k; got++) {
		uint64_t best = 0, rest = avail & ~set;
		gp_place_mask_info bi;
		double bb = 0;

		memset(&bi, 0, sizeof(bi));
		while (rest) {
			uint64_t bit = rest & -rest;
			gp_place_mask_info mi = gp_place_mask(t, set | bit);
			double bw = kind == GP_GROUP_BW ? gp_place_ring_gbs(t, set | bit) : 0;

			rest &= ~bit;
			if (!best || group_better(kind, mi, set | bit, bw, bi, set | best, bb)) {
				best = bit;
				bi = mi;
				bb = bw;
			}
		}
		if (!best)
			return 0;
		set |= best;
	}
	return set & ~base;
}

static uint64_t best_group(const gp_place_type *t, uint64_t base, uint64_t avail, int k, int kind);

uint64_t gp_place_best_group(const gp_place_type *t, uint64_t avail, int k, int kind)
{
	uint64_t *slot = gp_place_memo(t, kind, avail, k);

	if (!slot)
		return best_group(t, 0, avail, k, kind);
	if (*slot == UINT64_MAX)
		*slot = best_group(t, 0, avail, k, kind);
	return *slot;
}

uint64_t gp_place_best_join(const gp_place_type *t, uint64_t base, uint64_t avail, int k, int kind)
{
	avail &= ~base;
	if (!base)
		return gp_place_best_group(t, avail, k, kind);
	return best_group(t, base, avail, k, kind);
}

uint64_t gp_place_group_scan(const gp_place_type *t, uint64_t base, uint64_t avail, int k, int kind)
{
	int idx[64], f = 0, g;
	uint64_t comb, best = 0, lim;
	gp_place_mask_info bi;
	double bb = 0;

	for (g = 0; g < t->ngpus && g < 64; g++)
		if (avail >> g & 1)
			idx[f++] = g;
	if (k <= 0 || k > f || f >= 63)
		return 0;
	memset(&bi, 0, sizeof(bi));
	lim = (uint64_t)1 << f;
	/* Gosper's hack over the f available GPUs. */
	for (comb = ((uint64_t)1 << k) - 1; comb < lim;) {
		uint64_t m = 0, c = comb, lo, hi;
		gp_place_mask_info mi;
		double bw;

		while (c) {
			m |= (uint64_t)1 << idx[__builtin_ctzll(c)];
			c &= c - 1;
		}
		mi = gp_place_mask(t, base | m);
		bw = kind == GP_GROUP_BW ? gp_place_ring_gbs(t, base | m) : 0;
		if (!best || group_better(kind, mi, m, bw, bi, best, bb)) {
			best = m;
			bi = mi;
			bb = bw;
		}
		lo = comb & -comb;
		hi = comb + lo;
		comb = (((hi ^ comb) >> 2) / lo) | hi;
	}
	return best;
}

/* ---- branch and bound (node types without a per-subset table) ----
 *
 * Sets are built in ascending GPU order: a branch is a partial set P
 * (base and the GPUs chosen so far) and the candidates C after its last
 * GPU, of which r more are to be taken.  Per branch, bounds that no set
 * of the branch can beat, in the ranking's own order (group_better):
 *   - summed expense >= sum(P) + the r smallest expenses of a candidate
 *     to P + r(r-1)/2 x the cheapest pair among C;
 *   - worst pair >= max(worst of P, the r-th smallest worst expense of a
 *     candidate to P, the cheapest pair among C when r >= 2) (without a
 *     table the ring kind ranks by the worst pair too);
 *   - pair score <= score(P) + the r largest scores of a candidate to P
 *     + r(r-1)/2 x the best pair among C;
 *   - mask >= the chosen GPUs and the r lowest candidates;
 *   - the perf model's ring (gp_perf_ring_gbs over a set S of n >= 2
 *     GPUs, with pair rates w): its bottleneck is at most the lowest rate
 *     of some closed loop through S (exact search or greedy, a loop
 *     either way), so at most the widest path's narrowest edge between
 *     any two GPUs of P within base | avail (a loop crosses every cut),
 *     and for each GPU of P its second-best rate to base | avail (a loop
 *     leaves it and enters it by two edges; its best with n = 2).  An
 *     all-NVLink ring may rise to its NVLink channel bound (at most each
 *     GPU of P's NVLinks to base | avail, capped, x the per-link rate),
 *     but only when the bottleneck is the rate of an NVLink pair: below
 *     the lowest such rate it cannot be (rates symmetric, so the
 *     bottleneck is always named by a pair of the set).  Sharing by
 *     staged hops only lowers it.
 * A branch is cut when its bounds rank strictly after the best set so
 * far; ties go on down to the sets themselves. */

typedef struct group_bb {
	const gp_place_type *t;
	int kind, k, f, nvrefine;
	uint64_t base;
	int idx[64];
	/* per depth d (GPUs chosen) and candidate position c: expense sum,
	 * worst expense and pair score from candidate c to P (row d * f) */
	int64_t *esum, *emax, *eps;
	/* per position p: the cheapest pair (expense) and best pair score
	 * among positions p.. (UINT16_MAX / INT32_MIN with fewer than two) */
	uint16_t minpair[65];
	int32_t maxps[65];
	/* ring bounds (kind GP_GROUP_BW), by GPU index: widest-path rate
	 * between two GPUs of base | avail, second-best (best when the set
	 * has two GPUs) rate of a GPU, NVLink channel bound of a GPU; the
	 * lowest rate of an NVLink pair */
	double *widest, deg[64], nvb[64], nvmin;
	/* the best set so far */
	int have;
	uint64_t best;
	gp_place_mask_info bi;
	double bb;
} group_bb;

/* Whether sets with lower bounds (mi: sum, worst pair, ring as worst
 * pair; score an upper bound; mask; ring GB/s an upper bound bw) all rank
 * strictly after the best so far (group_better's order). */
static int bb_worse(const group_bb *s, gp_place_mask_info lb, uint64_t mask, double bw)
{
	switch (s->kind) {
	case GP_GROUP_BW:
		if (bw != s->bb)
			return bw < s->bb;
		break;
	case GP_GROUP_RING:
		if (lb.ring != s->bi.ring)
			return lb.ring > s->bi.ring;
		break;
	case GP_GROUP_PAIR:
		if (lb.pair_score != s->bi.pair_score)
			return lb.pair_score < s->bi.pair_score;
		break;
	default:
		break;
	}
	if (lb.sum != s->bi.sum)
		return lb.sum > s->bi.sum;
	if (lb.max != s->bi.max)
		return lb.max > s->bi.max;
	return mask > s->best;
}

/* The r smallest (sign 1) or largest (sign -1) of v[0..n-1] summed; *rth
 * (when not NULL) the r-th smallest.  r <= n. */
static int64_t sum_extreme(const int64_t *v, int n, int r, int sign, int64_t *rth)
{
	int64_t top[64] = { 0 }, tot = 0;
	int i, j, got = 0;

	for (i = 0; i < n; i++) {
		int64_t x = sign * v[i];

		if (got == r && x >= top[r - 1])
			continue;
		for (j = got < r ? got++ : r - 1; j > 0 && top[j - 1] > x; j--)
			top[j] = top[j - 1];
		top[j] = x;
	}
	for (i = 0; i < r; i++)
		tot += top[i];
	if (rth)
		*rth = r > 0 ? top[r - 1] : 0;
	return sign * tot;
}

/* Upper bound on the ring GB/s of every set of n GPUs holding P, from
 * the bounds of P (cut: narrowest widest path, deg: lowest second-best
 * rate, nv: lowest NVLink channel bound; HUGE_VAL when P has too few). */
static double bb_ring_bound(const group_bb *s, int n, double cut, double deg, double nv)
{
	double b = fmin(cut, deg);

	if (n < 2)
		return 0; /* no ring: 0 GB/s for every set */
	if (!s->widest)
		return HUGE_VAL;
	if (s->nvrefine && b < s->nvmin)
		return b; /* the bottleneck cannot be an NVLink pair */
	return fmax(b, nv);
}

static void bb_search(group_bb *s, int d, int from, uint64_t m, gp_place_mask_info mi, int p0,
		      double cut, double deg, double nv)
{
	const gp_place_type *t = s->t;
	int r = s->k - d, n = s->f, i, j, cand = n - from;
	const int64_t *esum = s->esum + (size_t)d * (size_t)n;
	const int64_t *emax = s->emax + (size_t)d * (size_t)n;
	const int64_t *eps = s->eps + (size_t)d * (size_t)n;
	gp_place_mask_info lb = mi;
	uint64_t lm = m;
	double bw;

	if (r == 0) {
		if (s->have && bb_worse(s, mi, m, s->kind == GP_GROUP_BW ?
					bb_ring_bound(s, gp_popcount64(s->base | m), cut, deg, nv) : 0))
			return;
		bw = s->kind == GP_GROUP_BW ? gp_place_ring_gbs(t, s->base | m) : 0;
		if (!s->have || group_better(s->kind, mi, m, bw, s->bi, s->best, s->bb)) {
			s->have = 1;
			s->best = m;
			s->bi = mi;
			s->bb = bw;
		}
		return;
	}
	if (s->have) {
		int64_t rth = 0, pairs = (int64_t)r * (r - 1) / 2;

		lb.sum = (uint32_t)(mi.sum + sum_extreme(esum + from, cand, r, 1, NULL) +
				    (r >= 2 ? pairs * s->minpair[from] : 0));
		sum_extreme(emax + from, cand, r, 1, &rth);
		if (rth > lb.max)
			lb.max = (uint16_t)rth;
		if (r >= 2 && s->minpair[from] > lb.max)
			lb.max = s->minpair[from];
		lb.ring = lb.max;
		if (s->kind == GP_GROUP_PAIR) {
			lb.pair_score = (int32_t)(mi.pair_score + sum_extreme(eps + from, cand, r, -1, NULL) +
						  (r >= 2 ? pairs * s->maxps[from] : 0));
		}
		for (i = 0; i < r; i++)
			lm |= (uint64_t)1 << s->idx[from + i];
		if (bb_worse(s, lb, lm, s->kind == GP_GROUP_BW ?
			     bb_ring_bound(s, gp_popcount64(s->base) + s->k, cut, deg, nv) : 0))
			return;
	}
	for (i = from; i <= n - r; i++) {
		int g = s->idx[i];
		gp_place_mask_info nm = mi;
		int64_t *nsum = s->esum + (size_t)(d + 1) * (size_t)n;
		int64_t *nmax = s->emax + (size_t)(d + 1) * (size_t)n;
		int64_t *nps = s->eps + (size_t)(d + 1) * (size_t)n;
		double ncut = cut;

		nm.sum += (uint32_t)esum[i];
		if (emax[i] > nm.max)
			nm.max = (uint16_t)emax[i];
		nm.ring = nm.max;
		nm.pair_score += (int32_t)eps[i];
		for (j = i + 1; j < n; j++) {
			int h = s->idx[j];

			/* pairs as gp_place_mask adds them: lower GPU first */
			nsum[j] = esum[j] + t->expense[g][h];
			nmax[j] = emax[j] > t->expense[g][h] ? emax[j] : t->expense[g][h];
			nps[j] = eps[j] + gp_place_pair_score(t, g, h);
		}
		if (s->widest && p0 >= 0)
			ncut = fmin(cut, s->widest[p0 * 64 + g]);
		bb_search(s, d + 1, i + 1, m | (uint64_t)1 << g, nm, p0 >= 0 ? p0 : g, ncut,
			  s->widest ? fmin(deg, s->deg[g]) : deg, s->widest ? fmin(nv, s->nvb[g]) : nv);
	}
}

/* The pair rates of the ring bound over the GPUs of all (base | avail),
 * into s (widest left NULL when the type has no link matrix). */
static void bb_ring_setup(group_bb *s, uint64_t all, int n)
{
	const gp_place_type *t = s->t;
	const gp_topo *topo = t->topo;
	double sock, nvl, *w;
	int gs[64], ng = 0, a, b, c, cap;

	if (!topo || !topo->links)
		return;
	for (a = 0; a < t->ngpus && a < 64; a++)
		if (all >> a & 1)
			gs[ng++] = a;
	sock = gp_perf_socket_gbs(topo);
	nvl = gp_perf_nvlink_gbs(t->model);
	cap = t->model && t->model->nvlink_links > 0 ? t->model->nvlink_links : INT32_MAX;
	w = gp_xmalloc(64 * 64 * sizeof(*w));
	s->widest = gp_xmalloc(64 * 64 * sizeof(*s->widest));
	s->nvrefine = 1;
	s->nvmin = HUGE_VAL;
	for (a = 0; a < ng; a++)
		for (b = 0; b < ng; b++) {
			int x = gs[a], y = gs[b];
			gp_link l = gp_topo_link(topo, x, y);

			w[x * 64 + y] = x == y ? 0 : gp_perf_pair_gbs_socket(t->model, l,
						     gp_perf_p2p_ok(topo, t->model, x, y), sock);
			if (x != y && l.level == GP_LINK_NV && w[x * 64 + y] < s->nvmin)
				s->nvmin = w[x * 64 + y];
		}
	for (a = 0; a < ng; a++) {
		int x = gs[a], links = 0;
		double b1 = 0, b2 = 0;

		for (b = 0; b < ng; b++) {
			int y = gs[b];
			double v = fmax(w[x * 64 + y], w[y * 64 + x]);
			gp_link l = gp_topo_link(topo, x, y);

			if (w[x * 64 + y] != w[y * 64 + x])
				s->nvrefine = 0;
			if (x != y && l.level == GP_LINK_NV)
				links += l.nvlinks ? l.nvlinks : 1;
			s->widest[x * 64 + y] = x == y ? HUGE_VAL : v;
			if (x == y)
				continue;
			if (v > b1)
				b2 = b1, b1 = v;
			else if (v > b2)
				b2 = v;
		}
		s->deg[x] = n >= 3 ? b2 : b1;
		s->nvb[x] = (links < cap ? links : cap) * nvl;
	}
	/* widest paths (Floyd-Warshall on max-min) */
	for (c = 0; c < ng; c++)
		for (a = 0; a < ng; a++)
			for (b = 0; b < ng; b++) {
				int x = gs[a], y = gs[b], z = gs[c];
				double v = fmin(s->widest[x * 64 + z], s->widest[z * 64 + y]);

				if (v > s->widest[x * 64 + y])
					s->widest[x * 64 + y] = v;
			}
	free(w);
}

static uint64_t group_search(const gp_place_type *t, uint64_t base, const int *idx, int f, int k,
			     int kind)
{
	group_bb s;
	gp_place_mask_info mi;
	uint64_t b;
	int i, j, p0 = -1, nb = gp_popcount64(base);
	double cut = HUGE_VAL, deg = HUGE_VAL, nv = HUGE_VAL;
	size_t rows = (size_t)(k + 1) * (size_t)f;

	memset(&s, 0, sizeof(s));
	s.t = t;
	s.kind = kind;
	s.k = k;
	s.f = f;
	s.base = base;
	memcpy(s.idx, idx, (size_t)f * sizeof(*idx));
	s.esum = gp_xmalloc(rows * sizeof(*s.esum));
	s.emax = gp_xmalloc(rows * sizeof(*s.emax));
	s.eps = gp_xmalloc(rows * sizeof(*s.eps));
	for (i = 0; i < f; i++) {
		s.esum[i] = 0;
		s.emax[i] = 0;
		s.eps[i] = 0;
		for (b = base; b; b &= b - 1) {
			int g = __builtin_ctzll(b), lo = g < idx[i] ? g : idx[i], hi = g ^ idx[i] ^ lo;

			s.esum[i] += t->expense[lo][hi];
			if (t->expense[lo][hi] > s.emax[i])
				s.emax[i] = t->expense[lo][hi];
			s.eps[i] += gp_place_pair_score(t, lo, hi);
		}
	}
	s.minpair[f] = s.minpair[f - 1] = UINT16_MAX;
	s.maxps[f] = s.maxps[f - 1] = INT32_MIN;
	for (i = f - 2; i >= 0; i--) {
		s.minpair[i] = s.minpair[i + 1];
		s.maxps[i] = s.maxps[i + 1];
		for (j = i + 1; j < f; j++) {
			if (t->expense[idx[i]][idx[j]] < s.minpair[i])
				s.minpair[i] = t->expense[idx[i]][idx[j]];
			if (gp_place_pair_score(t, idx[i], idx[j]) > s.maxps[i])
				s.maxps[i] = gp_place_pair_score(t, idx[i], idx[j]);
		}
	}
	mi = gp_place_mask(t, base);
	if (kind == GP_GROUP_BW) {
		uint64_t all = base;

		for (i = 0; i < f; i++)
			all |= (uint64_t)1 << idx[i];
		bb_ring_setup(&s, all, nb + k);
		for (b = base; b && s.widest; b &= b - 1) {
			int g = __builtin_ctzll(b);

			if (p0 >= 0)
				cut = fmin(cut, s.widest[p0 * 64 + g]);
			else
				p0 = g;
			deg = fmin(deg, s.deg[g]);
			nv = fmin(nv, s.nvb[g]);
		}
	}
	bb_search(&s, 0, 0, 0, mi, p0, cut, deg, nv);
	free(s.esum);
	free(s.emax);
	free(s.eps);
	free(s.widest);
	return s.best;
}

/* The best k GPUs of avail ranked as the set base | them (base and avail
 * disjoint); the group without base. */
static uint64_t best_group(const gp_place_type *t, uint64_t base, uint64_t avail, int k, int kind)
{
	int idx[64], f = 0, g;

	if (k <= 0)
		return 0;
	for (g = 0; g < t->ngpus; g++)
		if (avail >> g & 1)
			idx[f++] = g;
	if (k > f)
		return 0;
	if (k == f)
		return avail;
	if (f >= 63 || binom_capped(f, k) > GROUP_ENUM_MAX)
		return greedy_group(t, base, avail, k, kind);
	if (!t->masks)
		return group_search(t, base, idx, f, k, kind);
	return gp_place_group_scan(t, base, avail, k, kind);
}
