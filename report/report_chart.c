/* report_chart.c - draws the report's charts with cairo; fixed size, font and options so the
 * same data always gives the same PNG bytes. */
#include "report_chart.h"

#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <png.h>
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
#include "timeutil.h"

/* Logical size in CSS pixels; drawn at twice the density so a printout stays sharp. */
#define CW RPT_CHART_WIDTH
#define CH RPT_CHART_HEIGHT
#define DENSITY 2.0
#define FONT "DejaVu Sans"

struct rgb {
	double r, g, b;
};
static const struct rgb C_NET = { 0.10, 0.30, 0.65 }, C_GROSS = { 0.55, 0.60, 0.68 },
			C_DD = { 0.80, 0.20, 0.18 }, C_GRID = { 0.88, 0.89, 0.91 },
			C_INK = { 0.15, 0.16, 0.18 }, C_LONG = { 0.80, 0.93, 0.82 },
			C_SHORT = { 0.98, 0.84, 0.84 }, C_PSR = { 0.85, 0.50, 0.10 };

/* A plot area in logical pixels and the data range it shows. */
struct panel {
	double x0, y0, x1, y1;
	double xmin, xmax, ymin, ymax;
};

static double px_x(const struct panel *p, double x)
{
	return p->x0 + (x - p->xmin) / (p->xmax - p->xmin) * (p->x1 - p->x0);
}

static double px_y(const struct panel *p, double y)
{
	return p->y1 - (y - p->ymin) / (p->ymax - p->ymin) * (p->y1 - p->y0);
}

static void set_rgb(cairo_t *cr, struct rgb c)
{
	cairo_set_source_rgb(cr, c.r, c.g, c.b);
}

/* Fixed font options: no hinting and grey antialiasing, so the local fontconfig settings do not
 * change the pixels; a white CW x CH page under the chart. */
static void prep(cairo_t *cr)
{
	cairo_font_options_t *fo = cairo_font_options_create();
	cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
	cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
	cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
	cairo_set_font_options(cr, fo);
	cairo_font_options_destroy(fo);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_rectangle(cr, 0, 0, CW, CH);
	cairo_fill(cr);
	cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
}

static cairo_t *canvas(cairo_surface_t **sf)
{
	*sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)(CW * DENSITY), (int)(CH * DENSITY));
	cairo_t *cr = cairo_create(*sf);
	cairo_scale(cr, DENSITY, DENSITY);
	prep(cr);
	return cr;
}

/* Text anchored by ax (0 left, 0.5 centre, 1 right) and ay (0 top, 0.5 middle, 1 baseline). */
static void text_at(cairo_t *cr, double x, double y, double ax, double ay, double size, bool bold,
		    const char *s)
{
	cairo_text_extents_t te;
	cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
	cairo_text_extents(cr, s, &te);
	cairo_move_to(cr, x - ax * te.x_advance, ay >= 1 ? y : y - te.y_bearing - te.height * ay);
	cairo_show_text(cr, s);
}

static void title(cairo_t *cr, const char *main, const char *sub)
{
	set_rgb(cr, C_INK);
	text_at(cr, 24, 16, 0, 0, 17, true, main);
	if (sub) {
		cairo_set_source_rgb(cr, 0.40, 0.42, 0.46);
		text_at(cr, 24, 38, 0, 0, 12, false, sub);
	}
}

/* A step of 1, 2 or 5 times a power of ten giving about n intervals over range. */
static double nice_step(double range, int n)
{
	double raw = range / n, mag = pow(10, floor(log10(raw))), f = raw / mag;
	return mag * (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10);
}

/* Widens [lo, hi] to whole steps and a non-empty range. */
static void nice_range(double *lo, double *hi, int n)
{
	if (!(*hi > *lo)) {
		double d = fabs(*lo) > 0 ? fabs(*lo) * 0.05 : 1;
		*lo -= d;
		*hi += d;
	}
	double st = nice_step(*hi - *lo, n);
	*lo = floor(*lo / st) * st;
	*hi = ceil(*hi / st) * st;
}

static void frame(cairo_t *cr, const struct panel *p)
{
	cairo_set_line_width(cr, 1);
	cairo_set_source_rgb(cr, 0.55, 0.57, 0.60);
	cairo_rectangle(cr, p->x0, p->y0, p->x1 - p->x0, p->y1 - p->y0);
	cairo_stroke(cr);
}

/* Horizontal grid lines and y labels; fmt formats value * scale. */
static void y_axis(cairo_t *cr, const struct panel *p, int n, double scale, const char *fmt, bool right)
{
	double st = nice_step(p->ymax - p->ymin, n);
	char lab[32];
	for (double v = ceil(p->ymin / st - 1e-9) * st; v <= p->ymax + st * 1e-9; v += st) {
		double y = px_y(p, v);
		if (!right) {
			set_rgb(cr, C_GRID);
			cairo_set_line_width(cr, 0.8);
			cairo_move_to(cr, p->x0, y);
			cairo_line_to(cr, p->x1, y);
			cairo_stroke(cr);
		}
		set_rgb(cr, C_INK);
		snprintf(lab, sizeof lab, fmt, fabs(v) < st * 1e-6 ? 0.0 : v * scale);
		if (right)
			text_at(cr, p->x1 + 6, y, 0, 0.5, 11, false, lab);
		else
			text_at(cr, p->x0 - 6, y, 1, 0.5, 11, false, lab);
	}
}

static void x_axis_numbers(cairo_t *cr, const struct panel *p, int n, const char *fmt)
{
	double st = nice_step(p->xmax - p->xmin, n);
	char lab[32];
	set_rgb(cr, C_INK);
	for (double v = ceil(p->xmin / st - 1e-9) * st; v <= p->xmax + st * 1e-9; v += st) {
		snprintf(lab, sizeof lab, fmt, fabs(v) < st * 1e-6 ? 0.0 : v);
		text_at(cr, px_x(p, v), p->y1 + 8, 0.5, 0, 11, false, lab);
	}
}

/* Date ticks at whole days, weeks or months, labelled YYYY-MM-DD; the times are UTC. */
static void x_axis_dates(cairo_t *cr, const struct panel *p, bool labels)
{
	static const double steps[] = { 3600, 6 * 3600, 86400, 2 * 86400, 7 * 86400, 14 * 86400,
					30 * 86400, 61 * 86400, 91 * 86400, 182 * 86400, 365 * 86400,
					730 * 86400 };
	double span = p->xmax - p->xmin, st = steps[0];
	for (size_t i = 0; i < sizeof steps / sizeof steps[0] && span / st > 7; i++)
		st = steps[i];
	double unit = st >= 86400 ? 86400 : 3600;
	for (double v = ceil(p->xmin / st) * st; v <= p->xmax; v += st) {
		double d = floor(v / unit) * unit, x = px_x(p, d);
		char iso[21], lab[21];
		if (d < p->xmin)
			continue;
		set_rgb(cr, C_GRID);
		cairo_set_line_width(cr, 0.8);
		cairo_move_to(cr, x, p->y0);
		cairo_line_to(cr, x, p->y1);
		cairo_stroke(cr);
		if (!labels)
			continue;
		sa_time_format((int64_t)d, iso);
		snprintf(lab, sizeof lab, unit < 86400 ? "%.10s %.5s" : "%.10s", iso, iso + 11);
		set_rgb(cr, C_INK);
		text_at(cr, x, p->y1 + 8, 0.5, 0, 11, false, lab);
	}
}

/* Legend entry styles. */
enum { L_LINE, L_DASH, L_BOX };

