/* test_stats_tables.c - the stats stage's tables in freqtrade's and quantstats' terms
 * (stats_freqtrade, stats_quant): streaks, Kelly, the ulcer index and quantiles by hand. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "replay_core.h"
#include "stats_freqtrade.h"
#include "stats_quant.h"

#define assert_near(a, b, eps) do { \
	double a_ = (a), b_ = (b); \
	if (!(fabs(a_ - b_) <= (eps))) \
		fail_msg("%s = %.15g, expected %.15g", #a, a_, b_); \
} while (0)

/* freqtrade's tables by hand: five trades, three reasons, one draw, entered out of file order. */
static void test_freqtrade_tables(void **state)
{
	struct rp_trade t[5] = {
		{ .entry = 300, .net = -0.01, .bars_held = 4, .exit_reason = RP_EXIT_STOP_LOSS },
		{ .entry = 100, .net = 0.02, .bars_held = 2, .exit_reason = RP_EXIT_SIGNAL },
		{ .entry = 200, .net = 0.03, .bars_held = 6, .exit_reason = RP_EXIT_SIGNAL },
		{ .entry = 400, .net = 0.0, .bars_held = 1, .exit_reason = RP_EXIT_STOP_LOSS },
		{ .entry = 500, .net = 0.05, .bars_held = -1, .exit_reason = RP_EXIT_UNKNOWN },
	};
	int64_t times[3] = { 0, 60, 120 };
	double close[3] = { 100, 90, 125 }, none[3] = { 0 };
	struct da_ohlcv d = { .n = 3, .t = times, .open = none, .high = none, .low = none,
			     .close = close, .volume = none };
	cJSON *cfg = cJSON_Parse("{\"costs\":{\"stake\":500}}"), *o = cJSON_CreateObject();
	struct sts_stage_in in = { .config = cfg, .trades = t, .n_trades = 5, .data = &d };
	const cJSON *ex, *r;
	size_t w, l;
	char err[256];

	(void)state;
	assert_int_equal(sts_freqtrade_report(o, &in, 0.1, err, sizeof(err)), 0);
	ex = cJSON_GetObjectItem(o, "by_exit_reason");
	assert_int_equal(cJSON_GetArraySize(ex), 3);
	r = cJSON_GetArrayItem(ex, 0);  /* signal: 0.05 summed, the most */
	assert_string_equal(cJSON_GetObjectItem(r, "key")->valuestring, "signal");
	assert_int_equal(cJSON_GetObjectItem(r, "trades")->valueint, 2);
	assert_near(cJSON_GetObjectItem(r, "mean_return")->valuedouble, 0.025, 1e-12);
	assert_near(cJSON_GetObjectItem(r, "mean_bars_held")->valuedouble, 4, 1e-12);
	assert_int_equal(cJSON_GetObjectItem(r, "wins")->valueint, 2);
	r = cJSON_GetArrayItem(ex, 1);  /* unknown: 0.05 too; the key breaks the tie */
	assert_string_equal(cJSON_GetObjectItem(r, "key")->valuestring, "unknown");
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(r, "mean_bars_held")));
	r = cJSON_GetArrayItem(ex, 2);
	assert_string_equal(cJSON_GetObjectItem(r, "key")->valuestring, "stop_loss");
	assert_int_equal(cJSON_GetObjectItem(r, "draws")->valueint, 1);
	assert_int_equal(cJSON_GetObjectItem(r, "losses")->valueint, 1);
	assert_near(cJSON_GetObjectItem(r, "mean_bars_held")->valuedouble, 2.5, 1e-12);
	r = cJSON_GetArrayItem(cJSON_GetObjectItem(o, "by_entry_tag"), 0);
	assert_int_equal(cJSON_GetObjectItem(r, "trades")->valueint, 5);
	assert_int_equal(cJSON_GetObjectItem(r, "wins")->valueint, 3);
	/* in entry order: win win loss draw(a loss to freqtrade) win */
	assert_int_equal(cJSON_GetObjectItem(o, "max_consecutive_wins")->valueint, 2);
	assert_int_equal(cJSON_GetObjectItem(o, "max_consecutive_losses")->valueint, 2);
	assert_int_equal(sts_ft_streaks(t, 0, &w, &l), 0);
	assert_true(w == 0 && l == 0);
	assert_near(cJSON_GetObjectItem(o, "market_change")->valuedouble, 0.25, 1e-12);
	r = cJSON_GetObjectItem(o, "balance");
	assert_near(cJSON_GetObjectItem(r, "starting_balance")->valuedouble, 500, 1e-12);
	assert_near(cJSON_GetObjectItem(r, "final_balance")->valuedouble, 550, 1e-9);
	cJSON_Delete(o);

	/* custom exits by the reason custom_exit named (exit_tag), as freqtrade's exit_reason: a
	 * plain True stays custom_exit, a name of another reason shares that reason's row, and a
	 * signal's exit tag is no custom exit's name */
	{
		struct rp_trade c[5] = {
			{ .entry = 100, .net = 0.04, .bars_held = 1, .exit_reason = RP_EXIT_CUSTOM, .exit_tag = 1 },
			{ .entry = 200, .net = 0.02, .bars_held = 1, .exit_reason = RP_EXIT_CUSTOM, .exit_tag = 1 },
			{ .entry = 300, .net = -0.01, .bars_held = 1, .exit_reason = RP_EXIT_CUSTOM },
			{ .entry = 400, .net = -0.02, .bars_held = 1, .exit_reason = RP_EXIT_CUSTOM, .exit_tag = 2 },
			{ .entry = 500, .net = -0.03, .bars_held = 1, .exit_reason = RP_EXIT_STOP_LOSS, .exit_tag = 3 },
		};
		char names[3][DA_TAG_NAME_MAX + 1] = { "rsi_profit", "stop_loss", "tagged" };
		struct da_tags xt = { .names = names, .n_names = 3 };
		static const char *const keys[3] = { "rsi_profit", "custom_exit", "stop_loss" };
		static const int counts[3] = { 2, 1, 2 };

		o = cJSON_CreateObject();
		in.trades = c;
		in.exit_tags = &xt;
		assert_int_equal(sts_freqtrade_report(o, &in, 0.1, err, sizeof(err)), 0);
		ex = cJSON_GetObjectItem(o, "by_exit_reason");
		assert_int_equal(cJSON_GetArraySize(ex), 3);
		for (int i = 0; i < 3; i++) {
			r = cJSON_GetArrayItem(ex, i);
			assert_string_equal(cJSON_GetObjectItem(r, "key")->valuestring, keys[i]);
			assert_int_equal(cJSON_GetObjectItem(r, "trades")->valueint, counts[i]);
		}
		cJSON_Delete(o);
		in.trades = t;
		in.exit_tags = NULL;
	}

	/* no prices: no market change, and why; a stake out of range is refused */
	o = cJSON_CreateObject();
	in.data = NULL;
	in.data_err = "no price data was given to the statistics";
	assert_int_equal(sts_freqtrade_report(o, &in, 0.1, err, sizeof(err)), 0);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(o, "market_change")));
	assert_string_equal(cJSON_GetObjectItem(o, "market_change_note")->valuestring, in.data_err);
	cJSON_Delete(o);
	cJSON_Delete(cfg);
	cfg = cJSON_Parse("{\"costs\":{\"stake\":-5}}");
	in.config = cfg;
	o = cJSON_CreateObject();
	assert_int_equal(sts_freqtrade_report(o, &in, 0.1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "stake"));
	cJSON_Delete(o);
	cJSON_Delete(cfg);
}

