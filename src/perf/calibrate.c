/* Calibration: read Sia placement profiles and fit the step-time model
 * (gp_perf_profile_step) with GSL's nonlinear least squares.
 *
 * Residuals are relative step-time errors, so every row weighs the same
 * whatever its scale.  Positive parameters are fitted as exp(theta) and the
 * overlap as a logistic, which keeps them in range without constraints. */
#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/perf/perf.h"
#include "gpuplan/util/util.h"

#define CSV_MAX_BYTES (64u << 20)

void gp_perf_dataset_init(gp_perf_dataset *d)
{
	memset(d, 0, sizeof(*d));
}

void gp_perf_dataset_release(gp_perf_dataset *d)
{
	if (!d)
		return;
	free(d->path);
	free(d->rows);
	memset(d, 0, sizeof(*d));
}

enum { COL_BSZ, COL_STEP, COL_SYNC, COL_PLACE, NCOLS };
static const char *const col_names[NCOLS] = {
	"local_bsz", "step_time", "sync_time", "placement",
};

static int parse_placement(const char *s, gp_perf_sample *r)
{
	size_t len = strlen(s), i;

	if (len == 0 || len >= sizeof(r->placement))
		return -1;
	r->n = r->per_node = 0;
	for (i = 0; i < len; i++) {
		if (s[i] < '1' || s[i] > '9')
			return -1;
		r->n += s[i] - '0';
		if (s[i] - '0' > r->per_node)
			r->per_node = s[i] - '0';
	}
	r->nodes = (int)len;
	memcpy(r->placement, s, len + 1);
	return 0;
}

int gp_perf_dataset_load(const char *path, gp_perf_dataset *d, gp_error *err)
{
	char *data = NULL, *line, *next, *f[16];
	int have_header = 0;
	int idx[NCOLS], cols[16], nf, lineno = 0, i, k, st, bad;
	size_t len;

	st = gp_read_file(path, CSV_MAX_BYTES, &data, &len, err);
	if (st)
		return st;
	gp_perf_dataset_release(d);
	d->path = gp_xstrdup(path);
	for (line = data; line && *line; line = next) {
		gp_perf_sample r;
		double v[3];

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		len = strlen(line);
		if (len && line[len - 1] == '\r')
			line[--len] = '\0';
		if (len == 0)
			continue;
		nf = gp_csv_split(line, len, ',', 0, f, cols, 15, &bad);
		if (nf == GP_CSV_ETOO_MANY) {
			nf = 16;
		} else if (nf < 0) {
			st = gp_error_set(err, GP_EINPUT, path, lineno, bad, "%s", gp_csv_strerror(nf));
			goto fail;
		}
		/* the header is the first non-blank line (a blank first line
		 * left idx[] unset: fuzz finding) */
		if (!have_header) {
			have_header = 1;
			/* nf is 16 for "more than 15", and f[15] is unset
			 * (fuzz finding: read of an uninitialised pointer) */
			if (nf > 15) {
				st = gp_error_set(err, GP_EINPUT, path, lineno, 1,
						  "more than 15 columns in the header");
				goto fail;
			}
			for (k = 0; k < NCOLS; k++) {
				idx[k] = -1;
				for (i = 0; i < nf; i++)
					if (!strcmp(f[i], col_names[k]))
						idx[k] = i;
				if (idx[k] < 0) {
					st = gp_error_set(err, GP_EINPUT, path, lineno, 1,
							  "missing column '%s'", col_names[k]);
					goto fail;
				}
			}
			continue;
		}
		if (nf > 15 || nf < NCOLS) {
			st = gp_error_set(err, GP_EINPUT, path, lineno, 1,
					  "expected %d fields, found %d", NCOLS, nf);
			goto fail;
		}
		for (k = 0; k < 3; k++) {
			if (idx[k] >= nf ||
			    gp_parse_double(f[idx[k]], 0, 1e9, &v[k])) {
				st = gp_error_set(err, GP_EINPUT, path, lineno,
						  idx[k] < nf ? cols[idx[k]] : 1,
						  "bad %s '%s'", col_names[k],
						  idx[k] < nf ? f[idx[k]] : "");
				goto fail;
			}
		}
		if (idx[COL_PLACE] >= nf || parse_placement(f[idx[COL_PLACE]], &r)) {
			st = gp_error_set(err, GP_EINPUT, path, lineno,
					  idx[COL_PLACE] < nf ? cols[idx[COL_PLACE]] : 1,
					  "bad placement '%s' (one digit 1-9 per node)",
					  idx[COL_PLACE] < nf ? f[idx[COL_PLACE]] : "");
			goto fail;
		}
		if (v[COL_STEP] <= 0 || v[COL_BSZ] <= 0) {
			st = gp_error_set(err, GP_EINPUT, path, lineno,
					  cols[idx[v[COL_STEP] <= 0 ? COL_STEP : COL_BSZ]],
					  "step_time and local_bsz must be positive");
			goto fail;
		}
		if (d->n >= GP_PERF_MAX_ROWS) {
			st = gp_error_set(err, GP_EINPUT, path, lineno, 1,
					  "more than %d rows", GP_PERF_MAX_ROWS);
			goto fail;
		}
		r.bsz = v[COL_BSZ];
		r.step = v[COL_STEP];
		r.sync = v[COL_SYNC];
		GP_GROW(d->rows, d->cap, d->n + 1);
		d->rows[d->n++] = r;
	}
	if (lineno == 0 || d->n == 0) {
		st = gp_error_set(err, GP_EINPUT, path, lineno ? lineno : 1, 1,
				  "no measurements");
		goto fail;
	}
	free(data);
	return GP_OK;
fail:
	free(data);
	gp_perf_dataset_release(d);
	return st;
}

