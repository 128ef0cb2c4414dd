/* stats_core.c - Sharpe, moments, PSR, DSR, MinTRL and drawdown, with GSL's normal CDF. */
#include "stats_core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_sort.h>

void st_moments(const double *x, size_t n, struct st_moments *m)
{
	double sum = 0.0, m2 = 0.0, m3 = 0.0, m4 = 0.0;

	m->n = n;
	m->sum = 0.0;
	m->mean = m->sd = m->skew = m->kurt = NAN;
	if (n == 0)
		return;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	m->sum = sum;
	m->mean = sum / (double)n;
	/* Central moments in a second pass: one-pass power sums lose everything to cancellation
	 * when returns are small against their mean. */
	for (size_t i = 0; i < n; i++) {
		double d = x[i] - m->mean, d2 = d * d;
		m2 += d2;
		m3 += d2 * d;
		m4 += d2 * d2;
	}
	if (n >= 2)
		m->sd = sqrt(m2 / (double)(n - 1));
	m2 /= (double)n;
	m3 /= (double)n;
	m4 /= (double)n;
	/* A spread below rounding noise of the mean is no spread: treat as zero variance. */
	if (m2 > 0 && sqrt(m2) > 1e-14 * fabs(m->mean)) {
		m->skew = m3 / pow(m2, 1.5);
		m->kurt = m4 / (m2 * m2);
	} else if (n >= 2) {
		m->sd = 0.0;
	}
}

double st_sharpe(const struct st_moments *m)
{
	if (!(m->sd > 0) || !isfinite(m->sd))
		return NAN;
	return m->mean / m->sd;
}

/* Bailey and Lopez de Prado 2012, eq. 11: the non-normal variance term of the SR estimator. */
double st_sr_var_term(double sr, double skew, double kurt)
{
	return 1.0 - skew * sr + (kurt - 1.0) / 4.0 * sr * sr;
}

/* Bailey and Lopez de Prado 2012, eq. 11:
 * PSR(SR*) = Z[(SR^ - SR*) sqrt(T - 1) / sqrt(1 - g3 SR^ + (g4 - 1)/4 SR^2)]. */
double st_psr(double sr, double sr_star, double t, double skew, double kurt)
{
	double v = st_sr_var_term(sr, skew, kurt);

	if (!(t >= 2) || !isfinite(sr) || !isfinite(sr_star) || !isfinite(v) || !(v > 0))
		return NAN;
	return gsl_cdf_ugaussian_P((sr - sr_star) * sqrt(t - 1.0) / sqrt(v));
}

/* Bailey and Lopez de Prado 2014, eq. 2 (the expected maximum SR of N unskilled trials):
 * SR0 = sqrt(V[SR_n]) ((1 - gamma) Z^-1[1 - 1/N] + gamma Z^-1[1 - 1/(N e)]). */
double st_sr0(double v_sr, double n_trials)
{
	double z1, z2;

	if (!(n_trials >= 1) || !isfinite(n_trials) || !(v_sr >= 0) || !isfinite(v_sr))
		return NAN;
	/* With one trial nothing was selected, and Z^-1[0] is -infinity: no deflation. */
	if (n_trials == 1)
		return 0.0;
	z1 = gsl_cdf_ugaussian_Pinv(1.0 - 1.0 / n_trials);
	z2 = gsl_cdf_ugaussian_Pinv(1.0 - 1.0 / (n_trials * M_E));
	return sqrt(v_sr) * ((1.0 - M_EULER) * z1 + M_EULER * z2);
}

/* Bailey and Lopez de Prado 2012, eq. 13:
 * MinTRL = 1 + [1 - g3 SR^ + (g4 - 1)/4 SR^2] (Z_alpha / (SR^ - SR*))^2. */
double st_min_trl(double sr, double sr_star, double skew, double kurt, double conf)
{
	double v = st_sr_var_term(sr, skew, kurt), z;

	if (!isfinite(sr) || !(sr > sr_star) || !isfinite(v) || !(v > 0))
		return NAN;
	z = gsl_cdf_ugaussian_Pinv(conf);
	return 1.0 + v * (z / (sr - sr_star)) * (z / (sr - sr_star));
}

double st_autocorr(const double *x, size_t n, size_t k)
{
	double mean = 0.0, num = 0.0, den = 0.0;

	if (n < k + 2)
		return NAN;
	for (size_t i = 0; i < n; i++)
		mean += x[i];
	mean /= (double)n;
	for (size_t i = 0; i < n; i++) {
		double d = x[i] - mean;
		den += d * d;
		if (i + k < n)
			num += d * (x[i + k] - mean);
	}
	/* the same noise floor as st_moments: a spread below rounding of the mean is none */
	if (!(den > 0) || sqrt(den / (double)n) <= 1e-14 * fabs(mean))
		return NAN;
	return num / den;
}

