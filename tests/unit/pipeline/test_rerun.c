/* test_rerun.c - cost multiples, late fills and the break-even replayed: against rp_replay itself,
 * against hand computations, and on a path a rescaling of the 1x trades cannot see ruined. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "costs.h"
#include "replay_core.h"
#include "stats_core.h"
#include "stats_rerun.h"

#define assert_near(a, b, eps) do { \
	double a_ = (a), b_ = (b); \
	if (!(fabs(a_ - b_) <= (eps))) \
		fail_msg("%s = %.15g, expected %.15g", #a, a_, b_); \
} while (0)

#define MAXB 4096
#define T0 1704067200  /* 2024-01-01T00:00:00Z, a funding instant */

/* A series of n hourly bars from T0 + 1 h with these opens and closes. */
struct series {
	int64_t t[MAXB];
	double o[MAXB], h[MAXB], l[MAXB], c[MAXB], v[MAXB];
	struct da_ohlcv s;
};

static void make(struct series *x, const double *o, const double *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		x->t[i] = T0 + 3600 * (int64_t)(i + 1);
		x->o[i] = o[i];
		x->c[i] = c[i];
		x->h[i] = fmax(o[i], c[i]);
		x->l[i] = fmin(o[i], c[i]);
		x->v[i] = 1;
	}
	x->s = (struct da_ohlcv){ .n = n, .t = x->t, .open = x->o, .high = x->h, .low = x->l,
				  .close = x->c, .volume = x->v };
}

/* A random walk of n bars and a signal that changes every few bars. */
static void random_path(struct series *x, int8_t *sig, size_t n, unsigned seed)
{
	static double o[MAXB], c[MAXB];
	double p = 100;

	srand(seed);
	for (size_t i = 0; i < n; i++) {
		o[i] = p;
		p *= 1.0 + ((double)rand() / RAND_MAX - 0.495) * 0.02;
		c[i] = p;
		sig[i] = i % 7 == 0 ? (int8_t)(rand() % 3 - 1) : i ? sig[i - 1] : 0;
	}
	make(x, o, c, n);
}

/* A row at k times the costs and d bars late is the replay of those signals with those costs. */
static void test_rerun_is_the_replay(void **state)
{
	static struct series x;
	static int8_t sig[600], late[600];
	struct rp_costs c = { .fee_bps = 5, .slippage_bps = 2, .funding_bps_8h = 1 };
	struct rp_costs c3 = { .fee_bps = 15, .slippage_bps = 6, .funding_bps_8h = 3 };
	struct rp_result r;
	struct sts_rerun row;

	(void)state;
	random_path(&x, sig, 600, 11);
	assert_int_equal(sts_rerun(&x.s, sig, &c, 0, 3.0, &row), 0);
	assert_int_equal(rp_replay(&x.s, sig, &c3, &r), 0);
	assert_int_equal(row.trades, r.n_trades);
	assert_true(row.net_return == r.net_return);
	assert_true(row.sum_net_return == r.sum_net_return);
	assert_false(row.ruined);
	rp_result_release(&r);
	memset(late, 0, sizeof late);
	memcpy(late + 2, sig, 598);
	assert_int_equal(sts_rerun(&x.s, sig, &c, 2, 1.0, &row), 0);
	assert_int_equal(rp_replay(&x.s, late, &c, &r), 0);
	assert_int_equal(row.trades, r.n_trades);
	assert_true(row.net_return == r.net_return);
	rp_result_release(&r);
}

/* A class with per-trade callbacks: a row at other costs on the same trades is the replay with
 * its answers (custom_exit on bar 2 ends the long there); late fills are another trade path
 * the answers were not given for, so no figure (unanswered, NANs); nor answers asked for a trade
 * the replay does not hold, nor a break-even from such replays. */