/* ---- the compute table ---- */

static int cmp_row_bsz(const void *a, const void *b)
{
	const gp_perf_sample *x = *(const gp_perf_sample *const *)a;
	const gp_perf_sample *y = *(const gp_perf_sample *const *)b;

	return gp_cmp_double(&x->bsz, &y->bsz);
}

int gp_perf_ctab_build(const gp_perf_dataset *d, const unsigned char *mask, gp_perf_ctab *t,
		       gp_error *err)
{
	const gp_perf_sample **one = gp_xmalloc((d->n ? d->n : 1) * sizeof(*one));
	size_t n = 0, i, j;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < d->n; i++)
		if ((!mask || mask[i]) && d->rows[i].n == 1)
			one[n++] = &d->rows[i];
	/* Stable order for repeats of a batch size: qsort is not stable, but
	 * the mean below does not depend on their order. */
	qsort(one, n, sizeof(*one), cmp_row_bsz);
	for (i = 0; i < n; i = j) {
		double sum = 0;

		for (j = i; j < n && one[j]->bsz == one[i]->bsz; j++)
			sum += one[j]->step - one[j]->sync;
		if (t->n == GP_PERF_CTAB_MAX) {
			free(one);
			memset(t, 0, sizeof(*t));
			return gp_error_set(err, GP_EINPUT, d->path, 0, 0,
					    "more than %d single-GPU batch sizes", GP_PERF_CTAB_MAX);
		}
		t->bsz[t->n] = one[i]->bsz;
		/* Guard against a sync_time as large as the step. */
		t->compute[t->n++] = fmax(sum / (double)(j - i), 1e-3 * one[i]->step);
	}
	free(one);
	return GP_OK;
}

void gp_perf_kcompute_build(const gp_perf_dataset *d, const unsigned char *mask,
			    const gp_perf_ctab *t, double *kcompute)
{
	double sum[GP_PERF_KMAX] = { 0 };
	int cnt[GP_PERF_KMAX] = { 0 }, k, i;
	size_t r;

	for (r = 0; r < d->n; r++) {
		const gp_perf_sample *s = &d->rows[r];

		if ((mask && !mask[r]) || s->n <= 1 || s->per_node < 1 || s->per_node > GP_PERF_KMAX)
			continue;
		for (i = 0; i < t->n && t->bsz[i] != s->bsz; i++)
			;
		if (i == t->n)
			continue;
		/* The same guard against a sync_time as large as the step as
		 * the table's. */
		sum[s->per_node - 1] += fmax(s->step - s->sync, 1e-3 * s->step) / t->compute[i];
		cnt[s->per_node - 1]++;
	}
	for (k = 0; k < GP_PERF_KMAX; k++)
		kcompute[k] = cnt[k] ? sum[k] / cnt[k] : 0.0;
}

/* ---- the fit ---- */

