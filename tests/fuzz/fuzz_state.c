/* Allocation-state YAML (io/state.c) against the bundled example cluster
 * (run from the repository root).  gp_state_parse gets the text with a NUL
 * after it, as gp_state_load gives it after gp_read_file (no file: a write
 * and an open per input cost more than the parse).  Every input starts
 * from the empty allocation state, index included: gp_alloc_assign from a
 * pristine one built once (building it per input, 336 GPUs and their
 * index, took most of an execution). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/io/state.h"
#include "fuzz.h"

static gp_cluster cluster;
static gp_alloc pristine, a;
static int loaded;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gp_state s;
	gp_error err = GP_ERROR_INIT;
	char *text;
	int rc;

	if (!loaded) {
		if (gp_cluster_load("topologies/example-cluster.yaml", &cluster, &err)) {
			fprintf(stderr, "fuzz_state: run from the repository root (%s)\n", err.msg);
			abort();
		}
		gp_alloc_init(&pristine, &cluster);
		gp_alloc_init(&a, &cluster);
		loaded = 1;
	}
	text = malloc(size + 1);
	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	if (gp_alloc_assign(&a, &pristine))
		abort();
	rc = gp_state_parse(text, size, "fuzz.yaml", &cluster, &a, &s, &err);
	free(text);
	gp_fuzz_check_status(rc, err.status);
	if (rc == 0)
		gp_state_release(&s);
	return 0;
}
