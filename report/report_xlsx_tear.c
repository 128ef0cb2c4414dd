/* report_xlsx_tear.c - the tearsheet's sheets of report.xlsx: the same numbers as stats.json,
 * which the page formats, one table a sheet (report_xlsx_book.h). */
#include "report_xlsx_book.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonio.h"
#include "msg.h"
#include "report_fmt.h"

static const cJSON *get(const cJSON *o, const char *k)
{
	return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, k) : NULL;
}

/* One row of a shared table from the JSON object it, each cell in its kind's format. */
static void json_row(const struct rpt_book *b, lxw_worksheet *ws, int r, const struct rpt_col *t, int n,
		     const cJSON *it)
{
	for (int c = 0; c < n; c++)
		rpt_xlsx_json(ws, r, c, get(it, t[c].column), rpt_xlsx_cell_format(b, t[c].cell));
}

static void write_drawdowns(struct rpt_book *b, const cJSON *st)
{
	lxw_worksheet *ws = rpt_xlsx_table_sheet(b, "Drawdowns", rpt_drawdown_cols, RPT_DRAWDOWN_COLS);
	const cJSON *ep;
	int r = 1;

	cJSON_ArrayForEach(ep, get(st, "drawdowns")) {
		worksheet_write_number(ws, (lxw_row_t)r, 0, r, NULL);
		rpt_xlsx_time(b, ws, r, 1, sa_json_str(ep, "start", ""));
		rpt_xlsx_time(b, ws, r, 2, sa_json_str(ep, "trough", ""));
		if (cJSON_IsString(get(ep, "end")))
			rpt_xlsx_time(b, ws, r, 3, get(ep, "end")->valuestring);
		else
			worksheet_write_string(ws, (lxw_row_t)r, 3, "not recovered", b->bad);
		rpt_xlsx_json(ws, r, 4, get(ep, "depth"), b->pct);
		rpt_xlsx_json(ws, r, 5, get(ep, "bars"), NULL);
		r++;
	}
	rpt_xlsx_filter(ws, r - 1, RPT_DRAWDOWN_COLS);
}

static void write_monthly(struct rpt_book *b, const cJSON *st)
{
	static const char *const heads[] = { "month", "return" };
	static const double widths[] = { 10, 12 };
	lxw_worksheet *ws = rpt_xlsx_sheet(b, "Monthly", heads, 2, widths);
	const cJSON *it;
	int r = 1;

	cJSON_ArrayForEach(it, get(st, "monthly")) {
		rpt_xlsx_text(ws, r, 0, sa_json_str(it, "month", ""), NULL);
		rpt_xlsx_json(ws, r++, 1, get(it, "return"), b->pct);
	}
	rpt_xlsx_filter(ws, r - 1, 2);
}

/* Sheet Yearly: each year's net return beside buy and hold's (stats.json yearly and
 * yearly_benchmark). */
static void write_yearly(struct rpt_book *b, const cJSON *st)
{
	static const char *const heads[] = { "year", "strategy", "buy_and_hold" };
	static const double widths[] = { 8, 12, 13 };
	lxw_worksheet *ws = rpt_xlsx_sheet(b, "Yearly", heads, 3, widths);
	const cJSON *it, *by;
	int r = 1;

	cJSON_ArrayForEach(it, get(st, "yearly")) {
		const cJSON *bench = NULL;
		cJSON_ArrayForEach(by, get(st, "yearly_benchmark"))
			if (cJSON_IsNumber(get(by, "year")) && cJSON_IsNumber(get(it, "year")) &&
			    get(by, "year")->valuedouble == get(it, "year")->valuedouble)
				bench = get(by, "return");
		rpt_xlsx_json(ws, r, 0, get(it, "year"), NULL);
		rpt_xlsx_json(ws, r, 1, get(it, "return"), b->pct);
		rpt_xlsx_json(ws, r++, 2, bench, b->pct);
	}
	rpt_xlsx_filter(ws, r - 1, 3);
}

