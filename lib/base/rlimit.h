/* rlimit.h - setting resource limits, with one error policy for every caller: all of them,
 * or stop. */
#ifndef SA_RLIMIT_H
#define SA_RLIMIT_H

#include <stddef.h>
#include <sys/resource.h>

/* One limit to set: which (RLIMIT_*), its name for messages ("RLIMIT_CPU"), its two values. */
struct sa_rlimit {
	int resource;
	const char *name;
	rlim_t soft, hard;
};

/* Sets t[0..n) in order and stops at the first the kernel refuses; the rows after it are not
 * tried. A limit that did not take is a layer missing, so the caller must not go on to run
 * what it was meant to confine. Returns 0, or -1 with errno set and *failed (when not NULL)
 * the refused row. Calls nothing but setrlimit, so a child between fork and exec may use it. */
int sa_rlimits_set(const struct sa_rlimit *t, size_t n, const struct sa_rlimit **failed)
	__attribute__((warn_unused_result));

#endif
