/* vmatrix.c - variant_returns.bin (vmatrix.h). */
#include "vmatrix.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"


static int put_u64(FILE *fp, uint64_t x)
{
	unsigned char b[8];

	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(x >> (8 * i));
	return fwrite(b, 1, 8, fp) == 8 ? 0 : -1;
}

static uint64_t get_u64(const unsigned char *b)
{
	uint64_t x = 0;

	for (int i = 7; i >= 0; i--)
		x = x << 8 | b[i];
	return x;
}

int da_vmatrix_write(FILE *fp, const double *m, size_t n_bars, size_t n_cols)
{
	if (fwrite(DA_MAGIC, 1, 8, fp) != 8 || put_u64(fp, n_bars) < 0 || put_u64(fp, n_cols) < 0)
		return -1;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* an empty family writes the header alone (and m may be NULL then) */
	return n_bars * n_cols == 0 || fwrite(m, sizeof *m, n_bars * n_cols, fp) == n_bars * n_cols ? 0 : -1;
#else
	for (size_t i = 0; i < n_bars * n_cols; i++) {
		uint64_t bits;

		memcpy(&bits, &m[i], sizeof bits);
		if (put_u64(fp, bits) < 0)
			return -1;
	}
	return 0;
#endif
}

int da_vmatrix_read(const char *path, double **m, size_t *n_bars, size_t *n_cols, char *err,
		   size_t errlen)
{
	FILE *fp = fopen(path, "rb");
	unsigned char h[DA_HEADER_BYTES];
	uint64_t t, n;
	double *out = NULL;
	size_t got;
	int rc = -1;

	*m = NULL;
	if (!fp) {
		sa_fmt(err, errlen, "cannot open '%s', %s", path, strerror(errno));
		goto out;
	}
	got = fread(h, 1, sizeof h, fp);
	if (got != sizeof h || memcmp(h, DA_MAGIC, 8) != 0) {
		/* a short header is no matrix of either version */
		if (got == sizeof h && memcmp(h, DA_MAGIC_V1, 8) == 0)
			sa_fmt(err, errlen, "'%s' is a variant return matrix of version 1, per-bar "
			       "equity changes rather than per-bar returns: rerun the variants stage",
			       path);
		else
			sa_fmt(err, errlen, "'%s' is not a variant return matrix", path);
		goto out;
	}
	t = get_u64(h + 8);
	n = get_u64(h + 16);
	if (t > DA_MAX_CELLS || n > DA_MAX_CELLS || (n && t > DA_MAX_CELLS / n)) {
		sa_fmt(err, errlen, "'%s' claims %llu x %llu values, more than this reads", path,
		       (unsigned long long)t, (unsigned long long)n);
		goto out;
	}
	out = malloc((t && n ? t * n : 1) * sizeof *out);
	if (!out) {
		sa_fmt(err, errlen, "out of memory");
		goto out;
	}
	if (t && n && fread(out, sizeof *out, t * n, fp) != t * n) {
		sa_fmt(err, errlen, "'%s' ends early", path);
		goto out;
	}
	for (uint64_t i = 0; i < t * n; i++) {
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
		uint64_t bits = get_u64((const unsigned char *)&out[i]);

		memcpy(&out[i], &bits, sizeof bits);
#endif
		if (!isfinite(out[i])) {
			sa_fmt(err, errlen, "'%s' holds a value that is not a finite number", path);
			goto out;
		}
		/* a compounded curve stops at zero: no bar loses more than everything */
		if (out[i] < -1.0) {
			sa_fmt(err, errlen, "'%s' holds a return below -1", path);
			goto out;
		}
	}
	if (fgetc(fp) != EOF) {
		sa_fmt(err, errlen, "'%s' has bytes after its matrix", path);
		goto out;
	}
	*m = out;
	out = NULL;
	*n_bars = (size_t)t;
	*n_cols = (size_t)n;
	rc = 0;
out:
	if (fp)
		fclose(fp);
	free(out);
	return rc;
}
