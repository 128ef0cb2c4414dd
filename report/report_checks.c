/* report_checks.c - SPA, walk-forward selection and the Monte Carlo of the trades in the report:
 * the sentences from stats.json, the charts drawn from the stats stage's walkforward.csv and
 * montecarlo_fan.csv. */
#include "report_checks.h"

#include <cairo.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonio.h"
#include "msg.h"
#include "report_chart.h"
#include "report_fmt.h"
#include "report_plot.h"

static const cJSON *get(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* The panel's y range widened to hold v[0..n). */
static void widen(struct rpt_panel *p, const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i])) {
			p->ymin = fmin(p->ymin, v[i]);
			p->ymax = fmax(p->ymax, v[i]);
		}
}

/* A line through (x[i], y[i]). */
static void line(cairo_t *cr, const struct rpt_panel *p, const double *x, const double *y, size_t n,
		 struct rpt_rgb c, double width)
{
	rpt_set_rgb(cr, c);
	cairo_set_line_width(cr, width);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	for (size_t i = 0; i < n; i++)
		(i ? cairo_line_to : cairo_move_to)(cr, rpt_px_x(p, x[i]), rpt_px_y(p, y[i]));
	cairo_stroke(cr);
}

/* --- walk-forward ------------------------------------------------------------------------- */

struct wf_chart {
	double *x, *oos, *hind;   /* n points: bar number, the two equity curves */
	size_t n;
	int windows;
	double *start;            /* windows bars: where each stretch begins */
};

/* The first bar of each stretch after the first, from walkforward.csv's window column (the
 * bar after the last when a stretch holds none). */
static void wf_starts(struct wf_chart *c, const double *win)
{
	for (int w = 0; w < c->windows; w++) {
		c->start[w] = c->x[c->n - 1] + 1;
		for (size_t i = 0; i < c->n; i++)
			if (win[i] >= w) {
				c->start[w] = c->x[i];
				break;
			}
	}
}

/* Reads the walk-forward's curves from walkforward.csv (the stats stage's). Returns 0, or -1
 * with why. */
static int wf_load(const struct rpt_input *in, struct wf_chart *c, char *why, size_t len)
{
	const cJSON *stats = rpt_stage_ok(in, RPT_STATS), *wf = get(stats, "walk_forward");
	const struct rpt_table *tb = &in->curve[RPT_WALKFORWARD];
	double *win = NULL;
	int rc = -1;

	if (!cJSON_IsObject(wf)) {
		sa_fmt(why, len, "%s", sa_json_str(stats, "walk_forward_reason", "no walk-forward"));
		return -1;
	}
	c->n = tb->rows ? tb->rows - 1 : 0;
	c->windows = (int)fmax(0, fmin(sa_json_num(wf, "windows", 0), (double)c->n));
	if (c->n < 2) {
		sa_fmt(why, len, "walkforward.csv %s", in->curve_reason[RPT_WALKFORWARD][0] ?
		       in->curve_reason[RPT_WALKFORWARD] : "holds no curve");
		return -1;
	}
	c->x = malloc(c->n * sizeof *c->x);
	c->oos = malloc(c->n * sizeof *c->oos);
	c->hind = malloc(c->n * sizeof *c->hind);
	c->start = malloc((c->windows ? c->windows : 1) * sizeof *c->start);
	win = malloc(c->n * sizeof *win);
	if (!c->x || !c->oos || !c->hind || !c->start || !win)
		sa_fmt(why, len, "out of memory");
	else if (rpt_table_nums(tb, "bar", c->x, why, len) == 0 &&
		 rpt_table_nums(tb, "window", win, why, len) == 0 &&
		 rpt_table_nums(tb, "oos_equity", c->oos, why, len) == 0 &&
		 rpt_table_nums(tb, "hindsight_equity", c->hind, why, len) == 0) {
		wf_starts(c, win);
		rc = 0;
	}
	free(win);
	return rc;
}

