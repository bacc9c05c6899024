/* Independent runs in worker processes, results in run order (compare -j).
 * Private to the command line. */
#ifndef GP_CMD_RUNPOOL_H
#define GP_CMD_RUNPOOL_H

#include <stddef.h>

#include "gpuplan/util/util.h"

typedef struct gp_runpool_ops {
	/* In a worker: do run r and put its record (any bytes) into out;
	 * nonzero stops this worker after the record (the run failed). */
	int (*run)(void *ud, size_t r, gp_sbuf *out);
	/* In the caller, for r = 0, 1, ... in order: the record of run r;
	 * nonzero (an exit status) stops there and is returned. */
	int (*take)(void *ud, size_t r, const char *rec, size_t len);
	/* In the caller, as records arrive (NULL: none): runs done so far. */
	void (*progress)(void *ud, size_t done);
	void *ud;
} gp_runpool_ops;

/* Runs 0..n-1 over nworkers >= 1 forked processes, worker w taking
 * r = w, w + nworkers, ...; the caller drains every pipe as data comes,
 * then hands the records to take() in run order.  A worker that dies
 * without a record of a run it owes is reported on stderr (GP_EIO) when
 * take() reaches that run. */
int gp_runpool(size_t n, int nworkers, const gp_runpool_ops *ops);

#endif
