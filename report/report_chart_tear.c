/* report_chart_tear.c - the tearsheet's charts: underwater, rolling Sharpe, delay, the
 * reconciliation of a claimed log and the live decisions against the backtest. */
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

/* The time of an episode's field ("start", "end") as epoch seconds, or def. */
static double episode_time(const cJSON *ep, const char *key, double def)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(ep, key);
	int64_t t;

	return cJSON_IsString(v) && sa_time_parse(v->valuestring, &t) == 0 ? (double)t : def;
}

/* Shades and numbers the episodes (stats.json's drawdowns, deepest first). */
static void shade_episodes(cairo_t *cr, const struct rpt_panel *p, const cJSON *episodes)
{
	const cJSON *ep;
	int k = 0;
	char lab[16];

	cJSON_ArrayForEach(ep, episodes) {
		double a = episode_time(ep, "start", p->xmin), b = episode_time(ep, "end", p->xmax);
		double x0 = rpt_px_x(p, fmax(a, p->xmin)), x1 = rpt_px_x(p, fmin(b, p->xmax));
		cairo_set_source_rgba(cr, RPT_PSR.r, RPT_PSR.g, RPT_PSR.b, 0.16);
		cairo_rectangle(cr, x0, p->y0, fmax(1, x1 - x0), p->y1 - p->y0);
		cairo_fill(cr);
		snprintf(lab, sizeof lab, "%d", ++k);
		rpt_set_rgb(cr, RPT_INK);
		rpt_text_at(cr, (x0 + x1) / 2, p->y0 + 6, 0.5, 0, 11, true, lab);
	}
}

static void draw_underwater(cairo_t *cr, const struct rpt_series *eq, const cJSON *episodes)
{
	struct rpt_panel p = { 78, 80, CW - 24, CH - 52, (double)eq->t[0], (double)eq->t[eq->n - 1], 0, 0 };
	double *uw = malloc(eq->n * sizeof *uw), peak = 1.0;
	static const char *const names[] = { "net drawdown from the running peak",
					     "the five deepest episodes, numbered deepest first" };
	static const struct rpt_rgb colors[] = { { 0.80, 0.20, 0.18 }, { 0.96, 0.86, 0.74 } };
	static const int styles[] = { L_BOX, L_BOX };

	if (!uw)
		return;
	if (p.xmax <= p.xmin)
		p.xmax = p.xmin + 3600;
	for (size_t i = 0; i < eq->n; i++) {
		peak = fmax(peak, eq->net[i]);
		uw[i] = peak > 0 ? eq->net[i] / peak - 1 : 0;
		p.ymin = fmin(p.ymin, uw[i]);
	}
	rpt_nice_range(&p.ymin, &p.ymax, 5);
	p.ymax = 0;
	shade_episodes(cr, &p, episodes);
	rpt_y_axis(cr, &p, 5, 100, "%.1f%%", false);
	rpt_x_axis_dates(cr, &p, true);
	cairo_move_to(cr, rpt_px_x(&p, p.xmin), rpt_px_y(&p, 0));
	for (size_t i = 0; i < eq->n; i++)
		cairo_line_to(cr, rpt_px_x(&p, (double)eq->t[i]), rpt_px_y(&p, uw[i]));
	cairo_line_to(cr, rpt_px_x(&p, p.xmax), rpt_px_y(&p, 0));
	cairo_close_path(cr);
	cairo_set_source_rgba(cr, RPT_DD.r, RPT_DD.g, RPT_DD.b, 0.55);
	cairo_fill(cr);
	rpt_frame(cr, &p);
	rpt_legend(cr, 2, names, colors, styles);
	rpt_y_label(cr, &p, "below the peak");
	free(uw);
}

void rpt_draw_underwater(cairo_t *cr, const struct rpt_series *eq, const cJSON *episodes,
			 const char *why_missing)
{
	rpt_prep(cr);
	rpt_title(cr, "Underwater: how far below its best the net equity was",
	      "time in UTC; each shaded band runs from a peak to the bar equity first got back to it");
	if (eq && eq->n >= 2)
		draw_underwater(cr, eq, episodes);
	else
		rpt_empty_note(cr, eq && eq->n ? "fewer than two equity points" : why_missing);
}

int rpt_chart_underwater(const char *path, const struct rpt_series *eq, const cJSON *episodes,
			 const char *why_missing, char *err, size_t errlen)
{
	cairo_surface_t *sf;
	cairo_t *cr = rpt_canvas(&sf);
	rpt_draw_underwater(cr, eq, episodes, why_missing);
	return rpt_finish(cr, sf, path, err, errlen);
}

