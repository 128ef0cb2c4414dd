/* test_stats.c - the statistics against the published examples of Bailey and Lopez de Prado,
 * hand-computed moments, and every degenerate input. */
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
#include "stats_freqtrade.h"
#include "stats_quant.h"
#include "ohlcv.h"
#include "stats_io.h"
#include "stats_neighbourhood.h"
#include "stats_trials.h"
#include "stats_beta.h"
#include "stats_montecarlo.h"
#include "stats_overlap.h"

#define assert_near(a, b, eps) do { \
	double a_ = (a), b_ = (b); \
	if (!(fabs(a_ - b_) <= (eps))) \
		fail_msg("%s = %.15g, expected %.15g", #a, a_, b_); \
} while (0)

/* 2014 paper, section "A numerical example": SR 2.5 annualised over 1250 daily returns,
 * skew -3, kurtosis 10, N = 100 trials whose annualised SR variance is 0.5. */
static void test_dsr_published_example(void **state)
{
	double sr = 2.5 / sqrt(250.0), sr0 = st_sr0(0.5 / 250.0, 100);

	(void)state;
	assert_near(sr0, 0.1132, 5e-5);
	assert_near(st_psr(sr, sr0, 1250, -3, 10), 0.9004, 5e-5);
	assert_near(st_sr0(0.5 / 250.0, 1), 0.0, 0);
	assert_true(isnan(st_sr0(0.5 / 250.0, 0)));
	assert_true(isnan(st_sr0(-1, 10)));
}

/* 2012 paper: a monthly SR of 0.458 over 24 months. */
static void test_psr_published_examples(void **state)
{
	(void)state;
	assert_near(st_psr(0.458, 0, 24, 0, 3), 0.982, 5e-4);
	assert_near(st_psr(0.458, 0, 24, -2.448, 10.164), 0.913, 5e-4);
	/* Against itself the probability is one half. */
	assert_near(st_psr(0.3, 0.3, 100, 0, 3), 0.5, 1e-12);
	assert_true(isnan(st_psr(0.3, 0, 1, 0, 3)));
	assert_true(isnan(st_psr(NAN, 0, 100, 0, 3)));
	/* A variance term <= 0 (huge SR, strong positive skew) has no PSR. */
	assert_true(isnan(st_psr(2.0, 0, 100, 1.0, 1.0)));
}

static void test_min_trl(void **state)
{
	(void)state;
	/* 1 + (1 + SR^2/2) (1.6449 / 0.458)^2 and its non-normal twin. */
	assert_near(st_min_trl(0.458, 0, 0, 3, 0.95), 15.2508069, 1e-6);
	assert_near(st_min_trl(0.458, 0, -2.448, 10.164, 0.95), 34.5575059, 1e-6);
	assert_true(isnan(st_min_trl(0.0, 0, 0, 3, 0.95)));
	assert_true(isnan(st_min_trl(-0.2, 0, 0, 3, 0.95)));
}

static void test_moments_by_hand(void **state)
{
	static const double x[5] = { 1, 2, 3, 4, 10 };
	struct st_moments m;

	(void)state;
	st_moments(x, 5, &m);
	assert_near(m.mean, 4.0, 1e-15);
	assert_near(m.sd, sqrt(12.5), 1e-15);          /* ddof = 1: 50 / 4 */
	assert_near(m.skew, 36.0 / pow(10.0, 1.5), 1e-12); /* m3 = 36, m2 = 10 */
	assert_near(m.kurt, 278.8 / 100.0, 1e-12);       /* m4 = 278.8, raw */
	assert_near(st_sharpe(&m), 4.0 / sqrt(12.5), 1e-15);

	st_moments(x, 1, &m);
	assert_near(m.mean, 1.0, 0);
	assert_true(isnan(m.sd));
	assert_true(isnan(st_sharpe(&m)));
	st_moments(x, 0, &m);
	assert_true(isnan(m.mean));
}