/* One row of legend entries under the subtitle, above the plot, so it never hides data. */
static void legend(cairo_t *cr, int n, const char *const *names, const struct rgb *colors,
		   const int *style)
{
	double x = 78, y = 62;
	cairo_text_extents_t te;
	for (int i = 0; i < n; i++) {
		double dash[] = { 5, 3 };
		set_rgb(cr, colors[i]);
		if (style && style[i] == L_BOX) {
			cairo_rectangle(cr, x, y - 6, 22, 12);
			cairo_fill(cr);
		} else {
			cairo_set_line_width(cr, 2.4);
			cairo_set_dash(cr, dash, style && style[i] == L_DASH ? 2 : 0, 0);
			cairo_move_to(cr, x, y);
			cairo_line_to(cr, x + 22, y);
			cairo_stroke(cr);
			cairo_set_dash(cr, NULL, 0, 0);
		}
		set_rgb(cr, C_INK);
		text_at(cr, x + 28, y, 0, 0.5, 12, false, names[i]);
		cairo_text_extents(cr, names[i], &te);
		x += 28 + te.x_advance + 22;
	}
}

static void empty_note(cairo_t *cr, const char *why)
{
	char msg[320];
	snprintf(msg, sizeof msg, "Not drawn: %s", why && why[0] ? why : "no data");
	cairo_set_source_rgb(cr, 0.96, 0.96, 0.97);
	cairo_rectangle(cr, 24, 80, CW - 48, CH - 110);
	cairo_fill(cr);
	set_rgb(cr, C_INK);
	text_at(cr, CW / 2, CH / 2, 0.5, 0.5, 15, false, msg);
}

/* The rows of sf (RGB24: one native-endian 0x00RRGGBB word a pixel) as 8-bit RGB. libpng
 * longjmps here on error, so nothing this function changes after setjmp is read afterwards. */
static int png_rows(png_structp png, png_infop info, FILE *fp, cairo_surface_t *sf, unsigned char *row)
{
	int w = cairo_image_surface_get_width(sf), h = cairo_image_surface_get_height(sf);
	int stride = cairo_image_surface_get_stride(sf);
	const unsigned char *data = cairo_image_surface_get_data(sf);

	if (setjmp(png_jmpbuf(png)))
		return -1;
	png_init_io(png, fp);
	png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
		     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	/* One fixed filter and fast deflate: charts are mostly flat colour, where the adaptive
	 * filter search and a high level buy a few per cent of size for several times the time. */
	png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
	png_set_compression_level(png, 1);
	png_write_info(png, info);
	for (int y = 0; y < h; y++) {
		const uint32_t *px = (const uint32_t *)(const void *)(data + (size_t)y * (size_t)stride);
		for (int x = 0; x < w; x++) {
			row[3 * x] = (unsigned char)(px[x] >> 16);
			row[3 * x + 1] = (unsigned char)(px[x] >> 8);
			row[3 * x + 2] = (unsigned char)px[x];
		}
		png_write_row(png, row);
	}
	png_write_end(png, NULL);
	return 0;
}

/* Writes sf as a PNG to fp with libpng. Returns 0 or -1. */
static int write_png(FILE *fp, cairo_surface_t *sf)
{
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	unsigned char *row = malloc((size_t)cairo_image_surface_get_width(sf) * 3);
	int rc = -1;

	cairo_surface_flush(sf);
	if (info && row && cairo_image_surface_get_format(sf) == CAIRO_FORMAT_RGB24)
		rc = png_rows(png, info, fp, sf, row);
	png_destroy_write_struct(&png, &info);
	free(row);
	return rc;
}

/* Writes the surface atomically and frees cr and sf whatever happens. */
static int finish(cairo_t *cr, cairo_surface_t *sf, const char *path, char *err, size_t errlen)
{
	struct sa_atomic a = { 0 };
	int rc = -1;
	cairo_status_t st = cairo_status(cr);
	cairo_destroy(cr);
	if (st != CAIRO_STATUS_SUCCESS) {
		sa_fmt(err, errlen, "drawing '%s': %s", path, cairo_status_to_string(st));
		goto out;
	}
	if (sa_atomic_open(&a, path)) {
		sa_fmt(err, errlen, "cannot write '%s'", path);
		goto out;
	}
	if (write_png(a.fp, sf) < 0) {
		sa_atomic_abort(&a);
		sa_fmt(err, errlen, "writing '%s': the PNG encoder failed", path);
		goto out;
	}
	if (sa_atomic_commit(&a)) {
		sa_fmt(err, errlen, "cannot write '%s'", path);
		goto out;
	}
	rc = 0;
out:
	cairo_surface_destroy(sf);
	return rc;
}

static void polyline(cairo_t *cr, const struct panel *p, size_t n, const int64_t *t, const double *y)
{
	for (size_t i = 0; i < n; i++) {
		if (i == 0)
			cairo_move_to(cr, px_x(p, (double)t[i]), px_y(p, y[i]));
		else
			cairo_line_to(cr, px_x(p, (double)t[i]), px_y(p, y[i]));
	}
}

static void draw_equity(cairo_t *cr, const struct rpt_series *eq, const struct rpt_series *bench)
{
	struct panel top = { 78, 80, CW - 24, 366, (double)eq->t[0], (double)eq->t[eq->n - 1], DBL_MAX, -DBL_MAX };
	struct panel dd = { 78, 384, CW - 24, CH - 34, top.xmin, top.xmax, 0, 0 };
	double *draw = malloc(eq->n * sizeof *draw), peak = -DBL_MAX;
	static const char *const names[] = { "net equity (after costs)", "gross equity (before costs)",
					     "buy and hold (after costs)" };
	static const struct rgb colors[] = { { 0.10, 0.30, 0.65 }, { 0.55, 0.60, 0.68 }, { 0.85, 0.50, 0.10 } };
	static const int dashed[] = { L_LINE, L_DASH, L_LINE };
	if (!draw)
		return;
	if (top.xmax <= top.xmin)
		top.xmax = dd.xmax = top.xmin + 3600;
	for (size_t i = 0; i < eq->n; i++) {
		top.ymin = fmin(top.ymin, fmin(eq->net[i], eq->gross[i]));
		top.ymax = fmax(top.ymax, fmax(eq->net[i], eq->gross[i]));
		peak = fmax(peak, eq->net[i]);
		draw[i] = peak > 0 ? eq->net[i] / peak - 1 : 0;
		dd.ymin = fmin(dd.ymin, draw[i]);
	}
	for (size_t i = 0; bench && i < bench->n; i++) {
		top.ymin = fmin(top.ymin, bench->net[i]);
		top.ymax = fmax(top.ymax, bench->net[i]);
	}
	nice_range(&top.ymin, &top.ymax, 5);
	nice_range(&dd.ymin, &dd.ymax, 2);
	dd.ymax = 0;
	y_axis(cr, &top, 5, 1, "%.2f", false);
	x_axis_dates(cr, &top, false);
	y_axis(cr, &dd, 2, 100, "%.0f%%", false);
	x_axis_dates(cr, &dd, true);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	double dash[] = { 5, 3 };
	set_rgb(cr, C_GROSS);
	cairo_set_line_width(cr, 1.6);
	cairo_set_dash(cr, dash, 2, 0);
	polyline(cr, &top, eq->n, eq->t, eq->gross);
	cairo_stroke(cr);
	cairo_set_dash(cr, NULL, 0, 0);
	if (bench) {
		set_rgb(cr, C_PSR);
		cairo_set_line_width(cr, 1.4);
		polyline(cr, &top, bench->n, bench->t, bench->net);
		cairo_stroke(cr);
	}
	set_rgb(cr, C_NET);
	cairo_set_line_width(cr, 1.8);
	polyline(cr, &top, eq->n, eq->t, eq->net);
	cairo_stroke(cr);
	cairo_move_to(cr, px_x(&dd, dd.xmin), px_y(&dd, 0));
	for (size_t i = 0; i < eq->n; i++)
		cairo_line_to(cr, px_x(&dd, (double)eq->t[i]), px_y(&dd, draw[i]));
	cairo_line_to(cr, px_x(&dd, dd.xmax), px_y(&dd, 0));
	cairo_close_path(cr);
	cairo_set_source_rgba(cr, C_DD.r, C_DD.g, C_DD.b, 0.35);
	cairo_fill_preserve(cr);
	set_rgb(cr, C_DD);
	cairo_set_line_width(cr, 1);
	cairo_stroke(cr);
	frame(cr, &top);
	frame(cr, &dd);
	legend(cr, bench ? 3 : 2, names, colors, dashed);
	set_rgb(cr, C_INK);
	cairo_save(cr);
	cairo_translate(cr, 18, (top.y0 + top.y1) / 2);
	cairo_rotate(cr, -M_PI / 2);
	text_at(cr, 0, 0, 0.5, 0.5, 12, false, "equity (start = 1)");
	cairo_restore(cr);
	cairo_save(cr);
	cairo_translate(cr, 18, (dd.y0 + dd.y1) / 2);
	cairo_rotate(cr, -M_PI / 2);
	text_at(cr, 0, 0, 0.5, 0.5, 12, false, "drawdown");
	cairo_restore(cr);
	free(draw);
}

