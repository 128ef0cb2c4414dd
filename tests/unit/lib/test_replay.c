/* test_replay.c - the replay core: fills, costs, funding and equity checked by hand on a
 * five-bar series, trade-log audits, reconciliation, and hostile run.json. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "calls.h"
#include "costs.h"
#include "exits.h"
#include "jsonio.h"
#include "replay_core.h"
#include "replay_live.h"
#include "replay_log.h"
#include "replay_io.h"
#include "replay_tags.h"
#include "signals.h"

#define H 3600
#define T0 1704067200 /* 2024-01-01T00:00:00Z, a funding instant */
#define EPS 1e-12

/* |a - b| <= eps, with both values in the failure message. */
#define assert_near(a, b, eps) do { \
	double a_ = (a), b_ = (b); \
	if (!(fabs(a_ - b_) <= (eps))) \
		fail_msg("%s = %.15g, expected %.15g", #a, a_, b_); \
} while (0)

static const struct rp_costs costs = { .fee_bps = 5, .slippage_bps = 2, .funding_bps_8h = 1,
				       .market = RP_MARKET_PERP };

/* Five hourly bars from start; signals long, long, short, short, (flat, never traded). So the
 * position is 0, +1 (filled at open[1] = 102), +1, -1 (a flip at open[3] = 101), -1, still
 * open at the end and closed at close[4] = 98. */
static int64_t t5[5];
static double o5[5] = { 100, 102, 104, 101, 99 };
static double h5[5] = { 103, 105, 105, 102, 100 };
static double l5[5] = { 99, 101, 100, 98, 97 };
static double c5[5] = { 102, 104, 101, 99, 98 };
static double v5[5] = { 1, 1, 1, 1, 1 };
static const int8_t sig5[5] = { 1, 1, -1, -1, 0 };

static struct da_ohlcv five_bars(int64_t start)
{
	for (int i = 0; i < 5; i++)
		t5[i] = start + i * H;
	return (struct da_ohlcv){ .n = 5, .t = t5, .open = o5, .high = h5, .low = l5,
				  .close = c5, .volume = v5 };
}

/* Starting at 06:00 the 08:00 funding instant falls inside the long (bar 2). */
static void test_five_bars_by_hand(void **state)
{
	struct da_ohlcv s = five_bars(T0 + 6 * H);
	struct rp_result r;
	const struct rp_trade *a, *b;

	(void)state;
	assert_int_equal(rp_replay(&s, sig5, &costs, &r), 0);
	assert_int_equal(r.n_trades, 2);
	a = &r.trades[0];
	b = &r.trades[1];

	/* Long: 07:00 @ 102 to 09:00 @ 101, held through 08:00 (one funding instant). */
	assert_int_equal(a->side, 1);
	assert_int_equal(a->entry, T0 + 7 * H);
	assert_int_equal(a->exit, T0 + 9 * H);
	assert_int_equal(a->bars_held, 2);
	assert_near(a->gross, 101.0 / 102.0 - 1, EPS);
	assert_near(a->fees, 0.0010, EPS);
	assert_near(a->slippage, 0.0004, EPS);
	assert_near(a->funding, 0.0001, EPS);
	assert_near(a->net, -0.0098039215686 - 0.0015, 1e-12);
	assert_false(a->open_at_end);

	/* Short from the flip at 09:00 @ 101, closed at the last close 98 (time 11:00). */
	assert_int_equal(b->side, -1);
	assert_int_equal(b->entry, T0 + 9 * H);
	assert_int_equal(b->exit, T0 + 11 * H);
	assert_int_equal(b->bars_held, 2);
	assert_near(b->gross, 1 - 98.0 / 101.0, EPS);
	assert_near(b->funding, 0.0, EPS);
	assert_near(b->net, 0.0297029702970 - 0.0014, 1e-12);
	assert_true(b->open_at_end);
	assert_true(r.open_at_end);

	/* One unit in, two at the flip, one out at the end. */
	assert_near(r.units_traded, 4, EPS);
	assert_int_equal(r.bars_in_market, 4);
	assert_near(r.bar_seconds, 3600, EPS);

	/* Equity marked at each close and compounded: the short's returns apply to what the long
	 * left, e1 net and g1 gross; costs booked in the bar they occur. */
	double e1 = 1 + a->net, g1 = 101.0 / 102;
	const double gross[5] = { 1, 104.0 / 102, 101.0 / 102, g1 * (1 + (1 - 99.0 / 101)),
		g1 * (1 + (1 - 98.0 / 101)) };
	const double net[5] = { 1, 1 + (104.0 / 102 - 1) - 0.0007, 1 + (101.0 / 102 - 1) - 0.0008,
		e1 * (1 + (1 - 99.0 / 101) - 0.0007), e1 * (1 + b->net) };
	static const int8_t pos[5] = { 0, 1, 1, -1, -1 };
	assert_int_equal(r.n_eq, 5);
	for (int j = 0; j < 5; j++) {
		assert_int_equal(r.eq_pos[j], pos[j]);
		assert_int_equal(r.eq_time[j], t5[j]);
		assert_near(r.eq_gross[j], gross[j], EPS);
		assert_near(r.eq_net[j], net[j], EPS);
	}
	/* The curve ends at the product of (1 + net) over the trades; the sum is kept apart. */
	assert_near(r.eq_net[4], (1 + a->net) * (1 + b->net), EPS);
	assert_near(r.net_return, (1 + a->net) * (1 + b->net) - 1, EPS);
	assert_near(r.sum_net_return, a->net + b->net, EPS);
	assert_false(r.ruined);
	assert_near(r.fees + r.slippage + r.funding, 0.0029, EPS);
	rp_result_release(&r);
}

/* Starting at 05:00 the long closes at 08:00 (does not pay) and the short opens at 08:00
 * (holds that bar, so it pays the funding: never income by default). */
static void test_funding_at_the_flip(void **state)
{
	struct da_ohlcv s = five_bars(T0 + 5 * H);
	struct rp_result r;

	(void)state;
	assert_int_equal(rp_replay(&s, sig5, &costs, &r), 0);
	assert_int_equal(r.market, RP_MARKET_PERP);
	assert_int_equal(r.n_trades, 2);
	assert_near(r.trades[0].funding, 0.0, EPS);
	assert_near(r.trades[1].funding, 0.0001, EPS);
	assert_near(r.trades[1].borrow, 0.0, EPS);
	assert_near(r.trades[1].net, (1 - 98.0 / 101.0) - 0.0014 - 0.0001, EPS);
	rp_result_release(&r);
}

/* Signed funding (FUNDING_INCOME=1): the short receives it; a negative rate makes a long
 * receive it. Without the flag a negative rate is still paid by every side. */
static void test_funding_income(void **state)
{
	struct da_ohlcv s = five_bars(T0 + 5 * H);
	struct rp_costs signed_ = costs, neg = costs;
	struct rp_result r;

	(void)state;
	signed_.funding_income = true;
	assert_int_equal(rp_replay(&s, sig5, &signed_, &r), 0);
	assert_near(r.trades[1].funding, -0.0001, EPS);
	assert_near(r.trades[1].net, (1 - 98.0 / 101.0) - 0.0014 + 0.0001, EPS);
	rp_result_release(&r);
	neg.funding_bps_8h = -1;
	assert_int_equal(rp_replay(&s, sig5, &neg, &r), 0);
	assert_near(r.trades[1].funding, 0.0001, EPS);
	rp_result_release(&r);
}

/* A stock pays no funding; its short pays borrow for the calendar time held: the short of the
 * flip is held from 08:00 to the last close, 10:00, two hours of 30 bp a year. A long pays
 * none. fx pays neither. */
static void test_borrow_on_stock(void **state)
{
	struct da_ohlcv s = five_bars(T0 + 5 * H);
	struct rp_costs stock = costs, fx = costs;
	struct rp_result r;
	double borrow = 30 / 1e4 * (2.0 * H) / (365.0 * 86400.0);

	(void)state;
	stock.market = RP_MARKET_STOCK;
	stock.borrow_bps_year = 30;
	assert_int_equal(rp_replay(&s, sig5, &stock, &r), 0);
	assert_int_equal(r.market, RP_MARKET_STOCK);
	assert_near(r.funding, 0.0, EPS);
	assert_near(r.trades[0].borrow, 0.0, EPS);
	assert_near(r.trades[1].borrow, borrow, 1e-15);
	assert_near(r.borrow, borrow, 1e-15);
	assert_near(r.trades[1].net, (1 - 98.0 / 101.0) - 0.0014 - borrow, EPS);
	assert_near(r.net_return, (1 + r.trades[0].net) * (1 + r.trades[1].net) - 1, EPS);
	rp_result_release(&r);
	fx.market = RP_MARKET_FX;
	fx.borrow_bps_year = 30;
	assert_int_equal(rp_replay(&s, sig5, &fx, &r), 0);
	assert_near(r.funding + r.borrow, 0.0, EPS);
	rp_result_release(&r);
}

/* Held long over the same bars: bar 3's swap_long, 500 bp a year, three nights. */
static void sig_flip_long(const struct da_ohlcv *s, const struct rp_costs *fx)
{
	static const int8_t longs[5] = { 1, 1, 1, 1, 0 };
	struct rp_result r;

	assert_int_equal(rp_replay(s, longs, fx, &r), 0);
	assert_near(r.funding, 3 * 500 / 1e4 / 360, 1e-15);
	rp_result_release(&r);
}

/* FX rollover from the data's swap columns: five hourly bars from Wednesday 10 January 2024,
 * 19:00 UTC, so winter's rollover, 22:00 UTC, three nights, falls in bar 3, where the flip's
 * short is held. The bar's own swap_short (720 bp a year: 2 bp a night) is paid, not the knobs'
 * 100, by the plain replay and by the one with exits alike, and twice at twice the costs; a
 * bar's long rate is read for a long alone. */
static void test_swap_columns_by_bar(void **state)
{
	struct da_ohlcv s = five_bars(1704913200);
	double lng[5] = { 500, 500, 500, 500, 500 }, sht[5] = { 0, 0, 0, 720, 0 };
	const struct rp_exits far = { .stop_loss = 0.5 };
	struct rp_costs fx = costs, twice;
	struct rp_result r;

	(void)state;
	fx.market = RP_MARKET_FX;
	fx.swap_long_bps_year = fx.swap_short_bps_year = 100;
	assert_int_equal(rp_replay(&s, sig5, &fx, &r), 0);
	assert_near(r.trades[1].funding, 3 * 100 / 1e4 / 360, 1e-15);  /* no columns: the knobs */
	rp_result_release(&r);
	s.swap_long = lng;
	s.swap_short = sht;
	assert_int_equal(rp_replay(&s, sig5, &fx, &r), 0);
	assert_near(r.trades[0].funding, 0.0, EPS);  /* the long holds no rollover */
	assert_near(r.trades[1].funding, 3 * 720 / 1e4 / 360, 1e-15);
	assert_near(r.funding, 6e-4, 1e-15);
	rp_result_release(&r);
	fx.exits = &far;
	assert_int_equal(rp_replay(&s, sig5, &fx, &r), 0);
	assert_near(r.trades[1].funding, 6e-4, 1e-15);
	rp_result_release(&r);
	twice = rp_costs_scaled(&fx, 2);
	assert_int_equal(rp_replay(&s, sig5, &twice, &r), 0);
	assert_near(r.trades[1].funding, 12e-4, 1e-15);
	rp_result_release(&r);
	fx.exits = NULL;
	sig_flip_long(&s, &fx);
}

/* Unset, the market follows the data: a perpetual when it says so, weekday sessions stock, the
 * FX week fx, else spot; and the fee and slippage follow the market unless set. */
