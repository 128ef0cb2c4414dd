/* stats_tearsheet.c - benchmark, drawdown episodes, calendar returns, rolling Sharpe, late
 * fills, cost break-even, the bootstrap interval and trade statistics, into stats.json. */
#include "stats_tearsheet.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "csvtable.h"
#include "jsonio.h"
#include "stats_annual.h"
#include "stats_core.h"
#include "stats_rerun.h"
#include "timeutil.h"

#define SECONDS_PER_YEAR (365.25 * 86400.0)
#define NO_END ((size_t)-1)

static void add_num(cJSON *o, const char *key, double x)
{
	sa_json_add_num(o, key, x, ST_DIGITS);
}

static void add_time(cJSON *o, const char *key, int64_t t)
{
	char buf[21];

	cJSON_AddStringToObject(o, key, sa_time_format(t, buf));
}

/* --- drawdown episodes ------------------------------------------------------------------- */

struct episodes {
	struct sts_episode *v;
	size_t n, cap;
};

static int push_episode(struct episodes *e, const struct sts_episode *x)
{
	if (e->n == e->cap) {
		size_t cap = e->cap ? 2 * e->cap : 64;
		void *p = realloc(e->v, cap * sizeof(*e->v));
		if (!p)
			return -1;
		e->v = p;
		e->cap = cap;
	}
	e->v[e->n++] = *x;
	return 0;
}

/* Deepest first; the earlier episode first among equals, so the order is reproducible. */
static int by_depth(const void *a, const void *b)
{
	const struct sts_episode *x = a, *y = b;

	if (x->depth != y->depth)
		return x->depth < y->depth ? 1 : -1;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* Closes the open episode ep at row end (NO_END: the data ran out at row last). */
static void close_episode(struct sts_episode *ep, double peak, double low, size_t end, size_t last)
{
	/* The same expression as the maximum drawdown's, so the deepest depth equals it exactly. */
	ep->depth = (peak - low) / peak;
	ep->end = end;
	ep->bars = (end == NO_END ? last : end) - ep->start;
}

static int push_closed(struct episodes *e, struct sts_episode *ep, double peak, double low,
		       size_t end, size_t last)
{
	close_episode(ep, peak, low, end, last);
	return push_episode(e, ep);
}

size_t sts_drawdown_episodes(double start_eq, const double *eq, size_t n, struct sts_episode *out,
			    size_t max)
{
	struct episodes all = { 0 };
	struct sts_episode cur = { 0 };
	double peak = start_eq, low = start_eq;
	size_t peak_at = 0, got = 0;
	bool open = false;

	for (size_t i = 0; i < n && peak > 0; i++) {
		double x = eq[i];
		if (x >= peak) {
			if (open && push_closed(&all, &cur, peak, low, i, n - 1) < 0)
				goto out;
			open = false;
			peak = low = x;
			peak_at = i;
		} else if (!open) {
			cur = (struct sts_episode){ .start = peak_at, .trough = i };
			low = x;
			open = true;
		} else if (x < low) {
			low = x;
			cur.trough = i;
		}
	}
	if (open && push_closed(&all, &cur, peak, low, NO_END, n - 1) < 0)
		goto out;
	if (all.n)
		qsort(all.v, all.n, sizeof(*all.v), by_depth);
	got = all.n < max ? all.n : max;
	if (got)
		memcpy(out, all.v, got * sizeof(*out));
out:
	free(all.v);
	return got;
}

static void add_drawdowns(cJSON *o, const struct sts_tearsheet_in *in)
{
	struct sts_episode ep[STS_N_EPISODES];
	size_t n = sts_drawdown_episodes(1.0, in->eq_net, in->n_eq, ep, STS_N_EPISODES);
	cJSON *arr = cJSON_AddArrayToObject(o, "drawdowns");

	for (size_t k = 0; k < n; k++) {
		cJSON *row = cJSON_CreateObject();
		add_time(row, "start", in->eq_time[ep[k].start]);
		add_time(row, "trough", in->eq_time[ep[k].trough]);
		if (ep[k].end == NO_END)
			cJSON_AddNullToObject(row, "end");
		else
			add_time(row, "end", in->eq_time[ep[k].end]);
		add_num(row, "depth", ep[k].depth);
		cJSON_AddNumberToObject(row, "bars", (double)ep[k].bars);
		cJSON_AddItemToArray(arr, row);
	}
	if (n == 0)
		cJSON_AddStringToObject(o, "drawdowns_note", "net equity never fell below its running peak");
}

/* --- calendar returns -------------------------------------------------------------------- */

static int month_key(int64_t t, int *year)
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	*year = tm.tm_year + 1900;
	return *year * 12 + tm.tm_mon;
}

