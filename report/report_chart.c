/* report_chart.c - the report's main charts: equity, returns, costs and signals (the plotting
 * kit is report_plot.c; the tearsheet's charts report_chart_tear.c, the robustness and trials
 * charts report_chart_robust.c). */
#include <cairo.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "jsonio.h"
#include "msg.h"
#include "report_chart.h"
#include "report_fmt.h"
#include "report_plot.h"
#include "timeutil.h"

bool rpt_equity_log_axis(const struct rpt_series *eq, const struct rpt_series *bench)
{
	double lo = DBL_MAX, hi = 0;

	for (size_t i = 0; i < eq->n; i++) {
		double v[2] = { eq->net[i], eq->gross[i] };
		for (int k = 0; k < 2; k++)
			if (v[k] > 0)
				lo = fmin(lo, v[k]), hi = fmax(hi, v[k]);
	}
	for (size_t i = 0; bench && i < bench->n; i++)
		if (bench->net[i] > 0)
			lo = fmin(lo, bench->net[i]), hi = fmax(hi, bench->net[i]);
	return hi > 0 && hi / lo > 10;
}

/* log10 of v (n values) into out, a value at or below zero (a ruined account) at floor. */
static void log_copy(const double *v, size_t n, double floor, double *out)
{
	for (size_t i = 0; i < n; i++)
		out[i] = v[i] > 0 ? log10(v[i]) : floor;
}

/* The lines of the top panel, as drawn: log10 of each value on a log axis, else the values. */
struct eq_lines {
	const double *net, *gross, *bench;
	double *own;  /* what eq_lines allocated, or NULL */
};

/* Fills *l for the panel and widens top's y range to hold every line. Returns 0 or -1. */
static int eq_lines(struct eq_lines *l, struct rpt_panel *top, const struct rpt_series *eq,
		    const struct rpt_series *bench, bool log_axis)
{
	size_t nb = bench ? bench->n : 0;

	*l = (struct eq_lines){ eq->net, eq->gross, bench ? bench->net : NULL, NULL };
	if (log_axis) {
		double lo = DBL_MAX;

		l->own = malloc((2 * eq->n + nb) * sizeof *l->own);
		if (!l->own)
			return -1;
		for (size_t i = 0; i < eq->n; i++)
			lo = fmin(lo, fmin(eq->net[i] > 0 ? eq->net[i] : DBL_MAX, eq->gross[i] > 0 ? eq->gross[i] : DBL_MAX));
		for (size_t i = 0; i < nb; i++)
			lo = fmin(lo, bench->net[i] > 0 ? bench->net[i] : DBL_MAX);
		log_copy(eq->net, eq->n, log10(lo) - 0.3, l->own);
		log_copy(eq->gross, eq->n, log10(lo) - 0.3, l->own + eq->n);
		if (nb)
			log_copy(bench->net, nb, log10(lo) - 0.3, l->own + 2 * eq->n);
		*l = (struct eq_lines){ l->own, l->own + eq->n, nb ? l->own + 2 * eq->n : NULL, l->own };
	}
	for (size_t i = 0; i < eq->n; i++) {
		top->ymin = fmin(top->ymin, fmin(l->net[i], l->gross[i]));
		top->ymax = fmax(top->ymax, fmax(l->net[i], l->gross[i]));
	}
	for (size_t i = 0; i < nb; i++) {
		top->ymin = fmin(top->ymin, l->bench[i]);
		top->ymax = fmax(top->ymax, l->bench[i]);
	}
	if (log_axis) {
		top->ymin = floor(top->ymin * 10) / 10 - 0.05;
		top->ymax = ceil(top->ymax * 10) / 10 + 0.05;
	} else {
		rpt_nice_range(&top->ymin, &top->ymax, 5);
	}
	return 0;
}

