/* Types the engine's parts share (sim_int.h and the per-concern
 * headers): classes, las lists, a heap of queued jobs. */
#ifndef GPUPLAN_SIM_TYPES_H
#define GPUPLAN_SIM_TYPES_H

#include <stdint.h>

#include "gpuplan/sim/sim.h"
#include "gpuplan/util/heap.h"

#define NCLASS 2
#define NLIST (NCLASS * GP_SIM_LAS_MAX_QUEUES)

/* A queued job in a heap whose order reads the simulation (queues.c, las.c). */
typedef struct gp_sim_qitem {
	int32_t job;
	uint32_t seq;
} gp_sim_qitem;
GP_HEAP_TYPE(gp_sim_jheap, gp_sim_qitem);

#endif
