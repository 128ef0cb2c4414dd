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

/* Parses one header line; returns 1 with *trials set when it is a valid "# trials: N". */
static int trials_line(const char *p, const char *end, long *trials)
{
	char num[16];
	size_t n = 0;
	char *stop = NULL;
	long v;

	p++; /* the '#' */
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (end - p < 6 || strncasecmp(p, "trials", 6) != 0)
		return 0;
	p += 6;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= end || *p != ':')
		return 0;
	p++;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	while (p < end && isdigit((unsigned char)*p) && n < sizeof num - 1)
		num[n++] = *p++;
	num[n] = '\0';
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	if (n == 0 || p != end)
		return 0;
	errno = 0;
	v = strtol(num, &stop, 10);
	if (errno || *stop || v < 1 || v > 1000000)
		return 0;
	*trials = v;
	return 1;
}

int nightly_trials_from_header(const char *buf, size_t len, long *trials)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *s = p;

		if (!eol)
			eol = end;
		while (s < eol && (*s == ' ' || *s == '\t' || *s == '\r'))
			s++;
		if (s < eol && *s != '#')
			break; /* the header ends at the first line of code or data */
		if (s < eol && trials_line(s, eol, trials))
			return 1;
		p = eol + 1;
	}
	return 0;
}

int nightly_tool_key(const char *bindir, const char *version, char key[96])
{
	char list[] = NIGHTLY_TOOL_BINS;
	char *sums = NULL, *save = NULL, *name;
	size_t cap = 1024, used = 0;
	char path[4096], hex[65], all[65];
	int rc = -1;

	sums = calloc(1, cap);
	if (!sums)
		goto out;
	for (name = strtok_r(list, " ", &save); name; name = strtok_r(NULL, " ", &save)) {
		int n;

		sa_fmt(path, sizeof path, "%s/%s", bindir, name);
		if (access(path, F_OK) != 0)
			snprintf(hex, sizeof hex, "missing");
		else if (sa_sha256_file(path, hex) != 0)
			goto out;
		n = snprintf(sums + used, cap - used, "%s %s\n", hex, name);
		if (n < 0 || (size_t)n >= cap - used)
			goto out;
		used += (size_t)n;
	}
	if (sa_sha256_buf(sums, used, all) < 0)
		goto out;
	snprintf(key, 96, "%.24s/%s", version, all);
	rc = 0;
out:
	free(sums);
	return rc;
}

/* Hashes path into hex, or leaves "" when path is NULL or empty. */
static int sha_or_empty(const char *path, char hex[65])
{
	hex[0] = '\0';
	if (!path || !*path)
		return 0;
	return sa_sha256_file(path, hex);
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
