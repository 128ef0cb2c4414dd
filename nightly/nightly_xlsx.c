/* nightly_xlsx.c - the index as a spreadsheet; figures are numbers, text cells stay text. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xlsxwriter.h>

#include "msg.h"
#include "nightly_xlsx.h"

/* A fixed creation date (2000-01-01), so the same rows give a byte-identical file. */
#define FIXED_CREATED ((time_t)946684800)

static const char *const headers[] = {
	"strategy", "verdict", "gate verdict", "why", "trades", "Sharpe ratio (annualised)",
	"Sharpe ratio per trade", "net return", "max drawdown", "PSR", "DSR", "trials", "PBO",
	"blocked actions", "look-ahead mismatches", "data", "data sha256", "data first", "data last",
	"since last night", "change", "version", "run", "bundle", "bundle sha256", "code sha256", "note",
	"trial ledger", "since first audited", "edge decayed",
};

/* Writes a number, or leaves the cell empty when it is unknown. */
static void put_num(lxw_worksheet *ws, lxw_row_t row, lxw_col_t col, double x)
{
	if (isfinite(x))
		worksheet_write_number(ws, row, col, x, NULL);
}

/* Writes a fraction shown as a percentage, or leaves the cell empty when it is unknown. */
static void put_pct(lxw_worksheet *ws, lxw_row_t row, lxw_col_t col, double x, lxw_format *pct)
{
	if (isfinite(x))
		worksheet_write_number(ws, row, col, x, pct);
}

static void put_row(lxw_worksheet *ws, lxw_row_t row, const struct nightly_row *r, lxw_format *pct)
{
	lxw_col_t c = 0;

	/* write_string never makes a formula, so hostile text cannot become one */
	worksheet_write_string(ws, row, c++, r->name, NULL);
	worksheet_write_string(ws, row, c++, r->verdict, NULL);
	worksheet_write_string(ws, row, c++, r->gate_verdict, NULL);
	worksheet_write_string(ws, row, c++, r->reason, NULL);
	put_num(ws, row, c++, r->trades);
	put_num(ws, row, c++, r->sharpe);
	put_num(ws, row, c++, r->sharpe_per_trade);
	put_pct(ws, row, c++, r->net_return, pct);
	put_pct(ws, row, c++, r->max_drawdown, pct);
	put_num(ws, row, c++, r->psr);
	put_num(ws, row, c++, r->dsr);
	put_num(ws, row, c++, (double)r->trials);
	put_num(ws, row, c++, r->pbo);
	put_num(ws, row, c++, r->blocked >= 0 ? (double)r->blocked : NAN);
	put_num(ws, row, c++, r->mismatches >= 0 ? (double)r->mismatches : NAN);
	worksheet_write_string(ws, row, c++, r->data, NULL);
	worksheet_write_string(ws, row, c++, r->key.data, NULL);
	worksheet_write_string(ws, row, c++, r->data_first, NULL);
	worksheet_write_string(ws, row, c++, r->data_last, NULL);
	worksheet_write_string(ws, row, c++, nightly_news_name(r->news), NULL);
	worksheet_write_string(ws, row, c++, r->change, NULL);
	put_num(ws, row, c++, r->version > 0 ? (double)r->version : NAN);
	worksheet_write_string(ws, row, c++, r->audited ? "audited" : "reused", NULL);
	worksheet_write_string(ws, row, c++, r->bundle, NULL);
	worksheet_write_string(ws, row, c++, r->bundle_sha, NULL);
	worksheet_write_string(ws, row, c++, r->key.code, NULL);
	worksheet_write_string(ws, row, c++, r->note, NULL);
	worksheet_write_string(ws, row, c++, r->ledger, NULL);
	worksheet_write_string(ws, row, c++, r->forward, NULL);
	worksheet_write_boolean(ws, row, c++, r->edge_decayed, NULL);
}

int nightly_xlsx_write(const struct nightly_index *ix, const char *path)
{
	lxw_doc_properties props = {.title = "strataudit nightly index", .created = FIXED_CREATED};
	lxw_workbook *wb = NULL;
	lxw_worksheet *ws;
	lxw_format *bold, *pct;
	char *tmp = NULL;
	size_t n = strlen(path) + 5;
	int rc = -1;
	lxw_error err;

	tmp = malloc(n);
	if (!tmp)
		goto out;
	snprintf(tmp, n, "%s.tmp", path);
	wb = workbook_new(tmp);
	if (!wb) {
		sa_error("cannot create '%s'", tmp);
		goto out;
	}
	workbook_set_properties(wb, &props);
	ws = workbook_add_worksheet(wb, "night");
	bold = workbook_add_format(wb);
	format_set_bold(bold);
	pct = workbook_add_format(wb);
	format_set_num_format(pct, "0.00%");
	for (size_t i = 0; i < sizeof headers / sizeof headers[0]; i++)
		worksheet_write_string(ws, 0, (lxw_col_t)i, headers[i], bold);
	for (size_t i = 0; i < ix->n; i++)
		put_row(ws, (lxw_row_t)(i + 1), &ix->rows[i], pct);
	worksheet_freeze_panes(ws, 1, 1);
	/* the night is one table: a filter over its header and every row */
	worksheet_autofilter(ws, 0, 0, (lxw_row_t)ix->n, (lxw_col_t)(sizeof headers / sizeof headers[0] - 1));
	err = workbook_close(wb);
	wb = NULL;
	if (err != LXW_NO_ERROR) {
		sa_error("cannot write '%s': %s", tmp, lxw_strerror(err));
		remove(tmp);
		goto out;
	}
	if (rename(tmp, path) != 0) {
		sa_error("cannot rename '%s' to '%s'", tmp, path);
		remove(tmp);
		goto out;
	}
	rc = 0;
out:
	free(tmp);
	return rc;
}
