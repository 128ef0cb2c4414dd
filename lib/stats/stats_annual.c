/* stats_annual.c - per-bar returns of a compounded curve, annualised whole, rolling and with
 * Lo's correction (stats_annual.h). */
#include "stats_annual.h"

#include <math.h>
#include <stdlib.h>

#include "stats_core.h"

#define SECONDS_PER_YEAR (365.25 * 86400.0)

double st_bars_per_year(double bar_seconds)
{
	return bar_seconds > 0 && isfinite(bar_seconds) ? SECONDS_PER_YEAR / bar_seconds : NAN;
}

size_t st_curve_returns(const double *eq, size_t n, double *r)
{
	double prev = 1.0;
	size_t k = 0;

	/* prev > 0 holds until a row reaches zero; that row's return (-1, or below when it was
	 * marked under zero) is the last one */
	for (size_t i = 0; i < n && prev > 0; i++) {
		r[k++] = eq[i] / prev - 1.0;
		prev = eq[i];
	}
	return k;
}

void st_annualise(const double *r, size_t n, double factor, struct st_annual *a)
{
	struct st_moments m;

	st_moments(r, n, &m);
	a->bars = n;
	a->mean = m.mean;
	a->sd = m.sd;
	a->sharpe_bar = m.sd > ST_FLAT_SD && isfinite(m.sd) ? m.mean / m.sd : NAN;
	a->sharpe = a->sharpe_bar * factor;
	a->vol = m.sd * factor;
}

int st_curve_annual(const double *eq, size_t n, double factor, struct st_annual *a)
{
	double *r = malloc((n ? n : 1) * sizeof *r);

	if (!r) {
		*a = (struct st_annual){ 0, NAN, NAN, NAN, NAN, NAN };
		return -1;
	}
	st_annualise(r, st_curve_returns(eq, n, r), factor, a);
	free(r);
	return 0;
}

void st_lo_annualise(const double *r, size_t n, double sharpe_bar, double q, struct st_lo *lo)
{
	size_t lags = st_dependence_lags(n);
	double sum = 0.0;

	/* Lo's sum runs to q - 1, where its weight 1 - k / q reaches 0 */
	while (lags > 1 && (double)lags >= q)
		lags--;
	lo->lags = lags;
	lo->sharpe = lo->factor = lo->rho_sum = NAN;
	if (n < 3 || !(q > 1) || !isfinite(q))
		return;
	for (size_t k = 1; k <= lags; k++) {
		double rho = st_autocorr(r, n, k);

		if (!isnan(rho))
			sum += (1.0 - (double)k / q) * rho;
	}
	lo->rho_sum = sum;
	/* q / sqrt(q + 2 sum (q - k) rho_k) = sqrt(q / (1 + 2 sum (1 - k / q) rho_k)) */
	if (1.0 + 2.0 * sum > 0)
		lo->factor = sqrt(q / (1.0 + 2.0 * sum));
	lo->sharpe = sharpe_bar * lo->factor;
}

/* The window r[from, from + w) afresh: its mean into *c, and the sum and the sum of squares of
 * the returns less it. */
static void window_sums(const double *r, size_t from, size_t w, double *c, double *sum, double *ss)
{
	double m = 0.0, s = 0.0, q = 0.0;

	for (size_t k = from; k < from + w; k++)
		m += r[k];
	m /= (double)w;
	for (size_t k = from; k < from + w; k++) {
		double d = r[k] - m;
		s += d;
		q += d * d;
	}
	*c = m;
	*sum = s;
	*ss = q;
}

/* The windows of w returns r[0..m), into sharpe and vol at the rows they end on. Each window's
 * sums come from the one before it (one return in, one out), of the returns less a centre c so
 * the sum of squares does not cancel away the variance; every w-th window is taken afresh,
 * centred on its own mean, so rounding cannot build up over more than w steps. A window of one
 * value repeated is flat exactly, whatever rounding the sums carry. */
static void windows(const double *r, size_t m, size_t w, double factor, double *sharpe,
		    double *vol)
{
	double c = 0.0, sum = 0.0, ss = 0.0;
	size_t run = 0;  /* how many returns up to row i equal r[i] in a row */

	for (size_t i = 0; i < m; i++) {
		double var, sd;

		run = i > 0 && r[i] == r[i - 1] ? run + 1 : 1;
		if (i + 1 < w)
			continue;
		if ((i + 1) % w == 0) {
			window_sums(r, i + 1 - w, w, &c, &sum, &ss);
		} else {
			double x = r[i] - c, y = r[i - w] - c;
			sum += x;
			ss += x * x;
			sum -= y;
			ss -= y * y;
		}
		var = run >= w ? 0.0 : (ss - sum * sum / (double)w) / (double)(w - 1);
		sd = sqrt(var > 0 ? var : 0.0);
		if (vol)
			vol[i] = sd * factor;
		if (sharpe && sd > ST_FLAT_SD)
			sharpe[i] = (c + sum / (double)w) / sd * factor;
	}
}

int st_rolling_annual(const double *eq, size_t n, size_t w, double factor, double *sharpe,
		      double *vol)
{
	double *r = malloc((n ? n : 1) * sizeof *r);

	for (size_t i = 0; i < n; i++) {
		if (sharpe)
			sharpe[i] = NAN;
		if (vol)
			vol[i] = NAN;
	}
	if (!r || w < 2) {
		free(r);
		return -1;
	}
	windows(r, st_curve_returns(eq, n, r), w, factor, sharpe, vol);
	free(r);
	return 0;
}
