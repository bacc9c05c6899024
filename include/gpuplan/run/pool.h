/* Runs in worker processes: one pool for every command that runs many
 * simulations (whatif's sweeps, compare's grid).
 *
 * Each worker is a fork of the caller that opens its own state (a runner
 * with its caches) and then does one run at a time as the parent hands
 * them out over a socket pair, so that a slow run never holds up the
 * others.  A run's result travels back as a record of any bytes (the
 * caller's encoding); an error travels back as a gp_error.  Workers
 * never print.  With one worker the runs are done in this process. */
#ifndef GPUPLAN_RUN_POOL_H
#define GPUPLAN_RUN_POOL_H

#include <signal.h>
#include <stddef.h>

#include "gpuplan/util/error.h"
#include "gpuplan/util/util.h"

typedef struct gp_runpool_ops {
	/* The state of a worker (or of this process with one worker);
	 * NULL with err set when it cannot be made. */
	void *(*open)(void *ud, gp_error *err);
	/* Run r: its record into out; a status other than GP_OK, with err
	 * set, when it failed. */
	int (*run)(void *state, size_t r, gp_sbuf *out, gp_error *err);
	void (*close)(void *state);
	void *ud;
	/* In this process, before run r is handed out: 1 with r's record
	 * in out when it is known without running (r is then done at once),
	 * else 0.  NULL: every run runs. */
	int (*known)(void *ud, size_t r, gp_sbuf *out);
} gp_runpool_ops;

typedef struct gp_runpool gp_runpool;

/* workers <= 1 runs everything in this process.  ops is copied. */
gp_runpool *gp_runpool_new(const gp_runpool_ops *ops, int workers, gp_error *err);
/* Workers end (a busy one is killed) and are waited for. */
void gp_runpool_free(gp_runpool *p);
int gp_runpool_workers(const gp_runpool *p);

/* The record of run r, in this process, in completion order. */
typedef void (*gp_runpool_done_fn)(void *ud, size_t r, const char *rec, size_t len);
/* Do runs[0..n), handing each record to done.  Stops early, with GP_OK
 * and *stopped set, when *stop becomes non-zero (runs in flight finish
 * and count).  A failing run stops the batch with its error. */
int gp_runpool_run(gp_runpool *p, const size_t *runs, size_t n, gp_runpool_done_fn done,
		   void *ud, volatile sig_atomic_t *stop, int *stopped, gp_error *err);

#endif