static void test_market_from_calendar(void **state)
{
	struct da_ohlcv s = five_bars(T0);
	struct rp_costs c = costs;

	(void)state;
	c.market = RP_MARKET_AUTO;
	assert_int_equal(rp_market_of(&c, &s), RP_MARKET_SPOT);
	s.fmt.fx_week = true;
	assert_int_equal(rp_market_of(&c, &s), RP_MARKET_FX);
	s.fmt.sessions = true;
	s.fmt.fx_week = false;
	assert_int_equal(rp_market_of(&c, &s), RP_MARKET_STOCK);
	snprintf(s.fmt.perpetual, sizeof s.fmt.perpetual, "a funding column");
	assert_int_equal(rp_market_of(&c, &s), RP_MARKET_PERP);
	c.market = RP_MARKET_SPOT;
	assert_int_equal(rp_market_of(&c, &s), RP_MARKET_SPOT);
	assert_string_equal(rp_market_name(RP_MARKET_FX), "fx");
	c.fee_bps = NAN;
	c.market_fee_bps[RP_MARKET_FX] = 0;
	c.market_fee_bps[RP_MARKET_SPOT] = 10;
	c.market_slippage_bps[RP_MARKET_FX] = 0.5;
	assert_true(rp_fee_bps(&c, RP_MARKET_FX) == 0);
	assert_true(rp_fee_bps(&c, RP_MARKET_SPOT) == 10);
	assert_true(rp_slippage_bps(&c, RP_MARKET_FX) == 2);  /* set: SLIPPAGE_BPS wins */
	c.slippage_bps = NAN;
	assert_true(rp_slippage_bps(&c, RP_MARKET_FX) == 0.5);
	c = rp_costs_scaled(&c, 3);
	assert_true(rp_fee_bps(&c, RP_MARKET_SPOT) == 30);
}

static void test_funding_instants(void **state)
{
	(void)state;
	assert_int_equal(rp_funding_instants(T0, T0 + H), 1);
	assert_int_equal(rp_funding_instants(T0 + 1, T0 + 8 * H), 0);
	assert_int_equal(rp_funding_instants(T0 + 1, T0 + 8 * H + 1), 1);
	assert_int_equal(rp_funding_instants(T0, T0 + 24 * H), 3);
	assert_int_equal(rp_funding_instants(T0 - 1, T0), 0);
	assert_int_equal(rp_funding_instants(-28800 - 5, 1), 2);
	assert_int_equal(rp_funding_instants(T0 + H, T0), 0);
}

static void test_all_flat_gives_no_trades(void **state)
{
	struct da_ohlcv s = five_bars(T0);
	static const int8_t flat[5] = { 0 };
	struct rp_result r;

	(void)state;
	assert_int_equal(rp_replay(&s, flat, &costs, &r), 0);
	assert_int_equal(r.n_trades, 0);
	assert_near(r.units_traded, 0, EPS);
	for (int j = 0; j < 5; j++)
		assert_near(r.eq_net[j], 1.0, EPS);
	assert_false(r.open_at_end);
	rp_result_release(&r);
}

/* The last bar's signal has no next open: it is never traded. */
static void test_last_signal_not_traded(void **state)
{
	struct da_ohlcv s = five_bars(T0);
	static const int8_t late[5] = { 0, 0, 0, 0, 1 };
	struct rp_result r;

	(void)state;
	assert_int_equal(rp_replay(&s, late, &costs, &r), 0);
	assert_int_equal(r.n_trades, 0);
	rp_result_release(&r);
}

/* Scaling the costs by k after the fact equals replaying with k times the cost model. */
static void test_cost_multiple_equals_replay(void **state)
{
	struct da_ohlcv s = five_bars(T0 + 5 * H);
	struct rp_result one, three;
	struct rp_costs c3 = { .fee_bps = 15, .slippage_bps = 6, .funding_bps_8h = 3,
			       .market = RP_MARKET_PERP };

	(void)state;
	assert_int_equal(rp_replay(&s, sig5, &costs, &one), 0);
	assert_int_equal(rp_replay(&s, sig5, &c3, &three), 0);
	for (size_t i = 0; i < one.n_trades; i++) {
		assert_near(rp_net_at(&one.trades[i], 3), three.trades[i].net, EPS);
		assert_near(rp_net_at(&one.trades[i], 0), one.trades[i].gross, EPS);
	}
	rp_result_release(&one);
	rp_result_release(&three);
}

/* A log row: entry, exit, side, claimed return, line. */
#define TR(e, x, sd, rt, ln) { .entry = (e), .exit = (x), .side = (sd), .ret = (rt), .line = (ln) }

static struct da_trade log_rows[3] = {
	TR(T0 + 7 * H, T0 + 9 * H, 1, 0.02, 2),
	TR(T0 + 1 * H, T0 + 3 * H, -1, -0.01, 3),
	TR(T0 + 2 * H, T0 + 8 * H, 1, 0.005, 4),
};

static void test_log_mode_trusts_claims(void **state)
{
	struct da_tradelog log = { .n = 3, .trades = log_rows };
	struct da_ohlcv s = five_bars(T0);
	struct rp_result r;

	(void)state;
	assert_int_equal(rpl_from_log(&log, &s, &r), 0);
	assert_int_equal(r.n_trades, 3);
	assert_near(r.sum_net_return, 0.015, EPS);
	/* Each claim applies to its share of the equity at its entry: every trade is open beside
	 * one other (01-03 with 02-08, 02-08 with 07-09), so each is half the account; the 07:00
	 * trade was entered with the 0.995 left after the 03:00 exit, the 02:00 one with 1. */
	assert_near(r.net_return, 1 - 0.5 * 0.01 + 0.5 * 0.005 + 0.995 * 0.5 * 0.02 - 1, EPS);
	assert_near(r.fees + r.slippage + r.funding, 0, EPS);
	assert_true(isnan(r.trades[0].entry_px));
	/* Bars 1 and 2 from the second trade, 2..4 from the third: overlap counted once. */
	assert_int_equal(r.bars_in_market, 4);
	assert_int_equal(r.trades[1].bars_held, 2);
	/* The curve follows exit order: 03:00, 08:00, 09:00. */
	assert_int_equal(r.eq_time[0], T0 + 3 * H);
	assert_near(r.eq_net[0], 0.995, EPS);
	assert_near(r.eq_net[1], 0.9975, EPS);
	assert_near(r.eq_net[2], 0.9975 + 0.995 * 0.5 * 0.02, EPS);
	rp_result_release(&r);
}

static void test_reconcile(void **state)
{
	struct da_ohlcv s = five_bars(T0 + 6 * H);
	struct rp_result r;
	struct da_trade honest[2], inflated[2];
	struct da_tradelog log = { .n = 2, .trades = honest };
	struct rpl_reconcile rec;

	(void)state;
	assert_int_equal(rp_replay(&s, sig5, &costs, &r), 0);
	for (int i = 0; i < 2; i++) {
		honest[i] = (struct da_trade)TR(r.trades[i].entry, r.trades[i].exit, r.trades[i].side,
						r.trades[i].net, (size_t)i + 2);
		inflated[i] = honest[i];
		inflated[i].ret = r.trades[i].gross + 0.01;
	}
	assert_int_equal(rpl_reconcile(&log, &r, 1e-4, &rec), 0);
	assert_int_equal(rec.matched, 2);
	assert_true(rec.consistent);
	assert_near(rec.total_difference, 0, EPS);

	log.trades = inflated;
	assert_int_equal(rpl_reconcile(&log, &r, 1e-4, &rec), 0);
	assert_int_equal(rec.matched, 2);
	assert_false(rec.consistent);
	assert_near(rec.total_difference, 0.0029 + 0.02, EPS);

	assert_int_equal(rec.gaps_over, 2);
	assert_int_equal(rec.n_worst, 2);
	/* the long's claim is gross + 1 % against a net 0.15 % lower: the larger gap first */
	assert_near(rec.worst[0].gap, 0.0115, EPS);

	/* A claimed trade the code never made does not match, and the code's short is left out. */
	inflated[1].side = 1;
	assert_int_equal(rpl_reconcile(&log, &r, 1e-4, &rec), 0);
	assert_int_equal(rec.matched, 1);
	assert_int_equal(rec.claimed_only, 1);
	assert_int_equal(rec.replay_only, 1);
	assert_int_equal(rec.first_claimed_only.line, 3);
	assert_false(rec.consistent);

	/* An entry one bar off still matches; an exit three bars late does not agree. */
	honest[0].entry += H;
	honest[1].exit += 3 * H;
	log.trades = honest;
	assert_int_equal(rpl_reconcile(&log, &r, 1e-4, &rec), 0);
	assert_int_equal(rec.matched, 2);
	assert_int_equal(rec.exit_mismatches, 1);
	assert_int_equal(rec.first_exit_mismatch.line, 3);
	assert_int_equal(rec.first_exit_mismatch.replay_exit, r.trades[1].exit);
	assert_false(rec.consistent);
	honest[0].entry -= H;
	honest[1].exit -= 3 * H;

	/* One to one: the same trade twice matches once. */
	honest[1] = honest[0];
	log.trades = honest;
	assert_int_equal(rpl_reconcile(&log, &r, 1e-4, &rec), 0);
	assert_int_equal(rec.matched, 1);
	assert_int_equal(rec.claimed_only, 1);
	assert_int_equal(rec.replay_only, 1);
	assert_false(rec.consistent);
	rp_result_release(&r);
}

/* A short on a price that goes from 100 to 250 in one bar loses 150 %: the account is ruined
 * at that close, the trade is closed there and nothing trades afterwards. */
static void test_ruin_stops_trading(void **state)
{
	static double o[5] = { 100, 100, 240, 100, 100 }, c[5] = { 100, 250, 100, 100, 100 };
	static double hi[5] = { 100, 250, 240, 100, 100 }, lo[5] = { 100, 100, 100, 100, 100 };
	static const int8_t sig[5] = { -1, -1, 1, 1, 0 };
	struct da_ohlcv s = five_bars(T0);
	struct rp_result r;

	(void)state;
	s.open = o;
	s.close = c;
	s.high = hi;
	s.low = lo;
	assert_int_equal(rp_replay(&s, sig, &costs, &r), 0);
	assert_true(r.ruined);
	assert_int_equal(r.ruin_time, t5[2]);
	assert_int_equal(r.n_trades, 1);
	assert_int_equal(r.trades[0].exit, t5[2]);
	assert_near(r.trades[0].exit_px, 250, 0);
	assert_near(r.trades[0].net, -1.5 - 0.0014, EPS);
	assert_near(r.net_return, -1, 0);
	assert_near(r.sum_net_return, -1.5 - 0.0014, EPS);
	for (int j = 1; j < 5; j++)
		assert_near(r.eq_net[j], 0, 0);
	for (int j = 2; j < 5; j++)
		assert_int_equal(r.eq_pos[j], 0);
	rp_result_release(&r);
}

/* A log whose second trade loses everything: the curve stops there, and the trade after it
 * is not counted. */
static void test_log_ruin(void **state)
{
	struct da_trade rows[3] = {
		TR(T0, T0 + H, 1, 0.1, 2), TR(T0 + H, T0 + 2 * H, -1, -0.99999, 3),
		TR(T0 + 3 * H, T0 + 4 * H, 1, 0.5, 4),
	};
	struct da_tradelog log = { .n = 3, .trades = rows };
	struct rp_result r;

	(void)state;
	rows[1].ret = -0.999;          /* close to everything, not all of it */
	assert_int_equal(rpl_from_log(&log, NULL, &r), 0);
	assert_false(r.ruined);
	rp_result_release(&r);
	rows[1].ret = -1.2;            /* a short's loss past everything, as given */
	assert_int_equal(rpl_from_log(&log, NULL, &r), 0);
	assert_true(r.ruined);
	assert_int_equal(r.ruin_time, T0 + 2 * H);
	assert_int_equal(r.n_eq, 2);
	assert_int_equal(r.n_trades, 2);
	assert_near(r.eq_net[1], 0, 0);
	assert_near(r.net_return, -1, 0);
	rp_result_release(&r);
}

