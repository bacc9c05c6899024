/* gpu-pair-score: NVIDIA go-gpuallocator's best-effort policy (what the
 * Kubernetes device plugin uses), with NVSwitch counted correctly.
 *
 * Pair score: the PCIe relation of the two GPUs (cross-CPU 10, same CPU
 * 20, host bridge 30, several switches 40, one switch 50) plus 100 per
 * NVLink between them.  Set score: sum over its pairs.  Inside a node it
 * does not take the best set greedily: it splits all fitting GPUs (padded
 * with empty slots to a multiple of the request) into sets of the request
 * size in every possible way, keeping only splits where a set has either
 * no or all the padding, takes the split with the highest total score
 * (first found on ties) and returns that split's best unpadded set (first
 * on ties).  One GPU: the first fitting one.
 *
 * The difference: go-gpuallocator counts only NVLink lanes whose remote
 * end is a GPU, so on NVSwitch boxes (HGX A100/H100: every lane ends at a
 * switch) every pair scores 0 NVLink points and the choice falls back to
 * PCIe/NUMA.  gpuplan reads the NV# cells of `nvidia-smi topo -m`, which
 * report NVSwitch paths as NV12/NV18, so those pairs get their 1200/1800
 * points (as HAMi's fix does).  gpuplan also never returns a padded set
 * (go-gpuallocator PR #80) and, since the PCIe level hides behind NV#
 * cells, uses the inferred PCIe level of gp_place_type.pci.
 *
 * go-gpuallocator does not choose nodes; here the node is the one whose
 * chosen set scores highest (ties: fewer fitting GPUs, then cluster
 * order).  Jobs that fit no single node fill nodes in cluster order. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/place/policy.h"
#include "../place_int.h"

/* ---- every split, in order (what the search below must match) ---- */

typedef struct pstate {
	const gp_place_type *t;
	int k, pad;
	uint64_t sets[GP_TOPO_MAX_GPUS + 1];
	int npad[GP_TOPO_MAX_GPUS + 1];
	int nsets;
	long visited, cap;
	int have;
	int64_t best_total;
	uint64_t best_set;
} pstate;

static void partition_done(pstate *s)
{
	int64_t total = 0;
	int i, bi = -1;
	int32_t bs = 0;

	for (i = 0; i < s->nsets; i++)
		total += gp_place_mask(s->t, s->sets[i]).pair_score;
	if (s->have && total <= s->best_total)
		return;
	for (i = 0; i < s->nsets; i++) {
		int32_t sc = gp_place_mask(s->t, s->sets[i]).pair_score;

		if (s->npad[i])
			continue;
		if (bi < 0 || sc > bs) {
			bi = i;
			bs = sc;
		}
	}
	if (bi < 0)
		return;
	s->have = 1;
	s->best_total = total;
	s->best_set = s->sets[bi];
}

/* devs: remaining devices (-1 = padding), n of them. */
static void partitions(pstate *s, const int *devs, int n)
{
	int idx[GP_TOPO_MAX_GPUS + 1], rest[2 * GP_TOPO_MAX_GPUS + 2], level, i, j, m = s->k - 1;

	if (s->cap >= 0 && s->visited >= s->cap)
		return;
	if (n == s->k) {
		uint64_t set = 0;
		int pads = 0;

		for (i = 0; i < n; i++) {
			if (devs[i] < 0)
				pads++;
			else
				set |= (uint64_t)1 << devs[i];
		}
		s->sets[s->nsets] = set;
		s->npad[s->nsets++] = pads;
		s->visited++;
		partition_done(s);
		s->nsets--;
		return;
	}
	/* devs[0] plus every (k-1)-combination of devs[1..n-1], in order. */
	for (i = 0; i < m; i++)
		idx[i] = 1 + i;
	for (;;) {
		uint64_t set = devs[0] >= 0 ? (uint64_t)1 << devs[0] : 0;
		int pads = devs[0] < 0, nr = 0, used = 0;

		for (i = 0; i < m; i++) {
			if (devs[idx[i]] < 0)
				pads++;
			else
				set |= (uint64_t)1 << devs[idx[i]];
		}
		if (pads == 0 || pads == s->pad) {
			for (j = 1, used = 0; j < n; j++) {
				if (used < m && idx[used] == j) {
					used++;
					continue;
				}
				rest[nr++] = devs[j];
			}
			s->sets[s->nsets] = set;
			s->npad[s->nsets++] = pads;
			partitions(s, rest, nr);
			s->nsets--;
			if (s->cap >= 0 && s->visited >= s->cap)
				return;
		}
		for (level = m - 1; level >= 0 && idx[level] == n - m + level; level--)
			;
		if (level < 0)
			break;
		idx[level]++;
		for (i = level + 1; i < m; i++)
			idx[i] = idx[i - 1] + 1;
	}
}