/* Sheet Long short: each side's trades, as stats.json long_short has them. */
static void write_sides(struct rpt_book *b, const cJSON *st)
{
	static const char *const heads[] = { "side", "trades", "net_return", "win_rate", "sharpe" };
	static const double widths[] = { 8, 8, 12, 10, 10 };
	static const char *const sides[] = { "long", "short" };
	lxw_worksheet *ws = rpt_xlsx_sheet(b, "Long short", heads, 5, widths);

	for (int k = 0; ws && k < 2; k++) {
		const cJSON *sd = get(get(st, "long_short"), sides[k]);
		worksheet_write_string(ws, (lxw_row_t)k + 1, 0, sides[k], NULL);
		rpt_xlsx_json(ws, k + 1, 1, get(sd, "trades"), NULL);
		rpt_xlsx_json(ws, k + 1, 2, get(sd, "net_return"), b->pct);
		rpt_xlsx_json(ws, k + 1, 3, get(sd, "win_rate"), b->pct);
		rpt_xlsx_json(ws, k + 1, 4, get(sd, "sharpe"), b->num);
	}
	rpt_xlsx_filter(ws, 2, 5);
}

static void write_delay(struct rpt_book *b, const cJSON *st)
{
	lxw_worksheet *ws = rpt_xlsx_table_sheet(b, "Delay", rpt_delay_cols, RPT_DELAY_COLS);
	const cJSON *it;
	int r = 1;

	cJSON_ArrayForEach(it, get(st, "delay_sensitivity"))
		json_row(b, ws, r++, rpt_delay_cols, RPT_DELAY_COLS, it);
	if (r == 1)  /* no late fill was replayed: the note why, as the table's one row */
		rpt_xlsx_text(ws, r++, 0, sa_json_str(st, "delay_note", "stats.json is missing or failed"), NULL);
	rpt_xlsx_filter(ws, r - 1, RPT_DELAY_COLS);
}

/* Sheets Costs (each cost multiple's row) and Cost basis (what a multiple of 1 is, and the
 * break-even multiple in the decimals the page prints it with, or why there is none). */
static void write_costs(struct rpt_book *b, const cJSON *st)
{
	lxw_worksheet *ws = rpt_xlsx_table_sheet(b, "Costs", rpt_cost_cols, RPT_COST_COLS);
	const cJSON *it, *be = get(st, "breakeven_cost_multiple");
	lxw_format *mf = workbook_add_format(b->wb);
	struct rpt_kv kv;
	char fmt[32];
	int r = 1;

	if (!ws)
		return;
	cJSON_ArrayForEach(it, get(st, "cost_sensitivity"))
		json_row(b, ws, r++, rpt_cost_cols, RPT_COST_COLS, it);
	rpt_xlsx_filter(ws, r - 1, RPT_COST_COLS);
	if (rpt_xlsx_kv_open(b, "Cost basis", 26, &kv))
		return;
	rpt_xlsx_kv(&kv, "cost_basis", get(st, "cost_basis"), NULL);
	if (mf)
		format_set_num_format(mf, rpt_xlsx_decimals(fmt, sizeof fmt, rpt_multiple_decimals(
			cJSON_IsNumber(be) ? be->valuedouble : 0), "\"x\""));
	if (cJSON_IsNumber(be))
		rpt_xlsx_kv(&kv, "breakeven_cost_multiple", be, mf);
	else
		rpt_xlsx_kv_text(&kv, "breakeven_cost_multiple",
				 sa_json_str(get(st, "breakeven"), "reason", "n/a"), NULL);
	rpt_xlsx_kv_close(&kv);
}

static void write_benchmark(struct rpt_book *b, const cJSON *st)
{
	static const char *const heads[] = { "figure", "strategy", "buy_and_hold" };
	static const double widths[] = { 20, 12, 12 };
	static const char *const keys[] = { "gross_return", "net_return", "max_drawdown", "sharpe_annualised" };
	lxw_worksheet *ws = rpt_xlsx_sheet(b, "Benchmark", heads, 3, widths);
	const cJSON *bm = get(st, "benchmark");

	for (int k = 0; k < 4; k++) {
		bool sharpe = k == 3;
		const cJSON *mine = sharpe ? get(get(st, keys[k]), "value") : get(st, keys[k]);
		worksheet_write_string(ws, (lxw_row_t)k + 1, 0, keys[k], NULL);
		rpt_xlsx_json(ws, k + 1, 1, mine, sharpe ? b->num : b->pct);
		rpt_xlsx_json(ws, k + 1, 2, get(bm, keys[k]), sharpe ? b->num : b->pct);
	}
	worksheet_write_string(ws, 5, 0, "excess_return", NULL);
	rpt_xlsx_json(ws, 5, 2, get(bm, "excess_return"), b->pct);
	rpt_xlsx_filter(ws, 5, 3);
}

/* Sheet Metrics: the risk figures (stats_metrics.h) and quantstats' extras as stats.json has
 * them, one figure a row (longs and shorts, and the years, have sheets of their own). */
