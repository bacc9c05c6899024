/* Weibull time-to-failure fit with right-censoring (`gpuplan failures
 * fit`).
 *
 * Log-likelihood of d failures at t_i (i in F) and censored lifetimes
 * (units removed or still running at the end) for shape k, scale l:
 *   L(k, l) = d ln k - d k ln l + (k - 1) sum_F ln t_i - sum_all (t_i / l)^k
 * For a fixed k the best scale is l^k = sum_all t_i^k / d, which leaves a
 * one-dimensional score equation in k,
 *   g(k) = sum t^k ln t / sum t^k - 1/k - (1/d) sum_F ln t = 0,
 * increasing in k; GSL's Brent solver finds its root in a bracket.  Times
 * are divided by the largest one first so that t^k neither overflows nor
 * loses precision for large k.  Confidence intervals come from the
 * observed information (the analytic Hessian at the optimum), on the log
 * scale so that they stay positive. */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>
#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/util/util.h"

#include "gpuplan/sim/failfit.h"

typedef struct fit_data {
	const double *t;           /* normalised times, (0, 1] */
	const unsigned char *failed;
	size_t n;
	double d;                  /* failures */
	double sum_log_failed;     /* sum over failures of ln t */
} fit_data;

static double score(double k, void *vp)
{
	const fit_data *fd = vp;
	double a = 0, b = 0;
	size_t i;

	for (i = 0; i < fd->n; i++) {
		double lt = log(fd->t[i]), w = exp(k * lt);

		a += w;
		b += w * lt;
	}
	return b / a - 1.0 / k - fd->sum_log_failed / fd->d;
}

static double loglik(const fit_data *fd, double k, double l)
{
	double s = 0, ll = log(l);
	size_t i;

	for (i = 0; i < fd->n; i++)
		s += exp(k * (log(fd->t[i]) - ll));
	return fd->d * log(k) - fd->d * k * ll + (k - 1) * fd->sum_log_failed - s;
}

int gp_weibull_fit(const double *t, const unsigned char *failed, size_t n,
		   gp_weibull_result *out, gp_error *err)
{
	gsl_root_fsolver *s;
	gsl_function f;
	gsl_error_handler_t *old;
	fit_data fd;
	double *tn, tmax = 0, lo = 0.02, hi = 50.0, k = 1, l, w, sw = 0, sx = 0, sxx = 0;
	double hkk, hll, hkl, det, var_k, var_l;
	size_t i;
	int it, st = GSL_CONTINUE;

	memset(out, 0, sizeof(*out));
	out->n = n;
	for (i = 0; i < n; i++) {
		if (!(t[i] > 0) || !isfinite(t[i]))
			return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
					    "lifetime %zu is %g: every lifetime must be positive", i + 1,
					    t[i]);
		if (t[i] > tmax)
			tmax = t[i];
		out->exposure_s += t[i];
		out->failures += failed[i] != 0;
	}
	if (out->failures == 0)
		return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
				    "no failures among %zu lifetimes: nothing to fit", n);
	out->exp_mtbf_s = out->exposure_s / (double)out->failures;
	tn = gp_xmalloc(n * sizeof(*tn));
	fd.t = tn;
	fd.failed = failed;
	fd.n = n;
	fd.d = (double)out->failures;
	fd.sum_log_failed = 0;
	for (i = 0; i < n; i++) {
		tn[i] = t[i] / tmax;
		if (failed[i])
			fd.sum_log_failed += log(tn[i]);
	}
	/* All failures at one time and nothing longer: the shape grows
	 * without bound; say so instead of returning the bracket's edge. */
	if (score(lo, &fd) > 0 || score(hi, &fd) < 0) {
		free(tn);
		return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
				    "the Weibull shape is outside [%g, %g] for these lifetimes", lo, hi);
	}
	old = gsl_set_error_handler_off();
	f.function = score;
	f.params = &fd;
	s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
	gsl_root_fsolver_set(s, &f, lo, hi);
	for (it = 0; it < 200 && st == GSL_CONTINUE; it++) {
		gsl_root_fsolver_iterate(s);
		k = gsl_root_fsolver_root(s);
		st = gsl_root_test_interval(gsl_root_fsolver_x_lower(s),
					    gsl_root_fsolver_x_upper(s), 0, 1e-12);
	}
	gsl_root_fsolver_free(s);
	out->iterations = it;
	/* Scale for this shape, then the Hessian of L in (k, l) at the optimum,
	 * where sum w = d. */
	for (i = 0; i < n; i++) {
		double x = log(tn[i]);

		w = exp(k * x);
		sw += w;
		sx += w * x;
		sxx += w * x * x;
	}
	l = pow(sw / fd.d, 1.0 / k);
	{
		double ll = log(l), swx = 0, swxx = 0; /* sums of w ln(t/l), w ln^2(t/l) */

		/* w_i(l) = t^k / l^k: sum w = sw / l^k = d. */
		swx = (sx - ll * sw) / pow(l, k);
		swxx = (sxx - 2 * ll * sx + ll * ll * sw) / pow(l, k);
		hkk = -fd.d / (k * k) - swxx;
		hll = -(k * k / (l * l)) * fd.d;
		hkl = (k / l) * swx;
	}
	det = hkk * hll - hkl * hkl;
	var_k = det > 0 ? -hll / det : 0;
	var_l = det > 0 ? -hkk / det : 0;
	out->shape = k;
	out->scale_s = l * tmax;
	out->mtbf_s = out->scale_s * gsl_sf_gamma(1.0 + 1.0 / k);
	{
		double se_lk = sqrt(var_k > 0 ? var_k : 0) / k;
		double se_ll = sqrt(var_l > 0 ? var_l : 0) / l;

		out->shape_lo = k * exp(-1.959963984540054 * se_lk);
		out->shape_hi = k * exp(1.959963984540054 * se_lk);
		out->scale_lo_s = out->scale_s * exp(-1.959963984540054 * se_ll);
		out->scale_hi_s = out->scale_s * exp(1.959963984540054 * se_ll);
	}
	/* Log-likelihoods in the original time unit (seconds): the
	 * normalisation shifts every density by ln tmax per failure. */
	out->loglik = loglik(&fd, k, l) - fd.d * log(tmax);
	{
		double lam = fd.d / (out->exposure_s / tmax);

		out->loglik_exp = fd.d * log(lam) - lam * (out->exposure_s / tmax) - fd.d * log(tmax);
	}
	out->lr_stat = 2 * (out->loglik - out->loglik_exp);
	if (out->lr_stat < 0)
		out->lr_stat = 0;
	out->lr_p = gsl_cdf_chisq_Q(out->lr_stat, 1.0);
	gsl_set_error_handler(old);
	free(tn);
	if (st != GSL_SUCCESS)
		return gp_error_set(err, GP_EIO, NULL, 0, 0,
				    "the Weibull fit did not converge in %d iterations", it);
	return GP_OK;
}
