/* report_xlsx.c - writes report.xlsx: one sheet per section, numbers as numbers, text as text. */
#include "report_xlsx.h"
#include "report_columns.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xlsxwriter.h>

#include "jsonio.h"
#include "msg.h"
#include "report_freqtrade.h"
#include "report_live.h"
#include "report_reconcile.h"
#include "text.h"
#include "report_figures.h"
#include "timeutil.h"

#define XLSX_TEXT_MAX 32000  /* Excel refuses cells longer than 32767 characters */

struct book {
	lxw_workbook *wb;
	lxw_format *head, *date, *pct, *num, *wrap, *bad, *good;
	lxw_format *row_net, *row_sharpe;  /* a replayed row's net return and Sharpe, as the page */
};

/* A copy of s safe for a cell: valid UTF-8 (otherwise non-ASCII bytes become '?'), no control
 * characters but tab and newline, capped, and quoted when a spreadsheet would take it for a
 * formula. Caller frees; NULL when out of memory. */
static char *cell_text(const char *s)
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

static void put_text(lxw_worksheet *ws, int r, int c, const char *s, lxw_format *f)
{
	char *t = cell_text(s ? s : "");
	if (t)
		worksheet_write_string(ws, (lxw_row_t)r, (lxw_col_t)c, t, f);
	free(t);
}

/* A JSON value into a cell: numbers stay numbers (in format f), strings go through put_text. */
static void put_json(lxw_worksheet *ws, int r, int c, const cJSON *v, lxw_format *f)
{
	if (cJSON_IsNumber(v) && isfinite(v->valuedouble))
		worksheet_write_number(ws, (lxw_row_t)r, (lxw_col_t)c, v->valuedouble, f);
	else if (cJSON_IsBool(v))
		worksheet_write_boolean(ws, (lxw_row_t)r, (lxw_col_t)c, cJSON_IsTrue(v), NULL);
	else if (cJSON_IsString(v))
		put_text(ws, r, c, v->valuestring, NULL);
}

/* A timestamp string as an Excel date when it parses, as text otherwise. */
static void put_time(struct book *b, lxw_worksheet *ws, int r, int c, const char *s)
{
	int64_t t;
	if (s && sa_time_parse(s, &t) == 0)
		worksheet_write_unixtime(ws, (lxw_row_t)r, (lxw_col_t)c, t, b->date);
	else
		put_text(ws, r, c, s, NULL);
}

static lxw_worksheet *sheet(struct book *b, const char *name, const char *const *heads, int n, const double *widths)
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

static const cJSON *get(const cJSON *o, const char *k)
{
	return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, k) : NULL;
}

/* A sheet headed by a shared table's XLSX columns (report_columns.h). */
static lxw_worksheet *table_sheet(struct book *b, const char *name, const struct rpt_col *t, int n)
{
	const char *heads[16];
	double widths[16];

	for (int c = 0; c < n && c < 16; c++) {
		heads[c] = t[c].column;
		widths[c] = t[c].xlsx_width;
	}
	return sheet(b, name, heads, n < 16 ? n : 16, widths);
}

/* A filter over a sheet's one table: the header row and the rows up to last. */
static void filter(lxw_worksheet *ws, int last, int cols)
{
	if (ws)
		worksheet_autofilter(ws, 0, 0, (lxw_row_t)(last > 0 ? last : 0), (lxw_col_t)(cols - 1));
}

/* The number format of a cell kind (NULL: the default). */
static lxw_format *cell_format(const struct book *b, enum rpt_cell k)
{
	switch (k) {
	case RPT_CELL_NUM: return b->num;
	case RPT_CELL_PCT: return b->pct;
	case RPT_CELL_ROW_SHARPE: return b->row_sharpe;
	case RPT_CELL_ROW_NET: return b->row_net;
	default: return NULL;
	}
}

/* One row of a shared table from the JSON object it, each cell put_json with its kind's format. */
static void json_row(const struct book *b, lxw_worksheet *ws, int r, const struct rpt_col *t, int n,
		     const cJSON *it)
{
	for (int c = 0; c < n; c++)
		put_json(ws, r, c, get(it, t[c].column), cell_format(b, t[c].cell));
}

static void summary_row(struct book *b, lxw_worksheet *ws, int *r, const char *label, const cJSON *v, lxw_format *f)
{
	worksheet_write_string(ws, (lxw_row_t)*r, 0, label, NULL);
	put_json(ws, *r, 1, v, f);
	(*r)++;
	(void)b;
}

