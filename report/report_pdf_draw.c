/* report_pdf_draw.c - the PDF's flowing writer: wrapped text, tables and charts laid down one
 * after another, each page filled before the next is begun. */
#include "report_pdf_draw.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "jsonio.h"
#include "report_chart.h"

#define FONT "DejaVu Sans"
#define CELL_SIZE 8.5
#define CELL_LEAD 11.0
#define CELL_LINES 40        /* a cell longer than this is cut, so one row fits a page */
#define LINE_CAP 2048

const cJSON *rpt_pdf_get(const cJSON *obj, const char *key)
{
	return cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
}

const char *rpt_pdf_str(const cJSON *obj, const char *key)
{
	return sa_json_str(obj, key, "");
}

static void font(cairo_t *cr, double size, bool bold)
{
	cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
}

static void ink(cairo_t *cr, bool grey)
{
	if (grey)
		cairo_set_source_rgb(cr, 0.35, 0.38, 0.42);
	else
		cairo_set_source_rgb(cr, 0.12, 0.14, 0.16);
}

static void rule(cairo_t *cr, double x0, double x1, double y, double width)
{
	cairo_set_source_rgb(cr, 0.84, 0.85, 0.87);
	cairo_set_line_width(cr, width);
	cairo_move_to(cr, x0, y);
	cairo_line_to(cr, x1, y);
	cairo_stroke(cr);
}

void rpt_pdf_footer(struct rpt_pdf *p)
{
	char buf[160];

	font(p->cr, 8, false);
	cairo_set_source_rgb(p->cr, 0.40, 0.42, 0.46);
	snprintf(buf, sizeof buf, "strataudit report: %.100s   page %d", p->name, p->page);
	cairo_move_to(p->cr, RPT_MX, RPT_PH - 28);
	cairo_show_text(p->cr, buf);
}

void rpt_pdf_new_page(struct rpt_pdf *p)
{
	rpt_pdf_footer(p);
	cairo_show_page(p->cr);
	p->page++;
	p->y = RPT_TOP;
}

void rpt_pdf_need(struct rpt_pdf *p, double h)
{
	if (p->y + h > RPT_BOTTOM && p->y > RPT_TOP)
		rpt_pdf_new_page(p);
}

double rpt_pdf_room(const struct rpt_pdf *p)
{
	return RPT_BOTTOM - p->y;
}

/* Where the wrapped lines go: counted, or drawn at x from y, lead apart, up to max. */
struct sink {
	cairo_t *cr;
	double x, y, lead;
	int lines, max;
	bool draw;
	struct rpt_pdf *flow;   /* set: each line makes room for itself on the page */
};

static void emit(struct sink *k, const char *line)
{
	if (k->lines >= k->max)
		return;
	if (k->flow) {
		rpt_pdf_need(k->flow, k->lead);
		cairo_move_to(k->cr, k->x, k->flow->y + k->lead * 0.8);
		cairo_show_text(k->cr, line);
		k->flow->y += k->lead;
	} else if (k->draw) {
		cairo_move_to(k->cr, k->x, k->y + k->lines * k->lead);
		cairo_show_text(k->cr, line);
	}
	k->lines++;
}

static double advance(cairo_t *cr, const char *s)
{
	cairo_text_extents_t te;

	cairo_text_extents(cr, s, &te);
	return te.x_advance;
}

/* The length of the longest start of word[0..n) that fits in w, cut between UTF-8 characters
 * and at least one character long. */
static size_t fitting_prefix(cairo_t *cr, const char *word, size_t n, double w)
{
	char buf[LINE_CAP];
	size_t best = 0, k = 0;

	while (k < n && k < sizeof buf - 8) {
		size_t next = k + 1;
		while (next < n && ((unsigned char)word[next] & 0xC0) == 0x80)
			next++;
		memcpy(buf, word, next);
		buf[next] = '\0';
		if (best && advance(cr, buf) > w)
			break;
		best = k = next;
	}
	return best ? best : n;
}

