/* The memfd behind gp_fuzz_path. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"

const char *gp_fuzz_path(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	size_t off = 0;

	if (fd < 0) {
		fd = memfd_create("gpuplan-fuzz", 0);
		if (fd < 0) {
			perror("memfd_create");
			abort();
		}
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0))
		abort();
	while (off < size) {
		ssize_t w = pwrite(fd, data + off, size - off, (off_t)off);

		if (w <= 0)
			abort();
		off += (size_t)w;
	}
	return path;
}

void gp_fuzz_check_status(int rc, int err_status)
{
	if (rc != 0 && rc != 3 && rc != 4) {
		fprintf(stderr, "loader returned status %d (expected 0, 3 or 4)\n", rc);
		abort();
	}
	if (rc != 0 && err_status != rc) {
		fprintf(stderr, "loader returned %d but its error says %d\n", rc, err_status);
		abort();
	}
}