static void write_metrics(struct rpt_book *b, const cJSON *st)
{
	static const char *const heads[] = { "figure", "value" };
	static const double widths[] = { 30, 14 };
	static const char *const keys[] = { "volatility_annualised", "var_95", "cvar_95", "best_bar",
		"worst_bar", "best_month", "worst_month", "cagr", "omega", "tail_ratio", "best_day",
		"worst_day" };
	static const char *const rv[] = { "window", "min", "max", "last" };
	static const char *const quant[] = { "kelly", "ulcer_index", "recovery_factor" };
	static const char *const durs[] = { "bars", "hours" };
	static const char *const qs[] = { "min", "p25", "median", "p75", "max", "mean" };
	lxw_worksheet *ws = rpt_xlsx_sheet(b, "Metrics", heads, 2, widths);
	char label[64];
	int r = 1;

	if (!ws)
		return;
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++, r++) {
		worksheet_write_string(ws, (lxw_row_t)r, 0, keys[k], NULL);
		rpt_xlsx_json(ws, r, 1, get(st, keys[k]), b->pct);
	}
	for (size_t k = 0; k < sizeof quant / sizeof quant[0]; k++, r++) {
		worksheet_write_string(ws, (lxw_row_t)r, 0, quant[k], NULL);
		rpt_xlsx_json(ws, r, 1, get(st, quant[k]), k < 2 ? b->pct : b->num);
	}
	for (size_t k = 0; k < sizeof durs / sizeof durs[0]; k++)
		for (size_t q = 0; q < sizeof qs / sizeof qs[0]; q++, r++) {
			worksheet_write_string(ws, (lxw_row_t)r, 0, sa_fmt(label, sizeof label,
					       "trade_durations.%s.%s", durs[k], qs[q]), NULL);
			rpt_xlsx_json(ws, r, 1, get(get(get(st, "trade_durations"), durs[k]), qs[q]), NULL);
		}
	for (size_t k = 0; k < 4; k++, r++) {
		worksheet_write_string(ws, (lxw_row_t)r, 0, sa_fmt(label, sizeof label, "rolling_volatility.%s", rv[k]), NULL);
		rpt_xlsx_json(ws, r, 1, get(get(st, "rolling_volatility"), rv[k]), k ? b->pct : NULL);
	}
	rpt_xlsx_filter(ws, r - 1, 2);
}

/* Rows "prefix.key | value" for every number, string and list of numbers under o, depth first. */
static void flat_rows(struct rpt_book *b, lxw_worksheet *ws, int *r, const char *prefix, const cJSON *o)
{
	const cJSON *it;
	char label[160], list[1024];

	cJSON_ArrayForEach(it, o) {
		sa_fmt(label, sizeof label, "%s.%s", prefix, it->string ? it->string : "?");
		if (cJSON_IsObject(it)) {
			flat_rows(b, ws, r, label, it);
			continue;
		}
		if (cJSON_IsArray(it)) {
			const cJSON *x;
			size_t at = 0;

			list[0] = '\0';
			cJSON_ArrayForEach(x, it)
				if (cJSON_IsNumber(x) && at < sizeof list - 32)
					at += (size_t)snprintf(list + at, sizeof list - at, "%s%g", at ? " " : "", x->valuedouble);
			rpt_xlsx_text(ws, *r, 0, label, NULL);
			rpt_xlsx_text(ws, (*r)++, 1, list, NULL);
			continue;
		}
		rpt_xlsx_text(ws, *r, 0, label, NULL);
		rpt_xlsx_json(ws, (*r)++, 1, it, b->num);
	}
}

/* Sheet Selection: the strategy's own variants tested as a family (SPA), walk-forward, and the
 * Monte Carlo of its trades, as stats.json has them; a test that could not run gives its reason. */
static void write_selection(struct rpt_book *b, const cJSON *st)
{
	static const char *const heads[] = { "figure", "value" };
	static const double widths[] = { 40, 60 };
	static const char *const tests[] = { "spa", "walk_forward", "monte_carlo" };
	lxw_worksheet *ws = rpt_xlsx_sheet(b, "Selection", heads, 2, widths);
	char reason[64];
	int r = 1;

	if (!ws)
		return;
	for (size_t k = 0; k < sizeof tests / sizeof tests[0]; k++) {
		const cJSON *t = get(st, tests[k]);

		if (cJSON_IsObject(t)) {
			flat_rows(b, ws, &r, tests[k], t);
			continue;
		}
		rpt_xlsx_text(ws, r, 0, sa_fmt(reason, sizeof reason, "%s_reason", tests[k]), NULL);
		rpt_xlsx_text(ws, r++, 1, cJSON_GetStringValue(get(st, reason)) ? cJSON_GetStringValue(get(st, reason)) :
			 "not in stats.json", NULL);
	}
	rpt_xlsx_filter(ws, r - 1, 2);
}