/* Lays one paragraph (no newline in it) into lines of width w at the current font. */
static void wrap_par(struct sink *k, const char *s, size_t len, double w)
{
	char line[LINE_CAP], trial[LINE_CAP * 2];
	size_t used = 0;
	const char *end = s + len;

	line[0] = '\0';
	while (s < end) {
		size_t n = 0;
		while (s < end && *s == ' ')
			s++;
		/* a unit set after its number ("0.0 %") stays on its number's line */
		while (s + n < end && (s[n] != ' ' || (s + n + 1 < end && s[n + 1] == '%')))
			n++;
		if (!n)
			break;
		if (n < LINE_CAP) {
			snprintf(trial, sizeof trial, "%s%s%.*s", line, used ? " " : "", (int)n, s);
			if (strlen(trial) < LINE_CAP && advance(k->cr, trial) <= w) {
				used = strlen(trial);
				memcpy(line, trial, used + 1);
				s += n;
				continue;
			}
		}
		if (used) {
			emit(k, line);
			used = 0;
			line[0] = '\0';
			continue;  /* the word again, on a line of its own */
		}
		while (n) {  /* a word wider than the line: cut between characters */
			size_t cut = fitting_prefix(k->cr, s, n, w);
			snprintf(line, sizeof line, "%.*s", (int)(cut < LINE_CAP - 1 ? cut : LINE_CAP - 1), s);
			used = strlen(line);
			s += cut;
			n -= cut;
			if (n) {
				emit(k, line);
				used = 0;
				line[0] = '\0';
			}
		}
	}
	if (used)
		emit(k, line);
}

/* Lays text into lines of width w, a newline starting a new line. */
static void wrap(struct sink *k, const char *text, double w)
{
	const char *s = text ? text : "";

	while (*s) {
		size_t n = strcspn(s, "\n");
		if (n)
			wrap_par(k, s, n, w);
		else if (s[0] == '\n' && k->lines)
			emit(k, "");
		s += n;
		if (*s == '\n')
			s++;
	}
}

void rpt_pdf_heading(struct rpt_pdf *p, const char *text, int level)
{
	double size = level == 1 ? 13 : 10.5;

	/* a heading and at least a few lines of what it heads, never a heading alone at the foot */
	rpt_pdf_need(p, level == 1 ? 90 : 70);
	p->y += level == 1 ? 10 : 4;
	font(p->cr, size, true);
	ink(p->cr, false);
	cairo_move_to(p->cr, RPT_MX, p->y + size);
	cairo_show_text(p->cr, text);
	p->y += size + 4;
	if (level == 1) {
		rule(p->cr, RPT_MX, RPT_MX + RPT_TW, p->y, 1.2);
		p->y += 5;
	}
}

void rpt_pdf_para(struct rpt_pdf *p, const char *text, double size, bool bold, bool grey)
{
	struct sink k = { .cr = p->cr, .x = RPT_MX + p->indent, .lead = size * 1.35, .max = 1 << 20,
			  .flow = p };

	if (!text || !text[0])
		return;
	font(p->cr, size, bold);
	ink(p->cr, grey);
	wrap(&k, text, RPT_TW - 2 * p->indent);
	p->y += 4;
}

void rpt_pdf_paraf(struct rpt_pdf *p, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	rpt_pdf_para(p, buf, 9, false, false);
}

static int cell_lines(cairo_t *cr, const char *text, double w)
{
	struct sink k = { .cr = cr, .max = CELL_LINES };

	wrap(&k, text, w);
	return k.lines ? k.lines : 1;
}

void rpt_pdf_row(struct rpt_pdf *p, const char *const *cells, const struct rpt_pdf_col *c,
		 size_t nc, bool bold)
{
	double x = RPT_MX, h;
	int lines = 1;

	font(p->cr, CELL_SIZE, bold);
	for (size_t k = 0; k < nc; k++) {
		int n = cell_lines(p->cr, cells[k], c[k].width * RPT_TW - 5);
		lines = n > lines ? n : lines;
	}
	h = lines * CELL_LEAD + 4;
	rpt_pdf_need(p, h);
	if (bold) {
		cairo_set_source_rgb(p->cr, 0.95, 0.96, 0.97);
		cairo_rectangle(p->cr, RPT_MX, p->y, RPT_TW, h);
		cairo_fill(p->cr);
	}
	ink(p->cr, false);
	for (size_t k = 0; k < nc; k++) {
		struct sink s = { .cr = p->cr, .x = x + 2, .y = p->y + 9.5, .lead = CELL_LEAD,
				  .max = CELL_LINES, .draw = true };
		cairo_save(p->cr);
		cairo_rectangle(p->cr, x, p->y, c[k].width * RPT_TW - 2, h);
		cairo_clip(p->cr);
		wrap(&s, cells[k], c[k].width * RPT_TW - 5);
		cairo_restore(p->cr);
		x += c[k].width * RPT_TW;
	}
	p->y += h;
	rule(p->cr, RPT_MX, RPT_MX + RPT_TW, p->y, 0.5);
	p->y += 1;
}

