/* stats_annual.h - the one basis of every per-bar figure: the per-bar returns of a compounded
 * equity curve from 1, up to and including a ruin bar, and their Sharpe ratio and volatility
 * annualised by sqrt(bars per year), whole, over a rolling window, and with Lo's (2002)
 * correction for dependent bars. Pure computation: undefined figures are NAN. */
#ifndef STATS_ANNUAL_H
#define STATS_ANNUAL_H

#include <stddef.h>

/* A window or a curve whose per-bar standard deviation is at or below this has no Sharpe
 * ratio: the returns do not move (the rolling sums' rounding is far below it). */
#define ST_FLAT_SD 1e-12

/* Bars a year at a mean spacing of bar_seconds (365.25 days over it); NAN when the spacing is
 * not positive. */
double st_bars_per_year(double bar_seconds);

/* The per-bar returns of a curve eq[0..n) compounded from 1: r[i] = eq[i] / eq[i - 1] - 1, the
 * first over 1, into r (room for n values, the caller's), up to and including the first row at
 * or below zero (ruin: after it nothing is left to earn a return on, so the rows after it are
 * not returns). Returns how many were written. */
size_t st_curve_returns(const double *eq, size_t n, double *r);

/* Per-bar returns annualised. */
struct st_annual {
	size_t bars;          /* the returns measured */
	double mean, sd;      /* per bar; sd with ddof 1 (NAN below 2 returns) */
	double sharpe_bar;    /* mean / sd; NAN when sd <= ST_FLAT_SD or is undefined */
	double sharpe, vol;   /* sharpe_bar and sd times the factor (sqrt(bars per year)) */
};

/* The figures of returns r[0..n), annualised by factor, into a. */
void st_annualise(const double *r, size_t n, double factor, struct st_annual *a);

/* st_curve_returns of eq[0..n), then st_annualise. Returns 0, or -1 when memory ran out (a is
 * then all NAN). */
int st_curve_annual(const double *eq, size_t n, double factor, struct st_annual *a);

/* Lo (2002), eq. 19: the Sharpe ratio of returns aggregated over q bars is eta(q) SR with
 * eta(q) = q / sqrt(q + 2 sum_{k=1}^{q-1} (q - k) rho_k), which is sqrt(q) for independent
 * bars. The rho_k of a year of bars cannot all be estimated, so the sum stops at L lags, L =
 * st_dependence_lags(n) (n^(1/3) rounded, the trades' rule), the rest taken as 0. */
struct st_lo {
	double sharpe;       /* eta(q) sharpe_bar; NAN when undefined */
	double factor;       /* eta(q); NAN when the radicand is not positive */
	double rho_sum;      /* sum_{k=1}^{L} (1 - k / q) rho_k, the rho NAN-free */
	size_t lags;         /* L; 0 when nothing was measured (no per-bar curve) */
};

/* Lo's annualised Sharpe ratio of returns r[0..n) whose per-bar Sharpe ratio is sharpe_bar,
 * over q bars a year, into lo. */
void st_lo_annualise(const double *r, size_t n, double sharpe_bar, double q, struct st_lo *lo);

/* The Sharpe ratio and the volatility, annualised by factor, of the w returns (st_curve_returns
 * of eq[0..n)) ending at each row, into sharpe[0..n) and vol[0..n) (either may be NULL): NAN
 * for the first w - 1 rows, for the rows after a ruin bar, and (Sharpe) for a window whose
 * standard deviation is at or below ST_FLAT_SD. Returns 0, or -1 when memory ran out or w < 2
 * (every value NAN). */
int st_rolling_annual(const double *eq, size_t n, size_t w, double factor, double *sharpe,
		      double *vol);

#endif
