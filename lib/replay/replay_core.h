/* replay_core.h - signals to positions, fills, trades, costs, funding and equity, and the result
 * a trade log's replay fills too (pipeline/replay/replay_log.c). Pure computation: no I/O, no exit.
 *
 * Conventions (also in pipeline/README.md, "Replay conventions"):
 * - The signal of bar i is known at bar i's close, so the position held during bar i+1 is
 *   signal[i] (unit notional: +1, -1 or 0), filled at open[i+1]. Bar 0 is always flat and the
 *   last bar's signal is never traded (there is no later open to fill it).
 * - A position change trades |new - old| units: opening or closing one unit, a flip two. Each
 *   unit traded pays fee_bps and slippage_bps of one unit of notional. A trade therefore pays
 *   2 * fee_bps and 2 * slippage_bps (entry and exit), as fractions of its unit notional.
 * - The market (rp_market_of) decides which holding cost applies: perp pays funding, stock and
 *   spot a short's borrow fee, fx neither; and, unless fee_bps and slippage_bps are set, the
 *   fee and slippage (the market's defaults). Unset, it follows the data: a perpetual when the
 *   data says so, weekday sessions stock, the FX week fx, bars around the clock spot.
 * - Funding (perp only) instants are 00:00, 08:00 and 16:00 UTC (multiples of 28800 s since the
 *   epoch). A position pays |funding_bps_8h| of its unit notional for each instant T that falls
 *   in a bar it is held during, that is entry <= T < exit: held after the fill at T's open
 *   counts, closed at T's open does not. So every instant is charged once to whoever holds the
 *   bar that contains it, and flipping at funding times does not escape it. Funding is never
 *   income unless funding_income is set: then it is signed, a position pays side *
 *   funding_bps_8h (longs pay, shorts receive when the rate is positive).
 * - Borrow (stock, spot): a short pays borrow_bps_year of its unit notional a year, for the
 *   calendar time of each bar it is held during (t[j + 1] - t[j], the last bar one spacing),
 *   over 365 days: so a trade's borrow is borrow_bps_year / 1e4 * (exit - entry) / 365 days.
 * - Rollover (fx): a position held over the daily rollover, 17:00 New York, pays its side's
 *   swap_*_bps_year / 360 of its unit notional a night, three nights on Wednesday, none on a
 *   weekend (rp_rollover_nights, costs.h), in the bar that contains the instant; booked as
 *   the trade's funding (fx has no other: the funding column is the swap there). When the
 *   data carries swap columns (da_ohlcv swap_long, swap_short), the bar's own rates replace
 *   the knobs' (rp_rollover_rate_bar).
 * - A trade's gross_return is side * (exit_px / entry_px - 1); net_return = gross_return -
 *   fees - slippage - funding - borrow, fractions of the equity the trade was entered with.
 * - Equity compounds: it starts at 1, and each trade's return applies to the equity at its
 *   entry. Marked at every bar's close, net equity is E_entry * (1 + side * (close / entry_px -
 *   1) - the trade's costs so far); flat, it is the equity after the last closed trade. Costs
 *   are booked in the bar they occur: entry and exit costs at the fill bar, funding in the bar
 *   that holds the instant. So the last net equity is the product of (1 + net_return) over the
 *   trades; the gross curve likewise with gross returns. net_return of the whole replay is the
 *   last net equity - 1; sum_net_return is the plain sum of the trades' returns.
 * - Ruin: when net equity reaches zero (a close marks it there, or a trade's exit leaves
 *   nothing), the open trade is closed at that close, paying its exit costs, equity stays at
 *   zero and nothing more is traded: later bars are flat. ruined and ruin_time record it.
 * - A position still open at the last bar is closed at the last close, paying the exit costs,
 *   and flagged open_at_end; its exit time is the last bar's close (its open time plus the
 *   last bar spacing).
 * - Declared exits (struct rp_exits, through rp_costs.exits) fill inside the bar, from its
 *   OHLC, after the bar's open fill and in this order: the trailing stop moves with the open;
 *   a stop (fixed or trailing) the open is already through fills at the open, then a target
 *   (take-profit or ROI) the open is already past; then a stop the low (a short's high)
 *   reaches fills at its price, before a target the high (a short's low) passes, so a bar that
 *   reaches both is the stop's; only then does the trail move with the bar's high (a short's
 *   low), for the bars after. With trail_best_first (freqtrade's order, a freqtrade class's
 *   declaration) the trail moves with the bar's high before the low is compared, while the
 *   stop is still below the low, and a target the bar passes is preferred to a trailing stop
 *   (not to a fixed one) it also reaches. A fill at the open exits at the bar's open time (the bar is not
 *   held: no funding, borrow or bar counted for it); a fill inside the bar exits at the bar's
 *   end, the bar held whole (its funding instants and borrow paid). The ROI level of a bar is
 *   the table's step with the largest minutes at or below the minutes held at the bar's open.
 *   After such an exit the position stays flat until the signal changes (a new entry needs a
 *   new signal), whatever the signal still says; signals with events (a framework run's,
 *   signals.h) are followed by their events instead (rp_replay). Costs are as for any fill. */
