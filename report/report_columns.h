/* report_columns.h - the tables the PDF and the XLSX both show, one row a column: what the PDF
 * titles it and prints (a model key), and which raw column of the stage file the XLSX writes in
 * its place, how, and how wide. Each renderer walks the same rows. */
#ifndef RPT_COLUMNS_H
#define RPT_COLUMNS_H

#include <stddef.h>

/* A PDF table column: its title, the model key of its cell, and its width as a share of the
 * text width. Every cell wraps inside its column. */
struct rpt_pdf_col {
	const char *title, *key;
	double width;
};

/* How the XLSX writes a cell: text as it is, or a number plain, with decimals, or as a
 * percentage. */
enum rpt_cell { RPT_CELL_TEXT, RPT_CELL_COUNT, RPT_CELL_NUM, RPT_CELL_PCT };

struct rpt_col {
	struct rpt_pdf_col pdf;
	const char *column;     /* the XLSX's header: the stage file's column or key */
	enum rpt_cell cell;
	double xlsx_width;      /* 0: the sheet's own */
};

/* The declared variants: variants.csv's columns, the model's "trials.rows". */
#define RPT_VARIANT_COLS 6
extern const struct rpt_col rpt_variant_cols[RPT_VARIANT_COLS];

/* The worst gaps of a reconciliation: replay.json's reconcile.worst, the model's
 * "reconcile.worst". */
#define RPT_WORST_COLS 8
extern const struct rpt_col rpt_worst_cols[RPT_WORST_COLS];

#endif
