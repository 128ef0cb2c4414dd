/* sbi_root.h - inside the namespaces: the zygote's own root file system, built once, which
 * every data zygote and run inherits. */
#ifndef SBX_ROOT_H
#define SBX_ROOT_H

#include <stddef.h>

/* Moves the calling process (uid 0 of its user namespace, in a private mount namespace) into a
 * fresh root: a read-only tmpfs holding read-only binds of the n read roots at their own paths,
 * each bound from its copy beneath mirror (the resident copy the driver made, sbx_mirror.c)
 * (the links on the way to them, and the /etc/alternatives links that lead into them, made
 * again), /dev/null, a /proc of this PID namespace (each run covers it), an empty mount point
 * at scratch, and nothing else. The host's root is detached. Returns 0, or -1 with the step
 * and its cause in err. */
int sbi_root_enter(const char *const *roots, size_t n, const char *mirror, const char *scratch,
		   char *err, size_t errlen);

#endif
