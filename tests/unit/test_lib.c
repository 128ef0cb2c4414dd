/* test_lib.c - the shared library: timestamps, loaders (every validation rule), text, JSON I/O. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "fileio.h"
#include "jsonio.h"
#include "ohlcv.h"
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

static void test_ohlcv_valid(void **state)
{
	const char csv[] = HDR ROW1 ROW2;
	struct sa_ohlcv s;
	char err[256];

	(void)state;
	assert_int_equal(sa_ohlcv_parse(csv, strlen(csv), &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.t[1] - s.t[0], 3600);
	assert_true(s.close[0] == 100.5 && s.high[1] == 102 && s.volume[1] == 12);
	sa_ohlcv_release(&s);
	assert_null(s.t);
}

/* Each bad csv and the start of the error it must give, with its line. */
static void test_ohlcv_rejects(void **state)
{
	static const struct { const char *csv, *err; } bad[] = {
		{ "", "the file is empty" },
		{ "time,open,high,close\n" ROW1, "line 1: no low column in the header" },
		{ "tag,open,high,low,close,vol\n" ROW1, "line 1: no time column in the header" },
		{ HDR ROW1 "2024-01-01T01:00:00Z,nan,102,100,101,12\n", "line 3: open 'nan' is not a finite number" },
		{ HDR ROW1 "2024-01-01T01:00:00Z,100,102,100,101,inf\n", "line 3: volume 'inf'" },
		{ HDR ROW1 "2023-12-31T23:00:00Z,100.5,102,100,101,12\n", "line 3: time 2023-12-31T23:00:00Z comes before the previous bar's" },
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
	};
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct sa_ohlcv s;

		err[0] = '\0';
		assert_int_equal(sa_ohlcv_parse(bad[i].csv, strlen(bad[i].csv), &s, err, sizeof(err)), -1);
		if (strncmp(err, bad[i].err, strlen(bad[i].err)))
			fail_msg("case %zu: got '%s', want '%s...'", i, err, bad[i].err);
		assert_int_equal(s.n, 0);
	}
}

static void test_ohlcv_long_field(void **state)
{
	size_t big = 10 * 1024 * 1024;
	char *csv = malloc(big + 200), err[256];
	struct sa_ohlcv s;
	int n;

	(void)state;
	n = sprintf(csv, HDR ROW1 "2024-01-01T01:00:00Z,");
	memset(csv + n, '7', big);
	strcpy(csv + n + big, ",102,100,101,12\n");
	assert_int_equal(sa_ohlcv_parse(csv, strlen(csv), &s, err, sizeof(err)), -1);
	assert_string_equal(err, "line 3: longer than 4096 bytes; not a csv this tool reads");
	free(csv);
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
		{ "", "the file is empty" },
	};
	struct sa_tradelog log;
	char err[256];

	(void)state;
	assert_int_equal(sa_tradelog_parse(ok, strlen(ok), &log, err, sizeof(err)), 0);
	assert_int_equal(log.n, 2);
	assert_int_equal(log.trades[1].side, -1);
	assert_true(log.trades[0].ret == 0.01 && log.trades[0].exit - log.trades[0].entry == 5 * 3600);
	assert_string_equal(log.columns, "side,entry_time,exit_time,return,note");
	sa_tradelog_release(&log);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(sa_tradelog_parse(bad[i].csv, strlen(bad[i].csv), &log, err, sizeof(err)), -1);
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
	assert_int_equal(sa_json_write(path, j), 0);
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

static void test_sha256(void **state)
{
	char hex[65];

	(void)state;
	sa_sha256_buf("abc", 3, hex);
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
		cmocka_unit_test(test_sha256),
	};

	return cmocka_run_group_tests_name("lib", tests, NULL, NULL);
}