/* A model value as a cell: strings as they are, numbers as the page prints them (buf). */
static const char *cell(const cJSON *v, char *buf, size_t len)
{
	if (cJSON_IsNumber(v)) {
		snprintf(buf, len, "%.15g", v->valuedouble);
		return buf;
	}
	return cJSON_IsString(v) ? v->valuestring : cJSON_IsTrue(v) ? "pass" :
	       cJSON_IsFalse(v) ? "fail" : "";
}

void rpt_pdf_table(struct rpt_pdf *p, const cJSON *rows, const struct rpt_pdf_col *c, size_t nc,
		   const char *empty)
{
	const char *cells[16];
	char nums[16][32];
	const struct rpt_pdf_col whole = { "", "", 1.0 };
	const cJSON *r;

	nc = nc < 16 ? nc : 16;
	if (!cJSON_GetArraySize(rows) && empty) {
		rpt_pdf_row(p, &empty, &whole, 1, false);
		p->y += 6;
		return;
	}
	for (size_t k = 0; k < nc; k++)
		cells[k] = c[k].title;
	rpt_pdf_need(p, 3 * CELL_LEAD + 12);
	rpt_pdf_row(p, cells, c, nc, true);
	cJSON_ArrayForEach(r, rows) {
		for (size_t k = 0; k < nc; k++)
			cells[k] = cell(rpt_pdf_get(r, c[k].key), nums[k], sizeof nums[k]);
		rpt_pdf_row(p, cells, c, nc, false);
	}
	p->y += 6;
}

void rpt_pdf_pairs(struct rpt_pdf *p, const char *const *pairs, size_t npairs)
{
	static const struct rpt_pdf_col c[] = { { "", "", 0.22 }, { "", "", 0.78 } };

	for (size_t k = 0; k < npairs; k++)
		rpt_pdf_row(p, pairs + 2 * k, c, 2, false);
	p->y += 6;
}

/* The box a chart goes in: full size when it fits, shrunk to the room left when that is at
 * least three fifths of it, else on the next page. Returns the scale. */
static double chart_box(struct rpt_pdf *p)
{
	double full = RPT_TW / RPT_CHART_WIDTH, h = RPT_CHART_HEIGHT * full, room = rpt_pdf_room(p) - 8;

	if (room >= h)
		return full;
	if (room >= 0.6 * h)
		return full * room / h;
	rpt_pdf_new_page(p);
	return full;
}

static void frame(struct rpt_pdf *p, double s)
{
	double w = RPT_CHART_WIDTH * s, h = RPT_CHART_HEIGHT * s, x = RPT_MX + (RPT_TW - w) / 2;

	cairo_set_source_rgb(p->cr, 0.84, 0.85, 0.87);
	cairo_set_line_width(p->cr, 0.6);
	cairo_rectangle(p->cr, x, p->y, w, h);
	cairo_stroke(p->cr);
	p->y += h + 8;
}

void rpt_pdf_chart(struct rpt_pdf *p, void (*draw)(cairo_t *cr, const void *ctx), const void *ctx)
{
	double s = chart_box(p), w = RPT_CHART_WIDTH * s;

	cairo_save(p->cr);
	cairo_translate(p->cr, RPT_MX + (RPT_TW - w) / 2, p->y);
	cairo_scale(p->cr, s, s);
	cairo_rectangle(p->cr, 0, 0, RPT_CHART_WIDTH, RPT_CHART_HEIGHT);
	cairo_clip(p->cr);
	draw(p->cr, ctx);
	cairo_restore(p->cr);
	frame(p, s);
}

void rpt_pdf_png(struct rpt_pdf *p, const char *file)
{
	char path[4096];
	cairo_surface_t *img;
	double s, w;
	int iw;

	snprintf(path, sizeof path, "%s/%s", p->dir, file);
	img = cairo_image_surface_create_from_png(path);
	iw = cairo_image_surface_get_width(img);
	if (cairo_surface_status(img) != CAIRO_STATUS_SUCCESS || iw <= 0) {
		cairo_surface_destroy(img);
		rpt_pdf_paraf(p, "(%s could not be read, so this chart is missing here.)", file);
		return;
	}
	s = chart_box(p);
	w = RPT_CHART_WIDTH * s;
	cairo_save(p->cr);
	cairo_translate(p->cr, RPT_MX + (RPT_TW - w) / 2, p->y);
	cairo_scale(p->cr, w / iw, w / iw);
	cairo_set_source_surface(p->cr, img, 0, 0);
	cairo_paint(p->cr);
	cairo_restore(p->cr);
	cairo_surface_destroy(img);
	frame(p, s);
}
