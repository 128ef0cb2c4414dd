/* stats_tearsheet.h - the figures a tearsheet reader asks for after the Sharpe ratio: a buy and
 * hold benchmark, drawdown episodes, calendar returns, a rolling Sharpe, late fills, the cost
 * break-even, a bootstrap interval and trade statistics. Pure computation on the replay's
 * files; every figure is an equity ratio or a drawdown from the peak (1 - eq / peak), so it
 * stays right whether the net curve adds trade results or compounds them. */
#ifndef STATS_TEARSHEET_H
#define STATS_TEARSHEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>
#include <gsl/gsl_rng.h>

#include "ohlcv.h"
#include "replay_core.h"

#define STS_N_EPISODES 5
#define STS_N_DELAYS 4
#define STS_BOOT_RESAMPLES 2000

/* One drawdown episode of a curve: indexes into it. end is (size_t)-1 when not recovered. */
struct sts_episode {
	size_t start, trough, end;
	double depth;  /* 1 - trough / peak */
	size_t bars;   /* start to end, or to the last row when not recovered */
};

/* The deepest episodes of eq[0..n) (the peak starts at start_eq, before row 0), deepest first,
 * at most max of them, into ep. Returns how many. An episode starts at its peak's row (row 0
 * when the peak is the starting equity) and ends at the first row back at or above the peak. */
size_t sts_drawdown_episodes(double start_eq, const double *eq, size_t n, struct sts_episode *ep,
			    size_t max);

/* The window used when the knob says 0: a quarter of the rows, at least 2. */
size_t sts_rolling_window(long long knob, size_t n);

/* Buy and hold of s: long from bar 1's open to the last close, costs as a long pays them,
 * replayed by rp_replay into r (caller releases). Returns 0, or -1 when out of memory or s has
 * fewer than 2 bars. */
int sts_benchmark_replay(const struct da_ohlcv *s, const struct rp_costs *c, struct rp_result *r);

/* Fewer trades than this give no bootstrap interval: a handful of values has too few distinct
 * resamples for a 2.5 % tail (two trades have three), and the interval would only repeat them. */
#define STS_BOOT_MIN_TRADES 10

/* What a bootstrap of the Sharpe ratio found. Every resample counts: one with no spread has
 * Sharpe -INFINITY when its mean loses (the worst there is), +INFINITY when it gains, 0 when it
 * is flat, so lo or hi is infinite when its quantile falls among them. */
struct sts_boot {
	double lo, hi;                          /* the 2.5 % and 97.5 % quantiles; NAN on -1 */
	size_t flat_negative, flat_zero, flat_positive;  /* resamples with no spread, by mean */
};

/* A stationary block bootstrap (Politis and Romano 1994) of the per-observation Sharpe ratio of
 * x[0..n): resamples series of n by blocks of geometric length with mean block, GSL's MT19937
 * seeded with seed, into b. A quantile whose interpolation would touch an infinite neighbour is
 * the order statistic on the side of its tail (lo the lower, hi the upper). Returns 0, or -1
 * when n < STS_BOOT_MIN_TRADES, block or resamples is 0, or memory ran out (lo and hi NAN). */
int sts_bootstrap_sharpe(const double *x, size_t n, size_t block, unsigned long seed,
			size_t resamples, struct sts_boot *b);

/* The mean block length used: n^(1/3) rounded, at least 1. */
size_t sts_bootstrap_block(size_t n);

/* One stationary-bootstrap resample (Politis and Romano 1994) of x[0..n) into y[0..n): a block
 * starts at a uniform index and each next value continues it (wrapping round) with probability
 * 1 - p_new, else a new block starts; draws from r. */
void sts_stationary_resample(const double *x, size_t n, double p_new, gsl_rng *r, double *y);

/* What the tearsheet is computed from (all borrowed; data and signals may be NULL, with the
 * reason in data_err and signals_err). */
struct sts_tearsheet_in {
	const struct rp_trade *trades;
	size_t n_trades;
	const double *eq_net;
	const int64_t *eq_time;       /* equity.csv's time column, n_eq values */
	size_t n_eq;
	bool eq_per_bar;
	double bar_seconds;
	double max_drawdown, sharpe, net_return, annual_factor, sharpe_annualised;
	bool ruined;                  /* the headline's net equity reached zero */
	const struct da_ohlcv *data;
	const char *data_err;
	const int8_t *signals;        /* data->n validated signals */
	const char *signals_err;
	struct rp_costs costs;
	long long rolling_knob;
	unsigned long seed;
};

/* Adds benchmark, drawdowns, monthly, yearly, rolling_sharpe, delay_sensitivity,
 * breakeven_cost_multiple and breakeven (stats_rerun.h: each late fill and each step of the
 * break-even a replay of its own), sharpe_ci95, trade_stats, sortino and calmar to o (stats.json).
 * A figure that cannot be computed is null with a note beside it. Returns 0, or -1 when memory
 * ran out. */
int sts_tearsheet(cJSON *o, const struct sts_tearsheet_in *in);

/* Parses equity.csv's time column (n rows, as sts_parse_equity counted them) into a new array
 * (caller frees). Returns 0, or -1 with "equity.csv line N: reason" in err. */
int sts_parse_equity_times(const char *buf, size_t len, size_t n, int64_t **times, char *err,
			  size_t errlen);

#endif
