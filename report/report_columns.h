/* report_columns.h - the tables the page, the PDF and the XLSX all show, one row a column: the
 * title the page and the PDF give it and the model key they print, the page's cell class, and
 * which raw column of the stage file the XLSX writes in its place, how, and how wide. Each
 * renderer walks the same rows. */
#ifndef RPT_COLUMNS_H
#define RPT_COLUMNS_H

#include <stddef.h>
#include <cjson/cJSON.h>

/* A PDF table column: its title, the model key of its cell, and its width as a share of the
 * text width. Every cell wraps inside its column. */
struct rpt_pdf_col {
	const char *title, *key;
	double width;
};

/* How the XLSX writes a cell: text or a time as it is, or a number plain, with decimals, as a
 * percentage, or as a replayed row's Sharpe ratio or net return (report_fmt.h). */
enum rpt_cell { RPT_CELL_TEXT, RPT_CELL_TIME, RPT_CELL_COUNT, RPT_CELL_NUM, RPT_CELL_PCT,
		RPT_CELL_ROW_SHARPE, RPT_CELL_ROW_NET };

/* One column; pdf.key NULL: the XLSX's alone. */
struct rpt_col {
	struct rpt_pdf_col pdf;
	const char *column;     /* the XLSX's header: the stage file's column or key */
	enum rpt_cell cell;
	double xlsx_width;      /* 0: the sheet's own */
	const char *html_class; /* the page's td class, "" for none */
};

/* The declared variants: variants.csv's columns, the model's "trials.rows". */
#define RPT_VARIANT_COLS 6
extern const struct rpt_col rpt_variant_cols[RPT_VARIANT_COLS];

/* The worst gaps of a reconciliation: replay.json's reconcile.worst, the model's
 * "reconcile.worst". */
#define RPT_WORST_COLS 8
extern const struct rpt_col rpt_worst_cols[RPT_WORST_COLS];

/* The drawdown episodes: stats.json's drawdowns (ranked), the model's "tearsheet.drawdowns". */
#define RPT_DRAWDOWN_COLS 6
extern const struct rpt_col rpt_drawdown_cols[RPT_DRAWDOWN_COLS];

/* The late fills: stats.json's delay_sensitivity, the model's "tearsheet.delay". */
#define RPT_DELAY_COLS 5
extern const struct rpt_col rpt_delay_cols[RPT_DELAY_COLS];

/* The cost multiples: stats.json's cost_sensitivity, the model's "costs.sensitivity". */
#define RPT_COST_COLS 7
extern const struct rpt_col rpt_cost_cols[RPT_COST_COLS];

/* The first bars where the live decision differs from the backtest's: lookahead.json's
 * live.first_differences, the model's "live.first_differences". */
#define RPT_LIVE_COLS 5
extern const struct rpt_col rpt_live_cols[RPT_LIVE_COLS];

/* freqtrade's tables: stats.json's by_exit_reason and by_entry_tag, the model's
 * "freqtrade.by_exit_reason" and "freqtrade.by_entry_tag"; the same columns but the first's
 * title. */
#define RPT_TAG_COLS 8
extern const struct rpt_col rpt_exit_cols[RPT_TAG_COLS];
extern const struct rpt_col rpt_tag_cols[RPT_TAG_COLS];

/* The neighbourhood: stats.json's neighbourhood.sets, the model's "neighbourhood.rows". */
#define RPT_NB_COLS 5
extern const struct rpt_col rpt_nb_cols[RPT_NB_COLS];

/* The PDF's columns of t[0..n) into out (the XLSX's own columns left out); returns how many. */
size_t rpt_pdf_cols(const struct rpt_col *t, size_t n, struct rpt_pdf_col *out);

/* Adds to the template model m "cols" {drawdowns, delay, costs, worst, live, variants, exits, tags}, each the
 * list of its columns' {title}, and to every row of the tables the page draws cell by cell
 * (tearsheet.drawdowns, tearsheet.delay, costs.sensitivity, reconcile.worst,
 * live.first_differences, freqtrade.by_exit_reason, freqtrade.by_entry_tag) "cells", its
 * values in column order as {text, cls}. Returns 0, or -1 when out of memory. */
int rpt_columns_model(cJSON *m);

#endif
