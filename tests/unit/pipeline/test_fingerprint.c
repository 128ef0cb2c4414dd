/* test_fingerprint.c - the library versions the fingerprint records, read by the embedded
 * interpreter from package metadata, held to what Debian's python3 itself reports. */
#include <Python.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "fingerprint_libs.h"
#include "pylibs.h"

/* What /usr/bin/python3 says of a distribution's version, "" when it is not installed. */
static void outside_version(const char *dist, char *buf, size_t len)
{
	char cmd[256];
	FILE *p;

	snprintf(cmd, sizeof cmd, "/usr/bin/python3 -c 'import importlib.metadata as m\n"
		 "try: print(m.version(\"%s\"))\nexcept Exception: print()' 2>/dev/null", dist);
	buf[0] = '\0';
	p = popen(cmd, "r");
	assert_non_null(p);
	if (!fgets(buf, (int)len, p))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	pclose(p);
}

static void test_libraries(void **state)
{
	cJSON *o = fp_libraries();
	const cJSON *py;
	char want[128];

	(void)state;
	assert_non_null(o);
	py = cJSON_GetObjectItemCaseSensitive(o, "python");
	assert_true(cJSON_IsString(py));
	/* the interpreter the sandbox embeds, not whichever python3 is first on PATH */
	assert_string_equal(py->valuestring, PY_VERSION);
	for (int i = 0; da_pylibs[i].module; i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, da_pylibs[i].module);

		outside_version(da_pylibs[i].distribution, want, sizeof want);
		if (want[0]) {
			assert_true(cJSON_IsString(v));
			assert_string_equal(v->valuestring, want);
		} else {
			assert_true(cJSON_IsNull(v));
		}
	}
	/* numpy and pandas are what every strategy runs with: both must be there */
	assert_true(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, "numpy")));
	assert_true(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, "pandas")));
	cJSON_Delete(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_libraries),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
