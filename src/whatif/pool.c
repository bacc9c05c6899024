/* A sweep's runs in worker processes (sweep.h): the run layer's pool
 * (run/pool.h) with a runner per worker and a result record per run. */
#include <stdlib.h>
#include <string.h>

#include "gpuplan/run/pool.h"
#include "gpuplan/util/util.h"
#include "gpuplan/whatif/sweep.h"

struct gp_whatif_pool {
	gp_runpool *p;
	const gp_whatif_spec *spec;
	gp_whatif_hooks hooks;
};

static void *open_runner(void *ud, gp_error *err)
{
	const gp_whatif_pool *p = ud;

	return gp_whatif_runner_new_with(p->spec, &p->hooks, err);
}

/* A run's record: its result, then the hooks' bytes. */
static int run_one(void *state, size_t r, gp_sbuf *out, gp_error *err)
{
	gp_whatif_result res;
	gp_sbuf rec;
	int st;

	gp_sbuf_init(&rec);
	st = gp_whatif_runner_record(state, r, &res, &rec, err);
	if (st == GP_OK) {
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

gp_whatif_pool *gp_whatif_pool_new(const gp_whatif_spec *spec, int workers, gp_error *err)
{
	return gp_whatif_pool_new_with(spec, NULL, workers, err);
}

gp_whatif_pool *gp_whatif_pool_new_with(const gp_whatif_spec *spec, const gp_whatif_hooks *hooks,
					int workers, gp_error *err)
{
	gp_whatif_pool *p = gp_xcalloc(1, sizeof(*p));
	gp_runpool_ops ops = { open_runner, run_one, close_runner, p };

	p->spec = spec;
	if (hooks)
		p->hooks = *hooks;
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
	if (!p)
		return;
	gp_runpool_free(p->p);
	free(p);
}

typedef struct relay {
	gp_whatif_done_fn done;
	gp_whatif_record_done_fn done_rec;
	void *ud;
} relay;

static void relay_done(void *ud, size_t r, const char *rec, size_t len)
{
	const relay *y = ud;
	gp_whatif_result res;

	if (len < sizeof(res) || (!y->done_rec && len != sizeof(res)))
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
	relay y = { done, NULL, ud };

	return gp_runpool_run(p->p, runs, n, relay_done, &y, stop, stopped, err);
}

int gp_whatif_pool_run_records(gp_whatif_pool *p, const size_t *runs, size_t n,
			       gp_whatif_record_done_fn done, void *ud,
			       volatile sig_atomic_t *stop, int *stopped, gp_error *err)
{
	relay y = { NULL, done, ud };

	return gp_runpool_run(p->p, runs, n, relay_done, &y, stop, stopped, err);
}
