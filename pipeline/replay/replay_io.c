/* replay_io.c - validating the replay stage's inputs and writing its three files. */
#include "replay_io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "fileio.h"
#include "jsonio.h"
#include "stagefile.h"
#include "msg.h"
#include "ohlcv_checks.h"
#include "replay_live.h"
#include "replay_log.h"
#include "signals.h"
#include "text.h"
#include "timeutil.h"

int rpl_read_signals(const cJSON *run, size_t n_bars, int8_t **signals, char *err,
		    size_t errlen)
{
	size_t used;

	if (da_run_signals(run, n_bars, DA_RUN_ENTRIES, signals, err, errlen) == 0)
		return 0;
	used = strlen(err);
	if (strncmp(err, "the strategy run did not finish", 31) == 0 || strncmp(err, "run.json has no", 15) == 0)
		snprintf(err + used, errlen - used, "; no signals to replay");
	return -1;
}

/* Adds t as an ISO-8601 string, or null when not known. */
static void add_time(cJSON *o, const char *key, bool known, int64_t t)
{
	char buf[21];

	if (known)
		cJSON_AddStringToObject(o, key, sa_time_format(t, buf));
	else
		cJSON_AddNullToObject(o, key);
}

/* Adds n with RPL_DIGITS significant digits. */
static void add_num(cJSON *o, const char *key, double x)
{
	sa_json_add_num(o, key, x, RPL_DIGITS);
}

/* Why the market is what it is, from the data when MARKET is unset. */
static const char *market_why(const struct rp_costs *c, const struct da_ohlcv *s, char *buf,
			      size_t len)
{
	if (c->market != RP_MARKET_AUTO)
		return "set by MARKET";
	if (!s)
		return "MARKET is unset and there are no bars to tell the market by";
	if (s->fmt.perpetual[0])
		return sa_fmt(buf, len, "the data says it is a perpetual future (%s)", s->fmt.perpetual);
	if (s->fmt.sessions)
		return "the bars keep weekday sessions (none on a Saturday or Sunday)";
	if (s->fmt.fx_week)
		return "the bars keep the FX week (from Sunday evening to Friday evening UTC, closed "
		       "on Saturday)";
	return "the bars run through weekends, around the clock, and nothing says perpetual (a "
	       "funding column, a -futures file name, or MARKET=perp)";
}

/* Why the market is what it is, and what it charges while a position is held. */
static void market_reason(const struct rp_costs *c, const struct da_ohlcv *s, enum rp_market m,
			  char *buf, size_t len)
{
	char held[200], perp[128];
	const char *why = market_why(c, s, perp, sizeof perp);

	if (m == RP_MARKET_PERP && c->funding_income)
		sa_fmt(held, sizeof held, "funding %g bp per 8 h held, signed: a long pays it, a short "
		       "receives it (FUNDING_INCOME=1); no borrow", c->funding_bps_8h);
	else if (m == RP_MARKET_PERP)
		sa_fmt(held, sizeof held, "funding %g bp per 8 h held, paid by either side, never "
		       "income; no borrow", fabs(c->funding_bps_8h));
	else if (m == RP_MARKET_FX && s && s->swap_long)
		sa_fmt(held, sizeof held, "rollover from the data's swap_long and swap_short columns, "
		       "bp a year by bar (not the knobs), a night at 17:00 New York (Wednesday's three; "
		       "in the funding column); no borrow");
	else if (m == RP_MARKET_FX)
		sa_fmt(held, sizeof held, "rollover %g bp a year for a long, %g for a short, a night "
		       "at 17:00 New York (Wednesday's three; in the funding column); no borrow",
		       c->swap_long_bps_year, c->swap_short_bps_year);
	else
		sa_fmt(held, sizeof held, "no funding, short borrow %g bp/year", c->borrow_bps_year);
	sa_fmt(buf, len, "%s: %s; %s", rp_market_name(m), why, held);
}

