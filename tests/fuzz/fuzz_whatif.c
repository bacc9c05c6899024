/* what-if specs (whatif/spec.c).  The files a spec names resolve beside
 * the input (/proc/self/fd), so most inputs stop there; the YAML and the
 * axes are what this reaches. */
#include "gpuplan/whatif/spec.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gp_whatif_spec s;
	gp_error err = GP_ERROR_INIT;
	int rc;

	gp_whatif_spec_init(&s);
	rc = gp_whatif_spec_load(gp_fuzz_path(data, size), &s, &err);
	gp_fuzz_check_status(rc, err.status);
	gp_whatif_spec_release(&s);
	return 0;
}
