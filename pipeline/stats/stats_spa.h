/* stats_spa.h - Hansen's test for Superior Predictive Ability (Hansen, "A Test for Superior
 * Predictive Ability", 2005) and White's Reality Check (White, "A Reality Check for Data
 * Snooping", 2000) over a family of per-bar returns against a benchmark of zero, with the
 * stationary bootstrap (Politis and Romano 1994) and its mean block length by Politis and White
 * (2004) as corrected by Patton, Politis and White (2009). Pure computation. */
#ifndef STATS_SPA_H
#define STATS_SPA_H

#include <stddef.h>

/* Resamples the stats stage draws. */
#define STS_SPA_RESAMPLES 1000

/* The Politis-White mean block length of the stationary bootstrap for one series x[0..n)
 * (PPW 2009's corrected D_SB = 2 g(0)^2): the flat-top lag window of bandwidth M = 2 m^, where
 * m^ is the first lag after which K_N = max(5, sqrt(log10 n)) autocorrelations all lie within
 * 2 sqrt(log10 n / n), capped at sqrt(n) + K_N; the result is capped at min(3 sqrt(n), n / 3)
 * and is at least 1. 1 for n < 4 or a flat series. */
double sts_pw_block_length(const double *x, size_t n);

struct sts_spa {
	double p_value;          /* Hansen's consistent p-value */
	double p_lower, p_upper; /* the liberal and the conservative recentring */
	double reality_check_p;  /* White's: the unstudentised statistic, fully recentred */
	double statistic;        /* T_SPA = max(0, max_k sqrt(n) mean_k / omega_k) */
	double block_length;     /* the mean of the columns' Politis-White block lengths */
	size_t resamples;
	unsigned long seed;
	size_t best;             /* the column with the highest studentised mean */
};

/* SPA over m (n_cols columns of n_bars per-bar returns, column-major: column k holds
 * m[k * n_bars .. (k + 1) * n_bars)), benchmark 0. omega_k^2 is n times the bootstrap variance
 * of column k's resampled mean; a column whose omega is 0 never counts as the best. The
 * resamples are stationary-bootstrap index paths (GSL's mt19937 seeded with seed; a block
 * continues with probability 1 - 1/block_length, else a new one starts at a uniform bar,
 * wrapping round at the end), the same paths for every column. block_length <= 0 chooses it
 * with sts_pw_block_length. Returns 0 with *out filled, or -1 with the reason in err: fewer
 * than 2 bars or no column, no resample, or no memory. */
int sts_spa(const double *m, size_t n_bars, size_t n_cols, size_t resamples, unsigned long seed,
	   double block_length, struct sts_spa *out, char *err, size_t errlen);

#endif
