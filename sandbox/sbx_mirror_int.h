/* sbx_mirror_int.h - the host side's resident copy of the read roots: one tmpfs directory per
 * content, made once by the first audit that needs it and kept for every later one, so no
 * page a run may read is ever cold. */
#ifndef SBX_MIRROR_H
#define SBX_MIRROR_H

#include <stddef.h>

/* Where the copies are kept: a tmpfs every process of the machine sees (its pages stay in
 * memory: there is no disk behind them to evict them to). */
#define SBX_MIRROR_PARENT "/dev/shm"

/* Finds or makes the mirror of the n read roots (absolute paths, as the zygote names them)
 * and writes its directory into dir: each root's real path lies beneath it at that same path.
 * Its name is strataudit-roots- and the first 16 hex digits of a sha256 over every entry's
 * path, kind, mode, size, modification time and link target, so two checkouts (or two
 * audits at once) with the same files share one, and a change of any file makes another.
 * Returns 0, or -1 with the reason in err (dir is then ""). */
int sbx_mirror_get(const char *const *roots, size_t n, char *dir, size_t dirlen, char *err, size_t errlen);

#endif
