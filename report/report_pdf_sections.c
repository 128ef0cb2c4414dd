/* report_pdf_sections.c - every section of report.html, drawn into the PDF in the page's order
 * from the same template model, so the mailed PDF says all the page says. */
#include "report_pdf_draw.h"

#include <stdio.h>
#include <string.h>

#include "jsonio.h"
#include "report_chart.h"
#include "report_freqtrade.h"
#include "report_neighbourhood.h"

#define get rpt_pdf_get
#define str rpt_pdf_str
#define NCOL(c) (sizeof(c) / sizeof((c)[0]))
#define TRADES_EACH_END 10   /* trades listed from the start and from the end */

static bool on(const cJSON *o, const char *key)
{
	return cJSON_IsTrue(get(o, key));
}

#define pdf_cols rpt_pdf_cols

static void note(struct rpt_pdf *p, const char *text)
{
	rpt_pdf_para(p, text, 8.5, false, true);
}

/* --- the charts the PDF draws itself, as vectors --------------------------------------- */

enum chart { CH_EQUITY, CH_UNDERWATER, CH_ROLLING, CH_ROLLING_VOL, CH_DELAY, CH_COSTS, CH_RETURNS,
	     CH_SIGNALS, CH_LIVE };

struct chart_ctx {
	const struct rpt_pdf_charts *d;
	enum chart which;
};

static void draw_one(cairo_t *cr, const void *ctx)
{
	const struct chart_ctx *c = ctx;
	const struct rpt_pdf_charts *d = c->d;
	const cJSON *st = d->x->stats;
	const cJSON *la = d->in->stage[RPT_LOOKAHEAD].json;
	const char *why_eq = d->in->equity_reason[0] ? d->in->equity_reason : "equity.csv is empty";

	switch (c->which) {
	case CH_EQUITY: rpt_draw_equity(cr, &d->in->equity, &d->x->bench, why_eq); break;
	case CH_UNDERWATER: rpt_draw_underwater(cr, &d->in->equity, get(st, "drawdowns"), why_eq); break;
	case CH_ROLLING:
		rpt_draw_rolling(cr, d->in->equity.t, d->x->rolling, d->in->equity.n, d->x->window,
				 d->x->sharpe_annualised, d->x->rolling_why);
		break;
	case CH_ROLLING_VOL:
		rpt_draw_rolling_vol(cr, d->in->equity.t, d->x->rolling_vol, d->in->equity.n, d->x->window,
				     d->x->volatility_annualised, d->x->rolling_why);
		break;
	case CH_DELAY:
		rpt_draw_delay(cr, get(st, "delay_sensitivity"), st ? str(st, "delay_note") :
			       "stats.json is missing or failed");
		break;
	case CH_COSTS: rpt_draw_costs(cr, get(st, "cost_sensitivity"), d->x->breakeven); break;
	case CH_RETURNS: rpt_draw_returns(cr, &d->in->returns, d->in->trades_reason); break;
	case CH_SIGNALS:
		rpt_draw_signals(cr, &d->in->data, d->sig, d->why_sig,
				 cJSON_IsObject(la) ? get(la, "mismatches") : NULL, d->in->data_reason);
		break;
	case CH_LIVE: rpt_draw_live(cr, &d->x->backtest, &d->in->equity, d->x->live_why); break;
	}
}

static void chart(struct rpt_pdf *p, const struct rpt_pdf_charts *d, enum chart which)
{
	struct chart_ctx c = { d, which };

	rpt_pdf_chart(p, draw_one, &c);
}

/* --- the verdict ------------------------------------------------------------------------ */

