/* stats_quant.h - stats.json's figures as quantstats defines them that the rest of the stage
 * lacks: the Kelly fraction, the ulcer index, the recovery factor, and the spread of the trades'
 * durations. */
#ifndef STATS_QUANT_H
#define STATS_QUANT_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "replay_core.h"

/* The Kelly fraction of per-trade net returns r[0..n): win rate p (wins over the trades that
 * are not flat) and payoff b (mean win over the magnitude of the mean loss), (b p - (1 - p)) / b;
 * NAN without a win and a loss. */
double sts_kelly(const double *r, size_t n);

/* The ulcer index of a net equity curve eq[0..n): the root of the summed squares of its falls
 * from the running peak (eq / peak - 1, the peak from eq[0]) over n - 1, up to and including the
 * first point at or below zero; NAN below 2 points. */
double sts_ulcer(const double *eq, size_t n);

/* The p-quantile (0..1) of sorted x[0..n), linear between order statistics (numpy's default);
 * NAN when n is 0. */
double sts_quantile_sorted(const double *x, size_t n, double p);

/* Adds kelly, ulcer_index, recovery_factor (net_return over max_drawdown, null when there was
 * no fall) and trade_durations {trades, bars {min, p25, median, p75, max, mean} (the trades
 * whose bars_held is known, null without any), hours {the same of exit - entry}} to o from the
 * trades t[0..n) and the curve eq[0..n_eq). Returns 0, or -1 when memory ran out. */
int sts_quant_report(cJSON *o, const struct rp_trade *t, size_t n, const double *eq, size_t n_eq,
		     double net_return, double max_drawdown);

#endif
