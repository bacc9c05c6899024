/* gpuplan import sacct: a cluster's job history (sacct, or Kubernetes
 * pods) into gpuplan's trace CSV, with the recorded start and end of each
 * job beside it (sacct.h says the rules). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpuplan/io/sacct.h"
#include "gpuplan/util/util.h"

#define CMD "import"

enum { O_OUTPUT = 1, O_FIELDS, O_DELIM, O_ALL, O_QUIET };

static const gp_opt sacct_opts[] = {
	{ .name = "output", .sc = 'o', .key = O_OUTPUT, .type = GP_OT_STR, .arg = "FILE",
	  .help = "the trace CSV to write (id, submit, gpus, duration,\n"
		  "state, recorded_start, recorded_end, time_limit, ...)" },
	{ .name = "fields", .key = O_FIELDS, .type = GP_OT_STR, .arg = "LIST",
	  .help = "the --format list of a dump printed without header (-n)" },
	{ .name = "delimiter", .key = O_DELIM, .type = GP_OT_STR, .arg = "C",
	  .help = "sacct's --delimiter (default: read from the header, '|')" },
	{ .name = "all-jobs", .key = O_ALL, .type = GP_OT_FLAG,
	  .help = "keep jobs without GPUs (as CPU jobs)" },
	{ .name = "quiet", .sc = 'q', .key = O_QUIET, .type = GP_OT_FLAG,
	  .help = "no warnings on standard error (errors still print)" },
	{ 0 },
};

const gp_cmd_desc gp_desc_import_sacct = {
	.name = "import sacct", .cmd = "import",
	.synopsis = "FILE... -o TRACE.csv [--fields LIST] [--delimiter C]\n"
		    "  [--all-jobs] [--quiet]",
	.min_args = 0, .max_args = -1,
	.about = "Turn a cluster's job history into a trace to replay: 'sacct' output (-P or -p\n"
		 "with any --delimiter, with or without a header; the default fixed-width table;\n"
		 "--json) or 'kubectl get pods -A -o json'.  '-' reads standard input.\n"
		 "Steps fold into their jobs; array tasks and het-job parts are jobs; a job\n"
		 "printed twice is kept once (the later record); jobs that never started are\n"
		 "left out; jobs still running hold their GPUs to the end of the record.\n",
	.opts = sacct_opts,
};

int gp_cmd_import_sacct(int argc, char **argv)
{
	gp_opt_state op;
	gp_sacct_opts o;
	const char *out = NULL;
	gp_error err = GP_ERROR_INIT;
	gp_atomic_file af;
	gp_sacct h;
	gp_sbuf sb;
	int c = 0, i, quiet = 0, rc = GP_OK, stdin_seen = 0, nfiles = 0;
	char **files;
	size_t w;

	memset(&o, 0, sizeof(o));
	gp_opt_begin(&op, &gp_desc_import_sacct, argc, argv);
	while (rc == GP_OK && (c = gp_opt_next(&op)) > 0) {
		switch (c) {
		case O_OUTPUT: out = op.arg; break;
		case O_FIELDS: o.fields = op.arg; break;
		case O_DELIM:
			if (!*op.arg || strlen(op.arg) > 15)
				rc = gp_opt_bad(&op, "--delimiter takes 1 to 15 bytes");
			o.delimiter = op.arg;
			break;
		case O_ALL: o.all_jobs = 1; break;
		case O_QUIET: quiet = 1; break;
		}
	}
	if (rc == GP_OK && c < 0)
		rc = op.status;
	files = gp_xcalloc((size_t)argc + 1, sizeof(*files));
	/* the operands after the word "sacct" */
	for (i = 0; rc == GP_OK && i < op.nargs; i++) {
		if (!strcmp(op.args[i], "sacct") && !nfiles && !i)
			continue;
		if (!strcmp(op.args[i], "-") && stdin_seen++)
			rc = gp_cli_usage_error(CMD, "'-' given twice");
		files[nfiles++] = op.args[i];
	}
	gp_opt_end(&op);
	if (rc) {
		free(files);
		return rc;
	}
	if (!nfiles) {
		free(files);
		return gp_cli_usage_error(CMD, "no input FILE ('-' reads standard input)");
	}
	if (!out) {
		free(files);
		return gp_cli_usage_error(CMD, "-o TRACE.csv is required");
	}
	gp_sacct_init(&h);
	for (i = 0; i < nfiles && !rc; i++)
		rc = gp_sacct_read_file(&h, files[i], &o, &err);
	if (!rc)
		rc = gp_sacct_finish(&h, &o, &err);
	if (!quiet) {
		for (w = 0; w < h.nwarn; w++)
			fprintf(stderr, "gpuplan: warning: %s\n", h.warnings[w]);
		if (h.warn_total > h.nwarn)
			fprintf(stderr, "gpuplan: warning: %zu more warning(s) like these\n",
				h.warn_total - h.nwarn);
	}
	if (!rc && !(rc = gp_atomic_open(&af, out, &err))) {
		rc = gp_sacct_write_file(&h, af.fp);
		if (rc) {
			gp_atomic_abort(&af);
			gp_error_set(&err, GP_EIO, out, 0, 0, "cannot write the trace");
		} else {
			rc = gp_atomic_commit(&af, &err);
		}
	}
	if (rc) {
		rc = gp_cli_report(&err);
	} else {
		FILE *fp = strcmp(out, "-") ? stdout : stderr;

		gp_sbuf_init(&sb);
		gp_sacct_summary(&h, &sb);
		fprintf(fp, "imported %s (%s, %d file(s)) -> %s\n", sb.buf, h.form, nfiles, out);
		gp_sbuf_release(&sb);
	}
	gp_sacct_release(&h);
	free(files);
	return rc;
}
