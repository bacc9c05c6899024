/* The FGD experiment: the fragmentation measure (with its memo), the
 * scheduler's filter, the policies' node scores and GPU choice. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fgd_int.h"

/* ---- fragmentation measure ------------------------------------------ */

enum { Q1, Q2, Q3, Q4, XL, XR, NA, NFRAG };

/* FGD's fragmentation of one node state w.r.t. the typical tasks: the
 * expected idle milli-GPU that a typical task could not use.  Summation
 * order as the artifact's, so that equal states score equal. */
static void frag_compute(const run *r, int model, int ngpu, int64_t cpu,
			 const int16_t *g, double *frag, double *idle)
{
	double d[NFRAG] = { 0 };
	int64_t total = 0;
	int t, i;

	for (i = 0; i < ngpu; i++)
		total += g[i];
	for (t = 0; t < r->ntyp; t++) {
		const shape *s = &r->typ[t].s;
		double f = r->typ[t].freq;
		int cpu_ok = cpu >= s->cpu;

		if (s->milli == 0) {
			d[cpu_ok ? XL : XR] += f * (double)total;
		} else if (!accessible(r, s->spec, model)) {
			d[NA] += f * (double)total;
		} else {
			int fit = 0;
			int64_t small = 0;

			for (i = 0; i < ngpu; i++) {
				if (g[i] >= s->milli)
					fit++;
				else
					small += g[i];
			}
			if (fit >= s->ngpu) {
				if (cpu_ok) {
					d[Q2] += f * (double)small;
					d[Q3] += f * (double)(total - small);
				} else {
					d[Q4] += f * (double)total;
				}
			} else {
				d[cpu_ok ? Q2 : Q1] += f * (double)total;
			}
		}
	}
	*frag = 0;
	*idle = 0;
	for (i = 0; i < NFRAG; i++) {
		if (i != Q3)
			*frag += d[i];
		*idle += d[i];
	}
}

static uint64_t memo_hash(int model, int ngpu, int64_t cpu, const int16_t *g)
{
	uint64_t h = (uint64_t)cpu * 0x9E3779B97F4A7C15ull;
	int i;

	h ^= (uint64_t)(model + 2) * 0xC2B2AE3D27D4EB4Full + (uint64_t)ngpu;
	for (i = 0; i < ngpu; i++)
		h = (h ^ (uint64_t)(uint16_t)g[i]) * 0x100000001B3ull;
	h ^= h >> 29;
	h *= 0xBF58476D1CE4E5B9ull;
	h ^= h >> 32;
	return h;
}

static void memo_grow(run *r)
{
	size_t ncap = r->memo_cap ? r->memo_cap * 2 : 1u << 14, i;
	memo_ent *nm = gp_xmalloc(sizeof(*nm) * ncap);

	for (i = 0; i < ncap; i++)
		nm[i].ngpu = -1;
	for (i = 0; i < r->memo_cap; i++) {
		memo_ent *e = &r->memo[i];
		size_t h;

		if (e->ngpu < 0)
			continue;
		h = memo_hash(e->model, e->ngpu, e->cpu, e->g) & (ncap - 1);
		while (nm[h].ngpu >= 0)
			h = (h + 1) & (ncap - 1);
		nm[h] = *e;
	}
	free(r->memo);
	r->memo = nm;
	r->memo_cap = ncap;
}

/* Fragmentation of a node state (GPU list in any order), memoised. */
static void frag_of(run *r, int model, int ngpu, int64_t cpu, const int16_t *gin,
		    double *frag, double *idle)
{
	int16_t g[G];
	int i, j;
	size_t h;
	memo_ent *e;

	/* insertion sort, descending: the state does not depend on GPU order */
	for (i = 0; i < ngpu; i++) {
		int16_t v = gin[i];

		for (j = i; j > 0 && g[j - 1] < v; j--)
			g[j] = g[j - 1];
		g[j] = v;
	}
	if (2 * (r->memo_n + 1) > r->memo_cap)
		memo_grow(r);
	h = memo_hash(model, ngpu, cpu, g) & (r->memo_cap - 1);
	for (;;) {
		e = &r->memo[h];
		if (e->ngpu < 0)
			break;
		if (e->ngpu == ngpu && e->model == model && e->cpu == cpu &&
		    !memcmp(e->g, g, sizeof(int16_t) * (size_t)ngpu)) {
			*frag = e->frag;
			*idle = e->idle;
			return;
		}
		h = (h + 1) & (r->memo_cap - 1);
	}
	frag_compute(r, model, ngpu, cpu, g, frag, idle);
	memset(e, 0, sizeof(*e));
	e->cpu = cpu;
	memcpy(e->g, g, sizeof(int16_t) * (size_t)ngpu);
	e->model = (int16_t)model;
	e->ngpu = (int16_t)ngpu;
	e->frag = *frag;
	e->idle = *idle;
	r->memo_n++;
}

