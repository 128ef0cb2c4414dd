/* report_stats_model.c - the report's Statistics section: the table of figures (with the
 * concentration, dependence and risk rows), longs against shorts, and each year beside buy and
 * hold. */
#include "report_model.h"
#include "report_fmt.h"
#include "report_tearsheet.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "jsonio.h"
#include "msg.h"

#define add_text rpt_add_text

static const cJSON *get(const cJSON *obj, const char *key)
{
	return cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
}

static void stat_row(cJSON *list, const char *label, const char *value, const char *meaning)
{
	cJSON *r = cJSON_CreateObject();
	cJSON_AddStringToObject(r, "label", label);
	cJSON_AddStringToObject(r, "value", value);
	cJSON_AddStringToObject(r, "meaning", meaning);
	cJSON_AddItemToArray(list, r);
}

/* What the best trades carry (stats.json concentration; c NULL when absent). */
static void add_concentration(cJSON *l, const cJSON *c)
{
	char b[64], p[32], d[32], label[96];
	double k = sa_json_num(c, "removed", NAN);

	stat_row(l, "Share of net profit, best trade", rpt_fmt_pct(get(c, "best_trade_share"), 1, b, sizeof b),
		 "the best trade's part of the summed net returns (none when they do not sum to a profit)");
	stat_row(l, "Share of net profit, best 5 % of trades", rpt_fmt_pct(get(c, "best_5pct_share"), 1, b, sizeof b),
		 "the best max(1, ceil(5 %)) trades' part of the summed net returns");
	if (isfinite(k))
		snprintf(label, sizeof label, "Mean net return without the best %.0f trade%s", k, k == 1 ? "" : "s");
	else
		snprintf(label, sizeof label, "Mean net return without the best trades");
	stat_row(l, label, rpt_fmt_pct(get(c, "mean_net_return_without"), 3, b, sizeof b),
		 "the edge left when the best trades are taken out: net_edge needs it above zero");
	snprintf(b, sizeof b, "%s / %s", rpt_fmt_num(get(c, "psr_without"), 3, p, sizeof p),
		 rpt_fmt_num(get(c, "dsr_without"), 3, d, sizeof d));
	stat_row(l, "PSR / DSR without them", b,
		 "the same probabilities over the trades that are left");
}

/* Serial dependence: what it takes from the trades' count, and the figures without it. */
static void add_dependence(cJSON *l, const cJSON *st)
{
	const cJSON *ac = get(st, "autocorrelation");
	char b[64], p[32], d[32];

	stat_row(l, "Effective trades", rpt_fmt_num(get(st, "effective_trades") ? get(st, "effective_trades") :
						     get(ac, "effective_trades"), 1, b, sizeof b),
		 "how many independent trades the dependent ones are worth: the smaller of the trades over 1 + 2 x the "
		 "Bartlett-weighted autocorrelations and the sum of the trades' shares of the account when they overlap; "
		 "what the trades gate, the PSR, DSR and MinTRL count");
	snprintf(b, sizeof b, "%s / %s", rpt_fmt_num(get(ac, "trades_lag1"), 3, p, sizeof p),
		 rpt_fmt_num(get(ac, "bars_lag1"), 3, d, sizeof d));
	stat_row(l, "Lag-1 autocorrelation, trades / bars", b,
		 "how much each trade's (each bar's) net return follows the one before; 0 for independent ones");
	snprintf(b, sizeof b, "%s / %s", rpt_fmt_num(get(st, "psr_iid"), 3, p, sizeof p),
		 rpt_fmt_num(get(st, "dsr_iid"), 3, d, sizeof d));
	stat_row(l, "PSR / DSR if every trade were independent", b,
		 "as Bailey and Lopez de Prado publish them, counting every trade: higher when trades are dependent");
}

