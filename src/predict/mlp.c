/* The perceptron behind every predictor (predict.h), on FANN (Debian
 * libfann-dev, double precision): fully connected layers, symmetric
 * sigmoid hidden units, a linear output unit, batch RPROP training.
 *
 * What gpuplan adds around FANN: feature and target scaling stored with
 * the weights, weight initialisation from gp_rng (FANN's own uses rand(),
 * seeded from the clock unless told otherwise), held-out splits, metrics,
 * and a JSON model file instead of FANN's text format (one file holds the
 * scaling, the layout, the weights and the training record).  FANN's
 * error log is switched off: the library never prints. */
#include <doublefann.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/predict/predict.h"
#include "gpuplan/util/util.h"

#define FORMAT_NAME "gpuplan-predictor"
#define FORMAT_VERSION 1
#define INIT_RANGE 0.1

struct gp_predictor {
	int target;
	int nlayers;
	unsigned layers[GP_PRED_MAX_HIDDEN + 2];
	double mean[GP_PRED_NFEAT], sd[GP_PRED_NFEAT]; /* sd 0: constant, fed as 0 */
	double ymean, ysd;
	double ylo, yhi;        /* time: the trained range of log(t / roofline) */
	struct fann *ann;
	gp_pred_train_opts opts;
	gp_pred_train_report rep;
};

static const char *const split_names[] = { "random", "depth", "width", "gpu" };

const char *gp_pred_split_name(int s)
{
	return s >= 0 && s < (int)GP_ARRAY_SIZE(split_names) ? split_names[s] : "?";
}

void gp_pred_train_opts_init(gp_pred_train_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->target = GP_PRED_UTIL;
	o->hidden[0] = 64;
	o->hidden[1] = 32;
	o->nhidden = 2;
	o->epochs = 200;
	o->seed = 42;
	o->holdout = 0.2;
	o->split = GP_SPLIT_RANDOM;
}

int gp_predictor_target(const gp_predictor *p)
{
	return p->target;
}

void gp_predictor_free(gp_predictor *p)
{
	if (!p)
		return;
	if (p->ann)
		fann_destroy(p->ann);
	free(p);
}

/* The roofline time of a feature vector: training FLOPs per iteration
 * at the FP32 peak, with a 100 us floor (a kernel launch chain). */
static double roofline_s(const double *x)
{
	double us = exp2(x[GP_PRED_FEAT_ROOFLINE]) - 1;

	return (us > 100 ? us : 100) / 1e6;
}

/* Target value as the network sees it (before standardization): util as
 * is; memory as log; time as log of the ratio to the roofline time, so
 * that the network learns an efficiency and a GPU it never saw keeps the
 * scaling of its peak. */
static double fwd_y(int target, double y, const double *x)
{
	if (target == GP_PRED_UTIL)
		return y;
	if (target == GP_PRED_TIME)
		return log(y / roofline_s(x));
	return log(y);
}

static double inv_y(int target, double v, const double *x)
{
	if (target == GP_PRED_UTIL)
		return v < 0 ? 0 : v > 100 ? 100 : v;
	if (target == GP_PRED_TIME)
		return exp(v) * roofline_s(x);
	return exp(v);
}

static void scale_x(const gp_predictor *p, const double *x, fann_type *in)
{
	int k;

	for (k = 0; k < GP_PRED_NFEAT; k++)
		in[k] = p->sd[k] > 0 ? (x[k] - p->mean[k]) / p->sd[k] : 0;
}

double gp_predictor_run(const gp_predictor *p, const double *x)
{
	fann_type in[GP_PRED_NFEAT], *out;
	double v;

	scale_x(p, x, in);
	out = fann_run(p->ann, in);
	v = out[0] * p->ysd + p->ymean;
	/* A model far outside the time data must not get an efficiency no
	 * measured job had: keep the ratio to the roofline inside the
	 * trained range. */
	if (p->target == GP_PRED_TIME && p->yhi > p->ylo)
		v = v < p->ylo ? p->ylo : v > p->yhi ? p->yhi : v;
	return inv_y(p->target, v, x);
}

