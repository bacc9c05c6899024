/* Alibaba openb CSVs (io/openb.c, io/openb_nodes.c): the node list, the
 * pod list and the node list read as a cluster. */
#include "gpuplan/io/openb.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gp_openb_nodes n;
	gp_openb_pods p;
	gp_cluster c;
	gp_error err = GP_ERROR_INIT;
	int rc;

	gp_openb_nodes_init(&n);
	rc = gp_openb_nodes_parse((const char *)data, size, "fuzz.csv", &n, &err);
	gp_fuzz_check_status(rc, err.status);
	gp_openb_nodes_release(&n);

	gp_error_clear(&err);
	gp_openb_pods_init(&p);
	rc = gp_openb_pods_parse((const char *)data, size, "fuzz.csv", &p, &err);
	gp_fuzz_check_status(rc, err.status);
	gp_openb_pods_release(&p);

	gp_error_clear(&err);
	rc = gp_cluster_load_openb(gp_fuzz_path(data, size), &c, &err);
	gp_fuzz_check_status(rc, err.status);
	if (rc == 0)
		gp_cluster_release(&c);
	return 0;
}