/* The annualised Sharpe ratio, and beside it the same scaled with Lo's (2002) correction. */
static void add_annualised(cJSON *l, const cJSON *st)
{
	const cJSON *lo = get(st, "sharpe_annualised_lo");
	char b[64], meaning[400], lags[48] = "";

	stat_row(l, "Sharpe ratio (annualised)", rpt_fmt_num(get(get(st, "sharpe_annualised"), "value"), 3, b, sizeof b),
		 sa_json_bool(get(st, "sharpe_annualised"), "lo_corrected", false) ?
		 "the Sharpe ratio of per-bar returns of compounded net equity, scaled for a year with Lo's (2002) "
		 "correction for dependent bars" :
		 "the Sharpe ratio of per-bar returns of compounded net equity, scaled by the square root of bars per "
		 "year; not Lo-corrected: that scaling assumes independent bars (Lo's correction is the next row)");
	if (rpt_is_num(get(lo, "lags")))  /* said only when measured */
		snprintf(lags, sizeof lags, " up to lag %.0f", sa_json_num(lo, "lags", 0));
	snprintf(meaning, sizeof meaning, "the same Sharpe ratio scaled for a year as Lo (2002) does for bars "
		 "that follow each other, from their autocorrelations%s: lower than the row above when "
		 "the bars' returns run in streaks, none when the correction is undefined", lags);
	stat_row(l, "Sharpe ratio (annualised, Lo-corrected)", rpt_fmt_num(get(lo, "value"), 3, b, sizeof b),
		 meaning);
}

/* The risk figures of stats.json (stats_metrics.h), as rows of the statistics table. */
static void add_risk_rows(cJSON *l, const cJSON *st)
{
	char b[64];

	stat_row(l, "Annual return (CAGR)", rpt_fmt_pct(get(st, "cagr"), 2, b, sizeof b),
		 "the yearly rate that compounds to the net equity ratio over the period");
	stat_row(l, "Volatility (annualised)", rpt_fmt_pct(get(st, "volatility_annualised"), 2, b, sizeof b),
		 "sample standard deviation of per-bar returns of compounded net equity, times the square root of bars "
		 "per year");
	stat_row(l, "VaR 95 % (per bar)", rpt_fmt_pct(get(st, "var_95"), 3, b, sizeof b),
		 "historical: one bar in twenty did this badly or worse (a loss is negative)");
	stat_row(l, "CVaR 95 % (per bar)", rpt_fmt_pct(get(st, "cvar_95"), 3, b, sizeof b),
		 "the mean of those worst bars: what a bad bar costs on average");
	stat_row(l, "Best bar", rpt_fmt_pct(get(st, "best_bar"), 3, b, sizeof b), "the largest per-bar net return");
	stat_row(l, "Worst bar", rpt_fmt_pct(get(st, "worst_bar"), 3, b, sizeof b), "the smallest per-bar net return");
	stat_row(l, "Omega ratio", rpt_fmt_num(get(st, "omega"), 3, b, sizeof b),
		 "the per-bar gains over the per-bar losses: above 1 gains outweigh losses");
	stat_row(l, "Tail ratio", rpt_fmt_num(get(st, "tail_ratio"), 3, b, sizeof b),
		 "the 95th percentile of per-bar returns over the magnitude of the 5th: below 1 the bad tail is the longer");
	stat_row(l, "Best day", rpt_fmt_pct(get(st, "best_day"), 2, b, sizeof b), "the best calendar day (UTC) of net equity");
	stat_row(l, "Worst day", rpt_fmt_pct(get(st, "worst_day"), 2, b, sizeof b), "the worst calendar day (UTC) of net equity");
	stat_row(l, "Best month", rpt_fmt_pct(get(st, "best_month"), 2, b, sizeof b), "the best calendar month of net equity");
	stat_row(l, "Worst month", rpt_fmt_pct(get(st, "worst_month"), 2, b, sizeof b), "the worst calendar month of net equity");
}