static void test_zero_variance(void **state)
{
	static const double same[4] = { 0.001, 0.001, 0.001, 0.001 };
	struct st_moments m;

	(void)state;
	st_moments(same, 4, &m);
	assert_near(m.sd, 0, 0);
	assert_true(isnan(m.skew));
	assert_true(isnan(st_sharpe(&m)));
}

static void test_drawdown(void **state)
{
	static const double eq[4] = { 1.1, 0.99, 1.2, 0.9 };
	static const double up[3] = { 1.0, 1.1, 1.2 };

	(void)state;
	assert_near(st_max_drawdown(1.0, eq, 4), 0.25, 1e-15);
	assert_near(st_max_drawdown(1.0, up, 3), 0.0, 0);
	assert_near(st_max_drawdown(1.0, eq, 0), 0.0, 0);
	/* A fall below the start counts from the start. */
	assert_near(st_max_drawdown(1.0, (const double[]){ 0.8 }, 1), 0.2, 1e-15);
}

/* A trade with the given gross and cost split evenly over fees, slippage and funding. */
static struct rp_trade trade(double gross, double cost, long bars)
{
	return (struct rp_trade){ .side = 1, .gross = gross, .fees = cost / 2, .slippage = cost / 4,
				  .funding = cost / 4, .net = gross - cost, .bars_held = bars };
}

