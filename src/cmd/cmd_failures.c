/* gpuplan failures: failure-model tools.  `failures fit` fits a Weibull
 * time-to-failure distribution to per-unit lifetimes (the OLCF Titan GPU
 * history) with right-censoring, per batch, and writes the model file
 * `simulate --failure-model` reads. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "opt.h"
#include "gpuplan/io/failures.h"
#include "gpuplan/report/report.h"
#include "gpuplan/sim/failfit.h"
#include "gpuplan/util/util.h"

enum { O_OUTPUT = 'o', O_BATCH = 256, O_UNIT, O_JSON };

static const gp_opt fit_opts[] = {
	{ .name = "output", .sc = 'o', .key = O_OUTPUT, .type = GP_OT_STR, .arg = "FILE",
	  .help = "write the failure model of one batch (for\n"
		  "simulate --failure-model), atomically" },
	{ .name = "batch", .key = O_BATCH, .type = GP_OT_STR, .arg = "NAME",
	  .help = "the batch the model file describes (default all)" },
	{ .name = "unit", .key = O_UNIT, .type = GP_OT_STR, .arg = "U",
	  .help = "what a lifetime is of: gpu (default) or node" },
	{ .name = "json", .key = O_JSON, .type = GP_OT_FLAG,
	  .help = "machine-readable output (keys sorted)" },
	{ 0 },
};

const gp_cmd_desc gp_desc_failures_fit = {
	.name = "failures fit", .cmd = "failures",
	.synopsis = "LIFETIMES.csv [--batch NAME] [--unit gpu|node]\n"
		    "             [-o MODEL.yaml] [--json]",
	.min_args = 1, .max_args = 1, .operands = "fit wants one LIFETIMES.csv",
	.about = "Fit a Weibull time-to-failure distribution by maximum likelihood, with\n"
		 "right-censoring for units removed without failure or still running, to\n"
		 "per-unit lifetimes: the OLCF Titan GPU summary (gc_summary_loc.csv:\n"
		 "columns time, dead, batch) or any CSV with a lifetime column (time or\n"
		 "time_s, seconds), a failure column (dead or failed) and optionally a\n"
		 "group column (batch or group).  Prints shape, scale and MTBF with 95 %\n"
		 "confidence intervals for all units and per batch, and the likelihood-ratio\n"
		 "test against an exponential (constant-rate) model.\n",
	.opts = fit_opts,
};

typedef struct fit_row {
	const char *name;
	gp_weibull_result w;
	int ok;
	char error[256];
} fit_row;

#define SEC_PER_YEAR (365.0 * 86400.0)

static json_t *num(double x, int decimals)
{
	return json_real(gp_report_round(x, decimals));
}

static json_t *row_json(const fit_row *r)
{
	json_t *o = json_object();

	json_object_set_new(o, "batch", json_string(r->name));
	json_object_set_new(o, "units", json_integer((json_int_t)r->w.n));
	json_object_set_new(o, "failures", json_integer((json_int_t)r->w.failures));
	json_object_set_new(o, "unit_years", num(r->w.exposure_s / SEC_PER_YEAR, 1));
	if (!r->ok) {
		json_object_set_new(o, "error", json_string(r->error));
		return o;
	}
	json_object_set_new(o, "shape", num(r->w.shape, 4));
	json_object_set_new(o, "shape_ci95", json_pack("[oo]", num(r->w.shape_lo, 4),
							num(r->w.shape_hi, 4)));
	json_object_set_new(o, "scale_hours", num(r->w.scale_s / 3600, 1));
	json_object_set_new(o, "scale_hours_ci95", json_pack("[oo]", num(r->w.scale_lo_s / 3600, 1),
							      num(r->w.scale_hi_s / 3600, 1)));
	json_object_set_new(o, "mtbf_hours", num(r->w.mtbf_s / 3600, 1));
	json_object_set_new(o, "exp_mtbf_hours", num(r->w.exp_mtbf_s / 3600, 1));
	json_object_set_new(o, "failures_per_unit_year",
			    num(r->w.failures / (r->w.exposure_s / SEC_PER_YEAR), 5));
	json_object_set_new(o, "loglik", num(r->w.loglik, 2));
	json_object_set_new(o, "loglik_exponential", num(r->w.loglik_exp, 2));
	json_object_set_new(o, "lr_stat", num(r->w.lr_stat, 2));
	json_object_set_new(o, "lr_p", num(r->w.lr_p, 6));
	return o;
}

static void print_text(const gp_lifetimes *l, const fit_row *rows, int n, const char *unit,
		       gp_sbuf *out)
{
	gp_table t;
	size_t row;
	int i;

	gp_sbuf_addf(out, "failures fit: %s\n", l->source);
	gp_sbuf_addf(out, "%zu %s lifetimes", l->n, unit);
	if (l->skipped)
		gp_sbuf_addf(out, " (%zu with no time in service left out)", l->skipped);
	gp_sbuf_adds(out, "; Weibull time to failure, maximum likelihood with right-censoring\n\n");
	gp_table_init(&t, 9);
	row = gp_table_row(&t);
	gp_table_set(&t, row, 0, "batch");
	gp_table_set(&t, row, 1, "%ss", unit);
	gp_table_set(&t, row, 2, "failures");
	gp_table_set(&t, row, 3, "%s-years", unit);
	gp_table_set(&t, row, 4, "shape (95%% CI)");
	gp_table_set(&t, row, 5, "scale, years (95%% CI)");
	gp_table_set(&t, row, 6, "MTBF, years");
	gp_table_set(&t, row, 7, "exp. MTBF, years");
	gp_table_set(&t, row, 8, "LR vs exp. (p)");
	for (i = 0; i < n; i++) {
		const gp_weibull_result *w = &rows[i].w;

		row = gp_table_row(&t);
		gp_table_set(&t, row, 0, "%s", rows[i].name);
		gp_table_set(&t, row, 1, "%zu", w->n);
		gp_table_set(&t, row, 2, "%zu", w->failures);
		gp_table_set(&t, row, 3, "%.0f", w->exposure_s / SEC_PER_YEAR);
		if (!rows[i].ok) {
			gp_table_set(&t, row, 4, "-");
			gp_table_set(&t, row, 5, "-");
			gp_table_set(&t, row, 6, "-");
			gp_table_set(&t, row, 7, "-");
			gp_table_set(&t, row, 8, "-");
			continue;
		}
		gp_table_set(&t, row, 4, "%.3f (%.3f-%.3f)", w->shape, w->shape_lo, w->shape_hi);
		gp_table_set(&t, row, 5, "%.2f (%.2f-%.2f)", w->scale_s / SEC_PER_YEAR,
			     w->scale_lo_s / SEC_PER_YEAR, w->scale_hi_s / SEC_PER_YEAR);
		gp_table_set(&t, row, 6, "%.2f", w->mtbf_s / SEC_PER_YEAR);
		gp_table_set(&t, row, 7, "%.2f", w->exp_mtbf_s / SEC_PER_YEAR);
		if (w->lr_p < 1e-4)
			gp_table_set(&t, row, 8, "%.1f (<1e-4)", w->lr_stat);
		else
			gp_table_set(&t, row, 8, "%.1f (%.3g)", w->lr_stat, w->lr_p);
	}
	gp_table_render(&t, "", out);
	gp_table_release(&t);
	for (i = 0; i < n; i++)
		if (!rows[i].ok)
			gp_sbuf_addf(out, "batch %s: %s\n", rows[i].name, rows[i].error);
	gp_sbuf_adds(out, "\nshape < 1: failures cluster early; 1: constant rate; > 1: wear-out.\n"
			  "MTBF is the Weibull mean (scale x Gamma(1 + 1/shape)); exp. MTBF is time on\n"
			  "test / failures, the constant-rate estimate.\n");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A Weibull fit per row: "all", then each group in name order. */