static void draw_equity(cairo_t *cr, const struct rpt_series *eq, const struct rpt_series *bench, bool log_axis)
{
	struct rpt_panel top = { 78, 80, CW - 24, 366, (double)eq->t[0], (double)eq->t[eq->n - 1], DBL_MAX, -DBL_MAX };
	struct rpt_panel dd = { 78, 384, CW - 24, CH - 34, top.xmin, top.xmax, 0, 0 };
	double *draw = malloc(eq->n * sizeof *draw), peak = -DBL_MAX;
	struct eq_lines l = { 0 };
	static const char *const names[] = { "net equity (after costs)", "gross equity (before costs)",
					     "buy and hold (after costs)" };
	static const struct rpt_rgb colors[] = { { 0.10, 0.30, 0.65 }, { 0.55, 0.60, 0.68 }, { 0.85, 0.50, 0.10 } };
	static const int dashed[] = { L_LINE, L_DASH, L_LINE };
	if (!draw || eq_lines(&l, &top, eq, bench, log_axis) != 0)
		goto out;
	if (top.xmax <= top.xmin)
		top.xmax = dd.xmax = top.xmin + 3600;
	for (size_t i = 0; i < eq->n; i++) {
		peak = fmax(peak, eq->net[i]);
		draw[i] = peak > 0 ? eq->net[i] / peak - 1 : 0;
		dd.ymin = fmin(dd.ymin, draw[i]);
	}
	rpt_nice_range(&dd.ymin, &dd.ymax, 2);
	dd.ymax = 0;
	if (log_axis)
		rpt_y_axis_log(cr, &top);
	else
		rpt_y_axis(cr, &top, 5, 1, "%.2f", false);
	rpt_x_axis_dates(cr, &top, false);
	rpt_y_axis(cr, &dd, 2, 100, "%.0f%%", false);
	rpt_x_axis_dates(cr, &dd, true);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	double dash[] = { 5, 3 };
	rpt_set_rgb(cr, RPT_GROSS);
	cairo_set_line_width(cr, 1.6);
	cairo_set_dash(cr, dash, 2, 0);
	rpt_polyline(cr, &top, eq->n, eq->t, l.gross);
	cairo_stroke(cr);
	cairo_set_dash(cr, NULL, 0, 0);
	if (bench) {
		rpt_set_rgb(cr, RPT_PSR);
		cairo_set_line_width(cr, 1.4);
		rpt_polyline(cr, &top, bench->n, bench->t, l.bench);
		cairo_stroke(cr);
	}
	rpt_set_rgb(cr, RPT_NET);
	cairo_set_line_width(cr, 1.8);
	rpt_polyline(cr, &top, eq->n, eq->t, l.net);
	cairo_stroke(cr);
	cairo_move_to(cr, rpt_px_x(&dd, dd.xmin), rpt_px_y(&dd, 0));
	for (size_t i = 0; i < eq->n; i++)
		cairo_line_to(cr, rpt_px_x(&dd, (double)eq->t[i]), rpt_px_y(&dd, draw[i]));
	cairo_line_to(cr, rpt_px_x(&dd, dd.xmax), rpt_px_y(&dd, 0));
	cairo_close_path(cr);
	cairo_set_source_rgba(cr, RPT_DD.r, RPT_DD.g, RPT_DD.b, 0.35);
	cairo_fill_preserve(cr);
	rpt_set_rgb(cr, RPT_DD);
	cairo_set_line_width(cr, 1);
	cairo_stroke(cr);
	rpt_frame(cr, &top);
	rpt_frame(cr, &dd);
	rpt_legend(cr, bench ? 3 : 2, names, colors, dashed);
	rpt_set_rgb(cr, RPT_INK);
	rpt_y_label(cr, &top, log_axis ? "equity (start = 1), log scale" : "equity (start = 1)");
	rpt_y_label(cr, &dd, "drawdown");
out:
	free(l.own);
	free(draw);
}

void rpt_draw_equity(cairo_t *cr, const struct rpt_series *eq, const struct rpt_series *bench,
		     const char *why_missing)
{
	const struct rpt_series *b = bench && bench->n >= 2 ? bench : NULL;
	bool log_axis = eq && eq->n >= 2 && rpt_equity_log_axis(eq, b);

	rpt_prep(cr);
	rpt_title(cr, "Equity, net and gross of costs, with net drawdown",
	      b ? (log_axis ? "time in UTC; fills at the next bar's open; buy and hold of the same data "
		   "after the same costs beside it; a log axis: the lines span more than 10x"
		 : "time in UTC; fills at the next bar's open; buy and hold of the same data after "
		   "the same costs beside it")
		: log_axis ? "time in UTC; fills at the next bar's open; a log axis: the lines span more than 10x"
			   : "time in UTC; fills at the next bar's open");
	if (eq && eq->n >= 2)
		draw_equity(cr, eq, b, log_axis);
	else
		rpt_empty_note(cr, eq && eq->n ? "fewer than two equity points" : why_missing);
}

