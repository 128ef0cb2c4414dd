/* test_stats.c - the stats stage's own reads and figures: the trials knob, trades.csv parsed,
 * the stage's reasons, the forward tail, the trials' ledger and declared search, beta over a
 * planted market, the block Monte Carlo; each by hand or against a planted answer. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "jsonio.h"
#include "msg.h"
#include "replay_core.h"
#include "stats_core.h"
#include "stats_forward.h"
#include "ohlcv.h"
#include "stats_io.h"
#include "stats_trials.h"
#include "stats_beta.h"
#include "stats_montecarlo.h"

#define assert_near(a, b, eps) do { \
	double a_ = (a), b_ = (b); \
	if (!(fabs(a_ - b_) <= (eps))) \
		fail_msg("%s = %.15g, expected %.15g", #a, a_, b_); \
} while (0)

/* A trade with the given gross and cost split evenly over fees, slippage and funding. */
static struct rp_trade trade(double gross, double cost, long bars)
{
	return (struct rp_trade){ .side = 1, .gross = gross, .fees = cost / 2, .slippage = cost / 4,
				  .funding = cost / 4, .net = gross - cost, .bars_held = bars };
}

static void test_trials_config(void **state)
{
	static const struct { const char *json; int rc; const char *why; } cases[] = {
		{ "{\"trials\":50}", 0, "" },
		{ "{}", 0, "" },  /* the knob table's default, 1 */
		{ "{\"trials\":0}", -1, "trials must be a whole number from 1 to 1000000 (TRIALS)" },
		{ "{\"trials\":1.5}", -1, "trials must be a whole number" },
		{ "{\"trials\":2000000}", -1, "from 1 to 1000000" },
		{ "{\"trials\":\"9\"}", -1, "must be a whole number" },
	};
	double n;
	char err[256] = "";

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cJSON *c = cJSON_Parse(cases[i].json);
		assert_int_equal(sts_read_trials(c, &n, err, sizeof(err)), cases[i].rc);
		if (cases[i].rc && !strstr(err, cases[i].why))
			fail_msg("case %zu: '%s' lacks '%s'", i, err, cases[i].why);
		cJSON_Delete(c);
	}
}

static const char trades_head[] = "entry_time,exit_time,side,entry_px,exit_px,bars_held,"
	"gross_return,fees,slippage,funding,borrow,net_return,open_at_end,exit_reason,entry_tag,exit_tag\n";