/* stats.json's long_short as one row per side. */
static void add_long_short(cJSON *o, const cJSON *st)
{
	static const char *const sides[] = { "long", "short" };
	cJSON *list = cJSON_AddArrayToObject(o, "long_short");
	char b[64];

	for (size_t k = 0; k < 2; k++) {
		const cJSON *s = get(get(st, "long_short"), sides[k]);
		cJSON *r = cJSON_CreateObject();
		cJSON_AddStringToObject(r, "side", sides[k]);
		cJSON_AddStringToObject(r, "trades", rpt_fmt_num(get(s, "trades"), 0, b, sizeof b));
		cJSON_AddStringToObject(r, "net_return", rpt_fmt_pct(get(s, "net_return"), 2, b, sizeof b));
		cJSON_AddStringToObject(r, "win_rate", rpt_fmt_pct(get(s, "win_rate"), 1, b, sizeof b));
		cJSON_AddStringToObject(r, "sharpe", rpt_fmt_num(get(s, "sharpe"), 4, b, sizeof b));
		cJSON_AddItemToArray(list, r);
	}
}

/* Each year's net return beside buy and hold's (stats.json yearly and yearly_benchmark). */
static void add_years(cJSON *o, const cJSON *st)
{
	cJSON *list = cJSON_AddArrayToObject(o, "years");
	const cJSON *y, *by;
	char b[64];

	cJSON_ArrayForEach(y, get(st, "yearly")) {
		const cJSON *bench = NULL;
		cJSON *r = cJSON_CreateObject();
		cJSON_ArrayForEach(by, get(st, "yearly_benchmark"))
			if (cJSON_IsNumber(get(by, "year")) && cJSON_IsNumber(get(y, "year")) &&
			    get(by, "year")->valuedouble == get(y, "year")->valuedouble)
				bench = get(by, "return");
		cJSON_AddStringToObject(r, "year", rpt_fmt_num(get(y, "year"), 0, b, sizeof b));
		cJSON_AddStringToObject(r, "strategy", rpt_fmt_pct(get(y, "return"), 2, b, sizeof b));
		cJSON_AddStringToObject(r, "benchmark", rpt_fmt_pct(bench, 2, b, sizeof b));
		cJSON_AddItemToArray(list, r);
	}
	cJSON_AddBoolToObject(o, "has_years", cJSON_GetArraySize(list) > 0);
}

/* Against the market, the tail and the overlap, one sentence each ("" when there is nothing). */
static void add_market_notes(cJSON *o, const cJSON *st)
{
	const cJSON *b = get(st, "benchmark_relative"), *t = get(st, "tail"), *ov = get(st, "overlap");
	char buf[700];

	if (cJSON_IsObject(b))
		sa_fmt(buf, sizeof buf, "Against the market: regressed bar by bar on the instrument's "
		       "returns, beta %.2f (t %.1f) and alpha %+.1f %% a year (t %.2f, Newey-West "
		       "errors); information ratio %.2f; %+.1f %% against holding it over the same bars.",
		       sa_json_num(b, "beta", NAN), sa_json_num(b, "beta_t", NAN),
		       100 * sa_json_num(b, "alpha_annualised", NAN), sa_json_num(b, "alpha_t", NAN),
		       sa_json_num(b, "information_ratio", NAN), 100 * sa_json_num(b, "excess_return", NAN));
	else
		sa_fmt(buf, sizeof buf, "Against the market: not measured, %s.",
		       sa_json_str(st, "benchmark_relative_reason", "no regression"));
	cJSON_AddStringToObject(o, "market", st ? buf : "");
	if (sa_json_bool(t, "unseen", false))
		sa_fmt(buf, sizeof buf, "The tail is unseen: %s.", sa_json_str(t, "reason", ""));
	else
		buf[0] = '\0';
	cJSON_AddStringToObject(o, "tail_note", buf);
	if (sa_json_num(ov, "trades_overlapping", 0) > 0)
		sa_fmt(buf, sizeof buf, "%.0f trades were open beside another, up to %.0f at once "
		       "(%.2fx the exposure of one account while in the market): they count as %.1f "
		       "independent trades, and the equity gives each its share of one account.",
		       sa_json_num(ov, "trades_overlapping", NAN), sa_json_num(ov, "max_concurrent", NAN),
		       sa_json_num(ov, "exposure_multiple", NAN), sa_json_num(ov, "effective_trades", NAN));
	else
		buf[0] = '\0';
	cJSON_AddStringToObject(o, "overlap_note", buf);
}