static void draw_wf(cairo_t *cr, const struct wf_chart *c)
{
	struct rpt_panel p = { 78, 80, CW - 24, CH - 52, c->x[0], c->x[c->n - 1] + 1, 1, 1 };
	static const char *const names[] = { "walk-forward: chosen before each stretch",
					     "the best variant in hindsight" };
	static const struct rpt_rgb colors[] = { { 0.10, 0.30, 0.65 }, { 0.80, 0.45, 0.15 } };
	static const int styles[] = { L_LINE, L_LINE };

	widen(&p, c->oos, c->n);
	widen(&p, c->hind, c->n);
	rpt_nice_range(&p.ymin, &p.ymax, 5);
	rpt_y_axis(cr, &p, 5, 1, "%.3g", false);
	rpt_x_axis_numbers(cr, &p, 8, "%.0f");
	rpt_set_rgb(cr, RPT_GRID);
	cairo_set_line_width(cr, 1);
	for (int w = 1; w < c->windows; w++) {
		cairo_move_to(cr, rpt_px_x(&p, c->start[w]), p.y0);
		cairo_line_to(cr, rpt_px_x(&p, c->start[w]), p.y1);
	}
	cairo_stroke(cr);
	line(cr, &p, c->x, c->hind, c->n, colors[1], 1.4);
	line(cr, &p, c->x, c->oos, c->n, colors[0], 1.8);
	rpt_frame(cr, &p);
	rpt_legend(cr, 2, names, colors, styles);
	rpt_set_rgb(cr, RPT_INK);
	rpt_text_at(cr, (p.x0 + p.x1) / 2, CH - 20, 0.5, 0, 12, false,
		    "bar (grey lines: where a new choice is made)");
	rpt_y_label(cr, &p, "net equity, from 1");
}

static int chart_wf(const char *dir, const struct rpt_input *in, char *err, size_t errlen)
{
	struct wf_chart c = { 0 };
	char path[4096], why[512] = "";
	cairo_surface_t *sf;
	cairo_t *cr = rpt_canvas(&sf);
	int rc;

	rpt_prep(cr);
	rpt_title(cr, "Walk-forward selection",
		  "the variant with the best Sharpe ratio on every bar so far, traded on the next stretch");
	if (wf_load(in, &c, why, sizeof why) == 0)
		draw_wf(cr, &c);
	else
		rpt_empty_note(cr, why);
	rc = rpt_finish(cr, sf, sa_fmt(path, sizeof path, "%s/walkforward.png", dir), err, errlen);
	free(c.x);
	free(c.oos);
	free(c.hind);
	free(c.start);
	return rc;
}

/* --- Monte Carlo ------------------------------------------------------------------------- */

/* The fan of montecarlo_fan.csv: pts points, at trade x[i], the 5th, 25th, 50th, 75th and
 * 95th percentiles in fan[i * 5 ..]. */
struct fan {
	size_t pts;
	double *x, *q;
};

static void draw_band(cairo_t *cr, const struct rpt_panel *p, const struct fan *f, int lo, int hi,
		      struct rpt_rgb c)
{
	rpt_set_rgb(cr, c);
	for (size_t i = 0; i < f->pts; i++)
		(i ? cairo_line_to : cairo_move_to)(cr, rpt_px_x(p, f->x[i]), rpt_px_y(p, f->q[i * 5 + lo]));
	for (size_t i = f->pts; i-- > 0;)
		cairo_line_to(cr, rpt_px_x(p, f->x[i]), rpt_px_y(p, f->q[i * 5 + hi]));
	cairo_close_path(cr);
	cairo_fill(cr);
}