/* One return per calendar month (UTC) and per year: the net equity at the period's last row
 * over the previous period's (the first over the starting equity). */
static void add_calendar(cJSON *o, const struct sts_tearsheet_in *in)
{
	cJSON *months = cJSON_AddArrayToObject(o, "monthly");
	cJSON *years = cJSON_AddArrayToObject(o, "yearly");
	double prev_m = 1.0, prev_y = 1.0;
	char key[16];

	for (size_t i = 0; i < in->n_eq; i++) {
		int y, y_next = 0;
		int m = month_key(in->eq_time[i], &y);
		bool last = i + 1 == in->n_eq;
		int m_next = last ? -1 : month_key(in->eq_time[i + 1], &y_next);
		double eq = in->eq_net[i];
		if (m != m_next) {
			cJSON *row = cJSON_CreateObject();
			snprintf(key, sizeof(key), "%04d-%02d", y, m % 12 + 1);
			cJSON_AddStringToObject(row, "month", key);
			add_num(row, "return", prev_m > 0 ? eq / prev_m - 1.0 : NAN);
			cJSON_AddItemToArray(months, row);
			prev_m = eq;
		}
		if (last || y != y_next) {
			cJSON *row = cJSON_CreateObject();
			cJSON_AddNumberToObject(row, "year", y);
			add_num(row, "return", prev_y > 0 ? eq / prev_y - 1.0 : NAN);
			cJSON_AddItemToArray(years, row);
			prev_y = eq;
		}
	}
}

/* --- rolling Sharpe ---------------------------------------------------------------------- */

size_t sts_rolling_window(long long knob, size_t n)
{
	size_t w = knob > 0 ? (size_t)knob : n / 4;

	return w < 2 ? 2 : w;
}

static int add_rolling(cJSON *o, const struct sts_tearsheet_in *in)
{
	cJSON *r = cJSON_AddObjectToObject(o, "rolling_sharpe");
	size_t w = sts_rolling_window(in->rolling_knob, in->n_eq), defined = 0, above = 0;
	double lo = INFINITY, hi = -INFINITY, last = NAN;
	double *v = NULL;
	int rc = -1;

	cJSON_AddNumberToObject(r, "window", (double)w);
	cJSON_AddStringToObject(r, "basis", "the Sharpe ratio of the window's per-bar returns of "
				"compounded net equity (as sharpe_annualised), times sqrt(bars per year); "
				"none after a ruin bar, nor for a window whose standard deviation is at or "
				"below 1e-12");
	if (!in->eq_per_bar || !isfinite(in->annual_factor) || in->n_eq < w) {
		cJSON_AddStringToObject(r, "note", "needs one equity row per bar, a known bar "
					"spacing and at least one full window");
		rc = 0;
		goto out;
	}
	v = malloc(in->n_eq * sizeof(*v));
	if (!v)
		goto out;
	if (st_rolling_annual(in->eq_net, in->n_eq, w, in->annual_factor, v, NULL) < 0)
		goto out;
	for (size_t i = 0; i < in->n_eq; i++) {
		if (!isfinite(v[i]))
			continue;
		defined++;
		above += v[i] > 0;
		lo = fmin(lo, v[i]);
		hi = fmax(hi, v[i]);
		last = v[i];
	}
	add_num(r, "min", defined ? lo : NAN);
	add_num(r, "max", defined ? hi : NAN);
	add_num(r, "last", last);
	add_num(r, "share_positive", defined ? (double)above / (double)defined : NAN);
	rc = 0;
out:
	free(v);
	return rc;
}

