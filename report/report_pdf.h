/* report_pdf.h - the audit as report.pdf, drawn with cairo's PDF surface, reproducible byte for
 * byte. */
#ifndef RPT_PDF_H
#define RPT_PDF_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "report_input.h"
#include "report_tearsheet.h"

/* The creation date written into the document information: fixed, so two runs match. */
#define RPT_PDF_CREATED "2000-01-01T00:00:00Z"

/* Writes path (through path.tmp and a rename): every section of the page in its order, flowed
 * so a page is begun only when the next piece does not fit, every page numbered. model is the
 * page's template model (rpt_model_build), so the PDF says what the HTML says; the charts the
 * page shows only as PNGs are read from path's directory. in, x and model are borrowed.
 * Returns 0, or -1 with err set. */
int rpt_pdf_write(const char *path, const struct rpt_input *in, const struct rpt_extra *x,
		  const cJSON *model, char *err, size_t errlen);

#endif
