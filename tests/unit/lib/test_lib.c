/* test_lib.c - the shared library: timestamps, loaders (every validation rule), text, JSON I/O,
 * atomic writes that fail (the old file stays, the message says why). */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "csvfield.h"
#include "fileio.h"
#include "msg.h"
#include "jsonio.h"
#include "ohlcv.h"
#include "stagefile.h"
#include "text.h"
#include "timeutil.h"
#include "tradelog.h"

static void test_time_roundtrip(void **state)
{
	static const struct { const char *in; int64_t epoch; const char *out; } ok[] = {
		{ "1970-01-01T00:00:00Z", 0, "1970-01-01T00:00:00Z" },
		{ "2024-01-01T00:00:00Z", 1704067200, "2024-01-01T00:00:00Z" },
		{ "2024-02-29 13:45:10", 1709214310, "2024-02-29T13:45:10Z" },
		{ "2024-03-05T14:00:00+00:00", 1709647200, "2024-03-05T14:00:00Z" },
		{ "2025-12-31T23:59", 1767225540, "2025-12-31T23:59:00Z" },
		{ "2024-01-01", 1704067200, "2024-01-01T00:00:00Z" },
		{ "2024-01-01 00:00:00-05:00", 1704085200, "2024-01-01T05:00:00Z" },
		{ "2024-01-01T05:30:00+0530", 1704067200, "2024-01-01T00:00:00Z" },
		{ "2024-01-01T01:00:00+01", 1704067200, "2024-01-01T00:00:00Z" },
		{ "2024-01-01T00:00:00.000Z", 1704067200, "2024-01-01T00:00:00Z" },
	};
	char buf[21];

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		int64_t e = -1;

		assert_int_equal(sa_time_parse(ok[i].in, &e), 0);
		assert_int_equal(e, ok[i].epoch);
		assert_string_equal(sa_time_format(e, buf), ok[i].out);
	}
}

static void test_time_rejects(void **state)
{
	static const char *bad[] = {
		"", "2024-01", "2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z", "2024-01-01T24:00:00Z",
		"2024-01-01T00:00:00+01:", "2024-01-01T00:00:00Zjunk", "20x4-01-01T00:00:00Z",
		"2024-04-31T00:00:00Z", "2024-01-01T00:60:00Z", "2024-01-01T00:00:00.5Z",
		"2024-01-01T00:00:00+24:00", "2024-01-01T00:00:00+01:60", "2024-01-01T00:00:00.Z",
		"2024-01-01T", "2024-01-01 00",
	};
	int64_t e;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(sa_time_parse(bad[i], &e), -1);
}

static void test_time_cache_agrees(void **state)
{
	struct sa_time_cache c = { 0 };
	const char *seq[] = { "2024-01-01T00:00:00Z", "2024-01-01T23:00:00Z", "2024-01-02T01:00:00Z",
			      "2024-01-02T01:00:00Z", "2024-03-01T00:00:00Z" };

	(void)state;
	for (size_t i = 0; i < 5; i++) {
		int64_t a, b;

		assert_int_equal(sa_time_parse(seq[i], &a), 0);
		assert_int_equal(sa_time_parse_cached(seq[i], &b, &c), 0);
		assert_int_equal(a, b);
	}
}

#define HDR "time,open,high,low,close,volume\n"
#define ROW1 "2024-01-01T00:00:00Z,100,101,99,100.5,10\n"
#define ROW2 "2024-01-01T01:00:00Z,100.5,102,100,101,12\n"

/* The strict grammar with strtod's value: the number parser's fast path must give the same
 * bits as strtod, and refuse exactly what strtod (limited to plain decimals) would not take. */
static int strtod_plain(const char *text, double *out)
{
	char *end;
	double x;

	if (strspn(text, "0123456789.eE+-") != strlen(text) || !*text)
		return -1;
	if (!((text[0] >= '0' && text[0] <= '9') || text[0] == '.' || text[0] == '-' || text[0] == '+'))
		return -1;
	{
		const char *d = text + (text[0] == '-' || text[0] == '+');
		if (!((*d >= '0' && *d <= '9') || (*d == '.' && d[1] >= '0' && d[1] <= '9')))
			return -1;
	}
	errno = 0;
	x = strtod(text, &end);
	if (*end || errno == ERANGE || !isfinite(x))
		return -1;
	*out = x;
	return 0;
}