/* Where the fee and slippage figures come from: the knobs set, or market m's defaults. */
static void cost_source(const struct rp_costs *c, enum rp_market m, char *buf, size_t len)
{
	char up[8];
	const char *name = rp_market_name(m);
	size_t k;

	for (k = 0; name[k] && k + 1 < sizeof up; k++)
		up[k] = (char)(name[k] - 'a' + 'A');
	up[k] = '\0';
	if (!isnan(c->fee_bps) && !isnan(c->slippage_bps))
		sa_fmt(buf, len, "set by FEE_BPS and SLIPPAGE_BPS");
	else if (isnan(c->fee_bps) && isnan(c->slippage_bps))
		sa_fmt(buf, len, "%s's defaults, FEE_BPS_%s and SLIPPAGE_BPS_%s", name, up, up);
	else if (isnan(c->fee_bps))
		sa_fmt(buf, len, "the fee %s's default (FEE_BPS_%s), the slippage set by SLIPPAGE_BPS",
		       name, up);
	else
		sa_fmt(buf, len, "the fee set by FEE_BPS, the slippage %s's default (SLIPPAGE_BPS_%s)",
		       name, up);
}

/* The data's price step against the slippage modelled: half a step is the least a fill can
 * miss the quote by, so a slippage below it flatters the trades. */
static void add_price_step(cJSON *costs, const struct da_ohlcv *s, double slippage_bps)
{
	struct da_ohlcv_checks k;
	char text[400];

	da_ohlcv_check(s, INFINITY, &k);
	add_num(costs, "price_step_bps", k.price_step_bps);
	if (!(k.price_step_bps / 2 > slippage_bps))
		return;
	cJSON_AddStringToObject(costs, "price_step_warning", sa_fmt(text, sizeof text,
		"the prices move in steps of %.3g bp (%.10g at the median close): half a step, "
		"%.3g bp, is more than the %.3g bp of slippage modelled per side, so the fills are "
		"better than the tick allows (SLIPPAGE_BPS=%.3g models half a step)",
		k.price_step_bps, k.price_step, k.price_step_bps / 2, slippage_bps,
		k.price_step_bps / 2));
}

/* The slippage as configured beside the floor the bars' spread sets, and a sentence where the
 * floor is what was charged. */
static void add_floor(cJSON *costs, const struct rp_costs *c, enum rp_market m)
{
	struct rp_costs own = *c;
	double configured;
	char text[400];

	own.spread_floor_bps = 0.0;
	configured = rp_slippage_bps(&own, m);
	add_num(costs, "slippage_configured_bps", configured);
	add_num(costs, "slippage_floor_bps", c->spread_floor_bps);
	cJSON_AddBoolToObject(costs, "slippage_floored", c->spread_floor_bps > configured);
	if (c->spread_floor_bps > configured)
		cJSON_AddStringToObject(costs, "slippage_note", sa_fmt(text, sizeof text,
			"slippage %.3g bp per side, not the %.3g bp configured: half the spread the "
			"bars imply (the least of the Roll, Corwin-Schultz and Abdi-Ranaldo estimates, "
			"stats.json tradeable_prices), times SPREAD_FLOOR=%g; no fill is better than "
			"the quote", c->spread_floor_bps, configured, c->spread_floor));
}

/* A stock's minimum commission per order as bps of the stake, and a sentence where it is what
 * was charged. */
static void add_min_fee(cJSON *costs, const struct rp_costs *c)
{
	struct rp_costs own = *c;
	char text[300];

	own.min_fee_bps_stock = 0.0;
	add_num(costs, "fee_minimum_bps", c->min_fee_bps_stock);
	if (c->min_fee_bps_stock > rp_fee_bps(&own, RP_MARKET_STOCK))
		cJSON_AddStringToObject(costs, "fee_note", sa_fmt(text, sizeof text,
			"fee %.3g bp per side, not the %.3g bp configured: the minimum commission of an "
			"order (MIN_COMMISSION_STOCK) over its stake (STAKE)", c->min_fee_bps_stock,
			rp_fee_bps(&own, RP_MARKET_STOCK)));
}