void gp_predictor_eval(const gp_predictor *p, const gp_pred_data *d,
		       const unsigned char *mask, int want, gp_pred_metrics *m)
{
	double sae = 0, sape = 0, sy = 0, syy = 0, sres = 0;
	size_t i, nape = 0;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < d->n; i++) {
		const gp_pred_row *r = &d->rows[i];
		double y = r->y[p->target], e;

		if (isnan(y) || (mask && mask[i] != want))
			continue;
		e = gp_predictor_run(p, r->x) - y;
		m->n++;
		sae += fabs(e);
		if (y != 0) {
			sape += fabs(e / y);
			nape++;
		}
		sy += y;
		syy += y * y;
		sres += e * e;
	}
	if (!m->n)
		return;
	m->mae = sae / (double)m->n;
	m->mape = nape ? 100 * sape / (double)nape : 0;
	{
		double var = syy - sy * sy / (double)m->n;

		m->r2 = var > 0 ? 1 - sres / var : 0;
	}
}

/* ---- splits ---- */

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* mask[i] = 1 for held-out rows among those carrying the target (idx). */
static int make_split(const gp_pred_data *d, const gp_pred_train_opts *o, const size_t *idx,
		      size_t n, unsigned char *mask, gp_error *err)
{
	size_t i, k;

	if (o->split == GP_SPLIT_GPU) {
		for (i = 0; i < n; i++)
			mask[idx[i]] = gp_catalog_name_eq(d->rows[idx[i]].gpu, o->split_gpu);
	} else if (o->split == GP_SPLIT_RANDOM) {
		size_t *perm = gp_xmalloc((n ? n : 1) * sizeof(*perm));
		size_t ntest = (size_t)floor(o->holdout * (double)n + 0.5);
		gp_rng rng;

		gp_rng_seed_stream(&rng, o->seed, GP_RNG_STREAM_HOLDOUT);
		for (i = 0; i < n; i++)
			perm[i] = idx[i];
		for (i = n; i > 1; i--) {
			size_t j = (size_t)gp_rng_below(&rng, i), t = perm[i - 1];

			perm[i - 1] = perm[j];
			perm[j] = t;
		}
		for (i = 0; i < ntest; i++)
			mask[perm[i]] = 1;
		free(perm);
	} else if (o->holdout > 0) {
		/* The rows at or above the (1 - holdout) quantile of depth or
		 * width: the network never saw anything that deep or wide. */
		double *v = gp_xmalloc((n ? n : 1) * sizeof(*v)), thr;

		for (i = 0; i < n; i++)
			v[i] = o->split == GP_SPLIT_DEPTH ? d->rows[idx[i]].depth :
							  d->rows[idx[i]].width;
		qsort(v, n, sizeof(*v), cmp_dbl);
		k = (size_t)floor((1 - o->holdout) * (double)n);
		thr = v[k < n ? k : n - 1];
		if (thr <= v[0]) /* nothing below the cut: hold out only the top */
			thr = v[n - 1];
		free(v);
		for (i = 0; i < n; i++) {
			const gp_pred_row *r = &d->rows[idx[i]];

			mask[idx[i]] = (o->split == GP_SPLIT_DEPTH ? r->depth : r->width) >= thr;
		}
	}
	for (i = k = 0; i < n; i++)
		k += mask[idx[i]];
	if (k == n)
		return gp_error_set(err, GP_EUSAGE, NULL, 0, 0,
				    "the %s split holds out every row: nothing left to train on",
				    gp_pred_split_name(o->split));
	if (o->split == GP_SPLIT_GPU && k == 0)
		return gp_error_set(err, GP_EUSAGE, NULL, 0, 0,
				    "no row of the data was measured on '%s'", o->split_gpu);
	return GP_OK;
}

/* ---- training ---- */

static struct fann *new_ann(const gp_predictor *p)
{
	struct fann *ann = fann_create_standard_array((unsigned)p->nlayers, p->layers);

	if (!ann)
		return NULL;
	fann_set_error_log((struct fann_error *)ann, NULL);
	fann_set_activation_function_hidden(ann, FANN_SIGMOID_SYMMETRIC);
	fann_set_activation_function_output(ann, FANN_LINEAR);
	fann_set_training_algorithm(ann, FANN_TRAIN_RPROP);
	return ann;
}

/* Connection k of fann_get_connection_array is ann->weights[k] (FANN
 * numbers connections in weight-array order); fann_set_weight_array would
 * search the whole network for each connection, quadratic in its size, so
 * the weights are written in place. */
