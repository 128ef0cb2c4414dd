/* report_xlsx.c - writes report.xlsx: one table a sheet, each with a filter over exactly its
 * rows, numbers as numbers, text as text. A section with a table and figures gets two sheets:
 * the figures are a table of two columns (figure, value). */
#include "report_xlsx.h"
#include "report_xlsx_book.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonio.h"
#include "msg.h"
#include "report_freqtrade.h"
#include "report_live.h"
#include "report_reconcile.h"
#include "text.h"
#include "report_fmt.h"
#include "timeutil.h"

#define XLSX_TEXT_MAX 32000  /* Excel refuses cells longer than 32767 characters */

char *rpt_xlsx_cell_text(const char *s)
{
	size_t len = strnlen(s, XLSX_TEXT_MAX);
	bool utf8 = sa_utf8_valid(s, len, NULL), quote = sa_is_formula_like(s);
	char *out = malloc(len + 2), *o = out;
	if (!out)
		return NULL;
	if (quote)
		*o++ = '\'';
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f || (!utf8 && c >= 0x80))
			c = '?';
		*o++ = (char)c;
	}
	*o = '\0';
	if (utf8 && len == XLSX_TEXT_MAX)  /* do not leave half a character at the cut */
		while (o > out && ((unsigned char)o[-1] & 0xc0) == 0x80)
			*--o = '\0';
	return out;
}

void rpt_xlsx_text(lxw_worksheet *ws, int r, int c, const char *s, lxw_format *f)
{
	char *t = rpt_xlsx_cell_text(s ? s : "");
	if (t)
		worksheet_write_string(ws, (lxw_row_t)r, (lxw_col_t)c, t, f);
	free(t);
}

void rpt_xlsx_json(lxw_worksheet *ws, int r, int c, const cJSON *v, lxw_format *f)
{
	if (cJSON_IsNumber(v) && isfinite(v->valuedouble))
		worksheet_write_number(ws, (lxw_row_t)r, (lxw_col_t)c, v->valuedouble, f);
	else if (cJSON_IsBool(v))
		worksheet_write_boolean(ws, (lxw_row_t)r, (lxw_col_t)c, cJSON_IsTrue(v), NULL);
	else if (cJSON_IsString(v))
		rpt_xlsx_text(ws, r, c, v->valuestring, NULL);
}

void rpt_xlsx_time(const struct rpt_book *b, lxw_worksheet *ws, int r, int c, const char *s)
{
	int64_t t;
	if (s && sa_time_parse(s, &t) == 0)
		worksheet_write_unixtime(ws, (lxw_row_t)r, (lxw_col_t)c, t, b->date);
	else
		rpt_xlsx_text(ws, r, c, s, NULL);
}

lxw_worksheet *rpt_xlsx_sheet(struct rpt_book *b, const char *name, const char *const *heads, int n,
			      const double *widths)
{
	lxw_worksheet *ws = workbook_add_worksheet(b->wb, name);
	for (int c = 0; ws && c < n; c++) {
		worksheet_write_string(ws, 0, (lxw_col_t)c, heads[c], b->head);
		worksheet_set_column(ws, (lxw_col_t)c, (lxw_col_t)c, widths[c], NULL);
	}
	if (ws)
		worksheet_freeze_panes(ws, 1, 0);
	return ws;
}

lxw_worksheet *rpt_xlsx_table_sheet(struct rpt_book *b, const char *name, const struct rpt_col *t, int n)
{
	const char *heads[16];
	double widths[16];

	for (int c = 0; c < n && c < 16; c++) {
		heads[c] = t[c].column;
		widths[c] = t[c].xlsx_width;
	}
	return rpt_xlsx_sheet(b, name, heads, n < 16 ? n : 16, widths);
}

void rpt_xlsx_filter(lxw_worksheet *ws, int last, int cols)
{
	if (ws)
		worksheet_autofilter(ws, 0, 0, (lxw_row_t)(last > 0 ? last : 0), (lxw_col_t)(cols - 1));
}

lxw_format *rpt_xlsx_cell_format(const struct rpt_book *b, enum rpt_cell k)
{
	switch (k) {
	case RPT_CELL_NUM: return b->num;
	case RPT_CELL_PCT: return b->pct;
	case RPT_CELL_ROW_SHARPE: return b->row_sharpe;
	case RPT_CELL_ROW_NET: return b->row_net;
	default: return NULL;
	}
}

