/* report_chart_robust.c - the robustness and trials charts: permutation test, warm-up runs,
 * the variants' Sharpe ratios and PBO. */
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
#include "report_plot.h"
#include "timeutil.h"

/* Reads the finite numbers of a JSON array into a new array (caller frees); *n how many. */
static double *json_numbers(const cJSON *arr, size_t *n)
{
	const cJSON *it;
	size_t cap = (size_t)(cJSON_IsArray(arr) ? cJSON_GetArraySize(arr) : 0), k = 0;
	double *v = malloc((cap ? cap : 1) * sizeof *v);
	const cJSON *list = cap ? arr : NULL;

	cJSON_ArrayForEach(it, list)
		if (v && cJSON_IsNumber(it) && isfinite(it->valuedouble) && k < cap)
			v[k++] = it->valuedouble;
	*n = v ? k : 0;
	return v;
}

static void draw_permutation(cairo_t *cr, const double *v, size_t n, double real)
{
	struct rpt_panel p = { 78, 80, CW - 24, CH - 52, real, real, 0, 1 };
	int bins = (int)fmin(40, fmax(10, ceil(sqrt((double)n) * 2)));
	static const char *const names[] = { "Sharpe ratio on permuted bars", "the real Sharpe ratio" };
	static const struct rpt_rgb colors[] = { { 0.55, 0.60, 0.68 }, { 0.80, 0.20, 0.18 } };
	static const int style[] = { L_BOX, L_LINE };

	for (size_t i = 0; i < n; i++) {
		p.xmin = fmin(p.xmin, v[i]);
		p.xmax = fmax(p.xmax, v[i]);
	}
	if (p.xmax - p.xmin < 1e-9) {
		p.xmin -= 0.5;
		p.xmax += 0.5;
	}
	rpt_nice_range(&p.xmin, &p.xmax, 8);
	double width = (p.xmax - p.xmin) / bins;
	p.ymax = 1.1 * rpt_max_count(v, n, bins, p.xmin, width);
	rpt_nice_range(&p.ymin, &p.ymax, 5);
	p.ymin = 0;
	rpt_y_axis(cr, &p, 5, 1, "%.0f", false);
	rpt_draw_hist(cr, &p, v, n, bins, p.xmin, width, true, colors[0]);
	rpt_set_rgb(cr, colors[1]);
	cairo_set_line_width(cr, 2.4);
	cairo_move_to(cr, rpt_px_x(&p, real), p.y0);
	cairo_line_to(cr, rpt_px_x(&p, real), p.y1);
	cairo_stroke(cr);
	rpt_x_axis_numbers(cr, &p, 8, "%.3g");
	rpt_frame(cr, &p);
	rpt_legend(cr, 2, names, colors, style);
	rpt_set_rgb(cr, RPT_INK);
	rpt_text_at(cr, (p.x0 + p.x1) / 2, CH - 20, 0.5, 0, 12, false, "per-bar Sharpe ratio before costs");
	rpt_y_label(cr, &p, "permuted runs");
}

int rpt_chart_permutation(const char *path, const cJSON *perm, const char *why_missing,
			  char *err, size_t errlen)
{
	cairo_surface_t *sf;
	cairo_t *cr = rpt_canvas(&sf);
	const cJSON *real = cJSON_GetObjectItemCaseSensitive(perm, "real_sharpe");
	const cJSON *pv = cJSON_GetObjectItemCaseSensitive(perm, "p_value");
	size_t n = 0;
	double *v = json_numbers(cJSON_GetObjectItemCaseSensitive(perm, "null_sharpes"), &n);
	char sub[128];

	if (cJSON_IsNumber(pv))
		snprintf(sub, sizeof sub, "%zu runs on the bar returns shuffled; p = %.3f", n, pv->valuedouble);
	else
		snprintf(sub, sizeof sub, "%zu runs on the bar returns shuffled", n);
	rpt_title(cr, "Permutation test: the real Sharpe ratio against shuffled bars", sub);
	if (v && n > 0 && cJSON_IsNumber(real) && isfinite(real->valuedouble))
		draw_permutation(cr, v, n, real->valuedouble);
	else
		rpt_empty_note(cr, why_missing && why_missing[0] ? why_missing : "the permutation test did not run");
	free(v);
	return rpt_finish(cr, sf, path, err, errlen);
}

