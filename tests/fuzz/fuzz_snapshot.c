/* `nvidia-smi topo -m` snapshots (io/snapshot.c), lenient and strict. */
#include "gpuplan/io/snapshot.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned opts;

	for (opts = 0; opts <= GP_TOPO_STRICT; opts++) {
		gp_topo t;
		gp_error err = GP_ERROR_INIT;
		int rc = gp_topo_parse_ex((const char *)data, size, "fuzz.txt", opts, &t, &err);

		gp_fuzz_check_status(rc, err.status);
		if (rc == 0)
			gp_topo_release(&t);
	}
	return 0;
}
