/* report_pdf.c - report.pdf: the verdict page, the charts and the main tables on A4, drawn with
 * cairo's PDF surface from the same model and drawing code as the page and the PNGs. */
#include "report_pdf.h"

#include <cairo.h>
#include <cairo-pdf.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "jsonio.h"
#include "msg.h"
#include "report_chart.h"
#include "signals.h"

/* A4 in points, and the text block inside the margins. */
#define PW 595.28
#define PH 841.89
#define MX 42.0
#define TOP 48.0
#define BOTTOM (PH - 52.0)
#define TW (PW - 2 * MX)
#define FONT "DejaVu Sans"

/* Where the writer is: the page being drawn and how far down it. */
struct pdf {
	cairo_t *cr;
	double y;
	int page;
	const char *name;
};

static const cJSON *get(const cJSON *obj, const char *key)
{
	return cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
}

static const char *str(const cJSON *obj, const char *key)
{
	return sa_json_str(obj, key, "");
}

static void font(cairo_t *cr, double size, bool bold)
{
	cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
}

static void ink(cairo_t *cr)
{
	cairo_set_source_rgb(cr, 0.12, 0.14, 0.16);
}

static void footer(struct pdf *p)
{
	char buf[160];

	font(p->cr, 8, false);
	cairo_set_source_rgb(p->cr, 0.40, 0.42, 0.46);
	snprintf(buf, sizeof buf, "strataudit report: %.100s   page %d", p->name, p->page);
	cairo_move_to(p->cr, MX, PH - 28);
	cairo_show_text(p->cr, buf);
}

static void new_page(struct pdf *p)
{
	footer(p);
	cairo_show_page(p->cr);
	p->page++;
	p->y = TOP;
}

/* Makes room for h points, starting a page when they do not fit. */
static void need(struct pdf *p, double h)
{
	if (p->y + h > BOTTOM)
		new_page(p);
}

/* Draws text wrapped at width w from x, at the current font; returns the lines drawn, or with
 * draw false only counts them. Words longer than the line are cut. */
static int wrap(cairo_t *cr, const char *text, double x, double y, double w, double lead, bool draw)
{
	char line[1024] = "", word[512];
	const char *s = text;
	int lines = 0;
	cairo_text_extents_t te;

	while (*s) {
		size_t n = strcspn(s, " ");
		char trial[1536];
		snprintf(word, sizeof word, "%.*s", (int)(n < sizeof word - 1 ? n : sizeof word - 1), s);
		s += n;
		s += strspn(s, " ");
		snprintf(trial, sizeof trial, "%s%s%s", line, line[0] ? " " : "", word);
		cairo_text_extents(cr, trial, &te);
		if (te.x_advance > w && line[0]) {
			if (draw) {
				cairo_move_to(cr, x, y + lines * lead);
				cairo_show_text(cr, line);
			}
			lines++;
			snprintf(line, sizeof line, "%s", word);
		} else {
			size_t l = strlen(trial);
			l = l < sizeof line ? l : sizeof line - 1;
			memcpy(line, trial, l);
			line[l] = '\0';
		}
	}
	if (line[0]) {
		if (draw) {
			cairo_move_to(cr, x, y + lines * lead);
			cairo_show_text(cr, line);
		}
		lines++;
	}
	return lines;
}

static void heading(struct pdf *p, const char *text)
{
	need(p, 40);
	p->y += 10;
	font(p->cr, 13, true);
	ink(p->cr);
	cairo_move_to(p->cr, MX, p->y + 12);
	cairo_show_text(p->cr, text);
	p->y += 20;
}

static void para(struct pdf *p, const char *text, double size, bool bold)
{
	int n;

	if (!text || !text[0])
		return;
	font(p->cr, size, bold);
	n = wrap(p->cr, text, MX, 0, TW, size * 1.35, false);
	need(p, n * size * 1.35 + 4);
	ink(p->cr);
	wrap(p->cr, text, MX, p->y + size, TW, size * 1.35, true);
	p->y += n * size * 1.35 + 4;
}