/* One row a warm-up offset; each span of tail bars whose signal differs from the full run's is
 * a red bar on its row. */
static void draw_warmup(cairo_t *cr, const cJSON *runs, double first, double last)
{
	struct rpt_panel p = { 120, 80, CW - 24, CH - 52, first, last + 1, 0, 1 };
	int rows = cJSON_GetArraySize(runs), r = 0;
	const cJSON *run, *span;
	char label[48];

	cJSON_ArrayForEach(run, runs) {
		double y0 = p.y0 + (p.y1 - p.y0) * r / rows, y1 = p.y0 + (p.y1 - p.y0) * (r + 1) / rows;
		const cJSON *pct = cJSON_GetObjectItemCaseSensitive(run, "percent");
		const cJSON *dis = cJSON_GetObjectItemCaseSensitive(run, "disagreement");

		/* green where the run agrees with the full run, grey where it could not be compared */
		if (cJSON_IsNumber(dis))
			rpt_set_rgb(cr, RPT_LONG);
		else
			rpt_set_rgb(cr, RPT_GRID);
		cairo_rectangle(cr, p.x0, y0 + 6, p.x1 - p.x0, y1 - y0 - 12);
		cairo_fill(cr);
		rpt_set_rgb(cr, RPT_DD);
		cJSON_ArrayForEach(span, cJSON_GetObjectItemCaseSensitive(run, "spans")) {
			const cJSON *a = cJSON_GetArrayItem(span, 0), *b = cJSON_GetArrayItem(span, 1);
			if (!cJSON_IsNumber(a) || !cJSON_IsNumber(b))
				continue;
			double xa = rpt_px_x(&p, fmax(first, a->valuedouble));
			double xb = rpt_px_x(&p, fmin(last + 1, b->valuedouble + 1));
			cairo_rectangle(cr, xa, y0 + 6, fmax(1, xb - xa), y1 - y0 - 12);
		}
		cairo_fill(cr);
		rpt_set_rgb(cr, RPT_INK);
		snprintf(label, sizeof label, "start %d %%", cJSON_IsNumber(pct) ? pct->valueint : 0);
		rpt_text_at(cr, p.x0 - 8, (y0 + y1) / 2 - 7, 1, 0.5, 12, true, label);
		if (cJSON_IsNumber(dis))
			snprintf(label, sizeof label, "%.2f %% differ", dis->valuedouble * 100);
		else
			snprintf(label, sizeof label, "run failed");
		rpt_text_at(cr, p.x0 - 8, (y0 + y1) / 2 + 9, 1, 0.5, 11, false, label);
		r++;
	}
	rpt_x_axis_numbers(cr, &p, 8, "%.0f");
	rpt_frame(cr, &p);
	rpt_set_rgb(cr, RPT_INK);
	rpt_text_at(cr, (p.x0 + p.x1) / 2, CH - 20, 0.5, 0, 12, false, "bar of the compared tail");
}

int rpt_chart_warmup(const char *path, const cJSON *warm, const char *why_missing, char *err,
		     size_t errlen)
{
	cairo_surface_t *sf;
	cairo_t *cr = rpt_canvas(&sf);
	const cJSON *runs = cJSON_GetObjectItemCaseSensitive(warm, "runs");
	const cJSON *ts = cJSON_GetObjectItemCaseSensitive(warm, "tail_start");
	const cJSON *cb = cJSON_GetObjectItemCaseSensitive(warm, "compared_bars");

	rpt_title(cr, "Warm-up: where signals started later in history differ from the full run",
	      "each row a later start: green where its signal on the last bars agrees, red where it differs");
	if (cJSON_IsArray(runs) && cJSON_GetArraySize(runs) > 0 && cJSON_IsNumber(ts) &&
	    cJSON_IsNumber(cb) && cb->valuedouble >= 1)
		draw_warmup(cr, runs, ts->valuedouble, ts->valuedouble + cb->valuedouble - 1);
	else
		rpt_empty_note(cr, why_missing && why_missing[0] ? why_missing : "the warm-up check did not run");
	return rpt_finish(cr, sf, path, err, errlen);
}