static void add_costs(cJSON *o, const struct rpl_inputs *in, const struct rp_result *r)
{
	cJSON *costs = cJSON_AddObjectToObject(o, "costs");
	const struct rp_costs *c = in->costs;
	enum rp_market m = RP_MARKET_AUTO;

	if (c) {
		char why[400], src[160];

		m = in->data ? rp_market_of(c, in->data) : c->market;
		if (m == RP_MARKET_AUTO)
			m = RP_MARKET_PERP;
		market_reason(c, in->data, m, why, sizeof why);
		cost_source(c, m, src, sizeof src);
		cJSON_AddStringToObject(costs, "market", rp_market_name(m));
		cJSON_AddBoolToObject(costs, "market_from_calendar", c->market == RP_MARKET_AUTO);
		cJSON_AddStringToObject(costs, "market_reason", why);
		cJSON_AddStringToObject(costs, "cost_source", src);
		cJSON_AddBoolToObject(costs, "funding_income", c->funding_income);
		if (m == RP_MARKET_FX)
			cJSON_AddStringToObject(costs, "swap_source", in->data && in->data->swap_long ?
						"columns" : "knobs");
	}
	add_num(costs, "fee_bps", c ? rp_fee_bps(c, m) : NAN);
	add_num(costs, "slippage_bps", c ? rp_slippage_bps(c, m) : NAN);
	if (c)
		add_floor(costs, c, m);
	if (c && m == RP_MARKET_STOCK)
		add_min_fee(costs, c);
	add_num(costs, "funding_bps_8h", c ? c->funding_bps_8h : NAN);
	add_num(costs, "borrow_bps_year", c ? c->borrow_bps_year : NAN);
	add_num(costs, "fees", r->fees);
	add_num(costs, "slippage", r->slippage);
	add_num(costs, "funding", r->funding);
	add_num(costs, "borrow", r->borrow);
	add_num(costs, "total", r->fees + r->slippage + r->funding + r->borrow);
	if (c && in->data)
		add_price_step(costs, in->data, rp_slippage_bps(c, m));
}

/* Totals and counts every mode reports. */
static void add_totals(cJSON *o, const struct rpl_inputs *in, const struct rp_result *r)
{
	size_t bars = in->data ? in->data->n : 0;

	cJSON_AddNumberToObject(o, "bars", (double)bars);
	cJSON_AddNumberToObject(o, "trades", (double)r->n_trades);
	add_num(o, "gross_return", r->gross_return);
	add_num(o, "net_return", r->net_return);
	add_num(o, "sum_gross_return", r->sum_gross_return);
	add_num(o, "sum_net_return", r->sum_net_return);
	add_num(o, "mean_net_return", r->n_trades ? r->sum_net_return / (double)r->n_trades : NAN);
	cJSON_AddBoolToObject(o, "ruined", r->ruined);
	add_time(o, "ruin_time", r->ruined, r->ruin_time);
	add_costs(o, in, r);
	add_num(o, "units_traded", r->units_traded);
	cJSON_AddNumberToObject(o, "bars_in_market", (double)r->bars_in_market);
	add_num(o, "exposure", bars ? (double)r->bars_in_market / (double)bars : NAN);
	add_num(o, "turnover", bars ? r->units_traded / (double)bars : NAN);
	add_num(o, "bar_seconds", r->bar_seconds > 0 ? r->bar_seconds : NAN);
	cJSON_AddBoolToObject(o, "open_at_end", r->open_at_end);
	cJSON_AddNumberToObject(o, "equity_rows", (double)r->n_eq);
}

/* "exits" (the declaration replayed, as inspect.json has it, or null) and "exit_reasons", the
 * trades by why they closed (a trade log's trades under "unknown"). */
static void add_exits(cJSON *o, const struct rpl_inputs *in, const struct rp_result *r, bool sig)
{
	cJSON *by = cJSON_CreateObject();

	if (sig && in->exits && sa_json_bool(in->exits, "declared", false))
		cJSON_AddItemToObject(o, "exits", cJSON_Duplicate(in->exits, true));
	else
		cJSON_AddNullToObject(o, "exits");
	for (int k = RP_EXIT_SIGNAL; k < RP_EXIT_N; k++)
		cJSON_AddNumberToObject(by, rp_exit_reason_name(k), (double)r->exits[k]);
	cJSON_AddNumberToObject(by, "unknown", (double)r->exits[RP_EXIT_UNKNOWN]);
	cJSON_AddItemToObject(o, "exit_reasons", by);
}

