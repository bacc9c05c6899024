/* Helpers shared by the placement policies: GPU groups inside a node,
 * spanning several nodes, CPU cores, NIC and VF choice, explanations. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/place/place.h"
#include "gpuplan/place/policy.h"
#include "place_int.h"


#define GROUP_ENUM_MAX 20000 /* subsets tried exhaustively per node */

int gp_place_cmp_u16(const void *a, const void *b)
{
	uint16_t x = *(const uint16_t *)a, y = *(const uint16_t *)b;

	return (x > y) - (x < y);
}

float gp_place_expense_bw(const gp_place_type *t, int e)
{
	int level = GP_EXPENSE_LEVEL(e);

	if (level == GP_LINK_X)
		return 0.0f;
	if (level == GP_LINK_NV)
		return (float)(100 - e) * t->nvlink_gbs;
	/* Through the CPU NCCL falls back to host memory at about PCIe
	 * speed; across sockets the SMP link limits it. */
	return level == GP_LINK_SYS ? t->sys_gbs : t->pci_gbs;
}

gp_place_mask_info gp_place_mask(const gp_place_type *t, uint64_t mask)
{
	gp_place_mask_info mi;
	int i, j;

	if (t->masks)
		return t->masks[mask];
	/* Large node types: no table.  The best closed loop is approximated
	 * by the worst pair (an upper bound on its worst edge). */
	memset(&mi, 0, sizeof(mi));
	for (i = 0; i < t->ngpus; i++) {
		if (!(mask >> i & 1))
			continue;
		for (j = i + 1; j < t->ngpus; j++) {
			if (!(mask >> j & 1))
				continue;
			mi.sum += t->expense[i][j];
			if (t->expense[i][j] > mi.max)
				mi.max = t->expense[i][j];
			mi.pair_score += gp_place_pair_score(t, i, j);
		}
	}
	mi.ring = mi.max;
	return mi;
}

