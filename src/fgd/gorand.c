/* A random stream bit-compatible with Go's math/rand (Go 1.0 .. 1.19
 * global source): an additive lagged Fibonacci generator
 * x[n] = x[n-607] + x[n-273] mod 2^64, seeded from a Park-Miller LCG whose
 * output is XORed with a fixed "cooked" state.  The FGD artifact draws its
 * pod shuffle, inflation copies and node-name prefixes from this stream, so
 * matching it lets us replay the artifact's exact experiment.
 *
 * The cooked state is, by Go's definition, the generator's raw array after
 * 7.8e12 steps from a seed-1 start (with 20/10-bit shifts).  Instead of
 * storing Go's table we re-derive it: the recurrence is linear over
 * Z/2^64, so the state after N steps is x^N mod (x^607 - x^334 - 1)
 * applied to the initial state — about 45 polynomial squarings. */
#include <stdint.h>
#include <string.h>

#include "gpuplan/fgd/fgd.h"
#include "gpuplan/util/util.h"

#define LEN 607
#define TAP 273
#define INT32MAX 2147483647

static int32_t seedrand(int32_t x)
{
	/* x * 48271 mod (2^31 - 1), Schrage's method */
	const int32_t a = 48271, q = 44488, r = 3399;
	int32_t hi = x / q, lo = x % q;

	x = a * lo - r * hi;
	if (x < 0)
		x += INT32MAX;
	return x;
}

/* out = a * b mod P, P(z) = z^607 - z^334 - 1, coefficients mod 2^64. */
static void polymulmod(uint64_t *out, const uint64_t *a, const uint64_t *b)
{
	static uint64_t t[2 * LEN];
	int i, j;

	memset(t, 0, sizeof(t));
	for (i = 0; i < LEN; i++) {
		uint64_t ai = a[i];

		if (!ai)
			continue;
		for (j = 0; j < LEN; j++)
			t[i + j] += ai * b[j];
	}
	/* z^k = z^(k-273) + z^(k-607) for k >= 607, from the top down */
	for (i = 2 * LEN - 2; i >= LEN; i--) {
		t[i - TAP] += t[i];
		t[i - LEN] += t[i];
		t[i] = 0;
	}
	memcpy(out, t, LEN * sizeof(*out));
}

static uint64_t cooked[LEN];
static int cooked_ready;

static void make_cooked(void)
{
	static uint64_t init[LEN], r[LEN], base[LEN], tmp[LEN];
	uint64_t n = 7800000000000ull; /* 7.8e12 steps */
	int32_t x = 1;
	int i, k;

	/* Initial array of the seed-1 start; position p holds sequence
	 * element x_k with k = 334 - p (mod 607), k in [-606, 0]. */
	for (i = -20; i < LEN; i++) {
		x = seedrand(x);
		if (i >= 0) {
			uint64_t u = (uint64_t)(int64_t)x << 20;

			x = seedrand(x);
			u ^= (uint64_t)(int64_t)x << 10;
			x = seedrand(x);
			u ^= (uint64_t)(int64_t)x;
			init[i] = u;
		}
	}
	/* seq[j] = x_{j-606}, j = 0..606 */
	static uint64_t seq[LEN];
	for (i = 0; i < LEN; i++) {
		int kk = ((334 - i) % LEN + LEN) % LEN; /* k mod 607 in [0,606] */
		int kseq = kk == 0 ? 0 : kk - LEN;      /* k in [-606, 0] */

		seq[kseq + 606] = init[i];
	}
	/* r = z^n mod P by square-and-multiply */
	memset(r, 0, sizeof(r));
	r[0] = 1;
	memset(base, 0, sizeof(base));
	base[1] = 1;
	while (n) {
		if (n & 1)
			polymulmod(r, r, base);
		n >>= 1;
		if (n)
			polymulmod(base, base, base);
	}
	/* x_{-606 + n + j} = sum_i coef(z^(n+j))_i * seq[i]; after n steps the
	 * position p holds x_k for the k in [n-606, n] with k = 334 - p mod 607. */
	for (k = 0; k < LEN; k++) {
		uint64_t v = 0;
		int64_t kabs;
		int pos;

		for (i = 0; i < LEN; i++)
			v += r[i] * seq[i];
		kabs = (int64_t)7800000000000ll - 606 + k;
		pos = (int)((((334 - kabs) % LEN) + LEN) % LEN);
		cooked[pos] = v;
		/* r *= z */
		memcpy(tmp, r, sizeof(tmp));
		{
			uint64_t top = tmp[LEN - 1];

			memmove(r + 1, tmp, (LEN - 1) * sizeof(*r));
			r[0] = top;
			r[334] += top;
		}
	}
	cooked_ready = 1;
}

