/* stats_beta.c - OLS of the strategy's returns on the market's (GSL), with Newey-West HAC
 * standard errors: Var(b) = (X'X)^-1 S (X'X)^-1, S = sum_t e_t^2 x_t x_t' + sum_{l=1..L}
 * (1 - l / (L + 1)) sum_t e_t e_{t-l} (x_t x_{t-l}' + x_{t-l} x_t'), x_t = (1, m_t). */
#include "stats_beta.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_fit.h>

#include "stats_core.h"

/* S of the HAC estimator, [s00 s01; s01 s11], from the residuals e and the regressor m. */
static void hac_meat(const double *e, const double *m, size_t n, size_t lags, double s[3])
{
	s[0] = s[1] = s[2] = 0.0;
	for (size_t t = 0; t < n; t++) {
		double ee = e[t] * e[t];
		s[0] += ee;
		s[1] += ee * m[t];
		s[2] += ee * m[t] * m[t];
	}
	for (size_t l = 1; l <= lags && l < n; l++) {
		double w = 1.0 - (double)l / (double)(lags + 1), a = 0, b = 0, c = 0;

		for (size_t t = l; t < n; t++) {
			double g = e[t] * e[t - l];
			a += 2.0 * g;
			b += g * (m[t] + m[t - l]);
			c += 2.0 * g * m[t] * m[t - l];
		}
		s[0] += w * a;
		s[1] += w * b;
		s[2] += w * c;
	}
}

/* The HAC standard errors of (alpha, beta) into o. */
static void hac_errors(const double *r, const double *m, size_t n, struct sts_beta *o, double *e)
{
	double sx = 0, sxx = 0, det, i00, i01, i11, s[3], v00, v11;

	for (size_t t = 0; t < n; t++) {
		e[t] = r[t] - o->alpha_bar - o->beta * m[t];
		sx += m[t];
		sxx += m[t] * m[t];
	}
	det = (double)n * sxx - sx * sx;
	i00 = sxx / det;
	i01 = -sx / det;
	i11 = (double)n / det;
	hac_meat(e, m, n, o->lags, s);
	/* (X'X)^-1 S (X'X)^-1, its diagonal */
	v00 = i00 * (i00 * s[0] + i01 * s[1]) + i01 * (i00 * s[1] + i01 * s[2]);
	v11 = i01 * (i01 * s[0] + i11 * s[1]) + i11 * (i01 * s[1] + i11 * s[2]);
	o->alpha_se = v00 > 0 ? sqrt(v00) : NAN;
	o->beta_se = v11 > 0 ? sqrt(v11) : NAN;
}

int sts_beta(const double *r, const double *m, size_t n, double bars_per_year, struct sts_beta *o)
{
	double c0, c1, cov00, cov01, cov11, sumsq, pr = 1.0, pm = 1.0, tss = 0.0, mean_r = 0.0;
	double *e;
	struct st_moments d;

	memset(o, 0, sizeof *o);
	o->alpha_bar = o->beta = o->alpha_se = o->beta_se = o->alpha_t = o->beta_t = NAN;
	o->alpha_annualised = o->information_ratio = o->excess_return = o->r_squared = NAN;
	o->bars = n;
	o->lags = st_dependence_lags(n);
	if (n < 3 || gsl_fit_linear(m, 1, r, 1, n, &c0, &c1, &cov00, &cov01, &cov11, &sumsq) != 0 ||
	    !isfinite(c1))
		return -1;
	o->alpha_bar = c0;
	o->beta = c1;
	/* the residuals, then the excess returns r - m */
	e = malloc(n * sizeof *e);
	if (!e)
		return -1;
	hac_errors(r, m, n, o, e);
	o->alpha_t = o->alpha_bar / o->alpha_se;
	o->beta_t = o->beta / o->beta_se;
	o->alpha_annualised = o->alpha_bar * bars_per_year;
	for (size_t t = 0; t < n; t++) {
		pr *= 1.0 + r[t];
		pm *= 1.0 + m[t];
		mean_r += r[t];
	}
	mean_r /= (double)n;
	for (size_t t = 0; t < n; t++) {
		tss += (r[t] - mean_r) * (r[t] - mean_r);
		e[t] = r[t] - m[t];
	}
	o->excess_return = pr - pm;
	o->r_squared = tss > 0 ? 1.0 - sumsq / tss : NAN;
	st_moments(e, n, &d);
	o->information_ratio = d.sd > 0 ? d.mean / d.sd * sqrt(bars_per_year) : NAN;
	free(e);
	return 0;
}
