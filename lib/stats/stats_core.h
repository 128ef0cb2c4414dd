/* stats_core.h - performance statistics of per-trade net returns: Sharpe, moments, PSR, DSR,
 * MinTRL (Bailey and Lopez de Prado 2012, 2014), drawdown and the rest. Pure computation: a
 * figure that is undefined for the input is NAN (written as null), never a crash. */
#ifndef STATS_CORE_H
#define STATS_CORE_H

#include <stdbool.h>
#include <stddef.h>

#include "replay_core.h"
#include "stats_annual.h"
#include "stats_overlap.h"

/* Significant digits of every statistic written (stats.json, the tearsheet). */
#define ST_DIGITS 10

/* Sample moments of x[0..n). sd uses ddof = 1; skew and kurt are the population estimators
 * m3 / m2^1.5 and m4 / m2^2 (raw kurtosis, normal = 3). NAN where undefined (n < 2 for sd,
 * m2 = 0 for skew and kurt). */
struct st_moments {
	size_t n;
	double sum;  /* x[0] + x[1] + ..., added in order */
	double mean, sd, skew, kurt;
};
void st_moments(const double *x, size_t n, struct st_moments *m);

/* mean / sd, per observation, not annualised. NAN when sd is 0 or undefined. */
double st_sharpe(const struct st_moments *m);

/* 1 - skew*SR + (kurt - 1)/4 * SR^2: the variance of the SR estimator times (T - 1) under
 * non-normal returns (2012, eq. 11 denominator). */
double st_sr_var_term(double sr, double skew, double kurt);

/* PSR(SR*) = Phi((SR - SR*) sqrt(T - 1) / sqrt(var_term)), 2012 eq. 11 (and 2014 eq. 1 with
 * SR* = SR0). NAN when T < 2, SR is not finite, or the variance term is not positive. */
double st_psr(double sr, double sr_star, double t, double skew, double kurt);

/* SR0 = sqrt(V[SR]) ((1 - gamma) Phi^-1(1 - 1/N) + gamma Phi^-1(1 - 1/(N e))), 2014 eq. 2,
 * gamma Euler-Mascheroni; 0 when N = 1; NAN when N < 1 or V[SR] is not a finite >= 0. */
double st_sr0(double v_sr, double n_trials);

/* The luck-only V[SR] of t observations: 1 / (t - 1); NAN below 2. The DSR's V[SR] is never
 * below it (a measured spread of the trials below it is raised to it). */
double st_null_v_sr(double t);

/* MinTRL = 1 + var_term * (Phi^-1(conf) / (SR - SR*))^2, 2012 eq. 13. NAN when SR <= SR*. */
double st_min_trl(double sr, double sr_star, double skew, double kurt, double conf);

/* The lag-k sample autocorrelation of x[0..n): sum (x_t - m)(x_{t+k} - m) / sum (x_t - m)^2
 * over the one mean m. NAN when n < k + 2 or x has no spread. */
double st_autocorr(const double *x, size_t n, size_t k);

/* How many lags the dependence counts: n^(1/3) rounded, the mean block the bootstrap interval
 * keeps together (the stats stage's sts_bootstrap_block), at least 1 and below n - 1. */
size_t st_dependence_lags(size_t n);

/* The effective sample size of x[0..n) under serial dependence: n / (1 + 2 sum_{k=1..L}
 * (1 - k / (L + 1)) rho_k), the Bartlett weights of a Newey-West (1987) long-run variance,
 * L = st_dependence_lags(n) (into *lags). The
 * denominator is at least 1, so dependence never adds observations; n when n < 3 or no rho is
 * defined. */
double st_effective_n(const double *x, size_t n, size_t *lags);

/* Largest fall of eq from its running peak (the peak starts at start), as a fraction of the
 * peak. 0 for an empty or never-falling curve. */
double st_max_drawdown(double start, const double *eq, size_t n);

