/* report_input.h - everything a report reads from an audit directory, loaded defensively. */
#ifndef RP_INPUT_H
#define RP_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "ohlcv.h"

/* The stage files, in the order the report mentions them. */
enum rp_file {
	RP_CONFIG,
	RP_FINGERPRINT,
	RP_INSPECT,
	RP_RUN,
	RP_LOOKAHEAD,
	RP_REPLAY,
	RP_STATS,
	RP_VERDICT,
	RP_NFILES
};

/* One stage file: json is the tree when it parsed (even with "ok": false), else NULL. */
struct rp_stage {
	const char *file;
	cJSON *json;
	bool ok;
	char reason[256];  /* why it is unusable; empty when ok */
};

/* A CSV file as strings: row 0 is the header; cell[r * cols + c]; short rows padded with "". */
struct rp_table {
	size_t rows, cols;
	char **cell;
};

/* The equity curve as numbers. */
struct rp_series {
	size_t n;
	int64_t *t;
	double *pos, *gross, *net;
};

/* Per-trade returns as numbers. */
struct rp_returns {
	size_t n;
	double *net, *gross;
};

struct rp_input {
	struct rp_stage stage[RP_NFILES];
	cJSON *events;             /* array of event objects; empty when events.jsonl is absent */
	char events_reason[256];   /* set when events.jsonl was unreadable or had bad lines */
	struct rp_table trades;
	char trades_reason[256];
	struct rp_series equity;
	char equity_reason[256];
	struct rp_returns returns;
	char *source;              /* the uploaded strategy.py, NUL-terminated, or NULL */
	char source_reason[256];
	struct sa_ohlcv data;
	char data_reason[256];     /* empty when data holds the price series */
};

/* Loads every file of the audit in dir, plus the OHLCV csv at data_path (may be NULL). A missing
 * or broken file is recorded as a reason and the rest still loads; the only failure is running
 * out of memory, which returns -1. Release with rp_input_release either way. */
int rp_input_load(struct rp_input *in, const char *dir, const char *data_path);

/* Frees everything in *in and zeroes it. Safe on a zeroed struct. */
void rp_input_release(struct rp_input *in);

/* The tree of a stage file when it is present and "ok", else NULL. Borrowed. */
const cJSON *rp_stage_ok(const struct rp_input *in, enum rp_file f);

/* Parses a CSV buffer (libcsv) into *tb. Returns 0, or -1 with err set (parse error, no header,
 * out of memory). Release with rp_table_release. */
int rp_table_parse(const char *buf, size_t len, struct rp_table *tb, char *err, size_t errlen);
void rp_table_release(struct rp_table *tb);

/* The index of header column name, or -1. */
int rp_table_col(const struct rp_table *tb, const char *name);

/* The cell at data row r (0 = first row after the header) and column c; "" when c < 0. */
const char *rp_table_get(const struct rp_table *tb, size_t r, int c);

/* Builds the equity series from an equity.csv table. Returns 0, or -1 with err naming the first
 * bad line; *s is empty then. Release with rp_series_release. */
int rp_series_from_table(const struct rp_table *tb, struct rp_series *s, char *err, size_t errlen);
void rp_series_release(struct rp_series *s);

/* Parses a finite number; returns 0 or -1. */
int rp_parse_num(const char *s, double *x);

#endif