uint64_t gp_place_pair_scan(const gp_place_type *t, uint64_t avail, int k, long cap)
{
	int devs[2 * GP_TOPO_MAX_GPUS + 2], n = 0;
	pstate s;

	if (k <= 0 || gp_popcount64(avail) < k)
		return 0;
	for (; avail; avail &= avail - 1)
		devs[n++] = __builtin_ctzll(avail);
	memset(&s, 0, sizeof(s));
	s.t = t;
	s.k = k;
	s.cap = cap;
	while (n % k) {
		devs[n++] = -1;
		s.pad++;
	}
	partitions(&s, devs, n);
	return s.have ? s.best_set : 0;
}

/* ---- the same partitions by branch and bound ----
 *
 * The enumeration above visits partitions in one order and keeps the
 * first with the highest total, so a search in that very order which
 * skips only branches whose every partition totals no more than the
 * best so far (or than a total some partition is known to reach) keeps
 * the same partition, and from it the same set.  Positions are the
 * fitting GPUs in ascending order, the padding after them.  A branch is
 * the finished sets (total T), the open set P with r places left, its
 * candidates C (free positions after the last taken) and the free
 * positions R outside P.  Skipped:
 *   - by bound.  With ps(v, j) the j best scores of v to the GPUs free
 *     when P was opened, in doubled units (every pair counted from both
 *     ends) the rest of a partition scores at most the sum over R of
 *     ps(v, k - 1); a candidate c joining P adds its pairs to P twice and
 *     at most its r - 1 best (or, all its k - 1 set mates counted once,
 *     its pairs to P once and ps(c, k - 1)), and takes its ps(c, k - 1)
 *     out of the rest: the r largest such gains for the r to join.
 *     While the padded set is to come, either P takes the padding (r -
 *     pad GPUs join it, none later pays for padding) or a later set does
 *     and its k - pad GPUs lose at least the k - pad smallest ps(v, k -
 *     1) - ps(v, k - 1 - pad).  Sets of three have a second bound
 *     (bb_cut3).  Scores are >= 0: fewer or other partners only lower a
 *     total.  The bound starts at a greedy split's total.
 *   - by twins: GPUs a < b with the same score to every other fitting
 *     GPU.  A split with b in P and a in a later set totals what the
 *     split with the two swapped totals, and that one comes first (P's
 *     positions are lower), so b joins P only after a.
 *   - by what a rest was found to be worth: the finished sets leave the
 *     same free positions in many orders; once the splits of one rest
 *     were searched, none of them totals more than the best total then
 *     less the finished sets' total (a direct-mapped table, made only
 *     for long searches). */