int rpt_chart_equity(const char *path, const struct rpt_series *eq, const struct rpt_series *bench,
		     const char *why_missing, char *err, size_t errlen)
{
	cairo_surface_t *sf;
	cairo_t *cr = rpt_canvas(&sf);
	rpt_draw_equity(cr, eq, bench, why_missing);
	return rpt_finish(cr, sf, path, err, errlen);
}

static void draw_returns(cairo_t *cr, const struct rpt_returns *r)
{
	struct rpt_panel p = { 78, 80, CW - 24, CH - 52, DBL_MAX, -DBL_MAX, 0, 1 };
	double mean = 0;
	int bins = (int)fmin(60, fmax(10, ceil(sqrt((double)r->n) * 2)));
	static const char *const names[] = { "net return per trade", "gross return per trade",
					     "mean net return" };
	static const struct rpt_rgb colors[] = { { 0.10, 0.30, 0.65 }, { 0.55, 0.60, 0.68 }, { 0.80, 0.20, 0.18 } };
	static const int dashed[] = { L_BOX, L_LINE, L_DASH };
	for (size_t i = 0; i < r->n; i++) {
		p.xmin = fmin(p.xmin, fmin(r->net[i], r->gross[i]));
		p.xmax = fmax(p.xmax, fmax(r->net[i], r->gross[i]));
		mean += r->net[i] / (double)r->n;
	}
	p.xmin = fmin(p.xmin, 0);
	p.xmax = fmax(p.xmax, 0);
	rpt_nice_range(&p.xmin, &p.xmax, 8);
	double width = (p.xmax - p.xmin) / bins;
	p.ymax = 1.1 * fmax(rpt_max_count(r->net, r->n, bins, p.xmin, width), rpt_max_count(r->gross, r->n, bins, p.xmin, width));
	rpt_nice_range(&p.ymin, &p.ymax, 5);
	p.ymin = 0;
	rpt_y_axis(cr, &p, 5, 1, "%.0f", false);
	rpt_draw_hist(cr, &p, r->net, r->n, bins, p.xmin, width, true, RPT_NET);
	rpt_draw_hist(cr, &p, r->gross, r->n, bins, p.xmin, width, false, RPT_GROSS);
	double dash[] = { 5, 3 };
	rpt_set_rgb(cr, RPT_INK);
	cairo_set_line_width(cr, 1);
	cairo_move_to(cr, rpt_px_x(&p, 0), p.y0);
	cairo_line_to(cr, rpt_px_x(&p, 0), p.y1);
	cairo_stroke(cr);
	rpt_set_rgb(cr, RPT_DD);
	cairo_set_line_width(cr, 1.6);
	cairo_set_dash(cr, dash, 2, 0);
	cairo_move_to(cr, rpt_px_x(&p, mean), p.y0);
	cairo_line_to(cr, rpt_px_x(&p, mean), p.y1);
	cairo_stroke(cr);
	cairo_set_dash(cr, NULL, 0, 0);
	/* the axis shows percent while the data are fractions */
	struct rpt_panel pct = p;
	pct.xmin *= 100;
	pct.xmax *= 100;
	rpt_x_axis_numbers(cr, &pct, 8, "%.3g%%");
	rpt_frame(cr, &p);
	rpt_legend(cr, 3, names, colors, dashed);
	rpt_set_rgb(cr, RPT_INK);
	rpt_text_at(cr, (p.x0 + p.x1) / 2, CH - 20, 0.5, 0, 12, false, "return per trade");
	rpt_y_label(cr, &p, "trades");
}

void rpt_draw_returns(cairo_t *cr, const struct rpt_returns *r, const char *why_missing)
{
	char sub[96];
	rpt_prep(cr);
	snprintf(sub, sizeof sub, "%zu closed trades; costs move the whole distribution left", r ? r->n : 0);
	rpt_title(cr, "Distribution of trade returns", sub);
	if (r && r->n > 0)
		draw_returns(cr, r);
	else
		rpt_empty_note(cr, why_missing && why_missing[0] ? why_missing : "no closed trades");
}

int rpt_chart_returns(const char *path, const struct rpt_returns *r, const char *why_missing,
		     char *err, size_t errlen)
{
	cairo_surface_t *sf;
	cairo_t *cr = rpt_canvas(&sf);
	rpt_draw_returns(cr, r, why_missing);
	return rpt_finish(cr, sf, path, err, errlen);
}

