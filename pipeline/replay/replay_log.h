/* replay_log.h - the replay stage's log mode: a trade log's claimed returns as a result
 * (replay_log.c), and the log set against the code's honest replay, trade by trade
 * (replay_reconcile.c). */
#ifndef SA_REPLAY_LOG_H
#define SA_REPLAY_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "replay_core.h"
#include "tradelog.h"

/* Turns a trade log into a result whose returns are the log's claims, trusted as given: gross
 * = net = the claimed return, costs 0, no prices. The equity curve has one row per trade in
 * exit order, compounded: each claim applies to the trade's share of the equity at its entry
 * (the curve's last row at or before it; the share is 1 / the most trades open at once in its
 * life, stats_overlap.h, so trades open together are shares of one account). At ruin the curve stops, and only the trades it closed are kept. When s is not NULL, bars_held, bars_in_market and bar_seconds are taken from the
 * data. Returns 0, or -1 when memory ran out. Caller releases r. */
int rpl_from_log(const struct da_tradelog *log, const struct da_ohlcv *s, struct rp_result *r);

/* One claimed trade set against the replayed trade it matched (or not). */
struct rpl_pair {
	size_t line;                 /* the trade log's line, 0 when the trade is the replay's */
	int64_t entry, exit;         /* the claimed trade's (or the replay's, for replay_only) */
	int side;
	double claimed, replayed;    /* net returns; NAN on the side that has no trade */
	double gap;                  /* claimed - replayed, NAN unless matched */
	int64_t replay_exit;         /* the matched replay trade's exit */
};

#define RPL_WORST 10

/* How a claimed trade log compares with the honest replay of the code, trade by trade. */
struct rpl_reconcile {
	size_t claimed_trades, replay_trades;
	size_t matched;             /* claimed trades matched one to one to a replayed trade */
	size_t claimed_only;        /* claimed trades the code never made */
	size_t replay_only;         /* replayed trades the log leaves out */
	size_t exit_mismatches;     /* matched trades whose exits differ by more than one bar */
	size_t gaps_over;           /* matched trades whose gap exceeds the tolerance */
	double tolerance;           /* the largest gap allowed per trade, a fraction */
	double claimed_total, replay_total;    /* sums of claimed returns and replay net returns */
	double claimed_mean, replay_mean;      /* NAN when there are no trades */
	double total_difference;               /* claimed_total - replay_total */
	double mean_gap, sd_gap, t_gap;        /* of the per-trade gaps; NAN where undefined */
	size_t n_worst;
	struct rpl_pair worst[RPL_WORST];        /* the largest gaps, largest first */
	struct rpl_pair first_claimed_only, first_replay_only, first_exit_mismatch;
	bool consistent;            /* one to one, exits agree, every gap within tolerance */
};

/* Reconciles a claimed log with a replay (both borrowed), one to one: each claimed trade is
 * matched to at most one replayed trade of the same side whose entry is within one bar
 * (replay->bar_seconds) of the claimed one, the nearest unused; then exit times (within one
 * bar) and net returns are compared. tolerance is the largest gap per trade, a fraction.
 * Returns 0, or -1 when memory ran out. */
int rpl_reconcile(const struct da_tradelog *log, const struct rp_result *replay, double tolerance,
		 struct rpl_reconcile *out);

/* The first bar of s with t >= at (s->t ascending), s->n when none. */
size_t rpl_bar_at_or_after(const struct da_ohlcv *s, int64_t at);

#endif
