/* The interruption state, owned by interrupt.c and interrupt_api.c:
 * progress of the running jobs, the sources' events, nodes and GPUs
 * down.  Unallocated (on = 0) unless preemption, a discipline that
 * interrupts (las) or a source is configured. */
#ifndef GPUPLAN_SIM_INTERRUPT_H
#define GPUPLAN_SIM_INTERRUPT_H

#include <stddef.h>
#include <stdint.h>

#include "gpuplan/sim/sim.h"
#include "nodeix.h"

typedef struct gp_sim_ix {
	int on;                 /* 0: none of this is allocated */
	uint8_t *jst;           /* job -> enum gp_sim_job_status */
	uint32_t *fin_seq;      /* seq of the job's live finish event */
	uint32_t *aux_seq;      /* seq of its live discipline event (has_aux) */
	uint8_t *has_aux;
	double *rem;            /* work left, seconds at speed 1, at acct_t */
	double *acct_t;         /* time progress was last accounted */
	double *ovh;            /* overhead (no progress) left at acct_t */
	double *full;           /* whole run time on the current placement */
	double *seg_t;          /* start of the current run */
	double *seg_work;       /* work done in the current run */
	double *ck_saved;       /* seg_work at its last checkpoint */
	double *ck_next;        /* seg_work of the next checkpoint */
	uint8_t *ck_writing;    /* a checkpoint is being written (in ovh) */
	double *speed;
	double *pend_ovh;       /* overhead to pay at the next start */
	double *past_gpu_s;     /* GPU-seconds held in finished runs */
	int64_t *held;          /* milli-GPU held now */
	int32_t *run_list, *run_pos; /* running and stalled jobs */
	gp_sim_nodeix nodes;    /* ... and per node (nodeix.h) */
	size_t nrun;
	size_t nstale;          /* heap events of jobs that no longer apply */
	size_t nweak, nstrong;  /* pending source events by kind */
	size_t nrequeued;       /* queued jobs that were interrupted */
	double scratch_dur;     /* whole run time on s->scratch */
	const gp_sim_hooks *hooks[GP_SIM_MAX_HOOKS];
	int nhooks;
	int64_t *sev_arg;       /* source events: argument, source, weak */
	int8_t *sev_src;
	uint8_t *sev_weak;
	int32_t *sev_free;
	size_t nsev, sev_cap, nsev_free;
	uint8_t *gpu_down;      /* 0 up, 1 down (share taken), 2 down once free */
	size_t ngpu_pending;
} gp_sim_ix;

#endif
