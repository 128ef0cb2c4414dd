/* report_xlsx.h - the audit as an Excel workbook (libxlsxwriter), reproducible byte for byte. */
#ifndef RPT_XLSX_H
#define RPT_XLSX_H

#include <stddef.h>

#include "report_input.h"

/* The creation time written into the document properties: fixed, so two runs match. */
#define RPT_XLSX_CREATED ((long long)946684800)  /* 2000-01-01T00:00:00Z */

/* Writes the workbook for the audit called name to path (through path.tmp and a rename). Every
 * sheet is one table under one header row, with a filter over exactly its rows; a section with
 * a table and figures has two sheets, the figures a table of two columns (figure, value):
 * Summary, Gates, Vetoes, Trades, Equity (a native equity chart beside its table), LookAhead,
 * LookAhead mismatches, Live and Live differences (when the live decisions were scored),
 * Robustness, Later starts, Variants, Trials, Containment, Inspection, Reconcile and Worst gaps
 * (when a log was reconciled), Metrics, Long short, Drawdowns, Monthly, Yearly, Delay, Costs,
 * Cost basis, Tradeable prices, Benchmark, Selection, and freqtrade's Exit reasons, Entry tags
 * and Account.
 * Text from the upload is written as plain strings, never formulas; one that a spreadsheet would
 * read as a formula gets a leading single quote. in is borrowed. Returns 0, or -1 with err set. */
int rpt_xlsx_write(const char *path, const struct rpt_input *in, const char *name, char *err, size_t errlen);

#endif
