/* Times gp_trace_load on one trace: `bench-trace FILE [REPEATS]` prints
 * the rows read and the min / median wall time of REPEATS loads.  Built
 * and run by scripts/bench-trace.sh. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "gpuplan/trace.h"
#include "gpuplan/util.h"

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	int reps = argc > 2 ? atoi(argv[2]) : 10, i;
	double *ms;
	gp_joblist l;
	gp_error err = GP_ERROR_INIT;
	char buf[1200];

	if (argc < 2 || reps < 1) {
		fprintf(stderr, "usage: bench-trace FILE [REPEATS]\n");
		return 2;
	}
	ms = gp_xcalloc((size_t)reps, sizeof(*ms));
	gp_joblist_init(&l);
	for (i = 0; i < reps; i++) {
		double t0 = now_ms();

		if (gp_trace_load(argv[1], NULL, &l, &err)) {
			fprintf(stderr, "%s\n", gp_error_format(&err, buf, sizeof(buf)));
			return 3;
		}
		ms[i] = now_ms() - t0;
	}
	qsort(ms, (size_t)reps, sizeof(*ms), gp_cmp_double);
	printf("%s: %s, %zu jobs; load min %.1f ms, median %.1f ms over %d runs (%.2f M rows/s)\n",
	       argv[1], l.format, l.n, ms[0], ms[reps / 2], reps,
	       (double)l.n / ms[reps / 2] / 1e3);
	gp_joblist_release(&l);
	free(ms);
	return 0;
}
