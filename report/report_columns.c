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