/* The points of the costs chart: multiple, Sharpe ratio, PSR and the net return's label. */
struct cost_points {
	double m[64], s[64], q[64];
	char net[64][40];
	size_t n;
};

/* Reads the rows whose multiple and Sharpe ratio are finite into pts; returns how many. */
static size_t cost_points(const cJSON *sens, struct cost_points *pts)
{
	const cJSON *it;

	pts->n = 0;
	cJSON_ArrayForEach(it, sens) {
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(it, "multiple");
		const cJSON *b = cJSON_GetObjectItemCaseSensitive(it, "sharpe");
		const cJSON *c = cJSON_GetObjectItemCaseSensitive(it, "psr");
		size_t n = pts->n;
		if (n < 64 && cJSON_IsNumber(a) && cJSON_IsNumber(b) && isfinite(a->valuedouble) &&
		    isfinite(b->valuedouble)) {
			pts->m[n] = a->valuedouble;
			pts->s[n] = b->valuedouble;
			pts->q[n] = cJSON_IsNumber(c) && isfinite(c->valuedouble) ? c->valuedouble : NAN;
			/* the table's figure, printed by the same formatter */
			rpt_fmt_row_net(it, pts->net[n], sizeof pts->net[n]);
			pts->n++;
		}
	}
	return pts->n;
}

/* The break-even multiple as a dashed red line, or an arrow at the right edge when it lies
 * beyond the drawn multiples. */
static void mark_breakeven(cairo_t *cr, const struct rpt_panel *p, double be)
{
	double dash[] = { 2, 3 }, x = rpt_px_x(p, be);
	char lab[64], m[32];

	if (!isfinite(be) || be < p->xmin)
		return;
	rpt_fmt_multiple(be, m, sizeof m);
	snprintf(lab, sizeof lab, be <= p->xmax ? "break-even %s" : "break-even %s ->", m);
	rpt_set_rgb(cr, RPT_DD);
	if (be <= p->xmax) {
		cairo_set_line_width(cr, 1.6);
		cairo_set_dash(cr, dash, 2, 0);
		cairo_move_to(cr, x, p->y0);
		cairo_line_to(cr, x, p->y1);
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0);
		rpt_text_at(cr, x - 4, p->y0 + 8, 1, 0, 12, true, lab);
	} else {
		rpt_text_at(cr, p->x1 - 6, p->y0 + 8, 1, 0, 12, true, lab);
	}
}

