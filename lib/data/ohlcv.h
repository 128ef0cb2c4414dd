/* ohlcv.h - the OHLCV series and its validating loader (libcsv), for the files users have. */
#ifndef SA_OHLCV_H
#define SA_OHLCV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "csvfield.h"

/* The fields of a bar, in the order a headerless (kline) file holds them. */
enum da_ohlcv_field { DA_BAR_TIME, DA_BAR_OPEN, DA_BAR_HIGH, DA_BAR_LOW, DA_BAR_CLOSE,
		      DA_BAR_VOLUME, DA_BAR_ADJ, DA_BAR_FIELDS };

/* What the loaders say of a file of trades, one row a trade (%s: what a row holds). */
#define DA_TRADES_NOT_BARS "this is a file of trades (%s), not bars: make candles of the " \
	"strategy's timeframe from it first (freqtrade: trades-to-ohlcv)"

/* How the file holds its bars. */
enum da_ohlcv_layout {
	DA_LAYOUT_HEADER,      /* a header line names the columns */
	DA_LAYOUT_KLINES,      /* headerless: time, o, h, l, c[, v], ... */
	DA_LAYOUT_METATRADER,  /* headerless: date, time of day, o, h, l, c[, v] (MT4 History Center) */
	DA_LAYOUT_FREQTRADE,   /* freqtrade's JSON OHLCV: [[ms, o, h, l, c, v], ...] */
	DA_LAYOUT_FEATHER,     /* freqtrade's Feather OHLCV: an Arrow IPC file, LZ4, ZSTD or plain */
};

/* What the loader found in the file, as fingerprint.json's data_format and the report say it. */
struct da_ohlcv_format {
	bool header;           /* false: a headerless file (klines, MetaTrader rows or JSON) */
	int header_rows;       /* lines of header: 1, 3 for yfinance's (Price, Ticker, Date), 0 none */
	int layout;            /* enum da_ohlcv_layout */
	char delim;            /* ',', ';' or '\t' */
	bool gzip;             /* the file was gzip-compressed */
	int time_form;         /* enum sa_time_form of the first bar */
	bool volume;           /* false: no volume column, volume is NaN */
	bool adjusted;         /* prices scaled by adj close / close */
	int columns;           /* fields a row */
	/* the header's name of each field, "" when absent (or headerless) */
	char names[DA_BAR_FIELDS][SA_CSV_FIELD_MAX + 1];
	bool joined;           /* the time is a date column and a time-of-day column joined */
	char clock_name[SA_CSV_FIELD_MAX + 1];   /* the time-of-day column's name, "" when none */
	char volume_left[SA_CSV_FIELD_MAX + 1];  /* another volume column, not used ("" none) */
	char skipped[81];      /* a first line that is no part of the table, skipped ("" none) */
	bool reversed;         /* the rows ran newest first: read in time order */
	/* the shape of the series */
	int64_t spacing_s;     /* median time between bars */
	size_t gaps;           /* places where bars are missing at that spacing */
	size_t missing_bars;   /* bars missing in all of them */
	int64_t largest_gap_s; /* longest time between two bars */
	bool sessions;         /* a session calendar: bars of a day or less over a week or more,
				* none opening on a Saturday or Sunday (UTC); weekly or monthly bars
				* on weekdays alone, some moved off their rhythm by a holiday */
	bool fx_week;          /* the FX week: bars of less than a day over a week or more, none
				* on a Saturday, Sunday's from 20:00 UTC, Friday's before 22:00 */
	int period;            /* enum da_bar_period: bars of a fixed step, or calendar weeks or months */
	char bar[24];          /* the bar size: "1h", "5m", "1d", "1w", "1M" */
	bool index_time;       /* the time is pandas' index column (its header "" or "Unnamed: 0") */
	/* what says the data is a perpetual future ("" when nothing does): a funding column, or
	 * freqtrade's "-futures" in the file name */
	char perpetual[80];
	bool swap;             /* swap_long and swap_short columns: FX rollover by bar, bps a year */
};

/* How the bars step: by a fixed number of seconds, or by the calendar. */
enum da_bar_period { DA_PERIOD_FIXED, DA_PERIOD_WEEK, DA_PERIOD_MONTH };

/* A bar series held as columns (struct of arrays). */
struct da_ohlcv {
	size_t n;
	int64_t *t;  /* bar open time, seconds since the epoch, UTC, strictly increasing */
	double *open, *high, *low, *close, *volume;  /* volume NaN when the file has none */
	/* FX rollover by side, bps a year of the notional, for a rollover inside the bar (the
	 * columns swap_long and swap_short, both or neither); NULL when the file has none */
	double *swap_long, *swap_short;
	struct da_ohlcv_format fmt;
};

/* How to read prices. */
struct da_ohlcv_opts {
	bool adjusted;  /* scale open, high, low, close by adj close / close (needs that column) */
};

/* Loads path, plain or gzip-compressed (told by its first bytes), bounded by SA_DATA_CAP
 * either way. A first line without a delimiter before a table (a URL, a title) is skipped.
 * The next line is a header (or yfinance's three: Price and the fields, Ticker, the index's
 * name), matched case-insensitively with any <> stripped (time,
 * timestamp, date, datetime, open_time, gmt time; open/o; high/h; low/l; close/c; volume/vol,
 * else the first "volume X", else tickvol; adj close; swap_long and swap_short, both or
 * neither, finite bps a year within +-100000; other columns ignored; a date column and
 * a time column are joined), or, when its first field is already a time, the first bar of a
 * headerless file: klines, or MetaTrader rows when a date alone is followed by a time of day.
 * The delimiter (',', ';' or tab) is the one the first line uses most. Times: ISO-8601 (Z, an
 * offset, a space for T, a date alone; dates also yyyy.mm.dd or dd.mm.yyyy) or epoch s/ms/us;
 * strictly increasing, or strictly decreasing (then reversed), one spacing (whole multiples of
 * the median: gaps are counted). Prices finite and positive, high >= max(open, close), low <=
 * min(open, close), volume >= 0; at least 2 bars. freqtrade's JSON and Feather OHLCV are read
 * too; a file of another kind (xlsx, Parquet, Feather version 1, other JSON) is refused by name. Returns 0 and fills
 * *s (release with da_ohlcv_release), or -1 with "line N: reason (fix)" in err and *s empty.
 * opts may be NULL (unadjusted). */
int da_ohlcv_load_opts(const char *path, const struct da_ohlcv_opts *opts, struct da_ohlcv *s,
		       char *err, size_t errlen);

/* da_ohlcv_load_opts with prices as written. */
int da_ohlcv_load(const char *path, struct da_ohlcv *s, char *err, size_t errlen);

/* The same from a buffer in memory (len bytes, plain or gzip). */
int da_ohlcv_parse_opts(const char *buf, size_t len, const struct da_ohlcv_opts *opts,
			struct da_ohlcv *s, char *err, size_t errlen);
int da_ohlcv_parse(const char *buf, size_t len, struct da_ohlcv *s, char *err, size_t errlen);

/* Frees the columns and zeroes *s. Safe on a zeroed or released struct. */
void da_ohlcv_release(struct da_ohlcv *s);

#endif