#ifndef REPLAY_CORE_H
#define REPLAY_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ohlcv.h"

#define RP_FUNDING_PERIOD_S 28800
#define RP_YEAR_S (365.0 * 86400.0)  /* the borrow fee's year */

/* What is traded, which decides the holding costs. RP_MARKET_AUTO: from the data's calendar. */
enum rp_market { RP_MARKET_AUTO, RP_MARKET_PERP, RP_MARKET_SPOT, RP_MARKET_STOCK, RP_MARKET_FX,
		 RP_MARKETS };

/* Why a trade closed. RP_EXIT_UNKNOWN for a trade log's trades (the log does not say). */
enum rp_exit_reason {
	RP_EXIT_UNKNOWN, RP_EXIT_SIGNAL, RP_EXIT_STOP_LOSS, RP_EXIT_TAKE_PROFIT, RP_EXIT_ROI,
	RP_EXIT_TRAILING_STOP, RP_EXIT_END, RP_EXIT_RUIN, RP_EXIT_CUSTOM, RP_EXIT_N
};

/* "", "signal", "stop_loss", "take_profit", "roi", "trailing_stop", "end", "ruin",
 * "custom_exit". */
const char *rp_exit_reason_name(enum rp_exit_reason e);

#define RP_ROI_MAX 64

/* One step of a ROI table: from minutes held on, exit once the trade gains ret. */
struct rp_roi_step {
	double minutes, ret;
};

/* The exits a strategy declares (lib/replay/exits.h reads them), as fractions of the entry price, each
 * 0 when not declared: a long's stop sits at entry * (1 - stop_loss), its take-profit at
 * entry * (1 + take_profit), a short's mirrored. The trailing stop starts at entry * (1 - trail)
 * and follows each price p the bar is known to have reached to p * (1 - d), never back: d is
 * trail_positive (when set) once p gains more than trail_offset, else trail; with
 * trail_only_offset it does not move until p gains trail_offset (freqtrade's semantics);
 * trail_best_first moves it with a bar's best price before the bar's worst is compared (the
 * order freqtrade's backtest takes, above).
 *
 * Two of freqtrade's rules about the open trade, which only signals with events (signals.h)
 * carry: with exit_profit_only an exit signal closes the trade only when its profit at the
 * fill's open, side * (open / entry_px - 1) (with fee_in_profit freqtrade's, below), is above
 * exit_profit_offset, else the trade is held on to its stop, its ROI or a later exit signal;
 * with ignore_roi_if_entry_signal the ROI table does not apply in a bar whose candle before set
 * the held side's entry signal (DA_EV_ENTER_* of that side, or DA_EV_LONG_SIGNAL for a long).
 *
 * fee_in_profit (a freqtrade class's exits, "source": "freqtrade") reads every profit a rule
 * compares as freqtrade's Trade.calc_profit_ratio does, with the replay's fee f per side (its
 * fee_bps / 1e4, the fee freqtrade would be told) on both legs: a long's profit at price p is
 * p * (1 - f) / (entry * (1 + f)) - 1, a short's 1 - p * (1 + f) / (entry * (1 - f)). That
 * profit is what exit_profit_only compares with exit_profit_offset (at the fill's open), what
 * the trailing offsets gate (at the price the trail moves with) and what the ROI level must
 * exceed (at the bar's best price); an ROI exit inside the bar then fills at freqtrade's ROI
 * close rate, the price whose fee-paid return is the level's, entry * (1 + f + ret) / (1 - f)
 * (a short's entry * (1 - f - ret) / (1 + f)), kept within the bar's low and high. The
 * slippage the replay charges is a cost freqtrade's rules never see, so it takes no part.
 * Stop-loss and trailing-stop levels stay prices, as freqtrade's are. Without fee_in_profit
 * (and at a zero fee) a profit is side * (p / entry - 1) and a level entry * (1 + side * ret). */
