/* --queue fifo-skip: first fit in arrival order (PAI's FIFO, Tiresias'
 * fjf) over fifo's queues. */
#include "sim_int.h"

int gp_sim_skip_try(sim *s, int32_t j, int k)
{
	gp_sim_runinfo ri;

	if (!gp_sim_try_place(s, j) &&
	    !(s->cfg->preempt && j == s->qhead[k] && gp_sim_preempt_for(s, j, -1)) &&
	    !(gp_sim_quota_may_reclaim(s, j) && gp_sim_quota_reclaim(s, j)) &&
	    !(s->drs && s->q_reclaim && gp_sim_quota_fair_preempt(s, j)))
		return 0;
	if (gp_sim_job_runinfo(s, j, &ri) == 0)
		gp_sim_start_job(s, j, &ri);
	if (s->ix.on && s->pk.ndeferred) {
		gp_sim_flush_requeue(s);
		return 1;
	}
	return 0;
}

/* fifo-skip: every queued job in arrival order (LS before BE) starts
 * when the policy places it; one that does not fit is passed over.  Only
 * a class's head may preempt.  A job whose shape waited since the last
 * release is passed in O(1) (gp_sim_try_place), so a pass costs the
 * queue's length plus the placements tried.  Nothing freed and nothing
 * arrived: nothing can start. */
static void skip_pass(sim *s)
{
	int32_t j, next;
	int k;

	if (!s->freed && !s->narrived)
		return;
	s->freed = 0;
	s->narrived = 0;
	s->version++;
	for (k = 0; k < NCLASS && s->status == GP_OK; k++) {
		for (j = s->qhead[k]; j >= 0 && s->status == GP_OK; j = next) {
			next = s->next[j];
			if (gp_sim_skip_try(s, j, k)) {
				k = -1; /* victims are back: start over */
				break;
			}
		}
	}
	s->freed = 0;
}

const gp_sim_discipline gp_sim_disc_fifo_skip = {
	.name = "fifo-skip",
	.on_arrival = gp_sim_fifo_arrival,
	.on_requeue = gp_sim_fifo_requeue,
	.on_leave = gp_sim_fifo_leave,
	.pick_next = gp_sim_fifo_head,
	.pass = skip_pass,
};
