/* ohlcv_feather.c - freqtrade's Feather OHLCV: the Arrow IPC file format read as far as six
 * primitive columns need (the footer, the schema, the record batches' buffers), LZ4 frames with
 * liblz4, ZSTD frames with libzstd. The flatbuffers the format is made of are read with bounds
 * checked at every step: a hostile file is refused, never followed out of the buffer. */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lz4frame.h>
#include <zstd.h>

#include "msg.h"
#include "ohlcv.h"
#include "ohlcv_feather.h"

#define MAGIC "ARROW1"
#define MAX_COLUMNS 256
#define MAX_BATCHES 100000

/* Arrow's schema: the Type union's members read here, and their buffers a record batch holds. */
enum { T_NULL = 1, T_INT = 2, T_FLOAT = 3, T_BINARY = 4, T_UTF8 = 5, T_BOOL = 6, T_DECIMAL = 7,
       T_DATE = 8, T_TIME = 9, T_TIMESTAMP = 10, T_INTERVAL = 11, T_FIXED_BINARY = 15,
       T_DURATION = 18, T_LARGE_BINARY = 19, T_LARGE_UTF8 = 20 };
enum { C_TIME, C_OPEN, C_HIGH, C_LOW, C_CLOSE, C_VOLUME, C_WANTED };

static const char *const wanted[C_WANTED] = { "date", "open", "high", "low", "close", "volume" };

/* --- flatbuffers, bounds-checked --------------------------------------------------------- */

struct fb {
	const uint8_t *b;
	size_t n;
};

static int rd(const struct fb *f, size_t at, void *out, size_t w)
{
	if (at > f->n || w > f->n - at)
		return -1;
	memcpy(out, f->b + at, w);
	return 0;
}

/* The position of field idx of the table at tab, or 0 when the table leaves it out. */
static size_t field_at(const struct fb *f, size_t tab, unsigned idx)
{
	int32_t soff;
	uint16_t vsize, tsize, fo;
	size_t vt;

	if (rd(f, tab, &soff, 4) < 0)
		return 0;
	vt = (size_t)((int64_t)tab - soff);
	if ((int64_t)tab - soff < 0 || rd(f, vt, &vsize, 2) < 0 || rd(f, vt + 2, &tsize, 2) < 0)
		return 0;
	if (4 + 2 * (size_t)idx + 2 > vsize || rd(f, vt + 4 + 2 * (size_t)idx, &fo, 2) < 0 ||
	    fo == 0 || fo >= tsize || tab + fo >= f->n)
		return 0;
	return tab + fo;
}

/* Follows the offset stored at pos (to a table, a vector or a string). Returns 0 when out. */
static size_t follow(const struct fb *f, size_t pos)
{
	uint32_t off;

	if (!pos || rd(f, pos, &off, 4) < 0 || off == 0 || off > f->n - pos)
		return 0;
	return pos + off;
}

static size_t table(const struct fb *f, size_t tab, unsigned idx)
{
	return follow(f, field_at(f, tab, idx));
}

static int64_t scalar(const struct fb *f, size_t tab, unsigned idx, size_t w, int64_t dflt)
{
	size_t at = field_at(f, tab, idx);
	int64_t v = 0;

	if (!at)
		return dflt;
	if (w == 1) {
		int8_t x;
		return rd(f, at, &x, 1) < 0 ? dflt : x;
	}
	if (w == 2) {
		int16_t x;
		return rd(f, at, &x, 2) < 0 ? dflt : x;
	}
	if (w == 4) {
		int32_t x;
		return rd(f, at, &x, 4) < 0 ? dflt : x;
	}
	return rd(f, at, &v, 8) < 0 ? dflt : v;
}

/* The vector at field idx: its count and where its elements start. Returns 0, or -1 when it
 * is absent or runs out of the buffer (elements of w bytes). */
static int vector(const struct fb *f, size_t tab, unsigned idx, size_t w, uint32_t *count, size_t *at)
{
	size_t v = table(f, tab, idx);

	if (!v || rd(f, v, count, 4) < 0 || (uint64_t)*count * w > f->n - v - 4)
		return -1;
	*at = v + 4;
	return 0;
}