static void banner(struct pdf *p, const cJSON *m)
{
	const char *cls = str(m, "verdict_class");
	double bg[3] = { 0.99, 0.91, 0.91 }, fg[3] = { 0.61, 0.11, 0.11 };
	double h;
	int n;

	if (!strcmp(cls, "good")) {
		bg[0] = 0.89, bg[1] = 0.96, bg[2] = 0.91;
		fg[0] = 0.11, fg[1] = 0.42, fg[2] = 0.21;
	} else if (!strcmp(cls, "warn")) {
		bg[0] = 1.0, bg[1] = 0.95, bg[2] = 0.84;
		fg[0] = 0.48, fg[1] = 0.32, fg[2] = 0.0;
	}
	font(p->cr, 9.5, false);
	n = wrap(p->cr, str(m, "summary"), MX + 12, 0, TW - 24, 13, false);
	h = 44 + n * 13 + (get(m, "gate_verdict") ? 16 : 0);
	cairo_set_source_rgb(p->cr, bg[0], bg[1], bg[2]);
	cairo_rectangle(p->cr, MX, p->y, TW, h);
	cairo_fill_preserve(p->cr);
	cairo_set_source_rgb(p->cr, fg[0], fg[1], fg[2]);
	cairo_set_line_width(p->cr, 1.5);
	cairo_stroke(p->cr);
	font(p->cr, 20, true);
	cairo_move_to(p->cr, MX + 12, p->y + 28);
	cairo_show_text(p->cr, str(m, "verdict"));
	ink(p->cr);
	font(p->cr, 9.5, false);
	wrap(p->cr, str(m, "summary"), MX + 12, p->y + 46, TW - 24, 13, true);
	if (get(m, "gate_verdict")) {
		char buf[160];
		snprintf(buf, sizeof buf, "The gates alone would have said %s.", str(m, "gate_verdict"));
		cairo_move_to(p->cr, MX + 12, p->y + 46 + n * 13 + 4);
		cairo_show_text(p->cr, buf);
	}
	p->y += h + 10;
}

/* A table: column titles and widths (fractions of the text width), one row per array item
 * with the given keys; the last column wraps. */
struct column {
	const char *title, *key;
	double width;
};

static void table_row(struct pdf *p, const char *const *cells, const struct column *c, size_t nc,
		      bool bold)
{
	double x = MX, lead = 11.5;
	int lines = 1;

	font(p->cr, 8.5, bold);
	lines = wrap(p->cr, cells[nc - 1], 0, 0, c[nc - 1].width * TW - 4, lead, false);
	lines = lines ? lines : 1;
	need(p, lines * lead + 5);
	ink(p->cr);
	for (size_t k = 0; k < nc; k++) {
		if (k + 1 < nc) {
			cairo_save(p->cr);
			cairo_rectangle(p->cr, x, p->y, c[k].width * TW - 4, lead + 2);
			cairo_clip(p->cr);
			cairo_move_to(p->cr, x, p->y + 9);
			cairo_show_text(p->cr, cells[k]);
			cairo_restore(p->cr);
		} else {
			wrap(p->cr, cells[k], x, p->y + 9, c[k].width * TW - 4, lead, true);
		}
		x += c[k].width * TW;
	}
	p->y += lines * lead + 3;
	cairo_set_source_rgb(p->cr, 0.84, 0.85, 0.87);
	cairo_set_line_width(p->cr, 0.5);
	cairo_move_to(p->cr, MX, p->y);
	cairo_line_to(p->cr, MX + TW, p->y);
	cairo_stroke(p->cr);
	p->y += 2;
}

static void table(struct pdf *p, const cJSON *rows, const struct column *c, size_t nc)
{
	const char *cells[16];
	const cJSON *r;

	for (size_t k = 0; k < nc && k < 16; k++)
		cells[k] = c[k].title;
	table_row(p, cells, c, nc, true);
	cJSON_ArrayForEach(r, rows) {
		for (size_t k = 0; k < nc && k < 16; k++) {
			const cJSON *v = get(r, c[k].key);
			cells[k] = cJSON_IsString(v) ? v->valuestring : cJSON_IsTrue(v) ? "pass" :
				   cJSON_IsFalse(v) ? "fail" : "";
		}
		table_row(p, cells, c, nc, false);
	}
}