void rpt_draw_equity(cairo_t *cr, const struct rpt_series *eq, const struct rpt_series *bench,
		     const char *why_missing)
{
	prep(cr);
	title(cr, "Equity, net and gross of costs, with net drawdown",
	      bench && bench->n >= 2 ? "time in UTC; fills at the next bar's open; buy and hold "
	      "of the same data after the same costs beside it" : "time in UTC; fills at the next bar's open");
	if (eq && eq->n >= 2)
		draw_equity(cr, eq, bench && bench->n >= 2 ? bench : NULL);
	else
		empty_note(cr, eq && eq->n ? "fewer than two equity points" : why_missing);
}

int rpt_chart_equity(const char *path, const struct rpt_series *eq, const struct rpt_series *bench,
		     const char *why_missing, char *err, size_t errlen)
{
	cairo_surface_t *sf;
	cairo_t *cr = canvas(&sf);
	rpt_draw_equity(cr, eq, bench, why_missing);
	return finish(cr, sf, path, err, errlen);
}

static void draw_hist(cairo_t *cr, const struct panel *p, const double *v, size_t n, int bins,
		      double lo, double width, bool filled, struct rgb c)
{
	int *count = calloc((size_t)bins, sizeof *count);
	if (!count)
		return;
	for (size_t i = 0; i < n; i++) {
		int b = (int)floor((v[i] - lo) / width);
		count[b < 0 ? 0 : b >= bins ? bins - 1 : b]++;
	}
	cairo_move_to(cr, px_x(p, lo), px_y(p, 0));
	for (int b = 0; b < bins; b++) {
		double x0 = px_x(p, lo + b * width), x1 = px_x(p, lo + (b + 1) * width);
		if (filled) {
			cairo_rectangle(cr, x0 + 0.5, px_y(p, count[b]), x1 - x0 - 1, px_y(p, 0) - px_y(p, count[b]));
		} else {
			cairo_line_to(cr, x0, px_y(p, count[b]));
			cairo_line_to(cr, x1, px_y(p, count[b]));
		}
	}
	if (filled) {
		cairo_set_source_rgba(cr, c.r, c.g, c.b, 0.75);
		cairo_fill(cr);
	} else {
		cairo_line_to(cr, px_x(p, lo + bins * width), px_y(p, 0));
		set_rgb(cr, c);
		cairo_set_line_width(cr, 1.6);
		cairo_stroke(cr);
	}
	free(count);
}

static int max_count(const double *v, size_t n, int bins, double lo, double width)
{
	int *count = calloc((size_t)bins, sizeof *count), m = 0;
	for (size_t i = 0; count && i < n; i++) {
		int b = (int)floor((v[i] - lo) / width);
		b = b < 0 ? 0 : b >= bins ? bins - 1 : b;
		m = ++count[b] > m ? count[b] : m;
	}
	free(count);
	return m;
}

static void draw_returns(cairo_t *cr, const struct rpt_returns *r)
{
	struct panel p = { 78, 80, CW - 24, CH - 52, DBL_MAX, -DBL_MAX, 0, 1 };
	double mean = 0;
	int bins = (int)fmin(60, fmax(10, ceil(sqrt((double)r->n) * 2)));
	static const char *const names[] = { "net return per trade", "gross return per trade",
					     "mean net return" };
	static const struct rgb colors[] = { { 0.10, 0.30, 0.65 }, { 0.55, 0.60, 0.68 }, { 0.80, 0.20, 0.18 } };
	static const int dashed[] = { L_BOX, L_LINE, L_DASH };
	for (size_t i = 0; i < r->n; i++) {
		p.xmin = fmin(p.xmin, fmin(r->net[i], r->gross[i]));
		p.xmax = fmax(p.xmax, fmax(r->net[i], r->gross[i]));
		mean += r->net[i] / (double)r->n;
	}
	p.xmin = fmin(p.xmin, 0);
	p.xmax = fmax(p.xmax, 0);
	nice_range(&p.xmin, &p.xmax, 8);
	double width = (p.xmax - p.xmin) / bins;
	p.ymax = 1.1 * fmax(max_count(r->net, r->n, bins, p.xmin, width), max_count(r->gross, r->n, bins, p.xmin, width));
	nice_range(&p.ymin, &p.ymax, 5);
	p.ymin = 0;
	y_axis(cr, &p, 5, 1, "%.0f", false);
	draw_hist(cr, &p, r->net, r->n, bins, p.xmin, width, true, C_NET);
	draw_hist(cr, &p, r->gross, r->n, bins, p.xmin, width, false, C_GROSS);
	double dash[] = { 5, 3 };
	set_rgb(cr, C_INK);
	cairo_set_line_width(cr, 1);
	cairo_move_to(cr, px_x(&p, 0), p.y0);
	cairo_line_to(cr, px_x(&p, 0), p.y1);
	cairo_stroke(cr);
	set_rgb(cr, C_DD);
	cairo_set_line_width(cr, 1.6);
	cairo_set_dash(cr, dash, 2, 0);
	cairo_move_to(cr, px_x(&p, mean), p.y0);
	cairo_line_to(cr, px_x(&p, mean), p.y1);
	cairo_stroke(cr);
	cairo_set_dash(cr, NULL, 0, 0);
	/* the axis shows percent while the data are fractions */
	struct panel pct = p;
	pct.xmin *= 100;
	pct.xmax *= 100;
	x_axis_numbers(cr, &pct, 8, "%.3g%%");
	frame(cr, &p);
	legend(cr, 3, names, colors, dashed);
	set_rgb(cr, C_INK);
	text_at(cr, (p.x0 + p.x1) / 2, CH - 20, 0.5, 0, 12, false, "return per trade");
	cairo_save(cr);
	cairo_translate(cr, 18, (p.y0 + p.y1) / 2);
	cairo_rotate(cr, -M_PI / 2);
	text_at(cr, 0, 0, 0.5, 0.5, 12, false, "trades");
	cairo_restore(cr);
}

void rpt_draw_returns(cairo_t *cr, const struct rpt_returns *r, const char *why_missing)
{
	char sub[96];
	prep(cr);
	snprintf(sub, sizeof sub, "%zu closed trades; costs move the whole distribution left", r ? r->n : 0);
	title(cr, "Distribution of trade returns", sub);
	if (r && r->n > 0)
		draw_returns(cr, r);
	else
		empty_note(cr, why_missing && why_missing[0] ? why_missing : "no closed trades");
}