static void write_summary(struct book *b, const struct rpt_input *in, const char *name)
{
	static const char *const h[] = { "item", "value" };
	static const double w[] = { 28, 90 };
	lxw_worksheet *ws = sheet(b, "Summary", h, 2, w);
	const cJSON *v = rpt_stage_ok(in, RPT_VERDICT), *st = rpt_stage_ok(in, RPT_STATS);
	const cJSON *rp = rpt_stage_ok(in, RPT_REPLAY), *fp = in->stage[RPT_FINGERPRINT].json;
	const cJSON *run = in->stage[RPT_RUN].json;
	int r = 1;
	if (!ws)
		return;
	worksheet_write_string(ws, (lxw_row_t)r, 0, "audit", NULL);
	put_text(ws, r++, 1, name, NULL);
	worksheet_write_string(ws, (lxw_row_t)r, 0, "verdict", NULL);
	put_text(ws, r++, 1, sa_json_str(v, "verdict", "NO_VERDICT"), v ? NULL : b->bad);
	summary_row(b, ws, &r, "gate verdict", get(v, "gate_verdict"), NULL);
	worksheet_write_string(ws, (lxw_row_t)r, 0, "summary", NULL);
	put_text(ws, r++, 1, sa_json_str(v, "summary", "verdict.json is missing or failed"), b->wrap);
	summary_row(b, ws, &r, "sandbox status", get(run, "status"), NULL);
	summary_row(b, ws, &r, "sandbox error", get(run, "error"), b->wrap);
	summary_row(b, ws, &r, "blocked actions", get(run, "blocked_actions"), NULL);
	summary_row(b, ws, &r, "trades", get(st, "trades"), NULL);
	summary_row(b, ws, &r, "gross return", get(rp, "gross_return"), b->pct);
	summary_row(b, ws, &r, "net return", get(rp, "net_return"), b->pct);
	summary_row(b, ws, &r, "Sharpe ratio (per trade)", get(st, "sharpe"), b->num);
	summary_row(b, ws, &r, "Sharpe ratio (annualised, not Lo-corrected)",
		    get(get(st, "sharpe_annualised"), "value"), b->num);
	summary_row(b, ws, &r, "Sharpe ratio (annualised, Lo-corrected)",
		    get(get(st, "sharpe_annualised_lo"), "value"), b->num);
	summary_row(b, ws, &r, "PSR", get(st, "psr"), b->num);
	summary_row(b, ws, &r, "DSR", get(st, "dsr"), b->num);
	summary_row(b, ws, &r, "PSR, every trade independent", get(st, "psr_iid"), b->num);
	summary_row(b, ws, &r, "DSR, every trade independent", get(st, "dsr_iid"), b->num);
	summary_row(b, ws, &r, "effective trades", get(get(st, "autocorrelation"), "effective_trades"), b->num);
	summary_row(b, ws, &r, "lag-1 autocorrelation, trades", get(get(st, "autocorrelation"), "trades_lag1"), b->num);
	summary_row(b, ws, &r, "lag-1 autocorrelation, bars", get(get(st, "autocorrelation"), "bars_lag1"), b->num);
	summary_row(b, ws, &r, "trials", get(st, "trials"), NULL);
	summary_row(b, ws, &r, "MinTRL (trades)", get(st, "min_trl"), b->num);
	summary_row(b, ws, &r, "max drawdown", get(st, "max_drawdown"), b->pct);
	summary_row(b, ws, &r, "strategy sha256", get(fp, "strategy_sha256"), NULL);
	summary_row(b, ws, &r, "data sha256", get(fp, "data_sha256"), NULL);
	summary_row(b, ws, &r, "config sha256", get(fp, "config_sha256"), NULL);
	summary_row(b, ws, &r, "tool version", get(fp, "tool_version"), NULL);
	for (int f = 0; f < RPT_NFILES; f++) {
		if (in->stage[f].ok)
			continue;
		char label[64];
		worksheet_write_string(ws, (lxw_row_t)r, 0, sa_fmt(label, sizeof label, "missing: %s", in->stage[f].file), b->bad);
		put_text(ws, r++, 1, in->stage[f].reason, b->wrap);
	}
}

