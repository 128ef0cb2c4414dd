/* report_columns.c - the shared column tables (report_columns.h). */
#include "report_columns.h"

#include <string.h>

const struct rpt_col rpt_variant_cols[RPT_VARIANT_COLS] = {
	{ { "variant", "variant", 0.1 }, "variant", RPT_CELL_COUNT, 9, "num" },
	{ { "params", "params", 0.3 }, "params", RPT_CELL_TEXT, 60, "mono" },
	{ { "status", "status", 0.15 }, "status", RPT_CELL_TEXT, 16, "" },
	{ { "trades", "trades", 0.12 }, "trades", RPT_CELL_COUNT, 9, "num" },
	{ { "Sharpe ratio per trade", "sharpe", 0.17 }, "sharpe", RPT_CELL_NUM, 12, "num" },
	{ { "net return", "net_return", 0.16 }, "net_return", RPT_CELL_PCT, 12, "num" },
};

const struct rpt_col rpt_worst_cols[RPT_WORST_COLS] = {
	{ { "log line", "line", 0.08 }, "line", RPT_CELL_COUNT, 0, "num" },
	{ { "entry (UTC)", "entry", 0.17 }, "entry_time", RPT_CELL_TEXT, 0, "mono" },
	{ { "side", "side", 0.07 }, "side", RPT_CELL_TEXT, 0, "" },
	{ { "exit in the log", "exit", 0.17 }, "exit_time", RPT_CELL_TEXT, 0, "mono" },
	{ { "exit in the replay", "replay_exit", 0.17 }, "replay_exit_time", RPT_CELL_TEXT, 0, "mono" },
	{ { "claimed", "claimed", 0.11 }, "claimed", RPT_CELL_PCT, 0, "num" },
	{ { "replayed", "replayed", 0.11 }, "replayed", RPT_CELL_PCT, 0, "num" },
	{ { "gap", "gap", 0.12 }, "gap", RPT_CELL_PCT, 0, "num" },
};

const struct rpt_col rpt_drawdown_cols[RPT_DRAWDOWN_COLS] = {
	{ { "#", "rank", 0.05 }, "rank", RPT_CELL_COUNT, 6, "num" },
	{ { "start (peak)", "start", 0.24 }, "start", RPT_CELL_TIME, 18, "mono" },
	{ { "trough", "trough", 0.24 }, "trough", RPT_CELL_TIME, 18, "mono" },
	{ { "recovered", "end", 0.24 }, "end", RPT_CELL_TIME, 18, "mono" },
	{ { "depth", "depth", 0.11 }, "depth", RPT_CELL_PCT, 10, "num" },
	{ { "bars", "bars", 0.12 }, "bars", RPT_CELL_COUNT, 8, "num" },
};

const struct rpt_col rpt_delay_cols[RPT_DELAY_COLS] = {
	{ { "fill at the open of", "delay", 0.34 }, "delay_bars", RPT_CELL_COUNT, 11, "" },
	{ { "trades", "trades", 0.2 }, "trades", RPT_CELL_COUNT, 8, "num" },
	{ { "Sharpe ratio per trade", "sharpe", 0.23 }, "sharpe", RPT_CELL_ROW_SHARPE, 12, "num" },
	{ { "net return", "net", 0.23 }, "net_return", RPT_CELL_ROW_NET, 12, "num" },
	{ { NULL, NULL, 0 }, "ruined", RPT_CELL_COUNT, 8, "" },
};

const struct rpt_col rpt_nb_cols[RPT_NB_COLS] = {
	{ { "set", "set", 0.08 }, "set", RPT_CELL_COUNT, 6, "num" },
	{ { "parameters", "params", 0.42 }, "params", RPT_CELL_TEXT, 36, "mono" },
	{ { "Sharpe ratio per bar", "sharpe", 0.18 }, "sharpe", RPT_CELL_NUM, 14, "num" },
	{ { "share of the centre's kept", "keep", 0.16 }, "keep", RPT_CELL_NUM, 12, "num" },
	{ { "net return", "net", 0.16 }, "net_return", RPT_CELL_PCT, 12, "num" },
};

const struct rpt_col rpt_cost_cols[RPT_COST_COLS] = {
	{ { "cost multiple", "multiple", 0.16 }, "multiple", RPT_CELL_COUNT, 10, "num" },
	{ { "trades", "trades", 0.12 }, "trades", RPT_CELL_COUNT, 8, "num" },
	{ { "Sharpe ratio per trade", "sharpe", 0.24 }, "sharpe", RPT_CELL_ROW_SHARPE, 12, "num" },
	{ { "PSR", "psr", 0.16 }, "psr", RPT_CELL_NUM, 12, "num" },
	{ { "net return (compounded)", "net", 0.32 }, "net_return", RPT_CELL_ROW_NET, 14, "num" },
	{ { NULL, NULL, 0 }, "sum_net_return", RPT_CELL_ROW_NET, 15, "" },
	{ { NULL, NULL, 0 }, "ruined", RPT_CELL_COUNT, 8, "" },
};

