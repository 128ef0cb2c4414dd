/* fuzz_gunzip.c - libFuzzer target: bounded inflation of any bytes, under a small cap so that
 * bombs reach it. Output is never longer than the cap and always NUL-terminated. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gunzip.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *out = NULL, err[256];
	size_t len = 0, cap = 1 << 20;

	if (sa_gunzip(data, size, cap, &out, &len, err, sizeof err) == 0) {
		if (len > cap || out[len] != '\0')
			abort();
		free(out);
	} else if (out) {
		abort();
	}
	return 0;
}