typedef struct fit_ctx {
	const gp_perf_dataset *d;
	const size_t *rows;     /* indices of the rows fitted */
	size_t nrows;
	int free_idx[GP_PP_NPARAMS];
	int nfree;
	double fixed[GP_PP_NPARAMS];
	const gp_perf_ctab *tab;
} fit_ctx;

static double from_theta(int k, double th)
{
	if (k == GP_PP_OVERLAP)
		return 1.0 / (1.0 + exp(-th));
	if (k == GP_PP_CEXP)
		return 2.0 / (1.0 + exp(-th));
	return exp(fmax(fmin(th, 20.0), -60.0));
}

static double to_theta(int k, double v)
{
	if (k == GP_PP_OVERLAP || k == GP_PP_CEXP) {
		v = k == GP_PP_CEXP ? v / 2.0 : v;
		v = fmin(fmax(v, 1e-6), 1 - 1e-6);
		return log(v / (1 - v));
	}
	return log(fmax(v, 1e-26));
}

static void theta_to_params(const fit_ctx *c, const gsl_vector *x, double *p)
{
	int k;

	memcpy(p, c->fixed, sizeof(c->fixed));
	for (k = 0; k < c->nfree; k++)
		p[c->free_idx[k]] = from_theta(c->free_idx[k], gsl_vector_get(x, (size_t)k));
}

static int residuals(const gsl_vector *x, void *data, gsl_vector *f)
{
	const fit_ctx *c = data;
	double p[GP_PP_NPARAMS];
	size_t i;

	theta_to_params(c, x, p);
	for (i = 0; i < c->nrows; i++) {
		const gp_perf_sample *r = &c->d->rows[c->rows[i]];
		double pred = gp_perf_profile_step_tab(c->tab, p, r->n, r->nodes, r->per_node,
						       r->bsz, NULL, NULL, NULL);

		gsl_vector_set(f, i, (pred - r->step) / r->step);
	}
	return GSL_SUCCESS;
}

/* Least-squares line step = a + b x bsz over the chosen rows. */
static void line_fit(const gp_perf_dataset *d, const size_t *rows, size_t n,
		     int single_only, double *a, double *b)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, m = 0, den;
	size_t i;

	for (i = 0; i < n; i++) {
		const gp_perf_sample *r = &d->rows[rows[i]];

		if (single_only && r->n != 1)
			continue;
		sx += r->bsz, sy += r->step;
		sxx += r->bsz * r->bsz, sxy += r->bsz * r->step;
		m++;
	}
	*a = *b = 0;
	if (m == 0)
		return;
	den = m * sxx - sx * sx;
	if (den > 0)
		*b = (m * sxy - sx * sy) / den;
	*a = (sy - *b * sx) / m;
}

/* Whether row i's placement occurs among the first n chosen rows. */
static int seen_placement(const gp_perf_dataset *d, const size_t *rows, size_t n, size_t i)
{
	size_t j;

	for (j = 0; j < n; j++)
		if (!strcmp(d->rows[rows[j]].placement, d->rows[i].placement))
			return 1;
	return 0;
}

/* Each distinct multi-GPU placement is one point of the communication and
 * contention curve: fit at most that many of those parameters, keeping
 * them in this order (the first explain most). */
static void cap_free(fit_ctx *c, int nplace)
{
	static const int prio[] = {
		GP_PP_W_INTRA, GP_PP_OVERLAP, GP_PP_CONTEND, GP_PP_SOLO, GP_PP_A_INTRA,
		GP_PP_W_INTER, GP_PP_A_INTER, GP_PP_CEXP, GP_PP_CCOMM,
	};
	int keep[GP_PP_NPARAMS] = { 0 }, kept = 0, i, k, n = 0;

	for (i = 0; i < (int)GP_ARRAY_SIZE(prio); i++)
		for (k = 0; k < c->nfree; k++)
			if (c->free_idx[k] == prio[i] && kept < nplace) {
				keep[prio[i]] = 1;
				kept++;
			}
	for (k = 0; k < c->nfree; k++) {
		int idx = c->free_idx[k];

		if (idx <= GP_PP_C1 || keep[idx])
			c->free_idx[n++] = idx;
		else
			c->fixed[idx] = idx == GP_PP_OVERLAP ? GP_PERF_DEFAULT_OVERLAP
					: idx == GP_PP_CEXP  ? 1.0
							     : 0.0;
	}
	c->nfree = n;
}

