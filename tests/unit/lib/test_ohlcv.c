/* test_ohlcv.c - the OHLCV loader on real files: every layout in tests/data-formats/layouts
 * loads to the same bars as native.csv, every file in tests/data-formats/broken gives the error
 * written beside it, and ADJUSTED, spacing, gaps and the gzip bound do what they say; on text,
 * every validation rule gives its message. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zlib.h>

#include "fileio.h"
#include "gunzip.h"
#include "ohlcv.h"
#include "ohlcv_bytes.h"
#include "timeutil.h"

#define LAYOUTS "tests/data-formats/layouts/"
#define BROKEN "tests/data-formats/broken/"

static void load_ok(const char *path, const struct da_ohlcv_opts *o, struct da_ohlcv *s)
{
	char err[512];

	if (da_ohlcv_load_opts(path, o, s, err, sizeof(err)))
		fail_msg("%s: %s", path, err);
}

/* Same times and the same doubles, bit for bit; volume too unless the layout has none. */
static void assert_same_bars(const struct da_ohlcv *a, const struct da_ohlcv *b, const char *name)
{
	if (a->n != b->n)
		fail_msg("%s: %zu bars, native has %zu", name, b->n, a->n);
	for (size_t i = 0; i < a->n; i++) {
		if (a->t[i] != b->t[i] || memcmp(&a->open[i], &b->open[i], sizeof(double)) ||
		    memcmp(&a->high[i], &b->high[i], sizeof(double)) ||
		    memcmp(&a->low[i], &b->low[i], sizeof(double)) ||
		    memcmp(&a->close[i], &b->close[i], sizeof(double)))
			fail_msg("%s: bar %zu differs from native", name, i);
		if (b->fmt.volume ? memcmp(&a->volume[i], &b->volume[i], sizeof(double)) != 0
				  : !isnan(b->volume[i]))
			fail_msg("%s: bar %zu volume differs", name, i);
	}
}

static void test_layouts_same_bars(void **state)
{
	static const struct { const char *file; bool header; char delim; bool gzip, volume;
			      enum sa_time_form form; } lay[] = {
		{ "native.csv", true, ',', false, true, SA_TIME_ISO },
		{ "native.csv.gz", true, ',', true, true, SA_TIME_ISO },
		{ "yahoo.csv", true, ',', false, true, SA_TIME_DATE },
		{ "pandas.csv", true, ',', false, true, SA_TIME_ISO_OFFSET },
		{ "offset.csv", true, ',', false, true, SA_TIME_ISO_OFFSET },
		{ "binance-klines.csv", false, ',', false, true, SA_TIME_EPOCH_MS },
		{ "binance-klines.csv.gz", false, ',', true, true, SA_TIME_EPOCH_MS },
		{ "ccxt.csv", false, ',', false, true, SA_TIME_EPOCH_MS },
		{ "semicolon.csv", true, ';', false, true, SA_TIME_EPOCH_S },
		{ "tab.tsv", true, '\t', false, true, SA_TIME_ISO },
		{ "no-volume.csv", true, ',', false, false, SA_TIME_DATE },
		{ "metatrader5.csv", true, '\t', false, true, SA_TIME_DOTTED },
		{ "metatrader5-plain.csv", true, ',', false, true, SA_TIME_DOTTED },
		{ "metatrader4.csv", false, ',', false, true, SA_TIME_DOTTED },
		{ "dukascopy.csv", true, ',', false, true, SA_TIME_DAY_FIRST },
		{ "cryptodatadownload.csv", true, ',', false, true, SA_TIME_ISO },
		{ "freqtrade.json", false, ',', false, true, SA_TIME_EPOCH_MS },
		{ "freqtrade.json.gz", false, ',', true, true, SA_TIME_EPOCH_MS },
		{ "freqtrade.feather", false, ',', false, true, SA_TIME_EPOCH_MS },
		{ "freqtrade-zstd.feather", false, ',', false, true, SA_TIME_EPOCH_MS },
		{ "freqtrade-plain.feather", false, ',', false, true, SA_TIME_EPOCH_MS },
		{ "yfinance.csv", true, ',', false, true, SA_TIME_DATE },
	};
	struct da_ohlcv native;

	(void)state;
	load_ok(LAYOUTS "native.csv", NULL, &native);
	assert_int_equal(native.n, 300);
	for (size_t i = 0; i < sizeof(lay) / sizeof(lay[0]); i++) {
		char path[256];
		struct da_ohlcv s;

		snprintf(path, sizeof(path), LAYOUTS "%s", lay[i].file);
		load_ok(path, NULL, &s);
		assert_same_bars(&native, &s, lay[i].file);
		assert_int_equal(s.fmt.header, lay[i].header);
		assert_int_equal(s.fmt.delim, lay[i].delim);
		assert_int_equal(s.fmt.gzip, lay[i].gzip);
		assert_int_equal(s.fmt.volume, lay[i].volume);
		assert_int_equal(s.fmt.time_form, lay[i].form);
		assert_int_equal(s.fmt.spacing_s, 86400);
		assert_int_equal(s.fmt.gaps, 0);
		da_ohlcv_release(&s);
	}
	da_ohlcv_release(&native);
}

