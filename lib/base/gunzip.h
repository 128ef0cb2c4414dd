/* gunzip.h - a gzip member in memory inflated (libdeflate, zlib for diagnosis) into a bounded buffer. */
#ifndef SA_GUNZIP_H
#define SA_GUNZIP_H

#include <stdbool.h>
#include <stddef.h>

/* True when buf starts with the gzip magic bytes. */
bool sa_is_gzip(const void *buf, size_t len);

/* Inflates the gzip data buf[0..len) into a fresh NUL-terminated buffer of at most cap bytes.
 * Refuses output beyond cap (a small file can claim a huge one), a truncated or corrupt stream
 * and bytes after its end. Returns 0 with *out (caller frees) and *outlen, or -1 with the
 * reason in err and *out NULL. */
int sa_gunzip(const void *buf, size_t len, size_t cap, char **out, size_t *outlen, char *err,
	      size_t errlen);

#endif
