/* test_pysrc.c - the Python the sandbox binary embeds: the zygote's table (sbi_pysrc.h) holds
 * one row for each file of sandbox/inside/py/ and exactly its bytes, and the shims' table
 * (sbi_shims.h) the bytes of each shim under its dotted name; and the source a neighbourhood
 * set runs, its literals moved by position (sbi_literals.h). Run from the project root. */
#include "sbi_literals.h"

#include <dirent.h>
#include <stdnoreturn.h>
#include <sys/wait.h>
#include <unistd.h>
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

/* The literal cases, each "set" against one source; a case's line of the result: "rc left
 * text", text the moved source (its line ends written \r and \n as r and n) or why. */
static const char lit_src[] = "def signals(df, n=5):\n    x = df.close.rolling(17).mean() > 23.5\r\n"
			      "    y = 1_000 + .5e-3 + 17\r    return x * 2\n";
static const char *const lit_sets[] = {
	"{\"@2:26\": 13, \"@2:39\": 18.8, \"n\": 4}",
	"{\"@3:9\": 800, \"@3:17\": 0.0004, \"@3:25\": 20, \"@4:16\": 3}",
	"{\"n\": 4}",
	"{\"@2:27\": 13}",              /* inside a number */
	"{\"@2:5\": 13}",               /* a name */
	"{\"@2:99\": 13}",              /* past the line */
	"{\"@9:1\": 13}",               /* past the source */
	"{\"@2\": 13}",                 /* not @LINE:COL */
	"{\"@2:26\": true}",
	"{\"@2:26\": -3}",
	"{\"@2:26\": \"1; import os\"}",
};
#define N_LIT_SETS (sizeof lit_sets / sizeof lit_sets[0])

/* In a child of its own (the interpreter is never finalised there, so it leaks nothing the
 * test's leak check sees): every case's line into fd. */
static noreturn void literal_cases(int fd)
{
	PyObject *json;

	Py_Initialize();
	json = PyImport_ImportModule("json");
	for (size_t i = 0; json && i < N_LIT_SETS; i++) {
		PyObject *d = PyObject_CallMethod(json, "loads", "s", lit_sets[i]);
		char why[256] = "", *out = NULL, line[1024];
		size_t len = 0;
		int rc = d ? sbi_literals_apply(lit_src, sizeof lit_src - 1, d, &out, &len, why, sizeof why) : 9;
		int n = snprintf(line, sizeof line, "%d %ld %s", rc, d ? (long)PyDict_Size(d) : -1L,
				 rc == 1 ? out : why);

		for (int k = 0; k < n; k++)
			line[k] = line[k] == '\r' ? 'r' : line[k] == '\n' ? 'n' : line[k];
		line[n] = '\n';
		if (write(fd, line, (size_t)n + 1) != n + 1)
			_exit(2);
		free(out);
		Py_XDECREF(d);
	}
	_exit(json ? 0 : 1);
}

static void test_literals_moved_by_position(void **state)
{
	static const char *const want[N_LIT_SETS] = {
		"1 1 def signals(df, n=5):n    x = df.close.rolling(13).mean() > 18.8rn"
		"    y = 1_000 + .5e-3 + 17r    return x * 2n",
		"1 0 def signals(df, n=5):n    x = df.close.rolling(17).mean() > 23.5rn"
		"    y = 800 + 0.0004 + 20r    return x * 3n",
		"0 1 ",
		"-1 1 no plain number starts at 2:27 of the source",
		"-1 1 no plain number starts at 2:5 of the source",
		"-1 1 no plain number starts at 2:99 of the source",
		"-1 1 no plain number starts at 9:1 of the source",
		"-1 1 the literal key '@2' is not @LINE:COL",
		"-1 1 the value for the literal at 2:26 is not a positive number",
		"-1 1 the value for the literal at 2:26 is not a positive number",
		"-1 1 the value for the literal at 2:26 is not a positive number",
	};
	char buf[8192];
	size_t got = 0;
	int fds[2], st;
	pid_t pid;
	ssize_t r;

	(void)state;
	assert_int_equal(pipe(fds), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		literal_cases(fds[1]);
	}
	close(fds[1]);
	while ((r = read(fds[0], buf + got, sizeof buf - 1 - got)) > 0)
		got += (size_t)r;
	close(fds[0]);
	buf[got] = '\0';
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	{
		char *line = buf;

		for (size_t i = 0; i < N_LIT_SETS; i++) {
			char *end = strchr(line, '\n');

			assert_non_null(end);
			*end = '\0';
			assert_string_equal(line, want[i]);
			line = end + 1;
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_file_has_its_row),
		cmocka_unit_test(test_rows_in_name_order),
		cmocka_unit_test(test_the_zygote_finds_its_three),
		cmocka_unit_test(test_shims_hold_their_files),
		cmocka_unit_test(test_literals_moved_by_position),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