static void test_parse_trades(void **state)
{
	char buf[1024];
	struct rp_trade *t;
	size_t n;
	char err[256];

	(void)state;
	sa_fmt(buf, sizeof(buf), "%s%s%s", trades_head,
	       "2024-01-01T07:00:00Z,2024-01-01T09:00:00Z,long,102,101,2,-0.0098,0.001,0.0004,0.0001,0,-0.0113,0,stop_loss,,\n",
	       "2024-01-02T00:00:00Z,2024-01-02T05:00:00Z,short,,,,0.02,0,0,0,0.00002,0.01998,1,,,\n");
	assert_int_equal(sts_parse_trades(buf, strlen(buf), &t, &n, NULL, NULL, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_int_equal(t[0].entry, 1704092400);
	assert_near(t[0].funding, 0.0001, 0);
	assert_int_equal(t[1].side, -1);
	assert_near(t[1].borrow, 0.00002, 0);
	assert_true(isnan(t[1].entry_px));
	assert_int_equal(t[1].bars_held, -1);
	assert_true(t[1].open_at_end);
	assert_int_equal(t[0].exit_reason, RP_EXIT_STOP_LOSS);
	assert_int_equal(t[1].exit_reason, RP_EXIT_UNKNOWN);
	free(t);

	/* An exit reason the replay never writes is refused, named. */
	sa_fmt(buf, sizeof(buf), "%s%s", trades_head,
	       "2024-01-01T07:00:00Z,2024-01-01T09:00:00Z,long,102,101,2,-0.0098,0.001,0.0004,0.0001,0,-0.0113,0,margin,,\n");
	assert_int_equal(sts_parse_trades(buf, strlen(buf), &t, &n, NULL, NULL, err, sizeof(err)), -1);
	assert_string_equal(err, "trades.csv line 2: exit_reason is not one the replay writes, 'margin'");
	assert_null(t);

	sa_fmt(buf, sizeof(buf), "%s%s", trades_head,
	       "2024-01-01T07:00:00Z,2024-01-01T09:00:00Z,long,102,101,2,-0.0098,0.001,0.0004,0.0001,0,nan,0,signal,,\n");
	assert_int_equal(sts_parse_trades(buf, strlen(buf), &t, &n, NULL, NULL, err, sizeof(err)), -1);
	assert_string_equal(err, "trades.csv line 2: net_return is not a finite number");
	assert_null(t);

	/* A row wider than the header: its extra field must not land in any column. */
	sa_fmt(buf, sizeof(buf), "%s%s", trades_head,
	       "2024-01-01T07:00:00Z,2024-01-01T09:00:00Z,long,102,101,2,-0.0098,0.001,0.0004,0.0001,"
	       "0,-0.0113,0,signal,,,2030-01-01T00:00:00Z\n");
	assert_int_equal(sts_parse_trades(buf, strlen(buf), &t, &n, NULL, NULL, err, sizeof(err)), -1);
	assert_string_equal(err, "trades.csv line 2: 17 fields where the header has 16");
	assert_null(t);

	sa_fmt(buf, sizeof(buf), "entry_time,side\n");
	assert_int_equal(sts_parse_trades(buf, strlen(buf), &t, &n, NULL, NULL, err, sizeof(err)), -1);
	assert_string_equal(err, "trades.csv line 1: no column 'exit_time'");

	/* A header alone is zero trades, not an error. */
	assert_int_equal(sts_parse_trades(trades_head, strlen(trades_head), &t, &n, NULL, NULL, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	free(t);
}

static void test_stage_reasons(void **state)
{
	cJSON *replay = cJSON_Parse("{\"stage\":\"replay\",\"ok\":true,\"mode\":\"signals\","
				    "\"trades\":0,\"equity_rows\":0,\"net_return\":0}");
	cJSON *failed = cJSON_Parse("{\"stage\":\"replay\",\"ok\":false,\"reason\":\"no data\"}");
	cJSON *cfg0 = cJSON_Parse("{\"trials\":0}");
	cJSON *cfg = cJSON_Parse("{\"trials\":3}");
	struct sts_stage_in in = { .replay = replay, .config = cfg0 };
	cJSON *o;

	(void)state;
	o = sts_stage(&in);
	assert_false(sa_json_bool(o, "ok", true));
	assert_non_null(strstr(sa_json_str(o, "reason", ""), "trials"));
	cJSON_Delete(o);

	in.replay = failed;
	o = sts_stage(&in);
	assert_string_equal(sa_json_str(o, "reason", ""), "the replay did not succeed: no data");
	cJSON_Delete(o);

	/* Zero trades with a good config: ok, nulls and a note saying why. */
	in.replay = replay;
	in.config = cfg;
	o = sts_stage(&in);
	assert_true(sa_json_bool(o, "ok", false));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(o, "sharpe")));
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(o, "notes")), 1);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(o, "cost_sensitivity")), 4);
	cJSON_Delete(o);

	/* trades.csv from another replay is caught, not summarised. */
	struct rp_trade stray = trade(0.01, 0.001, 1);
	in.trades = &stray;
	in.n_trades = 1;
	o = sts_stage(&in);
	assert_false(sa_json_bool(o, "ok", true));
	assert_string_equal(sa_json_str(o, "reason", ""), "trades.csv holds 1 trades but replay.json "
			    "says 0: the files are not from the same replay");
	cJSON_Delete(o);

	cJSON_Delete(replay);
	cJSON_Delete(failed);
	cJSON_Delete(cfg0);
	cJSON_Delete(cfg);
}

/* The bars after since, by hand: 10 hourly bars, since = bar 5's time; trades entered at bars
 * 1, 3 (in sample) and 6, 8 (forward). */