static void add_pair(cJSON *o, const struct rpl_pair *p)
{
	if (p->line)
		cJSON_AddNumberToObject(o, "line", (double)p->line);
	else
		cJSON_AddNullToObject(o, "line");
	add_time(o, "entry_time", true, p->entry);
	add_time(o, "exit_time", true, p->exit);
	cJSON_AddStringToObject(o, "side", p->side > 0 ? "long" : "short");
	add_num(o, "claimed", p->claimed);
	add_num(o, "replayed", p->replayed);
	add_num(o, "gap", p->gap);
	add_time(o, "replay_exit_time", isfinite(p->replayed), p->replay_exit);
}

/* "the 2024-03-22 short": the day of a trade's entry and its side. */
static const char *trade_name(const struct rpl_pair *p, char *buf, size_t len)
{
	char t[21];

	sa_time_format(p->entry, t);
	return sa_fmt(buf, len, "%.10s %s", t, p->side > 0 ? "long" : "short");
}

/* The plain statements naming how the log departs from the code, one a reason; none when it
 * is consistent. Each goes into arr and its code into codes. */
static void say_lies(cJSON *arr, cJSON *codes, const struct rpl_reconcile *rc)
{
	char text[512], name[64], a[21], b[21];
	const struct rpl_pair *p;

	if (rc->gaps_over && rc->n_worst) {
		p = &rc->worst[0];
		cJSON_AddItemToArray(codes, cJSON_CreateString("return_gap"));
		sa_fmt(text, sizeof(text), "the log claims %+.1f %% on the %s (line %zu); the code's "
		       "honest replay makes %+.1f %%; %zu of %zu matched trades differ by more than "
		       "%.2g bp", 100 * p->claimed, trade_name(p, name, sizeof(name)), p->line,
		       100 * p->replayed, rc->gaps_over, rc->matched, 1e4 * rc->tolerance);
		cJSON_AddItemToArray(arr, cJSON_CreateString(text));
	}
	if (rc->matched >= 2 && fabs(rc->t_gap) >= 2 && fabs(rc->mean_gap) > rc->tolerance) {
		cJSON_AddItemToArray(codes, cJSON_CreateString("mean_gap"));
		sa_fmt(text, sizeof(text), "the log %s each trade by %.1f bp on average (t = %.1f, "
		       "%zu matched trades)", rc->mean_gap > 0 ? "overstates" : "understates",
		       1e4 * fabs(rc->mean_gap), rc->t_gap, rc->matched);
		cJSON_AddItemToArray(arr, cJSON_CreateString(text));
	}
	if (rc->claimed_only) {
		p = &rc->first_claimed_only;
		cJSON_AddItemToArray(codes, cJSON_CreateString("claimed_only"));
		sa_fmt(text, sizeof(text), "the log lists %zu trade%s the code never made (first: the "
		       "%s, line %zu, claiming %+.1f %%)", rc->claimed_only,
		       rc->claimed_only == 1 ? "" : "s", trade_name(p, name, sizeof(name)), p->line,
		       100 * p->claimed);
		cJSON_AddItemToArray(arr, cJSON_CreateString(text));
	}
	if (rc->replay_only) {
		p = &rc->first_replay_only;
		cJSON_AddItemToArray(codes, cJSON_CreateString("replay_only"));
		sa_fmt(text, sizeof(text), "the log leaves out %zu trade%s the code made (first: the "
		       "%s, %+.1f %% in the replay)", rc->replay_only, rc->replay_only == 1 ? "" : "s",
		       trade_name(p, name, sizeof(name)), 100 * p->replayed);
		cJSON_AddItemToArray(arr, cJSON_CreateString(text));
	}
	if (rc->exit_mismatches) {
		p = &rc->first_exit_mismatch;
		cJSON_AddItemToArray(codes, cJSON_CreateString("exit_mismatch"));
		sa_fmt(text, sizeof(text), "%zu exit%s in the log differ from the code's by more than "
		       "a bar (first: the %s, line %zu, exits %s in the log and %s in the replay)",
		       rc->exit_mismatches, rc->exit_mismatches == 1 ? "" : "s",
		       trade_name(p, name, sizeof(name)), p->line, sa_time_format(p->exit, a),
		       sa_time_format(p->replay_exit, b));
		cJSON_AddItemToArray(arr, cJSON_CreateString(text));
	}
}