/* Element i of a vector of tables. */
static size_t element(const struct fb *f, size_t at, uint32_t i)
{
	return follow(f, at + 4 * (size_t)i);
}

/* The string at field idx into out (printable ASCII, cut to outlen - 1). Returns 0 or -1. */
static int string(const struct fb *f, size_t tab, unsigned idx, char *out, size_t outlen)
{
	size_t s = table(f, tab, idx);
	uint32_t n;

	out[0] = '\0';
	if (!s || rd(f, s, &n, 4) < 0 || n > f->n - s - 4)
		return -1;
	for (size_t i = 0; i < n && i + 1 < outlen; i++) {
		uint8_t c = f->b[s + 4 + i];
		out[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
		out[i + 1] = '\0';
	}
	return 0;
}

/* --- the schema -------------------------------------------------------------------------- */

struct column {
	char name[64];
	int type;       /* Type union member */
	int width;      /* bytes a value: 8 or 4 (floats, ints), 8 (timestamps) */
	bool is_float;
	bool is_signed;
	int unit;       /* a timestamp's: 0 s, 1 ms, 2 us, 3 ns */
	int buffers;    /* buffers the column takes in a record batch */
	size_t first;   /* index of its first buffer */
};

struct file {
	struct fb all, foot;
	struct column col[MAX_COLUMNS];
	uint32_t ncol;
	int pick[C_WANTED];  /* the column index of each wanted field, -1 none */
	int codec;           /* -1 none, 0 lz4 frame, 1 zstd */
};

static int buffers_of(int type)
{
	switch (type) {
	case T_NULL:
		return 0;
	case T_INT: case T_FLOAT: case T_BOOL: case T_DECIMAL: case T_DATE: case T_TIME:
	case T_TIMESTAMP: case T_INTERVAL: case T_FIXED_BINARY: case T_DURATION:
		return 2;
	case T_BINARY: case T_UTF8: case T_LARGE_BINARY: case T_LARGE_UTF8:
		return 3;
	default:
		return -1;
	}
}

static const char *type_name(int type)
{
	switch (type) {
	case T_NULL: return "null";
	case T_INT: return "integer";
	case T_FLOAT: return "floating point";
	case T_BINARY: case T_LARGE_BINARY: return "binary";
	case T_UTF8: case T_LARGE_UTF8: return "text";
	case T_BOOL: return "boolean";
	case T_DATE: return "date";
	case T_TIMESTAMP: return "timestamp";
	default: return "another Arrow type";
	}
}

static int read_column(struct file *F, size_t fld, struct column *c, char *err, size_t errlen)
{
	const struct fb *f = &F->foot;
	size_t type = table(f, fld, 3);
	uint32_t nchild = 0;
	size_t at;

	(void)string(f, fld, 0, c->name, sizeof c->name);
	c->type = (int)scalar(f, fld, 2, 1, 0);
	if (table(f, fld, 4)) {
		sa_fmt(err, errlen, "column '%s' is dictionary-encoded (a category), which the reader "
		       "does not take: %s", c->name, DA_FEATHER_CONVERT);
		return -1;
	}
	if (!vector(f, fld, 5, 4, &nchild, &at) && nchild) {
		sa_fmt(err, errlen, "column '%s' is nested (a list or a struct), which the reader does "
		       "not take: %s", c->name, DA_FEATHER_CONVERT);
		return -1;
	}
	c->buffers = buffers_of(c->type);  /* < 0: refused once the columns are named */
	if (c->type == T_FLOAT) {
		int64_t prec = type ? scalar(f, type, 0, 2, 0) : 0;
		c->is_float = true;
		c->width = prec == 2 ? 8 : prec == 1 ? 4 : 0;
	} else if (c->type == T_INT) {
		int64_t bits = type ? scalar(f, type, 0, 4, 0) : 0;
		c->is_signed = type && scalar(f, type, 1, 1, 0);
		c->width = bits == 64 ? 8 : bits == 32 ? 4 : 0;
	} else if (c->type == T_TIMESTAMP) {
		c->unit = type ? (int)scalar(f, type, 0, 2, 0) : 0;
		c->width = c->unit >= 0 && c->unit <= 3 ? 8 : 0;
	}
	return 0;
}

static void pick_columns(struct file *F)
{
	for (int k = 0; k < C_WANTED; k++)
		F->pick[k] = -1;
	for (uint32_t i = 0; i < F->ncol; i++)
		for (int k = 0; k < C_WANTED; k++) {
			bool time_name = k == C_TIME && (!strcmp(F->col[i].name, "timestamp") ||
							 !strcmp(F->col[i].name, "time"));
			if (F->pick[k] < 0 && (!strcmp(F->col[i].name, wanted[k]) || time_name))
				F->pick[k] = (int)i;
		}
}

static bool has_column(const struct file *F, const char *name)
{
	for (uint32_t i = 0; i < F->ncol; i++)
		if (!strcmp(F->col[i].name, name))
			return true;
	return false;
}

/* The columns as bars need them: a timestamp and five numbers. */
static int check_columns(const struct file *F, char *err, size_t errlen)
{
	if (F->pick[C_OPEN] < 0 && has_column(F, "price") &&
	    (has_column(F, "amount") || has_column(F, "side"))) {
		sa_fmt(err, errlen, DA_TRADES_NOT_BARS, "a price and an amount a row");
		return -1;
	}
	/* a column of a type whose buffers are not known leaves every later column's unknown */
	for (uint32_t i = 0; i < F->ncol; i++)
		if (F->col[i].buffers < 0) {
			sa_fmt(err, errlen, "column '%s' is of %s (Arrow type %d), which the reader does "
			       "not take: %s", F->col[i].name, type_name(F->col[i].type), F->col[i].type,
			       DA_FEATHER_CONVERT);
			return -1;
		}
	for (int k = 0; k < C_WANTED; k++) {
		const struct column *c;

		if (F->pick[k] < 0) {
			sa_fmt(err, errlen, "no '%s' column among the file's %u: %s", wanted[k],
			       (unsigned)F->ncol, DA_FEATHER_CONVERT);
			return -1;
		}
		c = &F->col[F->pick[k]];
		if (k == C_TIME && (c->type != T_TIMESTAMP || !c->width)) {
			sa_fmt(err, errlen, "the time column '%s' is %s, not an Arrow timestamp: %s",
			       c->name, type_name(c->type), DA_FEATHER_CONVERT);
			return -1;
		}
		if (k != C_TIME && !((c->type == T_FLOAT || c->type == T_INT) && c->width)) {
			sa_fmt(err, errlen, "column '%s' is %s, not a number: %s", c->name,
			       type_name(c->type), DA_FEATHER_CONVERT);
			return -1;
		}
	}
	return 0;
}

static int read_schema(struct file *F, size_t footer, char *err, size_t errlen)
{
	const struct fb *f = &F->foot;
	size_t schema = table(f, footer, 1), at;
	uint32_t n;
	size_t next = 0;

	if (!schema || vector(f, schema, 1, 4, &n, &at) < 0) {
		sa_fmt(err, errlen, "an Arrow file without a readable schema (is it cut short?): %s",
		       DA_FEATHER_CONVERT);
		return -1;
	}
	if (scalar(f, schema, 0, 2, 0) != 0) {
		sa_fmt(err, errlen, "a big-endian Arrow file, which the reader does not take: %s",
		       DA_FEATHER_CONVERT);
		return -1;
	}
	if (n == 0 || n > MAX_COLUMNS) {
		sa_fmt(err, errlen, "an Arrow file of %u columns: %s", (unsigned)n, DA_FEATHER_CONVERT);
		return -1;
	}
	F->ncol = n;
	for (uint32_t i = 0; i < n; i++) {
		size_t fld = element(f, at, i);

		if (!fld) {
			sa_fmt(err, errlen, "column %u of the schema cannot be read: %s", (unsigned)i + 1,
			       DA_FEATHER_CONVERT);
			return -1;
		}
		if (read_column(F, fld, &F->col[i], err, errlen) < 0)
			return -1;
		F->col[i].first = next;
		next += F->col[i].buffers > 0 ? (size_t)F->col[i].buffers : 0;
	}
	pick_columns(F);
	return check_columns(F, err, errlen);
}

/* --- record batches ---------------------------------------------------------------------- */

struct batch {
	struct fb meta;   /* the message's flatbuffer */
	size_t rb;        /* its RecordBatch table */
	size_t body;      /* where its body starts in the file */
	uint64_t body_len;
	int64_t rows;
};

static int open_batch(const struct file *F, size_t block_at, struct batch *B, char *err, size_t errlen)
{
	const struct fb *f = &F->foot;
	int64_t off, body_len;
	int32_t meta_len, len;
	uint32_t cont, root32;
	size_t start, root;

	if (rd(f, block_at, &off, 8) < 0 || rd(f, block_at + 8, &meta_len, 4) < 0 ||
	    rd(f, block_at + 16, &body_len, 8) < 0 || off < 8 || meta_len < 8 || body_len < 0 ||
	    (uint64_t)off > F->all.n || (uint64_t)meta_len > F->all.n - (uint64_t)off ||
	    (uint64_t)body_len > F->all.n - (uint64_t)off - (uint64_t)meta_len)
		goto bad;
	start = (size_t)off;
	if (rd(&F->all, start, &cont, 4) < 0)
		goto bad;
	if (cont == 0xFFFFFFFFu)
		start += 4;  /* the continuation marker of the current format */
	if (rd(&F->all, start, &len, 4) < 0 || len <= 0 || (size_t)len > (size_t)off + (size_t)meta_len - start - 4)
		goto bad;
	B->meta = (struct fb){ F->all.b + start + 4, (size_t)len };
	if (rd(&B->meta, 0, &root32, 4) < 0 || root32 >= B->meta.n)
		goto bad;
	root = root32;
	if (scalar(&B->meta, root, 1, 1, 0) != 3) {
		sa_fmt(err, errlen, "a message of the file is not a record batch (a dictionary?): %s",
		       DA_FEATHER_CONVERT);
		return -1;
	}
	B->rb = table(&B->meta, root, 2);
	B->body = (size_t)off + (size_t)meta_len;
	B->body_len = (uint64_t)body_len;
	B->rows = B->rb ? scalar(&B->meta, B->rb, 0, 8, -1) : -1;
	if (!B->rb || B->rows < 0)
		goto bad;
	return 0;
bad:
	sa_fmt(err, errlen, "a record batch of the file cannot be read (is it cut short?): %s",
	       DA_FEATHER_CONVERT);
	return -1;
}

/* The codec of the batch's buffers: -1 none, 0 LZ4 frame, 1 ZSTD. */
static int batch_codec(const struct batch *B)
{
	size_t comp = table(&B->meta, B->rb, 3);

	return comp ? (int)scalar(&B->meta, comp, 0, 1, 0) : -1;
}

static int decompress(int codec, const uint8_t *src, size_t n, uint8_t *dst, size_t want)
{
	if (codec == 1) {
		size_t got = ZSTD_decompress(dst, want, src, n);
		return ZSTD_isError(got) || got != want ? -1 : 0;
	}
	LZ4F_dctx *ctx = NULL;
	size_t done = 0, rc = 0;

	if (LZ4F_isError(LZ4F_createDecompressionContext(&ctx, LZ4F_VERSION)))
		return -1;
	while (n > 0 && done < want) {
		size_t in = n, out = want - done;
		rc = LZ4F_decompress(ctx, dst + done, &out, src, &in, NULL);
		if (LZ4F_isError(rc) || (in == 0 && out == 0))
			break;
		src += in;
		n -= in;
		done += out;
	}
	LZ4F_freeDecompressionContext(ctx);
	return LZ4F_isError(rc) || done != want ? -1 : 0;
}

/* The values of column k of the batch, rows * width bytes, into a new buffer (*out). */
static int column_values(const struct file *F, const struct batch *B, const struct column *c,
			 size_t *budget, uint8_t **out, char *err, size_t errlen)
{
	uint32_t nbuf, nnode;
	size_t bat, nat;
	int64_t boff, blen, nlen, nulls;
	size_t want, idx = (size_t)(c - F->col);
	const uint8_t *src;
	int codec = batch_codec(B);

	*out = NULL;
	if (vector(&B->meta, B->rb, 2, 16, &nbuf, &bat) < 0 || c->first + 1 >= nbuf ||
	    vector(&B->meta, B->rb, 1, 16, &nnode, &nat) < 0 || idx >= nnode ||
	    rd(&B->meta, bat + 16 * (c->first + 1), &boff, 8) < 0 ||
	    rd(&B->meta, bat + 16 * (c->first + 1) + 8, &blen, 8) < 0 ||
	    rd(&B->meta, nat + 16 * idx, &nlen, 8) < 0 || rd(&B->meta, nat + 16 * idx + 8, &nulls, 8) < 0 ||
	    boff < 0 || blen < 0 || (uint64_t)boff > B->body_len || (uint64_t)blen > B->body_len - (uint64_t)boff ||
	    nlen != B->rows) {
		sa_fmt(err, errlen, "column '%s': its buffers cannot be read (is the file cut short?): %s",
		       c->name, DA_FEATHER_CONVERT);
		return -1;
	}
	if ((uint64_t)B->rows > *budget / (size_t)c->width) {
		sa_fmt(err, errlen, "the columns decompress to more than the loader's cap");
		return -1;
	}
	want = (size_t)B->rows * (size_t)c->width;
	if (nulls == B->rows && B->rows > 0 && c == &F->col[F->pick[C_VOLUME]]) {
		*out = NULL;  /* no volume at all (freqtrade's mark and funding-rate candles) */
		return 0;
	}
	if (nulls != 0) {
		sa_fmt(err, errlen, "column '%s' has %" PRId64 " missing values: fill or drop those rows, "
		       "then %s", c->name, nulls, DA_FEATHER_CONVERT);
		return -1;
	}
	if (codec > 1) {
		sa_fmt(err, errlen, "the file's buffers are compressed with codec %d, neither LZ4 nor "
		       "ZSTD: %s", codec, DA_FEATHER_CONVERT);
		return -1;
	}
	if (want > *budget) {
		sa_fmt(err, errlen, "the columns decompress to more than the loader's cap");
		return -1;
	}
	*budget -= want;
	src = F->all.b + B->body + (size_t)boff;
	if (!(*out = malloc(want ? want : 1))) {
		sa_fmt(err, errlen, "out of memory");
		return -1;
	}
	if (codec < 0 && (uint64_t)blen >= want) {
		memcpy(*out, src, want);
		return 0;
	}
	if (codec >= 0 && blen >= 8) {
		int64_t plain;
		memcpy(&plain, src, 8);
		if (plain == -1 && (uint64_t)blen - 8 >= want) {
			memcpy(*out, src + 8, want);  /* left uncompressed by the writer */
			return 0;
		}
		if (plain == (int64_t)want && !decompress(codec, src + 8, (size_t)blen - 8, *out, want))
			return 0;
	}
	free(*out);
	*out = NULL;
	sa_fmt(err, errlen, "column '%s': its %s buffer does not decompress to its %" PRId64 " values: %s",
	       c->name, codec == 1 ? "ZSTD" : codec == 0 ? "LZ4" : "plain", B->rows, DA_FEATHER_CONVERT);
	return -1;
}

static double number(const struct column *c, const uint8_t *p)
{
	if (c->is_float && c->width == 8) {
		double d;
		memcpy(&d, p, 8);
		return d;
	}
	if (c->is_float) {
		float x;
		memcpy(&x, p, 4);
		return x;
	}
	if (c->width == 8) {
		int64_t i;
		memcpy(&i, p, 8);
		return c->is_signed ? (double)i : (double)(uint64_t)i;
	}
	int32_t i;
	memcpy(&i, p, 4);
	return c->is_signed ? (double)i : (double)(uint32_t)i;
}

/* A timestamp in epoch milliseconds; NAN when it is no whole millisecond. */
static double millis(const struct column *c, const uint8_t *p)
{
	static const int64_t per_ms[4] = { 0, 1, 1000, 1000000 };
	int64_t t;

	memcpy(&t, p, 8);
	if (c->unit == 0)
		return t > INT64_MAX / 1000 || t < INT64_MIN / 1000 ? NAN : (double)t * 1000;
	return t % per_ms[c->unit] ? NAN : (double)(t / per_ms[c->unit]);
}

static int read_batch(const struct file *F, const struct batch *B, size_t *budget, size_t *i,
		      int (*bar)(void *, size_t, const double[6]), void *arg, char *err, size_t errlen)
{
	uint8_t *vals[C_WANTED] = { 0 };
	int rc = -1;

	for (int k = 0; k < C_WANTED; k++)
		if (column_values(F, B, &F->col[F->pick[k]], budget, &vals[k], err, errlen) < 0)
			goto out;
	for (int64_t r = 0; r < B->rows; r++, (*i)++) {
		double v[6];

		for (int k = 0; k < C_WANTED; k++) {
			const struct column *c = &F->col[F->pick[k]];
			const uint8_t *p = vals[k] ? vals[k] + (size_t)r * (size_t)c->width : NULL;
			v[k] = k == C_TIME ? millis(c, p) : !vals[k] ? NAN : number(c, p);
		}
		if (isnan(v[0])) {
			sa_fmt(err, errlen, "bar %zu: its time is not a whole millisecond", *i + 1);
			goto out;
		}
		if (bar(arg, *i, v))
			goto out;
	}
	rc = 0;
out:
	for (int k = 0; k < C_WANTED; k++)
		free(vals[k]);
	return rc;
}

/* --- the file ---------------------------------------------------------------------------- */

bool da_is_feather(const char *buf, size_t len)
{
	return len >= 6 && !memcmp(buf, MAGIC, 6);
}

static int open_footer(struct file *F, size_t *footer, char *err, size_t errlen)
{
	const struct fb *a = &F->all;
	int32_t flen;
	uint32_t root;

	if (a->n < 6 + 2 + 4 + 6 || memcmp(a->b + a->n - 6, MAGIC, 6) || rd(a, a->n - 10, &flen, 4) < 0 ||
	    flen < 8 || (size_t)flen > a->n - 10 - 8) {
		sa_fmt(err, errlen, "an Arrow file without its footer (is it cut short, or an Arrow "
		       "stream rather than a file?): %s", DA_FEATHER_CONVERT);
		return -1;
	}
	F->foot = (struct fb){ a->b + a->n - 10 - (size_t)flen, (size_t)flen };
	if (rd(&F->foot, 0, &root, 4) < 0 || root >= F->foot.n) {
		sa_fmt(err, errlen, "the Arrow file's footer cannot be read: %s", DA_FEATHER_CONVERT);
		return -1;
	}
	*footer = root;
	return 0;
}

int da_feather_bars(const char *buf, size_t len, size_t cap, struct da_feather_info *info,
		    int (*bar)(void *arg, size_t i, const double v[6]), void *arg, char *err,
		    size_t errlen)
{
	struct file *F = calloc(1, sizeof *F);
	size_t footer, at, i = 0, budget = cap;
	uint32_t n;
	int rc = -1;

	if (!F) {
		sa_fmt(err, errlen, "out of memory");
		return -1;
	}
	F->all = (struct fb){ (const uint8_t *)buf, len };
	F->codec = -1;
	if (open_footer(F, &footer, err, errlen) < 0 || read_schema(F, footer, err, errlen) < 0)
		goto out;
	if (vector(&F->foot, footer, 3, 24, &n, &at) < 0 || n == 0 || n > MAX_BATCHES) {
		sa_fmt(err, errlen, "the Arrow file lists no record batch it can read: %s", DA_FEATHER_CONVERT);
		goto out;
	}
	for (uint32_t b = 0; b < n; b++) {
		struct batch B;

		if (open_batch(F, at + 24 * (size_t)b, &B, err, errlen) < 0 ||
		    read_batch(F, &B, &budget, &i, bar, arg, err, errlen) < 0)
			goto out;
		if (batch_codec(&B) >= 0)
			F->codec = batch_codec(&B);
	}
	if (info) {
		for (int k = 0; k < C_WANTED; k++)
			snprintf(info->names[k], sizeof info->names[k], "%s", F->col[F->pick[k]].name);
		info->codec = F->codec == 1 ? "zstd" : F->codec == 0 ? "lz4" : "none";
	}
	rc = 0;
out:
	free(F);
	return rc;
}
