/* report_xlsx.h - the audit as an Excel workbook (libxlsxwriter), reproducible byte for byte. */
#ifndef RPT_XLSX_H
#define RPT_XLSX_H

#include <stddef.h>

#include "report_input.h"

/* The creation time written into the document properties: fixed, so two runs match. */
#define RPT_XLSX_CREATED ((long long)946684800)  /* 2000-01-01T00:00:00Z */

/* Writes the workbook for the audit called name to path (through path.tmp and a rename): sheets
 * Summary, Gates, Trades, Equity, LookAhead, Robustness, Variants, Containment, Inspection,
 * Drawdowns, Monthly, Delay and Benchmark (and Reconcile when a log was reconciled), and a native
 * equity chart.
 * Text from the upload is written as plain strings, never formulas; one that a spreadsheet would
 * read as a formula gets a leading single quote. in is borrowed. Returns 0, or -1 with err set. */
int rpt_xlsx_write(const char *path, const struct rpt_input *in, const char *name, char *err, size_t errlen);

#endif
