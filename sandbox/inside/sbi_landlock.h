/* sbi_landlock.h - the run's Landlock domain: read-only interpreter files, one writable
 * scratch directory, nothing executable, no TCP, no signals or abstract sockets outside. */
#ifndef SBX_LANDLOCK_H
#define SBX_LANDLOCK_H

#include <stddef.h>

/* The kernel's Landlock ABI version, or 0 when Landlock is unavailable. */
int sbi_landlock_abi(void);

/* Restricts the calling process for good: read (files and directories) under each of ro[0..n),
 * everything but execute under rw, and no other file access; on ABI >= 4 no TCP bind or
 * connect; on ABI >= 6 no signals to, or abstract unix sockets of, processes outside the
 * domain. Paths that do not exist are skipped. Needs no_new_privs set first. Returns 0, or -1
 * with the reason in err (the caller must then not load the upload). */
int sbi_landlock_apply(const char *const *ro, size_t n, const char *rw, char *err, size_t errlen);

#endif
