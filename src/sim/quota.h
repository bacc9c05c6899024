/* The state of tenants' quotas, owned by quota.c (setup, usage and
 * admission, cohort accounting), quota_reclaim.c (reclaim and preemption
 * by share) and quota_plan.c (the quota backfill's reservations hold);
 * quota_int.h holds what they share.  sim_int.h reads a few fields
 * inline (the `gpus` key, reclaim on, the last refusal). */
#ifndef GPUPLAN_SIM_QUOTA_H
#define GPUPLAN_SIM_QUOTA_H

#include <stddef.h>
#include <stdint.h>

#include "gpuplan/model/job.h"

typedef struct gp_sim_quota {
	/* usage per (tenant, quota key), milli-GPU; each node's model key;
	 * the `gpus` key */
	int64_t *usage;
	int32_t *node_res;
	int all;
	/* per cohort and key: what it lends, what is drawn on it; the time
	 * each tenant and cohort was integrated to; a version per usage group
	 * (cohort, or tenant alone) and each tenant's smallest need refused
	 * at that version */
	int64_t *co_pool, *co_drawn;
	double *tt, *ct;
	double *fair;           /* per tenant: its fair share, milli-GPU */
	/* per tenant, what its dominant share is made of (quota.c), kept
	 * as its use changes: a dominant-share pass asks the share of
	 * every job it tries */
	struct gp_sim_qshare {
		int64_t over;   /* its use less its quota on `gpus` */
		int64_t pool;   /* its cohort's pool of `gpus` (0: no cohort
				 * or no such key) */
		double rest;    /* its largest part on the other keys */
		double weight;
	} *sh;
	uint32_t *gver, *fail_ver;
	int64_t *fail_need;
	/* Reclaim: on when a cohort lends and it is not turned off; each
	 * tenant's running jobs (a list), each cohort's members, the trial's
	 * victims and a job's last failed reclaim. */
	int reclaim;
	int32_t *rhead, *rprev, *rnext;
	int32_t *co_off, *co_mem;
	int32_t *vict;
	size_t vict_cap;
	uint64_t *seq, seq_next; /* job -> order of its last start */
	uint32_t *rc_n;         /* job -> times preempted by reclaim or share */
	uint8_t *released;      /* job -> taken in the current trial */
	/* No trade back at one instant (quota_reclaim.c): per job the
	 * instant a preemption last stopped it and its preemptions counted
	 * then; the (taker, loser) tenant pairs of the preemptions at
	 * took_t; a search passed over a candidate by these rules. */
	double *pre_t;
	int32_t *pre_n;
	struct gp_sim_qtook {
		int x, y;
	} *took;
	size_t ntook, took_cap;
	double took_t;
	int barred;
	int one_prio;           /* every job has the same priority */
	uint32_t *rc_ver;       /* per tenant, its last failed reclaim: the */
	int64_t *rc_need, *rc_free; /* group version, need, free share */
	uint32_t *fp_ver;       /* the same for preemption by share */
	int64_t *fp_need, *fp_free;
	struct gp_sim_fptop {   /* per cohort, at a version of its use: the */
		uint32_t ver;   /* two highest shares of tenants running jobs */
		int t1, t2;
		double s1, s2;
	} *fp_top;
	int64_t *fp_dmin;       /* one quota key: per tenant, a bound below
				 * its running jobs' demand */
	struct gp_sim_qcand *fp_c; /* its candidates (several priorities) */
	size_t fp_cap;
	int32_t said_no;        /* the last job whose try the quota refused */
	/* per job shape, the last second ask of admission that found no
	 * placement: its wait_epoch and the node types (the first of each
	 * GPU model) it allowed (ntypes <= 64) */
	uint32_t *fr_epoch;
	uint64_t *fr_types;
	/* which GPU models jobs' model lists accept, asked per node type by
	 * the second ask (gp_job_accepts_model_memo) */
	gp_accepts_memo accepts;
	struct gp_sim_qhold *hold; /* quota held by backfill's reservations */
	size_t nhold, hold_cap;
} gp_sim_quota;

#endif