/* run.json is hostile: every way it can be wrong is a reason, never a crash. */
static void test_hostile_run_json(void **state)
{
	static const struct { const char *json; const char *why; } bad[] = {
		{ "{\"ok\":true,\"status\":\"ok\",\"n_bars\":3,\"signals\":[0,1,-1]}", "n_bars is 3" },
		{ "{\"ok\":true,\"status\":\"ok\",\"n_bars\":5,\"signals\":[0,1,-1,0]}", "holds 4 signals for 5 bars" },
		{ "{\"ok\":true,\"status\":\"ok\",\"n_bars\":5,\"signals\":[0,1,2,0,0]}", "signal 2 is" },
		{ "{\"ok\":true,\"status\":\"ok\",\"n_bars\":5,\"signals\":[0,1,0.5,0,0]}", "signal 2 is" },
		{ "{\"ok\":true,\"status\":\"ok\",\"n_bars\":5,\"signals\":[0,\"1\",0,0,0]}", "signal 1 is" },
		{ "{\"ok\":true,\"status\":\"ok\",\"n_bars\":5,\"signals\":{\"a\":1}}", "holds 0 signals for 5 bars" },
		{ "{\"ok\":false,\"status\":\"killed_cpu\",\"n_bars\":5}", "'killed_cpu'" },
		{ "{\"ok\":true,\"n_bars\":5,\"signals\":[0,0,0,0,0]}", "no \"status\"" },
		{ "[1,2,3]", "no \"status\"" },
	};
	char err[256];
	int8_t *sig;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cJSON *run = cJSON_Parse(bad[i].json);
		assert_non_null(run);
		assert_int_equal(rpl_read_signals(run, 5, &sig, err, sizeof(err)), -1);
		assert_null(sig);
		if (!strstr(err, bad[i].why))
			fail_msg("case %zu: '%s' lacks '%s'", i, err, bad[i].why);
		cJSON_Delete(run);
	}
	cJSON *good = cJSON_Parse("{\"ok\":true,\"status\":\"ok\",\"n_bars\":5,\"signals\":[0,1,-1,1.0,-0]}");
	assert_int_equal(rpl_read_signals(good, 5, &sig, err, sizeof(err)), 0);
	assert_int_equal(sig[2], -1);
	assert_int_equal(sig[3], 1);
	free(sig);
	cJSON_Delete(good);
}

static void test_costs_from_config(void **state)
{
	cJSON *ok = cJSON_Parse("{\"costs\":{\"fee_bps\":5,\"slippage_bps\":2,\"funding_bps_8h\":-1}}");
	cJSON *neg = cJSON_Parse("{\"costs\":{\"fee_bps\":-5,\"slippage_bps\":2,\"funding_bps_8h\":1}}");
	cJSON *none = cJSON_Parse("{\"trials\":1}");
	struct rp_costs c, twice;
	char err[256];

	(void)state;
	assert_int_equal(rp_read_costs(ok, &c, err, sizeof(err)), 0);
	assert_near(c.funding_bps_8h, -1, EPS);
	assert_int_equal(rp_read_costs(neg, &c, err, sizeof(err)), -1);
	assert_string_equal(err, "config.json: costs.fee_bps must be a number from 0 to 1000 (FEE_BPS)");
	/* absent: the knob table's defaults, the same the Makefile would have passed: the fee and
	 * slippage unset, so each market's own */
	assert_int_equal(rp_read_costs(none, &c, err, sizeof(err)), 0);
	assert_true(isnan(c.fee_bps) && isnan(c.slippage_bps));
	assert_near(rp_fee_bps(&c, RP_MARKET_PERP), 5, EPS);
	assert_near(rp_fee_bps(&c, RP_MARKET_SPOT), 10, EPS);
	assert_near(rp_fee_bps(&c, RP_MARKET_STOCK), 1, EPS);
	assert_near(rp_fee_bps(&c, RP_MARKET_FX), 0, EPS);
	assert_near(rp_slippage_bps(&c, RP_MARKET_PERP), 2, EPS);
	assert_near(rp_slippage_bps(&c, RP_MARKET_FX), 0.5, EPS);
	assert_near(c.funding_bps_8h, 1, EPS);
	assert_false(c.funding_income);
	assert_near(c.borrow_bps_year, 30, EPS);
	assert_int_equal(c.market, RP_MARKET_AUTO);
	cJSON_Delete(ok);
	ok = cJSON_Parse("{\"costs\":{\"market\":\"fx\",\"funding_income\":1}}");
	assert_int_equal(rp_read_costs(ok, &c, err, sizeof(err)), 0);
	assert_int_equal(c.market, RP_MARKET_FX);
	assert_true(c.funding_income);
	cJSON_Delete(ok);
	/* a stock order pays at least the minimum commission over its stake: USD 1 on USD 1000 is
	 * 10 bp a side, above the 1 bp fee; other markets, and larger stakes, are untouched */
	ok = cJSON_Parse("{\"costs\":{\"min_commission_stock\":1,\"stake\":1000}}");
	assert_int_equal(rp_read_costs(ok, &c, err, sizeof(err)), 0);
	assert_near(rp_fee_bps(&c, RP_MARKET_STOCK), 10, EPS);
	assert_near(rp_fee_bps(&c, RP_MARKET_PERP), 5, EPS);
	twice = rp_costs_scaled(&c, 2);
	assert_near(rp_fee_bps(&twice, RP_MARKET_STOCK), 20, EPS);
	cJSON_Delete(ok);
	assert_int_equal(rp_read_costs(none, &c, err, sizeof(err)), 0);
	assert_near(rp_fee_bps(&c, RP_MARKET_STOCK), 1, EPS);
	ok = cJSON_Parse("{\"costs\":{\"market\":\"bond\"}}");
	assert_int_equal(rp_read_costs(ok, &c, err, sizeof(err)), -1);
	assert_string_equal(err, "config.json: costs.market 'bond' is not one of: perp spot stock fx (MARKET)");
	cJSON_Delete(ok);
	cJSON_Delete(neg);
	cJSON_Delete(none);
}

/* A seeded coin for the spread tests (a 64-bit LCG's top bit). */
static int coin(uint64_t *x)
{
	*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
	return (int)(*x >> 63);
}

enum { SPREAD_N = 4000 };
static int64_t st[SPREAD_N];
static double so[SPREAD_N], sh[SPREAD_N], sl[SPREAD_N], sc[SPREAD_N], sv[SPREAD_N];

static struct da_ohlcv spread_bars(size_t n)
{
	for (size_t i = 0; i < n; i++) {
		st[i] = T0 + (int64_t)i * H;
		sv[i] = 1;
	}
	return (struct da_ohlcv){ .n = n, .t = st, .open = so, .high = sh, .low = sl, .close = sc,
				  .volume = sv };
}

/* Last trades at a constant mid's bid or ask, 1 % apart, the side a coin: each estimator
 * finds the 1 % (Corwin-Schultz and Abdi-Ranaldo exactly, by their algebra on a bar spanning
 * bid to ask; Roll within its sampling error), and the floor charges half of the least. */
static void test_spread_of_a_bounce(void **state)
{
	uint64_t x = 7;
	struct da_ohlcv s = spread_bars(SPREAD_N);
	struct rp_spread e;
	struct rp_costs c = costs;

	(void)state;
	for (size_t i = 0; i < SPREAD_N; i++) {
		sc[i] = coin(&x) ? 100.5 : 99.5;
		so[i] = i ? sc[i - 1] : sc[i];
		sh[i] = 100.5;
		sl[i] = 99.5;
	}
	rp_spread_estimate(&s, &e);
	assert_int_equal(e.bars, SPREAD_N);
	assert_near(e.abdi_ranaldo, log(100.5 / 99.5), 1e-9);
	assert_near(e.corwin_schultz, 2 * (exp(log(100.5 / 99.5)) - 1) / (1 + exp(log(100.5 / 99.5))), 1e-9);
	assert_near(e.roll, 0.01, 0.001);
	assert_near(e.estimate, fmin(e.roll, fmin(e.corwin_schultz, e.abdi_ranaldo)), 0);
	assert_near(e.returns_lag1, -0.5, 0.05);
	c.spread_floor = 1;
	rp_costs_floor(&c, &s, &e);
	assert_near(c.spread_floor_bps, e.estimate / 2 * 1e4, 1e-9);
	assert_near(rp_slippage_bps(&c, RP_MARKET_PERP), c.spread_floor_bps, 0);
	assert_near(rp_costs_scaled(&c, 3).spread_floor_bps, 3 * c.spread_floor_bps, 1e-9);
	c.spread_floor = 0;
	rp_costs_floor(&c, &s, NULL);
	assert_near(rp_slippage_bps(&c, RP_MARKET_PERP), 2, 0);
	/* a floor below the configured slippage changes nothing */
	c.spread_floor = 1e-3;
	rp_costs_floor(&c, &s, NULL);
	assert_near(rp_slippage_bps(&c, RP_MARKET_PERP), 2, 0);
}

/* Flat prices: no spread, every return zero; stale returns: a lag-1 autocorrelation near the
 * 0.6 they were built with; and what no estimate can come from. */
static void test_spread_flat_stale_and_unusable(void **state)
{
	uint64_t x = 11;
	struct da_ohlcv s = spread_bars(SPREAD_N);
	struct rp_spread e;
	double r = 0, px = 100;

	(void)state;
	for (size_t i = 0; i < SPREAD_N; i++)
		so[i] = sh[i] = sl[i] = sc[i] = 50;
	rp_spread_estimate(&s, &e);
	assert_near(e.roll, 0, 0);
	assert_near(e.corwin_schultz, 0, 0);
	assert_near(e.abdi_ranaldo, 0, 0);
	assert_near(e.zero_returns, 1, 0);
	assert_true(isnan(e.returns_lag1));
	for (size_t i = 0; i < SPREAD_N; i++) {
		r = 0.6 * r + (coin(&x) ? 0.01 : -0.01);
		so[i] = px;
		px *= exp(r);
		sc[i] = px;
		sh[i] = fmax(so[i], sc[i]);
		sl[i] = fmin(so[i], sc[i]);
	}
	rp_spread_estimate(&s, &e);
	assert_near(e.returns_lag1, 0.6, 0.05);
	assert_near(e.roll, 0, 0);
	assert_near(e.zero_returns, 0, 0);
	s.n = 2;
	rp_spread_estimate(&s, &e);
	assert_true(isnan(e.estimate) && isnan(e.roll) && isnan(e.returns_lag1));
	s.n = SPREAD_N;
	sc[17] = 0;
	rp_spread_estimate(&s, &e);
	assert_int_equal(e.bars, 0);
	assert_true(isnan(e.estimate));
}

