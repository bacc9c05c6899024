/* gpuplan predict: train, evaluate and apply the utilization, memory and
 * execution-time predictors (predict.h). */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "gpuplan/io/jobspec.h"
#include "gpuplan/predict/predict.h"
#include "gpuplan/util/util.h"

enum { O_TARGET = 1, O_OUTPUT, O_HIDDEN, O_EPOCHS, O_SEED, O_HOLDOUT, O_SPLIT, O_JSON, O_GAVEL,
       O_SIA, O_MODEL, O_BENCH };

#define JSON_OPT { .name = "json", .sc = 'j', .key = O_JSON, .type = GP_OT_FLAG, \
		   .help = "machine-readable output" }

static const gp_opt train_opts[] = {
	{ .name = "target", .sc = 't', .key = O_TARGET, .type = GP_OT_STR, .arg = "T",
	  .help = "util, memory or time (required)" },
	{ .name = "output", .sc = 'o', .key = O_OUTPUT, .type = GP_OT_STR, .arg = "MODEL.json",
	  .help = "the model to write (required)" },
	{ .name = "hidden", .sc = 'H', .key = O_HIDDEN, .type = GP_OT_STR, .arg = "LIST",
	  .help = "hidden layer sizes (default 64,32)" },
	{ .name = "epochs", .sc = 'e', .key = O_EPOCHS, .type = GP_OT_LONG, .arg = "N", .min = 1,
	  .max = 100000, .help = "training epochs (default 200; time: 100)" },
	{ .name = "seed", .sc = 's', .key = O_SEED, .type = GP_OT_LONG, .arg = "N", .min = 0,
	  .max = 2147483647, .help = "seed of the split and the initial weights (default 42)" },
	{ .name = "holdout", .sc = 'h', .key = O_HOLDOUT, .type = GP_OT_DOUBLE, .arg = "F",
	  .min = 0, .max = 0.9, .what = "a fraction", .help = "rows held out and only measured (default 0.2)" },
	{ .name = "split", .sc = 'S', .key = O_SPLIT, .type = GP_OT_STR, .arg = "HOW",
	  .help = "random (default), depth, width, gpu or gpu:NAME[,...]" },
	JSON_OPT,
	{ 0 },
};

const gp_cmd_desc gp_desc_predict_train = {
	.name = "predict train", .cmd = "predict",
	.synopsis = "DATA.csv... --target util|memory|time -o MODEL.json\n"
		    "  [--hidden 64,32] [--epochs N] [--seed N] [--holdout F]\n"
		    "  [--split random|depth|width|gpu[:NAME,...]] [--json]",
	.min_args = 1, .max_args = -1, .operands = "train needs a DATA.csv",
	.about = "Fit a multilayer perceptron (FANN, RPROP) to a GPUMemNet CSV or a gpuplan\n"
		 "predictor CSV; F of the rows (default 0.2) are held out and only measured: at\n"
		 "random, the deepest or widest networks (--split depth|width), or every row of\n"
		 "one GPU type (--split gpu:NAME; --split gpu = each GPU type in turn, then the\n"
		 "model on all rows).\n",
	.opts = train_opts,
};

static const gp_opt eval_opts[] = { JSON_OPT, { 0 } };

const gp_cmd_desc gp_desc_predict_eval = {
	.name = "predict eval", .cmd = "predict",
	.synopsis = "MODEL.json DATA.csv... [--json]",
	.min_args = 2, .max_args = -1, .operands = "eval needs MODEL.json and DATA.csv",
	.about = "Measure a model on data: n, mae, mape and r2.\n",
	.opts = eval_opts,
};

static const gp_opt dataset_opts[] = {
	{ .name = "gavel", .sc = 'g', .key = O_GAVEL, .type = GP_OT_STR, .arg = "JSON",
	  .help = "Gavel's measured throughputs" },
	{ .name = "sia", .sc = 's', .key = O_SIA, .type = GP_OT_STR, .arg = "DIR",
	  .help = "Sia's profiles" },
	{ .name = "output", .sc = 'o', .key = O_OUTPUT, .type = GP_OT_STR, .arg = "OUT.csv",
	  .help = "the CSV to write (required)" },
	{ 0 },
};