const struct rpt_col rpt_live_cols[RPT_LIVE_COLS] = {
	{ { "bar", "bar", 0.1 }, "bar", RPT_CELL_COUNT, 10, "num" },
	{ { "time (UTC)", "time", 0.22 }, "time", RPT_CELL_TEXT, 22, "mono" },
	{ { "the backtest (full history)", "backtest", 0.17 }, "backtest", RPT_CELL_COUNT, 10, "" },
	{ { "live (only the past)", "live", 0.17 }, "live", RPT_CELL_COUNT, 10, "" },
	{ { "confirmed", "confirmed", 0.34 }, "confirmed", RPT_CELL_TEXT, 14, "" },
};

#define TAG_COLS(first)                                                                        \
	{ { first, "key", 0.22 }, "key", RPT_CELL_TEXT, 16, "" },                                  \
	{ { "trades", "trades", 0.09 }, "trades", RPT_CELL_COUNT, 8, "num" },                      \
	{ { "mean net return", "mean_return", 0.14 }, "mean_return", RPT_CELL_PCT, 14, "num" },    \
	{ { "summed net return", "sum_return", 0.14 }, "sum_return", RPT_CELL_PCT, 14, "num" },    \
	{ { "mean bars held", "mean_bars_held", 0.13 }, "mean_bars_held", RPT_CELL_NUM, 14, "num" }, \
	{ { "wins", "wins", 0.09 }, "wins", RPT_CELL_COUNT, 7, "num" },                            \
	{ { "draws", "draws", 0.09 }, "draws", RPT_CELL_COUNT, 7, "num" },                         \
	{ { "losses", "losses", 0.1 }, "losses", RPT_CELL_COUNT, 7, "num" }

const struct rpt_col rpt_exit_cols[RPT_TAG_COLS] = { TAG_COLS("exit reason") };
const struct rpt_col rpt_tag_cols[RPT_TAG_COLS] = { TAG_COLS("entry tag") };

size_t rpt_pdf_cols(const struct rpt_col *t, size_t n, struct rpt_pdf_col *out)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (t[i].pdf.key)
			out[k++] = t[i].pdf;
	return k;
}

static const cJSON *at(const cJSON *o, const char *a, const char *b)
{
	const cJSON *x = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, a) : NULL;

	return cJSON_IsObject(x) ? cJSON_GetObjectItemCaseSensitive(x, b) : NULL;
}

/* The titles of t's columns the page shows, as [{title}]; NULL when out of memory. */
static cJSON *titles(const struct rpt_col *t, size_t n)
{
	cJSON *list = cJSON_CreateArray();

	for (size_t k = 0; list && k < n; k++) {
		cJSON *c;
		if (!t[k].pdf.key)
			continue;
		c = cJSON_CreateObject();
		if (!c || !cJSON_AddItemToArray(list, c) ||
		    !cJSON_AddStringToObject(c, "title", t[k].pdf.title)) {
			cJSON_Delete(c);
			cJSON_Delete(list);
			return NULL;
		}
	}
	return list;
}

/* Each row of rows (the model's) gets "cells": its values at t's keys, in order. */
static int cells(const cJSON *rows, const struct rpt_col *t, size_t n)
{
	cJSON *row;

	cJSON_ArrayForEach(row, rows) {
		cJSON *list = cJSON_AddArrayToObject(row, "cells");
		for (size_t k = 0; list && k < n; k++) {
			const cJSON *v;
			cJSON *c;
			if (!t[k].pdf.key)
				continue;
			v = cJSON_GetObjectItemCaseSensitive(row, t[k].pdf.key);
			c = cJSON_CreateObject();
			if (!c || !cJSON_AddItemToArray(list, c) ||
			    !cJSON_AddItemToObject(c, "text", v ? cJSON_Duplicate(v, 1) : cJSON_CreateString("")) ||
			    !cJSON_AddStringToObject(c, "cls", t[k].html_class)) {
				cJSON_Delete(c);
				return -1;
			}
		}
		if (!list)
			return -1;
	}
	return 0;
}

int rpt_columns_model(cJSON *m)
{
	static const struct {
		const char *name, *section, *rows;
		const struct rpt_col *t;
		size_t n;
	} tables[] = {
		{ "drawdowns", "tearsheet", "drawdowns", rpt_drawdown_cols, RPT_DRAWDOWN_COLS },
		{ "delay", "tearsheet", "delay", rpt_delay_cols, RPT_DELAY_COLS },
		{ "costs", "costs", "sensitivity", rpt_cost_cols, RPT_COST_COLS },
		{ "worst", "reconcile", "worst", rpt_worst_cols, RPT_WORST_COLS },
		{ "live", "live", "first_differences", rpt_live_cols, RPT_LIVE_COLS },
		{ "variants", NULL, NULL, rpt_variant_cols, RPT_VARIANT_COLS },
		{ "exits", "freqtrade", "by_exit_reason", rpt_exit_cols, RPT_TAG_COLS },
		{ "tags", "freqtrade", "by_entry_tag", rpt_tag_cols, RPT_TAG_COLS },
	};
	cJSON *cols = cJSON_AddObjectToObject(m, "cols");

	if (!cols)
		return -1;
	for (size_t k = 0; k < sizeof tables / sizeof tables[0]; k++) {
		cJSON *list = titles(tables[k].t, tables[k].n);
		if (!list || !cJSON_AddItemToObject(cols, tables[k].name, list))
			return -1;
		if (tables[k].section && cells(at(m, tables[k].section, tables[k].rows), tables[k].t,
					       tables[k].n) < 0)
			return -1;
	}
	return 0;
}