/* A dashed or solid horizontal marker across panel p at y, labelled at the right end. */
static void h_marker(cairo_t *cr, const struct rpt_panel *p, double y, struct rpt_rgb c, bool dashed,
		     const char *label)
{
	double dash[] = { 6, 4 };

	if (!isfinite(y) || y < p->ymin || y > p->ymax)
		return;
	rpt_set_rgb(cr, c);
	cairo_set_line_width(cr, 2);
	cairo_set_dash(cr, dash, dashed ? 2 : 0, 0);
	cairo_move_to(cr, p->x0, rpt_px_y(p, y));
	cairo_line_to(cr, p->x1, rpt_px_y(p, y));
	cairo_stroke(cr);
	cairo_set_dash(cr, NULL, 0, 0);
	rpt_text_at(cr, p->x1 - 6, rpt_px_y(p, y) - 4, 1, 1, 11, true, label);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void draw_variants(cairo_t *cr, double *sr, size_t n, double audited, double sr0)
{
	struct rpt_panel p = { 78, 80, CW - 24, CH - 52, 0, (double)n, DBL_MAX, -DBL_MAX };
	static const char *const names[] = { "variants, sorted", "the audited strategy", "SR0: the best of them by luck alone" };
	static const struct rpt_rgb colors[] = { { 0.55, 0.60, 0.68 }, { 0.10, 0.30, 0.65 }, { 0.80, 0.20, 0.18 } };
	static const int style[] = { L_BOX, L_LINE, L_DASH };
	char lab[64];

	qsort(sr, n, sizeof *sr, cmp_double);
	for (size_t i = 0; i < n; i++) {
		p.ymin = fmin(p.ymin, sr[i]);
		p.ymax = fmax(p.ymax, sr[i]);
	}
	p.ymin = fmin(fmin(p.ymin, 0), isfinite(audited) ? audited : 0);
	p.ymax = fmax(fmax(p.ymax, isfinite(audited) ? audited : 0), isfinite(sr0) ? sr0 : 0);
	rpt_nice_range(&p.ymin, &p.ymax, 5);
	rpt_y_axis(cr, &p, 5, 1, "%.3g", false);
	rpt_set_rgb(cr, colors[0]);
	for (size_t i = 0; i < n; i++) {
		double x0 = rpt_px_x(&p, (double)i), x1 = rpt_px_x(&p, (double)i + 1), y0 = rpt_px_y(&p, 0);

		cairo_rectangle(cr, x0 + 0.5, fmin(y0, rpt_px_y(&p, sr[i])), fmax(1, x1 - x0 - 1),
				fabs(rpt_px_y(&p, sr[i]) - y0));
	}
	cairo_fill(cr);
	rpt_set_rgb(cr, RPT_INK);
	cairo_set_line_width(cr, 1);
	cairo_move_to(cr, p.x0, rpt_px_y(&p, 0));
	cairo_line_to(cr, p.x1, rpt_px_y(&p, 0));
	cairo_stroke(cr);
	snprintf(lab, sizeof lab, "audited %.3f", audited);
	h_marker(cr, &p, audited, colors[1], false, lab);
	snprintf(lab, sizeof lab, "SR0 %.3f", sr0);
	h_marker(cr, &p, sr0, colors[2], true, lab);
	rpt_frame(cr, &p);
	rpt_legend(cr, 3, names, colors, style);
	rpt_set_rgb(cr, RPT_INK);
	rpt_text_at(cr, (p.x0 + p.x1) / 2, CH - 20, 0.5, 0, 12, false, "declared variants that ran, from the lowest Sharpe ratio per trade to the highest");
}

int rpt_chart_variants(const char *path, const double *sharpe, size_t n, double audited,
		       double sr0, const char *why_missing, char *err, size_t errlen)
{
	cairo_surface_t *sf;
	cairo_t *cr = rpt_canvas(&sf);
	double *sr = n ? malloc(n * sizeof *sr) : NULL;

	rpt_title(cr, "The variant family", "each declared variant's Sharpe ratio per trade, the audited strategy and SR0");
	if (sr) {
		memcpy(sr, sharpe, n * sizeof *sr);
		draw_variants(cr, sr, n, audited, sr0);
	} else {
		rpt_empty_note(cr, why_missing);
	}
	free(sr);
	return rpt_finish(cr, sf, path, err, errlen);
}

static void draw_pbo(cairo_t *cr, const cJSON *pbo)
{
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(pbo, "logit_histogram");
	const cJSON *counts = cJSON_GetObjectItemCaseSensitive(h, "counts"), *c;
	double lo = sa_json_num(h, "lo", -1), hi = sa_json_num(h, "hi", 1), top = 1;
	int bins = cJSON_GetArraySize(counts), b = 0;
	struct rpt_panel p = { 78, 80, CW - 24, CH - 52, lo, hi, 0, 1 };
	double width = (hi - lo) / (bins ? bins : 1);
	char lab[96];

	cJSON_ArrayForEach(c, counts)
		top = fmax(top, cJSON_IsNumber(c) ? c->valuedouble : 0);
	p.ymax = top;
	rpt_nice_range(&p.ymin, &p.ymax, 5);
	p.ymin = 0;
	rpt_y_axis(cr, &p, 5, 1, "%.0f", false);
	rpt_x_axis_numbers(cr, &p, 8, "%.2g");
	cJSON_ArrayForEach(c, counts) {
		double x0 = rpt_px_x(&p, lo + b * width), x1 = rpt_px_x(&p, lo + (b + 1) * width);
		double y = cJSON_IsNumber(c) ? c->valuedouble : 0;
		struct rpt_rgb col = lo + (b + 0.5) * width <= 0 ? RPT_DD : RPT_NET;

		cairo_set_source_rgba(cr, col.r, col.g, col.b, 0.75);
		cairo_rectangle(cr, x0 + 0.5, rpt_px_y(&p, y), x1 - x0 - 1, rpt_px_y(&p, 0) - rpt_px_y(&p, y));
		cairo_fill(cr);
		b++;
	}
	rpt_set_rgb(cr, RPT_INK);
	cairo_set_line_width(cr, 1.5);
	cairo_move_to(cr, rpt_px_x(&p, 0), p.y0);
	cairo_line_to(cr, rpt_px_x(&p, 0), p.y1);
	cairo_stroke(cr);
	/* the histogram is of the splits at PBO_BLOCKS: its own share, not the median's */
	snprintf(lab, sizeof lab, "PBO %.2f at %.0f blocks: the share of splits left of 0",
		 sa_json_num(pbo, "value_at_blocks", sa_json_num(pbo, "value", NAN)),
		 sa_json_num(pbo, "blocks", NAN));
	rpt_text_at(cr, rpt_px_x(&p, 0) - 8, p.y0 + 8, 1, 0, 13, true, lab);
	rpt_frame(cr, &p);
	rpt_text_at(cr, (p.x0 + p.x1) / 2, CH - 20, 0.5, 0, 12, false, "logit of the in-sample best's out-of-sample rank (left of 0: at or below the median)");
}

int rpt_chart_pbo(const char *path, const cJSON *pbo, const char *why_missing, char *err,
		  size_t errlen)
{
	cairo_surface_t *sf;
	cairo_t *cr = rpt_canvas(&sf);

	rpt_title(cr, "Probability of backtest overfitting", "CSCV: how the in-sample best ranked out of sample, over every split");
	if (cJSON_IsObject(pbo))
		draw_pbo(cr, pbo);
	else
		rpt_empty_note(cr, why_missing);
	return rpt_finish(cr, sf, path, err, errlen);
}
