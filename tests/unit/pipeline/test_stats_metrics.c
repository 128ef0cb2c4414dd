/* test_stats_metrics.c - historical VaR and CVaR, the per-bar figures of a ruined curve and the
 * long/short split, each against a hand computation or a naive second one. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stats_metrics.h"

#define assert_near(a, b, eps) do { \
	double a_ = (a), b_ = (b); \
	if (!(fabs(a_ - b_) <= (eps))) \
		fail_msg("%s = %.15g, expected %.15g", #a, a_, b_); \
} while (0)

/* Twenty returns -0.10, -0.09, ..., 0.09 in a shuffled order: the 5 % quantile lies between
 * the two smallest, 0.95 of the way from the first to the second. */
static void test_var_cvar_by_hand(void **state)
{
	double x[20], var, cvar;

	(void)state;
	for (int i = 0; i < 20; i++)
		x[i] = ((i * 7) % 20 - 10) / 100.0;
	assert_int_equal(sts_var_cvar(x, 20, 0.05, &var, &cvar), 0);
	assert_near(var, -0.10 + 0.95 * 0.01, 1e-15);
	assert_near(cvar, -0.10, 1e-15);  /* only the worst is at or below it */
	assert_int_equal(sts_var_cvar(x, 20, 0.25, &var, &cvar), 0);
	assert_near(var, -0.10 + 4.75 * 0.01, 1e-15);
	assert_near(cvar, (-0.10 - 0.09 - 0.08 - 0.07 - 0.06) / 5, 1e-15);
	assert_int_equal(sts_var_cvar(x, 0, 0.05, &var, &cvar), -1);
	assert_true(isnan(var) && isnan(cvar));
}

/* A ruined curve: its per-bar figures are of its returns up to and including the ruin bar
 * (0.1, -0.5, -1), not of the rows after it, and not of equity changes. */
static void test_ruined_curve(void **state)
{
	double eq[5] = { 1.1, 0.55, 0.0, 0.0, 0.0 }, r[3] = { 0.1, -0.5, -1.0 }, m = -1.4 / 3, ss = 0;
	int64_t et[5] = { 0, 3600, 7200, 10800, 14400 };
	struct sts_tearsheet_in in = { .eq_net = eq, .eq_time = et, .n_eq = 5, .eq_per_bar = true,
				      .annual_factor = 2.0, .rolling_knob = 2 };
	cJSON *o = cJSON_CreateObject(), *rv;

	(void)state;
	for (int i = 0; i < 3; i++)
		ss += (r[i] - m) * (r[i] - m);
	assert_int_equal(sts_metrics(o, &in), 0);
	assert_near(cJSON_GetObjectItem(o, "volatility_annualised")->valuedouble, 2.0 * sqrt(ss / 2), 1e-9);
	assert_near(cJSON_GetObjectItem(o, "worst_bar")->valuedouble, -1.0, 0);
	assert_near(cJSON_GetObjectItem(o, "best_bar")->valuedouble, 0.1, 1e-12);
	/* windows of 2: (0.1, -0.5) and (-0.5, -1); none after the ruin bar */
	rv = cJSON_GetObjectItem(o, "rolling_volatility");
	assert_near(cJSON_GetObjectItem(rv, "last")->valuedouble, 2.0 * 0.5 / sqrt(2.0), 1e-9);
	assert_near(cJSON_GetObjectItem(rv, "max")->valuedouble, 2.0 * 0.6 / sqrt(2.0), 1e-9);
	cJSON_Delete(o);
}

/* Three longs and one short: counted apart, compounded, won and Sharpe by hand. */
static void test_long_short_by_hand(void **state)
{
	struct rp_trade t[4] = {
		{ .side = 1, .net = 0.10 }, { .side = -1, .net = -0.05 },
		{ .side = 1, .net = -0.02 }, { .side = 1, .net = 0.04 },
	};
	double eq[2] = { 1.0, 1.0 };
	int64_t et[2] = { 0, 3600 };
	struct sts_tearsheet_in in = { .trades = t, .n_trades = 4, .eq_net = eq, .eq_time = et,
				      .n_eq = 2, .eq_per_bar = true, .annual_factor = 1.0 };
	cJSON *o = cJSON_CreateObject(), *l, *s;
	double m = 0.04, sd = sqrt((0.06 * 0.06 + 0.06 * 0.06 + 0.0) / 2);

	(void)state;
	assert_int_equal(sts_metrics(o, &in), 0);
	l = cJSON_GetObjectItem(cJSON_GetObjectItem(o, "long_short"), "long");
	s = cJSON_GetObjectItem(cJSON_GetObjectItem(o, "long_short"), "short");
	assert_int_equal(cJSON_GetObjectItem(l, "trades")->valuedouble, 3);
	assert_near(cJSON_GetObjectItem(l, "net_return")->valuedouble, 1.10 * 0.98 * 1.04 - 1, 1e-9);
	assert_near(cJSON_GetObjectItem(l, "win_rate")->valuedouble, 2.0 / 3, 1e-9);
	assert_near(cJSON_GetObjectItem(l, "sharpe")->valuedouble, m / sd, 1e-9);
	assert_int_equal(cJSON_GetObjectItem(s, "trades")->valuedouble, 1);
	assert_near(cJSON_GetObjectItem(s, "net_return")->valuedouble, -0.05, 1e-12);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(s, "sharpe")));  /* one trade has no spread */
	/* no price data: no benchmark year, said as null */
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(o, "yearly_benchmark")));
	cJSON_Delete(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_var_cvar_by_hand),
		cmocka_unit_test(test_ruined_curve),
		cmocka_unit_test(test_long_short_by_hand),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
