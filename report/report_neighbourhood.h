/* report_neighbourhood.h - the Neighbourhood section: the audited parameters moved 10 and 20 %
 * either way, plateau or peak, from stats.json's neighbourhood alone: the surface drawn
 * (neighbourhood.png: a heatmap for two parameters, a line a parameter otherwise), the words,
 * and the table the page, the PDF and the XLSX share (rpt_nb_cols). */
#ifndef RPT_NEIGHBOURHOOD_H
#define RPT_NEIGHBOURHOOD_H

#include <stddef.h>
#include <cairo.h>
#include <cjson/cJSON.h>

#include "report_input.h"
#include "report_pdf_draw.h"

/* Draws stats.json's neighbourhood (nb, borrowed; NULL or unmeasured: the chart says why)
 * onto cr. */
void rpt_draw_neighbourhood(cairo_t *cr, const cJSON *nb);

/* Writes dir/neighbourhood.png. Returns 0, or -1 with err when it could not be written. */
int rpt_nb_chart(const char *dir, const struct rpt_input *in, char *err, size_t errlen);

/* Adds "neighbourhood" {present, measured, note, shape, peak, rows [{set, params, sharpe,
 * keep, net, cells}], cols} to the template model m. Returns 0, or -1 when out of memory. */
int rpt_nb_model(cJSON *m, const struct rpt_input *in);

/* The section in the PDF, from the model's "neighbourhood". */
void rpt_nb_pdf(struct rpt_pdf *p, const cJSON *m);

#endif