static void write_gates(struct book *b, const struct rpt_input *in)
{
	static const char *const h[] = { "gate", "value", "threshold", "pass", "why" };
	static const double w[] = { 16, 14, 14, 8, 80 };
	lxw_worksheet *ws = sheet(b, "Gates", h, 5, w);
	const cJSON *g, *v = rpt_stage_ok(in, RPT_VERDICT);
	int r = 1;
	if (!ws)
		return;
	cJSON_ArrayForEach(g, get(v, "gates")) {
		put_json(ws, r, 0, get(g, "name"), NULL);
		put_json(ws, r, 1, get(g, "value"), b->num);
		put_json(ws, r, 2, get(g, "threshold"), b->num);
		worksheet_write_boolean(ws, (lxw_row_t)r, 3, sa_json_bool(g, "pass", false),
					sa_json_bool(g, "pass", false) ? b->good : b->bad);
		put_json(ws, r, 4, get(g, "why"), NULL);
		r++;
	}
	const cJSON *veto;
	cJSON_ArrayForEach(veto, get(v, "vetoes")) {
		worksheet_write_string(ws, (lxw_row_t)r, 0, "veto", b->bad);
		put_json(ws, r, 1, get(veto, "name"), NULL);
		put_json(ws, r++, 4, get(veto, "reason"), NULL);
	}
}

static void write_trades(struct book *b, const struct rpt_input *in)
{
	static const char *const cols[] = { "entry_time", "exit_time", "side", "entry_px", "exit_px",
					    "bars_held", "gross_return", "fees", "slippage", "funding",
					    "borrow", "net_return", "exit_reason" };
	static const double w[] = { 17, 17, 7, 12, 12, 9, 13, 11, 11, 11, 11, 13, 13 };
	enum { N_COLS = sizeof cols / sizeof cols[0] };
	lxw_worksheet *ws = sheet(b, "Trades", cols, N_COLS, w);
	const struct rpt_table *tb = &in->trades;
	if (!ws)
		return;
	for (size_t r = 0; tb->rows && r < tb->rows - 1; r++) {
		for (int c = 0; c < N_COLS; c++) {
			const char *s = rpt_table_get(tb, r, rpt_table_col(tb, cols[c]));
			double x;
			if (c < 2)
				put_time(b, ws, (int)r + 1, c, s);
			else if (c != 2 && c != 12 && rpt_parse_num(s, &x) == 0)
				worksheet_write_number(ws, (lxw_row_t)r + 1, (lxw_col_t)c, x,
						       c >= 6 ? b->pct : c == 5 ? NULL : b->num);
			else
				put_text(ws, (int)r + 1, c, s, NULL);
		}
	}
}

/* The equity table and, beside it, a native line chart of net and gross equity. */
static void write_equity(struct book *b, const struct rpt_input *in)
{
	static const char *const h[] = { "time", "position", "gross_equity", "net_equity" };
	static const double w[] = { 17, 9, 13, 13 };
	lxw_worksheet *ws = sheet(b, "Equity", h, 4, w);
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

static void write_lookahead(struct book *b, const struct rpt_input *in)
{
	static const char *const h[] = { "point", "bar", "time", "full", "truncated" };
	static const double w[] = { 10, 10, 17, 8, 10 };
	lxw_worksheet *ws = sheet(b, "LookAhead", h, 5, w);
	const cJSON *la = in->stage[RPT_LOOKAHEAD].json, *m;
	int r = 1;
	if (!ws)
		return;
	cJSON_ArrayForEach(m, get(la, "mismatches")) {
		put_json(ws, r, 0, get(m, "point"), NULL);
		put_json(ws, r, 1, get(m, "bar"), NULL);
		put_time(b, ws, r, 2, sa_json_str(m, "time", ""));
		put_json(ws, r, 3, get(m, "full"), NULL);
		put_json(ws, r, 4, get(m, "truncated"), NULL);
		r++;
	}
	static const char *const keys[] = { "clean", "complete", "stopped", "points_checked",
					    "points_run", "candidate_points", "capped", "mismatch_count",
					    "failed_count", "failed_runs", "explanation" };
	const int spare = (int)(sizeof keys / sizeof keys[0]) + 1;
	worksheet_set_column(ws, 7, 7, 18, NULL);
	worksheet_set_column(ws, 8, 8, 60, NULL);
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
		worksheet_write_string(ws, (lxw_row_t)k, 7, keys[k], b->head);
		put_json(ws, (int)k, 8, get(la, keys[k]), NULL);
	}
	if (!in->stage[RPT_LOOKAHEAD].ok) {
		worksheet_write_string(ws, (lxw_row_t)spare, 7, "not usable", b->bad);
		put_text(ws, spare, 8, in->stage[RPT_LOOKAHEAD].reason, NULL);
	}
}

