/* stats_walkforward.c - walk-forward selection over the declared variants' return matrix. */
#include "stats_walkforward.h"

#include <math.h>
#include <stdlib.h>

#include "msg.h"
#include "stats_annual.h"
#include "stats_core.h"

/* Sharpe ratio of x[0..n), 0 when it is undefined (PBO's convention). */
static double sharpe0(const double *x, size_t n)
{
	struct st_moments mo;
	double s;

	st_moments(x, n, &mo);
	s = st_sharpe(&mo);
	return isfinite(s) ? s : 0.0;
}

/* The column with the highest Sharpe ratio over bars [0, end), the first on a tie. */
static size_t best_column(const double *m, size_t n_bars, size_t n_cols, size_t end)
{
	size_t best = 0;
	double top = -INFINITY;

	for (size_t j = 0; j < n_cols; j++) {
		double s = sharpe0(m + j * n_bars, end);

		if (s > top) {
			top = s;
			best = j;
		}
	}
	return best;
}

/* The column traded at bar t: the choice of the stretch holding t (t >= start[0]). */
static size_t column_at(const struct sts_walkforward *wf, size_t t, int *w)
{
	while (*w + 1 < wf->windows && t >= wf->start[*w + 1])
		(*w)++;
	return wf->choices[*w];
}

void sts_walkforward_curves(const double *m, size_t n_bars, const struct sts_walkforward *wf,
			   double *oos, double *hind)
{
	double e = 1.0, h = 1.0;
	int w = 0;

	for (size_t t = wf->start[0]; t < n_bars; t++) {
		e *= 1.0 + m[column_at(wf, t, &w) * n_bars + t];
		h *= 1.0 + m[wf->hindsight * n_bars + t];
		oos[t - wf->start[0]] = e;
		hind[t - wf->start[0]] = h;
	}
}

/* The per-bar Sharpe ratio of a curve eq[0..n) compounded from 1, of its per-bar returns
 * (st_curve_returns into r, so a ruin bar is the last that counts); 0 when it is undefined
 * (PBO's convention). */
static double curve_sharpe0(const double *eq, size_t n, double *r)
{
	struct st_annual a;

	st_annualise(r, st_curve_returns(eq, n, r), 1.0, &a);
	return isfinite(a.sharpe_bar) ? a.sharpe_bar : 0.0;
}

/* Sharpe and compounded return of the stitched choices and of the hindsight column, over the
 * out-of-sample bars: each compounded from 1 into eq and hind (n_bars - start[0] each; r as
 * many, for the returns). */
static void score(const double *m, size_t n_bars, struct sts_walkforward *wf, double *eq,
		  double *hind, double *r)
{
	size_t n = n_bars - wf->start[0];

	sts_walkforward_curves(m, n_bars, wf, eq, hind);
	wf->oos_sharpe = curve_sharpe0(eq, n, r);
	wf->oos_net_return = eq[n - 1] - 1.0;
	wf->is_sharpe = curve_sharpe0(hind, n, r);
	wf->is_net_return = hind[n - 1] - 1.0;
}

int sts_walkforward(const double *m, size_t n_bars, size_t n_cols, int windows,
		   struct sts_walkforward *out, char *err, size_t errlen)
{
	size_t parts = (size_t)windows + 1;
	double *buf;

	if (n_cols == 0 || windows < 1 || windows > STS_WF_MAX_WINDOWS) {
		sa_fmt(err, errlen, "walk-forward needs a variant and 1 to %d stretches (%zu variants, "
		       "%d stretches)", STS_WF_MAX_WINDOWS, n_cols, windows);
		return -1;
	}
	if (n_bars < 2 * parts) {
		sa_fmt(err, errlen, "%zu bars cannot be cut into %zu parts of 2 bars or more", n_bars,
		       parts);
		return -1;
	}
	out->windows = windows;
	for (size_t w = 0; w <= (size_t)windows; w++)
		out->start[w] = (w + 1) * n_bars / parts;
	for (int w = 0; w < windows; w++)
		out->choices[w] = best_column(m, n_bars, n_cols, out->start[w]);
	out->hindsight = best_column(m, n_bars, n_cols, n_bars);
	buf = malloc(3 * (n_bars - out->start[0]) * sizeof *buf);
	if (!buf) {
		sa_fmt(err, errlen, "out of memory for the walk-forward");
		return -1;
	}
	score(m, n_bars, out, buf, buf + (n_bars - out->start[0]), buf + 2 * (n_bars - out->start[0]));
	free(buf);
	return 0;
}
