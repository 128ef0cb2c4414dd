/* report_tearsheet.c - benchmark, drawdown episodes, calendar returns, late fills, cost
 * break-even and trade statistics: the curves the charts need, read from the stats stage's
 * benchmark.csv and rolling.csv, and the page's tables. */
#include "report_tearsheet.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonio.h"
#include "msg.h"
#include "report_fmt.h"
#include "report_live.h"

static const cJSON *get(const cJSON *obj, const char *key)
{
	return cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
}

static double num(const cJSON *obj, const char *key)
{
	const cJSON *v = get(obj, key);

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* The buy and hold curve of benchmark.csv (the stats stage's), when it has rows. */
static int load_bench(struct rpt_extra *x, const struct rpt_input *in)
{
	const struct rpt_table *tb = &in->curve[RPT_BENCHMARK];
	size_t n = tb->rows ? tb->rows - 1 : 0;
	char err[160];

	if (n == 0)
		return 0;
	x->bench.t = malloc(n * sizeof *x->bench.t);
	x->bench.net = malloc(n * sizeof *x->bench.net);
	if (!x->bench.t || !x->bench.net)
		return -1;
	if (rpt_table_times(tb, "time", x->bench.t, err, sizeof err) == 0 &&
	    rpt_table_nums(tb, "net_equity", x->bench.net, err, sizeof err) == 0)
		x->bench.n = n;
	return 0;
}

/* The rolling Sharpe ratio and volatility of rolling.csv, one value an equity row. */
static int load_rolling(struct rpt_extra *x, const struct rpt_input *in)
{
	const struct rpt_table *tb = &in->curve[RPT_ROLLING];
	char err[160];

	if (!tb->rows || tb->rows - 1 != in->equity.n) {
		sa_fmt(x->rolling_why, sizeof(x->rolling_why), "rolling.csv %s", in->curve_reason[RPT_ROLLING][0] ?
		       in->curve_reason[RPT_ROLLING] : "does not hold one row an equity row");
		return 0;
	}
	x->rolling = malloc(in->equity.n * sizeof(*x->rolling));
	x->rolling_vol = malloc(in->equity.n * sizeof(*x->rolling_vol));
	if (!x->rolling || !x->rolling_vol)
		return -1;
	if (rpt_table_nums(tb, "rolling_sharpe", x->rolling, err, sizeof err) ||
	    rpt_table_nums(tb, "rolling_volatility", x->rolling_vol, err, sizeof err)) {
		sa_fmt(x->rolling_why, sizeof(x->rolling_why), "rolling.csv %s", err);
		free(x->rolling);
		free(x->rolling_vol);
		x->rolling = x->rolling_vol = NULL;
	}
	return 0;
}

int rpt_extra_build(struct rpt_extra *x, const struct rpt_input *in)
{
	const cJSON *roll;
	int rc = -1;

	memset(x, 0, sizeof(*x));
	x->stats = rpt_stage_ok(in, RPT_STATS);
	x->breakeven = num(x->stats, "breakeven_cost_multiple");
	x->sharpe_annualised = num(get(x->stats, "sharpe_annualised"), "value");
	if (load_bench(x, in) < 0)
		goto out;
	roll = get(x->stats, "rolling_sharpe");
	x->window = (size_t)fmax(0, num(roll, "window"));
	if (!x->stats || x->window < 2 || get(roll, "note") || in->equity.n < x->window) {
		sa_fmt(x->rolling_why, sizeof(x->rolling_why), "%s", cJSON_IsString(get(roll, "note")) ?
		       get(roll, "note")->valuestring : "no rolling Sharpe window in stats.json");
	} else if (load_rolling(x, in) < 0) {
		goto out;
	}
	x->volatility_annualised = num(x->stats, "volatility_annualised");
	if (rpt_live_backtest(in, &x->backtest, x->live_why, sizeof x->live_why) == 0 &&
	    in->equity_reason[0])
		sa_fmt(x->live_why, sizeof x->live_why, "%s", in->equity_reason);
	rc = 0;
out:
	if (rc < 0)
		rpt_extra_release(x);
	return rc;
}

void rpt_extra_release(struct rpt_extra *x)
{
	rpt_series_release(&x->bench);
	rpt_series_release(&x->backtest);
	free(x->rolling);
	free(x->rolling_vol);
	memset(x, 0, sizeof(*x));
}

/* --- sentences ----------------------------------------------------------------------------- */

/* "+117.42 %" or "-33.90 %": as the benchmark table prints it, the sign always shown. */
static char *signed_pct(const cJSON *v, char *buf, size_t len)
{
	char b[48];

	rpt_fmt_pct(v, 2, b, sizeof b);  /* the benchmark table's decimals */
	snprintf(buf, len, "%s%s", b[0] != '-' && strcmp(b, "0.00 %") ? "+" : "", b);
	return buf;
}

char *rpt_say_benchmark(const cJSON *stats, char *buf, size_t len)
{
	const cJSON *b = get(stats, "benchmark");
	double hold = num(b, "net_return"), made = num(stats, "net_return");
	char a[64], c[64];

	buf[0] = '\0';
	if (isfinite(hold) && isfinite(made))
		snprintf(buf, len, "Holding the instrument from the first fill to the last close would "
			 "have made %s after the same costs; the strategy made %s, %s.",
			 signed_pct(get(b, "net_return"), a, sizeof a),
			 signed_pct(get(stats, "net_return"), c, sizeof c),
			 made > hold ? "so it beat simply holding" : "so simply holding did at least as well");
	return buf;
}

char *rpt_say_delay(const cJSON *stats, char *buf, size_t len)
{
	const cJSON *rows = get(stats, "delay_sensitivity"), *first, *last;
	double s1, s5;
	char a[32], b[32], c[48];

	buf[0] = '\0';
	if (cJSON_GetArraySize(rows) < 2)
		return buf;
	first = cJSON_GetArrayItem(rows, 0);
	last = cJSON_GetArrayItem(rows, cJSON_GetArraySize(rows) - 1);
	s1 = num(first, "sharpe");
	s5 = num(last, "sharpe");
	if (!isfinite(s1) || !isfinite(s5))
		return buf;
	/* the figures as the table and the chart print them */
	snprintf(buf, len, "Filled %.0f bars late instead of one, the Sharpe ratio per trade goes from "
		 "%s to %s and the compounded net return to %s: %s.", num(last, "delay_bars"),
		 rpt_fmt_row_sharpe(first, a, sizeof a), rpt_fmt_row_sharpe(last, b, sizeof b),
		 rpt_fmt_row_net(last, c, sizeof c),
		 sa_json_bool(last, "ruined", false) ? "late, the account does not survive" :
		 s5 >= 0.8 * s1 ? "the edge does not hang on filling at the very next open" :
		 s5 > 0 ? "a late fill costs much of the edge, so execution speed matters" :
		 "a late fill erases the edge: it lives only in the next bar");
	return buf;
}

char *rpt_say_breakeven(const cJSON *stats, char *buf, size_t len)
{
	const cJSON *info = get(stats, "breakeven");
	double be = num(stats, "breakeven_cost_multiple");
	bool ruin = sa_json_bool(info, "at_ruin", false);
	char m[32];

	if (!stats) {
		buf[0] = '\0';
		return buf;
	}
	rpt_fmt_multiple(be, m, sizeof m);
	if (!isfinite(be))
		snprintf(buf, len, "No cost break-even: %s.", sa_json_str(info, "reason",
			 "the trades paid no costs, so scaling them changes nothing"));
	else if (be > 1)
		snprintf(buf, len, "The edge survives up to %s the configured costs (fees, slippage "
			 "and holding costs scaled together, each multiple replayed); beyond that %s.",
			 m, ruin ? "the account is ruined: a close marks its equity at zero" :
			 "the compounded net return is negative");
	else
		snprintf(buf, len, "The edge does not survive its own costs: %s at %s the "
			 "configured costs.", ruin ? "the account is ruined" :
			 "the compounded net return reaches zero", m);
	return buf;
}

/* One end of the interval in words: its figure, or "-inf" / "+inf" when unbounded. */
static const char *interval_end(const cJSON *ci, const char *key, char *buf, size_t len)
{
	char name[32];
	double x = num(ci, key);

	snprintf(name, sizeof name, "%s_unbounded", key);
	if (sa_json_bool(ci, name, false))
		snprintf(buf, len, "%s", key[0] == 'l' ? "-inf" : "+inf");
	else
		snprintf(buf, len, "%.4f", x);
	return buf;
}

char *rpt_say_interval(const cJSON *stats, char *buf, size_t len)
{
	const cJSON *ci = get(stats, "sharpe_ci95"), *flat = get(ci, "no_spread");
	const char *why = sa_json_str(ci, "reason", NULL);
	double neg = num(flat, "negative"), pos = num(flat, "positive");
	char lo[32], hi[32];

	if (why) {
		snprintf(buf, len, "no interval: %s", why);
		return buf;
	}
	if (!ci || !(isfinite(num(ci, "lo")) || sa_json_bool(ci, "lo_unbounded", false))) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	snprintf(buf, len, "%s to %s (95 %%, stationary block bootstrap, mean block %.0f trades, "
		 "%.0f resamples, every one counted", interval_end(ci, "lo", lo, sizeof lo),
		 interval_end(ci, "hi", hi, sizeof hi), num(ci, "block_length"), num(ci, "resamples"));
	if (neg > 0 || pos > 0)
		snprintf(buf + strlen(buf), len - strlen(buf), "; with no spread, %.0f lost (Sharpe -inf) "
			 "and %.0f gained (+inf)", neg, pos);
	snprintf(buf + strlen(buf), len - strlen(buf), ")");
	return buf;
}

/* --- tables -------------------------------------------------------------------------------- */

static void add_str(cJSON *o, const char *key, const char *s)
{
	cJSON_AddStringToObject(o, key, s);
}

static void pct_cell(cJSON *o, const char *key, const cJSON *v, int dec)
{
	char b[48];

	add_str(o, key, rpt_fmt_pct(v, dec, b, sizeof b));
}

static void bench_row(cJSON *arr, const char *label, const cJSON *st, const cJSON *b,
		      const char *key, bool pct)
{
	cJSON *r = cJSON_CreateObject();
	char x[48];
	const cJSON *sv = strcmp(key, "sharpe_annualised") ? get(st, key) :
			  get(get(st, key), "value");

	add_str(r, "label", label);
	add_str(r, "strategy", pct ? rpt_fmt_pct(sv, 2, x, sizeof x) : rpt_fmt_num(sv, 3, x, sizeof x));
	add_str(r, "benchmark", pct ? rpt_fmt_pct(get(b, key), 2, x, sizeof x) :
		rpt_fmt_num(get(b, key), 3, x, sizeof x));
	cJSON_AddItemToArray(arr, r);
}

static void add_benchmark(cJSON *t, const cJSON *st)
{
	const cJSON *b = get(st, "benchmark");
	cJSON *rows = cJSON_AddArrayToObject(t, "benchmark");
	char s[400];

	if (!cJSON_IsObject(b))
		return;
	bench_row(rows, "gross return", st, b, "gross_return", true);
	bench_row(rows, "net return", st, b, "net_return", true);
	bench_row(rows, "max drawdown", st, b, "max_drawdown", true);
	bench_row(rows, "Sharpe ratio (annualised, not Lo-corrected)", st, b, "sharpe_annualised", false);
	pct_cell(t, "excess_return", get(b, "excess_return"), 2);
	add_str(t, "benchmark_sentence", rpt_say_benchmark(st, s, sizeof s));
}

static void add_drawdowns(cJSON *t, const cJSON *st)
{
	cJSON *rows = cJSON_AddArrayToObject(t, "drawdowns");
	const cJSON *ep;
	int k = 0;
	char b[48];

	cJSON_ArrayForEach(ep, get(st, "drawdowns")) {
		cJSON *r = cJSON_CreateObject();
		cJSON_AddNumberToObject(r, "rank", ++k);
		add_str(r, "start", sa_json_str(ep, "start", "?"));
		add_str(r, "trough", sa_json_str(ep, "trough", "?"));
		add_str(r, "end", sa_json_str(ep, "end", "not recovered"));
		pct_cell(r, "depth", get(ep, "depth"), 2);
		add_str(r, "bars", rpt_fmt_num(get(ep, "bars"), 0, b, sizeof b));
		cJSON_AddItemToArray(rows, r);
	}
}

/* A colour class by sign and size: p1..p3 gains, n1..n3 losses, z for none. */
static const char *shade(double r)
{
	double a = fabs(r);

	if (!isfinite(r) || a < 5e-5)
		return "z";
	if (r > 0)
		return a < 0.01 ? "p1" : a < 0.05 ? "p2" : "p3";
	return a < 0.01 ? "n1" : a < 0.05 ? "n2" : "n3";
}

static cJSON *year_row(cJSON *years, int year)
{
	cJSON *y = cJSON_CreateObject(), *months = cJSON_AddArrayToObject(y, "months");

	cJSON_AddNumberToObject(y, "year", year);
	for (int m = 0; m < 12; m++) {
		cJSON *c = cJSON_CreateObject();
		add_str(c, "ret", "");
		add_str(c, "cls", "z");
		cJSON_AddItemToArray(months, c);
	}
	add_str(y, "total", "");
	add_str(y, "total_cls", "z");
	cJSON_AddItemToArray(years, y);
	return y;
}

static void set_cell(cJSON *cell, const char *rkey, const char *ckey, const cJSON *v)
{
	char b[48];

	cJSON_ReplaceItemInObject(cell, rkey, cJSON_CreateString(rpt_fmt_pct(v, 1, b, sizeof b)));
	cJSON_ReplaceItemInObject(cell, ckey, cJSON_CreateString(shade(cJSON_IsNumber(v) ?
				  v->valuedouble : NAN)));
}

static void add_monthly(cJSON *t, const cJSON *st)
{
	cJSON *years = cJSON_AddArrayToObject(t, "years"), *cur = NULL;
	const cJSON *it;
	int cur_year = -1;

	cJSON_ArrayForEach(it, get(st, "monthly")) {
		int y, m;
		if (sscanf(sa_json_str(it, "month", ""), "%4d-%2d", &y, &m) != 2 || m < 1 || m > 12)
			continue;
		if (y != cur_year) {
			cur = year_row(years, y);
			cur_year = y;
		}
		set_cell(cJSON_GetArrayItem(get(cur, "months"), m - 1), "ret", "cls", get(it, "return"));
	}
	cJSON_ArrayForEach(it, get(st, "yearly")) {
		const cJSON *y;
		cJSON_ArrayForEach(y, years)
			if (num(y, "year") == num(it, "year"))
				set_cell((cJSON *)y, "total", "total_cls", get(it, "return"));
	}
}

static void add_delays(cJSON *t, const cJSON *st)
{
	cJSON *rows = cJSON_AddArrayToObject(t, "delay");
	const cJSON *it;
	char b[400];

	cJSON_ArrayForEach(it, get(st, "delay_sensitivity")) {
		cJSON *r = cJSON_CreateObject();
		snprintf(b, sizeof b, "t+%.0f%s", num(it, "delay_bars"),
			 num(it, "delay_bars") == 1 ? " (the audit's own)" : "");
		add_str(r, "delay", b);
		add_str(r, "trades", rpt_fmt_num(get(it, "trades"), 0, b, sizeof b));
		add_str(r, "sharpe", rpt_fmt_row_sharpe(it, b, sizeof b));
		add_str(r, "net", rpt_fmt_row_net(it, b, sizeof b));
		cJSON_AddItemToArray(rows, r);
	}
	add_str(t, "delay_sentence", rpt_say_delay(st, b, sizeof b));
	add_str(t, "delay_note", sa_json_str(st, "delay_note", ""));
}

#define RPT_ROLLING_MIN_TRADES 5  /* trades a rolling window holds on average, at least */

static void trade_row(cJSON *rows, const char *label, const char *value, const char *meaning)
{
	cJSON *r = cJSON_CreateObject();

	add_str(r, "label", label);
	add_str(r, "value", value);
	add_str(r, "meaning", meaning);
	cJSON_AddItemToArray(rows, r);
}

/* "median 12; middle half 4 to 30; all 1 to 96" of a trade_durations spread, or "n/a". */
static const char *say_spread(const cJSON *d, int dec, char *buf, size_t len)
{
	char md[32], lo[32], hi[32], mn[32], mx[32];

	if (!cJSON_IsObject(d))
		return sa_fmt(buf, len, "n/a");
	return sa_fmt(buf, len, "median %s; middle half %s to %s; all %s to %s",
		      rpt_fmt_num(get(d, "median"), dec, md, sizeof md), rpt_fmt_num(get(d, "p25"), dec, lo, sizeof lo),
		      rpt_fmt_num(get(d, "p75"), dec, hi, sizeof hi), rpt_fmt_num(get(d, "min"), dec, mn, sizeof mn),
		      rpt_fmt_num(get(d, "max"), dec, mx, sizeof mx));
}

/* quantstats' figures (stats.json kelly, ulcer_index, recovery_factor, trade_durations). */
static void add_quant_rows(cJSON *rows, const cJSON *st)
{
	const cJSON *d = get(st, "trade_durations");
	char b[160];

	trade_row(rows, "Kelly fraction", rpt_fmt_pct(get(st, "kelly"), 1, b, sizeof b),
		  "the share of the account a trade would stake to grow it fastest, from the win rate and "
		  "the mean win over the mean loss (quantstats' rule); above zero the trades have an edge, "
		  "and a full Kelly stake is far riskier than its estimate's error allows");
	trade_row(rows, "Ulcer index", rpt_fmt_pct(get(st, "ulcer_index"), 2, b, sizeof b),
		  "the root mean square of net equity's falls from its peak: how deep and how long the "
		  "drawdowns are, together");
	trade_row(rows, "Recovery factor", rpt_fmt_num(get(st, "recovery_factor"), 2, b, sizeof b),
		  "the compounded net return over the max drawdown: how many times over the worst fall "
		  "was made back");
	trade_row(rows, "Trade length, bars", say_spread(get(d, "bars"), 0, b, sizeof b),
		  "bars each trade was held: the median, the middle half, and the shortest to the longest");
	trade_row(rows, "Trade length, hours", say_spread(get(d, "hours"), 1, b, sizeof b),
		  "hours from each trade's entry to its exit, the same way");
}

static void add_trade_stats(cJSON *t, const cJSON *st)
{
	const cJSON *ts = get(st, "trade_stats");
	cJSON *rows = cJSON_AddArrayToObject(t, "trade_stats");
	char b[48];

	trade_row(rows, "Average win", rpt_fmt_pct(get(ts, "avg_win"), 3, b, sizeof b), "mean net return of the winning trades");
	trade_row(rows, "Average loss", rpt_fmt_pct(get(ts, "avg_loss"), 3, b, sizeof b), "mean net return of the losing trades");
	trade_row(rows, "Largest win", rpt_fmt_pct(get(ts, "largest_win"), 3, b, sizeof b), "the best single trade");
	trade_row(rows, "Largest loss", rpt_fmt_pct(get(ts, "largest_loss"), 3, b, sizeof b), "the worst single trade");
	trade_row(rows, "Longest winning streak", rpt_fmt_num(get(ts, "longest_win_streak"), 0, b, sizeof b), "wins in a row, in the order trades were opened");
	trade_row(rows, "Longest losing streak", rpt_fmt_num(get(ts, "longest_loss_streak"), 0, b, sizeof b), "losses in a row: how long the bad runs are to sit through");
	trade_row(rows, "Bars held, winners", rpt_fmt_num(get(ts, "avg_bars_win"), 1, b, sizeof b), "how long a winning trade lasts");
	trade_row(rows, "Bars held, losers", rpt_fmt_num(get(ts, "avg_bars_loss"), 1, b, sizeof b), "how long a losing trade lasts");
	trade_row(rows, "Expectancy", rpt_fmt_pct(get(ts, "expectancy"), 3, b, sizeof b), "what a trade makes on average, after costs");
	trade_row(rows, "Sortino ratio (per trade)", rpt_fmt_num(get(st, "sortino"), 3, b, sizeof b), "mean net return over the downside deviation: only losses count as risk");
	trade_row(rows, "Calmar ratio", rpt_fmt_num(get(st, "calmar"), 3, b, sizeof b), "compound annual growth of net equity over the max drawdown");
	add_quant_rows(rows, st);
}

/* Whether the rolling Sharpe ratio is drawn ("rolling"): a trade log scored alone has no bars
 * to roll a window over, and a window holding fewer than RPT_ROLLING_MIN_TRADES trades on
 * average gives a Sharpe ratio that swings on each one; then "rolling_note" says so instead,
 * "rolling_section" whether the heading is there at all. */
static void add_rolling(cJSON *t, const cJSON *st, const cJSON *rp)
{
	double bars = sa_json_num(rp, "bars", 0), trades = sa_json_num(st, "trades", 0);
	double window = sa_json_num(get(st, "rolling_sharpe"), "window", NAN);
	double per = bars > 0 && isfinite(window) ? trades * window / bars : NAN;
	bool drawn = bars > 0 && !(per < RPT_ROLLING_MIN_TRADES);
	char b[400];

	cJSON_AddBoolToObject(t, "rolling", drawn);
	cJSON_AddBoolToObject(t, "rolling_section", bars > 0);
	if (drawn || !(bars > 0))
		return;
	sa_fmt(b, sizeof b, "The rolling Sharpe ratio is not drawn: its window of %.0f bars holds %.1f "
	       "trade%s on average (%.0f trade%s over %.0f bars), too few for a Sharpe ratio that does "
	       "not swing on each one; at least %d a window are wanted.", window, per,
	       per == 1 ? "" : "s", trades, trades == 1 ? "" : "s", bars, RPT_ROLLING_MIN_TRADES);
	cJSON_AddStringToObject(t, "rolling_note", b);
}

void rpt_tearsheet_model(cJSON *m, const struct rpt_input *in)
{
	const cJSON *st = rpt_stage_ok(in, RPT_STATS);
	cJSON *t = cJSON_AddObjectToObject(m, "tearsheet");
	char b[400];

	cJSON_AddBoolToObject(t, "present", st != NULL);
	cJSON_AddBoolToObject(m, "tearsheet_present", st != NULL);
	if (!st)
		return;
	add_benchmark(t, st);
	add_drawdowns(t, st);
	add_monthly(t, st);
	add_delays(t, st);
	add_trade_stats(t, st);
	add_str(t, "breakeven_sentence", rpt_say_breakeven(st, b, sizeof b));
	add_str(t, "sharpe_ci95", rpt_say_interval(st, b, sizeof b));
	add_str(t, "rolling_window", rpt_fmt_num(get(get(st, "rolling_sharpe"), "window"), 0, b, sizeof b));
	add_rolling(t, st, rpt_stage_ok(in, RPT_REPLAY));
}
