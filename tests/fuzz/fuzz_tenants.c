/* The tenants file (sim/tenants.c): every input either loads, and then
 * each tenant's name is found again, or is refused with a located input
 * error. */
#include <stdlib.h>
#include <string.h>

#include "gpuplan/sim/tenants.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gp_tenants t;
	gp_error err = GP_ERROR_INIT;
	size_t i;
	int rc;

	rc = gp_tenants_parse((const char *)data, size, "fuzz.yaml", &t, &err);
	gp_fuzz_check_status(rc, err.status);
	if (rc == GP_OK) {
		for (i = 0; i < t.n; i++)
			if (gp_tenants_find(&t, t.t[i].name) != (int)i)
				abort();
		gp_tenants_release(&t);
	}
	return 0;
}
