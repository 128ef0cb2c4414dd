/* report_png.c - charts as palette PNGs. A chart is a few flat colours and their anti-aliased
 * edges: 256 colours hold it without a visible change, and an 8-bit palette image deflates to
 * about a third of the 24-bit one (a 2 000-bar bundle's charts: 1.15 MB to about 0.43 MB). */
#include <libimagequant.h>
#include <omp.h>
#include <png.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report_png.h"

/* The chart as RGBA bytes, as libimagequant takes them (RGB24 is one native-endian
 * 0x00RRGGBB word a pixel). Caller frees; NULL when out of memory. */
static unsigned char *to_rgba(cairo_surface_t *sf, int w, int h)
{
	int stride = cairo_image_surface_get_stride(sf);
	const unsigned char *data = cairo_image_surface_get_data(sf);
	unsigned char *out = malloc((size_t)w * (size_t)h * 4);

	if (!out)
		return NULL;
	for (int y = 0; y < h; y++) {
		const uint32_t *px = (const uint32_t *)(const void *)(data + (size_t)y * (size_t)stride);
		unsigned char *o = out + (size_t)y * (size_t)w * 4;

		for (int x = 0; x < w; x++) {
			o[4 * x] = (unsigned char)(px[x] >> 16);
			o[4 * x + 1] = (unsigned char)(px[x] >> 8);
			o[4 * x + 2] = (unsigned char)px[x];
			o[4 * x + 3] = 255;
		}
	}
	return out;
}

/* libpng longjmps here on error, so nothing this function changes after setjmp is read
 * afterwards. pix holds one palette index a pixel, row after row. */
static int png_palette(FILE *fp, const liq_palette *pal, const unsigned char *pix, int w, int h)
{
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	png_color colours[256];
	int rc = -1;

	if (!info)
		goto out;
	for (unsigned i = 0; i < pal->count; i++)
		colours[i] = (png_color){ pal->entries[i].r, pal->entries[i].g, pal->entries[i].b };
	if (setjmp(png_jmpbuf(png)))
		goto out;
	png_init_io(png, fp);
	png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_NONE,
		     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_set_PLTE(png, info, colours, (int)pal->count);
	/* palette images deflate best unfiltered, and at the highest level they are still fast */
	png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
	png_set_compression_level(png, 9);
	png_write_info(png, info);
	for (int y = 0; y < h; y++)
		png_write_row(png, pix + (size_t)y * (size_t)w);
	png_write_end(png, NULL);
	rc = 0;
out:
	png_destroy_write_struct(&png, &info);
	return rc;
}

int rpt_png_write(FILE *fp, cairo_surface_t *sf)
{
	int w = cairo_image_surface_get_width(sf), h = cairo_image_surface_get_height(sf), rc = -1;
	unsigned char *rgba = NULL, *pix = NULL;
	liq_attr *attr = NULL;
	liq_image *img = NULL;
	liq_result *res = NULL;

	cairo_surface_flush(sf);
	if (cairo_image_surface_get_format(sf) != CAIRO_FORMAT_RGB24)
		return -1;
	/* libimagequant sums colours per thread: one thread, the same palette on every machine */
	omp_set_num_threads(1);
	rgba = to_rgba(sf, w, h);
	pix = malloc((size_t)w * (size_t)h);
	attr = liq_attr_create();
	if (!rgba || !pix || !attr || liq_set_max_colors(attr, 256) != LIQ_OK)
		goto out;
	img = liq_image_create_rgba(attr, rgba, w, h, 0);
	if (!img || liq_image_quantize(img, attr, &res) != LIQ_OK)
		goto out;
	/* no dithering: flat areas stay flat, and deflate sees long runs */
	if (liq_set_dithering_level(res, 0) != LIQ_OK ||
	    liq_write_remapped_image(res, img, pix, (size_t)w * (size_t)h) != LIQ_OK)
		goto out;
	rc = png_palette(fp, liq_get_palette(res), pix, w, h);
out:
	liq_result_destroy(res);
	liq_image_destroy(img);
	liq_attr_destroy(attr);
	free(pix);
	free(rgba);
	return rc;
}
