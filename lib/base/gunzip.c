/* gunzip.c - bounded gzip inflation: libdeflate decompresses (whole-buffer, about twice zlib's
 * speed), zlib's streaming inflater explains a stream libdeflate refuses. The output is capped,
 * not trusted. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libdeflate.h>
#include <zlib.h>

#include "fileio.h"
#include "gunzip.h"
#include "msg.h"

bool sa_is_gzip(const void *buf, size_t len)
{
	const unsigned char *b = buf;

	return len >= 2 && b[0] == 0x1f && b[1] == 0x8b;
}

/* Doubles *cap up to limit + 1 (one byte past the cap tells "too big" from "exactly cap"). */
static int grow(char **out, size_t *cap, size_t limit)
{
	size_t want = *cap * 2 > limit + 1 ? limit + 1 : *cap * 2;
	char *p = realloc(*out, want + 1);

	if (!p)
		return -1;
	*out = p;
	*cap = want;
	return 0;
}

/* zlib's inflate over the whole stream, for its diagnosis (truncated, corrupt, too big,
 * trailing bytes) or its output. */
static int zlib_gunzip(const void *buf, size_t len, size_t cap, char **out, size_t *outlen, char *err,
		       size_t errlen)
{
	z_stream z = { 0 };
	size_t have = len < (size_t)1 << 20 ? (size_t)1 << 20 : len * 4;
	int zr = Z_OK, rc = -1;

	*out = NULL;
	have = have > cap + 1 ? cap + 1 : have;
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
		sa_fmt(err, errlen, "cannot start zlib");
		return -1;
	}
	if (!(*out = malloc(have + 1)))
		goto nomem;
	z.next_in = (Bytef *)buf;
	while (zr != Z_STREAM_END) {
		if (z.total_out == have) {
			if (have > cap) {
				sa_fmt(err, errlen, "decompresses to more than %zu bytes", cap);
				goto out;
			}
			if (grow(out, &have, cap))
				goto nomem;
		}
		/* zlib counts in uInt: feed it in pieces below 1 GiB */
		if (!z.avail_in && z.total_in < len)
			z.avail_in = (uInt)(len - z.total_in > (1u << 30) ? 1u << 30 : len - z.total_in);
		z.next_out = (Bytef *)*out + z.total_out;
		z.avail_out = (uInt)(have - z.total_out > (1u << 30) ? 1u << 30 : have - z.total_out);
		zr = inflate(&z, Z_NO_FLUSH);
		if (zr == Z_BUF_ERROR && !z.avail_in) {
			sa_fmt(err, errlen, "the gzip stream is truncated");
			goto out;
		}
		if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR) {
			sa_fmt(err, errlen, "not a valid gzip stream (%s)", z.msg ? z.msg : "zlib error");
			goto out;
		}
	}
	if (z.total_out > cap) {
		sa_fmt(err, errlen, "decompresses to more than %zu bytes", cap);
		goto out;
	}
	if (z.total_in != len) {
		sa_fmt(err, errlen, "%zu bytes follow the end of the gzip stream", len - (size_t)z.total_in);
		goto out;
	}
	(*out)[z.total_out] = '\0';
	*outlen = z.total_out;
	rc = 0;
	goto out;
nomem:
	sa_fmt(err, errlen, "out of memory");
out:
	inflateEnd(&z);
	if (rc) {
		free(*out);
		*out = NULL;
	}
	return rc;
}

/* The size the gzip trailer claims (modulo 4 GiB, and not to be trusted): the first guess. */
static size_t claimed_size(const unsigned char *b, size_t len)
{
	return len < 18 ? 0 : (size_t)b[len - 4] | (size_t)b[len - 3] << 8 | (size_t)b[len - 2] << 16 |
				      (size_t)b[len - 1] << 24;
}

int sa_gunzip(const void *buf, size_t len, size_t cap, char **out, size_t *outlen, char *err,
	      size_t errlen)
{
	struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
	size_t have = claimed_size(buf, len), in_used = 0, got = 0;
	enum libdeflate_result r = LIBDEFLATE_BAD_DATA;

	*out = NULL;
	/* A header checksum (FHCRC) libdeflate does not check: zlib, which does, reads the stream. */
	if (len >= 4 && (((const unsigned char *)buf)[3] & 0x02)) {
		libdeflate_free_decompressor(d);
		return zlib_gunzip(buf, len, cap, out, outlen, err, errlen);
	}
	/* deflate expands at most 1032 to 1: a claim beyond that is false */
	have = have > len * 1032 + ((size_t)1 << 16) ? len * 1032 + ((size_t)1 << 16) : have;
	have = have < (size_t)1 << 16 ? (size_t)1 << 16 : have;
	/* One byte past the cap tells "too big" from "exactly cap"; a false claim costs retries
	 * that double the buffer, never more than the cap. */
	while (d) {
		char *p;

		have = have > cap + 1 ? cap + 1 : have;
		if (!(p = realloc(*out, have + 1)))
			break;
		*out = p;
		sa_hint_hugepages(p, have + 1);
		r = libdeflate_gzip_decompress_ex(d, buf, len, *out, have, &in_used, &got);
		if (r != LIBDEFLATE_INSUFFICIENT_SPACE || have > cap)
			break;
		have *= 2;
	}
	libdeflate_free_decompressor(d);
	if (r == LIBDEFLATE_SUCCESS && got <= cap && in_used == len) {
		char *fit = got + 1 < have ? realloc(*out, got + 1) : NULL;

		*out = fit ? fit : *out;
		(*out)[got] = '\0';
		*outlen = got;
		return 0;
	}
	free(*out);
	*out = NULL;
	if (r == LIBDEFLATE_INSUFFICIENT_SPACE) {
		sa_fmt(err, errlen, "decompresses to more than %zu bytes", cap);
		return -1;
	}
	return zlib_gunzip(buf, len, cap, out, outlen, err, errlen);
}