/* The prices the trades were filled at: the spread the bars imply, their staleness, the floor
 * on slippage, and the fills one bar later ("" when stats.json has none). */
static void add_prices_notes(cJSON *o, const cJSON *st)
{
	const cJSON *t = get(st, "tradeable_prices"), *b = get(st, "bounce");
	bool floored = sa_json_bool(t, "slippage_floored", false);
	char buf[900], tail[300];

	buf[0] = '\0';
	if (cJSON_IsObject(t)) {
		if (floored)
			sa_fmt(tail, sizeof tail, "raised from the %.3g bp configured to half that spread",
			       sa_json_num(t, "slippage_configured_bps", NAN));
		else
			sa_fmt(tail, sizeof tail, "as configured, at least half that spread");
		sa_fmt(buf, sizeof buf, "Tradeable prices: the bars imply a spread of %.3g bp (Roll %.3g, "
		       "Corwin-Schultz %.3g, Abdi-Ranaldo %.3g bp; the least of the three is taken); the "
		       "slippage charged is %.3g bp per side, %s. Lag-1 autocorrelation of the returns "
		       "%+.3f, %.2f %% of closes unchanged%s.",
		       1e4 * sa_json_num(t, "spread_estimate", NAN), 1e4 * sa_json_num(t, "roll_spread", NAN),
		       1e4 * sa_json_num(t, "corwin_schultz_spread", NAN),
		       1e4 * sa_json_num(t, "abdi_ranaldo_spread", NAN), sa_json_num(t, "slippage_bps", NAN),
		       tail, sa_json_num(t, "returns_lag1", NAN), 100 * sa_json_num(t, "zero_returns_share", NAN),
		       sa_json_bool(t, "stale", false) ? ": the prices are stale, closes that lag the market "
		       "are not prices anyone could trade at" : "");
	}
	cJSON_AddStringToObject(o, "prices_note", buf);
	buf[0] = '\0';
	if (cJSON_IsObject(b) && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(b, "one_bar_later_reason")))
		sa_fmt(buf, sizeof buf, "%s %+.2f %% as filled, %+.2f %% at the configured slippage; "
		       "one bar later: no figure, as %s.",
		       sa_json_bool(b, "inside_bounce", false) ? "Its edge lives inside one bar's bounce:" :
		       "Filled at the configured slippage:", 100 * sa_json_num(b, "net_return", NAN),
		       100 * sa_json_num(b, "net_return_configured_slippage", NAN),
		       sa_json_str(b, "one_bar_later_reason", ""));
	else if (cJSON_IsObject(b))
		sa_fmt(buf, sizeof buf, "%s %+.2f %% as filled, %+.2f %% with every fill one bar later, "
		       "%+.2f %% at the configured slippage.",
		       sa_json_bool(b, "inside_bounce", false) ? "Its edge lives inside one bar's bounce:" :
		       "Filled later or at the configured slippage:",
		       100 * sa_json_num(b, "net_return", NAN),
		       100 * sa_json_num(b, "net_return_one_bar_later", NAN),
		       100 * sa_json_num(b, "net_return_configured_slippage", NAN));
	cJSON_AddStringToObject(o, "bounce_note", buf);
	cJSON_AddBoolToObject(o, "inside_bounce", sa_json_bool(b, "inside_bounce", false));
}

