/* fileio.c - bounded reads, atomic writes, SHA-256 through OpenSSL's EVP interface. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "fileio.h"
#include "msg.h"

void sa_hint_hugepages(void *p, size_t n)
{
	const uintptr_t huge = (uintptr_t)2 << 20;
	uintptr_t lo = ((uintptr_t)p + huge - 1) & ~(huge - 1), hi = ((uintptr_t)p + n) & ~(huge - 1);

	/* Only the 2 MiB-aligned interior, and only where the kernel offers it: advice, no error. */
	if (n >= 2 * huge && hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
}

enum sa_read_status sa_read_file(const char *path, size_t cap, char **buf, size_t *len)
{
	enum sa_read_status st = SA_READ_IOERR;
	char *b = NULL;
	size_t have = 0, size = 0, first = 65536;
	struct stat sb;
	int fd;

	*buf = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? SA_READ_MISSING : SA_READ_IOERR;
	/* A regular file's size is the first guess (one byte more sees it end); a file that
	 * grows, or a FIFO, still grows the buffer geometrically up to the cap. */
	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0)
		first = (size_t)sb.st_size < cap ? (size_t)sb.st_size + 1 : cap + 1;
	for (;;) {
		ssize_t got;

		if (have == size) {
			/* grow geometrically, but never past cap + 1: one byte more tells "too big" */
			size_t want = size ? size * 2 : first;
			char *nb;

			if (want > cap + 1)
				want = cap + 1;
			if (want <= size) {
				st = SA_READ_TOOBIG;
				goto out;
			}
			nb = realloc(b, want + 1);
			if (!nb) {
				st = SA_READ_NOMEM;
				goto out;
			}
			b = nb;
			size = want;
			sa_hint_hugepages(b + have, size - have);
		}
		got = read(fd, b + have, size - have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			goto out;
		if (got == 0)
			break;
		have += (size_t)got;
		if (have > cap) {
			st = SA_READ_TOOBIG;
			goto out;
		}
	}
	if (!b && !(b = malloc(1))) {
		st = SA_READ_NOMEM;
		goto out;
	}
	b[have] = '\0';
	*buf = b;
	*len = have;
	b = NULL;
	st = SA_READ_OK;
out:
	{
		/* close() may change errno; a caller reading it for SA_READ_IOERR wants read()'s */
		int e = errno;

		free(b);
		close(fd);
		errno = e;
	}
	return st;
}

const char *sa_read_strerror(enum sa_read_status st, const char *path, size_t cap, char *msg, size_t msglen)
{
	switch (st) {
	case SA_READ_OK:
		sa_fmt(msg, msglen, "'%s' read", path);
		break;
	case SA_READ_MISSING:
		sa_fmt(msg, msglen, "'%s' does not exist", path);
		break;
	case SA_READ_TOOBIG:
		sa_fmt(msg, msglen, "'%s' is larger than the %zu-byte limit", path, cap);
		break;
	case SA_READ_NOMEM:
		sa_fmt(msg, msglen, "out of memory reading '%s'", path);
		break;
	default:
		sa_fmt(msg, msglen, "cannot read '%s': %s", path, strerror(errno));
		break;
	}
	return msg;
}

int sa_atomic_open(struct sa_atomic *a, const char *path, char *err, size_t errlen)
{
	size_t n = strlen(path);

	a->fp = NULL;
	a->path = strdup(path);
	a->tmp = malloc(n + 5);
	if (!a->path || !a->tmp) {
		sa_atomic_abort(a);
		sa_fmt(err, errlen, "out of memory opening '%s'", path);
		return -1;
	}
	memcpy(a->tmp, path, n);
	memcpy(a->tmp + n, ".tmp", 5);
	a->fp = fopen(a->tmp, "wb");
	if (!a->fp) {
		int e = errno;

		sa_atomic_abort(a);
		sa_fmt(err, errlen, "cannot write '%s': %s", path, strerror(e));
		return -1;
	}
	return 0;
}

static void atomic_release(struct sa_atomic *a)
{
	free(a->path);
	free(a->tmp);
	a->path = a->tmp = NULL;
	a->fp = NULL;
}

