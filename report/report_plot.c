/* report_plot.c - the plotting kit of the report's charts: fixed page, font and palette,
 * panels and axes, legends and notes, a histogram, and a PNG writer with one fixed filter. */
#include <fontconfig/fontconfig.h>
#include <cairo.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "jsonio.h"
#include "msg.h"
#include "report_chart.h"
#include "report_plot.h"
#include "report_png.h"
#include "timeutil.h"

const struct rpt_rgb RPT_NET = { 0.10, 0.30, 0.65 }, RPT_GROSS = { 0.55, 0.60, 0.68 },
			RPT_DD = { 0.80, 0.20, 0.18 }, RPT_GRID = { 0.88, 0.89, 0.91 },
			RPT_INK = { 0.15, 0.16, 0.18 }, RPT_LONG = { 0.80, 0.93, 0.82 },
			RPT_SHORT = { 0.98, 0.84, 0.84 }, RPT_PSR = { 0.85, 0.50, 0.10 };

double rpt_px_x(const struct rpt_panel *p, double x)
{
	return p->x0 + (x - p->xmin) / (p->xmax - p->xmin) * (p->x1 - p->x0);
}

double rpt_px_y(const struct rpt_panel *p, double y)
{
	return p->y1 - (y - p->ymin) / (p->ymax - p->ymin) * (p->y1 - p->y0);
}

void rpt_set_rgb(cairo_t *cr, struct rpt_rgb c)
{
	cairo_set_source_rgb(cr, c.r, c.g, c.b);
}

/* Fixed font options: no hinting and grey antialiasing, so the local fontconfig settings do not
 * change the pixels; a white CW x CH page under the chart. */
void rpt_prep(cairo_t *cr)
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

cairo_t *rpt_canvas(cairo_surface_t **sf)
{
	*sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)(CW * DENSITY), (int)(CH * DENSITY));
	cairo_t *cr = cairo_create(*sf);
	cairo_scale(cr, DENSITY, DENSITY);
	rpt_prep(cr);
	return cr;
}

