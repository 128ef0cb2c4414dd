/* report_input.h - everything a report reads from an audit directory, loaded defensively. */
#ifndef RPT_INPUT_H
#define RPT_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "ohlcv.h"
#include "stagefile.h"

/* The stage files, in the order the report mentions them. */
enum rpt_file {
	RPT_CONFIG,
	RPT_FINGERPRINT,
	RPT_INSPECT,
	RPT_RUN,
	RPT_LOOKAHEAD,
	RPT_ROBUST,
	RPT_REPLAY,
	RPT_STATS,
	RPT_VERDICT,
	RPT_NFILES
};

/* One stage file: json is the tree when it parsed (even with "ok": false), else NULL. */
struct rpt_stage {
	const char *file;
	cJSON *json;
	bool ok;
	char reason[256];  /* why it is unusable; empty when ok */
};

/* A CSV file as strings: row 0 is the header; cell[r * cols + c]; short rows padded with "". */
struct rpt_table {
	size_t rows, cols;
	char **cell;
};

/* The equity curve as numbers. */
struct rpt_series {
	size_t n;
	int64_t *t;
	double *pos, *gross, *net;
};

/* Per-trade returns as numbers. */
struct rpt_returns {
	size_t n;
	double *net, *gross;
};

/* The curves the stages wrote for the report to draw (pipeline/README.md): benchmark.csv,
 * rolling.csv, walkforward.csv, montecarlo_fan.csv (stats), reconcile.csv and
 * backtest_equity.csv (replay). */
enum rpt_curve { RPT_BENCHMARK, RPT_ROLLING, RPT_WALKFORWARD, RPT_FAN, RPT_RECONCILE, RPT_BACKTEST,
		 RPT_NCURVES };

struct rpt_input {
	struct rpt_stage stage[RPT_NFILES];
	cJSON *events;             /* array of event objects; empty when events.jsonl is absent */
	char events_reason[256];   /* set when events.jsonl was unreadable or had bad lines */
	struct rpt_table trades;
	char trades_reason[256];
	struct rpt_series equity;
	char equity_reason[256];
	struct rpt_returns returns;
	char *source;              /* the uploaded strategy.py, NUL-terminated, or NULL */
	char source_reason[256];
	struct da_ohlcv data;
	char data_reason[256];     /* empty when data holds the price series */
	cJSON *variants;           /* variants.json when it parsed, else NULL */
	struct rpt_table variant_rows;  /* variants.csv */
	char variants_reason[256]; /* why variants.csv is unusable; empty when it loaded */
	struct rpt_table curve[RPT_NCURVES];      /* each curve file as read; empty when unusable */
	char curve_reason[RPT_NCURVES][256];      /* why, "" when it loaded */
	struct sa_sf *sf;  /* per file of the stage-file table, its tree as loaded held to the table
			    * (sa_sf_view; a file the report does not read, or whose head broke the
			    * table, as missing); from SA_SF_COUNT on, the same but missing unless ok */
};

/* Loads every file of the audit in dir, plus the OHLCV csv at data_path (may be NULL). A missing
 * or broken file is recorded as a reason and the rest still loads; the only failure is running
 * out of memory, which returns -1. Release with rpt_input_release either way. */
int rpt_input_load(struct rpt_input *in, const char *dir, const char *data_path);

/* Frees everything in *in and zeroes it. Safe on a zeroed struct. */
void rpt_input_release(struct rpt_input *in);

/* The tree of a stage file when it is present and "ok", else NULL. Borrowed. */
const cJSON *rpt_stage_ok(const struct rpt_input *in, enum rpt_file f);

/* Holds each tree of in (stage[], variants) to the stage-file table as in->sf: a head that broke
 * it is already the file's reason, and the file is read as missing. rpt_input_load calls it; an
 * input made by hand calls it before its fields are read. Returns 0, or -1 out of memory. */
int rpt_input_views(struct rpt_input *in);

/* A stage file the report read, to take its fields by their rows (sa_sf_num, ...): rpt_sf as it
 * was loaded (a failed stage's record included), rpt_sf_ok only when "ok". Never NULL. */
struct sa_sf *rpt_sf(const struct rpt_input *in, enum sa_sfile_id id);
struct sa_sf *rpt_sf_ok(const struct rpt_input *in, enum sa_sfile_id id);

/* The first field a read found missing or mistyped in a present file, naming the file and the
 * field ("stats.json: the field \"trials\" is missing"), or NULL while none was. */
const char *rpt_input_broken(const struct rpt_input *in);

/* Parses a CSV buffer (libcsv) into *tb. Returns 0, or -1 with err set (parse error, no header,
 * out of memory). Release with rpt_table_release. */
int rpt_table_parse(const char *buf, size_t len, struct rpt_table *tb, char *err, size_t errlen);
void rpt_table_release(struct rpt_table *tb);

/* The index of header column name, or -1. */
int rpt_table_col(const struct rpt_table *tb, const char *name);

/* The cell at data row r (0 = first row after the header) and column c; "" when c < 0. */
const char *rpt_table_get(const struct rpt_table *tb, size_t r, int c);

/* Column name of tb's data rows as numbers into out[0..rows - 1), an empty cell as NAN.
 * Returns 0, or -1 with err naming the column or the first bad line. */
int rpt_table_nums(const struct rpt_table *tb, const char *name, double *out, char *err,
		   size_t errlen);

/* The same for a column of times (sa_time_parse). */
int rpt_table_times(const struct rpt_table *tb, const char *name, int64_t *out, char *err,
		    size_t errlen);

/* Builds the equity series from an equity.csv table. Returns 0, or -1 with err naming the first
 * bad line; *s is empty then. Release with rpt_series_release. */
int rpt_series_from_table(const struct rpt_table *tb, struct rpt_series *s, char *err, size_t errlen);
void rpt_series_release(struct rpt_series *s);

/* Parses a finite number; returns 0 or -1. */
int rpt_parse_num(const char *s, double *x);

#endif