/* Least-squares line through the table points (c0 may come out
 * negative; the evaluation clamps it). */
static void ctab_line(const gp_perf_ctab *t, double *a, double *b)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, den, m = t->n;
	int i;

	for (i = 0; i < t->n; i++) {
		sx += t->bsz[i], sy += t->compute[i];
		sxx += t->bsz[i] * t->bsz[i], sxy += t->bsz[i] * t->compute[i];
	}
	den = m * sxx - sx * sx;
	*b = den > 0 ? (m * sxy - sx * sy) / den : 0.0;
	*a = (sy - *b * sx) / m;
}

static double run_fit(fit_ctx *c, const double *start, double *p_out)
{
	const gsl_multifit_nlinear_type *T = gsl_multifit_nlinear_trust;
	gsl_multifit_nlinear_parameters params = gsl_multifit_nlinear_default_parameters();
	gsl_multifit_nlinear_fdf fdf;
	gsl_multifit_nlinear_workspace *w;
	gsl_vector *x;
	double chisq = -1;
	int k, info;

	fdf.f = residuals;
	fdf.df = NULL; /* finite differences */
	fdf.fvv = NULL;
	fdf.n = c->nrows;
	fdf.p = (size_t)c->nfree;
	fdf.params = c;
	x = gsl_vector_alloc((size_t)c->nfree);
	for (k = 0; k < c->nfree; k++)
		gsl_vector_set(x, (size_t)k, to_theta(c->free_idx[k], start[c->free_idx[k]]));
	w = gsl_multifit_nlinear_alloc(T, &params, c->nrows, (size_t)c->nfree);
	if (gsl_multifit_nlinear_init(x, &fdf, w) == GSL_SUCCESS) {
		/* Non-convergence within the budget still leaves the best point
		 * so far, which is what we want; only NaNs disqualify it. */
		gsl_multifit_nlinear_driver(300, 1e-10, 1e-10, 0.0, NULL, NULL, &info, w);
		gsl_blas_ddot(w->f, w->f, &chisq);
		theta_to_params(c, w->x, p_out);
		if (!isfinite(chisq))
			chisq = -1;
	}
	gsl_multifit_nlinear_free(w);
	gsl_vector_free(x);
	return chisq;
}