void rpt_stats_model(cJSON *m, const struct rpt_input *in)
{
	const cJSON *st = rpt_stage_ok(in, RPT_STATS);
	char b[64], b95[400];
	cJSON *o = cJSON_AddObjectToObject(m, "stats");
	cJSON_AddBoolToObject(o, "present", st != NULL);
	cJSON *l = cJSON_AddArrayToObject(o, "rows");
	stat_row(l, "Trades", rpt_fmt_num(get(st, "trades"), 0, b, sizeof b), "closed trades the statistics rest on");
	stat_row(l, "Sharpe ratio (per trade)", rpt_fmt_num(get(st, "sharpe"), 4, b, sizeof b),
		 "mean net return per trade divided by its standard deviation");
	stat_row(l, "Sharpe ratio (per trade), 95 % interval", rpt_say_interval(st, b95, sizeof b95),
		 "where the per-trade Sharpe ratio lies in 95 of 100 resamples of the trades in blocks, "
		 "so runs of wins and losses stay together");
	add_annualised(l, st);
	stat_row(l, "PSR", rpt_fmt_num(get(st, "psr"), 3, b, sizeof b),
		 "probability that the true Sharpe ratio is above zero, given skew, kurtosis and the effective number of trades");
	stat_row(l, "DSR", rpt_fmt_num(get(st, "dsr"), 3, b, sizeof b),
		 "the same probability, deflated for how many variants were tried");
	add_dependence(l, st);
	stat_row(l, "Trials", rpt_fmt_num(get(st, "trials"), 0, b, sizeof b), "variants tried, as declared");
	stat_row(l, "SR* (expected best of the trials)", rpt_fmt_num(get(st, "sr0"), 4, b, sizeof b),
		 "the Sharpe ratio the best of that many luck-only variants would show");
	stat_row(l, "MinTRL", sa_json_num(st, "min_trl", NAN) < 10 ? "fewer than 10" :
		 rpt_fmt_num(get(st, "min_trl"), 1, b, sizeof b),
		 "trades needed before this Sharpe ratio is significant at 95 % (an asymptotic formula: "
		 "below 10 trades it says little)");
	stat_row(l, "Skew", rpt_fmt_num(get(st, "skew"), 3, b, sizeof b), "asymmetry of trade returns; negative means rare large losses");
	stat_row(l, "Kurtosis", rpt_fmt_num(get(st, "kurtosis"), 3, b, sizeof b), "fatness of the tails (3 for a normal distribution)");
	stat_row(l, "Net return (compounded)", rpt_fmt_pct(get(st, "net_return"), 2, b, sizeof b),
		 "final net equity - 1: each trade's return applied to the equity at its entry");
	stat_row(l, "Sum of per-trade net returns", rpt_fmt_pct(get(st, "sum_net_return"), 2, b, sizeof b),
		 "the plain sum, per trade, not what an account would hold");
	stat_row(l, "Ruined", !cJSON_IsBool(get(st, "ruined")) ? "n/a" : cJSON_IsTrue(get(st, "ruined")) ? "yes" : "no",
		 "whether compounded net equity reached zero (trading stops there)");
	stat_row(l, "Max drawdown", rpt_fmt_pct(get(st, "max_drawdown"), 2, b, sizeof b),
		 "deepest fall of compounded net equity from a peak, per bar (0 to 100 %)");
	add_concentration(l, get(st, "concentration"));
	stat_row(l, "Win rate", rpt_fmt_pct(get(st, "win_rate"), 1, b, sizeof b), "share of trades with a positive net return");
	stat_row(l, "Profit factor", rpt_fmt_num(get(st, "profit_factor"), 3, b, sizeof b), "net gains divided by net losses");
	stat_row(l, "Exposure", rpt_fmt_pct(get(st, "exposure"), 1, b, sizeof b), "share of bars with a position held");
	stat_row(l, "Average bars held", rpt_fmt_num(get(st, "avg_bars_held"), 1, b, sizeof b), "how long a trade lasts");
	add_risk_rows(l, st);
	add_long_short(o, st);
	add_years(o, st);
	add_market_notes(o, st);
	add_prices_notes(o, st);
}

/* The cost multiples' table, the figures as the costs chart labels them, the basis in words and
 * the break-even as the sentences and the chart print it. */