static void init_weights(struct fann *ann, uint64_t seed)
{
	unsigned n = fann_get_total_connections(ann), i;
	gp_rng rng;

	gp_rng_seed(&rng, seed);
	for (i = 0; i < n; i++)
		ann->weights[i] = (gp_rng_double(&rng) * 2 - 1) *
				  INIT_RANGE;
}

/* Feature and target scaling from the training rows only (idx[0..n)
 * without those mask holds out); returns how many rows train. */
static size_t fit_scaling(gp_predictor *p, const gp_pred_data *d, const size_t *idx, size_t n,
			  const unsigned char *mask)
{
	int k, target = p->target;
	size_t i, ntr = 0;

	for (i = 0; i < n; i++) {
		const gp_pred_row *r = &d->rows[idx[i]];

		if (mask[idx[i]])
			continue;
		ntr++;
		for (k = 0; k < GP_PRED_NFEAT; k++)
			p->mean[k] += r->x[k];
		p->ymean += fwd_y(target, r->y[target], r->x);
	}
	for (k = 0; k < GP_PRED_NFEAT; k++)
		p->mean[k] /= (double)ntr;
	p->ymean /= (double)ntr;
	p->ylo = INFINITY;
	p->yhi = -INFINITY;
	for (i = 0; i < n; i++) {
		const gp_pred_row *r = &d->rows[idx[i]];
		double y;

		if (mask[idx[i]])
			continue;
		y = fwd_y(target, r->y[target], r->x);
		if (y < p->ylo)
			p->ylo = y;
		if (y > p->yhi)
			p->yhi = y;
		for (k = 0; k < GP_PRED_NFEAT; k++)
			p->sd[k] += (r->x[k] - p->mean[k]) * (r->x[k] - p->mean[k]);
		y = fwd_y(target, r->y[target], r->x) - p->ymean;
		p->ysd += y * y;
	}
	for (k = 0; k < GP_PRED_NFEAT; k++) {
		p->sd[k] = sqrt(p->sd[k] / (double)ntr);
		if (p->sd[k] < 1e-9 * (1 + fabs(p->mean[k])))
			p->sd[k] = 0;
	}
	p->ysd = sqrt(p->ysd / (double)ntr);
	if (!(p->ysd > 0))
		p->ysd = 1;
	return ntr;
}

/* The network, its weights seeded, trained on the ntr scaled rows. */
static int train_net(gp_predictor *p, const gp_pred_data *d, const size_t *idx, size_t n,
		     const unsigned char *mask, size_t ntr, gp_error *err)
{
	struct fann_train_data *td;
	size_t i, t;
	int e, target = p->target;

	p->ann = new_ann(p);
	td = fann_create_train((unsigned)ntr, GP_PRED_NFEAT, 1);
	if (!p->ann || !td) {
		if (td)
			fann_destroy_train(td);
		return gp_error_set(err, GP_EIO, NULL, 0, 0, "FANN could not allocate the network");
	}
	for (i = t = 0; i < n; i++) {
		const gp_pred_row *r = &d->rows[idx[i]];

		if (mask[idx[i]])
			continue;
		scale_x(p, r->x, td->input[t]);
		td->output[t][0] = (fwd_y(target, r->y[target], r->x) - p->ymean) / p->ysd;
		t++;
	}
	init_weights(p->ann, p->opts.seed);
	for (e = 0; e < p->opts.epochs; e++)
		fann_train_epoch(p->ann, td);
	fann_destroy_train(td);
	return GP_OK;
}