/* The stage core picks the mode from what is usable and says why when nothing is. */
static void test_stage_modes(void **state)
{
	struct da_ohlcv s = five_bars(T0);
	struct da_tradelog log = { .n = 3, .trades = log_rows };
	struct rpl_inputs in = { .costs = &costs, .data = &s, .signals = sig5, .log = &log };
	struct rp_result r, bt;
	cJSON *o;

	(void)state;
	o = rpl_stage(&in, &r, &bt);
	assert_string_equal(sa_json_str(o, "mode", ""), "both");
	assert_false(sa_json_bool(o, "trusted_returns", true));
	assert_non_null(cJSON_GetObjectItem(o, "reconcile"));
	cJSON_Delete(o);
	rp_result_release(&r);
	rp_result_release(&bt);

	in.signals = NULL;
	in.signals_err = "the strategy run did not finish cleanly (status 'error')";
	/* the log runs to 09:00, past the five bars' end at 05:00: its benchmark would lie */
	o = rpl_stage(&in, &r, &bt);
	assert_false(sa_json_bool(o, "ok", true));
	assert_string_equal(sa_json_str(o, "reason", ""), "the data (2024-01-01T00:00:00Z to "
			    "2024-01-01T05:00:00Z) does not cover the trade log (2024-01-01T01:00:00Z to "
			    "2024-01-01T09:00:00Z): give DATA that holds the log's whole span, or leave "
			    "DATA out to score the log alone");
	cJSON_Delete(o);
	rp_result_release(&r);
	rp_result_release(&bt);
	in.data = NULL;  /* the log alone */
	o = rpl_stage(&in, &r, &bt);
	assert_true(sa_json_bool(o, "ok", false));
	assert_string_equal(sa_json_str(o, "mode", ""), "tradelog");
	assert_true(sa_json_bool(o, "trusted_returns", false));
	assert_non_null(strstr(sa_json_str(o, "note", ""), "cannot be verified"));
	assert_non_null(strstr(sa_json_str(o, "signals_error", ""), "status 'error'"));
	cJSON_Delete(o);
	rp_result_release(&r);
	rp_result_release(&bt);

	in.data = &s;
	in.log = NULL;
	in.log_err = "";
	o = rpl_stage(&in, &r, &bt);
	assert_false(sa_json_bool(o, "ok", true));
	assert_non_null(strstr(sa_json_str(o, "reason", ""), "status 'error'"));
	assert_int_equal(r.n_trades, 0);
	cJSON_Delete(o);
	rp_result_release(&r);
	rp_result_release(&bt);
}

/* lookahead.json's live object: every way it can be wrong is an error naming the file and the
 * field; an absent one, or one that could not run, scores the backtest and says why. */
static void test_read_live(void **state)
{
	static const struct { const char *json; int state; const char *why; } cases[] = {
		{ "{\"ok\":true,\"clean\":true}", DA_LIVE_NONE, "has no live object: no bar was decided live" },
		{ "{\"ok\":false,\"reason\":\"boom\"}", DA_LIVE_NONE, "the look-ahead stage failed (boom)" },
		{ "{\"ok\":true,\"live\":null}", DA_LIVE_NONE, "has no live object" },
		{ "{\"ok\":true,\"live\":{\"ok\":false,\"reason\":\"the bot died\"}}", DA_LIVE_NONE,
		  "the live replay could not run (lookahead.json live.reason: the bot died)" },
		{ "{\"ok\":true,\"live\":[1]}", DA_LIVE_ERROR, "lookahead.json live is not an object" },
		{ "{\"ok\":true,\"live\":{\"ok\":1,\"signals\":[0,0,0,0,0]}}", DA_LIVE_ERROR,
		  "lookahead.json live.ok is not true or false" },
		{ "{\"ok\":true,\"live\":{\"ok\":true}}", DA_LIVE_ERROR,
		  "lookahead.json live.signals holds 0 values for 5 bars of data; one per bar is needed" },
		{ "{\"ok\":true,\"live\":{\"ok\":true,\"signals\":[0,1,-1,0]}}", DA_LIVE_ERROR,
		  "lookahead.json live.signals holds 4 values for 5 bars of data" },
		{ "{\"ok\":true,\"live\":{\"ok\":true,\"signals\":[0,1,2,0,0]}}", DA_LIVE_ERROR,
		  "lookahead.json live.signals value 2 is not -1, 0 or 1" },
		{ "{\"ok\":true,\"live\":{\"ok\":true,\"signals\":[0,1,\"-1\",0,0]}}", DA_LIVE_ERROR,
		  "lookahead.json live.signals value 2 is not -1, 0 or 1" },
		{ "[1,2]", DA_LIVE_ERROR, "lookahead.json is not a JSON object" },
		{ "{\"ok\":true,\"live\":{\"ok\":true,\"signals\":[0,1,-1,-0,1.0]}}", DA_LIVE_OK, "" },
		/* a framework run's values with events, kept for the replay; past the largest, or
		 * without the flag, refused */
		{ "{\"ok\":true,\"live\":{\"ok\":true,\"signal_entries\":true,\"signals\":[0,4,-1,94,1]}}",
		  DA_LIVE_OK, "" },
		{ "{\"ok\":true,\"live\":{\"ok\":true,\"signal_entries\":true,\"signals\":[0,4,-1,95,1]}}",
		  DA_LIVE_ERROR, "lookahead.json live.signals value 3 is not -1, 0 or 1" },
		{ "{\"ok\":true,\"live\":{\"ok\":true,\"signal_entries\":true,\"signals\":[0,4,-2,4,1]}}",
		  DA_LIVE_ERROR, "lookahead.json live.signals value 2 is not -1, 0 or 1" },
		{ "{\"ok\":true,\"live\":{\"ok\":true,\"signals\":[0,4,-1,0,1]}}", DA_LIVE_ERROR,
		  "lookahead.json live.signals value 1 is not -1, 0 or 1" },
	};
	char err[256];
	int8_t *live;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cJSON *la = cJSON_Parse(cases[i].json);
		struct rpl_inputs in = { 0 };

		assert_non_null(la);
		rpl_read_live(la, "", 5, &in, &live, err, sizeof(err));
		assert_true(in.live_asked);
		if (in.live_state != cases[i].state || !strstr(err, cases[i].why))
			fail_msg("case %zu: state %d, '%s'; wanted %d, '%s'", i, in.live_state, err,
				 cases[i].state, cases[i].why);
		assert_true((live != NULL) == (cases[i].state == DA_LIVE_OK));
		if (live) {
			assert_int_equal(live[2], -1);
			assert_int_equal(live[4], 1);
			assert_ptr_equal(in.live, live);
		}
		free(live);
		cJSON_Delete(la);
	}
	/* a file that could not be read is an error too, never a quiet backtest */
	struct rpl_inputs in = { 0 };
	rpl_read_live(NULL, "cannot read 'x': No such file", 5, &in, &live, err, sizeof(err));
	assert_int_equal(in.live_state, DA_LIVE_ERROR);
	assert_string_equal(err, "lookahead.json: cannot read 'x': No such file");
	assert_null(live);
}

/* The live decisions scored: bar 1 decided flat with only the past, where the backtest stayed
 * long. The live long exits at open[2] = 104 instead of flipping at open[3] = 101; the backtest
 * is replayed beside it with the same costs, and replay.json says what the difference is worth. */
static void test_stage_live(void **state)
{
	static const int8_t live5[5] = { 1, 0, -1, -1, 0 };
	struct da_ohlcv s = five_bars(T0);
	struct rpl_inputs in = { .costs = &costs, .data = &s, .signals = sig5, .live_asked = true,
				 .live_state = DA_LIVE_OK, .live = live5 };
	struct rp_result r, bt, want_live, want_bt;
	const cJSON *b, *d;
	cJSON *o;

	(void)state;
	assert_int_equal(rp_replay(&s, live5, &costs, &want_live), 0);
	assert_int_equal(rp_replay(&s, sig5, &costs, &want_bt), 0);
	o = rpl_stage(&in, &r, &bt);
	assert_true(sa_json_bool(o, "ok", false));
	assert_string_equal(sa_json_str(o, "scored", ""), "live");
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(o, "scored_reason")));
	assert_int_equal(r.n_trades, 2);
	assert_near(r.trades[0].exit_px, 104, 0);
	assert_near(r.trades[1].entry_px, 101, 0);
	/* gross by hand: (104 / 102) x (1 + 1 - 98 / 101) */
	assert_near(r.gross_return, 104.0 / 102 * (2 - 98.0 / 101) - 1, 1e-12);
	assert_near(r.net_return, want_live.net_return, 0);
	assert_near(bt.net_return, want_bt.net_return, 0);
	assert_int_equal(bt.n_eq, 5);
	assert_near(sa_json_num(o, "net_return", NAN), want_live.net_return, 1e-9);
	b = cJSON_GetObjectItem(o, "backtest");
	assert_int_equal((int)sa_json_num(b, "trades", -1), 2);
	assert_near(sa_json_num(b, "net_return", NAN), want_bt.net_return, 1e-9);
	assert_near(sa_json_num(b, "gross_return", NAN), want_bt.gross_return, 1e-9);
	d = cJSON_GetObjectItem(o, "live_vs_backtest");
	assert_int_equal((int)sa_json_num(d, "differing_bars", -1), 1);
	assert_near(sa_json_num(d, "net_return_live", NAN), want_live.net_return, 1e-9);
	assert_near(sa_json_num(d, "net_return_backtest", NAN), want_bt.net_return, 1e-9);
	assert_near(sa_json_num(d, "difference", NAN), want_bt.net_return - want_live.net_return, 1e-9);
	assert_true(want_bt.net_return != want_live.net_return);
	assert_non_null(strstr(sa_json_str(o, "note", ""), "live decisions"));
	cJSON_Delete(o);
	rp_result_release(&r);
	rp_result_release(&bt);

	/* no usable live object: the backtest is scored and is its own backtest */
	in.live_state = DA_LIVE_NONE;
	in.live = NULL;
	in.live_err = "lookahead.json has no live object: no bar was decided live";
	o = rpl_stage(&in, &r, &bt);
	assert_string_equal(sa_json_str(o, "scored", ""), "backtest");
	assert_string_equal(sa_json_str(o, "scored_reason", ""), in.live_err);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(o, "live_vs_backtest")));
	assert_near(sa_json_num(cJSON_GetObjectItem(o, "backtest"), "net_return", NAN), want_bt.net_return, 1e-9);
	assert_near(r.net_return, want_bt.net_return, 0);
	assert_int_equal(bt.n_eq, 0);
	cJSON_Delete(o);
	rp_result_release(&r);
	rp_result_release(&bt);

	/* a malformed live object fails the stage with the field named, nothing replayed */
	in.live_state = DA_LIVE_ERROR;
	in.live_err = "lookahead.json live.signals value 2 is not -1, 0 or 1";
	o = rpl_stage(&in, &r, &bt);
	assert_false(sa_json_bool(o, "ok", true));
	assert_string_equal(sa_json_str(o, "reason", ""), "the live decisions cannot be scored: "
			    "lookahead.json live.signals value 2 is not -1, 0 or 1");
	assert_int_equal(r.n_eq, 0);
	cJSON_Delete(o);
	rp_result_release(&r);
	rp_result_release(&bt);

	/* without --lookahead (a trade log's audit, or before the live replay) nothing is added */
	in.live_asked = false;
	o = rpl_stage(&in, &r, &bt);
	assert_true(sa_json_bool(o, "ok", false));
	assert_null(cJSON_GetObjectItem(o, "scored"));
	assert_null(cJSON_GetObjectItem(o, "backtest"));
	cJSON_Delete(o);
	rp_result_release(&r);
	rp_result_release(&bt);
	rp_result_release(&want_live);
	rp_result_release(&want_bt);
}

/* A 1.5 % stop on the five bars: the long from open[1] = 102 stops at 100.47 when bar 2's low
 * (100) reaches it, held through bar 2 (exit at bar 3's open time); then the signal's flip opens
 * the short at open[3]. With the signal still long after the stop, nothing opens again. */
