/* report_pdf.c - report.pdf: every section of the page on A4, flowed page after page, drawn with
 * cairo's PDF surface from the same model and drawing code as the page and the PNGs. */
#include "report_pdf.h"

#include <cairo.h>
#include <cairo-pdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "jsonio.h"
#include "msg.h"
#include "report_pdf_draw.h"
#include "signals.h"

static cairo_status_t to_file(void *closure, const unsigned char *data, unsigned int len)
{
	return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

/* Fixed metadata: cairo would otherwise stamp the time of writing into the file. */
static void metadata(cairo_surface_t *sf, const char *name)
{
	char title[300];

	snprintf(title, sizeof title, "strataudit report: %.250s", name);
	cairo_pdf_surface_set_metadata(sf, CAIRO_PDF_METADATA_TITLE, title);
	cairo_pdf_surface_set_metadata(sf, CAIRO_PDF_METADATA_CREATOR, "strataudit " SA_VERSION);
	cairo_pdf_surface_set_metadata(sf, CAIRO_PDF_METADATA_CREATE_DATE, RPT_PDF_CREATED);
	cairo_pdf_surface_set_metadata(sf, CAIRO_PDF_METADATA_MOD_DATE, RPT_PDF_CREATED);
}

static void draw_document(cairo_t *cr, const struct rpt_input *in, const struct rpt_extra *x,
			  const cJSON *model, const char *dir, const int8_t *sig, const char *why_sig)
{
	struct rpt_pdf p = { .cr = cr, .y = RPT_TOP, .page = 1, .name = rpt_pdf_str(model, "name"),
			     .dir = dir };
	struct rpt_pdf_charts d = { .in = in, .x = x, .sig = sig, .why_sig = why_sig };

	rpt_pdf_sections(&p, model, &d);
	rpt_pdf_footer(&p);
	cairo_show_page(cr);
}

int rpt_pdf_write(const char *path, const struct rpt_input *in, const struct rpt_extra *x,
		  const cJSON *model, char *err, size_t errlen)
{
	struct sa_atomic a = { 0 };
	cairo_surface_t *sf = NULL;
	cairo_t *cr = NULL;
	const cJSON *run = rpt_stage_ok(in, RPT_RUN);
	char why_sig[256] = "the strategy run did not succeed";
	int8_t *sig = NULL;
	char dir[4096], *slash;
	cairo_status_t st;
	int rc = -1;

	if (run)
		da_run_signals(run, in->data.n, 0, &sig, why_sig, sizeof why_sig);
	/* the charts the page shows as PNGs only are read from beside the PDF */
	snprintf(dir, sizeof dir, "%s", path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof dir, ".");
	if (sa_atomic_open(&a, path, err, errlen))
		goto out;
	sf = cairo_pdf_surface_create_for_stream(to_file, a.fp, RPT_PW, RPT_PH);
	metadata(sf, rpt_pdf_str(model, "name"));
	cr = cairo_create(sf);
	draw_document(cr, in, x, model, dir, sig, why_sig);
	st = cairo_status(cr);
	cairo_destroy(cr);
	cairo_surface_finish(sf);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(sf);
	cairo_surface_destroy(sf);
	if (st != CAIRO_STATUS_SUCCESS) {
		sa_atomic_abort(&a);
		sa_fmt(err, errlen, "drawing '%s': %s", path, cairo_status_to_string(st));
		goto out;
	}
	if (sa_atomic_commit(&a, err, errlen))
		goto out;
	rc = 0;
out:
	free(sig);
	return rc;
}
