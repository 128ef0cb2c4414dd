/* sbi_zygote.h - inside the namespaces: the zygote that holds a warm interpreter, and the
 * ordered recipe each run child follows before it loads the upload. */
#ifndef SBX_ZYGOTE_H
#define SBX_ZYGOTE_H

#include <stddef.h>
#include <stdnoreturn.h>

#include "sbx_proto.h"
#include "sbi_seccomp.h"

/* What a run child inherits from the zygote. Everything is owned by the zygote. */
struct sbi_zstate {
	void *helpers;               /* PyObject *: the dict of trusted helper functions */
	const char *src;             /* the upload's source, read but never run in the zygote */
	size_t src_len;
	const char *params_file;     /* freqtrade's parameter file beside it, "" when none */
	size_t params_file_len;
	struct sbx_limits lim;
	const char **roots;          /* read-only paths: the interpreter, its packages, libraries */
	size_t n_roots;
	struct sbi_seccomp_filter filter;  /* compiled once for the events descriptor of a run */
};

/* The zygote's main: initialises CPython, imports numpy and pandas, reads the source from
 * src_fd, compiles the seccomp filter, reports ready on ctrl_fd, then starts a data zygote
 * (sbi_prefix.h) for each request until the driver hangs up; every run is forked from one.
 * Runs as pid 1 of its namespaces. Returns the process exit code. */
int sbi_zygote_main(int ctrl_fd, int src_fd, const struct sbx_limits *lim);

/* The zygote's first argument once it runs over the read roots' resident copy. */
#define SBI_ZYGOTE_RESIDENT "--zygote-resident"

/* The zygote's first step: starts the interpreter only to list the read roots, asks the driver
 * on ctrl_fd for their resident copy (sbx_mirror.c), binds each copy over its root in this
 * (private) mount namespace, and executes this program again as SBI_ZYGOTE_RESIDENT with the
 * rest of argv: so every file the zygote then maps, the loader's libraries included, and every
 * file a run may read, is a page of tmpfs, never cold. Returns only on failure (told the
 * driver), with the exit status. */
int sbi_zygote_resident(int ctrl_fd, char **argv);

#endif
