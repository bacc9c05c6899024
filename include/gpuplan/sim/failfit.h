/* Weibull time-to-failure fit with right-censoring (`gpuplan failures
 * fit`), by maximum likelihood with GSL. */
#ifndef GPUPLAN_SIM_FAILFIT_H
#define GPUPLAN_SIM_FAILFIT_H

#include <stddef.h>

#include "gpuplan/util/error.h"

typedef struct gp_weibull_result {
	size_t n, failures;         /* lifetimes, and those that ended in failure */
	double exposure_s;          /* sum of all lifetimes (time on test) */
	double shape;               /* k: < 1 infant mortality, 1 exponential,
				     * > 1 wear-out */
	double scale_s;             /* l, seconds */
	double shape_lo, shape_hi;  /* 95 % confidence interval (observed
				     * information, log scale) */
	double scale_lo_s, scale_hi_s;
	double mtbf_s;              /* Weibull mean l Gamma(1 + 1/k) */
	double exp_mtbf_s;          /* exponential MLE: exposure / failures */
	double loglik, loglik_exp;  /* at the optimum, times in seconds */
	double lr_stat, lr_p;       /* likelihood ratio vs the exponential
				     * (chi-square, 1 degree of freedom) */
	int iterations;
} gp_weibull_result;

/* Fit lifetimes t[0..n) (seconds, > 0); failed[i] != 0 when lifetime i
 * ended in a failure, 0 when it was censored (the unit was removed
 * without failing or was still running).  GP_EINPUT when a lifetime is
 * not positive or nothing failed. */
int gp_weibull_fit(const double *t, const unsigned char *failed, size_t n,
		   gp_weibull_result *out, gp_error *err);

#endif