const gp_cmd_desc gp_desc_predict_dataset = {
	.name = "predict dataset", .cmd = "predict",
	.synopsis = "[--gavel JSON] [--sia DIR] -o OUT.csv",
	.min_args = 0, .max_args = 0,
	.about = "Build the execution-time CSV from Gavel's throughputs and Sia's profiles.\n",
	.opts = dataset_opts,
};

static const gp_opt job_opts[] = {
	{ .name = "model", .sc = 'm', .key = O_MODEL, .type = GP_OT_STR, .arg = "PATH",
	  .help = "a model file, or a directory with util.json, memory.json,\n"
		  "time.json (repeatable; default: the bundled models)" },
	JSON_OPT,
	{ .name = "bench", .sc = 'b', .key = O_BENCH, .type = GP_OT_LONG, .arg = "N", .min = 1,
	  .max = 100000000, .hidden = 1 },  /* time N predictions */
	{ 0 },
};

static const gp_cmd_desc *const predict_subs[] = {
	&gp_desc_predict_train, &gp_desc_predict_eval, &gp_desc_predict_dataset, NULL,
};

const gp_cmd_desc gp_desc_predict = {
	.name = "predict",
	.synopsis = "JOB.yaml [--model PATH]... [--json]\n"
		    "train ...\n"
		    "eval ...\n"
		    "dataset ...",
	.min_args = 1, .max_args = 1, .operands = "want one JOB.yaml",
	.about = "The predicted utilization, memory and iteration time of a job on every GPU\n"
		 "model of the catalog, with the bundled models or --model.\n",
	.opts = job_opts,
	.subs = predict_subs,
};

static int parse_hidden(const char *s, gp_pred_train_opts *o)
{
	char *copy = gp_xstrdup(s), *tok, *save = NULL;
	long v;

	o->nhidden = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (o->nhidden == GP_PRED_MAX_HIDDEN || gp_parse_long(tok, 1, 4096, &v)) {
			free(copy);
			return -1;
		}
		o->hidden[o->nhidden++] = (int)v;
	}
	free(copy);
	return o->nhidden ? 0 : -1;
}

static int load_data(char **paths, int n, const gp_catalog *cat, gp_pred_data *d)
{
	gp_error err = GP_ERROR_INIT;
	int i;

	for (i = 0; i < n; i++)
		if (gp_pred_data_load(paths[i], cat, d, &err) != GP_OK)
			return gp_cli_report(&err);
	return GP_OK;
}

static json_t *metrics_json(const gp_pred_metrics *m)
{
	return json_pack("{s:I, s:f, s:f, s:f}", "n", (json_int_t)m->n, "mae", m->mae,
			 "mape", m->mape, "r2", m->r2);
}

static int dump(json_t *o)
{
	int rc = json_dumpf(o, stdout, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(6));

	fputc('\n', stdout);
	json_decref(o);
	return rc ? GP_EIO : GP_OK;
}

static void print_metrics(const char *label, int target, const gp_pred_metrics *m)
{
	if (target == GP_PRED_UTIL)
		printf("  %-22s %6zu rows  MAE %6.2f pp   MAPE %6.1f %%   R2 %6.3f\n", label, m->n,
		       m->mae, m->mape, m->r2);
	else
		printf("  %-22s %6zu rows  MAE %10.4g %s   MAPE %6.2f %%   R2 %6.3f\n", label, m->n,
		       m->mae, gp_pred_target_unit(target), m->mape, m->r2);
}

/* Distinct GPU names of the rows carrying the target, in first-seen order. */
static int data_gpus(const gp_pred_data *d, int target, char names[][48], int cap)
{
	size_t i;
	int n = 0, k;

	for (i = 0; i < d->n; i++) {
		if (isnan(d->rows[i].y[target]))
			continue;
		for (k = 0; k < n; k++)
			if (!strcmp(names[k], d->rows[i].gpu))
				break;
		if (k == n && n < cap)
			snprintf(names[n++], 48, "%s", d->rows[i].gpu);
	}
	return n;
}