/* Whether group a (mask ma) ranks before group b by kind. */
static int group_better(int kind, gp_place_mask_info a, uint64_t ma,
			gp_place_mask_info b, uint64_t mb)
{
	switch (kind) {
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

static uint64_t greedy_group(const gp_place_type *t, uint64_t avail, int k, int kind)
{
	uint64_t set = 0;
	int got;

	for (got = 0; got < k; got++) {
		uint64_t best = 0, rest = avail & ~set;
		gp_place_mask_info bi;

		memset(&bi, 0, sizeof(bi));
		while (rest) {
			uint64_t bit = rest & -rest;
			gp_place_mask_info mi = gp_place_mask(t, set | bit);

			rest &= ~bit;
			if (!best || group_better(kind, mi, set | bit, bi, set | best)) {
				best = bit;
				bi = mi;
			}
		}
		if (!best)
			return 0;
		set |= best;
	}
	return set;
}

static uint64_t best_group(const gp_place_type *t, uint64_t avail, int k, int kind);

uint64_t gp_place_best_group(const gp_place_type *t, uint64_t avail, int k, int kind)
{
	uint64_t *slot = gp_place_memo(t, kind, avail, k);

	if (!slot)
		return best_group(t, avail, k, kind);
	if (*slot == UINT64_MAX)
		*slot = best_group(t, avail, k, kind);
	return *slot;
}

static uint64_t best_group(const gp_place_type *t, uint64_t avail, int k, int kind)
{
	int idx[64], f = 0, g;
	uint64_t comb, best = 0, lim;
	gp_place_mask_info bi;

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
		return greedy_group(t, avail, k, kind);
	memset(&bi, 0, sizeof(bi));
	lim = (uint64_t)1 << f;
	/* Gosper's hack over the f available GPUs. */
	for (comb = ((uint64_t)1 << k) - 1; comb < lim;) {
		uint64_t m = 0, c = comb, lo, hi;
		gp_place_mask_info mi;

		while (c) {
			m |= (uint64_t)1 << idx[__builtin_ctzll(c)];
			c &= c - 1;
		}
		mi = gp_place_mask(t, m);
		if (!best || group_better(kind, mi, m, bi, best)) {
			best = m;
			bi = mi;
		}
		lo = comb & -comb;
		hi = comb + lo;
		comb = (((hi ^ comb) >> 2) / lo) | hi;
	}
	return best;
}

gp_place_cache *gp_place_begin(const gp_policy_ctx *ctx, const gp_job *job,
			       gp_placement *out, gp_place_cache **tmp)
{
	gp_placement_clear(out);
	*tmp = NULL;
	if (job->gpus <= 0) {
		gp_explain_wait(ctx->explain, "job asks for no GPUs");
		return NULL;
	}
	return gp_place_cache_get(ctx, tmp);
}

int gp_place_end(const gp_policy_ctx *ctx, gp_place_cache *pc, gp_place_cache *tmp,
		 const gp_job *job, gp_placement *out, int r, int nic_class)
{
	int i;

	/* Every part must reach the first (seed weight >= 0): a policy that
	 * crossed fabric trees is a bug, never a placement. */
	for (i = 1; r == GP_PLACED && ctx->cluster->nswitches > 0 && i < out->nparts; i++)
		if (out->parts[i].node != out->parts[0].node &&
		    gp_cluster_comm_weight(ctx->cluster, out->parts[0].node, out->parts[i].node) < 0)
			r = gp_explain_wait(ctx->explain, "the placement would span nodes that cannot reach each other");
	if (r == GP_PLACED) {
		if (job->type == GP_JOB_PS_WORKER && job->ps > 0 && job->ps < job->gpus)
			gp_place_split_ps(out, job->ps);
		gp_place_finish(ctx, pc, job, out, nic_class);
	} else {
		gp_placement_clear(out);
	}
	gp_place_cache_free(tmp);
	return r;
}

/* Parameter servers: the first job->ps GPUs of the placement, split into
 * parts of their own (role 1). */
void gp_place_split_ps(gp_placement *out, int ps)
{
	int i, nparts = out->nparts;

	for (i = 0; i < nparts && ps > 0; i++) {
		gp_place_part *p = &out->parts[i], *q;
		int n = ps < p->ngpus ? ps : p->ngpus, g;

		ps -= n;
		if (n == p->ngpus) {
			p->role = 1;
			continue;
		}
		q = gp_placement_add(out, p->node);
		p = &out->parts[i]; /* the array may have moved */
		q->milli = p->milli;
		q->mem_mib = p->mem_mib;
		q->role = 1;
		for (g = 0; g < n; g++)
			q->gpus[q->ngpus++] = p->gpus[g];
		for (g = n; g < p->ngpus; g++)
			p->gpus[g - n] = p->gpus[g];
		p->ngpus -= n;
	}
}

int gp_place_gpu_fits(const gp_alloc *a, int gpu, const gp_job *job)
{
	return a->gpu_free_milli[gpu] >= job->gpu_milli &&
	       a->gpu_free_mem_mib[gpu] >= job->gpu_mem_mib;
}

uint64_t gp_place_fit_mask(const gp_policy_ctx *ctx, int node, const gp_job *job, int *n)
{
	const gp_alloc *a = ctx->alloc;
	const gp_node *nd = &ctx->cluster->nodes[node];
	uint64_t m = 0;
	int g, cnt = 0;

	*n = 0;
	if (job->gpu_milli >= GP_MILLI ? a->node_free_whole[node] == 0 :
	    a->node_free_milli[node] < job->gpu_milli)
		return 0;
	if (!gp_node_eligible(ctx, node, job))
		return 0;
	if (a->ix && job->gpu_milli == GP_MILLI) {
		/* A regular node's fitting GPUs are its wholly free ones. */
		const gp_aix_type *xt = &a->ix->types[nd->type];

		if (gp_aix_regular(a->ix, xt, node) && job->gpu_mem_mib <= xt->mem_cap) {
			*n = gp_popcount64(a->ix->whole[node]);
			return a->ix->whole[node];
		}
	}
	{
		/* Branch-free: this loop is most of a decision on big clusters. */
		const int16_t *milli = a->gpu_free_milli + nd->first_gpu;
		const int64_t *mem = a->gpu_free_mem_mib + nd->first_gpu;
		int ng = nd->ngpus < GP_TOPO_MAX_GPUS ? nd->ngpus : GP_TOPO_MAX_GPUS;

		for (g = 0; g < ng; g++)
			m |= (uint64_t)((milli[g] >= job->gpu_milli) & (mem[g] >= job->gpu_mem_mib)) << g;
	}
	cnt = gp_popcount64(m);
	*n = cnt;
	return m;
}

int gp_place_host_fits(const gp_policy_ctx *ctx, int node, const gp_job *job, int ngpus)
{
	int64_t gpus = job->gpus > 0 ? job->gpus : 1;

	return ctx->alloc->node_free_cpu_milli[node] >= job->cpu_milli * ngpus / gpus &&
	       ctx->alloc->node_free_mem_mib[node] >= job->mem_mib * ngpus / gpus;
}

gp_place_part *gp_place_add_part(gp_placement *out, int node, uint64_t mask, const gp_job *job)
{
	gp_place_part *part = gp_placement_add(out, node);

	part->milli = job->gpu_milli;
	part->mem_mib = job->gpu_mem_mib;
	while (mask && part->ngpus < GP_TOPO_MAX_GPUS) {
		part->gpus[part->ngpus++] = __builtin_ctzll(mask);
		mask &= mask - 1;
	}
	return part;
}

const char *gp_place_fmt_gpus(uint64_t mask, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	while (mask && len + 8 < size) {
		int g = __builtin_ctzll(mask);

		mask &= mask - 1;
		len += (size_t)snprintf(buf + len, size - len, "%sGPU%d", len ? "," : "", g);
	}
	return buf;
}

static const char *fmt_list(const int *v, int n, char *buf, size_t size)
{
	size_t len = 0;
	int i = 0;

	buf[0] = '\0';
	while (i < n && len + 24 < size) {
		int j = i;

		while (j + 1 < n && v[j + 1] == v[j] + 1)
			j++;
		if (j > i)
			len += (size_t)snprintf(buf + len, size - len, "%s%d-%d", len ? "," : "", v[i], v[j]);
		else
			len += (size_t)snprintf(buf + len, size - len, "%s%d", len ? "," : "", v[i]);
		i = j + 1;
	}
	if (i < n)
		snprintf(buf + len, size - len, ",...");
	return buf;
}

static uint64_t part_mask(const gp_place_part *p)
{
	uint64_t m = 0;
	int i;

	for (i = 0; i < p->ngpus; i++)
		m |= (uint64_t)1 << p->gpus[i];
	return m;
}

/* Room in the placement's CPU pool for `want` more CPUs of part pi; the
 * parts before pi hold consecutive runs of the pool, so a move of the
 * pool only re-points them.  Grows only: a reused placement (the
 * simulator's scratch) stops allocating once it has seen its largest job. */
static int *cpu_room(gp_placement *out, int pi, int want)
{
	int i, off = 0;

	if (!want)
		return NULL; /* no pointer arithmetic on a pool not yet allocated */
	if (out->cpu_len + want > out->cpu_cap) {
		int cap = out->cpu_cap ? out->cpu_cap : 64;

		while (cap < out->cpu_len + want)
			cap *= 2;
		out->cpu_pool = gp_xrealloc(out->cpu_pool, (size_t)cap * sizeof(int));
		out->cpu_cap = cap;
		for (i = 0; i < pi; i++) {
			out->parts[i].cpus = out->parts[i].ncpus ? out->cpu_pool + off : NULL;
			off += out->parts[i].ncpus;
		}
	}
	return out->cpu_pool + out->cpu_len;
}

/* CPU cores for one part.  Each GPU gets its share of the part's cores
 * from its own affinity (its NUMA node) first, lowest free cores first;
 * what its own node cannot give comes from the other GPUs' affinity, then
 * from any free core of the node.  part->numa is the NUMA node of all the
 * part's GPUs, -1 when they sit on several (or it is unknown).  Bit masks
 * of the node type's GPU affinities (place cache). */
static void choose_cpus(const gp_policy_ctx *ctx, const gp_place_type *pt, const gp_job *job,
			gp_placement *out, int pi)
{
	const gp_cluster *c = ctx->cluster;
	const gp_alloc *a = ctx->alloc;
	gp_place_part *part = &out->parts[pi];
	const gp_topo *t = &c->types[c->nodes[part->node].type].topo;
	const uint64_t *used = a->cpu_used + (size_t)part->node * (size_t)a->cpu_words;
	uint64_t taken[GP_TOPO_MAX_CPUS / 64], mine[GP_TOPO_MAX_CPUS / 64];
	uint64_t any_of[GP_TOPO_MAX_CPUS / 64];
	int ncpu = (int)(a->node_cap_cpu_milli[part->node] / GP_MILLI), want, tier, i, g, w, nw, got = 0;
	int64_t gpus = job->gpus > 0 ? job->gpus : 1;
	int *dst;

	if (ncpu > a->cpu_words * 64)
		ncpu = a->cpu_words * 64;
	if (ncpu > GP_TOPO_MAX_CPUS)
		ncpu = GP_TOPO_MAX_CPUS;
	part->host_mem_mib = job->mem_mib * part->ngpus / gpus;
	if (job->cpu_milli > 0) {
		part->cpu_milli = job->cpu_milli * part->ngpus / gpus;
		want = (int)((part->cpu_milli + GP_MILLI - 1) / GP_MILLI);
	} else {
		/* Default share; taken only as far as the node has cores. */
		int64_t free_cores = a->node_free_cpu_milli[part->node] / GP_MILLI;

		for (i = 0; i < pi; i++)
			if (out->parts[i].node == part->node)
				free_cores -= out->parts[i].cpu_milli / GP_MILLI;
		want = (int)(((int64_t)GP_PLACE_DEFAULT_CPUS_PER_GPU * part->ngpus *
			      part->milli + GP_MILLI - 1) / GP_MILLI);
		if (want > free_cores)
			want = free_cores > 0 ? (int)free_cores : 0;
		part->cpu_milli = (int64_t)want * GP_MILLI;
	}
	part->numa = -1;
	for (g = 0; g < part->ngpus; g++) {
		int n = part->gpus[g] < t->ngpus ? t->gpus[part->gpus[g]].numa : -1;

		if (g == 0)
			part->numa = n;
		else if (n != part->numa)
			part->numa = -1;
	}
	part->cpus = NULL;
	if (want <= 0 || ncpu <= 0)
		return;
	if (want > ncpu)
		want = ncpu;
	nw = (ncpu + 63) / 64;
	for (w = 0; w < nw; w++) {
		uint64_t valid = w < ncpu / 64 ? ~(uint64_t)0 : ((uint64_t)1 << (ncpu % 64)) - 1;

		taken[w] = used[w] | ~valid;
		mine[w] = 0;
		any_of[w] = 0;
		for (g = 0; g < part->ngpus; g++)
			any_of[w] |= part->gpus[g] < pt->ngpus && w < pt->cpu_words ?
				pt->cpu_aff[(size_t)part->gpus[g] * (size_t)pt->cpu_words + (size_t)w] : 0;
	}
	for (i = 0; i < pi; i++)
		if (out->parts[i].node == part->node)
			for (g = 0; g < out->parts[i].ncpus; g++)
				if (out->parts[i].cpus[g] < ncpu)
					taken[out->parts[i].cpus[g] / 64] |= (uint64_t)1 << (out->parts[i].cpus[g] % 64);
	/* Tier 0: GPU by GPU, its share (the remainder to the first GPUs)
	 * from its own affinity; tier 1: the part's affinity; tier 2: any. */
	/* (no affinity lists at all: no tier 0; cpu_aff is NULL) */
	for (g = 0; pt->cpu_aff && g < part->ngpus && part->gpus[g] < pt->ngpus; g++) {
		int share = want / part->ngpus + (g < want % part->ngpus), mygot = 0;
		const uint64_t *aff = pt->cpu_aff + (size_t)part->gpus[g] * (size_t)pt->cpu_words;

		for (w = 0; w < nw && w < pt->cpu_words && mygot < share; w++) {
			uint64_t cand = ~taken[w] & aff[w];

			while (cand && mygot < share) {
				uint64_t bit = cand & -cand;

				cand &= ~bit;
				taken[w] |= bit;
				mine[w] |= bit;
				mygot++;
			}
		}
		got += mygot;
	}
	for (tier = 1; tier < 3 && got < want; tier++)
		for (w = 0; w < nw && got < want; w++) {
			uint64_t cand = ~taken[w] & (tier == 1 ? any_of[w] : ~(uint64_t)0);

			while (cand && got < want) {
				uint64_t bit = cand & -cand;

				cand &= ~bit;
				taken[w] |= bit;
				mine[w] |= bit;
				got++;
			}
		}
	dst = cpu_room(out, pi, got);
	part = &out->parts[pi];
	part->cpus = dst;
	for (w = 0; w < nw; w++)
		for (; mine[w]; mine[w] &= mine[w] - 1)
			dst[part->ncpus++] = w * 64 + __builtin_ctzll(mine[w]);
	out->cpu_len += part->ncpus;
	if (job->cpu_milli <= 0)
		part->cpu_milli = (int64_t)part->ncpus * GP_MILLI;
}

/* Whether cpu is in GPU g's affinity on this node type. */
static int cpu_affine(const gp_place_type *pt, int g, int cpu)
{
	return g < pt->ngpus && cpu / 64 < pt->cpu_words &&
	       (pt->cpu_aff[(size_t)g * (size_t)pt->cpu_words + (size_t)(cpu / 64)] >> (cpu % 64) & 1);
}

/* "CPUs 0-3 for GPU0-1 (NUMA 0), 56-59 for GPU4 (NUMA 1); 2 outside the
 * GPUs' affinity: 8,9": which of the part's cores sit where, per NUMA
 * node of its GPUs. */
static void fmt_cpu_use(const gp_place_type *pt, const gp_topo *t, const gp_place_part *part,
			char *buf, size_t size)
{
	int seen[GP_TOPO_MAX_GPUS], g, h, k, n, len = 0, sel[GP_TOPO_MAX_CPUS], outside = 0;
	char gb[256], cb[256];

	buf[0] = '\0';
	if (part->ncpus == 0) {
		snprintf(buf, size, "CPUs none");
		return;
	}
	for (g = 0; g < part->ngpus; g++)
		seen[g] = 0;
	for (g = 0; g < part->ngpus && (size_t)len + 64 < size; g++) {
		int numa = part->gpus[g] < t->ngpus ? t->gpus[part->gpus[g]].numa : -1;
		uint64_t gm = 0;

		if (seen[g])
			continue;
		for (h = g; h < part->ngpus; h++)
			if (!seen[h] && (part->gpus[h] < t->ngpus ? t->gpus[part->gpus[h]].numa : -1) == numa) {
				seen[h] = 1;
				gm |= (uint64_t)1 << part->gpus[h];
			}
		for (k = n = 0; k < part->ncpus; k++)
			for (h = 0; h < part->ngpus; h++)
				if ((gm >> part->gpus[h] & 1) && cpu_affine(pt, part->gpus[h], part->cpus[k])) {
					sel[n++] = part->cpus[k];
					break;
				}
		gp_place_fmt_gpus(gm, gb, sizeof(gb));
		fmt_list(sel, n, cb, sizeof(cb));
		if (numa >= 0)
			len += snprintf(buf + len, size - (size_t)len, "%s%s for %s (NUMA %d)", len ? ", " : "CPUs ",
					n ? cb : "none", gb, numa);
		else
			len += snprintf(buf + len, size - (size_t)len, "%s%s for %s (NUMA unknown)", len ? ", " : "CPUs ",
					n ? cb : "none", gb);
	}
	for (k = 0; k < part->ncpus; k++) {
		for (h = 0; h < part->ngpus && !cpu_affine(pt, part->gpus[h], part->cpus[k]); h++)
			;
		if (h == part->ngpus)
			sel[outside++] = part->cpus[k];
	}
	if (outside && (size_t)len + 32 < size) {
		fmt_list(sel, outside, cb, sizeof(cb));
		snprintf(buf + len, size - (size_t)len, "; %d outside the GPUs' affinity (no free core of "
			 "theirs left among the node's CPUs): %s", outside, cb);
	}
}

/* Whether NIC nic may serve part GPUs under the RoCE class (any class
 * when nic_class < 0): one of the class's NUMA-local NICs. */
static int nic_in_class(const gp_place_type *pt, const gp_place_part *part, int nic, int nic_class)
{
	int g;

	if (nic_class < 0)
		return 1;
	for (g = 0; g < part->ngpus; g++) {
		int lc = pt->local_class[part->gpus[g]];

		if (pt->nic_class[part->gpus[g]] == nic_class && lc >= 0 &&
		    (pt->derived->class_nics[lc][nic / 64] >> (nic % 64) & 1))
			return 1;
	}
	return 0;
}

/* The NICs of one part.  Each GPU's rail: its own closest NIC (the
 * topology spreads equally close NICs 1:1 over GPUs) when nearer than SYS
 * and allowed by the class.  The part's NIC (the one that gets a VF): the
 * rail of the most GPUs; ties, or no rails at all, go to the NIC whose
 * worst link to the part's GPUs is closest, then the smallest sum of
 * levels, then the fewest VFs used, then the lowest index.  With
 * nic_class >= 0 only that class's NUMA-local NICs count (RoCE seed). */
static void choose_nic(const gp_policy_ctx *ctx, const gp_place_type *pt, gp_placement *out,
		       int pi, int nic_class)
{
	const gp_cluster *c = ctx->cluster;
	const gp_alloc *a = ctx->alloc;
	gp_place_part *part = &out->parts[pi];
	const gp_topo *t = &c->types[c->nodes[part->node].type].topo;
	const gp_topo_derived *d = pt->derived;
	int nic, g, i, best = -1, bw = 0, bs = 0, bu = 0, bv = 0, used;
	int votes[GP_TOPO_MAX_DEVICES] = { 0 };
	int nnics = t->nnics < a->max_nics ? t->nnics : a->max_nics;

	for (g = 0; g < part->ngpus; g++) {
		int r = -1, gpu = part->gpus[g];

		if (d && gpu < d->ngpus && d->gpu_nic[gpu] >= 0 && d->gpu_nic[gpu] < nnics &&
		    d->gpu_nic_level[gpu] < GP_LINK_SYS && nic_in_class(pt, part, d->gpu_nic[gpu], nic_class))
			r = d->gpu_nic[gpu];
		part->gpu_nic[g] = (int16_t)r;
		if (r >= 0)
			votes[r]++;
	}
	for (nic = 0; nic < nnics; nic++) {
		int worst = 0, sum = 0, u;

		if (!nic_in_class(pt, part, nic, nic_class))
			continue;
		for (g = 0; g < part->ngpus; g++) {
			int l = gp_topo_link(t, part->gpus[g], t->ngpus + nic).level;

			worst = l > worst ? l : worst;
			sum += l;
		}
		u = a->nic_vfs_used[(size_t)part->node * (size_t)a->max_nics + (size_t)nic];
		if (best < 0 || votes[nic] > bv ||
		    (votes[nic] == bv && (worst < bw || (worst == bw && (sum < bs || (sum == bs && u < bu)))))) {
			best = nic;
			bv = votes[nic];
			bw = worst;
			bs = sum;
			bu = u;
		}
	}
	part->nic = best;
	part->vf = -1;
	for (g = 0; g < part->ngpus; g++)
		if (part->gpu_nic[g] < 0)
			part->gpu_nic[g] = (int16_t)best;
	if (best < 0)
		return;
	used = a->nic_vfs_used[(size_t)part->node * (size_t)a->max_nics + (size_t)best];
	for (i = 0; i < pi; i++)
		if (out->parts[i].node == part->node && out->parts[i].nic == best &&
		    out->parts[i].vf >= 0)
			used++;
	if (used < gp_place_nic_vfs(t, best))
		part->vf = used;
}

int gp_place_nic_vfs(const gp_topo *t, int nic)
{
	int g, n = 0;

	for (g = 0; g < t->ngpus; g++)
		n += gp_topo_link(t, g, t->ngpus + nic).level <= GP_LINK_NODE;
	if (n < 1)
		n = 1;
	return n < GP_PLACE_MAX_VFS ? n : GP_PLACE_MAX_VFS;
}

static const char *nic_name(const gp_topo *t, int nic)
{
	return t->nics[nic].device[0] ? t->nics[nic].device : t->nics[nic].id;
}

static void explain_part(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_placement *out, int pi)
{
	const gp_cluster *c = ctx->cluster;
	const gp_place_part *part = &out->parts[pi];
	const gp_node_type *nt = &c->types[c->nodes[part->node].type];
	const gp_topo *t = &nt->topo;
	char gbuf[512], cbuf[1024], nbuf[256] = "no NIC", rbuf[512] = "", sbuf[96] = "", kbuf[160] = "";
	int g, k, distinct = 0;

	gp_place_fmt_gpus(part_mask(part), gbuf, sizeof(gbuf));
	if (part->nic >= 0) {
		int worst = 0;
		size_t len = 0;

		for (g = 0; g < part->ngpus; g++) {
			int l = gp_topo_link(t, part->gpus[g], t->ngpus + part->nic).level;

			worst = l > worst ? l : worst;
			for (k = 0; k < g && part->gpu_nic[k] != part->gpu_nic[g]; k++)
				;
			distinct += k == g;
		}
		if (nt->nic_subnets && nt->nic_subnets[part->nic])
			snprintf(sbuf, sizeof(sbuf), ", subnet %s", nt->nic_subnets[part->nic]);
		if (part->nic_class >= 0)
			snprintf(kbuf, sizeof(kbuf), ", class %s", gp_place_class_name(pc, part->nic_class));
		if (part->vf >= 0)
			snprintf(nbuf, sizeof(nbuf), "NIC %s VF %d%s%s (%s to the GPUs)", nic_name(t, part->nic),
				 part->vf, sbuf, kbuf, gp_link_level_name(worst));
		else
			snprintf(nbuf, sizeof(nbuf), "NIC %s, no free VF (its %d, one per NUMA-local GPU, "
				 "are taken)%s%s (%s to the GPUs)", nic_name(t, part->nic),
				 gp_place_nic_vfs(t, part->nic), sbuf, kbuf, gp_link_level_name(worst));
		/* Rails only when the GPUs do not all share the part's NIC. */
		if (distinct > 1 || (part->ngpus > 0 && part->gpu_nic[0] != part->nic)) {
			len = (size_t)snprintf(rbuf, sizeof(rbuf), "; rails");
			for (g = 0; g < part->ngpus && len + 40 < sizeof(rbuf); g++)
				len += (size_t)snprintf(rbuf + len, sizeof(rbuf) - len, " GPU%d-%s", part->gpus[g],
							part->gpu_nic[g] >= 0 ? nic_name(t, part->gpu_nic[g]) : "none");
		}
	}
	fmt_cpu_use(gp_place_type_of(pc, part->node), t, part, cbuf, sizeof(cbuf));
	gp_explain_add(ctx->explain, "%s on %s: %s; %s; %s%s",
		       part->role ? "parameter server" : "worker", c->nodes[part->node].name,
		       gbuf, cbuf, nbuf, rbuf);
}

void gp_place_finish(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job,
		     gp_placement *out, int nic_class)
{
	gp_place_summary s;
	int i;

	out->cpu_len = 0;
	for (i = 0; i < out->nparts; i++) {
		const gp_place_type *pt = gp_place_type_of(pc, out->parts[i].node);

		out->parts[i].nic_class = nic_class;
		choose_cpus(ctx, pt, job, out, i);
		choose_nic(ctx, pt, out, i, nic_class);
	}
	if (!ctx->explain && pc && pc->summary_timed &&
	    (job->duration >= 0 || job->iterations <= 0)) {
		out->bottleneck = GP_LINK_X;
		out->ring_bw_gbs = 0;
		return;
	}
	/* The perf model's view; sets out->bottleneck and ring_bw_gbs. */
	gp_place_summarize_fields(ctx->cluster, out, &s, ctx->explain != NULL);
	if (ctx->explain) {
		for (i = 0; i < out->nparts; i++)
			explain_part(ctx, pc, out, i);
		if (s.gpus < 2)
			return;
		if (s.bottleneck >= GP_LINK_LEVELS)
			gp_explain_add(ctx->explain, "bottleneck (perf model): %s, %s through %d switch level(s): "
				       "%s; ring %.1f GB/s per GPU", s.name, s.net_ib ? "InfiniBand" : "Ethernet/RoCE",
				       s.net_levels, s.detail, s.ring_gbs);
		else
			gp_explain_add(ctx->explain, "bottleneck (perf model): %s inside a node: %s; ring %.1f GB/s per GPU",
				       s.name, s.detail, s.ring_gbs);
	}
}

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
 * switch (pc->sw_free): the best (lowest) seed weight, then the least
 * left over; -1 (WAIT reason set) when no connected group holds it.
 * total: fitting GPUs in the cluster, for the explanation. */
static int span_switch(const gp_policy_ctx *ctx, gp_place_cache *pc, int need, int64_t total)
{
	const gp_cluster *c = ctx->cluster;
	int64_t bestrem = 0, most = 0;
	int s, best = -1;

	for (s = 0; s < c->nswitches; s++) {
		int64_t rem = pc->sw_free[s] - need;

		if (rem < 0 || pc->sw_rate[s] == INT_MAX)
			continue;
		if (best < 0 || pc->sw_rate[s] < pc->sw_rate[best] ||
		    (pc->sw_rate[s] == pc->sw_rate[best] && rem < bestrem)) {
			best = s;
			bestrem = rem;
		}
	}
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

/* The parts of a multi-node job on chosen[0..n) (in that order), each
 * node's fit GPUs (a best group of allow when it gives fewer). */
static int span_parts(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job, int best,
		      const int *chosen, int nchosen, int last, const int *fit, const uint64_t *allow,
		      int kind, gp_placement *out)
{
	const gp_cluster *c = ctx->cluster;
	int need = job->gpus, got = 0, i;

	for (i = 0; i < nchosen; i++) {
		int node = chosen[i], take = need - got < fit[node] ? need - got : fit[node];
		uint64_t mask = take == fit[node] ? allow[node] :
			gp_place_best_group(gp_place_type_of(pc, node), allow[node], take, kind);

		gp_place_add_part(out, node, mask, job);
		got += take;
	}
	if (ctx->explain) {
		gp_explain_add(ctx->explain, "several nodes: under switch %s (seed weight %d, %lld fitting GPUs, "
			       "best fit among groups of equal weight): %d node(s), the last (%s) chosen by best fit",
			       c->switches[best].name, pc->sw_rate[best], (long long)pc->sw_free[best],
			       nchosen, last >= 0 ? c->nodes[last].name : "-");
	}
	return GP_PLACED;
}

/* The nodes of a multi-node job under switch best: cand[0..m) are the
 * nodes under it with fitting GPUs, ascending.  Fewest nodes first
 * (largest fit), the last one by best fit. */
static int span_nodes(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job, int best,
		      const int *cand, int m, const int *fit, const uint64_t *allow, int kind,
		      gp_placement *out)
{
	int need = job->gpus, i, nchosen = 0, got, last = -1;
	int *chosen = gp_place_scratch_nodes(pc, 2);
	int hist[GP_TOPO_MAX_GPUS + 1];
	int thr, cum, take_thr, chosen_max = GP_PLACE_MAX_PARTS;

	memset(hist, 0, sizeof(hist));
	for (i = 0; i < m; i++)
		hist[fit[cand[i]] > GP_TOPO_MAX_GPUS ? GP_TOPO_MAX_GPUS : fit[cand[i]]]++;
	cum = 0;
	for (thr = GP_TOPO_MAX_GPUS; thr > 0; thr--) {
		if (cum + thr * hist[thr] >= need)
			break;
		cum += thr * hist[thr];
	}
	/* Nodes with fit > thr all go; of those with fit == thr, the first few. */
	take_thr = thr > 0 ? (need - cum + thr - 1) / thr : 0;
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
	for (i = 1; i < nchosen; i++) {
		int x = chosen[i], j = i - 1;

		while (j >= 0 && cmp_node_fit_desc(fit[chosen[j]], chosen[j], fit[x], x) > 0) {
			chosen[j + 1] = chosen[j];
			j--;
		}
		chosen[j + 1] = x;
	}
	got = 0;
	for (i = 0; i < nchosen - 1; i++)
		got += fit[chosen[i]];
	if (nchosen > 0) {
		int rem = need - got, bestn = chosen[nchosen - 1], k;

		for (k = 0; k < m; k++) {
			int j, n = cand[k];

			if (fit[n] < rem || fit[n] >= fit[bestn] || n == bestn)
				continue;
			for (j = 0; j < nchosen - 1 && chosen[j] != n; j++)
				;
			if (j < nchosen - 1)
				continue;
			if (fit[n] < fit[bestn] || (fit[n] == fit[bestn] && n < bestn))
				bestn = n;
		}
		chosen[nchosen - 1] = bestn;
		last = bestn;
	}
	return span_parts(ctx, pc, job, best, chosen, nchosen, last, fit, allow, kind, out);
}

int gp_place_span(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job,
		  const int *fit, const uint64_t *allow, int kind, gp_placement *out)
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
	if ((best = span_switch(ctx, pc, job->gpus, total)) < 0)
		return GP_WAIT;
	for (i = 0; i < c->nnodes; i++) {
		if (fit[i] <= 0)
			continue;
		for (s = gp_place_node_sw(c, i); s >= 0 && s != best; s = c->switches[s].parent)
			;
		if (s == best)
			cand[m++] = i;
	}
	return span_nodes(ctx, pc, job, best, cand, m, fit, allow, kind, out);
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
		    gp_placement *out)
{
	const gp_cluster *c = ctx->cluster;
	const gp_alloc_index *ix = ctx->alloc->ix;
	int *fit = gp_place_scratch_nodes(pc, 0), *oddn = gp_place_scratch_nodes(pc, 1);
	int *chosen = gp_place_scratch_nodes(pc, 2);
	uint64_t *allow = gp_place_scratch_masks(pc);
	int hist[GP_TOPO_MAX_GPUS + 1], need = job->gpus, nodd = 0, ti, r, w, thr, cum, take_thr;
	int nchosen = 0, i, got, extra;

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
	cum = 0;
	for (thr = GP_TOPO_MAX_GPUS; thr > 0; thr--) {
		if (cum + thr * hist[thr] >= need)
			break;
		cum += thr * hist[thr];
	}
	take_thr = thr > 0 ? (need - cum + thr - 1) / thr : 0;
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
	for (i = 1; i < nchosen; i++) {
		int x = chosen[i], j = i - 1;

		while (j >= 0 && cmp_node_fit_desc(fit[chosen[j]], chosen[j], fit[x], x) > 0) {
			chosen[j + 1] = chosen[j];
			j--;
		}
		chosen[j + 1] = x;
	}
	got = 0;
	for (i = 0; i < nchosen - 1; i++)
		got += fit[chosen[i]];
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
			  allow, kind, out);
}

int gp_place_span_ix(const gp_policy_ctx *ctx, gp_place_cache *pc, const gp_job *job, int kind,
		     gp_placement *out)
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
	if ((best = span_switch(ctx, pc, job->gpus, 0)) < 0)
		return GP_WAIT;
	if (c->switches[best].count > gp_place_span_walk_max)
		return span_big(ctx, pc, job, best, kind, out);
	for (k = 0; k < c->switches[best].count; k++) {
		int node = c->node_order[c->switches[best].first + k];

		fit[node] = span_fit(ctx, pc, job, node, &allow[node]);
		if (fit[node] > 0)
			cand[m++] = node;
	}
	qsort(cand, (size_t)m, sizeof(*cand), gp_cmp_int);
	return span_nodes(ctx, pc, job, best, cand, m, fit, allow, kind, out);
}

int gp_node_eligible(const gp_policy_ctx *ctx, int node, const gp_job *job)
{
	const gp_cluster *c = ctx->cluster;
	int model = c->types[c->nodes[node].type].gpu_model;

	if (ctx->alloc->node_state[node] != GP_NODE_UP)
		return 0;
	if (!job->gpu_models)
		return 1;
	if (model < 0 || model >= c->catalog.n)
		return 0;
	return gp_job_accepts_model(job, c->catalog.models[model].name);
}