/* freqtrade's feather, damaged: cut at every length and with each byte of its footer and
 * first batch's metadata changed, it loads or is refused with a reason, never read past its end
 * (ASan watches). */
static void test_feather_damaged(void **state)
{
	char *buf = NULL, err[512];
	size_t len = 0;
	struct da_ohlcv s;

	(void)state;
	assert_int_equal(sa_read_file(LAYOUTS "freqtrade.feather", SA_DATA_CAP, &buf, &len), SA_READ_OK);
	for (size_t cut = 0; cut < len; cut += cut < 64 ? 1 : 97) {
		char *part = malloc(cut ? cut : 1);

		assert_non_null(part);
		memcpy(part, buf, cut);
		err[0] = '\0';
		assert_int_equal(da_ohlcv_parse(part, cut, &s, err, sizeof(err)), -1);
		assert_true(err[0] != '\0');
		free(part);
	}
	for (size_t i = 0; i < len; i++) {
		if (i >= 600 && i < len - 700)
			continue;  /* the schema message and first batch's metadata; the footer */
		for (int x = 1; x < 256; x <<= 1) {
			buf[i] ^= (char)x;
			err[0] = '\0';
			if (da_ohlcv_parse(buf, len, &s, err, sizeof(err)) == 0)
				da_ohlcv_release(&s);
			else
				assert_true(err[0] != '\0');
			buf[i] ^= (char)x;
		}
	}
	free(buf);
}

/* What the loader says it did with the layouts that need more than a header's names. */
static void test_layout_said(void **state)
{
	struct da_ohlcv s;

	(void)state;
	load_ok(LAYOUTS "metatrader5.csv", NULL, &s);
	assert_int_equal(s.fmt.layout, DA_LAYOUT_HEADER);
	assert_true(s.fmt.joined);
	assert_string_equal(s.fmt.names[DA_BAR_TIME], "<DATE>");
	assert_string_equal(s.fmt.clock_name, "<TIME>");
	assert_string_equal(s.fmt.names[DA_BAR_VOLUME], "<VOL>");
	assert_string_equal(s.fmt.volume_left, "<TICKVOL>");
	assert_false(s.fmt.reversed);
	da_ohlcv_release(&s);
	load_ok(LAYOUTS "metatrader4.csv", NULL, &s);
	assert_int_equal(s.fmt.layout, DA_LAYOUT_METATRADER);
	assert_true(s.fmt.joined);
	assert_int_equal(s.fmt.columns, 7);
	da_ohlcv_release(&s);
	load_ok(LAYOUTS "cryptodatadownload.csv", NULL, &s);
	assert_string_equal(s.fmt.skipped, "https://www.CryptoDataDownload.com");
	assert_true(s.fmt.reversed);
	assert_string_equal(s.fmt.names[DA_BAR_VOLUME], "Volume BTC");
	assert_string_equal(s.fmt.volume_left, "Volume USDT");
	assert_string_equal(s.fmt.names[DA_BAR_TIME], "date");
	da_ohlcv_release(&s);
	load_ok(LAYOUTS "native.csv", NULL, &s);
	assert_false(s.fmt.joined || s.fmt.reversed || s.fmt.skipped[0] || s.fmt.volume_left[0]);
	da_ohlcv_release(&s);
	{
		static const char csv[] = "\r\ntime,open,high,low,close\n"
					  "2024-01-01T00:00:00Z,10,11,9,10.5\n"
					  "2024-01-01T01:00:00Z,10,11,9,10.5\n"
					  "2024-01-01T03:00:00Z,10,11,9\n";
		char err[256];

		assert_int_equal(da_ohlcv_parse(csv, sizeof csv - 1, &s, err, sizeof(err)), -1);
		/* the lines are the file's, counted from the skipped one */
		assert_string_equal(err, "line 5: 4 fields where the header has 5");
		assert_int_equal(da_ohlcv_parse(csv, sizeof csv - 30, &s, err, sizeof(err)), 0);
		assert_string_equal(s.fmt.skipped, "(an empty line)");
		da_ohlcv_release(&s);
	}
}

