/* fuzz_ohlcv.c - libFuzzer target: the OHLCV loader on any bytes (every layout, gzip included,
 * both with and without ADJUSTED). A loaded series must hold what the loader promises. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "ohlcv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sa_ohlcv_opts opts = { .adjusted = size && (data[size - 1] & 1) };
	struct sa_ohlcv s;
	char err[512];

	if (sa_ohlcv_parse_opts((const char *)data, size, &opts, &s, err, sizeof err) == 0) {
		for (size_t i = 0; i < s.n; i++) {
			if ((i && s.t[i] <= s.t[i - 1]) || !(s.open[i] > 0) || !(s.low[i] > 0) ||
			    s.high[i] < s.open[i] || s.high[i] < s.close[i] || s.low[i] > s.open[i] ||
			    s.low[i] > s.close[i] || !isfinite(s.high[i]) ||
			    (s.fmt.volume && !(s.volume[i] >= 0)))
				abort();
		}
		if (s.n < 2 || s.fmt.spacing_s <= 0)
			abort();
	}
	sa_ohlcv_release(&s);
	return 0;
}