int rpt_chart_returns(const char *path, const struct rpt_returns *r, const char *why_missing,
		     char *err, size_t errlen)
{
	cairo_surface_t *sf;
	cairo_t *cr = canvas(&sf);
	rpt_draw_returns(cr, r, why_missing);
	return finish(cr, sf, path, err, errlen);
}

/* Reads the (multiple, sharpe, psr) triples that are all finite; returns how many. */
static size_t cost_points(const cJSON *sens, double *m, double *s, double *q, size_t cap)
{
	size_t n = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, sens) {
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(it, "multiple");
		const cJSON *b = cJSON_GetObjectItemCaseSensitive(it, "sharpe");
		const cJSON *c = cJSON_GetObjectItemCaseSensitive(it, "psr");
		if (n < cap && cJSON_IsNumber(a) && cJSON_IsNumber(b) && isfinite(a->valuedouble) &&
		    isfinite(b->valuedouble)) {
			m[n] = a->valuedouble;
			s[n] = b->valuedouble;
			q[n] = cJSON_IsNumber(c) && isfinite(c->valuedouble) ? c->valuedouble : NAN;
			n++;
		}
	}
	return n;
}

/* The break-even multiple as a dashed red line, or an arrow at the right edge when it lies
 * beyond the drawn multiples. */
static void mark_breakeven(cairo_t *cr, const struct panel *p, double be)
{
	double dash[] = { 2, 3 }, x = px_x(p, be);
	char lab[64];

	if (!isfinite(be) || be < p->xmin)
		return;
	snprintf(lab, sizeof lab, be <= p->xmax ? "break-even %.3gx" : "break-even %.3gx ->", be);
	set_rgb(cr, C_DD);
	if (be <= p->xmax) {
		cairo_set_line_width(cr, 1.6);
		cairo_set_dash(cr, dash, 2, 0);
		cairo_move_to(cr, x, p->y0);
		cairo_line_to(cr, x, p->y1);
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0);
		text_at(cr, x - 4, p->y0 + 8, 1, 0, 12, true, lab);
	} else {
		text_at(cr, p->x1 - 6, p->y0 + 8, 1, 0, 12, true, lab);
	}
}

static void draw_costs(cairo_t *cr, const double *m, const double *s, const double *q, size_t n,
		       double breakeven)
{
	struct panel p = { 78, 80, CW - 70, CH - 52, DBL_MAX, -DBL_MAX, 0, 0 };
	static const char *const names[] = { "Sharpe ratio per trade (left)", "PSR (right, 0 to 1)",
					     "costs as configured" };
	static const struct rgb colors[] = { { 0.10, 0.30, 0.65 }, { 0.85, 0.50, 0.10 }, { 0.55, 0.57, 0.60 } };
	static const int dashed[] = { L_LINE, L_DASH, L_DASH };
	for (size_t i = 0; i < n; i++) {
		p.xmin = fmin(p.xmin, m[i]);
		p.xmax = fmax(p.xmax, m[i]);
		p.ymin = fmin(p.ymin, s[i]);
		p.ymax = fmax(p.ymax, s[i]);
	}
	/* a break-even within twice the drawn multiples is shown in place, further ones by an arrow */
	if (isfinite(breakeven) && breakeven > p.xmax && breakeven <= 2 * p.xmax)
		p.xmax = breakeven;
	nice_range(&p.xmin, &p.xmax, 6);
	nice_range(&p.ymin, &p.ymax, 5);
	struct panel r = p;
	r.ymin = 0;
	r.ymax = 1;
	y_axis(cr, &p, 5, 1, "%.3g", false);
	y_axis(cr, &r, 5, 1, "%.1f", true);
	x_axis_numbers(cr, &p, 6, "%.3gx");
	double dash[] = { 5, 3 };
	cairo_set_dash(cr, dash, 2, 0);
	cairo_set_line_width(cr, 1);
	set_rgb(cr, colors[2]);
	cairo_move_to(cr, px_x(&p, 1), p.y0);
	cairo_line_to(cr, px_x(&p, 1), p.y1);
	cairo_stroke(cr);
	if (p.ymin < 0 && p.ymax > 0) {
		set_rgb(cr, C_INK);
		cairo_move_to(cr, p.x0, px_y(&p, 0));
		cairo_line_to(cr, p.x1, px_y(&p, 0));
		cairo_stroke(cr);
	}
	set_rgb(cr, C_PSR);
	cairo_set_line_width(cr, 2);
	for (size_t i = 0, k = 0; i < n; i++) {
		if (isnan(q[i]))
			continue;
		if (k++ == 0)
			cairo_move_to(cr, px_x(&r, m[i]), px_y(&r, fmin(1, fmax(0, q[i]))));
		else
			cairo_line_to(cr, px_x(&r, m[i]), px_y(&r, fmin(1, fmax(0, q[i]))));
	}
	cairo_stroke(cr);
	cairo_set_dash(cr, NULL, 0, 0);
	set_rgb(cr, C_NET);
	cairo_set_line_width(cr, 2.2);
	for (size_t i = 0; i < n; i++)
		(i ? cairo_line_to : cairo_move_to)(cr, px_x(&p, m[i]), px_y(&p, s[i]));
	cairo_stroke(cr);
	for (size_t i = 0; i < n; i++) {
		cairo_arc(cr, px_x(&p, m[i]), px_y(&p, s[i]), 4, 0, 2 * M_PI);
		cairo_fill(cr);
	}
	mark_breakeven(cr, &p, breakeven);
	frame(cr, &p);
	legend(cr, 3, names, colors, dashed);
	set_rgb(cr, C_INK);
	text_at(cr, (p.x0 + p.x1) / 2, CH - 20, 0.5, 0, 12, false, "cost multiple (1x = fees, slippage and funding as configured)");
}

void rpt_draw_costs(cairo_t *cr, const cJSON *sens, double breakeven)
{
	double m[64], s[64], q[64];
	size_t n = cJSON_IsArray(sens) ? cost_points(sens, m, s, q, 64) : 0;
	char sub[160];

	prep(cr);
	if (isfinite(breakeven))
		snprintf(sub, sizeof sub, "how the edge survives when every cost is scaled; the mean "
			 "net trade is zero at %.3gx the configured costs", breakeven);
	else
		snprintf(sub, sizeof sub, "how the edge survives when every cost is scaled");
	title(cr, "Cost sensitivity", sub);
	if (n >= 2)
		draw_costs(cr, m, s, q, n, breakeven);
	else
		empty_note(cr, sens ? "fewer than two cost points in stats.json" : "stats.json has no cost sensitivity");
}

int rpt_chart_costs(const char *path, const cJSON *sens, double breakeven, char *err, size_t errlen)
{
	cairo_surface_t *sf;
	cairo_t *cr = canvas(&sf);
	rpt_draw_costs(cr, sens, breakeven);
	return finish(cr, sf, path, err, errlen);
}

/* Shades each run of equal, non-flat signals (px->n of them). */
static void shade_positions(cairo_t *cr, const struct panel *p, const struct sa_ohlcv *px,
			    const int8_t *sig)
{
	size_t n = px->n;
	double half = n > 1 ? (double)(px->t[n - 1] - px->t[0]) / (double)(n - 1) / 2 : 0;

	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && sig[j + 1] == sig[i])
			j++;
		if (sig[i] != 0) {
			double x0 = fmax(p->x0, px_x(p, (double)px->t[i] - half));
			double x1 = fmin(p->x1, px_x(p, (double)px->t[j] + half));
			set_rgb(cr, sig[i] > 0 ? C_LONG : C_SHORT);
			cairo_rectangle(cr, x0, p->y0, x1 - x0, p->y1 - p->y0);
			cairo_fill(cr);
		}
		i = j + 1;
	}
}