int gp_predictor_train(const gp_pred_data *d, const gp_pred_train_opts *o,
		       gp_predictor **out, gp_pred_train_report *rep, gp_error *err)
{
	gp_predictor *p;
	size_t *idx, n = 0, ntr, i;
	unsigned char *mask;
	int k, rc;

	*out = NULL;
	memset(rep, 0, sizeof(*rep));
	if (o->target < 0 || o->target >= GP_PRED_NTARGETS || o->nhidden < 1 ||
	    o->nhidden > GP_PRED_MAX_HIDDEN || o->epochs < 1 || !(o->holdout >= 0) ||
	    !(o->holdout < 1))
		return gp_error_set(err, GP_EUSAGE, NULL, 0, 0, "bad training options");
	fann_set_error_log(NULL, NULL);
	idx = gp_xmalloc((d->n ? d->n : 1) * sizeof(*idx));
	for (i = 0; i < d->n; i++) {
		double y = d->rows[i].y[o->target];

		if (!isnan(y) && (o->target == GP_PRED_UTIL || y > 0))
			idx[n++] = i;
	}
	if (n < 2) {
		free(idx);
		return gp_error_set(err, GP_EINPUT, d->path, 0, 0,
				    "%zu rows carry the %s target; training needs at least 2", n,
				    gp_pred_target_name(o->target));
	}
	mask = gp_xcalloc(d->n ? d->n : 1, 1);
	rc = make_split(d, o, idx, n, mask, err);
	for (k = 0; rc == GP_OK && k < o->nhidden; k++)
		if (o->hidden[k] < 1 || o->hidden[k] > 4096)
			rc = gp_error_set(err, GP_EUSAGE, NULL, 0, 0,
					  "hidden layer sizes must be in [1, 4096]");
	if (rc != GP_OK) {
		free(idx);
		free(mask);
		return rc;
	}
	p = gp_xcalloc(1, sizeof(*p));
	p->target = o->target;
	p->opts = *o;
	p->nlayers = o->nhidden + 2;
	p->layers[0] = GP_PRED_NFEAT;
	for (k = 0; k < o->nhidden; k++)
		p->layers[k + 1] = (unsigned)o->hidden[k];
	p->layers[o->nhidden + 1] = 1;
	ntr = fit_scaling(p, d, idx, n, mask);
	if ((rc = train_net(p, d, idx, n, mask, ntr, err)) != GP_OK) {
		free(idx);
		free(mask);
		gp_predictor_free(p);
		return rc;
	}
	rep->rows = n;
	rep->train_rows = ntr;
	rep->test_rows = n - ntr;
	rep->epochs_run = o->epochs;
	rep->best_epoch = o->epochs;
	gp_predictor_eval(p, d, mask, 0, &rep->train);
	if (n > ntr)
		gp_predictor_eval(p, d, mask, 1, &rep->test);
	p->rep = *rep;
	free(idx);
	free(mask);
	*out = p;
	return GP_OK;
}

/* ---- the model file ---- */

static json_t *metrics_json(const gp_pred_metrics *m)
{
	return json_pack("{s:I, s:f, s:f, s:f}", "n", (json_int_t)m->n, "mae", m->mae,
			 "mape", m->mape, "r2", m->r2);
}