static void write_robust(struct book *b, const struct rpt_input *in)
{
	static const char *const h[] = { "start %", "first bar", "status", "differing bars",
					 "disagreement", "first difference" };
	static const double w[] = { 9, 10, 12, 14, 13, 20 };
	lxw_worksheet *ws = sheet(b, "Robustness", h, 6, w);
	const cJSON *rb = in->stage[RPT_ROBUST].json, *wu = get(rb, "warmup"), *p = get(rb, "permutation");
	const cJSON *run;
	int r = 1;
	if (!ws)
		return;
	cJSON_ArrayForEach(run, get(wu, "runs")) {
		put_json(ws, r, 0, get(run, "percent"), NULL);
		put_json(ws, r, 1, get(run, "offset"), NULL);
		put_json(ws, r, 2, get(run, "status"), NULL);
		put_json(ws, r, 3, get(run, "differing_bars"), NULL);
		put_json(ws, r, 4, get(run, "disagreement"), NULL);
		put_time(b, ws, r, 5, sa_json_str(run, "first_time", ""));
		r++;
	}
	static const char *const wkeys[] = { "flagged", "compared_bars", "failed_runs", "explanation" };
	static const char *const pkeys[] = { "runs", "failed_runs", "real_sharpe", "real_net_return",
					     "null_mean", "null_p95", "p_value", "explanation",
					     "does_not_catch" };
	int k = 0;
	worksheet_set_column(ws, 7, 7, 22, NULL);
	worksheet_set_column(ws, 8, 8, 60, NULL);
	for (size_t i = 0; i < sizeof wkeys / sizeof wkeys[0]; i++, k++) {
		char label[40];
		worksheet_write_string(ws, (lxw_row_t)k, 7, sa_fmt(label, sizeof label, "warmup %s", wkeys[i]), b->head);
		put_json(ws, k, 8, get(wu, wkeys[i]), NULL);
	}
	for (size_t i = 0; i < sizeof pkeys / sizeof pkeys[0]; i++, k++) {
		char label[40];
		worksheet_write_string(ws, (lxw_row_t)k, 7, sa_fmt(label, sizeof label, "permutation %s", pkeys[i]), b->head);
		put_json(ws, k, 8, get(p, pkeys[i]), NULL);
	}
	if (!in->stage[RPT_ROBUST].ok) {
		worksheet_write_string(ws, (lxw_row_t)k, 7, "not usable", b->bad);
		put_text(ws, k, 8, in->stage[RPT_ROBUST].reason, NULL);
	}
}

static void write_containment(struct book *b, const struct rpt_input *in)
{
	static const char *const h[] = { "seq", "action", "rule", "detail" };
	static const double w[] = { 7, 24, 28, 90 };
	lxw_worksheet *ws = sheet(b, "Containment", h, 4, w);
	const cJSON *e;
	int r = 1;
	if (!ws)
		return;
	cJSON_ArrayForEach(e, in->events) {
		put_json(ws, r, 0, get(e, "seq"), NULL);
		put_json(ws, r, 1, get(e, "action"), b->bad);
		put_json(ws, r, 2, get(e, "rule"), NULL);
		put_json(ws, r, 3, get(e, "detail"), NULL);
		r++;
	}
}

static void write_inspection(struct book *b, const struct rpt_input *in)
{
	static const char *const h[] = { "code", "severity", "line", "col", "message", "source" };
	static const double w[] = { 22, 10, 7, 7, 60, 70 };
	lxw_worksheet *ws = sheet(b, "Inspection", h, 6, w);
	const cJSON *ins = in->stage[RPT_INSPECT].json, *f;
	int r = 1;
	if (!ws)
		return;
	cJSON_ArrayForEach(f, get(get(ins, "strategy"), "flags")) {
		for (int c = 0; c < 6; c++)
			put_json(ws, r, c, get(f, h[c]), NULL);
		r++;
	}
	cJSON_ArrayForEach(f, get(get(ins, "tradelog"), "errors")) {
		worksheet_write_string(ws, (lxw_row_t)r, 0, "tradelog_error", NULL);
		put_json(ws, r, 2, get(f, "line"), NULL);
		put_json(ws, r, 4, get(f, "message"), NULL);
		r++;
	}
}

/* One row a declared variant, as in variants.csv (rpt_variant_cols), then the PBO figures
 * beside them. */