static void draw_costs(cairo_t *cr, const struct cost_points *pts, double breakeven)
{
	struct rpt_panel p = { 78, 80, CW - 70, CH - 52, DBL_MAX, -DBL_MAX, 0, 0 };
	static const char *const names[] = { "Sharpe ratio per trade (left)", "PSR (right, 0 to 1)",
					     "costs as configured", "net return (label)" };
	static const struct rpt_rgb colors[] = { { 0.10, 0.30, 0.65 }, { 0.85, 0.50, 0.10 },
					     { 0.55, 0.57, 0.60 }, { 0.15, 0.16, 0.18 } };
	static const int dashed[] = { L_LINE, L_DASH, L_DASH, L_BOX };
	const double *m = pts->m, *s = pts->s, *q = pts->q;
	size_t n = pts->n;

	for (size_t i = 0; i < n; i++) {
		p.xmin = fmin(p.xmin, m[i]);
		p.xmax = fmax(p.xmax, m[i]);
		p.ymin = fmin(p.ymin, s[i]);
		p.ymax = fmax(p.ymax, s[i]);
	}
	/* a break-even within twice the drawn multiples is shown in place, further ones by an arrow */
	if (isfinite(breakeven) && breakeven > p.xmax && breakeven <= 2 * p.xmax)
		p.xmax = breakeven;
	p.ymax += 0.12 * (p.ymax - p.ymin);  /* room for the labels above the points */
	rpt_nice_range(&p.xmin, &p.xmax, 6);
	rpt_nice_range(&p.ymin, &p.ymax, 5);
	struct rpt_panel r = p;
	r.ymin = 0;
	r.ymax = 1;
	rpt_y_axis(cr, &p, 5, 1, "%.3g", false);
	rpt_y_axis(cr, &r, 5, 1, "%.1f", true);
	rpt_x_axis_numbers(cr, &p, 6, "%.3gx");
	double dash[] = { 5, 3 };
	cairo_set_dash(cr, dash, 2, 0);
	cairo_set_line_width(cr, 1);
	rpt_set_rgb(cr, colors[2]);
	cairo_move_to(cr, rpt_px_x(&p, 1), p.y0);
	cairo_line_to(cr, rpt_px_x(&p, 1), p.y1);
	cairo_stroke(cr);
	if (p.ymin < 0 && p.ymax > 0) {
		rpt_set_rgb(cr, RPT_INK);
		cairo_move_to(cr, p.x0, rpt_px_y(&p, 0));
		cairo_line_to(cr, p.x1, rpt_px_y(&p, 0));
		cairo_stroke(cr);
	}
	rpt_set_rgb(cr, RPT_PSR);
	cairo_set_line_width(cr, 2);
	for (size_t i = 0, k = 0; i < n; i++) {
		if (isnan(q[i]))
			continue;
		if (k++ == 0)
			cairo_move_to(cr, rpt_px_x(&r, m[i]), rpt_px_y(&r, fmin(1, fmax(0, q[i]))));
		else
			cairo_line_to(cr, rpt_px_x(&r, m[i]), rpt_px_y(&r, fmin(1, fmax(0, q[i]))));
	}
	cairo_stroke(cr);
	cairo_set_dash(cr, NULL, 0, 0);
	rpt_set_rgb(cr, RPT_NET);
	cairo_set_line_width(cr, 2.2);
	for (size_t i = 0; i < n; i++)
		(i ? cairo_line_to : cairo_move_to)(cr, rpt_px_x(&p, m[i]), rpt_px_y(&p, s[i]));
	cairo_stroke(cr);
	for (size_t i = 0; i < n; i++) {
		rpt_set_rgb(cr, RPT_NET);
		cairo_arc(cr, rpt_px_x(&p, m[i]), rpt_px_y(&p, s[i]), 4, 0, 2 * M_PI);
		cairo_fill(cr);
		/* a label at an edge of the panel runs inwards, not over the frame */
		double ax = m[i] <= p.xmin ? 0.0 : m[i] >= p.xmax ? 1.0 : 0.5;
		rpt_set_rgb(cr, RPT_INK);
		rpt_text_at(cr, rpt_px_x(&p, m[i]) + (ax == 0.0 ? 4 : ax == 1.0 ? -4 : 0),
			    rpt_px_y(&p, s[i]) - 10, ax, 1, 11, false, pts->net[i]);
	}
	mark_breakeven(cr, &p, breakeven);
	rpt_frame(cr, &p);
	rpt_legend(cr, 4, names, colors, dashed);
	rpt_set_rgb(cr, RPT_INK);
	rpt_text_at(cr, (p.x0 + p.x1) / 2, CH - 20, 0.5, 0, 12, false, "cost multiple (1x = fees, slippage, funding and borrow as configured)");
}

void rpt_draw_costs(cairo_t *cr, const cJSON *sens, double breakeven)
{
	struct cost_points pts;
	size_t n = cJSON_IsArray(sens) ? cost_points(sens, &pts) : 0;
	char sub[160], m[32];

	rpt_prep(cr);
	if (isfinite(breakeven))
		snprintf(sub, sizeof sub, "how the edge survives when every cost is scaled; the "
			 "compounded net return is zero at %s the configured costs",
			 rpt_fmt_multiple(breakeven, m, sizeof m));
	else
		snprintf(sub, sizeof sub, "how the edge survives when every cost is scaled");
	rpt_title(cr, "Cost sensitivity", sub);
	if (n >= 2)
		draw_costs(cr, &pts, breakeven);
	else
		rpt_empty_note(cr, sens ? "fewer than two cost points in stats.json" : "stats.json has no cost sensitivity");
}

int rpt_chart_costs(const char *path, const cJSON *sens, double breakeven, char *err, size_t errlen)
{
	cairo_surface_t *sf;
	cairo_t *cr = rpt_canvas(&sf);
	rpt_draw_costs(cr, sens, breakeven);
	return rpt_finish(cr, sf, path, err, errlen);
}