int rpt_xlsx_kv_open(struct rpt_book *b, const char *name, double label_width, struct rpt_kv *kv)
{
	static const char *const h[] = { "figure", "value" };
	const double w[] = { label_width, 60 };

	kv->b = b;
	kv->row = 1;
	kv->ws = rpt_xlsx_sheet(b, name, h, 2, w);
	return kv->ws ? 0 : -1;
}

void rpt_xlsx_kv(struct rpt_kv *kv, const char *label, const cJSON *v, lxw_format *f)
{
	if (!kv->ws)
		return;
	rpt_xlsx_text(kv->ws, kv->row, 0, label, NULL);
	rpt_xlsx_json(kv->ws, kv->row++, 1, v, f);
}

void rpt_xlsx_kv_text(struct rpt_kv *kv, const char *label, const char *text, lxw_format *f)
{
	if (!kv->ws)
		return;
	rpt_xlsx_text(kv->ws, kv->row, 0, label, NULL);
	rpt_xlsx_text(kv->ws, kv->row++, 1, text, f);
}

void rpt_xlsx_kv_close(struct rpt_kv *kv)
{
	rpt_xlsx_filter(kv->ws, kv->row - 1, 2);
}

static const cJSON *get(const cJSON *o, const char *k)
{
	return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, k) : NULL;
}

/* Sheet Summary: the verdict, the headline figures, the fingerprint and each stage file that is
 * missing, one figure a row. */
static void write_summary(struct rpt_book *b, const struct rpt_input *in, const char *name)
{
	const cJSON *v = rpt_stage_ok(in, RPT_VERDICT), *st = rpt_stage_ok(in, RPT_STATS);
	const cJSON *rp = rpt_stage_ok(in, RPT_REPLAY), *fp = in->stage[RPT_FINGERPRINT].json;
	const cJSON *run = in->stage[RPT_RUN].json;
	struct rpt_kv kv;

	if (rpt_xlsx_kv_open(b, "Summary", 40, &kv))
		return;
	worksheet_set_column(kv.ws, 1, 1, 90, NULL);
	rpt_xlsx_kv_text(&kv, "audit", name, NULL);
	rpt_xlsx_kv_text(&kv, "verdict", sa_json_str(v, "verdict", "NO_VERDICT"), v ? NULL : b->bad);
	rpt_xlsx_kv(&kv, "gate verdict", get(v, "gate_verdict"), NULL);
	rpt_xlsx_kv_text(&kv, "summary", sa_json_str(v, "summary", "verdict.json is missing or failed"), b->wrap);
	rpt_xlsx_kv(&kv, "sandbox status", get(run, "status"), NULL);
	rpt_xlsx_kv(&kv, "sandbox error", get(run, "error"), b->wrap);
	rpt_xlsx_kv(&kv, "blocked actions", get(run, "blocked_actions"), NULL);
	rpt_xlsx_kv(&kv, "trades", get(st, "trades"), NULL);
	rpt_xlsx_kv(&kv, "gross return", get(rp, "gross_return"), b->pct);
	rpt_xlsx_kv(&kv, "net return", get(rp, "net_return"), b->pct);
	rpt_xlsx_kv(&kv, "Sharpe ratio (per trade)", get(st, "sharpe"), b->num);
	rpt_xlsx_kv(&kv, "Sharpe ratio (annualised, not Lo-corrected)",
		    get(get(st, "sharpe_annualised"), "value"), b->num);
	rpt_xlsx_kv(&kv, "Sharpe ratio (annualised, Lo-corrected)",
		    get(get(st, "sharpe_annualised_lo"), "value"), b->num);
	rpt_xlsx_kv(&kv, "PSR", get(st, "psr"), b->num);
	rpt_xlsx_kv(&kv, "DSR", get(st, "dsr"), b->num);
	rpt_xlsx_kv(&kv, "PSR, every trade independent", get(st, "psr_iid"), b->num);
	rpt_xlsx_kv(&kv, "DSR, every trade independent", get(st, "dsr_iid"), b->num);
	rpt_xlsx_kv(&kv, "effective trades", get(get(st, "autocorrelation"), "effective_trades"), b->num);
	rpt_xlsx_kv(&kv, "lag-1 autocorrelation, trades", get(get(st, "autocorrelation"), "trades_lag1"), b->num);
	rpt_xlsx_kv(&kv, "lag-1 autocorrelation, bars", get(get(st, "autocorrelation"), "bars_lag1"), b->num);
	rpt_xlsx_kv(&kv, "trials", get(st, "trials"), NULL);
	rpt_xlsx_kv(&kv, "MinTRL (trades)", get(st, "min_trl"), b->num);
	rpt_xlsx_kv(&kv, "max drawdown", get(st, "max_drawdown"), b->pct);
	rpt_xlsx_kv(&kv, "strategy sha256", get(fp, "strategy_sha256"), NULL);
	rpt_xlsx_kv(&kv, "data sha256", get(fp, "data_sha256"), NULL);
	rpt_xlsx_kv(&kv, "config sha256", get(fp, "config_sha256"), NULL);
	rpt_xlsx_kv(&kv, "tool version", get(fp, "tool_version"), NULL);
	for (int f = 0; f < RPT_NFILES; f++) {
		char label[64];

		if (!in->stage[f].ok)
			rpt_xlsx_kv_text(&kv, sa_fmt(label, sizeof label, "missing: %s", in->stage[f].file),
					 in->stage[f].reason, b->bad);
	}
	rpt_xlsx_kv_close(&kv);
}

