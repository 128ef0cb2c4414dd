/* ohlcv_sniff.c - what a bar file's first lines say before any is parsed: its delimiter, a title
 * line above the table, yfinance's three header rows (ohlcv_sniff.h). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "ohlcv_sniff.h"

/* The delimiter the first line uses most (outside quotes): ',', ';' or a tab. */
char da_ohlcv_sniff_delim(const char *buf, size_t len)
{
	size_t n[3] = { 0 };
	const char cand[3] = { ',', ';', '\t' };
	bool quoted = false;
	int best = 0;

	for (size_t i = 0; i < len && buf[i] != '\n'; i++) {
		if (buf[i] == '"')
			quoted = !quoted;
		for (int k = 0; k < 3 && !quoted; k++)
			n[k] += buf[i] == cand[k];
	}
	for (int k = 1; k < 3; k++)
		if (n[k] > n[best])
			best = k;
	return cand[best];
}

/* The most delimiters of one kind in buf[0..len). */
static size_t delims(const char *buf, size_t len)
{
	size_t n[3] = { 0 }, most = 0;

	for (size_t i = 0; i < len; i++)
		n[0] += buf[i] == ',', n[1] += buf[i] == ';', n[2] += buf[i] == '\t';
	for (int k = 0; k < 3; k++)
		most = n[k] > most ? n[k] : most;
	return most;
}

/* A first line with no delimiter before a line of a table (CryptoDataDownload's URL, a
 * title): its length with the newline, its text (printable, at most 80 bytes) in said; or 0. */
size_t da_ohlcv_title_line(const char *buf, size_t len, char said[81])
{
	const char *nl = memchr(buf, '\n', len), *l2, *nl2;
	size_t n1, k = 0;

	if (!nl)
		return 0;
	n1 = (size_t)(nl - buf);
	l2 = nl + 1;
	nl2 = memchr(l2, '\n', len - n1 - 1);
	if (delims(buf, n1) || delims(l2, nl2 ? (size_t)(nl2 - l2) : len - n1 - 1) < 4)
		return 0;
	for (size_t i = 0; i < n1 && k < 80; i++)
		if (buf[i] != '\r')
			said[k++] = buf[i] >= 0x20 && buf[i] < 0x7f ? buf[i] : '?';
	said[k] = '\0';
	if (!k)
		snprintf(said, 81, "(an empty line)");
	return n1 + 1;
}

/* The line at p (up to its newline) in out, at most outlen - 1 bytes, '\r' dropped; returns
 * where the next line starts, or NULL at the end of buf. */
static const char *line_at(const char *p, const char *end, char *out, size_t outlen)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	size_t k = 0;

	for (const char *q = p; q < (nl ? nl : end) && k + 1 < outlen; q++)
		if (*q != '\r')
			out[k++] = *q;
	out[k] = '\0';
	return nl ? nl + 1 : NULL;
}

/* yfinance's download(...).to_csv(): "Price" then the fields' names, "Ticker" then the
 * symbol's in each, the index's name ("Date", "Datetime") then empty fields. Returns true with
 * the index's name in name. */
bool da_ohlcv_yfinance_header(const char *buf, size_t len, char delim, char name[SA_CSV_FIELD_MAX + 1])
{
	const char *end = buf + len, *p = buf;
	char l[3][SA_CSV_FIELD_MAX + 1];
	size_t n;

	for (int k = 0; k < 3; k++)
		if (!p || !(p = line_at(p, end, l[k], sizeof l[k])))
			return false;
	n = strcspn(l[2], (char[]){ delim, '\0' });
	if (strncasecmp(l[0], "price", 5) || l[0][5] != delim || strncasecmp(l[1], "ticker", 6) ||
	    l[1][6] != delim || n == 0 || n > SA_CSV_FIELD_MAX)
		return false;
	for (const char *q = l[2] + n; *q; q++)
		if (*q != delim)
			return false;  /* the third line holds the index's name alone */
	memcpy(name, l[2], n);
	name[n] = '\0';
	return true;
}