static void test_forward_by_hand(void **state)
{
	struct rp_trade t[4] = { { .entry = 3600, .net = 0.02 }, { .entry = 3 * 3600, .net = -0.01 },
				 { .entry = 6 * 3600, .net = 0.03 }, { .entry = 8 * 3600, .net = -0.02 } };
	double eq[10] = { 1, 1.01, 1.02, 1.0, 1.01, 1.01, 1.03, 1.04, 1.02, 1.0094 };
	int64_t tm[10];
	struct sts_forward_in in = { .since = 5 * 3600, .trades = t, .n_trades = 4, .eq_net = eq,
				    .eq_time = tm, .n_eq = 10, .bar_seconds = 3600, .seed = 7 };
	struct sts_forward f, g;
	double r[4], mean = 0, ss = 0;

	(void)state;
	for (int i = 0; i < 10; i++)
		tm[i] = (int64_t)i * 3600;
	assert_int_equal(sts_forward(&in, &f), 1);
	assert_int_equal(f.bars, 4);
	assert_int_equal(f.in_bars, 6);
	assert_int_equal(f.trades, 2);
	assert_int_equal(f.in_trades, 2);
	assert_near(f.net_return, 1.03 * 0.98 - 1, 1e-12);
	for (int i = 0; i < 4; i++) {
		r[i] = eq[6 + i] / eq[5 + i] - 1;
		mean += r[i] / 4;
	}
	for (int i = 0; i < 4; i++)
		ss += (r[i] - mean) * (r[i] - mean);
	assert_near(f.sharpe_annualised, mean / sqrt(ss / 3) * sqrt(365.25 * 24), 1e-9);
	/* round(2 trades * 4 bars / 6 bars) = 1 draw of +2 % or -1 %: the band spans them */
	assert_int_equal(f.band_trades, 1);
	assert_near(f.band_lo, -0.01, 1e-12);
	assert_near(f.band_hi, 0.02, 1e-12);
	assert_int_equal(f.inside, 1);
	/* seeded: the same band again */
	assert_int_equal(sts_forward(&in, &g), 1);
	assert_memory_equal(&f.band_lo, &g.band_lo, sizeof f.band_lo);
	/* no bars since: nothing to score */
	in.since = 9 * 3600;
	assert_int_equal(sts_forward(&in, &f), 0);
}

/* The ledger raises the trials only when its count is larger. */
static void test_trials_ledger(void **state)
{
	cJSON *l = cJSON_Parse("{\"trials\": 7, \"lineage\": \"x\"}");
	struct sts_trials t = { .trials = 3, .trials_source = "declared" };

	(void)state;
	sts_trials_ledger(l, &t);
	assert_near(t.trials, 7, 0);
	assert_string_equal(t.trials_source, "ledger");
	t.trials = 9;
	t.trials_source = "variants";
	sts_trials_ledger(l, &t);
	assert_near(t.trials, 9, 0);
	assert_string_equal(t.trials_source, "variants");
	sts_trials_ledger(NULL, &t);
	assert_string_equal(t.trials_source, "variants");
	cJSON_Delete(l);
}

/* The searches a file declares: a hyperopt space counts its epochs' points, never more than it
 * holds, a continuous one its epochs; an optimize() grid every point; the larger of the two
 * raises the trials, and a smaller one leaves them. */
static void test_trials_declared_search(void **state)
{
	cJSON *small = cJSON_Parse("{\"strategy\": {\"hyperopt_space\": {\"declared\": true, \"grid\": 26}}}");
	cJSON *big = cJSON_Parse("{\"strategy\": {\"hyperopt_space\": {\"declared\": true, \"grid\": 1664}}}");
	cJSON *real = cJSON_Parse("{\"strategy\": {\"hyperopt_space\": {\"declared\": true, \"grid\": null}}}");
	cJSON *none = cJSON_Parse("{\"strategy\": {\"hyperopt_space\": {\"declared\": false, \"grid\": null}}}");
	cJSON *run = cJSON_Parse("{\"declared_search\": 250}");
	cJSON *run_obj = cJSON_Parse("{\"declared_search\": {\"grid\": 40}}");
	cJSON *bad = cJSON_Parse("{\"declared_search\": -3}");
	struct sts_trials t = { .trials = 3, .trials_source = "declared" };
	struct sts_search s;

	(void)state;
	sts_trials_search(small, NULL, 100, &t, &s);
	assert_near(s.counted, 26, 0);
	assert_near(t.trials, 26, 0);
	assert_string_equal(t.trials_source, "declared_search");
	t = (struct sts_trials){ .trials = 3, .trials_source = "declared" };
	sts_trials_search(big, NULL, 100, &t, &s);
	assert_near(t.trials, 100, 0);
	t = (struct sts_trials){ .trials = 3, .trials_source = "declared" };
	sts_trials_search(real, NULL, 100, &t, &s);
	assert_true(isinf(s.hyperopt_grid));
	assert_near(t.trials, 100, 0);
	t = (struct sts_trials){ .trials = 3, .trials_source = "declared" };
	sts_trials_search(big, run, 100, &t, &s);
	assert_near(s.optimize_grid, 250, 0);
	assert_near(t.trials, 250, 0);
	t = (struct sts_trials){ .trials = 500, .trials_source = "variants" };
	sts_trials_search(small, run_obj, 100, &t, &s);
	assert_near(s.counted, 40, 0);
	assert_near(t.trials, 500, 0);
	assert_string_equal(t.trials_source, "variants");
	t = (struct sts_trials){ .trials = 1, .trials_source = "declared" };
	sts_trials_search(none, bad, 100, &t, &s);
	assert_false(s.hyperopt || s.optimize);
	assert_near(t.trials, 1, 0);
	assert_string_equal(t.trials_source, "declared");
	sts_trials_search(NULL, NULL, 100, &t, &s);
	assert_near(s.counted, 0, 0);
	cJSON_Delete(small);
	cJSON_Delete(big);
	cJSON_Delete(real);
	cJSON_Delete(none);
	cJSON_Delete(run);
	cJSON_Delete(run_obj);
	cJSON_Delete(bad);
}