static void mark_mismatches(cairo_t *cr, const struct panel *p, const struct sa_ohlcv *px,
			    const cJSON *mismatches)
{
	const cJSON *it;
	cJSON_ArrayForEach(it, mismatches) {
		const cJSON *bar = cJSON_GetObjectItemCaseSensitive(it, "bar");
		if (!cJSON_IsNumber(bar) || bar->valuedouble < 0 || bar->valuedouble >= (double)px->n)
			continue;
		size_t i = (size_t)bar->valuedouble;
		double x = px_x(p, (double)px->t[i]), y = px_y(p, px->close[i]);
		set_rgb(cr, C_DD);
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

static void draw_signals(cairo_t *cr, const struct sa_ohlcv *px, const int8_t *sig,
			 const cJSON *mismatches)
{
	struct panel p = { 78, 80, CW - 24, CH - 52, (double)px->t[0], (double)px->t[px->n - 1], DBL_MAX, -DBL_MAX };
	static const char *const names[] = { "close price", "long", "short", "look-ahead mismatch" };
	static const struct rgb colors[] = { { 0.15, 0.16, 0.18 }, { 0.80, 0.93, 0.82 }, { 0.98, 0.84, 0.84 },
					     { 0.80, 0.20, 0.18 } };
	static const int styles[] = { L_LINE, L_BOX, L_BOX, L_LINE };
	for (size_t i = 0; i < px->n; i++) {
		p.ymin = fmin(p.ymin, px->close[i]);
		p.ymax = fmax(p.ymax, px->close[i]);
	}
	nice_range(&p.ymin, &p.ymax, 5);
	if (sig)
		shade_positions(cr, &p, px, sig);
	y_axis(cr, &p, 5, 1, "%.6g", false);
	x_axis_dates(cr, &p, true);
	set_rgb(cr, C_INK);
	cairo_set_line_width(cr, 1.2);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	polyline(cr, &p, px->n, px->t, px->close);
	cairo_stroke(cr);
	if (cJSON_IsArray(mismatches))
		mark_mismatches(cr, &p, px, mismatches);
	frame(cr, &p);
	legend(cr, 4, names, colors, styles);
	cairo_save(cr);
	cairo_translate(cr, 18, (p.y0 + p.y1) / 2);
	cairo_rotate(cr, -M_PI / 2);
	set_rgb(cr, C_INK);
	text_at(cr, 0, 0, 0.5, 0.5, 12, false, "close");
	cairo_restore(cr);
}

void rpt_draw_signals(cairo_t *cr, const struct sa_ohlcv *px, const int8_t *sig,
		      const char *why_no_signals, const cJSON *mismatches, const char *why_missing)
{
	char sub[200];

	prep(cr);
	if (sig)
		snprintf(sub, sizeof sub, "%zu signals from the full-history run; red marks where a truncated run disagreed",
			 px->n);
	else
		snprintf(sub, sizeof sub, "no positions drawn: %.150s", why_no_signals);
	title(cr, "Signals against price", sub);
	if (px && px->n >= 2)
		draw_signals(cr, px, sig, mismatches);
	else
		empty_note(cr, why_missing);
}

int rpt_chart_signals(const char *path, const struct sa_ohlcv *px, const int8_t *sig,
		     const char *why_no_signals, const cJSON *mismatches, const char *why_missing,
		     char *err, size_t errlen)
{
	cairo_surface_t *sf;
	cairo_t *cr = canvas(&sf);
	rpt_draw_signals(cr, px, sig, why_no_signals, mismatches, why_missing);
	return finish(cr, sf, path, err, errlen);
}

/* --- the tearsheet's charts -------------------------------------------------------------- */

static void y_label(cairo_t *cr, const struct panel *p, const char *s)
{
	set_rgb(cr, C_INK);
	cairo_save(cr);
	cairo_translate(cr, 18, (p->y0 + p->y1) / 2);
	cairo_rotate(cr, -M_PI / 2);
	text_at(cr, 0, 0, 0.5, 0.5, 12, false, s);
	cairo_restore(cr);
}

/* The time of an episode's field ("start", "end") as epoch seconds, or def. */
static double episode_time(const cJSON *ep, const char *key, double def)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(ep, key);
	int64_t t;

	return cJSON_IsString(v) && sa_time_parse(v->valuestring, &t) == 0 ? (double)t : def;
}

/* Shades and numbers the episodes (stats.json's drawdowns, deepest first). */
static void shade_episodes(cairo_t *cr, const struct panel *p, const cJSON *episodes)
{
	const cJSON *ep;
	int k = 0;
	char lab[16];

	cJSON_ArrayForEach(ep, episodes) {
		double a = episode_time(ep, "start", p->xmin), b = episode_time(ep, "end", p->xmax);
		double x0 = px_x(p, fmax(a, p->xmin)), x1 = px_x(p, fmin(b, p->xmax));
		cairo_set_source_rgba(cr, C_PSR.r, C_PSR.g, C_PSR.b, 0.16);
		cairo_rectangle(cr, x0, p->y0, fmax(1, x1 - x0), p->y1 - p->y0);
		cairo_fill(cr);
		snprintf(lab, sizeof lab, "%d", ++k);
		set_rgb(cr, C_INK);
		text_at(cr, (x0 + x1) / 2, p->y0 + 6, 0.5, 0, 11, true, lab);
	}
}

static void draw_underwater(cairo_t *cr, const struct rpt_series *eq, const cJSON *episodes)
{
	struct panel p = { 78, 80, CW - 24, CH - 52, (double)eq->t[0], (double)eq->t[eq->n - 1], 0, 0 };
	double *uw = malloc(eq->n * sizeof *uw), peak = 1.0;
	static const char *const names[] = { "net drawdown from the running peak",
					     "the five deepest episodes, numbered deepest first" };
	static const struct rgb colors[] = { { 0.80, 0.20, 0.18 }, { 0.96, 0.86, 0.74 } };
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
	nice_range(&p.ymin, &p.ymax, 5);
	p.ymax = 0;
	shade_episodes(cr, &p, episodes);
	y_axis(cr, &p, 5, 100, "%.1f%%", false);
	x_axis_dates(cr, &p, true);
	cairo_move_to(cr, px_x(&p, p.xmin), px_y(&p, 0));
	for (size_t i = 0; i < eq->n; i++)
		cairo_line_to(cr, px_x(&p, (double)eq->t[i]), px_y(&p, uw[i]));
	cairo_line_to(cr, px_x(&p, p.xmax), px_y(&p, 0));
	cairo_close_path(cr);
	cairo_set_source_rgba(cr, C_DD.r, C_DD.g, C_DD.b, 0.55);
	cairo_fill(cr);
	frame(cr, &p);
	legend(cr, 2, names, colors, styles);
	y_label(cr, &p, "below the peak");
	free(uw);
}

void rpt_draw_underwater(cairo_t *cr, const struct rpt_series *eq, const cJSON *episodes,
			 const char *why_missing)
{
	prep(cr);
	title(cr, "Underwater: how far below its best the net equity was",
	      "time in UTC; each shaded band runs from a peak to the bar equity first got back to it");
	if (eq && eq->n >= 2)
		draw_underwater(cr, eq, episodes);
	else
		empty_note(cr, eq && eq->n ? "fewer than two equity points" : why_missing);
}

int rpt_chart_underwater(const char *path, const struct rpt_series *eq, const cJSON *episodes,
			 const char *why_missing, char *err, size_t errlen)
{
	cairo_surface_t *sf;
	cairo_t *cr = canvas(&sf);
	rpt_draw_underwater(cr, eq, episodes, why_missing);
	return finish(cr, sf, path, err, errlen);
}

static void draw_rolling(cairo_t *cr, const int64_t *t, const double *v, size_t n, double headline)
{
	struct panel p = { 78, 80, CW - 24, CH - 52, (double)t[0], (double)t[n - 1], DBL_MAX, -DBL_MAX };
	static const char *const names[] = { "rolling Sharpe ratio (annualised)",
					     "the whole period's" };
	static const struct rgb colors[] = { { 0.10, 0.30, 0.65 }, { 0.55, 0.57, 0.60 } };
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
	nice_range(&p.ymin, &p.ymax, 5);
	y_axis(cr, &p, 5, 1, "%.3g", false);
	x_axis_dates(cr, &p, true);
	set_rgb(cr, C_INK);
	cairo_set_line_width(cr, 1);
	cairo_move_to(cr, p.x0, px_y(&p, 0));
	cairo_line_to(cr, p.x1, px_y(&p, 0));
	cairo_stroke(cr);
	if (isfinite(headline)) {
		set_rgb(cr, colors[1]);
		cairo_set_dash(cr, dash, 2, 0);
		cairo_move_to(cr, p.x0, px_y(&p, headline));
		cairo_line_to(cr, p.x1, px_y(&p, headline));
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0);
	}
	set_rgb(cr, C_NET);
	cairo_set_line_width(cr, 1.6);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(v[i])) {
			pen = false;
			continue;
		}
		(pen ? cairo_line_to : cairo_move_to)(cr, px_x(&p, (double)t[i]), px_y(&p, v[i]));
		pen = true;
	}
	cairo_stroke(cr);
	frame(cr, &p);
	legend(cr, 2, names, colors, styles);
	y_label(cr, &p, "Sharpe ratio");
}