static void draw_mc(cairo_t *cr, const double *r, size_t n, const struct fan *f)
{
	struct rpt_panel p = { 78, 80, CW - 24, CH - 52, 0, (double)n, 1, 1 };
	static const char *const names[] = { "5th to 95th percentile", "25th to 75th", "median",
					     "the trades in their real order" };
	static const struct rpt_rgb colors[] = { { 0.80, 0.86, 0.94 }, { 0.58, 0.70, 0.87 },
					     { 0.10, 0.30, 0.65 }, { 0.80, 0.20, 0.18 } };
	static const int styles[] = { L_BOX, L_BOX, L_LINE, L_LINE };
	double *med = malloc(f->pts * sizeof *med), *ox = malloc((n + 1) * sizeof *ox);
	double *oy = malloc((n + 1) * sizeof *oy), e = 1.0;

	for (size_t i = 0; i < f->pts; i++) {
		if (med)
			med[i] = f->q[i * 5 + 2];
		p.ymin = fmin(p.ymin, f->q[i * 5]);
		p.ymax = fmax(p.ymax, f->q[i * 5 + 4]);
	}
	for (size_t i = 0; ox && oy && i <= n; i++) {
		if (i)
			e = e > 0.0 && r[i - 1] > -1.0 ? e * (1.0 + r[i - 1]) : 0.0;
		ox[i] = (double)i;
		oy[i] = e;
	}
	if (ox && oy)
		widen(&p, oy, n + 1);
	rpt_nice_range(&p.ymin, &p.ymax, 5);
	rpt_y_axis(cr, &p, 5, 1, "%.3g", false);
	rpt_x_axis_numbers(cr, &p, 8, "%.0f");
	draw_band(cr, &p, f, 0, 4, colors[0]);
	draw_band(cr, &p, f, 1, 3, colors[1]);
	if (med)
		line(cr, &p, f->x, med, f->pts, colors[2], 1.6);
	if (ox && oy)
		line(cr, &p, ox, oy, n + 1, colors[3], 1.6);
	rpt_frame(cr, &p);
	rpt_legend(cr, 4, names, colors, styles);
	rpt_set_rgb(cr, RPT_INK);
	rpt_text_at(cr, (p.x0 + p.x1) / 2, CH - 20, 0.5, 0, 12, false, "closed trades");
	rpt_y_label(cr, &p, "net equity, compounded from 1");
	free(med);
	free(ox);
	free(oy);
}

/* Reads montecarlo_fan.csv (the stats stage's). Returns 0, or -1 with why. */
static int fan_load(const struct rpt_input *in, struct fan *f, char *why, size_t len)
{
	static const char *const cols[] = { "p5", "p25", "p50", "p75", "p95" };
	const struct rpt_table *tb = &in->curve[RPT_FAN];
	double *v;

	f->pts = tb->rows ? tb->rows - 1 : 0;
	if (f->pts < 2) {
		sa_fmt(why, len, "montecarlo_fan.csv %s", in->curve_reason[RPT_FAN][0] ?
		       in->curve_reason[RPT_FAN] : "holds no fan");
		return -1;
	}
	f->x = malloc(f->pts * sizeof *f->x);
	f->q = malloc(f->pts * 5 * sizeof *f->q);
	v = malloc(f->pts * sizeof *v);
	if (!f->x || !f->q || !v || rpt_table_nums(tb, "trade", f->x, why, len)) {
		free(v);
		return -1;
	}
	for (int q = 0; q < 5; q++) {
		if (rpt_table_nums(tb, cols[q], v, why, len)) {
			free(v);
			return -1;
		}
		for (size_t i = 0; i < f->pts; i++)
			f->q[i * 5 + q] = v[i];
	}
	free(v);
	return 0;
}

static int chart_mc(const char *dir, const struct rpt_input *in, char *err, size_t errlen)
{
	const cJSON *stats = rpt_stage_ok(in, RPT_STATS), *mc = get(stats, "monte_carlo");
	struct fan f = { 0 };
	char path[4096], why[512] = "out of memory", sub[160];
	cairo_surface_t *sf;
	cairo_t *cr = rpt_canvas(&sf);
	double resamples = sa_json_num(mc, "resamples", 0);
	bool blocks = !strcmp(sa_json_str(mc, "method", ""), "stationary_blocks");
	int rc;

	rpt_prep(cr);
	rpt_title(cr, "Monte Carlo of the trades", sa_fmt(sub, sizeof sub, "%.0f sequences of the "
		  "closed trades drawn with replacement%s, compounded", resamples,
		  blocks ? " in blocks" : ""));
	if (!cJSON_IsObject(mc))
		rpt_empty_note(cr, sa_json_str(stats, "monte_carlo_reason", "no Monte Carlo"));
	else if (fan_load(in, &f, why, sizeof why) < 0)
		rpt_empty_note(cr, why);
	else
		draw_mc(cr, in->returns.net, in->returns.n, &f);
	rc = rpt_finish(cr, sf, sa_fmt(path, sizeof path, "%s/montecarlo.png", dir), err, errlen);
	free(f.x);
	free(f.q);
	return rc;
}

int rpt_checks_charts(const char *dir, const struct rpt_input *in, char *err, size_t errlen)
{
	return chart_wf(dir, in, err, errlen) < 0 ? -1 : chart_mc(dir, in, err, errlen);
}

/* --- the words ---------------------------------------------------------------------------- */