typedef struct pbb {
	int k, n, pads;              /* set size, fitting GPUs, padding slots left (0 once used) */
	int dev[GP_TOPO_MAX_GPUS];   /* GPU of each position */
	int twin[GP_TOPO_MAX_GPUS];  /* the last position before with the same scores, -1 */
	int32_t w[GP_TOPO_MAX_GPUS][GP_TOPO_MAX_GPUS]; /* pair score by positions */
	uint64_t used;               /* positions in finished sets or in P */
	int64_t total;               /* the finished sets' scores */
	int64_t thr;                 /* a partition counts only above this total */
	int have;
	uint64_t sets[GP_TOPO_MAX_GPUS + 1]; /* GPU masks of the finished sets */
	int32_t score[GP_TOPO_MAX_GPUS + 1];
	int padded[GP_TOPO_MAX_GPUS + 1];
	int nsets;
	uint64_t best;
	/* per set opened (level): ps[(level * n + v) * k + j], the sum over R
	 * of ps(v, k - 1), and the padded set's least loss */
	int32_t *ps;
	int64_t sumtop[GP_TOPO_MAX_GPUS + 1], loss[GP_TOPO_MAX_GPUS + 1];
	/* sets of three, per level: 2 x the best set holding v among the
	 * GPUs free when P was opened, and the padded set's most gain */
	int64_t *m3, padm3[GP_TOPO_MAX_GPUS + 1];
	/* per number of positions used: w(c, P) by candidate position */
	int32_t row[GP_TOPO_MAX_GPUS + 1][GP_TOPO_MAX_GPUS];
	/* the most the splits of a rest (free positions, padding) add, once
	 * searched; made after PBB_MEMO_AFTER sets opened */
	struct pbb_memo {
		uint64_t used;
		int pads;
		int64_t most;
	} *memo;
	long opened;
} pbb;

#define PBB_MEMO_BITS 14
#define PBB_MEMO_AFTER 256

static void bb_open(pbb *s, int level);

/* The partition is whole: keep it when it totals more than the best. */
static void bb_leaf(pbb *s)
{
	int i, bi = -1;

	if (s->total <= s->thr)
		return;
	for (i = 0; i < s->nsets; i++)
		if (!s->padded[i] && (bi < 0 || s->score[i] > s->score[bi]))
			bi = i;
	if (bi < 0)
		return;
	s->have = 1;
	s->thr = s->total;
	s->best = s->sets[bi];
}

/* P (GPU mask pm, score sc) is finished; go on with the next set. */
static void bb_close(pbb *s, int level, uint64_t pm, int32_t sc, int padded)
{
	s->sets[s->nsets] = pm;
	s->score[s->nsets] = sc;
	s->padded[s->nsets++] = padded;
	s->total += sc;
	bb_open(s, level + 1);
	s->total -= sc;
	s->nsets--;
}

/* The sum of the r largest of v[0..n-1] (r <= n). */
static int64_t top_sum(const int64_t *v, int n, int r)
{
	int64_t top[GP_TOPO_MAX_GPUS], tot = 0;
	int i, j, got = 0;

	if (r <= 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (got == r && v[i] <= top[r - 1])
			continue;
		for (j = got < r ? got++ : r - 1; j > 0 && top[j - 1] < v[i]; j--)
			top[j] = top[j - 1];
		top[j] = v[i];
	}
	for (i = 0; i < r; i++)
		tot += top[i];
	return tot;
}

/* What a candidate c with score wp to P can add to the bound by joining
 * P, to be met by j others joining with it, m set mates in all: its pairs
 * to P twice and its j best (which may be GPUs of P too), or its pairs
 * to P once and its m best; less its k - 1 best, counted in the rest. */
static int64_t gain(int32_t wp, const int32_t *p, int j, int m, int k)
{
	int64_t a = 2 * (int64_t)wp + p[j], b = (int64_t)wp + p[m];

	return (a < b ? a : b) - p[k - 1];
}

/* With sets of three, a set's score is at most a third of the best set
 * of each of its GPUs (M(v)): in units of six, the rest of a partition
 * scores at most the sum over R of 2 M(v) and the padded set (pad GPUs
 * short) 6 / (3 - pad) x its best, not 2 M(v), for each of its GPUs; a
 * candidate joining P adds its pairs to P and half its pairs to the
 * others joining, less its 2 M(v).  Whether that cuts the branch. */