/* predict train's command line. */
typedef struct train_args {
	gp_pred_train_opts o;
	const char *out, *split_list;
	int json;
} train_args;

static int parse_split(const char *arg, train_args *a)
{
	if (!strcmp(arg, "random"))
		a->o.split = GP_SPLIT_RANDOM;
	else if (!strcmp(arg, "depth"))
		a->o.split = GP_SPLIT_DEPTH;
	else if (!strcmp(arg, "width"))
		a->o.split = GP_SPLIT_WIDTH;
	else if (!strcmp(arg, "gpu"))
		a->o.split = GP_SPLIT_GPU, a->split_list = "";
	else if (!strncmp(arg, "gpu:", 4) && arg[4])
		a->o.split = GP_SPLIT_GPU, a->split_list = arg + 4;
	else
		return gp_cli_usage_error("predict",
					  "--split must be random, depth, width, gpu or gpu:NAME");
	return GP_OK;
}

/* The options of o (begun by the caller, whose operands are then the
 * DATA.csv files) into a. */
static int parse_train_args(gp_opt_state *op, train_args *a)
{
	gp_opt_state o = *op;
	int c = 0, rc = GP_OK, have_target = 0, have_epochs = 0;

	memset(a, 0, sizeof(*a));
	gp_pred_train_opts_init(&a->o);
	while (rc == GP_OK && (c = gp_opt_next(&o)) > 0) {
		switch (c) {
		case O_TARGET:
			if ((a->o.target = gp_pred_target_parse(o.arg)) < 0)
				rc = gp_opt_bad(&o, "--target must be util, memory or time");
			have_target = 1;
			break;
		case O_OUTPUT: a->out = o.arg; break;
		case O_HIDDEN:
			if (parse_hidden(o.arg, &a->o))
				rc = gp_opt_bad(&o, "--hidden wants 1 to %d sizes in [1, 4096], e.g. 64,32",
						GP_PRED_MAX_HIDDEN);
			break;
		case O_EPOCHS:
			a->o.epochs = (int)o.l;
			have_epochs = 1;
			break;
		case O_SEED: a->o.seed = (uint64_t)o.l; break;
		case O_HOLDOUT: a->o.holdout = o.v; break;
		case O_SPLIT: rc = parse_split(o.arg, a); break;
		case O_JSON: a->json = 1; break;
		}
	}
	if (rc == GP_OK && c < 0)
		rc = o.status;
	*op = o;
	if (rc)
		return rc;
	if (!have_target)
		return gp_cli_usage_error("predict", "train needs --target util|memory|time");
	if (!a->out)
		return gp_cli_usage_error("predict", "train needs -o MODEL.json");
	/* A few hundred time rows overfit past about 100 epochs. */
	if (!have_epochs && a->o.target == GP_PRED_TIME)
		a->o.epochs = 100;
	return GP_OK;
}

/* --split gpu over several GPU types: each held out in turn (its test
 * metrics printed, or into *folds), then the final model on every row. */
static int leave_gpus_out(train_args *a, const gp_pred_data *d, json_t **folds, gp_error *err)
{
	gp_pred_train_report rep;
	gp_predictor *p = NULL;
	char gpus[64][48];
	int k, ngpus = 0, rc = GP_OK;

	if (*a->split_list) {
		char *copy = gp_xstrdup(a->split_list), *tok, *save = NULL;

		for (tok = strtok_r(copy, ",", &save); tok && ngpus < 64;
		     tok = strtok_r(NULL, ",", &save))
			snprintf(gpus[ngpus++], 48, "%s", tok);
		free(copy);
	} else {
		ngpus = data_gpus(d, a->o.target, gpus, 64);
	}
	*folds = json_array();
	if (!a->json)
		printf("%s predictor, leave one GPU type out (%s, %d epochs, hidden",
		       gp_pred_target_name(a->o.target), d->format, a->o.epochs);
	for (k = 0; !a->json && k < a->o.nhidden; k++)
		printf("%s%d", k ? "," : " ", a->o.hidden[k]);
	if (!a->json)
		printf("):\n");
	for (k = 0; k < ngpus; k++) {
		gp_pred_train_opts f = a->o;

		snprintf(f.split_gpu, sizeof(f.split_gpu), "%s", gpus[k]);
		rc = gp_predictor_train(d, &f, &p, &rep, err);
		if (rc != GP_OK)
			break;
		gp_predictor_free(p);
		p = NULL;
		if (a->json)
			json_array_append_new(*folds, json_pack("{s:s, s:o}", "gpu", gpus[k],
								"test", metrics_json(&rep.test)));
		else
			print_metrics(gpus[k], a->o.target, &rep.test);
	}
	a->o.split = GP_SPLIT_RANDOM;
	a->o.holdout = 0;
	return rc;
}