void rpt_draw_rolling(cairo_t *cr, const int64_t *t, const double *v, size_t n, size_t window,
		      double headline, const char *why_missing)
{
	char sub[160];
	size_t defined = 0;

	prep(cr);
	snprintf(sub, sizeof sub, "per-bar net returns over the last %zu bars at each bar, times "
		 "sqrt(bars per year); time in UTC", window);
	title(cr, "Rolling Sharpe ratio", sub);
	for (size_t i = 0; v && i < n; i++)
		defined += isfinite(v[i]) != 0;
	if (v && n >= 2 && defined)
		draw_rolling(cr, t, v, n, headline);
	else
		empty_note(cr, why_missing && why_missing[0] ? why_missing : "no full window of equity");
}

int rpt_chart_rolling(const char *path, const int64_t *t, const double *v, size_t n, size_t window,
		      double headline, const char *why_missing, char *err, size_t errlen)
{
	cairo_surface_t *sf;
	cairo_t *cr = canvas(&sf);
	rpt_draw_rolling(cr, t, v, n, window, headline, why_missing);
	return finish(cr, sf, path, err, errlen);
}

/* The (delay_bars, sharpe, net_return) rows whose figures are finite; returns how many. */
static size_t delay_points(const cJSON *rows, double *d, double *s, double *r, size_t cap)
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
			r[n] = c->valuedouble;
			n++;
		}
	}
	return n;
}

static void draw_delay(cairo_t *cr, const double *d, const double *s, const double *r, size_t n)
{
	struct panel p = { 78, 80, CW - 70, CH - 52, 0, 0, DBL_MAX, -DBL_MAX };
	static const char *const names[] = { "Sharpe ratio per trade", "net return (label)" };
	static const struct rgb colors[] = { { 0.10, 0.30, 0.65 }, { 0.15, 0.16, 0.18 } };
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
	nice_range(&p.ymin, &p.ymax, 5);
	y_axis(cr, &p, 5, 1, "%.3g", false);
	set_rgb(cr, C_INK);
	for (size_t i = 0; i < n; i++) {
		snprintf(lab, sizeof lab, "t+%.0f", d[i]);
		text_at(cr, px_x(&p, d[i]), p.y1 + 8, 0.5, 0, 11, false, lab);
	}
	cairo_set_line_width(cr, 1);
	cairo_move_to(cr, p.x0, px_y(&p, 0));
	cairo_line_to(cr, p.x1, px_y(&p, 0));
	cairo_stroke(cr);
	set_rgb(cr, C_NET);
	cairo_set_line_width(cr, 2.2);
	for (size_t i = 0; i < n; i++)
		(i ? cairo_line_to : cairo_move_to)(cr, px_x(&p, d[i]), px_y(&p, s[i]));
	cairo_stroke(cr);
	for (size_t i = 0; i < n; i++) {
		set_rgb(cr, C_NET);
		cairo_arc(cr, px_x(&p, d[i]), px_y(&p, s[i]), 4, 0, 2 * M_PI);
		cairo_fill(cr);
		snprintf(lab, sizeof lab, "%+.1f %%", r[i] * 100);
		set_rgb(cr, C_INK);
		text_at(cr, px_x(&p, d[i]), px_y(&p, s[i]) - 10, 0.5, 1, 11, false, lab);
	}
	frame(cr, &p);
	legend(cr, 2, names, colors, styles);
	text_at(cr, (p.x0 + p.x1) / 2, CH - 20, 0.5, 0, 12, false,
		"fill at the open of bar t+k after the signal at bar t's close (t+1 is the audit's own)");
}

void rpt_draw_delay(cairo_t *cr, const cJSON *rows, const char *why_missing)
{
	double d[16], s[16], r[16];
	size_t n = cJSON_IsArray(rows) ? delay_points(rows, d, s, r, 16) : 0;

	prep(cr);
	title(cr, "Late fills", "the same signals filled one to four bars later, with the same costs");
	if (n >= 2)
		draw_delay(cr, d, s, r, n);
	else
		empty_note(cr, why_missing && why_missing[0] ? why_missing : "stats.json has no delay sensitivity");
}

int rpt_chart_delay(const char *path, const cJSON *rows, const char *why_missing, char *err,
		    size_t errlen)
{
	cairo_surface_t *sf;
	cairo_t *cr = canvas(&sf);
	rpt_draw_delay(cr, rows, why_missing);
	return finish(cr, sf, path, err, errlen);
}

static void draw_reconcile(cairo_t *cr, const struct rpt_series *a, const struct rpt_series *b)
{
	struct panel p = { 78, 80, CW - 24, CH - 34, DBL_MAX, -DBL_MAX, DBL_MAX, -DBL_MAX };
	static const char *const names[] = { "claimed by the trade log", "replayed from the code" };
	static const struct rgb colors[] = { { 0.80, 0.20, 0.18 }, { 0.10, 0.30, 0.65 } };
	static const int dashed[] = { L_DASH, L_LINE };
	const struct rpt_series *s[2] = { a, b };
	double dash[] = { 5, 3 };

	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < s[k]->n; i++) {
			p.xmin = fmin(p.xmin, (double)s[k]->t[i]);
			p.xmax = fmax(p.xmax, (double)s[k]->t[i]);
			p.ymin = fmin(p.ymin, s[k]->net[i]);
			p.ymax = fmax(p.ymax, s[k]->net[i]);
		}
	if (p.xmax <= p.xmin)
		p.xmax = p.xmin + 3600;
	nice_range(&p.ymin, &p.ymax, 5);
	y_axis(cr, &p, 5, 1, "%.2f", false);
	x_axis_dates(cr, &p, true);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	for (int k = 0; k < 2; k++) {
		set_rgb(cr, colors[k]);
		cairo_set_line_width(cr, 1.8);
		cairo_set_dash(cr, dashed[k] == L_DASH ? dash : NULL, dashed[k] == L_DASH ? 2 : 0, 0);
		polyline(cr, &p, s[k]->n, s[k]->t, s[k]->net);
		cairo_stroke(cr);
	}
	cairo_set_dash(cr, NULL, 0, 0);
	frame(cr, &p);
	legend(cr, 2, names, colors, dashed);
}

