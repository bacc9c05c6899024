/* A sweep's runs in worker processes (sweep.h): the run layer's pool
 * (run/pool.h) with a runner per worker and a result record per run.
 *
 * A configuration's seeds differ only in what the run draws from its
 * seeded generators.  A run that drew nothing (gp_rng_draws) would be
 * the same run under any seed, so its record stands for every other seed
 * of its configuration, and those are not run again. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/run/pool.h"
#include "gpuplan/util/util.h"
#include "gpuplan/whatif/sweep.h"

struct gp_whatif_pool {
	gp_runpool *p;
	const gp_whatif_spec *spec;
	gp_whatif_hooks hooks;
	/* Per configuration: the record of a run of it that drew nothing,
	 * NULL while none is known (or every seed is to run) */
	char **same;
	size_t *same_len;
	int every_seed;         /* GPUPLAN_TEST_EVERY_SEED: run them all */
	size_t reused;
};

static void *open_runner(void *ud, gp_error *err)
{
	const gp_whatif_pool *p = ud;

	return gp_whatif_runner_new_with(p->spec, &p->hooks, err);
}

/* A run's record: how many draws it made, its result, then the hooks'
 * bytes. */
static int run_one(void *state, size_t r, gp_sbuf *out, gp_error *err)
{
	gp_whatif_result res;
	gp_sbuf rec;
	uint64_t draws = gp_rng_draws();
	int st;

	gp_sbuf_init(&rec);
	st = gp_whatif_runner_record(state, r, &res, &rec, err);
	draws = gp_rng_draws() - draws;
	if (st == GP_OK) {
		gp_sbuf_add(out, (const char *)&draws, sizeof(draws));
		gp_sbuf_add(out, (const char *)&res, sizeof(res));
		if (rec.len)
			gp_sbuf_add(out, rec.buf, rec.len);
	}
	gp_sbuf_release(&rec);
	return st;
}

static void close_runner(void *state)
{
	gp_whatif_runner_free(state);
}

/* Run r is known when a run of its configuration drew nothing. */
static int known_run(void *ud, size_t r, gp_sbuf *out)
{
	gp_whatif_pool *p = ud;
	size_t cfg = r / p->spec->nseeds;
	uint64_t none = 0;

	if (!p->same || !p->same[cfg])
		return 0;
	gp_sbuf_add(out, (const char *)&none, sizeof(none));
	gp_sbuf_add(out, p->same[cfg], p->same_len[cfg]);
	p->reused++;
	return 1;
}

gp_whatif_pool *gp_whatif_pool_new(const gp_whatif_spec *spec, int workers, gp_error *err)
{
	return gp_whatif_pool_new_with(spec, NULL, workers, err);
}

gp_whatif_pool *gp_whatif_pool_new_with(const gp_whatif_spec *spec, const gp_whatif_hooks *hooks,
					int workers, gp_error *err)
{
	gp_whatif_pool *p = gp_xcalloc(1, sizeof(*p));
	gp_runpool_ops ops = { open_runner, run_one, close_runner, p, known_run };
	const char *every = getenv("GPUPLAN_TEST_EVERY_SEED");

	p->spec = spec;
	if (hooks)
		p->hooks = *hooks;
	p->every_seed = every && *every && strcmp(every, "0");
	if (spec->nseeds > 1 && !p->every_seed) {
		p->same = gp_xcalloc(spec->nconfigs, sizeof(*p->same));
		p->same_len = gp_xcalloc(spec->nconfigs, sizeof(*p->same_len));
	}
	p->p = gp_runpool_new(&ops, workers, err);
	if (!p->p) {
		free(p);
		return NULL;
	}
	return p;
}

int gp_whatif_pool_workers(const gp_whatif_pool *p)
{
	return gp_runpool_workers(p->p);
}

void gp_whatif_pool_free(gp_whatif_pool *p)
{
	size_t i;

	if (!p)
		return;
	gp_runpool_free(p->p);
	for (i = 0; p->same && i < p->spec->nconfigs; i++)
		free(p->same[i]);
	free(p->same);
	free(p->same_len);
	free(p);
}

size_t gp_whatif_pool_reused(const gp_whatif_pool *p)
{
	return p->reused;
}

typedef struct relay {
	gp_whatif_pool *p;
	gp_whatif_done_fn done;
	gp_whatif_record_done_fn done_rec;
	void *ud;
} relay;

static void relay_done(void *ud, size_t r, const char *rec, size_t len)
{
	const relay *y = ud;
	gp_whatif_pool *p = y->p;
	gp_whatif_result res;
	uint64_t draws;
	size_t cfg = r / p->spec->nseeds;

	if (len < sizeof(draws) + sizeof(res))
		return;
	memcpy(&draws, rec, sizeof(draws));
	rec += sizeof(draws);
	len -= sizeof(draws);
	if (!draws && p->same && cfg < p->spec->nconfigs && !p->same[cfg]) {
		p->same[cfg] = gp_xmalloc(len);
		memcpy(p->same[cfg], rec, len);
		p->same_len[cfg] = len;
	}
	if (!y->done_rec && len != sizeof(res))
		return;
	memcpy(&res, rec, sizeof(res));
	if (y->done_rec)
		y->done_rec(y->ud, r, &res, rec + sizeof(res), len - sizeof(res));
	else
		y->done(y->ud, r, &res);
}

int gp_whatif_pool_run(gp_whatif_pool *p, const size_t *runs, size_t n, gp_whatif_done_fn done,
		       void *ud, volatile sig_atomic_t *stop, int *stopped, gp_error *err)
{
	relay y = { p, done, NULL, ud };

	return gp_runpool_run(p->p, runs, n, relay_done, &y, stop, stopped, err);
}

int gp_whatif_pool_run_records(gp_whatif_pool *p, const size_t *runs, size_t n,
			       gp_whatif_record_done_fn done, void *ud,
			       volatile sig_atomic_t *stop, int *stopped, gp_error *err)
{
	relay y = { p, NULL, done, ud };

	return gp_runpool_run(p->p, runs, n, relay_done, &y, stop, stopped, err);
}
