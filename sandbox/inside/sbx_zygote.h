/* sbx_zygote.h - inside the namespaces: the zygote that holds a warm interpreter, and the
 * ordered recipe each run child follows before it loads the upload. */
#ifndef SBX_ZYGOTE_H
#define SBX_ZYGOTE_H

#include <stddef.h>
#include <stdnoreturn.h>

#include "sbx.h"
#include "sbx_seccomp.h"

/* What a run child inherits from the zygote. Everything is owned by the zygote. */
struct sbx_zstate {
	void *helpers;               /* PyObject *: the dict of trusted helper functions */
	const char *src;             /* the upload's source, read but never run in the zygote */
	size_t src_len;
	struct sbx_limits lim;
	const char **roots;          /* read-only paths: the interpreter, its packages, libraries */
	size_t n_roots;
	struct sbx_seccomp_filter filter;  /* compiled once for the events descriptor of a run */
};

/* The zygote's main: initialises CPython, imports numpy and pandas, reads the source from
 * src_fd, compiles the seccomp filter, reports ready on ctrl_fd, then starts a data zygote
 * (sbx_prefix.h) for each request until the driver hangs up; every run is forked from one.
 * Runs as pid 1 of its namespaces. Returns the process exit code. */
int sbx_zygote_main(int ctrl_fd, int src_fd, const struct sbx_limits *lim);

#endif