int rpt_chart_reconcile(const char *path, const struct rpt_series *claimed,
			const struct rpt_series *replayed, char *err, size_t errlen)
{
	cairo_surface_t *sf;
	cairo_t *cr = canvas(&sf);

	title(cr, "The log against the code: net equity, compounded",
	      "the log's claimed returns and the code's replay, each applied to the equity at entry");
	if (claimed->n >= 2 || replayed->n >= 2)
		draw_reconcile(cr, claimed, replayed);
	else
		empty_note(cr, "no trades on either side");
	return finish(cr, sf, path, err, errlen);
}

/* --- robustness --------------------------------------------------------------------------- */

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
	struct panel p = { 78, 80, CW - 24, CH - 52, real, real, 0, 1 };
	int bins = (int)fmin(40, fmax(10, ceil(sqrt((double)n) * 2)));
	static const char *const names[] = { "Sharpe ratio on permuted bars", "the real Sharpe ratio" };
	static const struct rgb colors[] = { { 0.55, 0.60, 0.68 }, { 0.80, 0.20, 0.18 } };
	static const int style[] = { L_BOX, L_LINE };

	for (size_t i = 0; i < n; i++) {
		p.xmin = fmin(p.xmin, v[i]);
		p.xmax = fmax(p.xmax, v[i]);
	}
	if (p.xmax - p.xmin < 1e-9) {
		p.xmin -= 0.5;
		p.xmax += 0.5;
	}
	nice_range(&p.xmin, &p.xmax, 8);
	double width = (p.xmax - p.xmin) / bins;
	p.ymax = 1.1 * max_count(v, n, bins, p.xmin, width);
	nice_range(&p.ymin, &p.ymax, 5);
	p.ymin = 0;
	y_axis(cr, &p, 5, 1, "%.0f", false);
	draw_hist(cr, &p, v, n, bins, p.xmin, width, true, colors[0]);
	set_rgb(cr, colors[1]);
	cairo_set_line_width(cr, 2.4);
	cairo_move_to(cr, px_x(&p, real), p.y0);
	cairo_line_to(cr, px_x(&p, real), p.y1);
	cairo_stroke(cr);
	x_axis_numbers(cr, &p, 8, "%.3g");
	frame(cr, &p);
	legend(cr, 2, names, colors, style);
	set_rgb(cr, C_INK);
	text_at(cr, (p.x0 + p.x1) / 2, CH - 20, 0.5, 0, 12, false, "per-trade net Sharpe ratio");
	cairo_save(cr);
	cairo_translate(cr, 18, (p.y0 + p.y1) / 2);
	cairo_rotate(cr, -M_PI / 2);
	text_at(cr, 0, 0, 0.5, 0.5, 12, false, "permuted runs");
	cairo_restore(cr);
}

int rpt_chart_permutation(const char *path, const cJSON *perm, const char *why_missing,
			  char *err, size_t errlen)
{
	cairo_surface_t *sf;
	cairo_t *cr = canvas(&sf);
	const cJSON *real = cJSON_GetObjectItemCaseSensitive(perm, "real_sharpe");
	const cJSON *pv = cJSON_GetObjectItemCaseSensitive(perm, "p_value");
	size_t n = 0;
	double *v = json_numbers(cJSON_GetObjectItemCaseSensitive(perm, "null_sharpes"), &n);
	char sub[128];

	if (cJSON_IsNumber(pv))
		snprintf(sub, sizeof sub, "%zu runs on the bar returns shuffled; p = %.3f", n, pv->valuedouble);
	else
		snprintf(sub, sizeof sub, "%zu runs on the bar returns shuffled", n);
	title(cr, "Permutation test: the real Sharpe ratio against shuffled bars", sub);
	if (v && n > 0 && cJSON_IsNumber(real) && isfinite(real->valuedouble))
		draw_permutation(cr, v, n, real->valuedouble);
	else
		empty_note(cr, why_missing && why_missing[0] ? why_missing : "the permutation test did not run");
	free(v);
	return finish(cr, sf, path, err, errlen);
}

/* One row a warm-up offset; each span of tail bars whose signal differs from the full run's is
 * a red bar on its row. */
static void draw_warmup(cairo_t *cr, const cJSON *runs, double first, double last)
{
	struct panel p = { 120, 80, CW - 24, CH - 52, first, last + 1, 0, 1 };
	int rows = cJSON_GetArraySize(runs), r = 0;
	const cJSON *run, *span;
	char label[48];

	cJSON_ArrayForEach(run, runs) {
		double y0 = p.y0 + (p.y1 - p.y0) * r / rows, y1 = p.y0 + (p.y1 - p.y0) * (r + 1) / rows;
		const cJSON *pct = cJSON_GetObjectItemCaseSensitive(run, "percent");
		const cJSON *dis = cJSON_GetObjectItemCaseSensitive(run, "disagreement");

		/* green where the run agrees with the full run, grey where it could not be compared */
		if (cJSON_IsNumber(dis))
			set_rgb(cr, C_LONG);
		else
			set_rgb(cr, C_GRID);
		cairo_rectangle(cr, p.x0, y0 + 6, p.x1 - p.x0, y1 - y0 - 12);
		cairo_fill(cr);
		set_rgb(cr, C_DD);
		cJSON_ArrayForEach(span, cJSON_GetObjectItemCaseSensitive(run, "spans")) {
			const cJSON *a = cJSON_GetArrayItem(span, 0), *b = cJSON_GetArrayItem(span, 1);
			if (!cJSON_IsNumber(a) || !cJSON_IsNumber(b))
				continue;
			double xa = px_x(&p, fmax(first, a->valuedouble));
			double xb = px_x(&p, fmin(last + 1, b->valuedouble + 1));
			cairo_rectangle(cr, xa, y0 + 6, fmax(1, xb - xa), y1 - y0 - 12);
		}
		cairo_fill(cr);
		set_rgb(cr, C_INK);
		snprintf(label, sizeof label, "start %d %%", cJSON_IsNumber(pct) ? pct->valueint : 0);
		text_at(cr, p.x0 - 8, (y0 + y1) / 2 - 7, 1, 0.5, 12, true, label);
		if (cJSON_IsNumber(dis))
			snprintf(label, sizeof label, "%.2f %% differ", dis->valuedouble * 100);
		else
			snprintf(label, sizeof label, "run failed");
		text_at(cr, p.x0 - 8, (y0 + y1) / 2 + 9, 1, 0.5, 11, false, label);
		r++;
	}
	x_axis_numbers(cr, &p, 8, "%.0f");
	frame(cr, &p);
	set_rgb(cr, C_INK);
	text_at(cr, (p.x0 + p.x1) / 2, CH - 20, 0.5, 0, 12, false, "bar of the compared tail");
}

