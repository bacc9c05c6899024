/* Failure injection for the simulator: a seeded generator of node and GPU
 * failures, heartbeat detection times, and one time-ordered stream that
 * merges the generator with a failure list (`--failures FILE.csv`).
 *
 * Generator: every node (--mtbf-node) and every GPU (--mtbf-gpu) is a
 * renewal process of its own.  Time to failure is Weibull with shape k
 * (--weibull-shape, 1 = exponential) and the scale that gives the mean
 * MTBF: scale = MTBF / Gamma(1 + 1/k).  By default the fleet is in steady
 * state at time 0: a unit's first failure comes after the forward
 * recurrence time of the renewal process (density S(t) / MTBF, i.e.
 * (t/scale)^k ~ Gamma(1/k)), so failures arrive at the long-run rate
 * 1/MTBF from the start whatever the shape; with start_new every unit is
 * new at time 0 (a wear-out shape then fails little at first).
 * A failed unit is repaired after an exponential time of mean --repair
 * (0 = back at once, < 0 = never) and starts a fresh lifetime then.  The
 * random numbers of the n-th failure of unit u are a hash of (seed, u, n),
 * so a unit's failures do not depend on the others or on the horizon.
 *
 * Heartbeats: each node sends one every `period` seconds at a phase in
 * [0, period) drawn from (seed, node); the failure is seen at the
 * `misses`-th heartbeat that does not arrive, i.e. the first heartbeat
 * due at or after the failure plus (misses - 1) periods.  The detection
 * delay is in [(misses - 1) period, misses x period).
 *
 * The stream allocates once (a heap over the units) and nothing per
 * event. */
#ifndef GPUPLAN_SIM_FAILURES_H
#define GPUPLAN_SIM_FAILURES_H

#include <stddef.h>
#include <stdint.h>

#include "gpuplan/io/failures.h"
#include "gpuplan/model/cluster.h"

typedef struct gp_fail_gen {
	double mtbf_node_h;     /* mean hours between failures per node, 0 = none */
	double mtbf_gpu_h;      /* per GPU, 0 = none */
	double shape;           /* Weibull k (> 0); 1 = exponential */
	double repair_h;        /* mean time to repair, exponential; 0 = at
				 * once; < 0 = never back */
	uint64_t seed;
	int start_new;          /* every unit new at time 0 (else steady state) */
} gp_fail_gen;

void gp_fail_gen_init(gp_fail_gen *g); /* no failures, shape 1, repair 4 h */

#define GP_FAIL_DEFAULT_REPAIR_H 4.0

typedef struct gp_heartbeat {
	double period_s;        /* default 5 */
	int misses;             /* default 3 */
	uint64_t seed;
} gp_heartbeat;

void gp_heartbeat_init(gp_heartbeat *h, uint64_t seed);
/* Phase of node's heartbeats, [0, period). */
double gp_heartbeat_phase(const gp_heartbeat *h, int node);
/* When a failure of node at t_fail is detected. */
double gp_heartbeat_detect(const gp_heartbeat *h, int node, double t_fail);

/* Uniform (0, 1) from a 64-bit hash of (seed, a, b, c): the counter-based
 * random numbers of the generator (and of tests). */
double gp_fail_uniform(uint64_t seed, uint64_t a, uint64_t b, uint64_t c);
/* Weibull sample with shape k and the given mean, from u in (0, 1). */
double gp_fail_weibull(double u, double k, double mean);
/* Forward recurrence time of a Weibull renewal process in steady state
 * (the time to the next failure seen from a random instant), from u. */
double gp_fail_weibull_residual(double u, double k, double mean);

/* Checkpoint-restart theory (J. T. Daly, "A higher order estimate of the
 * optimum checkpoint interval for restart dumps", FGCS 22(3), 2006): the
 * expected effective training time ratio (work / wall time) of a job whose
 * failures arrive at rate 1/mtbf (exponential), with a checkpoint every
 * tau seconds of work costing delta, and restart seconds lost per failure
 * besides the work since the last checkpoint (detection delay included).
 * First order: ETTR = (1 - (restart + (tau + delta) / 2) / mtbf) / (1 + delta / tau).
 * Exponential model: wall / work = mtbf e^(restart/mtbf) (e^((tau+delta)/mtbf) - 1) / tau. */
double gp_daly_ettr_first_order(double tau, double delta, double restart, double mtbf);
double gp_daly_ettr_exponential(double tau, double delta, double restart, double mtbf);

typedef struct gp_fail_source gp_fail_source;

/* file and gen may be NULL; the list must outlive the source. */
gp_fail_source *gp_fail_source_new(const gp_cluster *c, const gp_fail_list *file,
				   const gp_fail_gen *gen);
void gp_fail_source_free(gp_fail_source *s);
/* Time of the next failure; INFINITY when there is none. */
double gp_fail_source_peek(const gp_fail_source *s);
/* Take the next failure (ties: the file's first, then the generator's by
 * unit); returns 0, or -1 when there is none. */
int gp_fail_source_pop(gp_fail_source *s, gp_fail_event *out);

#endif
