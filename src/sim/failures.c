/* Failure generator, heartbeat detection and the merged failure stream
 * (failures.h). */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/sim/failures.h"
#include "gpuplan/util/heap.h"
#include "gpuplan/util/util.h"

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

double gp_fail_uniform(uint64_t seed, uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t h = mix64(seed + 0x9e3779b97f4a7c15ull);

	gp_rng_note_draw();
	h = mix64(h ^ (a + 0x632be59bd9b4e019ull));
	h = mix64(h ^ (b + 0x8cb92ba72f3d8dd7ull));
	h = mix64(h ^ (c + 0xd1b54a32d192ed03ull));
	return gp_unit_open_of_bits(h);
}

double gp_fail_weibull(double u, double k, double mean)
{
	double scale = mean / tgamma(1.0 + 1.0 / k);

	return scale * pow(-log(u), 1.0 / k);
}

double gp_fail_weibull_residual(double u, double k, double mean)
{
	double scale = mean / tgamma(1.0 + 1.0 / k);

	/* P(T_e <= t) = (1/mean) int_0^t S = P(1/k, (t/scale)^k). */
	if (k == 1.0)
		return -mean * log(u);
	return scale * pow(gsl_cdf_gamma_Pinv(1.0 - u, 1.0 / k, 1.0), 1.0 / k);
}

void gp_fail_gen_init(gp_fail_gen *g)
{
	memset(g, 0, sizeof(*g));
	g->shape = 1.0;
	g->repair_h = GP_FAIL_DEFAULT_REPAIR_H;
}

void gp_heartbeat_init(gp_heartbeat *h, uint64_t seed)
{
	h->period_s = 5.0;
	h->misses = 3;
	h->seed = seed;
}

double gp_heartbeat_phase(const gp_heartbeat *h, int node)
{
	return gp_fail_uniform(h->seed, 0x4842ull, (uint64_t)node, 0) * h->period_s;
}

double gp_heartbeat_detect(const gp_heartbeat *h, int node, double t_fail)
{
	double ph = gp_heartbeat_phase(h, node), first;
	int misses = h->misses > 0 ? h->misses : 1;

	if (!(h->period_s > 0))
		return t_fail;
	/* The first heartbeat due at or after the failure does not come. */
	first = ph + ceil((t_fail - ph) / h->period_s) * h->period_s;
	if (first < t_fail)
		first += h->period_s;
	return first + (misses - 1) * h->period_s;
}

double gp_daly_ettr_first_order(double tau, double delta, double restart, double mtbf)
{
	return (1.0 - (restart + (tau + delta) / 2.0) / mtbf) / (1.0 + delta / tau);
}

double gp_daly_ettr_exponential(double tau, double delta, double restart, double mtbf)
{
	return tau / (mtbf * exp(restart / mtbf) * expm1((tau + delta) / mtbf));
}

/* ---- the stream ---- */

/* Streams of gp_fail_uniform: which draw of a unit's n-th failure. */
enum { DRAW_TTF = 1, DRAW_REPAIR = 2 };

typedef struct heap_item {
	double t;
	uint32_t unit;          /* node id, or nnodes + global GPU id */
	uint32_t seq;
} heap_item;

/* Next failure first; of two at one time, the lower unit. */
static inline int item_cmp(const void *ctx, const heap_item *a, const heap_item *b)
{
	(void)ctx;
	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	return (a->unit > b->unit) - (a->unit < b->unit);
}
GP_HEAP_DEFINE(fail_heap, heap_item, const void *, item_cmp)

struct gp_fail_source {
	const gp_cluster *c;
	const gp_fail_list *file;
	size_t next;            /* into file->ev */
	gp_fail_gen gen;
	fail_heap heap;
	uint32_t *count;        /* failures drawn per unit */
	double *repair;         /* the drawn repair of the pending failure */
	uint32_t nunits;
};

static double unit_mtbf_h(const gp_fail_source *s, uint32_t unit)
{
	return unit < (uint32_t)s->c->nnodes ? s->gen.mtbf_node_h : s->gen.mtbf_gpu_h;
}