/* A rolling figure against time, with the whole period's as a dashed line; names[0] is the
 * line's legend, names[1] the dashed one's. */
static void draw_rolling(cairo_t *cr, const int64_t *t, const double *v, size_t n, double headline,
			 const char *const *names, const char *y_label)
{
	struct rpt_panel p = { 78, 80, CW - 24, CH - 52, (double)t[0], (double)t[n - 1], DBL_MAX, -DBL_MAX };
	static const struct rpt_rgb colors[] = { { 0.10, 0.30, 0.65 }, { 0.55, 0.57, 0.60 } };
	static const int styles[] = { L_LINE, L_DASH };
	double dash[] = { 5, 3 };
	bool pen = false;

	for (size_t i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			continue;
		p.ymin = fmin(p.ymin, v[i]);
		p.ymax = fmax(p.ymax, v[i]);
	}
	if (isfinite(headline)) {
		p.ymin = fmin(p.ymin, headline);
		p.ymax = fmax(p.ymax, headline);
	}
	p.ymin = fmin(p.ymin, 0);
	p.ymax = fmax(p.ymax, 0);
	if (p.xmax <= p.xmin)
		p.xmax = p.xmin + 3600;
	rpt_nice_range(&p.ymin, &p.ymax, 5);
	rpt_y_axis(cr, &p, 5, 1, "%.3g", false);
	rpt_x_axis_dates(cr, &p, true);
	rpt_set_rgb(cr, RPT_INK);
	cairo_set_line_width(cr, 1);
	cairo_move_to(cr, p.x0, rpt_px_y(&p, 0));
	cairo_line_to(cr, p.x1, rpt_px_y(&p, 0));
	cairo_stroke(cr);
	if (isfinite(headline)) {
		rpt_set_rgb(cr, colors[1]);
		cairo_set_dash(cr, dash, 2, 0);
		cairo_move_to(cr, p.x0, rpt_px_y(&p, headline));
		cairo_line_to(cr, p.x1, rpt_px_y(&p, headline));
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0);
	}
	rpt_set_rgb(cr, RPT_NET);
	cairo_set_line_width(cr, 1.6);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(v[i])) {
			pen = false;
			continue;
		}
		(pen ? cairo_line_to : cairo_move_to)(cr, rpt_px_x(&p, (double)t[i]), rpt_px_y(&p, v[i]));
		pen = true;
	}
	cairo_stroke(cr);
	rpt_frame(cr, &p);
	rpt_legend(cr, 2, names, colors, styles);
	rpt_y_label(cr, &p, y_label);
}

/* A rolling figure's chart: the series against the whole period's figure, or why there is none. */
static void rolling_chart(cairo_t *cr, const int64_t *t, const double *v, size_t n, double headline,
			  const char *title, const char *sub, const char *const names[2], const char *y_label,
			  const char *why_missing)
{
	size_t defined = 0;

	rpt_prep(cr);
	rpt_title(cr, title, sub);
	for (size_t i = 0; v && i < n; i++)
		defined += isfinite(v[i]) != 0;
	if (v && n >= 2 && defined)
		draw_rolling(cr, t, v, n, headline, names, y_label);
	else
		rpt_empty_note(cr, why_missing && why_missing[0] ? why_missing : "no full window of equity");
}

void rpt_draw_rolling(cairo_t *cr, const int64_t *t, const double *v, size_t n, size_t window,
		      double headline, const char *why_missing)
{
	static const char *const names[] = { "rolling Sharpe ratio (annualised)", "the whole period's" };
	char sub[160];

	snprintf(sub, sizeof sub, "per-bar returns of compounded net equity over the last %zu bars, "
		 "times sqrt(bars per year); time in UTC", window);
	rolling_chart(cr, t, v, n, headline, "Rolling Sharpe ratio", sub, names, "Sharpe ratio", why_missing);
}

void rpt_draw_rolling_vol(cairo_t *cr, const int64_t *t, const double *v, size_t n, size_t window,
			  double headline, const char *why_missing)
{
	static const char *const names[] = { "rolling volatility (annualised)", "the whole period's" };
	char sub[160];

	snprintf(sub, sizeof sub, "standard deviation of per-bar returns of compounded net equity over "
		 "the last %zu bars, times sqrt(bars per year); UTC", window);
	rolling_chart(cr, t, v, n, headline, "Rolling volatility", sub, names, "volatility", why_missing);
}