/* freqtrade's JSON: read one bar at a time, so a bar longer than a bar can be is refused
 * where it stands, and the array must close where the bars end. */
static void test_freqtrade_json(void **state)
{
	static const struct { const char *json, *err; } cases[] = {
		{ " [ [3600000, 10, 11, 9, 10.5, 1] ,\n [7200000,10,11,9,10.5,1] ]\n", NULL },
		{ "[]", "at least 2 bars are needed, found 0" },
		{ "[[3600000,10,11,9,10.5,1],[7200000,10,11,9,10.5,1],]", "bar 3 is not [ms, open, high, low, close, volume]" },
		{ "[[3600000,10,11,9,10.5,1],[7200000,10,11,9,10.5]]", "bar 2 is not [ms, open, high, low, close, volume]" },
		{ "[[3600000,10,11,9,10.5,1],[7200000,10,11,9,10.5,1]] x", "bar 3: the JSON array does not close where it should (is the file cut short?)" },
		{ "[[3600000,10,11,9,10.5,1],[7200000,10,11,9,10.5,1e999]]", "bar 2: volume inf is not a finite number" },
		{ "[[7200000,10,11,9,10.5,1],[3600000,10,11,9,10.5,1],[10800000,10,11,9,10.5,1]]", "bar 3: time 1970-01-01T03:00:00Z comes after the previous bar's 1970-01-01T01:00:00Z, where the rows before run newest first (sort the file by time)" },
		{ "[[3600000,10,11,9,10.5,1],[7200000,10,11,12,10.5,1]]", "bar 2: low 12 is above the open or the close (are the columns in the order the header says?)" },
	};
	char err[512], big[2048];
	struct da_ohlcv s;
	int n;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		if (!cases[i].err) {
			assert_int_equal(da_ohlcv_parse(cases[i].json, strlen(cases[i].json), &s, err, sizeof(err)), 0);
			assert_int_equal(s.n, 2);
			assert_int_equal(s.fmt.layout, DA_LAYOUT_FREQTRADE);
			da_ohlcv_release(&s);
			continue;
		}
		assert_int_equal(da_ohlcv_parse(cases[i].json, strlen(cases[i].json), &s, err, sizeof(err)), -1);
		if (strcmp(err, cases[i].err))
			fail_msg("case %zu: got '%s', want '%s'", i, err, cases[i].err);
	}
	n = snprintf(big, sizeof(big), "[[3600000,10,11,9,10.5,1],[7200000,10,11,9,10.5,1");
	memset(big + n, ' ', DA_FREQTRADE_BAR_MAX);
	strcpy(big + n + DA_FREQTRADE_BAR_MAX, "]]");
	assert_int_equal(da_ohlcv_parse(big, strlen(big), &s, err, sizeof(err)), -1);
	assert_string_equal(err, "bar 2 is not [ms, open, high, low, close, volume]");
}

/* broken/errors.txt: "file|exact error" a line. */
static void test_broken_files(void **state)
{
	FILE *f = fopen(BROKEN "errors.txt", "r");
	char line[1024];
	int cases = 0;

	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char *bar = strchr(line, '|'), path[1100], err[512];
		struct da_ohlcv s;

		if (line[0] == '#' || !bar)
			continue;
		*bar = '\0';
		bar[1 + strcspn(bar + 1, "\n")] = '\0';
		snprintf(path, sizeof(path), BROKEN "%s", line);
		err[0] = '\0';
		assert_int_equal(da_ohlcv_load(path, &s, err, sizeof(err)), -1);
		if (strcmp(err, bar + 1))
			fail_msg("%s: got '%s', want '%s'", line, err, bar + 1);
		assert_int_equal(s.n, 0);
		cases++;
	}
	fclose(f);
	assert_true(cases >= 15);
}

