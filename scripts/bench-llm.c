/* Speed of the large-model model (scripts/bench-llm.sh): one job file and
 * one cluster loaded once, then the memory estimate and the iteration time
 * on the job's layout evaluated N times each.  Prints microseconds per
 * call; never pass/fail. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/io/jobspec.h"
#include "gpuplan/model/memory.h"
#include "gpuplan/perf/llmperf.h"
#include "gpuplan/place/policy.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	gp_cluster c;
	gp_job j;
	gp_placement p;
	gp_alloc a;
	gp_rng rng;
	gp_policy_ctx ctx;
	gp_error err = GP_ERROR_INIT;
	gp_mem_estimate e;
	gp_llm_perf r;
	long n, i;
	double t0, t1, sink = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: bench-llm CLUSTER JOB N\n");
		return 2;
	}
	n = strtol(argv[3], NULL, 10);
	gp_cluster_init(&c);
	if (gp_cluster_load(argv[1], &c, &err) || gp_jobspec_load(argv[2], &j, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	gp_placement_init(&p);
	gp_alloc_init(&a, &c);
	gp_rng_seed(&rng, 1);
	memset(&ctx, 0, sizeof(ctx));
	ctx.cluster = &c;
	ctx.alloc = &a;
	ctx.rng = &rng;
	if (gp_policy_find("bestfit")->place(&ctx, &j, &p) != GP_PLACED) {
		fprintf(stderr, "job does not fit the cluster\n");
		return 1;
	}
	t0 = now();
	for (i = 0; i < n; i++) {
		gp_memory_estimate(&j, &e, &err);
		sink += e.total;
	}
	t1 = now();
	printf("estimate %-28s %9.2f us per call (%ld calls)\n", j.id, (t1 - t0) / n * 1e6, n);
	t0 = now();
	for (i = 0; i < n; i++) {
		if (gp_perf_llm(&c, &j, &p, &r, &err)) {
			fprintf(stderr, "%s\n", err.msg);
			return 1;
		}
		sink += r.iter_s;
	}
	t1 = now();
	printf("perf     %-28s %9.2f us per call (%ld calls, %d GPUs on %d nodes)\n", j.id,
	       (t1 - t0) / n * 1e6, n, r.gpus, r.nodes);
	gp_placement_release(&p);
	gp_alloc_release(&a);
	gp_job_release(&j);
	gp_cluster_release(&c);
	return sink < 0;
}
