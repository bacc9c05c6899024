/* The type-llm job file (io/jobspec_llm.c) and what is computed from it:
 * parameter and FLOP counts, per-GPU memory, the suggested layout. */
#include <string.h>

#include "gpuplan/io/jobspec.h"
#include "gpuplan/model/llm.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = gp_fuzz_path(data, size);
	gp_job j;
	gp_error err = GP_ERROR_INIT;
	int rc;

	rc = gp_jobspec_load(path, &j, &err);
	gp_fuzz_check_status(rc, err.status);
	if (rc == 0) {
		if (j.type == GP_JOB_LLM) {
			gp_llm_mem m, sm;
			gp_llm s;
			gp_llm_params P;

			gp_llm_params_count(&j.more->llm, &P);
			gp_llm_memory(&j.more->llm, &m);
			if (!(m.total > 0) || !(gp_llm_model_flops(&j.more->llm) > 0) || !(P.total > 0))
				__builtin_trap();
			if (gp_llm_suggest(&j.more->llm, j.gpus, 8, 80, &s, &sm) == 0 &&
			    !(sm.total <= 80.0 * 1073741824.0))
				__builtin_trap();
		}
		gp_job_release(&j);
	}
	return 0;
}