int gp_predictor_save(const gp_predictor *p, const char *path, gp_error *err)
{
	json_t *root = json_object(), *a, *feat = json_array(), *mean = json_array(),
	       *sd = json_array(), *w = json_array(), *layers = json_array(), *hid = json_array();
	unsigned n = fann_get_total_connections(p->ann), i;
	struct fann_connection *c = gp_xmalloc((n ? n : 1) * sizeof(*c));
	gp_atomic_file af;
	int k, rc;

	fann_get_connection_array(p->ann, c);
	for (i = 0; i < n; i++)
		json_array_append_new(w, json_real(c[i].weight));
	free(c);
	for (k = 0; k < GP_PRED_NFEAT; k++) {
		json_array_append_new(feat, json_string(gp_pred_feature_name(k)));
		json_array_append_new(mean, json_real(p->mean[k]));
		json_array_append_new(sd, json_real(p->sd[k]));
	}
	for (k = 0; k < p->nlayers; k++)
		json_array_append_new(layers, json_integer(p->layers[k]));
	for (k = 0; k < p->opts.nhidden; k++)
		json_array_append_new(hid, json_integer(p->opts.hidden[k]));
	json_object_set_new(root, "format", json_string(FORMAT_NAME));
	json_object_set_new(root, "version", json_integer(FORMAT_VERSION));
	json_object_set_new(root, "target", json_string(gp_pred_target_name(p->target)));
	json_object_set_new(root, "unit", json_string(gp_pred_target_unit(p->target)));
	json_object_set_new(root, "target_transform",
			    json_string(p->target == GP_PRED_UTIL ? "none" :
					p->target == GP_PRED_TIME ? "log_over_roofline" : "log"));
	json_object_set_new(root, "features", feat);
	json_object_set_new(root, "feature_mean", mean);
	json_object_set_new(root, "feature_sd", sd);
	json_object_set_new(root, "target_mean", json_real(p->ymean));
	json_object_set_new(root, "target_sd", json_real(p->ysd));
	json_object_set_new(root, "target_min", json_real(p->ylo));
	json_object_set_new(root, "target_max", json_real(p->yhi));
	json_object_set_new(root, "layers", layers);
	json_object_set_new(root, "hidden_activation", json_string("sigmoid_symmetric"));
	json_object_set_new(root, "output_activation", json_string("linear"));
	json_object_set_new(root, "weights", w);
	a = json_object();
	json_object_set_new(a, "algorithm", json_string("fann-rprop"));
	json_object_set_new(a, "hidden", hid);
	json_object_set_new(a, "epochs", json_integer(p->opts.epochs));
	json_object_set_new(a, "seed", json_integer((json_int_t)p->opts.seed));
	json_object_set_new(a, "holdout", json_real(p->opts.holdout));
	json_object_set_new(a, "split", json_string(gp_pred_split_name(p->opts.split)));
	if (p->opts.split == GP_SPLIT_GPU)
		json_object_set_new(a, "split_gpu", json_string(p->opts.split_gpu));
	json_object_set_new(a, "rows", json_integer((json_int_t)p->rep.rows));
	json_object_set_new(a, "train", metrics_json(&p->rep.train));
	json_object_set_new(a, "test", metrics_json(&p->rep.test));
	json_object_set_new(root, "training", a);
	if ((rc = gp_atomic_open(&af, path, err)) != GP_OK) {
		json_decref(root);
		return rc;
	}
	if (json_dumpf(root, af.fp, JSON_SORT_KEYS | JSON_INDENT(1)) != 0 ||
	    fputc('\n', af.fp) == EOF) {
		json_decref(root);
		gp_atomic_abort(&af);
		return gp_error_set(err, GP_EIO, path, 0, 0, "cannot write the model");
	}
	json_decref(root);
	return gp_atomic_commit(&af, err);
}

static int bad(gp_error *err, const char *path, const char *what)
{
	return gp_error_set(err, GP_EINPUT, path, 0, 0, "not a gpuplan predictor model: %s", what);
}

static int get_reals(json_t *root, const char *key, double *v, size_t n)
{
	json_t *a = json_object_get(root, key);
	size_t i;

	if (!json_is_array(a) || json_array_size(a) != n)
		return -1;
	for (i = 0; i < n; i++) {
		json_t *x = json_array_get(a, i);

		if (!json_is_number(x))
			return -1;
		v[i] = json_number_value(x);
		if (!isfinite(v[i]))
			return -1;
	}
	return 0;
}

/* Format, target, features, scaling and layer sizes of a model file. */
static int load_shape(json_t *root, gp_predictor *p, const char *path, gp_error *err)
{
	json_t *feat, *layers;
	const char *s;
	size_t i;

	s = json_string_value(json_object_get(root, "format"));
	if (!s || strcmp(s, FORMAT_NAME) ||
	    json_integer_value(json_object_get(root, "version")) != FORMAT_VERSION)
		return bad(err, path, "'format' must be \"" FORMAT_NAME "\", version 1");
	s = json_string_value(json_object_get(root, "target"));
	if (!s || (p->target = gp_pred_target_parse(s)) < 0)
		return bad(err, path, "'target' must be util, memory or time");
	feat = json_object_get(root, "features");
	if (!json_is_array(feat) || json_array_size(feat) != GP_PRED_NFEAT)
		return bad(err, path, "the feature list is not this version's");
	for (i = 0; i < GP_PRED_NFEAT; i++) {
		s = json_string_value(json_array_get(feat, i));
		if (!s || strcmp(s, gp_pred_feature_name((int)i)))
			return bad(err, path, "the feature list is not this version's");
	}
	if (get_reals(root, "feature_mean", p->mean, GP_PRED_NFEAT) ||
	    get_reals(root, "feature_sd", p->sd, GP_PRED_NFEAT) ||
	    !json_is_number(json_object_get(root, "target_mean")) ||
	    !json_is_number(json_object_get(root, "target_sd")))
		return bad(err, path, "feature or target scaling missing");
	p->ymean = json_number_value(json_object_get(root, "target_mean"));
	p->ysd = json_number_value(json_object_get(root, "target_sd"));
	p->ylo = json_number_value(json_object_get(root, "target_min"));
	p->yhi = json_number_value(json_object_get(root, "target_max"));
	layers = json_object_get(root, "layers");
	if (!json_is_array(layers) || json_array_size(layers) < 3 ||
	    json_array_size(layers) > GP_PRED_MAX_HIDDEN + 2)
		return bad(err, path, "'layers' must list 3 to 6 layer sizes");
	p->nlayers = (int)json_array_size(layers);
	for (i = 0; i < (size_t)p->nlayers; i++) {
		json_int_t v = json_integer_value(json_array_get(layers, i));

		if (v < 1 || v > 4096 || (i == 0 && v != GP_PRED_NFEAT) ||
		    (i + 1 == (size_t)p->nlayers && v != 1))
			return bad(err, path, "bad layer sizes");
		p->layers[i] = (unsigned)v;
	}
	return GP_OK;
}

