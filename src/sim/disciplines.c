/* The table of queue disciplines (discipline.h), in enum gp_sim_queue
 * order: the names --queue takes and the hooks the engine calls. */
#include <string.h>

#include "discipline.h"

static const gp_sim_discipline *const table[GP_SIM_QUEUES] = {
	[GP_SIM_FIFO] = &gp_sim_disc_fifo,
	[GP_SIM_SJF] = &gp_sim_disc_sjf,
	[GP_SIM_BACKFILL] = &gp_sim_disc_backfill,
	[GP_SIM_PRIORITY] = &gp_sim_disc_priority,
	[GP_SIM_LAS] = &gp_sim_disc_las,
	[GP_SIM_FIFO_SKIP] = &gp_sim_disc_fifo_skip,
	[GP_SIM_FAIRSHARE] = &gp_sim_disc_fairshare,
	[GP_SIM_DOMINANT_SHARE] = &gp_sim_disc_drs,
};

const gp_sim_discipline *gp_sim_discipline_of(int q)
{
	return q >= 0 && q < GP_SIM_QUEUES ? table[q] : NULL;
}

const char *gp_sim_queue_name(int q)
{
	return q >= 0 && q < GP_SIM_QUEUES ? table[q]->name : "?";
}

int gp_sim_queue_parse(const char *s)
{
	int q;

	for (q = 0; q < GP_SIM_QUEUES; q++)
		if (!strcmp(s, table[q]->name))
			return q;
	return -1;
}