static void test_exits_stop(void **state)
{
	struct da_ohlcv s = five_bars(T0);
	const struct rp_exits x = { .stop_loss = 0.015 };
	struct rp_costs c = costs;
	static const int8_t still_long[5] = { 1, 1, 1, 1, 0 };
	struct rp_result r;

	(void)state;
	c.exits = &x;
	assert_int_equal(rp_replay(&s, sig5, &c, &r), 0);
	assert_int_equal(r.n_trades, 2);
	assert_near(r.trades[0].exit_px, 102 * (1 - 0.015), EPS);
	assert_int_equal(r.trades[0].exit, t5[3]);
	assert_int_equal(r.trades[0].bars_held, 2);
	assert_int_equal(r.trades[0].exit_reason, RP_EXIT_STOP_LOSS);
	assert_near(r.trades[0].net, 100.47 / 102 - 1 - 2 * 0.0007, 1e-12);
	assert_int_equal(r.trades[1].entry, t5[3]);
	assert_int_equal(r.trades[1].exit_reason, RP_EXIT_END);
	assert_int_equal(r.exits[RP_EXIT_STOP_LOSS], 1);
	assert_int_equal(r.eq_pos[2], 1);
	rp_result_release(&r);
	assert_int_equal(rp_replay(&s, still_long, &c, &r), 0);
	assert_int_equal(r.n_trades, 1);
	assert_int_equal(r.eq_pos[3], 0);
	assert_int_equal(r.eq_pos[4], 0);
	assert_int_equal(r.bars_in_market, 2);
	rp_result_release(&r);
}

/* A framework run's events (signals.h): with a 1.5 % stop the long from open[1] = 102 stops in
 * bar 2; its entry event on bar 2 enters it again at open[3] = 101 (freqtrade enters again on
 * the next candle whose entry signal is set), stopped in bar 3 (low 98). Without the event
 * nothing opens again; a short entry event opens the short instead; none opens on the last
 * bar. Without exits the events
 * change nothing: the positions are the values' own. */
static void test_exits_events(void **state)
{
	struct da_ohlcv s = five_bars(T0);
	const struct rp_exits x = { .stop_loss = 0.015 };
	struct rp_costs c = costs;
	static const int8_t again[5] = { 1 + 3 * DA_EV_ENTER_LONG, 1, 1 + 3 * DA_EV_ENTER_LONG, 1, 0 };
	static const int8_t held[5] = { 1 + 3 * DA_EV_ENTER_LONG, 1, 1, 1, 0 };
	static const int8_t other[5] = { 1 + 3 * DA_EV_ENTER_LONG, 1, 1 + 3 * DA_EV_ENTER_SHORT, 1, 0 };
	static const int8_t late[5] = { 1 + 3 * DA_EV_ENTER_LONG, 1, 1, 1 + 3 * DA_EV_ENTER_LONG, 0 };
	struct rp_result r, plain;

	(void)state;
	c.exits = &x;
	assert_int_equal(rp_replay(&s, again, &c, &r), 0);
	assert_int_equal(r.n_trades, 2);
	assert_int_equal(r.trades[0].exit, t5[3]);
	assert_int_equal(r.trades[0].exit_reason, RP_EXIT_STOP_LOSS);
	assert_int_equal(r.trades[1].entry, t5[3]);
	assert_near(r.trades[1].entry_px, 101, 0);
	assert_near(r.trades[1].exit_px, 101 * (1 - 0.015), EPS);
	assert_int_equal(r.trades[1].exit_reason, RP_EXIT_STOP_LOSS);
	rp_result_release(&r);
	assert_int_equal(rp_replay(&s, held, &c, &r), 0);
	assert_int_equal(r.n_trades, 1);
	rp_result_release(&r);
	assert_int_equal(rp_replay(&s, other, &c, &r), 0);
	assert_int_equal(r.n_trades, 2);
	assert_int_equal(r.trades[1].side, -1);
	assert_int_equal(r.trades[1].entry, t5[3]);
	assert_int_equal(r.trades[1].exit_reason, RP_EXIT_END);
	rp_result_release(&r);
	/* an entry event on bar 3 would open on the last bar: freqtrade opens nothing there */
	assert_int_equal(rp_replay(&s, late, &c, &r), 0);
	assert_int_equal(r.n_trades, 1);
	assert_int_equal(r.trades[0].exit_reason, RP_EXIT_STOP_LOSS);
	rp_result_release(&r);
	assert_int_equal(rp_replay(&s, again, &costs, &r), 0);
	assert_int_equal(rp_replay(&s, held, &costs, &plain), 0);
	assert_int_equal(r.n_trades, 1);
	assert_memory_equal(r.eq_pos, plain.eq_pos, 5);
	assert_int_equal(r.eq_pos[3], 1);
	assert_memory_equal(r.eq_net, plain.eq_net, 5 * sizeof *r.eq_net);
	rp_result_release(&r);
	rp_result_release(&plain);
}

/* Exits that declare nothing replay exactly as no exits: the same trades and curve, bit for bit. */
static void test_exits_none(void **state)
{
	struct da_ohlcv s = five_bars(T0 + 6 * H);
	const struct rp_exits none = { 0 };
	struct rp_costs c = costs;
	struct rp_result a, b;

	(void)state;
	c.exits = &none;
	assert_int_equal(rp_replay(&s, sig5, &costs, &a), 0);
	assert_int_equal(rp_replay(&s, sig5, &c, &b), 0);
	assert_int_equal(a.n_trades, b.n_trades);
	assert_memory_equal(a.trades, b.trades, a.n_trades * sizeof *a.trades);
	assert_memory_equal(a.eq_net, b.eq_net, a.n_eq * sizeof *a.eq_net);
	assert_memory_equal(a.eq_pos, b.eq_pos, a.n_eq);
	rp_result_release(&a);
	rp_result_release(&b);
}

/* freqtrade's custom_stoploss, answered on bar 2 (ratio -0.02): the long entered at open[1] = 102
 * keeps its 10 % stop through bar 1; on bar 2 the stop moves to the bar's high times 0.98,
 * 105 * 0.98 = 102.9, above its low (100), so the trade leaves there at 102.9, a stop that moved
 * (trailing_stop). A ratio that would loosen the stop (bar 1's -0.5) is ignored. */
static void test_calls_custom_stop(void **state)
{
	struct da_ohlcv s = five_bars(T0);
	struct rp_exits x = { .stop_loss = 0.1, .trail_best_first = true };
	double stop[5] = { NAN, -0.5, -0.02, NAN, NAN };
	struct rp_calls k = { .stop = stop };
	struct rp_costs c = { .exits = &x, .calls = &k };
	static const int8_t still_long[5] = { 1, 1, 1, 1, 0 };
	struct rp_result r;

	(void)state;
	assert_int_equal(rp_replay(&s, still_long, &c, &r), 0);
	assert_int_equal(r.n_trades, 1);
	assert_near(r.trades[0].exit_px, 105 * 0.98, EPS);
	assert_int_equal(r.trades[0].exit_reason, RP_EXIT_TRAILING_STOP);
	assert_int_equal(r.trades[0].exit, t5[3]);
	assert_false(r.calls_mismatch);
	rp_result_release(&r);
	/* without the answers the 10 % stop (91.8) is never reached */
	c.calls = NULL;
	assert_int_equal(rp_replay(&s, still_long, &c, &r), 0);
	assert_int_equal(r.trades[0].exit_reason, RP_EXIT_END);
	rp_result_release(&r);
}

/* lookahead.json's live.calls read for every stage (rp_read_calls), and custom_exit's named
 * reason stamped as the trade's exit_tag (rpl_tag_custom_exits): the long entered at open[1]
 * leaves at open[3] on the answer "take_it", a name added to the run's tags table. */
static void test_calls_read_and_named(void **state)
{
	struct da_ohlcv s = five_bars(T0);
	struct rp_exits x = { 0 };
	struct rp_calls_read k;
	struct rp_costs c = { .exits = &x };
	struct da_tags tags = { 0 };
	static const int8_t still_long[5] = { 1, 1, 1, 1, 0 };
	struct rp_result r;
	char err[256] = "";
	cJSON *la = cJSON_Parse("{\"live\": {\"calls_fee_bps\": 10, \"calls\": ["
				"[1, 1, 1, 3, -0.5, 0, \"\", 0], [2, 1, 1, 3, null, 0, \"\", 0], "
				"[3, 1, 1, 3, null, 1, \"take_it\", 0]]}}");
	static const char *const bad[] = {
		"{\"live\": {\"calls_fee_bps\": 10, \"calls\": [[1, 1, 1, 3, null, 1, 7, 0]]}}",
		"{\"live\": {\"calls_fee_bps\": 10, \"calls\": [[2, 1, 1, 3, null, 0, \"\", 0], "
		"[1, 1, 1, 3, null, 0, \"\", 0]]}}",
		"{\"live\": {\"calls_fee_bps\": 10, \"calls\": [[1, 1, 1, 3, 2, 0, \"\", 0]]}}",
		"{\"live\": {\"calls\": [[1, 1, 1, 3, null, 0, \"\", 0]]}}",
		/* the row of the first format, without the refusal */
		"{\"live\": {\"calls_fee_bps\": 10, \"calls\": [[1, 1, 1, 3, null, 0, \"\"]]}}",
		/* a refusal that is no 0 or 1, one beside an exit, one of a trade entered before */
		"{\"live\": {\"calls_fee_bps\": 10, \"calls\": [[1, 1, 1, 7, null, 0, \"\", 2]]}}",
		"{\"live\": {\"calls_fee_bps\": 10, \"calls\": [[1, 1, 1, 7, null, 1, \"\", 1]]}}",
		"{\"live\": {\"calls_fee_bps\": 10, \"calls\": [[2, 1, 1, 7, null, 0, \"\", 1]]}}",
	};

	(void)state;
	assert_non_null(la);
	assert_int_equal(rp_read_calls(la, 5, &k, err, sizeof err), 1);
	assert_near(k.fee_bps, 10, EPS);
	assert_near(k.stop[1], -0.5, EPS);
	assert_true(isnan(k.stop[2]));
	assert_int_equal(k.exit[3], 1);
	assert_string_equal(k.reason[3], "take_it");
	assert_string_equal(k.reason[0], "");
	assert_int_equal(k.refused[1], 0);
	c.calls = &k.rc;
	assert_int_equal(rp_replay(&s, still_long, &c, &r), 0);
	assert_int_equal(r.n_trades, 1);
	assert_int_equal(r.trades[0].exit_reason, RP_EXIT_CUSTOM);
	assert_int_equal(rpl_tag_custom_exits(&r, &s, &tags, &k), 0);
	assert_int_equal(tags.n_names, 1);
	assert_string_equal(da_tag_name(&tags, r.trades[0].exit_tag), "take_it");
	/* the same name again keeps its place */
	r.trades[0].exit_tag = 0;
	assert_int_equal(rpl_tag_custom_exits(&r, &s, &tags, &k), 0);
	assert_int_equal(tags.n_names, 1);
	assert_int_equal(r.trades[0].exit_tag, 1);
	/* a table of 255 names has no place left for a new one: -1, never a wrong tag */
	da_tags_release(&tags);
	tags.names = calloc(255, sizeof *tags.names);
	assert_non_null(tags.names);
	for (tags.n_names = 0; tags.n_names < 255; tags.n_names++)
		snprintf(tags.names[tags.n_names], sizeof *tags.names, "n%zu", tags.n_names);
	assert_int_equal(rpl_tag_custom_exits(&r, &s, &tags, &k), -1);
	rp_result_release(&r);
	da_tags_release(&tags);
	rp_calls_read_release(&k);
	cJSON_Delete(la);
	/* no calls: 0, nothing held */
	la = cJSON_Parse("{\"live\": {\"ok\": true}}");
	assert_int_equal(rp_read_calls(la, 5, &k, err, sizeof err), 0);
	assert_null(k.stop);
	cJSON_Delete(la);
	/* a reason that is no string, bars out of order, a ratio out of range, no fee, a row
	 * without its refusal or with a refusal that is none: refused */
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		la = cJSON_Parse(bad[i]);
		err[0] = '\0';
		assert_int_equal(rp_read_calls(la, 5, &k, err, sizeof err), -1);
		assert_non_null(strstr(err, "lookahead.json live.calls"));
		assert_null(k.stop);
		cJSON_Delete(la);
	}
}

