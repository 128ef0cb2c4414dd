/* report_neighbourhood.c - the Neighbourhood section (report_neighbourhood.h). */
#include "report_neighbourhood.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonio.h"
#include "msg.h"
#include "report_chart.h"
#include "report_columns.h"
#include "report_fmt.h"
#include "report_plot.h"

#define NB_LEVELS 5
static const double nb_steps[NB_LEVELS] = { -0.2, -0.1, 0, 0.1, 0.2 };

static const cJSON *get(const cJSON *o, const char *k)
{
	return cJSON_GetObjectItemCaseSensitive(o, k);
}

/* The level (0..4) of a set's step for parameter name, 2 (the centre) when it is not moved;
 * -1 when the step is not one of the five. */
static int level_of(const cJSON *set, const char *name)
{
	const cJSON *s = get(get(set, "steps"), name);

	if (!s)
		return 2;
	for (int i = 0; i < NB_LEVELS; i++)
		if (cJSON_IsNumber(s) && fabs(s->valuedouble - nb_steps[i]) < 1e-9)
			return i;
	return -1;
}

/* The parameter names, at most max, into names; returns how many. */
static int names_of(const cJSON *nb, const char **names, int max)
{
	const cJSON *p;
	int n = 0;

	cJSON_ArrayForEach(p, get(nb, "parameters"))
		if (n < max)
			names[n++] = sa_json_str(p, "name", "?");
	return n;
}

/* A colour for a share kept: red below nothing, white at nothing, green at all of it. */
static struct rpt_rgb keep_colour(double k)
{
	double t = fmax(-1, fmin(1, k));

	if (!isfinite(k))
		return (struct rpt_rgb){ 0.85, 0.85, 0.85 };
	if (t >= 0)
		return (struct rpt_rgb){ 1 - 0.55 * t, 1 - 0.25 * t, 1 - 0.55 * t };
	return (struct rpt_rgb){ 1, 1 + 0.6 * t, 1 + 0.6 * t };
}

static void draw_grid(cairo_t *cr, const cJSON *nb, const char *a, const char *b)
{
	struct rpt_panel p = { 150, 90, CW - 60, CH - 70, 0, NB_LEVELS, 0, NB_LEVELS };
	double cw = (p.x1 - p.x0) / NB_LEVELS, ch = (p.y1 - p.y0) / NB_LEVELS;
	const cJSON *s;
	char lab[64];

	for (int i = 0; i < NB_LEVELS; i++)
		for (int j = 0; j < NB_LEVELS; j++) {
			rpt_set_rgb(cr, keep_colour(NAN));
			cairo_rectangle(cr, p.x0 + i * cw + 1, p.y1 - (j + 1) * ch + 1, cw - 2, ch - 2);
			cairo_fill(cr);
		}
	cJSON_ArrayForEach(s, get(nb, "sets")) {
		int i = level_of(s, a), j = level_of(s, b);
		double k = sa_json_num(s, "keep", NAN);

		if (i < 0 || j < 0)
			continue;
		rpt_set_rgb(cr, keep_colour(k));
		cairo_rectangle(cr, p.x0 + i * cw + 1, p.y1 - (j + 1) * ch + 1, cw - 2, ch - 2);
		cairo_fill(cr);
		rpt_set_rgb(cr, RPT_INK);
		if (isfinite(k))
			snprintf(lab, sizeof lab, "%.0f %%", 100 * k);
		else
			snprintf(lab, sizeof lab, "%s", sa_json_str(s, "status", "-"));
		rpt_text_at(cr, p.x0 + (i + 0.5) * cw, p.y1 - (j + 0.5) * ch, 0.5, 0.5, 13, i == 2 && j == 2, lab);
	}
	rpt_set_rgb(cr, RPT_INK);
	for (int i = 0; i < NB_LEVELS; i++) {
		snprintf(lab, sizeof lab, "%+.0f %%", 100 * nb_steps[i]);
		rpt_text_at(cr, p.x0 + (i + 0.5) * cw, p.y1 + 16, 0.5, 0.5, 11, false, lab);
		rpt_text_at(cr, p.x0 - 8, p.y1 - (i + 0.5) * ch, 1, 0.5, 11, false, lab);
	}
	snprintf(lab, sizeof lab, "%s moved", a);
	rpt_text_at(cr, (p.x0 + p.x1) / 2, CH - 22, 0.5, 0.5, 12, true, lab);
	snprintf(lab, sizeof lab, "%s moved", b);
	rpt_text_at(cr, 16, (p.y0 + p.y1) / 2, 0, 0.5, 12, true, lab);
}