/* --- benchmark --------------------------------------------------------------------------- */

int sts_benchmark_replay(const struct da_ohlcv *s, const struct rp_costs *c, struct rp_result *r)
{
	int8_t *sig = NULL;
	struct rp_costs hold = *c;
	int rc = -1;

	/* buy and hold crosses the spread once, at the cost model as configured */
	hold.spread_floor_bps = 0.0;
	memset(r, 0, sizeof(*r));
	if (s->n < 2)
		goto out;
	sig = malloc(s->n);
	if (!sig)
		goto out;
	/* Long from the first signal on: filled at bar 1's open, closed at the last close; held,
	 * whatever exits the strategy declares. */
	memset(sig, 1, s->n);
	hold.exits = NULL;
	rc = rp_replay(s, sig, &hold, r);
out:
	free(sig);
	return rc;
}

/* The annualised Sharpe ratio of a curve's per-bar returns (st_curve_annual), or NAN. */
static double curve_sharpe(const double *eq, size_t n, double factor)
{
	struct st_annual a;

	return st_curve_annual(eq, n, factor, &a) < 0 ? NAN : a.sharpe;
}

static int add_benchmark(cJSON *o, const struct sts_tearsheet_in *in)
{
	struct rp_result r;
	cJSON *b;

	if (!in->data) {
		cJSON_AddNullToObject(o, "benchmark");
		cJSON_AddStringToObject(o, "benchmark_note", in->data_err && *in->data_err ?
					in->data_err : "no price data was given to the statistics");
		return 0;
	}
	if (sts_benchmark_replay(in->data, &in->costs, &r) < 0)
		return -1;
	b = cJSON_AddObjectToObject(o, "benchmark");
	cJSON_AddStringToObject(b, "basis", "long from bar 1's open to the last close, paying the "
				"same fees, slippage and holding costs as a long");
	add_num(b, "gross_return", in->data->close[in->data->n - 1] / in->data->open[1] - 1.0);
	add_num(b, "net_return", r.net_return);
	add_num(b, "max_drawdown", st_max_drawdown(1.0, r.eq_net, r.n_eq));
	add_num(b, "sharpe_annualised", curve_sharpe(r.eq_net, r.n_eq, in->annual_factor));
	add_num(b, "excess_return", in->net_return - r.net_return);
	rp_result_release(&r);
	return 0;
}

/* --- late fills ---------------------------------------------------------------------- */

static const int delays[STS_N_DELAYS] = { 1, 2, 3, 5 };

/* One row of delay_sensitivity: every row on one basis, the replay's compounded net return
 * (-1 at ruin) and the Sharpe ratio of its per-trade net returns. */
static void delay_row(cJSON *arr, int d, const struct sts_rerun *x)
{
	cJSON *row = cJSON_CreateObject();

	cJSON_AddNumberToObject(row, "delay_bars", d);
	if (x->unanswered)
		cJSON_AddNullToObject(row, "trades");
	else
		cJSON_AddNumberToObject(row, "trades", (double)x->trades);
	add_num(row, "sharpe", x->sharpe);
	add_num(row, "net_return", x->net_return);
	cJSON_AddBoolToObject(row, "ruined", x->ruined);
	if (x->unanswered)
		cJSON_AddStringToObject(row, "reason", STS_UNANSWERED);
	cJSON_AddItemToArray(arr, row);
}