/* Text anchored by ax (0 left, 0.5 centre, 1 right) and ay (0 top, 0.5 middle, 1 baseline). */
void rpt_text_at(cairo_t *cr, double x, double y, double ax, double ay, double size, bool bold,
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

void rpt_title(cairo_t *cr, const char *main, const char *sub)
{
	rpt_set_rgb(cr, RPT_INK);
	rpt_text_at(cr, 24, 16, 0, 0, 17, true, main);
	if (sub) {
		cairo_set_source_rgb(cr, 0.40, 0.42, 0.46);
		rpt_text_at(cr, 24, 38, 0, 0, 12, false, sub);
	}
}

/* A step of 1, 2 or 5 times a power of ten giving about n intervals over range. */
static double nice_step(double range, int n)
{
	double raw = range / n, mag = pow(10, floor(log10(raw))), f = raw / mag;
	return mag * (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10);
}

/* Widens [lo, hi] to whole steps and a non-empty range. */
void rpt_nice_range(double *lo, double *hi, int n)
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

void rpt_frame(cairo_t *cr, const struct rpt_panel *p)
{
	cairo_set_line_width(cr, 1);
	cairo_set_source_rgb(cr, 0.55, 0.57, 0.60);
	cairo_rectangle(cr, p->x0, p->y0, p->x1 - p->x0, p->y1 - p->y0);
	cairo_stroke(cr);
}

/* Horizontal grid lines and y labels; fmt formats value * scale. */
void rpt_y_axis(cairo_t *cr, const struct rpt_panel *p, int n, double scale, const char *fmt, bool right)
{
	double st = nice_step(p->ymax - p->ymin, n);
	char lab[32];
	for (double v = ceil(p->ymin / st - 1e-9) * st; v <= p->ymax + st * 1e-9; v += st) {
		double y = rpt_px_y(p, v);
		if (!right) {
			rpt_set_rgb(cr, RPT_GRID);
			cairo_set_line_width(cr, 0.8);
			cairo_move_to(cr, p->x0, y);
			cairo_line_to(cr, p->x1, y);
			cairo_stroke(cr);
		}
		rpt_set_rgb(cr, RPT_INK);
		snprintf(lab, sizeof lab, fmt, fabs(v) < st * 1e-6 ? 0.0 : v * scale);
		if (right)
			rpt_text_at(cr, p->x1 + 6, y, 0, 0.5, 11, false, lab);
		else
			rpt_text_at(cr, p->x0 - 6, y, 1, 0.5, 11, false, lab);
	}
}

void rpt_y_axis_log(cairo_t *cr, const struct rpt_panel *p)
{
	static const double steps[3] = { 1, 2, 5 };
	int per = p->ymax - p->ymin > 4 ? 1 : 3;  /* too many decades: the powers alone */
	char lab[32];

	for (int e = (int)floor(p->ymin); e <= (int)ceil(p->ymax); e++)
		for (int k = 0; k < per; k++) {
			double v = steps[k] * pow(10, e), y = log10(v);

			if (y < p->ymin || y > p->ymax)
				continue;
			rpt_set_rgb(cr, RPT_GRID);
			cairo_set_line_width(cr, k ? 0.5 : 0.8);
			cairo_move_to(cr, p->x0, rpt_px_y(p, y));
			cairo_line_to(cr, p->x1, rpt_px_y(p, y));
			cairo_stroke(cr);
			rpt_set_rgb(cr, RPT_INK);
			snprintf(lab, sizeof lab, v < 1 ? "%.2g" : "%.0f", v);
			rpt_text_at(cr, p->x0 - 6, rpt_px_y(p, y), 1, 0.5, 11, false, lab);
		}
}

void rpt_x_axis_numbers(cairo_t *cr, const struct rpt_panel *p, int n, const char *fmt)
{
	double st = nice_step(p->xmax - p->xmin, n);
	char lab[32];
	rpt_set_rgb(cr, RPT_INK);
	for (double v = ceil(p->xmin / st - 1e-9) * st; v <= p->xmax + st * 1e-9; v += st) {
		snprintf(lab, sizeof lab, fmt, fabs(v) < st * 1e-6 ? 0.0 : v);
		rpt_text_at(cr, rpt_px_x(p, v), p->y1 + 8, 0.5, 0, 11, false, lab);
	}
}

/* One date tick: a grid line at t, with its label when labels is set. */
static void date_tick(cairo_t *cr, const struct rpt_panel *p, double t, bool labels, bool hours)
{
	double x = rpt_px_x(p, t);
	char iso[21], lab[21];

	rpt_set_rgb(cr, RPT_GRID);
	cairo_set_line_width(cr, 0.8);
	cairo_move_to(cr, x, p->y0);
	cairo_line_to(cr, x, p->y1);
	cairo_stroke(cr);
	if (!labels)
		return;
	sa_time_format((int64_t)t, iso);
	snprintf(lab, sizeof lab, hours ? "%.10s %.5s" : "%.10s", iso, iso + 11);
	rpt_set_rgb(cr, RPT_INK);
	rpt_text_at(cr, x, p->y1 + 8, 0.5, 0, 11, false, lab);
}

/* The first of month m (months since year 0, UTC) in seconds since the epoch. */
static double month_start(long m)
{
	struct tm tm = { .tm_year = (int)(m / 12) - 1900, .tm_mon = (int)(m % 12), .tm_mday = 1 };

	return (double)timegm(&tm);
}

/* Ticks on the first of every step-th month (January, April, July and October for three). */
static void month_ticks(cairo_t *cr, const struct rpt_panel *p, int step, bool labels)
{
	time_t t0 = (time_t)p->xmin;
	struct tm tm;
	long m;

	gmtime_r(&t0, &tm);
	m = (long)(tm.tm_year + 1900) * 12 + tm.tm_mon;
	m += (step - m % step) % step;
	for (; month_start(m) <= p->xmax; m += step)
		if (month_start(m) >= p->xmin)
			date_tick(cr, p, month_start(m), labels, false);
}

/* Date ticks on calendar boundaries, labelled YYYY-MM-DD (with the time under two days): whole
 * hours, midnights, Mondays for weeks, the first of a month for months and years; UTC. */
void rpt_x_axis_dates(cairo_t *cr, const struct rpt_panel *p, bool labels)
{
	static const double steps[] = { 3600, 6 * 3600, 86400, 2 * 86400, 7 * 86400, 14 * 86400 };
	static const int months[] = { 1, 2, 3, 6, 12, 24, 60 };
	/* 1970-01-05, the first Monday after the epoch, anchors the weekly ticks */
	const double monday = 4 * 86400.0;
	double span = p->xmax - p->xmin;

	if (span / (14 * 86400) > 7) {
		size_t i = 0;
		while (i + 1 < sizeof months / sizeof months[0] && span / (months[i] * 30.44 * 86400) > 7)
			i++;
		month_ticks(cr, p, months[i], labels);
		return;
	}
	double st = steps[0];
	for (size_t i = 0; i < sizeof steps / sizeof steps[0] && span / st > 7; i++)
		st = steps[i];
	double base = st >= 7 * 86400 ? monday : 0;
	for (double v = base + ceil((p->xmin - base) / st) * st; v <= p->xmax; v += st)
		date_tick(cr, p, v, labels, st < 86400);
}

/* One row of legend entries under the subtitle, above the plot, so it never hides data. */
void rpt_legend(cairo_t *cr, int n, const char *const *names, const struct rpt_rgb *colors,
		   const int *style)
{
	double x = 78, y = 62;
	cairo_text_extents_t te;
	for (int i = 0; i < n; i++) {
		double dash[] = { 5, 3 };
		rpt_set_rgb(cr, colors[i]);
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
		rpt_set_rgb(cr, RPT_INK);
		rpt_text_at(cr, x + 28, y, 0, 0.5, 12, false, names[i]);
		cairo_text_extents(cr, names[i], &te);
		x += 28 + te.x_advance + 22;
	}
}

void rpt_empty_note(cairo_t *cr, const char *why)
{
	char msg[320];
	snprintf(msg, sizeof msg, "Not drawn: %s", why && why[0] ? why : "no data");
	cairo_set_source_rgb(cr, 0.96, 0.96, 0.97);
	cairo_rectangle(cr, 24, 80, CW - 48, CH - 110);
	cairo_fill(cr);
	rpt_set_rgb(cr, RPT_INK);
	rpt_text_at(cr, CW / 2, CH / 2, 0.5, 0.5, 15, false, msg);
}

/* Writes the surface atomically and frees cr and sf whatever happens. */
int rpt_finish(cairo_t *cr, cairo_surface_t *sf, const char *path, char *err, size_t errlen)
{
	struct sa_atomic a = { 0 };
	int rc = -1;
	cairo_status_t st = cairo_status(cr);
	cairo_destroy(cr);
	if (st != CAIRO_STATUS_SUCCESS) {
		sa_fmt(err, errlen, "drawing '%s': %s", path, cairo_status_to_string(st));
		goto out;
	}
	if (sa_atomic_open(&a, path, err, errlen))
		goto out;
	if (rpt_png_write(a.fp, sf) < 0) {
		sa_atomic_abort(&a);
		sa_fmt(err, errlen, "writing '%s': the PNG encoder failed", path);
		goto out;
	}
	if (sa_atomic_commit(&a, err, errlen))
		goto out;
	rc = 0;
out:
	cairo_surface_destroy(sf);
	return rc;
}

void rpt_y_label(cairo_t *cr, const struct rpt_panel *p, const char *s)
{
	rpt_set_rgb(cr, RPT_INK);
	cairo_save(cr);
	cairo_translate(cr, 18, (p->y0 + p->y1) / 2);
	cairo_rotate(cr, -M_PI / 2);
	rpt_text_at(cr, 0, 0, 0.5, 0.5, 12, false, s);
	cairo_restore(cr);
}

void rpt_polyline(cairo_t *cr, const struct rpt_panel *p, size_t n, const int64_t *t, const double *y)
{
	for (size_t i = 0; i < n; i++) {
		if (i == 0)
			cairo_move_to(cr, rpt_px_x(p, (double)t[i]), rpt_px_y(p, y[i]));
		else
			cairo_line_to(cr, rpt_px_x(p, (double)t[i]), rpt_px_y(p, y[i]));
	}
}

void rpt_draw_hist(cairo_t *cr, const struct rpt_panel *p, const double *v, size_t n, int bins,
		      double lo, double width, bool filled, struct rpt_rgb c)
{
	int *count = calloc((size_t)bins, sizeof *count);
	if (!count)
		return;
	for (size_t i = 0; i < n; i++) {
		int b = (int)floor((v[i] - lo) / width);
		count[b < 0 ? 0 : b >= bins ? bins - 1 : b]++;
	}
	cairo_move_to(cr, rpt_px_x(p, lo), rpt_px_y(p, 0));
	for (int b = 0; b < bins; b++) {
		double x0 = rpt_px_x(p, lo + b * width), x1 = rpt_px_x(p, lo + (b + 1) * width);
		if (filled) {
			cairo_rectangle(cr, x0 + 0.5, rpt_px_y(p, count[b]), x1 - x0 - 1, rpt_px_y(p, 0) - rpt_px_y(p, count[b]));
		} else {
			cairo_line_to(cr, x0, rpt_px_y(p, count[b]));
			cairo_line_to(cr, x1, rpt_px_y(p, count[b]));
		}
	}
	if (filled) {
		cairo_set_source_rgba(cr, c.r, c.g, c.b, 0.75);
		cairo_fill(cr);
	} else {
		cairo_line_to(cr, rpt_px_x(p, lo + bins * width), rpt_px_y(p, 0));
		rpt_set_rgb(cr, c);
		cairo_set_line_width(cr, 1.6);
		cairo_stroke(cr);
	}
	free(count);
}

int rpt_max_count(const double *v, size_t n, int bins, double lo, double width)
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

void rpt_chart_cleanup(void)
{
	cairo_debug_reset_static_data();
	FcFini();
}