static void test_summary_figures(void **state)
{
	struct rp_trade t[4] = { trade(0.03, 0.001, 2), trade(-0.01, 0.001, 4),
				 trade(0.02, 0.001, 6), trade(-0.005, 0.001, 8) };
	double eq[4] = { 1.029, 1.018, 1.037, 1.031 };
	struct st_input in = { .trades = t, .n_trades = 4, .eq_net = eq, .n_eq = 4, .eq_per_bar = true,
			       .bar_seconds = 3600, .trials = 1, .exposure = 0.5, .turnover = 0.1 };
	struct st_summary s;
	double net[4] = { 0.029, -0.011, 0.019, -0.006 };
	struct st_moments m;

	(void)state;
	assert_int_equal(st_summarise(&in, &s), 0);
	st_moments(net, 4, &m);
	assert_near(s.sharpe, m.mean / m.sd, 1e-12);
	/* the net return is the compounded curve's end, the gross compounded trade by trade */
	assert_near(s.net_return, 0.031, 1e-12);
	assert_near(s.sum_net_return, 0.031, 1e-12);
	assert_near(s.gross_return, 1.03 * 0.99 * 1.02 * 0.995 - 1, 1e-12);
	assert_near(s.sum_gross_return, 0.035, 1e-12);
	assert_false(s.ruined);
	assert_near(s.win_rate, 0.5, 0);
	assert_near(s.profit_factor, 0.048 / 0.017, 1e-12);
	assert_near(s.avg_bars_held, 5, 0);
	assert_near(s.max_drawdown, (1.029 - 1.018) / 1.029, 1e-12);
	assert_near(s.sr0, 0, 0);
	assert_near(s.dsr, s.psr, 0);   /* N = 1: nothing to deflate */
	/* negatively correlated trades count as every one: the iid figures are the gates' */
	assert_near(s.dep.effective_trades, 4, 0);
	assert_near(s.psr, s.psr_iid, 0);
	assert_near(s.min_trl, s.min_trl_iid, 0);
	assert_near(s.annual_factor, sqrt(8766), 1e-9);
	/* annualised on the curve's per-bar returns (1.029 / 1 - 1, 1.018 / 1.029 - 1, ...), not its
	 * changes (0.029, -0.011, ...) */
	{
		double r[4], mr = 0, ss = 0, prev = 1.0;

		for (int i = 0; i < 4; i++) {
			r[i] = eq[i] / prev - 1;
			prev = eq[i];
			mr += r[i] / 4;
		}
		for (int i = 0; i < 4; i++)
			ss += (r[i] - mr) * (r[i] - mr);
		assert_near(s.sharpe_bar, mr / sqrt(ss / 3), 1e-12);
		assert_near(s.sharpe_annualised, mr / sqrt(ss / 3) * sqrt(8766), 1e-9);
		/* Lo's correction over 4^(1/3) = 2 lags (rounded), each rho over one mean */
		assert_int_equal(s.lo.lags, 2);
		assert_near(s.lo.sharpe, s.sharpe_bar * s.lo.factor, 1e-12);
		assert_near(s.lo.factor, sqrt(8766 / (1 + 2 * s.lo.rho_sum)), 1e-9);
		assert_near(s.lo.rho_sum, (1 - 1 / 8766.0) * st_autocorr(r, 4, 1) +
			    (1 - 2 / 8766.0) * st_autocorr(r, 4, 2), 1e-12);
	}
	/* Cost sensitivity: 1x is the headline, 0x the gross, more cost less Sharpe. */
	assert_near(s.cost[1].sharpe, s.sharpe, 1e-12);
	assert_near(s.cost[0].net_return, 1.03 * 0.99 * 1.02 * 0.995 - 1, 1e-12);
	assert_near(s.cost[0].sum_net_return, 0.035, 1e-12);
	assert_near(s.cost[3].net_return, 1.027 * 0.987 * 1.017 * 0.992 - 1, 1e-12);
	assert_near(s.cost[3].sum_net_return, 0.035 - 0.012, 1e-12);
	assert_true(s.cost[0].sharpe > s.cost[1].sharpe && s.cost[2].sharpe > s.cost[3].sharpe);

	/* More trials deflate: SR0 > 0 and DSR < PSR. */
	in.trials = 50;
	assert_int_equal(st_summarise(&in, &s), 0);
	assert_true(s.sr0 > 0);
	assert_true(s.dsr < s.psr);
	/* With only a count, V[SR] is the null 1 / (T - 1) = 1/3, whatever the moments, and
	 * SR0 = sqrt(1/3) ((1 - g) z(1 - 1/50) + g z(1 - 1/(50 e))) with z(0.98) = 2.0537489106
	 * and z(0.99264241118) = 2.4393139539 (statistics.NormalDist().inv_cdf). */
	assert_near(s.v_sr, 1.0 / 3.0, 1e-15);
	assert_near(s.sr0, sqrt(1.0 / 3.0) * ((1 - 0.5772156649015329) * 2.0537489106318225 +
					      0.5772156649015329 * 2.4393139538578943), 1e-9);
	assert_near(s.dsr, st_psr(s.sharpe, s.sr0, 4, s.m.skew, s.m.kurt), 1e-15);

	/* A variance given (measured from variants, or the knob) replaces the null when it is
	 * larger; one below it (twins) is raised to it: alike trials are no fewer trials. */
	in.has_sr_variance = true;
	in.sr_variance = 0.5 / 250.0;
	assert_int_equal(st_summarise(&in, &s), 0);
	assert_near(s.v_sr, 1.0 / 3.0, 1e-15);
	assert_near(s.dsr, st_psr(s.sharpe, st_sr0(1.0 / 3.0, 50), 4, s.m.skew, s.m.kurt), 1e-15);
	in.sr_variance = 0.5;
	assert_int_equal(st_summarise(&in, &s), 0);
	assert_near(s.v_sr, 0.5, 1e-18);
	assert_near(s.sr0, st_sr0(0.5, 50), 1e-15);
}

/* The paper's example through the whole summary: 1250 daily returns, SR 2.5 / sqrt(250),
 * skew -3, kurtosis 10, 100 trials whose SR variance is 0.5 / 250 given as the trials' spread:
 * DSR 0.9004. The estimator's own variance at the observed SR would have given 0.976. */
static void test_dsr_example_given_variance(void **state)
{
	double sr = 2.5 / sqrt(250.0);
	double own = st_sr_var_term(sr, -3, 10) / 1249.0;

	(void)state;
	assert_near(st_psr(sr, st_sr0(0.5 / 250.0, 100), 1250, -3, 10), 0.9004, 5e-5);
	assert_near(st_psr(sr, st_sr0(own, 100), 1250, -3, 10), 0.9765, 5e-5);
}