/* The one paragraph the report and the verdict quote. */
static void add_statement(cJSON *j, const cJSON *lies, const struct rpl_reconcile *rc)
{
	char text[2048];
	size_t used;
	const cJSON *l;
	int k = 0;

	if (rc->consistent) {
		sa_fmt(text, sizeof(text), "The trade log agrees with the replay of the code trade by "
		       "trade: %zu trades matched one to one, exits within a bar, every return within "
		       "%.2g bp of the replay's net return. The statistics use the replay.",
		       rc->matched, 1e4 * rc->tolerance);
		goto out;
	}
	sa_fmt(text, sizeof(text), "The trade log does not match the code: ");
	cJSON_ArrayForEach(l, lies) {
		used = strlen(text);
		sa_fmt(text + used, sizeof(text) - used, "%s%s", k++ ? "; " : "", l->valuestring);
	}
	used = strlen(text);
	sa_fmt(text + used, sizeof(text) - used, ". The numbers support the replay, not the log; "
	       "the statistics use the replay.");
out:
	cJSON_AddStringToObject(j, "statement", text);
}

static void add_reconcile(cJSON *o, const struct rpl_reconcile *rc)
{
	cJSON *j = cJSON_AddObjectToObject(o, "reconcile");
	cJSON *worst, *lies, *codes;

	cJSON_AddNumberToObject(j, "claimed_trades", (double)rc->claimed_trades);
	cJSON_AddNumberToObject(j, "replay_trades", (double)rc->replay_trades);
	cJSON_AddNumberToObject(j, "matched", (double)rc->matched);
	cJSON_AddNumberToObject(j, "claimed_only", (double)rc->claimed_only);
	cJSON_AddNumberToObject(j, "replay_only", (double)rc->replay_only);
	cJSON_AddNumberToObject(j, "exit_mismatches", (double)rc->exit_mismatches);
	cJSON_AddNumberToObject(j, "gaps_over_tolerance", (double)rc->gaps_over);
	add_num(j, "tolerance_bps", 1e4 * rc->tolerance);
	add_num(j, "claimed_total", rc->claimed_total);
	add_num(j, "replay_total", rc->replay_total);
	add_num(j, "claimed_mean", rc->claimed_mean);
	add_num(j, "replay_mean", rc->replay_mean);
	add_num(j, "total_difference", rc->total_difference);
	add_num(j, "mean_gap", rc->mean_gap);
	add_num(j, "matched_mean_gap", rc->mean_gap);
	add_num(j, "sd_gap", rc->sd_gap);
	add_num(j, "t_gap", rc->t_gap);
	worst = cJSON_AddArrayToObject(j, "worst");
	for (size_t k = 0; k < rc->n_worst; k++) {
		cJSON *w = cJSON_CreateObject();
		add_pair(w, &rc->worst[k]);
		cJSON_AddItemToArray(worst, w);
	}
	cJSON_AddBoolToObject(j, "consistent", rc->consistent);
	cJSON_AddStringToObject(j, "supported_by_numbers", rc->consistent ? "both" : "replay");
	codes = cJSON_AddArrayToObject(j, "reasons");
	lies = cJSON_AddArrayToObject(j, "statements");
	say_lies(lies, codes, rc);
	add_statement(j, lies, rc);
}

/* Trades of the log that lie entirely outside the data's span: named in a note, not refused,
 * since a trade-log audit needs no data. */
static void add_out_of_span(cJSON *o, const struct da_tradelog *log, const struct da_ohlcv *s)
{
	int64_t first, end;
	size_t n = 0, line = 0;
	char text[256];

	if (!log || !s || s->n < 2)
		return;
	first = s->t[0];
	end = s->t[s->n - 1] + (s->t[s->n - 1] - s->t[s->n - 2]);
	for (size_t i = 0; i < log->n; i++)
		if (log->trades[i].exit <= first || log->trades[i].entry >= end) {
			if (n++ == 0)
				line = log->trades[i].line;
		}
	cJSON_AddNumberToObject(o, "tradelog_out_of_span", (double)n);
	if (n)
		cJSON_AddStringToObject(o, "tradelog_note", sa_fmt(text, sizeof(text),
			"%zu trade%s of the log lie entirely outside the data's span (first: line %zu); "
			"no replay can confirm them", n, n == 1 ? "" : "s", line));
}