static void verdict_page(struct pdf *p, const cJSON *m)
{
	static const struct column gates[] = { { "gate", "name", 0.15 }, { "value", "value", 0.12 },
		{ "threshold", "threshold", 0.12 }, { "result", "pass", 0.08 }, { "why", "why", 0.53 } };
	static const struct column vetoes[] = { { "veto", "name", 0.2 }, { "reason", "reason", 0.8 } };
	char buf[300];

	font(p->cr, 16, true);
	ink(p->cr);
	snprintf(buf, sizeof buf, "strataudit report: %.200s", p->name);
	cairo_move_to(p->cr, MX, p->y + 16);
	cairo_show_text(p->cr, buf);
	p->y += 28;
	banner(p, m);
	para(p, str(m, "stopped"), 9.5, true);
	heading(p, "The six gates");
	if (cJSON_GetArraySize(get(m, "gates")))
		table(p, get(m, "gates"), gates, 5);
	else
		para(p, "No gates were scored: verdict.json is missing or failed.", 9.5, false);
	heading(p, "Vetoes");
	if (cJSON_GetArraySize(get(m, "vetoes")))
		table(p, get(m, "vetoes"), vetoes, 2);
	else
		para(p, "No veto: the sandbox refused nothing and no look-ahead was found.", 9.5, false);
}

/* One chart, scaled to the text width, with the line saying what it means above it. */
enum chart { CH_EQUITY, CH_UNDERWATER, CH_ROLLING, CH_DELAY, CH_COSTS, CH_RETURNS, CH_SIGNALS, CH_N };

struct charts {
	const struct rpt_input *in;
	const struct rpt_extra *x;
	const int8_t *sig;
	const char *why_sig;
};

static void draw_one(cairo_t *cr, enum chart c, const struct charts *d)
{
	const cJSON *st = d->x->stats;
	const cJSON *la = d->in->stage[RPT_LOOKAHEAD].json;
	const char *why_eq = d->in->equity_reason[0] ? d->in->equity_reason : "equity.csv is empty";

	switch (c) {
	case CH_EQUITY: rpt_draw_equity(cr, &d->in->equity, &d->x->bench, why_eq); break;
	case CH_UNDERWATER: rpt_draw_underwater(cr, &d->in->equity, get(st, "drawdowns"), why_eq); break;
	case CH_ROLLING:
		rpt_draw_rolling(cr, d->in->equity.t, d->x->rolling, d->in->equity.n, d->x->window,
				 d->x->sharpe_annualised, d->x->rolling_why);
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
	case CH_N: break;
	}
}

static void chart(struct pdf *p, enum chart c, const struct charts *d, const char *caption)
{
	double s = TW / RPT_CHART_WIDTH, h = RPT_CHART_HEIGHT * s;

	font(p->cr, 9, false);
	need(p, h + 14 + 13 * wrap(p->cr, caption, MX, 0, TW, 12, false));
	para(p, caption, 9, false);
	cairo_save(p->cr);
	cairo_translate(p->cr, MX, p->y);
	cairo_scale(p->cr, s, s);
	cairo_rectangle(p->cr, 0, 0, RPT_CHART_WIDTH, RPT_CHART_HEIGHT);
	cairo_clip(p->cr);
	draw_one(p->cr, c, d);
	cairo_restore(p->cr);
	cairo_set_source_rgb(p->cr, 0.84, 0.85, 0.87);
	cairo_set_line_width(p->cr, 0.6);
	cairo_rectangle(p->cr, MX, p->y, TW, h);
	cairo_stroke(p->cr);
	p->y += h + 10;
}

