/* tradelog_formats.h - trade logs as people export them: the native columns, freqtrade's
 * backtest trades (JSON or CSV), TradingView's "List of trades" CSV, and any CSV with a column
 * map (the TRADES_COLUMNS knob). Each gives the same struct da_tradelog (tradelog.h). */
#ifndef SA_TRADELOG_FORMATS_H
#define SA_TRADELOG_FORMATS_H

#include <stddef.h>

#include "tradelog.h"

/* Reads buf[0..len) in the layout it holds: JSON (freqtrade: {"strategy": {NAME: {"trades":
 * [...]}}}, {"trades": [...]} or a bare list; open_date, close_date, is_short, profit_ratio);
 * else a CSV whose header tells it apart: open_date/close_date/profit_ratio (freqtrade), Trade
 * #/Type/Date/Time (TradingView: an entry and an exit row per trade, the percent column "Net
 * P&L %" or "Profit %"; open trades left out), entry_time/exit_time/side/return (native). A
 * non-empty colmap ("entry=COL,exit=COL,side=COL,return=COL", a trailing '%' on COL meaning
 * percent) reads any CSV by those columns instead. Sets log->format. Returns 0, or -1 with
 * "line N: reason" (CSV) or "trade N: reason" (JSON) in err. */
int da_tradelog_parse_any(const char *buf, size_t len, const char *colmap,
			  struct da_tradelog *log, char *err, size_t errlen);

/* The same from a file, read up to SA_TRADELOG_CAP. */
int da_tradelog_load_any(const char *path, const char *colmap, struct da_tradelog *log,
			 char *err, size_t errlen);

#endif
