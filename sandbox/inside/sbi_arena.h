/* sbi_arena.h - memory laid out for cheap forks: the interpreter's object arenas on huge pages,
 * malloc's free top on a huge-page boundary. */
#ifndef SBX_ARENA_H
#define SBX_ARENA_H

#include <stddef.h>

/* Before the interpreter starts: arenas of the small-object allocator come from one reserved
 * region advised onto huge pages (a plain mapping each when that fails or the region is full). */
void sbi_arena_install(void);

/* Before the zygote forks anything: what malloc carves next starts on a 2 MiB boundary, so a
 * run's new arrays fault in whole huge pages (the data zygote inherits it, and allocates nothing
 * from the top before its runs). Once, so every run starts from the same heap. When the heap is
 * not glibc's as expected, nothing. */
void sbi_heap_align(void);

#endif
