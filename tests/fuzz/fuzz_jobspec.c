/* Job YAML (io/jobspec.c): one job, and a job list (`place --batch`). */
#include "gpuplan/io/jobspec.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = gp_fuzz_path(data, size);
	gp_job j;
	gp_joblist l;
	gp_error err = GP_ERROR_INIT;
	int rc;

	rc = gp_jobspec_load(path, &j, &err);
	gp_fuzz_check_status(rc, err.status);
	if (rc == 0)
		gp_job_release(&j);
	gp_error_clear(&err);
	rc = gp_jobspec_load_list(path, &l, &err);
	gp_fuzz_check_status(rc, err.status);
	if (rc == 0)
		gp_joblist_release(&l);
	return 0;
}