/* freqtrade's custom_exit on bar 3: the long leaves at open[3] = 101 (custom_exit), before the
 * bar's stop; the signal still long does not enter again (a position series waits for a change). */
static void test_calls_custom_exit(void **state)
{
	struct da_ohlcv s = five_bars(T0);
	struct rp_exits x = { .stop_loss = 0.1 };
	uint8_t ex[5] = { 0, 0, 0, 1, 0 };
	int8_t side[5] = { 0, 1, 1, 1, 0 };
	uint32_t entry[5] = { 0, 1, 1, 1, 0 };
	struct rp_calls k = { .exit = ex, .side = side, .entry = entry };
	struct rp_costs c = { .exits = &x, .calls = &k };
	static const int8_t still_long[5] = { 1, 1, 1, 1, 0 };
	struct rp_result r;

	(void)state;
	assert_int_equal(rp_replay(&s, still_long, &c, &r), 0);
	assert_int_equal(r.n_trades, 1);
	assert_near(r.trades[0].exit_px, 101, EPS);
	assert_int_equal(r.trades[0].exit, t5[3]);
	assert_int_equal(r.trades[0].bars_held, 2);
	assert_int_equal(r.trades[0].exit_reason, RP_EXIT_CUSTOM);
	assert_string_equal(rp_exit_reason_name(RP_EXIT_CUSTOM), "custom_exit");
	assert_int_equal(r.exits[RP_EXIT_CUSTOM], 1);
	assert_false(r.calls_mismatch);
	rp_result_release(&r);
	/* answers asked for a trade entered on another bar: the first such bar is named */
	entry[2] = 2;
	assert_int_equal(rp_replay(&s, still_long, &c, &r), 0);
	assert_true(r.calls_mismatch);
	assert_int_equal(r.calls_mismatch_bar, 2);
	rp_result_release(&r);
	/* and a side asked where the replay is flat */
	entry[2] = 1;
	side[4] = -1;
	assert_int_equal(rp_replay(&s, still_long, &c, &r), 0);
	assert_true(r.calls_mismatch);
	assert_int_equal(r.calls_mismatch_bar, 4);
	rp_result_release(&r);
}

/* The trade held on a bar after its open's fills, as the host sends it before the bar: bar 2 of
 * the long entered at open[1] = 102, its 10 % stop (91.8), the open 104 and the high 105 with
 * freqtrade's fee-paid profits at 10 bps a side; custom_exit is asked (no exit signal), so is
 * custom_stoploss (the low 100 is above the stop). Flat on bar 0; on bar 3 flat again when bar
 * 2's answer moved the stop to 102.9 (its low 100 took it), still long when the answer was looser. */
static void test_calls_held_at(void **state)
{
	struct da_ohlcv s = five_bars(T0);
	struct rp_exits x = { .stop_loss = 0.1, .fee_in_profit = true };
	double stop[5] = { NAN, NAN, -0.02, NAN, NAN };
	struct rp_calls k = { .stop = stop };
	struct rp_costs c = { .fee_bps = 10, .slippage_bps = 0, .market = RP_MARKET_SPOT, .exits = &x };
	static const int8_t still_long[5] = { 1, 1, 1, 1, 0 };
	double f = 0.001;
	struct rp_held h;

	(void)state;
	assert_int_equal(rp_held_at(&s, still_long, &c, 0, &h), 0);
	assert_int_equal(h.side, 0);
	assert_int_equal(rp_held_at(&s, still_long, &c, 2, &h), 0);
	assert_int_equal(h.side, 1);
	assert_int_equal(h.entry_bar, 1);
	assert_int_equal(h.entry, t5[1]);
	assert_near(h.entry_px, 102, EPS);
	assert_near(h.stop, 102 * 0.9, EPS);
	assert_near(h.rate, 104, EPS);
	assert_near(h.profit, 104 * (1 - f) / (102 * (1 + f)) - 1, EPS);
	assert_near(h.bound, 105, EPS);
	assert_near(h.bound_profit, 105 * (1 - f) / (102 * (1 + f)) - 1, EPS);
	assert_true(h.ask_exit);
	assert_true(h.ask_stop);
	c.calls = &k;
	assert_int_equal(rp_held_at(&s, still_long, &c, 3, &h), 0);
	assert_int_equal(h.side, 0);  /* bar 2's moved stop closed it inside bar 2 */
	stop[2] = -0.2;                /* 84: looser than 91.8, ignored */
	assert_int_equal(rp_held_at(&s, still_long, &c, 3, &h), 0);
	assert_int_equal(h.side, 1);
	assert_near(h.stop, 102 * 0.9, EPS);
	assert_int_equal(rp_held_at(&s, still_long, &c, 5, &h), -1);
}

/* The walk gives on every bar what rp_held_at gives, over a series with entries, signal exits,
 * a custom stop, custom exits and a declared stop, long and short, in the order the host asks
 * (each bar's answers written only after it was asked about, as the live run's are). */
static void test_calls_walk(void **state)
{
	enum { N = 400 };
	static int64_t t[N];
	static double o[N], h[N], l[N], c[N], v[N], stop[N];
	static int8_t sig[N];
	static uint8_t ex[N], no[N];
	struct da_ohlcv s = { .n = N, .t = t, .open = o, .high = h, .low = l, .close = c, .volume = v };
	struct rp_exits x = { .stop_loss = 0.03, .fee_in_profit = true, .trail_best_first = true };
	struct rp_calls k = { .stop = stop, .exit = ex, .refused = no };
	struct rp_result r;
	struct rp_costs cs = { .fee_bps = 10, .slippage_bps = 2, .market = RP_MARKET_SPOT, .exits = &x,
			       .calls = &k };
	struct rp_walk *w;
	size_t held = 0, moved = 0, refused = 0, again = 0;

	(void)state;
	for (int i = 0; i < N; i++) {
		double m = 100 + 5 * sin(i / 7.0) + 2 * sin(i / 2.3);

		t[i] = T0 + i * H;
		o[i] = m;
		c[i] = m + 0.5 * sin(i / 1.7);
		h[i] = fmax(o[i], c[i]) + 0.4 + 0.3 * fabs(sin(i / 3.1));
		l[i] = fmin(o[i], c[i]) - 0.4 - 0.3 * fabs(cos(i / 2.9));
		v[i] = 1;
		stop[i] = NAN;
	}
	assert_non_null(w = rp_walk_new(&s, sig, &cs));
	for (size_t j = 0; j < N; j++) {
		struct rp_held a, b;

		assert_int_equal(rp_walk_to(w, j, &a), 0);
		assert_int_equal(rp_walk_to(w, j, &b), 0);  /* asked again: the same */
		assert_int_equal(a.side, b.side);
		assert_int_equal(rp_held_at(&s, sig, &cs, j, &b), 0);
		if (a.side != b.side || a.entry_bar != b.entry_bar || a.stop != b.stop ||
		    a.profit != b.profit || a.bound_profit != b.bound_profit || a.ask_exit != b.ask_exit ||
		    a.ask_stop != b.ask_stop || a.ask_entry != b.ask_entry)
			fail_msg("bar %zu: the walk holds side %d from %zu stop %g, rp_held_at %d from %zu stop %g",
				 j, a.side, a.entry_bar, a.stop, b.side, b.entry_bar, b.stop);
		held += a.side != 0;
		assert_true(!a.ask_entry || a.entry_bar == j);
		/* the bar's answers and its decision, known only now: a refused entry has no other */
		if (a.ask_entry && j % 3 == 0) {
			no[j] = 1;
			refused++;
		} else if (a.side && a.ask_stop && j % 5 == 0) {
			stop[j] = -0.01;
			moved++;
		}
		if (a.side && a.ask_exit && j % 23 == 0 && !no[j])
			ex[j] = 1;
		/* entries of either side on some bars, exits on others (position + 3 * events) */
		sig[j] = j % 17 == 3 ? (int8_t)(1 + 3 * DA_EV_ENTER_LONG) : j % 29 == 11 ? (int8_t)(-1 + 3 * DA_EV_ENTER_SHORT) :
			 j % 13 == 7 ? (int8_t)(3 * (DA_EV_EXIT_LONG | DA_EV_EXIT_SHORT)) : 0;
	}
	assert_true(held > 50 && moved > 5 && refused > 5);
	assert_int_equal(rp_walk_to(w, 3, &(struct rp_held){ 0 }), -1);  /* out of turn */
	rp_walk_free(w);
	/* the replay of the same answers enters on no refused bar, and enters on the bar after a
	 * refusal where the entry signal is still set (freqtrade asks again there) */
	assert_int_equal(rp_replay(&s, sig, &cs, &r), 0);
	assert_false(r.calls_mismatch);
	for (size_t i = 0; i < r.n_trades; i++) {
		size_t e = (size_t)((r.trades[i].entry - T0) / H);

		assert_int_equal(no[e], 0);
		again += e > 0 && no[e - 1];
	}
	assert_true(again > 0);
	rp_result_release(&r);
}

/* freqtrade's trailing stop: 10 % until the best price gains more than 2 %, then 1 %, not moved
 * before that (only_offset). Bar 1's high 105 (+2.9 %) moves it to 103.95; bar 2's open 104
 * (+1.96 %) does not; bar 2's low 100 takes it. A target the same bar passes loses to it. */
static void test_exits_trailing_offset(void **state)
{
	struct da_ohlcv s = five_bars(T0);
	struct rp_exits x = { .stop_loss = 0.1, .trail = 0.1, .trail_positive = 0.01,
			      .trail_offset = 0.02, .trail_only_offset = true };
	struct rp_costs c = { .exits = &x };
	static const int8_t still_long[5] = { 1, 1, 1, 1, 0 };
	struct rp_result r;

	(void)state;
	assert_int_equal(rp_replay(&s, still_long, &c, &r), 0);
	assert_int_equal(r.n_trades, 1);
	assert_near(r.trades[0].exit_px, 105 * 0.99, EPS);
	assert_int_equal(r.trades[0].exit_reason, RP_EXIT_TRAILING_STOP);
	assert_int_equal(r.trades[0].exit, t5[3]);
	rp_result_release(&r);
	/* freqtrade's order (best_first): bar 1's high moves the stop to 103.95 before its low (101)
	 * is compared, so the trade leaves in bar 1 */
	x.trail_best_first = true;
	assert_int_equal(rp_replay(&s, still_long, &c, &r), 0);
	assert_near(r.trades[0].exit_px, 105 * 0.99, EPS);
	assert_int_equal(r.trades[0].exit_reason, RP_EXIT_TRAILING_STOP);
	assert_int_equal(r.trades[0].exit, t5[2]);
	rp_result_release(&r);
	/* and an ROI the same bar passes (1 %: 103.02 < 105) is freqtrade's before the trailing stop */
	x.n_roi = 1;
	x.roi[0] = (struct rp_roi_step){ 0, 0.01 };
	assert_int_equal(rp_replay(&s, still_long, &c, &r), 0);
	assert_int_equal(r.trades[0].exit_reason, RP_EXIT_ROI);
	assert_int_equal(r.trades[0].exit, t5[2]);
	rp_result_release(&r);
	x.n_roi = 0;
	x.trail_best_first = false;
	/* a take-profit of 1 % is passed by bar 1's high (105 > 103.02) before any stop */
	x.take_profit = 0.01;
	assert_int_equal(rp_replay(&s, still_long, &c, &r), 0);
	assert_near(r.trades[0].exit_px, 102 * 1.01, EPS);
	assert_int_equal(r.trades[0].exit_reason, RP_EXIT_TAKE_PROFIT);
	assert_int_equal(r.trades[0].exit, t5[2]);
	rp_result_release(&r);
	/* ROI steps by the minutes held at the bar's open: 50 % at once, -100 % (leave) after 2 h */
	x = (struct rp_exits){ .n_roi = 2, .roi = { { 0, 0.5 }, { 120, -1 } } };
	assert_int_equal(rp_replay(&s, still_long, &c, &r), 0);
	assert_near(r.trades[0].exit_px, o5[3], EPS);
	assert_int_equal(r.trades[0].exit, t5[3]);
	assert_int_equal(r.trades[0].exit_reason, RP_EXIT_ROI);
	rp_result_release(&r);
}

