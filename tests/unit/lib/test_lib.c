/* test_lib.c - the shared library's small modules: timestamps, the CSV field's number and long
 * lines, text, JSON I/O, sha256. */
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
#include "text.h"
#include "timeutil.h"

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
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_formula_and_csv),
		cmocka_unit_test(test_read_cap_and_json),
		cmocka_unit_test(test_sha256),
		cmocka_unit_test(test_number_matches_strtod),
		cmocka_unit_test(test_long_line_scan),
	};

	return cmocka_run_group_tests_name("lib", tests, NULL, NULL);
}
