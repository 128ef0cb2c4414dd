/* report_xlsx_book.h - what the workbook's sheets share: the formats, safe cells, and the two
 * shapes every sheet takes, one table under one header row with a filter over exactly its rows,
 * a list of figures being a table of two columns (figure, value). */
#ifndef RPT_XLSX_BOOK_H
#define RPT_XLSX_BOOK_H

#include <stddef.h>
#include <cjson/cJSON.h>
#include <xlsxwriter.h>

#include "report_columns.h"

struct rpt_book {
	lxw_workbook *wb;
	lxw_format *head, *date, *pct, *num, *wrap, *bad, *good;
	lxw_format *row_net, *row_sharpe;  /* a replayed row's net return and Sharpe, as the page */
};

/* A sheet of figures being filled: its next row. */
struct rpt_kv {
	struct rpt_book *b;
	lxw_worksheet *ws;
	int row;
};

/* A copy of s safe for a cell (valid UTF-8, no control characters but tab and newline, capped,
 * quoted when a spreadsheet would take it for a formula). Caller frees; NULL when out of memory. */
char *rpt_xlsx_cell_text(const char *s);

/* Text (through rpt_xlsx_cell_text), a JSON value (numbers stay numbers, in format f), and a
 * timestamp (an Excel date when it parses, text otherwise) into a cell. */
void rpt_xlsx_text(lxw_worksheet *ws, int r, int c, const char *s, lxw_format *f);
void rpt_xlsx_json(lxw_worksheet *ws, int r, int c, const cJSON *v, lxw_format *f);
void rpt_xlsx_time(const struct rpt_book *b, lxw_worksheet *ws, int r, int c, const char *s);

/* A new sheet headed by heads[0..n) at widths, its header row frozen; NULL when it cannot be
 * added. rpt_xlsx_table_sheet heads it with a shared table's XLSX columns. */
lxw_worksheet *rpt_xlsx_sheet(struct rpt_book *b, const char *name, const char *const *heads, int n,
			      const double *widths);
lxw_worksheet *rpt_xlsx_table_sheet(struct rpt_book *b, const char *name, const struct rpt_col *t, int n);

/* The filter over a sheet's one table: the header row and the rows up to last (0: none). */
void rpt_xlsx_filter(lxw_worksheet *ws, int last, int cols);

/* The number format of a shared column's cell kind (NULL: the default). */
lxw_format *rpt_xlsx_cell_format(const struct rpt_book *b, enum rpt_cell k);

/* An Excel number format with d decimals and a suffix ("0.00%", "0.0000", "0.0\"x\"") in buf. */
const char *rpt_xlsx_decimals(char *buf, size_t len, int d, const char *suffix);

/* A sheet of figures: rpt_xlsx_kv_open adds it (headers figure, value; the figure column
 * label_width wide); rpt_xlsx_kv adds a row (the value in format f, an empty cell when v is
 * null or missing); rpt_xlsx_kv_close sets its filter. Open returns 0, or -1 when the sheet
 * cannot be added; the others do nothing then. */
int rpt_xlsx_kv_open(struct rpt_book *b, const char *name, double label_width, struct rpt_kv *kv);
void rpt_xlsx_kv(struct rpt_kv *kv, const char *label, const cJSON *v, lxw_format *f);
void rpt_xlsx_kv_text(struct rpt_kv *kv, const char *label, const char *text, lxw_format *f);
void rpt_xlsx_kv_close(struct rpt_kv *kv);

/* The tearsheet's sheets (report_xlsx_tear.c): stats.json's figures, tables and the prices'
 * spread and staleness, each sheet one table. */
void rpt_xlsx_tearsheet(struct rpt_book *b, const cJSON *stats);

#endif