/* A curve that reaches zero is ruin: net return -1, drawdown 100 %. */
static void test_summary_ruined(void **state)
{
	struct rp_trade t[2] = { trade(0.2, 0, 1), trade(-1.3, 0, 1) };
	double eq[3] = { 1.2, 0.0, 0.0 };
	struct st_input in = { .trades = t, .n_trades = 2, .eq_net = eq, .n_eq = 3, .trials = 1 };
	struct st_summary s;

	(void)state;
	assert_int_equal(st_summarise(&in, &s), 0);
	assert_true(s.ruined);
	assert_near(s.net_return, -1, 0);
	assert_near(s.max_drawdown, 1, 0);
	assert_near(s.sum_net_return, -1.1, 1e-12);
	assert_near(s.cost[1].net_return, -1, 0);
	/* per bar, the ruin bar's -100 % is the last return that counts: (0.2, -1) */
	in.eq_per_bar = true;
	in.bar_seconds = 3600;
	assert_int_equal(st_summarise(&in, &s), 0);
	assert_near(s.sharpe_bar, (-0.4) / sqrt(2 * 0.6 * 0.6), 1e-12);
}

static void test_summary_degenerate(void **state)
{
	struct rp_trade one = trade(0.01, 0.001, 3);
	struct rp_trade same[3] = { trade(0.01, 0, 1), trade(0.01, 0, 1), trade(0.01, 0, 1) };
	struct rp_trade losing[3] = { trade(-0.01, 0, 1), trade(-0.02, 0, 1), trade(0.005, 0, 1) };
	struct st_input in = { .trials = 1 };
	struct st_summary s;

	(void)state;
	/* Zero trades: an answer full of nulls. */
	assert_int_equal(st_summarise(&in, &s), 0);
	assert_int_equal(s.trades, 0);
	assert_true(isnan(s.sharpe) && isnan(s.psr) && isnan(s.dsr) && isnan(s.min_trl));
	assert_true(isnan(s.win_rate));
	assert_near(s.max_drawdown, 0, 0);

	in.trades = &one;
	in.n_trades = 1;
	in.eq_net = (const double[]){ 1.009 };
	in.n_eq = 1;
	assert_int_equal(st_summarise(&in, &s), 0);
	assert_true(isnan(s.sharpe) && isnan(s.psr));
	assert_near(s.net_return, 0.009, 1e-15);
	assert_near(s.sum_net_return, 0.009, 1e-15);
	in.eq_net = NULL;
	in.n_eq = 0;
	assert_true(isnan(s.profit_factor));

	in.trades = same;
	in.n_trades = 3;
	assert_int_equal(st_summarise(&in, &s), 0);
	assert_true(isnan(s.sharpe) && isnan(s.psr) && isnan(s.min_trl));

	in.trades = losing;
	assert_int_equal(st_summarise(&in, &s), 0);
	assert_true(s.sharpe < 0);
	assert_true(s.psr < 0.5);
	assert_true(isnan(s.min_trl));

	in.trials = 0;
	assert_int_equal(st_summarise(&in, &s), -1);
	in.trials = 2.5;
	assert_int_equal(st_summarise(&in, &s), -1);
}

/* The best trades taken out: one +30 % trade among 150 at -0.01 % carries all of the profit,
 * and without it the mean is -0.01 % whatever the PSR of the whole says. */
