/* Allocation-state YAML (io/state.c) against the bundled example cluster
 * (run from the repository root). */
#include <stdio.h>
#include <stdlib.h>

#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/io/state.h"
#include "fuzz.h"

static gp_cluster cluster;
static int loaded;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gp_alloc a;
	gp_state s;
	gp_error err = GP_ERROR_INIT;
	int rc;

	if (!loaded) {
		if (gp_cluster_load("topologies/example-cluster.yaml", &cluster, &err)) {
			fprintf(stderr, "fuzz_state: run from the repository root (%s)\n", err.msg);
			abort();
		}
		loaded = 1;
	}
	gp_alloc_init(&a, &cluster);
	rc = gp_state_load(gp_fuzz_path(data, size), &cluster, &a, &s, &err);
	gp_fuzz_check_status(rc, err.status);
	if (rc == 0)
		gp_state_release(&s);
	gp_alloc_release(&a);
	return 0;
}
