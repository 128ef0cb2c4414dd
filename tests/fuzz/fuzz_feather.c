/* fuzz_feather.c - libFuzzer target: freqtrade's Feather reader (an Arrow IPC file, LZ4, ZSTD
 * or plain buffers) on any bytes, under a 1 MiB cap on the decompressed columns. The bars it
 * hands over come in order, never more than the cap has room for (six 8-byte columns a bar);
 * a refusal always says why; an accepted file names its six columns. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "ohlcv_feather.h"

#define CAP ((size_t)1 << 20)

struct seen {
	size_t next;
};

static int on_bar(void *arg, size_t i, const double v[6])
{
	struct seen *s = arg;

	(void)v;
	if (i != s->next++)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct seen s = { 0 };
	struct da_feather_info info;
	char err[512];

	err[0] = '\0';
	if (da_feather_bars((const char *)data, size, CAP, &info, on_bar, &s, err, sizeof err) == 0) {
		if (s.next > CAP / (6 * 4) || !info.codec)
			abort();
		for (int k = 0; k < 6; k++)
			if (!info.names[k][0])
				abort();
	} else if (!err[0]) {
		abort();
	}
	return 0;
}