size_t st_dependence_lags(size_t n)
{
	size_t l = (size_t)lround(cbrt((double)n));

	if (n < 3)
		return 1;
	if (l > n - 2)
		l = n - 2;
	return l < 1 ? 1 : l;
}

double st_effective_n(const double *x, size_t n, size_t *lags)
{
	size_t l = st_dependence_lags(n);
	double sum = 0.0;
	bool any = false;

	*lags = l;
	if (n < 3)
		return (double)n;
	for (size_t k = 1; k <= l; k++) {
		double rho = st_autocorr(x, n, k);
		if (isnan(rho))
			continue;
		any = true;
		sum += (1.0 - (double)k / (double)(l + 1)) * rho;
	}
	if (!any || 1.0 + 2.0 * sum <= 1.0)
		return (double)n;
	return (double)n / (1.0 + 2.0 * sum);
}

/* The running drawdown of a curve, a point at a time. Under one peak the drawdown
 * (peak - x) / peak only grows as x falls (a subtraction and a division by a positive peak
 * are monotone, rounding included), so the largest under that peak is the lowest point's:
 * one division per new peak rather than one per point, and the same result to the last bit
 * as dividing at every point. */
struct drawdown {
	double peak, low, dd;
};

/* Folds the lowest point under the current peak into dd. */
static void dd_settle(struct drawdown *d)
{
	if (d->peak > 0 && (d->peak - d->low) / d->peak > d->dd)
		d->dd = (d->peak - d->low) / d->peak;
}

static void dd_step(struct drawdown *d, double x)
{
	if (x > d->peak) {
		dd_settle(d);
		d->peak = d->low = x;
	} else if (x < d->low) {
		d->low = x;
	}
}

double st_max_drawdown(double start, const double *eq, size_t n)
{
	struct drawdown d = { start, start, 0.0 };

	for (size_t i = 0; i < n; i++)
		dd_step(&d, eq[i]);
	dd_settle(&d);
	return d.dd;
}

/* The trades' returns x[0..n) compounded in order, less 1: -1 once the product reaches zero
 * (ruin: nothing is left to trade; *ruined says so). */
static double compounded(const double *x, size_t n, bool *ruined)
{
	double eq = 1.0;

	for (size_t i = 0; i < n && eq > 0; i++)
		eq *= 1.0 + x[i];
	*ruined = !(eq > 0);
	return eq > 0 ? eq - 1.0 : -1.0;
}

/* Sharpe and PSR of the trades' net returns with the cost model scaled by k. */
static void sensitivity(const struct st_input *in, double k, double *buf, struct st_sensitivity *s)
{
	struct st_moments m;

	for (size_t i = 0; i < in->n_trades; i++)
		buf[i] = rp_net_at(&in->trades[i], k);
	st_moments(buf, in->n_trades, &m);
	s->multiple = k;
	s->sharpe = st_sharpe(&m);
	s->psr = st_psr(s->sharpe, 0.0, (double)in->n_trades, m.skew, m.kurt);
	s->sum_net_return = m.sum;
	s->trades = in->n_trades;
	s->net_return = compounded(buf, in->n_trades, &s->ruined);
}

/* Per-trade counts and sums: win rate, profit factor, totals, holding time. */
static void trade_figures(const struct st_input *in, struct st_summary *o)
{
	double wins = 0, gains = 0, losses = 0, held = 0, geq = 1.0;
	size_t n = in->n_trades, n_held = 0;

	o->sum_net_return = o->sum_gross_return = 0.0;
	for (size_t i = 0; i < n; i++) {
		const struct rp_trade *t = &in->trades[i];
		o->sum_net_return += t->net;
		o->sum_gross_return += t->gross;
		if (geq > 0)
			geq *= 1.0 + t->gross;
		if (t->net > 0) {
			wins++;
			gains += t->net;
		} else {
			losses -= t->net;
		}
		if (t->bars_held >= 0) {
			held += (double)t->bars_held;
			n_held++;
		}
	}
	o->gross_return = geq > 0 ? geq - 1.0 : -1.0;
	o->mean_net_return = n ? o->sum_net_return / (double)n : NAN;
	o->mean_gross_return = n ? o->sum_gross_return / (double)n : NAN;
	o->win_rate = n ? wins / (double)n : NAN;
	/* No losing trade makes the ratio infinite: report null rather than a fake number. */
	o->profit_factor = losses > 0 ? gains / losses : NAN;
	o->avg_bars_held = n_held ? held / (double)n_held : NAN;
}