static fit_row *fit_rows(const gp_lifetimes *l, char **names, int *nrows)
{
	fit_row *rows;
	double *t = gp_xmalloc((l->n ? l->n : 1) * sizeof(*t));
	unsigned char *f = gp_xmalloc(l->n ? l->n : 1);
	size_t k, m;
	int i;

	for (i = 0; i < l->ngroups; i++)
		names[i] = l->groups[i];
	qsort(names, (size_t)l->ngroups, sizeof(*names), cmp_str);
	*nrows = 1 + l->ngroups;
	rows = gp_xcalloc((size_t)*nrows, sizeof(*rows));
	for (i = 0; i < *nrows; i++) {
		int g = -1;
		gp_error e2 = GP_ERROR_INIT;

		rows[i].name = i == 0 ? "all" : names[i - 1];
		if (i > 0)
			for (g = 0; g < l->ngroups; g++)
				if (!strcmp(l->groups[g], rows[i].name))
					break;
		for (m = 0, k = 0; k < l->n; k++)
			if (i == 0 || l->group[k] == g) {
				t[m] = l->t[k];
				f[m++] = l->failed[k];
			}
		rows[i].ok = gp_weibull_fit(t, f, m, &rows[i].w, &e2) == GP_OK;
		if (!rows[i].ok) {
			rows[i].w.n = m;
			snprintf(rows[i].error, sizeof(rows[i].error), "%s", e2.msg);
		}
	}
	free(t);
	free(f);
	return rows;
}