/* freqtrade's max_drawdown_account on the account curve r (one row per exit time): the
 * cumulative profit's deepest fall below its running high (the high starting at the first
 * close), over the balance at that high. 0 when nothing fell. */
static double account_drawdown(const struct rp_result *r, double balance)
{
	double high = 0, worst = 0, at_high = 0;

	for (size_t k = 0; k < r->n_eq; k++) {
		double cum = (r->eq_net[k] - 1.0) * balance;

		if (k == 0 || cum > high)
			high = cum;
		if (cum - high < worst) {
			worst = cum - high;
			at_high = high;
		}
	}
	return worst < 0 ? -worst / (balance + at_high) : 0.0;
}

/* An account log's figures beside the ones its export states (freqtrade's profit_total and
 * max_drawdown_account), and the statement the report shows. */
static void add_account(cJSON *o, const struct da_tradelog *log, const struct rp_result *r)
{
	const struct da_account *a = &log->account;
	cJSON *j = cJSON_AddObjectToObject(o, "account");
	double profit = r->net_return, dd = account_drawdown(r, a->balance);
	char text[640], said[320] = "";

	add_num(j, "starting_balance", a->balance);
	cJSON_AddStringToObject(j, "balance_from", a->balance_from);
	cJSON_AddNumberToObject(j, "most_open", (double)a->most_open);
	add_num(j, "profit_total", profit);
	add_num(j, "max_drawdown_account", dd);
	add_num(j, "claimed_profit_total", a->claimed_profit_total);
	add_num(j, "claimed_max_drawdown_account", a->claimed_max_drawdown_account);
	if (!isnan(a->claimed_profit_total) || !isnan(a->claimed_max_drawdown_account))
		sa_fmt(said, sizeof said, "; the export itself says profit_total %+.2f %% and "
		       "max_drawdown_account %.2f %%", 100 * a->claimed_profit_total,
		       100 * a->claimed_max_drawdown_account);
	sa_fmt(text, sizeof text, "Scored as an account: balance %.10g (%s), up to %zu trades open at "
	       "once, each trade's profit a share of the account at its entry; here profit_total "
	       "%+.2f %% and max_drawdown_account %.2f %%%s", a->balance, a->balance_from,
	       a->most_open, 100 * profit, 100 * dd, said);
	cJSON_AddStringToObject(j, "statement", text);
}

/* A trade log scored on data the data must cover, from its first entry to its last exit, or
 * its benchmark would hold over other bars. Returns true (and fails o) when it does not. */
static bool refuse_uncovered(cJSON *o, const struct da_tradelog *log, const struct da_ohlcv *s)
{
	int64_t first = INT64_MAX, last = INT64_MIN, end;
	char a[21], b[21], c[21], d[21], reason[512];

	if (!log->n || s->n < 2)
		return false;
	for (size_t i = 0; i < log->n; i++) {
		first = log->trades[i].entry < first ? log->trades[i].entry : first;
		last = log->trades[i].exit > last ? log->trades[i].exit : last;
	}
	end = s->t[s->n - 1] + (s->t[s->n - 1] - s->t[s->n - 2]);
	if (first >= s->t[0] && last <= end)
		return false;
	sa_json_fail(o, sa_fmt(reason, sizeof reason, "the data (%s to %s) does not cover the trade "
		     "log (%s to %s): give DATA that holds the log's whole span, or leave DATA out to "
		     "score the log alone", sa_time_format(s->t[0], a), sa_time_format(end, b),
		     sa_time_format(first, c), sa_time_format(last, d)));
	return true;
}

/* Records why an input was set aside although the stage could go on without it. */
static void add_set_aside(cJSON *o, const char *key, const char *why)
{
	if (why && *why)
		cJSON_AddStringToObject(o, key, why);
}

/* The reason when nothing can be replayed: every input's own reason, joined. */
static void fail_nothing(cJSON *o, const struct rpl_inputs *in)
{
	char reason[1024];

	if (!in->costs)
		sa_fmt(reason, sizeof(reason), "%s", in->config_err);
	else if (!in->data && !in->log)
		sa_fmt(reason, sizeof(reason), "the data could not be loaded (%s)%s%s", in->data_err,
		       in->log_err && *in->log_err ? "; trade log: " : "", in->log_err ? in->log_err : "");
	else
		sa_fmt(reason, sizeof(reason), "nothing to replay: %s%s%s",
		       in->signals_err && *in->signals_err ? in->signals_err : "no strategy signals",
		       in->log_err && *in->log_err ? "; trade log: " : "",
		       in->log_err && *in->log_err ? in->log_err : "");
	sa_json_fail(o, reason);
}

