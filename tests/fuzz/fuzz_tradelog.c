/* fuzz_tradelog.c - libFuzzer target: the trade-log loader on any bytes, every layout
 * (freqtrade JSON and CSV, TradingView, native) and, when the input's first line starts with
 * "map:", the rest of that line as a TRADES_COLUMNS column map over the rest. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tradelog_formats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	char map[600] = "";
	struct da_tradelog log;
	char err[512];

	if (size > 4 && !memcmp(buf, "map:", 4)) {
		const char *nl = memchr(buf, '\n', size);
		size_t n = nl ? (size_t)(nl - buf) - 4 : size - 4;

		if (n >= sizeof map)
			return 0;
		memcpy(map, buf + 4, n);
		map[n] = '\0';
		buf += 4 + n + (nl != NULL);
		size -= 4 + n + (nl != NULL);
	}
	if (da_tradelog_parse_any(buf, size, map, &log, err, sizeof err) == 0)
		for (size_t i = 0; i < log.n; i++)
			if (log.trades[i].exit < log.trades[i].entry || !(log.trades[i].ret > -1) ||
			    (log.trades[i].side != 1 && log.trades[i].side != -1))
				abort();
	da_tradelog_release(&log);
	return 0;
}
