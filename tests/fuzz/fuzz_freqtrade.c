/* fuzz_freqtrade.c - libFuzzer target: freqtrade's JSON OHLCV reader on any bytes. Each bar it
 * hands over is six numbers cJSON parsed from at most DA_FREQTRADE_BAR_MAX bytes, so there are
 * never more bars than the text has room for; an accepted text closes its array last. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "ohlcv_bytes.h"

struct seen {
	size_t bars, next;
};

static int on_bar(void *arg, size_t i, const double v[6])
{
	struct seen *s = arg;

	(void)v;
	if (i != s->next)
		abort();
	s->next++;
	s->bars++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct seen s = { 0, 0 };
	char err[512];
	size_t last = size;

	err[0] = '\0';
	if (da_freqtrade_bars((const char *)data, size, on_bar, &s, err, sizeof err) == 0) {
		/* "[0,0,0,0,0,0]," is the shortest a bar can be written, 14 bytes with its comma */
		if (s.bars > size / 13)
			abort();
		while (last && (data[last - 1] == ' ' || data[last - 1] == '\n' ||
				data[last - 1] == '\r' || data[last - 1] == '\t'))
			last--;
		if (!last || data[last - 1] != ']')
			abort();
	} else if (!err[0]) {
		abort();
	}
	return 0;
}