static void banner(struct rpt_pdf *p, const cJSON *m)
{
	const char *cls = str(m, "verdict_class");
	double bg[3] = { 0.99, 0.91, 0.91 }, fg[3] = { 0.61, 0.11, 0.11 };
	double top = p->y;

	if (!strcmp(cls, "good")) {
		bg[0] = 0.89, bg[1] = 0.96, bg[2] = 0.91;
		fg[0] = 0.11, fg[1] = 0.42, fg[2] = 0.21;
	} else if (!strcmp(cls, "warn")) {
		bg[0] = 1.0, bg[1] = 0.95, bg[2] = 0.84;
		fg[0] = 0.48, fg[1] = 0.32, fg[2] = 0.0;
	}
	/* the verdict in its colour, then the summary; the box is drawn behind them after */
	cairo_push_group(p->cr);
	p->y += 8;
	cairo_select_font_face(p->cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
	cairo_set_font_size(p->cr, 20);
	cairo_set_source_rgb(p->cr, fg[0], fg[1], fg[2]);
	cairo_move_to(p->cr, RPT_MX + 12, p->y + 20);
	cairo_show_text(p->cr, str(m, "verdict"));
	p->y += 30;
	p->indent = 12;
	rpt_pdf_para(p, str(m, "summary"), 9.5, false, false);
	if (get(m, "gate_verdict"))
		rpt_pdf_paraf(p, "The gates alone would have said %s.", str(m, "gate_verdict"));
	p->indent = 0;
	cairo_pop_group_to_source(p->cr);
	{
		cairo_pattern_t *text = cairo_pattern_reference(cairo_get_source(p->cr));
		cairo_set_source_rgb(p->cr, bg[0], bg[1], bg[2]);
		cairo_rectangle(p->cr, RPT_MX, top, RPT_TW, p->y - top + 4);
		cairo_fill_preserve(p->cr);
		cairo_set_source_rgb(p->cr, fg[0], fg[1], fg[2]);
		cairo_set_line_width(p->cr, 1.5);
		cairo_stroke(p->cr);
		cairo_set_source(p->cr, text);
		cairo_paint(p->cr);
		cairo_pattern_destroy(text);
	}
	p->y += 14;
}

static void verdict(struct rpt_pdf *p, const cJSON *m)
{
	static const struct rpt_pdf_col gates[] = { { "gate", "name", 0.13 }, { "value", "value", 0.1 },
		{ "threshold", "threshold", 0.16 }, { "result", "result", 0.19 }, { "why", "why", 0.42 } };
	static const struct rpt_pdf_col vetoes[] = { { "veto", "name", 0.2 }, { "reason", "reason", 0.8 } };
	const cJSON *it;

	cairo_select_font_face(p->cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
	cairo_set_font_size(p->cr, 16);
	cairo_set_source_rgb(p->cr, 0.12, 0.14, 0.16);
	cairo_move_to(p->cr, RPT_MX, p->y + 16);
	cairo_show_text(p->cr, "strataudit report: ");
	cairo_show_text(p->cr, p->name);
	p->y += 24;
	note(p, "This document is static and reproducible: the same inputs give the same bytes. "
	     "It carries every section of report.html; every trade, event and figure is in "
	     "report.xlsx and the bundle's CSV and JSON files.");
	banner(p, m);
	rpt_pdf_para(p, str(m, "stopped"), 9.5, true, false);
	cJSON_ArrayForEach(it, get(m, "missing"))
		rpt_pdf_paraf(p, "Missing or failed: %s - %s", str(it, "file"), str(it, "reason"));
	rpt_pdf_heading(p, "The gates", 1);
	rpt_pdf_table(p, get(m, "gates"), gates, NCOL(gates),
		      "No gates were scored: verdict.json is missing or failed.");
	rpt_pdf_heading(p, "Vetoes", 1);
	if (cJSON_GetArraySize(get(m, "vetoes")))
		rpt_pdf_table(p, get(m, "vetoes"), vetoes, NCOL(vetoes), NULL);
	else
		rpt_pdf_paraf(p, "No veto: the sandbox refused nothing%s.", on(get(m, "lookahead"), "present") ?
			      " and no look-ahead was found" : "; look-ahead was not checked (lookahead.json is "
			      "missing or failed), so none could be found");
}

/* --- the tearsheet ---------------------------------------------------------------------- */

/* A percentage cell without its unit ("-11.9 %" as "-11.9"), the table's lead saying "in %", so
 * a narrow column never sets the sign apart from its number. */
static const char *bare(const char *s, char *buf, size_t len)
{
	size_t n = strlen(s);

	if (n > 2 && !strcmp(s + n - 2, " %"))
		n -= 2;
	snprintf(buf, len, "%.*s", (int)n, s);
	return buf;
}

static void monthly(struct rpt_pdf *p, const cJSON *t)
{
	static const char *const names[] = { "year", "Jan", "Feb", "Mar", "Apr", "May", "Jun",
		"Jul", "Aug", "Sep", "Oct", "Nov", "Dec", "year" };
	struct rpt_pdf_col mc[14];
	const char *cells[14];
	const cJSON *y;
	char yb[16], vb[13][32];

	for (int k = 0; k < 14; k++)
		mc[k] = (struct rpt_pdf_col){ names[k], "", k == 0 || k == 13 ? 0.08 : 0.84 / 12 };
	rpt_pdf_row(p, names, mc, 14, true);
	cJSON_ArrayForEach(y, get(t, "years")) {
		snprintf(yb, sizeof yb, "%.0f", sa_json_num(y, "year", 0));
		cells[0] = yb;
		for (int k = 0; k < 12; k++)
			cells[k + 1] = bare(str(cJSON_GetArrayItem(get(y, "months"), k), "ret"), vb[k], sizeof vb[k]);
		cells[13] = bare(str(y, "total"), vb[12], sizeof vb[12]);
		rpt_pdf_row(p, cells, mc, 14, false);
	}
	p->y += 6;
}

static void tearsheet(struct rpt_pdf *p, const cJSON *m, const struct rpt_pdf_charts *d)
{
	static const struct rpt_pdf_col bench[] = { { "", "label", 0.4 }, { "strategy", "strategy", 0.3 },
		{ "buy and hold", "benchmark", 0.3 } };
	struct rpt_pdf_col dd[RPT_DRAWDOWN_COLS], delay[RPT_DELAY_COLS];
	size_t n_dd = pdf_cols(rpt_drawdown_cols, RPT_DRAWDOWN_COLS, dd);
	size_t n_delay = pdf_cols(rpt_delay_cols, RPT_DELAY_COLS, delay);
	static const struct rpt_pdf_col stats[] = { { "statistic", "label", 0.32 },
		{ "value", "value", 0.16 }, { "what it means", "meaning", 0.52 } };
	const cJSON *t = get(m, "tearsheet");

	if (!on(t, "present"))
		return;
	rpt_pdf_heading(p, "Against simply holding", 1);
	rpt_pdf_paraf(p, "%s", str(t, "benchmark_sentence"));
	rpt_pdf_table(p, get(t, "benchmark"), bench, NCOL(bench),
		      "No benchmark: the price data did not reach the statistics.");
	rpt_pdf_paraf(p, "Buy and hold is long from the first fill bar's open to the last close, paying "
		      "the same fees, slippage and holding costs a long pays; excess return of the "
		      "strategy over it: %s. It is a comparison, not a gate.", str(t, "excess_return"));
	chart(p, d, CH_EQUITY);
	rpt_pdf_heading(p, "The bad stretches", 1);
	rpt_pdf_paraf(p, "The five deepest falls of net equity from a peak, deepest first: how deep, and "
		      "how long until equity was back (the first is the max drawdown).");
	rpt_pdf_table(p, get(t, "drawdowns"), dd, n_dd, "Net equity never fell below its running peak.");
	chart(p, d, CH_UNDERWATER);
	rpt_pdf_heading(p, "Which months made the money", 1);
	rpt_pdf_paraf(p, "Each month's return, in %%, is the net equity at its last bar over the month "
		      "before's (the first over the starting equity); the last column is the year's.");
	monthly(p, t);
	if (on(get(m, "stats"), "has_years")) {
		static const struct rpt_pdf_col years[] = { { "year", "year", 0.2 },
			{ "strategy (net)", "strategy", 0.4 }, { "buy and hold (net)", "benchmark", 0.4 } };
		rpt_pdf_paraf(p, "Year by year beside buy and hold of the same data after the same costs:");
		rpt_pdf_table(p, get(get(m, "stats"), "years"), years, NCOL(years), NULL);
	}
	if (on(t, "rolling_section") && !on(t, "rolling")) {
		rpt_pdf_heading(p, "Did the edge last", 1);
		rpt_pdf_paraf(p, "%s", str(t, "rolling_note"));
	}
	if (on(t, "rolling")) {
		rpt_pdf_heading(p, "Did the edge last", 1);
		rpt_pdf_paraf(p, "The Sharpe ratio of per-bar returns of compounded net equity over a moving "
			      "window of %s bars, annualised as the whole period's: a line that stays "
			      "above zero is an edge that held; one tall hump is a lucky stretch.",
			      str(t, "rolling_window"));
		chart(p, d, CH_ROLLING);
		rpt_pdf_paraf(p, "The volatility of the same per-bar returns over the same window, "
			      "annualised: where the risk taken rose or fell.");
		chart(p, d, CH_ROLLING_VOL);
	}
	rpt_pdf_heading(p, "What if every fill came later", 1);
	rpt_pdf_paraf(p, "%s", str(t, "delay_sentence")[0] ? str(t, "delay_sentence") : str(t, "delay_note"));
	rpt_pdf_table(p, get(t, "delay"), delay, n_delay, "No late-fill replay: the signals or the "
		      "price data did not reach the statistics.");
	chart(p, d, CH_DELAY);
	rpt_pdf_heading(p, "How much more could costs rise", 1);
	rpt_pdf_paraf(p, "%s", str(t, "breakeven_sentence"));
	rpt_pdf_heading(p, "Trade statistics", 1);
	rpt_pdf_paraf(p, "What a single trade looks like: the typical and extreme win and loss, the "
		      "streaks to sit through, and how long each kind lasts.");
	rpt_pdf_table(p, get(t, "trade_stats"), stats, NCOL(stats), NULL);
}

/* --- containment, look-ahead, robustness, inspection ------------------------------------ */

static void containment(struct rpt_pdf *p, const cJSON *m)
{
	static const struct rpt_pdf_col kinds[] = { { "rule", "rule", 0.18 }, { "refusals", "count", 0.1 },
		{ "first", "first", 0.17 }, { "latest", "latest", 0.17 }, { "latest detail", "latest_detail", 0.38 } };
	static const struct rpt_pdf_col events[] = { { "#", "seq", 0.08 }, { "action", "action", 0.2 },
		{ "rule that refused it", "rule", 0.2 }, { "detail", "detail", 0.52 } };
	const cJSON *c = get(m, "containment");
	char buf[200];

	rpt_pdf_heading(p, "Containment", 1);
	rpt_pdf_paraf(p, "Sandbox run status: %s; blocked actions: %s.", str(c, "status"), str(c, "blocked"));
	rpt_pdf_paraf(p, "Limits: %s.", str(c, "cgroup"));
	if (str(c, "error")[0]) {
		rpt_pdf_paraf(p, "Error reported by the run:");
		note(p, str(c, "error"));
	}
	if (str(c, "stderr")[0]) /* the text itself is in run.json, as the page folds it away */
		rpt_pdf_paraf(p, "%s The text is in run.json (\"stderr\").", str(c, "stderr_summary"));
	if (on(c, "has_kinds")) {
		rpt_pdf_table(p, get(c, "kinds"), kinds, NCOL(kinds), NULL);
		note(p, "Every refusal is counted under its rule, in the full run and the re-runs; the "
		     "records below keep up to 16 of each rule, its latest always.");
	}
	rpt_pdf_table(p, get(c, "events"), events, NCOL(events), "No containment events: the strategy "
		      "attempted nothing the sandbox refuses.");
	if (on(c, "more_events")) {
		snprintf(buf, sizeof buf, "%.0f records kept; the first 50 are shown, every kept one is in "
			 "report.xlsx and events.jsonl, and the table above counts them all.",
			 sa_json_num(c, "event_count", 0));
		note(p, buf);
	}
}

static void lookahead(struct rpt_pdf *p, const cJSON *m, const struct rpt_pdf_charts *d)
{
	static const struct rpt_pdf_col failed[] = { { "shown bars up to", "bar", 0.16 },
		{ "time (UTC)", "time", 0.24 }, { "how it ended", "status", 0.16 }, { "error", "error", 0.44 } };
	static const struct rpt_pdf_col mism[] = { { "bar", "bar", 0.12 }, { "time (UTC)", "time", 0.26 },
		{ "full history", "full", 0.14 }, { "truncated", "truncated", 0.14 },
		{ "truncation points", "points", 0.16 }, { "first point", "first_point", 0.18 } };
	static const struct rpt_pdf_col hints[] = { { "line", "line", 0.08 }, { "code", "code", 0.1 },
		{ "source", "source", 0.42 }, { "why it reads the future", "message", 0.4 } };
	const cJSON *l = get(m, "lookahead");

	rpt_pdf_heading(p, "Look-ahead", 1);
	if (!on(l, "present")) {
		rpt_pdf_paraf(p, "The look-ahead check did not complete, so the signals are unverified.");
	} else {
		rpt_pdf_paraf(p, "%s%s %s of %s truncation points checked (%s where the position changes)%s; "
			      "mismatches: %s; shorter histories on which the strategy could not run after it "
			      "had traded: %s (truncated runs that failed, in all: %s).",
			      on(l, "clean") ? "Clean." : "Look-ahead found.",
			      on(l, "complete") ? "" : " Unfinished.", str(l, "points_checked"),
			      str(l, "points_run"), str(l, "candidate_points"), on(l, "capped") ? ", capped" : "",
			      str(l, "mismatch_count"), str(l, "failed_count"), str(l, "failed_runs"));
		rpt_pdf_paraf(p, "%s", str(l, "explanation"));
		if (on(l, "any_failed"))
			rpt_pdf_table(p, get(l, "failed"), failed, NCOL(failed), NULL);
		rpt_pdf_table(p, get(l, "mismatches"), mism, NCOL(mism), "No truncated run gave different "
			      "signals from the full-history run.");
		if (cJSON_GetArraySize(get(l, "static_hints")) > 0) {
			rpt_pdf_paraf(p, "Static inspection had already pointed at these lines:");
			rpt_pdf_table(p, get(l, "static_hints"), hints, NCOL(hints), NULL);
		}
	}
	chart(p, d, CH_SIGNALS);
}

/* The live decisions against the backtest: what the difference is worth, how the bars were
 * decided, the first bars that differ, and the two curves (live.png's, drawn as vectors). */
static void live(struct rpt_pdf *p, const cJSON *m, const struct rpt_pdf_charts *d)
{
	static const struct rpt_pdf_col sides[] = { { "", "label", 0.4 },
		{ "the backtest (full history)", "backtest", 0.3 }, { "live (only the past)", "live", 0.3 } };
	struct rpt_pdf_col first[RPT_LIVE_COLS];
	const cJSON *l = get(m, "live");
	cJSON *rows, *r;

	if (!on(l, "present"))
		return;
	rpt_pdf_heading(p, "Live against the backtest", 1);
	rpt_pdf_paraf(p, "%s", str(l, "worth"));
	if (str(l, "decided")[0])
		rpt_pdf_paraf(p, "%s", str(l, "decided"));
	if (on(l, "scored_live") && (rows = cJSON_CreateArray())) {
		static const char *const what[][3] = { { "net return (compounded)", "net_return_backtest",
			"net_return_live" }, { "trades", "trades_backtest", "trades_live" } };
		for (size_t k = 0; k < NCOL(what) && (r = cJSON_CreateObject()); k++) {
			cJSON_AddItemToArray(rows, r);
			cJSON_AddStringToObject(r, "label", what[k][0]);
			cJSON_AddStringToObject(r, "backtest", str(l, what[k][1]));
			cJSON_AddStringToObject(r, "live", str(l, what[k][2]));
		}
		rpt_pdf_table(p, rows, sides, NCOL(sides), NULL);
		cJSON_Delete(rows);
	}
	if (on(l, "has_first")) {
		rpt_pdf_paraf(p, "%s", str(l, "first_said"));
		rpt_pdf_table(p, get(l, "first_differences"), first, pdf_cols(rpt_live_cols, RPT_LIVE_COLS, first),
			      NULL);
		note(p, "The first bars (up to ten) whose live decision differs from the backtest's, as "
		     "lookahead.json lists them; they are in report.xlsx too (sheet Live).");
	}
	chart(p, d, CH_LIVE);
}

/* After a rejection's finding: the heading that says what the performance below is. */
static void rejected(struct rpt_pdf *p, const cJSON *m)
{
	if (!str(m, "rejected")[0])
		return;
	if (on(m, "rejected_live")) {
		rpt_pdf_heading(p, "The backtest could not have been traded", 1);
		rpt_pdf_paraf(p, "%s Every figure from here on scores the live decisions, each bar decided "
			      "with only the bars up to it, as the section above sets them beside the "
			      "backtest: read them as what the upload would have done, not as a reason to "
			      "trade it.", str(m, "rejected"));
		return;
	}
	rpt_pdf_heading(p, "The backtest below could not have been traded", 1);
	rpt_pdf_paraf(p, "%s Every figure from here on describes that backtest: read it as a record of "
		      "what the upload claimed, not of what it would have earned.", str(m, "rejected"));
}

static void robustness(struct rpt_pdf *p, const cJSON *m)
{
	static const struct rpt_pdf_col offs[] = { { "start", "percent", 0.1 }, { "first bar", "offset", 0.12 },
		{ "status", "status", 0.14 }, { "bars differing", "differing_bars", 0.16 },
		{ "share", "disagreement", 0.14 }, { "first difference (UTC)", "first_time", 0.34 } };
	const cJSON *r = get(m, "robust");

	rpt_pdf_heading(p, "Robustness", 1);
	if (!on(r, "present")) {
		rpt_pdf_paraf(p, "The robustness checks did not run: %s.", str(r, "reason"));
		return;
	}
	rpt_pdf_paraf(p, "The warm-up and permutation findings are shown, not scored; hindsight is a veto "
		      "(a profit that only this data's own dates, prices or bars explain), and a later start that changes a "
		      "quarter of the signals or more holds the verdict at NOT_READY.");
	rpt_pdf_heading(p, "Warm-up", 2);
	rpt_pdf_paraf(p, "%s Compared on the last %s bars; %s warm-up runs failed.",
		      on(r, "flagged") ? "Depends on where history starts." :
		      "Does not depend on where history starts.", str(r, "compared_bars"),
		      str(r, "warmup_failed"));
	rpt_pdf_paraf(p, "%s", str(r, "warmup_explanation"));
	rpt_pdf_table(p, get(r, "offsets"), offs, NCOL(offs), NULL);
	rpt_pdf_png(p, "warmup.png");
	rpt_pdf_heading(p, "Permutation test", 2);
	rpt_pdf_paraf(p, "Real Sharpe ratio %s per bar, before costs, against %s runs on shuffled bar "
		      "returns (mean %s, 95th percentile %s): p = %s; %s of %s permuted runs failed. Both "
		      "sides are replayed with no costs: costs follow how often a run trades, and a "
		      "strategy on shuffled bars trades more often.", str(r, "real_sharpe"),
		      str(r, "perm_runs"), str(r, "null_mean"), str(r, "null_p95"), str(r, "p_value"),
		      str(r, "perm_failed"), str(r, "perm_requested"));
	rpt_pdf_paraf(p, "%s", str(r, "perm_explanation"));
	if (str(r, "perm_does_not_catch")[0])
		rpt_pdf_paraf(p, "What it does not catch: %s", str(r, "perm_does_not_catch"));
	rpt_pdf_png(p, "permutation.png");
	if (!on(r, "hindsight_present"))
		return;
	rpt_pdf_heading(p, "Hindsight", 2);
	rpt_pdf_paraf(p, "%s Its net profit, summed over its %s trades, is %s; with the prices moved "
		      "against the calendar by whole weeks (every date, weekday and hour kept) it keeps %s "
		      "of it, with every price moved on its own by 1 to %s ticks of its grid %s (judged "
		      "only when the profit is material); on the shuffled copies it trades a median of %s "
		      "times.", on(r, "hindsight_flagged") ? "Keyed to this data: a veto." :
		      "Not keyed to this data's dates or prices.", str(r, "surrogate_real"),
		      str(r, "hind_profit"), str(r, "calendar_kept"), str(r, "ticks_max"),
		      str(r, "tick_kept"), str(r, "surrogate_median"));
	rpt_pdf_paraf(p, "%s", str(r, "hindsight_reason"));
}

static void inspection(struct rpt_pdf *p, const cJSON *m)
{
	static const struct rpt_pdf_col flags[] = { { "line", "line", 0.08 }, { "flag", "code", 0.16 },
		{ "severity", "severity", 0.1 }, { "source line", "source", 0.3 }, { "message", "message", 0.36 } };
	static const struct rpt_pdf_col errs[] = { { "line", "line", 0.1 }, { "trade log error", "message", 0.9 } };
	const cJSON *s = get(m, "inspection"), *se = get(s, "syntax_error"), *tl = get(s, "tradelog");

	rpt_pdf_heading(p, "Static inspection", 1);
	if (!on(s, "present")) {
		rpt_pdf_paraf(p, "Static inspection is missing or failed.");
		return;
	}
	rpt_pdf_paraf(p, "Flags: %s. Shape: %s", str(s, "flag_count"), str(s, "shape_reason"));
	if (get(s, "framework_params"))
		rpt_pdf_paraf(p, "Parameters that ran: %s", str(s, "framework_params"));
	if (se)
		rpt_pdf_paraf(p, "Syntax error at line %s, column %s: %s", str(se, "line"), str(se, "col"),
			      str(se, "msg"));
	if (tl)
		rpt_pdf_paraf(p, "Trade log read as %s: %s closed trades.", str(tl, "format"), str(tl, "rows"));
	rpt_pdf_table(p, get(s, "flags"), flags, NCOL(flags), "No flags.");
	if (cJSON_GetArraySize(get(s, "tradelog_errors")))
		rpt_pdf_table(p, get(s, "tradelog_errors"), errs, NCOL(errs), NULL);
}

/* --- costs, the log against the code, statistics, trials -------------------------------- */

static void costs(struct rpt_pdf *p, const cJSON *m, const struct rpt_pdf_charts *d)
{
	static const struct rpt_pdf_col sums[] = { { "gross return (compounded)", "gross_return", 0.2 },
		{ "fees", "fees", 0.15 }, { "slippage", "slippage", 0.15 }, { "funding", "funding", 0.15 },
		{ "borrow", "borrow", 0.15 }, { "net return (compounded)", "net_return", 0.2 } };
	struct rpt_pdf_col sens[RPT_COST_COLS];
	size_t n_sens = pdf_cols(rpt_cost_cols, RPT_COST_COLS, sens);
	const cJSON *c = get(m, "costs");
	cJSON *one;

	rpt_pdf_heading(p, "Costs", 1);
	if (on(c, "present")) {
		rpt_pdf_paraf(p, "Mode: %s%s. Costs: fees %s bps and slippage %s bps per side (%s). "
			      "Market: %s. Fees, slippage, funding and borrow are sums per trade.",
			      str(c, "mode"), on(c, "trusted_returns") ? " (returns taken from the uploaded "
			      "trade log, trusted as given)" : "", str(c, "fee_bps"), str(c, "slippage_bps"),
			      str(c, "cost_source"), str(c, "market_reason"));
		/* the one row of sums, as a table of one item */
		one = cJSON_CreateArray();
		if (one && cJSON_AddItemReferenceToArray(one, (cJSON *)c))
			rpt_pdf_table(p, one, sums, NCOL(sums), NULL);
		cJSON_Delete(one);
		if (str(c, "slippage_note")[0])
			note(p, str(c, "slippage_note"));
		note(p, str(c, "note"));
	} else {
		rpt_pdf_paraf(p, "The replay is missing or failed: no costs could be computed.");
	}
	rpt_pdf_paraf(p, "%s %s", str(c, "sensitivity_basis"), str(c, "breakeven_said"));
	rpt_pdf_table(p, get(c, "sensitivity"), sens, n_sens, "No cost sensitivity in stats.json.");
	note(p, "The chart scales fees, slippage, funding and borrow together, each point labelled with "
	     "its compounded net return; the red line marks the break-even, where the compounded net "
	     "return reaches zero.");
	chart(p, d, CH_COSTS);
}

static void reconcile(struct rpt_pdf *p, const cJSON *m)
{
	static const struct rpt_pdf_col sums[] = { { "claimed trades", "claimed_trades", 0.14 },
		{ "replayed trades", "replay_trades", 0.14 }, { "matched one to one", "matched", 0.15 },
		{ "claimed only", "claimed_only", 0.14 }, { "replayed only", "replay_only", 0.14 },
		{ "exits that differ", "exit_mismatches", 0.14 }, { "gaps over tolerance", "gaps_over_tolerance", 0.15 } };
	struct rpt_pdf_col worst[RPT_WORST_COLS];
	const cJSON *r = get(m, "reconcile"), *it;
	cJSON *one;

	if (!on(r, "present"))
		return;
	rpt_pdf_heading(p, "The log against the code", 1);
	rpt_pdf_paraf(p, "%s %s", on(r, "consistent") ? "Consistent." : "The log does not match the code.",
		      str(r, "statement"));
	cJSON_ArrayForEach(it, get(r, "statements"))
		rpt_pdf_para(p, cJSON_IsString(it) ? it->valuestring : "", 9, true, false);
	one = cJSON_CreateArray();
	if (one && cJSON_AddItemReferenceToArray(one, (cJSON *)r))
		rpt_pdf_table(p, one, sums, NCOL(sums), NULL);
	cJSON_Delete(one);
	rpt_pdf_paraf(p, "Tolerance %s bp. Per matched trade, claimed minus replayed net return: mean %s "
		      "(t = %s), standard deviation %s. Sum of the claims %s, of the replay %s (plain sums, "
		      "per trade).", str(r, "tolerance"), str(r, "mean_gap"), str(r, "t_gap"),
		      str(r, "sd_gap"), str(r, "claimed_total"), str(r, "replay_total"));
	pdf_cols(rpt_worst_cols, RPT_WORST_COLS, worst);
	rpt_pdf_table(p, get(r, "worst"), worst, NCOL(worst), "No trade matched: nothing to compare "
		      "return by return.");
	note(p, "The ten largest gaps; every figure is in report.xlsx (sheet Reconcile) and replay.json.");
	rpt_pdf_png(p, "reconcile.png");
}

static void statistics(struct rpt_pdf *p, const cJSON *m, const struct rpt_pdf_charts *d)
{
	static const struct rpt_pdf_col stats[] = { { "statistic", "label", 0.32 },
		{ "value", "value", 0.16 }, { "what it means", "meaning", 0.52 } };
	static const struct rpt_pdf_col sides[] = { { "side", "side", 0.16 }, { "trades", "trades", 0.16 },
		{ "net return (compounded)", "net_return", 0.24 }, { "win rate", "win_rate", 0.2 },
		{ "Sharpe ratio per trade", "sharpe", 0.24 } };
	const cJSON *s = get(m, "stats");

	rpt_pdf_heading(p, "Statistics", 1);
	if (!on(s, "present"))
		rpt_pdf_paraf(p, "stats.json is missing or failed; the figures below are not available.");
	rpt_pdf_table(p, get(s, "rows"), stats, NCOL(stats), NULL);
	if (str(s, "prices_note")[0])
		rpt_pdf_paraf(p, "%s", str(s, "prices_note"));
	if (str(s, "bounce_note")[0])
		rpt_pdf_paraf(p, "%s", str(s, "bounce_note"));
	rpt_pdf_heading(p, "Longs and shorts", 2);
	rpt_pdf_table(p, get(s, "long_short"), sides, NCOL(sides), NULL);
	chart(p, d, CH_RETURNS);
}

static void trials(struct rpt_pdf *p, const cJSON *m)
{
	struct rpt_pdf_col rows[RPT_VARIANT_COLS];
	const cJSON *t = get(m, "trials");

	rpt_pdf_heading(p, "Trials", 1);
	if (str(t, "ledger_line")[0])
		rpt_pdf_paraf(p, "This is %s. The nightly's trial ledger links every version of a strategy it "
			      "has audited: the same file changed, or another file whose code is the same but "
			      "for its constants.", str(t, "ledger_line"));
	if (on(t, "deflated"))
		rpt_pdf_paraf(p, "The Deflated Sharpe Ratio counts %s trials, from %s. %s SR0, the Sharpe ratio "
			      "per trade the best of them would show by luck alone, is %s; the audited strategy "
			      "shows %s.", str(t, "trials"), str(t, "trials_source"), str(t, "variance_line"),
			      str(t, "sr0"), str(t, "sharpe"));
	else
		rpt_pdf_paraf(p, "No trials were counted and no Sharpe ratio was deflated: stats.json is "
			      "missing or failed.");
	if (!on(t, "declared")) {
		rpt_pdf_paraf(p, "The strategy declares no VARIANTS, so the trials are the count given and no "
			      "PBO can be measured.");
		return;
	}
	rpt_pdf_paraf(p, "The strategy declares %s variants in VARIANTS: %s ran in the sandbox and were "
		      "replayed with the same costs%s%s%s.", str(t, "count"), str(t, "ran"),
		      on(t, "any_failed") ? ", " : "", on(t, "any_failed") ? str(t, "failed") : "",
		      on(t, "any_failed") ? " failed and are left out" : "");
	rpt_pdf_png(p, "variants.png");
	if (on(t, "pbo"))
		rpt_pdf_paraf(p, "Probability of backtest overfitting: %s. %s Over %s splits into %s blocks, the "
			      "in-sample best lost money out of sample in a share of %s, and its out-of-sample "
			      "Sharpe ratio moved %s per unit of in-sample Sharpe ratio.", str(t, "pbo_value"),
			      str(t, "pbo_words"), str(t, "combinations"), str(t, "blocks"),
			      str(t, "prob_oos_loss"), str(t, "degradation_slope"));
	else
		rpt_pdf_paraf(p, "PBO was not computed: %s.", str(t, "pbo_reason"));
	rpt_pdf_png(p, "pbo.png");
	pdf_cols(rpt_variant_cols, RPT_VARIANT_COLS, rows);
	rpt_pdf_table(p, get(t, "rows"), rows, NCOL(rows), NULL);
	if (cJSON_IsObject(get(m, "spa")))
		rpt_pdf_paraf(p, "%s Hansen's test for superior predictive ability over the per-bar returns "
			      "of each variant's compounded net equity, against staying flat: consistent "
			      "p = %s (between %s and %s); White's "
			      "Reality Check gives %s. %s stationary-bootstrap resamples, mean block length %s bars.",
			      str(get(m, "spa"), "words"), str(get(m, "spa"), "p_value"), str(get(m, "spa"), "p_lower"),
			      str(get(m, "spa"), "p_upper"), str(get(m, "spa"), "reality_check_p"),
			      str(get(m, "spa"), "resamples"), str(get(m, "spa"), "block_length"));
	else
		rpt_pdf_paraf(p, "SPA was not computed: %s.", str(m, "spa_reason"));
}

/* Walk-forward selection over the variants and the Monte Carlo of the trades (report_checks.c). */
static void selection(struct rpt_pdf *p, const cJSON *m)
{
	const cJSON *wf = get(m, "walk_forward"), *mc = get(m, "monte_carlo");

	rpt_pdf_heading(p, "Walk-forward and Monte Carlo", 1);
	if (cJSON_IsObject(wf)) {
		rpt_pdf_paraf(p, "%s The history is cut into %s stretches after a first in-sample part; the "
			      "variants chosen, stretch by stretch: %s. Out of sample the choices return %s.",
			      str(wf, "words"), str(wf, "windows"), str(wf, "choices"), str(wf, "oos_net_return"));
		rpt_pdf_png(p, "walkforward.png");
	} else {
		rpt_pdf_paraf(p, "No walk-forward selection: %s.", str(m, "walk_forward_reason"));
	}
	if (cJSON_IsObject(mc)) {
		rpt_pdf_paraf(p, "%s %s (%s sequences of the %s trades, drawn with replacement and "
			      "compounded.)", str(mc, "words"), str(mc, "range"), str(mc, "resamples"),
			      str(mc, "trades"));
		rpt_pdf_png(p, "montecarlo.png");
	} else {
		rpt_pdf_paraf(p, "No Monte Carlo of the trades: %s.", str(m, "monte_carlo_reason"));
	}
}

/* The bars since the version's first audit (stats.json forward), when there are any. */
static void forward(struct rpt_pdf *p, const cJSON *m)
{
	const cJSON *f = get(m, "forward");

	if (!cJSON_IsObject(f))
		return;
	rpt_pdf_heading(p, "Since first audited (out-of-sample)", 1);
	rpt_pdf_paraf(p, "This version was first audited on data ending %s. The %s bars since are a test no "
		      "one could have tuned it to: %s trades entered after it, %s net (compounded), an "
		      "annualised Sharpe ratio of %s.", str(f, "since"), str(f, "bars"), str(f, "trades"),
		      str(f, "net_return"), str(f, "sharpe_annualised"));
	if (on(f, "has_band"))
		rpt_pdf_paraf(p, "Drawing %s of the in-sample trades at random, as many as it traded in-sample "
			      "in as many bars, gives a net return between %s and %s nine times in ten. %s",
			      str(f, "band_trades"), str(f, "band_lo"), str(f, "band_hi"), str(f, "words"));
	else
		rpt_pdf_paraf(p, "%s", str(f, "words"));
}

/* --- trades, data, fingerprint ----------------------------------------------------------- */

static const struct rpt_pdf_col trade_cols[] = { { "entry (UTC)", "entry", 0.21 },
	{ "exit (UTC)", "exit", 0.21 }, { "side", "side", 0.08 }, { "bars", "bars", 0.08 },
	{ "exit reason", "why", 0.16 }, { "gross", "gross", 0.13 }, { "net", "net", 0.13 } };

/* Rows [from, to) of the model's trade rows, as a table. */
static void trade_rows(struct rpt_pdf *p, const cJSON *rows, int from, int to)
{
	cJSON *part = cJSON_CreateArray();

	for (int k = from; part && k < to; k++)
		cJSON_AddItemReferenceToArray(part, cJSON_GetArrayItem(rows, k));
	rpt_pdf_table(p, part, trade_cols, NCOL(trade_cols), "No closed trades.");
	cJSON_Delete(part);
}

static void trades(struct rpt_pdf *p, const cJSON *m)
{
	const cJSON *t = get(m, "trades"), *rows = get(t, "rows"), *tail = get(t, "tail");
	int total = (int)sa_json_num(t, "total", 0), shown = cJSON_GetArraySize(rows);
	int first = shown < TRADES_EACH_END ? shown : TRADES_EACH_END;

	rpt_pdf_heading(p, "Trades", 1);
	if (total <= 2 * TRADES_EACH_END) {
		if (total)
			rpt_pdf_paraf(p, "%d closed trade%s, all listed; %s in trades.csv and "
				      "report.xlsx.", total, total == 1 ? "" : "s", total == 1 ? "it is" : "they are");
		trade_rows(p, rows, 0, shown);
		return;
	}
	rpt_pdf_paraf(p, "%d closed trades: the first %d and the last %d are listed; all of them are in "
		      "trades.csv and report.xlsx.", total, first, cJSON_GetArraySize(tail));
	trade_rows(p, rows, 0, first);
	rpt_pdf_paraf(p, "The last %d:", cJSON_GetArraySize(tail));
	trade_rows(p, tail, 0, cJSON_GetArraySize(tail));
}

static void data(struct rpt_pdf *p, const cJSON *m)
{
	const cJSON *d = get(m, "data");
	char bars[200], spacing[600], prices[200];
	const char *pairs[12];
	size_t n = 0;

	rpt_pdf_heading(p, "Data", 1);
	if (!d) {
		rpt_pdf_paraf(p, "The data were not described: fingerprint.json is missing or failed.");
		return;
	}
	snprintf(bars, sizeof bars, "%s, %s to %s", str(d, "bars"), str(d, "first"), str(d, "last"));
	snprintf(spacing, sizeof spacing, "%s (median); %s gaps, %s bars missing at that spacing%s; largest "
		 "step %s", str(d, "spacing"), str(d, "gaps"), str(d, "missing_bars"),
		 on(d, "sessions") ? " (weekday sessions: weekends and market holidays of up to five "
		 "weekdays in a row are closures, not gaps)" : "", str(d, "largest_gap"));
	snprintf(prices, sizeof prices, "%s", on(d, "adjusted") ? "adjusted: open, high, low and close "
		 "scaled by Adj Close / Close, bar by bar" : "as written (not adjusted)");
	pairs[n++] = "bars", pairs[n++] = bars;
	pairs[n++] = "spacing", pairs[n++] = spacing;
	pairs[n++] = "format", pairs[n++] = str(d, "format");
	pairs[n++] = "columns", pairs[n++] = str(d, "columns");
	pairs[n++] = "prices", pairs[n++] = prices;
	if (on(d, "no_volume"))
		pairs[n++] = "volume", pairs[n++] = "the file has no volume column: volume is NaN for the strategy";
	rpt_pdf_pairs(p, pairs, n / 2);
}

static void fingerprint(struct rpt_pdf *p, const cJSON *m)
{
	const cJSON *f = get(m, "fingerprint"), *u;
	char data[200], as[1024];
	size_t used;
	const char *pairs[18];
	size_t n = 0;

	rpt_pdf_heading(p, "Fingerprint", 1);
	snprintf(data, sizeof data, "%s bars, %s to %s", str(f, "data_bars"), str(f, "data_first"),
		 str(f, "data_last"));
	used = (size_t)snprintf(as, sizeof as, "%s", str(f, "audit_name"));
	cJSON_ArrayForEach(u, get(f, "uploads"))
		if (used < sizeof as)
			used += (size_t)snprintf(as + used, sizeof as - used, "; %s uploaded as %s",
						 str(u, "kind"), str(u, "file"));
	if (on(f, "renamed") && used < sizeof as)
		snprintf(as + used, sizeof as - used, " (a name make and the shell cannot hold is "
			 "copied in under the safe one)");
	pairs[n++] = "strategy sha256", pairs[n++] = str(f, "strategy_sha256");
	pairs[n++] = "trade log sha256", pairs[n++] = str(f, "tradelog_sha256");
	pairs[n++] = "data sha256", pairs[n++] = str(f, "data_sha256");
	pairs[n++] = "config sha256", pairs[n++] = str(f, "config_sha256");
	pairs[n++] = "data", pairs[n++] = data;
	pairs[n++] = "trials declared", pairs[n++] = str(f, "trials");
	pairs[n++] = "audited as", pairs[n++] = as;
	pairs[n++] = "tool version", pairs[n++] = str(f, "tool_version");
	pairs[n++] = "libraries", pairs[n++] = str(f, "libraries");
	rpt_pdf_pairs(p, pairs, n / 2);
	note(p, "sha256sums.txt lists every file of this bundle, this PDF among them; check it with "
	     "sha256sum -c --strict sha256sums.txt.");
}

static void limitations(struct rpt_pdf *p, const cJSON *model)
{
	const cJSON *cal = cJSON_GetObjectItemCaseSensitive(model, "calibration");

	static const char *const items[] = {
		"A backtest is evidence about the past, on one data set. Passing every gate earns a small, "
		"closely watched forward test, never a promise of profit.",
		"The default data are synthetic. Costs are a model (fees and slippage per side, a perp's "
		"funding per 8 h, a short's borrow on stock and spot), not a fill simulator: queue "
		"position, market impact, gaps and outages are not modelled.",
		"The Deflated Sharpe Ratio and the PBO are only as honest as the variants declared. "
		"Variants tried and not declared make every figure here look better than it is.",
		"Each bar is decided live, with only the bars up to it, as far as the budget allows "
		"(LIVE_BARS, AUDIT_S); past it only a sample of the bars is checked, and a peek that acts "
		"on too few of them to show in the sample can go unseen there (the live section says how "
		"many bars were decided and what the sample would catch).",
		"A trade log is taken at its word: its returns are not replayed against prices unless "
		"signals were uploaded as well.",
		"The sandbox contains the strategy for this audit; it says nothing about how the code "
		"behaves elsewhere.",
	};

	rpt_pdf_heading(p, "Honest limitations", 1);
	for (size_t k = 0; k < NCOL(items); k++)
		rpt_pdf_paraf(p, "- %s", items[k]);
	rpt_pdf_paraf(p, "- %s", str(cal, "words"));
}

void rpt_pdf_sections(struct rpt_pdf *p, const cJSON *model, const struct rpt_pdf_charts *d)
{
	verdict(p, model);
	containment(p, model);
	lookahead(p, model, d);
	live(p, model, d);
	rejected(p, model);
	tearsheet(p, model, d);
	rpt_freqtrade_pdf(p, model);
	robustness(p, model);
	inspection(p, model);
	costs(p, model, d);
	reconcile(p, model);
	statistics(p, model, d);
	trials(p, model);
	rpt_nb_pdf(p, model);
	selection(p, model);
	forward(p, model);
	trades(p, model);
	data(p, model);
	fingerprint(p, model);
	limitations(p, model);
}