/* The regression recovers a planted beta and alpha; a return that is all beta has no alpha. */
static void test_beta_planted(void **state)
{
	enum { N = 4000 };
	static double r[N], m[N];
	struct sts_beta b;
	unsigned x = 12345;

	(void)state;
	for (int i = 0; i < N; i++) {
		double u, v;
		x = x * 1103515245u + 12345u;
		u = (double)(x >> 8) / 16777216.0 - 0.5;
		x = x * 1103515245u + 12345u;
		v = (double)(x >> 8) / 16777216.0 - 0.5;
		m[i] = 0.01 * u;
		r[i] = 0.0005 + 0.8 * m[i] + 0.002 * v;
	}
	assert_int_equal(sts_beta(r, m, N, 252, &b), 0);
	assert_near(b.beta, 0.8, 0.01);
	assert_near(b.alpha_bar, 0.0005, 0.00005);
	assert_near(b.alpha_annualised, 252 * b.alpha_bar, 1e-12);
	assert_true(b.alpha_t > 20 && b.beta_t > 100);
	assert_int_equal(b.lags, 16);
	for (int i = 0; i < N; i++)
		r[i] = 0.8 * m[i];
	assert_int_equal(sts_beta(r, m, N, 252, &b), 0);
	assert_near(b.beta, 0.8, 1e-9);
	assert_near(b.alpha_bar, 0.0, 1e-12);
	/* no spread in the market: nothing to regress on */
	for (int i = 0; i < N; i++)
		m[i] = 0.001;
	assert_int_equal(sts_beta(r, m, N, 252, &b), -1);
	assert_true(isnan(b.beta));
}

/* Blocks keep runs together: trades in runs of losses give deeper drawdowns by blocks than
 * drawn one at a time, and no path holds a trade worse than the worst seen. */
static void test_montecarlo_blocks(void **state)
{
	enum { N = 216 };
	static double r[N];
	struct sts_montecarlo b, iid;
	char why[256];

	(void)state;
	for (int i = 0; i < N; i++)
		r[i] = (i / 6) % 2 ? -0.01 : 0.012;
	assert_int_equal(sts_montecarlo(r, N, 2000, 3, STS_MC_BLOCKS, &b, NULL, why, sizeof why), 0);
	assert_int_equal(sts_montecarlo(r, N, 2000, 3, STS_MC_BOOTSTRAP, &iid, NULL, why, sizeof why), 0);
	assert_int_equal(b.mean_block, 6);
	assert_int_equal(iid.mean_block, 1);
	assert_near(b.observed_worst_trade, -0.01, 0);
	assert_true(b.dd_p50 > iid.dd_p50);
	assert_true(b.observed_percentile < iid.observed_percentile);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trials_config),
		cmocka_unit_test(test_parse_trades),
		cmocka_unit_test(test_stage_reasons),
		cmocka_unit_test(test_forward_by_hand),
		cmocka_unit_test(test_trials_ledger),
		cmocka_unit_test(test_trials_declared_search),
		cmocka_unit_test(test_beta_planted),
		cmocka_unit_test(test_montecarlo_blocks),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
