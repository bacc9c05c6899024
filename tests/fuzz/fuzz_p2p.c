/* `nvidia-smi topo -p2p r` snapshots (io/p2p.c), read for an 8-GPU and for
 * a 2-GPU topology (the first byte picks a GPU count from 1 to 64 too). */
#include <stdlib.h>

#include "gpuplan/io/snapshot.h"
#include "fuzz.h"

static void one(const char *path, int ngpus)
{
	gp_error err = GP_ERROR_INIT;
	uint8_t *m = NULL;
	int rc = gp_p2p_load(path, ngpus, &m, &err);

	gp_fuzz_check_status(rc, err.status);
	if (rc == 0 && !m)
		abort();
	free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = gp_fuzz_path(data, size);

	one(path, 8);
	one(path, 2);
	if (size > 0)
		one(path, 1 + data[0] % GP_TOPO_MAX_GPUS);
	return 0;
}