/* The compounded curve's own figures: the net return is its last point - 1 (0 for an empty
 * curve), and the account is ruined when a point reaches zero (the replay stops there). */
static void curve_end(const struct st_input *in, struct st_summary *o)
{
	o->net_return = in->n_eq ? in->eq_net[in->n_eq - 1] - 1.0 : 0.0;
	o->ruined = false;
	for (size_t i = 0; i < in->n_eq && !o->ruined; i++)
		o->ruined = !(in->eq_net[i] > 0);
}

/* The per-bar figures, from the per-bar returns of the compounded net curve r[0..n)
 * (st_curve_returns): the Sharpe ratio annualised by sqrt(bars per year), and Lo's (2002)
 * correction of that scaling beside it. NAN without a per-bar curve or a bar spacing. */
static void per_bar_sharpe(const struct st_input *in, const double *r, size_t n,
			   struct st_summary *o)
{
	struct st_annual a;

	o->sharpe_bar = o->bars_per_year = o->annual_factor = o->sharpe_annualised = NAN;
	o->lo = (struct st_lo){ NAN, NAN, NAN, 0 };  /* no lags counted without a per-bar curve */
	if (!in->eq_per_bar || n < 2 || !(in->bar_seconds > 0))
		return;
	o->bars_per_year = st_bars_per_year(in->bar_seconds);
	o->annual_factor = sqrt(o->bars_per_year);
	st_annualise(r, n, o->annual_factor, &a);
	o->sharpe_bar = a.sharpe_bar;
	o->sharpe_annualised = a.sharpe;
	st_lo_annualise(r, n, a.sharpe_bar, o->bars_per_year, &o->lo);
}

double st_null_v_sr(double t)
{
	return t >= 2 ? 1.0 / (t - 1.0) : NAN;
}

/* V[SR] of the trials for a sample of t trades: the null 1 / (t - 1) (the variance of an
 * estimated Sharpe ratio whose true value is 0, whatever the skew and kurtosis), or the
 * measured or given spread when that is larger. A spread below the null says the trials are
 * alike, not that fewer were tried: twins must not shrink the deflation below what the count
 * of trials alone gives. */
static double trials_v_sr(const struct st_input *in, double t)
{
	double null = st_null_v_sr(t);

	if (in->has_sr_variance && !(in->sr_variance < null))
		return in->sr_variance;
	return null;
}

/* PSR, DSR and MinTRL from the 1x moments (2012 eqs. 11 and 13, 2014 eqs. 1 and 2), with t
 * observations: the effective trades, or every trade for the _iid figures. */
static void probabilistic_at(const struct st_input *in, const struct st_summary *o, double t,
			     double *psr, double *dsr, double *sr0, double *v_sr, double *min_trl)
{
	*psr = st_psr(o->sharpe, 0.0, t, o->m.skew, o->m.kurt);
	*v_sr = trials_v_sr(in, t);
	*sr0 = o->trials == 1 ? 0.0 : st_sr0(*v_sr, o->trials);
	*dsr = st_psr(o->sharpe, *sr0, t, o->m.skew, o->m.kurt);
	/* MinTRL counts independent observations; each trade is worth t / trades of one */
	*min_trl = st_min_trl(o->sharpe, 0.0, o->m.skew, o->m.kurt, ST_MIN_TRL_CONF) *
		   ((double)o->trades / t);
}

static void probabilistic(const struct st_input *in, struct st_summary *o)
{
	double t = (double)o->trades;

	probabilistic_at(in, o, t, &o->psr_iid, &o->dsr_iid, &o->sr0_iid, &o->v_sr_iid,
			 &o->min_trl_iid);
	if (!(o->dep.effective_trades > 0)) {
		o->psr = o->dsr = o->sr0 = o->v_sr = o->min_trl = NAN;
		return;
	}
	probabilistic_at(in, o, o->dep.effective_trades, &o->psr, &o->dsr, &o->sr0, &o->v_sr,
			 &o->min_trl);
}

/* Serial dependence of the trades (x, their net returns in order) and of the bars (r[0..n),
 * the per-bar returns of the net curve; none without a per-bar curve). */
static int dependence(const struct st_input *in, const double *x, const double *r, size_t n,
		      struct st_dependence *d)
{
	int64_t *entry = malloc((in->n_trades + 1) * sizeof *entry);
	int64_t *exit = malloc((in->n_trades + 1) * sizeof *exit);
	int rc = -1;

