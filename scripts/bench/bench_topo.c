/* Timings for the topology module: snapshot parse, derive per node type,
 * ring queries (table lookup and, above 12 GPUs, the search). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "gpuplan/io/snapshot.h"
#include "gpuplan/model/topo.h"
#include "gpuplan/util/util.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	gp_topo t;
	gp_topo_derived *d;
	gp_error e = GP_ERROR_INIT;
	gp_rng rng;
	gp_link b;
	double t0;
	long i, sink = 0;
	int k, order[64], n = 16;

	for (k = 1; k < argc; k++) {
		t0 = now();
		for (i = 0; i < 200; i++) {
			if (gp_topo_load(argv[k], &t, &e))
				return 1;
			gp_topo_release(&t);
		}
		printf("parse  %-60s %8.1f us\n", argv[k], (now() - t0) / 200 * 1e6);
	}
	gp_topo_load(argv[1], &t, &e);
	t0 = now();
	d = gp_topo_derived_new(&t, &e);
	printf("derive (all-subset ring table, %d GPUs)  %.2f ms\n", t.ngpus, (now() - t0) * 1e3);
	gp_rng_seed(&rng, 1);
	t0 = now();
	for (i = 0; i < 1000000; i++)
		sink += gp_ring_best(d, gp_rng_next(&rng) & 0xff, order, &b) + b.level;
	printf("ring lookup (8 GPUs, table)  %.1f ns/query\n", (now() - t0) / 1e6 * 1e9);
	gp_topo_derived_free(d);
	gp_topo_release(&t);
	/* 16 GPUs, 4x4 NV torus: search per query. */
	gp_topo_alloc(&t, n, 0, &e);
	for (k = 0; k < n; k++) {
		int r = k / 4, c = k % 4, nb[4] = { r * 4 + (c + 1) % 4, r * 4 + (c + 3) % 4,
						    ((r + 1) % 4) * 4 + c, ((r + 3) % 4) * 4 + c }, j;

		for (j = 0; j < 4; j++)
			t.links[k * n + nb[j]] = (gp_link){ GP_LINK_NV, 2 };
	}
	d = gp_topo_derived_new(&t, &e);
	t0 = now();
	for (i = 0; i < 20000; i++)
		sink += gp_ring_best(d, gp_rng_next(&rng) & 0xffff, order, &b) + b.level;
	printf("ring search (16-GPU torus, random subsets)  %.2f us/query\n", (now() - t0) / 20000 * 1e6);
	gp_topo_derived_free(d);
	gp_topo_release(&t);
	return sink == 42;
}