/* freqtrade's rules about the open trade on a framework run's events. exit_profit_only: the
 * long from open[1] = 102 leaves on an exit event that fills at open[2] = 104 (+1.96 %), but not
 * above an offset of 2 %, nor at open[3] = 101 (a loss): it is then held to the end.
 * ignore_roi_if_entry_signal: a 1 % ROI bar 1's high passes (103.02 < 105) is set aside there,
 * its candle before (bar 0) having set the entry signal, so the trade leaves at bar 2's open
 * (104) instead; with the long entry signal also set on bar 1 (DA_EV_LONG_SIGNAL, cancelled, no
 * entry event) bar 2's ROI is set aside too and the trade runs to the end. */
static void test_exits_trade_rules(void **state)
{
	struct da_ohlcv s = five_bars(T0);
	struct rp_exits x = { .stop_loss = 0.1, .exit_profit_only = true };
	struct rp_costs c = { .exits = &x };
	static const int8_t out_at_2[5] = { 1 + 3 * DA_EV_ENTER_LONG, 3 * DA_EV_EXIT_LONG, 0, 0, 0 };
	static const int8_t out_at_3[5] = { 1 + 3 * DA_EV_ENTER_LONG, 1, 3 * DA_EV_EXIT_LONG, 0, 0 };
	static const int8_t signal_set[5] = { 1 + 3 * DA_EV_ENTER_LONG, 1 + 3 * DA_EV_LONG_SIGNAL, 1, 1, 0 };
	struct rp_result r;

	(void)state;
	assert_int_equal(rp_replay(&s, out_at_2, &c, &r), 0);
	assert_int_equal(r.n_trades, 1);
	assert_int_equal(r.trades[0].exit, t5[2]);
	assert_int_equal(r.trades[0].exit_reason, RP_EXIT_SIGNAL);
	rp_result_release(&r);
	x.exit_profit_offset = 0.02;
	assert_int_equal(rp_replay(&s, out_at_2, &c, &r), 0);
	assert_int_equal(r.n_trades, 1);
	assert_int_equal(r.trades[0].exit_reason, RP_EXIT_END);
	assert_near(r.trades[0].exit_px, c5[4], 0);
	rp_result_release(&r);
	x.exit_profit_offset = 0;
	assert_int_equal(rp_replay(&s, out_at_3, &c, &r), 0);
	assert_int_equal(r.n_trades, 1);
	assert_int_equal(r.trades[0].exit_reason, RP_EXIT_END);
	rp_result_release(&r);
	x.exit_profit_only = false;
	assert_int_equal(rp_replay(&s, out_at_3, &c, &r), 0);
	assert_int_equal(r.trades[0].exit, t5[3]);
	assert_int_equal(r.trades[0].exit_reason, RP_EXIT_SIGNAL);
	rp_result_release(&r);

	x = (struct rp_exits){ .stop_loss = 0.1, .n_roi = 1, .roi = { { 0, 0.01 } } };
	assert_int_equal(rp_replay(&s, signal_set, &c, &r), 0);
	assert_near(r.trades[0].exit_px, 102 * 1.01, EPS);
	assert_int_equal(r.trades[0].exit_reason, RP_EXIT_ROI);
	rp_result_release(&r);
	x.ignore_roi_if_entry_signal = true;
	assert_int_equal(rp_replay(&s, out_at_3, &c, &r), 0);
	assert_near(r.trades[0].exit_px, o5[2], 0);
	assert_int_equal(r.trades[0].exit, t5[2]);
	assert_int_equal(r.trades[0].exit_reason, RP_EXIT_ROI);
	rp_result_release(&r);
	assert_int_equal(rp_replay(&s, signal_set, &c, &r), 0);
	assert_int_equal(r.n_trades, 1);
	assert_int_equal(r.trades[0].exit_reason, RP_EXIT_END);
	rp_result_release(&r);
}

/* freqtrade's profits with the fee (fee_in_profit): 50 bp a side, and 100 bp of slippage the
 * rules never read. The long from open[1] = 102: a 1.5 % ROI is reached when the high passes
 * 102 * 1.015 * 1.005 / 0.995 = 104.573 (bar 1's 105 does) and fills at freqtrade's close rate
 * 102 * (1 + 0.005 + 0.015) / 0.995, not at 103.53; a 2 % ROI (105.089) is never reached, though
 * 104.04 in price is. The trailing offset of 2 %: bar 1's high is 1.92 % after fees, so the trail
 * is not armed. exit_profit_only with an offset of 1.5 %: the exit at open[2] = 104 is 1.96 % in
 * price, 0.9 % after fees, so the trade is kept. A short from 102 with a 1.5 % ROI: reached
 * below 102 * 0.985 * 0.995 / 1.005 = 99.47 (bar 3's low, 98), filled at 102 * 0.98 / 1.005.
 * A replay at 0 times the costs trades as freqtrade's rules do at the audit's own fee. */
static void test_exits_fee_in_profit(void **state)
{
	struct da_ohlcv s = five_bars(T0);
	struct rp_exits x = { .n_roi = 1, .roi = { { 0, 0.015 } }, .fee_in_profit = true };
	struct rp_costs c = { .fee_bps = 50, .slippage_bps = 100, .market = RP_MARKET_SPOT,
			      .exits = &x }, free_;
	static const int8_t still_long[5] = { 1, 1, 1, 1, 0 }, still_short[5] = { -1, -1, -1, -1, 0 };
	static const int8_t out_at_2[5] = { 1 + 3 * DA_EV_ENTER_LONG, 3 * DA_EV_EXIT_LONG, 0, 0, 0 };
	struct rp_result r;
	cJSON *o;
	char err[200];

	(void)state;
	assert_int_equal(rp_replay(&s, still_long, &c, &r), 0);
	assert_int_equal(r.trades[0].exit_reason, RP_EXIT_ROI);
	assert_int_equal(r.trades[0].exit, t5[2]);
	assert_near(r.trades[0].exit_px, 102 * 1.02 / 0.995, 1e-9);
	rp_result_release(&r);
	free_ = rp_costs_scaled(&c, 0);
	assert_int_equal(rp_replay(&s, still_long, &free_, &r), 0);
	assert_near(r.trades[0].exit_px, 102 * 1.02 / 0.995, 1e-9);
	assert_near(r.trades[0].fees + r.trades[0].slippage, 0, 0);
	rp_result_release(&r);
	x.roi[0].ret = 0.02;
	assert_int_equal(rp_replay(&s, still_long, &c, &r), 0);
	assert_int_equal(r.n_trades, 1);
	assert_int_equal(r.trades[0].exit_reason, RP_EXIT_END);
	rp_result_release(&r);
	x.fee_in_profit = false;  /* from prices: 104.04 is passed in bar 1 */
	assert_int_equal(rp_replay(&s, still_long, &c, &r), 0);
	assert_int_equal(r.trades[0].exit_reason, RP_EXIT_ROI);
	assert_near(r.trades[0].exit_px, 102 * 1.02, EPS);
	rp_result_release(&r);

	x = (struct rp_exits){ .stop_loss = 0.1, .trail = 0.1, .trail_positive = 0.01,
			       .trail_offset = 0.02, .trail_only_offset = true,
			       .trail_best_first = true, .fee_in_profit = true };
	assert_int_equal(rp_replay(&s, still_long, &c, &r), 0);
	assert_int_equal(r.trades[0].exit_reason, RP_EXIT_END);
	rp_result_release(&r);
	x.fee_in_profit = false;
	assert_int_equal(rp_replay(&s, still_long, &c, &r), 0);
	assert_int_equal(r.trades[0].exit_reason, RP_EXIT_TRAILING_STOP);
	assert_near(r.trades[0].exit_px, 105 * 0.99, EPS);
	rp_result_release(&r);

	x = (struct rp_exits){ .stop_loss = 0.1, .exit_profit_only = true,
			       .exit_profit_offset = 0.015, .fee_in_profit = true };
	assert_int_equal(rp_replay(&s, out_at_2, &c, &r), 0);
	assert_int_equal(r.trades[0].exit_reason, RP_EXIT_END);
	rp_result_release(&r);
	x.fee_in_profit = false;
	assert_int_equal(rp_replay(&s, out_at_2, &c, &r), 0);
	assert_int_equal(r.trades[0].exit_reason, RP_EXIT_SIGNAL);
	assert_int_equal(r.trades[0].exit, t5[2]);
	rp_result_release(&r);

	x = (struct rp_exits){ .n_roi = 1, .roi = { { 0, 0.015 } }, .fee_in_profit = true };
	assert_int_equal(rp_replay(&s, still_short, &c, &r), 0);
	assert_int_equal(r.trades[0].exit_reason, RP_EXIT_ROI);
	assert_int_equal(r.trades[0].exit, t5[4]);
	assert_near(r.trades[0].exit_px, 102 * 0.98 / 1.005, 1e-9);
	rp_result_release(&r);

	/* read from JSON: a freqtrade class's exits read the fee, literal constants do not */
	o = cJSON_Parse("{\"declared\": true, \"source\": \"freqtrade\", \"roi\": [[0, 0.01]]}");
	assert_int_equal(rp_exits_from_json(o, &x, err, sizeof err), 0);
	assert_true(x.fee_in_profit);
	cJSON_Delete(o);
	o = cJSON_Parse("{\"declared\": true, \"source\": \"constants\", \"take_profit\": 0.01}");
	assert_int_equal(rp_exits_from_json(o, &x, err, sizeof err), 0);
	assert_false(x.fee_in_profit);
	cJSON_Delete(o);
}

/* run.json "tags" read again as hostile: the table and its bars, every bound named; then the
 * tags on the trades: the entry's from the bar before it, the exit tag only for a signal exit,
 * none where the replayed value is not the full run's. */
