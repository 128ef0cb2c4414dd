/* report_pdf_draw.h - the PDF's flowing writer: headings, wrapped paragraphs, tables and charts
 * laid down one after another on A4 pages, a new page only when the next piece does not fit. */
#ifndef RPT_PDF_DRAW_H
#define RPT_PDF_DRAW_H

#include <cairo.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "report_columns.h"
#include "report_input.h"
#include "report_tearsheet.h"

/* A4 in points, and the text block inside the margins. */
#define RPT_PW 595.28
#define RPT_PH 841.89
#define RPT_MX 42.0
#define RPT_TOP 48.0
#define RPT_BOTTOM (RPT_PH - 52.0)
#define RPT_TW (RPT_PW - 2 * RPT_MX)

/* Where the writer is: the page being drawn and how far down it. name and dir are borrowed. */
struct rpt_pdf {
	cairo_t *cr;
	double y;
	int page;
	const char *name;
	const char *dir;    /* the audit directory the PNG charts are read from */
	double indent;      /* paragraphs start this far in from both margins */
};


/* The model's string at key, or "" (obj and the result are borrowed). */
const char *rpt_pdf_str(const cJSON *obj, const char *key);
/* The model's item at key, or NULL when obj is not an object. */
const cJSON *rpt_pdf_get(const cJSON *obj, const char *key);

/* Closes the page with its footer and opens the next. */
void rpt_pdf_new_page(struct rpt_pdf *p);
/* Draws the footer of the page being drawn. */
void rpt_pdf_footer(struct rpt_pdf *p);
/* A section heading (level 1) or a sub-heading (level 2), kept with the lines after it. */
void rpt_pdf_heading(struct rpt_pdf *p, const char *text, int level);
/* A wrapped paragraph at size points; it breaks across pages line by line. grey for notes. */
void rpt_pdf_para(struct rpt_pdf *p, const char *text, double size, bool bold, bool grey);
/* The same, from a printf format. */
void rpt_pdf_paraf(struct rpt_pdf *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A table of the items of rows (an array of model objects), one row each, under a row of
 * titles; when rows has no item, empty is the one line shown instead, without the titles.
 * Booleans read "pass" or "fail". */
void rpt_pdf_table(struct rpt_pdf *p, const cJSON *rows, const struct rpt_pdf_col *c, size_t nc,
		   const char *empty);
/* One row of cells (nc of them) in columns c; bold for a row of titles. */
void rpt_pdf_row(struct rpt_pdf *p, const char *const *cells, const struct rpt_pdf_col *c,
		 size_t nc, bool bold);
/* A two-column table of names and values: pairs[2k] is a name, pairs[2k + 1] its value. */
void rpt_pdf_pairs(struct rpt_pdf *p, const char *const *pairs, size_t npairs);
/* Makes room for h points: a new page when they do not fit. */
void rpt_pdf_need(struct rpt_pdf *p, double h);
/* Room left on the page, in points. */
double rpt_pdf_room(const struct rpt_pdf *p);
/* A chart box of the text width: draw is called with cr scaled to RPT_CHART_WIDTH x
 * RPT_CHART_HEIGHT units. The box shrinks (to three fifths at least) rather than leave the end
 * of a page empty. */
void rpt_pdf_chart(struct rpt_pdf *p, void (*draw)(cairo_t *cr, const void *ctx), const void *ctx);
/* A chart the page also shows as a PNG: dir/file painted in the same box; a line saying so
 * when the file cannot be read. */
void rpt_pdf_png(struct rpt_pdf *p, const char *file);

/* What the charts drawn in the PDF itself are drawn from (all borrowed). */
struct rpt_pdf_charts {
	const struct rpt_input *in;
	const struct rpt_extra *x;
	const int8_t *sig;          /* the run's signals, or NULL */
	const char *why_sig;        /* why sig is NULL */
};

/* Every section of the page, in the page's order (report_pdf_sections.c): the verdict, gates
 * and vetoes, the tearsheet, containment, look-ahead, robustness, inspection, costs, the log
 * against the code, statistics, trials, trades, data and fingerprint. model is the template
 * model; borrowed. */
void rpt_pdf_sections(struct rpt_pdf *p, const cJSON *model, const struct rpt_pdf_charts *d);

#endif
