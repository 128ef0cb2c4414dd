/* fuzz_gunzip.c - libFuzzer target: bounded inflation of any bytes, under a small cap so that
 * bombs reach it. Output is never longer than the cap and always NUL-terminated, and what is
 * accepted is exactly what zlib's own inflater makes of the same bytes (libdeflate decompresses,
 * so zlib is the oracle). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "gunzip.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *out = NULL, err[256];
	size_t len = 0, cap = 1 << 20;

	if (sa_gunzip(data, size, cap, &out, &len, err, sizeof err) == 0) {
		z_stream z = { 0 };
		char *ref = malloc(len + 1);

		if (len > cap || out[len] != '\0' || !ref || inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
			abort();
		z.next_in = (Bytef *)data;
		z.avail_in = (uInt)size;
		z.next_out = (Bytef *)ref;
		z.avail_out = (uInt)len + 1;
		if (inflate(&z, Z_FINISH) != Z_STREAM_END || z.total_out != len || z.total_in != size ||
		    memcmp(ref, out, len) != 0)
			abort();
		inflateEnd(&z);
		free(ref);
		free(out);
	} else if (out) {
		abort();
	}
	return 0;
}