void gp_gorand_seed(gp_gorand *g, int64_t seed)
{
	int32_t x;
	int i;

	if (!cooked_ready)
		make_cooked();
	g->tap = 0;
	g->feed = LEN - TAP;
	seed %= INT32MAX;
	if (seed < 0)
		seed += INT32MAX;
	if (seed == 0)
		seed = 89482311;
	x = (int32_t)seed;
	for (i = -20; i < LEN; i++) {
		x = seedrand(x);
		if (i >= 0) {
			uint64_t u = (uint64_t)(int64_t)x << 40;

			x = seedrand(x);
			u ^= (uint64_t)(int64_t)x << 20;
			x = seedrand(x);
			u ^= (uint64_t)(int64_t)x;
			g->vec[i] = u ^ cooked[i];
		}
	}
}

static uint64_t uint64_next(gp_gorand *g)
{
	uint64_t x;

	if (--g->tap < 0)
		g->tap += LEN;
	if (--g->feed < 0)
		g->feed += LEN;
	x = g->vec[g->feed] + g->vec[g->tap];
	g->vec[g->feed] = x;
	gp_rng_note_draw();
	return x;
}

int64_t gp_gorand_int63(gp_gorand *g)
{
	return (int64_t)(uint64_next(g) & 0x7fffffffffffffffull);
}

static int32_t int31(gp_gorand *g)
{
	return (int32_t)(gp_gorand_int63(g) >> 32);
}

static int32_t int31n(gp_gorand *g, int32_t n)
{
	int32_t max, v;

	if ((n & (n - 1)) == 0)
		return int31(g) & (n - 1);
	max = (int32_t)((1u << 31) - 1 - (uint32_t)((1u << 31) % (uint32_t)n));
	v = int31(g);
	while (v > max)
		v = int31(g);
	return v % n;
}

/* Go's unexported int31n (Lemire's multiply-shift), used by Shuffle. */
static int32_t int31n_fast(gp_gorand *g, int32_t n)
{
	uint32_t v = (uint32_t)(gp_gorand_int63(g) >> 31);
	uint64_t prod = (uint64_t)v * (uint64_t)n;
	uint32_t low = (uint32_t)prod;

	if (low < (uint32_t)n) {
		uint32_t thresh = (uint32_t)(-n) % (uint32_t)n;

		while (low < thresh) {
			v = (uint32_t)(gp_gorand_int63(g) >> 31);
			prod = (uint64_t)v * (uint64_t)n;
			low = (uint32_t)prod;
		}
	}
	return (int32_t)(prod >> 32);
}

int gp_gorand_intn(gp_gorand *g, int n)
{
	return (int)int31n(g, (int32_t)n);
}

void gp_gorand_shuffle_idx(gp_gorand *g, int32_t *a, int n)
{
	int i;

	for (i = n - 1; i > 0; i--) {
		int j = int31n_fast(g, (int32_t)(i + 1));
		int32_t t = a[i];

		a[i] = a[j];
		a[j] = t;
	}
}

void gp_gorand_perm(gp_gorand *g, int32_t *m, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		int j = gp_gorand_intn(g, i + 1);

		m[i] = m[j];
		m[j] = i;
	}
}