static void write_variants(struct book *b, const struct rpt_input *in)
{
	static const char *const keys[] = { "value", "blocks", "combinations", "prob_oos_loss",
					    "degradation_slope" };
	const char *cols[RPT_VARIANT_COLS];
	double w[RPT_VARIANT_COLS];
	lxw_worksheet *ws;
	const struct rpt_table *tb = &in->variant_rows;
	const cJSON *stats = rpt_stage_ok(in, RPT_STATS), *pbo = get(stats, "pbo");

	for (int c = 0; c < RPT_VARIANT_COLS; c++) {
		cols[c] = rpt_variant_cols[c].column;
		w[c] = rpt_variant_cols[c].xlsx_width;
	}
	ws = sheet(b, "Variants", cols, RPT_VARIANT_COLS, w);
	if (!ws)
		return;
	for (size_t r = 0; tb->rows && r < tb->rows - 1; r++)
		for (int c = 0; c < RPT_VARIANT_COLS; c++) {
			const char *s = rpt_table_get(tb, r, rpt_table_col(tb, cols[c]));
			enum rpt_cell k = rpt_variant_cols[c].cell;
			double x;

			if (k != RPT_CELL_TEXT && rpt_parse_num(s, &x) == 0)
				worksheet_write_number(ws, (lxw_row_t)r + 1, (lxw_col_t)c, x,
						       k == RPT_CELL_PCT ? b->pct : k == RPT_CELL_NUM ? b->num : NULL);
			else
				put_text(ws, (int)r + 1, c, s, NULL);
		}
	worksheet_set_column(ws, 7, 7, 20, NULL);
	worksheet_set_column(ws, 8, 8, 40, NULL);
	worksheet_write_string(ws, 0, 7, "pbo", b->head);
	for (int k = 0; k < 5; k++) {
		worksheet_write_string(ws, (lxw_row_t)k + 1, 7, keys[k], NULL);
		put_json(ws, k + 1, 8, get(pbo, keys[k]), b->num);
	}
	if (!cJSON_IsObject(pbo))
		put_json(ws, 1, 8, get(stats, "pbo_reason"), NULL);
	worksheet_write_string(ws, 7, 7, "trials", NULL);
	put_json(ws, 7, 8, get(stats, "trials"), NULL);
	worksheet_write_string(ws, 8, 7, "trials_source", NULL);
	put_json(ws, 8, 8, get(stats, "trials_source"), NULL);
	worksheet_write_string(ws, 9, 7, "sr_variance", NULL);
	put_json(ws, 9, 8, get(stats, "sr_variance"), NULL);
	worksheet_write_string(ws, 10, 7, "sr_variance_source", NULL);
	put_json(ws, 10, 8, get(stats, "sr_variance_source"), NULL);
	worksheet_write_string(ws, 11, 7, "sr0", NULL);
	put_json(ws, 11, 8, get(stats, "sr0"), NULL);
}

/* An Excel number format with d decimals and a suffix ("0.00%", "0.0000", "0.0\"x\""). */
static const char *decimals_format(char *buf, size_t len, int d, const char *suffix)
{
	sa_fmt(buf, len, "0%s%.*s%s", d > 0 ? "." : "", d, "000000000000", suffix);
	return buf;
}

static void make_formats(struct book *b)
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
	format_set_num_format(b->row_net, decimals_format(fmt, sizeof fmt, RPT_ROW_NET_DECIMALS, "%"));
	b->row_sharpe = workbook_add_format(b->wb);
	format_set_num_format(b->row_sharpe, decimals_format(fmt, sizeof fmt, RPT_ROW_SHARPE_DECIMALS, ""));
	b->good = workbook_add_format(b->wb);
	format_set_font_color(b->good, 0x006100);
	format_set_bg_color(b->good, 0xC6EFCE);
}

/* --- the tearsheet's sheets: the same numbers as stats.json, which the page formats ------- */

static void write_drawdowns(struct book *b, const cJSON *st)
{
	lxw_worksheet *ws = table_sheet(b, "Drawdowns", rpt_drawdown_cols, RPT_DRAWDOWN_COLS);
	const cJSON *ep;
	int r = 1;

	cJSON_ArrayForEach(ep, get(st, "drawdowns")) {
		worksheet_write_number(ws, (lxw_row_t)r, 0, r, NULL);
		put_time(b, ws, r, 1, sa_json_str(ep, "start", ""));
		put_time(b, ws, r, 2, sa_json_str(ep, "trough", ""));
		if (cJSON_IsString(get(ep, "end")))
			put_time(b, ws, r, 3, get(ep, "end")->valuestring);
		else
			worksheet_write_string(ws, (lxw_row_t)r, 3, "not recovered", b->bad);
		put_json(ws, r, 4, get(ep, "depth"), b->pct);
		put_json(ws, r, 5, get(ep, "bars"), NULL);
		r++;
	}
	filter(ws, r - 1, RPT_DRAWDOWN_COLS);
}