int sa_atomic_commit(struct sa_atomic *a, char *err, size_t errlen)
{
	int rc = -1;

	if (!a->fp) {
		sa_fmt(err, errlen, "cannot write '%s': it was not opened", a->path ? a->path : "");
		goto out;
	}
	if (fflush(a->fp) != 0 || ferror(a->fp)) {
		sa_fmt(err, errlen, "cannot write '%s': %s", a->path, strerror(errno));
		goto out;
	}
	if (fclose(a->fp) != 0) {
		a->fp = NULL;
		sa_fmt(err, errlen, "cannot write '%s': %s", a->path, strerror(errno));
		goto out;
	}
	a->fp = NULL;
	if (rename(a->tmp, a->path) != 0) {
		sa_fmt(err, errlen, "cannot rename '%s' to '%s': %s", a->tmp, a->path, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (rc)
		sa_atomic_abort(a);
	else
		atomic_release(a);
	return rc;
}

void sa_atomic_abort(struct sa_atomic *a)
{
	if (a->fp)
		fclose(a->fp);
	if (a->tmp)
		unlink(a->tmp);
	atomic_release(a);
}

int sa_write_file(const char *path, const void *buf, size_t len, char *err, size_t errlen)
{
	struct sa_atomic a;

	if (sa_atomic_open(&a, path, err, errlen))
		return -1;
	if (len && fwrite(buf, 1, len, a.fp) != len) {
		sa_fmt(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		sa_atomic_abort(&a);
		return -1;
	}
	return sa_atomic_commit(&a, err, errlen);
}

int sa_copy_file(const char *src, const char *dst, size_t cap, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len;
	enum sa_read_status st;
	int rc;

	st = sa_read_file(src, cap, &buf, &len);
	if (st != SA_READ_OK) {
		sa_read_strerror(st, src, cap, err, errlen);
		return -1;
	}
	rc = sa_write_file(dst, buf, len, err, errlen);
	free(buf);
	return rc;
}

static void hex_of(const unsigned char *md, unsigned n, char hex[65])
{
	static const char digits[] = "0123456789abcdef";

	for (unsigned i = 0; i < n && i < 32; i++) {
		hex[2 * i] = digits[md[i] >> 4];
		hex[2 * i + 1] = digits[md[i] & 15];
	}
	hex[64] = '\0';
}

int sa_sha256_buf(const void *buf, size_t len, char hex[65], char *err, size_t errlen)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned n = 0;

	hex[0] = '\0';
	if (!EVP_Digest(buf, len, md, &n, EVP_sha256(), NULL) || n != 32) {
		sa_fmt(err, errlen, "cannot compute a sha256 of %zu bytes", len);
		return -1;
	}
	hex_of(md, n, hex);
	return 0;
}

int sa_sha256_file(const char *path, char hex[65], char *err, size_t errlen)
{
	unsigned char md[EVP_MAX_MD_SIZE], chunk[1 << 16];
	unsigned n = 0;
	EVP_MD_CTX *ctx = NULL;
	FILE *fp = NULL;
	size_t got;
	int rc = -1;

	fp = fopen(path, "rb");
	if (!fp) {
		sa_fmt(err, errlen, "cannot read '%s': %s", path, strerror(errno));
		goto out;
	}
	ctx = EVP_MD_CTX_new();
	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL)) {
		sa_fmt(err, errlen, "cannot start the sha256 of '%s'", path);
		goto out;
	}
	while ((got = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		if (!EVP_DigestUpdate(ctx, chunk, got)) {
			sa_fmt(err, errlen, "cannot compute the sha256 of '%s'", path);
			goto out;
		}
	if (ferror(fp)) {
		sa_fmt(err, errlen, "cannot read '%s': %s", path, strerror(errno));
		goto out;
	}
	if (!EVP_DigestFinal_ex(ctx, md, &n) || n != 32) {
		sa_fmt(err, errlen, "cannot compute the sha256 of '%s'", path);
		goto out;
	}
	hex_of(md, n, hex);
	rc = 0;
out:
	EVP_MD_CTX_free(ctx);
	if (fp)
		fclose(fp);
	return rc;
}

int sa_mkdirs(const char *path, unsigned mode, char *err, size_t errlen)
{
	char *p = strdup(path);
	int rc = -1;

	if (!p) {
		sa_fmt(err, errlen, "out of memory creating '%s'", path);
		return -1;
	}
	if (!*p) {
		free(p);
		sa_fmt(err, errlen, "cannot create a directory with an empty name");
		return -1;
	}
	for (char *s = p + 1; ; s++) {
		if (*s == '/' || *s == '\0') {
			char c = *s;

			*s = '\0';
			if (mkdir(p, mode) != 0 && errno != EEXIST) {
				sa_fmt(err, errlen, "cannot create directory '%s': %s", p, strerror(errno));
				goto out;
			}
			*s = c;
			if (!c)
				break;
		}
	}
	rc = 0;
out:
	free(p);
	return rc;
}