static void add_sensitivity(cJSON *o, const cJSON *st)
{
	cJSON *sens = cJSON_AddArrayToObject(o, "sensitivity");
	const cJSON *it;
	char b[64], said[320];

	cJSON_ArrayForEach(it, get(st, "cost_sensitivity")) {
		cJSON *r = cJSON_CreateObject();
		const cJSON *x = get(it, "multiple");
		cJSON_AddStringToObject(r, "multiple", rpt_fmt_multiple(rpt_is_num(x) ? x->valuedouble : NAN,
					b, sizeof b));
		rpt_add_num(r, "trades", it, "trades", 0);
		cJSON_AddStringToObject(r, "sharpe", rpt_fmt_row_sharpe(it, b, sizeof b));
		rpt_add_num(r, "psr", it, "psr", 3);
		cJSON_AddStringToObject(r, "net", rpt_fmt_row_net(it, b, sizeof b));
		cJSON_AddItemToArray(sens, r);
	}
	const char *basis = sa_json_str(st, "cost_basis", "");
	cJSON_AddStringToObject(o, "sensitivity_basis", !strcmp(basis, "replayed") ? "Each multiple "
		"is a replay of the signals with every cost scaled by it, so a path the account does "
		"not survive is ruined there (-100 %)." : !strcmp(basis, "rescaled") ? "The multiples "
		"rescale the costs of the trades as replayed (a trade log's are 0): a mark below zero "
		"inside a trade cannot be seen that way." : "");
	it = get(st, "breakeven_cost_multiple");
	cJSON_AddStringToObject(o, "breakeven", rpt_fmt_multiple(rpt_is_num(it) ? it->valuedouble : NAN,
				b, sizeof b));
	cJSON_AddStringToObject(o, "breakeven_said", !st ? "" : rpt_is_num(it) ? sa_fmt(said, sizeof said,
		"Break-even: %s the configured costs.", b) : sa_fmt(said, sizeof said, "No break-even: "
		"%s.", sa_json_str(get(st, "breakeven"), "reason", "none was computed")));
}

void rpt_costs_model(cJSON *m, const struct rpt_input *in)
{
	const cJSON *rp = rpt_stage_ok(in, RPT_REPLAY), *st = rpt_stage_ok(in, RPT_STATS);
	cJSON *o = cJSON_AddObjectToObject(m, "costs");
	cJSON_AddBoolToObject(o, "present", rp != NULL);
	add_text(o, "mode", rp, "mode");
	cJSON_AddBoolToObject(o, "trusted_returns", sa_json_bool(rp, "trusted_returns", false));
	rpt_add_pct(o, "gross_return", rp, "gross_return", 2);
	rpt_add_pct(o, "net_return", rp, "net_return", 2);
	rpt_add_pct(o, "fees", get(rp, "costs"), "fees", 2);
	rpt_add_pct(o, "slippage", get(rp, "costs"), "slippage", 2);
	rpt_add_pct(o, "funding", get(rp, "costs"), "funding", 2);
	rpt_add_pct(o, "borrow", get(rp, "costs"), "borrow", 2);
	add_text(o, "fee_bps", get(rp, "costs"), "fee_bps");
	add_text(o, "slippage_bps", get(rp, "costs"), "slippage_bps");
	add_text(o, "cost_source", get(rp, "costs"), "cost_source");
	cJSON_AddStringToObject(o, "price_step_warning",
				sa_json_str(get(rp, "costs"), "price_step_warning", ""));
	cJSON_AddStringToObject(o, "slippage_note",
				sa_json_str(get(rp, "costs"), "slippage_note", ""));
	cJSON_AddStringToObject(o, "account", sa_json_str(get(rp, "account"), "statement", ""));
	add_text(o, "market", get(rp, "costs"), "market");
	add_text(o, "market_reason", get(rp, "costs"), "market_reason");
	add_text(o, "note", rp, "note");
	add_sensitivity(o, st);
}
