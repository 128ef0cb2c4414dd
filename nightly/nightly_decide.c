/* nightly_decide.c - the TRIALS header rule and the key that decides whether to re-audit. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "msg.h"
#include "nightly_decide.h"

/* When the header line [p, end) is "# KEY: VALUE" (KEY case-insensitive), points *v at VALUE,
 * its blanks trimmed, and returns its length; returns -1 otherwise. */
static long header_value(const char *p, const char *end, const char *key, const char **v)
{
	size_t klen = strlen(key);

	p++; /* the '#' */
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if ((size_t)(end - p) < klen || strncasecmp(p, key, klen) != 0)
		return -1;
	p += klen;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= end || *p != ':')
		return -1;
	p++;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	*v = p;
	return (long)(end - p);
}

/* Finds the first "# KEY: VALUE" line of the header (the leading lines that are blank or start
 * with '#'). Returns VALUE's length with *v pointing into buf, or -1 when there is none. */
static long header_find(const char *buf, size_t len, const char *key, const char **v)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *s = p;
		long n;

		if (!eol)
			eol = end;
		while (s < eol && (*s == ' ' || *s == '\t' || *s == '\r'))
			s++;
		if (s < eol && *s != '#')
			break; /* the header ends at the first line of code or data */
		if (s < eol && (n = header_value(s, eol, key, v)) >= 0)
			return n;
		p = eol + 1;
	}
	return -1;
}

int nightly_trials_from_header(const char *buf, size_t len, long *trials)
{
	const char *v = NULL;
	long n = header_find(buf, len, "trials", &v), x;
	char num[16];
	char *stop = NULL;

	if (n < 1 || n >= (long)sizeof num || strspn(v, "0123456789") < (size_t)n)
		return 0;
	memcpy(num, v, (size_t)n);
	num[n] = '\0';
	errno = 0;
	x = strtol(num, &stop, 10);
	if (errno || *stop || x < 1 || x > 1000000)
		return 0;
	*trials = x;
	return 1;
}

int nightly_data_from_header(const char *buf, size_t len, const char *upload, char *path, size_t pathlen)
{
	const char *v = NULL, *slash = strrchr(upload, '/');
	long n = header_find(buf, len, "data", &v);
	int dirlen = slash ? (int)(slash - upload) : 0;

	if (n < 1)
		return 0;
	for (long i = 0; i < n; i++)
		if ((unsigned char)v[i] < 0x20 || v[i] == 0x7f)
			return -1;
	if (v[0] == '/' || !slash)
		return snprintf(path, pathlen, "%.*s", (int)n, v) < (int)pathlen ? 1 : -1;
	return snprintf(path, pathlen, "%.*s/%.*s", dirlen, upload, (int)n, v) < (int)pathlen ? 1 : -1;
}

int nightly_tool_key(const char *bindir, const char *version, char key[96])
{
	char list[] = NIGHTLY_TOOL_BINS;
	char *sums = NULL, *save = NULL, *name;
	size_t cap = 1024, used = 0;
	char path[4096], hex[65], all[65], err[1024];
	int rc = -1;

	sums = calloc(1, cap);
	if (!sums)
		goto out;
	for (name = strtok_r(list, " ", &save); name; name = strtok_r(NULL, " ", &save)) {
		int n;

		sa_fmt(path, sizeof path, "%s/%s", bindir, name);
		if (access(path, F_OK) != 0)
			snprintf(hex, sizeof hex, "missing");
		else if (sa_sha256_file(path, hex, err, sizeof err) != 0) {
			sa_error("%s", err);
			goto out;
		}
		n = snprintf(sums + used, cap - used, "%s %s\n", hex, name);
		if (n < 0 || (size_t)n >= cap - used)
			goto out;
		used += (size_t)n;
	}
	if (sa_sha256_buf(sums, used, all, err, sizeof err) < 0) {
		sa_error("%s", err);
		goto out;
	}
	snprintf(key, 96, "%.24s/%s", version, all);
	rc = 0;
out:
	free(sums);
	return rc;
}

/* Hashes path into hex, or leaves "" when path is NULL or empty. Returns 0, or -1 with a
 * message printed. */
static int sha_or_empty(const char *path, char hex[65])
{
	char err[1024];

	hex[0] = '\0';
	if (!path || !*path)
		return 0;
	if (sa_sha256_file(path, hex, err, sizeof err) != 0)
		return sa_error("%s", err);
	return 0;
}

int nightly_key_compute(struct nightly_key *k, const char *strategy, const char *tradelog,
			const char *data, const char *config, const char *tool)
{
	memset(k, 0, sizeof *k);
	if (sha_or_empty(strategy, k->code) || sha_or_empty(tradelog, k->tradelog) ||
	    sha_or_empty(data, k->data) || sha_or_empty(config, k->config))
		return -1;
	snprintf(k->tool, sizeof k->tool, "%s", tool ? tool : "");
	return 0;
}

bool nightly_fingerprint_matches(const struct nightly_key *k, const char *fp_code,
				 const char *fp_tradelog, const char *fp_data)
{
	return strcmp(k->code, fp_code ? fp_code : "") == 0 &&
	       strcmp(k->tradelog, fp_tradelog ? fp_tradelog : "") == 0 &&
	       strcmp(k->data, fp_data ? fp_data : "") == 0;
}