static void charts_pages(struct pdf *p, const struct charts *d, const cJSON *m)
{
	const cJSON *t = get(m, "tearsheet");

	new_page(p);
	heading(p, "Charts");
	chart(p, CH_EQUITY, d, str(t, "benchmark_sentence")[0] ? str(t, "benchmark_sentence") :
	      "Net and gross equity with the net drawdown below.");
	chart(p, CH_UNDERWATER, d, "How far below its best the net equity was, and for how long; the "
	      "five deepest episodes are numbered and listed in the table of drawdowns.");
	chart(p, CH_ROLLING, d, "Whether the edge held through the period or came from one stretch: "
	      "the Sharpe ratio over a moving window of bars.");
	chart(p, CH_DELAY, d, str(t, "delay_sentence")[0] ? str(t, "delay_sentence") :
	      "What a late fill does to the edge.");
	chart(p, CH_COSTS, d, str(t, "breakeven_sentence")[0] ? str(t, "breakeven_sentence") :
	      "How the edge survives when every cost is scaled.");
	chart(p, CH_RETURNS, d, "The distribution of per-trade returns, net of costs and gross.");
	chart(p, CH_SIGNALS, d, "The positions against price, with any look-ahead mismatch marked.");
}

/* The trial ledger's sentence, and the bars since the first audit, when the audit has them. */
static void ledger_paras(struct pdf *p, const cJSON *m)
{
	const cJSON *f = get(m, "forward");
	char buf[600];

	if (str(get(m, "trials"), "ledger_line")[0]) {
		snprintf(buf, sizeof buf, "This is %s.", str(get(m, "trials"), "ledger_line"));
		para(p, buf, 9, true);
	}
	if (!cJSON_IsObject(f))
		return;
	heading(p, "Since first audited (out-of-sample)");
	snprintf(buf, sizeof buf, "This version was first audited on data ending %s. The %s bars since: "
		 "%s trades entered after it, %s net (compounded), an annualised Sharpe ratio of %s.",
		 str(f, "since"), str(f, "bars"), str(f, "trades"), str(f, "net_return"),
		 str(f, "sharpe_annualised"));
	para(p, buf, 9, false);
	if (cJSON_IsTrue(get(f, "has_band")))
		snprintf(buf, sizeof buf, "%s of the in-sample trades drawn at random give %s to %s nine "
			 "times in ten. %s", str(f, "band_trades"), str(f, "band_lo"), str(f, "band_hi"),
			 str(f, "words"));
	else
		snprintf(buf, sizeof buf, "%s", str(f, "words"));
	para(p, buf, 9, false);
}

static void tables_pages(struct pdf *p, const cJSON *m)
{
	static const struct column stats[] = { { "statistic", "label", 0.32 }, { "value", "value", 0.16 },
		{ "what it means", "meaning", 0.52 } };
	static const struct column bench[] = { { "", "label", 0.4 }, { "strategy", "strategy", 0.3 },
		{ "buy and hold", "benchmark", 0.3 } };
	static const struct column dd[] = { { "#", "rank", 0.05 }, { "start", "start", 0.22 },
		{ "trough", "trough", 0.22 }, { "end", "end", 0.22 }, { "depth", "depth", 0.14 },
		{ "bars", "bars", 0.15 } };
	static const struct column delay[] = { { "fill", "delay", 0.34 }, { "trades", "trades", 0.2 },
		{ "Sharpe per trade", "sharpe", 0.23 }, { "net return", "net", 0.23 } };
	const cJSON *t = get(m, "tearsheet"), *y;
	char buf[400];

	new_page(p);
	heading(p, "Statistics");
	snprintf(buf, sizeof buf, "Sharpe ratio per trade, 95 %% interval: %s.", str(t, "sharpe_ci95"));
	para(p, cJSON_IsTrue(get(t, "present")) ? buf : "stats.json is missing or failed.", 9, false);
	table(p, get(get(m, "stats"), "rows"), stats, 3);
	table(p, get(t, "trade_stats"), stats, 3);
	ledger_paras(p, m);
	if (!cJSON_IsTrue(get(t, "present")))
		return;
	heading(p, "Benchmark: buy and hold");
	para(p, str(t, "benchmark_sentence"), 9, false);
	table(p, get(t, "benchmark"), bench, 3);
	heading(p, "Drawdown episodes");
	para(p, "The five deepest falls of net equity from a peak, deepest first; the first is the "
	     "max drawdown.", 9, false);
	table(p, get(t, "drawdowns"), dd, 6);
	heading(p, "Late fills");
	para(p, str(t, "delay_sentence")[0] ? str(t, "delay_sentence") : str(t, "delay_note"), 9, false);
	table(p, get(t, "delay"), delay, 4);
	heading(p, "Monthly returns");
	para(p, "Net equity at each month's last bar over the month before's; the year's total is "
	     "the same ratio over the year.", 9, false);
	{
		struct column mc[14];
		static const char *const names[] = { "year", "Jan", "Feb", "Mar", "Apr", "May", "Jun",
			"Jul", "Aug", "Sep", "Oct", "Nov", "Dec", "year" };
		const char *cells[14];
		char yb[16];
		for (int k = 0; k < 14; k++)
			mc[k] = (struct column){ names[k], "", k == 0 || k == 13 ? 0.1 : 0.8 / 12 };
		table_row(p, names, mc, 14, true);
		cJSON_ArrayForEach(y, get(t, "years")) {
			snprintf(yb, sizeof yb, "%.0f", sa_json_num(y, "year", 0));
			cells[0] = yb;
			for (int k = 0; k < 12; k++)
				cells[k + 1] = str(cJSON_GetArrayItem(get(y, "months"), k), "ret");
			cells[13] = str(y, "total");
			table_row(p, cells, mc, 14, false);
		}
	}
}

