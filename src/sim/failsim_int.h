/* Internals of the failure source (failsim.c: injection, the hook,
 * summaries; failsim_recover.c: detection, recovery, repair;
 * failsim_place.c: questions about placements). */
#ifndef GPUPLAN_SIM_FAILSIM_INT_H
#define GPUPLAN_SIM_FAILSIM_INT_H

#include "gpuplan/place/replace.h"
#include "gpuplan/sim/failsim.h"
#include "gpuplan/util/util.h"

/* Events of this source: kind in the low 2 bits, a failure index above. */
enum { EV_FAIL = 0, EV_DETECT = 1, EV_REPAIR = 2 };
#define ARG(kind, idx) ((int64_t)(idx) * 4 + (kind))

typedef struct fail_rec {
	gp_fail_event e;
	double detect_t;
	size_t first_row, nrows;
} fail_rec;

struct gp_failsim {
	gp_failsim_config cfg;
	const gp_cluster *c;
	size_t njobs;
	gp_sim_hooks hooks;
	gp_sim *s;
	gp_fail_source *src;
	fail_rec *recs;
	size_t nrecs, cap_recs;
	gp_failsim_row *rows;
	size_t nrows, cap_rows;
	double *recovery;       /* per recovered interruption */
	size_t nrecovery, cap_recovery;
	/* per node / GPU: failures not yet repaired */
	uint16_t *node_fails, *gpu_fails;
	uint16_t *link_fails;
	/* per job */
	double *job_recovery_s, *job_stall_gpu_s;
	double *stall_t;        /* when it stalled, < 0 not stalled by us */
	double *pend_fail_t;    /* restart pending: the failure time */
	int64_t *pend_row;      /* ... and its row, -1 none */
	uint8_t *hit;           /* interrupted at least once */
	/* Productive time of interrupted jobs (ETTR): work kept, in wall
	 * seconds at the speed of the placement it was done on.  f_prev is
	 * the share of the work done when last accounted, full_cur the whole
	 * run time on the current placement. */
	double *prod, *f_prev, *full_cur;
	/* the replacement decision */
	gp_place_cache *pc;
	gp_rng rng;
	gp_placement scratch;
	gp_replace_result res;
	size_t injected, detected, jobs_interrupted, replaced, shrunk, restarted, failed_jobs;
	double stall_gpu_s;
};

/* failsim_place.c */
double gp_failsim_full_of(const gp_failsim *f, int32_t job, const gp_placement *p);
double gp_failsim_held_gpus(const gp_placement *p);
int gp_failsim_uses(const gp_placement *p, const gp_fail_event *e);
int gp_failsim_holds_failed(const gp_failsim *f, const gp_placement *p);

/* failsim_recover.c: the events of a failure's detection and repair. */
int gp_failsim_detect(gp_failsim *f, size_t idx);
int gp_failsim_repair(gp_failsim *f, size_t idx);

#endif
