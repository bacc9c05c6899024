/* A job history (sacct, Kubernetes pods) read as a trace: the history
 * reader makes the trace CSV that `gpuplan import sacct` writes, and the
 * native dialect reads it, so a replay of the dump and a replay of the
 * imported trace are the same replay. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/io/sacct.h"
#include "gpuplan/io/trace.h"
#include "gpuplan/util/util.h"
#include "trace_int.h"

int gp_trace_history_kind(const char *format, const char *text, size_t len)
{
	if (format && !strcasecmp(format, "sacct"))
		return 1;
	if (format && !strcasecmp(format, "kubernetes"))
		return 3;
	if (format && *format && strcasecmp(format, "auto"))
		return 0;
	return gp_sacct_sniff(text, len);
}

int gp_trace_history_kind_file(const char *format, const char *path)
{
	char head[65536];
	size_t n;
	FILE *fp;

	if (format && *format && strcasecmp(format, "auto"))
		return gp_trace_history_kind(format, "", 0);
	if (!strcmp(path, "-") || !(fp = fopen(path, "rb")))
		return 0;
	n = fread(head, 1, sizeof(head) - 1, fp);
	fclose(fp);
	head[n] = '\0';
	return gp_sacct_sniff(head, n);
}

int gp_trace_history_load(const char *name, const char *path, const char *buf, size_t len,
			  const gp_trace_opts *opts, gp_joblist *out, gp_error *err)
{
	gp_trace_opts o;
	gp_sacct h;
	char *csv = NULL;
	size_t clen = 0;
	FILE *fp;
	int rc;

	gp_sacct_init(&h);
	rc = path ? gp_sacct_read_file(&h, path, NULL, err) : gp_sacct_read(&h, name, buf, len, NULL, err);
	if (!rc)
		rc = gp_sacct_finish(&h, NULL, err);
	if (!rc) {
		fp = open_memstream(&csv, &clen);
		if (!fp) {
			rc = gp_error_set(err, GP_EIO, name, 0, 0, "out of memory");
		} else {
			rc = gp_sacct_write_file(&h, fp);
			if (fclose(fp) && !rc)
				rc = gp_error_set(err, GP_EIO, name, 0, 0, "out of memory");
		}
	}
	if (!rc) {
		if (opts)
			o = *opts;
		else
			gp_trace_opts_init(&o);
		o.format = "gpuplan";
		rc = gp_trace_load_buffer(name, csv, clen, &o, out, err);
	}
	if (!rc) {
		gp_sbuf sb;

		free(out->format);
		out->format = gp_xstrdup(strstr(h.form, "kubectl") ? "kubernetes" : "sacct");
		out->left_out += h.never_started + h.no_gpus;
		free(out->left_out_note);
		gp_sbuf_init(&sb);
		if (h.never_started)
			gp_sbuf_addf(&sb, "%zu never started", h.never_started);
		if (h.no_gpus)
			gp_sbuf_addf(&sb, "%s%zu without GPUs", sb.len ? ", " : "", h.no_gpus);
		if (h.steps)
			gp_sbuf_addf(&sb, "%s%zu steps folded", sb.len ? "; " : "", h.steps);
		if (h.duplicates)
			gp_sbuf_addf(&sb, "%s%zu repeated records kept once", sb.len ? "; " : "",
				     h.duplicates);
		if (h.running)
			gp_sbuf_addf(&sb, "%s%zu still running, held to the end of the record",
				     sb.len ? "; " : "", h.running);
		out->left_out_note = sb.len ? gp_sbuf_detach(&sb) : NULL;
		gp_sbuf_release(&sb);
	}
	if (rc) {
		gp_joblist_release(out);
		gp_joblist_init(out);
	}
	free(csv);
	gp_sacct_release(&h);
	return rc;
}
