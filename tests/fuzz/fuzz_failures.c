/* Failure inputs (io/failures.c): failure lists against the bundled
 * example cluster, failure model files and lifetime tables (run from the
 * repository root). */
#include <stdio.h>
#include <stdlib.h>

#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/io/failures.h"
#include "fuzz.h"

static gp_cluster cluster;
static int loaded;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path;
	gp_fail_list l;
	gp_fail_model m;
	gp_lifetimes t;
	gp_error err = GP_ERROR_INIT;
	int rc;

	if (!loaded) {
		if (gp_cluster_load("topologies/example-cluster.yaml", &cluster, &err)) {
			fprintf(stderr, "fuzz_failures: run from the repository root (%s)\n", err.msg);
			abort();
		}
		loaded = 1;
	}
	gp_fail_list_init(&l);
	rc = gp_fail_csv_parse((const char *)data, size, "fuzz.csv", &cluster, &l, &err);
	gp_fuzz_check_status(rc, err.status);
	gp_fail_list_release(&l);

	path = gp_fuzz_path(data, size);
	gp_error_clear(&err);
	rc = gp_fail_model_load(path, &m, &err);
	gp_fuzz_check_status(rc, err.status);

	gp_error_clear(&err);
	gp_lifetimes_init(&t);
	rc = gp_lifetimes_load(path, &t, &err);
	gp_fuzz_check_status(rc, err.status);
	gp_lifetimes_release(&t);
	return 0;
}
