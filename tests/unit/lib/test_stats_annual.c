/* test_stats_annual.c - the one basis of the per-bar figures: the returns of a compounded curve
 * up to and including a ruin bar, their annualised Sharpe ratio and volatility, Lo's correction
 * and the rolling windows, each against a hand computation or a naive second one. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stats_annual.h"
#include "stats_core.h"

#define assert_near(a, b, eps) do { \
	double a_ = (a), b_ = (b); \
	if (!(fabs(a_ - b_) <= (eps))) \
		fail_msg("%s = %.15g, expected %.15g", #a, a_, b_); \
} while (0)

/* mean / sd (ddof 1) of x[0..n), and the sd, the plain way. */
static double naive_sharpe(const double *x, size_t n, double *sd)
{
	double m = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		m += x[i] / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	*sd = sqrt(ss / (double)(n - 1));
	return m / *sd;
}

/* Returns are ratios from 1, not differences, and the ruin bar is the last of them. */
static void test_curve_returns(void **state)
{
	static const double eq[] = { 1.1, 1.21, 0.605, 0.0, 0.0, 0.0 };
	double r[6];

	(void)state;
	assert_int_equal(st_curve_returns(eq, 6, r), 4);
	assert_near(r[0], 0.1, 1e-15);
	assert_near(r[1], 0.1, 1e-15);     /* a difference would say 0.11 */
	assert_near(r[2], -0.5, 1e-15);
	assert_near(r[3], -1.0, 0);        /* ruin: counted, and nothing after it */
	assert_int_equal(st_curve_returns(eq, 2, r), 2);
	assert_int_equal(st_curve_returns(NULL, 0, r), 0);
}

/* The annualised Sharpe ratio and volatility of the returns, not of the equity changes. */
static void test_annualise_by_hand(void **state)
{
	static const double eq[] = { 1.02, 1.0098, 1.040094, 1.0192921, 1.0396779 };
	double r[5], diff[5], prev = 1.0, sd, sd_diff, sr;
	struct st_annual a;

	(void)state;
	for (int i = 0; i < 5; i++) {
		r[i] = eq[i] / prev - 1.0;
		diff[i] = eq[i] - prev;
		prev = eq[i];
	}
	sr = naive_sharpe(r, 5, &sd);
	assert_int_equal(st_curve_annual(eq, 5, 3.0, &a), 0);
	assert_int_equal(a.bars, 5);
	assert_near(a.sharpe_bar, sr, 1e-12);
	assert_near(a.sharpe, 3.0 * sr, 1e-12);
	assert_near(a.vol, 3.0 * sd, 1e-12);
	/* the old basis differs visibly on the same curve */
	assert_true(fabs(naive_sharpe(diff, 5, &sd_diff) - sr) > 1e-3);
	/* a flat curve has no Sharpe ratio and no volatility */
	st_annualise((const double[]){ 0, 0, 0 }, 3, 2.0, &a);
	assert_true(isnan(a.sharpe) && a.vol == 0);
	st_annualise(r, 1, 2.0, &a);
	assert_true(isnan(a.sharpe) && isnan(a.vol));
	assert_near(st_bars_per_year(3600), 8766, 1e-9);
	assert_true(isnan(st_bars_per_year(0)));
}