/* quantstats' figures by hand: Kelly from the wins and losses (a flat trade is neither), the ulcer
 * index of a curve (to and including ruin), quantiles between order statistics, durations. */
static void test_quant_by_hand(void **state)
{
	const double r[] = { 0.1, -0.05, 0.02, 0, -0.01 }, only_wins[] = { 0.1, 0.2 };
	const double eq[] = { 1, 1.1, 0.99, 1.21, 1.1 }, ruin[] = { 1, 0.5, 0, 0 };
	const double sorted[] = { 1, 2, 4, 8 };
	struct rp_trade t[3] = {
		{ .entry = 0, .exit = 7200, .bars_held = 2, .net = 0.01 },
		{ .entry = 0, .exit = 3600, .bars_held = 1, .net = -0.02 },
		{ .entry = 0, .exit = 36000, .bars_held = -1, .net = 0.03 },
	};
	cJSON *o = cJSON_CreateObject();
	const cJSON *d;
	double dd = 1.1 / 1.21 - 1;

	(void)state;
	assert_near(sts_kelly(r, 5), 0.25, 1e-12);  /* payoff 0.06 / 0.03 = 2, win rate 1/2 */
	assert_true(isnan(sts_kelly(only_wins, 2)));
	assert_near(sts_ulcer(eq, 5), sqrt((0.01 + dd * dd) / 4), 1e-12);
	assert_near(sts_ulcer(ruin, 4), sqrt(1.25 / 2), 1e-12);
	assert_true(isnan(sts_ulcer(eq, 1)));
	assert_near(sts_quantile_sorted(sorted, 4, 0.5), 3, 1e-12);
	assert_near(sts_quantile_sorted(sorted, 4, 0.25), 1.75, 1e-12);
	assert_near(sts_quantile_sorted(sorted, 4, 1), 8, 1e-12);
	assert_int_equal(sts_quant_report(o, t, 3, eq, 5, 0.1, 0.2), 0);
	assert_near(cJSON_GetObjectItem(o, "recovery_factor")->valuedouble, 0.5, 1e-12);
	d = cJSON_GetObjectItem(cJSON_GetObjectItem(o, "trade_durations"), "bars");
	assert_near(cJSON_GetObjectItem(d, "median")->valuedouble, 1.5, 1e-12);
	assert_near(cJSON_GetObjectItem(d, "max")->valuedouble, 2, 1e-12);
	d = cJSON_GetObjectItem(cJSON_GetObjectItem(o, "trade_durations"), "hours");
	assert_near(cJSON_GetObjectItem(d, "median")->valuedouble, 2, 1e-12);
	assert_near(cJSON_GetObjectItem(d, "mean")->valuedouble, 13.0 / 3, 1e-9);
	cJSON_Delete(o);
	o = cJSON_CreateObject();
	assert_int_equal(sts_quant_report(o, t, 0, eq, 5, 0, 0), 0);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(o, "recovery_factor")));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "trade_durations"), "bars")));
	cJSON_Delete(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_freqtrade_tables),
		cmocka_unit_test(test_quant_by_hand),
	};

	return cmocka_run_group_tests_name("stats_tables", tests, NULL, NULL);
}
