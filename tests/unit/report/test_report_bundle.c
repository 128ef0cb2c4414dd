/* test_report_bundle.c - bundle listing, sha256sums.txt and the reproducible zip. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>
#include <cmocka.h>

#include "bundle_files.h"
#include "fileio.h"

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static char *slurp(const char *path, size_t *len)
{
	char *buf = NULL;
	assert_int_equal(sa_read_file(path, 1 << 20, &buf, len), SA_READ_OK);
	return buf;
}

static int setup(void **state)
{
	char *dir = strdup("/tmp/test-bundle.XXXXXX");
	assert_non_null(mkdtemp(dir));
	put(dir, "b.json", "{}\n");
	put(dir, "a.txt", "abc");
	put(dir, ".dir", "");
	put(dir, "left.tmp", "x");
	put(dir, "demo.zip", "old zip");
	put(dir, "sha256sums.txt", "old sums");
	char sub[512];
	snprintf(sub, sizeof sub, "%s/sub", dir);
	mkdir(sub, 0755);
	*state = dir;
	return 0;
}

static int teardown(void **state)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", (char *)*state);
	if (system(cmd) != 0)
		return -1;
	free(*state);
	return 0;
}

static void test_list_skips_what_is_not_bundle(void **state)
{
	struct rpt_list l;
	char err[256];
	assert_int_equal(rpt_list_dir(*state, "demo.zip", &l, err, sizeof err), 0);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.names[0], "a.txt");
	assert_string_equal(l.names[1], "b.json");
	rpt_list_release(&l);
}

static void test_sums_format(void **state)
{
	struct rpt_list l;
	char err[256], path[512];
	size_t len;
	assert_int_equal(rpt_list_dir(*state, "demo.zip", &l, err, sizeof err), 0);
	assert_int_equal(rpt_write_sums(*state, &l, err, sizeof err), 0);
	snprintf(path, sizeof path, "%s/sha256sums.txt", (char *)*state);
	char *got = slurp(path, &len);
	assert_string_equal(got,
		"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  a.txt\n"
		"ca3d163bab055381827226140568f3bef7eaac187cebd76878e0b63e9e442356  b.json\n");
	free(got);
	rpt_list_release(&l);
}

static void test_zip_sorted_fixed_and_reproducible(void **state)
{
	struct rpt_list l;
	char err[256], z1[512], z2[512];
	size_t n1, n2;
	snprintf(z1, sizeof z1, "%s/demo.zip", (char *)*state);
	snprintf(z2, sizeof z2, "%s/again.zip.tmp", (char *)*state);
	assert_int_equal(rpt_list_dir(*state, "demo.zip", &l, err, sizeof err), 0);
	assert_int_equal(rpt_write_sums(*state, &l, err, sizeof err), 0);
	assert_int_equal(rpt_write_zip(*state, z1, "demo", &l, err, sizeof err), 0);
	sleep(1);
	assert_int_equal(rpt_write_zip(*state, z2, "demo", &l, err, sizeof err), 0);
	char *a = slurp(z1, &n1), *b = slurp(z2, &n2);
	assert_int_equal(n1, n2);
	assert_memory_equal(a, b, n1);
	free(a);
	free(b);

	zip_t *z = zip_open(z1, ZIP_RDONLY, NULL);
	static const char *const want[] = { "demo/a.txt", "demo/b.json", "demo/sha256sums.txt" };
	assert_non_null(z);
	assert_int_equal(zip_get_num_entries(z, 0), 3);
	for (int i = 0; i < 3; i++) {
		zip_stat_t st;
		assert_int_equal(zip_stat_index(z, (zip_uint64_t)i, 0, &st), 0);
		assert_string_equal(st.name, want[i]);
		struct tm tm;
		localtime_r(&st.mtime, &tm);
		assert_int_equal(tm.tm_year + 1900, 2000);
		assert_int_equal(tm.tm_yday, 0);
	}
	zip_close(z);
	rpt_list_release(&l);
}

static void test_refuses_unprintable_names(void **state)
{
	struct rpt_list l;
	char err[256];
	put(*state, "bad\nname", "x");
	assert_int_equal(rpt_list_dir(*state, "demo.zip", &l, err, sizeof err), -1);
	assert_non_null(strstr(err, "newline or backslash"));
	assert_int_equal(rpt_list_dir("/nonexistent/dir", "x.zip", &l, err, sizeof err), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_list_skips_what_is_not_bundle, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sums_format, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zip_sorted_fixed_and_reproducible, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refuses_unprintable_names, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