/* Lo (2002) eq. 19 written out with its (q - k) weights, the sum stopped at n^(1/3) lags. */
static void test_lo_by_hand(void **state)
{
	static const double r[9] = { 0.01, 0.02, 0.015, -0.01, -0.005, 0.0, 0.012, 0.02, -0.002 };
	static const double cyc[9] = { 2, -1, -1, 2, -1, -1, 2, -1, -1 };
	double q = 100, rho[3] = { 0 }, m = 0, den = 0, sd;
	struct st_lo lo;

	(void)state;
	for (int i = 0; i < 9; i++)
		m += r[i] / 9;
	for (int i = 0; i < 9; i++)
		den += (r[i] - m) * (r[i] - m);
	for (int k = 1; k <= 2; k++)
		for (int i = 0; i + k < 9; i++)
			rho[k] += (r[i] - m) * (r[i + k] - m) / den;
	st_lo_annualise(r, 9, naive_sharpe(r, 9, &sd), q, &lo);
	assert_int_equal(lo.lags, 2);   /* 9^(1/3) rounded */
	assert_near(lo.factor, q / sqrt(q + 2 * ((q - 1) * rho[1] + (q - 2) * rho[2])), 1e-12);
	assert_near(lo.sharpe, naive_sharpe(r, 9, &sd) * lo.factor, 1e-12);
	assert_near(lo.rho_sum, (1 - 1 / q) * rho[1] + (1 - 2 / q) * rho[2], 1e-15);
	/* a cycle of one up and two down: rho_1 = rho_2 = -1/2, 1 + 2 sum < 0, no correction */
	st_lo_annualise(cyc, 9, 0.1, q, &lo);
	assert_true(isnan(lo.factor) && isnan(lo.sharpe));
	/* too few bars */
	st_lo_annualise(r, 2, 0.1, q, &lo);
	assert_true(isnan(lo.sharpe));
}

/* The running windows agree with each window taken afresh; after a ruin bar there are none,
 * and the window ending on it counts its -1. */
static void test_rolling_against_naive(void **state)
{
	enum { N = 400, W = 37, RUIN = 300 };
	double eq[N], sr[N], vol[N], r[N], x = 1.0, prev = 1.0;

	(void)state;
	srand(7);
	for (int i = 0; i < N; i++) {
		x *= 1.0 + ((double)rand() / RAND_MAX - 0.48) * 0.01;
		eq[i] = i < RUIN ? x : 0.0;
		r[i] = eq[i] / prev - 1.0;
		prev = eq[i] > 0 ? eq[i] : prev;
	}
	assert_int_equal(st_rolling_annual(eq, N, W, 2.0, sr, vol), 0);
	for (int i = 0; i < N; i++) {
		double sd, want;

		if (i < W - 1 || i > RUIN) {
			assert_true(isnan(sr[i]) && isnan(vol[i]));
			continue;
		}
		want = naive_sharpe(r + i - W + 1, W, &sd);
		assert_near(sr[i], 2.0 * want, 1e-9 * (1 + fabs(want)));
		assert_near(vol[i], 2.0 * sd, 1e-12 * (1 + sd));
	}
	assert_near(r[RUIN], -1.0, 0);
	assert_true(vol[RUIN] > 10 * vol[RUIN - 1]);  /* the -100 % bar counts */
	/* either line alone, and a window of one refused */
	assert_int_equal(st_rolling_annual(eq, N, W, 2.0, NULL, vol), 0);
	assert_int_equal(st_rolling_annual(eq, N, W, 2.0, sr, NULL), 0);
	assert_int_equal(st_rolling_annual(eq, N, 1, 2.0, sr, vol), -1);
	assert_true(isnan(sr[100]) && isnan(vol[100]));
}

/* A flat stretch has a volatility of 0 and no Sharpe ratio, even after moving bars. */
static void test_rolling_flat(void **state)
{
	enum { N = 60, W = 10 };
	double eq[N], sr[N], vol[N];

	(void)state;
	for (int i = 0; i < N; i++)
		eq[i] = i < 20 ? 1.0 + 0.01 * (i % 3) : 1.0;
	assert_int_equal(st_rolling_annual(eq, N, W, 1.0, sr, vol), 0);
	assert_true(isfinite(sr[15]));
	assert_true(isnan(sr[N - 1]));
	assert_near(vol[N - 1], 0.0, 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_curve_returns),
		cmocka_unit_test(test_annualise_by_hand),
		cmocka_unit_test(test_lo_by_hand),
		cmocka_unit_test(test_rolling_against_naive),
		cmocka_unit_test(test_rolling_flat),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