static const char log_note[] =
	"Returns are the trade log's claims, trusted as given: costs cannot be verified because no "
	"code was replayed, so every figure is only as honest as the log.";
static const char live_note[] =
	"The signals scored are the live decisions, each bar decided with only the bars up to it "
	"(lookahead.json live.signals); the full-history backtest is replayed beside them with the "
	"same costs (backtest_equity.csv). Signals filled at the next bar's open, declared exits "
	"inside the bar; fees, slippage and the market's holding costs (a perp's funding, a short's "
	"borrow) charged per the cost model; positions open at the end closed at the last close.";

/* A class with per-trade callbacks (in->calls) replayed at settings its live run was not asked
 * at: the callbacks were told other profits (another fee), or answered for a trade this replay
 * does not hold (rp_result.calls_mismatch). Fails o with the sentence and returns true then. */
static bool calls_refused(cJSON *o, const struct rpl_inputs *in, const struct rp_result *r,
			  char *reason, size_t len)
{
	static const char knobs[] = "for a class with custom_stoploss or custom_exit the cost knobs "
		"(FEE_BPS and FEE_BPS_<MARKET>, SLIPPAGE_BPS, SPREAD_FLOOR, FUNDING_BPS_8H, "
		"BORROW_BPS_YEAR, MARKET) and the declared exits are run-side settings, so a change to "
		"them needs the live replay run again (remove lookahead.json)";
	double fee;

	if (!in->calls || !rpl_live_scored(in))
		return false;
	fee = rp_fee_bps(in->costs, r->market);
	if (fabs(fee - in->calls_fee_bps) > 1e-9)
		sa_fmt(reason, len, "the live run's per-trade callbacks were told profits at a fee of %g bp "
		       "a side, and this replay charges %g: %s", in->calls_fee_bps, fee, knobs);
	else if (r->calls_mismatch)
		sa_fmt(reason, len, "the live run's per-trade callbacks answered for a trade this replay "
		       "does not hold at bar %zu: %s", r->calls_mismatch_bar, knobs);
	else
		return false;
	sa_json_fail(o, reason);
	return true;
}

cJSON *rpl_stage(const struct rpl_inputs *in, struct rp_result *r, struct rp_result *backtest)
{
	cJSON *o = sa_sf_new(SA_SF_REPLAY);
	bool have_sig = in->costs && in->data && in->signals;
	bool have_log = in->costs && in->log;
	struct rpl_reconcile rec;
	const char *mode = have_sig && have_log ? "both" : have_sig ? "signals" : "tradelog";
	char reason[640];
	int rc = 0;

	memset(r, 0, sizeof(*r));
	memset(backtest, 0, sizeof(*backtest));
	if (!have_sig && !have_log) {
		fail_nothing(o, in);
		goto out;
	}
	if (have_sig && in->live_asked && in->live_state == DA_LIVE_ERROR) {
		sa_json_fail(o, sa_fmt(reason, sizeof reason, "the live decisions cannot be scored: %s",
				       in->live_err));
		goto out;
	}
	if (!have_sig && in->data && refuse_uncovered(o, in->log, in->data))
		goto out;
	if (have_sig)
		rc = rpl_replay_scored(in, r, backtest);
	else
		rc = rpl_from_log(in->log, in->data, r);
	if (rc < 0) {
		sa_json_fail(o, "out of memory during the replay");
		goto out;
	}
	if (calls_refused(o, in, r, reason, sizeof reason))
		goto out;
	cJSON_AddBoolToObject(o, "ok", true);
	cJSON_AddStringToObject(o, "mode", mode);
	cJSON_AddBoolToObject(o, "trusted_returns", !have_sig);
	cJSON_AddStringToObject(o, "equity_basis", have_sig ? "bar" : "trade");
	if (have_sig)
		rpl_add_live(o, in, r, backtest);
	add_totals(o, in, r);
	add_exits(o, in, r, have_sig);
	if (have_sig && have_log) {
		if (rpl_reconcile(in->log, r, in->reconcile_bps / 1e4, &rec) < 0) {
			cJSON_Delete(o);
			o = sa_sf_new(SA_SF_REPLAY);
			sa_json_fail(o, "out of memory during the reconciliation");
			goto out;
		}
		add_reconcile(o, &rec);
	}
	if (have_log && !have_sig && in->log->account.on)
		add_account(o, in->log, r);
	add_out_of_span(o, have_log ? in->log : NULL, in->data);
	if (!have_sig)
		add_set_aside(o, "signals_error", in->signals_err);
	if (!have_log)
		add_set_aside(o, "tradelog_error", in->log_err);
	if (!in->data)
		add_set_aside(o, "data_error", in->data_err);
	cJSON_AddStringToObject(o, "note", !have_sig ? log_note : rpl_live_scored(in) ? live_note :
		"Signals filled at the next bar's open, declared exits inside the bar; fees, slippage and the market's holding "
		"costs (a perp's funding, a short's borrow) charged per the cost model; positions "
		"open at the end closed at the last close.");
out:
	return o;
}