	d->trades_lag1 = st_autocorr(x, in->n_trades, 1);
	d->autocorr_trades = st_effective_n(x, in->n_trades, &d->lags);
	d->bars_lag1 = in->eq_per_bar ? st_autocorr(r, n, 1) : NAN;
	if (!entry || !exit)
		goto out;
	for (size_t i = 0; i < in->n_trades; i++) {
		entry[i] = in->trades[i].entry;
		exit[i] = in->trades[i].exit;
	}
	if (st_overlap_spans(entry, exit, in->n_trades, &d->overlap, NULL) < 0)
		goto out;
	d->effective_trades = d->overlap.shares_sum < d->autocorr_trades ? d->overlap.shares_sum :
				d->autocorr_trades;
	rc = 0;
out:
	free(entry);
	free(exit);
	return rc;
}

size_t st_conc_removed(size_t n)
{
	size_t k = (size_t)ceil(ST_CONC_FRACTION * (double)n);

	return n == 0 ? 0 : k < 1 ? 1 : k;
}

/* The concentration of the net returns x[0..n) (sorted here, ascending: the caller's copy)
 * whose plain sum is sum: the best k's share, and the figures of the rest (deflated for the
 * same trials as the whole, V[SR] taken over the trades that are left, eff_share of them
 * counted as independent, as of the whole). */
static void concentration(const struct st_input *in, double *x, size_t n, double sum,
			  double eff_share, struct st_concentration *c)
{
	struct st_moments m;
	double top = 0.0, t, sr0;

	memset(c, 0, sizeof(*c));
	c->best_trade = c->best_share = c->top_share = NAN;
	c->mean_without = c->sharpe_without = c->psr_without = c->dsr_without = NAN;
	c->removed = st_conc_removed(n);
	if (n == 0)
		return;
	c->trades_without = n - c->removed;
	gsl_sort(x, 1, n);
	c->best_trade = x[n - 1];
	for (size_t i = n - c->removed; i < n; i++)
		top += x[i];
	if (sum > 0) {
		c->best_share = c->best_trade / sum;
		c->top_share = top / sum;
	}
	st_moments(x, c->trades_without, &m);
	/* the trades left are as dependent as the whole: the same share of them counts */
	t = (double)c->trades_without * eff_share;
	c->mean_without = m.mean;
	c->sharpe_without = st_sharpe(&m);
	c->psr_without = st_psr(c->sharpe_without, 0.0, t, m.skew, m.kurt);
	sr0 = in->trials == 1 ? 0.0 : st_sr0(trials_v_sr(in, t), in->trials);
	c->dsr_without = st_psr(c->sharpe_without, sr0, t, m.skew, m.kurt);
}

int st_summarise(const struct st_input *in, struct st_summary *out)
{
	static const double multiples[ST_N_MULTIPLES] = { 0, 1, 2, 3 };
	double *buf = NULL, *bars = NULL;
	size_t n_bars = 0;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	out->trades = in->n_trades;
	out->trials = in->trials;
	out->exposure = in->exposure;
	out->turnover = in->turnover;
	out->sharpe = out->psr = out->dsr = out->sr0 = out->v_sr = out->min_trl = NAN;
	out->psr_iid = out->dsr_iid = out->sr0_iid = out->v_sr_iid = out->min_trl_iid = NAN;
	out->dep.trades_lag1 = out->dep.bars_lag1 = out->dep.effective_trades = NAN;
	out->dep.autocorr_trades = NAN;
	buf = malloc((in->n_trades ? in->n_trades : 1) * sizeof(*buf));
	bars = malloc((in->n_eq ? in->n_eq : 1) * sizeof(*bars));
	if (!buf || !bars || !(in->trials >= 1) || in->trials != floor(in->trials))
		goto out;
	/* every per-bar figure rests on the per-bar returns of the compounded net curve */
	if (in->eq_per_bar)
		n_bars = st_curve_returns(in->eq_net, in->n_eq, bars);
	for (size_t k = 0; k < ST_N_MULTIPLES; k++)
		sensitivity(in, multiples[k], buf, &out->cost[k]);
	/* The headline figures are the 1x row's, from the same net returns. */
	for (size_t i = 0; i < in->n_trades; i++)
		buf[i] = in->trades[i].net;
	st_moments(buf, in->n_trades, &out->m);
	out->sharpe = st_sharpe(&out->m);
	if (dependence(in, buf, bars, n_bars, &out->dep) < 0)
		goto out;
	probabilistic(in, out);
	trade_figures(in, out);
	/* last: it sorts buf */
	concentration(in, buf, in->n_trades, out->sum_net_return,
		      in->n_trades ? out->dep.effective_trades / (double)in->n_trades : 1.0,
		      &out->conc);
	out->max_drawdown = st_max_drawdown(1.0, in->eq_net, in->n_eq);
	curve_end(in, out);
	per_bar_sharpe(in, bars, n_bars, out);
	rc = 0;
out:
	free(buf);
	free(bars);
	return rc;
}
