/* Job histories (io/sacct*.c): sacct's text forms, its JSON, Kubernetes
 * pod lists.  The first byte picks the options (a header given by
 * --fields, a delimiter, --all-jobs); whatever is read and written as a
 * trace must load back as one (a trace that does not is a finding). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/sacct.h"
#include "gpuplan/io/trace.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const delims[] = { NULL, "|", "::", ",", "\t" };
	gp_error err = GP_ERROR_INIT, e2 = GP_ERROR_INIT;
	gp_sacct_opts o;
	gp_trace_opts to;
	gp_joblist l;
	gp_sacct h;
	char *csv = NULL, *text;
	size_t clen = 0;
	FILE *fp;
	int rc;

	memset(&o, 0, sizeof(o));
	if (size > 0) {
		o.all_jobs = data[0] & 1;
		o.delimiter = delims[(data[0] >> 1) % 5];
		if (data[0] & 0x40)
			o.fields = "JobID,Submit,Start,End,ElapsedRaw,TimelimitRaw,State,AllocTRES,NodeList";
	}
	/* the reader's contract: text[len] is '\0' */
	text = malloc(size + 1);
	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	gp_sacct_init(&h);
	rc = gp_sacct_read(&h, "fuzz.txt", text, size, &o, &err);
	gp_fuzz_check_status(rc, err.status);
	if (!rc) {
		rc = gp_sacct_finish(&h, &o, &err);
		gp_fuzz_check_status(rc, err.status);
	}
	if (!rc) {
		fp = open_memstream(&csv, &clen);
		if (!fp || gp_sacct_write_file(&h, fp) || fclose(fp))
			abort();
		gp_trace_opts_init(&to);
		to.format = "gpuplan";
		gp_joblist_init(&l);
		if (gp_trace_load_buffer("fuzz.csv", csv, clen, &to, &l, &e2)) {
			fprintf(stderr, "the trace written does not load: %s:%d:%d: %s\n", e2.file,
				e2.line, e2.col, e2.msg);
			abort();
		}
		gp_joblist_release(&l);
		free(csv);
	}
	gp_sacct_release(&h);
	free(text);
	return 0;
}