static int bb_cut3(const pbb *s, int level, int from, int r, int32_t sc)
{
	const int32_t *ps = s->ps + (size_t)level * (size_t)s->n * 3;
	const int32_t *row = s->row[gp_popcount64(s->used)];
	const int64_t *m3 = s->m3 + (size_t)level * (size_t)s->n;
	int64_t g1[GP_TOPO_MAX_GPUS], g2[GP_TOPO_MAX_GPUS], ub = INT64_MIN, base = 6 * (s->total + sc);
	int c, nc = 0, r1 = s->pads && r >= s->pads ? r - s->pads : -1;

	for (c = 0; c < s->n; c++) {
		const int32_t *p = ps + (size_t)c * 3;
		int64_t a, b;

		if (s->used >> c & 1)
			continue;
		base += m3[c];
		if (c < from)
			continue;
		a = p[r - 1];
		b = p[2] - row[c];
		g2[nc] = 6 * (int64_t)row[c] + 3 * (a < b ? a : b) - m3[c];
		if (r1 > 0) {
			a = p[r1 - 1];
			b = p[2 - s->pads] - row[c];
			g1[nc] = 6 * (int64_t)row[c] + 3 * (a < b ? a : b) - m3[c];
		} else {
			g1[nc] = 0;
		}
		nc++;
	}
	if (nc >= r)
		ub = base + top_sum(g2, nc, r) + s->padm3[level];
	if (r1 >= 0 && nc >= r1) {
		int64_t b1 = base + top_sum(g1, nc, r1);

		if (b1 > ub)
			ub = b1;
	}
	return ub < 6 * s->thr + 6;
}

/* Whether no partition of the branch can total more than s->thr: P has
 * score sc and r places left, candidates from position from on; rest is
 * the sum over R of ps(v, k - 1). */
static int bb_cut(const pbb *s, int level, int from, int r, int32_t sc, int64_t rest)
{
	const int32_t *ps = s->ps + (size_t)level * (size_t)s->n * (size_t)s->k;
	const int32_t *row = s->row[gp_popcount64(s->used)];
	int64_t g1[GP_TOPO_MAX_GPUS], g2[GP_TOPO_MAX_GPUS], ub = INT64_MIN, base;
	int c, nc = 0, r1 = s->pads && r >= s->pads ? r - s->pads : -1, k = s->k;

	for (c = from; c < s->n; c++) {
		const int32_t *p = ps + (size_t)c * (size_t)k;

		if (s->used >> c & 1)
			continue;
		g2[nc] = gain(row[c], p, r - 1, k - 1, k);
		g1[nc++] = r1 > 0 ? gain(row[c], p, r1 - 1, k - 1 - s->pads, k) : 0;
	}
	base = 2 * (s->total + sc) + rest;
	if (nc >= r)
		ub = base + top_sum(g2, nc, r) - s->loss[level];
	if (r1 >= 0 && nc >= r1) {
		int64_t b1 = base + top_sum(g1, nc, r1);

		if (b1 > ub)
			ub = b1;
	}
	if (ub < 2 * s->thr + 2)
		return 1;
	return s->k == 3 && bb_cut3(s, level, from, r, sc);
}

/* P holds positions of pm (GPU mask gm, score sc), r places left, from
 * the first candidate. */
static void bb_extend(pbb *s, int level, int from, int r, int32_t sc, uint64_t gm, int64_t rest)
{
	const int32_t *ps = s->ps + (size_t)level * (size_t)s->n * (size_t)s->k;
	int u = gp_popcount64(s->used), j, c;

	if (r == 0) {
		bb_close(s, level, gm, sc, 0);
		return;
	}
	if (bb_cut(s, level, from, r, sc, rest))
		return;
	for (j = from; j < s->n; j++) {
		if ((s->used >> j & 1) || (s->twin[j] >= 0 && !(s->used >> s->twin[j] & 1)))
			continue;
		s->used |= (uint64_t)1 << j;
		for (c = j + 1; c < s->n; c++)
			s->row[u + 1][c] = s->row[u][c] + s->w[c][j];
		bb_extend(s, level, j + 1, r - 1, sc + s->row[u][j], gm | (uint64_t)1 << s->dev[j],
			  rest - ps[(size_t)j * (size_t)s->k + (size_t)s->k - 1]);
		s->used &= ~((uint64_t)1 << j);
	}
	if (s->pads && r == s->pads) {
		/* the padding, after every GPU */
		int pads = s->pads;

		s->pads = 0;
		bb_close(s, level, gm, sc, 1);
		s->pads = pads;
	}
}

