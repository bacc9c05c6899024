/* Calibration inputs (perf/calibrate.c, perf/gavel.c): Sia placement
 * CSVs and Gavel's throughput JSON. */
#include "gpuplan/perf/perf.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = gp_fuzz_path(data, size);
	gp_perf_dataset d;
	gp_perf_gavel g;
	gp_error err = GP_ERROR_INIT;
	int rc;

	gp_perf_dataset_init(&d);
	rc = gp_perf_dataset_load(path, &d, &err);
	gp_fuzz_check_status(rc, err.status);
	gp_perf_dataset_release(&d);
	gp_error_clear(&err);
	gp_perf_gavel_init(&g);
	rc = gp_perf_gavel_load(path, &g, &err);
	gp_fuzz_check_status(rc, err.status);
	gp_perf_gavel_release(&g);
	return 0;
}
