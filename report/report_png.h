/* report_png.h - a chart surface as a palette PNG: quantized by libimagequant, written by libpng. */
#ifndef RPT_PNG_H
#define RPT_PNG_H

#include <stdio.h>
#include <cairo.h>

/* Writes sf (an RGB24 image surface, borrowed) to fp as an 8-bit palette PNG: at most 256
 * colours chosen by libimagequant, on one thread so the bytes never depend on the machine,
 * then deflated at the highest level. Returns 0, or -1 (not RGB24, out of memory, or an
 * encoder error); fp may then hold part of a file, so callers write through an atomic file. */
int rpt_png_write(FILE *fp, cairo_surface_t *sf);

#endif
