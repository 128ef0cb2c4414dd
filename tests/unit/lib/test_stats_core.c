/* test_stats_core.c - the shared statistics (lib/stats: stats_core, stats_overlap) against the
 * published examples of Bailey and Lopez de Prado, hand-computed moments, the summary's figures,
 * concentration and dependence, trades open at once, and every degenerate input. */
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
#include "stats_core.h"
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
		cmocka_unit_test(test_overlap_by_hand),
	};

	return cmocka_run_group_tests_name("stats_core", tests, NULL, NULL);
}