struct rp_exits {
	double stop_loss, take_profit;
	double trail, trail_positive, trail_offset;
	bool trail_only_offset, trail_best_first;
	bool exit_profit_only, ignore_roi_if_entry_signal;
	bool fee_in_profit;
	double exit_profit_offset;
	size_t n_roi;
	struct rp_roi_step roi[RP_ROI_MAX];  /* minutes strictly ascending */
};

/* A freqtrade class's per-trade callbacks, answered bar by bar for the trade the replay holds
 * (rp_held_at says what that trade is and which callbacks freqtrade would call on the bar), each
 * array one value a bar of the series, borrowed:
 * - stop[j]: custom_stoploss's ratio on candle j, NAN when not asked or no answer (freqtrade's
 *   None, 0, NaN). The level is the bar's best price (freqtrade's bound: a long's high, a
 *   short's low) times 1 - side * |ratio|; it only tightens the stop (Trade.adjust_stop_loss),
 *   is set after the open's fills and before the bar's worst price is compared, and a stop it
 *   moved fills as a trailing stop (freqtrade's is_stop_loss_trailing), at its level.
 * - exit[j]: custom_exit's answer on candle j, 0 none: the trade closes at bar j's open,
 *   RP_EXIT_CUSTOM, before any stop or target of the bar (freqtrade's exits' order).
 * - refused[j] (may be NULL): confirm_trade_entry refused the entry bar j's open would fill
 *   (freqtrade's _enter_trade returns no trade): the fill at bar j's open enters nothing (a
 *   flip still closes the trade held), the other answers of bar j are none, and freqtrade asks
 *   again on the next candle whose entry signal is set.
 * - side[j], entry[j] (both may be NULL): the trade the answers were asked for, its side (0
 *   none asked) and entry bar: a replay that holds another trade at bar j records the first such
 *   bar (rp_result.calls_mismatch), as its answers are then for a trade it does not hold (an
 *   entry refused on bar j is asked for a trade the replay then does not hold, as it should). */
struct rp_calls {
	const double *stop;
	const uint8_t *exit;
	const uint8_t *refused;
	const int8_t *side;
	const uint32_t *entry;
};

/* Whether x declares any exit (false for NULL). */
bool rp_exits_any(const struct rp_exits *x);

/* The cost model, in basis points, and the exits the fills follow. */
struct rp_costs {
	double fee_bps;         /* per unit of notional traded; NAN: the market's, below */
	double slippage_bps;    /* per unit of notional traded; NAN: the market's, below */
	double market_fee_bps[RP_MARKETS], market_slippage_bps[RP_MARKETS];  /* by enum rp_market */
	double funding_bps_8h;  /* perp: per funding instant held, of the unit notional */
	bool funding_income;    /* funding signed by side (a short can earn it); else always paid */
	double borrow_bps_year; /* stock, spot: a short's borrow fee, a year of its notional */
	double swap_long_bps_year, swap_short_bps_year;  /* fx: rollover by side, a year of its
							  * notional (negative: earned), costs.h */
	double swap_column_k;   /* the data's swap columns (da_ohlcv swap_long, swap_short), which
				 * replace the two above bar by bar, are charged times this when
				 * swap_column_k_set (rp_costs_scaled's k), else once */
	bool swap_column_k_set;
	double min_fee_bps_stock; /* stock: the fee per side is at least this, the minimum
				   * commission an order pays over its stake, in bps (0: none) */
	double spread_floor;    /* SPREAD_FLOOR: the share of half the bars' estimated spread that
				 * slippage is never below (0: no floor) */
	double spread_floor_bps; /* that floor in bps per side, for the bars rp_costs_floor saw
				  * (0 until then): rp_slippage_bps charges at least this */
	enum rp_market market;
	const struct rp_exits *exits;  /* borrowed; NULL or none declared: signal exits only */
	const struct rp_calls *calls;  /* borrowed; NULL: no per-trade callbacks (with exits only) */
	/* The fee per side, by market, that exits with fee_in_profit read (the fee freqtrade would
	 * be told), when rules_fee_set: rp_costs_scaled keeps the unscaled fee here, so a replay at
	 * k times the costs charges k times the fee on the trades freqtrade's rules make at the
	 * audit's own fee. Unset: rp_fee_bps's. */
	bool rules_fee_set;
	double rules_fee_bps[RP_MARKETS];
};