void gp_fgd_node_refresh(run *r, int n)
{
	frag_of(r, r->nodes->model[n], r->nodes->ngpus[n], r->cpu_left[n],
		r->gleft + (size_t)n * G, &r->frag_cur[n], &r->idle_cur[n]);
	r->version[n]++;
}

/* ---- filter, scores, GPU choice ---------------------------------------- */

static int64_t gpu_total_left(const run *r, int n)
{
	const int16_t *g = r->gleft + (size_t)n * G;
	int64_t t = 0;
	int i;

	for (i = 0; i < r->nodes->ngpus[n]; i++)
		t += g[i];
	return t;
}

static int fully_free(const run *r, int n)
{
	const int16_t *g = r->gleft + (size_t)n * G;
	int i, c = 0;

	for (i = 0; i < r->nodes->ngpus[n]; i++)
		c += g[i] == MILLI;
	return c;
}

/* kube-scheduler's resource fit plus the artifact's GPU-share filter. */
int gp_fgd_node_fits(const run *r, int n, size_t p, const shape *s)
{
	const gp_openb_pods *pd = r->pods;
	const int16_t *g;
	int i, cap = 0;

	if (pd->cpu_milli[p] > r->cpu_left[n] || pd->mem_mib[p] > r->mem_left[n])
		return 0;
	if (s->milli <= 0)
		return 1;
	if (r->nodes->ngpus[n] == 0 || !accessible(r, s->spec, r->nodes->model[n]))
		return 0;
	g = r->gleft + (size_t)n * G;
	/* the share plugin packs greedily: each GPU takes floor(left/share) */
	for (i = 0; i < r->nodes->ngpus[n]; i++)
		cap += g[i] / s->milli;
	return cap >= s->ngpu;
}

/* GPUs taken by an exclusive task: the first fully free ones. */
unsigned gp_fgd_exclusive_gpus(const run *r, int n, const shape *s)
{
	const int16_t *g = r->gleft + (size_t)n * G;
	int64_t need = (int64_t)s->milli * s->ngpu;
	unsigned mask = 0;
	int i;

	for (i = 0; i < r->nodes->ngpus[n] && need > 0; i++)
		if (g[i] == MILLI) {
			mask |= 1u << i;
			need -= MILLI;
		}
	return mask;
}

static int fgd_int_score(double before, double after)
{
	double x = (before - after) / 1000.0;

	return (int)(int64_t)(1.0 / (1.0 + exp(-x)) * (double)SCORE_MAX);
}

/* FGD: score = sigmoid of the fragmentation decrease; for a share task
 * the best GPU of the node (first index among equal integer scores). */