/* A number cell: empty when unknown. */
static void put_num(FILE *fp, double x)
{
	if (isfinite(x))
		fprintf(fp, "%.*g", RPL_DIGITS, x == 0 ? 0.0 : x);
}

static void put_time(FILE *fp, int64_t t)
{
	char buf[21];

	sa_csv_write_text(fp, sa_time_format(t, buf));
}

static void put_trade(FILE *fp, const struct rp_trade *t, const struct da_tags *tags)
{
	put_time(fp, t->entry);
	fputc(',', fp);
	put_time(fp, t->exit);
	fputc(',', fp);
	sa_csv_write_text(fp, t->side > 0 ? "long" : "short");
	fputc(',', fp);
	put_num(fp, t->entry_px);
	fputc(',', fp);
	put_num(fp, t->exit_px);
	fputc(',', fp);
	if (t->bars_held >= 0)
		fprintf(fp, "%ld", t->bars_held);
	const double v[] = { t->gross, t->fees, t->slippage, t->funding, t->borrow, t->net };
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		fputc(',', fp);
		put_num(fp, v[i]);
	}
	fprintf(fp, ",%d,", t->open_at_end ? 1 : 0);
	sa_csv_write_text(fp, rp_exit_reason_name(t->exit_reason));
	fputc(',', fp);
	sa_csv_write_text(fp, da_tag_name(tags, t->entry_tag));
	fputc(',', fp);
	sa_csv_write_text(fp, da_tag_name(tags, t->exit_tag));
	fputc('\n', fp);
}

int rpl_write_trades(const char *path, const struct rp_result *r, const struct da_tags *tags,
		     char *err, size_t errlen)
{
	struct sa_atomic a = { 0 };
	int rc = -1;

	if (sa_atomic_open(&a, path, err, errlen) < 0)
		goto out;
	fputs("entry_time,exit_time,side,entry_px,exit_px,bars_held,gross_return,fees,slippage,"
	      "funding,borrow,net_return,open_at_end,exit_reason,entry_tag,exit_tag\n", a.fp);
	for (size_t i = 0; i < r->n_trades; i++)
		put_trade(a.fp, &r->trades[i], tags);
	rc = sa_atomic_commit(&a, err, errlen);
out:
	sa_atomic_abort(&a);
	return rc;
}

int rpl_write_equity(const char *path, const struct rp_result *r, char *err, size_t errlen)
{
	struct sa_atomic a = { 0 };
	int rc = -1;

	if (sa_atomic_open(&a, path, err, errlen) < 0)
		goto out;
	fputs("time,position,gross_equity,net_equity\n", a.fp);
	for (size_t i = 0; i < r->n_eq; i++) {
		put_time(a.fp, r->eq_time[i]);
		fprintf(a.fp, ",%d,", r->eq_pos[i]);
		put_num(a.fp, r->eq_gross[i]);
		fputc(',', a.fp);
		put_num(a.fp, r->eq_net[i]);
		fputc('\n', a.fp);
	}
	rc = sa_atomic_commit(&a, err, errlen);
out:
	sa_atomic_abort(&a);
	return rc;
}