static int add_delays(cJSON *o, const struct sts_tearsheet_in *in)
{
	/* t+1 is the replay already done: the headline, from the same trades.csv and equity.csv */
	struct sts_rerun x = { .trades = in->n_trades, .sharpe = in->sharpe,
			      .net_return = in->net_return, .ruined = in->ruined };
	cJSON *arr;

	if (!in->data || !in->signals) {
		cJSON_AddNullToObject(o, "delay_sensitivity");
		cJSON_AddStringToObject(o, "delay_note", !in->data ? "no price data was given to the "
			"statistics" : in->signals_err && *in->signals_err ? in->signals_err :
			"no signals to replay later");
		return 0;
	}
	arr = cJSON_AddArrayToObject(o, "delay_sensitivity");
	if (in->costs.calls)
		cJSON_AddStringToObject(o, "delay_note", STS_UNANSWERED);
	delay_row(arr, delays[0], &x);
	/* A fill at the open of bar t+d is the replay of the signals moved d-1 bars later: the
	 * replay core's own next-bar fill does the rest, with the same costs. */
	for (size_t k = 1; k < STS_N_DELAYS; k++) {
		if (sts_rerun(in->data, in->signals, &in->costs, (size_t)(delays[k] - 1), 1.0, &x) < 0)
			return -1;
		delay_row(arr, delays[k], &x);
	}
	return 0;
}

/* --- costs, interval, trades -------------------------------------------------------------- */

/* Why there is no break-even without the prices and the signals to replay. */
static const char *breakeven_unreplayed(const struct sts_tearsheet_in *in)
{
	double costs = 0.0;

	for (size_t i = 0; i < in->n_trades; i++)
		costs += in->trades[i].fees + in->trades[i].slippage + in->trades[i].funding +
			 in->trades[i].borrow;
	if (!(costs > 0))
		return "the trades paid no costs, so scaling them changes nothing";
	if (!in->data)
		return "no price data was given to the statistics, so nothing could be replayed at "
		       "other costs";
	return "no signals to replay at other costs";
}

/* breakeven_cost_multiple: the multiple of the whole cost model at which the re-replayed
 * compounded net return is zero (sts_breakeven), and breakeven, how it was found. */
static int add_breakeven(cJSON *o, const struct sts_tearsheet_in *in)
{
	struct sts_breakeven be = { .multiple = NAN, .lo = NAN, .hi = NAN };
	cJSON *b;

	if (!in->data || !in->signals)
		be.reason = breakeven_unreplayed(in);
	else if (sts_breakeven(in->data, in->signals, &in->costs, &be) < 0)
		return -1;
	add_num(o, "breakeven_cost_multiple", be.multiple);
	b = cJSON_AddObjectToObject(o, "breakeven");
	add_num(b, "multiple", be.multiple);
	cJSON_AddStringToObject(b, "basis", "the multiple k of every cost (fees, slippage, funding, "
				"borrow) at which a replay at k times the costs ends at zero compounded "
				"net return; bracketed (0 to 1, or doubling from 1) and bisected, each "
				"step a replay");
	add_num(b, "tolerance", STS_BE_TOL);
	add_num(b, "lo", be.lo);
	add_num(b, "hi", be.hi);
	cJSON_AddNumberToObject(b, "replays", (double)be.replays);
	cJSON_AddBoolToObject(b, "at_ruin", isfinite(be.multiple) && be.at_ruin);
	if (be.reason)
		cJSON_AddStringToObject(b, "reason", be.reason);
	else
		cJSON_AddNullToObject(b, "reason");
	return 0;
}

/* Why the bootstrap gives no interval, or NULL when it gives one. */
static const char *no_interval(size_t n, int rc, const struct sts_boot *b, char *buf, size_t len)
{
	if (n < STS_BOOT_MIN_TRADES)
		snprintf(buf, len, "too few trades for an interval: %zu, at least %d needed", n,
			 STS_BOOT_MIN_TRADES);
	else if (rc < 0)
		snprintf(buf, len, "the bootstrap could not run");
	else if (b->lo == b->hi)
		snprintf(buf, len, "every resample gives the same Sharpe ratio: the trades do not "
			 "vary enough for an interval");
	else
		return NULL;
	return buf;
}

/* One end of the interval: its value, or null with "<key>_unbounded" true when it is infinite
 * (the resamples with no spread reach it). */
static void add_end(cJSON *ci, const char *key, double x, bool shown)
{
	char name[32];

	add_num(ci, key, shown ? x : NAN);
	snprintf(name, sizeof name, "%s_unbounded", key);
	cJSON_AddBoolToObject(ci, name, shown && isinf(x));
}

