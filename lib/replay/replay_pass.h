/* replay_pass.h - the replay core's running state and the steps a walk over it takes
 * (replay_core.c, walk.c); no other user. */
#ifndef SA_REPLAY_PASS_H
#define SA_REPLAY_PASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "replay_core.h"

/* Running state of one replay pass (rp_replay, rp_held_at, a walk). */
struct rp_pass {
	const struct da_ohlcv *s;
	struct rp_result *r;
	struct rp_trade *open;  /* the open trade, or NULL when flat */
	size_t entry_bar;
	double inv_entry_px;    /* 1 / open->entry_px: one division per trade, not per bar */
	double fee, slip;       /* fee_bps / 1e4 and slippage_bps / 1e4, per unit traded */
	double funding_long, funding_short;  /* per funding instant, by side (0 off perp) */
	double borrow_per_s;    /* a short's borrow fee per second held (0 off stock and spot) */
	double swap_long, swap_short;  /* fx: rollover per night held, by side (0 off fx) */
	const double *swap_col_long, *swap_col_short;  /* fx: the data's swap columns, which
							 * replace the two above (NULL: none) */
	double swap_col_k;      /* a swap column's bps a year to a night's swap */
	int64_t next_funding;   /* the first funding instant not yet reached */
	double eq_net, eq_gross;         /* equity after the closed trades, compounded, from 1 */
	double net_entry, gross_entry;   /* the equity the open trade was entered with */
	double trade_costs;              /* the open trade's costs so far, fractions of its notional */
	bool ruined;                     /* net equity reached zero: no more trading */
	const struct rp_exits *x;        /* the declared exits, or NULL */
	const int8_t *sig;               /* the signals, and whether they carry events */
	bool coded;
	double rule_fee;                 /* the fee per side the exits' profits read: fee with
					  * fee_in_profit, else 0 (rp_exits) */
	double stop, trail_stop, target; /* the open trade's levels; +-INFINITY when none */
	bool stop_trailed;               /* a custom_stoploss answer moved stop (rp_calls) */
	const struct rp_calls *calls;    /* the callbacks' answers, or NULL */
	size_t held_at;                  /* rp_held_at's bar: the pass stops there (SIZE_MAX: none) */
	struct rp_held *held;
};

/* The open trade's profit at price p as the exits read it (rp_exits): freqtrade's
 * calc_profit_ratio with the fee per side on both legs (fee_in_profit), which at a zero fee is
 * side * (p / entry - 1) exactly. The slippage the replay charges is not in it: freqtrade's
 * rules are never told of it. */
static inline double rp_pass_profit(const struct rp_pass *ps, double p)
{
	double e = ps->open->entry_px, f = ps->rule_fee;

	if (ps->open->side > 0)
		return p * (1.0 - f) / (e * (1.0 + f)) - 1.0;
	return 1.0 - p * (1.0 + f) / (e * (1.0 - f));
}

/* The open trade's stop in bar j (the tighter of the fixed and the trailing one) and why it
 * would fire. The trailing stop is the reason only when strictly tighter than the fixed one. */
static inline double rp_pass_stop_level(const struct rp_pass *ps, enum rp_exit_reason *kind)
{
	int side = ps->open->side;

	if (side * (ps->trail_stop - ps->stop) > 0) {
		*kind = RP_EXIT_TRAILING_STOP;
		return ps->trail_stop;
	}
	*kind = ps->stop_trailed ? RP_EXIT_TRAILING_STOP : RP_EXIT_STOP_LOSS;
	return ps->stop;
}

/* A pass's state for a replay of s with costs c, into r: its columns allocated. exits forces
 * the pass with exits, declared or not. Returns 0, or -1 when memory ran out. */
int rp_pass_init(struct rp_pass *ps, const struct da_ohlcv *s, const int8_t *signals,
		 const struct rp_costs *c, struct rp_result *r, bool exits);

/* The fill at bar j's open that turns position prev into p, if they differ. Returns false when
 * it ruined the account (bars from j on are then flat). */
bool rp_pass_fill(struct rp_pass *ps, int prev, int p, size_t j);

/* The position bar j's open fill leaves by a framework run's events, held the side held. */
int rp_pass_wanted(const struct rp_pass *ps, size_t j, int held);

/* Bar j of a replay with exits, after its open fill and its callbacks: the open trade's exits,
 * funding, mark and, on the last bar, the close of what is open. False once ruined. */
bool rp_pass_exits_bar(struct rp_pass *ps, size_t j);

/* Closes the open trade at px, time at, after holding it through bar last_bar inclusive. */
void rp_pass_close(struct rp_pass *ps, double px, int64_t at, size_t last_bar,
		   enum rp_exit_reason kind);

/* After ruin nothing trades: bars from a on are flat, at the equity left. */
void rp_pass_flat_from(struct rp_pass *ps, size_t a);

/* The callbacks' answers applied (walk.c, rp_calls): custom_stoploss's on bar j, while the stop
 * is not yet reached; custom_exit's at bar j's open (false once ruined); and the trade held on
 * bar j after its open's fills, into ps->held (rp_held_at's answer). */
void rp_pass_custom_stop(struct rp_pass *ps, size_t j);
/* The position bar j's open fill leaves once confirm_trade_entry answered: want, or flat when
 * want is an entry (not held, not flat) that it refused on bar j. */
int rp_pass_confirmed(const struct rp_pass *ps, size_t j, int held, int want);
bool rp_pass_calls_at_open(struct rp_pass *ps, size_t j);
void rp_pass_take_held(struct rp_pass *ps, size_t j);

#endif