/* Open a set with the first free position (or end a whole partition). */
static void bb_open(pbb *s, int level)
{
	int32_t *ps = s->ps + (size_t)level * (size_t)s->n * (size_t)s->k;
	int64_t lo[GP_TOPO_MAX_GPUS];
	int k = s->k, first = -1, v, u, nl = 0;
	struct pbb_memo *slot = NULL;
	uint64_t left = ~s->used & (s->n < 64 ? ((uint64_t)1 << s->n) - 1 : UINT64_MAX);

	if (!left) {
		bb_leaf(s);
		return;
	}
	if (level > 0 && ++s->opened >= PBB_MEMO_AFTER) {
		if (!s->memo) {
			s->memo = gp_xmalloc(sizeof(*s->memo) << PBB_MEMO_BITS);
			for (v = 0; v < 1 << PBB_MEMO_BITS; v++)
				s->memo[v].used = 0;
		}
		slot = &s->memo[(s->used * 0x9e3779b97f4a7c15ull ^ (uint64_t)s->pads) >> (64 - PBB_MEMO_BITS)];
		if (slot->used == s->used && slot->pads == s->pads) {
			if (s->total + slot->most <= s->thr)
				return;
		} else {
			slot = NULL;
		}
	}
	first = __builtin_ctzll(left);
	s->sumtop[level] = 0;
	for (v = 0; v < s->n; v++) {
		int32_t top[GP_TOPO_MAX_GPUS], got = 0, i, *p = ps + (size_t)v * (size_t)k;

		if (!(left >> v & 1))
			continue;
		for (u = 0; u < s->n; u++) {
			int32_t x = s->w[v][u];

			if (u == v || !(left >> u & 1) || (got == k - 1 && x <= top[k - 2]))
				continue;
			for (i = got < k - 1 ? got++ : k - 2; i > 0 && top[i - 1] < x; i--)
				top[i] = top[i - 1];
			top[i] = x;
		}
		p[0] = 0;
		for (i = 1; i < k; i++)
			p[i] = p[i - 1] + (i <= got ? top[i - 1] : 0);
		s->sumtop[level] += p[k - 1];
		if (s->pads)
			lo[nl++] = -(int64_t)(p[k - 1] - p[k - 1 - s->pads]);
	}
	s->loss[level] = s->pads ? -top_sum(lo, nl, k - s->pads) : 0;
	if (k == 3) {
		int64_t *m3 = s->m3 + (size_t)level * (size_t)s->n;

		nl = 0;
		for (v = 0; v < s->n; v++) {
			uint64_t as, bs;
			int32_t best = 0;

			if (!(left >> v & 1))
				continue;
			/* a set {v, a, b} scores at most w(v, a) + the best of v
			 * and of a: most pairs need no look */
			for (as = left & ~((uint64_t)1 << v); as; as &= as - 1) {
				int a = __builtin_ctzll(as);
				const int32_t *wa = s->w[a], *wv = s->w[v];

				if (wv[a] + ps[(size_t)v * 3 + 1] + ps[(size_t)a * 3 + 1] <= best)
					continue;
				for (bs = as & (as - 1) & ~((uint64_t)1 << v); bs; bs &= bs - 1) {
					int b = __builtin_ctzll(bs);

					if (wv[a] + wv[b] + wa[b] > best)
						best = wv[a] + wv[b] + wa[b];
				}
			}
			m3[v] = 2 * (int64_t)best;
			if (s->pads)
				lo[nl++] = (s->pads == 1 ? 3 * (int64_t)ps[(size_t)v * 3 + 1] : 0) - m3[v];
		}
		s->padm3[level] = s->pads ? top_sum(lo, nl, 3 - s->pads) : 0;
	}
	u = gp_popcount64(s->used);
	s->used |= (uint64_t)1 << first;
	for (v = first + 1; v < s->n; v++)
		s->row[u + 1][v] = s->w[v][first];
	bb_extend(s, level, first + 1, k - 1, 0, (uint64_t)1 << s->dev[first],
		  s->sumtop[level] - ps[(size_t)first * (size_t)k + (size_t)k - 1]);
	s->used &= ~((uint64_t)1 << first);
	if (s->memo && level > 0) {
		int64_t most = s->thr - s->total;

		/* the slot may hold another rest by now */
		slot = &s->memo[(s->used * 0x9e3779b97f4a7c15ull ^ (uint64_t)s->pads) >> (64 - PBB_MEMO_BITS)];
		if (slot->used != s->used || slot->pads != s->pads || most < slot->most) {
			slot->used = s->used;
			slot->pads = s->pads;
			slot->most = most;
		}
	}
}

