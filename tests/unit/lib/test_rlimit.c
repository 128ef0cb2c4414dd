/* test_rlimit.c - the shared rlimit helper: every row set in order, or a stop at the first
 * refused, naming it. Only limits that can be lowered harmlessly in a test process are set. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>

#include <cmocka.h>

#include "rlimit.h"

static void test_all_set(void **state)
{
	struct rlimit core, fsize, after;
	const struct sa_rlimit t[] = {
		{ RLIMIT_CORE, "RLIMIT_CORE", 0, 0 },
		{ RLIMIT_FSIZE, "RLIMIT_FSIZE", 0, 0 },
	};
	const struct sa_rlimit *failed = NULL;

	(void)state;
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &fsize), 0);
	assert_int_equal(sa_rlimits_set(t, 1, &failed), 0);
	assert_null(failed);
	assert_int_equal(getrlimit(RLIMIT_CORE, &core), 0);
	assert_true(core.rlim_cur == 0 && core.rlim_max == 0);
	/* n bounds the table: the FSIZE row was not applied */
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &after), 0);
	assert_true(after.rlim_cur == fsize.rlim_cur && after.rlim_max == fsize.rlim_max);
}

/* A soft limit above its hard one is refused by every kernel, root or not; the row after the
 * refused one must not be tried. */
static void test_stops_at_refused(void **state)
{
	struct rlimit before, after;
	const struct sa_rlimit t[] = {
		{ RLIMIT_CORE, "RLIMIT_CORE", 0, 0 },
		{ RLIMIT_NOFILE, "RLIMIT_NOFILE", 20, 10 },
		{ RLIMIT_MSGQUEUE, "RLIMIT_MSGQUEUE", 0, 0 },
	};
	const struct sa_rlimit *failed = NULL;

	(void)state;
	assert_int_equal(getrlimit(RLIMIT_MSGQUEUE, &before), 0);
	errno = 0;
	assert_int_equal(sa_rlimits_set(t, sizeof t / sizeof t[0], &failed), -1);
	assert_int_equal(errno, EINVAL);
	assert_ptr_equal(failed, &t[1]);
	assert_string_equal(failed->name, "RLIMIT_NOFILE");
	assert_int_equal(getrlimit(RLIMIT_MSGQUEUE, &after), 0);
	assert_true(after.rlim_cur == before.rlim_cur && after.rlim_max == before.rlim_max);
	assert_int_equal(sa_rlimits_set(&t[1], 1, NULL), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_set),
		cmocka_unit_test(test_stops_at_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
