/* test_selection.c - the tests run on the strategy itself: the Politis-White block length,
 * SPA on a family with a real winner, on noise and on refusals, walk-forward selection on a
 * matrix worked by hand, and the Monte Carlo of the trades on sequences whose answer is known. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "stats_montecarlo.h"
#include "stats_spa.h"
#include "stats_walkforward.h"

#define assert_near(a, b, eps) do { \
	double a_ = (a), b_ = (b); \
	if (!(fabs(a_ - b_) <= (eps))) \
		fail_msg("%s = %.15g, expected %.15g", #a, a_, b_); \
} while (0)

/* n x k AR(1) returns (coefficient phi), seeded; column edge_col (if < k) earns edge per bar. */
static double *family(size_t n, size_t k, double phi, unsigned long seed, size_t edge_col,
		      double edge)
{
	double *m = malloc(n * k * sizeof *m);
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	assert_non_null(m);
	gsl_rng_set(r, seed);
	for (size_t j = 0; j < k; j++) {
		double prev = 0.0;

		for (size_t t = 0; t < n; t++) {
			prev = phi * prev + gsl_ran_gaussian(r, 0.01);
			m[j * n + t] = prev + (j == edge_col ? edge : 0.0);
		}
	}
	gsl_rng_free(r);
	return m;
}

static void test_block_length(void **state)
{
	double *iid = family(4000, 1, 0.0, 3, 9, 0), *ar = family(4000, 1, 0.9, 3, 9, 0);
	double flat[100] = { 0 };

	(void)state;
	assert_true(sts_pw_block_length(iid, 4000) < 4.0);
	assert_true(sts_pw_block_length(ar, 4000) > 15.0);
	/* at most min(3 sqrt(n), n / 3) */
	assert_true(sts_pw_block_length(ar, 4000) <= ceil(3 * sqrt(4000.0)));
	assert_near(sts_pw_block_length(flat, 100), 1.0, 0);
	assert_near(sts_pw_block_length(iid, 3), 1.0, 0);
	free(iid);
	free(ar);
}

static void test_spa_winner_and_noise(void **state)
{
	double *win = family(2000, 20, 0.3, 7, 10, 0.002), *noise = NULL, mean_p = 0.0;
	struct sts_spa a, b, again;
	char why[256];

	(void)state;
	/* under the null, p is about uniform (SPA leans conservative): its mean over eight noise
	 * families stays well above a winner's */
	for (unsigned long seed = 20; seed < 28; seed++) {
		noise = family(2000, 20, 0.3, seed, 99, 0);
		assert_int_equal(sts_spa(noise, 2000, 20, 500, 1, 0.0, &b, why, sizeof why), 0);
		assert_true(b.p_lower <= b.p_value && b.p_value <= b.p_upper);
		mean_p += b.p_value / 8;
		free(noise);
	}
	assert_true(mean_p >= 0.3);
	noise = family(2000, 20, 0.3, 11, 99, 0);
	assert_int_equal(sts_spa(win, 2000, 20, 1000, 1, 0.0, &a, why, sizeof why), 0);
	assert_true(a.p_value <= 0.01);
	assert_true(a.reality_check_p <= 0.05);
	assert_int_equal((int)a.best, 10);
	assert_int_equal(sts_spa(noise, 2000, 20, 1000, 1, 0.0, &b, why, sizeof why), 0);
	assert_int_equal((int)b.resamples, 1000);
	/* seeded: the same inputs give the same figures */
	assert_int_equal(sts_spa(noise, 2000, 20, 1000, 1, 0.0, &again, why, sizeof why), 0);
	assert_near(again.p_value, b.p_value, 0);
	assert_near(again.block_length, b.block_length, 0);
	/* short blocks (counted eight resamples at a time) and long ones (prefix sums) agree */
	assert_int_equal(sts_spa(noise, 2000, 20, 1000, 1, 7.9, &a, why, sizeof why), 0);
	assert_int_equal(sts_spa(noise, 2000, 20, 1000, 1, 8.0, &again, why, sizeof why), 0);
	assert_true(fabs(a.p_value - again.p_value) <= 0.06);
	free(win);
	free(noise);
}

static void test_spa_refusals(void **state)
{
	double flat[200] = { 0 }, one[2] = { 0.1, 0.2 };
	struct sts_spa s;
	char why[256];

	(void)state;
	assert_int_equal(sts_spa(flat, 100, 2, 100, 1, 0.0, &s, why, sizeof why), -1);
	assert_non_null(strstr(why, "flat"));
	assert_int_equal(sts_spa(one, 1, 2, 100, 1, 0.0, &s, why, sizeof why), -1);
	assert_non_null(strstr(why, "at least 2 bars"));
	assert_int_equal(sts_spa(one, 2, 1, 0, 1, 0.0, &s, why, sizeof why), -1);
}