static void write_monthly(struct book *b, const cJSON *st)
{
	static const char *const heads[] = { "month", "return" };
	static const double widths[] = { 10, 12 };
	lxw_worksheet *ws = sheet(b, "Monthly", heads, 2, widths);
	const cJSON *it;
	int r = 1;

	cJSON_ArrayForEach(it, get(st, "monthly")) {
		put_text(ws, r, 0, sa_json_str(it, "month", ""), NULL);
		put_json(ws, r++, 1, get(it, "return"), b->pct);
	}
	filter(ws, r - 1, 2);
}

/* Sheet Yearly: each year's net return beside buy and hold's (stats.json yearly and
 * yearly_benchmark). */
static void write_yearly(struct book *b, const cJSON *st)
{
	static const char *const heads[] = { "year", "strategy", "buy_and_hold" };
	static const double widths[] = { 8, 12, 13 };
	lxw_worksheet *ws = sheet(b, "Yearly", heads, 3, widths);
	const cJSON *it, *by;
	int r = 1;

	cJSON_ArrayForEach(it, get(st, "yearly")) {
		const cJSON *bench = NULL;
		cJSON_ArrayForEach(by, get(st, "yearly_benchmark"))
			if (cJSON_IsNumber(get(by, "year")) && cJSON_IsNumber(get(it, "year")) &&
			    get(by, "year")->valuedouble == get(it, "year")->valuedouble)
				bench = get(by, "return");
		put_json(ws, r, 0, get(it, "year"), NULL);
		put_json(ws, r, 1, get(it, "return"), b->pct);
		put_json(ws, r++, 2, bench, b->pct);
	}
	filter(ws, r - 1, 3);
}

/* Sheet Long short: each side's trades, as stats.json long_short has them. */
static void write_sides(struct book *b, const cJSON *st)
{
	static const char *const heads[] = { "side", "trades", "net_return", "win_rate", "sharpe" };
	static const double widths[] = { 8, 8, 12, 10, 10 };
	static const char *const sides[] = { "long", "short" };
	lxw_worksheet *ws = sheet(b, "Long short", heads, 5, widths);

	for (int k = 0; ws && k < 2; k++) {
		const cJSON *sd = get(get(st, "long_short"), sides[k]);
		worksheet_write_string(ws, (lxw_row_t)k + 1, 0, sides[k], NULL);
		put_json(ws, k + 1, 1, get(sd, "trades"), NULL);
		put_json(ws, k + 1, 2, get(sd, "net_return"), b->pct);
		put_json(ws, k + 1, 3, get(sd, "win_rate"), b->pct);
		put_json(ws, k + 1, 4, get(sd, "sharpe"), b->num);
	}
	filter(ws, 2, 5);
}

/* Sheet Neighbourhood: each set of stats.json's neighbourhood (its parameters as compact JSON),
 * then the measure. */
static void write_neighbourhood(struct book *b, const cJSON *st)
{
	const cJSON *nb = get(st, "neighbourhood"), *it;
	lxw_worksheet *ws = table_sheet(b, "Neighbourhood", rpt_nb_cols, RPT_NB_COLS);
	static const char *const keys[] = { "shape", "keep", "keep_min", "centre_sharpe",
					    "median_sharpe", "implied_trials", "neighbours", "ran",
					    "failed", "not_run", "reason" };
	int r = 1;

	if (!ws)
		return;
	cJSON_ArrayForEach(it, get(nb, "sets")) {
		char *params = cJSON_PrintUnformatted(get(it, "params"));

		json_row(b, ws, r, rpt_nb_cols, RPT_NB_COLS, it);
		put_text(ws, r++, 1, params ? params : "", NULL);
		free(params);
	}
	if (r > 1)
		filter(ws, r - 1, RPT_NB_COLS);
	r++;
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
		worksheet_write_string(ws, (lxw_row_t)r, 0, keys[k], NULL);
		put_json(ws, r++, 1, get(nb, keys[k]), NULL);
	}
}

static void write_delay(struct book *b, const cJSON *st)
{
	lxw_worksheet *ws = table_sheet(b, "Delay", rpt_delay_cols, RPT_DELAY_COLS);
	const cJSON *it;
	int r = 1;

	cJSON_ArrayForEach(it, get(st, "delay_sensitivity"))
		json_row(b, ws, r++, rpt_delay_cols, RPT_DELAY_COLS, it);
	if (r == 1)
		put_text(ws, 1, 0, sa_json_str(st, "delay_note", "stats.json is missing or failed"), NULL);
	else
		filter(ws, r - 1, RPT_DELAY_COLS);
}