int rpt_chart_rolling_vol(const char *path, const int64_t *t, const double *v, size_t n,
			  size_t window, double headline, const char *why_missing, char *err,
			  size_t errlen)
{
	cairo_surface_t *sf;
	cairo_t *cr = rpt_canvas(&sf);
	rpt_draw_rolling_vol(cr, t, v, n, window, headline, why_missing);
	return rpt_finish(cr, sf, path, err, errlen);
}

int rpt_chart_rolling(const char *path, const int64_t *t, const double *v, size_t n, size_t window,
		      double headline, const char *why_missing, char *err, size_t errlen)
{
	cairo_surface_t *sf;
	cairo_t *cr = rpt_canvas(&sf);
	rpt_draw_rolling(cr, t, v, n, window, headline, why_missing);
	return rpt_finish(cr, sf, path, err, errlen);
}

/* The (delay_bars, sharpe, net return's label) of the rows whose figures are finite; returns
 * how many. The label is the table's figure, printed by the same formatter. */
static size_t delay_points(const cJSON *rows, double *d, double *s, char (*r)[40], size_t cap)
{
	const cJSON *it;
	size_t n = 0;

	cJSON_ArrayForEach(it, rows) {
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(it, "delay_bars");
		const cJSON *b = cJSON_GetObjectItemCaseSensitive(it, "sharpe");
		const cJSON *c = cJSON_GetObjectItemCaseSensitive(it, "net_return");
		if (n < cap && cJSON_IsNumber(a) && cJSON_IsNumber(b) && cJSON_IsNumber(c)) {
			d[n] = a->valuedouble;
			s[n] = b->valuedouble;
			rpt_fmt_row_net(it, r[n], sizeof r[n]);
			n++;
		}
	}
	return n;
}

static void draw_delay(cairo_t *cr, const double *d, const double *s, char (*r)[40], size_t n)
{
	struct rpt_panel p = { 78, 80, CW - 70, CH - 52, 0, 0, DBL_MAX, -DBL_MAX };
	static const char *const names[] = { "Sharpe ratio per trade", "net return, compounded (label)" };
	static const struct rpt_rgb colors[] = { { 0.10, 0.30, 0.65 }, { 0.15, 0.16, 0.18 } };
	static const int styles[] = { L_LINE, L_BOX };
	char lab[32];

	p.xmin = d[0];
	p.xmax = d[n - 1];
	for (size_t i = 0; i < n; i++) {
		p.ymin = fmin(p.ymin, fmin(s[i], 0));
		p.ymax = fmax(p.ymax, s[i]);
	}
	p.xmin -= 0.5;
	p.xmax += 0.5;
	p.ymax += 0.12 * (p.ymax - p.ymin);  /* room for the labels above the points */
	rpt_nice_range(&p.ymin, &p.ymax, 5);
	rpt_y_axis(cr, &p, 5, 1, "%.3g", false);
	rpt_set_rgb(cr, RPT_INK);
	for (size_t i = 0; i < n; i++) {
		snprintf(lab, sizeof lab, "t+%.0f", d[i]);
		rpt_text_at(cr, rpt_px_x(&p, d[i]), p.y1 + 8, 0.5, 0, 11, false, lab);
	}
	cairo_set_line_width(cr, 1);
	cairo_move_to(cr, p.x0, rpt_px_y(&p, 0));
	cairo_line_to(cr, p.x1, rpt_px_y(&p, 0));
	cairo_stroke(cr);
	rpt_set_rgb(cr, RPT_NET);
	cairo_set_line_width(cr, 2.2);
	for (size_t i = 0; i < n; i++)
		(i ? cairo_line_to : cairo_move_to)(cr, rpt_px_x(&p, d[i]), rpt_px_y(&p, s[i]));
	cairo_stroke(cr);
	for (size_t i = 0; i < n; i++) {
		rpt_set_rgb(cr, RPT_NET);
		cairo_arc(cr, rpt_px_x(&p, d[i]), rpt_px_y(&p, s[i]), 4, 0, 2 * M_PI);
		cairo_fill(cr);
		rpt_set_rgb(cr, RPT_INK);
		rpt_text_at(cr, rpt_px_x(&p, d[i]), rpt_px_y(&p, s[i]) - 10, 0.5, 1, 11, false, r[i]);
	}
	rpt_frame(cr, &p);
	rpt_legend(cr, 2, names, colors, styles);
	rpt_text_at(cr, (p.x0 + p.x1) / 2, CH - 20, 0.5, 0, 12, false,
		"fill at the open of bar t+k after the signal at bar t's close (t+1 is the audit's own)");
}