static void test_adjusted(void **state)
{
	const char csv[] = "Date,Open,High,Low,Close,Adj Close,Volume\n"
			   "2024-01-01,100,110,90,100,50,7\n"
			   "2024-01-02,100,110,90,105,52.5,8\n";
	const char no_adj[] = "date,open,high,low,close\n2024-01-01,100,110,90,100\n2024-01-02,1,2,1,1\n";
	struct da_ohlcv_opts adj = { .adjusted = true };
	struct da_ohlcv s;
	char err[256];

	(void)state;
	assert_int_equal(da_ohlcv_parse_opts(csv, strlen(csv), NULL, &s, err, sizeof(err)), 0);
	assert_true(s.close[0] == 100 && s.open[1] == 100 && !s.fmt.adjusted);
	assert_string_equal(s.fmt.names[DA_BAR_ADJ], "Adj Close");
	da_ohlcv_release(&s);
	assert_int_equal(da_ohlcv_parse_opts(csv, strlen(csv), &adj, &s, err, sizeof(err)), 0);
	assert_true(s.fmt.adjusted);
	assert_true(s.open[0] == 50 && s.high[0] == 55 && s.low[0] == 45 && s.close[0] == 50);
	assert_true(s.close[1] == 52.5 && s.open[1] == 50 && s.volume[1] == 8);
	da_ohlcv_release(&s);
	assert_int_equal(da_ohlcv_parse_opts(no_adj, strlen(no_adj), &adj, &s, err, sizeof(err)), -1);
	assert_string_equal(err, "line 1: ADJUSTED=1 but the header has no 'Adj Close' column");
}

static void test_gaps_and_spacing(void **state)
{
	/* hourly, two bars missing after the second, one after the fourth */
	const char csv[] = "t,time,open,high,low,close\n"
			   "x,1704067200,1,1,1,1\nx,1704070800,1,1,1,1\nx,1704081600,1,1,1,1\n"
			   "x,1704085200,1,1,1,1\nx,1704092400,1,1,1,1\nx,1704096000,1,1,1,1\n";
	struct da_ohlcv s;
	char err[256];

	(void)state;
	assert_int_equal(da_ohlcv_parse(csv, strlen(csv), &s, err, sizeof(err)), 0);
	assert_int_equal(s.fmt.spacing_s, 3600);
	assert_int_equal(s.fmt.gaps, 2);
	assert_int_equal(s.fmt.missing_bars, 3);
	assert_int_equal(s.fmt.largest_gap_s, 3 * 3600);
	da_ohlcv_release(&s);
}

/* Daily bars from Monday 2024-01-01 for the weekdays of three weeks, one closure given: the
 * session calendar's weekends and the holiday are closures, not gaps. */
static void test_session_calendar(void **state)
{
	const char *holiday = "2024-01-15";
	char csv[1024] = "Date,Open,High,Low,Close,Volume\n";
	struct da_ohlcv s;
	char err[256];

	(void)state;
	for (int d = 1; d <= 19; d++) {
		char day[32], row[64];

		snprintf(day, sizeof day, "2024-01-%02d", d);
		if ((d - 1) % 7 >= 5 || !strcmp(day, holiday))
			continue;
		snprintf(row, sizeof row, "%s,1,1,1,1,1\n", day);
		strcat(csv, row);
	}
	assert_int_equal(da_ohlcv_parse(csv, strlen(csv), &s, err, sizeof(err)), 0);
	assert_int_equal(s.fmt.spacing_s, 86400);
	assert_true(s.fmt.sessions);
	assert_int_equal(s.fmt.gaps, 0);
	assert_int_equal(s.fmt.missing_bars, 0);
	da_ohlcv_release(&s);
	/* six weekdays skipped (Tuesday 2 to Thursday 11) is more than a holiday week: a gap */
	const char gap[] = "Date,Open,High,Low,Close\n2024-01-01,1,1,1,1\n2024-01-02,1,1,1,1\n"
			   "2024-01-11,1,1,1,1\n2024-01-12,1,1,1,1\n2024-01-15,1,1,1,1\n";
	assert_int_equal(da_ohlcv_parse(gap, strlen(gap), &s, err, sizeof(err)), 0);
	assert_true(s.fmt.sessions);
	assert_int_equal(s.fmt.gaps, 1);
	assert_int_equal(s.fmt.missing_bars, 6);
	da_ohlcv_release(&s);
	/* a bar on a Saturday: not a session calendar, and the missing days are gaps again */
	const char sat[] = "Date,Open,High,Low,Close\n2024-01-01,1,1,1,1\n2024-01-02,1,1,1,1\n"
			   "2024-01-05,1,1,1,1\n2024-01-06,1,1,1,1\n2024-01-09,1,1,1,1\n";
	assert_int_equal(da_ohlcv_parse(sat, strlen(sat), &s, err, sizeof(err)), 0);
	assert_false(s.fmt.sessions);
	assert_int_equal(s.fmt.gaps, 2);
	assert_int_equal(s.fmt.missing_bars, 4);
	da_ohlcv_release(&s);
}