/* Sheet Costs: each cost multiple's row, its basis, and the break-even in the decimals the page
 * prints it with. */
static void write_costs(struct book *b, const cJSON *st)
{
	lxw_worksheet *ws = table_sheet(b, "Costs", rpt_cost_cols, RPT_COST_COLS);
	const cJSON *it, *be = get(st, "breakeven_cost_multiple");
	lxw_format *mf = workbook_add_format(b->wb);
	char fmt[32];
	int r = 1;

	if (!ws)
		return;
	cJSON_ArrayForEach(it, get(st, "cost_sensitivity"))
		json_row(b, ws, r++, rpt_cost_cols, RPT_COST_COLS, it);
	r++;
	worksheet_write_string(ws, (lxw_row_t)r, 0, "cost_basis", NULL);
	put_json(ws, r++, 1, get(st, "cost_basis"), NULL);
	worksheet_write_string(ws, (lxw_row_t)r, 0, "breakeven_cost_multiple", NULL);
	if (mf)
		format_set_num_format(mf, decimals_format(fmt, sizeof fmt, rpt_multiple_decimals(
			cJSON_IsNumber(be) ? be->valuedouble : 0), "\"x\""));
	if (cJSON_IsNumber(be))
		put_json(ws, r++, 1, be, mf);
	else
		put_text(ws, r++, 1, sa_json_str(get(st, "breakeven"), "reason", "n/a"), NULL);
}

static void write_benchmark(struct book *b, const cJSON *st)
{
	static const char *const heads[] = { "figure", "strategy", "buy_and_hold" };
	static const double widths[] = { 20, 12, 12 };
	static const char *const keys[] = { "gross_return", "net_return", "max_drawdown", "sharpe_annualised" };
	lxw_worksheet *ws = sheet(b, "Benchmark", heads, 3, widths);
	const cJSON *bm = get(st, "benchmark");

	for (int k = 0; k < 4; k++) {
		bool sharpe = k == 3;
		const cJSON *mine = sharpe ? get(get(st, keys[k]), "value") : get(st, keys[k]);
		worksheet_write_string(ws, (lxw_row_t)k + 1, 0, keys[k], NULL);
		put_json(ws, k + 1, 1, mine, sharpe ? b->num : b->pct);
		put_json(ws, k + 1, 2, get(bm, keys[k]), sharpe ? b->num : b->pct);
	}
	worksheet_write_string(ws, 5, 0, "excess_return", NULL);
	put_json(ws, 5, 2, get(bm, "excess_return"), b->pct);
}

/* Sheet Metrics: the risk figures (stats_metrics.h) and quantstats' extras as stats.json has
 * them, one figure a row (longs and shorts, and the years, have sheets of their own). */
static void write_metrics(struct book *b, const cJSON *st)
{
	static const char *const heads[] = { "figure", "value" };
	static const double widths[] = { 30, 14 };
	static const char *const keys[] = { "volatility_annualised", "var_95", "cvar_95", "best_bar",
		"worst_bar", "best_month", "worst_month", "cagr", "omega", "tail_ratio", "best_day",
		"worst_day" };
	static const char *const rv[] = { "window", "min", "max", "last" };
	static const char *const quant[] = { "kelly", "ulcer_index", "recovery_factor" };
	static const char *const durs[] = { "bars", "hours" };
	static const char *const qs[] = { "min", "p25", "median", "p75", "max", "mean" };
	lxw_worksheet *ws = sheet(b, "Metrics", heads, 2, widths);
	char label[64];
	int r = 1;

	if (!ws)
		return;
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++, r++) {
		worksheet_write_string(ws, (lxw_row_t)r, 0, keys[k], NULL);
		put_json(ws, r, 1, get(st, keys[k]), b->pct);
	}
	for (size_t k = 0; k < sizeof quant / sizeof quant[0]; k++, r++) {
		worksheet_write_string(ws, (lxw_row_t)r, 0, quant[k], NULL);
		put_json(ws, r, 1, get(st, quant[k]), k < 2 ? b->pct : b->num);
	}
	for (size_t k = 0; k < sizeof durs / sizeof durs[0]; k++)
		for (size_t q = 0; q < sizeof qs / sizeof qs[0]; q++, r++) {
			worksheet_write_string(ws, (lxw_row_t)r, 0, sa_fmt(label, sizeof label,
					       "trade_durations.%s.%s", durs[k], qs[q]), NULL);
			put_json(ws, r, 1, get(get(get(st, "trade_durations"), durs[k]), qs[q]), NULL);
		}
	for (size_t k = 0; k < 4; k++, r++) {
		worksheet_write_string(ws, (lxw_row_t)r, 0, sa_fmt(label, sizeof label, "rolling_volatility.%s", rv[k]), NULL);
		put_json(ws, r, 1, get(get(st, "rolling_volatility"), rv[k]), k ? b->pct : NULL);
	}
	filter(ws, r - 1, 2);
}