int gp_perf_fit(const gp_perf_dataset *d, const unsigned char *mask, const gp_perf_ctab *t,
		double *p, int *nfit, gp_error *err)
{
	fit_ctx c;
	size_t *rows = gp_xmalloc((d->n ? d->n : 1) * sizeof(*rows)), i;
	int multi_gpu = 0, multi_node = 0, multi_per_node = 0, single = 0, k, s, nplace = 0;
	unsigned long long per_node_seen = 0;
	double a, b, mean = 0, best = -1, start[GP_PP_NPARAMS], trial[GP_PP_NPARAMS];
	static const double w_start[] = { 0.02, 0.3 };
	static const double ov_start[] = { 0.2, 0.8 };

	/* GSL's default handler aborts; library code reports instead. */
	gsl_set_error_handler_off();
	memset(&c, 0, sizeof(c));
	c.d = d;
	c.rows = rows;
	for (i = 0; i < d->n; i++) {
		if (mask && !mask[i])
			continue;
		if (d->rows[i].n > 1 && !seen_placement(d, rows, c.nrows, i))
			nplace++;
		if (d->rows[i].per_node > 1 && d->rows[i].per_node < 64)
			per_node_seen |= 1ull << d->rows[i].per_node;
		rows[c.nrows++] = i;
		mean += d->rows[i].step;
		multi_gpu |= d->rows[i].n > 1;
		multi_node |= d->rows[i].nodes > 1;
		multi_per_node |= d->rows[i].per_node > 1;
		single |= d->rows[i].n == 1;
	}
	if (c.nrows < 4) {
		free(rows);
		return gp_error_set(err, GP_EINPUT, d->path, 0, 0,
				    "too few measurements to fit (%zu)", c.nrows);
	}
	mean /= (double)c.nrows;
	if (t && t->n > 0) {
		c.tab = t;
		ctab_line(t, &a, &b);
		start[GP_PP_C0] = a;
		start[GP_PP_C1] = b;
	} else {
		line_fit(d, rows, c.nrows, single, &a, &b);
		start[GP_PP_C0] = a > 0 ? a : 0.1 * mean;
		start[GP_PP_C1] = b > 0 ? b : 1e-4 * mean;
	}
	start[GP_PP_A_INTRA] = start[GP_PP_A_INTER] = 1e-3 * mean;
	start[GP_PP_CONTEND] = 0.01;
	start[GP_PP_SOLO] = 0.01 * mean;
	start[GP_PP_CEXP] = 1.0;
	start[GP_PP_CCOMM] = 1e-3;
	/* Parameters the rows cannot tell apart are fixed, and not counted. */
	for (k = 0; k < GP_PP_NPARAMS; k++) {
		int fixed = (c.tab && k <= GP_PP_C1) ||
			    (!multi_gpu && k >= GP_PP_A_INTRA) ||
			    (!multi_per_node && (k == GP_PP_CONTEND || k == GP_PP_CEXP ||
						 k == GP_PP_CCOMM)) ||
			    (!(single && multi_gpu) && k == GP_PP_SOLO) ||
			    (!multi_node && (k == GP_PP_A_INTER || k == GP_PP_W_INTER)) ||
			    /* a shape needs two busiest-node sizes */
			    (__builtin_popcountll(per_node_seen) < 2 &&
			     (k == GP_PP_CEXP || k == GP_PP_CCOMM));

		if (fixed && c.tab && k <= GP_PP_C1)
			c.fixed[k] = start[k];
		else if (fixed)
			c.fixed[k] = k == GP_PP_OVERLAP ? GP_PERF_DEFAULT_OVERLAP
				     : k == GP_PP_CEXP  ? 1.0
							: 0.0;
		else
			c.free_idx[c.nfree++] = k;
	}
	cap_free(&c, nplace);
	for (s = 0; s < 4; s++) {
		double chisq;

		memcpy(trial, start, sizeof(start));
		trial[GP_PP_W_INTRA] = trial[GP_PP_W_INTER] = w_start[s % 2] * mean;
		trial[GP_PP_OVERLAP] = ov_start[s / 2];
		chisq = run_fit(&c, trial, trial);
		if (chisq >= 0 && (best < 0 || chisq < best)) {
			best = chisq;
			memcpy(p, trial, sizeof(trial));
		}
	}
	free(rows);
	if (best < 0)
		return gp_error_set(err, GP_EIO, d->path, 0, 0, "least-squares fit failed");
	if (nfit)
		*nfit = c.nfree;
	return GP_OK;
}

double gp_perf_mape(const gp_perf_dataset *d, const unsigned char *mask, int want,
		    const gp_perf_ctab *t, const double *p)
{
	double sum = 0;
	size_t i, n = 0;

	for (i = 0; i < d->n; i++) {
		const gp_perf_sample *r = &d->rows[i];

		if (mask && (mask[i] != 0) != (want != 0))
			continue;
		sum += fabs(gp_perf_profile_step_tab(t, p, r->n, r->nodes, r->per_node, r->bsz,
						     NULL, NULL, NULL) - r->step) / r->step;
		n++;
	}
	return n ? 100.0 * sum / (double)n : 0.0;
}

typedef struct place_key {
	int n, nodes;
	const char *s;
} place_key;

static int cmp_place(const void *a, const void *b)
{
	const place_key *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	if (x->nodes != y->nodes)
		return x->nodes < y->nodes ? -1 : 1;
	return strcmp(x->s, y->s);
}

void gp_perf_split_half(const gp_perf_dataset *d, unsigned char *mask)
{
	place_key *keys = gp_xmalloc((d->n ? d->n : 1) * sizeof(*keys));
	size_t nk = 0, i, j, u;

	for (i = 0; i < d->n; i++)
		keys[nk++] = (place_key){ d->rows[i].n, d->rows[i].nodes, d->rows[i].placement };
	qsort(keys, nk, sizeof(*keys), cmp_place);
	/* Distinct placements in order; even positions train, odd test. */
	for (i = 0; i < d->n; i++) {
		u = 0;
		for (j = 0; j < nk; j++) {
			if (j > 0 && cmp_place(&keys[j], &keys[j - 1]))
				u++;
			if (!strcmp(keys[j].s, d->rows[i].placement))
				break;
		}
		mask[i] = u % 2 == 0;
	}
	free(keys);
}