/* The market a replay of s with c charges: c's, or when unset the data's: perp when it says so
 * (da_ohlcv_format.perpetual), stock for weekday sessions, fx for the FX week, else spot. */
enum rp_market rp_market_of(const struct rp_costs *c, const struct da_ohlcv *s);

/* The fee and the slippage per side, in bps, a replay in market m charges: c's own when set,
 * else market m's default; a stock's fee never below c->min_fee_bps_stock, the slippage never
 * below c->spread_floor_bps. */
double rp_fee_bps(const struct rp_costs *c, enum rp_market m);
double rp_slippage_bps(const struct rp_costs *c, enum rp_market m);

/* "perp", "spot", "stock", "fx" ("" for RP_MARKET_AUTO). */
const char *rp_market_name(enum rp_market m);

/* One closed trade. Prices are NAN when unknown (a trade log gives no prices). */
struct rp_trade {
	int64_t entry, exit;   /* seconds since the epoch, UTC */
	int side;              /* +1 long, -1 short */
	double entry_px, exit_px;
	long bars_held;        /* bars the position was held; -1 when unknown */
	double gross, fees, slippage, funding, borrow, net;  /* fractions of the unit notional */
	bool open_at_end;      /* closed at the last close because the data ended */
	unsigned char exit_reason;  /* enum rp_exit_reason */
	unsigned char entry_tag, exit_tag;  /* a tag's place from 1 in the caller's table (signals.h,
					     * struct da_tags), 0 none; rp_replay sets none */
};

/* What a replay or a trade-log audit produces. Release with rp_result_release. */
struct rp_result {
	size_t n_trades;
	struct rp_trade *trades;
	/* The equity curve: one row per bar (signals) or per trade exit (trade log). */
	size_t n_eq;
	const int64_t *eq_time;  /* the bar's open time (marked at its close), or the trade's exit;
				  * after rp_replay it is the data's own time column (borrowed: the
				  * result must not outlive the series), after rpl_from_log owned */
	int64_t *eq_time_owned;
	int8_t *eq_pos;
	double *eq_gross, *eq_net;
	double gross_return, net_return;   /* last compounded equity - 1 (gross, net) */
	double sum_gross_return, sum_net_return;  /* plain sums over trades */
	bool ruined;                       /* net equity reached zero; nothing traded after */
	int64_t ruin_time;                 /* when (the bar's close or the trade's exit) */
	double fees, slippage, funding, borrow;  /* sums over trades */
	enum rp_market market;             /* the market charged (never AUTO after rp_replay) */
	double units_traded;               /* notional traded, in units (a flip counts two) */
	size_t bars_in_market;             /* bars with a non-zero position */
	double bar_seconds;                /* mean bar spacing of the data, 0 when unknown */
	bool open_at_end;
	size_t exits[RP_EXIT_N];           /* trades by exit_reason */
	bool calls_mismatch;               /* c->calls were asked for another trade at bar */
	size_t calls_mismatch_bar;         /* the first such bar (rp_calls) */
};

/* The trade a replay holds on bar j after its open's fills, as freqtrade's callbacks on candle j
 * see it (optimize/backtesting.py's _check_trade_exit, strategy/interface.py's should_exit):
 * what the host sends the live run before the bar. */
