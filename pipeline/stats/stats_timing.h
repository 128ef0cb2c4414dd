/* stats_timing.h - the bench's timings of SPA and of the Monte Carlo of the trades, on the
 * monotonic clock; the figures go to stdout only, never into a file. */
#ifndef STATS_TIMING_H
#define STATS_TIMING_H

/* --time-spa: SPA (STS_SPA_RESAMPLES resamples) over a variant_returns.bin, or over seeded
 * Gaussian returns when what is BARSxVARIANTS. Prints one line. Returns the exit code. */
int sts_time_spa(const char *what);

/* --time-mc: the Monte Carlo of TRADES seeded Gaussian trade returns, 1000 resamples, with and
 * without the fan chart's bands. Prints one line. Returns the exit code. */
int sts_time_mc(const char *trades);

#endif