static void test_rerun_with_callbacks(void **state)
{
	static const double o[] = { 100, 100, 104, 110, 120, 120 };
	static const double c[] = { 100, 102, 106, 112, 120, 120 };
	static const int8_t sig[] = { 1, 1, 1, 1, 1, 0 };
	static struct series x;
	uint8_t ex[6] = { 0, 0, 1, 0, 0, 0 };
	int8_t side[6] = { 0, 1, 1, 0, 0, 0 };
	uint32_t entry[6] = { 0, 1, 1, 0, 0, 0 };
	const struct rp_exits none = { 0 };
	const struct rp_calls k = { .exit = ex, .side = side, .entry = entry };
	struct rp_costs cc = { .fee_bps = 5, .slippage_bps = 2, .exits = &none, .calls = &k };
	struct rp_costs c3 = rp_costs_scaled(&cc, 3.0);
	struct rp_result r;
	struct sts_rerun row;
	struct sts_breakeven be;

	(void)state;
	make(&x, o, c, 6);
	assert_int_equal(sts_rerun(&x.s, sig, &cc, 0, 3.0, &row), 0);
	assert_int_equal(rp_replay(&x.s, sig, &c3, &r), 0);
	assert_false(row.unanswered);
	assert_int_equal(row.trades, 1);
	assert_int_equal(r.trades[0].exit_reason, RP_EXIT_CUSTOM);
	assert_true(row.net_return == r.net_return);
	rp_result_release(&r);
	assert_int_equal(sts_breakeven(&x.s, sig, &cc, &be), 0);
	assert_null(be.reason);
	assert_true(be.multiple > 0);
	assert_int_equal(sts_rerun(&x.s, sig, &cc, 1, 1.0, &row), 0);
	assert_true(row.unanswered);
	assert_int_equal(row.trades, 0);
	assert_true(isnan(row.net_return) && isnan(row.sharpe));
	/* the answers were asked for a trade entered on bar 2: no figure */
	entry[1] = entry[2] = 2;
	assert_int_equal(sts_rerun(&x.s, sig, &cc, 0, 2.0, &row), 0);
	assert_true(row.unanswered);
	assert_int_equal(sts_breakeven(&x.s, sig, &cc, &be), 0);
	assert_true(isnan(be.multiple));
	assert_non_null(strstr(be.reason, "callbacks were not asked"));
}

/* One long from 100 that closes a bar at 20 and leaves at 100, 15 % a side in costs: at 1x the
 * mark at 20 keeps 5 % of the equity, at 2x it is below zero, so the replay is ruined there
 * (-100 %), while the 1x trade rescaled to 2x only loses 60 %. */
static void test_ruin_rescaling_cannot_see(void **state)
{
	static const double o[] = { 100, 100, 100, 100, 100 }, c[] = { 100, 20, 100, 100, 100 };
	static const int8_t sig[] = { 1, 1, 0, 0, 0 };
	static struct series x;
	struct rp_costs k = { .fee_bps = 1000, .slippage_bps = 500 };
	struct rp_result r;
	struct sts_rerun one, two, three;

	(void)state;
	make(&x, o, c, 5);
	assert_int_equal(rp_replay(&x.s, sig, &k, &r), 0);
	assert_int_equal(r.n_trades, 1);
	assert_false(r.ruined);
	assert_near(r.net_return, -0.3, 1e-12);
	assert_near(rp_net_at(&r.trades[0], 2), -0.6, 1e-12);  /* what rescaling says */
	assert_int_equal(sts_rerun(&x.s, sig, &k, 0, 1.0, &one), 0);
	assert_int_equal(sts_rerun(&x.s, sig, &k, 0, 2.0, &two), 0);
	assert_int_equal(sts_rerun(&x.s, sig, &k, 0, 3.0, &three), 0);
	assert_false(one.ruined);
	assert_true(two.ruined && three.ruined);
	assert_true(two.net_return == -1.0 && three.net_return == -1.0);
	rp_result_release(&r);
}

/* Two trades without funding: (1 + g1 - k c)(1 + g2 - k c) = 1 solved by hand, c = 2 (fee +
 * slippage) a trade; the search lands within its tolerance and the replay there is flat. */
static void test_breakeven_by_hand(void **state)
{
	static const double o[] = { 100, 100, 102, 110, 100, 100, 103 };
	static const double c[] = { 100, 101, 109, 110, 100, 102, 103 };
	static const int8_t sig[] = { 1, 1, 0, 1, 1, 0, 0 };
	static struct series x;
	struct rp_costs k = { .fee_bps = 5, .slippage_bps = 2 };
	double a = 1 + (110.0 / 100 - 1), b = 1 + (103.0 / 100 - 1), cost = 2 * 7e-4;
	double want = ((a + b) - sqrt((a + b) * (a + b) - 4 * (a * b - 1))) / (2 * cost);
	struct sts_breakeven be;
	struct sts_rerun at;

	(void)state;
	make(&x, o, c, 7);
	assert_int_equal(sts_breakeven(&x.s, sig, &k, &be), 0);
	assert_null(be.reason);
	assert_near(be.multiple, want, STS_BE_TOL * want);
	assert_true(be.lo < want && want <= be.hi && be.hi - be.lo <= STS_BE_TOL * be.hi);
	assert_false(be.at_ruin);
	assert_int_equal(sts_rerun(&x.s, sig, &k, 0, be.multiple, &at), 0);
	assert_near(at.net_return, 0, 1e-7);
	/* below 1x: the same trades with 100 times the costs lose at 1x */
	k.fee_bps *= 100;
	k.slippage_bps *= 100;
	assert_int_equal(sts_breakeven(&x.s, sig, &k, &be), 0);
	assert_near(be.multiple, want / 100, STS_BE_TOL * want);
	assert_true(be.hi <= 1.0);
}