static void check_number(const char *text)
{
	double want = 0, got = 0;
	int rw = strtod_plain(text, &want), rg = sa_csv_field_number(text, &got);

	if (rw != rg)
		fail_msg("'%s': strtod says %d, the parser %d", text, rw, rg);
	if (rw == 0 && memcmp(&want, &got, sizeof want))
		fail_msg("'%s': strtod %.17g, the parser %.17g", text, want, got);
}

static void test_number_matches_strtod(void **state)
{
	static const char *const fixed[] = {
		"0", "-0", "+0", "0.0", "-0.0", ".5", "-.5", "5.", "1e5", "1E+05", "1.e5", "1e-5",
		"40000.00", "0.1", "0.3", "123.456", "9007199254740992", "9007199254740993",
		"9007199254740993.0", "1e22", "1e23", "9007199254740992e22", "4503599627370497.5",
		"1234567890123456789", "12345678901234567890", "0.12345678901234567890123",
		"123456789012345678901234567890", "1e308", "1e309", "1e-320", "2.2250738585072014e-308",
		"00000000000000000000000000001.5", "1.0000000000000000000000000001", "17976931348623157e292",
		"", ".", "-", "+", "e5", ".e5", "1e", "1e+", "1e-", "1.2.3", "1e5e5", "1-2", "0x6a", "0X6A",
		"inf", "nan", "-inf", " 1.5", "1.5 ", "1,5", "1..5", "--1", "+-1", "1e5.5", "١",
	};
	const char alphabet[] = "0123456789";
	uint64_t r = 0x9e3779b97f4a7c15u;
	char buf[64];

	(void)state;
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		check_number(fixed[i]);
	for (int i = 0; i < 400000; i++) {
		size_t n = 0;
		int a, b;

		r ^= r << 13, r ^= r >> 7, r ^= r << 17;
		if (r & 1)
			buf[n++] = r & 2 ? '-' : '+';
		a = (int)((r >> 8) % 21), b = (int)((r >> 16) % 21);
		for (int k = 0; k < a; k++)
			buf[n++] = alphabet[(r >> (k % 50)) % 10];
		if (r & 4 || b)
			buf[n++] = '.';
		for (int k = 0; k < b; k++)
			buf[n++] = alphabet[((r >> 24) + (uint64_t)k * 7919) % 10];
		if (r & 8) {
			buf[n++] = r & 16 ? 'e' : 'E';
			if (r & 32)
				buf[n++] = r & 64 ? '-' : '+';
			n += (size_t)snprintf(buf + n, sizeof buf - n, "%d", (int)((r >> 32) % 40));
		}
		buf[n] = '\0';
		check_number(buf);
	}
}

/* The windowed scan against a line-by-line count, on buffers with lines around the limit. */
static size_t long_line_naive(const char *buf, size_t len, size_t max)
{
	size_t line = 1, run = 0;

	for (size_t i = 0; i < len; i++) {
		if (buf[i] == '\n') {
			if (run > max)
				return line;
			run = 0;
			line++;
		} else {
			run++;
		}
	}
	return run > max ? line : 0;
}

static void test_long_line_scan(void **state)
{
	enum { MAX = 40 };
	static char buf[4096];
	uint64_t r = 12345;

	(void)state;
	assert_int_equal(sa_csv_long_line("", 0, MAX), 0);
	for (int t = 0; t < 20000; t++) {
		size_t len = 0, lines = (size_t)(t % 30);

		for (size_t l = 0; l < lines && len < sizeof buf - 100; l++) {
			size_t n;

			r ^= r << 13, r ^= r >> 7, r ^= r << 17;
			/* mostly short lines, sometimes exactly at, just over or far over the limit */
			n = r % 8 == 0 ? MAX + (r >> 8) % 3 - 1 : r % 97 == 0 ? MAX * 3 : (r >> 16) % MAX;
			memset(buf + len, 'x', n);
			len += n;
			if (l + 1 < lines || r & 1)
				buf[len++] = '\n';
		}
		if (sa_csv_long_line(buf, len, MAX) != long_line_naive(buf, len, MAX))
			fail_msg("buffer %d: the scan says line %zu, the count %zu", t,
				 sa_csv_long_line(buf, len, MAX), long_line_naive(buf, len, MAX));
	}
}

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

