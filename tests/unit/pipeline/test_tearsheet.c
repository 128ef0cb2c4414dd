/* test_tearsheet.c - drawdown episodes, the rolling window, the block bootstrap and buy and
 * hold, each against a hand computation or a naive second one. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "replay_core.h"
#include "stats_core.h"
#include "stats_tearsheet.h"

#define assert_near(a, b, eps) do { \
	double a_ = (a), b_ = (b); \
	if (!(fabs(a_ - b_) <= (eps))) \
		fail_msg("%s = %.15g, expected %.15g", #a, a_, b_); \
} while (0)

/* Three episodes by hand: 1.1 -> 1.0 (back at 1.2), 1.2 -> 0.9 (back at 1.3), 1.3 -> 1.25. */
static void test_episodes_by_hand(void **state)
{
	static const double eq[] = { 1.1, 1.0, 1.2, 0.9, 1.0, 1.3, 1.25 };
	struct sts_episode ep[5];
	size_t n = sts_drawdown_episodes(1.0, eq, 7, ep, 5);

	(void)state;
	assert_int_equal(n, 3);
	assert_int_equal(ep[0].start, 2);
	assert_int_equal(ep[0].trough, 3);
	assert_int_equal(ep[0].end, 5);
	assert_int_equal(ep[0].bars, 3);
	assert_near(ep[0].depth, 0.25, 1e-15);
	assert_true(ep[0].depth == st_max_drawdown(1.0, eq, 7));
	assert_near(ep[1].depth, 0.1 / 1.1, 1e-15);
	assert_int_equal(ep[1].start, 0);
	assert_int_equal(ep[1].end, 2);
	assert_int_equal(ep[2].end, (size_t)-1);  /* not recovered */
	assert_int_equal(ep[2].bars, 1);
	assert_near(ep[2].depth, 0.05 / 1.3, 1e-15);
	assert_int_equal(sts_drawdown_episodes(1.0, eq, 7, ep, 1), 1);
	assert_near(ep[0].depth, 0.25, 1e-15);
}

/* Falling from the start: the peak is the starting equity, so the episode starts at row 0. */
static void test_episodes_from_start(void **state)
{
	static const double eq[] = { 0.9, 0.8, 1.0, 1.0 };
	static const double flat[] = { 1.0, 1.0, 1.1 };
	struct sts_episode ep[5];

	(void)state;
	assert_int_equal(sts_drawdown_episodes(1.0, eq, 4, ep, 5), 1);
	assert_int_equal(ep[0].start, 0);
	assert_int_equal(ep[0].trough, 1);
	assert_int_equal(ep[0].end, 2);
	assert_near(ep[0].depth, 0.2, 1e-15);
	assert_int_equal(sts_drawdown_episodes(1.0, flat, 3, ep, 5), 0);
	assert_int_equal(sts_drawdown_episodes(1.0, NULL, 0, ep, 5), 0);
}

/* The rolling window: the knob, else a quarter of the rows, at least 2 (the windows themselves:
 * test_stats_annual.c). */
static void test_rolling_window(void **state)
{
	(void)state;
	assert_int_equal(sts_rolling_window(0, 1000), 250);
	assert_int_equal(sts_rolling_window(60, 1000), 60);
	assert_int_equal(sts_rolling_window(0, 3), 2);
}