int gp_fgd_score(run *r, int n, const shape *s, int *gpu)
{
	int model = r->nodes->model[n], ng = r->nodes->ngpus[n];
	const int16_t *g = r->gleft + (size_t)n * G;
	int16_t t[G];
	double before = r->frag_cur[n], after, idle;
	int64_t cpu = r->cpu_left[n] - s->cpu;
	int i, j, best = 0;

	*gpu = -1;
	if (is_share(s)) {
		for (i = 0; i < ng; i++) {
			int sc;

			if (g[i] < s->milli)
				continue;
			for (j = 0; j < i; j++)
				if (g[j] == g[i])
					break;
			if (j < i)
				continue; /* same state as an earlier GPU */
			memcpy(t, g, sizeof(int16_t) * (size_t)ng);
			t[i] = (int16_t)(t[i] - s->milli);
			frag_of(r, model, ng, cpu, t, &after, &idle);
			sc = fgd_int_score(before, after);
			if (*gpu < 0 || sc > best) {
				best = sc;
				*gpu = i;
			}
		}
		return best;
	}
	/* whole GPUs (or none): take from the least free sufficient GPUs */
	memcpy(t, g, sizeof(int16_t) * (size_t)ng);
	if (s->ngpu > 0) {
		int order[G], req = s->ngpu;

		for (i = 0; i < ng; i++) {
			for (j = i; j > 0 && t[order[j - 1]] > t[i]; j--)
				order[j] = order[j - 1];
			order[j] = i;
		}
		for (i = 0; i < ng && req > 0; i++)
			if (s->milli <= t[order[i]]) {
				t[order[i]] = (int16_t)(t[order[i]] - s->milli);
				req--;
			}
	}
	frag_of(r, model, ng, cpu, t, &after, &idle);
	return fgd_int_score(before, after);
}

int64_t gp_fgd_bestfit_raw(const run *r, int n, const shape *s)
{
	double sc = 0;

	sc += ((double)r->cpu_left[n] - (double)s->cpu) / MAX_SPEC_CPU * 0.5;
	sc += ((double)gpu_total_left(r, n) - (double)((int64_t)s->milli * s->ngpu)) / MAX_SPEC_GPU * 0.5;
	return (int64_t)((1.0 - sc) * (double)SCORE_MAX);
}

/* Tetris-style dot product of free and requested (CPU, total GPU), each
 * normalised by the largest node; a smaller product scores higher. */
int64_t gp_fgd_dotprod_score(const run *r, int n, const shape *s)
{
	double nv0 = (double)r->cpu_left[n] / MAX_SPEC_CPU;
	double nv1 = (double)gpu_total_left(r, n) / MAX_SPEC_GPU;
	double pv0 = (double)s->cpu / MAX_SPEC_CPU;
	double pv1 = (double)((int64_t)s->milli * s->ngpu) / MAX_SPEC_GPU;
	double dot = 0, sc;

	dot += nv0 * pv0;
	dot += nv1 * pv1;
	sc = 1 - dot / 2.0;
	if (sc < -1)
		sc = -1;
	return (int64_t)((double)SCORE_MAX * sc);
}

int64_t gp_fgd_clustering_score(const run *r, int n, const shape *s)
{
	int a = affinity_class(s);
	int64_t base = (int64_t)SCORE_MAX / 4 * (MAX_SPEC_GPU - gpu_total_left(r, n)) / MAX_SPEC_GPU;

	if (a < 0)
		return 0;
	if (r->aff[(size_t)n * NAFF + a] > 0)
		return base + (r->naff[n] == 1 ? SCORE_MAX * 3 / 4 : SCORE_MAX * 2 / 4);
	return base + (r->naff[n] == 0 ? SCORE_MAX / 4 : 0);
}

int64_t gp_fgd_packing_score(const run *r, int n, const shape *s)
{
	const int16_t *g = r->gleft + (size_t)n * G;
	int ng = r->nodes->ngpus[n], ff = fully_free(r, n);
	int order[G], i, j, req = s->ngpu, ff_used = 0, used[G], nused = 0;
	int64_t sum = 0, sc;

	if (s->milli <= 0)
		return 0;
	if (ff == ng) {
		sc = SCORE_MAX / 3 - ff;
		return sc > ff ? sc : ff;
	}
	for (i = 0; i < ng; i++) {
		for (j = i; j > 0 && g[order[j - 1]] > g[i]; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	for (i = 0; i < ng && req > 0; i++)
		if (s->milli <= g[order[i]]) {
			req--;
			used[nused++] = order[i];
			if (g[order[i]] == MILLI)
				ff_used++;
		}
	if (ff_used > 0) {
		sc = SCORE_MAX / 2 - ff_used;
		return sc > SCORE_MAX / 3 ? sc : SCORE_MAX / 3;
	}
	for (i = 0; i < nused; i++)
		sum += (int64_t)g[used[i]] * 100 / MILLI;
	sc = SCORE_MAX - sum / 10;
	return sc > SCORE_MAX / 2 ? sc : SCORE_MAX / 2;
}
