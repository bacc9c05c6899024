/* Helpers shared by the placement policies: GPU groups inside a node,
 * spanning several nodes, CPU cores, NIC and VF choice, explanations. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/place/place.h"
#include "gpuplan/place/policy.h"
#include "place_int.h"


int gp_place_cmp_u16(const void *a, const void *b)
{
	uint16_t x = *(const uint16_t *)a, y = *(const uint16_t *)b;

	return (x > y) - (x < y);
}

gp_place_mask_info gp_place_mask(const gp_place_type *t, uint64_t mask)
{
	gp_place_mask_info mi;
	uint64_t mi_i, mi_j;
	int i, j;

	if (t->masks)
		return t->masks[mask];
	/* Large node types: no table.  The best closed loop is approximated
	 * by the worst pair (an upper bound on its worst edge). */
	memset(&mi, 0, sizeof(mi));
	if (t->ngpus < 64)
		mask &= ((uint64_t)1 << t->ngpus) - 1;
	for (mi_i = mask; mi_i; mi_i &= mi_i - 1) {
		i = __builtin_ctzll(mi_i);
		for (mi_j = mi_i & (mi_i - 1); mi_j; mi_j &= mi_j - 1) {
			j = __builtin_ctzll(mi_j);
			mi.sum += t->expense[i][j];
			if (t->expense[i][j] > mi.max)
				mi.max = t->expense[i][j];
			mi.pair_score += gp_place_pair_score(t, i, j);
		}
	}
	mi.ring = mi.max;
	return mi;
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

	/* Every part must reach the first (communication weight >= 0): a policy that
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
	if (a->ix && job->gpu_milli >= 1 && job->gpu_milli <= GP_MILLI) {
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

int gp_place_host_max(const gp_policy_ctx *ctx, int node, const gp_job *job, int n)
{
	while (n > 0 && !gp_place_host_fits(ctx, node, job, n))
		n--;
	return n;
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

/* Virtual functions of a node type's NIC (NIC-affinity classes): one per GPU that is
 * NUMA-local to it (link level NODE or nearer), at least 1, at most
 * GP_PLACE_MAX_VFS (a validation limit). */
static int nic_vfs(const gp_topo *t, int nic)
{
	int g, n = 0;

	for (g = 0; g < t->ngpus; g++)
		n += gp_topo_link(t, g, t->ngpus + nic).level <= GP_LINK_NODE;
	if (n < 1)
		n = 1;
	return n < GP_PLACE_MAX_VFS ? n : GP_PLACE_MAX_VFS;
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
	if (used < nic_vfs(t, best))
		part->vf = used;
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
				 nic_vfs(t, part->nic), sbuf, kbuf, gp_link_level_name(worst));
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
	char bw[80];
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
	gp_place_summarize_pc(ctx->cluster, pc, out, &s, ctx->explain != NULL);
	if (ctx->explain) {
		for (i = 0; i < out->nparts; i++)
			explain_part(ctx, pc, out, i);
		if (s.gpus < 2)
			return;
		/* PS-Worker jobs push to parameter servers: no ring to name. */
		snprintf(bw, sizeof(bw), job->type == GP_JOB_PS_WORKER ? "bottleneck bandwidth %.1f GB/s (no ring)"
			 : "ring %.1f GB/s per GPU", s.ring_gbs);
		if (s.bottleneck >= GP_LINK_LEVELS)
			gp_explain_add(ctx->explain, "bottleneck (perf model): %s, %s through %d switch level(s): "
				       "%s; %s", s.name, s.net_ib ? "InfiniBand" : "Ethernet/RoCE",
				       s.net_levels, s.detail, bw);
		else
			gp_explain_add(ctx->explain, "bottleneck (perf model): %s inside a node: %s; %s",
				       s.name, s.detail, bw);
	}
}

int gp_place_accepts(const gp_policy_ctx *ctx, const gp_job *job, int model)
{
	const gp_cluster *c = ctx->cluster;

	if (!job->gpu_models)
		return 1;
	if (model < 0 || model >= c->catalog.n)
		return gp_job_accepts_no_model(job);
	if (ctx->cache && ctx->cache->cluster == c)
		return gp_job_accepts_model_memo(&ctx->cache->accepts, job, &c->catalog, model);
	return gp_job_accepts_model(job, c->catalog.models[model].name);
}

int gp_node_eligible(const gp_policy_ctx *ctx, int node, const gp_job *job)
{
	const gp_cluster *c = ctx->cluster;
	int model = c->types[c->nodes[node].type].gpu_model;

	if (ctx->alloc->node_state[node] != GP_NODE_UP)
		return 0;
	return gp_place_accepts(ctx, job, model);
}