void rpt_draw_delay(cairo_t *cr, const cJSON *rows, const char *why_missing)
{
	double d[16], s[16];
	char r[16][40];
	size_t n = cJSON_IsArray(rows) ? delay_points(rows, d, s, r, 16) : 0;

	rpt_prep(cr);
	rpt_title(cr, "Late fills", "the same signals filled one to four bars later, with the same costs, each a replay");
	if (n >= 2)
		draw_delay(cr, d, s, r, n);
	else
		rpt_empty_note(cr, why_missing && why_missing[0] ? why_missing : "stats.json has no delay sensitivity");
}

int rpt_chart_delay(const char *path, const cJSON *rows, const char *why_missing, char *err,
		    size_t errlen)
{
	cairo_surface_t *sf;
	cairo_t *cr = rpt_canvas(&sf);
	rpt_draw_delay(cr, rows, why_missing);
	return rpt_finish(cr, sf, path, err, errlen);
}

/* Two net equity curves on one time axis, a dashed (names[0]) and a solid one (names[1]). */
static void draw_two(cairo_t *cr, const struct rpt_series *a, const struct rpt_series *b,
		     const char *const names[2])
{
	struct rpt_panel p = { 78, 80, CW - 24, CH - 34, DBL_MAX, -DBL_MAX, DBL_MAX, -DBL_MAX };
	static const struct rpt_rgb colors[] = { { 0.80, 0.20, 0.18 }, { 0.10, 0.30, 0.65 } };
	static const int dashed[] = { L_DASH, L_LINE };
	const struct rpt_series *s[2] = { a, b };
	double dash[] = { 5, 3 }, pad;

	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < s[k]->n; i++) {
			p.xmin = fmin(p.xmin, (double)s[k]->t[i]);
			p.xmax = fmax(p.xmax, (double)s[k]->t[i]);
			p.ymin = fmin(p.ymin, s[k]->net[i]);
			p.ymax = fmax(p.ymax, s[k]->net[i]);
		}
	if (p.xmax <= p.xmin)
		p.xmax = p.xmin + 3600;
	/* a margin, so a line along the lowest or highest value is not hidden in the frame */
	pad = 0.02 * (p.ymax - p.ymin);
	p.ymin -= pad;
	p.ymax += pad;
	rpt_nice_range(&p.ymin, &p.ymax, 5);
	rpt_y_axis(cr, &p, 5, 1, "%.2f", false);
	rpt_x_axis_dates(cr, &p, true);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	for (int k = 0; k < 2; k++) {
		rpt_set_rgb(cr, colors[k]);
		cairo_set_line_width(cr, 1.8);
		cairo_set_dash(cr, dashed[k] == L_DASH ? dash : NULL, dashed[k] == L_DASH ? 2 : 0, 0);
		rpt_polyline(cr, &p, s[k]->n, s[k]->t, s[k]->net);
		cairo_stroke(cr);
	}
	cairo_set_dash(cr, NULL, 0, 0);
	rpt_frame(cr, &p);
	rpt_legend(cr, 2, names, colors, dashed);
}

int rpt_chart_reconcile(const char *path, const struct rpt_series *claimed,
			const struct rpt_series *replayed, char *err, size_t errlen)
{
	static const char *const names[] = { "claimed by the trade log", "replayed from the code" };
	cairo_surface_t *sf;
	cairo_t *cr = rpt_canvas(&sf);

	rpt_title(cr, "The log against the code: net equity, compounded",
	      "the log's claimed returns and the code's replay, each applied to the equity at entry");
	if (claimed->n >= 2 || replayed->n >= 2)
		draw_two(cr, claimed, replayed, names);
	else
		rpt_empty_note(cr, "no trades on either side");
	return rpt_finish(cr, sf, path, err, errlen);
}

void rpt_draw_live(cairo_t *cr, const struct rpt_series *backtest, const struct rpt_series *live,
		   const char *why_missing)
{
	static const char *const names[] = { "what the backtest claimed", "what it would have done live" };

	rpt_prep(cr);
	rpt_title(cr, "Live against the backtest: net equity, compounded",
		  "the same costs and rules; live, each bar decided with only the bars up to it");
	if (why_missing && why_missing[0])
		rpt_empty_note(cr, why_missing);
	else if (backtest->n >= 2 && live->n >= 2)
		draw_two(cr, backtest, live, names);
	else
		rpt_empty_note(cr, "fewer than two equity rows to draw");
}

int rpt_chart_live(const char *path, const struct rpt_series *backtest, const struct rpt_series *live,
		   const char *why_missing, char *err, size_t errlen)
{
	cairo_surface_t *sf;
	cairo_t *cr = rpt_canvas(&sf);

	rpt_draw_live(cr, backtest, live, why_missing);
	return rpt_finish(cr, sf, path, err, errlen);
}