static void draw_lines(cairo_t *cr, const cJSON *nb, const char **names, int n)
{
	static const struct rpt_rgb pal[] = { { 0.10, 0.30, 0.65 }, { 0.80, 0.40, 0.10 },
		{ 0.20, 0.55, 0.25 }, { 0.55, 0.25, 0.60 }, { 0.60, 0.50, 0.10 }, { 0.10, 0.55, 0.60 },
		{ 0.45, 0.45, 0.45 }, { 0.75, 0.20, 0.45 } };
	struct rpt_panel p = { 78, 100, CW - 24, CH - 60, -0.25, 0.25, 0, 0 };
	double centre = sa_json_num(nb, "centre_sharpe", NAN), kmin = sa_json_num(nb, "keep_min", NAN);
	double dash[] = { 6, 4 };
	const cJSON *s;
	int styles[8];
	char lab[64];

	p.ymin = p.ymax = isfinite(centre) ? centre : 0;
	p.ymin = fmin(p.ymin, 0);
	cJSON_ArrayForEach(s, get(nb, "sets")) {
		double v = sa_json_num(s, "sharpe", NAN);

		if (isfinite(v)) {
			p.ymin = fmin(p.ymin, v);
			p.ymax = fmax(p.ymax, v);
		}
	}
	rpt_nice_range(&p.ymin, &p.ymax, 5);
	rpt_y_axis(cr, &p, 5, 1, "%.3g", false);
	for (int i = 0; i < NB_LEVELS; i++) {
		snprintf(lab, sizeof lab, "%+.0f %%", 100 * nb_steps[i]);
		rpt_set_rgb(cr, RPT_INK);
		rpt_text_at(cr, rpt_px_x(&p, nb_steps[i]), p.y1 + 16, 0.5, 0.5, 11, false, lab);
	}
	if (isfinite(centre) && isfinite(kmin) && centre > 0) {
		rpt_set_rgb(cr, (struct rpt_rgb){ 0.80, 0.20, 0.18 });
		cairo_set_line_width(cr, 1.5);
		cairo_set_dash(cr, dash, 2, 0);
		cairo_move_to(cr, p.x0, rpt_px_y(&p, kmin * centre));
		cairo_line_to(cr, p.x1, rpt_px_y(&p, kmin * centre));
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0);
		snprintf(lab, sizeof lab, "a plateau keeps %.0f %% of the centre", 100 * kmin);
		rpt_text_at(cr, p.x1 - 6, rpt_px_y(&p, kmin * centre) - 4, 1, 1, 11, true, lab);
	}
	for (int k = 0; k < n; k++) {
		double y[NB_LEVELS];

		for (int i = 0; i < NB_LEVELS; i++)
			y[i] = i == 2 ? centre : NAN;
		cJSON_ArrayForEach(s, get(nb, "sets")) {
			const cJSON *st = get(s, "steps");
			int l = level_of(s, names[k]);

			if (cJSON_GetArraySize(st) == 1 && get(st, names[k]) && l >= 0)
				y[l] = sa_json_num(s, "sharpe", NAN);
		}
		rpt_set_rgb(cr, pal[k % 8]);
		cairo_set_line_width(cr, 2);
		for (int i = 0, pen = 0; i < NB_LEVELS; i++) {
			if (!isfinite(y[i])) {
				pen = 0;
				continue;
			}
			if (pen)
				cairo_line_to(cr, rpt_px_x(&p, nb_steps[i]), rpt_px_y(&p, y[i]));
			else
				cairo_move_to(cr, rpt_px_x(&p, nb_steps[i]), rpt_px_y(&p, y[i]));
			pen = 1;
		}
		cairo_stroke(cr);
		styles[k] = L_LINE;
	}
	rpt_frame(cr, &p);
	rpt_legend(cr, n, names, pal, styles);
	rpt_set_rgb(cr, RPT_INK);
	rpt_text_at(cr, (p.x0 + p.x1) / 2, CH - 20, 0.5, 0, 12, false,
		    "each parameter moved alone, the others at their audited values");
}