static void test_run_tags(void **state)
{
	static const struct { const char *json, *why; } bad[] = {
		{ "{\"tags\": []}", "run.json tags is not an object" },
		{ "{\"tags\": {\"names\": [], \"enter\": [], \"exit\": []}}",
		  "run.json tags.names is not a list of 1 to 64 names" },
		{ "{\"tags\": {\"names\": [\"a\\u001b\"], \"enter\": [], \"exit\": []}}",
		  "run.json tags.names 1 is not a new name of 1 to 64 printable ASCII characters" },
		{ "{\"tags\": {\"names\": [\"a\", \"a\"], \"enter\": [], \"exit\": []}}",
		  "run.json tags.names 2 is not a new name of 1 to 64 printable ASCII characters" },
		{ "{\"tags\": {\"names\": [\"a\"], \"enter\": [[1, 1]], \"exit\": []}}",
		  "run.json tags.enter pair 1 is not [bar, tag] with the bars ascending below 5 and the tag below 1" },
		{ "{\"tags\": {\"names\": [\"a\"], \"enter\": [[5, 0]], \"exit\": []}}",
		  "run.json tags.enter pair 1 is not [bar, tag] with the bars ascending below 5 and the tag below 1" },
		{ "{\"tags\": {\"names\": [\"a\"], \"enter\": [], \"exit\": [[2, 0], [2, 0]]}}",
		  "run.json tags.exit pair 2 is not [bar, tag] with the bars ascending below 5 and the tag below 1" },
		{ "{\"tags\": {\"names\": [\"a\"], \"enter\": []}}",
		  "run.json tags.exit is not a list of [bar, tag] pairs" },
	};
	struct da_ohlcv s = five_bars(T0);
	struct rp_exits x = { .stop_loss = 0.015 };
	struct rp_costs c = costs;
	static const int8_t again[5] = { 1 + 3 * DA_EV_ENTER_LONG, 1, 1 + 3 * DA_EV_ENTER_LONG, 1, 0 };
	int8_t live[5];
	struct da_tags t;
	struct rp_result r;
	char err[256];
	cJSON *o;

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		o = cJSON_Parse(bad[i].json);
		assert_int_equal(da_run_tags(o, 5, &t, err, sizeof err), -1);
		assert_string_equal(err, bad[i].why);
		assert_null(t.names);
		cJSON_Delete(o);
	}
	o = cJSON_Parse("{\"tags\": null}");
	assert_int_equal(da_run_tags(o, 5, &t, err, sizeof err), 0);
	assert_int_equal(t.n_names, 0);
	cJSON_Delete(o);
	o = cJSON_Parse("{\"tags\": {\"names\": [\"first\", \"again\"], \"enter\": [[0, 0], [2, 1]],"
			" \"exit\": [[1, 0]]}}");
	assert_int_equal(da_run_tags(o, 5, &t, err, sizeof err), 0);
	assert_int_equal(t.n_names, 2);
	assert_int_equal(t.enter[2], 2);
	assert_string_equal(da_tag_name(&t, t.enter[0]), "first");
	assert_string_equal(da_tag_name(&t, 0), "");
	cJSON_Delete(o);
	/* the stop in bar 2 and the entry again at open[3] (test_exits_events): the first trade
	 * takes bar 0's tag, the second bar 2's; neither left on a signal, so no exit tag */
	c.exits = &x;
	assert_int_equal(rp_replay(&s, again, &c, &r), 0);
	rpl_tag_trades(&r, &s, &t, again, again);
	assert_int_equal(r.n_trades, 2);
	assert_string_equal(da_tag_name(&t, r.trades[0].entry_tag), "first");
	assert_string_equal(da_tag_name(&t, r.trades[1].entry_tag), "again");
	assert_int_equal(r.trades[0].exit_tag, 0);
	/* a live decision at bar 2 that is not the full run's value: no tag there */
	memcpy(live, again, sizeof live);
	live[2] = 1 + 3 * DA_EV_ENTER_LONG + 3 * DA_EV_LONG_SIGNAL;
	rpl_tag_trades(&r, &s, &t, live, again);
	assert_int_equal(r.trades[1].entry_tag, 0);
	rp_result_release(&r);
	/* a signal exit at open[2] from bar 1's exit event takes bar 1's exit tag */
	static const int8_t out_at_2[5] = { 1 + 3 * DA_EV_ENTER_LONG, 3 * DA_EV_EXIT_LONG, 0, 0, 0 };
	assert_int_equal(rp_replay(&s, out_at_2, &c, &r), 0);
	rpl_tag_trades(&r, &s, &t, out_at_2, out_at_2);
	assert_int_equal(r.trades[0].exit_reason, RP_EXIT_SIGNAL);
	assert_string_equal(da_tag_name(&t, r.trades[0].exit_tag), "first");
	rp_result_release(&r);
	da_tags_release(&t);
}

/* The host's own check of an exits object: ranges, order, and a declaration found bad. */
static void test_exits_json(void **state)
{
	static const char *const bad[] = {
		"{\"declared\": true, \"stop_loss\": 1.5}",
		"{\"declared\": true, \"stop_loss\": 0}",
		"{\"declared\": true, \"take_profit\": -1}",
		"{\"declared\": true, \"roi\": [[30, 0.01], [0, 0.02]]}",
		"{\"declared\": true, \"roi\": [[-1, 0.01]]}",
		"{\"declared\": true, \"roi\": [[0, -2]]}",
		"{\"declared\": true, \"trailing\": {\"positive\": 0.01}}",
		"{\"declared\": true, \"stop_loss\": 0.02, \"exit_profit_only\": 1}",
		"{\"declared\": true, \"stop_loss\": 0.02, \"exit_profit_offset\": -2}",
		"{\"declared\": true, \"stop_loss\": 0.02, \"ignore_roi_if_entry_signal\": \"yes\"}",
		"{\"declared\": true, \"error\": \"STOP_LOSS at line 1 is 0.05\"}",
	};
	struct rp_exits x;
	char err[256];
	cJSON *o;

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		o = cJSON_Parse(bad[i]);
		if (rp_exits_from_json(o, &x, err, sizeof err) != -1)
			fail_msg("accepted %s", bad[i]);
		cJSON_Delete(o);
	}
	assert_string_equal(err, "STOP_LOSS at line 1 is 0.05");
	o = cJSON_Parse("{\"declared\": true, \"stop_loss\": 0.02, \"roi\": [[0, 0.05], [60, 0]],"
			" \"trailing\": {\"distance\": 0.02, \"positive\": null, \"offset\": 0,"
			" \"only_offset\": false}}");
	assert_int_equal(rp_exits_from_json(o, &x, err, sizeof err), 0);
	assert_int_equal(x.n_roi, 2);
	assert_near(x.trail, 0.02, 0);
	assert_false(x.trail_best_first);
	assert_true(rp_exits_any(&x));
	cJSON_Delete(o);
	o = cJSON_Parse("{\"declared\": true, \"stop_loss\": 0.02, \"trailing\": {\"distance\": 0.02,"
			" \"best_first\": true}}");
	assert_int_equal(rp_exits_from_json(o, &x, err, sizeof err), 0);
	assert_true(x.trail_best_first);
	assert_false(x.exit_profit_only);
	assert_false(x.ignore_roi_if_entry_signal);
	cJSON_Delete(o);
	o = cJSON_Parse("{\"declared\": true, \"stop_loss\": 0.02, \"exit_profit_only\": true,"
			" \"exit_profit_offset\": 0.01, \"ignore_roi_if_entry_signal\": true}");
	assert_int_equal(rp_exits_from_json(o, &x, err, sizeof err), 0);
	assert_true(x.exit_profit_only);
	assert_near(x.exit_profit_offset, 0.01, 0);
	assert_true(x.ignore_roi_if_entry_signal);
	cJSON_Delete(o);
	o = cJSON_Parse("{\"declared\": true, \"trailing\": {\"distance\": 0.02, \"best_first\": 1}}");
	assert_int_equal(rp_exits_from_json(o, &x, err, sizeof err), -1);
	cJSON_Delete(o);
	assert_int_equal(rp_exits_from_json(NULL, &x, err, sizeof err), 0);
	assert_false(rp_exits_any(&x));
}

/* FX rollover: 17:00 New York, summer time by the US rule, Wednesday's three nights. */
static void test_rollover_nights(void **state)
{
	const int64_t day = 86400, wed_winter = 1704924000, wed_summer = 1719435600;  /* 22:00, 21:00 UTC */
	int nights;

	(void)state;
	/* a week from Monday 8 January 2024: Monday to Friday, Wednesday's three */
	assert_true(rp_rollover_nights(1704672000, 1704672000 + 7 * day) == 7);
	assert_true(rp_rollover_nights(wed_winter, wed_winter + 3600) == 3);
	assert_true(rp_rollover_nights(wed_winter - 3600, wed_winter) == 0);
	assert_true(rp_rollover_nights(wed_summer, wed_summer + 1) == 3);
	assert_true(rp_rollover_nights(wed_summer + 3600, wed_summer + 7200) == 0);
	assert_true(rp_rollover_nights(wed_summer, wed_summer) == 0);
	/* Sunday 10 March 2024, summer time from its 02:00: 21:00 UTC, no rollover on a Sunday */
	assert_true(rp_rollover_instant(1710028800 / day, &nights) == 1710028800 + 21 * 3600 && nights == 0);
	/* Friday 8 March, still winter: 22:00 UTC; Monday 4 November, winter again: 22:00 UTC */
	assert_true(rp_rollover_instant(1710028800 / day - 2, &nights) == 1710028800 - 2 * day + 22 * 3600 &&
		    nights == 1);
	assert_true(rp_rollover_instant(1730678400 / day, &nights) == 1730678400 + 22 * 3600 && nights == 1);
	/* Friday 1 November, summer: 21:00 UTC */
	assert_true(rp_rollover_instant(1730678400 / day - 3, &nights) == 1730678400 - 3 * day + 21 * 3600);
	/* a night's rate: bps a year over 360 days, by side, none flat */
	{
		struct rp_costs c = { .swap_long_bps_year = 360, .swap_short_bps_year = -720 };

		assert_true(fabs(rp_rollover_rate(&c, 1) - 1e-4) < 1e-18);
		assert_true(fabs(rp_rollover_rate(&c, -1) + 2e-4) < 1e-18);
		assert_true(rp_rollover_rate(&c, 0) == 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_five_bars_by_hand),
		cmocka_unit_test(test_funding_at_the_flip),
		cmocka_unit_test(test_funding_income),
		cmocka_unit_test(test_borrow_on_stock),
		cmocka_unit_test(test_market_from_calendar),
		cmocka_unit_test(test_funding_instants),
		cmocka_unit_test(test_all_flat_gives_no_trades),
		cmocka_unit_test(test_last_signal_not_traded),
		cmocka_unit_test(test_cost_multiple_equals_replay),
		cmocka_unit_test(test_log_mode_trusts_claims),
		cmocka_unit_test(test_reconcile),
		cmocka_unit_test(test_ruin_stops_trading),
		cmocka_unit_test(test_log_ruin),
		cmocka_unit_test(test_hostile_run_json),
		cmocka_unit_test(test_costs_from_config),
		cmocka_unit_test(test_swap_columns_by_bar),
		cmocka_unit_test(test_spread_of_a_bounce),
		cmocka_unit_test(test_spread_flat_stale_and_unusable),
		cmocka_unit_test(test_stage_modes),
		cmocka_unit_test(test_read_live),
		cmocka_unit_test(test_stage_live),
		cmocka_unit_test(test_exits_stop),
		cmocka_unit_test(test_exits_events),
		cmocka_unit_test(test_exits_none),
		cmocka_unit_test(test_exits_trailing_offset),
		cmocka_unit_test(test_calls_custom_stop),
		cmocka_unit_test(test_calls_custom_exit),
		cmocka_unit_test(test_calls_read_and_named),
		cmocka_unit_test(test_calls_held_at),
		cmocka_unit_test(test_calls_walk),
		cmocka_unit_test(test_exits_trade_rules),
		cmocka_unit_test(test_exits_fee_in_profit),
		cmocka_unit_test(test_run_tags),
		cmocka_unit_test(test_exits_json),
		cmocka_unit_test(test_rollover_nights),
	};

	return cmocka_run_group_tests_name("replay", tests, NULL, NULL);
}