static cairo_status_t to_file(void *closure, const unsigned char *data, unsigned int len)
{
	return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

/* Fixed metadata: cairo would otherwise stamp the time of writing into the file. */
static void metadata(cairo_surface_t *sf, const char *name)
{
	char title[300];

	snprintf(title, sizeof title, "strataudit report: %.250s", name);
	cairo_pdf_surface_set_metadata(sf, CAIRO_PDF_METADATA_TITLE, title);
	cairo_pdf_surface_set_metadata(sf, CAIRO_PDF_METADATA_CREATOR, "strataudit " SA_VERSION);
	cairo_pdf_surface_set_metadata(sf, CAIRO_PDF_METADATA_CREATE_DATE, RPT_PDF_CREATED);
	cairo_pdf_surface_set_metadata(sf, CAIRO_PDF_METADATA_MOD_DATE, RPT_PDF_CREATED);
}

static void draw_document(cairo_t *cr, const struct rpt_input *in, const struct rpt_extra *x,
			  const cJSON *model, const int8_t *sig, const char *why_sig)
{
	struct pdf p = { .cr = cr, .y = TOP, .page = 1, .name = str(model, "name") };
	struct charts d = { .in = in, .x = x, .sig = sig, .why_sig = why_sig };

	verdict_page(&p, model);
	charts_pages(&p, &d, model);
	tables_pages(&p, model);
	footer(&p);
	cairo_show_page(cr);
}

int rpt_pdf_write(const char *path, const struct rpt_input *in, const struct rpt_extra *x,
		  const cJSON *model, char *err, size_t errlen)
{
	struct sa_atomic a = { 0 };
	cairo_surface_t *sf = NULL;
	cairo_t *cr = NULL;
	const cJSON *run = rpt_stage_ok(in, RPT_RUN);
	char why_sig[256] = "the strategy run did not succeed";
	int8_t *sig = NULL;
	cairo_status_t st;
	int rc = -1;

	if (run)
		sa_run_signals(run, in->data.n, 0, &sig, why_sig, sizeof why_sig);
	if (sa_atomic_open(&a, path)) {
		sa_fmt(err, errlen, "cannot write '%s'", path);
		goto out;
	}
	sf = cairo_pdf_surface_create_for_stream(to_file, a.fp, PW, PH);
	metadata(sf, str(model, "name"));
	cr = cairo_create(sf);
	draw_document(cr, in, x, model, sig, why_sig);
	st = cairo_status(cr);
	cairo_destroy(cr);
	cairo_surface_finish(sf);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(sf);
	cairo_surface_destroy(sf);
	if (st != CAIRO_STATUS_SUCCESS) {
		sa_atomic_abort(&a);
		sa_fmt(err, errlen, "drawing '%s': %s", path, cairo_status_to_string(st));
		goto out;
	}
	if (sa_atomic_commit(&a)) {
		sa_fmt(err, errlen, "cannot write '%s'", path);
		goto out;
	}
	rc = 0;
out:
	free(sig);
	return rc;
}
