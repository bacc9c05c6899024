/* Times gp_trace_load on one trace: `bench-trace FILE [REPEATS]` prints
 * the rows read and the min / median wall time of REPEATS loads.  Built
 * and run by scripts/bench-trace.sh. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "gpuplan/io/trace.h"
#include "gpuplan/util/util.h"

static double now_ms(clockid_t clk)
{
	struct timespec t;

	clock_gettime(clk, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	int reps = argc > 2 ? atoi(argv[2]) : 10, i;
	double *ms, *cpu;
	gp_joblist l;
	gp_error err = GP_ERROR_INIT;
	char buf[1200];

	if (argc < 2 || reps < 1) {
		fprintf(stderr, "usage: bench-trace FILE [REPEATS]\n");
		return 2;
	}
	ms = gp_xcalloc((size_t)reps, sizeof(*ms));
	cpu = gp_xcalloc((size_t)reps, sizeof(*cpu));
	gp_joblist_init(&l);
	for (i = 0; i < reps; i++) {
		double t0 = now_ms(CLOCK_MONOTONIC);
		double c0 = now_ms(CLOCK_PROCESS_CPUTIME_ID);

		if (gp_trace_load(argv[1], NULL, &l, &err)) {
			fprintf(stderr, "%s\n", gp_error_format(&err, buf, sizeof(buf)));
			return 3;
		}
		ms[i] = now_ms(CLOCK_MONOTONIC) - t0;
		cpu[i] = now_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
	}
	qsort(ms, (size_t)reps, sizeof(*ms), gp_cmp_double);
	qsort(cpu, (size_t)reps, sizeof(*cpu), gp_cmp_double);
	/* CPU time too: on a shared machine wall time measures the neighbours. */
	printf("%s: %s, %zu jobs; load wall min %.1f / median %.1f ms, CPU min %.1f / median %.1f ms over %d runs\n",
	       argv[1], l.format, l.n, ms[0], ms[reps / 2], cpu[0], cpu[reps / 2], reps);
	gp_joblist_release(&l);
	free(ms);
	free(cpu);
	return 0;
}