/* The failure model of one fitted row, written atomically to output. */
static int write_model(const char *output, const char *batch, const char *unit,
		       const gp_lifetimes *l, const fit_row *r)
{
	gp_fail_model mdl;
	gp_sbuf sb;
	char *path = (char *)output;
	char *data;
	size_t len;
	int rc;

	memset(&mdl, 0, sizeof(mdl));
	mdl.unit = strcmp(unit, "node") ? GP_FAIL_GPU : GP_FAIL_NODE;
	mdl.shape = r->w.shape;
	mdl.scale_h = r->w.scale_s / 3600;
	mdl.mtbf_h = r->w.mtbf_s / 3600;
	mdl.units = r->w.n;
	mdl.failures = r->w.failures;
	snprintf(mdl.batch, sizeof(mdl.batch), "%s", batch);
	snprintf(mdl.source, sizeof(mdl.source), "%s", l->source);
	gp_sbuf_init(&sb);
	gp_fail_model_format(&mdl, &sb);
	len = sb.len;
	data = gp_sbuf_detach(&sb);
	rc = gp_cli_write_files(&path, &data, &len, 1);
	free(data);
	return rc;
}

static int print_json(const gp_lifetimes *l, const fit_row *rows, int nrows, const char *unit,
		      const char *output, const char *batch)
{
	json_t *root = json_object(), *arr = json_array();
	int i, rc = GP_OK;

	for (i = 0; i < nrows; i++)
		json_array_append_new(arr, row_json(&rows[i]));
	json_object_set_new(root, "source", json_string(l->source));
	json_object_set_new(root, "unit", json_string(unit));
	json_object_set_new(root, "lifetimes", json_integer((json_int_t)l->n));
	json_object_set_new(root, "left_out_zero_lifetimes", json_integer((json_int_t)l->skipped));
	json_object_set_new(root, "batches", arr);
	json_object_set_new(root, "model_file", output ? json_string(output) : json_null());
	json_object_set_new(root, "model_batch", output ? json_string(batch) : json_null());
	if (json_dumpf(root, stdout, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(10)))
		rc = GP_EIO;
	fputc('\n', stdout);
	json_decref(root);
	return rc;
}

static int fit_cmd(int argc, char **argv)
{
	const char *output = NULL, *batch = "all", *unit = "gpu";
	gp_error err = GP_ERROR_INIT;
	gp_lifetimes l;
	fit_row *rows;
	char **names;
	int json = 0, c, i, nrows, rc = GP_OK, want = -1;
	gp_opt_state o;
	const char *path;

	gp_opt_begin(&o, &gp_desc_failures_fit, argc, argv);
	while ((c = gp_opt_next(&o)) > 0) {
		switch (c) {
		case O_OUTPUT: output = o.arg; break;
		case O_BATCH: batch = o.arg; break;
		case O_UNIT:
			if (strcmp(o.arg, "gpu") && strcmp(o.arg, "node")) {
				gp_opt_end(&o);
				return gp_opt_bad(&o, "--unit is gpu or node, not '%s'", o.arg);
			}
			unit = o.arg;
			break;
		case O_JSON: json = 1; break;
		}
	}
	path = o.nargs ? o.args[0] : NULL;
	gp_opt_end(&o);
	if (c < 0)
		return o.status;
	if (gp_lifetimes_load(path, &l, &err))
		return gp_cli_report(&err);
	names = gp_xmalloc((size_t)(l.ngroups + 1) * sizeof(*names));
	rows = fit_rows(&l, names, &nrows);
	for (i = 0; i < nrows; i++)
		if (!strcmp(rows[i].name, batch))
			want = i;
	if (output && want < 0) {
		gp_sbuf sb;

		gp_sbuf_init(&sb);
		for (i = 0; i < nrows; i++)
			gp_sbuf_addf(&sb, "%s%s", i ? ", " : "", rows[i].name);
		rc = gp_cli_usage_error("failures", "--batch '%s' is not in %s (batches: %s)", batch,
					l.source, sb.buf);
		gp_sbuf_release(&sb);
		goto out;
	}
	if (output && !rows[want].ok) {
		rc = gp_cli_fail(GP_EINPUT, "%s: batch %s: %s", l.source, batch, rows[want].error);
		goto out;
	}
	if (output && (rc = write_model(output, batch, unit, &l, &rows[want])) != GP_OK)
		goto out;
	if (json) {
		rc = print_json(&l, rows, nrows, unit, output, batch);
	} else {
		gp_sbuf sb;

		gp_sbuf_init(&sb);
		print_text(&l, rows, nrows, unit, &sb);
		if (output)
			gp_sbuf_addf(&sb, "\nmodel file %s: batch %s, shape %.4g, MTBF %.6g hours per %s\n",
				     output, batch, rows[want].w.shape, rows[want].w.mtbf_s / 3600, unit);
		fwrite(sb.buf, 1, sb.len, stdout);
		gp_sbuf_release(&sb);
	}
out:
	free(rows);
	free(names);
	gp_lifetimes_release(&l);
	return rc;
}

int cmd_failures(int argc, char **argv)
{
	static const char *const subs[] = { "fit" };

	if (argc < 2)
		return gp_cli_usage_error("failures", "expected a subcommand: fit");
	if (gp_opt_subcommand("failures", argv[1], subs, 1) < 0)
		return GP_EUSAGE;
	return fit_cmd(argc - 1, argv + 1);
}