void rpt_draw_neighbourhood(cairo_t *cr, const cJSON *nb)
{
	const char *names[8];
	int n = names_of(nb, names, 8);

	if (!sa_json_bool(nb, "measured", false)) {
		rpt_empty_note(cr, sa_json_str(nb, "reason", "stats.json has no neighbourhood"));
		return;
	}
	if (sa_json_bool(nb, "grid", false) && n == 2)
		draw_grid(cr, nb, names[0], names[1]);
	else
		draw_lines(cr, nb, names, n);
}

int rpt_nb_chart(const char *dir, const struct rpt_input *in, char *err, size_t errlen)
{
	const cJSON *nb = get(rpt_stage_ok(in, RPT_STATS), "neighbourhood");
	char path[4096];
	cairo_surface_t *sf;
	cairo_t *cr = rpt_canvas(&sf);

	rpt_title(cr, "The neighbourhood: plateau or peak",
		  sa_json_bool(nb, "grid", false) ?
		  "each cell the share of the audited per-bar Sharpe ratio its parameters keep when moved" :
		  "the per-bar Sharpe ratio as each parameter is moved 10 and 20 % either way");
	rpt_draw_neighbourhood(cr, nb);
	return rpt_finish(cr, sf, sa_fmt(path, sizeof path, "%s/neighbourhood.png", dir), err, errlen);
}

/* The words: what moved, what the neighbours kept, and what the audit made of it. */
static void note(const cJSON *nb, char *buf, size_t len)
{
	double keep = sa_json_num(nb, "keep", NAN);
	const char *shape = sa_json_str(nb, "shape", "");
	char failed[96] = "";

	if (!sa_json_bool(nb, "measured", false)) {
		sa_fmt(buf, len, "The neighbourhood was not measured: %s.",
		       sa_json_str(nb, "reason", "the audit computed no statistics"));
		return;
	}
	if (!strcmp(shape, "no_edge")) {
		sa_fmt(buf, len, "The audited parameters show no edge (a per-bar Sharpe ratio of %.4g), so "
		       "there is nothing for their %.0f neighbours to keep.",
		       sa_json_num(nb, "centre_sharpe", NAN), sa_json_num(nb, "neighbours", 0));
		return;
	}
	if (sa_json_num(nb, "failed", 0) > 0)
		sa_fmt(failed, sizeof failed, "; %.0f failed to run and count as keeping nothing",
		       sa_json_num(nb, "failed", 0));
	sa_fmt(buf, len, "Moved 10 and 20 %% either way, the audited parameters' %.0f neighbours keep at "
	       "their median %.0f %% of its per-bar Sharpe ratio (%.4g of %.4g%s). %s",
	       sa_json_num(nb, "neighbours", 0), 100 * keep, sa_json_num(nb, "median_sharpe", NAN),
	       sa_json_num(nb, "centre_sharpe", NAN), failed,
	       !strcmp(shape, "peak") ?
	       "That is a peak: the edge hangs on the exact values, the mark of a pick from a search, "
	       "so the deflation counts the grid around it as trials and the verdict cannot be "
	       "READY_FOR_MICRO_LIVE." :
	       "That is a plateau: the edge does not hang on the exact values chosen.");
}