/* What the summary is computed from (all borrowed). */
struct st_input {
	const struct rp_trade *trades;  /* per-trade results, in any order */
	size_t n_trades;
	const double *eq_net;           /* net equity curve, starting from 1 */
	size_t n_eq;
	bool eq_per_bar;                /* one equity row per bar (else per trade exit) */
	double bar_seconds;             /* mean bar spacing; 0 when unknown */
	double trials;                  /* N for the DSR; must be an integer >= 1 */
	bool has_sr_variance;           /* V[SR] of the trials given (sr_variance); else the null */
	double sr_variance;             /* the variance of the trials' Sharpe ratios, >= 0 */
	double exposure, turnover;      /* from the replay, copied through */
};

#define ST_N_MULTIPLES 4
#define ST_MIN_TRL_CONF 0.95

/* One row of the cost sensitivity. net_return is compounded trade by trade in the trades' order
 * (-1 at ruin, and ruined set); sum_net_return is their plain sum; trades how many count (a
 * replayed row stops at ruin). st_summarise rescales the 1x trades (rp_net_at); the stats stage
 * replaces the rows by replays at each multiple when it has the prices and the signals. */
struct st_sensitivity {
	double multiple, sharpe, psr, net_return, sum_net_return;
	size_t trades;
	bool ruined;
};

/* What the best trades carry: the k = max(1, ceil(5 % of n)) best net returns taken out, and
 * whether an edge is left without them. The shares are of the plain sum of net returns (the
 * one total the trades add up to), NAN when that sum is not positive (no profit to share). */
#define ST_CONC_FRACTION 0.05
struct st_concentration {
	size_t removed, trades_without;  /* k, and n - k */
	double best_trade;               /* the best trade's net return; NAN without trades */
	double best_share, top_share;    /* the best trade's and the best k's share of the sum */
	double mean_without, sharpe_without, psr_without, dsr_without;
};

/* k = max(1, ceil(ST_CONC_FRACTION n)) for n >= 1; 0 for n = 0. */
size_t st_conc_removed(size_t n);

/* Serial dependence: the trades' and the bars' lag-1 autocorrelation, and the effective number
 * of trades the PSR, DSR and MinTRL rest on. */
struct st_dependence {
	double trades_lag1, bars_lag1;  /* NAN where undefined (bars: no per-bar curve) */
	double autocorr_trades;         /* st_effective_n of the net returns, in trade order */
	size_t lags;                    /* the Bartlett window it used */
	struct st_overlap overlap;      /* trades open at once (a log's pyramids) */
	/* the smaller of autocorr_trades and overlap.shares_sum: each discounts the same
	 * dependence its own way (identical trades entered together are also serially
	 * correlated), so their product would count it twice */
	double effective_trades;
};

struct st_summary {
	size_t trades;
	double trials;
	struct st_moments m;
	/* psr, dsr, sr0, v_sr and min_trl count the effective trades (dep.effective_trades);
	 * the _iid figures count every trade as independent (Bailey and Lopez de Prado as
	 * published) */
	double sharpe, psr, dsr, sr0, v_sr, min_trl;
	double psr_iid, dsr_iid, sr0_iid, v_sr_iid, min_trl_iid;
	struct st_dependence dep;
	/* net_return: the compounded net equity curve's last point - 1; gross_return: the gross
	 * returns compounded trade by trade; the sums are the plain per-trade sums. */
	double net_return, gross_return, mean_net_return, mean_gross_return;
	double sum_net_return, sum_gross_return;
	bool ruined;                 /* the net equity curve reached zero */
	double max_drawdown, win_rate, profit_factor, avg_bars_held, exposure, turnover;
	/* per bar: of the per-bar returns of the compounded net curve (st_curve_returns), the
	 * Sharpe ratio times sqrt(bars per year), and Lo's (2002) correction of that scaling */
	double sharpe_bar, bars_per_year, annual_factor, sharpe_annualised;
	struct st_lo lo;
	struct st_sensitivity cost[ST_N_MULTIPLES];  /* 0x, 1x, 2x, 3x the cost model */
	struct st_concentration conc;
};

/* Computes every statistic of in into out. Returns 0, or -1 when memory ran out or trials is
 * not an integer >= 1 (out is then left with NANs; the caller reports the reason). */
int st_summarise(const struct st_input *in, struct st_summary *out);

#endif
