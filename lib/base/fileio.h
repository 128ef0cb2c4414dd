/* fileio.h - bounded reads, atomic writes, sha256 of files and buffers. */
#ifndef SA_FILEIO_H
#define SA_FILEIO_H

#include <stddef.h>
#include <stdio.h>

/* Caps on what a stage will read, chosen so no upload or stage file can exhaust memory. */
#define SA_UPLOAD_CAP ((size_t)256 * 1024)          /* an uploaded trade log, a template */
/* An uploaded strategy .py: freqtrade's most used community strategies are several MB of
 * source (NostalgiaForInfinityX7 is 3.4 MB); a larger file is a finding, never a crash. */
#define SA_STRATEGY_CAP ((size_t)8 * 1024 * 1024)
#define SA_JSON_CAP ((size_t)64 * 1024 * 1024)      /* any stage JSON file */
#define SA_DATA_CAP ((size_t)1024 * 1024 * 1024)    /* an OHLCV csv */
#define SA_TRADELOG_CAP ((size_t)64 * 1024 * 1024)  /* a trade log in an export format */

/* Why a bounded read failed. */
enum sa_read_status {
	SA_READ_OK = 0,
	SA_READ_MISSING,  /* no such file */
	SA_READ_TOOBIG,   /* larger than the cap; nothing returned */
	SA_READ_IOERR,    /* open/read failed; errno says why */
	SA_READ_NOMEM,
};

/* Advises the kernel to back the 2 MiB-aligned interior of a large buffer not yet touched with
 * huge pages (where transparent huge pages are on "madvise"): a million-bar load faults a few
 * dozen times instead of tens of thousands. Harmless where unsupported. */
void sa_hint_hugepages(void *p, size_t n);

/* Reads the whole of path into a fresh NUL-terminated buffer if it is at most cap bytes.
 * On SA_READ_OK, *buf (caller frees) and *len are set; otherwise *buf is NULL. Reads at most
 * cap + 1 bytes whatever the file claims, so a growing file or a FIFO cannot exceed the cap. */
enum sa_read_status sa_read_file(const char *path, size_t cap, char **buf, size_t *len);

/* A one-line human description of a read status for path ("'x' is larger than 262144 bytes"). */
const char *sa_read_strerror(enum sa_read_status st, const char *path, size_t cap, char *msg, size_t msglen);

/* An output file written as path.tmp and renamed over path on commit, so a reader never sees
 * half a file. */
struct sa_atomic {
	FILE *fp;
	char *path;
	char *tmp;
};

/* Opens path.tmp for writing. Returns 0, or -1 with the reason in err ("cannot write 'x':
 * Permission denied"). */
int sa_atomic_open(struct sa_atomic *a, const char *path, char *err, size_t errlen);
/* Flushes, closes and renames over the target: a reader sees the old file or the new one,
 * never half of one. Returns 0, or -1 with the reason in err (the tmp file is removed).
 * Always releases a. */
int sa_atomic_commit(struct sa_atomic *a, char *err, size_t errlen);
/* Closes and removes the tmp file. Safe on an unopened or released struct. */
void sa_atomic_abort(struct sa_atomic *a);

/* Writes len bytes to path atomically. Returns 0, or -1 with the reason in err. */
int sa_write_file(const char *path, const void *buf, size_t len, char *err, size_t errlen);

/* Copies src to dst atomically, reading at most cap bytes. Returns 0, or -1 with the reason
 * in err. */
int sa_copy_file(const char *src, const char *dst, size_t cap, char *err, size_t errlen);

/* Lowercase hex SHA-256 (OpenSSL EVP) of a buffer or of a whole file, into hex[65].
 * Each returns 0, or -1 with the reason in err (sa_sha256_buf then leaves hex as ""). */
int sa_sha256_buf(const void *buf, size_t len, char hex[65], char *err, size_t errlen);
int sa_sha256_file(const char *path, char hex[65], char *err, size_t errlen);

/* mkdir -p. Returns 0, or -1 with the reason in err. */
int sa_mkdirs(const char *path, unsigned mode, char *err, size_t errlen);

#endif
