/* Development environments (io/envs_yaml.c): the environments YAML, the
 * Adobe notebook template (JSON) and the `gpuplan env` state file, against
 * tests/data/envs (run from the repository root). */
#include <stdio.h>
#include <stdlib.h>

#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/io/envs.h"
#include "fuzz.h"

static gp_cluster cluster;
static gp_env_set envs;
static int loaded;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path;
	gp_env_set set;
	gp_env_trace tr;
	gp_envstate st;
	gp_error err = GP_ERROR_INIT;
	int rc;

	if (!loaded) {
		gp_env_set_init(&envs);
		if (gp_cluster_load("tests/data/envs/cluster.yaml", &cluster, &err) ||
		    gp_envs_load("tests/data/envs/envs.yaml", &cluster, &envs, &err)) {
			fprintf(stderr, "fuzz_envs: run from the repository root (%s)\n", err.msg);
			abort();
		}
		loaded = 1;
	}
	path = gp_fuzz_path(data, size);
	gp_env_set_init(&set);
	rc = gp_envs_load(path, &cluster, &set, &err);
	gp_fuzz_check_status(rc, err.status);
	gp_env_set_release(&set);

	gp_error_clear(&err);
	gp_env_trace_init(&tr);
	rc = gp_adobe_load(path, 60, &tr, &err);
	gp_fuzz_check_status(rc, err.status);
	gp_env_trace_release(&tr);

	gp_error_clear(&err);
	gp_envstate_init(&st);
	rc = gp_envstate_parse((const char *)data, size, "fuzz.yaml", &cluster, &envs, &st, &err);
	gp_fuzz_check_status(rc, err.status);
	gp_envstate_release(&st);
	return 0;
}
