/* stats_market.c - the strategy's per-bar returns regressed on its instrument's, and whether
 * its trades have met their tail. */
#include "stats_market.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>

#include "jsonio.h"
#include "msg.h"
#include "stats_annual.h"
#include "stats_beta.h"

/* Win rate at or above which a sample of small wins is read as a short-volatility profile. */
#define STS_TAIL_WIN_RATE 0.9

static void add_num(cJSON *o, const char *key, double x)
{
	sa_json_add_num(o, key, x, ST_DIGITS);
}

/* Why the regression cannot be made, or NULL when it can. */
static const char *unjudgeable(const struct sts_stage_in *in)
{
	if (strcmp(sa_json_str(in->replay, "equity_basis", "bar"), "bar") != 0)
		return "no per-bar equity curve: a trade log's returns are marked at its exits only, "
		       "so what it earns beyond holding the instrument cannot be measured";
	if (!in->data)
		return "no price data was given to the statistics";
	if (!in->eq_time || in->n_eq != in->data->n)
		return "the equity curve is not on the data's bars";
	for (size_t i = 0; i < in->n_eq; i++)
		if (in->eq_time[i] != in->data->t[i])
			return "the equity curve is not on the data's bars";
	if (in->n_eq < 4)
		return "fewer than 4 bars";
	return NULL;
}

static void add_beta(cJSON *o, const struct sts_beta *b)
{
	cJSON *a = cJSON_AddObjectToObject(o, "benchmark_relative");

	cJSON_AddNumberToObject(a, "bars", (double)b->bars);
	add_num(a, "beta", b->beta);
	add_num(a, "beta_t", b->beta_t);
	add_num(a, "alpha_per_bar", b->alpha_bar);
	add_num(a, "alpha_annualised", b->alpha_annualised);
	add_num(a, "alpha_t", b->alpha_t);
	add_num(a, "excess_return", b->excess_return);
	add_num(a, "information_ratio", b->information_ratio);
	add_num(a, "r_squared", b->r_squared);
	cJSON_AddNumberToObject(a, "lags", (double)b->lags);
	cJSON_AddStringToObject(a, "method", "ordinary least squares of the strategy's per-bar net "
				"returns (compounded net equity, eq[i] / eq[i-1] - 1) on the instrument's "
				"close-to-close returns (close[i] / close[i-1] - 1), bars 1 to the last "
				"(or the ruin bar); t-statistics from Newey-West (1987) HAC standard errors, "
				"Bartlett kernel, lags = bars^(1/3) rounded, no small-sample correction; "
				"alpha_annualised = alpha per bar x bars per year; information_ratio = "
				"mean / sample sd of the per-bar differences (strategy - instrument) x "
				"sqrt(bars per year); excess_return = the strategy's returns compounded "
				"less the instrument's over the same bars (before the benchmark's costs)");
	cJSON_AddNullToObject(o, "benchmark_relative_reason");
}

int sts_market_report(cJSON *o, const struct sts_stage_in *in)
{
	const char *why = unjudgeable(in);
	double *r = NULL, *m = NULL;
	struct sts_beta b;
	size_t k;
	int rc = -1;

	if (why) {
		cJSON_AddNullToObject(o, "benchmark_relative");
		cJSON_AddStringToObject(o, "benchmark_relative_reason", why);
		return 0;
	}
	r = malloc(in->n_eq * sizeof *r);
	m = malloc(in->n_eq * sizeof *m);
	if (!r || !m)
		goto out;
	/* r[i] is bar i's return; bar 0's (over the starting 1) has no market return beside it */
	k = st_curve_returns(in->eq_net, in->n_eq, r);
	for (size_t i = 1; i < k; i++)
		m[i] = in->data->close[i] / in->data->close[i - 1] - 1.0;
	if (k < 4 || sts_beta(r + 1, m + 1, k - 1,
			     st_bars_per_year(sa_json_num(in->replay, "bar_seconds", 0)), &b) < 0) {
		cJSON_AddNullToObject(o, "benchmark_relative");
		cJSON_AddStringToObject(o, "benchmark_relative_reason", "the instrument's returns have "
					"no spread to regress on, or too few bars");
	} else {
		add_beta(o, &b);
	}
	rc = 0;
out:
	free(r);
	free(m);
	return rc;
}

/* The worst net return of the trades, and how many lost. */
static double worst_trade(const struct sts_stage_in *in, size_t *losing)
{
	double w = INFINITY;

	*losing = 0;
	for (size_t i = 0; i < in->n_trades; i++) {
		*losing += in->trades[i].net < 0;
		if (in->trades[i].net < w)
			w = in->trades[i].net;
	}
	return in->n_trades ? w : NAN;
}

/* The rule, as a sentence for stats.json. */
static const char tail_rule[] =
	"the tail is unseen when no trade lost, or when at least 90 % of the trades won and the "
	"worst trade lies above implied_worst = mean - z sd of the net returns, z = Phi^-1(1 - 1 / "
	"(trades + 1)) (about the deepest of that many draws of a normal with the trades' own mean "
	"and spread): many small wins and no loss as deep as their own spread gives is the profile "
	"of selling insurance before its claim comes (a short-volatility book), and resampling "
	"such trades can never show a loss it never met";

void sts_tail_report(cJSON *o, const struct sts_stage_in *in, const struct st_summary *s)
{
	cJSON *a = cJSON_AddObjectToObject(o, "tail");
	size_t n = in->n_trades, losing;
	double worst = worst_trade(in, &losing), z = NAN, implied = NAN;
	bool unseen = false;
	char buf[400];
	const char *why = "the trades include losses as deep as their spread implies";

	if (n >= 1)
		z = gsl_cdf_ugaussian_Pinv(1.0 - 1.0 / ((double)n + 1.0));
	if (isfinite(s->m.sd))
		implied = s->m.mean - z * s->m.sd;
	if (n >= 1 && losing == 0) {
		unseen = true;
		why = sa_fmt(buf, sizeof buf, "no trade of %zu lost: a loss rarer than one trade in "
			     "about %.0f could still be unseen (the rule of three, 95 %%)", n,
			     ceil((double)n / 3.0));
	} else if (n >= 2 && s->win_rate >= STS_TAIL_WIN_RATE && isfinite(implied) &&
		   worst > implied) {
		unseen = true;
		why = sa_fmt(buf, sizeof buf, "%.0f %% of the trades won and the worst lost only "
			     "%.3g %%, above the %.3g %% their own spread implies over %zu trades",
			     100.0 * s->win_rate, -100.0 * worst, 100.0 * implied, n);
	} else if (n == 0) {
		why = "no trades";
	}
	cJSON_AddNumberToObject(a, "trades", (double)n);
	cJSON_AddNumberToObject(a, "losing_trades", (double)losing);
	add_num(a, "worst_trade", worst);
	add_num(a, "win_rate", s->win_rate);
	add_num(a, "z", z);
	add_num(a, "implied_worst", implied);
	cJSON_AddBoolToObject(a, "unseen", unseen);
	cJSON_AddStringToObject(a, "reason", why);
	cJSON_AddStringToObject(a, "rule", tail_rule);
}
