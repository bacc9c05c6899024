/* Cluster YAML (io/cluster_yaml.c).  The file is named as if it sat in
 * topologies/, so `topology:` names of the bundled clusters resolve when
 * the fuzzer runs from the repository root. */
#include "gpuplan/io/cluster_yaml.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gp_cluster c;
	gp_error err = GP_ERROR_INIT;
	int rc = gp_cluster_parse((const char *)data, size, "topologies/fuzz.yaml", &c, &err);

	gp_fuzz_check_status(rc, err.status);
	if (rc == 0)
		gp_cluster_release(&c);
	return 0;
}