/* Sheets Gates (one row a gate) and Vetoes (one row a veto, none when nothing vetoed). */
static void write_gates(struct rpt_book *b, const struct rpt_input *in)
{
	static const char *const h[] = { "gate", "value", "threshold", "pass", "why" };
	static const double w[] = { 16, 14, 14, 8, 80 };
	static const char *const vh[] = { "veto", "reason" };
	static const double vw[] = { 24, 100 };
	lxw_worksheet *ws = rpt_xlsx_sheet(b, "Gates", h, 5, w);
	const cJSON *g, *veto, *v = rpt_stage_ok(in, RPT_VERDICT);
	int r = 1;

	if (!ws)
		return;
	cJSON_ArrayForEach(g, get(v, "gates")) {
		bool pass = sa_json_bool(g, "pass", false);

		rpt_xlsx_json(ws, r, 0, get(g, "name"), NULL);
		rpt_xlsx_json(ws, r, 1, get(g, "value"), b->num);
		rpt_xlsx_json(ws, r, 2, get(g, "threshold"), b->num);
		worksheet_write_boolean(ws, (lxw_row_t)r, 3, pass, pass ? b->good : b->bad);
		rpt_xlsx_json(ws, r++, 4, get(g, "why"), NULL);
	}
	rpt_xlsx_filter(ws, r - 1, 5);
	if (!(ws = rpt_xlsx_sheet(b, "Vetoes", vh, 2, vw)))
		return;
	r = 1;
	cJSON_ArrayForEach(veto, get(v, "vetoes")) {
		rpt_xlsx_json(ws, r, 0, get(veto, "name"), b->bad);
		rpt_xlsx_json(ws, r++, 1, get(veto, "reason"), NULL);
	}
	rpt_xlsx_filter(ws, r - 1, 2);
}

static void write_trades(struct rpt_book *b, const struct rpt_input *in)
{
	static const char *const cols[] = { "entry_time", "exit_time", "side", "entry_px", "exit_px",
					    "bars_held", "gross_return", "fees", "slippage", "funding",
					    "borrow", "net_return", "exit_reason" };
	static const double w[] = { 17, 17, 7, 12, 12, 9, 13, 11, 11, 11, 11, 13, 13 };
	enum { N_COLS = sizeof cols / sizeof cols[0] };
	lxw_worksheet *ws = rpt_xlsx_sheet(b, "Trades", cols, N_COLS, w);
	const struct rpt_table *tb = &in->trades;
	size_t n = tb->rows ? tb->rows - 1 : 0;

	if (!ws)
		return;
	for (size_t r = 0; r < n; r++) {
		for (int c = 0; c < N_COLS; c++) {
			const char *s = rpt_table_get(tb, r, rpt_table_col(tb, cols[c]));
			double x;
			if (c < 2)
				rpt_xlsx_time(b, ws, (int)r + 1, c, s);
			else if (c != 2 && c != 12 && rpt_parse_num(s, &x) == 0)
				worksheet_write_number(ws, (lxw_row_t)r + 1, (lxw_col_t)c, x,
						       c >= 6 ? b->pct : c == 5 ? NULL : b->num);
			else
				rpt_xlsx_text(ws, (int)r + 1, c, s, NULL);
		}
	}
	rpt_xlsx_filter(ws, (int)n, N_COLS);
}

