/* replay_core.h - signals to positions, fills, trades, costs, funding and equity; trade-log
 * audits and their reconciliation with an honest replay. Pure computation: no I/O, no exit.
 *
 * Conventions (also in pipeline/README.md, "Replay conventions"):
 * - The signal of bar i is known at bar i's close, so the position held during bar i+1 is
 *   signal[i] (unit notional: +1, -1 or 0), filled at open[i+1]. Bar 0 is always flat and the
 *   last bar's signal is never traded (there is no later open to fill it).
 * - A position change trades |new - old| units: opening or closing one unit, a flip two. Each
 *   unit traded pays fee_bps and slippage_bps of one unit of notional. A trade therefore pays
 *   2 * fee_bps and 2 * slippage_bps (entry and exit), as fractions of its unit notional.
 * - Funding instants are 00:00, 08:00 and 16:00 UTC (multiples of 28800 s since the epoch). A
 *   position pays side * funding_bps_8h of its unit notional for each instant T that falls in
 *   a bar it is held during, that is entry <= T < exit: held after the fill at T's open counts,
 *   closed at T's open does not. So every instant is charged once to whoever holds the bar
 *   that contains it, and flipping at funding times does not escape it. Longs pay, shorts
 *   receive when the rate is positive.
 * - A trade's gross_return is side * (exit_px / entry_px - 1); net_return = gross_return -
 *   fees - slippage - funding. Returns are not compounded: each trade is one unit of the
 *   starting capital.
 * - Equity is marked at every bar's close: 1 + realised results of closed trades + the open
 *   trade's side * (close / entry_px - 1), less every cost paid so far (the net curve). Costs are
 *   booked in the bar they occur: entry and exit costs at the fill bar, funding in the bar that
 *   holds the instant. So the last net equity is exactly 1 + the sum of trade net returns.
 * - A position still open at the last bar is closed at the last close, paying the exit costs,
 *   and flagged open_at_end; its exit time is the last bar's close (its open time plus the
 *   last bar spacing). */
#ifndef REPLAY_CORE_H
#define REPLAY_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ohlcv.h"
#include "tradelog.h"

#define RP_FUNDING_PERIOD_S 28800

/* The cost model, in basis points. */
struct rp_costs {
	double fee_bps;         /* per unit of notional traded */
	double slippage_bps;    /* per unit of notional traded */
	double funding_bps_8h;  /* per funding instant held, of the unit notional */
};

/* One closed trade. Prices are NAN when unknown (a trade log gives no prices). */
struct rp_trade {
	int64_t entry, exit;   /* seconds since the epoch, UTC */
	int side;              /* +1 long, -1 short */
	double entry_px, exit_px;
	long bars_held;        /* bars the position was held; -1 when unknown */
	double gross, fees, slippage, funding, net;  /* fractions of the unit notional */
	bool open_at_end;      /* closed at the last close because the data ended */
};

/* What a replay or a trade-log audit produces. Release with rp_result_release. */
struct rp_result {
	size_t n_trades;
	struct rp_trade *trades;
	/* The equity curve: one row per bar (signals) or per trade exit (trade log). */
	size_t n_eq;
	const int64_t *eq_time;  /* the bar's open time (marked at its close), or the trade's exit;
				  * after rp_replay it is the data's own time column (borrowed: the
				  * result must not outlive the series), after rp_from_log owned */
	int64_t *eq_time_owned;
	int8_t *eq_pos;
	double *eq_gross, *eq_net;
	double gross_return, net_return;   /* sums over trades */
	double fees, slippage, funding;    /* sums over trades */
	double units_traded;               /* notional traded, in units (a flip counts two) */
	size_t bars_in_market;             /* bars with a non-zero position */
	double bar_seconds;                /* mean bar spacing of the data, 0 when unknown */
	bool open_at_end;
};

/* Replays signals (n values in {-1, 0, 1}, one per bar of s, already validated) with costs c
 * into r (zeroed first). Returns 0, or -1 only when memory ran out (r is then released).
 * Caller releases r with rp_result_release, before releasing s (r borrows its times). */
int rp_replay(const struct sa_ohlcv *s, const int8_t *signals, const struct rp_costs *c,
	      struct rp_result *r);

/* Turns a trade log into a result whose returns are the log's claims, trusted as given: gross
 * = net = the claimed return, costs 0, no prices. The equity curve has one row per trade in
 * exit order. When s is not NULL, bars_held, bars_in_market and bar_seconds are taken from the
 * data. Returns 0, or -1 when memory ran out. Caller releases r. */
int rp_from_log(const struct sa_tradelog *log, const struct sa_ohlcv *s, struct rp_result *r);

/* The net return of t had the whole cost model been scaled by k (0 = no costs, 1 = as
 * replayed, 3 = triple). Every cost is linear in its bps figure, so this equals a full replay
 * with k times the costs; the unit tests hold it to that. Inline: the statistics call it for
 * every trade at every multiple. */
static inline double rp_net_at(const struct rp_trade *t, double k)
{
	return t->gross - k * (t->fees + t->slippage + t->funding);
}

/* Frees everything in r and zeroes it. Safe on a zeroed or released struct. */
void rp_result_release(struct rp_result *r);

/* How a claimed trade log compares with the honest replay of the code. */
struct rp_reconcile {
	size_t claimed_trades, replay_trades;
	size_t matched;             /* claimed trades with a replay trade of the same entry and side */
	double claimed_total, replay_total;    /* sums of claimed returns and replay net returns */
	double claimed_mean, replay_mean;      /* NAN when there are no trades */
	double total_difference;               /* claimed_total - replay_total */
	double matched_mean_gap;               /* mean claimed - replay net over matched trades */
	bool consistent;            /* same trades, and the claims within tolerance of the replay */
};

/* Reconciles a claimed log with a replay (both borrowed). Matching is by entry time and side;
 * the log is consistent when every trade on each side matches and the total claimed return is
 * within RP_RECONCILE_TOL per trade of the replay's net total. */
#define RP_RECONCILE_TOL 0.0005
void rp_reconcile(const struct sa_tradelog *log, const struct rp_result *replay,
		  struct rp_reconcile *out);

/* Counts funding instants T with a <= T < b. */
long rp_funding_instants(int64_t a, int64_t b);

#endif
