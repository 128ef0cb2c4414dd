/* stats_freqtrade.h - stats.json's tables as freqtrade's backtest report prints them: the trades
 * by exit reason and by entry tag, the longest runs of wins and losses, the market's change and
 * the account in stake currency. */
#ifndef STATS_FREQTRADE_H
#define STATS_FREQTRADE_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "replay_core.h"
#include "stats_io.h"

/* One row of a by_* table: the trades of one key. A win is a net return above 0, a draw one of
 * exactly 0, a loss one below 0 (freqtrade's profit_abs rule). */
struct sts_ft_row {
	size_t trades, wins, draws, losses, bars_known;
	double sum_return, sum_bars;
};

/* Adds one row's counts for a trade of net return r held bars (-1 when unknown). */
void sts_ft_row_add(struct sts_ft_row *row, double r, long bars);

/* The longest runs of consecutive wins (net return above 0) and of losses (every other trade, as
 * freqtrade's calc_streak counts a draw) over t[0..n) taken in entry order (ties: as given).
 * Returns 0, or -1 when memory ran out. */
int sts_ft_streaks(const struct rp_trade *t, size_t n, size_t *wins, size_t *losses);

/* Adds to o: by_exit_reason and by_entry_tag [{key, trades, mean_return, sum_return,
 * mean_bars_held, wins, draws, losses}] (most summed return first, ties by key), entry_tag_note,
 * max_consecutive_wins, max_consecutive_losses, market_change (+ market_change_note when there
 * are no prices), and balance {stake, starting_balance, final_balance, profit_abs, basis} for
 * the STAKE knob (config.json) and the net return given (compounded net equity - 1). Returns 0,
 * or -1 with a reason in err (memory, a bad STAKE). */
int sts_freqtrade_report(cJSON *o, const struct sts_stage_in *in, double net_return, char *err,
			 size_t errlen);

#endif
