/* Slurm and Kubernetes text (io/import*.c): reading as either family,
 * each starting with the recognition (gp_import_read calls
 * gp_import_sniff; a separate call would only repeat it).  The readers get
 * a NUL after the text, as from gp_read_file in `gpuplan import`. */
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/import.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int family;
	char *text = malloc(size + 1);

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	for (family = 1; family <= 2; family++) {
		gp_inventory inv;
		gp_error err = GP_ERROR_INIT;
		int rc;

		gp_inventory_init(&inv);
		rc = gp_import_read(&inv, family, text, size, "fuzz.txt", &err);
		gp_fuzz_check_status(rc, err.status);
		gp_inventory_release(&inv);
	}
	free(text);
	return 0;
}