/* The equity table and, beside it, a native line chart of net and gross equity. */
static void write_equity(struct rpt_book *b, const struct rpt_input *in)
{
	static const char *const h[] = { "time", "position", "gross_equity", "net_equity" };
	static const double w[] = { 17, 9, 13, 13 };
	lxw_worksheet *ws = rpt_xlsx_sheet(b, "Equity", h, 4, w);
	const struct rpt_series *s = &in->equity;
	char cat[64], val[64];
	if (!ws)
		return;
	for (size_t i = 0; i < s->n; i++) {
		worksheet_write_unixtime(ws, (lxw_row_t)i + 1, 0, s->t[i], b->date);
		worksheet_write_number(ws, (lxw_row_t)i + 1, 1, s->pos[i], NULL);
		worksheet_write_number(ws, (lxw_row_t)i + 1, 2, s->gross[i], b->num);
		worksheet_write_number(ws, (lxw_row_t)i + 1, 3, s->net[i], b->num);
	}
	rpt_xlsx_filter(ws, (int)s->n, 4);
	if (s->n < 2)
		return;
	lxw_chart *ch = workbook_add_chart(b->wb, LXW_CHART_LINE);
	if (!ch)
		return;
	sa_fmt(cat, sizeof cat, "=Equity!$A$2:$A$%zu", s->n + 1);
	sa_fmt(val, sizeof val, "=Equity!$D$2:$D$%zu", s->n + 1);
	lxw_chart_series *net = chart_add_series(ch, cat, val);
	sa_fmt(val, sizeof val, "=Equity!$C$2:$C$%zu", s->n + 1);
	lxw_chart_series *gross = chart_add_series(ch, cat, val);
	lxw_chart_line net_line = { .color = 0x1A4DA6, .width = 1.5 };
	lxw_chart_line gross_line = { .color = 0x8C99AD, .width = 1.25, .dash_type = LXW_CHART_LINE_DASH_DASH };
	chart_series_set_name(net, "net equity");
	chart_series_set_line(net, &net_line);
	chart_series_set_name(gross, "gross equity");
	chart_series_set_line(gross, &gross_line);
	chart_title_set_name(ch, "Equity, net and gross of costs");
	chart_axis_set_num_format(ch->x_axis, "yyyy-mm-dd");
	chart_axis_set_name(ch->x_axis, "time (UTC)");
	chart_axis_set_name(ch->y_axis, "equity (start = 1)");
	chart_legend_set_position(ch, LXW_CHART_LEGEND_BOTTOM);
	lxw_chart_options opt = { .x_scale = 2.2, .y_scale = 1.6 };
	worksheet_insert_chart_opt(ws, 1, 5, ch, &opt);
}

/* Sheets LookAhead (lookahead.json's figures) and LookAhead mismatches (one row a bar where a
 * truncated run decided otherwise than the full one). */