static void test_concentration(void **state)
{
	struct rp_trade t[151], two[2] = { trade(0.02, 0, 1), trade(0.01, 0, 1) };
	struct st_input in = { .trades = t, .n_trades = 151, .trials = 1 };
	struct st_summary s;
	double sum = 0.3 - 150 * 0.0001;

	(void)state;
	for (int i = 0; i < 151; i++)
		t[i] = trade(i == 75 ? 0.3 : -0.0001, 0, 1);
	assert_int_equal(st_conc_removed(0), 0);
	assert_int_equal(st_conc_removed(1), 1);
	assert_int_equal(st_conc_removed(20), 1);
	assert_int_equal(st_conc_removed(21), 2);
	assert_int_equal(st_conc_removed(151), 8);
	assert_int_equal(st_summarise(&in, &s), 0);
	assert_true(s.psr > 0.95);   /* what the whole log claims */
	assert_int_equal(s.conc.removed, 8);
	assert_int_equal(s.conc.trades_without, 143);
	assert_near(s.conc.best_trade, 0.3, 0);
	assert_near(s.conc.best_share, 0.3 / sum, 1e-12);
	assert_near(s.conc.top_share, (0.3 - 7 * 0.0001) / sum, 1e-12);
	assert_near(s.conc.mean_without, -0.0001, 1e-15);
	/* every trade left returned the same: no spread, no Sharpe ratio */
	assert_true(isnan(s.conc.sharpe_without) && isnan(s.conc.psr_without));

	/* two trades: the best one out leaves one, its mean and nothing more */
	in.trades = two;
	in.n_trades = 2;
	assert_int_equal(st_summarise(&in, &s), 0);
	assert_int_equal(s.conc.removed, 1);
	assert_near(s.conc.mean_without, 0.01, 1e-15);
	assert_near(s.conc.best_share, 2.0 / 3.0, 1e-12);
	assert_true(isnan(s.conc.sharpe_without));

	/* a losing log has no profit to share */
	two[0] = trade(-0.02, 0, 1);
	assert_int_equal(st_summarise(&in, &s), 0);
	assert_true(isnan(s.conc.best_share) && isnan(s.conc.top_share));
	assert_near(s.conc.mean_without, -0.02, 1e-15);

	/* one trade: nothing is left without it */
	in.n_trades = 1;
	assert_int_equal(st_summarise(&in, &s), 0);
	assert_int_equal(s.conc.trades_without, 0);
	assert_true(isnan(s.conc.mean_without));
}

/* Serial dependence by hand, and what it does to the PSR and DSR: correlated trades count as
 * fewer, the _iid figures as every one. */
