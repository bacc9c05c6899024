/* Allocation-state files (`place --state FILE`, format: man gpuplan,
 * "Allocation state"): what is already allocated on a cluster, one entry
 * per job and node.  Loading validates every entry against the cluster and
 * applies it to a gp_alloc; saving writes the entries back atomically. */
#ifndef GPUPLAN_STATE_H
#define GPUPLAN_STATE_H

#include "gpuplan/model/alloc.h"
#include "gpuplan/model/cluster.h"
#include "gpuplan/util/error.h"
#include "gpuplan/util/util.h"
#include "gpuplan/model/placement.h"

#define GP_STATE_MAX_FILE (64u << 20)
#define GP_STATE_MAX_ENTRIES 1000000

typedef struct gp_state_entry {
	char *job;
	int node;
	int ngpus;
	int gpus[GP_TOPO_MAX_GPUS]; /* local GPU indices */
	int milli;                  /* per-GPU share, 1..1000 */
	int64_t gpu_mem_mib;        /* per-GPU memory, 0 = none */
	int64_t cpu_milli;          /* CPU taken on the node */
	int ncpus;
	int *cpus;                  /* pinned CPU numbers (owned), may be NULL */
	int64_t mem_mib;            /* host memory */
	int nic;                    /* NIC index on the node, -1 none */
} gp_state_entry;

/* One GPU by node and local index. */
typedef struct gp_state_gpu {
	int node, gpu;
} gp_state_gpu;

typedef struct gp_state {
	gp_state_entry *entries;
	size_t n, cap;
	int *down;                  /* nodes the file marks down / draining */
	size_t ndown, capdown;
	int *draining;
	size_t ndraining, capdraining;
	gp_state_gpu *down_gpus;    /* failed GPUs of nodes that are up (`down_gpus`) */
	size_t ndown_gpus, capdown_gpus;
} gp_state;

void gp_state_init(gp_state *s);
void gp_state_release(gp_state *s);

/* Load path, check it against c and apply it to a (initialised for c,
 * nothing allocated yet).  Errors (GP_EINPUT) are located: unknown node,
 * GPU or CPU out of range, double booking, share above what is left,
 * unknown NIC.  On failure s is released and a must be discarded. */
int gp_state_load(const char *path, const gp_cluster *c, gp_alloc *a,
		  gp_state *s, gp_error *err);

/* The same on text in memory (len bytes; path for messages). */
int gp_state_parse(const char *text, size_t len, const char *path, const gp_cluster *c,
		   gp_alloc *a, gp_state *s, gp_error *err);

/* The read-modify-write of every command that commits (place, release,
 * replace): gp_txn_begin on path (create: a missing file is created
 * empty), then its contents loaded as gp_state_parse does.  On success the
 * caller holds t: gp_state_commit writes s and unlocks, gp_txn_abort
 * unlocks only.  On failure nothing is held. */
int gp_state_begin(gp_txn *t, const char *path, int create, double timeout_s,
		   const gp_cluster *c, gp_alloc *a, gp_state *s, gp_error *err);
int gp_state_commit(gp_txn *t, const gp_cluster *c, const gp_state *s, gp_error *err);

/* Mark a GPU of a node that stays up as failed (`down_gpus`): nothing can
 * be placed on it until the entry is removed. */
void gp_state_add_down_gpu(gp_state *s, int node, int gpu);

/* Whether job already holds an allocation in s. */
int gp_state_has_job(const gp_state *s, const char *job);

/* Whether entry i belongs to a job matching pattern (an fnmatch(3) glob
 * such as "in-use@*", or a plain name). */
int gp_state_entry_matches(const gp_state *s, size_t i, const char *pattern);
/* Drop the entries of the jobs matching pattern; returns how many. */
size_t gp_state_remove_jobs(gp_state *s, const char *pattern);

/* Append the parts of a placement as entries of job. */
void gp_state_add_placement(gp_state *s, const char *job, const gp_placement *p);
/* The same, but a part on a node where job already has an entry with the
 * same share joins that entry (one entry per job and node): GPUs, CPUs
 * and memory added, the larger per-GPU memory kept, its NIC kept. */
void gp_state_merge_placement(gp_state *s, const char *job, const gp_placement *p);

/* Write s atomically (temporary file + rename): nothing changes on failure. */
int gp_state_save(const char *path, const gp_cluster *c, const gp_state *s,
		  gp_error *err);

#endif