static void add_fmt(cJSON *o, const char *key, const cJSON *v, int decimals)
{
	char buf[64];

	cJSON_AddStringToObject(o, key, rpt_fmt_num(v, decimals, buf, sizeof buf));
}

static void add_spa(cJSON *model, const cJSON *stats)
{
	const cJSON *spa = get(stats, "spa");
	double p = sa_json_num(spa, "p_value", NAN);
	double ran = sa_json_num(get(stats, "variants"), "ran", 0);
	char buf[400];
	cJSON *o;

	if (!cJSON_IsObject(spa)) {
		cJSON_AddFalseToObject(model, "spa");
		cJSON_AddStringToObject(model, "spa_reason", sa_json_str(stats, "spa_reason", "not computed"));
		return;
	}
	o = cJSON_AddObjectToObject(model, "spa");
	add_fmt(o, "p_value", get(spa, "p_value"), 2);
	add_fmt(o, "p_lower", get(spa, "p_lower"), 2);
	add_fmt(o, "p_upper", get(spa, "p_upper"), 2);
	add_fmt(o, "reality_check_p", get(spa, "reality_check_p"), 2);
	add_fmt(o, "block_length", get(spa, "block_length"), 1);
	add_fmt(o, "resamples", get(spa, "resamples"), 0);
	cJSON_AddStringToObject(o, "words", sa_fmt(buf, sizeof buf,
		"The best of %.0f beats doing nothing with p = %.2f: %s.", ran, p,
		p < 0.05 ? "better than luck would give over that many tries"
			 : sa_fmt((char[96]){ 0 }, 96, "no better than luck over %.0f tries", ran)));
}

static void add_walk_forward(cJSON *model, const cJSON *stats)
{
	const cJSON *wf = get(stats, "walk_forward"), *c;
	double oos = sa_json_num(wf, "oos_sharpe_annualised", NAN);
	double is = sa_json_num(wf, "is_sharpe_annualised", NAN);
	double eff = sa_json_num(wf, "efficiency", NAN);
	char buf[400], list[256] = "", num[32];
	cJSON *o;

	if (!cJSON_IsObject(wf)) {
		cJSON_AddFalseToObject(model, "walk_forward");
		cJSON_AddStringToObject(model, "walk_forward_reason",
					sa_json_str(stats, "walk_forward_reason", "not computed"));
		return;
	}
	o = cJSON_AddObjectToObject(model, "walk_forward");
	cJSON_ArrayForEach(c, get(wf, "choices")) {
		sa_fmt(num, sizeof num, "%s%.0f", *list ? ", " : "", c->valuedouble);
		if (strlen(list) + strlen(num) < sizeof list)
			strcat(list, num);
	}
	add_fmt(o, "windows", get(wf, "windows"), 0);
	cJSON_AddStringToObject(o, "choices", list);
	add_fmt(o, "oos_sharpe_annualised", get(wf, "oos_sharpe_annualised"), 2);
	add_fmt(o, "is_sharpe_annualised", get(wf, "is_sharpe_annualised"), 2);
	cJSON_AddStringToObject(o, "oos_net_return", sa_fmt(num, sizeof num, "%.1f %%",
				100 * sa_json_num(wf, "oos_net_return", NAN)));
	if (isfinite(eff))
		sa_fmt(buf, sizeof buf, "Chosen honestly, before each stretch, the family earns an "
		       "annualised Sharpe ratio of %.2f out of sample, against %.2f for the variant "
		       "that looks best in hindsight over the same bars: %.0f %% of the headline "
		       "survives an honest selection.", oos, is, 100 * fmax(eff, 0.0));
	else
		sa_fmt(buf, sizeof buf, "Chosen honestly, before each stretch, the family earns an "
		       "annualised Sharpe ratio of %.2f out of sample; the best variant in hindsight "
		       "shows %.2f over the same bars, so there is no headline to keep.", oos, is);
	cJSON_AddStringToObject(o, "words", buf);
}