static void test_tradelog(void **state)
{
	const char ok[] = "side,entry_time,exit_time,return,note\n"
			  "long,2024-01-01T00:00:00Z,2024-01-01T05:00:00Z,0.01,a\n"
			  "SHORT,2024-01-02T00:00:00Z,2024-01-02T03:00:00Z,-0.002,b\n";
	static const struct { const char *csv, *err; } bad[] = {
		{ "entry_time,exit_time,side\n", "line 1: missing column 'return'" },
		{ "entry_time,exit_time,side,return\n2024-01-01T00:00:00Z,2024-01-01T01:00:00Z,long,nan\n",
		  "line 2: return 'nan' is not a finite number" },
		{ "entry_time,exit_time,side,return\n2024-01-01T00:00:00Z,2024-01-01T01:00:00Z,up,0.1\n",
		  "line 2: side 'up' should be long or short" },
		{ "entry_time,exit_time,side,return\n2024-01-01T02:00:00Z,2024-01-01T01:00:00Z,long,0.1\n",
		  "line 2: exit_time is before entry_time" },
		{ "entry_time,exit_time,side,return\n2024-01-01T00:00:00Z,2024-01-01T01:00:00Z,long,-1.5\n",
		  "line 2: return -1.5 would lose more than everything" },
		{ "entry_time,exit_time,side,return,return\n", "line 1: column 'return' appears twice" },
		{ "entry_time,exit_time,side,return\n2024-01-01T00:00:00Z,2024-01-01T01:00:00Z,long,0x6a\n",
		  "line 2: return '0x6a' is not a finite number" },
		{ "entry_time,exit_time,side,return\n2024-01-01T00:00:00Z,2024-01-01T01:00:00Z,long, 1.5\n",
		  "line 2: return ' 1.5' is not a finite number" },
		{ "entry_time,exit_time,side,return\n2024-01-01T00:00:00Z,2024-01-01T01:00:00Z,long,1.5\t\n",
		  "line 2: return '1.5\t' is not a finite number" },
		{ "entry_time,exit_time,side,return\n2024-01-01T00:00:00Z,2024-01-01T01:00:00Z,long,0.01\n"
		  "2024-01-02T00:00:00Z,2024-01-02T01:00:00Z,long,0.02\n"
		  "2024-01-01T00:00:00Z,2024-01-01T01:00:00Z,long,0.01\n",
		  "line 4: the same trade as line 2" },
		{ "entry_time,exit_time,side,return\n2024-01-01T00:00:00Z,2024-01-01T01:00:00Z,long,1e200\n"
		  "2024-01-02T00:00:00Z,2024-01-02T01:00:00Z,long,1e200\n",
		  "line 3: return 1e+200 takes the compounded equity past 1e300" },
		{ "", "the file is empty" },
	};
	struct da_tradelog log;
	char err[256];

	(void)state;
	assert_int_equal(da_tradelog_parse(ok, strlen(ok), &log, err, sizeof(err)), 0);
	assert_int_equal(log.n, 2);
	assert_int_equal(log.trades[1].side, -1);
	assert_true(log.trades[0].ret == 0.01 && log.trades[0].exit - log.trades[0].entry == 5 * 3600);
	assert_string_equal(log.columns, "side,entry_time,exit_time,return,note");
	da_tradelog_release(&log);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(da_tradelog_parse(bad[i].csv, strlen(bad[i].csv), &log, err, sizeof(err)), -1);
		if (strncmp(err, bad[i].err, strlen(bad[i].err)))
			fail_msg("case %zu: got '%s', want '%s...'", i, err, bad[i].err);
	}
}