/* Rows "prefix.key | value" for every number, string and list of numbers under o, depth first. */
static void flat_rows(struct book *b, lxw_worksheet *ws, int *r, const char *prefix, const cJSON *o)
{
	const cJSON *it;
	char label[160], list[1024];

	cJSON_ArrayForEach(it, o) {
		sa_fmt(label, sizeof label, "%s.%s", prefix, it->string ? it->string : "?");
		if (cJSON_IsObject(it)) {
			flat_rows(b, ws, r, label, it);
			continue;
		}
		if (cJSON_IsArray(it)) {
			const cJSON *x;
			size_t at = 0;

			list[0] = '\0';
			cJSON_ArrayForEach(x, it)
				if (cJSON_IsNumber(x) && at < sizeof list - 32)
					at += (size_t)snprintf(list + at, sizeof list - at, "%s%g", at ? " " : "", x->valuedouble);
			put_text(ws, *r, 0, label, NULL);
			put_text(ws, (*r)++, 1, list, NULL);
			continue;
		}
		put_text(ws, *r, 0, label, NULL);
		put_json(ws, (*r)++, 1, it, b->num);
	}
}

/* Sheet Selection: the strategy's own variants tested as a family (SPA), walk-forward, and the
 * Monte Carlo of its trades, as stats.json has them; a test that could not run gives its reason. */
static void write_selection(struct book *b, const cJSON *st)
{
	static const char *const heads[] = { "figure", "value" };
	static const double widths[] = { 40, 60 };
	static const char *const tests[] = { "spa", "walk_forward", "monte_carlo" };
	lxw_worksheet *ws = sheet(b, "Selection", heads, 2, widths);
	char reason[64];
	int r = 1;

	if (!ws)
		return;
	for (size_t k = 0; k < sizeof tests / sizeof tests[0]; k++) {
		const cJSON *t = get(st, tests[k]);

		if (cJSON_IsObject(t)) {
			flat_rows(b, ws, &r, tests[k], t);
			continue;
		}
		put_text(ws, r, 0, sa_fmt(reason, sizeof reason, "%s_reason", tests[k]), NULL);
		put_text(ws, r++, 1, cJSON_GetStringValue(get(st, reason)) ? cJSON_GetStringValue(get(st, reason)) :
			 "not in stats.json", NULL);
	}
}

static void write_tearsheet(struct book *b, const struct rpt_input *in)
{
	const cJSON *st = rpt_stage_ok(in, RPT_STATS);

	write_metrics(b, st);
	write_sides(b, st);

	write_drawdowns(b, st);
	write_monthly(b, st);
	write_yearly(b, st);
	write_delay(b, st);
	write_costs(b, st);
	write_benchmark(b, st);
	write_selection(b, st);
	write_neighbourhood(b, st);
}

int rpt_xlsx_write(const char *path, const struct rpt_input *in, const char *name, char *err, size_t errlen)
{
	char tmp[4096], title[300];
	struct book b = { 0 };
	int rc = -1;
	sa_fmt(tmp, sizeof tmp, "%s.tmp", path);
	sa_fmt(title, sizeof title, "strataudit report: %s", name);
	char *safe_title = cell_text(title);
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
	write_summary(&b, in, name);
	write_gates(&b, in);
	write_trades(&b, in);
	write_equity(&b, in);
	write_lookahead(&b, in);
	if (rpt_live_sheet(b.wb, b.head, b.pct, in)) {
		sa_fmt(err, errlen, "cannot add the sheet Live to '%s'", tmp);
		workbook_close(b.wb);
		remove(tmp);
		goto out;
	}
	write_robust(&b, in);
	write_variants(&b, in);
	write_containment(&b, in);
	write_inspection(&b, in);
	if (rpt_reconcile_sheet(b.wb, b.head, b.pct, in)) {
		sa_fmt(err, errlen, "cannot add the sheet Reconcile to '%s'", tmp);
		workbook_close(b.wb);
		remove(tmp);
		goto out;
	}
	write_tearsheet(&b, in);
	if (rpt_freqtrade_sheets(b.wb, b.head, b.pct, in)) {
		sa_fmt(err, errlen, "cannot add freqtrade's sheets to '%s'", tmp);
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