/* A split's total, greedily: each set from the first free GPU, adding
 * the one with the most score to the set (the padded set last). */
static int64_t bb_greedy(const pbb *s)
{
	uint64_t used = 0;
	int64_t total = 0;
	int left = s->n;

	while (left > 0) {
		int set[GP_TOPO_MAX_GPUS], m = 0, i, c, take = left == s->k - s->pads ? left : s->k;

		set[m++] = __builtin_ctzll(~used);
		used |= (uint64_t)1 << set[0];
		while (m < take) {
			int bc = -1;
			int64_t bg = -1;

			for (c = 0; c < s->n; c++) {
				int64_t g = 0;

				if (used >> c & 1)
					continue;
				for (i = 0; i < m; i++)
					g += s->w[c][set[i]];
				if (g > bg) {
					bg = g;
					bc = c;
				}
			}
			if (bc < 0)
				break; /* none left: cannot be (take <= left) */
			total += bg;
			set[m++] = bc;
			used |= (uint64_t)1 << bc;
		}
		left -= take;
	}
	return total;
}

uint64_t gp_place_pair_search(const gp_place_type *t, uint64_t avail, int k)
{
	pbb *s;
	uint64_t best;
	int f = gp_popcount64(avail), i, j;

	if (k <= 0 || f < k)
		return 0;
	if (f == k)
		return avail;
	s = gp_xcalloc(1, sizeof(*s));
	s->k = k;
	s->n = f;
	s->pads = (k - f % k) % k;
	for (i = 0; avail; avail &= avail - 1)
		s->dev[i++] = __builtin_ctzll(avail);
	for (i = 0; i < f; i++)
		for (j = i + 1; j < f; j++)
			s->w[i][j] = s->w[j][i] = gp_place_mask(t, (uint64_t)1 << s->dev[i] |
								(uint64_t)1 << s->dev[j]).pair_score;
	for (i = 0; i < f; i++) {
		s->twin[i] = -1;
		for (j = i - 1; j >= 0 && s->twin[i] < 0; j--) {
			int x;

			for (x = 0; x < f && (x == i || x == j || s->w[i][x] == s->w[j][x]); x++)
				;
			if (x == f)
				s->twin[i] = j;
		}
	}
	if (k == 3)
		s->m3 = gp_xmalloc((size_t)(f / k + 2) * (size_t)f * sizeof(*s->m3));
	s->ps = gp_xmalloc((size_t)(f / k + 2) * (size_t)f * (size_t)k * sizeof(*s->ps));
	s->thr = bb_greedy(s) - 1;
	bb_open(s, 0);
	best = s->have ? s->best : 0;
	free(s->ps);
	free(s->memo);
	free(s->m3);
	free(s);
	return best;
}

static uint64_t pair_score_choose(const gp_place_type *t, uint64_t avail, int k, int32_t *score)
{
	uint64_t *slot = gp_place_memo(t, GP_PLACE_MEMO_PARTITION, avail, k), m;

	if (k == 1) {
		*score = 0;
		return avail & -avail;
	}
	if (!slot && t->pair_slot) {
		/* nodes of a type often have the same free GPUs (all, at first) */
		gp_place_pair_slot *ps = &t->pair_slot[((avail ^ (uint64_t)k << 57) * 0x9e3779b97f4a7c15ull) >>
							(64 - GP_PLACE_PAIR_BITS)];

		if (ps->k != k || ps->avail != avail) {
			ps->set = gp_place_pair_search(t, avail, k);
			ps->avail = avail;
			ps->k = k;
		}
		m = ps->set;
	} else if (!slot) {
		m = gp_place_pair_search(t, avail, k);
	} else if ((m = *slot) == UINT64_MAX) {
		m = *slot = gp_place_pair_search(t, avail, k);
	}
	*score = m ? gp_place_mask(t, m).pair_score : 0;
	return m;
}