/* How the sequences were drawn, what a percentile of them means, and what no draw can show. */
static void add_mc_method(cJSON *o, const cJSON *mc)
{
	const cJSON *iid = get(mc, "iid");
	char buf[640];
	bool blocks = !strcmp(sa_json_str(mc, "method", ""), "stationary_blocks");

	if (blocks)
		sa_fmt(buf, sizeof buf, "The sequences draw the trades in blocks of %.0f on average "
		       "(a stationary bootstrap), so runs of good or bad trades stay together as they "
		       "came; drawn one at a time instead, 1 in 20 would fall %.1f %% and %.0f %% no "
		       "further than the real one.", sa_json_num(mc, "mean_block", NAN),
		       100 * sa_json_num(get(iid, "max_drawdown"), "p95", NAN),
		       100 * sa_json_num(iid, "observed_percentile", NAN));
	else
		sa_fmt(buf, sizeof buf, "The sequences draw the trades one at a time.");
	cJSON_AddStringToObject(o, "method", buf);
	cJSON_AddStringToObject(o, "percentile", "A percentile is a share of the simulated "
				"sequences: the 95th percentile drawdown is the fall that 95 of every 100 "
				"sequences of these same trades do not exceed.");
	cJSON_AddStringToObject(o, "limit", sa_fmt(buf, sizeof buf, "Every sequence is made of the "
				"trades already seen, so no band can show a loss larger than the worst "
				"trade observed (%+.2f %%): a tail these trades have not met is not in "
				"them.", 100 * sa_json_num(mc, "observed_worst_trade", NAN)));
}

/* The drawdown so far is the drawdown gate's figure (bar by bar); the sequences compare closed
 * trades only, so that figure is named beside it when it prints otherwise. */
static char *mc_words(const cJSON *stats, const cJSON *mc, char *buf, size_t len)
{
	const cJSON *dd = get(mc, "max_drawdown");
	double gate = 100 * sa_json_num(stats, "max_drawdown", NAN);
	double closed = 100 * sa_json_num(mc, "observed_max_drawdown", NAN);
	char side[96] = "";

	if (!isfinite(gate))
		gate = closed;
	else if (isfinite(closed) && fabs(gate - closed) >= 0.05)
		sa_fmt(side, sizeof side, " (%.1f %% on closed trades alone, the measure the sequences "
		       "share)", closed);
	return sa_fmt(buf, len, "A drawdown of %.1f %% so far%s; 1 in 20 sequences of these trades "
		      "falls %.1f %%, and 1 in 100 falls %.1f %%. %.0f %% of the sequences fall no "
		      "further than the real one did.", gate, side, 100 * sa_json_num(dd, "p95", NAN),
		      100 * sa_json_num(dd, "p99", NAN), 100 * sa_json_num(mc, "observed_percentile", NAN));
}

static void add_monte_carlo(cJSON *model, const cJSON *stats)
{
	const cJSON *mc = get(stats, "monte_carlo");
	const cJSON *ret = get(mc, "net_return"), *pr = get(mc, "drawdown_probability");
	char buf[512];
	cJSON *o;

	if (!cJSON_IsObject(mc)) {
		cJSON_AddFalseToObject(model, "monte_carlo");
		cJSON_AddStringToObject(model, "monte_carlo_reason",
					sa_json_str(stats, "monte_carlo_reason", "not computed"));
		return;
	}
	o = cJSON_AddObjectToObject(model, "monte_carlo");
	add_fmt(o, "resamples", get(mc, "resamples"), 0);
	add_fmt(o, "trades", get(mc, "trades"), 0);
	cJSON_AddStringToObject(o, "words", mc_words(stats, mc, buf, sizeof buf));
	cJSON_AddStringToObject(o, "range", sa_fmt(buf, sizeof buf,
		"Their net return runs from %.1f %% (5th percentile) through %.1f %% (median) to "
		"%.1f %% (95th); %.1f %% of them fall 20 %% or more, %.1f %% fall 50 %% or more, and "
		"%.1f %% reach zero.", 100 * sa_json_num(ret, "p5", NAN),
		100 * sa_json_num(ret, "p50", NAN), 100 * sa_json_num(ret, "p95", NAN),
		100 * sa_json_num(pr, "20 %", NAN), 100 * sa_json_num(pr, "50 %", NAN),
		100 * sa_json_num(mc, "ruin_probability", NAN)));
	add_mc_method(o, mc);
}

int rpt_checks_model(cJSON *model, const struct rpt_input *in)
{
	const cJSON *stats = rpt_stage_ok(in, RPT_STATS);

	if (!model)
		return -1;
	add_spa(model, stats);
	add_walk_forward(model, stats);
	add_monte_carlo(model, stats);
	return 0;
}
