/* robust_perm.c - the permutation test: the same bar returns in a random order, replayed with
 * no costs on either side, and where the real run's per-bar Sharpe ratio falls among them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "robust_core.h"
#include "stats_annual.h"
#include "stats_core.h"

int rb_perm_make(const struct da_ohlcv *s, void *rng, size_t *order, struct rb_perm *p)
{
	size_t n = s->n;
	double *o, *h, *l, *c, *v;
	int rc = -1;

	memset(p, 0, sizeof *p);
	if (n < 2 || !(p->cols = malloc(5 * n * sizeof *p->cols)))
		goto out;
	o = p->cols;
	h = o + n;
	l = h + n;
	c = l + n;
	v = c + n;
	/* order[j] is the original bar whose return (and shape and volume) goes to bar j + 1. */
	for (size_t j = 0; j + 1 < n; j++)
		order[j] = j + 1;
	gsl_ran_shuffle((gsl_rng *)rng, order, n - 1, sizeof *order);
	o[0] = s->open[0];
	h[0] = s->high[0];
	l[0] = s->low[0];
	c[0] = s->close[0];
	v[0] = s->volume[0];
	for (size_t j = 1; j < n; j++) {
		size_t i = order[j - 1];
		double ret = log(s->close[i] / s->close[i - 1]);

		c[j] = c[j - 1] * exp(ret);
		o[j] = c[j] * (s->open[i] / s->close[i]);
		h[j] = c[j] * (s->high[i] / s->close[i]);
		l[j] = c[j] * (s->low[i] / s->close[i]);
		v[j] = s->volume[i];
	}
	p->s = (struct da_ohlcv){ .n = n, .t = s->t, .open = o, .high = h, .low = l, .close = c,
		.volume = v, .swap_long = s->swap_long, .swap_short = s->swap_short, .fmt = s->fmt };
	rc = 0;
out:
	return rc;
}

void rb_perm_release(struct rb_perm *p)
{
	free(p->cols);
	memset(p, 0, sizeof *p);
}

int rb_sharpe(const struct da_ohlcv *s, const int8_t *signals, const struct rp_exits *x,
	      double *sharpe, size_t *trades)
{
	const struct rp_costs none = { .exits = x };
	struct rp_result r;
	struct st_annual a;
	double *ret = NULL;
	int rc = -1;

	*sharpe = NAN;
	*trades = 0;
	if (rp_replay(s, signals, &none, &r) < 0)
		goto out;
	ret = malloc((r.n_eq ? r.n_eq : 1) * sizeof *ret);
	if (!ret)
		goto out;
	/* the per-bar returns of compounded gross equity, on the basis of every per-bar figure */
	st_annualise(ret, st_curve_returns(r.eq_gross, r.n_eq, ret), 1.0, &a);
	*sharpe = a.sharpe_bar;
	*trades = r.n_trades;
	rc = 0;
out:
	free(ret);
	rp_result_release(&r);
	return rc;
}

int rb_net_return(const struct da_ohlcv *s, const int8_t *signals, const struct rp_costs *c,
		  double *net)
{
	struct rp_result r;

	*net = NAN;
	if (rp_replay(s, signals, c, &r) < 0)
		return -1;
	*net = r.net_return;
	rp_result_release(&r);
	return 0;
}

void rb_perm_finish(struct rb_permtest *t)
{
	t->at_least = 0;
	t->null_mean = t->null_p95 = t->p_value = NAN;
	if (t->runs == 0)
		return;
	gsl_sort(t->null, 1, t->runs);
	t->null_mean = gsl_stats_mean(t->null, 1, t->runs);
	t->null_p95 = gsl_stats_quantile_from_sorted_data(t->null, 1, t->runs, 0.95);
	if (!isfinite(t->real_sharpe))
		return;
	for (size_t i = 0; i < t->runs; i++)
		if (t->null[i] >= t->real_sharpe)
			t->at_least++;
	t->p_value = (1.0 + (double)t->at_least) / (1.0 + (double)t->runs);
}

void rb_permtest_release(struct rb_permtest *t)
{
	free(t->null);
	free(t->trades);
	t->null = NULL;
	t->trades = NULL;
}
