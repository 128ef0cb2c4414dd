/* test_pysrc.c - the Python the sandbox binary embeds: the zygote's table (sbi_pysrc.h) holds
 * one row for each file of sandbox/inside/py/ and exactly its bytes, and the shims' table
 * (sbi_shims.h) the bytes of each shim under its dotted name. Run from the project root. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fileio.h"
#include "sbi_pysrc.h"
#include "sbi_shims.h"

#define PY_DIR "sandbox/inside/py"

/* The file's bytes equal src (a NUL-terminated copy of a table row's). */
static void same_as_file(const char *path, const char *src)
{
	char *buf = NULL;
	size_t len = 0;

	assert_int_equal(sa_read_file(path, SA_JSON_CAP, &buf, &len), SA_READ_OK);
	assert_int_equal(strlen(src), len);
	assert_memory_equal(src, buf, len);
	free(buf);
}

static void test_every_file_has_its_row(void **state)
{
	DIR *d = opendir(PY_DIR);
	struct dirent *e;
	size_t files = 0;

	(void)state;
	assert_non_null(d);
	while ((e = readdir(d))) {
		char path[512], mod[256];
		size_t l = strlen(e->d_name);
		const char *src;

		if (l < 4 || strcmp(e->d_name + l - 3, ".py") != 0)
			continue;
		snprintf(mod, sizeof mod, "%.*s", (int)(l - 3), e->d_name);
		snprintf(path, sizeof path, "%s/%s", PY_DIR, e->d_name);
		src = sbi_pysrc_find(mod);
		assert_non_null(src);
		same_as_file(path, src);
		files++;
	}
	closedir(d);
	assert_int_equal(files, sbi_n_pysrcs);
	assert_true(files >= 3);
}

static void test_rows_in_name_order(void **state)
{
	(void)state;
	for (size_t i = 0; i < sbi_n_pysrcs; i++) {
		assert_int_equal(sbi_pysrcs[i].package, 0);
		if (i > 0)
			assert_true(strcmp(sbi_pysrcs[i - 1].module, sbi_pysrcs[i].module) < 0);
	}
}

static void test_the_zygote_finds_its_three(void **state)
{
	(void)state;
	assert_non_null(strstr(sbi_pysrc_find("sa_helpers"), "\ndef to_int8(x, n, idx=None, events=False):\n"));
	assert_non_null(strstr(sbi_pysrc_find("sa_roots"), "\ndef roots():\n"));
	assert_non_null(strstr(sbi_pysrc_find("sa_shim_loader"), "\ndef load(rows, params_file=None):\n"));
	assert_null(sbi_pysrc_find("sa_helper"));
	assert_null(sbi_pysrc_find("sa_helpers.py"));
	assert_null(sbi_pysrc_find(""));
}

static void test_shims_hold_their_files(void **state)
{
	size_t found = 0;

	(void)state;
	for (size_t i = 0; i < sbi_n_shims; i++) {
		char path[512], rel[256];

		snprintf(rel, sizeof rel, "%s", sbi_shims[i].module);
		for (char *p = rel; *p; p++)
			if (*p == '.')
				*p = '/';
		snprintf(path, sizeof path, "sandbox/inside/shims/%s%s", rel,
			 sbi_shims[i].package ? "/__init__.py" : ".py");
		same_as_file(path, sbi_shims[i].src);
		found += strcmp(sbi_shims[i].module, "sa_frameworks") == 0;
	}
	assert_int_equal(found, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_file_has_its_row),
		cmocka_unit_test(test_rows_in_name_order),
		cmocka_unit_test(test_the_zygote_finds_its_three),
		cmocka_unit_test(test_shims_hold_their_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
