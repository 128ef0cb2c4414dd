/* test_arena.c - the interpreter's arenas from one region on huge pages: aligned, advised, reused
 * when handed back, and plain mappings once the region is full or for another size. Reached
 * through CPython's own arena-allocator interface, as the interpreter reaches it. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "sbi_arena.h"

#define MIB ((size_t)1 << 20)

#define REGION_MIB 32  /* the region's size, as sbi_arena.c reserves it */

static PyObjectArenaAllocator arenas;
static char *region_base;  /* the first arena handed out: the region's start */

/* The VmFlags line of the mapping that holds p, from /proc/self/smaps; "" when none does. */
static const char *flags_of(const void *p, char *buf, size_t len)
{
	FILE *fp = fopen("/proc/self/smaps", "r");
	char line[512];
	int inside = 0;

	buf[0] = '\0';
	if (!fp)
		return buf;
	while (fgets(line, sizeof line, fp)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
			inside = (uintptr_t)p >= lo && (uintptr_t)p < hi;
		else if (inside && strncmp(line, "VmFlags:", 8) == 0) {
			snprintf(buf, len, "%s", line);
			break;
		}
	}
	fclose(fp);
	return buf;
}

/* Whether this kernel has transparent huge pages at all (else the advice is refused). */
static int have_thp(void)
{
	return access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) == 0;
}

static int setup(void **state)
{
	(void)state;
	sbi_arena_install();
	PyObject_GetArenaAllocator(&arenas);
	region_base = arenas.alloc(arenas.ctx, MIB);
	if (!region_base || (uintptr_t)region_base % (2 * MIB))
		return -1;
	arenas.free(arenas.ctx, region_base, MIB);
	return 0;
}

static int in_region(const char *p)
{
	return p >= region_base && p < region_base + REGION_MIB * MIB;
}

static void test_arena_on_huge_pages(void **state)
{
	char flags[512];
	char *a, *b;

	(void)state;
	/* the one handed back first, then the next never handed out */
	a = arenas.alloc(arenas.ctx, MIB);
	assert_ptr_equal(a, region_base);
	b = arenas.alloc(arenas.ctx, MIB);
	assert_ptr_equal(b, region_base + MIB);
	memset(a, 0x5a, 2 * MIB);
	if (have_thp())
		assert_non_null(strstr(flags_of(b, flags, sizeof flags), " hg"));
	arenas.free(arenas.ctx, b, MIB);
	arenas.free(arenas.ctx, a, MIB);
}

static void test_arena_reused(void **state)
{
	char *a, *b, *c;

	(void)state;
	a = arenas.alloc(arenas.ctx, MIB);
	assert_non_null(a);
	arenas.free(arenas.ctx, a, MIB);
	b = arenas.alloc(arenas.ctx, MIB);
	assert_ptr_equal(a, b);
	/* and the region grows from where it stood, not past a reused one */
	c = arenas.alloc(arenas.ctx, MIB);
	assert_ptr_equal(c, region_base + MIB);
	arenas.free(arenas.ctx, c, MIB);
	arenas.free(arenas.ctx, b, MIB);
}

static void test_other_size_is_a_plain_mapping(void **state)
{
	char flags[512];
	unsigned char vec[1];
	char *a;

	(void)state;
	a = arenas.alloc(arenas.ctx, 3 * MIB);
	assert_non_null(a);
	a[3 * MIB - 1] = 1;
	assert_false(in_region(a));
	assert_null(strstr(flags_of(a, flags, sizeof flags), " hg"));
	arenas.free(arenas.ctx, a, 3 * MIB);
	/* handed back to the kernel: the page is no longer mapped */
	assert_int_equal(mincore(a, 4096, vec), -1);
}


static void test_full_region_falls_back(void **state)
{
	char *held[REGION_MIB + 1];
	unsigned char vec[1];
	char flags[512];
	size_t n = 0;

	(void)state;
	/* the region's arenas, handed back or never handed out, then the first past it */
	while (n <= REGION_MIB) {
		held[n] = arenas.alloc(arenas.ctx, MIB);
		assert_non_null(held[n]);
		if (!in_region(held[n]))
			break;
		n++;
	}
	assert_int_equal(n, REGION_MIB);
	held[n][MIB - 1] = 1;
	assert_null(strstr(flags_of(held[n], flags, sizeof flags), " hg"));
	arenas.free(arenas.ctx, held[n], MIB);
	assert_int_equal(mincore(held[n], 4096, vec), -1);
	for (size_t i = 0; i < n; i++)
		arenas.free(arenas.ctx, held[i], MIB);
	/* an arena handed back to the full region is handed out again, not mapped afresh */
	held[0] = arenas.alloc(arenas.ctx, MIB);
	assert_true(in_region(held[0]));
	arenas.free(arenas.ctx, held[0], MIB);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arena_on_huge_pages),
		cmocka_unit_test(test_arena_reused),
		cmocka_unit_test(test_other_size_is_a_plain_mapping),
		cmocka_unit_test(test_full_region_falls_back),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
