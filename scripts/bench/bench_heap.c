/* The limit of this engine's design on one machine: a bare binary-heap
 * event loop, (time, sequence) order, over the arrivals and finishes of a
 * trace and nothing else (no cluster, no queue, no policy).
 *
 *   bench-heap TRACE [EVENTS] [REPEATS]
 *
 * loads TRACE with gp_trace_load (timed: the trace parsing), then replays
 * it REPEATS times (default 5): the jobs in submit order (sorted, as the
 * engine does), each arrival pushes its finish (submit + duration) and the
 * next arrival, and metrics ticks at even spacing make up the events to
 * EVENTS (default: arrivals + finishes), the count gpuplan's engine took
 * for the same trace (`simulate --engine-stats`).  Prints the parse time,
 * the fastest loop and its events per second.  Built and run by
 * scripts/bench-sim.sh. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpuplan/io/trace.h"
#include "gpuplan/util/util.h"

typedef struct hev {
	double t;
	uint64_t seq;
	int64_t what;   /* >= 0 finish of job, -1 next arrival, -2 tick */
} hev;

static hev *heap;
static size_t nheap;
static uint64_t seq;

static int before(const hev *a, const hev *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void push(double t, int64_t what)
{
	size_t i = nheap++;

	while (i && before(&(hev){ t, seq, what }, &heap[(i - 1) / 2])) {
		heap[i] = heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	heap[i] = (hev){ t, seq++, what };
}

static hev pop(void)
{
	hev top = heap[0], last = heap[--nheap];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < nheap) {
		if (c + 1 < nheap && before(&heap[c + 1], &heap[c]))
			c++;
		if (!before(&heap[c], &last))
			break;
		heap[i] = heap[c];
		i = c;
	}
	heap[i] = last;
	return top;
}

static const gp_joblist *gjobs;

static int by_submit(const void *a, const void *b)
{
	double x = gjobs->jobs[*(const size_t *)a].submit, y = gjobs->jobs[*(const size_t *)b].submit;

	return x < y ? -1 : x > y ? 1 : (*(const size_t *)a > *(const size_t *)b) -
						(*(const size_t *)a < *(const size_t *)b);
}

/* CPU time: on a shared machine wall time measures the neighbours. */
static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* One replay; returns the events taken and a checksum in *sum. */
static size_t replay(const gp_joblist *l, size_t events, double *sum)
{
	size_t n = l->n, next = 0, taken = 0, ticks, *order = malloc((n ? n : 1) * sizeof(*order));
	double first, last = 0, step;
	size_t i;

	for (i = 0; i < n; i++)
		order[i] = i;
	gjobs = l;
	qsort(order, n, sizeof(*order), by_submit);
	first = n ? l->jobs[order[0]].submit : 0;
	for (i = 0; i < n; i++) {
		double end = l->jobs[i].submit + (l->jobs[i].duration > 0 ? l->jobs[i].duration : 0);

		if (end > last)
			last = end;
	}
	ticks = events > 2 * n ? events - 2 * n : 0;
	step = ticks ? (last - first) / (double)ticks : 0;
	nheap = 0;
	seq = 0;
	*sum = 0;
	if (n)
		push(first, -1);
	if (ticks)
		push(first + step, -2);
	while (nheap) {
		hev e = pop();

		taken++;
		*sum += e.t;
		if (e.what == -1) {
			const gp_job *j = &l->jobs[order[next]];

			push(j->submit + (j->duration > 0 ? j->duration : 0), (int64_t)order[next]);
			if (++next < n)
				push(l->jobs[order[next]].submit, -1);
		} else if (e.what == -2 && --ticks) {
			push(e.t + step, -2);
		}
	}
	free(order);
	return taken;
}

int main(int argc, char **argv)
{
	gp_joblist l;
	gp_error err = GP_ERROR_INIT;
	size_t events = 0, taken = 0;
	int reps = 5, r;
	double t0, parse, best = 1e300, sum = 0;
	char buf[1200];

	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: bench-heap TRACE [EVENTS] [REPEATS]\n");
		return 2;
	}
	if (argc > 2)
		events = (size_t)strtoull(argv[2], NULL, 10);
	if (argc > 3 && (reps = atoi(argv[3])) < 1)
		reps = 1;
	gp_joblist_init(&l);
	t0 = now_s();
	if (gp_trace_load(argv[1], NULL, &l, &err)) {
		fprintf(stderr, "bench-heap: %s\n", gp_error_format(&err, buf, sizeof(buf)));
		return 3;
	}
	parse = now_s() - t0;
	heap = malloc((l.n + 2) * sizeof(*heap));
	for (r = 0; r < reps; r++) {
		double t;

		t0 = now_s();
		taken = replay(&l, events, &sum);
		t = now_s() - t0;
		if (t < best)
			best = t;
	}
	printf("bare heap loop: %zu jobs, %zu events in %.4f s CPU (%.1f M events/s), trace parsing %.3f s CPU "
	       "(checksum %.6g)\n", l.n, taken, best, (double)taken / best / 1e6, parse, sum);
	free(heap);
	gp_joblist_release(&l);
	return 0;
}