/* A spread or a share of the closes: a fraction the sheet shows as a percentage. */
static bool is_fraction(const char *key)
{
	size_t n = strlen(key);

	return (n > 7 && !strcmp(key + n - 7, "_spread")) || !strcmp(key, "spread_estimate") ||
	       !strcmp(key, "zero_returns_share") || !strncmp(key, "net_return", 10);
}

/* Rows "prefix.key" for each number, flag and word of o (stats.json's own figures), or
 * "reason_key" and its text when o is not an object. */
static void figure_rows(struct rpt_kv *kv, const char *prefix, const cJSON *o, const cJSON *st,
			const char *reason_key)
{
	const cJSON *it;
	char label[96];

	if (!cJSON_IsObject(o)) {
		rpt_xlsx_kv_text(kv, reason_key, sa_json_str(st, reason_key, "not in stats.json"), NULL);
		return;
	}
	cJSON_ArrayForEach(it, o)
		if (it->string && (cJSON_IsNumber(it) || cJSON_IsBool(it) || cJSON_IsString(it)))
			rpt_xlsx_kv(kv, sa_fmt(label, sizeof label, "%s.%s", prefix, it->string), it,
				    is_fraction(it->string) ? kv->b->pct : cJSON_IsNumber(it) ? kv->b->num : NULL);
}

/* Sheet Tradeable prices: the spread the bars imply (three estimators and the least of them),
 * the slippage floor it sets, the closes' staleness and bounce, and the bounce check's
 * re-runs, as stats.json tradeable_prices and bounce have them. */
static void write_prices(struct rpt_book *b, const cJSON *st)
{
	struct rpt_kv kv;

	if (rpt_xlsx_kv_open(b, "Tradeable prices", 40, &kv))
		return;
	figure_rows(&kv, "tradeable_prices", get(st, "tradeable_prices"), st, "tradeable_prices_reason");
	figure_rows(&kv, "bounce", get(st, "bounce"), st, "bounce_reason");
	rpt_xlsx_kv_close(&kv);
}

/* Sheet Neighbourhood: each set of stats.json's neighbourhood (its parameters as compact JSON);
 * sheet Neighbourhood measure: the measure, one figure a row. */
static void write_neighbourhood(struct rpt_book *b, const cJSON *st)
{
	static const char *const keys[] = { "measured", "shape", "keep", "keep_min", "centre_sharpe",
					    "median_sharpe", "implied_trials", "neighbours", "ran",
					    "failed", "not_run", "reason" };
	const cJSON *nb = get(st, "neighbourhood"), *it;
	lxw_worksheet *ws = rpt_xlsx_table_sheet(b, "Neighbourhood", rpt_nb_cols, RPT_NB_COLS);
	struct rpt_kv kv;
	int r = 1;

	if (!ws)
		return;
	cJSON_ArrayForEach(it, get(nb, "sets")) {
		char *params = cJSON_PrintUnformatted(get(it, "params"));

		json_row(b, ws, r, rpt_nb_cols, RPT_NB_COLS, it);
		rpt_xlsx_text(ws, r++, 1, params ? params : "", NULL);
		free(params);
	}
	rpt_xlsx_filter(ws, r - 1, RPT_NB_COLS);
	if (rpt_xlsx_kv_open(b, "Neighbourhood measure", 20, &kv))
		return;
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
		rpt_xlsx_kv(&kv, keys[k], get(nb, keys[k]), cJSON_IsNumber(get(nb, keys[k])) ? b->num : NULL);
	rpt_xlsx_kv_close(&kv);
}

void rpt_xlsx_tearsheet(struct rpt_book *b, const cJSON *st)
{
	write_metrics(b, st);
	write_sides(b, st);
	write_drawdowns(b, st);
	write_monthly(b, st);
	write_yearly(b, st);
	write_delay(b, st);
	write_costs(b, st);
	write_prices(b, st);
	write_benchmark(b, st);
	write_selection(b, st);
	write_neighbourhood(b, st);
}
