/* ohlcv_bytes.c - a data file told by its first bytes, and freqtrade's JSON OHLCV (cJSON). */
#include <stdbool.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "msg.h"
#include "ohlcv_bytes.h"

#define SNIFF_MAX 4096  /* bytes looked at to tell a zip's contents */
#define FREQTRADE_WANT "freqtrade's layout [[ms, open, high, low, close, volume], ...]: write " \
		       "it as CSV, or in that layout"

static const char *skip_space(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	return p;
}

static bool starts(const char *buf, size_t len, const char *magic, size_t n)
{
	return len >= n && !memcmp(buf, magic, n);
}

static bool holds(const char *buf, size_t len, const char *what)
{
	size_t n = strlen(what), lim = len < SNIFF_MAX ? len : SNIFF_MAX;

	for (size_t i = 0; i + n <= lim; i++)
		if (!memcmp(buf + i, what, n))
			return true;
	return false;
}

enum da_data_kind da_data_kind(const char *buf, size_t len, char *err, size_t errlen)
{
	const char *p = skip_space(buf, buf + len);

	if (starts(buf, len, "PK\x03\x04", 4) && (holds(buf, len, "xl/") ||
						   holds(buf, len, "[Content_Types].xml")))
		sa_fmt(err, errlen, "this is an Excel workbook (.xlsx): save it as CSV (File, Save As, "
		       "CSV) and give that file");
	else if (starts(buf, len, "PK\x03\x04", 4))
		sa_fmt(err, errlen, "this is a zip archive, not a CSV: unzip it and give the CSV inside");
	else if (starts(buf, len, "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", 8))
		sa_fmt(err, errlen, "this is an Excel 97-2003 workbook (.xls): save it as CSV and give "
		       "that file");
	else if (starts(buf, len, "PAR1", 4))
		sa_fmt(err, errlen, "this is a Parquet file, which the loader does not read: write it as "
		       "CSV (pandas: pd.read_parquet(f).to_csv(\"prices.csv\"))");
	else if (starts(buf, len, "ARROW1", 6))
		return DA_DATA_FEATHER;
	else if (starts(buf, len, "FEA1", 4))
		sa_fmt(err, errlen, "this is a Feather version 1 file, which the loader does not read: "
		       "write it as CSV (pandas: pd.read_feather(f).to_csv(\"prices.csv\"))");
	else if (p < buf + len && *p == '{')
		sa_fmt(err, errlen, "this is a JSON object, but not %s", FREQTRADE_WANT);
	else
		return p < buf + len && *p == '[' ? DA_DATA_JSON : DA_DATA_TEXT;
	return DA_DATA_FOREIGN;
}

/* One bar, [ms, o, h, l, c, v], into v. Returns 0, or -1 when it is no such array. */
static int bar_values(const cJSON *a, double v[6])
{
	const cJSON *x;
	int k = 0;

	if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != 6)
		return -1;
	cJSON_ArrayForEach(x, a) {
		if (!cJSON_IsNumber(x))
			return -1;
		v[k++] = x->valuedouble;
	}
	return 0;
}

/* Parses the bar at p (at most DA_FREQTRADE_BAR_MAX bytes) into v; *stop after it. */
static int parse_bar(const char *p, const char *end, const char **stop, double v[6])
{
	size_t n = (size_t)(end - p) < DA_FREQTRADE_BAR_MAX ? (size_t)(end - p) : DA_FREQTRADE_BAR_MAX;
	cJSON *a = cJSON_ParseWithLengthOpts(p, n, stop, 0);
	int rc = a ? bar_values(a, v) : -1;

	cJSON_Delete(a);
	return rc;
}

int da_freqtrade_bars(const char *buf, size_t len,
		      int (*bar)(void *arg, size_t i, const double v[6]), void *arg, char *err,
		      size_t errlen)
{
	const char *end = buf + len, *p = skip_space(buf, end), *stop = NULL;
	size_t i = 0;
	double v[6];

	if (p == end || *p != '[') {
		sa_fmt(err, errlen, "this is not JSON in %s", FREQTRADE_WANT);
		return -1;
	}
	p = skip_space(p + 1, end);
	for (bool more = p < end && *p != ']'; more;) {
		bool bad = parse_bar(p, end, &stop, v) != 0;

		if (bad && i == 0) {
			sa_fmt(err, errlen, "this is JSON, but not %s", FREQTRADE_WANT);
			return -1;
		}
		if (bad && !memchr(p, ']', (size_t)(end - p))) {
			sa_fmt(err, errlen, "bar %zu: the file ends inside it (is it cut short?)", i + 1);
			return -1;
		}
		if (bad) {
			sa_fmt(err, errlen, "bar %zu is not [ms, open, high, low, close, volume]", i + 1);
			return -1;
		}
		if (bar(arg, i++, v))
			return -1;
		p = skip_space(stop, end);
		more = p < end && *p == ',';
		if (more)
			p = skip_space(p + 1, end);
	}
	if (p == end || *p != ']' || skip_space(p + 1, end) != end) {
		sa_fmt(err, errlen, "bar %zu: the JSON array does not close where it should (is the "
		       "file cut short?)", i + 1);
		return -1;
	}
	return 0;
}
