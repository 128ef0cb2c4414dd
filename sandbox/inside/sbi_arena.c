/* sbi_arena.c - memory laid out for cheap forks: the interpreter's object arenas carved from one
 * region advised onto huge pages, and malloc's free top moved onto a huge-page boundary.
 *
 * CPython's small-object allocator takes its memory a 1 MiB arena at a time, each its own
 * mapping of 4 KiB pages: a warm interpreter with numpy and pandas holds twenty-odd of them, and
 * every fork of it copies, and every exit tears down, one page-table entry per page. Carved from
 * a region that the kernel may back with 2 MiB pages, the same objects cost a fork one entry per
 * 2 MiB. Arenas past the region, or of another size, are plain mappings as before. The
 * region is sized to the warm interpreter (about 22 MiB of arenas with numpy and pandas): a
 * run's address-space limit counts it as held already, like the free space in malloc's heap,
 * so a run may still map its whole mem_mb of arrays, and its Python objects may use the
 * region's rest besides.
 *
 * A run's large arrays come from the top of malloc's heap. Where that top starts inside a 2 MiB
 * block the zygote has already touched part of, the rest of the block can only be faulted in
 * 4 KiB pages, up to 511 faults a run; where it starts on a boundary, every 2 MiB of new arrays
 * is one fault and one huge page. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "sbi_arena.h"

#include <malloc.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#define REGION_BYTES ((size_t)32 << 20)
#define HUGE_BYTES   ((size_t)2 << 20)
#define ARENA_BYTES  ((size_t)1 << 20)
#define CHUNK_HEAD   (2 * sizeof(size_t))  /* a malloc chunk's header, before its memory */

static struct {
	char *base;      /* REGION_BYTES, aligned to HUGE_BYTES; NULL when the region is not there */
	size_t used;     /* bytes handed out at least once, from base up */
	void *free;      /* arenas handed back, each holding the next one's address in its first bytes */
} region;

static void *plain_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static int in_region(const void *p)
{
	return region.base && (const char *)p >= region.base &&
	       (const char *)p < region.base + REGION_BYTES;
}

static void *arena_alloc(void *ctx, size_t size)
{
	void *p;

	(void)ctx;
	if (size != ARENA_BYTES || !region.base)
		return plain_alloc(size);
	if (region.free) {
		p = region.free;
		region.free = *(void **)p;
		return p;
	}
	if (region.used + ARENA_BYTES > REGION_BYTES)
		return plain_alloc(size);
	p = region.base + region.used;
	region.used += ARENA_BYTES;
	return p;
}

/* An arena handed back stays resident for the next one: the region never holds more than its
 * size, and giving pages back would split the huge page around them. */
static void arena_free(void *ctx, void *p, size_t size)
{
	(void)ctx;
	if (in_region(p)) {
		*(void **)p = region.free;
		region.free = p;
		return;
	}
	munmap(p, size);
}

/* The region: 2 MiB more than its size reserved, then trimmed to an aligned start, so every
 * 2 MiB of it can be one huge page. */
static int region_map(void)
{
	size_t span = REGION_BYTES + HUGE_BYTES;
	char *raw = mmap(NULL, span, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	char *base;
	size_t head;

	if (raw == MAP_FAILED)
		return -1;
	base = (char *)(((uintptr_t)raw + HUGE_BYTES - 1) & ~(uintptr_t)(HUGE_BYTES - 1));
	head = (size_t)(base - raw);
	if (head)
		munmap(raw, head);
	if (span - head > REGION_BYTES)
		munmap(base + REGION_BYTES, span - head - REGION_BYTES);
	/* Without huge pages the region is still one mapping instead of many: keep it. */
	(void)madvise(base, REGION_BYTES, MADV_HUGEPAGE);
	region.base = base;
	return 0;
}

void sbi_arena_install(void)
{
	PyObjectArenaAllocator a = { NULL, arena_alloc, arena_free };

	if (region.base || region_map() < 0)
		return;
	PyObject_SetArenaAllocator(&a);
}

/* The top chunk (mallinfo2's keepcost is its size, and it ends at the break) is moved by one
 * block held for good, so the next chunk carved from it starts its memory on a boundary. The
 * block is address space only: malloc writes its header, nothing touches the rest. */
void sbi_heap_align(void)
{
	struct mallinfo2 mi = mallinfo2();
	uintptr_t top = (uintptr_t)sbrk(0) - mi.keepcost;
	uintptr_t want = ((top + CHUNK_HEAD + HUGE_BYTES - 1) & ~(uintptr_t)(HUGE_BYTES - 1)) - CHUNK_HEAD;
	void *pad;

	if (!mi.keepcost || want == top)
		return;
	if (want - top < 4 * CHUNK_HEAD)
		want += HUGE_BYTES;
	pad = malloc(want - top - sizeof(size_t));
	/* served from a free chunk rather than the top (or another allocator's malloc): no use */
	if (pad && (uintptr_t)pad != top + CHUNK_HEAD)
		free(pad);
}