static void test_epoch_magnitude(void **state)
{
	static const struct { const char *in; int64_t t; enum sa_time_form form; } ok[] = {
		{ "1704067200", 1704067200, SA_TIME_EPOCH_S },
		{ "1704067200000", 1704067200, SA_TIME_EPOCH_MS },
		{ "1704067200000000", 1704067200, SA_TIME_EPOCH_US },
		{ "0", 0, SA_TIME_EPOCH_S },
	};
	static const char *bad[] = { "-1", "1704067200001", "1e9", "17040672000000000000", "12 3" };
	struct sa_time_cache c = { 0 };

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		int64_t t;
		enum sa_time_form f;

		assert_int_equal(sa_time_parse_bar(ok[i].in, &t, &f, &c), 0);
		assert_int_equal(t, ok[i].t);
		assert_int_equal(f, ok[i].form);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int64_t t;
		enum sa_time_form f;

		if (!sa_time_parse_bar(bad[i], &t, &f, &c))
			fail_msg("'%s' was taken as a time", bad[i]);
	}
}

/* gzip of text (the stream a .csv.gz holds), into z (cap zcap); its length. */
static size_t gzip_text(const char *text, unsigned char *z, size_t zcap)
{
	z_stream zs = { 0 };
	size_t n;

	assert_int_equal(deflateInit2(&zs, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
	zs.next_in = (Bytef *)text;
	zs.avail_in = (uInt)strlen(text);
	zs.next_out = z;
	zs.avail_out = (uInt)zcap;
	assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
	n = zs.total_out;
	deflateEnd(&zs);
	return n;
}

/* FX rollover columns, swap_long and swap_short (bps a year), in every headed layout: read bar
 * by bar beside the prices, kept in time order when the rows run newest first, absent (NULL)
 * when the file has none. */
static void test_swap_columns(void **state)
{
	static const char *const files[] = {
		"time,open,high,low,close,swap_long,swap_short\n"
		"2024-01-01T00:00:00Z,1.1,1.2,1.0,1.1,180,-80\n"
		"2024-01-01T01:00:00Z,1.1,1.2,1.0,1.1,205,-55.5\n",
		"time;open;high;low;close;volume;Swap Long;Swap Short\n"
		"1704067200;1.1;1.2;1.0;1.1;7;180;-80\n1704070800;1.1;1.2;1.0;1.1;8;205;-55.5\n",
		"<DATE>\t<TIME>\t<OPEN>\t<HIGH>\t<LOW>\t<CLOSE>\t<SWAP_SHORT>\t<SWAP_LONG>\n"
		"2024.01.01\t00:00:00\t1.1\t1.2\t1.0\t1.1\t-80\t180\n"
		"2024.01.01\t01:00:00\t1.1\t1.2\t1.0\t1.1\t-55.5\t205\n",
		"time,open,high,low,close,swaplong,swapshort\n"
		"2024-01-01T01:00:00Z,1.1,1.2,1.0,1.1,205,-55.5\n"
		"2024-01-01T00:00:00Z,1.1,1.2,1.0,1.1,180,-80\n",
	};
	const char plain[] = "time,open,high,low,close\n2024-01-01T00:00:00Z,1,2,1,1\n"
			     "2024-01-01T01:00:00Z,1,2,1,1\n";
	unsigned char z[1024];
	struct da_ohlcv s;
	char err[512];

	(void)state;
	for (size_t i = 0; i <= sizeof files / sizeof files[0]; i++) {
		/* the last round: the first file gzip-compressed */
		const char *buf = i < sizeof files / sizeof files[0] ? files[i] : (const char *)z;
		size_t len = buf == (const char *)z ? gzip_text(files[0], z, sizeof z) : strlen(buf);

		if (da_ohlcv_parse(buf, len, &s, err, sizeof err))
			fail_msg("file %zu: %s", i, err);
		assert_true(s.fmt.swap);
		assert_int_equal(s.n, 2);
		assert_int_equal(s.t[0], 1704067200);
		assert_true(s.swap_long[0] == 180 && s.swap_short[0] == -80);
		assert_true(s.swap_long[1] == 205 && s.swap_short[1] == -55.5);
		da_ohlcv_release(&s);
	}
	assert_int_equal(da_ohlcv_parse(plain, strlen(plain), &s, err, sizeof err), 0);
	assert_false(s.fmt.swap);
	assert_null(s.swap_long);
	assert_null(s.swap_short);
	da_ohlcv_release(&s);
}

/* A small gzip file that inflates past the cap is refused, not allocated. */
static void test_gzip_bound(void **state)
{
	size_t n = 4 << 20;
	char *plain = calloc(1, n), *out = NULL, err[256];
	uLongf zlen = compressBound(n) + 64;
	unsigned char *z = malloc(zlen);
	z_stream zs = { 0 };
	size_t outlen;

	(void)state;
	assert_int_equal(deflateInit2(&zs, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
	zs.next_in = (Bytef *)plain;
	zs.avail_in = (uInt)n;
	zs.next_out = z;
	zs.avail_out = (uInt)zlen;
	assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
	zlen = zs.total_out;
	deflateEnd(&zs);
	assert_true(sa_is_gzip(z, zlen));
	assert_int_equal(sa_gunzip(z, zlen, n - 1, &out, &outlen, err, sizeof(err)), -1);
	assert_null(out);
	assert_string_equal(err, "decompresses to more than 4194303 bytes");
	assert_int_equal(sa_gunzip(z, zlen, n, &out, &outlen, err, sizeof(err)), 0);
	assert_int_equal(outlen, n);
	free(out);
	memcpy(z + zlen, "xx", 2);
	assert_int_equal(sa_gunzip(z, zlen + 2, n, &out, &outlen, err, sizeof(err)), -1);
	assert_string_equal(err, "2 bytes follow the end of the gzip stream");
	/* The trailer's size is a first guess only: claimed too small, the buffer grows (and the
	 * stream is then refused for the false claim); claimed too large, nothing huge is kept. */
	z[zlen - 1] = 0, z[zlen - 2] = 0, z[zlen - 3] = 0, z[zlen - 4] = 1;
	assert_int_equal(sa_gunzip(z, zlen, n, &out, &outlen, err, sizeof(err)), -1);
	assert_null(out);
	assert_string_equal(err, "not a valid gzip stream (incorrect length check)");
	z[zlen - 1] = 0x3f, z[zlen - 2] = 0, z[zlen - 3] = 0x40, z[zlen - 4] = 0;
	assert_int_equal(sa_gunzip(z, zlen, 1u << 30, &out, &outlen, err, sizeof(err)), -1);
	assert_string_equal(err, "not a valid gzip stream (incorrect length check)");
	free(z);
	free(plain);
}

#define CAL "tests/fixtures/calendar/"

/* Bars by their calendar: the FX week, holiday weeks, months; pandas' index; a perpetual told
 * by its funding column or its -futures name (tests/fixtures/calendar/make-calendar.py). */
static void test_calendars(void **state)
{
	struct da_ohlcv s;

	(void)state;
	load_ok(CAL "fx_week.csv", NULL, &s);
	assert_true(s.fmt.fx_week);
	assert_false(s.fmt.sessions);
	assert_true(s.fmt.index_time);
	assert_string_equal(s.fmt.bar, "1h");
	assert_int_equal(s.fmt.gaps, 0);  /* the weekends are closures */
	da_ohlcv_release(&s);
	load_ok(CAL "weekly_holiday.csv", NULL, &s);
	assert_int_equal(s.fmt.period, DA_PERIOD_WEEK);
	assert_string_equal(s.fmt.bar, "1w");
	assert_true(s.fmt.sessions);
	assert_int_equal(s.fmt.gaps, 0);
	da_ohlcv_release(&s);
	load_ok(CAL "monthly.csv", NULL, &s);
	assert_int_equal(s.n, 36);
	assert_string_equal(s.fmt.bar, "1M");
	assert_true(s.fmt.sessions);
	assert_int_equal(s.fmt.gaps, 0);
	da_ohlcv_release(&s);
	load_ok(CAL "unnamed_index.csv", NULL, &s);
	assert_true(s.fmt.index_time);
	assert_string_equal(s.fmt.bar, "1d");
	assert_false(s.fmt.fx_week || s.fmt.sessions);
	assert_string_equal(s.fmt.perpetual, "");
	da_ohlcv_release(&s);
	load_ok(CAL "funding.csv", NULL, &s);
	assert_string_equal(s.fmt.perpetual, "a funding column, 'fundingRate'");
	da_ohlcv_release(&s);
	load_ok(CAL "futures_1h-futures.csv", NULL, &s);
	assert_string_equal(s.fmt.perpetual, "the file name says futures, 'futures_1h-futures.csv'");
	da_ohlcv_release(&s);
}

static void parse_fails(const char *text, const char *want)
{
	struct da_ohlcv s;
	char err[512];

	assert_int_equal(da_ohlcv_parse(text, strlen(text), &s, err, sizeof err), -1);
	assert_string_equal(err, want);
}

static void test_calendar_refusals(void **state)
{
	struct da_ohlcv s;
	char err[512];

	(void)state;
	assert_int_equal(da_ohlcv_load(CAL "index_not_time.csv", &s, err, sizeof err), -1);
	assert_string_equal(err, "line 2: '0' in the first column, unnamed (pandas' index), is not a "
			    "time (write the frame with its DatetimeIndex, or name the time column)");
	/* a day's bar among weeks is no week */
	parse_fails("date,open,high,low,close\n2024-01-01,1,1,1,1\n2024-01-08,1,1,1,1\n"
		    "2024-01-15,1,1,1,1\n2024-01-16,1,1,1,1\n2024-01-22,1,1,1,1\n",
		    "line 5: 86400 s after the previous bar, where the series steps by calendar weeks: "
		    "mixed spacings make no series (resample the file to one bar size)");
	/* two months in one is no month */
	parse_fails("date,open,high,low,close\n2024-01-01,1,1,1,1\n2024-02-01,1,1,1,1\n"
		    "2024-03-01,1,1,1,1\n2024-04-01,1,1,1,1\n2024-05-01,1,1,1,1\n2024-06-03,1,1,1,1\n"
		    "2024-06-17,1,1,1,1\n2024-07-01,1,1,1,1\n",
		    "line 8: 1209600 s after the previous bar, where the series steps by calendar months: "
		    "mixed spacings make no series (resample the file to one bar size)");
}

/* The parser on text: a valid file, and every validation rule with its message. */
#define HDR "time,open,high,low,close,volume\n"
#define ROW1 "2024-01-01T00:00:00Z,100,101,99,100.5,10\n"
#define ROW2 "2024-01-01T01:00:00Z,100.5,102,100,101,12\n"

static void test_ohlcv_valid(void **state)
{
	const char csv[] = HDR ROW1 ROW2;
	struct da_ohlcv s;
	char err[256];

	(void)state;
	assert_int_equal(da_ohlcv_parse(csv, strlen(csv), &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.t[1] - s.t[0], 3600);
	assert_true(s.close[0] == 100.5 && s.high[1] == 102 && s.volume[1] == 12);
	da_ohlcv_release(&s);
	assert_null(s.t);
}

/* Each bad csv and the start of the error it must give, with its line. */
static void test_ohlcv_rejects(void **state)
{
	static const struct { const char *csv, *err; } bad[] = {
		{ "", "the file is empty" },
		{ "time,open,high,close\n" ROW1, "line 1: no low column in the header" },
		{ "tag,open,high,low,close,vol\n" ROW1, "line 1: no time column in the header" },
		{ "id,price,qty,quote_qty,time,is_buyer_maker\n1,100.5,0.5,50.25,1704067200000,true\n", "line 1: this is a file of trades (a price and an amount a row), not bars" },
		{ "time,price,volume\n" ROW1, "line 1: this is a file of trades (a price and an amount a row), not bars" },
		{ "1704067200,100.5,0.5\n1704067201,100.6,0.1\n", "line 1: this is a file of trades (time, price, amount a row, as Kraken's trade history), not bars" },
		{ "Price,Close,High,Low,Open,Volume\nTicker,X,X,X,X,X\n" ROW1, "line 1: no time column in the header" },
		{ "Price,Close,High,Low,Open,Volume\nTicker,X,X,X,X,X\nDate,,,,,\n2024-01-01,101,102,100,100.5,12\n2024-01-02,101,102,100,100.5,x\n", "line 5: volume 'x' is not a finite number" },
		{ HDR ROW1 "2024-01-01T01:00:00Z,nan,102,100,101,12\n", "line 3: open 'nan' is not a finite number" },
		{ HDR ROW1 "2024-01-01T01:00:00Z,100,102,100,101,inf\n", "line 3: volume 'inf'" },
		{ HDR ROW1 "2024-01-01T01:00:00Z,100.5,102,100,101,12\n2023-12-31T23:00:00Z,100.5,102,100,101,12\n", "line 4: time 2023-12-31T23:00:00Z comes before the previous bar's" },
		{ HDR "2024-01-01T01:00:00Z,100.5,102,100,101,12\n" ROW1 "2024-01-01T02:00:00Z,100.5,102,100,101,12\n", "line 4: time 2024-01-01T02:00:00Z comes after the previous bar's 2024-01-01T00:00:00Z, where the rows before run newest first" },
		{ HDR "2024-01-01T04:00:00Z,100.5,102,100,101,12\n2024-01-01T03:00:00Z,100.5,102,100,101,12\n2024-01-01T02:00:00Z,100.5,102,100,101,12\n2024-01-01T01:30:00Z,100.5,102,100,101,12\n", "line 5: 1800 s after the previous bar, where the series steps by 3600 s" },
		{ "01/02/2024,100.5,102,100,101,12\n", "line 1: '01/02/2024' is ambiguous, day or month first" },
		{ "date,time,open,high,low,close\n2024.01.01,25:00,100.5,102,100,101\n", "line 2: date '2024.01.01' and time '25:00' make no time" },
		{ HDR ROW1 "2024-01-01T00:00:00Z,100.5,102,100,101,12\n", "line 3: time 2024-01-01T00:00:00Z repeats the previous bar's" },
		{ HDR ROW1 "2024-01-01T01:00:00Z,100.5,100,100,101,12\n", "line 3: high 100 is below" },
		{ HDR ROW1 "2024-01-01T01:00:00Z,100.5,102,101,101,12\n", "line 3: low 101 is above" },
		{ HDR ROW1 "2024-01-01T01:00:00Z,-1,102,100,101,12\n", "line 3: open must be a finite positive price" },
		{ HDR ROW1 "2024-01-01T01:00:00Z,100.5,102,100,101,-3\n", "line 3: volume must not be negative" },
		{ HDR ROW1 "yesterday,100.5,102,100,101,12\n", "line 3: 'yesterday' is not a time" },
		{ HDR ROW1 "2024-01-01T01:00:00Z,100.5,102,100\n", "line 3: 4 fields where the header has 6" },
		{ HDR ROW1 "2024-01-01T01:00:00Z,100.5,102,100,101,12,7\n", "line 3: 7 fields where the header has 6" },
		{ HDR ROW1, "at least 2 bars are needed, found 1" },
		{ HDR ROW1 "2024-01-01T01:00:00Z,100.5,1x,100,101,12\n", "line 3: high '1x' is not a finite number" },
		{ HDR ROW1 "2024-01-01T01:00:00Z,0x64,102,100,101,12\n", "line 3: open '0x64' is not a finite number" },
		{ HDR ROW1 "2024-01-01T01:00:00Z,100.5,102,100,101, 12\n", "line 3: volume ' 12' is not a finite number" },
		{ HDR ROW1 "2024-01-01T01:00:00Z,100.5,102 ,100,101,12\n", "line 3: high '102 ' is not a finite number" },
	};
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct da_ohlcv s;

		err[0] = '\0';
		assert_int_equal(da_ohlcv_parse(bad[i].csv, strlen(bad[i].csv), &s, err, sizeof(err)), -1);
		if (strncmp(err, bad[i].err, strlen(bad[i].err)))
			fail_msg("case %zu: got '%s', want '%s...'", i, err, bad[i].err);
		assert_int_equal(s.n, 0);
	}
}

static void test_ohlcv_long_field(void **state)
{
	size_t big = 10 * 1024 * 1024;
	char *csv = malloc(big + 200), err[256];
	struct da_ohlcv s;
	int n;

	(void)state;
	n = sprintf(csv, HDR ROW1 "2024-01-01T01:00:00Z,");
	memset(csv + n, '7', big);
	strcpy(csv + n + big, ",102,100,101,12\n");
	assert_int_equal(da_ohlcv_parse(csv, strlen(csv), &s, err, sizeof(err)), -1);
	assert_string_equal(err, "line 3: longer than 4096 bytes; not a csv this tool reads");
	free(csv);
}

/* A NUL byte inside a value is refused, not read as the number before it ("101\0junk"). */
static void test_ohlcv_nul_byte(void **state)
{
	static const char csv[] = HDR ROW1 "2024-01-01T01:00:00Z,100.5,102,100,101\0junk,12\n";
	char err[256];
	struct da_ohlcv s;

	(void)state;
	assert_int_equal(da_ohlcv_parse(csv, sizeof csv - 1, &s, err, sizeof(err)), -1);
	assert_string_equal(err, "line 3: field 5 is longer than 63 bytes or holds a NUL byte (is this a CSV file?)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layouts_same_bars),
		cmocka_unit_test(test_feather_damaged),
		cmocka_unit_test(test_layout_said),
		cmocka_unit_test(test_freqtrade_json),
		cmocka_unit_test(test_broken_files),
		cmocka_unit_test(test_adjusted),
		cmocka_unit_test(test_gaps_and_spacing),
		cmocka_unit_test(test_session_calendar),
		cmocka_unit_test(test_epoch_magnitude),
		cmocka_unit_test(test_gzip_bound),
		cmocka_unit_test(test_swap_columns),
		cmocka_unit_test(test_calendars),
		cmocka_unit_test(test_calendar_refusals),
		cmocka_unit_test(test_ohlcv_valid),
		cmocka_unit_test(test_ohlcv_rejects),
		cmocka_unit_test(test_ohlcv_long_field),
		cmocka_unit_test(test_ohlcv_nul_byte),
	};

	return cmocka_run_group_tests_name("ohlcv", tests, NULL, NULL);
}
