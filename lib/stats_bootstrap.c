/* stats_bootstrap.c - a 95 % interval for the Sharpe ratio from a stationary block bootstrap,
 * with GSL's generator and quantiles, seeded from the config so bundles stay reproducible. */
#include "stats_tearsheet.h"

#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "stats_core.h"

size_t st_bootstrap_block(size_t n)
{
	size_t b = (size_t)lround(cbrt((double)n));

	return b ? b : 1;
}

/* One resample of x into y: a block starts at a uniform index and each next value continues it
 * (wrapping round) with probability 1 - 1/block, else a new block starts. */
static void resample(const double *x, size_t n, double p_new, gsl_rng *r, double *y)
{
	size_t at = (size_t)gsl_rng_uniform_int(r, (unsigned long)n);

	for (size_t i = 0; i < n; i++) {
		y[i] = x[at];
		if (gsl_rng_uniform(r) < p_new)
			at = (size_t)gsl_rng_uniform_int(r, (unsigned long)n);
		else
			at = at + 1 == n ? 0 : at + 1;
	}
}

int st_bootstrap_sharpe(const double *x, size_t n, size_t block, unsigned long seed,
			size_t resamples, double *lo, double *hi)
{
	double *y = NULL, *sr = NULL;
	gsl_rng *r = NULL;
	size_t kept = 0;
	int rc = -1;

	*lo = *hi = NAN;
	if (n < 2 || block == 0 || resamples == 0)
		goto out;
	y = malloc(n * sizeof(*y));
	sr = malloc(resamples * sizeof(*sr));
	r = gsl_rng_alloc(gsl_rng_mt19937);
	if (!y || !sr || !r)
		goto out;
	gsl_rng_set(r, seed);
	for (size_t k = 0; k < resamples; k++) {
		struct st_moments m;
		double s;
		resample(x, n, 1.0 / (double)block, r, y);
		st_moments(y, n, &m);
		s = st_sharpe(&m);
		if (isfinite(s))
			sr[kept++] = s;
	}
	if (kept == 0)
		goto out;
	gsl_sort(sr, 1, kept);
	*lo = gsl_stats_quantile_from_sorted_data(sr, 1, kept, 0.025);
	*hi = gsl_stats_quantile_from_sorted_data(sr, 1, kept, 0.975);
	rc = 0;
out:
	gsl_rng_free(r);
	free(y);
	free(sr);
	return rc;
}
