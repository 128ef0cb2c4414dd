/* stats_montecarlo.h - a Monte Carlo of the closed trades: their net returns resampled with
 * replacement (and reshuffled), compounded from 1, so the drawdown and the net return of the
 * real sequence can be placed among those of sequences of the same trades. Pure computation. */
#ifndef STATS_MONTECARLO_H
#define STATS_MONTECARLO_H

#include <stddef.h>

/* Points of the fan chart's bands along the trade count. */
#define STS_MC_FAN_POINTS 101

/* STS_MC_BOOTSTRAP draws trades one at a time (iid); STS_MC_BLOCKS in stationary blocks (Politis
 * and Romano 1994) of mean length sts_bootstrap_block(n), as the Sharpe ratio's bootstrap
 * does, so runs of trades stay together; STS_MC_RESHUFFLE permutes them. */
enum sts_mc_method { STS_MC_BOOTSTRAP, STS_MC_RESHUFFLE, STS_MC_BLOCKS };

struct sts_montecarlo {
	size_t resamples, trades;
	double dd_p50, dd_p95, dd_p99;        /* the paths' max drawdowns */
	double ret_p5, ret_p50, ret_p95;      /* the paths' compounded net returns */
	double ruin_probability;              /* share of paths whose equity reaches 0 */
	double dd_prob_20, dd_prob_50;        /* share of paths falling 20 % / 50 % or more */
	double observed_max_drawdown;         /* of the trades in their real order */
	double observed_net_return;
	double observed_percentile;           /* share of paths whose drawdown is at most it */
	double observed_worst_trade;          /* no path can hold a worse trade than this */
	size_t mean_block;                    /* STS_MC_BLOCKS' mean block; 1 otherwise */
};

/* Resamples the n net returns r (compounded: equity *= 1 + r, 0 from the first r <= -1 on)
 * resamples times with GSL's mt19937 seeded with seed: STS_MC_BOOTSTRAP draws n trades with
 * replacement, STS_MC_BLOCKS n in stationary blocks (a block starts at a uniform trade, each next
 * trade continues it, wrapping round, with probability 1 - 1 / mean_block), STS_MC_RESHUFFLE
 * permutes them. Quantiles interpolate linearly between order
 * statistics (GSL's). fan, when not NULL, receives STS_MC_FAN_POINTS x 5 values: at trade
 * i (n) / (STS_MC_FAN_POINTS - 1), the 5th, 25th, 50th, 75th and 95th percentiles of the paths'
 * equity. Returns 0, or -1 with the reason in err: no trade, no resample, or no memory. */
int sts_montecarlo(const double *r, size_t n, size_t resamples, unsigned long seed,
		  enum sts_mc_method method, struct sts_montecarlo *out, double *fan, char *err,
		  size_t errlen);

#endif