static int add_interval(cJSON *o, const struct sts_tearsheet_in *in)
{
	cJSON *ci = cJSON_AddObjectToObject(o, "sharpe_ci95"), *flat;
	size_t n = in->n_trades, block = sts_bootstrap_block(n);
	double *x = malloc((n ? n : 1) * sizeof(*x));
	struct sts_boot b;
	const char *why;
	char buf[160];
	int rc;

	if (!x)
		return -1;
	for (size_t i = 0; i < n; i++)
		x[i] = in->trades[i].net;
	rc = sts_bootstrap_sharpe(x, n, block, in->seed, STS_BOOT_RESAMPLES, &b);
	why = no_interval(n, rc, &b, buf, sizeof buf);
	add_end(ci, "lo", b.lo, !why);
	add_end(ci, "hi", b.hi, !why);
	if (why)
		cJSON_AddStringToObject(ci, "reason", why);
	else
		cJSON_AddNullToObject(ci, "reason");
	cJSON_AddStringToObject(ci, "method", "stationary block bootstrap of per-trade net returns");
	cJSON_AddNumberToObject(ci, "block_length", (double)block);
	cJSON_AddNumberToObject(ci, "resamples", STS_BOOT_RESAMPLES);
	cJSON_AddNumberToObject(ci, "seed", (double)in->seed);
	cJSON_AddNumberToObject(ci, "min_trades", STS_BOOT_MIN_TRADES);
	flat = cJSON_AddObjectToObject(ci, "no_spread");
	cJSON_AddNumberToObject(flat, "negative", (double)b.flat_negative);
	cJSON_AddNumberToObject(flat, "zero", (double)b.flat_zero);
	cJSON_AddNumberToObject(flat, "positive", (double)b.flat_positive);
	cJSON_AddStringToObject(ci, "no_spread_rule", "every resample counts: one whose trades all "
				"return the same has Sharpe -infinity when they lose (the worst), "
				"+infinity when they gain, 0 when they are flat");
	free(x);
	return 0;
}

static int by_entry(const void *a, const void *b)
{
	const struct rp_trade *x = a, *y = b;

	return x->entry < y->entry ? -1 : x->entry > y->entry;
}

struct trade_tally {
	size_t wins, losses, held_w, held_l, run, best_w, best_l;
	double sum_w, sum_l, bars_w, bars_l, big_w, big_l, down2, sum;
	int last;  /* +1 after a win, -1 after a loss */
};

static void tally(struct trade_tally *k, const struct rp_trade *t)
{
	int sign = t->net > 0 ? 1 : -1;

	k->sum += t->net;
	k->run = sign == k->last ? k->run + 1 : 1;
	k->last = sign;
	if (sign > 0) {
		k->wins++;
		k->sum_w += t->net;
		k->big_w = fmax(k->big_w, t->net);
		k->best_w = k->run > k->best_w ? k->run : k->best_w;
		if (t->bars_held >= 0) {
			k->bars_w += (double)t->bars_held;
			k->held_w++;
		}
		return;
	}
	k->losses++;
	k->sum_l += t->net;
	k->big_l = fmin(k->big_l, t->net);
	k->down2 += t->net * t->net;
	k->best_l = k->run > k->best_l ? k->run : k->best_l;
	if (t->bars_held >= 0) {
		k->bars_l += (double)t->bars_held;
		k->held_l++;
	}
}

static double ratio(double a, size_t b)
{
	return b ? a / (double)b : NAN;
}

/* Compound annual growth of the net curve over the years it spans, or NAN. */
static double cagr(const struct sts_tearsheet_in *in)
{
	double years;

	if (in->n_eq == 0 || !(in->eq_net[in->n_eq - 1] > 0))
		return NAN;
	if (in->eq_per_bar && in->bar_seconds > 0)
		years = (double)in->n_eq * in->bar_seconds / SECONDS_PER_YEAR;
	else
		years = (double)(in->eq_time[in->n_eq - 1] - in->eq_time[0]) / SECONDS_PER_YEAR;
	return years > 0 ? pow(in->eq_net[in->n_eq - 1], 1.0 / years) - 1.0 : NAN;
}

