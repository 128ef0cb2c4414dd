/* stats_metrics.c - volatility, VaR and CVaR, best and worst bar and month, yearly returns
 * beside buy and hold's, rolling volatility and the long/short split (stats_metrics.h). */
#include "stats_metrics.h"

#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jsonio.h"
#include "stats_annual.h"
#include "stats_core.h"

/* x rounded as every figure of stats.json is, or null when it is not a number. */
static void add_num(cJSON *o, const char *key, double x)
{
	sa_json_add_num(o, key, x, ST_DIGITS);
}

int sts_var_cvar(const double *x, size_t n, double level, double *var, double *cvar)
{
	double *s = n ? malloc(n * sizeof(*s)) : NULL, sum = 0.0;
	size_t k = 0;

	*var = *cvar = NAN;
	if (!s)
		return -1;
	memcpy(s, x, n * sizeof(*s));
	gsl_sort(s, 1, n);
	*var = gsl_stats_quantile_from_sorted_data(s, 1, n, level);
	for (; k < n && s[k] <= *var; k++)
		sum += s[k];
	*cvar = k ? sum / (double)k : *var;
	free(s);
	return 0;
}

/* The figures of the per-bar returns r[0..n) of the compounded net curve (st_curve_returns). */
static void add_bar_figures(cJSON *o, const struct sts_tearsheet_in *in, const double *r, size_t n)
{
	double var = NAN, cvar = NAN, best = NAN, worst = NAN;
	struct st_annual a = { .vol = NAN };

	if (r && n >= 2) {
		st_annualise(r, n, in->annual_factor, &a);
		sts_var_cvar(r, n, STS_VAR_LEVEL, &var, &cvar);
		best = gsl_stats_max(r, 1, n);
		worst = gsl_stats_min(r, 1, n);
	}
	add_num(o, "volatility_annualised", a.vol);
	add_num(o, "var_95", var);
	add_num(o, "cvar_95", cvar);
	add_num(o, "best_bar", best);
	add_num(o, "worst_bar", worst);
}

/* Omega at zero, gains over losses of r[0..n), and the tail ratio, the 95th percentile over
 * the 5th's magnitude (linear between order statistics, as numpy's default): NAN when there
 * is no loss (Omega) or the 5th percentile is zero (the tail ratio). */
static void omega_tail(const double *r, size_t n, double *omega, double *tail)
{
	double up = 0, down = 0, *s = n >= 2 ? malloc(n * sizeof(*s)) : NULL, lo, hi;

	*omega = *tail = NAN;
	if (!s)
		return;
	for (size_t i = 0; i < n; i++)
		r[i] > 0 ? (up += r[i]) : (down -= r[i]);
	*omega = down > 0 ? up / down : NAN;
	memcpy(s, r, n * sizeof(*s));
	gsl_sort(s, 1, n);
	lo = gsl_stats_quantile_from_sorted_data(s, 1, n, 0.05);
	hi = gsl_stats_quantile_from_sorted_data(s, 1, n, 0.95);
	*tail = lo != 0 ? fabs(hi) / fabs(lo) : NAN;
	free(s);
}

/* The day's start (00:00 UTC) of t. */
static int64_t day_of(int64_t t)
{
	return (t >= 0 ? t : t - 86399) / 86400;
}

/* The best and worst calendar day (UTC) of the compounded net curve: its equity at a day's
 * last point over the day before's (the first day's over the starting 1). */
static void best_worst_day(const struct sts_tearsheet_in *in, double *best, double *worst)
{
	double prev = 1.0;

	*best = *worst = NAN;
	for (size_t i = 0; in->eq_time && i < in->n_eq; i++) {
		double d;

		if (i + 1 < in->n_eq && day_of(in->eq_time[i + 1]) == day_of(in->eq_time[i]))
			continue;
		if (!(prev > 0))
			break;  /* ruined: no later day is a return */
		d = in->eq_net[i] / prev - 1.0;
		*best = isnan(*best) || d > *best ? d : *best;
		*worst = isnan(*worst) || d < *worst ? d : *worst;
		prev = in->eq_net[i];
	}
}

/* annual_return (the CAGR, as quantstats and pyfolio name it), omega, tail_ratio, best_day and
 * worst_day: the first page's figures of the tearsheets people read. */
static void add_tearsheet_figures(cJSON *o, const struct sts_tearsheet_in *in, const double *r, size_t n)
{
	double omega = NAN, tail = NAN, best = NAN, worst = NAN;

	if (r && n >= 2)
		omega_tail(r, n, &omega, &tail);
	if (in->eq_per_bar)
		best_worst_day(in, &best, &worst);
	add_num(o, "omega", omega);
	add_num(o, "tail_ratio", tail);
	add_num(o, "best_day", best);
	add_num(o, "worst_day", worst);
}

static void add_months(cJSON *o)
{
	const cJSON *m;
	double best = NAN, worst = NAN;

	cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(o, "monthly")) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(m, "return");
		if (!cJSON_IsNumber(v))
			continue;
		if (isnan(best) || v->valuedouble > best)
			best = v->valuedouble;
		if (isnan(worst) || v->valuedouble < worst)
			worst = v->valuedouble;
	}
	add_num(o, "best_month", best);
	add_num(o, "worst_month", worst);
}