static void write_lookahead(struct rpt_book *b, const struct rpt_input *in)
{
	static const char *const h[] = { "point", "bar", "time", "full", "truncated" };
	static const double w[] = { 10, 10, 17, 8, 10 };
	static const char *const keys[] = { "clean", "complete", "stopped", "points_checked",
					    "points_run", "candidate_points", "capped", "mismatch_count",
					    "failed_count", "failed_runs", "explanation" };
	const cJSON *la = in->stage[RPT_LOOKAHEAD].json, *m;
	struct rpt_kv kv;
	lxw_worksheet *ws;
	int r = 1;

	if (rpt_xlsx_kv_open(b, "LookAhead", 20, &kv))
		return;
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
		rpt_xlsx_kv(&kv, keys[k], get(la, keys[k]), NULL);
	if (!in->stage[RPT_LOOKAHEAD].ok)
		rpt_xlsx_kv_text(&kv, "not usable", in->stage[RPT_LOOKAHEAD].reason, b->bad);
	rpt_xlsx_kv_close(&kv);
	if (!(ws = rpt_xlsx_sheet(b, "LookAhead mismatches", h, 5, w)))
		return;
	cJSON_ArrayForEach(m, get(la, "mismatches")) {
		rpt_xlsx_json(ws, r, 0, get(m, "point"), NULL);
		rpt_xlsx_json(ws, r, 1, get(m, "bar"), NULL);
		rpt_xlsx_time(b, ws, r, 2, sa_json_str(m, "time", ""));
		rpt_xlsx_json(ws, r, 3, get(m, "full"), NULL);
		rpt_xlsx_json(ws, r++, 4, get(m, "truncated"), NULL);
	}
	rpt_xlsx_filter(ws, r - 1, 5);
}

/* Sheets Robustness (robustness.json's figures: warmup.*, permutation.*) and Later starts (one
 * row a run on a later start of the history). */
static void write_robust(struct rpt_book *b, const struct rpt_input *in)
{
	static const char *const h[] = { "start %", "first bar", "status", "differing bars",
					 "disagreement", "first difference" };
	static const double w[] = { 9, 10, 12, 14, 13, 20 };
	static const char *const wkeys[] = { "flagged", "compared_bars", "failed_runs", "explanation" };
	static const char *const pkeys[] = { "runs", "failed_runs", "real_sharpe", "real_net_return",
					     "null_mean", "null_p95", "p_value", "explanation",
					     "does_not_catch" };
	const cJSON *rb = in->stage[RPT_ROBUST].json, *wu = get(rb, "warmup"), *p = get(rb, "permutation");
	const cJSON *run;
	struct rpt_kv kv;
	lxw_worksheet *ws;
	char label[40];
	int r = 1;

	if (rpt_xlsx_kv_open(b, "Robustness", 26, &kv))
		return;
	for (size_t i = 0; i < sizeof wkeys / sizeof wkeys[0]; i++)
		rpt_xlsx_kv(&kv, sa_fmt(label, sizeof label, "warmup.%s", wkeys[i]), get(wu, wkeys[i]), NULL);
	for (size_t i = 0; i < sizeof pkeys / sizeof pkeys[0]; i++)
		rpt_xlsx_kv(&kv, sa_fmt(label, sizeof label, "permutation.%s", pkeys[i]), get(p, pkeys[i]), NULL);
	if (!in->stage[RPT_ROBUST].ok)
		rpt_xlsx_kv_text(&kv, "not usable", in->stage[RPT_ROBUST].reason, b->bad);
	rpt_xlsx_kv_close(&kv);
	if (!(ws = rpt_xlsx_sheet(b, "Later starts", h, 6, w)))
		return;
	cJSON_ArrayForEach(run, get(wu, "runs")) {
		rpt_xlsx_json(ws, r, 0, get(run, "percent"), NULL);
		rpt_xlsx_json(ws, r, 1, get(run, "offset"), NULL);
		rpt_xlsx_json(ws, r, 2, get(run, "status"), NULL);
		rpt_xlsx_json(ws, r, 3, get(run, "differing_bars"), NULL);
		rpt_xlsx_json(ws, r, 4, get(run, "disagreement"), NULL);
		rpt_xlsx_time(b, ws, r++, 5, sa_json_str(run, "first_time", ""));
	}
	rpt_xlsx_filter(ws, r - 1, 6);
}

static void write_containment(struct rpt_book *b, const struct rpt_input *in)
{
	static const char *const h[] = { "seq", "action", "rule", "detail" };
	static const double w[] = { 7, 24, 28, 90 };
	lxw_worksheet *ws = rpt_xlsx_sheet(b, "Containment", h, 4, w);
	const cJSON *e;
	int r = 1;
	if (!ws)
		return;
	cJSON_ArrayForEach(e, in->events) {
		rpt_xlsx_json(ws, r, 0, get(e, "seq"), NULL);
		rpt_xlsx_json(ws, r, 1, get(e, "action"), b->bad);
		rpt_xlsx_json(ws, r, 2, get(e, "rule"), NULL);
		rpt_xlsx_json(ws, r++, 3, get(e, "detail"), NULL);
	}
	rpt_xlsx_filter(ws, r - 1, 4);
}