static int add_trade_stats(cJSON *o, const struct sts_tearsheet_in *in)
{
	struct trade_tally k = { .big_w = -INFINITY, .big_l = INFINITY };
	struct rp_trade *t = malloc((in->n_trades ? in->n_trades : 1) * sizeof(*t));
	size_t n = in->n_trades;
	cJSON *ts;
	double growth;

	if (!t)
		return -1;
	if (n)
		memcpy(t, in->trades, n * sizeof(*t));
	qsort(t, n, sizeof(*t), by_entry);  /* streaks run in the order trades were taken */
	for (size_t i = 0; i < n; i++)
		tally(&k, &t[i]);
	free(t);
	ts = cJSON_AddObjectToObject(o, "trade_stats");
	add_num(ts, "avg_win", ratio(k.sum_w, k.wins));
	add_num(ts, "avg_loss", ratio(k.sum_l, k.losses));
	add_num(ts, "largest_win", k.wins ? k.big_w : NAN);
	add_num(ts, "largest_loss", k.losses ? k.big_l : NAN);
	cJSON_AddNumberToObject(ts, "longest_win_streak", (double)k.best_w);
	cJSON_AddNumberToObject(ts, "longest_loss_streak", (double)k.best_l);
	add_num(ts, "avg_bars_win", ratio(k.bars_w, k.held_w));
	add_num(ts, "avg_bars_loss", ratio(k.bars_l, k.held_l));
	/* win rate * average win + loss rate * average loss, which is the mean net return */
	add_num(ts, "expectancy", ratio(k.sum, n));
	add_num(o, "sortino", n && k.down2 > 0 ? (k.sum / (double)n) / sqrt(k.down2 / (double)n) : NAN);
	growth = cagr(in);
	add_num(o, "cagr", growth);
	add_num(o, "calmar", in->max_drawdown > 0 ? growth / in->max_drawdown : NAN);
	return 0;
}

int sts_tearsheet(cJSON *o, const struct sts_tearsheet_in *in)
{
	if (add_benchmark(o, in) < 0)
		return -1;
	add_drawdowns(o, in);
	add_calendar(o, in);
	if (add_rolling(o, in) < 0 || add_delays(o, in) < 0 || add_breakeven(o, in) < 0)
		return -1;
	if (add_interval(o, in) < 0 || add_trade_stats(o, in) < 0)
		return -1;
	return 0;
}

/* --- equity.csv's times ------------------------------------------------------------------ */

struct times_arg {
	int64_t *t;
	size_t n, cap;
	struct sa_time_cache cache;
};

static int time_row(struct sa_csv_table *tb, void *arg)
{
	struct times_arg *a = arg;

	if (a->n == a->cap) {
		sa_csv_table_fail(tb, "more rows than the net_equity column holds");
		return -1;
	}
	if (sa_time_parse_cached(tb->vals[0], &a->t[a->n], &a->cache) < 0) {
		sa_csv_table_fail(tb, "time is not an ISO-8601 UTC time");
		return -1;
	}
	a->n++;
	return 0;
}

int sts_parse_equity_times(const char *buf, size_t len, size_t n, int64_t **times, char *err,
			  size_t errlen)
{
	static const char *const cols[] = { "time" };
	struct times_arg a = { .t = malloc((n ? n : 1) * sizeof(int64_t)), .cap = n };
	struct sa_csv_table tb = { .pos = { .file = "equity.csv", .err = err, .errlen = errlen },
			    .want = cols, .n_want = 1, .row = time_row, .arg = &a };
	int rc = -1;

	*times = NULL;
	if (!a.t) {
		snprintf(err, errlen, "equity.csv: out of memory");
		goto out;
	}
	if (sa_csv_table_parse(&tb, buf, len) < 0)
		goto out;
	*times = a.t;
	a.t = NULL;
	rc = 0;
out:
	free(a.t);
	return rc;
}