/* The ranking below for gp_place_ix_one (ud: the job): the highest set
 * score, then the fewest fitting GPUs. */
static uint64_t pair_key(const gp_place_type *t, int node, uint64_t avail, int64_t remaining, void *ud,
			 double key[GP_PLACE_KEYS])
{
	const gp_job *job = ud;
	int32_t sc = 0;
	uint64_t m = pair_score_choose(t, avail, job->gpus, &sc);

	(void)node;
	(void)remaining;
	key[0] = -(double)sc;
	key[1] = gp_popcount64(avail);
	key[2] = key[3] = 0;
	return m;
}

int gp_policy_gpu_pair_score(const gp_policy_ctx *ctx, const gp_job *job, gp_placement *out)
{
	const gp_cluster *c = ctx->cluster;
	gp_place_cache *tmp, *pc;
	int node, k = job->gpus, best = -1, bestn = 0, r = GP_PLACED, got = 0;
	int32_t bests = 0;
	uint64_t bestm = 0;

	pc = gp_place_begin(ctx, job, out, &tmp);
	if (!pc)
		return GP_WAIT;
	best = gp_place_ix_one(ctx, pc, job, pair_key, (void *)job, &bestm);
	if (best >= 0) {
		gp_place_add_part(out, best, bestm, job);
		return gp_place_end(ctx, pc, tmp, job, out, r, -1);
	}
	if (best == -1 && !gp_place_may_span(job))
		return gp_place_end(ctx, pc, tmp, job, out, GP_WAIT, -1); /* no explanation wanted */
	best = -1;
	for (node = 0; node < c->nnodes; node++) {
		int n;
		uint64_t avail = gp_place_fit_mask(ctx, node, job, &n), m;
		int32_t sc;

		if (n < k || n > GP_TOPO_MAX_GPUS || !gp_place_host_fits(ctx, node, job, k))
			continue;
		m = pair_score_choose(gp_place_type_of(pc, node), avail, k, &sc);
		if (m && (best < 0 || sc > bests || (sc == bests && n < bestn))) {
			best = node;
			bests = sc;
			bestn = n;
			bestm = m;
		}
	}
	if (best >= 0) {
		gp_place_add_part(out, best, bestm, job);
		gp_explain_add(ctx->explain, "gpu-pair-score: %s, set score %d (best over all partitions "
			       "of its %d fitting GPUs)", c->nodes[best].name, (int)bests, bestn);
	} else if (!gp_place_may_span(job)) {
		r = gp_explain_wait(ctx->explain, "no node has %d free GPU(s) that fit", k);
	} else {
		int *fit = gp_place_scratch_nodes(pc, 0);

		for (node = 0; node < c->nnodes; node++) {
			int n;

			gp_place_fit_mask(ctx, node, job, &n);
			fit[node] = n <= GP_TOPO_MAX_GPUS ? gp_place_host_max(ctx, node, job, n) : 0;
		}
		if (gp_place_reach_limit(ctx, pc->sw_free, fit, k) != GP_PLACED)
			return gp_place_end(ctx, pc, tmp, job, out, GP_WAIT, -1);
		for (node = 0; node < c->nnodes && got < k && out->nparts < GP_PLACE_MAX_PARTS; node++) {
			int n, take;
			uint64_t avail = gp_place_fit_mask(ctx, node, job, &n);
			int32_t sc;

			if (!fit[node])
				continue;
			take = fit[node] < k - got ? fit[node] : k - got;
			gp_place_add_part(out, node, take == n ? avail :
					  pair_score_choose(gp_place_type_of(pc, node), avail, take, &sc), job);
			got += take;
		}
		if (got < k)
			r = gp_explain_wait(ctx->explain, "only %d of %d GPUs free", got, k);
		else
			gp_explain_add(ctx->explain, "gpu-pair-score: nodes in cluster order, %d node(s)", out->nparts);
	}
	return gp_place_end(ctx, pc, tmp, job, out, r, -1);
}
