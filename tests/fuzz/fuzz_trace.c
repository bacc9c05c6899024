/* Job traces (io/trace*.c): the dialect detected from the header, then
 * the same bytes forced through one dialect chosen by the first byte. */
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/trace.h"
#include "fuzz.h"

static void one(const uint8_t *data, size_t size, const char *format)
{
	gp_trace_opts o;
	gp_joblist l;
	gp_error err = GP_ERROR_INIT;
	char *buf = malloc(size + 1);
	int rc;

	if (!buf)
		abort();
	memcpy(buf, data, size);
	buf[size] = '\0';
	gp_trace_opts_init(&o);
	o.format = format;
	o.skip_bad = format && (size & 1); /* both error paths */
	gp_joblist_init(&l);
	rc = gp_trace_load_buffer("fuzz.csv", buf, size, &o, &l, &err);
	gp_fuzz_check_status(rc, err.status);
	gp_joblist_release(&l);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *const *f = gp_trace_formats();
	size_t n = 0;

	one(data, size, NULL);
	while (f[n])
		n++;
	if (size > 0 && n > 0)
		one(data, size, f[data[0] % n]);
	return 0;
}
