/* report_reconcile.h - the report's section "The log against the code": when a strategy and its
 * trade log were both uploaded, the reconciliation in replay.json as HTML model, an XLSX sheet
 * and the two equity curves, the log's claims and the code's replay, compounded alike. */
#ifndef RPT_RECONCILE_H
#define RPT_RECONCILE_H

#include <stddef.h>
#include <cjson/cJSON.h>
#include <xlsxwriter.h>

#include "report_input.h"

/* Adds "reconcile" to the report model m: {present, consistent, statement, statements [],
 * counts, gaps, worst []}; present is false unless replay.json holds a reconciliation. */
void rpt_reconcile_model(cJSON *m, const struct rpt_input *in);

/* Adds to the workbook b, when replay.json holds a reconciliation, the sheets Reconcile (the
 * counts, the gap figures and the statements, one a row) and Worst gaps (the worst trades, one
 * a row). Returns 0, or -1 when a sheet could not be added. */
struct rpt_book;
int rpt_reconcile_sheet(struct rpt_book *b, const struct rpt_input *in);

/* The claimed equity and the replayed one, as the replay stage wrote them into reconcile.csv
 * (each compounded on the equity at a trade's entry, one point per exit, a start at 1 before
 * the first). Returns 0 with both filled (release with rpt_series_release), or -1 with the
 * reason in why (no reconciliation, an unreadable file, out of memory). */
int rpt_reconcile_curves(const struct rpt_input *in, struct rpt_series *claimed,
			 struct rpt_series *replayed, char *why, size_t whylen);

#endif
