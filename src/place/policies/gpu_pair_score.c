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
#include <string.h>

#include "gpuplan/place/policy.h"
#include "../place_int.h"

#define PARTITION_CAP 200000 /* partitions tried per node (8 GPUs: 280 at most) */

typedef struct pstate {
	const gp_place_type *t;
	int k, pad;
	uint64_t sets[GP_TOPO_MAX_GPUS + 1];
	int npad[GP_TOPO_MAX_GPUS + 1];
	int nsets;
	long visited;
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

	if (s->visited >= PARTITION_CAP)
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
			if (s->visited >= PARTITION_CAP)
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

/* go-gpuallocator's choice of k GPUs among avail; *score gets its set score. */
static uint64_t pair_score_search(const gp_place_type *t, uint64_t avail, int k);

static uint64_t pair_score_choose(const gp_place_type *t, uint64_t avail, int k, int32_t *score)
{
	uint64_t *slot = gp_place_memo(t, GP_PLACE_MEMO_PARTITION, avail, k), m;

	if (k == 1) {
		*score = 0;
		return avail & -avail;
	}
	if (!slot)
		m = pair_score_search(t, avail, k);
	else if ((m = *slot) == UINT64_MAX)
		m = *slot = pair_score_search(t, avail, k);
	*score = m ? gp_place_mask(t, m).pair_score : 0;
	return m;
}

static uint64_t pair_score_search(const gp_place_type *t, uint64_t avail, int k)
{
	int devs[2 * GP_TOPO_MAX_GPUS + 2], n = 0;
	pstate s;

	for (; avail; avail &= avail - 1)
		devs[n++] = __builtin_ctzll(avail);
	memset(&s, 0, sizeof(s));
	s.t = t;
	s.k = k;
	while (n % k) {
		devs[n++] = -1;
		s.pad++;
	}
	partitions(&s, devs, n);
	return s.have ? s.best_set : 0;
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
