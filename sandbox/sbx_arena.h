/* sbx_arena.h - the interpreter's object arenas on huge pages, so a fork copies fewer entries. */
#ifndef SBX_ARENA_H
#define SBX_ARENA_H

#include <stddef.h>

/* Before the interpreter starts: arenas of the small-object allocator come from one reserved
 * region advised onto huge pages (a plain mapping each when that fails or the region is full). */
void sbx_arena_install(void);

/* Bytes of the region's address space never handed out: reserved, not used, so not part of
 * what a run's address-space limit should count as already spent. */
size_t sbx_arena_unused(void);

#endif