/* A long from 100 that closes a bar at 20 and leaves at 200: 15 % a side. Its exit makes money
 * up to k = 1 / 0.3, but the mark at 20 is ruin from k = 0.2 / 0.15 on: the net return falls
 * from a profit to -100 % there, and the break-even says so. */
static void test_breakeven_at_ruin(void **state)
{
	static const double o[] = { 100, 100, 100, 200, 200 }, c[] = { 100, 20, 200, 200, 200 };
	static const int8_t sig[] = { 1, 1, 0, 0, 0 };
	static struct series x;
	struct rp_costs k = { .fee_bps = 1000, .slippage_bps = 500 };
	struct sts_breakeven be;

	(void)state;
	make(&x, o, c, 5);
	assert_int_equal(sts_breakeven(&x.s, sig, &k, &be), 0);
	assert_null(be.reason);
	assert_near(be.multiple, 0.2 / 0.15, 1e-8);
	assert_true(be.at_ruin);
}

/* No figure, and why: no trades, no costs, a losing gross, funding that can be income. */
static void test_breakeven_reasons(void **state)
{
	static const double o[] = { 100, 100, 102, 110, 100 }, c[] = { 100, 101, 109, 110, 100 };
	static const int8_t flat[] = { 0, 0, 0, 0, 0 }, lng[] = { 1, 1, 0, 0, 0 };
	static const int8_t shrt[] = { -1, -1, 0, 0, 0 };
	static struct series x;
	struct rp_costs k = { .fee_bps = 5, .slippage_bps = 2 }, none = { 0 };
	struct rp_costs income = { .fee_bps = 5, .funding_bps_8h = 1, .funding_income = true,
				   .market = RP_MARKET_PERP };
	struct sts_breakeven be;

	(void)state;
	make(&x, o, c, 5);
	assert_int_equal(sts_breakeven(&x.s, flat, &k, &be), 0);
	assert_true(isnan(be.multiple) && strstr(be.reason, "no trades"));
	assert_int_equal(sts_breakeven(&x.s, lng, &none, &be), 0);
	assert_true(isnan(be.multiple) && strstr(be.reason, "paid no costs"));
	assert_int_equal(sts_breakeven(&x.s, shrt, &k, &be), 0);
	assert_true(isnan(be.multiple) && strstr(be.reason, "gross return"));
	assert_int_equal(sts_breakeven(&x.s, lng, &income, &be), 0);
	assert_true(isnan(be.multiple) && strstr(be.reason, "FUNDING_INCOME"));
}

/* What the bisection rests on: the net return never rises with k, ruin included. */
static void test_net_falls_with_costs(void **state)
{
	static struct series x;
	static int8_t sig[3000];
	struct rp_costs c = { .fee_bps = 5, .slippage_bps = 2, .funding_bps_8h = 1 };
	double prev = INFINITY;

	(void)state;
	random_path(&x, sig, 3000, 5);
	for (double k = 0; k <= 200; k += 2.5) {
		struct sts_rerun row;
		assert_int_equal(sts_rerun(&x.s, sig, &c, 0, k, &row), 0);
		assert_true(row.net_return <= prev);
		assert_true(!row.ruined || row.net_return == -1.0);
		prev = row.net_return;
	}
	assert_true(prev == -1.0);  /* enough costs ruin any account that trades */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rerun_is_the_replay),
		cmocka_unit_test(test_ruin_rescaling_cannot_see),
		cmocka_unit_test(test_breakeven_by_hand),
		cmocka_unit_test(test_breakeven_at_ruin),
		cmocka_unit_test(test_breakeven_reasons),
		cmocka_unit_test(test_net_falls_with_costs),
		cmocka_unit_test(test_rerun_with_callbacks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
