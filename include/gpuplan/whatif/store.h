/* Sweep results in SQLite: one row per run in table `runs`, with the
 * configuration (one column per axis, named after it, and the canonical key), the seed,
 * the gpuplan version, the cluster's size and cost, and every summary
 * metric as a column (metrics.h names them).  Rows are keyed by
 * (fingerprint, config, seed): a run already stored for the same inputs is
 * never run again, so a stopped sweep resumes where it stopped, and
 * databases from slices merge by plain union.
 *
 *   sqlite3 sweep.sqlite 'SELECT add_nodes, queue_delay_p90 FROM runs'
 *
 * Writes are batched in transactions (every 200 ms or 256 rows, and at
 * close), so a killed sweep loses at most the last moment of work. */
#ifndef GPUPLAN_WHATIF_STORE_H
#define GPUPLAN_WHATIF_STORE_H

#include <stddef.h>

#include "gpuplan/util/error.h"
#include "gpuplan/whatif/spec.h"
#include "gpuplan/whatif/sweep.h"

/* Schema 2 names every column: the axes after the first eight have columns
 * named after them, and merge aligns columns by name.  A file of schema 1
 * (the same fixed columns) is read, and brought to schema 2 when opened. */
#define GP_WHATIF_SCHEMA 2

typedef struct gp_whatif_store gp_whatif_store;

/* Open (create) a database; GP_EIO when it cannot be opened, GP_EINPUT
 * when it is not a gpuplan what-if database of schema 1 or 2 (a file of
 * schema 1 is brought to 2: its columns keep their names and meaning, and
 * it gains the ones it lacks, NULL in its rows). */
int gp_whatif_store_open(const char *path, gp_whatif_store **out, gp_error *err);
/* Commit what is pending and close; NULL is fine. */
int gp_whatif_store_close(gp_whatif_store *st, gp_error *err);

/* Load every stored run of this spec (same fingerprint) into rs; *found
 * gets their number and *other the rows of other fingerprints. */
int gp_whatif_store_load(gp_whatif_store *st, const gp_whatif_spec *s, const char *fingerprint,
			 gp_whatif_results *rs, size_t *found, size_t *other, gp_error *err);
/* Store one run (committed in batches). */
int gp_whatif_store_put(gp_whatif_store *st, const gp_whatif_spec *s, const char *fingerprint,
			const char *version, size_t run, const gp_whatif_result *r,
			double cost, gp_error *err);

/* Add every run of database src (schema 1 or 2) to st, column by column
 * name (st gains the columns only src has; rows already there are kept);
 * *added gets the number of new rows, *dup those already present. */
int gp_whatif_store_merge(gp_whatif_store *st, const char *src, size_t *added, size_t *dup,
			  gp_error *err);

#endif