/* Sheet Inspection: the static flags, then a trade log's errors (code tradelog_error). */
static void write_inspection(struct rpt_book *b, const struct rpt_input *in)
{
	static const char *const h[] = { "code", "severity", "line", "col", "message", "source" };
	static const double w[] = { 22, 10, 7, 7, 60, 70 };
	lxw_worksheet *ws = rpt_xlsx_sheet(b, "Inspection", h, 6, w);
	const cJSON *ins = in->stage[RPT_INSPECT].json, *f;
	int r = 1;
	if (!ws)
		return;
	cJSON_ArrayForEach(f, get(get(ins, "strategy"), "flags")) {
		for (int c = 0; c < 6; c++)
			rpt_xlsx_json(ws, r, c, get(f, h[c]), NULL);
		r++;
	}
	cJSON_ArrayForEach(f, get(get(ins, "tradelog"), "errors")) {
		worksheet_write_string(ws, (lxw_row_t)r, 0, "tradelog_error", NULL);
		rpt_xlsx_json(ws, r, 2, get(f, "line"), NULL);
		rpt_xlsx_json(ws, r++, 4, get(f, "message"), NULL);
	}
	rpt_xlsx_filter(ws, r - 1, 6);
}

/* Sheets Variants (one row a declared variant, as in variants.csv) and Trials (how many trials
 * the deflation counted, the variance of their Sharpe ratios, and the PBO figures). */
static void write_variants(struct rpt_book *b, const struct rpt_input *in)
{
	static const char *const pkeys[] = { "value", "blocks", "combinations", "prob_oos_loss",
					     "degradation_slope" };
	static const char *const tkeys[] = { "trials", "trials_source", "sr_variance",
					     "sr_variance_source", "sr0" };
	const struct rpt_table *tb = &in->variant_rows;
	const cJSON *stats = rpt_stage_ok(in, RPT_STATS), *pbo = get(stats, "pbo");
	lxw_worksheet *ws = rpt_xlsx_table_sheet(b, "Variants", rpt_variant_cols, RPT_VARIANT_COLS);
	size_t n = tb->rows ? tb->rows - 1 : 0;
	struct rpt_kv kv;
	char label[40];

	if (!ws)
		return;
	for (size_t r = 0; r < n; r++)
		for (int c = 0; c < RPT_VARIANT_COLS; c++) {
			const char *s = rpt_table_get(tb, r, rpt_table_col(tb, rpt_variant_cols[c].column));
			enum rpt_cell k = rpt_variant_cols[c].cell;
			double x;

			if (k != RPT_CELL_TEXT && rpt_parse_num(s, &x) == 0)
				worksheet_write_number(ws, (lxw_row_t)r + 1, (lxw_col_t)c, x,
						       k == RPT_CELL_PCT ? b->pct : k == RPT_CELL_NUM ? b->num : NULL);
			else
				rpt_xlsx_text(ws, (int)r + 1, c, s, NULL);
		}
	rpt_xlsx_filter(ws, (int)n, RPT_VARIANT_COLS);
	if (rpt_xlsx_kv_open(b, "Trials", 24, &kv))
		return;
	for (size_t k = 0; k < sizeof tkeys / sizeof tkeys[0]; k++)
		rpt_xlsx_kv(&kv, tkeys[k], get(stats, tkeys[k]), NULL);
	if (cJSON_IsObject(pbo))
		for (size_t k = 0; k < sizeof pkeys / sizeof pkeys[0]; k++)
			rpt_xlsx_kv(&kv, sa_fmt(label, sizeof label, "pbo.%s", pkeys[k]), get(pbo, pkeys[k]), b->num);
	else
		rpt_xlsx_kv(&kv, "pbo_reason", get(stats, "pbo_reason"), NULL);
	rpt_xlsx_kv_close(&kv);
}

const char *rpt_xlsx_decimals(char *buf, size_t len, int d, const char *suffix)
{
	sa_fmt(buf, len, "0%s%.*s%s", d > 0 ? "." : "", d, "000000000000", suffix);
	return buf;
}

