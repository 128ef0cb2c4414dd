/* report_plot.h - inside the report room: the plotting kit every chart is drawn with (a fixed
 * page, font and palette, axes, legends, and the PNG writer), so the same data always gives
 * the same bytes. */
#ifndef RPT_PLOT_H
#define RPT_PLOT_H

#include <cairo.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report_chart.h"

/* Logical size in CSS pixels; drawn at twice the density so a printout stays sharp. */
#define CW RPT_CHART_WIDTH
#define CH RPT_CHART_HEIGHT
#define DENSITY 2.0
#define FONT "DejaVu Sans"

struct rpt_rgb {
	double r, g, b;
};
extern const struct rpt_rgb RPT_NET, RPT_GROSS, RPT_DD, RPT_GRID, RPT_INK, RPT_LONG, RPT_SHORT, RPT_PSR;

/* A plot area in logical pixels and the data range it shows. */
struct rpt_panel {
	double x0, y0, x1, y1;
	double xmin, xmax, ymin, ymax;
};

/* Legend entry styles. */
enum { L_LINE, L_DASH, L_BOX };

double rpt_px_x(const struct rpt_panel *p, double x);

double rpt_px_y(const struct rpt_panel *p, double y);

void rpt_set_rgb(cairo_t *cr, struct rpt_rgb c);

/* Fixed font options: no hinting and grey antialiasing, so the local fontconfig settings do not
 * change the pixels; a white CW x CH page under the chart. */
void rpt_prep(cairo_t *cr);

cairo_t *rpt_canvas(cairo_surface_t **sf);

/* Text anchored by ax (0 left, 0.5 centre, 1 right) and ay (0 top, 0.5 middle, 1 baseline). */
void rpt_text_at(cairo_t *cr, double x, double y, double ax, double ay, double size, bool bold,
		    const char *s);

void rpt_title(cairo_t *cr, const char *main, const char *sub);

/* Widens [lo, hi] to whole steps and a non-empty range. */
void rpt_nice_range(double *lo, double *hi, int n);

void rpt_frame(cairo_t *cr, const struct rpt_panel *p);

/* Horizontal grid lines and y labels; fmt formats value * scale. */
void rpt_y_axis(cairo_t *cr, const struct rpt_panel *p, int n, double scale, const char *fmt, bool right);

/* Grid lines and labels of a log axis: the panel's y range is in log10 units, the ticks at 1, 2
 * and 5 times each power of ten inside it (the powers alone when that gives too many),
 * labelled with the values themselves. */
void rpt_y_axis_log(cairo_t *cr, const struct rpt_panel *p);

void rpt_x_axis_numbers(cairo_t *cr, const struct rpt_panel *p, int n, const char *fmt);

/* Date ticks at whole days, weeks or months, labelled YYYY-MM-DD; the times are UTC. */
void rpt_x_axis_dates(cairo_t *cr, const struct rpt_panel *p, bool labels);

/* One row of legend entries under the subtitle, above the plot, so it never hides data. */
void rpt_legend(cairo_t *cr, int n, const char *const *names, const struct rpt_rgb *colors,
		   const int *style);

void rpt_empty_note(cairo_t *cr, const char *why);

/* Writes the surface atomically and frees cr and sf whatever happens. */
int rpt_finish(cairo_t *cr, cairo_surface_t *sf, const char *path, char *err, size_t errlen);

void rpt_polyline(cairo_t *cr, const struct rpt_panel *p, size_t n, const int64_t *t, const double *y);

void rpt_draw_hist(cairo_t *cr, const struct rpt_panel *p, const double *v, size_t n, int bins,
		      double lo, double width, bool filled, struct rpt_rgb c);

int rpt_max_count(const double *v, size_t n, int bins, double lo, double width);

void rpt_chart_cleanup(void);

/* A y-axis label, rotated, centred on the panel at the page's left edge. */
void rpt_y_label(cairo_t *cr, const struct rpt_panel *p, const char *s);

#endif
