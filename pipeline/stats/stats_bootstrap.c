/* stats_bootstrap.c - a 95 % interval for the Sharpe ratio from a stationary block bootstrap,
 * with GSL's generator and quantiles, seeded from the config so bundles stay reproducible. */
#include "stats_tearsheet.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "stats_core.h"

size_t sts_bootstrap_block(size_t n)
{
	size_t b = (size_t)lround(cbrt((double)n));

	return b ? b : 1;
}

void sts_stationary_resample(const double *x, size_t n, double p_new, gsl_rng *r, double *y)
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

/* The Sharpe ratio of one resample, counted in b when it has no spread: -inf for a losing
 * mean (the worst Sharpe ratio, not a gap), +inf for a winning one, 0 for a flat one. */
static double resample_sharpe(const double *y, size_t n, struct sts_boot *b)
{
	struct st_moments m;
	double s;

	st_moments(y, n, &m);
	s = st_sharpe(&m);
	if (!isnan(s))
		return s;
	if (m.mean < 0) {
		b->flat_negative++;
		return -INFINITY;
	}
	if (m.mean > 0) {
		b->flat_positive++;
		return INFINITY;
	}
	b->flat_zero++;
	return 0.0;
}

/* GSL's quantile of sorted[0..n), or where it would mix an infinite neighbour (inf - inf,
 * 0 x inf), the order statistic on the side of the tail: the lower for lower, else the upper. */
static double quantile(const double *sorted, size_t n, double p, bool lower)
{
	double q = gsl_stats_quantile_from_sorted_data(sorted, 1, n, p), at = p * (double)(n - 1);
	size_t i = lower ? (size_t)floor(at) : (size_t)ceil(at);

	if (!isnan(q) && (isfinite(q) || !isfinite(sorted[i])))
		return q;
	return sorted[i < n ? i : n - 1];
}

int sts_bootstrap_sharpe(const double *x, size_t n, size_t block, unsigned long seed,
			size_t resamples, struct sts_boot *b)
{
	double *y = NULL, *sr = NULL;
	gsl_rng *r = NULL;
	int rc = -1;

	memset(b, 0, sizeof(*b));
	b->lo = b->hi = NAN;
	if (n < STS_BOOT_MIN_TRADES || block == 0 || resamples == 0)
		goto out;
	y = malloc(n * sizeof(*y));
	sr = malloc(resamples * sizeof(*sr));
	r = gsl_rng_alloc(gsl_rng_mt19937);
	if (!y || !sr || !r)
		goto out;
	gsl_rng_set(r, seed);
	for (size_t k = 0; k < resamples; k++) {
		sts_stationary_resample(x, n, 1.0 / (double)block, r, y);
		sr[k] = resample_sharpe(y, n, b);
	}
	gsl_sort(sr, 1, resamples);
	b->lo = quantile(sr, resamples, 0.025, true);
	b->hi = quantile(sr, resamples, 0.975, false);
	rc = 0;
out:
	gsl_rng_free(r);
	free(y);
	free(sr);
	return rc;
}