struct rp_held {
	int side;                   /* +1, -1, 0 when flat */
	size_t entry_bar;
	int64_t entry;              /* the entry's time (its bar's open time) */
	double entry_px, stop;      /* the entry price and the stop level held (+-INFINITY: none) */
	double rate, profit;        /* bar j's open and the trade's profit there (custom_exit's) */
	double bound, bound_profit; /* the bar's best price and the profit there (custom_stoploss's) */
	bool ask_exit;              /* no effective exit signal of its side on the candle before */
	bool ask_stop;              /* the stop is not yet at the bar's worst price */
	bool ask_entry;             /* the trade entered at bar j's open (confirm_trade_entry's) */
};

/* The trade a replay of signals with costs c (and c->calls up to bar j - 1) holds on bar j, into
 * h; the signals and answers from bar j on are not read. Profits are freqtrade's
 * calc_profit_ratio at the exits' fee (rp_exits, fee_in_profit). Returns 0, or -1 when memory
 * ran out or j is not a bar of s. */
int rp_held_at(const struct da_ohlcv *s, const int8_t *signals, const struct rp_costs *c, size_t j,
	       struct rp_held *h);

/* rp_held_at bar after bar, each in the time of that bar's replay: a walk over s with signals
 * (a framework run's values, with events) and costs c (borrowed, as are the arrays c->calls
 * points at; c->market set, or the data's), whose values and answers before bar j are final when
 * it is asked about j. rp_walk_to gives the trade held on bar j, j never before the bar last
 * asked about (the same bar again gives the same); returns 0, or -1 for a bar out of turn or
 * range. NULL from rp_walk_new when memory ran out; free with rp_walk_free (NULL is safe). */
struct rp_walk;
struct rp_walk *rp_walk_new(const struct da_ohlcv *s, const int8_t *signals, const struct rp_costs *c);
int rp_walk_to(struct rp_walk *w, size_t j, struct rp_held *h);
void rp_walk_free(struct rp_walk *w);

/* Replays signals (n values in {-1, 0, 1}, one per bar of s, already validated; a framework
 * run's may carry events, signals.h) with costs c, and the exits c->exits declares, into r
 * (zeroed first). A value's position (da_position) is held from the next open; with exits, after
 * a trade left inside a bar a position series stays flat until the signal changes, while signals
 * with events are followed by their events (as freqtrade's backtest enters again on the next
 * candle whose entry signal is set, either side). Returns 0, or -1 only when memory ran out (r is then released).
 * Caller releases r with rp_result_release, before releasing s (r borrows its times). */
int rp_replay(const struct da_ohlcv *s, const int8_t *signals, const struct rp_costs *c,
	      struct rp_result *r);

/* The net return of t had the whole cost model been scaled by k (0 = no costs, 1 = as
 * replayed, 3 = triple). Every cost is linear in its bps figure, so this equals a replay with k
 * times the costs (rp_costs_scaled) trade by trade, as long as no mark of the path reaches zero:
 * a replay is ruined there and trades no more, which rescaled trades cannot see. So the
 * statistics re-replay when they have the prices and the signals, and rescale with this only
 * for a trade log. Inline: it is called for every trade at every multiple. */
static inline double rp_net_at(const struct rp_trade *t, double k)
{
	return t->gross - k * (t->fees + t->slippage + t->funding + t->borrow);
}

/* c with every bps figure (fees, slippage and its floor, funding, borrow) times k >= 0, the market,
 * funding_income and the exits as they are: the cost model a replay at k times the costs uses.
 * The fee the exits' rules read (rules_fee_bps) stays c's unscaled one: the trades are the same
 * at every multiple, only what they pay scales. */
struct rp_costs rp_costs_scaled(const struct rp_costs *c, double k);

/* The trades' net returns in trade order, a new array of r->n_trades (at least one slot, so
 * never NULL for none). Caller frees; NULL when memory ran out. */
double *rp_trade_nets(const struct rp_result *r);

/* Frees everything in r and zeroes it. Safe on a zeroed or released struct. */
void rp_result_release(struct rp_result *r);

/* Counts funding instants T with a <= T < b. */
long rp_funding_instants(int64_t a, int64_t b);

#endif