static int print_trained(const train_args *a, const gp_pred_data *d,
			 const gp_pred_train_report *rep, json_t *folds, double secs)
{
	if (a->json) {
		json_t *j = json_object();

		json_object_set_new(j, "target", json_string(gp_pred_target_name(a->o.target)));
		json_object_set_new(j, "model", json_string(a->out));
		json_object_set_new(j, "format", json_string(d->format));
		json_object_set_new(j, "rows", json_integer((json_int_t)rep->rows));
		json_object_set_new(j, "train", metrics_json(&rep->train));
		json_object_set_new(j, "test", metrics_json(&rep->test));
		json_object_set_new(j, "split", json_string(gp_pred_split_name(a->o.split)));
		if (folds)
			json_object_set_new(j, "folds", folds);
		return dump(j);
	}
	if (!folds)
		printf("%s predictor from %zu rows (%s), %s split, %zu held out:\n",
		       gp_pred_target_name(a->o.target), rep->rows, d->format,
		       gp_pred_split_name(a->o.split), rep->test_rows);
	else
		printf("final model on all %zu rows:\n", rep->rows);
	print_metrics("training rows", a->o.target, &rep->train);
	if (rep->test.n)
		print_metrics("held-out rows", a->o.target, &rep->test);
	printf("wrote %s\n", a->out);
	json_decref(folds);
	/* Wall time on stderr: never in an output that tests compare. */
	if (gp_cli_stderr_is_tty())
		fprintf(stderr, "trained in %.2f s\n", secs);
	return GP_OK;
}

