/* Internals shared by the environment simulation (envsim.c) and its
 * result helpers (envsim_result.c). */
#ifndef GPUPLAN_ENVS_ENVSIM_INT_H
#define GPUPLAN_ENVS_ENVSIM_INT_H

#include <stddef.h>

#include "gpuplan/envs/envs.h"

/* Mean, p50, p90, p99 and max of v[0..n) (sorted in place) into d. */
void gp_envsim_dist_of(double *v, size_t n, gp_envsim_dist *d);

#endif
