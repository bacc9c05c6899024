/* Queue disciplines register with the engine through a table of
 * operations (disciplines.c), so the engine core never names one.
 *
 * A discipline decides the order of the waiting jobs of each class and,
 * if it wants, the whole scheduling pass.  The engine calls:
 *   setup/teardown   once, after its own setup / before its own teardown
 *                    (setup may return an error status);
 *   on_arrival       j joins the queue of its class (arrival, promotion);
 *   on_requeue       an interrupted j waits again (NULL: on_arrival);
 *   on_leave         j leaves its queue (it starts, fails or never runs);
 *   pick_next        the first waiting job of class k, -1 when none;
 *   pass             the scheduling pass after a batch of events; NULL
 *                    runs the engine's head-first pass, which asks
 *                    pick_next, starts the head while it fits (or
 *                    preempts for it) and calls on_blocked with a head
 *                    that does not;
 * and, when interruptions are on, for the jobs that run:
 *   on_start         j starts (from_queue) or resumes after a move;
 *   on_stop          j stops progressing (finish, interruption, stall);
 *   on_wait          an interrupted j waits again (before on_requeue);
 *   on_event         an event the discipline set for j comes due (one
 *                    per job at a time: s->has_aux[j], aux_seq[j] and
 *                    EV_CODE(EV_DISC, j), as las.c's set_aux does).
 * NULL hooks are skipped.  The engine keeps qlen[k]; the hooks keep
 * their own structures.
 *
 * A new discipline: a file with its hooks and one `const
 * gp_sim_discipline` naming them, a value in enum gp_sim_queue (sim.h)
 * and one line in the table of disciplines.c. */
#ifndef GPUPLAN_SIM_DISCIPLINE_H
#define GPUPLAN_SIM_DISCIPLINE_H

#include <stdint.h>

#include "gpuplan/sim/sim.h"

enum {
	GP_SIM_DISC_INTERRUPTS = 1,     /* needs the interruption state */
	GP_SIM_DISC_FIXED_SHARES = 2,   /* running jobs' shares never change */
	GP_SIM_DISC_ARRIVALS = 4,       /* head-first pass: arrivals may start
					 * jobs behind a blocked head */
};

typedef struct gp_sim_discipline {
	const char *name;               /* as --queue spells it */
	unsigned flags;
	int (*setup)(gp_sim *s);
	void (*teardown)(gp_sim *s);
	void (*on_arrival)(gp_sim *s, int32_t j);
	void (*on_requeue)(gp_sim *s, int32_t j);
	void (*on_leave)(gp_sim *s, int32_t j);
	int32_t (*pick_next)(const gp_sim *s, int k);
	void (*pass)(gp_sim *s);
	void (*on_blocked)(gp_sim *s, int32_t head);
	void (*on_start)(gp_sim *s, int32_t j, int from_queue);
	void (*on_stop)(gp_sim *s, int32_t j);
	void (*on_wait)(gp_sim *s, int32_t j);
	void (*on_event)(gp_sim *s, int32_t j);
} gp_sim_discipline;

/* The discipline of enum gp_sim_queue q; NULL when none. */
const gp_sim_discipline *gp_sim_discipline_of(int q);

/* The disciplines (one file each). */
extern const gp_sim_discipline gp_sim_disc_fifo, gp_sim_disc_sjf, gp_sim_disc_priority,
	gp_sim_disc_backfill, gp_sim_disc_las, gp_sim_disc_fifo_skip, gp_sim_disc_fairshare,
	gp_sim_disc_drs;

#endif