static void test_dependence(void **state)
{
	double x[4] = { 1, 2, 3, 4 }, flat[5] = { 0.01, 0.01, 0.01, 0.01, 0.01 }, y[200], t_eff;
	struct rp_trade t[200];
	struct st_input in = { .trades = t, .n_trades = 200, .trials = 10 };
	struct st_summary s;
	size_t lags;

	(void)state;
	/* mean 2.5: (-1.5 x -0.5 + -0.5 x 0.5 + 0.5 x 1.5) / (2.25 + 0.25 + 0.25 + 2.25) */
	assert_near(st_autocorr(x, 4, 1), 0.25, 1e-15);
	assert_near(st_autocorr(x, 4, 2), (-1.5 * 0.5 + -0.5 * 1.5) / 5.0, 1e-15);
	assert_true(isnan(st_autocorr(x, 4, 3)));
	assert_true(isnan(st_autocorr(flat, 5, 1)));
	/* n^(1/3) rounded, as the bootstrap's block */
	assert_int_equal(st_dependence_lags(100), 5);
	assert_int_equal(st_dependence_lags(200), 6);
	assert_int_equal(st_dependence_lags(1000), 10);
	assert_int_equal(st_dependence_lags(4), 2);
	assert_int_equal(st_dependence_lags(3), 1);
	/* negative dependence adds no observations */
	assert_near(st_effective_n((const double[]){ 1, -1, 1, -1, 1, -1 }, 6, &lags), 6, 0);

	/* runs of ten alike: strongly dependent trades with a positive mean */
	for (int i = 0; i < 200; i++) {
		y[i] = ((i / 10) % 3 == 0 ? -0.01 : 0.012) + 0.001 * sin(i * 2.3);
		t[i] = trade(y[i], 0, 1);
	}
	t_eff = st_effective_n(y, 200, &lags);
	assert_int_equal(lags, 6);
	assert_true(t_eff < 100);
	assert_int_equal(st_summarise(&in, &s), 0);
	assert_near(s.dep.trades_lag1, st_autocorr(y, 200, 1), 1e-15);
	assert_true(s.dep.trades_lag1 > 0.5);
	assert_near(s.dep.effective_trades, t_eff, 1e-12);
	/* the gates' figures count the effective trades, the _iid ones every trade */
	assert_near(s.psr, st_psr(s.sharpe, 0, t_eff, s.m.skew, s.m.kurt), 1e-15);
	assert_near(s.psr_iid, st_psr(s.sharpe, 0, 200, s.m.skew, s.m.kurt), 1e-15);
	assert_near(s.v_sr, 1.0 / (t_eff - 1.0), 1e-15);
	assert_near(s.v_sr_iid, 1.0 / 199.0, 1e-15);
	assert_near(s.dsr, st_psr(s.sharpe, st_sr0(1.0 / (t_eff - 1.0), 10), t_eff, s.m.skew, s.m.kurt), 1e-15);
	assert_near(s.dsr_iid, st_psr(s.sharpe, st_sr0(1.0 / 199.0, 10), 200, s.m.skew, s.m.kurt), 1e-15);
	assert_true(s.psr < s.psr_iid && s.dsr < s.dsr_iid);
	assert_near(s.min_trl, s.min_trl_iid * 200 / t_eff, 1e-9);
	/* no per-bar curve, no bar autocorrelation */
	assert_true(isnan(s.dep.bars_lag1));
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

/* Overlap by hand: a trade entered three times (0, 10, 20 minutes), the same exit, then one
 * alone; a trade exiting when the next enters does not overlap it. */
static void test_overlap_by_hand(void **state)
{
	const int64_t entry[] = { 0, 600, 1200, 3600, 7200 };
	const int64_t exit[] = { 3600, 3600, 3600, 7200, 7200 };
	double share[5];
	struct st_overlap o;

	(void)state;
	assert_int_equal(st_overlap_spans(entry, exit, 5, &o, share), 0);
	assert_int_equal(o.trades_overlapping, 3);
	assert_int_equal(o.max_concurrent, 3);
	for (int i = 0; i < 3; i++)
		assert_near(share[i], 1.0 / 3.0, 1e-15);
	assert_near(share[3], 1.0, 0);
	assert_near(share[4], 1.0, 0);  /* open at no instant */
	assert_near(o.shares_sum, 3.0, 1e-12);
	/* held 3600 + 3000 + 2400 + 3600 over 7200 s in the market */
	assert_near(o.exposure_multiple, 12600.0 / 7200.0, 1e-12);
	/* none overlapping: every share 1, the multiple 1 */
	assert_int_equal(st_overlap_spans(entry + 3, exit + 3, 1, &o, share), 0);
	assert_int_equal(o.trades_overlapping, 0);
	assert_near(o.exposure_multiple, 1.0, 0);
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

/* The neighbourhood by hand: a centre and four neighbours, columns of known mean and sd. */
static void nb_case(const char *statuses[5], double keep_min, struct sts_nb *nb, double **m)
{
	static const double scale[5] = { 1.0, 0.2, 0.3, 0.9, 1.0 };
	char text[1024];
	size_t at = 0, ran = 0;
	cJSON *insp, *res;

	/* each column alternates mean + sd, mean - sd: a Sharpe ratio of mean / sd * sqrt(...) */
	*m = calloc(5 * 100, sizeof **m);
	for (int j = 0; j < 5; j++) {
		if (strcmp(statuses[j], "ok"))
			continue;
		for (int t = 0; t < 100; t++)
			(*m)[ran * 100 + (size_t)t] = 0.001 * scale[j] + (t % 2 ? 0.01 : -0.01);
		ran++;
	}
	insp = cJSON_Parse("{\"strategy\": {\"neighbourhood\": {\"declared\": true, \"parameters\": ["
			   "{\"name\": \"n\", \"moved\": true, \"value\": 10}], \"grid\": false, \"sets\": ["
			   "{\"steps\": {}}, {\"steps\": {\"n\": -0.2}}, {\"steps\": {\"n\": -0.1}},"
			   "{\"steps\": {\"n\": 0.1}}, {\"steps\": {\"n\": 0.2}}]}}}");
	at += (size_t)snprintf(text + at, sizeof text - at, "{\"ok\": true, \"ran\": %zu, \"variants\": [", ran);
	for (int j = 0; j < 5; j++)
		at += (size_t)snprintf(text + at, sizeof text - at, "%s{\"status\": \"%s\", \"params\": {}}",
				       j ? "," : "", statuses[j]);
	snprintf(text + at, sizeof text - at, "]}");
	res = cJSON_Parse(text);
	assert_int_equal(sts_nb_measure(insp, res, "", *m, 100, ran, "", keep_min, 8, nb), 0);
	cJSON_Delete(insp);
	cJSON_Delete(res);
}

/* The family by hand: a centre n = 10 and its neighbours n = 8, 9, 11, 12 (each moving n alone),
 * their columns the centre's (correlation 1) or orthogonal to it (correlation 0, floored). */
static void nb_family_case(bool orthogonal, struct sts_nb *nb, double **m)
{
	static const int vals[4] = { 8, 9, 11, 12 };
	char text[1024];
	size_t at = 0;
	cJSON *insp, *res;

	*m = calloc(5 * 100, sizeof **m);
	for (int t = 0; t < 100; t++) {
		(*m)[t] = 0.001 + (t % 2 ? 0.01 : -0.01);
		for (int j = 1; j < 5; j++)
			(*m)[j * 100 + t] = orthogonal ? 0.001 + (t % 4 < 2 ? 0.01 : -0.01) : (*m)[t];
	}
	insp = cJSON_Parse("{\"strategy\": {\"neighbourhood\": {\"declared\": true, \"parameters\": ["
			   "{\"name\": \"n\", \"moved\": true, \"value\": 10}], \"grid\": false, \"sets\": ["
			   "{\"steps\": {}}, {\"steps\": {\"n\": -0.2}}, {\"steps\": {\"n\": -0.1}},"
			   "{\"steps\": {\"n\": 0.1}}, {\"steps\": {\"n\": 0.2}}]}}}");
	at += (size_t)snprintf(text, sizeof text, "{\"ok\": true, \"ran\": 5, \"variants\": ["
			       "{\"status\": \"ok\", \"params\": {}}");
	for (int j = 0; j < 4; j++)
		at += (size_t)snprintf(text + at, sizeof text - at,
				       ",{\"status\": \"ok\", \"params\": {\"n\": %d}}", vals[j]);
	snprintf(text + at, sizeof text - at, "]}");
	res = cJSON_Parse(text);
	assert_int_equal(sts_nb_measure(insp, res, "", *m, 100, 5, "", 0.5, 8, nb), 0);
	cJSON_Delete(insp);
	cJSON_Delete(res);
}

static void test_neighbourhood_family(void **state)
{
	struct sts_nb nb;
	struct sts_trials t = { .trials = 1, .trials_source = "declared" };
	double *m, num = 0, den = 0, decay;
	static const double vals[4] = { 8, 9, 11, 12 };

	(void)state;
	/* neighbours that trade the same bars: one rule, no trial added */
	nb_family_case(false, &nb, &m);
	assert_true(nb.measured && !nb.peak);
	assert_true(fabs(nb.decay[0]) < 1e-12 && nb.family == 1.0);
	sts_nb_trials(&nb, &t);
	assert_true(t.trials == 1.0 && !strcmp(t.trials_source, "declared"));
	sts_nb_release(&nb);
	free(m);
	/* neighbours orthogonal to it: each at the floor 0.01, decay sum(d ln 100) / sum(d^2) */
	for (int j = 0; j < 4; j++) {
		double d = fabs(log(vals[j] / 10.0));

		num += d * log(100.0);
		den += d * d;
	}
	decay = num / den;
	nb_family_case(true, &nb, &m);
	assert_true(nb.measured);
	assert_true(fabs(nb.decay[0] - decay) < 1e-9);
	assert_true(nb.family == floor(1 + decay * log(8.0)));
	sts_nb_trials(&nb, &t);
	assert_true(t.trials == nb.family && !strcmp(t.trials_source, "neighbourhood_family"));
	sts_nb_release(&nb);
	free(m);
}

static void test_neighbourhood_by_hand(void **state)
{
	const char *all_ok[5] = { "ok", "ok", "ok", "ok", "ok" };
	const char *failing[5] = { "ok", "error", "ok", "not_run", "ok" };
	const char *no_centre[5] = { "error", "ok", "ok", "ok", "ok" };
	struct sts_nb nb;
	struct sts_trials t = { .trials = 1, .trials_source = "declared" };
	double *m, sr0;

	(void)state;
	nb_case(all_ok, 0.5, &nb, &m);
	/* a column of +-0.01 around a mean mu: sd (ddof 1) 0.01 * sqrt(100 / 99) */
	sr0 = 0.001 / (0.01 * sqrt(100.0 / 99.0));
	assert_true(nb.measured);
	assert_true(fabs(nb.centre - sr0) < 1e-12);
	/* the neighbours 0.2, 0.3, 0.9, 1.0 of it: median 0.6 */
	assert_true(fabs(nb.keep - 0.6) < 1e-9);
	assert_false(nb.peak);
	sts_nb_release(&nb);
	free(m);
	nb_case(all_ok, 0.61, &nb, &m);
	assert_true(nb.peak);
	assert_true(nb.implied == 5.0);
	sts_nb_trials(&nb, &t);
	assert_true(t.trials == 5.0 && !strcmp(t.trials_source, "neighbourhood"));
	sts_nb_release(&nb);
	free(m);
	/* a failed neighbour keeps nothing (0), one not run is left out: median of 0, 0.3, 1.0 */
	nb_case(failing, 0.5, &nb, &m);
	assert_true(nb.measured && nb.failed == 1 && nb.not_run == 1 && nb.ran == 2);
	assert_true(fabs(nb.keep - 0.3) < 1e-9);
	assert_true(nb.peak);
	sts_nb_release(&nb);
	free(m);
	nb_case(no_centre, 0.5, &nb, &m);
	assert_false(nb.measured);
	assert_non_null(strstr(nb.why, "centre"));
	sts_nb_release(&nb);
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dsr_published_example),
		cmocka_unit_test(test_dsr_example_given_variance),
		cmocka_unit_test(test_psr_published_examples),
		cmocka_unit_test(test_min_trl),
		cmocka_unit_test(test_moments_by_hand),
		cmocka_unit_test(test_zero_variance),
		cmocka_unit_test(test_drawdown),
		cmocka_unit_test(test_summary_ruined),
		cmocka_unit_test(test_summary_figures),
		cmocka_unit_test(test_summary_degenerate),
		cmocka_unit_test(test_concentration),
		cmocka_unit_test(test_dependence),
		cmocka_unit_test(test_trials_config),
		cmocka_unit_test(test_parse_trades),
		cmocka_unit_test(test_stage_reasons),
		cmocka_unit_test(test_forward_by_hand),
		cmocka_unit_test(test_trials_ledger),
		cmocka_unit_test(test_trials_declared_search),
		cmocka_unit_test(test_overlap_by_hand),
		cmocka_unit_test(test_beta_planted),
		cmocka_unit_test(test_montecarlo_blocks),
		cmocka_unit_test(test_freqtrade_tables),
		cmocka_unit_test(test_quant_by_hand),
		cmocka_unit_test(test_neighbourhood_by_hand),
		cmocka_unit_test(test_neighbourhood_family),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