static void test_bootstrap_seeded(void **state)
{
	double x[60], c[12];
	struct sts_boot b1, b2, b3;
	struct st_moments m;

	(void)state;
	for (int i = 0; i < 60; i++)
		x[i] = sin(i * 1.7) * 0.02 + 0.004;
	assert_int_equal(sts_bootstrap_sharpe(x, 60, 4, 1, 2000, &b1), 0);
	assert_int_equal(sts_bootstrap_sharpe(x, 60, 4, 1, 2000, &b2), 0);
	assert_int_equal(sts_bootstrap_sharpe(x, 60, 4, 2, 2000, &b3), 0);
	assert_true(b1.lo == b2.lo && b1.hi == b2.hi);
	assert_true(b1.lo != b3.lo || b1.hi != b3.hi);
	st_moments(x, 60, &m);
	assert_true(b1.lo < st_sharpe(&m) && st_sharpe(&m) < b1.hi);
	assert_int_equal(b1.flat_negative + b1.flat_zero + b1.flat_positive, 0);
	/* too few trades for an interval: none, not a width of 0 */
	assert_int_equal(sts_bootstrap_sharpe(x, 2, 1, 1, 2000, &b1), -1);
	assert_true(isnan(b1.lo) && isnan(b1.hi));
	assert_int_equal(sts_bootstrap_sharpe(x, STS_BOOT_MIN_TRADES - 1, 2, 1, 2000, &b1), -1);
	assert_int_equal(sts_bootstrap_sharpe(x, STS_BOOT_MIN_TRADES, 2, 1, 2000, &b1), 0);
	/* no spread at all: every resample counts, at the sign of its mean */
	for (int i = 0; i < 12; i++)
		c[i] = -0.01;
	assert_int_equal(sts_bootstrap_sharpe(c, 12, 2, 1, 100, &b1), 0);
	assert_int_equal(b1.flat_negative, 100);
	assert_true(b1.lo == -INFINITY && b1.hi == -INFINITY);
	for (int i = 0; i < 12; i++)
		c[i] = 0.0;
	assert_int_equal(sts_bootstrap_sharpe(c, 12, 2, 1, 100, &b1), 0);
	assert_int_equal(b1.flat_zero, 100);
	assert_true(b1.lo == 0 && b1.hi == 0);
	assert_int_equal(sts_bootstrap_block(50), 4);
	assert_int_equal(sts_bootstrap_block(1), 1);
	assert_int_equal(sts_bootstrap_block(0), 1);
}

/* One winner among losers: the resamples that miss it lose with no spread, the worst Sharpe
 * ratio there is, and they stay in the interval instead of dropping out. */
static void test_bootstrap_one_winner(void **state)
{
	double x[151];
	struct sts_boot b;
	struct st_moments m;

	(void)state;
	for (int i = 0; i < 151; i++)
		x[i] = i == 75 ? 0.3 : -0.0001;
	st_moments(x, 151, &m);
	assert_int_equal(sts_bootstrap_sharpe(x, 151, 5, 1, 2000, &b), 0);
	/* P(a resample misses the one winner) is about (1 - 1/151)^151 = 0.37 for single draws */
	assert_true(b.flat_negative > 400 && b.flat_negative < 1000);
	assert_true(b.lo == -INFINITY);
	assert_true(isfinite(b.hi) && b.hi > st_sharpe(&m));
	assert_int_equal(b.flat_positive + b.flat_zero, 0);
}


/* Buy and hold on three hourly bars, no funding instant inside: long from open[1] to close[2],
 * paying fees and slippage once in and once out. */
static void test_benchmark_by_hand(void **state)
{
	int64_t t[3] = { 3600, 7200, 10800 };
	double o[3] = { 100, 101, 104 }, h[3] = { 102, 105, 110 }, l[3] = { 99, 100, 103 };
	double c[3] = { 101, 104, 108 }, v[3] = { 1, 1, 1 };
	struct da_ohlcv s = { .n = 3, .t = t, .open = o, .high = h, .low = l, .close = c, .volume = v };
	struct rp_costs k = { .fee_bps = 5, .slippage_bps = 2, .funding_bps_8h = 1 };
	struct rp_result r;

	(void)state;
	assert_int_equal(sts_benchmark_replay(&s, &k, &r), 0);
	assert_int_equal(r.n_trades, 1);
	assert_int_equal(r.trades[0].side, 1);
	assert_near(r.trades[0].gross, 108.0 / 101.0 - 1, 1e-15);
	assert_near(r.net_return, 108.0 / 101.0 - 1 - 2 * 7e-4, 1e-15);
	assert_near(r.eq_net[2], 1 + r.net_return, 1e-15);
	rp_result_release(&r);
	s.n = 1;
	assert_int_equal(sts_benchmark_replay(&s, &k, &r), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_episodes_by_hand),
		cmocka_unit_test(test_episodes_from_start),
		cmocka_unit_test(test_rolling_window),
		cmocka_unit_test(test_bootstrap_seeded),
		cmocka_unit_test(test_bootstrap_one_winner),
		cmocka_unit_test(test_benchmark_by_hand),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
