/* fuzz_ohlcv.c - libFuzzer target: the OHLCV loader on any bytes (every layout, gzip included,
 * both with and without ADJUSTED). A loaded series must hold what the loader promises, and the
 * input's first field, read as a number, must give strtod's bits or be refused as strtod (over
 * the plain decimal characters, whole field, finite) would refuse it. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "csvfield.h"
#include "ohlcv.h"

static void check_number(const uint8_t *data, size_t size)
{
	char text[SA_CSV_FIELD_MAX + 1], *end;
	size_t n = 0;
	double got = 0, want;
	int rc;

	while (n < size && n < SA_CSV_FIELD_MAX && data[n] != ',' && data[n] != '\n' && data[n])
		text[n] = (char)data[n], n++;
	text[n] = '\0';
	rc = sa_csv_field_number(text, &got);
	errno = 0;
	want = strtod(text, &end);
	{
		const char *d = text + (text[0] == '-' || text[0] == '+');
		int plain = n && strspn(text, "0123456789.eE+-") == n &&
			    ((*d >= '0' && *d <= '9') || (*d == '.' && d[1] >= '0' && d[1] <= '9'));
		int ok = plain && !*end && errno != ERANGE && isfinite(want);

		if (ok != (rc == 0) || (ok && memcmp(&want, &got, sizeof want) != 0))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct da_ohlcv_opts opts = { .adjusted = size && (data[size - 1] & 1) };
	struct da_ohlcv s;
	char err[512] = "";

	check_number(data, size);
	if (da_ohlcv_parse_opts((const char *)data, size, &opts, &s, err, sizeof err) == 0) {
		for (size_t i = 0; i < s.n; i++) {
			if ((i && s.t[i] <= s.t[i - 1]) || !(s.open[i] > 0) || !(s.low[i] > 0) ||
			    s.high[i] < s.open[i] || s.high[i] < s.close[i] || s.low[i] > s.open[i] ||
			    s.low[i] > s.close[i] || !isfinite(s.high[i]) ||
			    (s.fmt.volume && !(s.volume[i] >= 0)))
				abort();
		}
		if (s.n < 2 || s.fmt.spacing_s <= 0)
			abort();
		/* a skipped first line is said as printable text, and JSON is only read from '[' */
		for (const char *c = s.fmt.skipped; *c; c++)
			if (*c < 0x20 || *c > 0x7e)
				abort();
		if (s.fmt.layout == DA_LAYOUT_FREQTRADE && !memchr(data, '[', size))
			abort();
	} else if (!err[0]) {
		abort();
	}
	da_ohlcv_release(&s);
	return 0;
}