/* The connections of a fully connected network of p's layers: each
 * neuron after the input layer takes the layer before and its bias. */
static size_t connections(const gp_predictor *p)
{
	size_t n = 0;
	int i;

	for (i = 1; i < p->nlayers; i++)
		n += ((size_t)p->layers[i - 1] + 1) * (size_t)p->layers[i];
	return n;
}

/* The network of p's layers with the file's weights.  The count is checked
 * before the network exists: a file whose layers say 4096 x 4096 with a
 * handful of weights is refused without allocating 17 million. */
static int load_weights(json_t *root, gp_predictor *p, const char *path, gp_error *err)
{
	json_t *w = json_object_get(root, "weights");
	size_t n = connections(p), k;

	if (!json_is_array(w) || json_array_size(w) != n)
		return bad(err, path, "'weights' does not match the layers");
	fann_set_error_log(NULL, NULL);
	if (!(p->ann = new_ann(p)))
		return gp_error_set(err, GP_EIO, path, 0, 0, "FANN could not allocate the network");
	if (fann_get_total_connections(p->ann) != n)
		return bad(err, path, "'weights' does not match the layers");
	for (k = 0; k < n; k++) {
		json_t *x = json_array_get(w, k);

		if (!json_is_number(x) || !isfinite(json_number_value(x)))
			return bad(err, path, "non-numeric weight");
		p->ann->weights[k] = json_number_value(x); /* as in init_weights */
	}
	return GP_OK;
}

/* What the file says of its training: epochs, seed, test metrics. */
static void load_training(json_t *root, gp_predictor *p)
{
	json_t *tr = json_object_get(root, "training"), *m;

	gp_pred_train_opts_init(&p->opts);
	p->opts.target = p->target;
	if (!json_is_object(tr))
		return;
	m = json_object_get(tr, "test");
	p->opts.epochs = (int)json_integer_value(json_object_get(tr, "epochs"));
	p->opts.seed = (uint64_t)json_integer_value(json_object_get(tr, "seed"));
	if (json_is_object(m)) {
		p->rep.test.n = (size_t)json_integer_value(json_object_get(m, "n"));
		p->rep.test.mae = json_number_value(json_object_get(m, "mae"));
		p->rep.test.mape = json_number_value(json_object_get(m, "mape"));
	}
}

int gp_predictor_load(const char *path, gp_predictor **out, gp_error *err)
{
	json_error_t je;
	json_t *root;
	gp_predictor *p;
	char *data;
	size_t len;
	int rc;

	*out = NULL;
	if ((rc = gp_read_file(path, 64u << 20, &data, &len, err)) != GP_OK)
		return rc;
	root = json_loadb(data, len, 0, &je);
	free(data);
	if (!root)
		return gp_error_set(err, GP_EINPUT, path, je.line, je.column, "%s", je.text);
	p = gp_xcalloc(1, sizeof(*p));
	rc = load_shape(root, p, path, err);
	if (rc == GP_OK)
		rc = load_weights(root, p, path, err);
	if (rc == GP_OK)
		load_training(root, p);
	json_decref(root);
	if (rc != GP_OK) {
		gp_predictor_free(p);
		return rc;
	}
	*out = p;
	return GP_OK;
}
