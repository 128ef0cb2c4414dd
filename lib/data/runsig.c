/* runsig.c - the re-runs' signals file and the hash of the bars they ran on (runsig.h). */
#include "runsig.h"
#include "signals.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "msg.h"

#define MAGIC_BYTES 8

int da_runsig_add(struct da_runsig *b, const int8_t *sig, size_t n, size_t *at)
{
	if (n > b->cap - b->n) {
		size_t cap = b->cap ? b->cap : 4096;
		int8_t *v;

		while (cap - b->n < n) {
			if (cap > SIZE_MAX / 2)
				return -1;
			cap *= 2;
		}
		v = realloc(b->v, cap);
		if (!v)
			return -1;
		b->v = v;
		b->cap = cap;
	}
	if (n)
		memcpy(b->v + b->n, sig, n);
	*at = b->n;
	b->n += n;
	return 0;
}

int da_runsig_write(const struct da_runsig *b, const char *path, char hex[65], char *err, size_t errlen)
{
	struct sa_atomic a = {0};

	hex[0] = '\0';
	if (sa_atomic_open(&a, path, err, errlen) < 0)
		return -1;
	if (fwrite(DA_RUNSIG_MAGIC, 1, MAGIC_BYTES, a.fp) != MAGIC_BYTES ||
	    (b->n && fwrite(b->v, 1, b->n, a.fp) != b->n)) {
		sa_fmt(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		sa_atomic_abort(&a);
		return -1;
	}
	if (sa_atomic_commit(&a, err, errlen) < 0)
		return -1;
	return sa_sha256_file(path, hex, err, errlen);
}

int da_runsig_read(const char *path, const char *sha256, struct da_runsig *b, char *err, size_t errlen)
{
	char *buf = NULL, hex[65], msg[256];
	size_t len = 0;
	enum sa_read_status st;
	int rc = -1;

	memset(b, 0, sizeof *b);
	st = sa_read_file(path, DA_RUNSIG_CAP, &buf, &len);
	if (st != SA_READ_OK) {
		sa_fmt(err, errlen, "%s", sa_read_strerror(st, path, DA_RUNSIG_CAP, msg, sizeof msg));
		return -1;
	}
	if (len < MAGIC_BYTES || memcmp(buf, DA_RUNSIG_MAGIC, MAGIC_BYTES) != 0) {
		sa_fmt(err, errlen, "'%s' is not a signals file", path);
		goto out;
	}
	if (sha256) {
		if (sa_sha256_buf(buf, len, hex, err, errlen) < 0)
			goto out;
		if (strcmp(hex, sha256) != 0) {
			sa_fmt(err, errlen, "'%s' is not the signals file its index names (sha256 %.12s..., "
			       "the index says %.12s...): run the stage that writes both again", path, hex, sha256);
			goto out;
		}
	}
	for (size_t i = MAGIC_BYTES; i < len; i++)
		if ((int8_t)buf[i] < -1 || (int8_t)buf[i] > DA_SIGNAL_EVENTS_MAX) {
			sa_fmt(err, errlen, "'%s' holds %d at byte %zu, not a signal", path, (int8_t)buf[i], i);
			goto out;
		}
	b->n = b->cap = len - MAGIC_BYTES;
	b->v = malloc(b->n ? b->n : 1);
	if (!b->v) {
		sa_fmt(err, errlen, "out of memory");
		goto out;
	}
	memcpy(b->v, buf + MAGIC_BYTES, b->n);
	rc = 0;
out:
	free(buf);
	return rc;
}

void da_runsig_release(struct da_runsig *b)
{
	free(b->v);
	memset(b, 0, sizeof *b);
}

/* A whole number at least 0 from field key of entry into *x. Returns 0, or -1. */
static int whole(const cJSON *entry, const char *key, size_t *x)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(entry, key);

	if (!cJSON_IsNumber(it) || !(it->valuedouble >= 0) || it->valuedouble > 9e15 ||
	    it->valuedouble != floor(it->valuedouble))
		return -1;
	*x = (size_t)it->valuedouble;
	return 0;
}

int da_runsig_run(const struct da_runsig *b, const cJSON *entry, const int8_t **sig, size_t *n,
		  char *err, size_t errlen)
{
	size_t at;

	*sig = NULL;
	if (!cJSON_IsObject(entry) || whole(entry, "bars", n) < 0) {
		sa_fmt(err, errlen, "a run of the index has no whole number \"bars\"");
		return -1;
	}
	if (cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(entry, "at")))
		return 0;
	if (whole(entry, "at", &at) < 0) {
		sa_fmt(err, errlen, "a run of the index has an \"at\" that is neither null nor a whole number");
		return -1;
	}
	if (at > b->n || *n > b->n - at) {
		sa_fmt(err, errlen, "a run of the index lies outside its signals file (%zu bars at %zu of %zu)",
		       *n, at, b->n);
		return -1;
	}
	*sig = b->v + at;
	return 0;
}

int da_bars_sha256(const struct da_ohlcv *s, char hex[65], char *err, size_t errlen)
{
	const double *cols[5] = { s->open, s->high, s->low, s->close, s->volume };
	char all[6 * 64 + 1];

	if (sa_sha256_buf(s->t, s->n * sizeof *s->t, all, err, errlen) < 0)
		return -1;
	for (int c = 0; c < 5; c++)
		if (sa_sha256_buf(cols[c], s->n * sizeof *cols[c], all + 64 * (c + 1), err, errlen) < 0)
			return -1;
	return sa_sha256_buf(all, 6 * 64, hex, err, errlen);
}
