/* stats_beta.h - the strategy against its market: an ordinary least squares regression of the
 * strategy's per-bar returns on the instrument's, with Newey-West (1987) HAC standard errors.
 * Pure computation. */
#ifndef STATS_BETA_H
#define STATS_BETA_H

#include <stddef.h>

struct sts_beta {
	size_t bars;               /* the pairs regressed */
	size_t lags;               /* the Bartlett window of the HAC errors */
	double alpha_bar, beta;    /* r = alpha_bar + beta m + e */
	double alpha_se, beta_se;  /* Newey-West HAC standard errors */
	double alpha_t, beta_t;
	double alpha_annualised;   /* alpha_bar x bars per year */
	double information_ratio;  /* mean / sd of r - m per bar, x sqrt(bars per year) */
	double excess_return;      /* prod(1 + r) - prod(1 + m) */
	double r_squared;
};

/* Regresses r[0..n) on m[0..n) (the same bars), with HAC lags st_dependence_lags(n) and the
 * annual scaling of bars_per_year (NAN leaves the annualised figures NAN). Every figure that
 * is undefined (n < 3, no spread in m) is NAN. Returns 0, or -1 when n < 3 or m has no spread
 * (*o then NAN throughout). */
int sts_beta(const double *r, const double *m, size_t n, double bars_per_year, struct sts_beta *o);

#endif