static int year_of(int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	return tm.tm_year + 1900;
}

/* Buy and hold's return per calendar year (UTC): its net equity at the year's last bar over
 * the year before's, the first over the starting equity, as "yearly" is for the strategy. */
static int add_yearly_benchmark(cJSON *o, const struct sts_tearsheet_in *in)
{
	struct rp_result r;
	cJSON *years;
	double prev = 1.0;

	if (!in->data) {
		cJSON_AddNullToObject(o, "yearly_benchmark");
		return 0;
	}
	if (sts_benchmark_replay(in->data, &in->costs, &r) < 0)
		return -1;
	years = cJSON_AddArrayToObject(o, "yearly_benchmark");
	for (size_t i = 0; i < r.n_eq; i++) {
		int y = year_of(r.eq_time[i]);
		if (i + 1 < r.n_eq && year_of(r.eq_time[i + 1]) == y)
			continue;
		cJSON *row = cJSON_CreateObject();
		cJSON_AddNumberToObject(row, "year", y);
		add_num(row, "return", prev > 0 ? r.eq_net[i] / prev - 1.0 : NAN);
		cJSON_AddItemToArray(years, row);
		prev = r.eq_net[i];
	}
	rp_result_release(&r);
	return 0;
}

static void add_rolling_vol(cJSON *o, const struct sts_tearsheet_in *in)
{
	size_t n = in->n_eq, w = sts_rolling_window(in->rolling_knob, n);
	double *v = malloc((n ? n : 1) * sizeof(*v)), lo = NAN, hi = NAN, last = NAN;
	cJSON *rv = cJSON_AddObjectToObject(o, "rolling_volatility");

	cJSON_AddNumberToObject(rv, "window", (double)w);
	if (v && in->eq_per_bar && st_rolling_annual(in->eq_net, n, w, in->annual_factor, NULL, v) == 0) {
		for (size_t i = 0; i < n; i++) {
			if (isnan(v[i]))
				continue;
			lo = isnan(lo) || v[i] < lo ? v[i] : lo;
			hi = isnan(hi) || v[i] > hi ? v[i] : hi;
			last = v[i];
		}
	}
	add_num(rv, "min", lo);
	add_num(rv, "max", hi);
	add_num(rv, "last", last);
	free(v);
}

/* One side's trades: how many, their net returns compounded in exit order, the share that
 * won, and mean over sample standard deviation of their net returns. */
static void add_side(cJSON *ls, const char *name, const struct sts_tearsheet_in *in, int side)
{
	cJSON *o = cJSON_AddObjectToObject(ls, name);
	double eq = 1.0, sum = 0.0, ss = 0.0, mean;
	size_t n = 0, wins = 0;

	for (size_t i = 0; i < in->n_trades; i++) {
		const struct rp_trade *t = &in->trades[i];
		if (t->side != side)
			continue;
		n++;
		wins += t->net > 0;
		eq *= 1.0 + t->net;
		sum += t->net;
	}
	mean = n ? sum / (double)n : NAN;
	for (size_t i = 0; i < in->n_trades; i++)
		if (in->trades[i].side == side)
			ss += (in->trades[i].net - mean) * (in->trades[i].net - mean);
	cJSON_AddNumberToObject(o, "trades", (double)n);
	add_num(o, "net_return", n ? eq - 1.0 : NAN);
	add_num(o, "win_rate", n ? (double)wins / (double)n : NAN);
	add_num(o, "sharpe", n >= 2 && ss > 0 ? mean / sqrt(ss / (double)(n - 1)) : NAN);
}

int sts_metrics(cJSON *o, const struct sts_tearsheet_in *in)
{
	double *r = in->eq_per_bar ? malloc((in->n_eq ? in->n_eq : 1) * sizeof(*r)) : NULL;
	size_t n;
	cJSON *ls;

	if (in->eq_per_bar && !r)
		return -1;
	n = r ? st_curve_returns(in->eq_net, in->n_eq, r) : 0;
	add_bar_figures(o, in, r, n);
	add_tearsheet_figures(o, in, r, n);
	free(r);
	add_months(o);
	if (add_yearly_benchmark(o, in) < 0)
		return -1;
	add_rolling_vol(o, in);
	ls = cJSON_AddObjectToObject(o, "long_short");
	add_side(ls, "long", in, 1);
	add_side(ls, "short", in, -1);
	cJSON_AddStringToObject(o, "metrics_basis", "per-bar returns of compounded net equity, "
		"eq[i] / eq[i-1] - 1 (the first over 1), up to and including a ruin bar (as "
		"sharpe_annualised): volatility_annualised their sample standard deviation times "
		"sqrt(bars per year); var_95 their 5 % quantile (linear between order statistics) and "
		"cvar_95 the mean of those at or below it, so a loss is negative; best_bar and "
		"worst_bar their largest and smallest; omega their gains over their losses (threshold "
		"0); tail_ratio their 95th percentile over the magnitude of their 5th; best_day and "
		"worst_day the compounded curve's return over a calendar day (UTC), its last point over "
		"the day before's; best_month and worst_month of monthly; "
		"rolling_volatility over rolling_sharpe's window; long_short per side of trades.csv: "
		"net returns compounded in exit order, the share above zero, mean over sample standard "
		"deviation");
	return 0;
}