/* One row of the table: the set, its parameters in words, its figures. */
static cJSON *row(const cJSON *s)
{
	cJSON *o = cJSON_CreateObject(), *cells;
	const cJSON *p;
	char buf[512], num[64];
	size_t at = 0;

	buf[0] = '\0';
	cJSON_ArrayForEach(p, get(s, "params"))
		if (at < sizeof buf)
			at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%s=%.10g", at ? ", " : "",
					       p->string, p->valuedouble);
	cJSON_AddStringToObject(o, "set", rpt_fmt_num(get(s, "set"), 0, num, sizeof num));
	cJSON_AddStringToObject(o, "params", at ? buf : "the audited values");
	cJSON_AddStringToObject(o, "sharpe", rpt_fmt_num(get(s, "sharpe"), 5, num, sizeof num));
	if (cJSON_IsNumber(get(s, "keep")))
		snprintf(num, sizeof num, "%.0f %%", 100 * sa_json_num(s, "keep", 0));
	else
		snprintf(num, sizeof num, "%s", strcmp(sa_json_str(s, "status", ""), "ok") ?
			 sa_json_str(s, "status", "-") : "-");
	cJSON_AddStringToObject(o, "keep", num);
	if (cJSON_IsNumber(get(s, "net_return")))
		snprintf(num, sizeof num, "%+.2f %%", 100 * sa_json_num(s, "net_return", 0));
	else
		snprintf(num, sizeof num, "-");
	cJSON_AddStringToObject(o, "net", num);
	cells = cJSON_AddArrayToObject(o, "cells");
	for (size_t k = 0; k < RPT_NB_COLS; k++) {
		cJSON *c = cJSON_CreateObject();

		cJSON_AddStringToObject(c, "text", sa_json_str(o, rpt_nb_cols[k].pdf.key, ""));
		cJSON_AddStringToObject(c, "cls", rpt_nb_cols[k].html_class);
		cJSON_AddItemToArray(cells, c);
	}
	return o;
}

int rpt_nb_model(cJSON *m, const struct rpt_input *in)
{
	const cJSON *nb = get(rpt_stage_ok(in, RPT_STATS), "neighbourhood"), *s;
	cJSON *o = cJSON_AddObjectToObject(m, "neighbourhood"), *rows, *cols;
	char buf[1024];

	if (!o)
		return -1;
	cJSON_AddBoolToObject(o, "present", cJSON_IsObject(nb));
	cJSON_AddBoolToObject(o, "measured", sa_json_bool(nb, "measured", false));
	cJSON_AddBoolToObject(o, "peak", !strcmp(sa_json_str(nb, "shape", ""), "peak"));
	note(nb, buf, sizeof buf);
	cJSON_AddStringToObject(o, "note", buf);
	cols = cJSON_AddArrayToObject(o, "cols");
	for (size_t k = 0; k < RPT_NB_COLS; k++) {
		cJSON *c = cJSON_CreateObject();

		cJSON_AddStringToObject(c, "title", rpt_nb_cols[k].pdf.title);
		cJSON_AddItemToArray(cols, c);
	}
	rows = cJSON_AddArrayToObject(o, "rows");
	cJSON_ArrayForEach(s, get(nb, "sets"))
		cJSON_AddItemToArray(rows, row(s));
	return rows && cols ? 0 : -1;
}

void rpt_nb_pdf(struct rpt_pdf *p, const cJSON *m)
{
	const cJSON *nb = rpt_pdf_get(m, "neighbourhood");
	struct rpt_pdf_col c[RPT_NB_COLS];
	size_t nc = rpt_pdf_cols(rpt_nb_cols, RPT_NB_COLS, c);

	/* the heading and its note always, as the page has them */
	rpt_pdf_heading(p, "Neighbourhood", 1);
	rpt_pdf_para(p, rpt_pdf_str(nb, "note"), 10, sa_json_bool(nb, "peak", false), false);
	if (!sa_json_bool(nb, "measured", false))
		return;
	rpt_pdf_png(p, "neighbourhood.png");
	rpt_pdf_table(p, rpt_pdf_get(nb, "rows"), c, nc, "no set ran");
}