static void make_formats(struct rpt_book *b)
{
	char fmt[32];

	b->head = workbook_add_format(b->wb);
	format_set_bold(b->head);
	format_set_bg_color(b->head, 0xE8ECF2);
	format_set_bottom(b->head, LXW_BORDER_THIN);
	b->date = workbook_add_format(b->wb);
	format_set_num_format(b->date, "yyyy-mm-dd hh:mm");
	b->pct = workbook_add_format(b->wb);
	format_set_num_format(b->pct, "0.000%");
	b->num = workbook_add_format(b->wb);
	format_set_num_format(b->num, "0.0000");
	b->wrap = workbook_add_format(b->wb);
	format_set_text_wrap(b->wrap);
	b->bad = workbook_add_format(b->wb);
	format_set_font_color(b->bad, 0x9C0006);
	format_set_bg_color(b->bad, 0xFFC7CE);
	b->row_net = workbook_add_format(b->wb);
	format_set_num_format(b->row_net, rpt_xlsx_decimals(fmt, sizeof fmt, RPT_ROW_NET_DECIMALS, "%"));
	b->row_sharpe = workbook_add_format(b->wb);
	format_set_num_format(b->row_sharpe, rpt_xlsx_decimals(fmt, sizeof fmt, RPT_ROW_SHARPE_DECIMALS, ""));
	b->good = workbook_add_format(b->wb);
	format_set_font_color(b->good, 0x006100);
	format_set_bg_color(b->good, 0xC6EFCE);
}

/* Every sheet in order; 0, or -1 with err set when a section's sheets could not be added. */
static int write_sheets(struct rpt_book *b, const struct rpt_input *in, const char *name, char *err,
			size_t errlen)
{
	write_summary(b, in, name);
	write_gates(b, in);
	write_trades(b, in);
	write_equity(b, in);
	write_lookahead(b, in);
	if (rpt_live_sheet(b, in)) {
		sa_fmt(err, errlen, "cannot add the sheets Live and Live differences");
		return -1;
	}
	write_robust(b, in);
	write_variants(b, in);
	write_containment(b, in);
	write_inspection(b, in);
	if (rpt_reconcile_sheet(b, in)) {
		sa_fmt(err, errlen, "cannot add the sheets Reconcile and Worst gaps");
		return -1;
	}
	rpt_xlsx_tearsheet(b, rpt_stage_ok(in, RPT_STATS));
	if (rpt_freqtrade_sheets(b->wb, b->head, b->pct, in)) {
		sa_fmt(err, errlen, "cannot add freqtrade's sheets");
		return -1;
	}
	return 0;
}

int rpt_xlsx_write(const char *path, const struct rpt_input *in, const char *name, char *err, size_t errlen)
{
	char tmp[4096], title[300];
	struct rpt_book b = { 0 };
	int rc = -1;
	sa_fmt(tmp, sizeof tmp, "%s.tmp", path);
	sa_fmt(title, sizeof title, "strataudit report: %s", name);
	char *safe_title = rpt_xlsx_cell_text(title);
	lxw_doc_properties props = {
		.title = safe_title,
		.author = "strataudit",
		.comments = "Generated by strataudit " SA_VERSION,
		.created = (time_t)RPT_XLSX_CREATED,
	};
	b.wb = workbook_new(tmp);
	if (!b.wb || !safe_title) {
		sa_fmt(err, errlen, "cannot create '%s'", tmp);
		goto out;
	}
	workbook_set_properties(b.wb, &props);
	make_formats(&b);
	if (write_sheets(&b, in, name, err, errlen)) {
		workbook_close(b.wb);
		remove(tmp);
		goto out;
	}
	lxw_error e = workbook_close(b.wb);
	b.wb = NULL;
	if (e != LXW_NO_ERROR) {
		sa_fmt(err, errlen, "writing '%s': %s", tmp, lxw_strerror(e));
		remove(tmp);
		goto out;
	}
	if (rename(tmp, path) != 0) {
		sa_fmt(err, errlen, "cannot rename '%s' to '%s'", tmp, path);
		remove(tmp);
		goto out;
	}
	rc = 0;
out:
	free(safe_title);
	return rc;
}