/* Time of unit's next failure after `from` (its n-th, n = count). */
static double draw_next(gp_fail_source *s, uint32_t unit, double from)
{
	uint32_t n = s->count[unit];
	double u = gp_fail_uniform(s->gen.seed, unit, n, DRAW_TTF);
	double mean = unit_mtbf_h(s, unit) * 3600.0;
	double ttf = n == 0 && !s->gen.start_new ? gp_fail_weibull_residual(u, s->gen.shape, mean)
						 : gp_fail_weibull(u, s->gen.shape, mean);

	if (s->gen.repair_h > 0)
		s->repair[unit] = -log(gp_fail_uniform(s->gen.seed, unit, n, DRAW_REPAIR)) *
				  s->gen.repair_h * 3600.0;
	else
		s->repair[unit] = s->gen.repair_h < 0 ? -1.0 : 0.0;
	return from + ttf;
}

gp_fail_source *gp_fail_source_new(const gp_cluster *c, const gp_fail_list *file,
				   const gp_fail_gen *gen)
{
	gp_fail_source *s = gp_xcalloc(1, sizeof(*s));
	uint32_t u;

	s->c = c;
	s->file = file;
	if (gen)
		s->gen = *gen;
	if (!(s->gen.shape > 0))
		s->gen.shape = 1.0;
	if (gen && (gen->mtbf_node_h > 0 || gen->mtbf_gpu_h > 0)) {
		s->nunits = (uint32_t)c->nnodes + (uint32_t)c->ngpus;
		GP_GROW(s->heap.v, s->heap.cap, s->nunits);
		s->count = gp_xcalloc((size_t)s->nunits, sizeof(*s->count));
		s->repair = gp_xcalloc((size_t)s->nunits, sizeof(*s->repair));
		for (u = 0; u < s->nunits; u++)
			if (unit_mtbf_h(s, u) > 0)
				s->heap.v[s->heap.n++] = (heap_item){ draw_next(s, u, 0.0), u, 0 };
		fail_heap_heapify(&s->heap, s);
	}
	return s;
}

void gp_fail_source_free(gp_fail_source *s)
{
	if (!s)
		return;
	fail_heap_release(&s->heap);
	free(s->count);
	free(s->repair);
	free(s);
}

double gp_fail_source_peek(const gp_fail_source *s)
{
	double t = INFINITY;

	if (s->file && s->next < s->file->n)
		t = s->file->ev[s->next].time;
	if (s->heap.n && s->heap.v[0].t < t)
		t = s->heap.v[0].t;
	return t;
}

/* The GPU of global id g: node and local index (binary search over the
 * nodes' first GPUs). */
static void gpu_of(const gp_cluster *c, int g, int *node, int *local)
{
	int lo = 0, hi = c->nnodes - 1;

	while (lo < hi) {
		int mid = lo + (hi - lo + 1) / 2;

		if (c->nodes[mid].first_gpu <= g)
			lo = mid;
		else
			hi = mid - 1;
	}
	*node = lo;
	*local = g - c->nodes[lo].first_gpu;
}

int gp_fail_source_pop(gp_fail_source *s, gp_fail_event *out)
{
	int from_file = s->file && s->next < s->file->n &&
			(!s->heap.n || s->file->ev[s->next].time <= s->heap.v[0].t);

	if (from_file) {
		*out = s->file->ev[s->next++];
		return 0;
	}
	if (!s->heap.n)
		return -1;
	{
		heap_item it = s->heap.v[0];
		uint32_t u = it.unit;

		memset(out, 0, sizeof(*out));
		out->time = it.t;
		out->generated = 1;
		out->repair_s = s->repair[u];
		if (u < (uint32_t)s->c->nnodes) {
			out->node = (int32_t)u;
			out->gpu = -1;
			out->kind = GP_FAIL_NODE;
		} else {
			int node, local;

			gpu_of(s->c, (int)(u - (uint32_t)s->c->nnodes), &node, &local);
			out->node = node;
			out->gpu = (int16_t)local;
			out->kind = GP_FAIL_GPU;
		}
		s->count[u]++;
		if (out->repair_s < 0) {
			/* Never back: the unit leaves the stream. */
			fail_heap_pop(&s->heap, s);
		} else {
			it.t = draw_next(s, u, it.t + out->repair_s);
			fail_heap_sift_down(&s->heap, s, it, 0);
		}
	}
	return 0;
}