/* Shades each run of equal, non-flat signals (px->n of them). */
static void shade_positions(cairo_t *cr, const struct rpt_panel *p, const struct da_ohlcv *px,
			    const int8_t *sig)
{
	size_t n = px->n;
	double half = n > 1 ? (double)(px->t[n - 1] - px->t[0]) / (double)(n - 1) / 2 : 0;

	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && sig[j + 1] == sig[i])
			j++;
		if (sig[i] != 0) {
			double x0 = fmax(p->x0, rpt_px_x(p, (double)px->t[i] - half));
			double x1 = fmin(p->x1, rpt_px_x(p, (double)px->t[j] + half));
			rpt_set_rgb(cr, sig[i] > 0 ? RPT_LONG : RPT_SHORT);
			cairo_rectangle(cr, x0, p->y0, x1 - x0, p->y1 - p->y0);
			cairo_fill(cr);
		}
		i = j + 1;
	}
}

static void mark_mismatches(cairo_t *cr, const struct rpt_panel *p, const struct da_ohlcv *px,
			    const cJSON *mismatches)
{
	const cJSON *it;
	cJSON_ArrayForEach(it, mismatches) {
		const cJSON *bar = cJSON_GetObjectItemCaseSensitive(it, "bar");
		if (!cJSON_IsNumber(bar) || bar->valuedouble < 0 || bar->valuedouble >= (double)px->n)
			continue;
		size_t i = (size_t)bar->valuedouble;
		double x = rpt_px_x(p, (double)px->t[i]), y = rpt_px_y(p, px->close[i]);
		rpt_set_rgb(cr, RPT_DD);
		cairo_set_line_width(cr, 1.2);
		cairo_move_to(cr, x, p->y0);
		cairo_line_to(cr, x, p->y1);
		cairo_stroke(cr);
		cairo_move_to(cr, x, y - 4);
		cairo_line_to(cr, x - 7, y - 16);
		cairo_line_to(cr, x + 7, y - 16);
		cairo_close_path(cr);
		cairo_fill(cr);
	}
}

static void draw_signals(cairo_t *cr, const struct da_ohlcv *px, const int8_t *sig,
			 const cJSON *mismatches)
{
	struct rpt_panel p = { 78, 80, CW - 24, CH - 52, (double)px->t[0], (double)px->t[px->n - 1], DBL_MAX, -DBL_MAX };
	static const char *const names[] = { "close price", "long", "short", "look-ahead mismatch" };
	static const struct rpt_rgb colors[] = { { 0.15, 0.16, 0.18 }, { 0.80, 0.93, 0.82 }, { 0.98, 0.84, 0.84 },
					     { 0.80, 0.20, 0.18 } };
	static const int styles[] = { L_LINE, L_BOX, L_BOX, L_LINE };
	for (size_t i = 0; i < px->n; i++) {
		p.ymin = fmin(p.ymin, px->close[i]);
		p.ymax = fmax(p.ymax, px->close[i]);
	}
	rpt_nice_range(&p.ymin, &p.ymax, 5);
	if (sig)
		shade_positions(cr, &p, px, sig);
	rpt_y_axis(cr, &p, 5, 1, "%.6g", false);
	rpt_x_axis_dates(cr, &p, true);
	rpt_set_rgb(cr, RPT_INK);
	cairo_set_line_width(cr, 1.2);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	rpt_polyline(cr, &p, px->n, px->t, px->close);
	cairo_stroke(cr);
	if (cJSON_IsArray(mismatches))
		mark_mismatches(cr, &p, px, mismatches);
	rpt_frame(cr, &p);
	rpt_legend(cr, 4, names, colors, styles);
	rpt_y_label(cr, &p, "close");
}

void rpt_draw_signals(cairo_t *cr, const struct da_ohlcv *px, const int8_t *sig,
		      const char *why_no_signals, const cJSON *mismatches, const char *why_missing)
{
	char sub[200];

	rpt_prep(cr);
	if (sig)
		snprintf(sub, sizeof sub, "%zu signals from the full-history run; red marks where a truncated run disagreed",
			 px->n);
	else
		snprintf(sub, sizeof sub, "no positions drawn: %.150s", why_no_signals);
	rpt_title(cr, "Signals against price", sub);
	if (px && px->n >= 2)
		draw_signals(cr, px, sig, mismatches);
	else
		rpt_empty_note(cr, why_missing);
}

int rpt_chart_signals(const char *path, const struct da_ohlcv *px, const int8_t *sig,
		     const char *why_no_signals, const cJSON *mismatches, const char *why_missing,
		     char *err, size_t errlen)
{
	cairo_surface_t *sf;
	cairo_t *cr = rpt_canvas(&sf);
	rpt_draw_signals(cr, px, sig, why_no_signals, mismatches, why_missing);
	return rpt_finish(cr, sf, path, err, errlen);
}
