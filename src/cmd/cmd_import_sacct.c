/* gpuplan import sacct: a cluster's job history (sacct, or Kubernetes
 * pods) into gpuplan's trace CSV, with the recorded start and end of each
 * job beside it (sacct.h says the rules). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpuplan/io/sacct.h"
#include "gpuplan/util/util.h"

#define CMD "import"

const char gp_usage_import_sacct[] =
	"usage: gpuplan import sacct FILE... -o TRACE.csv [--fields LIST] [--delimiter C]\n"
	"                            [--all-jobs] [--quiet]\n"
	"\n"
	"Turn a cluster's job history into a trace to replay: 'sacct' output (-P or -p\n"
	"with any --delimiter, with or without a header; the default fixed-width table;\n"
	"--json) or 'kubectl get pods -A -o json'.  '-' reads standard input.\n"
	"Steps fold into their jobs; array tasks and het-job parts are jobs; a job\n"
	"printed twice is kept once (the later record); jobs that never started are\n"
	"left out; jobs still running hold their GPUs to the end of the record.\n"
	"\n"
	"  -o, --output FILE      the trace CSV to write (id, submit, gpus, duration,\n"
	"                         state, recorded_start, recorded_end, time_limit, ...)\n"
	"  --fields LIST          the --format list of a dump printed without header (-n)\n"
	"  --delimiter C          sacct's --delimiter (default: read from the header, '|')\n"
	"  --all-jobs             keep jobs without GPUs (as CPU jobs)\n"
	"  -q, --quiet            no warnings on standard error\n";

int gp_cmd_import_sacct(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "fields", required_argument, NULL, 'f' },
		{ "delimiter", required_argument, NULL, 'd' },
		{ "all-jobs", no_argument, NULL, 'a' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	gp_sacct_opts o;
	const char *out = NULL;
	gp_error err = GP_ERROR_INIT;
	gp_atomic_file af;
	gp_sacct h;
	gp_sbuf sb;
	int c, i, quiet = 0, rc = GP_OK, stdin_seen = 0, nfiles = 0;
	char **files;
	size_t w;

	memset(&o, 0, sizeof(o));
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'f': o.fields = optarg; break;
		case 'd':
			if (!*optarg || strlen(optarg) > 15)
				return gp_cli_usage_error(CMD, "--delimiter takes 1 to 15 bytes");
			o.delimiter = optarg;
			break;
		case 'a': o.all_jobs = 1; break;
		case 'q': quiet = 1; break;
		case 'h':
			fputs(gp_usage_import_sacct, stdout);
			return GP_OK;
		default:
			return gp_cli_usage_error(CMD, "unknown option or missing value: '%s'",
						  argv[optind - 1]);
		}
	}
	files = gp_xcalloc((size_t)argc + 1, sizeof(*files));
	for (i = optind; i < argc; i++) {
		if (!strcmp(argv[i], "sacct") && !nfiles && i == optind)
			continue;
		if (!strcmp(argv[i], "-") && stdin_seen++) {
			free(files);
			return gp_cli_usage_error(CMD, "'-' given twice");
		}
		files[nfiles++] = argv[i];
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