/* Three variants, 12 bars, 2 stretches: parts [0,4) [4,8) [8,12). Column 0 earns in the first
 * part and loses after; column 1 is the reverse; column 2 is flat. Before stretch 1 (bars
 * 4-7) the best on bars 0-3 is column 0; before stretch 2 (bars 8-11) the best on bars 0-7 is
 * column 1 (its mean over bars 0-7 is higher), and in hindsight column 1. */
static void test_walkforward_by_hand(void **state)
{
	double m[36] = {
		0.02, 0.01, 0.02, 0.01, -0.01, -0.02, -0.01, -0.02, -0.01, -0.02, -0.01, -0.02,
		-0.01, -0.01, -0.01, -0.02, 0.03, 0.04, 0.03, 0.04, 0.03, 0.04, 0.03, 0.04,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	};
	double oos[8], hind[8], want = 1.0, hw = 1.0;
	struct sts_walkforward w;
	char why[256];

	(void)state;
	assert_int_equal(sts_walkforward(m, 12, 3, 2, &w, why, sizeof why), 0);
	assert_int_equal((int)w.start[0], 4);
	assert_int_equal((int)w.start[1], 8);
	assert_int_equal((int)w.start[2], 12);
	assert_int_equal((int)w.choices[0], 0);
	assert_int_equal((int)w.choices[1], 1);
	assert_int_equal((int)w.hindsight, 1);
	for (int t = 4; t < 8; t++)
		want *= 1 + m[t];
	for (int t = 8; t < 12; t++)
		want *= 1 + m[12 + t];
	for (int t = 4; t < 12; t++)
		hw *= 1 + m[12 + t];
	assert_near(w.oos_net_return, want - 1, 1e-15);
	assert_near(w.is_net_return, hw - 1, 1e-15);
	assert_true(w.oos_sharpe < w.is_sharpe);
	sts_walkforward_curves(m, 12, &w, oos, hind);
	assert_near(oos[7], want, 1e-15);
	assert_near(hind[7], hw, 1e-15);
	/* refusals: too many stretches for the bars, none, no variant */
	assert_int_equal(sts_walkforward(m, 12, 3, 6, &w, why, sizeof why), -1);
	assert_non_null(strstr(why, "cannot be cut"));
	assert_int_equal(sts_walkforward(m, 12, 3, 0, &w, why, sizeof why), -1);
	assert_int_equal(sts_walkforward(m, 12, 0, 2, &w, why, sizeof why), -1);
}

static void test_montecarlo_known(void **state)
{
	double same[50], fan[STS_MC_FAN_POINTS * 5], mixed[4] = { 0.1, -0.2, 0.05, 0.3 };
	double ruin[3] = { 0.1, -1.0, 0.1 };
	struct sts_montecarlo mc;
	char why[256];

	(void)state;
	for (int i = 0; i < 50; i++)
		same[i] = 0.01;
	/* every path of 50 equal trades is the same: no drawdown, one return */
	assert_int_equal(sts_montecarlo(same, 50, 200, 1, STS_MC_BOOTSTRAP, &mc, fan, why, sizeof why), 0);
	assert_near(mc.dd_p99, 0, 0);
	assert_near(mc.ret_p5, pow(1.01, 50) - 1, 1e-12);
	assert_near(mc.ret_p95, pow(1.01, 50) - 1, 1e-12);
	assert_near(fan[0], 1.0, 0);
	assert_near(fan[(STS_MC_FAN_POINTS - 1) * 5 + 2], pow(1.01, 50), 1e-12);
	assert_near(mc.ruin_probability, 0, 0);
	/* reshuffles keep the product: every path ends at the real net return */
	assert_int_equal(sts_montecarlo(mixed, 4, 300, 1, STS_MC_RESHUFFLE, &mc, NULL, why, sizeof why), 0);
	assert_near(mc.ret_p5, mc.observed_net_return, 1e-12);
	assert_near(mc.ret_p95, 1.1 * 0.8 * 1.05 * 1.3 - 1, 1e-12);
	assert_near(mc.observed_max_drawdown, 0.2, 1e-12);
	/* one loss: every order falls 20 % from its peak, no more */
	assert_near(mc.dd_p99, 0.2, 1e-12);
	assert_near(mc.observed_percentile, 1.0, 0);
	/* a trade losing everything: paths drawing it are ruined (1 - (2/3)^3 of them) */
	assert_int_equal(sts_montecarlo(ruin, 3, 20000, 5, STS_MC_BOOTSTRAP, &mc, NULL, why, sizeof why), 0);
	assert_near(mc.ruin_probability, 1 - pow(2.0 / 3, 3), 0.015);
	assert_near(mc.dd_prob_50, mc.ruin_probability, 0);
	assert_int_equal(sts_montecarlo(ruin, 0, 10, 5, STS_MC_BOOTSTRAP, &mc, NULL, why, sizeof why), -1);
	assert_non_null(strstr(why, "no closed trades"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_block_length),
		cmocka_unit_test(test_spa_winner_and_noise),
		cmocka_unit_test(test_spa_refusals),
		cmocka_unit_test(test_walkforward_by_hand),
		cmocka_unit_test(test_montecarlo_known),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