int rpt_chart_warmup(const char *path, const cJSON *warm, const char *why_missing, char *err,
		     size_t errlen)
{
	cairo_surface_t *sf;
	cairo_t *cr = canvas(&sf);
	const cJSON *runs = cJSON_GetObjectItemCaseSensitive(warm, "runs");
	const cJSON *ts = cJSON_GetObjectItemCaseSensitive(warm, "tail_start");
	const cJSON *cb = cJSON_GetObjectItemCaseSensitive(warm, "compared_bars");

	title(cr, "Warm-up: where signals started later in history differ from the full run",
	      "each row a later start: green where its signal on the last bars agrees, red where it differs");
	if (cJSON_IsArray(runs) && cJSON_GetArraySize(runs) > 0 && cJSON_IsNumber(ts) &&
	    cJSON_IsNumber(cb) && cb->valuedouble >= 1)
		draw_warmup(cr, runs, ts->valuedouble, ts->valuedouble + cb->valuedouble - 1);
	else
		empty_note(cr, why_missing && why_missing[0] ? why_missing : "the warm-up check did not run");
	return finish(cr, sf, path, err, errlen);
}

void rpt_chart_cleanup(void)
{
	cairo_debug_reset_static_data();
	FcFini();
}

/* A dashed or solid horizontal marker across panel p at y, labelled at the right end. */
static void h_marker(cairo_t *cr, const struct panel *p, double y, struct rgb c, bool dashed,
		     const char *label)
{
	double dash[] = { 6, 4 };

	if (!isfinite(y) || y < p->ymin || y > p->ymax)
		return;
	set_rgb(cr, c);
	cairo_set_line_width(cr, 2);
	cairo_set_dash(cr, dash, dashed ? 2 : 0, 0);
	cairo_move_to(cr, p->x0, px_y(p, y));
	cairo_line_to(cr, p->x1, px_y(p, y));
	cairo_stroke(cr);
	cairo_set_dash(cr, NULL, 0, 0);
	text_at(cr, p->x1 - 6, px_y(p, y) - 4, 1, 1, 11, true, label);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void draw_variants(cairo_t *cr, double *sr, size_t n, double audited, double sr0)
{
	struct panel p = { 78, 80, CW - 24, CH - 52, 0, (double)n, DBL_MAX, -DBL_MAX };
	static const char *const names[] = { "variants, sorted", "the audited strategy", "SR0: the best of them by luck alone" };
	static const struct rgb colors[] = { { 0.55, 0.60, 0.68 }, { 0.10, 0.30, 0.65 }, { 0.80, 0.20, 0.18 } };
	static const int style[] = { L_BOX, L_LINE, L_DASH };
	char lab[64];

	qsort(sr, n, sizeof *sr, cmp_double);
	for (size_t i = 0; i < n; i++) {
		p.ymin = fmin(p.ymin, sr[i]);
		p.ymax = fmax(p.ymax, sr[i]);
	}
	p.ymin = fmin(fmin(p.ymin, 0), isfinite(audited) ? audited : 0);
	p.ymax = fmax(fmax(p.ymax, isfinite(audited) ? audited : 0), isfinite(sr0) ? sr0 : 0);
	nice_range(&p.ymin, &p.ymax, 5);
	y_axis(cr, &p, 5, 1, "%.3g", false);
	set_rgb(cr, colors[0]);
	for (size_t i = 0; i < n; i++) {
		double x0 = px_x(&p, (double)i), x1 = px_x(&p, (double)i + 1), y0 = px_y(&p, 0);

		cairo_rectangle(cr, x0 + 0.5, fmin(y0, px_y(&p, sr[i])), fmax(1, x1 - x0 - 1),
				fabs(px_y(&p, sr[i]) - y0));
	}
	cairo_fill(cr);
	set_rgb(cr, C_INK);
	cairo_set_line_width(cr, 1);
	cairo_move_to(cr, p.x0, px_y(&p, 0));
	cairo_line_to(cr, p.x1, px_y(&p, 0));
	cairo_stroke(cr);
	snprintf(lab, sizeof lab, "audited %.3f", audited);
	h_marker(cr, &p, audited, colors[1], false, lab);
	snprintf(lab, sizeof lab, "SR0 %.3f", sr0);
	h_marker(cr, &p, sr0, colors[2], true, lab);
	frame(cr, &p);
	legend(cr, 3, names, colors, style);
	set_rgb(cr, C_INK);
	text_at(cr, (p.x0 + p.x1) / 2, CH - 20, 0.5, 0, 12, false, "declared variants that ran, from the lowest Sharpe ratio per trade to the highest");
}

int rpt_chart_variants(const char *path, const double *sharpe, size_t n, double audited,
		       double sr0, const char *why_missing, char *err, size_t errlen)
{
	cairo_surface_t *sf;
	cairo_t *cr = canvas(&sf);
	double *sr = n ? malloc(n * sizeof *sr) : NULL;

	title(cr, "The variant family", "each declared variant's Sharpe ratio per trade, the audited strategy and SR0");
	if (sr) {
		memcpy(sr, sharpe, n * sizeof *sr);
		draw_variants(cr, sr, n, audited, sr0);
	} else {
		empty_note(cr, why_missing);
	}
	free(sr);
	return finish(cr, sf, path, err, errlen);
}

static void draw_pbo(cairo_t *cr, const cJSON *pbo)
{
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(pbo, "logit_histogram");
	const cJSON *counts = cJSON_GetObjectItemCaseSensitive(h, "counts"), *c;
	double lo = sa_json_num(h, "lo", -1), hi = sa_json_num(h, "hi", 1), top = 1;
	int bins = cJSON_GetArraySize(counts), b = 0;
	struct panel p = { 78, 80, CW - 24, CH - 52, lo, hi, 0, 1 };
	double width = (hi - lo) / (bins ? bins : 1);
	char lab[96];

	cJSON_ArrayForEach(c, counts)
		top = fmax(top, cJSON_IsNumber(c) ? c->valuedouble : 0);
	p.ymax = top;
	nice_range(&p.ymin, &p.ymax, 5);
	p.ymin = 0;
	y_axis(cr, &p, 5, 1, "%.0f", false);
	x_axis_numbers(cr, &p, 8, "%.2g");
	cJSON_ArrayForEach(c, counts) {
		double x0 = px_x(&p, lo + b * width), x1 = px_x(&p, lo + (b + 1) * width);
		double y = cJSON_IsNumber(c) ? c->valuedouble : 0;
		struct rgb col = lo + (b + 0.5) * width <= 0 ? C_DD : C_NET;

		cairo_set_source_rgba(cr, col.r, col.g, col.b, 0.75);
		cairo_rectangle(cr, x0 + 0.5, px_y(&p, y), x1 - x0 - 1, px_y(&p, 0) - px_y(&p, y));
		cairo_fill(cr);
		b++;
	}
	set_rgb(cr, C_INK);
	cairo_set_line_width(cr, 1.5);
	cairo_move_to(cr, px_x(&p, 0), p.y0);
	cairo_line_to(cr, px_x(&p, 0), p.y1);
	cairo_stroke(cr);
	snprintf(lab, sizeof lab, "PBO %.2f: the share of splits left of 0", sa_json_num(pbo, "value", NAN));
	text_at(cr, px_x(&p, 0) - 8, p.y0 + 8, 1, 0, 13, true, lab);
	frame(cr, &p);
	text_at(cr, (p.x0 + p.x1) / 2, CH - 20, 0.5, 0, 12, false, "logit of the in-sample best's out-of-sample rank (left of 0: at or below the median)");
}

int rpt_chart_pbo(const char *path, const cJSON *pbo, const char *why_missing, char *err,
		  size_t errlen)
{
	cairo_surface_t *sf;
	cairo_t *cr = canvas(&sf);

	title(cr, "Probability of backtest overfitting", "CSCV: how the in-sample best ranked out of sample, over every split");
	if (cJSON_IsObject(pbo))
		draw_pbo(cr, pbo);
	else
		empty_note(cr, why_missing);
	return finish(cr, sf, path, err, errlen);
}