static int cmd_train(int argc, char **argv)
{
	train_args a;
	gp_pred_train_report rep;
	gp_pred_data d;
	gp_predictor *p = NULL;
	gp_catalog cat;
	gp_error err = GP_ERROR_INIT;
	gp_opt_state o;
	int rc;
	double t0, secs;
	json_t *folds = NULL;
	struct timespec ts;

	gp_opt_begin(&o, &gp_desc_predict_train, argc, argv);
	if ((rc = parse_train_args(&o, &a))) {
		gp_opt_end(&o);
		return rc;
	}
	gp_catalog_init_builtin(&cat);
	gp_pred_data_init(&d);
	rc = load_data(o.args, o.nargs, &cat, &d);
	gp_opt_end(&o);
	gp_catalog_release(&cat);
	if (rc != GP_OK) {
		gp_pred_data_release(&d);
		return rc;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	t0 = (double)ts.tv_sec + ts.tv_nsec / 1e9;
	if (a.o.split == GP_SPLIT_GPU && *a.split_list && !strchr(a.split_list, ','))
		/* One GPU type held out: the model saved is that fold's. */
		snprintf(a.o.split_gpu, sizeof(a.o.split_gpu), "%s", a.split_list);
	else if (a.o.split == GP_SPLIT_GPU)
		rc = leave_gpus_out(&a, &d, &folds, &err);
	if (rc == GP_OK)
		rc = gp_predictor_train(&d, &a.o, &p, &rep, &err);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	secs = (double)ts.tv_sec + ts.tv_nsec / 1e9 - t0;
	if (rc == GP_OK)
		rc = gp_predictor_save(p, a.out, &err);
	if (rc != GP_OK) {
		json_decref(folds);
		gp_predictor_free(p);
		gp_pred_data_release(&d);
		return gp_cli_report(&err);
	}
	rc = print_trained(&a, &d, &rep, folds, secs);
	gp_predictor_free(p);
	gp_pred_data_release(&d);
	gp_opt_end(&o);
	return rc;
}

static int cmd_eval(int argc, char **argv)
{
	gp_predictor *p;
	gp_pred_data d;
	gp_pred_metrics m;
	gp_catalog cat;
	gp_error err = GP_ERROR_INIT;
	gp_opt_state o;
	int c, json = 0, rc;

	gp_opt_begin(&o, &gp_desc_predict_eval, argc, argv);
	while ((c = gp_opt_next(&o)) > 0)
		json = 1;
	if (c < 0) {
		gp_opt_end(&o);
		return o.status;
	}
	if (gp_predictor_load(o.args[0], &p, &err) != GP_OK) {
		gp_opt_end(&o);
		return gp_cli_report(&err);
	}
	gp_catalog_init_builtin(&cat);
	gp_pred_data_init(&d);
	rc = load_data(o.args + 1, o.nargs - 1, &cat, &d);
	gp_catalog_release(&cat);
	if (rc == GP_OK) {
		gp_predictor_eval(p, &d, NULL, 0, &m);
		if (!m.n)
			rc = gp_cli_fail(GP_EINPUT, "%s: no row carries the %s target", o.args[1],
					 gp_pred_target_name(gp_predictor_target(p)));
		else if (json)
			rc = dump(metrics_json(&m));
		else
			print_metrics(gp_pred_target_name(gp_predictor_target(p)),
				      gp_predictor_target(p), &m);
	}
	gp_predictor_free(p);
	gp_pred_data_release(&d);
	gp_opt_end(&o);
	return rc;
}

static int cmd_dataset(int argc, char **argv)
{
	const char *gavel = NULL, *sia = NULL, *out = NULL;
	gp_error err = GP_ERROR_INIT;
	gp_opt_state o;
	gp_sbuf sb;
	size_t n = 0;
	int c, rc;
	char *paths[1], *data[1];
	size_t len[1];

	gp_opt_begin(&o, &gp_desc_predict_dataset, argc, argv);
	while ((c = gp_opt_next(&o)) > 0) {
		switch (c) {
		case O_GAVEL: gavel = o.arg; break;
		case O_SIA: sia = o.arg; break;
		case O_OUTPUT: out = o.arg; break;
		}
	}
	gp_opt_end(&o);
	if (c < 0)
		return o.status;
	if (!out || (!gavel && !sia))
		return gp_cli_usage_error("predict", "dataset needs --gavel and/or --sia, and -o OUT.csv");
	gp_sbuf_init(&sb);
	rc = gp_pred_build_time(gavel, sia, &sb, &n, &err);
	if (rc != GP_OK) {
		gp_sbuf_release(&sb);
		return gp_cli_report(&err);
	}
	paths[0] = (char *)out;
	data[0] = sb.buf;
	len[0] = sb.len;
	rc = gp_cli_write_files(paths, data, len, 1);
	if (rc == GP_OK)
		printf("wrote %s: %zu measured iteration times\n", out, n);
	gp_sbuf_release(&sb);
	return rc;
}

/* Bundled models: models/ beside the example cluster. */
static const char *default_models(void)
{
	static char dir[4096];

	if (!dir[0])
		snprintf(dir, sizeof(dir), "%s/models", gp_cli_datadir());
	return dir;
}

/* The predictor models: the bundled ones, or each --model (a file or a
 * folder). */
static int load_models(gp_pred_models *models, const char *const *paths, int n, gp_error *err)
{
	int i, rc = GP_OK;

	if (!n)
		rc = gp_pred_models_load(models, default_models(), err);
	for (i = 0; i < n && rc == GP_OK; i++) {
		struct stat st;

		rc = stat(paths[i], &st) == 0 && S_ISREG(st.st_mode) ? gp_pred_models_load_file(models, paths[i], err) :
			       gp_pred_models_load(models, paths[i], err);
	}
	return rc;
}

/* --bench N: one job on one GPU model, the three networks, features
 * included (operator profile once, as the simulator caches it per model). */
static void bench_job(const gp_pred_models *models, const gp_job *job, const gp_pred_ops *ops,
		      const gp_catalog *cat, long bench)
{
	struct timespec t0, t1;
	const gp_gpu_model *g = gp_catalog_find(cat, "A100-SXM4-40GB");
	gp_pred_job pj;
	double sum = 0, us;
	long k;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (k = 0; k < bench; k++) {
		gp_pred_job_on(models, job, ops, g, &pj);
		sum += pj.util;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	us = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / 1e3;
	printf("%ld predictions (util, memory, time on %s): %.2f us each (checksum %.3f)\n",
	       bench, g ? g->name : "?", us / (double)bench, sum / (double)bench);
}

static void print_job_head(const gp_job *job, const gp_pred_ops *ops)
{
	printf("job %s: model %s, batch %d per GPU%s\n", job->id,
	       job->more->model.name[0] ? job->more->model.name : "(explicit)",
	       job->batch_size > 0 ? job->batch_size : ops->default_batch > 0 ? ops->default_batch : 1,
	       ops->approx ? " (operator profile approximate)" : "");
	printf("operators: %s\n", ops->source);
	if (!gp_pred_ops_in_domain(ops))
		printf("note: outside the util/memory training data (MLPs); memory is the larger "
		       "of the predictor and the analytic estimate\n");
	printf("%-18s %8s %11s %12s %14s  %s\n", "GPU", "util %", "memory MiB", "iter s",
	       job->iterations > 0 ? "time s" : "time s (n/a)", "iter from");
}

static json_t *gpu_json(const gp_pred_models *models, const gp_job *job, const gp_gpu_model *m,
			const gp_pred_job *pj)
{
	json_t *g = json_object();

	json_object_set_new(g, "gpu", json_string(m->name));
	json_object_set_new(g, "util_pct", models->util ? json_real(pj->util) : json_null());
	json_object_set_new(g, "memory_mib", models->mem ? json_real(pj->mem_mib) : json_null());
	json_object_set_new(g, "iter_s", models->time ? json_real(pj->iter_s) : json_null());
	json_object_set_new(g, "time_s", models->time && job->iterations > 0 ?
			    json_real(pj->time_s) : json_null());
	json_object_set_new(g, "iter_source", json_string(gp_pred_time_source_name(pj->time_source)));
	json_object_set_new(g, "predictor_iter_s", pj->net_iter_s > 0 ? json_real(pj->net_iter_s) : json_null());
	json_object_set_new(g, "perf_iter_s", pj->perf_iter_s > 0 ? json_real(pj->perf_iter_s) : json_null());
	json_object_set_new(g, "fits_memory",
			    json_boolean(!models->mem || pj->mem_mib <= m->mem_gib * 1024));
	json_object_set_new(g, "memory_source",
			    json_string(pj->mem_analytic ? "analytic" : "predictor"));
	return g;
}

/* The job on every CUDA GPU of the catalog: a table, or JSON. */
static int predict_on_gpus(const gp_pred_models *models, const gp_job *job,
			   const gp_pred_ops *ops, const gp_catalog *cat, int json)
{
	json_t *root, *arr = json ? json_array() : NULL;
	int i;

	if (!json)
		print_job_head(job, ops);
	for (i = 0; i < cat->n; i++) {
		gp_pred_job pj;
		gp_pred_hw hw;

		if (gp_pred_hw_of(&cat->models[i], &hw) != 0 || hw.cc <= 0)
			continue; /* no CUDA device: the data hold none */
		gp_pred_job_on(models, job, ops, &cat->models[i], &pj);
		if (json)
			json_array_append_new(arr, gpu_json(models, job, &cat->models[i], &pj));
		else {
			char tb[32];

			/* no iteration count, no run time: '-' as the JSON's null,
			 * not a time of 0 s */
			if (models->time && job->iterations > 0)
				snprintf(tb, sizeof(tb), "%.6g", pj.time_s);
			else
				snprintf(tb, sizeof(tb), "-");
			printf("%-18s %8.1f %11.0f %12.4g %14s  %s%s\n", cat->models[i].name, pj.util,
			       pj.mem_mib, pj.iter_s, tb, gp_pred_time_source_name(pj.time_source),
			       models->mem && pj.mem_mib > cat->models[i].mem_gib * 1024 ?
			       "  (does not fit)" : "");
		}
	}
	if (!json)
		return GP_OK;
	root = json_object();
	json_object_set_new(root, "job", json_string(job->id));
	json_object_set_new(root, "model", json_string(job->more->model.name));
	json_object_set_new(root, "operator_profile", json_string(ops->source));
	json_object_set_new(root, "approximate_profile", json_boolean(ops->approx));
	json_object_set_new(root, "gpus", arr);
	json_object_set_new(root, "in_training_domain", json_boolean(gp_pred_ops_in_domain(ops)));
	return dump(root);
}

static int cmd_job(int argc, char **argv)
{
	long bench = 0;
	gp_pred_models models;
	gp_pred_ops ops;
	gp_catalog cat;
	gp_job job;
	gp_error err = GP_ERROR_INIT;
	gp_opt_state o;
	const char *mpaths[8], *path;
	int c, json = 0, nm = 0, rc = GP_OK;

	gp_opt_begin(&o, &gp_desc_predict, argc, argv);
	while (rc == GP_OK && (c = gp_opt_next(&o)) > 0) {
		switch (c) {
		case O_BENCH: bench = o.l; break;
		case O_MODEL:
			if (nm == 8)
				rc = gp_opt_bad(&o, "at most 8 --model options");
			else
				mpaths[nm++] = o.arg;
			break;
		case O_JSON: json = 1; break;
		}
	}
	if (rc == GP_OK && c < 0)
		rc = o.status;
	path = o.nargs ? o.args[0] : NULL;
	gp_opt_end(&o);
	if (rc)
		return rc;
	gp_job_init(&job);
	if (gp_jobspec_load(path, &job, &err) != GP_OK) {
		gp_job_release(&job);
		return gp_cli_report(&err);
	}
	gp_pred_models_init(&models);
	if (load_models(&models, mpaths, nm, &err) != GP_OK) {
		gp_pred_models_release(&models);
		gp_job_release(&job);
		return gp_cli_report(&err);
	}
	if (gp_pred_ops_of_desc(&job.more->model, &ops) != 0) {
		/* said before the job is released (which empties its model):
		 * the model it names, or that it names none */
		if (job.more->model.name[0])
			rc = gp_cli_fail(GP_EINPUT, "%s: the job's model ('%s') has no operator "
					 "profile: name a catalog model or give params and layers",
					 path, job.more->model.name);
		else
			rc = gp_cli_fail(GP_EINPUT, "%s: the job names no model to predict from: "
					 "name a catalog model (model:) or give params and layers",
					 path);
		gp_pred_models_release(&models);
		gp_job_release(&job);
		return rc;
	}
	gp_catalog_init_builtin(&cat);
	if (bench) {
		bench_job(&models, &job, &ops, &cat, bench);
		rc = GP_OK;
	} else {
		rc = predict_on_gpus(&models, &job, &ops, &cat, json);
	}
	gp_catalog_release(&cat);
	gp_pred_models_release(&models);
	gp_job_release(&job);
	return rc;
}

int cmd_predict(int argc, char **argv)
{
	if (argc < 2)
		return gp_cli_usage_error("predict", "want train, eval, dataset or a JOB.yaml");
	if (!strcmp(argv[1], "train"))
		return cmd_train(argc - 1, argv + 1);
	if (!strcmp(argv[1], "eval"))
		return cmd_eval(argc - 1, argv + 1);
	if (!strcmp(argv[1], "dataset"))
		return cmd_dataset(argc - 1, argv + 1);
	return cmd_job(argc, argv);
}