static void test_utf8(void **state)
{
	int line = 0;

	(void)state;
	assert_true(sa_utf8_valid("plain\nascii", 11, NULL));
	assert_true(sa_utf8_valid("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 14, NULL));
	assert_false(sa_utf8_valid("ok\nok\n\xff", 7, &line));
	assert_int_equal(line, 3);
	assert_false(sa_utf8_valid("\xc0\xaf", 2, NULL));          /* overlong '/' */
	assert_false(sa_utf8_valid("\xed\xa0\x80", 3, NULL));      /* surrogate */
	assert_false(sa_utf8_valid("\xe2\x82", 2, NULL));          /* truncated */
}

static void test_formula_and_csv(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	assert_true(sa_is_formula_like("=HYPERLINK(\"x\")"));
	assert_true(sa_is_formula_like(" +1"));
	assert_true(sa_is_formula_like("@SUM(A1)"));
	assert_true(sa_is_formula_like("-2+3"));
	assert_false(sa_is_formula_like("long"));
	fp = open_memstream(&buf, &len);
	sa_csv_write_text(fp, "=cmd|' /C calc'!A0");
	fputc('|', fp);
	sa_csv_write_text(fp, "a,\"b\"");
	fputc('|', fp);
	sa_csv_write_text(fp, "plain");
	fputc('|', fp);
	sa_html_escape(fp, "</script><img src=x onerror='a'>&");
	fclose(fp);
	assert_string_equal(buf, "\"'=cmd|' /C calc'!A0\"|\"a,\"\"b\"\"\"|plain|"
				 "&lt;/script&gt;&lt;img src=x onerror=&#39;a&#39;&gt;&amp;");
	free(buf);
}

static void test_read_cap_and_json(void **state)
{
	char path[] = "/tmp/sa-test-XXXXXX", err[256], *buf = NULL;
	size_t len;
	int fd = mkstemp(path);
	cJSON *j;
	bool ok;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "{\"ok\": true, \"x\": 1} trailing", 29), 29);
	close(fd);
	assert_int_equal(sa_read_file(path, 10, &buf, &len), SA_READ_TOOBIG);
	assert_null(buf);
	assert_int_equal(sa_read_file(path, 29, &buf, &len), SA_READ_OK);
	assert_int_equal(len, 29);
	free(buf);
	j = sa_json_read(path, SA_JSON_CAP, err, sizeof(err));
	assert_null(j);
	assert_non_null(strstr(err, "is not valid JSON"));
	j = sa_json_stage("t", 1);
	sa_json_add_num(j, "pi", 3.14159265358979, 4);
	sa_json_add_num(j, "nan", 0.0 / 0.0, 4);
	sa_json_fail(j, "because");
	assert_int_equal(sa_json_write(path, j, err, sizeof(err)), 0);
	cJSON_Delete(j);
	j = sa_json_read_stage(path, &ok, err, sizeof(err));
	assert_non_null(j);
	assert_false(ok);
	assert_string_equal(err, "because");
	assert_true(sa_json_num(j, "pi", 0) == 3.142);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "nan")));
	assert_string_equal(sa_json_str(j, "stage", ""), "t");
	cJSON_Delete(j);
	assert_int_equal(sa_read_file("/nonexistent/x", 10, &buf, &len), SA_READ_MISSING);
	unlink(path);
}

/* --- atomic writes that fail --------------------------------------------------------------- */

/* stderr goes to a file between capture_begin and capture_end, which returns the caller's err
 * buffer when the library printed nothing, and "printed: ..." when it printed: the library's
 * errors go back to the caller, in err, never to the terminal. capture_begin fills err with a
 * marker, so a failure that leaves err alone shows as "unset". */
static int saved_stderr = -1;
static char captured[4096];

#define ERR_UNSET "unset"

static void capture_begin(char *err, size_t errlen)
{
	char path[] = "/tmp/sa-test-err-XXXXXX";
	int fd = mkstemp(path);

	snprintf(err, errlen, "%s", ERR_UNSET);

	assert_true(fd >= 0);
	unlink(path);
	fflush(stderr);
	saved_stderr = dup(2);
	assert_true(saved_stderr >= 0);
	assert_int_equal(dup2(fd, 2), 2);
	close(fd);
}

static const char *capture_end(const char *err)
{
	ssize_t n;

	fflush(stderr);
	n = pread(2, captured + 9, sizeof captured - 10, 0);
	assert_int_equal(dup2(saved_stderr, 2), 2);
	close(saved_stderr);
	saved_stderr = -1;
	if (n > 0) {
		memcpy(captured, "printed: ", 9);
		captured[9 + n] = '\0';
	} else {
		snprintf(captured, sizeof captured, "%s", err);
	}
	return captured;
}

