/* report_columns.c - the shared column tables (report_columns.h). */
#include "report_columns.h"

const struct rpt_col rpt_variant_cols[RPT_VARIANT_COLS] = {
	{ { "variant", "variant", 0.1 }, "variant", RPT_CELL_COUNT, 9 },
	{ { "params", "params", 0.3 }, "params", RPT_CELL_TEXT, 60 },
	{ { "status", "status", 0.15 }, "status", RPT_CELL_TEXT, 16 },
	{ { "trades", "trades", 0.12 }, "trades", RPT_CELL_COUNT, 9 },
	{ { "Sharpe ratio per trade", "sharpe", 0.17 }, "sharpe", RPT_CELL_NUM, 12 },
	{ { "net return", "net_return", 0.16 }, "net_return", RPT_CELL_PCT, 12 },
};

const struct rpt_col rpt_worst_cols[RPT_WORST_COLS] = {
	{ { "log line", "line", 0.08 }, "line", RPT_CELL_COUNT, 0 },
	{ { "entry (UTC)", "entry", 0.17 }, "entry_time", RPT_CELL_TEXT, 0 },
	{ { "side", "side", 0.07 }, "side", RPT_CELL_TEXT, 0 },
	{ { "exit in the log", "exit", 0.17 }, "exit_time", RPT_CELL_TEXT, 0 },
	{ { "exit in the replay", "replay_exit", 0.17 }, "replay_exit_time", RPT_CELL_TEXT, 0 },
	{ { "claimed", "claimed", 0.11 }, "claimed", RPT_CELL_PCT, 0 },
	{ { "replayed", "replayed", 0.11 }, "replayed", RPT_CELL_PCT, 0 },
	{ { "gap", "gap", 0.12 }, "gap", RPT_CELL_PCT, 0 },
};

const struct rpt_col rpt_drawdown_cols[RPT_DRAWDOWN_COLS] = {
	{ { "#", "rank", 0.05 }, "rank", RPT_CELL_COUNT, 6 },
	{ { "start (peak)", "start", 0.24 }, "start", RPT_CELL_TIME, 18 },
	{ { "trough", "trough", 0.24 }, "trough", RPT_CELL_TIME, 18 },
	{ { "recovered", "end", 0.24 }, "end", RPT_CELL_TIME, 18 },
	{ { "depth", "depth", 0.11 }, "depth", RPT_CELL_PCT, 10 },
	{ { "bars", "bars", 0.12 }, "bars", RPT_CELL_COUNT, 8 },
};

const struct rpt_col rpt_delay_cols[RPT_DELAY_COLS] = {
	{ { "fill at the open of", "delay", 0.34 }, "delay_bars", RPT_CELL_COUNT, 11 },
	{ { "trades", "trades", 0.2 }, "trades", RPT_CELL_COUNT, 8 },
	{ { "Sharpe ratio per trade", "sharpe", 0.23 }, "sharpe", RPT_CELL_ROW_SHARPE, 12 },
	{ { "net return", "net", 0.23 }, "net_return", RPT_CELL_ROW_NET, 12 },
	{ { NULL, NULL, 0 }, "ruined", RPT_CELL_COUNT, 8 },
};

const struct rpt_col rpt_cost_cols[RPT_COST_COLS] = {
	{ { "cost multiple", "multiple", 0.16 }, "multiple", RPT_CELL_COUNT, 10 },
	{ { "trades", "trades", 0.12 }, "trades", RPT_CELL_COUNT, 8 },
	{ { "Sharpe ratio per trade", "sharpe", 0.24 }, "sharpe", RPT_CELL_ROW_SHARPE, 12 },
	{ { "PSR", "psr", 0.16 }, "psr", RPT_CELL_NUM, 12 },
	{ { "net return (compounded)", "net", 0.32 }, "net_return", RPT_CELL_ROW_NET, 14 },
	{ { NULL, NULL, 0 }, "sum_net_return", RPT_CELL_ROW_NET, 15 },
	{ { NULL, NULL, 0 }, "ruined", RPT_CELL_COUNT, 8 },
};