/* A scratch directory holding "old" (the file a failed write must leave alone). */
static void scratch_with_old(char dir[64], char old[96])
{
	char err[512];

	strcpy(dir, "/tmp/sa-test-dir-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(old, 96, "%s/old.json", dir);
	assert_int_equal(sa_write_file(old, "old bytes\n", 10, err, sizeof err), 0);
}

/* The target still holds exactly "old bytes\n" and no .tmp file was left beside it. */
static void assert_old_kept(const char *old)
{
	char *buf = NULL, tmp[112];
	size_t len;

	assert_int_equal(sa_read_file(old, 4096, &buf, &len), SA_READ_OK);
	assert_int_equal(len, 10);
	assert_memory_equal(buf, "old bytes\n", 10);
	free(buf);
	snprintf(tmp, sizeof tmp, "%s.tmp", old);
	assert_int_equal(access(tmp, F_OK), -1);
}

static void scratch_remove(const char *dir, const char *old)
{
	unlink(old);
	assert_int_equal(rmdir(dir), 0);
}

/* msg holds a and b, and is a message of the project's style: it starts in lowercase. */
static void assert_says(const char *msg, const char *a, const char *b)
{
	if (!strstr(msg, a) || !strstr(msg, b) || !(msg[0] >= 'a' && msg[0] <= 'z'))
		fail_msg("expected a lowercase message with '%s' and '%s': %s", a, b, msg);
}

/* A file-size limit (RLIMIT_FSIZE, SIGXFSZ ignored): both a big fwrite and a commit whose last
 * buffer cannot be flushed fail with EFBIG; the old file stays whole. Root is no exception. */
static void test_atomic_write_file_size_limit(void **state)
{
	char dir[64], old[96], big[65536], msg1[sizeof captured], err[512];
	struct rlimit was, lim;
	struct sigaction ign = { .sa_handler = SIG_IGN }, prev;
	struct sa_atomic a;
	const char *msg2;
	int rc1, rc2, open_rc, wrote = 0;

	(void)state;
	scratch_with_old(dir, old);
	memset(big, 'x', sizeof big);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &was), 0);
	lim = was;
	lim.rlim_cur = 4096;
	assert_int_equal(sigaction(SIGXFSZ, &ign, &prev), 0);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	/* Nothing may fail an assert under the limit: it would stay on for the later tests. */
	capture_begin(err, sizeof err);
	rc1 = sa_write_file(old, big, sizeof big, err, sizeof err);
	snprintf(msg1, sizeof msg1, "%s", capture_end(err));
	/* Small writes that stay in stdio's buffer until the commit flushes them. */
	open_rc = sa_atomic_open(&a, old, err, sizeof err);
	for (int i = 0; !open_rc && i < 8; i++)
		wrote += (int)fwrite(big, 1, 1000, a.fp);
	capture_begin(err, sizeof err);
	rc2 = open_rc ? 0 : sa_atomic_commit(&a, err, sizeof err);
	msg2 = capture_end(err);
	setrlimit(RLIMIT_FSIZE, &was);
	sigaction(SIGXFSZ, &prev, NULL);

	assert_int_equal(rc1, -1);
	assert_says(msg1, old, strerror(EFBIG));
	assert_int_equal(open_rc, 0);
	assert_int_equal(wrote, 8000);
	assert_int_equal(rc2, -1);
	assert_says(msg2, old, strerror(EFBIG));
	assert_null(a.fp);
	assert_old_kept(old);
	scratch_remove(dir, old);
}

/* A directory that does not exist, and a "directory" that is a file: nothing is written and
 * err says "cannot write 'path': reason". The JSON writer, the copy, the hash and mkdir -p say
 * so the same way. */
static void test_atomic_write_bad_directory(void **state)
{
	char dir[64], old[96], path[160], want[200], hex[65], err[512];
	cJSON *j = sa_json_stage("t", 1);
	const char *msg;
	int rc;

	(void)state;
	scratch_with_old(dir, old);
	snprintf(path, sizeof path, "%s/missing/new.json", dir);
	snprintf(want, sizeof want, "cannot write '%s': ", path);
	capture_begin(err, sizeof err);
	rc = sa_write_file(path, "new\n", 4, err, sizeof err);
	msg = capture_end(err);
	assert_int_equal(rc, -1);
	assert_says(msg, want, strerror(ENOENT));
	capture_begin(err, sizeof err);
	rc = sa_json_write(path, j, err, sizeof err);
	msg = capture_end(err);
	assert_int_equal(rc, -1);
	assert_says(msg, want, strerror(ENOENT));
	capture_begin(err, sizeof err);
	rc = sa_copy_file(old, path, 4096, err, sizeof err);
	msg = capture_end(err);
	assert_int_equal(rc, -1);
	assert_says(msg, want, strerror(ENOENT));
	capture_begin(err, sizeof err);
	rc = sa_sha256_file(path, hex, err, sizeof err);
	msg = capture_end(err);
	assert_int_equal(rc, -1);
	snprintf(want, sizeof want, "cannot read '%s': ", path);
	assert_says(msg, want, strerror(ENOENT));

	snprintf(path, sizeof path, "%s/new.json", old);
	snprintf(want, sizeof want, "cannot write '%s': ", path);
	capture_begin(err, sizeof err);
	rc = sa_write_file(path, "new\n", 4, err, sizeof err);
	msg = capture_end(err);
	assert_int_equal(rc, -1);
	assert_says(msg, want, strerror(ENOTDIR));
	snprintf(path, sizeof path, "%s/sub", old);
	capture_begin(err, sizeof err);
	rc = sa_mkdirs(path, 0700, err, sizeof err);
	msg = capture_end(err);
	assert_int_equal(rc, -1);
	assert_says(msg, "cannot create directory", strerror(ENOTDIR));
	cJSON_Delete(j);
	assert_old_kept(old);
	scratch_remove(dir, old);
}

/* The rename is refused (the target is a non-empty directory): the directory is untouched and
 * the .tmp file is removed. */
static void test_atomic_write_rename_refused(void **state)
{
	char dir[64], old[96], target[112], tmp[120], err[512];
	const char *msg;
	int rc;

	(void)state;
	scratch_with_old(dir, old);
	snprintf(target, sizeof target, "%s/target", dir);
	assert_int_equal(mkdir(target, 0700), 0);
	snprintf(tmp, sizeof tmp, "%s/target/old.json", dir);
	assert_int_equal(rename(old, tmp), 0);
	capture_begin(err, sizeof err);
	rc = sa_write_file(target, "new\n", 4, err, sizeof err);
	msg = capture_end(err);
	assert_int_equal(rc, -1);
	assert_says(msg, "cannot rename", strerror(EISDIR));
	assert_old_kept(tmp);
	snprintf(tmp, sizeof tmp, "%s.tmp", target);
	assert_int_equal(access(tmp, F_OK), -1);
	snprintf(tmp, sizeof tmp, "%s/target/old.json", dir);
	assert_int_equal(rename(tmp, old), 0);
	assert_int_equal(rmdir(target), 0);
	scratch_remove(dir, old);
}

/* A read-only directory. chmod 555 does not stop root, so as root the directory is made a
 * read-only bind mount in a mount namespace of this test process's own; where that cannot be
 * done the test is skipped, saying why. */
static void test_atomic_write_read_only_dir(void **state)
{
	char dir[64], old[96], err[512], want[128];
	const char *msg, *why = NULL;
	int rc;

	(void)state;
	scratch_with_old(dir, old);
	if (geteuid() != 0) {
		assert_int_equal(chmod(dir, 0555), 0);
	} else if (unshare(CLONE_NEWNS) != 0) {
		why = "unshare(CLONE_NEWNS)";
	} else if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) {
		why = "making / private";
	} else if (mount(dir, dir, NULL, MS_BIND, NULL) != 0 ||
		   mount(NULL, dir, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL) != 0) {
		why = "a read-only bind mount";
	}
	if (why) {
		fprintf(stderr, "# skipped: as root a read-only directory needs %s, which failed: %s\n",
			why, strerror(errno));
		umount2(dir, MNT_DETACH);
		scratch_remove(dir, old);
		skip();
	}
	capture_begin(err, sizeof err);
	rc = sa_write_file(old, "new bytes\n", 10, err, sizeof err);
	msg = capture_end(err);
	if (geteuid() != 0)
		chmod(dir, 0700);
	else
		assert_int_equal(umount2(dir, 0), 0);
	assert_int_equal(rc, -1);
	snprintf(want, sizeof want, "cannot write '%s': ", old);
	assert_says(msg, want, strerror(geteuid() != 0 ? EACCES : EROFS));
	assert_old_kept(old);
	scratch_remove(dir, old);
}

/* Writes text to a fresh directory's name; returns the directory (static). */
static const char *stage_dir(const char *name, const char *text)
{
	static char dir[64];
	char path[128], err[256];

	strcpy(dir, "/tmp/sa-test-sf-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/%s", dir, name);
	assert_int_equal(sa_write_file(path, text, strlen(text), err, sizeof err), 0);
	return dir;
}

static void stage_dir_rm(const char *dir, const char *name)
{
	char path[128];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	unlink(path);
	rmdir(dir);
}

/* The stage-file table: each row's file is a row of the files' table, no key twice in a file,
 * and the reads hold a present file to it: a field missing or mistyped is an error naming the
 * file and the field (never the default), null where a row allows it and a row that may be
 * absent are not, and a failed or missing file holds nothing to check. */
static void test_stage_file_table(void **state)
{
	struct sa_sf f;
	const char *dir, *str = "unset";
	const cJSON *o = NULL;
	double x = 42;
	bool b = true;

	(void)state;
	for (size_t i = 0; i < SA_FD_COUNT; i++) {
		assert_true((unsigned)sa_fields[i].file < SA_SF_COUNT);
		assert_true(sa_fields[i].help[0] != '\0');
		for (size_t j = 0; j < i; j++)
			assert_false(sa_fields[i].file == sa_fields[j].file &&
				     !strcmp(sa_fields[i].key, sa_fields[j].key));
	}
	for (size_t i = 0; i < SA_SF_COUNT; i++)
		assert_true(sa_sfiles[i].schema >= 1 && sa_sfiles[i].readers[0] != '\0');

	dir = stage_dir("stats.json", "{\"stage\":\"stats\",\"schema\":1,\"ok\":true,\"trades\":\"12\","
			"\"psr\":null,\"ruin_time\":null,\"pbo\":null,\"concentration\":{}}");
	assert_true(sa_sf_open(&f, dir, SA_SF_STATS));
	assert_int_equal(sa_sf_num(&f, NULL, SA_FD_ST_PSR, &x), 0);       /* null: unknown */
	assert_true(x == 42);
	assert_int_equal(sa_sf_num(&f, NULL, SA_FD_ST_PBO_VALUE, &x), 0); /* under a null object */
	assert_int_equal(sa_sf_obj(&f, NULL, SA_FD_ST_TAIL, &o), 0);     /* may be absent */
	assert_null(o);
	assert_string_equal(f.broken, "");
	assert_int_equal(sa_sf_num(&f, NULL, SA_FD_ST_TRIALS, &x), -1);
	assert_true(x == 42);
	assert_string_equal(f.broken, "stats.json: the field \"trials\" is missing");
	assert_int_equal(sa_sf_num(&f, NULL, SA_FD_ST_TRADES, &x), -1);    /* the first break stays */
	assert_string_equal(f.broken, "stats.json: the field \"trials\" is missing");
	sa_sf_close(&f);
	assert_true(sa_sf_open(&f, dir, SA_SF_STATS));
	assert_int_equal(sa_sf_num(&f, NULL, SA_FD_ST_TRADES, &x), -1);
	assert_string_equal(f.broken, "stats.json: the field \"trades\" is not a number");
	sa_sf_close(&f);
	assert_true(sa_sf_open(&f, dir, SA_SF_STATS));
	assert_int_equal(sa_sf_num(&f, NULL, SA_FD_ST_CONC_WITHOUT, &x), -1);
	assert_string_equal(f.broken, "stats.json: the field \"concentration.mean_net_return_without\" is missing");
	sa_sf_close(&f);
	stage_dir_rm(dir, "stats.json");

	/* another schema, another writer: the file is refused whole */
	dir = stage_dir("stats.json", "{\"stage\":\"stats\",\"schema\":2,\"ok\":true,\"trials\":3}");
	assert_false(sa_sf_open(&f, dir, SA_SF_STATS));
	assert_string_equal(f.status, "stats.json: schema 2, where this reader knows schema 1");
	sa_sf_close(&f);
	stage_dir_rm(dir, "stats.json");
	dir = stage_dir("run.json", "{\"stage\":\"stats\",\"schema\":1,\"ok\":true}");
	assert_false(sa_sf_open(&f, dir, SA_SF_RUN));
	assert_string_equal(f.broken, "run.json: the field \"stage\" is not \"sandbox\"");
	sa_sf_close(&f);
	stage_dir_rm(dir, "run.json");

	/* a failed stage says why, and only what it holds is checked */
	dir = stage_dir("run.json", "{\"stage\":\"sandbox\",\"schema\":1,\"ok\":false,\"reason\":\"killed\","
			"\"status\":\"killed_wall_clock\",\"refusals\":[{\"rule\":7}]}");
	assert_false(sa_sf_open(&f, dir, SA_SF_RUN));
	assert_true(sa_sf_present(&f));
	assert_string_equal(f.status, "killed");
	assert_int_equal(sa_sf_str(&f, NULL, SA_FD_RUN_STATUS, &str), 1);
	assert_string_equal(str, "killed_wall_clock");
	assert_int_equal(sa_sf_num(&f, NULL, SA_FD_RUN_BLOCKED, &x), 0);
	assert_int_equal(sa_sf_str(&f, cJSON_GetArrayItem(cJSON_GetObjectItem(f.root, "refusals"), 0),
				   SA_FD_RUN_REFUSALS_RULE, &str), -1);
	assert_string_equal(f.broken, "run.json: the field \"refusals[].rule\" is not a string");
	sa_sf_close(&f);
	stage_dir_rm(dir, "run.json");

	/* a missing file: nothing read, nothing broken */
	assert_false(sa_sf_open(&f, "/nonexistent", SA_SF_VARIANTS));
	assert_false(sa_sf_present(&f));
	assert_int_equal(sa_sf_bool(&f, NULL, SA_FD_VR_COMPLETE, &b), 0);
	assert_true(b);
	assert_string_equal(f.broken, "");
	sa_sf_close(&f);
	/* a row read as another type is the reader's error, named */
	dir = stage_dir("variants.json", "{\"stage\":\"variants\",\"schema\":1,\"ok\":true,\"complete\":true}");
	assert_true(sa_sf_open(&f, dir, SA_SF_VARIANTS));
	assert_int_equal(sa_sf_num(&f, NULL, SA_FD_VR_COMPLETE, &x), -1);
	assert_non_null(strstr(f.broken, "read as a number, where the table says a boolean"));
	sa_sf_close(&f);
	stage_dir_rm(dir, "variants.json");
}

static void test_sha256(void **state)
{
	char hex[65], err[64];

	(void)state;
	assert_int_equal(sa_sha256_buf("abc", 3, hex, err, sizeof err), 0);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time_roundtrip),
		cmocka_unit_test(test_time_rejects),
		cmocka_unit_test(test_time_cache_agrees),
		cmocka_unit_test(test_ohlcv_valid),
		cmocka_unit_test(test_ohlcv_rejects),
		cmocka_unit_test(test_ohlcv_long_field),
		cmocka_unit_test(test_tradelog),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_formula_and_csv),
		cmocka_unit_test(test_read_cap_and_json),
		cmocka_unit_test(test_atomic_write_file_size_limit),
		cmocka_unit_test(test_atomic_write_bad_directory),
		cmocka_unit_test(test_atomic_write_rename_refused),
		cmocka_unit_test(test_atomic_write_read_only_dir),
		cmocka_unit_test(test_sha256),
		cmocka_unit_test(test_stage_file_table),
		cmocka_unit_test(test_number_matches_strtod),
		cmocka_unit_test(test_long_line_scan),
		cmocka_unit_test(test_ohlcv_nul_byte),
	};

	return cmocka_run_group_tests_name("lib", tests, NULL, NULL);
}
